//! `http-client`: an MCP client written with rmcp (Streamable HTTP) and the client half of
//! `mcp-typed-rmcp`. It connects, lists the server's tools, or calls one and prints its text.
//! Every form the server asks on the way, live (2025-11-25) or inside an
//! `InputRequiredResult` (2026-07-28), reaches the answerer as a parsed `RequestedSchema`; the
//! answer gets the form's defaults and is validated before it is sent.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin http-client -- [--protocol 2026-07-28|2025-11-25] [--answers FILE] [--interactive] <URL> [TOOL [ARGUMENTS]]
//! ```
//!
//! A form is answered:
//!
//! - from `--answers FILE`, a JSON object with a member per form ([`ANSWERS_HELP`]): its name
//!   is the form's input request key (2026-07-28) or its message (either era), its value the
//!   form's content, or `"decline"` or `"cancel"`;
//! - else in the terminal ([`Terminal`]: field by field, defaults pre-filled, each value
//!   checked as it is entered; decline and cancel too), when stdin is one. With `--answers`,
//!   only `--interactive` lets a form the file does not answer go to the terminal;
//! - else it cannot be: it is cancelled, and http-client exits with status 1, naming the form
//!   and its fields. An answer that breaks its form is never sent: exit status 1, naming the
//!   field.
//!
//! Without TOOL, the tools are listed. ARGUMENTS is a JSON object. Try it on the
//! everything-server: `cargo run -p mcp-typed-examples --bin everything-server -- --port 3000`,
//! then `http-client --interactive http://127.0.0.1:3000/mcp test_elicitation`.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};

use clap::{CommandFactory as _, Parser, ValueEnum};
use mcp_typed::elicit::RequestedSchema;
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, ElicitResultAction, Root,
};
use mcp_typed_rmcp::client::{Supports, TypedClient};
use mcp_typed_rmcp::mcp_mrtr::client::{Answerer, FormAnswer, RetryError};
use mcp_typed_rmcp::mcp_mrtr::terminal::Terminal;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Map, Value};

/// The shape of an answers file, in `--help`.
const ANSWERS_HELP: &str = r#"Answers file (--answers FILE):
  A JSON object with one member per form. The member's name is the form's key: in 2026-07-28
  the key of the server's input request (everything-server's test_elicitation: "user_info"),
  or, in either protocol version, the form's message ("Please provide your information"; a
  2025-11-25 form comes live, without the server's key, so only its message finds it). The
  member's value is the form's content, each field by name (a field left out takes the form's
  default), or "decline", or "cancel":

    {"user_info": {"username": "ada", "email": "ada@example.com"}}

  The content is validated against the form before it is sent: an answer that breaks the form
  is not sent, and http-client exits with status 1 naming the field. A form without a member is
  cancelled and http-client exits with status 1 naming it and its fields (with --interactive it
  is asked in the terminal instead). A member that answers no form is named in a warning; a
  FILE that is not such an object is a usage error (status 2).

Without --answers, a form is asked in the terminal when stdin is one; otherwise it is
cancelled, and http-client exits with status 1.

Example:
  cargo run -p mcp-typed-examples --bin everything-server -- --port 3000
  http-client --answers answers.json http://127.0.0.1:3000/mcp test_elicitation"#;

/// An MCP client on rmcp's Streamable HTTP transport: lists a server's tools, or calls one and
/// prints the text it returns, answering the forms the server asks on the way (validated
/// against the form before they are sent).
#[derive(Debug, Parser)]
#[command(name = "http-client", after_long_help = ANSWERS_HELP)]
struct Cli {
    /// The protocol version to speak: 2026-07-28 (no session; a form comes inside an
    /// InputRequiredResult, and the call is sent again with its answer) or 2025-11-25 (a
    /// session; a form comes as a live elicitation/create request)
    #[arg(long, value_enum, value_name = "VERSION", default_value = "2026-07-28")]
    protocol: Protocol,

    /// Answer forms from FILE: a JSON object, one member per form, named by the form's input
    /// request key or its message, whose value is the form's content (see "Answers file"
    /// below). A form FILE does not answer is an error (with --interactive, it is asked in the
    /// terminal); a member that answers no form is reported
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,

