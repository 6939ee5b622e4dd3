//! The message layer: call sets (`ClientRequest`, …) in [`calls`], the `ClientMessage` /
//! `ServerMessage` envelopes in [`envelope`]; here, the `Request` impls pairing requests with
//! results, the decode of each direction's results, and the revision's constants.

mod calls;
mod envelope;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub(in crate::emit) use self::calls::{calls_into_owned, emit_calls};
use super::{ident, resolve_alias, type_tokens, Scope};
use crate::ir::{Call, CallKind, Messages, Module, ObjectDispatch, TypeExpr, TypeKind};

/// The envelopes of a revision with direction unions, and, for the owned family, the request ↔
/// result pairing and the constants (`methods`, `error_codes`).
pub(super) fn emit_messages(module: &Module, scope: &Scope, messages: &Messages) -> TokenStream {
    let directions = messages
        .directions
        .iter()
        .map(|d| envelope::envelope(module, scope, messages, d));
    if scope.is_borrowed() {
        let request_refs = request_ref_impls(module, scope);
        return quote!(#(#directions)* #request_refs);
    }
    let request_impls = request_impls(module, scope);
    let constants = constants(module, messages);
    let error_visit = visit_error_code(module, scope, messages);
    quote! {
        #(#directions)*
        #(#request_impls)*
        #constants
        #error_visit
    }
}

/// `jsonrpc::Request` for every request type of the call sets, once each.
fn request_impls(module: &Module, scope: &Scope) -> Vec<TokenStream> {
    requests(module).map(|c| request_impl(scope, c)).collect()
}

/// The request types of the call sets, once each.
fn requests(module: &Module) -> impl Iterator<Item = &Call> {
    let sets = module.types.iter().filter_map(|t| match &t.kind {
        TypeKind::Calls(set) if set.kind == CallKind::Request => Some(set),
        _ => None,
    });
    let mut seen = std::collections::BTreeSet::new();
    sets.flat_map(|set| set.calls.iter())
        .filter(move |c| seen.insert(c.message_type.clone()))
}

/// The borrowed family's `RequestRef` for every request type that has a `Request` impl (those
/// of the call sets, or an extension's requests): the borrowed form of its result.
pub(super) fn request_ref_impls(module: &Module, scope: &Scope) -> TokenStream {
    let calls: Vec<&Call> = match module.messages {
        Some(_) => requests(module).collect(),
        None => module.extension_requests.iter().collect(),
    };
    let impls = calls.into_iter().map(|c| {
        let request = scope.owned(&c.message_type);
        let result = type_tokens(scope, &result_of(c));
        quote! {
            impl __rt::RequestRef for #request {
                type ResultRef<'de> = #result;
            }
        }
    });
    quote!(#(#impls)*)
}

/// The result type of a request: the generic result for one that names none.
fn result_of(c: &Call) -> TypeExpr {
    (c.result.clone()).unwrap_or_else(|| TypeExpr::Named("Result".into()))
}

/// `mod methods` (a constant per method name) and `mod error_codes`.
fn constants(module: &Module, messages: &Messages) -> TokenStream {
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
    quote! {
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

/// `visit_error_code`: the error responses the schema defines, each for the code it fixes (a
/// definition with `jsonrpc` and an `error` whose `code` is a constant), for code that checks an
/// error response as its code's own type.
fn visit_error_code(module: &Module, scope: &Scope, messages: &Messages) -> TokenStream {
    let Scope {
        option, some, none, ..
    } = scope;
    let arms: Vec<TokenStream> = messages
        .error_codes
        .iter()
        .filter_map(|(owner, code)| {
            let t = module.by_schema_name(owner)?;
            let TypeKind::Struct(s) = &t.kind else {
                return None;
            };
            let is_response =
                s.wire_names().any(|n| n == "jsonrpc") && s.wire_names().any(|n| n == "error");
            is_response.then(|| {
                let ty = ident(&t.name);
                let code = proc_macro2::Literal::i64_unsuffixed(*code);
                quote!(#code => visitor.visit::<#ty>(),)
            })
        })
        .collect();
    let body = if arms.is_empty() {
        quote!(let _ = (code, visitor); #none)
    } else {
        quote!(#some(match code {
            #(#arms)*
            _ => return #none,
        }))
    };
    quote! {
        /// Runs `visitor` with the type of the error response this revision's schema defines
        /// for `code`; `None` for a code without one (any error fits the generic error).
        pub fn visit_error_code<V: __rt::jsonrpc::VisitType>(code: i64, visitor: V) -> #option<V::Output> {
            #body
        }
    }
}

/// `jsonrpc::Request` for a request type: its method, params and result.
fn request_impl(scope: &Scope, c: &Call) -> TokenStream {
    let ty = ident(&c.message_type);
    let method = &c.method;
    let params = match &c.params {
        Some(p) => type_tokens(scope, p),
        None => quote!(()),
    };
    let result_ty = type_tokens(scope, &result_of(c));
    quote! {
        impl __rt::jsonrpc::Request for #ty {
            const METHOD: &'static str = #method;
            type Params = #params;
            type Result = #result_ty;
        }
    }
}

/// The requests of a schema without direction unions (an extension's): their `Request` impls.
pub(super) fn emit_extension_requests(scope: &Scope, calls: &[Call]) -> TokenStream {
    let impls = calls.iter().map(|c| request_impl(scope, c));
    quote!(#(#impls)*)
}

/// `DecodeResult` for a direction's result type: a keyed union streams into the member its
/// first deciding member names, a plain struct streams directly, any other type is decoded by
/// its own `Deserialize` from the map.
pub(super) fn result_decode(module: &Module, scope: &Scope, results: &TypeExpr) -> TokenStream {
    let Scope { result, none, .. } = scope;
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
            let target = scope.named(&target);
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
    let ty = if scope.is_borrowed() {
        scope.named(&target)
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
