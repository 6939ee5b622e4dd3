//! `mcp_typed::elicit`: the typed model of the form-mode `requestedSchema`.
//!
//! The expected JSON strings below are the specification's own examples (revision 2025-11-25,
//! client/elicitation, "Requested Schema" and "Example: Structured Data Request"), written out
//! by hand with the whitespace removed and the keys in the order the specification has them.

use mcp_typed::elicit::{
    BooleanSchema, EnumOptions, KeyOrder, Keyword, MultiSelectSchema, NumberSchema, PropertySchema,
    RequestedSchema, Revision, SchemaError, SingleSelectSchema, StringFormat, StringSchema,
    TitledOption, ToRevisionError,
};
use serde_json::{json, Number, Value};

// ---------------------------------------------------------------------------------------------
// The specification's examples, by hand.

const SPEC_STRING: &str = r#"{"type":"string","title":"Display Name","description":"Description text","minLength":3,"maxLength":50,"pattern":"^[A-Za-z]+$","format":"email","default":"user@example.com"}"#;
const SPEC_NUMBER: &str = r#"{"type":"number","title":"Display Name","description":"Description text","minimum":0,"maximum":100,"default":50}"#;
const SPEC_BOOLEAN: &str =
    r#"{"type":"boolean","title":"Display Name","description":"Description text","default":false}"#;
const SPEC_SINGLE_UNTITLED: &str = r#"{"type":"string","title":"Color Selection","description":"Choose your favorite color","enum":["Red","Green","Blue"],"default":"Red"}"#;
const SPEC_SINGLE_TITLED: &str = r##"{"type":"string","title":"Color Selection","description":"Choose your favorite color","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}],"default":"#FF0000"}"##;
const SPEC_MULTI_UNTITLED: &str = r#"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}"#;
const SPEC_MULTI_TITLED: &str = r##"{"type":"array","title":"Color Selection","description":"Choose your favorite colors","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"},{"const":"#0000FF","title":"Blue"}]},"default":["#FF0000","#00FF00"]}"##;
const SPEC_SIMPLE_TEXT: &str =
    r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;
const SPEC_CONTACT: &str = r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}"#;

fn s(text: &str) -> Option<String> {
    Some(text.to_owned())
}

fn num(n: i64) -> Option<Number> {
    Some(Number::from(n))
}

fn colors() -> Vec<String> {
    vec!["Red".into(), "Green".into(), "Blue".into()]
}

fn titled_colors() -> Vec<TitledOption> {
    [
        ("#FF0000", "Red"),
        ("#00FF00", "Green"),
        ("#0000FF", "Blue"),
    ]
    .into_iter()
    .map(|(value, title)| TitledOption {
        value: value.into(),
        title: title.into(),
    })
    .collect()
}

fn spec_string() -> PropertySchema {
    PropertySchema::String(StringSchema {
        title: s("Display Name"),
        description: s("Description text"),
        min_length: Some(3),
        max_length: Some(50),
        pattern: s("^[A-Za-z]+$"),
        format: Some(StringFormat::Email),
        default: s("user@example.com"),
        key_order: KeyOrder::default(),
    })
}

/// The spec's string example with a pattern its default matches: the example's own pattern
/// (`^[A-Za-z]+$`) refuses its default (`user@example.com`), which `problems()` reports (see
/// `the_spec_string_example_breaks_its_own_pattern`), so `check()` and `to_revision` refuse it.
fn consistent_spec_string() -> PropertySchema {
    let mut string = spec_string();
    if let PropertySchema::String(s) = &mut string {
        s.pattern = Some("^[a-z]+@[a-z.]+$".into());
    }
    string
}

fn spec_number() -> PropertySchema {
    PropertySchema::Number(NumberSchema {
        integer: false,
        title: s("Display Name"),
        description: s("Description text"),
        minimum: num(0),
        maximum: num(100),
        default: num(50),
        key_order: KeyOrder::default(),
    })
}

fn spec_boolean() -> PropertySchema {
    PropertySchema::Boolean(BooleanSchema {
        title: s("Display Name"),
        description: s("Description text"),
        default: Some(false),
        key_order: KeyOrder::default(),
    })
}

fn spec_single(titled: bool) -> PropertySchema {
    PropertySchema::SingleSelect(SingleSelectSchema {
        title: s("Color Selection"),
        description: s("Choose your favorite color"),
        options: if titled {
            EnumOptions::Titled(titled_colors())
        } else {
            EnumOptions::Untitled(colors())
        },
        default: if titled { s("#FF0000") } else { s("Red") },
        enum_names: false,
        key_order: KeyOrder::default(),
    })
}

fn spec_multi(titled: bool) -> PropertySchema {
    PropertySchema::MultiSelect(MultiSelectSchema {
        title: s("Color Selection"),
        description: s("Choose your favorite colors"),
        options: if titled {
            EnumOptions::Titled(titled_colors())
        } else {
            EnumOptions::Untitled(colors())
        },
        min_items: Some(1),
        max_items: Some(2),
        default: Some(if titled {
            vec!["#FF0000".into(), "#00FF00".into()]
        } else {
            vec!["Red".into(), "Green".into()]
        }),
        key_order: KeyOrder::default(),
    })
}

fn spec_contact() -> RequestedSchema {
    // The contact form writes `description` last, unlike the per-type examples.
    let description_last = KeyOrder::new([Keyword::Format, Keyword::Minimum]);
    RequestedSchema {
        properties: vec![
            (
                "name".into(),
                PropertySchema::String(StringSchema {
                    description: s("Your full name"),
                    ..Default::default()
                }),
            ),
            (
                "email".into(),
                PropertySchema::String(StringSchema {
                    format: Some(StringFormat::Email),
                    description: s("Your email address"),
                    key_order: description_last.clone(),
                    ..Default::default()
                }),
            ),
            (
                "age".into(),
                PropertySchema::Number(NumberSchema {
                    minimum: num(18),
                    description: s("Your age"),
                    key_order: description_last,
                    ..Default::default()
                }),
            ),
        ],
        required: vec!["name".into(), "email".into()],
        additional_properties_forbidden: false,
    }
}

