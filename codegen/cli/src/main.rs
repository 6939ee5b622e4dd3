//! The `mcp-codegen` command line: `fetch`, `generate [--check]`, `generate --schema`, `diff`.

//! Each subcommand is a module of its own: its arguments and what it runs.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_codegen::fetch::{FetchError, SchemaSource};
use mcp_codegen::workspace::{Workspace, WorkspaceError};

mod diff;
mod fetch;
mod generate;

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
    /// Fills schema/<revision>/schema.json, and the official examples pinned by
    /// schema/examples.sha256 (when no revision is named), verifying each pinned sha256.
    Fetch {
        /// Only these revisions' schemas (default: all, and the examples).
        #[arg(long = "revision", value_name = "R")]
        revisions: Vec<String>,
    },
    /// Rewrites schema/examples.sha256 from the examples of a revision in the `--from` folder
    /// (or `$MCP_SCHEMA_MIRROR`): after a pin bump, to pin the examples of the new commit.
    PinExamples {
        /// The revision whose examples are pinned.
        #[arg(long = "revision", value_name = "R", default_value = "2026-07-28")]
        revision: String,
    },
    /// Regenerates generated/src/gen/<module>.rs and <module>/borrowed.rs for every (or the named)
    /// revision; or, with `--schema`, generates from any schema file without touching the pins.
    Generate(generate::GenerateArgs),
    /// Lists what changed from OLD to NEW as Rust items (types, fields, variants, constants),
    /// with the ways of writing callers each change breaks; exits 1 when something breaks.
    Diff(diff::DiffArgs),
}

/// What `mcp-codegen` reports before exiting with status 2.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    /// A side of `diff` names neither a schema file nor a revision of a repository.
    #[error(
        "`{side}` is not a schema file, and there is no schema/revisions.toml above {} to read it \
         as a pinned revision from",
        start.display()
    )]
    NoSuchSide { side: String, start: PathBuf },
}

impl CliError {
    /// How to go on without the network, for a download that failed.
    fn help(&self) -> Option<&'static str> {
        matches!(
            self,
            CliError::Workspace(WorkspaceError::Fetch(FetchError::Http { .. }))
        )
        .then_some(
            "without network, give the schemas from a folder: --from DIR or \
             MCP_SCHEMA_MIRROR=DIR (DIR/<revision>/schema.json)",
        )
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(help) = e.help() {
                eprintln!("help: {help}");
            }
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let source = SchemaSource::resolve(cli.from.clone());
    let workspace = open_workspace(cli.root.as_deref(), &cli.command)?;
    let workspace = workspace.as_ref();
    match cli.command {
        Command::Fetch { revisions } => fetch::fetch(required(workspace)?, &source, &revisions),
        Command::PinExamples { revision } => {
            fetch::pin_examples(required(workspace)?, &source, &revision)
        }
        Command::Generate(args) => generate::run(args, workspace, &source),
        Command::Diff(args) => diff::run(args, workspace, &source),
    }
    .map_err(CliError::from)
}

/// The repository, when the command needs it or one is found: `generate --schema` and `diff` of
/// two files work in any folder, so for them it is looked for but not required (unless given by
/// `--root`).
fn open_workspace(root: Option<&Path>, command: &Command) -> Result<Option<Workspace>, CliError> {
    let open = || match root {
        Some(root) => Workspace::open(root),
        None => {
            Workspace::discover(&std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")))
        }
    };
    let revision_sides = match command {
        Command::Diff(args) => args.revision_sides(),
        _ => Vec::new(),
    };
    let needs_workspace = match command {
        Command::Generate(args) => args.needs_workspace(),
        Command::Diff(_) => !revision_sides.is_empty(),
        Command::Fetch { .. } | Command::PinExamples { .. } => true,
    };
    match open() {
        // A side of `diff` that is no file, with no repository to pin it: say which.
        Err(WorkspaceError::NoRoot(start)) if root.is_none() && !revision_sides.is_empty() => {
            Err(CliError::NoSuchSide {
                side: revision_sides[0].to_owned(),
                start,
            })
        }
        Err(e) if needs_workspace || root.is_some() => Err(e.into()),
        found => Ok(found.ok()),
    }
}

/// The repository of a command that needs one ([`open_workspace`] found it).
pub(crate) fn required(workspace: Option<&Workspace>) -> Result<&Workspace, WorkspaceError> {
    workspace.ok_or_else(|| WorkspaceError::NoRoot(PathBuf::from(".")))
}
