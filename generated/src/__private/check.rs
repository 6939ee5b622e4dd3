//! The verdict path (feature `verdict`): whether a value is one its generated type decodes and
//! validates without a violation, read from its text without building it. `mcp-check` takes its
//! verdict on most messages from here and decodes only what this does not pass, to say why.
//!
//! The contract is one way: [`Check::check`] returns `Ok` only for a value that the type's
//! decoder takes and whose `validate()` finds nothing. An `Err` says nothing (the value may be
//! refused, break a constraint, or be of a shape this path leaves to the decoder); the caller
//! then decodes. The generated impls mirror the decoders member by member: the same names,
//! constants, required members, refusal of a member twice and of undeclared members, and the
//! rules `Validate` checks at each place (`validate::holds`). Where mirroring would be a second
//! decoder (unions, call sets), a type checks by decoding itself ([`by_decoding`]): the same
//! verdict, at the decoder's cost, for that value only. The differential tests of
//! `mcp-typed-tests` and `mcp-wire-check` hold the contract on drawn values and recordings.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

use super::object::{AnyValue, Integer, Key, NullableInteger};
use crate::validate::{holds, item_rules, value_rules, Rule, Validate};

/// A type whose values can be judged from their text: see the [module](self).
pub trait Check {
    /// `Ok` when the value `deserializer` holds decodes as this type and keeps every constraint,
    /// with `rules` those its place adds (as `Validate::validate_at` takes them).
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error>;
}

/// A generated struct's members, judged from an object's map; `consumed` is a member a union
/// read before handing the rest over (its tag), as `MapDecode::decode_map` takes it.
pub trait CheckMap {
    /// `Ok` when the members make a value of this type that keeps every constraint.
    fn check_map<'de, A: MapAccess<'de>>(map: A, consumed: Option<&str>) -> Result<(), A::Error>;
}

/// Whether `text` is one JSON value of type `T` that keeps every constraint (nothing after it
/// but whitespace).
pub fn text<T: Check + ?Sized>(text: &str) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    T::check(&mut deserializer, &[]).is_ok() && deserializer.end().is_ok()
}

/// How a direction's `…_request_result(method, text)` reads a result of the method's type `T`:
/// whether it passes ([`Passes`]), or that and its `resultType` ([`NotingResultType`]).
pub trait ReadResult<'de> {
    /// What the reading gives.
    type Out;
    /// Reads `text` as a result of type `T`.
    fn read<T: Check + CheckMap>(text: &'de str) -> Self::Out;
}

/// [`text`]: whether the result passes.
#[derive(Debug)]
pub struct Passes;

impl ReadResult<'_> for Passes {
    type Out = bool;
    fn read<T: Check + CheckMap>(text: &str) -> bool {
        self::text::<T>(text)
    }
}

/// [`text`] for a result, noting its top-level `resultType` as the check reads it (2026-07-28's
/// member, which a spec rule reads beside the type: no second reading of the text for it):
/// `None` when it does not pass, else what the member is.
#[derive(Debug)]
pub struct NotingResultType;

/// A result's top-level `resultType`, as [`NotingResultType`] found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultType<'de> {
    /// No such member.
    Absent,
    /// A member that is no string.
    NotAString,
    /// A string.
    String(std::borrow::Cow<'de, str>),
}

impl<'de> ReadResult<'de> for NotingResultType {
    type Out = Option<ResultType<'de>>;
    fn read<T: Check + CheckMap>(text: &'de str) -> Option<ResultType<'de>> {
        struct Object<'a, 'de, T>(&'a mut ResultType<'de>, PhantomData<T>);
        impl<'de, T: CheckMap> Visitor<'de> for Object<'_, 'de, T> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                let watched = Watched {
                    map,
                    names: &[],
                    present: &mut 0,
                    noted: Some(("resultType", self.0)),
                    at_noted: false,
                };
                T::check_map(watched, None)
            }
        }
        let mut noted = ResultType::Absent;
        let mut deserializer = serde_json::Deserializer::from_str(text);
        (deserializer
            .deserialize_map(Object::<T>(&mut noted, PhantomData))
            .ok())
        .and_then(|()| deserializer.end().ok())
        .map(|()| noted)
    }
}

