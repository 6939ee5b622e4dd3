//! The two example programs together, in both eras: the client completes every tool of the
//! server (the command the README gives, without `cargo run`).

mod support;

use std::process::Command;
use std::time::Duration;

use support::run;

const SERVER: &str = env!("CARGO_BIN_EXE_server");
const CLIENT: &str = env!("CARGO_BIN_EXE_client");

fn client_against_server(protocol: &str) {
    let out = run(
        Command::new(CLIENT).args(["--protocol", protocol, SERVER]),
        Duration::from_secs(60),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{protocol}: {}\n{stdout}\n{stderr}",
        out.status
    );
    for line in [
        "add: add: 2 + 3 = 5",
        "signup: signup: name=",
        "summarize: summarize: sampled reply",
        "list_roots: list_roots: file:///",
        "connect_account: connect_account: accepted",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "{protocol}: no `{line}` in:\n{stdout}"
        );
    }
    // A fractional number went into the form and came back out of it.
    assert!(stdout.contains("height=1.5"), "{stdout}");
    assert!(stderr.contains("all completed: 5 tools"), "{stderr}");
}

#[test]
fn our_client_completes_every_tool_of_our_server_2026_07_28() {
    client_against_server("2026-07-28");
}

#[test]
fn our_client_completes_every_tool_of_our_server_2025_11_25() {
    client_against_server("2025-11-25");
}

/// The client's `--log`, both eras appended to one file: `mcp-check` reads it as two
/// conversations, every message valid and its sender recorded.
#[test]
fn the_client_log_is_a_recording_mcp_check_reads_per_conversation() {
    use mcp_wire_check::{traffic, Checker};
    let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("client-log.jsonl");
    let _ = std::fs::remove_file(&log);
    for protocol in ["2026-07-28", "2025-11-25"] {
        let out = run(
            Command::new(CLIENT)
                .args(["--protocol", protocol, "--log"])
                .arg(&log)
                .arg(SERVER),
            Duration::from_secs(60),
        );
        assert!(out.status.success(), "{protocol}: {}", out.status);
    }
    let text = std::fs::read_to_string(&log).expect("the log");
    let entries = traffic::read(&text);
    let verdicts = Checker::new(None).check_recording(&entries);
    let conversations: std::collections::BTreeSet<_> =
        entries.iter().map(|e| e.conversation.clone()).collect();
    assert_eq!(conversations.len(), 2, "{conversations:?}");
    assert!(
        conversations.iter().all(Option::is_some),
        "{conversations:?}"
    );
    assert!(entries.iter().all(|e| e.from.is_some()));
    let invalid: Vec<_> = verdicts.iter().filter(|v| !v.is_valid()).collect();
    assert!(invalid.is_empty(), "{invalid:#?}");
    // Both eras, each checked in its own revision from its own initialize (or `_meta`).
    for revision in ["2025-11-25", "2026-07-28"] {
        assert!(
            verdicts
                .iter()
                .any(|v| v.revision.map(|r| r.version()) == Some(revision)),
            "no message of {revision}"
        );
    }
    assert!(verdicts.len() >= 20, "{} messages", verdicts.len());
}
