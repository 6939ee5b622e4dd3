//! The JSON-RPC codec of the generated message enums (`ClientMessage`, `ServerRequest`,
//! `ClientMessageRef<'de>` …), which name it as `__rt::codec`: the traits they implement
//! ([`Calls`], [`CallsDecode`], [`Direction`], [`DecodeResult`]), their `Serialize` and
//! `Deserialize`, and `FromStr` (`from_str`). A message is read here, in one pass: its
//! `jsonrpc` (`Version`), its `id`, its `method` with its `params`, its `result` or its
//! `error`, in any order (see `MessageVisitor::visit_map`). When a message is refused, the
//! diagnosis (`super::diagnosis`) says why in JSON-RPC terms, asking the message's direction
//! through its `Probe`.
//!
//! Runtime, not API: the public side of the framing is `crate::jsonrpc` (`DecodeError`, the
//! `Request` trait, `RawMessage`, `CallMessage`), which re-exports [`NoCalls`].

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::Value;

use super::buffer::{without_position, Captured};
use super::diagnosis::{diagnose, path_error, Probe, BATCH_EMPTY, BATCH_MIXED, BATCH_UNSUPPORTED};
use super::Key;
use crate::jsonrpc::{DecodeError, DecodeErrorKind};

/// The members a JSON-RPC 2.0 message may have.
pub(crate) const MEMBERS: &[&str] = &["jsonrpc", "id", "method", "params", "result", "error"];

/// The `jsonrpc` member of a message being read: `"2.0"`, exactly once.
#[derive(Default)]
pub(crate) struct Version {
    read: bool,
}

impl Version {
    /// Reads the member's value.
    pub(crate) fn read<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        let version: Key<'de> = map.next_value()?;
        if self.read || version.as_str() != "2.0" {
            return Err(A::Error::custom("`jsonrpc` must be \"2.0\" (once)"));
        }
        self.read = true;
        Ok(())
    }

    /// At the end of the message: whether the member was there.
    pub(crate) fn finish<E: de::Error>(self) -> Result<(), E> {
        if self.read {
            Ok(())
        } else {
            Err(E::missing_field("jsonrpc"))
        }
    }
}

/// The requests or notifications of one direction (generated `ClientRequest`, …): their
/// methods and encoding. Decoding is [`CallsDecode`], whose lifetime lets the borrowed family
/// (`ClientRequestRef<'de>`) implement it for its input alone.
pub trait Calls: Sized {
    /// Whether `method` is one of them.
    fn has_method(method: &str) -> bool;
    /// The method name.
    fn method(&self) -> &'static str;
    /// Writes `"params"` (when there are params).
    fn serialize_params<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// [`Calls`] decoded from a method name and its params, for input that lends `'de`.
pub trait CallsDecode<'de>: Calls {
    /// Decodes the params of `method` (`None`: the message had no `params`). Only called for a
    /// method for which [`Calls::has_method`] holds.
    fn from_params<D: Deserializer<'de>>(method: &str, params: Option<D>)
        -> Result<Self, D::Error>;
    /// Decodes the params of `method` from their JSON text, where the input lent no text for
    /// `'de` (params read before the method, from a reader): owned types decode it
    /// ([`params_from_text`]); borrowed ones, which must borrow, refuse it.
    fn from_params_text(method: &str, text: &str) -> Result<Self, serde_json::Error>;
}

/// [`CallsDecode::from_params_text`] of an owned type.
pub fn params_from_text<C: for<'x> CallsDecode<'x>>(
    method: &str,
    text: &str,
) -> Result<C, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    C::from_params(method, Some(&mut de))
}

/// The requests of a side that sends none (2026-07-28 servers): no value exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoCalls {}

impl Calls for NoCalls {
    fn has_method(_: &str) -> bool {
        false
    }
    fn method(&self) -> &'static str {
        match *self {}
    }
    fn serialize_params<M: SerializeMap>(&self, _: &mut M) -> Result<(), M::Error> {
        match *self {}
    }
}

