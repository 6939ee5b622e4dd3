//! The four string `format`s of the elicitation subset, asserted as JSON Schema 2020-12 lets an
//! implementation assert them: `email` (RFC 5321 mailbox, the SMTP form of the RFC 5322
//! addr-spec), `uri` (RFC 3986 absolute URI), `date` (RFC 3339 full-date) and `date-time`
//! (RFC 3339 date-time).
//!
//! The answers are the same at run time (validation of an answer) and at compile time
//! (`#[derive(Elicit)]` checks a string field's `default` against its `format` through
//! [`RequestedSchema::problems`](crate::RequestedSchema::problems)). Use them through
//! [`StringFormat::is_valid`]; the names of the formats are [`StringFormat`]'s alone.

use std::fmt;
use std::str::FromStr;

use crate::StringFormat;

impl StringFormat {
    /// Whether `value` is valid for this format, as [`RequestedSchema::validate`] asserts it:
    ///
    /// - `email`: an RFC 5321 `Mailbox` (the SMTP form of the RFC 5322 addr-spec): a dot-atom
    ///   or quoted-string local part, exactly one unquoted `@`, and a host name (letters,
    ///   digits and inner hyphens per label) or an address literal (`[192.0.2.1]`,
    ///   `[IPv6:::1]`); no display name, comments or unquoted white space, ASCII only;
    /// - `uri`: an RFC 3986 `URI`, so a scheme is required (`/a/b` and `example.com` are
    ///   relative references, not URIs), with every character and percent-encoding checked,
    ///   ASCII only;
    /// - `date`: an RFC 3339 `full-date` that exists in the Gregorian calendar;
    /// - `date-time`: an RFC 3339 `date-time`, `T`/`Z` in either case, an offset required,
    ///   fractional seconds allowed, and a leap second (`:60`) only at 23:59 UTC.
    ///
    /// [`RequestedSchema::validate`]: crate::RequestedSchema::validate
    pub fn is_valid(self, value: &str) -> bool {
        match self {
            StringFormat::Email => is_email(value),
            StringFormat::Uri => is_uri(value),
            StringFormat::Date => is_date(value),
            StringFormat::DateTime => is_date_time(value),
        }
    }

    /// What a value of the format looks like, for messages (for `email`: an RFC 5321 mailbox
    /// such as `name@example.com`).
    pub fn description(self) -> &'static str {
        match self {
            StringFormat::Email => "an RFC 5321 mailbox such as `name@example.com`",
            StringFormat::Uri => {
                "an RFC 3986 absolute URI, with a scheme, such as `https://example.com/`"
            }
            StringFormat::Date => "an RFC 3339 full-date that exists, such as `2024-02-29`",
            StringFormat::DateTime => {
                "an RFC 3339 date-time with an offset, such as `2024-02-29T12:00:00Z`"
            }
        }
    }
}

/// A `format` name that is not one of the four of the elicitation subset, from
/// [`StringFormat`]'s [`FromStr`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown format `{}`: form mode allows only ", self.0)?;
        for (i, format) in StringFormat::ALL.iter().enumerate() {
            let separator = match i {
                0 => "",
                _ if i + 1 == StringFormat::ALL.len() => " and ",
                _ => ", ",
            };
            write!(f, "{separator}`{format}`")?;
        }
        f.write_str("; use `pattern` for anything else")
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for StringFormat {
    type Err = UnknownFormat;

    /// The format named `name` (`"date-time"`), or the error that says which names there are.
    fn from_str(name: &str) -> Result<StringFormat, UnknownFormat> {
        StringFormat::from_name(name).ok_or_else(|| UnknownFormat(name.to_owned()))
    }
}

// ---------------------------------------------------------------------------------------------
// Character classes: one table of bit flags, so a byte's class costs one load.

/// RFC 5322 `atext`.
const ATEXT: u16 = 1;
/// RFC 3986 `unreserved`.
const UNRESERVED: u16 = 1 << 1;
/// RFC 3986 `sub-delims`.
const SUB_DELIM: u16 = 1 << 2;
const COLON: u16 = 1 << 3;
const AT: u16 = 1 << 4;
const SLASH: u16 = 1 << 5;
const QUESTION: u16 = 1 << 6;
/// RFC 5321 `Let-dig`: an ASCII letter or digit.
const LET_DIG: u16 = 1 << 7;
/// `-`, which RFC 5321's `Ldh-str` allows inside a label.
const HYPHEN: u16 = 1 << 8;
/// RFC 3986 `pchar`, without `pct-encoded` (see [`all_chars`]).
const PCHAR: u16 = UNRESERVED | SUB_DELIM | COLON | AT;

