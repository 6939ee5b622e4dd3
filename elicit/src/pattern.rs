//! Matching a string property's `pattern`: an ECMA-262 regular expression compiled with the `u`
//! flag and searched for anywhere in the string, as JSON Schema 2020-12 asks.
//!
//! regress is the engine. It is a backtracking matcher that sets up and allocates its state on
//! every search, which costs more than the rest of checking a short field. The patterns forms
//! use are mostly a sequence of characters
//! and classes with quantifiers (`^[a-z][a-z0-9_]*$`, `^\d{5}$`, `^\+?[0-9 ]{7,15}$`), so those are
//! also compiled into a bit-parallel automaton ([`Sequence`]: one bit per position in the pattern,
//! one table look-up and a few shifts per character, no allocation); every other pattern, and
//! every construct the automaton does not read exactly as ECMA-262 does, goes to regress. The
//! tests compare the two on every string up to three characters over an alphabet of ASCII,
//! white space, line terminators and non-ASCII letters, for thousands of patterns.

/// A compiled `pattern`.
#[derive(Debug)]
pub(crate) struct Matcher {
    regex: regress::Regex,
    sequence: Option<Box<Sequence>>,
}

impl Matcher {
    /// Compiles `source` with the `u` flag; regress's error when it is not a valid pattern.
    pub(crate) fn new(source: &str) -> Result<Matcher, regress::Error> {
        let regex = regress::Regex::with_flags(source, "u")?;
        Ok(Matcher {
            regex,
            sequence: Sequence::parse(source).map(Box::new),
        })
    }

    /// Whether the pattern matches anywhere in `text`.
    #[inline]
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match &self.sequence {
            Some(sequence) => sequence.is_match(text),
            // On ASCII text the ASCII matcher runs the same program over bytes; it differs only
            // in case folding, which the `u` flag alone (no `i`) never asks for.
            None if text.is_ascii() => self.regex.find_ascii(text).is_some(),
            None => self.regex.find(text).is_some(),
        }
    }
}

/// Which characters beyond ASCII a class contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Beyond {
    Nothing,
    All,
    /// `.`: all but the line terminators U+2028 and U+2029.
    NotLineTerminator,
    /// `\s`: the white space and line terminators beyond ASCII.
    Space,
    /// `\S`.
    NotSpace,
}

impl Beyond {
    fn union(self, other: Beyond) -> Option<Beyond> {
        use Beyond::*;
        Some(match (self, other) {
            (Nothing, x) | (x, Nothing) => x,
            (All, _) | (_, All) | (Space, NotSpace) | (NotSpace, Space) => All,
            (x, y) if x == y => x,
            // Only `.` makes `NotLineTerminator`, and it is a literal inside brackets.
            _ => return None,
        })
    }

    fn complement(self) -> Option<Beyond> {
        use Beyond::*;
        Some(match self {
            Nothing => All,
            All => Nothing,
            Space => NotSpace,
            NotSpace => Space,
            NotLineTerminator => return None,
        })
    }
}

/// A set of characters: the ASCII ones as bits, the others by kind.
#[derive(Debug, Clone, Copy)]
struct Class {
    ascii: u128,
    beyond: Beyond,
}

const DIGITS: u128 = ((1 << 10) - 1) << b'0';
const WORD: u128 = DIGITS | (((1 << 26) - 1) << b'A') | (((1 << 26) - 1) << b'a') | (1 << b'_');
/// `\t \n \v \f \r` and the space.
const SPACE: u128 = (0b11111 << 9) | (1 << b' ');
const ALL_ASCII: u128 = u128::MAX;
const LINE_TERMINATORS: u128 = (1 << b'\n') | (1 << b'\r');

impl Class {
    fn char(byte: u8) -> Class {
        Class {
            ascii: 1 << byte,
            beyond: Beyond::Nothing,
        }
    }

    fn union(self, other: Class) -> Option<Class> {
        Some(Class {
            ascii: self.ascii | other.ascii,
            beyond: self.beyond.union(other.beyond)?,
        })
    }

    fn complement(self) -> Option<Class> {
        Some(Class {
            ascii: !self.ascii,
            beyond: self.beyond.complement()?,
        })
    }

