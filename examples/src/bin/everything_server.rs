//! `everything-server --port PORT`: an ordinary rmcp Streamable HTTP server at
//! `http://127.0.0.1:PORT/mcp`, for clients of 2025-11-25 (sessions, live requests) and of
//! 2026-07-28 (stateless, multi round-trip) on the same endpoint, with every tool, resource and
//! prompt the official conformance suite's server scenarios call. With `--port 0` it listens
//! on a free port, and names it in the line it prints on standard error once listening
//! (`everything-server: http://127.0.0.1:PORT/mcp`).
//!
//! Every form it asks is a `#[derive(Elicit)]` struct; every tool that needs input is one
//! handler for both eras, served by `mcp_typed_rmcp::Eras`: live `elicitation/create`,
//! `sampling/createMessage` and `roots/list` requests in 2025-11-25, an `InputRequiredResult`
//! with a sealed `requestState` in 2026-07-28. Instances started with the same `MRTR_STATE_KEY`
//! (64 hex digits; a random key otherwise) serve each other's retries. A state is bound to the
//! request's bearer token when `EVERYTHING_SERVER_TOKENS` lists it (`alice,load-*`), to the
//! caller's address otherwise; `MRTR_STATE_TTL_SECS` sets how long a round
//! may take (600 s by default).
//!
//! Each state is single-use. `--replay-store STORE` (or `MRTR_REPLAY_STORE`) says where spent
//! states are recorded: `memory` (the default: this instance only), `redis://HOST:PORT` (every
//! instance using that Redis or Valkey: single use across the deployment), or `none` (replay
//! allowed until the state expires). `MRTR_PRINCIPAL_QUOTA` sets how many spent states one
//! principal may hold in the store (1,000 by default; 0 for no quota).
//!
//! With `EVERYTHING_SERVER_RECORD=FILE` it appends every JSON-RPC message that crosses its
//! endpoint to FILE, a record each in `mcp-check`'s format (`{"conversation": …, "from":
//! "client"|"server", "message": …}`, the conversation being the session, or the POST for a
//! stateless request): `mcp-check FILE` checks it conversation by conversation.
//!
//! It serves through `mcp_typed_rmcp::http`: POST bodies over 4 MiB or nested deeper than 64
//! are refused before rmcp parses them, and a request head must arrive within 10 s
//! (`EVERYTHING_SERVER_HEADER_TIMEOUT_MS` sets another bound, for tests).
//!
//! Score it: `npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --url
//! http://localhost:PORT/mcp --requirements 2026-07-28` (Node 22 or newer), or run
//! `cargo test -p mcp-typed-examples --test conformance`, which installs the pinned suite.

// rmcp deprecates logging (SEP-2577), which the 2025-11-25 scenarios still call.
#![allow(deprecated)]

use std::sync::Arc;
use std::time::Duration;

use mcp_mrtr::seal::{
    redacted_url, MemoryReplayStore, RedisReplayStore, ReplayStore, SealingKey, StateSealer,
    DEFAULT_PRINCIPAL_QUOTA,
};
use mcp_mrtr::serve::{Input, Need};
use mcp_typed::elicit::{ElicitOutcome, StringFormat};
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, CreateMessageResultContent, SamplingMessage,
    SamplingMessageContent,
};
use mcp_typed::Elicit;
use mcp_typed_rmcp::http::{anonymous_principal, serve, GuardLayer, ServeLimits};
use mcp_typed_rmcp::{Eras, Outcome};
use rmcp::model::{
    AudioContent, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
    CompleteResult, CompletionInfo, ContentBlock, ErrorData, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ImageContent, Implementation, JsonObject,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    LoggingLevel, LoggingMessageNotificationParam, PaginatedRequestParams,
    ProgressNotificationParam, Prompt, PromptArgument, PromptMessage, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
    SetLevelRequestMethod, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler};
