//! Runtime of the generated `schemars::JsonSchema` impls (feature `schemars`).
//!
//! Each generated type carries its part of the official schema as JSON text, in which a
//! reference to another generated type is written `{"$ref": "mcp:<Type>"}`. [`from_source`]
//! parses the text and replaces each such reference with what `SchemaGenerator::subschema_for`
//! returns, so the generator's settings decide where the definitions go (`$defs` or
//! `definitions`) and whether they are inlined.
//!
//! Runtime: the generated code calls the `__json_schema!` macro below (as `__rt::json_schema!`),
//! whose expansion calls this module as `__private::json_schema_impls`; the crate root keeps a
//! hidden `mcp_typed::json_schema_impls` re-export, the path it had before it moved here.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

/// How a referenced type's schema is obtained: `subschema_for::<T>`.
pub type Subschema = fn(&mut SchemaGenerator) -> Schema;

/// [`SchemaGenerator::subschema_for`] as a function pointer.
pub fn subschema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// The schema of a generated type, from its JSON text and the types it references.
pub fn from_source(
    generator: &mut SchemaGenerator,
    source: &str,
    references: &[(&str, Subschema)],
) -> Schema {
    // The text is written by mcp-codegen with serde_json, and the tests build the schema of
    // every type of every revision: a failure here is a generator bug, not bad input.
    let mut schema: Value =
        serde_json::from_str(source).expect("mcp-codegen emits JSON Schema text that parses");
    resolve(&mut schema, generator, references);
    Schema::try_from(schema).expect("mcp-codegen emits a schema object")
}

fn resolve(node: &mut Value, generator: &mut SchemaGenerator, references: &[(&str, Subschema)]) {
    match node {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("mcp:"))
            {
                let subschema = references
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, subschema)| subschema(generator))
                    .expect("mcp-codegen lists every type a schema references");
                place(map, subschema.to_value());
                if map.len() == 1 {
                    if let Some(inlined) = map.remove("allOf").and_then(single) {
                        *node = inlined;
                    }
                }
                return;
            }
            for (key, child) in map.iter_mut() {
                if !matches!(key.as_str(), "const" | "enum" | "default" | "examples") {
                    resolve(child, generator, references);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                resolve(item, generator, references);
            }
        }
        _ => {}
    }
}

/// Puts a referenced type's schema where the marker was: a reference replaces the marker; an
/// inlined schema (settings with `inline_subschemas`, or a type that is always inlined) goes under
/// `allOf`, beside the keywords that accompanied the marker.
fn place(map: &mut Map<String, Value>, subschema: Value) {
    map.remove("$ref");
    match subschema {
        Value::Object(mut sub) if sub.len() == 1 && sub.contains_key("$ref") => {
            map.insert("$ref".into(), sub.remove("$ref").unwrap_or_default());
        }
        other => match map.get_mut("allOf") {
            Some(Value::Array(all)) => all.push(other),
            _ => {
                map.insert("allOf".into(), Value::Array(vec![other]));
            }
        },
    }
}

fn single(value: Value) -> Option<Value> {
    match value {
        Value::Array(mut items) if items.len() == 1 => items.pop(),
        _ => None,
    }
}

/// Implements `JsonSchema` for generated types: `Type = "<schema text>" [ReferencedType ...];`.
/// The schema id is qualified by the module, so the same definition of two revisions gets two
/// entries in one generator (schemars numbers the second name: `Tool2`).
#[doc(hidden)]
#[macro_export]
macro_rules! __json_schema {
    ($($ty:ident = $source:literal [$($referenced:ident)*];)*) => {$(
        impl $crate::__private::schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::stringify!($ty))
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::concat!(
                    ::core::module_path!(),
                    "::",
                    ::core::stringify!($ty)
                ))
            }
            fn json_schema(
                generator: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::json_schema_impls::from_source(generator, $source, &[$((
                    ::core::stringify!($referenced),
                    $crate::__private::json_schema_impls::subschema::<$referenced>
                        as $crate::__private::json_schema_impls::Subschema,
                ),)*])
            }
        }
    )*};
}
