//! Constructors, so that writing a message takes as few lines as reading one, generated from
//! the IR for every owned type (the borrowed family is for reading):
//! - structs: `new` from the required members (each `impl Into<…>`, boxes hidden; a member
//!   whose value the spec fixes for the type is filled, see `ir::passes::spec_rules`), a
//!   `with_<field>` per optional member, `with_extra` where undeclared members are kept, and
//!   and `Default` where `new` takes nothing;
//! - unions: `From` each member's type (where no other member has the same type), and a
//!   constructor named after the constant that tells a member apart (`ContentBlock::text("4")`);
//! - call sets: a constructor per method (`ClientRequest::call_tool(params)`), and `From` the
//!   params type that belongs to one method only;
//! - envelopes: `request`, `notification`, `response` and `error`.
//!
//! Struct literals still work: nothing here makes a type `#[non_exhaustive]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{ident, resolve_alias, type_tokens, Scope};
use crate::ir::{
    Additional, CallSet, DirectionModel, Messages, Module, ObjectDispatch, Struct, TypeExpr,
    TypeKind, Union,
};
use crate::naming;

/// Names a generated constructor may not take: the associated items the types already have.
const TAKEN: &[&str] = &[
    "new",
    "from",
    "default",
    "method",
    "as_str",
    "parse",
    "from_value",
];

/// The parameters of `new` for a struct and the field initializers that use them.
struct NewArgs {
    params: Vec<TokenStream>,
    /// The arguments, in order, as a caller passes them on (a union's named constructor).
    names: Vec<TokenStream>,
    fields: Vec<TokenStream>,
}

