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
//! The tools are written once, for both, with `mcp_mrtr::serve`: a handler asks through
//! an `Input` and gets the answers the client has given so far, or stops with `Need::Asked`;
//! `serve` (2026-07-28) and `LiveCall` (2025-11-25) send its questions and run it again with
//! the answers. Each answer is pinned to the question it answers.
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

use std::io::{BufRead, Write};
use std::time::{Duration, SystemTime};

use mcp_mrtr::seal::{SealingKey, StateSealer};
use mcp_mrtr::serve::{serve, Input, Live, LiveAnswer, LiveCall, Need, Sealing, Served};
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::jsonrpc::METHOD_NOT_FOUND;
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28 as modern;
use mcp_typed::{Elicit, RawObject};
use serde::Deserialize;
use serde_json::{json, Value};

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

/// The tools as `tools/list` shows them, the same in both eras: each one's name, description
/// and the JSON Schema of its arguments.
fn tool_specs() -> [(&'static str, &'static str, Value); 5] {
    // A JSON Schema is data, not a protocol message: it is written as JSON and read into each
    // era's `ToolInputSchema` (whose members differ between the eras) by [`input_schema`].
    let no_arguments = || json!({"type": "object", "properties": {}});
    [
        (
            "add",
            "Adds two integers.",
            json!({"type": "object", "properties": {
                "a": {"type": "integer", "default": 2}, "b": {"type": "integer", "default": 3}},
                "required": ["a", "b"]}),
        ),
        (
            "signup",
            "Signs you up; asks for your details with a form.",
            no_arguments(),
        ),
        (
            "summarize",
            "Summarizes a text with the client's model (sampling).",
            json!({"type": "object", "properties": {
                "text": {"type": "string", "default": "MCP connects models to tools."}},
                "required": ["text"]}),
        ),
        ("list_roots", "Lists the client's roots.", no_arguments()),
        (
            "connect_account",
            "Connects an account through a page of ours (URL-mode elicitation).",
            no_arguments(),
        ),
    ]
}

/// A tool's JSON Schema as an era's `ToolInputSchema`.
fn input_schema<S: serde::de::DeserializeOwned>(schema: Value) -> S {
    serde_json::from_value(schema).expect("a valid inputSchema")
}

fn modern_tools() -> Vec<modern::Tool> {
    (tool_specs().into_iter())
        .map(|(name, description, schema)| {
            modern::Tool::new(input_schema::<modern::ToolInputSchema>(schema), name)
                .with_description(description)
        })
        .collect()
}

fn legacy_tools() -> Vec<legacy::Tool> {
    (tool_specs().into_iter())
        .map(|(name, description, schema)| {
            legacy::Tool::new(input_schema::<legacy::ToolInputSchema>(schema), name)
                .with_description(description)
        })
        .collect()
}

/// A tool's result: its text, and whether it reports a failure of the tool.
struct ToolOutput {
    text: String,
    is_error: bool,
}

fn done(text: String) -> Result<ToolOutput, Need> {
    Ok(ToolOutput {
        text,
        is_error: false,
    })
}

fn failed(text: String) -> Result<ToolOutput, Need> {
    Ok(ToolOutput {
        text,
        is_error: true,
    })
}

