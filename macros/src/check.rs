//! The specification's rules that a form must satisfy, checked at compile time.
//!
//! The consistency rules of a form (bounds, defaults, options, patterns, formats) are
//! `mcp-elicit`'s: the model of the form (`model.rs`) goes through the checks of
//! `RequestedSchema::problems`, and each problem's JSON pointer is mapped back to the field or
//! attribute at fault, with the message `mcp-elicit` gives to a client that checks the same form.
//! Two lints are the macro's own, because only the Rust source has them: names that ask for
//! secrets, and URLs in the texts a client shows.

use mcp_elicit::RequestedSchema;

use crate::ast::{Data, Field, Input, Item, Variant};
use crate::attr::Sp;
use crate::ctxt::Ctxt;
use crate::model;

/// Single words of a field name that ask for a secret.
const SECRET_WORDS: [&str; 13] = [
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "cvv",
    "cvc",
    "ssn",
    "pin",
    "otp",
    "iban",
];

/// Pairs of consecutive words that ask for a secret.
const SECRET_PAIRS: [(&str, &str); 7] = [
    ("api", "key"),
    ("private", "key"),
    ("secret", "key"),
    ("access", "key"),
    ("card", "number"),
    ("credit", "card"),
    ("security", "code"),
];

/// Checks a struct (with `schema`, its model) or an enum.
pub fn check(cx: &Ctxt, input: &Input, item: &Item, schema: Option<&RequestedSchema>) {
    match item {
        Item::Struct(fields, _) => {
            for field in fields {
                lint_field(cx, field);
            }
            if let Some(schema) = schema {
                for (index, problem) in mcp_elicit::__private::derive::problems(schema) {
                    // A problem of `required` (`index` is `None`), which the macro writes from
                    // the fields, follows from a duplicate property, reported at its field.
                    if let Some(field) = index.and_then(|index| fields.get(index)) {
                        cx.error(model::span(field, &problem.pointer), problem.message);
                    }
                }
            }
        }
        Item::Enum(variants) => {
            for variant in variants {
                if let Some(title) = &variant.attrs.title {
                    no_url(cx, title, "title");
                }
            }
            // A variant with data was refused already: the options would be incomplete.
            let declared = match input.data {
                Data::Enum(all) => all.len(),
                _ => variants.len(),
            };
            if declared == variants.len() {
                check_options(cx, input, variants);
            }
        }
    }
}

/// The options of an enum are those of a select field of its type: checked as such a field.
fn check_options(cx: &Ctxt, input: &Input, variants: &[Variant]) {
    let name = input.ident.to_string();
    let schema = model::select(&name, model::options(variants));
    let property = mcp_elicit::pointer("/properties", &name);
    for problem in schema.problems() {
        // `/enum/<index>` or `/oneOf/<index>/const`: that variant; the list itself: the enum.
        let variant = problem
            .pointer
            .strip_prefix(property.as_str())
            .and_then(|rest| rest.split('/').nth(2))
            .and_then(|index| index.parse::<usize>().ok())
            .and_then(|index| variants.get(index));
        let span = variant.map_or_else(|| input.ident.span(), |variant| variant.ident.span());
        cx.error(span, problem.message);
    }
}

fn no_url(cx: &Ctxt, text: &Sp<String>, what: &str) {
    let lower = text.value.to_ascii_lowercase();
    if lower.contains("http://") || lower.contains("https://") {
        cx.error(
            text.span,
            format!(
                "a URL in a {what}: the spec forbids clickable URLs in form mode; remove the \
                 URL or send it with URL-mode elicitation"
            ),
        );
    }
}

/// The words of a name: split at `_`, `-` and lower-to-upper case changes, lowercased.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || !c.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn sensitive(name: &str) -> Option<String> {
    let words = words(name);
    for word in &words {
        if SECRET_WORDS.contains(&word.as_str()) {
            return Some(word.clone());
        }
    }
    for pair in words.windows(2) {
        if SECRET_PAIRS.contains(&(pair[0].as_str(), pair[1].as_str())) {
            return Some(format!("{}_{}", pair[0], pair[1]));
        }
    }
    None
}

/// The lints of a field: URLs in its texts, a name that asks for a secret.
fn lint_field(cx: &Ctxt, field: &Field) {
    let attrs = &field.attrs;
    if let Some(title) = &attrs.title {
        no_url(cx, title, "title");
    }
    if let Some(description) = &attrs.description {
        no_url(cx, description, "description");
    } else if let Some(doc) = &attrs.doc {
        no_url(cx, doc, "doc comment (the default description)");
    }
    if !attrs.not_sensitive {
        let found = sensitive(&field.ident.to_string()).or_else(|| sensitive(&field.name));
        if let Some(word) = found {
            cx.error(
                field.ident.span(),
                format!(
                    "field `{}` asks for sensitive data (`{word}`): form mode MUST NOT collect \
                     sensitive data — use URL mode; if this is a false positive, add \
                     #[elicit(not_sensitive)]",
                    field.ident
                ),
            );
        }
    }
}
