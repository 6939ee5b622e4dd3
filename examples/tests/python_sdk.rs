//! The example programs against the official Python SDK 2.3.0 (`mcp` on PyPI, pinned with hashes
//! in `tests/interop/python/requirements.txt` and installed under `target/` on first use), in
//! both protocol eras:
//!
//! - its client (`client.py`) calls every tool of our `server`, answering forms (with
//!   non-integer numbers), sampling, roots and URL elicitation;
//! - our `client` calls every tool of its `MCPServer` (`server.py`: `Elicit`, `Sample` and
//!   `ListRoots` dependencies, structured output, logging, progress).
//!
//! Every run goes through `tap.py`, which records the wire; every recorded message must decode
//! into its specific type of the era (a response as the result of its request) and re-encode to
//! the same JSON, and `mcp-check` must find the recording valid.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use support::{assert_mcp_check_passes, check_wire, python, python_dir, read_log, run, Era};

const SERVER: &str = env!("CARGO_BIN_EXE_server");
const CLIENT: &str = env!("CARGO_BIN_EXE_client");
const LIMIT: Duration = Duration::from_secs(90);

fn log_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

/// `python tap.py LOG -- command…`: the command, with its wire logged.
fn tapped(log: &Path, command: &[&str]) -> Vec<String> {
    let mut args = vec![
        python().display().to_string(),
        python_dir().join("tap.py").display().to_string(),
        log.display().to_string(),
        "--".to_owned(),
    ];
    args.extend(command.iter().map(|s| s.to_string()));
    args
}

