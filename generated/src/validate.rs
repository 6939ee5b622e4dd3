//! Checking a value against its schema's constraint keywords (`format`, bounds, lengths,
//! `pattern`, item and member counts, `uniqueItems`, `multipleOf`): [`Validate`], implemented
//! by every generated type; decoding never checks them. Behind the feature `elicit`, whose
//! `format` and `pattern` checks it reuses.
//!
//! Decoding is liberal: a value that breaks `maxLength` or `format` still decodes, as a peer
//! may send it. [`Validate::validate`] is the separate, explicit step that checks every
//! constraint keyword the schema states on a type and on everything it holds, and returns every
//! violation, each with the JSON pointer (RFC 6901) of the offending value relative to the value
//! validated, the keyword, the schema's limit and what the value has:
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_typed::v2026_07_28::Annotations;
//! use mcp_typed::validate::{Keyword, Validate};
//!
//! let annotations: Annotations = serde_json::from_str(r#"{"priority": 2}"#).unwrap();
//! let violations = annotations.validate().unwrap_err();
//! assert_eq!(violations.len(), 1);
//! assert_eq!(violations[0].pointer, "/priority");
//! assert_eq!(violations[0].keyword, Keyword::Maximum);
//! assert_eq!(violations[0].limit, serde_json::json!(1));
//! assert_eq!(violations[0].found, serde_json::json!(2));
//! assert_eq!(violations[0].to_string(), "/priority: breaks `maximum: 1`, found 2");
//! # }
//! ```
//!
//! The keywords checked: `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//! `multipleOf`, `minLength` and `maxLength` (in Unicode code points, as JSON Schema counts),
//! `pattern` (ECMA-262, with `mcp-elicit`'s linear-time engine, searched anywhere in the
//! string), `minItems`, `maxItems`, `uniqueItems` (items compared as JSON: `1` equals `1.0`,
//! members in any order), `minProperties` and `maxProperties` (on maps). As in JSON Schema, a
//! keyword applies to its kind of value only (`maxLength` says nothing of a number).
//!
//! **`format` policy.** JSON Schema 2020-12 makes `format` an annotation unless a validator
//! chooses to assert it. Here it is asserted, everywhere the same way, for the formats with
//! one well-defined reading: `date`, `date-time`, `email` and `uri` exactly as `mcp-elicit`
//! checks an elicitation answer (one home for those rules), `uri-template` (RFC 6570 syntax:
//! literals and well-formed `{…}` expressions) and `byte` (RFC 4648 base64, standard alphabet,
//! padded). Any other format is an annotation: never a violation.
//!
//! Where a constraint is checked: on a struct's members (through the aliases their types name),
//! items and map values, on the struct itself (`minProperties`/`maxProperties`), and in every
//! value reached through members, union variants, call params and message envelopes, in both
//! families (`ClientMessage` and `ClientMessageRef<'de>` alike), union members included (an
//! inline member's own constraints, and the union's own for every member). Constraints stated
//! on an object schema reach a struct value only as its own (`minProperties`/`maxProperties`).
//!
//! Numbers are compared as `f64` (every limit of the official schemas is exact in it); a
//! `multipleOf` of a fraction allows a relative error of 1e-9 for the binary rounding.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Number, Value};

/// A type whose values can be checked against its schema's constraint keywords. Implemented by
/// every generated type (messages, envelopes, call sets, results, …) of every revision and by
/// what generated code holds; a type from which no constraint is reachable uses the default
/// method, which finds nothing.
pub trait Validate {
    /// Checks every constraint keyword the schema states on this value and on every value it
    /// holds; `Err` carries every violation, in the order the members are declared.
    fn validate(&self) -> Result<(), Violations> {
        // Room for a pointer of a few members, so that entering them does not grow it.
        let mut cx = Cx {
            pointer: String::with_capacity(64),
            found: Vec::new(),
        };
        self.validate_at(&mut cx, &[]);
        cx.finish()
    }

    /// Reports the violations of this value, with `rules` (the constraints its place in the
    /// enclosing schema adds), at `cx`'s current pointer. Called by generated code.
    #[doc(hidden)]
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        let _ = (cx, rules);
    }
}

