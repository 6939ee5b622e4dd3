//! Sealed `requestState` through rmcp, over HTTP: `everything-server` (rmcp's Streamable HTTP
//! server and `mcp_typed_rmcp::Eras`) refuses a tampered, foreign-principal or replayed state
//! with -32602 and starts an expired one over, refuses an answer that breaks the form naming its
//! pointer, never sends a request kind the client did not declare, and serves a retry begun on
//! another instance holding the same key. Single use holds on one instance by default and across
//! instances sharing a Redis (`--replay-store redis://…`, on a `redis-server` the test installs
//! and starts), and one principal at its quota does not lock out another. Raw 2026-07-28
//! requests, as a client would send them.

use std::net::IpAddr;

use mcp_typed_tests::installed::RedisServer;
use serde_json::{json, Value};

mod support;
use support::EverythingServer;

const KEY: &str = "4242424242424242424242424242424242424242424242424242424242424242";

/// An everything-server (`support::EverythingServer`), sent raw 2026-07-28 requests.
struct Server(EverythingServer);

/// The bearer tokens the servers of these tests take as principals
/// (`EVERYTHING_SERVER_TOKENS`); any other bearer string is an anonymous caller's.
const TOKENS: &str = "alice,mallory";

impl Server {
    fn start(env: &[(&str, &str)]) -> Self {
        let env: Vec<_> = (env.iter().copied())
            .chain([("EVERYTHING_SERVER_TOKENS", TOKENS)])
            .collect();
        Self(EverythingServer::start(&env))
    }

    /// Sends one 2026-07-28 request (`_meta` declaring `capabilities`) from 127.0.0.1 and
    /// returns its JSON-RPC response.
    fn call(
        &self,
        id: u64,
        method: &str,
        params: Value,
        capabilities: Value,
        token: Option<&str>,
    ) -> Value {
        let here = IpAddr::from([127, 0, 0, 1]);
        self.call_from(here, id, method, params, capabilities, token)
    }

