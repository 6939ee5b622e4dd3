//! The reference tokens of a JSON pointer (RFC 6901 §3–4): a member name is written with `~` as
//! `~0` and `/` as `~1`, and read back the other way.

use std::borrow::Cow;

/// `name` as a reference token: `~` is written `~0`, `/` is written `~1`
/// (`escape("a/b~c")` is `a~1b~0c`); borrowed when there is nothing to escape, as for most
/// names.
pub fn escape(name: &str) -> Cow<'_, str> {
    // A byte scan: both characters are ASCII, and most names are short (a char-set search
    // decodes every character).
    if !name.bytes().any(|b| b == b'~' || b == b'/') {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The member name a reference token stands for: the inverse of [`escape`] (`~1` is read as
/// `/` first, then `~0` as `~`, so that `~01` is `~1`).
pub fn unescape(token: &str) -> Cow<'_, str> {
    if !token.contains('~') {
        return Cow::Borrowed(token);
    }
    Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
}

/// Appends `/` and `name` as a reference token to `pointer`: `push(&mut p, "a/b")` turns
/// `/params` into `/params/a~1b`.
pub fn push(pointer: &mut String, name: &str) {
    pointer.push('/');
    pointer.push_str(&escape(name));
}

/// `base` with `name` appended as a reference token: `join("/properties", "a/b")` is
/// `/properties/a~1b`, `join("", "email")` is `/email`.
pub fn join(base: &str, name: &str) -> String {
    let mut out = String::with_capacity(base.len() + name.len() + 1);
    out.push_str(base);
    push(&mut out, name);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_tokens_round_trip() {
        for (name, token) in [
            ("a/b~c", "a~1b~0c"),
            ("~1", "~01"),
            ("/", "~1"),
            ("~", "~0"),
            ("plain", "plain"),
            ("", ""),
            ("ünï/cødé", "ünï~1cødé"),
        ] {
            assert_eq!(escape(name), token);
            assert_eq!(unescape(token), name);
        }
        assert!(matches!(escape("plain"), Cow::Borrowed("plain")));
        assert!(matches!(unescape("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn pointers_are_built_token_by_token() {
        let mut pointer = String::new();
        push(&mut pointer, "params");
        push(&mut pointer, "a/b");
        assert_eq!(pointer, "/params/a~1b");
        assert_eq!(join("", "email"), "/email");
        assert_eq!(join("/properties", "~x"), "/properties/~0x");
    }
}
