//! A stdio MCP client built on `mcp-typed` alone: it starts a server, calls every one of its
//! tools, reads every resource, gets every prompt, answers whatever the server asks on the way
//! (forms, URL consent, sampling, roots), and checks every message it receives against the
//! official schema of the revision it speaks.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin client -- [--protocol 2026-07-28|2025-11-25] [--log FILE] <server command…>
//! ```
//!
//! - **2025-11-25** (`--protocol 2025-11-25`): a session. `initialize`, `notifications/initialized`,
//!   `tools/list`, then `tools/call` for each tool. While a request runs, the server may send its
//!   own requests (`elicitation/create`, `sampling/createMessage`, `roots/list`, `ping`): each is
//!   answered at once.
//! - **2026-07-28** (the default): no session. Every request carries the protocol version, the
//!   client's name and its capabilities in `_meta`. A server that needs input answers a
//!   `tools/call`, `resources/read` or `prompts/get` with an `InputRequiredResult`; the client
//!   answers every input request and sends the same request again with `inputResponses` and the
//!   server's `requestState`, for at most ten rounds. A `tools/call` also asks for log messages
//!   of level `info` and above (`io.modelcontextprotocol/logLevel`): without it, a server of this
//!   revision sends none.
//!
//! After the tools, and only if the server declares the capability: `resources/list` and a
//! `resources/read` of each resource, `resources/templates/list` and a read of one instance of
//! each template (every variable is `1`), `prompts/list` and a `prompts/get` of each prompt (each
//! required argument is `text`).
//!
//! It prints one line per request on stdout: `<tool>: <text blocks joined by " | ">` (line
//! breaks in a text written as `\n`), `resource <uri>: <first 60 characters of its text, or
//! "<N bytes blob>">` and `prompt <name>: <N messages>` (`1 message`, `2 messages`). Everything else (who the server is,
//! URLs to open, log messages, progress, failures) goes to stderr. Every `tools/call` asks for
//! progress (`_meta.progressToken`, the request's id); the notifications are shown as they come
//! and counted per tool. Tool arguments are made up from each tool's `inputSchema`, form answers
//! from the form's defaults and constraints; sampling gets a fixed reply, and the one root is the
//! current directory. A 2025-11-25 tool that must be called as a task is skipped: this client
//! does not do tasks.
//!
//! **Strict checks.** Every line the server writes must decode as the revision's
//! `ServerMessage`, and encode back to the same JSON. A response must also decode as the result
//! type of the request it answers (`<R as mcp_typed::jsonrpc::Request>::Result`), so a
//! `tools/call` answer is read as a `CallToolResult`, a `resources/read` answer as a
//! `ReadResourceResult`, and not as whatever a result with those members could be. Anything
//! else is a protocol error: the client says which line and why, and exits 1. It also exits 1
//! when a tool, a resource or a prompt fails (an error response, `isError`, a blob that is not
//! base64, too many rounds); 0 means every one completed.
//!
//! `--log FILE` appends every line sent (`> `) and received (`< `) to FILE.

use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use mcp_mrtr::client::{Answerer, FormAnswer};
use mcp_typed::elicit::{PropertySchema, RequestedSchema, StringFormat};
use mcp_typed::jsonrpc::{DecodeError, RawMessage, Request};
use mcp_typed::v2026_07_28 as v2026;
use mcp_typed::IndexMap;
use serde::Serialize;
use serde_json::{json, Map, Number, Value};

/// How long the client waits for the response to one request.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server has to exit once its stdin is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// The most requests one `tools/call`, `resources/read` or `prompts/get` may take in 2026-07-28
/// (the first and its retries): a server that keeps asking for input forever must not keep the
/// client forever.
const MAX_ROUNDS: u32 = 10;

/// Who this client says it is (`clientInfo`).
const CLIENT_NAME: &str = "mcp-typed-example-client";
/// The model name and text of every sampling answer: this client has no LLM.
const SAMPLING_MODEL: &str = "example-client";
const SAMPLED_REPLY: &str = "sampled reply";
/// The name of the one root this client offers: the directory it runs in.
const ROOT_NAME: &str = "cwd";
/// The value of every variable of a resource template: the kind of id a server likely has.
const TEMPLATE_VALUE: &str = "1";
/// The value of every required prompt argument.
const PROMPT_ARGUMENT: &str = "text";
/// How much of a resource's text its line shows, in characters.
const RESOURCE_PREVIEW: usize = 60;

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("client: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut connection = match Connection::spawn(&options.command, options.log.as_deref()) {
        Ok(connection) => connection,
        Err(error) => {
            eprintln!("client: cannot start `{}`: {error}", options.command[0]);
            return ExitCode::from(2);
        }
    };
    let mut tally = Tally::default();
    let run = match options.protocol {
        Protocol::V2025_11_25 => era_2025_11_25::run(&mut connection, &mut tally),
        Protocol::V2026_07_28 => era_2026_07_28::run(&mut connection, &mut tally),
    };
    // The server is stopped on every path: closing its stdin asks it to exit.
    drop(connection);
    match run {
        Err(error) => {
            eprintln!("client: protocol error: {error}");
            ExitCode::FAILURE
        }
        Ok(()) if tally.failed.is_empty() => {
            let skipped = match tally.skipped {
                0 => String::new(),
                n => format!(" ({n} skipped)"),
            };
            eprintln!("client: all completed: {}{skipped}", tally.completed());
            ExitCode::SUCCESS
        }
        Ok(()) => {
            eprintln!(
                "client: {} failed: {} (completed: {})",
                tally.failed.len(),
                tally.failed.join(", "),
                tally.completed()
            );
            ExitCode::FAILURE
        }
    }
}

// ---- Command line

const USAGE: &str =
    "usage: client [--protocol 2026-07-28|2025-11-25] [--log FILE] <server command…>";

/// The protocol revisions this client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    V2025_11_25,
    V2026_07_28,
}

#[derive(Debug)]
struct Options {
    protocol: Protocol,
    log: Option<PathBuf>,
    /// The server's program and its arguments.
    command: Vec<String>,
}

impl Options {
    /// Reads the options, which come before the server command (whose own options, like a
    /// script's `--log`, are left alone). `--` ends the options explicitly.
    /// `Ok(None)` asks for the usage text.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Self>, String> {
        let mut protocol = Protocol::V2026_07_28;
        let mut log = None;
        let mut command = Vec::new();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value)),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| {
                inline
                    .map(str::to_owned)
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match flag.as_str() {
                "--protocol" => {
                    protocol = match value("--protocol")?.as_str() {
                        "2026-07-28" => Protocol::V2026_07_28,
                        "2025-11-25" => Protocol::V2025_11_25,
                        other => return Err(format!("unsupported protocol version `{other}`")),
                    }
                }
                "--log" => log = Some(PathBuf::from(value("--log")?)),
                "-h" | "--help" => return Ok(None),
                "--" => {
                    command.extend(args.by_ref());
                    break;
                }
                _ if arg.starts_with('-') => return Err(format!("unknown option `{arg}`")),
                _ => {
                    command.push(arg);
                    command.extend(args.by_ref());
                    break;
                }
            }
        }
        if command.is_empty() {
            return Err("no server command".to_owned());
        }
        Ok(Some(Self {
            protocol,
            log,
            command,
        }))
    }
}

// ---- Errors and results

/// Why the run stopped: the server broke the protocol, or could not be talked to.
#[derive(Debug)]
struct ProtocolError(String);

impl ProtocolError {
    fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

type Outcome<T> = Result<T, ProtocolError>;

/// What became of the tools, resources and prompts: each completed one is printed as it ends.
#[derive(Debug, Default)]
struct Tally {
    tools: usize,
    resources: usize,
    prompts: usize,
    skipped: usize,
    /// What failed, each named as its failure message names it.
    failed: Vec<String>,
}

impl Tally {
    /// A tool that returned a result. A result with `isError` is the tool saying it failed: it
    /// is printed like any other, and counted as a failure.
    fn tool(&mut self, tool: &str, text: &str, is_error: bool) {
        println!("{tool}: {}", one_line(text));
        if is_error {
            self.failed(tool, "the result has isError: true");
        } else {
            self.tools += 1;
        }
    }

    /// A resource that was read: its first contents are shown.
    fn resource(&mut self, uri: &str, contents: &[Contents]) {
        match preview(contents) {
            Ok(preview) => {
                println!("resource {uri}: {preview}");
                self.resources += 1;
            }
            Err(why) => self.failed(&format!("resource {uri}"), why),
        }
    }

