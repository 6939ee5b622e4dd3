//! `mcp-check FILE…`: checks recorded MCP traffic against the full schema of each message's
//! revision; exits 0 when every message is valid, 1 when one is not, 2 on an error.
//! `mcp-check proxy -- SERVER…`: the same checks on the traffic of a live stdio session;
//! `mcp-check proxy --listen ADDR --upstream URL` (reverse) or `--listen ADDR --forward`
//! (forward, the client's `HTTP_PROXY`): on that of Streamable HTTP sessions.

use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{ArgGroup, Parser, Subcommand};
use mcp_wire_check::extension::Extensions;
use mcp_wire_check::proxy::{self, Limits, Proxy};
use mcp_wire_check::report::{self, Summary};
use mcp_wire_check::{traffic, Checker, Revision, Side};

/// Checks MCP traffic against the full schema of the revision each message belongs to:
/// recorded (a line per JSON-RPC message, or per record `{"conversation": …, "from":
/// "client"|"server", "message": …}`, as `proxy --record` writes them; a file is checked
/// conversation by conversation, one without `conversation` being one), or live (`proxy`).
#[derive(Debug, Parser)]
#[command(name = "mcp-check", version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// Files of recorded traffic (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    options: Options,
    /// Who sent every message of a recording of one direction (a record's `from` wins).
    #[arg(long, value_enum)]
    from: Option<Side>,
    /// Count a request or notification of a method its revision does not define (an
    /// extension's, a vendor's) as a violation; without it, such a message is checked as a
    /// JSON-RPC envelope, as the conformance suite checks it, and reported as an unknown method.
    #[arg(long)]
    strict: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// What both modes take.
