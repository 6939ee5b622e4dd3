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
    /// Generate from this schema file (an unreleased draft, an old snapshot, an extension's or
    /// another tool's schema) instead of the pinned revisions. The file is `include!`-able, as
    /// `Config` writes it (`--module-file` for a module file of its own).
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    #[command(flatten)]
    options: SchemaOptions,
}

/// The options of `generate --schema`: one flag per setting of `mcp_codegen::Config` that
/// shapes the output, each named after it.
#[derive(Debug, clap::Args)]
struct SchemaOptions {
    /// The name the generated header and docs give the revision (default: the schema file's
    /// folder name for a `schema.json`, else the file's name).
    #[arg(long, value_name = "NAME", requires = "schema")]
    module: Option<String>,
    /// Where to write the Rust file (default: standard output).
    #[arg(long, value_name = "FILE", requires = "schema")]
    out: Option<PathBuf>,
    /// The path by which the generated code names the `mcp-typed` crate (default
    /// `::mcp_typed`), e.g. `::mcp` for a renamed dependency.
    #[arg(long, value_name = "PATH", requires = "schema")]
    types_crate: Option<String>,
    /// Write a module file of its own (`mod name;`): inner `//!` docs naming the schema. Without
    /// it the file is meant for `include!` (inner docs there are error E0753).
    #[arg(long, requires = "schema")]
    module_file: bool,
    /// Also generate the enum NAME over these request (or notification) definitions,
    /// dispatched on `method` (`Config::message_enum`); repeatable.
    #[arg(long, value_name = "NAME=DEF[,DEF…]", value_parser = parse_message_enum,
          requires = "schema")]
    message_enum: Vec<(String, Vec<String>)>,
    /// The result of request definition REQUEST is definition RESULT, where the naming
    /// (`FooRequest` → `FooResult`) does not give it (`Config::result_for`); repeatable.
    #[arg(long, value_name = "REQUEST=RESULT", value_parser = parse_result_for,
          requires = "schema")]
    result_for: Vec<(String, String)>,
    /// Also generate the borrowed family (`…Ref<'de>` types; `mcp-typed`'s feature `borrowed`).
    #[arg(long, requires = "schema", conflicts_with = "borrowed_feature")]
    borrowed: bool,
    /// The borrowed family, compiled only with this cargo feature of the including crate.
    #[arg(long, value_name = "FEATURE", requires = "schema")]
    borrowed_feature: Option<String>,
    /// Leave the validation keywords the types do not enforce (`minimum`, `pattern`, …) out of
    /// the rustdoc (`Config::constraint_docs(false)`).
    #[arg(long, requires = "schema")]
    no_constraint_docs: bool,
    /// Also emit the hidden `__roundtrip` lookup, behind this cargo feature.
    #[arg(long, value_name = "FEATURE", requires = "schema")]
    registry_feature: Option<String>,
    /// Also implement `schemars::JsonSchema` for every type, behind this cargo feature.
    #[arg(long, value_name = "FEATURE", requires = "schema")]
    schemars_feature: Option<String>,
}

impl SchemaOptions {
    /// The `Config` these options describe, for `schema` with `errata`.
    fn config(&self, schema: &Path, errata: mcp_codegen::errata::Errata) -> mcp_codegen::Config {
        let mut config = mcp_codegen::Config::new();
        config
            .schema_path(schema)
            .module_doc(self.module_file)
            .constraint_docs(!self.no_constraint_docs)
            .errata(errata);
        if let Some(module) = &self.module {
            config.revision_name(module);
        }
        if let Some(path) = &self.types_crate {
            config.types_crate(path);
        }
        for (name, members) in &self.message_enum {
            config.message_enum(name, members.as_slice());
        }
        for (request, result) in &self.result_for {
            config.result_for(request, result);
        }
        if self.borrowed {
            config.borrowed_types(true);
        }
        if let Some(feature) = &self.borrowed_feature {
            config.borrowed_types_feature(feature);
        }
        if let Some(feature) = &self.registry_feature {
            config.registry_feature(feature);
        }
        if let Some(feature) = &self.schemars_feature {
            config.schemars_feature(feature);
        }
        config
    }
}

/// `NAME=DEF[,DEF…]`: a message enum and its members (schema definition names).
fn parse_message_enum(value: &str) -> Result<(String, Vec<String>), String> {
    let form = "expected NAME=DEF[,DEF…], an enum name and the request (or notification) \
                definitions it dispatches to, e.g. `UiRequest=RenderWidgetRequest,CloseRequest`";
    let (name, members) = value
        .split_once('=')
        .ok_or_else(|| format!("{form}; `{value}` has no `=`"))?;
    let members: Vec<String> = members.split(',').map(|m| m.trim().to_owned()).collect();
    if name.trim().is_empty() || members.iter().any(String::is_empty) {
        return Err(format!("{form}; `{value}` has an empty name"));
    }
    Ok((name.trim().to_owned(), members))
}

/// `REQUEST=RESULT`: a request definition and the definition of its result.
fn parse_result_for(value: &str) -> Result<(String, String), String> {
    let form = "expected REQUEST=RESULT, two definition names, e.g. \
                `RenderWidgetRequest=Widget`";
    match value.split_once('=') {
        Some((request, result))
            if !request.trim().is_empty() && !result.trim().is_empty() && !result.contains('=') =>
        {
            Ok((request.trim().to_owned(), result.trim().to_owned()))
        }
        _ => Err(format!("{form}; got `{value}`")),
    }
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
    match &args.schema {
        Some(schema) => {
            // Inside this repository (or with `--root`), a schema file still gets the errata of
            // the revision it is named after; elsewhere there are none.
            let errata = workspace.map(|w| w.errata.clone()).unwrap_or_default();
            let config = args.options.config(schema, errata);
            generate_file(&config, args.options.out.as_deref(), args.check)
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
    let selected = workspace.select(revisions)?;
    // The files' fingerprints first: when they match, nothing needs printing.
    if check && workspace.fingerprints_match(&selected, source)? {
        println!(
            "generated code is up to date ({:.0?}, by the fingerprints in {})",
            started.elapsed(),
            workspace.fingerprints_path().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut stale = Vec::new();
    for rendered in workspace.render_all(&selected, source)? {
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
        "{} file(s) out of date: run `cargo run --bin mcp-codegen -- generate`",
        stale.len()
    );
    Ok(ExitCode::from(1))
}

/// `generate --schema FILE`: to `--out` (or standard output), or compared with it (`--check`);
/// the generation's warnings on standard error.
fn generate_file(
    config: &mcp_codegen::Config,
    out: Option<&Path>,
    check: bool,
) -> Result<ExitCode, WorkspaceError> {
    let (text, warnings) = config.generate_with_warnings()?;
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    let Some(out) = out else {
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    };
    let current = std::fs::read_to_string(out).unwrap_or_default();
    if check {
        if current == text {
            println!("{} is up to date", out.display());
            return Ok(ExitCode::SUCCESS);
        }
        println!("{} would change:", out.display());
        print!("{}", short_diff(&current, &text, 40));
        return Ok(ExitCode::from(1));
    }
    if current != text {
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| io_error(dir, source))?;
        }
        std::fs::write(out, &text).map_err(|source| io_error(out, source))?;
    }
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn io_error(path: &Path, source: std::io::Error) -> WorkspaceError {
    mcp_codegen::GenerateError::Io(mcp_codegen::FileError {
        path: path.to_owned(),
        source,
    })
    .into()
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
