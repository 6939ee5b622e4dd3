//! Code generation: `impl Elicit` for structs, hidden option tables for enums.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};

use mcp_elicit::{KeyOrder, PropertySchema, RequestedSchema, StringFormat};
use serde_json::Number;

use crate::ast::{Field, Item, Kind, Variant};
use crate::attr::DefaultValue;

/// The code of the derive: of a struct from `schema`, its model.
pub fn expand(
    input: &crate::ast::Input,
    item: &Item,
    schema: Option<&RequestedSchema>,
    krate: Krate<'_>,
) -> TokenStream {
    match (item, schema) {
        (Item::Struct(fields, _), Some(schema)) => {
            expand_struct(input.ident, fields, schema, krate)
        }
        (Item::Enum(variants), _) => expand_enum(input.ident, variants, krate),
        (Item::Struct(..), None) => unreachable!("a struct has a model"),
    }
}

/// The path the expansion names the types crate by: `::mcp_typed`, or the path of
/// `#[elicit(crate = "...")]` (as serde's `#[serde(crate = "...")]`). Every path of the
/// expansion into the types crate is built from it, so none is left out.
#[derive(Clone, Copy)]
pub struct Krate<'a>(Option<&'a syn::Path>);

impl<'a> Krate<'a> {
    /// The path of `#[elicit(crate = "...")]`, or `::mcp_typed` without one.
    pub fn new(path: Option<&'a syn::Path>) -> Self {
        Self(path)
    }

    /// The path with every token at `span`, where an error about a path through it is
    /// reported.
    fn at(self, span: Span) -> TokenStream {
        match self.0 {
            None => quote_spanned!(span=> ::mcp_typed),
            Some(path) => respan(path.to_token_stream(), span),
        }
    }
}

/// The path at the call site.
impl ToTokens for Krate<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.at(Span::call_site()));
    }
}

/// `tokens` with every token, in groups too, at `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut respanned = Group::new(group.delimiter(), respan(group.stream(), span));
                respanned.set_span(span);
                token = TokenTree::Group(respanned);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

