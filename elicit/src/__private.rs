//! For `#[derive(Elicit)]` and `mcp-typed`, not a public API: the runtime that derived forms
//! call (their expansions reach it as `::mcp_typed::elicit::__private`, so a user depends on
//! `mcp-typed` alone), the checks the macro runs when it expands ([`derive`]), and the seal of
//! [`FormParams`](crate::FormParams).

pub use serde_json;

pub use crate::decode::{
    decode_content, finish, refuse_undeclared, Content, FormValue, Member, Names,
};
pub use crate::derived::{
    boolean, float, integer, members, missing, multi_select, select, string, Pattern, StringRules,
};

/// What `#[derive(Elicit)]` asks of this crate when it expands: the consistency rules of
/// [`RequestedSchema::problems`](crate::RequestedSchema::problems), run on the model of the
/// struct, each problem with the index of its field.
pub mod derive {
    use crate::check::{self, Options};
    use crate::{RequestedSchema, SchemaError};

    /// Every rule `schema` breaks, with the index of the property at fault (`None` for one of
    /// `required`), but those that need the options of its enum properties: the macro does not
    /// know them (they are the variants of another type), so it checks in constants, with
    /// [`has_option`](super::has_option) and the two messages below, that each default is an
    /// option and that `minItems` is not more than the options.
    pub fn problems(schema: &RequestedSchema) -> Vec<(Option<usize>, SchemaError)> {
        let mut found = Vec::new();
        check::each_problem(schema, Options::Deferred, &mut |index, problem| {
            found.push((index, problem))
        });
        found
    }

    /// The message of a default that is not one of the options of its enum.
    pub fn not_an_option(value: &str) -> String {
        check::not_an_option(value)
    }

    /// The message of a multi select whose `minItems` is more than its options.
    pub fn more_min_items_than_options(min_items: u64) -> String {
        check::more_min_items_than_options(min_items)
    }
}

/// Whether `value` is the value of one of `options` (those of an `ElicitEnum`), in constants:
/// a derived form checks its enum fields' defaults with it.
pub const fn has_option(options: &[(&str, Option<&str>)], value: &str) -> bool {
    let mut i = 0;
    while i < options.len() {
        let option = options[i].0.as_bytes();
        let value = value.as_bytes();
        if option.len() == value.len() {
            let mut at = 0;
            while at < value.len() && option[at] == value[at] {
                at += 1;
            }
            if at == value.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

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
