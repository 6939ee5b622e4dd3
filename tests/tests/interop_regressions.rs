//! Regression tests for the bugs the interop peers exposed (`tests/interop.rs`), one test per
//! bug, without the peers.

use mcp_typed::jsonrpc::{DecodeError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_typed::v2025_11_25::{ClientMessage, ClientResult, ServerMessage, ServerResult};
use serde_json::{json, Value};

fn refused<M: std::str::FromStr<Err = DecodeError> + std::fmt::Debug>(text: &str) -> DecodeError {
    match text.parse::<M>() {
        Ok(message) => panic!("must be refused: {text}\ndecoded as {message:?}"),
        Err(error) => error,
    }
}

/// Bug 1: `to_error_response` was the only reply, so a server answered invalid notifications
/// (and unreadable responses) with an error response, which JSON-RPC forbids (a peer that
/// answers responses can loop with another). `to_reply` says when not to answer.
#[test]
fn notifications_and_responses_are_never_answered() {
    // (message, code, is_notification, is_response)
    let cases: &[(&str, i64, bool, bool)] = &[
        // Well-framed notifications, refused for their method or params: no reply.
        (
            r#"{"jsonrpc":"2.0","method":"notifications/bogus"}"#,
            METHOD_NOT_FOUND,
            true,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
            INVALID_PARAMS,
            true,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}"#,
            INVALID_PARAMS,
            true,
            false,
        ),
        // A request's method without an `id` is a notification by its framing.
        (
            r#"{"jsonrpc":"2.0","method":"tools/list"}"#,
            INVALID_REQUEST,
            true,
            false,
        ),
        // Responses the decoder cannot read: no reply either.
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"maybe"}}"#,
            INVALID_REQUEST,
            false,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
            INVALID_REQUEST,
            false,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","result":{}}"#,
            INVALID_REQUEST,
            false,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
            INVALID_REQUEST,
            false,
            true,
        ),
        // Everything else is answered, with the id when one was read.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"notifications/bogus"}"#,
            METHOD_NOT_FOUND,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}"#,
            INVALID_PARAMS,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}"#,
            INVALID_REQUEST,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            INVALID_REQUEST,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","method":7}"#,
            INVALID_REQUEST,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/bogus","x":1}"#,
            INVALID_REQUEST,
            false,
            false,
        ),
        (
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
            INVALID_REQUEST,
            false,
            false,
        ),
        (r#"{"id":4}"#, INVALID_REQUEST, false, false),
        ("{", -32700, false, false),
    ];
    for &(text, code, notification, response) in cases {
        let error = refused::<ClientMessage>(text);
        assert_eq!(error.code(), code, "{text}: {error}");
        assert_eq!(error.is_notification(), notification, "{text}: {error}");
        assert_eq!(error.is_response(), response, "{text}: {error}");
        match error.to_reply() {
            None => assert!(notification || response, "{text}: must be answered"),
            Some(reply) => {
                assert!(
                    !notification && !response,
                    "{text}: must not be answered: {reply}"
                );
                assert_eq!(reply, error.to_error_response());
                let id = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .filter(|id| id.is_i64() || id.is_string())
                    .unwrap_or(Value::Null);
                assert_eq!(reply["id"], id, "{text}");
            }
        }
    }
    // The same on the client side, reading what a server sends.
    let error = refused::<ServerMessage>(
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":1}}"#,
    );
    assert_eq!((error.code(), error.to_reply()), (INVALID_PARAMS, None));
    let error = refused::<ServerMessage>(r#"{"jsonrpc":"2.0","id":"a","result":{"tools":7}}"#);
    assert!(error.is_response() && error.to_reply().is_none(), "{error}");
    assert_eq!(error.id(), Some(&json!("a")));
}

/// Bug 1, batches (2025-03-26): a batch of calls is answered even when its bad member is a
/// notification; a batch of responses is not.
#[test]
fn batches_are_answered_unless_they_are_responses() {
    use mcp_typed::v2025_03_26::ClientMessage;
    let calls = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/bogus"}]"#;
    let error = refused::<ClientMessage>(calls);
    assert_eq!(error.path(), Some("/1/method"));
    assert!(error.to_reply().is_some(), "{error}");
    let responses =
        r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"roots":7}}]"#;
    let error = refused::<ClientMessage>(responses);
    assert!(error.to_reply().is_none(), "{error}");
}

