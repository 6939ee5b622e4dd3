//! Checking the `content` of an accepted form against its [`RequestedSchema`], with JSON Schema
//! 2020-12 semantics for the keywords of the elicitation subset.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::{Map, Number, Value};

use super::pattern::Matcher;
use super::{
    item_pointer, json_kind as kind, pointer, EnumOptions, NumberSchema, Problem, PropertySchema,
    RequestedSchema, StringFormat, Text, ValidationError, ValidationErrors,
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

/// A [`RequestedSchema`] compiled for validating many answers, from
/// [`RequestedSchema::validator`]; [`Validator::validate`] is [`RequestedSchema::validate`].
///
/// Compiling does once what does not depend on the answer: the patterns, each property's JSON
/// pointer and list of options (shared by the errors that need them), and a table from member
/// name to property. Validation then walks the answer's members once, without hashing a name
/// or formatting a message: messages are rendered when read ([`super::ValidationError::message`]).
#[derive(Debug)]
pub struct Validator<'a> {
    schema: &'a RequestedSchema,
    /// The property whose name comes first in byte order.
    first_sorted: usize,
    properties: Vec<Compiled<'a>>,
    /// Property index by name, for forms too large to scan (see [`Validator::find`]).
    by_name: Option<HashMap<&'a str, usize>>,
    /// How many properties are required.
    required_properties: usize,
    /// Required names that no property declares (a schema that [`RequestedSchema::check`]
    /// would refuse): missing unless the answer has them.
    required_elsewhere: Vec<&'a str>,
}

/// Forms with at most this many properties find a member's property by a scan (string
/// equality compares lengths first); larger ones hash the name.
const SCAN_LIMIT: usize = 16;

/// One property, ready to check a value.
#[derive(Debug)]
struct Compiled<'a> {
    name: &'a str,
    /// `/<name>`, escaped (RFC 6901).
    pointer: Arc<str>,
    required: bool,
    /// The next property of the same name (only in schemas that declare a name twice).
    same_name: Option<usize>,
    /// The property whose name comes next in byte order (a `Map` without serde_json's
    /// `preserve_order` lists its members so).
    next_sorted: usize,
    rule: Rule<'a>,
}

