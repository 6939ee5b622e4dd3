//! The message layer of every revision: every request, notification and result of the schema's
//! direction unions goes through `ClientMessage` / `ServerMessage` to its own variant and back;
//! the official JSON-RPC examples decode through the envelopes; requests pair with results.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

/// The schema of a revision and a minimal-instance generator over it.
struct Schema {
    defs: Map<String, Value>,
    prefix: &'static str,
}

impl Schema {
    fn load(revision: &str) -> Schema {
        let path = mcp_typed_tests::mirror().join(revision).join("schema.json");
        let root: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("schema")).expect("json");
        let (key, prefix) = if root.get("$defs").is_some() {
            ("$defs", "#/$defs/")
        } else {
            ("definitions", "#/definitions/")
        };
        Schema {
            defs: root[key].as_object().expect("defs").clone(),
            prefix,
        }
    }

    fn def(&self, name: &str) -> &Value {
        &self.defs[name]
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => self.resolve(self.def(r.strip_prefix(self.prefix).expect("local ref"))),
            None => schema,
        }
    }

    /// The members of a direction union (or the one definition it was inlined to).
    fn members(&self, union: &str) -> Vec<(String, Value)> {
        let Some(def) = self.defs.get(union) else {
            return Vec::new();
        };
        match def.get("anyOf").and_then(Value::as_array) {
            Some(members) => members
                .iter()
                .map(|m| {
                    let name = m["$ref"]
                        .as_str()
                        .expect("ref")
                        .strip_prefix(self.prefix)
                        .expect("local")
                        .to_owned();
                    (name.clone(), self.def(&name).clone())
                })
                .collect(),
            None => match def.get("$ref").and_then(Value::as_str) {
                Some(r) => {
                    let name = r.strip_prefix(self.prefix).expect("local").to_owned();
                    vec![(name.clone(), self.def(&name).clone())]
                }
                None => vec![(union.to_owned(), def.clone())],
            },
        }
    }

    /// A valid instance: every declared member at the top (so that the members that tell a
    /// union's types apart are present), required members only below.
    fn instance(&self, schema: &Value, all_members: bool) -> Value {
        let schema = self.resolve(schema);
        if let Some(c) = schema.get("const") {
            return c.clone();
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            return e[0].clone();
        }
        if let Some(members) = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Value::as_array)
        {
            return self.instance(&members[0], all_members);
        }
        if let Some(members) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for m in members {
                if let Value::Object(o) = self.instance(m, all_members) {
                    merged.extend(o);
                }
            }
            return Value::Object(merged);
        }
        let ty = match schema.get("type") {
            Some(Value::Array(types)) => types
                .iter()
                .find(|t| *t != "null")
                .and_then(Value::as_str)
                .unwrap_or("null"),
            Some(t) => t.as_str().unwrap_or("object"),
            None if schema.get("properties").is_some() => "object",
            None => return json!({}),
        };
        match ty {
            "string" => match schema.get("format").and_then(Value::as_str) {
                Some("uri") => json!("https://example.com/x"),
                Some("date-time") => json!("2025-01-01T00:00:00Z"),
                Some("byte") => json!("AAAA"),
                _ => json!("x"),
            },
            "integer" => json!(1),
            "number" => json!(0.5),
            "boolean" => json!(true),
            "array" => json!([]),
            "null" => Value::Null,
            _ => {
                let required: BTreeSet<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut out = Map::new();
                if let Some(Value::Object(props)) = schema.get("properties") {
                    for (name, prop) in props {
                        if all_members || required.contains(name.as_str()) {
                            out.insert(name.clone(), self.instance(prop, false));
                        }
                    }
                }
                Value::Object(out)
            }
        }
    }
}

