//! The builder API, for build scripts and other tools.

use std::path::{Path, PathBuf};

use crate::error::GenerateError;
use crate::file_error::FileError;
use crate::pipeline::{self, Source};
use crate::schema::errata::Errata;
use crate::settings::{Borrowed, Settings};

/// Generates Rust for one schema file, in the manner of `prost-build`:
///
/// ```no_run
/// // build.rs
/// mcp_codegen::Config::new()
///     .schema_path("schema/2025-11-25/schema.json")
///     .revision_name("2025-11-25")
///     .generate()
///     .expect("MCP types");
/// // lib.rs: include!(concat!(env!("OUT_DIR"), "/mcp_typed.rs"));
/// ```
///
/// The generated code refers to the runtime of the `mcp-typed` crate
/// (`::mcp_typed::__private`), so the crate that includes it depends on `mcp-typed`, by that
/// name or through the path given to [`Config::types_crate`].
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub(crate) schema_path: Option<PathBuf>,
    pub(crate) revision_name: Option<String>,
    pub(crate) out_path: Option<PathBuf>,
    pub(crate) errata: Errata,
    /// What shapes the code, read as it is by the loader and the emitter.
    pub(crate) settings: Settings,
}

impl Config {
    /// A configuration with nothing set.
    pub fn new() -> Self {
        Self::default()
    }

    /// The path by which the generated code names the `mcp-typed` crate (default
    /// `::mcp_typed`), like prost-build's `prost_path`: for a crate that reaches the types
    /// through a re-export (`"::my_sdk::mcp_typed"`) or a renamed dependency
    /// (`mcp = { package = "mcp-typed", … }`: `"::mcp"`). A path that is not a Rust path is
    /// refused when generating.
    pub fn types_crate(&mut self, path: impl Into<String>) -> &mut Self {
        self.settings.types_crate = Some(path.into());
        self
    }

    /// Also emit the borrowed family: a `borrowed` submodule with `ClientMessageRef<'de>`,
    /// `ServerMessageRef<'de>` and a `…Ref<'de>` form of every type that holds a string, a
    /// free-form object or undeclared members, which borrow them from the decoded text
    /// (`mcp-typed`'s feature `borrowed` must be on). Default: off.
    pub fn borrowed_types(&mut self, yes: bool) -> &mut Self {
        self.settings.borrowed = if yes { Borrowed::Always } else { Borrowed::No };
        self
    }