/// Bug 2: an elicitation answer the schema's `ElicitResult` cannot hold (found with the
/// TypeScript SDK's fractional numbers, which the erratum `elicit-number-answers` now admits;
/// an object value stays outside the schema) decoded as the generic `ClientResult::Empty`,
/// everything in `extra`: the server saw "not an elicitation result" with no reason. It is now
/// an invalid response naming the member, with the request id, so that the server can fail the
/// call that waited for it.
#[test]
fn a_result_refused_by_its_decided_type_is_not_the_generic_result() {
    let text = r#"{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada","age":{"years":36}}}}"#;
    let error = refused::<ClientMessage>(text);
    assert_eq!(error.code(), INVALID_REQUEST);
    assert_eq!(error.path(), Some("/result/content/age"), "{error}");
    assert_eq!(error.id(), Some(&json!("e1")));
    assert!(error.is_response());
    // The same from a parsed value and through serde.
    let value: Value = serde_json::from_str(text).unwrap();
    let from_value = ClientMessage::from_value(value.clone()).unwrap_err();
    assert_eq!(from_value.path(), Some("/result/content/age"));
    assert!(serde_json::from_value::<ClientMessage>(value).is_err());
    assert!(serde_json::from_str::<ClientMessage>(text).is_err());

    // A server result too: `content` decides CallToolResult.
    let error = refused::<ServerMessage>(
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text"}]}}"#,
    );
    assert_eq!(error.path(), Some("/result/content/0"), "{error}");

    // Unchanged: results without a deciding member are the generic result, extra members kept;
    // valid results decode into their type by either path.
    for (text, generic) in [
        (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, true),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":1},"x-trace":"abc"}}"#,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t"}}}"#,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"age":36}}}"#,
            false,
        ),
    ] {
        let fast: ClientMessage = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let serde: ClientMessage = serde_json::from_str(text).unwrap();
        assert_eq!(fast, serde, "{text}");
        let ClientMessage::Response { result, .. } = &fast else {
            panic!("{text}: {fast:?}")
        };
        assert_eq!(
            matches!(result, ClientResult::Empty(_)),
            generic,
            "{text}: {result:?}"
        );
        assert_eq!(
            serde_json::to_value(&fast).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }
    let ServerMessage::Response { result, .. } =
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#
            .parse::<ServerMessage>()
            .unwrap()
    else {
        panic!("a response")
    };
    assert!(matches!(result, ServerResult::CallTool(_)));
}

/// The member that decides a result's type has the last word over every other type too, not
/// only over the generic result, and every entry point decides alike: `FromStr`, serde_json's
/// `from_str`, `from_slice` and `from_reader`, and `from_value`. (With the anyOf of the schema,
/// a `content` that `CallToolResult` refuses would still make a `ListToolsResult` with
/// `content` kept in its `extra`; text input then took one pass and serde's `Deserialize` two.)
#[test]
fn the_deciding_member_names_the_result_type_by_every_entry_point() {
    fn every_entry_point(text: &str) -> Vec<(&'static str, Result<ServerMessage, String>)> {
        let value: Value = serde_json::from_str(text).unwrap();
        vec![
            (
                "FromStr",
                text.parse().map_err(|e: DecodeError| e.to_string()),
            ),
            (
                "from_str",
                serde_json::from_str(text).map_err(|e| e.to_string()),
            ),
            (
                "from_slice",
                serde_json::from_slice(text.as_bytes()).map_err(|e| e.to_string()),
            ),
            (
                "from_reader",
                serde_json::from_reader(text.as_bytes()).map_err(|e| e.to_string()),
            ),
            (
                "serde from_value",
                serde_json::from_value(value.clone()).map_err(|e| e.to_string()),
            ),
            (
                "from_value",
                ServerMessage::from_value(value).map_err(|e| e.to_string()),
            ),
        ]
    }
    // `content` comes first and names CallToolResult, which refuses a text block without
    // `text`; `_meta` before it is read ahead (from a reader: as owned text).
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text"}],"tools":[]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":1},"content":[{"type":"text"}],"tools":[]}}"#,
    ] {
        for (entry, decoded) in every_entry_point(text) {
            let error = decoded.expect_err(&format!("{entry} must refuse {text}"));
            assert!(error.contains("text"), "{entry}: {error}");
        }
        assert_eq!(
            refused::<ServerMessage>(text).path(),
            Some("/result/content/0")
        );
    }
    // `tools` first names ListToolsResult, which keeps `content` among its undeclared members.
    // A `Value` holds its members sorted by name unless serde_json's `preserve_order` is on in
    // the build (the rmcp adapter's default feature turns it on): sorted, `content` comes first
    // from it, as in the cases above; in order, `tools` does, as in the text.
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":1},"tools":[],"content":[{"type":"text"}]}}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    let value_sorts = value["result"].as_object().unwrap().keys().nth(1).unwrap() == "content";
    for (entry, decoded) in every_entry_point(text) {
        let sorted = entry.contains("from_value") && value_sorts;
        match decoded {
            Ok(ServerMessage::Response {
                result: ServerResult::ListTools(list),
                ..
            }) if !sorted => {
                assert!(list.tools.is_empty());
                assert_eq!(list.extra["content"], json!([{"type": "text"}]), "{entry}");
            }
            Err(error) if sorted => assert!(error.contains("text")),
            other => panic!("{entry}: {other:?}"),
        }
    }
}