use serde_json::{json, Value};

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file of no samples.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";
/// The principal sealed states are bound to: the bearer token of the HTTP request when it is
/// one of `EVERYTHING_SERVER_TOKENS` (comma-separated; an entry ending in `*` takes every token
/// it begins: what a real server replaces with the verified subject of its tokens), else the
/// caller's address (`anonymous_principal`): a bearer string nobody checked is no identity,
/// and one name for every anonymous caller would let one spend the replay quota of all. A state
/// sealed for one principal is refused when another presents it.
fn principal(cx: &RequestContext<RoleServer>) -> Result<String, ErrorData> {
    let token = (cx.extensions.get::<axum::http::request::Parts>())
        .and_then(|parts| parts.headers.get("authorization"))
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    // Read once: the environment does not change while the server runs.
    static KNOWN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let known = KNOWN.get_or_init(|| std::env::var("EVERYTHING_SERVER_TOKENS").unwrap_or_default());
    let listed = |token: &str| {
        known.split(',').any(|entry| match entry.strip_suffix('*') {
            Some(prefix) => token.starts_with(prefix),
            None => !entry.is_empty() && entry == token,
        })
    };
    match token {
        Some(token) if listed(token) => Ok(format!("bearer:{token}")),
        _ => anonymous_principal(cx),
    }
}

// ---------------------------------------------------------------------------------------------
// The forms, derived.

/// `test_elicitation`: who the user is.
#[derive(Debug, Elicit)]
struct UserInfo {
    /// Your user name
    username: String,
    /// Your email address
    #[elicit(format = "email")]
    email: String,
}

/// `test_elicitation_sep1034_defaults`: a default of every primitive kind (SEP-1034).
// Echoed back with `Debug`.
#[allow(dead_code)]
#[derive(Debug, Elicit)]
struct Defaults {
    /// User name
    #[elicit(default = "John Doe")]
    name: String,
    /// User age
    #[elicit(default = 30)]
    age: u32,
    /// User score
    #[elicit(default = 95.5)]
    score: f64,
    /// User status
    #[elicit(default = "active")]
    status: Status,
    /// Verification status
    #[elicit(default = true)]
    verified: bool,
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// `test_elicitation_sep1330_enums`: the enum shapes of SEP-1330.
// Echoed back with `Debug`.
#[allow(dead_code)]
#[derive(Debug, Elicit)]
#[serde(rename_all = "camelCase")]
struct Enums {
    /// Pick one (untitled single select)
    untitled_single: Option<Untitled>,
    /// Pick one (titled single select)
    titled_single: Option<Titled>,
    /// Pick one (titled single select in the legacy form, `enum` + `enumNames`)
    #[elicit(enum_names)]
    legacy_enum: Option<Legacy>,
    /// Pick some (untitled multi select)
    #[elicit(min_items = 1, max_items = 3)]
    untitled_multi: Option<Vec<Untitled>>,
    /// Pick some (titled multi select)
    #[elicit(min_items = 1, max_items = 3)]
    titled_multi: Option<Vec<TitledChoice>>,
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "lowercase")]
enum Titled {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    #[elicit(title = "Option One")]
    Opt1,
    #[elicit(title = "Option Two")]
    Opt2,
    #[elicit(title = "Option Three")]
    Opt3,
}

#[derive(Debug, Elicit)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[elicit(title = "First Choice")]
    Value1,
    #[elicit(title = "Second Choice")]
    Value2,
    #[elicit(title = "Third Choice")]
    Value3,
}

/// `test_input_required_result_*`: a name.
#[derive(Debug, Elicit)]
struct Name {
    /// Your name
    name: String,
}

/// A confirmation.
#[derive(Debug, Elicit)]
struct Confirm {
    /// Confirm to go on
    ok: bool,
}

/// The second round of `test_input_required_result_multi_round`.
// Echoed back with `Debug`.
#[allow(dead_code)]
#[derive(Debug, Elicit)]
struct Color {
    /// Your favourite colour
    color: String,
}

/// `test_input_required_result_prompt`: what the prompt is about.
#[derive(Debug, Elicit)]
struct PromptContext {
    /// Context for the prompt
    context: String,
}

// ---------------------------------------------------------------------------------------------
// The handlers that ask, once for both eras.

fn sampling(prompt: &str) -> CreateMessageRequestParams {
    CreateMessageRequestParams::new(
        100,
        [SamplingMessage::new(
            SamplingMessageContent::text(prompt),
            mcp_typed::v2026_07_28::Role::User,
        )],
    )
}