    /// The class of an escape `\d`, `\w`, `\s` or their complements.
    fn of_escape(letter: u8) -> Option<Class> {
        let positive = |ascii, beyond| Class { ascii, beyond };
        match letter {
            b'd' => Some(positive(DIGITS, Beyond::Nothing)),
            b'w' => Some(positive(WORD, Beyond::Nothing)),
            b's' => Some(positive(SPACE, Beyond::Space)),
            b'D' | b'W' | b'S' => Class::of_escape(letter.to_ascii_lowercase())?.complement(),
            _ => None,
        }
    }
}

/// The character of an escape that stands for one character, in a pattern compiled with the
/// `u` flag: the control escapes and the escaped syntax characters (`-` only inside brackets).
fn escaped_char(letter: u8, in_brackets: bool) -> Option<u8> {
    Some(match letter {
        b't' => b'\t',
        b'n' => b'\n',
        b'v' => 0x0b,
        b'f' => 0x0c,
        b'r' => b'\r',
        b'^' | b'$' | b'\\' | b'.' | b'*' | b'+' | b'?' | b'(' | b')' | b'[' | b']' | b'{'
        | b'}' | b'|' | b'/' => letter,
        b'-' if in_brackets => letter,
        _ => return None,
    })
}

/// A pattern that is a sequence of items, each a character class with a quantifier, optionally
/// anchored at either end (`^`, `$`; no `m` flag, so the ends of the string): no groups,
/// alternatives, assertions or back-references, ASCII source. Compiled to a Shift-And automaton
/// over the positions of the sequence, with `x{2,4}` written out as `xxx?x?` and `x+` as `xx*`.
#[derive(Debug)]
struct Sequence {
    /// For each ASCII character, the positions whose class contains it (bit `i`: item `i`).
    ascii: [u64; 128],
    /// For the characters beyond ASCII, by [`Beyond`]: the positions whose class contains all
    /// of them, all but the line terminators, the white space ones, or all but those.
    beyond: [u64; 5],
    /// Positions that may be skipped (`?`, `*`, the optional copies of `{n,m}`).
    optional: u64,
    /// Positions that may repeat (`*`, the last copy of `+` and `{n,}`).
    repeat: u64,
    /// The state after the whole sequence (one bit past the last item).
    accept: u64,
    anchored_start: bool,
    anchored_end: bool,
}

/// At most this many positions, so that the states and the accepting state fit a `u64`.
const MAX_ITEMS: usize = 63;

impl Sequence {
    /// The automaton of `source`, when it is such a sequence.
    fn parse(source: &str) -> Option<Sequence> {
        let bytes = source.as_bytes();
        if !source.is_ascii() {
            return None;
        }
        let mut items: Vec<(Class, bool, bool)> = Vec::new(); // (class, optional, repeat)
        let mut at = 0;
        let anchored_start = bytes.first() == Some(&b'^');
        if anchored_start {
            at = 1;
        }
        let mut anchored_end = false;
        while at < bytes.len() {
            let class = match bytes[at] {
                b'$' if at + 1 == bytes.len() => {
                    anchored_end = true;
                    break;
                }
                b'.' => Class {
                    ascii: ALL_ASCII & !LINE_TERMINATORS,
                    beyond: Beyond::NotLineTerminator,
                },
                b'[' => {
                    let (class, end) = parse_brackets(bytes, at + 1)?;
                    at = end - 1;
                    class
                }
                b'\\' => {
                    let letter = *bytes.get(at + 1)?;
                    at += 1;
                    match Class::of_escape(letter) {
                        Some(class) => class,
                        None => Class::char(escaped_char(letter, false)?),
                    }
                }
                b'^' | b'$' | b'*' | b'+' | b'?' | b'(' | b')' | b']' | b'{' | b'}' | b'|' => {
                    return None
                }
                byte => Class::char(byte),
            };
            at += 1;
            let (min, max, end) = parse_quantifier(bytes, at)?;
            // A lazy quantifier matches the same strings; only the match found differs.
            let quantified = end != at;
            at = end;
            if quantified && bytes.get(at) == Some(&b'?') {
                at += 1;
            }
            let optional_copies = max.map_or(usize::from(min == 0), |max| max - min);
            if (items.len().saturating_add(min)).saturating_add(optional_copies) > MAX_ITEMS {
                return None;
            }
            items.extend(std::iter::repeat_n((class, false, false), min));
            match max {
                Some(_) => items.extend(std::iter::repeat_n((class, true, false), optional_copies)),
                // `x*` is one optional repeating position; `x{n,}` makes its last copy repeat.
                None if min == 0 => items.push((class, true, true)),
                None => items.last_mut()?.2 = true,
            }
        }
        let mut sequence = Sequence {
            ascii: [0; 128],
            beyond: [0; 5],
            optional: 0,
            repeat: 0,
            accept: 1 << items.len(),
            anchored_start,
            anchored_end,
        };
        for (index, (class, optional, repeat)) in items.into_iter().enumerate() {
            let bit = 1u64 << index;
            for (byte, positions) in sequence.ascii.iter_mut().enumerate() {
                if class.ascii & (1 << byte) != 0 {
                    *positions |= bit;
                }
            }
            sequence.beyond[class.beyond as usize] |= bit;
            sequence.optional |= bit * u64::from(optional);
            sequence.repeat |= bit * u64::from(repeat);
        }
        Some(sequence)
    }

