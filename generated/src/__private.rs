//! Runtime support for the generated code. Not a public API: the generated types call these
//! helpers so that each type carries only its own field list, not a copy of the decoding logic.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde_json::{Map, Value};

pub use indexmap::IndexMap;
pub use serde;
pub use serde_json;

pub use crate::buffer::{buffer_object, buffer_rest, Buffered, Captured};
use crate::buffer::{replay, str_deserializer};
pub use crate::error_path::{forget_since, mark as path_mark};
use crate::error_path::{note_index, note_member};
pub use crate::jsonrpc;
/// The JSON-RPC codec the generated message enums implement and call (`jsonrpc` above is the
/// public API they name: `Request`, `DecodeError`).
pub mod codec {
    pub use crate::jsonrpc::codec::{
        deserialize, deserialize_call, from_lent_slice, from_lent_str, from_str, from_value,
        optional_params, params_from_text, required_params, serialize, serialize_call, Calls,
        CallsDecode, Decode, DecodeResult, Direction, NoCalls, Parts, PartsRef,
    };
}
#[cfg(feature = "borrowed")]
pub use crate::borrowed::{ExtraRef, IntoOwned, RawObjectRef, Str, ValueRef};
pub use crate::buffer::Lent;
/// A decode that reports the JSON pointer it stopped at: for `mcp-mrtr`, whose answers are
/// diagnosed as the messages are.
pub use crate::jsonrpc::diagnosis::path_error;
pub use crate::RawObject;
#[cfg(feature = "schemars")]
pub use {crate::__json_schema as json_schema, crate::json_schema_impls, schemars};

/// A map key, borrowed from the input when the input allows it.
#[derive(Debug)]
pub struct Key<'de>(pub Cow<'de, str>);

impl Key<'_> {
    /// The key text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Decoding of an object type from a map whose discriminating member may already have been
/// read (by the union that dispatched on it). Implemented by every generated struct.
pub trait MapDecode<'de>: Sized {
    /// Reads the remaining members of `map`. `consumed` names the constant member that the caller
    /// already read and checked (the union tag), if any.
    fn decode_map<A: MapAccess<'de>>(map: A, consumed: Option<&str>) -> Result<Self, A::Error>;
}

/// `Deserialize` for a generated struct: asks for a map and hands it to [`MapDecode`].
#[inline]
pub fn deserialize_struct<'de, T: MapDecode<'de>, D: Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
) -> Result<T, D::Error> {
    struct StructVisitor<T>(&'static str, PhantomData<T>);
    impl<'de, T: MapDecode<'de>> Visitor<'de> for StructVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            expecting_object(f, self.0)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::decode_map(map, None)
        }
    }
    deserializer.deserialize_map(StructVisitor(name, PhantomData))
}

/// What [`deserialize_struct`] expects, written once rather than inlined into every type's
/// visitor.
#[inline(never)]
fn expecting_object(f: &mut fmt::Formatter, name: &str) -> fmt::Result {
    write!(f, "an object ({name})")
}

/// Reads the value of a member into its slot, refusing a second occurrence.
#[inline]
pub fn field<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(name));
    }
    *slot = Some(value_of(map, name, PhantomData)?);
    Ok(())
}

/// [`field`] for an array member: an error in an item notes the item's index.
#[inline]
pub fn field_seq<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<Vec<T>>,
    name: &'static str,
) -> Result<(), A::Error> {
    seeded(map, slot, name, Items(PhantomData))
}

/// [`field`] for an object member with typed values: an error in a value notes its name; a
/// name twice is refused.
#[inline]
pub fn field_map<'de, A: MapAccess<'de>, T: de::Deserialize<'de>, M: ExtraMap<'de, T> + Default>(
    map: &mut A,
    slot: &mut Option<M>,
    name: &'static str,
) -> Result<(), A::Error> {
    seeded(map, slot, name, Members(PhantomData))
}

/// [`field`] with a seed: reads the value of member `name` into its slot, refusing a second
/// occurrence.
#[inline]
fn seeded<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    name: &'static str,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(name));
    }
    *slot = Some(value_of(map, name, seed)?);
    Ok(())
}

