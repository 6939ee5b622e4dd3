//! mcp-typed inside [rmcp](https://docs.rs/rmcp) servers: derived elicitation forms, validated
//! answers, sealed `requestState` and one handler for both protocol eras, in a few lines of an
//! ordinary rmcp `ServerHandler`.
//!
//! rmcp owns the transport, the sessions and the dispatch; this crate converts at the edge
//! (rmcp's params and results ↔ the generated types, through serde) and runs the handler with
//! [`mcp_mrtr::serve`]:
//!
//! - to a 2026-07-28 client, the handler's questions go out in an `InputRequiredResult` whose
//!   state is sealed by [`StateSealer`] (key ring, TTL, call lifetime, principal, method, params
//!   digest, question pinning, single use by default); the retry runs the handler again;
//! - to a 2025-11-25 (or older) client, the same questions go out as live
//!   `elicitation/create`, `sampling/createMessage` and `roots/list` requests through the rmcp
//!   peer, and the handler runs again with the answers.
//!
//! A crate that depends on this one (and rmcp) alone derives its forms through the re-exports,
//! naming the types crate's path with `#[elicit(crate = "...")]`:
//!
//! ```no_run
//! use mcp_typed_rmcp::mcp_mrtr::seal::{SealingKey, StateSealer};
//! use mcp_typed_rmcp::mcp_mrtr::serve::{Input, Need};
//! use mcp_typed_rmcp::mcp_typed::elicit::ElicitOutcome;
//! use mcp_typed_rmcp::{Elicit, Eras, Outcome};
//! use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData};
//! use rmcp::service::RequestContext;
//! use rmcp::RoleServer;
//!
//! #[derive(Debug, Elicit)]
//! #[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
//! struct Confirm {
//!     /// Type the name of the repository to confirm
//!     repository: String,
//! }
//!
//! /// The tool, once for both eras.
//! fn delete_repo(input: &mut Input<'_>) -> Result<String, Need> {
//!     match input.elicit::<Confirm>("confirm", "Deleting a repository cannot be undone")? {
//!         ElicitOutcome::Accepted(c) => Ok(format!("deleted {}", c.repository)),
//!         _ => Ok("nothing deleted".into()),
//!     }
//! }
//!
//! // In `ServerHandler::call_tool`:
//! async fn call_tool(
//!     eras: &Eras,
//!     params: CallToolRequestParams,
//!     cx: RequestContext<RoleServer>,
//! ) -> Result<CallToolResponse, ErrorData> {
//!     match eras.call_tool(&params, &cx, "user-42", delete_repo).await? {
//!         Outcome::Complete(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into()),
//!         Outcome::InputRequired(asked) => Ok(asked.into()),
//!     }
//! }
//! # let _ = Eras::new(StateSealer::new(SealingKey::new(1, [7; 32])));
//! ```
//!
//! # Where rmcp's wire form departs
//!
//! - rmcp reads a tool call's `arguments` into a `serde_json::Map`: duplicate members are gone
//!   (the last one kept) and numbers are `f64` or 64-bit integers before this crate sees them; the
//!   params digest is taken from what rmcp hands over, which is also what the tool reads.
//! - rmcp 3.11 writes the `params` of every request it sends (a live `elicitation/create`, and
//!   each request inside an `InputRequiredResult`) through a `serde_json::Value`: unless
//!   serde_json's `preserve_order` feature is on in the build, their members go out sorted by
//!   name, a form's properties included (`required`, an array, keeps the declared order). This
//!   crate's default feature `declared-order` turns it on (for the whole build, as cargo unifies
//!   features), and loses no order itself: an `InputRequiredResult` reaches rmcp's model through
//!   JSON text, its forms' properties in declared order (`ElicitationSchema::property_order`,
//!   each property's keywords in the order of rmcp's typed schemas), and a live request's params
//!   (a `Value` of rmcp's `CustomRequest`) are read from the form's own text, properties and
//!   keywords in the derive's order (`tests/wire_order.rs`). Without the feature, forms go out
//!   sorted by name.
//! - rmcp's elicitation model has no `pattern` for a string property: a 2026-07-28 input request
//!   it cannot carry unchanged is refused ([`Eras`] compares what rmcp would send with the derived
//!   form and answers -32603 naming the difference) rather than sent altered. In 2025-11-25 the
//!   request goes out as raw JSON and keeps every keyword.
//!
//! # Clients
//!
//! [`client::TypedClient`] is the client half: an rmcp `ClientHandler` that hands every form
//! (live in 2025-11-25, inside an `InputRequiredResult` in 2026-07-28, whose retries rmcp
//! drives), URL, sampling and roots request to an [`mcp_mrtr::client::Answerer`], fills the
//! form's defaults and validates the answer before it is sent, and declares the capabilities
//! of [`client::Supports`]. rmcp's typed elicitation model drops keywords it has no field for
//! (`pattern`, `x-*`) before the handler sees the form: see [`client`].
//!
//! # Serving over HTTP
//!
//! [`http`] (feature `http`, on by default) is what a deployed Streamable HTTP server puts in
//! front of rmcp: a guard that refuses oversized or deeply nested bodies before rmcp parses
//! them, and `serve`, with a header-read timeout, a cap on connections and the peer's address.
#![warn(missing_docs)]

