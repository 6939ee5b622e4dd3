//! JSON pointers (RFC 6901) as this crate and the crates built on it write them: every decode
//! error's path, every validation violation, the sealed state's and the adapter's pointers.
//!
//! The one escaper of a member name at run time outside the forms crate (`mcp-elicit`, which
//! this crate depends on only with the feature `elicit`, has its own, `mcp_elicit::pointer`, for
//! the forms' errors), and the generator's (`mcp-codegen`, a build-time crate) for schema
//! pointers.

use std::borrow::Cow;

/// `name` as a reference token: `~` is written `~0`, `/` is written `~1`
/// (`token("a/b~c")` is `a~1b~0c`); borrowed when there is nothing to escape.
pub fn token(name: &str) -> Cow<'_, str> {
    if name.contains(['~', '/']) {
        Cow::Owned(name.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(name)
    }
}

/// Appends `/` and `name` as a reference token to `pointer`: `push(&mut p, "a/b")` turns
/// `/params` into `/params/a~1b`.
pub fn push(pointer: &mut String, name: &str) {
    pointer.push('/');
    pointer.push_str(&token(name));
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_escape_tilde_before_slash() {
        assert_eq!(super::token("a/b~c~1"), "a~1b~0c~01");
        assert!(matches!(
            super::token("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
        let mut pointer = String::from("/params");
        super::push(&mut pointer, "x/y");
        assert_eq!(pointer, "/params/x~1y");
    }
}
