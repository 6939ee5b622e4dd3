//! Sealed `requestState` through rmcp, over HTTP: `everything-server` (rmcp's Streamable HTTP
//! server and `mcp_typed_rmcp::Eras`) refuses a tampered, foreign-principal or replayed state
//! with -32602 and starts an expired one over, refuses an answer that breaks the form naming its
//! pointer, never sends a request kind the client did not declare, and serves a retry begun on
//! another instance holding the same key. Raw 2026-07-28 requests, as a client would send them.

use serde_json::{json, Value};

mod support;
use support::EverythingServer;

const KEY: &str = "4242424242424242424242424242424242424242424242424242424242424242";

/// An everything-server (`support::EverythingServer`), sent raw 2026-07-28 requests.
struct Server(EverythingServer);

impl Server {
    fn start(env: &[(&str, &str)]) -> Self {
        Self(EverythingServer::start(env))
    }

    /// Sends one 2026-07-28 request (`_meta` declaring `capabilities`) and returns its
    /// JSON-RPC response.
    fn call(
        &self,
        id: u64,
        method: &str,
        mut params: Value,
        capabilities: Value,
        token: Option<&str>,
    ) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "sealed-state-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut request = agent
            .post(&self.0.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            // The standard headers of 2026-07-28 (SEP-2243), which rmcp checks.
            .header("Mcp-Method", method);
        if let Some(name) = params["name"].as_str() {
            request = request.header("Mcp-Name", name);
        }
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let mut response = request.send(&body.to_string()).expect("a response");
        let text = response.body_mut().read_to_string().expect("a body");
        response_of(&text, id)
    }
}

/// The JSON-RPC response with `id` in a JSON body or in the `data:` of a server-sent event.
fn response_of(text: &str, id: u64) -> Value {
    let candidates = std::iter::once(text.trim()).chain(
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim),
    );
    candidates
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .find(|message| message["id"] == id)
        .unwrap_or_else(|| panic!("no response {id} in {text}"))
}

fn all() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {}})
}

fn tool(name: &str) -> Value {
    json!({"name": name, "arguments": {}})
}

fn retry(name: &str, state: &Value, answers: Value) -> Value {
    json!({"name": name, "arguments": {}, "inputResponses": answers, "requestState": state})
}

fn alice() -> Value {
    json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}})
}

const ASKS_NAME: &str = "test_input_required_result_elicitation";

#[test]
fn refused_states_answers_and_capabilities_over_http() {
    let a = Server::start(&[("MRTR_STATE_KEY", KEY), ("MRTR_SINGLE_USE", "1")]);
    let first = a.call(1, "tools/call", tool(ASKS_NAME), all(), Some("alice"));
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].clone();
    assert!(state.is_string(), "{first}");

    // Tampered: one character changed.
    let mut tampered = state.as_str().unwrap().to_owned();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    let refused = a.call(
        2,
        "tools/call",
        retry(ASKS_NAME, &json!(tampered), alice()),
        all(),
        Some("alice"),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["message"], "invalid requestState");

    // Another principal presenting alice's state.
    let foreign = a.call(
        3,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        Some("mallory"),
    );
    assert_eq!(foreign["error"]["code"], -32602, "{foreign}");

    // The refusals changed nothing: the state still completes, once.
    let done = a.call(
        4,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        Some("alice"),
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Alice!",
        "{done}"
    );
    let replayed = a.call(
        5,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        Some("alice"),
    );
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");

    // An answer that breaks the form: refused naming its pointer. (With a replay store the
    // state is spent by the retry that presents it, whatever its answers: at most one run.)
    let second = a.call(6, "tools/call", tool(ASKS_NAME), all(), Some("alice"));
    let state = second["result"]["requestState"].clone();
    let wrong = json!({"user_name": {"action": "accept", "content": {"name": 7}}});
    let invalid = a.call(
        7,
        "tools/call",
        retry(ASKS_NAME, &state, wrong),
        all(),
        Some("alice"),
    );
    assert_eq!(invalid["error"]["code"], -32602, "{invalid}");
    assert!(
        invalid
            .to_string()
            .contains("/inputResponses/user_name/content/name"),
        "{invalid}"
    );

    // Sampling not declared: never asked for, the call refused with -32021.
    let undeclared = a.call(
        7,
        "tools/call",
        tool("test_missing_capability"),
        json!({}),
        None,
    );
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
    assert_eq!(
        undeclared["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    // Elicitation not declared: the tool does without, and asks only for a sample.
    let partial = a.call(
        9,
        "tools/call",
        tool("test_input_required_result_capabilities"),
        json!({"sampling": {}}),
        None,
    );
    let methods: Vec<&Value> = partial["result"]["inputRequests"]
        .as_object()
        .expect("input requests")
        .values()
        .map(|request| &request["method"])
        .collect();
    assert_eq!(methods, [&json!("sampling/createMessage")], "{partial}");
}

#[test]
fn an_expired_state_starts_over_and_any_instance_with_the_key_serves_a_retry() {
    let a = Server::start(&[("MRTR_STATE_KEY", KEY), ("MRTR_STATE_TTL_SECS", "1")]);
    let b = Server::start(&[("MRTR_STATE_KEY", KEY)]);
    // Begun on one instance, finished on the other.
    let first = a.call(1, "tools/call", tool(ASKS_NAME), all(), None);
    let state = first["result"]["requestState"].clone();
    let done = b.call(
        2,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        None,
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Alice!",
        "{done}"
    );
    // Past its TTL the state is not an error: the question is asked again, with a new state.
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let again = a.call(
        3,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        None,
    );
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_ne!(again["result"]["requestState"], state);
    // An instance with another key refuses it.
    let other = Server::start(&[("MRTR_STATE_KEY", &"17".repeat(32))]);
    let refused = other.call(
        4,
        "tools/call",
        retry(ASKS_NAME, &state, alice()),
        all(),
        None,
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}
