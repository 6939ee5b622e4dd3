//! The order of a derived form's properties on the wire, read from the raw JSON text an rmcp
//! server using the adapter writes: a raw JSON-RPC client talks to it over an in-process duplex
//! pipe (rmcp's newline-delimited transport), in both eras:
//!
//! - 2025-11-25: the live `elicitation/create` request sent in the middle of a `tools/call`;
//! - 2026-07-28: the `InputRequiredResult` answering a `tools/call`, with its `inputRequests`.
//!
//! The form's fields are declared out of alphabetical order (date, partySize, seating, notes,
//! guest). The adapter hands rmcp each form in that order (rmcp's `ElicitationSchema` keeps it in
//! `property_order`), and `required` goes out in that order. rmcp 3.11 then writes the `params`
//! of every request (`WithMeta::serialize` in its `model/serde_impl.rs`) through a
//! `serde_json::Value`, which sorts the members by name unless serde_json's `preserve_order`
//! feature is on: the adapter's default feature `declared-order` turns it on, and these tests
//! (built with the default features, as `cargo test --workspace` builds them) require the
//! declared order.
#![cfg(feature = "declared-order")]

use std::collections::HashMap;

use mcp_typed_rmcp::mcp_mrtr::seal::{SealingKey, StateSealer};
use mcp_typed_rmcp::mcp_mrtr::serve::{Input, Need};
use mcp_typed_rmcp::mcp_mrtr::InputRequired;
use mcp_typed_rmcp::mcp_typed::elicit::{ElicitOutcome, Revision};
use mcp_typed_rmcp::mcp_typed::v2026_07_28::ClientCapabilities;
use mcp_typed_rmcp::to_rmcp_input_required;
use mcp_typed_rmcp::{Elicit, Eras, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ElicitRequestParams,
    ErrorData, InputRequest, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::WriteHalf;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf};

/// Fields out of alphabetical order, required and optional mixed.
#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "camelCase")]
struct Booking {
    /// The day you will come
    #[elicit(format = "date")]
    date: String,
    /// How many people, you included
    #[elicit(minimum = 1, maximum = 12)]
    party_size: u8,
    /// Where you would like to sit
    seating: Seating,
    /// Anything the restaurant should know
    notes: Option<String>,
    /// The name of the booking
    guest: String,
}

#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "lowercase")]
enum Seating {
    #[elicit(title = "On the terrace")]
    Terrace,
    #[elicit(title = "Inside")]
    Indoors,
}

const PROPERTIES: [&str; 5] = ["date", "partySize", "seating", "notes", "guest"];
const REQUIRED: [&str; 4] = ["date", "partySize", "seating", "guest"];

fn book_table(input: &mut Input<'_>) -> Result<String, Need> {
    match input.elicit::<Booking>("booking", "Which table would you like?")? {
        ElicitOutcome::Accepted(booking) => Ok(format!(
            "booked for {} on {} ({:?}, {}{})",
            booking.party_size,
            booking.date,
            booking.seating,
            booking.guest,
            booking
                .notes
                .map(|notes| format!(": {notes}"))
                .unwrap_or_default(),
        )),
        ElicitOutcome::Declined | ElicitOutcome::Cancelled => Ok("not booked".into()),
    }
}

#[derive(Clone)]
struct Server {
    eras: Eras,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self
            .eras
            .call_tool(&request, &cx, "user-42", book_table)
            .await?
        {
            Outcome::Complete(text) => {
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
            Outcome::InputRequired(asked) => Ok(asked.into()),
        }
    }
}

/// A raw JSON-RPC client: the lines the server writes, as written.
struct Raw {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
}

impl Raw {
    /// Starts the server on one end of a pipe; the client holds the other.
    fn start() -> Self {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let server = Server {
            eras: Eras::new(StateSealer::new(SealingKey::new(1, [7; 32]))),
        };
        tokio::spawn(async move {
            let running = server.serve(tokio::io::split(server_io)).await?;
            running.waiting().await?;
            Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
        });
        let (read, write) = tokio::io::split(client_io);
        Self {
            lines: BufReader::new(read).lines(),
            write,
        }
    }

