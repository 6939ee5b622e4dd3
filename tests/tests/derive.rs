//! `#[derive(Elicit)]`: the generated schema (compared with JSON written from the spec's rules)
//! and the generated `from_content` checks.
#![allow(dead_code)] // Fields are read through `from_content` only in some tests.

use std::collections::{BTreeSet, HashSet};

use mcp_schema::elicit::{RequestedSchema, ValidationErrors};
use mcp_schema::Elicit;
use serde_json::{json, Map, Value};

fn schema_json<T: Elicit>() -> String {
    let schema = T::requested_schema();
    schema.check().expect("the derived schema is consistent");
    serde_json::to_string(&schema).unwrap()
}

fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => panic!("not an object"),
    }
}

/// `(pointer, keyword)` of every error, in order.
fn errors<T: Elicit + std::fmt::Debug>(value: Value) -> Vec<(String, &'static str)> {
    let result: Result<T, ValidationErrors> = T::from_content(&content(value));
    match result {
        Ok(value) => panic!("accepted: {value:?}"),
        Err(errors) => errors
            .errors()
            .iter()
            .map(|e| (e.pointer.clone(), e.keyword))
            .collect(),
    }
}

fn accept<T: Elicit>(value: Value) -> T {
    match T::from_content(&content(value)) {
        Ok(value) => value,
        Err(errors) => panic!("rejected: {errors}"),
    }
}

fn e(pointer: &str, keyword: &'static str) -> (String, &'static str) {
    (pointer.to_owned(), keyword)
}

// ---------------------------------------------------------------------------------------------

#[derive(Debug, Elicit)]
struct Contact {
    /// Your full name
    name: String,
    #[elicit(format = "email", title = "Email")]
    email: std::string::String,
    #[elicit(min_length = 2, max_length = 4)]
    nickname: Option<String>,
}

#[test]
fn strings() {
    assert_eq!(
        schema_json::<Contact>(),
        r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","title":"Email"},"nickname":{"type":"string","minLength":2,"maxLength":4}},"required":["name","email"]}"#
    );
    let c: Contact = accept(json!({"name": "Ann", "email": "a@b.c"}));
    assert_eq!((c.name.as_str(), c.nickname), ("Ann", None));
    let c: Contact = accept(json!({"name": "Ann", "email": "a@b.c", "nickname": "héé"}));
    assert_eq!(c.nickname.as_deref(), Some("héé"));
    // Lengths count code points: "ééééé" is 5 code points (10 bytes).
    assert_eq!(
        errors::<Contact>(json!({"email": 3, "nickname": "ééééé"})),
        vec![
            e("/name", "required"),
            e("/email", "type"),
            e("/nickname", "maxLength")
        ]
    );
    assert_eq!(
        errors::<Contact>(json!({"name": "A", "email": "a@example.com", "nickname": "a"})),
        vec![e("/nickname", "minLength")]
    );
    // null is not a string, even for an optional property.
    assert_eq!(
        errors::<Contact>(json!({"name": "A", "email": "a@example.com", "nickname": null})),
        vec![e("/nickname", "type")]
    );
}

#[derive(Debug, Elicit)]
struct Numbers {
    small: u8,
    #[elicit(minimum = -5, maximum = 5)]
    delta: i32,
    ratio: f64,
    #[elicit(minimum = 0.5, maximum = 2, default = 1.5)]
    scale: Option<f32>,
    big: i64,
}

#[test]
fn numbers() {
    assert_eq!(
        schema_json::<Numbers>(),
        r#"{"type":"object","properties":{"small":{"type":"integer","minimum":0,"maximum":255},"delta":{"type":"integer","minimum":-5,"maximum":5},"ratio":{"type":"number"},"scale":{"type":"number","minimum":0.5,"maximum":2,"default":1.5},"big":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"required":["small","delta","ratio","big"]}"#
    );
    let n: Numbers = accept(json!({"small": 3.0, "delta": -5, "ratio": 1, "big": 1}));
    assert_eq!((n.small, n.delta, n.ratio, n.scale), (3, -5, 1.0, None));
    let n: Numbers = accept(
        json!({"small": 255, "delta": 5, "ratio": 0.25, "scale": 2, "big": -9223372036854775808i64}),
    );
    assert_eq!((n.small, n.scale, n.big), (255, Some(2.0), i64::MIN));
    // A u8 never receives 300; 1.5 is not an integer; "1" is not a number.
    assert_eq!(
        errors::<Numbers>(
            json!({"small": 300, "delta": 1.5, "ratio": "1", "scale": 0.25, "big": 1e300})
        ),
        vec![
            e("/small", "maximum"),
            e("/delta", "type"),
            e("/ratio", "type"),
            e("/scale", "minimum"),
            e("/big", "maximum"),
        ]
    );
    assert_eq!(
        errors::<Numbers>(json!({"small": -1, "delta": 6, "ratio": 0, "scale": 2.5, "big": true})),
        vec![
            e("/small", "minimum"),
            e("/delta", "maximum"),
            e("/scale", "maximum"),
            e("/big", "type"),
        ]
    );
    assert_eq!(
        errors::<Numbers>(
            json!({"small": 18446744073709551615u64, "delta": -6, "ratio": 0, "big": 1})
        ),
        vec![e("/small", "maximum"), e("/delta", "minimum")]
    );
}

