//! JSON-RPC 2.0 framing shared by every revision: error codes, [`DecodeError`], the [`Request`]
//! trait, [`RawMessage`] (the framing alone) and [`CallMessage`] (requests and notifications
//! over message enums of your own).
//!
//! Decoding reads the members of a message once, in whatever order they come. As soon as
//! `method` is known, `params` is decoded straight into that method's params type; `params`
//! that come before `method` are captured raw (`RawValue`) and decoded once the method is known.
//! Results are streamed into the result type their first deciding member names (a member that
//! only one result type declares: `content` → `CallToolResult`, `tools` → `ListToolsResult`),
//! buffering only the members before it. That type has the last word: a result it refuses is
//! refused, though another type (the generic result, which takes any object) might hold it. A
//! result without a deciding member is matched against each result type, the schema's
//! `anyOf`. Every entry point decodes in this one pass, `FromStr` and serde's `Deserialize`
//! alike, so they give the same message for the same text; a `serde_json::Value` holds its
//! members sorted by name (unless serde_json's `preserve_order` is on), and its first deciding
//! member is the first in that order. When a message is refused, [`DecodeError`] says why in
//! JSON-RPC terms.

// What users call, and only that. The decoder described above (`ClientMessage::from_str`,
// `Deserialize`) is runtime that the generated code calls: `crate::__private::codec`, with the
// diagnosis of a refusal beside it (`crate::__private::diagnosis`), which build the
// `DecodeError` below; `NoCalls` is re-exported from there.
mod raw;
// Requests and notifications over message enums of the user's own (an extension's).
mod call_message;

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use crate::__private::codec::NoCalls;
pub use call_message::{CallMessage, NoResult};
pub use raw::RawMessage;

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
/// it carries (its borrowed form: `mcp_typed::borrowed::RequestRef`, feature `borrowed`). Lets
/// a client decode a response as the result of the request it sent:
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
    /// The result type of a successful response. Every generated type is also
    /// [`Validate`](crate::__private::Validate) (public as `mcp_typed::validate::Validate` with
    /// the feature `elicit`), so generic code can check a result's constraint keywords.
    type Result: DeserializeOwned + serde::Serialize + crate::__private::Validate;
}

/// Code generic over [`Request`], run for a method known only at run time: each request call
/// set's `visit_method` (`ClientRequest::visit_method("tools/call", visitor)`) calls
/// [`visit`](Self::visit) with the request type of that method (`CallToolRequest`). A proxy or
/// a checker that pairs a response with the method of its request decodes the response's
/// result as that method's result type this way:
///
/// ```
/// # #[cfg(feature = "v2025_11_25")] {
/// use mcp_typed::jsonrpc::{decode_result, DecodeError, Request, VisitRequest};
/// use mcp_typed::v2025_11_25::ClientRequest;
///
/// /// The result's text, decoded as the result of the visited request and printed back.
/// struct Reencode<'a>(&'a str);
/// impl VisitRequest for Reencode<'_> {
///     type Output = Result<String, DecodeError>;
///     fn visit<R: Request>(self) -> Self::Output {
///         let result = decode_result::<R::Result>(self.0)?;
///         Ok(serde_json::to_string(&result).expect("encodes"))
///     }
/// }
/// let text = r#"{"tools":[{"inputSchema":{"type":"object"},"name":"add"}]}"#;
/// let again = ClientRequest::visit_method("tools/list", Reencode(text)).unwrap()?;
/// assert_eq!(again, text);
/// // A `tools/call` result must have `content`: the tools/list result is not one.
/// let wrong = ClientRequest::visit_method("tools/call", Reencode(text)).unwrap();
/// assert_eq!(wrong.unwrap_err().path(), Some("/result"));
/// assert!(ClientRequest::visit_method("no/such", Reencode(text)).is_none());
/// # }
/// # Ok::<(), mcp_typed::jsonrpc::DecodeError>(())
/// ```
pub trait VisitRequest {
    /// What the visit gives back.
    type Output;
    /// Runs with `R`, the request type of the method visited.
    fn visit<R: Request>(self) -> Self::Output;
}

/// Decodes the text of a successful response's `result` as `T` (a request's
/// [`Request::Result`], found by the method of the request it answers), with the diagnosis of a
/// message: an [`InvalidResponse`](DecodeErrorKind::InvalidResponse) error whose
/// [`path`](DecodeError::path) points below `/result` at the first member that does not fit.
pub fn decode_result<T: DeserializeOwned>(result: &str) -> Result<T, DecodeError> {
    crate::__private::codec::result_from_str(result)
}

/// Code generic over a type, run for a type known only at run time: each revision's
/// `visit_error_code(code, visitor)` calls [`visit`](Self::visit) with the type of the error
/// response its schema defines for `code` (2025-11-25: `-32042` →
/// `UrlElicitationRequiredError`, whose `data` lists the elicitations), which
/// [`decode_error_response`] decodes.
pub trait VisitType {
    /// What the visit gives back.
    type Output;
    /// Runs with `T`, the type visited.
    fn visit<T: DeserializeOwned + serde::Serialize + crate::__private::Validate>(
        self,
    ) -> Self::Output;
}

/// Decodes the text of a whole error response as `T` (the type `visit_error_code` visits), an
/// [`InvalidResponse`](DecodeErrorKind::InvalidResponse) error with the pointer of the first
/// member that does not fit.
pub fn decode_error_response<T: DeserializeOwned>(message: &str) -> Result<T, DecodeError> {
    crate::__private::codec::typed_from_str(message, "")
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
    // Built by the codec and the diagnosis, in `crate::__private`.
    pub(crate) kind: DecodeErrorKind,
    pub(crate) message: String,
    pub(crate) id: Option<Value>,
    pub(crate) method: Option<String>,
    pub(crate) path: Option<String>,
    pub(crate) notification: bool,
    pub(crate) response: bool,
}

impl DecodeError {
    pub(crate) fn new(kind: DecodeErrorKind, message: impl Into<String>) -> Self {
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
