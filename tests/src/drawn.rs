//! Values drawn from every type a generator run made, from the type's own JSON Schema
//! (`schemars`, what `mcp_typed::valid` draws from), each held against the schema the types were
//! generated from and sent through a round trip. One loop for the official revisions
//! (tests/json_schema.rs) and a user's build step on third-party schemas
//! (tests/build-step/tests/drawn.rs).

use serde_json::Value;

/// The definitions of a schema: the key they sit under (`$defs` or `definitions`) and their
/// names.
pub fn definitions(root: &Value) -> (&'static str, Vec<String>) {
    for key in ["$defs", "definitions"] {
        if let Some(defs) = root.get(key).and_then(Value::as_object) {
            return (key, defs.keys().cloned().collect());
        }
    }
    panic!("no definitions in the schema")
}

/// `format` asserted whatever the dialect: by default the `jsonschema` crate asserts it under
/// draft-07 (the older official schemas) and not under 2020-12 (what schemars writes).
pub fn compile(
    schema: &Value,
) -> Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
}

/// A validator of the definition `name` of `root` (under `key`): the whole schema with a root
/// `$ref`.
pub fn definition_validator(root: &Value, key: &str, name: &str) -> jsonschema::Validator {
    let mut root = root.clone();
    root.as_object_mut()
        .expect("object")
        .insert("$ref".into(), Value::from(format!("#/{key}/{name}")));
    compile(&root).expect("the schema compiles")
}

/// What [`draw_every_type`] found.
#[derive(Debug, Default)]
pub struct Drawn {
    /// The definitions with a generated type.
    pub types: usize,
    /// The values drawn.
    pub values: usize,
    /// Values the types refused that the caller excused (see [`draw_every_type`]).
    pub excused: usize,
    /// What went wrong, a line each: a type whose schema draws nothing, a value the source
    /// schema refuses, or one that does not come back the same.
    pub failures: Vec<String>,
}

/// For each definition of `root` that `schema_of` (the generated `__json_schema`) has a type
/// for, `draws` values drawn from that type's schema: each must be accepted by the definition
/// in `root` and come back the same (numbers by value) from `round_trip` (the generated
/// `__roundtrip`). A value the types refuse that `excused` accepts is counted, not failed.
pub fn draw_every_type(
    what: &str,
    root: &Value,
    draws: u64,
    schema_of: impl Fn(&str) -> Option<Value>,
    round_trip: impl Fn(&str, &str) -> Option<Result<Value, serde_json::Error>>,
    excused: impl Fn(&Value) -> bool,
) -> Drawn {
    let mut drawn = Drawn::default();
    let (key, names) = definitions(root);
    for name in &names {
        let Some(schema) = schema_of(name) else {
            continue;
        };
        drawn.types += 1;
        let source = definition_validator(root, key, name);
        for seed in 0..draws {
            let value = match mcp_typed_json::values::Values::new(&schema, seed).of(&schema) {
                Ok(value) => value,
                Err(unsupported) => {
                    drawn.failures.push(format!("{what} {name}: {unsupported}"));
                    break;
                }
            };
            drawn.values += 1;
            if !source.is_valid(&value) {
                (drawn.failures).push(format!("{what} {name}: the schema refuses {value}"));
                continue;
            }
            match round_trip(name, &value.to_string()) {
                Some(Ok(back)) if crate::same_json(&back, &value) => {}
                Some(Err(_)) if excused(&value) => drawn.excused += 1,
                other => (drawn.failures).push(format!("{what} {name}: {value} -> {other:?}")),
            }
        }
    }
    drawn
}
