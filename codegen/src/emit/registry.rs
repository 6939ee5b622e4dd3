//! The test hooks behind a cargo feature: `__roundtrip`, `__validate`, `__json_schema` and
//! `__check` (decode and encode, decode and validate, the JSON Schema of, or the verdict path's
//! judgement as, the type of a definition named at run time), and the borrowed family's
//! `__equivalent` (its decode against the owned one).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{ident, Scope};
use crate::ir::{Module, TypeKind};

pub(super) fn registry(
    module: &Module,
    feature: &str,
    schemars_feature: Option<&str>,
    verdict_feature: Option<&str>,
) -> TokenStream {
    let definitions: Vec<(&str, Ident)> = module
        .types
        .iter()
        .filter(|t| !matches!(t.kind, crate::ir::TypeKind::Calls(_)))
        .filter_map(|t| Some((t.schema_name.as_deref()?, ident(&t.name))))
        .collect();
    let arms = definitions
        .iter()
        .map(|(schema_name, ty)| quote!(#schema_name => roundtrip::<#ty>(json),));
    let validate_arms = definitions
        .iter()
        .map(|(schema_name, ty)| quote!(#schema_name => validate::<#ty>(json),));
    let json_schema = schemars_feature.map(|schemars_feature| {
        let arms = definitions
            .iter()
            .map(|(schema_name, ty)| quote!(#schema_name => __rt::schemars::schema_for!(#ty),));
        quote! {
            /// The JSON Schema (`schemars::schema_for!`) of the type generated for the definition
            /// named `definition` (schema spelling); `None` for an unknown name. For tests.
            #[doc(hidden)]
            #[cfg(all(feature = #feature, feature = #schemars_feature))]
            pub fn __json_schema(definition: &str) -> ::core::option::Option<__rt::schemars::Schema> {
                ::core::option::Option::Some(match definition {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    });
    let check = verdict_feature.map(|verdict_feature| {
        let arms = definitions
            .iter()
            .map(|(schema_name, ty)| quote!(#schema_name => __rt::check::text::<#ty>(json),));
        quote! {
            /// The verdict path's judgement of `json` as the definition named `definition`
            /// (schema spelling): `true` only when it decodes and validates; `None` for an
            /// unknown name. For tests.
            #[doc(hidden)]
            #[cfg(all(feature = #feature, feature = #verdict_feature))]
            pub fn __check(definition: &str, json: &str) -> ::core::option::Option<bool> {
                ::core::option::Option::Some(match definition {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    });
    quote! {
        /// Decodes `json` as the definition named `definition` (schema spelling) and encodes it
        /// again; `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __roundtrip(
            definition: &str,
            json: &str,
        ) -> ::core::option::Option<::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error>> {
            fn roundtrip<T: __rt::serde::Serialize + __rt::serde::de::DeserializeOwned>(
                json: &str,
            ) -> ::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error> {
                let value: T = __rt::serde_json::from_str(json)?;
                __rt::serde_json::to_value(&value)
            }
            ::core::option::Option::Some(match definition {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
        /// Decodes `json` as the definition named `definition` (schema spelling) and validates
        /// it (`Validate::validate`); `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __validate(
            definition: &str,
            json: &str,
        ) -> ::core::option::Option<::core::result::Result<::core::result::Result<(), __rt::validate::Violations>, __rt::serde_json::Error>> {
            fn validate<T: __rt::Validate + __rt::serde::de::DeserializeOwned>(
                json: &str,
            ) -> ::core::result::Result<::core::result::Result<(), __rt::validate::Violations>, __rt::serde_json::Error> {
                __rt::serde_json::from_str::<T>(json).map(|value| value.validate())
            }
            ::core::option::Option::Some(match definition {
                #(#validate_arms)*
                _ => return ::core::option::Option::None,
            })
        }
        #json_schema
        #check
    }
}

/// `__equivalent(definition, json)`: the borrowed decode of `json` as the definition, made
/// owned, against the owned decode (for the tests).
pub(super) fn borrowed_registry(module: &Module, scope: &Scope, feature: &str) -> TokenStream {
    let arms = module
        .types
        .iter()
        .filter(|t| !matches!(t.kind, TypeKind::Calls(_)))
        .filter_map(|t| {
            let schema_name = t.schema_name.as_deref()?;
            let owned = ident(&t.name);
            let borrowed = scope.named(&t.name);
            Some(quote!(#schema_name => equivalent::<#borrowed, super::#owned>(json),))
        });
    quote! {
        /// Decodes `json` as the definition named `definition` (schema spelling) both ways: the
        /// error, or that the borrowed decode differs from the owned one (made owned, or
        /// encoded); `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __equivalent<'de>(
            definition: &str,
            json: &'de str,
        ) -> ::core::option::Option<::core::result::Result<(), ::std::string::String>> {
            fn equivalent<'de, B, O>(json: &'de str) -> ::core::result::Result<(), ::std::string::String>
            where
                B: __rt::serde::Deserialize<'de> + __rt::serde::Serialize + __rt::IntoOwned<Owned = O>,
                O: __rt::serde::de::DeserializeOwned + __rt::serde::Serialize + ::core::cmp::PartialEq + ::core::fmt::Debug,
            {
                let owned = __rt::serde_json::from_str::<O>(json);
                let borrowed = __rt::serde_json::from_str::<B>(json);
                match (owned, borrowed) {
                    (::core::result::Result::Ok(owned), ::core::result::Result::Ok(borrowed)) => {
                        let text = __rt::serde_json::to_string(&borrowed).map_err(|e| e.to_string())?;
                        let owned_text = __rt::serde_json::to_string(&owned).map_err(|e| e.to_string())?;
                        if text != owned_text {
                            return ::core::result::Result::Err(::std::format!("encodes as {text}, the owned as {owned_text}"));
                        }
                        let made_owned = borrowed.into_owned();
                        if made_owned != owned {
                            return ::core::result::Result::Err(::std::format!("made owned: {made_owned:?}, owned: {owned:?}"));
                        }
                        ::core::result::Result::Ok(())
                    }
                    (::core::result::Result::Err(owned), ::core::result::Result::Err(borrowed)) => {
                        if owned.to_string() == borrowed.to_string() {
                            ::core::result::Result::Ok(())
                        } else {
                            ::core::result::Result::Err(::std::format!("refused with `{borrowed}`, the owned with `{owned}`"))
                        }
                    }
                    (::core::result::Result::Ok(_), ::core::result::Result::Err(e)) => ::core::result::Result::Err(::std::format!("the borrowed refused: {e}")),
                    (::core::result::Result::Err(e), ::core::result::Result::Ok(_)) => ::core::result::Result::Err(::std::format!("the owned refused: {e}")),
                }
            }
            ::core::option::Option::Some(match definition {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
    }
}