/// Runs tool `name`: it asks through `input` and gets the answers the client has given so far
/// (the same code for a 2026-07-28 retry and for a 2025-11-25 live request).
fn run_tool(
    name: &str,
    arguments: Option<&RawObject>,
    input: &mut Input<'_>,
) -> Result<ToolOutput, Need> {
    match name {
        "add" => {
            #[derive(Deserialize)]
            struct Add {
                a: i64,
                b: i64,
            }
            match decode_arguments::<Add>(arguments) {
                Ok(Add { a, b }) => done(format!("add: {a} + {b} = {}", a.saturating_add(b))),
                Err(message) => failed(message),
            }
        }
        "signup" => match input.elicit::<Signup>("signup", "Please sign up")? {
            ElicitOutcome::Accepted(form) => done(format!(
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
            ElicitOutcome::Declined => done("signup: declined".into()),
            ElicitOutcome::Cancelled => done("signup: cancelled".into()),
        },
        "summarize" => {
            #[derive(Deserialize)]
            struct Summarize {
                text: String,
            }
            let text = match decode_arguments::<Summarize>(arguments) {
                Ok(Summarize { text }) => text,
                Err(message) => return failed(message),
            };
            let params = modern::CreateMessageRequestParams::new(
                100,
                [modern::SamplingMessage::new(
                    modern::SamplingMessageContent::text(format!(
                        "Summarize in one sentence: {text}"
                    )),
                    modern::Role::User,
                )],
            );
            let reply = input.sample("summary", params)?;
            done(format!("summarize: {}", content_text(&reply.content)))
        }
        "list_roots" => {
            let roots = input.list_roots("roots")?;
            let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
            done(format!("list_roots: {}", uris.join(", ")))
        }
        "connect_account" => match input.elicit_url(
            "connect",
            "Connect your account on our site",
            "https://example.com/connect?session=demo",
        )? {
            ElicitOutcome::Accepted(()) => done("connect_account: accepted".into()),
            ElicitOutcome::Declined => done("connect_account: declined".into()),
            ElicitOutcome::Cancelled => done("connect_account: cancelled".into()),
        },
        other => failed(format!("unknown tool `{other}`")),
    }
}

/// [`run_tool`], with a question the client cannot be asked (a capability it did not declare)
/// turned into a tool error that says what is missing.
fn tool(
    name: &str,
    arguments: Option<&RawObject>,
    input: &mut Input<'_>,
) -> Result<ToolOutput, Need> {
    match run_tool(name, arguments, input) {
        Err(Need::Refused(refused)) => failed(format!("{name}: cannot ask: {refused}")),
        other => other,
    }
}

fn decode_arguments<T: serde::de::DeserializeOwned>(
    arguments: Option<&RawObject>,
) -> Result<T, String> {
    let empty = RawObject::default();
    arguments
        .unwrap_or(&empty)
        .decode()
        .map_err(|e| format!("invalid arguments: {e}"))
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
    modern::Error::new(code, message)
}

// ---------------------------------------------------------------------------------------------
// The connection: which era, and each era's way of answering.

/// A tool call of the 2025 era waiting for the responses to its live requests.
struct PendingCall {
    /// The id of the client's `tools/call`.
    id: legacy::RequestId,
    params: Box<legacy::CallToolRequestParams>,
    live: LiveCall,
}

#[derive(Default)]
struct Legacy {
    /// The capabilities the client declared at `initialize`.
    capabilities: legacy::ClientCapabilities,
    /// The protocol version agreed at `initialize`: the live requests are written in it.
    version: &'static str,
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
        self.send_line(&line)
    }

    fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn handle_line(&mut self, line: &str) -> std::io::Result<()> {
        if matches!(self.era, Era::Unknown) {
            let first = mcp_typed::jsonrpc::RawMessage::parse(line).ok();
            let method = first.as_ref().and_then(|m| m.method.as_deref());
            self.era = match method {
                Some("initialize") => Era::Legacy(Box::default()),
                // Anything else, junk included, is answered in the current era's terms.
                _ => Era::Modern,
            };
        }
        match self.era {
            Era::Legacy(_) => self.legacy_line(line),
            _ => self.modern_line(line),
        }
    }

    // --- 2026-07-28 -------------------------------------------------------------------------

    fn modern_line(&mut self, line: &str) -> std::io::Result<()> {
        use modern::{ClientMessage, ClientRequest, ServerMessage};
        let message = match line.parse::<ClientMessage>() {
            Ok(message) => message,
            Err(refused) => return self.refuse(refused),
        };
        let ClientMessage::Request { id, request } = message else {
            return Ok(()); // notifications need no answer
        };
        let result = match request {
            ClientRequest::Discover(_) => Ok(discover().into()),
            ClientRequest::ListTools(_) => Ok(modern::ListToolsResult::new(
                modern::ListToolsResultCacheScope::Public,
                modern_tools(),
                0,
            )
            .into()),
            ClientRequest::CallTool(params) => self.modern_call(&params),
            other => Err(error(
                METHOD_NOT_FOUND,
                format!("`{}` is not served here", other.method()),
            )),
        };
        match result {
            Ok(result) => self.send(&ServerMessage::response(id, result)),
            Err(error) => self.send(&ServerMessage::error(id, error)),
        }
    }

    fn modern_call(
        &mut self,
        params: &modern::CallToolRequestParams,
    ) -> Result<modern::ServerResult, modern::Error> {
        let sealing = Sealing::new(&self.sealer, PRINCIPAL).ttl(STATE_TTL);
        let served = serve(params, &sealing, SystemTime::now(), |input| {
            tool(&params.name, params.arguments.as_ref(), input)
        });
        match served {
            Ok(Served::Complete(output)) => Ok(output.modern().into()),
            Ok(Served::InputRequired(result)) => Ok(modern::ServerResult::InputRequired(result)),
            Err(refused) => {
                // The details (a tampered state, say) for our log; the client gets the code.
                eprintln!("{SERVER_NAME}: {refused}");
                Err(refused.to_jsonrpc_error())
            }
        }
    }

    // --- 2025-11-25 and older ---------------------------------------------------------------

    fn legacy_line(&mut self, line: &str) -> std::io::Result<()> {
        use legacy::{ClientMessage, ClientRequest, ServerMessage};
        let message = match line.parse::<ClientMessage>() {
            Ok(message) => message,
            Err(refused) => return self.refuse(refused),
        };
        match message {
            ClientMessage::Request { id, request } => {
                let result: Result<legacy::ServerResult, _> = match request {
                    ClientRequest::Initialize(params) => {
                        let version = LEGACY_VERSIONS
                            .iter()
                            .find(|v| **v == params.protocol_version)
                            .unwrap_or(&LEGACY_VERSIONS[0]);
                        if let Era::Legacy(state) = &mut self.era {
                            state.capabilities = params.capabilities.clone();
                            state.version = version;
                        }
                        Ok(legacy::InitializeResult::new(
                            legacy::ServerCapabilities::new()
                                .with_tools(legacy::ServerCapabilitiesTools::new()),
                            *version,
                            legacy::Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")),
                        )
                        .into())
                    }
                    ClientRequest::Ping(_) => Ok(legacy::Result::new().into()),
                    ClientRequest::ListTools(_) => {
                        Ok(legacy::ListToolsResult::new(legacy_tools()).into())
                    }
                    ClientRequest::CallTool(params) => {
                        let Era::Legacy(state) = &self.era else {
                            return Ok(());
                        };
                        let live = LiveCall::new(&state.capabilities).revision(state.version);
                        return self.legacy_run(PendingCall { id, params, live });
                    }
                    other => Err(error(
                        METHOD_NOT_FOUND,
                        format!("`{}` is not served here", other.method()),
                    )),
                };
                match result.map_err(legacy_error) {
                    Ok(result) => self.send(&ServerMessage::response(id, result)),
                    Err(error) => self.send(&ServerMessage::error(id, error)),
                }
            }
            // The answer to one of our live requests: its call may go on.
            ClientMessage::Response { id, result } => self.legacy_answer(&id, Ok(result)),
            ClientMessage::Error {
                id: Some(id),
                error,
            } => self.legacy_answer(&id, Err(error)),
            ClientMessage::Error { id: None, .. } | ClientMessage::Notification(_) => Ok(()),
        }
    }

    /// Files the response to live request `id` with its call, and runs the call again once
    /// every request of its round is answered.
    fn legacy_answer(
        &mut self,
        id: &legacy::RequestId,
        answer: Result<legacy::ClientResult, legacy::Error>,
    ) -> std::io::Result<()> {
        let Era::Legacy(state) = &mut self.era else {
            return Ok(());
        };
        for index in 0..state.pending.len() {
            let outcome = state.pending[index].live.answer(id, answer.clone());
            match outcome {
                Ok(LiveAnswer::NotOurs) => continue,
                Ok(LiveAnswer::Waiting) => return Ok(()),
                Ok(LiveAnswer::Ready) => {
                    let call = state.pending.swap_remove(index);
                    return self.legacy_run(call);
                }
                // The client could not answer: the call fails with its reason.
                Err(refused) => {
                    let call = state.pending.swap_remove(index);
                    let text = format!("{}: {refused}", call.params.name);
                    return self.legacy_output(
                        call.id,
                        ToolOutput {
                            text,
                            is_error: true,
                        },
                    );
                }
            }
        }
        eprintln!("{SERVER_NAME}: a response to no request of ours");
        Ok(())
    }

    /// Runs a call with the answers it has: answers it, or sends its live requests and waits.
    fn legacy_run(&mut self, mut call: PendingCall) -> std::io::Result<()> {
        let Era::Legacy(state) = &mut self.era else {
            return Ok(());
        };
        let next_id = &mut state.next_id;
        let outcome = call.live.run(
            || {
                *next_id += 1;
                legacy::RequestId::Integer(*next_id)
            },
            |input| tool(&call.params.name, call.params.arguments.as_ref(), input),
        );
        match outcome {
            Ok(Live::Complete(output)) => self.legacy_output(call.id, output),
            Ok(Live::Send(requests)) => {
                state.pending.push(call);
                for request in requests {
                    // Its own text: a form's keywords in the derive's order too.
                    self.send_line(&request.json)?;
                }
                Ok(())
            }
            Err(refused) => self.send(&legacy::ServerMessage::error(
                call.id,
                legacy_error(refused.to_jsonrpc_error()),
            )),
        }
    }

    fn legacy_output(&mut self, id: legacy::RequestId, output: ToolOutput) -> std::io::Result<()> {
        self.send(&legacy::ServerMessage::response(id, output.legacy()))
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
    modern::DiscoverResult::new(
        modern::DiscoverResultCacheScope::Public,
        modern::ServerCapabilities::new().with_tools(modern::ServerCapabilitiesTools::new()),
        vec![modern::PROTOCOL_VERSION.to_owned()],
        0,
    )
    .with_meta(
        modern::ResultMetaObject::new().with_io_modelcontextprotocol_server_info(
            modern::Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")),
        ),
    )
}

impl ToolOutput {
    /// The 2026-07-28 result: one text block, `isError` only when the tool failed.
    fn modern(self) -> modern::CallToolResult {
        let result = modern::CallToolResult::new([modern::ContentBlock::text(self.text)]);
        if self.is_error {
            result.with_is_error(true)
        } else {
            result
        }
    }

    /// The 2025-11-25 result, the same but for `resultType`.
    fn legacy(self) -> legacy::CallToolResult {
        let result = legacy::CallToolResult::new([legacy::ContentBlock::text(self.text)]);
        if self.is_error {
            result.with_is_error(true)
        } else {
            result
        }
    }
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
