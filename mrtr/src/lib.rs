//! The two eras of MCP input requests, on the types of `mcp-typed`: a server handler written
//! once and served to 2026-07-28 clients (multi round-trip requests, sealed `requestState`) and
//! to 2025-11-25 clients (live server requests), in `serve` (feature `seal`);
//! the client half that answers and retries, in [`client`]; and the pieces they are made of,
//! below: ask the client for input, read its answers on the retry, and carry state between the
//! two without storing it.
//!
//! | feature | what it adds |
//! |---|---|
//! | `seal` (default) | `seal` (sealed `requestState`, XChaCha20-Poly1305) and `serve` |
//! | `v2025_11_25` (default) | `serve::LiveCall`: the same handler through live requests |
//! | `terminal` (off) | `terminal::Terminal`: an [`Answerer`](client::Answerer) that asks a person at a terminal |
//!
//! In 2026-07-28 servers no longer send requests. A `tools/call`, `prompts/get` or
//! `resources/read` that needs more input is answered with an [`InputRequiredResult`]: a map of
//! input requests (`elicitation/create`, `sampling/createMessage`, `roots/list`) under keys the
//! server chooses, and an opaque `requestState`. The client answers each request and retries the
//! original request, with a new JSON-RPC id, carrying `inputResponses` (the answers under the
//! same keys) and the `requestState` echoed byte for byte. The retry may reach another server
//! instance: everything the server needs is in the retry itself.
//!
//! - **Asking:** [`InputRequired`] builds the result. It takes the client capabilities the
//!   request declared (per request in 2026-07-28) and refuses, with an [`AskError`], to add a
//!   request the client cannot serve (the spec: servers MUST NOT send those), or to build a
//!   result with neither input requests nor state.
//! - **Reading the retry:** [`Responses`] reads `inputResponses`.
//!   [`Responses::elicited`] gives `Ok(None)` when the client did not answer a key (the spec:
//!   ask again rather than fail), the typed [`ElicitOutcome`](mcp_typed::elicit::ElicitOutcome)
//!   otherwise, and a [`ResponseError`] naming the key and the JSON pointer when the answer is
//!   of the wrong kind, malformed, or breaks the form's schema. Keys nobody asked for are ignored.
//! - **State** (feature `seal`): `seal::StateSealer` turns the state into a token that is
//!   encrypted and authenticated (XChaCha20-Poly1305), expires, and is bound to the principal,
//!   the method and a digest of the request's parameters (`seal::ParamsDigest`), as the
//!   spec's security rules for `requestState` ask. Keys rotate; each state is single-use by
//!   default (spent states recorded in a `seal::ReplayStore`, shared by a deployment's
//!   instances on Redis with feature `redis`).
#![cfg_attr(
    feature = "seal",
    doc = "  The [`seal`] module explains the token format and the checks."
)]
//!
//! [`RetryParams`] is what the three retryable params types have in common: the declared
//! capabilities, `inputResponses` and `requestState`.
//!
//! [`InputRequiredResult`]: mcp_typed::v2026_07_28::InputRequiredResult
//!
//! # The flow
//!
//! ```
//! # #[cfg(feature = "seal")] {
//! use std::time::{Duration, SystemTime};
//!
//! use mcp_typed::elicit::ElicitOutcome;
//! use mcp_mrtr::seal::{SealContext, SealingKey, StateSealer};
//! use mcp_mrtr::{InputRequired, Responses};
//! use mcp_typed::v2026_07_28::CallToolRequestParams;
//! use mcp_typed::Elicit;
//!
//! #[derive(Debug, Elicit)]
//! struct Confirm {
//!     /// Type the name of the repository to confirm
//!     repository: String,
//! }
//!
//! // Every server instance holds the same key; nothing else is shared.
//! let sealer = StateSealer::new(SealingKey::new(1, [7; 32]));
//! let ttl = Duration::from_secs(600);
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
//!
//! // 1. The first `tools/call`: the server needs a confirmation.
//! let first: CallToolRequestParams = serde_json::from_str(
//!     r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},
//!         "io.modelcontextprotocol/protocolVersion":"2026-07-28"},
//!         "name":"delete_repo","arguments":{"repo":"demo"}}"#,
//! )?;
//! let context = SealContext::for_request("user-42", &first, ttl)?;
//! let asked = InputRequired::for_request(&first)
//!     .elicit::<Confirm>("confirm", "Deleting a repository cannot be undone")?
//!     .state(sealer.seal(b"delete demo", &context, now)?)
//!     .build()?;
//! assert_eq!(asked.result_type, "input_required");
//!
//! // 2. The client asks the user and retries the same request with the answers.
//! let mut retry = first.clone();
//! retry.input_responses = Some(serde_json::from_str(
//!     r#"{"confirm":{"action":"accept","content":{"repository":"demo"}}}"#,
//! )?);
//! retry.request_state = asked.request_state.clone();
//!
//! // 3. Any instance: the state must open for this principal, method and parameters.
//! let context = SealContext::for_request("user-42", &retry, ttl)?;
//! let token = retry.request_state.as_deref().unwrap_or_default();
//! let state = sealer.open(token, &context, now + Duration::from_secs(20))?;
//! assert_eq!(state, b"delete demo");
//! match Responses::of(&retry).elicited::<Confirm>("confirm")? {
//!     Some(ElicitOutcome::Accepted(confirm)) => assert_eq!(confirm.repository, "demo"),
//!     Some(ElicitOutcome::Declined | ElicitOutcome::Cancelled) => unreachable!(),
//!     None => unreachable!("not answered: the server would ask again"),
//! }
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod ask;
pub mod client;
pub mod question;
mod responses;
#[cfg(feature = "seal")]
pub mod seal;
#[cfg(feature = "seal")]
pub mod serve;
#[cfg(feature = "terminal")]
pub mod terminal;

