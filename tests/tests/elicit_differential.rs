//! Differential property test: the compiled validator of `#[derive(Elicit)]` against the
//! dynamic `RequestedSchema::validate` on the derived schema.
//!
//! For forms covering every kind of property and constraint, arbitrary `content` objects are
//! generated from the form's own schema (values of the right type near and across every bound,
//! format look-alikes, option values and near misses, values of every wrong type, missing
//! members, undeclared members) and
//!
//! - `T::from_content(&content)` must report exactly the `(pointer, keyword)` pairs that
//!   `T::requested_schema().validate(&content)` reports (so `Ok` exactly when `Ok`);
//! - `T::from_json_str(text)` must give the same outcome as `T::from_content` on the object the
//!   text parses to, for the text written compactly, pretty-printed, with every non-ASCII
//!   character escaped as `\uXXXX`, with duplicate members in front (the last occurrence
//!   counts), and with the members in the order of the form, as clients write them (the
//!   decoder guesses each key from the one before).
//!
//! The forms: strings with lengths, patterns and every format; integers of several widths and
//! bounds, floats, booleans; untitled and titled single and multi selects with item bounds,
//! optional and renamed fields (`rename_all`, `a/b~c`, `名前`, the empty name); one of
//! everything; a closed form (`deny_unknown_fields`). The inputs are random on every run; a
//! separate, deterministic sample of the same generators checks that they reach valid answers
//! and every keyword's error.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use mcp_typed::elicit::{
    EnumOptions, FromJsonError, PropertySchema, RequestedSchema, StringFormat, ValidationErrors,
};
use mcp_typed::Elicit;
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Number, Value};

// ---------------------------------------------------------------------------------------------
// The forms.

/// Strings: lengths, patterns, every format.
#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Texts {
    #[elicit(min_length = 2, max_length = 5)]
    name: String,
    #[elicit(pattern = "^[a-z]+[0-9]?$")]
    code: Option<String>,
    #[elicit(format = "email")]
    email: String,
    #[elicit(format = "uri", max_length = 30)]
    homepage: Option<String>,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time", min_length = 20)]
    meeting: Option<String>,
    /// Code points, not bytes: "é😀" is 2 long.
    #[elicit(pattern = "^\\p{L}", min_length = 1, max_length = 3)]
    initials: Option<String>,
    free: Option<String>,
}

/// Integers of several widths (their ranges become bounds), floats, booleans.
#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Numbers {
    #[elicit(minimum = -5, maximum = 20)]
    level: i32,
    byte: u8,
    signed: Option<i8>,
    wide: Option<i64>,
    unsigned: Option<u64>,
    #[elicit(minimum = 10, maximum = 1000, default = 80)]
    port: Option<u16>,
    #[elicit(minimum = -1.5, maximum = 100)]
    ratio: f64,
    free: Option<f64>,
    #[elicit(minimum = 0, maximum = 1)]
    share: Option<f32>,
    flag: bool,
    #[elicit(default = false)]
    maybe: Option<bool>,
}

#[derive(Debug, Elicit, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Debug, Elicit, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Size {
    #[serde(rename = "s")]
    #[elicit(title = "Small")]
    Small,
    #[serde(rename = "m")]
    #[elicit(title = "Medium")]
    Medium,
    #[serde(rename = "l")]
    #[elicit(title = "Large")]
    Large,
}

/// Selects, untitled and titled, single and multiple; renamed fields.
#[derive(Debug, Elicit)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Choices {
    favourite_color: Color,
    size: Option<Size>,
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<Color>,
    #[elicit(max_items = 2, default = ["s"])]
    sizes: Option<BTreeSet<Size>>,
    #[serde(rename = "a/b~c")]
    #[elicit(min_items = 2)]
    escaped: Option<Vec<Size>>,
    #[serde(rename = "名前")]
    #[elicit(min_length = 1)]
    name: String,
    #[serde(rename = "")]
    empty: Option<bool>,
}

