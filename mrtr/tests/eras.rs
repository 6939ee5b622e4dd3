//! One handler for both protocol eras (`mcp_mrtr::serve`), question pinning, and the
//! client half (`mcp_mrtr::client`): every case and every refusal.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_mrtr::client::{Answerer, FormAnswer, Retrier, RetryError};
use mcp_mrtr::seal::{SealingKey, StateSealer};
use mcp_mrtr::serve::{
    serve, Input, Live, LiveAnswer, LiveCall, Need, Sealing, ServeError, Served,
};
use mcp_mrtr::AskError;
use mcp_typed::elicit::{ElicitOutcome, RequestedSchema};
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28::{
    CallToolRequestParams, CreateMessageRequestParams, CreateMessageResult, ElicitResultAction,
    InputRequiredResult, Root,
};
use mcp_typed::Elicit;
use serde_json::{json, Map, Value};

#[derive(Debug, PartialEq, Elicit)]
struct Booking {
    /// How many guests
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    /// Terrace, weather permitting
    #[elicit(default = false)]
    terrace: bool,
}

/// Another form under the same key.
#[derive(Debug, PartialEq, Elicit)]
struct Headcount {
    /// How many people
    people: u8,
}

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

const SEALER_KEY: [u8; 32] = [0x42; 32];

fn sealer() -> StateSealer {
    StateSealer::new(SealingKey::new(1, SEALER_KEY))
}

fn sealing(sealer: &StateSealer) -> Sealing<'_> {
    Sealing::new(sealer, "user-1").ttl(Duration::from_secs(600))
}

fn call(capabilities: Value) -> CallToolRequestParams {
    serde_json::from_value(json!({
        "_meta": {
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/protocolVersion": "2026-07-28"
        },
        "name": "book", "arguments": {"restaurant": "Chez Ada"}
    }))
    .unwrap()
}

fn all_capabilities() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// The tool, written once: a form, then the roots and a sample asked together.
fn book(input: &mut Input<'_>) -> Result<String, Need> {
    let booking = match input.elicit::<Booking>("booking", "Book a table")? {
        ElicitOutcome::Accepted(booking) => booking,
        ElicitOutcome::Declined | ElicitOutcome::Cancelled => return Ok("no booking".into()),
    };
    let roots = input.list_roots("roots");
    let reply = input.sample("note", sampling_params("Write a note"));
    let (roots, reply) = (roots?, reply?);
    Ok(format!(
        "{} guests, terrace {}, roots {}, note {}",
        booking.guests,
        booking.terrace,
        roots.len(),
        text_of(&reply)
    ))
}

fn sampling_params(prompt: &str) -> CreateMessageRequestParams {
    serde_json::from_value(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": 50
    }))
    .unwrap()
}

