//! The hardening of sealed `requestState` (`mcp_mrtr::seal`, `mcp_mrtr::serve`): the params
//! digest taken from the text a tool reads, single use through a replay store, a bounded
//! replay store, a bounded call lifetime, length caps, audience labels, a TTL that cannot
//! overflow; and a derived form that reaches the client in its declared order in both eras.

use std::cell::Cell;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcp_mrtr::seal::{
    DigestError, MemoryReplayStore, OpenError, OpenErrorKind, ParamsDigest, PrincipalId, Recorded,
    RedisReplayStore, ReplayStore, SealContext, SealError, SealingKey, Spend, StateSealer, TokenId,
    MAX_TTL,
};
use mcp_mrtr::serve::{serve, Input, Live, LiveCall, Need, Sealing, ServeError, Served};
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::v2025_11_25 as legacy;
use mcp_typed::v2026_07_28::{CallToolRequestParams, InputRequiredResult};
use mcp_typed::Elicit;
use mcp_typed_tests::installed::RedisServer;
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
    // Spelling does not matter; value and kind do: `1e20` is a float, however written, and
    // not the integer literal (a `u128` reads the one, not the other).
    let c = ParamsDigest::of(&call(r#"{"amount":1e20}"#)).unwrap();
    let d = ParamsDigest::of(&call(r#"{"amount": 10.0E19 }"#)).unwrap();
    assert_ne!(a, c);
    assert_eq!(c, d);

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

/// Completes a call under `sealing`, then resends its retry three times (on `also` too): each
/// resend is refused as replayed, and the handler ran once.
fn a_resent_retry_is_refused(sealing: &Sealing<'_>, also: &Sealing<'_>, to: &str) {
    let first = call(&format!(r#"{{"to":"{to}"}}"#));
    let asked = asked(serve(&first, sealing, now(), confirm));
    let retry = retry(&first, &asked, yes());
    let runs = Cell::new(0);
    let counted = |input: &mut Input<'_>| {
        runs.set(runs.get() + 1);
        confirm(input)
    };
    let done = serve(&retry, sealing, now(), counted).unwrap();
    assert_eq!(done, Served::Complete("confirmed: yes".into()));
    for sealing in [sealing, sealing, also] {
        let again = serve(&retry, sealing, now() + Duration::from_secs(1), counted).unwrap_err();
        assert!(
            matches!(&again, ServeError::InvalidState(e) if e.kind() == OpenErrorKind::Replayed),
            "{again:?}"
        );
        let told = again.to_jsonrpc_error();
        assert_eq!(told.code, -32602);
        assert_eq!(told.data, Some(json!({"reason": "spent"})));
    }
    assert_eq!(runs.get(), 1);
}

#[test]
fn with_a_replay_store_a_resent_retry_is_refused_and_the_handler_does_not_run_again() {
    let sealer = sealer();
    let store = MemoryReplayStore::new();
    let sealing = Sealing::new(&sealer, "user-1").replay_store(&store);
    a_resent_retry_is_refused(&sealing, &sealing, "bob");

    // Opted out, the same resend runs the handler again (documented on `Sealing`).
    let unguarded = Sealing::new(&sealer, "user-1").allow_replay();
    assert!(!unguarded.is_single_use());
    let first = call(r#"{"to":"bob"}"#);
    let asked = self::asked(serve(&first, &unguarded, now(), confirm));
    let retry = self::retry(&first, &asked, yes());
    assert!(serve(&retry, &unguarded, now(), confirm).is_ok());
    assert!(serve(&retry, &unguarded, now(), confirm).is_ok());
}

#[test]
fn the_memory_replay_store_is_bounded_and_evicts_by_expiry() {
    let (clock, store) = stepped(MemoryReplayStore::with_capacity(3).with_quota(0));
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
    // Full of unexpired ids: the fourth is refused rather than an id forgotten, saying so.
    let full = sealer
        .open_once(&tokens[3], &context, now(), &store)
        .unwrap_err();
    assert_eq!(full.kind(), OpenErrorKind::StoreFull, "{full}");
    let served = ServeError::InvalidState(full).to_jsonrpc_error();
    assert_eq!(served.code, -32603);
    assert_eq!(served.data, Some(json!({"reason": "storeFull"})));
    // A spent one is still told apart from a full store.
    let spent = sealer
        .open_once(&tokens[0], &context, now(), &store)
        .unwrap_err();
    assert_eq!(spent.kind(), OpenErrorKind::Replayed, "{spent}");
    // Once the three have expired they are evicted as new ids come in.
    for i in 1..=10 {
        let later = now() + minutes(2 * i);
        clock.set(minutes(2 * i));
        assert!(sealer
            .open_once(&token(later), &context, later, &store)
            .is_ok());
        assert!(store.len() <= 3);
    }
    // Hundreds of thousands of calls stay fast: eviction does not scan every id.
    let (clock, big) = stepped(MemoryReplayStore::with_capacity(200_000).with_quota(0));
    let started = std::time::Instant::now();
    let mut bytes = [0u8; 24];
    let principal = PrincipalId::from_bytes([1; 32]);
    for i in 0u32..150_000 {
        bytes[..4].copy_from_slice(&i.to_be_bytes());
        let at = now() + Duration::from_millis(u64::from(i));
        clock.set(Duration::from_millis(u64::from(i)));
        let id = TokenId::from_bytes(bytes);
        let spend = Spend {
            id: &id,
            principal: &principal,
            expires_at: at + Duration::from_millis(50),
            now: at,
        };
        assert_eq!(big.first_use(&spend).unwrap(), Recorded::First);
    }
    assert!(big.len() <= 51, "{}", big.len());
    // Not a timing assertion: a guard against a return to the quadratic scan (minutes).
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// A monotonic clock a test steps by hand.
#[derive(Clone, Default)]
struct Stepped(std::sync::Arc<std::sync::Mutex<Duration>>);

impl Stepped {
    fn set(&self, elapsed: Duration) {
        *self.0.lock().unwrap() = elapsed;
    }
}

/// `store` reading its monotonic time from the returned clock (at zero).
fn stepped(store: MemoryReplayStore) -> (Stepped, MemoryReplayStore) {
    let clock = Stepped::default();
    let read = clock.clone();
    (
        clock,
        store.with_monotonic_clock(move || *read.0.lock().unwrap()),
    )
}

/// A `Sealing` a server keeps between requests (as the rmcp adapter's `Eras` does): two
/// instances, each with its own kept value over one shared store, spend each state once between
/// them; each request's principal binds its states (alice's retry is refused for mallory).
#[test]
fn a_kept_sealing_serves_each_principal_and_shares_its_store() {
    use std::sync::Arc;
    let store: Arc<dyn ReplayStore> = Arc::new(MemoryReplayStore::new());
    let kept = |sealer: StateSealer| {
        Sealing::shared(Arc::new(sealer))
            .ttl(minutes(5))
            .shared_replay_store(Arc::clone(&store))
    };
    let (one, two) = (kept(sealer()), kept(sealer()));
    assert!(one.has_own_replay_store() && one.is_single_use());
    assert!(!Sealing::new(&sealer(), "x").has_own_replay_store());
    let (alice, alice_elsewhere) = (one.for_principal("alice"), two.for_principal("alice"));
    assert_eq!(alice.principal(), "alice");
    a_resent_retry_is_refused(&alice, &alice_elsewhere, "dave");

    let first = call(r#"{"to":"erin"}"#);
    let asked = asked(serve(&first, &one.for_principal("alice"), now(), confirm));
    let retry = retry(&first, &asked, yes());
    let refused = serve(&retry, &two.for_principal("mallory"), now(), confirm).unwrap_err();
    assert!(
        matches!(refused, ServeError::InvalidState(_)),
        "{refused:?}"
    );
    let done = serve(&retry, &two.for_principal("alice"), now(), confirm).unwrap();
    assert_eq!(done, Served::Complete("confirmed: yes".into()));
}

#[test]
fn single_use_is_the_default_on_this_process() {
    let sealer = sealer();
    // No store named: the process's, which another `Sealing` of this process (another handler,
    // another sealer with the key) shares.
    let sealing = Sealing::new(&sealer, "default-user");
    assert!(sealing.is_single_use());
    let twin = StateSealer::new(SealingKey::new(1, [0x42; 32]));
    a_resent_retry_is_refused(&sealing, &Sealing::new(&twin, "default-user"), "carol");
}

#[test]
fn a_principal_at_its_quota_is_refused_while_another_is_served() {
    let sealer = sealer();
    let store = MemoryReplayStore::new().with_quota(3);
    let mallory = Sealing::new(&sealer, "mallory").replay_store(&store);
    let alice = Sealing::new(&sealer, "alice").replay_store(&store);
    // Retries without answers: each spends its state and gets a new one.
    let first = call(r#"{"to":"bob"}"#);
    let mut asked = self::asked(serve(&first, &mallory, now(), confirm));
    for _ in 0..3 {
        let empty = self::retry(&first, &asked, json!({}));
        asked = self::asked(serve(&empty, &mallory, now(), confirm));
    }
    let empty = self::retry(&first, &asked, json!({}));
    let refused = serve(&empty, &mallory, now(), confirm).unwrap_err();
    assert!(
        matches!(&refused, ServeError::InvalidState(e) if e.kind() == OpenErrorKind::QuotaExceeded),
        "{refused:?}"
    );
    // Told apart from a forgery, which gets the generic -32602 "invalid requestState".
    let told = refused.to_jsonrpc_error();
    assert_eq!(told.code, -32603);
    assert_eq!(told.data, Some(json!({"reason": "quota"})));
    assert!(
        told.message.contains("retry once they expire"),
        "{}",
        told.message
    );
    // Not spent: over quota is refused before it is recorded.
    assert_eq!(store.len(), 3);
    let asked = self::asked(serve(&first, &alice, now(), confirm));
    let done = serve(&self::retry(&first, &asked, yes()), &alice, now(), confirm).unwrap();
    assert_eq!(done, Served::Complete("confirmed: yes".into()));
}

#[test]
fn a_wall_clock_stepped_forward_forgets_no_spent_state() {
    let sealer = sealer();
    let (clock, store) = stepped(MemoryReplayStore::new());
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&json!({})),
        ttl: minutes(10),
    };
    let token = sealer.seal(b"x", &context, now()).unwrap();
    assert!(sealer.open_once(&token, &context, now(), &store).is_ok());
    // The wall clock jumps a day ahead (a new spend sweeps), then back: the record is still
    // there, since the monotonic clock says only a second has passed.
    clock.set(Duration::from_secs(1));
    let ahead = now() + minutes(24 * 60);
    let other = sealer.seal(b"y", &context, ahead).unwrap();
    assert!(sealer.open_once(&other, &context, ahead, &store).is_ok());
    assert_eq!(store.len(), 2);
    let back = now() + Duration::from_secs(1);
    assert_eq!(
        sealer
            .open_once(&token, &context, back, &store)
            .unwrap_err()
            .kind(),
        OpenErrorKind::Replayed
    );
    // Once both clocks say the token expired, its record goes.
    clock.set(minutes(11));
    let fresh = sealer.seal(b"z", &context, now() + minutes(11)).unwrap();
    assert!(sealer
        .open_once(&fresh, &context, now() + minutes(11), &store)
        .is_ok());
    assert_eq!(store.len(), 2, "the first record is gone, the jump's stays");
}

#[test]
fn the_redis_store_spends_each_state_once_across_instances_and_threads() {
    let redis = RedisServer::start();
    let sealer = sealer();
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&json!({})),
        ttl: minutes(10),
    };
    // Two stores on one Redis: two instances of a deployment.
    let a = RedisReplayStore::open(&redis.url).unwrap();
    let b = RedisReplayStore::open(&redis.url).unwrap();
    a.ping().unwrap();
    let real_now = SystemTime::now();
    let token = sealer.seal(b"x", &context, real_now).unwrap();
    assert_eq!(
        sealer.open_once(&token, &context, real_now, &a).unwrap(),
        b"x"
    );
    for store in [&a, &b] {
        let again = sealer.open_once(&token, &context, real_now, store);
        assert_eq!(again.unwrap_err().kind(), OpenErrorKind::Replayed);
    }
    // Eight threads race for each of 50 tokens: exactly one wins each.
    let tokens: Vec<String> = (0..50)
        .map(|_| sealer.seal(b"t", &context, real_now).unwrap())
        .collect();
    let won = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (tokens, won, sealer) = (&tokens, &won, &sealer);
            let store = if thread % 2 == 0 { &a } else { &b };
            scope.spawn(move || {
                for token in tokens {
                    match sealer.open_once(token, &context, real_now, store) {
                        Ok(_) => {
                            won.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                        Err(e) => assert_eq!(e.kind(), OpenErrorKind::Replayed, "{e}"),
                    }
                }
            });
        }
    });
    assert_eq!(won.into_inner(), 50);
    // Quotas per principal: "q" may hold two records; "r" is not affected.
    let quota = RedisReplayStore::open(&redis.url).unwrap().with_quota(2);
    let of = |principal: &'static str| SealContext {
        principal,
        ..context
    };
    for (n, expected) in [
        (0, None),
        (1, None),
        (2, Some(OpenErrorKind::QuotaExceeded)),
    ] {
        let token = sealer.seal(b"q", &of("q"), real_now).unwrap();
        let opened = sealer.open_once(&token, &of("q"), real_now, &quota);
        assert_eq!(opened.err().map(|e| e.kind()), expected, "spend {n}");
    }
    let token = sealer.seal(b"r", &of("r"), real_now).unwrap();
    assert!(sealer.open_once(&token, &of("r"), real_now, &quota).is_ok());
    // A Redis that is gone fails closed.
    drop(redis);
    let token = sealer.seal(b"x", &context, real_now).unwrap();
    let refused = sealer
        .open_once(&token, &context, real_now, &b)
        .unwrap_err();
    assert_eq!(refused.kind(), OpenErrorKind::ReplayStore, "{refused}");
    // Served, that is the server's fault (-32603), not an invalid state of the client's.
    let sealing = Sealing::new(&sealer, "user-1").replay_store(&b);
    let first = call(r#"{"to":"bob"}"#);
    let asked = asked(serve(&first, &sealing, real_now, confirm));
    let down = serve(&retry(&first, &asked, yes()), &sealing, real_now, confirm).unwrap_err();
    let told = down.to_jsonrpc_error();
    assert_eq!(told.code, -32603, "{down}");
    assert_eq!(told.data, Some(json!({"reason": "storeUnavailable"})));
    // The client is not told where the store is; the server's log is.
    assert!(!told.message.contains("127.0.0.1"), "{}", told.message);
    assert!(down.to_string().contains("127.0.0.1"), "{down}");
}

/// A fresh token of `principal`, valid for `ttl`, spent on `store` now.
fn spend_fresh(
    sealer: &StateSealer,
    principal: &str,
    ttl: Duration,
    store: &dyn ReplayStore,
) -> Result<Vec<u8>, OpenError> {
    let context = SealContext {
        principal,
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&json!({})),
        ttl,
    };
    let real_now = SystemTime::now();
    let token = sealer.seal(b"x", &context, real_now).unwrap();
    sealer.open_once(&token, &context, real_now, store)
}

#[test]
fn the_redis_store_at_maxmemory_refuses_spends_and_stays_under_the_limit() {
    let redis = RedisServer::start();
    let sealer = sealer();
    // No quota, no capacity: Redis's maxmemory alone bounds it.
    let store = (RedisReplayStore::open(&redis.url).unwrap())
        .with_quota(0)
        .with_capacity(0);
    store.ping().unwrap();
    assert!(spend_fresh(&sealer, "warm-up", minutes(10), &store).is_ok());
    let limit = redis.info("used_memory") + 256 * 1024;
    let set = redis.command(&["CONFIG", "SET", "maxmemory", &limit.to_string()]);
    assert_eq!(set, "+OK");
    // Each spend from a principal of its own, as a client minting names would.
    let (mut accepted, mut refused) = (0, 0);
    for n in 0..20_000 {
        match spend_fresh(&sealer, &format!("minted-{n}"), minutes(10), &store) {
            Ok(_) => accepted += 1,
            Err(error) => {
                assert_eq!(error.kind(), OpenErrorKind::StoreFull, "{error}");
                refused += 1;
                if refused == 200 {
                    break;
                }
            }
        }
    }
    assert_eq!(refused, 200, "never refused after {accepted} spends");
    assert!(accepted > 100, "only {accepted} spends in 256 KiB");
    // Nothing was written past the limit: the record's write is the script's first. (Redis
    // admits a write while under its limit, and that write may grow a table of its own: the
    // margin. Before, the script wrote on: 2.4 MB past a limit 1 MB above the memory in use.)
    let peak = redis.info("used_memory_peak");
    assert!(
        peak <= limit + 64 * 1024,
        "Redis grew to {peak} bytes, its maxmemory is {limit}"
    );
    eprintln!("{accepted} spends in 256 KiB of maxmemory, then refused; peak {peak} of {limit}");
    // Served: the operator's reason, -32603.
    let full = spend_fresh(&sealer, "late", minutes(10), &store).unwrap_err();
    let told = ServeError::InvalidState(full).to_jsonrpc_error();
    assert_eq!(
        (told.code, told.data),
        (-32603, Some(json!({"reason": "storeFull"})))
    );
}

#[test]
fn many_principals_cannot_push_the_redis_store_past_its_capacity() {
    let redis = RedisServer::start();
    let sealer = sealer();
    let store = (RedisReplayStore::open(&redis.url).unwrap())
        .with_capacity(20)
        .with_quota(3)
        .with_grace(Duration::ZERO);
    let ttl = Duration::from_secs(2);
    // Principals minted by one client, one spend each: the quota does not stop them, the
    // capacity does.
    let outcomes: Vec<_> = (0..60)
        .map(|n| spend_fresh(&sealer, &format!("minted-{n}"), ttl, &store).map_err(|e| e.kind()))
        .collect();
    assert!(outcomes[..20].iter().all(Result::is_ok), "{outcomes:?}");
    assert!(
        (outcomes[20..].iter()).all(|outcome| *outcome == Err(OpenErrorKind::StoreFull)),
        "{outcomes:?}"
    );
    // The documented policy: a full store refuses every new spend, a principal under its
    // quota's too, until records expire; then spends are accepted again.
    let full = spend_fresh(&sealer, "honest", ttl, &store).unwrap_err();
    assert_eq!(full.kind(), OpenErrorKind::StoreFull);
    std::thread::sleep(ttl + Duration::from_millis(300));
    assert!(spend_fresh(&sealer, "honest", ttl, &store).is_ok());
}

#[test]
fn a_spend_that_timed_out_waits_no_longer_and_does_not_refuse_the_honest_retry() {
    let redis = RedisServer::start();
    let sealer = sealer();
    let timeout = Duration::from_millis(400);
    let a = RedisReplayStore::open(&redis.url)
        .unwrap()
        .with_timeout(timeout);
    let b = RedisReplayStore::open(&redis.url).unwrap();
    // The script is known to Redis, and `a` holds a connection.
    assert!(spend_fresh(&sealer, "warm-up", minutes(10), &a).is_ok());
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&json!({})),
        ttl: minutes(10),
    };
    let real_now = SystemTime::now();
    let token = sealer.seal(b"x", &context, real_now).unwrap();
    redis.pause();
    // On the pooled connection (the script sent), then on a new one (connecting): each waits
    // the timeout, not more.
    for (what, token) in [
        ("pooled", token.clone()),
        ("new", sealer.seal(b"y", &context, real_now).unwrap()),
    ] {
        let started = std::time::Instant::now();
        let refused = sealer
            .open_once(&token, &context, real_now, &a)
            .unwrap_err();
        let waited = started.elapsed();
        eprintln!("a {what} connection to a hung Redis waited {waited:?}");
        assert_eq!(refused.kind(), OpenErrorKind::ReplayStore, "{refused}");
        assert!(
            waited >= timeout - Duration::from_millis(50) && waited < 2 * timeout,
            "a {what} connection waited {waited:?} for a timeout of {timeout:?}"
        );
    }
    redis.resume();
    // Redis runs the spend it was sent while it hung: another instance finds it spent...
    std::thread::sleep(Duration::from_millis(300));
    let on_b = sealer
        .open_once(&token, &context, real_now, &b)
        .unwrap_err();
    assert_eq!(on_b.kind(), OpenErrorKind::Replayed, "{on_b}");
    // ...and the instance whose spend timed out accepts the honest retry, once.
    assert_eq!(
        sealer.open_once(&token, &context, real_now, &a).unwrap(),
        b"x"
    );
    let again = sealer
        .open_once(&token, &context, real_now, &a)
        .unwrap_err();
    assert_eq!(again.kind(), OpenErrorKind::Replayed);
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
    // The refused retry spent its state (single use): the call starts over, and a small answer
    // goes on to the next round.
    let asked = self::asked(serve(&first, &sealing, now(), two_rounds));
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
    /// How many (the keys out of the canonical order, which the live request keeps)
    #[elicit(maximum = 20, minimum = 1)]
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
    let legacy = properties_in_order(&sent[0].json);

    // Same names in the same order, and each property with the keywords and values
    // `requested_schema()` wrote; in the live request, as written (`maximum` before
    // `minimum`, as declared), in the typed 2026-07-28 result in the generated types' order.
    let parsed = |properties: &[(String, String)]| -> Vec<(String, Value)> {
        (properties.iter())
            .map(|(name, text)| (name.clone(), serde_json::from_str(text).unwrap()))
            .collect()
    };
    assert_eq!(parsed(&modern), parsed(&expected));
    assert_eq!(legacy, expected);
    assert_eq!(
        expected[1].1,
        r#"{"type":"integer","description":"How many (the keys out of the canonical order, which the live request keeps)","maximum":20,"minimum":1}"#
    );
    // The text sent is the typed request's.
    assert_eq!(
        serde_json::from_str::<Value>(&sent[0].json).unwrap(),
        serde_json::to_value(&sent[0].message).unwrap()
    );
}
