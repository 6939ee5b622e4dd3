//! `booking-server`: a complete MCP server on rmcp, in one file. Its one tool, `book_table`,
//! asks the user a form and books the table it describes. One handler serves both protocol
//! eras on one Streamable HTTP endpoint, `http://127.0.0.1:PORT/mcp`:
//!
//! - a 2025-11-25 client (a session) gets the form as a live `elicitation/create` request in
//!   the middle of the call;
//! - a 2026-07-28 client (no session) gets an `InputRequiredResult` with the form and a sealed
//!   `requestState`, and calls again with its answer and the state.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin booking-server -- --port 3000
//! cargo run -p mcp-typed-examples --bin http-client -- --interactive http://127.0.0.1:3000/mcp book_table
//! echo '{"booking": {"date": "2026-09-12", "partySize": 4, "seating": "terrace"}}' > booking.json
//! cargo run -p mcp-typed-examples --bin http-client -- --answers booking.json http://127.0.0.1:3000/mcp book_table
//! ```
//!
//! Dependencies: `mcp-typed-rmcp`, `rmcp` (features `server`,
//! `transport-streamable-http-server`), `axum`, `tokio` and `clap`.

use clap::Parser;
use mcp_typed_rmcp::http::{anonymous_principal, serve, GuardLayer, ServeLimits};
use mcp_typed_rmcp::mcp_mrtr::seal::{SealingKey, StateSealer};
use mcp_typed_rmcp::mcp_mrtr::serve::{Input, Need};
use mcp_typed_rmcp::mcp_typed::elicit::ElicitOutcome;
use mcp_typed_rmcp::{Elicit, Eras, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler};

/// The form. Each field is a property, in this order; its doc comment is the description the
/// user sees; every field but an `Option` is required. The derive refuses at compile time what
/// a form may not contain.
#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")] // the derive, through the adapter's re-export
#[serde(rename_all = "camelCase")] // the properties: date, partySize, seating, notes
struct Booking {
    /// The day you will come
    #[elicit(format = "date")] // YYYY-MM-DD, checked before the answer is accepted
    date: String,
    /// How many people, you included
    #[elicit(minimum = 1, maximum = 12)]
    party_size: u8,
    /// Where you would like to sit
    seating: Seating,
    /// Anything the restaurant should know
    notes: Option<String>,
}

/// A single select: the user picks an option by its title; the answer is its value.
#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "lowercase")] // the values: indoors, terrace, bar
enum Seating {
    #[elicit(title = "Inside")]
    Indoors,
    #[elicit(title = "On the terrace")]
    Terrace,
    #[elicit(title = "At the bar")]
    Bar,
}

/// The tool, written once for both eras. `input.elicit` returns the user's answer, validated
/// and parsed into a `Booking`, or `Err(Need)`: `?` hands the question to `Eras`, which asks it
/// (live, or in an `InputRequiredResult`) and runs this function again once it is answered.
fn book_table(input: &mut Input<'_>) -> Result<String, Need> {
    match input.elicit::<Booking>("booking", "Which table would you like?")? {
        ElicitOutcome::Accepted(Booking {
            date,
            party_size,
            seating,
            notes,
        }) => Ok(format!(
            "Booked a table for {party_size} on {date}, seating: {seating:?}, notes: {}.",
            notes.as_deref().unwrap_or("none")
        )),
        ElicitOutcome::Declined => Ok("No table booked: you declined.".into()),
        ElicitOutcome::Cancelled => Ok("No table booked: cancelled.".into()),
    }
}

#[derive(Clone)]
struct BookingServer {
    /// Serves a handler that asks, in the era of each request (see `book_table`).
    eras: Eras,
}

impl ServerHandler for BookingServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // No arguments: everything comes from the form.
        let schema = JsonObject::from_iter([("type".into(), "object".into())]);
        let tool = Tool::new("book_table", "Books a table (asks a form)", schema);
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "book_table" {
            return Err(ErrorData::invalid_params("no such tool", None));
        }
        // A sealed state is bound to a principal, and the replay quota is counted by it. Here
        // the caller's address; behind authentication, pass the subject of the request's token,
        // so that one user's state is refused to another.
        let principal = anonymous_principal(&cx)?;
        match self
            .eras
            .call_tool(&request, &cx, &principal, book_table)
            .await?
        {
            Outcome::Complete(text) => {
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
            }
            // 2026-07-28: the form and the sealed state go back; the client calls again.
            Outcome::InputRequired(asked) => Ok(asked.into()),
        }
    }
}

/// An MCP server at http://127.0.0.1:PORT/mcp with one tool, book_table, that asks a form, for
/// clients of 2025-11-25 and 2026-07-28. MRTR_STATE_KEY (64 hex digits) seals the 2026-07-28
/// state; without it, a random key.
#[derive(Parser)]
struct Args {
    /// The port to listen on, on 127.0.0.1 (0: a free one, printed on standard error)
    #[arg(long, default_value_t = 3000)]
    port: u16,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    // The key that seals the state: MRTR_STATE_KEY, the same for every instance (any of them
    // then serves a retry), or a random one (a retry must come back to this process).
    let mut key = SealingKey::random_secret()?;
    if let Ok(hex) = std::env::var("MRTR_STATE_KEY") {
        let wrong = "MRTR_STATE_KEY must be 64 hex digits";
        if hex.len() != 64 || !hex.is_ascii() {
            return Err(wrong.into());
        }
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| wrong)?;
        }
    }
    // Key id 1: a later key gets id 2, and the sealer keeps 1 to open older states. Each state
    // is spent by its first use, recorded in this process; several instances share the record
    // with `.sealing(|s| s.shared_replay_store(Arc::new(RedisReplayStore::open("redis://…")?)))`
    // (feature `redis`).
    let eras = Eras::new(StateSealer::new(SealingKey::new(1, key)));
    let server = BookingServer { eras };
    // rmcp's Streamable HTTP service: one server value per session (2025-11-25) or request.
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    // The guard refuses a POST body over 4 MiB or nested deeper than 64 before rmcp parses it;
    // `serve` closes a connection whose request head takes over 10 s, and keeps at most 4,096.
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(GuardLayer::default());
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
    // The bound address: with `--port 0`, the free port the system chose.
    eprintln!("booking-server: http://{}/mcp", listener.local_addr()?);
    serve(listener, app, ServeLimits::default()).await?;
    Ok(())
}
