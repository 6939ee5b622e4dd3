//! The generated types of the third-party schemas (see build.rs) on real messages: each decodes
//! into its type and encodes back to the same JSON (compared as JSON values).

use mcp_typed_build_step::{ext_apps, rmcp_client_message, rmcp_server_message, EXAMPLES};
use serde_json::{json, Value};

/// Decodes `message` as a `T`, re-encodes it, and requires the same JSON value back.
fn round_trip<T>(what: &str, message: &Value) -> T
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let decoded: T = serde_json::from_value(message.clone())
        .unwrap_or_else(|e| panic!("{what}: does not decode: {e}\n{message:#}"));
    let encoded = serde_json::to_value(&decoded).expect("encodes");
    assert_eq!(&encoded, message, "{what}: changed by a round trip");
    // From text too: the decoder reads text and `Value` alike.
    let from_text: T = serde_json::from_str(&message.to_string())
        .unwrap_or_else(|e| panic!("{what}: does not decode from text: {e}"));
    assert_eq!(serde_json::to_value(&from_text).unwrap(), encoded, "{what}");
    decoded
}

/// rmcp's own example messages, shipped in its .crate and pinned in schema/third-party.toml
/// (both a `ListToolsResult` response rmcp's tests decode or write as a `ServerJsonRpcMessage`).
#[test]
fn rmcp_examples_round_trip_through_the_server_message_type() {
    let examples: Vec<_> = EXAMPLES
        .iter()
        .filter(|(schema, _, _)| *schema == "rmcp-server-message")
        .collect();
    assert_eq!(examples.len(), 2, "the pinned examples");
    for (_, file, text) in examples {
        let message: Value = serde_json::from_str(text).expect("JSON");
        let decoded = round_trip::<rmcp_server_message::JsonRpcMessage>(file, &message);
        let rmcp_server_message::JsonRpcMessage::Response(response) = decoded else {
            panic!("{file}: not a response: {decoded:?}");
        };
        let rmcp_server_message::ServerResult::ListTools(result) = &response.result else {
            panic!("{file}: not a ListToolsResult: {:?}", response.result);
        };
        assert_eq!(result.tools.len(), 1, "{file}");
        assert_eq!(result.tools[0].name, "add", "{file}");
    }
}

/// rmcp ships no example of a client message: these are written after the messages of rmcp's
/// own tests (tests/test_message_protocol.rs, test_client_initialization.rs) and the spec.
#[test]
fn client_messages_round_trip_through_the_client_message_type() {
    use rmcp_client_message::JsonRpcMessage;
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": true}, "sampling": {}},
            "clientInfo": {"name": "test-client", "version": "1.0.0"}
        }}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": "call-1", "method": "tools/call", "params": {
            "name": "add", "arguments": {"a": 1, "b": 2}
        }}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
            "requestId": 3, "reason": "user aborted"
        }}),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"roots": [
            {"uri": "file:///home/user/project", "name": "project"}
        ]}}),
        json!({"jsonrpc": "2.0", "id": 8, "error": {"code": -32601, "message": "Method not found"}}),
    ];
    let kinds: Vec<&str> = messages
        .iter()
        .map(
            |message| match round_trip::<JsonRpcMessage>("client message", message) {
                JsonRpcMessage::Request(_) => "request",
                JsonRpcMessage::Notification(_) => "notification",
                JsonRpcMessage::Response(_) => "response",
                JsonRpcMessage::Error(_) => "error",
            },
        )
        .collect();
    assert_eq!(
        kinds,
        [
            "request",
            "notification",
            "request",
            "request",
            "notification",
            "response",
            "error"
        ]
    );
}

/// ext-apps ships no JSON examples: these messages are written from its own types and their
/// doc comments (`dist/src/spec.types.d.ts` of the pinned 2.0.4 package), one per direction
/// and kind, the `{method, params}` body of each (the schema's definitions, without the
/// JSON-RPC envelope).
#[test]
fn ext_apps_messages_round_trip_through_the_message_enums() {
    let view_requests = [
        json!({"method": "ui/initialize", "params": {
            "appInfo": {"name": "weather-view", "version": "1.0.0"},
            "appCapabilities": {"tools": {"listChanged": true}, "availableDisplayModes": ["inline", "fullscreen"]},
            "protocolVersion": "2026-01-26"
        }}),
        json!({"method": "ui/message", "params": {
            "role": "user", "content": [{"type": "text", "text": "Show me the forecast for Paris"}]
        }}),
        json!({"method": "ui/open-link", "params": {"url": "https://example.com/forecast"}}),
        json!({"method": "ui/request-display-mode", "params": {"mode": "fullscreen"}}),
    ];
    for message in &view_requests {
        round_trip::<ext_apps::ViewRequest>("view request", message);
    }
    let decoded = round_trip::<ext_apps::ViewRequest>("ui/initialize", &view_requests[0]);
    let ext_apps::ViewRequest::McpUiInitialize(params) = decoded else {
        panic!("not ui/initialize: {decoded:?}");
    };
    assert_eq!(params.app_info.name, "weather-view");

    round_trip::<ext_apps::HostRequest>(
        "host request",
        &json!({"method": "ui/resource-teardown", "params": {}}),
    );

    for message in [
        json!({"method": "ui/notifications/initialized", "params": {}}),
        json!({"method": "ui/notifications/size-changed", "params": {"width": 640, "height": 480}}),
    ] {
        round_trip::<ext_apps::ViewNotification>("view notification", &message);
    }
    for message in [
        json!({"method": "ui/notifications/tool-input", "params": {"arguments": {"city": "Paris", "days": 3}}}),
        json!({"method": "ui/notifications/tool-input-partial", "params": {"arguments": {"city": "Par"}}}),
        json!({"method": "ui/notifications/tool-result", "params": {
            "content": [{"type": "text", "text": "Sunny, 24°C"}],
            "structuredContent": {"temperature": 24, "condition": "sunny"}
        }}),
        json!({"method": "ui/notifications/tool-cancelled", "params": {"reason": "user action"}}),
        json!({"method": "ui/notifications/host-context-changed", "params": {"theme": "dark", "displayMode": "inline"}}),
    ] {
        round_trip::<ext_apps::HostNotification>("host notification", &message);
    }
    // A method of the other direction is refused, not taken for another.
    assert!(serde_json::from_value::<ext_apps::HostNotification>(
        json!({"method": "ui/notifications/size-changed", "params": {}})
    )
    .is_err());
}