/// The text of a sampling reply of one text block (empty otherwise).
fn reply_text(result: &CreateMessageResult) -> String {
    match &result.content {
        CreateMessageResultContent::Text(text) => text.text.clone(),
        _ => String::new(),
    }
}

fn outcome_text<T: std::fmt::Debug>(outcome: &ElicitOutcome<T>) -> String {
    match outcome {
        ElicitOutcome::Accepted(value) => format!("action=accept, content={value:?}"),
        ElicitOutcome::Declined => "action=decline".into(),
        ElicitOutcome::Cancelled => "action=cancel".into(),
    }
}

/// The tool handlers that ask for input, by name: each gives the text of its result.
fn asking_tool(name: &str, arguments: &JsonObject) -> Option<Handler> {
    let text_arg = |key: &str, default: &str| {
        (arguments.get(key).and_then(Value::as_str))
            .unwrap_or(default)
            .to_owned()
    };
    Some(match name {
        "test_elicitation" => {
            let message = text_arg("message", "Please provide your information");
            Box::new(move |input| {
                match input.elicit::<UserInfo>("user_info", message.as_str())? {
                    ElicitOutcome::Accepted(UserInfo { username, email }) => Ok(format!(
                        "User response: action=accept, username={username}, email={email}"
                    )),
                    other => Ok(format!("User response: {}", outcome_text(&other))),
                }
            })
        }
        "test_elicitation_sep1034_defaults" => Box::new(|input| {
            let answer = input.elicit::<Defaults>(
                "defaults",
                "Please review and update the form fields with defaults",
            )?;
            Ok(format!("Elicitation completed: {}", outcome_text(&answer)))
        }),
        "test_elicitation_sep1330_enums" => Box::new(|input| {
            let answer =
                input.elicit::<Enums>("enums", "Please select options from the enum fields")?;
            Ok(format!("Elicitation completed: {}", outcome_text(&answer)))
        }),
        "test_sampling" => {
            let prompt = text_arg("prompt", "Hello");
            Box::new(move |input| {
                let reply = input.sample("sampling", sampling(&prompt))?;
                Ok(format!("LLM response: {}", reply_text(&reply)))
            })
        }
        // Needs sampling: a client that did not declare it gets -32021.
        "test_missing_capability" => Box::new(|input| {
            let reply = input.sample("sampling", sampling("Say hello"))?;
            Ok(format!("LLM response: {}", reply_text(&reply)))
        }),
        "test_streaming_elicitation" | "test_input_required_result_elicitation" => Box::new(
            |input| match input.elicit::<Name>("user_name", "What is your name?")? {
                ElicitOutcome::Accepted(Name { name }) => Ok(format!("Hello, {name}!")),
                other => Ok(format!("No name: {}", outcome_text(&other))),
            },
        ),
        "test_input_required_result_sampling" => Box::new(|input| {
            let reply = input.sample(
                "capital_question",
                sampling("What is the capital of France?"),
            )?;
            Ok(format!("The model said: {}", reply_text(&reply)))
        }),
        "test_input_required_result_list_roots" => Box::new(|input| {
            let roots = input.list_roots("client_roots")?;
            let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
            Ok(format!("Roots: {}", uris.join(", ")))
        }),
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => {
            Box::new(
                |input| match input.elicit::<Confirm>("confirm", "Continue?")? {
                    ElicitOutcome::Accepted(Confirm { ok: true }) => {
                        Ok("state-ok: confirmed".into())
                    }
                    other => Ok(format!("state-ok: {}", outcome_text(&other))),
                },
            )
        }
        "test_input_required_result_multiple_inputs" => Box::new(|input| {
            // Asked together: all three go out in one round.
            let name = input.elicit::<Name>("user_name", "What is your name?");
            let greeting = input.sample("greeting", sampling("Write a greeting"));
            let roots = input.list_roots("client_roots");
            let (name, greeting, roots) = (name?, greeting?, roots?);
            Ok(format!(
                "All inputs received: {}, {}, {} roots",
                outcome_text(&name),
                reply_text(&greeting),
                roots.len()
            ))
        }),
        "test_input_required_result_multi_round" => Box::new(|input| {
            let name = input.elicit::<Name>("user_name", "What is your name?")?;
            let color = input.elicit::<Color>("step2", "What is your favourite colour?")?;
            Ok(format!(
                "Two rounds: {}, {}",
                outcome_text(&name),
                outcome_text(&color)
            ))
        }),
        // Asks what the client can answer: a client without elicitation gets only the sample.
        "test_input_required_result_capabilities" => Box::new(|input| {
            let elicited = match input.elicit::<Name>("elicit_input", "What is your name?") {
                Err(Need::Refused(_)) => None,
                other => Some(other),
            };
            let sampled = match input.sample("sample_input", sampling("Say hello")) {
                Err(Need::Refused(_)) => None,
                other => Some(other),
            };
            let elicited = elicited.transpose()?;
            let sampled = sampled.transpose()?;
            Ok(format!(
                "Capabilities used: elicitation {}, sampling {}",
                elicited.is_some(),
                sampled.is_some()
            ))
        }),
        _ => return None,
    })
}