/// An object's map that watches its members as it hands them on: which of a union's sorted
/// `names` it holds (in `present`), and the value of the member `noted` names, when a string.
struct Watched<'a, 'de, A> {
    map: A,
    names: &'a [&'a str],
    present: &'a mut u64,
    noted: Option<(&'static str, &'a mut ResultType<'de>)>,
    /// Whether the key just handed on is the noted member's.
    at_noted: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Watched<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(key) = self.map.next_key::<Key<'de>>()? else {
            return Ok(None);
        };
        if let Some(bit) = super::union::name_bit(self.names, key.as_str()) {
            *self.present |= 1 << bit;
        }
        self.at_noted = self
            .noted
            .as_ref()
            .is_some_and(|(name, _)| key.as_str() == *name);
        seed.deserialize(super::buffer::str_deserializer(key.0))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let noted = match &mut self.noted {
            Some((_, noted)) if std::mem::take(&mut self.at_noted) => noted,
            _ => return self.map.next_value_seed(seed),
        };
        let value: super::buffer::Captured<'de> = self.map.next_value()?;
        **noted = match value.as_str() {
            Some(text) => ResultType::String(text),
            None => ResultType::NotAString,
        };
        match value.lent() {
            Some(text) => super::buffer::replay(text, seed).map_err(A::Error::custom),
            None => Err(A::Error::custom("a member read ahead without lent text")),
        }
    }
}

/// [`Check::check`] as a seed: a member's or an item's value.
#[derive(Debug)]
pub struct Checked<T: ?Sized>(&'static [Rule], PhantomData<T>);

impl<T: ?Sized> Checked<T> {
    /// The value at a place with `rules`.
    pub fn with(rules: &'static [Rule]) -> Self {
        Checked(rules, PhantomData)
    }
}

impl<'de, T: Check + ?Sized> DeserializeSeed<'de> for Checked<T> {
    type Value = ();
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        T::check(deserializer, self.0)
    }
}

/// `Ok` for a value that keeps its constraints (`kept`), else the refusal of a value that decodes
/// but breaks one (never shown: the caller decodes to say what).
fn kept<E: de::Error>(kept: bool) -> Result<(), E> {
    if kept {
        Ok(())
    } else {
        Err(E::custom("breaks a constraint"))
    }
}

/// Whether a decoded `value` breaks no constraint.
pub fn holds<T: Validate + ?Sized>(value: &T) -> bool {
    holds::value(value, &[])
}

/// Judges a value by decoding it as `T` and validating it: exact, at the decoder's cost.
pub fn by_decoding<'de, T: Deserialize<'de> + Validate, D: Deserializer<'de>>(
    deserializer: D,
    rules: &'static [Rule],
) -> Result<(), D::Error> {
    let value = T::deserialize(deserializer)?;
    kept(holds::value(&value, rules))
}

/// A generated struct, or a union of structs ([`CheckMap`]): its members, from the object's map.
pub fn check_struct<'de, T: CheckMap, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(), D::Error> {
    struct Members<T>(PhantomData<T>);
    impl<'de, T: CheckMap> Visitor<'de> for Members<T> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
            T::check_map(map, None)
        }
    }
    deserializer.deserialize_map(Members::<T>(PhantomData))
}

/// Notes a declared member as `seen`, refusing a second (as the decoders' `field` refuses it).
#[inline]
fn once<E: de::Error>(seen: &mut bool) -> Result<(), E> {
    if std::mem::replace(seen, true) {
        Err(E::custom("a member twice"))
    } else {
        Ok(())
    }
}

