//! IR → Rust source: `quote!` token streams, printed with `prettyplease`.
//!
//! The serde impls are written out rather than derived: constant members are checked and
//! written without being stored, undeclared members are kept, and unions dispatch on the kind
//! of JSON value and on their tag member instead of trying each variant in turn. The shared
//! logic lives in `mcp_typed::__private`, so each type emits only its own member list.
//!
//! The parts, one per strategy, like serde_derive's `de/` and `ser/`:
//! - `scope`: what every part shares: the `Scope` items are emitted into (the family, and
//!   how prelude names are spelled where the schema shadows them), `ident`, `type_tokens`;
//! - `structs`, `string_enum`, `union` (with a file per dispatch strategy: `scalars`,
//!   `tagged`, `keyed`), `messages` (call sets, envelopes, request ↔ result pairing);
//! - `borrowed`: the borrowed family (`…Ref<'de>`), built from the same parts;
//! - `validate`: `mcp_typed::validate::Validate` for every owned type and envelope, checking
//!   the schema's constraint keywords, where `constraints` says they apply;
//! - `check`: the verdict path behind a feature (whether a value decodes and validates, read
//!   without building it), mirroring `structs` member by member;
//! - `json_schema` and `registry`: the `schemars` impls and the test hooks behind features;
//! - `docs`: schema text → rustdoc; `assemble`: the file around a body.
//!
//! This file drives the emission: `emit_type` hands each type to the part for its kind. The
//! parts use `scope`, `docs` and `constraints`, never each other (the borrowed family calls them
//! all).

mod assemble;
mod borrowed;
mod check;
mod constraints;
mod constructors;
mod docs;
mod json_schema;
mod messages;
mod registry;
mod scope;
mod string_enum;
mod structs;
mod union;
mod validate;

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use self::assemble::escape_text_direction;
pub use self::assemble::{assemble, PublicItems};
use self::docs::doc_attrs;
pub(crate) use self::scope::{ident, resolve_alias, type_tokens, Scope};
use crate::ir::{Module, TypeDef, TypeKind};
use crate::settings::{Borrowed, Settings};

/// What [`emit`] renders.
#[derive(Debug, Default)]
pub struct Emitted {
    /// The file body, without header.
    pub body: String,
    /// The public items of the body, read off the syntax trees the printing parses anyway
    /// (what a module re-exporting this body lists, without parsing the text again).
    pub items: PublicItems,
    /// The items of the borrowed module, when `borrowed_path` of [`emit`] puts them in a
    /// file of their own (without header).
    pub borrowed_text: Option<String>,
    /// The digest of the tokens printed (what [`token_digest`] computes without printing).
    pub digest: [u8; 32],
}

/// Renders a module's items to formatted Rust source (the file body, without header), with
/// the public items of the body and the borrowed module's own file, if any. `source` is the
/// schema the module was loaded from (the JSON Schema impls copy parts of it). With
/// `borrowed_path` and the borrowed family on, the family goes to a file of its own, declared
/// `#[path = "<borrowed_path>"] pub mod borrowed;` so that a build without its feature does not
/// even parse it (rustc reads the path relative to the folder of the generated file, which must
/// be a module file, [`Settings::module_file`]); `None`: inline, `pub mod borrowed { … }`
/// (what an `include!`d file needs).
pub(crate) fn emit(
    module: &Module,
    source: &Value,
    settings: &Settings,
    borrowed_path: Option<&str>,
) -> Emitted {
    let scope = Scope::for_module(module);
    // Parsed and printed a piece at a time (prettyplease prints a file's items one after the
    // other, so the text is the same): the tokens, syntax tree and text of one type are freed
    // before the next is built, where one file-sized tree made the heap grow by its whole size
    // (most of the generator's time went to faulting in fresh pages).
    let pieces = match body_pieces(module, source, settings, &scope) {
        Ok(pieces) => pieces,
        Err(e) => return Emitted::failed(e),
    };
    let mut digest = TokenDigest::new(settings, borrowed_path);
    let mut text = String::new();
    let mut public = PublicItems::default();
    for piece in pieces {
        digest.add(&piece);
        // The token streams above are built by this crate; a parse failure is a generator bug,
        // reported where the generated code is compiled.
        let syntax = match syn::parse2::<syn::File>(piece) {
            Ok(syntax) => syntax,
            Err(e) => return Emitted::failed(e),
        };
        if let Err(e) = public.collect(&syntax.items) {
            return Emitted::failed(e);
        }
        text.push_str(&prettyplease::unparse(&syntax));
    }
    let mut borrowed_text = None;
    if settings.borrowed != Borrowed::No {
        match borrowed::borrowed_module(module, &scope, settings, borrowed_path, &mut digest) {
            Ok(borrowed) => {
                public.add(&borrowed.cfg, "borrowed");
                text.push_str(&borrowed.declaration);
                borrowed_text = borrowed.file.map(|file| escape_text_direction(&file));
            }
            Err(e) => return Emitted::failed(e),
        }
    }
    Emitted {
        body: escape_text_direction(&text),
        items: public,
        borrowed_text,
        digest: digest.finish(),
    }
}

