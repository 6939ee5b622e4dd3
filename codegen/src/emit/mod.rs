//! IR → Rust source: `quote!` token streams, printed with `prettyplease`.
//!
//! The serde impls are written out rather than derived: constant members are checked and
//! written without being stored, undeclared members are kept, and unions dispatch on the kind
//! of JSON value and on their tag member instead of trying each variant in turn. The shared
//! logic lives in `mcp_typed::__private`, so each type emits only its own member list.
//!
//! This file drives the emission (`emit_type` hands each type to the part for its kind) and
//! holds what the parts share (`Std`, `ident`, `type_tokens`, `resolve_alias`): `types`,
//! `messages` and `json_schema` use it and `docs`, never each other.

mod docs;
mod json_schema;
mod messages;
mod types;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use serde_json::Value;

use self::docs::doc_attrs;
use crate::ir::{Module, TypeDef, TypeExpr, TypeKind};

/// What the emitted body carries besides the types.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Emit `__roundtrip(name, json)` behind `#[cfg(feature = "<this>")]`, used by the tests to
    /// decode an instance as the definition a string names.
    pub registry_feature: Option<String>,
    /// Implement `schemars::JsonSchema` for every type behind `#[cfg(feature = "<this>")]`
    /// (with `mcp-typed`'s feature `schemars` enabled).
    pub schemars_feature: Option<String>,
    /// The path by which the generated code names the `mcp-typed` crate (`None`:
    /// `::mcp_typed`), for a crate that reaches it through a re-export or a renamed dependency.
    /// Tokens of a `syn::Path`, checked by the caller.
    pub types_crate: Option<TokenStream>,
    /// The file is a module of its own (`#[path] mod`), which may carry inner attributes; an
    /// `include!`d file may not, so its lint allowances are left to the including module.
    pub module_file: bool,
    /// Whether to emit the borrowed family (`mod borrowed`: `ClientMessageRef<'de>`, …).
    pub borrowed: Borrowed,
    /// With [`Self::borrowed`] on: put the borrowed family in a file of its own, declared
    /// `#[path = "<this>"] pub mod borrowed;` (its text is [`Emitted::borrowed_text`]), so that a
    /// build without its feature does not even parse it. rustc reads the path relative to the
    /// folder of the generated file, which must be a module file ([`Self::module_file`]).
    /// `None`: inline, `pub mod borrowed { … }` (what an `include!`d file needs).
    pub borrowed_path: Option<String>,
}

/// What [`emit_with_items`] renders.
#[derive(Debug, Default)]
pub struct Emitted {
    /// The file body, without header.
    pub body: String,
    /// The public items of the body, read off the syntax trees the printing parses anyway
    /// (what a module re-exporting this body lists, without parsing the text again).
    pub items: PublicItems,
    /// The items of the borrowed module, when [`EmitOptions::borrowed_path`] puts them in a
    /// file of their own (without header).
    pub borrowed_text: Option<String>,
}

/// Whether, and under which `#[cfg]`, the borrowed family is emitted: a `borrowed` submodule
/// with a `…Ref<'de>` type for every type that holds a string, a free-form object or
/// undeclared members, decoded by the same dispatch, borrowing from the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Borrowed {
    /// Not emitted.
    #[default]
    No,
    /// Emitted, always compiled.
    Always,
    /// Emitted behind `#[cfg(feature = "<this>")]` (`mcp-typed`'s own: `borrowed`).
    Feature(String),
}

/// Renders a module's items to formatted Rust source (the file body, without header). `source`
/// is the schema the module was loaded from (the JSON Schema impls copy parts of it).
pub fn emit(module: &Module, source: &Value, options: &EmitOptions) -> String {
    emit_with_items(module, source, options).body
}

