//! Loading a schema file into the [`ir`](crate::ir): both JSON Schema dialects, `$ref`
//! resolution, `allOf` merging, nullable forms, and deterministic names for inline types.
//!
//! Every keyword is turned into the type, accepted as an annotation, carried into the rustdoc
//! as a validation keyword the types do not enforce, or refused with the JSON pointer of the
//! schema that uses it and the reason (see [`keywords`]). Nothing is skipped silently and
//! nothing panics. Besides the official MCP schemas, it reads what common tools write: zod,
//! typescript-json-schema, schemars and pydantic (`$schema`/`$id` on every definition, a root
//! that is itself a type, `type: [T, "null"]`, `anyOf: [T, {type: null}]`, enums written as
//! `anyOf` of constants, `$ref` with sibling keywords, `allOf` of one `$ref`).
//!
//! [`load`] builds a type for each definition with the `Loader` (`loader`: its state and the
//! dispatch from a schema to a kind; `normalize`, `merge`, `structs`, `unions`, `enums`, `exprs`:
//! the kinds), then runs the passes over the whole module (`crate::ir::passes`).

mod enums;
pub mod errata;
mod exprs;
mod hoist;
pub mod keywords;
mod loader;
mod merge;
mod normalize;
mod structs;
mod supply;
mod unions;

use std::collections::HashMap;

use serde_json::{Map, Value};

pub use self::hoist::hoist_nested_definitions;
use self::keywords::STRUCTURAL;
use self::loader::Loader;
pub use self::supply::supply_request_id;
use self::unions::is_primitive;
use crate::ir::{Module, TypeDef, TypeExpr, TypeKind};
use crate::naming;
use crate::revisions::Dialect;
use crate::settings::Settings;
use mcp_typed_json::json_kind;
use mcp_typed_json::pointer::escape;

pub(crate) use crate::naming::check_identifier;
pub(crate) use crate::schema_error::err;
pub use crate::schema_error::SchemaError;

/// Detects the dialect from the root's `$schema`; without one (pydantic writes none), from
/// where the definitions are, else 2020-12 for a root that is itself a schema.
pub fn detect_dialect(root: &Value) -> Result<Dialect, SchemaError> {
    let Some(root) = root.as_object() else {
        return err("", "the schema root must be an object");
    };
    match root.get("$schema").and_then(Value::as_str) {
        Some(s) if s.contains("draft-07") => Ok(Dialect::Draft07),
        // 2019-09 keeps its definitions under `$defs` too; its `$recursiveRef` is refused.
        Some(s) if s.contains("2020-12") || s.contains("2019-09") => Ok(Dialect::Draft2020_12),
        Some(s) => err(
            "/$schema",
            format!("unsupported JSON Schema dialect `{s}` (expected draft-07 or 2020-12)"),
        ),
        None if root.contains_key("$defs") => Ok(Dialect::Draft2020_12),
        None if root.contains_key("definitions") => Ok(Dialect::Draft07),
        None if root.keys().any(|k| STRUCTURAL.contains(&k.as_str())) => Ok(Dialect::Draft2020_12),
        None => err(
            "",
            "no `$schema`, `$defs` or `definitions`, and the root is not a schema of a type: \
             nothing to generate",
        ),
    }
}

