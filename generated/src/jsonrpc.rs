//! JSON-RPC 2.0 framing shared by every revision: error codes, [`DecodeError`], the [`Request`]
//! trait, and the decoder behind each revision's `ClientMessage` / `ServerMessage`.
//!
//! Decoding reads the members of a message once, in whatever order they come. As soon as
//! `method` is known, `params` is decoded straight into that method's params type; `params`
//! that come before `method` are captured raw (`RawValue`) and decoded once the method is known.
//! Results are streamed into the result type their first deciding member names (`content` →
//! `CallToolResult`). When that fast path fails, the message is decoded again with the schema's
//! full `anyOf` semantics (but where the generic result accepts any object, a result that the
//! type its deciding member names refuses is not taken as the generic result), and if that fails
//! too, [`DecodeError`] says why in JSON-RPC terms.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess,
    Visitor,
};
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::de::StrRead;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::__private::{Captured, Key};
use crate::buffer::{lose_position, replay, without_position};

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid JSON-RPC 2.0 request.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// Internal JSON-RPC error.
pub const INTERNAL_ERROR: i64 = -32603;

/// A request type of some revision: its method, its params type, and the result a response to
/// it carries. Lets a client decode a response as the result of the request it sent:
///
/// ```
/// # #[cfg(feature = "v2025_11_25")] {
/// use mcp_typed::jsonrpc::Request;
/// use mcp_typed::v2025_11_25::CallToolRequest;
///
/// fn decode<R: Request>(result: &str) -> serde_json::Result<R::Result> {
///     serde_json::from_str(result)
/// }
/// let result = decode::<CallToolRequest>(r#"{"content":[{"type":"text","text":"4"}]}"#).unwrap();
/// assert_eq!(result.content.len(), 1);
/// assert_eq!(CallToolRequest::METHOD, "tools/call");
/// # }
/// ```
pub trait Request {
    /// The method name (`tools/call`).
    const METHOD: &'static str;
    /// The params type (`()` for a request without params).
    type Params;
    /// The result type of a successful response.
    type Result: DeserializeOwned + serde::Serialize;
}

/// What kind of problem a message had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecodeErrorKind {
    /// Not JSON (-32700).
    Parse,
    /// JSON, but not a valid JSON-RPC 2.0 message of this direction (-32600).
    InvalidRequest,
    /// A request or notification for a method this direction does not have (-32601).
    MethodNotFound,
    /// A known method with params that do not fit its params type (-32602).
    InvalidParams,
    /// A response whose `result` or `error` does not fit (-32600: there is no reply to a
    /// response, but the code says the message was invalid).
    InvalidResponse,
}

/// Why a message could not be decoded, in JSON-RPC terms: [`code`](Self::code) is the error
/// code to answer with, [`id`](Self::id) the request id when one was read, so that a server can
/// answer the failed request, and [`path`](Self::path) the JSON pointer of the first bad member.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    message: String,
    id: Option<Value>,
    method: Option<String>,
    path: Option<String>,
    notification: bool,
    response: bool,
}

impl DecodeError {
    fn new(kind: DecodeErrorKind, message: impl Into<String>) -> Self {
        DecodeError {
            kind,
            message: message.into(),
            id: None,
            method: None,
            path: None,
            notification: false,
            response: false,
        }
    }

    /// The kind of problem.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The JSON-RPC error code for it.
    pub fn code(&self) -> i64 {
        match self.kind {
            DecodeErrorKind::Parse => PARSE_ERROR,
            DecodeErrorKind::InvalidRequest | DecodeErrorKind::InvalidResponse => INVALID_REQUEST,
            DecodeErrorKind::MethodNotFound => METHOD_NOT_FOUND,
            DecodeErrorKind::InvalidParams => INVALID_PARAMS,
        }
    }

    /// The message's `id` (a string or an integer) when one was read.
    pub fn id(&self) -> Option<&Value> {
        self.id.as_ref()
    }

