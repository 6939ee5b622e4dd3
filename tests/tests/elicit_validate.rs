//! `RequestedSchema::validate`, `unknown_members` and `defaults`.
//!
//! The corpus in `tests/validation-corpus/*.json` holds (schema, content, valid?, reason) cases
//! whose expected validity was written from JSON Schema 2020-12 and the RFCs its formats name
//! (RFC 5321/5322, RFC 3986, RFC 3339), not from running the validator. Each file is
//! `{"description", "groups": [{"description", "schema", "tests": [{"content" | "content_json",
//! "valid", "reason"}]}]}`; `content_json` is the content as raw JSON text, for numbers whose
//! spelling matters (`1e2`, `-0`).

use std::path::{Path, PathBuf};

use mcp_typed::elicit::{
    BooleanSchema, EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema, RequestedSchema,
    Revision, SingleSelectSchema, StringFormat, StringSchema, TitledOption, ValidationError,
};
use serde_json::{json, Map, Number, Value};

// ---------------------------------------------------------------------------------------------
// The corpus.

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("validation-corpus")
}

fn as_object(value: Value, what: &str) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("{what} is not an object: {other}"),
    }
}

#[test]
fn corpus_agrees_with_the_specifications() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/validation-corpus exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files");

    let mut total = 0usize;
    let mut valid_cases = 0usize;
    let mut failures = Vec::new();
    for file in &files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(file).expect("readable corpus file");
        let root: Value = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{name}: malformed JSON: {error}"));
        let groups = root["groups"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: `groups` is not an array"));
        for (g, group) in groups.iter().enumerate() {
            let group_name = group["description"].as_str().unwrap_or("?");
            let schema = RequestedSchema::parse(&group["schema"]).unwrap_or_else(|error| {
                panic!("{name} group {g} ({group_name}): schema rejected: {error}")
            });
            let tests = group["tests"]
                .as_array()
                .unwrap_or_else(|| panic!("{name} group {g}: `tests` is not an array"));
            for (t, case) in tests.iter().enumerate() {
                total += 1;
                let reason = case["reason"].as_str().unwrap_or("");
                assert!(
                    !reason.trim().is_empty(),
                    "{name} group {g} test {t}: every case needs a reason"
                );
                let content = match (&case["content"], &case["content_json"]) {
                    (Value::Object(map), Value::Null) => map.clone(),
                    (Value::Null, Value::String(raw)) => as_object(
                        serde_json::from_str(raw).expect("content_json is JSON"),
                        "content_json",
                    ),
                    _ => panic!("{name} group {g} test {t}: needs `content` xor `content_json`"),
                };
                let expected = case["valid"]
                    .as_bool()
                    .unwrap_or_else(|| panic!("{name} group {g} test {t}: `valid` is not a bool"));
                if expected {
                    valid_cases += 1;
                }
                let outcome = schema.validate(&content);
                if schema.is_valid(&content) != outcome.is_ok() {
                    failures.push(format!(
                        "{name} / {group_name} / #{t} ({reason}): is_valid disagrees with validate"
                    ));
                }
                if outcome.is_ok() != expected {
                    let got = match &outcome {
                        Ok(()) => "valid".to_owned(),
                        Err(errors) => format!("invalid: {errors}"),
                    };
                    failures.push(format!(
                        "{name} / {group_name} / #{t} ({reason}): content {} expected {}, got {got}",
                        Value::Object(content.clone()),
                        if expected { "valid" } else { "invalid" },
                    ));
                }
                if let Err(errors) = &outcome {
                    if expected {
                        continue;
                    }
                    assert!(
                        !errors.errors().is_empty(),
                        "{name} / {group_name} / #{t}: Err with no error"
                    );
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} corpus cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total >= 300, "the corpus has only {total} cases");
    assert!(
        valid_cases >= total / 4 && valid_cases <= total * 3 / 4,
        "the corpus is lopsided: {valid_cases} valid of {total}"
    );
}

// ---------------------------------------------------------------------------------------------
// Helpers for schemas built in code.

fn string(schema: StringSchema) -> PropertySchema {
    PropertySchema::String(schema)
}

fn text(value: &str) -> Option<String> {
    Some(value.to_owned())
}

fn content(value: Value) -> Map<String, Value> {
    as_object(value, "content")
}

fn colors() -> EnumOptions {
    EnumOptions::Untitled(vec!["Red".into(), "Green".into(), "Blue".into()])
}

fn errors_of(schema: &RequestedSchema, value: Value) -> Vec<(String, &'static str)> {
    match schema.validate(&content(value)) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .errors()
            .iter()
            .map(|error: &ValidationError| {
                let (pointer, keyword) = (error.pointer(), error.keyword().as_str());
                assert!(
                    !error.message().is_empty(),
                    "{pointer} {keyword}: empty message"
                );
                (pointer.to_owned(), keyword)
            })
            .collect(),
    }
}

