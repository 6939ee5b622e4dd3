//! Integration tests for `mcp-typed` and `mcp-codegen` (see `tests/`), and the helpers they
//! share. The README's examples are compiled and run as this crate's doctests.

/// The README's examples, as doctests. Read only when doctests are collected, so that the crate
/// builds where the README is not beside it (a packaged copy).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
// The README shows a complete build script, `fn main` included.
#[allow(clippy::needless_doctest_main)]
struct ReadmeDoctests;

use std::path::PathBuf;

pub mod drawn;
pub mod installed;
pub mod listening;

/// A field of `/proc/PID/status`, in kB (`VmRSS`: resident now, `VmHWM`: the peak). Linux
/// only: the memory bounds the tests check are read there.
pub fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    (status.lines())
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

/// JSON equality with numbers compared by value (`3` and `3.0` are the same number): what a
/// round trip through a typed value keeps.
pub fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The folder with the official schema files and examples: the repository's `schema/`, with
/// every pinned file present and verified, fetched on first use (from `$MCP_SCHEMA_MIRROR`, or
/// the pinned upstream commit), laid out as `<revision>/schema.json` and
/// `2026-07-28/examples/<Definition>/<name>.json`.
pub fn mirror() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let workspace =
            mcp_codegen::workspace::Workspace::open(repo_root()).expect("schema/revisions.toml");
        let source = mcp_codegen::fetch::SchemaSource::resolve(None);
        workspace.fetch_all(&source).unwrap_or_else(|e| {
            panic!(
                "fetching the pinned schemas and examples: {e}\n(set MCP_SCHEMA_MIRROR to a \
                 folder holding <revision>/schema.json and 2026-07-28/examples, or allow \
                 downloads)"
            )
        })
    })
    .clone()
}

/// The schema file of the third-party pin `name` (`schema/third-party.toml`: `ext-apps`, …),
/// fetched and checked on first use (from `$MCP_SCHEMA_MIRROR/third-party/<name>/`, or the
/// pinned archive).
pub fn third_party_schema(name: &str) -> PathBuf {
    use mcp_codegen::fetch::{fetch_third_party, ThirdPartyPins, MIRROR_ENV, THIRD_PARTY_MANIFEST};
    let schema = repo_root().join("schema");
    let pins = ThirdPartyPins::load(&schema.join(THIRD_PARTY_MANIFEST)).expect("the pins");
    let pin = pins
        .get(name)
        .unwrap_or_else(|| panic!("no third-party pin `{name}`"));
    let mirror = (std::env::var_os(MIRROR_ENV).filter(|dir| !dir.is_empty()))
        .map(|dir| repo_root().join(dir));
    let fetched = fetch_third_party(pin, &schema, mirror.as_deref()).unwrap_or_else(|e| {
        panic!("fetching `{name}`: {e}\n(set MCP_SCHEMA_MIRROR, or allow downloads)")
    });
    fetched.schema
}

/// One official example instance of revision 2026-07-28.
#[derive(Debug, Clone)]
pub struct Example {
    /// The definition it is an instance of (its folder's name).
    pub definition: String,
    /// Its file name.
    pub file_name: String,
    /// Its text, as the file holds it.
    pub text: String,
}

/// Every official example of 2026-07-28 (`<mirror>/2026-07-28/examples/<Definition>/*.json`),
/// sorted by definition and file name. There are 129; fewer means a broken mirror.
pub fn official_examples() -> Vec<Example> {
    let root = mirror().join("2026-07-28/examples");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("examples folder") {
        let dir = dir.expect("entry").path();
        let definition = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        for file in std::fs::read_dir(&dir).expect("type folder") {
            let file = file.expect("entry").path();
            if file.extension().is_some_and(|e| e == "json") {
                out.push(Example {
                    definition: definition.clone(),
                    file_name: file
                        .file_name()
                        .expect("file")
                        .to_string_lossy()
                        .into_owned(),
                    text: std::fs::read_to_string(&file).expect("example"),
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.definition, &a.file_name).cmp(&(&b.definition, &b.file_name)));
    assert_eq!(out.len(), 129, "expected the 129 official examples");
    out
}

/// What the interop peers (`src/bin/`) share.
pub mod peers {
    use mcp_typed::v2025_11_25::Error;
    use serde_json::{Map, Value};

    /// A JSON-RPC error object without data.
    pub fn error(code: i64, message: impl Into<String>) -> Error {
        Error {
            code,
            data: None,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// A typed value from JSON written in a peer's source (a typo there is a bug of the peer).
    pub fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
        match serde_json::from_value(value) {
            Ok(value) => value,
            Err(error) => panic!("static JSON of an interop peer does not fit its type: {error}"),
        }
    }
}
