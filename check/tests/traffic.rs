//! `mcp-check` on real recorded traffic (the Python SDK 2.3.0 in both eras, the TypeScript SDK
//! 1.32.2 client and server, captured by the interop tests into fuzz/seeds/traffic/), and on
//! the same traffic with one violation planted at a time.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_wire_check::{traffic, Checker, Revision, Side, Verdict};
use serde_json::{json, Value};

fn recording(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds/traffic")
        .join(name)
}

const PYTHON: &str = "python-sdk-2.3.0.jsonl";
const TS_CLIENT: &str = "typescript-sdk-1.32.2-client.jsonl";
const TS_SERVER: &str = "typescript-sdk-1.32.2-server.jsonl";

fn lines(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(recording(name)).expect("recorded traffic");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a recorded message is JSON"))
        .collect()
}

fn check(messages: &[Value], checker: Checker) -> Vec<Verdict> {
    let text: String = messages.iter().map(|m| format!("{m}\n")).collect();
    let mut checker = checker;
    traffic::read(&text)
        .iter()
        .map(|entry| checker.check(entry))
        .collect()
}

fn invalid(verdicts: &[Verdict]) -> Vec<&Verdict> {
    verdicts.iter().filter(|v| !v.is_valid()).collect()
}

#[test]
fn the_recorded_sdk_traffic_is_valid() {
    let python = check(&lines(PYTHON), Checker::new(None));
    assert_eq!(python.len(), 110);
    assert!(invalid(&python).is_empty(), "{:#?}", invalid(&python));
    // Both eras: the 2025-11-25 session, and 2026-07-28 requests naming their version in _meta.
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let count = python
            .iter()
            .filter(|v| v.revision == Some(revision))
            .count();
        assert!(count >= 10, "{count} messages of {revision}");
    }
    // Every response was matched with its request, so its method is known.
    assert!(python.iter().all(|v| v.method.is_some()), "{python:#?}");
    // Both directions told apart without records saying who sent what.
    for side in [Side::Client, Side::Server] {
        assert!(python.iter().any(|v| v.from == Some(side)));
    }

    let client = check(&lines(TS_CLIENT), Checker::new(None).sent_by(Side::Client));
    assert_eq!(client.len(), 86);
    assert!(invalid(&client).is_empty(), "{:#?}", invalid(&client));
    assert!(client
        .iter()
        .all(|v| v.revision == Some(Revision::V2025_11_25)));

    // The server's side alone has no `initialize` request: its revision is given.
    let server = check(
        &lines(TS_SERVER),
        Checker::new(Some(Revision::V2025_11_25)).sent_by(Side::Server),
    );
    assert_eq!(server.len(), 108);
    assert!(invalid(&server).is_empty(), "{:#?}", invalid(&server));
    // Without it, each message is one violation (no revision), but an error response, whose
    // shape every revision shares.
    let messages = lines(TS_SERVER);
    let unknown = check(&messages, Checker::new(None).sent_by(Side::Server));
    for (message, verdict) in messages.iter().zip(&unknown) {
        if message.get("error").is_some() {
            assert!(verdict.is_valid(), "{verdict:?}");
        } else {
            assert_eq!(verdict.violations.len(), 1, "{verdict:?}");
            assert_eq!(verdict.violations[0].keyword, "revision");
        }
    }
}

/// A request that states no revision, in a conversation without `initialize`, is told so: a
/// 2026-07-28 request names its revision in `_meta`.
#[test]
fn a_request_without_its_protocol_version_meta_is_told_where_it_goes() {
    let verdicts = check(
        &[
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}),
        ],
        Checker::new(None),
    );
    let said = &verdicts[0].violations[0];
    assert_eq!(said.keyword, "revision");
    assert!(
        said.expected.contains("its `_meta` names none")
            && said
                .expected
                .contains("io.modelcontextprotocol/protocolVersion"),
        "{said:?}"
    );
    assert!(
        (verdicts[1].violations[0].expected).contains("no `initialize` came before this message"),
        "{:?}",
        verdicts[1]
    );
}

