//! `mcp-check proxy` between a real client and server (the pinned Python SDK 2.3.0's, both
//! eras), and byte for byte between any two programs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use mcp_typed_tests::installed::{python, python_client_report, python_dir};
use mcp_typed_tests::memory_kb;
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
            .arg("--record")
            .arg(report_path(&format!("python-{era}-record.jsonl")))
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

    // Both recordings in one file: `mcp-check` reads two conversations (`stdio PID`), each
    // message valid, as many as the proxies checked.
    let both: String = ["2025-11-25", "2026-07-28"]
        .iter()
        .map(|era| {
            std::fs::read_to_string(report_path(&format!("python-{era}-record.jsonl")))
                .expect("a recording")
        })
        .collect();
    let checked: usize = ["2025-11-25", "2026-07-28"]
        .iter()
        .map(|era| {
            let report = std::fs::read_to_string(report_path(&format!("python-{era}.jsonl")));
            report.expect("a report").lines().count()
        })
        .sum();
    let recording = report_path("python-both-record.jsonl");
    std::fs::write(&recording, both).expect("write");
    let out = Command::new(MCP_CHECK)
        .arg(&recording)
        .output()
        .expect("mcp-check runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("{checked} messages: {checked} valid")),
        "{checked}: {stdout}"
    );
    let conversations: std::collections::BTreeSet<&str> = stdout
        .lines()
        .filter_map(|line| line.split_once("[stdio ").map(|(_, rest)| rest))
        .collect();
    assert!(
        conversations.is_empty(),
        "no line names a problem: {stdout}"
    );
    let text = std::fs::read_to_string(&recording).expect("the recording");
    let entries = mcp_wire_check::traffic::read(&text);
    let named: std::collections::BTreeSet<_> = entries
        .iter()
        .filter_map(|e| e.conversation.clone())
        .collect();
    assert_eq!(named.len(), 2, "{named:?}");
    assert!(named.iter().all(|c| c.starts_with("stdio ")), "{named:?}");
}

