//! The JSON conventions shared by the mcp-typed crates, each written once: the tokens of a JSON
//! pointer (RFC 6901, [`pointer`](mod@pointer)), the name of a JSON value's type in a message
//! ([`json_kind`]), the JSON Schema keywords they name ([`Keyword`]) and, with the feature `values`, values drawn from a JSON Schema that it
//! accepts (`values`: mcp-check's fuzzing, mcp-typed's `arbitrary` and `proptest` features).
//!
//! The generator (`mcp-codegen`, at build time), the generated types (`mcp-typed`), the forms
//! (`mcp-elicit`) and the wire referee all write their pointers and messages through this crate,
//! so that an error of one reads as an error of another.

#![warn(missing_docs)]

use serde_json::Value;

mod keyword;
pub mod pointer;
#[cfg(feature = "values")]
pub mod values;

pub use keyword::Keyword;

/// The JSON type of a value, as messages name it (`a string`, `an object`, `null`): what an
/// error says was found.
///
/// ```
/// assert_eq!(mcp_typed_json::json_kind(&serde_json::json!("x")), "a string");
/// assert_eq!(mcp_typed_json::json_kind(&serde_json::Value::Null), "null");
/// ```
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