/// One of everything in a single form.
#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Everything {
    #[elicit(
        title = "Name",
        min_length = 1,
        max_length = 4,
        pattern = "^[A-Za-zé]+$"
    )]
    name: String,
    #[elicit(format = "email")]
    email: Option<String>,
    #[elicit(minimum = 18, maximum = 130)]
    age: Option<u8>,
    #[elicit(minimum = 0.5, maximum = 2.5, default = 1.5)]
    scale: Option<f64>,
    subscribe: bool,
    color: Option<Color>,
    #[elicit(max_items = 3)]
    sizes: Option<Vec<Size>>,
}

/// A closed form: undeclared members are refused (`additionalProperties: false`).
#[derive(Debug, Elicit)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Closed {
    #[serde(rename = "x/y")]
    #[elicit(max_length = 3)]
    slashed: String,
    level: Option<i8>,
    color: Option<Color>,
}

// ---------------------------------------------------------------------------------------------
// Values.

/// A regular-expression generator, compiled once (a `&str` strategy recompiles on every value).
fn regex(pattern: &str) -> BoxedStrategy<String> {
    proptest::string::string_regex(pattern)
        .expect("a valid generator regex")
        .boxed()
}

fn as_int(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Numbers as JSON can carry them: integers of every width, integral floats (`3.0`, `1e2`),
/// fractions, huge values, and each of `bounds` with its neighbours.
fn number(bounds: &[Number]) -> BoxedStrategy<Value> {
    let special: Vec<Value> = vec![
        Value::from(0),
        Value::from(-0.0),
        Value::from(3.0),
        Value::from(1e2),
        Value::from(1.5),
        Value::from(1e300),
        Value::from(-1e300),
        Value::from(9_007_199_254_740_993_u64),
        Value::from(2f64.powi(63)),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(i64::MAX),
        Value::from(f64::MIN_POSITIVE),
        Value::from(f64::MAX),
    ];
    let mut near: Vec<Value> = Vec::new();
    for bound in bounds {
        if let Some(b) = as_int(bound) {
            for i in [b - 1, b, b + 1] {
                near.push(match (i64::try_from(i), u64::try_from(i)) {
                    (Ok(i), _) => Value::from(i),
                    (_, Ok(u)) => Value::from(u),
                    _ => Value::from(i as f64),
                });
            }
        }
        if let Some(f) = bound.as_f64() {
            for x in [f - 1.0, f - 0.5, f, f + 0.5, f + 1.0] {
                near.push(Value::from(x));
            }
        }
    }
    let mut arms: Vec<(u32, BoxedStrategy<Value>)> = vec![
        (3, prop::sample::select(special).boxed()),
        (1, any::<i64>().prop_map(Value::from).boxed()),
        (1, any::<u64>().prop_map(Value::from).boxed()),
        (2, (-300_i64..300).prop_map(Value::from).boxed()),
        (
            2,
            (-300_i64..300).prop_map(|i| Value::from(i as f64)).boxed(),
        ),
        (
            2,
            (-3000_i64..3000)
                .prop_map(|i| Value::from(i as f64 / 8.0))
                .boxed(),
        ),
        (
            1,
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from)
                .boxed(),
        ),
    ];
    if !near.is_empty() {
        arms.push((6, prop::sample::select(near).boxed()));
    }
    Union::new_weighted(arms).boxed()
}

/// Characters that make lengths and patterns interesting: ASCII, accents (precomposed and
/// combining), CJK, an astral emoji, separators of the formats.
const CHARS: &[char] = &[
    'a', 'b', 'z', 'A', 'Z', '0', '9', 'é', 'e', '\u{301}', '日', '😀', ' ', '-', '.', '@', ':',
    '/', '%', '"', '\\', '[', ']', 'T', 't', '+', '\n',
];

/// Characters of the strings meant to satisfy a property: one and several bytes long.
const GOOD_CHARS: &[char] = &['a', 'b', 'k', 'x', 'z', 'é', '日', '😀'];

/// Pieces of the four formats, to build near misses.
const PIECES: &[&str] = &[
    "",
    "a",
    "@",
    "example.com",
    "\"a b\"",
    "[127.0.0.1]",
    "[IPv6:::1]",
    "..",
    ".",
    "http:",
    "https://",
    "urn:isbn:0451450523",
    "mailto:",
    "//",
    "%41",
    "%zz",
    "?q=1",
    "#f",
    "2024-02-29",
    "1900-02-29",
    "2023-13-01",
    "T",
    "t",
    " ",
    "23:59:60",
    "12:00:00",
    ".123",
    "Z",
    "+05:30",
    "-08:00",
    "é",
    "日本",
    "😀",
];

