//! `mcp-check fuzz` as a user runs it: against the pinned Python SDK's server on stdio (nothing
//! found in 2025-11-25), the pinned TypeScript server-everything over Streamable HTTP (its known
//! defects found), and servers with a fault planted (a result that breaks the schema, a crash on
//! a legal argument), each found and replayed by the command it prints.

use std::path::PathBuf;
use std::process::{Command, Output};

use mcp_typed_tests::installed::{node, npm_package, python, python_dir};
use mcp_typed_tests::listening::{accepts, free_port, Listening};
use serde_json::Value;

const MCP_CHECK: &str = env!("CARGO_BIN_EXE_mcp-check");

fn planted() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/planted_server.py")
}

/// Runs `mcp-check fuzz FLAGS -- SERVER…` (no `--` when `server` is empty: `--url` in `flags`).
fn fuzz(flags: &[&str], server: &[&str]) -> (Output, String) {
    let mut command = Command::new(MCP_CHECK);
    command.arg("fuzz").args(flags);
    if !server.is_empty() {
        command.arg("--").args(server);
    }
    let out = command.output().expect("mcp-check runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

/// The replay command a finding printed, as arguments after `mcp-check`.
fn replay_of(stdout: &str) -> Vec<String> {
    let line = (stdout.lines())
        .find_map(|line| line.trim().strip_prefix("replay: mcp-check "))
        .unwrap_or_else(|| panic!("no replay line:\n{stdout}"));
    line.split(' ').map(str::to_owned).collect()
}

#[test]
fn the_python_sdk_server_answers_every_drawn_call_in_2025_11_25() {
    let server = python_dir().join("server.py");
    let python = python().to_str().expect("a UTF-8 path");
    let (out, stdout) = fuzz(
        &["--requests", "60", "--revision", "2025-11-25"],
        &[python, server.to_str().expect("a UTF-8 path")],
    );
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("10 tools, 1 prompts, 2 resources, 60 calls answered, 0 findings"),
        "{stdout}"
    );
}

/// The same server in 2026-07-28: no `initialize`, every request stating its version, client
/// and capabilities; its asking tools answer `input_required`, retried with drawn answers.
#[test]
fn the_python_sdk_server_answers_every_drawn_call_in_2026_07_28() {
    let server = python_dir().join("server.py");
    let python = python().to_str().expect("a UTF-8 path");
    let (out, stdout) = fuzz(
        &[
            "--requests",
            "60",
            "--revision",
            "2026-07-28",
            "--format",
            "json",
        ],
        &[python, server.to_str().expect("a UTF-8 path")],
    );
    assert!(out.status.success(), "{stdout}");
    let (findings, summary) = json_report(&stdout);
    assert!(findings.is_empty(), "{stdout}");
    assert_eq!(summary["tools"], 10, "{summary}");
    assert_eq!(summary["answered"], 60, "{summary}");
    assert!(summary["retries"].as_u64() > Some(0), "{summary}");
}

/// Fuzzes the planted server in `mode`: the fault is found (a line starting with `finding`),
/// and the replay command printed with it finds it again with one call.
fn found_and_replayed(mode: &str, finding: &str) {
    let python = python().to_str().expect("a UTF-8 path");
    let script = planted();
    let server = [python, script.to_str().expect("a UTF-8 path"), mode];
    let (out, stdout) = fuzz(&["--requests", "40"], &server);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let found = (stdout.lines())
        .find(|line| line.starts_with(finding))
        .unwrap_or_else(|| panic!("no `{finding}`:\n{stdout}"));
    let replay = replay_of(&stdout);
    let again = Command::new(MCP_CHECK)
        .args(&replay)
        .output()
        .expect("runs");
    let again_stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(1), "{again_stdout}");
    assert!(again_stdout.contains(found), "{again_stdout}");
    assert!(again_stdout.contains("1 findings"), "{again_stdout}");
}

#[test]
fn the_planted_server_without_a_fault_passes() {
    let python = python().to_str().expect("a UTF-8 path");
    let script = planted();
    let server = [python, script.to_str().expect("a UTF-8 path"), "ok"];
    let (out, stdout) = fuzz(&["--requests", "40"], &server);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("1 tools, 40 calls answered, 0 findings"),
        "{stdout}"
    );
    // Progress goes to stderr, here before every call (`--progress 0`); the report is unchanged.
    let (out, again) = fuzz(&["--requests", "40", "--progress", "0"], &server);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(again, stdout);
    for line in [
        "1/40 calls sent, 1 answered, 0 findings",
        "39/40 calls sent, 39 answered",
    ] {
        assert!(
            stderr.contains(&format!("mcp-check fuzz: {line}")),
            "{stderr}"
        );
    }
}

