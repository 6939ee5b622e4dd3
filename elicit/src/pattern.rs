//! Matching a string property's `pattern`: an ECMA-262 regular expression compiled with the `u`
//! flag and searched for anywhere in the string, as JSON Schema 2020-12 asks.
//!
//! The pattern and the answer may both come from the other side of a connection, so the time a
//! match takes must be bounded whatever they are: a plain backtracking engine takes seconds on
//! the eight-character answer `abcdefg0` to `^(a|||||a){6,}$`. The work is shared out so:
//! - regress, an ECMA-262 engine, decides whether a pattern is valid; its parser is the
//!   reference, its matcher (which has no step limit) never runs on an answer;
//! - a sequence of characters and classes with quantifiers, what most forms use
//!   (`^[a-z][a-z0-9_]*$`, `^\d{5}$`, `^\+?[0-9 ]{7,15}$`), is compiled into a bit-parallel
//!   automaton ([`Sequence`]: one bit per position in the pattern, one table look-up and a few
//!   shifts per character, no allocation);
//! - any other pattern is translated ([`to_rust_syntax`]) and run by the `regex` crate, in time
//!   linear in the answer;
//! - lookaround, which `regex` lacks (`^(?=.*\d)(?=.*[a-z]).{8,}$`, `^(?!admin$)`), is run by
//!   fancy-regex with at most [`BACKTRACK_LIMIT`] steps; past that the answer is refused with
//!   the reason;
//! - backreferences (`\1`, `\k<name>`) are run by fancy-regex too, with the same limit. Where
//!   its reading differs from ECMA-262's it is translated or refused ([`check_backreferences`]):
//!   a backreference to a group without a value matches the empty string in ECMA-262 and fails
//!   in fancy-regex, so `\1` is written `(?(1)\1|)`; a group repeated by a quantifier keeps its
//!   value of an earlier repetition in fancy-regex, where ECMA-262 clears it, so a backreference
//!   to such a group is accepted only where the two agree.
//!
//! The tests compare every matcher with regress on every string up to three characters over an
//! alphabet of ASCII, white space, line terminators and non-ASCII letters, for thousands of
//! patterns.

use std::fmt;
use std::fmt::Write as _;

/// The most backtracking steps one match of a pattern with lookaround may take: a few
/// milliseconds.
pub(crate) const BACKTRACK_LIMIT: usize = 1_000_000;

/// The most memory one compiled pattern may take, in bytes: a form from a peer can hold any
/// pattern, and `(?:a{1000}){1000}` is short to write.
pub(crate) const COMPILED_SIZE_LIMIT: usize = 1 << 20;

/// Why a `pattern` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PatternError {
    /// Not an ECMA-262 regular expression with the `u` flag (regress's reason).
    Invalid(String),
    /// Valid, but beyond what can be run with bounded time and memory.
    Unsupported(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Invalid(reason) => write!(
                f,
                "the pattern is not a valid ECMA-262 regular expression (with the `u` flag): \
                 {reason}"
            ),
            PatternError::Unsupported(reason) => {
                write!(f, "the pattern cannot be run in bounded time: {reason}")
            }
        }
    }
}

/// A compiled `pattern`.
#[derive(Debug)]
pub(crate) enum Matcher {
    /// A sequence of classes with quantifiers.
    Sequence(Box<Sequence>),
    /// A pattern without lookaround, in linear time.
    Linear(regex::Regex),
    /// A pattern with lookaround, with at most [`BACKTRACK_LIMIT`] steps.
    Bounded(Box<fancy_regex::Regex>),
}

impl Matcher {
    /// Compiles `source` with the `u` flag.
    pub(crate) fn new(source: &str) -> Result<Matcher, PatternError> {
        regress::Regex::with_flags(source, "u")
            .map_err(|error| PatternError::Invalid(error.to_string()))?;
        if let Some(sequence) = Sequence::parse(source) {
            return Ok(Matcher::Sequence(Box::new(sequence)));
        }
        // `regex` has no backreferences: fancy-regex runs them, with the step limit.
        if !check_backreferences(source)? {
            let linear = to_rust_syntax(source, Dialect::Regex)?;
            match regex::RegexBuilder::new(&linear)
                .size_limit(COMPILED_SIZE_LIMIT)
                .dfa_size_limit(COMPILED_SIZE_LIMIT)
                .build()
            {
                Ok(regex) => return Ok(Matcher::Linear(regex)),
                Err(regex::Error::CompiledTooBig(_)) => return Err(too_big()),
                // Lookaround; fancy-regex below says so if it is anything else.
                Err(_) => {}
            }
        }
        // fancy-regex writes out counted repetitions around lookaround in a program of its own,
        // with no size limit: bound the copies before it compiles anything.
        let copies = repetition_product(source);
        if copies.saturating_mul(source.len() as u64) > MAX_WRITTEN_OUT {
            return Err(PatternError::Unsupported(format!(
                "with lookaround, counted repetitions may write out at most {MAX_WRITTEN_OUT} \
                 characters of pattern; this one repeats a piece {copies} times"
            )));
        }
        let bounded = to_rust_syntax(source, Dialect::FancyRegex)?;
        fancy_regex::RegexBuilder::new(&bounded)
            .backtrack_limit(BACKTRACK_LIMIT)
            .delegate_size_limit(COMPILED_SIZE_LIMIT)
            .delegate_dfa_size_limit(COMPILED_SIZE_LIMIT)
            .build()
            .map(|regex| Matcher::Bounded(Box::new(regex)))
            .map_err(|error| {
                PatternError::Unsupported(format!(
                    "fancy-regex cannot run its translation `{bounded}`: {error}"
                ))
            })
    }

