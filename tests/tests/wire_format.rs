//! The generated types follow the wire format exactly: constants checked and written, unknown
//! members kept, empty objects kept, unions dispatched on their tag, defaults the spec implies.

use serde_json::{json, Value};

fn roundtrip<T: serde::Serialize + serde::de::DeserializeOwned>(value: Value) -> (T, Value) {
    let decoded: T = serde_json::from_value(value.clone()).expect("decodes");
    let encoded = serde_json::to_value(&decoded).expect("encodes");
    assert_eq!(encoded, value, "round trip is exact");
    // The borrowed-string path (from_str) must agree with the owned one (from_value).
    let again: T = serde_json::from_str(&value.to_string()).expect("decodes from text");
    assert_eq!(serde_json::to_value(&again).expect("encodes"), value);
    (decoded, encoded)
}

#[test]
fn request_unions_dispatch_on_method() {
    use mcp_typed::v2024_11_05::{ClientRequest, ServerRequest};
    // typify 0.8 routed this to PingRequest: the first variant that structurally matched.
    let (req, _) = roundtrip::<ClientRequest>(
        json!({"method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}}),
    );
    let ClientRequest::CallTool(call) = req else {
        panic!("tools/call must be CallTool, got {req:?}")
    };
    assert_eq!(call.name, "add");
    assert_eq!(
        call.arguments.as_ref().map(|a| a.as_str()),
        Some(r#"{"a":1}"#)
    );
    let (req, _) = roundtrip::<ClientRequest>(json!({"method": "ping"}));
    assert!(matches!(req, ClientRequest::Ping(_)));
    let (req, _) = roundtrip::<ServerRequest>(json!({"method": "roots/list"}));
    assert!(matches!(req, ServerRequest::ListRoots(_)));
}

#[test]
fn tag_after_other_members_still_dispatches() {
    use mcp_typed::v2024_11_05::ClientRequest;
    let (req, _) =
        roundtrip::<ClientRequest>(json!({"params": {"name": "add"}, "method": "tools/call"}));
    assert!(matches!(req, ClientRequest::CallTool(_)));
}

/// Members before a union's tag or deciding member, from input that lends no text (a `Value`, a
/// reader): the union decodes again from the object's text, to the same result as from text.
#[test]
fn members_before_the_tag_from_input_that_lends_no_text() {
    use mcp_typed::v2025_11_25::{ContentBlock, EmbeddedResourceResource};
    let block = json!({"annotations": {"priority": 0.5}, "text": "hi \"there\"", "type": "text", "_meta": {"k": [1]}});
    let (decoded, _) = roundtrip::<ContentBlock>(block.clone());
    let ContentBlock::TextContent(text) = &decoded else {
        panic!("a text block, got {decoded:?}")
    };
    assert_eq!(text.text, "hi \"there\"");
    let from_reader: ContentBlock =
        serde_json::from_reader(block.to_string().as_bytes()).expect("decodes from a reader");
    assert_eq!(from_reader, decoded);
    // A keyed union: `blob` decides, after `uri` and `mimeType`.
    let resource = json!({"uri": "file:///a", "mimeType": "image/png", "blob": "AAAA"});
    let (decoded, _) = roundtrip::<EmbeddedResourceResource>(resource);
    assert!(
        matches!(decoded, EmbeddedResourceResource::Blob(_)),
        "{decoded:?}"
    );
    // Errors name the member, as from text.
    let error = serde_json::from_value::<ContentBlock>(json!({"text": 5, "type": "text"}))
        .expect_err("text must be a string");
    assert!(
        error.to_string().starts_with("invalid type: integer `5`"),
        "{error}"
    );
}

#[test]
fn unknown_tag_and_missing_tag_are_errors() {
    use mcp_typed::v2024_11_05::ClientRequest;
    let err = serde_json::from_value::<ClientRequest>(json!({"method": "tools/explode"}))
        .expect_err("unknown method");
    assert!(
        err.to_string().contains("unknown method `tools/explode`"),
        "{err}"
    );
    let err =
        serde_json::from_value::<ClientRequest>(json!({"params": {}})).expect_err("no method");
    assert!(err.to_string().contains("missing field `method`"), "{err}");
}

#[test]
fn constants_are_checked_on_decode_and_written_on_encode() {
    use mcp_typed::v2026_07_28::{JsonRpcNotification, TextContent};
    let err =
        serde_json::from_value::<JsonRpcNotification>(json!({"jsonrpc": "1.0", "method": "x"}))
            .expect_err("bad jsonrpc");
    assert!(err.to_string().contains("expected \"2.0\""), "{err}");
    let err = serde_json::from_value::<JsonRpcNotification>(json!({"method": "x"}))
        .expect_err("missing jsonrpc");
    assert!(err.to_string().contains("missing field `jsonrpc`"), "{err}");
    let text = TextContent {
        text: "hi".into(),
        annotations: None,
        meta: None,
        extra: Default::default(),
    };
    assert_eq!(
        serde_json::to_value(&text).expect("encodes"),
        json!({"type": "text", "text": "hi"})
    );
    assert_eq!(TextContent::TYPE, "text");
    let err = serde_json::from_value::<TextContent>(json!({"type": "image", "text": "hi"}))
        .expect_err("wrong type");
    assert!(
        err.to_string()
            .contains("expected \"text\", found \"image\""),
        "{err}"
    );
}

#[test]
fn integer_constants_are_checked() {
    use mcp_typed::v2025_11_25::UrlElicitationRequiredError;
    let ok = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32042, "message": "needs URL", "data": {"elicitations": []}}});
    roundtrip::<UrlElicitationRequiredError>(ok);
    let wrong = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "x", "data": {"elicitations": []}}});
    let err = serde_json::from_value::<UrlElicitationRequiredError>(wrong).expect_err("wrong code");
    assert!(err.to_string().contains("expected -32042"), "{err}");
}

