//! One handler for every protocol era: a tool (or prompt, or resource) that needs input from
//! the client is written once, against [`Input`], and served
//!
//! - to a 2026-07-28 client by [`serve`]: the handler's questions go out in an
//!   `InputRequiredResult` with a sealed `requestState` that carries the answers so far; the
//!   retry, on any server instance holding the key, runs the handler again with them;
//! - to a 2025-11-25 (or older) client by [`LiveCall`]: the same questions go out as live
//!   `elicitation/create`, `sampling/createMessage` and `roots/list` requests in the middle of the
//!   call, and their responses run the handler again.
//!
//! The handler asks with [`Input::elicit`], [`Input::sample`], … Each returns the answer when the
//! client has given one *to this exact question*, and otherwise records the question and returns
//! [`Need::Asked`], which the handler passes on with `?` (several questions asked before the
//! first `?` go out together). An answer is pinned to a digest of the question it answers: a
//! question that changed since (another message, another form) is asked again, never answered
//! by a stale answer; an answer to a key nobody asked is dropped.
//!
//! A request kind the client did not declare is never sent, in either era: the question is
//! refused with [`Need::Refused`], which the handler may catch to do without.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//!
//! use mcp_typed::elicit::ElicitOutcome;
//! use mcp_mrtr::seal::{SealingKey, StateSealer};
//! use mcp_mrtr::serve::{serve, Input, Need, Sealing, Served};
//! use mcp_typed::v2026_07_28::CallToolRequestParams;
//! use mcp_typed::Elicit;
//!
//! #[derive(Debug, Elicit)]
//! struct Confirm {
//!     /// Type the name of the repository to confirm
//!     repository: String,
//! }
//!
//! /// The tool, for both eras.
//! fn delete_repo(input: &mut Input<'_>) -> Result<String, Need> {
//!     match input.elicit::<Confirm>("confirm", "Deleting a repository cannot be undone")? {
//!         ElicitOutcome::Accepted(confirm) => Ok(format!("deleted {}", confirm.repository)),
//!         ElicitOutcome::Declined | ElicitOutcome::Cancelled => Ok("kept".to_owned()),
//!     }
//! }
//!
//! let sealer = StateSealer::new(SealingKey::new(1, [7; 32]));
//! let sealing = Sealing::new(&sealer, "user-42").ttl(Duration::from_secs(600));
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
//! let first: CallToolRequestParams = serde_json::from_str(
//!     r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},
//!         "io.modelcontextprotocol/protocolVersion":"2026-07-28"},
//!         "name":"delete_repo","arguments":{"repo":"demo"}}"#,
//! )?;
//! let Served::InputRequired(asked) = serve(&first, &sealing, now, delete_repo)? else {
//!     unreachable!("the first call asks")
//! };
//!
//! // The client answers under the same key and echoes the state.
//! let mut retry = first.clone();
//! retry.input_responses = Some(serde_json::from_str(
//!     r#"{"confirm":{"action":"accept","content":{"repository":"demo"}}}"#,
//! )?);
//! retry.request_state = asked.request_state.clone();
//! let done = serve(&retry, &sealing, now + Duration::from_secs(5), delete_repo)?;
//! assert!(matches!(done, Served::Complete(text) if text == "deleted demo"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Map;

use super::question::{check_capability, Form, Question, Roots, Sampling, Url};
use super::seal::{
    DigestError, MemoryReplayStore, OpenError, ParamsDigest, ReplayStore, SealContext, StateSealer,
};
use super::{AskError, InputRequired, ResponseError, RetryParams};
use mcp_typed::elicit::{Elicit, ElicitOutcome, Revision};
use mcp_typed::jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, Error, InputRequest,
    InputRequests, InputRequiredResult, InputResponse, Root,
};

/// An answer, with the digest of the question it answers.
#[derive(Debug, Clone, PartialEq)]
struct Pinned {
    /// [`question_digest`] of the input request, hex.
    q: String,
    /// The client's result.
    a: InputResponse,
}

/// In the sealed state: `[question digest, answer]`.
impl Serialize for Pinned {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.q, &self.a).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Pinned {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (q, a) = Deserialize::deserialize(deserializer)?;
        Ok(Pinned { q, a })
    }
}

