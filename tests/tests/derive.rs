//! `#[derive(Elicit)]`: the generated schema (compared with JSON written from the spec's rules),
//! the generated `from_content` checks, and the one-pass `from_json_str` decoder (compared with
//! `from_content` on the parsed map).
#![allow(dead_code)] // Fields are read through `from_content` only in some tests.

use std::collections::{BTreeSet, HashSet};

use mcp_typed::elicit::{FromJsonError, RequestedSchema, ValidationErrors};
use mcp_typed::Elicit;
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
            .map(|e| (e.pointer().to_owned(), e.keyword().as_str()))
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
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

#[derive(Debug, PartialEq, Elicit)]
struct Empty {}

#[test]
fn empty_form() {
    assert_eq!(
        schema_json::<Empty>(),
        r#"{"type":"object","properties":{}}"#
    );
    let _: Empty = accept(json!({"anything": 1}));
}

#[derive(Debug, PartialEq, Elicit)]
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
    round_trip::<Strict>();
    round_trip::<StrictKebab>();
}

/// The answers the comparison tests run through `$check::<Form>(&[…])`: valid and invalid
/// ones for every test form, the union of what each comparison needs.
macro_rules! every_answer {
    ($check:ident) => {
        $check::<Contact>(&[
            json!({}),
            json!({"name": "A", "email": "a@example.com"}),
            json!({"name": 1, "email": "nope", "nickname": "ééééé"}),
            json!({"name": null, "email": "a@example.com", "nickname": "a"}),
        ]);
        $check::<Numbers>(&[
            json!({"small": 3.0, "delta": -5, "ratio": 1, "big": 1}),
            json!({"small": 300, "delta": 1.5, "ratio": "1", "scale": 0.25, "big": 1e300}),
            json!({"small": -1, "delta": 6, "ratio": 0, "scale": 2.5, "big": true}),
            json!({"small": 1e2, "delta": -6, "ratio": 0, "big": -9223372036854775808i64}),
            json!({"small": 18446744073709551615u64, "delta": -6, "ratio": 0, "big": 1}),
        ]);
        $check::<Flags>(&[
            json!({"subscribe": "yes", "agree": 1}),
            json!({"subscribe": true}),
        ]);
        $check::<Choice>(&[
            json!({"color": "green", "plan": 1}),
            json!({"color": "Red", "plan": "pro_tier"}),
        ]);
        $check::<Multi>(&[
            json!({"colors": [], "plans": ["free", "gold", 3], "extra": "Red"}),
            json!({"colors": ["Red", "Red", "Red"], "plans": {}}),
            json!({"colors": ["Blue"], "plans": []}),
            json!({"colors": ["Blue", 1], "plans": [null]}),
        ]);
        $check::<Renamed>(&[
            json!({"first_name": "A", "years": 70000}),
            json!({"firstName": "A", "years": 3, "type": true}),
        ]);
        $check::<Kebab>(&[json!({"a/b~c": 1}), json!({"a/b~c": "x", "zip-code": "y"})]);
        $check::<AllInts>(&[
            json!({"a": 128, "b": -32769, "c": -1, "d": -1, "e": 0.5, "f": 1, "g": 65536}),
            json!({"a": -128, "b": 0, "c": 4294967295u32, "d": 18446744073709551615u64, "e": 0, "f": -1, "g": 1}),
        ]);
        $check::<Patterned>(&[
            json!({"code": "AB1"}),
            json!({"code": "ab1"}),
            json!({"code": "XAB12"}),
            json!({"code": "ABCDEFGHIJ", "birthday": "2023-02-29", "homepage": "/relative"}),
            json!({"code": "AB1", "birthday": "2000-02-29", "at": "2024-01-01T12:00:00Z", "homepage": "https://example.com/a"}),
            json!({"code": 12}),
        ]);
        $check::<Titles>(&[
            json!({"token_count": 1, "rating": 0}),
            json!({"token_count": 1, "rating": 5}),
        ]);
        $check::<Everything>(&[
            json!({"name": "", "age": 17, "color": "Pink", "colors": ["Red", "Pink"], "subscribe": "no"}),
        ]);
        $check::<Strict>(&[
            json!({"firstName": "A", "zeta": 1, "a/b": 2, "m~n": 3}),
            json!({"firstName": "A", "zeta": 1, "a/b": 2, "m~n": 3, "é": null}),
            json!({"count": 11, "first_name": "x"}),
            json!({"count": "3", "other": {"nested": true}}),
            json!({"firstName": "A", "count": 10}),
        ]);
        $check::<StrictKebab>(&[json!({"a/b": 1, "zip_code": "1", "a~1b": false})]);
    };
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
                    .map(|e| (e.pointer().to_owned(), e.keyword().as_str()))
                    .collect(),
            };
            let dynamic = match schema.validate(&map) {
                Ok(()) => Vec::new(),
                Err(errors) => errors
                    .errors()
                    .iter()
                    .map(|e| (e.pointer().to_owned(), e.keyword().as_str()))
                    .collect(),
            };
            assert_eq!(sorted(derived), sorted(dynamic), "answer {answer}");
        }
    }
    every_answer!(compare);
}

