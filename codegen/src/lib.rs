//! `mcp-codegen`: generates strongly typed Rust from the official Model Context Protocol JSON
//! schemas.
//!
//! The pipeline is `schema.json` → [`schema::load`] → [`ir::Module`] → [`emit::emit`] → Rust
//! source. [`Config`] drives it from a build script (in the manner of `prost-build`); the
//! `mcp-codegen` binary drives it for this repository (`fetch`, `generate [--check]`).
#![warn(missing_docs)]

mod config;
pub mod emit;
pub mod fetch;
pub mod ir;
pub mod naming;
pub mod revisions;
pub mod schema;
pub mod workspace;

pub use config::{Config, GenerateError};
