//! The protocol revisions a message can belong to, and decoding a message with the generated
//! types of one of them.

use std::borrow::Cow;
use std::fmt;

use mcp_typed::__private::check::{Judged, ResultType};
use mcp_typed::borrowed::{RequestRef, VisitRequestRef};
use mcp_typed::jsonrpc::{
    decode_error_response, decode_result, DecodeError, DecodeErrorKind, VisitType,
};
use mcp_typed::validate::{Keyword, Validate};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::facts::{self, Facts, Shape};

/// A released protocol revision, whose generated types check its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Revision {
    /// `2024-11-05`.
    V2024_11_05,
    /// `2025-03-26`.
    V2025_03_26,
    /// `2025-06-18`.
    V2025_06_18,
    /// `2025-11-25`.
    V2025_11_25,
    /// `2026-07-28`.
    V2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The revision whose protocol version string is `version` (`"2025-11-25"`).
    pub fn from_version(version: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.version() == version)
    }

    /// Its protocol version string.
    pub fn version(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether a conversation opens with `initialize` (every revision before 2026-07-28, whose
    /// requests each state their version, capabilities and client in `_meta`).
    pub fn has_initialize(self) -> bool {
        self < Revision::V2026_07_28
    }

    /// Whether its results carry `resultType`, which decides the type a result is checked as
    /// ([`result_as`]) and whose absence is reported: 2026-07-28's. The only revision whose
    /// results' `resultType` is read.
    pub fn has_result_type(self) -> bool {
        self == Revision::V2026_07_28
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.version())
    }
}

impl std::str::FromStr for Revision {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Revision::from_version(text).ok_or_else(|| {
            let known: Vec<&str> = Revision::ALL.iter().map(|r| r.version()).collect();
            format!("unknown revision `{text}` (known: {})", known.join(", "))
        })
    }
}

/// Who sent a message (`--from client|server` on the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Side {
    /// The client: its requests, notifications, and answers to the server's requests.
    Client,
    /// The server.
    Server,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }

    /// `client` or `server`, as records and JSON reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }

    /// `client→server` or `server→client`.
    pub fn arrow(self) -> &'static str {
        match self {
            Side::Client => "client→server",
            Side::Server => "server→client",
        }
    }
}

/// One problem with a message: where, which rule, and what the schema asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer (RFC 6901) into the message; empty for the message as a whole.
    pub pointer: String,
    /// The rule broken: a JSON Schema keyword (`maximum`, `format`, …) or, for what the
    /// message's shape breaks, `json`, `jsonrpc`, `method`, `params` or `result`.
    pub keyword: String,
    /// What was expected, in words.
    pub expected: String,
}

impl Violation {
    /// The violation a decoding error stands for.
    pub fn from_decode_error(error: &DecodeError) -> Violation {
        let keyword = match error.kind() {
            DecodeErrorKind::Parse => "json",
            DecodeErrorKind::InvalidRequest => "jsonrpc",
            DecodeErrorKind::MethodNotFound => "method",
            DecodeErrorKind::InvalidParams => "params",
            DecodeErrorKind::InvalidResponse => "result",
        };
        Violation {
            pointer: error.path().unwrap_or_default().to_owned(),
            keyword: keyword.to_owned(),
            expected: error.message().to_owned(),
        }
    }
}

/// Runs `$body` with `$m` naming the generated module of `$revision` (`mcp_typed::v2025_11_25`
/// …); with `2026 => $last`, 2026-07-28's arm is `$last` instead (what that revision lacks:
/// its server sends no requests).
macro_rules! in_revision {
    ($revision:expr, $m:ident => $body:expr) => {
        in_revision!($revision, $m => $body, 2026 => {
            use mcp_typed::v2026_07_28 as $m;
            $body
        })
    };
    ($revision:expr, $m:ident => $body:expr, 2026 => $last:expr) => {
        match $revision {
            Revision::V2024_11_05 => {
                use mcp_typed::v2024_11_05 as $m;
                $body
            }
            Revision::V2025_03_26 => {
                use mcp_typed::v2025_03_26 as $m;
                $body
            }
            Revision::V2025_06_18 => {
                use mcp_typed::v2025_06_18 as $m;
                $body
            }
            Revision::V2025_11_25 => {
                use mcp_typed::v2025_11_25 as $m;
                $body
            }
            Revision::V2026_07_28 => $last,
        }
    };
}