pub mod client;
#[cfg(feature = "http")]
pub mod http;

/// The era machinery: `serve`, `Input`, sealing, the client half.
pub use mcp_mrtr;
/// The types crate this adapter converts to and from, for crates that depend on the adapter
/// alone (derive with `#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]`).
pub use mcp_typed;
/// `#[derive(Elicit)]` and its trait.
pub use mcp_typed::Elicit;

use std::sync::Arc;
use std::time::SystemTime;

use mcp_mrtr::seal::StateSealer;
use mcp_mrtr::serve::{
    serve, Input, Live, LiveCall, LiveRequest, Need, Sealing, ServeError, Served,
};
use mcp_mrtr::{AskError, RetryParams};
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28 as modern;
use rmcp::model::{CustomRequest, ErrorCode, ErrorData, ServerRequest};
use rmcp::service::{Peer, RequestContext, ServiceError};
use rmcp::RoleServer;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::runtime::RuntimeFlavor;

/// The JSON-RPC code of a request that needs a client capability the client did not declare
/// (2026-07-28, SEP-2575).
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

/// How the server serves handlers that ask for input, in both eras: how 2026-07-28 states are
/// sealed (a [`Sealing`] kept between requests: the sealer, shared by every instance that may
/// serve a retry, its limits, and where spent states are recorded), and how many rounds of live
/// requests a 2025-11-25 call may take.
///
/// Each state is single-use by default, on this process ([`Sealing#single-use`]): give every
/// instance of a deployment one shared store (`RedisReplayStore`, feature `redis`) for single
/// use across them, or opt out, through [`Eras::sealing`]:
///
/// ```
/// # use std::sync::Arc;
/// # use std::time::Duration;
/// # use mcp_mrtr::seal::{MemoryReplayStore, SealingKey, StateSealer};
/// # use mcp_typed_rmcp::Eras;
/// let shared = Arc::new(MemoryReplayStore::new()); // `RedisReplayStore::open(url)?` in a deployment
/// let eras = Eras::new(StateSealer::new(SealingKey::new(1, [7; 32])))
///     .sealing(|sealing| sealing.ttl(Duration::from_secs(300)).shared_replay_store(shared));
/// ```
///
/// A store of its own's call blocks; on a multi-threaded tokio runtime it runs in
/// `block_in_place`, so that the worker's other tasks move on.
#[derive(Clone)]
pub struct Eras {
    sealing: Sealing<'static>,
    /// The most rounds of live requests one 2025-11-25 call may take.
    max_live_rounds: usize,
}

impl std::fmt::Debug for Eras {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Eras")
            .field("sealing", &self.sealing)
            .field("max_live_rounds", &self.max_live_rounds)
            .finish()
    }
}

/// What a call answered: the handler's own result, or (2026-07-28) the questions to send back.
#[derive(Debug)]
pub enum Outcome<R> {
    /// The handler finished.
    Complete(R),
    /// Answer the request with this result; the client retries with the answers.
    InputRequired(rmcp::model::InputRequiredResult),
}

