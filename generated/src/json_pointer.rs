//! JSON pointers (RFC 6901) as this crate and the crates built on it write them: every decode
//! error's path, every validation violation, the sealed state's and the adapter's pointers.
//!
//! The one escaper of a member name at run time outside the forms crate (`mcp-elicit`, which
//! this crate depends on only with the feature `elicit`, has its own, `mcp_elicit::pointer`, for
//! the forms' errors), and the generator's (`mcp-codegen`, a build-time crate) for schema
//! pointers.

use std::borrow::Cow;
use std::fmt;

use serde::de::DeserializeOwned;

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

/// Decodes `text` as `T` and, where that fails, says where: serde's message and the JSON
/// pointer of the member the decode stopped at, below the decoded value. The pointer is the one
/// a [`DecodeError`](crate::jsonrpc::DecodeError) of a message carries, for any type of this
/// crate (its decoders note the members an error passes through; another type's members are
/// not noted, and its errors point at the value).
///
/// ```
/// # #[cfg(feature = "v2026_07_28")] {
/// use mcp_typed::v2026_07_28::ListRootsResult;
///
/// let error = mcp_typed::json_pointer::decode::<ListRootsResult>(r#"{"roots":[{"uri":5}]}"#)
///     .unwrap_err();
/// assert_eq!(error.pointer, "/roots/0/uri");
/// # }
/// ```
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, PointedError> {
    crate::__private::diagnosis::path_error(|d| T::deserialize(d), text)
        .map_err(|(message, pointer)| PointedError { message, pointer })
}

/// Why [`decode`] refused a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointedError {
    /// What is wrong (serde's message, without a line and column).
    pub message: String,
    /// The JSON pointer of the member the decode stopped at, below the decoded value (empty:
    /// the value itself).
    pub pointer: String,
}

impl fmt::Display for PointedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for PointedError {}

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