    /// A prompt that was got, with the number of its messages.
    fn prompt(&mut self, name: &str, messages: usize) {
        println!("prompt {name}: {}", counted(messages, "message"));
        self.prompts += 1;
    }

    /// A request that did not complete (an error response, too many rounds), or whose result
    /// says it failed.
    fn failed(&mut self, what: &str, why: impl fmt::Display) {
        eprintln!("client: `{what}` failed: {why}");
        self.failed.push(what.to_owned());
    }

    /// A tool this client must not call (it is neither a success nor a failure).
    fn skipped(&mut self, tool: &str, why: &str) {
        eprintln!("client: `{tool}` skipped: {why}");
        self.skipped += 1;
    }

    /// `3 tools, 2 resources, 1 prompt`: what completed.
    fn completed(&self) -> String {
        [
            (self.tools, "tool"),
            (self.resources, "resource"),
            (self.prompts, "prompt"),
        ]
        .map(|(n, what)| counted(n, what))
        .join(", ")
    }
}

/// `1 message`, `2 messages`.
fn counted(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// A text on one line, whatever it holds (pretty-printed JSON, lists): line breaks are written
/// as `\r` and `\n`.
fn one_line(text: &str) -> String {
    text.replace('\r', "\\r").replace('\n', "\\n")
}

// ---- The connection: newline-delimited JSON-RPC over the server's stdio

/// A line the server wrote, numbered from 1 so that a failed check can say which.
#[derive(Debug)]
struct Line {
    number: usize,
    text: String,
}

/// What reading the server's stdout gave.
#[derive(Debug)]
enum Received {
    Line(Line),
    /// Nothing before the deadline.
    Timeout,
    /// The server closed its stdout (it exited, or is exiting).
    Closed,
}

#[derive(Debug)]
struct Connection {
    child: Child,
    /// `None` once closed (the signal for the server to exit).
    stdin: Option<ChildStdin>,
    /// The server's stdout, line by line, read on a thread so that waiting can time out.
    lines: Receiver<io::Result<String>>,
    received: usize,
    log: Option<File>,
    next_id: i64,
    exited: bool,
}

impl Connection {
    fn spawn(command: &[String], log: Option<&Path>) -> io::Result<Self> {
        let log = log
            .map(|path| OpenOptions::new().create(true).append(true).open(path))
            .transpose()?;
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The server's diagnostics go straight to the user.
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = child.stdout.take().ok_or(io::ErrorKind::BrokenPipe)?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Ok(Self {
            stdin: child.stdin.take(),
            child,
            lines,
            received: 0,
            log,
            next_id: 0,
            exited: false,
        })
    }

    /// A fresh JSON-RPC id: every request gets its own, retries included.
    fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    fn send(&mut self, message: &impl Serialize) -> Outcome<()> {
        let text = serde_json::to_string(message)
            .map_err(|e| ProtocolError::new(format!("cannot encode a message: {e}")))?;
        self.log("> ", &text)?;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProtocolError::new("the server's stdin is closed"))?;
        writeln!(stdin, "{text}")
            .and_then(|()| stdin.flush())
            .map_err(|e| ProtocolError::new(format!("cannot write to the server: {e}")))
    }

    /// The next line the server writes before `deadline`.
    fn read(&mut self, deadline: Instant) -> Outcome<Received> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Ok(text)) => {
                self.received += 1;
                self.log("< ", &text)?;
                Ok(Received::Line(Line {
                    number: self.received,
                    text,
                }))
            }
            Ok(Err(error)) => Err(ProtocolError::new(format!(
                "line {}: cannot read it: {error}",
                self.received + 1
            ))),
            Err(RecvTimeoutError::Timeout) => Ok(Received::Timeout),
            Err(RecvTimeoutError::Disconnected) => Ok(Received::Closed),
        }
    }

    /// The next line while the response to `method` is awaited: nothing before `deadline`, or
    /// a server that stops writing, is an error.
    fn receive_for(&mut self, method: &str, deadline: Instant) -> Outcome<Line> {
        match self.read(deadline)? {
            Received::Line(line) => Ok(line),
            Received::Timeout => Err(ProtocolError::new(format!(
                "no response to `{method}` within {} s",
                RESPONSE_TIMEOUT.as_secs()
            ))),
            Received::Closed => Err(ProtocolError::new(format!(
                "the server closed its stdout before answering `{method}` ({})",
                self.exit_status()
            ))),
        }
    }

    /// Closes the server's stdin, checks what it still writes (late notifications) with
    /// `check`, and waits for it to exit.
    fn finish(&mut self, mut check: impl FnMut(&Line) -> Outcome<()>) -> Outcome<()> {
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_GRACE;
        // A server that exits closes its stdout; one that does not is killed by `stop`.
        while let Received::Line(line) = self.read(deadline)? {
            check(&line)?;
        }
        self.stop(deadline);
        Ok(())
    }

    /// Waits for the server until `deadline`, then kills it.
    fn stop(&mut self, deadline: Instant) {
        drop(self.stdin.take());
        while !self.exited && Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => self.exited = true,
                Ok(None) => thread::sleep(Duration::from_millis(20)),
            }
        }
        if !self.exited {
            eprintln!(
                "client: the server did not exit within {} s; killing it",
                EXIT_GRACE.as_secs()
            );
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.exited = true;
        }
    }

    /// How the server ended, for the message about a closed stdout.
    fn exit_status(&mut self) -> String {
        // Its stdout closes a moment before the process is gone.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.exited = true;
                return format!("it exited: {status}");
            }
            thread::sleep(Duration::from_millis(20));
        }
        "it is still running".to_owned()
    }

    fn log(&mut self, prefix: &str, text: &str) -> Outcome<()> {
        match &mut self.log {
            Some(file) => writeln!(file, "{prefix}{text}")
                .map_err(|e| ProtocolError::new(format!("cannot write the log: {e}"))),
            None => Ok(()),
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.stop(Instant::now() + EXIT_GRACE);
    }
}

// ---- Strict checks of what the server sends

/// Decodes a line as `M`, the `ServerMessage` of the revision spoken, and checks that the
/// typed message encodes back to the same JSON: nothing the server sent was dropped or changed.
fn decode_message<M>(line: &Line) -> Outcome<M>
where
    M: FromStr<Err = DecodeError> + Serialize,
{
    let message: M = line.text.parse().map_err(|error: DecodeError| {
        ProtocolError::new(format!(
            "line {}: not a valid server message: {error}\n  line: {}",
            line.number, line.text
        ))
    })?;
    same_json(line, "the message", &line.text, &message)?;
    Ok(message)
}

/// Decodes the `result` of a response as the result type `R` pairs with: the type the request
/// that was sent promises, rather than whatever type a result with these members could be.
fn decode_result<R: Request>(line: &Line) -> Outcome<R::Result> {
    let raw = RawMessage::parse(&line.text)
        .map_err(|e| ProtocolError::new(format!("line {}: {e}", line.number)))?;
    let result = raw.result.ok_or_else(|| {
        ProtocolError::new(format!("line {}: a response without `result`", line.number))
    })?;
    let typed: R::Result = serde_json::from_str(result.get()).map_err(|error| {
        ProtocolError::new(format!(
            "line {}: the result of `{}` does not decode as its result type: {error}\n  result: {}",
            line.number,
            R::METHOD,
            result.get()
        ))
    })?;
    let what = format!("the result of `{}`", R::METHOD);
    same_json(line, &what, result.get(), &typed)?;
    Ok(typed)
}

/// `decoded` must encode to the JSON of `received`, compared as JSON values (a peer may order
/// members or space its text differently; numbers must stay as written: `2.0` is not `2`).
fn same_json(line: &Line, what: &str, received: &str, decoded: &impl Serialize) -> Outcome<()> {
    let received: Value = serde_json::from_str(received)
        .map_err(|e| ProtocolError::new(format!("line {}: not JSON: {e}", line.number)))?;
    let encoded = serde_json::to_value(decoded).map_err(|e| {
        ProtocolError::new(format!(
            "line {}: {what} cannot be encoded again: {e}",
            line.number
        ))
    })?;
    match first_difference(&received, &encoded, String::new()) {
        None => Ok(()),
        Some((pointer, was, became)) => Err(ProtocolError::new(format!(
            "line {}: {what} does not encode back to what was received: at `{pointer}` the server \
             sent {was}, the decoded value writes {became}\n  line: {}",
            line.number, line.text
        ))),
    }
}