/// A declared member's value, once (`seen` notes it; a second is refused, as `field` refuses
/// it).
#[inline]
pub fn member<'de, A: MapAccess<'de>, T: Check + ?Sized>(
    map: &mut A,
    seen: &mut bool,
    rules: &'static [Rule],
) -> Result<(), A::Error> {
    once::<A::Error>(seen)?;
    map.next_value_seed(Checked::<T>::with(rules))
}

/// [`member`] for a member typed `integer` (`field_integer`: `1.0` is one too).
#[inline]
pub fn integer_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    rules: &'static [Rule],
) -> Result<(), A::Error> {
    once::<A::Error>(seen)?;
    let n = map.next_value_seed(Integer)?;
    number(n as f64, rules)
}

/// [`integer_member`] for a member that may also be `null` (`field_nullable_integer`).
#[inline]
pub fn nullable_integer_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    seen: &mut bool,
    rules: &'static [Rule],
) -> Result<(), A::Error> {
    once::<A::Error>(seen)?;
    match map.next_value_seed(NullableInteger)? {
        Some(n) => number(n as f64, rules),
        None => Ok(()),
    }
}

/// The undeclared members of an object that allows them: each name once (the decoders keep
/// them in a map that refuses a second), each value of type `V`. The first few names are
/// compared one by one; past them, they are kept in a hash set, so that an object of many
/// members (a peer's, of any size) costs as many lookups, not their square.
#[derive(Debug, Default)]
pub struct Extra<'de> {
    names: Vec<Key<'de>>,
    /// Made only past `FEW_NAMES`: a hash set's making (its random keys) costs more than the
    /// few comparisons most objects need.
    many: Option<std::collections::HashSet<std::borrow::Cow<'de, str>>>,
}

/// How many names [`Extra`] compares one by one before it hashes them.
const FEW_NAMES: usize = 16;

impl<'de> Extra<'de> {
    /// The member `name`'s value, at a place with `rules`.
    pub fn member<A: MapAccess<'de>, V: Check + ?Sized>(
        &mut self,
        map: &mut A,
        name: Key<'de>,
        rules: &'static [Rule],
    ) -> Result<(), A::Error> {
        let first = if self.names.len() < FEW_NAMES {
            let first = !self.names.iter().any(|seen| seen.as_str() == name.as_str());
            self.names.push(name);
            first
        } else {
            let names = &self.names;
            let many =
                (self.many).get_or_insert_with(|| names.iter().map(|n| n.0.clone()).collect());
            many.insert(name.0)
        };
        if !first {
            return Err(A::Error::custom("a member twice"));
        }
        map.next_value_seed(Checked::<V>::with(rules))
    }

    /// How many members there were.
    fn len(&self) -> usize {
        self.many
            .as_ref()
            .map_or(self.names.len(), |many| many.len())
    }
}

fn number<E: de::Error>(n: f64, rules: &[Rule]) -> Result<(), E> {
    kept(holds::number(n, rules))
}

impl Check for String {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        deserializer.deserialize_str(StringKeeps(rules))
    }
}

/// A string judged where the deserializer hands it: an escaped one is judged in the
/// deserializer's scratch, not copied out first (as a `Key` would copy it).
struct StringKeeps(&'static [Rule]);

impl<'de> Visitor<'de> for StringKeeps {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        kept(holds::string(text, self.0))
    }
}

impl Check for i64 {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        number(i64::deserialize(deserializer)? as f64, rules)
    }
}

impl Check for Number {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        let n = Number::deserialize(deserializer)?;
        match n.as_f64() {
            Some(n) => number(n, rules),
            None => Ok(()),
        }
    }
}

impl Check for bool {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        _: &'static [Rule],
    ) -> Result<(), D::Error> {
        bool::deserialize(deserializer).map(drop)
    }
}

impl Check for Value {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        if rules.is_empty() {
            AnyValue::deserialize(deserializer).map(drop)
        } else {
            by_decoding::<Value, D>(deserializer, rules)
        }
    }
}

