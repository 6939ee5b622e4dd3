//! Extension schemas (`mcp-check --extension FILE`): the methods an extension adds to MCP (MCP
//! Apps' `ui/*`, a vendor's), checked against the JSON Schema the extension publishes, where
//! a revision's generated types know only their envelope.
//!
//! Each definition (`$defs` or `definitions`) whose `method` member is a constant is that
//! method's message: a request, or a notification when its name says so. A request's result
//! is the definition named as the request with `Result` for `Request` (MCP's own naming:
//! `McpUiOpenLinkRequest` answers with `McpUiOpenLinkResult`). A definition that declares no
//! `jsonrpc` member is the message without its JSON-RPC envelope (`method` and `params`: the
//! envelope is the revision's to check), so it is validated without `jsonrpc` and `id`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::revision::Violation;

/// The methods of the extension schemas given, each with its validators.
#[derive(Debug, Default)]
pub struct Extensions {
    methods: HashMap<String, Method>,
}

/// One method of an extension.
#[derive(Debug)]
struct Method {
    /// Where it is defined (`FILE#/$defs/NAME`), for the reports.
    source: String,
    /// Its message, and whether the definition holds the JSON-RPC envelope too.
    message: jsonschema::Validator,
    with_envelope: bool,
    /// Its result, when the schema defines one.
    result: Option<jsonschema::Validator>,
}

impl Extensions {
    /// Reads the extension schema `schema` (named `source` in the reports): every definition of
    /// a constant `method`. Returns how many methods it defines; a schema that defines none, a
    /// method defined twice (here or by an extension given before), or a definition that does
    /// not compile as a JSON Schema is refused, with the reason.
    pub fn add(&mut self, schema: &Value, source: &str) -> Result<usize, String> {
        let (keyword, definitions) = ["$defs", "definitions"]
            .into_iter()
            .find_map(|k| Some((k, schema.get(k)?.as_object()?)))
            .ok_or_else(|| format!("{source}: no `$defs` or `definitions`"))?;
        let mut added = 0;
        for (name, definition) in definitions {
            let Some(method) = definition.pointer("/properties/method/const") else {
                continue;
            };
            let method = method
                .as_str()
                .ok_or_else(|| format!("{source}#/{keyword}/{name}: `method` is no string"))?;
            let at = format!("{source}#/{keyword}/{name}");
            if let Some(known) = self.methods.get(method) {
                return Err(format!(
                    "{at}: `{method}` is defined already, at {}",
                    known.source
                ));
            }
            let result = result_definition(name)
                .filter(|result| definitions.contains_key(result))
                .map(|result| validator(schema, keyword, &result, source))
                .transpose()?;
            let method_entry = Method {
                message: validator(schema, keyword, name, source)?,
                with_envelope: definition.pointer("/properties/jsonrpc").is_some(),
                result,
                source: at,
            };
            self.methods.insert(method.to_owned(), method_entry);
            added += 1;
        }
        if added == 0 {
            return Err(format!(
                "{source}: no definition with a constant `method` (an extension's messages)"
            ));
        }
        Ok(added)
    }

    /// Whether an extension defines `method`.
    pub fn defines(&self, method: &str) -> bool {
        self.methods.contains_key(method)
    }

    /// What the message `text` of `method` breaks in its extension's schema; `None` when no
    /// extension defines `method`.
    pub fn check_message(&self, method: &str, text: &str) -> Option<Vec<Violation>> {
        let method = self.methods.get(method)?;
        let Ok(mut message) = serde_json::from_str::<Map<String, Value>>(text) else {
            // Not an object: the envelope's check says so.
            return Some(Vec::new());
        };
        if !method.with_envelope {
            message.remove("jsonrpc");
            message.remove("id");
        }
        Some(violations(&method.message, &Value::Object(message), ""))
    }

    /// What the result `text` (a response's `result` member) of a request of `method` breaks
    /// in its extension's schema; `None` when no extension defines a result for `method`.
    pub fn check_result(&self, method: &str, result: &str) -> Option<Vec<Violation>> {
        let validator = self.methods.get(method)?.result.as_ref()?;
        let Ok(result) = serde_json::from_str::<Value>(result) else {
            return Some(Vec::new());
        };
        Some(violations(validator, &result, "/result"))
    }
}

/// The name of the definition of the result of the request defined as `request`, by MCP's
/// naming (`CallToolRequest` answers with `CallToolResult`); `None` for a name that is no
/// request's.
pub fn result_definition(request: &str) -> Option<String> {
    let stem = request.strip_suffix("Request")?;
    Some(format!("{stem}Result"))
}

/// A validator of the definition `name` under `keyword` of `schema`: the schema itself, its
/// root pointing at the definition, so that its `$ref`s resolve as written; else, for a
/// definition written as a schema of its own (zod's export: its own `$defs`, which its `$ref`s
/// name from `#`), the definition alone.
fn validator(
    schema: &Value,
    keyword: &str,
    name: &str,
    source: &str,
) -> Result<jsonschema::Validator, String> {
    let mut root = Map::new();
    for member in ["$schema", "$id", keyword] {
        if let Some(value) = schema.get(member) {
            root.insert(member.to_owned(), value.clone());
        }
    }
    let pointer = format!("#/{keyword}/{}", mcp_typed::json_pointer::escape(name));
    root.insert("$ref".to_owned(), Value::from(pointer));
    jsonschema::validator_for(&Value::Object(root)).or_else(|in_document| {
        let mut alone = schema[keyword][name].clone();
        if let (Some(alone), Some(dialect)) = (alone.as_object_mut(), schema.get("$schema")) {
            alone.entry("$schema").or_insert_with(|| dialect.clone());
        }
        jsonschema::validator_for(&alone).map_err(|_| {
            format!("{source}#/{keyword}/{name}: not a schema this checker reads: {in_document}")
        })
    })
}

/// The violations of `instance` against `validator`, their pointers under `prefix`.
fn violations(validator: &jsonschema::Validator, instance: &Value, prefix: &str) -> Vec<Violation> {
    (validator.iter_errors(instance))
        .map(|error| Violation {
            pointer: format!("{prefix}{}", error.instance_path().as_str()),
            keyword: error.kind().keyword().to_owned(),
            expected: error.to_string(),
        })
        .collect()
}
