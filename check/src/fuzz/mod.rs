//! `mcp-check fuzz -- SERVER…` / `mcp-check fuzz --url URL`: a server (a child process on stdio,
//! or a Streamable HTTP endpoint: [`Target`]) sent schema-valid requests of its revision, every
//! message of the conversation refereed as `mcp-check` checks recorded traffic.
//!
//! The client half is this module's: it initializes in the revision asked for (one of the
//! revisions with `initialize`, 2025-11-25 by default), lists the server's tools (every page),
//! then calls them in turn, each call's `arguments` drawn from the tool's `inputSchema` by
//! [`Values`] from its own seed. What it finds:
//!
//! - a message of the server's that breaks its revision's schema (any message: results,
//!   notifications, requests);
//! - a JSON-RPC error (over HTTP, an error status) answering a schema-valid call (the tool's
//!   schema and what it takes differ, or the server failed: a tool's failure is a result with
//!   `isError`);
//! - a crash (the server ends, closes its output or cannot be reached, with a request
//!   unanswered) and a hang (nothing heard within the timeout, or no answer within six of
//!   them: each call asks for progress, which keeps a long one alive);
//!
//! each with the request that found it and its seed, which `--seed S --requests 1 --tool NAME`
//! replays. The client declares every capability its revision has for a server's requests and
//! answers them: a form with content drawn from its `requestedSchema` (declined when none can
//! be drawn), a URL-mode elicitation accepted, a sampling request with a text reply, `roots/list`
//! with one root, `ping`; any other request with -32601.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::values::Values;
use crate::{traffic, Checker, Revision, Side};

mod http;
mod stdio;

/// 2025-11-25's `UrlElicitationRequiredError`: an answer, not a fault.
const URL_ELICITATION_REQUIRED: i64 = -32042;

/// How many timeouts a call may take in all, while the server keeps sending (progress, logs).
const CALL_LIMIT: u32 = 6;

/// The server fuzzed.
#[derive(Debug, Clone)]
pub enum Target {
    /// A program and its arguments, run as a child speaking on stdio.
    Command(Vec<String>),
    /// A Streamable HTTP endpoint (`http://HOST:PORT/PATH`), each request with `headers`
    /// (`NAME:VALUE`, a bearer token).
    Url {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: Vec<String>,
    },
}

/// How the conversation reaches the server: the message sent, and what comes back, in order.
trait Transport {
    /// Sends a message; a server that fails to take it is found waiting for its answer.
    fn send(&mut self, text: &str);
    /// The next thing the server sent, within `timeout`.
    fn next(&mut self, timeout: Duration) -> Result<Received, Unanswered>;
    /// The conversation is initialized in `version` (HTTP sends it as a header from now on, and
    /// opens the stream of the server's own messages).
    fn initialized(&mut self, _version: &str) {}
    /// Ends the conversation (the process stopped, the session deleted).
    fn close(&mut self);
}

/// What came back from the server.
enum Received {
    /// A message.
    Message(String),
    /// A message sent (`sent`) was refused outside JSON-RPC: an HTTP error status, a body too
    /// large to read.
    Refused { sent: String, detail: String },
}

/// What a fuzzing run does.
#[derive(Debug, Clone)]
pub struct Options {
    /// The revision to initialize in (one with `initialize`).
    pub revision: Revision,
    /// How many tool calls to send.
    pub requests: usize,
    /// The seed of the first call; call `i` (from 0) draws with `seed + i` (and the answers to
    /// the server's requests during it with the seeds after).
    pub seed: u64,
    /// How long to wait for each answer.
    pub timeout: Duration,
    /// Only this tool.
    pub tool: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            revision: Revision::V2025_11_25,
            requests: 100,
            seed: 0,
            timeout: Duration::from_secs(10),
            tool: None,
        }
    }
}

/// What a fault is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A server message that breaks its revision's schema.
    Violation,
    /// A JSON-RPC error answering a schema-valid request.
    Error,
    /// The server ended (or closed its output) with the request unanswered.
    Crash,
    /// No answer within the timeout.
    Hang,
}

/// A fault, with what found it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// What went wrong.
    pub fault: Fault,
    /// What the server did (the violations, the error, how it ended).
    pub detail: String,
    /// The message at fault (a violation's), else the request that found it, as sent.
    pub request: String,
    /// The tool call under way, and the seed its arguments were drawn with (`None` for the
    /// requests that set up the conversation).
    pub call: Option<(String, u64)>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    /// The tools the server listed.
    pub tools: usize,
    /// The tool calls answered.
    pub answered: usize,
    /// Tools not called, and calls not sent, and why (an input schema, or a branch of it, no
    /// value can be drawn for).
    pub skipped: Vec<String>,
    /// The faults, in the order found; the run stops at a crash or a hang.
    pub findings: Vec<Finding>,
}