impl Check for crate::RawObject {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        /// An object, its members any JSON (a free-form object keeps its text as written).
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                while map.next_key::<de::IgnoredAny>()?.is_some() {
                    map.next_value::<de::IgnoredAny>()?;
                }
                Ok(())
            }
        }
        if rules.is_empty() {
            deserializer.deserialize_map(Object)
        } else {
            by_decoding::<crate::RawObject, D>(deserializer, rules)
        }
    }
}

impl<T: Check> Check for Vec<T> {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        struct Items<T>(&'static [Rule], PhantomData<T>);
        impl<'de, T: Check> Visitor<'de> for Items<T> {
            type Value = usize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<usize, S::Error> {
                let mut count = 0;
                while seq.next_element_seed(Checked::<T>::with(self.0))?.is_some() {
                    count += 1;
                }
                Ok(count)
            }
        }
        // Repeated items are judged on the values (`uniqueItems` compares them as JSON).
        if rules.contains(&Rule::UniqueItems) {
            return Err(D::Error::custom("uniqueItems is judged by decoding"));
        }
        let count = deserializer.deserialize_seq(Items::<T>(item_rules(rules), PhantomData))?;
        kept(holds::items(count, rules))
    }
}

impl<T: Check> Check for indexmap::IndexMap<String, T> {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        struct Members<T>(&'static [Rule], PhantomData<T>);
        impl<'de, T: Check> Visitor<'de> for Members<T> {
            type Value = usize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
                let mut members = Extra::default();
                while let Some(name) = map.next_key::<Key<'de>>()? {
                    members.member::<A, T>(&mut map, name, self.0)?;
                }
                Ok(members.len())
            }
        }
        let count = deserializer.deserialize_map(Members::<T>(value_rules(rules), PhantomData))?;
        kept(holds::properties(count, rules))
    }
}

impl<T: Check> Check for Option<T> {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        struct Nullable<T>(&'static [Rule], PhantomData<T>);
        impl<'de, T: Check> Visitor<'de> for Nullable<T> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("option")
            }
            fn visit_none<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_unit<E: de::Error>(self) -> Result<(), E> {
                Ok(())
            }
            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
                T::check(deserializer, self.0)
            }
        }
        deserializer.deserialize_option(Nullable::<T>(rules, PhantomData))
    }
}

impl<T: Check + ?Sized> Check for Box<T> {
    fn check<'de, D: Deserializer<'de>>(
        deserializer: D,
        rules: &'static [Rule],
    ) -> Result<(), D::Error> {
        T::check(deserializer, rules)
    }
}

/// A struct, or a union the generator does not mirror, judged from its members by decoding
/// them (`MapDecode`) and validating.
pub fn map_by_decoding<'de, T: super::MapDecode<'de> + Validate, A: MapAccess<'de>>(
    map: A,
    consumed: Option<&str>,
) -> Result<(), A::Error> {
    let value = T::decode_map(map, consumed)?;
    kept(holds(&value))
}

/// A direction's result decoded from the `result` object's members (`codec::DecodeResult`)
/// and validated.
pub fn result_by_decoding<'de, T: super::codec::DecodeResult<'de> + Validate, A: MapAccess<'de>>(
    map: A,
) -> Result<(), A::Error> {
    let value = T::decode_result(map)?;
    kept(holds(&value))
}

/// A value decoded from a buffered `object` (a structural match, as the decoder makes it) and
/// validated.
pub fn buffered_by_decoding<T: de::DeserializeOwned + Validate, E: de::Error>(
    object: &super::Buffered<'_>,
) -> Result<(), E> {
    let value = T::deserialize(object).map_err(E::custom)?;
    kept(holds(&value))
}

