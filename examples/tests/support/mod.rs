//! What the peer tests share: the pinned Python SDK (installed on first use by
//! `mcp_typed_tests::installed`), and the check that every message that crossed the wire decodes
//! into its specific type and re-encodes exactly.

// Each test file uses a part of it.
#![allow(dead_code, unused_imports)]

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use mcp_typed_tests::listening::Listening;
use serde_json::Value;

pub use mcp_typed_tests::installed::{python, python_dir};

/// Reading what the conformance suite prints.
pub mod suite;

/// Runs `command` to its end, killed after `limit`.
pub fn run(command: &mut Command, limit: Duration) -> Output {
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "{command:?} did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// One message of a wire log written by `tap.py`.
#[derive(Debug)]
pub struct Logged {
    /// `true` from the client to the server.
    pub from_client: bool,
    pub message: Value,
}

/// Reads a `tap.py` log: records, as [`read_recording`] reads them, of one conversation.
pub fn read_log(path: &Path) -> Vec<Logged> {
    (read_recording(path).into_iter())
        .map(|recorded| recorded.logged)
        .collect()
}

/// `mcp-check`'s verdicts on a `tap.py` log, the recording as its command reads one: every
/// message valid, none of a method its revision does not define.
pub fn assert_mcp_check_passes(path: &Path) {
    use mcp_wire_check::{traffic, Checker};
    let text = std::fs::read_to_string(path).expect("the wire log");
    let verdicts = Checker::new(None).check_recording(&traffic::read(&text));
    assert!(
        !verdicts.is_empty(),
        "nothing recorded in {}",
        path.display()
    );
    let refused: Vec<_> = (verdicts.iter())
        .filter(|v| !v.is_valid() || v.unknown_method)
        .collect();
    assert!(refused.is_empty(), "{}: {refused:#?}", path.display());
}

/// The protocol era of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    V2025_11_25,
    V2026_07_28,
}

impl Era {
    pub fn name(self) -> &'static str {
        match self {
            Era::V2025_11_25 => "2025-11-25",
            Era::V2026_07_28 => "2026-07-28",
        }
    }
}

/// Every logged message decodes as a message of `era` in its direction, a response as the
/// specific result of the request it answers (never the generic result), and re-encodes to the
/// same JSON. Returns how many messages of each kind were checked, for the caller's asserts.
pub fn check_wire(era: Era, log: &[Logged]) -> Vec<String> {
    // The method of every request, by direction and id, to know what its response must be.
    let mut methods = std::collections::HashMap::new();
    let mut kinds = Vec::new();
    for (index, logged) in log.iter().enumerate() {
        let what = format!(
            "message {index} ({}): {}",
            if logged.from_client {
                "client→server"
            } else {
                "server→client"
            },
            logged.message
        );
        let message = &logged.message;
        if let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) {
            methods.insert((logged.from_client, id.to_string()), method.to_owned());
        }
        // A response answers a request that went the other way.
        let answered = message
            .get("id")
            .filter(|_| message.get("method").is_none())
            .and_then(|id| methods.get(&(!logged.from_client, id.to_string())))
            .cloned();
        let (kind, encoded) = decode(era, logged.from_client, message, answered.as_deref())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(&encoded, message, "{what}: re-encoded differently");
        kinds.push(kind);
    }
    kinds
}

