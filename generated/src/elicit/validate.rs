//! Checking the `content` of an accepted form against its [`RequestedSchema`], with JSON Schema
//! 2020-12 semantics for the keywords of the elicitation subset.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::{
    json_kind as kind, pointer, EnumOptions, MultiSelectSchema, NumberSchema, PropertySchema,
    RequestedSchema, SingleSelectSchema, StringFormat, StringSchema, ValidationErrors,
};

type Content = Map<String, Value>;

impl StringFormat {
    /// Whether `value` is valid for this format, as [`RequestedSchema::validate`] asserts it:
    ///
    /// - `email`: an RFC 5321 `Mailbox` (the SMTP form of the RFC 5322 addr-spec): a dot-atom
    ///   or quoted-string local part, exactly one unquoted `@`, and a host name (letters,
    ///   digits and inner hyphens per label) or an address literal (`[192.0.2.1]`,
    ///   `[IPv6:::1]`); no display name, comments or unquoted white space, ASCII only;
    /// - `uri`: an RFC 3986 `URI`, so a scheme is required (`/a/b` and `example.com` are
    ///   relative references, not URIs), with every character and percent-encoding checked,
    ///   ASCII only;
    /// - `date`: an RFC 3339 `full-date` that exists in the Gregorian calendar;
    /// - `date-time`: an RFC 3339 `date-time`, `T`/`Z` in either case, an offset required,
    ///   fractional seconds allowed, and a leap second (`:60`) only at 23:59 UTC.
    pub fn is_valid(self, value: &str) -> bool {
        match self {
            StringFormat::Email => mcp_schema_formats::is_email(value),
            StringFormat::Uri => mcp_schema_formats::is_uri(value),
            StringFormat::Date => mcp_schema_formats::is_date(value),
            StringFormat::DateTime => mcp_schema_formats::is_date_time(value),
        }
    }
}

/// A [`RequestedSchema`] ready to validate many answers (its patterns compiled once), from
/// [`RequestedSchema::validator`]; [`Validator::validate`] is [`RequestedSchema::validate`].
#[derive(Debug)]
pub struct Validator<'a> {
    schema: &'a RequestedSchema,
    /// Per property: its compiled `pattern`, or why it does not compile.
    patterns: Vec<Option<Result<regress::Regex, String>>>,
}

impl Validator<'_> {
    /// Validates `content`: see [`RequestedSchema::validate`].
    pub fn validate(&self, content: &Map<String, Value>) -> Result<(), ValidationErrors> {
        let schema = self.schema;
        let mut errors = ValidationErrors::default();
        for ((name, property), pattern) in schema.properties.iter().zip(&self.patterns) {
            let at = At(name);
            match content.get(name) {
                Some(value) => {
                    validate_property(property, pattern.as_ref(), value, at, &mut errors)
                }
                None if schema.is_required(name) => errors.push(
                    at.pointer(),
                    "required",
                    format!("the required member `{name}` is missing"),
                ),
                None => {}
            }
        }
        for name in &schema.required {
            if schema.property(name).is_none() && !content.contains_key(name) {
                errors.push(
                    pointer("", name),
                    "required",
                    format!("the required member `{name}` is missing"),
                );
            }
        }
        if schema.additional_properties_forbidden {
            for name in schema.unknown_members(content) {
                let message = format!("the member `{name}` is not a property of the form");
                errors.push(pointer("", &name), "additionalProperties", message);
            }
        }
        errors.into_result()
    }
}

/// Where a property's value is: its JSON pointer is built only when there is an error to
/// report, so that valid answers allocate nothing for it.
#[derive(Clone, Copy)]
struct At<'a>(&'a str);

impl At<'_> {
    fn pointer(self) -> String {
        pointer("", self.0)
    }
}