/// Round-trips one message per method and per result type through a revision's envelopes.
macro_rules! every_message {
    ($test:ident, $module:ident, $revision:literal) => {
        #[test]
        fn $test() {
            use mcp_typed::$module::{ClientMessage, ServerMessage};
            let schema = Schema::load($revision);
            let mut checked = 0;
            for (union, side) in [("ClientRequest", "Client"), ("ServerRequest", "Server"), ("ClientNotification", "Client"), ("ServerNotification", "Server")] {
                for (name, def) in schema.members(union) {
                    let method = def["properties"]["method"]["const"].as_str().expect("method const").to_owned();
                    let mut message = json!({"jsonrpc": "2.0", "method": method});
                    if union.ends_with("Request") {
                        message["id"] = json!(7);
                    }
                    if let Some(params) = def["properties"].get("params") {
                        message["params"] = schema.instance(params, true);
                    }
                    let text = message.to_string();
                    let (debug, encoded) = if side == "Client" { decode::<ClientMessage>(&text) } else { decode::<ServerMessage>(&text) };
                    let kind = if union.ends_with("Request") { "Request {" } else { "Notification(" };
                    assert!(debug.starts_with(kind), "{} {name}: {debug}", $revision);
                    let variant = name.strip_suffix("Request").or_else(|| name.strip_suffix("Notification")).unwrap_or(&name);
                    if name != union {
                        assert!(debug.contains(&format!("{variant}(")) || debug.contains(&format!(" {variant} ")), "{} {name}: variant {variant} in {debug}", $revision);
                    }
                    assert_eq!(encoded, message, "{} {name}: round trip", $revision);
                    checked += 1;
                }
            }
            for (union, side) in [("ClientResult", "Client"), ("ServerResult", "Server")] {
                let responds = if side == "Client" { schema.defs.contains_key("ServerRequest") } else { true };
                if !responds {
                    continue;
                }
                for (name, def) in schema.members(union) {
                    let message = json!({"jsonrpc": "2.0", "id": "r1", "result": schema.instance(&def, true)});
                    let text = message.to_string();
                    // Result types with exactly the same members (2025-11-25: GetTaskResult and
                    // CancelTaskResult; GetTaskPayloadResult and Result) cannot be told apart by
                    // their members: the first of them in schema order is chosen, only the
                    // request can say more.
                    let shape = |d: &Value| (d.get("properties").and_then(Value::as_object).map(|o| o.keys().cloned().collect::<Vec<_>>()), d.get("required").cloned());
                    let members = schema.members(union);
                    let first_alike = members.iter().find(|(_, other)| shape(other) == shape(&def)).map_or(name.as_str(), |(n, _)| n.as_str());
                    let expected = match first_alike {
                        "Result" | "EmptyResult" => "Empty".to_owned(),
                        other => other.strip_suffix("Result").expect("a result").to_owned(),
                    };
                    let (debug, encoded) = if side == "Client" { decode::<ClientMessage>(&text) } else { decode::<ServerMessage>(&text) };
                    assert!(debug.contains(&format!("result: {expected}(")), "{} {name} must decode to {expected}: {debug}", $revision);
                    assert_eq!(encoded, message, "{} {name}: round trip", $revision);
                    checked += 1;
                }
            }
            assert!(checked > 20, "{} checked only {checked} messages", $revision);
        }
    };
}

/// Decodes a message from text (panicking with the decode error) and returns its debug form and
/// its encoding.
fn decode<M>(text: &str) -> (String, Value)
where
    M: std::str::FromStr<Err = mcp_typed::jsonrpc::DecodeError>
        + serde::Serialize
        + std::fmt::Debug,
{
    let decoded: M = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    (
        format!("{decoded:?}"),
        serde_json::to_value(&decoded).expect("encodes"),
    )
}

every_message!(every_message_2024_11_05, v2024_11_05, "2024-11-05");
every_message!(every_message_2025_03_26, v2025_03_26, "2025-03-26");
every_message!(every_message_2025_06_18, v2025_06_18, "2025-06-18");
every_message!(every_message_2025_11_25, v2025_11_25, "2025-11-25");
every_message!(every_message_2026_07_28, v2026_07_28, "2026-07-28");
every_message!(every_message_draft, draft, "draft");

