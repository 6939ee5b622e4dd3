//! `ElicitOutcome` from the `ElicitResult` of every revision with elicitation: accept is
//! validated and built, decline and cancel never are, accept without content fails when the
//! form has required members.

use mcp_typed::elicit::{Action, Elicit, ElicitOutcome, RequestedSchema, ValidationErrors};
use serde_json::{json, Map, Value};

/// A form implemented by hand (the derive generates the same shape of impl).
#[derive(Debug, PartialEq)]
struct Contact {
    name: String,
    age: Option<i64>,
}

impl Elicit for Contact {
    fn requested_schema() -> RequestedSchema {
        // `parse_str` keeps the declaration order (a `serde_json::Value` would sort it).
        RequestedSchema::parse_str(
            r#"{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","minimum":0}},"required":["name"]}"#,
        )
        .expect("valid form")
    }

    fn from_content(content: &Map<String, Value>) -> Result<Self, ValidationErrors> {
        Self::requested_schema().validate(content)?;
        Ok(Contact {
            name: content["name"].as_str().unwrap_or_default().to_owned(),
            age: content.get("age").and_then(Value::as_f64).map(|a| a as i64),
        })
    }
}

#[test]
fn accept_is_validated_and_built() {
    let result: mcp_typed::v2025_11_25::ElicitResult =
        serde_json::from_value(json!({"action": "accept", "content": {"name": "Ada", "age": 36}}))
            .expect("decodes");
    let outcome = ElicitOutcome::<Contact>::try_from(&result).expect("valid");
    assert_eq!(
        outcome,
        ElicitOutcome::Accepted(Contact {
            name: "Ada".into(),
            age: Some(36)
        })
    );
}

#[test]
fn invalid_accept_reports_every_problem() {
    let result: mcp_typed::v2026_07_28::ElicitResult =
        serde_json::from_value(json!({"action": "accept", "content": {"name": "", "age": -1}}))
            .expect("decodes");
    let errors = ElicitOutcome::<Contact>::try_from(&result).expect_err("invalid");
    let found: Vec<(&str, &str)> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer(), e.keyword().as_str()))
        .collect();
    assert_eq!(found, vec![("/name", "minLength"), ("/age", "minimum")]);
}

#[test]
fn accept_without_content_fails_when_members_are_required() {
    let result: mcp_typed::v2025_06_18::ElicitResult =
        serde_json::from_value(json!({"action": "accept"})).expect("decodes");
    let errors = ElicitOutcome::<Contact>::try_from(&result).expect_err("name is required");
    assert_eq!(errors.errors()[0].pointer(), "/name");
    assert_eq!(errors.errors()[0].keyword().as_str(), "required");
}

#[test]
fn decline_and_cancel_are_never_validated() {
    for (action, expected) in [
        ("decline", ElicitOutcome::Declined),
        ("cancel", ElicitOutcome::Cancelled),
    ] {
        // Content that would be invalid is ignored: the user did not submit the form.
        let result: mcp_typed::draft::ElicitResult =
            serde_json::from_value(json!({"action": action, "content": {"name": 5}}))
                .expect("decodes");
        assert_eq!(
            ElicitOutcome::<Contact>::try_from(&result).expect("no validation"),
            expected
        );
    }
    assert_eq!(
        ElicitOutcome::<Contact>::from_parts(Action::Cancel, None).expect("cancel"),
        ElicitOutcome::Cancelled
    );
}
