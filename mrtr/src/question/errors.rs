//! What can go wrong with a question: asking it ([`AskError`], the server's side), reading its
//! answer ([`ResponseError`], the server's side) and answering it ([`RetryError`], the client's
//! side). The kinds of input write them; the builders, readers and the client half report them.

use std::fmt;

use serde_json::{Map, Value};

use super::method_answered;
use mcp_typed::elicit::{pointer, SchemaError, ToRevisionError, ValidationErrors};
use mcp_typed::jsonrpc::INVALID_PARAMS;
use mcp_typed::v2026_07_28::{Error, InputResponse};

/// Why an input request, or the result, was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskError {
    /// The client did not declare a capability the request needs; the spec forbids sending it.
    MissingCapability {
        /// The key of the refused request.
        key: String,
        /// The request's method (`"elicitation/create"`).
        method: &'static str,
        /// The capability that is missing, as a path in `ClientCapabilities`
        /// (`"elicitation"`, `"elicitation.url"`, `"sampling.tools"`, `"roots"`, …).
        capability: &'static str,
    },
    /// A request was already added under this key.
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// The form's schema cannot be written as 2026-07-28 `elicitation/create` params.
    Form {
        /// The key of the refused request.
        key: String,
        /// Why.
        error: ToRevisionError,
    },
    /// The URL of a URL-mode elicitation is not an absolute URI (RFC 3986).
    InvalidUrl {
        /// The key of the refused request.
        key: String,
        /// The URL.
        url: String,
    },
    /// The result has neither input requests nor state.
    Empty,
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingCapability {
                key,
                method,
                capability,
            } => write!(
                f,
                "input request `{key}`: the client did not declare `{capability}`, which \
                 `{method}` needs"
            ),
            Self::DuplicateKey { key } => write!(f, "input request `{key}` is already present"),
            Self::Form { key, error } => write!(f, "input request `{key}`: {error}"),
            Self::InvalidUrl { key, url } => {
                write!(f, "input request `{key}`: `{url}` is not an absolute URI")
            }
            Self::Empty => f.write_str(
                "an InputRequiredResult needs at least one of inputRequests or requestState",
            ),
        }
    }
}

impl std::error::Error for AskError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Form { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The violations of a form's answer under `key`, each pointer made relative to the request's
/// `params`.
pub(crate) fn invalid(key: &str, mut errors: ValidationErrors) -> ResponseError {
    errors.prefix_pointers(&pointer(&answer_path(key), "content"));
    ResponseError::Invalid {
        key: key.to_owned(),
        errors,
    }
}

/// Decodes a raw answer, a problem pointed at below the answer's path.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(
    key: &str,
    value: &Value,
) -> Result<T, ResponseError> {
    mcp_typed::json_pointer::decode(&value.to_string()).map_err(|error| ResponseError::Malformed {
        key: key.to_owned(),
        path: answer_path(key) + &error.pointer,
        message: error.message,
    })
}

pub(crate) fn wrong_kind(
    key: &str,
    expected: &'static str,
    found: &InputResponse,
) -> ResponseError {
    ResponseError::WrongKind {
        key: key.to_owned(),
        path: answer_path(key),
        expected,
        found: method_answered(found),
    }
}

/// The pointer of the answer under `key`, relative to the request's `params`.
pub(crate) fn answer_path(key: &str) -> String {
    pointer("/inputResponses", key)
}

/// Why an answer in `inputResponses` could not be read. Every variant names the key, and
/// [`ResponseError::path`] gives the JSON pointer of the problem relative to the request's
/// `params`. Answer it with [`ResponseError::to_jsonrpc_error`] (-32602), or ask again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseError {
    /// The answer is the result of another kind of request (a sampling result under the key
    /// of an elicitation).
    WrongKind {
        /// The key.
        key: String,
        /// `/inputResponses/<key>`.
        path: String,
        /// The method whose result was expected (`"elicitation/create"`).
        expected: &'static str,
        /// The method whose result was found.
        found: &'static str,
    },
    /// The answer is not a well-formed result: from [`Responses::from_json`](crate::Responses::from_json), or a live
    /// (2025-11-25) response that is no result of an input request (typed responses were
    /// checked when the request was decoded).
    Malformed {
        /// The key (empty when `inputResponses` itself is not an object).
        key: String,
        /// The JSON pointer of the offending member (`/inputResponses/<key>/action`).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The user accepted a form whose content breaks the form's schema: every violated
    /// constraint, each with the full pointer (`/inputResponses/<key>/content/email`) and the
    /// keyword.
    Invalid {
        /// The key.
        key: String,
        /// The violations (never empty).
        errors: ValidationErrors,
    },
}

