//! The golden files of the generator (`codegen/tests/golden/<case>/expected.rs`, checked against
//! the generator by `codegen/tests/golden.rs`) compile against `mcp-typed`, and decode and
//! re-encode values as their schemas say: each case's union dispatches to the member the value
//! belongs to, and the value comes back unchanged.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

// Each golden case is a module of its expected file, as generated (`Config::module_doc` off: no
// inner attributes or docs, so the files could be `include!`d as well). Their items are public
// but mostly unused here. Were a case to need the allowance a module file carries
// (`clippy::large_enum_variant`), it would go beside `dead_code`. `rustfmt::skip`: `cargo fmt`
// would otherwise reformat the expected files, which must stay the generator's text byte for
// byte (as `generated/src/lib.rs` keeps `src/gen/`).
#[path = "../../codegen/tests/golden/borrowed_messages/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod borrowed_messages;
#[path = "../../codegen/tests/golden/extension_messages/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod extension_messages;
#[path = "../../codegen/tests/golden/keyed_union/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod keyed_union;
#[path = "../../codegen/tests/golden/nullable/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod nullable;
#[path = "../../codegen/tests/golden/result_type_union/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod result_type_union;
#[path = "../../codegen/tests/golden/scalar_union/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod scalar_union;
#[path = "../../codegen/tests/golden/string_enum/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod string_enum;
#[path = "../../codegen/tests/golden/struct_consts/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod struct_consts;
#[path = "../../codegen/tests/golden/structural_union/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod structural_union;
#[path = "../../codegen/tests/golden/tagged_union/expected.rs"]
#[allow(dead_code)]
#[rustfmt::skip]
mod tagged_union;

/// Decodes `json` (from its text) as `T` and encodes it again: the same JSON value.
fn round_trip<T: Serialize + DeserializeOwned>(json: Value) -> T {
    let text = json.to_string();
    let decoded: T = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} refused {text}: {e}", std::any::type_name::<T>()));
    let encoded = serde_json::to_value(&decoded).expect("encodes");
    assert_eq!(encoded, json, "{} round trip", std::any::type_name::<T>());
    decoded
}

/// `json` is refused as `T`, with an error that mentions `reason`.
fn refused<T: DeserializeOwned + std::fmt::Debug>(json: Value, reason: &str) {
    let text = json.to_string();
    match serde_json::from_str::<T>(&text) {
        Ok(value) => panic!("{text} decoded as {value:?}"),
        Err(e) => assert!(e.to_string().contains(reason), "{text}: {e}"),
    }
}

#[test]
fn structs_check_and_write_their_constants() {
    use struct_consts::{Labels, Point, TextBlock, TextBlockEncoding};
    let block: TextBlock = round_trip(json!({
        "type": "text", "version": 2, "final": true, "text": "hi",
        "encoding": "utf-8", "x-vendor": [1]
    }));
    assert_eq!(block.text, "hi");
    assert_eq!(block.encoding, Some(TextBlockEncoding::Utf8));
    assert_eq!(block.extra["x-vendor"], json!([1]));
    refused::<TextBlock>(
        json!({"type": "image", "version": 2, "final": true, "text": ""}),
        "text",
    );
    refused::<TextBlock>(
        json!({"type": "text", "final": true, "text": ""}),
        "version",
    );
    let point: Point = round_trip(json!({"x": 1, "y": -2, "weight": 0.5}));
    assert_eq!((point.x, point.y), (1, -2));
    refused::<Point>(json!({"x": 1, "y": 2, "z": 3}), "z");
    let labels: Labels = round_trip(json!({
        "title": "t", "size": {"width": 3, "height": 4}, "origin": {"x": 0, "y": 0}, "color": "red"
    }));
    assert_eq!(labels.extra["color"], "red");
    refused::<Labels>(json!({"title": "t", "color": 1}), "string");
}

#[test]
fn string_enums_keep_their_wire_values() {
    use string_enum::{Dimension, LoggingLevel, Message, Role};
    let message: Message = round_trip(json!({"role": "assistant", "level": "critical-error"}));
    assert_eq!(message.role, Role::Assistant);
    assert_eq!(LoggingLevel::CriticalError.as_str(), "critical-error");
    assert_eq!(Dimension::ALL.len(), 3);
    refused::<Message>(json!({"role": "system"}), "system");
}