/// The value of member `name`, read with `seed`, noting the member on the error's path.
#[inline]
fn value_of<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    name: &str,
    seed: S,
) -> Result<S::Value, A::Error> {
    match map.next_value_seed(seed) {
        Ok(value) => Ok(value),
        Err(error) => {
            note_member(name);
            Err(error)
        }
    }
}

/// An array of `T`s, noting the index of an item that fails.
struct Items<T>(PhantomData<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for Items<T> {
    type Value = Vec<T>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: de::Deserialize<'de>> Visitor<'de> for Items<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        let mut items = Vec::new();
        loop {
            match seq.next_element() {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(items),
                Err(error) => {
                    note_index(items.len());
                    return Err(error);
                }
            }
        }
    }
}

/// An object of `T`s (into a map `M`), noting the name of a member that fails.
struct Members<T, M>(PhantomData<(T, M)>);

impl<'de, T: de::Deserialize<'de>, M: ExtraMap<'de, T> + Default> DeserializeSeed<'de>
    for Members<T, M>
{
    type Value = M;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<M, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: de::Deserialize<'de>, M: ExtraMap<'de, T> + Default> Visitor<'de> for Members<T, M> {
    type Value = M;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M, A::Error> {
        let mut members = M::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let value = value_of(&mut map, key.as_str(), PhantomData)?;
            if members.insert_new(key, value) {
                continue;
            }
            return Err(A::Error::custom("duplicate member in object"));
        }
        Ok(members)
    }
}

/// The `missing field` error of the first of `required` (`(absent, name)`) that is absent.
pub fn first_missing<E: de::Error>(required: &[(bool, &'static str)]) -> E {
    let name = required
        .iter()
        .find(|(absent, _)| *absent)
        .map_or("", |(_, name)| name);
    E::missing_field(name)
}

/// Reads a constant string member and checks its value.
pub fn const_str<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    name: &'static str,
    expected: &'static str,
) -> Result<(), A::Error> {
    if *seen {
        return Err(A::Error::duplicate_field(name));
    }
    let got: Key<'de> = value_of(map, name, PhantomData)?;
    if got.as_str() != expected {
        return Err(A::Error::custom(format_args!(
            "invalid value for `{name}`: expected \"{expected}\", found \"{}\"",
            got.as_str()
        )));
    }
    *seen = true;
    Ok(())
}

/// Reads a constant integer member and checks its value.
pub fn const_i64<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    name: &'static str,
    expected: i64,
) -> Result<(), A::Error> {
    if *seen {
        return Err(A::Error::duplicate_field(name));
    }
    let got: i64 = value_of(map, name, PhantomData)?;
    if got != expected {
        return Err(A::Error::custom(format_args!(
            "invalid value for `{name}`: expected {expected}, found {got}"
        )));
    }
    *seen = true;
    Ok(())
}

/// Reads a constant boolean member and checks its value.
pub fn const_bool<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    name: &'static str,
    expected: bool,
) -> Result<(), A::Error> {
    if *seen {
        return Err(A::Error::duplicate_field(name));
    }
    let got: bool = value_of(map, name, PhantomData)?;
    if got != expected {
        return Err(A::Error::custom(format_args!(
            "invalid value for `{name}`: expected {expected}, found {got}"
        )));
    }
    *seen = true;
    Ok(())
}

/// Fails when a required constant member was absent.
#[inline]
pub fn require_const<E: de::Error>(seen: bool, name: &'static str) -> Result<(), E> {
    if seen {
        Ok(())
    } else {
        Err(E::missing_field(name))
    }
}

/// Keeps a member the schema does not declare (where additional properties are allowed).
#[inline]
pub fn extra<'de, A: MapAccess<'de>, V: de::Deserialize<'de>, M: ExtraMap<'de, V>>(
    map: &mut A,
    extra: &mut M,
    key: Key<'de>,
) -> Result<(), A::Error> {
    let value = value_of(map, key.as_str(), PhantomData)?;
    if extra.insert_new(key, value) {
        Ok(())
    } else {
        Err(A::Error::custom("duplicate member in object"))
    }
}

