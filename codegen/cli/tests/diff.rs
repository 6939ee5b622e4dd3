//! `mcp-codegen diff` as a gate (its exit codes, formats and errors) and `generate --schema`
//! on any schema file, run as a user runs the command.

use std::process::Command;

use serde_json::{json, Value};

#[path = "../../tests/support/mod.rs"]
mod support;
use support::{library_dir, mirror};

fn codegen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
        .arg("--root")
        .arg(library_dir().join(".."))
        .arg("--from")
        .arg(mirror())
        .args(args)
        .env_remove("MCP_SCHEMA_MIRROR")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_is_a_gate() {
    // Two pinned revisions: something breaks.
    let (code, out, err) = codegen(&["diff", "2025-11-25", "2026-07-28", "--format", "markdown"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.starts_with("## MCP schema 2025-11-25 → 2026-07-28 (`v2025_11_25` → `v2026_07_28`)\n"),
        "{out}"
    );
    // The same revision: nothing breaks.
    let (code, out, err) = codegen(&["diff", "2026-07-28", "2026-07-28"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no changes"), "{out}");

    // Two files: an optional field added breaks struct literals, not constructors.
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, properties: Value| -> String {
        let path = dir.path().join(name);
        let definitions = json!({"Implementation": {"type": "object", "properties": properties,
                                  "required": ["name"]}});
        let root = json!({"$schema": "http://json-schema.org/draft-07/schema#",
                          "definitions": definitions});
        std::fs::write(&path, root.to_string()).unwrap();
        path.display().to_string()
    };
    let old = write("old.json", json!({"name": {"type": "string"}}));
    let new = write(
        "new.json",
        json!({"name": {"type": "string"},
               "keywords": {"type": "array", "items": {"type": "string"}}}),
    );
    let (code, out, err) = codegen(&["diff", &old, &new]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("    new::Implementation::keywords: Option<Vec<String>>\n"),
        "{out}"
    );
    let (code, _, err) = codegen(&["diff", &old, &new, "--style", "constructors"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = codegen(&["diff", &old, &new, "--allow", "struct_field_added"]);
    assert_eq!(code, 0, "{err}");
    // JSON for tools; Markdown names the files without the reviewer's absolute paths.
    let (code, out, _) = codegen(&["diff", &old, &new, "--format", "json"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["fails"], true);
    assert_eq!(
        report["changes"][0]["path"],
        "new::Implementation::keywords"
    );
    let (_, out, _) = codegen(&["diff", &old, &new, "--format", "markdown"]);
    let title = out.lines().next().unwrap();
    assert!(!title.contains(&*dir.path().to_string_lossy()), "{title}");
    assert!(
        title.contains("old.json → ") && title.contains("new.json"),
        "{title}"
    );

    // A file against a pinned revision: the pinned side has its errata applied, the file is
    // read as it is, so the differences are what the errata change.
    let file = mirror().join("2026-07-28/schema.json");
    let (code, out, err) = codegen(&["diff", "2026-07-28", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("v2026_07_28::StringSchema::pattern"), "{out}");
    assert!(out.contains("ElicitResultContentValue"), "{out}");
    assert!(!out.contains('\x1b'), "not a terminal: no colors");

    // Errors: exit 2.
    let (code, _, err) = codegen(&["diff", "2026-07-28", "no-such-revision"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-revision"), "{err}");
    let missing = dir.path().join("missing.json");
    let (code, _, err) = codegen(&["diff", &old, missing.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.json"), "{err}");
    let (code, _, err) = codegen(&["diff", &old, &new, "--allow", "no_such_kind"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("struct_field_added"),
        "the known kinds are listed: {err}"
    );
}

#[test]
fn generate_takes_any_schema_file() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("snapshot.rs");
    let schema = mirror().join("2025-06-18/schema.json");
    let args = [
        "generate",
        "--schema",
        schema.to_str().unwrap(),
        "--module",
        "my-snapshot",
        "--out",
        out_file.to_str().unwrap(),
    ];
    let (code, out, err) = codegen(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        text.starts_with("// @generated by mcp-codegen from my-snapshot (sha256 "),
        "{}",
        &text[..200]
    );
    assert!(text.contains("pub struct ElicitRequestParams"));
    // The same file is up to date under --check; a changed one is not.
    let (code, out, _) = codegen(&[&args[..], &["--check"]].concat());
    assert_eq!(code, 0, "{out}");
    std::fs::write(&out_file, "// stale\n").unwrap();
    let (code, out, _) = codegen(&[&args[..], &["--check"]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("would change"), "{out}");
    // Without --out the code goes to standard output.
    let (code, out, _) = codegen(&args[..5]);
    assert_eq!(code, 0);
    assert!(out.starts_with("// @generated by mcp-codegen from my-snapshot"));
    // A schema the generator cannot read is an error with the file's name.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let (code, _, err) = codegen(&["generate", "--schema", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.json") && err.contains("not valid JSON"),
        "{err}"
    );
    // --module without --schema is a usage error.
    let (code, _, _) = codegen(&["generate", "--module", "x"]);
    assert_ne!(code, 0);
}