fn expand_enum(ident: &syn::Ident, variants: &[Variant], krate: Krate<'_>) -> TokenStream {
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
    let checks = enum_checks(ident, variants, krate);
    quote! {
        const _: () = {
            #checks

            #[automatically_derived]
            impl #krate::elicit::__private::ElicitEnum for #ident {
                const OPTIONS: &'static [(&'static str, ::core::option::Option<&'static str>)] = &[#(#options),*];

                type Checks = __ElicitChecks;

                fn from_value(value: &str) -> ::core::option::Option<Self> {
                    match value {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            }
        };
    }
}

/// Text for a `#[diagnostic::on_unimplemented]` format string.
fn diagnostic_text(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// `ElicitEnum::Checks` of an enum: the checks of a select field of its type that need its
/// options, which the derive on a struct names in constants with the outcome as a `bool`
/// (`const_checks`). Each is implemented for a `bool` when the enum implements a trait for it,
/// which it does for `true` alone: with `false`, the error is that trait's, at the struct's
/// attribute, with the options listed.
fn enum_checks(ident: &syn::Ident, variants: &[Variant], krate: Krate<'_>) -> TokenStream {
    // Every token at the enum's name, so that the compiler does not take the implementations
    // for those of a `#[derive]` (it would suggest to write them by hand).
    let private = krate.at(ident.span());
    let private = quote_spanned!(ident.span()=> #private::elicit::__private);
    let name = ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name);
    let values: Vec<String> = variants.iter().map(|v| format!("`{}`", v.value)).collect();
    let count = variants.len();
    let options = diagnostic_text(&format!(
        "the options of `{name}` are {}",
        values.join(", ")
    ));
    let default_message = diagnostic_text(&format!(
        "the default is not one of the options of `{name}`"
    ));
    let default_label = diagnostic_text(&format!("not an option of `{name}`"));
    let min_items_message = diagnostic_text(&format!(
        "minItems is greater than the number of options of `{name}` ({count}): no answer that \
         selects each option once can satisfy it"
    ));
    let min_items_label = diagnostic_text(&format!("greater than {count}"));
    // The notes of an error point at the enum's name.
    quote_spanned! {ident.span()=>
        #[diagnostic::on_unimplemented(
            message = #default_message,
            label = #default_label,
            note = #options,
        )]
        pub trait __ElicitDefault<const IS_AN_OPTION: bool> {}

        impl __ElicitDefault<true> for #ident {}

        #[diagnostic::on_unimplemented(
            message = #min_items_message,
            label = #min_items_label,
            note = #options,
        )]
        pub trait __ElicitMinItems<const FIT: bool> {}

        impl __ElicitMinItems<true> for #ident {}

        // Reachable as `<Enum as ElicitEnum>::Checks` when the enum is public: no lint of the
        // user's crate (`missing_debug_implementations`, `missing_docs`) is about it.
        #[allow(dead_code, missing_debug_implementations, missing_docs)]
        #[doc(hidden)]
        pub struct __ElicitChecks;

        impl<const IS_AN_OPTION: bool> #private::DefaultIsAnOption<IS_AN_OPTION> for __ElicitChecks
        where
            #ident: __ElicitDefault<IS_AN_OPTION>
        {
        }

        impl<const FIT: bool> #private::MinItemsFit<FIT> for __ElicitChecks
        where
            #ident: __ElicitMinItems<FIT>
        {
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

/// A number of the model, as the code that makes it.
fn number(n: &Number, krate: Krate<'_>) -> TokenStream {
    let json = quote!(#krate::elicit::__private::serde_json::Number);
    if let Some(v) = n.as_u64() {
        let v = Literal::u64_suffixed(v);
        quote!(#json::from(#v))
    } else if let Some(v) = n.as_i64() {
        let v = Literal::i64_suffixed(v);
        quote!(#json::from(#v))
    } else {
        let v = Literal::f64_suffixed(n.as_f64().unwrap_or(0.0));
        quote!(#json::from_f64(#v).expect("a finite number"))
    }
}

fn opt_number(n: Option<&Number>, krate: Krate<'_>) -> TokenStream {
    match n {
        Some(n) => {
            let n = number(n, krate);
            quote!(::core::option::Option::Some(#n))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// `StringFormat::<variant>`: the variant's name is its `Debug`.
fn format(format: StringFormat, krate: Krate<'_>) -> TokenStream {
    let variant = format_ident!("{format:?}");
    quote!(#krate::elicit::StringFormat::#variant)
}

/// The options of an enum field's type, spanned at the field type so that a type that does
/// not derive `Elicit` is reported there (with `ElicitEnum`'s `on_unimplemented` message).
fn options_path(elem: &TokenStream, span: Span, krate: Krate<'_>) -> TokenStream {
    let krate = krate.at(span);
    quote_spanned!(span=> <#elem as #krate::elicit::__private::ElicitEnum>::OPTIONS)
}

fn from_str_path(elem: &TokenStream, span: Span, krate: Krate<'_>) -> TokenStream {
    let krate = krate.at(span);
    quote_spanned!(span=> <#elem as #krate::elicit::__private::ElicitEnum>::from_value)
}

/// The code that makes a field's property schema: the model's, with the options of an enum
/// field taken from its type.
fn property_schema(field: &Field, property: &PropertySchema, krate: Krate<'_>) -> TokenStream {
    let e = quote!(#krate::elicit);
    let common = |title: &Option<String>, description: &Option<String>, order: &KeyOrder| {
        let title = opt_str(title.as_deref());
        let description = opt_str(description.as_deref());
        let keywords = order.0.iter().map(|keyword| {
            let keyword = format_ident!("{keyword:?}");
            quote!(#e::Keyword::#keyword)
        });
        let key_order = if order.0.is_empty() {
            quote!(::core::default::Default::default())
        } else {
            quote!(#e::KeyOrder::new([#(#keywords),*]))
        };
        (title, description, key_order)
    };
    match (property, &field.kind) {
        (PropertySchema::String(s), _) => {
            let (title, description, key_order) = common(&s.title, &s.description, &s.key_order);
            let min_length = opt_u64(s.min_length);
            let max_length = opt_u64(s.max_length);
            let pattern = opt_str(s.pattern.as_deref());
            let format = match s.format {
                Some(f) => {
                    let f = format(f, krate);
                    quote!(::core::option::Option::Some(#f))
                }
                None => quote!(::core::option::Option::None),
            };
            let default = opt_str(s.default.as_deref());
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
        (PropertySchema::Boolean(b), _) => {
            let (title, description, key_order) = common(&b.title, &b.description, &b.key_order);
            let default = match b.default {
                Some(b) => quote!(::core::option::Option::Some(#b)),
                None => quote!(::core::option::Option::None),
            };
            quote!(#e::PropertySchema::Boolean(#e::BooleanSchema {
                title: #title,
                description: #description,
                default: #default,
                key_order: #key_order,
            }))
        }
        (PropertySchema::Number(n), _) => {
            let (title, description, key_order) = common(&n.title, &n.description, &n.key_order);
            let integer = n.integer;
            let minimum = opt_number(n.minimum.as_ref(), krate);
            let maximum = opt_number(n.maximum.as_ref(), krate);
            let default = opt_number(n.default.as_ref(), krate);
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
        (PropertySchema::SingleSelect(s), Kind::Enum(elem, span)) => {
            let (title, description, key_order) = common(&s.title, &s.description, &s.key_order);
            let options = enum_options(elem, *span, krate);
            let default = opt_str(s.default.as_deref());
            let enum_names = s.enum_names;
            quote!(#e::PropertySchema::SingleSelect(#e::SingleSelectSchema {
                title: #title,
                description: #description,
                options: #options,
                default: #default,
                enum_names: #enum_names,
                key_order: #key_order,
            }))
        }
        (PropertySchema::MultiSelect(m), Kind::Multi(_, elem, span)) => {
            let (title, description, key_order) = common(&m.title, &m.description, &m.key_order);
            let options = enum_options(elem, *span, krate);
            let min_items = opt_u64(m.min_items);
            let max_items = opt_u64(m.max_items);
            let default = match &m.default {
                Some(values) => quote!(::core::option::Option::Some(
                    ::std::vec![#(::std::string::String::from(#values)),*]
                )),
                None => quote!(::core::option::Option::None),
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
        // The model of a select field is built from its kind.
        _ => unreachable!("a select property of a field that is not an enum"),
    }
}

fn enum_options(elem: &TokenStream, span: Span, krate: Krate<'_>) -> TokenStream {
    let path = options_path(elem, span, krate);
    quote!({
        let options: &[(&str, ::core::option::Option<&str>)] = #path;
        if options.iter().any(|(_, title)| title.is_some()) {
            #krate::elicit::EnumOptions::Titled(
                options
                    .iter()
                    .map(|&(value, title)| #krate::elicit::TitledOption {
                        value: ::std::string::String::from(value),
                        title: ::std::string::String::from(title.unwrap_or(value)),
                    })
                    .collect(),
            )
        } else {
            #krate::elicit::EnumOptions::Untitled(
                options
                    .iter()
                    .map(|&(value, _)| ::std::string::String::from(value))
                    .collect(),
            )
        }
    })
}

/// The rules of `mcp-elicit` that need the variants of another enum (its defaults are options,
/// `minItems` is not more than the options), checked when the compiler evaluates constants: the
/// outcome, a `bool`, picks an implementation of the enum's `ElicitEnum::Checks`
/// (`enum_checks`) whose bound does not hold for `false`: an error at the attribute at fault,
/// which lists the options.
fn const_checks(field: &Field, property: &PropertySchema, krate: Krate<'_>) -> TokenStream {
    let a = &field.attrs;
    let (elem, span, min_items) = match (property, &field.kind) {
        (PropertySchema::SingleSelect(_), Kind::Enum(elem, span)) => (elem, *span, None),
        (PropertySchema::MultiSelect(m), Kind::Multi(_, elem, span)) => (elem, *span, m.min_items),
        _ => return TokenStream::new(),
    };
    let path = options_path(elem, span, krate);
    let private = quote!(#krate::elicit::__private);
    // `Checks` spanned at the attribute, where the compiler reports its unmet bound; the type
    // keeps its span, where a type that does not derive `Elicit` is reported (once, as in
    // `options_path`).
    let checks_at = |at: Span| quote_spanned!(at=> <#elem as #private::ElicitEnum>::Checks);
    let mut calls = Vec::new();
    // Each value of the default at its span (a literal of another kind was refused already).
    let defaults: Vec<(&String, Span)> = match a.default.as_ref().map(|d| (&d.value, d.span)) {
        Some((DefaultValue::Str(value), span)) => vec![(value, span)],
        Some((DefaultValue::List(values), _)) => {
            values.iter().map(|(value, span)| (value, *span)).collect()
        }
        _ => Vec::new(),
    };
    for (value, at) in defaults {
        let checks = checks_at(at);
        calls.push(quote_spanned!(at=>
            let () = <#checks as #private::DefaultIsAnOption<{
                #private::has_option(#path, #value)
            }>>::CHECK;
        ));
    }
    if let (Some(min_items), Some(attr)) = (min_items, &a.min_items) {
        let n = Literal::usize_unsuffixed(min_items as usize);
        let checks = checks_at(attr.span);
        calls.push(quote_spanned!(attr.span=>
            let () = <#checks as #private::MinItemsFit<{ #n <= #path.len() }>>::CHECK;
        ));
    }
    if calls.is_empty() {
        return TokenStream::new();
    }
    quote! {
        const _: () = {
            #(#calls)*
        };
    }
}

/// Code evaluating to `Option<inner type>` from `__value: &V` (`V: FormValue`, a parsed `Value`
/// or a member read from text), pushing errors at the field's pointer. Each kind calls its check
/// in `mcp_typed::elicit::__private` with the field's constraints, the model's, as constants.
fn parse_value(field: &Field, property: &PropertySchema, krate: Krate<'_>) -> TokenStream {
    let ptr = mcp_elicit::pointer("", &field.name);
    let private = quote!(#krate::elicit::__private);
    let some = |value: Option<TokenStream>| match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    };
    match (property, &field.kind) {
        (PropertySchema::String(s), _) => {
            let min_length = opt_u64(s.min_length);
            let max_length = opt_u64(s.max_length);
            let format = some(s.format.map(|f| format(f, krate)));
            // The pattern compiled when the macro ran (same engine, same `u` flag as
            // `RequestedSchema::validate`); at run time it is compiled once, on first use.
            let (pattern_static, pattern) = match &s.pattern {
                Some(source) => (
                    quote!(static __PATTERN: #private::Pattern = #private::Pattern::new(#source);),
                    quote!(::core::option::Option::Some(&__PATTERN)),
                ),
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
        (PropertySchema::Boolean(_), _) => quote!(#private::boolean(__value, #ptr, __errors)),
        (PropertySchema::Number(n), Kind::Int(int)) => {
            // The model's bounds of an integer field are integers of its type.
            let bound = |bound: Option<&Number>, absent: i128| {
                let exact =
                    bound.and_then(|b| b.as_i64().map(i128::from).or(b.as_u64().map(i128::from)));
                Literal::i128_suffixed(exact.unwrap_or(absent))
            };
            let lo = bound(n.minimum.as_ref(), int.min);
            let hi = bound(n.maximum.as_ref(), int.max);
            let prim = format_ident!("{}", int.name);
            quote! {
                #private::integer(__value, #ptr, #lo, #hi, __errors)
                    .map(|__i| __i as ::core::primitive::#prim)
            }
        }
        (PropertySchema::Number(n), kind) => {
            let float_bound = |bound: Option<&Number>| {
                some(bound.and_then(Number::as_f64).map(|v| {
                    let v = Literal::f64_suffixed(v);
                    quote!(#v)
                }))
            };
            let (min, max) = (
                float_bound(n.minimum.as_ref()),
                float_bound(n.maximum.as_ref()),
            );
            let cast = if matches!(kind, Kind::Float(true)) {
                quote!(as f32)
            } else {
                quote!()
            };
            quote! {
                #private::float(__value, #ptr, #min, #max, __errors).map(|__f| __f #cast)
            }
        }
        (PropertySchema::SingleSelect(_), Kind::Enum(elem, span)) => {
            let from_str = from_str_path(elem, *span, krate);
            quote!(#private::select(__value, #ptr, #from_str, __errors))
        }
        (PropertySchema::MultiSelect(m), Kind::Multi(container, elem, span)) => {
            let from_str = from_str_path(elem, *span, krate);
            let (min, max) = (opt_u64(m.min_items), opt_u64(m.max_items));
            quote! {
                #private::multi_select::<_, _, #container>(
                    __value, #ptr, #min, #max, #from_str, __errors,
                )
            }
        }
        // The model of a select field is built from its kind.
        _ => unreachable!("a select property of a field that is not an enum"),
    }
}

fn expand_struct(
    ident: &syn::Ident,
    fields: &[Field],
    schema: &RequestedSchema,
    krate: Krate<'_>,
) -> TokenStream {
    // One property per field, in order (`model::form`).
    let fields: Vec<(&Field, &PropertySchema)> = fields
        .iter()
        .zip(schema.properties.iter().map(|(_, property)| property))
        .collect();
    let properties = fields.iter().map(|(field, property)| {
        let name = &field.name;
        let schema = property_schema(field, property, krate);
        quote!((::std::string::String::from(#name), #schema))
    });
    let required = &schema.required;
    let deny_unknown_fields = schema.additional_properties_forbidden;
    let checks = fields
        .iter()
        .map(|(field, property)| const_checks(field, property, krate));
    let count = fields.len();
    let names: Vec<&String> = fields.iter().map(|(f, _)| &f.name).collect();
    let indices = 0..count;
    let vars: Vec<_> = (0..count).map(|i| format_ident!("__field{}", i)).collect();
    let lets = fields
        .iter()
        .zip(&vars)
        .enumerate()
        .map(|(index, ((field, property), var))| {
            let ptr = mcp_elicit::pointer("", &field.name);
            // A string stays borrowed until the value is built (see `build`).
            let inner = match field.kind {
                Kind::String => quote!(&str),
                _ => field.inner.clone(),
            };
            let parse = parse_value(field, property, krate);
            let missing = if field.optional {
                quote!()
            } else {
                quote!(#krate::elicit::__private::missing(#ptr, __errors);)
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
    let patterns = fields.iter().zip(&vars).map(|((field, _), var)| {
        if field.optional {
            quote!(#var)
        } else {
            quote!(::core::option::Option::Some(#var))
        }
    });
    let idents = fields.iter().map(|(field, _)| &field.ident);
    // The strings are copied only when every check passed: a rejected answer copies none.
    let build =
        fields
            .iter()
            .zip(&vars)
            .map(|((field, _), var)| match (&field.kind, field.optional) {
                (Kind::String, false) => quote!(::std::string::String::from(#var)),
                (Kind::String, true) => quote!(#var.map(::std::string::String::from)),
                _ => quote!(#var),
            });
    let private = quote!(#krate::elicit::__private);
    let errors_ty = quote!(#krate::elicit::ValidationErrors);
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
            impl #krate::elicit::Elicit for #ident {
                fn requested_schema() -> #krate::elicit::RequestedSchema {
                    #krate::elicit::RequestedSchema {
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
                ) -> ::core::result::Result<Self, #krate::elicit::FromJsonError> {
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
                        .map_err(#krate::elicit::FromJsonError::Invalid)
                }
            }
        };
    }
}
