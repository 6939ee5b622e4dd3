//! Structs → their definition, the associated constants of their constant members, and their
//! serde impls (one pass over the members into a slot each; constants checked, not stored).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::docs::doc_attrs;
use super::scope::{consumed_param, member_read, MemberRead};
use super::{ident, type_tokens, Scope};
use crate::ir::{Additional, ConstValue, Module, Struct, TypeExpr};

fn extra_type(scope: &Scope, additional: &Additional) -> Option<TokenStream> {
    let string = &scope.string;
    match additional {
        Additional::Forbidden => None,
        // Unknown members come one by one, between the declared ones: a map, not one text.
        Additional::Any if scope.is_borrowed() => Some(quote!(__rt::ExtraRef<'de>)),
        Additional::Any => Some(quote!(__rt::serde_json::Map<#string, __rt::serde_json::Value>)),
        Additional::Typed(ty) => Some(type_tokens(scope, &TypeExpr::Map(Box::new(ty.clone())))),
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
    scope: &Scope,
    name: &str,
    head: TokenStream,
    s: &Struct,
    module: &Module,
) -> TokenStream {
    let extra_ty = extra_type(scope, &s.additional);
    let definition = definition(scope, name, head, s, extra_ty.as_ref());
    let consts = consts_impl(scope, name, s);
    let constructors = super::constructors::struct_constructors(scope, name, s);
    let serialize = serialize_impl(scope, name, s, extra_ty.is_some());
    let deserialize = deserialize_impls(scope, name, s, module, extra_ty.as_ref());
    quote! {
        #definition
        #consts
        #constructors
        #serialize
        #deserialize
    }
}

/// The struct itself: a field per declared member, and `extra` for the undeclared ones where
/// the schema allows them.
fn definition(
    scope: &Scope,
    name: &str,
    head: TokenStream,
    s: &Struct,
    extra_ty: Option<&TokenStream>,
) -> TokenStream {
    let (ty, _, _) = scope.defined(name);
    let fields = s.fields.iter().map(|f| {
        let fallback = format!("The `{}` member.", f.json_name);
        let doc = doc_attrs(Some(f.doc.as_deref().unwrap_or(&fallback)));
        let field = ident(&f.rust_name);
        let ty = field_type(scope, f);
        quote!(#doc pub #field: #ty,)
    });
    let extra_field = extra_ty.map(|ty| {
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
    quote! {
        #head
        #[derive(Debug, Clone, PartialEq, #default)]
        pub struct #ty {
            #(#fields)*
            #extra_field
        }
    }
}

/// Associated constants for the constant members (which are not fields: their value is fixed).
fn consts_impl(scope: &Scope, name: &str, s: &Struct) -> TokenStream {
    if s.consts.is_empty() {
        return TokenStream::new();
    }
    let (ty, _, generics) = scope.defined(name);
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
    quote!(impl #generics #ty { #(#consts)* })
}

/// Serialize: constants, declared members, then the kept extras.
fn serialize_impl(scope: &Scope, name: &str, s: &Struct, has_extra: bool) -> TokenStream {
    let (ty, _, generics) = scope.defined(name);
    let result = &scope.result;
    let wire_names: Vec<&str> = s.wire_names().collect();
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
    let ser_extra = has_extra
        .then(|| quote!(__rt::serialize_extra(&mut map, &self.extra, &[#(#wire_names),*])?;));
    let map_binding = if s.consts.is_empty() && s.fields.is_empty() && !has_extra {
        quote!(map)
    } else {
        quote!(mut map)
    };
    quote! {
        impl #generics __rt::serde::Serialize for #ty {
            fn serialize<S: __rt::serde::Serializer>(&self, serializer: S) -> #result<S::Ok, S::Error> {
                let #map_binding = __rt::begin_map(serializer)?;
                #(#ser_consts)*
                #(#ser_fields)*
                #ser_extra
                __rt::end_map(map)
            }
        }
    }
}

/// Deserialize, through `MapDecode`: one pass over the members into a slot each, then the
/// constants checked and the required members taken.
fn deserialize_impls(
    scope: &Scope,
    name: &str,
    s: &Struct,
    module: &Module,
    extra_ty: Option<&TokenStream>,
) -> TokenStream {
    let Scope {
        option,
        some,
        none,
        result,
        ok,
        err,
        ..
    } = scope;
    let (ty, _, _) = scope.defined(name);
    let slots = decode_slots(scope, s, extra_ty);
    let (member_ty, dispatch) = member_dispatch(scope, s, module);
    let const_checks = s.consts.iter().map(|c| {
        let key = &c.json_name;
        let seen = format_ident!("seen_{}", c.rust_const.to_lowercase());
        quote!(__rt::require_const(#seen, #key)?;)
    });
    let build = build_value(scope, s, extra_ty.is_some());
    let consumed_param = consumed_param(s);
    quote! {
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
                #slots
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

/// The decode locals: whether each constant was seen (the tag a union consumed counts), a slot
/// per field (a member implied by the consumed tag starts filled), and the kept extras.
fn decode_slots(scope: &Scope, s: &Struct, extra_ty: Option<&TokenStream>) -> TokenStream {
    let Scope {
        some,
        none,
        default_value,
        ..
    } = scope;
    let const_locals = s.consts.iter().map(|c| {
        let seen = format_ident!("seen_{}", c.rust_const.to_lowercase());
        let key = &c.json_name;
        quote!(let mut #seen = consumed == #some(#key);)
    });
    let field_locals = s.fields.iter().map(|f| {
        let local = local(&f.rust_name);
        let ty = slot_type(scope, f);
        match &f.implied_const {
            Some(implied) => {
                let key = &f.json_name;
                let enum_ty = type_tokens(scope, &f.ty);
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
    let extra_local = extra_ty.map(|ty| quote!(let mut extra: #ty = #default_value;));
    quote! {
        #(#const_locals)*
        #(#field_locals)*
        #extra_local
    }
}

/// What one member does, by its name: a constant is checked, a field fills its slot, another
/// member is kept or refused. Returns the type the `member` local needs written (an object that
/// allows no member has no arm but the refusal, which does not tell the type) and the dispatch.
fn member_dispatch(
    scope: &Scope,
    s: &Struct,
    module: &Module,
) -> (Option<TokenStream>, TokenStream) {
    let Scope { result, err, .. } = scope;
    let wire_names: Vec<&str> = s.wire_names().collect();
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
        let helper = match member_read(module, f) {
            MemberRead::Plain => quote!(field),
            MemberRead::Integer => quote!(field_integer),
            MemberRead::NullableInteger => quote!(field_nullable_integer),
            MemberRead::Items => quote!(field_seq),
            MemberRead::Members => quote!(field_map),
        };
        quote!(#key => __rt::#helper(&mut map, &mut #local, #key),)
    });
    let fallback = match &s.additional {
        Additional::Forbidden => quote! {
            other => #err(__rt::serde::de::Error::unknown_field(other, &[#(#wire_names),*])),
        },
        _ => quote!(_ => __rt::extra(&mut map, &mut extra, key),),
    };
    let member_ty =
        (s.consts.is_empty() && s.fields.is_empty()).then(|| quote!(: #result<(), A::Error>));
    // An object that allows none refuses the first member without a match of one arm.
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
    (member_ty, dispatch)
}

/// The value from its slots. Required members are matched all at once, so that the one way out
/// when one is missing drops every slot once (a `?` per member would drop the remaining slots
/// at each).
fn build_value(scope: &Scope, s: &Struct, has_extra: bool) -> TokenStream {
    let Scope { some, ok, err, .. } = scope;
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
    let build_extra = has_extra.then(|| quote!(extra,));
    let build = quote!(#ok(Self { #(#build_fields)* #build_extra }));
    if required.is_empty() {
        return build;
    }
    quote! {
        match (#(#required_locals,)*) {
            (#(#some(#required_locals),)*) => #build,
            (#(#required_locals,)*) => #err(__rt::first_missing(&[#((#required_locals.is_none(), #required_keys)),*])),
        }
    }
}

/// The body of `into_owned` for the borrowed form of a struct: member by member.
pub(super) fn struct_into_owned(scope: &Scope, name: &str, s: &Struct) -> TokenStream {
    let owned = scope.owned(name);
    let fields = s.fields.iter().map(|f| {
        let field = ident(&f.rust_name);
        quote!(#field: __rt::IntoOwned::into_owned(self.#field),)
    });
    let extra = (s.additional != Additional::Forbidden)
        .then(|| quote!(extra: __rt::IntoOwned::into_owned(self.extra),));
    quote!(#owned { #(#fields)* #extra })
}

/// The Rust type of a field, with `Option` for optional members and `Box` to break cycles.
fn field_type(scope: &Scope, f: &crate::ir::Field) -> TokenStream {
    let Scope { option, boxed, .. } = scope;
    let inner = type_tokens(scope, &f.ty);
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
fn slot_type(scope: &Scope, f: &crate::ir::Field) -> TokenStream {
    let Scope { option, boxed, .. } = scope;
    let inner = type_tokens(scope, &f.ty);
    let inner = if f.boxed {
        quote!(#boxed<#inner>)
    } else {
        inner
    };
    quote!(#option<#inner>)
}
