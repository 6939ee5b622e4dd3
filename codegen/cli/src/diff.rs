//! `diff OLD NEW`: what changed between two schemas for code that uses the generated types, and
//! whether it breaks that code (exit status 1), for a pull request's check.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Component, Path};
use std::process::ExitCode;

use mcp_codegen::diff::{Gate, Kind, Names, Style};
use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::ir::Module;
use mcp_codegen::workspace::{Workspace, WorkspaceError};

/// The arguments of `diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 when nothing breaks, 1 when a change breaks code of the \
                        judged styles (or the wire) and its kind is not allowed, 2 on an error."
)]
pub struct DiffArgs {
    /// A revision of schema/revisions.toml (errata applied), or a path to a schema file.
    old: String,
    /// A revision of schema/revisions.toml (errata applied), or a path to a schema file.
    new: String,
    /// `text` (colored on a terminal), `markdown` (for a pull request) or `json` (for tools).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// How the code judged builds values: `literals` judges struct literals, constructors and
    /// matches; `constructors` lets through what breaks struct literals only.
    #[arg(long, value_enum, default_value_t = BuildStyle::Literals)]
    style: BuildStyle,
    /// Kinds of change that never fail (repeatable, or comma-separated), e.g.
    /// `--allow enum_variant_added,union_member_added` for code without exhaustive matches.
    #[arg(long, value_name = "KIND", value_delimiter = ',', value_parser = parse_kind)]
    allow: Vec<Kind>,
}

impl DiffArgs {
    /// The sides that name a pinned revision rather than a schema file: they need the
    /// repository; two files are compared anywhere.
    pub fn revision_sides(&self) -> Vec<&str> {
        [self.old.as_str(), self.new.as_str()]
            .into_iter()
            .filter(|side| !names_a_file(side))
            .collect()
    }
}

/// Whether a side of `diff` names a schema file (one that exists, or a path by its shape: a
/// missing file is then reported as missing) rather than a pinned revision.
fn names_a_file(arg: &str) -> bool {
    Path::new(arg).is_file() || arg.contains(['/', '\\']) || arg.ends_with(".json")
}

/// The report formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Markdown,
    Json,
}

/// How the team whose code is judged builds values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum BuildStyle {
    /// Struct literals, constructors and exhaustive matches: every break counts.
    Literals,
    /// Constructors only (and matches): a break of struct literals alone does not fail.
    Constructors,
}

fn parse_kind(name: &str) -> Result<Kind, String> {
    Kind::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown kind of change; one of: {}", known.join(", "))
    })
}

/// Runs `diff` with its arguments: a pinned revision is compared as generated, errata applied;
/// a file as it is.
pub fn run(
    args: DiffArgs,
    workspace: Option<&Workspace>,
    source: &SchemaSource,
) -> Result<ExitCode, WorkspaceError> {
    let (old, old_module) = load(workspace, source, &args.old)?;
    let (new, new_module) = load(workspace, source, &args.new)?;
    let changes = mcp_codegen::diff::diff(&old, &new);
    let names = Names {
        old_label: label(&args.old, workspace),
        new_label: label(&args.new, workspace),
        old_module,
        new_module,
    };
    let mut styles: BTreeSet<Style> = Style::ALL.into_iter().collect();
    if args.style == BuildStyle::Constructors {
        styles.remove(&Style::Literals);
    }
    let gate = Gate {
        styles,
        allowed: args.allow.into_iter().collect(),
    };
    let report = match args.format {
        Format::Markdown => mcp_codegen::diff::render_markdown(&changes, &names, &gate),
        Format::Json => mcp_codegen::diff::render_json(&changes, &names, &gate),
        Format::Text => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            mcp_codegen::diff::render_text(&changes, &names, &gate, color)
        }
    };
    print!("{report}");
    Ok(if gate.fails_any(&changes) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A side's IR and Rust module name. An argument that names a file, or looks like a path, is
/// read as a schema file; anything else must be a pinned revision.
fn load(
    workspace: Option<&Workspace>,
    source: &SchemaSource,
    arg: &str,
) -> Result<(Module, String), WorkspaceError> {
    let path = Path::new(arg);
    match workspace {
        Some(workspace) if !names_a_file(arg) => {
            let revision = workspace.revisions.get(arg)?;
            Ok((workspace.load(revision, source)?.1, revision.module.clone()))
        }
        _ => Ok((mcp_codegen::load_schema_file(path)?, module_of_file(path))),
    }
}

/// The module a schema file would be generated as: named after its folder when the file is a
/// `schema.json` (upstream's `<revision>/schema.json`), else after the file.
fn module_of_file(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .map(|s| s.to_string_lossy().into_owned());
    let name = match (stem.as_deref(), folder) {
        (Some("schema"), Some(folder)) => folder,
        (Some(stem), _) => stem.to_owned(),
        (None, _) => "schema".to_owned(),
    };
    let snake = mcp_codegen::naming::field_name(&name.replace('-', "_"));
    // `2026-07-28` → `v2026_07_28`, as revisions.toml names the pinned ones.
    match snake.strip_prefix('_') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("v{rest}"),
        _ => snake,
    }
}

/// A side as the report names it: a revision by its name, a file by a relative path (the
/// report goes into pull requests, where the reviewer's absolute paths mean nothing).
fn label(arg: &str, workspace: Option<&Workspace>) -> String {
    let path = Path::new(arg);
    if !path.is_absolute() {
        return arg.to_owned();
    }
    let bases = [
        std::env::current_dir().ok(),
        workspace.map(|w| w.root.clone()),
    ];
    for base in bases.into_iter().flatten() {
        if let Ok(relative) = path.strip_prefix(&base) {
            return relative.display().to_string();
        }
    }
    // Elsewhere: the file and its folder, enough to tell `draft/schema.json` apart.
    let tail: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    tail[tail.len().saturating_sub(2)..].join("/")
}
