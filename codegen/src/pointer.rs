//! JSON pointers (RFC 6901) into a schema: the one place where the codegen escapes and
//! unescapes their tokens, for the loader (errors, `$ref`, errata) and the emitter (the JSON
//! Schema impls) alike.

/// `name` as a token of a JSON pointer: `~` is written `~0`, `/` is written `~1`.
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The name that the token of a JSON pointer stands for: the inverse of [`escape`].
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for (name, token) in [("a/b~c", "a~1b~0c"), ("~1", "~01"), ("plain", "plain")] {
            assert_eq!(escape(name), token);
            assert_eq!(unescape(token), name);
        }
    }
}
