//! The client half: an rmcp [`ClientHandler`] that hands every request of a server for input
//! (a form, a URL, a sampling request, the roots) to an [`mcp_mrtr::client::Answerer`], in both
//! protocol eras, with the checks of [`mcp_mrtr::client::answer`].
//!
//! - To a 2025-11-25 (or older) server the requests come live (`elicitation/create`,
//!   `sampling/createMessage`, `roots/list` in the middle of a call); to a 2026-07-28 server they
//!   come inside an `InputRequiredResult`, and rmcp's `call_tool` / `get_prompt` /
//!   `read_resource` drive the retries, calling the same handler methods under each input
//!   request's key. [`TypedClient`] answers both the same way.
//! - A form reaches the [`Answerer`] as the parsed [`RequestedSchema`](mcp_typed::elicit::RequestedSchema); the schema's defaults
//!   fill what the user left out, and the answer is validated before it is sent. An answer that
//!   breaks the form never goes onto the wire: the request fails (a 2026-07-28 call returns the
//!   error to the application; a live 2025-11-25 request is answered with a JSON-RPC error that
//!   names the fields and keywords, not the values), and the hook of
//!   [`TypedClient::on_refused`] gets the [`RetryError`] with every per-field error.
//! - The capabilities the client declares (`initialize` params, or `_meta` of every 2026-07-28
//!   request) are the ones of [`Supports`], and a request needing one not declared is refused.
//! - For a person at a terminal, feature `terminal` brings `mcp_mrtr::terminal::Terminal`, an
//!   [`Answerer`] that asks each field with its default pre-filled and checks it as it is
//!   entered (`TypedClient::new(Terminal::new(), Supports::FORMS)`; the example `http-client
//!   --interactive` does so).
//!
//! ```no_run
//! use mcp_typed_rmcp::client::{Supports, TypedClient};
//! use mcp_typed_rmcp::mcp_mrtr::client::{Answerer, FormAnswer};
//! use mcp_typed_rmcp::mcp_typed::elicit::RequestedSchema;
//! use mcp_typed_rmcp::mcp_typed::v2026_07_28::{
//!     CreateMessageRequestParams, CreateMessageResult, ElicitResultAction, Root,
//! };
//! use rmcp::model::CallToolRequestParams;
//! use rmcp::{ClientLifecycleMode, ClientServiceExt};
//!
//! struct User;
//!
//! impl Answerer for User {
//!     fn form(&mut self, _key: &str, _message: &str, _schema: &RequestedSchema) -> FormAnswer {
//!         FormAnswer::Accept(Default::default()) // the defaults, as the form gives them
//!     }
//!     fn url(&mut self, _key: &str, _message: &str, _url: &str) -> ElicitResultAction {
//!         ElicitResultAction::Decline
//!     }
//!     fn sample(&mut self, _key: &str, _p: &CreateMessageRequestParams) -> Result<CreateMessageResult, String> {
//!         Err("no model here".into())
//!     }
//!     fn roots(&mut self, _key: &str) -> Vec<Root> {
//!         Vec::new()
//!     }
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! # let (transport, _server) = tokio::io::duplex(4096);
//! let client = TypedClient::new(User, Supports::FORMS)
//!     .on_refused(|error| eprintln!("not sent: {error}"))
//!     .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
//!     .await?;
//! let result = client.call_tool(CallToolRequestParams::new("delete_repo")).await?;
//! # let _ = result; Ok(()) }
//! ```
//!
//! # Known limitations
//!
//! - rmcp parses a server's `elicitation/create` (live, or inside an `InputRequiredResult`)
//!   into its own typed model before any handler sees it, and that model **drops what it has no
//!   field for**: a string property's `pattern`, `x-*` extensions, unknown top-level keys. It
//!   keeps the order of the properties, and so does this adapter (rmcp's params are re-read
//!   from their text, never through a sorting `Value` map): the [`Answerer`] gets the fields in
//!   the order the server sent them. The [`RequestedSchema`](mcp_typed::elicit::RequestedSchema)
//!   it gets, and the validation, can only be as strict as what is left (a `pattern` the server
//!   wrote is not enforced). rmcp offers no raw hook for a request it can parse; only a live
//!   request whose form rmcp's model cannot read at all reaches
//!   [`ClientHandler::on_custom_request`], and that one is handled here from its raw JSON, every
//!   keyword kept (its properties in the order of rmcp's `Value`: as sent with this crate's
//!   default feature `declared-order`, sorted by name without it).
//! - Sampling and roots are deprecated in rmcp (SEP-2577) but still served.
//! - The [`Answerer`] is called synchronously, under a lock, on the runtime's thread.

