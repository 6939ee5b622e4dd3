//! Members read ahead of the decision they feed: the members of a union's object before its tag
//! or deciding member, and the whole object of a structural match.
//!
//! Each member value is kept as its JSON text, borrowed from the input where the input allows,
//! and replayed through serde_json's text deserializer: the deserializer the generated types are
//! already compiled for, so buffering adds no copy of their decoders (a `Value` kept here would
//! compile every type a union can hold once more, for `Value`'s deserializer).
//!
//! Runtime: the union decoding (`super::union`) and the codec fill these buffers, and generated
//! structural unions call [`buffer_object`] and [`buffer_rest`]; the capture of raw JSON text
//! ([`raw_text`]) also backs the public `RawObject` and the borrowed family.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, value::BorrowedStrDeserializer, Deserialize, DeserializeSeed, Deserializer, Error as _,
    IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

use super::Key;

/// The name under which serde_json hands raw JSON text through serde (for its `RawValue`): as
/// the single member of a map on decode, as the single field of a struct on encode. It is
/// serde_json's internal name; tests pin that text keeps its spelling both ways.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A member value kept for a later decode: its JSON text.
#[derive(Debug)]
pub struct Captured<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Captured<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, CaptureVisitor)
    }
}

struct CaptureVisitor;

impl<'de> Visitor<'de> for CaptureVisitor {
    type Value = Captured<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        raw_text(map).map(Captured)
    }
    /// Deserializers without the raw-value protocol (a `Value` by reference, serde's buffering,
    /// other formats): the value, written as JSON.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Value::deserialize(d).map(|value| Captured::of(&value))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        captured_value(v.into_deserializer())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Captured::of(&Value::from(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Captured(Cow::Borrowed("null")))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Captured(Cow::Borrowed("null")))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Captured::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        captured_value(de::value::SeqAccessDeserializer::new(seq))
    }
}

/// The text a map hands over through serde_json's raw-value protocol (its one member named
/// [`RAW_VALUE_TOKEN`]): well-formed JSON, borrowed from text input. A map of another format is
/// read member by member and written as JSON.
pub(crate) fn raw_text<'de, A: MapAccess<'de>>(mut map: A) -> Result<Cow<'de, str>, A::Error> {
    let Some(first) = map.next_key::<Key<'de>>()? else {
        return Ok(Cow::Borrowed("{}"));
    };
    if first.as_str() == RAW_VALUE_TOKEN {
        let text: Key<'de> = map.next_value()?;
        return Ok(text.0);
    }
    let mut object = serde_json::Map::new();
    object.insert(first.0.into_owned(), map.next_value()?);
    while let Some((name, value)) = map.next_entry::<String, Value>()? {
        object.insert(name, value);
    }
    Ok(Cow::Owned(Value::Object(object).to_string()))
}

/// A value of a format without the raw-value protocol, built by serde_json's own visitor (which
/// also reads the numbers of its `arbitrary_precision` feature, should another crate turn it on).
fn captured_value<'de, D: Deserializer<'de>>(d: D) -> Result<Captured<'de>, D::Error> {
    Value::deserialize(d).map(|value| Captured::of(&value))
}

impl<'de> Captured<'de> {
    fn of(value: &Value) -> Self {
        Captured(Cow::Owned(value.to_string()))
    }

    /// Decodes the member with `seed`, borrowing from it.
    fn decode<'a, T: DeserializeSeed<'a>>(
        &'a self,
        seed: T,
    ) -> Result<T::Value, serde_json::Error> {
        replay(&self.0, seed)
    }