/// What the handler's questions see: the answers given so far, and what this round asks.
#[derive(Debug)]
pub struct Input<'a> {
    capabilities: &'a ClientCapabilities,
    answers: &'a BTreeMap<String, Pinned>,
    asked: InputRequests,
    pins: BTreeMap<String, String>,
    /// Live (2025-11-25 and older) calls only: the revision the session negotiated, and the
    /// params of each form asked, as JSON text in the derive's order, properties and their
    /// keywords (the typed request keeps the first only), written as that revision's.
    #[cfg_attr(not(feature = "v2025_11_25"), allow(dead_code))]
    live_forms: Option<(Revision, BTreeMap<String, String>)>,
}

/// Why a question has no answer for the handler.
#[derive(Debug, Clone, PartialEq)]
pub enum Need {
    /// Not answered yet: the question goes out with this round's others. Pass it on with `?`.
    Asked,
    /// The question cannot be sent: the client did not declare what it needs, the form or the
    /// URL is invalid, or the key is used twice.
    Refused(AskError),
    /// The client's answer is malformed, of the wrong kind, or breaks the form.
    Invalid(ResponseError),
}

impl From<AskError> for Need {
    fn from(error: AskError) -> Self {
        Need::Refused(error)
    }
}

impl From<ResponseError> for Need {
    fn from(error: ResponseError) -> Self {
        Need::Invalid(error)
    }
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Need::Asked => f.write_str("the client has not answered yet"),
            Need::Refused(error) => error.fmt(f),
            Need::Invalid(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for Need {}

impl<'a> Input<'a> {
    fn new(capabilities: &'a ClientCapabilities, answers: &'a BTreeMap<String, Pinned>) -> Self {
        Self {
            capabilities,
            answers,
            asked: InputRequests::default(),
            pins: BTreeMap::new(),
            live_forms: None,
        }
    }

    /// The capabilities the client declared (per request in 2026-07-28, at `initialize`
    /// before).
    pub fn capabilities(&self) -> &ClientCapabilities {
        self.capabilities
    }

    /// The user's answer to the form of `T` shown with `message`, asked under `key`: accepted
    /// (validated and built), declined or cancelled.
    pub fn elicit<T: Elicit>(
        &mut self,
        key: &str,
        message: impl Into<String>,
    ) -> Result<ElicitOutcome<T>, Need> {
        let form = Form::<T>::new(message);
        let answer = self.ask(key, &form);
        #[cfg(feature = "v2025_11_25")]
        if let (Err(Need::Asked), Some((revision, forms))) = (&answer, &mut self.live_forms) {
            forms.insert(key.to_owned(), form.live_params(key, *revision)?);
        }
        answer
    }

    /// Whether the user accepted (went to `url`), declined or cancelled a URL-mode
    /// elicitation asked under `key`.
    pub fn elicit_url(
        &mut self,
        key: &str,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<ElicitOutcome<()>, Need> {
        self.ask(key, &Url::new(message, url))
    }

    /// The client's model's reply to a `sampling/createMessage` asked under `key`.
    pub fn sample(
        &mut self,
        key: &str,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, Need> {
        self.ask(key, &Sampling::new(params))
    }

    /// The client's roots, from a `roots/list` asked under `key`.
    pub fn list_roots(&mut self, key: &str) -> Result<Vec<Root>, Need> {
        self.ask(key, &Roots)
    }

    /// The answer to `question` (any kind: [`question`](crate::question)) asked under `key`
    /// when one pinned to it is there; else the question joins this round's.
    ///
    /// A form asked this way in a live (2025-11-25) call is written as the typed request
    /// writes it; [`Input::elicit`] writes it in the derive's order.
    pub fn ask<Q: Question>(&mut self, key: &str, question: &Q) -> Result<Q::Answer, Need> {
        let request = question.request(key)?;
        if let Err((method, capability)) = check_capability(self.capabilities, &request) {
            return Err(Need::Refused(AskError::MissingCapability {
                key: key.to_owned(),
                method,
                capability,
            }));
        }
        let question = question_digest(&request);
        if let Some(pinned) = self.answers.get(key).filter(|p| p.q == question) {
            return Q::read(key, &pinned.a).map_err(Need::Invalid);
        }
        if self.pins.contains_key(key) {
            return Err(Need::Refused(AskError::DuplicateKey {
                key: key.to_owned(),
            }));
        }
        self.asked.insert(key.to_owned(), request);
        self.pins.insert(key.to_owned(), question);
        Err(Need::Asked)
    }
}

/// The digest an answer is pinned to: of the input request's canonical JSON (method and
/// params), so a reworded message or a changed form is another question.
fn question_digest(request: &InputRequest) -> String {
    // A question too large or deep for the canonical form still gets a digest of its own (that
    // of its plain text, under another domain), never one shared with other questions.
    let digest = ParamsDigest::of(request).unwrap_or_else(|_| {
        serde_json::to_value(request).map_or(ParamsDigest::from_bytes([0; 32]), |value| {
            ParamsDigest::of_value(&value)
        })
    });
    digest
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28

/// How a server seals the state of its multi round-trip requests: the sealer, the principal,
/// and the limits of a call.
///
/// ```
/// use std::time::Duration;
///
/// use mcp_mrtr::seal::{MemoryReplayStore, SealingKey, StateSealer};
/// use mcp_mrtr::serve::Sealing;
///
/// let sealer = StateSealer::new(SealingKey::new(1, [7; 32]));
/// // Shared by every instance in a real deployment (`RedisReplayStore`, feature `redis`).
/// let used = MemoryReplayStore::new();
/// let sealing = Sealing::new(&sealer, "user-42")
///     .ttl(Duration::from_secs(300))
///     .lifetime(Duration::from_secs(1_800))
///     .replay_store(&used);
/// assert_eq!(sealing.principal(), "user-42");
/// assert!(sealing.is_single_use());
/// ```
///
/// # Single use
///
/// Every state is consumed by its first use ([`StateSealer::open_once`]): a resent retry is
/// refused with [`ServeError::InvalidState`] (`OpenError::Replayed`), so the handler runs at
/// most once per state. The spent states are recorded in a [`ReplayStore`]:
/// - by default [`MemoryReplayStore::process`], the store of this process: single use holds on
///   this instance only. A state spent here and presented to another instance is accepted
///   there;
/// - with [`Sealing::replay_store`], a store every instance shares (`RedisReplayStore`,
///   feature `redis`): single use holds across the deployment.
///
/// [`Sealing::allow_replay`] opts out: a state then opens as long as it has not expired, and a
/// client (or anyone who saw the retry) can resend a retry and run the handler again with the
/// same answers until the round's TTL is over. Such a handler must tolerate running twice on
/// the same answers: its effects idempotent, or behind a confirmation it checks itself.
///
/// # Kept by a server
///
/// [`Sealing::new`] borrows the sealer and the principal for one request. A server that keeps
/// its settings between requests holds a `Sealing<'static>` made by [`Sealing::shared`] (the
/// rmcp adapter's `Eras` does) and takes each request's with [`Sealing::for_principal`].
#[derive(Clone)]
pub struct Sealing<'a> {
    sealer: Held<'a, StateSealer>,
    principal: Cow<'a, str>,
    ttl: Duration,
    lifetime: Duration,
    /// `None`: replay allowed ([`Sealing::allow_replay`]).
    replay: Option<Held<'a, dyn ReplayStore + 'a>>,
    max_state_len: usize,
}

/// A value borrowed for one request, or shared by a [`Sealing`] kept between requests.
enum Held<'a, T: ?Sized> {
    Borrowed(&'a T),
    Shared(Arc<T>),
}

impl<T: ?Sized> Clone for Held<'_, T> {
    fn clone(&self) -> Self {
        match self {
            Held::Borrowed(value) => Held::Borrowed(value),
            Held::Shared(value) => Held::Shared(Arc::clone(value)),
        }
    }
}

impl<T: ?Sized> std::ops::Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Held::Borrowed(value) => value,
            Held::Shared(value) => value,
        }
    }
}

