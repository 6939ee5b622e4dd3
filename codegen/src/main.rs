//! The `mcp-codegen` command line: `fetch`, `generate [--check]`, `generate --schema`, `diff`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
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
    Generate {
        /// Only these revisions (default: all).
        #[arg(long = "revision", value_name = "R", conflicts_with = "schema")]
        revisions: Vec<String>,
        /// Write nothing; list the files that would change, with a short diff, and exit 1.
        #[arg(long)]
        check: bool,
        /// Generate from this schema file (an unreleased draft, an old snapshot) instead of
        /// the pinned revisions.
        #[arg(long, value_name = "FILE")]
        schema: Option<PathBuf>,
        /// With `--schema`: the name the generated header and docs give the revision
        /// (default: the schema file's folder name).
        #[arg(long, value_name = "NAME", requires = "schema")]
        module: Option<String>,
        /// With `--schema`: where to write the Rust file (default: standard output).
        #[arg(long, value_name = "FILE", requires = "schema")]
        out: Option<PathBuf>,
        /// With `--schema`: the path by which the generated code names the `mcp-typed` crate
        /// (default `::mcp_typed`), e.g. `::mcp` for a renamed dependency.
        #[arg(long, value_name = "PATH", requires = "schema")]
        types_crate: Option<String>,
    },
    /// Lists what changed from OLD to NEW for code that uses the generated types: definitions,
    /// methods, fields, enum values, union members and constants, each breaking or compatible.
    Diff {
        /// A revision of schema/revisions.toml, or a path to a schema file.
        old: String,
        /// A revision of schema/revisions.toml, or a path to a schema file.
        new: String,
        /// `text` (colored on a terminal) or `markdown` (for a CHANGELOG or a pull request).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// The report formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Markdown,
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
    let source = SchemaSource::resolve(cli.from.clone());
    let workspace = open_workspace(cli.root.as_deref(), &cli.command)?;
    let workspace = workspace.as_ref();
    match cli.command {
        Command::Fetch { revisions } => fetch(required(workspace)?, &source, &revisions),
        Command::PinExamples { revision } => pin_examples(required(workspace)?, &source, &revision),
        Command::Generate {
            schema: Some(schema),
            module,
            out,
            check,
            types_crate,
            ..
        } => {
            // Inside this repository (or with `--root`), a schema file still gets the errata of
            // the revision it is named after; elsewhere there are none.
            let errata = workspace.map(|w| w.errata.clone()).unwrap_or_default();
            generate_file(&schema, module, out, check, types_crate, errata)
        }
        Command::Generate {
            revisions, check, ..
        } => generate(required(workspace)?, &source, &revisions, check),
        Command::Diff { old, new, format } => diff(workspace, &source, &old, &new, format),
    }
}