#[test]
fn unknown_members_and_meta_keys_survive() {
    use mcp_typed::v2026_07_28::CallToolResult;
    let value = json!({
        "resultType": "complete",
        "content": [{"type": "text", "text": "4", "x-vendor": {"deep": [1, 2]}}],
        "_meta": {"com.example/trace": "abc", "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}},
        "futureField": true
    });
    let (result, _) = roundtrip::<CallToolResult>(value);
    assert_eq!(result.extra.get("futureField"), Some(&json!(true)));
}

#[test]
fn empty_capability_objects_stay_empty_objects() {
    use mcp_typed::v2024_11_05::ServerCapabilities;
    // typify 0.8 dropped `"logging": {}`, which changes what the server declares.
    let (caps, _) = roundtrip::<ServerCapabilities>(
        json!({"logging": {}, "tools": {}, "experimental": {"x": {}}}),
    );
    assert!(caps
        .logging
        .as_ref()
        .is_some_and(|logging| logging.is_empty()));
    assert!(caps.tools.is_some());
}

#[test]
fn elicitation_without_mode_is_form_mode() {
    use mcp_typed::v2025_11_25::{ElicitRequestFormParamsMode, ElicitRequestParams};
    let form = json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}});
    let (params, _) = roundtrip::<ElicitRequestParams>(form);
    let ElicitRequestParams::Form(form) = params else {
        panic!("no mode means form mode")
    };
    assert_eq!(form.mode, None, "an absent mode stays absent on re-encode");
    let (params, _) = roundtrip::<ElicitRequestParams>(
        json!({"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}),
    );
    assert!(
        matches!(params, ElicitRequestParams::Form(f) if f.mode == Some(ElicitRequestFormParamsMode::Form))
    );
    let (params, _) = roundtrip::<ElicitRequestParams>(
        json!({"mode": "url", "message": "m", "url": "https://x.example", "elicitationId": "e1"}),
    );
    assert!(matches!(params, ElicitRequestParams::Url(_)));
    let err = serde_json::from_value::<ElicitRequestParams>(
        json!({"mode": "carrier-pigeon", "message": "m"}),
    )
    .expect_err("unknown mode");
    assert!(err.to_string().contains("unknown `mode`"), "{err}");
}

#[test]
fn structural_unions_pick_by_members() {
    use mcp_typed::v2025_11_25::EmbeddedResourceResource;
    let (r, _) = roundtrip::<EmbeddedResourceResource>(json!({"uri": "file:///a", "text": "x"}));
    assert!(matches!(r, EmbeddedResourceResource::Text(_)));
    let (r, _) = roundtrip::<EmbeddedResourceResource>(
        json!({"uri": "file:///a", "blob": "AAAA", "mimeType": "image/png"}),
    );
    assert!(matches!(r, EmbeddedResourceResource::Blob(_)));
    let err = serde_json::from_value::<EmbeddedResourceResource>(json!({"uri": "file:///a"}))
        .expect_err("neither");
    assert!(
        err.to_string()
            .contains("no variant of EmbeddedResourceResource matched"),
        "{err}"
    );
}

/// A form field's `type` narrows the structural match of `PrimitiveSchemaDefinition`: a value
/// one member allows streams into it, wherever `type` stands; a value several allow is matched
/// among them; others are refused by name.
#[test]
fn a_member_with_its_own_values_narrows_a_structural_union() {
    use mcp_typed::v2025_11_25::{NumberSchemaType, PrimitiveSchemaDefinition as Field};
    // Python writes members in name order: `type` last.
    let (field, _) = roundtrip::<Field>(json!({"minimum": 0, "title": "Age", "type": "integer"}));
    let Field::Number(number) = field else {
        panic!("{field:?}")
    };
    assert_eq!(number.r#type, NumberSchemaType::Integer);
    assert_eq!(number.minimum.map(|m| m.as_i64()), Some(Some(0)));
    let (field, _) = roundtrip::<Field>(json!({"type": "boolean", "default": true, "x-ui": 1}));
    assert!(matches!(&field, Field::Boolean(b) if b.default == Some(true) && b.extra.len() == 1));
    let (field, _) = roundtrip::<Field>(json!({"type": "string", "enum": ["a", "b"]}));
    assert!(
        matches!(field, Field::UntitledSingleSelectEnum(_)),
        "{field:?}"
    );
    let (field, _) = roundtrip::<Field>(json!({"title": "Name", "type": "string"}));
    assert!(matches!(field, Field::String(_)), "{field:?}");
    let (field, _) =
        roundtrip::<Field>(json!({"type": "array", "items": {"type": "string", "enum": ["a"]}}));
    assert!(
        matches!(field, Field::UntitledMultiSelectEnum(_)),
        "{field:?}"
    );
    // A reader lends no text: the members before `type` are read again from the object's text.
    let text = r#"{"title":"Age","description":"In years","type":"integer"}"#;
    let from_reader: Field = serde_json::from_reader(text.as_bytes()).expect("decodes");
    assert_eq!(from_reader, serde_json::from_str::<Field>(text).unwrap());
    assert!(matches!(from_reader, Field::Number(_)), "{from_reader:?}");

    let refused = |value: Value| {
        let from_value = serde_json::from_value::<Field>(value.clone()).expect_err("refused");
        let from_text = serde_json::from_str::<Field>(&value.to_string()).expect_err("refused");
        let bare = |e: serde_json::Error| {
            let text = e.to_string();
            text.split(" at line ")
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let (from_value, from_text) = (bare(from_value), bare(from_text));
        assert_eq!(
            from_value, from_text,
            "the same refusal from a value and from text"
        );
        from_text
    };
    // The one member that allows the value gives its own error.
    let error = refused(json!({"type": "number", "minimum": "zero"}));
    assert!(error.contains("invalid type: string \"zero\""), "{error}");
    let error = refused(json!({"type": "date"}));
    assert!(
        error.contains(r#"unknown `type` "date", expected one of "array", "boolean", "integer", "number", "string""#),
        "{error}"
    );
    // No `type`, or not a string: the structural match over every member, as before.
    let error = refused(json!({"title": "x"}));
    assert!(
        error.contains("no variant of PrimitiveSchemaDefinition matched"),
        "{error}"
    );
    let error = refused(json!({"type": 5}));
    assert!(
        error.contains("no variant of PrimitiveSchemaDefinition matched"),
        "{error}"
    );
    // `type` twice is refused however the match goes.
    for twice in [
        r#"{"type":"boolean","type":"boolean"}"#,
        r#"{"type":"string","title":"t","type":"string"}"#,
    ] {
        let error = serde_json::from_str::<Field>(twice).expect_err("duplicate");
        assert!(error.to_string().contains("duplicate"), "{error}");
    }
}

#[test]
fn primitive_unions_dispatch_on_the_json_kind() {
    use mcp_typed::v2025_11_25::RequestId;
    assert_eq!(
        roundtrip::<RequestId>(json!("abc")).0,
        RequestId::String("abc".into())
    );
    assert_eq!(roundtrip::<RequestId>(json!(7)).0, RequestId::Integer(7));
    let err = serde_json::from_value::<RequestId>(json!(1.5)).expect_err("fractional id");
    assert!(err.to_string().contains("RequestId"), "{err}");
    assert!(serde_json::from_value::<RequestId>(Value::Null).is_err());
}

#[test]
fn json_rpc_batches_decode_in_2025_03_26() {
    use mcp_typed::v2025_03_26::JsonRpcMessage;
    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    assert!(
        matches!(roundtrip::<JsonRpcMessage>(batch).0, JsonRpcMessage::BatchRequest(b) if b.len() == 2)
    );
    let responses = json!([{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}}]);
    assert!(
        matches!(roundtrip::<JsonRpcMessage>(responses).0, JsonRpcMessage::BatchResponse(b) if b.len() == 2)
    );
    let single = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert!(matches!(
        roundtrip::<JsonRpcMessage>(single).0,
        JsonRpcMessage::Request(_)
    ));
}

#[test]
fn required_nullable_members_keep_null() {
    use mcp_typed::v2025_11_25::Task;
    let task = json!({"taskId": "t1", "status": "working", "createdAt": "2025-01-01T00:00:00Z", "lastUpdatedAt": "2025-01-01T00:00:00Z", "ttl": null});
    let (task, _) = roundtrip::<Task>(task);
    assert_eq!(task.ttl, None);
    let missing = json!({"taskId": "t1", "status": "working", "createdAt": "2025-01-01T00:00:00Z", "lastUpdatedAt": "2025-01-01T00:00:00Z"});
    let err = serde_json::from_value::<Task>(missing).expect_err("ttl is required, even if null");
    assert!(err.to_string().contains("missing field `ttl`"), "{err}");
}

#[test]
fn numbers_keep_their_representation() {
    use mcp_typed::v2026_07_28::ProgressNotificationParams;
    let (p, _) = roundtrip::<ProgressNotificationParams>(
        json!({"progressToken": 1, "progress": 50, "total": 100.5}),
    );
    assert_eq!(p.progress.as_f64(), Some(50.0));
    assert!(p.progress.is_i64());
}

#[test]
fn string_enums_refuse_unknown_values() {
    use mcp_typed::v2026_07_28::LoggingLevel;
    assert_eq!(
        roundtrip::<LoggingLevel>(json!("warning")).0,
        LoggingLevel::Warning
    );
    assert_eq!(LoggingLevel::Warning.as_str(), "warning");
    assert_eq!(LoggingLevel::ALL.len(), 8);
    let err = serde_json::from_value::<LoggingLevel>(json!("loud")).expect_err("not a level");
    assert!(err.to_string().contains("unknown variant `loud`"), "{err}");
}

#[test]
fn duplicate_members_are_refused() {
    use mcp_typed::v2026_07_28::TextContent;
    let err = serde_json::from_str::<TextContent>(r#"{"type":"text","text":"a","text":"b"}"#)
        .expect_err("duplicate");
    assert!(err.to_string().contains("duplicate field `text`"), "{err}");
}

#[test]
fn extra_members_that_shadow_declared_ones_are_refused_on_encode() {
    use mcp_typed::v2026_07_28::TextContent;
    let mut text = TextContent {
        text: "a".into(),
        annotations: None,
        meta: None,
        extra: Default::default(),
    };
    text.extra.insert("text".into(), json!("b"));
    let err = serde_json::to_value(&text).expect_err("collision");
    assert!(err.to_string().contains("collides"), "{err}");
}

/// A free-form object (`RawObject`) also decodes through serde's buffering, as a user's
/// `#[serde(flatten)]` or untagged wrapper around a generated type does, and from other
/// deserializers than serde_json's text (a `Value`).
#[test]
fn free_form_objects_decode_through_serde_buffering() {
    use mcp_typed::v2025_11_25::CallToolRequestParams;
    #[derive(serde::Deserialize)]
    struct Envelope {
        id: u32,
        #[serde(flatten)]
        params: CallToolRequestParams,
    }
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Either {
        Call(CallToolRequestParams),
    }
    let text = r#"{"id":7,"name":"add","arguments":{"b":2,"a":1.0e2}}"#;
    let envelope: Envelope = serde_json::from_str(text).expect("flatten");
    assert_eq!(envelope.id, 7);
    let arguments = envelope.params.arguments.expect("arguments");
    // Buffered by serde as a map: the members survive, as a `Value` writes them.
    assert_eq!(
        arguments.to_map().expect("map"),
        json!({"a": 100.0, "b": 2})
            .as_object()
            .cloned()
            .expect("object")
    );
    let Either::Call(call) =
        serde_json::from_str(r#"{"name":"add","arguments":{"a":1}}"#).expect("untagged");
    assert_eq!(call.arguments.expect("arguments").as_str(), r#"{"a":1}"#);
    // Straight from text, the object's spelling is kept both ways (the struct writes its
    // members in its own order).
    let direct: CallToolRequestParams =
        serde_json::from_str(r#"{"name":"add","arguments":{"b":2,"a":1.0e2}}"#).expect("text");
    assert_eq!(
        serde_json::to_string(&direct).expect("encodes"),
        r#"{"arguments":{"b":2,"a":1.0e2},"name":"add"}"#
    );
    // A non-object is refused wherever it comes from.
    let error =
        serde_json::from_value::<CallToolRequestParams>(json!({"name": "add", "arguments": [1]}))
            .expect_err("an array is not an object");
    assert!(
        error.to_string().contains("expected a JSON object"),
        "{error}"
    );
}