/// The server and the conversation with it.
struct Session {
    /// The seed of the last draw.
    seed: u64,
    /// The tool call under way, and its seed.
    call: Option<(String, u64)>,
    server: Box<dyn Transport>,
    checker: Checker,
    timeout: Duration,
    next_id: i64,
    report: Report,
}

/// Why waiting for an answer ended without one.
enum Unanswered {
    /// The server ended, or could not be reached.
    Crash(String),
    /// Nothing within the timeout (or no answer within the call's limit): how long.
    Hang(String),
    /// The request was refused outside JSON-RPC ([`Received::Refused`]).
    Refused(String),
}

/// Runs (or connects to) the server and fuzzes it.
pub fn run(target: &Target, options: &Options) -> Result<Report, String> {
    if options.revision >= Revision::V2026_07_28 {
        return Err(format!(
            "{}: fuzzing a server of a revision without `initialize` is not supported yet",
            options.revision
        ));
    }
    let server: Box<dyn Transport> = match target {
        Target::Command(command) => Box::new(stdio::StdioServer::spawn(command)?),
        Target::Url { url, headers } => Box::new(http::HttpServer::new(url, headers)?),
    };
    let mut session = Session {
        seed: options.seed,
        call: None,
        server,
        checker: Checker::new(None),
        timeout: options.timeout,
        next_id: 0,
        report: Report::default(),
    };
    session.fuzz(options);
    session.server.close();
    Ok(session.report)
}

