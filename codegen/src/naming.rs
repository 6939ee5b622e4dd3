//! Rust names for schema names, following the Rust API guidelines.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

use crate::schema_error::{err, SchemaError};

/// Acronyms that schema names run together (`JSONRPCRequest`), longest first.
const ACRONYMS: &[&str] = &[
    "JSONRPC", "JSON", "HTTP", "MIME", "URL", "URI", "RPC", "MCP", "API", "ID",
];

/// Splits a run of capitals such as `JSONRPC` into known acronyms (`JSON`, `RPC`); `None` if the
/// run is not made only of them.
fn split_acronyms(run: &str) -> Option<Vec<&str>> {
    if run.is_empty() {
        return Some(Vec::new());
    }
    for acronym in ACRONYMS {
        if let Some(rest) = run.strip_prefix(acronym) {
            if *acronym == "JSONRPC" {
                let mut parts = vec!["JSON", "RPC"];
                parts.extend(split_acronyms(rest)?);
                return Some(parts);
            }
            if let Some(mut parts) = split_acronyms(rest) {
                parts.insert(0, acronym);
                return Some(parts);
            }
        }
    }
    None
}

/// The words of a schema name: `URLElicitationRequiredError` → `URL`, `Elicitation`, …
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if c.is_uppercase() => {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            }
            _ => false,
        };
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .into_iter()
        .flat_map(|w| {
            let upper = w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit());
            match split_acronyms(&w).filter(|_| upper) {
                Some(parts) if parts.len() > 1 => parts.into_iter().map(str::to_owned).collect(),
                _ => vec![w],
            }
        })
        .collect()
}

/// The Rust type name of a schema definition: `JSONRPCRequest` → `JsonRpcRequest`,
/// `ElicitRequestURLParams` → `ElicitRequestUrlParams`.
pub fn type_name(schema_name: &str) -> String {
    let mut out = String::new();
    for word in words(schema_name) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(&chars.as_str().to_lowercase());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// The words of a Rust type name (`JsonRpcRequest` → `Json`, `Rpc`, `Request`).
pub fn type_name_words(rust_name: &str) -> Vec<String> {
    words(rust_name)
}

/// A PascalCase name part for a property or value (`mimeType` → `MimeType`, `date-time` →
/// `DateTime`), with `prefix` added when it would not start with a letter.
pub fn pascal(text: &str, prefix: &str) -> String {
    let out = text.to_upper_camel_case();
    if out.is_empty() {
        return format!("{prefix}Empty");
    }
    if out.starts_with(|c: char| !c.is_ascii_alphabetic()) {
        return format!("{prefix}{out}");
    }
    out
}

/// The Rust field name of a member: `mimeType` → `mime_type`, `_meta` → `meta`,
/// `type` → `r#type`.
pub fn field_name(json_name: &str) -> String {
    let snake = json_name.to_snake_case();
    let snake = if snake.is_empty() {
        "field".to_owned()
    } else {
        snake
    };
    let snake = if snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{snake}")
    } else {
        snake
    };
    match snake.as_str() {
        "self" | "super" | "crate" | "Self" => format!("{snake}_"),
        s if is_keyword(s) => format!("r#{s}"),
        _ => snake,
    }
}

/// The Rust name of an associated constant for a member (`jsonrpc` → `JSONRPC`).
pub fn const_name(json_name: &str) -> String {
    let name = json_name.to_shouty_snake_case();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("C_{name}")
    } else {
        name
    }
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// Refuses a Rust name that cannot be written as an identifier. Naming keeps every alphanumeric
/// character, and some are not identifier characters (`x²`: `²` is numeric): emitting such a
/// name made `proc_macro2::Ident::new` panic. `Self` passes: the emitter writes it as `Self_`.
pub(crate) fn check_identifier(name: &str, pointer: &str, what: &str) -> Result<(), SchemaError> {
    if name == "Self" || syn::parse_str::<syn::Ident>(name).is_ok() {
        return Ok(());
    }
    err(
        pointer,
        format!("{what} `{name}` is not a valid Rust identifier"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_follow_api_guidelines() {
        assert_eq!(type_name("JSONRPCRequest"), "JsonRpcRequest");
        assert_eq!(type_name("JSONRPCErrorResponse"), "JsonRpcErrorResponse");
        assert_eq!(
            type_name("URLElicitationRequiredError"),
            "UrlElicitationRequiredError"
        );
        assert_eq!(
            type_name("ElicitRequestURLParams"),
            "ElicitRequestUrlParams"
        );
        assert_eq!(type_name("JSONValue"), "JsonValue");
        assert_eq!(type_name("CallToolResult"), "CallToolResult");
        assert_eq!(type_name("Icons"), "Icons");
    }

    #[test]
    fn field_names_are_snake_case_and_legal() {
        assert_eq!(field_name("mimeType"), "mime_type");
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("ref"), "r#ref");
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(
            field_name("io.modelcontextprotocol/clientCapabilities"),
            "io_modelcontextprotocol_client_capabilities"
        );
        assert_eq!(const_name("jsonrpc"), "JSONRPC");
        assert_eq!(pascal("date-time", "V"), "DateTime");
        assert_eq!(pascal("2.0", "V"), "V20");
    }
}