fn pairs(expected: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    expected
        .iter()
        .map(|(pointer, keyword)| ((*pointer).to_owned(), *keyword))
        .collect()
}

/// A form with one property of every kind and every constraint.
fn full_form() -> RequestedSchema {
    RequestedSchema {
        properties: vec![
            (
                "name".into(),
                string(StringSchema {
                    min_length: Some(2),
                    max_length: Some(5),
                    pattern: text("^[a-z]+$"),
                    default: text("bob"),
                    ..Default::default()
                }),
            ),
            (
                "email".into(),
                string(StringSchema {
                    format: Some(StringFormat::Email),
                    ..Default::default()
                }),
            ),
            (
                "age".into(),
                PropertySchema::Number(NumberSchema {
                    integer: true,
                    minimum: Some(Number::from(18)),
                    maximum: Some(Number::from(130)),
                    default: Some(Number::from(30)),
                    ..Default::default()
                }),
            ),
            (
                "subscribe".into(),
                PropertySchema::Boolean(BooleanSchema {
                    default: Some(false),
                    ..Default::default()
                }),
            ),
            (
                "color".into(),
                PropertySchema::SingleSelect(SingleSelectSchema {
                    options: EnumOptions::Titled(vec![
                        TitledOption {
                            value: "#f00".into(),
                            title: "Red".into(),
                        },
                        TitledOption {
                            value: "#0f0".into(),
                            title: "Green".into(),
                        },
                    ]),
                    default: text("#0f0"),
                    ..Default::default()
                }),
            ),
            (
                "tags".into(),
                PropertySchema::MultiSelect(MultiSelectSchema {
                    options: colors(),
                    min_items: Some(1),
                    max_items: Some(2),
                    default: Some(vec!["Red".into()]),
                    ..Default::default()
                }),
            ),
            (
                "a/b~c".into(),
                string(StringSchema {
                    format: Some(StringFormat::Date),
                    ..Default::default()
                }),
            ),
        ],
        required: vec!["name".into(), "email".into(), "a/b~c".into()],
        additional_properties_forbidden: false,
    }
}

// ---------------------------------------------------------------------------------------------
// Pointers and keywords.

#[test]
fn full_form_accepts_a_good_answer() {
    let schema = full_form();
    schema.check().expect("the test schema is consistent");
    let answer = json!({
        "name": "alice", "email": "alice@example.com", "age": 42, "subscribe": true,
        "color": "#f00", "tags": ["Red", "Blue"], "a/b~c": "2024-02-29"
    });
    assert_eq!(errors_of(&schema, answer), Vec::new());
}

#[test]
fn every_error_is_reported_with_its_pointer_and_keyword() {
    let schema = full_form();
    let answer = json!({
        "name": "Ä",                      // too short and not [a-z]
        "email": "Alice <a@example.com>", // display name
        "age": 17.5,                      // not an integer (type; bounds not reported)
        "subscribe": "yes",               // not a boolean
        "color": "Red",                   // a title, not a value
        "tags": ["Red", "Pink", "Blue", 3], // too many, two non-members
        "a/b~c": "2023-02-29",            // no such day
        "extra": null                     // allowed: not forbidden
    });
    assert_eq!(
        errors_of(&schema, answer),
        pairs(&[
            ("/name", "minLength"),
            ("/name", "pattern"),
            ("/email", "format"),
            ("/age", "type"),
            ("/subscribe", "type"),
            ("/color", "enum"),
            ("/tags", "maxItems"),
            ("/tags/1", "enum"),
            ("/tags/3", "enum"),
            ("/a~1b~0c", "format"),
        ])
    );
}

#[test]
fn missing_required_members_and_bounds() {
    let schema = full_form();
    assert_eq!(
        errors_of(&schema, json!({"age": 131, "tags": []})),
        pairs(&[
            ("/name", "required"),
            ("/email", "required"),
            ("/age", "maximum"),
            ("/tags", "minItems"),
            ("/a~1b~0c", "required"),
        ])
    );
    assert_eq!(
        errors_of(
            &schema,
            json!({"name": "abcdef", "email": "a@b", "a/b~c": "2024-01-01", "age": 17})
        ),
        pairs(&[("/name", "maxLength"), ("/age", "minimum")])
    );
}

