//! The internal model of a deriving item: fields classified into form property kinds.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens as _;
use syn::spanned::Spanned as _;
use syn::{GenericArgument, PathArguments, Type};

use crate::attr::{self, FieldAttrs, VariantAttrs};
use crate::case;
use crate::ctxt::Ctxt;

/// An integer type and its range.
#[derive(Debug, Clone, Copy)]
pub struct IntTy {
    pub name: &'static str,
    pub min: i128,
    pub max: i128,
}

const INTS: [IntTy; 10] = [
    IntTy {
        name: "i8",
        min: i8::MIN as i128,
        max: i8::MAX as i128,
    },
    IntTy {
        name: "i16",
        min: i16::MIN as i128,
        max: i16::MAX as i128,
    },
    IntTy {
        name: "i32",
        min: i32::MIN as i128,
        max: i32::MAX as i128,
    },
    IntTy {
        name: "i64",
        min: i64::MIN as i128,
        max: i64::MAX as i128,
    },
    IntTy {
        name: "isize",
        min: i64::MIN as i128,
        max: i64::MAX as i128,
    },
    IntTy {
        name: "u8",
        min: 0,
        max: u8::MAX as i128,
    },
    IntTy {
        name: "u16",
        min: 0,
        max: u16::MAX as i128,
    },
    IntTy {
        name: "u32",
        min: 0,
        max: u32::MAX as i128,
    },
    IntTy {
        name: "u64",
        min: 0,
        max: u64::MAX as i128,
    },
    IntTy {
        name: "usize",
        min: 0,
        max: u64::MAX as i128,
    },
];

/// The kind of one form property.
#[derive(Clone)]
pub enum Kind {
    String,
    Bool,
    Int(IntTy),
    /// `true` for `f32`.
    Float(bool),
    /// A unit enum deriving `Elicit`: the type and its span.
    Enum(TokenStream, Span),
    /// A multi select: the container type (`Vec<E>`), the enum type and its span.
    Multi(TokenStream, TokenStream, Span),
}

impl Kind {
    pub fn describe(&self) -> &'static str {
        match self {
            Kind::String => "a string field",
            Kind::Bool => "a boolean field",
            Kind::Int(_) => "an integer field",
            Kind::Float(_) => "a number field",
            Kind::Enum(..) => "a single-select enum field",
            Kind::Multi(..) => "a multi-select field",
        }
    }
}

/// One field of a deriving struct.
pub struct Field {
    pub ident: syn::Ident,
    /// The property name (after serde renaming).
    pub name: String,
    /// The type inside `Option`, or the field type.
    pub inner: TokenStream,
    pub optional: bool,
    pub kind: Kind,
    pub attrs: FieldAttrs,
}

/// One variant of a deriving enum.
pub struct Variant {
    pub ident: syn::Ident,
    pub value: String,
    pub attrs: VariantAttrs,
}

/// What is being derived.
pub enum Item {
    /// The fields, and whether undeclared members are refused (`deny_unknown_fields`).
    Struct(Vec<Field>, bool),
    Enum(Vec<Variant>),
}

/// What a form field can be: the end of every message that refuses a field type. The
/// `on_unimplemented` note of `ElicitEnum` (in `mcp-elicit`) says the same.
const FIELD_TYPES: &str = "a form field is a `String`, `bool`, integer (`i8` to `i64`, `u8` to \
    `u64`, `isize`, `usize`), `f32` or `f64`, a unit-only enum deriving `Elicit`, a `Vec`, \
    `BTreeSet` or `HashSet` of such an enum, or an `Option` of one of these";

/// The message refusing a field type: `what` is not a form field type (`why`), then what is.
fn refused(what: &str, why: &str) -> String {
    if why.is_empty() {
        format!("{what} is not a form field type: {FIELD_TYPES}")
    } else {
        format!("{what} is not a form field type ({why}): {FIELD_TYPES}")
    }
}

/// A type as written, for messages: the tokens without the spaces that their `Display` puts
/// around punctuation (`Vec < i32 >`).
fn type_text(ty: &Type) -> String {
    let mut text = ty.to_token_stream().to_string();
    for (spaced, tight) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" ;", ";"),
        ("& ", "&"),
    ] {
        text = text.replace(spaced, tight);
    }
    text
}

