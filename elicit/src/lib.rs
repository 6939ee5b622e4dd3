//! Elicitation forms of the [Model Context Protocol](https://modelcontextprotocol.io): the
//! restricted JSON Schema of form-mode elicitation (`requestedSchema`), as one typed,
//! revision-neutral model, with everything that reads, checks and answers it. Nothing here
//! names a generated protocol type: `mcp-typed` re-exports this crate as `mcp_typed::elicit`
//! (feature `elicit`) and converts between it and the types of each revision (outcomes from
//! `ElicitResult`, [`FormParams`] for the `elicitation/create` params); its `derive` feature
//! adds `#[derive(Elicit)]`, which runs this crate's consistency checks at compile time.
//!
//! A form is a flat object whose properties are strings, numbers or integers, booleans, or enums
//! (single select with `enum` or titled `oneOf`, multi select with `type: "array"` and `items`
//! `enum` or titled `anyOf`). [`RequestedSchema`] holds exactly that subset:
//!
//! - [`serde::Serialize`] writes the JSON of revision 2025-11-25 and later, with keys in the
//!   order the specification's examples use;
//! - [`RequestedSchema::to_revision`] writes the JSON of a given revision, downgrading titled
//!   enums to the legacy `enumNames` for 2025-06-18 and refusing what that revision cannot say;
//! - [`RequestedSchema::parse`] (and [`RequestedSchema::parse_str`], which also keeps the order
//!   of properties and keywords) is for clients: it accepts the subset of every revision and
//!   rejects everything else with the JSON pointer of the offending part;
//! - [`RequestedSchema::problems`] lists the consistency rules a schema breaks (the rules
//!   `#[derive(Elicit)]` enforces at compile time, with the same messages);
//! - [`RequestedSchema::validate`] checks an answer with JSON Schema 2020-12 semantics.
//!
//! ```
//! use mcp_elicit::{PropertySchema, RequestedSchema, StringFormat, StringSchema};
//!
//! let schema = RequestedSchema {
//!     properties: vec![(
//!         "email".to_owned(),
//!         PropertySchema::String(StringSchema {
//!             format: Some(StringFormat::Email),
//!             ..Default::default()
//!         }),
//!     )],
//!     required: vec!["email".to_owned()],
//!     ..Default::default()
//! };
//! let json = serde_json::to_string(&schema).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"type":"object","properties":{"email":{"type":"string","format":"email"}},"required":["email"]}"#
//! );
//! assert_eq!(RequestedSchema::parse_str(&json).unwrap(), schema);
//! ```
#![warn(missing_docs)]

#[doc(hidden)]
pub mod __private;
mod check;
mod decode;
mod derived;
mod error;
mod formats;
mod json_schema;
mod node;
mod outcome;
mod params;
mod parse;
mod pattern;
mod ser;
mod validate;

pub use error::{json_kind, Problem, Text, ValidationError, ValidationErrors};
pub use formats::UnknownFormat;
/// The JSON Schema keywords, spelled once for every crate (`mcp-typed-json`): what a
/// [`Problem`] breaks, what a [`KeyOrder`] places.
pub use mcp_typed_json::Keyword;
pub use outcome::{Action, Elicit, ElicitOutcome, FromJsonError};
pub use params::FormParams;
pub use validate::Validator;

/// The examples of the crate's README, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use std::fmt;

use serde_json::Number;

/// The `requestedSchema` of a form-mode elicitation request: a flat object of primitive
/// properties.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestedSchema {
    /// The properties, in declaration order (the order a client shows the fields in).
    pub properties: Vec<(String, PropertySchema)>,
    /// The names of the required properties, in the order they are written.
    pub required: Vec<String>,
    /// `"additionalProperties": false` at the top level. Written back only when set.
    pub additional_properties_forbidden: bool,
}

/// The schema of one property of a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropertySchema {
    /// A free text field (`"type": "string"` without `enum`/`oneOf`).
    String(StringSchema),
    /// A number or integer field (`"type": "number"` or `"type": "integer"`).
    Number(NumberSchema),
    /// A yes/no field (`"type": "boolean"`).
    Boolean(BooleanSchema),
    /// A choice of one value (`"type": "string"` with `enum`, `oneOf`, or legacy `enumNames`).
    SingleSelect(SingleSelectSchema),
    /// A choice of several values (`"type": "array"` with `items` `enum` or `anyOf`).
    MultiSelect(MultiSelectSchema),
}

