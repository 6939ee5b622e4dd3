//! Call sets (`ClientRequest`, `ServerNotification`, …) → an enum with a variant per method,
//! encoded as `method` + `params` and decoded by the `method` member.

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::{ident, resolve_alias, type_tokens, Scope};
use crate::ir::{CallKind, CallSet, Module, TypeExpr, TypeKind};

/// The call set's enum and its serde impls.
pub(in crate::emit) fn emit_calls(
    scope: &Scope,
    module: &Module,
    name: &str,
    head: TokenStream,
    set: &CallSet,
) -> TokenStream {
    let Scope {
        option,
        some,
        none,
        result,
        ok,
        boxed,
        ..
    } = scope;
    let (ty, path, generics) = scope.defined(name);
    let params_text = if scope.is_borrowed() {
        quote!(__rt::params_not_lent(method, text))
    } else {
        quote!(__rt::codec::params_from_text(method, text))
    };
    let variants = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        let doc = if scope.is_borrowed() {
            format!(" `{0}`: [`{1}`](super::{1}).", c.method, c.message_type)
        } else {
            format!(" `{}`: [`{}`].", c.method, c.message_type)
        };
        match (&c.params, c.params_required) {
            (Some(p), true) => {
                let p = type_tokens(scope, p);
                let p = if c.boxed { quote!(#boxed<#p>) } else { p };
                quote!(#[doc = #doc] #variant(#p),)
            }
            (Some(p), false) => {
                let p = type_tokens(scope, p);
                let p = if c.boxed { quote!(#boxed<#p>) } else { p };
                quote!(#[doc = #doc] #variant(#option<#p>),)
            }
            (None, _) => quote!(#[doc = #doc] #variant,),
        }
    });
    let methods: Vec<&str> = set.calls.iter().map(|c| c.method.as_str()).collect();
    let method_arms = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        let method = &c.method;
        match &c.params {
            Some(_) => quote!(Self::#variant(_) => #method,),
            None => quote!(Self::#variant => #method,),
        }
    });
    let from_arms = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        let method = &c.method;
        match (&c.params, c.params_required) {
            (Some(_), true) => quote!(#method => __rt::codec::required_params(params).map(Self::#variant),),
            (Some(_), false) => quote!(#method => __rt::codec::optional_params(params).map(Self::#variant),),
            (None, _) => quote!(#method => __rt::codec::optional_params::<__rt::serde::de::IgnoredAny, D>(params).and_then(|p| match p {
                #some(_) => ::core::result::Result::Err(__rt::serde::de::Error::custom("this method takes no params")),
                #none => #ok(Self::#variant),
            }),),
        }
    });
    let ser_arms = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        match (&c.params, c.params_required) {
            (Some(_), true) => {
                quote!(Self::#variant(params) => map.serialize_entry("params", params),)
            }
            (Some(_), false) => {
                quote!(Self::#variant(params) => __rt::optional_entry(map, "params", params),)
            }
            (None, _) => quote!(Self::#variant => #ok(()),),
        }
    });
    let kind = match set.kind {
        CallKind::Request => "request",
        CallKind::Notification => "notification",
    };
    let unknown = format!("unknown {kind} method `{{method}}`");
    let visit = visit_method(scope, set);
    let meta = meta_accessor(scope, module, set);
    quote! {
        #head
        #[derive(Debug, Clone, PartialEq)]
        pub enum #ty {
            #(#variants)*
        }

        impl #generics #ty {
            /// Every method, in schema order.
            pub const METHODS: &'static [&'static str] = &[#(#methods),*];

            /// The method name on the wire.
            pub fn method(&self) -> &'static str {
                match self {
                    #(#method_arms)*
                }
            }
            #visit
            #meta
        }

        impl #generics __rt::codec::Calls for #ty {
            fn has_method(method: &str) -> bool {
                matches!(method, #(#methods)|*)
            }

            fn method(&self) -> &'static str {
                #path::method(self)
            }

            fn serialize_params<M: __rt::serde::ser::SerializeMap>(&self, map: &mut M) -> #result<(), M::Error> {
                match self {
                    #(#ser_arms)*
                }
            }
        }

        impl<'de> __rt::codec::CallsDecode<'de> for #ty {
            fn from_params<D: __rt::serde::Deserializer<'de>>(method: &str, params: #option<D>) -> #result<Self, D::Error> {
                match method {
                    #(#from_arms)*
                    _ => ::core::result::Result::Err(__rt::serde::de::Error::custom(::core::format_args!(#unknown))),
                }
            }

            fn from_params_text(method: &str, text: &str) -> #result<Self, __rt::serde_json::Error> {
                #params_text
            }
        }

        impl #generics __rt::serde::Serialize for #ty {
            fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                __rt::codec::serialize_call(self, serializer)
            }
        }

        impl<'de> __rt::serde::Deserialize<'de> for #ty {
            fn deserialize<D: __rt::serde::Deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                __rt::codec::deserialize_call(deserializer)
            }
        }
    }
}