fn single(name: &str, property: PropertySchema) -> RequestedSchema {
    RequestedSchema {
        properties: vec![(name.to_owned(), property)],
        ..Default::default()
    }
}

/// A schema with one property, as the spec's property JSON wrapped in a requested schema.
fn wrap(name: &str, property_json: &str) -> String {
    format!(r#"{{"type":"object","properties":{{"{name}":{property_json}}}}}"#)
}

fn spec_properties() -> Vec<(&'static str, PropertySchema, &'static str)> {
    vec![
        ("string", spec_string(), SPEC_STRING),
        ("number", spec_number(), SPEC_NUMBER),
        ("boolean", spec_boolean(), SPEC_BOOLEAN),
        ("single_untitled", spec_single(false), SPEC_SINGLE_UNTITLED),
        ("single_titled", spec_single(true), SPEC_SINGLE_TITLED),
        ("multi_untitled", spec_multi(false), SPEC_MULTI_UNTITLED),
        ("multi_titled", spec_multi(true), SPEC_MULTI_TITLED),
    ]
}

/// The decoded form of a serialized schema in the generated 2025-11-25 / 2026-07-28 types
/// re-encodes to the same JSON value.
fn assert_generated_types_agree(json: &str) {
    let expected: Value = serde_json::from_str(json).expect("valid JSON");
    let v11: mcp_typed::v2025_11_25::ElicitRequestFormParamsRequestedSchema =
        serde_json::from_str(json).expect("decodes into the 2025-11-25 type");
    // `additionalProperties` is the only top-level member the generated type does not declare.
    assert!(
        v11.extra.keys().all(|key| key == "additionalProperties"),
        "no other undeclared members: {json}"
    );
    assert_eq!(serde_json::to_value(&v11).expect("encodes"), expected);
    let v26: mcp_typed::v2026_07_28::ElicitRequestFormParamsRequestedSchema =
        serde_json::from_str(json).expect("decodes into the 2026-07-28 type");
    assert_eq!(serde_json::to_value(&v26).expect("encodes"), expected);
}

// ---------------------------------------------------------------------------------------------
// Serialize: byte-identical to the specification.

#[test]
fn spec_property_examples_serialize_byte_identical() {
    for (name, property, expected) in spec_properties() {
        assert_eq!(
            serde_json::to_string(&property).unwrap(),
            expected,
            "property example {name}"
        );
        let schema = single(name, property);
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            wrap(name, expected),
            "schema with {name}"
        );
    }
}

#[test]
fn spec_simple_text_request_serializes_byte_identical() {
    let schema = RequestedSchema {
        properties: vec![(
            "name".into(),
            PropertySchema::String(StringSchema::default()),
        )],
        required: vec!["name".into()],
        additional_properties_forbidden: false,
    };
    assert_eq!(serde_json::to_string(&schema).unwrap(), SPEC_SIMPLE_TEXT);
}

#[test]
fn spec_contact_form_serializes_byte_identical() {
    assert_eq!(
        serde_json::to_string(&spec_contact()).unwrap(),
        SPEC_CONTACT
    );
}

#[test]
fn canonical_order_puts_description_after_title() {
    // Without a key order, the contact form gets the per-type examples' order.
    let mut contact = spec_contact();
    for (_, property) in &mut contact.properties {
        match property {
            PropertySchema::String(s) => s.key_order = KeyOrder::default(),
            PropertySchema::Number(n) => n.key_order = KeyOrder::default(),
            _ => unreachable!(),
        }
    }
    assert_eq!(
        serde_json::to_string(&contact).unwrap(),
        r#"{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","description":"Your email address","format":"email"},"age":{"type":"number","description":"Your age","minimum":18}},"required":["name","email"]}"#
    );
    // Key order is presentation only.
    assert_eq!(contact, spec_contact());
}

#[test]
fn spec_examples_parse_and_reserialize_byte_identical() {
    for (name, property, expected) in spec_properties() {
        let json = wrap(name, expected);
        let parsed = RequestedSchema::parse_str(&json).unwrap();
        assert_eq!(parsed, single(name, property), "{name}");
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json, "{name}");
    }
    for json in [SPEC_SIMPLE_TEXT, SPEC_CONTACT] {
        let parsed = RequestedSchema::parse_str(json).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
    }
    assert_eq!(
        RequestedSchema::parse_str(SPEC_CONTACT).unwrap(),
        spec_contact()
    );
}

#[test]
fn serialized_examples_decode_into_the_generated_types() {
    for (name, property, _) in spec_properties() {
        let json = serde_json::to_string(&single(name, property)).unwrap();
        assert_generated_types_agree(&json);
    }
    assert_generated_types_agree(&serde_json::to_string(&spec_contact()).unwrap());
    assert_generated_types_agree(SPEC_SIMPLE_TEXT);
}

#[test]
fn serialized_enums_decode_into_the_matching_generated_variant() {
    use mcp_typed::v2025_11_25::{
        ElicitRequestFormParamsRequestedSchema, PrimitiveSchemaDefinition,
    };
    let schema = RequestedSchema {
        properties: vec![
            ("a".into(), spec_single(false)),
            ("b".into(), spec_single(true)),
            ("c".into(), spec_multi(false)),
            ("d".into(), spec_multi(true)),
            ("e".into(), spec_boolean()),
            ("f".into(), spec_number()),
        ],
        ..Default::default()
    };
    let decoded: ElicitRequestFormParamsRequestedSchema =
        serde_json::from_value(serde_json::to_value(&schema).unwrap()).unwrap();
    let kind = |name: &str| match &decoded.properties[name] {
        PrimitiveSchemaDefinition::UntitledSingleSelectEnum(_) => "untitled single",
        PrimitiveSchemaDefinition::TitledSingleSelectEnum(_) => "titled single",
        PrimitiveSchemaDefinition::UntitledMultiSelectEnum(_) => "untitled multi",
        PrimitiveSchemaDefinition::TitledMultiSelectEnum(_) => "titled multi",
        PrimitiveSchemaDefinition::Boolean(_) => "boolean",
        PrimitiveSchemaDefinition::Number(_) => "number",
        other => panic!("unexpected variant {other:?}"),
    };
    assert_eq!(kind("a"), "untitled single");
    assert_eq!(kind("b"), "titled single");
    assert_eq!(kind("c"), "untitled multi");
    assert_eq!(kind("d"), "titled multi");
    assert_eq!(kind("e"), "boolean");
    assert_eq!(kind("f"), "number");
}