type Handler = Box<dyn FnMut(&mut Input<'_>) -> Result<String, Need> + Send>;

// ---------------------------------------------------------------------------------------------
// The server.

#[derive(Clone)]
struct Everything {
    eras: Eras,
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(members) => Arc::new(members),
        _ => Arc::new(JsonObject::new()),
    }
}

// The tools' input schemas below are JSON Schemas: data, written as JSON.
fn no_arguments() -> Arc<JsonObject> {
    object(json!({"type": "object", "properties": {}}))
}

fn tools() -> Vec<Tool> {
    let plain = [
        ("test_simple_text", "Returns a simple text response"),
        ("test_image_content", "Returns an image"),
        ("test_audio_content", "Returns an audio clip"),
        ("test_embedded_resource", "Returns an embedded resource"),
        (
            "test_multiple_content_types",
            "Returns text, an image and a resource",
        ),
        (
            "test_tool_with_logging",
            "Logs three messages while it runs",
        ),
        (
            "test_logging_tool",
            "Logs a message at the level the request asks for",
        ),
        ("test_error_handling", "Returns a tool error"),
        ("test_tool_with_progress", "Reports progress three times"),
        (
            "test_elicitation_sep1034_defaults",
            "Asks a form with a default of every kind",
        ),
        (
            "test_elicitation_sep1330_enums",
            "Asks a form with every enum shape",
        ),
        (
            "test_missing_capability",
            "Needs the client's sampling capability",
        ),
        ("test_streaming_elicitation", "Asks for the user's name"),
        (
            "test_input_required_result_elicitation",
            "Asks for the user's name",
        ),
        (
            "test_input_required_result_sampling",
            "Asks the client's model a question",
        ),
        (
            "test_input_required_result_list_roots",
            "Asks for the client's roots",
        ),
        (
            "test_input_required_result_request_state",
            "Asks a confirmation, with state",
        ),
        (
            "test_input_required_result_multiple_inputs",
            "Asks a form, a sample and the roots at once",
        ),
        (
            "test_input_required_result_multi_round",
            "Asks twice, in two rounds",
        ),
        (
            "test_input_required_result_tampered_state",
            "Asks a confirmation; refuses a tampered state",
        ),
        (
            "test_input_required_result_capabilities",
            "Asks only what the client declared",
        ),
    ];
    let mut tools: Vec<Tool> = plain
        .into_iter()
        .map(|(name, description)| Tool::new(name, description, no_arguments()))
        .collect();
    tools.push(Tool::new(
        "test_sampling",
        "Asks the client's model to complete a prompt",
        object(json!({
            "type": "object",
            "properties": {"prompt": {"type": "string", "description": "The prompt"}},
            "required": ["prompt"]
        })),
    ));
    tools.push(Tool::new(
        "test_elicitation",
        "Asks the user for their name and email",
        object(json!({
            "type": "object",
            "properties": {"message": {"type": "string", "description": "The message to show"}},
            "required": ["message"]
        })),
    ));
    tools.push(Tool::new(
        "json_schema_2020_12_tool",
        "Takes arguments described with JSON Schema 2020-12 keywords",
        object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {
                "street": {"type": "string"}, "city": {"type": "string"}}}},
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        })),
    ));
    tools
}