/// Strings each format accepts.
fn valid_samples(format: StringFormat) -> &'static [&'static str] {
    match format {
        StringFormat::Email => &[
            "a@example.com",
            "first.last@sub.example.org",
            "user+tag@example.co",
            "\"a b\"@example.com",
            "joe@[127.0.0.1]",
            "x@y",
        ],
        StringFormat::Uri => &[
            "https://example.com/a?b=1#c",
            "urn:isbn:0451450523",
            "mailto:a@example.com",
            "http://[::1]:8080/",
            "ftp://u:p@host/%41",
            "a:b",
        ],
        StringFormat::Date => &["2024-02-29", "2000-01-01", "1999-12-31", "0001-01-01"],
        StringFormat::DateTime => &[
            "2024-02-29T12:00:00Z",
            "1990-12-31T23:59:60Z",
            "2023-01-01t00:00:00.123+05:30",
            "1998-12-31T15:59:60.5-08:00",
        ],
    }
}

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        2 => prop::collection::vec(prop::sample::select(CHARS), 0..8)
            .prop_map(|chars| chars.into_iter().collect::<String>()),
        2 => prop::collection::vec(prop::sample::select(PIECES), 0..5).prop_map(|p| p.concat()),
        1 => regex("[a-z]{0,7}[0-9]?"),
        1 => regex("[a-z.+]{1,6}@[a-z]{1,6}(\\.[a-z]{2,3})?"),
        1 => regex("[a-z][a-z0-9+.-]{0,4}:(//)?[a-z0-9._~%@:/?#\\[\\]-]{0,12}"),
        1 => regex("[0-9]{4}-[01][0-9]-[0-3][0-9]"),
        1 => regex(
            "[0-9]{4}-[01][0-9]-[0-3][0-9][Tt ][0-2][0-9]:[0-5][0-9]:[0-6][0-9]\
             (\\.[0-9]{1,3})?([Zz]|[+-][0-2][0-9]:[0-5][0-9])?"
        ),
        1 => any::<String>(),
    ]
    .boxed()
}

/// Strings of `min..=max` characters of `chars`.
fn chars_text(chars: &'static [char], min: usize, max: usize) -> BoxedStrategy<String> {
    prop::collection::vec(prop::sample::select(chars), min..=max)
        .prop_map(|chars| chars.into_iter().collect::<String>())
        .boxed()
}

fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(&[]),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((regex("[a-z]{0,2}"), inner), 0..3)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Option values, their titles and near misses.
fn option_text(options: &EnumOptions) -> BoxedStrategy<String> {
    let mut near: Vec<String> = Vec::new();
    for value in options.values() {
        near.push(value.to_uppercase());
        near.push(value.to_lowercase());
        near.push(format!("{value} "));
    }
    if let EnumOptions::Titled(titled) = options {
        near.extend(titled.iter().map(|option| option.title.clone()));
    }
    let values: Vec<String> = options.values().map(str::to_owned).collect();
    prop_oneof![
        3 => prop::sample::select(values),
        2 => prop::sample::select(near),
        1 => text(),
    ]
    .boxed()
}