/// Where two JSON values first differ: a JSON pointer and both sides (`absent` for a member
/// one side lacks).
fn first_difference(a: &Value, b: &Value, pointer: String) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys()) {
                let here = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => {
                        if let Some(found) = first_difference(x, y, here) {
                            return Some(found);
                        }
                    }
                    (x, y) => return Some((here, shown(x), shown(y))),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, format!("{pointer}/{i}"))),
        _ if a == b => None,
        _ => Some((pointer, a.to_string(), b.to_string())),
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "absent".to_owned(), Value::to_string)
}

/// The error response to one of our requests, as a message.
fn error_text(method: &str, code: i64, message: &str) -> String {
    format!("the server answered `{method}` with error {code}: {message}")
}

// ---- Tool arguments: a valid value for each required property of the tool's inputSchema

/// The arguments of a call: the tool's `inputSchema` (any JSON Schema) is read as JSON, and
/// each required property gets its `default`, or else a value its schema accepts.
fn arguments_for(input_schema: &impl Serialize) -> Outcome<Map<String, Value>> {
    let schema = serde_json::to_value(input_schema)
        .map_err(|e| ProtocolError::new(format!("cannot read an inputSchema: {e}")))?;
    Ok(sample_object(&schema, &schema, 0))
}

/// A value `schema` accepts. `root` is the whole input schema, for local `$ref`s. This is not
/// a JSON Schema solver: it covers what tool schemas usually say (types, bounds, formats,
/// enums, `anyOf` of a type and `null`, `$defs`).
fn sample_value(schema: &Value, root: &Value, depth: usize) -> Value {
    // `true` (or any non-object) accepts everything; deep recursion means a cycle of `$ref`s.
    let Some(keywords) = schema.as_object().filter(|_| depth < 16) else {
        return json!("text");
    };
    if let Some(value) = keywords.get("default").or_else(|| keywords.get("const")) {
        return value.clone();
    }
    if let Some(first) = keywords
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|o| o.first())
    {
        return first.clone();
    }
    if let Some(target) = keywords
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        return sample_value(target, root, depth + 1);
    }
    for combinator in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = keywords.get(combinator).and_then(Value::as_array) {
            // `Optional[T]` is `anyOf: [T, {"type": "null"}]`: prefer the branch with a value.
            let not_null = branches
                .iter()
                .find(|b| b.get("type") != Some(&json!("null")));
            if let Some(branch) = not_null.or(branches.first()) {
                return sample_value(branch, root, depth + 1);
            }
        }
    }
    let kind = match keywords.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null"),
        _ if keywords.contains_key("properties") => "object",
        _ => "string",
    };
    match kind {
        "object" => Value::Object(sample_object(schema, root, depth)),
        "array" => sample_array(keywords, root, depth),
        "integer" => {
            let low = bound(keywords, "minimum").map(f64::ceil);
            let high = bound(keywords, "maximum").map(f64::floor);
            json!(low.unwrap_or(1.0).min(high.unwrap_or(f64::MAX)) as i64)
        }
        // The bound as the schema wrote it (`minimum: 2` gives `2`, not `2.0`).
        "number" => match (bound(keywords, "minimum"), bound(keywords, "maximum")) {
            (Some(_), _) => keywords["minimum"].clone(),
            (None, Some(high)) if high < 2.5 => keywords["maximum"].clone(),
            _ => json!(2.5),
        },
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => json!(sample_string(
            keywords.get("format").and_then(Value::as_str),
            bound(keywords, "minLength"),
            bound(keywords, "maxLength"),
        )),
    }
}

/// The number a keyword holds.
fn bound(keywords: &Map<String, Value>, name: &str) -> Option<f64> {
    keywords.get(name).and_then(Value::as_f64)
}

/// An object with every required property filled in.
fn sample_object(schema: &Value, root: &Value, depth: usize) -> Map<String, Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut object = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let property = properties
            .and_then(|p| p.get(name))
            .unwrap_or(&Value::Bool(true));
        object.insert(name.to_owned(), sample_value(property, root, depth + 1));
    }
    object
}

/// `[]`, or as many items as `minItems` asks for (distinct ones when the items are an enum).
fn sample_array(keywords: &Map<String, Value>, root: &Value, depth: usize) -> Value {
    let count = bound(keywords, "minItems").unwrap_or(0.0) as usize;
    let items = keywords.get("items").unwrap_or(&Value::Bool(true));
    let options = items.get("enum").and_then(Value::as_array);
    let values = (0..count)
        .map(|i| match options {
            Some(options) if !options.is_empty() => options[i % options.len()].clone(),
            _ => sample_value(items, root, depth + 1),
        })
        .collect();
    Value::Array(values)
}

/// A string: a valid one for the four formats MCP forms know, else "text" padded to
/// `min_length` and cut to `max_length` (in characters, as JSON Schema counts).
fn sample_string(format: Option<&str>, min_length: Option<f64>, max_length: Option<f64>) -> String {
    if let Some(text) = format.and_then(StringFormat::from_name).map(formatted) {
        return text.to_owned();
    }
    let min = min_length.unwrap_or(0.0) as usize;
    let max = max_length.map_or(usize::MAX, |max| max as usize);
    "text".chars().cycle().take(min.max(4).min(max)).collect()
}

/// A valid value of each string format.
fn formatted(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "user@example.com",
        StringFormat::Uri => "https://example.com/",
        StringFormat::Date => "2024-01-15",
        StringFormat::DateTime => "2024-01-15T09:30:00Z",
    }
}

// ---- Answers: what this client says when a server asks for input, in both eras

/// The answers of this client, which has no user and no LLM: forms are filled in, URLs
/// accepted (shown, not opened), sampling gets a fixed reply, the one root is the current
/// directory. They are written once, in the types of [`Answerer`] (2026-07-28's): a
/// `Retrier` puts them in the retries of 2026-07-28, and the live requests of 2025-11-25
/// are converted to them (`era_2025_11_25::answer`).
#[derive(Debug, Default)]
struct Answers {
    /// `Answerer::roots` cannot fail: an unreadable current directory is kept here, and
    /// reported once the answers are in ([`Answers::checked`]).
    error: Option<ProtocolError>,
}

impl Answers {
    /// Whether every answer could be given.
    fn checked(&mut self) -> Outcome<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

impl Answerer for Answers {
    /// Every field without a default gets a value made up within its constraints; the others
    /// are left out, as a user leaves a pre-filled field: the caller applies the defaults and
    /// validates the whole answer before it is sent (a server must never receive an answer
    /// that breaks its form).
    fn form(&mut self, _key: &str, _message: &str, schema: &RequestedSchema) -> FormAnswer {
        let defaults = schema.defaults();
        let content = schema
            .properties
            .iter()
            .filter(|(name, _)| !defaults.contains_key(name))
            .map(|(name, property)| (name.clone(), made_up(property)))
            .collect();
        FormAnswer::Accept(content)
    }

    fn url(&mut self, _key: &str, message: &str, url: &str) -> v2026::ElicitResultAction {
        eprintln!("client: {message} → open {url}");
        v2026::ElicitResultAction::Accept
    }

    /// Every sampling request gets the same reply.
    fn sample(
        &mut self,
        _key: &str,
        _params: &v2026::CreateMessageRequestParams,
    ) -> Result<v2026::CreateMessageResult, String> {
        Ok(v2026::CreateMessageResult {
            meta: None,
            content: v2026::CreateMessageResultContent::Text(Box::new(v2026::TextContent {
                meta: None,
                annotations: None,
                text: SAMPLED_REPLY.to_owned(),
                extra: Map::new(),
            })),
            model: SAMPLING_MODEL.to_owned(),
            role: v2026::Role::Assistant,
            stop_reason: Some("endTurn".to_owned()),
            extra: Map::new(),
        })
    }

