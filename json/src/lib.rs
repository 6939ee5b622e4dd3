//! The JSON conventions shared by the mcp-typed crates, each written once: the tokens of a JSON
//! pointer (RFC 6901, [`pointer`](mod@pointer)) and the name of a JSON value's type in a message
//! ([`json_kind`]).
//!
//! The generator (`mcp-codegen`, at build time), the generated types (`mcp-typed`), the forms
//! (`mcp-elicit`) and the wire referee all write their pointers and messages through this crate,
//! so that an error of one reads as an error of another.

#![warn(missing_docs)]

use serde_json::Value;

pub mod pointer;

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