/// A value of the property's type, near and across its constraints.
fn typed_value(property: &PropertySchema) -> BoxedStrategy<Value> {
    match property {
        PropertySchema::String(schema) => {
            let formatted = match schema.format {
                None => text(),
                Some(format) => prop_oneof![
                    1 => prop::sample::select(valid_samples(format)).prop_map(str::to_owned),
                    2 => text(),
                ]
                .boxed(),
            };
            let most = schema
                .max_length
                .or(schema.min_length)
                .map_or(6, |n| n as usize + 2);
            let min = schema.min_length.unwrap_or(0) as usize;
            let max = schema.max_length.map_or(most, |n| n as usize);
            let edges = vec![0, min.saturating_sub(1), min, max, max + 1];
            let edge = prop::sample::select(edges).prop_flat_map(|n| chars_text(CHARS, n, n));
            prop_oneof![formatted, chars_text(CHARS, 0, most), edge]
                .prop_map(Value::String)
                .boxed()
        }
        PropertySchema::Number(schema) => number(
            &[&schema.minimum, &schema.maximum, &schema.default]
                .into_iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>(),
        ),
        PropertySchema::Boolean(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        PropertySchema::SingleSelect(schema) => {
            option_text(&schema.options).prop_map(Value::String).boxed()
        }
        PropertySchema::MultiSelect(schema) => {
            let most = schema
                .max_items
                .or(schema.min_items)
                .map_or(4, |n| n as usize + 2);
            let item = prop_oneof![
                6 => option_text(&schema.options).prop_map(Value::String),
                1 => any_json(),
            ];
            prop::collection::vec(item, 0..=most)
                .prop_map(Value::Array)
                .boxed()
        }
    }
}

/// A value meant to satisfy the property (kept only if the dynamic validator accepts it: this
/// steers the inputs toward valid answers, it does not decide any expected outcome).
fn good_value(name: &str, property: &PropertySchema) -> BoxedStrategy<Value> {
    let candidates = match property {
        PropertySchema::String(schema) => {
            let min = schema.min_length.unwrap_or(0) as usize;
            let max = schema.max_length.map_or(min + 6, |n| n as usize);
            match schema.format {
                Some(format) => prop::sample::select(valid_samples(format))
                    .prop_map(Value::from)
                    .boxed(),
                None => chars_text(GOOD_CHARS, min, max)
                    .prop_map(Value::String)
                    .boxed(),
            }
        }
        PropertySchema::Number(schema) if schema.integer => {
            let lo = schema
                .minimum
                .as_ref()
                .and_then(as_int)
                .unwrap_or(i128::MIN);
            let hi = schema
                .maximum
                .as_ref()
                .and_then(as_int)
                .unwrap_or(i128::MAX);
            let (lo, hi) = (lo.max(-1_000_000_000) as i64, hi.min(1_000_000_000) as i64);
            prop_oneof![
                3 => (lo..=hi).prop_map(Value::from),
                1 => (lo..=hi).prop_map(|i| Value::from(i as f64)),
            ]
            .boxed()
        }
        PropertySchema::Number(schema) => {
            let lo = schema
                .minimum
                .as_ref()
                .and_then(Number::as_f64)
                .unwrap_or(-1e6);
            let hi = schema
                .maximum
                .as_ref()
                .and_then(Number::as_f64)
                .unwrap_or(1e6);
            (lo..=hi).prop_map(Value::from).boxed()
        }
        PropertySchema::Boolean(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        PropertySchema::SingleSelect(schema) => {
            let values: Vec<String> = schema.options.values().map(str::to_owned).collect();
            prop::sample::select(values).prop_map(Value::String).boxed()
        }
        PropertySchema::MultiSelect(schema) => {
            let values: Vec<Value> = schema.options.values().map(Value::from).collect();
            let min = schema.min_items.unwrap_or(0) as usize;
            let max = schema.max_items.map_or(values.len(), |n| n as usize);
            prop::sample::subsequence(values.clone(), min..=max.min(values.len()))
                .prop_shuffle()
                .prop_map(Value::Array)
                .boxed()
        }
    };
    let single = RequestedSchema {
        properties: vec![(name.to_owned(), property.clone())],
        ..Default::default()
    };
    let name = name.to_owned();
    candidates
        .prop_filter("satisfies the property", move |value| {
            let content: Map<String, Value> = [(name.clone(), value.clone())].into_iter().collect();
            single.validate(&content).is_ok()
        })
        .boxed()
}

/// A content object for a schema: either every property good (or absent when optional), or
/// each property good, near its constraints, of a wrong type, or absent; plus undeclared
/// members, some with names close to the declared ones.
fn content(schema: &RequestedSchema) -> BoxedStrategy<Map<String, Value>> {
    let member = |name: &String, property: &PropertySchema, all_good: bool| {
        let value = if all_good {
            good_value(name, property)
        } else {
            prop_oneof![
                3 => good_value(name, property),
                3 => typed_value(property),
                1 => any_json(),
            ]
            .boxed()
        };
        let required = schema.required.contains(name);
        let value = match (required, all_good) {
            (true, true) => value.prop_map(Some).boxed(),
            (true, false) => prop::option::weighted(0.9, value).boxed(),
            (false, _) => prop::option::weighted(0.7, value).boxed(),
        };
        let name = name.clone();
        value
            .prop_map(move |value| value.map(|value| (name.clone(), value)))
            .boxed()
    };
    let good: Vec<_> = schema
        .properties
        .iter()
        .map(|(name, property)| member(name, property, true))
        .collect();
    let mixed: Vec<_> = schema
        .properties
        .iter()
        .map(|(name, property)| member(name, property, false))
        .collect();
    let mut names: Vec<String> = Vec::new();
    for (name, _) in &schema.properties {
        names.push(name.to_uppercase());
        names.push(format!("{name}_"));
        names.push(name.chars().skip(1).collect());
    }
    names.push("extra".into());
    let extra_name = prop_oneof![
        2 => prop::sample::select(names),
        1 => regex("[a-zA-Z/~é]{0,4}"),
    ];
    let extra = prop_oneof![
        2 => Just(Vec::new()),
        1 => prop::collection::vec((extra_name, any_json()), 1..3),
    ];
    let members = prop_oneof![1 => good, 2 => mixed];
    (members, extra)
        .prop_map(|(members, extra)| {
            let mut map = Map::new();
            for (name, value) in members.into_iter().flatten() {
                map.insert(name, value);
            }
            for (name, value) in extra {
                map.entry(name).or_insert(value);
            }
            map
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// The comparison.

type Outcome = Result<(), Vec<(String, &'static str)>>;

fn outcome<T>(result: Result<T, ValidationErrors>) -> Outcome {
    result.map(drop).map_err(|errors| {
        let mut pairs: Vec<(String, &'static str)> = errors
            .errors()
            .iter()
            .map(|e| (e.pointer().to_owned(), e.keyword().as_str()))
            .collect();
        pairs.sort();
        pairs
    })
}

/// The text with every non-ASCII character written as `\uXXXX` (they occur only in strings).
fn ascii_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// `text` (an object) with the members of `first` written before its own, so that its own
/// come last and count.
fn with_duplicates(text: &str, first: &Map<String, Value>) -> String {
    if first.is_empty() {
        return text.to_owned();
    }
    let head = serde_json::to_string(first).expect("serializable");
    let head = &head[..head.len() - 1];
    match &text[1..] {
        "}" => format!("{head}}}"),
        rest => format!("{head},{rest}"),
    }
}

/// `content` with its members in the order of the form's properties, as a client writes it
/// (the undeclared ones after them); `from_json_str` guesses each key from the previous one.
fn in_form_order(schema: &RequestedSchema, content: &Map<String, Value>) -> String {
    let declared = schema.properties.iter().map(|(name, _)| name);
    let undeclared = content.keys().filter(|name| {
        !schema
            .properties
            .iter()
            .any(|(declared, _)| declared == *name)
    });
    let members: Vec<String> = declared
        .chain(undeclared)
        .filter_map(|name| {
            let value = content.get(name)?;
            let name = serde_json::to_string(name).expect("serializable");
            Some(format!(
                "{name}:{}",
                serde_json::to_string(value).expect("serializable")
            ))
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

/// Checks one content object; returns the derived outcome.
fn check<T: Elicit>(
    schema: &RequestedSchema,
    content: &Map<String, Value>,
    duplicates: &Map<String, Value>,
) -> Result<Outcome, TestCaseError> {
    let derived = outcome(T::from_content(content));
    let dynamic = outcome(schema.validate(content));
    prop_assert_eq!(
        schema.is_valid(content),
        dynamic.is_ok(),
        "is_valid vs validate on {}",
        Value::Object(content.clone())
    );
    prop_assert_eq!(
        &derived,
        &dynamic,
        "from_content vs RequestedSchema::validate on {}",
        Value::Object(content.clone())
    );

    let compact = serde_json::to_string(content).expect("serializable");
    let pretty = serde_json::to_string_pretty(content).expect("serializable");
    let escaped = ascii_escaped(&compact);
    let duplicated = with_duplicates(&compact, duplicates);
    let ordered = in_form_order(schema, content);
    let ordered_duplicated = with_duplicates(&ordered, duplicates);
    for text in [
        compact,
        pretty,
        escaped,
        duplicated,
        ordered,
        ordered_duplicated,
    ] {
        // The object the text stands for (floats go through text and back).
        let parsed: Map<String, Value> = serde_json::from_str(&text).expect("an object");
        let expected = outcome(T::from_content(&parsed));
        let got = match T::from_json_str(&text) {
            Ok(_) => Ok(()),
            Err(FromJsonError::Invalid(errors)) => outcome::<()>(Err(errors)),
            Err(FromJsonError::Syntax(error)) => {
                return Err(TestCaseError::fail(format!(
                    "from_json_str: malformed JSON {error} in {text}"
                )))
            }
        };
        prop_assert_eq!(got, expected, "from_json_str vs from_content on {}", text);
    }
    Ok(derived)
}

/// Tallies the derived outcomes: valid answers, and the errors by keyword.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    valid: usize,
    keywords: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn add(&mut self, outcome: Outcome) {
        self.cases += 1;
        match outcome {
            Ok(()) => self.valid += 1,
            Err(errors) => {
                for (_, keyword) in errors {
                    *self.keywords.entry(keyword).or_default() += 1;
                }
            }
        }
    }
}

/// Runs the differential check on arbitrary content for `T`, with proptest's default
/// configuration (random inputs, shrunk to a minimal one on failure).
fn differential<T: Elicit>() {
    let schema = T::requested_schema();
    schema.check().expect("the derived schema is consistent");
    let names: Vec<String> = schema.properties.iter().map(|(n, _)| n.clone()).collect();
    let duplicates = prop::collection::btree_map(prop::sample::select(names), any_json(), 0..3)
        .prop_map(|members| members.into_iter().collect::<Map<String, Value>>());
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(Config::default());
    let result = runner.run(&(content(&schema), duplicates), |(content, duplicates)| {
        let outcome = check::<T>(&schema, &content, &duplicates)?;
        tally.borrow_mut().add(outcome);
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    println!("{}: {:?}", std::any::type_name::<T>(), tally.into_inner());
}

/// The generators are varied enough for `T`: on a fixed sample of 256 contents (a
/// deterministic RNG, so this cannot flake), at least a tenth are valid answers and the errors
/// are of exactly `keywords`.
fn coverage<T: Elicit>(keywords: &[&'static str]) {
    let strategy = content(&T::requested_schema());
    let mut runner = TestRunner::deterministic();
    let mut tally = Tally::default();
    for _ in 0..256 {
        let content = strategy
            .new_tree(&mut runner)
            .expect("a content object")
            .current();
        tally.add(outcome(T::from_content(&content)));
    }
    assert!(
        tally.valid * 10 >= tally.cases,
        "too few valid answers: {tally:?}"
    );
    let expected: BTreeSet<&str> = keywords.iter().copied().collect();
    assert_eq!(
        tally.keywords.keys().copied().collect::<BTreeSet<_>>(),
        expected,
        "the keywords of the errors met: {tally:?}"
    );
}

#[test]
fn strings_agree() {
    differential::<Texts>();
    coverage::<Texts>(&[
        "required",
        "type",
        "minLength",
        "maxLength",
        "pattern",
        "format",
    ]);
}

#[test]
fn numbers_agree() {
    differential::<Numbers>();
    coverage::<Numbers>(&["required", "type", "minimum", "maximum"]);
}

#[test]
fn selects_and_renamed_fields_agree() {
    differential::<Choices>();
    coverage::<Choices>(&[
        "required",
        "type",
        "enum",
        "minItems",
        "maxItems",
        "minLength",
    ]);
}

#[test]
fn everything_agrees() {
    differential::<Everything>();
    coverage::<Everything>(&[
        "required",
        "type",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "enum",
        "maxItems",
    ]);
}

#[test]
fn closed_form_agrees() {
    differential::<Closed>();
    coverage::<Closed>(&[
        "required",
        "type",
        "maxLength",
        "minimum",
        "maximum",
        "enum",
        "additionalProperties",
    ]);
}