    fn roots(&mut self, _key: &str) -> Vec<v2026::Root> {
        match cwd_root_uri() {
            Ok(uri) => vec![v2026::Root {
                meta: None,
                name: Some(ROOT_NAME.to_owned()),
                uri,
                extra: Map::new(),
            }],
            Err(error) => {
                self.error = Some(error);
                Vec::new()
            }
        }
    }
}

/// A value that satisfies one property of a form.
fn made_up(property: &PropertySchema) -> Value {
    match property {
        PropertySchema::String(string) => json!(sample_string(
            string.format.map(StringFormat::as_str),
            string.min_length.map(|n| n as f64),
            string.max_length.map(|n| n as f64),
        )),
        PropertySchema::Number(number) => {
            let low = number.minimum.as_ref().and_then(Number::as_f64);
            let high = number.maximum.as_ref().and_then(Number::as_f64);
            let within =
                |x: f64| low.is_none_or(|low| x >= low) && high.is_none_or(|high| x <= high);
            if number.integer {
                // Its minimum (rounded up), else 1, else the maximum.
                let value = low.map(f64::ceil).unwrap_or(1.0);
                let value = if within(value) {
                    value
                } else {
                    high.unwrap_or(value).floor()
                };
                json!(value as i64)
            } else {
                // A value with a fraction, which only a number field accepts: an answer that
                // an integer field would take too tests less.
                let candidates = [
                    Some(3.5),
                    low.map(|low| low + 0.5),
                    high.map(|high| high - 0.5),
                    low.zip(high).map(|(low, high)| (low + high) / 2.0),
                ];
                let value = candidates
                    .into_iter()
                    .flatten()
                    .find(|&x| within(x) && x.fract() != 0.0)
                    .or(low)
                    .unwrap_or(3.5);
                json!(value)
            }
        }
        PropertySchema::Boolean(_) => json!(true),
        PropertySchema::SingleSelect(select) => json!(select.options.values().next()),
        PropertySchema::MultiSelect(select) => {
            let wanted = select.min_items.unwrap_or(1).max(1) as usize;
            let allowed = select.max_items.map_or(usize::MAX, |max| max as usize);
            json!(select
                .options
                .values()
                .take(wanted.min(allowed))
                .collect::<Vec<_>>())
        }
    }
}

/// The one root this client offers: the current directory as a `file://` URI.
fn cwd_root_uri() -> Outcome<String> {
    let cwd = std::env::current_dir()
        .map_err(|e| ProtocolError::new(format!("cannot read the current directory: {e}")))?;
    let path = cwd.to_string_lossy().replace('\\', "/");
    let mut uri = String::from("file://");
    if !path.starts_with('/') {
        uri.push('/'); // a Windows drive: file:///C:/…
    }
    // Percent-encode everything but the characters a path may hold as they are (RFC 3986).
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Ok(uri)
}

/// Shows what the server says while it works (log messages, progress) on stderr.
fn show_log(level: &str, logger: Option<&str>, data: &Value) {
    let text = data
        .as_str()
        .map_or_else(|| data.to_string(), str::to_owned);
    match logger {
        Some(logger) => eprintln!("client: server log [{level}] {logger}: {text}"),
        None => eprintln!("client: server log [{level}] {text}"),
    }
}

fn show_progress(progress: &Number, total: Option<&Number>, message: Option<&str>) {
    let total = total.map(|total| format!("/{total}")).unwrap_or_default();
    let message = message.map(|m| format!(" {m}")).unwrap_or_default();
    eprintln!("client: progress {progress}{total}{message}");
}

// ---- Progress and pages: the same in both eras

/// After a tool call: how many `notifications/progress` came for it (nothing when none came).
fn show_progress_count(tool: &str, received: usize) {
    if received > 0 {
        eprintln!(
            "client: `{tool}` sent {}",
            counted(received, "progress notification")
        );
    }
}

/// Counts a `notifications/progress` for the request in flight, whose token (when it asked for
/// progress) is its id. Either era's `ProgressToken` is a string or an integer.
fn count_progress(token: &impl Serialize, pending: i64, progress: &mut usize) {
    let token = json!(token);
    if token == json!(pending) {
        *progress += 1;
    } else {
        // Late, or for a request this client never made: worth a word, not a failure.
        eprintln!("client: progress for token {token}, not the pending request's ({pending})");
    }
}

/// One page of a list: its items, and the cursor of the next page (`nextCursor`).
type Page<T> = (Vec<T>, Option<String>);

/// Every item of a paginated list: `fetch` gets the page at a cursor (`None` for the first) and
/// returns its items and its `nextCursor`.
fn collect_pages<T>(
    method: &str,
    mut fetch: impl FnMut(Option<String>) -> Outcome<Page<T>>,
) -> Outcome<Vec<T>> {
    let mut items = Vec::new();
    // A cursor that comes back would have this client asking for pages forever.
    let mut seen = HashSet::new();
    let mut cursor = None;
    loop {
        let (page, next) = fetch(cursor)?;
        items.extend(page);
        match next {
            None => return Ok(items),
            Some(next) if !seen.insert(next.clone()) => {
                return Err(ProtocolError::new(format!(
                    "`{method}` gave the cursor {} a second time: its pages never end",
                    json!(next)
                )))
            }
            Some(next) => cursor = Some(next),
        }
    }
}

// ---- Resources and prompts: what is asked and printed, the same in both eras

/// The requests about resources and prompts, as each era sends them and checks the answers.
/// What to ask for, and what to make of the answers, is decided once: in [`read_resources`]
/// and [`get_prompts`].
trait Catalog {
    /// The URI of every resource (`resources/list`, every page).
    fn resources(&mut self) -> Outcome<Vec<String>>;
    /// The `uriTemplate` of every resource template (`resources/templates/list`, every page).
    fn resource_templates(&mut self) -> Outcome<Vec<String>>;
    /// `resources/read`: the resource's contents, or why the server did not give them.
    fn read(&mut self, uri: &str) -> Outcome<Result<Vec<Contents>, String>>;
    /// Every prompt (`prompts/list`, every page): its name and its required arguments.
    fn prompts(&mut self) -> Outcome<Vec<(String, Vec<String>)>>;
    /// `prompts/get`: the number of messages of the prompt, or why the server did not give it.
    fn get_prompt(
        &mut self,
        name: &str,
        arguments: IndexMap<String, String>,
    ) -> Outcome<Result<usize, String>>;
}

/// One item of a resource's `contents`, the same in both eras.
#[derive(Debug)]
enum Contents {
    Text(String),
    /// Base64, as the server sent it.
    Blob(String),
}

/// Reads every resource, then one instance of every resource template.
fn read_resources(catalog: &mut impl Catalog, tally: &mut Tally) -> Outcome<()> {
    for uri in catalog.resources()? {
        read_resource(catalog, tally, &uri)?;
    }
    for template in catalog.resource_templates()? {
        read_resource(catalog, tally, &template_instance(&template))?;
    }
    Ok(())
}

fn read_resource(catalog: &mut impl Catalog, tally: &mut Tally, uri: &str) -> Outcome<()> {
    match catalog.read(uri)? {
        Ok(contents) => tally.resource(uri, &contents),
        Err(why) => tally.failed(&format!("resource {uri}"), why),
    }
    Ok(())
}

/// Gets every prompt, with a value for each required argument only: the optional ones keep
/// the server's defaults.
fn get_prompts(catalog: &mut impl Catalog, tally: &mut Tally) -> Outcome<()> {
    for (name, required) in catalog.prompts()? {
        // Always an object, `{}` when nothing is required: a server that validates the
        // arguments against a schema of optional ones may refuse none at all.
        let arguments = required
            .into_iter()
            .map(|argument| (argument, PROMPT_ARGUMENT.to_owned()))
            .collect();
        match catalog.get_prompt(&name, arguments)? {
            Ok(messages) => tally.prompt(&name, messages),
            Err(why) => tally.failed(&format!("prompt {name}"), why),
        }
    }
    Ok(())
}

/// What a resource's line shows of its contents: the first characters of its first text, or
/// the size of its first blob. Further contents are counted (`(+2 more)`); none at all is said.
fn preview(contents: &[Contents]) -> Result<String, String> {
    let Some(first) = contents.first() else {
        return Ok("<no contents>".to_owned());
    };
    let mut preview = match first {
        Contents::Text(text) => one_line(&text.chars().take(RESOURCE_PREVIEW).collect::<String>()),
        Contents::Blob(blob) => {
            // The schema says base64 (`format: byte`); a blob that is not cannot be used.
            let size = base64_size(blob).ok_or("its blob is not base64")?;
            format!("<{size} bytes blob>")
        }
    };
    if contents.len() > 1 {
        preview.push_str(&format!(" (+{} more)", contents.len() - 1));
    }
    Ok(preview)
}

/// The number of bytes a base64 text (RFC 4648, padded) decodes to, or `None` if it is not one.
fn base64_size(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    let digits = &bytes[..bytes.len() - padding];
    let valid = bytes.len() % 4 == 0
        && padding <= 2
        && digits
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    valid.then(|| bytes.len() / 4 * 3 - padding)
}

/// One URI of a resource template (RFC 6570): every variable has the value `1`.
fn template_instance(template: &str) -> String {
    let mut uri = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|at| open + at) else {
            break; // not an expression: the rest is kept as it is
        };
        uri.push_str(&rest[..open]);
        uri.push_str(&expand(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    uri.push_str(rest);
    uri
}

/// One expression of a URI template (`item_id`, `+path`, `?page,size`…) with every variable
/// set to `1`, as its operator writes it (`1`, `?page=1&size=1`).
fn expand(expression: &str) -> String {
    // What comes first, what comes between the variables, whether each is written `name=value`.
    let (first, between, named) = match expression.chars().next() {
        Some('+') => ("", ",", false),
        Some('#') => ("#", ",", false),
        Some('.') => (".", ".", false),
        Some('/') => ("/", "/", false),
        Some(';') => (";", ";", true),
        Some('?') => ("?", "&", true),
        Some('&') => ("&", "&", true),
        _ => ("", ",", false),
    };
    let variables = expression
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(expression);
    let values: Vec<String> = variables
        .split(',')
        .map(|variable| {
            // A prefix (`:3`) or explode (`*`) modifier changes nothing for the value `1`.
            let name = variable.split(':').next().unwrap_or(variable);
            let name = name.trim_end_matches('*');
            if named {
                format!("{name}={TEMPLATE_VALUE}")
            } else {
                TEMPLATE_VALUE.to_owned()
            }
        })
        .collect();
    format!("{first}{}", values.join(between))
}

// ---- 2025-11-25: a session, with requests from the server while a request runs

mod era_2025_11_25 {
    use mcp_typed::jsonrpc::{Request, METHOD_NOT_FOUND};
    use mcp_typed::v2025_11_25::{
        CallToolRequest, CallToolRequestParams, CallToolRequestParamsMeta, ClientCapabilities,
        ClientCapabilitiesElicitation, ClientCapabilitiesRoots, ClientMessage, ClientNotification,
        ClientRequest, ClientResult, ContentBlock, Error, GetPromptRequest, GetPromptRequestParams,
        Implementation, InitializeRequest, InitializeRequestParams, ListPromptsRequest,
        ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest,
        PaginatedRequestParams, ProgressToken, PromptArgument, ReadResourceRequest,
        ReadResourceRequestParams, ReadResourceResultContentsItem, RequestId,
        Result as EmptyResult, ServerMessage, ServerNotification, ServerRequest, Tool,
        ToolExecutionTaskSupport, PROTOCOL_VERSION,
    };
    use mcp_typed::RawObject;
    use serde::de::DeserializeOwned;
    use serde_json::Map;

    use super::*;

    pub(crate) fn run(connection: &mut Connection, tally: &mut Tally) -> Outcome<()> {
        let initialized = request::<InitializeRequest>(
            connection,
            ClientRequest::Initialize(Box::new(InitializeRequestParams {
                meta: None,
                capabilities: capabilities(),
                client_info: client_info(),
                protocol_version: PROTOCOL_VERSION.to_owned(),
                extra: Map::new(),
            })),
        )?
        .map_err(fatal("initialize"))?;
        // The server may offer another revision; this client speaks one, so it stops there.
        if initialized.protocol_version != PROTOCOL_VERSION {
            return Err(ProtocolError::new(format!(
                "the server chose protocol {}; this client speaks {PROTOCOL_VERSION} only",
                initialized.protocol_version
            )));
        }
        let server = &initialized.server_info;
        eprintln!(
            "client: connected to {} {} (protocol {PROTOCOL_VERSION})",
            server.name, server.version
        );
        connection.send(&ClientMessage::Notification(
            ClientNotification::Initialized(None),
        ))?;

        let tools = list::<ListToolsRequest, _>(connection, ClientRequest::ListTools, |page| {
            (page.tools, page.next_cursor)
        })?;
        for tool in tools {
            call_tool(connection, tally, &tool)?;
        }
        // Only what the server declared: a request for anything else is an error to it.
        let offers = &initialized.capabilities;
        if offers.resources.is_some() {
            read_resources(&mut Peer(connection), tally)?;
        }
        if offers.prompts.is_some() {
            get_prompts(&mut Peer(connection), tally)?;
        }
        // Whatever the server still says must be valid too; its requests can no longer be
        // answered (stdin is closed) and are not an error.
        connection.finish(|line| decode_message::<ServerMessage>(line).map(drop))
    }

    /// What this client can do: forms and URL consent, sampling, and roots.
    fn capabilities() -> ClientCapabilities {
        ClientCapabilities {
            elicitation: Some(ClientCapabilitiesElicitation {
                form: Some(RawObject::new()),
                url: Some(RawObject::new()),
                extra: Map::new(),
            }),
            sampling: Some(Default::default()),
            roots: Some(ClientCapabilitiesRoots {
                list_changed: Some(false),
                extra: Map::new(),
            }),
            ..Default::default()
        }
    }

    fn client_info() -> Implementation {
        Implementation {
            name: CLIENT_NAME.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            title: None,
            description: None,
            icons: None,
            website_url: None,
            extra: Map::new(),
        }
    }

    /// Every item of a list (`tools/list`, `resources/list`…), page after page. `variant` makes
    /// the request of its params, `page` gives the items of a result and its `nextCursor`.
    fn list<R: Request, T>(
        connection: &mut Connection,
        variant: fn(Option<Box<PaginatedRequestParams>>) -> ClientRequest,
        page: fn(R::Result) -> Page<T>,
    ) -> Outcome<Vec<T>> {
        collect_pages(R::METHOD, |cursor| {
            // The first page is asked for without params: this revision allows it.
            let params = cursor.map(|cursor| {
                Box::new(PaginatedRequestParams {
                    meta: None,
                    cursor: Some(cursor),
                    extra: Map::new(),
                })
            });
            let result = request::<R>(connection, variant(params))?.map_err(fatal(R::METHOD))?;
            Ok(page(result))
        })
    }

    fn call_tool(connection: &mut Connection, tally: &mut Tally, tool: &Tool) -> Outcome<()> {
        // Such a tool MUST be called as a task (`params.task`, then `tasks/get` and
        // `tasks/result`), which this client does not do: it declares no `tasks` capability.
        let support = tool
            .execution
            .as_ref()
            .and_then(|e| e.task_support.as_ref());
        if support == Some(&ToolExecutionTaskSupport::Required) {
            tally.skipped(&tool.name, "it must be called as a task");
            return Ok(());
        }
        let arguments = arguments_for(&tool.input_schema)?;
        let id = connection.next_id();
        let params = CallToolRequestParams {
            // The request's own id: unique among the requests in flight, as a token must be.
            meta: Some(CallToolRequestParamsMeta {
                progress_token: Some(ProgressToken::Integer(id)),
                extra: Map::new(),
            }),
            arguments: Some(RawObject::from(arguments)),
            name: tool.name.clone(),
            task: None,
            extra: Map::new(),
        };
        let mut progress = 0;
        let response = exchange::<CallToolRequest>(
            connection,
            id,
            ClientRequest::CallTool(Box::new(params)),
            &mut progress,
        )?;
        show_progress_count(&tool.name, progress);
        match response {
            Ok(result) => tally.tool(
                &tool.name,
                &text_of(&result.content),
                result.is_error == Some(true),
            ),
            Err(error) => tally.failed(&tool.name, failure::<CallToolRequest>(error)),
        }
        Ok(())
    }

    /// The text blocks of a result, joined.
    fn text_of(content: &[ContentBlock]) -> String {
        let texts: Vec<&str> = content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::TextContent(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect();
        texts.join(" | ")
    }

    /// An error response to a request this client cannot go on without.
    fn fatal(method: &'static str) -> impl FnOnce(Error) -> ProtocolError {
        move |error| ProtocolError::new(error_text(method, error.code, &error.message))
    }

    /// Sends a request and waits for its response, answering the server's own requests
    /// meanwhile. The outer error is a protocol error; the inner one the server's error
    /// response, which the caller judges.
    fn request<R: Request>(
        connection: &mut Connection,
        request: ClientRequest,
    ) -> Outcome<Result<R::Result, Error>> {
        let id = connection.next_id();
        // It asks for no progress: any that comes anyway is shown, and not counted.
        exchange::<R>(connection, id, request, &mut 0)
    }

    /// [`request`] with the id chosen by the caller, who may have made it the request's
    /// progress token: `progress` counts the `notifications/progress` that carry it.
    fn exchange<R: Request>(
        connection: &mut Connection,
        pending: i64,
        request: ClientRequest,
        progress: &mut usize,
    ) -> Outcome<Result<R::Result, Error>> {
        connection.send(&ClientMessage::Request {
            id: RequestId::Integer(pending),
            request,
        })?;
        let deadline = Instant::now() + RESPONSE_TIMEOUT;
        loop {
            let line = connection.receive_for(R::METHOD, deadline)?;
            match decode_message::<ServerMessage>(&line)? {
                ServerMessage::Response {
                    id: RequestId::Integer(answered),
                    ..
                } if answered == pending => return decode_result::<R>(&line).map(Ok),
                ServerMessage::Error {
                    id: Some(RequestId::Integer(answered)),
                    error,
                } if answered == pending => return Ok(Err(error)),
                ServerMessage::Request { id, request } => {
                    let reply = match answer(&id, request)? {
                        Ok(result) => ClientMessage::Response { id, result },
                        Err(error) => ClientMessage::Error {
                            id: Some(id),
                            error,
                        },
                    };
                    connection.send(&reply)?;
                }
                ServerMessage::Notification(notification) => {
                    if let ServerNotification::Progress(update) = &notification {
                        count_progress(&update.progress_token, pending, progress);
                    }
                    show(&notification);
                }
                ServerMessage::Response { id, .. } | ServerMessage::Error { id: Some(id), .. } => {
                    return Err(ProtocolError::new(format!(
                        "line {}: a response to id {}, but the pending request is id {pending}",
                        line.number,
                        json!(id),
                    )));
                }
                ServerMessage::Error { id: None, error } => {
                    return Err(ProtocolError::new(format!(
                        "line {}: the server reports error {}: {} (while `{}` was pending)",
                        line.number,
                        error.code,
                        error.message,
                        R::METHOD
                    )));
                }
            }
        }
    }

    /// The connection, for the requests about resources and prompts.
    struct Peer<'a>(&'a mut Connection);

    impl Catalog for Peer<'_> {
        fn resources(&mut self) -> Outcome<Vec<String>> {
            let resources =
                list::<ListResourcesRequest, _>(self.0, ClientRequest::ListResources, |page| {
                    (page.resources, page.next_cursor)
                })?;
            Ok(resources.into_iter().map(|resource| resource.uri).collect())
        }

        fn resource_templates(&mut self) -> Outcome<Vec<String>> {
            let templates = list::<ListResourceTemplatesRequest, _>(
                self.0,
                ClientRequest::ListResourceTemplates,
                |page| (page.resource_templates, page.next_cursor),
            )?;
            Ok(templates.into_iter().map(|t| t.uri_template).collect())
        }

        fn read(&mut self, uri: &str) -> Outcome<Result<Vec<Contents>, String>> {
            let params = ReadResourceRequestParams {
                meta: None,
                uri: uri.to_owned(),
                extra: Map::new(),
            };
            let response = request::<ReadResourceRequest>(
                self.0,
                ClientRequest::ReadResource(Box::new(params)),
            )?;
            Ok(response
                .map(|result| result.contents.into_iter().map(contents).collect())
                .map_err(failure::<ReadResourceRequest>))
        }

        fn prompts(&mut self) -> Outcome<Vec<(String, Vec<String>)>> {
            let prompts =
                list::<ListPromptsRequest, _>(self.0, ClientRequest::ListPrompts, |page| {
                    (page.prompts, page.next_cursor)
                })?;
            Ok(prompts
                .into_iter()
                .map(|prompt| (prompt.name, required(prompt.arguments)))
                .collect())
        }

        fn get_prompt(
            &mut self,
            name: &str,
            arguments: IndexMap<String, String>,
        ) -> Outcome<Result<usize, String>> {
            let params = GetPromptRequestParams {
                meta: None,
                arguments: Some(arguments),
                name: name.to_owned(),
                extra: Map::new(),
            };
            let response =
                request::<GetPromptRequest>(self.0, ClientRequest::GetPrompt(Box::new(params)))?;
            Ok(response
                .map(|result| result.messages.len())
                .map_err(failure::<GetPromptRequest>))
        }
    }

    fn contents(item: ReadResourceResultContentsItem) -> Contents {
        match item {
            ReadResourceResultContentsItem::Text(text) => Contents::Text(text.text),
            ReadResourceResultContentsItem::Blob(blob) => Contents::Blob(blob.blob),
        }
    }

    /// The names of the arguments a prompt requires.
    fn required(arguments: Option<Vec<PromptArgument>>) -> Vec<String> {
        let arguments = arguments.unwrap_or_default().into_iter();
        arguments
            .filter(|argument| argument.required == Some(true))
            .map(|argument| argument.name)
            .collect()
    }

    /// An error response to a request whose failure is counted, not fatal.
    fn failure<R: Request>(error: Error) -> String {
        error_text(R::METHOD, error.code, &error.message)
    }

    /// A live request, answered as a 2026-07-28 retry answers the same request: converted to
    /// that revision's `InputRequest` (the same JSON), answered by [`Answers`] through
    /// `mcp_mrtr::client::answer` (capability checked, form parsed, defaults applied,
    /// answer validated), and converted back.
    fn answer(id: &RequestId, request: ServerRequest) -> Outcome<Result<ClientResult, Error>> {
        match request {
            ServerRequest::Ping(_) => return Ok(Ok(ClientResult::Empty(EmptyResult::default()))),
            ServerRequest::Elicit(_)
            | ServerRequest::CreateMessage(_)
            | ServerRequest::ListRoots(_) => {}
            other => {
                return Ok(Err(Error {
                    code: METHOD_NOT_FOUND,
                    message: format!("this client does not serve `{}`", other.method()),
                    data: None,
                    extra: Map::new(),
                }))
            }
        }
        // A live request has no key of its own: its id stands for one.
        let key = json!(id).to_string();
        let asked: mcp_typed::v2026_07_28::InputRequest = convert(&request)?;
        let mut answers = Answers::default();
        let response =
            mcp_mrtr::client::answer(&convert(&capabilities())?, &key, &asked, &mut answers)
                .map_err(|error| {
                    ProtocolError::new(format!("cannot answer {}: {error}", request.method()))
                })?;
        answers.checked()?;
        Ok(Ok(convert(&response)?))
    }

    /// A value of one revision as the same JSON in the other's type.
    fn convert<T: Serialize, U: DeserializeOwned>(value: &T) -> Outcome<U> {
        serde_json::to_value(value)
            .and_then(serde_json::from_value)
            .map_err(|e| {
                ProtocolError::new(format!(
                    "cannot convert between 2025-11-25 and 2026-07-28: {e}"
                ))
            })
    }

    fn show(notification: &ServerNotification) {
        match notification {
            ServerNotification::LoggingMessage(log) => {
                show_log(log.level.as_str(), log.logger.as_deref(), &log.data)
            }
            ServerNotification::Progress(progress) => show_progress(
                &progress.progress,
                progress.total.as_ref(),
                progress.message.as_deref(),
            ),
            ServerNotification::ElicitationComplete(done) => {
                eprintln!("client: elicitation {} completed", done.elicitation_id)
            }
            // List changes, resource updates, cancellations, task status: nothing to do here.
            _ => {}
        }
    }
}

// ---- 2026-07-28: no session; input is asked for in results, and the call is retried

mod era_2026_07_28 {
    use mcp_mrtr::client::{Retrier, RetryError};
    use mcp_mrtr::RetryParams;
    use mcp_typed::jsonrpc::Request;
    use mcp_typed::v2026_07_28::{
        CallToolRequest, CallToolRequestParams, CallToolResult, CallToolResultResponseResult,
        ClientCapabilities, ClientCapabilitiesElicitation, ClientMessage, ClientRequest,
        ContentBlock, DiscoverRequest, Error, GetPromptRequest, GetPromptRequestParams,
        GetPromptResult, GetPromptResultResponseResult, Implementation, InputRequiredResult,
        ListPromptsRequest, ListResourceTemplatesRequest, ListResourcesRequest, ListToolsRequest,
        LoggingLevel, PaginatedRequestParams, ProgressToken, PromptArgument, ReadResourceRequest,
        ReadResourceRequestParams, ReadResourceResult, ReadResourceResultContentsItem,
        ReadResourceResultResponseResult, RequestId, RequestMetaObject, RequestParams,
        ServerMessage, ServerNotification, Tool, PROTOCOL_VERSION,
    };
    use mcp_typed::RawObject;
    use serde_json::Map;