#[test]
fn integer_type_and_empty_required_and_additional_properties() {
    let schema = RequestedSchema {
        properties: vec![(
            "n".into(),
            PropertySchema::Number(NumberSchema {
                integer: true,
                maximum: num(-1),
                ..Default::default()
            }),
        )],
        required: vec![],
        additional_properties_forbidden: true,
    };
    let json = serde_json::to_string(&schema).unwrap();
    assert_eq!(
        json,
        r#"{"type":"object","properties":{"n":{"type":"integer","maximum":-1}},"additionalProperties":false}"#
    );
    assert_eq!(RequestedSchema::parse_str(&json).unwrap(), schema);
    let empty = RequestedSchema::default();
    assert_eq!(
        serde_json::to_string(&empty).unwrap(),
        r#"{"type":"object","properties":{}}"#
    );
}

// ---------------------------------------------------------------------------------------------
// to_revision

fn legacy_form() -> RequestedSchema {
    RequestedSchema {
        properties: vec![
            (
                "color".into(),
                PropertySchema::SingleSelect(SingleSelectSchema {
                    title: s("Color Selection"),
                    options: EnumOptions::Titled(titled_colors()),
                    ..Default::default()
                }),
            ),
            (
                "size".into(),
                PropertySchema::SingleSelect(SingleSelectSchema {
                    options: EnumOptions::Untitled(vec!["S".into(), "M".into()]),
                    ..Default::default()
                }),
            ),
            (
                "subscribe".into(),
                PropertySchema::Boolean(BooleanSchema {
                    default: Some(true),
                    ..Default::default()
                }),
            ),
            (
                "email".into(),
                PropertySchema::String(StringSchema {
                    format: Some(StringFormat::Email),
                    min_length: Some(3),
                    ..Default::default()
                }),
            ),
        ],
        required: vec!["color".into()],
        additional_properties_forbidden: false,
    }
}

#[test]
fn to_2025_06_18_writes_titled_enums_as_enum_names() {
    let value = legacy_form().to_revision(Revision::V2025_06_18).unwrap();
    assert_eq!(
        value,
        json!({
            "type": "object",
            "properties": {
                "color": {
                    "type": "string",
                    "title": "Color Selection",
                    "enum": ["#FF0000", "#00FF00", "#0000FF"],
                    "enumNames": ["Red", "Green", "Blue"]
                },
                "size": {"type": "string", "enum": ["S", "M"]},
                "subscribe": {"type": "boolean", "default": true},
                "email": {"type": "string", "minLength": 3, "format": "email"}
            },
            "required": ["color"]
        })
    );
    // It is what the 2025-06-18 generated type holds, and it reads back as the same model.
    let decoded: mcp_typed::v2025_06_18::ElicitRequestParamsRequestedSchema =
        serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
    let mut back = RequestedSchema::parse(&value).unwrap();
    back.properties.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected = legacy_form();
    expected.properties.sort_by(|a, b| a.0.cmp(&b.0));
    // The same model, noted as written in the legacy form (so that it is written back so).
    for (_, property) in &mut expected.properties {
        if let PropertySchema::SingleSelect(select) = property {
            select.enum_names = select.options.is_titled();
        }
    }
    assert_eq!(back, expected);
}

#[test]
fn to_2025_06_18_legacy_enum_names_string_is_ordered() {
    // `enumNames` directly follows `enum` when written as text.
    let schema = single("color", spec_single(true));
    let mut schema = schema;
    if let PropertySchema::SingleSelect(select) = &mut schema.properties[0].1 {
        select.default = None;
    }
    let value = schema.to_revision(Revision::V2025_06_18).unwrap();
    assert_eq!(
        value["properties"]["color"]["enumNames"],
        json!(["Red", "Green", "Blue"])
    );
    assert!(value["properties"]["color"].get("oneOf").is_none());
}

fn assert_unsupported(schema: RequestedSchema, property: &str, pointer: &str) {
    match schema.to_revision(Revision::V2025_06_18) {
        Err(error @ ToRevisionError::Unsupported { .. }) => {
            let ToRevisionError::Unsupported {
                revision,
                property: p,
                pointer: at,
                ..
            } = &error
            else {
                unreachable!()
            };
            assert_eq!(*revision, Revision::V2025_06_18);
            assert_eq!(p, property);
            assert_eq!(at, pointer);
            let text = error.to_string();
            assert!(text.contains(&format!("`{property}`")), "{text}");
            assert!(text.contains("2025-06-18"), "{text}");
        }
        other => panic!("expected Unsupported for {property}, got {other:?}"),
    }
}

#[test]
fn to_2025_06_18_refuses_multi_select() {
    assert_unsupported(
        single("colors", spec_multi(false)),
        "colors",
        "/properties/colors",
    );
    assert_unsupported(single("tags", spec_multi(true)), "tags", "/properties/tags");
}

