//! A stdio MCP server that speaks both protocol eras with one set of tool handlers.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin server
//! ```
//!
//! It reads one JSON-RPC message per line on stdin and writes its messages to stdout.
//!
//! - **2025-11-25 and older**: the client sends `initialize` first. A tool that needs input
//!   sends live requests (`elicitation/create`, `sampling/createMessage`, `roots/list`) in the
//!   middle of the call, and answers the `tools/call` once it has their responses.
//! - **2026-07-28**: no session. Every request carries the protocol version, the client's info
//!   and capabilities in `_meta`; `server/discover` tells what the server is. A tool that needs
//!   input answers with an `InputRequiredResult` (its requests under keys, and a sealed
//!   `requestState` holding the answers so far), and the client retries the call with the
//!   answers. Any server instance holding the key can serve the retry.
//!
//! The tools are written once, for both: a handler gets the answers it has so far and either
//! finishes or says what else it needs ([`Step`]). Run again with more answers, it goes on.
//!
//! | tool | needs | result |
//! |---|---|---|
//! | `add` | nothing | the sum of `a` and `b` |
//! | `signup` | a form with every kind of field (`#[derive(Elicit)]`) | the values entered |
//! | `summarize` | sampling | the client's model's reply |
//! | `list_roots` | roots | the client's roots |
//! | `connect_account` | URL-mode elicitation | whether the user went to the URL |
//!
//! A request kind the client did not declare is never sent: the tool answers with an error
//! result saying what is missing. State sealed by `MRTR_STATE_KEY` (64 hex digits; a random key
//! per process when unset).

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::{Duration, SystemTime};

use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND};
use mcp_typed::mrtr::seal::{OpenError, SealContext, SealingKey, StateSealer};
use mcp_typed::mrtr::{InputRequired, Responses, RetryParams};
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28 as modern;
use mcp_typed::{Elicit, RawObject};
use serde::Deserialize;
use serde_json::{json, Map, Value};

const SERVER_NAME: &str = "mcp-typed-example-server";
/// What a 2025-era client may ask for in `initialize`; anything else gets the newest of these.
const LEGACY_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// How long a 2026-07-28 client has to answer before its state expires.
const STATE_TTL: Duration = Duration::from_secs(600);
/// A stdio server has no authenticated user; a server behind HTTP authentication would bind the
/// state to the authenticated subject of each request instead.
const PRINCIPAL: &str = "stdio:local-user";

// ---------------------------------------------------------------------------------------------
// The tools, written once for both eras.

/// The form of `signup`: one field of every kind a form can have.
#[derive(Debug, Elicit)]
struct Signup {
    /// Your full name
    #[elicit(min_length = 1, max_length = 100)]
    name: String,
    /// Where we can reach you
    #[elicit(format = "email")]
    email: String,
    /// Age in years
    #[elicit(minimum = 13, maximum = 150)]
    age: u8,
    /// How much you want to donate, in euros
    #[elicit(minimum = 0, default = 2.5)]
    donation: f64,
    /// Your height in metres
    #[elicit(minimum = 0.5, maximum = 2.5)]
    height: f64,
    /// Subscribe to the newsletter
    #[elicit(default = false)]
    newsletter: bool,
    /// Your plan
    plan: Plan,
    /// Topics you care about
    #[elicit(min_items = 1)]
    topics: Vec<Topic>,
    /// A nickname, if you have one
    nickname: Option<String>,
}

#[derive(Debug, Clone, Copy, Elicit)]
enum Plan {
    #[elicit(title = "Free tier")]
    Free,
    #[elicit(title = "Pro tier")]
    Pro,
}

#[derive(Debug, Clone, Copy, Elicit)]
enum Topic {
    Rust,
    Protocols,
    Cooking,
}

