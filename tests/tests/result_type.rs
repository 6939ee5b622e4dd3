//! A 2026-07-28 method's result (`tools/call`, `prompts/get`, `resources/read`) is
//! `anyOf[InputRequiredResult, <method's result>]`, both with a plain string `resultType`; the
//! spec makes `resultType` the discriminator ("allows the client to determine how to parse the
//! result object"): "input_required" is the `InputRequiredResult`, any other value, or none
//! (read as "complete"), the method's own result, which then says what is wrong with it. The
//! conformance suite's wire validation decides the same way. Both families, from text and from
//! a `Value` (the owned types' fallback), and the encoding unchanged.

use mcp_typed::jsonrpc::decode_result;
use mcp_typed::v2026_07_28::borrowed::CallToolResultResponseResultRef;
use mcp_typed::v2026_07_28::{
    CallToolResultResponseResult as ToolResult, GetPromptResultResponseResult,
    ReadResourceResultResponseResult,
};
use serde_json::{json, Value};

/// `result` decoded as a `tools/call` result: owned from text, owned from a `Value` and
/// borrowed from text agree (the same member, or refusals alike); the owned value, or the
/// error's pointer and message.
fn tool_result(result: &Value) -> Result<ToolResult, (String, String)> {
    let text = result.to_string();
    let owned = decode_result::<ToolResult>(&text).map_err(|e| {
        (
            e.path().unwrap_or_default().to_owned(),
            e.message().to_owned(),
        )
    });
    let from_value = serde_json::from_value::<ToolResult>(result.clone());
    let borrowed = serde_json::from_str::<CallToolResultResponseResultRef>(&text);
    match (&owned, &from_value, &borrowed) {
        (Ok(owned), Ok(from_value), Ok(borrowed)) => {
            assert_eq!(owned, from_value, "from a Value: {text}");
            assert_eq!(
                &mcp_typed::borrowed::IntoOwned::into_owned(borrowed.clone()),
                owned,
                "borrowed: {text}"
            );
            // Encoding is untouched: what was decoded is written back.
            let mut expected = result.clone();
            if expected.get("resultType").is_none() {
                expected["resultType"] = json!("complete");
            }
            assert_eq!(serde_json::to_value(owned).expect("encodes"), expected);
            assert_eq!(serde_json::to_value(borrowed).expect("encodes"), expected);
        }
        (Err(_), Err(_), Err(_)) => {}
        _ => panic!("disagree on {text}: {owned:?} / {from_value:?} / {borrowed:?}"),
    }
    owned
}

fn text_content() -> Value {
    json!([{"type": "text", "text": "4"}])
}

#[test]
fn complete_is_the_method_result() {
    let result = json!({"resultType": "complete", "content": text_content()});
    let Ok(ToolResult::CallTool(call)) = tool_result(&result) else {
        panic!("not a CallToolResult")
    };
    assert_eq!(call.result_type, "complete");
    // Wherever `resultType` is: first, last, between.
    for result in [
        json!({"content": text_content(), "resultType": "complete"}),
        json!({"isError": false, "resultType": "complete", "content": text_content()}),
    ] {
        assert!(
            matches!(tool_result(&result), Ok(ToolResult::CallTool(_))),
            "{result}"
        );
    }
}

#[test]
fn input_required_is_the_input_required_result() {
    let requests = json!({"roots": {"method": "roots/list"}});
    for result in [
        json!({"resultType": "input_required", "inputRequests": requests}),
        json!({"inputRequests": requests, "resultType": "input_required"}),
        json!({"requestState": "s", "resultType": "input_required"}),
        // Members of the method's result do not make it one: the value decides.
        json!({"content": text_content(), "resultType": "input_required", "requestState": "s"}),
    ] {
        let Ok(ToolResult::InputRequired(input)) = tool_result(&result) else {
            panic!("not an InputRequiredResult: {result}")
        };
        assert_eq!(input.result_type, "input_required");
    }
}

#[test]
fn a_broken_method_result_says_what_is_wrong_with_it() {
    let (path, message) = tool_result(&json!({"resultType": "complete", "content": 5}))
        .expect_err("content is no array");
    assert_eq!(path, "/result/content", "{message}");
    assert!(message.contains("invalid type: integer `5`"), "{message}");
    assert!(!message.contains("no variant"), "{message}");
    // A missing member of the method's result, though an InputRequiredResult's members are
    // there: `resultType` says which it is.
    let (path, message) =
        tool_result(&json!({"resultType": "complete", "requestState": "s"})).expect_err("content");
    assert!(
        message.contains("missing field `content`"),
        "{path}: {message}"
    );
    // A `resultType` that is no string is the method result's to refuse.
    let (path, message) = tool_result(&json!({"resultType": 5, "content": []})).expect_err("5");
    assert_eq!(path, "/result/resultType", "{message}");
    assert!(message.contains("expected a string"), "{message}");
}

#[test]
fn without_result_type_it_is_complete() {
    let Ok(ToolResult::CallTool(call)) = tool_result(&json!({"content": text_content()})) else {
        panic!("not a CallToolResult")
    };
    assert_eq!(call.result_type, "complete");
    // Even with only the members of an InputRequiredResult: a result of an earlier revision
    // is final, and this one lacks its `content`.
    let refused = tool_result(&json!({"requestState": "s"})).expect_err("no content");
    assert!(refused.1.contains("missing field `content`"), "{refused:?}");
}

#[test]
fn another_value_is_the_method_result() {
    let Ok(ToolResult::CallTool(call)) =
        tool_result(&json!({"resultType": "other", "content": []}))
    else {
        panic!("not a CallToolResult")
    };
    assert_eq!(call.result_type, "other");
}

#[test]
fn prompts_get_and_resources_read_decide_alike() {
    let messages = json!([{"role": "user", "content": {"type": "text", "text": "hi"}}]);
    let prompt = json!({"resultType": "complete", "messages": messages});
    assert!(matches!(
        decode_result::<GetPromptResultResponseResult>(&prompt.to_string()),
        Ok(GetPromptResultResponseResult::GetPrompt(_))
    ));
    let error = decode_result::<GetPromptResultResponseResult>(
        &json!({"resultType": "complete", "messages": 5}).to_string(),
    )
    .expect_err("messages is no array");
    assert_eq!(
        error.path(),
        Some("/result/messages"),
        "{}",
        error.message()
    );
    let asks = json!({"resultType": "input_required", "requestState": "s"}).to_string();
    assert!(matches!(
        decode_result::<GetPromptResultResponseResult>(&asks),
        Ok(GetPromptResultResponseResult::InputRequired(_))
    ));
    assert!(matches!(
        decode_result::<ReadResourceResultResponseResult>(&asks),
        Ok(ReadResourceResultResponseResult::InputRequired(_))
    ));
    let error = decode_result::<ReadResourceResultResponseResult>(
        &json!({"resultType": "complete", "contents": [{"uri": 5}]}).to_string(),
    )
    .expect_err("uri is no string");
    assert_eq!(
        error.path(),
        Some("/result/contents/0"),
        "{}",
        error.message()
    );
}