#[test]
fn a_planted_invalid_result_is_found_and_replayed() {
    found_and_replayed("invalid", "schema violation: /result/content/0");
}

#[test]
fn a_planted_crash_is_found_and_replayed() {
    found_and_replayed("crash", "crash: the server ended (exit status: 3)");
}

/// A fault found by drawn arguments is shrunk: the smallest call that finds it again keeps
/// only what the fault needs (`tags`, empty) and what the schema requires (`name`, one
/// character), both still valid under the tool's input schema.
#[test]
fn a_finding_is_shrunk_to_the_smallest_call_that_finds_it_again() {
    let python = python().to_str().expect("a UTF-8 path");
    let script = planted();
    let server = [python, script.to_str().expect("a UTF-8 path"), "tags"];
    let (out, stdout) = fuzz(
        &["--requests", "12", "--only", "tag", "--format", "json"],
        &server,
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let (findings, _) = json_report(&stdout);
    assert!(!findings.is_empty(), "{stdout}");
    for finding in &findings {
        assert_eq!(finding["fault"], "error response", "{finding}");
        let drawn: Value = serde_json::from_str(finding["message"].as_str().unwrap()).unwrap();
        let drawn = &drawn["params"]["arguments"];
        let smallest = &finding["smallest"];
        let arguments = smallest["arguments"].as_object().expect("shrunk arguments");
        assert_eq!(smallest["name"], "tag", "{finding}");
        assert_eq!(
            arguments.keys().collect::<Vec<_>>(),
            ["name", "tags"],
            "{finding}"
        );
        assert_eq!(arguments["tags"], serde_json::json!([]), "{finding}");
        let name = arguments["name"].as_str().unwrap();
        assert_eq!(name.chars().count(), 1, "{finding}");
        assert!(
            drawn["name"].as_str().unwrap().starts_with(name),
            "{finding}"
        );
    }
    // The text report shows it too (members in the order serde_json's features give them).
    let (_, text) = fuzz(&["--requests", "12", "--only", "tag"], &server);
    let shown = (text.lines())
        .find_map(|line| {
            line.trim()
                .strip_prefix("smallest call that finds it again: ")
        })
        .unwrap_or_else(|| panic!("no smallest call:\n{text}"));
    let shown: Value = serde_json::from_str(shown).expect("the call's params, as JSON");
    assert_eq!(shown["arguments"]["tags"], serde_json::json!([]), "{text}");
}

/// A Python SDK server over HTTP whose tool marks arguments with `x-mcp-header`: the SDK
/// refuses a 2026-07-28 call without the `Mcp-Param-*` headers (a POST without them is answered
/// 400, -32020), and every drawn call of `mcp-check fuzz` carries them (0 findings; a drawn
/// string that is not printable ASCII goes base64-encoded, which the SDK decodes).
#[test]
fn tool_arguments_marked_x_mcp_header_travel_in_param_headers() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/routed_server.py");
    let server = Listening::start(
        "routed_server.py",
        |port| {
            let mut command = Command::new(python());
            command.arg(&script).arg(port.to_string());
            command
        },
        accepts,
    );
    let url = format!("http://127.0.0.1:{}/mcp", server.port);

    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                 "io.modelcontextprotocol/clientCapabilities":{}},
        "name":"query","arguments":{"region":"eu","shard":1,"sql":"SELECT 1"}}}"#;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut refused = agent
        .post(&url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "query")
        .send(call)
        .expect("an answer");
    assert_eq!(refused.status(), 400);
    let body = refused.body_mut().read_to_string().expect("a body");
    assert!(
        body.contains("-32020") && body.contains("Mcp-Param-"),
        "{body}"
    );

    let (out, stdout) = fuzz(
        &[
            "--url",
            &url,
            "--revision",
            "2026-07-28",
            "--requests",
            "40",
            "--format",
            "json",
        ],
        &[],
    );
    assert!(out.status.success(), "{stdout}");
    let (findings, summary) = json_report(&stdout);
    assert!(findings.is_empty(), "{stdout}");
    assert_eq!(summary["tools"], 1, "{summary}");
    assert_eq!(summary["answered"], 40, "{summary}");
}