#[test]
fn to_2025_06_18_refuses_defaults_except_on_booleans() {
    assert_unsupported(
        single("name", consistent_spec_string()),
        "name",
        "/properties/name/pattern",
    );
    let mut string = spec_string();
    if let PropertySchema::String(s) = &mut string {
        s.pattern = None;
    }
    assert_unsupported(single("name", string), "name", "/properties/name/default");
    assert_unsupported(
        single("age", spec_number()),
        "age",
        "/properties/age/default",
    );
    assert_unsupported(
        single("color", spec_single(false)),
        "color",
        "/properties/color/default",
    );
    assert_unsupported(
        single("color", spec_single(true)),
        "color",
        "/properties/color/default",
    );
    assert!(single("ok", spec_boolean())
        .to_revision(Revision::V2025_06_18)
        .is_ok());
}

/// The spec's string example lists every keyword of a string, but its default does not match
/// its pattern: it parses and serializes as it is, and `problems()` says so.
#[test]
fn the_spec_string_example_breaks_its_own_pattern() {
    let schema = single("name", spec_string());
    let problems = schema.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].pointer, "/properties/name/default");
    assert_eq!(
        problems[0].message,
        "the default does not match the pattern"
    );
    assert!(single("name", consistent_spec_string())
        .problems()
        .is_empty());
}

#[test]
fn to_2025_11_25_and_2026_07_28_equal_serialize() {
    let schema = RequestedSchema {
        properties: spec_properties()
            .into_iter()
            .map(|(name, property, _)| match name {
                "string" => (name.to_owned(), consistent_spec_string()),
                _ => (name.to_owned(), property),
            })
            .collect(),
        required: vec!["string".into()],
        additional_properties_forbidden: true,
    };
    let serialized = serde_json::to_value(&schema).unwrap();
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        assert_eq!(
            schema.to_revision(revision).unwrap(),
            serialized,
            "{revision}"
        );
    }
    assert_eq!(
        serialized["properties"]["single_titled"]["oneOf"][0]["const"],
        "#FF0000"
    );
    assert_eq!(serialized["additionalProperties"], false);
}

#[test]
fn to_revision_refuses_an_inconsistent_schema() {
    let schema = RequestedSchema {
        properties: vec![("a".into(), spec_boolean())],
        required: vec!["b".into()],
        additional_properties_forbidden: false,
    };
    for revision in Revision::ALL {
        match schema.to_revision(revision) {
            Err(ToRevisionError::Invalid(error)) => assert_eq!(error.pointer, "/required/0"),
            other => panic!("expected Invalid, got {other:?}"),
        }
    }
}

#[test]
fn check_reports_model_errors_with_canonical_pointers() {
    let dup = RequestedSchema {
        properties: vec![("a".into(), spec_boolean()), ("a".into(), spec_number())],
        ..Default::default()
    };
    assert_eq!(dup.check().unwrap_err().pointer, "/properties/a");
    let empty = single(
        "c",
        PropertySchema::MultiSelect(MultiSelectSchema::default()),
    );
    assert_eq!(
        empty.check().unwrap_err().pointer,
        "/properties/c/items/enum"
    );
    let duplicate_titled = single(
        "c",
        PropertySchema::SingleSelect(SingleSelectSchema {
            options: EnumOptions::Titled(vec![
                TitledOption {
                    value: "x".into(),
                    title: "X".into(),
                },
                TitledOption {
                    value: "x".into(),
                    title: "Y".into(),
                },
            ]),
            ..Default::default()
        }),
    );
    assert_eq!(
        duplicate_titled.check().unwrap_err().pointer,
        "/properties/c/oneOf/1/const"
    );
}

// ---------------------------------------------------------------------------------------------
// parse: rejections, each with its pointer.

/// A schema inside the subset that breaks a consistency rule: both parse paths accept it (real
/// servers send such forms, and their validation is well defined), `problems()` reports it, and
/// `check()` and `to_revision` refuse it. The first problem is returned.
fn inconsistent(json: Value) -> SchemaError {
    let text = json.to_string();
    let schema = RequestedSchema::parse(&json).unwrap_or_else(|e| panic!("{text}: {e}"));
    let ordered = RequestedSchema::parse_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let problems = schema.problems();
    assert!(!problems.is_empty(), "{text}: no problem reported");
    assert_eq!(ordered.problems(), problems, "{text}");
    assert_eq!(schema.check().unwrap_err(), problems[0], "{text}");
    assert!(
        schema.to_revision(Revision::V2025_11_25).is_err(),
        "{text}: written although inconsistent"
    );
    problems[0].clone()
}

fn rejected(json: Value) -> SchemaError {
    let text = json.to_string();
    let error = RequestedSchema::parse(&json).expect_err(&text);
    // The order-keeping path reports the same thing.
    assert_eq!(
        RequestedSchema::parse_str(&text).unwrap_err(),
        error,
        "{text}"
    );
    // Display is `pointer: message`.
    assert_eq!(
        error.to_string(),
        format!("{}: {}", error.pointer, error.message)
    );
    error
}

macro_rules! reject {
    ($name:ident, $json:tt, $pointer:expr) => {
        #[test]
        fn $name() {
            let error = rejected(json!($json));
            assert_eq!(error.pointer, $pointer, "{error}");
        }
    };
}

/// A schema that parses but breaks a consistency rule, reported by `problems()` at `$pointer`.
macro_rules! inconsistent {
    ($name:ident, $json:tt, $pointer:expr) => {
        #[test]
        fn $name() {
            let error = inconsistent(json!($json));
            assert_eq!(error.pointer, $pointer, "{error}");
        }
    };
}