impl RequestedSchema {
    /// Validates the `content` of an accepted form against this schema, with JSON Schema
    /// 2020-12 semantics, and reports every violation (not just the first), each with the JSON
    /// pointer (RFC 6901) of the offending member and the violated keyword:
    ///
    /// - `required`: a required member is missing (pointer `/<name>`);
    /// - `type`: a member has the wrong JSON type (`null` is no type of the subset; an integer
    ///   may be written `3.0` or `1e2` but not `1.5`; a multi select must be an array). When the
    ///   type is wrong, the other keywords of that member are not reported;
    /// - `minLength`/`maxLength`: counted in Unicode code points, bounds inclusive;
    /// - `pattern`: an ECMA-262 regular expression (compiled with the `u` flag, as JSON Schema
    ///   2020-12 asks), searched for anywhere in the string (not anchored). A pattern that does
    ///   not compile is reported as a `pattern` error;
    /// - `format`: `email`, `uri`, `date` and `date-time` are asserted (RFC 5321 mailbox,
    ///   RFC 3986 absolute URI, RFC 3339 full-date and date-time);
    /// - `minimum`/`maximum`: inclusive, compared exactly;
    /// - `enum`: a single select's value, or an item of a multi select (pointer
    ///   `/<name>/<index>`), is not one of the options;
    /// - `minItems`/`maxItems`: every item counts, duplicates included;
    /// - `additionalProperties`: a member the schema does not declare, only when the schema
    ///   forbids them (see [`RequestedSchema::unknown_members`] to list them otherwise).
    ///
    /// Errors come in the order of the schema's properties, then missing required members the
    /// schema does not declare, then undeclared members.
    ///
    /// Each call compiles the schema's patterns; to check many answers against one schema, make
    /// a [`Validator`] once with [`RequestedSchema::validator`].
    pub fn validate(&self, content: &Map<String, Value>) -> Result<(), ValidationErrors> {
        self.validator().validate(content)
    }

    /// The schema prepared for validating many answers: its patterns compiled once.
    pub fn validator(&self) -> Validator<'_> {
        let patterns = self
            .properties
            .iter()
            .map(|(_, property)| match property {
                PropertySchema::String(StringSchema {
                    pattern: Some(pattern),
                    ..
                }) => Some(regress::Regex::with_flags(pattern, "u").map_err(|e| e.to_string())),
                _ => None,
            })
            .collect();
        Validator {
            schema: self,
            patterns,
        }
    }

    /// The names of the members of `content` that are not properties of the form, in the
    /// order of `content`. JSON Schema allows them unless the schema forbids additional
    /// properties; a client or server may still want to warn about them or drop them.
    pub fn unknown_members(&self, content: &Map<String, Value>) -> Vec<String> {
        content
            .keys()
            .filter(|name| self.property(name).is_none())
            .cloned()
            .collect()
    }

    /// The content a client pre-fills the form with: every property that has a `default`,
    /// with that default.
    pub fn defaults(&self) -> Map<String, Value> {
        let mut out = Content::new();
        for (name, property) in &self.properties {
            let value = match property {
                PropertySchema::String(schema) => schema.default.clone().map(Value::String),
                PropertySchema::Number(schema) => schema.default.clone().map(Value::Number),
                PropertySchema::Boolean(schema) => schema.default.map(Value::Bool),
                PropertySchema::SingleSelect(schema) => schema.default.clone().map(Value::String),
                PropertySchema::MultiSelect(schema) => schema.default.as_ref().map(|values| {
                    Value::Array(values.iter().cloned().map(Value::String).collect())
                }),
            };
            if let Some(value) = value {
                out.insert(name.clone(), value);
            }
        }
        out
    }
}

fn validate_property(
    property: &PropertySchema,
    pattern: Option<&Result<regress::Regex, String>>,
    value: &Value,
    at: At<'_>,
    errors: &mut ValidationErrors,
) {
    match property {
        PropertySchema::String(schema) => match value {
            Value::String(text) => validate_string(schema, pattern, text, at, errors),
            other => type_error(at, "a string", other, errors),
        },
        PropertySchema::Number(schema) => validate_number(schema, value, at, errors),
        PropertySchema::Boolean(_) => {
            if !value.is_boolean() {
                type_error(at, "a boolean", value, errors);
            }
        }
        PropertySchema::SingleSelect(schema) => validate_single(schema, value, at, errors),
        PropertySchema::MultiSelect(schema) => validate_multi(schema, value, at, errors),
    }
}

fn type_error(at: At<'_>, expected: &str, value: &Value, errors: &mut ValidationErrors) {
    errors.push(
        at.pointer(),
        "type",
        format!("expected {expected}, found {}", kind(value)),
    );
}

