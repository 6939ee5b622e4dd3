//! The `mcp-codegen` command line: `fetch`, `generate [--check]`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_codegen::fetch::{FetchOutcome, SchemaSource};
use mcp_codegen::workspace::{Workspace, WorkspaceError};

/// Generates strongly typed Rust from the pinned MCP JSON schemas.
#[derive(Debug, Parser)]
#[command(name = "mcp-codegen", version)]
struct Cli {
    /// The repository root (default: found from the current folder upwards).
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    /// Read schemas from this folder (`<dir>/<revision>/schema.json`) instead of
    /// `$MCP_SCHEMA_MIRROR` or downloading them.
    #[arg(long, global = true, value_name = "DIR")]
    from: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Fills schema/<revision>/schema.json, verifying the pinned sha256.
    Fetch {
        /// Only these revisions (default: all).
        #[arg(long = "revision", value_name = "R")]
        revisions: Vec<String>,
    },
    /// Regenerates generated/src/gen/<module>.rs for every (or the named) revision.
    Generate {
        /// Only these revisions (default: all).
        #[arg(long = "revision", value_name = "R")]
        revisions: Vec<String>,
        /// Write nothing; list the files that would change, with a short diff, and exit 1.
        #[arg(long)]
        check: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, WorkspaceError> {
    let workspace = match &cli.root {
        Some(root) => Workspace::open(root)?,
        None => {
            Workspace::discover(&std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")))?
        }
    };
    let source = SchemaSource::resolve(cli.from.clone());
    match cli.command {
        Command::Fetch { revisions } => {
            for revision in workspace.select(&revisions)? {
                let outcome = mcp_codegen::fetch::fetch_revision(
                    &workspace.revisions,
                    revision,
                    &workspace.schema_root(),
                    &source,
                )?;
                match outcome {
                    FetchOutcome::UpToDate => println!("{}: up to date", revision.name),
                    FetchOutcome::Fetched { origin } => {
                        println!("{}: fetched from {origin}", revision.name)
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Generate { revisions, check } => {
            let started = std::time::Instant::now();
            let mut stale = Vec::new();
            for rendered in workspace.render_all(&workspace.select(&revisions)?, &source)? {
                let current = std::fs::read_to_string(&rendered.path).unwrap_or_default();
                if current == rendered.text {
                    continue;
                }
                if check {
                    stale.push((rendered.path.clone(), current, rendered.text));
                } else {
                    workspace.write(&rendered)?;
                    println!("wrote {}", rendered.path.display());
                }
            }
            if check {
                if stale.is_empty() {
                    println!("generated code is up to date ({:.0?})", started.elapsed());
                    return Ok(ExitCode::SUCCESS);
                }
                for (path, old, new) in &stale {
                    println!("{} would change:", path.display());
                    print!("{}", short_diff(old, new, 40));
                }
                println!(
                    "{} file(s) out of date: run `cargo run -p mcp-codegen -- generate`",
                    stale.len()
                );
                return Ok(ExitCode::from(1));
            }
            println!("generated in {:.0?}", started.elapsed());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A unified diff cut to `max_lines` lines.
fn short_diff(old: &str, new: &str, max_lines: usize) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff.unified_diff().context_radius(2).to_string();
    let total = text.lines().count();
    let mut out: String = text
        .lines()
        .take(max_lines)
        .flat_map(|l| [l, "\n"])
        .collect();
    if total > max_lines {
        out.push_str(&format!("… {} more diff lines\n", total - max_lines));
    }
    out
}