    use super::*;

    pub(crate) fn run(connection: &mut Connection, tally: &mut Tally) -> Outcome<()> {
        // Optional for a client, but it says who the server is and whether it speaks this
        // revision before anything else is sent.
        let discovered = request::<DiscoverRequest>(
            connection,
            ClientRequest::Discover(Box::new(RequestParams {
                meta: meta(),
                extra: Map::new(),
            })),
        )?
        .map_err(fatal("server/discover"))?;
        if !discovered
            .supported_versions
            .iter()
            .any(|v| v == PROTOCOL_VERSION)
        {
            return Err(ProtocolError::new(format!(
                "the server supports {:?}, not {PROTOCOL_VERSION}",
                discovered.supported_versions
            )));
        }
        match discovered
            .meta
            .as_ref()
            .and_then(|meta| meta.io_modelcontextprotocol_server_info.as_ref())
        {
            Some(server) => eprintln!(
                "client: connected to {} {} (protocol {PROTOCOL_VERSION})",
                server.name, server.version
            ),
            None => {
                eprintln!("client: connected to an unnamed server (protocol {PROTOCOL_VERSION})")
            }
        }

        let tools = list::<ListToolsRequest, _>(connection, ClientRequest::ListTools, |page| {
            (page.tools, page.next_cursor)
        })?;
        for tool in tools {
            call_tool(connection, tally, &tool)?;
        }
        // Only what the server declared: a request for anything else is an error to it.
        let offers = &discovered.capabilities;
        if offers.resources.is_some() {
            read_resources(&mut Peer(connection), tally)?;
        }
        if offers.prompts.is_some() {
            get_prompts(&mut Peer(connection), tally)?;
        }
        connection.finish(|line| decode_message::<ServerMessage>(line).map(drop))
    }