impl fmt::Debug for Sealing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sealing")
            .field("sealer", &*self.sealer)
            .field("principal", &self.principal)
            .field("ttl", &self.ttl)
            .field("lifetime", &self.lifetime)
            .field("replay", &self.replay.is_some())
            .field("max_state_len", &self.max_state_len)
            .finish()
    }
}

impl<'a> Sealing<'a> {
    /// How long a client has to answer a round, by default: ten minutes.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(600);
    /// How long a whole call may last from its first round, by default: one hour.
    pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(3_600);
    /// How many bytes of answers a state carries forward, by default: 32 KiB.
    pub const DEFAULT_MAX_STATE_LEN: usize = 32 * 1024;

    /// Seals with `sealer` for `principal`, the authenticated principal of the request (see
    /// [`SealContext::principal`]), with the default limits, each state single-use on this
    /// process ([`MemoryReplayStore::process`]; see [Single use](Sealing#single-use)).
    pub fn new(sealer: &'a StateSealer, principal: &'a str) -> Self {
        Self::with(Held::Borrowed(sealer), Cow::Borrowed(principal))
    }

    fn with(sealer: Held<'a, StateSealer>, principal: Cow<'a, str>) -> Self {
        let process: &'static dyn ReplayStore = MemoryReplayStore::process();
        Self {
            sealer,
            principal,
            ttl: Self::DEFAULT_TTL,
            lifetime: Self::DEFAULT_LIFETIME,
            replay: Some(Held::Borrowed(process)),
            max_state_len: Self::DEFAULT_MAX_STATE_LEN,
        }
    }