    /// The message's `method`, when it had one.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// JSON pointer of the offending member (`/params/arguments`), when there is one.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// What went wrong, for a human.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the refused message was a notification: `"jsonrpc": "2.0"`, a string `method`
    /// and no `id` member, refused for its method (unknown, or a request's method) or its
    /// params. JSON-RPC 2.0 never answers a notification, not even an invalid one; a message
    /// that is not a well-formed request object (an unknown top-level member, a non-string
    /// `method`, `"id": null`) is not one, and is answered with -32600 and `id: null`.
    pub fn is_notification(&self) -> bool {
        self.notification
    }

    /// Whether the refused message was framed as a response (`result` or `error`, no
    /// `method`): a [`DecodeErrorKind::InvalidResponse`], or a response without a usable `id`.
    /// JSON-RPC never answers a response; [`id`](Self::id) tells which request of the
    /// receiver's it was meant to answer, when it could be read, so that the receiver can fail
    /// that request instead of waiting for it.
    pub fn is_response(&self) -> bool {
        self.response
    }

    /// What a receiver sends back: [`to_error_response`](Self::to_error_response), or `None`
    /// when the message was a notification ([`is_notification`](Self::is_notification)) or a
    /// response ([`is_response`](Self::is_response)).
    ///
    /// ```
    /// # #[cfg(feature = "v2025_11_25")] {
    /// use mcp_typed::v2025_11_25::ClientMessage;
    ///
    /// let unknown_notification = r#"{"jsonrpc":"2.0","method":"notifications/bogus"}"#;
    /// let error = unknown_notification.parse::<ClientMessage>().unwrap_err();
    /// assert_eq!(error.code(), -32601);
    /// assert!(error.to_reply().is_none());
    /// // An answer to the server's elicitation with an object value, which the schema's
    /// // `ElicitResult` cannot hold: not answered, but the id says which request failed.
    /// let bad_answer = r#"{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"age":{"years":36}}}}"#;
    /// let error = bad_answer.parse::<ClientMessage>().unwrap_err();
    /// assert!(error.to_reply().is_none() && error.is_response());
    /// assert_eq!(error.id(), Some(&serde_json::json!("e1")));
    /// let unknown_request = r#"{"jsonrpc":"2.0","id":3,"method":"bogus"}"#;
    /// let reply = unknown_request.parse::<ClientMessage>().unwrap_err().to_reply().unwrap();
    /// assert_eq!((reply["id"].as_i64(), reply["error"]["code"].as_i64()), (Some(3), Some(-32601)));
    /// # }
    /// ```
    pub fn to_reply(&self) -> Option<Value> {
        (!self.notification && !self.response).then(|| self.to_error_response())
    }