use std::sync::{Arc, Mutex};

use mcp_mrtr::client::{answer, Answerer, RetryError};
use mcp_typed::v2026_07_28 as modern;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomRequest, CustomResult, ElicitRequestParams,
    ElicitResult, ErrorData, Implementation, ProtocolVersion,
};
#[allow(deprecated)]
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, ListRootsResult};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, RoleClient};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// What the client application answers, and so the capabilities the client declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supports {
    /// Form-mode elicitation (`elicitation.form`).
    pub form: bool,
    /// URL-mode elicitation (`elicitation.url`).
    pub url: bool,
    /// `sampling/createMessage` (`sampling`).
    pub sampling: bool,
    /// `roots/list` (`roots`).
    pub roots: bool,
    /// The client notifies root list changes (`roots.listChanged`).
    pub roots_list_changed: bool,
}

impl Supports {
    /// Forms only.
    pub const FORMS: Self = Self {
        form: true,
        url: false,
        sampling: false,
        roots: false,
        roots_list_changed: false,
    };
    /// Forms, URLs, sampling and roots (roots without list-change notifications).
    pub const ALL: Self = Self {
        form: true,
        url: true,
        sampling: true,
        roots: true,
        roots_list_changed: false,
    };

    /// The capabilities to declare, as JSON (`{"elicitation":{"form":{}},…}`).
    pub fn capabilities(&self) -> Value {
        let mut capabilities = json!({});
        if self.form || self.url {
            let mut elicitation = json!({});
            if self.form {
                elicitation["form"] = json!({});
            }
            if self.url {
                elicitation["url"] = json!({});
            }
            capabilities["elicitation"] = elicitation;
        }
        if self.sampling {
            capabilities["sampling"] = json!({});
        }
        if self.roots {
            capabilities["roots"] = if self.roots_list_changed {
                json!({ "listChanged": true })
            } else {
                json!({})
            };
        }
        capabilities
    }
}

type RefusedHook = Arc<dyn Fn(&RetryError) + Send + Sync>;

/// An rmcp [`ClientHandler`] answering a server's input requests through an [`Answerer`] (see
/// the [module](self) documentation).
pub struct TypedClient<A> {
    answerer: Mutex<A>,
    supports: Supports,
    /// The same capabilities, as [`mcp_mrtr::client::answer`] checks them.
    capabilities: modern::ClientCapabilities,
    config: ClientConfig,
    refused: Option<RefusedHook>,
}

impl<A> std::fmt::Debug for TypedClient<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedClient")
            .field("supports", &self.supports)
            .field("config", &self.config)
            .field("on_refused", &self.refused.is_some())
            .finish_non_exhaustive()
    }
}

