//! `mcp-check fuzz -- SERVER…` / `mcp-check fuzz --url URL`: a server (a child process on stdio,
//! or a Streamable HTTP endpoint: [`Target`]) sent schema-valid requests of its revision, every
//! message of the conversation refereed as `mcp-check` checks recorded traffic.
//!
//! The client half is this module's: it initializes in the revision asked for (2025-11-25 by
//! default; in 2026-07-28, every request states its version, client and capabilities in `_meta`
//! and the conversation opens with `server/discover`), lists the server's tools, and its
//! prompts, resources and resource templates when it declares them (every page), then sends
//! requests to each kind in turn, each drawn from its own seed: a tool called with `arguments`
//! drawn from its `inputSchema` by [`Values`], a prompt got with its required arguments and some
//! others (strings), a resource read, a template read with its variables drawn. What it finds:
//!
//! - a message of the server's that breaks its revision's schema (any message: results,
//!   notifications, requests);
//! - a JSON-RPC error (over HTTP, an error status) answering a schema-valid call (the tool's
//!   schema and what it takes differ, or the server failed: a tool's failure is a result with
//!   `isError`); a prompt may refuse its drawn arguments (-32602) and a template's drawn
//!   resource may not exist (-32002, -32602): answers, not faults;
//! - a crash (the server ends, closes its output or cannot be reached, with a request
//!   unanswered) and a hang (nothing heard within the timeout, or no answer within six of
//!   them: each call asks for progress, which keeps a long one alive);
//!
//! each with the request that found it and its seed, which `--seed S --requests 1 --tool NAME`
//! replays, and for a tool call's violation, error or (stdio) crash the smallest call found
//! that finds it again (its arguments shrunk while valid under the tool's schema). The client declares every
//! capability its revision has for a server's requests and answers them: a form with content
//! drawn from its `requestedSchema` (declined when none can be drawn), a URL-mode elicitation
//! accepted, a sampling request with a text reply, `roots/list` with one root, `ping`; any other
//! request with -32601.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::values::Values;
use crate::{traffic, Checker, Revision, Side};

mod headers;
mod http;
mod shrink;
mod stdio;

/// JSON-RPC's invalid params.
const INVALID_PARAMS: i64 = mcp_typed::jsonrpc::INVALID_PARAMS;

/// MCP's "resource not found" (the resources page of every revision).
const RESOURCE_NOT_FOUND: i64 = -32002;

/// 2025-11-25's `UrlElicitationRequiredError`: an answer, not a fault.
const URL_ELICITATION_REQUIRED: i64 = -32042;

/// How many rounds of answers a 2026-07-28 call may ask for.
const MAX_ROUNDS: usize = 10;

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
    /// The conversation is in `version` from now on (HTTP sends it as a header, and, when
    /// `listen` (a session), opens the stream of the server's own messages).
    fn initialized(&mut self, _version: &str, _listen: bool) {}
    /// The server listed `tools`: the ones a client of this transport must not call, and why
    /// (over HTTP in 2026-07-28, an invalid `x-mcp-header`).
    fn tools_listed(&mut self, _tools: &[Value]) -> Vec<(String, String)> {
        Vec::new()
    }
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
    /// The revision to speak.
    pub revision: Revision,
    /// How many tool calls to send.
    pub requests: usize,
    /// The seed of the first call; call `i` (from 0) draws with `seed + i` (and the answers to
    /// the server's requests during it with the seeds after).
    pub seed: u64,
    /// How long to wait for each answer.
    pub timeout: Duration,
    /// Only this target, as findings name it ([`Finding::call`]): a tool's name, `prompt:NAME`,
    /// `resource:URI` or `template:URI-TEMPLATE`.
    pub only: Option<String>,
    /// Write a line of progress on stderr (calls sent, answered, findings) at most this often
    /// while the calls go out; `None`, never.
    pub progress: Option<Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            revision: Revision::V2025_11_25,
            requests: 100,
            seed: 0,
            timeout: Duration::from_secs(10),
            only: None,
            progress: None,
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
    /// For a tool call's schema violation or error response: the params (`name`, `arguments`)
    /// of the smallest call found that finds the same fault again, when one smaller than the
    /// drawn one did (its arguments still valid under the tool's input schema).
    pub smallest: Option<Value>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    /// The tools the server listed.
    pub tools: usize,
    /// The prompts the server listed (when it declares `prompts`).
    pub prompts: usize,
    /// The resources and resource templates the server listed (when it declares `resources`).
    pub resources: usize,
    /// The calls answered.
    pub answered: usize,
    /// 2026-07-28: the retries sent with answers to an `input_required` result.
    pub retries: usize,
    /// Tools not called, and calls not sent, and why (an input schema, or a branch of it, no
    /// value can be drawn for).
    pub skipped: Vec<String>,
    /// The faults, in the order found; the run stops at a crash or a hang.
    pub findings: Vec<Finding>,
}

