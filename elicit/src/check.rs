//! Consistency rules of a [`RequestedSchema`], with pointers into its canonical JSON.
//!
//! A schema that breaks them still has well-defined validation (an empty enum or `min > max`
//! accepts nothing, a default is never validated), so [`RequestedSchema::parse`] accepts it:
//! real servers send such forms. A client that wants to refuse or warn asks
//! [`RequestedSchema::problems`]; code that writes a form ([`RequestedSchema::to_revision`],
//! `#[derive(Elicit)]`) is held to them. The derive runs these very functions when it expands
//! (see [`crate::__private::derive`]), so each rule and its message exist here alone, but for the
//! two rules that need the options of an enum field ([`Options::Deferred`]): the derive reports
//! those from the enum's expansion, with the options listed.

use std::cmp::Ordering;

use super::pattern::Matcher;
use super::validate::{compare, is_integral};
use super::{pointer, EnumOptions, PropertySchema, RequestedSchema, SchemaError};

/// Whether the options of the enum properties are known. `#[derive(Elicit)]` builds the model
/// of a struct before the compiler knows the variants of its enum-typed fields (they belong to
/// the enums' own expansions): it checks the rules that need them ([`not_an_option`] and
/// [`more_min_items_than_options`]) in constants instead, where the enum's expansion reports
/// them with its options listed (see `ElicitEnum::Checks` in `__private`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Options {
    Known,
    Deferred,
}

/// Every rule the schema breaks, in the order of its JSON.
pub(crate) fn problems(schema: &RequestedSchema) -> Vec<SchemaError> {
    let mut found = Vec::new();
    each_problem(schema, Options::Known, &mut |_, problem| {
        found.push(problem)
    });
    found
}

/// Hands every rule the schema breaks to `report`, in the order of its JSON, with the index of
/// the property at fault (`None` for a problem of `required`).
pub(crate) fn each_problem(
    schema: &RequestedSchema,
    options: Options,
    report: &mut dyn FnMut(Option<usize>, SchemaError),
) {
    for (index, (name, property)) in schema.properties.iter().enumerate() {
        let at = pointer("/properties", name);
        if schema.properties[..index]
            .iter()
            .any(|(earlier, _)| earlier == name)
        {
            report(
                Some(index),
                SchemaError::new(
                    &at,
                    format!(
                        "duplicate property `{name}`: an earlier property has the same name, so \
                         the answer cannot tell them apart"
                    ),
                ),
            );
        }
        check_property(property, &at, options, &mut |at, message| {
            report(Some(index), SchemaError::new(at, message))
        });
    }
    for (index, name) in schema.required.iter().enumerate() {
        let at = format!("/required/{index}");
        if schema.property(name).is_none() {
            report(
                None,
                SchemaError::new(&at, format!("`{name}` is required but is not a property")),
            );
        }
        if schema.required[..index].contains(name) {
            report(
                None,
                SchemaError::new(at, format!("`{name}` is listed twice in `required`")),
            );
        }
    }
}

/// The message of a default that is not one of the options of its enum.
pub(crate) fn not_an_option(value: &str) -> String {
    format!("the default `{value}` is not one of the options")
}

/// The message of a multi select whose `minItems` is more than its options.
pub(crate) fn more_min_items_than_options(min_items: u64) -> String {
    format!(
        "minItems {min_items} is greater than the number of options: no answer that selects \
         each option once can satisfy it"
    )
}