reject!(reject_root_not_an_object, [], "");
reject!(reject_root_without_type, {"properties": {}}, "");
reject!(reject_root_type_not_object, {"type": "array", "properties": {}}, "/type");
reject!(reject_root_without_properties, {"type": "object"}, "");
reject!(reject_properties_not_an_object, {"type": "object", "properties": []}, "/properties");
reject!(
    reject_pattern_properties,
    {"type": "object", "properties": {}, "patternProperties": {"^x": {"type": "string"}}},
    "/patternProperties"
);
reject!(
    reject_additional_properties_schema,
    {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}},
    "/additionalProperties"
);
inconsistent!(
    inconsistent_required_missing_property,
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]},
    "/required/1"
);
reject!(
    reject_required_not_strings,
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": [1]},
    "/required/0"
);
inconsistent!(
    inconsistent_required_twice,
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]},
    "/required/1"
);
inconsistent!(
    inconsistent_pattern_does_not_compile,
    {"type": "object", "properties": {"code": {"type": "string", "pattern": "([a-z]+"}}},
    "/properties/code/pattern"
);
inconsistent!(
    inconsistent_default_does_not_match_pattern,
    {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[0-9]+$", "default": "abc"}}},
    "/properties/code/default"
);
inconsistent!(
    inconsistent_default_not_of_its_format,
    {"type": "object", "properties": {"day": {"type": "string", "format": "date", "default": "2023-02-29"}}},
    "/properties/day/default"
);
inconsistent!(
    inconsistent_min_items_above_options,
    {"type": "object", "properties": {"c": {"type": "array", "minItems": 3, "items": {"type": "string", "enum": ["a", "b"]}}}},
    "/properties/c/minItems"
);
reject!(
    reject_nested_object,
    {"type": "object", "properties": {"address": {"type": "object", "properties": {"street": {"type": "string"}}}}},
    "/properties/address/type"
);
reject!(
    reject_array_of_free_strings,
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}},
    "/properties/tags/items"
);
reject!(
    reject_array_of_objects,
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "object"}}}},
    "/properties/tags/items/type"
);
reject!(
    reject_array_without_items,
    {"type": "object", "properties": {"tags": {"type": "array"}}},
    "/properties/tags"
);
reject!(
    reject_items_enum_without_type,
    {"type": "object", "properties": {"c": {"type": "array", "items": {"enum": ["a"]}}}},
    "/properties/c/items"
);
reject!(
    reject_unknown_format,
    {"type": "object", "properties": {"phone": {"type": "string", "format": "phone"}}},
    "/properties/phone/format"
);
reject!(
    reject_unique_items,
    {"type": "object", "properties": {"c": {"type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["a"]}}}},
    "/properties/c/uniqueItems"
);
reject!(
    reject_exclusive_minimum,
    {"type": "object", "properties": {"age": {"type": "number", "exclusiveMinimum": 0}}},
    "/properties/age/exclusiveMinimum"
);
reject!(
    reject_ref,
    {"type": "object", "properties": {"x": {"type": "string", "$ref": "#/defs/x"}}},
    "/properties/x/$ref"
);
reject!(
    reject_const_property,
    {"type": "object", "properties": {"x": {"type": "string", "const": "a"}}},
    "/properties/x/const"
);
inconsistent!(
    inconsistent_min_length_above_max_length,
    {"type": "object", "properties": {"name": {"type": "string", "minLength": 5, "maxLength": 4}}},
    "/properties/name/minLength"
);
reject!(
    reject_negative_min_length,
    {"type": "object", "properties": {"name": {"type": "string", "minLength": -1}}},
    "/properties/name/minLength"
);
inconsistent!(
    inconsistent_minimum_above_maximum,
    {"type": "object", "properties": {"age": {"type": "integer", "minimum": 10, "maximum": 9.5}}},
    "/properties/age/minimum"
);
inconsistent!(
    inconsistent_min_items_above_max_items,
    {"type": "object", "properties": {"c": {"type": "array", "minItems": 3, "maxItems": 2, "items": {"type": "string", "enum": ["a", "b", "c"]}}}},
    "/properties/c/minItems"
);
inconsistent!(
    inconsistent_string_default_too_long,
    {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3, "default": "abcd"}}},
    "/properties/name/default"
);
reject!(
    reject_string_default_not_a_string,
    {"type": "object", "properties": {"name": {"type": "string", "default": 3}}},
    "/properties/name/default"
);
inconsistent!(
    inconsistent_number_default_below_minimum,
    {"type": "object", "properties": {"age": {"type": "number", "minimum": 18, "default": 17.5}}},
    "/properties/age/default"
);
inconsistent!(
    inconsistent_integer_default_with_fraction,
    {"type": "object", "properties": {"n": {"type": "integer", "default": 2.5}}},
    "/properties/n/default"
);
reject!(
    reject_boolean_default_not_a_boolean,
    {"type": "object", "properties": {"ok": {"type": "boolean", "default": "yes"}}},
    "/properties/ok/default"
);
inconsistent!(
    inconsistent_enum_default_not_an_option,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["Red"], "default": "Blue"}}},
    "/properties/color/default"
);
inconsistent!(
    inconsistent_titled_default_is_a_title_not_a_value,
    {"type": "object", "properties": {"color": {"type": "string", "oneOf": [{"const": "#FF0000", "title": "Red"}], "default": "Red"}}},
    "/properties/color/default"
);
inconsistent!(
    inconsistent_multi_default_not_an_option,
    {"type": "object", "properties": {"c": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a", "z"]}}},
    "/properties/c/default/1"
);
inconsistent!(
    inconsistent_multi_default_twice,
    {"type": "object", "properties": {"c": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a", "a"]}}},
    "/properties/c/default/1"
);
inconsistent!(
    inconsistent_multi_default_too_many,
    {"type": "object", "properties": {"c": {"type": "array", "maxItems": 1, "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a", "b"]}}},
    "/properties/c/default"
);
reject!(
    reject_enum_names_length_mismatch,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red"]}}},
    "/properties/color/enumNames"
);
reject!(
    reject_enum_names_without_enum,
    {"type": "object", "properties": {"color": {"type": "string", "enumNames": ["Red"]}}},
    "/properties/color/enumNames"
);
reject!(
    reject_enum_names_with_one_of,
    {"type": "object", "properties": {"color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}], "enumNames": ["Red"]}}},
    "/properties/color/enumNames"
);
inconsistent!(
    inconsistent_duplicate_enum_value,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["Red", "Green", "Red"]}}},
    "/properties/color/enum/2"
);
// Under `oneOf` the repeated value matches two branches and is invalid, every other option
// valid: validation is well defined.
inconsistent!(
    inconsistent_duplicate_one_of_const,
    {"type": "object", "properties": {"color": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "r", "title": "Rouge"}]}}},
    "/properties/color/oneOf/1/const"
);
// Titled by `enumNames`, the options are written as `oneOf`: a repeated value is refused as
// there (found by fuzzing: the written form did not parse again).
reject!(
    reject_duplicate_enum_value_with_enum_names,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["r", "g", "r"], "enumNames": ["Red", "Green", "Rouge"]}}},
    "/properties/color/enum/2"
);
inconsistent!(
    inconsistent_duplicate_any_of_const,
    {"type": "object", "properties": {"c": {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "r", "title": "Rouge"}]}}}},
    "/properties/c/items/anyOf/1/const"
);
reject!(
    reject_non_string_enum_value,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["Red", 2]}}},
    "/properties/color/enum/1"
);
reject!(
    reject_non_string_one_of_const,
    {"type": "object", "properties": {"color": {"type": "string", "oneOf": [{"const": 1, "title": "One"}]}}},
    "/properties/color/oneOf/0/const"
);
reject!(
    reject_one_of_without_title,
    {"type": "object", "properties": {"color": {"type": "string", "oneOf": [{"const": "r"}]}}},
    "/properties/color/oneOf/0"
);
reject!(
    reject_enum_and_one_of_together,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["r"], "oneOf": [{"const": "r", "title": "Red"}]}}},
    "/properties/color/oneOf"
);
reject!(
    reject_empty_enum,
    {"type": "object", "properties": {"color": {"type": "string", "enum": []}}},
    "/properties/color/enum"
);
reject!(
    reject_min_length_on_enum,
    {"type": "object", "properties": {"color": {"type": "string", "enum": ["Red"], "minLength": 1}}},
    "/properties/color/minLength"
);
reject!(
    reject_property_without_type,
    {"type": "object", "properties": {"x": {"enum": ["a"]}}},
    "/properties/x"
);
reject!(
    reject_property_type_list,
    {"type": "object", "properties": {"x": {"type": ["string", "null"]}}},
    "/properties/x/type"
);
reject!(
    reject_null_type,
    {"type": "object", "properties": {"x": {"type": "null"}}},
    "/properties/x/type"
);
reject!(
    reject_property_not_an_object,
    {"type": "object", "properties": {"x": true}},
    "/properties/x"
);
reject!(
    reject_pointer_is_escaped,
    {"type": "object", "properties": {"a/b~c": {"type": "string", "x-widget": "slider"}}},
    "/properties/a~1b~0c/x-widget"
);