/// What a drawn request goes to.
enum Callee {
    /// A tool, called with arguments drawn from its input schema.
    Tool { name: String, schema: Value },
    /// A prompt, got with its required arguments and some of the others, drawn as strings.
    Prompt {
        name: String,
        arguments: Vec<(String, bool)>,
    },
    /// A listed resource, read.
    Resource { uri: String },
    /// A resource template, read with its variables drawn.
    Template { template: String },
}

impl Callee {
    fn tool(tool: &Value) -> Option<Callee> {
        Some(Callee::Tool {
            name: tool["name"].as_str()?.to_owned(),
            schema: tool.get("inputSchema").cloned().unwrap_or(json!({})),
        })
    }

    fn prompt(prompt: &Value) -> Option<Callee> {
        let arguments = (prompt["arguments"].as_array().into_iter().flatten())
            .filter_map(|argument| {
                let name = argument["name"].as_str()?.to_owned();
                Some((name, argument["required"] == true))
            })
            .collect();
        Some(Callee::Prompt {
            name: prompt["name"].as_str()?.to_owned(),
            arguments,
        })
    }

    fn resource(resource: &Value) -> Option<Callee> {
        let uri = resource["uri"].as_str()?.to_owned();
        Some(Callee::Resource { uri })
    }

    fn template(template: &Value) -> Option<Callee> {
        let template = template["uriTemplate"].as_str()?.to_owned();
        Some(Callee::Template { template })
    }

    /// How findings, replays and `--only` name it: a tool by its name, `prompt:NAME`,
    /// `resource:URI`, `template:URI-TEMPLATE`.
    fn label(&self) -> String {
        match self {
            Callee::Tool { name, .. } => name.clone(),
            Callee::Prompt { name, .. } => format!("prompt:{name}"),
            Callee::Resource { uri } => format!("resource:{uri}"),
            Callee::Template { template } => format!("template:{template}"),
        }
    }

    /// The error codes that answer a drawn request without a fault: -32042, the spec's way for
    /// a call to ask for a URL-mode elicitation first; a prompt's arguments are any strings,
    /// which it may refuse (-32602); a template's drawn variables may name no resource (-32002,
    /// or -32602). A tool's input schema and a listed resource are promises.
    fn tolerated(&self) -> &'static [i64] {
        match self {
            Callee::Tool { .. } | Callee::Resource { .. } => &[URL_ELICITATION_REQUIRED],
            Callee::Prompt { .. } => &[URL_ELICITATION_REQUIRED, INVALID_PARAMS],
            Callee::Template { .. } => {
                &[URL_ELICITATION_REQUIRED, INVALID_PARAMS, RESOURCE_NOT_FOUND]
            }
        }
    }

    /// The request's method and params, drawn with `seed`; `Err` says what could not be drawn.
    fn request(&self, seed: u64) -> Result<(&'static str, Value), String> {
        let mut draw = fastrand::Rng::with_seed(seed);
        let text = |draw: &mut fastrand::Rng| {
            let length = draw.usize(1..12);
            (0..length).map(|_| draw.alphanumeric()).collect::<String>()
        };
        Ok(match self {
            Callee::Tool { name, schema } => {
                let arguments =
                    (Values::new(schema, seed).of(schema)).map_err(|e| e.to_string())?;
                ("tools/call", json!({"name": name, "arguments": arguments}))
            }
            Callee::Prompt { name, arguments } => {
                let mut drawn = serde_json::Map::new();
                for (name, required) in arguments {
                    if *required || draw.bool() {
                        drawn.insert(name.clone(), Value::String(text(&mut draw)));
                    }
                }
                ("prompts/get", json!({"name": name, "arguments": drawn}))
            }
            Callee::Resource { uri } => ("resources/read", json!({"uri": uri})),
            Callee::Template { template } => {
                let uri = expand(template, || text(&mut draw))?;
                ("resources/read", json!({"uri": uri}))
            }
        })
    }
}