    /// The value, if it is a string: borrowed from the input where it has no escapes.
    pub(crate) fn as_str(&self) -> Option<Cow<'de, str>> {
        if let Cow::Borrowed(text) = self.0 {
            // Well-formed JSON text: a string without escapes is its text between the quotes.
            if let Some(plain) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                if !plain.contains('\\') {
                    return Some(Cow::Borrowed(plain));
                }
            }
            if let Ok(value) = serde_json::from_str::<&'de str>(text) {
                return Some(Cow::Borrowed(value));
            }
        }
        serde_json::from_str::<String>(&self.0).ok().map(Cow::Owned)
    }

    /// The text, where the input lent it for `'de`.
    pub(crate) fn lent(&self) -> Option<&'de str> {
        match self.0 {
            Cow::Borrowed(text) => Some(text),
            Cow::Owned(_) => None,
        }
    }

    /// The JSON text, lent or not.
    #[cfg(feature = "borrowed")]
    pub(crate) fn into_cow(self) -> Cow<'de, str> {
        self.0
    }

    /// The JSON text, lent or not.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }

    /// The JSON text of the string `text`.
    pub(crate) fn string(text: &str) -> Self {
        Self::of(&Value::from(text))
    }
}

/// Decodes `text`, well-formed JSON text of one value, with `seed`. An error carries no position:
/// the one serde_json gives is within `text`, and the deserializer that reads on takes the error
/// up to its own position.
pub(crate) fn replay<'a, T: DeserializeSeed<'a>>(
    text: &'a str,
    seed: T,
) -> Result<T::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    seed.deserialize(&mut de).map_err(lose_position)
}

/// The error without its position (see [`replay`]); not generic, so compiled once.
#[cold]
pub(crate) fn lose_position(error: serde_json::Error) -> serde_json::Error {
    serde_json::Error::custom(without_position(&error))
}

/// The message of a serde_json error, without the ` at line L column C` that its `Display` adds.
pub(crate) fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    if error.line() == 0 {
        return message;
    }
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&suffix) {
        Some(bare) => bare.to_owned(),
        None => message,
    }
}

/// A buffered string (or key) for the seed that reads it: like a string `Value`, a value for
/// `Option` (`visit_some`) and for a newtype, and a unit variant for an enum.
pub(crate) struct StrDeserializer<'de, E> {
    text: Cow<'de, str>,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for StrDeserializer<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.text {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.text {
            Cow::Borrowed(text) => {
                BorrowedStrDeserializer::new(text).deserialize_enum(name, variants, visitor)
            }
            Cow::Owned(text) => {
                de::value::StringDeserializer::new(text).deserialize_enum(name, variants, visitor)
            }
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// A buffered string (or key) for the seed that reads it.
pub(crate) fn str_deserializer<'de, E>(text: Cow<'de, str>) -> StrDeserializer<'de, E> {
    StrDeserializer {
        text,
        error: PhantomData,
    }
}

/// The members of an object, in order, kept for a structural match: a deserializer of it
/// replays them to each candidate type.
#[derive(Debug, Default)]
pub struct Buffered<'de> {
    members: Vec<(Key<'de>, Captured<'de>)>,
}

impl<'de> Buffered<'de> {
    /// The members' names.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(key, _)| key.as_str())
    }

    pub(crate) fn push(&mut self, key: Key<'de>, value: Captured<'de>) {
        self.members.push((key, value));
    }

    /// Whether the input lent the text of every member for `'de`, so that a map replaying them
    /// before its live rest can hand them to seeds that may borrow for `'de`.
    pub(crate) fn all_lent(&self) -> bool {
        self.members
            .iter()
            .all(|(_, value)| matches!(value.0, Cow::Borrowed(_)))
    }

    /// The members, for a map that replays them before its live rest.
    pub(crate) fn into_members(self) -> std::vec::IntoIter<(Key<'de>, Captured<'de>)> {
        self.members.into_iter()
    }

    /// Reads the rest of `map` into the object.
    fn read_rest<A: MapAccess<'de>>(&mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let value: Captured<'de> = map.next_value()?;
            self.push(key, value);
        }
        Ok(())
    }

    /// Reads the rest of `map` into the object, then writes the object as JSON text.
    pub(crate) fn into_text<A: MapAccess<'de>>(mut self, map: A) -> Result<String, A::Error> {
        self.read_rest(map)?;
        Ok(self.to_text())
    }

    /// The object as JSON text, its members in order.
    fn to_text(&self) -> String {
        let mut text = String::from("{");
        for (i, (key, value)) in self.members.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&Value::from(key.as_str()).to_string());
            text.push(':');
            text.push_str(&value.0);
        }
        text.push('}');
        text
    }

    /// Refuses an object with a member twice (JSON leaves it open; the schema's types cannot
    /// hold both).
    pub(crate) fn check_unique<E: de::Error>(&self) -> Result<(), E> {
        let members = &self.members;
        // Union objects are small: compare pairwise without allocating; sort the large ones.
        let twice = if members.len() <= 8 {
            members.iter().enumerate().find_map(|(i, (key, _))| {
                members[..i]
                    .iter()
                    .any(|(earlier, _)| earlier.as_str() == key.as_str())
                    .then_some(key.as_str())
            })
        } else {
            let mut names: Vec<&str> = self.keys().collect();
            names.sort_unstable();
            names
                .windows(2)
                .find(|pair| pair[0] == pair[1])
                .map(|pair| pair[0])
        };
        match twice {
            Some(name) => Err(E::custom(format_args!(
                "duplicate member `{name}` in object"
            ))),
            None => Ok(()),
        }
    }
}

