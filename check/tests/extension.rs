//! `mcp-check --extension SCHEMA`: an extension's methods (MCP Apps' `ui/*`, from the schema
//! its package publishes, pinned in `schema/third-party.toml`) checked against that schema,
//! where without it they are unknown methods checked as envelopes only.

use std::process::Command;

use mcp_wire_check::extension::Extensions;
use serde_json::{json, Value};

const MCP_CHECK: &str = env!("CARGO_BIN_EXE_mcp-check");

/// `mcp-check --format json ARGS… FILE` on `messages`, a line each: the verdicts.
fn verdicts(args: &[&str], messages: &[Value]) -> Vec<Value> {
    let file =
        std::env::temp_dir().join(format!("mcp-check-extension-{}.jsonl", std::process::id()));
    let text: String = messages.iter().map(|m| format!("{m}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let out = Command::new(MCP_CHECK)
        .args(["--format", "json", "--revision", "2026-07-28"])
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).unwrap().lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The (pointer, keyword) of each violation of a verdict.
fn broken(verdict: &Value) -> Vec<(String, String)> {
    (verdict["violations"].as_array().unwrap().iter())
        .map(|v| {
            let at = |key: &str| v[key].as_str().unwrap().to_owned();
            (at("pointer"), at("keyword"))
        })
        .collect()
}

#[test]
fn an_extensions_methods_are_checked_against_its_schema() {
    let schema = mcp_typed_tests::third_party_schema("ext-apps");
    let schema_arg = schema.to_str().unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "ui/open-link", "params": {"url": "https://example.com"}}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"isError": false}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ui/open-link", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "ui/open-link", "params": {"url": 5}}),
        json!({"jsonrpc": "2.0", "id": 3, "result": {"isError": "no"}}),
        json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "vendor/unknown", "params": {}}),
        // The envelope is still the revision's to check.
        json!({"jsonrpc": "1.0", "id": 5, "method": "ui/open-link", "params": {"url": "u"}}),
    ];
    let with = verdicts(&["--extension", schema_arg], &messages);
    assert_eq!(with.len(), messages.len());
    let unknown: Vec<bool> = with.iter().map(|v| v["unknown_method"] == true).collect();
    assert_eq!(
        unknown,
        [false, false, false, false, false, false, true, false]
    );
    assert_eq!(broken(&with[0]), []);
    assert_eq!(broken(&with[1]), []);
    assert_eq!(
        broken(&with[2]),
        [("/params".to_owned(), "required".to_owned())]
    );
    assert_eq!(
        broken(&with[3]),
        [("/params/url".to_owned(), "type".to_owned())]
    );
    assert_eq!(
        broken(&with[4]),
        [("/result/isError".to_owned(), "type".to_owned())]
    );
    assert_eq!(broken(&with[5]), []);
    assert_eq!(broken(&with[6]), []);
    assert_eq!(broken(&with[7]), [(String::new(), "jsonrpc".to_owned())]);
    // The value found is in the report.
    let expected = with[3]["violations"][0]["expected"].as_str().unwrap();
    assert!(expected.contains('5'), "{expected}");

    // Without the schema: unknown methods, their envelopes only.
    let without = verdicts(&[], &messages);
    let unknown: Vec<bool> = without
        .iter()
        .map(|v| v["unknown_method"] == true)
        .collect();
    assert_eq!(unknown, [true, false, true, true, false, true, true, true]);
    assert_eq!(broken(&without[3]), []);
}

#[test]
fn an_extension_schema_without_messages_or_defining_a_method_twice_is_refused() {
    let schema: Value = serde_json::from_slice(
        &std::fs::read(mcp_typed_tests::third_party_schema("ext-apps")).unwrap(),
    )
    .unwrap();
    let mut extensions = Extensions::default();
    let methods = extensions.add(&schema, "ext-apps.json").unwrap();
    assert!(methods >= 17, "{methods}");
    assert!(extensions.defines("ui/open-link"));
    let again = extensions.add(&schema, "again.json").unwrap_err();
    assert!(
        again.starts_with("again.json#/$defs/")
            && again.contains("is defined already, at ext-apps.json#/$defs/"),
        "{again}"
    );
    let none = Extensions::default()
        .add(&json!({"$defs": {"A": {"type": "string"}}}), "plain.json")
        .unwrap_err();
    assert_eq!(
        none,
        "plain.json: no definition with a constant `method` (an extension's messages)"
    );
    let no_defs = Extensions::default()
        .add(&json!({}), "empty.json")
        .unwrap_err();
    assert_eq!(no_defs, "empty.json: no `$defs` or `definitions`");
}

/// An extension schema that defines a method of the revision too (an SDK's export of the whole
/// protocol given as an extension) does not change how that method is checked: the revision's
/// own types check its request and its result.
#[test]
fn a_method_the_revision_defines_is_checked_as_the_revisions() {
    use mcp_wire_check::{traffic, Checker, Revision};
    let mut extensions = Extensions::default();
    let schema = json!({"$defs": {
        "PingRequest": {"properties": {"method": {"const": "ping"}}, "required": ["never"]},
        "PingResult": {"required": ["never"]},
    }});
    extensions.add(&schema, "ping.json").unwrap();
    let checker =
        Checker::new(Some(Revision::V2025_11_25)).with_extensions(std::sync::Arc::new(extensions));
    let text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
    let verdicts = checker.check_recording(&traffic::read(text));
    assert_eq!(verdicts.len(), 2);
    assert!(
        verdicts.iter().all(|v| v.is_valid() && !v.unknown_method),
        "{verdicts:#?}"
    );
}