#[derive(Debug)]
enum Rule<'a> {
    String {
        min_length: Option<u64>,
        max_length: Option<u64>,
        pattern: Option<CompiledPattern>,
        format: Option<StringFormat>,
    },
    Number(&'a NumberSchema),
    Boolean,
    Select(Options<'a>),
    MultiSelect {
        options: Options<'a>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
}

/// A pattern's source, and the compiled pattern or why it does not compile.
type CompiledPattern = (Arc<str>, Result<Matcher, Arc<str>>);

/// The values of an enum, and their list as the `enum` message shows it.
#[derive(Debug)]
struct Options<'a> {
    values: Vec<&'a str>,
    listed: Arc<str>,
}

impl<'a> Options<'a> {
    fn new(options: &'a EnumOptions) -> Options<'a> {
        Options {
            values: options.values().collect(),
            listed: options_list(options).into(),
        }
    }

    #[inline]
    fn contains(&self, value: &str) -> bool {
        self.values.contains(&value)
    }

    fn not_an_option(&self, value: &Value) -> Problem {
        Problem::NotAnOption {
            value: Some(value.clone()),
            options: Some((&self.listed).into()),
        }
    }
}

impl<'a> Validator<'a> {
    fn new(schema: &'a RequestedSchema) -> Validator<'a> {
        let required: HashSet<&str> = schema.required.iter().map(String::as_str).collect();
        let mut properties: Vec<Compiled<'a>> = (schema.properties.iter())
            .map(|(name, property)| Compiled {
                name,
                pointer: pointer("", name).into(),
                required: required.contains(name.as_str()),
                same_name: None,
                next_sorted: usize::MAX,
                rule: Rule::new(property),
            })
            .collect();
        // The first property of each name; a name declared twice (`check` refuses it) links
        // each of its properties to the next, so that a member is checked against all of them.
        let mut by_name = HashMap::with_capacity(properties.len());
        for index in (0..properties.len()).rev() {
            properties[index].same_name = by_name.insert(properties[index].name, index);
        }
        // The first property of each name, in byte order of the names.
        let mut sorted: Vec<usize> = by_name.values().copied().collect();
        sorted.sort_unstable_by_key(|&index| properties[index].name);
        for pair in sorted.windows(2) {
            properties[pair[0]].next_sorted = pair[1];
        }
        let first_sorted = sorted.first().copied().unwrap_or(usize::MAX);
        let required_properties = properties.iter().filter(|p| p.required).count();
        let mut elsewhere = HashSet::new();
        let required_elsewhere = (schema.required.iter())
            .map(String::as_str)
            .filter(|name| !by_name.contains_key(name) && elsewhere.insert(*name))
            .collect();
        let by_name = (properties.len() > SCAN_LIMIT).then_some(by_name);
        Validator {
            schema,
            first_sorted,
            properties,
            by_name,
            required_properties,
            required_elsewhere,
        }
    }

    /// The index of the first property named `name`. A `Map` lists its members in byte order of
    /// their names, so the property at `expected` (the next name after the one found last,
    /// always the first property of its name) is tried first.
    #[inline(always)]
    fn find(&self, name: &str, expected: usize) -> Option<usize> {
        if let Some(property) = self.properties.get(expected) {
            if property.name == name {
                return Some(expected);
            }
        }
        match &self.by_name {
            None => self
                .properties
                .iter()
                .position(|property| property.name == name),
            Some(by_name) => by_name.get(name).copied(),
        }
    }

    /// Validates `content`: see [`RequestedSchema::validate`].
    pub fn validate(&self, content: &Map<String, Value>) -> Result<(), ValidationErrors> {
        let mut errors = ValidationErrors::default();
        let required_seen = self
            .check_members(content, &mut |at, problem| {
                errors.report(at, problem);
                true
            })
            .unwrap_or_default();
        if required_seen < self.required_properties {
            for property in &self.properties {
                if property.required && !content.contains_key(property.name) {
                    errors.report(&property.pointer, Problem::Missing);
                }
            }
        }
        for name in &self.required_elsewhere {
            if !content.contains_key(*name) {
                errors.report(pointer("", name), Problem::Missing);
            }
        }
        // The members came in the order of `content`; the report is in the order of the form.
        // A stable sort of a few errors, without allocating; most are in order already.
        if errors.0.len() > 1 && !errors.0.is_sorted_by(|a, b| self.place(a) <= self.place(b)) {
            errors.0.sort_by_key(|error| self.place(error));
        }
        errors.into_result()
    }

    /// Whether `content` is valid: [`Validator::validate`] without the report, stopping at the
    /// first violation. For a yes or no (say, enabling a form's submit button while the user
    /// types); it answers `true` exactly when `validate` answers `Ok`.
    pub fn is_valid(&self, content: &Map<String, Value>) -> bool {
        // The names of `content` are unique: each required property was counted at most once.
        self.check_members(content, &mut |_, _| false)
            .is_some_and(|required_seen| required_seen == self.required_properties)
            && (self.required_elsewhere.iter()).all(|name| content.contains_key(*name))
    }

    /// Checks each member of `content` against its properties, in the map's order, and hands
    /// each problem to `report` (an undeclared member's too, where the form forbids them).
    /// `report` answers whether to go on: the walk stops after the member it said no for
    /// (`None`). The number of required properties present. Inlined into both callers: as a
    /// call, it made `validate` 5–8% slower.
    #[inline(always)]
    fn check_members(
        &self,
        content: &Map<String, Value>,
        report: &mut impl FnMut(Text, Problem) -> bool,
    ) -> Option<usize> {
        let mut required_seen = 0;
        let mut expected = self.first_sorted;
        for (name, value) in content {
            let Some(first) = self.find(name, expected) else {
                if self.schema.additional_properties_forbidden
                    && !report(pointer("", name).into(), Problem::Undeclared)
                {
                    return None;
                }
                continue;
            };
            expected = self.properties[first].next_sorted;
            let mut go_on = true;
            let mut next = Some(first);
            while let Some(index) = next {
                let property = &self.properties[index];
                required_seen += usize::from(property.required);
                property.check(value, &mut |at, problem| go_on &= report(at, problem));
                next = property.same_name;
            }
            if !go_on {
                return None;
            }
        }
        Some(required_seen)
    }

    /// Where an error goes in the report: its property's index (an item's error goes with its
    /// multi select), then the missing required names that are not properties, then the
    /// undeclared members.
    fn place(&self, error: &ValidationError) -> usize {
        // Most errors share their property's pointer: found by address, not by text.
        let owner = match error.shared_pointer() {
            Some(shared) => {
                (self.properties.iter()).position(|property| Arc::ptr_eq(&property.pointer, shared))
            }
            None => None,
        };
        let owner = owner.or_else(|| {
            let at = error.pointer();
            self.properties.iter().position(|property| {
                at.strip_prefix(&*property.pointer)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        });
        match (owner, error.problem()) {
            (Some(index), _) => index,
            (None, Problem::Missing) => self.properties.len(),
            (None, _) => usize::MAX,
        }
    }
}

impl<'a> Rule<'a> {
    fn new(property: &'a PropertySchema) -> Rule<'a> {
        match property {
            PropertySchema::String(schema) => Rule::String {
                min_length: schema.min_length,
                max_length: schema.max_length,
                pattern: schema.pattern.as_deref().map(|pattern| {
                    let compiled =
                        Matcher::new(pattern).map_err(|error| Arc::from(error.to_string()));
                    (Arc::from(pattern), compiled)
                }),
                format: schema.format,
            },
            PropertySchema::Number(schema) => Rule::Number(schema),
            PropertySchema::Boolean(_) => Rule::Boolean,
            PropertySchema::SingleSelect(schema) => Rule::Select(Options::new(&schema.options)),
            PropertySchema::MultiSelect(schema) => Rule::MultiSelect {
                options: Options::new(&schema.options),
                min_items: schema.min_items,
                max_items: schema.max_items,
            },
        }
    }
}

impl Compiled<'_> {
    /// Checks a present member, reporting each problem with the pointer of its place.
    #[inline]
    fn check(&self, value: &Value, at: &mut impl FnMut(Text, Problem)) {
        let pointer = &self.pointer;
        let mut report = |problem| at(pointer.into(), problem);
        match &self.rule {
            Rule::String {
                min_length,
                max_length,
                pattern,
                format,
            } => match value {
                Value::String(text) => {
                    check_lengths(text, *min_length, *max_length, &mut report);
                    match pattern {
                        Some((_, Ok(matcher))) if matcher.is_match(text) => {}
                        Some((source, Ok(_))) => report(Problem::NoMatch(source.into())),
                        Some((source, Err(error))) => report(Problem::BadPattern {
                            pattern: source.into(),
                            error: error.into(),
                        }),
                        None => {}
                    }
                    if let Some(format) = format.filter(|format| !format.is_valid(text)) {
                        report(Problem::Format(format));
                    }
                }
                other => report(wrong_type("a string", other)),
            },
            Rule::Number(schema) => check_number(schema, value, report),
            Rule::Boolean => {
                if !value.is_boolean() {
                    report(wrong_type("a boolean", value));
                }
            }
            Rule::Select(options) => match value {
                Value::String(text) if options.contains(text) => {}
                Value::String(_) => report(options.not_an_option(value)),
                other => report(wrong_type("a string", other)),
            },
            Rule::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                let Value::Array(items) = value else {
                    report(wrong_type("an array", value));
                    return;
                };
                check_item_count(items.len(), *min_items, *max_items, &mut report);
                for (index, item) in items.iter().enumerate() {
                    if !item.as_str().is_some_and(|text| options.contains(text)) {
                        // An item's error points at the item.
                        let problem = options.not_an_option(item);
                        at(item_pointer(pointer, index).into(), problem);
                    }
                }
            }
        }
    }
}

fn wrong_type(expected: &'static str, value: &Value) -> Problem {
    Problem::WrongType {
        expected,
        found: Some(kind(value)),
    }
}

/// `minLength` and `maxLength`, in code points.
#[inline]
pub(crate) fn check_lengths(
    text: &str,
    min_length: Option<u64>,
    max_length: Option<u64>,
    mut report: impl FnMut(Problem),
) {
    // A string has at most as many code points as bytes and at least a quarter as many, so
    // most strings meet their bounds without being counted.
    let bytes = text.len() as u64;
    let must_count =
        min_length.is_some_and(|min| bytes / 4 < min) || max_length.is_some_and(|max| bytes > max);
    if must_count {
        let length = text.chars().count() as u64;
        if let Some(min) = min_length.filter(|&min| length < min) {
            report(Problem::TooShort { min, length });
        }
        if let Some(max) = max_length.filter(|&max| length > max) {
            report(Problem::TooLong { max, length });
        }
    }
}

/// `minItems` and `maxItems` of a multi select (every item counts, duplicates included).
#[inline]
pub(crate) fn check_item_count(
    count: usize,
    min_items: Option<u64>,
    max_items: Option<u64>,
    mut report: impl FnMut(Problem),
) {
    let count = count as u64;
    if let Some(min) = min_items.filter(|&min| count < min) {
        report(Problem::TooFew { min, count });
    }
    if let Some(max) = max_items.filter(|&max| count > max) {
        report(Problem::TooMany { max, count });
    }
}

fn check_number(schema: &NumberSchema, value: &Value, mut report: impl FnMut(Problem)) {
    let Value::Number(number) = value else {
        let expected = if schema.integer {
            "an integer"
        } else {
            "a number"
        };
        report(wrong_type(expected, value));
        return;
    };
    if schema.integer && !is_integer(number) {
        report(Problem::NotInteger(number.clone()));
        return;
    }
    if let Some(minimum) = &schema.minimum {
        if compare(number, minimum) == Ordering::Less {
            report(Problem::Below {
                minimum: minimum.clone(),
                value: number.clone(),
            });
        }
    }
    if let Some(maximum) = &schema.maximum {
        if compare(number, maximum) == Ordering::Greater {
            report(Problem::Above {
                maximum: maximum.clone(),
                value: number.clone(),
            });
        }
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

    /// Whether `content` is valid: `true` exactly when [`RequestedSchema::validate`] answers
    /// `Ok`, found without building the report (see [`Validator::is_valid`]).
    pub fn is_valid(&self, content: &Map<String, Value>) -> bool {
        self.validator().is_valid(content)
    }

    /// The schema compiled for validating many answers (see [`Validator`]).
    pub fn validator(&self) -> Validator<'_> {
        Validator::new(self)
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
    // An integer of at most 53 bits is exact as an `f64`: one comparison, without the
    // conversion of the float to `i128` (a library call).
    const EXACT: i128 = 1 << 53;
    if (-EXACT..=EXACT).contains(&int) {
        return float.partial_cmp(&(int as f64)).unwrap_or(Ordering::Equal);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_compare_exactly_on_both_sides_of_two_to_the_53() {
        let int = |n: i64| Number::from(n);
        let float = |f: f64| Number::from_f64(f).unwrap();
        let cases = [
            (float(3.0), int(3), Ordering::Equal),
            (float(0.5), int(0), Ordering::Greater),
            (float(-0.5), int(0), Ordering::Less),
            (float(-0.0), int(0), Ordering::Equal),
            // 2^53 + 1 is not a float: the float 2^53 is below it, exactly.
            (
                float(9007199254740992.0),
                int(9007199254740993),
                Ordering::Less,
            ),
            (
                float(9007199254740992.0),
                int(9007199254740992),
                Ordering::Equal,
            ),
            (
                float(-9007199254740992.0),
                int(-9007199254740993),
                Ordering::Greater,
            ),
            (float(1e300), int(i64::MAX), Ordering::Greater),
            (float(-1e300), int(i64::MIN), Ordering::Less),
            (
                float(9223372036854775808.0),
                Number::from(u64::MAX),
                Ordering::Less,
            ),
        ];
        for (a, b, expected) in cases {
            assert_eq!(compare(&a, &b), expected, "{a} vs {b}");
            assert_eq!(compare(&b, &a), expected.reverse(), "{b} vs {a}");
        }
    }
}
