//! Checking the `content` of an accepted form against its [`RequestedSchema`], with JSON Schema
//! 2020-12 semantics for the keywords of the elicitation subset.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::{Map, Number, Value};
use smallvec::SmallVec;

use super::pattern::Matcher;
use super::{
    item_pointer, json_kind as kind, pointer, same_text, EnumOptions, Problem, PropertySchema,
    RequestedSchema, StringFormat, Text, ValidationError, ValidationErrors,
};

type Content = Map<String, Value>;

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
    /// Property index by name, for forms too large to scan (see [`Validator::find`]). Boxed so
    /// that the field is one pointer: unboxed, each call loaded the map's fields up front,
    /// although most forms never use the map.
    #[allow(clippy::box_collection)]
    by_name: Option<Box<HashMap<&'a str, usize>>>,
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

/// `repr(u8)`: a tag byte of its own, so that the `match` of each member loads it and jumps
/// (in the default layout the tag hid in a niche and took four more instructions to decode).
#[derive(Debug)]
#[repr(u8)]
enum Rule<'a> {
    /// Absent bounds are `0` and `u64::MAX` (see [`check_lengths`]).
    String {
        min_length: u64,
        max_length: u64,
        /// Boxed: a null pointer is a cheaper `None` to test than the niche of the tuple.
        pattern: Option<Box<CompiledPattern>>,
        format: Option<StringFormat>,
    },
    Number {
        integer: bool,
        minimum: Option<Bound<'a>>,
        maximum: Option<Bound<'a>>,
        /// The bounds as an `i64` range, when every bound there is an `i64` (an absent one is
        /// `i64::MIN` or `i64::MAX`): an `i64` value is checked by two comparisons.
        int_range: Option<(i64, i64)>,
    },
    Boolean,
    Select(Options<'a>),
    /// Absent bounds are `0` and `u64::MAX`.
    MultiSelect {
        options: Options<'a>,
        min_items: u64,
        max_items: u64,
    },
}

/// A pattern's source, and the compiled pattern or why it does not compile.
type CompiledPattern = (Arc<str>, Result<Matcher, Arc<str>>);

/// The values of an enum, and their list as the `enum` message shows it.
#[derive(Debug)]
struct Options<'a> {
    values: Vec<&'a str>,
    listed: Arc<str>,
    /// Under `oneOf`, the values two or more options share: such a value matches several
    /// branches, which `oneOf` refuses (`problems()` reports the repetition).
    shared: Vec<&'a str>,
}

impl<'a> Options<'a> {
    /// `one_of`: the options are the branches of a `oneOf`, where a value must match exactly one.
    fn new(options: &'a EnumOptions, one_of: bool) -> Options<'a> {
        let values: Vec<&'a str> = options.values().collect();
        let mut shared = Vec::new();
        if one_of {
            for (index, value) in values.iter().enumerate() {
                if values[..index].contains(value) && !shared.contains(value) {
                    shared.push(*value);
                }
            }
        }
        Options {
            values,
            listed: options_list(options).into(),
            shared,
        }
    }

    /// A problem when `value`, one of the options, is the value of several `oneOf` branches.
    #[inline]
    fn shared(&self, value: &str) -> Option<Problem> {
        if self.shared.is_empty() {
            return None;
        }
        let count = self.values.iter().filter(|v| same_text(v, value)).count();
        (count > 1).then(|| Problem::Other {
            keyword: crate::Keyword::OneOf,
            message: Text::Owned(format!(
                "{} is the value of {count} options of `oneOf`, which accepts a value that \
                 matches exactly one",
                Value::from(value)
            )),
        })
    }

    #[inline]
    fn contains(&self, value: &str) -> bool {
        self.values.iter().any(|option| same_text(option, value))
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
        let by_name = (properties.len() > SCAN_LIMIT).then(|| Box::new(by_name));
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
            if same_text(property.name, name) {
                return Some(expected);
            }
        }
        match &self.by_name {
            None => self
                .properties
                .iter()
                .position(|property| same_text(property.name, name)),
            Some(by_name) => by_name.get(name).copied(),
        }
    }