    /// [`Server::call`] from the address `from` (another address of the loopback network:
    /// another client, as the server sees it).
    fn call_from(
        &self,
        from: IpAddr,
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
        let client = reqwest::Client::builder()
            .local_address(from)
            .build()
            .expect("an HTTP client");
        let mut request = client
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
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let runtime = (tokio::runtime::Builder::new_current_thread())
            .enable_all()
            .build()
            .expect("a runtime");
        let text = runtime.block_on(async {
            let response = request.body(body.to_string()).send().await;
            response.expect("a response").text().await.expect("a body")
        });
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
    // Single use is the default: no option.
    let a = Server::start(&[("MRTR_STATE_KEY", KEY)]);
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

/// Begins a call on `on` and completes it there: the finished retry, to be replayed.
fn completed_retry(on: &Server, principal: &str) -> Value {
    let first = on.call(1, "tools/call", tool(ASKS_NAME), all(), Some(principal));
    let retry = retry(ASKS_NAME, &first["result"]["requestState"], alice());
    let done = on.call(2, "tools/call", retry.clone(), all(), Some(principal));
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Alice!",
        "{done}"
    );
    retry
}

#[test]
fn single_use_holds_across_instances_that_share_a_redis() {
    let redis = RedisServer::start();
    let store = [("MRTR_STATE_KEY", KEY), ("MRTR_REPLAY_STORE", &redis.url)];
    let a = Server::start(&store);
    let b = Server::start(&store);
    for (first, other) in [(&a, &b), (&b, &a)] {
        let retry = completed_retry(first, "alice");
        for (id, to) in [(3, first), (4, other)] {
            let replayed = to.call(id, "tools/call", retry.clone(), all(), Some("alice"));
            assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
            // Said as what it is, apart from a forgery's "invalid requestState".
            assert_eq!(replayed["error"]["data"]["reason"], "spent", "{replayed}");
        }
    }
    // The option is also a flag: `--replay-store none` opts out, and a resent retry runs the
    // handler again on any instance.
    let open = [("MRTR_STATE_KEY", KEY), ("MRTR_REPLAY_STORE", "none")];
    let c = Server::start(&open);
    let retry = completed_retry(&c, "alice");
    let again = c.call(3, "tools/call", retry, all(), Some("alice"));
    assert_eq!(
        again["result"]["content"][0]["text"], "Hello, Alice!",
        "{again}"
    );
}

#[test]
fn the_memory_store_holds_single_use_on_its_own_instance_only() {
    let a = Server::start(&[("MRTR_STATE_KEY", KEY)]);
    let b = Server::start(&[("MRTR_STATE_KEY", KEY)]);
    let retry = completed_retry(&a, "alice");
    let on_a = a.call(3, "tools/call", retry.clone(), all(), Some("alice"));
    assert_eq!(on_a["error"]["code"], -32602, "{on_a}");
    assert_eq!(on_a["error"]["data"]["reason"], "spent", "{on_a}");
    // What the docs say of the in-memory store: B never heard of A's spent state.
    let on_b = b.call(4, "tools/call", retry, all(), Some("alice"));
    assert_eq!(
        on_b["result"]["content"][0]["text"], "Hello, Alice!",
        "{on_b}"
    );
}

/// The stores a quota is tested on (a quota of 5): a Redis shared by instances, and memory.
fn quota_stores(redis: &RedisServer) -> [Vec<(&str, &str)>; 2] {
    let memory = vec![("MRTR_STATE_KEY", KEY), ("MRTR_PRINCIPAL_QUOTA", "5")];
    let mut shared = memory.clone();
    shared.push(("MRTR_REPLAY_STORE", redis.url.as_str()));
    [shared, memory]
}

/// Retries without answers from `from` until refused (each retry spends its state and gets a
/// new one), the `n`th under `token(n)`: how many were spent, and the refusal.
fn spend_until_refused(
    on: &Server,
    from: IpAddr,
    token: impl Fn(usize) -> Option<String>,
) -> (usize, Value) {
    let first = on.call_from(
        from,
        1,
        "tools/call",
        tool(ASKS_NAME),
        all(),
        token(0).as_deref(),
    );
    let mut state = first["result"]["requestState"].clone();
    let mut spent = 0;
    loop {
        let retry = retry(ASKS_NAME, &state, json!({}));
        let next = on.call_from(from, 2, "tools/call", retry, all(), token(spent).as_deref());
        if next.get("error").is_some() {
            return (spent, next);
        }
        spent += 1;
        state = next["result"]["requestState"].clone();
        assert!(spent <= 5, "more than the quota spent: {next}");
    }
}

#[test]
fn one_principal_at_its_quota_does_not_lock_out_another() {
    let redis = RedisServer::start();
    for env in quota_stores(&redis) {
        let a = Server::start(&env);
        let here = IpAddr::from([127, 0, 0, 1]);
        let (spent, refused) = spend_until_refused(&a, here, |_| Some("mallory".into()));
        assert_eq!(spent, 5, "{env:?}");
        // Told apart from a forgery: what happened, for the client and the operator.
        assert_eq!(refused["error"]["code"], -32603, "{refused}");
        assert_eq!(refused["error"]["data"]["reason"], "quota", "{refused}");
        // Alice's call still completes.
        completed_retry(&a, "alice");
    }
}

#[test]
fn one_anonymous_caller_at_its_quota_does_not_lock_out_another() {
    let redis = RedisServer::start();
    let (here, there) = (IpAddr::from([127, 0, 0, 1]), IpAddr::from([127, 0, 0, 2]));
    for env in quota_stores(&redis) {
        let a = Server::start(&env);
        // One client without credentials, under bearer strings it makes up as it goes (tokens
        // the server does not know: still the same caller).
        let (spent, refused) = spend_until_refused(&a, here, |n| Some(format!("made-up-{n}")));
        assert_eq!(spent, 5, "{env:?}");
        assert_eq!(refused["error"]["data"]["reason"], "quota", "{refused}");
        // Another caller without credentials, at another address, completes its call.
        let first = a.call_from(there, 3, "tools/call", tool(ASKS_NAME), all(), None);
        let retry = retry(ASKS_NAME, &first["result"]["requestState"], alice());
        let done = a.call_from(there, 4, "tools/call", retry, all(), None);
        assert_eq!(
            done["result"]["content"][0]["text"], "Hello, Alice!",
            "{done}"
        );
    }
}

#[test]
fn a_replay_store_url_is_never_echoed_with_its_password() {
    for store in [
        // Malformed (not redis://), and well formed but unreachable (port 1).
        "rediss://app:hunter2@redis.internal:6380/",
        "redis://app:hunter2@127.0.0.1:1/",
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_everything-server"))
            .args(["--port", "0", "--replay-store", store])
            .env_remove("MRTR_REPLAY_STORE")
            .output()
            .expect("everything-server runs");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{store}: {said}");
        assert!(said.contains("app:***@"), "{store}: {said}");
        assert!(!said.contains("hunter2"), "{store}: {said}");
    }
}