static CLASSES: [u16; 256] = classes();

const fn classes() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut class = 0;
        if c.is_ascii_alphanumeric() {
            class |= ATEXT | UNRESERVED | LET_DIG;
        }
        if matches!(
            c,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
        ) {
            class |= ATEXT;
        }
        if matches!(c, b'-' | b'.' | b'_' | b'~') {
            class |= UNRESERVED;
        }
        if matches!(
            c,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        ) {
            class |= SUB_DELIM;
        }
        match c {
            b'-' => class |= HYPHEN,
            b':' => class |= COLON,
            b'@' => class |= AT,
            b'/' => class |= SLASH,
            b'?' => class |= QUESTION,
            _ => {}
        }
        table[b] = class;
        b += 1;
    }
    table
}

/// Whether `b` is in one of the classes of `class`.
#[inline]
fn is(b: u8, class: u16) -> bool {
    CLASSES[b as usize] & class != 0
}

// ---------------------------------------------------------------------------------------------
// email

/// RFC 5321 `Mailbox = Local-part "@" ( Domain / address-literal )`, which is the RFC 5322
/// addr-spec without comments, folding white space or obsolete forms: the local part is a
/// dot-atom or a quoted string, the domain a host name or a bracketed address literal.
fn is_email(value: &str) -> bool {
    let domain = if value.starts_with('"') {
        match split_quoted_mailbox(value) {
            Some((local, domain)) if is_local_part(local) => domain,
            _ => return false,
        }
    } else {
        // The dot-atom and the search for its `@` in one pass.
        match dot_string(value.as_bytes()) {
            Some(at) if at < value.len() => &value[at + 1..],
            _ => return false,
        }
    };
    is_domain(domain) || is_address_literal(domain)
}

/// Splits a mailbox whose local part is a quoted string at the `@` after its closing quote.
fn split_quoted_mailbox(value: &str) -> Option<(&str, &str)> {
    let bytes = value.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let local = value.get(..=i)?;
                let rest = value.get(i + 1..)?;
                return rest.strip_prefix('@').map(|domain| (local, domain));
            }
            _ => i += 1,
        }
    }
    None
}

fn is_local_part(local: &str) -> bool {
    let bytes = local.as_bytes();
    if bytes.first() == Some(&b'"') {
        // Quoted-string = DQUOTE *QcontentSMTP DQUOTE
        if bytes.len() < 2 || bytes[bytes.len() - 1] != b'"' {
            return false;
        }
        let inner = &bytes[1..bytes.len() - 1];
        let mut i = 0;
        while i < inner.len() {
            match inner[i] {
                // quoted-pairSMTP = %d92 %d32-126
                b'\\' => match inner.get(i + 1) {
                    Some(32..=126) => i += 2,
                    _ => return false,
                },
                // qtextSMTP = %d32-33 / %d35-91 / %d93-126
                32..=33 | 35..=91 | 93..=126 => i += 1,
                _ => return false,
            }
        }
        true
    } else {
        dot_string(bytes) == Some(bytes.len())
    }
}

/// The length of the RFC 5321 `Dot-string = Atom *("." Atom)` that `bytes` start with, up to
/// the first `@` or the end; `None` when it is not one (no empty atom, so no dot first, last
/// or doubled).
fn dot_string(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        // An atom: one or more `atext`, then a dot and the next atom, or the end.
        let start = at;
        while bytes.get(at).is_some_and(|&b| is(b, ATEXT)) {
            at += 1;
        }
        if at == start {
            return None;
        }
        match bytes.get(at) {
            Some(b'.') => at += 1,
            Some(b'@') | None => return Some(at),
            Some(_) => return None,
        }
    }
}

