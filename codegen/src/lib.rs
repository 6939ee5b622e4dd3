//! `mcp-codegen`: generates strongly typed Rust from the official Model Context Protocol JSON
//! schemas.
//!
//! The pipeline is `schema.json` → errata → [`schema::load`] → [`ir::Module`] → [`emit::emit`] →
//! Rust source, in one function that [`Config`] runs for a build script (in the manner of
//! `prost-build`) and [`workspace::Workspace`] for this repository, as the `mcp-codegen` binary
//! does (`fetch`, `generate [--check]`). [`diff`] tells what changed between two schemas
//! (`mcp-codegen diff OLD NEW`).
#![warn(missing_docs)]

mod config;
pub mod diff;
pub mod emit;
pub mod fetch;
pub mod ir;
pub mod naming;
mod pipeline;
pub mod pointer;
pub mod revisions;
pub mod schema;
pub mod workspace;

pub use config::{Config, GenerateError};
pub use pipeline::load_schema_file;