/// A free text property.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StringSchema {
    /// `title`: the label of the field.
    pub title: Option<String>,
    /// `description`: help text for the field.
    pub description: Option<String>,
    /// `minLength`, in Unicode code points.
    pub min_length: Option<u64>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<u64>,
    /// `pattern`: an ECMA-262 regular expression, unanchored. Kept as written; it is not
    /// compiled here.
    pub pattern: Option<String>,
    /// `format`.
    pub format: Option<StringFormat>,
    /// `default`: the value a client pre-fills.
    pub default: Option<String>,
    /// The order the keywords are written in (presentation only).
    pub key_order: KeyOrder,
}

/// The `format`s a string property may assert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StringFormat {
    /// `email`: an RFC 5322 addr-spec.
    Email,
    /// `uri`: an RFC 3986 absolute URI.
    Uri,
    /// `date`: an RFC 3339 full-date.
    Date,
    /// `date-time`: an RFC 3339 date-time.
    DateTime,
}

impl StringFormat {
    /// Every format, in the order the specification lists them.
    pub const ALL: [StringFormat; 4] = [Self::Email, Self::Uri, Self::Date, Self::DateTime];

    /// The name written in the schema (`"date-time"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
        }
    }

    /// The format with that name, if it is one of the four the specification allows.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|format| format.as_str() == name)
    }
}

impl fmt::Display for StringFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A number or integer property.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NumberSchema {
    /// `true` for `"type": "integer"`, `false` for `"type": "number"`.
    pub integer: bool,
    /// `title`: the label of the field.
    pub title: Option<String>,
    /// `description`: help text for the field.
    pub description: Option<String>,
    /// `minimum` (inclusive).
    pub minimum: Option<Number>,
    /// `maximum` (inclusive).
    pub maximum: Option<Number>,
    /// `default`: the value a client pre-fills.
    pub default: Option<Number>,
    /// The order the keywords are written in (presentation only).
    pub key_order: KeyOrder,
}

/// A boolean property.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BooleanSchema {
    /// `title`: the label of the field.
    pub title: Option<String>,
    /// `description`: help text for the field.
    pub description: Option<String>,
    /// `default`: the value a client pre-fills.
    pub default: Option<bool>,
    /// The order the keywords are written in (presentation only).
    pub key_order: KeyOrder,
}

/// A single-select enum property: the answer is one of the option values.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SingleSelectSchema {
    /// `title`: the label of the field.
    pub title: Option<String>,
    /// `description`: help text for the field.
    pub description: Option<String>,
    /// The options: plain `enum` values, or `oneOf` `const`/`title` pairs.
    pub options: EnumOptions,
    /// `default`: the option value a client pre-selects.
    pub default: Option<String>,
    /// Titled options written in the legacy form, `enum` + `enumNames` (the only form of
    /// 2025-06-18, deprecated but still valid in 2025-11-25) instead of `oneOf` (presentation
    /// only: set by [`RequestedSchema::parse`] for a schema written that way, so that it is
    /// written back as it came, and by `#[elicit(enum_names)]`).
    pub enum_names: bool,
    /// The order the keywords are written in (presentation only).
    pub key_order: KeyOrder,
}

/// A multi-select enum property: the answer is an array of option values.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MultiSelectSchema {
    /// `title`: the label of the field.
    pub title: Option<String>,
    /// `description`: help text for the field.
    pub description: Option<String>,
    /// The options: `items.enum` values, or `items.anyOf` `const`/`title` pairs.
    pub options: EnumOptions,
    /// `minItems`: the fewest options that must be selected.
    pub min_items: Option<u64>,
    /// `maxItems`: the most options that may be selected.
    pub max_items: Option<u64>,
    /// `default`: the option values a client pre-selects.
    pub default: Option<Vec<String>>,
    /// The order the keywords are written in (presentation only).
    pub key_order: KeyOrder,
}

/// The options of an enum property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnumOptions {
    /// Values shown as they are: `enum` (single select) or `items.enum` (multi select).
    Untitled(Vec<String>),
    /// Values with a display title: `oneOf` (single select) or `items.anyOf` (multi select) of
    /// `{"const": value, "title": title}`; the legacy `enum` + `enumNames` is read as this too.
    Titled(Vec<TitledOption>),
}

impl Default for EnumOptions {
    fn default() -> Self {
        Self::Untitled(Vec::new())
    }
}