impl<'de> CallsDecode<'de> for NoCalls {
    fn from_params<D: Deserializer<'de>>(method: &str, _: Option<D>) -> Result<Self, D::Error> {
        Err(D::Error::custom(format_args!("unknown method `{method}`")))
    }
    fn from_params_text(method: &str, _: &str) -> Result<Self, serde_json::Error> {
        Err(serde_json::Error::custom(format_args!(
            "unknown method `{method}`"
        )))
    }
}

/// A direction's results, as a message's `result` decodes them (see `ResultSeed`).
pub trait DecodeResult<'de>: Sized {
    /// Decodes the result object, in one pass.
    fn decode_result<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// One direction's message enum (`ClientMessage`, `ServerMessage`, and the borrowed
/// `ClientMessageRef<'de>`, …): its parts and encoding. [`Decode`] adds decoding.
pub trait Direction: Sized {
    /// The `id` type.
    type Id: serde::Serialize;
    /// Requests it sends.
    type Request: Calls;
    /// Notifications it sends.
    type Notification: Calls;
    /// Results it sends.
    type Result: serde::Serialize;
    /// The `error` object of error responses.
    type Error: serde::Serialize;
    /// Whether it sends responses at all (2026-07-28 clients answer no server requests).
    const RESPONDS: bool;
    /// Whether a JSON-RPC batch (an array of messages) is a message (2025-03-26 only).
    const BATCHES: bool;
    /// Builds the message; `None` for a response from a side that sends none.
    fn build(parts: Parts<Self>) -> Option<Self>;
    /// Takes it apart, for encoding.
    fn parts(&self) -> PartsRef<'_, Self>;
}

/// A [`Direction`] whose parts decode from input that lends `'de`: every owned message enum for
/// any `'de`, a borrowed one for its own. Implemented for every direction whose parts decode.
pub trait Decode<'de>:
    Direction<
    Id: de::Deserialize<'de>,
    Request: CallsDecode<'de>,
    Notification: CallsDecode<'de>,
    Result: DecodeResult<'de>,
    Error: de::Deserialize<'de>,
>
{
}

impl<'de, M> Decode<'de> for M
where
    M: Direction,
    M::Id: de::Deserialize<'de>,
    M::Request: CallsDecode<'de>,
    M::Notification: CallsDecode<'de>,
    M::Result: DecodeResult<'de>,
    M::Error: de::Deserialize<'de>,
{
}

/// The four kinds of JSON-RPC message, by value.
#[derive(Debug)]
pub enum Parts<M: Direction> {
    /// A request with its id.
    Request(M::Id, M::Request),
    /// A notification.
    Notification(M::Notification),
    /// A successful response.
    Response(M::Id, M::Result),
    /// An error response (no id when the request's could not be read).
    Error(Option<M::Id>, M::Error),
    /// A batch: requests and notifications, or responses; never empty, never nested.
    Batch(Vec<M>),
}

/// The four kinds of JSON-RPC message, by reference.
#[derive(Debug)]
pub enum PartsRef<'a, M: Direction> {
    /// A request with its id.
    Request(&'a M::Id, &'a M::Request),
    /// A notification.
    Notification(&'a M::Notification),
    /// A successful response.
    Response(&'a M::Id, &'a M::Result),
    /// An error response.
    Error(Option<&'a M::Id>, &'a M::Error),
    /// A batch.
    Batch(&'a [M]),
}

/// Encodes a message: `jsonrpc`, `id`, then `method` + `params`, `result` or `error`.
pub fn serialize<M: Direction, S: serde::Serializer>(
    message: &M,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let parts = message.parts();
    if let PartsRef::Batch(items) = parts {
        let mut seq = serializer.serialize_seq(Some(items.len()))?;
        for item in items {
            seq.serialize_element(&Serialized(item))?;
        }
        return seq.end();
    }
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("jsonrpc", "2.0")?;
    match parts {
        PartsRef::Request(id, request) => {
            map.serialize_entry("id", id)?;
            map.serialize_entry("method", request.method())?;
            request.serialize_params(&mut map)?;
        }
        PartsRef::Notification(notification) => {
            map.serialize_entry("method", notification.method())?;
            notification.serialize_params(&mut map)?;
        }
        PartsRef::Response(id, result) => {
            map.serialize_entry("id", id)?;
            map.serialize_entry("result", result)?;
        }
        PartsRef::Error(id, error) => {
            map.serialize_entry("id", &id)?;
            map.serialize_entry("error", error)?;
        }
        PartsRef::Batch(_) => unreachable!("handled above"),
    }
    map.end()
}

/// A batch member, encoded as a message (the message enums' `Serialize` is generated code).
struct Serialized<'a, M>(&'a M);

