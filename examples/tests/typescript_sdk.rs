//! The example server against the official TypeScript SDK 1.32.2 client (2025-11-25, pinned by
//! `tests/interop/package-lock.json`, installed on first use): the `mcp_mrtr::serve`
//! handlers that the Python SDK's 2026-07-28 client drives through `InputRequiredResult` ask
//! this client through live requests, and every tool completes.

mod support;

use std::process::Command;
use std::time::Duration;

use mcp_typed_tests::installed::{interop_dir, node, npm_package};
use serde_json::Value;
use support::run;

const SERVER: &str = env!("CARGO_BIN_EXE_server");

#[test]
fn typescript_sdk_client_against_our_server() {
    npm_package("@modelcontextprotocol/sdk");
    let out = run(
        Command::new(node())
            .current_dir(interop_dir())
            .arg("sdk_example_client.mjs")
            .arg(SERVER),
        Duration::from_secs(60),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "sdk_example_client.mjs failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let report: Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("the JSON report");
    assert_eq!(report["serverInfo"]["name"], "mcp-typed-example-server");
    let tools = &report["tools"];
    assert_eq!(tools["add"], "add: 2 + 3 = 5");
    // Its form answers, a fractional height among them, read back by the handler.
    assert_eq!(
        tools["signup"],
        "signup: name=TypeScript, email=ts@example.com, age=13, donation=2.5, height=1.75, \
         newsletter=false, plan=Free, topics=[Rust], nickname=TypeScript"
    );
    assert_eq!(tools["summarize"], "summarize: a TypeScript summary");
    assert_eq!(tools["list_roots"], "list_roots: file:///ts/root");
    assert_eq!(tools["connect_account"], "connect_account: accepted");
    assert_eq!(
        report["asked"],
        serde_json::json!([
            "elicitation/create:form",
            "sampling/createMessage",
            "roots/list",
            "elicitation/create:url"
        ])
    );
}
