//! Runtime support of `#[derive(Elicit)]`: the value view its compiled checks read, shared by
//! `from_content` (a parsed [`Value`]) and `from_json_str` (a [`Member`] read straight from the
//! text), and the one-pass reader of the `content` object that `from_json_str` uses.
//!
//! The reader never builds the `Map`: it matches each key against the form's properties while
//! the key is still borrowed from the text (first against the property after the last one
//! read, as clients write members in the form's order), keeps the last occurrence of each
//! declared member (as a `Map` would), and skips the other members. A scan of the bytes
//! (`scan`) reads the usual shape of a content (a flat object of scalars and arrays of
//! scalars) and gives way to serde_json for anything else and for every malformed text. On the serde_json path, skipping
//! goes through the same parsing paths as building a `Value` (numbers are converted, strings
//! unescaped), so a text is refused as malformed exactly when `serde_json::from_str::<Value>`
//! refuses it (`IgnoredAny` would let `1e400` or a lone surrogate `"\ud800"` through).

use std::borrow::Cow;
use std::fmt;
use std::mem::ManuallyDrop;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::{pointer, FromJsonError, Problem, ValidationErrors};

mod scan;

/// What the derived checks read from the value of a member: implemented by [`Value`] (for
/// `from_content`) and [`Member`] (for `from_json_str`), so that both run the same code.
pub trait FormValue: Sized {
    /// The text of a string.
    fn form_str(&self) -> Option<&str>;
    /// The value of a boolean.
    fn form_bool(&self) -> Option<bool>;
    /// The value of a number.
    fn form_number(&self) -> Option<&Number>;
    /// The items of an array (only their [`FormValue::form_str`] is read).
    fn form_items(&self) -> Option<&[Self]>;
    /// The JSON type, for messages (`a string`, `null`), when it is known.
    fn form_kind(&self) -> Option<&'static str>;
}

impl FormValue for Value {
    #[inline]
    fn form_str(&self) -> Option<&str> {
        self.as_str()
    }
    #[inline]
    fn form_bool(&self) -> Option<bool> {
        self.as_bool()
    }
    #[inline]
    fn form_number(&self) -> Option<&Number> {
        match self {
            Value::Number(number) => Some(number),
            _ => None,
        }
    }
    #[inline]
    fn form_items(&self) -> Option<&[Value]> {
        self.as_array().map(Vec::as_slice)
    }
    fn form_kind(&self) -> Option<&'static str> {
        Some(super::json_kind(self))
    }
}

/// The value of a declared member, read from JSON text: what the derived checks need and no
/// more. Strings are borrowed from the text unless they contain escapes.
#[derive(Debug)]
pub enum Member<'de> {
    /// A string.
    Str(Cow<'de, str>),
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(Number),
    /// An array: its strings, anything else as [`Member::Other`].
    Array(Vec<Member<'de>>),
    /// `null` (not inside an array).
    Null,
    /// An object, or (inside an array) anything but a string.
    Other,
}

impl FormValue for Member<'_> {
    #[inline]
    fn form_str(&self) -> Option<&str> {
        match self {
            Member::Str(text) => Some(text),
            _ => None,
        }
    }
    #[inline]
    fn form_bool(&self) -> Option<bool> {
        match self {
            Member::Bool(b) => Some(*b),
            _ => None,
        }
    }
    #[inline]
    fn form_number(&self) -> Option<&Number> {
        match self {
            Member::Number(number) => Some(number),
            _ => None,
        }
    }
    #[inline]
    fn form_items(&self) -> Option<&[Self]> {
        match self {
            Member::Array(items) => Some(items),
            _ => None,
        }
    }
    fn form_kind(&self) -> Option<&'static str> {
        match self {
            Member::Str(_) => Some("a string"),
            Member::Bool(_) => Some("a boolean"),
            Member::Number(_) => Some("a number"),
            Member::Array(_) => Some("an array"),
            Member::Null => Some("null"),
            // Inside an array any non-string is `Other`, but items' types are never reported.
            Member::Other => Some("an object"),
        }
    }
}

/// Reads a [`Member`]; `item` for the items of an array, where only strings matter.
struct MemberVisitor {
    item: bool,
}

