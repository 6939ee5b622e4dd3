//! Malformed messages are refused with the JSON-RPC error a peer should answer with: the code,
//! the JSON pointer of the offending member, and the request id whenever one could be read.

use mcp_typed::jsonrpc::{
    DecodeError, DecodeErrorKind, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
};
use mcp_typed::v2025_11_25::{ClientMessage, ServerMessage};
use serde_json::{json, Value};

/// Decodes `text` as a client message (what a server reads) and returns the error.
fn client_error(text: &str) -> DecodeError {
    match text.parse::<ClientMessage>() {
        Ok(message) => panic!("must be refused: {text}\ndecoded as {message:?}"),
        Err(error) => {
            // The same diagnosis from an already parsed value, when the text is JSON.
            if let Ok(value) = serde_json::from_str::<Value>(text) {
                let from_value =
                    ClientMessage::from_value(value).expect_err("refused from a value too");
                assert_eq!(from_value.code(), error.code(), "{text}");
            }
            error
        }
    }
}

fn assert_error(error: &DecodeError, code: i64, path: Option<&str>, id: Option<Value>) {
    assert_eq!(error.code(), code, "{error}");
    assert_eq!(error.path(), path, "{error}");
    assert_eq!(error.id(), id.as_ref(), "{error}");
}

#[test]
fn not_json_is_a_parse_error() {
    let error = client_error(r#"{"jsonrpc":"2.0","id":1,"method":"ping""#);
    assert_error(&error, PARSE_ERROR, None, None);
    assert_eq!(error.kind(), DecodeErrorKind::Parse);
    assert_error(&client_error("hello"), PARSE_ERROR, None, None);
    assert_error(&client_error(""), PARSE_ERROR, None, None);
}

#[test]
fn json_that_is_not_an_object_is_an_invalid_request() {
    assert_error(&client_error(r#""ping""#), INVALID_REQUEST, None, None);
    let batch = client_error(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_error(&batch, INVALID_REQUEST, None, None);
    assert!(batch.message().contains("batch"), "{batch}");
}

#[test]
fn wrong_or_missing_jsonrpc_version() {
    assert_error(
        &client_error(r#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#),
        INVALID_REQUEST,
        Some("/jsonrpc"),
        Some(json!(4)),
    );
    assert_error(
        &client_error(r#"{"id":"a","method":"ping"}"#),
        INVALID_REQUEST,
        Some("/jsonrpc"),
        Some(json!("a")),
    );
    assert_error(
        &client_error(r#"{"jsonrpc":2.0,"id":5,"method":"ping"}"#),
        INVALID_REQUEST,
        Some("/jsonrpc"),
        Some(json!(5)),
    );
}

#[test]
fn null_fractional_and_structured_ids() {
    // rmcp and rust-mcp-schema take `id: null` requests for notifications.
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#),
        INVALID_REQUEST,
        Some("/id"),
        None,
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
        INVALID_REQUEST,
        Some("/id"),
        None,
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}"#),
        INVALID_REQUEST,
        Some("/id"),
        None,
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#),
        INVALID_REQUEST,
        Some("/id"),
        None,
    );
}

#[test]
fn result_and_error_together() {
    let error =
        client_error(r#"{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"x"}}"#);
    assert_error(&error, INVALID_REQUEST, None, Some(json!(9)));
    assert!(error.message().contains("not both"), "{error}");
}

#[test]
fn unknown_method_is_method_not_found_with_the_id() {
    let error =
        client_error(r#"{"jsonrpc":"2.0","id":"abc","method":"tools/explode","params":{}}"#);
    assert_error(
        &error,
        METHOD_NOT_FOUND,
        Some("/method"),
        Some(json!("abc")),
    );
    assert_eq!(error.method(), Some("tools/explode"));
    // A server-to-client method sent by a client is not one of the client's methods either.
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}"#),
        METHOD_NOT_FOUND,
        Some("/method"),
        Some(json!(2)),
    );
}

#[test]
fn request_without_id_and_notification_with_id() {
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","method":"tools/list"}"#),
        INVALID_REQUEST,
        Some("/id"),
        None,
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}"#),
        INVALID_REQUEST,
        Some("/id"),
        Some(json!(3)),
    );
}

#[test]
fn invalid_params_name_the_member() {
    let error =
        client_error(r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":5}}"#);
    assert_error(
        &error,
        INVALID_PARAMS,
        Some("/params/name"),
        Some(json!(11)),
    );
    assert_eq!(error.method(), Some("tools/call"));
    let nested = client_error(
        r#"{"jsonrpc":"2.0","id":12,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":"yes"}},"clientInfo":{"name":"c","version":"1"}}}"#,
    );
    assert_error(
        &nested,
        INVALID_PARAMS,
        Some("/params/capabilities/roots/listChanged"),
        Some(json!(12)),
    );
    let item = client_error(r#"{"jsonrpc":"2.0","id":13,"method":"roots/list"}"#);
    assert_error(&item, METHOD_NOT_FOUND, Some("/method"), Some(json!(13)));
}

#[test]
fn missing_required_params() {
    let error = client_error(r#"{"jsonrpc":"2.0","id":14,"method":"tools/call"}"#);
    assert_error(&error, INVALID_PARAMS, Some("/params"), Some(json!(14)));
    let error = client_error(r#"{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{}}"#);
    assert_error(&error, INVALID_PARAMS, Some("/params"), Some(json!(15)));
    assert!(error.message().contains("name"), "{error}");
}

#[test]
fn the_id_is_recovered_when_it_comes_after_bad_params() {
    let error =
        client_error(r#"{"params":{"name":[]},"method":"tools/call","jsonrpc":"2.0","id":"late"}"#);
    assert_error(
        &error,
        INVALID_PARAMS,
        Some("/params/name"),
        Some(json!("late")),
    );
}

#[test]
fn unknown_members_and_bad_method_types() {
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":16,"method":"ping","extra":1}"#),
        INVALID_REQUEST,
        Some("/extra"),
        Some(json!(16)),
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":17,"method":7}"#),
        INVALID_REQUEST,
        Some("/method"),
        Some(json!(17)),
    );
    assert_error(
        &client_error(r#"{"jsonrpc":"2.0","id":18}"#),
        INVALID_REQUEST,
        None,
        Some(json!(18)),
    );
}

#[test]
fn invalid_constants_inside_params() {
    // A server's elicitation/create with a mode no revision defines.
    let error = r#"{"jsonrpc":"2.0","id":19,"method":"elicitation/create","params":{"mode":"carrier-pigeon","message":"m"}}"#.parse::<ServerMessage>().expect_err("bad mode");
    assert_error(&error, INVALID_PARAMS, Some("/params"), Some(json!(19)));
    assert!(error.message().contains("carrier-pigeon"), "{error}");
}

#[test]
fn responses_need_an_id_and_a_valid_result() {
    let error = r#"{"jsonrpc":"2.0","result":{}}"#.parse::<ServerMessage>().expect_err("no id");
    assert_error(&error, INVALID_REQUEST, Some("/id"), None);
    // `{"tools": "none"}` would still be a valid generic result (extra members are allowed);
    // `_meta` must be an object in every result type.
    let error = r#"{"jsonrpc":"2.0","id":20,"result":{"_meta":5}}"#
        .parse::<ServerMessage>()
        .expect_err("bad result");
    assert_eq!(error.kind(), DecodeErrorKind::InvalidResponse);
    assert_error(&error, INVALID_REQUEST, Some("/result"), Some(json!(20)));
    let error = r#"{"jsonrpc":"2.0","id":21,"error":{"code":"x","message":"m"}}"#
        .parse::<ServerMessage>()
        .expect_err("bad error");
    assert_error(
        &error,
        INVALID_REQUEST,
        Some("/error/code"),
        Some(json!(21)),
    );
}

#[test]
fn a_2026_client_sends_no_responses() {
    let error = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        .parse::<mcp_typed::v2026_07_28::ClientMessage>()
        .expect_err("no server requests in 2026-07-28");
    assert_error(&error, INVALID_REQUEST, None, Some(json!(1)));
}

#[test]
fn error_responses_for_decode_errors() {
    let error =
        client_error(r#"{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":false}}"#);
    assert_eq!(
        error.to_error_response(),
        json!({"jsonrpc": "2.0", "id": "q", "error": {"code": -32602, "message": error.message(), "data": {"path": "/params/name"}}})
    );
    let parse = client_error("{");
    assert_eq!(parse.to_error_response()["id"], Value::Null);
    assert_eq!(parse.to_error_response()["error"]["code"], -32700);
}

#[test]
fn nothing_panics_on_arbitrary_input() {
    let samples = [
        "",
        " ",
        "null",
        "0",
        "[]",
        "{}",
        "{\"jsonrpc\":\"2.0\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[1,2]}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551615,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing",
    ];
    for text in samples {
        let client = text.parse::<ClientMessage>();
        let server = text.parse::<ServerMessage>();
        for error in [client.err(), server.err()].into_iter().flatten() {
            assert!(
                [
                    PARSE_ERROR,
                    INVALID_REQUEST,
                    METHOD_NOT_FOUND,
                    INVALID_PARAMS
                ]
                .contains(&error.code()),
                "{text}: {error}"
            );
        }
    }
}

#[test]
fn extension_methods_through_the_raw_envelope() {
    use mcp_typed::jsonrpc::RawMessage;
    let text =
        r#"{"jsonrpc":"2.0","id":"e1","method":"com.example/frobnicate","params":{"level":11}}"#;
    // The typed envelope does not know the method …
    let error = client_error(text);
    assert_error(&error, METHOD_NOT_FOUND, Some("/method"), Some(json!("e1")));
    // … the raw one routes it, params untouched.
    let raw = RawMessage::parse(text).expect("valid framing");
    assert_eq!(raw.method.as_deref(), Some("com.example/frobnicate"));
    assert_eq!(raw.params.map(|p| p.get()), Some(r#"{"level":11}"#));
    assert_eq!(serde_json::to_string(&raw).expect("encodes"), text);
    // Framing errors are still errors.
    assert_eq!(
        RawMessage::parse(r#"{"jsonrpc":"1.0","method":"x"}"#)
            .expect_err("version")
            .code(),
        INVALID_REQUEST
    );
    assert_eq!(
        RawMessage::parse(r#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#)
            .expect_err("id")
            .code(),
        INVALID_REQUEST
    );
    assert_eq!(
        RawMessage::parse("{").expect_err("json").code(),
        PARSE_ERROR
    );
}

/// The pointer goes through arrays (the item's index), through typed maps (the member's name),
/// and into members read before their union's tag, whatever the layout of the text.
#[test]
fn the_path_names_array_items_map_members_and_buffered_members() {
    let server_error = |text: &str| text.parse::<ServerMessage>().expect_err(text);
    // The second content block's `data` must be a string.
    let error = server_error(
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"},{"type":"image","data":5,"mimeType":"image/png"}]}}"#,
    );
    assert_error(
        &error,
        INVALID_REQUEST,
        Some("/result/content/1/data"),
        Some(json!(1)),
    );
    // `text` comes before the tag `type`, so it was buffered and replayed.
    let error =
        server_error(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":5,"type":"text"}]}}"#);
    assert_error(
        &error,
        INVALID_REQUEST,
        Some("/result/content/0/text"),
        Some(json!(2)),
    );
    // The same, pretty-printed: the pointer does not depend on the layout.
    let pretty = serde_json::to_string_pretty(&json!({
        "jsonrpc": "2.0", "id": 3,
        "result": {"content": [{"type": "text", "text": "a"}, {"type": "image", "data": 5, "mimeType": "image/png"}]}
    }))
    .unwrap();
    assert_eq!(server_error(&pretty).path(), Some("/result/content/1/data"));
    // A typed map: the capabilities' `experimental` members must be objects.
    let error = client_error(
        r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"a":{},"b":7}},"clientInfo":{"name":"c","version":"1"}}}"#,
    );
    assert_error(
        &error,
        INVALID_PARAMS,
        Some("/params/capabilities/experimental/b"),
        Some(json!(4)),
    );
    // An error message carries no position within the member it was read from.
    assert!(!error.message().contains("line 1"), "{error}");
}