#[derive(Debug, Elicit)]
struct Flags {
    #[elicit(default = true, title = "Subscribe")]
    subscribe: bool,
    #[elicit(description = "Explicit description wins")]
    /// Doc comment loses
    agree: Option<bool>,
}

#[test]
fn booleans() {
    assert_eq!(
        schema_json::<Flags>(),
        r#"{"type":"object","properties":{"subscribe":{"type":"boolean","default":true,"title":"Subscribe"},"agree":{"type":"boolean","description":"Explicit description wins"}},"required":["subscribe"]}"#
    );
    let f: Flags = accept(json!({"subscribe": false, "agree": true}));
    assert_eq!((f.subscribe, f.agree), (false, Some(true)));
    assert_eq!(
        errors::<Flags>(json!({"subscribe": "yes", "agree": 1})),
        vec![e("/subscribe", "type"), e("/agree", "type")]
    );
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Elicit)]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Elicit)]
#[serde(rename_all = "snake_case")]
enum Plan {
    #[elicit(title = "Free tier")]
    Free,
    #[elicit(title = "Pro tier")]
    ProTier,
    Enterprise,
}

#[derive(Debug, Elicit)]
struct Choice {
    color: Color,
    #[elicit(default = "pro_tier", title = "Plan")]
    plan: Option<Plan>,
}

#[test]
fn single_select() {
    assert_eq!(
        schema_json::<Choice>(),
        r#"{"type":"object","properties":{"color":{"type":"string","enum":["Red","Green","Blue"]},"plan":{"type":"string","oneOf":[{"const":"free","title":"Free tier"},{"const":"pro_tier","title":"Pro tier"},{"const":"enterprise","title":"enterprise"}],"default":"pro_tier","title":"Plan"}},"required":["color"]}"#
    );
    let c: Choice = accept(json!({"color": "Green", "plan": "enterprise"}));
    assert_eq!((c.color, c.plan), (Color::Green, Some(Plan::Enterprise)));
    assert_eq!(
        errors::<Choice>(json!({"color": "green", "plan": 1})),
        vec![e("/color", "enum"), e("/plan", "type")]
    );
}

#[derive(Debug, Elicit)]
struct Multi {
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<Color>,
    #[elicit(default = ["free", "enterprise"])]
    plans: BTreeSet<Plan>,
    extra: Option<HashSet<Color>>,
}

#[test]
fn multi_select() {
    assert_eq!(
        schema_json::<Multi>(),
        r#"{"type":"object","properties":{"colors":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]}},"plans":{"type":"array","items":{"anyOf":[{"const":"free","title":"Free tier"},{"const":"pro_tier","title":"Pro tier"},{"const":"enterprise","title":"enterprise"}]},"default":["free","enterprise"]},"extra":{"type":"array","items":{"type":"string","enum":["Red","Green","Blue"]}}},"required":["colors","plans"]}"#
    );
    let m: Multi =
        accept(json!({"colors": ["Red", "Blue"], "plans": ["free", "free"], "extra": []}));
    assert_eq!(m.colors, vec![Color::Red, Color::Blue]);
    assert_eq!(m.plans.into_iter().collect::<Vec<_>>(), vec![Plan::Free]);
    assert_eq!(m.extra, Some(HashSet::new()));
    assert_eq!(
        errors::<Multi>(json!({"colors": [], "plans": ["free", "gold", 3], "extra": "Red"})),
        vec![
            e("/colors", "minItems"),
            e("/plans/1", "enum"),
            // Every item that is not an option fails `enum` (as `RequestedSchema::validate`).
            e("/plans/2", "enum"),
            e("/extra", "type"),
        ]
    );
    assert_eq!(
        errors::<Multi>(json!({"colors": ["Red", "Red", "Red"], "plans": {}})),
        vec![e("/colors", "maxItems"), e("/plans", "type")]
    );
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    first_name: String,
    #[serde(rename = "years")]
    age_in_years: Option<u16>,
    r#type: bool,
}