/// Loads a whole schema into a [`Module`]: a type for each definition, and one for the root when
/// the root is itself the schema of a type (schemars, pydantic and zod write a type so, its
/// definitions beside it), named after its `title` (else `Root`).
pub(crate) fn load(
    root: &Value,
    dialect: Dialect,
    settings: &Settings,
) -> Result<Module, SchemaError> {
    let Some(root_obj) = root.as_object() else {
        return err(
            "",
            format!(
                "the schema root must be an object, found {}",
                json_kind(root)
            ),
        );
    };
    let defs_key = definitions_key(root_obj, dialect)?;
    let empty = Map::new();
    let defs = match root_obj.get(defs_key) {
        None => &empty,
        Some(Value::Object(defs)) => defs,
        Some(_) => return err(&format!("/{defs_key}"), "definitions must be an object"),
    };
    // The root without its definitions: the schema of the root type, if it is one. A root that
    // only refers to a definition (typescript-json-schema's `"$ref": "#/definitions/Main"`)
    // names no type of its own.
    let root_schema: Map<String, Value> = root_obj
        .iter()
        .filter(|(k, _)| *k != defs_key)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let structural: Vec<&str> = root_schema
        .keys()
        .map(String::as_str)
        .filter(|k| STRUCTURAL.contains(k))
        .collect();
    let root_is_type = !structural.is_empty() && structural != ["$ref"];
    if !root_is_type && defs.is_empty() {
        return err(
            "",
            format!("no `{defs_key}` and the root is not a schema of a type: nothing to generate"),
        );
    }
    let root_name = root_is_type.then(|| match root_obj.get("title").and_then(Value::as_str) {
        Some(title) => naming::type_name(title),
        None => "Root".to_owned(),
    });
    let root_value = Value::Object(root_schema);
    // TypeScript-generated schemas sometimes repeat a definition as a union member (2025-03-26
    // spells out JSONRPCBatchRequest inside JSONRPCMessage): such a copy names the definition.
    let defs_by_shape = defs
        .iter()
        .filter(|(_, schema)| !is_primitive(schema))
        .map(|(name, schema)| (schema.to_string(), name.as_str()))
        .collect();
    let mut loader = Loader {
        defs,
        defs_key,
        root: &root_value,
        root_name: root_name.clone(),
        defs_by_shape,
        names: HashMap::new(),
        types: Vec::new(),
        settings,
    };
    // Reserve every definition's name first, so inline names can never take one.
    for name in defs.keys() {
        let rust = naming::type_name(name);
        loader.claim(&rust, &format!("/{defs_key}/{}", escape(name)))?;
    }
    let mut entries: Vec<(String, &Value, String, String)> = Vec::new();
    if let Some(rust) = &root_name {
        loader.claim(rust, "")?;
        let schema_name = root_obj
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("Root")
            .to_owned();
        entries.push((schema_name, &root_value, String::new(), rust.clone()));
    } else if let Some(reference) = root_obj.get("$ref") {
        // Nothing is generated for it, but a dangling reference is still an error.
        loader.check_keywords(root_obj, "")?;
        loader.resolve_ref(reference, "")?;
    } else {
        loader.check_root_keywords(root_obj, defs_key)?;
    }
    for (name, schema) in defs {
        let pointer = format!("/{defs_key}/{}", escape(name));
        entries.push((name.clone(), schema, pointer, naming::type_name(name)));
    }
    for (name, schema, pointer, rust) in entries {
        let index = loader.types.len();
        loader.types.push(TypeDef {
            name: rust.clone(),
            schema_name: Some(name),
            pointer: pointer.clone(),
            doc: None,
            errata: Vec::new(),
            constraints: Vec::new(),
            kind: TypeKind::Alias(TypeExpr::Any),
        });
        let (doc, kind) = loader.definition(schema, &pointer, &rust)?;
        loader.types[index].doc = doc;
        loader.types[index].kind = kind;
    }
    // The constraint keywords each type's own schema states, for `validate()`.
    for t in &mut loader.types {
        if let Some(schema) = root.pointer(&t.pointer).and_then(Value::as_object) {
            t.constraints = keywords::constraints(schema);
        }
    }
    let mut module = Module {
        types: loader.types,
        messages: None,
        extension_requests: Vec::new(),
    };
    crate::ir::passes::run(&mut module, settings)?;
    Ok(module)
}

/// Where the definitions are. Tools do not always keep to their dialect's key (pydantic writes
/// `$defs` without a `$schema`; zod and schemars can target draft-07 with either): the one
/// present, else the dialect's.
fn definitions_key(
    root_obj: &Map<String, Value>,
    dialect: Dialect,
) -> Result<&'static str, SchemaError> {
    match (
        root_obj.contains_key("$defs"),
        root_obj.contains_key("definitions"),
    ) {
        (true, true) => err(
            "/definitions",
            "both `$defs` and `definitions`: keep every definition under one of them",
        ),
        (true, false) => Ok("$defs"),
        (false, true) => Ok("definitions"),
        (false, false) => Ok(dialect.definitions_key()),
    }
}