/// The repository, when the command needs it or one is found: `generate --schema` and `diff` of
/// two files work in any folder, so for them it is looked for but not required (unless given by
/// `--root`).
fn open_workspace(
    root: Option<&Path>,
    command: &Command,
) -> Result<Option<Workspace>, WorkspaceError> {
    let open = || match root {
        Some(root) => Workspace::open(root),
        None => {
            Workspace::discover(&std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")))
        }
    };
    let needs_workspace = match command {
        Command::Generate { schema, .. } => schema.is_none(),
        Command::Diff { old, new, .. } => !(Path::new(old).is_file() && Path::new(new).is_file()),
        Command::Fetch { .. } | Command::PinExamples { .. } => true,
    };
    if needs_workspace {
        return open().map(Some);
    }
    match (root, open()) {
        (Some(_), Err(e)) => Err(e),
        (_, found) => Ok(found.ok()),
    }
}

/// The repository of a command that needs one ([`open_workspace`] found it).
fn required(workspace: Option<&Workspace>) -> Result<&Workspace, WorkspaceError> {
    workspace.ok_or_else(|| WorkspaceError::NoRoot(PathBuf::from(".")))
}

/// `fetch`: the schemas of the named revisions (or all, and the pinned examples).
fn fetch(
    workspace: &Workspace,
    source: &SchemaSource,
    revisions: &[String],
) -> Result<ExitCode, WorkspaceError> {
    for revision in workspace.select(revisions)? {
        let outcome = mcp_codegen::fetch::fetch_revision(
            &workspace.revisions,
            revision,
            &workspace.schema_root(),
            source,
        )?;
        match outcome {
            FetchOutcome::UpToDate => println!("{}: up to date", revision.name),
            FetchOutcome::Fetched { origin } => {
                println!("{}: fetched from {origin}", revision.name)
            }
        }
    }
    if revisions.is_empty() {
        let examples = workspace.pinned_examples()?;
        let mut fetched = 0;
        for file in &examples {
            let outcome = mcp_codegen::fetch::fetch_file(
                &workspace.revisions,
                file,
                &workspace.schema_root(),
                source,
            )?;
            fetched += usize::from(outcome != FetchOutcome::UpToDate);
        }
        println!("examples: {} pinned, {fetched} fetched", examples.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// `pin-examples`: rewrites `schema/examples.sha256` from a revision's examples in the mirror.
fn pin_examples(
    workspace: &Workspace,
    source: &SchemaSource,
    revision: &str,
) -> Result<ExitCode, WorkspaceError> {
    let SchemaSource::Dir(dir) = source else {
        eprintln!("pin-examples reads a folder: give --from DIR or set $MCP_SCHEMA_MIRROR");
        return Ok(ExitCode::from(2));
    };
    let lines = mcp_codegen::fetch::manifest_of(dir, revision)?;
    let header = "# The official example instances, pinned by sha256 (sha256sum format, \
                  paths relative to schema/).\n\
                  # `mcp-codegen fetch` fills them like the schemas, from the same mirror \
                  or the same upstream commit;\n\
                  # they are never committed. Regenerate after a pin bump: \
                  `mcp-codegen pin-examples`.\n";
    let path = workspace
        .schema_root()
        .join(mcp_codegen::fetch::EXAMPLES_MANIFEST);
    std::fs::write(&path, format!("{header}{lines}")).map_err(|source| {
        mcp_codegen::fetch::FetchError::Io {
            path: path.clone(),
            source,
        }
    })?;
    println!("wrote {} ({} files)", path.display(), lines.lines().count());
    Ok(ExitCode::SUCCESS)
}

/// `generate [--check]`: the pinned revisions' files, written or compared.
fn generate(
    workspace: &Workspace,
    source: &SchemaSource,
    revisions: &[String],
    check: bool,
) -> Result<ExitCode, WorkspaceError> {
    let started = std::time::Instant::now();
    let mut stale = Vec::new();
    for rendered in workspace.render_all(&workspace.select(revisions)?, source)? {
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
    if !check {
        println!("generated in {:.0?}", started.elapsed());
        return Ok(ExitCode::SUCCESS);
    }
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
    Ok(ExitCode::from(1))
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

/// `generate --schema FILE`: to `--out` (or standard output), or compared with it (`--check`).
fn generate_file(
    schema: &Path,
    module: Option<String>,
    out: Option<PathBuf>,
    check: bool,
    types_crate: Option<String>,
    errata: mcp_codegen::schema::errata::Errata,
) -> Result<ExitCode, WorkspaceError> {
    let mut config = mcp_codegen::Config::new();
    config.schema_path(schema).module_doc(true).errata(errata);
    if let Some(module) = module {
        config.revision_name(module);
    }
    if let Some(path) = types_crate {
        config.types_crate(path);
    }
    if let Some(out) = out.as_ref().filter(|_| !check) {
        config.out_path(out).generate()?;
        println!("wrote {}", out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let text = config.generate_string()?;
    match out {
        Some(out) => {
            let current = std::fs::read_to_string(&out).unwrap_or_default();
            if current == text {
                println!("{} is up to date", out.display());
                return Ok(ExitCode::SUCCESS);
            }
            println!("{} would change:", out.display());
            print!("{}", short_diff(&current, &text, 40));
            Ok(ExitCode::from(1))
        }
        None => {
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
    }
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
