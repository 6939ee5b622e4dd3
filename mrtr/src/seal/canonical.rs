//! The canonical text a [`ParamsDigest`](super::ParamsDigest) is computed over, read from the
//! JSON text of the params themselves, the text a tool reads its arguments from.
//!
//! The same value gives the same text however it was written on the wire, and two values a
//! reader could tell apart never do:
//! - object members sorted by the UTF-16 code units of their names (as RFC 8785 does), no
//!   whitespace; an object with two members of the same name (after unescaping) is refused,
//!   since readers disagree on which one counts;
//! - strings by their code units: escapes resolved, written back one way (`\"`, `\\`, control
//!   characters and lone surrogates as `\uxxxx`, everything else as itself), so a lone surrogate
//!   is digested rather than refused;
//! - numbers by their exact decimal value, whatever their range: `1`, `1.0`, `10e-1` and
//!   `0.1E1` are the same number, written `1`; `100000000000000000000` and
//!   `100000000000000000001` are two (a `f64` would confuse them), and `1e400` is digested like
//!   any other. The form is the significant digits without leading or trailing zeros, then
//!   `e` and the exponent when it is not zero (`25e-1`, `1e2`, `-7`, `0`).

use std::fmt::Write as _;

/// How deep arrays and objects may nest (serde_json refuses deeper input when decoding).
const MAX_DEPTH: usize = 256;

/// Why a text has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CanonicalError {
    /// An object has two members of this name; `pointer` is the object's JSON pointer.
    DuplicateMember {
        /// The JSON pointer of the object.
        pointer: String,
        /// The repeated name.
        name: String,
    },
    /// Not JSON, or nested deeper than the limit, at this byte offset.
    Syntax {
        /// The byte offset.
        offset: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// A number whose exponent does not fit in 64 bits.
    ExponentRange {
        /// The JSON pointer of the number.
        pointer: String,
    },
}

impl std::fmt::Display for CanonicalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::DuplicateMember { pointer, name } => {
                write!(
                    f,
                    "the object at `{pointer}` has two members named `{name}`"
                )
            }
            Self::Syntax { offset, expected } => {
                write!(
                    f,
                    "not canonical JSON at byte {offset}: expected {expected}"
                )
            }
            Self::ExponentRange { pointer } => {
                write!(f, "the number at `{pointer}` has an exponent out of range")
            }
        }
    }
}

impl std::error::Error for CanonicalError {}

/// The canonical text of the JSON `text`, leaving out the top-level members named in
/// `excluded` when the value is an object.
pub(super) fn canonical(text: &str, excluded: &[&str]) -> Result<String, CanonicalError> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
        pointer: String::new(),
    };
    reader.blank();
    let value = reader.value(0)?;
    reader.blank();
    if reader.at != reader.bytes.len() {
        return Err(reader.syntax("the end of the text"));
    }
    let value = match value {
        Node::Object(members) => Node::Object(
            members
                .into_iter()
                .filter(|(name, _)| {
                    !excluded
                        .iter()
                        .any(|e| e.encode_utf16().eq(name.iter().copied()))
                })
                .collect(),
        ),
        other => other,
    };
    let mut out = String::with_capacity(text.len());
    value.write(&mut out);
    Ok(out)
}

/// A parsed value: strings as UTF-16 code units (lone surrogates kept), numbers already in
/// their canonical form, object members sorted.
enum Node {
    Null,
    Bool(bool),
    Number(String),
    String(Vec<u16>),
    Array(Vec<Node>),
    Object(Vec<(Vec<u16>, Node)>),
}