fn text_of(reply: &CreateMessageResult) -> String {
    serde_json::to_value(&reply.content).unwrap()["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The client side: a user who fills forms with `guests`, and a model that replies "noted".
struct Client {
    guests: Value,
    forms: Vec<String>,
}

impl Client {
    fn new(guests: Value) -> Self {
        Self {
            guests,
            forms: Vec::new(),
        }
    }
}

impl Answerer for Client {
    fn form(&mut self, key: &str, message: &str, schema: &RequestedSchema) -> FormAnswer {
        self.forms.push(format!("{key}: {message}"));
        let mut content = Map::new();
        if schema.property("guests").is_some() {
            content.insert("guests".into(), self.guests.clone());
        }
        if schema.property("people").is_some() {
            content.insert("people".into(), json!(3));
        }
        FormAnswer::Accept(content)
    }
    fn url(&mut self, _key: &str, _message: &str, _url: &str) -> ElicitResultAction {
        ElicitResultAction::Accept
    }
    fn sample(
        &mut self,
        _key: &str,
        _params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, String> {
        Ok(serde_json::from_value(json!({
            "role": "assistant", "content": {"type": "text", "text": "noted"}, "model": "m"
        }))
        .unwrap())
    }
    fn roots(&mut self, _key: &str) -> Vec<Root> {
        vec![serde_json::from_value(json!({"uri": "file:///work"})).unwrap()]
    }
}

/// Drives a 2026-07-28 call to its end with the client half: returns the tool's result and the
/// number of rounds.
fn drive<R>(
    first: &CallToolRequestParams,
    client: &mut Client,
    handler: impl Fn(&mut Input<'_>) -> Result<R, Need>,
) -> Result<(R, u32), String> {
    let sealer = sealer();
    let mut retrier = Retrier::for_request(first);
    let mut params = first.clone();
    loop {
        match serve(&params, &sealing(&sealer), now(), &handler).map_err(|e| e.to_string())? {
            Served::Complete(result) => return Ok((result, retrier.rounds())),
            Served::InputRequired(asked) => {
                // Through the wire: what the client reads is what the server wrote.
                let asked: InputRequiredResult =
                    serde_json::from_str(&serde_json::to_string(&asked).unwrap()).unwrap();
                params = retrier
                    .retry(first, &asked, client)
                    .map_err(|e| e.to_string())?
                    .params;
            }
        }
    }
}

#[test]
fn the_same_handler_serves_2026_07_28() {
    let first = call(all_capabilities());
    let mut client = Client::new(json!(4));
    let (result, rounds) = drive(&first, &mut client, book).unwrap();
    assert_eq!(result, "4 guests, terrace false, roots 1, note noted");
    // The form first, then roots and sampling together.
    assert_eq!(rounds, 2);
    assert_eq!(client.forms, ["booking: Book a table"]);
}

#[test]
fn the_same_handler_serves_2025_11_25_with_live_requests() {
    let capabilities: legacy::ClientCapabilities =
        serde_json::from_value(all_capabilities()).unwrap();
    let mut call = LiveCall::new(&capabilities);
    let mut next = 100;
    let mut next_id = || {
        next += 1;
        legacy::RequestId::Integer(next)
    };
    // Round 1: the form goes out as a live elicitation/create.
    let Live::Send(sent) = call.run(&mut next_id, book).unwrap() else {
        panic!("asks first")
    };
    assert_eq!(sent.len(), 1);
    let wire: Value = serde_json::from_str(&sent[0].json).unwrap();
    assert_eq!(wire, serde_json::to_value(&sent[0].message).unwrap());
    assert_eq!(wire["method"], "elicitation/create");
    assert_eq!(wire["id"], 101);
    assert_eq!(
        wire["params"]["requestedSchema"]["properties"]["guests"]["maximum"],
        12
    );
    assert!(call.is_waiting());
    let answer: legacy::ClientResult = serde_json::from_value(
        json!({"action": "accept", "content": {"guests": 4, "terrace": false}}),
    )
    .unwrap();
    assert_eq!(
        call.answer(&legacy::RequestId::Integer(7), Ok(answer.clone()))
            .unwrap(),
        LiveAnswer::NotOurs
    );
    assert_eq!(
        call.answer(&legacy::RequestId::Integer(101), Ok(answer))
            .unwrap(),
        LiveAnswer::Ready
    );
    // Round 2: roots and sampling together.
    let Live::Send(sent) = call.run(&mut next_id, book).unwrap() else {
        panic!("asks again")
    };
    let methods: Vec<Value> = sent
        .iter()
        .map(|m| serde_json::to_value(&m.message).unwrap()["method"].clone())
        .collect();
    // In the order the handler asked them.
    assert_eq!(
        methods,
        [json!("roots/list"), json!("sampling/createMessage")]
    );
    let roots: legacy::ClientResult =
        serde_json::from_value(json!({"roots": [{"uri": "file:///work"}]})).unwrap();
    let reply: legacy::ClientResult = serde_json::from_value(
        json!({"role": "assistant", "content": {"type": "text", "text": "noted"}, "model": "m"}),
    )
    .unwrap();
    assert_eq!(
        call.answer(&legacy::RequestId::Integer(103), Ok(reply))
            .unwrap(),
        LiveAnswer::Waiting
    );
    assert_eq!(
        call.answer(&legacy::RequestId::Integer(102), Ok(roots))
            .unwrap(),
        LiveAnswer::Ready
    );
    let Live::Complete(result) = call.run(&mut next_id, book).unwrap() else {
        panic!("done")
    };
    // The same result as the 2026-07-28 run of the same handler.
    assert_eq!(result, "4 guests, terrace false, roots 1, note noted");
}

/// A form asked of a 2025-06-18 session is written as that revision's (no `mode`); one it cannot
/// express (a multi select) is refused, not sent.
#[test]
fn live_forms_are_written_in_the_session_s_revision() {
    #[derive(Debug, Elicit)]
    enum Topping {
        Cheese,
        Olives,
    }
    #[derive(Debug, Elicit)]
    struct Toppings {
        /// Pick any
        #[elicit(min_items = 1)]
        toppings: Vec<Topping>,
    }
    let capabilities: legacy::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).unwrap();
    let mut next_id = || legacy::RequestId::Integer(1);
    let mut call = LiveCall::new(&capabilities).revision("2025-06-18");
    let Live::Send(sent) = call.run(&mut next_id, book).unwrap() else {
        panic!("asks first")
    };
    let wire: Value = serde_json::from_str(&sent[0].json).unwrap();
    assert_eq!(wire["method"], "elicitation/create");
    assert!(wire["params"].get("mode").is_none(), "{wire}");
    // In 2025-11-25, the same form says its mode.
    let mut call = LiveCall::new(&capabilities);
    let Live::Send(sent) = call.run(&mut next_id, book).unwrap() else {
        panic!("asks first")
    };
    let wire: Value = serde_json::from_str(&sent[0].json).unwrap();
    assert_eq!(wire["params"]["mode"], "form");

    let mut call = LiveCall::new(&capabilities).revision("2025-06-18");
    let refused = call.run(&mut next_id, |input| {
        input
            .elicit::<Toppings>("toppings", "Toppings?")
            .map(|outcome| matches!(outcome, ElicitOutcome::Accepted(Toppings { toppings }) if !toppings.is_empty()))
    });
    assert!(
        matches!(refused, Err(ServeError::Refused(AskError::Form { ref key, .. })) if key == "toppings"),
        "{refused:?}"
    );
}

#[test]
fn a_live_error_response_ends_the_call() {
    let capabilities: legacy::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).unwrap();
    let mut call = LiveCall::new(&capabilities);
    let Live::Send(sent) = call
        .run(|| legacy::RequestId::String("q".into()), book)
        .unwrap()
    else {
        panic!("asks")
    };
    assert_eq!(sent.len(), 1);
    let error: legacy::Error =
        serde_json::from_value(json!({"code": -32603, "message": "the user closed the window"}))
            .unwrap();
    let refused = call
        .answer(&legacy::RequestId::String("q".into()), Err(error))
        .unwrap_err();
    assert!(
        matches!(&refused, ServeError::ClientError { key, .. } if key == "booking"),
        "{refused}"
    );
    assert_eq!(refused.to_jsonrpc_error().code, -32603);
}

#[test]
fn undeclared_capabilities_are_never_asked_in_either_era() {
    // Form mode only: the roots and the sample of `book` cannot be asked.
    let first = call(json!({"elicitation": {}}));
    let error = drive(&first, &mut Client::new(json!(2)), book).unwrap_err();
    assert!(error.contains("`roots`"), "{error}");

    let capabilities: legacy::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).unwrap();
    let mut call = LiveCall::new(&capabilities);
    let answer: legacy::ClientResult = serde_json::from_value(
        json!({"action": "accept", "content": {"guests": 2, "terrace": false}}),
    )
    .unwrap();
    let _ = call.run(|| legacy::RequestId::Integer(1), book).unwrap();
    call.answer(&legacy::RequestId::Integer(1), Ok(answer))
        .unwrap();
    match call.run(|| legacy::RequestId::Integer(2), book) {
        Err(ServeError::Refused(AskError::MissingCapability { capability, .. })) => {
            assert_eq!(capability, "roots")
        }
        other => panic!("{other:?}"),
    }

    // A handler may catch the refusal and do without.
    let without_roots = |input: &mut Input<'_>| -> Result<String, Need> {
        match input.list_roots("roots") {
            Ok(roots) => Ok(format!("{} roots", roots.len())),
            Err(Need::Refused(_)) => Ok("no roots".into()),
            Err(other) => Err(other),
        }
    };
    let (result, rounds) = drive(&first, &mut Client::new(json!(2)), without_roots).unwrap();
    assert_eq!((result.as_str(), rounds), ("no roots", 0));
}