    /// The JSON-RPC error response for this error (`id` is `null` when none was read). A
    /// receiver must not send it for a notification or a response: see
    /// [`to_reply`](Self::to_reply).
    pub fn to_error_response(&self) -> Value {
        let mut error = serde_json::Map::new();
        error.insert("code".into(), self.code().into());
        error.insert("message".into(), self.message.clone().into());
        if let Some(path) = &self.path {
            error.insert("data".into(), serde_json::json!({ "path": path }));
        }
        serde_json::json!({ "jsonrpc": "2.0", "id": self.id.clone().unwrap_or(Value::Null), "error": error })
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code())?;
        if let Some(path) = &self.path {
            write!(f, " at {path}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

/// The requests or notifications of one direction (generated `ClientRequest`, …): decoded from a
/// method name and its params.
#[doc(hidden)]
pub trait Calls: Sized {
    /// Whether `method` is one of them.
    fn has_method(method: &str) -> bool;
    /// Decodes the params of `method` (`None`: the message had no `params`). Only called for a
    /// method for which [`Calls::has_method`] holds.
    fn from_params<'de, D: Deserializer<'de>>(
        method: &str,
        params: Option<D>,
    ) -> Result<Self, D::Error>;
    /// The method name.
    fn method(&self) -> &'static str;
    /// Writes `"params"` (when there are params).
    fn serialize_params<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// The requests of a side that sends none (2026-07-28 servers): no value exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoCalls {}

impl Calls for NoCalls {
    fn has_method(_: &str) -> bool {
        false
    }
    fn from_params<'de, D: Deserializer<'de>>(
        method: &str,
        _: Option<D>,
    ) -> Result<Self, D::Error> {
        Err(D::Error::custom(format_args!("unknown method `{method}`")))
    }
    fn method(&self) -> &'static str {
        match *self {}
    }
    fn serialize_params<M: SerializeMap>(&self, _: &mut M) -> Result<(), M::Error> {
        match *self {}
    }
}

/// Result types that can be streamed into the member their first deciding member names.
#[doc(hidden)]
pub trait FastResult: Sized + DeserializeOwned {
    /// `Ok(None)`: no deciding member, decode again with `Deserialize`.
    fn decode_fast<'de, A: MapAccess<'de>>(map: A) -> Result<Option<Self>, A::Error>;
}

/// One direction's message enum (`ClientMessage`, `ServerMessage`).
#[doc(hidden)]
pub trait Direction: Sized {
    /// The `id` type.
    type Id: DeserializeOwned + serde::Serialize;
    /// Requests it sends.
    type Request: Calls;
    /// Notifications it sends.
    type Notification: Calls;
    /// Results it sends.
    type Result: FastResult + serde::Serialize;
    /// The `error` object of error responses.
    type Error: DeserializeOwned + serde::Serialize;
    /// Whether it sends responses at all (2026-07-28 clients answer no server requests).
    const RESPONDS: bool;
    /// Whether a JSON-RPC batch (an array of messages) is a message (2025-03-26 only).
    const BATCHES: bool;
    /// Builds the message; `None` for a response from a side that sends none.
    fn build(parts: Parts<Self>) -> Option<Self>;
    /// Takes it apart, for encoding.
    fn parts(&self) -> PartsRef<'_, Self>;
}

/// The four kinds of JSON-RPC message, by value.
#[doc(hidden)]
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
#[doc(hidden)]
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
#[doc(hidden)]
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
#[doc(hidden)]
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
#[doc(hidden)]
pub fn deserialize_call<'de, C: Calls, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<C, D::Error> {
    deserializer.deserialize_map(CallVisitor(PhantomData))
}

struct CallVisitor<C>(PhantomData<C>);

impl<'de, C: Calls> Visitor<'de> for CallVisitor<C> {
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
trait DecodeCall: Sized {
    /// Whether `method` is one of them.
    fn knows(method: &str) -> bool;
    /// Decodes the params of a known method.
    fn decode<'de, D: Deserializer<'de>>(method: &str, params: Option<D>)
        -> Result<Self, D::Error>;
}

impl<C: Calls> DecodeCall for C {
    fn knows(method: &str) -> bool {
        C::has_method(method)
    }
    fn decode<'de, D: Deserializer<'de>>(
        method: &str,
        params: Option<D>,
    ) -> Result<Self, D::Error> {
        C::from_params(method, params)
    }
}

/// The `method` and `params` members of a message, in either order: `params` after `method`
/// are decoded straight into the method's type; `params` before it are captured raw and
/// decoded once the method is known.
struct MethodParams<'de, T> {
    method: Option<Key<'de>>,
    call: Option<T>,
    raw: Option<Box<RawValue>>,
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

impl<'de, T: DecodeCall> MethodParams<'de, T> {
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
            (None, Some(raw)) => {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                T::decode(method.as_str(), Some(&mut de)).map_err(E::custom)?
            }
            (None, None) => T::decode(method.as_str(), None::<de::value::UnitDeserializer<E>>)?,
        };
        Ok(Some(call))
    }
}

/// Decodes params of a known method from the value position of a map.
struct ParamsSeed<'a, C>(&'a str, PhantomData<C>);

impl<'de, C: DecodeCall> DeserializeSeed<'de> for ParamsSeed<'_, C> {
    type Value = C;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<C, D::Error> {
        C::decode(self.0, Some(deserializer))
    }
}

/// Decodes a params value (`None`: absent) that the method requires.
#[doc(hidden)]
pub fn required_params<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<T, D::Error> {
    match params {
        Some(params) => T::deserialize(params),
        None => Err(D::Error::missing_field("params")),
    }
}

