//! What every part of the emitter shares: the scope the items are emitted into (which family,
//! and the paths of the prelude items the schema's own names shadow), identifiers, and the Rust
//! type of a type expression.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::{Module, TypeExpr, TypeKind};

/// Where the items are emitted: which family of types (owned, or borrowed), and how the standard
/// items the generated code uses are spelled there: the short prelude name, or the full path
/// where the schema defines a type of the same name (every MCP schema defines `Result`).
#[derive(Clone)]
pub(crate) struct Scope {
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

impl Scope {
    pub(super) fn for_module(module: &Module) -> Self {
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
        Scope {
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

impl Scope {
    /// The same paths, for the borrowed family of `module`.
    pub(super) fn borrowed(&self, module: &Module) -> Scope {
        Scope {
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

/// The Rust type of a type expression.
pub(crate) fn type_tokens(scope: &Scope, ty: &TypeExpr) -> TokenStream {
    let Scope {
        option,
        string,
        vec,
        ..
    } = scope;
    let borrowed = scope.is_borrowed();
    match ty {
        TypeExpr::String if borrowed => quote!(__rt::Str<'de>),
        TypeExpr::Any if borrowed => quote!(__rt::ValueRef<'de>),
        TypeExpr::Map(value) if borrowed && **value == TypeExpr::Any => {
            quote!(__rt::RawObjectRef<'de>)
        }
        TypeExpr::Map(value) if borrowed => {
            let value = type_tokens(scope, value);
            quote!(__rt::IndexMap<__rt::Str<'de>, #value>)
        }
        TypeExpr::String => quote!(#string),
        TypeExpr::Integer => quote!(i64),
        TypeExpr::Number => quote!(__rt::serde_json::Number),
        TypeExpr::Boolean => quote!(bool),
        TypeExpr::Any => quote!(__rt::serde_json::Value),
        TypeExpr::Array(item) => {
            let item = type_tokens(scope, item);
            quote!(#vec<#item>)
        }
        // A free-form object is kept as its text: no map to build, nothing to re-encode.
        TypeExpr::Map(value) if **value == TypeExpr::Any => quote!(__rt::RawObject),
        TypeExpr::Map(value) => {
            let value = type_tokens(scope, value);
            quote!(__rt::IndexMap<#string, #value>)
        }
        TypeExpr::Nullable(inner) => {
            let inner = type_tokens(scope, inner);
            quote!(#option<#inner>)
        }
        TypeExpr::Named(name) => scope.named(name),
    }
}

/// `ty`, or the type expression it names where it names an alias (through at most 16 aliases,
/// so that a cycle cannot hang the generator).
pub(crate) fn resolve_alias<'a>(module: &'a Module, ty: &'a TypeExpr) -> &'a TypeExpr {
    module.resolve_alias(ty)
}