    /// Whether the pattern matches anywhere in `text`; an error when that takes more than
    /// [`BACKTRACK_LIMIT`] steps.
    #[inline]
    pub(crate) fn find(&self, text: &str) -> Result<bool, PatternError> {
        match self {
            Matcher::Sequence(sequence) => Ok(sequence.is_match(text)),
            Matcher::Linear(regex) => Ok(regex.is_match(text)),
            Matcher::Bounded(regex) => regex.is_match(text).map_err(|_| {
                PatternError::Unsupported(format!(
                    "matching this answer takes more than {BACKTRACK_LIMIT} backtracking steps"
                ))
            }),
        }
    }
}

/// How much pattern text a lookaround pattern's counted repetitions may write out: the size
/// of fancy-regex's program grows with it, unchecked.
const MAX_WRITTEN_OUT: u64 = 100_000;

/// The largest product of the bounds of counted repetitions (`{n}`, `{n,m}`; `{n,}` counts `n`)
/// nested in one another: how many copies of a piece a compiler that writes repetitions out
/// makes. Reads a valid ECMA-262 pattern; escapes and classes are skipped.
fn repetition_product(source: &str) -> u64 {
    let bytes = source.as_bytes();
    // The largest product inside each open group, the whole pattern at the bottom.
    let mut levels: Vec<u64> = vec![1];
    // The product of the item just read: 1 for an atom, the inside's for a group.
    let mut last = 1u64;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => {
                at += 1;
                // `\u{…}`, `\p{…}`, `\k<…>` hold braces or brackets of their own.
                if matches!(bytes.get(at), Some(b'u' | b'p' | b'P' | b'k'))
                    && matches!(bytes.get(at + 1), Some(b'{' | b'<'))
                {
                    while at < bytes.len() && !matches!(bytes[at], b'}' | b'>') {
                        at += 1;
                    }
                }
                last = 1;
            }
            b'[' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b']' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                last = 1;
            }
            b'(' => {
                levels.push(1);
                last = 1;
            }
            b')' => {
                let inside = if levels.len() > 1 {
                    levels.pop().unwrap_or(1)
                } else {
                    1
                };
                if let Some(outer) = levels.last_mut() {
                    *outer = (*outer).max(inside);
                }
                last = inside;
            }
            b'{' => {
                let end = bytes[at..]
                    .iter()
                    .position(|&b| b == b'}')
                    .map_or(bytes.len(), |e| at + e);
                let bound = source[at + 1..end]
                    .split(',')
                    .filter_map(|n| {
                        n.parse::<u64>()
                            .ok()
                            .or_else(|| (!n.is_empty()).then_some(u64::MAX))
                    })
                    .max()
                    .unwrap_or(1);
                last = last.saturating_mul(bound);
                if let Some(level) = levels.last_mut() {
                    *level = (*level).max(last);
                }
                at = end;
            }
            _ => last = 1,
        }
        at += 1;
    }
    levels[0]
}

