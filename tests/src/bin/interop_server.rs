//! An MCP server built on `mcp-typed` alone: newline-delimited JSON-RPC over stdio, revision
//! 2025-11-25. Every line is decoded with `v2025_11_25::ClientMessage` and every answer is a
//! `ServerMessage`. `tests/tests/interop.rs` drives it with the official TypeScript SDK as the
//! client (`tests/interop/sdk_client.mjs`) and with malformed lines.
//!
//! ```text
//! cargo run -p mcp-typed-tests --bin interop-server
//! ```
//!
//! Tools:
//!
//! - `register_contact` asks for a `Contact` form (`#[derive(Elicit)]`) with
//!   `elicitation/create`, validates the answer in compiled code, and reports accept, decline
//!   and cancel as three distinct results (`structuredContent.outcome`); an answer that breaks
//!   the form is a tool error naming each JSON pointer and keyword.
//! - `connect_calendar` needs an out-of-band step: the first call is answered with
//!   `URLElicitationRequiredError` (-32042) carrying a URL-mode elicitation and its
//!   `elicitationId`; the (simulated) browser flow completes shortly after, the server sends
//!   `notifications/elicitation/complete`, and a retry succeeds.
//! - `link_account` sends a URL-mode `elicitation/create` request; after an accept it waits for
//!   the (simulated) out-of-band flow, sends `notifications/elicitation/complete`, then answers.
//!
//! Capabilities are honoured: a client that did not declare URL mode (`elicitation: {}` or
//! `{form: {}}`) is never sent a URL-mode elicitation, not even inside a -32042 error; its call
//! is refused with -32602 instead, the code the spec gives a client for an undeclared mode.
//! Malformed lines are answered with the JSON-RPC error `DecodeError` gives (-32700, -32600,
//! -32601, -32602, with the request id when one could be read); a malformed notification or
//! response is never answered, as JSON-RPC requires (`DecodeError::to_reply`), and an answer to
//! one of our elicitations that cannot be read fails the tool call waiting for it.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use mcp_typed::elicit::{ElicitOutcome, ValidationErrors};
use mcp_typed::jsonrpc::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use mcp_typed::v2025_11_25::{
    error_codes, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientMessage,
    ClientNotification, ClientRequest, ClientResult, ContentBlock, ElicitRequestParams,
    ElicitRequestUrlParams, ElicitationCompleteNotificationParams, Error, InitializeRequestParams,
    InitializeResult, ListToolsResult, RequestId, ServerMessage, ServerNotification, ServerRequest,
    ServerResult, TextContent, Tool, UrlElicitationRequiredErrorErrorData, PROTOCOL_VERSION,
};
use mcp_typed::{Elicit, RawObject};
use mcp_typed_tests::peers::{error, from_json};
use serde_json::{json, Map, Value};

/// A single select with titles (`oneOf` of `const`/`title`).
#[derive(Debug, Clone, Copy, PartialEq, Elicit)]
#[serde(rename_all = "lowercase")]
enum Plan {
    #[elicit(title = "Free tier")]
    Free,
    #[elicit(title = "Pro tier")]
    Pro,
    #[elicit(title = "Team (5+ seats)")]
    Team,
}

impl Plan {
    fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Team => "team",
        }
    }
}

/// The options of a multi select (`items.enum`).
#[derive(Debug, Clone, Copy, PartialEq, Elicit)]
#[serde(rename_all = "lowercase")]
enum Topic {
    Releases,
    Security,
    Events,
}

impl Topic {
    fn as_str(self) -> &'static str {
        match self {
            Topic::Releases => "releases",
            Topic::Security => "security",
            Topic::Events => "events",
        }
    }
}

/// The form of `register_contact`.
#[derive(Debug, Elicit)]
struct Contact {
    /// Your full name
    #[elicit(min_length = 1, max_length = 80)]
    name: String,
    /// Where we can reach you
    #[elicit(format = "email")]
    email: String,
    /// Your age in years
    #[elicit(minimum = 18, maximum = 130)]
    age: u8,
    /// Your plan
    #[elicit(title = "Plan", default = "free")]
    plan: Plan,
    /// What you want to hear about
    #[elicit(title = "Topics", min_items = 1, max_items = 2, default = ["releases", "security"])]
    topics: Vec<Topic>,
    /// Your company, if any
    #[elicit(max_length = 80)]
    company: Option<String>,
}

