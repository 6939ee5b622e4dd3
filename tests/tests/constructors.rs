//! Writing messages with the generated constructors: the newcomer's task (answer `tools/list`
//! with one tool `add` and `tools/call` with a text block), named union constructors, `From`
//! conversions into unions, call sets and envelopes, and values the spec fixes.

use mcp_typed::v2025_11_25 as v1;
use mcp_typed::RawObject;
use serde_json::json;

#[test]
fn the_newcomers_task_in_a_few_lines() -> Result<(), serde_json::Error> {
    use v1::{CallToolResult, ContentBlock, ListToolsResult, ServerMessage, Tool, ToolInputSchema};
    let integer = RawObject::from_serialize(&json!({ "type": "integer" }))?;
    let schema = ToolInputSchema::new()
        .with_properties([("a", integer.clone()), ("b", integer)])
        .with_required(["a", "b"]);
    let list = ServerMessage::response(1, ListToolsResult::new([Tool::new(schema, "add")]));
    let call = ServerMessage::response(2, CallToolResult::new([ContentBlock::text("4")]));

    assert_eq!(
        serde_json::to_value(&list)?,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{
            "name": "add",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
        }]}})
    );
    assert_eq!(
        serde_json::to_value(&call)?,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "4"}]}})
    );
    Ok(())
}