impl EnumOptions {
    /// Whether the options carry display titles.
    pub fn is_titled(&self) -> bool {
        matches!(self, Self::Titled(_))
    }

    /// The number of options.
    pub fn len(&self) -> usize {
        match self {
            Self::Untitled(values) => values.len(),
            Self::Titled(options) => options.len(),
        }
    }

    /// Whether there are no options (never the case for a schema that passed
    /// [`RequestedSchema::check`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The option values, in order.
    pub fn values(&self) -> impl Iterator<Item = &str> + '_ {
        let (untitled, titled) = match self {
            Self::Untitled(values) => (values.as_slice(), &[][..]),
            Self::Titled(options) => (&[][..], options.as_slice()),
        };
        untitled
            .iter()
            .map(String::as_str)
            .chain(titled.iter().map(|option| option.value.as_str()))
    }

    /// Whether `value` is one of the option values.
    pub fn contains(&self, value: &str) -> bool {
        self.values().any(|candidate| candidate == value)
    }
}

/// One option of a titled enum.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TitledOption {
    /// The value the answer carries (`const`).
    pub value: String,
    /// The label a client shows (`title`).
    pub title: String,
}

/// The order in which the keywords of a property schema are written after `type`.
///
/// This is presentation only, so that a schema read with [`RequestedSchema::parse_str`] is
/// written back byte for byte (the specification's own examples do not agree on one order: its
/// contact form writes `description` after `format` and `minimum`). Keywords listed here come
/// first, in this order; the other keywords present follow in [`KeyOrder::CANONICAL`] order.
/// The empty default is the canonical order.
///
/// All `KeyOrder` values compare equal: two schemas that differ only in key order are equal.
#[derive(Debug, Clone, Default)]
pub struct KeyOrder(pub Vec<Keyword>);

impl KeyOrder {
    /// The order of the specification's per-type examples, which is the order used for every
    /// keyword a [`KeyOrder`] does not place: `title`, `description`, the constraints, the
    /// options, `default`.
    pub const CANONICAL: [Keyword; 14] = [
        Keyword::Title,
        Keyword::Description,
        Keyword::MinLength,
        Keyword::MaxLength,
        Keyword::Pattern,
        Keyword::Format,
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::MinItems,
        Keyword::MaxItems,
        Keyword::Enum,
        Keyword::OneOf,
        Keyword::Items,
        Keyword::Default,
    ];

    /// The keywords that carry a select's options, of which a property schema writes one:
    /// `enum` (followed by `enumNames` in the legacy form) or `oneOf` of a single select, `items`
    /// of a multi select. A key order that places the options lists the three.
    pub const OPTIONS: [Keyword; 3] = [Keyword::Enum, Keyword::OneOf, Keyword::Items];

    /// A key order that writes these keywords first, in this order.
    pub fn new(keywords: impl IntoIterator<Item = Keyword>) -> Self {
        Self(keywords.into_iter().collect())
    }

    /// The keywords of `present` in the order they are written: those listed here first,
    /// then the rest in canonical order.
    pub fn arrange(&self, present: impl Fn(Keyword) -> bool) -> Vec<Keyword> {
        let mut out: Vec<Keyword> = Vec::with_capacity(Self::CANONICAL.len());
        for &keyword in self.0.iter().chain(Self::CANONICAL.iter()) {
            if present(keyword) && !out.contains(&keyword) {
                out.push(keyword);
            }
        }
        out
    }
}

impl PartialEq for KeyOrder {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for KeyOrder {}

/// A protocol revision that has elicitation (earlier revisions have none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Revision {
    /// 2025-06-18: the first revision with elicitation. No multi select, titled enums only as
    /// `enum` + `enumNames`, `default` only on booleans, no `pattern`.
    V2025_06_18,
    /// 2025-11-25: form and URL mode; titled enums, multi select, defaults on every type.
    V2025_11_25,
    /// 2026-07-28: the same form schema as 2025-11-25.
    V2026_07_28,
}

impl Revision {
    /// Every revision with elicitation, oldest first.
    pub const ALL: [Revision; 3] = [Self::V2025_06_18, Self::V2025_11_25, Self::V2026_07_28];

