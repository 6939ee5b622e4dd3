//! Objects told apart by a constant member (`type: "text"`): the tag is read first (or found
//! among the members, the others buffered), and the object decodes straight into the member it
//! names, which is told the tag was consumed.

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