/// `mcp-check proxy ARGS… -- cat` fed `input` on its standard input: its output (what `cat`
/// sent back through it), once it has ended.
fn through_cat(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(MCP_CHECK)
        .arg("proxy")
        .args(args)
        .args(["--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mcp-check runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn every_byte_is_forwarded_unchanged_whatever_it_is() {
    // Not JSON, not UTF-8, a blank line, a message, and a last line without its newline.
    let input: &[u8] = b"not json\n\xff\xfe binary\n\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\nno newline";
    let report = report_path("cat.txt");
    let report_arg = report.to_str().unwrap();
    let out = through_cat(&["--revision", "2025-11-25", "--report", report_arg], input);
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

/// `--no-check` forwards and records as the checking proxy does, and reports nothing but the
/// count: the recording then checks to the same verdicts as the live proxy's.
#[test]
fn without_checking_the_proxy_forwards_records_and_counts() {
    let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n";
    let (report, record) = (report_path("no-check.txt"), report_path("no-check.jsonl"));
    let (report_arg, record_arg) = (report.to_str().unwrap(), record.to_str().unwrap());
    let args = [
        "--no-check",
        "--revision",
        "2025-11-25",
        "--report",
        report_arg,
    ];
    let out = through_cat(&[&args[..], &["--record", record_arg]].concat(), input);
    assert!(out.status.success(), "{}", out.status);
    assert_eq!(out.stdout, input);
    let report = std::fs::read_to_string(&report).unwrap();
    // Two lines, each sent back by `cat`: four messages, none checked, so no violation line
    // for the second line's missing `id`.
    assert_eq!(report, "4 messages: forwarded, not checked\n");
    let records = std::fs::read_to_string(&record).unwrap();
    assert_eq!(records.lines().count(), 4, "{records}");
    // The records carry the proxy's `--revision`: the recording checks without it.
    assert!(
        (records.lines()).all(|line| line.contains(r#""revision":"2025-11-25","message":"#)),
        "{records}"
    );
    let checked = Command::new(MCP_CHECK).arg(&record).output().unwrap();
    let text = String::from_utf8_lossy(&checked.stdout);
    assert!(
        text.contains("4 messages: 2 valid, 2 with violations"),
        "{text}"
    );
}

/// `--extension` in the proxy as in the files' mode: an extension's method is checked against
/// its schema (here MCP Apps', pinned), not reported as an unknown method.
#[test]
fn the_proxy_checks_an_extensions_methods_against_its_schema() {
    let schema = mcp_typed_tests::third_party_schema("ext-apps");
    let input: &[u8] =
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ui/open-link\",\"params\":{}}\n";
    let report = report_path("extension.txt");
    let args = [
        "--revision",
        "2026-07-28",
        "--extension",
        schema.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    let out = through_cat(&args, input);
    assert!(out.status.success(), "{}", out.status);
    assert_eq!(out.stdout, input);
    let report = std::fs::read_to_string(&report).unwrap();
    // The request, and `cat`'s copy of it: each breaks the schema's `required` at `/params`.
    assert_eq!(
        report
            .matches("ui/open-link (2026-07-28) /params: required")
            .count(),
        2,
        "{report}"
    );
    assert!(!report.contains("unknown method"), "{report}");
    let schema = std::env::temp_dir().join("not-an-extension.json");
    std::fs::write(&schema, "{}").unwrap();
    // Refused before the server starts (and before reading the client's input).
    let refused = Command::new(MCP_CHECK)
        .args([
            "proxy",
            "--extension",
            schema.to_str().unwrap(),
            "--",
            "cat",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("no `$defs` or `definitions`"), "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_line_of_256_mib_reaches_the_server_before_its_newline_and_is_not_held() {
    use std::io::{BufRead, BufReader};
    const LINE: usize = 256 << 20;
    // The server answers once it has read 1 MiB (of a line without its newline yet), then reads
    // the rest.
    let server = r#"head -c 1048576 >/dev/null; echo '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'; cat >/dev/null"#;
    let report = report_path("long-line.txt");
    let mut child = Command::new(MCP_CHECK)
        .args(["proxy", "--revision", "2025-11-25", "--report"])
        .arg(&report)
        .args(["--", "sh", "-c", server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mcp-check runs");
    let pid = child.id();
    let mut to_proxy = child.stdin.take().expect("piped");
    let (written, all_written) = std::sync::mpsc::channel();
    let (newline, send_newline) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..LINE / chunk.len() {
            to_proxy
                .write_all(&chunk)
                .expect("a chunk reaches the proxy");
        }
        written.send(()).expect("the test waits");
        send_newline.recv().expect("told to end the line");
        to_proxy.write_all(b"\n").expect("the newline");
    });
    let mut from_proxy = BufReader::new(child.stdout.take().expect("piped"));
    let mut answer = String::new();
    from_proxy
        .read_line(&mut answer)
        .expect("the server's answer");
    // The newline is not sent yet: the server answered from the bytes passed on as they came.
    assert!(
        answer.contains("notifications/tools/list_changed"),
        "{answer:?}"
    );
    all_written
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("all 256 MiB went through");
    let peak = memory_kb(pid, "VmHWM");
    assert!(
        peak < 100 << 10,
        "the proxy held {peak} kB at its peak for a 256 MiB line"
    );
    newline.send(()).expect("the writer waits");
    writer.join().expect("the writer");
    let out = child.wait_with_output().expect("the proxy ends");
    assert!(out.status.success(), "{}", out.status);
    let report = std::fs::read_to_string(&report).expect("the report");
    assert!(
        report.contains(&format!(
            "stdio:2 note: a message of {} bytes was forwarded but not checked: it is larger \
             than --max-message-bytes (16777216)",
            LINE + 1
        )),
        "{report}"
    );
    // The server's message before it was checked, and only it.
    assert!(report.contains("1 messages: 1 valid"), "{report}");
}
