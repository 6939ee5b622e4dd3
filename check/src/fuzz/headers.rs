//! The headers a 2026-07-28 request carries over Streamable HTTP beside its body (SEP-2243),
//! which servers check against it: `Mcp-Method` and `Mcp-Name` on every request, and on a
//! `tools/call` an `Mcp-Param-{NAME}` for each argument the tool's input schema marks with
//! `x-mcp-header: NAME`.
//!
//! A value that cannot travel as a bare header value (not printable ASCII, whitespace at an
//! end, or one that looks encoded) goes as `=?base64?…?=`. An `x-mcp-header` is valid on a
//! property reached from the schema's root through `properties` alone, of type `string`,
//! `integer` or `boolean`, named by an RFC 9110 token unique (ignoring case) in the schema; a
//! client drops a tool with an invalid one (as the Python SDK reads the transport's rules).

use std::collections::HashMap;

use base64::Engine as _;
use hyper::header::{HeaderName, HeaderValue};
use serde_json::Value;

/// Keywords whose value is a schema, an array of schemas or a map of schemas: positions off
/// the `properties` chain, where an `x-mcp-header` is invalid.
const ONE_SCHEMA: [&str; 11] = [
    "items",
    "contains",
    "unevaluatedItems",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
const SCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS: [&str; 4] = [
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Each listed tool's mirrored arguments: the path of properties to the argument, and its
/// header.
#[derive(Debug, Default)]
pub(super) struct ParamHeaders {
    tools: HashMap<String, Vec<(Vec<String>, HeaderName)>>,
}

impl ParamHeaders {
    /// Reads the `x-mcp-header`s of `tools` (a `tools/list` result's); the tools a client must
    /// drop, and why.
    pub(super) fn listed(&mut self, tools: &[Value]) -> Vec<(String, String)> {
        let mut dropped = Vec::new();
        for tool in tools {
            let Some(name) = tool["name"].as_str() else {
                continue;
            };
            match mirrored(&tool["inputSchema"]) {
                Ok(headers) => {
                    self.tools.insert(name.to_owned(), headers);
                }
                Err(why) => dropped.push((name.to_owned(), why)),
            }
        }
        dropped
    }

    /// The `Mcp-Param-*` headers of a `tools/call` of `tool` with `arguments`: one for each
    /// mirrored argument present with a string, integer or boolean value.
    fn of(&self, tool: &str, arguments: &Value) -> Vec<(HeaderName, HeaderValue)> {
        let Some(mirrored) = self.tools.get(tool) else {
            return Vec::new();
        };
        (mirrored.iter())
            .filter_map(|(path, header)| {
                let value = (path.iter()).try_fold(arguments, |node, key| node.get(key))?;
                let rendered = match value {
                    Value::String(text) => text.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    _ => return None,
                };
                Some((
                    header.clone(),
                    HeaderValue::try_from(encoded(&rendered)).ok()?,
                ))
            })
            .collect()
    }

    /// The headers of the message `text`: `Mcp-Method`, `Mcp-Name` for a request that names
    /// its target (`name` of `tools/call` and `prompts/get`, `uri` of `resources/read` and the
    /// subscriptions), and a `tools/call`'s `Mcp-Param-*`.
    pub(super) fn for_message(&self, text: &str) -> Vec<(HeaderName, HeaderValue)> {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return Vec::new();
        };
        let Some(method) = message["method"].as_str() else {
            return Vec::new();
        };
        let mut headers = Vec::new();
        if let Ok(value) = HeaderValue::try_from(method) {
            headers.push((HeaderName::from_static("mcp-method"), value));
        }
        let key = match method {
            "tools/call" | "prompts/get" => "name",
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
            _ => return headers,
        };
        let Some(name) = message["params"][key].as_str() else {
            return headers;
        };
        if let Ok(value) = HeaderValue::try_from(encoded(name)) {
            headers.push((HeaderName::from_static("mcp-name"), value));
        }
        if method == "tools/call" {
            headers.extend(self.of(name, &message["params"]["arguments"]));
        }
        headers
    }
}

/// `value` as a header value: itself when it is printable ASCII without whitespace at an end
/// and does not look encoded, else `=?base64?…?=`.
fn encoded(value: &str) -> String {
    let printable = value.bytes().all(|b| (0x20..0x7f).contains(&b));
    let edge_space = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    if printable && !edge_space && !looks_encoded {
        return value.to_owned();
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(value);
    format!("=?base64?{encoded}?=")
}

/// The arguments `schema` mirrors into headers, or why its `x-mcp-header`s are invalid.
fn mirrored(schema: &Value) -> Result<Vec<(Vec<String>, HeaderName)>, String> {
    let mut found = Vec::new();
    annotated(schema, Some(Vec::new()), &mut found)?;
    let mut headers: Vec<(Vec<String>, HeaderName)> = Vec::with_capacity(found.len());
    for (path, token, kind) in found {
        let at = path.join(".");
        if !matches!(kind.as_deref(), Some("string" | "integer" | "boolean")) {
            return Err(format!(
                "x-mcp-header on property `{at}`, which is not a string, integer or boolean"
            ));
        }
        let header = HeaderName::try_from(format!("mcp-param-{token}"))
            .ok()
            .filter(|_| is_token(&token))
            .ok_or_else(|| format!("x-mcp-header `{token}` (property `{at}`) is not a token"))?;
        // `HeaderName` is lower case: a repeat ignoring case is the same name.
        if let Some((other, _)) = headers.iter().find(|(_, seen)| *seen == header) {
            let other = other.join(".");
            return Err(format!(
                "x-mcp-header `{token}` on property `{at}` repeats property `{other}`'s"
            ));
        }
        headers.push((path, header));
    }
    Ok(headers)
}

/// Every `x-mcp-header` of `schema` (at `path`, `None` off the `properties` chain): its
/// property path, its value and the property's `type`.
#[allow(clippy::type_complexity)]
fn annotated(
    schema: &Value,
    path: Option<Vec<String>>,
    found: &mut Vec<(Vec<String>, String, Option<String>)>,
) -> Result<(), String> {
    let Value::Object(members) = schema else {
        return Ok(());
    };
    if let Some(token) = members.get("x-mcp-header") {
        let path = path
            .clone()
            .filter(|path| !path.is_empty())
            .ok_or("an x-mcp-header outside the properties of the arguments")?;
        let token = (token.as_str()).ok_or_else(|| {
            format!(
                "x-mcp-header on property `{}` is not a string",
                path.join(".")
            )
        })?;
        let kind = members
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_owned);
        found.push((path, token.to_owned(), kind));
    }
    for (keyword, value) in members {
        let schemas: Vec<(&Value, Option<Vec<String>>)> = match keyword.as_str() {
            "properties" => (value.as_object().into_iter().flatten())
                .map(|(name, property)| {
                    let path = path.clone().map(|mut path| {
                        path.push(name.clone());
                        path
                    });
                    (property, path)
                })
                .collect(),
            k if ONE_SCHEMA.contains(&k) => vec![(value, None)],
            k if SCHEMA_LISTS.contains(&k) => (value.as_array().into_iter().flatten())
                .map(|schema| (schema, None))
                .collect(),
            k if SCHEMA_MAPS.contains(&k) => (value.as_object().into_iter().flatten())
                .map(|(_, schema)| (schema, None))
                .collect(),
            _ => Vec::new(),
        };
        for (schema, path) in schemas {
            annotated(schema, path, found)?;
        }
    }
    Ok(())
}

/// Whether `name` is an RFC 9110 token (the characters a header name may have).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(params: &ParamHeaders, text: &str) -> Vec<(String, String)> {
        (params.for_message(text).into_iter())
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
            .collect()
    }

    #[test]
    fn a_2026_request_names_its_method_and_target_in_headers() {
        let none = ParamHeaders::default();
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}"#;
        assert_eq!(
            headers(&none, call),
            [
                ("mcp-method".into(), "tools/call".into()),
                ("mcp-name".into(), "add".into())
            ]
        );
        let read = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"a://é"}}"#;
        assert_eq!(headers(&none, read)[1].1, "=?base64?YTovL8Op?=");
        let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#;
        assert_eq!(
            headers(&none, list),
            [("mcp-method".into(), "tools/list".into())]
        );
        // A response names no method: nothing.
        assert!(headers(&none, r#"{"jsonrpc":"2.0","id":3,"result":{}}"#).is_empty());
    }

    #[test]
    fn marked_arguments_are_mirrored_into_param_headers() {
        let tool = json!({"name": "query", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "shard": {"type": "integer", "x-mcp-header": "Shard"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
            "where": {"type": "object", "properties": {
                "zone": {"type": "string", "x-mcp-header": "Zone"}
            }},
            "sql": {"type": "string"}
        }}});
        let mut params = ParamHeaders::default();
        assert!(params.listed(&[tool]).is_empty());
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "query",
            "arguments": {"region": " eu ", "shard": 7, "dry": false,
                          "where": {"zone": "b"}, "sql": "SELECT 1"}
        }});
        let mut sent = headers(&params, &call.to_string());
        sent.sort();
        assert_eq!(
            sent,
            [
                ("mcp-method".to_owned(), "tools/call".to_owned()),
                ("mcp-name".into(), "query".into()),
                ("mcp-param-dry-run".into(), "false".into()),
                // Whitespace at an end goes encoded.
                ("mcp-param-region".into(), "=?base64?IGV1IA==?=".into()),
                ("mcp-param-shard".into(), "7".into()),
                ("mcp-param-zone".into(), "b".into()),
            ]
        );
        // An absent argument, or null, has no header.
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "query", "arguments": {"region": null, "sql": "x"}}});
        assert_eq!(headers(&params, &call.to_string()).len(), 2);
    }

    #[test]
    fn a_tool_with_an_invalid_annotation_is_dropped() {
        let tool = |properties: Value| {
            json!({"name": "t", "inputSchema": {
            "type": "object", "properties": properties}})
        };
        let invalid = [
            json!({"a": {"type": "number", "x-mcp-header": "A"}}),
            json!({"a": {"type": "string", "x-mcp-header": "has space"}}),
            json!({"a": {"type": "string", "x-mcp-header": 7}}),
            json!({"a": {"type": "string", "x-mcp-header": "A"},
                   "b": {"type": "string", "x-mcp-header": "a"}}),
            json!({"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}}),
        ];
        for properties in invalid {
            let mut params = ParamHeaders::default();
            let dropped = params.listed(&[tool(properties.clone())]);
            assert_eq!(dropped.len(), 1, "{properties}");
            assert_eq!(dropped[0].0, "t");
        }
        let mut params = ParamHeaders::default();
        let root = json!({"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "A"}});
        assert_eq!(params.listed(&[root]).len(), 1);
    }
}
