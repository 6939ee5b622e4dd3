//! [`CallMessage`]: JSON-RPC requests and notifications over message enums of your own.

use std::str::FromStr;

use serde::de::{DeserializeOwned, Error as _, MapAccess};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::DecodeError;
use crate::__private::codec::{
    self, Calls, CallsDecode, DecodeResult, Direction, NoCalls, Parts, PartsRef,
};

/// A request or a notification whose method is one of `R` (requests) or `N` (notifications):
/// the message enums `mcp_codegen::Config::message_enum` generates for an extension's schema
/// (or the revisions' own `ClientRequest`, …), decoded with the dispatch on `method` and the
/// JSON-RPC errors of the core `ClientMessage`. `Id` is the `id` type (a revision's
/// `RequestId`); `N` defaults to [`NoCalls`] (no notifications). A response is not a
/// `CallMessage`: it is refused, as a message of a side that sends none.
///
/// ```
/// # #[cfg(feature = "v2025_11_25")] {
/// use mcp_typed::jsonrpc::{CallMessage, INVALID_PARAMS, METHOD_NOT_FOUND};
/// use mcp_typed::v2025_11_25::{ClientNotification, ClientRequest, RequestId};
///
/// type Message = CallMessage<RequestId, ClientRequest, ClientNotification>;
/// let ping: Message = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.parse()?;
/// assert!(matches!(ping, Message::Request { request: ClientRequest::Ping(_), .. }));
///
/// let bad = r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}"#.parse::<Message>();
/// assert_eq!(bad.as_ref().unwrap_err().code(), INVALID_PARAMS);
/// let unknown = r#"{"jsonrpc":"2.0","id":9,"method":"ui/nothing"}"#.parse::<Message>();
/// let reply = unknown.unwrap_err().to_reply().expect("a request is answered");
/// assert_eq!(reply["error"]["code"], METHOD_NOT_FOUND);
/// assert_eq!(reply["id"], 9);
/// # }
/// # Ok::<(), mcp_typed::jsonrpc::DecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum CallMessage<Id, R, N = NoCalls> {
    /// A request: its id and its method with params.
    Request {
        /// The request's `id`.
        id: Id,
        /// The method and its params.
        request: R,
    },
    /// A notification.
    Notification(N),
}

impl<Id, R, N> CallMessage<Id, R, N>
where
    Id: DeserializeOwned + Serialize,
    R: for<'x> CallsDecode<'x>,
    N: for<'x> CallsDecode<'x>,
{
    /// Decodes a message from a parsed JSON value, with errors in JSON-RPC terms.
    pub fn from_value(value: Value) -> Result<Self, DecodeError> {
        codec::from_value(value)
    }
}

impl<Id, R, N> FromStr for CallMessage<Id, R, N>
where
    Id: DeserializeOwned + Serialize,
    R: for<'x> CallsDecode<'x>,
    N: for<'x> CallsDecode<'x>,
{
    type Err = DecodeError;
    fn from_str(text: &str) -> Result<Self, DecodeError> {
        codec::from_str(text)
    }
}

impl<Id, R, N> Serialize for CallMessage<Id, R, N>
where
    Id: DeserializeOwned + Serialize,
    R: for<'x> CallsDecode<'x>,
    N: for<'x> CallsDecode<'x>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        codec::serialize(self, serializer)
    }
}

impl<'de, Id, R, N> Deserialize<'de> for CallMessage<Id, R, N>
where
    Id: Deserialize<'de> + Serialize,
    R: CallsDecode<'de>,
    N: CallsDecode<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        codec::deserialize(deserializer)
    }
}

impl<Id, R, N> Direction for CallMessage<Id, R, N>
where
    Id: Serialize,
    R: Calls,
    N: Calls,
{
    type Id = Id;
    type Request = R;
    type Notification = N;
    type Result = NoResult;
    type Error = Value;
    const RESPONDS: bool = false;
    const BATCHES: bool = false;
    fn build(parts: Parts<Self>) -> Option<Self> {
        match parts {
            Parts::Request(id, request) => Some(Self::Request { id, request }),
            Parts::Notification(notification) => Some(Self::Notification(notification)),
            Parts::Response(..) | Parts::Error(..) | Parts::Batch(_) => None,
        }
    }
    fn parts(&self) -> PartsRef<'_, Self> {
        match self {
            Self::Request { id, request } => PartsRef::Request(id, request),
            Self::Notification(notification) => PartsRef::Notification(notification),
        }
    }
}

/// The results of a [`CallMessage`]: there are none (it carries no responses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoResult {}

impl Serialize for NoResult {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl<'de> Deserialize<'de> for NoResult {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(D::Error::custom("a call message carries no result"))
    }
}

impl<'de> DecodeResult<'de> for NoResult {
    fn decode_result<A: MapAccess<'de>>(_: A) -> Result<Self, A::Error> {
        Err(A::Error::custom("a call message carries no result"))
    }
}
