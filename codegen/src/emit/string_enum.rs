//! String enums (`"user" | "assistant"`) → a Rust enum of unit variants, `as_str`, `ALL`,
//! `Display` and serde impls.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::doc_attrs;
use super::{ident, Scope};

/// The enum and its impls.
pub(super) fn emit_string_enum(
    scope: &Scope,
    name: &str,
    head: TokenStream,
    values: &[crate::ir::EnumValue],
) -> TokenStream {
    let Scope {
        result, ok, err, ..
    } = scope;
    let name_ident = ident(name);
    let variants = values.iter().map(|v| {
        let variant = ident(&v.variant);
        let doc = format!(" `\"{}\"`", v.value);
        // The value's own description (an `anyOf` of constants) follows its wire form.
        let more = v.doc.as_ref().map(|text| {
            let text = doc_attrs(Some(text));
            quote!(#[doc = ""] #text)
        });
        quote!(#[doc = #doc] #more #variant,)
    });
    let as_str_arms = values.iter().map(|v| {
        let variant = ident(&v.variant);
        let value = &v.value;
        quote!(Self::#variant => #value,)
    });
    let de_arms = values.iter().map(|v| {
        let variant = ident(&v.variant);
        let value = &v.value;
        quote!(#value => #ok(Self::#variant),)
    });
    let all: Vec<&str> = values.iter().map(|v| v.value.as_str()).collect();
    let all_variants = values.iter().map(|v| ident(&v.variant));
    quote! {
        #head
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name_ident {
            #(#variants)*
        }

        impl #name_ident {
            /// Every value, in schema order.
            pub const ALL: &'static [Self] = &[#(Self::#all_variants),*];

            /// The value as it appears on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    #(#as_str_arms)*
                }
            }
        }

        impl ::core::fmt::Display for #name_ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl __rt::serde::Serialize for #name_ident {
            fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> __rt::serde::Deserialize<'de> for #name_ident {
            fn deserialize<D: __rt::serde::Deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                let key = <__rt::Key<'de> as __rt::serde::Deserialize<'de>>::deserialize(deserializer)?;
                match key.as_str() {
                    #(#de_arms)*
                    other => #err(__rt::serde::de::Error::unknown_variant(other, &[#(#all),*])),
                }
            }
        }
    }
}
