//! Every shape `#[derive(Elicit)]` produces, asked in a 2026-07-28 `InputRequiredResult`, crosses
//! rmcp's model unchanged, or is refused naming what rmcp would drop: the form a client gets
//! through the adapter is exactly the derived one.
//!
//! It depends on the adapter alone (no `mcp-typed` among its dev-dependencies): the forms are
//! derived through its re-exports, with `#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]`.

use mcp_typed_rmcp::mcp_mrtr::InputRequired;
use mcp_typed_rmcp::mcp_typed::v2026_07_28::{ClientCapabilities, InputRequiredResult};
use mcp_typed_rmcp::{to_rmcp_input_required, Elicit};

fn asked<T: Elicit>() -> InputRequiredResult {
    let capabilities: ClientCapabilities =
        serde_json::from_str(r#"{"elicitation":{"form":{}}}"#).unwrap();
    InputRequired::new(&capabilities)
        .elicit::<T>("form", "Please fill in the form")
        .unwrap()
        .build()
        .unwrap()
}

/// Every kind of field, bound and default the derive writes, but `pattern`.
#[allow(dead_code)]
#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "camelCase")]
struct Everything {
    /// Free text
    #[elicit(title = "Name", min_length = 1, max_length = 50, default = "Ada")]
    name: String,
    /// An email address
    #[elicit(format = "email")]
    email: String,
    /// A web page
    #[elicit(format = "uri")]
    site: Option<String>,
    /// A day
    #[elicit(format = "date")]
    day: Option<String>,
    /// A moment
    #[elicit(format = "date-time")]
    at: Option<String>,
    /// A count
    #[elicit(minimum = 1, maximum = 10, default = 3)]
    count: u8,
    /// A wide integer
    big: i64,
    /// A ratio
    #[elicit(minimum = 0.5, maximum = 2.5, default = 1.5)]
    ratio: f64,
    /// A flag
    #[elicit(default = true)]
    flag: bool,
    /// One colour, untitled
    #[elicit(default = "Red")]
    color: Color,
    /// One size, titled
    size: Size,
    /// Some colours
    #[elicit(min_items = 1, max_items = 2)]
    colors: Vec<Color>,
    /// Some sizes, titled
    sizes: Option<Vec<Size>>,
}

#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
enum Color {
    Red,
    Green,
}

#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
enum Size {
    #[elicit(title = "Small")]
    S,
    #[elicit(title = "Large")]
    L,
}

#[allow(dead_code)]
#[derive(Debug, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
struct WithPattern {
    /// A postcode
    #[elicit(pattern = "^[0-9]{5}$")]
    postcode: String,
}

#[test]
fn every_derived_shape_crosses_rmcp_unchanged() {
    let ours = asked::<Everything>();
    let theirs = to_rmcp_input_required(&ours).expect("rmcp carries every shape but pattern");
    // The same JSON, member for member (names compared as sets: rmcp writes a `Value`).
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        serde_json::to_value(&ours).unwrap()
    );
    // And what went in is the derived form.
    let schema =
        &serde_json::to_value(&ours).unwrap()["inputRequests"]["form"]["params"]["requestedSchema"];
    assert_eq!(
        schema,
        &serde_json::to_value(Everything::requested_schema()).unwrap()
    );
}

#[test]
fn a_pattern_rmcp_would_drop_is_refused_naming_it() {
    let error = to_rmcp_input_required(&asked::<WithPattern>()).unwrap_err();
    assert_eq!(error.code.0, -32603);
    assert!(
        error
            .message
            .contains("/inputRequests/form/params/requestedSchema/properties/postcode/pattern"),
        "{}",
        error.message
    );
}
