//! `mcp-check FILE…`: checks recorded MCP traffic against the full schema of each message's
//! revision; exits 0 when every message is valid, 1 when one is not, 2 on an error.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mcp_wire_check::report::{self, Summary};
use mcp_wire_check::{traffic, Checker, Revision, Side};

/// Checks recorded MCP traffic: a line per JSON-RPC message, or per record
/// `{"from": "client"|"server", "message": …}`. Each file is one conversation.
#[derive(Debug, Parser)]
#[command(name = "mcp-check", version)]
struct Cli {
    /// Files of recorded traffic (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The revision of traffic recorded without its `initialize` (e.g. `2025-11-25`).
    #[arg(long, value_name = "R")]
    revision: Option<Revision>,
    /// Who sent every message of a recording of one direction (a record's `from` wins).
    #[arg(long, value_enum)]
    from: Option<From>,
    /// `text`: a line per violation and a summary; `json`: a line per message.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum From {
    Client,
    Server,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut summary = Summary::default();
    for file in &cli.files {
        let name = file.display().to_string();
        let text = match read(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let mut checker = Checker::new(cli.revision);
        if let Some(from) = cli.from {
            checker = checker.sent_by(match from {
                From::Client => Side::Client,
                From::Server => Side::Server,
            });
        }
        for entry in traffic::read(&text) {
            let verdict = checker.check(&entry);
            summary.add(&verdict);
            match cli.format {
                Format::Text => print!("{}", report::text(&name, &verdict)),
                Format::Json => println!("{}", report::json(&name, &verdict)),
            }
        }
    }
    match cli.format {
        Format::Text => println!("{summary}"),
        Format::Json => eprintln!("{summary}"),
    }
    if summary.invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
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
