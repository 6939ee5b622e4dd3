//! The protocol revisions a message can belong to, and decoding a message with the generated
//! types of one of them.

use std::borrow::Cow;
use std::fmt;

use mcp_typed::jsonrpc::{
    decode_error_response, decode_result, DecodeError, DecodeErrorKind, RawMessage, Request,
    VisitRequest, VisitType,
};
use mcp_typed::validate::Validate;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

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

/// What a message was, once decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A request of `method`.
    Request(String),
    /// A notification of `method`.
    Notification(String),
    /// A result response.
    Response,
    /// An error response.
    Error,
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

/// What a well-formed message is, read from its members (`method`, `id`, `error`).
pub fn shape_of(message: &Value) -> Shape {
    match (
        message.get("method").and_then(Value::as_str),
        message.get("id"),
    ) {
        (Some(method), Some(_)) => Shape::Request(method.to_owned()),
        (Some(method), None) => Shape::Notification(method.to_owned()),
        _ if message.get("error").is_some() => Shape::Error,
        _ => Shape::Response,
    }
}

/// Checks the message `text` as one `side` sends in `revision`: decoded as the generated
/// `ClientMessage` or `ServerMessage` (`Err` when it is not one), then validated against the
/// constraint keywords of its schema (`Ok` with what it breaks).
pub fn decode(revision: Revision, side: Side, text: &str) -> Result<Vec<Violation>, DecodeError> {
    macro_rules! decode_in {
        ($module:ident) => {{
            use mcp_typed::$module as m;
            match side {
                Side::Client => text.parse::<m::ClientMessage>().map(|m| constraints(&m)),
                Side::Server => text.parse::<m::ServerMessage>().map(|m| constraints(&m)),
            }
        }};
    }
    match revision {
        Revision::V2024_11_05 => decode_in!(v2024_11_05),
        Revision::V2025_03_26 => decode_in!(v2025_03_26),
        Revision::V2025_06_18 => decode_in!(v2025_06_18),
        Revision::V2025_11_25 => decode_in!(v2025_11_25),
        Revision::V2026_07_28 => decode_in!(v2026_07_28),
    }
}

/// Checks a result response to a request of `method` as `responder` sends it in `revision`: the
/// `result` decoded as that method's result type (`tools/call` → `CallToolResult`, as the
/// conformance suite's wire validation does), the rest of the message as the responder's
/// message envelope. A 2025-11-25 request that asked for a task (`params.task`) may be answered
/// by `CreateTaskResult` (a result with `task`); a 2026-07-28 result of another `resultType` than `complete` or
/// `input_required` (an extension's: `task`) is checked as the generic result. `None` when
/// the method is no request of the requester's in `revision` (the caller checks it against the
/// revision's result union instead).
pub fn decode_answer(
    revision: Revision,
    responder: Side,
    request: &Answering,
    message: &Value,
    text: &str,
) -> Option<Result<Vec<Violation>, DecodeError>> {
    let result = message.get("result")?;
    // The result's own text, as it came (written out from its value when the message's text
    // does not frame).
    let raw = RawMessage::parse(text).ok().and_then(|raw| raw.result);
    let text = match raw {
        Some(raw) => Cow::Borrowed(raw.get()),
        None => Cow::Owned(result.to_string()),
    };
    let specific = match revision {
        Revision::V2025_11_25 if request.task && result.get("task").is_some() => {
            decode_result::<mcp_typed::v2025_11_25::CreateTaskResult>(&text)
                .map(|r| constraints(&r))
        }
        Revision::V2026_07_28
            if !matches!(
                result.get("resultType").and_then(Value::as_str),
                None | Some("complete" | "input_required")
            ) =>
        {
            decode_result::<mcp_typed::v2026_07_28::Result>(&text).map(|r| constraints(&r))
        }
        _ => result_of(revision, responder.other(), &request.method, &text)?,
    };
    // The envelope (`jsonrpc`, `id`, no other member) by the same decoder, around an empty
    // result, which every revision's result union takes.
    let mut envelope: Map<String, Value> = (message.as_object()?.iter())
        .filter(|(name, _)| *name != "result")
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    envelope.insert("result".into(), Value::Object(Map::new()));
    let framed = decode(revision, responder, &Value::Object(envelope).to_string());
    Some(framed.and(specific).map(|violations| {
        (violations.into_iter())
            .map(|v| Violation {
                pointer: format!("/result{}", v.pointer),
                ..v
            })
            .collect()
    }))
}