/// Reads a whole object into a [`Buffered`].
pub fn buffer_object<'de, A: MapAccess<'de>>(map: A) -> Result<Buffered<'de>, A::Error> {
    buffer_rest(Buffered::default(), map)
}

/// Reads the rest of an object into the members already read (`read`).
pub fn buffer_rest<'de, A: MapAccess<'de>>(
    mut read: Buffered<'de>,
    map: A,
) -> Result<Buffered<'de>, A::Error> {
    read.read_rest(map)?;
    read.check_unique()?;
    Ok(read)
}

impl<'de> Deserialize<'de> for Buffered<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = Buffered<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Buffered<'de>, A::Error> {
                buffer_object(map)
            }
        }
        deserializer.deserialize_map(ObjectVisitor)
    }
}

impl<'a, 'de> Deserializer<'a> for &'a Buffered<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(Replay {
            members: self.members.iter(),
            pending: None,
        })
    }

    /// As a `Value` and serde's `Content` do: a member named like serde_json's raw-value token
    /// then stays a member, never taken for raw text (`RawObject` writes the members out).
    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// A [`Buffered`] object as a deserializer that lends the input's text for `'de`: for the
/// borrowed types (`mcp_typed::borrowed`), which keep what they borrow. A member whose text the
/// input did not lend is refused.
#[derive(Debug)]
pub struct Lent<'a, 'de>(&'a Buffered<'de>);

impl<'de> Buffered<'de> {
    /// The object as a deserializer lending `'de` (see [`Lent`]).
    pub fn lent(&self) -> Lent<'_, 'de> {
        Lent(self)
    }
}

impl<'de> Deserializer<'de> for Lent<'_, 'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(LentReplay {
            members: self.0.members.iter(),
            pending: None,
        })
    }

    /// As for `&Buffered`: a member named like the raw-value token stays a member.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'de>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The map a [`Lent`] object gives to a candidate type.
struct LentReplay<'a, 'de> {
    members: std::slice::Iter<'a, (Key<'de>, Captured<'de>)>,
    pending: Option<&'a Captured<'de>>,
}

