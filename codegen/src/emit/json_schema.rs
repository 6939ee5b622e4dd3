//! `schemars::JsonSchema` for the generated types, behind a cargo feature.
//!
//! A type's JSON Schema is its own part of the official schema, so it accepts exactly what the
//! schema accepts, descriptions included. Two rewrites make it stand alone:
//! - a `$ref` to a definition becomes a `$ref` to the Rust type generated for it, written
//!   `"mcp:<Type>"` in the emitted text and resolved at run time with
//!   `SchemaGenerator::subschema_for`, so schemars places (and deduplicates) the definitions
//!   under its own settings; a definition that is only a type alias (`Cursor = String`) has no
//!   impl of its own and is inlined instead;
//! - an inline part that has a Rust type of its own (`CreateMessageRequestParamsIncludeContext`)
//!   becomes a reference to that type, so each piece of schema text is emitted once.
//!
//! The call sets (`ClientRequest`, …) and the envelopes (`ClientMessage`, …) do not encode as
//! their schema definitions do (a call set is `method` + `params`; an envelope adds `jsonrpc`
//! and `id`); their schemas are built from the model to match what they encode.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{json, Map, Value};

use super::ident;
use crate::ir::{CallKind, CallSet, DirectionModel, Messages, Module, TypeExpr, TypeKind};
use mcp_typed_json::pointer::escape;

/// The prefix of a reference to a generated type in the emitted schema text.
const MARKER: &str = "mcp:";

/// Keywords that identify a schema within its own document: dropped from the copies.
const IDENTIFIERS: &[&str] = &["$schema", "$id", "$anchor", "$dynamicAnchor"];

/// Keywords whose values are data, not schemas: never rewritten.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "default", "examples"];

/// The `json_schema!` invocation that implements `JsonSchema` for every type of the module,
/// behind `#[cfg(feature = "<feature>")]`.
pub(super) fn emit_json_schemas(module: &Module, root: &Value, feature: &str) -> TokenStream {
    let builder = Builder::new(module, root);
    let mut entries: Vec<(String, Value, BTreeSet<String>)> = Vec::new();
    for t in &module.types {
        let mut deps = BTreeSet::new();
        let schema = match &t.kind {
            TypeKind::Alias(_) => continue,
            TypeKind::Calls(set) => builder.calls(set, &mut deps),
            _ => builder.definition(&t.pointer, &mut deps),
        };
        entries.push((t.name.clone(), schema, deps));
    }
    if let Some(messages) = &module.messages {
        for d in &messages.directions {
            let mut deps = BTreeSet::new();
            let schema = builder.envelope(messages, d, &mut deps);
            entries.push((d.name.clone(), schema, deps));
        }
    }
    let entries = entries.into_iter().map(|(name, mut schema, deps)| {
        let name = ident(&name);
        // The schemas built here (`json!`) sorted like the loaded ones, whatever the build's
        // `preserve_order`.
        schema.sort_all_objects();
        let text = schema.to_string();
        let deps = deps.iter().map(|d| ident(d));
        quote!(#name = #text [#(#deps)*];)
    });
    let tool_schemas = module
        .types
        .iter()
        .filter(|t| is_tool_schema(&t.pointer) && matches!(t.kind, TypeKind::Struct(_)))
        .map(|t| {
            let name = ident(&t.name);
            quote! {
                #[cfg(feature = #feature)]
                impl #name {
                    /// The JSON Schema of `T` (its `schemars::JsonSchema`, with schemars'
                    /// default settings) as this schema of a tool; an error where it is not an
                    /// object schema.
                    pub fn for_type<T: __rt::schemars::JsonSchema>() -> ::core::result::Result<Self, __rt::serde_json::Error> {
                        __rt::serde_json::from_value(__rt::serde_json::to_value(__rt::schemars::schema_for!(T))?)
                    }
                }
            }
        });
    quote! {
        #[cfg(feature = #feature)]
        __rt::json_schema! {
            #(#entries)*
        }
        #(#tool_schemas)*
    }
}