#[test]
fn null_is_a_type_error_not_a_missing_member() {
    let schema = full_form();
    assert_eq!(
        errors_of(
            &schema,
            json!({"name": null, "email": "a@b.c", "a/b~c": null, "tags": null})
        ),
        pairs(&[("/name", "type"), ("/tags", "type"), ("/a~1b~0c", "type")])
    );
}

#[test]
fn additional_properties_forbidden() {
    let mut schema = full_form();
    schema.additional_properties_forbidden = true;
    // The undeclared members written sorted by name, the order of a `Map` in every build.
    let answer = json!({"name": "bob", "email": "b@c.d", "a/b~c": "2000-02-29", "x/y": 2, "zz": 1});
    assert_eq!(
        errors_of(&schema, answer),
        pairs(&[
            ("/x~1y", "additionalProperties"),
            ("/zz", "additionalProperties")
        ])
    );
}

#[test]
fn required_name_without_a_property() {
    // `check` rejects this schema, but `validate` must still be sound on it.
    let schema = RequestedSchema {
        properties: Vec::new(),
        required: vec!["ghost".into()],
        additional_properties_forbidden: false,
    };
    assert_eq!(
        errors_of(&schema, json!({})),
        pairs(&[("/ghost", "required")])
    );
    assert_eq!(errors_of(&schema, json!({"ghost": 1})), Vec::new());
}

#[test]
fn invalid_pattern_is_a_pattern_error() {
    let schema = RequestedSchema {
        properties: vec![(
            "v".into(),
            string(StringSchema {
                pattern: text("[a-"),
                ..Default::default()
            }),
        )],
        ..Default::default()
    };
    let errors = schema
        .validate(&content(json!({"v": "a"})))
        .expect_err("an uncompilable pattern cannot be satisfied");
    assert_eq!(errors.errors().len(), 1);
    assert_eq!(errors.errors()[0].pointer(), "/v");
    assert_eq!(errors.errors()[0].keyword().as_str(), "pattern");
    assert!(errors.errors()[0].message().contains("not a valid"));
    // Inline flags are not ECMA-262 syntax.
    let schema = RequestedSchema {
        properties: vec![(
            "v".into(),
            string(StringSchema {
                pattern: text("(?i)abc"),
                ..Default::default()
            }),
        )],
        ..Default::default()
    };
    assert!(schema.validate(&content(json!({"v": "abc"}))).is_err());
    // A member that is absent is not checked, so the bad pattern is not reported.
    assert!(schema.validate(&Map::new()).is_ok());
}

/// A pattern runs in bounded time or is refused, by `problems()` and by validation, with the
/// reason: `^(a|||||a){6,}$` took a backtracking engine seconds on eight characters.
#[test]
fn patterns_that_cannot_run_in_bounded_time_are_refused_with_the_reason() {
    let form = |source: &str| RequestedSchema {
        properties: vec![(
            "v".into(),
            string(StringSchema {
                pattern: text(source),
                ..Default::default()
            }),
        )],
        ..Default::default()
    };
    // A backreference whose value a backtracking engine could read differently from ECMA-262:
    // to a group that `+` repeats, read after the repetition (ECMA-262 clears the group at each
    // repetition, so after `ab` it has no value and `\1` is empty).
    for source in [r"(?:(a)|b)+\1", r"(?<=(a))\1"] {
        let schema = form(source);
        let problems = schema.problems();
        assert_eq!(problems.len(), 1, "{source}: {problems:?}");
        assert_eq!(problems[0].pointer, "/properties/v/pattern");
        assert!(
            problems[0].message.contains("backreference"),
            "{}",
            problems[0]
        );
        let errors = schema
            .validate(&content(json!({"v": "bob"})))
            .expect_err("a pattern that cannot run cannot be satisfied");
        assert_eq!(errors.errors()[0].pointer(), "/v");
        assert_eq!(errors.errors()[0].keyword().as_str(), "pattern");
        assert!(
            errors.errors()[0].message().contains("backreference"),
            "{errors}"
        );
    }
    let schema = form("^(a|||||a|b|||c){6,}$");
    assert!(schema.problems().is_empty());
    assert!(schema.validate(&content(json!({"v": "abcabc"}))).is_ok());
    assert!(schema.validate(&content(json!({"v": "abcdefg0"}))).is_err());
    // Lookaround runs with a step limit; past it, this answer is refused and says why.
    let schema = form("^(?:(?=a)a|(?=a)a|(?=a)a)+$");
    assert!(schema.validate(&content(json!({"v": "aaaa"}))).is_ok());
    let errors = schema
        .validate(&content(json!({"v": format!("{}b", "a".repeat(30))})))
        .expect_err("past the step limit an answer is refused");
    assert_eq!(errors.errors()[0].keyword().as_str(), "pattern");
    assert!(
        errors.errors()[0].message().contains("backtracking steps"),
        "{errors}"
    );
}

