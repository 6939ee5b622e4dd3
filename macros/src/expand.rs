//! Code generation: `impl Elicit` for structs, hidden option tables for enums.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Field, Item, Kind, Variant};
use crate::attr::{DefaultValue, Num, Sp};

pub fn expand(input: &crate::ast::Input, item: &Item) -> TokenStream {
    match item {
        Item::Struct(fields, deny_unknown_fields) => {
            expand_struct(input.ident, fields, *deny_unknown_fields)
        }
        Item::Enum(variants) => expand_enum(input.ident, variants),
    }
}

fn expand_enum(ident: &syn::Ident, variants: &[Variant]) -> TokenStream {
    let options = variants.iter().map(|v| {
        let value = &v.value;
        let title = match &v.attrs.title {
            Some(t) => {
                let t = &t.value;
                quote!(::core::option::Option::Some(#t))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!((#value, #title))
    });
    let arms = variants.iter().map(|v| {
        let value = &v.value;
        let var = &v.ident;
        quote!(#value => ::core::option::Option::Some(Self::#var),)
    });
    quote! {
        #[automatically_derived]
        impl ::mcp_typed::elicit::__private::ElicitEnum for #ident {
            const OPTIONS: &'static [(&'static str, ::core::option::Option<&'static str>)] = &[#(#options),*];

            fn from_value(value: &str) -> ::core::option::Option<Self> {
                match value {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}

fn opt_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_u64(value: Option<u64>) -> TokenStream {
    match value {
        Some(v) => {
            let v = Literal::u64_suffixed(v);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn number(n: Num) -> TokenStream {
    match n {
        Num::Int(v) if v >= 0 => {
            let v = Literal::u64_suffixed(v as u64);
            quote!(::mcp_typed::elicit::__private::serde_json::Number::from(#v))
        }
        Num::Int(v) => {
            let v = Literal::i64_suffixed(v as i64);
            quote!(::mcp_typed::elicit::__private::serde_json::Number::from(#v))
        }
        Num::Float(f) => {
            let v = Literal::f64_suffixed(f);
            quote!(::mcp_typed::elicit::__private::serde_json::Number::from_f64(#v)
                .expect("a finite number"))
        }
    }
}

fn opt_number(n: Option<Num>) -> TokenStream {
    match n {
        Some(n) => {
            let n = number(n);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The options of an enum field's type, spanned at the field type so that a type that does
/// not derive `Elicit` is reported there (with `ElicitEnum`'s `on_unimplemented` message).
fn options_path(elem: &TokenStream, span: Span) -> TokenStream {
    quote_spanned!(span=> <#elem as ::mcp_typed::elicit::__private::ElicitEnum>::OPTIONS)
}

fn from_str_path(elem: &TokenStream, span: Span) -> TokenStream {
    quote_spanned!(span=> <#elem as ::mcp_typed::elicit::__private::ElicitEnum>::from_value)
}

fn escape_pointer(name: &str) -> String {
    format!("/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// Description: the attribute, else the doc comment.
fn description(field: &Field) -> Option<&str> {
    field
        .attrs
        .description
        .as_ref()
        .or(field.attrs.doc.as_ref())
        .map(|d| d.value.as_str())
}

fn property_schema(field: &Field) -> TokenStream {
    let a = &field.attrs;
    let e = quote!(::mcp_typed::elicit);
    let title = opt_str(a.title.as_ref().map(|t| t.value.as_str()));
    let description = opt_str(description(field));
    // A doc comment (written above the attributes) puts the description first; the options of
    // an enum field, implied by its type, come right before `default`, as in the spec's text.
    let doc_first = a.description.is_none() && a.doc.is_some();
    let order: Vec<&str> = doc_first
        .then_some("description")
        .into_iter()
        .chain(a.order.iter().map(String::as_str))
        .flat_map(|key| {
            if key == "default" {
                vec!["options", key]
            } else {
                vec![key]
            }
        })
        .collect();
    let keywords = order.iter().filter_map(|key| {
        let keyword = match *key {
            "title" => quote!(Title),
            "description" => quote!(Description),
            "min_length" => quote!(MinLength),
            "max_length" => quote!(MaxLength),
            "pattern" => quote!(Pattern),
            "format" => quote!(Format),
            "minimum" => quote!(Minimum),
            "maximum" => quote!(Maximum),
            "min_items" => quote!(MinItems),
            "max_items" => quote!(MaxItems),
            "options" => quote!(Options),
            "default" => quote!(Default),
            _ => return None,
        };
        Some(quote!(#e::Keyword::#keyword))
    });
    let key_order = if order.is_empty() {
        quote!(::core::default::Default::default())
    } else {
        quote!(#e::KeyOrder::new([#(#keywords),*]))
    };
    match &field.kind {
        Kind::String => {
            let min_length = opt_u64(a.min_length.as_ref().map(|v| v.value));
            let max_length = opt_u64(a.max_length.as_ref().map(|v| v.value));
            let pattern = opt_str(a.pattern.as_ref().map(|p| p.value.as_str()));
            let format = match a.format.as_ref().map(|f| f.value.as_str()) {
                Some("email") => quote!(::core::option::Option::Some(#e::StringFormat::Email)),
                Some("uri") => quote!(::core::option::Option::Some(#e::StringFormat::Uri)),
                Some("date") => quote!(::core::option::Option::Some(#e::StringFormat::Date)),
                Some(_) => quote!(::core::option::Option::Some(#e::StringFormat::DateTime)),
                None => quote!(::core::option::Option::None),
            };
            let default = opt_str(match a.default.as_ref().map(|d| &d.value) {
                Some(DefaultValue::Str(s)) => Some(s.as_str()),
                _ => None,
            });
            quote!(#e::PropertySchema::String(#e::StringSchema {
                title: #title,
                description: #description,
                min_length: #min_length,
                max_length: #max_length,
                pattern: #pattern,
                format: #format,
                default: #default,
                key_order: #key_order,
            }))
        }
        Kind::Bool => {
            let default = match a.default.as_ref().map(|d| &d.value) {
                Some(DefaultValue::Bool(b)) => quote!(::core::option::Option::Some(#b)),
                _ => quote!(::core::option::Option::None),
            };
            quote!(#e::PropertySchema::Boolean(#e::BooleanSchema {
                title: #title,
                description: #description,
                default: #default,
                key_order: #key_order,
            }))
        }
        Kind::Int(_) | Kind::Float(_) => {
            let integer = matches!(field.kind, Kind::Int(_));
            let (lo, hi) = match &field.kind {
                Kind::Int(int) => (
                    Some(a.minimum.as_ref().map_or(Num::Int(int.min), |m| m.value)),
                    Some(a.maximum.as_ref().map_or(Num::Int(int.max), |m| m.value)),
                ),
                _ => (
                    a.minimum.as_ref().map(|m| m.value),
                    a.maximum.as_ref().map(|m| m.value),
                ),
            };
            let minimum = opt_number(lo);
            let maximum = opt_number(hi);
            let default = opt_number(match a.default.as_ref().map(|d| &d.value) {
                Some(DefaultValue::Num(n)) => Some(*n),
                _ => None,
            });
            quote!(#e::PropertySchema::Number(#e::NumberSchema {
                integer: #integer,
                title: #title,
                description: #description,
                minimum: #minimum,
                maximum: #maximum,
                default: #default,
                key_order: #key_order,
            }))
        }
        Kind::Enum(elem, span) => {
            let options = enum_options(elem, *span);
            let default = opt_str(match a.default.as_ref().map(|d| &d.value) {
                Some(DefaultValue::Str(s)) => Some(s.as_str()),
                _ => None,
            });
            quote!(#e::PropertySchema::SingleSelect(#e::SingleSelectSchema {
                title: #title,
                description: #description,
                options: #options,
                default: #default,
                key_order: #key_order,
            }))
        }
        Kind::Multi(_, elem, span) => {
            let options = enum_options(elem, *span);
            let min_items = opt_u64(a.min_items.as_ref().map(|v| v.value));
            let max_items = opt_u64(a.max_items.as_ref().map(|v| v.value));
            let default = match a.default.as_ref().map(|d| &d.value) {
                Some(DefaultValue::List(values)) => quote!(::core::option::Option::Some(
                    ::std::vec![#(::std::string::String::from(#values)),*]
                )),
                _ => quote!(::core::option::Option::None),
            };
            quote!(#e::PropertySchema::MultiSelect(#e::MultiSelectSchema {
                title: #title,
                description: #description,
                options: #options,
                min_items: #min_items,
                max_items: #max_items,
                default: #default,
                key_order: #key_order,
            }))
        }
    }
}

fn enum_options(elem: &TokenStream, span: Span) -> TokenStream {
    let path = options_path(elem, span);
    quote!({
        let options: &[(&str, ::core::option::Option<&str>)] = #path;
        if options.iter().any(|(_, title)| title.is_some()) {
            ::mcp_typed::elicit::EnumOptions::Titled(
                options
                    .iter()
                    .map(|&(value, title)| ::mcp_typed::elicit::TitledOption {
                        value: ::std::string::String::from(value),
                        title: ::std::string::String::from(title.unwrap_or(value)),
                    })
                    .collect(),
            )
        } else {
            ::mcp_typed::elicit::EnumOptions::Untitled(
                options
                    .iter()
                    .map(|&(value, _)| ::std::string::String::from(value))
                    .collect(),
            )
        }
    })
}

/// Compile-time checks that need the variants of another enum: defaults are options, and
/// `min_items` does not exceed the number of options.
fn const_checks(field: &Field) -> TokenStream {
    let a = &field.attrs;
    let mut asserts = Vec::new();
    let (elem, span, multi) = match &field.kind {
        Kind::Enum(elem, span) => (elem, *span, false),
        Kind::Multi(_, elem, span) => (elem, *span, true),
        _ => return TokenStream::new(),
    };
    let path = options_path(elem, span);
    if let Some(default) = &a.default {
        let values: Vec<&String> = match &default.value {
            DefaultValue::Str(s) if !multi => vec![s],
            DefaultValue::List(values) if multi => values.iter().collect(),
            _ => Vec::new(),
        };
        for value in values {
            let message = format!(
                "`default` of field `{}`: \"{value}\" is not a variant of the enum (not one of \
                 its option values)",
                field.ident
            );
            asserts.push(quote_spanned!(default.span=>
                ::core::assert!(__elicit_has(#path, #value), #message);
            ));
        }
    }
    if let Some(min_items) = &a.min_items {
        let n = Literal::usize_unsuffixed(min_items.value as usize);
        let message = format!(
            "`min_items` of field `{}` = {} is larger than the number of variants: no answer \
             could satisfy it",
            field.ident, min_items.value
        );
        asserts.push(quote_spanned!(min_items.span=>
            ::core::assert!(#n <= #path.len(), #message);
        ));
    }
    if asserts.is_empty() {
        return TokenStream::new();
    }
    quote! {
        const _: () = {
            const fn __elicit_eq(a: &str, b: &str) -> bool {
                let (a, b) = (a.as_bytes(), b.as_bytes());
                if a.len() != b.len() {
                    return false;
                }
                let mut i = 0;
                while i < a.len() {
                    if a[i] != b[i] {
                        return false;
                    }
                    i += 1;
                }
                true
            }
            const fn __elicit_has(
                options: &[(&str, ::core::option::Option<&str>)],
                value: &str,
            ) -> bool {
                let mut i = 0;
                while i < options.len() {
                    if __elicit_eq(options[i].0, value) {
                        return true;
                    }
                    i += 1;
                }
                false
            }
            #(#asserts)*
        };
    }
}

/// Code evaluating to `Option<inner type>` from `__value: &V` (`V: FormValue`, a parsed `Value`
/// or a member read from text), pushing errors at the field's pointer. Each kind calls its check
/// in `mcp_typed::elicit::__private` with the field's constraints as constants.
fn parse_value(field: &Field) -> TokenStream {
    let ptr = escape_pointer(&field.name);
    let a = &field.attrs;
    let private = quote!(::mcp_typed::elicit::__private);
    let some = |value: Option<TokenStream>| match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    };
    // An optional `u64` bound as an `Option<u64>` expression.
    let bound = |value: &Option<Sp<u64>>| {
        some(value.as_ref().map(|v| {
            let v = Literal::u64_suffixed(v.value);
            quote!(#v)
        }))
    };
    match &field.kind {
        Kind::String => {
            let min_length = bound(&a.min_length);
            let max_length = bound(&a.max_length);
            let format = some(a.format.as_ref().map(|f| {
                let variant = match f.value.as_str() {
                    "email" => quote!(Email),
                    "uri" => quote!(Uri),
                    "date" => quote!(Date),
                    _ => quote!(DateTime),
                };
                quote!(::mcp_typed::elicit::StringFormat::#variant)
            }));
            // The pattern compiled when the macro ran (same engine, same `u` flag as
            // `RequestedSchema::validate`); at run time it is compiled once, on first use.
            let (pattern_static, pattern) = match &a.pattern {
                Some(p) => {
                    let source = &p.value;
                    (
                        quote!(static __PATTERN: #private::Pattern = #private::Pattern::new(#source);),
                        quote!(::core::option::Option::Some(&__PATTERN)),
                    )
                }
                None => (quote!(), quote!(::core::option::Option::None)),
            };
            quote! {{
                #pattern_static
                const __RULES: #private::StringRules = #private::StringRules {
                    min_length: #min_length,
                    max_length: #max_length,
                    pattern: #pattern,
                    format: #format,
                };
                #private::string(__value, #ptr, &__RULES, __errors)
            }}
        }
        Kind::Bool => quote!(#private::boolean(__value, #ptr, __errors)),
        Kind::Int(int) => {
            let lo = match a.minimum.as_ref().map(|m| m.value) {
                Some(Num::Int(v)) => v,
                _ => int.min,
            };
            let hi = match a.maximum.as_ref().map(|m| m.value) {
                Some(Num::Int(v)) => v,
                _ => int.max,
            };
            let lo = Literal::i128_suffixed(lo);
            let hi = Literal::i128_suffixed(hi);
            let prim = format_ident!("{}", int.name);
            quote! {
                #private::integer(__value, #ptr, #lo, #hi, __errors)
                    .map(|__i| __i as ::core::primitive::#prim)
            }
        }
        Kind::Float(f32) => {
            let float_bound = |bound: &Option<Sp<Num>>| {
                some(bound.as_ref().map(|b| {
                    let v = Literal::f64_suffixed(b.value.as_f64());
                    quote!(#v)
                }))
            };
            let (min, max) = (float_bound(&a.minimum), float_bound(&a.maximum));
            let cast = if *f32 { quote!(as f32) } else { quote!() };
            quote! {
                #private::float(__value, #ptr, #min, #max, __errors).map(|__f| __f #cast)
            }
        }
        Kind::Enum(elem, span) => {
            let from_str = from_str_path(elem, *span);
            quote!(#private::select(__value, #ptr, #from_str, __errors))
        }
        Kind::Multi(container, elem, span) => {
            let from_str = from_str_path(elem, *span);
            let (min, max) = (bound(&a.min_items), bound(&a.max_items));
            quote! {
                #private::multi_select::<_, _, #container>(
                    __value, #ptr, #min, #max, #from_str, __errors,
                )
            }
        }
    }
}

fn expand_struct(ident: &syn::Ident, fields: &[Field], deny_unknown_fields: bool) -> TokenStream {
    let properties = fields.iter().map(|field| {
        let name = &field.name;
        let schema = property_schema(field);
        quote!((::std::string::String::from(#name), #schema))
    });
    let required = fields
        .iter()
        .filter(|f| !f.optional)
        .map(|f| &f.name)
        .collect::<Vec<_>>();
    let checks = fields.iter().map(const_checks);
    let count = fields.len();
    let names: Vec<&String> = fields.iter().map(|f| &f.name).collect();
    let indices = 0..count;
    let vars: Vec<_> = (0..count).map(|i| format_ident!("__field{}", i)).collect();
    let lets = fields
        .iter()
        .zip(&vars)
        .enumerate()
        .map(|(index, (field, var))| {
            let name = &field.name;
            let ptr = escape_pointer(name);
            // A string stays borrowed until the value is built (see `build`).
            let inner = match field.kind {
                Kind::String => quote!(&str),
                _ => field.inner.clone(),
            };
            let parse = parse_value(field);
            let missing = if field.optional {
                quote!()
            } else {
                quote!(::mcp_typed::elicit::__private::missing(#ptr, __errors);)
            };
            quote! {
                let #var: ::core::option::Option<#inner> = match __values[#index] {
                    ::core::option::Option::None => {
                        #missing
                        ::core::option::Option::None
                    }
                    ::core::option::Option::Some(__value) => { #parse }
                };
            }
        });
    let patterns = fields.iter().zip(&vars).map(|(field, var)| {
        if field.optional {
            quote!(#var)
        } else {
            quote!(::core::option::Option::Some(#var))
        }
    });
    let idents = fields.iter().map(|field| &field.ident);
    // The strings are copied only when every check passed: a rejected answer copies none.
    let build = fields
        .iter()
        .zip(&vars)
        .map(|(field, var)| match (&field.kind, field.optional) {
            (Kind::String, false) => quote!(::std::string::String::from(#var)),
            (Kind::String, true) => quote!(#var.map(::std::string::String::from)),
            _ => quote!(#var),
        });
    let private = quote!(::mcp_typed::elicit::__private);
    let errors_ty = quote!(::mcp_typed::elicit::ValidationErrors);
    let refuse = |names: TokenStream| {
        deny_unknown_fields.then(|| {
            quote! {
                #private::refuse_undeclared(&mut __errors, #names, |__name| {
                    __index(__name).is_some()
                });
            }
        })
    };
    let refuse_content = refuse(quote!(__content.keys().map(::std::string::String::as_str)));
    let refuse_decoded = refuse(quote!(__decoded.undeclared()));
    let span = Span::call_site();
    quote_spanned! {span=>
        #(#checks)*

        const _: () = {
            /// The index of the property named `name`.
            #[inline]
            fn __index(__name: &str) -> ::core::option::Option<usize> {
                match __name {
                    #(#names => ::core::option::Option::Some(#indices),)*
                    _ => ::core::option::Option::None,
                }
            }

            /// Checks the value of each property (by index; `None` when absent), pushing every
            /// violation; the value when all pass. Shared by `from_content` and `from_json_str`.
            #[allow(unused_mut, unused_variables, unreachable_patterns, clippy::all)]
            fn __build<__V: #private::FormValue>(
                __values: [::core::option::Option<&__V>; #count],
                __errors: &mut #errors_ty,
            ) -> ::core::option::Option<#ident> {
                #(#lets)*
                match (#(#vars,)*) {
                    (#(#patterns,)*) if __errors.errors().is_empty() => {
                        ::core::option::Option::Some(#ident { #(#idents: #build),* })
                    }
                    _ => ::core::option::Option::None,
                }
            }

            #[automatically_derived]
            impl ::mcp_typed::elicit::Elicit for #ident {
                fn requested_schema() -> ::mcp_typed::elicit::RequestedSchema {
                    ::mcp_typed::elicit::RequestedSchema {
                        properties: ::std::vec![#(#properties),*],
                        required: ::std::vec![#(::std::string::String::from(#required)),*],
                        additional_properties_forbidden: #deny_unknown_fields,
                    }
                }

                fn from_content(
                    __content: &#private::serde_json::Map<
                        ::std::string::String,
                        #private::serde_json::Value,
                    >,
                ) -> ::core::result::Result<Self, #errors_ty> {
                    let mut __errors = <#errors_ty as ::core::default::Default>::default();
                    let __value = __build::<#private::serde_json::Value>(
                        #private::members::<#count>(__content, __index),
                        &mut __errors,
                    );
                    #refuse_content
                    #private::finish(__value, __errors)
                }

                fn from_json_str(
                    __json: &str,
                ) -> ::core::result::Result<Self, ::mcp_typed::elicit::FromJsonError> {
                    const __NAMES: #private::Names<#count> = #private::Names::new([#(#names),*]);
                    let mut __decoded = #private::Content::<#count>::empty();
                    #private::decode_content(
                        __json,
                        &__NAMES,
                        __index,
                        #deny_unknown_fields,
                        &mut __decoded,
                    )?;
                    let mut __errors = <#errors_ty as ::core::default::Default>::default();
                    let __value = __build::<#private::Member<'_>>(__decoded.members(), &mut __errors);
                    #refuse_decoded
                    #private::finish(__value, __errors)
                        .map_err(::mcp_typed::elicit::FromJsonError::Invalid)
                }
            }
        };
    }
}