impl<M: Direction> serde::Serialize for Serialized<'_, M> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(self.0, serializer)
    }
}

/// Encodes a request or notification enum on its own: `{"method": …, "params": …}`.
pub fn serialize_call<C: Calls, S: serde::Serializer>(
    call: &C,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("method", call.method())?;
    call.serialize_params(&mut map)?;
    map.end()
}

/// Decodes a request or notification enum on its own, from `{"method": …, "params": …}`.
pub fn deserialize_call<'de, C: CallsDecode<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<C, D::Error> {
    deserializer.deserialize_map(CallVisitor(PhantomData))
}

struct CallVisitor<C>(PhantomData<C>);

impl<'de, C: CallsDecode<'de>> Visitor<'de> for CallVisitor<C> {
    type Value = C;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with `method` and `params`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<C, A::Error> {
        let mut call = MethodParams::<C>::default();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "method" => call.read_method(&mut map)?,
                "params" => call.read_params(&mut map)?,
                other => return Err(A::Error::unknown_field(other, &["method", "params"])),
            }
        }
        call.finish()?
            .ok_or_else(|| A::Error::missing_field("method"))
    }
}

/// What a call can be decoded into from a method name and its params (`None`: absent): a
/// direction's requests or notifications, or either (the envelope, before it knows the id).
trait DecodeCall<'de>: Sized {
    /// Whether `method` is one of them.
    fn knows(method: &str) -> bool;
    /// Decodes the params of a known method.
    fn decode<D: Deserializer<'de>>(method: &str, params: Option<D>) -> Result<Self, D::Error>;
    /// Decodes the params of a known method from text the input did not lend.
    fn decode_text(method: &str, text: &str) -> Result<Self, serde_json::Error>;
}

impl<'de, C: CallsDecode<'de>> DecodeCall<'de> for C {
    fn knows(method: &str) -> bool {
        C::has_method(method)
    }
    fn decode<D: Deserializer<'de>>(method: &str, params: Option<D>) -> Result<Self, D::Error> {
        C::from_params(method, params)
    }
    fn decode_text(method: &str, text: &str) -> Result<Self, serde_json::Error> {
        C::from_params_text(method, text)
    }
}

/// The `method` and `params` members of a message, in either order: `params` after `method`
/// are decoded straight into the method's type; `params` before it are captured raw and
/// decoded once the method is known.
struct MethodParams<'de, T> {
    method: Option<Key<'de>>,
    call: Option<T>,
    raw: Option<Captured<'de>>,
}

impl<T> Default for MethodParams<'_, T> {
    fn default() -> Self {
        MethodParams {
            method: None,
            call: None,
            raw: None,
        }
    }
}

impl<'de, T: DecodeCall<'de>> MethodParams<'de, T> {
    fn read_method<A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        if self.method.is_some() {
            return Err(A::Error::duplicate_field("method"));
        }
        let name: Key<'de> = map.next_value()?;
        if !T::knows(name.as_str()) {
            return Err(A::Error::custom(format_args!(
                "unknown method `{}`",
                name.as_str()
            )));
        }
        self.method = Some(name);
        Ok(())
    }

    fn read_params<A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        if self.has_params() {
            return Err(A::Error::duplicate_field("params"));
        }
        match &self.method {
            Some(name) => {
                self.call = Some(map.next_value_seed(ParamsSeed::<T>(name.as_str(), PhantomData))?)
            }
            None => self.raw = Some(map.next_value()?),
        }
        Ok(())
    }

    fn has_params(&self) -> bool {
        self.call.is_some() || self.raw.is_some()
    }

    /// The call, when the message had a `method`.
    fn finish<E: de::Error>(self) -> Result<Option<T>, E> {
        let Some(method) = self.method else {
            return Ok(None);
        };
        let call = match (self.call, self.raw) {
            (Some(call), _) => call,
            // Text the input lent decodes like params after the method; other text is decoded
            // from a copy by an owned type and refused by a borrowed one.
            (None, Some(raw)) => match raw.lent() {
                Some(text) => {
                    let mut de = serde_json::Deserializer::from_str(text);
                    T::decode(method.as_str(), Some(&mut de)).map_err(E::custom)?
                }
                None => T::decode_text(method.as_str(), raw.text()).map_err(E::custom)?,
            },
            (None, None) => T::decode(method.as_str(), None::<de::value::UnitDeserializer<E>>)?,
        };
        Ok(Some(call))
    }
}

