//! Multi round-trip requests (`mcp_mrtr`, 2026-07-28): asking with `InputRequired`,
//! reading the retry with `Responses`, and sealed `requestState` with `StateSealer`. The example
//! server that uses them is tested in `examples/tests/server.rs`.
//!
//! Needs the `seal` feature (a default).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_mrtr::seal::{
    MemoryReplayStore, OpenError, OpenErrorKind, ParamsDigest, SealContext, SealingKey, StateSealer,
};
use mcp_mrtr::{AskError, InputRequired, ResponseError, Responses, RetryParams};
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::v2026_07_28::{
    CallToolRequestParams, ClientCapabilities, ClientMessage, ClientRequest,
    CreateMessageRequestParams, ElicitRequestParams, InputRequest, InputRequiredResult,
    InputResponses, RequestId, ServerMessage, ServerResult,
};
use mcp_typed::Elicit;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, PartialEq, Elicit)]
struct Contact {
    /// Your full name
    #[elicit(min_length = 1)]
    name: String,
    #[elicit(format = "email")]
    email: String,
}

const PRINCIPAL: &str = "user-42";
const TTL: Duration = Duration::from_secs(300);

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

fn sealer() -> StateSealer {
    StateSealer::new(SealingKey::new(1, [0x11; 32]))
}

fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    })
}

/// The JSON text of a `tools/call` request.
fn call(id: i64, params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string()
}

/// Decodes a `tools/call` request from the wire.
fn decode_call(text: &str) -> (RequestId, CallToolRequestParams) {
    match text.parse::<ClientMessage>() {
        Ok(ClientMessage::Request {
            id,
            request: ClientRequest::CallTool(params),
        }) => (id, *params),
        other => panic!("not a tools/call: {other:?}"),
    }
}

/// The JSON text of a response carrying `result`.
fn respond(id: RequestId, result: ServerResult) -> String {
    serde_json::to_string(&ServerMessage::Response { id, result }).unwrap()
}

/// Decodes the `InputRequiredResult` of a response from the wire.
fn decode_input_required(text: &str) -> InputRequiredResult {
    match text.parse::<ServerMessage>() {
        Ok(ServerMessage::Response {
            result: ServerResult::InputRequired(result),
            ..
        }) => *result,
        other => panic!("not an InputRequiredResult: {other:?}"),
    }
}