/// Checks the message `text` as one `side` sends in `revision`: decoded as the generated
/// `ClientMessage` or `ServerMessage` (`Err` when it is not one), then validated against the
/// constraint keywords of its schema (`Ok` with what it breaks). Decoded by the borrowed family
/// ([`decode_lent`]); the owned types decode only what it refuses, to say why.
pub fn decode(revision: Revision, side: Side, text: &str) -> Result<Vec<Violation>, DecodeError> {
    if let Some(violations) = decode_lent(revision, side, text) {
        return Ok(violations);
    }
    in_revision!(revision, m => match side {
        Side::Client => text.parse::<m::ClientMessage>().map(|m| constraints(&m)),
        Side::Server => text.parse::<m::ServerMessage>().map(|m| constraints(&m)),
    })
}

/// Whether `revision` defines `method`: a request or notification either side sends, or (in
/// 2026-07-28, which has no server requests) one of the input requests a result carries. A
/// message of any other method (an extension's, a vendor's) is checked as the conformance suite
/// checks it: as a JSON-RPC envelope ([`decode_envelope`]).
pub fn defines(revision: Revision, method: &str) -> bool {
    let wire = |sets: &[&[&str]]| sets.iter().any(|set| set.contains(&method));
    in_revision!(revision, m => wire(&[
        m::ClientRequest::METHODS,
        m::ClientNotification::METHODS,
        m::ServerRequest::METHODS,
        m::ServerNotification::METHODS,
    ]), 2026 => {
        use mcp_typed::v2026_07_28 as m;
        wire(&[
            m::ClientRequest::METHODS,
            m::ClientNotification::METHODS,
            m::ServerNotification::METHODS,
            &[
                m::CreateMessageRequest::METHOD,
                m::ListRootsRequest::METHOD,
                m::ElicitRequest::METHOD,
            ],
        ])
    })
}

/// Checks a request (`request`) or notification of a method `revision` does not define as the
/// revision's JSON-RPC envelope (`JSONRPCRequest`, `JSONRPCNotification`), as the conformance
/// suite does: what it breaks.
pub fn decode_envelope(revision: Revision, request: bool, text: &str) -> Vec<Violation> {
    fn envelope<T: DeserializeOwned + Validate>(text: &str) -> Vec<Violation> {
        // Decodes a whole message as `T`, with the pointer of the first member that does not
        // fit (named for error responses, the type it is usually given).
        match decode_error_response::<T>(text) {
            Ok(envelope) => constraints(&envelope),
            Err(error) => vec![Violation {
                keyword: "jsonrpc".to_owned(),
                ..Violation::from_decode_error(&error)
            }],
        }
    }
    in_revision!(revision, m => if request {
        envelope::<m::JsonRpcRequest>(text)
    } else {
        envelope::<m::JsonRpcNotification>(text)
    })
}

/// [`decode`] without the diagnosis: the message decoded by the borrowed family
/// (`ClientMessageRef<'de>`, which takes what the owned types take, without copying the
/// message's strings) and validated; `None`, undiagnosed, when it does not decode ([`decode`]
/// says why).
pub fn decode_lent(revision: Revision, side: Side, text: &str) -> Option<Vec<Violation>> {
    if judge(revision, side, text).is_some() {
        return Some(Vec::new());
    }
    in_revision!(revision, m => match side {
        Side::Client => serde_json::from_str::<m::borrowed::ClientMessageRef>(text)
            .ok()
            .map(|m| constraints(&m)),
        Side::Server => serde_json::from_str::<m::borrowed::ServerMessageRef>(text)
            .ok()
            .map(|m| constraints(&m)),
    })
}

/// The verdict path's judgement of the message `text` as `side` sends it in `revision` (the
/// generated `__verdict`, which reads it without building it): what it is when it decodes and
/// breaks nothing; `None` says nothing (decode it to see).
pub(crate) fn judge(revision: Revision, side: Side, text: &str) -> Option<Judged<'_>> {
    in_revision!(revision, m => match side {
        Side::Client => m::__verdict::client_message(text),
        Side::Server => m::__verdict::server_message(text),
    })
}

