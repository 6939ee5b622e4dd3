//! The other side of the differential test: the conformance suite's wire validation
//! (tests/interop/ajv/check_lines.mjs, ajv 8.20.0 as the suite runs it), one Node process for a
//! whole list of messages.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// One error ajv reported (its keyword and message are shown, through `Debug`, with an
/// unexplained disagreement).
#[derive(Debug, Clone)]
pub struct AjvError {
    pub pointer: String,
    #[allow(dead_code)]
    pub keyword: String,
    #[allow(dead_code)]
    pub message: String,
}

/// What to validate: `{revision, from, requestMethod, message}`, against the mirror's schema of
/// `revision`, or the one at `schema` (an errata-corrected copy).
pub fn input(
    revision: &str,
    from: Option<&str>,
    request_method: Option<&str>,
    message: &Value,
    schema: Option<&Path>,
) -> Value {
    let mut input = serde_json::json!({
        "revision": revision,
        "from": from,
        "requestMethod": request_method,
        "message": message,
    });
    if let Some(path) = schema {
        input["schemaPath"] = Value::from(path.to_string_lossy().into_owned());
    }
    input
}

/// The errors of each input, in order (empty: valid).
pub fn validate(inputs: &[Value]) -> Vec<Vec<AjvError>> {
    let text: String = inputs.iter().map(|i| format!("{i}\n")).collect();
    keep(&text);
    let out = run("check_lines.mjs", text);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), inputs.len(), "one answer per message");
    lines
        .iter()
        .zip(inputs)
        .map(
            |(line, input)| match serde_json::from_str::<Value>(line).expect("a JSON line") {
                Value::Object(o) => panic!("ajv could not validate {input}: {}", o["harnessError"]),
                Value::Array(errors) => errors.iter().map(error).collect(),
                other => panic!("not a list of errors: {other}"),
            },
        )
        .collect()
}

/// The suite's own function (taken from its installed bundle) against wire_validate.mjs on
/// `inputs`: `{same, differ, skipped, differences}` (tests/interop/ajv/same_as_suite.mjs).
pub fn same_as_suite(inputs: &[Value]) -> Value {
    let text: String = inputs.iter().map(|i| format!("{i}\n")).collect();
    serde_json::from_str(run("same_as_suite.mjs", text).trim()).expect("a JSON summary")
}

/// Runs tests/interop/ajv/`script` with the suite's Node on `stdin`; its standard output.
fn run(script: &str, stdin: String) -> String {
    let suite = mcp_typed_tests::installed::conformance_suite();
    let script = mcp_typed_tests::repo_root()
        .join("tests/interop/ajv")
        .join(script);
    let mut child = Command::new(&suite.node)
        .arg(&script)
        .arg(mcp_typed_tests::mirror())
        .env("MCP_CONFORMANCE_SUITE_DIR", &suite.dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", suite.node.display()));
    let mut pipe = child.stdin.take().expect("stdin");
    // Written from a thread: Node writes its answers while it reads, and a full pipe each way
    // would stop both.
    let writer = std::thread::spawn(move || pipe.write_all(stdin.as_bytes()));
    let out = child.wait_with_output().expect("node runs");
    writer.join().expect("writer").expect("write to node");
    assert!(
        out.status.success(),
        "{} failed ({}): {}",
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Keeps the lines given to ajv (`ajv-differential/inputs-<n>.jsonl` in the test's temporary
/// folder), to replay a run by hand: `node check_lines.mjs <mirror> < inputs-<n>.jsonl`.
fn keep(text: &str) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ajv-differential");
    let path = dir.join(format!(
        "inputs-{}.jsonl",
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(path, text));
}

fn error(value: &Value) -> AjvError {
    let text = |name: &str| value[name].as_str().unwrap_or_default().to_owned();
    AjvError {
        pointer: text("pointer"),
        keyword: text("keyword"),
        message: text("message"),
    }
}