/// Decodes a params value (`None`: absent) that the method may omit.
#[doc(hidden)]
pub fn optional_params<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    params: Option<D>,
) -> Result<Option<T>, D::Error> {
    params.map(T::deserialize).transpose()
}

/// The `Deserialize` of a message enum: the schema's full semantics, for any serde_json input.
#[doc(hidden)]
pub fn deserialize<'de, M: Direction, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<M, D::Error> {
    deserializer.deserialize_any(MessageVisitor::<M> {
        fast: false,
        in_batch: false,
        _marker: PhantomData,
    })
}

/// Decodes a message from text: the fast path, then the full semantics, then the diagnosis.
#[doc(hidden)]
pub fn from_str<M: Direction>(text: &str) -> Result<M, DecodeError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let fast = de
        .deserialize_any(MessageVisitor::<M> {
            fast: true,
            in_batch: false,
            _marker: PhantomData,
        })
        .and_then(|m| de.end().map(|()| m));
    if let Ok(message) = fast {
        return Ok(message);
    }
    // The fast path commits to the result type its first deciding member names; the full
    // `anyOf` semantics may still accept the message.
    let refused = match full_semantics::<M>(text) {
        Ok(message) => return Ok(message),
        Err(error) => error,
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value) => Err(diagnose(
            &Probes::<M>(PhantomData),
            text,
            &value,
            &without_position(&refused),
        )),
        Err(e) => Err(DecodeError::new(
            DecodeErrorKind::Parse,
            format!("not JSON: {e}"),
        )),
    }
}

/// Decodes a message from a parsed JSON value, with the full semantics and the diagnosis. The
/// value is decoded from its text: the one deserializer the message types are compiled for.
#[doc(hidden)]
pub fn from_value<M: Direction>(value: Value) -> Result<M, DecodeError> {
    from_str(&value.to_string())
}

fn full_semantics<M: Direction>(text: &str) -> Result<M, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    deserialize::<M, _>(&mut de).and_then(|m| de.end().map(|()| m))
}

struct MessageVisitor<M> {
    /// Stream results into the member their first deciding member names (text input, where a
    /// failure can be retried with the full semantics).
    fast: bool,
    /// Reading the members of a batch, which cannot be batches themselves.
    in_batch: bool,
    _marker: PhantomData<M>,
}

impl<'de, M: Direction> DeserializeSeed<'de> for MessageVisitor<M> {
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

impl<'de, M: Direction> Visitor<'de> for MessageVisitor<M> {
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
            fast: self.fast,
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
        let mut jsonrpc = false;
        let mut id: Option<Option<M::Id>> = None;
        let mut call = MethodParams::<Call<M>>::default();
        let mut result: Option<M::Result> = None;
        let mut error: Option<M::Error> = None;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "jsonrpc" => {
                    let version: Key<'de> = map.next_value()?;
                    if jsonrpc || version.as_str() != "2.0" {
                        return Err(A::Error::custom("`jsonrpc` must be \"2.0\" (once)"));
                    }
                    jsonrpc = true;
                }
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
                    result = Some(if self.fast {
                        map.next_value_seed(FastResultSeed::<M::Result>(PhantomData))?
                    } else {
                        let object: Captured<'de> = map.next_value()?;
                        decode_result::<M::Result>(object.text()).map_err(A::Error::custom)?
                    });
                }
                "error" => {
                    if error.is_some() {
                        return Err(A::Error::duplicate_field("error"));
                    }
                    error = Some(map.next_value()?);
                }
                other => {
                    return Err(A::Error::unknown_field(
                        other,
                        &["jsonrpc", "id", "method", "params", "result", "error"],
                    ));
                }
            }
        }
        if !jsonrpc {
            return Err(A::Error::missing_field("jsonrpc"));
        }
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

impl<M: Direction> DecodeCall for Call<M> {
    fn knows(method: &str) -> bool {
        M::Request::has_method(method) || M::Notification::has_method(method)
    }
    fn decode<'de, D: Deserializer<'de>>(
        method: &str,
        params: Option<D>,
    ) -> Result<Self, D::Error> {
        if M::Request::has_method(method) {
            M::Request::from_params(method, params).map(Call::Request)
        } else if M::Notification::has_method(method) {
            M::Notification::from_params(method, params).map(Call::Notification)
        } else {
            Err(D::Error::custom(format_args!("unknown method `{method}`")))
        }
    }
}

