//! The message layer: call sets (`ClientRequest`, …), the `ClientMessage` / `ServerMessage`
//! envelopes, `Request` impls pairing requests with results, and the revision's constants.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{ident, resolve_alias, type_tokens, Std};
use crate::ir::{Call, CallKind, CallSet, Messages, Module, ObjectDispatch, TypeExpr, TypeKind};

pub(super) fn emit_calls(std: &Std, name: &str, head: TokenStream, set: &CallSet) -> TokenStream {
    let Std {
        option,
        some,
        none,
        result,
        ok,
        boxed,
        ..
    } = std;
    let (ty, path, generics) = std.defined(name);
    let params_text = if std.is_borrowed() {
        quote!(__rt::params_not_lent(method, text))
    } else {
        quote!(__rt::codec::params_from_text(method, text))
    };
    let variants = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        let doc = if std.is_borrowed() {
            format!(" `{0}`: [`{1}`](super::{1}).", c.method, c.message_type)
        } else {
            format!(" `{}`: [`{}`].", c.method, c.message_type)
        };
        match (&c.params, c.params_required) {
            (Some(p), true) => {
                let p = type_tokens(std, p);
                let p = if c.boxed { quote!(#boxed<#p>) } else { p };
                quote!(#[doc = #doc] #variant(#p),)
            }
            (Some(p), false) => {
                let p = type_tokens(std, p);
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

/// The body of `into_owned` for the borrowed form of a call set: variant by variant.
pub(super) fn calls_into_owned(std: &Std, name: &str, set: &CallSet) -> TokenStream {
    let owned = std.owned(name);
    let arms = set.calls.iter().map(|c| {
        let variant = ident(&c.variant);
        match c.params {
            Some(_) => quote!(Self::#variant(params) => #owned::#variant(__rt::IntoOwned::into_owned(params)),),
            None => quote!(Self::#variant => #owned::#variant,),
        }
    });
    quote!(match self { #(#arms)* })
}

pub(super) fn emit_messages(module: &Module, std: &Std, messages: &Messages) -> TokenStream {
    let Std {
        option,
        some,
        none,
        result,
        vec,
        ..
    } = std;
    let borrowed = std.is_borrowed();
    let id_ty = type_tokens(std, &messages.id);
    let error_ty = type_tokens(std, &messages.error);
    let directions = messages.directions.iter().map(|d| {
        let (name, _, generics) = std.defined(&d.name);
        let owned = std.owned(&d.name);
        let doc = format!(
            " Every message a {} sends: requests, notifications{}. Decode with {} \
             (errors in JSON-RPC terms) or serde; encode with serde.",
            d.side.to_lowercase(),
            if d.responds { ", result responses and error responses" } else { "" },
            if borrowed { "`parse`, borrowing from the text," } else { "`str::parse`" },
        );
        let request_ty = d.requests.as_deref().map_or_else(|| quote!(__rt::codec::NoCalls), |r| std.named(r));
        let notification_ty = d.notifications.as_deref().map_or_else(|| quote!(__rt::codec::NoCalls), |r| std.named(r));
        let result_ty = type_tokens(std, &d.results);
        let request_variant = d.requests.as_ref().map(|_| quote! {
            /// A request: answered with a response carrying the same `id`.
            Request {
                /// The request id.
                id: #id_ty,
                /// The method and its params.
                request: #request_ty,
            },
        });
        let notification_variant = d.notifications.as_ref().map(|_| quote! {
            /// A notification: not answered.
            Notification(#notification_ty),
        });
        let response_variants = d.responds.then(|| quote! {
            /// A successful response to a request of the other side.
            Response {
                /// The id of the request it answers.
                id: #id_ty,
                /// The result; which result type is chosen by the members it carries.
                result: #result_ty,
            },
            /// An error response (`id` is absent when the request's id could not be read).
            Error {
                /// The id of the request it answers.
                id: #option<#id_ty>,
                /// The error.
                error: #error_ty,
            },
        });
        let build_request = if d.requests.is_some() {
            quote!(__rt::codec::Parts::Request(id, request) => #some(Self::Request { id, request }),)
        } else {
            quote!(__rt::codec::Parts::Request(_, never) => match never {},)
        };
        let build_notification = if d.notifications.is_some() {
            quote!(__rt::codec::Parts::Notification(n) => #some(Self::Notification(n)),)
        } else {
            quote!(__rt::codec::Parts::Notification(never) => match never {},)
        };
        let build_responses = if d.responds {
            quote! {
                __rt::codec::Parts::Response(id, result) => #some(Self::Response { id, result }),
                __rt::codec::Parts::Error(id, error) => #some(Self::Error { id, error }),
            }
        } else {
            quote!(__rt::codec::Parts::Response(..) | __rt::codec::Parts::Error(..) => #none,)
        };
        let parts_request = d.requests.as_ref().map(|_| quote!(Self::Request { id, request } => __rt::codec::PartsRef::Request(id, request),));
        let parts_notification = d.notifications.as_ref().map(|_| quote!(Self::Notification(n) => __rt::codec::PartsRef::Notification(n),));
        let parts_responses = d.responds.then(|| quote! {
            Self::Response { id, result } => __rt::codec::PartsRef::Response(id, result),
            Self::Error { id, error } => __rt::codec::PartsRef::Error(id.as_ref(), error),
        });
        let responds = d.responds;
        let batches = messages.batches;
        let batch_variant = batches.then(|| quote! {
            /// A JSON-RPC batch: requests and notifications, or result and error responses;
            /// never empty, never nested. Only revision 2025-03-26 has batches.
            Batch(#vec<Self>),
        });
        let build_batch = if batches {
            quote!(__rt::codec::Parts::Batch(items) => #some(Self::Batch(items)),)
        } else {
            quote!(__rt::codec::Parts::Batch(_) => #none,)
        };
        let parts_batch = batches.then(|| quote!(Self::Batch(items) => __rt::codec::PartsRef::Batch(items),));
        let result_decode = result_decode(module, std, &d.results);
        let entry_points = if borrowed {
            quote! {
                impl<'de> #name {
                    /// Decodes a message from the text it borrows, with errors in JSON-RPC terms
                    /// (those of the owned type).
                    pub fn parse(text: &'de str) -> #result<Self, __rt::jsonrpc::DecodeError> {
                        __rt::codec::from_lent_str::<Self, #owned>(text)
                    }

                    /// [`parse`](Self::parse) from bytes, which must be UTF-8.
                    pub fn from_slice(bytes: &'de [u8]) -> #result<Self, __rt::jsonrpc::DecodeError> {
                        __rt::codec::from_lent_slice::<Self, #owned>(bytes)
                    }
                }
            }
        } else {
            quote! {
                impl #name {
                    /// Decodes a message from a parsed JSON value, with errors in JSON-RPC terms.
                    pub fn from_value(value: __rt::serde_json::Value) -> #result<Self, __rt::jsonrpc::DecodeError> {
                        __rt::codec::from_value(value)
                    }
                }

                impl ::core::str::FromStr for #name {
                    type Err = __rt::jsonrpc::DecodeError;
                    fn from_str(text: &str) -> #result<Self, Self::Err> {
                        __rt::codec::from_str(text)
                    }
                }
            }
        };
        let into_owned = borrowed.then(|| {
            let request = d.requests.as_ref().map(|_| quote!(Self::Request { id, request } => #owned::Request { id: __rt::IntoOwned::into_owned(id), request: __rt::IntoOwned::into_owned(request) },));
            let notification = d.notifications.as_ref().map(|_| quote!(Self::Notification(n) => #owned::Notification(__rt::IntoOwned::into_owned(n)),));
            let responses = d.responds.then(|| quote! {
                Self::Response { id, result } => #owned::Response { id: __rt::IntoOwned::into_owned(id), result: __rt::IntoOwned::into_owned(result) },
                Self::Error { id, error } => #owned::Error { id: __rt::IntoOwned::into_owned(id), error: __rt::IntoOwned::into_owned(error) },
            });
            let batch = batches.then(|| quote!(Self::Batch(items) => #owned::Batch(__rt::IntoOwned::into_owned(items)),));
            quote! {
                impl<'de> __rt::IntoOwned for #name {
                    type Owned = #owned;
                    fn into_owned(self) -> #owned {
                        match self {
                            #request
                            #notification
                            #responses
                            #batch
                        }
                    }
                }

                impl<'de> ::core::convert::From<#name> for #owned {
                    fn from(value: #name) -> Self {
                        __rt::IntoOwned::into_owned(value)
                    }
                }
            }
        });
        quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, PartialEq)]
            pub enum #name {
                #request_variant
                #notification_variant
                #response_variants
                #batch_variant
            }

            #entry_points

            impl #generics __rt::serde::Serialize for #name {
                fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                    __rt::codec::serialize(self, serializer)
                }
            }

            impl<'de> __rt::serde::Deserialize<'de> for #name {
                fn deserialize<D: __rt::serde::Deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                    __rt::codec::deserialize(deserializer)
                }
            }

            impl #generics __rt::codec::Direction for #name {
                type Id = #id_ty;
                type Request = #request_ty;
                type Notification = #notification_ty;
                type Result = #result_ty;
                type Error = #error_ty;
                const RESPONDS: bool = #responds;
                const BATCHES: bool = #batches;

                fn build(parts: __rt::codec::Parts<Self>) -> #option<Self> {
                    match parts {
                        #build_request
                        #build_notification
                        #build_responses
                        #build_batch
                    }
                }

                fn parts(&self) -> __rt::codec::PartsRef<'_, Self> {
                    match self {
                        #parts_request
                        #parts_notification
                        #parts_responses
                        #parts_batch
                    }
                }
            }

            #result_decode
            #into_owned
        }
    });

    // Request ↔ result pairing.
    let request_impls = module.types.iter().filter_map(|t| match &t.kind {
        TypeKind::Calls(set) if set.kind == CallKind::Request => Some(set),
        _ => None,
    });
    let mut seen = std::collections::BTreeSet::new();
    let request_impls = request_impls
        .flat_map(|set| set.calls.iter())
        .filter(|c| seen.insert(c.message_type.clone()))
        .map(|c| request_impl(std, c));

    // Constants.
    let mut method_consts: Vec<(String, String)> = Vec::new();
    for t in &module.types {
        if let TypeKind::Calls(set) = &t.kind {
            for c in &set.calls {
                let name = crate::naming::const_name(&c.method.replace(['/', '.', '-'], "_"));
                if !method_consts.iter().any(|(n, _)| *n == name) {
                    method_consts.push((name, c.method.clone()));
                }
            }
        }
    }
    let method_consts = method_consts.iter().map(|(name, method)| {
        let name = format_ident!("{}", name);
        let doc = format!(" `{method}`");
        quote!(#[doc = #doc] pub const #name: &str = #method;)
    });
    let code_consts = messages.error_codes.iter().map(|(owner, code)| {
        let name = format_ident!("{}", crate::naming::const_name(owner));
        let doc = format!(" The code of `{owner}`.");
        let code = proc_macro2::Literal::i64_unsuffixed(*code);
        quote!(#[doc = #doc] pub const #name: i64 = #code;)
    });
    if borrowed {
        return quote!(#(#directions)*);
    }
    quote! {
        #(#directions)*
        #(#request_impls)*

        /// Method names.
        pub mod methods {
            #(#method_consts)*
        }

        /// Error codes this revision's schema defines (the JSON-RPC ones are in
        /// `mcp_typed::jsonrpc`).
        pub mod error_codes {
            #(#code_consts)*
        }
    }
}

/// `jsonrpc::Request` for a request type: its method, params and result.
fn request_impl(std: &Std, c: &Call) -> TokenStream {
    let ty = ident(&c.message_type);
    let method = &c.method;
    let params = match &c.params {
        Some(p) => type_tokens(std, p),
        None => quote!(()),
    };
    let result_ty = type_tokens(
        std,
        c.result
            .as_ref()
            .unwrap_or(&TypeExpr::Named("Result".into())),
    );
    quote! {
        impl __rt::jsonrpc::Request for #ty {
            const METHOD: &'static str = #method;
            type Params = #params;
            type Result = #result_ty;
        }
    }
}

/// The requests of a schema without direction unions (an extension's): their `Request` impls.
pub(super) fn emit_extension_requests(std: &Std, calls: &[Call]) -> TokenStream {
    let impls = calls.iter().map(|c| request_impl(std, c));
    quote!(#(#impls)*)
}

/// `DecodeResult` for a direction's result type: a keyed union streams into the member its
/// first deciding member names, a plain struct streams directly, any other type is decoded by
/// its own `Deserialize` from the map.
fn result_decode(module: &Module, std: &Std, results: &TypeExpr) -> TokenStream {
    let Std { result, none, .. } = std;
    let TypeExpr::Named(name) = results else {
        return TokenStream::new();
    };
    // Resolve aliases (2026-07-28: `ClientResult` is `Result`).
    let target = match resolve_alias(module, results) {
        TypeExpr::Named(target) => target.clone(),
        _ => name.clone(),
    };
    let body = match module.get(&target).map(|t| &t.kind) {
        Some(TypeKind::Struct(_)) => quote!(__rt::MapDecode::decode_map(map, #none)),
        Some(TypeKind::Union(u)) if matches!(&u.objects, ObjectDispatch::Keyed { deciding, .. } if !deciding.is_empty()) =>
        {
            let target = std.named(&target);
            quote!(<#target as __rt::KeyedUnion<'de>>::decode_keyed(map))
        }
        _ => quote!(__rt::serde::Deserialize::deserialize(
            __rt::serde::de::value::MapAccessDeserializer::new(map)
        )),
    };
    // An alias may name a struct that already has the impl: implement on the alias target once.
    let is_struct_alias = target != *name
        && module
            .get(&target)
            .is_some_and(|t| matches!(t.kind, TypeKind::Struct(_)));
    // The borrowed family has no aliases: it names the target.
    let ty = if std.is_borrowed() {
        std.named(&target)
    } else {
        let ty = ident(if is_struct_alias { &target } else { name });
        quote!(#ty)
    };
    quote! {
        impl<'de> __rt::codec::DecodeResult<'de> for #ty {
            fn decode_result<M: __rt::serde::de::MapAccess<'de>>(map: M) -> #result<Self, M::Error> {
                #body
            }
        }
    }
}