impl<'de> MapAccess<'de> for LentReplay<'_, 'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.members.next() else {
            return Ok(None);
        };
        self.pending = Some(value);
        seed.deserialize(str_deserializer(key.0.clone())).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.pending.take().map(Captured::lent) {
            Some(Some(text)) => replay(text, seed),
            Some(None) => Err(serde_json::Error::custom(super::NOT_LENT)),
            None => Err(serde_json::Error::custom(
                "a member's value asked before its key",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// The map a [`Buffered`] object gives to a candidate type.
struct Replay<'a, 'de> {
    members: std::slice::Iter<'a, (Key<'de>, Captured<'de>)>,
    pending: Option<&'a Captured<'de>>,
}

impl<'a> MapAccess<'a> for Replay<'a, '_> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.members.next() else {
            return Ok(None);
        };
        self.pending = Some(value);
        seed.deserialize(str_deserializer(Cow::Borrowed(key.as_str())))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.pending.take() {
            Some(value) => value.decode(seed),
            None => Err(serde_json::Error::custom(
                "a member's value asked before its key",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(object: &Buffered) -> Value {
        serde_json::from_str(&object.to_text()).unwrap()
    }

    #[test]
    fn members_are_kept_as_their_text_in_order() {
        let object: Buffered =
            serde_json::from_str(r#"{"b": "te\"xt", "a": [1, 2.5], "c": {"d": null}}"#).unwrap();
        assert!(matches!(
            &object.members[0].1,
            Captured(Cow::Borrowed(r#""te\"xt""#))
        ));
        assert!(matches!(
            &object.members[1].1,
            Captured(Cow::Borrowed("[1, 2.5]"))
        ));
        let keys: Vec<&str> = object.keys().collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(
            object.to_text(),
            r#"{"b":"te\"xt","a":[1, 2.5],"c":{"d": null}}"#
        );
    }

    #[test]
    fn members_of_a_value_decode_back_to_it() {
        let source = serde_json::json!({"a": 1, "b": [true], "s": "x", "q\"": {}});
        let object = Buffered::deserialize(source.clone()).unwrap();
        assert!(matches!(&object.members[0].1, Captured(Cow::Owned(_))));
        assert_eq!(text_of(&object), source);
        let object = Buffered::deserialize(&source).unwrap();
        assert_eq!(text_of(&object), source);
    }

    #[test]
    fn members_read_from_a_reader_are_owned_text() {
        let text = r#"{"a": [1, "x"], "k\u00e9y": "v"}"#;
        let mut de = serde_json::Deserializer::from_reader(text.as_bytes());
        let object = Buffered::deserialize(&mut de).unwrap();
        let lent = |(_, value): &(Key, Captured)| matches!(value.0, Cow::Borrowed(_));
        assert!(!object.members.iter().any(lent), "a reader lends nothing");
        assert_eq!(
            text_of(&object),
            serde_json::json!({"a": [1, "x"], "kéy": "v"})
        );
    }

    #[test]
    fn a_member_twice_is_refused() {
        let error = serde_json::from_str::<Buffered>(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap_err();
        assert!(
            error.to_string().contains("duplicate member `a`"),
            "{error}"
        );
        // Past eight members, by sorting.
        let many: Vec<String> = (0..12).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}, \"k7\": 0}}", many.join(", "));
        let error = serde_json::from_str::<Buffered>(&text).unwrap_err();
        assert!(
            error.to_string().contains("duplicate member `k7`"),
            "{error}"
        );
        let text = format!("{{{}}}", many.join(", "));
        assert!(serde_json::from_str::<Buffered>(&text).is_ok());
    }

    #[test]
    fn a_member_named_like_the_raw_value_token_is_a_member() {
        let text = r#"{"$serde_json::private::RawValue": "{not json", "a": 1}"#;
        let object: Buffered = serde_json::from_str(text).unwrap();
        let raw: crate::RawObject = serde_json::from_str(&object.to_text()).unwrap();
        assert_eq!(
            raw.as_str(),
            r#"{"$serde_json::private::RawValue":"{not json","a":1}"#
        );
    }

    #[test]
    fn members_replay_to_a_type_and_keep_free_form_text() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Replayed {
            a: Option<String>,
            n: Option<u64>,
            meta: crate::RawObject,
        }
        let object: Buffered =
            serde_json::from_str(r#"{"a": "x", "n": null, "meta": {"z": 1.0e2, "a": [1]}}"#)
                .unwrap();
        let replayed = Replayed::deserialize(&object).unwrap();
        assert_eq!(replayed.a.as_deref(), Some("x"));
        assert_eq!(replayed.n, None);
        // Members in their order, numbers as written (a `Value` would sort them, write 100.0).
        assert_eq!(replayed.meta.as_str(), r#"{"z": 1.0e2, "a": [1]}"#);
    }

    #[test]
    fn an_error_in_a_replayed_member_has_no_position_of_its_own() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Typed {
            a: Vec<u8>,
        }
        let object: Buffered = serde_json::from_str(r#"{"a": [1, "x"]}"#).unwrap();
        let error = Typed::deserialize(&object).unwrap_err();
        assert_eq!(error.line(), 0, "{error}");
        assert!(
            error.to_string().starts_with("invalid type: string"),
            "{error}"
        );
    }
}
