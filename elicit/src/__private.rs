//! For `#[derive(Elicit)]` and `mcp-typed`, not a public API: the runtime that derived forms
//! call (their expansions reach it as `::mcp_typed::elicit::__private`, so a user depends on
//! `mcp-typed` alone), and the seal of [`FormParams`](crate::FormParams).

pub use serde_json;

pub use crate::decode::{
    decode_content, finish, refuse_undeclared, Content, FormValue, Member, Names,
};
pub use crate::derived::{
    boolean, float, integer, members, missing, multi_select, select, string, Pattern, StringRules,
};

/// Seals [`FormParams`](crate::FormParams): `mcp-typed` implements both for the params types of
/// the revisions it generates.
pub trait Sealed {}

/// A unit-only enum that derives `Elicit`: the options of a select field of its type. The
/// derive on a struct asks its enum-typed fields for this, so a field of any other type is
/// reported with the message below.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "not a string, number, integer, boolean, or unit-only enum deriving `Elicit`",
    note = "form mode accepts only a flat object of primitive fields (MCP elicitation, requested schema): no nested objects, maps, tuples or free-form arrays",
    note = "a unit-only enum becomes a select field when it has `#[derive(Elicit)]`"
)]
pub trait ElicitEnum: Sized {
    /// `(value, title)` of every variant, in declaration order.
    const OPTIONS: &'static [(&'static str, Option<&'static str>)];
    /// The variant whose value is `value`.
    fn from_value(value: &str) -> Option<Self>;
}

/// The JSON type of a value, for messages (`a string`, `null`).
pub fn json_kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
