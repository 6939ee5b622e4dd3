//! The builder API, for build scripts and other tools.

use std::path::{Path, PathBuf};

use crate::emit::{self, Borrowed, EmitOptions, PublicItems};
use crate::ir::Module;
use crate::schema::errata::{self, Errata, ErrataError};
use crate::schema::{self, SchemaError};

/// Everything that can stop a generation.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The schema file is not JSON.
    #[error("{path}: not valid JSON: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// The schema uses something the generator cannot turn into Rust.
    #[error("{path}#{source}")]
    Schema {
        /// The file.
        path: PathBuf,
        /// What and where.
        source: SchemaError,
    },
    /// The errata file could not be read.
    #[error(transparent)]
    Errata(#[from] ErrataError),
    /// A required setting was not given.
    #[error("{0}")]
    Config(String),
}

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
#[derive(Debug, Clone)]
pub struct Config {
    schema_path: Option<PathBuf>,
    revision_name: Option<String>,
    out_path: Option<PathBuf>,
    registry_feature: Option<String>,
    schemars_feature: Option<String>,
    module_doc: bool,
    errata: Errata,
    types_crate: Option<String>,
    constraint_docs: bool,
    results: Vec<(String, String)>,
    message_enums: Vec<(String, Vec<String>)>,
    borrowed: Borrowed,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            schema_path: None,
            revision_name: None,
            out_path: None,
            registry_feature: None,
            schemars_feature: None,
            module_doc: false,
            errata: Errata::default(),
            types_crate: None,
            constraint_docs: true,
            results: Vec::new(),
            message_enums: Vec::new(),
            borrowed: Borrowed::No,
        }
    }
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
        self.types_crate = Some(path.into());
        self
    }

    /// Also emit the borrowed family: a `borrowed` submodule with `ClientMessageRef<'de>`,
    /// `ServerMessageRef<'de>` and a `…Ref<'de>` form of every type that holds a string, a
    /// free-form object or undeclared members, which borrow them from the decoded text
    /// (`mcp-typed`'s feature `borrowed` must be on). Default: off.
    pub fn borrowed_types(&mut self, yes: bool) -> &mut Self {
        self.borrowed = if yes { Borrowed::Always } else { Borrowed::No };
        self
    }

    /// [`borrowed_types`](Self::borrowed_types), compiled only with the cargo feature `feature`
    /// of the crate that includes the code (`#[cfg(feature = "…")]`).
    pub fn borrowed_types_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.borrowed = Borrowed::Feature(feature.into());
        self
    }

    /// Carry the validation keywords the types do not enforce (`minimum`, `maxLength`,
    /// `pattern`, `format`, `propertyNames`, …) into the rustdoc of the member or type that has
    /// them (default: on). This repository's pinned revisions are generated without, so that
    /// their checked-in code does not change with this option.
    pub fn constraint_docs(&mut self, yes: bool) -> &mut Self {
        self.constraint_docs = yes;
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
        self.results.push((request.into(), result.into()));
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
        self.message_enums.push((
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

    /// Also emit the hidden `__roundtrip` lookup, behind this cargo feature.
    pub fn registry_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.registry_feature = Some(feature.into());
        self
    }

    /// Also implement `schemars::JsonSchema` for every type, behind this cargo feature of the
    /// crate that compiles the code (which must then enable `mcp-typed`'s feature `schemars`).
    pub fn schemars_feature(&mut self, feature: impl Into<String>) -> &mut Self {
        self.schemars_feature = Some(feature.into());
        self
    }

    /// Corrects known defects of the official schemas before generating: the changes of
    /// `errata` listed for the revision being generated (see `schema/errata.toml` of this
    /// repository for the format and the list this project maintains).
    pub fn errata(&mut self, errata: Errata) -> &mut Self {
        self.errata = errata;
        self
    }

    /// [`Config::errata`] read from a file.
    pub fn errata_path(&mut self, path: impl AsRef<Path>) -> Result<&mut Self, GenerateError> {
        Ok(self.errata(Errata::load(path.as_ref())?))
    }

    /// The ids of the errata that change `revision`'s schema, in order.
    pub fn errata_of(&self, revision: &str) -> Vec<&str> {
        let mut ids: Vec<&str> = Vec::new();
        for (erratum, _) in self.errata.for_revision(revision) {
            if !ids.contains(&erratum.id.as_str()) {
                ids.push(&erratum.id);
            }
        }
        ids
    }

    /// Emit inner `//!` docs for the module (for a file that is a module of its own, not an
    /// `include!`).
    pub fn module_doc(&mut self, yes: bool) -> &mut Self {
        self.module_doc = yes;
        self
    }

    /// The generated source, without writing anything.
    pub fn generate_string(&self) -> Result<String, GenerateError> {
        let path = self
            .schema_path
            .as_deref()
            .ok_or_else(|| GenerateError::Config("schema_path is required".into()))?;
        let bytes = std::fs::read(path).map_err(|source| GenerateError::Io {
            path: path.to_owned(),
            source,
        })?;
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
        self.render(&bytes, &name, path)
    }

    /// Renders schema bytes already in memory; `path` only names them in errors.
    pub fn render(
        &self,
        bytes: &[u8],
        revision: &str,
        path: &Path,
    ) -> Result<String, GenerateError> {
        let body = self.render_body(bytes, revision, path)?;
        Ok(self.assemble(bytes, revision, &body))
    }

    /// The file body for a schema: everything but the header and module docs, so that
    /// revisions with byte-identical schemas (and the same errata) share one rendering.
    pub fn render_body(
        &self,
        bytes: &[u8],
        revision: &str,
        path: &Path,
    ) -> Result<String, GenerateError> {
        Ok(self.render_body_with_items(bytes, revision, path)?.0)
    }

    /// [`Self::render_body`], and the public items of the body, for
    /// [`Self::assemble_reexport_of`].
    pub fn render_body_with_items(
        &self,
        bytes: &[u8],
        revision: &str,
        path: &Path,
    ) -> Result<(String, PublicItems), GenerateError> {
        let emitted = self.render_parts(bytes, revision, path, None)?;
        Ok((emitted.body, emitted.items))
    }

    /// [`Self::render_body_with_items`], with the borrowed family in a file of its own when
    /// `borrowed_path` names it (see [`EmitOptions::borrowed_path`]): the checked-in modules.
    pub(crate) fn render_parts(
        &self,
        bytes: &[u8],
        revision: &str,
        path: &Path,
        borrowed_path: Option<String>,
    ) -> Result<emit::Emitted, GenerateError> {
        let (root, module) = self.load(bytes, revision, path)?;
        let types_crate = match &self.types_crate {
            None => None,
            Some(text) => {
                let path = syn::parse_str::<syn::Path>(text).map_err(|e| {
                    GenerateError::Config(format!(
                        "types_crate `{text}` is not a Rust path (e.g. `::mcp_typed`): {e}"
                    ))
                })?;
                Some(quote::ToTokens::into_token_stream(path))
            }
        };
        let options = EmitOptions {
            registry_feature: self.registry_feature.clone(),
            schemars_feature: self.schemars_feature.clone(),
            types_crate,
            module_file: self.module_doc,
            borrowed: self.borrowed.clone(),
            borrowed_path,
        };
        Ok(emit::emit_with_items(&module, &root, &options))
    }

    /// The schema with this revision's errata applied, and its IR (what [`crate::diff::diff`]
    /// compares).
    pub fn load(
        &self,
        bytes: &[u8],
        revision: &str,
        path: &Path,
    ) -> Result<(serde_json::Value, Module), GenerateError> {
        let schema_err = |source| GenerateError::Schema {
            path: path.to_owned(),
            source,
        };
        let mut root = parse_json(bytes, path)?;
        let dialect = schema::detect_dialect(&root).map_err(schema_err)?;
        let changes = self.errata.for_revision(revision);
        errata::apply(&mut root, dialect, &changes).map_err(schema_err)?;
        schema::hoist_nested_definitions(&mut root).map_err(schema_err)?;
        let options = schema::LoadOptions {
            constraint_docs: self.constraint_docs,
            results: self.results.clone(),
            message_enums: self.message_enums.clone(),
        };
        let mut module = schema::load_with(&root, dialect, &options).map_err(schema_err)?;
        errata::annotate(&mut module, dialect, &changes);
        Ok((root, module))
    }

    /// Puts the header (revision and sha256 of `bytes`) and module docs on a rendered body.
    pub fn assemble(&self, bytes: &[u8], revision: &str, body: &str) -> String {
        self.assemble_with(
            bytes,
            revision,
            body,
            "Every schema definition is a type here, named after it (`JSONRPCRequest` is \
             [`JsonRpcRequest`]); constant members are checked on decode and written on encode; \
             members a schema does not declare are kept in `extra`.",
        )
    }

    /// The module of a revision whose schema is byte for byte that of `same_as` (its name and
    /// module): `same_as_body`, that revision's rendered body, is not compiled twice; every
    /// public item of it is re-exported instead, so a value of one revision is a value of the
    /// other.
    pub fn assemble_reexport(
        &self,
        bytes: &[u8],
        revision: &str,
        same_as: (&str, &str),
        same_as_body: &str,
    ) -> Result<String, GenerateError> {
        let items = PublicItems::of_body(same_as_body).map_err(reexport_error(same_as.1))?;
        self.assemble_reexport_of(bytes, revision, same_as, &items)
    }

    /// [`Self::assemble_reexport`] from the public items [`Self::render_body_with_items`] gave
    /// with the body of `same_as`, rather than from the body's text, which would be parsed again.
    pub fn assemble_reexport_of(
        &self,
        bytes: &[u8],
        revision: &str,
        same_as: (&str, &str),
        items: &PublicItems,
    ) -> Result<String, GenerateError> {
        let (name, module) = same_as;
        let body = items.reexports(module).map_err(reexport_error(module))?;
        let doc = format!(
            "Its schema is byte for byte that of revision `{name}`, so its types are those of \
             module `{module}`, re-exported: a value of one revision is a value of the other, \
             and enabling both compiles the types once."
        );
        Ok(self.assemble_with(bytes, revision, &body, &doc))
    }

    /// A file of a module's own (the borrowed family's): its header on the rendered `items`.
    pub(crate) fn assemble_file(&self, bytes: &[u8], revision: &str, items: &str) -> String {
        emit::assemble(&self.header(bytes, revision), None, items)
    }

    /// `// @generated …`: the revision, the sha256 of its schema `bytes`, and its errata.
    fn header(&self, bytes: &[u8], revision: &str) -> String {
        let sha = crate::fetch::sha256_hex(bytes);
        let mut header =
            format!("// @generated by mcp-codegen from {revision} (sha256 {sha}). Do not edit.");
        let errata = self.errata_of(revision);
        if !errata.is_empty() {
            header.push_str(&format!(
                "\n// Errata applied (schema/errata.toml): {}.",
                errata.join(", ")
            ));
        }
        header
    }

    fn assemble_with(&self, bytes: &[u8], revision: &str, body: &str, doc: &str) -> String {
        let header = self.header(bytes, revision);
        let doc = self.module_doc.then(|| {
            if is_release(revision) || revision == "draft" {
                format!(
                    "Types of MCP protocol revision `{revision}`, generated from its official JSON schema.\n\n{doc}"
                )
            } else {
                format!("Types generated from the JSON schema `{revision}`.\n\n{doc}")
            }
        });
        let mut text = emit::assemble(&header, doc.as_deref(), body);
        // Per revision, not in the body, which revisions with identical schemas share (the draft
        // is often the latest release). A draft has no version string of its own.
        if is_release(revision) {
            text.push_str(&format!(
                "/// The protocol revision these types implement, as sent in `protocolVersion`.\n\
                 pub const PROTOCOL_VERSION: &str = {revision:?};\n"
            ));
        }
        text
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

/// Whether a revision name is a released protocol version (`2025-11-25`), not `draft`.
fn is_release(revision: &str) -> bool {
    let bytes = revision.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Reads a schema file into the IR as it is, without errata (what [`crate::diff::diff`]
/// compares; [`Config::load`] applies errata).
pub fn load_schema_file(path: &Path) -> Result<Module, GenerateError> {
    let bytes = std::fs::read(path).map_err(|source| GenerateError::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(Config::new().load(&bytes, "", path)?.1)
}

fn parse_json(bytes: &[u8], path: &Path) -> Result<serde_json::Value, GenerateError> {
    serde_json::from_slice(bytes).map_err(|source| GenerateError::Json {
        path: path.to_owned(),
        source,
    })
}

/// Writes `text` to `path` unless the file already holds exactly that.
pub(crate) fn write_if_changed(path: &Path, text: &str) -> Result<bool, GenerateError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| GenerateError::Io {
            path: dir.to_owned(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| GenerateError::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(true)
}

fn reexport_error(module: &str) -> impl Fn(syn::Error) -> GenerateError + '_ {
    move |e| GenerateError::Config(format!("re-exporting the items of `{module}`: {e}"))
}