/// Every derived schema is an instance of the official `requestedSchema` definition of
/// 2025-11-25 and 2026-07-28, and its 2025-06-18 rendering (where that revision can express it)
/// of 2025-06-18's, checked with the `jsonschema` crate. `pattern` is the one keyword the spec's
/// prose allows that schema.json does not declare; the official property schemas do not forbid
/// undeclared keywords, so it passes as one.
#[test]
fn derived_schemas_are_valid_official_requested_schemas() {
    use mcp_typed::elicit::Revision;
    fn validator(revision: &str, pointer: &str) -> jsonschema::Validator {
        let path = mcp_typed_tests::mirror().join(revision).join("schema.json");
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
        ("Strict", Strict::requested_schema()),
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
    use mcp_typed::Elicit;

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

// ---------------------------------------------------------------------------------------------
// `#[serde(deny_unknown_fields)]`

#[derive(Debug, PartialEq, Elicit)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Strict {
    first_name: String,
    #[elicit(maximum = 10)]
    count: Option<u8>,
}

/// The flag in an attribute of its own, next to one that renames.
#[derive(Debug, PartialEq, Elicit)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "kebab-case")]
struct StrictKebab {
    #[serde(rename = "a/b")]
    slashy: Option<bool>,
    zip_code: Option<String>,
}

/// `(pointer, keyword, message)` of every error.
fn full_errors(errors: &ValidationErrors) -> Vec<(String, &'static str, String)> {
    errors
        .errors()
        .iter()
        .map(|e| {
            (
                e.pointer().to_owned(),
                e.keyword().as_str(),
                e.message().clone(),
            )
        })
        .collect()
}

#[test]
fn deny_unknown_fields_forbids_additional_properties() {
    assert_eq!(
        schema_json::<Strict>(),
        r#"{"type":"object","properties":{"firstName":{"type":"string"},"count":{"type":"integer","maximum":10,"minimum":0}},"required":["firstName"],"additionalProperties":false}"#
    );
    assert_eq!(
        schema_json::<StrictKebab>(),
        r#"{"type":"object","properties":{"a/b":{"type":"boolean"},"zip-code":{"type":"string"}},"additionalProperties":false}"#
    );
    assert!(Strict::requested_schema().additional_properties_forbidden);
    assert!(!Contact::requested_schema().additional_properties_forbidden);

    let s: Strict = accept(json!({"firstName": "Ann", "count": 3}));
    assert_eq!((s.first_name.as_str(), s.count), ("Ann", Some(3)));
    // The declared members' errors first (declaration order), then each undeclared member in
    // the order of the map, its name escaped as a JSON pointer (RFC 6901). (Written sorted by
    // name: a `Map` sorts, or keeps the order of `json!` with serde_json's `preserve_order`.)
    assert_eq!(
        errors::<Strict>(json!({"a/b": 2, "count": 11, "first_name": "x", "m~n": 3, "zeta": 1})),
        vec![
            e("/firstName", "required"),
            e("/count", "maximum"),
            e("/a~1b", "additionalProperties"),
            e("/first_name", "additionalProperties"),
            e("/m~0n", "additionalProperties"),
            e("/zeta", "additionalProperties"),
        ]
    );
    assert_eq!(
        errors::<StrictKebab>(json!({"a/b": true, "a~1b": false, "zip_code": "1"})),
        vec![
            e("/a~01b", "additionalProperties"),
            e("/zip_code", "additionalProperties"),
        ]
    );
    // The undeclared members are reported exactly as `RequestedSchema::validate` reports them:
    // same pointers, keyword, messages and order.
    for answer in [
        json!({"firstName": "A", "zeta": 1, "a/b": 2, "m~n": 3, "é": null}),
        json!({"count": "3", "other": {"nested": true}}),
    ] {
        let map = content(answer);
        let derived = Strict::from_content(&map).expect_err("undeclared members");
        let dynamic = Strict::requested_schema()
            .validate(&map)
            .expect_err("undeclared members");
        let undeclared = |errors: &ValidationErrors| {
            full_errors(errors)
                .into_iter()
                .filter(|(_, keyword, _)| *keyword == "additionalProperties")
                .collect::<Vec<_>>()
        };
        assert!(!undeclared(&derived).is_empty());
        assert_eq!(undeclared(&derived), undeclared(&dynamic));
        assert_eq!(
            derived.errors().last().map(|e| e.message()),
            dynamic.errors().last().map(|e| e.message())
        );
    }
    assert_eq!(
        full_errors(
            &Strict::from_content(&content(json!({"firstName": "A", "a/b": 1}))).unwrap_err()
        ),
        vec![(
            "/a~1b".to_owned(),
            "additionalProperties",
            "the member `a/b` is not a property of the form".to_owned()
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// `from_json_str`: the one-pass decoder against `from_content` on the parsed map.

/// `T` with `Elicit::from_json_str`'s provided implementation: parse into a `Map`, then
/// `from_content`.
#[derive(Debug, PartialEq)]
struct ViaMap<T>(T);

impl<T: Elicit> Elicit for ViaMap<T> {
    fn requested_schema() -> RequestedSchema {
        T::requested_schema()
    }

    fn from_content(content: &Map<String, Value>) -> Result<Self, ValidationErrors> {
        T::from_content(content).map(ViaMap)
    }
}

/// What a decode gave, comparable: the value, the errors (messages included), or the syntax
/// error's category and position.
#[derive(Debug, PartialEq)]
enum Decoded<T> {
    Ok(T),
    Invalid(Vec<(String, &'static str, String)>),
    Syntax(serde_json::error::Category, usize, usize),
}

impl<T> Decoded<T> {
    fn new(result: Result<T, FromJsonError>) -> Self {
        match result {
            Ok(value) => Decoded::Ok(value),
            Err(FromJsonError::Invalid(errors)) => {
                assert!(!errors.errors().is_empty(), "an empty error list");
                Decoded::Invalid(full_errors(&errors))
            }
            Err(FromJsonError::Syntax(error)) => {
                Decoded::Syntax(error.classify(), error.line(), error.column())
            }
        }
    }
}

/// Decodes `json` with the derived `from_json_str` and checks that it gives what
/// `from_content` gives on `serde_json::from_str::<Map>` (and the provided implementation on
/// any text): the same value, or the same errors in the same order.
fn one_pass<T: Elicit + PartialEq + std::fmt::Debug>(json: &str) -> Decoded<T> {
    let derived = Decoded::new(T::from_json_str(json));
    let provided = match Decoded::new(ViaMap::<T>::from_json_str(json)) {
        Decoded::Ok(ViaMap(value)) => Decoded::Ok(value),
        Decoded::Invalid(errors) => Decoded::Invalid(errors),
        Decoded::Syntax(category, line, column) => Decoded::Syntax(category, line, column),
    };
    assert_eq!(derived, provided, "{json}");
    if let Ok(map) = serde_json::from_str::<Map<String, Value>>(json) {
        let via_map = Decoded::new(T::from_content(&map).map_err(FromJsonError::Invalid));
        assert_eq!(derived, via_map, "{json}");
    }
    derived
}

/// The members of the object `json` not in `declared`, as `additionalProperties` errors in the
/// order this build's `serde_json::Map` holds them (what `from_content` reports in): sorted by
/// name, or as first written when serde_json's `preserve_order` is on, which the rmcp adapter's
/// default feature `declared-order` turns on in the workspace's build.
fn undeclared_in_map_order(json: &str, declared: &[&str]) -> Vec<(String, &'static str)> {
    let map: Map<String, Value> = serde_json::from_str(json).unwrap();
    map.keys()
        .filter(|name| !declared.contains(&name.as_str()))
        .map(|name| {
            e(
                &mcp_typed::elicit::pointer("", name),
                "additionalProperties",
            )
        })
        .collect()
}

/// Whether this build's `serde_json::Map` keeps insertion order (`preserve_order`).
fn maps_keep_order() -> bool {
    let map: Map<String, Value> = serde_json::from_str(r#"{"b":0,"a":0}"#).unwrap();
    map.keys().next().is_some_and(|first| first == "b")
}

fn invalid<T>(decoded: Decoded<T>) -> Vec<(String, &'static str)> {
    match decoded {
        Decoded::Invalid(errors) => errors.into_iter().map(|(p, k, _)| (p, k)).collect(),
        Decoded::Ok(_) => panic!("accepted"),
        Decoded::Syntax(..) => panic!("a syntax error"),
    }
}

fn is_syntax<T>(decoded: &Decoded<T>) -> bool {
    matches!(decoded, Decoded::Syntax(..))
}

#[derive(Debug, PartialEq, Elicit)]
struct Small {
    #[elicit(maximum = 5)]
    v: u8,
    w: Option<f64>,
}

#[test]
fn from_json_str_agrees_with_from_content() {
    // Valid answers, repeated members (the last counts), escapes in keys and values.
    assert_eq!(
        one_pass::<Contact>(r#"{"name":"Ann","email":"a@b.c"}"#),
        Decoded::Ok(Contact {
            name: "Ann".into(),
            email: "a@b.c".into(),
            nickname: None
        })
    );
    assert_eq!(
        one_pass::<Contact>(r#"{"name":"Ann","email":"a@b.c","name":"Bob"}"#),
        Decoded::Ok(Contact {
            name: "Bob".into(),
            email: "a@b.c".into(),
            nickname: None
        })
    );
    assert_eq!(
        one_pass::<Contact>(r#"{"name":1,"email":"x","name":"Ann","email":"a@b.c"}"#),
        Decoded::Ok(Contact {
            name: "Ann".into(),
            email: "a@b.c".into(),
            nickname: None
        })
    );
    assert_eq!(
        one_pass::<Contact>(
            r#" { "n\u0061me" : "A\"nn\n" , "email":"a@b.c", "nickname":"h\u00e9\u00e9",
                 "other": {"deep": [1, 2.5, {"x": null}, "\ud83d\ude00"]}, "more": [] } "#
        ),
        Decoded::Ok(Contact {
            name: "A\"nn\n".into(),
            email: "a@b.c".into(),
            nickname: Some("héé".into())
        })
    );
    // A valid member followed by an invalid occurrence fails, and the other way round passes.
    assert_eq!(
        invalid(one_pass::<Contact>(
            r#"{"name":"Ann","email":"a@b.c","nickname":"ok","nickname":"ééééé"}"#
        )),
        vec![e("/nickname", "maxLength")]
    );
    assert_eq!(
        invalid(one_pass::<Contact>(r#"{"email":3,"nickname":null}"#)),
        vec![
            e("/name", "required"),
            e("/email", "type"),
            e("/nickname", "type")
        ]
    );
    assert_eq!(
        invalid(one_pass::<Contact>(r#"{"name":{"a":1},"email":["a@b.c"]}"#)),
        vec![e("/name", "type"), e("/email", "type")]
    );

    // Numbers as the text writes them: `1e1` is the float 10, an integer in JSON Schema's sense.
    assert_eq!(
        one_pass::<Small>(r#"{"v": 1e0, "w": -0}"#),
        Decoded::Ok(Small { v: 1, w: Some(0.0) })
    );
    assert_eq!(
        one_pass::<Small>(r#"{"v": 1e1}"#),
        Decoded::Invalid(vec![(
            "/v".to_owned(),
            "maximum",
            "must be at most 5, is 10.0".to_owned()
        )])
    );
    assert_eq!(
        invalid(one_pass::<Small>(
            r#"{"v": 18446744073709551616, "w": "1"}"#
        )),
        vec![e("/v", "maximum"), e("/w", "type")]
    );
    assert_eq!(
        invalid(one_pass::<Small>(r#"{"v": 2.5, "w": true}"#)),
        vec![e("/v", "type"), e("/w", "type")]
    );
    assert_eq!(
        one_pass::<Numbers>(
            r#"{"small": 3.0, "delta": -5, "ratio": 1E-2, "big": -9223372036854775808, "scale": 2}"#
        ),
        Decoded::Ok(Numbers {
            small: 3,
            delta: -5,
            ratio: 0.01,
            scale: Some(2.0),
            big: i64::MIN
        })
    );
    assert_eq!(
        invalid(one_pass::<Numbers>(
            r#"{"small": 300, "delta": 1.5, "ratio": "1", "scale": 0.25, "big": 1e300}"#
        )),
        vec![
            e("/small", "maximum"),
            e("/delta", "type"),
            e("/ratio", "type"),
            e("/scale", "minimum"),
            e("/big", "maximum"),
        ]
    );

    // Selects: items that are not option strings, nested or not.
    assert_eq!(
        invalid(one_pass::<Multi>(
            r#"{"colors":["Red","Blu\u0065","Pink"],"plans":["free",["free"],{"o":1},null,2,true]}"#
        )),
        vec![
            e("/colors", "maxItems"),
            e("/colors/2", "enum"),
            e("/plans/1", "enum"),
            e("/plans/2", "enum"),
            e("/plans/3", "enum"),
            e("/plans/4", "enum"),
            e("/plans/5", "enum"),
        ]
    );
    assert_eq!(
        one_pass::<Multi>(r#"{"colors":["Green"],"plans":[],"extra":["Blue","Blue"]}"#),
        Decoded::Ok(Multi {
            colors: vec![Color::Green],
            plans: BTreeSet::new(),
            extra: Some(HashSet::from([Color::Blue]))
        })
    );
    assert_eq!(
        invalid(one_pass::<Choice>(
            r#"{"color":"Red","plan":"gold","color":7}"#
        )),
        vec![e("/color", "type"), e("/plan", "enum")]
    );
    assert_eq!(
        invalid(one_pass::<Everything>(
            r#"{"name":"","age":17,"color":"Pink","colors":["Red","Pink"],"subscribe":"no"}"#
        )),
        vec![
            e("/name", "minLength"),
            e("/age", "minimum"),
            e("/color", "enum"),
            e("/colors", "minItems"),
            e("/colors/1", "enum"),
            e("/subscribe", "type"),
        ]
    );
    assert_eq!(
        invalid(one_pass::<Patterned>(
            r#"{"code":"ab12","birthday":"2001-02-29","at":"2024-01-01 12:00","homepage":"x"}"#
        )),
        vec![
            e("/code", "pattern"),
            e("/birthday", "format"),
            e("/at", "format"),
            e("/homepage", "format")
        ]
    );
    // Escaped names: in pointers, and a key written with escapes still names its property.
    assert_eq!(
        invalid(one_pass::<Kebab>(r#"{"a\/b~c": 1}"#)),
        vec![e("/a~1b~0c", "type"), e("/zip-code", "required")]
    );

    // Undeclared members: ignored, or reported once each in map order.
    assert_eq!(
        one_pass::<Empty>(r#"{"anything": 1, "anything": [{}]}"#),
        Decoded::Ok(Empty {})
    );
    let text =
        r#"{"zeta":1,"firstName":"A","m~n":2,"a/b":3,"zeta":4,"\u00e9t\u00e9":5,"count":11}"#;
    let mut expected = vec![e("/count", "maximum")];
    expected.extend(undeclared_in_map_order(text, &["firstName", "count"]));
    assert_eq!(invalid(one_pass::<Strict>(text)), expected);
    if !maps_keep_order() {
        assert_eq!(
            expected[1..].iter().map(|(p, _)| p).collect::<Vec<_>>(),
            ["/a~1b", "/m~0n", "/zeta", "/été"]
        );
    }
    assert_eq!(
        one_pass::<Strict>(r#"{"firstName":"A","first\u004eame":"B"}"#),
        Decoded::Ok(Strict {
            first_name: "B".into(),
            count: None
        })
    );
    assert_eq!(
        invalid(one_pass::<StrictKebab>(r#"{"zip_code":"1","a/b":false}"#)),
        vec![e("/zip_code", "additionalProperties")]
    );

    // A well-formed answer that is not an object: `type` at the root.
    for text in [
        "[]",
        "[1, {\"name\": 2}]",
        "\"text\"",
        "3",
        "-1.5",
        "null",
        "true",
        " false ",
    ] {
        assert_eq!(
            one_pass::<Contact>(text),
            Decoded::Invalid(vec![(
                String::new(),
                "type",
                "the content must be an object".to_owned()
            )]),
            "{text}"
        );
    }

    // Malformed JSON, wherever it is: in a declared member, an ignored member, after the
    // object, or in a top level that is not an object. A number out of range and a lone
    // surrogate are refused as `serde_json::Value` refuses them, even in an ignored member.
    for text in [
        "",
        "{",
        r#"{"name":"Ann","#,
        r#"{"name":"Ann","email":"a@b.c",}"#,
        r#"{"name":"Ann","email":"a@b.c"} x"#,
        r#"{"name":"Ann","email":"a@b.c"}{}"#,
        r#"{"name":"Ann","email":"a@b.c","x":1e400}"#,
        r#"{"name":"Ann","email":"a@b.c","x":"\ud800"}"#,
        r#"{"name":"Ann","email":"a@b.c","x":{"y":[1,]}}"#,
        r#"{"name":"Ann","email":"a@b.c","\q":1}"#,
        r#"{"name":"Ann"1}"#,
        r#"{"name":01}"#,
        r#"{1:"Ann"}"#,
        "[1,",
        "nul",
        "\"unterminated",
        "{\"name\":\"tab\there\"}",
    ] {
        assert!(is_syntax(&one_pass::<Contact>(text)), "{text}");
        assert!(is_syntax(&one_pass::<Strict>(text)), "{text}");
    }
    // Depth: serde_json's recursion limit holds in skipped members as in a parsed `Value`.
    let deep = format!(r#"{{"x":{}{}}}"#, "[".repeat(200), "]".repeat(200));
    assert!(is_syntax(&one_pass::<Empty>(&deep)));
    let shallow = format!(r#"{{"x":{}{}}}"#, "[".repeat(100), "]".repeat(100));
    assert_eq!(one_pass::<Empty>(&shallow), Decoded::Ok(Empty {}));
}

/// Texts of a content's shape, well-formed or nearly: members named as the forms' properties
/// or not (some names escaped), each value a number, string, literal, array or object whose
/// text may break JSON's grammar (`01`, `1.`, `1e400`, a lone surrogate, a raw control
/// character, a missing `:` or a trailing `,`). The one-pass reader (its scan of the bytes and
/// its serde_json path alike) gives what the provided implementation gives on each, a syntax
/// error's position included.
#[test]
fn from_json_str_agrees_on_texts_near_the_grammar() {
    use proptest::prelude::*;
    use proptest::string::string_regex;

    fn text(regex: &str) -> BoxedStrategy<String> {
        string_regex(regex)
            .expect("a valid generator regex")
            .boxed()
    }
    // Each part well-formed most of the time, so that whole texts often are.
    let space = text("[ \t\n\r]{0,2}|");
    let number = prop_oneof![
        6 => text("-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?"),
        1 => text("-?0?[0-9]{0,2}\\.?[0-9]?([eE][+-]?)?[0-9]?"),
    ];
    let string = prop_oneof![
        6 => text("\"([a-z@. é😀]|\\\\[nt\"\\\\/bfr]|\\\\u[0-9a-fA-F]{4}|\\\\ud83d\\\\ude00){0,6}\""),
        1 => text("\"([a-z]|\\\\q|\\\\u[0-9a-f]{0,3}|\\\\ud8[0-9a-f]{2}|\\\\udc[0-9a-f]{2}|\u{1}){0,3}\"?"),
    ];
    let literal = prop_oneof![6 => text("true|false|null"), 1 => text("tru|nul|fals|nulll")];
    let name = text("\"(name|email|nickname|firstName|count|first\\\\u004eame|n\\\\u0061me|x|)\"");
    let scalar = prop_oneof![number, string, literal];
    let array = (
        prop::collection::vec((space.clone(), scalar.clone()), 0..4),
        prop_oneof![6 => Just("]"), 1 => Just(",]"), 1 => Just("")],
    )
        .prop_map(|(items, close)| {
            let items: Vec<String> = items.into_iter().map(|(s, v)| s + &v).collect();
            format!("[{}{close}", items.join(","))
        });
    let nested = text("\\{\\}|\\{\"a\":\\[1,\\{\\}\\]\\}|\\[\\[\\]\\]|\\{\"a\" 1\\}");
    let value = prop_oneof![6 => scalar, 2 => array, 1 => nested];
    let colon = prop_oneof![12 => Just(":"), 1 => Just("")];
    let member = (name, space.clone(), colon, space.clone(), value).prop_map(
        |(name, before, colon, after, value)| format!("{name}{before}{colon}{after}{value}"),
    );
    let head = prop_oneof![Just(""), Just(r#""name":"Ann","email":"a@b.c","#)];
    let close = prop_oneof![12 => Just("}"), 1 => Just(",}"), 1 => Just("} x"), 1 => Just("}{}")];
    let texts = (
        space.clone(),
        head,
        prop::collection::vec((member, space.clone()), 0..4),
        close,
        space,
    )
        .prop_map(|(before, head, members, close, after)| {
            let members: Vec<String> = members.into_iter().map(|(m, s)| m + &s).collect();
            let members = members.join(",");
            let head = if members.is_empty() {
                head.trim_end_matches(',')
            } else {
                head
            };
            format!("{before}{{{head}{members}{close}{after}")
        });
    let outcomes = std::cell::RefCell::new([0; 3]);
    proptest!(ProptestConfig::with_cases(2000), |(text in texts)| {
        let index = match one_pass::<Contact>(&text) {
            Decoded::Ok(_) => 0,
            Decoded::Invalid(_) => 1,
            Decoded::Syntax(..) => 2,
        };
        outcomes.borrow_mut()[index] += 1;
        one_pass::<Strict>(&text);
    });
    // Each kind of outcome comes up often enough for the comparison to mean something.
    let outcomes = outcomes.into_inner();
    assert!(
        outcomes.iter().all(|&n| n >= 100),
        "ok, invalid, malformed: {outcomes:?}"
    );
}

/// Every answer of the other tests, as text, decodes in one pass exactly as through the map.
#[test]
fn from_json_str_agrees_on_every_answer() {
    fn all<T: Elicit + PartialEq + std::fmt::Debug>(answers: &[Value]) {
        for answer in answers {
            let compact = answer.to_string();
            let pretty = serde_json::to_string_pretty(answer).unwrap();
            one_pass::<T>(&compact);
            one_pass::<T>(&pretty);
        }
    }
    every_answer!(all);
}
