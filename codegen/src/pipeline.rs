//! One schema to one Rust file, in five steps: prepare (parse the JSON, detect its dialect,
//! apply the revision's errata, hoist nested definitions, name an inline `RequestId`) → load
//! (the IR, passes included) → annotate the errata → emit → assemble (header and module docs). [`Config`] and the
//! workspace both generate through [`generate`].

use std::path::Path;

use crate::config::{Config, GenerateError};
use crate::emit::{self, EmitOptions, PublicItems};
use crate::ir::{passes, Module};
use crate::schema::errata::{self, Change, Erratum};
use crate::schema::{self, SchemaError};

/// A schema to generate from: its bytes, the name of its revision, and the path that names it
/// in errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub bytes: &'a [u8],
    pub revision: &'a str,
    pub path: &'a Path,
}

/// What [`generate`] gives.
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
    /// The generation's [`fingerprint`].
    pub fingerprint: String,
}

/// The whole pipeline: the module's file for `source`, and the file of its borrowed family when
/// `borrowed_path` names it (see [`EmitOptions::borrowed_path`]).
pub(crate) fn generate(
    config: &Config,
    source: Source<'_>,
    borrowed_path: Option<String>,
) -> Result<Generated, GenerateError> {
    let changes = config.errata.for_revision(source.revision);
    let (root, module) = load_with_changes(config, source, &changes)?;
    let options = emit_options(config, borrowed_path)?;
    let emitted = emit::emit_with_items(&module, &root, &options);
    let header = header(source, &changes);
    Ok(Generated {
        fingerprint: seal(config, source, &header, &emitted.digest),
        text: assemble(config, source.revision, &header, &emitted.body, MODULE_DOC),
        borrowed: (emitted.borrowed_text).map(|items| emit::assemble(&header, None, &items)),
        items: emitted.items,
        warnings: warnings(&module, source.path),
    })
}

#[cfg(feature = "tools")] // for `workspace`
/// A fingerprint of what [`generate`] would write for `source` (both files), computed without
/// printing: the digest of the emitted tokens ([`emit::token_digest`]) with the header and
/// the settings that [`assemble`] adds. The same fingerprint means the same text as long as the
/// printing is the same (prettyplease, the text passes of `emit::assemble`), which only the
/// full comparison (`tests/generated_is_fresh.rs`) checks.
pub(crate) fn fingerprint(
    config: &Config,
    source: Source<'_>,
    borrowed_path: Option<String>,
) -> Result<String, GenerateError> {
    let changes = config.errata.for_revision(source.revision);
    let (root, module) = load_with_changes(config, source, &changes)?;
    let options = emit_options(config, borrowed_path)?;
    let tokens = emit::token_digest(&module, &root, &options);
    Ok(seal(config, source, &header(source, &changes), &tokens))
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
fn seal(config: &Config, source: Source<'_>, header: &str, tokens: &[u8; 32]) -> String {
    let tokens: String = tokens.iter().map(|b| format!("{b:02x}")).collect();
    let printing = sha256_hex(PRINTING.concat().as_bytes());
    let settings = format!(
        "{}\n{printing}\n{header}\n{}\n{}\n{tokens}",
        env!("CARGO_PKG_VERSION"),
        config.module_doc,
        source.revision,
    );
    sha256_hex(settings.as_bytes())
}

#[cfg(feature = "tools")] // for `workspace`
/// The fingerprint of a module re-exporting the module of fingerprint `same_as` (see
/// [`generate_reexport`]).
pub(crate) fn reexport_fingerprint(
    config: &Config,
    source: Source<'_>,
    same_as: (&str, &str),
    fingerprint: &str,
) -> String {
    let changes = config.errata.for_revision(source.revision);
    let text = format!("re-export of {} ({}): {fingerprint}", same_as.0, same_as.1);
    seal(
        config,
        source,
        &header(source, &changes),
        &sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(text)).into(),
    )
}