    /// The `_meta` every request carries: with no session, each request says which revision
    /// it speaks, who sends it and what the client can do.
    fn meta() -> RequestMetaObject {
        RequestMetaObject {
            io_modelcontextprotocol_protocol_version: PROTOCOL_VERSION.to_owned(),
            io_modelcontextprotocol_client_info: Some(Implementation {
                name: CLIENT_NAME.to_owned(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                title: None,
                description: None,
                icons: None,
                website_url: None,
                extra: Map::new(),
            }),
            io_modelcontextprotocol_client_capabilities: ClientCapabilities {
                elicitation: Some(ClientCapabilitiesElicitation {
                    form: Some(Default::default()),
                    url: Some(Default::default()),
                    extra: Map::new(),
                }),
                sampling: Some(Default::default()),
                // `{}`: 2026-07-28 has no `listChanged` for roots (a client sends no
                // notifications but `cancelled` in this revision).
                roots: Some(RawObject::new()),
                ..Default::default()
            },
            io_modelcontextprotocol_log_level: None,
            progress_token: None,
            extra: Map::new(),
        }
    }

    /// Every item of a list (`tools/list`, `resources/list`…), page after page. `variant` makes
    /// the request of its params, `page` gives the items of a result and its `nextCursor`.
    fn list<R: Request, T>(
        connection: &mut Connection,
        variant: fn(Box<PaginatedRequestParams>) -> ClientRequest,
        page: fn(R::Result) -> Page<T>,
    ) -> Outcome<Vec<T>> {
        collect_pages(R::METHOD, |cursor| {
            let params = PaginatedRequestParams {
                meta: meta(),
                cursor,
                extra: Map::new(),
            };
            let result =
                request::<R>(connection, variant(Box::new(params)))?.map_err(fatal(R::METHOD))?;
            Ok(page(result))
        })
    }

    fn call_tool(connection: &mut Connection, tally: &mut Tally, tool: &Tool) -> Outcome<()> {
        // Every round sends these again (the `Retrier` retries `first`): the same arguments, as
        // the server may bind its state to them.
        let first = CallToolRequestParams {
            meta: RequestMetaObject {
                // Without a level, a server of this revision sends no log messages.
                io_modelcontextprotocol_log_level: Some(LoggingLevel::Info),
                ..meta()
            },
            arguments: Some(RawObject::from(arguments_for(&tool.input_schema)?)),
            input_responses: None,
            name: tool.name.clone(),
            request_state: None,
            extra: Map::new(),
        };
        let mut progress = 0;
        let called = until_complete::<CallToolRequest>(
            connection,
            &tool.name,
            first,
            |mut params, id| {
                // The round's own id: unique among the requests in flight, as a token must be.
                params.meta.progress_token = Some(ProgressToken::Integer(id));
                ClientRequest::CallTool(Box::new(params))
            },
            &mut progress,
        )?;
        show_progress_count(&tool.name, progress);
        match called {
            Ok(result) => tally.tool(
                &tool.name,
                &text_of(&result.content),
                result.is_error == Some(true),
            ),
            Err(why) => tally.failed(&tool.name, why),
        }
        Ok(())
    }

    /// The result of a request that may ask for input instead of completing.
    trait MayAskInput {
        type Complete;
        fn complete(self) -> Result<Self::Complete, Box<InputRequiredResult>>;
    }

    impl MayAskInput for CallToolResultResponseResult {
        type Complete = CallToolResult;
        fn complete(self) -> Result<CallToolResult, Box<InputRequiredResult>> {
            match self {
                Self::CallTool(result) => Ok(*result),
                Self::InputRequired(asked) => Err(asked),
            }
        }
    }

    impl MayAskInput for ReadResourceResultResponseResult {
        type Complete = ReadResourceResult;
        fn complete(self) -> Result<ReadResourceResult, Box<InputRequiredResult>> {
            match self {
                Self::ReadResource(result) => Ok(*result),
                Self::InputRequired(asked) => Err(asked),
            }
        }
    }

    impl MayAskInput for GetPromptResultResponseResult {
        type Complete = GetPromptResult;
        fn complete(self) -> Result<GetPromptResult, Box<InputRequiredResult>> {
            match self {
                Self::GetPrompt(result) => Ok(*result),
                Self::InputRequired(asked) => Err(asked),
            }
        }
    }

    /// Sends `first` (a `tools/call`, `resources/read` or `prompts/get`) until it completes.
    /// Each `InputRequiredResult` goes to a [`Retrier`], which checks what the server asks
    /// against the capabilities `first` declares, has [`Answers`] answer it, validates every
    /// form's answer, and makes the retry: `first` with the answers under the server's keys and
    /// its state. `request` makes each round's params a request for that round's id. `what`
    /// names the request in messages; `progress` counts the notifications for the rounds' ids.
    /// The inner error says why the request failed: an error response, or too many rounds.
    fn until_complete<R>(
        connection: &mut Connection,
        what: &str,
        first: R::Params,
        request: impl Fn(R::Params, i64) -> ClientRequest,
        progress: &mut usize,
    ) -> Outcome<Result<<R::Result as MayAskInput>::Complete, String>>
    where
        R: Request,
        R::Params: RetryParams + Clone,
        R::Result: MayAskInput,
    {
        // The `Retrier` counts the retries; `MAX_ROUNDS` counts the first request too. Once
        // they are spent, the last input asked for is not answered: it would be for nothing.
        let mut retrier = Retrier::for_request(&first).max_rounds(MAX_ROUNDS - 1);
        let mut params = first.clone();
        loop {
            let id = connection.next_id();
            let asked = match exchange::<R>(connection, id, request(params, id), progress)? {
                Ok(result) => match result.complete() {
                    Ok(complete) => return Ok(Ok(complete)),
                    Err(asked) => asked,
                },
                Err(error) => return Ok(Err(failure::<R>(error))),
            };
            let mut answers = Answers::default();
            let retry = match retrier.retry(&first, &asked, &mut answers) {
                Ok(retry) => retry,
                Err(RetryError::TooManyRounds { .. }) => {
                    return Ok(Err(format!(
                        "still asking for input after {MAX_ROUNDS} rounds"
                    )))
                }
                // The server broke the protocol (a result with nothing to answer, a request
                // this client did not declare, a form the spec does not allow), or this
                // client's answer breaks the form, a bug reported alike: nothing is sent.
                Err(error) => return Err(ProtocolError::new(format!("`{what}`: {error}"))),
            };
            answers.checked()?;
            // Zero after answers; when only state came back the server is still at work, and
            // each such round in a row waits longer.
            thread::sleep(retry.pause);
            params = retry.params;
        }
    }

    fn text_of(content: &[ContentBlock]) -> String {
        let texts: Vec<&str> = content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::TextContent(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect();
        texts.join(" | ")
    }

    /// An error response to a request this client cannot go on without.
    fn fatal(method: &'static str) -> impl FnOnce(Error) -> ProtocolError {
        move |error| ProtocolError::new(error_text(method, error.code, &error.message))
    }

    /// Sends a request and waits for its response. 2026-07-28 servers send no requests, only
    /// notifications besides the response.
    fn request<R: Request>(
        connection: &mut Connection,
        request: ClientRequest,
    ) -> Outcome<Result<R::Result, Error>> {
        let id = connection.next_id();
        // It asks for no progress: any that comes anyway is shown, and not counted.
        exchange::<R>(connection, id, request, &mut 0)
    }

    /// [`request`] with the id chosen by the caller, who may have made it the request's
    /// progress token: `progress` counts the `notifications/progress` that carry it.
    fn exchange<R: Request>(
        connection: &mut Connection,
        pending: i64,
        request: ClientRequest,
        progress: &mut usize,
    ) -> Outcome<Result<R::Result, Error>> {
        connection.send(&ClientMessage::Request {
            id: RequestId::Integer(pending),
            request,
        })?;
        let deadline = Instant::now() + RESPONSE_TIMEOUT;
        loop {
            let line = connection.receive_for(R::METHOD, deadline)?;
            match decode_message::<ServerMessage>(&line)? {
                ServerMessage::Response {
                    id: RequestId::Integer(answered),
                    ..
                } if answered == pending => return decode_result::<R>(&line).map(Ok),
                ServerMessage::Error {
                    id: Some(RequestId::Integer(answered)),
                    error,
                } if answered == pending => return Ok(Err(error)),
                ServerMessage::Notification(notification) => {
                    if let ServerNotification::Progress(update) = &notification {
                        count_progress(&update.progress_token, pending, progress);
                    }
                    show(&notification);
                }
                ServerMessage::Response { id, .. } | ServerMessage::Error { id: Some(id), .. } => {
                    return Err(ProtocolError::new(format!(
                        "line {}: a response to id {}, but the pending request is id {pending}",
                        line.number,
                        json!(id),
                    )));
                }
                ServerMessage::Error { id: None, error } => {
                    return Err(ProtocolError::new(format!(
                        "line {}: the server reports error {}: {} (while `{}` was pending)",
                        line.number,
                        error.code,
                        error.message,
                        R::METHOD
                    )));
                }
            }
        }
    }

    /// The connection, for the requests about resources and prompts.
    struct Peer<'a>(&'a mut Connection);

    impl Catalog for Peer<'_> {
        fn resources(&mut self) -> Outcome<Vec<String>> {
            let resources =
                list::<ListResourcesRequest, _>(self.0, ClientRequest::ListResources, |page| {
                    (page.resources, page.next_cursor)
                })?;
            Ok(resources.into_iter().map(|resource| resource.uri).collect())
        }

        fn resource_templates(&mut self) -> Outcome<Vec<String>> {
            let templates = list::<ListResourceTemplatesRequest, _>(
                self.0,
                ClientRequest::ListResourceTemplates,
                |page| (page.resource_templates, page.next_cursor),
            )?;
            Ok(templates.into_iter().map(|t| t.uri_template).collect())
        }

        fn read(&mut self, uri: &str) -> Outcome<Result<Vec<Contents>, String>> {
            let first = ReadResourceRequestParams {
                meta: meta(),
                input_responses: None,
                request_state: None,
                uri: uri.to_owned(),
                extra: Map::new(),
            };
            let read = until_complete::<ReadResourceRequest>(
                self.0,
                uri,
                first,
                |params, _| ClientRequest::ReadResource(Box::new(params)),
                &mut 0,
            )?;
            Ok(read.map(|result| result.contents.into_iter().map(contents).collect()))
        }

        fn prompts(&mut self) -> Outcome<Vec<(String, Vec<String>)>> {
            let prompts =
                list::<ListPromptsRequest, _>(self.0, ClientRequest::ListPrompts, |page| {
                    (page.prompts, page.next_cursor)
                })?;
            Ok(prompts
                .into_iter()
                .map(|prompt| (prompt.name, required(prompt.arguments)))
                .collect())
        }

        fn get_prompt(
            &mut self,
            name: &str,
            arguments: IndexMap<String, String>,
        ) -> Outcome<Result<usize, String>> {
            let first = GetPromptRequestParams {
                meta: meta(),
                // The same arguments on every round, like a tool's.
                arguments: Some(arguments),
                input_responses: None,
                name: name.to_owned(),
                request_state: None,
                extra: Map::new(),
            };
            let got = until_complete::<GetPromptRequest>(
                self.0,
                name,
                first,
                |params, _| ClientRequest::GetPrompt(Box::new(params)),
                &mut 0,
            )?;
            Ok(got.map(|result| result.messages.len()))
        }
    }