#[test]
fn serde_renames() {
    assert_eq!(
        schema_json::<Renamed>(),
        r#"{"type":"object","properties":{"firstName":{"type":"string"},"years":{"type":"integer","minimum":0,"maximum":65535},"type":{"type":"boolean"}},"required":["firstName","type"]}"#
    );
    let r: Renamed = accept(json!({"firstName": "A", "years": 3, "type": true}));
    assert_eq!(
        (r.first_name.as_str(), r.age_in_years, r.r#type),
        ("A", Some(3), true)
    );
    assert_eq!(
        errors::<Renamed>(json!({"first_name": "A", "years": 70000})),
        vec![
            e("/firstName", "required"),
            e("/years", "maximum"),
            e("/type", "required")
        ]
    );
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "kebab-case")]
struct Kebab {
    #[serde(rename = "a/b~c")]
    slashy: String,
    zip_code: String,
}

#[test]
fn pointers_are_escaped() {
    assert_eq!(
        schema_json::<Kebab>(),
        r#"{"type":"object","properties":{"a/b~c":{"type":"string"},"zip-code":{"type":"string"}},"required":["a/b~c","zip-code"]}"#
    );
    assert_eq!(
        errors::<Kebab>(json!({"a/b~c": 1})),
        vec![e("/a~1b~0c", "type"), e("/zip-code", "required")]
    );
}

#[derive(Debug, Elicit)]
struct Patterned {
    /// A product code.
    ///
    /// Two letters, then digits.
    #[elicit(pattern = "^[A-Z]{2}[0-9]+$", default = "AB12", max_length = 8)]
    code: String,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time")]
    at: Option<String>,
    #[elicit(format = "uri")]
    homepage: Option<String>,
}

#[test]
fn pattern_and_format_schema() {
    assert_eq!(
        schema_json::<Patterned>(),
        r#"{"type":"object","properties":{"code":{"type":"string","description":"A product code.\n\nTwo letters, then digits.","pattern":"^[A-Z]{2}[0-9]+$","default":"AB12","maxLength":8},"birthday":{"type":"string","format":"date"},"at":{"type":"string","format":"date-time"},"homepage":{"type":"string","format":"uri"}},"required":["code"]}"#
    );
    // Too long, and letters where the pattern wants digits: both reported.
    assert_eq!(
        errors::<Patterned>(json!({"code": "ABCDEFGHI"})),
        vec![e("/code", "maxLength"), e("/code", "pattern")]
    );
    assert_eq!(
        errors::<Patterned>(json!({"code": "ab12"})),
        vec![e("/code", "pattern")]
    );
    // Formats are asserted too.
    let p: Patterned = accept(json!({
        "code": "AB1",
        "birthday": "2000-02-29",
        "at": "2024-01-01T12:00:00Z",
        "homepage": "https://example.com/a"
    }));
    assert_eq!(p.birthday.as_deref(), Some("2000-02-29"));
    assert_eq!(
        errors::<Patterned>(json!({
            "code": "AB1",
            "birthday": "2001-02-29",
            "at": "2024-01-01 12:00",
            "homepage": "example.com"
        })),
        vec![
            e("/birthday", "format"),
            e("/at", "format"),
            e("/homepage", "format")
        ]
    );
    assert_eq!(
        errors::<Contact>(json!({"name": "A", "email": "not an email"})),
        vec![e("/email", "format")]
    );
}

#[derive(Debug, Elicit)]
struct AllInts {
    a: i8,
    b: i16,
    c: u32,
    d: u64,
    e: usize,
    f: isize,
    g: core::primitive::u16,
}

