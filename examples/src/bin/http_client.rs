//! `http-client`: an MCP client written with rmcp (Streamable HTTP) and the client half of
//! `mcp-typed-rmcp`. It connects, lists the server's tools, calls one and prints its text.
//! Every form the server asks on the way, live (2025-11-25) or inside an
//! `InputRequiredResult` (2026-07-28), reaches the answerer as a parsed `RequestedSchema`; the
//! answer gets the form's defaults and is validated before it is sent.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin http-client -- [--interactive] [--protocol 2026-07-28|2025-11-25] <URL> [TOOL [ARGUMENTS]]
//! ```
//!
//! - Without `--interactive`, a form is accepted with its defaults (a required field without
//!   one makes the answer invalid: it is not sent, and the reason is printed).
//! - With `--interactive`, a person answers in the terminal ([`Terminal`]): field by field,
//!   defaults pre-filled, each value checked as it is entered; decline and cancel too.
//!
//! Without TOOL, the tools are listed. ARGUMENTS is a JSON object. Try it on the
//! everything-server: `cargo run -p mcp-typed-examples --bin everything-server -- --port 3000`,
//! then `http-client --interactive http://127.0.0.1:3000/mcp test_elicitation`.

use std::process::ExitCode;

use mcp_typed::elicit::RequestedSchema;
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, ElicitResultAction, Root,
};
use mcp_typed_rmcp::client::{Supports, TypedClient};
use mcp_typed_rmcp::mcp_mrtr::client::{Answerer, FormAnswer};
use mcp_typed_rmcp::mcp_mrtr::terminal::Terminal;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::Value;

const USAGE: &str = "usage: http-client [--interactive] [--protocol 2026-07-28|2025-11-25] <URL> [TOOL [ARGUMENTS]]";

/// Accepts every form with its defaults, declines the rest.
struct WithDefaults;

impl Answerer for WithDefaults {
    fn form(&mut self, _key: &str, _message: &str, _schema: &RequestedSchema) -> FormAnswer {
        FormAnswer::Accept(Default::default())
    }
    fn url(&mut self, _key: &str, _message: &str, _url: &str) -> ElicitResultAction {
        ElicitResultAction::Decline
    }
    fn sample(
        &mut self,
        _key: &str,
        _params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, String> {
        Err("this client has no model".to_owned())
    }
    fn roots(&mut self, _key: &str) -> Vec<Root> {
        Vec::new()
    }
}

struct Options {
    interactive: bool,
    protocol: ProtocolVersion,
    url: String,
    tool: Option<String>,
    arguments: Option<serde_json::Map<String, Value>>,
}

fn options() -> Result<Options, String> {
    let mut interactive = false;
    let mut protocol = ProtocolVersion::V_2026_07_28;
    let mut positional = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--interactive" => interactive = true,
            "--protocol" => match args.next().as_deref() {
                Some("2026-07-28") => protocol = ProtocolVersion::V_2026_07_28,
                Some("2025-11-25") => protocol = ProtocolVersion::V_2025_11_25,
                _ => return Err(USAGE.to_owned()),
            },
            _ if arg.starts_with('-') => return Err(USAGE.to_owned()),
            _ => positional.push(arg),
        }
    }
    let mut positional = positional.into_iter();
    let url = positional.next().ok_or(USAGE)?;
    let tool = positional.next();
    let arguments = match positional.next() {
        None => None,
        Some(text) => match serde_json::from_str(&text) {
            Ok(Value::Object(arguments)) => Some(arguments),
            _ => return Err(format!("ARGUMENTS must be a JSON object, not {text}")),
        },
    };
    if positional.next().is_some() {
        return Err(USAGE.to_owned());
    }
    Ok(Options {
        interactive,
        protocol,
        url,
        tool,
        arguments,
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let result = match options() {
        Err(usage) => Err(usage),
        Ok(options) if options.interactive => run(options, Terminal::new()).await,
        Ok(options) => run(options, WithDefaults).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http-client: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(options: Options, answerer: impl Answerer + Send + 'static) -> Result<(), String> {
    let error = |e: &dyn std::fmt::Display| e.to_string();
    let handler = TypedClient::new(answerer, Supports::FORMS)
        .on_refused(|refused| eprintln!("http-client: answer not sent: {refused}"));
    // 2026-07-28 has no session: `server/discover`, then the version and capabilities in
    // every request's `_meta`. Up to 2025-11-25: `initialize` offering that version.
    let (handler, lifecycle) = if options.protocol.has_initialize() {
        let handler = handler.protocol_version(options.protocol.clone());
        (handler, ClientLifecycleMode::Initialize)
    } else {
        let preferred_versions = vec![options.protocol.clone()];
        (
            handler,
            ClientLifecycleMode::Discover { preferred_versions },
        )
    };
    let transport = StreamableHttpClientTransport::from_uri(options.url.as_str());
    let client =
        (handler.serve_with_lifecycle(transport, lifecycle).await).map_err(|e| error(&e))?;
    let outcome = async {
        let Some(tool) = options.tool else {
            for tool in client.list_all_tools().await.map_err(|e| error(&e))? {
                println!(
                    "{}: {}",
                    tool.name,
                    tool.description.as_deref().unwrap_or("")
                );
            }
            return Ok(());
        };
        let mut params = CallToolRequestParams::new(tool);
        if let Some(arguments) = options.arguments {
            params = params.with_arguments(arguments);
        }
        let result = client.call_tool(params).await.map_err(|e| error(&e))?;
        for text in result
            .content
            .iter()
            .filter_map(|content| content.as_text())
        {
            println!("{}", text.text);
        }
        match result.is_error {
            Some(true) => Err("the tool failed".to_owned()),
            _ => Ok(()),
        }
    }
    .await;
    let _ = client.cancel().await;
    outcome
}