impl Session {
    fn fuzz(&mut self, options: &Options) {
        let capabilities = match options.revision {
            Revision::V2024_11_05 | Revision::V2025_03_26 => json!({"sampling": {}, "roots": {}}),
            Revision::V2025_06_18 => json!({"elicitation": {}, "sampling": {}, "roots": {}}),
            _ => json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
        };
        let initialize = json!({
            "protocolVersion": options.revision.version(),
            "capabilities": capabilities,
            "clientInfo": {"name": "mcp-check fuzz", "version": env!("CARGO_PKG_VERSION")},
        });
        let Some(initialized) = self.call("initialize", initialize, None) else {
            return;
        };
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let version = initialized["protocolVersion"].as_str();
        self.server
            .initialized(version.unwrap_or(options.revision.version()));
        let mut tools = Vec::new();
        let mut cursor: Option<Value> = None;
        for _page in 0..100 {
            let params = cursor.take().map_or(json!({}), |c| json!({"cursor": c}));
            let Some(result) = self.call("tools/list", params, None) else {
                return;
            };
            tools.extend(result["tools"].as_array().into_iter().flatten().cloned());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => break,
            }
        }
        self.report.tools = tools.len();
        let mut callable = Vec::new();
        for tool in tools {
            let Some(name) = tool["name"].as_str().map(str::to_owned) else {
                continue;
            };
            if options.tool.as_ref().is_some_and(|only| *only != name) {
                continue;
            }
            let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
            match Values::new(&schema, 0).of(&schema) {
                Ok(_) => callable.push((name, schema)),
                Err(why) => self.report.skipped.push(format!("{name}: {why}")),
            }
        }
        if callable.is_empty() {
            return;
        }
        for i in 0..options.requests {
            let (name, schema) = &callable[i % callable.len()];
            let seed = options.seed.wrapping_add(i as u64);
            self.seed = seed;
            let arguments = match Values::new(schema, seed).of(schema) {
                Ok(arguments) => arguments,
                // A branch of the schema no value can be drawn for: said, not sent.
                Err(why) => {
                    self.report
                        .skipped
                        .push(format!("{name} (seed {seed}): {why}"));
                    continue;
                }
            };
            // A progress token: a long tool's progress shows it is alive.
            let meta = json!({"progressToken": format!("fuzz-{i}")});
            let params = json!({"name": name, "arguments": arguments, "_meta": meta});
            match self.call("tools/call", params, Some((name.clone(), seed))) {
                Some(_) => self.report.answered += 1,
                None if self.stopped() => return,
                None => {}
            }
        }
    }

    /// Whether the last finding ended the run (a crash or a hang).
    fn stopped(&self) -> bool {
        (self.report.findings.last()).is_some_and(|f| matches!(f.fault, Fault::Crash | Fault::Hang))
    }

    /// Sends a request and waits for its answer: its result, or `None` (an error response, a
    /// crash or a hang, each a finding).
    fn call(&mut self, method: &str, params: Value, call: Option<(String, u64)>) -> Option<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.call.clone_from(&call);
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let sent = request.to_string();
        self.send(&request);
        let found = |fault, detail: String| Finding {
            fault,
            detail,
            request: sent.clone(),
            call: call.clone(),
        };
        let answer = match self.answer_to(id) {
            Ok(answer) => answer,
            Err(Unanswered::Crash(how)) => {
                let finding = found(Fault::Crash, how);
                self.report.findings.push(finding);
                return None;
            }
            Err(Unanswered::Hang(detail)) => {
                let finding = found(Fault::Hang, detail);
                self.report.findings.push(finding);
                return None;
            }
            Err(Unanswered::Refused(detail)) => {
                self.report.findings.push(found(Fault::Error, detail));
                return None;
            }
        };
        if let Some(error) = answer.get("error") {
            if error["code"] == URL_ELICITATION_REQUIRED {
                // The spec's way for a call to ask for a URL-mode elicitation first: the call
                // was understood and answered (the elicitation has nothing to open here).
                return Some(error.clone());
            }
            let finding = found(Fault::Error, error.to_string());
            self.report.findings.push(finding);
            return None;
        }
        answer.get("result").cloned()
    }

    /// The server's answer to request `id`, each message it sends meanwhile refereed (and its
    /// requests refused).
    ///
    /// Waits at most the timeout for each message (progress, asked for with a
    /// `progressToken`, keeps a long call alive) and [`CALL_LIMIT`] timeouts in all.
    fn answer_to(&mut self, id: i64) -> Result<Value, Unanswered> {
        let limit = self.timeout * CALL_LIMIT;
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let detail = format!("no answer in {limit:?}, though messages kept coming");
                return Err(Unanswered::Hang(detail));
            }
            let line = match self.server.next(self.timeout.min(left))? {
                Received::Message(line) => line,
                Received::Refused { sent, detail } => {
                    let refused: Value = serde_json::from_str(&sent).unwrap_or(Value::Null);
                    if refused.get("method").is_some() && refused.get("id") == Some(&json!(id)) {
                        return Err(Unanswered::Refused(detail));
                    }
                    // A notification or an answer of ours, refused.
                    self.report.findings.push(Finding {
                        fault: Fault::Error,
                        detail,
                        request: sent,
                        call: self.call.clone(),
                    });
                    continue;
                }
            };
            let violations = self.referee(Side::Server, &line);
            let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            if !violations.is_empty() {
                self.report.findings.push(Finding {
                    fault: Fault::Violation,
                    detail: violations.join("; "),
                    request: line.clone(),
                    call: self.call.clone(),
                });
            }
            match (message.get("id"), message.get("method")) {
                (Some(request), Some(method)) => {
                    let answer = self.answer_of(method.as_str().unwrap_or(""), &message["params"]);
                    let mut reply = json!({"jsonrpc": "2.0", "id": request});
                    match answer {
                        Ok(result) => reply["result"] = result,
                        Err(error) => reply["error"] = error,
                    }
                    self.send(&reply);
                }
                (Some(answered), None) if *answered == json!(id) => return Ok(message),
                _ => {}
            }
        }
    }

    /// The client's answer to a server's request of `method`: its result, or its error.
    fn answer_of(&mut self, method: &str, params: &Value) -> Result<Value, Value> {
        Ok(match method {
            "elicitation/create" if params["mode"] == "url" => json!({"action": "accept"}),
            "elicitation/create" => {
                self.seed = self.seed.wrapping_add(1);
                // The answer's content holds the form's members only (its values are
                // primitives, where another member could be anything).
                let mut form = params["requestedSchema"].clone();
                if let Some(members) = form.as_object_mut() {
                    members.insert("additionalProperties".into(), Value::Bool(false));
                }
                match Values::new(&form, self.seed).of(&form) {
                    Ok(content) => json!({"action": "accept", "content": content}),
                    Err(_) => json!({"action": "decline"}),
                }
            }
            "sampling/createMessage" => json!({
                "role": "assistant",
                "content": {"type": "text", "text": "a reply drawn by mcp-check fuzz"},
                "model": "mcp-check-fuzz",
                "stopReason": "endTurn",
            }),
            "roots/list" => {
                json!({"roots": [{"uri": "file:///tmp/mcp-check-fuzz", "name": "fuzz"}]})
            }
            "ping" => json!({}),
            _ => {
                return Err(json!({
                    "code": -32601,
                    "message": format!("mcp-check fuzz answers no `{method}`"),
                }))
            }
        })
    }

    /// Sends a message, refereed as the client's (what is wrong with it is a finding too: a
    /// fault of this fuzzer's).
    fn send(&mut self, message: &Value) {
        let text = message.to_string();
        let violations = self.referee(Side::Client, &text);
        if !violations.is_empty() {
            self.report.findings.push(Finding {
                fault: Fault::Violation,
                detail: format!("sent by mcp-check fuzz: {}", violations.join("; ")),
                request: text.clone(),
                call: None,
            });
        }
        self.server.send(&text);
    }

    /// The checker's verdict on a message of `from`: what is wrong with it, as text.
    fn referee(&mut self, from: Side, text: &str) -> Vec<String> {
        let mut entry = traffic::entry(0, text);
        entry.from = Some(from);
        let verdict = self.checker.check(&entry);
        (verdict.violations.iter())
            .map(|v| format!("{} {}: {}", v.pointer, v.keyword, v.expected))
            .collect()
    }
}
