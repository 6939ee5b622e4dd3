//! Strongly typed [Model Context Protocol](https://modelcontextprotocol.io) messages for every
//! protocol revision, generated from the official JSON schemas by `mcp-codegen`.
//!
//! Each revision is a module behind a cargo feature of the same name; the newest released
//! revision, [`v2026_07_28`], is on by default. All revisions can be enabled together.
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_typed::v2026_07_28::ContentBlock;
//!
//! let block: ContentBlock = serde_json::from_str(r#"{"type":"text","text":"hi"}"#).unwrap();
//! assert!(matches!(&block, ContentBlock::TextContent(text) if text.text == "hi"));
//! // The constant `type` member is checked on decode and written on encode.
//! assert_eq!(serde_json::to_string(&block).unwrap(), r#"{"type":"text","text":"hi"}"#);
//! # }
//! ```
#![warn(missing_docs)]

extern crate self as mcp_typed;

// The runtime generated code calls (`src/gen/` names it `__rt`), in one home: not public API.
#[doc(hidden)]
pub mod __private;
#[cfg(feature = "borrowed")]
pub mod borrowed;
/// Elicitation forms: the `mcp-elicit` crate, re-exported (feature `elicit`). The conversions
/// between its types and the generated types of each revision are implemented here:
/// `ElicitOutcome<T>: TryFrom<&ElicitResult>` and [`FormParams`](elicit::FormParams) for the
/// form-mode `elicitation/create` params of every revision with elicitation.
#[cfg(feature = "elicit")]
#[doc(inline)]
pub use mcp_elicit as elicit;
#[cfg(feature = "elicit")]
mod elicit_revisions;
// The trait and, with the `derive` feature, the derive macro share the name, as in serde.
#[cfg(feature = "elicit")]
pub use elicit::Elicit;
#[cfg(feature = "derive")]
pub use mcp_typed_macros::Elicit;
// The runtime of the schemars impls lives in `__private`; this is the path it had before.
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub use __private::json_schema_impls;
pub mod json_pointer;
pub mod jsonrpc;
#[cfg(feature = "elicit")]
pub mod validate;
// Compiled without the feature too, for generated code of any crate (`__private` names it);
// public only with it.
mod raw_object;
#[cfg(not(feature = "elicit"))]
#[doc(hidden)]
pub mod validate;
pub use raw_object::RawObject;
mod spec_rules;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
pub mod valid;
/// The map of the generated types wherever a schema has an object of arbitrary keys with typed
/// values (`requestedSchema.properties`, `_meta`-like maps): it keeps the members in the order
/// they were read or inserted, so a form's fields reach the client in the order the server
/// declared them and a message re-encodes with its members in their original order.
pub use indexmap::IndexMap;

#[cfg(feature = "v2024_11_05")]
#[rustfmt::skip]
#[path = "gen/v2024_11_05.rs"]
pub mod v2024_11_05;

#[cfg(feature = "v2025_03_26")]
#[rustfmt::skip]
#[path = "gen/v2025_03_26.rs"]
pub mod v2025_03_26;

#[cfg(feature = "v2025_06_18")]
#[rustfmt::skip]
#[path = "gen/v2025_06_18.rs"]
pub mod v2025_06_18;

#[cfg(feature = "v2025_11_25")]
#[rustfmt::skip]
#[path = "gen/v2025_11_25.rs"]
pub mod v2025_11_25;

// The draft's schema is 2026-07-28's, byte for byte: its module re-exports these types (see
// `Workspace::same_schema_as` in the codegen), which are compiled, hidden, for it alone too.
#[cfg(any(feature = "v2026_07_28", feature = "draft"))]
#[cfg_attr(not(feature = "v2026_07_28"), doc(hidden))]
#[rustfmt::skip]
#[path = "gen/v2026_07_28.rs"]
pub mod v2026_07_28;

#[cfg(feature = "draft")]
#[rustfmt::skip]
#[path = "gen/draft.rs"]
pub mod draft;
