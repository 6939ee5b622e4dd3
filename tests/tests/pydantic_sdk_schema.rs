//! The schema pydantic makes of the official Python SDK 2.3.0's protocol types (pinned by
//! `tests/interop/python/requirements.txt`, installed on first use by `installed::python`),
//! exported at test time by `tests/interop/python/export_types_schema.py` two ways (with
//! `RequestId` among the exported roots, and the unions alone, which write that alias inline):
//! the generator makes the whole protocol of each (the message layer included, every request
//! paired with its result) and the code compiles, beside the zod-, schemars- and typescript-json-schema-made schemas of
//! `codegen/tests/tool_schemas.rs`; then it decodes every request and notification the SDK
//! exchanged with our peers (`fuzz/seeds/traffic/python-sdk-2.3.0.jsonl`, both eras).
//!
//! The code is built and run in a scratch crate depending on `mcp-typed` by path, whose build
//! directory persists under `CARGO_TARGET_TMPDIR` (`target/tmp/mcp-pydantic-sdk`): about a
//! minute the first time, seconds after.

use std::path::Path;
use std::process::Command;

use mcp_typed_tests::installed;

/// The export, as the script writes it with `args` (a JSON document with the SDK's types under
/// `$defs`).
fn export(args: &[&str]) -> String {
    let script = installed::python_dir().join("export_types_schema.py");
    let out = Command::new(installed::python())
        .arg(&script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "{} failed ({}):\n{}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 JSON")
}

/// The module generated from the export made with `args`, written to `schema` first, with the
/// message layer checked as the official schema's.
fn generate(args: &[&str], schema: &Path) -> String {
    write_if_changed(schema, &export(args));

    // pydantic writes each message's `method` as an optional constant with that default
    // (`{"const": "ping", "default": "ping", "type": "string"}`, not in `required`).
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema).expect("read")).expect("JSON");
    let ping = &exported["$defs"]["PingRequest"];
    assert_eq!(ping["properties"]["method"]["default"], "ping", "{ping}");
    assert!(
        !ping["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|m| m == "method")),
        "{ping}"
    );

    let code = mcp_codegen::Config::new()
        .schema_path(schema)
        .revision_name("python-sdk-2.3.0")
        .module_doc(true)
        .generate_string()
        .unwrap_or_else(|e| panic!("the pydantic export {args:?} does not generate: {e}"));
    // The message layer, as from the official schema: both directions, and every request
    // paired with its result (its `METHOD` constant from the defaulted `method`).
    for text in [
        "pub enum ClientMessage {",
        "pub enum ServerMessage {",
        "pub enum ClientRequest {",
        "pub enum ServerNotification {",
        "impl __rt::jsonrpc::Request for PingRequest {",
        "const METHOD: &'static str = \"ping\";",
        "impl __rt::jsonrpc::Request for CallToolRequest {",
        "type Result = CallToolResult;",
        "impl __rt::jsonrpc::Request for ElicitRequest {",
        "type Result = ElicitResult;",
        "pub enum RequestId {",
    ] {
        assert!(code.contains(text), "no `{text}` in the code of {args:?}");
    }
    // A constant, not a field: no `method: Option<…>` member on the request structs.
    let ping = &code[code.find("pub struct PingRequest {").expect("PingRequest")..];
    let ping = &ping[..ping.find("\n}\n").expect("its end")];
    assert!(!ping.contains("pub method"), "{ping}");
    code
}