const REGISTER_CONTACT: &str = "register_contact";
const CONNECT_CALENDAR: &str = "connect_calendar";
const LINK_ACCOUNT: &str = "link_account";
/// How long the simulated out-of-band (browser) step of a URL-mode elicitation takes.
const OUT_OF_BAND: Duration = Duration::from_millis(100);

/// A request this server sent and is waiting for the answer to.
#[derive(Debug)]
enum Waiting {
    /// The `Contact` form of a `register_contact` call.
    Contact { call: RequestId },
    /// The URL-mode elicitation of a `link_account` call.
    Link {
        call: RequestId,
        elicitation_id: String,
    },
}

/// Something the server does later, on its own.
#[derive(Debug)]
enum Later {
    /// The user finished the out-of-band step of `elicitation_id`; answer `call` if there is one.
    Complete {
        elicitation_id: String,
        call: Option<RequestId>,
    },
}

/// The state of the calendar connection of the (single) user of this stdio server.
#[derive(Debug, Default)]
enum Calendar {
    #[default]
    NotConnected,
    /// Waiting for the out-of-band step of this elicitation.
    Pending(String),
    /// Done, through this elicitation.
    Connected(String),
}

#[derive(Debug, Default)]
struct Server {
    capabilities: Option<ClientCapabilities>,
    next_id: u64,
    /// By the id of our request.
    waiting: HashMap<RequestId, Waiting>,
    later: Vec<(Instant, Later)>,
    calendar: Calendar,
    /// Set when stdout is closed: stop.
    closed: bool,
}

fn main() {
    // A reader thread, so that scheduled work (the end of an out-of-band step) runs while the
    // client is silent. It reads bytes: a line that is not UTF-8 is answered (-32700), it does
    // not end the input.
    let (lines_tx, lines) = mpsc::channel::<Result<String, Vec<u8>>>();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut bytes = Vec::new();
            match stdin.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                bytes.pop();
            }
            if lines_tx
                .send(String::from_utf8(bytes).map_err(|e| e.into_bytes()))
                .is_err()
            {
                break;
            }
        }
    });
    let mut server = Server::default();
    while !server.closed {
        let timeout = server
            .later
            .iter()
            .map(|(at, _)| at.saturating_duration_since(Instant::now()))
            .min()
            .unwrap_or(Duration::from_secs(3600));
        match lines.recv_timeout(timeout) {
            Ok(Ok(line)) if line.trim().is_empty() => {}
            Ok(Ok(line)) => server.handle_line(&line),
            Ok(Err(_)) => server.send_value(&json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": PARSE_ERROR, "message": "not JSON: the line is not UTF-8"},
            })),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        server.run_due();
    }
}

