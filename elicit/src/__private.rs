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
    /// know them (they are the variants of another type). It checks in constants, with
    /// [`has_option`](super::has_option) and
    /// [`ElicitEnum::Checks`](super::ElicitEnum::Checks), that each default is an option and
    /// that `minItems` is not more than the options.
    pub fn problems(schema: &RequestedSchema) -> Vec<(Option<usize>, SchemaError)> {
        let mut found = Vec::new();
        check::each_problem(schema, Options::Deferred, &mut |index, problem| {
            found.push((index, problem))
        });
        found
    }
}

/// Whether `value` is the value of one of `options` (those of an `ElicitEnum`), in constants:
/// a derived form checks its enum fields' defaults with it (see [`ElicitEnum::Checks`]).
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
/// reported with the message below (its first note is the end of the derive's own messages that
/// refuse a field type: the same list of what a form field can be).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "not a `String`, `bool`, integer, `f32`/`f64`, or unit-only enum deriving `Elicit`",
    note = "a form field is a `String`, `bool`, integer (`i8` to `i64`, `u8` to `u64`, `isize`, `usize`), `f32` or `f64`, a unit-only enum deriving `Elicit`, a `Vec`, `BTreeSet` or `HashSet` of such an enum, or an `Option` of one of these",
    note = "form mode accepts only a flat object of primitive fields (no nested objects, maps, tuples or free-form arrays); a unit-only enum becomes a select field when it has `#[derive(Elicit)]`"
)]
pub trait ElicitEnum: Sized {
    /// `(value, title)` of every variant, in declaration order.
    const OPTIONS: &'static [(&'static str, Option<&'static str>)];
    /// The checks of a select field's attributes that need the options, which only the enum's
    /// derive knows: a type that implements [`DefaultIsAnOption`] and [`MinItemsFit`] for a
    /// `bool` when the enum implements a trait for it, which it does for `true` alone; that
    /// trait's `#[diagnostic::on_unimplemented]` message lists the options. The derive on a
    /// struct computes the `bool` in a constant from [`OPTIONS`](Self::OPTIONS) and names the
    /// implementation at the attribute: with `false`, the error is there.
    type Checks;
    /// The variant whose value is `value`.
    fn from_value(value: &str) -> Option<Self>;
}

/// Implemented by [`ElicitEnum::Checks`]: `<Checks as DefaultIsAnOption<{ has_option(OPTIONS,
/// default) }>>::CHECK` does not compile when a select field's default is not an option.
pub trait DefaultIsAnOption<const IS_AN_OPTION: bool> {
    /// What the derive names.
    const CHECK: () = ();
}

/// Implemented by [`ElicitEnum::Checks`]: `<Checks as MinItemsFit<{ min_items <=
/// OPTIONS.len() }>>::CHECK` does not compile when a multi select's `minItems` is more than the
/// options.
pub trait MinItemsFit<const FIT: bool> {
    /// What the derive names.
    const CHECK: () = ();
}