#[test]
fn the_python_sdk_pydantic_schema_generates_the_protocol_and_compiles() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-pydantic-sdk");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    // Exported two ways: with `RequestId` among the roots (a definition of its own), and the
    // unions alone, where pydantic writes that alias inline and the generator names it.
    let code = generate(&[], &dir.join("python-sdk-2.3.0.json"));
    let unions = dir.join("python-sdk-2.3.0-unions.json");
    let unions_code = generate(&["--unions-only"], &unions);
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&unions).expect("read")).expect("JSON");
    assert!(
        exported["$defs"].get("RequestId").is_none(),
        "the unions' export names no RequestId"
    );
    assert!(
        unions_code.contains("the schema writes it inline; the generator names it"),
        "the supplied RequestId says where it comes from"
    );

    write_if_changed(&src.join("python_sdk_unions.rs"), &unions_code);
    write_if_changed(&src.join("python_sdk.rs"), &code);
    write_if_changed(
        &src.join("lib.rs"),
        "//! The Python SDK 2.3.0's types as pydantic exports them, generated by mcp-codegen.\n\
         #![deny(warnings)]\n\n\
         #[rustfmt::skip]\npub mod python_sdk;\n\
         #[rustfmt::skip]\npub mod python_sdk_unions;\n",
    );
    write_if_changed(&src.join("main.rs"), DECODE_TRAFFIC);
    let generated = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generated")
        .canonicalize()
        .expect("generated/ exists");
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "# Written by tests/tests/pydantic_sdk_schema.rs.\n\
             [package]\nname = \"mcp-pydantic-sdk\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n\
             [dependencies]\n\
             mcp-typed = {{ path = '{}', default-features = false }}\n\
             serde_json = \"1\"\n\n\
             # Not a member of the repository's workspace.\n[workspace]\n",
            generated.display()
        ),
    );
    let lock = mcp_typed_tests::repo_root().join("Cargo.lock");
    if let Ok(lock) = std::fs::read_to_string(lock) {
        write_if_changed(&dir.join("Cargo.lock"), &lock);
    }
    // The messages the SDK sent and received in our interop tests (both eras), decoded by the
    // generated types: the defaulted `method` constants dispatch real traffic.
    let traffic = mcp_typed_tests::repo_root().join("fuzz/seeds/traffic/python-sdk-2.3.0.jsonl");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["run", "--quiet", "--target-dir"])
        .arg(dir.join("target"))
        .arg("--")
        .arg(&traffic)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the code generated from the pydantic export does not compile or decode (crate {}):\n\
         {}{}",
        dir.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let decoded: usize = (stdout.strip_prefix("decoded "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected output: {stdout}"));
    assert!(decoded >= 20, "too few messages in the traffic: {stdout}");
}

/// The scratch crate's program: every request and notification of a JSON Lines file decodes as
/// the generated `ClientMessage` or `ServerMessage` of both exports, and a request without its
/// `method` is refused (the constant is required on decode, defaulted or not).
const DECODE_TRAFFIC: &str = r##"//! Decodes the messages with a `method` of a JSON Lines file (argument 1).

/// The requests and notifications of `text` that `$module` decodes (all of them, or a panic).
macro_rules! decode {
    ($module:ident, $text:expr) => {{
        use mcp_pydantic_sdk::$module::{ClientMessage, PingRequest, RequestId, ServerMessage};
        let mut decoded = 0;
        for line in $text.lines().filter(|l| l.contains("\"method\"")) {
            let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
            if value.get("method").is_none() {
                continue; // "method" inside a result
            }
            let client = line.parse::<ClientMessage>();
            let server = line.parse::<ServerMessage>();
            if let (Err(c), Err(s)) = (&client, &server) {
                panic!("{}: neither direction decodes {line}:\n  client: {c}\n  server: {s}",
                       stringify!($module));
            }
            decoded += 1;
        }
        let ping: PingRequest = serde_json::from_str(r#"{"method": "ping"}"#).expect("a ping");
        assert_eq!(serde_json::to_string(&ping).expect("encodes"), r#"{"method":"ping"}"#);
        assert!(serde_json::from_str::<PingRequest>("{}").is_err(), "`method` is required");
        assert!(serde_json::from_str::<PingRequest>(r#"{"method": "pong"}"#).is_err());
        // The id: a string or an integer, nothing else.
        assert!(serde_json::from_str::<RequestId>("7").is_ok());
        assert!(serde_json::from_str::<RequestId>(r#""seven""#).is_ok());
        assert!(serde_json::from_str::<RequestId>("7.5").is_err());
        decoded
    }};
}

fn main() {
    let path = std::env::args().nth(1).expect("a JSON Lines file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let decoded = decode!(python_sdk, text);
    assert_eq!(decode!(python_sdk_unions, text), decoded, "both exports decode the same");
    println!("decoded {decoded} requests and notifications");
}
"##;

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
