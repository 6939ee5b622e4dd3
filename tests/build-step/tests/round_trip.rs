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
