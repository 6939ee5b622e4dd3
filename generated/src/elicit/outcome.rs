//! What a server gets back from a form: the [`Elicit`] trait that `#[derive(Elicit)]`
//! implements, validation errors, and the three outcomes of a request.

use std::fmt;

use serde_json::{Map, Value};

use super::RequestedSchema;

/// A Rust type that is an elicitation form: it knows its `requestedSchema` and builds itself
/// from the `content` of an accepted answer, checking every constraint of the schema.
///
/// Implemented by `#[derive(Elicit)]` (feature `derive`); see the `mcp_schema_macros` docs.
pub trait Elicit: Sized {
    /// The form's schema.
    fn requested_schema() -> RequestedSchema;

    /// Validates `content` against the schema and builds the value. Every problem is reported,
    /// each with the JSON pointer of the member (`/email`) and the violated keyword.
    fn from_content(content: &Map<String, Value>) -> Result<Self, ValidationErrors>;
}

/// One violated constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON pointer of the offending member in `content` (`/email`, `/topics/1`).
    pub pointer: String,
    /// The JSON Schema keyword that failed (`required`, `type`, `minLength`, `format`, `enum`, …).
    pub keyword: &'static str,
    /// What is wrong, for a human.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.pointer, self.message, self.keyword)
    }
}

/// All the constraints an answer violates (never empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl ValidationErrors {
    /// The errors, in the order of the form's properties.
    pub fn errors(&self) -> &[ValidationError] {
        &self.0
    }

    /// Adds an error.
    pub fn push(
        &mut self,
        pointer: impl Into<String>,
        keyword: &'static str,
        message: impl Into<String>,
    ) {
        self.0.push(ValidationError {
            pointer: pointer.into(),
            keyword,
            message: message.into(),
        });
    }

    /// `Ok(())` when there is no error.
    pub fn into_result(self) -> Result<(), ValidationErrors> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// How the user answered a form.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitOutcome<T> {
    /// The user submitted the form; the content was valid.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}