    /// Validates `content`: see [`RequestedSchema::validate`].
    pub fn validate(&self, content: &Map<String, Value>) -> Result<(), ValidationErrors> {
        let mut errors = ValidationErrors::default();
        // Where each error goes in the report: its property's index, then the missing required
        // names that are not properties, then the undeclared members.
        let mut places = SmallVec::<[usize; 8]>::new();
        let required_seen = self
            .check_members(content, &mut |place, at, problem| {
                errors.report(at, problem);
                places.push(place);
                true
            })
            .unwrap_or_default();
        if required_seen < self.required_properties {
            for (index, property) in self.properties.iter().enumerate() {
                if property.required && !content.contains_key(property.name) {
                    errors.report(&property.pointer, Problem::Missing);
                    places.push(index);
                }
            }
        }
        for name in &self.required_elsewhere {
            if !content.contains_key(*name) {
                errors.report(pointer("", name), Problem::Missing);
                places.push(self.properties.len());
            }
        }
        // The members came in the order of `content`; the report is in the order of the form.
        if !places.is_sorted() {
            sort_by_place(&mut errors, &mut places);
        }
        errors.into_result()
    }

    /// Whether `content` is valid: [`Validator::validate`] without the report, stopping at the
    /// first violation. For a yes or no (say, enabling a form's submit button while the user
    /// types); it answers `true` exactly when `validate` answers `Ok`.
    pub fn is_valid(&self, content: &Map<String, Value>) -> bool {
        // The names of `content` are unique: each required property was counted at most once.
        self.check_members(content, &mut |_, _, _| false)
            .is_some_and(|required_seen| required_seen == self.required_properties)
            && (self.required_elsewhere.iter()).all(|name| content.contains_key(*name))
    }

    /// Checks each member of `content` against its properties, in the map's order, and hands
    /// each problem to `report` with the index of its property (an undeclared member's too,
    /// with `usize::MAX`, where the form forbids them).
    /// `report` answers whether to go on: the walk stops after the member it said no for
    /// (`None`). The number of required properties present. Inlined into both callers, so that
    /// each gets the walk specialized for its `report` (a call cannot fold a `report` that
    /// always says go on, or always says stop).
    #[inline(always)]
    fn check_members(
        &self,
        content: &Map<String, Value>,
        report: &mut impl FnMut(usize, Text, Problem) -> bool,
    ) -> Option<usize> {
        let mut required_seen = 0;
        let mut expected = self.first_sorted;
        for (name, value) in content {
            let Some(first) = self.find(name, expected) else {
                if self.schema.additional_properties_forbidden
                    && !report(usize::MAX, pointer("", name).into(), Problem::Undeclared)
                {
                    return None;
                }
                continue;
            };
            let property = &self.properties[first];
            expected = property.next_sorted;
            required_seen += usize::from(property.required);
            let mut go_on = true;
            property.check(value, &mut |at, problem| {
                go_on &= report(first, at, problem)
            });
            if let Some(index) = property.same_name {
                let (required, all_go_on) = self.check_same_name(index, value, report);
                required_seen += required;
                go_on &= all_go_on;
            }
            if !go_on {
                return None;
            }
        }
        Some(required_seen)
    }

    /// Checks `value` against the properties that declare its name again, from `index` on (a
    /// schema [`RequestedSchema::check`] refuses): how many of them are required, and whether
    /// `report` said to go on after each problem.
    #[cold]
    #[inline(never)]
    fn check_same_name(
        &self,
        index: usize,
        value: &Value,
        report: &mut impl FnMut(usize, Text, Problem) -> bool,
    ) -> (usize, bool) {
        let (mut required, mut go_on) = (0, true);
        let mut next = Some(index);
        while let Some(index) = next {
            let property = &self.properties[index];
            required += usize::from(property.required);
            property.check(value, &mut |at, problem| {
                go_on &= report(index, at, problem)
            });
            next = property.same_name;
        }
        (required, go_on)
    }
}