fn python_client_against_our_server(era: Era) {
    let log = log_path(&format!("python-client-{}", era.name()));
    let out = run(
        Command::new(python())
            .arg(python_dir().join("client.py"))
            .args(["--protocol", era.name(), "--"])
            .args(tapped(&log, &[SERVER])),
        LIMIT,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the Python client failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let report: Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("the JSON report");
    assert_eq!(report["protocol"], era.name());
    assert_eq!(report["errors"], serde_json::json!([]));
    let tools = &report["tools"];
    assert_eq!(tools["add"], "add: 2 + 3 = 5");
    // The form's answers came back as the client sent them: a float default (2.5) and a float
    // it chose (1.5, the middle of 0.5..=2.5), a titled select and a multi select.
    assert_eq!(
        tools["signup"],
        "signup: name=text, email=ada@example.com, age=13, donation=2.5, height=1.5, \
         newsletter=false, plan=Free, topics=[Rust], nickname=text"
    );
    assert_eq!(tools["summarize"], "summarize: sampled reply");
    assert!(
        tools["list_roots"]
            .as_str()
            .is_some_and(|t| t.starts_with("list_roots: file:///")),
        "{tools}"
    );
    assert_eq!(tools["connect_account"], "connect_account: accepted");

    // The signup form reached the Python client with its fields in the order the struct
    // declares them, whichever era carried it (a live request, or an InputRequiredResult).
    let forms = forms_on_the_wire(&log);
    let signup = forms
        .iter()
        .find(|fields| fields.iter().any(|f| f == "newsletter"))
        .unwrap_or_else(|| panic!("no signup form on the wire: {forms:?}"));
    assert_eq!(
        signup,
        &[
            "name",
            "email",
            "age",
            "donation",
            "height",
            "newsletter",
            "plan",
            "topics",
            "nickname"
        ]
    );

    let kinds = check_wire(era, &read_log(&log));
    assert_mcp_check_passes(&log);
    // The flow each era is made of went over the wire.
    let expected: &[&str] = match era {
        Era::V2025_11_25 => &[
            "request initialize",
            "response initialize: Initialize",
            "notification notifications/initialized",
            "response tools/list: ListTools",
            "request elicitation/create",
            "response elicitation/create: Elicit",
            "response sampling/createMessage: CreateMessage",
            "response roots/list: ListRoots",
            "response tools/call: CallTool",
        ],
        Era::V2026_07_28 => &[
            "response server/discover: Discover",
            "response tools/list: ListTools",
            "response tools/call: InputRequired",
            "response tools/call: CallTool",
        ],
    };
    for kind in expected {
        assert!(kinds.iter().any(|k| k == kind), "no `{kind}` in {kinds:?}");
    }
    if era == Era::V2026_07_28 {
        assert!(
            !kinds.iter().any(|k| k == "request initialize"),
            "{kinds:?}"
        );
    }
}

/// The property names of every `requestedSchema` the server sent, in the order they crossed
/// the wire (the log keeps each message's members in their order; a `serde_json::Value` would
/// sort them).
fn forms_on_the_wire(log: &Path) -> Vec<Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Schema {
        properties: mcp_typed::IndexMap<String, serde::de::IgnoredAny>,
    }
    let text = std::fs::read_to_string(log).expect("the wire log");
    let mut forms = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with(r#"{"from": "server""#))
    {
        for (at, _) in line.match_indices(r#""requestedSchema":"#) {
            let rest = &line[at + r#""requestedSchema":"#.len()..];
            let mut de = serde_json::Deserializer::from_str(rest.trim_start());
            let schema: Schema = serde::Deserialize::deserialize(&mut de).expect("a schema");
            forms.push(schema.properties.into_keys().collect());
        }
    }
    forms
}

fn our_client_against_python_server(era: Era) {
    let log = log_path(&format!("python-server-{}", era.name()));
    let server = python_dir().join("server.py");
    let python = python().display().to_string();
    let out = run(
        Command::new(CLIENT)
            .args(["--protocol", era.name()])
            .args(tapped(&log, &[&python, &server.display().to_string()])),
        LIMIT,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "our client failed against the Python server ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // One line per tool: `<name>: <text>`; every tool of the Python server completed.
    let results: Vec<(&str, &str)> = stdout
        .lines()
        .filter_map(|line| line.split_once(": "))
        .collect();
    let names: Vec<&str> = results.iter().map(|(name, _)| *name).collect();
    for tool in [
        "echo",
        "typed_args",
        "server_name",
        "form",
        "sample",
        "roots",
        "haiku",
        "url_consent",
        "forecast",
        "countdown",
    ] {
        assert!(names.contains(&tool), "{tool} missing from:\n{stdout}");
    }
    let text = |name: &str| results.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
    // Our client answered the pydantic form with a non-integer number; the server read it.
    let form = text("form").unwrap_or_default();
    assert!(form.contains("price=3.5"), "{form}");
    assert!(
        text("sample").unwrap_or_default().contains("sampled reply"),
        "{stdout}"
    );

    let kinds = check_wire(era, &read_log(&log));
    assert_mcp_check_passes(&log);
    let expected: &[&str] = match era {
        Era::V2025_11_25 => &[
            "response initialize: Initialize",
            "request elicitation/create",
            "response elicitation/create: Elicit",
            "response sampling/createMessage: CreateMessage",
            "response roots/list: ListRoots",
            "notification notifications/elicitation/complete",
            "notification notifications/message",
            "notification notifications/progress",
            "response tools/call: CallTool",
            "response resources/read: ReadResource",
            "response resources/templates/list: ListResourceTemplates",
            "response prompts/get: GetPrompt",
        ],
        Era::V2026_07_28 => &[
            "response server/discover: Discover",
            "response tools/call: InputRequired",
            "response tools/call: CallTool",
            "notification notifications/progress",
            "notification notifications/message",
            "response resources/read: ReadResource",
            "response prompts/get: GetPrompt",
        ],
    };
    for kind in expected {
        assert!(kinds.iter().any(|k| k == kind), "no `{kind}` in {kinds:?}");
    }
}

#[test]
fn python_client_against_our_server_2026_07_28() {
    python_client_against_our_server(Era::V2026_07_28);
}

#[test]
fn python_client_against_our_server_2025_11_25() {
    python_client_against_our_server(Era::V2025_11_25);
}

#[test]
fn our_client_against_python_server_2026_07_28() {
    our_client_against_python_server(Era::V2026_07_28);
}

#[test]
fn our_client_against_python_server_2025_11_25() {
    our_client_against_python_server(Era::V2025_11_25);
}
