//! The borrowed family (`mod borrowed`: `ClientMessageRef<'de>`, …): its module, each type's
//! borrowed form and its conversion into the owned type.

use proc_macro2::TokenStream;
use quote::quote;

use super::registry::borrowed_registry;
use super::{emit_type, messages, structs, union, Scope, TokenDigest};
use crate::ir::{Module, TypeDef, TypeExpr, TypeKind};
use crate::settings::{Borrowed, Settings};

/// The borrowed family, as [`borrowed_module`] renders it.
pub(super) struct BorrowedModule {
    /// The `#[cfg]` it is under.
    pub cfg: TokenStream,
    /// What the body holds: `pub mod borrowed { … }`, or `#[path = …] pub mod borrowed;`.
    pub declaration: String,
    /// The items of an out-of-line module (see `borrowed_path` of [`super::emit`]).
    pub file: Option<String>,
}

/// The borrowed family: its items built and printed one type at a time like the owned ones,
/// indented into an inline module or at the top level of a file of their own.
pub(super) fn borrowed_module(
    module: &Module,
    owned: &Scope,
    settings: &Settings,
    borrowed_path: Option<&str>,
    digest: &mut TokenDigest,
) -> syn::Result<BorrowedModule> {
    let scope = owned.borrowed(module);
    let cfg = match &settings.borrowed {
        Borrowed::Feature(feature) => quote!(#[cfg(feature = #feature)]),
        _ => TokenStream::new(),
    };
    let indent = if borrowed_path.is_some() { "" } else { "    " };
    let mut body = String::new();
    for piece in borrowed_pieces(module, &scope, settings) {
        digest.add(&piece);
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
    if let Some(path) = borrowed_path {
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

/// The token streams of the borrowed family's items, one per type and layer, in print order;
/// `scope` is the borrowed family's.
pub(super) fn borrowed_pieces<'a>(
    module: &'a Module,
    scope: &'a Scope,
    settings: &'a Settings,
) -> impl Iterator<Item = TokenStream> + 'a {
    let head = quote! {
        #[allow(unused_imports)]
        use super::__rt;
    };
    let types = module.types.iter().map(|t| emit_type(scope, t, module));
    let message_layer = match &module.messages {
        Some(m) => messages::emit_messages(module, scope, m),
        None => messages::request_ref_impls(module, scope),
    };
    let registry = settings
        .registry_feature
        .as_deref()
        .map(|feature| borrowed_registry(module, scope, feature));
    let validation = super::validate::emit_validation(module, scope);
    std::iter::once(head)
        .chain(types)
        .chain([message_layer, validation])
        .chain(registry)
}

/// One named type → its borrowed form, with its conversion into the owned type; a type that
/// borrows nothing converts into itself, and an alias is left out (its uses name the target).
pub(super) fn emit_borrowed_type(scope: &Scope, t: &TypeDef, module: &Module) -> TokenStream {
    if matches!(t.kind, TypeKind::Alias(_)) {
        return TokenStream::new();
    }
    let owned = scope.owned(&t.name);
    if !scope.has_form(&t.name) {
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
            structs::emit_struct(scope, &t.name, head, s, module),
            structs::struct_into_owned(scope, &t.name, s),
        ),
        TypeKind::Union(u) => {
            let union = union::emit_union(scope, &t.name, head, u);
            let conversions = request_id_conversions(scope, t, u, module);
            (
                quote!(#union #conversions),
                union::union_into_owned(scope, &t.name, u),
            )
        }
        TypeKind::Calls(set) => (
            messages::emit_calls(scope, module, &t.name, head, set),
            messages::calls_into_owned(scope, &t.name, set),
        ),
        TypeKind::StringEnum(_) | TypeKind::Alias(_) => unreachable!("borrow nothing"),
    };
    let into_owned = into_owned_impl(scope, &t.name, conversion);
    quote!(#definition #into_owned)
}

/// `IntoOwned` and `From` from the borrowed form of the type `name` into the owned one; `body`
/// converts `self`.
fn into_owned_impl(scope: &Scope, name: &str, body: TokenStream) -> TokenStream {
    let (ty, _, generics) = scope.defined(name);
    let owned = scope.owned(name);
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

/// The borrowed request id is built from a number or a text, `7.into()`, `"abc".into()`, like
/// the owned one (whose `From`s every union has: `constructors`).
fn request_id_conversions(
    scope: &Scope,
    t: &TypeDef,
    u: &crate::ir::Union,
    module: &Module,
) -> TokenStream {
    let is_request_id = module
        .messages
        .as_ref()
        .is_some_and(|m| matches!(&m.id, TypeExpr::Named(id) if *id == t.name));
    if is_request_id {
        union::emit_scalar_conversions(scope, &t.name, u)
    } else {
        TokenStream::new()
    }
}
