//! The canonical text a [`ParamsDigest`](super::ParamsDigest) is computed over, read from the
//! JSON text of the params themselves, the text a tool reads its arguments from.
//!
//! The same value gives the same text however it was written on the wire, and two values a
//! reader could tell apart never do:
//! - object members sorted by the UTF-16 code units of their names (as RFC 8785 does), no
//!   whitespace; an object with two members of the same name (after unescaping) is refused,
//!   since readers disagree on which one counts;
//! - strings by their code units: escapes resolved (`\u` takes exactly four hex digits), written
//!   back one way (`\"`, `\\`, control characters and lone surrogates as `\uxxxx`, everything
//!   else as itself), so a lone surrogate is digested rather than refused, and a surrogate pair
//!   written as two escapes is the character it encodes;
//! - numbers keep what a reader can tell apart, and only that:
//!   - an integer literal (no fraction, no exponent) is kept as written, sign included: `5`,
//!     `-0`, `100000000000000000000`. A reader sees an integer there (serde_json's `as_u64`,
//!     a `u128` field), and its exact digits whatever their range;
//!   - any other number (with a fraction or an exponent) is written by its exact decimal value,
//!     always with an exponent: the significant digits without leading or trailing zeros, `e`,
//!     the exponent (`5.0` and `50e-1` are `5e0`, `2.5` is `25e-1`, `1E20` and `10.0e19` are
//!     `1e20`); zero keeps its sign (`0.0` is `0e0`, `-0.0` and `-0e7` are `-0e0`).
//!
//!   So `5` and `5.0`, `0` and `-0` and `-0.0`, `100000000000000000000` and `1e20` are
//!   different numbers here, as they are to a tool reading them with serde_json (`5.0` is no
//!   `u64`, `-0` is the float -0.0, `1e20` is no `u128`); two spellings of the same value of the
//!   same kind are one (`1.50` and `15e-1`). A value beyond `f64` (`1e400`) is digested like any
//!   other.
//!
//! A `serde_json::Value` writes its numbers in these same kinds (an integer as its digits, an
//! `f64` always with a `.` or an `e`), so params digest the same as a `Value` and as their text
//! wherever the `Value` holds the text exactly: integers in the range of `u64`/`i64` (not
//! `-0`, which serde_json reads as the float -0.0) and fractions in the shortest form that reads
//! back as the same `f64` (what every encoder writes). Outside that a `Value` has already lost
//! the difference (`100000000000000000000` and `1e20` are the same `f64`), which is why the
//! digest reads the text.
//!
//! # Cost
//!
//! Nothing is built but the canonical text itself, written as the input is read (and an index
//! of the members of the objects being read, to sort them): no tree. It is refused as soon as it
//! would be longer than the limit it is given, and input nested deeper than [`MAX_DEPTH`] as
//! soon as it is, so the memory taken is a small multiple of the limit whatever the input. The
//! top-level members left out of the digest (`requestState`, `inputResponses`, `_meta`) are
//! skipped without being copied (checked as JSON, nothing kept), and typed params never write
//! them at all ([`salient_json`]). Each object whose members are out of order is copied once
//! to sort them: at most [`MAX_DEPTH`] times the limit, in the worst case.

use std::fmt::Write as _;
use std::io;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::DigestError;

/// How deep arrays and objects may nest (serde_json refuses deeper input, from 128 levels, when
/// decoding a `Value`).
pub(super) const MAX_DEPTH: usize = 256;

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
    /// The text is longer than the limit (for [`ParamsDigest::of`](super::ParamsDigest::of),
    /// its JSON text, else its canonical text): refused as soon as it is, the rest unread.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Arrays and objects nested deeper than the limit, at this byte offset.
    TooDeep {
        /// The byte offset.
        offset: usize,
        /// The deepest nesting read.
        limit: usize,
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
            Self::TooLarge { limit } => {
                write!(f, "the params are longer than {limit} bytes")
            }
            Self::TooDeep { offset, limit } => {
                write!(
                    f,
                    "the params nest deeper than {limit} levels, at byte {offset}"
                )
            }
        }
    }
}

impl std::error::Error for CanonicalError {}

