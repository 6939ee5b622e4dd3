//! Objects told apart by which members they have. A member only one alternative declares
//! decides on sight (`KeyedUnion::decode_keyed`); without one, the structural match buffers
//! the object and tries the alternatives its members allow, closest first. A string member
//! whose value partitions the alternatives (`Partition`) narrows the match before it.

use proc_macro2::TokenStream;
use quote::quote;

use super::Emitter;
use crate::emit::ident;
use crate::emit::scope::structural_shapes;
use crate::ir::{ObjectDispatch, Partition, StructuralCase};

/// The body of `visit_map` for a keyed union: the structural match (a local fn `matched`),
/// entered at once or after the partitioning member was read.
pub(super) fn decode(
    e: &Emitter,
    deciding: &[(String, usize)],
    fallback: &[StructuralCase],
    names: &[String],
    partition: Option<&Partition>,
) -> TokenStream {
    let matched = structural_match(e, deciding, fallback, names);
    match partition {
        None => quote! {
            #matched
            matched(__rt::buffer_object(map)?, !0)
        },
        Some(partition) => partitioned(e, fallback, partition, matched),
    }
}

/// `fn matched(object, candidates)`: the structural match among the `candidates` (bit `i`:
/// `fallback[i]`), in the order `__rt::structural` ranks them.
fn structural_match(
    e: &Emitter,
    deciding: &[(String, usize)],
    fallback: &[StructuralCase],
    names: &[String],
) -> TokenStream {
    let crate::emit::Scope {
        result,
        ok,
        err,
        some,
        none,
        ..
    } = e.scope;
    let (ty, path, name) = (&e.ty, &e.path, e.name);
    let buffered_value_of = if e.borrowed {
        quote!(value.lent())
    } else {
        quote!(&value)
    };
    let shapes = structural_shapes(deciding, fallback, names);
    let arms = fallback.iter().enumerate().map(|(case, c)| {
        let variant = ident(&e.u.variants[c.variant].name);
        quote!(#case => __rt::serde::Deserialize::deserialize(#buffered_value_of).map(#path::#variant),)
    });
    quote! {
        fn matched<'de, E: __rt::serde::de::Error>(object: __rt::Buffered<'de>, candidates: u64) -> #result<#ty, E> {
            let (value, order) = __rt::structural(object, &[#(#names),*], &[#(#shapes),*], candidates);
            let mark = __rt::path_mark();
            let mut closest = #none;
            for case in order {
                let attempt = match case {
                    #(#arms)*
                    _ => continue,
                };
                match attempt {
                    #ok(found) => return #ok(found),
                    #err(error) => {
                        __rt::forget_since(mark);
                        if closest.is_none() {
                            closest = #some(error);
                        }
                    }
                }
            }
            #err(__rt::no_member_matched(#name, closest))
        }
    }
}

/// The partitioning member read first: a value one alternative allows streams the object into
/// it; a value several allow narrows the structural match to them.
fn partitioned(
    e: &Emitter,
    fallback: &[StructuralCase],
    partition: &Partition,
    matched: TokenStream,
) -> TokenStream {
    let (some, none, err) = (&e.scope.some, &e.scope.none, &e.scope.err);
    let path = &e.path;
    let partition_text = if e.borrowed {
        quote!(__rt::not_lent(&text))
    } else {
        quote!(__rt::from_text(&text))
    };
    let tag = &partition.tag;
    let arms = partition.cases.iter().map(|(value, cases)| match cases[..] {
        // One member allows the value: the object streams into it.
        [case] => {
            let variant = ident(&e.u.variants[fallback[case].variant].name);
            quote!(#some(#value) => __rt::MapDecode::decode_map(__rt::stream_rest(read, map), #none).map(#path::#variant),)
        }
        _ => {
            let set = cases.iter().fold(0u64, |set, case| set | 1 << case);
            let set = syn::LitInt::new(&format!("{set:#b}"), proc_macro2::Span::call_site());
            quote!(#some(#value) => matched(__rt::buffer_rest(read, map)?, #set),)
        }
    });
    let values = partition.cases.iter().map(|(value, _)| value);
    quote! {
        #matched
        match __rt::read_partition(map, #tag)? {
            __rt::Partitioned::Read(value, read, map) => match value.as_deref() {
                #(#arms)*
                #some(other) => #err(__rt::unknown_tag(#tag, #some(other), &[#(#values),*])),
                // Absent, or not a string: the structural match says which
                // member comes closest.
                #none => matched(__rt::buffer_rest(read, map)?, !0),
            },
            __rt::Partitioned::Text(text) => #partition_text,
        }
    }
}

/// `KeyedUnion` for a union with deciding members: what a message envelope calls to decode its
/// `params`/`result` member by member. The last decided member takes every other index: the
/// table names none other.
pub(super) fn keyed_union_impl(e: &Emitter) -> TokenStream {
    let ObjectDispatch::Keyed { deciding, .. } = &e.u.objects else {
        return TokenStream::new();
    };
    let (result, none) = (&e.scope.result, &e.scope.none);
    let (ty, path) = (&e.ty, &e.path);
    let mut decided: Vec<usize> = deciding.iter().map(|(_, i)| *i).collect();
    decided.sort_unstable();
    decided.dedup();
    let Some((last, others)) = decided.split_last() else {
        return TokenStream::new();
    };
    let (buffered_object, keyed_text) = if e.borrowed {
        (quote!(object.lent()), quote!(__rt::not_lent(&text)))
    } else {
        (quote!(&object), quote!(__rt::keyed_from_text(&text)))
    };
    let table = deciding.iter().map(|(key, i)| quote!((#key, #i)));
    let found_arms = others.iter().map(|i| {
        let variant = ident(&e.u.variants[*i].name);
        quote!(#i => __rt::MapDecode::decode_map(rest, #none).map(#path::#variant),)
    });
    let last_variant = ident(&e.u.variants[*last].name);
    let decode_last = quote!(__rt::MapDecode::decode_map(rest, #none).map(#path::#last_variant));
    let found = if others.is_empty() {
        quote!(__rt::Keyed::Found(_, rest) => #decode_last,)
    } else {
        quote!(__rt::Keyed::Found(index, rest) => match index {
            #(#found_arms)*
            _ => #decode_last,
        },)
    };
    quote! {
        impl<'de> __rt::KeyedUnion<'de> for #ty {
            fn decode_keyed<M: __rt::serde::de::MapAccess<'de>>(map: M) -> #result<Self, M::Error> {
                match __rt::decode_keyed(map, &[#(#table),*])? {
                    #found
                    // No deciding member: the structural match, on what was buffered.
                    __rt::Keyed::Exhausted(object) => __rt::serde::Deserialize::deserialize(#buffered_object)
                        .map_err(__rt::serde::de::Error::custom),
                    // A member before the deciding one came from input that lent no
                    // text: the same decision, from the object's text.
                    __rt::Keyed::Text(text) => #keyed_text,
                }
            }
        }
    }
}