struct FastResultSeed<R>(PhantomData<R>);

impl<'de, R: FastResult> DeserializeSeed<'de> for FastResultSeed<R> {
    type Value = R;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<R, D::Error> {
        struct V<R>(PhantomData<R>);
        impl<'de, R: FastResult> Visitor<'de> for V<R> {
            type Value = R;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a result object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<R, A::Error> {
                R::decode_fast(map)?
                    .ok_or_else(|| A::Error::custom("no member decides the result type"))
            }
        }
        deserializer.deserialize_map(V(PhantomData))
    }
}

/// Decodes a result with the schema's full `anyOf` semantics, except for the one fallback that
/// would hide an error: where the generic result accepts any object (and would keep everything
/// in its `extra`), a result carrying a member that only one result type declares
/// (`action` → `ElicitResult`) but that this type refuses is an error (that type's), never the
/// generic result. A specific type that accepts the result is taken.
///
/// It reads the result's JSON text (`object`) with the decoders of text input, so that no copy
/// of them is compiled for a buffered object.
fn decode_result<R: FastResult>(object: &str) -> Result<R, serde_json::Error> {
    struct Decided<R>(PhantomData<R>);
    impl<'de, R: FastResult> Visitor<'de> for Decided<R> {
        type Value = Option<R>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a result object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<R>, A::Error> {
            R::decode_fast(map)
        }
    }
    let full: R = replay(object, PhantomData)?;
    // The generic result is the variant an empty object decodes into. Where none does (the
    // generic result of 2026-07-28 requires `resultType`), the full semantics alone decide.
    let Ok(generic) = replay::<PhantomData<R>>("{}", PhantomData) else {
        return Ok(full);
    };
    // A result a specific type accepts costs no second decode.
    if std::mem::discriminant(&generic) != std::mem::discriminant(&full) {
        return Ok(full);
    }
    // Taken as the generic result: the type its deciding member names has the last word.
    let decided =
        serde_json::Deserializer::from_str(object).deserialize_map(Decided::<R>(PhantomData));
    match decided.map_err(lose_position) {
        Ok(Some(result)) => Ok(result),
        Ok(None) => Ok(full),
        Err(error) => Err(error),
    }
}

const BATCH_UNSUPPORTED: &str =
    "not a JSON-RPC message: a batch (array); only revision 2025-03-26 has batches";
const BATCH_EMPTY: &str = "an empty batch (JSON-RPC 2.0 requires at least one message)";
const BATCH_MIXED: &str =
    "a batch holds requests and notifications, or responses, not both (2025-03-26 `JSONRPCBatchRequest` / `JSONRPCBatchResponse`)";

/// Why an array is not a batch of direction `M`: the first member that is not a message, with
/// the member's index prefixed to its path (`/2/params/name`) and its `id`.
///
/// Generic, unlike [`diagnose`]: for the directions without batches (all but 2025-03-26) the
/// compiler drops everything after the first test.
fn diagnose_batch<M: Direction>(text: &str, items: &[Value], fallback: &str) -> DecodeError {
    let invalid = |message: &str, path: Option<String>| DecodeError {
        path,
        ..DecodeError::new(DecodeErrorKind::InvalidRequest, message)
    };
    if !M::BATCHES {
        return invalid(BATCH_UNSUPPORTED, None);
    }
    if items.is_empty() {
        return invalid(BATCH_EMPTY, None);
    }
    // The text of each member, for the decoder; `items` are the same members, parsed.
    let texts: Vec<&RawValue> = match serde_json::from_str(text) {
        Ok(texts) => texts,
        Err(error) => return invalid(&without_position(&error), None),
    };
    for (index, (item, text)) in items.iter().zip(texts).enumerate() {
        if item.is_array() {
            return invalid("a batch cannot hold a batch", Some(format!("/{index}")));
        }
        if let Err(error) = full_semantics::<M>(text.get()) {
            let probe = &Probes::<M>(PhantomData);
            let mut error = diagnose(probe, text.get(), item, &without_position(&error));
            error.path = Some(format!("/{index}{}", error.path.as_deref().unwrap_or("")));
            // The whole batch is refused, and a batch of calls is answered even when the
            // member at fault is a notification (a batch of responses is not answered).
            error.notification = false;
            return error;
        }
    }
    if fallback.contains(BATCH_MIXED) {
        return invalid(BATCH_MIXED, None);
    }
    invalid(fallback, None)
}