/// A parameter named `name` that takes a value of `ty`, and the expression of that value: an
/// array of strings from any iterable of what converts into a string (`["a", "b"]`), a typed
/// map from any iterable of pairs, anything else from what converts into it (`[]`, `vec![…]`
/// and `[item, …]` for an array of anything else: an iterable of conversions could not infer
/// the item type of an empty one).
fn param(scope: &Scope, name: &TokenStream, ty: &TypeExpr) -> (TokenStream, TokenStream) {
    let into = quote!(::core::convert::Into);
    match ty {
        TypeExpr::Array(item) if **item == TypeExpr::String => {
            let item = type_tokens(scope, item);
            (
                quote!(#name: impl ::core::iter::IntoIterator<Item = impl #into<#item>>),
                quote!(::core::iter::IntoIterator::into_iter(#name).map(#into::into).collect()),
            )
        }
        TypeExpr::Map(value) if **value != TypeExpr::Any => {
            let (string, value) = (&scope.string, type_tokens(scope, value));
            (
                quote!(#name: impl ::core::iter::IntoIterator<Item = (impl #into<#string>, impl #into<#value>)>),
                quote!(::core::iter::IntoIterator::into_iter(#name).map(|(k, v)| (#into::into(k), #into::into(v))).collect()),
            )
        }
        _ => {
            let ty = type_tokens(scope, ty);
            (quote!(#name: impl #into<#ty>), quote!(#into::into(#name)))
        }
    }
}

/// `new`'s parameters: the required members, less those the spec fixes and `preset` (a
/// member's wire name and the tokens of its value, given by a union's named constructor).
fn new_args(scope: &Scope, s: &Struct, preset: Option<(&str, TokenStream)>) -> NewArgs {
    let Scope {
        none,
        boxed,
        default_value,
        ..
    } = scope;
    let mut args = NewArgs {
        params: Vec::new(),
        names: Vec::new(),
        fields: Vec::new(),
    };
    for f in &s.fields {
        let field = ident(&f.rust_name);
        if !f.required {
            args.fields.push(quote!(#field: #none,));
            continue;
        }
        if let Some(value) = &f.fixed {
            args.fields
                .push(quote!(#field: ::core::convert::Into::into(#value),));
            continue;
        }
        if let Some((_, value)) = preset.as_ref().filter(|(name, _)| *name == f.json_name) {
            args.names.push(value.clone());
            continue;
        }
        let (param, value) = param(scope, &quote!(#field), &f.ty);
        args.params.push(param);
        args.names.push(quote!(#field));
        args.fields.push(if f.boxed {
            quote!(#field: #boxed::new(#value),)
        } else {
            quote!(#field: #value,)
        });
    }
    if s.additional != Additional::Forbidden {
        args.fields.push(quote!(extra: #default_value,));
    }
    args
}

/// `new`, the `with_` setters and, where `new` takes nothing, `Default`.
pub(super) fn struct_constructors(scope: &Scope, name: &str, s: &Struct) -> TokenStream {
    if scope.is_borrowed() {
        return TokenStream::new();
    }
    let Scope {
        some,
        boxed,
        string,
        ..
    } = scope;
    let ty = ident(name);
    let NewArgs { params, fields, .. } = new_args(scope, s, None);
    let many = (params.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let new_doc = if params.is_empty() {
        " A value without any of the optional members (set them with the `with_` methods)."
    } else {
        " A value from the required members, in schema order; the optional ones are absent \
         (set them with the `with_` methods)."
    };
    let setters = s.fields.iter().filter(|f| !f.required).map(|f| {
        let field = ident(&f.rust_name);
        // `_1st` (a member starting with a digit) makes `with_1st`, not `with__1st`.
        let setter = format_ident!(
            "with_{}",
            f.rust_name.trim_start_matches("r#").trim_start_matches('_')
        );
        let doc = format!(" Sets `{}`.", f.json_name);
        let (param, value) = param(scope, &quote!(value), &f.ty);
        let value = if f.boxed {
            quote!(#boxed::new(#value))
        } else {
            value
        };
        quote! {
            #[doc = #doc]
            #[must_use]
            #[inline]
            pub fn #setter(mut self, #param) -> Self {
                self.#field = #some(#value);
                self
            }
        }
    });
    let extra_value = match &s.additional {
        Additional::Forbidden => None,
        Additional::Any => Some(quote!(__rt::serde_json::Value)),
        Additional::Typed(value) => Some(type_tokens(scope, value)),
    };
    let with_extra = extra_value
        .filter(|_| !s.fields.iter().any(|f| f.rust_name == "extra"))
        .map(|value| {
            quote! {
                /// Adds a member the schema does not declare.
                #[must_use]
                #[inline]
                pub fn with_extra(
                    mut self,
                    name: impl ::core::convert::Into<#string>,
                    value: impl ::core::convert::Into<#value>,
                ) -> Self {
                    self.extra.insert(::core::convert::Into::into(name), ::core::convert::Into::into(value));
                    self
                }
            }
        });
    // `Default` is derived where every member is optional; where a member the spec fixes is
    // the only required one, `new()` is the default (as clippy's `new_without_default` asks).
    let default = (params.is_empty() && s.fields.iter().any(|f| f.required)).then(|| {
        quote! {
            impl ::core::default::Default for #ty {
                #[inline]
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    });
    quote! {
        impl #ty {
            #[doc = #new_doc]
            #many
            #[inline]
            pub fn new(#(#params),*) -> Self {
                Self { #(#fields)* }
            }
            #(#setters)*
            #with_extra
        }
        #default
    }
}

/// `From` each member's type, and the named constructors of the members a constant tells
/// apart.
pub(super) fn union_constructors(
    scope: &Scope,
    name: &str,
    u: &Union,
    module: &Module,
) -> TokenStream {
    if scope.is_borrowed() {
        return TokenStream::new();
    }
    let conversions = union_conversions(scope, name, u, module);
    let named = named_constructors(scope, u, module);
    if named.is_empty() {
        return conversions;
    }
    let ty = ident(name);
    quote! {
        #conversions
        impl #ty {
            #(#named)*
        }
    }
}

/// `From<T>` for each member whose type (aliases resolved) no other member has; a string
/// member also from `&str`.
fn union_conversions(scope: &Scope, name: &str, u: &Union, module: &Module) -> TokenStream {
    let Scope { string, boxed, .. } = scope;
    let ty = ident(name);
    let mut out = TokenStream::new();
    for (v, member) in u.from_members(module, name) {
        let variant = ident(&v.name);
        let source = type_tokens(scope, member);
        let value = if v.boxed {
            quote!(#boxed::new(value))
        } else {
            quote!(value)
        };
        out.extend(quote! {
            impl ::core::convert::From<#source> for #ty {
                #[inline]
                fn from(value: #source) -> Self {
                    Self::#variant(#value)
                }
            }
        });
        if *member == TypeExpr::String {
            out.extend(quote! {
                impl ::core::convert::From<&str> for #ty {
                    #[inline]
                    fn from(value: &str) -> Self {
                        Self::#variant(#string::from(value))
                    }
                }
            });
        }
    }
    out
}

/// The value that tells each object member apart, with the member's index and, where that
/// value is not a constant of the member but a member's value (a partition), that member's name.
fn tags(u: &Union) -> Vec<(&str, usize, Option<&str>)> {
    match &u.objects {
        ObjectDispatch::Tagged { cases, .. } => cases
            .iter()
            .map(|(value, i)| (value.as_str(), *i, None))
            .collect(),
        ObjectDispatch::Keyed {
            fallback,
            partition: Some(partition),
            ..
        } => partition
            .cases
            .iter()
            .filter_map(|(value, cases)| match cases[..] {
                [case] => Some((
                    value.as_str(),
                    fallback[case].variant,
                    Some(partition.tag.as_str()),
                )),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The tokens of the value `value` of the member `member` of `s`, where `new` takes it: a
/// string, or the string enum's variant.
fn preset_value(
    module: &Module,
    s: &Struct,
    member: &str,
    value: &str,
) -> Option<(String, TokenStream)> {
    let f = s
        .fields
        .iter()
        .find(|f| f.json_name == member && f.required)?;
    let tokens = match resolve_alias(module, &f.ty) {
        TypeExpr::String => quote!(#value),
        TypeExpr::Named(name) => match module.get(name).map(|t| &t.kind) {
            Some(TypeKind::StringEnum(values)) => {
                let variant = ident(&values.iter().find(|v| v.value == value)?.variant);
                let ty = ident(name);
                quote!(#ty::#variant)
            }
            _ => return None,
        },
        _ => return None,
    };
    Some((member.to_owned(), tokens))
}

/// The name of the constructor of the member `variant` told apart by `tag`: the tag in snake
/// case (`"resource_link"` → `resource_link`); a method name (`"elicitation/create"`) names
/// the variant instead (`elicit`), as in the call sets.
fn constructor_name(tag: &str, variant: &str) -> String {
    if tag.contains('/') {
        naming::field_name(variant)
    } else {
        naming::field_name(tag)
    }
}

/// `ContentBlock::text(text)`: per struct member told apart by a value, a constructor named
/// after that value that takes the member's `new` arguments (less the member that holds the
/// value, filled in). Left out where two values make the same name, or a name another
/// associated item has.
fn named_constructors(scope: &Scope, u: &Union, module: &Module) -> Vec<TokenStream> {
    let boxed = &scope.boxed;
    let tags = tags(u);
    let fn_names: Vec<String> = tags
        .iter()
        .map(|(tag, i, _)| constructor_name(tag, &u.variants[*i].name))
        .collect();
    let mut out = Vec::new();
    for ((tag, i, holder), fn_name) in tags.iter().zip(&fn_names) {
        let v = &u.variants[*i];
        let TypeExpr::Named(member) = resolve_alias(module, &v.ty) else {
            continue;
        };
        let Some(TypeKind::Struct(s)) = module.get(member).map(|t| &t.kind) else {
            continue;
        };
        if fn_names.iter().filter(|n| *n == fn_name).count() > 1
            || TAKEN.contains(&fn_name.as_str())
        {
            continue;
        }
        let preset = holder.and_then(|holder| preset_value(module, s, holder, tag));
        let preset = preset
            .as_ref()
            .map(|(name, value)| (name.as_str(), value.clone()));
        let NewArgs { params, names, .. } = new_args(scope, s, preset);
        let many = (params.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
        let variant = ident(&v.name);
        let member_ty = ident(member);
        let value = quote!(#member_ty::new(#(#names),*));
        let value = if v.boxed {
            quote!(#boxed::new(#value))
        } else {
            value
        };
        let doc = format!(" A [`{member}`] from its required members ([`{member}::new`]).");
        let fn_name = ident(fn_name);
        out.push(quote! {
            #[doc = #doc]
            #many
            #[inline]
            pub fn #fn_name(#(#params),*) -> Self {
                Self::#variant(#value)
            }
        });
    }
    out
}

/// A constructor per method (`ClientRequest::call_tool(params)`, optional params as an
/// `Option`), and `From` each params type that belongs to one method only.
pub(super) fn call_constructors(scope: &Scope, name: &str, set: &CallSet) -> TokenStream {
    if scope.is_borrowed() {
        return TokenStream::new();
    }
    let Scope {
        option,
        some,
        boxed,
        ..
    } = scope;
    let ty = ident(name);
    let fn_names: Vec<String> = set
        .calls
        .iter()
        .map(|c| naming::field_name(&c.variant))
        .collect();
    let mut constructors = Vec::new();
    let mut conversions = TokenStream::new();
    for (c, fn_name) in set.calls.iter().zip(&fn_names) {
        let variant = ident(&c.variant);
        let doc = format!(" `{}`.", c.method);
        let clash = fn_names.iter().filter(|n| *n == fn_name).count() > 1
            || TAKEN.contains(&fn_name.as_str());
        let fn_name = ident(fn_name);
        let Some(params) = &c.params else {
            if !clash {
                constructors.push(
                    quote!(#[doc = #doc] #[inline] pub fn #fn_name() -> Self { Self::#variant }),
                );
            }
            continue;
        };
        let params_ty = type_tokens(scope, params);
        let wrap = |value: TokenStream| {
            if c.boxed {
                quote!(#boxed::new(#value))
            } else {
                value
            }
        };
        if !clash {
            constructors.push(if c.params_required {
                let value = wrap(quote!(::core::convert::Into::into(params)));
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #fn_name(params: impl ::core::convert::Into<#params_ty>) -> Self {
                        Self::#variant(#value)
                    }
                }
            } else {
                let map = c.boxed.then(|| quote!(.map(#boxed::new)));
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #fn_name(params: impl ::core::convert::Into<#option<#params_ty>>) -> Self {
                        Self::#variant(::core::convert::Into::into(params) #map)
                    }
                }
            });
        }
        let shared = set
            .calls
            .iter()
            .filter(|other| other.params.as_ref() == Some(params))
            .count()
            > 1;
        if !shared {
            let value = wrap(quote!(params));
            let value = if c.params_required {
                value
            } else {
                quote!(#some(#value))
            };
            conversions.extend(quote! {
                impl ::core::convert::From<#params_ty> for #ty {
                    #[inline]
                    fn from(params: #params_ty) -> Self {
                        Self::#variant(#value)
                    }
                }
            });
        }
    }
    quote! {
        impl #ty {
            #(#constructors)*
        }
        #conversions
    }
}

/// `request`, `notification`, `response` and `error` on an envelope, for the kinds of message
/// the side sends.
pub(super) fn envelope_constructors(
    scope: &Scope,
    messages: &Messages,
    d: &DirectionModel,
) -> TokenStream {
    if scope.is_borrowed() {
        return TokenStream::new();
    }
    let Scope { some, none, .. } = scope;
    let ty = ident(&d.name);
    let id_ty = type_tokens(scope, &messages.id);
    let into = |t: &TokenStream| quote!(impl ::core::convert::Into<#t>);
    let id = into(&id_ty);
    let request = d.requests.as_deref().map(|r| {
        let request = into(&scope.named(r));
        quote! {
            /// A request with its id.
            #[inline]
            pub fn request(id: #id, request: #request) -> Self {
                Self::Request { id: ::core::convert::Into::into(id), request: ::core::convert::Into::into(request) }
            }
        }
    });
    let notification = d.notifications.as_deref().map(|n| {
        let notification = into(&scope.named(n));
        quote! {
            /// A notification.
            #[inline]
            pub fn notification(notification: #notification) -> Self {
                Self::Notification(::core::convert::Into::into(notification))
            }
        }
    });
    let responses = d.responds.then(|| {
        let result = into(&type_tokens(scope, &d.results));
        let error = into(&type_tokens(scope, &messages.error));
        quote! {
            /// The result response to the request `id`.
            #[inline]
            pub fn response(id: #id, result: #result) -> Self {
                Self::Response { id: ::core::convert::Into::into(id), result: ::core::convert::Into::into(result) }
            }
            /// The error response to the request `id`.
            #[inline]
            pub fn error(id: #id, error: #error) -> Self {
                Self::Error { id: #some(::core::convert::Into::into(id)), error: ::core::convert::Into::into(error) }
            }
            /// An error response without an id: the request's id could not be read.
            #[inline]
            pub fn error_without_id(error: #error) -> Self {
                Self::Error { id: #none, error: ::core::convert::Into::into(error) }
            }
        }
    });
    quote! {
        impl #ty {
            #request
            #notification
            #responses
        }
    }
}
