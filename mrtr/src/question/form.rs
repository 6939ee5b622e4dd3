//! A form-mode elicitation: the form of a type deriving [`Elicit`], answered with its values.

use std::fmt;
use std::marker::PhantomData;

use serde_json::Value;

use super::{elicit_request, elicit_result, read_json_elicitation, Question};
use super::{invalid, wrong_kind, Answerer, AskError, FormAnswer, ResponseError, RetryError};
use mcp_typed::elicit::{Elicit, ElicitOutcome, RequestedSchema};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, ElicitRequest, ElicitRequestFormParams, ElicitRequestParams,
    ElicitResultAction, InputRequest, InputResponse,
};

/// The form of `T` (its `requestedSchema`, from `#[derive(Elicit)]`), shown with a message.
/// Its answer is the user's decision, an accepted form validated and built as a `T`.
///
/// Needs form-mode elicitation (`elicitation: {}` or `elicitation: {"form": {}}`).
pub struct Form<T> {
    message: String,
    form: PhantomData<fn() -> T>,
}

impl<T: Elicit> Form<T> {
    /// The form of `T`, shown with `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            form: PhantomData,
        }
    }

    /// The message shown with the form.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The request's params as JSON text in the derive's order (properties and their
    /// keywords), written as `revision`'s: what a live (2025-11-25 or older) call sends.
    #[cfg(all(feature = "seal", feature = "v2025_11_25"))]
    pub(crate) fn live_params(
        &self,
        key: &str,
        revision: mcp_typed::elicit::Revision,
    ) -> Result<String, AskError> {
        T::requested_schema()
            .form_params_json_in(revision, &self.message)
            .map_err(|error| AskError::Form {
                key: key.to_owned(),
                error,
            })
    }
}

impl<T> fmt::Debug for Form<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Form")
            .field("type", &std::any::type_name::<T>())
            .field("message", &self.message)
            .finish()
    }
}

impl<T> Clone for Form<T> {
    fn clone(&self) -> Self {
        Self {
            message: self.message.clone(),
            form: PhantomData,
        }
    }
}

impl<T: Elicit> Question for Form<T> {
    type Answer = ElicitOutcome<T>;

    fn request(&self, key: &str) -> Result<InputRequest, AskError> {
        let params: ElicitRequestFormParams =
            T::form_params(self.message.clone()).map_err(|error| AskError::Form {
                key: key.to_owned(),
                error,
            })?;
        Ok(elicit_request(ElicitRequestParams::Form(Box::new(params))))
    }

    /// An accept without `content` is checked as an empty form; a decline or cancel is never
    /// validated.
    fn read(key: &str, answer: &InputResponse) -> Result<ElicitOutcome<T>, ResponseError> {
        match answer {
            InputResponse::Elicit(result) => {
                ElicitOutcome::try_from(result).map_err(|errors| invalid(key, errors))
            }
            other => Err(wrong_kind(key, ElicitRequest::METHOD, other)),
        }
    }

    fn read_json(key: &str, answer: &Value) -> Result<ElicitOutcome<T>, ResponseError> {
        let (action, content) = read_json_elicitation(key, answer)?;
        ElicitOutcome::from_parts(action, content.as_ref()).map_err(|errors| invalid(key, errors))
    }
}

/// The capability a form needs that the client did not declare.
pub(super) fn needs(capabilities: &ClientCapabilities) -> Result<(), &'static str> {
    match &capabilities.elicitation {
        None => Err("elicitation"),
        Some(elicitation) if !elicitation.supports_form() => Err("elicitation.form"),
        Some(_) => Ok(()),
    }
}

/// The client's answer: the form handed to `answerer` with its parsed schema, the schema's
/// defaults applied to what the user gave, the whole validated, and written in the form's
/// order.
pub(super) fn answer(
    key: &str,
    form: &ElicitRequestFormParams,
    answerer: &mut impl Answerer,
) -> Result<InputResponse, RetryError> {
    // The typed schema keeps the server's property order; its text is parsed as any schema a
    // server sends (inconsistent ones included: the answer is still validated).
    let text = serde_json::to_string(&form.requested_schema).unwrap_or_default();
    let schema = RequestedSchema::parse_str(&text).map_err(|error| RetryError::Schema {
        key: key.to_owned(),
        error,
    })?;
    let (action, content) = match answerer.form(key, &form.message, &schema) {
        FormAnswer::Accept(mut content) => {
            for (name, default) in schema.defaults() {
                content.entry(name).or_insert(default);
            }
            schema
                .validate(&content)
                .map_err(|errors| RetryError::Answer {
                    key: key.to_owned(),
                    errors,
                })?;
            // Written in the form's order, then anything else the user added.
            let mut ordered = Vec::with_capacity(content.len());
            for (name, _) in &schema.properties {
                if let Some(value) = content.remove(name) {
                    ordered.push((name.clone(), value));
                }
            }
            ordered.extend(content);
            (ElicitResultAction::Accept, Some(ordered))
        }
        FormAnswer::Decline => (ElicitResultAction::Decline, None),
        FormAnswer::Cancel => (ElicitResultAction::Cancel, None),
    };
    elicit_result(key, action, content)
}