/// A member of a structural match on the buffered `object`, as the decoder tries it (the
/// first that decodes is the one): `None` when it does not decode (the decoder tries the next),
/// else whether the value is valid. Checked first; decoded only when the check does not pass.
pub fn matched_member<T: Check + de::DeserializeOwned + Validate, E: de::Error>(
    object: &super::Buffered<'_>,
) -> Option<Result<(), E>> {
    if T::check(object, &[]).is_ok() {
        return Some(Ok(()));
    }
    let value = T::deserialize(object).ok()?;
    Some(kept(holds(&value)))
}

/// Where a structural match's reading of an object stopped ([`read_to_deciding`]).
#[derive(Debug)]
pub enum Deciding<'de, 's, A> {
    /// A member that only the union member `case` declares (a candidate): the object streamed
    /// into that member's check ([`Streamed::check`]).
    Found(usize, Streamed<'de, 's, A>),
    /// No such member: the whole object, buffered, for the match the decoder makes.
    Exhausted(super::Buffered<'de>),
}

/// Reads an object's members (after `read`, those read already) until one that only one of
/// the `candidates` declares (`shapes`, over the union's sorted `names`, as
/// `union::structural` takes them), buffering those before it; an object without one is
/// buffered whole.
pub fn read_to_deciding<'de, 's, A: MapAccess<'de>>(
    mut read: super::Buffered<'de>,
    mut map: A,
    names: &'s [&'s str],
    shapes: &'s [super::Shape],
    candidates: u64,
) -> Result<Deciding<'de, 's, A>, A::Error> {
    let deciding = |key: &str| {
        let bit = super::union::name_bit(names, key)?;
        (shapes.iter().enumerate())
            .position(|(i, shape)| candidates >> i & 1 == 1 && shape.deciding >> bit & 1 == 1)
    };
    let streamed = |case, read, live_key, map| {
        let rest = super::union::TaggedRest::new(read, live_key, map);
        Deciding::Found(
            case,
            Streamed {
                rest,
                names,
                shapes,
                candidates,
                case,
            },
        )
    };
    let decided = read.keys().find_map(deciding);
    if let Some(case) = decided.filter(|_| read.all_lent()) {
        return Ok(streamed(case, read, None, map));
    }
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if let Some(case) = deciding(key.as_str()).filter(|_| read.all_lent()) {
            return Ok(streamed(case, read, Some(key), map));
        }
        let value: super::Captured<'de> = map.next_value()?;
        read.push(key, value);
    }
    read.check_unique()?;
    Ok(Deciding::Exhausted(read))
}

/// An object streamed into the union member one of its members decides
/// ([`Deciding::Found`]).
#[derive(Debug)]
pub struct Streamed<'de, 's, A> {
    rest: super::union::TaggedRest<'de, A>,
    names: &'s [&'s str],
    shapes: &'s [super::Shape],
    candidates: u64,
    case: usize,
}

impl<'de, A: MapAccess<'de>> Streamed<'de, '_, A> {
    /// Whether the object passes as the deciding member `T` (the union's member `case`), and
    /// that member is the one the decoder tries first, given every member the object has: the
    /// first that decodes is the decoder's choice, and `T` decodes. `Err` for any other object
    /// (another member would be tried first: left to the decoder).
    pub fn check<T: CheckMap>(self) -> Result<(), A::Error> {
        let mut present = 0u64;
        let watched = Watched {
            map: self.rest,
            names: self.names,
            present: &mut present,
            noted: None,
            at_noted: false,
        };
        T::check_map(watched, None)?;
        let mut order = super::union::trial_order(self.shapes, present, self.candidates);
        if order.next() == Some(self.case) {
            Ok(())
        } else {
            Err(left_to_the_decoder())
        }
    }
}

/// The refusal of what this path leaves to the decoder (an object whose union member is decided
/// by matching its members against each member's, members read ahead from a reader).
pub fn left_to_the_decoder<E: de::Error>() -> E {
    E::custom("left to the decoder")
}

