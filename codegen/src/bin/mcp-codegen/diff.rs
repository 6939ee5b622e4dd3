//! `diff OLD NEW`: what changed between two schemas for code that uses the generated types.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::workspace::{Workspace, WorkspaceError};

/// The arguments of `diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// A revision of schema/revisions.toml, or a path to a schema file.
    old: String,
    /// A revision of schema/revisions.toml, or a path to a schema file.
    new: String,
    /// `text` (colored on a terminal) or `markdown` (for a CHANGELOG or a pull request).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl DiffArgs {
    /// Two files are compared anywhere; a pinned revision needs the repository.
    pub fn needs_workspace(&self) -> bool {
        !(Path::new(&self.old).is_file() && Path::new(&self.new).is_file())
    }
}

/// Runs `diff` with its arguments.
pub fn run(
    args: DiffArgs,
    workspace: Option<&Workspace>,
    source: &SchemaSource,
) -> Result<ExitCode, WorkspaceError> {
    diff(workspace, source, &args.old, &args.new, args.format)
}

/// The report formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Markdown,
}

/// `diff OLD NEW`: a pinned revision is compared as generated, errata applied; a file as it is.
fn diff(
    workspace: Option<&Workspace>,
    source: &SchemaSource,
    old: &str,
    new: &str,
    format: Format,
) -> Result<ExitCode, WorkspaceError> {
    let load = |arg: &str| -> Result<mcp_codegen::ir::Module, WorkspaceError> {
        let pinned = workspace.map(|w| (w, w.revisions.get(arg)));
        match pinned {
            Some((workspace, Ok(revision))) => Ok(workspace.load(revision, source)?.1),
            Some((_, Err(unknown))) if !Path::new(arg).is_file() => Err(unknown.into()),
            _ => Ok(mcp_codegen::load_schema_file(Path::new(arg))?),
        }
    };
    let changes = mcp_codegen::diff::diff(&load(old)?, &load(new)?);
    print!("{}", render_diff(&changes, old, new, format));
    Ok(ExitCode::SUCCESS)
}

fn render_diff(
    changes: &[mcp_codegen::diff::Change],
    old: &str,
    new: &str,
    format: Format,
) -> String {
    match format {
        Format::Markdown => mcp_codegen::diff::render_markdown(changes, old, new),
        Format::Text => mcp_codegen::diff::render_text(
            changes,
            old,
            new,
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        ),
    }
}