    /// The positions whose class contains `c`.
    #[inline]
    fn positions(&self, c: char) -> u64 {
        match self.ascii.get(c as usize) {
            Some(&positions) => positions,
            None => self.beyond(c),
        }
    }

    #[cold]
    fn beyond(&self, c: char) -> u64 {
        let line_terminator = matches!(c, '\u{2028}' | '\u{2029}');
        let space = line_terminator
            || matches!(
                c,
                '\u{a0}' | '\u{1680}' | '\u{2000}'
                    ..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
            );
        let beyond = |kind: Beyond| self.beyond[kind as usize];
        let mut positions = beyond(Beyond::All);
        if !line_terminator {
            positions |= beyond(Beyond::NotLineTerminator);
        }
        positions
            | beyond(if space {
                Beyond::Space
            } else {
                Beyond::NotSpace
            })
    }

    /// The states `states` reach by skipping optional positions. Within a run of optional
    /// positions, adding the run to its active bits carries from the lowest active one to one
    /// past the run's end: exactly the positions reachable from there. No carry leaves bit 63,
    /// since positions stop at 62.
    #[inline]
    fn close(&self, states: u64) -> u64 {
        let optional = self.optional;
        states | ((optional + (states & optional)) ^ optional)
    }

    fn is_match(&self, text: &str) -> bool {
        let start = self.close(1);
        let mut states = start;
        if !self.anchored_end && states & self.accept != 0 {
            return true;
        }
        for c in text.chars() {
            let matched = states & self.positions(c);
            states = self.close((matched << 1) | (matched & self.repeat));
            if !self.anchored_start {
                // A match may start at the next character.
                states |= start;
            } else if states == 0 {
                return false;
            }
            if !self.anchored_end && states & self.accept != 0 {
                return true;
            }
        }
        states & self.accept != 0
    }
}

/// A bracketed class whose members start at `at` (after the `[`): the class and the index after
/// its `]`.
fn parse_brackets(bytes: &[u8], mut at: usize) -> Option<(Class, usize)> {
    let negated = bytes.get(at) == Some(&b'^');
    if negated {
        at += 1;
    }
    let mut class = Class {
        ascii: 0,
        beyond: Beyond::Nothing,
    };
    loop {
        let (member, end) = match *bytes.get(at)? {
            b']' => break,
            b'[' => return None,
            b'\\' => {
                let letter = *bytes.get(at + 1)?;
                match Class::of_escape(letter) {
                    Some(escape) => {
                        // A class escape cannot bound a range (`[\d-z]` is an error with `u`).
                        if bytes.get(at + 2) == Some(&b'-') && bytes.get(at + 3) != Some(&b']') {
                            return None;
                        }
                        (Err(escape), at + 2)
                    }
                    None => (Ok(escaped_char(letter, true)?), at + 2),
                }
            }
            byte => (Ok(byte), at + 1),
        };
        at = end;
        let member = match member {
            Err(escape) => escape,
            // A range `a-z`, unless the `-` is the last member.
            Ok(low) if bytes.get(at) == Some(&b'-') && bytes.get(at + 1) != Some(&b']') => {
                let (high, end) = match *bytes.get(at + 1)? {
                    b'\\' => (escaped_char(*bytes.get(at + 2)?, true)?, at + 3),
                    b'[' => return None,
                    byte => (byte, at + 2),
                };
                if high < low {
                    return None;
                }
                at = end;
                Class {
                    ascii: (low..=high).fold(0, |set, byte| set | (1u128 << byte)),
                    beyond: Beyond::Nothing,
                }
            }
            Ok(byte) => Class::char(byte),
        };
        class = class.union(member)?;
    }
    let class = if negated { class.complement()? } else { class };
    Some((class, at + 1))
}