#[derive(Debug, Clone, clap::Args)]
struct Options {
    /// The revision of traffic without its `initialize` (e.g. `2025-11-25`).
    #[arg(long, value_name = "R")]
    revision: Option<Revision>,
    /// An extension's JSON Schema (MCP Apps', a vendor's; repeatable): every definition of a
    /// constant `method` is that method's message (its `…Result` its result), checked against
    /// the schema instead of as an unknown method.
    #[arg(long, value_name = "SCHEMA")]
    extension: Vec<PathBuf>,
    /// `text`: a line per violation and a summary; `json`: a line per message; `junit`: a
    /// JUnit XML document (a test suite per file, a test case per message), for CI systems;
    /// recorded files only.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Sends a server schema-valid requests of its revision and referees every message of the
    /// conversation.
    ///
    /// `mcp-check fuzz [OPTIONS] -- SERVER…` runs the server on stdio (`--url URL`: talks to
    /// a Streamable HTTP server instead), initializes, lists its tools and calls them in turn,
    /// each call's arguments drawn from the tool's `inputSchema` (the same seed, the same
    /// arguments). It reports every server message that breaks the revision's schema, a
    /// JSON-RPC error (or an HTTP error status) answering a valid call, a crash and a hang,
    /// each with the request and the command that replays it; exits 0 when it found nothing,
    /// 1 when it found a fault, 2 when it could not run.
    #[command(verbatim_doc_comment)]
    Fuzz(FuzzArgs),
    /// Sits between a client and a server, forwards every byte unchanged and checks every
    /// message, reporting as it goes.
    ///
    /// stdio: `mcp-check proxy [OPTIONS] -- SERVER…` runs the server behind this process (the
    /// client talks to it as it would to the server); exits with the server's status.
    ///
    /// Streamable HTTP: `mcp-check proxy --listen 127.0.0.1:0 --upstream http://HOST:PORT`
    /// forwards every request (any method and path: `/mcp`, OAuth metadata…) to the upstream
    /// with its headers (`Host`, `Origin`, `Mcp-Session-Id`, `MCP-Protocol-Version` unchanged)
    /// and streams the responses back (SSE event by event); an unreachable upstream is a 502.
    ///
    /// Forward: `mcp-check proxy --listen 127.0.0.1:0 --forward` is an HTTP proxy for the
    /// client (`HTTP_PROXY=http://ADDR`, and a `NO_PROXY` that does not name the server): each
    /// request names its server (`POST http://HOST:PORT/mcp HTTP/1.1`) and goes there, so the
    /// client keeps the server's own URL (what OAuth's resource metadata is checked against);
    /// the rest as above, conversations kept apart per server. Plain http:// servers only:
    /// CONNECT (https) is refused with 501, a request not in absolute form with 400, one for
    /// the proxy itself with 508.
    ///
    /// Once listening it prints `mcp-check: listening on http://ADDR` on standard error (the
    /// port chosen, for port 0); Ctrl-C or SIGTERM ends it with the summary, status 0.
    ///
    /// Bounded whatever the peers send: bytes go on as they arrive, a message larger than
    /// --max-message-bytes is forwarded but reported too large instead of checked; over HTTP a
    /// request head not complete in 30 s ends its connection, at most --max-connections are
    /// open (the next wait to be accepted), and at most --max-sessions sessions are followed
    /// (the one used least recently is forgotten, reported).
    #[command(
        verbatim_doc_comment,
        group(ArgGroup::new("http-mode").args(["upstream", "forward"]))
    )]
    Proxy {
        /// Write the reports here (default: standard error).
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Record the traffic to FILE, a record per message (its conversation, sender, header
        /// and the message as sent), which `mcp-check FILE` reads back.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Forward (and record, with --record) without checking: the summary only counts the
        /// messages. For a recording to check later, or to measure what the checking costs.
        #[arg(long)]
        no_check: bool,
        #[command(flatten)]
        options: Options,
        /// Streamable HTTP: the address to listen on (port 0: any free port); with
        /// `--upstream` or `--forward`.
        #[arg(
            long,
            value_name = "ADDR",
            requires = "http-mode",
            conflicts_with = "server"
        )]
        listen: Option<SocketAddr>,
        /// Streamable HTTP, reverse proxy: the server's base URL (`http://host:port`,
        /// optionally with a path prefix); a request for `/mcp` goes to `<URL>/mcp`.
        #[arg(
            long,
            value_name = "URL",
            requires = "listen",
            conflicts_with = "server"
        )]
        upstream: Option<String>,
        /// Streamable HTTP, forward proxy: each request goes to the server its absolute-form
        /// target names (clients reach it through `HTTP_PROXY`).
        #[arg(long, requires = "listen", conflicts_with = "server")]
        forward: bool,
        /// Streamable HTTP: listen on an address other machines reach (not a loopback one).
        /// Refused without it: with `--forward`, anyone who reaches the port could send
        /// requests wherever this machine can (an open proxy); with `--upstream`, reach the
        /// server through it.
        #[arg(long, requires = "listen")]
        allow_remote: bool,
        #[command(flatten)]
        limits: LimitArgs,
        /// stdio: the server's command and arguments.
        #[arg(last = true, required_unless_present = "listen", value_name = "SERVER")]
        server: Vec<String>,
    },
}

/// `mcp-check fuzz`'s flags.
#[derive(Debug, clap::Args)]
struct FuzzArgs {
    /// The revision to speak (2026-07-28: each request states it; input_required results are
    /// answered and the call retried).
    #[arg(long, value_name = "R", default_value = "2025-11-25")]
    revision: Revision,
    /// How many tool calls to send.
    #[arg(long, value_name = "N", default_value_t = 100)]
    requests: usize,
    /// The seed of the first call (call `i` draws its arguments with `SEED + i`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seconds to wait for each answer before reporting a hang.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    timeout: u64,
    /// Call only this target, as findings name it: a tool's name, `prompt:NAME`,
    /// `resource:URI` or `template:URI-TEMPLATE`.
    #[arg(long, visible_alias = "tool", value_name = "NAME")]
    only: Option<String>,
    /// Seconds between lines of progress on stderr (calls sent, answered, findings) on a long
    /// run; 0 writes one before every call.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    progress: f64,
    /// `text`: each finding with its message and replay command, and a summary; `json`: a line
    /// per finding, and the summary as the last line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// A Streamable HTTP server's endpoint (`http://HOST:PORT/PATH`) to fuzz, instead of a
    /// command.
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    url: Option<String>,
    /// A header sent with every HTTP request (`--header 'Authorization: Bearer …'`); repeat it
    /// for more. The replay commands print its name, not its value.
    #[arg(long, value_name = "NAME:VALUE", requires = "url")]
    header: Vec<String>,
    /// The server's command and arguments.
    #[arg(last = true, required_unless_present = "url", value_name = "SERVER")]
    server: Vec<String>,
}

