//! Schema descriptions → rustdoc that renders cleanly and passes `cargo doc -D warnings`.

use proc_macro2::TokenStream;
use quote::quote;

/// `#[doc = "…"]` attributes for a description (nothing for `None`).
pub fn doc_attrs(text: Option<&str>) -> TokenStream {
    let Some(text) = text else {
        return TokenStream::new();
    };
    let lines = sanitize(text);
    let attrs = lines.iter().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#attrs)*)
}

/// Rewrites schema prose (TypeScript doc comments in origin) for rustdoc: `{@link X}` becomes
/// `` `X` ``; brackets and angle brackets outside code are escaped so rustdoc sees neither
/// intra-doc links nor HTML; bare URLs are wrapped in `<…>`; code fences without a language are
/// marked `text`, and so are Rust ones (a producer's examples are not this crate's doctests);
/// indentation is capped so that no schema prose becomes a doctest.
pub fn sanitize(text: &str) -> Vec<String> {
    let text = replace_links(text);
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            let info = trimmed.trim_end().trim_start_matches('`');
            if !in_fence && info.is_empty() {
                out.push(line.replacen("```", "```text", 1));
            } else if !in_fence && is_rust_fence(info) {
                // A producer's own Rust example (rmcp's doc comments, written against its
                // API) is shown as it is, not compiled as a doctest of the crate that
                // includes it (nor listed among its ignored tests).
                let indent = &line[..line.len() - trimmed.len()];
                out.push(format!("{indent}```text"));
            } else {
                out.push(line.to_owned());
            }
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push(line.to_owned());
            continue;
        }
        let indent = (line.len() - trimmed.len()).min(3);
        out.push(format!(
            "{}{}",
            " ".repeat(indent),
            escape_prose(trimmed.trim_end())
        ));
    }
    if in_fence {
        out.push("```".to_owned());
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// Whether rustdoc would take a fence with this info string for Rust (and so run it): every
/// token is `rust` or one of rustdoc's code block attributes.
fn is_rust_fence(info: &str) -> bool {
    const ATTRIBUTES: [&str; 7] = [
        "rust",
        "ignore",
        "no_run",
        "should_panic",
        "compile_fail",
        "test_harness",
        "standalone_crate",
    ];
    info.split([',', ' ', '\t'])
        .filter(|token| !token.is_empty())
        .all(|token| ATTRIBUTES.contains(&token) || token.starts_with("edition"))
}

fn replace_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{@link ") {
        out.push_str(&rest[..start]);
        let after = &rest[start + "{@link ".len()..];
        match after.find('}') {
            Some(end) => {
                let target = after[..end].trim();
                let target = target.split_whitespace().next().unwrap_or(target);
                out.push('`');
                out.push_str(target);
                out.push('`');
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes one line of prose outside inline code spans.
fn escape_prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
            continue;
        }
        if in_code {
            out.push(c);
            continue;
        }
        if (c == 'h') && (line[i..].starts_with("https://") || line[i..].starts_with("http://")) {
            let end = line[i..]
                .find(|ch: char| {
                    ch.is_whitespace() || ch == ')' || ch == '>' || ch == '"' || ch == '`'
                })
                .map_or(line.len(), |e| i + e);
            let url = line[i..end].trim_end_matches(['.', ',', ';', ':']);
            out.push('<');
            out.push_str(url);
            out.push('>');
            let consumed_end = i + url.len();
            while chars.peek().is_some_and(|(j, _)| *j < consumed_end) {
                chars.next();
            }
            continue;
        }
        match c {
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    if in_code {
        // An unbalanced backtick would swallow the next line's text into code.
        out.push('`');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn links_brackets_and_urls_are_made_safe() {
        let lines =
            sanitize("See {@link CallToolResult} and [key: string].\nVisit https://example.com/x.");
        assert_eq!(
            lines,
            vec![
                "See `CallToolResult` and \\[key: string\\].",
                "Visit <https://example.com/x>."
            ]
        );
    }

    #[test]
    fn fences_get_a_language_and_indentation_is_capped() {
        let lines = sanitize("a\n```\nlet x = 1;\n```\n        deep");
        assert_eq!(lines, vec!["a", "```text", "let x = 1;", "```", "   deep"]);
    }

    #[test]
    fn rust_fences_are_shown_not_run() {
        let lines = sanitize("e.g.\n  ```rust,no_run\nlet x = 1;\n  ```\n```ts\nconst y = 2;\n```");
        assert_eq!(
            lines,
            vec![
                "e.g.",
                "  ```text",
                "let x = 1;",
                "  ```",
                "```ts",
                "const y = 2;",
                "```"
            ]
        );
    }

    #[test]
    fn code_spans_are_left_alone() {
        assert_eq!(sanitize("`Vec<T>` < 3"), vec!["`Vec<T>` &lt; 3"]);
    }
}