#[test]
fn reject_duplicate_keys_in_text() {
    let error = RequestedSchema::parse_str(
        r#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"number"}}}"#,
    )
    .unwrap_err();
    assert_eq!(error.pointer, "/properties/a");
    let error = RequestedSchema::parse_str(
        r#"{"type":"object","properties":{"a":{"type":"string","title":"x","title":"y"}}}"#,
    )
    .unwrap_err();
    assert_eq!(error.pointer, "/properties/a/title");
}

#[test]
fn reject_malformed_json_text() {
    let error = RequestedSchema::parse_str(r#"{"type":"object","#).unwrap_err();
    assert_eq!(error.pointer, "");
    assert!(error.message.starts_with("malformed JSON"), "{error}");
}

#[test]
fn deserialize_reports_the_pointer() {
    let error = serde_json::from_str::<RequestedSchema>(
        r#"{"type":"object","properties":{"x":{"type":"string","format":"phone"}}}"#,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("/properties/x/format"),
        "{error}"
    );
}

// ---------------------------------------------------------------------------------------------
// parse: what it accepts.

#[test]
fn parse_accepts_legacy_enum_names_as_titled_single_select() {
    let schema = RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {
            "color": {
                "type": "string",
                "title": "Color Selection",
                "description": "Choose your favorite color",
                "enum": ["#FF0000", "#00FF00", "#0000FF"],
                "enumNames": ["Red", "Green", "Blue"],
                "default": "#FF0000"
            }
        }
    }))
    .unwrap();
    // The titled single select, noted as written in the legacy form.
    let mut legacy = spec_single(true);
    if let PropertySchema::SingleSelect(select) = &mut legacy {
        select.enum_names = true;
    }
    assert_eq!(schema, single("color", legacy));
    // It is written back as it came; without the note, in the current form.
    assert_eq!(
        serde_json::to_value(&schema).unwrap()["properties"]["color"],
        json!({
            "type": "string",
            "title": "Color Selection",
            "description": "Choose your favorite color",
            "enum": ["#FF0000", "#00FF00", "#0000FF"],
            "enumNames": ["Red", "Green", "Blue"],
            "default": "#FF0000"
        })
    );
    let mut current = schema.clone();
    if let PropertySchema::SingleSelect(select) = &mut current.properties[0].1 {
        select.enum_names = false;
    }
    assert_eq!(
        serde_json::to_string(&current).unwrap(),
        wrap("color", SPEC_SINGLE_TITLED)
    );
}

