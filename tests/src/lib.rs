//! Integration tests for `mcp-schema` and `mcp-codegen` (see `tests/`), and the helpers they
//! share. The README's examples are compiled and run as this crate's doctests.
#![doc = include_str!("../../README.md")]
// The README shows a complete build script, `fn main` included.
#![allow(clippy::needless_doctest_main)]

use std::path::PathBuf;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The folder with the official schema files and examples: `$MCP_SCHEMA_MIRROR`, else
/// `../shared/mcp-schema` beside the repository. The tests need it; a missing folder is a
/// failure with this explanation, not a skip.
pub fn mirror() -> PathBuf {
    let dir = match std::env::var_os("MCP_SCHEMA_MIRROR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => repo_root().join("../shared/mcp-schema"),
    };
    assert!(
        dir.join("2026-07-28/examples").is_dir(),
        "official schema mirror not found at {} (set MCP_SCHEMA_MIRROR to the folder holding <revision>/schema.json and 2026-07-28/examples)",
        dir.display()
    );
    dir
}