impl Server {
    fn send(&mut self, message: &ServerMessage) {
        // Written straight from the typed message, so a form's fields keep their order.
        let text = match serde_json::to_string(message) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("interop-server: cannot encode a message: {error}");
                return;
            }
        };
        self.write_line(text);
    }

    fn send_value(&mut self, value: &Value) {
        self.write_line(value);
    }

    /// Writes one message line; a closed stdout ends the session.
    fn write_line(&mut self, line: impl std::fmt::Display) {
        let mut stdout = std::io::stdout().lock();
        if writeln!(stdout, "{line}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            self.closed = true;
        }
    }

    fn handle_line(&mut self, line: &str) {
        match line.parse::<ClientMessage>() {
            Ok(message) => self.handle(message),
            Err(error) => {
                eprintln!("interop-server: refused a line: {error}");
                // JSON-RPC: a notification or a response is never answered, not even when it
                // is invalid.
                if let Some(reply) = error.to_reply() {
                    self.send_value(&reply);
                } else if error.is_response() {
                    // An answer to one of our requests that cannot be read: fail the tool call
                    // that waits for it rather than wait forever.
                    let id = error
                        .id()
                        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
                    if let Some(id) = id {
                        let unreadable = error_with_path(
                            error.code(),
                            format!("unreadable answer: {}", error.message()),
                            error.path(),
                        );
                        self.answer(id, Err(unreadable));
                    }
                }
            }
        }
    }

    fn handle(&mut self, message: ClientMessage) {
        match message {
            ClientMessage::Request { id, request } => match self.request(&id, request) {
                Ok(Some(result)) => self.send(&ServerMessage::Response { id, result }),
                Ok(None) => {} // Answered later.
                Err(error) => self.send(&ServerMessage::Error {
                    id: Some(id),
                    error,
                }),
            },
            ClientMessage::Notification(ClientNotification::Cancelled(params)) => {
                // The client gave up on a call: forget the requests made on its behalf.
                if let Some(cancelled) = &params.request_id {
                    self.waiting.retain(|_, waiting| match waiting {
                        Waiting::Contact { call } | Waiting::Link { call, .. } => call != cancelled,
                    });
                }
            }
            ClientMessage::Notification(_) => {}
            ClientMessage::Response { id, result } => self.answer(id, Ok(result)),
            ClientMessage::Error {
                id: Some(id),
                error,
            } => self.answer(id, Err(error)),
            ClientMessage::Error { id: None, error } => {
                eprintln!(
                    "interop-server: the client reported an error: {}",
                    error.message
                );
            }
        }
    }

    /// Serves a request: `Ok(None)` when the answer comes later.
    fn request(
        &mut self,
        id: &RequestId,
        request: ClientRequest,
    ) -> Result<Option<ServerResult>, Error> {
        if !matches!(
            request,
            ClientRequest::Initialize(_) | ClientRequest::Ping(_)
        ) && self.capabilities.is_none()
        {
            return Err(error(
                INVALID_REQUEST,
                "the first request must be `initialize`",
            ));
        }
        match request {
            ClientRequest::Initialize(params) => Ok(Some(self.initialize(*params))),
            ClientRequest::Ping(_) => Ok(Some(ServerResult::Empty(Default::default()))),
            ClientRequest::ListTools(_) => Ok(Some(ServerResult::ListTools(ListToolsResult {
                meta: None,
                next_cursor: None,
                tools: tools(),
                extra: Map::new(),
            }))),
            ClientRequest::CallTool(params) => self.call_tool(id, *params),
            // This server declares tools only.
            other => Err(error(
                METHOD_NOT_FOUND,
                format!(
                    "method not found: `{}` (this server offers tools only)",
                    other.method()
                ),
            )),
        }
    }

    fn initialize(&mut self, params: InitializeRequestParams) -> ServerResult {
        self.capabilities = Some(params.capabilities);
        // One revision is spoken; the client disconnects if it cannot speak it.
        let result: InitializeResult = from_json(json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": { "tools": { "listChanged": false } },
            "serverInfo": {
                "name": "mcp-typed-interop-server",
                "title": "mcp-typed interop example",
                "version": env!("CARGO_PKG_VERSION"),
            },
            "instructions": "Tools that elicit a form, require a URL-mode elicitation, or send one.",
        }));
        ServerResult::Initialize(Box::new(result))
    }

    fn elicitation_modes(&self) -> (bool, bool) {
        match self
            .capabilities
            .as_ref()
            .and_then(|c| c.elicitation.as_ref())
        {
            Some(elicitation) => (elicitation.supports_form(), elicitation.supports_url()),
            None => (false, false),
        }
    }

    fn call_tool(
        &mut self,
        id: &RequestId,
        params: CallToolRequestParams,
    ) -> Result<Option<ServerResult>, Error> {
        let (form, url) = self.elicitation_modes();
        let refuse = |mode: &str| {
            Err(error(
                INVALID_PARAMS,
                format!(
                    "`{}` needs {mode}-mode elicitation, which the client did not declare \
                     (capabilities.elicitation.{mode})",
                    params.name
                ),
            ))
        };
        match params.name.as_str() {
            REGISTER_CONTACT if !form => refuse("form"),
            REGISTER_CONTACT => {
                let form: ElicitRequestParams =
                    Contact::form_params("Please register your contact details")
                        .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                let request_id = self.ask(ServerRequest::Elicit(Box::new(form)));
                self.waiting
                    .insert(request_id, Waiting::Contact { call: id.clone() });
                Ok(None)
            }
            CONNECT_CALENDAR if !url => refuse("url"),
            CONNECT_CALENDAR => match &self.calendar {
                Calendar::Connected(elicitation_id) => Ok(Some(text_result(
                    format!("Calendar connected (elicitation {elicitation_id})."),
                    false,
                    None,
                ))),
                Calendar::Pending(elicitation_id) => {
                    // Still required: the same elicitation, not a new one.
                    Err(url_required(elicitation_id))
                }
                Calendar::NotConnected => {
                    let elicitation_id = self.new_elicitation_id();
                    self.calendar = Calendar::Pending(elicitation_id.clone());
                    self.schedule(Later::Complete {
                        elicitation_id: elicitation_id.clone(),
                        call: None,
                    });
                    Err(url_required(&elicitation_id))
                }
            },
            LINK_ACCOUNT if !url => refuse("url"),
            LINK_ACCOUNT => {
                let elicitation_id = self.new_elicitation_id();
                let params = url_params(
                    &elicitation_id,
                    "Sign in to Example Co to link your account",
                    "link",
                );
                let request_id = self.ask(ServerRequest::Elicit(Box::new(
                    ElicitRequestParams::Url(Box::new(params)),
                )));
                self.waiting.insert(
                    request_id,
                    Waiting::Link {
                        call: id.clone(),
                        elicitation_id,
                    },
                );
                Ok(None)
            }
            // The spec's example for an unknown tool: a protocol error, -32602.
            other => Err(error(INVALID_PARAMS, format!("unknown tool: `{other}`"))),
        }
    }

    /// Sends a request to the client; returns its id.
    fn ask(&mut self, request: ServerRequest) -> RequestId {
        self.next_id += 1;
        let id = RequestId::String(format!("srv-{}", self.next_id));
        self.send(&ServerMessage::Request {
            id: id.clone(),
            request,
        });
        id
    }

    fn new_elicitation_id(&mut self) -> String {
        self.next_id += 1;
        format!("elicitation-{}-{}", std::process::id(), self.next_id)
    }

    fn schedule(&mut self, later: Later) {
        self.later.push((Instant::now() + OUT_OF_BAND, later));
    }

    fn run_due(&mut self) {
        let now = Instant::now();
        let (due, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.later)
            .into_iter()
            .partition(|(at, _)| *at <= now);
        self.later = rest;
        for (_, later) in due {
            match later {
                Later::Complete {
                    elicitation_id,
                    call,
                } => {
                    if matches!(&self.calendar, Calendar::Pending(id) if *id == elicitation_id) {
                        self.calendar = Calendar::Connected(elicitation_id.clone());
                    }
                    self.send(&ServerMessage::Notification(
                        ServerNotification::ElicitationComplete(
                            ElicitationCompleteNotificationParams {
                                elicitation_id: elicitation_id.clone(),
                                extra: Map::new(),
                            },
                        ),
                    ));
                    if let Some(call) = call {
                        let result = text_result(
                            format!("Account linked (elicitation {elicitation_id})."),
                            false,
                            None,
                        );
                        self.send(&ServerMessage::Response { id: call, result });
                    }
                }
            }
        }
    }

    /// The client answered one of our requests.
    fn answer(&mut self, id: RequestId, answer: Result<ClientResult, Error>) {
        let Some(waiting) = self.waiting.remove(&id) else {
            eprintln!("interop-server: an answer to no pending request ({id:?})");
            return;
        };
        let (call, reply) = match (waiting, answer) {
            (Waiting::Contact { call } | Waiting::Link { call, .. }, Err(refused)) => (
                call,
                // The client refused the elicitation request itself: the tool fails.
                Some(text_result(
                    format!(
                        "The elicitation failed ({}): {}{}",
                        refused.code,
                        refused.message,
                        refused
                            .data
                            .as_ref()
                            .and_then(|d| d["path"].as_str())
                            .map(|p| format!(" (at {p})"))
                            .unwrap_or_default(),
                    ),
                    true,
                    None,
                )),
            ),
            (Waiting::Contact { call }, Ok(ClientResult::Elicit(result))) => {
                (call, Some(contact_result(ElicitOutcome::try_from(&result))))
            }
            (
                Waiting::Link {
                    call,
                    elicitation_id,
                },
                Ok(ClientResult::Elicit(result)),
            ) => {
                use mcp_typed::v2025_11_25::ElicitResultAction as A;
                match result.action {
                    // The user agreed to open the URL; the tool finishes when the out-of-band
                    // step does.
                    A::Accept => {
                        self.schedule(Later::Complete {
                            elicitation_id,
                            call: Some(call),
                        });
                        return;
                    }
                    A::Decline => (
                        call,
                        Some(text_result(
                            "The user declined to open the link.".into(),
                            false,
                            None,
                        )),
                    ),
                    A::Cancel => (
                        call,
                        Some(text_result(
                            "The user dismissed the link.".into(),
                            false,
                            None,
                        )),
                    ),
                }
            }
            (Waiting::Contact { call } | Waiting::Link { call, .. }, Ok(other)) => (
                call,
                Some(text_result(
                    format!("Expected an elicitation result, got {other:?}"),
                    true,
                    None,
                )),
            ),
        };
        if let Some(result) = reply {
            self.send(&ServerMessage::Response { id: call, result });
        }
    }
}