/// The canonical text of the JSON `text`, leaving out the top-level members named in
/// `excluded` when the value is an object (skipped: checked as JSON, not copied), refused as
/// soon as it would be longer than `max_len` bytes.
pub(super) fn canonical(
    text: &[u8],
    excluded: &[&str],
    max_len: usize,
) -> Result<Vec<u8>, CanonicalError> {
    let mut reader = Reader {
        bytes: text,
        at: 0,
        excluded,
        out: Out {
            text: Vec::new(),
            max_len,
        },
        names: Vec::new(),
        members: Vec::new(),
        path: Vec::new(),
        scratch: Vec::new(),
    };
    reader.blank();
    reader.value(0, true)?;
    reader.blank();
    if reader.at != reader.bytes.len() {
        return Err(reader.syntax("the end of the text"));
    }
    Ok(reader.out.text)
}

/// The canonical text being written, and its limit.
struct Out {
    text: Vec<u8>,
    max_len: usize,
}

impl Out {
    /// Appends `bytes`, or refuses them (unwritten) if the text would be longer than the limit.
    fn put(&mut self, bytes: &[u8]) -> Result<(), CanonicalError> {
        if bytes.len() > self.max_len.saturating_sub(self.text.len()) {
            return Err(CanonicalError::TooLarge {
                limit: self.max_len,
            });
        }
        self.text.extend_from_slice(bytes);
        Ok(())
    }

    /// A character of a string, escaped if it must be.
    fn put_char(&mut self, c: char) -> Result<(), CanonicalError> {
        match c {
            '"' => self.put(b"\\\""),
            '\\' => self.put(b"\\\\"),
            c if c < ' ' => self.put_escape(c as u16),
            c => self.put(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }

    /// `\uxxxx`, lowercase: a control character or a lone surrogate.
    fn put_escape(&mut self, unit: u16) -> Result<(), CanonicalError> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let nibble = |shift: u16| HEX[usize::from((unit >> shift) & 0xf)];
        self.put(&[b'\\', b'u', nibble(12), nibble(8), nibble(4), nibble(0)])
    }

    /// A string given as UTF-16 code units (a member name).
    fn put_units(&mut self, units: &[u16]) -> Result<(), CanonicalError> {
        self.put(b"\"")?;
        for unit in char::decode_utf16(units.iter().copied()) {
            match unit {
                Ok(c) => self.put_char(c)?,
                Err(lone) => self.put_escape(lone.unpaired_surrogate())?,
            }
        }
        self.put(b"\"")
    }
}

/// A member of an object being read: its name (a range of `Reader::names`) and its text,
/// `"name":value` (a range of the canonical text).
struct Member {
    name: (usize, usize),
    text: (usize, usize),
}

/// A step of the JSON pointer of the value being read, for errors.
enum Step {
    Index(usize),
    /// A range of `Reader::names`.
    Name(usize, usize),
}

/// Where the code units of a string go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sink {
    /// Into the canonical text.
    Out,
    /// Into `Reader::names` (a member name).
    Name,
    /// Nowhere: the string is checked, not kept.
    Nowhere,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    excluded: &'a [&'a str],
    out: Out,
    /// The names of the members of the objects being read, as UTF-16 code units.
    names: Vec<u16>,
    /// The members of the objects being read, innermost last.
    members: Vec<Member>,
    path: Vec<Step>,
    /// Where an object's members are copied to be sorted.
    scratch: Vec<u8>,
}