impl<A: Answerer + Send + 'static> TypedClient<A> {
    /// A client answering with `answerer`, declaring what `supports` says, named after this
    /// crate, offering rmcp's default protocol version (the newest).
    pub fn new(answerer: A, supports: Supports) -> Self {
        let declared = supports.capabilities();
        let rmcp_capabilities: ClientCapabilities =
            serde_json::from_value(declared.clone()).expect("rmcp reads the capabilities");
        let capabilities: modern::ClientCapabilities =
            from_json(&declared).expect("the generated types read the capabilities");
        let config = ClientConfig::new(
            rmcp_capabilities,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        );
        Self {
            answerer: Mutex::new(answerer),
            supports,
            capabilities,
            config,
            refused: None,
        }
    }

    /// The name and version the client gives (`clientInfo`).
    pub fn client_info(mut self, info: Implementation) -> Self {
        self.config.client_info = info;
        self
    }

    /// The protocol version `initialize` offers (set 2025-11-25 for a stateful server: rmcp
    /// offers 2026-07-28 by default, which such a server may refuse).
    pub fn protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.config.protocol_version = version;
        self
    }

    /// Calls `hook` with every answer refused before it was sent (an answer breaking its form,
    /// with each field's error; a request needing an undeclared capability; …).
    pub fn on_refused(mut self, hook: impl Fn(&RetryError) + Send + Sync + 'static) -> Self {
        self.refused = Some(Arc::new(hook));
        self
    }

    /// What the client declares.
    pub fn supports(&self) -> Supports {
        self.supports
    }

    /// The answerer, for the application to read or change between requests.
    pub fn answerer(&self) -> std::sync::MutexGuard<'_, A> {
        self.answerer.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Answers one input request, given as its method and its params' JSON text, under `key`.
    /// Text, not a `Value`: a `Value` map would sort the form's properties by name, and the
    /// generated types keep the order they read.
    fn answer_json(&self, key: &str, method: &str, params: &str) -> Result<Value, ErrorData> {
        let text = format!(r#"{{"method":{},"params":{params}}}"#, Value::from(method));
        let request: modern::InputRequest = serde_json::from_str(&text).map_err(|e| {
            ErrorData::invalid_params(format!("the `{method}` request does not read: {e}"), None)
        })?;
        let response = {
            let mut answerer = self.answerer();
            answer(&self.capabilities, key, &request, &mut *answerer)
        };
        match response {
            Ok(response) => serde_json::to_value(&response).map_err(|e| {
                ErrorData::internal_error(format!("encoding the `{method}` answer: {e}"), None)
            }),
            Err(error) => {
                if let Some(hook) = &self.refused {
                    hook(&error);
                }
                Err(refusal(&error))
            }
        }
    }

    fn answer_typed<T: DeserializeOwned>(
        &self,
        cx: &RequestContext<RoleClient>,
        method: &str,
        params: &str,
    ) -> Result<T, ErrorData> {
        let value = self.answer_json(&cx.id.to_string(), method, params)?;
        serde_json::from_value(value).map_err(|e| {
            ErrorData::internal_error(
                format!("rmcp cannot carry the `{method}` answer: {e}"),
                None,
            )
        })
    }
}

/// The error a refused answer goes out as: what went wrong and where, never the values.
fn refusal(error: &RetryError) -> ErrorData {
    match error {
        RetryError::Answer { key, errors } => {
            let fields: Vec<Value> = errors
                .iter()
                .map(|e| json!({ "path": format!("/content{}", e.pointer()), "keyword": e.keyword() }))
                .collect();
            ErrorData::internal_error(
                format!("input request `{key}`: the answer breaks the form and was not sent"),
                Some(json!({ "errors": fields })),
            )
        }
        RetryError::Undeclared { .. } | RetryError::Schema { .. } => {
            ErrorData::invalid_params(error.to_string(), None)
        }
        _ => ErrorData::internal_error(error.to_string(), None),
    }
}

fn from_json<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    // Through text: the generated types read numbers from their text.
    serde_json::from_str(&value.to_string())
}

/// rmcp's params as JSON text, the members in the order rmcp writes them (a form's properties
/// in the order the server sent them).
fn params_json(params: &impl serde::Serialize) -> Result<String, ErrorData> {
    serde_json::to_string(params)
        .map_err(|e| ErrorData::internal_error(format!("encoding the params: {e}"), None))
}