/// Backreferences as servers write them, with ECMA-262's reading (worked out from the
/// specification, §22.2.2.7.2 BackreferenceMatcher: a group without a value matches the empty
/// string), in `problems()` and `validate` alike.
#[test]
fn patterns_with_backreferences_are_validated_as_ecma_262_says() {
    let form = |source: &str| RequestedSchema {
        properties: vec![(
            "v".into(),
            string(StringSchema {
                pattern: text(source),
                ..Default::default()
            }),
        )],
        ..Default::default()
    };
    for (source, answer, valid) in [
        (r#"^(["']).*\1$"#, "'quoted'", true),
        (r#"^(["']).*\1$"#, "'quoted\"", false),
        (r"^(?<sep>[-/.])\d+\k<sep>\d+$", "-12-34", true),
        (r"^(?<sep>[-/.])\d+\k<sep>\d+$", "-12/34", false),
        (r"^(\d{3})-\1$", "123-123", true),
        (r"^(\d{3})-\1$", "123-124", false),
        // No character twice.
        (r"^(?!.*(.).*\1).+$", "abc", true),
        (r"^(?!.*(.).*\1).+$", "abca", false),
        // Group 1 takes no part: `\1` is the empty string, not a failure.
        (r"^(?:(a)|b)c\1$", "bc", true),
        (r"^(?:(a)|b)c\1$", "aca", true),
        (r"^(?:(a)|b)c\1$", "ac", false),
        // Not reached yet: empty too.
        (r"^\k<x>(?<x>a)$", "a", true),
    ] {
        let schema = form(source);
        assert!(
            schema.problems().is_empty(),
            "{source}: {:?}",
            schema.problems()
        );
        assert_eq!(
            schema.validate(&content(json!({ "v": answer }))).is_ok(),
            valid,
            "{source} on {answer:?}"
        );
    }
    // Backtracking that explodes meets the step limit, and the error says so.
    let schema = form(r"^(a)(?:\1|a|(?=a)a)+$");
    assert!(schema.validate(&content(json!({"v": "aaaa"}))).is_ok());
    let errors = schema
        .validate(&content(json!({"v": format!("{}b", "a".repeat(30))})))
        .expect_err("past the step limit an answer is refused");
    assert_eq!(errors.errors()[0].keyword().as_str(), "pattern");
    assert!(
        errors.errors()[0].message().contains("backtracking steps"),
        "{errors}"
    );
}

/// A `oneOf` that repeats a `const` parses, `problems()` reports it, and validation reads it as
/// JSON Schema does: the repeated value matches two branches, so `oneOf` refuses it; the other
/// options are valid. Under `enum` (and `enumNames`, written as `enum`) a repeated value is
/// valid.
#[test]
fn a_one_of_that_repeats_a_value_refuses_that_value_only() {
    let schema = RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {"c": {"type": "string", "oneOf": [
            {"const": "r", "title": "Red"},
            {"const": "g", "title": "Green"},
            {"const": "r", "title": "Rouge"}
        ]}}
    }))
    .expect("a repeated `const` parses");
    let problems = schema.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].pointer, "/properties/c/oneOf/2/const");
    assert!(
        problems[0].message.contains("duplicate option value"),
        "{}",
        problems[0]
    );
    assert!(schema.validate(&content(json!({"c": "g"}))).is_ok());
    let errors = schema
        .validate(&content(json!({"c": "r"})))
        .expect_err("`r` matches two branches of `oneOf`");
    assert_eq!(errors.errors().len(), 1, "{errors}");
    assert_eq!(errors.errors()[0].pointer(), "/c");
    assert_eq!(errors.errors()[0].keyword().as_str(), "oneOf");
    assert!(!schema.validator().is_valid(&content(json!({"c": "r"}))));
    let errors = schema
        .validate(&content(json!({"c": "b"})))
        .expect_err("not an option");
    assert_eq!(errors.errors()[0].keyword().as_str(), "enum");
    // Written back, it parses again to the same form; inconsistent, it has no revision form.
    let written = serde_json::to_string(&schema).unwrap();
    assert_eq!(RequestedSchema::parse_str(&written).unwrap(), schema);
    assert!(schema.to_revision(Revision::V2025_06_18).is_err());
    // Under `enum`, the repeated value is one of the options.
    let schema = RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {"c": {"type": "string", "enum": ["r", "g", "r"]}}
    }))
    .unwrap();
    assert_eq!(schema.problems().len(), 1);
    assert!(schema.validate(&content(json!({"c": "r"}))).is_ok());
}

