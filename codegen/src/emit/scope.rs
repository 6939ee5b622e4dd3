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

/// How a struct member's value is read: the one choice the decoders (`structs`) and the verdict
/// path (`check`) both make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemberRead {
    /// As its type reads itself.
    Plain,
    /// An `integer`: an `i64`, also from a number written with a zero fraction (`1.0`), as JSON
    /// Schema's `integer` is.
    Integer,
    /// An `integer` or `null`.
    NullableInteger,
    /// An array, noting the failing item on an error's path.
    Items,
    /// An object with typed values, noting the failing member on an error's path.
    Members,
}

/// How the member `f` of a struct is read ([`MemberRead`]).
pub(crate) fn member_read(module: &Module, f: &crate::ir::Field) -> MemberRead {
    match resolve_alias(module, &f.ty) {
        _ if f.boxed => MemberRead::Plain,
        TypeExpr::Integer => MemberRead::Integer,
        TypeExpr::Nullable(inner) if *resolve_alias(module, inner) == TypeExpr::Integer => {
            MemberRead::NullableInteger
        }
        TypeExpr::Array(_) => MemberRead::Items,
        TypeExpr::Map(value) if **value != TypeExpr::Any => MemberRead::Members,
        _ => MemberRead::Plain,
    }
}

/// The `__rt::Shape` of each member of a structural match (`fallback`): its deciding, required
/// and declared members as bit sets over `names` (sorted, at most 64). What the decoder ranks
/// the members by (`union::keyed`), and the verdict path with it (`check`).
pub(crate) fn structural_shapes(
    deciding: &[(String, usize)],
    fallback: &[crate::ir::StructuralCase],
    names: &[String],
) -> Vec<TokenStream> {
    let name_set = |members: &mut dyn Iterator<Item = &String>| {
        let bits = members
            .filter_map(|m| names.binary_search(m).ok())
            .fold(0u64, |bits, i| bits | 1 << i);
        let literal = syn::LitInt::new(&format!("{bits:#b}"), Span::call_site());
        quote!(#literal)
    };
    (fallback.iter())
        .map(|c| {
            let mut own = deciding
                .iter()
                .filter(|(_, i)| *i == c.variant)
                .map(|(k, _)| k);
            let own = name_set(&mut own);
            let required = name_set(&mut c.required.iter());
            let declared = name_set(&mut c.declared.iter());
            quote!(__rt::Shape { deciding: #own, required: #required, declared: #declared })
        })
        .collect()
}

/// The name of a struct's `consumed` parameter (the member a union read before handing the
/// object over): `_consumed` where nothing reads it, no constant and no member a tag implies.
pub(crate) fn consumed_param(s: &crate::ir::Struct) -> TokenStream {
    let uses_consumed = !s.consts.is_empty() || s.fields.iter().any(|f| f.implied_const.is_some());
    if uses_consumed {
        quote!(consumed)
    } else {
        quote!(_consumed)
    }
}