/// Whether the type at `pointer` is a tool's input or output schema (`Tool.inputSchema`), which
/// a server writes from a Rust type.
fn is_tool_schema(pointer: &str) -> bool {
    [
        "/Tool/properties/inputSchema",
        "/Tool/properties/outputSchema",
    ]
    .iter()
    .any(|end| pointer.ends_with(end))
}

struct Builder<'a> {
    module: &'a Module,
    root: &'a Value,
    /// Rust type names by the pointer of the schema they come from, for every type with a
    /// `JsonSchema` impl (aliases have none).
    by_pointer: HashMap<&'a str, &'a str>,
}

impl<'a> Builder<'a> {
    fn new(module: &'a Module, root: &'a Value) -> Self {
        let by_pointer = module
            .types
            .iter()
            .filter(|t| !matches!(t.kind, TypeKind::Alias(_)))
            .map(|t| (t.pointer.as_str(), t.name.as_str()))
            .collect();
        Builder {
            module,
            root,
            by_pointer,
        }
    }

    /// The schema at `pointer` of the source, references rewritten.
    fn definition(&self, pointer: &str, deps: &mut BTreeSet<String>) -> Value {
        let mut schema = self
            .root
            .pointer(pointer)
            .cloned()
            .unwrap_or(Value::Bool(true));
        // The root type's schema is the root without the definitions beside it.
        if let (true, Value::Object(map)) = (pointer.is_empty(), &mut schema) {
            map.remove("$defs");
            map.remove("definitions");
        }
        self.rewrite(&mut schema, pointer, true, deps);
        schema
    }

    fn rewrite(&self, node: &mut Value, pointer: &str, top: bool, deps: &mut BTreeSet<String>) {
        if !top {
            if let Some(&name) = self.by_pointer.get(pointer) {
                *node = reference(name, deps);
                return;
            }
        }
        match node {
            Value::Object(map) => {
                // Identifiers (zod writes `$schema` and `$id` on every definition) would change
                // the base of references and the dialect inside schemars' document. Only
                // string values: a member named `$id` under `properties` holds a schema.
                for key in IDENTIFIERS {
                    if map.get(*key).is_some_and(Value::is_string) {
                        map.remove(*key);
                    }
                }
                for (key, child) in map.iter_mut() {
                    if !DATA_KEYWORDS.contains(&key.as_str()) && key != "$ref" {
                        let child_pointer = format!("{pointer}/{}", escape(key));
                        self.rewrite(child, &child_pointer, false, deps);
                    }
                }
                // After the children, so that an inlined alias is not walked twice.
                let Some(target) = map.get("$ref").and_then(Value::as_str) else {
                    return;
                };
                // `#/definitions/X` or `#/$defs/X` → the pointer `/definitions/X`.
                let target = target.strip_prefix('#').unwrap_or(target).to_owned();
                if let Some(&name) = self.by_pointer.get(target.as_str()) {
                    map.insert("$ref".into(), Value::String(format!("{MARKER}{name}")));
                    deps.insert(name.to_owned());
                    return;
                }
                let inlined = self.definition(&target, deps);
                map.remove("$ref");
                if map.is_empty() {
                    *node = inlined;
                } else if let Some(Value::Array(all)) = map.get_mut("allOf") {
                    all.push(inlined);
                } else {
                    // Under `allOf`, the keywords beside the reference keep their meaning.
                    map.insert("allOf".into(), Value::Array(vec![inlined]));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.rewrite(item, &format!("{pointer}/{i}"), false, deps);
                }
            }
            _ => {}
        }
    }

