//! The canonical JSON text a [`ParamsDigest`](super::ParamsDigest) is computed over.
//!
//! The same value always gives the same text, however it was written on the wire: object
//! members sorted by the UTF-16 code units of their names (as RFC 8785 does), no whitespace,
//! strings escaped as serde_json escapes them, integers in decimal, and a floating-point number
//! with an integral value below 2^53 written as that integer (`1.0` and `1` are the same
//! number). Other floating-point numbers are written in Rust's shortest round-trip form.

use std::fmt::Write as _;

use serde_json::{Number, Value};

/// Appends the canonical text of `value` to `out`.
pub(super) fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => write_number(number, out),
        Value::String(text) => write_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, (name, member)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(name, out);
                out.push(':');
                write(member, out);
            }
            out.push('}');
        }
    }
}

fn write_string(text: &str, out: &mut String) {
    // Serializing a `str` cannot fail.
    if let Ok(quoted) = serde_json::to_string(text) {
        out.push_str(&quoted);
    }
}

fn write_number(number: &Number, out: &mut String) {
    if let Some(n) = number.as_u64() {
        let _ = write!(out, "{n}");
    } else if let Some(n) = number.as_i64() {
        let _ = write!(out, "{n}");
    } else if let Some(x) = number.as_f64() {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        if x == 0.0 {
            out.push('0');
        } else if x.fract() == 0.0 && x.abs() < EXACT {
            let _ = write!(out, "{}", x as i64);
        } else {
            let _ = write!(out, "{x}");
        }
    } else {
        // Only with serde_json's `arbitrary_precision`: keep the text.
        let _ = write!(out, "{number}");
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn canonical(value: serde_json::Value) -> String {
        let mut out = String::new();
        super::write(&value, &mut out);
        out
    }

    #[test]
    fn members_are_sorted_and_numbers_normalized() {
        assert_eq!(
            canonical(json!({"b": [1.0, -0.0, 2.5, -3], "a": {"z": null, "é": "\n", "Z": true}})),
            r#"{"a":{"Z":true,"z":null,"é":"\n"},"b":[1,0,2.5,-3]}"#
        );
    }

    #[test]
    fn utf16_order() {
        // U+1F600 (the surrogates 0xD83D 0xDE00) sorts before U+FB01 in UTF-16, after it in
        // UTF-8 (F0 … against EF …).
        assert_eq!(
            canonical(json!({"\u{FB01}": 2, "\u{1F600}": 1})),
            "{\"\u{1F600}\":1,\"\u{FB01}\":2}"
        );
    }
}