#[allow(deprecated)]
impl<A: Answerer + Send + 'static> ClientHandler for TypedClient<A> {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let params = params_json(&request)?;
        self.answer_typed(&cx, "elicitation/create", &params)
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = params_json(&params)?;
        self.answer_typed(&cx, "sampling/createMessage", &params)
    }

    async fn list_roots(
        &self,
        cx: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        self.answer_typed(&cx, "roots/list", "{}")
    }

    /// A live request rmcp's model could not read (a form with a property it has no type for)
    /// arrives here as raw JSON: answered from it, every keyword kept.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        cx: RequestContext<RoleClient>,
    ) -> Result<CustomResult, ErrorData> {
        match request.method.as_str() {
            method @ ("elicitation/create" | "sampling/createMessage" | "roots/list") => {
                let params = request.params.unwrap_or_else(|| json!({})).to_string();
                let value = self.answer_json(&cx.id.to_string(), method, &params)?;
                Ok(CustomResult::new(value))
            }
            method => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                method.to_owned(),
                None,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_mrtr::client::FormAnswer;
    use mcp_typed::elicit::RequestedSchema;
    use serde_json::Map;

    /// Accepts every form with the same content, and records the property names of each.
    struct Fixed(Map<String, Value>, Vec<Vec<String>>);

    impl Answerer for Fixed {
        fn form(&mut self, _: &str, _: &str, schema: &RequestedSchema) -> FormAnswer {
            let names = schema.properties.iter().map(|(name, _)| name.clone());
            self.1.push(names.collect());
            FormAnswer::Accept(self.0.clone())
        }
        fn url(&mut self, _: &str, _: &str, _: &str) -> modern::ElicitResultAction {
            modern::ElicitResultAction::Accept
        }
        fn sample(
            &mut self,
            _: &str,
            _: &modern::CreateMessageRequestParams,
        ) -> Result<modern::CreateMessageResult, String> {
            Err("none".into())
        }
        fn roots(&mut self, _: &str) -> Vec<modern::Root> {
            Vec::new()
        }
    }

    fn form() -> ElicitRequestParams {
        serde_json::from_value(json!({
            "mode": "form",
            "message": "Who?",
            "requestedSchema": {"type": "object", "properties": {
                "name": {"type": "string", "minLength": 3},
                "age": {"type": "integer", "default": 30},
            }, "required": ["name"]},
        }))
        .unwrap()
    }

    fn answer_form(client: &TypedClient<Fixed>) -> Result<Value, ErrorData> {
        client.answer_json("k", "elicitation/create", &params_json(&form()).unwrap())
    }

    #[test]
    fn defaults_fill_the_answer_and_it_is_validated() {
        let mut content = Map::new();
        content.insert("name".into(), json!("Alice"));
        let client = TypedClient::new(Fixed(content, Vec::new()), Supports::FORMS);
        assert_eq!(
            answer_form(&client).unwrap(),
            json!({"action": "accept", "content": {"name": "Alice", "age": 30}})
        );
    }

    #[test]
    fn a_bad_answer_goes_back_to_the_application_not_onto_the_wire() {
        let mut content = Map::new();
        content.insert("name".into(), json!("Al"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let client = TypedClient::new(Fixed(content, Vec::new()), Supports::FORMS)
            .on_refused(move |e| sink.lock().unwrap().push(e.clone()));
        let error = answer_form(&client).unwrap_err();
        assert!(!error.to_string().contains("\"Al\""), "{error:?}");
        assert_eq!(
            error.data,
            Some(json!({"errors": [{"path": "/content/name", "keyword": "minLength"}]}))
        );
        let seen = seen.lock().unwrap();
        assert!(
            matches!(&seen[..], [RetryError::Answer { key, errors }] if key == "k" && errors.iter().count() == 1),
            "{seen:?}"
        );
    }

    #[test]
    fn the_answerer_gets_the_fields_in_the_order_the_server_sent_them() {
        // As rmcp reads it off the wire: not sorted by name.
        let request: ElicitRequestParams = serde_json::from_str(
            r#"{"mode":"form","message":"Sign up","requestedSchema":{"type":"object",
            "properties":{"zone":{"type":"string"},"email":{"type":"string","format":"email"},
            "age":{"type":"integer"},"newsletter":{"type":"boolean"}}}}"#,
        )
        .unwrap();
        let client = TypedClient::new(Fixed(Map::new(), Vec::new()), Supports::FORMS);
        let answer = client
            .answer_json("k", "elicitation/create", &params_json(&request).unwrap())
            .unwrap();
        assert_eq!(answer, json!({"action": "accept", "content": {}}));
        assert_eq!(
            client.answerer().1,
            [["zone", "email", "age", "newsletter"]],
            "the order of the wire"
        );
    }

    #[test]
    fn the_declared_capabilities_follow_supports() {
        let client = TypedClient::new(Fixed(Map::new(), Vec::new()), Supports::FORMS);
        assert_eq!(
            serde_json::to_value(&client.get_info().capabilities).unwrap(),
            json!({"elicitation": {"form": {}}})
        );
        // A URL elicitation is refused: URL mode was not declared.
        let url = json!({"mode": "url", "message": "Go", "url": "https://example.com/x", "elicitationId": "e1"});
        let error = client
            .answer_json("k", "elicitation/create", &url.to_string())
            .unwrap_err();
        assert!(error.message.contains("elicitation.url"), "{error:?}");
        let all = TypedClient::new(Fixed(Map::new(), Vec::new()), Supports::ALL);
        assert_eq!(
            serde_json::to_value(&all.get_info().capabilities).unwrap(),
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}, "sampling": {}})
        );
        assert_eq!(
            all.answer_json("k", "roots/list", "{}").unwrap(),
            json!({"roots": []})
        );
    }
}
