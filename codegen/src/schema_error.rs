//! The error of a schema the generator cannot turn into Rust: what the loader and the IR
//! passes refuse, each with the JSON pointer of the place. A leaf module, so that the passes
//! the loader runs do not reach back into the loader for it.

/// A schema the generator cannot turn into Rust, with the place it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer into the schema file (`/$defs/Tool/properties/name`).
    pub pointer: String,
    /// What was found and what was expected.
    pub message: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

impl std::error::Error for SchemaError {}

pub(crate) fn err<T>(pointer: &str, message: impl Into<String>) -> Result<T, SchemaError> {
    Err(SchemaError {
        pointer: pointer.to_owned(),
        message: message.into(),
    })
}
