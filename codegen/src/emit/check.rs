//! The verdict path behind a cargo feature (`Config::verdict_feature`), in a hidden module
//! `__verdict`: `mcp_typed`'s `__private::check::Check` for every type; per direction, a whole
//! message judged (`client_message(text)`, with its method and id); per call set of requests,
//! a result judged by its method (`client_request_result(method, text)`).
//!
//! A struct mirrors its decoder (`structs`): the same member names, constants, members read as
//! integers, required members, refusal of a member twice and of undeclared members where the
//! schema allows none, with the rules `Validate` checks at each member (`constraints`). A union
//! of structs told apart by a tag, a member's value or its members goes into the member the
//! decoder takes (matched by members, tried in the decoder's order), a direction's keyed result
//! union likewise; call sets check a method's params. Every other type (unions of other kinds
//! of value, string enums, a struct with its own member counts) judges by decoding itself: the
//! same verdict at the decoder's cost. `Ok` from a check always means decoded and valid;
//! anything else sends the caller to the decoder, which says why.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::constraints::{rule_list, Analysis};
use super::scope::{consumed_param, member_read, structural_shapes, MemberRead};
use super::{resolve_alias, type_tokens, Scope};
use crate::ir::{
    Additional, CallSet, ConstValue, JsonKind, Module, ObjectDispatch, Partition, Struct,
    StructuralCase, TypeExpr, TypeKind, Union,
};

/// The hidden module `__verdict`, behind `#[cfg(feature = "<feature>")]`.
pub(super) fn emit_checks(module: &Module, scope: &Scope, feature: &str) -> TokenStream {
    let analysis = Analysis::new(module);
    let impls = module.types.iter().map(|t| {
        let (ty, _, _) = scope.defined(&t.name);
        match &t.kind {
            // A type alias is its target, which has its own.
            TypeKind::Alias(_) => TokenStream::new(),
            TypeKind::Struct(s) => struct_check(&analysis, scope, module, &t.name, &ty, s),
            TypeKind::Union(u) => match (&u.objects, object_members(module, scope, u)) {
                (
                    ObjectDispatch::Tagged {
                        tag,
                        cases,
                        default,
                    },
                    Some(members),
                ) => tagged_check(&ty, tag, cases, *default, &members),
                (
                    ObjectDispatch::ByValue {
                        tag,
                        cases,
                        otherwise,
                    },
                    Some(members),
                ) => by_value_check(&ty, tag, cases, *otherwise, &members),
                (
                    ObjectDispatch::Keyed {
                        deciding,
                        fallback,
                        names,
                        partition,
                    },
                    Some(members),
                ) => keyed_check(&ty, deciding, fallback, names, partition.as_ref(), &members),
                _ => by_decoding(&ty),
            },
            TypeKind::Calls(set) => {
                let calls = calls_check(scope, &ty, set);
                let by_decoding = by_decoding(&ty);
                quote!(#calls #by_decoding)
            }
            TypeKind::StringEnum(_) => by_decoding(&ty),
        }
    });
    let mut result_types = Vec::new();
    let results = module.messages.iter().flat_map(|m| {
        m.directions
            .iter()
            .filter_map(|d| d.requests.as_deref())
            .map(|set| results_of(module, scope, set))
    });
    let results: Vec<TokenStream> = results.collect();
    let direction_results = module
        .messages
        .iter()
        .flat_map(|m| &m.directions)
        .filter_map(|d| {
            let target = match resolve_alias(module, &d.results) {
                TypeExpr::Named(target) => target.clone(),
                _ => return None,
            };
            // 2026-07-28's two directions answer with the same `Result`.
            if result_types.contains(&target) {
                return None;
            }
            result_types.push(target.clone());
            Some(result_check(module, scope, &target))
        });
    let direction_results: Vec<TokenStream> = direction_results.collect();
    let messages = module.messages.iter().flat_map(|m| &m.directions).map(|d| {
        let ty = scope.named(&d.name);
        let function = format_ident!("{}", crate::naming::field_name(&d.name));
        let doc = format!(
            " Whether `text` is a `{}` that decodes and keeps every constraint: what it is (its \
             method and id), or `None`, which says nothing (decode it to see).",
            d.name
        );
        quote! {
            #[doc = #doc]
            pub fn #function(text: &str) -> ::core::option::Option<__rt::check::Judged<'_>> {
                __rt::check::message::<#ty>(text)
            }
        }
    });
    quote! {
        /// The verdict path (`mcp_typed::__private::check`): whether a value decodes and
        /// validates, read from its text without building it. For `mcp-check`.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub mod __verdict {
            #[allow(unused_imports)]
            use super::*;
            #(#impls)*
            #(#direction_results)*
            #(#messages)*
            #(#results)*
        }
    }
}