/// The JSON-RPC-wrapped official examples of 2026-07-28 decode through the envelopes to the
/// variant of their method or result, and encode back unchanged.
#[test]
fn official_examples_decode_through_the_envelopes() {
    use mcp_typed::v2026_07_28::{ClientMessage, ServerMessage};
    let mut decoded_count = 0;
    for example in mcp_typed_tests::official_examples() {
        let (definition, text) = (&example.definition, &example.text);
        let value: Value = serde_json::from_str(text).expect("json");
        if value.get("jsonrpc").is_none()
            || !(definition.ends_with("Request")
                || definition.ends_with("Notification")
                || definition.ends_with("ResultResponse"))
        {
            continue;
        }
        let client = text.parse::<ClientMessage>();
        let server = text.parse::<ServerMessage>();
        // This official example lacks `cacheScope` and `ttlMs`, which its definition's
        // `ReadResourceResult` requires: its `contents` say it is that result, and that type
        // refuses it, naming the member (never the generic result, in every decoding path).
        if example.file_name == "read-resource-result-response.json" {
            let error = server.expect_err("refused by the result its `contents` name");
            assert_eq!(error.path(), Some("/result"), "{error}");
            assert!(
                error.to_string().contains("missing field `cacheScope`"),
                "{error}"
            );
            assert!(serde_json::from_str::<ServerMessage>(text).is_err());
            decoded_count += 1;
            continue;
        }
        let (encoded, debug) = match (&client, &server) {
            (Ok(c), _) => (serde_json::to_value(c).expect("encodes"), format!("{c:?}")),
            (_, Ok(s)) => (serde_json::to_value(s).expect("encodes"), format!("{s:?}")),
            (Err(c), Err(s)) => panic!(
                "{definition}/{}: neither side decodes it: client: {c}; server: {s}",
                example.file_name
            ),
        };
        assert_eq!(encoded, value, "{definition}: round trip");
        if let Some(stem) = definition.strip_suffix("ResultResponse") {
            // The result decodes as its own type whenever that type accepts it.
            let result_text = value["result"].to_string();
            if mcp_typed::v2026_07_28::__roundtrip(&format!("{stem}Result"), &result_text)
                .is_some_and(|r| r.is_ok())
            {
                assert!(
                    debug.contains(&format!("result: {stem}(")),
                    "{definition}: {debug}"
                );
            }
        } else {
            let method = value["method"].as_str().expect("method");
            let encoded_method = encoded["method"].as_str().expect("method");
            assert_eq!(method, encoded_method);
        }
        decoded_count += 1;
    }
    // 29 of the 129 examples are JSON-RPC messages (counted by the same filter over the folder).
    assert_eq!(decoded_count, 29, "every JSON-RPC example was checked");
}

/// Every request is paired with the result type the schema gives it: `XResultResponse.result`
/// (2026-07-28), else `XResult`, else the empty result. Checked against the schema text for
/// every request of every revision, through the generated `Request` impls' encodings.
#[test]
fn requests_pair_with_their_results() {
    use mcp_typed::jsonrpc::Request;
    fn result_of<R: Request>(result: Value) -> Result<Value, serde_json::Error> {
        let decoded: R::Result = serde_json::from_value(result)?;
        serde_json::to_value(decoded)
    }
    // Spot checks of the types themselves.
    assert_eq!(
        <mcp_typed::v2024_11_05::CallToolRequest as Request>::METHOD,
        "tools/call"
    );
    let r = result_of::<mcp_typed::v2024_11_05::CallToolRequest>(json!({"content": []}))
        .expect("CallToolResult");
    assert_eq!(r, json!({"content": []}));
    assert!(
        result_of::<mcp_typed::v2024_11_05::ListToolsRequest>(json!({"content": []})).is_err(),
        "ListToolsResult needs tools"
    );
    let r = result_of::<mcp_typed::v2025_11_25::PingRequest>(json!({})).expect("empty result");
    assert_eq!(r, json!({}));
    // 2026-07-28: tools/call may be answered with an InputRequiredResult.
    let r = result_of::<mcp_typed::v2026_07_28::CallToolRequest>(
        json!({"resultType": "input_required", "requestState": "s"}),
    )
    .expect("input required");
    assert_eq!(r["requestState"], "s");
    // Every request of every revision: the pairing the generator derived (visible as the
    // `Request::Result` type name in rustdoc) equals the one computed here from the schema.
    for revision in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let schema = Schema::load(revision);
        let generated = std::fs::read_to_string(mcp_typed_tests::repo_root().join(format!(
            "generated/src/gen/v{}.rs",
            revision.replace('-', "_")
        )))
        .expect("generated file");
        let mut pairs = 0;
        for union in ["ClientRequest", "ServerRequest"] {
            for (name, _) in schema.members(union) {
                let stem = name.strip_suffix("Request").expect("request");
                let expected = if let Some(resp) = schema.defs.get(&format!("{stem}ResultResponse"))
                {
                    match resp["properties"]["result"]
                        .get("$ref")
                        .and_then(Value::as_str)
                    {
                        Some(r) => rust_name(r.rsplit('/').next().expect("name")),
                        None => format!("{}ResultResponseResult", rust_name(stem)),
                    }
                } else if schema.defs.contains_key(&format!("{stem}Result")) {
                    rust_name(&format!("{stem}Result"))
                } else if schema.defs.contains_key("EmptyResult") {
                    "EmptyResult".to_owned()
                } else {
                    "Result".to_owned()
                };
                let needle = format!("impl __rt::jsonrpc::Request for {} {{", rust_name(&name));
                let at = generated
                    .find(&needle)
                    .unwrap_or_else(|| panic!("{revision}: no Request impl for {name}"));
                let block = &generated[at..at + generated[at..].find("\n}").expect("end")];
                assert!(
                    block.contains(&format!("type Result = {expected};")),
                    "{revision} {name}: expected {expected} in\n{block}"
                );
                pairs += 1;
            }
        }
        assert!(pairs >= 10, "{revision}: {pairs} requests");
    }
}