/// The quantifier at `at`, if any: `(min, max, index after it)`, `max` `None` for no bound; an
/// item without a quantifier is `{1}`.
fn parse_quantifier(bytes: &[u8], at: usize) -> Option<(usize, Option<usize>, usize)> {
    Some(match bytes.get(at) {
        Some(b'?') => (0, Some(1), at + 1),
        Some(b'*') => (0, None, at + 1),
        Some(b'+') => (1, None, at + 1),
        Some(b'{') => {
            let number = |from: usize| -> Option<(usize, usize)> {
                let digits = bytes[from..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let text = std::str::from_utf8(&bytes[from..from + digits]).ok()?;
                Some((text.parse().ok()?, from + digits))
            };
            let (min, at) = number(at + 1)?;
            let (max, at) = match bytes.get(at) {
                Some(b',') if bytes.get(at + 1) == Some(&b'}') => (None, at + 1),
                Some(b',') => {
                    let (max, at) = number(at + 1)?;
                    (Some(max), at)
                }
                _ => (Some(min), at),
            };
            if bytes.get(at) != Some(&b'}') || max.is_some_and(|max| max < min) {
                return None;
            }
            (min, max, at + 1)
        }
        _ => (1, Some(1), at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters the texts are made of: word characters, punctuation the patterns use,
    /// ASCII white space and line terminators, and beyond ASCII a letter, a no-break space, a
    /// line separator, a byte order mark and an emoji.
    const ALPHABET: [char; 13] = [
        'a', 'Z', '7', '_', '-', '.', ' ', '\n', '\t', 'é', '\u{a0}', '\u{2028}', '\u{feff}',
    ];

    fn texts(max_len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max_len {
            let next: Vec<String> = (last.iter())
                .flat_map(|text| {
                    ALPHABET.iter().map(move |c| {
                        let mut text = text.clone();
                        text.push(*c);
                        text
                    })
                })
                .collect();
            all.extend(next.iter().cloned());
            last = next;
        }
        all.push("😀a".to_owned());
        all
    }

    /// Asserts that the automaton of `pattern` exists and agrees with regress on `texts`.
    fn agrees(pattern: &str, texts: &[String]) {
        let regex = regress::Regex::with_flags(pattern, "u")
            .unwrap_or_else(|error| panic!("{pattern:?} does not compile: {error}"));
        let sequence =
            Sequence::parse(pattern).unwrap_or_else(|| panic!("{pattern:?} has no automaton"));
        for text in texts {
            assert_eq!(
                sequence.is_match(text),
                regex.find(text).is_some(),
                "{pattern:?} on {text:?}"
            );
        }
    }

    const ATOMS: [&str; 22] = [
        "a", "Z", "7", ".", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\.", "-", r"[\-a]",
        "[a-c_]", "[^a_]", r"[^\s]", r"[\s7]", r"[^\S\n]", r"[\w.-]", "[]", "[^]", r"[\t-\r]",
    ];
    const QUANTIFIERS: [&str; 11] = [
        "", "?", "*", "+", "{2}", "{0,2}", "{1,}", "{0}", "*?", "{1,2}?", "??",
    ];

    #[test]
    fn every_item_agrees_with_regress_at_either_anchor() {
        let texts = texts(3);
        for atom in ATOMS {
            for quantifier in QUANTIFIERS {
                for (start, end) in [("", ""), ("^", ""), ("", "$"), ("^", "$")] {
                    agrees(&format!("{start}{atom}{quantifier}{end}"), &texts);
                }
            }
        }
    }

    #[test]
    fn pairs_of_items_agree_with_regress() {
        let texts = texts(3);
        let items: Vec<String> = ATOMS
            .iter()
            .flat_map(|atom| ["", "?", "*", "+", "{2}"].map(|q| format!("{atom}{q}")))
            .collect();
        // Every 7th pair (co-prime with the 5 quantifiers), anchored in turn.
        for (n, pair) in (items.iter())
            .flat_map(|a| items.iter().map(move |b| format!("{a}{b}")))
            .enumerate()
            .filter(|(n, _)| n % 7 == 0)
        {
            let pattern = match n % 4 {
                0 => pair,
                1 => format!("^{pair}"),
                2 => format!("{pair}$"),
                _ => format!("^{pair}$"),
            };
            agrees(&pattern, &texts);
        }
    }

    #[test]
    fn the_patterns_of_real_forms_agree_with_regress() {
        let mut texts = texts(2);
        texts.extend(
            [
                "ada_l",
                "Ada!",
                "a",
                "abcdefghijklmnopq",
                "12345",
                "1234",
                "+44 20 7946 0958",
                "2024-02-29",
                "#ff00aa",
                "#FFF",
                "v1.2.3",
                "x.y",
                "ab-cd",
                "ab--",
                "Zoë",
                "a\nb",
            ]
            .map(str::to_owned),
        );
        for pattern in [
            "^[a-z][a-z0-9_]*$",
            r"^\d{5}$",
            r"^\+?[0-9 ]{7,15}$",
            r"^\d{4}-\d{2}-\d{2}$",
            "^#[0-9a-fA-F]{6}$",
            r"^v\d+\.\d+\.\d+$",
            r"^[^\s@]+$",
            "[A-Z]",
            r"\S",
            "^.{2,}$",
            "^$",
            "",
        ] {
            agrees(pattern, &texts);
        }
    }

    /// Every pattern of up to 3 characters over the syntax characters and a few others, and
    /// pseudo-random ones of up to 8: reading never panics, and wherever regress compiles the
    /// pattern and the automaton reads it, the two agree.
    #[test]
    fn arbitrary_patterns_never_panic_and_agree_where_read() {
        const SYNTAX: &[u8] = br"^$\.*+?()[]{}|-,019adsDSwW ";
        let texts = texts(2);
        let mut patterns: Vec<String> = vec![String::new()];
        let mut last = patterns.clone();
        for _ in 0..3 {
            last = (last.iter())
                .flat_map(|p| SYNTAX.iter().map(move |&b| format!("{p}{}", char::from(b))))
                .collect();
            patterns.extend(last.iter().cloned());
        }
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let len = 4 + (state % 5) as usize;
            let pattern = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    char::from(SYNTAX[(state >> 33) as usize % SYNTAX.len()])
                })
                .collect();
            patterns.push(pattern);
        }
        patterns.push("a{18446744073709551615}".to_owned());
        patterns.push("a{18446744073709551615,}".to_owned());
        let mut read = 0;
        for pattern in &patterns {
            let sequence = Sequence::parse(pattern);
            let Ok(regex) = regress::Regex::with_flags(pattern, "u") else {
                continue;
            };
            if let Some(sequence) = sequence {
                read += 1;
                for text in &texts {
                    assert_eq!(
                        sequence.is_match(text),
                        regex.find(text).is_some(),
                        "{pattern:?} on {text:?}"
                    );
                }
            }
        }
        assert!(read > 5_000, "only {read} patterns read");
    }

    #[test]
    fn what_the_automaton_does_not_read_goes_to_regress() {
        for pattern in [
            "(a)", "(?:a)", "a|b", r"\bword", r"(a)\1", "a(?=b)", "a$b", "a^", r"\u0041", r"\x41",
            r"\p{L}", "é", r"[\d-z]", "[a-]z[", "[[]", "a{2,1}", "a**", "a{64}", r"[\t\u]",
        ] {
            assert!(Sequence::parse(pattern).is_none(), "{pattern:?}");
        }
        // Through `Matcher`, such patterns still match as ECMA-262 says.
        let matcher = Matcher::new("^(?:ab)+$").unwrap();
        assert!(matcher.is_match("abab"));
        assert!(!matcher.is_match("aba"));
    }
}