/// The server's first answer: ask `ask` and seal the state.
fn ask(
    text: &str,
    ask: impl FnOnce(InputRequired<'_>) -> Result<InputRequired<'_>, AskError>,
) -> String {
    let (id, params) = decode_call(text);
    let context = SealContext::for_request(PRINCIPAL, &params, TTL).unwrap();
    let state = sealer().seal(b"asked", &context, now()).unwrap();
    let result = ask(InputRequired::for_request(&params))
        .unwrap()
        .state(state)
        .build()
        .unwrap();
    respond(id, ServerResult::InputRequired(Box::new(result)))
}

/// The client's retry: the original params with `inputResponses` and the echoed state.
fn retry(id: i64, first: &Value, asked: &InputRequiredResult, answers: Value) -> String {
    let mut params = first.clone();
    params["inputResponses"] = answers;
    params["requestState"] = json!(asked.request_state.as_deref().expect("a state"));
    call(id, &params)
}

/// A fresh server reading the retry: the state must open before any answer is read.
fn receive_retry(text: &str) -> CallToolRequestParams {
    let (id, params) = decode_call(text);
    assert_eq!(id, RequestId::Integer(2), "the retry is a new request");
    let context = SealContext::for_request(PRINCIPAL, &params, TTL).unwrap();
    let token = params.request_state().expect("the state is echoed");
    let state = sealer()
        .open(token, &context, now() + Duration::from_secs(30))
        .unwrap();
    assert_eq!(state, b"asked");
    params
}

fn form_call() -> Value {
    json!({
        "_meta": meta(json!({"elicitation": {}})),
        "name": "register",
        "arguments": {"plan": "pro"},
    })
}

#[test]
fn form_round_trip_through_the_wire() {
    let first = form_call();
    let answer = ask(&call(1, &first), |asking| {
        asking.elicit::<Contact>("contact", "Who should we contact?")
    });

    // The client reads the request, with the form's fields in declaration order.
    assert!(answer.contains(r#""resultType":"input_required""#));
    let asked = decode_input_required(&answer);
    let requests = asked.input_requests.as_ref().expect("input requests");
    let InputRequest::Elicit(request) = &requests["contact"] else {
        panic!("not an elicitation: {requests:?}");
    };
    let ElicitRequestParams::Form(form) = &request.params else {
        panic!("not form mode");
    };
    assert_eq!(form.message, "Who should we contact?");
    let fields: Vec<&str> = form
        .requested_schema
        .properties
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(fields, ["name", "email"]);
    assert_eq!(
        form.requested_schema.required.as_deref(),
        Some(&["name".to_owned(), "email".to_owned()][..])
    );

    // It answers and retries; a fresh server accepts.
    let text = retry(
        2,
        &first,
        &asked,
        json!({"contact": {"action": "accept", "content": {"name": "Ada", "email": "ada@example.com"}}}),
    );
    let params = receive_retry(&text);
    let outcome = Responses::of(&params)
        .elicited::<Contact>("contact")
        .unwrap();
    assert_eq!(
        outcome,
        Some(ElicitOutcome::Accepted(Contact {
            name: "Ada".into(),
            email: "ada@example.com".into()
        }))
    );
}

#[test]
fn url_round_trip_through_the_wire() {
    let first = json!({
        "_meta": meta(json!({"elicitation": {"url": {}}})),
        "name": "connect_github",
    });
    let answer = ask(&call(1, &first), |asking| {
        asking.elicit_url(
            "github_oauth",
            "Authorize access to your repositories",
            "https://example.com/oauth/start?session=abc",
        )
    });
    assert!(answer.contains(
        r#""github_oauth":{"method":"elicitation/create","params":{"mode":"url","message":"Authorize access to your repositories","url":"https://example.com/oauth/start?session=abc"}}"#
    ));
    let asked = decode_input_required(&answer);
    let InputRequest::Elicit(request) = &asked.input_requests.as_ref().unwrap()["github_oauth"]
    else {
        panic!("not an elicitation");
    };
    assert!(
        matches!(&request.params, ElicitRequestParams::Url(url) if url.url.ends_with("session=abc"))
    );

    let text = retry(
        2,
        &first,
        &asked,
        json!({"github_oauth": {"action": "accept"}}),
    );
    let params = receive_retry(&text);
    let responses = Responses::of(&params);
    assert_eq!(
        responses.url_elicited("github_oauth").unwrap(),
        Some(ElicitOutcome::Accepted(()))
    );
    assert_eq!(responses.url_elicited("other").unwrap(), None);
}

#[test]
fn decline_and_cancel() {
    let first = form_call();
    let asked = decode_input_required(&ask(&call(1, &first), |asking| {
        asking.elicit::<Contact>("contact", "Who should we contact?")
    }));
    for (action, expected) in [
        ("decline", ElicitOutcome::Declined),
        ("cancel", ElicitOutcome::Cancelled),
    ] {
        // Content sent with a decline or cancel is never validated.
        let text = retry(
            2,
            &first,
            &asked,
            json!({"contact": {"action": action, "content": {"name": ""}}}),
        );
        let params = receive_retry(&text);
        let responses = Responses::of(&params);
        assert_eq!(
            responses.elicited::<Contact>("contact").unwrap(),
            Some(expected)
        );
        let url = responses.url_elicited("contact").unwrap().unwrap();
        assert_eq!(url, expected_unit(action));
    }
}

fn expected_unit(action: &str) -> ElicitOutcome<()> {
    match action {
        "decline" => ElicitOutcome::Declined,
        _ => ElicitOutcome::Cancelled,
    }
}

#[test]
fn a_missing_key_is_none_and_unknown_keys_are_ignored() {
    let first = form_call();
    let asked = decode_input_required(&ask(&call(1, &first), |asking| {
        asking.elicit::<Contact>("contact", "Who should we contact?")
    }));
    let text = retry(
        2,
        &first,
        &asked,
        json!({"unasked": {"action": "accept", "content": {"whatever": 1}}, "roots": {"roots": []}}),
    );
    let params = receive_retry(&text);
    let responses = Responses::of(&params);
    assert_eq!(responses.elicited::<Contact>("contact").unwrap(), None);
    assert!(!responses.contains("contact"));
    let mut keys: Vec<&str> = responses.keys().collect();
    keys.sort_unstable();
    assert_eq!(keys, ["roots", "unasked"]);
    // In the order the client sent them.
    let sent: InputResponses =
        serde_json::from_str(r#"{"z":{"roots":[]},"a":{"action":"cancel"}}"#).unwrap();
    assert_eq!(
        Responses::new(Some(&sent)).keys().collect::<Vec<_>>(),
        ["z", "a"]
    );

    // No inputResponses at all.
    let (_, params) = decode_call(&call(3, &first));
    assert!(Responses::of(&params).is_empty());
    assert_eq!(
        Responses::of(&params)
            .elicited::<Contact>("contact")
            .unwrap(),
        None
    );
    assert_eq!(
        Responses::from_json(None)
            .unwrap()
            .elicited::<Contact>("contact")
            .unwrap(),
        None
    );
}

#[test]
fn an_invalid_answer_is_an_error_with_key_and_path() {
    let first = form_call();
    let asked = decode_input_required(&ask(&call(1, &first), |asking| {
        asking.elicit::<Contact>("contact", "Who should we contact?")
    }));
    let text = retry(
        2,
        &first,
        &asked,
        json!({"contact": {"action": "accept", "content": {"name": "", "email": "not an address"}}}),
    );
    let params = receive_retry(&text);
    let error = Responses::of(&params)
        .elicited::<Contact>("contact")
        .unwrap_err();
    assert_eq!(error.key(), "contact");
    assert_eq!(error.path(), "/inputResponses/contact/content/name");
    let ResponseError::Invalid { errors, .. } = &error else {
        panic!("{error:?}");
    };
    let found: Vec<(&str, &str)> = errors
        .errors()
        .iter()
        .map(|e| (e.pointer(), e.keyword().as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/inputResponses/contact/content/name", "minLength"),
            ("/inputResponses/contact/content/email", "format"),
        ]
    );

    // As a JSON-RPC error: -32602, paths relative to the message.
    let rpc = serde_json::to_value(error.to_jsonrpc_error()).unwrap();
    assert_eq!(rpc["code"], -32602);
    assert_eq!(rpc["data"]["key"], "contact");
    assert_eq!(
        rpc["data"]["path"],
        "/params/inputResponses/contact/content/name"
    );
    assert_eq!(
        rpc["data"]["errors"][1]["path"],
        "/params/inputResponses/contact/content/email"
    );

    // An accept without content is an empty form: the required members are missing.
    let answers: InputResponses =
        serde_json::from_value(json!({"a/b": {"action": "accept"}})).unwrap();
    let error = Responses::new(Some(&answers))
        .elicited::<Contact>("a/b")
        .unwrap_err();
    // The key is escaped in the pointer (RFC 6901).
    assert_eq!(error.path(), "/inputResponses/a~1b/content/name");
}

#[test]
fn an_answer_of_another_kind_is_an_error() {
    let answers: InputResponses = serde_json::from_value(json!({
        "contact": {"roots": [{"uri": "file:///home/ada"}]},
        "summary": {"action": "accept"},
    }))
    .unwrap();
    let responses = Responses::new(Some(&answers));
    let error = responses.elicited::<Contact>("contact").unwrap_err();
    assert_eq!(
        error,
        ResponseError::WrongKind {
            key: "contact".into(),
            path: "/inputResponses/contact".into(),
            expected: "elicitation/create",
            found: "roots/list",
        }
    );
    assert!(matches!(
        responses.sampled("summary"),
        Err(ResponseError::WrongKind {
            expected: "sampling/createMessage",
            found: "elicitation/create",
            ..
        })
    ));
    let roots = responses.roots("contact").unwrap().unwrap();
    assert_eq!(roots[0].uri, "file:///home/ada");
}

#[test]
fn sampling_and_roots_answers_are_typed() {
    let answers: InputResponses = serde_json::from_value(json!({
        "capital": {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"},
        "roots": {"roots": []},
    }))
    .unwrap();
    let responses = Responses::new(Some(&answers));
    let sampled = responses.sampled("capital").unwrap().unwrap();
    assert_eq!(sampled.model, "m");
    assert_eq!(responses.roots("roots").unwrap(), Some(vec![]));
    assert_eq!(responses.sampled("missing").unwrap(), None);
    assert_eq!(responses.roots("missing").unwrap(), None);
}

#[test]
fn raw_answers_are_read_one_key_at_a_time() {
    let raw = json!({
        "action": {"action": "maybe"},
        "number": {"action": 1},
        "scalar": 5,
        "content": {"action": "accept", "content": [1]},
        "sampling": {"role": "assistant", "model": "m"},
        "roots": {"roots": [{"uri": 5}]},
        "good": {"action": "accept", "content": {"name": "Ada", "email": "ada@example.com"}},
    });
    let responses = Responses::from_json(Some(&raw)).unwrap();
    let path = |key: &str| responses.elicited::<Contact>(key).unwrap_err();
    for (key, expected) in [
        ("action", "/inputResponses/action/action"),
        ("number", "/inputResponses/number/action"),
        ("scalar", "/inputResponses/scalar"),
        ("content", "/inputResponses/content/content"),
    ] {
        let error = path(key);
        assert!(
            matches!(&error, ResponseError::Malformed { .. }),
            "{error:?}"
        );
        assert_eq!((error.key(), error.path()), (key, expected));
    }
    assert!(matches!(
        path("sampling"),
        ResponseError::WrongKind {
            found: "sampling/createMessage",
            ..
        }
    ));
    // Typed results through the raw view report the path inside the answer.
    let error = responses.roots("roots").unwrap_err();
    assert_eq!(error.path(), "/inputResponses/roots/roots/0/uri");
    // A good answer next to bad ones is still read.
    assert!(matches!(
        responses.elicited::<Contact>("good").unwrap(),
        Some(ElicitOutcome::Accepted(_))
    ));
    assert!(matches!(
        Responses::from_json(Some(&json!([]))),
        Err(ResponseError::Malformed { ref path, .. }) if path == "/inputResponses"
    ));
}

#[derive(Debug, PartialEq, Elicit)]
struct Rating {
    /// Stars, halves allowed
    #[elicit(minimum = 0, maximum = 5)]
    stars: f64,
}

/// The answer to a `number` field is any JSON number: the official schema types
/// `ElicitResult.content` values as string, integer, boolean or string array, which the erratum
/// `elicit-number-answers` corrects, so the typed request decodes and the raw view agrees.
#[test]
fn a_fractional_number_answer_decodes_typed_and_raw() {
    let mut params = form_call();
    params["inputResponses"] = json!({"rating": {"action": "accept", "content": {"stars": 4.5}}});
    let text = call(2, &params);
    let (_, typed) = decode_call(&text);
    assert_eq!(
        Responses::of(&typed).elicited::<Rating>("rating").unwrap(),
        Some(ElicitOutcome::Accepted(Rating { stars: 4.5 }))
    );

    let raw = mcp_typed::jsonrpc::RawMessage::parse(&text).unwrap();
    let params: Value = serde_json::from_str(raw.params.unwrap().get()).unwrap();
    let responses = Responses::from_json(params.get("inputResponses")).unwrap();
    assert_eq!(
        responses.elicited::<Rating>("rating").unwrap(),
        Some(ElicitOutcome::Accepted(Rating { stars: 4.5 }))
    );
    let too_many = json!({"rating": {"action": "accept", "content": {"stars": 5.5}}});
    let error = Responses::from_json(Some(&too_many))
        .unwrap()
        .elicited::<Rating>("rating")
        .unwrap_err();
    assert_eq!(error.path(), "/inputResponses/rating/content/stars");
}

/// The generated types decode the whole request or nothing: a malformed answer fails the
/// request with -32602, pointing into `inputResponses`.
#[test]
fn a_malformed_typed_answer_fails_the_request() {
    let mut params = form_call();
    params["inputResponses"] = json!({"contact": {"action": "maybe"}});
    let error = call(2, &params).parse::<ClientMessage>().unwrap_err();
    assert_eq!(error.code(), -32602);
    assert_eq!(
        error.path(),
        Some("/params/inputResponses/contact"),
        "{error}"
    );
}

fn capabilities(json: Value) -> ClientCapabilities {
    serde_json::from_value(json).unwrap()
}

fn sampling_params(extra: Value) -> CreateMessageRequestParams {
    let mut params = json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
        "maxTokens": 100,
    });
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    serde_json::from_value(params).unwrap()
}

#[test]
fn requests_the_client_did_not_declare_are_refused() {
    let missing = |capabilities_json: Value,
                   add: &dyn Fn(InputRequired<'_>) -> Result<InputRequired<'_>, AskError>|
     -> Option<&'static str> {
        let capabilities = capabilities(capabilities_json);
        match add(InputRequired::new(&capabilities)) {
            Ok(_) => None,
            Err(AskError::MissingCapability {
                key, capability, ..
            }) => {
                assert_eq!(key, "k");
                Some(capability)
            }
            Err(other) => panic!("{other}"),
        }
    };
    type Asking<'a> = Result<InputRequired<'a>, AskError>;
    fn form(asking: InputRequired<'_>) -> Asking<'_> {
        asking.elicit::<Contact>("k", "m")
    }
    fn url(asking: InputRequired<'_>) -> Asking<'_> {
        asking.elicit_url("k", "m", "https://example.com/x")
    }
    fn sample(asking: InputRequired<'_>) -> Asking<'_> {
        asking.sample("k", sampling_params(json!({})))
    }
    fn sample_tools(asking: InputRequired<'_>) -> Asking<'_> {
        asking.sample(
            "k",
            sampling_params(json!({"toolChoice": {"mode": "auto"}})),
        )
    }
    fn sample_context(asking: InputRequired<'_>) -> Asking<'_> {
        asking.sample(
            "k",
            sampling_params(json!({"includeContext": "thisServer"})),
        )
    }
    fn sample_no_context(asking: InputRequired<'_>) -> Asking<'_> {
        asking.sample("k", sampling_params(json!({"includeContext": "none"})))
    }
    fn roots(asking: InputRequired<'_>) -> Asking<'_> {
        asking.list_roots("k")
    }

    assert_eq!(missing(json!({}), &form), Some("elicitation"));
    assert_eq!(missing(json!({"elicitation": {}}), &form), None);
    assert_eq!(
        missing(json!({"elicitation": {"url": {}}}), &form),
        Some("elicitation.form")
    );
    assert_eq!(
        missing(json!({"elicitation": {"url": {}, "form": {}}}), &form),
        None
    );
    assert_eq!(missing(json!({}), &url), Some("elicitation"));
    // `elicitation: {}` means form mode only.
    assert_eq!(
        missing(json!({"elicitation": {}}), &url),
        Some("elicitation.url")
    );
    assert_eq!(missing(json!({"elicitation": {"url": {}}}), &url), None);
    assert_eq!(
        missing(json!({"elicitation": {}}), &sample),
        Some("sampling")
    );
    assert_eq!(missing(json!({"sampling": {}}), &sample), None);
    assert_eq!(
        missing(json!({"sampling": {}}), &sample_tools),
        Some("sampling.tools")
    );
    assert_eq!(
        missing(json!({"sampling": {"tools": {}}}), &sample_tools),
        None
    );
    assert_eq!(
        missing(json!({"sampling": {}}), &sample_context),
        Some("sampling.context")
    );
    assert_eq!(missing(json!({"sampling": {}}), &sample_no_context), None);
    assert_eq!(
        missing(json!({"sampling": {"context": {}}}), &sample_context),
        None
    );
    assert_eq!(missing(json!({"sampling": {}}), &roots), Some("roots"));
    assert_eq!(missing(json!({"roots": {}}), &roots), None);
}

#[test]
fn every_kind_of_request_in_one_result() {
    let capabilities =
        capabilities(json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}));
    let result = InputRequired::new(&capabilities)
        .elicit::<Contact>("contact", "Who?")
        .and_then(|a| a.elicit_url("oauth", "Sign in", "https://example.com/o"))
        .and_then(|a| a.sample("capital", sampling_params(json!({}))))
        .and_then(|a| a.list_roots("roots"))
        .unwrap()
        .build()
        .unwrap();
    assert_eq!(result.result_type, "input_required");
    assert_eq!(result.request_state, None);
    let json = serde_json::to_value(&result).unwrap();
    assert_eq!(
        json["inputRequests"]["capital"]["method"],
        "sampling/createMessage"
    );
    assert_eq!(
        json["inputRequests"]["roots"],
        json!({"method": "roots/list"})
    );
    let keys: Vec<&String> = result.input_requests.as_ref().unwrap().keys().collect();
    assert_eq!(keys, ["contact", "oauth", "capital", "roots"]);
    // It decodes back as the same result.
    let text = serde_json::to_string(&result).unwrap();
    assert_eq!(
        serde_json::from_str::<InputRequiredResult>(&text).unwrap(),
        result
    );
}

#[test]
fn empty_duplicate_and_invalid_requests_are_refused() {
    let capabilities = capabilities(json!({"elicitation": {"url": {}}}));
    assert_eq!(
        InputRequired::new(&capabilities).build().unwrap_err(),
        AskError::Empty
    );
    // State alone is a valid result: the client retries at once.
    let result = InputRequired::new(&capabilities)
        .state("opaque")
        .build()
        .unwrap();
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"requestState":"opaque","resultType":"input_required"}"#
    );
    let twice = InputRequired::new(&capabilities)
        .elicit_url("k", "m", "https://example.com/a")
        .and_then(|a| a.elicit_url("k", "m", "https://example.com/b"));
    assert_eq!(
        twice.unwrap_err(),
        AskError::DuplicateKey { key: "k".into() }
    );
    let relative = InputRequired::new(&capabilities).elicit_url("k", "m", "/oauth/start");
    assert!(matches!(relative, Err(AskError::InvalidUrl { ref url, .. }) if url == "/oauth/start"));
}

// --- Sealed state -----------------------------------------------------------------------------

fn context<'a>(principal: &'a str, method: &'a str) -> SealContext<'a> {
    SealContext {
        principal,
        method,
        params_digest: ParamsDigest::of_value(
            &json!({"name": "deploy", "arguments": {"env": "prod"}}),
        ),
        ttl: TTL,
    }
}

fn decode(token: &str) -> Vec<u8> {
    base64_decode(token).expect("base64url")
}

/// base64url without padding, written out here so the test does not share the
/// implementation's decoder.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes() {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        bits = bits << 6 | v;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    Some(out)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..=n {
            out.push(ALPHABET[(v >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[test]
fn the_test_codec_agrees_with_the_sealer() {
    let token = sealer()
        .seal(b"payload", &context(PRINCIPAL, "tools/call"), now())
        .unwrap();
    assert_eq!(base64_encode(&decode(&token)), token);
}

#[test]
fn tampering_with_any_byte_is_rejected() {
    let sealer = sealer();
    let context = context(PRINCIPAL, "tools/call");
    let token = sealer.seal(b"grant: read-only", &context, now()).unwrap();
    assert_eq!(
        sealer.open(&token, &context, now()).unwrap(),
        b"grant: read-only"
    );
    let bytes = decode(&token);
    for position in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut tampered = bytes.clone();
            tampered[position] ^= mask;
            let error = sealer
                .open(&base64_encode(&tampered), &context, now())
                .expect_err("a tampered token must not open");
            let expected = match position {
                0 => OpenErrorKind::Malformed,      // the format version
                1..=4 => OpenErrorKind::UnknownKey, // the key id
                _ => OpenErrorKind::Tampered,       // nonce, ciphertext, tag
            };
            assert_eq!(error.kind(), expected, "byte {position} ^ {mask:#04x}");
        }
    }
    // Every character of the text, too (non-canonical base64 is refused, not re-read).
    for position in 0..token.len() {
        for replacement in [b'A', b'B', b'_', b'-', b'9'] {
            let mut text = token.clone().into_bytes();
            if text[position] == replacement {
                continue;
            }
            text[position] = replacement;
            let text = String::from_utf8(text).unwrap();
            assert!(
                sealer.open(&text, &context, now()).is_err(),
                "character {position} → {}",
                replacement as char
            );
        }
    }
    // Shortened, lengthened, or not base64.
    for len in 0..bytes.len() {
        assert!(sealer
            .open(&base64_encode(&bytes[..len]), &context, now())
            .is_err());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        sealer
            .open(&base64_encode(&longer), &context, now())
            .unwrap_err()
            .kind(),
        OpenErrorKind::Tampered
    );
    for bad in [
        "",
        "not a token!",
        &format!("{token}="),
        &format!(" {token}"),
    ] {
        assert_eq!(
            sealer.open(bad, &context, now()).unwrap_err().kind(),
            OpenErrorKind::Malformed,
            "{bad:?}"
        );
    }
}

#[test]
fn expiry() {
    let sealer = sealer();
    let context = context(PRINCIPAL, "tools/call");
    let token = sealer.seal(b"x", &context, now()).unwrap();
    let last = now() + TTL - Duration::from_millis(1);
    assert_eq!(sealer.open(&token, &context, last).unwrap(), b"x");
    let error = sealer.open(&token, &context, now() + TTL).unwrap_err();
    assert!(
        matches!(error, OpenError::Expired { expires_at } if expires_at == now() + TTL),
        "{error:?}"
    );
    assert_eq!(
        sealer
            .open(&token, &context, now() + Duration::from_secs(86_400))
            .unwrap_err()
            .kind(),
        OpenErrorKind::Expired
    );
    // A zero TTL is expired at once.
    let instant = SealContext {
        ttl: Duration::ZERO,
        ..context
    };
    let token = sealer.seal(b"x", &instant, now()).unwrap();
    assert_eq!(
        sealer.open(&token, &context, now()).unwrap_err().kind(),
        OpenErrorKind::Expired
    );
}

#[test]
fn each_binding_has_its_own_error() {
    let sealer = sealer();
    let sealed_for = context(PRINCIPAL, "tools/call");
    let token = sealer.seal(b"x", &sealed_for, now()).unwrap();
    let kind =
        |expected: &SealContext<'_>| sealer.open(&token, expected, now()).unwrap_err().kind();

    assert_eq!(
        kind(&context("user-7", "tools/call")),
        OpenErrorKind::WrongPrincipal
    );
    assert_eq!(
        kind(&context(PRINCIPAL, "prompts/get")),
        OpenErrorKind::WrongMethod
    );
    let other_params = SealContext {
        params_digest: ParamsDigest::of_value(
            &json!({"name": "deploy", "arguments": {"env": "dev"}}),
        ),
        ..sealed_for
    };
    assert_eq!(kind(&other_params), OpenErrorKind::WrongParams);
    // The TTL of the expected context plays no part in opening.
    let other_ttl = SealContext {
        ttl: Duration::from_secs(1),
        ..sealed_for
    };
    assert_eq!(sealer.open(&token, &other_ttl, now()).unwrap(), b"x");

    // Another key id, never known.
    let other = StateSealer::new(SealingKey::new(2, [0x11; 32]));
    assert!(matches!(
        other.open(&token, &sealed_for, now()),
        Err(OpenError::UnknownKey { key_id: 1 })
    ));
    // The same id with other key bytes: authentication fails.
    let impostor = StateSealer::new(SealingKey::new(1, [0x22; 32]));
    assert_eq!(
        impostor
            .open(&token, &sealed_for, now())
            .unwrap_err()
            .kind(),
        OpenErrorKind::Tampered
    );
    // Every kind is distinct and the messages say which check failed.
    let kinds = [
        OpenErrorKind::WrongPrincipal,
        OpenErrorKind::WrongMethod,
        OpenErrorKind::WrongParams,
        OpenErrorKind::UnknownKey,
        OpenErrorKind::Tampered,
        OpenErrorKind::Expired,
    ];
    let unique: std::collections::HashSet<_> = kinds.iter().collect();
    assert_eq!(unique.len(), kinds.len());
    let error = sealer
        .open(&token, &context("user-7", "tools/call"), now())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "requestState refused: sealed for another principal"
    );
}

#[test]
fn rotation() {
    let k1 = SealingKey::new(1, [0x11; 32]);
    let k2 = SealingKey::new(2, [0x22; 32]);
    let context = context(PRINCIPAL, "tools/call");
    let old_token = StateSealer::new(k1.clone())
        .seal(b"old", &context, now())
        .unwrap();

    // After the rotation: new tokens use k2, old ones still open.
    let rotated = StateSealer::new(k2.clone()).with_previous(k1.clone());
    assert_eq!(rotated.active_key_id(), 2);
    assert_eq!(rotated.open(&old_token, &context, now()).unwrap(), b"old");
    let new_token = rotated.seal(b"new", &context, now()).unwrap();
    assert_eq!(decode(&new_token)[1..5], [0, 0, 0, 2]);
    assert_eq!(rotated.open(&new_token, &context, now()).unwrap(), b"new");
    // The old key alone cannot open what the new one sealed.
    assert_eq!(
        StateSealer::new(k1.clone())
            .open(&new_token, &context, now())
            .unwrap_err()
            .kind(),
        OpenErrorKind::UnknownKey
    );

    // Once k1 is removed, its tokens no longer open.
    let removed = StateSealer::new(k2.clone());
    assert!(matches!(
        removed.open(&old_token, &context, now()),
        Err(OpenError::UnknownKey { key_id: 1 })
    ));
    let retired = StateSealer::new(k2.clone())
        .with_previous(k1.clone())
        .with_retired(1);
    assert!(matches!(
        retired.open(&old_token, &context, now()),
        Err(OpenError::RetiredKey { key_id: 1 })
    ));
    assert_eq!(retired.open(&new_token, &context, now()).unwrap(), b"new");

    // The same, in place.
    let mut sealer = StateSealer::new(k1);
    sealer.rotate(k2);
    assert_eq!(sealer.active_key_id(), 2);
    assert_eq!(sealer.open(&old_token, &context, now()).unwrap(), b"old");
    assert!(sealer.retire(1));
    assert!(!sealer.retire(1));
    assert_eq!(
        sealer.open(&old_token, &context, now()).unwrap_err().kind(),
        OpenErrorKind::RetiredKey
    );
    assert_eq!(sealer.open(&new_token, &context, now()).unwrap(), b"new");
}

#[test]
fn one_time_use() {
    let sealer = sealer();
    // The store's monotonic clock, stepped by hand below.
    let elapsed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let clock = elapsed.clone();
    let store = MemoryReplayStore::new().with_monotonic_clock(move || {
        Duration::from_millis(clock.load(std::sync::atomic::Ordering::SeqCst))
    });
    let context = context(PRINCIPAL, "tools/call");
    let token = sealer.seal(b"redeem once", &context, now()).unwrap();

    // A failed check does not consume the token.
    let thief = self::context("user-7", "tools/call");
    assert_eq!(
        sealer
            .open_once(&token, &thief, now(), &store)
            .unwrap_err()
            .kind(),
        OpenErrorKind::WrongPrincipal
    );
    assert!(store.is_empty());
    assert_eq!(
        sealer.open_once(&token, &context, now(), &store).unwrap(),
        b"redeem once"
    );
    assert_eq!(
        sealer
            .open_once(&token, &context, now(), &store)
            .unwrap_err()
            .kind(),
        OpenErrorKind::Replayed
    );
    // Plain `open` does not look at the store.
    assert_eq!(
        sealer.open(&token, &context, now()).unwrap(),
        b"redeem once"
    );

    // Another token is independent; expired records are dropped.
    let other = sealer.seal(b"other", &context, now()).unwrap();
    assert_ne!(other, token);
    assert!(sealer.open_once(&other, &context, now(), &store).is_ok());
    assert_eq!(store.len(), 2);
    let later = now() + TTL;
    elapsed.store(TTL.as_millis() as u64, std::sync::atomic::Ordering::SeqCst);
    let fresh = sealer.seal(b"fresh", &context, later).unwrap();
    assert!(sealer.open_once(&fresh, &context, later, &store).is_ok());
    assert_eq!(store.len(), 1);
}

#[test]
fn the_token_hides_its_contents() {
    let sealer = sealer();
    let context = context("alice@example.com", "tools/call");
    let payload = b"SECRET-PAYLOAD-0123456789";
    let a = sealer.seal(payload, &context, now()).unwrap();
    let b = sealer.seal(payload, &context, now()).unwrap();
    assert_ne!(a, b, "a random nonce per token");
    for token in [&a, &b] {
        let bytes = decode(token);
        for secret in [&payload[..], b"alice@example.com", b"tools/call"] {
            assert!(!bytes.windows(secret.len()).any(|w| w == secret));
        }
    }
}

#[test]
fn json_payloads() {
    let sealer = sealer();
    let context = context(PRINCIPAL, "tools/call");
    let token = sealer
        .seal_json(
            &json!({"attempt": 2, "asked": ["contact"]}),
            &context,
            now(),
        )
        .unwrap();
    let state: Value = sealer.open_json(&token, &context, now()).unwrap();
    assert_eq!(state, json!({"attempt": 2, "asked": ["contact"]}));
    let wrong = sealer.open_json::<Vec<u8>>(&token, &context, now());
    assert_eq!(wrong.unwrap_err().kind(), OpenErrorKind::Payload);
}

#[test]
fn the_params_digest_covers_the_salient_params_only() {
    let first = json!({
        "_meta": meta(json!({})),
        "name": "deploy",
        "arguments": {"env": "prod", "replicas": 3, "ratio": 0.5},
    });
    let digest = ParamsDigest::of_value(&first);
    // The retry adds inputResponses and requestState, may change _meta and reorder members.
    let retry = json!({
        "arguments": {"ratio": 0.5, "replicas": 3, "env": "prod"},
        "requestState": "abc",
        "inputResponses": {"k": {"action": "cancel"}},
        "name": "deploy",
        "_meta": meta(json!({"elicitation": {}})),
    });
    assert_eq!(ParamsDigest::of_value(&retry), digest);
    let mut other = first.clone();
    other["arguments"]["env"] = json!("dev");
    assert_ne!(ParamsDigest::of_value(&other), digest);
    let mut other = first.clone();
    other["name"] = json!("destroy");
    assert_ne!(ParamsDigest::of_value(&other), digest);
    let mut other = first.clone();
    other["arguments"]["extra"] = json!(null);
    assert_ne!(ParamsDigest::of_value(&other), digest);
    // `3.0` is no integer to a tool (`as_u64()` is `None`): another digest.
    let mut other = first.clone();
    other["arguments"]["replicas"] = json!(3.0);
    assert_ne!(ParamsDigest::of_value(&other), digest);

    // Typed params give the digest of their JSON, and the first attempt and its retry share
    // a context.
    let (_, typed_first) = decode_call(&call(1, &first));
    let (_, typed_retry) = decode_call(&call(2, &retry));
    assert_eq!(ParamsDigest::of(&typed_first).unwrap(), digest);
    assert_eq!(
        SealContext::for_request(PRINCIPAL, &typed_first, TTL).unwrap(),
        SealContext::for_request(PRINCIPAL, &typed_retry, TTL).unwrap()
    );
    assert_eq!(
        SealContext::for_request(PRINCIPAL, &typed_first, TTL)
            .unwrap()
            .method,
        "tools/call"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn open_returns_what_was_sealed(
        payload in proptest::collection::vec(any::<u8>(), 0..600),
        principal in ".{0,40}",
        method in "[a-z/]{0,20}",
        digest in any::<[u8; 32]>(),
        ttl_ms in 1u64..10_000_000,
        key in any::<[u8; 32]>(),
        key_id in any::<u32>(),
    ) {
        let sealer = StateSealer::new(SealingKey::new(key_id, key));
        let context = SealContext {
            principal: &principal,
            method: &method,
            params_digest: ParamsDigest::from_bytes(digest),
            ttl: Duration::from_millis(ttl_ms),
        };
        let token = sealer.seal(&payload, &context, now()).unwrap();
        prop_assert!(token.bytes().all(|b| ALPHABET.contains(&b)));
        prop_assert_eq!(sealer.open(&token, &context, now()).unwrap(), payload.clone());
        let later = now() + Duration::from_millis(ttl_ms - 1);
        prop_assert_eq!(sealer.open(&token, &context, later).unwrap(), payload);
        let other = format!("{principal}!");
        let elsewhere = SealContext { principal: &other, ..context };
        prop_assert_eq!(
            sealer.open(&token, &elsewhere, now()).unwrap_err().kind(),
            OpenErrorKind::WrongPrincipal
        );
    }
}