/// The maps that hold undeclared members, or the members of an object with typed values:
/// `serde_json::Map` or a typed `IndexMap`, and their borrowed forms (`mcp_typed::borrowed`).
pub trait ExtraMap<'de, V> {
    /// Inserts; `false` if the key was already present.
    fn insert_new(&mut self, key: Key<'de>, value: V) -> bool;
    /// The entries, in the order they are written.
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a V)>
    where
        V: 'a;
}

impl<'de> ExtraMap<'de, Value> for Map<String, Value> {
    fn insert_new(&mut self, key: Key<'de>, value: Value) -> bool {
        self.insert(key.0.into_owned(), value).is_none()
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a Value)>
    where
        Value: 'a,
    {
        self.iter().map(|(key, value)| (key.as_str(), value))
    }
}

impl<'de, V> ExtraMap<'de, V> for IndexMap<String, V> {
    fn insert_new(&mut self, key: Key<'de>, value: V) -> bool {
        self.insert(key.0.into_owned(), value).is_none()
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a V)>
    where
        V: 'a,
    {
        self.iter().map(|(key, value)| (key.as_str(), value))
    }
}

/// Writes the undeclared members after the declared ones. A key that names a declared member
/// is an error rather than a duplicate key on the wire.
pub fn serialize_extra<'de, S: SerializeMap, V: serde::Serialize, M: ExtraMap<'de, V>>(
    map: &mut S,
    extra: &M,
    declared: &[&str],
) -> Result<(), S::Error> {
    for (key, value) in extra.entries() {
        if declared.contains(&key) {
            return Err(serde::ser::Error::custom(format_args!(
                "additional member `{key}` collides with a declared member"
            )));
        }
        map.serialize_entry(key, value)?;
    }
    Ok(())
}

/// The map handed to a variant after a union read its tag: the members buffered before the tag
/// (when the tag was not first), then the rest of the live map.
#[derive(Debug)]
pub struct TaggedRest<'de, A> {
    /// Members read ahead, whose text the input lent for `'de` (`Buffered::all_lent`).
    buffered: std::vec::IntoIter<(Key<'de>, Captured<'de>)>,
    pending: Option<Captured<'de>>,
    /// A key already read from `live` whose value is still there (keyed unions).
    live_key: Option<Key<'de>>,
    live: A,
}

impl<'de, A> TaggedRest<'de, A> {
    /// `buffered` must be [`Buffered::all_lent`].
    fn new(buffered: Buffered<'de>, live_key: Option<Key<'de>>, live: A) -> Self {
        TaggedRest {
            buffered: buffered.into_members(),
            pending: None,
            live_key,
            live,
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for TaggedRest<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.buffered.next() {
            self.pending = Some(value);
            return seed.deserialize(str_deserializer(key.0)).map(Some);
        }
        match self.live_key.take() {
            Some(key) => seed.deserialize(str_deserializer(key.0)).map(Some),
            None => self.live.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.pending.take() {
            Some(value) => match value.lent() {
                Some(text) => replay(text, seed).map_err(A::Error::custom),
                // Not built so (see `new`): text that the seed could not borrow for `'de`.
                None => Err(A::Error::custom("a member read ahead without lent text")),
            },
            None => self.live.next_value_seed(seed),
        }
    }
}

/// Decodes a union again from the JSON text of its object: where a member read ahead came from
/// input that lent no text for `'de` (a reader, a `Value`, another format), the map a variant
/// reads could not hand it on. Text input always lends it.
pub fn from_text<T: de::DeserializeOwned, E: de::Error>(text: &str) -> Result<T, E> {
    replay(text, PhantomData::<T>).map_err(E::custom)
}

/// A union of objects that members of its own tell apart (a direction's results: `tools`,
/// `content`, `action`…), decoded in one pass: see the generated impls.
pub trait KeyedUnion<'de>: Sized {
    /// Streams the object into the member its first deciding member names, buffering the
    /// members before that one; an object without one is matched structurally.
    fn decode_keyed<M: MapAccess<'de>>(map: M) -> Result<Self, M::Error>;
}

/// [`KeyedUnion::decode_keyed`] again from the JSON text of the object, where a member read
/// ahead came from input that lent no text: the same decision as from text input.
pub fn keyed_from_text<T: for<'x> KeyedUnion<'x>, E: de::Error>(text: &str) -> Result<T, E> {
    struct Again<T>(PhantomData<T>);
    impl<'de, T: KeyedUnion<'de>> DeserializeSeed<'de> for Again<T> {
        type Value = T;
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
            deserializer.deserialize_map(self)
        }
    }
    impl<'de, T: KeyedUnion<'de>> Visitor<'de> for Again<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<T, M::Error> {
            T::decode_keyed(map)
        }
    }
    replay(text, Again(PhantomData)).map_err(E::custom)
}