    async fn send(&mut self, message: &str) {
        self.write.write_all(message.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
        self.write.flush().await.unwrap();
    }

    /// The next line the server writes, as text.
    async fn receive(&mut self) -> String {
        self.lines.next_line().await.unwrap().expect("a message")
    }
}

/// The raw text of member `name` of the JSON object `json`.
fn member<'a>(json: &'a str, name: &str) -> &'a str {
    let members: HashMap<String, &RawValue> = serde_json::from_str(json).unwrap();
    members
        .get(name)
        .unwrap_or_else(|| panic!("no `{name}` in {json}"))
        .get()
}

/// The raw text at `path` (member names) below the object `json`.
fn at<'a>(json: &'a str, path: &[&str]) -> &'a str {
    path.iter().fold(json, |json, name| member(json, name))
}

/// The names of the members of the JSON object `json`, in the order of the text.
fn keys(json: &str) -> Vec<String> {
    struct Keys(Vec<String>);
    impl<'de> Deserialize<'de> for Keys {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct KeysVisitor;
            impl<'de> Visitor<'de> for KeysVisitor {
                type Value = Keys;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                    let mut keys = Vec::new();
                    while let Some((key, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                        keys.push(key);
                    }
                    Ok(Keys(keys))
                }
            }
            deserializer.deserialize_map(KeysVisitor)
        }
    }
    serde_json::from_str::<Keys>(json).unwrap().0
}

/// Whether this build's `serde_json::Map` keeps the order members are inserted in (feature
/// `preserve_order`), rather than sorting them by name.
fn maps_keep_order() -> bool {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(r#"{"b":0,"a":0}"#).unwrap();
    map.keys().next().is_some_and(|first| first == "b")
}

/// `properties` and `required` of the `requestedSchema` at `schema` are in declared order.
fn assert_wire_order(schema: &str, message: &str) {
    assert!(
        maps_keep_order(),
        "the adapter's feature `declared-order` is on, yet this build's maps sort"
    );
    assert_eq!(
        keys(member(schema, "properties")),
        PROPERTIES,
        "the properties on the wire: {message}"
    );
    let required: Vec<String> = serde_json::from_str(member(schema, "required")).unwrap();
    assert_eq!(required, REQUIRED, "`required` on the wire: {message}");
}

/// The keywords of the integer property `partySize` at `schema` come in the order the derive
/// writes them (`type`, the doc comment's `description`, then `minimum` and `maximum` as the
/// `#[elicit(...)]` keys are written).
fn assert_integer_keyword_order(schema: &str, message: &str) {
    assert_eq!(
        keys(at(schema, &["properties", "partySize"])),
        PARTY_SIZE_KEYWORDS,
        "the keywords of `partySize` on the wire: {message}"
    );
}

/// The keywords of `partySize` as `mcp_elicit` writes the derived form.
const PARTY_SIZE_KEYWORDS: [&str; 4] = ["type", "description", "minimum", "maximum"];

const ANSWER: &str = r#"{"action":"accept","content":{"date":"2026-07-28","partySize":4,"seating":"terrace","guest":"Ada"}}"#;
const DONE: &str = "booked for 4 on 2026-07-28 (Terrace, Ada)";

/// A 2025-11-25 session up to the live `elicitation/create` its `tools/call` makes the server
/// send: the client, and that request's text.
async fn live_elicitation_create() -> (Raw, String) {
    let mut client = Raw::start();
    client
        .send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"raw","version":"0"}}}"#,
        )
        .await;
    let initialized = client.receive().await;
    assert_eq!(member(&initialized, "id"), "1", "{initialized}");
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    client
        .send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book_table","arguments":{}}}"#)
        .await;

    let request = client.receive().await;
    assert_eq!(
        member(&request, "method"),
        r#""elicitation/create""#,
        "{request}"
    );
    (client, request)
}

