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