/// The result of `register_contact` for each outcome.
fn contact_result(outcome: Result<ElicitOutcome<Contact>, ValidationErrors>) -> ServerResult {
    match outcome {
        Ok(ElicitOutcome::Accepted(contact)) => {
            let topics: Vec<&str> = contact.topics.iter().map(|t| t.as_str()).collect();
            let text = format!(
                "Registered {} <{}>, age {}, plan {}, topics {}{}.",
                contact.name,
                contact.email,
                contact.age,
                contact.plan.as_str(),
                topics.join(", "),
                contact
                    .company
                    .as_deref()
                    .map(|c| format!(", company {c}"))
                    .unwrap_or_default(),
            );
            let mut structured = json!({
                "outcome": "accepted",
                "contact": {
                    "name": contact.name,
                    "email": contact.email,
                    "age": contact.age,
                    "plan": contact.plan.as_str(),
                    "topics": topics,
                },
            });
            if let Some(company) = &contact.company {
                structured["contact"]["company"] = json!(company);
            }
            text_result(text, false, structured.as_object().cloned())
        }
        Ok(ElicitOutcome::Declined) => text_result(
            "The user declined to register.".into(),
            false,
            json!({"outcome": "declined"}).as_object().cloned(),
        ),
        Ok(ElicitOutcome::Cancelled) => text_result(
            "The user cancelled the registration.".into(),
            false,
            json!({"outcome": "cancelled"}).as_object().cloned(),
        ),
        // A tool error (not a protocol error): the model sees what was wrong, field by field.
        Err(errors) => text_result(format!("Invalid contact details: {errors}"), true, None),
    }
}