/// RFC 5321 `Domain = sub-domain *("." sub-domain)`, `sub-domain = Let-dig [Ldh-str]`: labels
/// of letters, digits and inner hyphens.
fn is_domain(domain: &str) -> bool {
    let bytes = domain.as_bytes();
    let mut at = 0;
    loop {
        // A label: a Let-dig, then a run of Let-digs and hyphens that does not end in one.
        if !bytes.get(at).is_some_and(|&b| is(b, LET_DIG)) {
            return false;
        }
        at += 1;
        while bytes.get(at).is_some_and(|&b| is(b, LET_DIG | HYPHEN)) {
            at += 1;
        }
        if bytes[at - 1] == b'-' {
            return false;
        }
        match bytes.get(at) {
            None => return true,
            Some(b'.') => at += 1,
            Some(_) => return false,
        }
    }
}

/// RFC 5321 `address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
/// General-address-literal ) "]"`.
fn is_address_literal(domain: &str) -> bool {
    let Some(inner) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) else {
        return false;
    };
    // The tag is an ABNF string, so case-insensitive.
    if let Some(v6) = inner
        .get(..5)
        .filter(|tag| tag.eq_ignore_ascii_case("IPv6:"))
        .and_then(|_| inner.get(5..))
    {
        return is_ipv6(v6, true);
    }
    if is_ipv4(inner, true) {
        return true;
    }
    // General-address-literal = Standardized-tag ":" 1*dcontent; the tag is a Ldh-str
    // registered with IANA (none besides IPv6 is), so it must at least have that shape.
    match inner.split_once(':') {
        Some((tag, content)) => {
            let tag_bytes = tag.as_bytes();
            !tag.is_empty()
                && !tag.eq_ignore_ascii_case("IPv6")
                && tag_bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
                && tag_bytes.last().is_some_and(u8::is_ascii_alphanumeric)
                && !content.is_empty()
                && content.bytes().all(|b| matches!(b, 33..=90 | 94..=126))
        }
        None => false,
    }
}

/// RFC 3986 `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet` (no leading
/// zeros), or with `snum` the RFC 5321 `IPv4-address-literal` (`Snum = 1*3DIGIT`, 0 to 255,
/// leading zeros allowed).
fn is_ipv4(value: &str, snum: bool) -> bool {
    let mut count = 0;
    for part in value.split('.') {
        count += 1;
        let ok = match part.len() {
            1 => part.bytes().all(|b| b.is_ascii_digit()),
            2 | 3 => {
                part.bytes().all(|b| b.is_ascii_digit())
                    && (snum || !part.starts_with('0'))
                    && part.parse::<u16>().is_ok_and(|n| n <= 255)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    count == 4
}

/// RFC 3986 `IPv6address` (eight 16-bit groups, one `::` for at least one zero group, an
/// embedded IPv4 address as the last 32 bits, written as [`is_ipv4`] with `snum` says).
fn is_ipv6(value: &str, snum: bool) -> bool {
    fn groups(part: &str, snum: bool) -> Option<(usize, bool)> {
        // Returns the number of 16-bit groups and whether the part ends with an IPv4 address.
        if part.is_empty() {
            return Some((0, false));
        }
        let pieces: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (i, piece) in pieces.iter().enumerate() {
            if i + 1 == pieces.len() && piece.contains('.') {
                if !is_ipv4(piece, snum) {
                    return None;
                }
                return Some((count + 2, true));
            }
            if piece.is_empty() || piece.len() > 4 || !piece.bytes().all(|b| b.is_ascii_hexdigit())
            {
                return None;
            }
            count += 1;
        }
        Some((count, false))
    }
    match value.split_once("::") {
        Some((left, right)) => {
            if right.contains("::") {
                return false;
            }
            match (groups(left, snum), groups(right, snum)) {
                (Some((l, l_v4)), Some((r, _))) => !l_v4 && l + r <= 7,
                _ => false,
            }
        }
        None => matches!(groups(value, snum), Some((8, _))),
    }
}

// ---------------------------------------------------------------------------------------------
// uri

/// Whether every byte of `text` is in `class` or starts a valid `pct-encoded`.
fn all_chars(text: &str, class: u16) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is(b, class) {
            i += 1;
        } else if is_pct_encoded(bytes, i) {
            i += 3;
        } else {
            return false;
        }
    }
    true
}

/// Whether a `pct-encoded` (`%` and two hex digits) starts at `at`.
#[inline]
fn is_pct_encoded(bytes: &[u8], at: usize) -> bool {
    matches!(bytes.get(at..at + 3), Some([b'%', a, b]) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit())
}

/// `text` split at the first `byte`, without it.
fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = text.bytes().position(|b| b == byte)?;
    Some((&text[..at], &text[at + 1..]))
}

