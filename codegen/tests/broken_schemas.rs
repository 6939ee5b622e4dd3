//! Schemas the generator cannot turn into Rust are refused with the JSON pointer of the
//! offending part and what was expected; nothing panics.

use mcp_codegen::{load_schema, SchemaError};
use serde_json::{json, Value};

mod support;
use support::{escape, mirror};

fn load(defs: Value) -> Result<mcp_codegen::ir::Module, SchemaError> {
    let root = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs});
    load_schema(&root)
}

fn assert_error(
    result: Result<mcp_codegen::ir::Module, SchemaError>,
    pointer: &str,
    message_part: &str,
) {
    let error = result.expect_err("the schema must be refused");
    assert_eq!(error.pointer, pointer, "pointer of: {error}");
    assert!(
        error.message.contains(message_part),
        "message `{}` should mention `{message_part}`",
        error.message
    );
}

#[test]
fn dangling_ref() {
    assert_error(
        load(json!({"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/Missing"}}}})),
        "/$defs/A/properties/b/$ref",
        "dangling reference",
    );
}

#[test]
fn unknown_type() {
    assert_error(
        load(json!({"A": {"type": "strnig"}})),
        "/$defs/A/type",
        "unknown type `strnig`",
    );
}

#[test]
fn ref_cycle_through_aliases() {
    let error =
        load(json!({"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}})).expect_err("cycle");
    assert!(
        error.pointer == "/$defs/A" || error.pointer == "/$defs/B",
        "{error}"
    );
    assert!(error.message.contains("cycle"), "{error}");
}

#[test]
fn non_object_root() {
    let error = load_schema(&json!([1, 2])).expect_err("array root");
    assert_eq!(error.pointer, "");
    assert!(error.message.contains("root must be an object"), "{error}");
    let error = load_schema(&json!("schema")).expect_err("string root");
    assert_eq!(error.pointer, "");
}

#[test]
fn unsupported_keyword() {
    assert_error(
        load(json!({"A": {"type": "object", "patternPropertys": {"^x": {}}}})),
        "/$defs/A/patternPropertys",
        "unsupported keyword `patternPropertys`",
    );
}

#[test]
fn duplicate_type_names_after_renaming() {
    assert_error(
        load(json!({"URLThing": {"type": "string"}, "UrlThing": {"type": "integer"}})),
        "/$defs/UrlThing",
        "duplicate Rust type name `UrlThing`",
    );
}

#[test]
fn inline_name_colliding_with_a_definition() {
    let defs = json!({
        "Tool": {"type": "object", "properties": {"annotations": {"type": "object", "properties": {"x": {"type": "string"}}}}},
        "ToolAnnotations": {"type": "string"}
    });
    assert_error(
        load(defs),
        "/$defs/Tool/properties/annotations",
        "duplicate Rust type name `ToolAnnotations`",
    );
}

#[test]
fn duplicate_field_names_after_renaming() {
    let defs = json!({"A": {"type": "object", "properties": {"mimeType": {"type": "string"}, "mime_type": {"type": "string"}}}});
    assert_error(
        load(defs),
        "/$defs/A/properties/mime_type",
        "both become Rust field `mime_type`",
    );
}

#[test]
fn required_names_a_missing_member() {
    assert_error(
        load(
            json!({"A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}}),
        ),
        "/$defs/A/required/1",
        "`b`, which is not in `properties`",
    );
}

#[test]
fn non_string_enum() {
    assert_error(
        load(json!({"A": {"enum": ["a", 2]}})),
        "/$defs/A/enum/1",
        "only string enum values",
    );
}

#[test]
fn object_const() {
    assert_error(
        load(
            json!({"A": {"type": "object", "properties": {"k": {"const": {"x": 1}}}, "required": ["k"]}}),
        ),
        "/$defs/A/properties/k/const",
        "unsupported `const`",
    );
}

#[test]
fn fractional_const() {
    assert_error(
        load(
            json!({"A": {"type": "object", "properties": {"k": {"const": 1.5}}, "required": ["k"]}}),
        ),
        "/$defs/A/properties/k/const",
        "only integer numeric constants",
    );
}

#[test]
fn const_of_the_wrong_declared_type() {
    assert_error(
        load(
            json!({"A": {"type": "object", "properties": {"k": {"type": "integer", "const": "x"}}, "required": ["k"]}}),
        ),
        "/$defs/A/properties/k/type",
        "does not have the declared type",
    );
}

#[test]
fn false_schema() {
    assert_error(
        // (An optional member no value satisfies is one the object must not have: no field.)
        load(
            json!({"A": {"type": "object", "properties": {"never": false}, "required": ["never"]}}),
        ),
        "/$defs/A/properties/never",
        "a required member that no value satisfies",
    );
}

#[test]
fn external_ref() {
    assert_error(
        load(json!({"A": {"$ref": "https://example.com/schema.json#/X"}})),
        "/$defs/A/$ref",
        "unsupported reference",
    );
}

#[test]
fn all_of_member_that_is_not_an_object() {
    assert_error(
        // (An `allOf` of one member is that member, whatever its type.)
        load(json!({"A": {"allOf": [{"type": "object"}, {"type": "string"}]}})),
        "/$defs/A/allOf/1/type",
        "object schema",
    );
}

#[test]
fn all_of_members_that_disagree() {
    let defs = json!({"A": {"allOf": [
        {"type": "object", "properties": {"x": {"type": "string"}}},
        {"type": "object", "properties": {"x": {"type": "integer"}}}
    ]}});
    assert_error(
        load(defs),
        "/$defs/A/allOf/1/properties/x",
        "disagree on member `x`",
    );
}

#[test]
fn object_in_a_type_list() {
    assert_error(
        load(json!({"A": {"type": ["object", "string"]}})),
        "/$defs/A/type/0",
        "`object` in a list of types",
    );
}

#[test]
fn missing_definitions() {
    let error = load_schema(&json!({"$schema": "https://json-schema.org/draft/2020-12/schema"}))
        .expect_err("no $defs");
    assert_eq!(error.pointer, "");
    assert!(error.message.contains("no `$defs`"), "{error}");
}

#[test]
fn unsupported_dialect() {
    let error = load_schema(
        &json!({"$schema": "http://json-schema.org/draft-04/schema#", "definitions": {}}),
    )
    .expect_err("draft-04");
    assert_eq!(error.pointer, "/$schema");
}

#[test]
fn wrong_shapes_of_keywords() {
    assert_error(
        load(json!({"A": {"type": "object", "properties": []}})),
        "/$defs/A/properties",
        "`properties` must be an object",
    );
    assert_error(
        load(json!({"A": {"anyOf": {}}})),
        "/$defs/A/anyOf",
        "must be an array",
    );
    assert_error(
        load(json!({"A": {"type": 5}})),
        "/$defs/A/type",
        "a string or a list of strings",
    );
    assert_error(load(json!({"A": 7})), "/$defs/A", "expected a schema");
}

/// Replaces nodes of a real schema (the pinned official 2025-06-18, fetched and checked like the
/// other tests' schemas) with junk, everywhere (at a stride, to stay fast), and loads each
/// result: every outcome must be a value or an error, never a panic.
#[test]
fn junk_anywhere_in_a_real_schema_never_panics() {
    let path = mirror().join("2025-06-18/schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let original: Value = serde_json::from_str(&text).expect("json");
    // The unmutated schema loads: the refusals below are the junk's.
    load_schema(&original).expect("the official schema loads");
    let mut pointers = Vec::new();
    collect_pointers(&original, String::new(), &mut pointers);
    let junk = [
        Value::Null,
        json!(1.5),
        json!("x"),
        json!([]),
        json!({"type": 5}),
        json!({"$ref": "#/definitions/Nope"}),
        json!(false),
    ];
    let mut refused = 0;
    for (i, pointer) in pointers.iter().enumerate().step_by(5) {
        let mut mutated = original.clone();
        *mutated.pointer_mut(pointer).expect("pointer exists") = junk[i % junk.len()].clone();
        let result = std::panic::catch_unwind(|| load_schema(&mutated));
        match result {
            Ok(Err(_)) => refused += 1,
            Ok(Ok(_)) => {}
            Err(_) => panic!("load panicked after replacing {pointer}"),
        }
    }
    assert!(
        refused > 100,
        "most junk must be refused, only {refused} were"
    );
}

fn collect_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", escape(k));
                out.push(p.clone());
                collect_pointers(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                collect_pointers(v, p, out);
            }
        }
        _ => {}
    }
}
