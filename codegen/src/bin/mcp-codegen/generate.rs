//! `generate`: the pinned revisions' files, written or compared; `generate --schema FILE`, any
//! schema to one file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::workspace::{Workspace, WorkspaceError};

/// The arguments of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
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
}

impl GenerateArgs {
    /// `generate --schema` works in any folder; the pinned revisions need the repository.
    pub fn needs_workspace(&self) -> bool {
        self.schema.is_none()
    }
}

/// Runs `generate` with its arguments.
pub fn run(
    args: GenerateArgs,
    workspace: Option<&Workspace>,
    source: &SchemaSource,
) -> Result<ExitCode, WorkspaceError> {
    match args.schema {
        Some(schema) => {
            // Inside this repository (or with `--root`), a schema file still gets the errata of
            // the revision it is named after; elsewhere there are none.
            let errata = workspace.map(|w| w.errata.clone()).unwrap_or_default();
            generate_file(
                &schema,
                args.module,
                args.out,
                args.check,
                args.types_crate,
                errata,
            )
        }
        None => generate(
            crate::required(workspace)?,
            source,
            &args.revisions,
            args.check,
        ),
    }
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