/// The JSON Schema keywords, spelled once for every crate (`mcp-typed-json`); a [`Violation`]
/// names one of the constraint keywords above.
pub use mcp_typed_json::Keyword;

/// One broken constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// JSON pointer (RFC 6901) of the value that breaks it, relative to the value validated
    /// (`""` is that value itself).
    pub pointer: String,
    /// The keyword.
    pub keyword: Keyword,
    /// The keyword's value in the schema: `256` for `maxLength: 256`, `"uri"`, `"^file://"`,
    /// `true` for `uniqueItems`.
    pub limit: Value,
    /// What the value has that the keyword judges: the number (`minimum`, `multipleOf`, …),
    /// the length in code points (`minLength`, `maxLength`), the count of items or members
    /// (`minItems`, `maxProperties`, …), the string (`format`, `pattern`; past
    /// [`FOUND_TEXT_CHARS`] code points, its start and `…`), or the first item that repeats
    /// an earlier one (`uniqueItems`).
    pub found: Value,
}

/// The longest string a [`Violation`] repeats whole as what it found; a longer one is cut
/// there and ends with `…` (the pointer names the whole value).
pub const FOUND_TEXT_CHARS: usize = 80;

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "the value"
        } else {
            &self.pointer
        };
        write!(
            f,
            "{at}: breaks `{}: {}`, found {}",
            self.keyword, self.limit, self.found
        )
    }
}

/// Every violation [`Validate::validate`] found, never empty; a slice of [`Violation`]s.
#[derive(Debug, Clone, PartialEq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// The violations, as a vector.
    pub fn into_vec(self) -> Vec<Violation> {
        self.0
    }
}

