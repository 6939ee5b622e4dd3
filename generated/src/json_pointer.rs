//! JSON pointers (RFC 6901) as this crate and the crates built on it write them: every decode
//! error's path, every validation violation, the sealed state's and the adapter's pointers.
//!
//! The tokens are escaped and read back by `mcp-typed-json`, the one home of that rule for every
//! crate of the workspace (the generator and the forms use it too); its functions are
//! re-exported here.

use std::fmt;

use serde::de::DeserializeOwned;

pub use mcp_typed_json::pointer::{escape, join, push, unescape};

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
