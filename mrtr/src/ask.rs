//! Asking: the builder of an `InputRequiredResult`.

use serde_json::Map;

use super::question::{check_capability, AskError, Form, Question, Roots, Sampling, Url};
use super::{RetryParams, INPUT_REQUIRED};
use mcp_typed::elicit::Elicit;
use mcp_typed::v2026_07_28::{
    ClientCapabilities, CreateMessageRequestParams, InputRequest, InputRequests,
    InputRequiredResult, ResultMetaObject,
};

/// Builds the [`InputRequiredResult`] that asks the client for input, checking each request
/// against the capabilities the client declared on the request being answered.
///
/// Each `ask` (or `elicit…`/`sample`/`list_roots`) call adds one input request under a key the
/// server chooses (the client answers under the same key) and returns an [`AskError`] instead
/// when the client did not declare the capability the request needs: the spec forbids sending
/// it.
/// [`InputRequired::build`] refuses a result with neither input requests nor state.
///
/// ```
/// use mcp_mrtr::{AskError, InputRequired};
/// use mcp_typed::v2026_07_28::ClientCapabilities;
/// use mcp_typed::Elicit;
///
/// #[derive(Debug, Elicit)]
/// struct Login {
///     /// Your GitHub username
///     name: String,
/// }
///
/// // `elicitation: {}` declares form mode only.
/// let capabilities: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{}}"#)?;
/// let result = InputRequired::new(&capabilities)
///     .elicit::<Login>("github_login", "Please provide your GitHub username")?
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&result)?,
///     r#"{"inputRequests":{"github_login":{"method":"elicitation/create","params":{"message":"Please provide your GitHub username","mode":"form","requestedSchema":{"type":"object","properties":{"name":{"type":"string","description":"Your GitHub username"}},"required":["name"]}}}},"resultType":"input_required"}"#
/// );
///
/// // URL mode was not declared: refused, not sent.
/// let refused = InputRequired::new(&capabilities).elicit_url(
///     "oauth",
///     "Sign in to continue",
///     "https://example.com/oauth/start",
/// );
/// assert!(matches!(refused, Err(AskError::MissingCapability { capability: "elicitation.url", .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct InputRequired<'a> {
    capabilities: &'a ClientCapabilities,
    requests: InputRequests,
    state: Option<String>,
    meta: Option<ResultMetaObject>,
}

impl<'a> InputRequired<'a> {
    /// A result for a client that declared `capabilities` on the request being answered.
    pub fn new(capabilities: &'a ClientCapabilities) -> Self {
        Self {
            capabilities,
            requests: InputRequests::default(),
            state: None,
            meta: None,
        }
    }

    /// A result answering `params`, checked against the capabilities `params` declares.
    pub fn for_request<P: RetryParams>(params: &'a P) -> Self {
        Self::new(params.client_capabilities())
    }

    /// Adds a form-mode `elicitation/create` request under `key`, showing `message` with the
    /// form of `T` (its `requestedSchema`, from `#[derive(Elicit)]`). Read the answer with
    /// [`Responses::elicited::<T>`](super::Responses::elicited).
    ///
    /// Needs form-mode elicitation (`elicitation: {}` or `elicitation: {"form": {}}`).
    pub fn elicit<T: Elicit>(
        self,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<Self, AskError> {
        self.ask(key, &Form::<T>::new(message))
    }

    /// Adds a URL-mode `elicitation/create` request under `key`: the client shows `message` and
    /// offers to open `url` (an absolute URI), where the interaction happens out of band.
    /// Read the answer with [`Responses::url_elicited`](super::Responses::url_elicited).
    ///
    /// In 2026-07-28 URL-mode params have no `elicitationId`: the key identifies the request.
    /// Needs URL-mode elicitation (`elicitation: {"url": {}}`).
    pub fn elicit_url(
        self,
        key: impl Into<String>,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<Self, AskError> {
        self.ask(key, &Url::new(message, url))
    }

    /// Adds a `sampling/createMessage` request under `key`. Read the answer with
    /// [`Responses::sampled`](super::Responses::sampled).
    ///
    /// Needs `sampling`; `tools` or `toolChoice` also need `sampling.tools`, and the deprecated
    /// `includeContext` values `thisServer`/`allServers` need `sampling.context`.
    pub fn sample(
        self,
        key: impl Into<String>,
        params: CreateMessageRequestParams,
    ) -> Result<Self, AskError> {
        self.ask(key, &Sampling::new(params))
    }

    /// Adds a `roots/list` request under `key`. Read the answer with
    /// [`Responses::roots`](super::Responses::roots).
    ///
    /// Needs `roots`.
    pub fn list_roots(self, key: impl Into<String>) -> Result<Self, AskError> {
        self.ask(key, &Roots)
    }

    /// Adds `question` under `key` (any kind: [`question`](crate::question)), with the checks
    /// of [`InputRequired::request`].
    pub fn ask(self, key: impl Into<String>, question: &impl Question) -> Result<Self, AskError> {
        let key = key.into();
        let request = question.request(&key)?;
        self.request(key, request)
    }

    /// Adds any input request under `key`, with the same checks as the typed methods: the
    /// client must have declared what the request needs, and the key must be new.
    pub fn request(
        mut self,
        key: impl Into<String>,
        request: InputRequest,
    ) -> Result<Self, AskError> {
        let key = key.into();
        if let Err((method, capability)) = check_capability(self.capabilities, &request) {
            return Err(AskError::MissingCapability {
                key,
                method,
                capability,
            });
        }
        if self.requests.contains_key(&key) {
            return Err(AskError::DuplicateKey { key });
        }
        self.requests.insert(key, request);
        Ok(self)
    }

    /// Sets the `requestState` the client echoes on its retry. The client can read and change
    /// anything it is given: state that is not sealed must be harmless to tamper with.
    #[cfg_attr(
        feature = "seal",
        doc = "\nSeal it with [`StateSealer::seal`](super::seal::StateSealer::seal)."
    )]
    pub fn state(mut self, state: impl Into<String>) -> Self {
        self.state = Some(state.into());
        self
    }

    /// Sets the result's `_meta`.
    pub fn meta(mut self, meta: ResultMetaObject) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The input requests added so far, in order.
    pub fn requests(&self) -> &InputRequests {
        &self.requests
    }

    /// The result, with `resultType` `"input_required"`. Refused with [`AskError::Empty`] when
    /// it has neither input requests nor state: the spec requires at least one.
    pub fn build(self) -> Result<InputRequiredResult, AskError> {
        if self.requests.is_empty() && self.state.is_none() {
            return Err(AskError::Empty);
        }
        Ok(InputRequiredResult {
            meta: self.meta,
            input_requests: (!self.requests.is_empty()).then_some(self.requests),
            request_state: self.state,
            result_type: INPUT_REQUIRED.to_owned(),
            extra: Map::new(),
        })
    }
}