    /// The protocol version string (`"2025-06-18"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a schema is not in the elicitation subset, or is inconsistent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The JSON pointer (RFC 6901) of the offending part, relative to the `requestedSchema`
    /// (`""` for the schema itself).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl SchemaError {
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

impl std::error::Error for SchemaError {}

/// Why [`RequestedSchema::to_revision`] cannot write a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToRevisionError {
    /// The schema itself is inconsistent (see [`RequestedSchema::check`]).
    Invalid(SchemaError),
    /// A property uses something the target revision cannot express.
    Unsupported {
        /// The target revision.
        revision: Revision,
        /// The name of the property.
        property: String,
        /// The JSON pointer of what cannot be expressed (`/properties/colors` or
        /// `/properties/name/default`).
        pointer: String,
        /// What cannot be expressed.
        message: String,
    },
}

impl fmt::Display for ToRevisionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(error) => write!(f, "invalid requested schema: {error}"),
            Self::Unsupported {
                revision,
                property,
                message,
                ..
            } => write!(f, "property `{property}`: {message} in revision {revision}"),
        }
    }
}

impl std::error::Error for ToRevisionError {}

impl RequestedSchema {
    /// The schema of the property `name`, if there is one.
    pub fn property(&self, name: &str) -> Option<&PropertySchema> {
        self.properties
            .iter()
            .find(|(candidate, _)| candidate == name)
            .map(|(_, schema)| schema)
    }

    /// Whether the property `name` is listed in `required`.
    pub fn is_required(&self, name: &str) -> bool {
        self.required.iter().any(|candidate| candidate == name)
    }

    /// Reads a `requestedSchema` of any revision, rejecting everything outside the elicitation
    /// subset with the JSON pointer of the offending part.
    ///
    /// Accepted beyond the current form: the legacy `enum` + `enumNames` (read as a titled
    /// single select), the annotations `$schema`, `$comment`, `examples` and a top-level
    /// `title`/`description` (all dropped), and a top-level `additionalProperties` of `false`
    /// (kept) or `true` (dropped). Rejected: nested objects, arrays other than enum multi
    /// selects, unknown keywords and formats, values of the wrong JSON type (a non-string
    /// option, a string `minimum`).
    ///
    /// Accepted although inconsistent, because validation stays well defined and real servers
    /// send them: a `required` name without a property, contradictory bounds, a default that
    /// breaks its own constraints or is not an option, duplicate option values (in `enum`,
    /// `oneOf` or `items`; not with `enumNames`, whose titles would be ambiguous) or property
    /// names, an empty enum, a `pattern` that cannot run in bounded time. Under `oneOf`, a
    /// repeated value matches two branches and is refused by validation, every other option
    /// accepted. [`RequestedSchema::problems`] lists those, for a client that wants to refuse
    /// or warn.
    ///
    /// `serde_json::Value` (without serde_json's `preserve_order` feature) sorts object keys,
    /// so the declaration order of the properties is lost before this function sees it, and the
    /// keywords get the canonical [`KeyOrder`]; use [`RequestedSchema::parse_str`] or the
    /// [`serde::Deserialize`] impl to keep both.
    pub fn parse(value: &serde_json::Value) -> Result<Self, SchemaError> {
        parse::parse(&node::Node::from_value(value), false)
    }

    /// Like [`RequestedSchema::parse`], from JSON text, keeping the order of the properties and
    /// of the keywords of each property. Malformed JSON is reported at pointer `""`.
    pub fn parse_str(json: &str) -> Result<Self, SchemaError> {
        let node: node::Node = serde_json::from_str(json)
            .map_err(|error| SchemaError::new("", format!("malformed JSON: {error}")))?;
        parse::parse(&node, true)
    }

    /// The first consistency rule the schema breaks (see [`RequestedSchema::problems`]).
    pub fn check(&self) -> Result<(), SchemaError> {
        match check::problems(self).into_iter().next() {
            Some(problem) => Err(problem),
            None => Ok(()),
        }
    }

    /// Every consistency rule the schema breaks, each with its pointer: unique property names,
    /// at least one option and unique option values per enum, `required` naming existing
    /// properties once each, `min ≤ max` for every pair of bounds, a multi select's `minItems`
    /// no more than its options, a `pattern` that compiles (ECMA-262, `u` flag), and defaults
    /// that satisfy the property's own bounds, options, `pattern` and `format`. Empty for a
    /// consistent schema. [`RequestedSchema::parse`] accepts a schema that breaks them;
    /// `#[derive(Elicit)]` refuses to compile one (with these messages, at the field or
    /// attribute at fault), and [`RequestedSchema::to_revision`] to write one.
    pub fn problems(&self) -> Vec<SchemaError> {
        check::problems(self)
    }