/// Decodes params of a known method from the value position of a map.
struct ParamsSeed<'a, C>(&'a str, PhantomData<C>);

impl<'de, C: DecodeCall<'de>> DeserializeSeed<'de> for ParamsSeed<'_, C> {
    type Value = C;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<C, D::Error> {
        C::decode(self.0, Some(deserializer))
    }
}

/// Decodes a params value (`None`: absent) that the method requires.
pub fn required_params<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<T, D::Error> {
    match params {
        Some(params) => T::deserialize(params),
        None => Err(D::Error::missing_field("params")),
    }
}

/// Decodes a params value (`None`: absent) that the method may omit.
pub fn optional_params<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<Option<T>, D::Error> {
    params.map(T::deserialize).transpose()
}

/// The `Deserialize` of a message enum, for any serde_json input: one pass, the same as
/// `FromStr` but for the diagnosis of a refusal.
pub fn deserialize<'de, M: Decode<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<M, D::Error> {
    deserializer.deserialize_any(MessageVisitor::<M> {
        in_batch: false,
        _marker: PhantomData,
    })
}

/// Decodes a message from text in one pass; a refusal is diagnosed in JSON-RPC terms.
pub fn from_str<M: for<'x> Decode<'x>>(text: &str) -> Result<M, DecodeError> {
    decode_text::<M>(text).map_err(|refused| diagnosis::<M>(text, &refused))
}

/// Decodes the text of a response's `result` as `T` (`jsonrpc::decode_result`); a refusal is
/// decoded again with path tracking, for the pointer below `/result` of what does not fit.
pub fn result_from_str<T: de::DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    typed_from_str(text, "/result")
}

/// Decodes `text`, the part at `prefix` of a response, as `T`; a refusal is decoded again with
/// path tracking, for the pointer (below `prefix`) of what does not fit.
pub fn typed_from_str<T: de::DeserializeOwned>(text: &str, prefix: &str) -> Result<T, DecodeError> {
    let refused = match serde_json::from_str(text) {
        Ok(result) => return Ok(result),
        Err(refused) => refused,
    };
    let mut error = DecodeError::new(DecodeErrorKind::InvalidResponse, without_position(&refused));
    if refused.is_syntax() || refused.is_eof() {
        error.kind = DecodeErrorKind::Parse;
        return Err(error);
    }
    let pointer = match path_error(|de| T::deserialize(de), text) {
        Err((_, pointer)) => pointer,
        Ok(_) => String::new(),
    };
    error.path = Some(format!("{prefix}{pointer}"));
    error.response = true;
    Err(error)
}

/// Decodes a borrowed message (`ClientMessageRef<'de>`) from the text it borrows, in one pass;
/// a refusal is diagnosed with the probe of `Owned`, the owned type of the same direction,
/// which accepts the same messages.
pub fn from_lent_str<'de, M: Decode<'de>, Owned: for<'x> Decode<'x>>(
    text: &'de str,
) -> Result<M, DecodeError> {
    decode_text::<M>(text).map_err(|refused| diagnosis::<Owned>(text, &refused))
}

/// [`from_lent_str`] from bytes, which must be UTF-8.
pub fn from_lent_slice<'de, M: Decode<'de>, Owned: for<'x> Decode<'x>>(
    bytes: &'de [u8],
) -> Result<M, DecodeError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => from_lent_str::<M, Owned>(text),
        Err(e) => Err(DecodeError::new(
            DecodeErrorKind::Parse,
            format!("not JSON: {e}"),
        )),
    }
}

