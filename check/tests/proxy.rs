//! `mcp-check proxy` between a real client and server (the pinned Python SDK 2.3.0's, both
//! eras), and byte for byte between any two programs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use mcp_typed_tests::installed::{python, python_client_report, python_dir};
use serde_json::Value;

const MCP_CHECK: &str = env!("CARGO_BIN_EXE_mcp-check");

fn report_path(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-check-proxy");
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir.join(name)
}

#[test]
fn the_python_sdk_talks_through_the_proxy_in_both_eras() {
    for era in ["2025-11-25", "2026-07-28"] {
        let report = report_path(&format!("python-{era}.jsonl"));
        let out = Command::new(python())
            .arg(python_dir().join("client.py"))
            .args([
                "--protocol",
                era,
                "--",
                MCP_CHECK,
                "proxy",
                "--format",
                "json",
            ])
            .arg("--report")
            .arg(&report)
            .arg("--")
            .arg(python())
            .arg(python_dir().join("server.py"))
            .output()
            .expect("the Python client runs");
        python_client_report(era, &out);

        let verdicts: Vec<Value> = std::fs::read_to_string(&report)
            .expect("the proxy's report")
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        assert!(verdicts.len() >= 30, "{era}: {} messages", verdicts.len());
        let invalid: Vec<&Value> = verdicts.iter().filter(|v| v["valid"] != true).collect();
        assert!(invalid.is_empty(), "{era}: {invalid:#?}");
        assert!(verdicts.iter().all(|v| v["revision"] == era), "{era}");
        for (side, method) in [("client", "tools/call"), ("server", "tools/call")] {
            assert!(
                verdicts
                    .iter()
                    .any(|v| v["from"] == side && v["method"] == method),
                "{era}: no {side} {method}"
            );
        }
    }
}

#[test]
fn every_byte_is_forwarded_unchanged_whatever_it_is() {
    // Not JSON, not UTF-8, a blank line, a message, and a last line without its newline.
    let input: &[u8] = b"not json\n\xff\xfe binary\n\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\nno newline";
    let report = report_path("cat.txt");
    let mut child = Command::new(MCP_CHECK)
        .args(["proxy", "--revision", "2025-11-25", "--report"])
        .arg(&report)
        .args(["--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mcp-check runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", out.status);
    assert_eq!(out.stdout, input);
    // Each line but the blank one was checked twice, once each way: `cat` sends back what it
    // is sent.
    let report = std::fs::read_to_string(&report).unwrap();
    assert!(
        report.contains("8 messages: 2 valid, 6 with violations"),
        "{report}"
    );

    // The server's status is the proxy's.
    let status = Command::new(MCP_CHECK)
        .args(["proxy", "--", "sh", "-c", "exit 3"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(3));
    let status = Command::new(MCP_CHECK)
        .args(["proxy", "--", "/no/such/server"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}