/// The tools as `tools/list` shows them (the same JSON in both eras).
fn tool_list() -> Value {
    json!([
        {"name": "add", "description": "Adds two integers.",
         "inputSchema": {"type": "object", "properties": {
             "a": {"type": "integer", "default": 2}, "b": {"type": "integer", "default": 3}},
             "required": ["a", "b"]}},
        {"name": "signup", "description": "Signs you up; asks for your details with a form.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "summarize", "description": "Summarizes a text with the client's model (sampling).",
         "inputSchema": {"type": "object", "properties": {
             "text": {"type": "string", "default": "MCP connects models to tools."}},
             "required": ["text"]}},
        {"name": "list_roots", "description": "Lists the client's roots.",
         "inputSchema": {"type": "object", "properties": {}}},
        {"name": "connect_account", "description": "Connects an account through a page of ours (URL-mode elicitation).",
         "inputSchema": {"type": "object", "properties": {}}}
    ])
}

/// What a tool handler does with the answers it has: finish, or ask for more.
enum Step<'c> {
    /// The text of the result, and whether it reports a failure of the tool.
    Done { text: String, is_error: bool },
    /// The input requests it still needs answered.
    Ask(Box<InputRequired<'c>>),
}

fn done(text: String) -> Result<Step<'static>, modern::Error> {
    Ok(Step::Done {
        text,
        is_error: false,
    })
}

/// Runs tool `name`. `answers` holds every answer given so far, under the keys the tool asked
/// with; `ask` starts an input request, checked against the client's capabilities.
fn run_tool<'c>(
    name: &str,
    arguments: Option<&RawObject>,
    answers: &Responses<'_>,
    ask: InputRequired<'c>,
) -> Result<Step<'c>, modern::Error> {
    // An answer that breaks the form, or is of the wrong kind, is the client's error: -32602.
    let invalid = |e: mcp_typed::mrtr::ResponseError| e.to_jsonrpc_error();
    // A request kind the client cannot serve ends the call with an error result saying so.
    let asking = |result: Result<InputRequired<'c>, mcp_typed::mrtr::AskError>| match result {
        Ok(ask) => Ok(Step::Ask(Box::new(ask))),
        Err(refused) => Ok(Step::Done {
            text: format!("{name}: cannot ask: {refused}"),
            is_error: true,
        }),
    };
    match name {
        "add" => {
            #[derive(Deserialize)]
            struct Add {
                a: i64,
                b: i64,
            }
            let Add { a, b } = decode_arguments(arguments)?;
            done(format!("add: {a} + {b} = {}", a.saturating_add(b)))
        }
        "signup" => match answers.elicited::<Signup>("signup").map_err(invalid)? {
            Some(ElicitOutcome::Accepted(form)) => done(format!(
                "signup: name={}, email={}, age={}, donation={}, height={}, newsletter={}, plan={:?}, topics={:?}, nickname={}",
                form.name,
                form.email,
                form.age,
                form.donation,
                form.height,
                form.newsletter,
                form.plan,
                form.topics,
                form.nickname.as_deref().unwrap_or("-"),
            )),
            Some(ElicitOutcome::Declined) => done("signup: declined".into()),
            Some(ElicitOutcome::Cancelled) => done("signup: cancelled".into()),
            None => asking(ask.elicit::<Signup>("signup", "Please sign up")),
        },
        "summarize" => {
            #[derive(Deserialize)]
            struct Summarize {
                text: String,
            }
            let Summarize { text } = decode_arguments(arguments)?;
            match answers.sampled("summary").map_err(invalid)? {
                Some(reply) => done(format!("summarize: {}", content_text(&reply.content))),
                None => {
                    let params: modern::CreateMessageRequestParams = serde_json::from_value(json!({
                        "messages": [{"role": "user", "content": {"type": "text",
                            "text": format!("Summarize in one sentence: {text}")}}],
                        "maxTokens": 100
                    }))
                    .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                    asking(ask.sample("summary", params))
                }
            }
        }
        "list_roots" => match answers.roots("roots").map_err(invalid)? {
            Some(roots) => {
                let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
                done(format!("list_roots: {}", uris.join(", ")))
            }
            None => asking(ask.list_roots("roots")),
        },
        "connect_account" => match answers.url_elicited("connect").map_err(invalid)? {
            Some(ElicitOutcome::Accepted(())) => done("connect_account: accepted".into()),
            Some(ElicitOutcome::Declined) => done("connect_account: declined".into()),
            Some(ElicitOutcome::Cancelled) => done("connect_account: cancelled".into()),
            None => asking(ask.elicit_url(
                "connect",
                "Connect your account on our site",
                "https://example.com/connect?session=demo",
            )),
        },
        other => Ok(Step::Done {
            text: format!("unknown tool `{other}`"),
            is_error: true,
        }),
    }
}