/// Round 1 of `handler` against a fresh call: the result asked.
fn ask_once(
    first: &CallToolRequestParams,
    handler: impl Fn(&mut Input<'_>) -> Result<String, Need>,
) -> InputRequiredResult {
    match serve(first, &sealing(&sealer()), now(), handler).unwrap() {
        Served::InputRequired(asked) => *asked,
        Served::Complete(result) => panic!("answered without asking: {result}"),
    }
}

fn retry_with(
    first: &CallToolRequestParams,
    asked: &InputRequiredResult,
    answers: Value,
) -> CallToolRequestParams {
    let mut retry = first.clone();
    retry.input_responses = Some(serde_json::from_value(answers).unwrap());
    retry.request_state = asked.request_state.clone();
    retry
}

fn served(
    params: &CallToolRequestParams,
    handler: impl Fn(&mut Input<'_>) -> Result<String, Need>,
) -> Served<String> {
    serve(params, &sealing(&sealer()), now(), handler).unwrap()
}

#[test]
fn an_answer_is_pinned_to_its_question() {
    let first = call(all_capabilities());
    let ask = |message: &'static str| {
        move |input: &mut Input<'_>| -> Result<String, Need> {
            match input.elicit::<Booking>("booking", message)? {
                ElicitOutcome::Accepted(b) => Ok(format!("{} guests", b.guests)),
                _ => Ok("none".into()),
            }
        }
    };
    // Each check answers a round of its own: a state is spent by the retry that presents it.
    let answered = || {
        retry_with(
            &first,
            &ask_once(&first, ask("Book a table")),
            json!({"booking": {"action": "accept", "content": {"guests": 5, "terrace": true}}}),
        )
    };
    // The same question: answered.
    assert_eq!(
        served(&answered(), ask("Book a table")),
        Served::Complete("5 guests".into())
    );
    // A reworded message: another question, asked again rather than answered by the old one.
    assert!(matches!(
        served(&answered(), ask("Book a table for tonight")),
        Served::InputRequired(_)
    ));
    // Another form under the same key: asked again too.
    let other_form = |input: &mut Input<'_>| -> Result<String, Need> {
        match input.elicit::<Headcount>("booking", "Book a table")? {
            ElicitOutcome::Accepted(h) => Ok(format!("{} people", h.people)),
            _ => Ok("none".into()),
        }
    };
    assert!(matches!(
        served(&answered(), other_form),
        Served::InputRequired(_)
    ));
}