impl std::ops::Deref for Violations {
    type Target = [Violation];
    fn deref(&self) -> &[Violation] {
        &self.0
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            violation.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// A constraint as generated code states it: the keyword and the schema's value. `Items` and
/// `Values` hold the constraints of every item of an array and every value of a map.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    Format(&'static str),
    Pattern(&'static str),
    MinLength(u64),
    MaxLength(u64),
    Minimum(f64),
    Maximum(f64),
    ExclusiveMinimum(f64),
    ExclusiveMaximum(f64),
    MultipleOf(f64),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    MinProperties(u64),
    MaxProperties(u64),
    Items(&'static [Rule]),
    Values(&'static [Rule]),
}

/// A number as JSON: an integral one as the schema or the peer wrote it (`1`, not `1.0`).
fn number_value(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        Value::from(n as i64)
    } else {
        Value::from(n)
    }
}

/// A string as a [`Violation`] repeats it: whole up to [`FOUND_TEXT_CHARS`] code points.
fn found_text(text: &str) -> Value {
    match text.char_indices().nth(FOUND_TEXT_CHARS) {
        None => Value::from(text),
        Some((cut, _)) => Value::from(format!("{}…", &text[..cut])),
    }
}

impl Rule {
    fn keyword_and_limit(self) -> (Keyword, Value) {
        let number = number_value;
        match self {
            Rule::Format(f) => (Keyword::Format, Value::from(f)),
            Rule::Pattern(p) => (Keyword::Pattern, Value::from(p)),
            Rule::MinLength(n) => (Keyword::MinLength, Value::from(n)),
            Rule::MaxLength(n) => (Keyword::MaxLength, Value::from(n)),
            Rule::Minimum(n) => (Keyword::Minimum, number(n)),
            Rule::Maximum(n) => (Keyword::Maximum, number(n)),
            Rule::ExclusiveMinimum(n) => (Keyword::ExclusiveMinimum, number(n)),
            Rule::ExclusiveMaximum(n) => (Keyword::ExclusiveMaximum, number(n)),
            Rule::MultipleOf(n) => (Keyword::MultipleOf, number(n)),
            Rule::MinItems(n) => (Keyword::MinItems, Value::from(n)),
            Rule::MaxItems(n) => (Keyword::MaxItems, Value::from(n)),
            Rule::UniqueItems => (Keyword::UniqueItems, Value::Bool(true)),
            Rule::MinProperties(n) => (Keyword::MinProperties, Value::from(n)),
            Rule::MaxProperties(n) => (Keyword::MaxProperties, Value::from(n)),
            // Never reported themselves: their rules are, on each item or value.
            Rule::Items(_) => (Keyword::MinItems, Value::Null),
            Rule::Values(_) => (Keyword::MinProperties, Value::Null),
        }
    }
}

/// Where a validation is: the pointer of the current value (built up as members and items are
/// entered, escaped once) and the violations found so far.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Cx {
    pointer: String,
    found: Vec<Violation>,
}

impl Cx {
    fn finish(self) -> Result<(), Violations> {
        if self.found.is_empty() {
            Ok(())
        } else {
            Err(Violations(self.found))
        }
    }

    fn report(&mut self, rule: Rule, found: Value) {
        let (keyword, limit) = rule.keyword_and_limit();
        self.found.push(Violation {
            pointer: self.pointer.clone(),
            keyword,
            limit,
            found,
        });
    }

    /// Validates the member `key` of the current object with `rules`.
    pub fn member<T: Validate + ?Sized>(&mut self, key: &str, value: &T, rules: &[Rule]) {
        let len = self.pointer.len();
        crate::json_pointer::push(&mut self.pointer, key);
        value.validate_at(self, rules);
        self.pointer.truncate(len);
    }

    /// Validates the item `index` of the current array with `rules`.
    pub fn item<T: Validate + ?Sized>(&mut self, index: usize, value: &T, rules: &[Rule]) {
        use fmt::Write as _;
        let len = self.pointer.len();
        // Writing to a `String` cannot fail.
        let _ = write!(self.pointer, "/{index}");
        value.validate_at(self, rules);
        self.pointer.truncate(len);
    }

    /// Validates every value of a map of undeclared members (`extra`) with `rules`.
    pub fn members<'a, K: AsRef<str> + ?Sized + 'a, T: Validate + 'a>(
        &mut self,
        members: impl IntoIterator<Item = (&'a K, &'a T)>,
        rules: &[Rule],
    ) {
        for (key, value) in members {
            self.member(key.as_ref(), value, rules);
        }
    }

    /// Checks `minProperties`/`maxProperties` of the current object, which has `count` members.
    pub fn properties(&mut self, count: usize, rules: &[Rule]) {
        self.count(count, property_bound, rules);
    }

    fn string(&mut self, text: &str, rules: &[Rule]) {
        for &rule in rules {
            if let Some(found) = string_breaks(text, rule) {
                self.report(rule, found);
            }
        }
    }

    fn number(&mut self, n: f64, rules: &[Rule]) {
        for &rule in rules {
            if !number_holds(n, rule) {
                self.report(rule, number_value(n));
            }
        }
    }

    fn count(&mut self, n: usize, bound: fn(Rule) -> Option<(u64, bool)>, rules: &[Rule]) {
        for &rule in rules {
            if !count_holds(n, bound, rule) {
                self.report(rule, Value::from(n));
            }
        }
    }

    fn array<T: Validate + Serialize>(&mut self, items: &[T], rules: &[Rule]) {
        self.count(items.len(), item_bound, rules);
        if rules.contains(&Rule::UniqueItems) {
            if let Some(repeated) = first_repeat(items) {
                self.report(Rule::UniqueItems, repeated);
            }
        }
        let inner = item_rules(rules);
        for (i, item) in items.iter().enumerate() {
            self.item(i, item, inner);
        }
    }

    fn object<'a, K: AsRef<str> + ?Sized + 'a, T: Validate + 'a>(
        &mut self,
        len: usize,
        members: impl Iterator<Item = (&'a K, &'a T)>,
        rules: &[Rule],
    ) {
        self.count(len, property_bound, rules);
        self.members(members, value_rules(rules));
    }
}