/// `visit_method` of a request set: the request type of a method read at run time, for code
/// generic over `jsonrpc::Request` (decoding a response as the result of its request), or over
/// `borrowed::RequestRef` in the borrowed family (decoding it as the result's borrowed form).
fn visit_method(scope: &Scope, set: &CallSet) -> TokenStream {
    if set.kind != CallKind::Request {
        return TokenStream::new();
    }
    let Scope {
        option, some, none, ..
    } = scope;
    // A request without a result has no `Request` impl (an extension's message enum may name
    // one: `generate` warns of it), and is no method a response answers.
    let arms: Vec<TokenStream> = (set.calls.iter())
        .filter(|c| c.result.is_some())
        .map(|c| {
            let method = &c.method;
            let request = scope.owned(&c.message_type);
            quote!(#method => visitor.visit::<#request>(),)
        })
        .collect();
    let body = if arms.is_empty() {
        quote!(let _ = (method, visitor); #none)
    } else {
        quote!(#some(match method {
            #(#arms)*
            _ => return #none,
        }))
    };
    if scope.is_borrowed() {
        return quote! {
            /// Runs `visitor` with the request type of `method` (its result's borrowed form);
            /// `None` for a method of no request of this set, or of one without a result.
            pub fn visit_method<V: __rt::VisitRequestRef>(method: &str, visitor: V) -> #option<V::Output> {
                #body
            }
        };
    }
    quote! {
        /// Runs `visitor` with the request type of `method` (its params and result types);
        /// `None` for a method of no request of this set, or of one without a result.
        pub fn visit_method<V: __rt::jsonrpc::VisitRequest>(method: &str, visitor: V) -> #option<V::Output> {
            #body
        }
    }
}

/// `meta()` of a call set whose params all hold `_meta` as one type (2026-07-28's
/// `RequestMetaObject`): the `_meta` of any call read without matching on its method. `None`
/// (no accessor) when a params type is no struct or the `_meta` types differ (2025-11-25's,
/// one per request).
fn meta_accessor(scope: &Scope, module: &Module, set: &CallSet) -> TokenStream {
    let Scope {
        option, some, none, ..
    } = scope;
    let mut shared: Option<&TypeExpr> = None;
    let mut arms = Vec::new();
    for c in &set.calls {
        let variant = ident(&c.variant);
        let Some(params) = &c.params else {
            arms.push(quote!(Self::#variant => #none,));
            continue;
        };
        let TypeExpr::Named(params_name) = resolve_alias(module, params) else {
            return TokenStream::new();
        };
        let Some(TypeKind::Struct(s)) = module.get(params_name).map(|t| &t.kind) else {
            return TokenStream::new();
        };
        let Some(field) = s.fields.iter().find(|f| f.json_name == "_meta") else {
            arms.push(quote!(Self::#variant(_) => #none,));
            continue;
        };
        let ty = resolve_alias(module, &field.ty);
        if shared.is_some_and(|t| t != ty) || field.implied_const.is_some() {
            return TokenStream::new();
        }
        shared = Some(ty);
        let rust = ident(&field.rust_name);
        let read = match (field.required, field.boxed) {
            (true, false) => quote!(#some(&params.#rust)),
            (true, true) => quote!(#some(&*params.#rust)),
            (false, false) => quote!(params.#rust.as_ref()),
            (false, true) => quote!(params.#rust.as_deref()),
        };
        arms.push(if c.params_required {
            quote!(Self::#variant(params) => #read,)
        } else {
            quote!(Self::#variant(params) => params.as_ref().and_then(|params| #read),)
        });
    }
    let Some(ty) = shared else {
        return TokenStream::new();
    };
    let ty = type_tokens(scope, ty);
    quote! {
        /// The `_meta` of the params; `None` for a call without params or without `_meta`.
        pub fn meta(&self) -> #option<&#ty> {
            match self {
                #(#arms)*
            }
        }
    }
}

/// The body of `into_owned` for the borrowed form of a call set: variant by variant.
pub(in crate::emit) fn calls_into_owned(scope: &Scope, name: &str, set: &CallSet) -> TokenStream {
    let owned = scope.owned(name);
    let arms = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        match c.params {
            Some(_) => quote!(Self::#variant(params) => #owned::#variant(__rt::IntoOwned::into_owned(params)),),
            None => quote!(Self::#variant => #owned::#variant,),
        }
    });
    quote!(match self { #(#arms)* })
}