/// `Check` by decoding: the same verdict at the decoder's cost.
fn by_decoding(ty: &TokenStream) -> TokenStream {
    quote! {
        impl __rt::check::Check for #ty {
            fn check<'de, D: __rt::serde::Deserializer<'de>>(
                deserializer: D,
                rules: &'static [__rt::validate::Rule],
            ) -> ::core::result::Result<(), D::Error> {
                __rt::check::by_decoding::<Self, D>(deserializer, rules)
            }
        }
    }
}

/// The type of each member of a union whose members are all structs that take only objects
/// (what a tag or a deciding member streams into); `None` for any other union.
fn object_members(module: &Module, scope: &Scope, u: &Union) -> Option<Vec<TokenStream>> {
    let objects = std::collections::BTreeSet::from([JsonKind::Object]);
    (u.variants.iter())
        .map(|v| match resolve_alias(module, &v.ty) {
            TypeExpr::Named(name) if v.kinds == objects => match module.get(name)?.kind {
                TypeKind::Struct(_) => Some(scope.named(name)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// A union of structs judged from its object's members: `Check` by way of `CheckMap`, whose
/// `check_map` is `body` (`map` the object's members).
fn union_of_structs(ty: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        impl __rt::check::Check for #ty {
            fn check<'de, D: __rt::serde::Deserializer<'de>>(
                deserializer: D,
                _: &'static [__rt::validate::Rule],
            ) -> ::core::result::Result<(), D::Error> {
                __rt::check::check_struct::<Self, D>(deserializer)
            }
        }

        impl __rt::check::CheckMap for #ty {
            fn check_map<'de, A: __rt::serde::de::MapAccess<'de>>(
                map: A,
                _: ::core::option::Option<&str>,
            ) -> ::core::result::Result<(), A::Error> {
                #body
            }
        }
    }
}

/// A tagged union: the tag read (the members before it buffered, as the decoder does), then
/// the members of the object checked as the struct the tag names, told the tag was consumed.
fn tagged_check(
    ty: &TokenStream,
    tag: &str,
    cases: &[(String, usize)],
    default: Option<usize>,
    members: &[TokenStream],
) -> TokenStream {
    let arms = cases.iter().map(|(value, i)| {
        let member = &members[*i];
        quote! {
            ::core::option::Option::Some(#value) => {
                <#member as __rt::check::CheckMap>::check_map(rest, ::core::option::Option::Some(#tag))
            }
        }
    });
    let absent = match default {
        Some(i) => {
            let member = &members[i];
            quote!(::core::option::Option::None => <#member as __rt::check::CheckMap>::check_map(rest, ::core::option::Option::None),)
        }
        None => {
            quote!(::core::option::Option::None => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),)
        }
    };
    union_of_structs(
        ty,
        quote! {
                __rt::decode_tagged_lent(map, #tag, |tag, rest| match tag {
                    #(#arms)*
                    #absent
                    ::core::option::Option::Some(_) => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                })
        },
    )
}

/// A union whose member the value of a plain member names (`ObjectDispatch::ByValue`:
/// 2026-07-28's `resultType`): the members up to it read ahead, then the object streamed, that
/// member included, into the member its value names, or else into `otherwise`.
fn by_value_check(
    ty: &TokenStream,
    tag: &str,
    cases: &[(String, usize)],
    otherwise: usize,
    members: &[TokenStream],
) -> TokenStream {
    let stream = |i: usize| {
        let member = &members[i];
        quote!(<#member as __rt::check::CheckMap>::check_map(__rt::stream_rest(read, map), ::core::option::Option::None))
    };
    let arms = cases.iter().map(|(value, i)| {
        let check = stream(*i);
        quote!(::core::option::Option::Some(#value) => #check,)
    });
    let check_otherwise = stream(otherwise);
    union_of_structs(
        ty,
        quote! {
                match __rt::read_partition(map, #tag)? {
                    __rt::Partitioned::Read(value, read, map) => match value.as_deref() {
                        #(#arms)*
                        _ => #check_otherwise,
                    },
                    __rt::Partitioned::Text(_) => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                }
        },
    )
}

/// A union matched by its members (`ObjectDispatch::Keyed`), as the decoder matches it
/// (`union::keyed`): streamed into the member that a member only it declares decides, which
/// judges when the decoder, given all the object's members, would try it first; else the
/// object buffered, the members tried in the decoder's order, the first that decodes judging
/// (checked, and decoded only where the check does not pass); a partitioning member read
/// first, streaming the object into the one member its value allows.
fn keyed_check(
    ty: &TokenStream,
    deciding: &[(String, usize)],
    fallback: &[StructuralCase],
    names: &[String],
    partition: Option<&Partition>,
    members: &[TokenStream],
) -> TokenStream {
    let shapes = structural_shapes(deciding, fallback, names);
    let arms = fallback.iter().enumerate().map(|(case, c)| {
        let member = &members[c.variant];
        quote!(#case => __rt::check::matched_member::<#member, E>(&value),)
    });
    let streamed_arms = fallback.iter().enumerate().map(|(case, c)| {
        let member = &members[c.variant];
        quote!(#case => rest.check::<#member>(),)
    });
    let matched = quote! {
        const NAMES: &[&str] = &[#(#names),*];
        const SHAPES: &[__rt::Shape] = &[#(#shapes),*];
        fn matched<'de, E: __rt::serde::de::Error>(
            object: __rt::Buffered<'de>,
            candidates: u64,
        ) -> ::core::result::Result<(), E> {
            let (value, order) = __rt::structural(object, NAMES, SHAPES, candidates);
            for case in order {
                let tried = match case {
                    #(#arms)*
                    _ => continue,
                };
                if let ::core::option::Option::Some(verdict) = tried {
                    return verdict;
                }
            }
            ::core::result::Result::Err(__rt::check::left_to_the_decoder())
        }
        // Streamed into the member a member only it declares decides, when there is one.
        fn streamed<'de, A: __rt::serde::de::MapAccess<'de>>(
            read: __rt::Buffered<'de>,
            map: A,
            candidates: u64,
        ) -> ::core::result::Result<(), A::Error> {
            match __rt::check::read_to_deciding(read, map, NAMES, SHAPES, candidates)? {
                __rt::check::Deciding::Found(case, rest) => match case {
                    #(#streamed_arms)*
                    _ => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                },
                __rt::check::Deciding::Exhausted(object) => matched(object, candidates),
            }
        }
    };
    let body = match partition {
        None => quote!(streamed(::core::default::Default::default(), map, !0)),
        Some(partition) => {
            let tag = &partition.tag;
            let arms = partition.cases.iter().map(|(value, cases)| match cases[..] {
                [case] => {
                    let member = &members[fallback[case].variant];
                    quote! {
                        ::core::option::Option::Some(#value) => <#member as __rt::check::CheckMap>::check_map(
                            __rt::stream_rest(read, map),
                            ::core::option::Option::None,
                        ),
                    }
                }
                _ => {
                    let set = cases.iter().fold(0u64, |set, case| set | 1 << case);
                    let set = syn::LitInt::new(&format!("{set:#b}"), proc_macro2::Span::call_site());
                    quote!(::core::option::Option::Some(#value) => streamed(read, map, #set),)
                }
            });
            quote! {
                match __rt::read_partition(map, #tag)? {
                    __rt::Partitioned::Read(value, read, map) => match value.as_deref() {
                        #(#arms)*
                        ::core::option::Option::Some(_) => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                        ::core::option::Option::None => streamed(read, map, !0),
                    },
                    __rt::Partitioned::Text(_) => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                }
            }
        }
    };
    union_of_structs(
        ty,
        quote! {
                #matched
                #body
        },
    )
}

/// `CheckResult` for a direction's result type `target` (aliases resolved), as
/// `messages::result_decode` reads it: a struct from its members, a keyed union streamed into
/// the member its first deciding member names (an object without one decoded, as the decoder
/// matches it structurally), any other type by decoding.
fn result_check(module: &Module, scope: &Scope, target: &str) -> TokenStream {
    let ty = scope.named(target);
    let body = match module.get(target).map(|t| &t.kind) {
        Some(TypeKind::Struct(_)) => {
            quote!(<Self as __rt::check::CheckMap>::check_map(
                map,
                ::core::option::Option::None
            ))
        }
        Some(TypeKind::Union(u)) => match (&u.objects, object_members(module, scope, u)) {
            (ObjectDispatch::Keyed { deciding, .. }, Some(members)) if !deciding.is_empty() => {
                let pairs = deciding.iter().map(|(name, i)| quote!((#name, #i)));
                let indices: std::collections::BTreeSet<usize> =
                    deciding.iter().map(|(_, i)| *i).collect();
                let arms = indices.iter().map(|i| {
                    let member = &members[*i];
                    quote!(#i => <#member as __rt::check::CheckMap>::check_map(rest, ::core::option::Option::None),)
                });
                quote! {
                    match __rt::decode_keyed(map, &[#(#pairs),*])? {
                        __rt::Keyed::Found(index, rest) => match index {
                            #(#arms)*
                            _ => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                        },
                        // No deciding member (`{}`): the structural match, decoded as the
                        // decoder decodes it.
                        __rt::Keyed::Exhausted(object) => {
                            __rt::check::buffered_by_decoding::<Self, A::Error>(&object)
                        }
                        __rt::Keyed::Text(_) => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                    }
                }
            }
            _ => by_decoding_result(),
        },
        _ => by_decoding_result(),
    };
    quote! {
        impl __rt::check::CheckResult for #ty {
            fn check_result<'de, A: __rt::serde::de::MapAccess<'de>>(
                map: A,
            ) -> ::core::result::Result<(), A::Error> {
                #body
            }
        }
    }
}

/// A result decoded from the `result` object's members and validated.
fn by_decoding_result() -> TokenStream {
    quote!(__rt::check::result_by_decoding::<Self, A>(map))
}

/// `CheckCalls` for a call set: each method's params, as its `CallsDecode::from_params`.
fn calls_check(scope: &Scope, ty: &TokenStream, set: &CallSet) -> TokenStream {
    let arms = set.calls.iter().map(|c| {
        let method = &c.method;
        let check = match (&c.params, c.params_required) {
            (Some(params), true) => {
                let params = type_tokens(scope, params);
                quote!(__rt::check::required_params::<#params, D>(params))
            }
            (Some(params), false) => {
                let params = type_tokens(scope, params);
                quote!(__rt::check::optional_params::<#params, D>(params))
            }
            (None, _) => quote!(__rt::check::no_params::<D>(params)),
        };
        quote!(#method => #check.map(|()| #method),)
    });
    quote! {
        impl __rt::check::CheckCalls for #ty {
            fn check_params<'de, D: __rt::serde::Deserializer<'de>>(
                method: &str,
                params: ::core::option::Option<D>,
            ) -> ::core::result::Result<&'static str, D::Error> {
                match method {
                    #(#arms)*
                    _ => ::core::result::Result::Err(__rt::check::left_to_the_decoder()),
                }
            }
        }
    }
}

/// A struct's `Check` and `CheckMap`: one pass over the members, as its `MapDecode`.
fn struct_check(
    analysis: &Analysis,
    scope: &Scope,
    module: &Module,
    name: &str,
    ty: &TokenStream,
    s: &Struct,
) -> TokenStream {
    let check = quote! {
        impl __rt::check::Check for #ty {
            fn check<'de, D: __rt::serde::Deserializer<'de>>(
                deserializer: D,
                _: &'static [__rt::validate::Rule],
            ) -> ::core::result::Result<(), D::Error> {
                __rt::check::check_struct::<Self, D>(deserializer)
            }
        }
    };
    // Its own member counts are judged on the value.
    if analysis.objects.contains_key(name) {
        return quote! {
            #check

            impl __rt::check::CheckMap for #ty {
                fn check_map<'de, A: __rt::serde::de::MapAccess<'de>>(
                    map: A,
                    consumed: ::core::option::Option<&str>,
                ) -> ::core::result::Result<(), A::Error> {
                    __rt::check::map_by_decoding::<Self, A>(map, consumed)
                }
            }
        };
    }
    // A local per member, by its place among the wire names.
    let wire_names: Vec<&str> = s.wire_names().collect();
    let seen = |json_name: &str| {
        let at = wire_names.iter().position(|n| *n == json_name);
        format_ident!("seen_{}", at.unwrap_or_default())
    };
    // Constants, and members a union's tag stands for, start seen when the union read them.
    let const_locals = s.consts.iter().map(|c| {
        let (local, key) = (seen(&c.json_name), &c.json_name);
        quote!(let mut #local = consumed == ::core::option::Option::Some(#key);)
    });
    let field_locals = s.fields.iter().map(|f| {
        let (local, key) = (seen(&f.json_name), &f.json_name);
        if f.implied_const.is_some() {
            quote!(let mut #local = consumed == ::core::option::Option::Some(#key);)
        } else {
            quote!(let mut #local = false;)
        }
    });
    let const_arms = s.consts.iter().map(|c| {
        let (local, key) = (seen(&c.json_name), &c.json_name);
        match &c.value {
            ConstValue::String(v) => {
                quote!(#key => __rt::const_str(&mut map, &mut #local, #key, #v)?,)
            }
            ConstValue::Integer(v) => {
                quote!(#key => __rt::const_i64(&mut map, &mut #local, #key, #v)?,)
            }
            ConstValue::Bool(v) => {
                quote!(#key => __rt::const_bool(&mut map, &mut #local, #key, #v)?,)
            }
        }
    });
    let field_arms = s.fields.iter().map(|f| {
        let (local, key) = (seen(&f.json_name), &f.json_name);
        let rules = analysis.members.get(&(name, f.json_name.as_str()));
        let rules = rule_list(rules.map_or(&[][..], Vec::as_slice));
        match member_read(module, f) {
            MemberRead::Integer => {
                quote!(#key => __rt::check::integer_member(&mut map, &mut #local, #rules)?,)
            }
            MemberRead::NullableInteger => quote! {
                #key => __rt::check::nullable_integer_member(&mut map, &mut #local, #rules)?,
            },
            MemberRead::Plain | MemberRead::Items | MemberRead::Members => {
                let member_ty = type_tokens(scope, &f.ty);
                quote!(#key => __rt::check::member::<A, #member_ty>(&mut map, &mut #local, #rules)?,)
            }
        }
    });
    let (extra_local, fallback) = match &s.additional {
        Additional::Forbidden => (
            TokenStream::new(),
            quote! {
                other => {
                    return ::core::result::Result::Err(
                        __rt::serde::de::Error::unknown_field(other, &[#(#wire_names),*]),
                    )
                }
            },
        ),
        additional => {
            let (value_ty, rules) = match additional {
                Additional::Typed(values) => {
                    let rules = analysis.extra.get(name);
                    (
                        type_tokens(scope, values),
                        rule_list(rules.map_or(&[][..], Vec::as_slice)),
                    )
                }
                _ => (type_tokens(scope, &TypeExpr::Any), rule_list(&[])),
            };
            (
                quote!(let mut extra = __rt::check::Extra::default();),
                quote!(_ => extra.member::<A, #value_ty>(&mut map, key, #rules)?,),
            )
        }
    };
    let const_checks = s.consts.iter().map(|c| {
        let (local, key) = (seen(&c.json_name), &c.json_name);
        quote!(__rt::require_const(#local, #key)?;)
    });
    let required: Vec<_> = (s.fields.iter())
        .filter(|f| f.required && f.default_when_absent.is_none())
        .collect();
    let required_check = (!required.is_empty()).then(|| {
        let locals: Vec<_> = required.iter().map(|f| seen(&f.json_name)).collect();
        let keys = required.iter().map(|f| &f.json_name);
        quote! {
            if !(#(#locals)&&*) {
                return ::core::result::Result::Err(
                    __rt::first_missing(&[#((!#locals, #keys)),*]),
                );
            }
        }
    });
    let consumed_param = consumed_param(s);
    quote! {
        #check

        impl __rt::check::CheckMap for #ty {
            fn check_map<'de, A: __rt::serde::de::MapAccess<'de>>(
                mut map: A,
                #consumed_param: ::core::option::Option<&str>,
            ) -> ::core::result::Result<(), A::Error> {
                #(#const_locals)*
                #(#field_locals)*
                #extra_local
                while let ::core::option::Option::Some(key) = map.next_key::<__rt::Key<'de>>()? {
                    match key.as_str() {
                        #(#const_arms)*
                        #(#field_arms)*
                        #fallback
                    }
                }
                #(#const_checks)*
                #required_check
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// `<set>_result(method, text)`: whether `text` is a valid result of the request `method` of the
/// call set `set` (`None` for a method it does not have).
fn results_of(module: &Module, scope: &Scope, set: &str) -> TokenStream {
    let Some(TypeKind::Calls(calls)) = module.get(set).map(|t| &t.kind) else {
        return TokenStream::new();
    };
    let function = format_ident!("{}_result", crate::naming::field_name(set));
    let doc = format!(
        " Whether `text` is a result of the `{set}` request `method` that decodes and keeps every \
         constraint, as the reading `R` reads it (with `Passes`, `Some(false)` says \
         nothing, decode it to see); `None` for a method of no request of the set."
    );
    let arms = calls.calls.iter().filter_map(|c| {
        let result = type_tokens(scope, c.result.as_ref()?);
        let method = &c.method;
        Some(quote!(#method => R::read::<#result>(text),))
    });
    quote! {
        #[doc = #doc]
        pub fn #function<'t, R: __rt::check::ReadResult<'t>>(
            method: &str,
            text: &'t str,
        ) -> ::core::option::Option<R::Out> {
            ::core::option::Option::Some(match method {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
    }
}