/// A request id's JSON text as the generated `RequestId` of `revision` reads it (`1.0` is the
/// integer `1`), written as a `Value`: the id a response names is matched by.
fn request_id(revision: Revision, text: &str) -> Option<Value> {
    in_revision!(revision, m => serde_json::from_str::<m::RequestId>(text)
        .ok()
        .and_then(|id| serde_json::to_value(id).ok()))
}

/// A request or notification, decoded: its method, its id, and what it breaks.
#[derive(Debug)]
pub struct Sent {
    /// Its method.
    pub method: &'static str,
    /// A request's id.
    pub id: Option<Value>,
    /// The known revision a 2026-07-28 request names in its `_meta` (read from what was
    /// decoded; `None` in the other revisions, whose requests name none).
    pub stated: Option<Revision>,
    /// What it breaks of its schema's constraint keywords.
    pub violations: Vec<Violation>,
}

/// Decodes `text` as a request or notification that `side` sends in `revision` (as
/// [`decode_lent`] does): `Some(Ok(…))` when it is one, `Some(Err(()))` when it decodes as
/// something else (a response, an error, a batch), `None` when it does not decode. The caller
/// reads the last two by their framing, which says why. Judged by the verdict path (`judge`)
/// first; the borrowed family decodes what that does not pass.
pub fn decode_sent(revision: Revision, side: Side, text: &str) -> Option<Result<Sent, ()>> {
    if let Some(judged) = judge(revision, side, text) {
        let (method, id) = match judged {
            Judged::Request { method, id } => (method, Some(request_id(revision, id)?)),
            Judged::Notification { method } => (method, None),
            Judged::Response | Judged::Error => return Some(Err(())),
        };
        // A 2026-07-28 request names its revision in its `_meta`.
        let stated = (id.is_some() && !revision.has_initialize())
            .then(|| facts::stated_version_of_passed(text))
            .flatten()
            .and_then(|version| Revision::from_version(&version));
        return Some(Ok(Sent {
            method,
            id,
            stated,
            violations: Vec::new(),
        }));
    }
    sent_lent(revision, side, text)
}

/// [`decode_sent`] by the borrowed family, which also says what a message breaks.
fn sent_lent(revision: Revision, side: Side, text: &str) -> Option<Result<Sent, ()>> {
    /// The method and id of a decoded message of type `$message`, when a request or a
    /// notification.
    macro_rules! sent {
        ($m:ident :: $message:ident) => {
            sent!($m::$message, |_| None)
        };
        ($m:ident :: $message:ident, $stated:expr) => {{
            // `serde_json` decodes as `parse` does, without diagnosing a refusal (the reading
            // by the framing does that), which costs as much as the decoding when the sender is
            // guessed.
            let message = serde_json::from_str::<$m::borrowed::$message>(text).ok()?;
            #[allow(unreachable_patterns)]
            let (method, id) = match &message {
                $m::borrowed::$message::Request { id, request } => {
                    let id = match id {
                        $m::borrowed::RequestIdRef::Integer(n) => Value::from(*n),
                        $m::borrowed::RequestIdRef::String(text) => Value::from(&**text),
                    };
                    (request.method(), Some((id, $stated(request))))
                }
                $m::borrowed::$message::Notification(notification) => (notification.method(), None),
                _ => return Some(Err(())),
            };
            let (id, stated) = id.unzip();
            Some(Ok(Sent {
                method,
                id,
                stated: stated.flatten(),
                violations: constraints(&message),
            }))
        }};
    }
    in_revision!(revision, m => match side {
        Side::Client => sent!(m::ClientMessageRef),
        Side::Server => sent!(m::ServerMessageRef),
    }, 2026 => {
        use mcp_typed::v2026_07_28 as m;
        match side {
            Side::Client => sent!(m::ClientMessageRef, |request: &m::borrowed::ClientRequestRef| {
                let version = &request.meta()?.io_modelcontextprotocol_protocol_version;
                Revision::from_version(version)
            }),
            // Its server sends notifications, no requests.
            Side::Server => {
                let message = serde_json::from_str::<m::borrowed::ServerMessageRef>(text).ok()?;
                let m::borrowed::ServerMessageRef::Notification(notification) = &message else {
                    return Some(Err(()));
                };
                Some(Ok(Sent {
                    method: notification.method(),
                    id: None,
                    stated: None,
                    violations: constraints(&message),
                }))
            }
        }
    })
}

