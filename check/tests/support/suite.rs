//! How the official conformance suite picks the definition of a revision's `schema.json` that
//! it validates a message with: a request or notification by its `method`, a result by the
//! method of the request it answers, an error response by its `code`. Read by the differential
//! test (through schema.rs) and by the clock benchmark's `jsonschema` baseline
//! (bench/src/bin/wire_check.rs, which includes this file by `#[path]`), so that both pick as
//! the suite does in one way.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The union definitions the suite does not pick by method (nor are they message types).
pub const UNIONS: [&str; 8] = [
    "ClientRequest",
    "ClientNotification",
    "ClientResult",
    "ClientMessage",
    "ServerRequest",
    "ServerNotification",
    "ServerResult",
    "ServerMessage",
];

/// The definitions the suite picks, by name.
pub struct Dispatch {
    /// method → the definition whose `properties.method.const` it is.
    pub methods: BTreeMap<String, String>,
    /// request method → its `XxxResult` definition (`XxxRequest`'s, when there is one).
    pub results: BTreeMap<String, String>,
    /// error code → the response definition whose `error` has it as a constant.
    pub errors: BTreeMap<i64, String>,
}

impl Dispatch {
    /// Reads a revision's definitions (its `$defs` or `definitions`).
    pub fn of(defs: &Map<String, Value>) -> Dispatch {
        let mut dispatch = Dispatch {
            methods: BTreeMap::new(),
            results: BTreeMap::new(),
            errors: BTreeMap::new(),
        };
        for (name, def) in defs.iter().filter(|(n, _)| !UNIONS.contains(&n.as_str())) {
            if let Some(method) = def["properties"]["method"]["const"].as_str() {
                dispatch.methods.insert(method.to_owned(), name.clone());
                let result = mcp_wire_check::extension::result_definition(name);
                if let Some(result) = result.filter(|result| defs.contains_key(result)) {
                    dispatch.results.insert(method.to_owned(), result);
                }
            }
            let alternatives = def["properties"]["error"]["allOf"].as_array();
            for alternative in alternatives.into_iter().flatten() {
                if let Some(code) = alternative["properties"]["code"]["const"].as_i64() {
                    dispatch.errors.insert(code, name.clone());
                }
            }
        }
        dispatch
    }
}