/// What a proxy keeps at most ([`Limits`], whose defaults are these flags').
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// The largest message checked, in bytes: a larger one is forwarded all the same, as it
    /// arrives, and reported too large instead of checked.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_message_bytes)]
    max_message_bytes: usize,
    /// Streamable HTTP: the sessions followed at once; past it the one used least recently is
    /// forgotten (reported).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_sessions)]
    max_sessions: usize,
    /// Streamable HTTP: the connections open at once; past it new ones wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections)]
    max_connections: usize,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            max_message_bytes: self.max_message_bytes,
            max_sessions: self.max_sessions.max(1),
            max_connections: self.max_connections.max(1),
            ..Limits::default()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Fuzz(args)) => run_fuzz(&args),
        Some(Command::Proxy {
            report,
            record,
            no_check,
            options,
            listen,
            upstream,
            forward,
            allow_remote,
            limits,
            server,
        }) => match listen {
            Some(listen) if !listen.ip().is_loopback() && !allow_remote => {
                let what = if forward {
                    "an open proxy: anyone who reaches it can send requests wherever this \
                     machine can"
                } else {
                    "a way to the server for anyone who reaches it"
                };
                eprintln!(
                    "error: --listen {listen} is reachable from other machines, which makes this \
                     {what}; listen on 127.0.0.1 (or ::1), or give --allow-remote if that is \
                     meant"
                );
                ExitCode::from(2)
            }
            // clap requires `--upstream` or `--forward` (not both) with `--listen`.
            Some(listen) => {
                let sinks = (report, record);
                let check = !no_check;
                run_http_proxy(
                    listen,
                    upstream,
                    forward,
                    sinks,
                    &options,
                    limits.limits(),
                    check,
                )
            }
            None => run_proxy(
                server,
                (report, record),
                &options,
                limits.limits(),
                !no_check,
            ),
        },
        None => {
            let mut checker = match checker(&cli.options) {
                Ok(checker) => checker,
                Err(code) => return code,
            };
            if let Some(from) = cli.from {
                checker = checker.sent_by(from);
            }
            if cli.strict {
                checker = checker.strict();
            }
            check_files(&cli.files, &cli.options, &checker)
        }
    }
}