/// The type a result in `revision` is checked as ([`ResultAs`]), by its `resultType` (`None`
/// when absent, `Some(None)` when no string) and, answering a request that asked for a task
/// (`task_asked`), whether it has `task` (asked only then).
pub fn result_as(
    revision: Revision,
    task_asked: bool,
    result_type: Option<Option<&str>>,
    has_task: impl FnOnce() -> bool,
) -> ResultAs {
    match revision {
        Revision::V2025_11_25 if task_asked && has_task() => ResultAs::CreateTask,
        _ if revision.has_result_type()
            && !matches!(
                result_type,
                None | Some(Some("complete" | "input_required"))
            ) =>
        {
            ResultAs::Generic
        }
        _ => ResultAs::Method,
    }
}

/// The type a result is checked as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultAs {
    /// Its request's method's result type (`tools/call` → `CallToolResult`, as the conformance
    /// suite's wire validation does).
    Method,
    /// 2025-11-25's `CreateTaskResult`: a task-augmented request (`params.task`) answered with
    /// a result that has `task`.
    CreateTask,
    /// 2026-07-28's generic `Result`: a `resultType` other than `complete` or `input_required`
    /// (an extension's: `task`).
    Generic,
}

/// Checks a result response to a request of `method` as `responder` sends it in `revision`: the
/// `result` decoded as the type [`result_as`] says, the rest of the message as the responder's
/// message envelope. `None` when the method is no request of the requester's in `revision`
/// (the caller checks it against the revision's result union instead).
pub fn decode_answer(
    revision: Revision,
    responder: Side,
    request: &Answering,
    facts: &Facts,
    text: &str,
) -> Option<Result<Vec<Violation>, DecodeError>> {
    let result = facts.result.as_deref()?;
    let checked_as = result_as(revision, request.task, facts.result_type(), || {
        facts.result_has_task()
    });
    let specific = match checked_as {
        ResultAs::CreateTask => decode_result::<mcp_typed::v2025_11_25::CreateTaskResult>(result)
            .map(|r| constraints(&r)),
        ResultAs::Generic => {
            decode_result::<mcp_typed::v2026_07_28::Result>(result).map(|r| constraints(&r))
        }
        ResultAs::Method => result_of(revision, responder.other(), &request.method, result)?,
    };
    if let Err(error) = response_envelope(revision, responder, facts, text)? {
        return Some(Err(error));
    }
    Some(specific.map(under_result))
}

/// The envelope of a result response (`jsonrpc`, `id`, no other member): the framing read it.
/// One it did not take is decoded by the responder's message type around an empty result
/// (which every revision's result union takes), so that the error is the envelope's. `None`
/// for a text that is no object.
pub fn response_envelope(
    revision: Revision,
    responder: Side,
    facts: &Facts,
    text: &str,
) -> Option<Result<(), DecodeError>> {
    if facts.framed_result {
        return Some(Ok(()));
    }
    let mut envelope: serde_json::Value = serde_json::from_str(text).ok()?;
    let members = envelope.as_object_mut()?;
    members.insert("result".to_owned(), serde_json::json!({}));
    Some(decode(revision, responder, &envelope.to_string()).map(drop))
}

/// Violations found in a result, pointed at from the message.
pub(crate) fn under_result(violations: Vec<Violation>) -> Vec<Violation> {
    (violations.into_iter())
        .map(|v| Violation {
            pointer: format!("/result{}", v.pointer),
            ..v
        })
        .collect()
}

/// What a response answers: the method of its request, and whether that asked for a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answering {
    /// The request's method (borrowed where the generated types name it).
    pub method: Cow<'static, str>,
    /// Whether the request's `params` had `task` (2025-11-25's task-augmented requests).
    pub task: bool,
}

