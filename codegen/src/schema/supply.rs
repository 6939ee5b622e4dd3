//! Before loading: what the message layer needs by name and a producer left unnamed.

use serde_json::{json, Value};

/// The definitions whose presence makes a schema a protocol's (the message layer is built from
/// them, `ir::passes::messages`).
const DIRECTION_UNIONS: [&str; 2] = ["ClientRequest", "ServerNotification"];

/// Adds the JSON-RPC id type, `RequestId`, to a schema that has the direction unions but does
/// not name it: a producer may write a type alias inline where it is used (pydantic's
/// `TypeAdapter` export of the Python SDK's unions writes each `id` as `anyOf` string or
/// integer), while the message layer's envelopes name it. The definition is the official
/// schemas' own: JSON-RPC 2.0 allows a string or a number, MCP a string or an integer.
pub fn supply_request_id(root: &mut Value) {
    let Some(root) = root.as_object_mut() else {
        return;
    };
    for defs_key in ["$defs", "definitions"] {
        let Some(Value::Object(defs)) = root.get_mut(defs_key) else {
            continue;
        };
        if DIRECTION_UNIONS.iter().all(|name| defs.contains_key(*name))
            && !defs.contains_key("RequestId")
        {
            defs.insert(
                "RequestId".to_owned(),
                json!({
                    "description": "A uniquely identifying ID for a request in JSON-RPC (the \
                                    schema writes it inline; the generator names it, as the \
                                    official schemas do).",
                    "type": ["string", "integer"],
                }),
            );
        }
    }
}