impl<'de> DeserializeSeed<'de> for MemberVisitor {
    type Value = Member<'de>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Member<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MemberVisitor {
    type Value = Member<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Borrowed(v)))
    }
    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Owned(v.to_owned())))
    }
    #[inline]
    fn visit_string<E: de::Error>(self, v: String) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Owned(v)))
    }
    #[inline]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Member<'de>, E> {
        Ok(if self.item {
            Member::Other
        } else {
            Member::Bool(v)
        })
    }
    // The numbers as `Value` holds them (`Value`'s own visitor does the same conversions).
    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Member<'de>, E> {
        Ok(self.number(Some(Number::from(v))))
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Member<'de>, E> {
        Ok(self.number(Some(Number::from(v))))
    }
    #[inline]
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Member<'de>, E> {
        Ok(self.number(Number::from_f64(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Member<'de>, E> {
        Ok(if self.item {
            Member::Other
        } else {
            Member::Null
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member<'de>, A::Error> {
        if self.item {
            while seq.next_element::<Skip>()?.is_some() {}
            return Ok(Member::Other);
        }
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(4).min(64));
        while let Some(item) = seq.next_element_seed(MemberVisitor { item: true })? {
            items.push(item);
        }
        Ok(Member::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member<'de>, A::Error> {
        // Through `Value`, which also reads serde_json's `arbitrary_precision` numbers (they
        // arrive as a map); an object member is a type error, so its cost does not matter.
        let value = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(match value {
            Value::Number(number) => self.number(Some(number)),
            _ => Member::Other,
        })
    }
}

impl MemberVisitor {
    #[inline]
    fn number(&self, number: Option<Number>) -> Member<'static> {
        match number {
            Some(number) if !self.item => Member::Number(number),
            _ => Member::Other,
        }
    }
}

/// Consumes any value through the same parsing paths as building a `Value`, keeping nothing.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Skip, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_key::<Skip>()?.is_some() {
            map.next_value::<Skip>()?;
        }
        Ok(Skip)
    }
}

/// The members of a `content` object read by [`decode_content`]: the last occurrence of each
/// declared member (by the form's property index), and the names of the undeclared ones when
/// the form refuses them.
#[derive(Debug)]
pub struct Content<'de, const N: usize> {
    /// Dropped by hand (see `Drop`): most members own nothing, and the drop glue of each
    /// (a call per slot, `Member` being recursive) cost more than reading some of them.
    members: ManuallyDrop<[Option<Member<'de>>; N]>,
    /// Kept as the keys of a `Map` so that they come in the order (and with the
    /// de-duplication) of the `Map` that `from_content` would see; `None` until there is one.
    undeclared: Option<Map<String, Value>>,
}

impl<'de, const N: usize> Content<'de, N> {
    /// No member read yet.
    pub fn empty() -> Self {
        Content {
            members: ManuallyDrop::new(std::array::from_fn(|_| None)),
            undeclared: None,
        }
    }

    /// The value of each declared member, in property order.
    #[inline]
    pub fn members(&self) -> [Option<&Member<'de>>; N] {
        self.members.each_ref().map(Option::as_ref)
    }

    /// The names of the undeclared members (recorded only when the form refuses them).
    pub fn undeclared(&self) -> impl Iterator<Item = &str> + '_ {
        self.undeclared
            .iter()
            .flat_map(Map::keys)
            .map(String::as_str)
    }
}

impl<const N: usize> Drop for Content<'_, N> {
    fn drop(&mut self) {
        // Only the members that own memory (an unescaped string, an array, and a number when
        // serde_json's `arbitrary_precision` makes it a string) are dropped; the others have
        // nothing to free, so leaving them to `ManuallyDrop` leaks nothing.
        for slot in self.members.iter_mut() {
            let owns = match slot {
                Some(Member::Str(Cow::Owned(_)) | Member::Array(_)) => true,
                Some(Member::Number(_)) => std::mem::needs_drop::<Number>(),
                _ => false,
            };
            if owns {
                drop(slot.take());
            }
        }
    }
}

/// The names of a form's properties, in order, for the scan's guess of each key: a client lists
/// the members of a `content` in the order of the form, so the scan first compares the text
/// with the name of the property after the one it read last, which costs a comparison of a
/// few words instead of reading the key and looking it up. A name JSON must escape (one with
/// `"`, `\` or a control character) is never guessed: its text differs from its name.
#[derive(Debug, Clone, Copy)]
pub struct Names<const N: usize>([Option<&'static str>; N]);

impl<const N: usize> Names<N> {
    /// The names of the properties, by index.
    pub const fn new(names: [&'static str; N]) -> Self {
        let mut guessable = [None; N];
        let mut i = 0;
        while i < N {
            let bytes = names[i].as_bytes();
            let mut plain = true;
            let mut at = 0;
            while at < bytes.len() {
                plain &= !matches!(bytes[at], b'"' | b'\\' | 0..=0x1f);
                at += 1;
            }
            if plain {
                guessable[i] = Some(names[i]);
            }
            i += 1;
        }
        Names(guessable)
    }

    /// The name of property `index` when its text in JSON is the name itself.
    #[inline]
    fn guessable(&self, index: usize) -> Option<&'static str> {
        self.0.get(index).copied().flatten()
    }
}

/// Matches a key against the properties without allocating (serde_json hands over the key
/// borrowed from the text, or unescaped in its scratch buffer); the name of an undeclared key is
/// copied only when `undeclared` asks for it.
struct KeySeed<'a, F> {
    index: &'a F,
    undeclared: Option<&'a mut Option<Map<String, Value>>>,
}

impl<'de, F: Fn(&str) -> Option<usize>> DeserializeSeed<'de> for KeySeed<'_, F> {
    type Value = Option<usize>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, F: Fn(&str) -> Option<usize>> Visitor<'de> for KeySeed<'_, F> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }
    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        let found = (self.index)(v);
        if found.is_none() {
            if let Some(undeclared) = self.undeclared {
                undeclared
                    .get_or_insert_with(Map::new)
                    .insert(v.to_owned(), Value::Null);
            }
        }
        Ok(found)
    }
}

