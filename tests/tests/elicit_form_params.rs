//! `form_params`: a derived form as the typed `elicitation/create` params of each revision, with
//! its fields in declaration order all the way to the wire.

use mcp_typed::elicit::{RequestedSchema, ToRevisionError};
use mcp_typed::{draft, v2025_06_18, v2025_11_25, v2026_07_28, Elicit};
use serde_json::{json, Value};

/// The specification's contact form, with the keywords in the spec's order.
#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Contact {
    /// Your full name
    name: String,
    #[elicit(format = "email", description = "Your email address")]
    email: String,
    #[elicit(minimum = 18, description = "Your age")]
    age: Option<f64>,
}

/// Fields deliberately out of alphabetical order.
#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Shipping {
    zip: String,
    street: String,
    city: String,
    express: Option<bool>,
}

#[derive(Debug, Elicit)]
#[allow(dead_code)]
enum Color {
    #[elicit(title = "Red")]
    #[serde(rename = "#FF0000")]
    Red,
    #[elicit(title = "Green")]
    #[serde(rename = "#00FF00")]
    Green,
}

#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Palette {
    favourite: Color,
    others: Vec<Color>,
}

#[derive(Debug, Elicit)]
#[allow(dead_code)]
struct Favourite {
    favourite: Color,
}

/// The property names of the `requestedSchema` in params JSON text, in the text's order
/// (`RequestedSchema`'s `Deserialize` keeps it; a `serde_json::Value` would sort them).
fn property_order(json: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(rename = "requestedSchema")]
        requested_schema: RequestedSchema,
    }
    let params: Params = serde_json::from_str(json).unwrap();
    params
        .requested_schema
        .properties
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn the_contact_form_is_the_official_example() {
    let official = mcp_typed_tests::mirror()
        .join("2026-07-28/examples/ElicitRequestFormParams/elicit-multiple-fields.json");
    let official: Value =
        serde_json::from_str(&std::fs::read_to_string(official).unwrap()).unwrap();
    let params: v2026_07_28::ElicitRequestFormParams =
        Contact::form_params("Please provide your contact information").unwrap();
    assert_eq!(serde_json::to_value(&params).unwrap(), official);
    let text = serde_json::to_string(&params).unwrap();
    assert_eq!(property_order(&text), ["name", "email", "age"]);
}

#[test]
fn declaration_order_survives_every_revision() {
    fn order<P: serde::Serialize>(params: &P) -> Vec<String> {
        property_order(&serde_json::to_string(params).unwrap())
    }
    let expected = ["zip", "street", "city", "express"];
    let p: v2025_06_18::ElicitRequestParams = Shipping::form_params("Where to?").unwrap();
    assert_eq!(order(&p), expected);
    let p: v2025_11_25::ElicitRequestFormParams = Shipping::form_params("Where to?").unwrap();
    assert_eq!(order(&p), expected);
    let p: v2026_07_28::ElicitRequestFormParams = Shipping::form_params("Where to?").unwrap();
    assert_eq!(order(&p), expected);
    let p: draft::ElicitRequestFormParams = Shipping::form_params("Where to?").unwrap();
    assert_eq!(order(&p), expected);
    // The typed map itself iterates in that order.
    let keys: Vec<&str> = p
        .requested_schema
        .properties
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, expected);
}

#[test]
fn mode_is_written_from_2025_11_25_on() {
    let p: v2025_06_18::ElicitRequestParams = Shipping::form_params("m").unwrap();
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v.get("mode"), None, "2025-06-18 has no mode");
    assert_eq!(v["message"], "m");
    let p: v2025_11_25::ElicitRequestFormParams = Shipping::form_params("m").unwrap();
    assert_eq!(serde_json::to_value(&p).unwrap()["mode"], "form");
    // The union type gets its form variant.
    let p: v2025_11_25::ElicitRequestParams = Shipping::form_params("m").unwrap();
    assert!(matches!(p, v2025_11_25::ElicitRequestParams::Form(_)));
    let p: v2026_07_28::ElicitRequestParams = Shipping::form_params("m").unwrap();
    assert!(matches!(p, v2026_07_28::ElicitRequestParams::Form(_)));
}

#[test]
fn the_params_go_into_a_request_message() {
    let params: v2025_11_25::ElicitRequestParams =
        Contact::form_params("Please provide your contact information").unwrap();
    let request = v2025_11_25::ServerRequest::Elicit(Box::new(params));
    let message = v2025_11_25::ServerMessage::Request {
        id: v2025_11_25::RequestId::Integer(7),
        request,
    };
    let text = serde_json::to_string(&message).unwrap();
    let back: v2025_11_25::ServerMessage = text.parse().unwrap();
    assert_eq!(back, message);
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["method"], "elicitation/create");
    assert_eq!(
        value["params"]["requestedSchema"]["required"],
        json!(["name", "email"])
    );
}

#[test]
fn titled_selects_become_enum_names_in_2025_06_18() {
    let p: v2025_06_18::ElicitRequestParams = Favourite::form_params("Pick").unwrap();
    assert_eq!(
        serde_json::to_value(&p).unwrap()["requestedSchema"]["properties"]["favourite"],
        json!({"type": "string", "enum": ["#FF0000", "#00FF00"], "enumNames": ["Red", "Green"]})
    );
    let p: v2025_11_25::ElicitRequestFormParams = Favourite::form_params("Pick").unwrap();
    assert_eq!(
        serde_json::to_value(&p).unwrap()["requestedSchema"]["properties"]["favourite"],
        json!({"type": "string", "oneOf": [
            {"const": "#FF0000", "title": "Red"},
            {"const": "#00FF00", "title": "Green"}
        ]})
    );
}