    fn contents(item: ReadResourceResultContentsItem) -> Contents {
        match item {
            ReadResourceResultContentsItem::Text(text) => Contents::Text(text.text),
            ReadResourceResultContentsItem::Blob(blob) => Contents::Blob(blob.blob),
        }
    }

    /// The names of the arguments a prompt requires.
    fn required(arguments: Option<Vec<PromptArgument>>) -> Vec<String> {
        let arguments = arguments.unwrap_or_default().into_iter();
        arguments
            .filter(|argument| argument.required == Some(true))
            .map(|argument| argument.name)
            .collect()
    }

    /// An error response to a request whose failure is counted, not fatal.
    fn failure<R: Request>(error: Error) -> String {
        error_text(R::METHOD, error.code, &error.message)
    }

    fn show(notification: &ServerNotification) {
        match notification {
            ServerNotification::LoggingMessage(log) => {
                show_log(log.level.as_str(), log.logger.as_deref(), &log.data)
            }
            ServerNotification::Progress(progress) => show_progress(
                &progress.progress,
                progress.total.as_ref(),
                progress.message.as_deref(),
            ),
            // List changes, resource updates, cancellations: nothing to do here.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_instances() {
        let cases = [
            ("interop://items/{item_id}", "interop://items/1"),
            ("demo://{a}/{b}", "demo://1/1"),
            ("file:///{+path}", "file:///1"),
            ("x://list{?page,size}", "x://list?page=1&size=1"),
            ("x://list?q=a{&page}", "x://list?q=a&page=1"),
            ("x://doc{#part}", "x://doc#1"),
            ("x://{/seg*}{.ext}", "x:///1.1"),
            ("x://m{;v,w:3}", "x://m;v=1;w=1"),
            ("x://plain", "x://plain"),
            ("x://open{brace", "x://open{brace"),
        ];
        for (template, uri) in cases {
            assert_eq!(template_instance(template), uri, "{template}");
        }
    }

    #[test]
    fn blob_sizes() {
        assert_eq!(base64_size(""), Some(0));
        assert_eq!(base64_size("aGk="), Some(2));
        assert_eq!(base64_size("aGV5"), Some(3));
        assert_eq!(base64_size("aA=="), Some(1));
        assert_eq!(base64_size("aGk"), None);
        assert_eq!(base64_size("a==="), None);
        assert_eq!(base64_size("aG k"), None);
    }

    #[test]
    fn previews() {
        let long = "é".repeat(70) + "\nend";
        let text = preview(&[Contents::Text(long)]).unwrap();
        assert_eq!(text.chars().count(), RESOURCE_PREVIEW);
        assert_eq!(
            preview(&[Contents::Blob("aGk=".into()), Contents::Text("a\nb".into())]).unwrap(),
            "<2 bytes blob> (+1 more)"
        );
        assert_eq!(preview(&[Contents::Text("a\nb".into())]).unwrap(), "a\\nb");
        assert_eq!(preview(&[]).unwrap(), "<no contents>");
        assert!(preview(&[Contents::Blob("not base64".into())]).is_err());
    }
}