/// What the diagnosis asks of a direction's types. The diagnosis itself is compiled once, not
/// once per direction: only these probes are.
trait Probe {
    /// Diagnoses a batch, whose members are `items` (parsed) in `text`.
    fn diagnose_batch(&self, text: &str, items: &[Value], fallback: &str) -> DecodeError;
    /// Whether the direction sends responses.
    fn responds(&self) -> bool;
    /// Whether `method` names a request.
    fn is_request(&self, method: &str) -> bool;
    /// Whether `method` names a notification.
    fn is_notification(&self, method: &str) -> bool;
    /// Decodes the `params` (text) of the request or notification `method`: the error's
    /// message and the pointer below `params`.
    fn check_params(
        &self,
        request: bool,
        method: &str,
        params: Option<&str>,
    ) -> Result<(), (String, String)>;
    /// Decodes a `result`, as the full semantics would and then as the fast path did.
    fn check_result(&self, result: &str) -> Result<(), (String, String)>;
    /// Decodes an `error` object.
    fn check_error(&self, error: &str) -> Result<(), (String, String)>;
}

/// The [`Probe`] of direction `M`.
struct Probes<M>(PhantomData<M>);

impl<M: Direction> Probe for Probes<M> {
    fn diagnose_batch(&self, text: &str, items: &[Value], fallback: &str) -> DecodeError {
        diagnose_batch::<M>(text, items, fallback)
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
        fn check<C: Calls>(method: &str, params: Option<&str>) -> Result<(), (String, String)> {
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
            |d| <M::Result as de::Deserialize>::deserialize(d).map(drop),
            result,
        )
        .and_then(|()| match decode_result::<M::Result>(result) {
            Ok(_) => Ok(()),
            // Refused by the type its deciding member names: that type's error and path.
            Err(_) => path_error(
                |d| {
                    FastResultSeed::<M::Result>(PhantomData)
                        .deserialize(d)
                        .map(drop)
                },
                result,
            ),
        })
    }
    fn check_error(&self, error: &str) -> Result<(), (String, String)> {
        path_error(
            |d| <M::Error as de::Deserialize>::deserialize(d).map(drop),
            error,
        )
    }
}