    /// Ask forms in the terminal (stdin must be one), field by field, defaults pre-filled, each
    /// value checked as it is entered. Without --answers that is what happens anyway when stdin
    /// is a terminal; with --answers, the forms FILE does not answer are asked
    #[arg(long)]
    interactive: bool,

    /// The server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp
    url: String,

    /// The tool to call; without it, the server's tools are listed
    tool: Option<String>,

    /// The tool's arguments, a JSON object, e.g. '{"message": "Who are you?"}'
    #[arg(value_parser = json_object)]
    arguments: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Protocol {
    #[value(name = "2026-07-28")]
    V2026_07_28,
    #[value(name = "2025-11-25")]
    V2025_11_25,
}

fn json_object(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(members)) => Ok(members),
        _ => Err("ARGUMENTS must be a JSON object".to_owned()),
    }
}

/// Reads an answers file: a JSON object whose members are each a form's content, `"decline"`
/// or `"cancel"`.
fn read_answers(path: &Path) -> Result<Map<String, Value>, String> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let Value::Object(members) =
        serde_json::from_str(&text).map_err(|e| format!("{file}: not JSON: {e}"))?
    else {
        return Err(format!(
            "{file}: must be a JSON object, one member per form"
        ));
    };
    for (name, value) in &members {
        if !(value.is_object() || value == "decline" || value == "cancel") {
            return Err(format!(
                "{file}: the answer to \"{name}\" must be an object of the form's fields, \
                 \"decline\" or \"cancel\", not {value}"
            ));
        }
    }
    Ok(members)
}

/// What happened to the forms of a call, shared by the answerer and the refusal hook.
#[derive(Debug, Default)]
struct Report {
    /// How each form asked is named in messages, by the answerer's key.
    names: HashMap<String, String>,
    /// Why forms went unanswered or answers were not sent: each is an error.
    problems: Vec<String>,
    /// The members of the answers file that answered a form.
    used: HashSet<String>,
}

type Shared = Arc<Mutex<Report>>;

fn lock(report: &Shared) -> MutexGuard<'_, Report> {
    report.lock().unwrap_or_else(|e| e.into_inner())
}

/// Answers each form from the answers file, else in the terminal, else records why it cannot.
struct Forms {
    /// The answers file: its path and its members.
    file: Option<(PathBuf, Map<String, Value>)>,
    /// The terminal, when forms may be asked there.
    terminal: Option<Terminal>,
    /// Whether the key the answerer gets is the server's (2026-07-28: the input request's key);
    /// that of a live 2025-11-25 request is its JSON-RPC id, which means nothing to a user.
    server_keys: bool,
    report: Shared,
}

impl Forms {
    fn unanswered(&self, why: String) -> FormAnswer {
        lock(&self.report).problems.push(why);
        FormAnswer::Cancel
    }
}

/// The form's fields, for a message: `username, email, notes (optional)`.
fn fields(schema: &RequestedSchema) -> String {
    let names = schema
        .properties
        .iter()
        .map(|(name, _)| match schema.is_required(name) {
            true => name.clone(),
            false => format!("{name} (optional)"),
        });
    names.collect::<Vec<_>>().join(", ")
}

impl Answerer for Forms {
    fn form(&mut self, key: &str, message: &str, schema: &RequestedSchema) -> FormAnswer {
        let name = match self.server_keys {
            true => format!("\"{key}\" (message \"{message}\")"),
            false => format!("\"{message}\""),
        };
        lock(&self.report)
            .names
            .insert(key.to_owned(), name.clone());
        if let Some((path, members)) = &self.file {
            let by_key = (self.server_keys && members.contains_key(key)).then_some(key);
            let member = by_key.or_else(|| members.contains_key(message).then_some(message));
            if let Some(member) = member {
                lock(&self.report).used.insert(member.to_owned());
            }
            match member.and_then(|member| members.get(member)) {
                Some(Value::Object(content)) => return FormAnswer::Accept(content.clone()),
                Some(answer) if answer == "decline" => return FormAnswer::Decline,
                Some(_) => return FormAnswer::Cancel,
                None if self.terminal.is_none() => {
                    return self.unanswered(format!(
                        "{} has no answer to the form {name}, which asks for: {}",
                        path.display(),
                        fields(schema)
                    ))
                }
                None => {}
            }
        }
        match &mut self.terminal {
            Some(terminal) => terminal.form(key, message, schema),
            None => self.unanswered(format!(
                "the server asks the form {name} (fields: {}), and it cannot be answered: stdin \
                 is not a terminal and no --answers FILE was given",
                fields(schema)
            )),
        }
    }