/// What a response answers: the method of its request, and whether that asked for a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answering {
    /// The request's method.
    pub method: String,
    /// Whether the request's `params` had `task` (2025-11-25's task-augmented requests).
    pub task: bool,
}

/// The result `text` of a request `method` sent by `requester` in `revision`, decoded as that
/// method's result type and validated; `None` for a method of no request of the requester's.
fn result_of(
    revision: Revision,
    requester: Side,
    method: &str,
    text: &str,
) -> Option<Result<Vec<Violation>, DecodeError>> {
    /// Decodes the result as the visited request's and checks its constraints.
    struct Check<'a>(&'a str);
    impl VisitRequest for Check<'_> {
        type Output = Result<Vec<Violation>, DecodeError>;
        fn visit<R: Request>(self) -> Self::Output {
            decode_result::<R::Result>(self.0).map(|result| constraints(&result))
        }
    }
    macro_rules! visit_in {
        ($module:ident) => {{
            use mcp_typed::$module as m;
            match requester {
                Side::Client => m::ClientRequest::visit_method(method, Check(text)),
                Side::Server => m::ServerRequest::visit_method(method, Check(text)),
            }
        }};
    }
    match revision {
        Revision::V2024_11_05 => visit_in!(v2024_11_05),
        Revision::V2025_03_26 => visit_in!(v2025_03_26),
        Revision::V2025_06_18 => visit_in!(v2025_06_18),
        Revision::V2025_11_25 => visit_in!(v2025_11_25),
        // A 2026-07-28 server sends no requests (it asks with `input_required` results).
        Revision::V2026_07_28 => match requester {
            Side::Client => {
                mcp_typed::v2026_07_28::ClientRequest::visit_method(method, Check(text))
            }
            Side::Server => None,
        },
    }
}

/// Checks an error response whose code has a definition of its own in `revision` (2025-11-25:
/// `-32042`, `URLElicitationRequiredError`, whose `data` lists the elicitations) as that
/// definition; `None` for any other error (the generic error fits it).
pub fn decode_error_by_code(
    revision: Revision,
    message: &Value,
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
    let code = message["error"]["code"].as_i64()?;
    match revision {
        Revision::V2024_11_05 => mcp_typed::v2024_11_05::visit_error_code(code, Check(text)),
        Revision::V2025_03_26 => mcp_typed::v2025_03_26::visit_error_code(code, Check(text)),
        Revision::V2025_06_18 => mcp_typed::v2025_06_18::visit_error_code(code, Check(text)),
        Revision::V2025_11_25 => mcp_typed::v2025_11_25::visit_error_code(code, Check(text)),
        Revision::V2026_07_28 => mcp_typed::v2026_07_28::visit_error_code(code, Check(text)),
    }
}

/// What the generated types take by design and the schema of `revision` refuses: decoding is
/// liberal where a peer must be (a 2026-07-28 result without `resultType` is read as
/// `"complete"`, as a client reads an older server's; an error response without `id` is taken in
/// every revision), but the referee reports it.
pub fn leniencies(revision: Revision, shape: &Shape, message: &Value) -> Vec<Violation> {
    let required = |pointer: &str, expected: &str| Violation {
        pointer: pointer.to_owned(),
        keyword: "required".to_owned(),
        expected: expected.to_owned(),
    };
    match shape {
        Shape::Response
            if revision == Revision::V2026_07_28
                && message["result"].get("resultType").is_none() =>
        {
            vec![required(
                "/result/resultType",
                "`resultType`: a server of 2026-07-28 MUST include it (a client reads its \
                 absence as \"complete\")",
            )]
        }
        Shape::Error if revision < Revision::V2025_11_25 && message.get("id").is_none() => {
            vec![required(
                "/id",
                "`id` on an error response (optional only from 2025-11-25)",
            )]
        }
        _ => Vec::new(),
    }
}

/// What `value` breaks of its schema's constraint keywords (`format`, `maximum`, …).
fn constraints(value: &impl Validate) -> Vec<Violation> {
    match value.validate() {
        Ok(()) => Vec::new(),
        Err(violations) => (violations.into_vec().into_iter())
            .map(|v| Violation {
                pointer: v.pointer,
                keyword: v.keyword.as_str().to_owned(),
                expected: format!("{}: {}", v.keyword, v.limit),
            })
            .collect(),
    }
}
