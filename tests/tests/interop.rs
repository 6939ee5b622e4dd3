//! Interop with real peers, over stdio:
//!
//! - the official TypeScript SDK (`@modelcontextprotocol/sdk`) as the client of our example
//!   server (`src/bin/interop_server.rs`), driven by `tests/interop/sdk_client.mjs`;
//! - our probe client (`src/bin/interop_client.rs`) against the official reference server
//!   (`@modelcontextprotocol/server-everything`);
//! - our server fed malformed lines directly.
//!
//! Both npm packages, and the Node 22 they run on, are pinned by `tests/interop/package-lock.json`
//! and installed on first use (`npm ci`, see `mcp_typed_tests::installed`). Installing needs
//! `npm`: without it these tests fail and say so; they are never skipped.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mcp_typed_tests::installed as peers;
use serde_json::{json, Value};

const SERVER: &str = env!("CARGO_BIN_EXE_interop-server");
const CLIENT: &str = env!("CARGO_BIN_EXE_interop-client");
/// Each peer run must end within this (they take a few seconds).
const TIMEOUT: Duration = Duration::from_secs(30);

fn interop_dir() -> PathBuf {
    peers::interop_dir()
}

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `command` to completion with `input` on stdin, killing it after [`TIMEOUT`].
fn run(mut command: Command, input: &[u8]) -> Run {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write stdin");
    drop(stdin);
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).map(|_| text)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().expect("stdout reader").expect("stdout is UTF-8");
    let stderr = err.join().expect("stderr reader").expect("stderr is UTF-8");
    Run {
        status,
        stdout,
        stderr,
        took: started.elapsed(),
    }
}

/// The JSON report on the last line of stdout.
fn report(run: &Run, what: &str) -> Value {
    let last = run.stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| {
        panic!(
            "{what}: no JSON report ({e}); status {}\nstdout:\n{}\nstderr:\n{}",
            run.status, run.stdout, run.stderr
        )
    })
}

fn assert_contains(haystack: &Value, needles: &[&str]) {
    let text = haystack
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {haystack}"));
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} not in {text:?}");
    }
}

