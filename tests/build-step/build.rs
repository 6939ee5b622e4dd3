//! The build step as a user's build script writes it: `mcp_codegen::Config` generates the types
//! of real third-party schemas into `OUT_DIR`, and `src/lib.rs` `include!`s each in a module of
//! its own. The schemas
//! (and the producers' own example messages) are the pins of `schema/third-party.toml`, fetched
//! on first use by `mcp_codegen::fetch::fetch_third_party`: from `$MCP_SCHEMA_MIRROR/third-party/`
//! if the mirror has them, else out of the pinned registry archive, every sha256 checked.

use std::path::{Path, PathBuf};

use mcp_codegen::fetch::{fetch_third_party, ThirdPartyPins, MIRROR_ENV, THIRD_PARTY_MANIFEST};
use mcp_codegen::Config;

/// Each pin and the module it is generated into (one generator pass each).
const SCHEMAS: &[(&str, &str)] = &[
    ("ext-apps", "ext_apps"),
    ("rmcp-client-message", "rmcp_client_message"),
    ("rmcp-server-message", "rmcp_server_message"),
];

fn main() {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let repo = manifest_dir.join("../..");
    let pins_path = repo.join("schema").join(THIRD_PARTY_MANIFEST);
    // The cached files are not watched: writing them during the build would make cargo run this
    // script again on every build. A changed pin is what calls for a new fetch.
    println!("cargo:rerun-if-changed={}", pins_path.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed={MIRROR_ENV}");

    let pins = ThirdPartyPins::load(&pins_path).unwrap_or_else(|e| panic!("{e}"));
    // A relative mirror (`../shared/mcp-schema`) is meant from the repository root, where cargo
    // is run; a build script runs in its package's folder.
    let mirror = std::env::var_os(MIRROR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(|dir| repo.join(dir));
    let out_dir = PathBuf::from(env("OUT_DIR"));

    let mut examples = String::from("&[\n");
    let mut schemas = String::from("&[\n");
    for (name, module) in SCHEMAS {
        let pin = pins
            .get(name)
            .unwrap_or_else(|| panic!("{}: no [[schema]] named `{name}`", pins_path.display()));
        let fetched = fetch_third_party(pin, &repo.join("schema"), mirror.as_deref())
            .unwrap_or_else(|e| {
                panic!(
                    "fetching third-party schema `{name}` ({} {}): {e}\n(set {MIRROR_ENV} to a \
                     folder with third-party/{name}/, or allow downloads from {})",
                    pin.package, pin.version, pin.url
                )
            });
        let mut config = Config::new();
        if *name == "ext-apps" {
            ext_apps(&mut config);
        }
        // Without `module_doc`, the output has no inner attribute: it can be `include!`d.
        // The test hooks and `schemars::JsonSchema` too, behind this crate's features (on by
        // default): tests/drawn.rs draws values from each type's schema.
        config
            .schema_path(&fetched.schema)
            .registry_feature("registry")
            .schemars_feature("schemars")
            .revision_name(format!("{} {}", pin.package, pin.version))
            .out_path(out_dir.join(format!("{module}.rs")))
            .generate()
            .unwrap_or_else(|e| panic!("generating `{name}`: {e}"));

        // The schema and the examples go into the test binaries as they are (`include_str!` of
        // a copy), so the tests need no file outside OUT_DIR.
        let copy = out_dir.join(format!("{name}--schema.json"));
        copy_if_changed(&fetched.schema, &copy);
        schemas.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            copy.display().to_string()
        ));
        for path in &fetched.examples {
            let file = path.file_name().expect("a file name").to_string_lossy();
            let copy = out_dir.join(format!("{name}--{file}"));
            copy_if_changed(path, &copy);
            examples.push_str(&format!(
                "    ({name:?}, {file:?}, include_str!({:?})),\n",
                copy.display().to_string()
            ));
        }
    }
    examples.push_str("]\n");
    write_if_changed(&out_dir.join("examples.rs"), examples.as_bytes());
    schemas.push_str("]\n");
    write_if_changed(&out_dir.join("schemas.rs"), schemas.as_bytes());
}

/// ext-apps has no `ClientRequest`-style unions: its messages by direction, as its spec
/// (`spec.types.d.ts`) sends them, each a message enum dispatched on `method`.
fn ext_apps(config: &mut Config) {
    config
        .message_enum(
            "ViewRequest",
            &[
                "McpUiInitializeRequest",
                "McpUiMessageRequest",
                "McpUiOpenLinkRequest",
                "McpUiDownloadFileRequest",
                "McpUiRequestDisplayModeRequest",
                "McpUiUpdateModelContextRequest",
            ],
        )
        .message_enum("HostRequest", &["McpUiResourceTeardownRequest"])
        .message_enum(
            "ViewNotification",
            &[
                "McpUiInitializedNotification",
                "McpUiSizeChangedNotification",
                "McpUiRequestTeardownNotification",
            ],
        )
        .message_enum(
            "HostNotification",
            &[
                "McpUiToolInputNotification",
                "McpUiToolInputPartialNotification",
                "McpUiToolResultNotification",
                "McpUiToolCancelledNotification",
                "McpUiHostContextChangedNotification",
            ],
        );
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set (run by cargo)"))
}

fn copy_if_changed(from: &Path, to: &Path) {
    let bytes = std::fs::read(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    write_if_changed(to, &bytes);
}

/// Leaves an unchanged file alone, so that what includes it is not rebuilt.
fn write_if_changed(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