#[test]
fn integer_ranges() {
    assert_eq!(
        schema_json::<AllInts>(),
        r#"{"type":"object","properties":{"a":{"type":"integer","minimum":-128,"maximum":127},"b":{"type":"integer","minimum":-32768,"maximum":32767},"c":{"type":"integer","minimum":0,"maximum":4294967295},"d":{"type":"integer","minimum":0,"maximum":18446744073709551615},"e":{"type":"integer","minimum":0,"maximum":18446744073709551615},"f":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"g":{"type":"integer","minimum":0,"maximum":65535}},"required":["a","b","c","d","e","f","g"]}"#
    );
    let v: AllInts = accept(
        json!({"a": -128, "b": 0, "c": 4294967295u32, "d": 18446744073709551615u64, "e": 0, "f": -1, "g": 1}),
    );
    assert_eq!((v.a, v.c, v.d, v.f), (-128, u32::MAX, u64::MAX, -1));
    assert_eq!(
        errors::<AllInts>(
            json!({"a": 128, "b": -32769, "c": -1, "d": -1, "e": 0.5, "f": 1, "g": 65536})
        ),
        vec![
            e("/a", "maximum"),
            e("/b", "minimum"),
            e("/c", "minimum"),
            e("/d", "minimum"),
            e("/e", "type"),
            e("/g", "maximum"),
        ]
    );
}

#[derive(Debug, Elicit)]
struct Titles {
    #[elicit(title = "Token count", not_sensitive)]
    token_count: u32,
    #[elicit(
        minimum = 1,
        maximum = 10,
        default = 5,
        title = "Rating",
        description = "How much?"
    )]
    rating: u8,
}

#[test]
fn not_sensitive_and_number_default() {
    assert_eq!(
        schema_json::<Titles>(),
        r#"{"type":"object","properties":{"token_count":{"type":"integer","title":"Token count","minimum":0,"maximum":4294967295},"rating":{"type":"integer","minimum":1,"maximum":10,"default":5,"title":"Rating","description":"How much?"}},"required":["token_count","rating"]}"#
    );
    assert_eq!(
        errors::<Titles>(json!({"token_count": 1, "rating": 0})),
        vec![e("/rating", "minimum")]
    );
}

#[derive(Debug, Elicit)]
struct Empty {}

#[test]
fn empty_form() {
    assert_eq!(
        schema_json::<Empty>(),
        r#"{"type":"object","properties":{}}"#
    );
    let _: Empty = accept(json!({"anything": 1}));
}

#[derive(Debug, Elicit)]
struct Everything {
    #[elicit(title = "Name", min_length = 1)]
    name: String,
    #[elicit(minimum = 18)]
    age: Option<u8>,
    color: Option<Color>,
    #[elicit(min_items = 3)]
    colors: Option<Vec<Color>>,
    subscribe: Option<bool>,
}

#[test]
fn reports_every_error_in_declaration_order() {
    assert_eq!(
        errors::<Everything>(
            json!({"name": "", "age": 17, "color": "Pink", "colors": ["Red", "Pink"], "subscribe": "no"})
        ),
        vec![
            e("/name", "minLength"),
            e("/age", "minimum"),
            e("/color", "enum"),
            e("/colors", "minItems"),
            e("/colors/1", "enum"),
            e("/subscribe", "type"),
        ]
    );
    let v: Everything = accept(json!({"name": "x", "age": 18, "colors": ["Red", "Green", "Red"]}));
    assert_eq!(v.colors.map(|c| c.len()), Some(3));
    assert_eq!(v.age, Some(18));
}

/// The derived schema parses back to itself.
#[test]
fn derived_schemas_round_trip() {
    fn round_trip<T: Elicit>() {
        let schema = T::requested_schema();
        let json = serde_json::to_string(&schema).unwrap();
        assert_eq!(RequestedSchema::parse_str(&json).unwrap(), schema, "{json}");
    }
    round_trip::<Contact>();
    round_trip::<Numbers>();
    round_trip::<Flags>();
    round_trip::<Choice>();
    round_trip::<Multi>();
    round_trip::<Renamed>();
    round_trip::<Kebab>();
    round_trip::<Patterned>();
    round_trip::<AllInts>();
    round_trip::<Titles>();
    round_trip::<Everything>();
}

