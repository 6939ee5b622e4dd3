//! Form-mode `elicitation/create` params of each revision, built from a [`RequestedSchema`].
//!
//! The schema goes to the generated params type as JSON text, never through
//! `serde_json::Value`: without serde_json's `preserve_order` feature a `Value` sorts object
//! keys, and the order of a form's properties is the order the user sees its fields in. The
//! generated `requestedSchema.properties` is an [`IndexMap`](crate::IndexMap), so the order
//! survives into the typed params and back onto the wire.

use super::{RequestedSchema, Revision, SchemaError, ToRevisionError};

mod sealed {
    pub trait Sealed {}
}

/// The `params` of a form-mode `elicitation/create` request in one protocol revision: the
/// generated `ElicitRequestParams` of 2025-06-18, and the `ElicitRequestFormParams` (or the
/// `ElicitRequestParams` union, as its form variant) of 2025-11-25, 2026-07-28 and the draft.
///
/// Build one with [`Elicit::form_params`](super::Elicit::form_params) or
/// [`RequestedSchema::form_params`]. Sealed: the set of revisions is the crate's.
pub trait FormParams: Sized + sealed::Sealed {
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
    /// ```
    /// # #[cfg(feature = "v2025_11_25")] {
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
    /// # }
    /// ```
    pub fn form_params<P: FormParams + serde::de::DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<P, ToRevisionError> {
        let schema = self.to_revision_string(P::REVISION)?;
        let message = serde_json::to_string(&message.into()).map_err(invalid)?;
        let mode = if P::HAS_MODE { r#""mode":"form","# } else { "" };
        let json = format!(r#"{{{mode}"message":{message},"requestedSchema":{schema}}}"#);
        serde_json::from_str(&json).map_err(invalid)
    }
}

/// The generated types accept every schema [`RequestedSchema::to_revision`] writes (the tests
/// show it for every revision); should one ever refuse, say so instead of panicking.
fn invalid(error: serde_json::Error) -> ToRevisionError {
    ToRevisionError::Invalid(SchemaError::new(
        "",
        format!("the generated params type refused the schema: {error}"),
    ))
}

macro_rules! form_params {
    ($cfg:meta, $module:ident :: $ty:ident, $revision:ident, $mode:literal) => {
        #[cfg($cfg)]
        impl sealed::Sealed for crate::$module::$ty {}
        #[cfg($cfg)]
        impl FormParams for crate::$module::$ty {
            const REVISION: Revision = Revision::$revision;
            const HAS_MODE: bool = $mode;
        }
    };
}

form_params!(
    feature = "v2025_06_18",
    v2025_06_18::ElicitRequestParams,
    V2025_06_18,
    false
);
form_params!(
    feature = "v2025_11_25",
    v2025_11_25::ElicitRequestFormParams,
    V2025_11_25,
    true
);
form_params!(
    feature = "v2025_11_25",
    v2025_11_25::ElicitRequestParams,
    V2025_11_25,
    true
);
form_params!(
    any(feature = "v2026_07_28", feature = "draft"),
    v2026_07_28::ElicitRequestFormParams,
    V2026_07_28,
    true
);
form_params!(
    any(feature = "v2026_07_28", feature = "draft"),
    v2026_07_28::ElicitRequestParams,
    V2026_07_28,
    true
);
// The draft's types are 2026-07-28's (re-exported, the schemas being the same).