/// A group of a pattern, as [`check_backreferences`] reads it.
#[derive(Debug)]
struct Group {
    kind: GroupKind,
    parent: Option<usize>,
    /// The index after the group's `)`.
    end: usize,
    /// Followed by a quantifier that repeats it more than once: each repetition resets the
    /// captures inside it in ECMA-262.
    quantified: bool,
    /// An alternation `|` directly inside.
    alternation: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum GroupKind {
    /// The whole pattern.
    Root,
    /// A capturing group: its number and name.
    Capture(usize, Option<String>),
    NonCapture,
    LookAhead,
    LookBehind,
}

/// A backreference: to a group number or name, where it is and the group it is in.
#[derive(Debug)]
struct Backreference {
    number: Option<usize>,
    name: Option<String>,
    at: usize,
    inside: usize,
}

/// The groups and backreferences of a valid ECMA-262 pattern (`u` flag).
fn groups(source: &str) -> (Vec<Group>, Vec<Backreference>) {
    let bytes = source.as_bytes();
    let mut groups = vec![Group {
        kind: GroupKind::Root,
        parent: None,
        end: bytes.len(),
        quantified: false,
        alternation: false,
    }];
    let mut references = Vec::new();
    let mut open = 0;
    let mut captures = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => {
                let from = at;
                at += 1;
                match bytes.get(at) {
                    Some(b'1'..=b'9') => {
                        let digits = bytes[at..]
                            .iter()
                            .take_while(|b| b.is_ascii_digit())
                            .count();
                        references.push(Backreference {
                            number: source[at..at + digits].parse().ok().or(Some(usize::MAX)),
                            name: None,
                            at: from,
                            inside: open,
                        });
                        at += digits;
                        continue;
                    }
                    Some(b'k') if bytes.get(at + 1) == Some(&b'<') => {
                        let end = source[at..].find('>').map_or(bytes.len(), |e| at + e);
                        references.push(Backreference {
                            number: None,
                            name: Some(source[at + 2..end].to_owned()),
                            at: from,
                            inside: open,
                        });
                        at = end + 1;
                        continue;
                    }
                    _ => {}
                }
            }
            b'[' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b']' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => {
                let rest = &source[at + 1..];
                let kind = if let Some(name) = rest
                    .strip_prefix("?<")
                    .filter(|r| !r.starts_with('=') && !r.starts_with('!'))
                {
                    captures += 1;
                    let name = &name[..name.find('>').unwrap_or(name.len())];
                    GroupKind::Capture(captures, Some(name.to_owned()))
                } else if rest.starts_with("?=") || rest.starts_with("?!") {
                    GroupKind::LookAhead
                } else if rest.starts_with("?<") {
                    GroupKind::LookBehind
                } else if rest.starts_with('?') {
                    GroupKind::NonCapture
                } else {
                    captures += 1;
                    GroupKind::Capture(captures, None)
                };
                groups.push(Group {
                    kind,
                    parent: Some(open),
                    end: bytes.len(),
                    quantified: false,
                    alternation: false,
                });
                open = groups.len() - 1;
            }
            b')' => {
                let group = &mut groups[open];
                group.end = at + 1;
                group.quantified = match bytes.get(at + 1) {
                    Some(b'*' | b'+') => true,
                    // `{n}`, `{n,}`, `{n,m}`: more than one repetition.
                    Some(b'{') => {
                        let end = source[at..].find('}').map_or(bytes.len(), |e| at + e);
                        (source[at + 2..end].rsplit(','))
                            .next()
                            .is_some_and(|max| max.parse::<u64>().map_or(true, |max| max > 1))
                    }
                    // `?`, or none: at most once, so no value of an earlier repetition.
                    _ => false,
                };
                open = group.parent.unwrap_or(0);
            }
            b'|' => groups[open].alternation = true,
            _ => {}
        }
        at += 1;
    }
    (groups, references)
}

/// The number of the capturing group named `name`.
fn group_number(source: &str, name: &str) -> Option<usize> {
    groups(source).0.iter().find_map(|group| match &group.kind {
        GroupKind::Capture(number, Some(named)) if named == name => Some(*number),
        _ => None,
    })
}