impl Node {
    fn write(&self, out: &mut String) {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(true) => out.push_str("true"),
            Node::Bool(false) => out.push_str("false"),
            Node::Number(number) => out.push_str(number),
            Node::String(units) => write_string(units, out),
            Node::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Node::Object(members) => {
                out.push('{');
                for (i, (name, member)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(name, out);
                    out.push(':');
                    member.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_string(units: &[u16], out: &mut String) {
    out.push('"');
    for unit in char::decode_utf16(units.iter().copied()) {
        match unit {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok(c) if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            Ok(c) => out.push(c),
            Err(lone) => {
                let _ = write!(out, "\\u{:04x}", lone.unpaired_surrogate());
            }
        }
    }
    out.push('"');
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The JSON pointer of the value being read, for errors.
    pointer: String,
}

impl Reader<'_> {
    fn syntax(&self, expected: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: self.at,
            expected,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8, expected: &'static str) -> Result<(), CanonicalError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn literal(&mut self, word: &'static str, node: Node) -> Result<Node, CanonicalError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(node)
        } else {
            Err(self.syntax(word))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, CanonicalError> {
        if depth > MAX_DEPTH {
            return Err(self.syntax("less nesting"));
        }
        match self.peek() {
            Some(b'n') => self.literal("null", Node::Null),
            Some(b't') => self.literal("true", Node::Bool(true)),
            Some(b'f') => self.literal("false", Node::Bool(false)),
            Some(b'"') => self.string().map(Node::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Node::Number),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.blank();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(Node::Array(items));
                }
                loop {
                    let len = self.pointer.len();
                    let _ = write!(self.pointer, "/{}", items.len());
                    self.blank();
                    items.push(self.value(depth + 1)?);
                    self.pointer.truncate(len);
                    self.blank();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Node::Array(items));
                        }
                        _ => return Err(self.syntax("`,` or `]`")),
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut members: Vec<(Vec<u16>, Node)> = Vec::new();
                self.blank();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(Node::Object(members));
                }
                loop {
                    self.blank();
                    if self.peek() != Some(b'"') {
                        return Err(self.syntax("a member name"));
                    }
                    let name = self.string()?;
                    self.blank();
                    self.eat(b':', "`:`")?;
                    self.blank();
                    let len = self.pointer.len();
                    self.pointer.push('/');
                    let readable = String::from_utf16_lossy(&name);
                    self.pointer
                        .push_str(&readable.replace('~', "~0").replace('/', "~1"));
                    let member = self.value(depth + 1)?;
                    self.pointer.truncate(len);
                    members.push((name, member));
                    self.blank();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            break;
                        }
                        _ => return Err(self.syntax("`,` or `}`")),
                    }
                }
                members.sort_by(|(a, _), (b, _)| a.cmp(b));
                if let Some(pair) = members.windows(2).find(|pair| pair[0].0 == pair[1].0) {
                    return Err(CanonicalError::DuplicateMember {
                        pointer: self.pointer.clone(),
                        name: String::from_utf16_lossy(&pair[0].0),
                    });
                }
                Ok(Node::Object(members))
            }
            _ => Err(self.syntax("a JSON value")),
        }
    }

    /// A string's code units, escapes resolved.
    fn string(&mut self) -> Result<Vec<u16>, CanonicalError> {
        self.eat(b'"', "`\"`")?;
        let mut units = Vec::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The input is a `str`, and the run stops at ASCII bytes: a whole UTF-8 sequence.
            let run = std::str::from_utf8(&self.bytes[start..self.at])
                .map_err(|_| self.syntax("UTF-8"))?;
            units.extend(run.encode_utf16());
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(units);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.peek().ok_or_else(|| self.syntax("an escape"))?;
                    self.at += 1;
                    units.push(match escaped {
                        b'"' => u16::from(b'"'),
                        b'\\' => u16::from(b'\\'),
                        b'/' => u16::from(b'/'),
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => u16::from(b'\n'),
                        b'r' => u16::from(b'\r'),
                        b't' => u16::from(b'\t'),
                        b'u' => {
                            let hex = self
                                .bytes
                                .get(self.at..self.at + 4)
                                .and_then(|hex| std::str::from_utf8(hex).ok())
                                .and_then(|hex| u16::from_str_radix(hex, 16).ok())
                                .ok_or_else(|| self.syntax("four hex digits"))?;
                            self.at += 4;
                            hex
                        }
                        _ => return Err(self.syntax("an escape")),
                    });
                }
                _ => return Err(self.syntax("the end of the string")),
            }
        }
    }

    /// A number in its canonical form.
    fn number(&mut self) -> Result<String, CanonicalError> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let digits_start = self.at;
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.at += 1;
                }
            }
            _ => return Err(self.syntax("a digit")),
        }
        let integer = &self.bytes[digits_start..self.at];
        let mut fraction: &[u8] = &[];
        if self.peek() == Some(b'.') {
            self.at += 1;
            let start = self.at;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.at += 1;
            }
            if start == self.at {
                return Err(self.syntax("a digit after `.`"));
            }
            fraction = &self.bytes[start..self.at];
        }
        let mut exponent: i128 = 0;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            let sign = match self.peek() {
                Some(b'-') => {
                    self.at += 1;
                    -1
                }
                Some(b'+') => {
                    self.at += 1;
                    1
                }
                _ => 1,
            };
            let start = self.at;
            while let Some(digit @ b'0'..=b'9') = self.peek() {
                self.at += 1;
                // Saturates far beyond what an i64 holds: checked below.
                exponent = (exponent * 10 + i128::from(digit - b'0')).min(i128::from(u64::MAX));
            }
            if start == self.at {
                return Err(self.syntax("a digit in the exponent"));
            }
            exponent *= sign;
        }
        // The value is `digits × 10^(exponent − fraction.len())`, digits stripped of their
        // leading zeros (the value's) and trailing zeros (moved into the exponent).
        let all: Vec<u8> = integer.iter().chain(fraction).copied().collect();
        let significant = match all.iter().position(|&d| d != b'0') {
            None => return Ok("0".to_owned()),
            Some(first) => &all[first..],
        };
        let last = significant.iter().rposition(|&d| d != b'0').unwrap_or(0);
        let trailing = significant.len() - 1 - last;
        let exponent = exponent - fraction.len() as i128 + trailing as i128;
        let exponent = i64::try_from(exponent).map_err(|_| CanonicalError::ExponentRange {
            pointer: self.pointer.clone(),
        })?;
        let mut out = String::with_capacity(last + 8);
        if negative {
            out.push('-');
        }
        out.extend(significant[..=last].iter().map(|&d| char::from(d)));
        if exponent != 0 {
            let _ = write!(out, "e{exponent}");
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::{canonical, CanonicalError};

    fn text(json: &str) -> String {
        canonical(json, &[]).unwrap()
    }

    #[test]
    fn members_are_sorted_and_numbers_exact() {
        assert_eq!(
            text(
                r#"{"b": [1.0, -0.0, 2.5, -3, 10e-1, 0.1E1, 1200], "a": {"z": null, "é": "\n", "Z": true}}"#
            ),
            r#"{"a":{"Z":true,"z":null,"é":"\u000a"},"b":[1,0,25e-1,-3,1,1,12e2]}"#
        );
        assert_ne!(text("100000000000000000000"), text("100000000000000000001"));
        assert_eq!(text("1e400"), "1e400");
        assert_eq!(text("0.000e-99999999999999999999999"), "0");
    }

    #[test]
    fn utf16_order_and_escapes() {
        // U+1F600 (the surrogates 0xD83D 0xDE00) sorts before U+FB01 in UTF-16, after it in
        // UTF-8 (F0 … against EF …).
        assert_eq!(
            text("{\"\u{FB01}\": 2, \"\u{1F600}\": 1}"),
            "{\"\u{1F600}\":1,\"\u{FB01}\":2}"
        );
        assert_eq!(text(r#""\u0041\/\ud83d\ude00""#), "\"A/\u{1F600}\"");
        assert_eq!(text(r#""\ud800x""#), r#""\ud800x""#);
    }

    #[test]
    fn duplicates_are_refused_after_unescaping() {
        assert_eq!(
            canonical(r#"{"a":{"repo":"prod","r\u0065po":"demo"}}"#, &[]),
            Err(CanonicalError::DuplicateMember {
                pointer: "/a".to_owned(),
                name: "repo".to_owned()
            })
        );
    }

    #[test]
    fn excluded_members_and_errors() {
        assert_eq!(
            canonical(r#"{"_meta":{"x":1},"name":"n"}"#, &["_meta"]).unwrap(),
            r#"{"name":"n"}"#
        );
        assert!(canonical("{\"a\":1,}", &[]).is_err());
        assert!(canonical("01", &[]).is_err());
        assert!(canonical(&"[".repeat(300), &[]).is_err());
        assert!(matches!(
            canonical("1e99999999999999999999", &[]),
            Err(CanonicalError::ExponentRange { .. })
        ));
    }
}