/// Results and metadata of ext-apps, as its types document them (the CSP origins are the
/// `@example`s of `McpUiResourceCsp`).
#[test]
fn ext_apps_results_and_metadata_round_trip() {
    round_trip::<ext_apps::McpUiInitializeResult>(
        "McpUiInitializeResult",
        &json!({
            "protocolVersion": "2026-01-26",
            "hostInfo": {"name": "example-host", "version": "2.1.0"},
            "hostCapabilities": {"openLinks": {}, "serverTools": {"listChanged": true}, "logging": {}},
            "hostContext": {"theme": "light", "displayMode": "inline", "locale": "en-US"}
        }),
    );
    round_trip::<ext_apps::McpUiRequestDisplayModeResult>(
        "McpUiRequestDisplayModeResult",
        &json!({"mode": "pip"}),
    );
    round_trip::<ext_apps::McpUiResourceMeta>(
        "McpUiResourceMeta",
        &json!({
            "csp": {
                "connectDomains": ["https://api.weather.com", "wss://realtime.service.com"],
                "resourceDomains": ["https://cdn.jsdelivr.net", "https://*.cloudflare.com"],
                "frameDomains": ["https://www.youtube.com", "https://player.vimeo.com"],
                "baseUriDomains": ["https://cdn.example.com"]
            },
            "domain": "www-example-com.oaiusercontent.com",
            "prefersBorder": true
        }),
    );
    round_trip::<ext_apps::McpUiToolMeta>(
        "McpUiToolMeta",
        &json!({"resourceUri": "ui://weather/view.html", "visibility": ["model", "app"]}),
    );
}

#[test]
fn a_closed_empty_object_takes_no_member() {
    use mcp_typed_build_step::ext_apps::McpUiHostCapabilitiesLogging as Closed;
    let empty: Closed = serde_json::from_str("{}").expect("`{}` is the one value");
    assert_eq!(serde_json::to_string(&empty).unwrap(), "{}");
    let error = serde_json::from_str::<Closed>(r#"{"level":"info"}"#).unwrap_err();
    assert!(
        error.to_string().contains("unknown field `level`"),
        "{error}"
    );
}

/// An extension's message enums in whole JSON-RPC messages (`jsonrpc::CallMessage`): the same
/// dispatch on `method`, and refusals as the JSON-RPC errors to answer.
#[test]
fn ext_apps_messages_decode_as_json_rpc_with_their_errors() {
    use mcp_typed::jsonrpc::{CallMessage, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
    // An id as JSON-RPC has it (rmcp's schema names the type).
    type ViewMessage = CallMessage<
        rmcp_client_message::NumberOrString,
        ext_apps::ViewRequest,
        ext_apps::ViewNotification,
    >;
    let text = r#"{"jsonrpc":"2.0","id":3,"method":"ui/open-link","params":{"url":"https://example.com/forecast"}}"#;
    let message: ViewMessage = text.parse().expect("a view request");
    let ViewMessage::Request {
        id,
        request: ext_apps::ViewRequest::McpUiOpenLink(params),
    } = &message
    else {
        panic!("not ui/open-link: {message:?}");
    };
    assert_eq!(serde_json::to_value(id).unwrap(), json!(3));
    assert_eq!(params.url, "https://example.com/forecast");
    // The same JSON back, and through serde the same message.
    assert_eq!(
        serde_json::to_value(&message).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    assert_eq!(serde_json::from_str::<ViewMessage>(text).unwrap(), message);
    let notification: ViewMessage =
        r#"{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":640,"height":480}}"#
            .parse()
            .expect("a view notification");
    assert!(matches!(notification, ViewMessage::Notification(_)));

    // Refusals, each the error to answer with: bad params (with the pointer), a method of the
    // other direction, a response (a view sends calls here).
    let bad = r#"{"jsonrpc":"2.0","id":4,"method":"ui/open-link","params":{"url":5}}"#
        .parse::<ViewMessage>()
        .unwrap_err();
    assert_eq!(bad.code(), INVALID_PARAMS);
    assert_eq!(bad.path(), Some("/params/url"));
    assert_eq!(bad.to_reply().unwrap()["id"], 4);
    let other = r#"{"jsonrpc":"2.0","id":5,"method":"ui/resource-teardown","params":{}}"#
        .parse::<ViewMessage>()
        .unwrap_err();
    assert_eq!(other.code(), METHOD_NOT_FOUND);
    let response = r#"{"jsonrpc":"2.0","id":6,"result":{}}"#.parse::<ViewMessage>().unwrap_err();
    assert_eq!(response.code(), INVALID_REQUEST);
}