fn check_property(
    property: &PropertySchema,
    at: &str,
    options: Options,
    report: &mut dyn FnMut(String, String),
) {
    match property {
        PropertySchema::String(s) => {
            check_bounds(
                s.min_length,
                s.max_length,
                at,
                "minLength",
                "maxLength",
                report,
            );
            let matcher = s.pattern.as_deref().and_then(|pattern| {
                Matcher::new(pattern)
                    .map_err(|error| report(pointer(at, "pattern"), error.to_string()))
                    .ok()
            });
            if let Some(default) = &s.default {
                let default_at = pointer(at, "default");
                let length = default.chars().count() as u64;
                if let Some(min) = s.min_length.filter(|&min| length < min) {
                    report(
                        default_at.clone(),
                        format!("the default has {length} code points, fewer than minLength {min}"),
                    );
                }
                if let Some(max) = s.max_length.filter(|&max| length > max) {
                    report(
                        default_at.clone(),
                        format!("the default has {length} code points, more than maxLength {max}"),
                    );
                }
                match matcher.map(|matcher| matcher.find(default)) {
                    Some(Ok(false)) => report(
                        default_at.clone(),
                        "the default does not match the pattern".into(),
                    ),
                    Some(Err(error)) => report(default_at.clone(), error.to_string()),
                    Some(Ok(true)) | None => {}
                }
                if let Some(format) = s.format.filter(|format| !format.is_valid(default)) {
                    report(
                        default_at,
                        format!(
                            "the default is not a valid `{format}`, so a client would pre-fill \
                             an answer the form rejects: write {}, or remove the default",
                            format.description()
                        ),
                    );
                }
            }
        }
        PropertySchema::Number(n) => {
            if let (Some(min), Some(max)) = (&n.minimum, &n.maximum) {
                if compare(min, max) == Ordering::Greater {
                    report(
                        pointer(at, "minimum"),
                        format!(
                            "minimum {min} is greater than maximum {max}: no answer can satisfy \
                             both"
                        ),
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
                    if compare(default, min) == Ordering::Less {
                        report(
                            at.clone(),
                            format!("the default {default} is below minimum {min}"),
                        );
                    }
                }
                if let Some(max) = &n.maximum {
                    if compare(default, max) == Ordering::Greater {
                        report(at, format!("the default {default} is above maximum {max}"));
                    }
                }
            }
        }
        PropertySchema::Boolean(_) => {}
        PropertySchema::SingleSelect(s) => {
            if options == Options::Known {
                check_options(&s.options, at, false, !s.enum_names, report);
                if let Some(default) = s.default.as_deref() {
                    if !s.options.contains(default) {
                        report(pointer(at, "default"), not_an_option(default));
                    }
                }
            }
        }
        PropertySchema::MultiSelect(m) => {
            if options == Options::Known {
                check_options(&m.options, at, true, false, report);
            }
            check_bounds(m.min_items, m.max_items, at, "minItems", "maxItems", report);
            if options == Options::Known {
                let count = m.options.len() as u64;
                if let Some(min) = m.min_items.filter(|&min| min > count && count > 0) {
                    report(pointer(at, "minItems"), more_min_items_than_options(min));
                }
            }
            if let Some(default) = &m.default {
                let default_at = pointer(at, "default");
                for (index, value) in default.iter().enumerate() {
                    let item_at = format!("{default_at}/{index}");
                    if options == Options::Known && !m.options.contains(value) {
                        report(item_at.clone(), not_an_option(value));
                    }
                    if default[..index].contains(value) {
                        report(item_at, format!("the default selects `{value}` twice"));
                    }
                }
                let count = default.len() as u64;
                let selected = match count {
                    1 => "1 option".to_owned(),
                    _ => format!("{count} options"),
                };
                if let Some(min) = m.min_items.filter(|&min| count < min) {
                    report(
                        default_at.clone(),
                        format!("the default selects {selected}, fewer than minItems {min}"),
                    );
                }
                if let Some(max) = m.max_items.filter(|&max| count > max) {
                    report(
                        default_at,
                        format!("the default selects {selected}, more than maxItems {max}"),
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
    report: &mut dyn FnMut(String, String),
) {
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            report(
                pointer(at, min_name),
                format!(
                    "{min_name} {min} is greater than {max_name} {max}: no answer can satisfy both"
                ),
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
    // Titled options are written as `oneOf` (single select without `enumNames`).
    one_of: bool,
    report: &mut dyn FnMut(String, String),
) {
    if options.is_empty() {
        let list = match (options, multi) {
            (EnumOptions::Untitled(_), false) => pointer(at, "enum"),
            (EnumOptions::Titled(_), false) => pointer(at, "oneOf"),
            (EnumOptions::Untitled(_), true) => format!("{at}/items/enum"),
            (EnumOptions::Titled(_), true) => format!("{at}/items/anyOf"),
        };
        report(
            list,
            "an enum needs at least one option: a select without options accepts no answer".into(),
        );
    }
    // Hashed: a peer's form may list any number of options (compared pairwise, their square).
    let mut seen = std::collections::HashSet::new();
    for (index, value) in options.values().enumerate() {
        if !seen.insert(value) {
            let one_of = one_of && matches!(options, EnumOptions::Titled(_));
            report(
                option_pointer(options, at, multi, index),
                format!(
                    "duplicate option value `{value}`: an earlier option has the same value, so \
                     the answer cannot tell them apart{}",
                    if one_of {
                        ", and `oneOf` refuses it as matching both"
                    } else {
                        ""
                    }
                ),
            );
        }
    }
}
