//! `#[derive(Elicit)]` for `mcp-typed`: use it through `mcp_typed::Elicit` (feature `derive` of
//! `mcp-typed`). The reference (the field types, the attributes, what is refused at compile
//! time) and an example are on the derive itself: [`Elicit`](derive@Elicit).
//!
//! The rules of a form's consistency are `mcp-elicit`'s, run on the model of the form when the
//! derive expands: a client that checks the same form with `RequestedSchema::problems` gets the
//! same messages.
#![warn(missing_docs)]

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod model;

use proc_macro::TokenStream;

/// Derives `mcp_typed::elicit::Elicit` for a struct with named fields: the struct is an MCP
/// elicitation form, and what the specification forbids in a form is a compile error at the
/// field or attribute at fault. On a unit-only enum, it derives the options of a select field of
/// that type.
///
/// A derived form has its `requestedSchema` (`requested_schema()`: one property per field, in
/// declaration order, `required` for every field but an `Option`), `from_content`, which checks
/// the `content` of an answer with compiled code and builds the value, reporting every problem
/// with its JSON pointer, and `from_json_str`, which does the same from the JSON text in one
/// pass, with the same errors.
///
/// ```
/// use mcp_typed::elicit::FromJsonError;
/// use mcp_typed::Elicit;
///
/// #[derive(Debug, PartialEq, Elicit)]
/// #[serde(rename_all = "lowercase")]
/// enum Plan {
///     Free,
///     #[elicit(title = "Pro tier")]
///     Pro,
/// }
///
/// #[derive(Debug, Elicit)]
/// #[serde(rename_all = "camelCase")]
/// struct Signup {
///     /// Your name, as on the invoices
///     #[elicit(title = "Name", min_length = 1, max_length = 50)]
///     full_name: String,
///     #[elicit(format = "email")]
///     email: String,
///     #[elicit(minimum = 18, default = 30)]
///     age: Option<u8>,
///     #[elicit(default = "free")]
///     plan: Plan,
/// }
///
/// assert_eq!(Signup::requested_schema().required, ["fullName", "email", "plan"]);
/// let answer = r#"{"fullName": "Ada", "email": "ada@example.com", "plan": "pro"}"#;
/// let signup = Signup::from_json_str(answer).unwrap();
/// assert_eq!((signup.age, signup.plan), (None, Plan::Pro));
///
/// let answer = r#"{"fullName": "", "email": "ada", "age": 300, "plan": "gold"}"#;
/// let Err(FromJsonError::Invalid(errors)) = Signup::from_json_str(answer) else {
///     panic!("an invalid answer");
/// };
/// let found: Vec<_> = errors.errors().iter().map(|e| (e.pointer(), e.keyword().as_str())).collect();
/// assert_eq!(
///     found,
///     [("/fullName", "minLength"), ("/email", "format"), ("/age", "maximum"), ("/plan", "enum")]
/// );
/// ```
///
/// # Field types
///
/// | Field type | Property |
/// |---|---|
/// | `String` | `"type": "string"` |
/// | `bool` | `"type": "boolean"` |
/// | `i8`, `i16`, `i32`, `i64`, `isize`, `u8`, `u16`, `u32`, `u64`, `usize` | `"type": "integer"`, with the range of the type as `minimum` and `maximum` unless an attribute narrows it |
/// | `f32`, `f64` | `"type": "number"` |
/// | a unit-only enum deriving `Elicit` | a single select: `"enum"` of the option values, or `"oneOf"` of `const` and `title` when a variant has a title |
/// | `Vec<E>`, `BTreeSet<E>` or `HashSet<E>` of such an enum `E` | a multi select: `"type": "array"` whose `items` are the options |
/// | `Option<T>` of any of these | the property of `T`, left out of `required`: the answer may omit it |
///
/// The standard types may be written with their `std`, `core` or `alloc` paths. The options of
/// an enum are the names of its variants, or their `#[serde(rename)]` or `rename_all` values;
/// an option's title is the `title` of its variant (or its value, when another variant has a
/// title). Any other type (a nested struct, `Vec<String>` or another free-form array, a map, a
/// tuple, a reference, `u128`, `char`, a generic type, an `Option` of an `Option`) is a compile
/// error whose message lists the types above.
///
/// # Field attributes
///
/// `#[elicit(key = value, ...)]` on a field; the values are literals.
///
/// | Key | Fields | Schema |
/// |---|---|---|
/// | `title = "..."` | all | `title` |
/// | `description = "..."` | all | `description`; without it, the doc comment of the field (the lines of a paragraph joined by a space, paragraphs by a blank line) |
/// | `min_length = n`, `max_length = n` | string | `minLength`, `maxLength`, in Unicode code points |
/// | `pattern = "..."` | string | `pattern`: an ECMA-262 regular expression, compiled when the derive expands |
/// | `format = "..."` | string | `format`: `"email"`, `"uri"`, `"date"` or `"date-time"` |
/// | `minimum = x`, `maximum = x` | integer, number | `minimum`, `maximum`: an integer within the range of the type for an integer field |
/// | `min_items = n`, `max_items = n` | multi select | `minItems`, `maxItems` |
/// | `default = ...` | all | `default`: a string, `true` or `false`, or a number, as the field's kind; for a single select, an option value (`"pro"`); for a multi select, a list of option values (`["a", "b"]`) |
/// | `not_sensitive` | all | none: allows a field name that looks like a secret (see below) |
///
/// On a variant of an enum, `#[elicit(title = "...")]` is the title of its option.
///
/// The schema writes the keywords of a property after `type` in the order the keys of
/// `#[elicit(...)]` are written (a doc comment counts as a `description` written first; the
/// options of a select come right before `default`), then the others in the order of the
/// specification's examples: a form can reproduce a given JSON text byte for byte.
///
/// # Names
///
/// The name of a property is the name of the field, or its `#[serde(rename = "...")]`, or the
/// `#[serde(rename_all = "...")]` of the struct applied to it (`lowercase`, `UPPERCASE`,
/// `PascalCase`, `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`,
/// `SCREAMING-KEBAB-CASE`, as serde); the same attributes on an enum and its variants name the
/// option values. `#[serde(deny_unknown_fields)]` on the struct writes
/// `"additionalProperties": false`, and a member that is not a property is then an
/// `additionalProperties` error. The derive reads these attributes without needing serde's
/// derive, so the names agree with a `Deserialize` of the same type; the other serde attributes
/// are ignored, and a `rename` or `rename_all` with separate `serialize` and `deserialize`
/// names is refused.
///
/// # Refused at compile time
///
/// Each error points at the field, type, variant or attribute at fault:
///
/// - a field type outside the table above, a struct without named fields, a union, generic
///   parameters, an enum variant with data, an enum without variants, two options with the same
///   value, two properties with the same name;
/// - an attribute on a field of the wrong kind, an unknown key or format, a value that is not a
///   literal of the right type, a key given twice, a `minimum` or `maximum` outside the range
///   of an integer field;
/// - contradictory bounds: `min_length` above `max_length`, `minimum` above `maximum`,
///   `min_items` above `max_items` or above the number of options;
/// - a `pattern` that is not a valid ECMA-262 regular expression;
/// - a `default` of the wrong type, outside the bounds or lengths, not matching the `pattern`
///   or the `format`, not one of the options (the error lists them), selecting an option twice,
///   or selecting fewer than `min_items` or more than `max_items` options;
/// - a field whose name asks for a secret (`password`, `token`, `api_key`, `ssn`, `pin`,
///   `credit_card`, ...): form mode must not collect sensitive data, use URL mode; add
///   `not_sensitive` when the name is a false positive (`token_count`);
/// - a URL in a title, a description or a doc comment: form mode must not show clickable URLs.
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
    let crate_path = attr::crate_path(&cx, input.attrs);
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
        (Ok(()), Some(item)) => {
            let krate = expand::Krate::new(crate_path.as_ref());
            expand::expand(&input, &item, schema.as_ref(), krate).into()
        }
        (Err(error), _) => error.into_compile_error().into(),
        (Ok(()), None) => TokenStream::new(),
    }
}
