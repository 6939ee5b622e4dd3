//! One revision's official `schema.json` as the differential test reads it: its definitions,
//! `$ref`s followed, which method each message definition carries and which side sends it, and
//! a smallest valid instance of a definition (the base of the mutations where the corpus has no
//! instance).

use std::collections::{BTreeMap, BTreeSet};

use mcp_wire_check::{Revision, Side};
use serde_json::{json, Map, Value};

use super::suite::Dispatch;

/// A revision's schema and what the test derives from it.
pub struct Schema {
    pub revision: Revision,
    root: Value,
    defs_key: &'static str,
    /// As the suite picks definitions ([`Dispatch`]): method → the definition whose
    /// `properties.method.const` it is.
    pub methods: BTreeMap<String, String>,
    /// request method → its `XxxResult` definition.
    pub results: BTreeMap<String, String>,
    /// error code → the response definition whose `error` has it as a constant.
    pub errors: BTreeMap<i64, String>,
    /// The definitions the client's unions name (requests, notifications).
    client_sends: BTreeSet<String>,
    /// The definitions either side's unions name: the requests and notifications of the wire.
    on_the_wire: BTreeSet<String>,
}

impl Schema {
    /// Reads `<mirror>/<revision>/schema.json`.
    pub fn load(revision: Revision) -> Schema {
        let path = mcp_typed_tests::mirror()
            .join(revision.version())
            .join("schema.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let root: Value = serde_json::from_str(&text).expect("schema.json is JSON");
        let defs_key = if root.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        let defs = root[defs_key].as_object().expect("definitions");
        let Dispatch {
            methods,
            results,
            errors,
        } = Dispatch::of(defs);
        let mut schema = Schema {
            revision,
            root,
            defs_key,
            methods,
            results,
            errors,
            client_sends: BTreeSet::new(),
            on_the_wire: BTreeSet::new(),
        };
        schema.read_unions();
        schema
    }

    /// Which definitions each side's unions name: who sends what, and what is on the wire.
    fn read_unions(&mut self) {
        let defs = self.defs().clone();
        for union in [
            "ClientRequest",
            "ClientNotification",
            "ServerRequest",
            "ServerNotification",
        ] {
            let Some(union_def) = defs.get(union) else {
                continue;
            };
            let text = union_def.to_string();
            let mut named: BTreeSet<String> = (defs.keys())
                .filter(|name| text.contains(&format!("/{name}\"")))
                .cloned()
                .collect();
            // 2026-07-28's ClientNotification is one notification, inline.
            let inline = union_def["properties"]["method"]["const"].as_str();
            named.extend(inline.and_then(|m| self.methods.get(m)).cloned());
            if union.starts_with("Client") {
                self.client_sends.extend(named.iter().cloned());
            }
            self.on_the_wire.extend(named);
        }
    }

    /// Every definition by name.
    pub fn defs(&self) -> &Map<String, Value> {
        self.root[self.defs_key].as_object().expect("definitions")
    }

    /// The definition `name`.
    pub fn def(&self, name: &str) -> &Value {
        &self.root[self.defs_key][name]
    }

    /// `schema` with its `$ref`s followed (`#/$defs/X`, `#/definitions/X`).
    pub fn resolve<'a>(&'a self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..32 {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => {
                    let name = reference.rsplit('/').next().unwrap_or_default();
                    schema = self.def(name);
                }
                None => break,
            }
        }
        schema
    }

    /// The definition of a generic error response (`JSONRPCErrorResponse`, older
    /// `JSONRPCError`).
    pub fn error_envelope(&self) -> &'static str {
        if self.defs().contains_key("JSONRPCErrorResponse") {
            "JSONRPCErrorResponse"
        } else {
            "JSONRPCError"
        }
    }

    /// A smallest message of the request or notification definition `name`: before
    /// 2025-11-25 a method's definition leaves out the JSON-RPC envelope, added here.
    pub fn minimal_message(&self, name: &str) -> Option<Value> {
        let mut message = self.minimal(self.def(name), 0)?;
        let members = message.as_object_mut()?;
        members.entry("jsonrpc").or_insert(json!("2.0"));
        if name.ends_with("Request") {
            members.entry("id").or_insert(json!(1));
        }
        Some(message)
    }

    /// A value of the definition `name` drawn from `seed` (`mcp_wire_check::values`), as a
    /// message when `name` is a request or notification (the envelope added as
    /// [`Schema::minimal_message`] adds it); `None` when none can be drawn.
    pub fn drawn(&self, name: &str, seed: u64) -> Option<Value> {
        let mut drawn = mcp_wire_check::values::Values::new(&self.root, seed)
            .of(self.def(name))
            .ok()?;
        if self.methods.values().any(|def| def == name) {
            let members = drawn.as_object_mut()?;
            members.entry("jsonrpc").or_insert(json!("2.0"));
            if name.ends_with("Request") {
                members.entry("id").or_insert(json!(1));
            }
        }
        Some(drawn)
    }

    /// Who sends the request or notification `method` (both sides: the client).
    pub fn sender_of(&self, method: &str) -> Side {
        match self.methods.get(method) {
            Some(name) if !self.client_sends.contains(name) => Side::Server,
            _ => Side::Client,
        }
    }

    /// Whether `method` is a request or notification of the wire in this revision (named by a
    /// side's union), not only a definition (2026-07-28's `sampling/createMessage` is an input
    /// request, inside a result).
    pub fn on_the_wire(&self, method: &str) -> bool {
        self.methods
            .get(method)
            .is_some_and(|d| self.on_the_wire.contains(d))
    }

    /// The method whose result definition is `result`.
    pub fn method_of_result(&self, result: &str) -> Option<&str> {
        self.results
            .iter()
            .find(|(_, r)| r.as_str() == result)
            .map(|(m, _)| m.as_str())
    }

    /// The request or notification definitions whose `params` is `params` (by `$ref`).
    pub fn methods_with_params(&self, params: &str) -> Vec<String> {
        let needle = format!("/{params}\"");
        self.methods
            .iter()
            .filter(|(_, def)| {
                self.def(def)["properties"]["params"]
                    .to_string()
                    .contains(&needle)
            })
            .map(|(m, _)| m.clone())
            .collect()
    }

    /// A small valid instance of `schema`: required members only, the first branch of a union,
    /// limits met. `None` where none is found within the depth.
    pub fn minimal(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > 12 {
            return None;
        }
        let schema = self.resolve(schema);
        if let Some(value) = schema.get("const") {
            return Some(value.clone());
        }
        if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
            return Some(first.clone());
        }
        for union in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(union).and_then(Value::as_array) {
                return branches.iter().find_map(|b| self.minimal(b, depth + 1));
            }
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let mut out = Map::new();
            for part in parts {
                if let Value::Object(members) = self.minimal(part, depth + 1)? {
                    out.extend(members);
                }
            }
            return Some(Value::Object(out));
        }
        let kind = match &schema["type"] {
            Value::String(kind) => kind.as_str(),
            Value::Array(kinds) => kinds.first().and_then(Value::as_str).unwrap_or("object"),
            _ if schema.get("properties").is_some() => "object",
            _ => return Some(json!({})),
        };
        Some(match kind {
            "object" => {
                let mut out = Map::new();
                for name in schema["required"].as_array().into_iter().flatten() {
                    let name = name.as_str()?;
                    let member = self.minimal(&schema["properties"][name], depth + 1)?;
                    out.insert(name.to_owned(), member);
                }
                Value::Object(out)
            }
            "array" => {
                let count = schema["minItems"].as_u64().unwrap_or(0);
                let item = self.minimal(&schema["items"], depth + 1);
                Value::Array((0..count).filter_map(|_| item.clone()).collect())
            }
            "string" => json!(sample_string(schema["format"].as_str())),
            "integer" | "number" => schema["minimum"].clone().as_f64().map_or(json!(0), |m| {
                if m.fract() == 0.0 {
                    json!(m as i64)
                } else {
                    json!(m)
                }
            }),
            "boolean" => json!(false),
            "null" => Value::Null,
            _ => json!({}),
        })
    }
}

/// A string of `format`.
pub fn sample_string(format: Option<&str>) -> &'static str {
    match format {
        Some("uri") | Some("uri-reference") | Some("iri") => "https://example.com/a",
        Some("uri-template") => "https://example.com/{id}",
        Some("date-time") => "2025-01-01T00:00:00Z",
        Some("date") => "2025-01-01",
        Some("email") => "a@example.com",
        Some("byte") => "AAAA",
        _ => "x",
    }
}
