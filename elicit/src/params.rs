//! Form-mode `elicitation/create` params of each revision, built from a [`RequestedSchema`].
//!
//! The schema goes to the params type as JSON text, never through `serde_json::Value`: without
//! serde_json's `preserve_order` feature a `Value` sorts object keys, and the order of a form's
//! properties is the order the user sees its fields in. The generated
//! `requestedSchema.properties` of `mcp-typed` is an order-keeping `IndexMap`, so the order
//! survives into the typed params and back onto the wire.

use super::{RequestedSchema, Revision, SchemaError, ToRevisionError};

/// The `params` of a form-mode `elicitation/create` request in one protocol revision.
/// `mcp-typed` implements it for the generated `ElicitRequestParams` of 2025-06-18, and the
/// `ElicitRequestFormParams` (or the `ElicitRequestParams` union, as its form variant) of
/// 2025-11-25, 2026-07-28 and the draft.
///
/// Build one with [`Elicit::form_params`](super::Elicit::form_params) or
/// [`RequestedSchema::form_params`]. Sealed: the set of revisions is `mcp-typed`'s.
pub trait FormParams: Sized + crate::__private::Sealed {
    /// The revision whose form rules the schema is converted to.
    const REVISION: Revision;
    /// Whether the params carry `"mode": "form"` (2025-11-25 and later; a request without a
    /// mode also means form mode, but saying it lets a client dispatch without that rule).
    const HAS_MODE: bool;
}

impl RequestedSchema {
    /// The params of a form-mode `elicitation/create` request asking `message` with this
    /// schema, in the revision of `P` (see [`RequestedSchema::to_revision`] for what each
    /// revision can express).
    ///
    /// With `mcp-typed` (feature `v2025_11_25`; this example runs as one of its doctests):
    ///
    /// ```ignore
    /// use mcp_typed::elicit::{PropertySchema, RequestedSchema, StringSchema};
    /// use mcp_typed::v2025_11_25::ElicitRequestFormParams;
    ///
    /// let schema = RequestedSchema {
    ///     properties: vec![("name".into(), PropertySchema::String(StringSchema::default()))],
    ///     required: vec!["name".into()],
    ///     additional_properties_forbidden: false,
    /// };
    /// let params: ElicitRequestFormParams = schema.form_params("Who are you?").unwrap();
    /// assert_eq!(params.message, "Who are you?");
    /// assert!(params.requested_schema.properties.contains_key("name"));
    /// ```
    pub fn form_params<P: FormParams + serde::de::DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<P, ToRevisionError> {
        let json = self.form_params_json::<P>(&message.into())?;
        serde_json::from_str(&json).map_err(invalid)
    }

    /// The params of [`RequestedSchema::form_params`] as the JSON text sent: the properties
    /// in this schema's order and, which the typed params do not keep, each property's
    /// keywords in its [`KeyOrder`](super::KeyOrder) (a generated property struct writes its
    /// members in the official schema's order).
    pub fn form_params_json<P: FormParams>(
        &self,
        message: &str,
    ) -> Result<String, ToRevisionError> {
        self.form_params_json_in(P::REVISION, message)
    }

    /// [`RequestedSchema::form_params_json`] in a revision known at run time (the one a
    /// session negotiated): the params carry `"mode": "form"` from 2025-11-25 on, and what
    /// `revision` cannot express is an error naming the property.
    pub fn form_params_json_in(
        &self,
        revision: Revision,
        message: &str,
    ) -> Result<String, ToRevisionError> {
        let schema = self.to_revision_string(revision)?;
        let message = serde_json::to_string(message).map_err(invalid)?;
        let has_mode = revision >= Revision::V2025_11_25;
        let mode = if has_mode { r#""mode":"form","# } else { "" };
        Ok(format!(
            r#"{{{mode}"message":{message},"requestedSchema":{schema}}}"#
        ))
    }
}

/// The generated types of `mcp-typed` accept every schema [`RequestedSchema::to_revision`]
/// writes (its tests show it for every revision); should one ever refuse, say so instead of
/// panicking.
fn invalid(error: serde_json::Error) -> ToRevisionError {
    ToRevisionError::Invalid(SchemaError::new(
        "",
        format!("the generated params type refused the schema: {error}"),
    ))
}