fn tools() -> Vec<Tool> {
    let no_arguments = json!({"type": "object", "properties": {}});
    vec![
        from_json(json!({
            "name": REGISTER_CONTACT,
            "title": "Register contact details",
            "description": "Asks the user for contact details with a form (elicitation).",
            "inputSchema": no_arguments,
            "outputSchema": {
                "type": "object",
                "properties": {
                    "outcome": {"type": "string", "enum": ["accepted", "declined", "cancelled"]},
                    "contact": {"type": "object"},
                },
                "required": ["outcome"],
            },
        })),
        from_json(json!({
            "name": CONNECT_CALENDAR,
            "title": "Connect a calendar",
            "description": "Needs a browser step first: answers -32042 (URL elicitation required).",
            "inputSchema": no_arguments,
        })),
        from_json(json!({
            "name": LINK_ACCOUNT,
            "title": "Link an account",
            "description": "Sends a URL-mode elicitation and finishes when the browser step does.",
            "inputSchema": no_arguments,
        })),
    ]
}

fn url_params(elicitation_id: &str, message: &str, path: &str) -> ElicitRequestUrlParams {
    ElicitRequestUrlParams {
        meta: None,
        elicitation_id: elicitation_id.to_owned(),
        message: message.to_owned(),
        task: None,
        url: format!("https://mcp.example.com/{path}?elicitationId={elicitation_id}"),
        extra: Map::new(),
    }
}

/// `URLElicitationRequiredError` for the calendar's elicitation.
fn url_required(elicitation_id: &str) -> Error {
    let data = UrlElicitationRequiredErrorErrorData {
        elicitations: vec![url_params(
            elicitation_id,
            "Authorize access to your calendar",
            "connect",
        )],
        extra: Map::new(),
    };
    Error {
        code: error_codes::URL_ELICITATION_REQUIRED_ERROR,
        message: "This request requires authorizing calendar access in a browser.".into(),
        data: serde_json::to_value(data).ok(),
        extra: Map::new(),
    }
}

fn text_result(
    text: String,
    is_error: bool,
    structured_content: Option<Map<String, Value>>,
) -> ServerResult {
    ServerResult::CallTool(Box::new(CallToolResult {
        meta: None,
        content: vec![ContentBlock::TextContent(Box::new(TextContent {
            meta: None,
            annotations: None,
            text,
            extra: Map::new(),
        }))],
        is_error: is_error.then_some(true),
        structured_content: structured_content.map(RawObject::from),
        extra: Map::new(),
    }))
}

fn error_with_path(code: i64, message: String, path: Option<&str>) -> Error {
    Error {
        data: path.map(|path| json!({ "path": path })),
        ..error(code, message)
    }
}
