//! `mcp-codegen`: generates strongly typed Rust from the official Model Context Protocol JSON
//! schemas.
//!
//! The pipeline is `schema.json` → [`schema::load`] → [`ir::Module`] → [`emit::emit`] → Rust
//! source. [`Config`] drives it from a build script (in the manner of `prost-build`); the
//! `mcp-codegen` binary drives it for this repository (`fetch`, `generate [--check]`), and
//! [`diff`] tells what changed between two schemas (`mcp-codegen diff OLD NEW`).
#![warn(missing_docs)]

mod config;
pub mod diff;
pub mod emit;
pub mod fetch;
pub mod ir;
pub mod naming;
pub mod pointer;
pub mod revisions;
pub mod schema;
pub mod workspace;

pub use config::{load_schema_file, Config, GenerateError};