/// The index of the first message of `messages` for which `find` holds.
fn first(messages: &[Value], find: impl Fn(&Value) -> bool) -> usize {
    messages
        .iter()
        .position(find)
        .expect("the recording has one")
}

#[test]
fn each_planted_violation_is_reported_at_its_pointer() {
    let base = lines(PYTHON);
    type Plant = (
        &'static str,
        fn(&Value) -> bool,
        fn(&mut Value),
        &'static str,
        &'static str,
    );
    let plants: &[Plant] = &[
        (
            "a tool's name is not a string",
            |m| m["method"] == "tools/call",
            |m| m["params"]["name"] = json!(7),
            "/params/name",
            "params",
        ),
        (
            "a listed tool without its input schema",
            |m| m["result"]["tools"].is_array(),
            |m| {
                m["result"]["tools"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("inputSchema");
            },
            "/result/tools/0",
            "result",
        ),
        (
            "jsonrpc is not 2.0",
            |m| m["method"] == "initialize",
            |m| m["jsonrpc"] = json!("1.0"),
            "/jsonrpc",
            "jsonrpc",
        ),
        (
            // Counted by a strict checker (by default, an unknown method: see below).
            "a method neither side has",
            |m| m["method"] == "notifications/initialized",
            |m| m["method"] = json!("notifications/bogus"),
            "/method",
            "method",
        ),
        (
            "a priority above 1 (`maximum: 1`)",
            |m| m["result"]["content"][0]["type"] == "text",
            |m| m["result"]["content"][0]["annotations"] = json!({"priority": 2}),
            "/result/content/0/annotations/priority",
            "maximum",
        ),
        (
            "a resource link whose uri is not a URI (`format: uri`)",
            |m| m["result"]["content"][0]["type"] == "text",
            |m| {
                m["result"]["content"][0] =
                    json!({"type": "resource_link", "name": "n", "uri": "not a uri"})
            },
            "/result/content/0/uri",
            "format",
        ),
        (
            "a text content block whose text is a number",
            |m| m["result"]["content"][0]["type"] == "text",
            |m| m["result"]["content"][0]["text"] = json!(4),
            "/result/content/0/text",
            "result",
        ),
    ];
    for (what, find, plant, pointer, keyword) in plants {
        let mut messages = base.clone();
        let at = first(&messages, find);
        plant(&mut messages[at]);
        let verdicts = check(&messages, Checker::new(None).strict());
        let bad = invalid(&verdicts);
        assert_eq!(bad.len(), 1, "{what}: {bad:#?}");
        assert_eq!(bad[0].number, at + 1, "{what}");
        let violation = &bad[0].violations[0];
        assert_eq!(
            (violation.pointer.as_str(), violation.keyword.as_str()),
            (*pointer, *keyword),
            "{what}: {violation:?}"
        );
        // A constraint names the schema's limit and what the message has.
        let said = match *keyword {
            "maximum" => Some("1, found 2"),
            "format" => Some(r#""uri", found "not a uri""#),
            _ => None,
        };
        if let Some(said) = said {
            assert_eq!(violation.expected, said, "{what}");
            let line = mcp_wire_check::report::text("t", bad[0]);
            assert!(
                line.contains(&format!("{pointer}: {keyword}: {said}\n")),
                "{line}"
            );
        }
    }
}

#[test]
fn a_line_that_is_not_json_is_a_violation_and_the_rest_is_checked() {
    let text = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\nnot json\n";
    let mut checker = Checker::new(Some(Revision::V2025_11_25));
    let verdicts: Vec<Verdict> = traffic::read(text)
        .iter()
        .map(|e| checker.check(e))
        .collect();
    assert!(verdicts[0].is_valid(), "{:?}", verdicts[0]);
    assert_eq!(verdicts[1].violations[0].keyword, "json");
    assert_eq!(verdicts[1].line, 2);
}

#[test]
fn records_say_who_sent_each_message_and_which_revision() {
    let text = [
        json!({"from": "client", "message": {"jsonrpc": "2.0", "id": "a", "method": "ping"}}),
        json!({"from": "server", "message": {"jsonrpc": "2.0", "id": "a", "result": {}}}),
        json!({"from": "server", "headers": {"MCP-Protocol-Version": "2025-06-18"},
               "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}),
        json!({"from": "robot", "message": {}}),
    ]
    .iter()
    .map(|m| format!("{m}\n"))
    .collect::<String>();
    let mut checker = Checker::new(Some(Revision::V2025_11_25));
    let verdicts: Vec<Verdict> = traffic::read(&text)
        .iter()
        .map(|e| checker.check(e))
        .collect();
    assert_eq!(verdicts[0].from, Some(Side::Client));
    assert_eq!(
        (verdicts[1].from, verdicts[1].method.as_deref()),
        (Some(Side::Server), Some("ping"))
    );
    assert_eq!(verdicts[2].revision, Some(Revision::V2025_06_18));
    assert!(verdicts[..3].iter().all(Verdict::is_valid), "{verdicts:#?}");
    assert_eq!(verdicts[3].violations[0].keyword, "json");
}

/// A line is told a record or a message by its members, whatever their order and whatever a
/// nested object ends with: `jsonrpc` written last (as the TypeScript SDK writes it) makes a
/// message; a record whose last member ends as a message does is still a record.
#[test]
fn a_line_is_a_record_or_a_message_by_its_own_members() {
    let lines = [
        r#"{"result":{"message":"hi"},"jsonrpc":"2.0","id":7}"#,
        r#"{"method":"ping","params":{"message":"hi"},"jsonrpc":"2.0"}"#,
        r#"{"from":"server","message":{"result":{},"jsonrpc":"2.0","id":7}}"#,
        r#"{"message":{"jsonrpc":"2.0","method":"ping"},"from":"client","note":{"jsonrpc":"2.0","id":7}}"#,
        r#"{"from":"client","message":{"jsonrpc":"2.0","method":"ping"},"note":{"jsonrpc":"2.0"}}"#,
    ];
    let entries: Vec<traffic::Entry> = (lines.iter().enumerate())
        .map(|(at, line)| traffic::entry(at + 1, line))
        .collect();
    let messages: Vec<(Option<Side>, &str)> = (entries.iter())
        .map(|e| (e.from, e.message.as_deref().expect("a message")))
        .collect();
    assert_eq!(
        messages,
        [
            (None, lines[0]),
            (None, lines[1]),
            (
                Some(Side::Server),
                r#"{"result":{},"jsonrpc":"2.0","id":7}"#
            ),
            (Some(Side::Client), r#"{"jsonrpc":"2.0","method":"ping"}"#),
            (Some(Side::Client), r#"{"jsonrpc":"2.0","method":"ping"}"#),
        ]
    );
}

/// A record is read once, and what it says wrongly is said: a member twice, a `from` that
/// names no side; a conversation written as a number is the number's text.
#[test]
fn a_record_read_wrongly_says_why() {
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let lines = [
        format!(r#"{{"from":"client","from":"server","message":{ping}}}"#),
        format!(r#"{{"from":5,"message":{ping}}}"#),
        format!(r#"{{"conversation":7,"from":null,"message":{ping}}}"#),
        format!(r#"{{"conversation":"s\u002d1","from":"\u0063lient","message":{ping}}}"#),
        r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"ping","message":1}"#.to_owned(),
        format!(r#"{{"revision":"2025-06-18","message":{ping}}}"#),
        format!(r#"{{"revision":"1999-01-01","message":{ping}}}"#),
    ];
    let entries: Vec<traffic::Entry> = (lines.iter().enumerate())
        .map(|(at, line)| traffic::entry(at + 1, line))
        .collect();
    let why = entries[0].message.as_ref().expect_err("a member twice");
    assert!(
        why.contains("a record with a member twice: `from`"),
        "{why}"
    );
    let why = entries[1]
        .message
        .as_ref()
        .expect_err("a number for `from`");
    assert_eq!(why, r#"a record's `from` is "client" or "server", not 5"#);
    assert_eq!(
        (entries[2].conversation.as_deref(), entries[2].from),
        (Some("7"), None)
    );
    assert_eq!(entries[2].message.as_deref(), Ok(ping));
    assert_eq!(
        (entries[3].conversation.as_deref(), entries[3].from),
        (Some("s-1"), Some(Side::Client))
    );
    // A message with its `jsonrpc` twice is the checker's to judge.
    assert_eq!(entries[4].message.as_deref(), Ok(lines[4].as_str()));
    // A member written as `null` is absent (yet seen, when written twice).
    let nulls = [
        format!(r#"{{"conversation":null,"revision":null,"jsonrpc":null,"message":{ping}}}"#),
        format!(r#"{{"message":null,"text":{}}}"#, serde_json::json!(ping)),
        format!(r#"{{"from":null,"from":"client","message":{ping}}}"#),
    ];
    let read: Vec<traffic::Entry> = nulls.iter().map(|line| traffic::entry(1, line)).collect();
    assert_eq!(read[0].message.as_deref(), Ok(ping));
    assert_eq!((&read[0].conversation, read[0].revision), (&None, None));
    assert_eq!(read[1].message.as_deref(), Ok(ping));
    let why = read[2].message.as_ref().expect_err("`from` twice");
    assert_eq!(why, "a record with a member twice: `from`");
    // A recorded revision is the conversation's where the checker is told none.
    assert_eq!(entries[5].revision, Some(Revision::V2025_06_18));
    let verdict = Checker::new(None).check(&entries[5]);
    assert_eq!(verdict.revision, Some(Revision::V2025_06_18));
    assert!(verdict.is_valid(), "{verdict:?}");
    let told = Checker::new(Some(Revision::V2025_11_25)).check(&entries[5]);
    assert_eq!(told.revision, Some(Revision::V2025_11_25));
    let why = entries[6]
        .message
        .as_ref()
        .expect_err("an unknown revision");
    assert!(
        why.starts_with("a record's `revision` is one of 2024-11-05, "),
        "{why}"
    );
    assert!(why.ends_with(r#"not "1999-01-01""#), "{why}");
}

fn mcp_check(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-check"))
        .args(args)
        .output()
        .expect("mcp-check runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_exits_0_1_or_2_and_writes_a_json_line_per_message() {
    let python = recording(PYTHON);
    let (code, stdout, _) = mcp_check(&[python.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("110 messages: 110 valid"), "{stdout}");

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-check-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let mut messages = lines(PYTHON);
    let at = first(&messages, |m| m["method"] == "tools/call");
    messages[at]["params"]["name"] = json!(7);
    let planted = dir.join("planted.jsonl");
    let text: String = messages.iter().map(|m| format!("{m}\n")).collect();
    std::fs::write(&planted, text).unwrap();
    let (code, stdout, _) = mcp_check(&[planted.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(&format!("#{} client→server tools/call", at + 1)),
        "{stdout}"
    );
    assert!(stdout.contains("/params/name"), "{stdout}");

    let (code, stdout, stderr) = mcp_check(&["--format", "json", planted.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    let reports: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(reports.len(), 110);
    assert_eq!(reports[at]["valid"], false);
    assert_eq!(reports[at]["violations"][0]["pointer"], "/params/name");
    assert_eq!(reports[at]["method"], "tools/call");
    assert!(stderr.contains("1 with violations"), "{stderr}");

    // JUnit XML for CI systems: a suite per file, a case per message, the planted one failed
    // with the text report's line.
    let python = python.to_str().unwrap();
    let (code, stdout, stderr) =
        mcp_check(&["--format", "junit", python, planted.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    let xml = roxmltree::Document::parse(&stdout).expect("JUnit XML");
    let root = xml.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(
        (root.attribute("tests"), root.attribute("failures")),
        (Some("220"), Some("1"))
    );
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 2);
    assert_eq!(suites[0].attribute("name"), Some(python));
    assert_eq!(suites[1].attribute("failures"), Some("1"));
    let cases: Vec<_> = suites[1]
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 110);
    let failed = &cases[at];
    assert_eq!(
        failed.attribute("name"),
        Some(
            format!(
                "#{} line {} client→server tools/call (2025-11-25)",
                at + 1,
                at + 1
            )
            .as_str()
        ),
    );
    let failure = failed
        .children()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    assert!(
        failure.text().is_some_and(|t| t.contains("/params/name")),
        "{failure:?}"
    );
    assert!(cases.iter().filter(|c| c.has_children()).count() == 1);
    // A live session is reported as it goes: no JUnit there.
    let (code, _, stderr) = mcp_check(&["proxy", "--format", "junit", "--", "true"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--format junit is for recorded files"),
        "{stderr}"
    );

    let (code, _, stderr) = mcp_check(&["no/such/file.jsonl"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = mcp_check(&["--revision", "2099-01-01", python]);
    assert_eq!(code, 2);
    assert!(stderr.contains("known: 2024-11-05"), "{stderr}");
}

/// Checks `messages` (a conversation of one revision) and returns each verdict's violations as
/// `pointer keyword` strings.
fn violations_of(revision: Revision, messages: &[Value]) -> Vec<Vec<String>> {
    check(messages, Checker::new(Some(revision)))
        .iter()
        .map(|v| {
            v.violations
                .iter()
                .map(|v| format!("{} {}", v.pointer, v.keyword))
                .collect()
        })
        .collect()
}

#[test]
fn a_result_is_checked_as_the_result_of_its_request() {
    let call =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add"}});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let tools = json!({"tools": [{"name": "add", "inputSchema": {"type": "object"}}]});
    // A tools/list result is a valid member of the server's result union, but not an answer
    // to tools/call: `content` is missing there.
    let found = violations_of(
        Revision::V2025_11_25,
        &[
            call.clone(),
            json!({"jsonrpc": "2.0", "id": 1, "result": tools}),
            list,
            json!({"jsonrpc": "2.0", "id": 2, "result": tools}),
        ],
    );
    assert_eq!(found[1], ["/result result"], "{found:?}");
    assert!(found[3].is_empty(), "{found:?}");

    // Below the result: the constraint keywords of the method's result type, at their pointer.
    let found = violations_of(
        Revision::V2025_11_25,
        &[
            call.clone(),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [
                {"type": "text", "text": "4", "annotations": {"priority": 2}}]}}),
        ],
    );
    assert_eq!(
        found[1],
        ["/result/content/0/annotations/priority maximum"],
        "{found:?}"
    );

    // A task-augmented request of 2025-11-25 is answered with the task it started.
    let with_task = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "add", "task": {"ttl": 60000}}});
    let task = json!({"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:00:00Z",
        "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": 60000});
    let found = violations_of(
        Revision::V2025_11_25,
        &[
            with_task,
            json!({"jsonrpc": "2.0", "id": 3, "result": {"task": task}}),
        ],
    );
    assert!(found[1].is_empty(), "{found:?}");

    // 2026-07-28: tools/call may be answered with `input_required`; the envelope is still
    // checked around the specific result.
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let asks =
        json!({"resultType": "input_required", "inputRequests": {"a": {"method": "roots/list"}}});
    let found = violations_of(
        Revision::V2026_07_28,
        &[
            call.clone(),
            json!({"jsonrpc": "2.0", "id": 4, "result": asks}),
            call,
            json!({"jsonrpc": "1.0", "id": 4, "result": {"content": []}}),
        ],
    );
    assert!(found[0].is_empty() && found[1].is_empty(), "{found:?}");
    assert_eq!(found[3], ["/jsonrpc jsonrpc"], "{found:?}");
}

#[test]
fn an_error_answering_a_request_of_an_unknown_revision_is_checked_as_an_error() {
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01"}}});
    let verdicts = check(
        &[
            discover,
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "unsupported"}}),
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": "x", "message": "bad"}}),
        ],
        Checker::new(None),
    );
    // The request cannot be checked (no revision); the answers are checked as errors.
    assert_eq!(verdicts[0].violations[0].keyword, "revision");
    assert!(
        (verdicts[0].violations[0].expected).contains("its `_meta` names `1999-01-01`"),
        "{:?}",
        verdicts[0]
    );
    assert!(verdicts[1].is_valid(), "{:?}", verdicts[1]);
    assert_eq!(verdicts[1].revision, None);
    assert_eq!(verdicts[2].violations.len(), 1, "{:?}", verdicts[2]);
}

/// The checker's quick readings (a request decoded at once, a result decoded at once as its
/// request's) come to the verdicts of the reading by the framing on the recorded traffic as
/// peers wrote it.
#[test]
fn the_quick_readings_agree_with_the_framing_on_the_recorded_traffic() {
    let conversations = [
        (PYTHON, Checker::new(None)),
        (TS_CLIENT, Checker::new(None).sent_by(Side::Client)),
        (
            TS_SERVER,
            Checker::new(Some(Revision::V2025_11_25)).sent_by(Side::Server),
        ),
    ];
    for (name, checker) in conversations {
        let text = std::fs::read_to_string(recording(name)).expect("recorded traffic");
        let entries = traffic::read(&text);
        let (mut quick, mut framed) = (checker.clone(), checker.framed_only());
        for entry in &entries {
            assert_eq!(
                quick.check(entry),
                framed.check(entry),
                "{name}:{}",
                entry.line
            );
        }
        assert!(entries.len() > 80, "{name}: {} messages", entries.len());
    }
}

/// In a conversation in 2026-07-28, a request is decoded at once as 2026-07-28's and the version
/// its `_meta` names read from what was decoded; one naming another known revision is checked
/// as that one's (and the conversation follows it), one naming an unknown version as the last
/// stated, one whose `_meta` names none is refused (2026-07-28 requires it): each as the reading
/// by the framing decides.
#[test]
fn a_2026_request_is_checked_in_the_revision_its_meta_names() {
    let request = |id: u32, version: Option<&str>| {
        let mut meta = json!({"io.modelcontextprotocol/clientCapabilities": {}});
        if let Some(version) = version {
            meta["io.modelcontextprotocol/protocolVersion"] = json!(version);
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": meta}})
    };
    let messages = [
        request(1, Some("2026-07-28")),
        // A known revision: 2025-11-25's `tools/list` takes a `_meta` of any members.
        request(2, Some("2025-11-25")),
        request(3, Some("2026-07-28")),
        request(4, Some("2026-07-28")),
        // An unknown version is no revision: the last one stated stands.
        request(5, Some("1999-01-01")),
        request(6, None),
    ];
    let checker = Checker::new(Some(Revision::V2026_07_28)).sent_by(Side::Client);
    let quick = check(&messages, checker.clone());
    let framed = check(&messages, checker.framed_only());
    assert_eq!(quick, framed);
    let revisions: Vec<Option<Revision>> = quick.iter().map(|v| v.revision).collect();
    use Revision::{V2025_11_25 as R2025, V2026_07_28 as R2026};
    let expected = [R2026, R2025, R2026, R2026, R2026, R2026].map(Some);
    assert_eq!(revisions, expected);
    let valid: Vec<bool> = quick.iter().map(Verdict::is_valid).collect();
    assert_eq!(valid, [true, true, true, true, true, false]);
    let missing = &quick[5].violations[0];
    assert_eq!(missing.pointer, "/params/_meta");
    assert!(
        (missing.expected).contains("missing field `io.modelcontextprotocol/protocolVersion`"),
        "{missing:?}"
    );
}

#[test]
fn a_method_the_revision_does_not_define_is_checked_as_an_envelope() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-check-unknown");
    std::fs::create_dir_all(&dir).unwrap();
    // The spec's own example (basic/utilities/progress), a vendor's notification, and an
    // extension's request whose envelope is broken (`id` a boolean).
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "some_method",
               "params": {"_meta": {"progressToken": "abc123"}}}),
        json!({"jsonrpc": "2.0", "method": "vendor/heartbeat"}),
        json!({"jsonrpc": "2.0", "id": true, "method": "ui/initialize", "params": {}}),
    ];
    let verdicts = check(&messages, Checker::new(Some(Revision::V2025_11_25)));
    assert!(verdicts.iter().all(|v| v.unknown_method), "{verdicts:#?}");
    assert!(
        verdicts[0].is_valid() && verdicts[1].is_valid(),
        "{verdicts:#?}"
    );
    assert_eq!(verdicts[0].method.as_deref(), Some("some_method"));
    assert_eq!(verdicts[2].violations.len(), 1, "{verdicts:#?}");
    assert_eq!(verdicts[2].violations[0].pointer, "/id");

    // A method of the revision sent where it is not a message (2026-07-28 has no server
    // requests) is still refused, not taken for an extension's.
    let sampling = json!({"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
                   "messages": [], "maxTokens": 1}});
    let verdicts = check(&[sampling], Checker::new(None).sent_by(Side::Server));
    assert!(!verdicts[0].unknown_method, "{verdicts:#?}");
    assert!(!verdicts[0].is_valid(), "{verdicts:#?}");

    let file = dir.join("unknown.jsonl");
    let text: String = messages[..2].iter().map(|m| format!("{m}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let (code, stdout, _) = mcp_check(&["--revision", "2025-11-25", file]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains(
            "unknown.jsonl:1 #1 ? some_method (2025-11-25) note: unknown method, \
             checked as a JSON-RPC envelope only (--strict counts it)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "2 messages: 2 valid, 0 with violations (0 violations); 2 of a method the revision \
             does not define"
        ),
        "{stdout}"
    );
    let (code, stdout, _) = mcp_check(&["--revision", "2025-11-25", "--format", "json", file]);
    assert_eq!(code, 0, "{stdout}");
    let first: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["unknown_method"], true, "{first}");
    assert_eq!(first["valid"], true, "{first}");

    let (code, stdout, _) = mcp_check(&["--revision", "2025-11-25", "--strict", file]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("/method: method: a method 2025-11-25 defines (--strict)"),
        "{stdout}"
    );
}

#[test]
fn a_result_answering_no_request_is_reported_where_every_request_is_seen() {
    let base = lines(PYTHON);
    let at = first(&base, |m| m["result"]["tools"].is_array());
    // A copy of a result, answering an id nobody sent, right after the original.
    let mut planted = base.clone();
    let mut stray = planted[at].clone();
    stray["id"] = json!(999);
    planted.insert(at + 1, stray);
    let verdicts = check(&planted, Checker::new(None));
    let bad = invalid(&verdicts);
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert_eq!(bad[0].number, at + 2);
    let violation = &bad[0].violations[0];
    assert_eq!(
        (violation.pointer.as_str(), violation.keyword.as_str()),
        ("/id", "id")
    );
    assert!(
        violation
            .expected
            .contains("no request with id 999 is open"),
        "{violation:?}"
    );
    // The same result twice: the second answers a request already answered.
    let mut twice = base.clone();
    twice.insert(at + 1, base[at].clone());
    assert_eq!(invalid(&check(&twice, Checker::new(None))).len(), 1);
    // Where the conversation may not all be there, it is not: a recording of one side
    // (`--from`), or traffic joined after its `initialize`.
    let servers: Vec<Value> = (planted.iter())
        .filter(|m| m.get("result").is_some() || m.get("error").is_some())
        .cloned()
        .collect();
    let one_side = check(&servers, Checker::new(None).sent_by(Side::Server));
    assert!(
        one_side
            .iter()
            .all(|v| v.violations.iter().all(|v| v.keyword != "id")),
        "{:#?}",
        invalid(&one_side)
    );
    let midway = check(&planted[at..], Checker::new(Some(Revision::V2025_11_25)));
    assert!(
        midway
            .iter()
            .all(|v| v.violations.iter().all(|v| v.keyword != "id")),
        "{:#?}",
        invalid(&midway)
    );
}
