//! The form as `mcp-elicit` models it, built from the fields and their attributes: the mapping
//! from Rust types and attribute literals to the `requestedSchema` subset. What does not map
//! (a constraint on the wrong kind of field, a literal of the wrong type, an integer bound
//! outside the field type's range, an unknown format) is reported here and left out, so that
//! the checks of `mcp-elicit` (`check.rs`) see only what the expansion will write.

use mcp_elicit::{
    BooleanSchema, EnumOptions, KeyOrder, Keyword, MultiSelectSchema, NumberSchema, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema, TitledOption,
};
use proc_macro2::Span;
use serde_json::Number;

use crate::ast::{Field, Kind, Variant};
use crate::attr::{DefaultValue, Num, Sp, KEYS};
use crate::ctxt::Ctxt;

/// The form of a struct: one property per field, in declaration order.
pub fn form(cx: &Ctxt, fields: &[Field], deny_unknown_fields: bool) -> RequestedSchema {
    RequestedSchema {
        properties: fields
            .iter()
            .map(|field| (field.name.clone(), property(cx, field)))
            .collect(),
        required: fields
            .iter()
            .filter(|field| !field.optional)
            .map(|field| field.name.clone())
            .collect(),
        additional_properties_forbidden: deny_unknown_fields,
    }
}

/// The options of a unit enum deriving `Elicit`, as a select field of its type shows them:
/// titled when any variant has a title (a variant without one is titled by its value).
pub fn options(variants: &[Variant]) -> EnumOptions {
    if variants.iter().any(|variant| variant.attrs.title.is_some()) {
        EnumOptions::Titled(
            variants
                .iter()
                .map(|variant| TitledOption {
                    value: variant.value.clone(),
                    title: variant
                        .attrs
                        .title
                        .as_ref()
                        .map_or_else(|| variant.value.clone(), |title| title.value.clone()),
                })
                .collect(),
        )
    } else {
        EnumOptions::Untitled(
            variants
                .iter()
                .map(|variant| variant.value.clone())
                .collect(),
        )
    }
}

/// The form of one select field whose options are `options`, named `name`: how the rules of
/// options (at least one, no value twice) are checked on an enum deriving `Elicit`.
pub fn select(name: &str, options: EnumOptions) -> RequestedSchema {
    RequestedSchema {
        properties: vec![(
            name.to_owned(),
            PropertySchema::SingleSelect(SingleSelectSchema {
                options,
                ..SingleSelectSchema::default()
            }),
        )],
        required: Vec::new(),
        additional_properties_forbidden: false,
    }
}

/// A JSON number of the form from a literal of the attributes. An integer beyond `u64` (which
/// the bounds of an integer field refuse) is written as the float nearest to it, so that the
/// checks still compare it.
pub fn number(n: Num) -> Number {
    match n {
        Num::Int(v) => i64::try_from(v)
            .map(Number::from)
            .or_else(|_| u64::try_from(v).map(Number::from))
            .unwrap_or_else(|_| Number::from_f64(v as f64).unwrap_or_else(|| Number::from(0))),
        Num::Float(f) => Number::from_f64(f).unwrap_or_else(|| Number::from(0)),
    }
}