fn decode_arguments<T: serde::de::DeserializeOwned>(
    arguments: Option<&RawObject>,
) -> Result<T, modern::Error> {
    let empty = RawObject::default();
    arguments
        .unwrap_or(&empty)
        .decode()
        .map_err(|e| error(INVALID_PARAMS, format!("invalid arguments: {e}")))
}

fn content_text(content: &impl serde::Serialize) -> String {
    // A sampling reply holds one content block or several; the text blocks are what we show.
    let value = serde_json::to_value(content).unwrap_or_default();
    let blocks = match value {
        Value::Array(blocks) => blocks,
        block => vec![block],
    };
    let texts: Vec<&str> = blocks.iter().filter_map(|b| b["text"].as_str()).collect();
    texts.join(" ")
}

fn error(code: i64, message: String) -> modern::Error {
    modern::Error {
        code,
        data: None,
        message,
        extra: Map::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// The connection: which era, and each era's way of asking.

/// A tool call of the 2025 era waiting for the responses to its live requests.
struct PendingCall {
    /// The id of the client's `tools/call`.
    id: legacy::RequestId,
    params: Box<legacy::CallToolRequestParams>,
    /// The answers so far, by key.
    answers: Map<String, Value>,
    /// Our live requests not answered yet: their id → their key.
    waiting: HashMap<i64, String>,
}

#[derive(Default)]
struct Legacy {
    /// The capabilities from `initialize`, in the 2026 model the handlers check against.
    capabilities: modern::ClientCapabilities,
    next_id: i64,
    pending: Vec<PendingCall>,
}

enum Era {
    /// Nothing read yet: the first request decides.
    Unknown,
    Legacy(Box<Legacy>),
    Modern,
}

struct Server {
    era: Era,
    sealer: StateSealer,
    out: std::io::StdoutLock<'static>,
}

impl Server {
    fn send(&mut self, message: &impl serde::Serialize) -> std::io::Result<()> {
        // Written straight from the typed message (a `Value` would sort the members): a form's
        // fields keep their order.
        let line = serde_json::to_string(message).map_err(std::io::Error::other)?;
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn handle_line(&mut self, line: &str) -> std::io::Result<()> {
        if matches!(self.era, Era::Unknown) {
            let first = mcp_typed::jsonrpc::RawMessage::parse(line).ok();
            let method = first.as_ref().and_then(|m| m.method.as_deref());
            self.era = match method {
                Some("initialize") => Era::Legacy(Box::default()),
                Some(_) => Era::Modern,
                // A response or junk first: answer it in the current era's terms.
                None => Era::Modern,
            };
        }
        match self.era {
            Era::Legacy(_) => self.legacy_line(line),
            _ => self.modern_line(line),
        }
    }

    // --- 2026-07-28 -------------------------------------------------------------------------

    fn modern_line(&mut self, line: &str) -> std::io::Result<()> {
        use modern::{ClientMessage, ClientRequest, ServerMessage, ServerResult};
        let message = match line.parse::<ClientMessage>() {
            Ok(message) => message,
            Err(refused) => return self.refuse(refused),
        };
        let ClientMessage::Request { id, request } = message else {
            return Ok(()); // notifications need no answer
        };
        let result = match request {
            ClientRequest::Discover(_) => Ok(ServerResult::Discover(Box::new(discover()))),
            ClientRequest::ListTools(_) => typed(json!({"tools": tool_list(), "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}))
                .map(|r| ServerResult::ListTools(Box::new(r))),
            ClientRequest::CallTool(params) => self.modern_call(&params),
            other => Err(error(METHOD_NOT_FOUND, format!("`{}` is not served here", other.method()))),
        };
        match result {
            Ok(result) => self.send(&ServerMessage::Response { id, result }),
            Err(error) => self.send(&ServerMessage::Error {
                id: Some(id),
                error,
            }),
        }
    }

    fn modern_call(
        &mut self,
        params: &modern::CallToolRequestParams,
    ) -> Result<modern::ServerResult, modern::Error> {
        let context = SealContext::for_request(PRINCIPAL, params, STATE_TTL)
            .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
        // The answers of earlier rounds travel in the sealed state; only a state we sealed, for
        // this principal and these arguments, is believed.
        let mut answers = match params.request_state() {
            None => Map::new(),
            Some(token) => {
                match self.sealer.open_json::<Map<String, Value>>(
                    token,
                    &context,
                    SystemTime::now(),
                ) {
                    Ok(answers) => answers,
                    // An honest client that took too long: start over.
                    Err(OpenError::Expired { .. }) => Map::new(),
                    Err(refused) => {
                        eprintln!("{SERVER_NAME}: refused requestState: {refused}");
                        return Err(error(INVALID_PARAMS, "invalid requestState".into()));
                    }
                }
            }
        };
        if let Some(responses) = &params.input_responses {
            for (key, answer) in responses {
                let answer = serde_json::to_value(answer)
                    .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                answers.insert(key.clone(), answer);
            }
        }
        let answers_value = Value::Object(answers);
        let responses =
            Responses::from_json(Some(&answers_value)).map_err(|e| e.to_jsonrpc_error())?;
        let ask = InputRequired::for_request(params);
        match run_tool(&params.name, params.arguments.as_ref(), &responses, ask)? {
            Step::Done { text, is_error } => typed(tool_result(&text, is_error, true))
                .map(|r| modern::ServerResult::CallTool(Box::new(r))),
            Step::Ask(ask) => {
                let state = self
                    .sealer
                    .seal_json(&answers_value, &context, SystemTime::now())
                    .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                let result = ask
                    .state(state)
                    .build()
                    .map_err(|e| error(INVALID_PARAMS, e.to_string()))?;
                Ok(modern::ServerResult::InputRequired(Box::new(result)))
            }
        }
    }

    // --- 2025-11-25 and older ---------------------------------------------------------------

    fn legacy_line(&mut self, line: &str) -> std::io::Result<()> {
        use legacy::{ClientMessage, ClientRequest, ServerMessage, ServerResult};
        let message = match line.parse::<ClientMessage>() {
            Ok(message) => message,
            Err(refused) => return self.refuse(refused),
        };
        match message {
            ClientMessage::Request { id, request } => {
                let result = match request {
                    ClientRequest::Initialize(params) => {
                        if let Era::Legacy(state) = &mut self.era {
                            state.capabilities = convert(&params.capabilities).unwrap_or_default();
                        }
                        let version = LEGACY_VERSIONS
                            .iter()
                            .find(|v| **v == params.protocol_version)
                            .unwrap_or(&LEGACY_VERSIONS[0]);
                        typed(json!({
                            "protocolVersion": version,
                            "capabilities": {"tools": {}},
                            "serverInfo": {"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")}
                        }))
                        .map(|r| ServerResult::Initialize(Box::new(r)))
                    }
                    ClientRequest::Ping(_) => typed(json!({})).map(ServerResult::Empty),
                    ClientRequest::ListTools(_) => {
                        typed(json!({"tools": tool_list()})).map(ServerResult::ListTools)
                    }
                    ClientRequest::CallTool(params) => {
                        let call = PendingCall {
                            id,
                            params,
                            answers: Map::new(),
                            waiting: HashMap::new(),
                        };
                        return self.legacy_run(call);
                    }
                    other => Err(error(
                        METHOD_NOT_FOUND,
                        format!("`{}` is not served here", other.method()),
                    )),
                };
                match result.map_err(legacy_error) {
                    Ok(result) => self.send(&ServerMessage::Response { id, result }),
                    Err(error) => self.send(&ServerMessage::Error {
                        id: Some(id),
                        error,
                    }),
                }
            }
            // The answer to one of our live requests: its call may go on.
            ClientMessage::Response { id, result } => {
                let answer = serde_json::to_value(&result).map_err(std::io::Error::other)?;
                self.legacy_answer(&id, Ok(answer))
            }
            ClientMessage::Error {
                id: Some(id),
                error,
            } => self.legacy_answer(&id, Err(error)),
            ClientMessage::Error { id: None, .. } | ClientMessage::Notification(_) => Ok(()),
        }
    }

    /// Files the response to live request `id` with its call, and runs the call again once
    /// every request it sent is answered.
    fn legacy_answer(
        &mut self,
        id: &legacy::RequestId,
        answer: Result<Value, legacy::Error>,
    ) -> std::io::Result<()> {
        let Era::Legacy(state) = &mut self.era else {
            return Ok(());
        };
        let legacy::RequestId::Integer(number) = id else {
            return Ok(()); // we only send integer ids
        };
        let Some(index) = state
            .pending
            .iter()
            .position(|c| c.waiting.contains_key(number))
        else {
            eprintln!("{SERVER_NAME}: a response to no request of ours ({number})");
            return Ok(());
        };
        let mut call = state.pending.swap_remove(index);
        let key = call.waiting.remove(number).expect("found above");
        match answer {
            Ok(answer) => {
                call.answers.insert(key, answer);
            }
            // The client could not answer: the call fails with its reason.
            Err(refused) => {
                let text = format!(
                    "{}: the client refused `{key}`: {}",
                    call.params.name, refused.message
                );
                let result = typed(tool_result(&text, true, false)).map_err(io_error)?;
                return self.send(&legacy::ServerMessage::Response {
                    id: call.id,
                    result: legacy::ServerResult::CallTool(Box::new(result)),
                });
            }
        }
        if call.waiting.is_empty() {
            self.legacy_run(call)
        } else {
            if let Era::Legacy(state) = &mut self.era {
                state.pending.push(call);
            }
            Ok(())
        }
    }

    /// Runs a call with the answers it has: answers it, or sends its live requests and waits.
    fn legacy_run(&mut self, mut call: PendingCall) -> std::io::Result<()> {
        let Era::Legacy(state) = &mut self.era else {
            return Ok(());
        };
        let capabilities = state.capabilities.clone();
        let answers = Value::Object(call.answers.clone());
        let outcome = Responses::from_json(Some(&answers))
            .map_err(|e| e.to_jsonrpc_error())
            .and_then(|responses| {
                let ask = InputRequired::new(&capabilities);
                match run_tool(
                    &call.params.name,
                    call.params.arguments.as_ref(),
                    &responses,
                    ask,
                )? {
                    Step::Done { text, is_error } => Ok(Err(tool_result(&text, is_error, false))),
                    // The requests, as they will go on the wire: `method` and `params`.
                    Step::Ask(ask) => Ok(Ok(ask
                        .requests()
                        .iter()
                        .map(|(key, request)| (key.clone(), serde_json::to_value(request)))
                        .collect::<Vec<_>>())),
                }
            });
        let requests = match outcome {
            Ok(Ok(requests)) => requests,
            Ok(Err(result)) => {
                let result = typed(result).map_err(io_error)?;
                return self.send(&legacy::ServerMessage::Response {
                    id: call.id,
                    result: legacy::ServerResult::CallTool(Box::new(result)),
                });
            }
            Err(refused) => {
                return self.send(&legacy::ServerMessage::Error {
                    id: Some(call.id),
                    error: legacy_error(refused),
                })
            }
        };
        let mut lines = Vec::new();
        for (key, request) in requests {
            let Era::Legacy(state) = &mut self.era else {
                return Ok(());
            };
            state.next_id += 1;
            let id = state.next_id;
            let mut request = request.map_err(std::io::Error::other)?;
            request["jsonrpc"] = json!("2.0");
            request["id"] = json!(id);
            // In 2025-11-25 a URL-mode elicitation names itself, for its completion notice.
            if request["params"]["mode"] == "url" {
                request["params"]["elicitationId"] = json!(format!("{key}-{id}"));
            }
            // Typed on the way out as well: what we send is a 2025-11-25 server request.
            let message = legacy::ServerMessage::from_value(request).map_err(|refused| {
                std::io::Error::other(format!("not a 2025-11-25 request: {refused}"))
            })?;
            call.waiting.insert(id, key);
            lines.push(message);
        }
        if let Era::Legacy(state) = &mut self.era {
            state.pending.push(call);
        }
        for message in lines {
            self.send(&message)?;
        }
        Ok(())
    }

    /// Answers a line that is not a message we can serve (or nothing, for a notification).
    fn refuse(&mut self, refused: mcp_typed::jsonrpc::DecodeError) -> std::io::Result<()> {
        match refused.to_reply() {
            Some(reply) => self.send(&reply),
            None => Ok(()),
        }
    }
}

/// The `server/discover` result.
fn discover() -> modern::DiscoverResult {
    typed(json!({
        "resultType": "complete",
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}},
        "cacheScope": "public",
        "ttlMs": 0,
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")}}
    }))
    .expect("a valid DiscoverResult")
}

/// A tool result with one text block (`resultType` only in 2026-07-28).
fn tool_result(text: &str, is_error: bool, modern: bool) -> Value {
    let mut result = json!({"content": [{"type": "text", "text": text}]});
    if is_error {
        result["isError"] = json!(true);
    }
    if modern {
        result["resultType"] = json!("complete");
    }
    result
}

/// A generated type from its JSON: the examples write results as JSON for brevity, and the
/// types check them.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, modern::Error> {
    serde_json::from_value(value).map_err(|e| error(INVALID_PARAMS, e.to_string()))
}

/// The same JSON in another revision's type.
fn convert<T: serde::de::DeserializeOwned>(value: &impl serde::Serialize) -> Option<T> {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
}

fn io_error(error: modern::Error) -> std::io::Error {
    std::io::Error::other(error.message)
}

fn legacy_error(error: modern::Error) -> legacy::Error {
    legacy::Error {
        code: error.code,
        data: error.data,
        message: error.message,
        extra: error.extra,
    }
}

/// The key from `MRTR_STATE_KEY` (64 hex digits), else a random one.
fn sealing_key() -> Result<[u8; 32], String> {
    let Ok(hex) = std::env::var("MRTR_STATE_KEY") else {
        return SealingKey::random_secret().map_err(|e| e.to_string());
    };
    let hex = hex.trim();
    if hex.len() != 64 || !hex.is_ascii() {
        return Err("MRTR_STATE_KEY: expected 64 hex digits".into());
    }
    let mut key = [0u8; 32];
    for (byte, pair) in key.iter_mut().zip(hex.as_bytes().chunks(2)) {
        let pair = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
        *byte = u8::from_str_radix(pair, 16).map_err(|_| "MRTR_STATE_KEY: not hexadecimal")?;
    }
    Ok(key)
}

fn main() {
    let key = match sealing_key() {
        Ok(key) => key,
        Err(error) => {
            eprintln!("{SERVER_NAME}: {error}");
            std::process::exit(2);
        }
    };
    let mut server = Server {
        era: Era::Unknown,
        sealer: StateSealer::new(SealingKey::new(1, key)),
        out: std::io::stdout().lock(),
    };
    for line in std::io::stdin().lock().lines() {
        let result = line.and_then(|line| {
            if line.trim().is_empty() {
                Ok(())
            } else {
                server.handle_line(&line)
            }
        });
        if let Err(error) = result {
            eprintln!("{SERVER_NAME}: {error}");
            std::process::exit(1);
        }
    }
}
