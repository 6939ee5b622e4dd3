use mcp_typed::elicit::{Elicit, PropertySchema};

/// Defaults that satisfy their `format`, checked at compile time, in a form that refuses
/// undeclared members.
#[derive(Debug, mcp_typed::Elicit)]
#[serde(deny_unknown_fields)]
struct Form {
    #[elicit(format = "email", default = "ann@example.com")]
    email: String,
    #[elicit(default = "https://example.com/home", format = "uri")]
    homepage: Option<String>,
    #[elicit(format = "date", default = "2024-02-29")]
    day: String,
    #[elicit(format = "date-time", default = "2024-01-01T12:00:00+01:00")]
    at: Option<String>,
}

fn main() {
    let schema = Form::requested_schema();
    assert!(schema.check().is_ok());
    assert!(schema.additional_properties_forbidden);
    let Some(PropertySchema::String(day)) = schema.property("day") else {
        panic!("a string property");
    };
    assert_eq!(day.default.as_deref(), Some("2024-02-29"));
    // The defaults, sent back as the answer, are accepted.
    let form = Form::from_content(&schema.defaults()).expect("the defaults are valid");
    assert_eq!(form.email, "ann@example.com");
    let text = serde_json::to_string(&schema.defaults()).expect("serializes");
    assert_eq!(Form::from_json_str(&text).expect("valid").day, "2024-02-29");
}