impl<'a> Rule<'a> {
    fn new(property: &'a PropertySchema) -> Rule<'a> {
        match property {
            PropertySchema::String(schema) => Rule::String {
                min_length: schema.min_length.unwrap_or(0),
                max_length: schema.max_length.unwrap_or(u64::MAX),
                pattern: schema.pattern.as_deref().map(|pattern| {
                    let compiled =
                        Matcher::new(pattern).map_err(|error| Arc::from(error.to_string()));
                    Box::new((Arc::from(pattern), compiled))
                }),
                format: schema.format,
            },
            PropertySchema::Number(schema) => {
                let minimum = schema.minimum.as_ref().map(Bound::new);
                let maximum = schema.maximum.as_ref().map(Bound::new);
                let int =
                    |bound: &Option<Bound>, absent| bound.as_ref().map_or(Some(absent), |b| b.int);
                Rule::Number {
                    integer: schema.integer,
                    int_range: int(&minimum, i64::MIN).zip(int(&maximum, i64::MAX)),
                    minimum,
                    maximum,
                }
            }
            PropertySchema::Boolean(_) => Rule::Boolean,
            PropertySchema::SingleSelect(schema) => Rule::Select(Options::new(
                &schema.options,
                // Written as `oneOf`; plain values and `enumNames` are written as `enum`.
                matches!(schema.options, EnumOptions::Titled(_)) && !schema.enum_names,
            )),
            PropertySchema::MultiSelect(schema) => Rule::MultiSelect {
                // `items.anyOf`: a value may match several branches.
                options: Options::new(&schema.options, false),
                min_items: schema.min_items.unwrap_or(0),
                max_items: schema.max_items.unwrap_or(u64::MAX),
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
                    if let Some((source, matcher)) = pattern.as_deref() {
                        match matcher.as_ref().map(|matcher| matcher.find(text)) {
                            Ok(Ok(true)) => {}
                            Ok(Ok(false)) => report(Problem::NoMatch(source.into())),
                            Ok(Err(error)) => report(Problem::BadPattern {
                                pattern: source.into(),
                                error: error.to_string().into(),
                            }),
                            Err(error) => report(Problem::BadPattern {
                                pattern: source.into(),
                                error: error.into(),
                            }),
                        }
                    }
                    if let Some(format) = format.filter(|format| !format.is_valid(text)) {
                        report(Problem::Format(format));
                    }
                }
                other => report(wrong_type("a string", other)),
            },
            Rule::Number {
                integer,
                minimum,
                maximum,
                int_range,
            } => match (int_range, value.as_i64()) {
                // An `i64` is an integer: only the bounds are left to check.
                (Some((min, max)), Some(int)) => {
                    if int < *min || int > *max {
                        check_number(*integer, minimum, maximum, value, report);
                    }
                }
                _ => check_number(*integer, minimum, maximum, value, report),
            },
            Rule::Boolean => {
                if !value.is_boolean() {
                    report(wrong_type("a boolean", value));
                }
            }
            Rule::Select(options) => match value {
                Value::String(text) if options.contains(text) => {
                    if let Some(problem) = options.shared(text) {
                        report(problem);
                    }
                }
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

/// Reorders `errors` stably by `places`, the two in step.
fn sort_by_place(errors: &mut ValidationErrors, places: &mut [usize]) {
    if errors.0.len() <= 16 {
        // Insertion sort, in place: a few errors, most of them in order already.
        for next in 1..errors.0.len() {
            let mut at = next;
            while at > 0 && places[at - 1] > places[at] {
                places.swap(at - 1, at);
                errors.0.swap(at - 1, at);
                at -= 1;
            }
        }
        return;
    }
    // Many errors: paired with their places for the standard stable sort.
    let mut paired: Vec<(usize, ValidationError)> =
        places.iter().copied().zip(errors.0.drain(..)).collect();
    paired.sort_by_key(|&(place, _)| place);
    errors.0.extend(paired.into_iter().map(|(_, error)| error));
}

/// `minLength` and `maxLength`, in code points; a bound that is absent is `0` or `u64::MAX`,
/// which every length meets.
#[inline]
pub(crate) fn check_lengths(text: &str, min: u64, max: u64, mut report: impl FnMut(Problem)) {
    // A string has at most as many code points as bytes and at least a quarter as many, so
    // most strings meet their bounds without being counted.
    let bytes = text.len() as u64;
    if bytes / 4 < min || bytes > max {
        let length = text.chars().count() as u64;
        if length < min {
            report(Problem::TooShort { min, length });
        }
        if length > max {
            report(Problem::TooLong { max, length });
        }
    }
}

/// `minItems` and `maxItems` of a multi select (every item counts, duplicates included); an
/// absent bound is `0` or `u64::MAX`.
#[inline]
pub(crate) fn check_item_count(count: usize, min: u64, max: u64, mut report: impl FnMut(Problem)) {
    let count = count as u64;
    if count < min {
        report(Problem::TooFew { min, count });
    }
    if count > max {
        report(Problem::TooMany { max, count });
    }
}

fn check_number(
    integer: bool,
    minimum: &Option<Bound>,
    maximum: &Option<Bound>,
    value: &Value,
    mut report: impl FnMut(Problem),
) {
    let Value::Number(number) = value else {
        let expected = if integer { "an integer" } else { "a number" };
        report(wrong_type(expected, value));
        return;
    };
    if integer && !is_integral(number) {
        report(Problem::NotInteger(number.clone()));
        return;
    }
    if let Some(minimum) = minimum {
        if minimum.compare(number) == Ordering::Greater {
            report(Problem::Below {
                minimum: minimum.number.clone(),
                value: number.clone(),
            });
        }
    }
    if let Some(maximum) = maximum {
        if maximum.compare(number) == Ordering::Less {
            report(Problem::Above {
                maximum: maximum.number.clone(),
                value: number.clone(),
            });
        }
    }
}

/// A `minimum` or `maximum`, with what compares it to most numbers in a few instructions: an
/// integer with an integer, a float with a float or an integer of at most 53 bits.
#[derive(Debug)]
struct Bound<'a> {
    number: &'a Number,
    /// The bound, when it is an integer that fits `i64`.
    int: Option<i64>,
    /// The bound as a float, when that is exact: a float, or an integer of at most 53 bits.
    float: Option<f64>,
}

/// Every integer of at most this magnitude (2^53) is exact as an `f64`.
const EXACT_IN_F64: u64 = 1 << 53;

impl<'a> Bound<'a> {
    fn new(number: &'a Number) -> Bound<'a> {
        let int = number.as_i64();
        let float = match int {
            Some(int) => (int.unsigned_abs() <= EXACT_IN_F64).then_some(int as f64),
            None if number.is_f64() => number.as_f64(),
            None => None,
        };
        Bound { number, int, float }
    }

    /// How the bound compares with `value`, exactly. The fast paths inline, the exact
    /// comparison of the other pairs in a call.
    #[inline(always)]
    fn compare(&self, value: &Number) -> Ordering {
        if let (Some(bound), Some(value)) = (self.int, value.as_i64()) {
            return bound.cmp(&value);
        }
        if let Some(bound) = self.float {
            if value.is_f64() {
                let value = value.as_f64().unwrap_or(0.0);
                return bound.partial_cmp(&value).unwrap_or(Ordering::Equal);
            }
            // An integer of at most 53 bits is exact as an `f64` too.
            if let Some(value) = value.as_i64().filter(|v| v.unsigned_abs() <= EXACT_IN_F64) {
                return bound
                    .partial_cmp(&(value as f64))
                    .unwrap_or(Ordering::Equal);
            }
        }
        compare(self.number, value)
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
    ///   not compile is reported as a `pattern` error. Every match runs in bounded time:
    ///   patterns without lookaround or backreferences in time linear in the string; lookaround
    ///   (`(?=…)`, `(?<!…)`) and backreferences (`\1`, `\k<name>`, with ECMA-262's reading: a
    ///   group without a value matches the empty string) with at most a million backtracking
    ///   steps, and an answer that needs more is a `pattern` error that says so. Refused, as a
    ///   `pattern` error on every answer (and by [`RequestedSchema::problems`]): inline
    ///   modifiers `(?i:…)`, patterns whose compiled form would exceed 1 MiB, and the few
    ///   backreferences a backtracking engine reads differently from ECMA-262 (to a group
    ///   repeated by `*`, `+` or `{n,}` from outside the repetition or before the group in it,
    ///   to a group inside lookbehind, or from inside lookbehind);
    /// - `format`: `email`, `uri`, `date` and `date-time` are asserted (RFC 5321 mailbox,
    ///   RFC 3986 absolute URI, RFC 3339 full-date and date-time);
    /// - `minimum`/`maximum`: inclusive, compared exactly;
    /// - `enum`: a single select's value, or an item of a multi select (pointer
    ///   `/<name>/<index>`), is not one of the options;
    /// - `oneOf`: a single select's value is the value of two or more of its titled options
    ///   (a `oneOf` that repeats a `const`, which [`RequestedSchema::problems`] reports): it
    ///   matches several branches, which `oneOf` refuses; every other option stays valid;
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

/// The exact integer value of a number that is stored as an integer.
fn as_integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

/// Compares two JSON numbers exactly (no rounding of large integers through `f64`): the bounds
/// of an answer, and those of a schema against each other and its default (`problems()`).
#[inline(never)]
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
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
    if int.unsigned_abs() <= u128::from(EXACT_IN_F64) {
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

/// Whether a JSON number is an integer in the JSON Schema sense (`3.0` is).
pub(crate) fn is_integral(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
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

    /// Errors come in the order of the form whatever the order of the members: a `Map` lists
    /// them by name, and these forms declare their names in reverse, so every error is out of
    /// place (a few, sorted in place, and many, sorted through the standard stable sort).
    #[test]
    fn errors_come_in_the_order_of_the_form() {
        for count in [2usize, 5, 16, 17, 40] {
            let names: Vec<String> = (0..count).rev().map(|i| format!("p{i:02}")).collect();
            let properties: Map<String, Value> = (names.iter())
                .map(|name| (name.clone(), serde_json::json!({"type": "string"})))
                .collect();
            // A `Map` without `preserve_order` would sort them; build the schema from JSON text.
            let text = format!(
                r#"{{"type":"object","properties":{{{}}},"additionalProperties":false}}"#,
                (names.iter())
                    .map(|name| format!(r#""{name}":{}"#, properties[name]))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let mut schema = RequestedSchema::parse_str(&text).expect("a valid schema");
            // A required name that no property declares (`check` refuses it; `validate` reports
            // it missing after the properties' errors, before the undeclared members).
            schema.required.push("zz".to_owned());
            // Every other member is wrong, `zz` is missing, `undeclared` is not allowed.
            let content: Content = (names.iter().enumerate())
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, name)| (name.clone(), Value::from(1)))
                .chain([("undeclared".to_owned(), Value::Null)])
                .collect();
            let errors = schema.validate(&content).unwrap_err();
            let pointers: Vec<&str> = errors.iter().map(|e| e.pointer()).collect();
            let mut expected: Vec<String> = (names.iter().enumerate())
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, name)| format!("/{name}"))
                .collect();
            expected.extend(["/zz".to_owned(), "/undeclared".to_owned()]);
            assert_eq!(pointers, expected, "{count} properties");
        }
    }

    /// A bound's quick comparisons give what the exact `compare` gives, for every pair of
    /// integers and floats around the places where the representations part.
    #[test]
    fn bounds_compare_as_numbers_do() {
        let mut numbers: Vec<Number> = [
            0i64,
            1,
            -1,
            17,
            18,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            -(1 << 53),
            -(1 << 53) - 1,
            i64::MAX,
            i64::MIN,
        ]
        .into_iter()
        .map(Number::from)
        .collect();
        numbers.extend([u64::MAX, 1 << 63].map(Number::from));
        numbers.extend(
            [
                0.0,
                -0.0,
                0.5,
                17.5,
                18.0,
                1e300,
                -1e300,
                9007199254740992.0,
                9.3e18,
                1.9e19,
            ]
            .map(|f| Number::from_f64(f).unwrap()),
        );
        for bound in &numbers {
            for value in &numbers {
                assert_eq!(
                    Bound::new(bound).compare(value),
                    compare(bound, value),
                    "{bound} vs {value}"
                );
            }
        }
    }
}