#[test]
fn a_tagged_union_dispatches_on_its_tag() {
    use tagged_union::{ContentBlock, Shape};
    let text = round_trip(json!({"type": "text", "text": "hi"}));
    assert!(matches!(text, ContentBlock::TextContent(t) if t.text == "hi"));
    let image = round_trip(json!({"mimeType": "image/png", "data": "AA==", "type": "image"}));
    assert!(matches!(image, ContentBlock::ImageContent(_)));
    // Without its (optional) tag, an object is a link.
    let link = round_trip(json!({"uri": "file:///a"}));
    assert!(matches!(link, ContentBlock::ResourceLink(l) if l.r#type.is_none()));
    refused::<ContentBlock>(json!({"type": "video"}), "video");
    let square = round_trip(json!({"kind": "square", "side": 2}));
    assert!(matches!(square, Shape::Variant1(_)));
}

#[test]
fn a_keyed_union_is_decided_by_a_member_only_one_member_declares() {
    use keyed_union::ServerResult;
    let tools = round_trip(json!({"_meta": {}, "tools": [{"name": "a"}]}));
    assert!(matches!(tools, ServerResult::ListTools(r) if r.tools[0].name == "a"));
    let prompts = round_trip(json!({"nextCursor": "c", "prompts": []}));
    assert!(matches!(prompts, ServerResult::ListPrompts(_)));
    let empty = round_trip(json!({"_meta": {"k": 1}}));
    assert!(matches!(empty, ServerResult::Empty(_)));
}

#[test]
fn structural_unions_match_by_shape_and_partition() {
    use structural_union::{FormField, Reference};
    assert!(matches!(
        round_trip(json!({"uri": "file:///a"})),
        Reference::Uri(_)
    ));
    assert!(matches!(
        round_trip(json!({"name": "a"})),
        Reference::Name(_)
    ));
    assert!(matches!(
        round_trip(json!({"type": "integer", "maximum": 3})),
        FormField::Number(_)
    ));
    assert!(matches!(
        round_trip(json!({"type": "string", "enum": ["a", "b"]})),
        FormField::Choice(_)
    ));
    assert!(matches!(
        round_trip(json!({"type": "string", "maxLength": 3})),
        FormField::Text(_)
    ));
    refused::<FormField>(json!({"type": "boolean"}), "boolean");
}

#[test]
fn scalar_unions_dispatch_on_the_kind_of_value() {
    use scalar_union::{ProgressOrPercent, RequestId, Setting, Stop};
    assert_eq!(round_trip::<RequestId>(json!(7)), RequestId::Integer(7));
    assert_eq!(
        round_trip::<RequestId>(json!("a")),
        RequestId::String("a".into())
    );
    assert!(matches!(
        round_trip(json!(5)),
        ProgressOrPercent::Integer(5)
    ));
    assert!(matches!(
        round_trip(json!(0.5)),
        ProgressOrPercent::Number(_)
    ));
    assert!(matches!(
        round_trip(json!({"done": 1})),
        ProgressOrPercent::Progress(_)
    ));
    assert!(matches!(round_trip(json!(["a"])), Stop::Array(_)));
    assert!(matches!(round_trip(json!(true)), Setting::Boolean(true)));
    assert!(matches!(
        round_trip(json!(null)),
        Setting::Value(Value::Null)
    ));
    refused::<RequestId>(json!(1.5), "RequestId");
    // An integer written with a zero fraction is that integer (JSON Schema's `integer`).
    let decoded: RequestId = serde_json::from_str("7.0").expect("7.0 is an integer");
    assert_eq!(decoded, RequestId::Integer(7));
}

#[test]
fn result_type_decides_between_a_result_and_input_required() {
    use result_type_union::borrowed::CallToolResultResponseResultRef;
    use result_type_union::CallToolResultResponseResult as Result;
    // "input_required" is the InputRequiredResult, whatever other members it has.
    assert!(matches!(
        round_trip(json!({"content": ["x"], "resultType": "input_required"})),
        Result::InputRequired(_)
    ));
    // Any other value, or none, is the method's result, which keeps the value.
    for value in ["complete", "other"] {
        let Result::CallTool(call) = round_trip(json!({"resultType": value, "content": []})) else {
            panic!("{value}")
        };
        assert_eq!(call.result_type, value);
    }
    let absent: Result = serde_json::from_value(json!({"content": []})).expect("decodes");
    assert!(matches!(absent, Result::CallTool(call) if call.result_type == "complete"));
    // A broken one is refused by the method's result, not taken as input_required.
    refused::<Result>(
        json!({"resultType": "complete", "content": 5}),
        "invalid type: integer `5`",
    );
    refused::<Result>(
        json!({"resultType": "x", "requestState": "s"}),
        "missing field `content`",
    );
    // The borrowed family decides alike.
    let text = r#"{"requestState":"s","resultType":"input_required"}"#;
    let borrowed: CallToolResultResponseResultRef = serde_json::from_str(text).expect("decodes");
    assert!(matches!(
        borrowed,
        CallToolResultResponseResultRef::InputRequired(_)
    ));
    let text = r#"{"requestState":"s","resultType":"complete","content":[]}"#;
    let borrowed: CallToolResultResponseResultRef = serde_json::from_str(text).expect("decodes");
    assert!(matches!(
        borrowed,
        CallToolResultResponseResultRef::CallTool(_)
    ));
}

#[test]
fn nullable_members_keep_null_apart_from_absent() {
    use nullable::{Page, PageScore};
    let page: Page = round_trip(json!({"title": null, "count": 3, "next": null, "score": "high"}));
    assert_eq!(page.title, None);
    assert_eq!(page.count, Some(3));
    assert_eq!(page.next, Some(None));
    assert_eq!(page.owner, None);
    assert_eq!(page.score, Some(Some(PageScore::String("high".into()))));
    let page: Page = round_trip(json!({"title": "t", "count": null, "owner": {"id": "o"}}));
    assert_eq!(page.owner.flatten().map(|o| o.id), Some("o".to_owned()));
    // Nullable, yet required.
    refused::<Page>(json!({"title": null}), "count");
}

#[test]
fn extension_messages_dispatch_on_method() {
    use extension_messages::{
        ImageResult, RenderRequest, SnapshotRequest, UiNotification, UiRequest,
    };
    use mcp_typed::jsonrpc::Request;
    let render = round_trip(json!({"method": "ui/render", "params": {"html": "<p/>"}}));
    assert!(matches!(render, UiRequest::Render(p) if p.html == "<p/>"));
    let snapshot = round_trip(json!({"method": "ui/snapshot"}));
    assert!(matches!(snapshot, UiRequest::Snapshot(None)));
    let resized = round_trip(json!({"method": "notifications/ui/resized"}));
    assert!(matches!(resized, UiNotification::Resized));
    refused::<UiRequest>(json!({"method": "ui/orphan"}), "ui/orphan");
    assert_eq!(<RenderRequest as Request>::METHOD, "ui/render");
    let _: fn(<SnapshotRequest as Request>::Result) -> ImageResult = |r| r;
}

#[test]
fn the_message_layer_and_its_borrowed_family() {
    use borrowed_messages::borrowed::ClientMessageRef;
    use borrowed_messages::{ClientMessage, ClientRequest, RequestId, ServerMessage, ServerResult};
    use mcp_typed::borrowed::IntoOwned;
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/echo","params":{"text":"hi"}}"#;
    let owned: ClientMessage = text.parse().expect("a client request");
    let ClientMessage::Request { id, request } = &owned;
    assert_eq!(*id, RequestId::from(1));
    assert!(matches!(request, ClientRequest::Echo(p) if p.text == "hi"));
    assert_eq!(
        serde_json::to_value(&owned).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    let borrowed = ClientMessageRef::parse(text).expect("borrowed");
    assert_eq!(borrowed.into_owned(), owned);
    let response: ServerMessage =
        round_trip(json!({"jsonrpc": "2.0", "id": "a", "result": {"echoed": "hi"}}));
    assert!(matches!(
        response,
        ServerMessage::Response {
            result: ServerResult::Echo(_),
            ..
        }
    ));
    let empty: ServerMessage = round_trip(json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    assert!(matches!(
        empty,
        ServerMessage::Response {
            result: ServerResult::Empty(_),
            ..
        }
    ));
    assert_eq!(
        borrowed_messages::error_codes::METHOD_NOT_FOUND_ERROR,
        -32601
    );
}
