//! A crate that depends on the adapter alone, with its default features and no serde_json
//! feature of its own, sends a derived form's properties in declared order in both eras, and in
//! the live request (2025-11-25) each property's keywords in the derive's order: the adapter's
//! default feature `declared-order` turns on serde_json's `preserve_order`, without which rmcp
//! 3.11 writes them sorted by name. Read on the raw wire: a JSON-RPC client writes and reads
//! text over an in-process duplex pipe (rmcp's newline-delimited transport) to an rmcp server
//! using the adapter. (`rmcp/tests/wire_order.rs` checks more of the wire, inside the adapter's
//! crate.)

use mcp_typed_adapter_only_test::Booking;
use mcp_typed_rmcp::mcp_mrtr::seal::{SealingKey, StateSealer};
use mcp_typed_rmcp::mcp_mrtr::serve::{Input, Need};
use mcp_typed_rmcp::mcp_typed::elicit::ElicitOutcome;
use mcp_typed_rmcp::{Eras, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// `Booking`'s fields as declared (not alphabetical).
const DECLARED: [&str; 6] = ["date", "partySize", "seating", "notes", "reminder", "diets"];

fn book(input: &mut Input<'_>) -> Result<String, Need> {
    match input.elicit::<Booking>("booking", "Which table?")? {
        ElicitOutcome::Accepted(booking) => Ok(format!("booked for {}", booking.party_size)),
        ElicitOutcome::Declined | ElicitOutcome::Cancelled => Ok("not booked".into()),
    }
}

#[derive(Clone)]
struct Server(Eras);

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self.0.call_tool(&request, &cx, "user-42", book).await? {
            Outcome::Complete(text) => {
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
            Outcome::InputRequired(asked) => Ok(asked.into()),
        }
    }
}

/// Starts the server on one end of a pipe, writes each of `messages` to it and returns the
/// last line it wrote in answer.
async fn exchange(messages: &[&str]) -> String {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = Server(Eras::new(StateSealer::new(SealingKey::new(1, [7; 32]))));
    tokio::spawn(async move {
        let running = server.serve(tokio::io::split(server_io)).await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let mut last = String::new();
    for message in messages {
        write.write_all(message.as_bytes()).await.unwrap();
        write.write_all(b"\n").await.unwrap();
        write.flush().await.unwrap();
        // A notification gets no answer.
        if message.contains(r#""id""#) {
            last = lines.next_line().await.unwrap().expect("an answer");
        }
    }
    last
}

/// The property names of the form in `requestedSchema` at `path` of the message `text`, in
/// the order of the text: this build's `Map` keeps it, which the adapter alone turned on.
fn properties(text: &str, path: &[&str]) -> Vec<String> {
    keys(&schema(text, path), "properties")
}

/// The keywords of property `name` of the form at `path` of `text`, in the order of the text.
fn keywords(text: &str, path: &[&str], name: &str) -> Vec<String> {
    keys(&schema(text, path)["properties"], name)
}

/// The member names of the object `name` of `value`, in order.
fn keys(value: &Value, name: &str) -> Vec<String> {
    value[name]
        .as_object()
        .unwrap_or_else(|| panic!("no object `{name}` in {value}"))
        .keys()
        .cloned()
        .collect()
}

/// The `requestedSchema` at `path` of the message `text`.
fn schema(text: &str, path: &[&str]) -> Value {
    let probe: Map<String, Value> = serde_json::from_str(r#"{"b":0,"a":0}"#).unwrap();
    assert_eq!(
        probe.keys().next().map(String::as_str),
        Some("b"),
        "a crate depending on the adapter alone builds serde_json without `preserve_order`"
    );
    let message: Value = serde_json::from_str(text).unwrap();
    path.iter()
        .fold(&message, |value, name| &value[*name])
        .get("requestedSchema")
        .unwrap_or_else(|| panic!("no requestedSchema in {text}"))
        .clone()
}

#[tokio::test]
async fn a_live_elicitation_create_in_declared_order() {
    let request = exchange(&[
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"raw","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book","arguments":{}}}"#,
    ])
    .await;
    assert!(
        request.contains(r#""method":"elicitation/create""#),
        "{request}"
    );
    assert_eq!(properties(&request, &["params"]), DECLARED, "{request}");
    // `#[elicit(minimum = 1, maximum = 12, default = 2)]` below the doc comment.
    assert_eq!(
        keywords(&request, &["params"], "partySize"),
        ["type", "description", "minimum", "maximum", "default"],
        "{request}"
    );
}

#[tokio::test]
async fn an_input_required_result_in_declared_order() {
    let response = exchange(&[
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"}}}}"#,
    ])
    .await;
    assert!(
        response.contains(r#""resultType":"input_required""#),
        "{response}"
    );
    assert_eq!(
        properties(&response, &["result", "inputRequests", "booking", "params"]),
        DECLARED,
        "{response}"
    );
}
