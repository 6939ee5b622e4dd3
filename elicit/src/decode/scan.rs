//! The fast path of `from_json_str`: reads the usual shape of a `content` object (one flat
//! object of strings, numbers, booleans, `null` and arrays of those) straight from the bytes.
//!
//! It gives up on anything else (an object or array inside the content, a number it cannot
//! convert on its own) and on every syntax error; the caller then reads the text with
//! serde_json, which reports the exact error. So the scan accepts only texts serde_json
//! accepts, and gives the same members as the serde_json path: numbers are converted by
//! serde_json unless they are short integers, strings unescaped as serde_json does (a lone
//! surrogate gives up, as serde_json refuses it).

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::{Member, Names};
use crate::same_bytes;

/// Reads a `content` object into `members` (by property index, the last occurrence of each),
/// recording the undeclared names in `undeclared` when asked; `None` when the text is not of
/// the shape this scan reads or is malformed (`members` may then hold part of it).
pub(super) fn read_content<'de, const N: usize>(
    json: &'de str,
    names: &Names<N>,
    index: &impl Fn(&str) -> Option<usize>,
    members: &mut [Option<Member<'de>>; N],
    mut undeclared: Option<&mut Option<Map<String, Value>>>,
) -> Option<()> {
    let mut scan = Scanner { text: json, pos: 0 };
    // The property whose name the next key is guessed to be: the one after the last read.
    let mut guess = 0;
    scan.skip_whitespace();
    scan.expect(b'{')?;
    scan.skip_whitespace();
    if !scan.eat(b'}') {
        loop {
            scan.expect(b'"')?;
            let found = match names.guessable(guess) {
                Some(name) if scan.key_is(name) => Some(guess),
                _ => {
                    let key = scan.string()?;
                    let found = index(&key);
                    if let (None, Some(undeclared)) = (found, undeclared.as_deref_mut()) {
                        undeclared
                            .get_or_insert_with(Map::new)
                            .insert(key.into_owned(), Value::Null);
                    }
                    found
                }
            };
            scan.skip_whitespace();
            scan.expect(b':')?;
            scan.skip_whitespace();
            match found {
                // A repeated member replaces the earlier one, as in a `Map`.
                Some(i) => {
                    let value = scan.value()?;
                    if let Some(slot) = members.get_mut(i) {
                        *slot = Some(value);
                    }
                    guess = i + 1;
                }
                None => {
                    scan.value()?;
                }
            }
            scan.skip_whitespace();
            match scan.next()? {
                b',' => scan.skip_whitespace(),
                b'}' => break,
                _ => return None,
            }
        }
    }
    scan.skip_whitespace();
    (scan.pos == json.len()).then_some(())
}

struct Scanner<'de> {
    text: &'de str,
    pos: usize,
}

