//! A stateless 2026-07-28 MCP server over stdio whose tool needs a form: multi round-trip
//! requests with `mcp_schema::mrtr`.
//!
//! ```text
//! cargo run -p mcp-schema --features seal --example mrtr_server
//! ```
//!
//! It reads one JSON-RPC message per line and answers `tools/call` of the tool `book_table`:
//!
//! 1. the first call gets an `InputRequiredResult` asking for a `Reservation` form
//!    (`inputRequests.reservation`) and a sealed `requestState`;
//! 2. the client retries the same call, with a new id, the answer in
//!    `inputResponses.reservation` and the `requestState` echoed;
//! 3. the retry is served from the request alone: every line is handled by a fresh `Server`
//!    that shares nothing with the one before but the key (`MRTR_STATE_KEY`, 64 hex digits;
//!    a random key when unset). The state opens only for the same principal, method and
//!    arguments, before it expires.
//!
//! A missing answer, or a state that expired, is asked again; a declined or cancelled form ends
//! the call without a booking; an answer that breaks the form, or a state that fails
//! verification, is a -32602 error.
//!
//! ```text
//! → {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"book_table","arguments":{"restaurant":"Chez Ada"}}}
//! ← {"jsonrpc":"2.0","id":1,"result":{"inputRequests":{"reservation":{"method":"elicitation/create","params":{…}}},"requestState":"AQAAAAE…","resultType":"input_required"}}
//! → {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{…same…,"inputResponses":{"reservation":{"action":"accept","content":{"guests":4,"date":"2026-08-01"}}},"requestState":"AQAAAAE…"}}
//! ← {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Booked a table for 4 at Chez Ada on 2026-08-01."}],"resultType":"complete"}}
//! ```

// Built as an example of mcp-schema, this needs the `seal` feature. The test suite also
// includes this file as a module (its crate has no features of its own, and enables `seal` on
// mcp-schema), which `not(feature = "v2026_07_28")` lets through.
#[cfg(any(feature = "seal", not(feature = "v2026_07_28")))]
pub mod server {
    use std::time::{Duration, SystemTime};

