//! Unions → a Rust enum with a variant per member, and serde impls that dispatch on the kind of
//! JSON value instead of trying each member in turn. The visitor's methods come from the
//! strategies: [`scalars`] for strings, numbers, booleans, null and arrays; for objects one
//! member ([`Emitter::via`]), a tag's value or a member's value a spec rule reads ([`tagged`]),
//! or deciding keys and the structural match ([`keyed`]). The `From` impls and named constructors are in `emit::constructors`.

mod keyed;
mod scalars;
mod tagged;

use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, type_tokens, Scope};
use crate::ir::{JsonKind, ObjectDispatch, TypeExpr, Union};

/// The union being emitted, and what every strategy asks of it.
struct Emitter<'a> {
    scope: &'a Scope,
    /// The schema-derived Rust name (for errors: "a value of {name}").
    name: &'a str,
    u: &'a Union,
    /// The type as the family defines it (`X`, `XRef<'de>`).
    ty: TokenStream,
    /// Its path in expressions and patterns (`X`, `XRef`).
    path: TokenStream,
    /// Whether this is the borrowed family: a borrowed union decodes from the input's text,
    /// lent for `'de` (a copy would not live long enough); the owned ones decode from a copy
    /// where the input lent none.
    borrowed: bool,
}

impl Emitter<'_> {
    /// The member `index`, deserialized from `deserializer` and wrapped in its variant.
    fn via(&self, index: usize, deserializer: TokenStream) -> TokenStream {
        let path = &self.path;
        let variant = ident(&self.u.variants[index].name);
        quote!(__rt::serde::Deserialize::deserialize(#deserializer).map(#path::#variant))
    }

    /// Decodes a buffered `value` as each of `members` in turn, the first error kept as the
    /// closest.
    fn trial(&self, members: &[usize], error: TokenStream) -> TokenStream {
        let Scope {
            option,
            some,
            none,
            ok,
            err,
            ..
        } = self.scope;
        let (path, name) = (&self.path, self.name);
        let buffered_value = if self.borrowed {
            quote!(value.clone())
        } else {
            quote!(&value)
        };
        let attempts = members.iter().map(|&i| {
            let variant = ident(&self.u.variants[i].name);
            let ty = type_tokens(self.scope, &self.u.variants[i].ty);
            quote! {
                match <#ty as __rt::serde::Deserialize>::deserialize(#buffered_value) {
                    #ok(found) => return #ok(#path::#variant(found)),
                    #err(e) => {
                        __rt::forget_since(mark);
                        if closest.is_none() { closest = #some(e); }
                    }
                }
            }
        });
        quote! {
            let mark = __rt::path_mark();
            let mut closest: #option<__rt::serde_json::Error> = #none;
            #(#attempts)*
            #err(__rt::no_member_matched::<#error>(#name, closest))
        }
    }

    /// The body of `visit_map`: how an object finds its member.
    fn map_body(&self) -> Option<TokenStream> {
        match &self.u.objects {
            ObjectDispatch::None => None,
            ObjectDispatch::Single(i) => Some(self.via(
                *i,
                quote!(__rt::serde::de::value::MapAccessDeserializer::new(map)),
            )),
            ObjectDispatch::Tagged {
                tag,
                cases,
                default,
            } => Some(tagged::decode(self, tag, cases, *default)),
            ObjectDispatch::ByValue {
                tag,
                cases,
                otherwise,
            } => Some(tagged::by_value(self, tag, cases, *otherwise)),
            ObjectDispatch::Keyed {
                deciding,
                fallback,
                names,
                partition,
            } => Some(keyed::decode(
                self,
                deciding,
                fallback,
                names,
                partition.as_ref(),
            )),
        }
    }
}

pub(super) fn emit_union(scope: &Scope, name: &str, head: TokenStream, u: &Union) -> TokenStream {
    let (ty, path, generics) = scope.defined(name);
    let emitter = Emitter {
        scope,
        name,
        u,
        ty: ty.clone(),
        path,
        borrowed: scope.is_borrowed(),
    };
    let result = &scope.result;
    let variants = variants(scope, u);
    let ser_arms = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        quote!(Self::#variant(value) => __rt::serde::Serialize::serialize(value, serializer),)
    });
    let mut visits = scalars::visits(&emitter);
    if let Some(body) = emitter.map_body() {
        visits.push(quote!(fn visit_map<M: __rt::serde::de::MapAccess<'de>>(self, map: M) -> #result<Self::Value, M::Error> { #body }));
    }
    let expecting = format!("a value of {name}: {}", expecting(u));
    let keyed_decode = keyed::keyed_union_impl(&emitter);
    // A union of strings, integers and booleans (`RequestId`, `ProgressToken`) keys maps of
    // pending requests: `Eq` and `Hash` are sound for it.
    let scalar =
        |ty: &TypeExpr| matches!(ty, TypeExpr::String | TypeExpr::Integer | TypeExpr::Boolean);
    let key_derives = if u.variants.iter().all(|v| scalar(&v.ty)) {
        quote!(Eq, Hash,)
    } else {
        TokenStream::new()
    };
    // A union of objects only asks for a map: serde_json's `deserialize_map` is half the code of
    // its `deserialize_any`, compiled once per union, and refuses other values the same way.
    let objects_only = u
        .variants
        .iter()
        .all(|v| v.kinds.iter().eq([&JsonKind::Object]));
    let ask = if objects_only {
        quote!(deserialize_map)
    } else {
        quote!(deserialize_any)
    };
    quote! {
        #head
        #[derive(Debug, Clone, PartialEq, #key_derives)]
        pub enum #ty {
            #(#variants)*
        }

        impl #generics __rt::serde::Serialize for #ty {
            fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                match self {
                    #(#ser_arms)*
                }
            }
        }

        impl<'de> __rt::serde::Deserialize<'de> for #ty {
            fn deserialize<D: __rt::serde::Deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                struct UnionVisitor;
                impl<'de> __rt::serde::de::Visitor<'de> for UnionVisitor {
                    type Value = #ty;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(#expecting)
                    }
                    #(#visits)*
                }
                deserializer.#ask(UnionVisitor)
            }
        }

        #keyed_decode
    }
}