impl<'de> Scanner<'de> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    /// Consumes `byte` if it comes next.
    #[inline]
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.pos += usize::from(next);
        next
    }

    #[inline]
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    /// JSON's whitespace, as serde_json skips it.
    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Consumes the rest of a key, after its opening quote, when it is `name` (a name without
    /// characters that JSON escapes, so that its text is the name itself).
    #[inline]
    fn key_is(&mut self, name: &str) -> bool {
        let end = self.pos + name.len();
        let bytes = self.text.as_bytes();
        let matches =
            bytes.get(end) == Some(&b'"') && same_bytes(&bytes[self.pos..end], name.as_bytes());
        if matches {
            self.pos = end + 1;
        }
        matches
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.pos + word.len();
        (self.text.as_bytes().get(self.pos..end)? == word).then(|| self.pos = end)
    }

    /// A member's value; an object gives up (it is a type error in any form).
    fn value(&mut self) -> Option<Member<'de>> {
        Some(match self.peek()? {
            b'"' => {
                self.pos += 1;
                Member::Str(self.string()?)
            }
            b'[' => {
                self.pos += 1;
                Member::Array(self.items()?)
            }
            b't' => self.literal(b"true").map(|()| Member::Bool(true))?,
            b'f' => self.literal(b"false").map(|()| Member::Bool(false))?,
            b'n' => self.literal(b"null").map(|()| Member::Null)?,
            b'-' | b'0'..=b'9' => Member::Number(self.number()?),
            _ => return None,
        })
    }

    /// The items of an array, after its `[`: strings, anything else [`Member::Other`]; an
    /// array or object inside gives up.
    fn items(&mut self) -> Option<Vec<Member<'de>>> {
        self.skip_whitespace();
        if self.eat(b']') {
            return Some(Vec::new());
        }
        let mut items = Vec::with_capacity(4);
        loop {
            let item = match self.peek()? {
                b'[' | b'{' => return None,
                _ => match self.value()? {
                    Member::Str(text) => Member::Str(text),
                    _ => Member::Other,
                },
            };
            items.push(item);
            self.skip_whitespace();
            match self.next()? {
                b',' => self.skip_whitespace(),
                b']' => return Some(items),
                _ => return None,
            }
        }
    }

    /// A number. Integers of up to 18 digits are converted here (they fit `u64` and `i64`);
    /// the others, `-0` and every float by serde_json, which converts them as it does for a
    /// `Value` (and refuses `1e400`).
    fn number(&mut self) -> Option<Number> {
        let start = self.pos;
        let negative = self.eat(b'-');
        let digits = self.pos;
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.skip_digits(),
            _ => return None,
        }
        let integer_end = self.pos;
        let mut integer = true;
        if self.eat(b'.') {
            integer = false;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.digits()?;
        }
        if integer && integer_end - digits <= 18 {
            let magnitude = self.text.as_bytes()[digits..integer_end]
                .iter()
                .fold(0u64, |n, digit| n * 10 + u64::from(digit - b'0'));
            match (negative, i64::try_from(magnitude)) {
                (false, _) => return Some(Number::from(magnitude)),
                // `-0` is the float -0.0 in serde_json.
                (true, Ok(magnitude)) if magnitude != 0 => return Some(Number::from(-magnitude)),
                _ => {}
            }
        }
        serde_json::from_str(&self.text[start..self.pos]).ok()
    }

    /// One or more digits.
    fn digits(&mut self) -> Option<()> {
        let start = self.pos;
        self.skip_digits();
        (self.pos > start).then_some(())
    }

    #[inline]
    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    /// A string, after its opening quote: borrowed from the text unless it has escapes.
    #[inline]
    fn string(&mut self) -> Option<Cow<'de, str>> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let end = find_special(bytes, start);
        match *bytes.get(end)? {
            b'"' => {
                self.pos = end + 1;
                // `start` and `end` are next to ASCII quotes: character boundaries.
                Some(Cow::Borrowed(&self.text[start..end]))
            }
            b'\\' => self.escaped(start, end).map(Cow::Owned),
            _ => None, // a control character, which JSON strings cannot hold raw
        }
    }

    /// The rest of a string that has an escape at `escape`.
    #[cold]
    fn escaped(&mut self, start: usize, mut escape: usize) -> Option<String> {
        let bytes = self.text.as_bytes();
        let mut out = String::with_capacity(escape - start + 16);
        let mut plain = start;
        loop {
            out.push_str(&self.text[plain..escape]);
            match *bytes.get(escape)? {
                b'"' => {
                    self.pos = escape + 1;
                    return Some(out);
                }
                b'\\' => {}
                _ => return None,
            }
            let (c, len) = match *bytes.get(escape + 1)? {
                b'"' => ('"', 2),
                b'\\' => ('\\', 2),
                b'/' => ('/', 2),
                b'b' => ('\u{8}', 2),
                b'f' => ('\u{c}', 2),
                b'n' => ('\n', 2),
                b'r' => ('\r', 2),
                b't' => ('\t', 2),
                b'u' => match hex4(bytes, escape + 2)? {
                    high @ 0xD800..=0xDBFF => {
                        if bytes.get(escape + 6..escape + 8)? != b"\\u" {
                            return None;
                        }
                        let low = hex4(bytes, escape + 8)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        (char::from_u32(code)?, 12)
                    }
                    code => (char::from_u32(code)?, 6), // a lone low surrogate is `None`
                },
                _ => return None,
            };
            out.push(c);
            plain = escape + len;
            escape = find_special(bytes, plain);
        }
    }
}

/// The value of the four hex digits at `at`.
fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4)?.iter().try_fold(0, |code, &digit| {
        Some(code * 16 + char::from(digit).to_digit(16)?)
    })
}

