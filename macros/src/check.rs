//! The specification's rules that a form must satisfy, checked at compile time.

use crate::ast::{Field, Item, Kind, Variant};
use crate::attr::{DefaultValue, Num, Sp};
use crate::ctxt::Ctxt;

const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

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

pub fn check(cx: &Ctxt, item: &Item) {
    match item {
        Item::Struct(fields, _) => {
            for (index, field) in fields.iter().enumerate() {
                if fields[..index].iter().any(|f| f.name == field.name) {
                    cx.error(
                        field.ident.span(),
                        format!(
                            "duplicate property name `{}`: two fields are written under the same \
                             name; rename one of them",
                            field.name
                        ),
                    );
                }
                check_field(cx, field);
            }
        }
        Item::Enum(variants) => check_variants(cx, variants),
    }
}

fn check_variants(cx: &Ctxt, variants: &[Variant]) {
    for (index, variant) in variants.iter().enumerate() {
        if variants[..index].iter().any(|v| v.value == variant.value) {
            cx.error(
                variant.ident.span(),
                format!(
                    "duplicate option value `{}`: each variant needs a distinct value; rename \
                     one of them",
                    variant.value
                ),
            );
        }
        if let Some(title) = &variant.attrs.title {
            no_url(cx, title, "title");
        }
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

fn wrong_kind<T>(cx: &Ctxt, attr: &Option<Sp<T>>, name: &str, applies: &str, field: &Field) {
    if let Some(attr) = attr {
        cx.error(
            attr.key,
            format!(
                "`{name}` applies to {applies}, but `{}` is {}; remove it",
                field.ident,
                field.kind.describe()
            ),
        );
    }
}

fn bounds(cx: &Ctxt, min: &Option<Sp<u64>>, max: &Option<Sp<u64>>, min_name: &str, max_name: &str) {
    if let (Some(min), Some(max)) = (min, max) {
        if min.value > max.value {
            cx.error(
                min.span,
                format!(
                    "contradictory bounds: {min_name} = {} is greater than {max_name} = {}; no \
                     answer could satisfy both",
                    min.value, max.value
                ),
            );
        }
    }
}

/// What a value of each format looks like, for the message of a default that is not one.
fn format_rule(format: &str) -> &'static str {
    match format {
        "email" => "an RFC 5321 mailbox such as `name@example.com`",
        "uri" => "an RFC 3986 absolute URI, with a scheme, such as `https://example.com/`",
        "date" => "an RFC 3339 full-date that exists, such as `2024-02-29`",
        _ => "an RFC 3339 date-time with an offset, such as `2024-02-29T12:00:00Z`",
    }
}

fn check_field(cx: &Ctxt, field: &Field) {
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

    let string = "string fields";
    let number = "integer and number fields";
    let multi = "multi-select fields (Vec/BTreeSet/HashSet of an enum)";
    if !matches!(field.kind, Kind::String) {
        wrong_kind(cx, &attrs.min_length, "min_length", string, field);
        wrong_kind(cx, &attrs.max_length, "max_length", string, field);
        wrong_kind(cx, &attrs.pattern, "pattern", string, field);
        wrong_kind(cx, &attrs.format, "format", string, field);
    }
    if !matches!(field.kind, Kind::Int(_) | Kind::Float(_)) {
        wrong_kind(cx, &attrs.minimum, "minimum", number, field);
        wrong_kind(cx, &attrs.maximum, "maximum", number, field);
    }
    if !matches!(field.kind, Kind::Multi(..)) {
        wrong_kind(cx, &attrs.min_items, "min_items", multi, field);
        wrong_kind(cx, &attrs.max_items, "max_items", multi, field);
    }

    let default = attrs.default.as_ref();
    let wrong_default = |expected: &str| {
        if let Some(d) = default {
            cx.error(
                d.span,
                format!(
                    "`default` of {} must be {expected}, found {}",
                    field.kind.describe(),
                    d.value.describe()
                ),
            );
        }
    };

    match &field.kind {
        Kind::String => {
            bounds(
                cx,
                &attrs.min_length,
                &attrs.max_length,
                "min_length",
                "max_length",
            );
            if let Some(format) = &attrs.format {
                if !FORMATS.contains(&format.value.as_str()) {
                    cx.error(
                        format.span,
                        format!(
                            "unknown format `{}`: form mode allows only \"email\", \"uri\", \
                             \"date\" and \"date-time\"; use `pattern` for anything else",
                            format.value
                        ),
                    );
                }
            }
            let regex =
                attrs.pattern.as_ref().and_then(|pattern| {
                    match regress::Regex::with_flags(&pattern.value, "u") {
                        Ok(regex) => Some(regex),
                        Err(error) => {
                            cx.error(
                                pattern.span,
                                format!(
                                    "invalid `pattern`: {error}; it must be an ECMA-262 regular \
                                 expression"
                                ),
                            );
                            None
                        }
                    }
                });
            match default.map(|d| &d.value) {
                None => {}
                Some(DefaultValue::Str(s)) => {
                    let d = default.expect("present");
                    let length = s.chars().count() as u64;
                    if let Some(min) = attrs.min_length.as_ref().filter(|m| length < m.value) {
                        cx.error(
                            d.span,
                            format!(
                                "`default` is outside the bounds: {length} characters, shorter \
                                 than min_length = {}",
                                min.value
                            ),
                        );
                    }
                    if let Some(max) = attrs.max_length.as_ref().filter(|m| length > m.value) {
                        cx.error(
                            d.span,
                            format!(
                                "`default` is outside the bounds: {length} characters, longer \
                                 than max_length = {}",
                                max.value
                            ),
                        );
                    }
                    if let Some(regex) = &regex {
                        if regex.find(s).is_none() {
                            cx.error(d.span, "`default` does not match `pattern`");
                        }
                    }
                    if let Some(format) = &attrs.format {
                        // The very check the form runs on answers (same crate).
                        let parsed = format.value.parse::<mcp_elicit::StringFormat>();
                        if parsed.is_ok_and(|parsed| !parsed.is_valid(s)) {
                            cx.error(
                                d.span,
                                format!(
                                    "`default` is not a valid `{}`: the client would pre-fill an \
                                     answer the form's own `format` check rejects; write {}, or \
                                     remove the default",
                                    format.value,
                                    format_rule(&format.value)
                                ),
                            );
                        }
                    }
                }
                Some(_) => wrong_default("a string literal"),
            }
        }
        Kind::Bool => {
            if !matches!(
                default.map(|d| &d.value),
                None | Some(DefaultValue::Bool(_))
            ) {
                wrong_default("`true` or `false`");
            }
        }
        Kind::Int(int) => {
            let mut lo = int.min;
            let mut hi = int.max;
            for (attr, name) in [(&attrs.minimum, "minimum"), (&attrs.maximum, "maximum")] {
                let Some(attr) = attr else { continue };
                match attr.value {
                    Num::Float(_) => cx.error(
                        attr.span,
                        format!("`{name}` of an integer field must be an integer literal"),
                    ),
                    Num::Int(v) if v < int.min || v > int.max => cx.error(
                        attr.span,
                        format!(
                            "`{name}` = {v} is outside the range of `{}` ({}..={}): narrow the \
                             range or use a wider integer type",
                            int.name, int.min, int.max
                        ),
                    ),
                    Num::Int(v) => {
                        if name == "minimum" {
                            lo = v;
                        } else {
                            hi = v;
                        }
                    }
                }
            }
            if let (Some(min), Some(_)) = (&attrs.minimum, &attrs.maximum) {
                if lo > hi {
                    cx.error(
                        min.span,
                        format!(
                            "contradictory bounds: minimum = {lo} is greater than maximum = \
                             {hi}; no answer could satisfy both"
                        ),
                    );
                }
            }
            match default.map(|d| &d.value) {
                None => {}
                Some(DefaultValue::Num(Num::Int(v))) if *v < lo || *v > hi => {
                    cx.error(
                        default.expect("present").span,
                        format!("`default` = {v} is outside the bounds {lo}..={hi}"),
                    );
                }
                Some(DefaultValue::Num(Num::Int(_))) => {}
                Some(_) => wrong_default("an integer literal"),
            }
        }
        Kind::Float(_) => {
            let lo = attrs.minimum.as_ref().map(|m| m.value.as_f64());
            let hi = attrs.maximum.as_ref().map(|m| m.value.as_f64());
            if let (Some(min), Some(max)) = (&attrs.minimum, &attrs.maximum) {
                if min.value.as_f64() > max.value.as_f64() {
                    cx.error(
                        min.span,
                        format!(
                            "contradictory bounds: minimum = {} is greater than maximum = {}; \
                             no answer could satisfy both",
                            min.value, max.value
                        ),
                    );
                }
            }
            match default.map(|d| &d.value) {
                None => {}
                Some(DefaultValue::Num(n)) => {
                    let v = n.as_f64();
                    if lo.is_some_and(|lo| v < lo) || hi.is_some_and(|hi| v > hi) {
                        cx.error(
                            default.expect("present").span,
                            format!("`default` = {n} is outside the bounds (minimum/maximum)"),
                        );
                    }
                }
                Some(_) => wrong_default("a number literal"),
            }
        }
        Kind::Enum(..) => {
            if !matches!(default.map(|d| &d.value), None | Some(DefaultValue::Str(_))) {
                wrong_default("a string literal naming an option value");
            }
        }
        Kind::Multi(..) => {
            bounds(
                cx,
                &attrs.min_items,
                &attrs.max_items,
                "min_items",
                "max_items",
            );
            match default.map(|d| &d.value) {
                None => {}
                Some(DefaultValue::List(values)) => {
                    let d = default.expect("present");
                    let n = values.len() as u64;
                    if attrs.min_items.as_ref().is_some_and(|m| n < m.value)
                        || attrs.max_items.as_ref().is_some_and(|m| n > m.value)
                    {
                        cx.error(
                            d.span,
                            format!(
                                "`default` selects {n} options, outside the bounds \
                                 (min_items/max_items)"
                            ),
                        );
                    }
                }
                Some(_) => wrong_default("a list of option values (`[\"a\", \"b\"]`)"),
            }
        }
    }
}
