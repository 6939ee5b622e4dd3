//! `mcp-codegen`: generates strongly typed Rust from Model Context Protocol JSON schemas, for
//! build scripts and tools.
//!
//! The pipeline is `schema.json` → errata → [`schema::load`] → [`ir::Module`] → [`emit::emit`] →
//! Rust source, in one function that [`Config`] runs for a build script (in the manner of
//! `prost-build`). [`diff`] tells what changed between two schemas.
//!
//! The `mcp-codegen` command (`fetch`, `generate [--check]`, `generate --schema`, `diff`) is the
//! crate `mcp-codegen-cli`, so that a build script compiles none of what only the command needs.
//! The feature `tools` adds what the command and this repository's tests share: the pinned,
//! checksummed download of schemas (`fetch`) and the regeneration of the repository
//! (`workspace`).
#![warn(missing_docs)]

mod config;
pub mod diff;
pub mod emit;
#[cfg(feature = "tools")]
pub mod fetch;
pub mod ir;
pub mod naming;
mod pipeline;
pub mod pointer;
pub mod revisions;
pub mod schema;
mod toml_table;
#[cfg(feature = "tools")]
pub mod workspace;

pub use config::{Config, GenerateError};
pub use pipeline::{load_schema_file, sha256_hex};
