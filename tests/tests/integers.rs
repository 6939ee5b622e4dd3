//! JSON Schema's `integer` is any number with a zero fractional part (2020-12 validation
//! §6.1.1, draft-07 likewise): `1.0` and `1e2` are integers, which ajv and the conformance suite
//! accept. Every member the schema types `integer` (an `i64`, an `Option<i64>`, a nullable one,
//! a constant error code, a union's integer member: `RequestId`, `ProgressToken`) decodes them
//! as the integer they stand for, in both families, and writes that integer back (`1`). Any other
//! float (`1.5`, `1e300`: beyond `i64`) and any other kind of value is refused as before, with
//! the same message and pointer.

use mcp_typed::v2025_11_25::Task;
use mcp_typed::v2026_07_28::{
    ClientMessage, CompleteResultCompletion, CreateMessageRequestParams, ProgressToken, RequestId,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// The message `i64` itself refuses `text` with (what the members refused before).
fn i64_refusal(text: &str) -> String {
    serde_json::from_str::<i64>(text)
        .expect_err("i64 refuses it")
        .to_string()
}

/// `value` decoded as `T`: from text and from a `Value`, the same outcome.
fn decode<T: DeserializeOwned + PartialEq + std::fmt::Debug>(value: &Value) -> Result<T, String> {
    let from_text = serde_json::from_str::<T>(&value.to_string()).map_err(|e| e.to_string());
    let from_value = serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string());
    assert_eq!(
        from_text.is_ok(),
        from_value.is_ok(),
        "{value}: {from_text:?} / {from_value:?}"
    );
    if let (Ok(a), Ok(b)) = (&from_text, &from_value) {
        assert_eq!(a, b, "{value}");
    }
    from_text
}

#[test]
fn a_required_integer_takes_a_zero_fraction() {
    let params = |max_tokens: Value| json!({"messages": [], "maxTokens": max_tokens});
    for (written, read) in [
        (json!(100.0), 100),
        (json!(1e2), 100),
        (json!(-0.0), 0),
        (json!(7), 7),
    ] {
        let decoded: CreateMessageRequestParams =
            decode(&params(written.clone())).expect("decodes");
        assert_eq!(decoded.max_tokens, read, "{written}");
        // Written back as the integer.
        let encoded = serde_json::to_value(&decoded).expect("encodes");
        assert_eq!(encoded["maxTokens"], json!(read));
        assert!(encoded["maxTokens"].is_i64());
    }
}

#[test]
fn other_numbers_and_values_are_refused_as_before() {
    for written in [
        "1.5",
        "1e300",
        "-1e300",
        "9223372036854775808.0",
        "18446744073709551615",
        "\"7\"",
        "true",
        "null",
        "[]",
    ] {
        let text = format!(r#"{{"messages": [], "maxTokens": {written}}}"#);
        let error = serde_json::from_str::<CreateMessageRequestParams>(&text)
            .expect_err("refused")
            .to_string();
        let expected = i64_refusal(written);
        // serde_json appends the position: the message before it is `i64`'s own.
        let expected = expected.split(" at line").next().unwrap_or_default();
        assert!(
            error.starts_with(expected),
            "{written}: {error} (i64: {expected})"
        );
    }
    // The pointer of the member, in a message.
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"},"_meta":{"progressToken":1.5}}}"#;
    let error = text
        .parse::<ClientMessage>()
        .expect_err("1.5 is no progress token");
    assert_eq!(
        error.path(),
        Some("/params/_meta/progressToken"),
        "{}",
        error.message()
    );
    assert!(
        error.message().contains("floating point `1.5`"),
        "{}",
        error.message()
    );
}

#[test]
fn an_optional_and_a_nullable_integer_take_a_zero_fraction() {
    let completion: CompleteResultCompletion =
        decode(&json!({"values": [], "total": 3.0})).expect("decodes");
    assert_eq!(completion.total, Some(3));
    let refused = decode::<CompleteResultCompletion>(&json!({"values": [], "total": 3.5}));
    assert!(refused
        .expect_err("3.5")
        .contains("floating point `3.5`, expected i64"));

    let task = |ttl: Value| {
        json!({"taskId": "t", "status": "working", "createdAt": "2025-01-01T00:00:00Z",
               "lastUpdatedAt": "2025-01-01T00:00:00Z", "ttl": ttl})
    };
    assert_eq!(
        decode::<Task>(&task(json!(60000.0))).expect("decodes").ttl,
        Some(60000)
    );
    assert_eq!(
        decode::<Task>(&task(Value::Null)).expect("decodes").ttl,
        None
    );
    let refused = decode::<Task>(&task(json!(0.5))).expect_err("0.5");
    assert!(
        refused.contains("floating point `0.5`, expected i64"),
        "{refused}"
    );
    let refused = decode::<Task>(&task(json!("x"))).expect_err("a string");
    assert!(
        refused.contains("invalid type: string \"x\", expected i64"),
        "{refused}"
    );
}

#[test]
fn integer_union_members_take_a_zero_fraction() {
    assert_eq!(decode::<RequestId>(&json!(7.0)), Ok(RequestId::Integer(7)));
    assert_eq!(
        decode::<ProgressToken>(&json!(-2.0)),
        Ok(ProgressToken::Integer(-2))
    );
    assert_eq!(serde_json::to_string(&RequestId::Integer(7)).unwrap(), "7");
    for refused in [json!(7.5), json!(1e300)] {
        let error = decode::<RequestId>(&refused).expect_err("refused");
        assert!(
            error.starts_with(&format!(
                "invalid type: floating point `{refused}`, expected a value of RequestId"
            )),
            "{error}"
        );
    }
}

#[test]
fn messages_with_a_zero_fraction_decode_in_both_families() {
    use mcp_typed::v2025_11_25::borrowed::ClientMessageRef;
    use mcp_typed::v2025_11_25::{ClientMessage, ServerMessage};
    let text = r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"add","_meta":{"progressToken":2.0}}}"#;
    let owned: ClientMessage = text.parse().expect("decodes");
    let borrowed = ClientMessageRef::parse(text).expect("decodes");
    let encoded = serde_json::to_value(&owned).expect("encodes");
    assert_eq!(encoded["id"], json!(1));
    assert_eq!(encoded["params"]["_meta"]["progressToken"], json!(2));
    assert_eq!(serde_json::to_value(&borrowed).expect("encodes"), encoded);

    // An error code written with a zero fraction is that code (a constant too).
    let text = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601.0,"message":"no such method"}}"#;
    let owned: ServerMessage = text.parse().expect("decodes");
    let encoded = serde_json::to_value(&owned).expect("encodes");
    assert_eq!(encoded["error"]["code"], json!(-32601));

    // Refused for another reason, the request is answered with its id, as decoded.
    let text = r#"{"jsonrpc":"2.0","id":3.0,"method":"tools/call","params":{}}"#;
    let error = text.parse::<ClientMessage>().expect_err("no name");
    assert_eq!(error.id(), Some(&json!(3)), "{}", error.message());
    assert_eq!(error.path(), Some("/params"), "{}", error.message());
    let raw: mcp_typed::jsonrpc::RawMessage = serde_json::from_str(text).expect("a message");
    assert_eq!(serde_json::to_value(&raw).expect("encodes")["id"], json!(3));

    let text = r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#;
    let error = text.parse::<ClientMessage>().expect_err("1.5 is no id");
    assert_eq!(
        error.message(),
        "`id` must be a string or an integer, found 1.5"
    );
    assert!(ClientMessageRef::parse(text).is_err());
    assert!(serde_json::from_str::<mcp_typed::jsonrpc::RawMessage>(text).is_err());
}
