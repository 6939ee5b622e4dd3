//! The hardening of sealed `requestState` (`mcp_mrtr::seal`, `mcp_mrtr::serve`): the params
//! digest taken from the text a tool reads, single use through a replay store, a bounded
//! replay store, a bounded call lifetime, length caps, audience labels, a TTL that cannot
//! overflow; and a derived form that reaches the client in its declared order in both eras.

use std::cell::Cell;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_mrtr::seal::{
    DigestError, MemoryReplayStore, OpenError, OpenErrorKind, ParamsDigest, ReplayStore,
    SealContext, SealError, SealingKey, StateSealer, TokenId, MAX_TTL,
};
use mcp_mrtr::serve::{serve, Input, Live, LiveCall, Need, Sealing, ServeError, Served};
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28::{CallToolRequestParams, InputRequiredResult};
use mcp_typed::Elicit;
use serde_json::{json, Value};

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

fn minutes(n: u64) -> Duration {
    Duration::from_secs(60 * n)
}

fn sealer() -> StateSealer {
    StateSealer::new(SealingKey::new(1, [0x42; 32]))
}

/// A `tools/call` from a 2026-07-28 client that declared form elicitation, with `arguments`
/// exactly as given (text: duplicates, big numbers and lone surrogates reach the params).
fn call(arguments: &str) -> CallToolRequestParams {
    serde_json::from_str(&params_text(arguments)).unwrap()
}

fn params_text(arguments: &str) -> String {
    format!(
        r#"{{"_meta":{{"io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{}}}},
            "io.modelcontextprotocol/protocolVersion":"2026-07-28"}},
            "name":"transfer","arguments":{arguments}}}"#
    )
}

#[derive(Debug, Elicit)]
struct Confirm {
    /// Type yes to confirm
    answer: String,
}

/// Asks for a confirmation, then finishes.
fn confirm(input: &mut Input<'_>) -> Result<String, Need> {
    match input.elicit::<Confirm>("confirm", "Sure?")? {
        ElicitOutcome::Accepted(c) => Ok(format!("confirmed: {}", c.answer)),
        _ => Ok("kept".into()),
    }
}

fn asked(served: Result<Served<String>, ServeError>) -> InputRequiredResult {
    match served {
        Ok(Served::InputRequired(result)) => *result,
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    }
}

fn retry(
    first: &CallToolRequestParams,
    asked: &InputRequiredResult,
    answers: Value,
) -> CallToolRequestParams {
    let mut retry = first.clone();
    retry.input_responses = Some(serde_json::from_value(answers).unwrap());
    retry.request_state = asked.request_state.clone();
    retry
}

fn yes() -> Value {
    json!({"confirm": {"action": "accept", "content": {"answer": "yes"}}})
}

// ---------------------------------------------------------------------------------------------
// The params digest is the digest of what the tool reads.

