//! JSON-RPC batches: a message in revision 2025-03-26 (its `JSONRPCMessage` includes
//! `JSONRPCBatchRequest` and `JSONRPCBatchResponse`), refused elsewhere.

use mcp_typed::jsonrpc::{DecodeErrorKind, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use mcp_typed::{v2025_03_26 as v, v2025_06_18};
use serde_json::{json, Value};

fn client(text: &str) -> Result<v::ClientMessage, mcp_typed::jsonrpc::DecodeError> {
    text.parse()
}

#[test]
fn a_batch_of_calls_decodes_member_by_member() {
    let text = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "two", "method": "ping"}
    ])
    .to_string();
    let message = client(&text).unwrap();
    let v::ClientMessage::Batch(items) = &message else {
        panic!("not a batch: {message:?}");
    };
    assert_eq!(items.len(), 3);
    match &items[0] {
        v::ClientMessage::Request {
            id: v::RequestId::Integer(1),
            request: v::ClientRequest::CallTool(params),
        } => assert_eq!(params.name, "add"),
        other => panic!("member 0: {other:?}"),
    }
    assert!(matches!(
        items[1],
        v::ClientMessage::Notification(v::ClientNotification::Initialized(_))
    ));
    assert!(matches!(
        &items[2],
        v::ClientMessage::Request { id: v::RequestId::String(id), request: v::ClientRequest::Ping(_) } if id == "two"
    ));
    // Encodes back to the same JSON, as an array.
    let again: Value = serde_json::to_value(&message).unwrap();
    assert_eq!(again, serde_json::from_str::<Value>(&text).unwrap());
    // serde's Deserialize and from_value agree with from_str.
    assert_eq!(
        serde_json::from_str::<v::ClientMessage>(&text).unwrap(),
        message
    );
    assert_eq!(v::ClientMessage::from_value(again).unwrap(), message);
}

#[test]
fn a_batch_of_responses_decodes() {
    let text = json!([
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "3"}]}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no such method"}}
    ])
    .to_string();
    let message: v::ServerMessage = text.parse().unwrap();
    let v::ServerMessage::Batch(items) = &message else {
        panic!("not a batch: {message:?}");
    };
    assert!(matches!(
        items[0],
        v::ServerMessage::Response {
            result: v::ServerResult::CallTool(_),
            ..
        }
    ));
    assert!(matches!(&items[1], v::ServerMessage::Error { error, .. } if error.code == -32601));
    assert_eq!(
        serde_json::to_value(&message).unwrap(),
        serde_json::from_str::<Value>(&text).unwrap()
    );
}

#[test]
fn an_empty_batch_is_an_invalid_request() {
    let error = client("[]").unwrap_err();
    assert_eq!(error.code(), INVALID_REQUEST);
    assert!(error.message().contains("empty batch"), "{error}");
    assert_eq!(error.path(), None);
    assert_eq!(error.id(), None);
}

#[test]
fn a_batch_mixing_calls_and_responses_is_an_invalid_request() {
    let text = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 2, "result": {}}
    ])
    .to_string();
    let error = client(&text).unwrap_err();
    assert_eq!(error.code(), INVALID_REQUEST);
    assert!(error.message().contains("not both"), "{error}");
}

#[test]
fn a_nested_batch_is_an_invalid_request_at_its_index() {
    let text = json!([
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        [{"jsonrpc": "2.0", "method": "notifications/initialized"}]
    ])
    .to_string();
    let error = client(&text).unwrap_err();
    assert_eq!(error.code(), INVALID_REQUEST);
    assert_eq!(error.path(), Some("/1"));
}

#[test]
fn a_bad_member_is_reported_with_its_index_and_id() {
    let text = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"arguments": {}}}
    ])
    .to_string();
    let error = client(&text).unwrap_err();
    assert_eq!(error.kind(), DecodeErrorKind::InvalidParams);
    assert_eq!(error.code(), INVALID_PARAMS);
    assert_eq!(error.id(), Some(&json!(5)));
    assert_eq!(error.method(), Some("tools/call"));
    // As for a single message: the path names the object that lacks the member.
    assert_eq!(error.path(), Some("/1/params"), "{error}");
    assert!(error.message().contains("`name`"), "{error}");

    let text = json!([{"jsonrpc": "2.0", "id": "x", "method": "tools/frobnicate"}]).to_string();
    let error = client(&text).unwrap_err();
    assert_eq!(error.code(), METHOD_NOT_FOUND);
    assert_eq!(error.id(), Some(&json!("x")));
    assert_eq!(error.path(), Some("/0/method"), "{error}");

    let text = json!([{"jsonrpc": "1.0", "method": "ping", "id": 1}]).to_string();
    let error = client(&text).unwrap_err();
    assert_eq!(error.code(), INVALID_REQUEST);
    assert_eq!(error.path(), Some("/0/jsonrpc"));
}

#[test]
fn other_revisions_refuse_batches() {
    let text = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]).to_string();
    let error = text.parse::<v2025_06_18::ClientMessage>().unwrap_err();
    assert_eq!(error.code(), INVALID_REQUEST);
    assert!(error.message().contains("2025-03-26"), "{error}");
    assert!(serde_json::from_str::<v2025_06_18::ClientMessage>(&text).is_err());
}

#[test]
fn a_batch_is_not_json_when_the_text_is_not() {
    let error = client(r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1},"#).unwrap_err();
    assert_eq!(error.kind(), DecodeErrorKind::Parse);
}