impl Reader<'_> {
    fn syntax(&self, expected: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: self.at,
            expected,
        }
    }

    /// The JSON pointer of the value being read.
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in &self.path {
            pointer.push('/');
            match *step {
                Step::Index(index) => {
                    let _ = write!(pointer, "{index}");
                }
                Step::Name(start, end) => {
                    let name = String::from_utf16_lossy(&self.names[start..end]);
                    pointer.push_str(&mcp_typed::json_pointer::escape(&name));
                }
            }
        }
        pointer
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

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    /// Reads a value, and writes its canonical text if `emit` (else only checks it).
    fn value(&mut self, depth: usize, emit: bool) -> Result<(), CanonicalError> {
        if depth >= MAX_DEPTH {
            return Err(CanonicalError::TooDeep {
                offset: self.at,
                limit: MAX_DEPTH,
            });
        }
        match self.peek() {
            Some(b'n') => self.literal("null", emit),
            Some(b't') => self.literal("true", emit),
            Some(b'f') => self.literal("false", emit),
            Some(b'"') => self.string(if emit { Sink::Out } else { Sink::Nowhere }),
            Some(b'-' | b'0'..=b'9') => self.number(emit),
            Some(b'[') => self.array(depth, emit),
            Some(b'{') => self.object(depth, emit),
            _ => Err(self.syntax("a JSON value")),
        }
    }

    fn literal(&mut self, word: &'static str, emit: bool) -> Result<(), CanonicalError> {
        if !self.bytes[self.at..].starts_with(word.as_bytes()) {
            return Err(self.syntax(word));
        }
        self.at += word.len();
        if emit {
            self.out.put(word.as_bytes())?;
        }
        Ok(())
    }

    fn array(&mut self, depth: usize, emit: bool) -> Result<(), CanonicalError> {
        self.at += 1;
        if emit {
            self.out.put(b"[")?;
        }
        self.blank();
        if self.peek() == Some(b']') {
            self.at += 1;
            return if emit { self.out.put(b"]") } else { Ok(()) };
        }
        self.path.push(Step::Index(0));
        let mut index = 0;
        loop {
            self.blank();
            self.value(depth + 1, emit)?;
            self.blank();
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    if emit {
                        self.out.put(b",")?;
                    }
                    index += 1;
                    if let Some(last) = self.path.last_mut() {
                        *last = Step::Index(index);
                    }
                }
                Some(b']') => {
                    self.at += 1;
                    self.path.pop();
                    return if emit { self.out.put(b"]") } else { Ok(()) };
                }
                _ => return Err(self.syntax("`,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize, emit: bool) -> Result<(), CanonicalError> {
        self.at += 1;
        if emit {
            self.out.put(b"{")?;
        }
        let body = self.out.text.len();
        let first = self.members.len();
        let names = self.names.len();
        self.blank();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return if emit { self.out.put(b"}") } else { Ok(()) };
        }
        loop {
            self.blank();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("a member name"));
            }
            let start = self.names.len();
            self.string(if emit { Sink::Name } else { Sink::Nowhere })?;
            let name = (start, self.names.len());
            self.blank();
            self.eat(b':', "`:`")?;
            self.blank();
            let kept = emit && !(depth == 0 && self.is_excluded(name));
            if kept {
                if self.members.len() > first {
                    self.out.put(b",")?;
                }
                let text = self.out.text.len();
                self.out.put_units(&self.names[name.0..name.1])?;
                self.out.put(b":")?;
                self.path.push(Step::Name(name.0, name.1));
                self.value(depth + 1, true)?;
                self.path.pop();
                self.members.push(Member {
                    name,
                    text: (text, self.out.text.len()),
                });
            } else {
                // Left out of the digest (or inside what is): checked, never written.
                self.names.truncate(start);
                self.value(depth + 1, false)?;
            }
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
        if emit {
            self.sort(body, first)?;
            self.out.put(b"}")?;
        }
        self.members.truncate(first);
        self.names.truncate(names);
        Ok(())
    }

    fn is_excluded(&self, (start, end): (usize, usize)) -> bool {
        let name = &self.names[start..end];
        self.excluded
            .iter()
            .any(|excluded| excluded.encode_utf16().eq(name.iter().copied()))
    }

    /// Sorts the members of the object whose text starts at `body` (after its `{`), from
    /// `self.members[first]` on, and refuses a name given twice.
    fn sort(&mut self, body: usize, first: usize) -> Result<(), CanonicalError> {
        let names = &self.names;
        let name = |member: &Member| &names[member.name.0..member.name.1];
        let members = &mut self.members[first..];
        if members
            .windows(2)
            .all(|pair| name(&pair[0]) < name(&pair[1]))
        {
            return Ok(());
        }
        members.sort_by(|a, b| name(a).cmp(name(b)));
        if let Some(pair) = members
            .windows(2)
            .find(|pair| name(&pair[0]) == name(&pair[1]))
        {
            let twice = String::from_utf16_lossy(name(&pair[0]));
            return Err(CanonicalError::DuplicateMember {
                pointer: self.pointer(),
                name: twice,
            });
        }
        // The same members and commas in another order: the same length, within the limit.
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.out.text[body..]);
        self.out.text.truncate(body);
        for (i, member) in self.members[first..].iter().enumerate() {
            if i > 0 {
                self.out.text.push(b',');
            }
            let (start, end) = member.text;
            self.out
                .text
                .extend_from_slice(&self.scratch[start - body..end - body]);
        }
        Ok(())
    }

    /// A string, its escapes resolved, into `sink`.
    fn string(&mut self, sink: Sink) -> Result<(), CanonicalError> {
        self.eat(b'"', "`\"`")?;
        if sink == Sink::Out {
            self.out.put(b"\"")?;
        }
        // A high surrogate escape, written once the next code unit shows whether it is half of
        // a pair.
        let mut high: Option<u16> = None;
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            if start != self.at {
                // The run stops at ASCII bytes: a whole UTF-8 sequence if the input is UTF-8.
                let run = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| {
                    CanonicalError::Syntax {
                        offset: start,
                        expected: "UTF-8",
                    }
                })?;
                match sink {
                    Sink::Out => {
                        if let Some(lone) = high.take() {
                            self.out.put_escape(lone)?;
                        }
                        self.out.put(run.as_bytes())?;
                    }
                    Sink::Name => {
                        self.names.extend(run.encode_utf16());
                        self.check_names()?;
                    }
                    Sink::Nowhere => {}
                }
            }
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    if sink == Sink::Out {
                        if let Some(lone) = high.take() {
                            self.out.put_escape(lone)?;
                        }
                        self.out.put(b"\"")?;
                    }
                    return Ok(());
                }
                Some(b'\\') => {
                    self.at += 1;
                    let unit = self.escape()?;
                    match sink {
                        Sink::Out => self.unit(unit, &mut high)?,
                        Sink::Name => {
                            self.names.push(unit);
                            self.check_names()?;
                        }
                        Sink::Nowhere => {}
                    }
                }
                _ => return Err(self.syntax("the end of the string")),
            }
        }
    }

    /// The names being read take no more code units than the canonical text may have bytes:
    /// a name that is kept is written there, at least a byte a unit (and the names left out
    /// are short).
    fn check_names(&self) -> Result<(), CanonicalError> {
        if self.names.len() > self.out.max_len {
            return Err(CanonicalError::TooLarge {
                limit: self.out.max_len,
            });
        }
        Ok(())
    }

    /// The code unit of the escape after a `\`: one of the two-character escapes of RFC 8259,
    /// or `u` and exactly four hex digits (no sign, no fewer).
    fn escape(&mut self) -> Result<u16, CanonicalError> {
        let unit = match self.peek() {
            Some(b'"') => 0x22,
            Some(b'\\') => 0x5c,
            Some(b'/') => 0x2f,
            Some(b'b') => 0x08,
            Some(b'f') => 0x0c,
            Some(b'n') => 0x0a,
            Some(b'r') => 0x0d,
            Some(b't') => 0x09,
            Some(b'u') => {
                self.at += 1;
                let mut unit = 0u16;
                for _ in 0..4 {
                    let digit = self
                        .peek()
                        .and_then(|byte| char::from(byte).to_digit(16))
                        .ok_or_else(|| self.syntax("four hex digits"))?;
                    unit = unit << 4 | digit as u16;
                    self.at += 1;
                }
                return Ok(unit);
            }
            _ => return Err(self.syntax("an escape")),
        };
        self.at += 1;
        Ok(unit)
    }

    /// Writes an escaped code unit, pairing surrogates.
    fn unit(&mut self, unit: u16, high: &mut Option<u16>) -> Result<(), CanonicalError> {
        if let Some(first) = high.take() {
            if (0xDC00..=0xDFFF).contains(&unit) {
                let code =
                    0x10000 + ((u32::from(first) - 0xD800) << 10 | (u32::from(unit) - 0xDC00));
                let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
                return self.out.put_char(c);
            }
            self.out.put_escape(first)?;
        }
        match unit {
            0xD800..=0xDBFF => {
                *high = Some(unit);
                Ok(())
            }
            0xDC00..=0xDFFF => self.out.put_escape(unit),
            _ => self
                .out
                .put_char(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }

    /// A number, written in its canonical form if `emit` (see the module docs).
    fn number(&mut self, emit: bool) -> Result<(), CanonicalError> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let integer_start = self.at;
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.syntax("a digit")),
        }
        let integer = integer_start..self.at;
        let mut fraction = self.at..self.at;
        let mut literal_integer = true;
        if self.peek() == Some(b'.') {
            literal_integer = false;
            self.at += 1;
            let start = self.at;
            self.digits();
            if start == self.at {
                return Err(self.syntax("a digit after `.`"));
            }
            fraction = start..self.at;
        }
        let mut exponent: i128 = 0;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            literal_integer = false;
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
        if !emit {
            return Ok(());
        }
        let bytes = self.bytes;
        if literal_integer {
            // Kept as written: JSON allows one spelling of an integer literal.
            return self.out.put(&bytes[start..self.at]);
        }
        // The value is `digits × 10^(exponent − fraction.len())`, digits stripped of their
        // leading zeros (the value's) and trailing zeros (moved into the exponent).
        let (integer, fraction) = (&bytes[integer], &bytes[fraction]);
        let digits = || integer.iter().chain(fraction);
        let Some(first) = digits().position(|&d| d != b'0') else {
            return self.out.put(if negative { b"-0e0" } else { b"0e0" });
        };
        let trailing = digits().rev().position(|&d| d != b'0').unwrap_or(0);
        let end = integer.len() + fraction.len() - trailing;
        let exponent = exponent - fraction.len() as i128 + trailing as i128;
        let exponent = i64::try_from(exponent).map_err(|_| CanonicalError::ExponentRange {
            pointer: self.pointer(),
        })?;
        if negative {
            self.out.put(b"-")?;
        }
        if first < integer.len() {
            self.out.put(&integer[first..end.min(integer.len())])?;
        }
        if end > integer.len() {
            self.out
                .put(&fraction[first.max(integer.len()) - integer.len()..end - integer.len()])?;
        }
        let mut buffer = [0u8; 24];
        let mut rest = &mut buffer[..];
        let _ = io::Write::write_fmt(&mut rest, format_args!("e{exponent}"));
        let written = 24 - rest.len();
        self.out.put(&buffer[..written])
    }
}