/// The result `text` of a request `method` sent by `requester` in `revision`, decoded as that
/// method's result type and validated; `None` for a method of no request of the requester's.
/// Decoded by [`result_lent`]; the owned type decodes only what that refuses, to say why.
fn result_of(
    revision: Revision,
    requester: Side,
    method: &str,
    text: &str,
) -> Option<Result<Vec<Violation>, DecodeError>> {
    /// Decodes the result as the visited request's, a refusal diagnosed, and checks its
    /// constraints.
    struct Check<'a>(&'a str);
    impl VisitRequestRef for Check<'_> {
        type Output = Result<Vec<Violation>, DecodeError>;
        fn visit<R: RequestRef>(self) -> Self::Output {
            decode_result::<R::Result>(self.0).map(|result| constraints(&result))
        }
    }
    if let Some(violations) = result_lent(revision, requester, method, text) {
        return Some(Ok(violations));
    }
    visit_request(revision, requester, method, Check(text))
}

/// Whether the result `text` of a request `method` sent by `requester` in `revision` decodes as
/// that method's result type and keeps every constraint, judged without building it (the
/// generated verdict path, `__verdict`), with its top-level `resultType` as the judgement read
/// it (in 2026-07-28, whose results carry it; `Absent` in the others); `None` says nothing
/// ([`result_lent`] decodes it).
pub(crate) fn result_passes<'t>(
    revision: Revision,
    requester: Side,
    method: &str,
    text: &'t str,
) -> Option<ResultType<'t>> {
    use mcp_typed::__private::check::{NotingResultType, Passes};
    let passes = in_revision!(revision, m => match requester {
        Side::Client => m::__verdict::client_request_result::<Passes>(method, text),
        Side::Server => m::__verdict::server_request_result::<Passes>(method, text),
    }, 2026 => {
        use mcp_typed::v2026_07_28 as m;
        return match requester {
            Side::Client => m::__verdict::client_request_result::<NotingResultType>(method, text),
            Side::Server => None,
        }
        .flatten();
    });
    (passes == Some(true)).then_some(ResultType::Absent)
}

/// [`result_of`] without the diagnosis: the result decoded by the borrowed family (the result's
/// `…Ref<'de>` form, no copy of its strings) and validated; `None`, undiagnosed, when it does
/// not decode or the method is no request of the requester's ([`result_of`] says why).
pub(crate) fn result_lent(
    revision: Revision,
    requester: Side,
    method: &str,
    text: &str,
) -> Option<Vec<Violation>> {
    /// Decodes the result as the visited request's borrowed result and checks its constraints.
    struct Check<'a>(&'a str);
    impl VisitRequestRef for Check<'_> {
        type Output = Option<Vec<Violation>>;
        fn visit<R: RequestRef>(self) -> Self::Output {
            let result = serde_json::from_str::<R::ResultRef<'_>>(self.0).ok()?;
            Some(constraints(&result))
        }
    }
    visit_request(revision, requester, method, Check(text)).flatten()
}

/// Runs `visitor` with the request type of `method`, a request of `requester` in `revision`
/// (its result, owned and borrowed); `None` for a method of no request of the requester's.
fn visit_request<V: VisitRequestRef>(
    revision: Revision,
    requester: Side,
    method: &str,
    visitor: V,
) -> Option<V::Output> {
    in_revision!(revision, m => match requester {
        Side::Client => m::borrowed::ClientRequestRef::visit_method(method, visitor),
        Side::Server => m::borrowed::ServerRequestRef::visit_method(method, visitor),
    }, 2026 => match requester {
        Side::Client => {
            mcp_typed::v2026_07_28::borrowed::ClientRequestRef::visit_method(method, visitor)
        }
        // A 2026-07-28 server sends no requests (it asks with `input_required` results).
        Side::Server => None,
    })
}