#[test]
fn display_lists_every_error() {
    let schema = full_form();
    let errors = schema
        .validate(&content(json!({"email": 1})))
        .expect_err("invalid");
    let shown = errors.to_string();
    assert!(shown.contains("/name"), "{shown}");
    assert!(shown.contains("/email"), "{shown}");
    assert!(shown.contains("(required)"), "{shown}");
    assert!(shown.contains("(type)"), "{shown}");
}

// ---------------------------------------------------------------------------------------------
// unknown_members and defaults.

#[test]
fn unknown_members_lists_undeclared_names() {
    let schema = full_form();
    assert_eq!(
        schema.unknown_members(&content(
            json!({"name": "a", "Name": 1, "extra": null, "a/b~c": ""})
        )),
        vec!["Name".to_owned(), "extra".to_owned()]
    );
    assert!(schema.unknown_members(&Map::new()).is_empty());
    // They are reported but do not make the content invalid unless forbidden.
    assert!(schema
        .validate(&content(
            json!({"name": "ab", "email": "a@b", "a/b~c": "2024-01-01", "Name": 1})
        ))
        .is_ok());
}

#[test]
fn defaults_prefill_the_form() {
    let schema = full_form();
    let defaults = schema.defaults();
    assert_eq!(
        Value::Object(defaults.clone()),
        json!({"name": "bob", "age": 30, "subscribe": false, "color": "#0f0", "tags": ["Red"]})
    );
    // Defaults satisfy their own constraints; the required members without one stay missing.
    assert_eq!(
        errors_of(&schema, Value::Object(defaults)),
        pairs(&[("/email", "required"), ("/a~1b~0c", "required")])
    );
    assert!(RequestedSchema::default().defaults().is_empty());
}

#[test]
fn defaults_of_a_parsed_schema() {
    let schema = RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {
            "n": {"type": "number", "default": 2.5},
            "s": {"type": "string", "enum": ["x", "y"], "default": "y"},
            "m": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "default": []},
            "plain": {"type": "string"}
        }
    }))
    .expect("valid schema");
    assert_eq!(
        Value::Object(schema.defaults()),
        json!({"n": 2.5, "s": "y", "m": []})
    );
}

// ---------------------------------------------------------------------------------------------
// Never panics.

/// A small deterministic generator (xorshift) of arbitrary JSON values.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }

    fn string(&mut self) -> String {
        const PIECES: &[&str] = &[
            "",
            "a",
            "Red",
            "#f00",
            "@",
            "\"",
            "\\",
            "[",
            "]",
            ":",
            "//",
            "%",
            "%4",
            "%zz",
            "T",
            "Z",
            "z",
            "-",
            "+",
            ".",
            "..",
            "0",
            "9",
            "23:59:60",
            "2024-02-29",
            "1900-02-29",
            "\u{301}",
            "\u{1F600}",
            "\u{200D}",
            " ",
            "\n",
            "é",
            "日",
            "[IPv6:::1]",
            "http:",
            "mailto:",
            "<",
            ">",
            "~",
            "/",
            "2023-01-01T00:00:00Z",
            "+05:30",
            "ab@cd.ef",
            "\0",
        ];
        let n = self.next() % 6;
        (0..n).map(|_| self.pick(PIECES)).collect()
    }

    fn number(&mut self) -> Value {
        match self.next() % 8 {
            0 => json!(self.next() as i64),
            1 => json!(self.next()),
            2 => json!((self.next() % 200) as i64 - 100),
            3 => json!(f64::from_bits(self.next()).clamp(-1e308, 1e308)),
            4 => json!(((self.next() % 2000) as f64 - 1000.0) / 8.0),
            5 => json!(u64::MAX),
            6 => json!(i64::MIN),
            _ => json!(1e300),
        }
    }

    fn value(&mut self, depth: u32) -> Value {
        let choice = if depth == 0 {
            self.next() % 5
        } else {
            self.next() % 7
        };
        match choice {
            0 => Value::Null,
            1 => Value::Bool(self.next() & 1 == 0),
            2 => {
                let n = self.number();
                if n.is_null() {
                    json!(0)
                } else {
                    n
                }
            }
            3 | 4 => Value::String(self.string()),
            5 => Value::Array(
                (0..self.next() % 5)
                    .map(|_| self.value(depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..self.next() % 4)
                    .map(|_| (self.string(), self.value(depth - 1)))
                    .collect(),
            ),
        }
    }
}

