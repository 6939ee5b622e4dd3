//! The build step as a user writes it: `build.rs` generates, with `mcp_codegen::Config`, the
//! types of real third-party schemas (pinned in `schema/third-party.toml`, fetched and checked
//! on first use) into `OUT_DIR`, one module each:
//!
//! - `ext_apps`: MCP Apps (`@modelcontextprotocol/ext-apps`), its zod-generated `schema.json`,
//!   with message enums by direction (`ViewRequest`, `HostRequest`, `ViewNotification`,
//!   `HostNotification`);
//! - `rmcp_client_message`, `rmcp_server_message`: rmcp's schemars schemas of the messages a
//!   client and a server send (`JsonRpcMessage`).

// The generated files, `include!`d as the README shows. The unions mirror the schemas' (large
// variants unboxed).
macro_rules! generated {
    ($($module:ident),*) => {$(
        #[allow(clippy::large_enum_variant)]
        #[allow(missing_docs)]
        pub mod $module {
            include!(concat!(env!("OUT_DIR"), "/", stringify!($module), ".rs"));
        }
    )*};
}

generated!(ext_apps, rmcp_client_message, rmcp_server_message);

/// The producers' own example messages pinned with the schemas: (schema name, file name, text).
pub const EXAMPLES: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// The pinned schemas the modules were generated from: (schema name, text).
pub const SCHEMAS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/schemas.rs"));
