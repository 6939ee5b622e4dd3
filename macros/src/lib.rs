//! `#[derive(Elicit)]` for `mcp-typed`: use it through `mcp_typed::Elicit`.
//!
//! On a struct with named fields it implements `mcp_typed::elicit::Elicit`: the form's
//! `requestedSchema`, a compiled `from_content` check, and `from_json_str`, which reads the
//! answer's JSON text in one pass (no intermediate map; keys matched while borrowed from the
//! text) and runs the same checks, with the same errors. On a unit-only enum it generates the
//! hidden option table that a struct field of that enum type (single select) or of a
//! `Vec`/`BTreeSet`/`HashSet` of it (multi select) uses.
//!
//! Field attributes, `#[elicit(...)]`: `title`, `description` (default: the doc comment),
//! `min_length`, `max_length`, `pattern`, `format` (`"email"`, `"uri"`, `"date"`,
//! `"date-time"`), `minimum`, `maximum`, `min_items`, `max_items`, `default` (a literal, or a
//! list of option values for a multi select) and `not_sensitive`. Variant attribute: `title`.
//! `#[serde(rename = "...")]` and `#[serde(rename_all = "...")]` are honoured, and so is
//! `#[serde(deny_unknown_fields)]` on a struct: the schema says `"additionalProperties": false`
//! and an undeclared member is an `additionalProperties` error.
//!
//! The schema writes each property's keywords after `type` in the order the keys of
//! `#[elicit(...)]` are written (a doc comment counts as a `description` written first; an
//! enum's options come right before `default`), then any others in the order of the spec's
//! per-type examples. A form can so reproduce a given JSON text byte for byte, as the spec's own
//! contact form, whose `description` comes after `format` and `minimum`.
//!
//! The specification's rules are checked at compile time, each error pointing at the
//! offending field, type or attribute: unsupported types, contradictory bounds, defaults
//! outside the constraints, not an option or not valid for their `format`, invalid patterns,
//! unknown formats, constraints on the wrong kind of field, names that ask for secrets (form
//! mode must not collect sensitive data), and URLs in titles or descriptions. The rules of a
//! form's consistency are `mcp-elicit`'s, run on the model of the form: a client that checks
//! the same form with `RequestedSchema::problems` gets the same messages.
#![warn(missing_docs)]

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod model;

use proc_macro::TokenStream;

/// Derives `mcp_typed::elicit::Elicit` for a struct, or the option table of a unit enum.
#[proc_macro_derive(Elicit, attributes(elicit, serde))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let item: syn::Item = match syn::parse2(proc_macro2::TokenStream::from(input)) {
        Ok(item) => item,
        Err(error) => return error.into_compile_error().into(),
    };
    let Some(input) = ast::Input::from_item(&item) else {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "#[derive(Elicit)] applies to structs and enums",
        )
        .into_compile_error()
        .into();
    };
    let cx = ctxt::Ctxt::default();
    let item = ast::parse(&cx, &input);
    // The model of a struct's form: what the checks check and the expansion writes.
    let schema = match &item {
        Some(ast::Item::Struct(fields, deny_unknown_fields)) => {
            Some(model::form(&cx, fields, *deny_unknown_fields))
        }
        _ => None,
    };
    if let Some(item) = &item {
        check::check(&cx, &input, item, schema.as_ref());
    }
    match (cx.check(), item) {
        (Ok(()), Some(item)) => expand::expand(&input, &item, schema.as_ref()).into(),
        (Err(error), _) => error.into_compile_error().into(),
        (Ok(()), None) => TokenStream::new(),
    }
}