    // Only forms are declared (`Supports::FORMS`): the rest is never asked.
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

#[tokio::main]
async fn main() -> ExitCode {
    // `--help` prints the help and exits 0; a wrong command line exits 2, and so do an
    // unreadable answers file and `--interactive` without a terminal.
    let cli = Cli::parse();
    let usage = |message: String| -> ! {
        Cli::command()
            .error(clap::error::ErrorKind::InvalidValue, message)
            .exit()
    };
    if cli.interactive && !std::io::stdin().is_terminal() {
        usage("--interactive asks forms in the terminal, and stdin is not one".to_owned());
    }
    let answers = (cli.answers.as_ref()).map(|path| {
        (
            path.clone(),
            read_answers(path).unwrap_or_else(|e| usage(e)),
        )
    });
    match run(cli, answers).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http-client: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli, file: Option<(PathBuf, Map<String, Value>)>) -> Result<(), String> {
    let error = |e: &dyn std::fmt::Display| e.to_string();
    let stdin_is_terminal = std::io::stdin().is_terminal();
    let members: Vec<String> = file.iter().flat_map(|(_, m)| m.keys().cloned()).collect();
    let terminal = (cli.interactive || (file.is_none() && stdin_is_terminal)).then(Terminal::new);
    let report = Shared::default();
    let forms = Forms {
        file,
        terminal,
        server_keys: cli.protocol == Protocol::V2026_07_28,
        report: report.clone(),
    };
    let refusals = report.clone();
    let handler = TypedClient::new(forms, Supports::FORMS).on_refused(move |refused| {
        let mut report = lock(&refusals);
        let problem = match refused {
            RetryError::Answer { key, errors } => format!(
                "the answer to the form {} breaks it, and was not sent: {errors}",
                report.names.get(key).map_or(key.as_str(), String::as_str)
            ),
            other => format!("an answer was not sent: {other}"),
        };
        report.problems.push(problem);
    });
    // 2026-07-28 has no session: `server/discover`, then the version and capabilities in
    // every request's `_meta`. Up to 2025-11-25: `initialize` offering that version.
    let (handler, lifecycle) = match cli.protocol {
        Protocol::V2025_11_25 => (
            handler.protocol_version(ProtocolVersion::V_2025_11_25),
            ClientLifecycleMode::Initialize,
        ),
        Protocol::V2026_07_28 => {
            let preferred_versions = vec![ProtocolVersion::V_2026_07_28];
            (
                handler,
                ClientLifecycleMode::Discover { preferred_versions },
            )
        }
    };
    let transport = StreamableHttpClientTransport::from_uri(cli.url.as_str());
    let client =
        (handler.serve_with_lifecycle(transport, lifecycle).await).map_err(|e| error(&e))?;
    let outcome = async {
        let Some(tool) = cli.tool else {
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
        if let Some(arguments) = cli.arguments {
            params = params.with_arguments(arguments);
        }
        let result = client.call_tool(params).await;
        // A form left unanswered or an answer refused is the error, whatever the call became.
        let problems = std::mem::take(&mut lock(&report).problems);
        if !problems.is_empty() {
            return Err(problems.join("\nhttp-client: "));
        }
        let result = result.map_err(|e| error(&e))?;
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
    // A member that answered no form: a misspelt key, or a key where 2025-11-25 needs the
    // message. Said, so that it is not silently ignored.
    let report = lock(&report);
    for member in members
        .iter()
        .filter(|member| !report.used.contains(*member))
    {
        eprintln!("http-client: warning: the answers file's member \"{member}\" answered no form");
    }
    outcome
}