/// Reads members until `tag` and calls `dispatch` with the tag's value (`None` if the object has
/// no such member) and the remaining map. Members before the tag are buffered; a tag in first
/// position, as every MCP implementation writes it, costs nothing extra.
pub fn decode_tagged<'de, A: MapAccess<'de>, T: de::DeserializeOwned>(
    map: A,
    tag: &'static str,
    dispatch: impl FnOnce(Option<&str>, TaggedRest<'de, A>) -> Result<T, A::Error>,
) -> Result<T, A::Error> {
    match read_to_tag(map, tag)? {
        ToTag::Read(value, rest) => dispatch(value.as_ref().map(Key::as_str), rest),
        ToTag::Text(text) => from_text(&text),
    }
}

/// [`decode_tagged`] for a borrowed union (`mcp_typed::borrowed`), which cannot be decoded again
/// from a copy of the text: input that lent no text for a member read ahead is refused.
pub fn decode_tagged_lent<'de, A: MapAccess<'de>, T>(
    map: A,
    tag: &'static str,
    dispatch: impl FnOnce(Option<&str>, TaggedRest<'de, A>) -> Result<T, A::Error>,
) -> Result<T, A::Error> {
    match read_to_tag(map, tag)? {
        ToTag::Read(value, rest) => dispatch(value.as_ref().map(Key::as_str), rest),
        ToTag::Text(text) => not_lent(&text),
    }
}

/// The refusal of a borrowed type where the input lent no text for it (a reader, a `Value`):
/// the fallback the owned types have ([`from_text`]) would borrow from a copy.
#[cold]
pub fn not_lent<T, E: de::Error>(_text: &str) -> Result<T, E> {
    Err(E::custom(NOT_LENT))
}

/// The message of [`not_lent`].
pub const NOT_LENT: &str =
    "a borrowed type decodes from JSON text only (`parse`, `serde_json::from_str`, `from_slice`)";

/// [`not_lent`] for params read before their method, from input that lent no text.
#[cold]
pub fn params_not_lent<T>(_method: &str, _text: &str) -> Result<T, serde_json::Error> {
    Err(serde_json::Error::custom(NOT_LENT))
}

/// What [`read_to_tag`] found.
enum ToTag<'de, A> {
    /// The tag's value (`None`: no tag), and the map of the other members.
    Read(Option<Key<'de>>, TaggedRest<'de, A>),
    /// A member read ahead came from input that lent no text: the object's JSON text.
    Text(String),
}

/// The loop of [`decode_tagged`], apart from its dispatch so that it is compiled once per kind
/// of map rather than once per union.
fn read_to_tag<'de, A: MapAccess<'de>>(
    mut map: A,
    tag: &'static str,
) -> Result<ToTag<'de, A>, A::Error> {
    let mut buffered = Buffered::default();
    loop {
        match map.next_key::<Key<'de>>()? {
            Some(key) if key.as_str() == tag => {
                let value: Key<'de> = map.next_value()?;
                if buffered.all_lent() {
                    return Ok(ToTag::Read(
                        Some(value),
                        TaggedRest::new(buffered, None, map),
                    ));
                }
                buffered.push(key, Captured::string(value.as_str()));
                return Ok(ToTag::Text(buffered.into_text(map)?));
            }
            Some(key) => {
                let value: Captured<'de> = map.next_value()?;
                buffered.push(key, value);
            }
            None if buffered.all_lent() => {
                return Ok(ToTag::Read(None, TaggedRest::new(buffered, None, map)))
            }
            None => return Ok(ToTag::Text(buffered.into_text(map)?)),
        }
    }
}