fn text_resource(uri: &str, mime_type: &str, text: impl Into<String>) -> ResourceContents {
    ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime_type.into()),
        text: text.into(),
        meta: None,
    }
}

fn success(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// Whether the request is of the stateless era (2026-07-28).
fn stateless(cx: &RequestContext<RoleServer>) -> bool {
    cx.protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

impl Everything {
    /// Three log messages, sent when the era allows them: always in a 2025-11-25 session, and
    /// in 2026-07-28 only at or below the level the request asked for (none without one).
    async fn log_three(&self, cx: &RequestContext<RoleServer>) {
        let rank = |level: &LoggingLevel| {
            use LoggingLevel::*;
            [
                Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency,
            ]
            .iter()
            .position(|l| l == level)
        };
        let info = rank(&LoggingLevel::Info);
        if stateless(cx) && cx.meta.log_level().is_none_or(|level| rank(&level) > info) {
            return;
        }
        for message in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ] {
            let _ = cx
                .peer
                .notify_logging_message(
                    LoggingMessageNotificationParam::new(LoggingLevel::Info, Value::from(message))
                        .with_logger("everything-server"),
                )
                .await;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl ServerHandler for Everything {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_completions()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new(
            "mcp-typed-everything-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools().into_iter().find(|tool| tool.name == name)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // Nothing here changes: the subscription stays open until the client leaves.
        context.cancelled().await;
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.clone().unwrap_or_default();
        if let Some(handler) = asking_tool(&request.name, &arguments) {
            let principal = principal(&cx)?;
            return match self
                .eras
                .call_tool(&request, &cx, &principal, handler)
                .await?
            {
                Outcome::Complete(text) => Ok(success(text).into()),
                Outcome::InputRequired(asked) => Ok(asked.into()),
            };
        }
        let result = match request.name.as_ref() {
            "test_simple_text" => success("This is a simple text response for testing."),
            "test_image_content" => {
                CallToolResult::success(vec![ContentBlock::image(PNG, "image/png")])
            }
            // Audio content came with 2025-03-26: a 2024-11-05 client gets the clip as an
            // embedded resource, which it can read (found by `mcp-check fuzz`).
            "test_audio_content"
                if cx.protocol_version() == Some(ProtocolVersion::V_2024_11_05) =>
            {
                CallToolResult::success(vec![ContentBlock::resource(
                    ResourceContents::blob(WAV, "test://audio-clip").with_mime_type("audio/wav"),
                )])
            }
            "test_audio_content" => CallToolResult::success(vec![ContentBlock::Audio(
                AudioContent::new(WAV, "audio/wav"),
            )]),
            "test_embedded_resource" => {
                CallToolResult::success(vec![ContentBlock::resource(text_resource(
                    "test://embedded-resource",
                    "text/plain",
                    "This is an embedded resource content.",
                ))])
            }
            "test_multiple_content_types" => CallToolResult::success(vec![
                ContentBlock::text("Multiple content types test:"),
                ContentBlock::image(PNG, "image/png"),
                ContentBlock::resource(text_resource(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                )),
            ]),
            "test_tool_with_logging" | "test_logging_tool" => {
                self.log_three(&cx).await;
                success("Tool with logging executed successfully")
            }
            "test_error_handling" => CallToolResult::error(vec![ContentBlock::text(
                "This tool intentionally returns an error for testing",
            )]),
            "test_tool_with_progress" => {
                let token = cx.meta.get_progress_token();
                for step in [0.0, 50.0, 100.0] {
                    if let Some(token) = &token {
                        let _ = cx
                            .peer
                            .notify_progress(
                                ProgressNotificationParam::new(token.clone(), step)
                                    .with_total(100.0)
                                    .with_message(format!("Completed step {step} of 100")),
                            )
                            .await;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                success(format!("Progress reported with token {token:?}"))
            }
            "json_schema_2020_12_tool" => success(format!(
                "JSON Schema 2020-12 tool called with: {}",
                Value::Object(arguments)
            )),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool `{other}`"),
                    // The error's `data`: free-form, as JSON.
                    Some(json!({"name": other})),
                ));
            }
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("test://static-text", "Static text")
                .with_description("A text resource")
                .with_mime_type("text/plain"),
            Resource::new("test://static-binary", "Static binary")
                .with_description("A binary resource")
                .with_mime_type("image/png"),
            Resource::new("test://watched-resource", "Watched resource")
                .with_description("A resource a client may subscribe to")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("test://template/{id}/data", "Data by id")
                .with_description("A resource template with one parameter")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = match uri {
            "test://static-text" => text_resource(
                uri,
                "text/plain",
                "This is the content of the static text resource.",
            ),
            "test://watched-resource" => {
                text_resource(uri, "text/plain", "Watched resource content")
            }
            "test://static-binary" => ResourceContents::BlobResourceContents {
                uri: uri.into(),
                mime_type: Some("image/png".into()),
                blob: PNG.into(),
                meta: None,
            },
            _ => match (uri.strip_prefix("test://template/"))
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                // The resource's text is a JSON document of its own: data, not a message.
                Some(id) => text_resource(
                    uri,
                    "application/json",
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                ),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no resource `{uri}`"),
                        // The error's `data`: free-form, as JSON.
                        Some(json!({"uri": uri})),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        _request: SubscribeRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // The resources never change: a subscription has nothing to deliver.
        Ok(())
    }

    async fn unsubscribe(
        &self,
        _request: UnsubscribeRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A prompt without arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A prompt with two arguments"),
                Some(vec![
                    PromptArgument::new("arg1")
                        .with_description("The first argument")
                        .with_required(true),
                    PromptArgument::new("arg2")
                        .with_description("The second argument")
                        .with_required(true),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt with an embedded resource"),
                Some(vec![PromptArgument::new("resourceUri")
                    .with_description("The URI of the resource to embed")
                    .with_required(true)]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A prompt with an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that asks the user for its context first"),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments = request.arguments.clone().unwrap_or_default();
        let argument = |name: &str| {
            (arguments.get(name).and_then(Value::as_str))
                .unwrap_or_default()
                .to_owned()
        };
        let result = match request.name.as_str() {
            "test_simple_prompt" => GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                "This is a simple prompt for testing.",
            )]),
            "test_prompt_with_arguments" => GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!(
                    "Prompt with arguments: arg1='{}', arg2='{}'",
                    argument("arg1"),
                    argument("arg2")
                ),
            )]),
            // The argument becomes the resource's `uri`, which must be a URI: anything else is
            // the caller's mistake, said as such (found by `mcp-check fuzz`, which drew "aRN3").
            "test_prompt_with_embedded_resource"
                if !StringFormat::Uri.is_valid(&argument("resourceUri")) =>
            {
                return Err(ErrorData::invalid_params(
                    "`resourceUri` must be a URI (RFC 3986, with a scheme)",
                    None,
                ));
            }
            "test_prompt_with_embedded_resource" => GetPromptResult::new(vec![
                PromptMessage::new(
                    Role::User,
                    ContentBlock::resource(text_resource(
                        &argument("resourceUri"),
                        "text/plain",
                        "Embedded resource content for testing.",
                    )),
                ),
                PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
            ]),
            "test_prompt_with_image" => GetPromptResult::new(vec![
                PromptMessage::new(
                    Role::User,
                    ContentBlock::Image(ImageContent::new(PNG, "image/png")),
                ),
                PromptMessage::new_text(Role::User, "Please analyze the image above."),
            ]),
            "test_input_required_result_prompt" => {
                let principal = principal(&cx)?;
                let asked = self
                    .eras
                    .get_prompt(&request, &cx, &principal, |input| {
                        match input
                            .elicit::<PromptContext>("user_context", "What is the context?")?
                        {
                            ElicitOutcome::Accepted(PromptContext { context }) => Ok(context),
                            _ => Ok("(no context)".to_owned()),
                        }
                    })
                    .await?;
                match asked {
                    Outcome::Complete(context) => {
                        GetPromptResult::new(vec![PromptMessage::new_text(
                            Role::User,
                            format!("Answer with this context: {context}"),
                        )])
                    }
                    Outcome::InputRequired(asked) => return Ok(asked.into()),
                }
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown prompt `{other}`"),
                    // The error's `data`: free-form, as JSON.
                    Some(json!({"name": other})),
                ));
            }
        };
        Ok(result.into())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let none =
            CompletionInfo::new(Vec::new()).map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(none))
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // 2026-07-28 has no logging/setLevel: the level travels with each request.
        if stateless(&cx) {
            return Err(ErrorData::method_not_found::<SetLevelRequestMethod>());
        }
        Ok(())
    }
}

