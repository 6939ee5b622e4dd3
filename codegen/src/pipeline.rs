//! One schema to one Rust file, in five steps: prepare (parse the JSON, detect its dialect,
//! apply the revision's errata, hoist nested definitions, name an inline `RequestId`) → load
//! (the IR, passes included) → annotate the errata → emit → assemble (header and module docs).
//! The first three are [`Prepared::new`], once per schema; `Config` and the workspace then
//! emit through [`Prepared::generate`] (or only fingerprint, [`Prepared::fingerprint`]), and a
//! revision that shares another's schema is a [`Reexport`].

use std::path::Path;

use crate::emit::{self, PublicItems};
use crate::error::GenerateError;
use crate::file_error::FileError;
use crate::ir::{passes, Module};
use crate::schema::errata::{self, Change, Errata, Erratum};
use crate::schema::{self, SchemaError};
use crate::settings::Settings;

/// A schema to generate from: its bytes, the name of its revision, and the path that names it
/// in errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub bytes: &'a [u8],
    pub revision: &'a str,
    pub path: &'a Path,
}

/// What [`Prepared::generate`] gives.
#[derive(Debug)]
#[cfg_attr(not(feature = "tools"), allow(dead_code))] // all of it read by `workspace`
pub(crate) struct Generated {
    /// The module's file.
    pub text: String,
    /// The file of the borrowed family, when it has one of its own.
    pub borrowed: Option<String>,
    /// The public items of the module, which a revision with the same schema re-exports.
    pub items: PublicItems,
    /// What the generation did that the text alone does not show (see [`warnings`]), each
    /// `<file>#<pointer>: <what and how to fix it>`.
    pub warnings: Vec<String>,
    /// The generation's fingerprint (`Prepared::fingerprint`).
    pub fingerprint: String,
}

/// A schema ready to emit: read, its revision's errata applied (and annotated), loaded into
/// the IR, its header written. Everything a generation of `source` does before emitting
/// happens here, once: [`Prepared::generate`] and [`Prepared::fingerprint`] only emit.
pub(crate) struct Prepared<'a> {
    settings: &'a Settings,
    source: Source<'a>,
    /// `// @generated …` with the errata applied.
    header: String,
    /// The schema as loaded (errata applied, nested definitions hoisted, keys sorted).
    pub root: serde_json::Value,
    /// Its IR.
    pub module: Module,
}

impl<'a> Prepared<'a> {
    /// Prepare → load → annotate the errata; the settings checked.
    pub fn new(
        errata: &Errata,
        settings: &'a Settings,
        source: Source<'a>,
    ) -> Result<Self, GenerateError> {
        settings.types_crate_path().map_err(GenerateError::Config)?;
        let changes = errata.for_revision(source.revision);
        let mut root =
            serde_json::from_slice(source.bytes).map_err(|error| GenerateError::Json {
                path: source.path.to_owned(),
                source: error,
            })?;
        let schema_err = |error: SchemaError| GenerateError::Schema {
            path: source.path.to_owned(),
            source: error,
        };
        let dialect = schema::detect_dialect(&root).map_err(schema_err)?;
        errata::apply(&mut root, dialect, &changes).map_err(schema_err)?;
        let mut module = load_prepared(&mut root, dialect, settings).map_err(schema_err)?;
        errata::annotate(&mut module, dialect, &changes);
        Ok(Prepared {
            settings,
            source,
            header: header(settings, source, &changes),
            root,
            module,
        })
    }

    /// The module's file, and the file of its borrowed family when `borrowed_path` names it
    /// (see [`emit::emit`]).
    pub fn generate(&self, borrowed_path: Option<&str>) -> Generated {
        let emitted = emit::emit(&self.module, &self.root, self.settings, borrowed_path);
        Generated {
            fingerprint: self.seal(&emitted.digest),
            text: assemble(
                self.settings,
                self.source.revision,
                &self.header,
                &emitted.body,
                MODULE_DOC,
            ),
            borrowed: (emitted.borrowed_text)
                .map(|items| emit::assemble(&self.header, None, &items)),
            items: emitted.items,
            warnings: warnings(&self.module, self.source.path),
        }
    }

    #[cfg(feature = "tools")] // for `workspace`
    /// A fingerprint of what [`Prepared::generate`] would write (both files), computed without
    /// printing: the digest of the emitted tokens ([`emit::token_digest`]) with the header and
    /// the settings that [`assemble`] adds. The same fingerprint means the same text as long as
    /// the printing is the same (prettyplease, the text passes of `emit::assemble`), which only
    /// the full comparison (`tests/generated_is_fresh.rs`) checks.
    pub fn fingerprint(&self, borrowed_path: Option<&str>) -> Result<String, GenerateError> {
        let tokens = emit::token_digest(&self.module, &self.root, self.settings, borrowed_path)
            .map_err(GenerateError::Config)?;
        Ok(self.seal(&tokens))
    }