pub use ask::InputRequired;
pub use question::{AskError, ResponseError};
pub use responses::Responses;

use mcp_typed::v2026_07_28::{
    CallToolRequestParams, ClientCapabilities, GetPromptRequestParams, InputResponses,
    ReadResourceRequestParams, RequestMetaObject,
};

/// The `resultType` of an [`InputRequiredResult`](mcp_typed::v2026_07_28::InputRequiredResult).
pub const INPUT_REQUIRED: &str = "input_required";

/// The params of a request a server may answer with an
/// [`InputRequiredResult`](mcp_typed::v2026_07_28::InputRequiredResult) and the client
/// retries: `tools/call`, `prompts/get` and `resources/read` in 2026-07-28.
pub trait RetryParams {
    /// The method of the request (`"tools/call"`).
    const METHOD: &'static str;

    /// The request's `_meta`.
    fn request_meta(&self) -> &RequestMetaObject;

    /// The `inputResponses` of a retry (`None` on a first attempt).
    fn input_responses(&self) -> Option<&InputResponses>;

    /// The `requestState` echoed by a retry (`None` on a first attempt, or when the server sent
    /// none).
    fn request_state(&self) -> Option<&str>;

    /// Makes these params a retry: sets `inputResponses` and `requestState` (for a client
    /// building its retry; see [`client::Retrier`]).
    fn set_retry(&mut self, responses: Option<InputResponses>, state: Option<String>);

    /// The capabilities the client declared on this request. In 2026-07-28 they are declared
    /// per request, and a server MUST NOT infer them from earlier requests.
    fn client_capabilities(&self) -> &ClientCapabilities {
        &self
            .request_meta()
            .io_modelcontextprotocol_client_capabilities
    }
}

macro_rules! retry_params {
    ($($ty:ident: $method:literal),*) => {$(
        impl RetryParams for $ty {
            const METHOD: &'static str = $method;

            fn request_meta(&self) -> &RequestMetaObject {
                &self.meta
            }

            fn input_responses(&self) -> Option<&InputResponses> {
                self.input_responses.as_ref()
            }

            fn request_state(&self) -> Option<&str> {
                self.request_state.as_deref()
            }

            fn set_retry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
                self.input_responses = responses;
                self.request_state = state;
            }
        }
    )*};
}

retry_params!(
    CallToolRequestParams: "tools/call",
    GetPromptRequestParams: "prompts/get",
    ReadResourceRequestParams: "resources/read"
);