/// `MRTR_STATE_KEY` (64 hex digits) or a random key.
fn state_key() -> Result<[u8; 32], String> {
    let Ok(hex) = std::env::var("MRTR_STATE_KEY") else {
        return SealingKey::random_secret().map_err(|e| e.to_string());
    };
    let bytes: Result<Vec<u8>, _> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("zz"), 16))
        .collect();
    bytes
        .ok()
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| "MRTR_STATE_KEY must be 64 hex digits".to_owned())
}

const USAGE: &str =
    "usage: everything-server --port PORT [--replay-store memory|redis://HOST:PORT|none]";

/// The command line: the port, and the replay store (`MRTR_REPLAY_STORE` when not given).
fn arguments() -> Result<(u16, String), String> {
    let mut port = None;
    let mut store = std::env::var("MRTR_REPLAY_STORE").unwrap_or_else(|_| "memory".into());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--port" => {
                let text = value()?;
                port = Some(text.parse().map_err(|_| format!("not a port: {text}"))?);
            }
            "--replay-store" => store = value()?,
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok((port.ok_or(USAGE)?, store))
}

/// Where spent states are recorded (`None`: replay allowed), with `MRTR_PRINCIPAL_QUOTA`.
fn replay_store(store: &str) -> Result<Option<Arc<dyn ReplayStore>>, String> {
    let quota = match std::env::var("MRTR_PRINCIPAL_QUOTA") {
        Ok(text) => {
            (text.parse()).map_err(|_| format!("MRTR_PRINCIPAL_QUOTA: not a number: {text}"))?
        }
        Err(_) => DEFAULT_PRINCIPAL_QUOTA,
    };
    match store {
        "none" => Ok(None),
        "memory" => Ok(Some(Arc::new(MemoryReplayStore::new().with_quota(quota)))),
        url if url.starts_with("redis://") => {
            let redis = RedisReplayStore::open(url)
                .map_err(|e| e.to_string())?
                .with_quota(quota);
            // Refuse to start rather than refuse every retry.
            redis.ping().map_err(|e| e.to_string())?;
            Ok(Some(Arc::new(redis)))
        }
        other => Err(format!(
            "--replay-store: `memory`, `none` or a redis:// URL, not `{}`",
            redacted_url(other)
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// The recording of the wire (EVERYTHING_SERVER_RECORD).

mod record {
    use std::fs::File;
    use std::io::Write as _;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    use axum::body::{Body, Bytes};
    use axum::extract::{Request, State};
    use axum::middleware::Next;
    use axum::response::Response;
    use futures_util::StreamExt as _;
    use mcp_wire_check::{traffic, Side};
    use serde_json::Value;

    /// The file messages are appended to.
    #[derive(Clone)]
    pub struct Recorder {
        file: Arc<Mutex<File>>,
        posts: Arc<AtomicU64>,
    }

    impl Recorder {
        pub fn create(path: &str) -> std::io::Result<Self> {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            Ok(Self {
                file: Arc::new(Mutex::new(file)),
                posts: Arc::new(AtomicU64::new(0)),
            })
        }

        fn write(&self, conv: &str, from_client: bool, text: &[u8]) {
            let Ok(message) = serde_json::from_slice::<Value>(text) else {
                return;
            };
            let from = if from_client {
                Side::Client
            } else {
                Side::Server
            };
            // A batch is recorded message by message.
            let messages = match message {
                Value::Array(items) => items,
                one => vec![one],
            };
            let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
            // Records of mcp-check's format, by its writer: `mcp-check FILE` reads them
            // conversation by conversation.
            for message in messages {
                let record = traffic::Record {
                    conversation: Some(conv),
                    from: Some(from),
                    ..traffic::Record::default()
                };
                let record = record.line(&message.to_string());
                let _ = writeln!(file, "{record}");
            }
        }
    }

    /// An axum middleware: records the POST's body, and every message of its response (a JSON
    /// body, or the `data:` of each server-sent event) as it streams out.
    pub async fn record(
        State(recorder): State<Recorder>,
        request: Request,
        next: Next,
    ) -> Response {
        let (parts, body) = request.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, 16 << 20).await else {
            return Response::builder()
                .status(413)
                .body(Body::empty())
                .unwrap_or_default();
        };
        let session = |headers: &axum::http::HeaderMap| {
            (headers.get("mcp-session-id"))
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned)
        };
        let post = recorder.posts.fetch_add(1, Ordering::Relaxed);
        let session_in = session(&parts.headers);
        let response = next
            .run(Request::from_parts(parts, Body::from(bytes.clone())))
            .await;
        let conv = session_in
            .or_else(|| session(response.headers()))
            .unwrap_or_else(|| format!("post-{post}"));
        recorder.write(&conv, true, &bytes);
        let sse = (response.headers().get("content-type"))
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        let (parts, body) = response.into_parts();
        let mut pending = Vec::new();
        let stream = body.into_data_stream().map(move |chunk| {
            if let Ok(chunk) = &chunk {
                pending.extend_from_slice(chunk);
                if sse {
                    // Whole events only: the rest waits for the next chunk.
                    while let Some(end) = pending.windows(2).position(|w| w == b"\n\n") {
                        let event: Vec<u8> = pending.drain(..end + 2).collect();
                        let data: Vec<&[u8]> = (event.split(|b| *b == b'\n'))
                            .filter_map(|line| line.strip_prefix(b"data:"))
                            .map(|data| data.strip_prefix(b" ").unwrap_or(data))
                            .collect();
                        recorder.write(&conv, false, &data.join(&b'\n'));
                    }
                } else if serde_json::from_slice::<Value>(&pending).is_ok() {
                    recorder.write(&conv, false, &pending);
                    pending.clear();
                }
            }
            chunk.map(|chunk: Bytes| chunk)
        });
        Response::from_parts(parts, Body::from_stream(stream))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (port, store) = arguments()?;
    let sealer = StateSealer::new(SealingKey::new(1, state_key()?));
    let ttl = match std::env::var("MRTR_STATE_TTL_SECS") {
        Ok(ttl) => {
            Some(Duration::from_secs((ttl.parse()).map_err(|_| {
                format!("MRTR_STATE_TTL_SECS: not a number: {ttl}")
            })?))
        }
        Err(_) => None,
    };
    let store = replay_store(&store)?;
    let eras = Eras::new(sealer).sealing(|sealing| {
        let sealing = match ttl {
            Some(ttl) => sealing.ttl(ttl),
            None => sealing,
        };
        match store {
            Some(store) => sealing.shared_replay_store(store),
            None => sealing.allow_replay(),
        }
    });
    let server = Everything { eras };
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let mut app = axum::Router::new().nest_service("/mcp", service);
    if let Ok(path) = std::env::var("EVERYTHING_SERVER_RECORD") {
        let recorder = record::Recorder::create(&path)?;
        app = app.layer(axum::middleware::from_fn_with_state(
            recorder,
            record::record,
        ));
    }
    // The guard is the outer layer: the recorder, then rmcp, see only the bodies it lets through.
    let app = app.layer(GuardLayer::default());
    let mut limits = ServeLimits::default();
    if let Ok(ms) = std::env::var("EVERYTHING_SERVER_HEADER_TIMEOUT_MS") {
        let ms = (ms.parse()).map_err(|_| format!("EVERYTHING_SERVER_HEADER_TIMEOUT_MS: {ms}"))?;
        limits.header_read_timeout = Duration::from_millis(ms);
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    // The bound address: with `--port 0`, the free port the system chose.
    eprintln!("everything-server: http://{}/mcp", listener.local_addr()?);
    serve(listener, app, limits).await?;
    Ok(())
}
