//! Objects told apart by a constant member (`type: "text"`): the tag is read first (or found
//! among the members, the others buffered), and the object decodes straight into the member it
//! names, which is told the tag was consumed. Objects told apart by the value of a plain
//! member, by a spec rule ([`by_value`]), stream into their member with that member kept.

use proc_macro2::TokenStream;
use quote::quote;

use super::Emitter;
use crate::emit::ident;

/// The body of `visit_map` for a tagged union: `cases` maps each tag value to its member;
/// `default` takes an object without the tag.
pub(super) fn decode(
    e: &Emitter,
    tag: &str,
    cases: &[(String, usize)],
    default: Option<usize>,
) -> TokenStream {
    let (some, none, err) = (&e.scope.some, &e.scope.none, &e.scope.err);
    let path = &e.path;
    let arms = cases.iter().map(|(value, i)| {
        let variant = ident(&e.u.variants[*i].name);
        quote!(#some(#value) => __rt::MapDecode::decode_map(rest, #some(#tag)).map(#path::#variant),)
    });
    let values: Vec<&str> = cases.iter().map(|(v, _)| v.as_str()).collect();
    let absent = match default {
        Some(i) => {
            let variant = ident(&e.u.variants[i].name);
            quote!(#none => __rt::MapDecode::decode_map(rest, #none).map(#path::#variant),)
        }
        None => {
            quote!(#none => #err(__rt::unknown_tag(#tag, #none, &[#(#values),*])),)
        }
    };
    let decode_tagged = if e.borrowed {
        quote!(decode_tagged_lent)
    } else {
        quote!(decode_tagged)
    };
    quote! {
        __rt::#decode_tagged(map, #tag, |tag, rest| match tag {
            #(#arms)*
            #absent
            #some(other) => #err(__rt::unknown_tag(#tag, #some(other), &[#(#values),*])),
        })
    }
}

/// The body of `visit_map` for a union whose member a member's value names by a spec rule
/// (`ObjectDispatch::ByValue`: `resultType`): the members up to that one are read ahead, then
/// the object streams, that member included, into the member of `cases` its value names, or
/// else into `otherwise`, which reports what is wrong with it.
pub(super) fn by_value(
    e: &Emitter,
    tag: &str,
    cases: &[(String, usize)],
    otherwise: usize,
) -> TokenStream {
    let (some, none) = (&e.scope.some, &e.scope.none);
    let path = &e.path;
    let stream = |i: usize| {
        let variant = ident(&e.u.variants[i].name);
        quote!(__rt::MapDecode::decode_map(__rt::stream_rest(read, map), #none).map(#path::#variant))
    };
    let arms = cases.iter().map(|(value, i)| {
        let decode = stream(*i);
        quote!(#some(#value) => #decode,)
    });
    let decode_otherwise = stream(otherwise);
    let from_text = if e.borrowed {
        quote!(__rt::not_lent(&text))
    } else {
        quote!(__rt::from_text(&text))
    };
    quote! {
        match __rt::read_partition(map, #tag)? {
            __rt::Partitioned::Read(value, read, map) => match value.as_deref() {
                #(#arms)*
                _ => #decode_otherwise,
            },
            __rt::Partitioned::Text(text) => #from_text,
        }
    }
}