/// `mcp-check fuzz`: the findings, each with the command that replays it, and a summary.
fn run_fuzz(args: &FuzzArgs) -> ExitCode {
    use mcp_wire_check::fuzz;
    if args.format == Format::Junit {
        eprintln!("error: --format junit is for recorded files; fuzz reports text or json");
        return ExitCode::from(2);
    }
    let options = fuzz::Options {
        revision: args.revision,
        requests: args.requests,
        seed: args.seed,
        timeout: std::time::Duration::from_secs(args.timeout),
        only: args.only.clone(),
        progress: std::time::Duration::try_from_secs_f64(args.progress).ok(),
    };
    let target = match &args.url {
        Some(url) => fuzz::Target::Url {
            url: url.clone(),
            headers: args.header.clone(),
        },
        None => fuzz::Target::Command(args.server.clone()),
    };
    let report = match fuzz::run(&target, &options) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // How the replay commands name the server: its command, or its URL and the names of the
    // headers (their values may be secrets).
    let server = match &args.url {
        Some(url) => {
            let headers = (args.header.iter())
                .map(|header| {
                    header
                        .split_once(':')
                        .map_or(header.as_str(), |(name, _)| name)
                })
                .map(|name| format!(" --header {}", shell_word(&format!("{}:…", name.trim()))));
            format!("--url {}{}", shell_word(url), headers.collect::<String>())
        }
        None => {
            let server: Vec<String> = args.server.iter().map(|arg| shell_word(arg)).collect();
            format!("-- {}", server.join(" "))
        }
    };
    let json = args.format == Format::Json;
    if !json {
        for skipped in &report.skipped {
            println!("skipped {skipped}");
        }
    }
    for finding in &report.findings {
        let fault = match finding.fault {
            fuzz::Fault::Violation => "schema violation",
            fuzz::Fault::Error => "error response",
            fuzz::Fault::Crash => "crash",
            fuzz::Fault::Hang => "hang",
        };
        let replay = finding.call.as_ref().map(|(tool, seed)| {
            format!(
                "mcp-check fuzz --revision {} --seed {seed} --requests 1 --only {} {server}",
                args.revision,
                shell_word(tool)
            )
        });
        if json {
            let (tool, seed) = finding.call.clone().unzip();
            let line = serde_json::json!({
                "fault": fault,
                "detail": finding.detail,
                "message": finding.request,
                "tool": tool,
                "seed": seed,
                "replay": replay,
                "smallest": finding.smallest,
            });
            println!("{line}");
            continue;
        }
        println!("{fault}: {}", finding.detail);
        println!("  message: {}", finding.request);
        if let Some(replay) = replay {
            println!("  replay: {replay}");
        }
        if let Some(smallest) = &finding.smallest {
            println!("  smallest call that finds it again: {smallest}");
        }
    }
    if json {
        let summary = serde_json::json!({
            "tools": report.tools,
            "prompts": report.prompts,
            "resources": report.resources,
            "answered": report.answered,
            "retries": report.retries,
            "findings": report.findings.len(),
            "skipped": report.skipped,
        });
        println!("{summary}");
    } else {
        // Prompts and resources are said when the server has them.
        let mut listed = format!("{} tools", report.tools);
        if report.prompts > 0 {
            listed += &format!(", {} prompts", report.prompts);
        }
        if report.resources > 0 {
            listed += &format!(", {} resources", report.resources);
        }
        let retries = match report.retries {
            0 => String::new(),
            n => format!(" ({n} retries with answers)"),
        };
        println!(
            "{listed}, {} calls answered{retries}, {} findings",
            report.answered,
            report.findings.len()
        );
    }
    if report.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `word` as a POSIX shell reads it back: as it is when it holds nothing the shell treats
/// specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A live session's reports are written as they are found; a JUnit document is written whole,
/// at the end of a run over files.
fn refuse_junit(options: &Options) -> Option<ExitCode> {
    (options.format == Format::Junit).then(|| {
        eprintln!("error: --format junit is for recorded files; a proxy reports as it goes (text or json)");
        ExitCode::from(2)
    })
}

/// The checker both modes start each conversation with: `--revision`, and the extension
/// schemas of `--extension`, read and compiled (exit 2 on one that cannot be).
fn checker(options: &Options) -> Result<Checker, ExitCode> {
    let mut extensions = Extensions::default();
    for path in &options.extension {
        let schema = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| {
                serde_json::from_str::<serde_json::Value>(&text)
                    .map_err(|e| format!("{}: not JSON: {e}", path.display()))
            })
            .and_then(|schema| extensions.add(&schema, &path.display().to_string()));
        if let Err(e) = schema {
            eprintln!("error: {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(Checker::new(options.revision).with_extensions(Arc::new(extensions)))
}

/// Checks each file with a checker of its own that starts as `checker`.
fn check_files(files: &[PathBuf], options: &Options, checker: &Checker) -> ExitCode {
    let mut summary = Summary::default();
    let mut junit = report::Junit::default();
    for file in files {
        let name = file.display().to_string();
        let text = match read(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let entries = traffic::read(&text);
        for (entry, verdict) in entries.iter().zip(checker.check_recording(&entries)) {
            summary.add(&verdict);
            // A conversation of a recording of several is named after the file.
            let shown = match &entry.conversation {
                Some(conversation) => format!("{name}[{conversation}]"),
                None => name.clone(),
            };
            match options.format {
                Format::Text => print!("{}", report::text(&shown, &verdict)),
                Format::Json => println!("{}", report::json(&shown, &verdict)),
                // A test suite per file.
                Format::Junit => junit.add(&name, &verdict),
            }
        }
    }
    match options.format {
        Format::Text => println!("{summary}"),
        Format::Json => eprintln!("{summary}"),
        Format::Junit => {
            print!("{}", junit.finish());
            eprintln!("{summary}");
        }
    }
    if summary.invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The reports' sink (`--report`) and the recording's (`--record`).
fn sinks(
    report: Option<&PathBuf>,
    record: Option<&PathBuf>,
) -> Result<(proxy::ReportSink, Option<proxy::ReportSink>), ExitCode> {
    let report = report_sink(report)?;
    let record = match record {
        None => None,
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Some(Box::new(std::io::BufWriter::new(file)) as proxy::ReportSink),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return Err(ExitCode::from(2));
            }
        },
    };
    Ok((report, record))
}

/// Where `--report` says, or standard error.
fn report_sink(report: Option<&PathBuf>) -> Result<proxy::ReportSink, ExitCode> {
    match report {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Ok(Box::new(file)),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                Err(ExitCode::from(2))
            }
        },
        None => Ok(Box::new(std::io::stderr())),
    }
}

fn run_http_proxy(
    listen: SocketAddr,
    upstream: Option<String>,
    forward: bool,
    (report, record): (Option<PathBuf>, Option<PathBuf>),
    options: &Options,
    limits: Limits,
    check: bool,
) -> ExitCode {
    if let Some(refused) = refuse_junit(options) {
        return refused;
    }
    let (sink, record) = match sinks(report.as_ref(), record.as_ref()) {
        Ok(sinks) => sinks,
        Err(code) => return code,
    };
    let json = options.format == Format::Json;
    let checker = match checker(options) {
        Ok(checker) => checker,
        Err(code) => return code,
    };
    let report_to = sink;
    let started = match (upstream, forward) {
        (Some(upstream), false) => proxy::http::start(proxy::http::HttpProxy {
            listen,
            upstream,
            checker,
            report: report_to,
            json,
            limits,
            record,
            check,
        }),
        _ => proxy::http::start_forward(proxy::http::ForwardProxy {
            listen,
            checker,
            report: report_to,
            json,
            limits,
            record,
            check,
        }),
    };
    let running = match started {
        Ok(running) => running,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The documented form, read by tests and tools to find the port.
    eprintln!("mcp-check: listening on http://{}", running.local_addr());
    if let Err(e) = wait_for_signal() {
        eprintln!("error: waiting for a signal: {e}");
    }
    let summary = running.stop();
    // A text report to standard error ends with it already.
    if json || report.is_some() {
        eprintln!("mcp-check: {summary}");
    }
    ExitCode::SUCCESS
}

/// Until Ctrl-C (SIGINT) or, on Unix, SIGTERM.
fn wait_for_signal() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let mut term = signal(SignalKind::terminate())?;
            tokio::select! {
                interrupted = tokio::signal::ctrl_c() => interrupted,
                _ = term.recv() => Ok(()),
            }
        }
        #[cfg(not(unix))]
        tokio::signal::ctrl_c().await
    })
}

fn run_proxy(
    server: Vec<String>,
    (report, record): (Option<PathBuf>, Option<PathBuf>),
    options: &Options,
    limits: Limits,
    check: bool,
) -> ExitCode {
    if let Some(refused) = refuse_junit(options) {
        return refused;
    }
    let (sink, record) = match sinks(report.as_ref(), record.as_ref()) {
        Ok(sinks) => sinks,
        Err(code) => return code,
    };
    let proxy = Proxy {
        command: server,
        checker: match checker(options) {
            Ok(checker) => checker,
            Err(code) => return code,
        },
        report: sink,
        json: options.format == Format::Json,
        limits,
        record,
        check,
    };
    match proxy::run(proxy) {
        // The server's status: the proxy is never the reason a session fails.
        Ok((status, _)) => ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("error: starting the server: {e}");
            ExitCode::from(2)
        }
    }
}

fn read(file: &PathBuf) -> std::io::Result<String> {
    if file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        return Ok(text);
    }
    std::fs::read_to_string(file)
}