/// A direction's requests or notifications (`ClientRequest`, …): the params of a method.
pub trait CheckCalls {
    /// `Ok` with the method's name when `method` is one of them and its `params` (`None`:
    /// absent) decode and keep every constraint.
    fn check_params<'de, D: Deserializer<'de>>(
        method: &str,
        params: Option<D>,
    ) -> Result<&'static str, D::Error>;
}

impl CheckCalls for super::codec::NoCalls {
    fn check_params<'de, D: Deserializer<'de>>(
        method: &str,
        _: Option<D>,
    ) -> Result<&'static str, D::Error> {
        Err(D::Error::custom(format_args!("unknown method `{method}`")))
    }
}

/// The params of a method that requires them (`codec::required_params`).
pub fn required_params<'de, T: Check, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<(), D::Error> {
    match params {
        Some(params) => T::check(params, &[]),
        None => Err(D::Error::missing_field("params")),
    }
}

/// The params of a method that may omit them (`codec::optional_params`).
pub fn optional_params<'de, T: Check, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<(), D::Error> {
    match params {
        Some(params) => T::check(params, &[]),
        None => Ok(()),
    }
}

/// The params of a method that takes none: absent.
pub fn no_params<'de, D: Deserializer<'de>>(params: Option<D>) -> Result<(), D::Error> {
    match params {
        Some(_) => Err(D::Error::custom("this method takes no params")),
        None => Ok(()),
    }
}

/// A direction's result type (`ClientResult`, …), as `codec::DecodeResult` reads it from the
/// `result` object's members.
pub trait CheckResult {
    /// `Ok` when the members make a result that keeps every constraint.
    fn check_result<'de, A: MapAccess<'de>>(map: A) -> Result<(), A::Error>;
}

/// What a message that decodes and validates as its sender's is (see [`message`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged<'de> {
    /// A request: its method, and its `id` as written.
    Request {
        /// The method.
        method: &'static str,
        /// The `id`'s JSON text.
        id: &'de str,
    },
    /// A notification.
    Notification {
        /// The method.
        method: &'static str,
    },
    /// A result response.
    Response,
    /// An error response.
    Error,
}

/// Whether `text` is a message of the direction `M` (`ClientMessage`, …) that decodes and
/// validates: what it is, or `None` (which says nothing: decode it to see). Mirrors the codec's
/// reading (`codec::MessageVisitor`): `jsonrpc` once and `"2.0"`, the other members once each
/// and no other, a request's `id` a string or an integer, a notification without one. Left to
/// the decoder: `params` before `method`, and batches.
pub fn message<'de, M>(text: &'de str) -> Option<Judged<'de>>
where
    M: super::codec::Direction,
    M::Request: CheckCalls,
    M::Notification: CheckCalls,
    M::Result: CheckResult,
    M::Error: Check,
    M::Id: Check,
{
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let judged = deserializer
        .deserialize_map(MessageVisitor::<M>(PhantomData))
        .ok()?;
    deserializer.end().ok()?;
    Some(judged)
}

struct MessageVisitor<M>(PhantomData<M>);