    /// The schema of a type expression of the model.
    fn expr(&self, ty: &TypeExpr, deps: &mut BTreeSet<String>) -> Value {
        match ty {
            TypeExpr::String => json!({"type": "string"}),
            TypeExpr::Integer => json!({"type": "integer"}),
            TypeExpr::Number => json!({"type": "number"}),
            TypeExpr::Boolean => json!({"type": "boolean"}),
            TypeExpr::Any => json!({}),
            TypeExpr::Array(item) => json!({"type": "array", "items": self.expr(item, deps)}),
            TypeExpr::Map(value) if **value == TypeExpr::Any => json!({"type": "object"}),
            TypeExpr::Map(value) => {
                json!({"type": "object", "additionalProperties": self.expr(value, deps)})
            }
            TypeExpr::Nullable(inner) => {
                json!({"anyOf": [self.expr(inner, deps), {"type": "null"}]})
            }
            TypeExpr::Named(name) => match self.module.get(name) {
                Some(t) if matches!(t.kind, TypeKind::Alias(_)) => {
                    self.definition(&t.pointer, deps)
                }
                _ => reference(name, deps),
            },
        }
    }

    /// A call set encodes as `method` + `params`: one object shape per method.
    fn calls(&self, set: &CallSet, deps: &mut BTreeSet<String>) -> Value {
        let shapes: Vec<Value> = set
            .calls
            .iter()
            .map(|call| {
                let mut properties = Map::new();
                properties.insert("method".into(), json!({"const": call.method}));
                let mut required = vec![json!("method")];
                if let Some(params) = &call.params {
                    properties.insert("params".into(), self.expr(params, deps));
                    if call.params_required {
                        required.push(json!("params"));
                    }
                }
                json!({"type": "object", "properties": properties, "required": required})
            })
            .collect();
        let what = match set.kind {
            CallKind::Request => "request",
            CallKind::Notification => "notification",
        };
        json!({
            "description": format!("A {what}: its `method` and `params`."),
            "anyOf": shapes,
        })
    }

    /// A JSON-RPC message of one side, as the JSON-RPC codec (`__private::codec::serialize`) writes it.
    fn envelope(&self, m: &Messages, d: &DirectionModel, deps: &mut BTreeSet<String>) -> Value {
        let version = json!({"const": "2.0"});
        let mut calls = Vec::new();
        let mut responses = Vec::new();
        if let Some(requests) = &d.requests {
            calls.push(json!({"allOf": [
                {
                    "type": "object",
                    "properties": {"jsonrpc": version, "id": self.expr(&m.id, deps)},
                    "required": ["jsonrpc", "id"],
                },
                reference(requests, deps),
            ]}));
        }
        if let Some(notifications) = &d.notifications {
            calls.push(json!({"allOf": [
                {
                    "type": "object",
                    "properties": {"jsonrpc": version},
                    "required": ["jsonrpc"],
                    "not": {"required": ["id"]},
                },
                reference(notifications, deps),
            ]}));
        }
        if d.responds {
            responses.push(json!({
                "type": "object",
                "properties": {
                    "jsonrpc": version,
                    "id": self.expr(&m.id, deps),
                    "result": self.expr(&d.results, deps),
                },
                "required": ["jsonrpc", "id", "result"],
            }));
            responses.push(json!({
                "type": "object",
                "properties": {
                    "jsonrpc": version,
                    "id": {"anyOf": [self.expr(&m.id, deps), {"type": "null"}]},
                    "error": self.expr(&m.error, deps),
                },
                "required": ["jsonrpc", "error"],
            }));
        }
        let mut shapes: Vec<Value> = calls.iter().chain(&responses).cloned().collect();
        if m.batches {
            for members in [&calls, &responses] {
                if !members.is_empty() {
                    shapes.push(json!({
                        "type": "array",
                        "minItems": 1,
                        "items": {"anyOf": members},
                    }));
                }
            }
        }
        json!({
            "description": format!("Every message a {} sends (JSON-RPC 2.0).", d.side.to_lowercase()),
            "anyOf": shapes,
        })
    }
}

/// `{"$ref": "mcp:<name>"}`, recording the dependency.
fn reference(name: &str, deps: &mut BTreeSet<String>) -> Value {
    deps.insert(name.to_owned());
    json!({"$ref": format!("{MARKER}{name}")})
}