/// What `text` has that `rule` refuses (the length, the string), if it breaks it; a rule of
/// another kind of value holds.
fn string_breaks(text: &str, rule: Rule) -> Option<Value> {
    let length = || text.chars().count() as u64;
    match rule {
        Rule::MinLength(n) => Some(length()).filter(|&len| len < n).map(Value::from),
        Rule::MaxLength(n) => Some(length()).filter(|&len| len > n).map(Value::from),
        Rule::Format(name) => (!format_holds(name, text)).then(|| found_text(text)),
        Rule::Pattern(source) => (!pattern_matches(source, text)).then(|| found_text(text)),
        _ => None,
    }
}

/// Whether the number `n` keeps `rule` (one of another kind of value holds).
fn number_holds(n: f64, rule: Rule) -> bool {
    match rule {
        Rule::Minimum(limit) => n >= limit,
        Rule::Maximum(limit) => n <= limit,
        Rule::ExclusiveMinimum(limit) => n > limit,
        Rule::ExclusiveMaximum(limit) => n < limit,
        Rule::MultipleOf(m) => is_multiple(n, m),
        _ => true,
    }
}

/// Whether a count `n` of items or members keeps `rule`, read by `bound` (its limit, and
/// whether it is a minimum); a rule `bound` does not read holds.
fn count_holds(n: usize, bound: fn(Rule) -> Option<(u64, bool)>, rule: Rule) -> bool {
    match bound(rule) {
        Some((limit, true)) => n as u64 >= limit,
        Some((limit, false)) => n as u64 <= limit,
        None => true,
    }
}

/// The same checks as [`Validate`], as yes or no, for the verdict path (`__private::check`),
/// which reads values without building them: one home for what each rule asks.
#[cfg(feature = "verdict")]
pub(crate) mod holds {
    use super::{
        count_holds, item_bound, number_holds, property_bound, string_breaks, Cx, Rule, Validate,
    };

    /// Whether `value`, at a place with `rules`, breaks nothing.
    pub(crate) fn value<T: Validate + ?Sized>(value: &T, rules: &[Rule]) -> bool {
        let mut cx = Cx::default();
        value.validate_at(&mut cx, rules);
        cx.found.is_empty()
    }

    /// Whether a string keeps `rules`.
    pub(crate) fn string(text: &str, rules: &[Rule]) -> bool {
        rules
            .iter()
            .all(|&rule| string_breaks(text, rule).is_none())
    }

    /// Whether a number keeps `rules`.
    pub(crate) fn number(n: f64, rules: &[Rule]) -> bool {
        rules.iter().all(|&rule| number_holds(n, rule))
    }

    /// Whether an array of `n` items keeps `rules`' item counts.
    pub(crate) fn items(n: usize, rules: &[Rule]) -> bool {
        rules.iter().all(|&rule| count_holds(n, item_bound, rule))
    }

    /// Whether an object of `n` members keeps `rules`' member counts.
    pub(crate) fn properties(n: usize, rules: &[Rule]) -> bool {
        rules
            .iter()
            .all(|&rule| count_holds(n, property_bound, rule))
    }
}

fn item_bound(rule: Rule) -> Option<(u64, bool)> {
    match rule {
        Rule::MinItems(n) => Some((n, true)),
        Rule::MaxItems(n) => Some((n, false)),
        _ => None,
    }
}

fn property_bound(rule: Rule) -> Option<(u64, bool)> {
    match rule {
        Rule::MinProperties(n) => Some((n, true)),
        Rule::MaxProperties(n) => Some((n, false)),
        _ => None,
    }
}

/// The rules of the items of an array whose place has `rules` (the generator writes at most one
/// `Items`).
pub(crate) fn item_rules(rules: &[Rule]) -> &'static [Rule] {
    match rules.iter().find(|r| matches!(r, Rule::Items(_))) {
        Some(Rule::Items(inner)) => inner,
        _ => &[],
    }
}

/// The rules of the values of an object whose place has `rules` (at most one `Values`).
pub(crate) fn value_rules(rules: &[Rule]) -> &'static [Rule] {
    match rules.iter().find(|r| matches!(r, Rule::Values(_))) {
        Some(Rule::Values(inner)) => inner,
        _ => &[],
    }
}

