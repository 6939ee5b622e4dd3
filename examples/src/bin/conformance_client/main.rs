//! `conformance-client`: the client the official MCP conformance suite drives
//! (`conformance client --command "conformance-client"`), on rmcp's Streamable HTTP client and
//! `mcp_typed_rmcp::client::TypedClient`, which answers the servers' forms with their defaults
//! filled and validated.
//!
//! Contract of the suite: the server URL is the last argument; `MCP_CONFORMANCE_SCENARIO` names
//! the scenario, `MCP_CONFORMANCE_PROTOCOL_VERSION` the revision (up to 2025-11-25: the
//! `initialize` lifecycle on a session; 2026-07-28: `server/discover` and `_meta` on every
//! request), `MCP_CONFORMANCE_CONTEXT` the scenario's JSON context where it has one. Exits 0
//! when the scenario ran through, 1 on an error, 2 for a scenario it does not know. The
//! `auth/*` scenarios authorize with rmcp's OAuth support (`auth.rs`).

mod auth;

use std::process::ExitCode;
use std::time::Duration;

use mcp_typed::elicit::{PropertySchema, RequestedSchema};
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, CreateMessageResultContent,
    ElicitResultAction, Role, Root,
};
use mcp_typed_rmcp::client::{Supports, TypedClient};
use mcp_typed_rmcp::mcp_mrtr::client::{Answerer, FormAnswer};
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, ProtocolVersion, ReadResourceRequestParams,
};
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClient;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{json, Map, Value};

/// The client's own limit, below the suite's 30 s per run.
const LIMIT: Duration = Duration::from_secs(25);

/// What this client's user does: accepts every form with its defaults, and a plausible value
/// for a required field without one; declines URLs; replies to sampling with a fixed text;
/// has one root.
struct Conformance;

impl Answerer for Conformance {
    fn form(&mut self, _key: &str, _message: &str, schema: &RequestedSchema) -> FormAnswer {
        let defaults = schema.defaults();
        let mut content = Map::new();
        for name in &schema.required {
            if defaults.contains_key(name) {
                continue; // the adapter fills it
            }
            let Some((_, property)) = schema.properties.iter().find(|(n, _)| n == name) else {
                continue;
            };
            if let Some(value) = plausible(property) {
                content.insert(name.clone(), value);
            }
        }
        FormAnswer::Accept(content)
    }

    fn url(&mut self, _key: &str, _message: &str, _url: &str) -> ElicitResultAction {
        ElicitResultAction::Decline
    }

