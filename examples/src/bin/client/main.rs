//! A stdio MCP client built on `mcp-typed` alone: it starts a server, calls every one of its
//! tools, reads every resource, gets every prompt, answers whatever the server asks on the way
//! (forms, URL consent, sampling, roots), and checks every message it receives against the
//! official schema of the revision it speaks.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin client -- [--interactive] [--protocol 2026-07-28|2025-11-25] [--log FILE] <server command…>
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
//! `--log FILE` appends every line sent and received to FILE, a record each in `mcp-check`'s
//! format (`{"conversation", "from", "message"}`): `mcp-check FILE` checks the runs it holds.
//!
//! `--interactive`: every form and URL is asked of the person at the terminal
//! (`mcp_mrtr::terminal::Terminal`: field by field, defaults pre-filled, each value checked
//! as it is entered; decline and cancel too) instead of being filled in by the client.
//!
//! **Where things are.** This file reads the command line, starts the server and runs the flow
//! of the revision asked for; each module is a file beside it:
//!
//! - [`era_2026_07_28`] and [`era_2025_11_25`]: each revision's flow, in its own types
//!   (`mcp_typed::v2026_07_28`, `mcp_typed::v2025_11_25`). In 2026-07-28, an `mcp_mrtr` `Retrier`
//!   turns each `InputRequiredResult` into the retry; in 2025-11-25, the server's live requests
//!   are answered through `mcp_mrtr::client::answer`.
//! - [`made_up`]: the tool arguments made up from each `inputSchema`, and the `Answers` (an
//!   `mcp_mrtr::client::Answerer`) to forms, URL consent, sampling and roots, for both eras.
//! - [`catalog`]: every page of a list, every resource and resource template read, every prompt
//!   got.
//! - [`report`]: what is printed ([`Tally`]), log messages and progress.
//! - [`strict`]: the connection to the server and the strict checks of every line it writes.

mod catalog;
mod era_2025_11_25;
mod era_2026_07_28;
mod made_up;
mod report;
mod strict;

use std::path::PathBuf;
use std::process::ExitCode;

use report::Tally;
use strict::Connection;

/// Who this client says it is (`clientInfo`).
const CLIENT_NAME: &str = "mcp-typed-example-client";

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
    if options.interactive {
        made_up::ask_the_person();
    }
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
    "usage: client [--interactive] [--protocol 2026-07-28|2025-11-25] [--log FILE] <server command…>";

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
    interactive: bool,
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
        let mut interactive = false;
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
                "--interactive" => interactive = true,
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
            interactive,
            command,
        }))
    }
}
