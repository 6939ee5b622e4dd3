//! `booking-server`, the small example server: its `book_table` form in 2026-07-28 as raw HTTP
//! (an `InputRequiredResult` whose form lists `required` in the order the struct declares its
//! fields; the retry with `inputResponses` and `requestState` books the table; an answer that
//! breaks the form is refused naming the field), and in both eras through `http-client
//! --answers`.

use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

mod support;

/// A booking-server on a free port, stopped when dropped.
struct BookingServer(support::HttpServer);

impl BookingServer {
    fn start() -> Self {
        Self(support::HttpServer::start_program(
            env!("CARGO_BIN_EXE_booking-server"),
            &[],
        ))
    }

    /// Sends a 2026-07-28 `tools/call` of `book_table` with `params` (declaring elicitation)
    /// and returns the response's JSON text as it came.
    fn call(&self, id: u64, mut params: Value) -> String {
        params["name"] = json!("book_table");
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "booking-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        });
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut response = agent
            .post(&self.0.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", "book_table")
            .send(&body.to_string())
            .expect("a response");
        let text = response.body_mut().read_to_string().expect("a body");
        // A JSON body, or the `data:` of a server-sent event.
        std::iter::once(text.trim())
            .chain(
                text.lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim),
            )
            .find(|data| serde_json::from_str::<Value>(data).is_ok_and(|m| m["id"] == id))
            .unwrap_or_else(|| panic!("no response {id} in {text}"))
            .to_owned()
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("JSON")
}

#[test]
fn book_table_in_2026_07_28_over_raw_http() {
    let server = BookingServer::start();
    let first_text = server.call(1, json!({"arguments": {}}));
    let first = parse(&first_text);
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let asked = &result["inputRequests"]["booking"];
    assert_eq!(asked["method"], "elicitation/create", "{first}");
    assert_eq!(asked["params"]["message"], "Which table would you like?");
    let schema = &asked["params"]["requestedSchema"];
    assert_eq!(schema["required"], json!(["date", "partySize", "seating"]));
    assert_eq!(schema["properties"]["date"]["format"], "date");
    assert_eq!(
        (
            &schema["properties"]["partySize"]["minimum"],
            &schema["properties"]["partySize"]["maximum"]
        ),
        (&json!(1), &json!(12))
    );
    assert_eq!(
        schema["properties"]["seating"]["oneOf"],
        json!([
            {"const": "indoors", "title": "Inside"},
            {"const": "terrace", "title": "On the terrace"},
            {"const": "bar", "title": "At the bar"},
        ])
    );
    assert_eq!(schema["properties"]["notes"]["type"], "string");

    let state = result["requestState"].clone();
    assert!(state.is_string(), "{first}");
    let answer = json!({"booking": {"action": "accept", "content": {
        "date": "2026-09-12", "partySize": 4, "seating": "terrace", "notes": "a birthday"}}});
    let done = parse(&server.call(
        2,
        json!({"arguments": {}, "inputResponses": answer, "requestState": state}),
    ));
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Booked a table for 4 on 2026-09-12, seating: Terrace, notes: a birthday.",
        "{done}"
    );

    // An answer that breaks the form: refused, naming the field.
    let again = parse(&server.call(3, json!({"arguments": {}})));
    let state = again["result"]["requestState"].clone();
    let wrong = json!({"booking": {"action": "accept", "content": {
        "date": "2026-09-12", "partySize": 40, "seating": "terrace"}}});
    let refused = parse(&server.call(
        4,
        json!({"arguments": {}, "inputResponses": wrong, "requestState": state}),
    ));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused
            .to_string()
            .contains("/inputResponses/booking/content/partySize"),
        "{refused}"
    );

    // The properties and `required` in the raw JSON text, in the order the struct declares its
    // fields: rmcp 3.11 writes params through a `serde_json::Value`, which keeps that order with
    // serde_json's `preserve_order`, on by the adapter's default feature `declared-order`.
    let properties = &first_text[first_text.find(r#""properties":{"#).expect("properties")..];
    let property_at = |name: &str| {
        properties
            .find(&format!(r#""{name}":{{"#))
            .unwrap_or_else(|| panic!("no property {name} in {first_text}"))
    };
    let order = [
        property_at("date"),
        property_at("partySize"),
        property_at("seating"),
        property_at("notes"),
    ];
    assert!(
        order.windows(2).all(|pair| pair[0] < pair[1]),
        "the properties are not in declared order (date, partySize, seating, notes): {first_text}"
    );
    let required = &first_text[first_text.find(r#""required":["#).expect("required")..];
    let required = &required[..required.find(']').expect("the end of required")];
    let at = |name: &str| {
        required
            .find(&format!(r#""{name}""#))
            .unwrap_or_else(|| panic!("{name} is not required in {first_text}"))
    };
    let order = [at("date"), at("partySize"), at("seating")];
    assert!(
        order.windows(2).all(|pair| pair[0] < pair[1]),
        "`required` is not in declared order (date, partySize, seating): {first_text}"
    );
    assert!(!required.contains("notes"), "{first_text}");
}

#[test]
fn book_table_in_both_eras_through_http_client() {
    let server = BookingServer::start();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("booking-answers.json");
    // By the input request's key (2026-07-28), and by the form's message (2025-11-25).
    std::fs::write(
        &path,
        r#"{"booking": {"date": "2026-09-12", "partySize": 4, "seating": "terrace", "notes": "a birthday"},
            "Which table would you like?": {"date": "2026-09-13", "partySize": 2, "seating": "bar"}}"#,
    )
    .expect("write the answers");
    for (protocol, booked) in [
        (
            "2026-07-28",
            "Booked a table for 4 on 2026-09-12, seating: Terrace, notes: a birthday.",
        ),
        (
            "2025-11-25",
            "Booked a table for 2 on 2026-09-13, seating: Bar, notes: none.",
        ),
    ] {
        let out = support::run(
            Command::new(env!("CARGO_BIN_EXE_http-client")).args([
                "--protocol",
                protocol,
                "--answers",
                path.to_str().unwrap(),
                &server.0.url,
                "book_table",
            ]),
            Duration::from_secs(60),
        );
        assert!(out.status.success(), "{protocol}: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            booked,
            "{protocol}"
        );
    }
}