/// Decodes one message; returns its kind (`request tools/call`, `response tools/call: CallTool`)
/// and its re-encoding.
fn decode(
    era: Era,
    from_client: bool,
    message: &Value,
    answered: Option<&str>,
) -> Result<(String, Value), String> {
    macro_rules! decode_in {
        ($module:ident) => {{
            use mcp_typed::$module as m;
            if from_client {
                let decoded =
                    m::ClientMessage::from_value(message.clone()).map_err(|e| e.to_string())?;
                let kind = match &decoded {
                    m::ClientMessage::Request { request, .. } => {
                        format!("request {}", request.method())
                    }
                    m::ClientMessage::Notification(n) => format!("notification {}", n.method()),
                    // (2025-11-25 only: the answer to a live server request, or an error)
                    #[allow(unreachable_patterns)]
                    other if variant(other) == "Error" => "error".to_owned(),
                    #[allow(unreachable_patterns)]
                    other => {
                        let debug = format!("{other:?}");
                        let variant = debug
                            .split_once("result: ")
                            .map(|(_, rest)| variant_name(rest))
                            .unwrap_or_default();
                        let method = answered.ok_or("a response to no request")?;
                        if !result_fits(method, &variant) {
                            return Err(format!("the result of `{method}` decoded as {variant}"));
                        }
                        format!("response {method}: {variant}")
                    }
                };
                Ok((
                    kind,
                    serde_json::to_value(&decoded).map_err(|e| e.to_string())?,
                ))
            } else {
                let decoded =
                    m::ServerMessage::from_value(message.clone()).map_err(|e| e.to_string())?;
                let kind = match &decoded {
                    m::ServerMessage::Response { result, .. } => {
                        let variant = variant(result);
                        let method = answered.ok_or("a response to no request")?;
                        if !result_fits(method, &variant) {
                            return Err(format!("the result of `{method}` decoded as {variant}"));
                        }
                        format!("response {method}: {variant}")
                    }
                    m::ServerMessage::Notification(n) => format!("notification {}", n.method()),
                    m::ServerMessage::Error { .. } => "error".to_owned(),
                    // (2025-11-25 only: a live server request)
                    #[allow(unreachable_patterns)]
                    _ => format!("request {}", message["method"].as_str().unwrap_or("?")),
                };
                Ok((
                    kind,
                    serde_json::to_value(&decoded).map_err(|e| e.to_string())?,
                ))
            }
        }};
    }
    match era {
        Era::V2025_11_25 => decode_in!(v2025_11_25),
        Era::V2026_07_28 => decode_in!(v2026_07_28),
    }
}

/// The name of an enum value's variant, from its `Debug` form (`CallTool(…)` → `CallTool`).
fn variant(value: &impl std::fmt::Debug) -> String {
    variant_name(&format!("{value:?}"))
}

fn variant_name(debug: &str) -> String {
    debug
        .split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Whether a result of the variant `variant` is the specific answer to `method`: the generic
/// (`Empty`) result only where the method's result is empty.
fn result_fits(method: &str, variant: &str) -> bool {
    let expected: &[&str] = match method {
        "initialize" => &["Initialize"],
        "server/discover" => &["Discover"],
        "tools/list" => &["ListTools"],
        "tools/call" => &["CallTool", "InputRequired"],
        "resources/list" => &["ListResources"],
        "resources/templates/list" => &["ListResourceTemplates"],
        "resources/read" => &["ReadResource", "InputRequired"],
        "prompts/list" => &["ListPrompts"],
        "prompts/get" => &["GetPrompt", "InputRequired"],
        "elicitation/create" => &["Elicit"],
        "sampling/createMessage" => &["CreateMessage"],
        "roots/list" => &["ListRoots"],
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => &["Empty"],
        _ => return variant != "Empty",
    };
    expected.contains(&variant)
}

/// One message of a recording made by `everything-server` (`EVERYTHING_SERVER_RECORD`).
#[derive(Debug)]
pub struct Recorded {
    /// The session, or `post-N` for a request without one.
    pub conv: String,
    pub logged: Logged,
}

/// Reads a recording in `mcp-check`'s record format (`EVERYTHING_SERVER_RECORD`, `tap.py`).
pub fn read_recording(path: &Path) -> Vec<Recorded> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("a recorded line is JSON");
            Recorded {
                conv: entry["conversation"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                logged: Logged {
                    from_client: entry["from"] == "client",
                    message: entry.get("message").cloned().unwrap_or_else(|| {
                        panic!("a line that is not JSON crossed the wire: {entry}")
                    }),
                },
            }
        })
        .collect()
}

