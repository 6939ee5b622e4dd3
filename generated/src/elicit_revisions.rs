//! What ties the elicitation forms of `mcp-elicit` (re-exported as [`crate::elicit`]) to the
//! generated types of each revision: outcomes from each `ElicitResult`, [`FormParams`] for
//! each revision's form-mode `elicitation/create` params, and a [`RequestedSchema`] from each
//! revision's generated `requestedSchema` type.
//!
//! ```
//! # #[cfg(feature = "v2025_11_25")] {
//! use mcp_typed::elicit::{PropertySchema, RequestedSchema, StringSchema};
//! use mcp_typed::v2025_11_25::ElicitRequestFormParams;
//!
//! let schema = RequestedSchema {
//!     properties: vec![("name".into(), PropertySchema::String(StringSchema::default()))],
//!     required: vec!["name".into()],
//!     additional_properties_forbidden: false,
//! };
//! let params: ElicitRequestFormParams = schema.form_params("Who are you?").unwrap();
//! assert_eq!(params.message, "Who are you?");
//! assert!(params.requested_schema.properties.contains_key("name"));
//! # }
//! ```

#[allow(unused_imports)]
use crate::elicit::{
    __private::Sealed, Action, Elicit, ElicitOutcome, FormParams, FromJsonError, RequestedSchema,
    Revision, SchemaError, ValidationErrors,
};

/// `ElicitOutcome<T>` from the generated `ElicitResult` of each revision with elicitation.
macro_rules! outcome_from_result {
    ($($module:ident: $cfg:meta),*) => {$(
        #[cfg($cfg)]
        impl<T: Elicit> TryFrom<&crate::$module::ElicitResult> for ElicitOutcome<T> {
            type Error = ValidationErrors;

            fn try_from(result: &crate::$module::ElicitResult) -> Result<Self, ValidationErrors> {
                use crate::$module::ElicitResultAction as A;
                let action = match result.action {
                    A::Accept => Action::Accept,
                    A::Decline => Action::Decline,
                    A::Cancel => Action::Cancel,
                };
                // The typed content written as text and read by the form's own decoder: no
                // `serde_json::Value` between the answer and the form.
                let content = result.content.as_ref().map(serde_json::to_string).transpose();
                let written = |error: &dyn std::fmt::Display| {
                    let mut errors = ValidationErrors::default();
                    errors.push("", mcp_elicit::Keyword::Type, error.to_string());
                    errors
                };
                let content = content.map_err(|e| written(&e))?;
                ElicitOutcome::from_parts_json(action, content.as_deref()).map_err(|e| match e {
                    FromJsonError::Invalid(errors) => errors,
                    FromJsonError::Syntax(e) => written(&e),
                })
            }
        }
    )*};
}

// The draft's types are 2026-07-28's (re-exported, the schemas being the same).
outcome_from_result!(
    v2025_06_18: feature = "v2025_06_18",
    v2025_11_25: feature = "v2025_11_25",
    v2026_07_28: any(feature = "v2026_07_28", feature = "draft")
);

macro_rules! form_params {
    ($cfg:meta, $module:ident :: $ty:ident, $revision:ident, $mode:literal) => {
        #[cfg($cfg)]
        impl Sealed for crate::$module::$ty {}
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

/// `RequestedSchema: TryFrom<&T>` for the generated type of each revision's
/// `requestedSchema`, so that a client that decoded an `elicitation/create` reads its form
/// without going through `serde_json::Value` itself.
macro_rules! requested_schema_from_generated {
    ($($cfg:meta, $module:ident :: $ty:ident, $revision:literal);* $(;)?) => {$(
        #[cfg($cfg)]
        impl TryFrom<&crate::$module::$ty> for RequestedSchema {
            type Error = SchemaError;

            #[doc = concat!(
                "Reads the `requestedSchema` of an `elicitation/create` of revision ",
                $revision,
                " with [`RequestedSchema::parse_str`]'s rules: the generated value is written ",
                "as JSON text (its `properties` keep their order) and parsed, so a schema ",
                "outside the elicitation subset gives the same [`SchemaError`], with its ",
                "pointer relative to the `requestedSchema`, as parsing the wire JSON would. ",
                "Members the generated type keeps in `extra` (keywords it does not model) ",
                "are written and judged too.",
            )]
            fn try_from(schema: &crate::$module::$ty) -> Result<Self, SchemaError> {
                let json = serde_json::to_string(schema).map_err(|error| SchemaError {
                    pointer: String::new(),
                    message: format!("the generated schema does not write as JSON: {error}"),
                })?;
                RequestedSchema::parse_str(&json)
            }
        }
    )*};
}

requested_schema_from_generated!(
    feature = "v2025_06_18", v2025_06_18::ElicitRequestParamsRequestedSchema, "2025-06-18";
    feature = "v2025_11_25", v2025_11_25::ElicitRequestFormParamsRequestedSchema, "2025-11-25";
    // The draft's types are 2026-07-28's (re-exported, the schemas being the same).
    any(feature = "v2026_07_28", feature = "draft"),
    v2026_07_28::ElicitRequestFormParamsRequestedSchema,
    "2026-07-28 (and the draft)";
);