/// Bug 3: the generated modules lacked the `PROTOCOL_VERSION` constant the README documents
/// (bodies are shared between identical schemas, so it was never emitted); the peers had to
/// spell the version themselves. Every released revision has it, equal to its name.
#[test]
fn every_released_revision_has_its_protocol_version() {
    use mcp_typed::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
    assert_eq!(v2024_11_05::PROTOCOL_VERSION, "2024-11-05");
    assert_eq!(v2025_03_26::PROTOCOL_VERSION, "2025-03-26");
    assert_eq!(v2025_06_18::PROTOCOL_VERSION, "2025-06-18");
    assert_eq!(v2025_11_25::PROTOCOL_VERSION, "2025-11-25");
    assert_eq!(v2026_07_28::PROTOCOL_VERSION, "2026-07-28");
}

/// Bug 4: `RequestId` (and `ProgressToken`) were not `Eq + Hash`, so a peer could not key its
/// pending requests by them. `1` and `"1"` stay different keys.
#[test]
fn request_ids_key_maps_of_pending_requests() {
    use mcp_typed::v2025_11_25::{ProgressToken, RequestId};
    use std::collections::{HashMap, HashSet};
    let mut pending = HashMap::new();
    pending.insert(RequestId::Integer(1), "tools/call");
    pending.insert(RequestId::String("1".into()), "elicitation/create");
    let answered: RequestId = serde_json::from_str(r#""1""#).expect("id");
    assert_eq!(pending.remove(&answered), Some("elicitation/create"));
    assert_eq!(pending.remove(&RequestId::Integer(1)), Some("tools/call"));
    assert!(pending.is_empty());
    let tokens: HashSet<ProgressToken> = [
        ProgressToken::Integer(7),
        ProgressToken::String("7".into()),
        ProgressToken::Integer(7),
    ]
    .into_iter()
    .collect();
    assert_eq!(tokens.len(), 2);
}

/// Bug 3 (found by the fuzz targets' seeds, Python SDK traffic): a result without
/// `resultType`, as a server of 2025-11-25 sends it, decoded as a 2026-07-28 `CallToolResult`
/// through `FromStr` (the spec: an absent `resultType` is `"complete"`) but was refused through
/// serde's `Deserialize` ("required members missing"): the structural match counted
/// `resultType` as required. Every way of decoding now gives the same message.
#[test]
fn a_result_without_result_type_decodes_the_same_every_way() {
    use mcp_typed::v2026_07_28 as modern;
    let text = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"echo: text","type":"text"}],"isError":false}}"#;
    let parsed: modern::ServerMessage = text.parse().expect("FromStr");
    let through_serde: modern::ServerMessage = serde_json::from_str(text).expect("Deserialize");
    let from_value =
        modern::ServerMessage::from_value(serde_json::from_str(text).unwrap()).expect("from_value");
    assert_eq!(parsed, through_serde);
    assert_eq!(parsed, from_value);
    let modern::ServerMessage::Response {
        result: modern::ServerResult::CallTool(result),
        ..
    } = parsed
    else {
        panic!("not a CallToolResult: {parsed:?}")
    };
    assert_eq!(result.result_type, "complete");
}