    /// [`borrowed_types`](Self::borrowed_types), compiled only with the cargo feature `feature`
    /// of the crate that includes the code (`#[cfg(feature = "…")]`).
    pub fn borrowed_types_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.settings.borrowed = Borrowed::Feature(feature.into());
        self
    }

    /// Carry the validation keywords the types do not enforce (`minimum`, `maxLength`,
    /// `pattern`, `format`, `propertyNames`, …) into the rustdoc of the member or type that has
    /// them (default: on). This repository's pinned revisions are generated without, so that
    /// their checked-in code does not change with this option.
    pub fn constraint_docs(&mut self, yes: bool) -> &mut Self {
        self.settings.constraint_docs = yes;
        self
    }

    /// For a schema that defines requests but no `ClientRequest`-style unions (an extension's):
    /// the result of request definition `request` is definition `result` (schema names), where
    /// the schema's naming (`FooRequest` → `FooResult`) does not give it. Each such request
    /// implements `jsonrpc::Request` (`METHOD`, `Params`, `Result`).
    pub fn result_for(
        &mut self,
        request: impl Into<String>,
        result: impl Into<String>,
    ) -> &mut Self {
        self.settings.results.push((request.into(), result.into()));
        self
    }

    /// For a schema without `ClientRequest`-style unions: also generate the enum `name` over the
    /// request (or notification) definitions `members` (schema names), dispatched on `method` as
    /// the core `ClientRequest` is (the same `__private::codec::Calls` impl): `serde` decoding
    /// and encoding of `{"method", "params"}`, an unknown method refused.
    pub fn message_enum<S: AsRef<str>>(
        &mut self,
        name: impl Into<String>,
        members: &[S],
    ) -> &mut Self {
        self.settings.message_enums.push((
            name.into(),
            members.iter().map(|m| m.as_ref().to_owned()).collect(),
        ));
        self
    }

    /// The schema file to read (required).
    pub fn schema_path(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.schema_path = Some(path.into());
        self
    }

    /// The revision's name, for the header and docs (default: the schema file's folder name).
    pub fn revision_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.revision_name = Some(name.into());
        self
    }

    /// Where [`Config::generate`] writes (default: `$OUT_DIR/mcp_typed.rs`).
    pub fn out_path(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.out_path = Some(path.into());
        self
    }

    /// Name, in the `@generated` header, the command that regenerates the file (for a file
    /// checked in; a build script's output needs none).
    pub fn regenerate_with(&mut self, command: impl Into<String>) -> &mut Self {
        self.settings.regenerate_with = Some(command.into());
        self
    }

    /// Also emit the hidden `__roundtrip` lookup, behind this cargo feature.
    pub fn registry_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.settings.registry_feature = Some(feature.into());
        self
    }

    /// Also emit the verdict path behind this cargo feature of the crate that compiles the code
    /// (which must then enable `mcp-typed`'s feature `verdict`): a hidden module `__verdict` with
    /// `mcp_typed::__private::check::Check` for every type (whether a value's text decodes and
    /// validates, without building it) and, per call set of requests, the judge of a result by
    /// its method. What `mcp-check` reads traffic with.
    pub fn verdict_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.settings.verdict_feature = Some(feature.into());
        self
    }

    /// Also implement `schemars::JsonSchema` for every type, behind this cargo feature of the
    /// crate that compiles the code (which must then enable `mcp-typed`'s feature `schemars`).
    pub fn schemars_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.settings.schemars_feature = Some(feature.into());
        self
    }

    /// Corrects known defects of the official schemas before generating: the changes of
    /// `errata` listed for the revision being generated (see `schema/errata.toml` of this
    /// repository for the format and the list this project maintains).
    pub fn errata(&mut self, errata: Errata) -> &mut Self {
        self.errata = errata;
        self
    }

    /// Emit inner `//!` docs for the module (for a file that is a module of its own, not an
    /// `include!`).
    pub fn module_doc(&mut self, yes: bool) -> &mut Self {
        self.settings.module_file = yes;
        self
    }

    /// The generated source, without writing anything. Its warnings (see
    /// [`generate_with_warnings`](Self::generate_with_warnings)) are printed as
    /// `cargo:warning=…` when run from a build script, as cargo shows them; elsewhere they are
    /// only returned by `generate_with_warnings`.
    pub fn generate_string(&self) -> Result<String, GenerateError> {
        let (text, warnings) = self.generate_with_warnings()?;
        report_to_cargo(&warnings);
        Ok(text)
    }

    /// The generated source and the warnings of the generation, without writing or printing
    /// anything: each `<file>#<pointer>: <message>`, where the output is valid but may not be
    /// what was meant. Today: a request-shaped definition (a constant `method` and `params`) for
    /// which no result is found gets no `jsonrpc::Request` impl; the message names the rule
    /// and the fix ([`result_for`](Self::result_for)).
    pub fn generate_with_warnings(&self) -> Result<(String, Vec<String>), GenerateError> {
        let path = self
            .schema_path
            .as_deref()
            .ok_or_else(|| GenerateError::Config("schema_path is required".into()))?;
        let bytes = pipeline::read(path)?;
        // The official layout names a revision by its folder (`2025-11-25/schema.json`); any
        // other file by its own name (`ext-apps.json` is `ext-apps`).
        let name = match &self.revision_name {
            Some(n) => n.clone(),
            None => {
                let folder = (path.parent().and_then(Path::file_name))
                    .filter(|_| path.file_name().is_some_and(|file| file == "schema.json"));
                folder
                    .or_else(|| path.file_stem())
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "schema".into())
            }
        };
        let source = Source {
            bytes: &bytes,
            revision: &name,
            path,
        };
        let generated =
            pipeline::Prepared::new(&self.errata, &self.settings, source)?.generate(None);
        Ok((generated.text, generated.warnings))
    }

    /// Generates and writes the file (only when its content changes, so builds stay incremental).
    pub fn generate(&self) -> Result<PathBuf, GenerateError> {
        let out = match &self.out_path {
            Some(p) => p.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(|d| PathBuf::from(d).join("mcp_typed.rs"))
                .ok_or_else(|| {
                    GenerateError::Config(
                        "out_path is required outside a build script (no OUT_DIR)".into(),
                    )
                })?,
        };
        let text = self.generate_string()?;
        write_if_changed(&out, &text)?;
        Ok(out)
    }
}

/// Prints `warnings` as `cargo:warning=…` lines when this runs in a build script (cargo sets
/// `CARGO` and `OUT_DIR` for it), the convention by which a build script's warnings reach the
/// user; one line each, as cargo reads them.
fn report_to_cargo(warnings: &[String]) {
    if std::env::var_os("CARGO").is_none() || std::env::var_os("OUT_DIR").is_none() {
        return;
    }
    for warning in warnings {
        println!("cargo:warning=mcp-codegen: {}", warning.replace('\n', " "));
    }
}

/// Writes `text` to `path` unless the file already holds exactly that.
pub(crate) fn write_if_changed(path: &Path, text: &str) -> Result<bool, GenerateError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| {
            GenerateError::Io(FileError {
                path: dir.to_owned(),
                source,
            })
        })?;
    }
    std::fs::write(path, text).map_err(|source| {
        GenerateError::Io(FileError {
            path: path.to_owned(),
            source,
        })
    })?;
    Ok(true)
}