// ---------------------------------------------------------------------------------------------
// Typed params: their JSON text, the excluded members never written.

/// The JSON text serde_json writes for `params`, without the top-level members named in
/// `excluded`, which are not serialized at all (a `requestState` of any length costs nothing).
/// Refused with [`CanonicalError::TooLarge`] as soon as the text would be longer than
/// `max_len`: a larger part written at once (the text of a `RawObject`) is not even copied.
pub(super) fn salient_json<P: Serialize + ?Sized>(
    params: &P,
    excluded: &[&str],
    max_len: usize,
) -> Result<Vec<u8>, DigestError> {
    let mut text = Limited {
        text: Vec::new(),
        max_len,
        over: false,
    };
    let mut json = serde_json::Serializer::new(&mut text);
    let written = params.serialize(TopLevel {
        json: &mut json,
        excluded,
    });
    match written {
        Ok(()) => Ok(text.text),
        Err(_) if text.over => Err(DigestError::Canonical(CanonicalError::TooLarge {
            limit: max_len,
        })),
        Err(error) => Err(DigestError::Encode(error)),
    }
}

/// A buffer that refuses to grow beyond `max_len` (and records that it did).
struct Limited {
    text: Vec<u8>,
    max_len: usize,
    over: bool,
}

impl io::Write for Limited {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.len() > self.max_len.saturating_sub(self.text.len()) {
            self.over = true;
            return Err(io::Error::other("longer than the limit"));
        }
        self.text.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether `key` is written as the JSON string of one of the `excluded` names.
fn is_excluded<K: Serialize + ?Sized>(key: &K, excluded: &[&str]) -> bool {
    let longest = excluded.iter().map(|name| name.len()).max().unwrap_or(0);
    let mut text = Limited {
        text: Vec::new(),
        max_len: longest + 2,
        over: false,
    };
    if serde_json::to_writer(&mut text, key).is_err() {
        return false;
    }
    let text = &text.text;
    excluded.iter().any(|name| {
        text.len() == name.len() + 2
            && text[0] == b'"'
            && text[text.len() - 1] == b'"'
            && &text[1..text.len() - 1] == name.as_bytes()
    })
}

type Json<'s, W> = &'s mut serde_json::Serializer<W>;
type JsonOf<'s, W> = <Json<'s, W> as Serializer>::SerializeMap;

/// serde_json's serializer, except that the members named in `excluded` of the top-level
/// object (a map or a struct) are left out.
struct TopLevel<'s, W: io::Write> {
    json: Json<'s, W>,
    excluded: &'s [&'s str],
}

