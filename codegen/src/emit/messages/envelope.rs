//! A direction's envelope (`ClientMessage`, `ServerMessage`): every message that side sends,
//! its `codec::Direction` impl (the shared JSON-RPC decoder and encoder build and take it apart),
//! its entry points, and, in the borrowed family, its conversion into the owned envelope.

use proc_macro2::TokenStream;
use quote::quote;

use super::result_decode;
use crate::emit::{type_tokens, Scope};
use crate::ir::{DirectionModel, Messages, Module};

/// The envelope of the direction `d` and its impls.
pub(super) fn envelope(
    module: &Module,
    scope: &Scope,
    messages: &Messages,
    d: &DirectionModel,
) -> TokenStream {
    let result = &scope.result;
    let (name, _, generics) = scope.defined(&d.name);
    let definition = definition(scope, messages, d);
    let entry_points = entry_points(scope, d);
    let constructors = crate::emit::constructors::envelope_constructors(scope, messages, d);
    let direction = direction_impl(scope, messages, d);
    let result_decode = result_decode(module, scope, &d.results);
    let into_owned = scope.is_borrowed().then(|| into_owned(scope, messages, d));
    quote! {
        #definition

        #entry_points
        #constructors

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

        #direction

        #result_decode
        #into_owned
    }
}

/// The request type of the direction (`NoCalls` where it sends none), its notification type
/// likewise, and its result type.
fn member_types(scope: &Scope, d: &DirectionModel) -> (TokenStream, TokenStream, TokenStream) {
    let request_ty = d
        .requests
        .as_deref()
        .map_or_else(|| quote!(__rt::codec::NoCalls), |r| scope.named(r));
    let notification_ty = d
        .notifications
        .as_deref()
        .map_or_else(|| quote!(__rt::codec::NoCalls), |r| scope.named(r));
    (request_ty, notification_ty, type_tokens(scope, &d.results))
}

/// The enum: a variant per kind of message the side sends.
fn definition(scope: &Scope, messages: &Messages, d: &DirectionModel) -> TokenStream {
    let Scope { option, vec, .. } = scope;
    let (name, _, _) = scope.defined(&d.name);
    let id_ty = type_tokens(scope, &messages.id);
    let error_ty = type_tokens(scope, &messages.error);
    let (request_ty, notification_ty, result_ty) = member_types(scope, d);
    let doc = format!(
        " Every message a {} sends: requests, notifications{}. Decode with {} \
         (errors in JSON-RPC terms) or serde; encode with serde.",
        d.side.to_lowercase(),
        if d.responds {
            ", result responses and error responses"
        } else {
            ""
        },
        if scope.is_borrowed() {
            "`parse`, borrowing from the text,"
        } else {
            "`str::parse`"
        },
    );
    let request_variant = d.requests.as_ref().map(|_| {
        quote! {
            /// A request: answered with a response carrying the same `id`.
            Request {
                /// The request id.
                id: #id_ty,
                /// The method and its params.
                request: #request_ty,
            },
        }
    });
    let notification_variant = d.notifications.as_ref().map(|_| {
        quote! {
            /// A notification: not answered.
            Notification(#notification_ty),
        }
    });
    let response_variants = d.responds.then(|| {
        quote! {
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
        }
    });
    let batch_variant = messages.batches.then(|| {
        quote! {
            /// A JSON-RPC batch: requests and notifications, or result and error responses;
            /// never empty, never nested. Only revision 2025-03-26 has batches.
            Batch(#vec<Self>),
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
    }
}

/// `codec::Direction`: the envelope's parts, built from and taken apart into `Parts`.
fn direction_impl(scope: &Scope, messages: &Messages, d: &DirectionModel) -> TokenStream {
    let Scope {
        option, some, none, ..
    } = scope;
    let (name, _, generics) = scope.defined(&d.name);
    let id_ty = type_tokens(scope, &messages.id);
    let error_ty = type_tokens(scope, &messages.error);
    let (request_ty, notification_ty, result_ty) = member_types(scope, d);
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
    let parts_request = d.requests.as_ref().map(
        |_| quote!(Self::Request { id, request } => __rt::codec::PartsRef::Request(id, request),),
    );
    let parts_notification = d
        .notifications
        .as_ref()
        .map(|_| quote!(Self::Notification(n) => __rt::codec::PartsRef::Notification(n),));
    let parts_responses = d.responds.then(|| {
        quote! {
            Self::Response { id, result } => __rt::codec::PartsRef::Response(id, result),
            Self::Error { id, error } => __rt::codec::PartsRef::Error(id.as_ref(), error),
        }
    });
    let responds = d.responds;
    let batches = messages.batches;
    let build_batch = if batches {
        quote!(__rt::codec::Parts::Batch(items) => #some(Self::Batch(items)),)
    } else {
        quote!(__rt::codec::Parts::Batch(_) => #none,)
    };
    let parts_batch =
        batches.then(|| quote!(Self::Batch(items) => __rt::codec::PartsRef::Batch(items),));
    quote! {
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
    }
}

/// How a message is decoded: `str::parse` and `from_value` for the owned envelope, `parse` and
/// `from_slice` borrowing from the text for the borrowed one.
fn entry_points(scope: &Scope, d: &DirectionModel) -> TokenStream {
    let result = &scope.result;
    let (name, _, _) = scope.defined(&d.name);
    let owned = scope.owned(&d.name);
    if scope.is_borrowed() {
        return quote! {
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
        };
    }
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
}

/// The borrowed envelope made owned, variant by variant.
fn into_owned(scope: &Scope, messages: &Messages, d: &DirectionModel) -> TokenStream {
    let (name, _, _) = scope.defined(&d.name);
    let owned = scope.owned(&d.name);
    let request = d.requests.as_ref().map(|_| quote!(Self::Request { id, request } => #owned::Request { id: __rt::IntoOwned::into_owned(id), request: __rt::IntoOwned::into_owned(request) },));
    let notification = d.notifications.as_ref().map(
        |_| quote!(Self::Notification(n) => #owned::Notification(__rt::IntoOwned::into_owned(n)),),
    );
    let responses = d.responds.then(|| quote! {
        Self::Response { id, result } => #owned::Response { id: __rt::IntoOwned::into_owned(id), result: __rt::IntoOwned::into_owned(result) },
        Self::Error { id, error } => #owned::Error { id: __rt::IntoOwned::into_owned(id), error: __rt::IntoOwned::into_owned(error) },
    });
    let batch = messages
        .batches
        .then(|| quote!(Self::Batch(items) => #owned::Batch(__rt::IntoOwned::into_owned(items)),));
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
}
