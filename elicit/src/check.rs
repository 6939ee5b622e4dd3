//! Consistency rules of a [`RequestedSchema`], with pointers into its canonical JSON.
//!
//! A schema that breaks them still has well-defined validation (an empty enum or `min > max`
//! accepts nothing, a default is never validated), so [`RequestedSchema::parse`] accepts it:
//! real servers send such forms. A client that wants to refuse or warn asks
//! [`RequestedSchema::problems`]; code that writes a form ([`RequestedSchema::to_revision`],
//! `#[derive(Elicit)]`) is held to them.

use std::cmp::Ordering;

use serde_json::Number;

use super::{pointer, EnumOptions, PropertySchema, RequestedSchema, SchemaError};

/// Every rule the schema breaks, in the order of its JSON.
pub(crate) fn problems(schema: &RequestedSchema) -> Vec<SchemaError> {
    let mut found = Vec::new();
    for (index, (name, property)) in schema.properties.iter().enumerate() {
        let at = pointer("/properties", name);
        if schema.properties[..index]
            .iter()
            .any(|(earlier, _)| earlier == name)
        {
            found.push(SchemaError::new(
                &at,
                format!("duplicate property `{name}`"),
            ));
        }
        check_property(property, &at, &mut found);
    }
    for (index, name) in schema.required.iter().enumerate() {
        let at = format!("/required/{index}");
        if schema.property(name).is_none() {
            found.push(SchemaError::new(
                &at,
                format!("`{name}` is required but is not a property"),
            ));
        }
        if schema.required[..index].contains(name) {
            found.push(SchemaError::new(
                at,
                format!("`{name}` is listed twice in `required`"),
            ));
        }
    }
    found
}

fn check_property(property: &PropertySchema, at: &str, found: &mut Vec<SchemaError>) {
    let mut report = |at: String, message: String| found.push(SchemaError::new(at, message));
    match property {
        PropertySchema::String(s) => {
            check_bounds(
                s.min_length,
                s.max_length,
                at,
                "minLength",
                "maxLength",
                &mut report,
            );
            if let Some(default) = &s.default {
                let length = default.chars().count() as u64;
                if s.min_length.is_some_and(|min| length < min) {
                    report(
                        pointer(at, "default"),
                        format!("the default is shorter than minLength ({length} code points)"),
                    );
                }
                if s.max_length.is_some_and(|max| length > max) {
                    report(
                        pointer(at, "default"),
                        format!("the default is longer than maxLength ({length} code points)"),
                    );
                }
            }
        }
        PropertySchema::Number(n) => {
            if let (Some(min), Some(max)) = (&n.minimum, &n.maximum) {
                if compare(min, max) == Some(Ordering::Greater) {
                    report(
                        pointer(at, "minimum"),
                        format!("minimum {min} is greater than maximum {max}"),
                    );
                }
            }
            if let Some(default) = &n.default {
                let at = pointer(at, "default");
                if n.integer && !is_integral(default) {
                    report(
                        at.clone(),
                        format!("the default {default} of an integer is not an integer"),
                    );
                }
                if let Some(min) = &n.minimum {
                    if compare(default, min) == Some(Ordering::Less) {
                        report(
                            at.clone(),
                            format!("the default {default} is below minimum {min}"),
                        );
                    }
                }
                if let Some(max) = &n.maximum {
                    if compare(default, max) == Some(Ordering::Greater) {
                        report(at, format!("the default {default} is above maximum {max}"));
                    }
                }
            }
        }
        PropertySchema::Boolean(_) => {}
        PropertySchema::SingleSelect(s) => {
            check_options(&s.options, at, false, &mut report);
            if let Some(default) = &s.default {
                if !s.options.contains(default) {
                    report(
                        pointer(at, "default"),
                        format!("the default `{default}` is not one of the options"),
                    );
                }
            }
        }
        PropertySchema::MultiSelect(m) => {
            check_options(&m.options, at, true, &mut report);
            check_bounds(
                m.min_items,
                m.max_items,
                at,
                "minItems",
                "maxItems",
                &mut report,
            );
            if let Some(default) = &m.default {
                let default_at = pointer(at, "default");
                for (index, value) in default.iter().enumerate() {
                    let item_at = format!("{default_at}/{index}");
                    if !m.options.contains(value) {
                        report(
                            item_at.clone(),
                            format!("the default `{value}` is not one of the options"),
                        );
                    }
                    if default[..index].contains(value) {
                        report(item_at, format!("the default selects `{value}` twice"));
                    }
                }
                let count = default.len() as u64;
                if m.min_items.is_some_and(|min| count < min) {
                    report(
                        default_at.clone(),
                        format!("the default selects {count} options, fewer than minItems"),
                    );
                }
                if m.max_items.is_some_and(|max| count > max) {
                    report(
                        default_at,
                        format!("the default selects {count} options, more than maxItems"),
                    );
                }
            }
        }
    }
}

fn check_bounds(
    min: Option<u64>,
    max: Option<u64>,
    at: &str,
    min_name: &str,
    max_name: &str,
    report: &mut impl FnMut(String, String),
) {
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            report(
                pointer(at, min_name),
                format!("{min_name} {min} is greater than {max_name} {max}"),
            );
        }
    }
}

/// Pointer of option `index` in the canonical JSON of an enum property.
fn option_pointer(options: &EnumOptions, at: &str, multi: bool, index: usize) -> String {
    match (options, multi) {
        (EnumOptions::Untitled(_), false) => format!("{at}/enum/{index}"),
        (EnumOptions::Titled(_), false) => format!("{at}/oneOf/{index}/const"),
        (EnumOptions::Untitled(_), true) => format!("{at}/items/enum/{index}"),
        (EnumOptions::Titled(_), true) => format!("{at}/items/anyOf/{index}/const"),
    }
}

fn check_options(
    options: &EnumOptions,
    at: &str,
    multi: bool,
    report: &mut impl FnMut(String, String),
) {
    if options.is_empty() {
        let list = match (options, multi) {
            (EnumOptions::Untitled(_), false) => pointer(at, "enum"),
            (EnumOptions::Titled(_), false) => pointer(at, "oneOf"),
            (EnumOptions::Untitled(_), true) => format!("{at}/items/enum"),
            (EnumOptions::Titled(_), true) => format!("{at}/items/anyOf"),
        };
        report(list, "an enum needs at least one option".into());
    }
    let values: Vec<&str> = options.values().collect();
    for (index, value) in values.iter().enumerate() {
        if values[..index].contains(value) {
            report(
                option_pointer(options, at, multi, index),
                format!("duplicate option value `{value}`"),
            );
        }
    }
}

/// Whether a JSON number is an integer in the JSON Schema sense (`3.0` is).
pub(crate) fn is_integral(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Compares two JSON numbers exactly when both are integers, by value otherwise.
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return Some(x.cmp(&y));
    }
    // One negative i64 against a u64 above i64::MAX.
    if a.as_i64().is_some() && b.as_u64().is_some() {
        return Some(Ordering::Less);
    }
    if a.as_u64().is_some() && b.as_i64().is_some() {
        return Some(Ordering::Greater);
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}