/// The enum's variants, each documented with the member it holds.
fn variants(scope: &Scope, u: &Union) -> Vec<TokenStream> {
    let borrowed = scope.is_borrowed();
    let boxed = &scope.boxed;
    u.variants
        .iter()
        .map(|v| {
            let variant = ident(&v.name);
            let ty = type_tokens(scope, &v.ty);
            let ty = if v.boxed { quote!(#boxed<#ty>) } else { ty };
            let doc = match &v.ty {
                // The borrowed family links its own form, or the owned type it uses.
                TypeExpr::Named(n) if borrowed && scope.has_form(n) => format!(" A [`{n}Ref`]."),
                TypeExpr::Named(n) if borrowed => format!(" A [`{n}`](super::{n})."),
                TypeExpr::Named(n) => format!(" A [`{n}`]."),
                TypeExpr::String => " A string.".to_owned(),
                TypeExpr::Integer => " An integer.".to_owned(),
                TypeExpr::Number => " A number.".to_owned(),
                TypeExpr::Boolean => " A boolean.".to_owned(),
                TypeExpr::Array(_) => " An array.".to_owned(),
                TypeExpr::Map(_) => " An object.".to_owned(),
                TypeExpr::Any | TypeExpr::Nullable(_) => " Any other value.".to_owned(),
            };
            quote!(#[doc = #doc] #variant(#ty),)
        })
        .collect()
}

/// The body of `into_owned` for the borrowed form of a union: variant by variant.
pub(super) fn union_into_owned(scope: &Scope, name: &str, u: &Union) -> TokenStream {
    let owned = scope.owned(name);
    let arms = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        quote!(Self::#variant(value) => #owned::#variant(__rt::IntoOwned::into_owned(value)),)
    });
    quote!(match self { #(#arms)* })
}

/// `From` conversions into a union from the values of its string and integer members:
/// `From<i64>`, `From<String>` and `From<&str>`, each building its member. Emitted for the
/// JSON-RPC request id (`RequestId`: `7.into()`, `"abc".into()`; `RequestIdRef<'de>` borrows
/// the `&'de str`). A member whose type another member shares gets none (the conversion would
/// not say which), nor does a boxed one.
pub(super) fn emit_scalar_conversions(scope: &Scope, name: &str, u: &Union) -> TokenStream {
    let (ty, _, generics) = scope.defined(name);
    let string = &scope.string;
    // The borrowed member is a `Str<'de>`, built from either.
    let (text, string_value) = if scope.is_borrowed() {
        (quote!(&'de str), quote!(::core::convert::From::from(value)))
    } else {
        (quote!(&str), quote!(value))
    };
    let unique = |t: &TypeExpr| u.variants.iter().filter(|v| v.ty == *t).count() == 1;
    u.variants
        .iter()
        .filter(|v| !v.boxed && unique(&v.ty))
        .map(|v| {
            let variant = ident(&v.name);
            match v.ty {
                TypeExpr::Integer => quote! {
                    impl #generics ::core::convert::From<i64> for #ty {
                        fn from(value: i64) -> Self {
                            Self::#variant(value)
                        }
                    }
                },
                TypeExpr::String => quote! {
                    impl #generics ::core::convert::From<#string> for #ty {
                        fn from(value: #string) -> Self {
                            Self::#variant(#string_value)
                        }
                    }
                    impl #generics ::core::convert::From<#text> for #ty {
                        fn from(value: #text) -> Self {
                            Self::#variant(::core::convert::From::from(value))
                        }
                    }
                },
                _ => TokenStream::new(),
            }
        })
        .collect()
}

/// The human description of what a union accepts, for decode errors.
fn expecting(u: &Union) -> String {
    u.variants
        .iter()
        .map(|v| v.name.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}