/// A crash of a stdio server is shrunk too, each smaller call sent to a server of its own: the
/// smallest call that crashes one again keeps `tags` (empty) and `name` (one character).
#[test]
fn a_crash_is_shrunk_in_servers_of_its_own() {
    let python = python().to_str().expect("a UTF-8 path");
    let script = planted();
    let server = [python, script.to_str().expect("a UTF-8 path"), "tags-crash"];
    let (out, stdout) = fuzz(
        &["--requests", "12", "--only", "tag", "--format", "json"],
        &server,
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let (findings, _) = json_report(&stdout);
    let [crash] = &findings[..] else {
        panic!("one finding, the crash that ends the run:\n{stdout}")
    };
    assert_eq!(crash["fault"], "crash", "{crash}");
    let arguments = crash["smallest"]["arguments"]
        .as_object()
        .unwrap_or_else(|| panic!("shrunk arguments: {crash}"));
    assert_eq!(
        arguments.keys().collect::<Vec<_>>(),
        ["name", "tags"],
        "{crash}"
    );
    assert_eq!(arguments["tags"], serde_json::json!([]), "{crash}");
    assert_eq!(
        arguments["name"].as_str().map(|n| n.chars().count()),
        Some(1),
        "{crash}"
    );
}

#[test]
fn a_server_that_never_answers_is_a_hang() {
    // `sleep` reads nothing and answers nothing.
    let (out, stdout) = fuzz(&["--timeout", "1"], &["sleep", "30"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("hang: no answer in 1s"), "{stdout}");
    assert!(stdout.contains("\"method\":\"initialize\""), "{stdout}");
}

#[test]
fn json_reports_a_line_per_finding_and_the_summary_last() {
    let python = python().to_str().expect("a UTF-8 path");
    let script = planted();
    let server = [python, script.to_str().expect("a UTF-8 path"), "invalid"];
    let (out, stdout) = fuzz(&["--requests", "40", "--format", "json"], &server);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<serde_json::Value> = (stdout.lines())
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let (summary, findings) = lines.split_last().expect("a summary");
    assert_eq!(summary["tools"], 1);
    assert_eq!(summary["answered"], 40);
    assert_eq!(summary["findings"], findings.len());
    assert!(!findings.is_empty());
    for finding in findings {
        assert_eq!(finding["fault"], "schema violation", "{finding}");
        assert_eq!(finding["tool"], "count");
        let seed = finding["seed"].as_u64().expect("a seed");
        let replay = finding["replay"].as_str().expect("a replay command");
        assert!(replay.contains(&format!("--seed {seed} --requests 1 --only count -- ")));
    }
}

/// The pinned TypeScript server-everything, serving Streamable HTTP on a free port of
/// 127.0.0.1 (its URL); killed when dropped.
fn server_everything() -> (Listening, String) {
    let package = npm_package("@modelcontextprotocol/server-everything");
    let server = Listening::start(
        "server-everything",
        |port| {
            let mut command = Command::new(node());
            (command.arg(package.join("dist/index.js")))
                .arg("streamableHttp")
                .env("PORT", port.to_string());
            command
        },
        accepts,
    );
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    (server, url)
}

/// The JSON report of a run: its findings and its summary.
fn json_report(stdout: &str) -> (Vec<Value>, Value) {
    let mut lines: Vec<Value> = (stdout.lines())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let summary = lines.pop().expect("a summary");
    (lines, summary)
}

/// server-everything over HTTP, one target at a time (`--only`, as a user narrows a run): two
/// defects of its tools are found and replayed: `trigger-sampling-request` passes a `maxTokens`
/// drawn as any number (its input schema's type) on to `sampling/createMessage`, whose
/// `maxTokens` is an integer; in 2025-03-26, `get-resource-links` returns `resource_link`
/// content, which that revision does not have. A resource template is read with its variable
/// drawn, and an unknown resource is answered -32603 where the spec says -32002: a finding too.
#[test]
fn server_everything_over_http_has_its_defects_found() {
    let (_server, url) = server_everything();
    let url = url.as_str();
    let only = |target: &str, revision: &str, requests: &str| {
        let flags = ["--url", url, "--only", target, "--revision", revision];
        let (_, stdout) = fuzz(
            &[&flags[..], &["--requests", requests, "--format", "json"]].concat(),
            &[],
        );
        json_report(&stdout)
    };
    let (findings, summary) = only("trigger-sampling-request", "2025-11-25", "30");
    assert_eq!(summary["tools"], 17, "{summary}");
    assert_eq!(summary["answered"], 30, "{summary}");
    assert!(!findings.is_empty(), "{summary}");
    for finding in &findings {
        assert_eq!(finding["fault"], "schema violation", "{finding}");
        let detail = finding["detail"].as_str().expect("a detail");
        assert!(detail.starts_with("/params/maxTokens "), "{finding}");
        assert!(detail.contains("expected i64"), "{finding}");
    }
    // The replay names the server by its URL and finds the fault with one call.
    let replay = findings[0]["replay"].as_str().expect("a replay command");
    assert!(replay.ends_with(&format!("--url {url}")), "{replay}");
    let words: Vec<&str> = replay.split(' ').skip(2).collect();
    let (again, stdout) = fuzz(&words, &[]);
    assert_eq!(again.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("/params/maxTokens"), "{stdout}");
    assert!(
        stdout.contains(", 1 calls answered, 1 findings"),
        "{stdout}"
    );

    let (findings, _) = only("get-resource-links", "2025-03-26", "3");
    assert_eq!(findings.len(), 3, "{findings:?}");
    assert!(
        (findings.iter())
            .all(|f| (f["detail"].as_str()).is_some_and(|d| d.contains("\"resource_link\""))),
        "{findings:?}"
    );

    let template = "template:demo://resource/dynamic/text/{resourceId}";
    let (findings, summary) = only(template, "2025-11-25", "3");
    assert_eq!(summary["resources"], 9, "{summary}");
    assert_eq!(findings.len(), 3, "{findings:?}");
    for finding in &findings {
        assert_eq!(finding["fault"], "error response", "{finding}");
        let read: Value = serde_json::from_str(finding["message"].as_str().unwrap()).unwrap();
        assert_eq!(read["method"], "resources/read");
        let uri = read["params"]["uri"].as_str().expect("a uri");
        assert!(uri.starts_with("demo://resource/dynamic/text/"), "{uri}");
        assert!(!uri.contains('{'), "{uri}");
        assert!(
            finding["detail"].as_str().unwrap().contains("-32603"),
            "{finding}"
        );
    }
}

/// An endpoint where nothing listens: the run ends with a crash, said as such.
#[test]
fn an_endpoint_that_cannot_be_reached_is_a_crash() {
    let url = format!("http://127.0.0.1:{}/mcp", free_port());
    let (out, stdout) = fuzz(&["--url", &url], &[]);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("crash: the server could not be reached"),
        "{stdout}"
    );
}

/// server-everything (TypeScript SDK 1.32.2) speaks no 2026-07-28: its answer to
/// `server/discover` (400, "Server not initialized") is reported as a conversation it would not
/// open in that revision, not as a fault of a call; the same server opens one in 2025-11-25.
#[test]
fn server_everything_in_2026_07_28_is_told_to_speak_no_such_revision() {
    let (_server, url) = server_everything();
    let run = |revision: &str| {
        let flags = ["--url", url.as_str(), "--revision", revision];
        fuzz(
            &[&flags[..], &["--requests", "3", "--format", "json"]].concat(),
            &[],
        )
    };
    let (out, stdout) = run("2026-07-28");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let (findings, summary) = json_report(&stdout);
    assert_eq!(summary["tools"], 0, "{summary}");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let detail = findings[0]["detail"].as_str().expect("a detail");
    assert!(
        detail.starts_with("no 2026-07-28 conversation: the server refused to open one (HTTP 400"),
        "{detail}"
    );
    assert!(detail.contains("Server not initialized"), "{detail}");
    let opening: Value = serde_json::from_str(findings[0]["message"].as_str().unwrap()).unwrap();
    assert_eq!(opening["method"], "server/discover");

    let (_, stdout) = run("2025-11-25");
    let (_, summary) = json_report(&stdout);
    assert_eq!(summary["tools"], 17, "{summary}");
}