/// Why `text` was refused (`refused`: the decoder's error), in JSON-RPC terms.
#[cold]
fn diagnosis<M: for<'x> Decode<'x>>(text: &str, refused: &serde_json::Error) -> DecodeError {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => diagnose(
            &Probes::<M>(PhantomData),
            text,
            &value,
            &without_position(refused),
        ),
        Err(e) => DecodeError::new(DecodeErrorKind::Parse, format!("not JSON: {e}")),
    }
}

/// Decodes a message from a parsed JSON value, with the diagnosis of `from_str`. The value is
/// decoded from its text: the one deserializer the message types are compiled for.
pub fn from_value<M: for<'x> Decode<'x>>(value: Value) -> Result<M, DecodeError> {
    from_str(&value.to_string())
}

fn decode_text<'de, M: Decode<'de>>(text: &'de str) -> Result<M, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    deserialize::<M, _>(&mut de).and_then(|m| de.end().map(|()| m))
}

struct MessageVisitor<M> {
    /// Reading the members of a batch, which cannot be batches themselves.
    in_batch: bool,
    _marker: PhantomData<M>,
}

impl<'de, M: Decode<'de>> DeserializeSeed<'de> for MessageVisitor<M> {
    type Value = M;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<M, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Either kind of call, while `id` may still come.
enum Call<M: Direction> {
    Request(M::Request),
    Notification(M::Notification),
}

impl<'de, M: Decode<'de>> Visitor<'de> for MessageVisitor<M> {
    type Value = M;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC 2.0 message object")
    }

    /// A batch, where the revision has them: every member is read as a message of its own.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<M, A::Error> {
        if !M::BATCHES {
            return Err(A::Error::custom(BATCH_UNSUPPORTED));
        }
        if self.in_batch {
            return Err(A::Error::custom("a batch cannot hold a batch"));
        }
        let mut items = Vec::new();
        let mut calls = None;
        while let Some(item) = seq.next_element_seed(MessageVisitor::<M> {
            in_batch: true,
            _marker: PhantomData,
        })? {
            let is_call = matches!(
                item.parts(),
                PartsRef::Request(..) | PartsRef::Notification(..)
            );
            if *calls.get_or_insert(is_call) != is_call {
                return Err(A::Error::custom(BATCH_MIXED));
            }
            items.push(item);
        }
        if items.is_empty() {
            return Err(A::Error::custom(BATCH_EMPTY));
        }
        M::build(Parts::Batch(items)).ok_or_else(|| A::Error::custom(BATCH_UNSUPPORTED))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M, A::Error> {
        let mut version = Version::default();
        let mut id: Option<Option<M::Id>> = None;
        let mut call = MethodParams::<Call<M>>::default();
        let mut result: Option<M::Result> = None;
        let mut error: Option<M::Error> = None;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "jsonrpc" => version.read(&mut map)?,
                "id" => {
                    if id.is_some() {
                        return Err(A::Error::duplicate_field("id"));
                    }
                    id = Some(map.next_value()?);
                }
                "method" => call.read_method(&mut map)?,
                "params" => call.read_params(&mut map)?,
                "result" => {
                    if result.is_some() {
                        return Err(A::Error::duplicate_field("result"));
                    }
                    result = Some(map.next_value_seed(ResultSeed::<M::Result>(PhantomData))?);
                }
                "error" => {
                    if error.is_some() {
                        return Err(A::Error::duplicate_field("error"));
                    }
                    error = Some(map.next_value()?);
                }
                other => return Err(A::Error::unknown_field(other, MEMBERS)),
            }
        }
        version.finish()?;
        let has_params = call.has_params();
        let parts = match (call.finish()?, result, error) {
            (Some(call), None, None) => match (call, id) {
                (Call::Request(request), Some(Some(id))) => Parts::Request(id, request),
                (Call::Notification(notification), None) => Parts::Notification(notification),
                (Call::Request(_), _) => {
                    return Err(A::Error::custom("a request needs a string or integer `id`"))
                }
                (Call::Notification(_), Some(_)) => {
                    return Err(A::Error::custom("a notification has no `id`"))
                }
            },
            (None, Some(result), None) if M::RESPONDS && !has_params => match id {
                Some(Some(id)) => Parts::Response(id, result),
                _ => return Err(A::Error::custom("a response needs the `id` of its request")),
            },
            (None, None, Some(error)) if M::RESPONDS && !has_params => {
                Parts::Error(id.flatten(), error)
            }
            _ => {
                return Err(A::Error::custom(
                    "not a request, notification, result response or error response",
                ))
            }
        };
        M::build(parts)
            .ok_or_else(|| A::Error::custom("this side sends no responses in this revision"))
    }
}