/// The property schema of a field.
fn property(cx: &Ctxt, field: &Field) -> PropertySchema {
    let a = &field.attrs;
    let title = a.title.as_ref().map(|title| title.value.clone());
    let description = a
        .description
        .as_ref()
        .or(a.doc.as_ref())
        .map(|description| description.value.clone());
    let key_order = key_order(field);
    let string = "string fields";
    let number_kinds = "integer and number fields";
    let multi = "multi-select fields (Vec/BTreeSet/HashSet of an enum)";
    if !matches!(field.kind, Kind::String) {
        wrong_kind(cx, &a.min_length, "min_length", string, field);
        wrong_kind(cx, &a.max_length, "max_length", string, field);
        wrong_kind(cx, &a.pattern, "pattern", string, field);
        wrong_kind(cx, &a.format, "format", string, field);
    }
    if !matches!(field.kind, Kind::Int(_) | Kind::Float(_)) {
        wrong_kind(cx, &a.minimum, "minimum", number_kinds, field);
        wrong_kind(cx, &a.maximum, "maximum", number_kinds, field);
    }
    if !matches!(field.kind, Kind::Multi(..)) {
        wrong_kind(cx, &a.min_items, "min_items", multi, field);
        wrong_kind(cx, &a.max_items, "max_items", multi, field);
    }
    if let (Some(key), false) = (a.enum_names, matches!(field.kind, Kind::Enum(..))) {
        cx.error(
            key,
            format!(
                "`enum_names` applies to single-select fields (an enum deriving `Elicit`), but \
                 `{}` is {}; remove it",
                field.ident,
                field.kind.describe()
            ),
        );
    }
    match &field.kind {
        Kind::String => PropertySchema::String(StringSchema {
            title,
            description,
            min_length: a.min_length.as_ref().map(|v| v.value),
            max_length: a.max_length.as_ref().map(|v| v.value),
            pattern: a.pattern.as_ref().map(|p| p.value.clone()),
            format: a
                .format
                .as_ref()
                .and_then(|f| match f.value.parse::<StringFormat>() {
                    Ok(format) => Some(format),
                    Err(unknown) => {
                        cx.error(f.span, unknown);
                        None
                    }
                }),
            default: default(cx, field, "a string literal", |d| match d {
                DefaultValue::Str(s) => Some(s.clone()),
                _ => None,
            }),
            key_order,
        }),
        Kind::Bool => PropertySchema::Boolean(BooleanSchema {
            title,
            description,
            default: default(cx, field, "`true` or `false`", |d| match d {
                DefaultValue::Bool(b) => Some(*b),
                _ => None,
            }),
            key_order,
        }),
        Kind::Int(int) => {
            // A bound that is not an integer of the field's type is refused; the type's own
            // bound stands in for it.
            let bound = |attr: &Option<Sp<Num>>, name: &str, absent: i128| -> i128 {
                let Some(attr) = attr else { return absent };
                match attr.value {
                    Num::Float(_) => cx.error(
                        attr.span,
                        format!("`{name}` of an integer field must be an integer literal"),
                    ),
                    Num::Int(v) if v < int.min || v > int.max => cx.error(
                        attr.span,
                        format!(
                            "`{name}` = {v} is outside the range of `{}` ({}..={}): narrow the \
                             range or use a wider integer type",
                            int.name, int.min, int.max
                        ),
                    ),
                    Num::Int(v) => return v,
                }
                absent
            };
            let minimum = bound(&a.minimum, "minimum", int.min);
            let maximum = bound(&a.maximum, "maximum", int.max);
            PropertySchema::Number(NumberSchema {
                integer: true,
                title,
                description,
                minimum: Some(number(Num::Int(minimum))),
                maximum: Some(number(Num::Int(maximum))),
                default: default(cx, field, "an integer literal", |d| match d {
                    DefaultValue::Num(n @ Num::Int(_)) => Some(number(*n)),
                    _ => None,
                }),
                key_order,
            })
        }
        Kind::Float(_) => PropertySchema::Number(NumberSchema {
            integer: false,
            title,
            description,
            minimum: a.minimum.as_ref().map(|m| number(m.value)),
            maximum: a.maximum.as_ref().map(|m| number(m.value)),
            default: default(cx, field, "a number literal", |d| match d {
                DefaultValue::Num(n) => Some(number(*n)),
                _ => None,
            }),
            key_order,
        }),
        // The options are the variants of the field's type, which the expansion asks the type
        // for: the model leaves them out (see `mcp_elicit::__private::derive::problems`).
        Kind::Enum(..) => PropertySchema::SingleSelect(SingleSelectSchema {
            title,
            description,
            options: EnumOptions::default(),
            default: default(
                cx,
                field,
                "a string literal naming an option value",
                |d| match d {
                    DefaultValue::Str(s) => Some(s.clone()),
                    _ => None,
                },
            ),
            enum_names: a.enum_names.is_some(),
            key_order,
        }),
        Kind::Multi(..) => PropertySchema::MultiSelect(MultiSelectSchema {
            title,
            description,
            options: EnumOptions::default(),
            min_items: a.min_items.as_ref().map(|v| v.value),
            max_items: a.max_items.as_ref().map(|v| v.value),
            default: default(
                cx,
                field,
                "a list of option values (`[\"a\", \"b\"]`)",
                |d| match d {
                    DefaultValue::List(values) => {
                        Some(values.iter().map(|(value, _)| value.clone()).collect())
                    }
                    _ => None,
                },
            ),
            key_order,
        }),
    }
}

/// The default of `field`, when its literal is what `pick` takes; else reported as `expected`.
fn default<T>(
    cx: &Ctxt,
    field: &Field,
    expected: &str,
    pick: impl Fn(&DefaultValue) -> Option<T>,
) -> Option<T> {
    let d = field.attrs.default.as_ref()?;
    let value = pick(&d.value);
    if value.is_none() {
        cx.error(
            d.span,
            format!(
                "`default` of {} must be {expected}, found {}",
                field.kind.describe(),
                d.value.describe()
            ),
        );
    }
    value
}

fn wrong_kind<T>(cx: &Ctxt, attr: &Option<Sp<T>>, name: &str, applies: &str, field: &Field) {
    if let Some(attr) = attr {
        cx.error(
            attr.key,
            format!(
                "`{name}` applies to {applies}, but `{}` is {}; remove it",
                field.ident,
                field.kind.describe()
            ),
        );
    }
}

/// The order of the keywords: as the keys of `#[elicit(...)]` are written, a doc comment
/// (written above the attributes) counting as a `description` written first, and the options
/// of an enum field, implied by its type, right before `default`, as in the spec's text.
fn key_order(field: &Field) -> KeyOrder {
    let a = &field.attrs;
    let doc_first = a.description.is_none() && a.doc.is_some();
    let mut order = Vec::new();
    if doc_first {
        order.push(Keyword::Description);
    }
    for key in &a.order {
        if let Some(&(_, keyword)) = KEYS.iter().find(|(name, _)| name == key) {
            if keyword == Keyword::Default {
                order.extend(KeyOrder::OPTIONS);
            }
            order.push(keyword);
        }
    }
    KeyOrder(order)
}

/// The span of what a problem of `mcp-elicit` at `pointer` (`/properties/<name>/<keyword>…`)
/// is about in the field: the value of the attribute that wrote the keyword, the field type
/// for its options, or the field's name.
pub fn span(field: &Field, pointer: &str) -> Span {
    let property = mcp_elicit::pointer("/properties", &field.name);
    let keyword = pointer
        .strip_prefix(property.as_str())
        .and_then(|rest| rest.split('/').nth(1))
        .unwrap_or("");
    let attribute = KEYS
        .iter()
        .find(|(_, json)| json.as_str() == keyword)
        .and_then(|(key, ..)| field.attrs.value_span(key));
    match (attribute, &field.kind) {
        (Some(span), _) => span,
        (None, Kind::Enum(_, span) | Kind::Multi(_, _, span))
            if matches!(keyword, "enum" | "oneOf" | "items") =>
        {
            *span
        }
        _ => field.ident.span(),
    }
}