#[test]
fn what_2025_06_18_cannot_say_is_refused_naming_the_property() {
    let error = Palette::form_params::<v2025_06_18::ElicitRequestParams>("Pick").unwrap_err();
    match &error {
        ToRevisionError::Unsupported { property, .. } => assert_eq!(property, "others"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    assert!(error.to_string().contains("others"), "{error}");
    // The newer revisions take it.
    let p: v2025_11_25::ElicitRequestFormParams = Palette::form_params("Pick").unwrap();
    assert!(p.requested_schema.properties.contains_key("others"));
}

#[test]
fn an_inconsistent_schema_is_refused_before_it_is_sent() {
    let mut schema = Shipping::requested_schema();
    schema.required.push("country".into());
    let error = schema
        .form_params::<v2026_07_28::ElicitRequestFormParams>("m")
        .unwrap_err();
    assert!(matches!(error, ToRevisionError::Invalid(_)), "{error:?}");
    assert!(error.to_string().contains("country"), "{error}");
}

#[test]
fn decoded_official_forms_keep_their_order_when_re_encoded() {
    let dir = mcp_typed_tests::mirror().join("2026-07-28/examples/ElicitRequestFormParams");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let params: v2026_07_28::ElicitRequestFormParams = serde_json::from_str(&text).unwrap();
        let again = serde_json::to_string(&params).unwrap();
        assert_eq!(property_order(&again), property_order(&text));
    }
}

/// A client that decoded an `elicitation/create` gets the form from the generated
/// `requestedSchema` of each revision directly: the same `RequestedSchema` as parsing the wire
/// JSON, the properties in the wire's order, and a schema outside the subset refused with the
/// same `SchemaError` and pointer.
#[test]
fn the_requested_schema_of_each_revision_reads_as_a_form() {
    let shipping = Shipping::requested_schema();
    let palette = Palette::requested_schema();
    // A keyword outside the subset, which the generated type keeps among its extra members.
    let outside = r#"{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{"type":"string"}}}}"#;
    let expected_error = RequestedSchema::parse_str(
        r#"{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x":{"type":"string"}}}"#,
    )
    .unwrap_err();
    assert_eq!(expected_error.pointer, "/patternProperties");

    // 2025-06-18: titled selects travel as `enum` + `enumNames`.
    let params: v2025_06_18::ElicitRequestParams = shipping.form_params("Where to?").unwrap();
    let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
    assert_eq!(schema, shipping);
    assert_eq!(names(&schema), ["zip", "street", "city", "express"]);
    let params: v2025_06_18::ElicitRequestParams = Favourite::form_params("Which?").unwrap();
    let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
    assert_eq!(
        schema,
        RequestedSchema::parse(
            &Favourite::requested_schema()
                .to_revision(mcp_typed::elicit::Revision::V2025_06_18)
                .unwrap()
        )
        .unwrap()
    );
    let params: v2025_06_18::ElicitRequestParams =
        serde_json::from_str(&outside.replace(r#""mode":"form","#, "")).unwrap();
    assert_eq!(
        RequestedSchema::try_from(&params.requested_schema),
        Err(expected_error.clone())
    );

    let params: v2025_11_25::ElicitRequestFormParams = palette.form_params("Which?").unwrap();
    let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
    assert_eq!(schema, palette);
    let params: v2025_11_25::ElicitRequestFormParams = serde_json::from_str(outside).unwrap();
    assert_eq!(
        RequestedSchema::try_from(&params.requested_schema),
        Err(expected_error.clone())
    );

    let params: v2026_07_28::ElicitRequestFormParams = palette.form_params("Which?").unwrap();
    let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
    assert_eq!(schema, palette);
    let params: v2026_07_28::ElicitRequestFormParams = shipping.form_params("Where to?").unwrap();
    let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
    assert_eq!(names(&schema), ["zip", "street", "city", "express"]);
    let params: v2026_07_28::ElicitRequestFormParams = serde_json::from_str(outside).unwrap();
    assert_eq!(
        RequestedSchema::try_from(&params.requested_schema),
        Err(expected_error.clone())
    );

    // The draft's type is 2026-07-28's.
    let params: draft::ElicitRequestFormParams = palette.form_params("Which?").unwrap();
    assert_eq!(
        RequestedSchema::try_from(&params.requested_schema),
        Ok(palette)
    );

    // The official examples read as their wire JSON parses.
    let dir = mcp_typed_tests::mirror().join("2026-07-28/examples/ElicitRequestFormParams");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let params: v2026_07_28::ElicitRequestFormParams = serde_json::from_str(&text).unwrap();
        let wire: Value = serde_json::from_str(&text).unwrap();
        let schema = RequestedSchema::try_from(&params.requested_schema).unwrap();
        assert_eq!(names(&schema), property_order(&text), "{text}");
        assert_eq!(
            RequestedSchema::parse(&wire["requestedSchema"])
                .unwrap()
                .properties
                .len(),
            schema.properties.len()
        );
    }
}

fn names(schema: &RequestedSchema) -> Vec<&str> {
    schema
        .properties
        .iter()
        .map(|(name, _)| name.as_str())
        .collect()
}
