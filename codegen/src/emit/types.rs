//! Structs, string enums and unions → their Rust definitions and serde impls.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs::doc_attrs;
use super::{ident, resolve_alias, type_tokens, Std};
use crate::ir::{
    Additional, ConstValue, JsonKind, Module, ObjectDispatch, Struct, TypeExpr, Union,
};

/// `members` as a bit set over `names` (sorted, at most 64), written `0b…`.
fn name_set<'a>(names: &[String], members: impl IntoIterator<Item = &'a String>) -> TokenStream {
    let bits = members
        .into_iter()
        .filter_map(|m| names.binary_search(m).ok())
        .fold(0u64, |bits, i| bits | 1 << i);
    let literal = syn::LitInt::new(&format!("{bits:#b}"), proc_macro2::Span::call_site());
    quote!(#literal)
}

fn extra_type(std: &Std, additional: &Additional) -> Option<TokenStream> {
    let string = &std.string;
    match additional {
        Additional::Forbidden => None,
        // Unknown members come one by one, between the declared ones: a map, not one text.
        Additional::Any if std.is_borrowed() => Some(quote!(__rt::ExtraRef<'de>)),
        Additional::Any => Some(quote!(__rt::serde_json::Map<#string, __rt::serde_json::Value>)),
        Additional::Typed(ty) => Some(type_tokens(std, &TypeExpr::Map(Box::new(ty.clone())))),
    }
}

/// The decode local of a field. A field named after a member that starts with a digit
/// (`1st` → `_1st`) would make `f__1st`, which the `non_snake_case` lint warns about; no other
/// field name starts with `_`, so dropping it cannot make two locals equal.
fn local(rust_name: &str) -> proc_macro2::Ident {
    format_ident!(
        "f_{}",
        rust_name.trim_start_matches("r#").trim_start_matches('_')
    )
}

pub(super) fn emit_struct(
    std: &Std,
    name: &str,
    head: TokenStream,
    s: &Struct,
    module: &Module,
) -> TokenStream {
    let Std {
        option,
        some,
        none,
        result,
        ok,
        err,
        default_value,
        ..
    } = std;
    let (ty, _, generics) = std.defined(name);
    let wire_names: Vec<&str> = s.wire_names().collect();

    // The struct itself.
    let fields = s.fields.iter().map(|f| {
        let fallback = format!("The `{}` member.", f.json_name);
        let doc = doc_attrs(Some(f.doc.as_deref().unwrap_or(&fallback)));
        let field = ident(&f.rust_name);
        let ty = field_type(std, f);
        quote!(#doc pub #field: #ty,)
    });
    let extra_ty = extra_type(std, &s.additional);
    let extra_field = extra_ty.as_ref().map(|ty| {
        quote! {
            /// Members the schema does not declare, kept so that a round trip loses nothing.
            pub extra: #ty,
        }
    });
    let default = if s.fields.iter().all(|f| !f.required) {
        quote!(Default,)
    } else {
        TokenStream::new()
    };

    // Associated constants for the constant members.
    let consts = s.consts.iter().map(|c| {
        let cname = format_ident!("{}", c.rust_const);
        let doc = format!(" The value of the constant member `{}`.", c.json_name);
        match &c.value {
            ConstValue::String(v) => quote!(#[doc = #doc] pub const #cname: &'static str = #v;),
            ConstValue::Integer(v) => {
                let v = proc_macro2::Literal::i64_unsuffixed(*v);
                quote!(#[doc = #doc] pub const #cname: i64 = #v;)
            }
            ConstValue::Bool(v) => quote!(#[doc = #doc] pub const #cname: bool = #v;),
        }
    });
    let consts_impl = if s.consts.is_empty() {
        TokenStream::new()
    } else {
        quote!(impl #generics #ty { #(#consts)* })
    };

    // Serialize: constants, declared members, then the kept extras.
    let ser_consts = s.consts.iter().map(|c| {
        let key = &c.json_name;
        let cname = format_ident!("{}", c.rust_const);
        quote!(__rt::entry(&mut map, #key, &Self::#cname)?;)
    });
    let ser_fields = s.fields.iter().map(|f| {
        let key = &f.json_name;
        let field = ident(&f.rust_name);
        if f.required {
            quote!(__rt::entry(&mut map, #key, &self.#field)?;)
        } else {
            quote!(__rt::optional_entry(&mut map, #key, &self.#field)?;)
        }
    });
    let ser_extra = extra_ty
        .as_ref()
        .map(|_| quote!(__rt::serialize_extra(&mut map, &self.extra, &[#(#wire_names),*])?;));

    // Deserialize: one pass over the members.
    let const_locals = s.consts.iter().map(|c| {
        let seen = format_ident!("seen_{}", c.rust_const.to_lowercase());
        let key = &c.json_name;
        quote!(let mut #seen = consumed == #some(#key);)
    });
    let field_locals = s.fields.iter().map(|f| {
        let local = local(&f.rust_name);
        let ty = slot_type(std, f);
        match &f.implied_const {
            Some(implied) => {
                let key = &f.json_name;
                let enum_ty = type_tokens(std, &f.ty);
                let variant = ident(&implied.variant);
                quote! {
                    let mut #local: #ty = if consumed == #some(#key) {
                        #some(<#enum_ty>::#variant)
                    } else {
                        #none
                    };
                }
            }
            None => quote!(let mut #local = #none;),
        }
    });
    let extra_local = extra_ty
        .as_ref()
        .map(|ty| quote!(let mut extra: #ty = #default_value;));
    let const_arms = s.consts.iter().map(|c| {
        let key = &c.json_name;
        let seen = format_ident!("seen_{}", c.rust_const.to_lowercase());
        match &c.value {
            ConstValue::String(v) => {
                quote!(#key => __rt::const_str(&mut map, &mut #seen, #key, #v),)
            }
            ConstValue::Integer(v) => {
                quote!(#key => __rt::const_i64(&mut map, &mut #seen, #key, #v),)
            }
            ConstValue::Bool(v) => {
                quote!(#key => __rt::const_bool(&mut map, &mut #seen, #key, #v),)
            }
        }
    });
    let field_arms = s.fields.iter().map(|f| {
        let key = &f.json_name;
        let local = local(&f.rust_name);
        // Arrays and typed maps note the failing item on the error's path.
        let helper = match resolve_alias(module, &f.ty) {
            _ if f.boxed => quote!(field),
            TypeExpr::Array(_) => quote!(field_seq),
            TypeExpr::Map(value) if **value != TypeExpr::Any => quote!(field_map),
            _ => quote!(field),
        };
        quote!(#key => __rt::#helper(&mut map, &mut #local, #key),)
    });
    let fallback = match &s.additional {
        Additional::Forbidden => quote! {
            other => #err(__rt::serde::de::Error::unknown_field(other, &[#(#wire_names),*])),
        },
        _ => quote!(_ => __rt::extra(&mut map, &mut extra, key),),
    };
    let const_checks = s.consts.iter().map(|c| {
        let key = &c.json_name;
        let seen = format_ident!("seen_{}", c.rust_const.to_lowercase());
        quote!(__rt::require_const(#seen, #key)?;)
    });
    // Required members are matched all at once, so that the one way out when one is missing
    // drops every slot once (a `?` per member would drop the remaining slots at each).
    let required: Vec<&crate::ir::Field> = s
        .fields
        .iter()
        .filter(|f| f.required && f.default_when_absent.is_none())
        .collect();
    let required_locals: Vec<_> = required.iter().map(|f| local(&f.rust_name)).collect();
    let required_keys = required.iter().map(|f| &f.json_name);
    let build_fields = s.fields.iter().map(|f| {
        let field = ident(&f.rust_name);
        let local = local(&f.rust_name);
        if let Some(default) = &f.default_when_absent {
            quote!(#field: #local.unwrap_or_else(|| #default.into()),)
        } else {
            quote!(#field: #local,)
        }
    });
    let build_extra = extra_ty.as_ref().map(|_| quote!(extra,));
    let build = quote!(#ok(Self { #(#build_fields)* #build_extra }));
    let build = if required.is_empty() {
        build
    } else {
        quote! {
            match (#(#required_locals,)*) {
                (#(#some(#required_locals),)*) => #build,
                (#(#required_locals,)*) => #err(__rt::first_missing(&[#((#required_locals.is_none(), #required_keys)),*])),
            }
        }
    };
    let map_binding = if s.consts.is_empty() && s.fields.is_empty() && extra_ty.is_none() {
        quote!(map)
    } else {
        quote!(mut map)
    };
    // An object that allows no member has no arm but the refusal, which does not tell the type.
    let member_ty =
        (s.consts.is_empty() && s.fields.is_empty()).then(|| quote!(: #result<(), A::Error>));
    // Each member by its name; an object that allows none refuses the first without a match of
    // one arm.
    let dispatch = match (&s.additional, member_ty.is_some()) {
        (Additional::Forbidden, true) => {
            quote!(#err(__rt::serde::de::Error::unknown_field(key.as_str(), &[])))
        }
        _ => quote! {
            match key.as_str() {
                #(#const_arms)*
                #(#field_arms)*
                #fallback
            }
        },
    };
    let uses_consumed = !s.consts.is_empty() || s.fields.iter().any(|f| f.implied_const.is_some());
    let consumed_param = if uses_consumed {
        quote!(consumed)
    } else {
        quote!(_consumed)
    };

    quote! {
        #head
        #[derive(Debug, Clone, PartialEq, #default)]
        pub struct #ty {
            #(#fields)*
            #extra_field
        }

        #consts_impl

        impl #generics __rt::serde::Serialize for #ty {
            fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                let #map_binding = __rt::begin_map(serializer)?;
                #(#ser_consts)*
                #(#ser_fields)*
                #ser_extra
                __rt::end_map(map)
            }
        }

        impl<'de> __rt::serde::Deserialize<'de> for #ty {
            fn deserialize<D: __rt::serde::Deserializer<'de>>(deserializer: D) -> #result<Self, D::Error> {
                __rt::deserialize_struct(deserializer, #name)
            }
        }

        impl<'de> __rt::MapDecode<'de> for #ty {
            fn decode_map<A: __rt::serde::de::MapAccess<'de>>(
                mut map: A,
                #consumed_param: #option<&str>,
            ) -> #result<Self, A::Error> {
                #(#const_locals)*
                #(#field_locals)*
                #extra_local
                // One way out on an error, which drops the slots once (a `?` per member would
                // drop them all at each).
                let read: #result<(), A::Error> = loop {
                    let key = match map.next_key::<__rt::Key<'de>>() {
                        #ok(#some(key)) => key,
                        #ok(#none) => break #ok(()),
                        #err(error) => break #err(error),
                    };
                    let member #member_ty = #dispatch;
                    if let #err(error) = member {
                        break #err(error);
                    }
                };
                read?;
                #(#const_checks)*
                #build
            }
        }
    }
}

/// The body of `into_owned` for the borrowed form of a struct: member by member.
pub(super) fn struct_into_owned(std: &Std, name: &str, s: &Struct) -> TokenStream {
    let owned = std.owned(name);
    let fields = s.fields.iter().map(|f| {
        let field = ident(&f.rust_name);
        quote!(#field: __rt::IntoOwned::into_owned(self.#field),)
    });
    let extra = (s.additional != Additional::Forbidden)
        .then(|| quote!(extra: __rt::IntoOwned::into_owned(self.extra),));
    quote!(#owned { #(#fields)* #extra })
}

/// The Rust type of a field, with `Option` for optional members and `Box` to break cycles.
fn field_type(std: &Std, f: &crate::ir::Field) -> TokenStream {
    let Std { option, boxed, .. } = std;
    let inner = type_tokens(std, &f.ty);
    let inner = if f.boxed {
        quote!(#boxed<#inner>)
    } else {
        inner
    };
    if f.required {
        inner
    } else {
        quote!(#option<#inner>)
    }
}

/// The decode slot of a field: `Option` of what the member's value decodes to.
fn slot_type(std: &Std, f: &crate::ir::Field) -> TokenStream {
    let Std { option, boxed, .. } = std;
    let inner = type_tokens(std, &f.ty);
    let inner = if f.boxed {
        quote!(#boxed<#inner>)
    } else {
        inner
    };
    quote!(#option<#inner>)
}

pub(super) fn emit_string_enum(
    std: &Std,
    name: &str,
    head: TokenStream,
    values: &[crate::ir::EnumValue],
) -> TokenStream {
    let Std {
        result, ok, err, ..
    } = std;
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

pub(super) fn emit_union(std: &Std, name: &str, head: TokenStream, u: &Union) -> TokenStream {
    let Std {
        option,
        some,
        none,
        result,
        ok,
        err,
        boxed,
        ..
    } = std;
    let (ty, path, generics) = std.defined(name);
    let borrowed = std.is_borrowed();
    // What a borrowed union decodes from: the input's text, lent for `'de` (a copy would not
    // live long enough); the owned ones decode from a copy where the input lent none.
    let (buffered_value, buffered_object) = if borrowed {
        (quote!(value.clone()), quote!(object.lent()))
    } else {
        (quote!(&value), quote!(&object))
    };
    let buffered_value_of = if borrowed {
        quote!(value.lent())
    } else {
        quote!(&value)
    };
    let (partition_text, keyed_text) = if borrowed {
        (quote!(__rt::not_lent(&text)), quote!(__rt::not_lent(&text)))
    } else {
        (
            quote!(__rt::from_text(&text)),
            quote!(__rt::keyed_from_text(&text)),
        )
    };
    let variants = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        let ty = type_tokens(std, &v.ty);
        let ty = if v.boxed { quote!(#boxed<#ty>) } else { ty };
        let doc = match &v.ty {
            // The borrowed family links its own form, or the owned type it uses.
            TypeExpr::Named(n) if borrowed && std.has_form(n) => format!(" A [`{n}Ref`]."),
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
    });
    let ser_arms = u.variants.iter().map(|v| {
        let variant = ident(&v.name);
        quote!(Self::#variant(value) => __rt::serde::Serialize::serialize(value, serializer),)
    });

    // Which members take each kind of non-object value. A member that takes any value is the
    // fallback for kinds no other member claims. Integers go to an integer member before a
    // number member. Where several members take the same kind (JSON-RPC batches: two array
    // members), the value is buffered and the members are tried in schema order.
    let any_member = u.variants.iter().position(|v| v.ty == TypeExpr::Any);
    let claimants = |kind: JsonKind, exclude_numbers: bool| -> Vec<usize> {
        let found: Vec<usize> = u
            .variants
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                Some(*i) != any_member
                    && v.kinds.contains(&kind)
                    && !(exclude_numbers && v.kinds.contains(&JsonKind::Number))
            })
            .map(|(i, _)| i)
            .collect();
        if found.is_empty() {
            any_member
                .filter(|_| !exclude_numbers)
                .into_iter()
                .collect()
        } else {
            found
        }
    };
    let via = |index: usize, deserializer: TokenStream| -> TokenStream {
        let variant = ident(&u.variants[index].name);
        quote!(__rt::serde::Deserialize::deserialize(#deserializer).map(#path::#variant))
    };
    // Decodes a buffered `value` as each member in turn.
    let trial = |members: &[usize], error: TokenStream| -> TokenStream {
        let attempts = members.iter().map(|&i| {
            let variant = ident(&u.variants[i].name);
            let ty = type_tokens(std, &u.variants[i].ty);
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
    };
    let scalar = |kind: JsonKind,
                  exclude_numbers: bool,
                  direct: TokenStream,
                  buffered: TokenStream,
                  error: TokenStream|
     -> Option<TokenStream> {
        let members = claimants(kind, exclude_numbers);
        match members.len() {
            0 => None,
            1 => Some(via(members[0], direct)),
            _ => {
                let body = trial(&members, error);
                Some(quote!(let value: __rt::serde_json::Value = #buffered; #body))
            }
        }
    };
    let mut visits = Vec::new();
    let integer_excludes_numbers = !claimants(JsonKind::Integer, true).is_empty();
    // (kind, integers only, visitor method, its value parameter, the value as a deserializer,
    // the value as a buffered `Value`)
    let scalars = [
        (
            JsonKind::String,
            false,
            quote!(visit_str),
            quote!(value: &str),
            quote!(StrDeserializer::<E>::new(value)),
        ),
        (
            JsonKind::Boolean,
            false,
            quote!(visit_bool),
            quote!(value: bool),
            quote!(BoolDeserializer::<E>::new(value)),
        ),
        (
            JsonKind::Integer,
            integer_excludes_numbers,
            quote!(visit_i64),
            quote!(value: i64),
            quote!(I64Deserializer::<E>::new(value)),
        ),
        (
            JsonKind::Integer,
            integer_excludes_numbers,
            quote!(visit_u64),
            quote!(value: u64),
            quote!(U64Deserializer::<E>::new(value)),
        ),
        (
            JsonKind::Number,
            false,
            quote!(visit_f64),
            quote!(value: f64),
            quote!(F64Deserializer::<E>::new(value)),
        ),
    ];
    for (kind, integers_only, method, param, direct) in scalars {
        let direct = quote!(__rt::serde::de::value::#direct);
        if let Some(body) = scalar(
            kind,
            integers_only,
            direct,
            quote!(__rt::serde_json::Value::from(value)),
            quote!(E),
        ) {
            visits.push(quote!(fn #method<E: __rt::serde::de::Error>(self, #param) -> #result<Self::Value, E> { #body }));
        }
    }
    // A borrowed string member keeps the input's text where it has no escape.
    if borrowed {
        if let [member] = claimants(JsonKind::String, false)[..] {
            let body = via(
                member,
                quote!(__rt::serde::de::value::BorrowedStrDeserializer::<E>::new(
                    value
                )),
            );
            visits.push(quote!(fn visit_borrowed_str<E: __rt::serde::de::Error>(self, value: &'de str) -> #result<Self::Value, E> { #body }));
        }
    }
    if let Some(body) = scalar(
        JsonKind::Null,
        false,
        quote!(__rt::serde::de::value::UnitDeserializer::<E>::new()),
        quote!(__rt::serde_json::Value::Null),
        quote!(E),
    ) {
        visits.push(quote!(fn visit_unit<E: __rt::serde::de::Error>(self) -> #result<Self::Value, E> { #body }));
    }
    if let Some(body) = scalar(
        JsonKind::Array,
        false,
        quote!(__rt::serde::de::value::SeqAccessDeserializer::new(seq)),
        quote!(<__rt::serde_json::Value as __rt::serde::Deserialize<
            'de,
        >>::deserialize(
            __rt::serde::de::value::SeqAccessDeserializer::new(seq)
        )?),
        quote!(S::Error),
    ) {
        visits.push(quote!(fn visit_seq<S: __rt::serde::de::SeqAccess<'de>>(self, seq: S) -> #result<Self::Value, S::Error> { #body }));
    }
    let map_body = match &u.objects {
        ObjectDispatch::None => None,
        ObjectDispatch::Single(i) => Some(via(
            *i,
            quote!(__rt::serde::de::value::MapAccessDeserializer::new(map)),
        )),
        ObjectDispatch::Tagged {
            tag,
            cases,
            default,
        } => {
            let arms = cases.iter().map(|(value, i)| {
                let variant = ident(&u.variants[*i].name);
                quote!(#some(#value) => __rt::MapDecode::decode_map(rest, #some(#tag)).map(#path::#variant),)
            });
            let values: Vec<&str> = cases.iter().map(|(v, _)| v.as_str()).collect();
            let absent = match default {
                Some(i) => {
                    let variant = ident(&u.variants[*i].name);
                    quote!(#none => __rt::MapDecode::decode_map(rest, #none).map(#path::#variant),)
                }
                None => {
                    quote!(#none => #err(__rt::unknown_tag(#tag, #none, &[#(#values),*])),)
                }
            };
            let decode_tagged = if borrowed {
                quote!(decode_tagged_lent)
            } else {
                quote!(decode_tagged)
            };
            Some(quote! {
                __rt::#decode_tagged(map, #tag, |tag, rest| match tag {
                    #(#arms)*
                    #absent
                    #some(other) => #err(__rt::unknown_tag(#tag, #some(other), &[#(#values),*])),
                })
            })
        }
        ObjectDispatch::Keyed {
            deciding,
            fallback,
            names,
            partition,
        } => {
            let shapes = fallback.iter().map(|c| {
                let own = deciding
                    .iter()
                    .filter(|(_, i)| *i == c.variant)
                    .map(|(k, _)| k);
                let own = name_set(names, own);
                let required = name_set(names, &c.required);
                let declared = name_set(names, &c.declared);
                quote!(__rt::Shape { deciding: #own, required: #required, declared: #declared })
            });
            let arms = fallback.iter().enumerate().map(|(case, c)| {
                let variant = ident(&u.variants[c.variant].name);
                quote!(#case => __rt::serde::Deserialize::deserialize(#buffered_value_of).map(#path::#variant),)
            });
            // The structural match among the `candidates` (bit `i`: `fallback[i]`).
            let matched = quote! {
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
            };
            Some(match partition {
                None => quote! {
                    #matched
                    matched(__rt::buffer_object(map)?, !0)
                },
                Some(partition) => {
                    let tag = &partition.tag;
                    let arms = partition.cases.iter().map(|(value, cases)| match cases[..] {
                        // One member allows the value: the object streams into it.
                        [case] => {
                            let variant = ident(&u.variants[fallback[case].variant].name);
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
            })
        }
    };
    if let Some(body) = map_body {
        visits.push(quote!(fn visit_map<M: __rt::serde::de::MapAccess<'de>>(self, map: M) -> #result<Self::Value, M::Error> { #body }));
    }
    let expecting = format!("a value of {name}: {}", expecting(u));
    let mut decided: Vec<usize> = match &u.objects {
        ObjectDispatch::Keyed { deciding, .. } => deciding.iter().map(|(_, i)| *i).collect(),
        _ => Vec::new(),
    };
    decided.sort_unstable();
    decided.dedup();
    let keyed_decode = match (&u.objects, decided.split_last()) {
        // The last decided member takes every other index: the table names none other.
        (ObjectDispatch::Keyed { deciding, .. }, Some((last, others))) => {
            let table = deciding.iter().map(|(key, i)| quote!((#key, #i)));
            let found_arms = others.iter().map(|i| {
                let variant = ident(&u.variants[*i].name);
                quote!(#i => __rt::MapDecode::decode_map(rest, #none).map(#path::#variant),)
            });
            let last_variant = ident(&u.variants[*last].name);
            let decode_last =
                quote!(__rt::MapDecode::decode_map(rest, #none).map(#path::#last_variant));
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
        _ => TokenStream::new(),
    };
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

/// The body of `into_owned` for the borrowed form of a union: variant by variant.
pub(super) fn union_into_owned(std: &Std, name: &str, u: &Union) -> TokenStream {
    let owned = std.owned(name);
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
pub(super) fn emit_scalar_conversions(std: &Std, name: &str, u: &Union) -> TokenStream {
    let (ty, _, generics) = std.defined(name);
    let string = &std.string;
    // The borrowed member is a `Str<'de>`, built from either.
    let (text, string_value) = if std.is_borrowed() {
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