/// Whether `source` has backreferences, refusing those whose value ECMA-262 and a backtracking
/// engine could read differently.
///
/// ECMA-262 (§22.2.2) resets the captures inside a quantified atom at the start of each
/// repetition, and reads a backreference to a group without a value as the empty string;
/// fancy-regex keeps a group's value from an earlier repetition, and fails a backreference to a
/// group without one. The second is translated away (`(?(n)\n|)`); the first makes no
/// difference when the group is in no atom repeated more than once (`*`, `+`, `{2,}`, …; `?`
/// repeats at most once), or when every backreference to it is
/// in the same repetition after the group, which is always taken in that repetition (no `|`
/// and no lookaround between the repetition and the group). Lookbehind matches backwards in
/// ECMA-262 and forwards in fancy-regex, which can capture differently: refused around a
/// backreference or a group it reads.
fn check_backreferences(source: &str) -> Result<bool, PatternError> {
    let (groups, references) = groups(source);
    let refuse = |what: &str| {
        Err(PatternError::Unsupported(format!(
            "a backreference {what}: ECMA-262 and the bounded backtracking engine could read it \
             differently"
        )))
    };
    let groups = &groups[..];
    let ancestors = |mut index: usize| {
        std::iter::from_fn(move || {
            let this = index;
            index = groups[this].parent?;
            Some(this)
        })
        .chain(std::iter::once(0))
    };
    let in_lookbehind =
        |index: usize| ancestors(index).any(|a| groups[a].kind == GroupKind::LookBehind);
    for reference in &references {
        let targets: Vec<usize> = (0..groups.len())
            .filter(|&g| match (&groups[g].kind, reference) {
                (
                    GroupKind::Capture(number, _),
                    Backreference {
                        number: Some(n), ..
                    },
                ) => number == n,
                (
                    GroupKind::Capture(_, Some(name)),
                    Backreference {
                        name: Some(wanted), ..
                    },
                ) => name == wanted,
                _ => false,
            })
            .collect();
        let [target] = targets[..] else {
            return refuse("to no group or to a name two groups share");
        };
        if in_lookbehind(reference.inside) {
            return refuse("inside lookbehind");
        }
        if in_lookbehind(target) {
            return refuse("to a group inside lookbehind");
        }
        if ancestors(reference.inside).any(|a| a == target) {
            return refuse("inside the group it refers to");
        }
        let Some(repeated) = ancestors(target).find(|&a| groups[a].quantified) else {
            continue;
        };
        let inside_repetition = ancestors(reference.inside).any(|a| a == repeated);
        if !inside_repetition || reference.at < groups[target].end {
            return refuse(
                "to a group inside a repetition, from outside the repetition or before the group",
            );
        }
        let taken = ancestors(groups[target].parent.unwrap_or(0))
            .take_while(|&a| a != groups[repeated].parent.unwrap_or(usize::MAX))
            .all(|a| {
                !groups[a].alternation
                    && !matches!(groups[a].kind, GroupKind::LookAhead | GroupKind::LookBehind)
            });
        if !taken {
            return refuse(
                "to a group inside a repetition that some repetitions skip (behind `|` or \
                 lookaround)",
            );
        }
    }
    Ok(!references.is_empty())
}

fn too_big() -> PatternError {
    PatternError::Unsupported(format!(
        "compiled, it would take more than {COMPILED_SIZE_LIMIT} bytes"
    ))
}

/// Which engine a translation is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Regex,
    FancyRegex,
}

/// ECMA-262's classes `\d`, `\w` and `\s` (`\s`: white space and line terminators).
const ECMA_DIGIT: &str = "0-9";
const ECMA_WORD: &str = "A-Za-z0-9_";
const ECMA_SPACE: &str =
    r"\t-\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}";