/// What [`read_partition`] found.
#[derive(Debug)]
pub enum Partitioned<'de, A> {
    /// The partitioning member's string value (`None`: absent, or not a string), the members
    /// read so far (that one included: the union member it leaves may keep it, as
    /// `NumberSchema::type` does), and the rest of the map: for [`stream_rest`] into the one
    /// union member left, or [`buffer_rest`] for the structural match among several (it refuses a
    /// member twice).
    Read(Option<Cow<'de, str>>, Buffered<'de>, A),
    /// A member read ahead came from input that lent no text: the object's JSON text.
    Text(String),
}

/// Reads members until `tag`, a member that every object member of a structural union requires
/// with a string of its own set (`type` of a form field: `"boolean"`, `"number" | "integer"`,
/// …).
pub fn read_partition<'de, A: MapAccess<'de>>(
    mut map: A,
    tag: &'static str,
) -> Result<Partitioned<'de, A>, A::Error> {
    let mut buffered = Buffered::default();
    let mut value = None;
    while let Some(key) = map.next_key::<Key<'de>>()? {
        let member: Captured<'de> = map.next_value()?;
        let found = key.as_str() == tag;
        if found {
            value = member.as_str();
        }
        buffered.push(key, member);
        if found {
            break;
        }
    }
    if buffered.all_lent() {
        Ok(Partitioned::Read(value, buffered, map))
    } else {
        buffered.into_text(map).map(Partitioned::Text)
    }
}

/// The map of a [`Partitioned::Read`] object for the one union member it leaves: the members
/// read so far, then the rest.
pub fn stream_rest<'de, A>(buffered: Buffered<'de>, map: A) -> TaggedRest<'de, A> {
    TaggedRest::new(buffered, None, map)
}

/// The error for a tag value no variant has.
pub fn unknown_tag<E: de::Error>(
    tag: &'static str,
    value: Option<&str>,
    expected: &'static [&'static str],
) -> E {
    match value {
        Some(value) => E::custom(format_args!(
            "unknown `{tag}` \"{value}\", expected one of {}",
            Quoted(expected)
        )),
        None => E::missing_field(tag),
    }
}

/// One member of a union without a discriminating constant, as sets of member names: bit `i`
/// stands for the `i`th name of the union's sorted list of the names its members declare.
#[derive(Debug)]
pub struct Shape {
    /// Members that only this union member declares: their presence puts it first.
    pub deciding: u64,
    /// Members that must be present.
    pub required: u64,
    /// Members the schema declares.
    pub declared: u64,
}

/// The outcome of [`decode_keyed`].
#[derive(Debug)]
pub enum Keyed<'de, A> {
    /// A member that only one union member declares was found: that member's index, and the
    /// map to decode it from (the deciding member included).
    Found(usize, TaggedRest<'de, A>),
    /// No deciding member: the whole object, for [`structural`].
    Exhausted(Buffered<'de>),
    /// A deciding member was found, but a member before it came from input that lent no text:
    /// the object's JSON text, for [`from_text`].
    Text(String),
}

/// Reads members until one that decides the union member (`deciding`: member name → index of
/// the union member that alone declares it). Members before it are buffered; results are
/// usually decided by their first or second member (`content`, `tools`, …).
pub fn decode_keyed<'de, A: MapAccess<'de>>(
    mut map: A,
    deciding: &[(&str, usize)],
) -> Result<Keyed<'de, A>, A::Error> {
    let mut buffered = Buffered::default();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if let Some(&(_, index)) = deciding.iter().find(|(name, _)| *name == key.as_str()) {
            if buffered.all_lent() {
                return Ok(Keyed::Found(
                    index,
                    TaggedRest::new(buffered, Some(key), map),
                ));
            }
            let value: Captured<'de> = map.next_value()?;
            buffered.push(key, value);
            return Ok(Keyed::Text(buffered.into_text(map)?));
        }
        let value: Captured<'de> = map.next_value()?;
        buffered.push(key, value);
    }
    buffered.check_unique()?;
    Ok(Keyed::Exhausted(buffered))
}