impl Eras {
    /// Serves with `sealer`, the defaults of [`Sealing`] (TTL, call lifetime, the largest
    /// state, each state single-use on this process), and at most 10 rounds of live requests.
    pub fn new(sealer: StateSealer) -> Self {
        Self {
            sealing: Sealing::shared(Arc::new(sealer)),
            max_live_rounds: 10,
        }
    }

    /// Changes how states are sealed: `configure` gets the current [`Sealing`] and returns the
    /// one to use (`ttl`, `lifetime`, `max_state_len`, `shared_replay_store`, `allow_replay`).
    pub fn sealing(mut self, configure: impl FnOnce(Sealing<'static>) -> Sealing<'static>) -> Self {
        self.sealing = configure(self.sealing);
        self
    }

    /// Serves a `tools/call` whose handler may ask for input, in the era of the request.
    /// `principal` is the authenticated principal states are bound to (the subject of the
    /// request's token; a fixed value only where there is none).
    pub async fn call_tool<R>(
        &self,
        params: &rmcp::model::CallToolRequestParams,
        cx: &RequestContext<RoleServer>,
        principal: &str,
        handler: impl FnMut(&mut Input<'_>) -> Result<R, Need>,
    ) -> Result<Outcome<R>, ErrorData> {
        self.run::<modern::CallToolRequestParams, R>(params, cx, principal, handler)
            .await
    }

    /// [`Eras::call_tool`] for a `prompts/get`.
    pub async fn get_prompt<R>(
        &self,
        params: &rmcp::model::GetPromptRequestParams,
        cx: &RequestContext<RoleServer>,
        principal: &str,
        handler: impl FnMut(&mut Input<'_>) -> Result<R, Need>,
    ) -> Result<Outcome<R>, ErrorData> {
        self.run::<modern::GetPromptRequestParams, R>(params, cx, principal, handler)
            .await
    }

    /// [`Eras::call_tool`] for a `resources/read`.
    pub async fn read_resource<R>(
        &self,
        params: &rmcp::model::ReadResourceRequestParams,
        cx: &RequestContext<RoleServer>,
        principal: &str,
        handler: impl FnMut(&mut Input<'_>) -> Result<R, Need>,
    ) -> Result<Outcome<R>, ErrorData> {
        self.run::<modern::ReadResourceRequestParams, R>(params, cx, principal, handler)
            .await
    }

    async fn run<P, R>(
        &self,
        params: &impl Serialize,
        cx: &RequestContext<RoleServer>,
        principal: &str,
        mut handler: impl FnMut(&mut Input<'_>) -> Result<R, Need>,
    ) -> Result<Outcome<R>, ErrorData>
    where
        P: RetryParams + Serialize + DeserializeOwned,
    {
        let stateless = cx
            .protocol_version()
            .is_some_and(|version| !version.has_initialize());
        if stateless {
            let params: P = modern_params(params, cx)?;
            let sealing = self.sealing.for_principal(principal);
            let run = || serve(&params, &sealing, SystemTime::now(), handler);
            // A store of its own (Redis) blocks for a round trip, up to its timeout when it is
            // down: on a multi-threaded runtime the worker hands its other tasks over first.
            let multi_threaded = tokio::runtime::Handle::try_current()
                .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
            let served = if multi_threaded && sealing.has_own_replay_store() {
                tokio::task::block_in_place(run)
            } else {
                run()
            };
            return match served {
                Ok(Served::Complete(result)) => Ok(Outcome::Complete(result)),
                Ok(Served::InputRequired(asked)) => {
                    Ok(Outcome::InputRequired(to_rmcp_input_required(&asked)?))
                }
                Err(error) => Err(serve_error(&error)),
            };
        }
        let capabilities: legacy::ClientCapabilities = match cx.client_capabilities() {
            Some(capabilities) => convert(&capabilities, "the client capabilities")?,
            None => legacy::ClientCapabilities::default(),
        };
        // The live requests are written in the revision the session agreed on.
        let version = cx.protocol_version();
        let mut call = LiveCall::new(&capabilities).revision(
            version
                .as_ref()
                .map_or("2025-11-25", |version| version.as_str()),
        );
        let mut last_id = 0i64;
        for _ in 0..self.max_live_rounds {
            let sent = call
                .run(
                    || {
                        last_id += 1;
                        legacy::RequestId::Integer(last_id)
                    },
                    &mut handler,
                )
                .map_err(|error| serve_error(&error))?;
            let requests = match sent {
                Live::Complete(result) => return Ok(Outcome::Complete(result)),
                Live::Send(requests) => requests,
            };
            for request in requests {
                let (id, answer) = ask_live(&cx.peer, request).await?;
                call.answer(&id, answer)
                    .map_err(|error| serve_error(&error))?;
            }
        }
        Err(ErrorData::internal_error(
            format!(
                "the handler was still asking after {} rounds of live requests",
                self.max_live_rounds
            ),
            None,
        ))
    }
}

/// Why [`elicit`] has no outcome.
#[derive(Debug)]
pub enum ElicitError {
    /// The request is of the 2026-07-28 era, where a server sends no requests: ask through
    /// [`Eras`] (an `InputRequiredResult`).
    Stateless,
    /// The client did not declare form-mode elicitation: the spec forbids sending the form.
    NotDeclared,
    /// The form cannot be written as 2025-11-25 `elicitation/create` params.
    Form(mcp_typed::elicit::ToRevisionError),
    /// The client answered with an error, or the request failed on its way.
    Client(ErrorData),
    /// The user accepted content that breaks the form: every violation, with its JSON pointer
    /// below the answer's `content`.
    Invalid(mcp_typed::elicit::ValidationErrors),
}

impl std::fmt::Display for ElicitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Stateless => {
                f.write_str("a 2026-07-28 request cannot be answered with a live request: use Eras")
            }
            Self::NotDeclared => f.write_str("the client did not declare form-mode elicitation"),
            Self::Form(error) => write!(f, "the form cannot be sent: {error}"),
            Self::Client(error) => write!(f, "the elicitation failed: {}", error.message),
            Self::Invalid(errors) => write!(f, "the answer breaks the form: {errors}"),
        }
    }
}

impl std::error::Error for ElicitError {}

impl ElicitError {
    /// The rmcp error to answer the request with: -32602 for an answer that breaks the form,
    /// the client's own error as it came, -32603 for the rest.
    pub fn to_error_data(&self) -> ErrorData {
        match self {
            Self::Client(error) => error.clone(),
            Self::Invalid(errors) => {
                let errors: Vec<Value> = (errors.iter())
                    .map(|error| {
                        json!({
                            "path": format!("/content{}", error.pointer()),
                            "keyword": error.keyword(),
                            "message": error.message(),
                        })
                    })
                    .collect();
                ErrorData::invalid_params(self.to_string(), Some(json!({ "errors": errors })))
            }
            other => ErrorData::internal_error(other.to_string(), None),
        }
    }
}

/// Asks the client of a 2025-11-25 (or older) session to fill the form of `T`, shown with
/// `message`, and returns the user's decision, an accepted answer validated by the derived
/// code and built. The form goes out as the derived JSON (raw, past rmcp's model), and only to
/// a client that declared form-mode elicitation.
///
/// For a handler that must also serve 2026-07-28 clients, ask through [`Eras`] instead.
pub async fn elicit<T: mcp_typed::elicit::Elicit>(
    cx: &RequestContext<RoleServer>,
    message: impl Into<String>,
) -> Result<mcp_typed::elicit::ElicitOutcome<T>, ElicitError> {
    if cx
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
    {
        return Err(ElicitError::Stateless);
    }
    let capabilities: legacy::ClientCapabilities = match cx.client_capabilities() {
        Some(capabilities) => {
            convert(&capabilities, "the client capabilities").map_err(ElicitError::Client)?
        }
        None => legacy::ClientCapabilities::default(),
    };
    if !capabilities
        .elicitation
        .as_ref()
        .is_some_and(|elicitation| elicitation.supports_form())
    {
        return Err(ElicitError::NotDeclared);
    }
    // The form's own text, read into a `Value`: its properties and their keywords in the
    // derive's order (with `declared-order`), which the typed params would not keep for keywords.
    let params = T::requested_schema()
        .form_params_json::<legacy::ElicitRequestFormParams>(&message.into())
        .map_err(ElicitError::Form)?;
    let params: Value = serde_json::from_str(&params)
        .map_err(|e| ElicitError::Client(ErrorData::internal_error(e.to_string(), None)))?;
    let sent = cx
        .peer
        .send_request(ServerRequest::CustomRequest(CustomRequest::new(
            "elicitation/create",
            Some(params),
        )))
        .await;
    let result = match sent {
        Ok(result) => result,
        Err(ServiceError::McpError(error)) => return Err(ElicitError::Client(error)),
        Err(other) => {
            return Err(ElicitError::Client(ErrorData::internal_error(
                format!("the elicitation/create request failed: {other}"),
                None,
            )))
        }
    };
    let result: legacy::ElicitResult = convert(&result, "the elicitation result")
        .map_err(|e| ElicitError::Client(ErrorData::invalid_params(e.message, None)))?;
    mcp_typed::elicit::ElicitOutcome::try_from(&result).map_err(ElicitError::Invalid)
}

/// Sends one live request of a 2025-11-25 call through the rmcp peer as raw JSON (so that
/// rmcp's model cannot drop a keyword of the form), and reads its response back into the
/// generated types.
async fn ask_live(
    peer: &Peer<RoleServer>,
    request: LiveRequest,
) -> Result<
    (
        legacy::RequestId,
        Result<legacy::ClientResult, legacy::Error>,
    ),
    ErrorData,
> {
    let legacy::ServerMessage::Request { id, .. } = &request.message else {
        return Err(ErrorData::internal_error(
            "a live request without an id",
            None,
        ));
    };
    let id = id.clone();
    // Its own text, in a `Value`: a form's keywords in the derive's order (`declared-order`).
    let mut message: Value = serde_json::from_str(&request.json)
        .map_err(|e| ErrorData::internal_error(format!("reading a live request: {e}"), None))?;
    let method = message["method"].as_str().unwrap_or_default().to_owned();
    let params = message.get_mut("params").map(Value::take);
    let sent = peer
        .send_request(ServerRequest::CustomRequest(CustomRequest::new(
            method.clone(),
            params,
        )))
        .await;
    let answer = match sent {
        Ok(result) => {
            let result = serde_json::to_value(&result).map_err(|e| {
                ErrorData::internal_error(format!("re-encoding the `{method}` result: {e}"), None)
            })?;
            // The result of the request it answers, decoded as that request's own result type.
            let text = format!(
                r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
                json!(id_value(&id))
            );
            match text.parse::<legacy::ClientMessage>() {
                Ok(legacy::ClientMessage::Response { result, .. }) => Ok(result),
                Ok(_) => unreachable_response(&method)?,
                Err(error) => Err(legacy::Error {
                    code: error.code(),
                    data: None,
                    message: format!("the `{method}` result does not decode: {error}"),
                    extra: Default::default(),
                }),
            }
        }
        Err(ServiceError::McpError(error)) => Err(legacy::Error {
            code: i64::from(error.code.0),
            data: error.data,
            message: error.message.into_owned(),
            extra: Default::default(),
        }),
        Err(other) => {
            return Err(ErrorData::internal_error(
                format!("the live `{method}` request failed: {other}"),
                None,
            ))
        }
    };
    Ok((id, answer))
}

fn unreachable_response<T>(method: &str) -> Result<T, ErrorData> {
    Err(ErrorData::internal_error(
        format!("the `{method}` result decoded as something else than a response"),
        None,
    ))
}

fn id_value(id: &legacy::RequestId) -> Value {
    match id {
        legacy::RequestId::Integer(n) => json!(n),
        legacy::RequestId::String(s) => json!(s),
    }
}

/// rmcp's params of a 2026-07-28 request, with the `_meta` rmcp moved into the context put
/// back, as the generated params type (which reads the declared capabilities from it).
fn modern_params<P: DeserializeOwned>(
    params: &impl Serialize,
    cx: &RequestContext<RoleServer>,
) -> Result<P, ErrorData> {
    let mut value = serde_json::to_value(params)
        .map_err(|e| ErrorData::internal_error(format!("encoding the params: {e}"), None))?;
    if let Value::Object(members) = &mut value {
        let meta = serde_json::to_value(&cx.meta)
            .map_err(|e| ErrorData::internal_error(format!("encoding _meta: {e}"), None))?;
        members.insert("_meta".into(), meta);
    }
    let text = value.to_string();
    serde_json::from_str(&text).map_err(|e| ErrorData::invalid_params(e.to_string(), None))
}

/// One serde type to another through JSON text.
fn convert<T: DeserializeOwned>(value: &impl Serialize, what: &str) -> Result<T, ErrorData> {
    let text = serde_json::to_string(value)
        .map_err(|e| ErrorData::internal_error(format!("encoding {what}: {e}"), None))?;
    serde_json::from_str(&text)
        .map_err(|e| ErrorData::internal_error(format!("reading {what}: {e}"), None))
}

/// Our `InputRequiredResult` in rmcp's model, refused when rmcp's model would change it (a
/// keyword it has no field for): what the client gets is exactly what the handler asked.
pub fn to_rmcp_input_required(
    asked: &modern::InputRequiredResult,
) -> Result<rmcp::model::InputRequiredResult, ErrorData> {
    // Through text, not a `Value` (whose members are sorted by name): rmcp's model reads each
    // form's properties in the order of the text, the declared one, into `property_order`.
    let text = serde_json::to_string(asked).map_err(|e| {
        ErrorData::internal_error(format!("encoding the InputRequiredResult: {e}"), None)
    })?;
    let theirs: rmcp::model::InputRequiredResult = serde_json::from_str(&text).map_err(|e| {
        ErrorData::internal_error(format!("rmcp cannot carry the input requests: {e}"), None)
    })?;
    let ours: Value = serde_json::from_str(&text).map_err(|e| {
        ErrorData::internal_error(format!("reading the InputRequiredResult: {e}"), None)
    })?;
    let back = serde_json::to_value(&theirs).map_err(|e| {
        ErrorData::internal_error(format!("encoding rmcp's InputRequiredResult: {e}"), None)
    })?;
    match first_difference(&ours, &back, String::new()) {
        None => Ok(theirs),
        Some(pointer) => Err(ErrorData::internal_error(
            format!("rmcp's model would change the input requests at `{pointer}`: not sent"),
            None,
        )),
    }
}

/// The JSON pointer of the first place where `a` and `b` differ, members compared by name.
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (name, value) in a {
                let here = format!("{at}/{}", mcp_typed::json_pointer::escape(name));
                match b.get(name) {
                    Some(other) => {
                        if let Some(pointer) = first_difference(value, other, here) {
                            return Some(pointer);
                        }
                    }
                    None => return Some(here),
                }
            }
            b.keys()
                .find(|name| !a.contains_key(*name))
                .map(|name| format!("{at}/{name}"))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => (a.iter().zip(b))
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, format!("{at}/{i}"))),
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
        _ if a == b => None,
        _ => Some(if at.is_empty() { "/".into() } else { at }),
    }
}

/// The rmcp error of a refused call: [`ServeError::to_jsonrpc_error`], except that a question
/// needing a capability the client did not declare is -32021 with the capability in
/// `data.requiredCapabilities`, as 2026-07-28 defines it.
pub fn serve_error(error: &ServeError) -> ErrorData {
    if let ServeError::Refused(AskError::MissingCapability { capability, .. }) = error {
        let mut required = json!({});
        let mut at = &mut required;
        for part in capability.split('.') {
            at = &mut at[part];
            *at = json!({});
        }
        return ErrorData::new(
            ErrorCode(MISSING_REQUIRED_CLIENT_CAPABILITY),
            error.to_string(),
            Some(json!({ "requiredCapabilities": required })),
        );
    }
    let jsonrpc = error.to_jsonrpc_error();
    ErrorData::new(
        ErrorCode(i32::try_from(jsonrpc.code).unwrap_or(-32603)),
        jsonrpc.message,
        jsonrpc.data,
    )
}