    use mcp_schema::elicit::ElicitOutcome;
    use mcp_schema::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND};
    use mcp_schema::mrtr::seal::{OpenError, SealContext, SealingKey, StateSealer};
    use mcp_schema::mrtr::{InputRequired, Responses, RetryParams};
    use mcp_schema::v2026_07_28::{
        CallToolRequestParams, CallToolResult, ClientMessage, ClientRequest, ContentBlock, Error,
        RequestId, ServerMessage, ServerResult, TextContent,
    };
    use mcp_schema::Elicit;
    use serde_json::{json, Map, Value};

    /// The form the tool asks for.
    #[derive(Debug, Elicit)]
    pub struct Reservation {
        /// How many guests
        #[elicit(minimum = 1, maximum = 12)]
        pub guests: u8,
        /// The day of the reservation
        #[elicit(format = "date")]
        pub date: String,
        /// A table outside, weather permitting
        pub terrace: Option<bool>,
    }

    /// The tool.
    pub const TOOL: &str = "book_table";
    /// The key of the form in `inputRequests` / `inputResponses`.
    pub const KEY: &str = "reservation";
    /// How long a client has to answer.
    pub const TTL: Duration = Duration::from_secs(600);
    /// The key id of the example key.
    const KEY_ID: u32 = 1;

    /// One server instance: the key and nothing else.
    #[derive(Debug)]
    pub struct Server {
        sealer: StateSealer,
        principal: String,
    }

    impl Server {
        /// A server sealing with `secret`. A stdio server has no authenticated user: the
        /// principal is fixed here; a server behind HTTP authentication would use the
        /// authenticated subject of each request instead.
        pub fn new(secret: [u8; 32]) -> Self {
            Self {
                sealer: StateSealer::new(SealingKey::new(KEY_ID, secret)),
                principal: "stdio:local-user".to_owned(),
            }
        }

        /// Serves one line; `None` for a notification.
        pub fn handle_line(&self, line: &str, now: SystemTime) -> Option<String> {
            match line.parse::<ClientMessage>() {
                // Written straight from the typed message (not through a `Value`, which would
                // sort the members): the form's fields keep their order.
                Ok(message) => serde_json::to_string(&self.handle(message, now)?).ok(),
                // Not a message we can read: the error says why, with the id when one was read.
                Err(error) => Some(error.to_error_response().to_string()),
            }
        }

        /// Serves one message; `None` for a notification.
        pub fn handle(&self, message: ClientMessage, now: SystemTime) -> Option<ServerMessage> {
            let ClientMessage::Request { id, request } = message else {
                return None;
            };
            Some(match request {
                ClientRequest::CallTool(params) if params.name == TOOL => {
                    match self.book_table(&params, now) {
                        Ok(result) => ServerMessage::Response { id, result },
                        Err(error) => error_message(id, error),
                    }
                }
                ClientRequest::CallTool(params) => ServerMessage::Response {
                    id,
                    result: text_result(format!("Unknown tool `{}`.", params.name), true),
                },
                other => error_message(
                    id,
                    error(
                        METHOD_NOT_FOUND,
                        format!("`{}` is not served here", other.method()),
                    ),
                ),
            })
        }

        fn book_table(
            &self,
            params: &CallToolRequestParams,
            now: SystemTime,
        ) -> Result<ServerResult, Error> {
            let context = SealContext::for_request(&self.principal, params, TTL)
                .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
            // The arguments are decoded straight from their text into the tool's own type.
            #[derive(serde::Deserialize)]
            struct Arguments {
                restaurant: Option<String>,
            }
            let restaurant = params
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.decode::<Arguments>().ok())
                .and_then(|arguments| arguments.restaurant)
                .unwrap_or_else(|| "the restaurant".to_owned());

            // The state says which attempt this is; without one this is a first call.
            let attempt = match params.request_state() {
                None => 0,
                Some(token) => match self.sealer.open_json::<Value>(token, &context, now) {
                    Ok(state) => state["attempt"].as_u64().unwrap_or(0),
                    // An honest client that took too long: start over.
                    Err(OpenError::Expired { .. }) => 0,
                    Err(refused) => {
                        // Details for the log only; the client gets one generic answer.
                        eprintln!("mrtr_server: {refused}");
                        return Err(error(INVALID_PARAMS, "invalid requestState".to_owned()));
                    }
                },
            };

            // Only read answers whose state verified: the state says they were asked for.
            let answer = if attempt == 0 {
                None
            } else {
                Responses::of(params)
                    .elicited::<Reservation>(KEY)
                    .map_err(|e| e.to_jsonrpc_error())?
            };
            match answer {
                Some(ElicitOutcome::Accepted(reservation)) => {
                    let terrace = if reservation.terrace == Some(true) {
                        ", on the terrace"
                    } else {
                        ""
                    };
                    Ok(text_result(
                        format!(
                            "Booked a table for {} at {restaurant} on {}{terrace}.",
                            reservation.guests, reservation.date
                        ),
                        false,
                    ))
                }
                Some(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => {
                    Ok(text_result("No table was booked.".to_owned(), false))
                }
                // Not asked yet, or not answered: ask (again).
                None => {
                    let state = self
                        .sealer
                        .seal_json(&json!({ "attempt": attempt + 1 }), &context, now)
                        .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                    let result = InputRequired::for_request(params)
                        .elicit::<Reservation>(KEY, format!("Book a table at {restaurant}"))
                        .and_then(|asking| asking.state(state).build())
                        .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                    Ok(ServerResult::InputRequired(Box::new(result)))
                }
            }
        }
    }

    fn text_result(text: String, is_error: bool) -> ServerResult {
        ServerResult::CallTool(Box::new(CallToolResult {
            meta: None,
            content: vec![ContentBlock::TextContent(Box::new(TextContent {
                meta: None,
                annotations: None,
                text,
                extra: Map::new(),
            }))],
            is_error: is_error.then_some(true),
            result_type: "complete".to_owned(),
            structured_content: None,
            extra: Map::new(),
        }))
    }

    fn error(code: i64, message: String) -> Error {
        Error {
            code,
            data: None,
            message,
            extra: Map::new(),
        }
    }

    fn error_message(id: RequestId, error: Error) -> ServerMessage {
        ServerMessage::Error {
            id: Some(id),
            error,
        }
    }

    /// The key from `MRTR_STATE_KEY` (64 hex digits), else a random one.
    pub fn key_from_env() -> Result<[u8; 32], String> {
        let Ok(hex) = std::env::var("MRTR_STATE_KEY") else {
            return SealingKey::random_secret().map_err(|e| e.to_string());
        };
        let digits: Vec<u8> = hex
            .trim()
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or("MRTR_STATE_KEY: not hexadecimal")?;
        if digits.len() != 64 {
            return Err("MRTR_STATE_KEY: expected 64 hex digits".to_owned());
        }
        let mut key = [0u8; 32];
        for (byte, pair) in key.iter_mut().zip(digits.chunks(2)) {
            *byte = pair[0] << 4 | pair[1];
        }
        Ok(key)
    }

    /// Serves stdin until it closes, one fresh `Server` per line.
    pub fn run() -> Result<(), String> {
        use std::io::{BufRead, Write};

        let key = key_from_env()?;
        let stdin = std::io::stdin();
        let mut stdout = std::io::stdout().lock();
        for line in stdin.lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            if line.trim().is_empty() {
                continue;
            }
            // A new instance for every message: the flow needs no memory between requests.
            if let Some(reply) = Server::new(key).handle_line(&line, SystemTime::now()) {
                writeln!(stdout, "{reply}").map_err(|e| e.to_string())?;
                stdout.flush().map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

#[cfg(any(feature = "seal", not(feature = "v2026_07_28")))]
fn main() {
    if let Err(error) = server::run() {
        eprintln!("mrtr_server: {error}");
        std::process::exit(1);
    }
}

#[cfg(not(any(feature = "seal", not(feature = "v2026_07_28"))))]
fn main() {
    eprintln!("mrtr_server needs the `seal` feature: cargo run -p mcp-schema --features seal --example mrtr_server");
    std::process::exit(2);
}
