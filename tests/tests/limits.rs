//! The limits on what a peer sends, each at its edge: what is accepted just inside it and the
//! error just past it. The limits themselves are listed in the README ("Limits").
//!
//! Tests run on threads with Rust's default 2 MiB stack, so a decoder that recursed once per
//! level of nesting without a limit would overflow here.

use std::io::Cursor;
use std::time::{Duration, UNIX_EPOCH};

use mcp_mrtr::seal::{ParamsDigest, SealContext, SealingKey, StateSealer};
use mcp_typed::elicit::RequestedSchema;
use mcp_typed::jsonrpc::PARSE_ERROR;
use mcp_typed::v2025_11_25::{ClientMessage, ServerMessage};
use serde_json::{json, Value};

/// serde_json's recursion limit: arrays and objects nested this deep are read, one more is not.
const DEPTH_LIMIT: usize = 127;

/// A `tools/call` whose params hold, in `member`, arrays nested so that the message is `depth`
/// deep.
fn call_nested(member: &str, depth: usize) -> String {
    // The message, `params` and (for `arguments`) the arguments object are the first levels.
    let (before, after, inner) = match member {
        "arguments" => (r#"{"v":"#, "}", depth - 3),
        _ => ("", "", depth - 2),
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","{member}":{before}{}{}{after}}}}}"#,
        "[".repeat(inner),
        "]".repeat(inner)
    )
}

/// Every entry point that reads a message from text, and what it gave.
fn every_entry_point(text: &str) -> Vec<(&'static str, Result<ClientMessage, String>)> {
    vec![
        (
            "FromStr",
            text.parse::<ClientMessage>().map_err(|e| e.to_string()),
        ),
        (
            "from_str",
            serde_json::from_str(text).map_err(|e| e.to_string()),
        ),
        (
            "from_slice",
            serde_json::from_slice(text.as_bytes()).map_err(|e| e.to_string()),
        ),
        (
            "from_reader",
            serde_json::from_reader(Cursor::new(text)).map_err(|e| e.to_string()),
        ),
    ]
}

/// What is decoded into values (an unknown member, kept in `extra`) is read to serde_json's
/// limit, and past it every entry point refuses the message as a parse error.
#[test]
fn values_nested_to_the_limit_decode_and_past_it_are_a_parse_error() {
    let at_limit = call_nested("x", DEPTH_LIMIT);
    let expected: Value = serde_json::from_str(&at_limit).expect("serde_json reads it");
    for (entry, decoded) in every_entry_point(&at_limit) {
        let message = decoded.unwrap_or_else(|error| panic!("{entry}: {error}"));
        assert_eq!(serde_json::to_value(&message).unwrap(), expected, "{entry}");
    }
    for depth in [DEPTH_LIMIT + 1, 100_000] {
        let text = call_nested("x", depth);
        for (entry, decoded) in every_entry_point(&text) {
            let Err(error) = decoded else {
                panic!("{entry} decoded a message {depth} deep");
            };
            assert!(
                error.contains("recursion limit exceeded"),
                "{entry} at {depth}: {error}"
            );
        }
        // The error a server answers with: a parse error, as for any text serde_json refuses.
        let error = text.parse::<ClientMessage>().unwrap_err();
        assert_eq!(error.code(), PARSE_ERROR, "{error}");
    }
    // Unclosed nesting ends the same way, however long.
    let open = "{\"a\":".repeat(200_000);
    let text = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{open}"#);
    let error = text.parse::<ClientMessage>().unwrap_err();
    assert_eq!(error.code(), PARSE_ERROR, "{error}");
}

/// What is kept as text (`RawObject`: tool arguments, `_meta`, structured content) is skipped
/// without recursion, so any depth is read, in time linear in its length; decoding it into a
/// value later meets serde_json's limit there.
#[test]
fn members_kept_as_text_are_read_at_any_depth() {
    let text = call_nested("arguments", 100_000);
    for (entry, decoded) in every_entry_point(&text) {
        let message = decoded.unwrap_or_else(|error| panic!("{entry}: {error}"));
        // Re-encoded with the members in the types' order, the deep arguments as they came.
        let again = serde_json::to_string(&message).unwrap();
        let deep = &text[text.find(r#"{"v":"#).unwrap()..text.len() - 2];
        assert!(
            again.len() == text.len() && again.contains(deep),
            "{entry}: re-encoded differently"
        );
        let ClientMessage::Request { request, .. } = message else {
            panic!("{entry}: not a request");
        };
        let mcp_typed::v2025_11_25::ClientRequest::CallTool(params) = request else {
            panic!("{entry}: not a tools/call");
        };
        let arguments = params.arguments.expect("arguments");
        let error = arguments.decode::<Value>().unwrap_err();
        assert!(
            error.to_string().contains("recursion limit exceeded"),
            "{error}"
        );
    }
}

/// No size limit of the crate's own: the transport frames messages, and a message is decoded
/// whole, in memory proportional to its text.
#[test]
fn long_strings_and_extreme_ids_decode_exactly() {
    let long = "é".repeat(8 << 20);
    // Members in the order the types write them, so that the text is the encoding.
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"{long}"}}]}}}}"#,
        i64::MAX
    );
    let message: ServerMessage = text.parse().expect("a 16 MB result decodes");
    let again = serde_json::to_string(&message).unwrap();
    assert!(again == text, "the result does not re-encode as it came");
    for id in [json!(i64::MIN), json!(i64::MAX), json!("x".repeat(1 << 20))] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        let message: ClientMessage = text.parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(serde_json::to_string(&message).unwrap(), text);
    }
    // Integer ids are 64-bit signed, as in the other SDKs; past that, the error says so.
    let text = json!({"jsonrpc": "2.0", "id": u64::MAX, "method": "ping"}).to_string();
    let error = text.parse::<ClientMessage>().unwrap_err();
    assert_eq!(error.path(), Some("/id"));
    assert!(error.to_string().contains("64 bits"), "{error}");
}

#[test]
fn forms_nested_past_the_limit_are_refused() {
    let nested = |depth: usize| {
        format!(
            r#"{{"type":"object","properties":{{"a":{{"type":"string","default":{}1{}}}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    // Within the limit the form is read, and refused for what it says: a default that is not a
    // string, at its pointer.
    let error = RequestedSchema::parse_str(&nested(DEPTH_LIMIT - 3)).unwrap_err();
    assert_eq!(error.pointer, "/properties/a/default", "{error}");
    for depth in [DEPTH_LIMIT - 2, 100_000] {
        let error = RequestedSchema::parse_str(&nested(depth)).unwrap_err();
        assert!(
            error.message.contains("recursion limit exceeded"),
            "{error}"
        );
    }
}

/// A token of any length is refused with an error, in time linear in its length.
#[test]
fn sealed_tokens_of_any_length_are_refused() {
    let sealer = StateSealer::new(SealingKey::new(1, [0x5a; 32]));
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&Value::Null),
        ttl: Duration::from_secs(600),
    };
    let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    for token in ["", "A", &"A".repeat(1 << 24), &"é".repeat(1 << 20)] {
        assert!(sealer.open(token, &context, now).is_err());
    }
}
