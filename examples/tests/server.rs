//! The example server, driven line by line over stdio: the 2026-07-28 flow served by a fresh
//! process holding only the key, every refusal (tampered or foreign state, an answer that
//! breaks the form, a request kind the client did not declare), and the same tools over live
//! requests in 2025-11-25.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

const SERVER: &str = env!("CARGO_BIN_EXE_server");
const KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
const OTHER_KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// Runs a fresh server process sealing with `key`, feeds it `lines`, and returns every message
/// it wrote.
fn serve(key: &str, lines: &[Value]) -> Vec<Value> {
    let mut child = Command::new(SERVER)
        .env("MRTR_STATE_KEY", key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
    }
    drop(stdin);
    let out = child
        .wait_with_output()
        .expect("the server ends at end of input");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON message per line"))
        .collect()
}

fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

fn call(id: i64, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn signup_call(id: i64) -> Value {
    call(
        id,
        json!({"_meta": meta(json!({"elicitation": {}})), "name": "signup", "arguments": {}}),
    )
}

fn retry(id: i64, asked: &Value, answer: Value) -> Value {
    let mut retry = signup_call(id);
    retry["params"]["inputResponses"] = json!({ "signup": answer });
    retry["params"]["requestState"] = asked["result"]["requestState"].clone();
    retry
}

fn accepted(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn full_form() -> Value {
    json!({"name": "Ada", "email": "ada@example.com", "age": 36, "donation": 12.5,
        "height": 1.75, "newsletter": true, "plan": "Pro", "topics": ["Rust", "Cooking"]})
}

fn text(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {reply}"))
}

#[test]
fn the_retry_is_served_by_a_fresh_process() {
    let asked = &serve(KEY, &[signup_call(1)])[0];
    assert_eq!(asked["id"], 1);
    assert_eq!(asked["result"]["resultType"], "input_required");
    let request = &asked["result"]["inputRequests"]["signup"];
    assert_eq!(request["method"], "elicitation/create");
    let schema = &request["params"]["requestedSchema"];
    let names: Vec<&str> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    // Compared as a set: a `Value` sorts them unless serde_json's `preserve_order` is on in the
    // build; the order on the wire is checked on the text (tests/tests/derive.rs, and through
    // rmcp in rmcp/tests/wire_order.rs).
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "age",
            "donation",
            "email",
            "height",
            "name",
            "newsletter",
            "nickname",
            "plan",
            "topics"
        ]
    );
    assert_eq!(schema["properties"]["donation"]["default"], 2.5);
    assert_eq!(schema["properties"]["height"]["type"], "number");

    // Another process, holding only the key, completes the call from the retry alone.
    let done = &serve(KEY, &[retry(2, asked, accepted(full_form()))])[0];
    assert_eq!(done["id"], 2);
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(
        text(done),
        "signup: name=Ada, email=ada@example.com, age=36, donation=12.5, height=1.75, \
         newsletter=true, plan=Pro, topics=[Rust, Cooking], nickname=-"
    );
}

#[test]
fn a_tampered_or_foreign_state_is_refused() {
    let asked = serve(KEY, &[signup_call(1)]).remove(0);
    let mut tampered = asked.clone();
    let token = asked["result"]["requestState"].as_str().expect("a state");
    let mut bytes = token.as_bytes().to_vec();
    let last = bytes.len() - 2;
    bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
    tampered["result"]["requestState"] = json!(String::from_utf8(bytes).expect("ASCII"));
    for (key, asked) in [(KEY, &tampered), (OTHER_KEY, &asked)] {
        let refused = &serve(key, &[retry(2, asked, accepted(full_form()))])[0];
        assert_eq!(refused["id"], 2);
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(refused["error"]["message"], "invalid requestState");
    }
}

#[test]
fn declined_and_invalid_answers() {
    let asked = serve(KEY, &[signup_call(1)]).remove(0);
    let declined = &serve(KEY, &[retry(2, &asked, json!({"action": "decline"}))])[0];
    assert_eq!(text(declined), "signup: declined");

    let mut form = full_form();
    form["age"] = json!(5);
    form["height"] = json!("tall");
    let invalid = &serve(KEY, &[retry(3, &asked, accepted(form))])[0];
    assert_eq!(invalid["error"]["code"], -32602, "{invalid}");
    let error = invalid["error"].to_string();
    assert!(
        error.contains("/inputResponses/signup/content/age"),
        "{error}"
    );
    assert!(
        error.contains("/inputResponses/signup/content/height"),
        "{error}"
    );

    // No answer at all: asked again, never failed.
    let mut unanswered = retry(4, &asked, Value::Null);
    unanswered["params"]
        .as_object_mut()
        .expect("params")
        .remove("inputResponses");
    let again = &serve(KEY, &[unanswered])[0];
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
}