#[test]
fn typescript_sdk_client_against_our_server() {
    peers::npm_package("@modelcontextprotocol/sdk");
    let node = peers::node();
    let mut command = Command::new(node);
    command
        .current_dir(interop_dir())
        .arg("sdk_client.mjs")
        .arg(SERVER);
    let run = run(command, b"");
    eprintln!("TypeScript SDK client: {:?}", run.took);
    assert!(
        run.status.success(),
        "sdk_client.mjs failed ({})\nstdout:\n{}\nstderr:\n{}",
        run.status,
        run.stdout,
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let r = report(&run, "sdk_client.mjs");

    assert_eq!(r["protocolVersion"], "2025-11-25");
    assert_eq!(r["serverInfo"]["name"], "mcp-typed-interop-server");
    assert_eq!(
        r["tools"],
        json!(["register_contact", "connect_calendar", "link_account"])
    );
    assert_eq!(r["sdkErrors"], json!([]));

    // The derived form, as the SDK read it off the wire: declaration order, titled single
    // select, multi select with defaults.
    let schema = &r["accept"]["schema"];
    assert_eq!(
        r["accept"]["order"],
        json!(["name", "email", "age", "plan", "topics", "company"])
    );
    assert_eq!(schema["properties"]["email"]["format"], "email");
    assert_eq!(schema["properties"]["age"]["minimum"], 18);
    assert_eq!(
        schema["properties"]["plan"]["oneOf"][2],
        json!({"const": "team", "title": "Team (5+ seats)"})
    );
    assert_eq!(
        schema["properties"]["topics"]["default"],
        json!(["releases", "security"])
    );

    // Accept (with the client pre-filling the defaults), decline and cancel are told apart.
    assert_eq!(
        r["accept"]["structured"],
        json!({"outcome": "accepted", "contact": {
            "name": "Ada Lovelace", "email": "ada@example.com", "age": 36, "plan": "free",
            "topics": ["releases", "security"], "company": "Analytical Engines Ltd"}})
    );
    assert_eq!(
        r["accept"]["text"],
        "Registered Ada Lovelace <ada@example.com>, age 36, plan free, topics releases, security, company Analytical Engines Ltd."
    );
    assert_eq!(r["acceptChanged"]["structured"]["contact"]["plan"], "team");
    assert_eq!(
        r["acceptChanged"]["structured"]["contact"]["topics"],
        json!(["events"])
    );
    assert_eq!(r["decline"]["structured"], json!({"outcome": "declined"}));
    assert_eq!(r["decline"]["text"], "The user declined to register.");
    assert_eq!(r["decline"]["isError"], false);
    assert_eq!(r["cancel"]["structured"], json!({"outcome": "cancelled"}));
    assert_eq!(r["cancel"]["text"], "The user cancelled the registration.");
    assert_eq!(r["cancel"]["isError"], false);

    // An answer that breaks the form: a tool error naming every pointer and keyword.
    assert_eq!(r["invalid"]["isError"], true);
    assert_contains(
        &r["invalid"]["text"],
        &[
            "/name:",
            "(minLength)",
            "/email:",
            "(format)",
            "/age:",
            "(minimum)",
            "/plan:",
            "(enum)",
            "/topics:",
            "(maxItems)",
        ],
    );
    // The client failing its elicitation handler: an error response, a tool error here.
    assert_eq!(r["handlerError"]["isError"], true);
    assert_contains(
        &r["handlerError"]["text"],
        &["failed (-32603)", "the form could not be shown"],
    );
    // A fractional answer to an integer field: the message decodes (erratum
    // `elicit-number-answers`), and the form refuses the value, naming the member.
    assert_eq!(r["fractional"]["isError"], true);
    assert_contains(
        &r["fractional"]["text"],
        &[
            "Invalid contact details",
            "/age: expected an integer, found 36.5 (type)",
        ],
    );
    // A call cancelled while its form was open is not answered afterwards.
    assert_eq!(r["cancelled"]["sdkErrors"], json!([]));

    // URL mode through -32042: the error carries the elicitation, the completion notification
    // names it, the retry succeeds.
    let url = &r["urlRequired"];
    assert_eq!(url["code"], -32042);
    let id = url["elicitationId"].as_str().expect("elicitationId");
    assert_eq!(
        url["url"],
        format!("https://mcp.example.com/connect?elicitationId={id}")
    );
    assert_eq!(url["completed"], true);
    assert_eq!(
        url["retry"],
        format!("Calendar connected (elicitation {id}).")
    );
    assert_eq!(url["retryIsError"], false);
    // URL mode through a request: the result follows the completion notification.
    let link = &r["link"];
    let id = link["elicitationId"].as_str().expect("elicitationId");
    assert_eq!(
        link["events"],
        json!(["elicit:url", format!("complete:{id}")])
    );
    assert_eq!(link["text"], format!("Account linked (elicitation {id})."));
    assert_eq!(
        r["linkDecline"]["text"],
        "The user declined to open the link."
    );

    assert_eq!(r["unknownTool"], -32602);
    assert_eq!(r["unknownMethod"], -32601);

    // Clients without URL mode never see one: -32602 instead; form mode still works where
    // declared (`{}` means form only).
    for label in ["formOnly", "emptyMeansForm", "noElicitation"] {
        let o = &r[label];
        assert_eq!(o["connectCalendar"], -32602, "{label}");
        assert_eq!(o["linkAccount"], -32602, "{label}");
        assert_eq!(o["urlRequestsSeen"], 0, "{label}");
        assert_eq!(o["completions"], 0, "{label}");
    }
    assert_eq!(r["formOnly"]["registerContact"], "accepted");
    assert_eq!(r["emptyMeansForm"]["registerContact"], "accepted");
    assert_eq!(r["noElicitation"]["registerContact"], -32602);
}

/// The tools server-everything offers a client with roots, sampling, both elicitation modes
/// and task-augmented elicitation and sampling, in the pinned version.
const EVERYTHING_TOOLS: [&str; 19] = [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
    "get-roots-list",
    "trigger-elicitation-request",
    "trigger-url-elicitation",
    "trigger-sampling-request",
    "simulate-research-query",
    "trigger-sampling-request-async",
    "trigger-elicitation-request-async",
];

#[test]
fn our_client_against_server_everything() {
    let node = peers::node();
    let everything = peers::npm_package("@modelcontextprotocol/server-everything");
    let mut command = Command::new(CLIENT);
    command
        .arg(node)
        .arg(everything.join("dist/index.js"))
        .arg("stdio")
        // Only PATH: the server's get-env tool prints its environment.
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    let run = run(command, b"");
    eprintln!("server-everything probe: {:?}", run.took);
    let r = report(&run, "interop-client");
    assert_eq!(r["failures"], json!([]), "stderr:\n{}", run.stderr);
    assert!(run.status.success(), "{}\n{}", run.status, run.stderr);

    assert_eq!(r["protocolVersion"], "2025-11-25");
    assert_eq!(r["serverInfo"]["name"], "mcp-servers/everything");
    assert_eq!(r["toolsListed"], json!(EVERYTHING_TOOLS));
    let tools = r["tools"].as_array().expect("tools");
    let called: Vec<&str> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(called, EVERYTHING_TOOLS, "every tool offered is called");
    let tool = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} not called"))
    };
    for t in tools {
        assert_eq!(t["isError"], false, "{t}");
    }
    assert_eq!(tool("echo")["text"], "Echo: hello from mcp-typed");
    assert_eq!(tool("get-sum")["text"], "The sum of 2 and 2 is 4.");
    assert_eq!(
        tool("get-tiny-image")["content"],
        json!(["text", "image", "text"])
    );
    assert_eq!(
        tool("get-resource-reference")["content"],
        json!(["text", "resource", "text"])
    );
    assert_eq!(
        tool("get-structured-content")["structured"],
        json!({"temperature": 33, "conditions": "Cloudy", "humidity": 82})
    );
    assert_eq!(
        tool("gzip-file-as-resource")["content"],
        json!(["resource_link"])
    );
    assert_contains(
        &tool("trigger-long-running-operation")["text"],
        &["Duration: 0.4 seconds, Steps: 2"],
    );
    assert_contains(
        &tool("get-roots-list")["text"],
        &["file:///tmp/mcp-typed-interop"],
    );
    // Our answers reached the server's tools.
    assert_contains(
        &tool("trigger-elicitation-request")["text"],
        &[
            "✅ User provided the requested information!",
            "- Name: Ada Lovelace",
            "- Favorite Integer: 42",
        ],
    );
    assert_contains(
        &tool("trigger-sampling-request")["text"],
        &["mcp-schema-probe-model"],
    );
    let url = tool("trigger-url-elicitation");
    assert_contains(
        &url["text"],
        &["✅ User completed the URL elicitation flow."],
    );
    assert_eq!(url["errorPath"]["code"], -32042);
    assert_eq!(
        url["errorPath"]["elicitations"].as_array().map(Vec::len),
        Some(1)
    );
    assert_contains(
        &url["retry"]["text"],
        &["✅ User completed the URL elicitation flow."],
    );
    assert_contains(
        &tool("simulate-research-query")["text"],
        &["# Research Report: hello from mcp-typed (technical)"],
    );
    assert_eq!(
        r["task"],
        json!({"tool": "simulate-research-query", "created": "working", "firstPoll": "working",
               "listed": true, "last": "completed"})
    );
    assert_contains(
        &tool("toggle-simulated-logging")["again"]["text"],
        &["Stopped"],
    );
    // Task-augmented requests to this client: answered with a task, polled with tasks/get,
    // fetched with tasks/result.
    assert_contains(
        &tool("trigger-sampling-request-async")["text"],
        &[
            "[COMPLETED] Async sampling completed!",
            "Poll 1: completed",
            "mcp-schema-probe-model",
        ],
    );
    assert_contains(
        &tool("trigger-elicitation-request-async")["text"],
        &[
            "[COMPLETED] User provided the requested information!",
            "- Name: Ada Lovelace",
            "Poll 1: completed",
        ],
    );
    assert_eq!(
        r["clientTasks"],
        json!({"created": 2, "requests": ["tasks/get", "tasks/result", "tasks/get", "tasks/result"]})
    );

    // Prompts, with arguments from the server's completions.
    let prompts = r["prompts"].as_array().expect("prompts");
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        [
            "simple-prompt",
            "args-prompt",
            "completable-prompt",
            "resource-prompt"
        ]
    );
    assert_eq!(
        prompts[2]["text"],
        "Please promote Alice to the head of the Engineering team."
    );
    assert_eq!(prompts[3]["types"], json!(["text", "resource"]));

    // Resources: every one listed, every template instantiated, every link in a result read.
    let resources = &r["resources"];
    let listed = resources["listed"].as_array().expect("listed").len();
    assert!(listed >= 5, "{resources}");
    assert_eq!(resources["read"].as_array().map(Vec::len), Some(listed + 2));
    assert_eq!(
        resources["templates"],
        json!([
            "demo://resource/dynamic/text/{resourceId}",
            "demo://resource/dynamic/blob/{resourceId}"
        ])
    );
    let linked = r["linkedResourcesRead"].as_array().expect("linked");
    assert!(
        linked.contains(&json!("demo://resource/session/interop.txt.gz")),
        "{linked:?}"
    );

    // The server's requests were answered: form and URL elicitation, sampling, roots.
    let elicitations = r["elicitations"].as_array().expect("elicitations");
    let form = &elicitations[0];
    assert_eq!(form["mode"], "form");
    assert_eq!(form["properties"].as_array().map(Vec::len), Some(13));
    // `number` (default 3.14, the server's, not π) is answered with its default, exactly.
    assert_eq!(form["content"]["number"].to_string(), "3.14");
    assert_eq!(form["content"]["legacyTitledEnum"], "pet-1");
    assert!(elicitations.iter().any(|e| e["mode"] == "url"));
    assert_eq!(r["sampling"].as_array().map(Vec::len), Some(2));

    // Every kind of message came, and each decoded into its specific variant (the client
    // checks the variant against the request and the JSON round trip of each message).
    let received = &r["received"];
    for kind in [
        "request roots/list",
        "request sampling/createMessage",
        "request elicitation/create",
        "request tasks/get",
        "request tasks/result",
        "notification notifications/message",
        "notification notifications/progress",
        "notification notifications/resources/updated",
        "notification notifications/resources/list_changed",
        "notification notifications/tools/list_changed",
        "notification notifications/tasks/status",
        "error -32042",
        "result Initialize",
        "result ListTools",
        "result CallTool",
        "result ListPrompts",
        "result GetPrompt",
        "result ListResources",
        "result ListResourceTemplates",
        "result ReadResource",
        "result Complete",
        "result GetTask",
        "result ListTasks",
        "result Empty",
    ] {
        assert!(
            received[kind].as_u64().unwrap_or(0) >= 1,
            "no {kind}: {received}"
        );
    }
    assert!(
        r["messagesDecoded"].as_u64().unwrap_or(0) >= 80,
        "{received}"
    );
}

