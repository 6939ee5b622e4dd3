//! `mcp-check`'s engine: checks MCP traffic against the full schema of the revision each
//! message belongs to, with the generated types of `mcp-typed`.
//!
//! The revision of a message is followed as a peer would: the `initialize` exchange settles it
//! for the conversation, a 2026-07-28 request names its own in `_meta`
//! (`io.modelcontextprotocol/protocolVersion`) or in the recorded `MCP-Protocol-Version`
//! header, and a response belongs to its request's. Each message is decoded as what its sender
//! sends in that revision (`ClientMessage` or `ServerMessage`): every member's type, every
//! required member, every constant, every union; what does not fit is a [`Violation`] at its
//! JSON pointer.
//!
//! ```
//! use mcp_wire_check::{traffic, Checker, Revision};
//!
//! let recorded = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#;
//! let mut checker = Checker::new(Some(Revision::V2025_11_25));
//! let verdict = checker.check(&traffic::read(recorded)[0]);
//! assert_eq!(verdict.violations[0].pointer, "/params/name");
//! ```
#![warn(missing_docs)]

pub mod extension;
pub mod facts;
pub mod fuzz;
pub mod proxy;
pub mod report;
pub mod revision;
pub mod session;
pub mod traffic;
/// Schema-valid values drawn from a seed: `mcp_typed_json::values`, where mcp-typed's
/// `arbitrary` and `proptest` features draw too.
pub use mcp_typed_json::values;

pub use revision::{Revision, Side, Violation};
pub use session::{Checker, Verdict};