/// The token streams of the body, one per type and per layer, in the order they are printed.
fn body_pieces<'a>(
    module: &'a Module,
    source: &'a Value,
    settings: &'a Settings,
    scope: &'a Scope,
) -> Result<impl Iterator<Item = TokenStream> + 'a, String> {
    let registry = settings.registry_feature.as_deref().map(|feature| {
        let schemars = settings.schemars_feature.as_deref();
        registry::registry(
            module,
            feature,
            schemars,
            settings.verdict_feature.as_deref(),
        )
    });
    let checks = (settings.verdict_feature.as_deref())
        .map(|feature| check::emit_checks(module, scope, feature));
    let json_schemas = settings
        .schemars_feature
        .as_deref()
        .map(|feature| json_schema::emit_json_schemas(module, source, feature));
    let message_layer = match &module.messages {
        Some(m) => messages::emit_messages(module, scope, m),
        None => messages::emit_extension_requests(scope, &module.extension_requests),
    };
    // Every other mention of the types crate goes through this `__rt` (its macros use `$crate`).
    let types_crate = settings.types_crate_path()?;
    // The unions mirror the schema's; boxing their large members would cost an allocation on
    // every decode.
    let allowances = settings
        .module_file
        .then(|| quote!(#![allow(clippy::large_enum_variant)]));
    let head = quote! {
        #allowances

        #[allow(unused_imports)]
        use #types_crate::__private as __rt;
    };
    let types = module.types.iter().map(|t| emit_type(scope, t, module));
    let validation = validate::emit_validation(module, scope);
    Ok(std::iter::once(head)
        .chain(types)
        .chain([message_layer, validation])
        .chain(checks)
        .chain(json_schemas)
        .chain(registry))
}

/// A digest of everything [`emit`] prints from, without printing: the settings and every
/// piece's tokens, the borrowed family's included. Equal digests give equal text (for the same
/// printer), which is what lets `generate --check` skip printing a file it fingerprinted before
/// (see `crate::workspace`).
#[cfg(feature = "tools")] // for `workspace`
pub(crate) fn token_digest(
    module: &Module,
    source: &Value,
    settings: &Settings,
    borrowed_path: Option<&str>,
) -> Result<[u8; 32], String> {
    let scope = Scope::for_module(module);
    let mut digest = TokenDigest::new(settings, borrowed_path);
    body_pieces(module, source, settings, &scope)?.for_each(|piece| digest.add(&piece));
    if settings.borrowed != Borrowed::No {
        let borrowed = scope.borrowed(module);
        borrowed::borrowed_pieces(module, &borrowed, settings).for_each(|piece| digest.add(&piece));
    }
    Ok(digest.finish())
}

/// The sha256 of the settings and of the text of each token stream, streamed into the hash
/// (never held whole).
pub(crate) struct TokenDigest(sha2::Sha256);

impl TokenDigest {
    fn new(settings: &Settings, borrowed_path: Option<&str>) -> Self {
        use sha2::Digest as _;
        let mut digest = TokenDigest(sha2::Sha256::new());
        digest.write(format_args!("{settings:?}\n{borrowed_path:?}\n"));
        digest
    }

    pub(crate) fn add(&mut self, piece: &TokenStream) {
        self.write(format_args!("{piece}\n"));
    }

    fn write(&mut self, text: std::fmt::Arguments<'_>) {
        // Writing into a hash cannot fail.
        let _ = std::fmt::Write::write_fmt(self, text);
    }

    fn finish(self) -> [u8; 32] {
        sha2::Digest::finalize(self.0).into()
    }
}

impl std::fmt::Write for TokenDigest {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        sha2::Digest::update(&mut self.0, text.as_bytes());
        Ok(())
    }
}

impl Emitted {
    /// A generator bug (or a `types_crate` the caller did not check), reported where the
    /// generated code is compiled.
    fn failed(e: impl std::fmt::Display) -> Self {
        let message = format!("mcp-codegen produced invalid Rust: {e}");
        Emitted {
            body: format!("compile_error!({message:?});\n"),
            ..Emitted::default()
        }
    }
}

/// One named type → its Rust definition and serde impls: the doc comment, then the items of
/// its kind (`types` for structs, string enums and unions, `messages` for call sets).
pub(super) fn emit_type(scope: &Scope, t: &TypeDef, module: &Module) -> TokenStream {
    if scope.is_borrowed() {
        return borrowed::emit_borrowed_type(scope, t, module);
    }
    let fallback = match &t.schema_name {
        Some(schema_name) => format!("The `{schema_name}` definition of the schema."),
        None => format!("Inline schema at `{}`.", t.pointer),
    };
    let mut doc = t.doc.clone().unwrap_or(fallback);
    for note in &t.errata {
        doc.push_str("\n\n");
        doc.push_str(note);
    }
    let doc = doc_attrs(Some(&doc));
    let alias = match &t.schema_name {
        Some(schema_name) if *schema_name != t.name => quote!(#[doc(alias = #schema_name)]),
        _ => TokenStream::new(),
    };
    let head = quote!(#doc #alias);
    match &t.kind {
        TypeKind::Struct(s) => structs::emit_struct(scope, &t.name, head, s, module),
        TypeKind::StringEnum(values) => string_enum::emit_string_enum(scope, &t.name, head, values),
        TypeKind::Union(u) => {
            let union = union::emit_union(scope, &t.name, head, u);
            let constructors = constructors::union_constructors(scope, &t.name, u, module);
            quote!(#union #constructors)
        }
        TypeKind::Calls(set) => {
            let calls = messages::emit_calls(scope, module, &t.name, head, set);
            let constructors = constructors::call_constructors(scope, &t.name, set);
            quote!(#calls #constructors)
        }
        TypeKind::Alias(ty) => {
            let name = ident(&t.name);
            let ty = type_tokens(scope, ty);
            quote!(#head pub type #name = #ty;)
        }
    }
}