fn arbitrary_schemas() -> Vec<RequestedSchema> {
    let mut schemas = vec![full_form(), RequestedSchema::default()];
    let mut forbidden = full_form();
    forbidden.additional_properties_forbidden = true;
    schemas.push(forbidden);
    for format in StringFormat::ALL {
        schemas.push(RequestedSchema {
            properties: vec![(
                "v".into(),
                string(StringSchema {
                    format: Some(format),
                    pattern: text("^(?=.)[^\\s]*\\p{L}?$"),
                    min_length: Some(1),
                    max_length: Some(40),
                    ..Default::default()
                }),
            )],
            required: vec!["v".into()],
            ..Default::default()
        });
    }
    schemas.push(RequestedSchema {
        properties: vec![(
            "v".into(),
            PropertySchema::Number(NumberSchema {
                integer: false,
                minimum: Some(Number::from(u64::MAX)),
                maximum: Number::from_f64(-0.5),
                ..Default::default()
            }),
        )],
        ..Default::default()
    });
    schemas
}

#[test]
fn validate_never_panics_on_arbitrary_values() {
    let schemas = arbitrary_schemas();
    let names = [
        "name",
        "email",
        "age",
        "subscribe",
        "color",
        "tags",
        "a/b~c",
        "v",
        "x",
    ];
    let mut generator = Gen(0x9E37_79B9_7F4A_7C15);
    for round in 0..4000 {
        let mut answer = Map::new();
        for name in names {
            if generator.next() % 3 < 2 {
                answer.insert(name.to_owned(), generator.value(3));
            }
        }
        for schema in &schemas {
            let outcome = schema.validate(&answer);
            assert_eq!(
                schema.is_valid(&answer),
                outcome.is_ok(),
                "round {round}: is_valid vs validate on {}",
                Value::Object(answer.clone())
            );
            if let Err(errors) = &outcome {
                assert!(
                    !errors.errors().is_empty(),
                    "round {round}: Err with no error"
                );
                for error in errors.errors() {
                    assert!(error.pointer().starts_with('/'), "round {round}: {error}");
                }
            }
            let unknown = schema.unknown_members(&answer);
            assert!(unknown.iter().all(|name| schema.property(name).is_none()));
        }
    }
}

#[test]
fn formats_never_panic_on_arbitrary_strings() {
    let mut generator = Gen(42);
    for format in StringFormat::ALL {
        let schema = RequestedSchema {
            properties: vec![(
                "v".into(),
                string(StringSchema {
                    format: Some(format),
                    ..Default::default()
                }),
            )],
            ..Default::default()
        };
        for _ in 0..5000 {
            let value = generator.string();
            let _ = schema.validate(&content(json!({ "v": value })));
        }
        // Every prefix of tricky inputs, cut at every char boundary.
        for input in [
            "\"a\\\"b\"@[IPv6:1:2:3:4:5:6:7:8]",
            "http://u:p@[v1.x]:8080/p%41?q#f",
            "1998-12-31T23:59:60.123-08:00",
            "joe@[127.0.0.1]",
            "é\u{1F600}@日本.jp",
        ] {
            for (i, _) in input.char_indices() {
                let _ = schema.validate(&content(json!({ "v": &input[..i] })));
                let _ = schema.validate(&content(json!({ "v": &input[i..] })));
            }
        }
    }
}