/// What the referee made of a recording.
#[derive(Debug, Default)]
pub struct Refereed {
    /// Messages that decoded into their specific type and re-encoded to the same JSON.
    pub checked: usize,
    /// Client messages our types refuse that the server refused too (an error response, or
    /// none): the suite sends malformed requests on purpose.
    pub refused_by_both: Vec<String>,
    /// Everything else: a message rmcp sent or accepted that our types refuse, or re-encode
    /// differently. Each is a departure of rmcp's wire form from the schema, or a bug of ours.
    pub departures: Vec<String>,
}

/// The era of one conversation of a recording: a session is 2025-11-25's; a request without
/// one is 2026-07-28's when its `_meta` says so.
fn era_of(conv: &str, messages: &[&Logged]) -> Era {
    let stateless = conv.starts_with("post-")
        && messages.iter().any(|m| {
            m.from_client
                && m.message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
                    == "2026-07-28"
        });
    if stateless {
        Era::V2026_07_28
    } else {
        Era::V2025_11_25
    }
}

/// Checks every message of a recording against the generated types of its era, as
/// [`check_wire`] does, conversation by conversation, and sorts what does not pass.
pub fn referee(recording: &[Recorded]) -> Refereed {
    let mut convs: Vec<&str> = recording.iter().map(|r| r.conv.as_str()).collect();
    convs.sort_unstable();
    convs.dedup();
    let mut refereed = Refereed::default();
    for conv in convs {
        let messages: Vec<&Logged> = (recording.iter())
            .filter(|r| r.conv == conv)
            .map(|r| &r.logged)
            .collect();
        let era = era_of(conv, &messages);
        let mut methods = std::collections::HashMap::new();
        for logged in &messages {
            let message = &logged.message;
            if let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) {
                methods.insert((logged.from_client, id.to_string()), method.to_owned());
            }
            let answered = message
                .get("id")
                .filter(|_| message.get("method").is_none())
                .and_then(|id| methods.get(&(!logged.from_client, id.to_string())))
                .cloned();
            let what = format!(
                "{} {conv} {}: {message}",
                era.name(),
                if logged.from_client {
                    "client→server"
                } else {
                    "server→client"
                }
            );
            match decode(era, logged.from_client, message, answered.as_deref()) {
                Ok((_, encoded)) if &encoded == message => refereed.checked += 1,
                Ok((_, encoded)) => refereed
                    .departures
                    .push(format!("{what}: re-encoded as {encoded}")),
                Err(error) => {
                    // Refused by the server too: an error answered it, or nothing did.
                    let id = message.get("id").map(Value::to_string);
                    let server_refused = logged.from_client
                        && messages.iter().all(|other| {
                            other.from_client
                                || other.message.get("id").map(Value::to_string) != id
                                || other.message.get("error").is_some()
                        });
                    if server_refused {
                        refereed.refused_by_both.push(format!("{what}: {error}"));
                    } else {
                        refereed.departures.push(format!("{what}: {error}"));
                    }
                }
            }
        }
    }
    refereed
}

/// An everything-server on a free port of 127.0.0.1, killed (and waited for) when dropped.
pub type EverythingServer = HttpServer;

/// An example HTTP server program on a free port of 127.0.0.1, killed (and waited for) when
/// dropped.
pub struct HttpServer {
    server: Listening,
    /// Its MCP endpoint, `http://127.0.0.1:<port>/mcp`.
    pub url: String,
}

impl HttpServer {
    /// Starts `everything-server --port 0` with `env`, and waits until it says where it
    /// listens.
    pub fn start(env: &[(&str, &str)]) -> Self {
        Self::start_program(env!("CARGO_BIN_EXE_everything-server"), env)
    }

    /// Starts the program `binary --port 0` with `env`, and waits until it says where it
    /// listens (its first line on standard error names the port the system chose).
    pub fn start_program(binary: &str, env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(binary);
        command.args(["--port", "0"]).envs(env.iter().copied());
        let server = Listening::start_reporting(&mut command, binary);
        let url = format!("http://127.0.0.1:{}/mcp", server.port);
        Self { server, url }
    }

    /// The server's process id (its memory is in `/proc/PID/status`).
    pub fn pid(&self) -> u32 {
        self.server.pid()
    }
}