/// The derived check and `RequestedSchema::validate` agree (same pointers and keywords).
#[test]
fn agrees_with_dynamic_validation() {
    fn sorted(mut v: Vec<(String, &'static str)>) -> Vec<(String, &'static str)> {
        v.sort();
        v
    }
    fn compare<T: Elicit>(answers: &[Value]) {
        let schema = T::requested_schema();
        for answer in answers {
            let map = content(answer.clone());
            let derived = match T::from_content(&map) {
                Ok(_) => Vec::new(),
                Err(errors) => errors
                    .errors()
                    .iter()
                    .map(|e| (e.pointer.clone(), e.keyword))
                    .collect(),
            };
            let dynamic = match schema.validate(&map) {
                Ok(()) => Vec::new(),
                Err(errors) => errors
                    .errors()
                    .iter()
                    .map(|e| (e.pointer.clone(), e.keyword))
                    .collect(),
            };
            assert_eq!(sorted(derived), sorted(dynamic), "answer {answer}");
        }
    }
    compare::<Contact>(&[
        json!({}),
        json!({"name": "A", "email": "a@example.com"}),
        json!({"name": 1, "email": "nope", "nickname": "ééééé"}),
        json!({"name": null, "email": "a@example.com", "nickname": "a"}),
    ]);
    compare::<Numbers>(&[
        json!({"small": 3.0, "delta": -5, "ratio": 1, "big": 1}),
        json!({"small": 300, "delta": 1.5, "ratio": "1", "scale": 0.25, "big": 1e300}),
        json!({"small": -1, "delta": 6, "ratio": 0, "scale": 2.5, "big": true}),
        json!({"small": 1e2, "delta": -6, "ratio": 0, "big": -9223372036854775808i64}),
    ]);
    compare::<Flags>(&[
        json!({"subscribe": "yes", "agree": 1}),
        json!({"subscribe": true}),
    ]);
    compare::<Choice>(&[
        json!({"color": "green", "plan": 1}),
        json!({"color": "Red", "plan": "pro_tier"}),
    ]);
    compare::<Multi>(&[
        json!({"colors": [], "plans": ["free", "gold", 3], "extra": "Red"}),
        json!({"colors": ["Red", "Red", "Red"], "plans": {}}),
        json!({"colors": ["Blue"], "plans": []}),
        json!({"colors": ["Blue", 1], "plans": [null]}),
    ]);
    compare::<Renamed>(&[json!({"first_name": "A", "years": 70000})]);
    compare::<Kebab>(&[json!({"a/b~c": 1})]);
    compare::<AllInts>(&[
        json!({"a": 128, "b": -32769, "c": -1, "d": -1, "e": 0.5, "f": 1, "g": 65536}),
        json!({"a": -128, "b": 0, "c": 4294967295u32, "d": 18446744073709551615u64, "e": 0, "f": -1, "g": 1}),
    ]);
    compare::<Patterned>(&[
        json!({"code": "AB1"}),
        json!({"code": "ab1"}),
        json!({"code": "XAB12"}),
        json!({"code": "ABCDEFGHIJ", "birthday": "2023-02-29", "homepage": "/relative"}),
        json!({"code": 12}),
    ]);
    compare::<Everything>(&[
        json!({"name": "", "age": 17, "color": "Pink", "colors": ["Red", "Pink"], "subscribe": "no"}),
    ]);
}

/// Every derived schema is an instance of the official `requestedSchema` definition of
/// 2025-11-25 and 2026-07-28, and its 2025-06-18 rendering (where that revision can express it)
/// of 2025-06-18's, checked with the `jsonschema` crate. `pattern` is the one keyword the spec's
/// prose allows that schema.json does not declare; the official property schemas do not forbid
/// undeclared keywords, so it passes as one.
#[test]
fn derived_schemas_are_valid_official_requested_schemas() {
    use mcp_schema::elicit::Revision;
    fn validator(revision: &str, pointer: &str) -> jsonschema::Validator {
        let path = mcp_schema_tests::mirror()
            .join(revision)
            .join("schema.json");
        let mut root: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("json");
        root.as_object_mut()
            .expect("object")
            .insert("$ref".into(), Value::from(pointer));
        jsonschema::validator_for(&root).expect("the official schema compiles")
    }
    let current = [
        validator(
            "2025-11-25",
            "#/$defs/ElicitRequestFormParams/properties/requestedSchema",
        ),
        validator(
            "2026-07-28",
            "#/$defs/ElicitRequestFormParams/properties/requestedSchema",
        ),
    ];
    let legacy = validator(
        "2025-06-18",
        "#/definitions/ElicitRequest/properties/params/properties/requestedSchema",
    );
    let schemas = [
        ("Contact", Contact::requested_schema()),
        ("Numbers", Numbers::requested_schema()),
        ("Flags", Flags::requested_schema()),
        ("Choice", Choice::requested_schema()),
        ("Multi", Multi::requested_schema()),
        ("Renamed", Renamed::requested_schema()),
        ("Kebab", Kebab::requested_schema()),
        ("Patterned", Patterned::requested_schema()),
        ("AllInts", AllInts::requested_schema()),
        ("Titles", Titles::requested_schema()),
        ("Empty", Empty::requested_schema()),
        ("Everything", Everything::requested_schema()),
    ];
    let mut legacy_checked = 0;
    for (name, schema) in &schemas {
        let json = serde_json::to_value(schema).expect("serializes");
        for v in &current {
            let errors: Vec<String> = v
                .iter_errors(&json)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:?}\n{json}");
        }
        if let Ok(old) = schema.to_revision(Revision::V2025_06_18) {
            let errors: Vec<String> = legacy
                .iter_errors(&old)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{name} (2025-06-18): {errors:?}\n{old}");
            legacy_checked += 1;
        }
    }
    assert!(
        legacy_checked >= 5,
        "only {legacy_checked} forms are expressible in 2025-06-18"
    );
    // And the validator is not vacuous: a nested object is not a requested schema.
    let nested =
        json!({"type": "object", "properties": {"address": {"type": "object", "properties": {}}}});
    assert!(!current[0].is_valid(&nested));
}