impl<'de, M: Decode<'de>> DecodeCall<'de> for Call<M> {
    fn knows(method: &str) -> bool {
        M::Request::has_method(method) || M::Notification::has_method(method)
    }
    fn decode<D: Deserializer<'de>>(method: &str, params: Option<D>) -> Result<Self, D::Error> {
        if M::Request::has_method(method) {
            M::Request::from_params(method, params).map(Call::Request)
        } else if M::Notification::has_method(method) {
            M::Notification::from_params(method, params).map(Call::Notification)
        } else {
            Err(D::Error::custom(format_args!("unknown method `{method}`")))
        }
    }
    fn decode_text(method: &str, text: &str) -> Result<Self, serde_json::Error> {
        if M::Request::has_method(method) {
            M::Request::from_params_text(method, text).map(Call::Request)
        } else if M::Notification::has_method(method) {
            M::Notification::from_params_text(method, text).map(Call::Notification)
        } else {
            Err(serde_json::Error::custom(format_args!(
                "unknown method `{method}`"
            )))
        }
    }
}

/// Decodes a `result` in one pass: a member that only one result type declares (`tools`,
/// `content`, `action`…) decides the type, and that type's refusal is the message's, never
/// another type's acceptance (the generic result keeps any object in its `extra`, and would
/// hide the error); the members before it are buffered. An object without a deciding member is
/// matched against each type, the schema's `anyOf`.
struct ResultSeed<R>(PhantomData<R>);

impl<'de, R: DecodeResult<'de>> DeserializeSeed<'de> for ResultSeed<R> {
    type Value = R;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<R, D::Error> {
        struct V<R>(PhantomData<R>);
        impl<'de, R: DecodeResult<'de>> Visitor<'de> for V<R> {
            type Value = R;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a result object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<R, A::Error> {
                R::decode_result(map)
            }
        }
        deserializer.deserialize_map(V(PhantomData))
    }
}

/// The [`Probe`] of direction `M`.
struct Probes<M>(PhantomData<M>);

impl<M: for<'x> Decode<'x>> Probe for Probes<M> {
    fn batches(&self) -> bool {
        M::BATCHES
    }
    fn check_message(&self, text: &str) -> Result<(), String> {
        decode_text::<M>(text)
            .map(drop)
            .map_err(|error| without_position(&error))
    }
    fn responds(&self) -> bool {
        M::RESPONDS
    }
    fn is_request(&self, method: &str) -> bool {
        M::Request::has_method(method)
    }
    fn is_notification(&self, method: &str) -> bool {
        M::Notification::has_method(method)
    }
    fn check_params(
        &self,
        request: bool,
        method: &str,
        params: Option<&str>,
    ) -> Result<(), (String, String)> {
        fn check<C: for<'x> CallsDecode<'x>>(
            method: &str,
            params: Option<&str>,
        ) -> Result<(), (String, String)> {
            match params {
                Some(p) => path_error(|d| C::from_params(method, Some(d)).map(drop), p),
                None => C::from_params(
                    method,
                    None::<de::value::UnitDeserializer<serde_json::Error>>,
                )
                .map(drop)
                .map_err(|e| (e.to_string(), String::new())),
            }
        }
        if request {
            check::<M::Request>(method, params)
        } else {
            check::<M::Notification>(method, params)
        }
    }
    fn check_result(&self, result: &str) -> Result<(), (String, String)> {
        path_error(
            |d| {
                ResultSeed::<M::Result>(PhantomData)
                    .deserialize(d)
                    .map(drop)
            },
            result,
        )
    }
    fn check_error(&self, error: &str) -> Result<(), (String, String)> {
        path_error(
            |d| <M::Error as de::Deserialize>::deserialize(d).map(drop),
            error,
        )
    }
}