    fn seal(&self, tokens: &[u8; 32]) -> String {
        seal(self.settings, self.source, &self.header, tokens)
    }
}

/// The schema as the loader reads it (nested definitions hoisted, an inline `RequestId` named,
/// keys sorted) and its IR: the one way from a parsed schema to the IR, for a generation and
/// for [`crate::load_schema`].
pub(crate) fn load_prepared(
    root: &mut serde_json::Value,
    dialect: crate::revisions::Dialect,
    settings: &Settings,
) -> Result<Module, SchemaError> {
    schema::hoist_nested_definitions(root)?;
    schema::supply_request_id(root);
    // The generated code follows the schema's keys sorted by name, whatever order the file has
    // them in and whether or not serde_json's `preserve_order` is on in the build (an rmcp
    // adapter's default feature turns it on for every crate beside it).
    root.sort_all_objects();
    schema::load(root, dialect, settings)
}

/// The source of the code that turns tokens into a file's text (printing piece by piece,
/// indenting the borrowed family, the text passes, the header): a fingerprint changes with it,
/// so that a change there is not hidden from `generate --check` by unchanged tokens.
const PRINTING: [&str; 4] = [
    include_str!("emit/mod.rs"),
    include_str!("emit/borrowed.rs"),
    include_str!("emit/assemble.rs"),
    include_str!("pipeline.rs"),
];

/// The fingerprint of a generation: its tokens' digest with what [`assemble`] adds.
fn seal(settings: &Settings, source: Source<'_>, header: &str, tokens: &[u8; 32]) -> String {
    let tokens: String = tokens.iter().map(|b| format!("{b:02x}")).collect();
    let printing = sha256_hex(PRINTING.concat().as_bytes());
    let settings = format!(
        "{}\n{printing}\n{header}\n{}\n{}\n{tokens}",
        env!("CARGO_PKG_VERSION"),
        settings.module_file,
        source.revision,
    );
    sha256_hex(settings.as_bytes())
}

#[cfg(feature = "tools")] // for `workspace`
/// The module of a revision whose schema is byte for byte that of another revision (`same_as`:
/// its name and module): every public item of that module re-exported, so a value of one
/// revision is a value of the other.
pub(crate) struct Reexport<'a> {
    settings: &'a Settings,
    source: Source<'a>,
    same_as: (&'a str, &'a str),
    header: String,
}

#[cfg(feature = "tools")]
impl<'a> Reexport<'a> {
    /// The re-export of `same_as` for `source`, its header written once.
    pub fn new(
        errata: &Errata,
        settings: &'a Settings,
        source: Source<'a>,
        same_as: (&'a str, &'a str),
    ) -> Self {
        let changes = errata.for_revision(source.revision);
        Reexport {
            settings,
            source,
            same_as,
            header: header(settings, source, &changes),
        }
    }

    /// The module's file: the public `items` of the module of `same_as` (from
    /// [`Prepared::generate`]) re-exported.
    pub fn text(&self, items: &PublicItems) -> Result<String, GenerateError> {
        let (name, module) = self.same_as;
        let body = items.reexports(module).map_err(|e| {
            GenerateError::Config(format!("re-exporting the items of `{module}`: {e}"))
        })?;
        let doc = format!(
            "Its schema is byte for byte that of revision `{name}`, so its types are those of \
             module `{module}`, re-exported: a value of one revision is a value of the other, \
             and enabling both compiles the types once."
        );
        Ok(assemble(
            self.settings,
            self.source.revision,
            &self.header,
            &body,
            &doc,
        ))
    }

    /// The fingerprint of the module, from the `fingerprint` of the module it re-exports.
    pub fn fingerprint(&self, fingerprint: &str) -> String {
        let (name, module) = self.same_as;
        let text = format!("re-export of {name} ({module}): {fingerprint}");
        let tokens = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(text));
        seal(self.settings, self.source, &self.header, &tokens.into())
    }
}

/// Loads a parsed schema into the IR as the generator sees it, without errata and with the
/// default settings: the dialect detected, nested definitions hoisted, an inline `RequestId`
/// named.
pub fn load_schema(schema: &serde_json::Value) -> Result<Module, SchemaError> {
    let dialect = schema::detect_dialect(schema)?;
    let mut root = schema.clone();
    load_prepared(&mut root, dialect, &Settings::default())
}

/// Reads a schema file into the IR as it is, without errata (what [`crate::diff::diff`]
/// compares).
pub fn load_schema_file(path: &Path) -> Result<Module, GenerateError> {
    let bytes = read(path)?;
    let source = Source {
        bytes: &bytes,
        revision: "",
        path,
    };
    Ok(Prepared::new(&Errata::default(), &Settings::default(), source)?.module)
}