/// A line of input and the reply it must get (`None`: no reply).
fn exchange(server_input: &[(&[u8], Option<Value>)]) {
    let mut input = Vec::new();
    for (line, _) in server_input {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let run = run(Command::new(SERVER), &input);
    assert!(run.status.success(), "{}\n{}", run.status, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let replies: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let expected: Vec<&Value> = server_input
        .iter()
        .filter_map(|(_, r)| r.as_ref())
        .collect();
    assert_eq!(replies.len(), expected.len(), "replies:\n{}", run.stdout);
    for ((line, _), (reply, want)) in server_input
        .iter()
        .filter(|(_, r)| r.is_some())
        .zip(replies.iter().zip(expected))
    {
        let line = String::from_utf8_lossy(line);
        assert_eq!(reply["jsonrpc"], "2.0", "{line}");
        assert_eq!(reply["id"], want["id"], "{line} → {reply}");
        match want.get("code") {
            Some(code) => {
                assert_eq!(&reply["error"]["code"], code, "{line} → {reply}");
                if let Some(path) = want.get("path") {
                    assert_eq!(&reply["error"]["data"]["path"], path, "{line} → {reply}");
                }
            }
            None => assert_eq!(reply["result"], want["result"], "{line} → {reply}"),
        }
    }
}

fn err(id: Value, code: i64) -> Option<Value> {
    Some(json!({"id": id, "code": code}))
}

#[test]
fn our_server_answers_malformed_lines_and_keeps_serving() {
    let initialize = br#"{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    exchange(&[
        (b"not json", err(Value::Null, -32700)),
        (br#"{"jsonrpc":"2.0","id":1,"method":"ping""#, err(Value::Null, -32700)),
        (b"\xff\xfe{}", err(Value::Null, -32700)),
        (b"[1, 2]", err(Value::Null, -32600)),
        (b"42", err(Value::Null, -32600)),
        (br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, err(json!(1), -32600)),
        (br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, err(Value::Null, -32600)),
        (br#"{"jsonrpc":"2.0","id":2,"method":"ping","x":1}"#, err(json!(2), -32600)),
        (br#"{"jsonrpc":"2.0","method":7}"#, err(Value::Null, -32600)),
        (br#"{"jsonrpc":"2.0","id":3,"method":"tools/explode"}"#, err(json!(3), -32601)),
        (
            br#"{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":7}}"#,
            Some(json!({"id": "s", "code": -32602, "path": "/params/name"})),
        ),
        // Notifications are never answered, not even invalid ones.
        (br#"{"jsonrpc":"2.0","method":"notifications/bogus"}"#, None),
        (br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#, None),
        (br#"{"jsonrpc":"2.0","method":"tools/list"}"#, None),
        // Nor is a response to a request the server never sent.
        (br#"{"jsonrpc":"2.0","id":"srv-99","result":{"action":"accept"}}"#, None),
        (b"", None),
        // Before `initialize`, only ping is served.
        (br#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#, err(json!(4), -32600)),
        (initialize, Some(json!({"id": 10, "result": {
            "capabilities": {"tools": {"listChanged": false}},
            "instructions": "Tools that elicit a form, require a URL-mode elicitation, or send one.",
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": "mcp-typed-interop-server", "title": "mcp-typed interop example", "version": env!("CARGO_PKG_VERSION")},
        }}))),
        (br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, None),
        // This client declared no elicitation at all.
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"register_contact"}}"#,
            err(json!(5), -32602),
        ),
        (br#"{"jsonrpc":"2.0","id":6,"method":"resources/list"}"#, err(json!(6), -32601)),
        (br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, Some(json!({"id": 7, "result": {}}))),
    ]);
}

#[test]
fn the_interop_files_are_where_the_tests_expect_them() {
    // The README's command and CI install from the lock file; it must pin both peers.
    let dir = interop_dir();
    for file in ["package.json", "package-lock.json", "sdk_client.mjs"] {
        assert!(
            Path::new(&dir.join(file)).is_file(),
            "tests/interop/{file} is missing"
        );
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).expect("read"))
            .expect("JSON");
    for name in [
        "@modelcontextprotocol/sdk",
        "@modelcontextprotocol/server-everything",
    ] {
        let version = manifest["dependencies"][name].as_str().unwrap_or("");
        assert!(
            !version.is_empty() && version.chars().all(|c| c.is_ascii_digit() || c == '.'),
            "{name} must be pinned to an exact version in tests/interop/package.json, found {version:?}"
        );
    }
}
