//! The four kinds of input a server asks a client for, one type each: [`Form`] (a form-mode
//! elicitation), [`Url`] (a URL-mode one), [`Sampling`] (`sampling/createMessage`) and
//! [`Roots`] (`roots/list`). Each kind's rules live in its own file: what the client must have
//! declared, the request, how its answer is read (typed or raw) and how a client answers it.
//!
//! The builders ([`InputRequired::ask`](crate::InputRequired::ask),
//! `serve::Input::ask`) take any [`Question`], and [`Responses::answer`](crate::Responses::answer)
//! reads its answer; their `elicit`, `elicit_url`, `sample` and `list_roots` are shorthands.
//!
//! ```
//! use mcp_mrtr::question::{Form, Roots};
//! use mcp_mrtr::{InputRequired, Responses};
//! use mcp_typed::elicit::ElicitOutcome;
//! use mcp_typed::v2026_07_28::{ClientCapabilities, InputResponses};
//! use mcp_typed::Elicit;
//!
//! #[derive(Debug, Elicit)]
//! struct Login {
//!     name: String,
//! }
//!
//! let capabilities: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{},"roots":{}}"#)?;
//! let asked = InputRequired::new(&capabilities)
//!     .ask("login", &Form::<Login>::new("Your name?"))?
//!     .ask("roots", &Roots)?
//!     .build()?;
//! assert_eq!(asked.input_requests.as_ref().map(|r| r.len()), Some(2));
//!
//! let answers: InputResponses = serde_json::from_str(
//!     r#"{"login":{"action":"accept","content":{"name":"ada"}},"roots":{"roots":[]}}"#,
//! )?;
//! let responses = Responses::new(Some(&answers));
//! match responses.answer::<Form<Login>>("login")? {
//!     Some(ElicitOutcome::Accepted(login)) => assert_eq!(login.name, "ada"),
//!     other => panic!("{other:?}"),
//! }
//! assert_eq!(responses.answer::<Roots>("roots")?, Some(Vec::new()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answerer;
mod errors;
mod form;
mod roots;
mod sampling;
mod url;

pub use answerer::{Answerer, FormAnswer};
pub(crate) use errors::{answer_path, decode, invalid, wrong_kind};
pub use errors::{AskError, ResponseError, RetryError};
pub use form::Form;
pub use roots::Roots;
pub use sampling::Sampling;
pub use url::Url;

#[cfg(all(feature = "seal", feature = "v2025_11_25"))]
pub(crate) use url::name_live_request;

use serde_json::{Map, Value};

use mcp_typed::elicit::{json_kind as kind, pointer, Action};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, CreateMessageRequest, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitResultAction, InputRequest, InputResponse, ListRootsRequest,
};

/// One kind of input a server asks for: the request it sends, and what its handler reads of
/// the client's answer.
pub trait Question {
    /// What the handler reads of an answer.
    type Answer;

    /// The input request that asks this question under `key` (the key names it in an error:
    /// a form that cannot be written, a URL that is not absolute).
    fn request(&self, key: &str) -> Result<InputRequest, AskError>;

    /// The answer `answer`, given under `key`, to this kind of question: an answer of another
    /// kind is a [`ResponseError::WrongKind`], a form's content that breaks it a
    /// [`ResponseError::Invalid`].
    fn read(key: &str, answer: &InputResponse) -> Result<Self::Answer, ResponseError>;

    /// The same from the raw JSON of an answer: what is malformed is a
    /// [`ResponseError::Malformed`] pointed below the answer's path.
    fn read_json(key: &str, answer: &Value) -> Result<Self::Answer, ResponseError>;
}

/// `Err((method, capability))` when the client did not declare what `request` needs.
pub(crate) fn check_capability(
    capabilities: &ClientCapabilities,
    request: &InputRequest,
) -> Result<(), (&'static str, &'static str)> {
    let needed = match request {
        InputRequest::Elicit(request) => match &request.params {
            ElicitRequestParams::Form(_) => form::needs(capabilities),
            ElicitRequestParams::Url(_) => url::needs(capabilities),
        },
        InputRequest::CreateMessage(request) => sampling::needs(capabilities, &request.params),
        InputRequest::ListRoots(_) => roots::needs(capabilities),
    };
    needed.map_err(|capability| (method(request), capability))
}