// The specification's own examples (seeds/002, "Requested Schema"), written as derived
// structs. The expected strings are the spec's text (the same constants `elicit_model.rs`
// checks the model against); the keys of `#[elicit(...)]` are written in the order the spec's
// text uses, which is the order the derived schema writes them in.
mod spec_examples {
    use mcp_schema::Elicit;

    const SPEC_CONTACT: &str = r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}"#;

    /// "Request with a structured schema" (the contact form).
    #[derive(Debug, Elicit)]
    struct ContactInfo {
        #[elicit(description = "Your full name")]
        name: String,
        #[elicit(format = "email", description = "Your email address")]
        email: String,
        #[elicit(minimum = 18, description = "Your age")]
        age: Option<f64>,
    }

    #[derive(Debug, Elicit)]
    enum Color {
        Red,
        Green,
        Blue,
    }

    #[derive(Debug, Elicit)]
    enum HexColor {
        #[serde(rename = "#FF0000")]
        #[elicit(title = "Red")]
        Red,
        #[serde(rename = "#00FF00")]
        #[elicit(title = "Green")]
        Green,
        #[serde(rename = "#0000FF")]
        #[elicit(title = "Blue")]
        Blue,
    }

    #[derive(Debug, Elicit)]
    struct SingleUntitled {
        #[elicit(
            title = "Color Selection",
            description = "Choose your favorite color",
            default = "Red"
        )]
        color: Color,
    }

    #[derive(Debug, Elicit)]
    struct SingleTitled {
        #[elicit(
            title = "Color Selection",
            description = "Choose your favorite color",
            default = "#FF0000"
        )]
        color: HexColor,
    }

    #[derive(Debug, Elicit)]
    struct MultiUntitled {
        #[elicit(title = "Color Selection", description = "Choose your favorite colors", min_items = 1, max_items = 2, default = ["Red", "Green"])]
        colors: Vec<Color>,
    }

    #[derive(Debug, Elicit)]
    struct MultiTitled {
        #[elicit(title = "Color Selection", description = "Choose your favorite colors", min_items = 1, max_items = 2, default = ["#FF0000", "#00FF00"])]
        colors: Vec<HexColor>,
    }

    /// The property `name` of a one-property form, as text.
    fn property<T: Elicit>(name: &str) -> String {
        let schema = serde_json::to_string(&T::requested_schema()).expect("serializes");
        let prefix = format!(r#"{{"type":"object","properties":{{"{name}":"#);
        let suffix = format!(r#"}},"required":["{name}"]}}"#);
        schema
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(&suffix))
            .unwrap_or_else(|| panic!("not a one-property form: {schema}"))
            .to_owned()
    }

    #[test]
    fn the_specs_examples_come_out_byte_identical() {
        assert_eq!(
            serde_json::to_string(&ContactInfo::requested_schema()).expect("serializes"),
            SPEC_CONTACT
        );
        assert_eq!(
            property::<SingleUntitled>("color"),
            r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#
        );
        assert_eq!(
            property::<SingleTitled>("color"),
            r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##
        );
        assert_eq!(
            property::<MultiUntitled>("colors"),
            r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#
        );
        assert_eq!(
            property::<MultiTitled>("colors"),
            r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##
        );
    }
}