    /// The same settings for `principal`, the authenticated principal of a request: how a
    /// server that keeps its `Sealing` ([`Sealing::shared`]) seals each request's states.
    pub fn for_principal<'b>(&'b self, principal: &'b str) -> Sealing<'b> {
        Sealing {
            principal: Cow::Borrowed(principal),
            ..self.clone()
        }
    }

    /// How long the client has to answer each round (at most
    /// [`MAX_TTL`](crate::seal::MAX_TTL)).
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How long a whole call may last, from its first round: no state of a call is valid past
    /// it, however often the client retries, and the handler then starts over.
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.lifetime = lifetime;
        self
    }

    /// Records the spent states in `store` (shared by every instance, for single use across
    /// them) instead of the process's. Each state is opened with [`StateSealer::open_once`]
    /// and recorded before the handler runs, so that it runs at most once per state. The first
    /// retry that presents a state spends it, whatever its answers: a retry refused for an
    /// invalid answer cannot be corrected with the same state, the call starts over. A state
    /// refused for another reason (tampered, foreign, expired) is not spent.
    pub fn replay_store(mut self, store: &'a dyn ReplayStore) -> Self {
        self.replay = Some(Held::Borrowed(store));
        self
    }

    /// [`Sealing::replay_store`] with a store this value shares (for a `Sealing` kept between
    /// requests, [`Sealing::shared`]).
    pub fn shared_replay_store(mut self, store: Arc<dyn ReplayStore>) -> Self {
        self.replay = Some(Held::Shared(store));
        self
    }

    /// Whether the spent states go to a store given by [`Sealing::replay_store`] or
    /// [`Sealing::shared_replay_store`] (which may wait on the network) rather than the
    /// process's memory.
    pub fn has_own_replay_store(&self) -> bool {
        let process: &dyn ReplayStore = MemoryReplayStore::process();
        (self.replay.as_deref()).is_some_and(|store| !std::ptr::addr_eq(store, process))
    }

    /// Opts out of single use: a state opens as often as it is presented until it expires, so
    /// a resent retry runs the handler again (see [Single use](Sealing#single-use)).
    pub fn allow_replay(mut self) -> Self {
        self.replay = None;
        self
    }

    /// Whether each state is spent by its first use (the default).
    pub fn is_single_use(&self) -> bool {
        self.replay.is_some()
    }

    /// The most bytes of answers (as JSON) a state carries to the next round; more is refused
    /// with [`ServeError::StateTooLarge`] (-32602), since the client would have to send them
    /// back on every retry.
    pub fn max_state_len(mut self, len: usize) -> Self {
        self.max_state_len = len;
        self
    }

    /// The principal states are bound to.
    pub fn principal(&self) -> &str {
        &self.principal
    }
}

impl Sealing<'static> {
    /// Seals with `sealer`, with the default limits, each state single-use on this process,
    /// for a server that keeps this value between requests and seals each request's states
    /// with [`Sealing::for_principal`] (the principal here is empty until then).
    pub fn shared(sealer: Arc<StateSealer>) -> Self {
        Self::with(Held::Shared(sealer), Cow::Borrowed(""))
    }
}

/// What [`serve`] answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Served<R> {
    /// The handler finished: the request's own result.
    Complete(R),
    /// The handler needs answers: send this result; the client retries.
    InputRequired(Box<InputRequiredResult>),
}

