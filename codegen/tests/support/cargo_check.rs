//! `cargo check --message-format=json` on a throwaway crate, its errors located by the primary
//! span (file and line), for tests that attribute errors to the parts they generated.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// One compiler error of the checked crate itself.
#[derive(Debug, Clone)]
pub struct CompileError {
    /// The file of the primary span, relative to the crate (`src/probes.rs`).
    pub file: String,
    /// The line of the primary span (1-based).
    pub line: usize,
    /// The diagnostic as rustc prints it.
    pub rendered: String,
}

/// What `cargo check` said.
#[derive(Debug)]
pub struct Checked {
    /// The errors with a span.
    pub errors: Vec<CompileError>,
    /// Errors of dependencies or without a span, and cargo's own complaints: a crate that
    /// cannot be checked at all.
    pub other: Vec<String>,
}

/// Writes `text` to `path` unless it already holds it (cargo then sees nothing to redo).
pub fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Runs `cargo check` in `dir` (its own target folder, so that the outer build's lock is not
/// held) and collects the errors of the crate named `name`.
pub fn check(dir: &Path, name: &str) -> Checked {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(dir)
        .args(["check", "--quiet", "--message-format=json"])
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs");
    let mut checked = Checked {
        errors: Vec::new(),
        other: Vec::new(),
    };
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
            continue;
        }
        let diagnostic = &message["message"];
        let rendered = diagnostic["rendered"].as_str().unwrap_or("").to_owned();
        let own = message["target"]["name"]
            .as_str()
            .is_some_and(|n| n.replace('-', "_") == name.replace('-', "_"));
        let primary = diagnostic["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true));
        match primary {
            Some(span) if own => checked.errors.push(CompileError {
                file: span["file_name"].as_str().unwrap_or("").to_owned(),
                line: span["line_start"].as_u64().unwrap_or(0) as usize,
                rendered,
            }),
            // rustc's closing count (`aborting due to 2 previous errors`).
            None if own && rendered.starts_with("error: aborting due to") => {}
            _ => checked.other.push(rendered),
        }
    }
    if !output.status.success() && checked.errors.is_empty() && checked.other.is_empty() {
        checked
            .other
            .push(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    checked
}