impl ResponseError {
    /// The key of the answer at fault.
    pub fn key(&self) -> &str {
        match self {
            Self::WrongKind { key, .. }
            | Self::Malformed { key, .. }
            | Self::Invalid { key, .. } => key,
        }
    }

    /// The JSON pointer of the (first) problem, relative to the request's `params`.
    pub fn path(&self) -> &str {
        match self {
            Self::WrongKind { path, .. } | Self::Malformed { path, .. } => path,
            Self::Invalid { errors, .. } => errors
                .errors()
                .first()
                .map_or("/inputResponses", |error| error.pointer()),
        }
    }

    /// The JSON-RPC error to answer the retry with: -32602 (invalid params), with `data`
    /// holding the key, the path relative to the message (`/params/inputResponses/…`) and, for
    /// an invalid form, every violation.
    pub fn to_jsonrpc_error(&self) -> Error {
        let mut data = Map::new();
        data.insert("key".into(), self.key().into());
        data.insert("path".into(), format!("/params{}", self.path()).into());
        if let Self::Invalid { errors, .. } = self {
            let errors = errors
                .errors()
                .iter()
                .map(|error| {
                    serde_json::json!({
                        "path": format!("/params{}", error.pointer()),
                        "keyword": error.keyword(),
                        "message": error.message(),
                    })
                })
                .collect();
            data.insert("errors".into(), Value::Array(errors));
        }
        Error {
            code: INVALID_PARAMS,
            data: Some(Value::Object(data)),
            message: self.to_string(),
            extra: Map::new(),
        }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongKind {
                key,
                expected,
                found,
                ..
            } => write!(
                f,
                "input response `{key}`: expected the result of `{expected}`, found the result \
                 of `{found}`"
            ),
            Self::Malformed { key, path, message } if key.is_empty() => {
                write!(f, "{path}: {message}")
            }
            Self::Malformed { key, path, message } => {
                write!(f, "input response `{key}` at {path}: {message}")
            }
            Self::Invalid { key, errors } => {
                write!(f, "input response `{key}` breaks the form: {errors}")
            }
        }
    }
}

impl std::error::Error for ResponseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid { errors, .. } => Some(errors),
            _ => None,
        }
    }
}

/// Why a request cannot be retried.
#[derive(Debug, Clone, PartialEq)]
pub enum RetryError {
    /// The server asked for more rounds than allowed ([`Retrier::max_rounds`](crate::client::Retrier::max_rounds)).
    TooManyRounds {
        /// The rounds answered so far.
        rounds: u32,
    },
    /// The result has neither input requests nor state: there is nothing to retry with.
    Empty,
    /// The server asked for something the client did not declare.
    Undeclared {
        /// The key of the request.
        key: String,
        /// Its method.
        method: &'static str,
        /// The capability it needs (`"elicitation.url"`, `"sampling"`, …).
        capability: &'static str,
    },
    /// The form the server sent is not a restricted elicitation schema.
    Schema {
        /// The key of the request.
        key: String,
        /// What is wrong, with its pointer.
        error: SchemaError,
    },
    /// The user's answer (defaults applied) breaks the form: nothing is sent.
    Answer {
        /// The key of the request.
        key: String,
        /// Every problem, with its pointer into the content.
        errors: ValidationErrors,
    },
    /// A member of the answer is of a kind `ElicitResult.content` cannot carry (an object, a
    /// null, an array of non-strings): nothing is sent rather than the member dropped.
    Unsendable {
        /// The key of the request.
        key: String,
        /// The member.
        member: String,
    },
    /// The sampling request could not be answered.
    Sampling {
        /// The key of the request.
        key: String,
        /// Why, as the [`Answerer`](super::Answerer) said.
        message: String,
    },
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryError::TooManyRounds { rounds } => {
                write!(f, "the server asked for input {rounds} times: giving up")
            }
            RetryError::Empty => {
                f.write_str("the input-required result has neither inputRequests nor requestState")
            }
            RetryError::Undeclared {
                key,
                method,
                capability,
            } => write!(
                f,
                "input request `{key}`: the server sent `{method}`, which needs `{capability}`, \
                 a capability this client did not declare"
            ),
            RetryError::Schema { key, error } => {
                write!(f, "input request `{key}`: the form is invalid: {error}")
            }
            RetryError::Answer { key, errors } => {
                write!(
                    f,
                    "input request `{key}`: the answer breaks the form: {errors}"
                )
            }
            RetryError::Unsendable { key, member } => write!(
                f,
                "input request `{key}`: member `{member}` of the answer cannot be sent in an \
                 elicitation result"
            ),
            RetryError::Sampling { key, message } => {
                write!(f, "input request `{key}`: no sampling reply: {message}")
            }
        }
    }
}

impl std::error::Error for RetryError {}