#[test]
fn parse_accepts_annotations_and_additional_properties() {
    let text = r#"{"$schema":"http://json-schema.org/draft-07/schema#","title":"Contact","description":"Who you are","$comment":"generated","type":"object","properties":{"name":{"type":"string","$comment":"free text","examples":["Ada"],"pattern":"^\\S"},"n":{"type":"integer","default":3.0,"minimum":0}},"required":["name"],"additionalProperties":false}"#;
    let schema = RequestedSchema::parse_str(text).unwrap();
    assert!(schema.additional_properties_forbidden);
    assert_eq!(schema.required, ["name"]);
    let PropertySchema::String(name) = schema.property("name").unwrap() else {
        panic!("name is a string")
    };
    assert_eq!(name.pattern.as_deref(), Some("^\\S"));
    let PropertySchema::Number(n) = schema.property("n").unwrap() else {
        panic!("n is a number")
    };
    assert!(n.integer);
    assert!(schema.is_required("name") && !schema.is_required("n"));
    // Annotations are dropped; `additionalProperties: false` is written back; the keyword
    // order of the input is kept.
    assert_eq!(
        serde_json::to_string(&schema).unwrap(),
        r#"{"type":"object","properties":{"name":{"type":"string","pattern":"^\\S"},"n":{"type":"integer","default":3.0,"minimum":0}},"required":["name"],"additionalProperties":false}"#
    );
    let open = RequestedSchema::parse(
        &json!({"type": "object", "properties": {}, "additionalProperties": true}),
    )
    .unwrap();
    assert!(!open.additional_properties_forbidden);
}

#[test]
fn parse_accepts_every_format_and_the_type_next_to_any_of() {
    for format in StringFormat::ALL {
        let schema = RequestedSchema::parse(
            &json!({"type": "object", "properties": {"x": {"type": "string", "format": format.as_str()}}}),
        )
        .unwrap();
        assert_eq!(
            schema.property("x"),
            Some(&PropertySchema::String(StringSchema {
                format: Some(format),
                ..Default::default()
            }))
        );
    }
    let schema = RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {"c": {"type": "array", "items": {"type": "string", "anyOf": [{"const": "a", "title": "A"}]}}}
    }))
    .unwrap();
    let Some(PropertySchema::MultiSelect(multi)) = schema.property("c") else {
        panic!("c is a multi select")
    };
    assert!(multi.options.is_titled());
    assert_eq!(multi.options.values().collect::<Vec<_>>(), ["a"]);
}

#[test]
fn parse_counts_lengths_in_code_points() {
    // "héllo" is 5 code points and 6 bytes.
    assert!(RequestedSchema::parse(&json!({
        "type": "object",
        "properties": {"x": {"type": "string", "maxLength": 5, "default": "héllo"}}
    }))
    .is_ok());
}

#[test]
fn parse_of_value_keeps_the_value_s_order_parse_str_the_text_s() {
    let text =
        r#"{"type":"object","properties":{"zeta":{"type":"boolean"},"alpha":{"type":"boolean"}}}"#;
    let names = |schema: &RequestedSchema| {
        schema
            .properties
            .iter()
            .map(|(name, _)| name.clone())
            .collect::<Vec<_>>()
    };
    let kept = RequestedSchema::parse_str(text).unwrap();
    assert_eq!(names(&kept), ["zeta", "alpha"]);
    let via_serde: RequestedSchema = serde_json::from_str(text).unwrap();
    assert_eq!(names(&via_serde), ["zeta", "alpha"]);
    // A `Value` sorts its members by name unless serde_json's `preserve_order` is on in the
    // build (the rmcp adapter's default feature turns it on): `parse` sees its order.
    let value: Value = serde_json::from_str(text).unwrap();
    let in_value: Vec<String> = value["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let from_value = RequestedSchema::parse(&value).unwrap();
    assert_eq!(names(&from_value), in_value);
}

// ---------------------------------------------------------------------------------------------
// Round trips.

fn everything() -> RequestedSchema {
    RequestedSchema {
        properties: vec![
            ("zname".into(), consistent_spec_string()),
            ("age".into(), spec_number()),
            ("ok".into(), spec_boolean()),
            ("color".into(), spec_single(false)),
            ("hex".into(), spec_single(true)),
            ("colors".into(), spec_multi(false)),
            ("hexes".into(), spec_multi(true)),
            (
                "big".into(),
                PropertySchema::Number(NumberSchema {
                    integer: true,
                    minimum: Some(Number::from(i64::MIN)),
                    maximum: Some(Number::from(u64::MAX)),
                    default: Some(Number::from(u64::MAX)),
                    ..Default::default()
                }),
            ),
            (
                "ratio".into(),
                PropertySchema::Number(NumberSchema {
                    minimum: Number::from_f64(-0.5),
                    maximum: Number::from_f64(0.75),
                    default: Number::from_f64(0.25),
                    ..Default::default()
                }),
            ),
            (
                "a/b~c".into(),
                PropertySchema::String(StringSchema {
                    title: s("Ünïcödé ✓"),
                    format: Some(StringFormat::DateTime),
                    ..Default::default()
                }),
            ),
        ],
        required: vec!["zname".into(), "hexes".into(), "a/b~c".into()],
        additional_properties_forbidden: true,
    }
}

#[test]
fn round_trip_through_text_keeps_everything() {
    let schema = everything();
    schema.check().unwrap();
    let text = serde_json::to_string(&schema).unwrap();
    let back = RequestedSchema::parse_str(&text).unwrap();
    assert_eq!(back, schema);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    let via_serde: RequestedSchema = serde_json::from_str(&text).unwrap();
    assert_eq!(via_serde, schema);
    assert_generated_types_agree(&text);
}

#[test]
fn round_trip_through_value_keeps_everything_but_property_order() {
    let schema = everything();
    let value = serde_json::to_value(&schema).unwrap();
    let mut back = RequestedSchema::parse(&value).unwrap();
    let mut expected = schema;
    back.properties.sort_by(|a, b| a.0.cmp(&b.0));
    expected.properties.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(back, expected);
}

#[test]
fn round_trip_of_each_spec_property_and_the_contact_form() {
    for (name, property, _) in spec_properties() {
        let schema = single(name, property);
        let text = serde_json::to_string(&schema).unwrap();
        assert_eq!(RequestedSchema::parse_str(&text).unwrap(), schema, "{name}");
        assert_eq!(
            RequestedSchema::parse(&serde_json::to_value(&schema).unwrap()).unwrap(),
            schema,
            "{name}"
        );
    }
    let contact = spec_contact();
    let text = serde_json::to_string(&contact).unwrap();
    let back = RequestedSchema::parse_str(&text).unwrap();
    assert_eq!(back, contact);
    assert_eq!(serde_json::to_string(&back).unwrap(), SPEC_CONTACT);
}

#[test]
fn parse_never_panics_on_odd_input() {
    let odd = [
        json!(null),
        json!("object"),
        json!({"type": "object", "properties": {"x": null}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": []}}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": {"anyOf": "a"}}}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": {"anyOf": [1]}}}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string", "enum": ["a"]}, "default": "a"}}}),
        json!({"type": "object", "properties": {"x": {"type": "string", "minLength": 1e300}}}),
        json!({"type": "object", "properties": {"x": {"type": "number", "minimum": "0"}}}),
        json!({"type": "object", "properties": {"x": {"type": "string", "oneOf": []}}}),
        json!({"type": "object", "properties": {"x": {"type": 7}}}),
        json!({"type": "object", "properties": {}, "required": "x"}),
        json!({"type": 1, "properties": {}}),
    ];
    for value in odd {
        let error = RequestedSchema::parse(&value).expect_err(&value.to_string());
        assert!(!error.message.is_empty());
    }
}

