//! `mcp-check FILE…`: checks recorded MCP traffic against the full schema of each message's
//! revision; exits 0 when every message is valid, 1 when one is not, 2 on an error.
//! `mcp-check proxy -- SERVER…`: the same checks on the traffic of a live stdio session.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_wire_check::proxy::{self, Proxy};
use mcp_wire_check::report::{self, Summary};
use mcp_wire_check::{traffic, Checker, Revision, Side};

/// Checks MCP traffic against the full schema of the revision each message belongs to:
/// recorded (a line per JSON-RPC message, or per record `{"from": "client"|"server",
/// "message": …}`; each file is one conversation), or live (`proxy`).
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
    #[command(subcommand)]
    command: Option<Command>,
}

/// What both modes take.
#[derive(Debug, Clone, clap::Args)]
struct Options {
    /// The revision of traffic without its `initialize` (e.g. `2025-11-25`).
    #[arg(long, value_name = "R")]
    revision: Option<Revision>,
    /// `text`: a line per violation and a summary; `json`: a line per message.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs a stdio server behind this process: the client talks to `mcp-check proxy -- SERVER…`
    /// as it would to the server; every byte is forwarded unchanged, every message checked.
    /// Exits with the server's status.
    Proxy {
        /// Write the reports here (default: standard error).
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        #[command(flatten)]
        options: Options,
        /// The server's command and arguments.
        #[arg(last = true, required = true, value_name = "SERVER")]
        server: Vec<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Proxy {
            report,
            options,
            server,
        }) => run_proxy(server, report, &options),
        None => check_files(&cli.files, &cli.options, cli.from),
    }
}

fn check_files(files: &[PathBuf], options: &Options, from: Option<Side>) -> ExitCode {
    let mut summary = Summary::default();
    for file in files {
        let name = file.display().to_string();
        let text = match read(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let mut checker = Checker::new(options.revision);
        if let Some(from) = from {
            checker = checker.sent_by(from);
        }
        for entry in traffic::read(&text) {
            let verdict = checker.check(&entry);
            summary.add(&verdict);
            match options.format {
                Format::Text => print!("{}", report::text(&name, &verdict)),
                Format::Json => println!("{}", report::json(&name, &verdict)),
            }
        }
    }
    match options.format {
        Format::Text => println!("{summary}"),
        Format::Json => eprintln!("{summary}"),
    }
    if summary.invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn run_proxy(server: Vec<String>, report: Option<PathBuf>, options: &Options) -> ExitCode {
    let sink: proxy::ReportSink = match &report {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(file),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(std::io::stderr()),
    };
    let proxy = Proxy {
        command: server,
        revision: options.revision,
        report: sink,
        json: options.format == Format::Json,
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
