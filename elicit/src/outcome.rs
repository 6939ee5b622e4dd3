//! What a server gets back from a form: the [`Elicit`] trait that `#[derive(Elicit)]`
//! implements, validation errors, and the three outcomes of a request.

use std::fmt;

use serde_json::{Map, Value};

use super::{FormParams, RequestedSchema, ToRevisionError, ValidationErrors};

/// A Rust type that is an elicitation form: it knows its `requestedSchema` and builds itself
/// from the `content` of an accepted answer, checking every constraint of the schema.
///
/// Implemented by `#[derive(Elicit)]` (feature `derive` of `mcp-typed`); see the
/// `mcp_typed_macros` docs.
pub trait Elicit: Sized {
    /// The form's schema.
    fn requested_schema() -> RequestedSchema;

    /// Validates `content` against the schema and builds the value. Every problem is reported,
    /// each with the JSON pointer of the member (`/email`) and the violated keyword.
    fn from_content(content: &Map<String, Value>) -> Result<Self, ValidationErrors>;

    /// The params of a form-mode `elicitation/create` request asking `message` with this form,
    /// typed for the revision of `P` (with `mcp-typed`: `v2025_06_18::ElicitRequestParams`, or
    /// the `ElicitRequestFormParams` / `ElicitRequestParams` of 2025-11-25, 2026-07-28 or the
    /// draft).
    /// The properties keep their declaration order. What `P`'s revision cannot express (a multi
    /// select or a non-boolean default in 2025-06-18) is an error naming the property.
    fn form_params<P: FormParams + serde::de::DeserializeOwned>(
        message: impl Into<String>,
    ) -> Result<P, ToRevisionError> {
        Self::requested_schema().form_params(message)
    }

    /// Reads the `content` object from JSON text, validates it and builds the value: the same
    /// checks and errors as [`Elicit::from_content`] on the parsed object. A member that occurs
    /// twice counts with its last occurrence, as when parsing into a `Map`.
    ///
    /// The provided implementation parses into a `Map` first; `#[derive(Elicit)]` overrides it
    /// with a one-pass decoder that never builds the map.
    fn from_json_str(json: &str) -> Result<Self, FromJsonError> {
        let value: Value = serde_json::from_str(json).map_err(FromJsonError::Syntax)?;
        let Value::Object(content) = value else {
            let mut errors = ValidationErrors::default();
            errors.push("", crate::Keyword::Type, "the content must be an object");
            return Err(FromJsonError::Invalid(errors));
        };
        Self::from_content(&content).map_err(FromJsonError::Invalid)
    }
}

/// Why [`Elicit::from_json_str`] failed.
#[derive(Debug)]
pub enum FromJsonError {
    /// The text is not JSON.
    Syntax(serde_json::Error),
    /// The JSON is not a valid answer to the form.
    Invalid(ValidationErrors),
}

impl fmt::Display for FromJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(error) => write!(f, "malformed JSON: {error}"),
            Self::Invalid(errors) => errors.fmt(f),
        }
    }
}

impl std::error::Error for FromJsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Syntax(error) => Some(error),
            Self::Invalid(errors) => Some(errors),
        }
    }
}

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

/// The user's action in an elicitation result, in every revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `accept`: the form was submitted.
    Accept,
    /// `decline`: the user said no.
    Decline,
    /// `cancel`: the user dismissed the request.
    Cancel,
}

impl<T: Elicit> ElicitOutcome<T> {
    /// The outcome of an answer (`mcp-typed` builds it from the generated `ElicitResult` of each
    /// revision with `TryFrom`): an accepted answer is validated and built with
    /// [`Elicit::from_content`] (an accept without `content` is checked as an empty object, so
    /// it fails when the form has required members); a decline or a cancel is never validated.
    pub fn from_parts(
        action: Action,
        content: Option<&Map<String, Value>>,
    ) -> Result<Self, ValidationErrors> {
        Self::decided(action, || match content {
            Some(content) => T::from_content(content),
            None => T::from_content(&Map::new()),
        })
    }

    /// [`ElicitOutcome::from_parts`] with the content as JSON text, read with
    /// [`Elicit::from_json_str`] (the derive's one-pass decoder: no map is built). What
    /// `mcp-typed`'s `TryFrom<&ElicitResult>` uses, the typed content written as text.
    pub fn from_parts_json(action: Action, content: Option<&str>) -> Result<Self, FromJsonError> {
        Self::decided(action, || T::from_json_str(content.unwrap_or("{}")))
    }

    /// The outcome of `action`: `accept`'s value built by `accepted`, the others never read.
    fn decided<E>(action: Action, accepted: impl FnOnce() -> Result<T, E>) -> Result<Self, E> {
        match action {
            Action::Decline => Ok(ElicitOutcome::Declined),
            Action::Cancel => Ok(ElicitOutcome::Cancelled),
            Action::Accept => accepted().map(ElicitOutcome::Accepted),
        }
    }
}