/// `source`, a valid ECMA-262 pattern (`u` flag), in the syntax of `regex` or fancy-regex with
/// the same meaning, token by token: the classes `\d \w \s` are ASCII or ECMA-262's own set, `.`
/// stops at all four line terminators, `\b` is between ASCII word characters, and the class
/// syntax of the Rust crates (`[[`, `&&`, `--`, `~~`) is escaped, and for fancy-regex a
/// backreference is `(?(n)\n|)` (the empty string when group `n` has no value). Refused:
/// backreferences for `regex`, and the inline modifiers `(?i:…)` whose case folding would have
/// to be checked character by character.
fn to_rust_syntax(source: &str, dialect: Dialect) -> Result<String, PatternError> {
    let unsupported = |what: &str| Err(PatternError::Unsupported(what.to_owned()));
    let mut out = String::with_capacity(source.len() * 2);
    let mut chars = source.chars().peekable();
    // Inside a class: whether the previous item was a single character (a possible range start),
    // and whether a `-` range operator follows it.
    let mut class: Option<(bool, bool)> = None;
    while let Some(c) = chars.next() {
        let Some((after_char, in_range)) = class else {
            match c {
                '\\' => {
                    let Some(escaped) = chars.next() else {
                        return unsupported("a trailing backslash");
                    };
                    match escaped {
                        'd' | 'D' | 'w' | 'W' | 's' | 'S' => push_class_escape(&mut out, escaped),
                        'b' | 'B' => push_word_boundary(&mut out, escaped == 'B', dialect),
                        '1'..='9' | 'k' if dialect == Dialect::Regex => {
                            return unsupported("a backreference")
                        }
                        // ECMA-262 reads a backreference to a group without a value as the
                        // empty string, fancy-regex as failing: only if the group has one.
                        '1'..='9' => {
                            let mut number = String::from(escaped);
                            while let Some(digit) = chars.next_if(char::is_ascii_digit) {
                                number.push(digit);
                            }
                            let _ = write!(out, r"(?({number})\{number}|)");
                        }
                        'k' => {
                            chars.next_if_eq(&'<');
                            let name: String = chars.by_ref().take_while(|&c| c != '>').collect();
                            let Some(number) = group_number(source, &name) else {
                                return unsupported("a backreference to no group");
                            };
                            let _ = write!(out, r"(?({number})\{number}|)");
                        }
                        _ => push_escape(&mut out, escaped, &mut chars)?,
                    }
                }
                '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
                '[' => {
                    let negated = chars.next_if_eq(&'^').is_some();
                    if chars.next_if_eq(&']').is_some() {
                        // `[]` matches nothing, `[^]` any character.
                        out.push_str(if negated {
                            r"[\x{0}-\x{10ffff}]"
                        } else {
                            r"[^\x{0}-\x{10ffff}]"
                        });
                        continue;
                    }
                    out.push_str(if negated { "[^" } else { "[" });
                    class = Some((false, false));
                }
                '(' if chars.peek() == Some(&'?') => {
                    out.push_str("(?");
                    chars.next();
                    match chars.peek() {
                        Some(':' | '=' | '!') => {}
                        Some('<') => {}
                        _ => return unsupported("inline modifiers"),
                    }
                }
                _ => out.push(c),
            }
            continue;
        };
        // Inside a class.
        let single = match c {
            ']' => {
                out.push(']');
                class = None;
                continue;
            }
            '-' if after_char && !in_range && chars.peek() != Some(&']') => {
                out.push('-');
                class = Some((false, true));
                continue;
            }
            '\\' => {
                let Some(escaped) = chars.next() else {
                    return unsupported("a trailing backslash");
                };
                match escaped {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                        push_class_escape(&mut out, escaped);
                        false
                    }
                    'b' => {
                        out.push_str(r"\x{8}");
                        true
                    }
                    'p' | 'P' => {
                        push_escape(&mut out, escaped, &mut chars)?;
                        false
                    }
                    _ => {
                        push_escape(&mut out, escaped, &mut chars)?;
                        true
                    }
                }
            }
            '[' | '&' | '~' | '-' => {
                out.push('\\');
                out.push(c);
                true
            }
            _ => {
                out.push(c);
                true
            }
        };
        class = Some((single && !in_range, false));
    }
    Ok(out)
}

/// `\d \D \w \W \s \S` as a bracketed class, which both crates also accept inside a class.
fn push_class_escape(out: &mut String, letter: char) {
    let set = match letter.to_ascii_lowercase() {
        'd' => ECMA_DIGIT,
        'w' => ECMA_WORD,
        _ => ECMA_SPACE,
    };
    let negated = if letter.is_ascii_uppercase() { "^" } else { "" };
    let _ = write!(out, "[{negated}{set}]");
}

fn push_word_boundary(out: &mut String, negated: bool, dialect: Dialect) {
    out.push_str(match (dialect, negated) {
        (Dialect::Regex, false) => r"(?-u:\b)",
        (Dialect::Regex, true) => r"(?-u:\B)",
        // fancy-regex cannot switch Unicode off inline: the same assertion from lookaround.
        (Dialect::FancyRegex, false) => {
            r"(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))"
        }
        (Dialect::FancyRegex, true) => {
            r"(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))"
        }
    });
}

/// Any other escape after its backslash: character escapes become `\x{…}`, property escapes
/// are copied, and an escaped syntax character stays escaped.
fn push_escape(
    out: &mut String,
    escaped: char,
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
) -> Result<(), PatternError> {
    let hex = |digits: usize, chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        let text: String = (0..digits).filter_map(|_| chars.next()).collect();
        u32::from_str_radix(&text, 16).ok()
    };
    let code = match escaped {
        't' => 0x09,
        'n' => 0x0a,
        'v' => 0x0b,
        'f' => 0x0c,
        'r' => 0x0d,
        '0' => 0,
        'c' => chars.next().map_or(0, |letter| u32::from(letter) % 32),
        'x' => hex(2, chars).unwrap_or(0),
        'u' if chars.next_if_eq(&'{').is_some() => {
            let text: String = chars.by_ref().take_while(|&c| c != '}').collect();
            u32::from_str_radix(&text, 16).unwrap_or(0)
        }
        'u' => {
            let first = hex(4, chars).unwrap_or(0);
            // A surrogate pair written as two escapes is one code point under the `u` flag.
            let mut lookahead = chars.clone();
            if (0xd800..0xdc00).contains(&first)
                && lookahead.next() == Some('\\')
                && lookahead.next() == Some('u')
            {
                let second = hex(4, &mut lookahead).unwrap_or(0);
                if (0xdc00..0xe000).contains(&second) {
                    *chars = lookahead;
                    0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
                } else {
                    first
                }
            } else {
                first
            }
        }
        'p' | 'P' => {
            out.push('\\');
            out.push(escaped);
            for c in chars.by_ref() {
                out.push(c);
                if c == '}' {
                    break;
                }
            }
            return Ok(());
        }
        _ if escaped.is_ascii_punctuation() => {
            out.push('\\');
            out.push(escaped);
            return Ok(());
        }
        _ => {
            return Err(PatternError::Unsupported(format!(
                "the escape `\\{escaped}` has no counterpart"
            )))
        }
    };
    if char::from_u32(code).is_none() {
        return Err(PatternError::Unsupported(
            "a lone surrogate has no counterpart".into(),
        ));
    }
    let _ = write!(out, r"\x{{{code:x}}}");
    Ok(())
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
pub(crate) struct Sequence {
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