/// Forwards `Serializer` methods to serde_json's.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method(self, $($arg: $ty),*) -> Result<(), serde_json::Error> {
            self.json.$method($($arg),*)
        }
    )*};
}

impl<'s, W: io::Write> Serializer for TopLevel<'s, W> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = <Json<'s, W> as Serializer>::SerializeSeq;
    type SerializeTuple = <Json<'s, W> as Serializer>::SerializeTuple;
    type SerializeTupleStruct = <Json<'s, W> as Serializer>::SerializeTupleStruct;
    type SerializeTupleVariant = <Json<'s, W> as Serializer>::SerializeTupleVariant;
    type SerializeMap = Skip<'s, JsonOf<'s, W>>;
    type SerializeStruct = Skip<'s, <Json<'s, W> as Serializer>::SerializeStruct>;
    type SerializeStructVariant = <Json<'s, W> as Serializer>::SerializeStructVariant;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        self.json
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        self.json.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, serde_json::Error> {
        self.json.serialize_tuple(len)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, serde_json::Error> {
        self.json.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, serde_json::Error> {
        self.json.serialize_tuple_variant(name, index, variant, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, serde_json::Error> {
        Ok(Skip {
            inner: self.json.serialize_map(len)?,
            excluded: self.excluded,
            skipping: false,
        })
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, serde_json::Error> {
        // serde_json's raw-value protocol goes through here too: its field is not excluded.
        Ok(Skip {
            inner: self.json.serialize_struct(name, len)?,
            excluded: self.excluded,
            skipping: false,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, serde_json::Error> {
        self.json
            .serialize_struct_variant(name, index, variant, len)
    }
}

/// The top-level object's members, less the excluded ones.
struct Skip<'s, C> {
    inner: C,
    excluded: &'s [&'s str],
    /// The key just given is excluded: so is its value.
    skipping: bool,
}

impl<C: SerializeMap<Ok = (), Error = serde_json::Error>> SerializeMap for Skip<'_, C> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.skipping = is_excluded(key, self.excluded);
        if self.skipping {
            return Ok(());
        }
        self.inner.serialize_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        if self.skipping {
            return Ok(());
        }
        self.inner.serialize_value(value)
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Self::Error> {
        if is_excluded(key, self.excluded) {
            return Ok(());
        }
        self.inner.serialize_entry(key, value)
    }

    fn end(self) -> Result<(), Self::Error> {
        self.inner.end()
    }
}

impl<C: SerializeStruct<Ok = (), Error = serde_json::Error>> SerializeStruct for Skip<'_, C> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        if self.excluded.contains(&key) {
            return Ok(());
        }
        self.inner.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), Self::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<(), Self::Error> {
        self.inner.end()
    }
}

#[cfg(test)]
mod tests {
    use super::{canonical, salient_json, CanonicalError, MAX_DEPTH};

    fn canonical_of(json: &str, excluded: &[&str]) -> Result<String, CanonicalError> {
        canonical(json.as_bytes(), excluded, usize::MAX)
            .map(|text| String::from_utf8(text).expect("the canonical text is UTF-8"))
    }

    fn text(json: &str) -> String {
        canonical_of(json, &[]).unwrap()
    }

    #[test]
    fn members_are_sorted_and_numbers_exact() {
        assert_eq!(
            text(
                r#"{"b": [1.0, -0.0, 2.5, -3, 10e-1, 0.1E1, 1200], "a": {"z": null, "é": "\n", "Z": true}}"#
            ),
            r#"{"a":{"Z":true,"z":null,"é":"\u000a"},"b":[1e0,-0e0,25e-1,-3,1e0,1e0,1200]}"#
        );
        assert_ne!(text("100000000000000000000"), text("100000000000000000001"));
        assert_eq!(text("1e400"), "1e400");
        assert_eq!(text("0.000e-99999999999999999999999"), "0e0");
    }

    /// Numbers a tool reads differently have different canonical texts.
    #[test]
    fn numbers_keep_their_kind_and_the_sign_of_zero() {
        for (a, b) in [
            ("5", "5.0"),
            ("5", "5e0"),
            ("0", "-0"),
            ("0", "-0.0"),
            ("-0", "-0.0"),
            ("0.0", "-0.0"),
            ("0", "0.0"),
            ("1e20", "100000000000000000000"),
            ("-1", "-1.0"),
            ("18446744073709551615", "18446744073709551615.0"),
        ] {
            assert_ne!(text(a), text(b), "{a} and {b}");
        }
        // Integer literals as written; other numbers by their exact value, always with an
        // exponent; one value of one kind, one text.
        for (json, canonical) in [
            ("5", "5"),
            ("-0", "-0"),
            ("100000000000000000000", "100000000000000000000"),
            ("-18446744073709551617", "-18446744073709551617"),
            ("5.0", "5e0"),
            ("50e-1", "5e0"),
            ("0.5E1", "5e0"),
            ("1e20", "1e20"),
            ("10.0E+19", "1e20"),
            ("0.0", "0e0"),
            ("0e5", "0e0"),
            ("-0.0", "-0e0"),
            ("-0E-3", "-0e0"),
            ("1.50", "15e-1"),
            ("-0.00120", "-12e-4"),
            ("120.5e2", "1205e1"),
            ("1200.0", "12e2"),
        ] {
            assert_eq!(text(json), canonical, "{json}");
        }
    }

    /// A `serde_json::Value` writes numbers of the same kinds: a `Value` and the text it holds
    /// exactly have one canonical text.
    #[test]
    fn a_value_and_its_text_agree() {
        for json in [
            "5",
            "5.0",
            "-3",
            "-0.0",
            "0.0",
            "0.1",
            "1e20",
            "2.5e-7",
            "1.7976931348623157e308",
            "18446744073709551615",
            "-9223372036854775808",
            r#"{"b":[1,2.5,{"c":-0.5}],"a":"\u00e9\ud83d\ude00"}"#,
        ] {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            assert_eq!(text(&value.to_string()), text(json), "{json}");
        }
    }

    #[test]
    fn escapes_are_those_of_rfc_8259() {
        for bad in [
            r#""\u+041""#,
            r#""\u-041""#,
            r#""\u 041""#,
            r#""\u04""#,
            r#""\u004g""#,
            r#""\U0041""#,
            r#""\x41""#,
            r#""\'""#,
            r#""\a""#,
            "\"\\",
            "\"a\u{1}b\"",
            "\"a\nb\"",
        ] {
            assert!(
                matches!(canonical_of(bad, &[]), Err(CanonicalError::Syntax { .. })),
                "{bad:?} was read"
            );
        }
        // The same refusal in a member name, and in a member left out of the text.
        assert!(canonical_of(r#"{"\u+041":1}"#, &[]).is_err());
        assert!(canonical_of(r#"{"x":"\u+041"}"#, &["x"]).is_err());
        assert_eq!(
            text(r#""\u00C9\u00e9\b\f\n\r\t\"\\\/\u007f""#),
            concat!(r#""Éé\u0008\u000c\u000a\u000d\u0009\"\\/"#, "\u{7f}\"")
        );
        // Surrogates: a pair is its character; any other is lone, and kept as an escape.
        assert_eq!(text(r#""\uD83D\uDE00""#), "\"\u{1F600}\"");
        assert_eq!(text(r#""\ud83d""#), r#""\ud83d""#);
        assert_eq!(text(r#""\ude00\ud83d""#), r#""\ude00\ud83d""#);
        assert_eq!(text(r#""\ud83d\ud83d\ude00x""#), "\"\\ud83d\u{1F600}x\"");
        assert_eq!(text(r#""\ud83dx\ude00""#), r#""\ud83dx\ude00""#);
        assert_eq!(text(r#""\ud83d\n""#), r#""\ud83d\u000a""#);
    }

    #[test]
    fn limits_are_checked_before_anything_large_is_built() {
        let limit = |json: &str, max_len| canonical(json.as_bytes(), &[], max_len);
        assert_eq!(limit(r#"{"a":[1,2]}"#, 11).unwrap(), br#"{"a":[1,2]}"#);
        assert_eq!(
            limit(r#"{"a":[1,2]}"#, 10),
            Err(CanonicalError::TooLarge { limit: 10 })
        );
        // A long string, a long name, a long number: refused without being copied.
        let long = format!("\"{}\"", "x".repeat(1000));
        assert_eq!(
            limit(&long, 100),
            Err(CanonicalError::TooLarge { limit: 100 })
        );
        let name = format!("{{{long}:1}}");
        assert_eq!(
            limit(&name, 100),
            Err(CanonicalError::TooLarge { limit: 100 })
        );
        assert_eq!(
            limit(&"9".repeat(1000), 100),
            Err(CanonicalError::TooLarge { limit: 100 })
        );
        // Escapes count as written out.
        assert!(limit(&format!("\"{}\"", "\\n".repeat(10)), 40).is_err());
        // Nesting.
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(limit(&deep(MAX_DEPTH), usize::MAX).is_ok());
        assert!(matches!(
            limit(&deep(MAX_DEPTH + 1), usize::MAX),
            Err(CanonicalError::TooDeep { .. })
        ));
        assert!(matches!(
            limit(&"[".repeat(1 << 20), usize::MAX),
            Err(CanonicalError::TooDeep { offset, .. }) if offset == MAX_DEPTH
        ));
        // What is left out does not count, however long, but must still be JSON.
        let state = format!(r#"{{"requestState":"{}","a":1}}"#, "x".repeat(1 << 20));
        assert_eq!(
            canonical(state.as_bytes(), &["requestState"], 16).unwrap(),
            br#"{"a":1}"#
        );
        let nested = format!(r#"{{"requestState":{}}}"#, deep(MAX_DEPTH + 5));
        assert!(matches!(
            canonical(nested.as_bytes(), &["requestState"], 16),
            Err(CanonicalError::TooDeep { .. })
        ));
        assert!(canonical(br#"{"requestState":[1,}"#, &["requestState"], 16).is_err());
    }

    #[test]
    fn typed_params_never_write_what_is_left_out() {
        /// Serialized as a struct, as `#[derive(Serialize)]` does.
        struct Params<'a> {
            name: &'a str,
            request_state: &'a str,
        }
        impl serde::Serialize for Params<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct as _;
                let mut params = serializer.serialize_struct("Params", 2)?;
                params.serialize_field("name", self.name)?;
                params.serialize_field("requestState", self.request_state)?;
                params.end()
            }
        }
        let params = Params {
            name: "n",
            request_state: &"x".repeat(1 << 20),
        };
        let text = salient_json(&params, &["requestState"], 32).unwrap();
        assert_eq!(text, br#"{"name":"n"}"#);
        let mut map = serde_json::Map::new();
        map.insert("requestState".into(), "x".repeat(1 << 20).into());
        map.insert("b".into(), 1.into());
        let text = salient_json(&map, &["requestState"], 32).unwrap();
        assert_eq!(text, br#"{"b":1}"#);
        // A raw value is written through.
        let raw = serde_json::value::RawValue::from_string(r#"{"a": 1.0}"#.into()).unwrap();
        assert_eq!(
            salient_json(&raw, &["requestState"], 32).unwrap(),
            br#"{"a": 1.0}"#
        );
        assert!(matches!(
            salient_json(&raw, &[], 5),
            Err(super::DigestError::Canonical(CanonicalError::TooLarge {
                limit: 5
            }))
        ));
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
            canonical_of(r#"{"a":{"repo":"prod","r\u0065po":"demo"}}"#, &[]),
            Err(CanonicalError::DuplicateMember {
                pointer: "/a".to_owned(),
                name: "repo".to_owned()
            })
        );
    }

    #[test]
    fn excluded_members_and_errors() {
        assert_eq!(
            canonical_of(r#"{"_meta":{"x":1},"name":"n"}"#, &["_meta"]).unwrap(),
            r#"{"name":"n"}"#
        );
        // Escaped or not, an excluded name is excluded; only at the top level.
        assert_eq!(
            canonical_of(r#"{"_met\u0061":{"x":1},"a":{"_meta":2}}"#, &["_meta"]).unwrap(),
            r#"{"a":{"_meta":2}}"#
        );
        assert!(canonical_of("{\"a\":1,}", &[]).is_err());
        assert!(canonical_of("01", &[]).is_err());
        assert!(canonical_of("[01]", &[]).is_err());
        assert!(canonical_of("1.", &[]).is_err());
        assert!(canonical_of("-", &[]).is_err());
        assert!(canonical_of("1e", &[]).is_err());
        assert!(canonical_of(&"[".repeat(300), &[]).is_err());
        assert!(matches!(
            canonical_of("1e99999999999999999999", &[]),
            Err(CanonicalError::ExponentRange { .. })
        ));
        assert_eq!(
            canonical_of(r#"{"a":[0,{"b":1e99999999999999999999}]}"#, &[]),
            Err(CanonicalError::ExponentRange {
                pointer: "/a/1/b".to_owned()
            })
        );
    }
}
