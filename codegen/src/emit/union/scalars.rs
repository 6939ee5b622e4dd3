//! The visitor methods for the values that are not objects: which members take each kind of
//! value, and the one decode (or the buffered trial) that follows.

use proc_macro2::TokenStream;
use quote::quote;

use super::Emitter;
use crate::ir::{JsonKind, TypeExpr};

/// The `visit_*` methods for strings, booleans, integers, numbers, null and arrays, each where
/// some member takes that kind of value.
pub(super) fn visits(e: &Emitter) -> Vec<TokenStream> {
    let (result, some, none, err) = (&e.scope.result, &e.scope.some, &e.scope.none, &e.scope.err);
    let mut visits = Vec::new();
    let integer_excludes_numbers = !claimants(e, JsonKind::Integer, true).is_empty();
    // (kind, integers only, visitor method, its value parameter, the value as a deserializer)
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
        if let Some(body) = decode_kind(
            e,
            kind,
            integers_only,
            direct,
            quote!(__rt::serde_json::Value::from(value)),
            quote!(E),
        ) {
            visits.push(quote!(fn #method<E: __rt::serde::de::Error>(self, #param) -> #result<Self::Value, E> { #body }));
        }
    }
    // A number written with a zero fraction (`1.0`) is an integer too, as JSON Schema's
    // `integer` is, where no member takes numbers: decoded as the integer it stands for; any
    // other number is refused as the visitor refuses a number it does not visit.
    if claimants(e, JsonKind::Number, false).is_empty()
        && !claimants(e, JsonKind::Integer, integer_excludes_numbers).is_empty()
    {
        visits.push(quote! {
            fn visit_f64<E: __rt::serde::de::Error>(self, value: f64) -> #result<Self::Value, E> {
                match __rt::integer(value) {
                    #some(value) => self.visit_i64(value),
                    #none => #err(__rt::serde::de::Error::invalid_type(
                        __rt::serde::de::Unexpected::Float(value),
                        &self,
                    )),
                }
            }
        });
    }
    // A borrowed string member keeps the input's text where it has no escape.
    if e.borrowed {
        if let [member] = claimants(e, JsonKind::String, false)[..] {
            let body = e.via(
                member,
                quote!(__rt::serde::de::value::BorrowedStrDeserializer::<E>::new(
                    value
                )),
            );
            visits.push(quote!(fn visit_borrowed_str<E: __rt::serde::de::Error>(self, value: &'de str) -> #result<Self::Value, E> { #body }));
        }
    }
    if let Some(body) = decode_kind(
        e,
        JsonKind::Null,
        false,
        quote!(__rt::serde::de::value::UnitDeserializer::<E>::new()),
        quote!(__rt::serde_json::Value::Null),
        quote!(E),
    ) {
        visits.push(quote!(fn visit_unit<E: __rt::serde::de::Error>(self) -> #result<Self::Value, E> { #body }));
    }
    if let Some(body) = decode_kind(
        e,
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
    visits
}

/// Which members take values of `kind`. A member that takes any value is the fallback for
/// kinds no other member claims. Integers go to an integer member before a number member
/// (`exclude_numbers`: leave out the members that also take numbers).
fn claimants(e: &Emitter, kind: JsonKind, exclude_numbers: bool) -> Vec<usize> {
    let variants = &e.u.variants;
    let any_member = variants.iter().position(|v| v.ty == TypeExpr::Any);
    let found: Vec<usize> = variants
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
}

/// The decode of a value of `kind`: straight into its one member (from `direct`), or, where
/// several members take the same kind (JSON-RPC batches: two array members), buffered
/// (`buffered`) and tried in schema order.
fn decode_kind(
    e: &Emitter,
    kind: JsonKind,
    exclude_numbers: bool,
    direct: TokenStream,
    buffered: TokenStream,
    error: TokenStream,
) -> Option<TokenStream> {
    let members = claimants(e, kind, exclude_numbers);
    match members.len() {
        0 => None,
        1 => Some(e.via(members[0], direct)),
        _ => {
            let body = e.trial(&members, error);
            Some(quote!(let value: __rt::serde_json::Value = #buffered; #body))
        }
    }
}