/// Checks an error response whose code has a definition of its own in `revision` (2025-11-25:
/// `-32042`, `URLElicitationRequiredError`, whose `data` lists the elicitations) as that
/// definition; `None` for any other error (the generic error fits it).
pub fn decode_error_by_code(
    revision: Revision,
    facts: &Facts,
    text: &str,
) -> Option<Result<Vec<Violation>, DecodeError>> {
    /// Decodes the whole response as the visited type and checks its constraints.
    struct Check<'a>(&'a str);
    impl VisitType for Check<'_> {
        type Output = Result<Vec<Violation>, DecodeError>;
        fn visit<T: DeserializeOwned + Serialize + Validate>(self) -> Self::Output {
            decode_error_response::<T>(self.0).map(|response| constraints(&response))
        }
    }
    let code = facts.error_code?;
    in_revision!(revision, m => m::visit_error_code(code, Check(text)))
}

/// What the generated types take by design and the schema of `revision` refuses: decoding is
/// liberal where a peer must be (a 2026-07-28 result without `resultType` is read as
/// `"complete"`, as a client reads an older server's; an error response without `id` is taken in
/// every revision), but the referee reports it.
pub fn leniencies(revision: Revision, facts: &Facts) -> Vec<Violation> {
    let required = |pointer: &str, expected: &str| Violation {
        pointer: pointer.to_owned(),
        keyword: Keyword::Required.as_str().to_owned(),
        expected: expected.to_owned(),
    };
    match facts.shape {
        Shape::Response => missing_result_type(revision, facts.result_type())
            .into_iter()
            .collect(),
        Shape::Error if revision < Revision::V2025_11_25 && facts.id.is_none() => {
            vec![required(
                "/id",
                "`id` on an error response (optional only from 2025-11-25)",
            )]
        }
        _ => Vec::new(),
    }
}

/// What a result whose `resultType` is `result_type` (`None` when absent) breaks in
/// `revision`: a 2026-07-28 result without one, which a client reads as `"complete"`.
pub(crate) fn missing_result_type(
    revision: Revision,
    result_type: Option<Option<&str>>,
) -> Option<Violation> {
    (revision.has_result_type() && result_type.is_none()).then(|| Violation {
        pointer: "/result/resultType".to_owned(),
        keyword: Keyword::Required.as_str().to_owned(),
        expected: "`resultType`: a server of 2026-07-28 MUST include it (a client reads its \
                   absence as \"complete\")"
            .to_owned(),
    })
}