impl<'de, M> Visitor<'de> for MessageVisitor<M>
where
    M: super::codec::Direction,
    M::Request: CheckCalls,
    M::Notification: CheckCalls,
    M::Result: CheckResult,
    M::Error: Check,
    M::Id: Check,
{
    type Value = Judged<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC 2.0 message object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Judged<'de>, A::Error> {
        use super::codec::Calls;
        let mut version = false;
        // `Some(None)`: `null`.
        let mut id: Option<Option<&'de str>> = None;
        let mut method: Option<Key<'de>> = None;
        let mut checked: Option<&'static str> = None;
        let (mut params, mut result, mut error) = (false, false, false);
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let twice = match key.as_str() {
                "jsonrpc" => {
                    let value: Key<'de> = map.next_value()?;
                    if value.as_str() != "2.0" {
                        return Err(A::Error::custom("`jsonrpc` must be \"2.0\""));
                    }
                    std::mem::replace(&mut version, true)
                }
                "id" => {
                    let raw: &'de serde_json::value::RawValue = map.next_value()?;
                    let text = raw.get();
                    let value = if text == "null" {
                        None
                    } else if self::text::<M::Id>(text) {
                        Some(text)
                    } else {
                        return Err(A::Error::custom("an `id` of another type"));
                    };
                    id.replace(value).is_some()
                }
                "method" => {
                    let name: Key<'de> = map.next_value()?;
                    let known = M::Request::has_method(name.as_str())
                        || M::Notification::has_method(name.as_str());
                    if !known {
                        return Err(A::Error::custom("unknown method"));
                    }
                    method.replace(name).is_some()
                }
                "params" => {
                    let Some(name) = &method else {
                        return Err(left_to_the_decoder());
                    };
                    checked = Some(map.next_value_seed(Params::<M>(name.as_str(), PhantomData))?);
                    std::mem::replace(&mut params, true)
                }
                "result" => {
                    map.next_value_seed(ResultSeed::<M::Result>(PhantomData))?;
                    std::mem::replace(&mut result, true)
                }
                "error" => {
                    map.next_value_seed(Checked::<M::Error>::with(&[]))?;
                    std::mem::replace(&mut error, true)
                }
                other => return Err(A::Error::unknown_field(other, super::codec::MEMBERS)),
            };
            if twice {
                return Err(A::Error::custom("a member twice"));
            }
        }
        if !version {
            return Err(A::Error::missing_field("jsonrpc"));
        }
        match (method, result, error) {
            (Some(name), false, false) => {
                let method = match checked {
                    Some(method) => method,
                    None => Params::<M>::check::<A::Error>(name.as_str())?,
                };
                match id {
                    Some(Some(id)) if M::Request::has_method(method) => {
                        Ok(Judged::Request { method, id })
                    }
                    None if !M::Request::has_method(method) => Ok(Judged::Notification { method }),
                    _ => Err(A::Error::custom(
                        "a request needs an `id`, a notification none",
                    )),
                }
            }
            (None, true, false) if M::RESPONDS && !params && matches!(id, Some(Some(_))) => {
                Ok(Judged::Response)
            }
            (None, false, true) if M::RESPONDS && !params => Ok(Judged::Error),
            _ => Err(A::Error::custom("not a message of this side")),
        }
    }
}

/// The params of a method of direction `M`: a request's, else a notification's.
struct Params<'a, M>(&'a str, PhantomData<M>);

impl<M> Params<'_, M>
where
    M: super::codec::Direction,
    M::Request: CheckCalls,
    M::Notification: CheckCalls,
{
    fn judge<'de, D: Deserializer<'de>>(
        method: &str,
        params: Option<D>,
    ) -> Result<&'static str, D::Error> {
        use super::codec::Calls;
        if M::Request::has_method(method) {
            M::Request::check_params(method, params)
        } else {
            M::Notification::check_params(method, params)
        }
    }

    /// Absent params.
    fn check<E: de::Error>(method: &str) -> Result<&'static str, E> {
        Self::judge(method, None::<de::value::UnitDeserializer<E>>)
    }
}

impl<'de, M> DeserializeSeed<'de> for Params<'_, M>
where
    M: super::codec::Direction,
    M::Request: CheckCalls,
    M::Notification: CheckCalls,
{
    type Value = &'static str;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        Self::judge(self.0, Some(deserializer))
    }
}

/// A `result` object, judged by its direction's result type.
struct ResultSeed<R>(PhantomData<R>);

impl<'de, R: CheckResult> DeserializeSeed<'de> for ResultSeed<R> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        struct Members<R>(PhantomData<R>);
        impl<'de, R: CheckResult> Visitor<'de> for Members<R> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a result object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
                R::check_result(map)
            }
        }
        deserializer.deserialize_map(Members::<R>(PhantomData))
    }
}