#[tokio::test]
async fn a_live_elicitation_create_on_the_wire() {
    let (mut client, request) = live_elicitation_create().await;
    assert_wire_order(at(&request, &["params", "requestedSchema"]), &request);
    assert_integer_keyword_order(at(&request, &["params", "requestedSchema"]), &request);

    let id = member(&request, "id");
    client
        .send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{ANSWER}}}"#
        ))
        .await;
    let result = client.receive().await;
    assert_eq!(member(&result, "id"), "2", "{result}");
    assert!(result.contains(DONE), "{result}");
}

#[tokio::test]
async fn an_input_required_result_on_the_wire() {
    let mut client = Raw::start();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"}}"#;
    client
        .send(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"book_table","arguments":{{}},{meta}}}}}"#
        ))
        .await;

    let response = client.receive().await;
    let result = member(&response, "result");
    assert_eq!(
        member(result, "resultType"),
        r#""input_required""#,
        "{response}"
    );
    let request = at(result, &["inputRequests", "booking"]);
    assert_eq!(
        member(request, "method"),
        r#""elicitation/create""#,
        "{response}"
    );
    assert_wire_order(at(request, &["params", "requestedSchema"]), &response);
    assert_integer_keyword_order(at(request, &["params", "requestedSchema"]), &response);

    // The retry, with the answer and the state, completes the call.
    let state = member(result, "requestState");
    client
        .send(&format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"book_table","arguments":{{}},"inputResponses":{{"booking":{ANSWER}}},"requestState":{state},{meta}}}}}"#
        ))
        .await;
    let done = client.receive().await;
    assert_eq!(member(&done, "id"), "2", "{done}");
    assert!(done.contains(DONE), "{done}");
}

/// What the assertions on keywords expect is what `mcp_elicit` writes of the derived form. The
/// live request (2025-11-25) carries the form's own text (`LiveRequest::json`), as a generated
/// property struct (`NumberSchema`) would write its members in the official schema.json's order
/// (alphabetical: `description`, `maximum`, `minimum`, `type`); the 2026-07-28 path goes through
/// rmcp's typed `IntegerSchema`, whose fields come in the specification's order, the derive's
/// here.
#[test]
fn the_expected_keyword_order_is_the_derived_one() {
    let form = Booking::requested_schema()
        .to_revision_string(Revision::V2025_11_25)
        .unwrap();
    assert_eq!(
        keys(at(&form, &["properties", "partySize"])),
        PARTY_SIZE_KEYWORDS,
        "{form}"
    );
}

/// The adapter's conversion hands rmcp the form in declared order (`property_order`), in every
/// build: what rmcp writes of it is up to rmcp.
#[test]
fn rmcp_s_model_gets_the_declared_order() {
    let capabilities: ClientCapabilities =
        serde_json::from_str(r#"{"elicitation":{"form":{}}}"#).unwrap();
    let asked = InputRequired::new(&capabilities)
        .elicit::<Booking>("booking", "Which table would you like?")
        .unwrap()
        .build()
        .unwrap();
    let theirs = to_rmcp_input_required(&asked).unwrap();
    let requests = theirs.input_requests.expect("the input requests");
    let Some(InputRequest::Elicitation(request)) = requests.get("booking") else {
        panic!("no elicitation `booking` in {requests:?}");
    };
    let ElicitRequestParams::FormElicitationParams {
        requested_schema, ..
    } = &request.params
    else {
        panic!("not a form: {:?}", request.params);
    };
    assert_eq!(
        requested_schema.property_order.as_deref(),
        Some(PROPERTIES.map(String::from).as_slice())
    );
    // Written on its own (not inside a request), rmcp's schema keeps that order.
    let text = serde_json::to_string(requested_schema).unwrap();
    assert_eq!(keys(member(&text, "properties")), PROPERTIES, "{text}");
    assert_eq!(
        member(&text, "required"),
        r#"["date","partySize","seating","guest"]"#
    );
}
