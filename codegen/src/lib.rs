//! `mcp-codegen`: generates strongly typed Rust from Model Context Protocol JSON schemas, for
//! build scripts and tools.
//!
//! A build script needs [`Config`] (in the manner of `prost-build`): the schema file, a few
//! settings, and [`Config::generate`]. The pipeline behind it is `schema.json` → [`errata`] →
//! load → [`ir::Module`] → emit → Rust source.
//!
//! A tool reads schemas through the same pipeline: [`load_schema`] and [`load_schema_file`]
//! give the [`ir`] (the model the code is emitted from: every type, the message enums, the
//! request → result pairs), [`naming`] the rules by which schema names become Rust names,
//! [`diff`] what changed between two schemas and what it breaks, [`revisions`] the pinned
//! revisions' manifest and [`errata`] the corrections of the official schemas. The loader and
//! the emitter themselves are private.
//!
//! The `mcp-codegen` command (`fetch`, `generate [--check]`, `generate --schema`, `diff`) is the
//! crate `mcp-codegen-cli`, so that a build script compiles none of what only the command needs.
//! The feature `tools` adds what the command and this repository's tests share: the pinned,
//! checksummed download of schemas (`fetch`) and the regeneration of the repository
//! (`workspace`).
#![warn(missing_docs)]

mod config;
pub mod diff;
mod emit;
mod error;
#[cfg(feature = "tools")]
pub mod fetch;
mod file_error;
pub mod ir;
pub mod naming;
mod pipeline;
pub mod revisions;
mod schema;
mod schema_error;
mod settings;
mod toml_table;
#[cfg(feature = "tools")]
pub mod workspace;

pub use config::Config;
pub use error::GenerateError;
pub use file_error::FileError;
pub use pipeline::{load_schema, load_schema_file, sha256_hex};
pub use schema::errata;
pub use schema::hoist_nested_definitions;
pub use schema_error::SchemaError;