fn is_multiple(n: f64, m: f64) -> bool {
    if m <= 0.0 || !m.is_finite() || !n.is_finite() {
        return true;
    }
    let q = n / m;
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// Whether no two items are equal as JSON: each item's canonical text (members sorted, numbers
/// by value) goes into a set, so a long array costs one pass, not a comparison per pair.
fn first_repeat<T: Serialize>(items: &[T]) -> Option<Value> {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().find_map(|item| {
        // A value that cannot be written as JSON cannot be compared as JSON: not a violation.
        let value = serde_json::to_value(item).ok()?;
        let mut text = String::new();
        canonical(&value, &mut text);
        (!seen.insert(text)).then_some(value)
    })
}

fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() || f.fract() == 0.0 => out.push_str(&format!("{f:e}")),
            _ => out.push_str(&n.to_string()),
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<_> = map.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (key, member) in members {
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                canonical(member, out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The `format` policy of the module docs, in one place.
fn format_holds(name: &str, text: &str) -> bool {
    match name {
        "uri-template" => is_uri_template(text),
        "byte" => is_base64(text),
        _ => elicit_format(name, text),
    }
}

#[cfg(feature = "elicit")]
fn elicit_format(name: &str, text: &str) -> bool {
    match mcp_elicit::StringFormat::from_name(name) {
        Some(format) => format.is_valid(text),
        None => true,
    }
}

// Without `elicit`, `mcp_typed::validate` is not public: nothing reaches this.
#[cfg(not(feature = "elicit"))]
fn elicit_format(_: &str, _: &str) -> bool {
    true
}

/// RFC 6570: literals (no space, quote, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}` or control
/// character; `%` only as a percent-encoding) and expressions `{op? varspec,…}`, each varspec a
/// name of letters, digits, `_`, `.` and percent-encodings with an optional `*` or `:1`–`:9999`.
fn is_uri_template(text: &str) -> bool {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let Some(end) = rest.find('}') else {
                return false;
            };
            if !is_expression(&rest[1..end]) {
                return false;
            }
            rest = &rest[end + 1..];
        } else if c == '%' {
            if !is_percent_encoded(rest) {
                return false;
            }
            rest = &rest[3..];
        } else {
            if c.is_control() || " \"'<>\\^`|}".contains(c) {
                return false;
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    true
}

fn is_percent_encoded(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 3 && bytes[1].is_ascii_hexdigit() && bytes[2].is_ascii_hexdigit()
}

fn is_expression(body: &str) -> bool {
    let body = body
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(body);
    body.split(',').all(|spec| {
        let (name, modifier) = match spec.find([':', '*']) {
            Some(at) => spec.split_at(at),
            None => (spec, ""),
        };
        let modifier_ok = match modifier {
            "" | "*" => true,
            m => {
                let digits = &m[1..];
                m.starts_with(':')
                    && (1..=4).contains(&digits.len())
                    && !digits.starts_with('0')
                    && digits.bytes().all(|b| b.is_ascii_digit())
            }
        };
        modifier_ok && is_varname(name)
    })
}

fn is_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes[0] == b'.' {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if is_percent_encoded(&name[i..]) => i += 3,
            b'.' if bytes.get(i + 1).is_some_and(|&b| b != b'.') => i += 1,
            b if b.is_ascii_alphanumeric() || b == b'_' => i += 1,
            _ => return false,
        }
    }
    true
}

/// RFC 4648 section 4: the standard alphabet, padded to a multiple of four characters.
fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    // By blocks, each judged without an early exit, which the compiler turns into vector
    // code: an image's data is thousands of bytes.
    let in_alphabet = |b: u8| b.is_ascii_alphanumeric() | (b == b'+') | (b == b'/');
    padding <= 2
        && (bytes[..bytes.len() - padding].chunks(64))
            .all(|block| block.iter().fold(true, |all, &b| all & in_alphabet(b)))
}

/// Whether `source` matches anywhere in `text`, by `mcp-elicit`'s engine. Each pattern of the
/// generated code is compiled once and kept for the life of the process: there are as many as
/// the schemas' `pattern`s, and a pattern that cannot run is a violation, as an answer to a form
/// with that pattern is.
#[cfg(feature = "elicit")]
fn pattern_matches(source: &'static str, text: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    use mcp_elicit::__private::{string, Pattern, StringRules};
    type Cache = Mutex<HashMap<&'static str, &'static Pattern>>;
    static PATTERNS: OnceLock<Cache> = OnceLock::new();
    let pattern: &'static Pattern = {
        let cache = PATTERNS.get_or_init(Cache::default);
        // A panic elsewhere while the lock was held leaves the map intact: keep using it.
        let mut cache = cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .entry(source)
            .or_insert_with(|| Box::leak(Box::new(Pattern::new(source))))
    };
    let rules = StringRules {
        min_length: None,
        max_length: None,
        pattern: Some(pattern),
        format: None,
    };
    let mut errors = mcp_elicit::ValidationErrors::default();
    let _ = string(&Value::from(text), "", &rules, &mut errors);
    errors.is_empty()
}