    /// The JSON of this schema in revision `revision`, after [`RequestedSchema::check`].
    ///
    /// 2025-11-25 and 2026-07-28 get the same JSON as [`serde::Serialize`]. 2025-06-18 gets
    /// titled single selects as `enum` + `enumNames`; a multi select, a `pattern`, or a
    /// `default` on anything but a boolean cannot be said in that revision and is refused,
    /// naming the property.
    pub fn to_revision(&self, revision: Revision) -> Result<serde_json::Value, ToRevisionError> {
        serde_json::to_value(self.for_revision(revision)?)
            .map_err(|error| ToRevisionError::Invalid(SchemaError::new("", error.to_string())))
    }

    /// Like [`RequestedSchema::to_revision`], as JSON text with the properties and keywords in
    /// this schema's order (a `serde_json::Value` sorts object keys unless serde_json's
    /// `preserve_order` feature is on).
    pub fn to_revision_string(&self, revision: Revision) -> Result<String, ToRevisionError> {
        serde_json::to_string(&self.for_revision(revision)?)
            .map_err(|error| ToRevisionError::Invalid(SchemaError::new("", error.to_string())))
    }

    fn for_revision(&self, revision: Revision) -> Result<ser::SchemaOut<'_>, ToRevisionError> {
        self.check().map_err(ToRevisionError::Invalid)?;
        let legacy = revision == Revision::V2025_06_18;
        if legacy {
            ser::check_legacy(self, revision)?;
        }
        Ok(ser::SchemaOut {
            schema: self,
            legacy,
        })
    }
}

impl<'de> serde::Deserialize<'de> for RequestedSchema {
    /// Reads a `requestedSchema` with [`RequestedSchema::parse`]'s rules, keeping the order of
    /// properties and keywords as the input has them.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let node = <node::Node as serde::Deserialize>::deserialize(deserializer)?;
        parse::parse(&node, true).map_err(serde::de::Error::custom)
    }
}

/// Whether two strings are equal, for the short names and options of a form: up to 16 bytes
/// compared as two overlapping words each, inline, rather than with a call to `memcmp` per
/// comparison, which is what most of a validation does on short names.
#[inline(always)]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_text`] on bytes, for text that is not yet known to end on a character boundary.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    // Each range below covers every byte once or twice: the first and the last word overlap.
    let word8 = |bytes: &[u8], at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let word4 = |bytes: &[u8], at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    match len {
        0 => true,
        1..=3 => a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1],
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, len - 4) == word4(b, len - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, len - 8) == word8(b, len - 8),
        _ => a == b,
    }
}

/// `<base>/<index>`, the pointer of an array item (`/topics/1`), without the formatting
/// machinery, which cost an item's error more than its check.
pub(crate) fn item_pointer(base: &str, index: usize) -> String {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(index);
    let mut out = String::with_capacity(base.len() + 1 + digits.len());
    out.push_str(base);
    out.push('/');
    out.push_str(digits);
    out
}

/// Appends `segment` to the JSON pointer `base`, escaping `~` and `/` (RFC 6901):
/// `pointer("/properties", "a/b")` is `/properties/a~1b`, `pointer("", "email")` is `/email`.
///
/// The pointers of [`SchemaError`]s and [`ValidationError`]s, and those `#[derive(Elicit)]`
/// compiles in, are all made with it; the escaping is `mcp-typed-json`'s, the workspace's one
/// home of it.
pub use mcp_typed_json::pointer::join as pointer;

#[cfg(test)]
mod tests {
    use super::same_text;

    /// Equal exactly when `==` says so: every length up to 24, each byte changed in turn.
    #[test]
    fn same_text_is_string_equality() {
        let base = "abcdefghijklmnopqrstuvwx";
        let mut compared = 0;
        for len in 0..=base.len() {
            let text = &base[..len];
            let copy = text.to_owned();
            assert!(same_text(text, &copy));
            for at in 0..len {
                let mut changed = text.as_bytes().to_vec();
                changed[at] = b'_';
                let changed = String::from_utf8(changed).unwrap();
                assert!(!same_text(text, &changed), "{text:?} {changed:?}");
                assert!(!same_text(&changed, text), "{changed:?} {text:?}");
                compared += 1;
            }
            for other in 0..=base.len() {
                assert_eq!(same_text(text, &base[..other]), len == other);
            }
        }
        assert_eq!(compared, (1..=24).sum::<usize>());
    }
}
