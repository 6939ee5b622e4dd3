//! Forms derived in a crate that depends on `mcp-typed-rmcp` alone: their schemas, in declared
//! order, and their answers read back.

use mcp_typed_adapter_only_test::{Booking, Confirm, Diet, Seating};
use mcp_typed_rmcp::mcp_typed::elicit::ElicitOutcome;
use mcp_typed_rmcp::mcp_typed::v2025_11_25 as legacy;
use mcp_typed_rmcp::Elicit;
use serde_json::{json, Map, Value};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(members) => members,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn the_readme_form_derives_through_the_adapter() {
    let schema = serde_json::to_string(&Confirm::requested_schema()).unwrap();
    assert_eq!(
        schema,
        r#"{"type":"object","properties":{"repository":{"type":"string","description":"Type the name of the repository to confirm"}},"required":["repository"]}"#
    );
    let answer = object(json!({ "repository": "demo" }));
    assert_eq!(
        Confirm::from_content(&answer).unwrap(),
        Confirm {
            repository: "demo".into()
        }
    );
    // The README's flow: the live request's params, and the user's answer read back.
    let params: legacy::ElicitRequestFormParams = Confirm::form_params("Sure?").unwrap();
    assert_eq!(params.message, "Sure?");
    let result: legacy::ElicitResult =
        serde_json::from_str(r#"{"action":"accept","content":{"repository":"demo"}}"#).unwrap();
    let outcome = ElicitOutcome::<Confirm>::try_from(&result).unwrap();
    assert!(matches!(
        outcome,
        ElicitOutcome::Accepted(Confirm { repository }) if repository == "demo"
    ));
}

#[test]
fn the_schema_keeps_the_declared_order_and_every_keyword() {
    let text = serde_json::to_string(&Booking::requested_schema()).unwrap();
    let expected = concat!(
        r#"{"type":"object","properties":{"#,
        r#""date":{"type":"string","description":"The day of the booking","format":"date"},"#,
        r#""partySize":{"type":"integer","description":"How many people","minimum":1,"maximum":12,"default":2},"#,
        r#""seating":{"type":"string","description":"Where to sit","oneOf":[{"const":"indoor","title":"Indoor"},{"const":"outdoor","title":"Terrace"}],"default":"indoor"},"#,
        r#""notes":{"type":"string","description":"Anything we should know","maxLength":200},"#,
        r#""reminder":{"type":"boolean","description":"Send a reminder the day before"},"#,
        r#""diets":{"type":"array","description":"The diets to cater for","items":{"type":"string","enum":["vegetarian","gluten-free"]}}"#,
        r#"},"required":["date","partySize","seating","reminder"]}"#,
    );
    assert_eq!(text, expected);
}

#[test]
fn an_answer_is_read_back_and_a_bad_one_refused() {
    let answer = object(json!({
        "date": "2026-07-28",
        "partySize": 4,
        "seating": "outdoor",
        "reminder": true,
        "diets": ["gluten-free"],
    }));
    let expected = Booking {
        date: "2026-07-28".into(),
        party_size: 4,
        seating: Seating::Outdoor,
        notes: None,
        reminder: true,
        diets: Some(vec![Diet::GlutenFree]),
    };
    assert_eq!(Booking::from_content(&answer).unwrap(), expected);
    // The same answer as text, decoded without a `Value`.
    let text = serde_json::to_string(&Value::Object(answer)).unwrap();
    assert_eq!(Booking::from_json_str(&text).unwrap(), expected);

    let bad = object(json!({
        "date": "tomorrow",
        "partySize": 40,
        "seating": "roof",
        "notes": "window seat",
    }));
    let errors = Booking::from_content(&bad).unwrap_err();
    let found: Vec<_> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer().to_owned(), e.keyword().as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/date".to_owned(), "format"),
            ("/partySize".to_owned(), "maximum"),
            ("/seating".to_owned(), "enum"),
            ("/reminder".to_owned(), "required"),
        ]
    );
}