#[test]
fn a_request_kind_the_client_did_not_declare_is_never_sent() {
    let summarize = |id| {
        call(
            id,
            json!({"_meta": meta(json!({"elicitation": {}})), "name": "summarize",
                "arguments": {"text": "MCP"}}),
        )
    };
    let reply = &serve(KEY, &[summarize(1)])[0];
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert!(text(reply).contains("sampling"), "{reply}");

    // The same in 2025-11-25: no live request goes out.
    let replies = serve(
        KEY,
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "test", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            call(
                2,
                json!({"name": "summarize", "arguments": {"text": "MCP"}}),
            ),
        ],
    );
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[1]["id"], 2);
    assert_eq!(replies[1]["result"]["isError"], true);
}

#[test]
fn live_requests_in_2025_11_25() {
    // The server's first request gets id 1: the script can answer it before it is sent,
    // since the server reads one line at a time.
    let replies = serve(
        KEY,
        &[
            json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
                "clientInfo": {"name": "test", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": "ping", "method": "ping"}),
            call(10, json!({"name": "signup"})),
            json!({"jsonrpc": "2.0", "id": 1, "result": accepted(full_form())}),
            call(11, json!({"name": "list_roots"})),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"roots": [{"uri": "file:///work"}]}}),
            call(12, json!({"name": "signup"})),
            json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -1, "message": "user went away"}}),
        ],
    );
    let by_id = |id: Value| {
        replies
            .iter()
            .find(|r| r["id"] == id && r.get("method").is_none())
            .unwrap_or_else(|| panic!("no reply to {id}: {replies:?}"))
    };
    assert_eq!(
        by_id(json!("init"))["result"]["protocolVersion"],
        "2025-11-25"
    );
    assert_eq!(by_id(json!("ping"))["result"], json!({}));
    let asked: Vec<&Value> = replies
        .iter()
        .filter(|r| r.get("method").is_some())
        .collect();
    assert_eq!(asked[0]["method"], "elicitation/create");
    assert_eq!(asked[0]["id"], 1);
    assert_eq!(asked[1]["method"], "roots/list");
    assert!(text(by_id(json!(10))).starts_with("signup: name=Ada,"));
    assert_eq!(text(by_id(json!(11))), "list_roots: file:///work");
    let refused = by_id(json!(12));
    assert_eq!(refused["result"]["isError"], true);
    assert!(text(refused).contains("user went away"), "{refused}");
}

/// An older client gets its own version back, and forms of its revision: the sign-up form,
/// which 2025-06-18 cannot express (a number with a default, a multi select), is not sent.
#[test]
fn a_2025_06_18_session_gets_forms_of_its_revision() {
    let replies = serve(
        KEY,
        &[
            json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "test", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            call(10, json!({"name": "signup"})),
        ],
    );
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(replies.len(), 2, "no elicitation/create: {replies:?}");
    assert_eq!(replies[1]["result"]["isError"], true);
    assert!(
        text(&replies[1]).contains("does not exist in revision 2025-06-18"),
        "{}",
        replies[1]
    );
}

#[test]
fn lines_that_are_not_messages_are_answered_with_their_code() {
    let replies = serve(
        KEY,
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta(json!({}))}}),
            json!("not an object"),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/explode", "params": {"_meta": meta(json!({}))}}),
        ],
    );
    assert_eq!(
        replies[0]["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    assert_eq!(replies[1]["error"]["code"], -32600, "{:?}", replies[1]);
    assert_eq!(replies[2]["error"]["code"], -32601);
    assert_eq!(replies[2]["id"], 2);
}

/// `mcp-check fuzz` (its library) against the example server: every drawn call answered, every
/// message of the conversation valid, the live requests of its input tools answered with drawn
/// forms, written in the session's revision (in 2025-06-18 it found them written as 2025-11-25's).
#[test]
fn the_server_answers_every_drawn_call_in_each_revision() {
    use mcp_wire_check::fuzz::{self, Options};
    use mcp_wire_check::Revision;
    for revision in [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ] {
        let options = Options {
            revision,
            requests: 60,
            ..Options::default()
        };
        let report = fuzz::run(&fuzz::Target::Command(vec![SERVER.to_owned()]), &options)
            .expect("the server runs");
        assert_eq!(report.tools, 5, "{revision}");
        assert_eq!(report.answered, 60, "{revision}: {report:?}");
        assert!(report.findings.is_empty(), "{revision}: {report:#?}");
        // 2026-07-28: the input tools answer `input_required`, retried with drawn answers.
        let retried = revision == Revision::V2026_07_28;
        assert_eq!(report.retries > 0, retried, "{revision}: {report:#?}");
    }
}