#[test]
fn numbers_a_f64_confuses_have_distinct_digests() {
    let a = ParamsDigest::of(&call(r#"{"amount":100000000000000000000}"#)).unwrap();
    let b = ParamsDigest::of(&call(r#"{"amount":100000000000000000001}"#)).unwrap();
    assert_ne!(a, b);
    // Spelling does not matter; value does.
    let c = ParamsDigest::of(&call(r#"{"amount":1e20}"#)).unwrap();
    let d = ParamsDigest::of(&call(r#"{"amount": 10.0E19 }"#)).unwrap();
    assert_eq!(a, c);
    assert_eq!(a, d);

    // A state sealed for the one amount does not open for the other.
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1");
    let first = call(r#"{"amount":100000000000000000000}"#);
    let asked = asked(serve(&first, &sealing, now(), confirm));
    let mut other = retry(&first, &asked, yes());
    other.arguments = Some(r#"{"amount":100000000000000000001}"#.parse().unwrap());
    let refused = serve(&other, &sealing, now(), confirm).unwrap_err();
    assert!(
        matches!(&refused, ServeError::InvalidState(e) if e.kind() == OpenErrorKind::WrongParams),
        "{refused:?}"
    );
    assert_eq!(refused.to_jsonrpc_error().code, -32602);
}

#[test]
fn duplicate_members_have_no_digest_and_are_refused() {
    let twice = call(r#"{"repo":"prod","repo":"demo"}"#);
    assert!(matches!(
        ParamsDigest::of(&twice),
        Err(DigestError::Canonical(_))
    ));
    // Escaped or not, a name is a name.
    assert!(ParamsDigest::of(&call(r#"{"repo":"prod","r\u0065po":"demo"}"#)).is_err());

    // A state sealed for `{"repo":"demo"}` is never accepted with the duplicate, and the
    // duplicate itself is refused with -32602 naming the member, before the handler runs.
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1");
    let first = call(r#"{"repo":"demo"}"#);
    let asked = asked(serve(&first, &sealing, now(), confirm));
    let mut smuggled = retry(&first, &asked, yes());
    smuggled.arguments = twice.arguments.clone();
    let ran = Cell::new(false);
    let refused = serve(&smuggled, &sealing, now(), |input| {
        ran.set(true);
        confirm(input)
    })
    .unwrap_err();
    assert!(!ran.get());
    let error = refused.to_jsonrpc_error();
    assert_eq!(error.code, -32602, "{refused}");
    assert!(error.message.contains("`repo`"), "{}", error.message);
}

#[test]
fn numbers_beyond_f64_and_lone_surrogates_are_served() {
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1");
    for arguments in [r#"{"amount":1e400}"#, r#"{"memo":"\ud800"}"#] {
        let first = call(arguments);
        let asked = asked(serve(&first, &sealing, now(), confirm));
        let done = serve(&retry(&first, &asked, yes()), &sealing, now(), confirm).unwrap();
        assert_eq!(
            done,
            Served::Complete("confirmed: yes".into()),
            "{arguments}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Single use.

#[test]
fn with_a_replay_store_a_resent_retry_is_refused_and_the_handler_does_not_run_again() {
    let sealer = sealer();
    let store = MemoryReplayStore::new();
    let sealing = Sealing::new(&sealer, "user-1").replay_store(&store);
    let first = call(r#"{"to":"bob"}"#);
    let asked = asked(serve(&first, &sealing, now(), confirm));
    let retry = retry(&first, &asked, yes());
    let runs = Cell::new(0);
    let counted = |input: &mut Input<'_>| {
        runs.set(runs.get() + 1);
        confirm(input)
    };
    let done = serve(&retry, &sealing, now(), counted).unwrap();
    assert_eq!(done, Served::Complete("confirmed: yes".into()));
    let again = serve(&retry, &sealing, now() + Duration::from_secs(1), counted).unwrap_err();
    assert!(
        matches!(&again, ServeError::InvalidState(e) if e.kind() == OpenErrorKind::Replayed),
        "{again:?}"
    );
    assert_eq!(again.to_jsonrpc_error().code, -32602);
    assert_eq!(runs.get(), 1);

    // Without a store the same resend runs the handler again (documented on `Sealing`).
    let unguarded = Sealing::new(&sealer, "user-1");
    let asked = self::asked(serve(&first, &unguarded, now(), confirm));
    let retry = self::retry(&first, &asked, yes());
    assert!(serve(&retry, &unguarded, now(), confirm).is_ok());
    assert!(serve(&retry, &unguarded, now(), confirm).is_ok());
}

#[test]
fn the_memory_replay_store_is_bounded_and_evicts_by_expiry() {
    let store = MemoryReplayStore::with_capacity(3);
    let sealer = sealer();
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&json!({})),
        ttl: minutes(1),
    };
    let token = |at: SystemTime| sealer.seal(b"x", &context, at).unwrap();
    let tokens: Vec<String> = (0..4).map(|_| token(now())).collect();
    for token in &tokens[..3] {
        assert!(sealer.open_once(token, &context, now(), &store).is_ok());
    }
    // Full of unexpired ids: the fourth is refused rather than an id forgotten.
    let full = sealer
        .open_once(&tokens[3], &context, now(), &store)
        .unwrap_err();
    assert_eq!(full.kind(), OpenErrorKind::ReplayStore, "{full}");
    assert!(full.to_string().contains("full"), "{full}");
    // Once the three have expired they are evicted as new ids come in.
    for i in 1..=10 {
        let later = now() + minutes(2 * i);
        assert!(sealer
            .open_once(&token(later), &context, later, &store)
            .is_ok());
        assert!(store.len() <= 3);
    }
    // Hundreds of thousands of calls stay fast: eviction does not scan every id.
    let big = MemoryReplayStore::with_capacity(200_000);
    let started = std::time::Instant::now();
    let mut bytes = [0u8; 24];
    for i in 0u32..150_000 {
        bytes[..4].copy_from_slice(&i.to_be_bytes());
        let at = now() + Duration::from_millis(u64::from(i));
        let id = TokenId::from_bytes(bytes);
        assert!(big
            .first_use(&id, at + Duration::from_millis(50), at)
            .unwrap());
    }
    assert!(big.len() <= 51, "{}", big.len());
    // Not a timing assertion: a guard against a return to the quadratic scan (minutes).
    assert!(started.elapsed() < Duration::from_secs(60));
}

// ---------------------------------------------------------------------------------------------
// A call's lifetime.

/// Asks one more question each round, forever: `round-0`, `round-1`, …
fn endless(answered: &Cell<usize>) -> impl Fn(&mut Input<'_>) -> Result<String, Need> + '_ {
    move |input| {
        let mut round = 0;
        while let ElicitOutcome::Accepted(_) =
            input.elicit::<Confirm>(&format!("round-{round}"), "Again?")?
        {
            round += 1;
            answered.set(round);
        }
        Ok("stopped".into())
    }
}

#[test]
fn resending_the_state_cannot_keep_a_call_alive_past_its_lifetime() {
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1")
        .ttl(minutes(10))
        .lifetime(minutes(30));
    let first = call(r#"{"to":"bob"}"#);
    let answered = Cell::new(0);
    let mut asked = asked(serve(&first, &sealing, now(), endless(&answered)));
    // A round every 9 minutes: each within its TTL.
    for round in 1..=3u64 {
        let key = format!("round-{}", round - 1);
        let answer = json!({ key: {"action": "accept", "content": {"answer": "yes"}} });
        let at = now() + minutes(9 * round);
        asked = self::asked(serve(
            &retry(&first, &asked, answer),
            &sealing,
            at,
            endless(&answered),
        ));
        assert_eq!(answered.get(), round as usize);
    }
    // The state sealed at minute 27 expires at the call's deadline, minute 30, not at 37:
    // at minute 36 the call starts over with no answers.
    answered.set(0);
    let answer = json!({"round-3": {"action": "accept", "content": {"answer": "yes"}}});
    let late = serve(
        &retry(&first, &asked, answer),
        &sealing,
        now() + minutes(36),
        endless(&answered),
    );
    let restarted = self::asked(late);
    assert_eq!(answered.get(), 0);
    let keys: Vec<&String> = restarted.input_requests.as_ref().unwrap().keys().collect();
    assert_eq!(keys, ["round-0"]);
}

// ---------------------------------------------------------------------------------------------
// Lengths, audiences, TTLs.

#[test]
fn an_overlong_state_is_refused_before_decoding() {
    let sealer = sealer();
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::from_bytes([0; 32]),
        ttl: minutes(1),
    };
    let long = "A".repeat(100_000);
    let refused = sealer.open(&long, &context, now()).unwrap_err();
    assert!(
        matches!(refused, OpenError::Malformed("too long")),
        "{refused}"
    );
    // The limit is the sealer's to set.
    let token = sealer.seal(&[7; 1_000], &context, now()).unwrap();
    assert!(sealer.open(&token, &context, now()).is_ok());
    let strict = sealer.clone().with_max_token_len(1_000);
    assert!(matches!(
        strict.open(&token, &context, now()),
        Err(OpenError::Malformed("too long"))
    ));
}

#[test]
fn answers_too_large_to_carry_forward_are_refused() {
    #[derive(Debug, Elicit)]
    struct Note {
        /// Anything
        #[allow(dead_code)]
        text: String,
    }
    fn two_rounds(input: &mut Input<'_>) -> Result<String, Need> {
        let note = input.elicit::<Note>("note", "A note?")?;
        input.elicit::<Confirm>("confirm", "Sure?")?;
        Ok(format!("{note:?}"))
    }
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1").max_state_len(16 * 1024);
    let first = call(r#"{"to":"bob"}"#);
    let asked = asked(serve(&first, &sealing, now(), two_rounds));
    let big = json!({"note": {"action": "accept", "content": {"text": "x".repeat(40_000)}}});
    let refused = serve(&retry(&first, &asked, big), &sealing, now(), two_rounds).unwrap_err();
    assert!(
        matches!(refused, ServeError::StateTooLarge { max: 16_384, .. }),
        "{refused}"
    );
    assert_eq!(refused.to_jsonrpc_error().code, -32602);
    // A small answer goes on to the next round.
    let small = json!({"note": {"action": "accept", "content": {"text": "hi"}}});
    let next = self::asked(serve(
        &retry(&first, &asked, small),
        &sealing,
        now(),
        two_rounds,
    ));
    assert!(next.input_requests.unwrap().contains_key("confirm"));
}

#[test]
fn an_audience_label_keeps_tokens_of_one_key_apart() {
    let key = SealingKey::new(1, [9; 32]);
    let billing = StateSealer::new(key.clone()).with_audience("billing");
    let search = StateSealer::new(key).with_audience("search");
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::from_bytes([1; 32]),
        ttl: minutes(5),
    };
    let token = billing.seal(b"refund 10", &context, now()).unwrap();
    assert_eq!(billing.open(&token, &context, now()).unwrap(), b"refund 10");
    assert_eq!(
        search.open(&token, &context, now()).unwrap_err().kind(),
        OpenErrorKind::Tampered
    );
    let unlabelled = StateSealer::new(SealingKey::new(1, [9; 32]));
    assert_eq!(
        unlabelled.open(&token, &context, now()).unwrap_err().kind(),
        OpenErrorKind::Tampered
    );
}

#[test]
fn a_ttl_cannot_make_a_token_that_never_expires() {
    let sealer = sealer();
    let forever = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::from_bytes([1; 32]),
        ttl: Duration::MAX,
    };
    assert!(matches!(
        sealer.seal(b"x", &forever, now()),
        Err(SealError::TtlTooLong(_))
    ));
    let longest = SealContext {
        ttl: MAX_TTL,
        ..forever
    };
    let token = sealer.seal(b"x", &longest, now()).unwrap();
    assert!(sealer
        .open(&token, &longest, now() + MAX_TTL - Duration::from_secs(1))
        .is_ok());
    assert_eq!(
        sealer
            .open(&token, &longest, now() + MAX_TTL)
            .unwrap_err()
            .kind(),
        OpenErrorKind::Expired
    );
    // A clock at the end of time seals and opens without overflowing.
    let end = UNIX_EPOCH + Duration::from_millis(u64::MAX);
    let token = sealer.seal(b"x", &longest, end).unwrap();
    assert_eq!(
        sealer.open(&token, &longest, end).unwrap_err().kind(),
        OpenErrorKind::Expired
    );
    // Through `serve`, a round's TTL is cut at the call's lifetime, and a lifetime too long
    // is the server's error, not the client's.
    let sealing = Sealing::new(&sealer, "user-1").ttl(Duration::MAX);
    assert!(serve(&call("{}"), &sealing, now(), confirm).is_ok());
    let sealing = sealing.lifetime(Duration::MAX);
    let refused = serve(&call("{}"), &sealing, now(), confirm).unwrap_err();
    assert_eq!(refused.to_jsonrpc_error().code, -32603, "{refused}");
}

// ---------------------------------------------------------------------------------------------
// The same form, in the same order, in both eras.

/// Declared in an order that is not alphabetical.
#[derive(Debug, Elicit)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Reservation {
    /// The day
    #[elicit(format = "date")]
    date: String,
    /// How many
    #[elicit(minimum = 1, maximum = 20)]
    party_size: u8,
    /// Where
    seating: Seating,
    /// Anything else
    #[elicit(max_length = 200)]
    notes: Option<String>,
}

#[derive(Debug, Elicit)]
#[allow(dead_code)]
enum Seating {
    Inside,
    Terrace,
}

fn reserve(input: &mut Input<'_>) -> Result<String, Need> {
    input.elicit::<Reservation>("reservation", "Book a table")?;
    Ok("booked".into())
}

/// The property names of the first `requestedSchema` in `text`, in the order they are written,
/// and each property's text.
fn properties_in_order(text: &str) -> Vec<(String, String)> {
    let at = text
        .find(r#""requestedSchema":"#)
        .expect("a requestedSchema");
    let schema = &text[at + r#""requestedSchema":"#.len()..];
    let mut de = serde_json::Deserializer::from_str(schema);
    let schema: Schema = serde::Deserialize::deserialize(&mut de).unwrap();
    schema
        .properties
        .into_iter()
        .map(|(name, raw)| (name, raw.get().to_owned()))
        .collect()
}

#[derive(serde::Deserialize)]
struct Schema {
    properties: mcp_typed::IndexMap<String, Box<serde_json::value::RawValue>>,
}

#[test]
fn a_derived_form_lists_its_fields_in_declared_order_in_both_eras() {
    let declared = ["date", "partySize", "seating", "notes"];
    let written = serde_json::to_string(&Reservation::requested_schema()).unwrap();
    let expected = properties_in_order(&format!(r#"{{"requestedSchema":{written}}}"#));
    let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, declared);

    // 2026-07-28: inside the InputRequiredResult.
    let sealer = sealer();
    let sealing = Sealing::new(&sealer, "user-1");
    let result = asked(serve(&call("{}"), &sealing, now(), reserve));
    let modern = properties_in_order(&serde_json::to_string(&result).unwrap());

    // 2025-11-25: a live elicitation/create.
    let capabilities: legacy::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).unwrap();
    let mut live = LiveCall::new(&capabilities);
    let Live::Send(sent) = live.run(|| legacy::RequestId::Integer(1), reserve).unwrap() else {
        panic!("asks first")
    };
    let legacy = properties_in_order(&serde_json::to_string(&sent[0]).unwrap());

    // Same names in the same order, and each property with the keywords and values
    // `requested_schema()` wrote (their order within a property is the generated types').
    let parsed = |properties: &[(String, String)]| -> Vec<(String, Value)> {
        (properties.iter())
            .map(|(name, text)| (name.clone(), serde_json::from_str(text).unwrap()))
            .collect()
    };
    assert_eq!(parsed(&modern), parsed(&expected));
    assert_eq!(parsed(&legacy), parsed(&expected));
    assert_eq!(modern, legacy);
}