/// Says in JSON-RPC terms why `text` (parsed: `value`) is not a message of the direction that
/// `probe` stands for (`fallback`: what the decoder said, for a problem the checks below do not
/// name).
fn diagnose(probe: &dyn Probe, text: &str, value: &Value, fallback: &str) -> DecodeError {
    use DecodeErrorKind::*;
    if let Value::Array(items) = value {
        return probe.diagnose_batch(text, items, fallback);
    }
    let Some(object) = value.as_object() else {
        return DecodeError::new(InvalidRequest, "not a JSON-RPC message: not an object");
    };
    let id = object
        .get("id")
        .filter(|id| id.is_string() || id.as_i64().is_some())
        .cloned();
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let error = |kind, message: String, path: Option<String>| DecodeError {
        kind,
        message,
        id: id.clone(),
        method: method.clone(),
        path,
        notification: false,
        response: false,
    };
    if object.get("jsonrpc") != Some(&Value::from("2.0")) {
        return error(
            InvalidRequest,
            "`jsonrpc` must be \"2.0\"".into(),
            Some("/jsonrpc".into()),
        );
    }
    if let Some(bad) = object
        .get("id")
        .filter(|v| !(v.is_string() || v.as_i64().is_some() || v.is_null()))
    {
        return error(
            InvalidRequest,
            format!("`id` must be a string or an integer, found {bad}"),
            Some("/id".into()),
        );
    }
    let allowed = ["jsonrpc", "id", "method", "params", "result", "error"];
    if let Some(key) = object.keys().find(|k| !allowed.contains(&k.as_str())) {
        return error(
            InvalidRequest,
            format!("unknown member `{key}`"),
            Some(format!("/{key}")),
        );
    }
    let present = |k: &str| object.contains_key(k);
    // The members' text, for the decoder (of a member twice, the last, as in `object`).
    let members: std::collections::BTreeMap<String, &RawValue> =
        serde_json::from_str(text).unwrap_or_default();
    let member = |k: &str| members.get(k).map(|raw| raw.get());
    let mut refused = match (present("method"), present("result"), present("error")) {
        (true, false, false) => {
            let Some(name) = method.as_deref() else {
                return error(
                    InvalidRequest,
                    "`method` must be a string".into(),
                    Some("/method".into()),
                );
            };
            let has_id = present("id");
            // Everything refused from here on was framed as a request or, without an `id`
            // member, as a notification, which JSON-RPC never answers.
            let diagnose_call = || {
                let is_request = probe.is_request(name);
                let is_notification = probe.is_notification(name);
                if has_id && object["id"].is_null() {
                    return error(
                        InvalidRequest,
                        "a request `id` must not be null".into(),
                        Some("/id".into()),
                    );
                }
                if (has_id && !is_request) || (!has_id && !is_notification) {
                    if is_request || is_notification {
                        let (needs, kind) = if is_request {
                            ("needs an `id`", "request")
                        } else {
                            ("has no `id`", "notification")
                        };
                        return error(
                            InvalidRequest,
                            format!("`{name}` is a {kind}: it {needs}"),
                            Some("/id".into()),
                        );
                    }
                    return error(
                        MethodNotFound,
                        format!("method not found: `{name}`"),
                        Some("/method".into()),
                    );
                }
                match probe.check_params(is_request, name, member("params")) {
                    Err((message, path)) => error(
                        InvalidParams,
                        format!("invalid params for `{name}`: {message}"),
                        Some(format!("/params{path}")),
                    ),
                    Ok(()) => error(InvalidRequest, fallback.to_owned(), None),
                }
            };
            let mut refused = diagnose_call();
            refused.notification = !has_id;
            refused
        }
        (false, true, false) if probe.responds() => {
            match member("result").map(|r| probe.check_result(r)) {
                Some(Err((message, path))) => error(
                    InvalidResponse,
                    format!("invalid result: {message}"),
                    Some(format!("/result{path}")),
                ),
                _ if !present("id") || object["id"].is_null() => error(
                    InvalidRequest,
                    "a response needs the `id` of its request".into(),
                    Some("/id".into()),
                ),
                _ => error(InvalidRequest, fallback.to_owned(), None),
            }
        }
        (false, false, true) if probe.responds() => {
            match member("error").map(|e| probe.check_error(e)) {
                Some(Err((message, path))) => error(
                    InvalidResponse,
                    format!("invalid error object: {message}"),
                    Some(format!("/error{path}")),
                ),
                _ => error(InvalidRequest, fallback.to_owned(), None),
            }
        }
        (false, true, true) => error(
            InvalidRequest,
            "a response has either `result` or `error`, not both".into(),
            None,
        ),
        (false, false, false) => error(
            InvalidRequest,
            "no `method`, `result` or `error`".into(),
            None,
        ),
        (false, _, _) => error(
            InvalidRequest,
            "this side sends no responses in this revision".into(),
            None,
        ),
        (true, _, _) => error(
            InvalidRequest,
            "a message with `method` has no `result` or `error`".into(),
            None,
        ),
    };
    // Framed as a response: answering it could start two peers answering each other's errors.
    refused.response = !present("method") && (present("result") || present("error"));
    refused
}