/// RFC 3986 `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, in one pass: the
/// scheme, the authority when `//` follows it, then the path, query and fragment, each byte
/// checked against the class of the part it is in.
fn is_uri(value: &str) -> bool {
    let bytes = value.as_bytes();
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut i = 1;
    loop {
        match bytes.get(i) {
            Some(b':') => break,
            Some(&b) if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') => i += 1,
            _ => return false,
        }
    }
    i += 1;
    // hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
    if bytes[i..].starts_with(b"//") {
        let start = i + 2;
        // Most authorities are a plain host name: a run of reg-name characters up to the
        // path, query or fragment. Anything else (user information, a port, an IP literal, a
        // percent-encoding) is read by the full grammar.
        let plain = (bytes[start..].iter())
            .position(|&b| !is(b, UNRESERVED | SUB_DELIM))
            .map_or(bytes.len(), |at| start + at);
        i = if matches!(bytes.get(plain), None | Some(b'/' | b'?' | b'#')) {
            plain
        } else {
            let end = (bytes[plain..].iter())
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .map_or(bytes.len(), |at| plain + at);
            if !is_authority(&value[start..end]) {
                return false;
            }
            end
        };
    }
    // path: *( pchar / "/" ); query = fragment = *( pchar / "/" / "?" ). A `?` outside the
    // query and fragment starts the query, the first `#` starts the fragment.
    let mut class = PCHAR | SLASH;
    let mut in_fragment = false;
    while let Some(&b) = bytes.get(i) {
        if is(b, class) {
            i += 1;
        } else if is_pct_encoded(bytes, i) {
            i += 3;
        } else if b == b'?' || (b == b'#' && !in_fragment) {
            in_fragment |= b == b'#';
            class = PCHAR | SLASH | QUESTION;
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// RFC 3986 `authority = [ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &str) -> bool {
    let host_port = match split_at_byte(authority, b'@') {
        Some((userinfo, host_port)) => {
            if !all_chars(userinfo, UNRESERVED | SUB_DELIM | COLON) {
                return false;
            }
            host_port
        }
        None => authority,
    };
    let (host_ok, port) = if let Some(bracketed) = host_port.strip_prefix('[') {
        match split_at_byte(bracketed, b']') {
            Some((literal, after)) => {
                let port = match after {
                    "" => Some(""),
                    _ => after.strip_prefix(':'),
                };
                (is_ip_literal(literal), port)
            }
            None => (false, None),
        }
    } else {
        let (host, port) = match split_at_byte(host_port, b':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, Some("")),
        };
        // reg-name (which includes IPv4address as a shape).
        (all_chars(host, UNRESERVED | SUB_DELIM), port)
    };
    host_ok && port.is_some_and(|port| port.bytes().all(|b| b.is_ascii_digit()))
}

/// The inside of RFC 3986 `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`.
fn is_ip_literal(literal: &str) -> bool {
    if let Some(future) = literal
        .strip_prefix('v')
        .or_else(|| literal.strip_prefix('V'))
    {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        return match future.split_once('.') {
            Some((version, address)) => {
                !version.is_empty()
                    && version.bytes().all(|b| b.is_ascii_hexdigit())
                    && !address.is_empty()
                    && address
                        .bytes()
                        .all(|b| is(b, UNRESERVED | SUB_DELIM | COLON))
            }
            None => false,
        };
    }
    is_ipv6(literal, false)
}

// ---------------------------------------------------------------------------------------------
// date, date-time

/// The value of the ASCII decimal digits `bytes`, `None` if one is not a digit. Every digit is
/// read whatever the others are (no early exit), which unrolls to a few instructions each.
#[inline(always)]
fn decimal<const N: usize>(bytes: [u8; N]) -> Option<u32> {
    let mut value = 0u32;
    let mut not_digit = false;
    for byte in bytes {
        let digit = byte.wrapping_sub(b'0');
        not_digit |= digit > 9;
        value = value * 10 + u32::from(digit);
    }
    (!not_digit).then_some(value)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 0,
    }
}

/// RFC 3339 `full-date = date-fullyear "-" date-month "-" date-mday`, with the real number of
/// days of the month (leap years by the Gregorian rule).
fn is_date(value: &str) -> bool {
    let Ok(date) = value.as_bytes().try_into() else {
        return false;
    };
    is_full_date(date)
}

#[inline(always)]
fn is_full_date(date: &[u8; 10]) -> bool {
    let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = date else {
        return false;
    };
    match (
        decimal([y0, y1, y2, y3]),
        decimal([m0, m1]),
        decimal([d0, d1]),
    ) {
        (Some(year), Some(month), Some(day)) => {
            (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
        }
        _ => false,
    }
}

/// RFC 3339 `date-time = full-date "T" full-time` (`T` and `Z` case-insensitive, as RFC 3339
/// § 5.6 allows); a leap second (`:60`) is accepted where it can occur, at 23:59 UTC.
fn is_date_time(value: &str) -> bool {
    // full-date "T" partial-time, up to the seconds: `2026-03-02T09:30:00`.
    let Some((date, time)) = value.as_bytes().split_first_chunk::<10>() else {
        return false;
    };
    let [b'T' | b't', h0, h1, b':', mi0, mi1, b':', s0, s1, ref rest @ ..] = *time else {
        return false;
    };
    if !is_full_date(date) {
        return false;
    }
    let mut rest = rest;
    let (Some(hour), Some(minute), Some(second)) =
        (decimal([h0, h1]), decimal([mi0, mi1]), decimal([s0, s1]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    // time-secfrac = "." 1*DIGIT
    if let [b'.', fraction @ ..] = rest {
        let count = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if count == 0 {
            return false;
        }
        rest = &fraction[count..];
    }
    // time-offset = "Z" / time-numoffset
    let offset_minutes: i64 = match *rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            match (decimal([h1, h2]), decimal([m1, m2])) {
                (Some(h), Some(m)) if h <= 23 && m <= 59 => {
                    let minutes = i64::from(h * 60 + m);
                    if sign == b'-' {
                        -minutes
                    } else {
                        minutes
                    }
                }
                _ => return false,
            }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{all_chars, is_address_literal, is_authority, is_domain, is_email};
    use super::{is_date, is_date_time, is_local_part, is_uri};
    use super::{PCHAR, QUESTION, SLASH};

    /// Every string of up to `max` bytes over `alphabet`.
    fn all_strings(alphabet: &[u8], max: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = (last.iter())
                .flat_map(|s| alphabet.iter().map(move |&b| format!("{s}{}", b as char)))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// The one-pass scans agree with the grammar written as splits: `Domain = sub-domain *("."
    /// sub-domain)`, `sub-domain = Let-dig [Ldh-str]`; `Dot-string = Atom *("." Atom)`.
    #[test]
    fn domain_and_dot_string_scans_match_the_grammar() {
        let let_dig = |b: u8| b.is_ascii_alphanumeric();
        let sub_domain = |label: &str| {
            let bytes = label.as_bytes();
            bytes.first().is_some_and(|&b| let_dig(b))
                && bytes.last().is_some_and(|&b| let_dig(b))
                && bytes.iter().all(|&b| let_dig(b) || b == b'-')
        };
        let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b);
        let atom = |atom: &str| !atom.is_empty() && atom.bytes().all(atext);
        let mut checked = 0;
        for text in all_strings(b"a1-._@ ~", 6) {
            assert_eq!(
                is_domain(&text),
                text.split('.').all(sub_domain),
                "{text:?}"
            );
            assert_eq!(is_local_part(&text), text.split('.').all(atom), "{text:?}");
            checked += 1;
        }
        assert_eq!(checked, (0..=6).map(|n| 8usize.pow(n)).sum::<usize>());
    }

    /// RFC 3986 `URI` written as the grammar reads: split at the first `#`, then at the first
    /// `?`, then the hier-part (the reference for the one-pass [`is_uri`]).
    fn is_uri_by_splits(value: &str) -> bool {
        let Some((scheme, rest)) = value.split_once(':') else {
            return false;
        };
        let scheme_ok = scheme
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
            && (scheme.bytes()).all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
        let (rest, fragment) = match rest.split_once('#') {
            Some((rest, fragment)) => (rest, Some(fragment)),
            None => (rest, None),
        };
        let (hier, query) = match rest.split_once('?') {
            Some((hier, query)) => (hier, Some(query)),
            None => (rest, None),
        };
        let query_class = PCHAR | SLASH | QUESTION;
        scheme_ok
            && fragment.is_none_or(|f| all_chars(f, query_class))
            && query.is_none_or(|q| all_chars(q, query_class))
            && match hier.strip_prefix("//") {
                Some(after) => {
                    let (authority, path) = after.split_at(after.find('/').unwrap_or(after.len()));
                    is_authority(authority) && all_chars(path, PCHAR | SLASH)
                }
                None => all_chars(hier, PCHAR | SLASH),
            }
    }

    #[test]
    fn the_one_pass_uri_scan_matches_the_grammar() {
        let mut checked = 0;
        for prefix in ["", "a:", "h:/", "h://", "h://x"] {
            for tail in all_strings(b"a1:/?#%@[]-", 5) {
                let text = format!("{prefix}{tail}");
                assert_eq!(is_uri(&text), is_uri_by_splits(&text), "{text:?}");
                checked += usize::from(is_uri(&text));
            }
        }
        // Not a vacuous agreement: many of them are URIs.
        assert!(checked > 10_000, "{checked}");
        for text in [
            "https://ada.example.org/about?lang=en#bio",
            "urn:isbn:0451450523",
            "mailto:ada@example.com",
            "http://[::1]:8080/a%20b?q=a/b?c#f?g/h",
            "file:///etc/hosts",
        ] {
            assert!(is_uri(text), "{text}");
        }
        for text in [
            "example.com/home",
            "/a/b",
            "http://a b",
            "a:#%2",
            "a:b#c#d",
            "1a:b",
        ] {
            assert!(!is_uri(text), "{text}");
        }
    }

    /// The one-pass [`is_email`] agrees with the split at the first `@` of a dot-atom.
    #[test]
    fn the_one_pass_email_scan_matches_the_split() {
        let mut checked = 0;
        for tail in all_strings(b"a.@-[1]", 7) {
            let expected = match tail.split_once('@') {
                Some((local, domain)) => {
                    is_local_part(local) && (is_domain(domain) || is_address_literal(domain))
                }
                None => false,
            };
            assert_eq!(is_email(&tail), expected, "{tail:?}");
            checked += usize::from(expected);
        }
        assert!(checked > 1_000, "{checked}");
    }

    /// The days of years around the places where the rules part (year 0, the centuries, 2000,
    /// the last years), made by walking the calendar one day at a time.
    fn calendar_days() -> std::collections::HashSet<String> {
        let mut days = std::collections::HashSet::new();
        for years in [
            0..=8,
            96..=104,
            396..=404,
            1896..=1904,
            1996..=2004,
            2096..=2104,
            9992..=9999,
        ] {
            for year in years {
                let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
                let lengths = [
                    31,
                    if leap { 29 } else { 28 },
                    31,
                    30,
                    31,
                    30,
                    31,
                    31,
                    30,
                    31,
                    30,
                    31,
                ];
                for (month, &length) in (1..).zip(&lengths) {
                    for day in 1..=length {
                        days.insert(format!("{year:04}-{month:02}-{day:02}"));
                    }
                }
            }
        }
        days
    }

    /// The number written by exactly `digits` ASCII digits.
    fn digits_field(field: &str, digits: usize) -> Option<u32> {
        (field.len() == digits && field.bytes().all(|b| b.is_ascii_digit()))
            .then(|| field.parse().ok())
            .flatten()
    }

    /// `full-date` read by splitting at the dashes and parsing the numbers.
    fn is_date_by_splits(text: &str) -> bool {
        let fields: Vec<&str> = text.split('-').collect();
        let [year, month, day] = fields[..] else {
            return false;
        };
        let (Some(year), Some(month), Some(day)) = (
            digits_field(year, 4),
            digits_field(month, 2),
            digits_field(day, 2),
        ) else {
            return false;
        };
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let length = match month {
            2 => 28 + u32::from(leap),
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => 0,
        };
        (1..=length).contains(&day)
    }

    /// [`is_date`] accepts exactly the days of the calendar, and nothing shaped otherwise.
    #[test]
    fn dates_are_the_days_of_the_calendar() {
        let days = calendar_days();
        let mut accepted = 0;
        for year in [0, 4, 100, 400, 1900, 2000, 2001, 2004, 2100, 9999] {
            for month in 0..=13 {
                for day in 0..=32 {
                    let text = format!("{year:04}-{month:02}-{day:02}");
                    assert_eq!(is_date(&text), days.contains(&text), "{text}");
                    accepted += usize::from(is_date(&text));
                }
            }
        }
        // Five of the years are leap years: 0, 4, 400, 2000 and 2004.
        assert_eq!(accepted, 10 * 365 + 5);
        // One byte changed in a day, or one added or removed: a date exactly when the grammar
        // written as splits says so.
        for day in ["2024-02-29", "1999-12-31", "0000-01-01"] {
            for at in 0..=day.len() {
                for byte in "0123456789-T/ :+a\u{80}".chars() {
                    let mut changed = day.to_owned();
                    if at < day.len() {
                        changed.replace_range(at..=at, byte.encode_utf8(&mut [0; 4]));
                        assert_eq!(
                            is_date(&changed),
                            is_date_by_splits(&changed),
                            "{changed:?}"
                        );
                    }
                    let mut added = day.to_owned();
                    added.insert(at, byte);
                    assert!(!is_date(&added), "{added:?}");
                }
                if at < day.len() {
                    let removed = format!("{}{}", &day[..at], &day[at + 1..]);
                    assert!(!is_date(&removed), "{removed:?}");
                }
            }
        }
    }

    /// RFC 3339 `date-time` read by splitting: at the `T`, at the offset's sign or `Z`, at the
    /// fraction's dot, at the colons.
    fn is_date_time_by_splits(text: &str) -> bool {
        let Some((date, time)) = text.split_once(['T', 't']) else {
            return false;
        };
        let Some(at) = time.rfind(['Z', 'z', '+', '-']) else {
            return false;
        };
        let (partial, offset) = time.split_at(at);
        let two = |field: &str, max: u32| digits_field(field, 2).filter(|&n| n <= max);
        let offset_minutes = match offset {
            "Z" | "z" => 0,
            _ if offset.starts_with(['+', '-']) => {
                let (sign, hours_minutes) = offset.split_at(1);
                let Some((hours, minutes)) = hours_minutes.split_once(':') else {
                    return false;
                };
                let (Some(hours), Some(minutes)) = (two(hours, 23), two(minutes, 59)) else {
                    return false;
                };
                let minutes = i64::from(hours * 60 + minutes);
                if sign == "-" {
                    -minutes
                } else {
                    minutes
                }
            }
            _ => return false,
        };
        let (whole, fraction) = match partial.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (partial, None),
        };
        if fraction.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
            return false;
        }
        let fields: Vec<&str> = whole.split(':').collect();
        let [hour, minute, second] = fields[..] else {
            return false;
        };
        let (Some(hour), Some(minute), Some(second)) =
            (two(hour, 23), two(minute, 59), two(second, 60))
        else {
            return false;
        };
        is_date_by_splits(date)
            && (second < 60
                || (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(1440) == 1439)
    }

    /// One byte changed in a date-time, added or removed: [`is_date_time`] agrees with the
    /// grammar written as splits.
    #[test]
    fn date_times_agree_with_the_splits() {
        let mut accepted = 0;
        for date_time in [
            "2026-03-02T09:30:00Z",
            "1990-12-31T15:59:60-08:00",
            "2024-02-29t23:59:60.250z",
            "1937-01-01T12:00:27.87+00:20",
        ] {
            assert!(is_date_time(date_time), "{date_time}");
            for at in 0..=date_time.len() {
                for byte in "0123456789-:T.Z+tz a\u{80}".chars() {
                    let mut changed = date_time.to_owned();
                    if at < date_time.len() {
                        changed.replace_range(at..=at, byte.encode_utf8(&mut [0; 4]));
                        let expected = is_date_time_by_splits(&changed);
                        assert_eq!(is_date_time(&changed), expected, "{changed:?}");
                        accepted += usize::from(expected);
                    }
                    let mut added = date_time.to_owned();
                    added.insert(at, byte);
                    let expected = is_date_time_by_splits(&added);
                    assert_eq!(is_date_time(&added), expected, "{added:?}");
                    accepted += usize::from(expected);
                }
                if at < date_time.len() {
                    let removed = format!("{}{}", &date_time[..at], &date_time[at + 1..]);
                    assert_eq!(
                        is_date_time(&removed),
                        is_date_time_by_splits(&removed),
                        "{removed:?}"
                    );
                }
            }
        }
        // Not a vacuous agreement: many of the changes still make a date-time.
        assert!(accepted > 100, "{accepted}");
    }
}