fn rust_name(schema_name: &str) -> String {
    mcp_codegen::naming::type_name(schema_name)
}

#[test]
fn a_result_without_result_type_is_complete_in_2026_07_28() {
    use mcp_typed::v2026_07_28::ServerMessage;
    let message: ServerMessage =
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"4"}]}}"#
            .parse()
            .expect("decodes");
    let ServerMessage::Response {
        result: mcp_typed::v2026_07_28::ServerResult::CallTool(result),
        ..
    } = message
    else {
        panic!("{message:?}")
    };
    assert_eq!(result.result_type, "complete");
    assert_eq!(
        serde_json::to_value(&result).expect("encodes")["resultType"],
        "complete",
        "written on encode"
    );
}

#[test]
fn elicitation_capability_empty_object_means_form_only() {
    use mcp_typed::v2025_11_25::ClientCapabilities;
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).expect("decodes");
    let elicitation = caps.elicitation.expect("declared");
    assert!(elicitation.supports_form() && !elicitation.supports_url());
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"url": {}}})).expect("decodes");
    let elicitation = caps.elicitation.expect("declared");
    assert!(!elicitation.supports_form() && elicitation.supports_url());
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}, "url": {}}})).expect("decodes");
    let elicitation = caps.elicitation.expect("declared");
    assert!(elicitation.supports_form() && elicitation.supports_url());
}

#[test]
fn elicitation_request_without_mode_is_form_mode() {
    use mcp_typed::v2025_11_25::{ElicitRequestParams, ServerMessage, ServerRequest};
    let text = r#"{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#;
    let message: ServerMessage = text.parse().expect("decodes");
    let ServerMessage::Request {
        request: ServerRequest::Elicit(params),
        ..
    } = message
    else {
        panic!("{message:?}")
    };
    let ElicitRequestParams::Form(form) = *params else {
        panic!("no mode means form mode")
    };
    assert_eq!(form.message, "Name?");
}

#[test]
fn params_before_method_and_id_last_still_decode() {
    use mcp_typed::v2025_11_25::{ClientMessage, ClientRequest, RequestId};
    let text = r#"{"params":{"name":"add","arguments":{"a":1}},"method":"tools/call","jsonrpc":"2.0","id":"x"}"#;
    let message: ClientMessage = text.parse().expect("decodes");
    let ClientMessage::Request {
        id,
        request: ClientRequest::CallTool(params),
    } = message
    else {
        panic!("{message:?}")
    };
    assert_eq!(id, RequestId::String("x".into()));
    assert_eq!(params.name, "add");
}

#[test]
fn serde_and_from_str_agree() {
    use mcp_typed::v2025_11_25::ServerMessage;
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
    ] {
        let fast: ServerMessage = text.parse().expect("from_str");
        let serde: ServerMessage = serde_json::from_str(text).expect("serde");
        let value: ServerMessage =
            ServerMessage::from_value(serde_json::from_str(text).expect("json"))
                .expect("from_value");
        assert_eq!(fast, serde);
        assert_eq!(fast, value);
        assert_eq!(
            serde_json::to_value(&fast).expect("encodes"),
            serde_json::from_str::<Value>(text).expect("json")
        );
    }
}