/// The index of the first `"`, `\` or control character at or after `at` (`bytes.len()` when
/// there is none), eight bytes at a time.
#[inline]
fn find_special(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(&chunk) = bytes.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let word = u64::from_le_bytes(chunk);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        // The high bit of each byte that is zero (`quote`, `backslash`) or below 0x20 (`word`):
        // exact up to the first such byte, which is all that is read.
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | word.wrapping_sub(ONES * 0x20) & !word)
            & HIGH;
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            break;
        }
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::{find_special, read_content, Scanner};
    use crate::decode::{Member, Names};

    /// The members `read_content` keeps for a form of `names` (strings as their text, others
    /// as `Debug`), or `None` when it gives up; `index` is a plain search, as the derive's
    /// `match` on the name is.
    fn read<const N: usize>(names: [&'static str; N], json: &str) -> Option<[Option<String>; N]> {
        let index = |key: &str| names.iter().position(|name| *name == key);
        let mut members = std::array::from_fn(|_| None);
        read_content(json, &Names::new(names), &index, &mut members, None)?;
        Some(members.map(|member| match member? {
            Member::Str(text) => Some(text.into_owned()),
            other => Some(format!("{other:?}")),
        }))
    }

    fn text(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    #[test]
    fn only_names_written_as_themselves_are_guessed() {
        let names = Names::new(["plain", "quo\"te", "back\\slash", "tab\t", "ünï", ""]);
        let guessable: Vec<_> = (0..7).map(|i| names.guessable(i)).collect();
        assert_eq!(
            guessable,
            [Some("plain"), None, None, None, Some("ünï"), Some(""), None]
        );
    }

    #[test]
    fn keys_are_read_whether_or_not_the_guess_holds() {
        let names = ["a\"b", "x", "y"];
        // In the form's order: each key after the first (whose quote rules out a guess) is
        // guessed.
        assert_eq!(
            read(names, r#"{"a\"b":"1","x":"2","y":"3"}"#),
            Some([text("1"), text("2"), text("3")])
        );
        // Out of order, repeated (the last counts), undeclared, and escaped where the guess
        // would match the unescaped name.
        assert_eq!(
            read(names, r#"{"y":"3","x":"2","zz":"0","x":"4","\u0079":"5"}"#),
            Some([None, text("4"), text("5")])
        );
        // A guess reads the whole key and no more.
        assert_eq!(read(names, r#"{"a"b":"1"}"#), None);
        assert_eq!(read(["x"], r#"{"x"#), None);
        assert_eq!(read(["x"], r#"{"xy":"1"}"#), Some([None]));
        assert_eq!(
            read(["x", "xy"], r#"{"x":"1","xy":"2"}"#),
            Some([text("1"), text("2")])
        );
        assert_eq!(
            read(["xy", "x"], r#"{"x":"1","xy":"2"}"#),
            Some([text("2"), text("1")])
        );
    }

    #[test]
    fn numbers_are_what_serde_json_makes_of_them() {
        for text in [
            "0",
            "-0",
            "7",
            "-7",
            "999999999999999999",
            "-999999999999999999",
            "1000000000000000000",
            "9223372036854775807",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "1.0",
            "-0.0",
            "1e2",
            "2.5E-3",
        ] {
            let expected: serde_json::Number = serde_json::from_str(text).unwrap();
            let mut scan = Scanner { text, pos: 0 };
            let got = scan.number().unwrap();
            // `Number`'s equality does not tell -0.0 from 0.0; its text does.
            assert_eq!(
                (got.to_string(), got.is_f64()),
                (expected.to_string(), expected.is_f64())
            );
            assert_eq!(scan.pos, text.len());
        }
        for text in ["-", "1.", ".5", "1e", "1e+", "-a", "1e400"] {
            assert_eq!(Scanner { text, pos: 0 }.number(), None, "{text}");
        }
    }

    #[test]
    fn find_special_finds_the_first_quote_backslash_or_control_character() {
        for text in [
            "",
            "abc",
            "abcdefgh",
            "abcdefghij",
            "héllo wörld ünïcode",
            "\u{7f}\u{80}\u{ff}x",
        ] {
            assert_eq!(find_special(text.as_bytes(), 0), text.len(), "{text:?}");
        }
        for (text, at) in [
            ("\"", 0),
            ("abcdefg\"", 7),
            ("abcdefgh\\", 8),
            ("ab\u{1f}cd\"", 2),
            ("é\u{0}", 2),
            ("abcdefghijklmno\n\"", 15),
            ("a\"b\\c\u{1}", 1),
        ] {
            assert_eq!(find_special(text.as_bytes(), 0), at, "{text:?}");
        }
        assert_eq!(find_special(b"\"abcdefghijk\"", 1), 12);
    }
}
