//! The pinned official files, for the tests that read them.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::workspace::Workspace;

/// The folder of the library crate (`codegen/`), whose fixtures the command's tests
/// (`codegen/cli/tests/`, which include this module) share.
pub fn library_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if env!("CARGO_PKG_NAME") == "mcp-codegen-cli" {
        here.join("..")
    } else {
        here.to_path_buf()
    }
}

/// The repository's `schema/` folder with every pinned schema and example present and verified,
/// fetched on first use from `$MCP_SCHEMA_MIRROR` or the pinned upstream commit. It is laid out
/// as a mirror: `<revision>/schema.json`, `<revision>/examples/…`.
pub fn mirror() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let workspace = Workspace::open(library_dir().join("..")).expect("schema/revisions.toml");
        workspace
            .fetch_all(&SchemaSource::resolve(None))
            .unwrap_or_else(|e| {
                panic!(
                    "fetching the pinned schemas and examples: {e}\n(set MCP_SCHEMA_MIRROR to a \
                     folder holding <revision>/schema.json and 2026-07-28/examples, or allow \
                     downloads)"
                )
            })
    })
    .clone()
}

/// `name` as a token of a JSON pointer (RFC 6901: `~` is `~0`, `/` is `~1`), for the pointers
/// the tests build to plant or expect: written from the RFC, not taken from the generator, so
/// that the generator's own escaping is checked against it.
#[allow(dead_code)] // not every test that includes this module builds pointers
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