#[cfg(not(feature = "elicit"))]
fn pattern_matches(_: &'static str, _: &str) -> bool {
    true
}

impl Validate for str {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.string(self, rules);
    }
}

impl Validate for String {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.string(self, rules);
    }
}

impl Validate for i64 {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.number(*self as f64, rules);
    }
}

impl Validate for f64 {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.number(*self, rules);
    }
}

impl Validate for Number {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        if let Some(n) = self.as_f64() {
            cx.number(n, rules);
        }
    }
}

impl Validate for bool {}

impl Validate for crate::RawObject {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        // A free-form object is kept as its text: read only when its place has constraints.
        if !rules.is_empty() {
            if let Ok(map) = self.to_map() {
                map.validate_at(cx, rules);
            }
        }
    }
}

impl Validate for Value {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        match self {
            Value::String(text) => cx.string(text, rules),
            Value::Number(n) => n.validate_at(cx, rules),
            Value::Array(items) => cx.array(items, rules),
            Value::Object(map) => cx.object(map.len(), map.iter(), rules),
            Value::Null | Value::Bool(_) => {}
        }
    }
}

impl Validate for Map<String, Value> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.object(self.len(), self.iter(), rules);
    }
}

impl<K: AsRef<str>, T: Validate> Validate for indexmap::IndexMap<K, T> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.object(self.len(), self.iter(), rules);
    }
}

// The borrowed family's leaves: the same checks as their owned forms.
#[cfg(feature = "borrowed")]
impl Validate for crate::borrowed::Str<'_> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.string(self.as_str(), rules);
    }
}

#[cfg(feature = "borrowed")]
impl Validate for crate::borrowed::ValueRef<'_> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        // Kept as its text, like a free-form object: read only when its place has constraints.
        if !rules.is_empty() {
            self.to_value().validate_at(cx, rules);
        }
    }
}

#[cfg(feature = "borrowed")]
impl Validate for crate::borrowed::RawObjectRef<'_> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        if !rules.is_empty() {
            if let Ok(map) = serde_json::from_str::<Map<String, Value>>(self.as_str()) {
                map.validate_at(cx, rules);
            }
        }
    }
}

impl<T: Validate + Serialize> Validate for Vec<T> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        cx.array(self, rules);
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        (**self).validate_at(cx, rules);
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate_at(&self, cx: &mut Cx, rules: &[Rule]) {
        if let Some(value) = self {
            value.validate_at(cx, rules);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{is_base64, is_uri_template};

    #[test]
    fn uri_templates() {
        for ok in ["file:///{path}", "a{+x,y*}b{?q:30}", "", "x%20{a.b}"] {
            assert!(is_uri_template(ok), "{ok}");
        }
        for bad in [
            "{",
            "a}",
            "{}",
            "{a b}",
            "{x:0}",
            "{x:12345}",
            "%zz",
            "a b",
            "{.}",
        ] {
            assert!(!is_uri_template(bad), "{bad}");
        }
    }

    #[test]
    fn base64() {
        for ok in ["", "aGk=", "aGVsbG8gd29ybGQ=", "YQ==", "+/+/"] {
            assert!(is_base64(ok), "{ok}");
        }
        for bad in ["aGk", "a===", "aG k", "aG-_", "=aGk"] {
            assert!(!is_base64(bad), "{bad}");
        }
    }
}