fn unwrap_group(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => unwrap_group(&g.elem),
        Type::Paren(p) => unwrap_group(&p.elem),
        _ => ty,
    }
}

/// The single generic type argument of a path segment.
fn single_arg(args: &PathArguments) -> Option<&Type> {
    match args {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first()? {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Classifies a field type; `Err` is the message for an unsupported type.
fn classify(ty: &Type, nested: bool) -> Result<(bool, TokenStream, Kind), String> {
    let ty = unwrap_group(ty);
    let text = format!("`{}`", type_text(ty));
    let path = match ty {
        Type::Path(p) if p.qself.is_none() => &p.path,
        Type::Reference(_) => {
            return Err(refused(&text, "use an owned type such as `String`"));
        }
        Type::Tuple(_) => {
            return Err(refused(
                &text,
                "a form is a flat object: use one field per value",
            ));
        }
        Type::Array(_) | Type::Slice(_) => {
            return Err(refused(&text, "free-form arrays are not allowed in a form"));
        }
        _ => return Err(refused(&text, "")),
    };
    let last = path.segments.last().ok_or("empty path")?;
    let name = last.ident.to_string();
    let first = path
        .segments
        .first()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let std_path = path.segments.len() == 1 || matches!(first.as_str(), "std" | "core" | "alloc");
    let plain = matches!(last.arguments, PathArguments::None);
    if std_path {
        match name.as_str() {
            "String" if plain => return Ok((false, ty.to_token_stream(), Kind::String)),
            "bool" if plain => return Ok((false, ty.to_token_stream(), Kind::Bool)),
            "f32" if plain => return Ok((false, ty.to_token_stream(), Kind::Float(true))),
            "f64" if plain => return Ok((false, ty.to_token_stream(), Kind::Float(false))),
            "Option" => {
                let inner =
                    single_arg(&last.arguments).ok_or("`Option` needs one type argument")?;
                if nested {
                    return Err(refused(
                        "an `Option` of an `Option`",
                        "a property is either present or absent",
                    ));
                }
                let (_, inner_ty, kind) = classify(inner, true)?;
                return Ok((true, inner_ty, kind));
            }
            "Vec" | "BTreeSet" | "HashSet" => {
                let free = || refused(&text, "free-form arrays are not allowed in a form");
                let elem = single_arg(&last.arguments).ok_or_else(free)?;
                return match classify(elem, true) {
                    Ok((false, elem_ty, Kind::Enum(_, span))) => Ok((
                        false,
                        ty.to_token_stream(),
                        Kind::Multi(ty.to_token_stream(), elem_ty, span),
                    )),
                    _ => Err(free()),
                };
            }
            "HashMap" | "BTreeMap" | "Map" | "IndexMap" => {
                return Err(refused(
                    &text,
                    "a form is a flat object: declare one field per entry",
                ));
            }
            "u128" | "i128" => {
                return Err(refused(
                    &text,
                    "it does not fit a JSON number exactly: use a 64-bit or smaller integer",
                ));
            }
            "char" | "str" => {
                return Err(refused(&text, "use `String`"));
            }
            _ => {
                if let Some(int) = INTS.iter().find(|i| i.name == name) {
                    if plain {
                        return Ok((false, ty.to_token_stream(), Kind::Int(*int)));
                    }
                }
                if path.segments.len() > 1 {
                    return Err(refused(&text, ""));
                }
            }
        }
    }
    match name.as_str() {
        "Value" => return Err(refused(&text, "free-form JSON cannot be a form field")),
        "Box" | "Rc" | "Arc" | "Cow" => {
            return Err(refused(&text, "use the type inside it"));
        }
        _ => {}
    }
    if !plain {
        return Err(refused(
            &text,
            "a nested struct or container cannot be a form field",
        ));
    }
    Ok((
        false,
        ty.to_token_stream(),
        Kind::Enum(ty.to_token_stream(), ty.span()),
    ))
}

fn rename_all(cx: &Ctxt, attrs: &attr::ContainerAttrs) -> Option<String> {
    let rule = attrs.rename_all.as_ref()?;
    if case::RULES.contains(&rule.value.as_str()) {
        Some(rule.value.clone())
    } else {
        cx.error(
            rule.span,
            format!(
                "unknown `rename_all` rule `{}`: expected one of {}",
                rule.value,
                case::RULES.join(", ")
            ),
        );
        None
    }
}

/// The parts of the derive input (syn's `DeriveInput` needs a feature this workspace does not
/// enable, so the input is parsed as an item).
pub struct Input<'a> {
    pub attrs: &'a [syn::Attribute],
    pub ident: &'a syn::Ident,
    pub generics: &'a syn::Generics,
    pub data: Data<'a>,
}

/// The body of the derive input.
pub enum Data<'a> {
    Struct(&'a syn::Fields),
    Enum(&'a syn::punctuated::Punctuated<syn::Variant, syn::Token![,]>),
    Union,
}

impl<'a> Input<'a> {
    pub fn from_item(item: &'a syn::Item) -> Option<Self> {
        let (attrs, ident, generics, data) = match item {
            syn::Item::Struct(s) => (&s.attrs, &s.ident, &s.generics, Data::Struct(&s.fields)),
            syn::Item::Enum(e) => (&e.attrs, &e.ident, &e.generics, Data::Enum(&e.variants)),
            syn::Item::Union(u) => (&u.attrs, &u.ident, &u.generics, Data::Union),
            _ => return None,
        };
        Some(Input {
            attrs,
            ident,
            generics,
            data,
        })
    }
}

/// Parses the derive input into the model, reporting what it cannot represent.
pub fn parse(cx: &Ctxt, input: &Input) -> Option<Item> {
    let container = attr::container(cx, input.attrs);
    let rule = rename_all(cx, &container);
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        cx.error_spanned(
            input.generics,
            "#[derive(Elicit)] does not support generics: a form has a fixed schema; \
             remove the type parameters",
        );
    }
    match input.data {
        Data::Struct(fields) => {
            let syn::Fields::Named(named) = fields else {
                cx.error(
                    input.ident.span(),
                    "#[derive(Elicit)] needs a struct with named fields: each field becomes a \
                     named property of the form",
                );
                return None;
            };
            let mut fields = Vec::new();
            for field in &named.named {
                let ident = field.ident.clone().expect("named field");
                let attrs = attr::field(cx, &field.attrs);
                let raw = ident.to_string();
                let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_owned();
                let name = match (&attrs.rename, &rule) {
                    (Some(r), _) => r.clone(),
                    (None, Some(rule)) => case::field(rule, &raw),
                    (None, None) => raw,
                };
                match classify(&field.ty, false) {
                    Ok((optional, inner, kind)) => fields.push(Field {
                        ident,
                        name,
                        inner,
                        optional,
                        kind,
                        attrs,
                    }),
                    Err(message) => cx.error_spanned(&field.ty, message),
                }
            }
            Some(Item::Struct(fields, container.deny_unknown_fields))
        }
        Data::Enum(all) => {
            let mut variants = Vec::new();
            for variant in all {
                let attrs = attr::variant(cx, &variant.attrs);
                if !matches!(variant.fields, syn::Fields::Unit) {
                    cx.error_spanned(
                        variant,
                        "#[derive(Elicit)] on an enum needs unit variants only: a select \
                         option carries no data; remove the fields of this variant",
                    );
                    continue;
                }
                let raw = variant.ident.to_string();
                let value = match (&attrs.rename, &rule) {
                    (Some(r), _) => r.clone(),
                    (None, Some(rule)) => case::variant(rule, &raw),
                    (None, None) => raw,
                };
                variants.push(Variant {
                    ident: variant.ident.clone(),
                    value,
                    attrs,
                });
            }
            Some(Item::Enum(variants))
        }
        Data::Union => {
            cx.error(
                input.ident.span(),
                "#[derive(Elicit)] does not support unions: use a struct with named fields",
            );
            None
        }
    }
}