/// Orders the union members that can match a buffered object: only the `candidates` (bit `i`
/// stands for `shapes[i]`) whose required members are all present; members with a deciding
/// member present first, then the one that declares the most of the present members, then the
/// one that requires more, then schema order. The caller decodes the first that succeeds: the
/// schema's `anyOf` semantics, tried in the most likely order.
pub fn structural<'de, 's>(
    object: Buffered<'de>,
    names: &[&str],
    shapes: &'s [Shape],
    candidates: u64,
) -> (Buffered<'de>, TrialOrder<'s>) {
    debug_assert!(names.len() <= 64 && names.is_sorted(), "sorted, at most 64");
    debug_assert!(shapes.len() <= 64, "at most 64 shapes");
    let present = object
        .keys()
        .filter_map(|key| names.binary_search(&key).ok())
        .fold(0u64, |set, i| set | 1 << i);
    let mut left = 0u64;
    for (i, shape) in shapes.iter().enumerate().take(64) {
        if candidates >> i & 1 == 1 && shape.required & !present == 0 {
            left |= 1 << i;
        }
    }
    let order = TrialOrder {
        shapes,
        present,
        left,
    };
    (object, order)
}

/// The union members to try, best first (see [`structural`]). The best is picked anew at each
/// step, without a sorted list: the first is usually the one, and a form has many fields that
/// are matched this way.
#[derive(Debug)]
pub struct TrialOrder<'s> {
    shapes: &'s [Shape],
    /// The members present in the object.
    present: u64,
    /// The members not tried yet.
    left: u64,
}

impl Iterator for TrialOrder<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        // Deciding member present, then most present members declared, then the more
        // constrained (more required members, all present), then schema order.
        let mut best: Option<(usize, (bool, u32, u32))> = None;
        let mut left = self.left;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let shape = &self.shapes[i];
            let rank = (
                shape.deciding & self.present != 0,
                (shape.declared & self.present).count_ones(),
                shape.required.count_ones(),
            );
            // Ties keep the lower index, met first.
            if best.is_none_or(|(_, best)| rank > best) {
                best = Some((i, rank));
            }
        }
        let (i, _) = best?;
        self.left &= !(1 << i);
        Some(i)
    }
}

/// The error when no union member matched.
pub fn no_member_matched<E: de::Error>(union: &'static str, tried: Option<serde_json::Error>) -> E {
    match tried {
        Some(err) => E::custom(format_args!(
            "no variant of {union} matched; closest: {err}"
        )),
        None => E::custom(format_args!(
            "no variant of {union} matched: required members missing"
        )),
    }
}

struct Quoted(&'static [&'static str]);

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "\"{s}\"")?;
        }
        Ok(())
    }
}

/// Serializes a nullable value (`None` → `null`).
pub type Nullable<T> = Option<T>;

/// Writes a member.
#[inline]
pub fn entry<M: SerializeMap, V: serde::Serialize + ?Sized>(
    map: &mut M,
    key: &'static str,
    value: &V,
) -> Result<(), M::Error> {
    map.serialize_entry(key, value)
}

/// Writes an optional member when it is present.
#[inline]
pub fn optional_entry<M: SerializeMap, V: serde::Serialize>(
    map: &mut M,
    key: &'static str,
    value: &Option<V>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

/// Starts an object.
#[inline]
pub fn begin_map<S: serde::Serializer>(serializer: S) -> Result<S::SerializeMap, S::Error> {
    serializer.serialize_map(None)
}

/// Finishes an object.
#[inline]
pub fn end_map<M: SerializeMap>(map: M) -> Result<M::Ok, M::Error> {
    map.end()
}

/// A boxed union member decodes like the type it boxes.
impl<'de, T: MapDecode<'de>> MapDecode<'de> for Box<T> {
    fn decode_map<A: MapAccess<'de>>(map: A, consumed: Option<&str>) -> Result<Self, A::Error> {
        T::decode_map(map, consumed).map(Box::new)
    }
}