/// Why a request could not be served.
#[derive(Debug)]
pub enum ServeError {
    /// The `requestState` was not sealed by us for this principal, method and parameters
    /// (tampered, foreign, replayed on other arguments). An expired state is not an error: the
    /// handler starts over.
    InvalidState(OpenError),
    /// The handler passed on a question that cannot be sent ([`Need::Refused`]).
    Refused(AskError),
    /// The client's answer is malformed, of the wrong kind, or breaks the form.
    Invalid(ResponseError),
    /// The client answered a live request (2025-11-25) with an error: the call cannot go on.
    ClientError {
        /// The key of the question.
        key: String,
        /// The client's error.
        error: Error,
    },
    /// The params have no digest (a duplicate member name in the arguments, a number with an
    /// exponent beyond 64 bits): a state could not be bound to them.
    UndigestableParams(DigestError),
    /// The answers carried forward would make a state longer than
    /// [`Sealing::max_state_len`].
    StateTooLarge {
        /// Their length, in bytes of JSON.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The state could not be sealed (a bug or a broken key).
    Internal(String),
}

impl ServeError {
    /// The JSON-RPC error to answer the request with: -32602 for what the client sent (an
    /// invalid state or answer), -32603 for the rest. The details of a refused state stay in
    /// the server's logs: a forged, tampered or foreign state gets one generic message. A state
    /// that is authentic but cannot be accepted says why, in its message and in `data.reason`,
    /// so that a client and an operator can act on it:
    ///
    /// | `data.reason` | code | what to do |
    /// |---|---|---|
    /// | `spent` | -32602 | the client: call again without the state (it was used before) |
    /// | `quota` | -32603 | the client: wait until its earlier states expire |
    /// | `storeFull` | -32603 | the operator: the replay store is at its capacity or memory limit |
    /// | `storeUnavailable` | -32603 | the operator: the replay store does not answer |
    pub fn to_jsonrpc_error(&self) -> Error {
        let mut reason = None;
        let (code, message) = match self {
            ServeError::InvalidState(refused) => match refusal(refused) {
                Some((code, why, message)) => {
                    reason = Some(why);
                    (code, message.to_owned())
                }
                None => (INVALID_PARAMS, "invalid requestState".to_owned()),
            },
            ServeError::UndigestableParams(error) => (INVALID_PARAMS, error.to_string()),
            ServeError::StateTooLarge { .. } => (INVALID_PARAMS, self.to_string()),
            ServeError::Invalid(error) => return error.to_jsonrpc_error(),
            ServeError::Refused(error) => (INTERNAL_ERROR, error.to_string()),
            ServeError::ClientError { key, error } => (
                INTERNAL_ERROR,
                format!(
                    "the client refused input request `{key}`: {}",
                    error.message
                ),
            ),
            ServeError::Internal(message) => (INTERNAL_ERROR, message.clone()),
        };
        Error {
            code,
            data: reason.map(|reason| serde_json::json!({ "reason": reason })),
            message,
            extra: Map::new(),
        }
    }
}

/// The code, `data.reason` and message of an authentic state that could not be accepted (see
/// [`ServeError::to_jsonrpc_error`]): what happened and what to do, without the store's own
/// error (an address, a URL), which stays in the server's logs. `None` for a state that is not
/// ours to accept.
fn refusal(refused: &OpenError) -> Option<(i64, &'static str, &'static str)> {
    Some(match refused {
        OpenError::Replayed => (
            INVALID_PARAMS,
            "spent",
            "requestState already used (each state is accepted once): call again without it",
        ),
        OpenError::QuotaExceeded => (
            INTERNAL_ERROR,
            "quota",
            "too many states of this caller are recorded as spent: retry once they expire",
        ),
        OpenError::StoreFull => (
            INTERNAL_ERROR,
            "storeFull",
            "the server's replay store is full: retry later",
        ),
        OpenError::ReplayStore(_) => (
            INTERNAL_ERROR,
            "storeUnavailable",
            "the state could not be recorded as spent: the server's replay store is unavailable",
        ),
        _ => return None,
    })
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::InvalidState(error) => write!(f, "invalid requestState: {error}"),
            ServeError::Refused(error) => error.fmt(f),
            ServeError::Invalid(error) => error.fmt(f),
            ServeError::ClientError { key, error } => write!(
                f,
                "the client refused input request `{key}`: {} ({})",
                error.message, error.code
            ),
            ServeError::UndigestableParams(error) => error.fmt(f),
            ServeError::StateTooLarge { len, max } => write!(
                f,
                "the answers are too large to carry to the next round: {len} bytes, at most {max}"
            ),
            ServeError::Internal(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ServeError {}

/// What the sealed `requestState` holds between rounds.
#[derive(Debug)]
struct State {
    /// Every answer so far, pinned to its question.
    answers: BTreeMap<String, Pinned>,
    /// The questions of the last round, by key: only these keys' answers are read.
    asked: BTreeMap<String, String>,
    /// When the call started plus its lifetime, in ms since the Unix epoch: no round's state
    /// is valid past it.
    deadline: u64,
}

impl State {
    /// The state of a call's first round.
    fn first(now: SystemTime, lifetime: Duration) -> Self {
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        let deadline = since.saturating_add(lifetime).as_millis();
        Self {
            answers: BTreeMap::new(),
            asked: BTreeMap::new(),
            deadline: u64::try_from(deadline).unwrap_or(u64::MAX),
        }
    }

    /// The TTL of a state sealed at `now`: the round's, cut at the call's deadline.
    fn ttl(&self, now: SystemTime, ttl: Duration) -> Duration {
        let deadline = UNIX_EPOCH.checked_add(Duration::from_millis(self.deadline));
        let left = deadline.and_then(|deadline| deadline.duration_since(now).ok());
        left.map_or(ttl, |left| left.min(ttl))
    }
}

/// Sealed as `[deadline, asked, answers]`: `[ms, {key: digest}, {key: [digest, answer]}]`.
impl Serialize for State {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.deadline, &self.asked, &self.answers).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (deadline, asked, answers) = Deserialize::deserialize(deserializer)?;
        Ok(State {
            answers,
            asked,
            deadline,
        })
    }
}

/// Serves a 2026-07-28 request (`tools/call`, `prompts/get`, `resources/read`) whose handler may
/// need input: opens the state of earlier rounds (an expired one starts over), pins the answers
/// of this retry to the questions they answer, and runs `handler`. It finishes, or its
/// questions go out in an `InputRequiredResult` with the answers so far sealed in the state.
pub fn serve<P, R>(
    params: &P,
    sealing: &Sealing<'_>,
    now: SystemTime,
    handler: impl FnOnce(&mut Input<'_>) -> Result<R, Need>,
) -> Result<Served<R>, ServeError>
where
    P: RetryParams + Serialize,
{
    let context = SealContext::for_request(&sealing.principal, params, sealing.ttl)
        .map_err(ServeError::UndigestableParams)?;
    let opened = match params.request_state() {
        None => None,
        Some(token) => {
            let opened = match sealing.replay.as_deref() {
                Some(store) => sealing.sealer.open_once(token, &context, now, store),
                None => sealing.sealer.open(token, &context, now),
            };
            match opened {
                Ok(bytes) => Some(bytes),
                // An honest client that took too long, or a call past its lifetime (its
                // last state expired at the deadline): start over.
                Err(OpenError::Expired { .. }) => None,
                Err(refused) => return Err(ServeError::InvalidState(refused)),
            }
        }
    };
    // A state of another shape was sealed with our key by another release of this crate (the
    // format changed in 0.2.0): its call starts over, as an expired one does.
    let opened = opened.and_then(|bytes| serde_json::from_slice::<State>(&bytes).ok());
    let mut state = opened.unwrap_or_else(|| State::first(now, sealing.lifetime));
    if let Some(responses) = params.input_responses() {
        for (key, response) in responses {
            // Only an answer to a question of the last round is pinned; others are dropped.
            let Some(question) = state.asked.get(key) else {
                continue;
            };
            state.answers.insert(
                key.clone(),
                Pinned {
                    q: question.clone(),
                    a: response.clone(),
                },
            );
        }
    }
    let mut input = Input::new(params.client_capabilities(), &state.answers);
    match handler(&mut input) {
        Ok(result) => Ok(Served::Complete(result)),
        Err(Need::Refused(error)) => Err(ServeError::Refused(error)),
        Err(Need::Invalid(error)) => Err(ServeError::Invalid(error)),
        Err(Need::Asked) => {
            let Input { asked, pins, .. } = input;
            let next = State {
                answers: state.answers,
                asked: pins,
                deadline: state.deadline,
            };
            let payload = serde_json::to_vec(&next)
                .map_err(|e| ServeError::Internal(format!("encoding the state: {e}")))?;
            if payload.len() > sealing.max_state_len {
                return Err(ServeError::StateTooLarge {
                    len: payload.len(),
                    max: sealing.max_state_len,
                });
            }
            let context = SealContext {
                ttl: next.ttl(now, sealing.ttl),
                ..context
            };
            let token = sealing
                .sealer
                .seal(&payload, &context, now)
                .map_err(|e| ServeError::Internal(format!("sealing the state: {e}")))?;
            let mut asking = InputRequired::new(params.client_capabilities());
            for (key, request) in asked {
                asking = asking.request(key, request).map_err(ServeError::Refused)?;
            }
            let result = asking.state(token).build().map_err(ServeError::Refused)?;
            Ok(Served::InputRequired(Box::new(result)))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2025-11-25 and older

#[cfg(feature = "v2025_11_25")]
pub use live::{Live, LiveAnswer, LiveCall, LiveRequest};

#[cfg(feature = "v2025_11_25")]
mod live {
    use std::collections::BTreeMap;

    use super::{Input, Need, Pinned, ResponseError, Revision, ServeError};
    use crate::question::answer_path;
    use mcp_typed::v2025_11_25 as legacy;
    use mcp_typed::v2026_07_28::{ClientCapabilities, InputResponse};

    /// A call of the 2025-11-25 era (or older) whose handler asks through live server requests.
    ///
    /// [`LiveCall::run`] runs the handler: it finishes, or gives the requests to send (with ids
    /// the transport chose). Each response goes to [`LiveCall::answer`]; once every request of
    /// the round is answered, run the handler again, with the same answers and the new ones. A
    /// timeout or a cancellation is an error response the transport makes up.
    #[derive(Debug, Clone)]
    pub struct LiveCall {
        capabilities: ClientCapabilities,
        /// The revision the session negotiated, whose forms the requests carry.
        revision: Revision,
        answers: BTreeMap<String, Pinned>,
        /// The requests sent and not answered: their id, key and question.
        waiting: Vec<(legacy::RequestId, String, String)>,
    }

    /// What [`LiveCall::run`] gives.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Live<R> {
        /// The handler finished.
        Complete(R),
        /// Send these requests; their responses go to [`LiveCall::answer`].
        Send(Vec<LiveRequest>),
    }

    /// A request of a live call, to send.
    #[derive(Debug, Clone, PartialEq)]
    pub struct LiveRequest {
        /// The request, typed.
        pub message: legacy::ServerMessage,
        /// The request as the JSON text to send: a form's properties in the order the form
        /// declares them and each property's keywords in the derive's order, which `message`
        /// written again would not keep (a generated property struct writes its keywords in
        /// the official schema's order).
        pub json: String,
    }

    /// What [`LiveCall::answer`] made of a response.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum LiveAnswer {
        /// Not a response to a request of this call.
        NotOurs,
        /// Filed; other requests of the round are still unanswered.
        Waiting,
        /// Every request of the round is answered: run the handler again.
        Ready,
    }

    impl LiveCall {
        /// A call from a client that declared `capabilities` at `initialize`.
        pub fn new(capabilities: &legacy::ClientCapabilities) -> Self {
            // The same capabilities in the model the questions are checked against; a member
            // that revision does not know is simply not declared.
            let capabilities = serde_json::to_value(capabilities)
                .ok()
                .and_then(|value| serde_json::from_value(value).ok())
                .unwrap_or_default();
            Self {
                capabilities,
                revision: Revision::V2025_11_25,
                answers: BTreeMap::new(),
                waiting: Vec::new(),
            }
        }

        /// The protocol version the session negotiated at `initialize` (2025-11-25 when not
        /// given): forms are written as that revision's, and one it cannot express (a multi
        /// select in 2025-06-18) is refused with [`AskError::Form`](crate::AskError::Form).
        /// A revision without elicitation (2025-03-26 and older) declares no capability for it,
        /// so its forms are refused before.
        pub fn revision(mut self, version: &str) -> Self {
            self.revision = match version {
                "2025-06-18" | "2025-03-26" | "2024-11-05" => Revision::V2025_06_18,
                _ => Revision::V2025_11_25,
            };
            self
        }

        /// Whether requests of this call are waiting for their responses.
        pub fn is_waiting(&self) -> bool {
            !self.waiting.is_empty()
        }

        /// Runs the handler with the answers so far. `next_id` gives the id of each request
        /// to send.
        pub fn run<R>(
            &mut self,
            mut next_id: impl FnMut() -> legacy::RequestId,
            handler: impl FnOnce(&mut Input<'_>) -> Result<R, Need>,
        ) -> Result<Live<R>, ServeError> {
            let mut input = Input::new(&self.capabilities, &self.answers);
            input.live_forms = Some((self.revision, BTreeMap::new()));
            let (asked, pins, forms) = match handler(&mut input) {
                Ok(result) => return Ok(Live::Complete(result)),
                Err(Need::Refused(error)) => return Err(ServeError::Refused(error)),
                Err(Need::Invalid(error)) => return Err(ServeError::Invalid(error)),
                Err(Need::Asked) => (input.asked, input.pins, input.live_forms),
            };
            let forms = forms.map(|(_, forms)| forms).unwrap_or_default();
            let mut messages = Vec::new();
            for (key, mut request) in asked {
                let id = next_id();
                let id_text = serde_json::to_string(&id)
                    .map_err(|e| ServeError::Internal(format!("encoding an id: {e}")))?;
                crate::question::name_live_request(&mut request, format!("{key}-{id_text}"));
                // Through text, never a `serde_json::Value`: a form's properties go out in the
                // order the form declares them, and each property's keywords as written (the
                // form's own text, as the typed request writes keywords in the schema's order).
                let json = match forms.get(&key) {
                    Some(params) => format!(
                        r#"{{"jsonrpc":"2.0","id":{id_text},"method":"elicitation/create","params":{params}}}"#
                    ),
                    None => {
                        let request = serde_json::to_string(&request)
                            .map_err(|e| ServeError::Internal(format!("encoding `{key}`: {e}")))?;
                        let body = request.strip_prefix('{').unwrap_or(&request);
                        format!(r#"{{"jsonrpc":"2.0","id":{id_text},{body}"#)
                    }
                };
                let message = json.parse::<legacy::ServerMessage>().map_err(|e| {
                    ServeError::Internal(format!("`{key}` is not a 2025-11-25 request: {e}"))
                })?;
                let question = pins.get(&key).cloned().unwrap_or_default();
                self.waiting.push((id, key, question));
                messages.push(LiveRequest { message, json });
            }
            Ok(Live::Send(messages))
        }

        /// Files the client's response to request `id`. An error response ends the call:
        /// [`ServeError::ClientError`].
        pub fn answer(
            &mut self,
            id: &legacy::RequestId,
            response: Result<legacy::ClientResult, legacy::Error>,
        ) -> Result<LiveAnswer, ServeError> {
            let Some(index) = self.waiting.iter().position(|(sent, ..)| sent == id) else {
                return Ok(LiveAnswer::NotOurs);
            };
            let (_, key, question) = self.waiting.remove(index);
            match response {
                Ok(result) => {
                    let answer = input_response(&key, &result).map_err(ServeError::Invalid)?;
                    self.answers.insert(
                        key,
                        Pinned {
                            q: question,
                            a: answer,
                        },
                    );
                }
                Err(error) => {
                    return Err(ServeError::ClientError {
                        key,
                        error: mcp_typed::v2026_07_28::Error {
                            code: error.code,
                            data: error.data,
                            message: error.message,
                            extra: error.extra,
                        },
                    })
                }
            }
            Ok(if self.waiting.is_empty() {
                LiveAnswer::Ready
            } else {
                LiveAnswer::Waiting
            })
        }
    }

    /// A 2025-11-25 client's result as the 2026-07-28 answer the handler reads: each kind of
    /// input (elicitation, sampling, roots) written by the one revision's type and read by the
    /// other's, which have the same members. A result of no such kind is malformed.
    fn input_response(
        key: &str,
        result: &legacy::ClientResult,
    ) -> Result<InputResponse, ResponseError> {
        let text = serde_json::to_string(result);
        let answer = text
            .as_deref()
            .map_err(ToString::to_string)
            .and_then(|text| {
                serde_json::from_str::<InputResponse>(text).map_err(|e| e.to_string())
            });
        answer.map_err(|message| ResponseError::Malformed {
            key: key.to_owned(),
            path: answer_path(key),
            message: format!("not the result of an input request: {message}"),
        })
    }
}
