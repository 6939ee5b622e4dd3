//! The objects of the generated structs, member by member: [`Key`] (a member name, borrowed when
//! the input lends it), [`MapDecode`] (the decode every generated struct implements, which a
//! union calls with its tag already read), the reading of each member into its slot (`field`,
//! `field_seq`, `field_map`, noting the member on the error's path), the constant members
//! (`const_str` …), the undeclared members ([`ExtraMap`], `extra`, `serialize_extra`), and the
//! writing of an object (`begin_map`, `entry`, `optional_entry`, `end_map`).
//!
//! The generated impls are lists of these calls, one per member: each type carries its own
//! field list, never a copy of the decoding logic.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde_json::{Map, Value};

use super::error_path::{note_index, note_member};
use crate::IndexMap;

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

/// [`field`] for a member the schema types `integer`: an `i64`, also from a number written
/// with a zero fraction (`1.0`, see [`integer`]).
#[inline]
pub fn field_integer<'de, A: MapAccess<'de>>(
    map: &mut A,
    slot: &mut Option<i64>,
    name: &'static str,
) -> Result<(), A::Error> {
    seeded(map, slot, name, Integer)
}

/// [`field_integer`] for a member that may also be `null` (`["integer", "null"]`).
#[inline]
pub fn field_nullable_integer<'de, A: MapAccess<'de>>(
    map: &mut A,
    slot: &mut Option<Option<i64>>,
    name: &'static str,
) -> Result<(), A::Error> {
    seeded(map, slot, name, NullableInteger)
}

/// The `i64` a JSON number written as a float stands for, where it has one: JSON Schema's
/// `integer` is "any number with a zero fractional part" (2020-12 validation §6.1.1, draft-07
/// likewise), so `1.0` and `1e2` are integers; `1.5` is not, nor `1e300` (beyond `i64`, as
/// `18446744073709551615` is for an integer written as one).
#[inline]
pub fn integer(value: f64) -> Option<i64> {
    // 2^63: the first float beyond i64 (every float below it and at least -2^63 converts).
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (value.fract() == 0.0 && (-LIMIT..LIMIT).contains(&value)).then_some(value as i64)
}

/// The `i64` a JSON value stands for as an `integer` member (see [`integer`]), for code that
/// reads a `Value` rather than decoding a member (a request `id` in a diagnosis, `RawMessage`).
pub(crate) fn integer_value(value: &Value) -> Option<i64> {
    value.as_i64().or_else(|| value.as_f64().and_then(integer))
}

/// An `i64` from a JSON integer or a float that [`integer`] takes; anything else is refused
/// as `i64`'s own `Deserialize` refuses it (same messages).
pub(crate) struct Integer;

impl<'de> DeserializeSeed<'de> for Integer {
    type Value = i64;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<i64, D::Error> {
        deserializer.deserialize_i64(self)
    }
}

impl Visitor<'_> for Integer {
    type Value = i64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("i64")
    }
    #[inline]
    fn visit_i64<E: de::Error>(self, value: i64) -> Result<i64, E> {
        Ok(value)
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<i64, E> {
        i64::try_from(value).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(value), &self))
    }
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<i64, E> {
        integer(value).ok_or_else(|| E::invalid_type(de::Unexpected::Float(value), &self))
    }
}

/// [`Integer`], or `null`.
pub(crate) struct NullableInteger;

impl<'de> DeserializeSeed<'de> for NullableInteger {
    type Value = Option<i64>;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<i64>, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for NullableInteger {
    type Value = Option<i64>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("option")
    }
    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }
    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<Option<i64>, E> {
        Ok(None)
    }
    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<i64>, D::Error> {
        Integer.deserialize(deserializer).map(Some)
    }
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
    // `-32601.0` is the constant `-32601` too (JSON Schema compares numbers by value).
    let got: i64 = value_of(map, name, Integer)?;
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

/// Any JSON value, read as `serde_json::Value` reads one (numbers beyond `f64` and lone surrogate
/// escapes refused, which serde_json's scan of raw text lets pass) without building it: the
/// check of the borrowed family's `ValueRef` and of the verdict path's `Value`.
#[cfg(any(feature = "borrowed", feature = "verdict"))]
pub(crate) struct AnyValue;

#[cfg(any(feature = "borrowed", feature = "verdict"))]
impl<'de> de::Deserialize<'de> for AnyValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(AnyValue)
    }
}

#[cfg(any(feature = "borrowed", feature = "verdict"))]
impl<'de> Visitor<'de> for AnyValue {
    type Value = AnyValue;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_i64<E>(self, _: i64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_u64<E>(self, _: u64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_f64<E>(self, _: f64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_str<E>(self, _: &str) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_unit<E>(self) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<AnyValue, A::Error> {
        while seq.next_element::<AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyValue, A::Error> {
        while map.next_key::<Key<'de>>()?.is_some() {
            map.next_value::<AnyValue>()?;
        }
        Ok(AnyValue)
    }
}
