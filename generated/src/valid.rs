//! Values of a generated type that satisfy its schema, drawn from a seed (features `arbitrary`
//! and `proptest`): for fuzz targets and property tests that take MCP messages as input.
//!
//! A type's schema is its `schemars::JsonSchema` (the official definition, with the errata the
//! generator applies), and the values are drawn by `mcp_typed_json::values`, which reaches what
//! traffic rarely holds: optional members present and absent, members a schema does not
//! declare where it allows them, every branch of a union, numbers and lengths at their bounds,
//! strings with escapes and characters outside ASCII. The same seed gives the same value. It
//! works for any type with `JsonSchema` and `Deserialize`: the types `mcp-codegen` generates
//! for a user's schema with its `schemars` option too.
//!
//! ```
//! # #[cfg(feature = "v2025_11_25")] {
//! use mcp_typed::v2025_11_25::CallToolRequest;
//! use mcp_typed::validate::Validate as _;
//!
//! let request: CallToolRequest = mcp_typed::valid::draw(7)?;
//! assert_eq!(request, mcp_typed::valid::draw(7)?, "the same seed, the same value");
//! assert_eq!(request.validate(), Ok(()));
//! // It is written, and read back, as it was drawn.
//! let text = serde_json::to_string(&request).expect("encodes");
//! assert_eq!(serde_json::from_str::<CallToolRequest>(&text).expect("decodes"), request);
//! # }
//! # Ok::<(), mcp_typed::valid::DrawError>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_typed_json::values::{Unsupported, Values};
use schemars::{JsonSchema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why no value of a type was drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawError {
    /// The type's schema has a keyword no value can be drawn by (a `pattern`, a `oneOf`): the
    /// keyword and where it is.
    Unsupported(Unsupported),
    /// The drawn JSON is not a value of the type: the type and its schema disagree (a bug of
    /// the generator or of the drawing; please report it with the JSON).
    Decode {
        /// The JSON drawn.
        json: String,
        /// What the decoder said.
        message: String,
    },
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::Unsupported(unsupported) => unsupported.fmt(f),
            DrawError::Decode { json, message } => {
                write!(
                    f,
                    "a value drawn from the type's schema does not decode ({message}): {json}"
                )
            }
        }
    }
}

impl std::error::Error for DrawError {}

/// The schema of `T` as one document (its definitions under `$defs`), built once per type.
pub fn schema_of<T: JsonSchema>() -> Arc<Value> {
    static SCHEMAS: OnceLock<Mutex<HashMap<String, Arc<Value>>>> = OnceLock::new();
    let id = T::schema_id().into_owned();
    let schemas = SCHEMAS.get_or_init(Mutex::default);
    if let Some(schema) = schemas.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return Arc::clone(schema);
    }
    let schema = Arc::new(
        SchemaGenerator::default()
            .into_root_schema_for::<T>()
            .to_value(),
    );
    let mut schemas = schemas.lock().unwrap_or_else(|e| e.into_inner());
    Arc::clone(schemas.entry(id).or_insert(schema))
}

/// A value of `T` that its schema accepts, drawn from `seed`.
///
/// One disagreement between a schema and its type is known: a 2026-07-28 result response
/// (`CallToolResultResponse`, `GetPromptResultResponse`, `ReadResourceResultResponse`) whose
/// drawn `resultType` is neither `input_required` nor `complete` is allowed by the official
/// schema's `anyOf` but is no result the type reads (it reads `resultType` as the conformance
/// suite does): such a seed is a [`DrawError::Decode`] (about 1 in 3 for those types).
pub fn draw<T: JsonSchema + DeserializeOwned>(seed: u64) -> Result<T, DrawError> {
    let schema = schema_of::<T>();
    let drawn = (Values::new(&schema, seed).of(&schema)).map_err(DrawError::Unsupported)?;
    let json = drawn.to_string();
    serde_json::from_str(&json).map_err(|error| DrawError::Decode {
        json,
        message: error.to_string(),
    })
}

/// A value of `T` valid under its schema, as a fuzz target's input (feature `arbitrary`):
/// `fuzz_target!(|request: Valid<CallToolRequest>| …)`.
///
/// The input's bytes choose the seed of the draw: a fuzzer explores seeds, each a whole valid
/// value, rather than mutating a value's structure. A seed whose draw fails (a schema with a
/// keyword no value is drawn by) is [`arbitrary::Error::IncorrectFormat`].
#[cfg(feature = "arbitrary")]
#[derive(Debug, Clone, PartialEq)]
pub struct Valid<T>(pub T);

#[cfg(feature = "arbitrary")]
impl<'a, T: JsonSchema + DeserializeOwned> arbitrary::Arbitrary<'a> for Valid<T> {
    fn arbitrary(input: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let seed = u64::arbitrary(input)?;
        draw(seed)
            .map(Valid)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (8, Some(8))
    }
}

/// A proptest strategy of values of `T` valid under its schema (feature `proptest`):
/// `proptest!(|(request in valid::strategy::<CallToolRequest>())| …)`. A seed whose draw fails
/// is rejected (a type whose schema no value is drawn by makes the test fail by rejections).
#[cfg(feature = "proptest")]
pub fn strategy<T>() -> impl proptest::strategy::Strategy<Value = T>
where
    T: JsonSchema + DeserializeOwned + fmt::Debug,
{
    use proptest::strategy::Strategy as _;
    proptest::arbitrary::any::<u64>()
        .prop_filter_map("a value drawn from the type's schema", |seed| {
            draw(seed).ok()
        })
}