#[cfg(feature = "tools")] // for `workspace`
/// The module of a revision whose schema is byte for byte that of `same_as` (its name and
/// module): every public item of that module (`items`, from [`generate`]) re-exported, so a
/// value of one revision is a value of the other.
pub(crate) fn generate_reexport(
    config: &Config,
    source: Source<'_>,
    same_as: (&str, &str),
    items: &PublicItems,
) -> Result<String, GenerateError> {
    let (name, module) = same_as;
    let body = items
        .reexports(module)
        .map_err(|e| GenerateError::Config(format!("re-exporting the items of `{module}`: {e}")))?;
    let doc = format!(
        "Its schema is byte for byte that of revision `{name}`, so its types are those of \
         module `{module}`, re-exported: a value of one revision is a value of the other, \
         and enabling both compiles the types once."
    );
    let changes = config.errata.for_revision(source.revision);
    let header = header(source, &changes);
    Ok(assemble(config, source.revision, &header, &body, &doc))
}

/// Prepare and load only: the schema with its revision's errata applied, and its IR.
pub(crate) fn load(
    config: &Config,
    source: Source<'_>,
) -> Result<(serde_json::Value, Module), GenerateError> {
    let changes = config.errata.for_revision(source.revision);
    load_with_changes(config, source, &changes)
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
    Ok(load(&Config::new(), source)?.1)
}

/// The bytes of a schema file.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, GenerateError> {
    std::fs::read(path).map_err(|source| GenerateError::Io {
        path: path.to_owned(),
        source,
    })
}

/// Prepare → load → annotate the errata.
fn load_with_changes(
    config: &Config,
    source: Source<'_>,
    changes: &[(&Erratum, &Change)],
) -> Result<(serde_json::Value, Module), GenerateError> {
    let schema_err = |error: SchemaError| GenerateError::Schema {
        path: source.path.to_owned(),
        source: error,
    };
    let mut root = serde_json::from_slice(source.bytes).map_err(|error| GenerateError::Json {
        path: source.path.to_owned(),
        source: error,
    })?;
    let dialect = schema::detect_dialect(&root).map_err(schema_err)?;
    errata::apply(&mut root, dialect, changes).map_err(schema_err)?;
    schema::hoist_nested_definitions(&mut root).map_err(schema_err)?;
    schema::supply_request_id(&mut root);
    // The generated code follows the schema's keys sorted by name, whatever order the file has
    // them in and whether or not serde_json's `preserve_order` is on in the build (an rmcp
    // adapter's default feature turns it on for every crate beside it).
    root.sort_all_objects();
    let options = schema::LoadOptions {
        constraint_docs: config.constraint_docs,
        results: config.results.clone(),
        message_enums: config.message_enums.clone(),
    };
    let mut module = schema::load_with(&root, dialect, &options).map_err(schema_err)?;
    errata::annotate(&mut module, dialect, changes);
    Ok((root, module))
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

/// The emitter's options from the settings; a `types_crate` that is not a Rust path is refused.
fn emit_options(
    config: &Config,
    borrowed_path: Option<String>,
) -> Result<EmitOptions, GenerateError> {
    let types_crate = match &config.types_crate {
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
    Ok(EmitOptions {
        registry_feature: config.registry_feature.clone(),
        schemars_feature: config.schemars_feature.clone(),
        types_crate,
        module_file: config.module_doc,
        borrowed: config.borrowed.clone(),
        borrowed_path,
    })
}

/// The module docs of a module of types of its own (not a re-export).
const MODULE_DOC: &str = "Every schema definition is a type here, named after it \
    (`JSONRPCRequest` is [`JsonRpcRequest`]); constant members are checked on decode and \
    written on encode; members a schema does not declare are kept in `extra`.";

/// `// @generated …`: the revision, the sha256 of its schema, and the ids of its errata.
fn header(source: Source<'_>, changes: &[(&Erratum, &Change)]) -> String {
    let sha = sha256_hex(source.bytes);
    let revision = source.revision;
    let mut header =
        format!("// @generated by mcp-codegen from {revision} (sha256 {sha}). Do not edit.");
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
fn assemble(config: &Config, revision: &str, header: &str, body: &str, doc: &str) -> String {
    let doc = config.module_doc.then(|| {
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
        let mut config = Config::new();
        config.registry_feature("registry");
        let source = Source {
            bytes,
            revision: "shapes",
            path: Path::new("shapes.json"),
        };
        let generated = generate(&config, source, None).expect("renders");
        let read = PublicItems::of_body(&generated.text).expect("parses");
        let copy = Source {
            revision: "copy",
            ..source
        };
        let same_as = ("shapes", "shapes");
        let from_text = generate_reexport(&config, copy, same_as, &read).expect("from the text");
        let from_items =
            generate_reexport(&config, copy, same_as, &generated.items).expect("from the items");
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