fn validate_string(
    schema: &StringSchema,
    pattern: Option<&Result<regress::Regex, String>>,
    text: &str,
    at: At<'_>,
    errors: &mut ValidationErrors,
) {
    let length = text.chars().count() as u64;
    if let Some(min) = schema.min_length {
        if length < min {
            errors.push(
                at.pointer(),
                "minLength",
                format!("must be at least {min} characters long, is {length}"),
            );
        }
    }
    if let Some(max) = schema.max_length {
        if length > max {
            errors.push(
                at.pointer(),
                "maxLength",
                format!("must be at most {max} characters long, is {length}"),
            );
        }
    }
    if let (Some(pattern), Some(compiled)) = (&schema.pattern, pattern) {
        match compiled {
            Ok(regex) => {
                if regex.find(text).is_none() {
                    errors.push(
                        at.pointer(),
                        "pattern",
                        format!("does not match the pattern `{pattern}`"),
                    );
                }
            }
            Err(error) => errors.push(
                at.pointer(),
                "pattern",
                format!(
                    "the pattern `{pattern}` is not a valid ECMA-262 regular expression: {error}"
                ),
            ),
        }
    }
    if let Some(format) = schema.format {
        if !format.is_valid(text) {
            errors.push(at.pointer(), "format", format!("is not a valid `{format}`"));
        }
    }
}

fn validate_number(
    schema: &NumberSchema,
    value: &Value,
    at: At<'_>,
    errors: &mut ValidationErrors,
) {
    let Value::Number(number) = value else {
        let expected = if schema.integer {
            "an integer"
        } else {
            "a number"
        };
        type_error(at, expected, value, errors);
        return;
    };
    if schema.integer && !is_integer(number) {
        errors.push(
            at.pointer(),
            "type",
            format!("expected an integer, found {number}"),
        );
        return;
    }
    if let Some(minimum) = &schema.minimum {
        if compare(number, minimum) == Ordering::Less {
            errors.push(
                at.pointer(),
                "minimum",
                format!("must be at least {minimum}, is {number}"),
            );
        }
    }
    if let Some(maximum) = &schema.maximum {
        if compare(number, maximum) == Ordering::Greater {
            errors.push(
                at.pointer(),
                "maximum",
                format!("must be at most {maximum}, is {number}"),
            );
        }
    }
}

/// Whether the number is mathematically an integer (JSON Schema: `1.0` is an integer).
fn is_integer(number: &Number) -> bool {
    if number.is_i64() || number.is_u64() {
        return true;
    }
    number
        .as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// The exact integer value of a number that is stored as an integer.
fn as_integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

/// Compares two JSON numbers exactly (no rounding of large integers through `f64`).
fn compare(a: &Number, b: &Number) -> Ordering {
    match (as_integer(a), as_integer(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => compare_float_int(b.as_f64().unwrap_or(0.0), x).reverse(),
        (None, Some(y)) => compare_float_int(a.as_f64().unwrap_or(0.0), y),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// Compares a finite float with an integer exactly.
fn compare_float_int(float: f64, int: i128) -> Ordering {
    let truncated = float.trunc();
    // Saturating cast; any integer here is within the i64/u64 range, far from saturation.
    let whole = truncated as i128;
    match whole.cmp(&int) {
        Ordering::Equal => {
            let fraction = float - truncated;
            fraction.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
        }
        other => other,
    }
}

fn options_list(options: &EnumOptions) -> String {
    let mut out = String::new();
    for (i, value) in options.values().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("{value:?}"));
    }
    out
}

fn validate_single(
    schema: &SingleSelectSchema,
    value: &Value,
    at: At<'_>,
    errors: &mut ValidationErrors,
) {
    match value {
        Value::String(text) => {
            if !schema.options.contains(text) {
                errors.push(
                    at.pointer(),
                    "enum",
                    format!(
                        "must be one of {}, is {text:?}",
                        options_list(&schema.options)
                    ),
                );
            }
        }
        other => type_error(at, "a string", other, errors),
    }
}

fn validate_multi(
    schema: &MultiSelectSchema,
    value: &Value,
    at: At<'_>,
    errors: &mut ValidationErrors,
) {
    let Value::Array(items) = value else {
        type_error(at, "an array", value, errors);
        return;
    };
    let count = items.len() as u64;
    if let Some(min) = schema.min_items {
        if count < min {
            errors.push(
                at.pointer(),
                "minItems",
                format!("must select at least {min} options, has {count}"),
            );
        }
    }
    if let Some(max) = schema.max_items {
        if count > max {
            errors.push(
                at.pointer(),
                "maxItems",
                format!("must select at most {max} options, has {count}"),
            );
        }
    }
    for (index, item) in items.iter().enumerate() {
        let member = match item {
            Value::String(text) => schema.options.contains(text),
            _ => false,
        };
        if !member {
            errors.push(
                pointer(&at.pointer(), &index.to_string()),
                "enum",
                format!(
                    "must be one of {}, is {}",
                    options_list(&schema.options),
                    item
                ),
            );
        }
    }
}
