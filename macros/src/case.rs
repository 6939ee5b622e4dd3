//! serde's `rename_all` rules.

/// The rules serde accepts.
pub const RULES: [&str; 8] = [
    "lowercase",
    "UPPERCASE",
    "PascalCase",
    "camelCase",
    "snake_case",
    "SCREAMING_SNAKE_CASE",
    "kebab-case",
    "SCREAMING-KEBAB-CASE",
];

/// Applies `rule` to a field name (snake_case), as serde does.
pub fn field(rule: &str, name: &str) -> String {
    match rule {
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => name.to_ascii_uppercase(),
        "PascalCase" => {
            let mut out = String::new();
            let mut upper = true;
            for c in name.chars() {
                if c == '_' {
                    upper = true;
                } else if upper {
                    out.push(c.to_ascii_uppercase());
                    upper = false;
                } else {
                    out.push(c);
                }
            }
            out
        }
        "camelCase" => {
            let pascal = field("PascalCase", name);
            lower_first(&pascal)
        }
        "kebab-case" => name.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => name.to_ascii_uppercase().replace('_', "-"),
        _ => name.to_owned(),
    }
}

/// Applies `rule` to a variant name (PascalCase), as serde does.
pub fn variant(rule: &str, name: &str) -> String {
    match rule {
        "lowercase" => name.to_ascii_lowercase(),
        "UPPERCASE" => name.to_ascii_uppercase(),
        "camelCase" => lower_first(name),
        "snake_case" => {
            let mut out = String::new();
            for (i, c) in name.char_indices() {
                if i > 0 && c.is_uppercase() {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            }
            out
        }
        "SCREAMING_SNAKE_CASE" => variant("snake_case", name).to_ascii_uppercase(),
        "kebab-case" => variant("snake_case", name).replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => variant("SCREAMING_SNAKE_CASE", name).replace('_', "-"),
        _ => name.to_owned(),
    }
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