/// The bytes of a schema file.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, GenerateError> {
    std::fs::read(path).map_err(|source| {
        GenerateError::Io(FileError {
            path: path.to_owned(),
            source,
        })
    })
}

/// A warning for each request-shaped definition that gets no result
/// ([`passes::unanswered_requests`]: the rule), naming the rule and the fix.
fn warnings(module: &Module, path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    for request in passes::unanswered_requests(module) {
        let name = &request.schema_name;
        let why = match name.strip_suffix("Request") {
            Some(stem) => format!(
                "no result was found by the naming rule (definition `{stem}Result`, or the \
                 `result` member of `{stem}ResultResponse`)"
            ),
            None => "it is not named `…Request`, so the naming rule does not take it for a \
                     request"
                .to_owned(),
        };
        warnings.push(format!(
            "{}#{}: `{name}` looks like a request (constant `method` \"{}\" and `params`) but \
             gets no `jsonrpc::Request` impl: {why}; name its result with \
             `Config::result_for(\"{name}\", \"<result definition>\")` (CLI: \
             `--result-for {name}=<result definition>`)",
            path.display(),
            request.pointer,
            request.method,
        ));
    }
    warnings
}

/// The module docs of a module of types of its own (not a re-export).
const MODULE_DOC: &str = "Every schema definition is a type here, named after it \
    (`JSONRPCRequest` is [`JsonRpcRequest`]); constant members are checked on decode and \
    written on encode; members a schema does not declare are kept in `extra`.";

/// `// @generated …`: the revision, the sha256 of its schema, the command that regenerates the
/// file (when the settings name one) and the ids of its errata.
fn header(settings: &Settings, source: Source<'_>, changes: &[(&Erratum, &Change)]) -> String {
    let sha = sha256_hex(source.bytes);
    let revision = source.revision;
    let mut header =
        format!("// @generated by mcp-codegen from {revision} (sha256 {sha}). Do not edit");
    match &settings.regenerate_with {
        Some(command) => header.push_str(&format!(": regenerate with `{command}`.")),
        None => header.push('.'),
    }
    let mut ids: Vec<&str> = Vec::new();
    for (erratum, _) in changes {
        if !ids.contains(&erratum.id.as_str()) {
            ids.push(&erratum.id);
        }
    }
    if !ids.is_empty() {
        header.push_str(&format!(
            "\n// Errata applied (schema/errata.toml): {}.",
            ids.join(", ")
        ));
    }
    header
}

/// The file: `header`, the module docs (`doc` after a line naming the revision) when the
/// settings ask for them, `body`, and the revision's `PROTOCOL_VERSION` if it is a release.
fn assemble(settings: &Settings, revision: &str, header: &str, body: &str, doc: &str) -> String {
    let doc = settings.module_file.then(|| {
        if is_release(revision) || revision == "draft" {
            format!(
                "Types of MCP protocol revision `{revision}`, generated from its official JSON schema.\n\n{doc}"
            )
        } else {
            format!("Types generated from the JSON schema `{revision}`.\n\n{doc}")
        }
    });
    let mut text = emit::assemble(header, doc.as_deref(), body);
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

/// sha256 of `bytes`, lower-case hex: the pins, the fingerprints and the generated header.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module re-exporting another's types lists the same items whether they come from the
    /// rendering (what the workspace does) or from parsing the rendered text.
    #[test]
    fn reexports_from_the_rendered_items_match_those_read_from_the_text() {
        let bytes = br##"{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {
            "Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
            "Colour": {"type": "string", "enum": ["red", "green"]},
            "Shape": {"anyOf": [{"$ref": "#/definitions/Point"}, {"type": "string"}]}}}"##;
        let settings = Settings {
            registry_feature: Some("registry".into()),
            ..Settings::default()
        };
        let errata = Errata::default();
        let source = Source {
            bytes,
            revision: "shapes",
            path: Path::new("shapes.json"),
        };
        let generated = Prepared::new(&errata, &settings, source)
            .expect("loads")
            .generate(None);
        let read = PublicItems::of_body(&generated.text).expect("parses");
        let copy = Source {
            revision: "copy",
            ..source
        };
        let same_as = ("shapes", "shapes");
        let reexport = Reexport::new(&errata, &settings, copy, same_as);
        let from_text = reexport.text(&read).expect("from the text");
        let from_items = reexport.text(&generated.items).expect("from the items");
        assert_eq!(from_items, from_text);
        assert!(
            from_items.contains(
                "\npub use crate::shapes::{Colour, Point, Shape};\n#[cfg(feature = \"registry\")]\n\
                 pub use crate::shapes::{__roundtrip, __validate};\n"
            ),
            "{from_items}"
        );
    }
}