/// `template` (RFC 6570) with each variable given a value of `value`: simple (`{id}`),
/// reserved (`{+path}`), fragment, label, path and query expansions (`{?q,page}`); the values
/// are alphanumeric, so nothing needs encoding.
fn expand(template: &str, mut value: impl FnMut() -> String) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = (rest[open..].find('}'))
            .ok_or_else(|| format!("{template}: an expression without its `}}`"))?;
        let expression = &rest[open + 1..open + close];
        let (operator, names) = match expression.chars().next() {
            Some(c @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => (Some(c), &expression[1..]),
            _ => (None, expression),
        };
        let names: Vec<&str> = (names.split(','))
            .map(|name| name.trim_end_matches('*').split(':').next().unwrap_or(name))
            .collect();
        let values: Vec<String> = names.iter().map(|_| value()).collect();
        match operator {
            None | Some('+') => out.push_str(&values.join(",")),
            Some('#') => out.push_str(&format!("#{}", values.join(","))),
            Some(c @ ('.' | '/')) => values.iter().for_each(|v| out.push_str(&format!("{c}{v}"))),
            Some(c) => {
                let pairs: Vec<String> = (names.iter().zip(&values))
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect();
                let (first, separator) = match c {
                    ';' => (";", ";"),
                    '?' => ("?", "&"),
                    _ => ("&", "&"),
                };
                out.push_str(first);
                out.push_str(&pairs.join(separator));
            }
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The server and the conversation with it.
struct Session {
    /// The seed of the last draw.
    seed: u64,
    /// The tool call under way, and its seed.
    call: Option<(String, u64)>,
    server: Box<dyn Transport>,
    /// What every request states in its `_meta` (2026-07-28: version, client, capabilities).
    stated: Option<Value>,
    checker: Checker,
    timeout: Duration,
    next_id: i64,
    report: Report,
    /// The tool call that ended the conversation (a crash or a hang): its params, the tool's
    /// input schema and the codes it tolerates, for [`shrink::shrink_crash`].
    crashed: Option<(Value, Value, &'static [i64])>,
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
    let mut session = Session::start(target, options)?;
    session.fuzz(options);
    session.server.close();
    let mut report = session.report;
    // A stdio server's crash on a tool call, shrunk with a server per attempt.
    if let (Target::Command(_), Some((params, schema, tolerated))) = (target, session.crashed) {
        if let Some(found) = (report.findings.last_mut()).filter(|f| f.fault == Fault::Crash) {
            found.smallest =
                shrink::shrink_crash(target, options, &params, &schema, found, tolerated);
        }
    }
    Ok(report)
}

impl Session {
    /// A conversation with the server, not opened yet.
    fn start(target: &Target, options: &Options) -> Result<Session, String> {
        let server: Box<dyn Transport> = match target {
            Target::Command(command) => Box::new(stdio::StdioServer::spawn(command)?),
            Target::Url { url, headers } => Box::new(http::HttpServer::new(url, headers)?),
        };
        Ok(Session {
            seed: options.seed,
            call: None,
            server,
            stated: None,
            checker: Checker::new(None),
            timeout: options.timeout,
            next_id: 0,
            report: Report::default(),
            crashed: None,
        })
    }

    fn fuzz(&mut self, options: &Options) {
        let Some(server_capabilities) = self.open(options.revision) else {
            return;
        };
        let Some(tools) = self.list_all("tools/list", "tools") else {
            return;
        };
        self.report.tools = tools.len();
        let dropped = self.server.tools_listed(&tools);
        for (tool, why) in &dropped {
            self.report.skipped.push(format!("{tool}: {why}"));
        }
        let callable = |tool: &&Value| !dropped.iter().any(|(name, _)| tool["name"] == **name);
        let tools = tools.iter().filter(callable).filter_map(Callee::tool);
        let mut kinds: Vec<Vec<Callee>> = vec![tools.collect()];
        let declared = |capability: &str| server_capabilities.get(capability).is_some();
        if declared("prompts") {
            let Some(prompts) = self.list_all("prompts/list", "prompts") else {
                return;
            };
            self.report.prompts = prompts.len();
            kinds.push(prompts.iter().filter_map(Callee::prompt).collect());
        }
        if declared("resources") {
            let Some(resources) = self.list_all("resources/list", "resources") else {
                return;
            };
            let Some(templates) = self.list_all("resources/templates/list", "resourceTemplates")
            else {
                return;
            };
            self.report.resources = resources.len() + templates.len();
            kinds.push(
                (resources.iter().filter_map(Callee::resource))
                    .chain(templates.iter().filter_map(Callee::template))
                    .collect(),
            );
        }
        for kind in &mut kinds {
            kind.retain(|target| {
                options
                    .only
                    .as_ref()
                    .is_none_or(|only| *only == target.label())
            });
            kind.retain(|target| match target.request(0) {
                Ok(_) => true,
                Err(why) => {
                    self.report
                        .skipped
                        .push(format!("{}: {why}", target.label()));
                    false
                }
            });
        }
        kinds.retain(|kind| !kind.is_empty());
        if kinds.is_empty() {
            return;
        }
        // Each kind in turn (tools, prompts, resources), each kind's targets in turn.
        let mut next = vec![0; kinds.len()];
        let mut shown = Instant::now();
        for i in 0..options.requests {
            let due = options
                .progress
                .filter(|every| i > 0 && shown.elapsed() >= *every);
            if due.is_some() {
                let report = &self.report;
                eprintln!(
                    "mcp-check fuzz: {i}/{} calls sent, {} answered, {} findings",
                    options.requests,
                    report.answered,
                    report.findings.len()
                );
                shown = Instant::now();
            }
            let kind = i % kinds.len();
            let target = &kinds[kind][next[kind] % kinds[kind].len()];
            next[kind] += 1;
            let seed = options.seed.wrapping_add(i as u64);
            self.seed = seed;
            let label = target.label();
            let (method, mut params) = match target.request(seed) {
                Ok(request) => request,
                // A branch of the schema no value can be drawn for: said, not sent.
                Err(why) => {
                    self.report
                        .skipped
                        .push(format!("{label} (seed {seed}): {why}"));
                    continue;
                }
            };
            // A progress token: a long call's progress shows it is alive.
            params["_meta"] = json!({"progressToken": format!("fuzz-{i}")});
            let call = Some((label, seed));
            let before = self.report.findings.len();
            let answer = self.call_through(method, params.clone(), call, target.tolerated());
            if answer.is_some() {
                self.report.answered += 1;
            }
            if self.stopped() {
                if let Callee::Tool { schema, .. } = target {
                    self.crashed = Some((params, schema.clone(), target.tolerated()));
                }
                return;
            }
            // A tool call's first fault, shrunk to the smallest arguments that find it again.
            let first = self.report.findings.get(before).cloned();
            if let (Callee::Tool { schema, .. }, Some(found)) = (target, first) {
                if found.call.is_some() && matches!(found.fault, Fault::Violation | Fault::Error) {
                    let smallest = self.shrink(&params, schema, &found, target.tolerated());
                    self.report.findings[before].smallest = smallest;
                    if self.stopped() {
                        return;
                    }
                }
            }
        }
    }

    /// Opens the conversation in `revision`: `initialize` (and `initialized`), or in 2026-07-28,
    /// where every request states its version, capabilities and client in `_meta`,
    /// `server/discover`. The server's capabilities; `None` when it did not answer (a finding).
    fn open(&mut self, revision: Revision) -> Option<Value> {
        let before = self.report.findings.len();
        let opened = self.open_in(revision);
        // An error answering the opening request: the server does not speak the revision (a
        // 2025 server answers 2026-07-28's `server/discover` with "not initialized"), said so.
        if let Some(refused) = (self.report.findings.get_mut(before))
            .filter(|found| opened.is_none() && found.fault == Fault::Error)
        {
            refused.detail = format!(
                "no {} conversation: the server refused to open one ({}); \
                 another --revision may be one it speaks",
                revision.version(),
                refused.detail
            );
        }
        opened
    }

    /// [`Session::open`]'s requests.
    fn open_in(&mut self, revision: Revision) -> Option<Value> {
        let capabilities = match revision {
            Revision::V2024_11_05 | Revision::V2025_03_26 => json!({"sampling": {}, "roots": {}}),
            Revision::V2025_06_18 => json!({"elicitation": {}, "sampling": {}, "roots": {}}),
            _ => json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}),
        };
        let client = json!({"name": "mcp-check fuzz", "version": env!("CARGO_PKG_VERSION")});
        if !revision.has_initialize() {
            self.stated = Some(json!({
                "io.modelcontextprotocol/protocolVersion": revision.version(),
                "io.modelcontextprotocol/clientInfo": client,
                "io.modelcontextprotocol/clientCapabilities": capabilities,
            }));
            self.server.initialized(revision.version(), false);
            let discovered = self.call("server/discover", json!({}), None, &[])?;
            return Some(discovered["capabilities"].clone());
        }
        let initialize = json!({
            "protocolVersion": revision.version(),
            "capabilities": capabilities,
            "clientInfo": client,
        });
        let initialized = self.call("initialize", initialize, None, &[])?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let version = initialized["protocolVersion"].as_str();
        self.server
            .initialized(version.unwrap_or(revision.version()), true);
        Some(initialized["capabilities"].clone())
    }

    /// [`Session::call`], and in 2026-07-28, while the result asks for input
    /// (`"resultType": "input_required"`), the call again with the answers (drawn as a live
    /// request's would be) and the `requestState` it was given: at most [`MAX_ROUNDS`] rounds.
    fn call_through(
        &mut self,
        method: &str,
        params: Value,
        call: Option<(String, u64)>,
        tolerated: &[i64],
    ) -> Option<Value> {
        let mut result = self.call(method, params.clone(), call.clone(), tolerated)?;
        for _round in 0..MAX_ROUNDS {
            if result["resultType"] != "input_required" {
                return Some(result);
            }
            let mut responses = serde_json::Map::new();
            let asked = result["inputRequests"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (key, request) in asked {
                let asked_method = request["method"].as_str().unwrap_or("");
                // One it cannot answer goes unanswered: the server asks again or gives up.
                if let Ok(response) = self.answer_of(asked_method, &request["params"]) {
                    responses.insert(key, response);
                }
            }
            let mut retry = params.clone();
            retry["inputResponses"] = Value::Object(responses);
            if let Some(state) = result.get("requestState") {
                retry["requestState"] = state.clone();
            }
            self.report.retries += 1;
            result = self.call(method, retry, call.clone(), tolerated)?;
        }
        if result["resultType"] != "input_required" {
            return Some(result);
        }
        self.report.findings.push(Finding {
            fault: Fault::Error,
            detail: format!("still asking for input after {MAX_ROUNDS} rounds of answers"),
            request: result.to_string(),
            call,
            smallest: None,
        });
        None
    }

    /// Every page of a list (`tools/list` …): the items of `member`; `None` when a page was not
    /// answered (a finding).
    fn list_all(&mut self, method: &str, member: &str) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        let mut cursor: Option<Value> = None;
        for _page in 0..100 {
            let params = cursor.take().map_or(json!({}), |c| json!({"cursor": c}));
            let result = self.call(method, params, None, &[])?;
            items.extend(result[member].as_array().into_iter().flatten().cloned());
            match result.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => break,
            }
        }
        Some(items)
    }

    /// Whether the last finding ended the run (a crash or a hang).
    fn stopped(&self) -> bool {
        (self.report.findings.last()).is_some_and(|f| matches!(f.fault, Fault::Crash | Fault::Hang))
    }

    /// Sends a request and waits for its answer: its result, or `None` (an error response, a
    /// crash or a hang, each a finding).
    ///
    /// An error of a code in `tolerated` is an answer too.
    fn call(
        &mut self,
        method: &str,
        params: Value,
        call: Option<(String, u64)>,
        tolerated: &[i64],
    ) -> Option<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.call.clone_from(&call);
        let mut params = params;
        if let (Some(stated), Some(members)) = (&self.stated, params.as_object_mut()) {
            let meta = members.entry("_meta").or_insert_with(|| json!({}));
            if let (Some(meta), Some(stated)) = (meta.as_object_mut(), stated.as_object()) {
                meta.extend(stated.clone());
            }
        }
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let sent = request.to_string();
        self.send(&request);
        let found = |fault, detail: String| Finding {
            fault,
            detail,
            request: sent.clone(),
            call: call.clone(),
            smallest: None,
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
            let code = error["code"].as_i64();
            if code.is_some_and(|c| tolerated.contains(&c)) {
                // The call was understood and answered ([`Callee::tolerated`]).
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
                        smallest: None,
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
                    smallest: None,
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
                smallest: None,
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

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn templates_are_expanded_by_their_operators() {
        let mut n = 0;
        let mut next = || {
            n += 1;
            format!("v{n}")
        };
        let cases = [
            ("test://template/{id}/data", "test://template/v1/data"),
            ("file:///{+path}", "file:///v2"),
            ("a://x{/segments*}", "a://x/v3"),
            ("a://search{?q,page}", "a://search?q=v4&page=v5"),
            ("a://x?fixed=1{&more}", "a://x?fixed=1&more=v6"),
            ("a://plain", "a://plain"),
        ];
        for (template, expanded) in cases {
            assert_eq!(expand(template, &mut next).unwrap(), expanded, "{template}");
        }
        assert!(expand("a://{unclosed", &mut next).is_err());
    }
}