/// The form the official Python SDK 2.3.0 builds from a pydantic model (sent by its `MCPServer`
/// in `elicitation/create`, taken from its traffic): a `title` on every property and on the
/// form, `format` with `minLength`, a float default, an untyped multi-select title. It parses,
/// is consistent, and validates the answers its own client sends (floats included).
#[test]
fn python_sdk_pydantic_forms_parse_and_validate() {
    let text = r#"{"properties": {"name": {"minLength": 1, "title": "Name", "type": "string"}, "email": {"format": "email", "minLength": 5, "title": "Email", "type": "string"}, "homepage": {"format": "uri", "minLength": 8, "title": "Homepage", "type": "string"}, "birthday": {"format": "date", "title": "Birthday", "type": "string"}, "age": {"maximum": 150, "minimum": 0, "title": "Age", "type": "integer"}, "price": {"minimum": 0, "title": "Price", "type": "number"}, "amount": {"default": 2.5, "title": "Amount", "type": "number"}, "ratio": {"maximum": 1, "minimum": 0, "title": "Ratio", "type": "number"}, "subscribe": {"title": "Subscribe", "type": "boolean"}, "size": {"enum": ["small", "medium", "large"], "title": "Size", "type": "string"}, "toppings": {"items": {"enum": ["cheese", "ham", "olives"], "type": "string"}, "title": "Toppings", "type": "array"}, "nickname": {"title": "Nickname", "type": "string"}}, "required": ["name", "email", "homepage", "birthday", "age", "price", "ratio", "subscribe", "size", "toppings"], "title": "Profile", "type": "object"}"#;
    let schema = RequestedSchema::parse_str(text).expect("the Python SDK's form parses");
    assert_eq!(schema.problems(), []);
    assert_eq!(
        schema
            .properties
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>(),
        [
            "name",
            "email",
            "homepage",
            "birthday",
            "age",
            "price",
            "amount",
            "ratio",
            "subscribe",
            "size",
            "toppings",
            "nickname"
        ]
    );
    assert_eq!(
        schema.defaults(),
        *json!({"amount": 2.5}).as_object().unwrap()
    );
    let answer = json!({"name": "Ada", "email": "ada@example.com", "homepage": "https://example.com",
        "birthday": "2026-01-02", "age": 36, "price": 3.5, "amount": 2.5, "ratio": 0.5,
        "subscribe": true, "size": "small", "toppings": ["cheese"]});
    assert_eq!(schema.validate(answer.as_object().unwrap()), Ok(()));
    let wrong = json!({"name": "", "email": "ada", "homepage": "example.com", "birthday": "2026-02-30",
        "age": 3.5, "price": -1, "ratio": 1.5, "subscribe": "yes", "size": "huge", "toppings": ["ham", "ham"]});
    let errors = schema.validate(wrong.as_object().unwrap()).unwrap_err();
    let found: Vec<_> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer(), e.keyword().as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/name", "minLength"),
            ("/email", "minLength"),
            ("/email", "format"),
            ("/homepage", "format"),
            ("/birthday", "format"),
            ("/age", "type"),
            ("/price", "minimum"),
            ("/ratio", "maximum"),
            ("/subscribe", "type"),
            ("/size", "enum"),
        ]
    );
}

/// An inconsistent schema reports every problem, and its answers are validated with the usual
/// semantics: a required name without a property must be present, `min > max` accepts nothing,
/// a default that is not an option is never checked.
#[test]
fn inconsistent_schemas_validate_and_report_every_problem() {
    // Properties written sorted by name, the order of a `Value` in every build.
    let schema = RequestedSchema::parse(&json!({"type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 5, "maximum": 1},
            "size": {"type": "string", "enum": ["s", "m", "s"], "default": "xl"}
        },
        "required": ["size", "ghost"]}))
    .expect("parses");
    let problems: Vec<_> = schema.problems().into_iter().map(|p| p.pointer).collect();
    assert_eq!(
        problems,
        [
            "/properties/n/minimum",
            "/properties/size/enum/2",
            "/properties/size/default",
            "/required/1"
        ]
    );
    let valid = json!({"size": "m", "ghost": 1});
    assert_eq!(schema.validate(valid.as_object().unwrap()), Ok(()));
    let invalid = json!({"size": "xl", "n": 3});
    let errors = schema.validate(invalid.as_object().unwrap()).unwrap_err();
    let found: Vec<_> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer(), e.keyword().as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/n", "minimum"),
            ("/n", "maximum"),
            ("/size", "enum"),
            ("/ghost", "required")
        ]
    );
}