/// Reads the top-level value: `true` for an object (its members stored), `false` for anything
/// else (consumed, so that a syntax error after it is still reported as such).
struct ContentVisitor<'a, 'de, F, const N: usize> {
    index: &'a F,
    members: &'a mut [Option<Member<'de>>; N],
    undeclared: Option<&'a mut Option<Map<String, Value>>>,
}

impl<'de, F: Fn(&str) -> Option<usize>, const N: usize> Visitor<'de>
    for ContentVisitor<'_, 'de, F, N>
{
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<bool, A::Error> {
        loop {
            let seed = KeySeed {
                index: self.index,
                undeclared: self.undeclared.as_deref_mut(),
            };
            match map.next_key_seed(seed)? {
                // A repeated member replaces the earlier one, as in a `Map`.
                Some(Some(i)) => match self.members.get_mut(i) {
                    Some(slot) => *slot = Some(map.next_value_seed(MemberVisitor { item: false })?),
                    None => {
                        map.next_value::<Skip>()?;
                    }
                },
                Some(None) => {
                    map.next_value::<Skip>()?;
                }
                None => return Ok(true),
            }
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        SkipVisitor.visit_seq(seq).map(|_| false)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// Reads the `content` object of a form with `N` properties from JSON text in one pass into
/// `content` (empty when called; filled in place, as a form's content is a few hundred bytes).
/// `names` are the property names by index (the scan's guesses), `index` maps a property name
/// to its index, and `refuse_undeclared` records the names of the other members. Malformed
/// JSON is [`FromJsonError::Syntax`], exactly when `serde_json::from_str::<Value>` fails; a
/// well-formed non-object is a `type` error at `""`, as `Elicit::from_json_str`'s provided
/// implementation reports it.
#[inline]
pub fn decode_content<'de, const N: usize>(
    json: &'de str,
    names: &Names<N>,
    index: impl Fn(&str) -> Option<usize>,
    refuse_undeclared: bool,
    content: &mut Content<'de, N>,
) -> Result<(), FromJsonError> {
    let undeclared = refuse_undeclared.then_some(&mut content.undeclared);
    match scan::read_content(json, names, &index, &mut content.members, undeclared) {
        Some(()) => Ok(()),
        None => decode_with_serde_json(json, &index, refuse_undeclared, content),
    }
}

/// Anything the scan does not read, and every malformed text: read with serde_json, which
/// reports the exact error.
#[cold]
fn decode_with_serde_json<'de, const N: usize>(
    json: &'de str,
    index: &impl Fn(&str) -> Option<usize>,
    refuse_undeclared: bool,
    content: &mut Content<'de, N>,
) -> Result<(), FromJsonError> {
    *content = Content::empty();
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let visitor = ContentVisitor {
        index,
        members: &mut content.members,
        undeclared: refuse_undeclared.then_some(&mut content.undeclared),
    };
    let is_object = deserializer
        .deserialize_any(visitor)
        .and_then(|is_object| deserializer.end().map(|()| is_object))
        .map_err(FromJsonError::Syntax)?;
    if !is_object {
        let mut errors = ValidationErrors::default();
        errors.push("", crate::Keyword::Type, "the content must be an object");
        return Err(FromJsonError::Invalid(errors));
    }
    Ok(())
}

/// Reports each of `names` that is not a property (`declared` is false) as
/// `RequestedSchema::validate` does for a schema with `"additionalProperties": false`.
pub fn refuse_undeclared<'a>(
    errors: &mut ValidationErrors,
    names: impl IntoIterator<Item = &'a str>,
    declared: impl Fn(&str) -> bool,
) {
    for name in names {
        if !declared(name) {
            errors.report(pointer("", name), Problem::Undeclared);
        }
    }
}

/// The built value when no check failed, else every error.
#[inline]
pub fn finish<T>(value: Option<T>, errors: ValidationErrors) -> Result<T, ValidationErrors> {
    match value {
        Some(value) if errors.errors().is_empty() => {
            errors.let_go();
            Ok(value)
        }
        _ => Err(errors),
    }
}