#[test]
fn answers_to_unasked_keys_and_replays_are_dropped() {
    let first = call(all_capabilities());
    let handler = |input: &mut Input<'_>| -> Result<String, Need> {
        match input.elicit::<Booking>("booking", "Book a table")? {
            ElicitOutcome::Accepted(b) => Ok(format!("{} guests", b.guests)),
            _ => Ok("none".into()),
        }
    };
    // An answer without any state: nobody asked, so it is not believed.
    let unasked = retry_with(
        &first,
        &InputRequiredResult {
            meta: None,
            input_requests: None,
            request_state: None,
            result_type: "input_required".into(),
            extra: Map::new(),
        },
        json!({"booking": {"action": "accept", "content": {"guests": 5, "terrace": true}}}),
    );
    assert!(matches!(
        served(&unasked, handler),
        Served::InputRequired(_)
    ));

    // An answer under a key the last round did not ask is dropped.
    let asked = ask_once(&first, handler);
    let wrong_key = retry_with(
        &first,
        &asked,
        json!({"other": {"action": "accept", "content": {"guests": 5, "terrace": true}}}),
    );
    assert!(matches!(
        served(&wrong_key, handler),
        Served::InputRequired(_)
    ));

    // The state of a question that has changed since, replayed with its old answer: asked again.
    let old = |input: &mut Input<'_>| -> Result<String, Need> {
        input.elicit::<Booking>("booking", "Book a table (old wording)")?;
        Ok("old".into())
    };
    let old_asked = ask_once(&first, old);
    let replay = retry_with(
        &first,
        &old_asked,
        json!({"booking": {"action": "accept", "content": {"guests": 5, "terrace": true}}}),
    );
    assert!(matches!(served(&replay, handler), Served::InputRequired(_)));
}