    fn sample(
        &mut self,
        _key: &str,
        _params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, String> {
        Ok(CreateMessageResult::new(
            CreateMessageResultContent::text("This is a test response from the client"),
            "conformance-client",
            Role::Assistant,
        )
        .with_stop_reason("endTurn"))
    }

    fn roots(&mut self, _key: &str) -> Vec<Root> {
        vec![Root::new("file:///test/root").with_name("Test Root")]
    }
}

/// A value a user could type into a field that has no default.
fn plausible(property: &PropertySchema) -> Option<Value> {
    Some(match property {
        PropertySchema::String(s) => {
            let min = s.min_length.unwrap_or(0).max(4);
            let text = "test".repeat(usize::try_from(min).unwrap_or(4).div_ceil(4));
            Value::from(text)
        }
        PropertySchema::Number(n) => match &n.minimum {
            Some(min) => Value::Number(min.clone()),
            None if n.integer => Value::from(1),
            None => Value::from(1.0),
        },
        PropertySchema::Boolean(_) => Value::Bool(true),
        PropertySchema::SingleSelect(s) => Value::from(s.options.values().next()?),
        PropertySchema::MultiSelect(s) => {
            let take = usize::try_from(s.min_items.unwrap_or(1).max(1)).unwrap_or(1);
            Value::from_iter(s.options.values().take(take))
        }
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: conformance-client <server URL>");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .unwrap_or_else(|_| "2025-11-25".to_owned());
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    eprintln!("conformance-client: scenario `{scenario}`, protocol {version}, server {url}");
    match tokio::time::timeout(LIMIT, run(&scenario, &version, &context, &url)).await {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure::Unsupported)) => {
            eprintln!("conformance-client: scenario `{scenario}` is not implemented");
            ExitCode::from(2)
        }
        Ok(Err(Failure::Error(error))) => {
            eprintln!("conformance-client: {error}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("conformance-client: gave up after {LIMIT:?}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    Unsupported,
    Error(String),
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::Error(error.to_string())
    }
}

type Client = RunningService<RoleClient, TypedClient<Conformance>>;

/// The protocol version named by `MCP_CONFORMANCE_PROTOCOL_VERSION`.
fn protocol(version: &str) -> ProtocolVersion {
    serde_json::from_value(Value::from(version)).unwrap_or(ProtocolVersion::V_2025_11_25)
}

/// Connects through `transport` with the lifecycle of `version`: `initialize` offering it up to
/// 2025-11-25, `server/discover` preferring it (then every other known version, newest first)
/// after. The error is rmcp's, for the challenge of a server that wants a token.
async fn connect<C: StreamableHttpClient>(
    transport: StreamableHttpClientTransport<C>,
    version: &str,
    stateless: bool,
) -> Result<Client, ClientInitializeError> {
    let version = protocol(version);
    let handler = TypedClient::new(Conformance, Supports::ALL)
        .client_info(rmcp::model::Implementation::new(
            "mcp-typed-conformance-client",
            env!("CARGO_PKG_VERSION"),
        ))
        .protocol_version(if version.has_initialize() {
            version.clone()
        } else {
            ProtocolVersion::LATEST_WITH_INITIALIZE
        });
    let lifecycle = if stateless {
        let mut preferred = vec![version.clone()];
        for known in ProtocolVersion::KNOWN_VERSIONS.iter().rev() {
            if !preferred.contains(known) {
                preferred.push(known.clone());
            }
        }
        ClientLifecycleMode::Discover {
            preferred_versions: preferred,
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    handler.serve_with_lifecycle(transport, lifecycle).await
}

/// A `tools/call` of rmcp's. Its arguments are free-form: the callers write them as JSON.
fn call(name: &str, arguments: Option<Value>) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name.to_owned());
    match arguments {
        Some(Value::Object(arguments)) => params.with_arguments(arguments),
        _ => params,
    }
}

async fn run(scenario: &str, version: &str, context: &Value, url: &str) -> Result<(), Failure> {
    if scenario.starts_with("auth/") {
        return auth::run(version, context, url).await;
    }
    let stateless = !protocol(version).has_initialize();
    // The scenario's mock server has no `server/discover`: the 2025-11-25 handshake, on both wires.
    let stateless = stateless && scenario != "json-schema-ref-no-deref";
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = connect(transport, version, stateless).await?;
    let tools = client.list_all_tools().await?;
    let has = |name: &str| tools.iter().any(|tool| tool.name == name);
    match scenario {
        "initialize" | "json-schema-ref-no-deref" | "request-metadata" => {}
        "tools_call" => {
            if has("add_numbers") {
                client
                    .call_tool(call("add_numbers", Some(json!({"a": 5, "b": 3}))))
                    .await?;
            }
        }
        "elicitation-sep1034-client-defaults" => {
            client
                .call_tool(call("test_client_elicitation_defaults", None))
                .await?;
        }
        "sse-retry" => {
            client.call_tool(call("test_reconnection", None)).await?;
        }
        "sep-2322-client-request-state" => {
            // Each call in the listed order; rmcp drives the input-required rounds, the
            // adapter answers them.
            for tool in &tools {
                client.call_tool(call(&tool.name, None)).await?;
            }
        }
        "http-standard-headers" => {
            for tool in &tools {
                let _ = client.call_tool(call(&tool.name, Some(json!({})))).await;
            }
            if let Ok(resources) = client.list_all_resources().await {
                for resource in resources {
                    let params = ReadResourceRequestParams::new(resource.uri.clone());
                    let _ = client.read_resource(params).await;
                }
            }
            if let Ok(prompts) = client.list_all_prompts().await {
                for prompt in prompts {
                    let _ = client
                        .get_prompt(GetPromptRequestParams::new(prompt.name.clone()))
                        .await;
                }
            }
        }
        "http-custom-headers" => {
            let calls = context["toolCalls"].as_array().cloned().unwrap_or_default();
            for tool_call in calls {
                let name = tool_call["name"].as_str().unwrap_or_default();
                client
                    .call_tool(call(name, Some(tool_call["arguments"].clone())))
                    .await?;
            }
        }
        "http-invalid-tool-headers" => {
            // rmcp dropped the tools whose `x-mcp-header` annotations are invalid.
            if has("valid_tool") {
                client
                    .call_tool(call("valid_tool", Some(json!({"region": "us-west1"}))))
                    .await?;
            }
        }
        "json-schema-2020-12-preservation" => {
            let schema = tools
                .iter()
                .find(|tool| tool.name == "json_schema_2020_12_tool")
                .map(|tool| Value::Object((*tool.input_schema).clone()))
                .ok_or("no tool json_schema_2020_12_tool")?;
            client
                .call_tool(call("json_schema_echo", Some(json!({ "schema": schema }))))
                .await?;
        }
        _ => {
            let _ = client.cancel().await;
            return Err(Failure::Unsupported);
        }
    }
    let _ = client.cancel().await;
    Ok(())
}
