//! The decoding of unions, in one pass: a union of objects with a tag member (`type`,
//! `method`) streams the object into the variant its tag names ([`decode_tagged`]); a union
//! whose members tell themselves apart by members of their own (a direction's results:
//! `tools`, `content` …) streams it into the member its first deciding member names
//! ([`decode_keyed`], [`KeyedUnion`]); a union without either is matched structurally, the
//! schema's `anyOf`, tried in the most likely order ([`read_partition`], [`structural`]).
//!
//! The members read before the deciding one are kept by the [replay buffers](super::buffer) and
//! handed to the chosen variant first ([`TaggedRest`]). Where the input lent no text for them (a
//! reader, a `Value`), an owned union decodes again from the object's text ([`from_text`]) and
//! a borrowed one refuses ([`not_lent`]).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

use super::buffer::{replay, str_deserializer, Buffered, Captured};
use super::object::Key;

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
    pub(crate) fn new(buffered: Buffered<'de>, live_key: Option<Key<'de>>, live: A) -> Self {
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
    /// union member left, or [`buffer_rest`](super::buffer_rest) for the structural match among
    /// several (it refuses a member twice).
    Read(Option<Cow<'de, str>>, Buffered<'de>, A),
    /// A member read ahead came from input that lent no text: the object's JSON text.
    Text(String),
}

/// Reads members until `tag`, a member that every object member of a structural union requires
/// with a string of its own set (`type` of a form field: `"boolean"`, `"number" | "integer"`,
/// …), or whose value a spec rule reads (`resultType`: `"input_required"` or the method's
/// result).
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
        .filter_map(|key| name_bit(names, key))
        .fold(0u64, |set, i| set | 1 << i);
    (object, trial_order(shapes, present, candidates))
}

/// The bit of `key` among a union's sorted `names`, if it is one of them: a binary search whose
/// comparison runs inline (a member's name differs from most others in its first bytes), where
/// the `str` order calls `memcmp` at every step, which the forms' many fields made a fifth of
/// their judging.
pub(crate) fn name_bit(names: &[&str], key: &str) -> Option<usize> {
    let key = key.as_bytes();
    (names.binary_search_by(|name| {
        let name = name.as_bytes();
        match name.iter().zip(key).find(|(a, b)| a != b) {
            Some((a, b)) => a.cmp(b),
            None => name.len().cmp(&key.len()),
        }
    }))
    .ok()
}

/// The order [`structural`] tries the `candidates` in, for an object holding the names
/// `present` (bit `i`: the `i`th of the union's sorted names).
pub(crate) fn trial_order(shapes: &[Shape], present: u64, candidates: u64) -> TrialOrder<'_> {
    let mut left = 0u64;
    for (i, shape) in shapes.iter().enumerate().take(64) {
        if candidates >> i & 1 == 1 && shape.required & !present == 0 {
            left |= 1 << i;
        }
    }
    TrialOrder {
        shapes,
        present,
        left,
    }
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