/// Runs a decode of `text` with path tracking: the error message and the JSON pointer (below
/// `text`'s value) of the member it stopped at.
pub(crate) fn path_error<'a, T>(
    decode: impl FnOnce(&mut serde_json::Deserializer<StrRead<'a>>) -> Result<T, serde_json::Error>,
    text: &'a str,
) -> Result<T, (String, String)> {
    let mut de = serde_json::Deserializer::from_str(text);
    crate::error_path::tracked(|| decode(&mut de))
        .map_err(|(error, pointer)| (without_position(&error), pointer))
}

/// Any JSON-RPC 2.0 message, with `params`, `result` and `error` left as raw JSON: for extension
/// methods (`com.example/frobnicate`) and for routing before decoding. Borrows from the text.
///
/// ```
/// use mcp_typed::jsonrpc::RawMessage;
///
/// let text = r#"{"jsonrpc":"2.0","id":7,"method":"com.example/frobnicate","params":{"level":11}}"#;
/// let raw = RawMessage::parse(text).unwrap();
/// assert_eq!(raw.method.as_deref(), Some("com.example/frobnicate"));
/// assert_eq!(raw.id, Some(serde_json::json!(7)));
/// // Decode the params into the extension's own type (here a `Value`).
/// let params: serde_json::Value = serde_json::from_str(raw.params.unwrap().get()).unwrap();
/// assert_eq!(params["level"], 11);
/// assert_eq!(serde_json::to_string(&raw).unwrap(), text);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RawMessage<'a> {
    /// The `id`: a string or an integer (`null` only on error responses).
    pub id: Option<Value>,
    /// The `method`.
    pub method: Option<std::borrow::Cow<'a, str>>,
    /// The `params`, unparsed.
    pub params: Option<&'a RawValue>,
    /// The `result`, unparsed.
    pub result: Option<&'a RawValue>,
    /// The `error`, unparsed.
    pub error: Option<&'a RawValue>,
}

impl<'a> RawMessage<'a> {
    /// Reads the framing of a message: `jsonrpc` must be `"2.0"`, `id` a string, an integer or
    /// `null`, and nothing else may be at the top level; the rest is left raw.
    pub fn parse(text: &'a str) -> Result<Self, DecodeError> {
        serde_json::from_str(text).map_err(|e| {
            let kind = if e.is_syntax() || e.is_eof() {
                DecodeErrorKind::Parse
            } else {
                DecodeErrorKind::InvalidRequest
            };
            DecodeError::new(kind, e.to_string())
        })
    }
}

impl<'de: 'a, 'a> de::Deserialize<'de> for RawMessage<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RawVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for RawVisitor<'a> {
            type Value = RawMessage<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC 2.0 message object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMessage<'a>, A::Error> {
                let mut out = RawMessage::default();
                let mut jsonrpc = false;
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    match key.as_str() {
                        "jsonrpc" => {
                            let version: Key<'de> = map.next_value()?;
                            if jsonrpc || version.as_str() != "2.0" {
                                return Err(A::Error::custom("`jsonrpc` must be \"2.0\" (once)"));
                            }
                            jsonrpc = true;
                        }
                        "id" => {
                            let id: Value = map.next_value()?;
                            if !(id.is_string() || id.as_i64().is_some() || id.is_null())
                                || out.id.is_some()
                            {
                                return Err(A::Error::custom(
                                    "`id` must be a string, an integer or null (once)",
                                ));
                            }
                            out.id = Some(id);
                        }
                        "method" => out.method = Some(map.next_value::<Key<'de>>()?.0),
                        "params" => out.params = Some(map.next_value()?),
                        "result" => out.result = Some(map.next_value()?),
                        "error" => out.error = Some(map.next_value()?),
                        other => {
                            return Err(A::Error::unknown_field(
                                other,
                                &["jsonrpc", "id", "method", "params", "result", "error"],
                            ))
                        }
                    }
                }
                if !jsonrpc {
                    return Err(A::Error::missing_field("jsonrpc"));
                }
                Ok(out)
            }
        }
        deserializer.deserialize_map(RawVisitor(PhantomData))
    }
}

impl serde::Serialize for RawMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        if let Some(method) = &self.method {
            map.serialize_entry("method", method)?;
        }
        for (key, value) in [
            ("params", self.params),
            ("result", self.result),
            ("error", self.error),
        ] {
            if let Some(value) = value {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}
