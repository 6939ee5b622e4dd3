//! The client half of multi round-trip requests: given the `InputRequiredResult` a server
//! answered a `tools/call`, `prompts/get` or `resources/read` with, answer each input request
//! through an [`Answerer`] and build the retry.
//!
//! [`Retrier::retry`] checks every request against the capabilities the client declared (a
//! server must not ask for what was not declared), hands a form over with its parsed
//! [`RequestedSchema`](mcp_typed::elicit::RequestedSchema), applies the schema's defaults to
//! the user's answer and validates it before anything is sent, and builds the retry params: the same method, name and arguments,
//! `inputResponses` under the server's keys, `requestState` echoed byte for byte. The caller
//! sends them with a new request id, after [`Retry::pause`]. Rounds are bounded (10 by
//! default), and a round that carries only state (the server is still working) waits longer
//! each time.
//!
//! ```
//! use mcp_typed::elicit::RequestedSchema;
//! use mcp_mrtr::client::{Answerer, FormAnswer, Retrier};
//! use mcp_typed::v2026_07_28::{
//!     CallToolRequestParams, CreateMessageRequestParams, CreateMessageResult,
//!     ElicitResultAction, InputRequiredResult, Root,
//! };
//! use serde_json::{json, Map};
//!
//! /// What the user would type.
//! struct User;
//!
//! impl Answerer for User {
//!     fn form(&mut self, _key: &str, _message: &str, _schema: &RequestedSchema) -> FormAnswer {
//!         let mut content = Map::new();
//!         content.insert("repository".into(), json!("demo"));
//!         FormAnswer::Accept(content)
//!     }
//!     fn url(&mut self, _key: &str, _message: &str, _url: &str) -> ElicitResultAction {
//!         ElicitResultAction::Decline
//!     }
//!     fn sample(&mut self, _key: &str, _params: &CreateMessageRequestParams) -> Result<CreateMessageResult, String> {
//!         Err("no model here".into())
//!     }
//!     fn roots(&mut self, _key: &str) -> Vec<Root> {
//!         Vec::new()
//!     }
//! }
//!
//! let first: CallToolRequestParams = serde_json::from_str(
//!     r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},
//!         "io.modelcontextprotocol/protocolVersion":"2026-07-28"},
//!         "name":"delete_repo","arguments":{"repo":"demo"}}"#,
//! )?;
//! let asked: InputRequiredResult = serde_json::from_str(
//!     r#"{"resultType":"input_required","requestState":"opaque-1",
//!         "inputRequests":{"confirm":{"method":"elicitation/create","params":{
//!           "message":"Sure?","requestedSchema":{"type":"object",
//!           "properties":{"repository":{"type":"string"}},"required":["repository"]}}}}}"#,
//! )?;
//! let mut retrier = Retrier::for_request(&first);
//! let retry = retrier.retry(&first, &asked, &mut User)?;
//! assert_eq!(retry.params.name, "delete_repo");
//! assert_eq!(retry.params.request_state.as_deref(), Some("opaque-1"));
//! assert_eq!(
//!     serde_json::to_value(&retry.params.input_responses)?,
//!     json!({"confirm": {"action": "accept", "content": {"repository": "demo"}}})
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use super::question::{self, check_capability};
pub use super::question::{Answerer, FormAnswer, RetryError};
use super::RetryParams;
use mcp_typed::v2026_07_28::{
    ClientCapabilities, InputRequest, InputRequiredResult, InputResponse, InputResponses,
};

/// Drives the retries of one request.
#[derive(Debug, Clone)]
pub struct Retrier {
    capabilities: ClientCapabilities,
    max_rounds: u32,
    pause: Duration,
    rounds: u32,
    state_only_rounds: u32,
}

/// The next attempt of a request.
#[derive(Debug, Clone, PartialEq)]
pub struct Retry<P> {
    /// The params to send, with a new request id: the first attempt's, with `inputResponses`
    /// and the echoed `requestState`.
    pub params: P,
    /// How long to wait before sending them: zero after a round with input requests, growing
    /// with each round that carried only state.
    pub pause: Duration,
}

impl Retrier {
    /// Retries for a client that declared `capabilities`.
    pub fn new(capabilities: ClientCapabilities) -> Self {
        Self {
            capabilities,
            max_rounds: 10,
            pause: Duration::from_millis(100),
            rounds: 0,
            state_only_rounds: 0,
        }
    }

    /// Retries of `first`, with the capabilities it declares.
    pub fn for_request<P: RetryParams>(first: &P) -> Self {
        Self::new(first.client_capabilities().clone())
    }

    /// At most `rounds` retries (default 10).
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// The pause after the first round that carries only state (default 100 ms); each further
    /// such round in a row waits once more.
    pub fn pause(mut self, pause: Duration) -> Self {
        self.pause = pause;
        self
    }

    /// How many retries were built so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Answers every input request of `result` and builds the retry of `first`.
    pub fn retry<P: RetryParams + Clone>(
        &mut self,
        first: &P,
        result: &InputRequiredResult,
        answerer: &mut impl Answerer,
    ) -> Result<Retry<P>, RetryError> {
        if self.rounds >= self.max_rounds {
            return Err(RetryError::TooManyRounds {
                rounds: self.rounds,
            });
        }
        let requests = result.input_requests.as_ref().filter(|r| !r.is_empty());
        if requests.is_none() && result.request_state.is_none() {
            return Err(RetryError::Empty);
        }
        let mut responses = InputResponses::default();
        for (key, request) in requests.into_iter().flatten() {
            responses.insert(
                key.clone(),
                answer(&self.capabilities, key, request, answerer)?,
            );
        }
        self.rounds += 1;
        let pause = if responses.is_empty() {
            self.state_only_rounds += 1;
            self.pause * self.state_only_rounds
        } else {
            self.state_only_rounds = 0;
            Duration::ZERO
        };
        let mut params = first.clone();
        params.set_retry(
            (!responses.is_empty()).then_some(responses),
            result.request_state.clone(),
        );
        Ok(Retry { params, pause })
    }
}

/// The answer to one input request under `key`, with the checks of [`Retrier::retry`]: the
/// request must need only what `capabilities` declares, a form is parsed and the answer,
/// defaults applied, validated. For a client that answers the same requests sent live
/// (2025-11-25's `elicitation/create`, … in the middle of a call) with the same [`Answerer`].
pub fn answer(
    capabilities: &ClientCapabilities,
    key: &str,
    request: &InputRequest,
    answerer: &mut impl Answerer,
) -> Result<InputResponse, RetryError> {
    if let Err((method, capability)) = check_capability(capabilities, request) {
        return Err(RetryError::Undeclared {
            key: key.to_owned(),
            method,
            capability,
        });
    }
    question::answer(key, request, answerer)
}