/// The answer of `answerer` to `request`, asked under `key` (its capability checked before).
pub(crate) fn answer(
    key: &str,
    request: &InputRequest,
    answerer: &mut impl Answerer,
) -> Result<InputResponse, RetryError> {
    match request {
        InputRequest::Elicit(request) => match &request.params {
            ElicitRequestParams::Form(params) => form::answer(key, params, answerer),
            ElicitRequestParams::Url(params) => url::answer(key, params, answerer),
        },
        InputRequest::CreateMessage(request) => sampling::answer(key, &request.params, answerer),
        InputRequest::ListRoots(_) => Ok(roots::answer(key, answerer)),
    }
}

fn method(request: &InputRequest) -> &'static str {
    match request {
        InputRequest::Elicit(_) => ElicitRequest::METHOD,
        InputRequest::CreateMessage(_) => CreateMessageRequest::METHOD,
        InputRequest::ListRoots(_) => ListRootsRequest::METHOD,
    }
}

/// The method whose input request `answer` answers.
pub(crate) fn method_answered(answer: &InputResponse) -> &'static str {
    match answer {
        InputResponse::Elicit(_) => ElicitRequest::METHOD,
        InputResponse::CreateMessage(_) => CreateMessageRequest::METHOD,
        InputResponse::ListRoots(_) => ListRootsRequest::METHOD,
    }
}

// Elicitation results, which forms and URLs share.

/// An `elicitation/create` request with `params`.
fn elicit_request(params: ElicitRequestParams) -> InputRequest {
    InputRequest::Elicit(Box::new(ElicitRequest {
        params,
        extra: Map::new(),
    }))
}

/// The user's decision in a raw elicitation result, and its content when it was accepted.
fn read_json_elicitation(
    key: &str,
    value: &Value,
) -> Result<(Action, Option<Map<String, Value>>), ResponseError> {
    let path = answer_path(key);
    let malformed = |path: String, message: String| ResponseError::Malformed {
        key: key.to_owned(),
        path,
        message,
    };
    let Value::Object(answer) = value else {
        return Err(malformed(
            path,
            format!(
                "an elicitation result must be an object, not {}",
                kind(value)
            ),
        ));
    };
    let action = match answer.get("action") {
        Some(Value::String(action)) => match action.as_str() {
            "accept" => Action::Accept,
            "decline" => Action::Decline,
            "cancel" => Action::Cancel,
            other => {
                return Err(malformed(
                    pointer(&path, "action"),
                    format!("unknown action `{other}`, expected accept, decline or cancel"),
                ))
            }
        },
        Some(other) => {
            return Err(malformed(
                pointer(&path, "action"),
                format!("action must be a string, not {}", kind(other)),
            ))
        }
        None => {
            if let Some(found) = method_it_answers(answer) {
                return Err(ResponseError::WrongKind {
                    key: key.to_owned(),
                    path,
                    expected: ElicitRequest::METHOD,
                    found,
                });
            }
            return Err(malformed(path, "missing member `action`".to_owned()));
        }
    };
    let content = match answer.get("content") {
        None => None,
        Some(Value::Object(content)) => Some(content.clone()),
        // Only an accepted form is read; the content of a decline or cancel is ignored.
        Some(_) if action != Action::Accept => None,
        Some(other) => {
            return Err(malformed(
                pointer(&path, "content"),
                format!("content must be an object, not {}", kind(other)),
            ))
        }
    };
    Ok((action, content))
}

/// The method whose result a raw answer without `action` looks like.
fn method_it_answers(answer: &Map<String, Value>) -> Option<&'static str> {
    if answer.contains_key("roots") {
        Some(ListRootsRequest::METHOD)
    } else if answer.contains_key("model") || answer.contains_key("role") {
        Some(CreateMessageRequest::METHOD)
    } else {
        None
    }
}

/// The elicitation result a client sends: `action`, and the content of an accepted form.
fn elicit_result(
    key: &str,
    action: ElicitResultAction,
    content: Option<Vec<(String, Value)>>,
) -> Result<InputResponse, RetryError> {
    let content = match content {
        None => None,
        Some(content) => Some(
            content
                .into_iter()
                .map(|(member, value)| match serde_json::from_value(value) {
                    Ok(value) => Ok((member, value)),
                    Err(_) => Err(RetryError::Unsendable {
                        key: key.to_owned(),
                        member,
                    }),
                })
                .collect::<Result<_, _>>()?,
        ),
    };
    Ok(InputResponse::Elicit(ElicitResult {
        action,
        content,
        extra: Map::new(),
    }))
}
