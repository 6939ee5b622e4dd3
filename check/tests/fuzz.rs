//! `mcp-check fuzz` as a user runs it: against the pinned Python SDK's server (nothing found in
//! 2025-11-25), and against servers with a fault planted (a result that breaks the schema, a
//! crash on a legal argument), each found and replayed by the command it prints.

use std::path::PathBuf;
use std::process::{Command, Output};

use mcp_typed_tests::installed::{python, python_dir};

const MCP_CHECK: &str = env!("CARGO_BIN_EXE_mcp-check");

fn planted() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/planted_server.py")
}

fn fuzz(flags: &[&str], server: &[&str]) -> (Output, String) {
    let out = Command::new(MCP_CHECK)
        .arg("fuzz")
        .args(flags)
        .arg("--")
        .args(server)
        .output()
        .expect("mcp-check runs");
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
        stdout.contains("10 tools, 60 calls answered, 0 findings"),
        "{stdout}"
    );
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
}

#[test]
fn a_planted_invalid_result_is_found_and_replayed() {
    found_and_replayed("invalid", "schema violation: /result/content/0");
}

#[test]
fn a_planted_crash_is_found_and_replayed() {
    found_and_replayed("crash", "crash: the server ended (exit status: 3)");
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
        assert!(replay.contains(&format!("--seed {seed} --requests 1 --tool count -- ")));
    }
}
