//! A URL-mode elicitation: a URL the user is offered to open, where the interaction happens
//! out of band. Its answer is the user's decision only.

use serde_json::{Map, Value};

use super::{elicit_request, elicit_result, read_json_elicitation, Question};
use super::{wrong_kind, Answerer, AskError, ResponseError, RetryError};
use mcp_typed::elicit::{Action, ElicitOutcome, StringFormat};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, ElicitRequest, ElicitRequestParams, ElicitRequestUrlParams,
    ElicitResultAction, InputRequest, InputResponse,
};

/// A URL (an absolute URI) the client offers to open, with a message. Accepted means the user
/// went there; content sent with an answer is ignored.
///
/// In 2026-07-28 URL-mode params have no `elicitationId`: the key identifies the request.
/// Needs URL-mode elicitation (`elicitation: {"url": {}}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    message: String,
    url: String,
}

impl Url {
    /// `url`, offered with `message`.
    pub fn new(message: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
        }
    }
}

impl Question for Url {
    type Answer = ElicitOutcome<()>;

    /// Refused with [`AskError::InvalidUrl`] when the URL is not an absolute URI.
    fn request(&self, key: &str) -> Result<InputRequest, AskError> {
        if !StringFormat::Uri.is_valid(&self.url) {
            return Err(AskError::InvalidUrl {
                key: key.to_owned(),
                url: self.url.clone(),
            });
        }
        Ok(elicit_request(ElicitRequestParams::Url(
            ElicitRequestUrlParams {
                message: self.message.clone(),
                url: self.url.clone(),
                extra: Map::new(),
            },
        )))
    }

    fn read(key: &str, answer: &InputResponse) -> Result<ElicitOutcome<()>, ResponseError> {
        match answer {
            InputResponse::Elicit(result) => Ok(outcome(match result.action {
                ElicitResultAction::Accept => Action::Accept,
                ElicitResultAction::Decline => Action::Decline,
                ElicitResultAction::Cancel => Action::Cancel,
            })),
            other => Err(wrong_kind(key, ElicitRequest::METHOD, other)),
        }
    }

    fn read_json(key: &str, answer: &Value) -> Result<ElicitOutcome<()>, ResponseError> {
        read_json_elicitation(key, answer).map(|(action, _content)| outcome(action))
    }
}

/// The user's decision on a URL.
fn outcome(action: Action) -> ElicitOutcome<()> {
    match action {
        Action::Accept => ElicitOutcome::Accepted(()),
        Action::Decline => ElicitOutcome::Declined,
        Action::Cancel => ElicitOutcome::Cancelled,
    }
}

/// The capability a URL needs that the client did not declare.
pub(super) fn needs(capabilities: &ClientCapabilities) -> Result<(), &'static str> {
    match &capabilities.elicitation {
        None => Err("elicitation"),
        Some(elicitation) if !elicitation.supports_url() => Err("elicitation.url"),
        Some(_) => Ok(()),
    }
}

/// The client's answer: what `answerer` decided.
pub(super) fn answer(
    key: &str,
    params: &ElicitRequestUrlParams,
    answerer: &mut impl Answerer,
) -> Result<InputResponse, RetryError> {
    let action = answerer.url(key, &params.message, &params.url);
    elicit_result(key, action, None)
}

/// In a live (2025-11-25) call a URL-mode request names itself, for its completion notice:
/// `request` gets `elicitation_id` when it is one.
#[cfg(all(feature = "seal", feature = "v2025_11_25"))]
pub(crate) fn name_live_request(request: &mut InputRequest, elicitation_id: String) {
    if let InputRequest::Elicit(elicit) = request {
        if let ElicitRequestParams::Url(url) = &mut elicit.params {
            url.extra
                .insert("elicitationId".into(), elicitation_id.into());
        }
    }
}