/// [`emit`], with the public items of the body and the borrowed module's own file, if any.
pub fn emit_with_items(module: &Module, source: &Value, options: &EmitOptions) -> Emitted {
    let std = Std::for_module(module);
    let registry = options
        .registry_feature
        .as_deref()
        .map(|feature| registry(module, feature, options.schemars_feature.as_deref()));
    let json_schemas = options
        .schemars_feature
        .as_deref()
        .map(|feature| json_schema::emit_json_schemas(module, source, feature));
    let message_layer = match &module.messages {
        Some(m) => messages::emit_messages(module, &std, m),
        None => messages::emit_extension_requests(&std, &module.extension_requests),
    };
    // Every other mention of the types crate goes through this `__rt` (its macros use `$crate`).
    let types_crate = options
        .types_crate
        .as_ref()
        .map_or_else(|| quote!(::mcp_typed), Clone::clone);
    // The unions mirror the schema's; boxing their large members would cost an allocation on
    // every decode.
    let allowances = options
        .module_file
        .then(|| quote!(#![allow(clippy::large_enum_variant)]));
    let head = quote! {
        #allowances

        #[allow(unused_imports)]
        use #types_crate::__private as __rt;
    };
    // Parsed and printed a piece at a time (prettyplease prints a file's items one after the
    // other, so the text is the same): the tokens, syntax tree and text of one type are freed
    // before the next is built, where one file-sized tree made the heap grow by its whole size
    // (most of the generator's time went to faulting in fresh pages).
    let types = module.types.iter().map(|t| emit_type(&std, t, module));
    let pieces = std::iter::once(head)
        .chain(types)
        .chain([message_layer])
        .chain(json_schemas)
        .chain(registry);
    let mut text = String::new();
    let mut public = PublicItems::default();
    for piece in pieces {
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
    if options.borrowed != Borrowed::No {
        match borrowed_module(module, &std, options) {
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
    }
}

/// The borrowed family, as [`borrowed_module`] renders it.
struct BorrowedModule {
    /// The `#[cfg]` it is under.
    cfg: TokenStream,
    /// What the body holds: `pub mod borrowed { … }`, or `#[path = …] pub mod borrowed;`.
    declaration: String,
    /// The items of an out-of-line module (see [`EmitOptions::borrowed_path`]).
    file: Option<String>,
}

/// The borrowed family: its items built and printed one type at a time like the owned ones,
/// indented into an inline module or at the top level of a file of their own.
fn borrowed_module(
    module: &Module,
    owned: &Std,
    options: &EmitOptions,
) -> syn::Result<BorrowedModule> {
    let std = owned.borrowed(module);
    let cfg = match &options.borrowed {
        Borrowed::Feature(feature) => quote!(#[cfg(feature = #feature)]),
        _ => TokenStream::new(),
    };
    let head = quote! {
        #[allow(unused_imports)]
        use super::__rt;
    };
    let types = module.types.iter().map(|t| emit_type(&std, t, module));
    let message_layer = match &module.messages {
        Some(m) => messages::emit_messages(module, &std, m),
        None => TokenStream::new(),
    };
    let registry = options
        .registry_feature
        .as_deref()
        .map(|feature| borrowed_registry(module, &std, feature));
    let indent = if options.borrowed_path.is_some() {
        ""
    } else {
        "    "
    };
    let mut body = String::new();
    for piece in std::iter::once(head)
        .chain(types)
        .chain([message_layer])
        .chain(registry)
    {
        let syntax = syn::parse2::<syn::File>(piece)?;
        for line in prettyplease::unparse(&syntax).lines() {
            if !line.is_empty() {
                body.push_str(indent);
                body.push_str(line);
            }
            body.push('\n');
        }
    }
    let doc =
        " The borrowed family of this revision (feature `borrowed`): `ClientMessageRef<'de>`, \
               `ServerMessageRef<'de>` and every type they reach that holds a string, a free-form \
               object or undeclared members, borrowing them from the decoded text; see \
               `mcp_typed::borrowed`. Types that hold none of these are the owned ones.";
    if let Some(path) = &options.borrowed_path {
        let declaration = prettyplease::unparse(&syn::parse2::<syn::File>(
            quote!(#[doc = #doc] #cfg #[path = #path] pub mod borrowed;),
        )?);
        return Ok(BorrowedModule {
            cfg,
            declaration,
            file: Some(body),
        });
    }
    let opening = prettyplease::unparse(&syn::parse2::<syn::File>(
        quote!(#[doc = #doc] #cfg pub mod borrowed {}),
    )?);
    let opening = opening.trim_end().trim_end_matches('}');
    Ok(BorrowedModule {
        declaration: format!("{opening}\n{body}}}\n"),
        cfg,
        file: None,
    })
}

/// `__equivalent(definition, json)`: the borrowed decode of `json` as the definition, made
/// owned, against the owned decode (for the tests).
fn borrowed_registry(module: &Module, std: &Std, feature: &str) -> TokenStream {
    let arms = module
        .types
        .iter()
        .filter(|t| !matches!(t.kind, TypeKind::Calls(_)))
        .filter_map(|t| {
            let schema_name = t.schema_name.as_deref()?;
            let owned = ident(&t.name);
            let borrowed = std.named(&t.name);
            Some(quote!(#schema_name => equivalent::<#borrowed, super::#owned>(json),))
        });
    quote! {
        /// Decodes `json` as the definition named `definition` (schema spelling) both ways: the
        /// error, or that the borrowed decode differs from the owned one (made owned, or
        /// encoded); `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __equivalent<'de>(
            definition: &str,
            json: &'de str,
        ) -> ::core::option::Option<::core::result::Result<(), ::std::string::String>> {
            fn equivalent<'de, B, O>(json: &'de str) -> ::core::result::Result<(), ::std::string::String>
            where
                B: __rt::serde::Deserialize<'de> + __rt::serde::Serialize + __rt::IntoOwned<Owned = O>,
                O: __rt::serde::de::DeserializeOwned + __rt::serde::Serialize + ::core::cmp::PartialEq + ::core::fmt::Debug,
            {
                let owned = __rt::serde_json::from_str::<O>(json);
                let borrowed = __rt::serde_json::from_str::<B>(json);
                match (owned, borrowed) {
                    (::core::result::Result::Ok(owned), ::core::result::Result::Ok(borrowed)) => {
                        let text = __rt::serde_json::to_string(&borrowed).map_err(|e| e.to_string())?;
                        let owned_text = __rt::serde_json::to_string(&owned).map_err(|e| e.to_string())?;
                        if text != owned_text {
                            return ::core::result::Result::Err(::std::format!("encodes as {text}, the owned as {owned_text}"));
                        }
                        let made_owned = borrowed.into_owned();
                        if made_owned != owned {
                            return ::core::result::Result::Err(::std::format!("made owned: {made_owned:?}, owned: {owned:?}"));
                        }
                        ::core::result::Result::Ok(())
                    }
                    (::core::result::Result::Err(owned), ::core::result::Result::Err(borrowed)) => {
                        if owned.to_string() == borrowed.to_string() {
                            ::core::result::Result::Ok(())
                        } else {
                            ::core::result::Result::Err(::std::format!("refused with `{borrowed}`, the owned with `{owned}`"))
                        }
                    }
                    (::core::result::Result::Ok(_), ::core::result::Result::Err(e)) => ::core::result::Result::Err(::std::format!("the borrowed refused: {e}")),
                    (::core::result::Result::Err(e), ::core::result::Result::Ok(_)) => ::core::result::Result::Err(::std::format!("the owned refused: {e}")),
                }
            }
            ::core::option::Option::Some(match definition {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
    }
}

impl Emitted {
    /// A generator bug, reported where the generated code is compiled.
    fn failed(e: syn::Error) -> Self {
        let message = format!("mcp-codegen produced invalid Rust: {e}");
        Emitted {
            body: format!("compile_error!({message:?});\n"),
            ..Emitted::default()
        }
    }
}

/// The body of a module whose schema is byte for byte another revision's: a `pub use` of every
/// public item of that revision's rendered `body` from `crate::<module>`, under the `#[cfg]` the
/// item is defined under.
pub fn reexports(body: &str, module: &str) -> syn::Result<String> {
    PublicItems::of_body(body)?.reexports(module)
}

/// The public items of a rendered body, grouped by the `#[cfg]`s they are defined under, in the
/// order first seen. Text only, so that bodies rendered on other threads can bring it back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublicItems {
    /// (the `#[cfg]` attributes as written, the names of the items under them)
    groups: Vec<(String, Vec<String>)>,
}

impl PublicItems {
    /// The public items of a rendered body, read from its text.
    pub fn of_body(body: &str) -> syn::Result<Self> {
        let mut public = Self::default();
        public.collect(&syn::parse_file(body)?.items)?;
        Ok(public)
    }

    /// Adds the public items among `items`; an item of a kind it cannot list is an error, as
    /// it could be public API a re-export would silently leave out.
    fn collect(&mut self, items: &[syn::Item]) -> syn::Result<()> {
        for item in items {
            let Some((name, attrs)) = public_item(item)? else {
                continue;
            };
            let cfgs = attrs.iter().filter(|a| a.path().is_ident("cfg"));
            let key = quote!(#(#cfgs)*).to_string();
            let name = name.to_string();
            match self.groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, names)) => names.push(name),
                None => self.groups.push((key, vec![name])),
            }
        }
        Ok(())
    }

    /// Adds the public item `name`, defined under `cfg` (`#[cfg(…)]` attributes).
    fn add(&mut self, cfg: &TokenStream, name: &str) {
        let key = cfg.to_string();
        match self.groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, names)) => names.push(name.to_owned()),
            None => self.groups.push((key, vec![name.to_owned()])),
        }
    }

    /// A `pub use` of every item from `crate::<module>`, under its `#[cfg]`s.
    pub fn reexports(&self, module: &str) -> syn::Result<String> {
        let module = ident(module);
        let mut uses = TokenStream::new();
        for (cfgs, names) in &self.groups {
            let cfgs: TokenStream = cfgs.parse()?;
            let names = names.iter().map(|name| ident(name));
            uses.extend(quote!(#cfgs pub use crate::#module::{#(#names),*};));
        }
        Ok(prettyplease::unparse(&syn::parse2::<syn::File>(uses)?))
    }
}

/// The name and attributes of `item` when it is public and a re-export can name it.
fn public_item(item: &syn::Item) -> syn::Result<Option<(&Ident, &[syn::Attribute])>> {
    let (vis, name, attrs) = match item {
        syn::Item::Struct(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Enum(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Type(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Const(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Static(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Fn(i) => (&i.vis, &i.sig.ident, &i.attrs),
        syn::Item::Mod(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Trait(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Union(i) => (&i.vis, &i.ident, &i.attrs),
        // Impls come with their types; private imports and macros stay inside.
        syn::Item::Impl(_) => return Ok(None),
        syn::Item::Use(i) if !matches!(i.vis, syn::Visibility::Public(_)) => return Ok(None),
        syn::Item::Macro(i) if !i.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
            return Ok(None)
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "an item the re-exporting module does not know how to re-export",
            ))
        }
    };
    Ok(matches!(vis, syn::Visibility::Public(_)).then_some((name, &attrs[..])))
}

/// Writes the Unicode text-direction controls (U+202A–U+202E, U+2066–U+2069) that schema text
/// brings into doc comments as `\u{…}`: rustc refuses them in comments (the deny-by-default
/// `text_direction_codepoint_in_comment`). Literals already escape them and identifiers cannot
/// hold them, so every one left in the printed file is in a comment.
fn escape_text_direction(source: &str) -> String {
    let is_control = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if !source.contains(is_control) {
        return source.to_owned();
    }
    let mut out = String::with_capacity(source.len() + 64);
    for c in source.chars() {
        if is_control(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A complete file: the `// @generated` header line, the module's `//!` docs, then the body.
pub fn assemble(header: &str, module_doc: Option<&str>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 512);
    out.push_str(header);
    out.push('\n');
    for line in module_doc.map(docs::sanitize).unwrap_or_default() {
        out.push_str("//!");
        if !line.is_empty() {
            out.push(' ');
            out.push_str(&line);
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(body);
    out
}

fn registry(module: &Module, feature: &str, schemars_feature: Option<&str>) -> TokenStream {
    let definitions: Vec<(&str, Ident)> = module
        .types
        .iter()
        .filter(|t| !matches!(t.kind, crate::ir::TypeKind::Calls(_)))
        .filter_map(|t| Some((t.schema_name.as_deref()?, ident(&t.name))))
        .collect();
    let arms = definitions
        .iter()
        .map(|(schema_name, ty)| quote!(#schema_name => roundtrip::<#ty>(json),));
    let json_schema = schemars_feature.map(|schemars_feature| {
        let arms = definitions
            .iter()
            .map(|(schema_name, ty)| quote!(#schema_name => __rt::schemars::schema_for!(#ty),));
        quote! {
            /// The JSON Schema (`schemars::schema_for!`) of the type generated for the definition
            /// named `definition` (schema spelling); `None` for an unknown name. For tests.
            #[doc(hidden)]
            #[cfg(all(feature = #feature, feature = #schemars_feature))]
            pub fn __json_schema(definition: &str) -> ::core::option::Option<__rt::schemars::Schema> {
                ::core::option::Option::Some(match definition {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    });
    quote! {
        /// Decodes `json` as the definition named `definition` (schema spelling) and encodes it
        /// again; `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __roundtrip(
            definition: &str,
            json: &str,
        ) -> ::core::option::Option<::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error>> {
            fn roundtrip<T: __rt::serde::Serialize + __rt::serde::de::DeserializeOwned>(
                json: &str,
            ) -> ::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error> {
                let value: T = __rt::serde_json::from_str(json)?;
                __rt::serde_json::to_value(&value)
            }
            ::core::option::Option::Some(match definition {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
        #json_schema
    }
}

/// Paths of the standard items the generated code uses: the short prelude name, or the full path
/// where the schema defines a type of the same name (every MCP schema defines `Result`).
#[derive(Clone)]
pub(crate) struct Std {
    /// Which family of types is emitted.
    pub family: Family,
    pub option: TokenStream,
    pub some: TokenStream,
    pub none: TokenStream,
    pub result: TokenStream,
    pub ok: TokenStream,
    pub err: TokenStream,
    pub string: TokenStream,
    pub vec: TokenStream,
    pub boxed: TokenStream,
    pub default_value: TokenStream,
}

impl Std {
    fn for_module(module: &Module) -> Self {
        let defined = |name: &str| module.get(name).is_some();
        let pick = |short: &str, full: TokenStream| -> TokenStream {
            if defined(short) {
                full
            } else {
                let short = ident(short);
                quote!(#short)
            }
        };
        let option = pick("Option", quote!(::core::option::Option));
        let result = pick("Result", quote!(::core::result::Result));
        let (some, none) = if defined("Option") || defined("Some") || defined("None") {
            (
                quote!(::core::option::Option::Some),
                quote!(::core::option::Option::None),
            )
        } else {
            (quote!(Some), quote!(None))
        };
        let (ok, err) = if defined("Result") || defined("Ok") || defined("Err") {
            (
                quote!(::core::result::Result::Ok),
                quote!(::core::result::Result::Err),
            )
        } else {
            (quote!(Ok), quote!(Err))
        };
        let default_value = if defined("Default") {
            quote!(::core::default::Default::default())
        } else {
            quote!(Default::default())
        };
        Std {
            family: Family::Owned,
            option,
            some,
            none,
            result,
            ok,
            err,
            string: pick("String", quote!(::std::string::String)),
            vec: pick("Vec", quote!(::std::vec::Vec)),
            boxed: pick("Box", quote!(::std::boxed::Box)),
            default_value,
        }
    }
}

/// The family of types being emitted: the owned types, or the borrowed family (`mod borrowed`).
#[derive(Clone)]
pub(crate) enum Family {
    Owned,
    Borrowed(std::rc::Rc<Borrowing>),
}

/// What the borrowed family needs to know of the module's types.
pub(crate) struct Borrowing {
    /// The types that hold a string, a free-form object or undeclared members, at any depth:
    /// each has a `…Ref<'de>` form; every other type is used as it is.
    borrows: std::collections::BTreeSet<String>,
    /// The aliases (the borrowed family names their targets).
    aliases: std::collections::BTreeMap<String, TypeExpr>,
}

impl Borrowing {
    fn of(module: &Module) -> Self {
        let aliases = module
            .types
            .iter()
            .filter_map(|t| match &t.kind {
                TypeKind::Alias(target) => Some((t.name.clone(), target.clone())),
                _ => None,
            })
            .collect();
        let mut this = Borrowing {
            borrows: Default::default(),
            aliases,
        };
        // A fixed point: a type borrows once any of its parts does (cycles settle as the set
        // only grows).
        loop {
            let mut grew = false;
            for t in &module.types {
                if this.borrows.contains(&t.name) {
                    continue;
                }
                let borrows = match &t.kind {
                    TypeKind::Struct(s) => {
                        s.additional != crate::ir::Additional::Forbidden
                            || s.fields.iter().any(|f| this.expr_borrows(&f.ty))
                    }
                    TypeKind::Union(u) => u.variants.iter().any(|v| this.expr_borrows(&v.ty)),
                    TypeKind::Calls(set) => set
                        .calls
                        .iter()
                        .any(|c| c.params.as_ref().is_some_and(|p| this.expr_borrows(p))),
                    TypeKind::StringEnum(_) | TypeKind::Alias(_) => false,
                };
                if borrows {
                    this.borrows.insert(t.name.clone());
                    grew = true;
                }
            }
            if !grew {
                return this;
            }
        }
    }

    fn expr_borrows(&self, ty: &TypeExpr) -> bool {
        match ty {
            TypeExpr::String | TypeExpr::Any | TypeExpr::Map(_) => true,
            TypeExpr::Integer | TypeExpr::Number | TypeExpr::Boolean => false,
            TypeExpr::Array(inner) | TypeExpr::Nullable(inner) => self.expr_borrows(inner),
            TypeExpr::Named(name) => match self.aliases.get(name) {
                Some(target) => self.expr_borrows(target),
                None => self.borrows.contains(name),
            },
        }
    }
}

impl Std {
    /// The same paths, for the borrowed family of `module`.
    fn borrowed(&self, module: &Module) -> Std {
        Std {
            family: Family::Borrowed(std::rc::Rc::new(Borrowing::of(module))),
            ..self.clone()
        }
    }

    /// Whether this is the borrowed family.
    pub fn is_borrowed(&self) -> bool {
        matches!(self.family, Family::Borrowed(_))
    }

    /// Whether the type named `name` has a borrowed form (always, for the owned family).
    pub fn has_form(&self, name: &str) -> bool {
        match &self.family {
            Family::Owned => true,
            Family::Borrowed(b) => b.borrows.contains(name),
        }
    }

    /// The type named `name` where the family uses it: `X`; in the borrowed family `XRef<'de>`,
    /// or the owned `super::X` for a type that borrows nothing.
    pub fn named(&self, name: &str) -> TokenStream {
        match &self.family {
            Family::Owned => {
                let name = ident(name);
                quote!(#name)
            }
            Family::Borrowed(b) => match b.aliases.get(name) {
                Some(target) => type_tokens(self, target),
                None if b.borrows.contains(name) => {
                    let name = quote::format_ident!("{}Ref", name.trim_start_matches("r#"));
                    quote!(#name<'de>)
                }
                None => self.owned(name),
            },
        }
    }

    /// The owned type named `name`, from where the family's items are.
    pub fn owned(&self, name: &str) -> TokenStream {
        let name = ident(name);
        match self.family {
            Family::Owned => quote!(#name),
            Family::Borrowed(_) => quote!(super::#name),
        }
    }

    /// A type the family defines, as (the type, its path in expressions and patterns, the
    /// generics of its impls): `(X, X, )`, or `(XRef<'de>, XRef, <'de>)`.
    pub fn defined(&self, name: &str) -> (TokenStream, TokenStream, TokenStream) {
        match self.family {
            Family::Owned => {
                let name = ident(name);
                (quote!(#name), quote!(#name), TokenStream::new())
            }
            Family::Borrowed(_) => {
                let name = quote::format_ident!("{}Ref", name.trim_start_matches("r#"));
                (quote!(#name<'de>), quote!(#name), quote!(<'de>))
            }
        }
    }
}

/// An identifier; `r#type` style names become raw identifiers. `Self` cannot be an identifier,
/// not even a raw one, yet a definition or a value named `Self`/`self` becomes it: it is
/// written `Self_`, which naming never produces (it drops underscores from type and variant
/// names), so it cannot collide.
pub(crate) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None if name == "Self" => Ident::new("Self_", Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// One named type → its Rust definition and serde impls: the doc comment, then the items of
/// its kind (`types` for structs, string enums and unions, `messages` for call sets).
fn emit_type(std: &Std, t: &TypeDef, module: &Module) -> TokenStream {
    if std.is_borrowed() {
        return emit_borrowed_type(std, t, module);
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
        TypeKind::Struct(s) => types::emit_struct(std, &t.name, head, s, module),
        TypeKind::StringEnum(values) => types::emit_string_enum(std, &t.name, head, values),
        TypeKind::Union(u) => {
            let union = types::emit_union(std, &t.name, head, u);
            let conversions = request_id_conversions(std, t, u, module);
            quote!(#union #conversions)
        }
        TypeKind::Calls(set) => messages::emit_calls(std, &t.name, head, set),
        TypeKind::Alias(ty) => {
            let name = ident(&t.name);
            let ty = type_tokens(std, ty);
            quote!(#head pub type #name = #ty;)
        }
    }
}

/// One named type → its borrowed form, with its conversion into the owned type; a type that
/// borrows nothing converts into itself, and an alias is left out (its uses name the target).
fn emit_borrowed_type(std: &Std, t: &TypeDef, module: &Module) -> TokenStream {
    if matches!(t.kind, TypeKind::Alias(_)) {
        return TokenStream::new();
    }
    let owned = std.owned(&t.name);
    if !std.has_form(&t.name) {
        return quote! {
            impl __rt::IntoOwned for #owned {
                type Owned = Self;
                fn into_owned(self) -> Self {
                    self
                }
            }
        };
    }
    let doc = format!(
        " [`{0}`](super::{0}), borrowing from the decoded text.",
        t.name
    );
    let head = quote!(#[doc = #doc]);
    let (definition, conversion) = match &t.kind {
        TypeKind::Struct(s) => (
            types::emit_struct(std, &t.name, head, s, module),
            types::struct_into_owned(std, &t.name, s),
        ),
        TypeKind::Union(u) => {
            let union = types::emit_union(std, &t.name, head, u);
            let conversions = request_id_conversions(std, t, u, module);
            (
                quote!(#union #conversions),
                types::union_into_owned(std, &t.name, u),
            )
        }
        TypeKind::Calls(set) => (
            messages::emit_calls(std, &t.name, head, set),
            messages::calls_into_owned(std, &t.name, set),
        ),
        TypeKind::StringEnum(_) | TypeKind::Alias(_) => unreachable!("borrow nothing"),
    };
    let into_owned = into_owned_impl(std, &t.name, conversion);
    quote!(#definition #into_owned)
}

/// The request id is built from a number or a text, `7.into()`, `"abc".into()`, in both
/// families.
fn request_id_conversions(
    std: &Std,
    t: &TypeDef,
    u: &crate::ir::Union,
    module: &Module,
) -> TokenStream {
    let is_request_id = module
        .messages
        .as_ref()
        .is_some_and(|m| matches!(&m.id, TypeExpr::Named(id) if *id == t.name));
    if is_request_id {
        types::emit_scalar_conversions(std, &t.name, u)
    } else {
        TokenStream::new()
    }
}

/// `IntoOwned` and `From` from the borrowed form of the type `name` into the owned one; `body`
/// converts `self`.
fn into_owned_impl(std: &Std, name: &str, body: TokenStream) -> TokenStream {
    let (ty, _, generics) = std.defined(name);
    let owned = std.owned(name);
    quote! {
        impl #generics __rt::IntoOwned for #ty {
            type Owned = #owned;
            fn into_owned(self) -> #owned {
                #body
            }
        }

        impl #generics ::core::convert::From<#ty> for #owned {
            fn from(value: #ty) -> Self {
                __rt::IntoOwned::into_owned(value)
            }
        }
    }
}

/// The Rust type of a type expression.
pub(crate) fn type_tokens(std: &Std, ty: &TypeExpr) -> TokenStream {
    let Std {
        option,
        string,
        vec,
        ..
    } = std;
    let borrowed = std.is_borrowed();
    match ty {
        TypeExpr::String if borrowed => quote!(__rt::Str<'de>),
        TypeExpr::Any if borrowed => quote!(__rt::ValueRef<'de>),
        TypeExpr::Map(value) if borrowed && **value == TypeExpr::Any => {
            quote!(__rt::RawObjectRef<'de>)
        }
        TypeExpr::Map(value) if borrowed => {
            let value = type_tokens(std, value);
            quote!(__rt::IndexMap<__rt::Str<'de>, #value>)
        }
        TypeExpr::String => quote!(#string),
        TypeExpr::Integer => quote!(i64),
        TypeExpr::Number => quote!(__rt::serde_json::Number),
        TypeExpr::Boolean => quote!(bool),
        TypeExpr::Any => quote!(__rt::serde_json::Value),
        TypeExpr::Array(item) => {
            let item = type_tokens(std, item);
            quote!(#vec<#item>)
        }
        // A free-form object is kept as its text: no map to build, nothing to re-encode.
        TypeExpr::Map(value) if **value == TypeExpr::Any => quote!(__rt::RawObject),
        TypeExpr::Map(value) => {
            let value = type_tokens(std, value);
            quote!(__rt::IndexMap<#string, #value>)
        }
        TypeExpr::Nullable(inner) => {
            let inner = type_tokens(std, inner);
            quote!(#option<#inner>)
        }
        TypeExpr::Named(name) => std.named(name),
    }
}

/// `ty`, or the type expression it names where it names an alias (through at most 16 aliases,
/// so that a cycle cannot hang the generator).
pub(crate) fn resolve_alias<'a>(module: &'a Module, mut ty: &'a TypeExpr) -> &'a TypeExpr {
    for _ in 0..16 {
        let TypeExpr::Named(name) = ty else { break };
        match module.get(name).map(|t| &t.kind) {
            Some(TypeKind::Alias(target)) => ty = target,
            _ => break,
        }
    }
    ty
}