    /// The pattern run by `regex`, as [`Matcher`] would if the automaton did not read it.
    fn linear(pattern: &str) -> Option<regex::Regex> {
        regex::Regex::new(&to_rust_syntax(pattern, Dialect::Regex).ok()?).ok()
    }

    /// The pattern run by fancy-regex, as [`Matcher`] would if it had lookaround.
    fn bounded(pattern: &str) -> Option<fancy_regex::Regex> {
        check_backreferences(pattern).ok()?;
        fancy_regex::RegexBuilder::new(&to_rust_syntax(pattern, Dialect::FancyRegex).ok()?)
            .backtrack_limit(BACKTRACK_LIMIT)
            .build()
            .ok()
    }

    /// Asserts that every engine that reads `pattern` agrees with regress on `texts`, and
    /// returns how many read it (of the automaton, `regex` and fancy-regex).
    fn engines_agree(pattern: &str, regex: &regress::Regex, texts: &[String]) -> usize {
        let sequence = Sequence::parse(pattern);
        let linear = linear(pattern);
        let bounded = bounded(pattern);
        for text in texts {
            let expected = regex.find(text).is_some();
            if let Some(sequence) = &sequence {
                assert_eq!(sequence.is_match(text), expected, "{pattern:?} on {text:?}");
            }
            if let Some(linear) = &linear {
                assert_eq!(
                    linear.is_match(text),
                    expected,
                    "regex: {pattern:?} on {text:?}"
                );
            }
            if let Some(bounded) = &bounded {
                assert_eq!(
                    bounded.is_match(text).ok(),
                    Some(expected),
                    "fancy-regex: {pattern:?} on {text:?}"
                );
            }
        }
        usize::from(sequence.is_some())
            + usize::from(linear.is_some())
            + usize::from(bounded.is_some())
    }

    /// Asserts that the automaton, `regex` and fancy-regex all read `pattern` and agree with
    /// regress on `texts`.
    fn agrees(pattern: &str, texts: &[String]) {
        let regex = regress::Regex::with_flags(pattern, "u")
            .unwrap_or_else(|error| panic!("{pattern:?} does not compile: {error}"));
        assert_eq!(engines_agree(pattern, &regex, texts), 3, "{pattern:?}");
    }