#[test]
fn string_format_is_valid_matches_validate() {
    for (format, good, bad) in [
        (
            StringFormat::Email,
            "a.b@example.com",
            "Alice <a@example.com>",
        ),
        (StringFormat::Uri, "urn:isbn:0451450523", "/a/b"),
        (StringFormat::Date, "2000-02-29", "1900-02-29"),
        (
            StringFormat::DateTime,
            "1990-12-31T23:59:60Z",
            "1990-12-31T23:59:60+01:00",
        ),
    ] {
        assert!(format.is_valid(good), "{format} {good}");
        assert!(!format.is_valid(bad), "{format} {bad}");
        let schema = RequestedSchema {
            properties: vec![(
                "v".into(),
                string(StringSchema {
                    format: Some(format),
                    ..Default::default()
                }),
            )],
            ..Default::default()
        };
        assert!(schema.validate(&content(json!({ "v": good }))).is_ok());
        assert_eq!(
            errors_of(&schema, json!({ "v": bad })),
            pairs(&[("/v", "format")])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Patterns on ASCII text.

/// regress reads a pattern and says whether it is valid; what runs on an answer is the
/// automaton, or the `regex` crate or fancy-regex on a translation. Checked against regress's own
/// matcher on patterns that exercise classes, property escapes, word boundaries, alternation,
/// lookaround, backreferences and anchors, over
/// arbitrary strings (control characters, line terminators and non-ASCII letters included).
#[test]
fn patterns_match_as_regress_reads_them() {
    use proptest::test_runner::{Config, TestRunner};
    use regress::Regex;

    let patterns = [
        r"^[a-z][a-z0-9_]*$",
        r"\p{L}+",
        r"^\P{Lu}*$",
        r"\w+\b",
        r"\bfoo\b",
        r"^.$",
        r"[^\d\s]",
        r"[\s\S]{3}",
        r"\u{41}",
        r"^(?:[A-Z]{2}-)?\d{3,5}$",
        r"(a|ab)(c|bcd)(d*)",
        r"^\s*$",
        r"[\u0000-\u001f]",
        r"^[^@\s]+@[^@\s]+$",
        r"^(a|||||a){6,}$",
        r"(?<=a)b",
        r"a(?!b)",
        r"^(?=.*\d)(?=.*[a-z]).{8,}$",
        // Backreferences, in fancy-regex with ECMA-262's reading.
        r"(a|ab)\1",
        r"^(a|b)\1*$",
        r"(?<x>ab?)\k<x>",
        r"(?:(a)|b)\1",
        r"^(?!.*(.).*\1)",
        r"^(?:(\w)(?!\1))+$",
        r"\1(a)",
    ];
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        failure_persistence: None,
        ..Config::default()
    });
    for source in patterns {
        let reference = Regex::with_flags(source, "u").expect("the pattern compiles");
        let schema = RequestedSchema {
            properties: vec![(
                "p".to_owned(),
                PropertySchema::String(StringSchema {
                    pattern: Some(source.to_owned()),
                    ..StringSchema::default()
                }),
            )],
            required: Vec::new(),
            additional_properties_forbidden: false,
        };
        let validator = schema.validator();
        let text = proptest::string::string_regex(
            "[\\x00-\\x7f]{0,12}|(foo|ab|a|b|AB|12-345| |é|\u{2028}|\u{a0})*",
        )
        .expect("a valid strategy");
        runner
            .run(&text, |text| {
                let content = as_object(json!({ "p": text }), "content");
                let expected = reference.find(&text).is_some();
                proptest::prop_assert_eq!(
                    validator.validate(&content).is_ok(),
                    expected,
                    "pattern {} on {:?}",
                    source,
                    text
                );
                Ok(())
            })
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Report order and large forms.

fn string_property(name: &str, min_length: u64) -> (String, PropertySchema) {
    (
        name.to_owned(),
        PropertySchema::String(StringSchema {
            min_length: Some(min_length),
            ..StringSchema::default()
        }),
    )
}

/// A form of 40 properties (its members are found by hashing, not by a scan): the errors come
/// in the order of the form's properties whatever the order of `content`, then the required
/// names no property declares, then the undeclared members.
#[test]
fn large_form_reports_in_form_order() {
    // p39, p38, ..., p0: the form's order is the reverse of the map's (sorted) order.
    let names: Vec<String> = (0..40).rev().map(|i| format!("p{i:02}")).collect();
    let schema = RequestedSchema {
        properties: names.iter().map(|name| string_property(name, 2)).collect(),
        required: names
            .iter()
            .step_by(3)
            .cloned()
            .chain(["zz_elsewhere".to_owned()])
            .collect(),
        additional_properties_forbidden: true,
    };
    let mut content = Map::new();
    let mut expected = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let required = index % 3 == 0;
        match index % 4 {
            // Too short.
            0 => {
                content.insert(name.clone(), json!("x"));
                expected.push((format!("/{name}"), "minLength"));
            }
            // Absent: an error only when required.
            1 if required => expected.push((format!("/{name}"), "required")),
            1 => {}
            // Not a string.
            2 => {
                content.insert(name.clone(), json!(7));
                expected.push((format!("/{name}"), "type"));
            }
            _ => {
                content.insert(name.clone(), json!("fine"));
            }
        }
    }
    expected.push(("/zz_elsewhere".to_owned(), "required"));
    content.insert("a_extra".to_owned(), json!(1));
    content.insert("q~/x".to_owned(), json!(2));
    expected.push(("/a_extra".to_owned(), "additionalProperties"));
    expected.push(("/q~0~1x".to_owned(), "additionalProperties"));
    let errors = errors_of(&schema, Value::Object(content));
    let expected: Vec<(String, &'static str)> = expected;
    assert_eq!(errors, expected);
    // Every message names what it is about.
    let report = schema
        .validate(&as_object(json!({"p00": 1, "q": 1}), "content"))
        .unwrap_err();
    let messages: Vec<String> = report.errors().iter().map(|e| e.message()).collect();
    assert!(
        messages.contains(&"the required member `p39` is missing".to_owned()),
        "{messages:?}"
    );
    assert!(messages.contains(&"the member `q` is not a property of the form".to_owned()));
    assert!(messages.contains(&"expected a string, found a number".to_owned()));
}

/// A name declared twice (a schema `check` refuses, but `validate` takes any schema): the
/// member is checked against both declarations, in order, with a scan and with hashing.
#[test]
fn a_name_declared_twice_is_checked_against_both() {
    for filler in [0, 20] {
        let mut properties = vec![
            string_property("a", 3),
            (
                "a".to_owned(),
                PropertySchema::String(StringSchema {
                    pattern: Some("^x".to_owned()),
                    ..StringSchema::default()
                }),
            ),
        ];
        properties.extend((0..filler).map(|i| string_property(&format!("f{i}"), 0)));
        let schema = RequestedSchema {
            properties,
            required: vec!["a".to_owned()],
            additional_properties_forbidden: false,
        };
        assert_eq!(
            errors_of(&schema, json!({"a": "yy"})),
            pairs(&[("/a", "minLength"), ("/a", "pattern")]),
            "with {filler} more properties"
        );
        assert_eq!(
            errors_of(&schema, json!({})),
            pairs(&[("/a", "required"), ("/a", "required")]),
            "with {filler} more properties"
        );
        assert!(errors_of(&schema, json!({"a": "xyz"})).is_empty());
        assert!(!schema.is_valid(&content(json!({"a": "yy"}))));
        assert!(
            !schema.is_valid(&content(json!({"a": "xy"}))),
            "the first declaration"
        );
        assert!(!schema.is_valid(&Map::new()));
        assert!(schema.is_valid(&content(json!({"a": "xyz"}))));
    }
}

/// Each error carries its problem as data, for clients that word their own messages; the
/// English message is rendered from the same data.
#[test]
fn errors_carry_their_problem_as_data() {
    use mcp_typed::elicit::Problem;

    // From text, so that the form keeps this order (a `json!` object sorts its members).
    let schema = RequestedSchema::parse_str(
        r#"{"type": "object", "properties": {
            "name": {"type": "string", "minLength": 3},
            "age": {"type": "integer", "minimum": 18},
            "plan": {"type": "string", "enum": ["free", "pro"]},
            "email": {"type": "string", "format": "email"}
        }, "required": ["name", "email"]}"#,
    )
    .expect("a valid schema");
    let errors = schema
        .validate(&content(
            json!({"name": "Al", "age": 17.0, "plan": "gold", "email": "a b@x"}),
        ))
        .expect_err("four problems");
    let problems: Vec<(&str, &Problem)> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer(), e.problem()))
        .collect();
    assert_eq!(
        problems[0],
        ("/name", &Problem::TooShort { min: 3, length: 2 })
    );
    assert!(matches!(
        problems[1],
        ("/age", Problem::Below { minimum, value })
            if minimum.as_u64() == Some(18) && value.as_f64() == Some(17.0)
    ));
    assert!(matches!(
        problems[2],
        ("/plan", Problem::NotAnOption { value: Some(value), .. }) if value == "gold"
    ));
    assert_eq!(
        problems[3],
        ("/email", &Problem::Format(StringFormat::Email))
    );
    let messages: Vec<String> = errors.errors().iter().map(|e| e.message()).collect();
    assert_eq!(
        messages,
        [
            "must be at least 3 characters long, is 2",
            "must be at least 18, is 17.0",
            r#"must be one of "free", "pro", is "gold""#,
            "is not a valid `email`",
        ]
    );
    assert_eq!(
        errors.errors()[0].to_string(),
        "/name: must be at least 3 characters long, is 2 (minLength)"
    );
}