/// What `value` breaks of its schema's constraint keywords (`format`, `maximum`, …).
fn constraints(value: &impl Validate) -> Vec<Violation> {
    match value.validate() {
        Ok(()) => Vec::new(),
        Err(violations) => (violations.into_vec().into_iter())
            .map(|v| Violation {
                pointer: v.pointer,
                keyword: v.keyword.as_str().to_owned(),
                // The limit and what the message has: `maximum: 1, found 2`.
                expected: format!("{}, found {}", v.limit, v.found),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owned result type's reading of a result: what [`result_lent`] must agree with.
    fn result_owned(
        revision: Revision,
        requester: Side,
        method: &str,
        text: &str,
    ) -> Option<Vec<Violation>> {
        struct Check<'a>(&'a str);
        impl VisitRequestRef for Check<'_> {
            type Output = Option<Vec<Violation>>;
            fn visit<R: RequestRef>(self) -> Self::Output {
                let result = decode_result::<R::Result>(self.0).ok()?;
                Some(constraints(&result))
            }
        }
        visit_request(revision, requester, method, Check(text)).flatten()
    }

    /// A result's top-level `resultType` as its `Value` holds it (`None` when absent,
    /// `Some(None)` when no string).
    fn result_type_of(text: &str) -> Option<Option<String>> {
        let value: Value = serde_json::from_str(text).ok()?;
        let member = value.get("resultType")?;
        Some(member.as_str().map(str::to_owned))
    }

    /// Every 2026-07-28 result of the Python recording, paired with its request, as it is and
    /// with its `resultType` moved first, removed, no string, another string, nested or written
    /// twice: what the verdict path notes of `resultType` while it passes a result, and what
    /// `facts::result_type` reads (at an end of the text, else from the members), are what the
    /// result holds.
    #[test]
    fn the_result_type_is_noted_as_the_result_holds_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/traffic");
        let text = std::fs::read_to_string(root.join("python-sdk-2.3.0.jsonl")).unwrap();
        let mut asked = std::collections::HashMap::new();
        let (mut passed, mut compared) = (0, 0);
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            let message: Value = serde_json::from_str(line).unwrap();
            let id = message["id"].to_string();
            let version = &message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"];
            if let (Some(method), Some("2026-07-28")) =
                (message["method"].as_str(), version.as_str())
            {
                asked.insert(id, method.to_owned());
                continue;
            }
            let (Some(result), Some(method)) = (message.get("result"), asked.remove(&id)) else {
                continue;
            };
            let mut texts = vec![result.to_string()];
            let mut members = result.as_object().unwrap().clone();
            let written = members.remove("resultType");
            texts.push(Value::Object(members.clone()).to_string());
            for value in [written.unwrap_or_default(), 7.into(), "task".into()] {
                let mut first = serde_json::Map::from_iter([("resultType".to_owned(), value)]);
                first.extend(members.clone());
                texts.push(Value::Object(first).to_string());
            }
            let mut nested = members.clone();
            nested.insert("x".into(), serde_json::json!({"resultType": "complete"}));
            texts.push(Value::Object(nested).to_string());
            let whole = result.to_string();
            let twice = format!("{},\"resultType\":\"task\"}}", &whole[..whole.len() - 1]);
            for text in texts.iter().chain([&twice]) {
                let truth = result_type_of(text);
                if let Some(noted) =
                    result_passes(Revision::V2026_07_28, Side::Client, &method, text)
                {
                    let noted = match noted {
                        ResultType::Absent => None,
                        ResultType::NotAString => Some(None),
                        ResultType::String(text) => Some(Some(text.into_owned())),
                    };
                    assert_eq!(noted, truth, "{method}: {text}");
                    passed += 1;
                }
                if text != &twice {
                    let read = facts::result_type(text);
                    assert_eq!(read.map(|t| t.map(String::from)), truth, "{text}");
                }
                compared += 1;
            }
        }
        assert!(compared > 100, "{compared} results compared");
        assert!(passed > 20, "{passed} of {compared} passed");
    }

    /// Every result of the recorded traffic (2025-11-25), as it is and with a constraint broken
    /// or a member of the wrong type where it has one: the borrowed and the owned result types
    /// take and refuse the same, and find the same violations.
    #[test]
    fn the_borrowed_and_owned_results_agree_on_the_recordings() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/traffic");
        let (mut compared, mut refused, mut broken) = (0, 0, 0);
        for file in [
            "python-sdk-2.3.0.jsonl",
            "typescript-sdk-1.32.2-client.jsonl",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let messages: Vec<Value> = (text.lines())
                .filter(|line| !line.trim().is_empty())
                .map(|line| serde_json::from_str(line).unwrap())
                .collect();
            let methods: std::collections::HashMap<String, &str> = (messages.iter())
                .filter_map(|m| Some((m.get("id")?.to_string(), m.get("method")?.as_str()?)))
                .collect();
            for message in &messages {
                let (Some(id), Some(result)) = (message.get("id"), message.get("result")) else {
                    continue;
                };
                let Some(method) = methods.get(&id.to_string()) else {
                    continue;
                };
                let mut results = vec![result.to_string()];
                // A string where a number or an object is: refused by both.
                if let Some((name, _)) = (result.as_object().into_iter().flatten())
                    .find(|(_, value)| value.is_object() || value.is_number())
                {
                    let mut wrong = result.clone();
                    wrong[name] = Value::from("not of its type");
                    results.push(wrong.to_string());
                }
                // Every `uri` no URI (`format: uri`): taken by both, with the same violations.
                let mut not_uris = result.clone();
                if break_uris(&mut not_uris) {
                    results.push(not_uris.to_string());
                }
                for text in &results {
                    for requester in [Side::Client, Side::Server] {
                        let revision = Revision::V2025_11_25;
                        let lent = result_lent(revision, requester, method, text);
                        let owned = result_owned(revision, requester, method, text);
                        assert_eq!(lent, owned, "{file}: {method}: {text}");
                        // The verdict path passes what both take without a violation, only.
                        let passes = result_passes(revision, requester, method, text).is_some();
                        assert_eq!(
                            passes,
                            owned == Some(Vec::new()),
                            "{file}: {method}: {text}"
                        );
                        compared += 1;
                        refused += usize::from(owned.is_none());
                        broken += usize::from(owned.is_some_and(|v| !v.is_empty()));
                    }
                }
            }
        }
        assert!(compared > 100, "{compared} results compared");
        assert!(
            refused > compared / 3,
            "{refused} of {compared} refused by both"
        );
        assert!(
            broken >= 3,
            "{broken} of {compared} taken with violations by both"
        );
    }

    /// Every message of the recorded traffic, as either side's in each revision, as it is and
    /// with a member of the wrong type or an unknown member: the verdict path ([`judge`]) passes
    /// exactly what the borrowed family decodes without a violation, saying what it is (method,
    /// id) as the decoded message does.
    #[test]
    fn the_verdict_path_judges_the_recordings_as_decoding_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/traffic");
        let (mut judged, mut passed, mut left) = (0, 0, 0);
        for file in [
            "python-sdk-2.3.0.jsonl",
            "typescript-sdk-1.32.2-client.jsonl",
            "typescript-sdk-1.32.2-server.jsonl",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            for line in text.lines().filter(|line| !line.trim().is_empty()) {
                let message: Value = serde_json::from_str(line).unwrap();
                let mut texts = vec![line.to_owned()];
                // An id written `7.0` is the integer 7.
                for (name, replacement) in [
                    ("params", "1"),
                    ("result", "[]"),
                    ("id", "{}"),
                    ("id", "7.0"),
                ] {
                    if message.get(name).is_some() {
                        let mut changed = message.clone();
                        changed[name] = serde_json::from_str(replacement).unwrap();
                        texts.push(changed.to_string());
                    }
                }
                let mut unknown = message.clone();
                unknown["unknownMember"] = Value::from(1);
                texts.push(unknown.to_string());
                for text in &texts {
                    for revision in Revision::ALL {
                        for side in [Side::Client, Side::Server] {
                            let verdict = judge(revision, side, text);
                            let decoded = sent_lent(revision, side, text);
                            let lent = borrowed_verdict(revision, side, text);
                            let context = || format!("{file} {revision} {side:?}: {text}");
                            assert!(verdict.is_none() || lent == Some(true), "{}", context());
                            left += usize::from(verdict.is_none() && lent == Some(true));
                            if let (Some(verdict), Some(Ok(sent))) = (verdict, decoded) {
                                let (method, id) = match verdict {
                                    Judged::Request { method, id } => {
                                        (method, request_id(revision, id))
                                    }
                                    Judged::Notification { method } => (method, None),
                                    other => panic!("{other:?} decoded as a call: {text}"),
                                };
                                assert_eq!((method, id), (sent.method, sent.id), "{text}");
                            }
                            judged += 1;
                            passed += usize::from(verdict.is_some());
                        }
                    }
                }
            }
        }
        println!("{judged} judged: {passed} passed, {left} valid left to the decoder");
        assert!(judged > 5000, "{judged} judged");
        assert_eq!(left, 0, "valid messages left to the decoder");
    }

    /// The borrowed family's reading of a whole message as `side`'s: `Some(true)` when it
    /// decodes without a violation, `Some(false)` with violations, `None` refused.
    fn borrowed_verdict(revision: Revision, side: Side, text: &str) -> Option<bool> {
        in_revision!(revision, m => match side {
            Side::Client => serde_json::from_str::<m::borrowed::ClientMessageRef>(text)
                .ok()
                .map(|m| constraints(&m).is_empty()),
            Side::Server => serde_json::from_str::<m::borrowed::ServerMessageRef>(text)
                .ok()
                .map(|m| constraints(&m).is_empty()),
        })
    }

    /// Writes every string member `uri` of `value` as no URI; whether there was one.
    fn break_uris(value: &mut Value) -> bool {
        let mut found = false;
        match value {
            Value::Object(members) => {
                for (name, member) in members {
                    if name == "uri" && member.is_string() {
                        *member = Value::from("not a uri");
                        found = true;
                    } else {
                        found |= break_uris(member);
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    found |= break_uris(item);
                }
            }
            _ => {}
        }
        found
    }
}