#[test]
fn a_tampered_foreign_or_stale_state_is_refused_or_restarted() {
    let first = call(all_capabilities());
    let asked = ask_once(&first, book);
    let answer =
        json!({"booking": {"action": "accept", "content": {"guests": 5, "terrace": true}}});

    // Tampered: one changed character.
    let mut tampered = asked.clone();
    let mut token = tampered.request_state.clone().unwrap().into_bytes();
    let middle = token.len() / 2;
    token[middle] = if token[middle] == b'A' { b'B' } else { b'A' };
    tampered.request_state = Some(String::from_utf8(token).unwrap());
    let error = serve(
        &retry_with(&first, &tampered, answer.clone()),
        &sealing(&sealer()),
        now(),
        book,
    )
    .unwrap_err();
    assert!(matches!(error, ServeError::InvalidState(_)), "{error}");
    assert_eq!(error.to_jsonrpc_error().code, -32602);
    assert_eq!(error.to_jsonrpc_error().message, "invalid requestState");

    // Another principal, other arguments: refused.
    let retry = retry_with(&first, &asked, answer.clone());
    let sealer = sealer();
    let other = Sealing::new(&sealer, "user-2");
    assert!(matches!(
        serve(&retry, &other, now(), book),
        Err(ServeError::InvalidState(_))
    ));
    let mut elsewhere = retry.clone();
    elsewhere.arguments = Some(serde_json::from_str(r#"{"restaurant":"Chez Bob"}"#).unwrap());
    assert!(matches!(
        serve(&elsewhere, &sealing(&sealer), now(), book),
        Err(ServeError::InvalidState(_))
    ));

    // Expired: the call starts over and asks the form again.
    let late = now() + Duration::from_secs(601);
    match serve(&retry, &sealing(&sealer), late, book).unwrap() {
        Served::InputRequired(again) => {
            assert!(again.input_requests.unwrap().contains_key("booking"))
        }
        Served::Complete(result) => panic!("a stale state was believed: {result}"),
    };
}

#[test]
fn a_state_sealed_in_the_earlier_format_starts_over() {
    use mcp_mrtr::seal::SealContext;
    let first = call(all_capabilities());
    let answer =
        json!({"booking": {"action": "accept", "content": {"guests": 5, "terrace": true}}});
    // Sealed with our key for this call, in 0.1's format (an object, answers as JSON).
    let context = SealContext::for_request("user-1", &first, Duration::from_secs(600)).unwrap();
    let old = json!({"answers": {}, "asked": {"booking": "00"}, "deadline": u64::MAX});
    let token = sealer()
        .seal(old.to_string().as_bytes(), &context, now())
        .unwrap();
    let mut retry = retry_with(&first, &ask_once(&first, book), answer);
    retry.request_state = Some(token);
    match served(&retry, book) {
        Served::InputRequired(again) => {
            assert!(again.input_requests.unwrap().contains_key("booking"))
        }
        Served::Complete(result) => panic!("an answer to another format's state: {result}"),
    }
}

#[test]
fn an_answer_that_breaks_the_form_is_a_client_error() {
    let first = call(all_capabilities());
    let asked = ask_once(&first, book);
    let retry = retry_with(
        &first,
        &asked,
        json!({"booking": {"action": "accept", "content": {"guests": 40, "terrace": false}}}),
    );
    let error = serve(&retry, &sealing(&sealer()), now(), book).unwrap_err();
    let error = error.to_jsonrpc_error();
    assert_eq!(error.code, -32602);
    assert!(
        error
            .message
            .contains("/inputResponses/booking/content/guests"),
        "{}",
        error.message
    );
}

// --- The client half -----------------------------------------------------------------------

fn asked(json: Value) -> InputRequiredResult {
    serde_json::from_value(json).unwrap()
}

#[test]
fn the_retry_echoes_the_call_and_the_state() {
    let first = call(all_capabilities());
    let result = asked(
        json!({"resultType": "input_required", "requestState": "  opaque \u{e9}tat ",
        "inputRequests": {
            "where": {"method": "roots/list"},
            "booking": {"method": "elicitation/create", "params": {"message": "Book",
                "requestedSchema": {"type": "object", "properties": {
                    "guests": {"type": "integer", "minimum": 1},
                    "terrace": {"type": "boolean", "default": true}}}}}}}),
    );
    let mut retrier = Retrier::for_request(&first);
    let retry = retrier
        .retry(&first, &result, &mut Client::new(json!(2)))
        .unwrap();
    assert_eq!(retry.pause, Duration::ZERO);
    assert_eq!(retry.params.name, first.name);
    assert_eq!(retry.params.arguments, first.arguments);
    assert_eq!(retry.params.meta, first.meta);
    // Byte for byte, spaces and all.
    assert_eq!(
        retry.params.request_state.as_deref(),
        Some("  opaque \u{e9}tat ")
    );
    // Under the server's keys; the form's default filled in.
    assert_eq!(
        serde_json::to_value(&retry.params.input_responses).unwrap(),
        json!({"where": {"roots": [{"uri": "file:///work"}]},
               "booking": {"action": "accept", "content": {"guests": 2, "terrace": true}}})
    );
}

#[test]
fn the_client_refuses_what_it_did_not_declare() {
    let first = call(json!({"elicitation": {}}));
    let result = asked(json!({"resultType": "input_required", "inputRequests": {
        "note": {"method": "sampling/createMessage", "params": {
            "messages": [], "maxTokens": 5}}}}));
    let error = Retrier::for_request(&first)
        .retry(&first, &result, &mut Client::new(json!(1)))
        .unwrap_err();
    assert_eq!(
        error,
        RetryError::Undeclared {
            key: "note".into(),
            method: "sampling/createMessage",
            capability: "sampling"
        }
    );
    let url = asked(json!({"resultType": "input_required", "inputRequests": {
        "login": {"method": "elicitation/create", "params": {"mode": "url",
            "message": "Sign in", "url": "https://example.com/login"}}}}));
    assert!(matches!(
        Retrier::for_request(&first).retry(&first, &url, &mut Client::new(json!(1))),
        Err(RetryError::Undeclared {
            capability: "elicitation.url",
            ..
        })
    ));
}

#[test]
fn an_answer_that_breaks_the_received_form_is_not_sent() {
    let first = call(all_capabilities());
    let result = asked(json!({"resultType": "input_required", "inputRequests": {
        "booking": {"method": "elicitation/create", "params": {"message": "Book",
            "requestedSchema": {"type": "object", "properties": {
                "guests": {"type": "integer", "minimum": 1, "maximum": 12}},
                "required": ["guests"]}}}}}));
    match Retrier::for_request(&first).retry(&first, &result, &mut Client::new(json!(2.5))) {
        Err(RetryError::Answer { key, errors }) => {
            assert_eq!(key, "booking");
            let found: Vec<_> = errors
                .errors()
                .iter()
                .map(|e| (e.pointer(), e.keyword().as_str()))
                .collect();
            assert_eq!(found, [("/guests", "type")]);
        }
        other => panic!("{other:?}"),
    }
    // A form the generated type takes but the restricted subset does not (a negative length;
    // a nested object is refused earlier, by the typed result itself).
    let negative = asked(json!({"resultType": "input_required", "inputRequests": {
        "booking": {"method": "elicitation/create", "params": {"message": "Book",
            "requestedSchema": {"type": "object", "properties": {
                "name": {"type": "string", "minLength": -1}}}}}}}));
    assert!(matches!(
        Retrier::for_request(&first).retry(&first, &negative, &mut Client::new(json!(2))),
        Err(RetryError::Schema { key, error }) if key == "booking" && error.pointer == "/properties/name/minLength"
    ));
}

#[test]
fn rounds_are_bounded_and_state_only_rounds_wait_longer() {
    let first = call(all_capabilities());
    let state_only = asked(json!({"resultType": "input_required", "requestState": "working"}));
    let mut retrier = Retrier::for_request(&first)
        .max_rounds(3)
        .pause(Duration::from_millis(10));
    let pauses: Vec<Duration> = (0..3)
        .map(|_| {
            retrier
                .retry(&first, &state_only, &mut Client::new(json!(1)))
                .unwrap()
                .pause
        })
        .collect();
    assert_eq!(
        pauses,
        [
            Duration::from_millis(10),
            Duration::from_millis(20),
            Duration::from_millis(30)
        ]
    );
    assert_eq!(
        retrier.retry(&first, &state_only, &mut Client::new(json!(1))),
        Err(RetryError::TooManyRounds { rounds: 3 })
    );
    let empty = asked(json!({"resultType": "input_required"}));
    assert_eq!(
        Retrier::for_request(&first).retry(&first, &empty, &mut Client::new(json!(1))),
        Err(RetryError::Empty)
    );
    // A server that keeps asking is stopped by the default bound of 10 rounds.
    let round = std::cell::Cell::new(0);
    let endless = |input: &mut Input<'_>| -> Result<String, Need> {
        round.set(round.get() + 1);
        input.list_roots(&format!("roots-{}", round.get()))?;
        Ok("never".into())
    };
    let error = drive(&first, &mut Client::new(json!(1)), endless).unwrap_err();
    assert!(error.contains("10 times"), "{error}");
}

/// The answer goes out in the form's order (not the `Map`'s sorted order), and the same
/// answering serves a live request of 2025-11-25 through `client::answer`.
#[test]
fn answers_keep_the_form_order_and_serve_live_requests_too() {
    let capabilities: mcp_typed::v2026_07_28::ClientCapabilities =
        serde_json::from_value(all_capabilities()).unwrap();
    // From text: a `Value` would sort the properties before the test begins.
    let request: mcp_typed::v2026_07_28::InputRequest = serde_json::from_str(
        r#"{"method": "elicitation/create", "params": {"message": "Order",
            "requestedSchema": {"type": "object", "properties": {
                "zeta": {"type": "integer", "default": 1},
                "guests": {"type": "integer"}}}}}"#,
    )
    .unwrap();
    let response =
        mcp_mrtr::client::answer(&capabilities, "k", &request, &mut Client::new(json!(3))).unwrap();
    assert_eq!(
        serde_json::to_string(&response).unwrap(),
        r#"{"action":"accept","content":{"zeta":1,"guests":3}}"#
    );
    let form_only: mcp_typed::v2026_07_28::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).unwrap();
    let roots: mcp_typed::v2026_07_28::InputRequest =
        serde_json::from_value(json!({"method": "roots/list"})).unwrap();
    assert!(matches!(
        mcp_mrtr::client::answer(&form_only, "r", &roots, &mut Client::new(json!(3))),
        Err(RetryError::Undeclared {
            capability: "roots",
            ..
        })
    ));
}