    /// Asserts that `pattern` compiles to `engine` and that every engine that reads it agrees
    /// with regress on `texts`.
    fn runs_on(engine: fn(&Matcher) -> bool, pattern: &str, texts: &[String]) {
        let regex = regress::Regex::with_flags(pattern, "u")
            .unwrap_or_else(|error| panic!("{pattern:?} does not compile: {error}"));
        let matcher = Matcher::new(pattern).unwrap_or_else(|error| panic!("{pattern:?}: {error}"));
        assert!(engine(&matcher), "{pattern:?} compiles to {matcher:?}");
        engines_agree(pattern, &regex, texts);
        for text in texts {
            assert_eq!(
                matcher.find(text),
                Ok(regex.find(text).is_some()),
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
        let (mut valid, mut read, mut translated) = (0, 0, 0);
        for pattern in &patterns {
            let Ok(regex) = regress::Regex::with_flags(pattern, "u") else {
                continue;
            };
            valid += 1;
            read += usize::from(Sequence::parse(pattern).is_some());
            translated += usize::from(Matcher::new(pattern).is_ok());
            engines_agree(pattern, &regex, &texts);
        }
        assert!(read > 5_000, "only {read} patterns read");
        // What is refused is a backreference to a repeated group (`(1)*\1`).
        assert!(
            translated * 100 > valid * 95,
            "{translated} of {valid} translated"
        );
    }

    fn more_texts() -> Vec<String> {
        let mut texts = texts(3);
        texts.extend(
            [
                "ab cd",
                "word",
                "a word.",
                "éword",
                "aé",
                "abab",
                "aba",
                "$100",
                "abcdefg1",
                "admin",
                "administrator",
                "a\u{1F600}b",
            ]
            .map(str::to_owned),
        );
        texts
    }

    #[test]
    fn what_the_automaton_does_not_read_regex_runs_as_ecma_262_says() {
        let texts = more_texts();
        let linear = |matcher: &Matcher| matches!(matcher, Matcher::Linear(_));
        for pattern in [
            "^(?:ab)+$",
            "(a)",
            "a|b",
            r"\bword",
            r"\Bor",
            r"a\b",
            r"\b",
            "a$b",
            "a^",
            r"\u0041",
            r"\x41",
            r"\u{e9}",
            r"\uD83D\uDE00",
            r"\p{L}",
            r"\P{L}",
            r"\p{Script=Latin}+",
            "é",
            "(a.b)",
            "^(.*)$",
            r"^(\s|a)+$",
            "(?<name>a|é)+",
            "^(a|||||a){6,}$",
            "^(a|aa)+$",
            r"([a&&b])+",
            r"[a~~b]|c",
            r"([\w&&])+",
            r"[+--]|x",
            r"[\b]|\cJ",
            r"([.\s])",
            r"[\d\-z]|[[]",
            "^a{2,}?(b|)$",
            "(a)|[]",
            "(a)|[^]",
            r"(\0)",
        ] {
            runs_on(linear, pattern, &texts);
        }
    }

    #[test]
    fn lookaround_runs_in_bounded_steps_as_ecma_262_says() {
        let texts = more_texts();
        let bounded = |matcher: &Matcher| matches!(matcher, Matcher::Bounded(_));
        for pattern in [
            r"^(?=.*\d)(?=.*[a-z]).{8,}$",
            r"^(?!admin$).*",
            r"(?<=\$)\d+",
            r"(?<!a)b",
            r"a(?=b)",
            r"a(?!\s)",
            r"(?<=\bw)o",
            r"\b(?=\w)é?",
            r"(?<=é)",
            r"^(?=.)[^\s]*\p{L}?$",
        ] {
            runs_on(bounded, pattern, &texts);
        }
        // A pattern that makes backtracking explode meets the limit, and says so.
        let matcher = Matcher::new("^(?:(?=a)a|(?=a)a|(?=a)a)+$").unwrap();
        assert_eq!(matcher.find("aaa"), Ok(true));
        let error = matcher.find(&format!("{}b", "a".repeat(30))).unwrap_err();
        assert!(error.to_string().contains("backtracking steps"), "{error}");
    }

    /// Backreferences, against regress and against what ECMA-262 §22.2.2 says: a backreference
    /// to a group without a value (not taken, or not reached yet) matches the empty string, and
    /// the captures inside a repeated atom are cleared at each repetition.
    #[test]
    fn backreferences_run_in_bounded_steps_as_ecma_262_says() {
        let mut texts = more_texts();
        texts.extend(
            [
                "'ab'",
                "'ab\"",
                "aZa",
                "aZaZ",
                "abcabc",
                "123-123",
                "123-124",
                "2024-01/02",
                "2024-01-02",
                "aab",
                "bab",
                "aaab",
            ]
            .map(str::to_owned),
        );
        let bounded = |matcher: &Matcher| matches!(matcher, Matcher::Bounded(_));
        for pattern in [
            r"(a)\1",
            r"^(\w)\1$",
            r#"^(['"]).*\1$"#,
            r"^(?<q>[a7])\k<q>$",
            r"\k<q>(?<q>a)",
            r"^\1(a)$",
            r"^(a)?b\1$",
            r"^(?:(a)|b)\1$",
            r"^(\d{3})-\1$",
            r"^\d{4}([-/])\d{2}\1\d{2}$",
            r"^(?!.*(.).*\1)",
            r"^(?:(\w)(?!\1))+$",
            r"^(?:(a)(?:b|\1))+$",
            r"(a)\1*",
            r"()\1+",
            r"(?=(a+))a*b\1",
            r"(?!(a)b)\1",
            r"^((?:a|b)*)\1$",
            r"(?<n>.)(?<m>.)\k<m>\k<n>",
        ] {
            runs_on(bounded, pattern, &texts);
        }
        // Worked out from the specification, whatever the engines say.
        for (pattern, text, expected) in [
            // Group 1 takes no part: the backreference is empty.
            (r"^(a)?b\1$", "b", true),
            (r"^(a)?b\1$", "aba", true),
            (r"^(a)?b\1$", "ab", false),
            (r"^(?:(a)|b)\1$", "b", true),
            (r"^(?:(a)|b)\1$", "aa", true),
            (r"^(?:(a)|b)\1$", "ba", false),
            // Not reached yet: empty too.
            (r"^\1(a)$", "a", true),
            (r"^\1(a)$", "aa", false),
            (r"^\k<q>(?<q>a)$", "a", true),
            // The value is the text the group matched.
            (r"^(?<q>[a7])\k<q>$", "aa", true),
            (r"^(?<q>[a7])\k<q>$", "a7", false),
            (r#"^(['"]).*\1$"#, "'ab'", true),
            (r#"^(['"]).*\1$"#, "'ab\"", false),
            (r"^\d{4}([-/])\d{2}\1\d{2}$", "2024-01-02", true),
            (r"^\d{4}([-/])\d{2}\1\d{2}$", "2024-01/02", false),
            // Within one repetition, the group's value of that repetition.
            (r"^(?:(\w)(?!\1))+$", "aZa", true),
            (r"^(?:(\w)(?!\1))+$", "aa", false),
            // No character twice.
            (r"^(?!.*(.).*\1)", "abc", true),
            (r"^(?!.*(.).*\1)", "aba", false),
            // Lookahead is atomic: `a+` keeps all the a's it took.
            (r"(?=(a+))a*b\1", "baaabac", true),
            (r"^(?=(a+))a*b\1$", "aab", false),
        ] {
            let matcher =
                Matcher::new(pattern).unwrap_or_else(|error| panic!("{pattern}: {error}"));
            assert_eq!(matcher.find(text), Ok(expected), "{pattern:?} on {text:?}");
        }
        // Backtracking that explodes meets the limit, and says so.
        let matcher = Matcher::new(r"^(a)(?:\1|a|(?=a)a)+$").unwrap();
        assert_eq!(matcher.find("aaa"), Ok(true));
        let error = matcher.find(&format!("{}b", "a".repeat(30))).unwrap_err();
        assert!(error.to_string().contains("backtracking steps"), "{error}");
    }

    #[test]
    fn repetition_products_multiply_along_nesting() {
        for (pattern, product) in [
            ("abc", 1),
            ("a{5}", 5),
            ("(?:a{2}){3}", 6),
            ("a{5}|b{7,9}", 9),
            ("(a{4}|b){3}c{2}", 12),
            (r"\u{41}{3}", 3),
            (r"[{}]{2}", 2),
            (r"\p{L}{2,}", 2),
            ("((ab){100}c){100}", 10_000),
            ("a{99999999999999999999999}", u64::MAX),
        ] {
            assert_eq!(repetition_product(pattern), product, "{pattern:?}");
        }
    }

    #[test]
    fn what_cannot_run_in_bounded_time_is_refused_with_the_reason() {
        for (pattern, reason) in [
            (r"(?:(a)|b)+\1", "backreference"),
            (r"(a)+\1", "backreference"),
            (r"(?:\1(a))+", "backreference"),
            (r"(?:(?:(a)|b)\1)+", "backreference"),
            (r"(?:(?=(a))\1)+", "backreference"),
            (r"(a\1)", "backreference"),
            (r"(?<=(a))\1", "backreference"),
            (r"(?<=\1(a))b", "backreference"),
            ("(?i:a)", "modifiers"),
            ("(?:a{1000}){1000}", "bytes"),
            // Found by fuzzing: fancy-regex wrote the repetition out until memory ran out.
            (r"(?<=a4{672921851})\d+", "repeats a piece"),
            (r"(?=((ab){100}c){100})", "repeats a piece"),
        ] {
            match Matcher::new(pattern) {
                Err(PatternError::Unsupported(text)) => {
                    assert!(text.contains(reason), "{pattern:?}: {text}")
                }
                other => panic!("{pattern:?}: {other:?}"),
            }
        }
        for pattern in ["(", "a{2,1}", r"[\d-z]", "a**"] {
            match Matcher::new(pattern) {
                Err(PatternError::Invalid(_)) => {}
                other => panic!("{pattern:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn what_the_automaton_does_not_read() {
        for pattern in [
            "(a)", "(?:a)", "a|b", r"\bword", r"(a)\1", "a(?=b)", "a$b", "a^", r"\u0041", r"\x41",
            r"\p{L}", "é", r"[\d-z]", "[a-]z[", "[[]", "a{2,1}", "a**", "a{64}", r"[\t\u]",
        ] {
            assert!(Sequence::parse(pattern).is_none(), "{pattern:?}");
        }
    }
}
