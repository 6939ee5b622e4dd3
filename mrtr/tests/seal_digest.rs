//! The params digest keeps every difference a tool can read, reads only RFC 8259
//! escapes, costs a bounded amount whatever the input, and `seal` never issues a token that
//! `open` refuses.
#![cfg(feature = "seal")]

use std::time::{Duration, SystemTime};

use mcp_mrtr::seal::{
    CanonicalError, DigestError, ParamsDigest, SealContext, SealError, SealingKey, StateSealer,
};
use mcp_typed::v2026_07_28::CallToolRequestParams;
use serde_json::Value;

/// The `_meta` a 2026-07-28 request carries (left out of the digest).
const META: &str = r#""_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#;

fn call(arguments: &str) -> CallToolRequestParams {
    serde_json::from_str(&format!(r#"{{{META},"name":"t","arguments":{arguments}}}"#)).unwrap()
}

fn digest(arguments: &str) -> ParamsDigest {
    ParamsDigest::of(&call(arguments)).unwrap()
}

/// Each pair is read differently by a tool decoding its arguments with serde_json.
#[test]
fn numbers_a_tool_reads_differently_have_different_digests() {
    for (a, b) in [
        // `as_u64()`: Some(5) and None; a `u64` field takes the one, refuses the other.
        (r#"{"limit":5}"#, r#"{"limit":5.0}"#),
        // The integer 0 and the float -0.0.
        (r#"{"x":0}"#, r#"{"x":-0.0}"#),
        (r#"{"x":0}"#, r#"{"x":-0}"#),
        (r#"{"x":0.0}"#, r#"{"x":-0.0}"#),
        // A `u128` field reads the one and not the other.
        (r#"{"n":1e20}"#, r#"{"n":100000000000000000000}"#),
        (
            r#"{"n":100000000000000000000}"#,
            r#"{"n":100000000000000000001}"#,
        ),
    ] {
        assert_ne!(digest(a), digest(b), "{a} and {b}");
        assert_ne!(
            ParamsDigest::of_json(a).unwrap(),
            ParamsDigest::of_json(b).unwrap()
        );
    }
    // How a tool tells them apart.
    let limit = |json: &str| serde_json::from_str::<Value>(json).unwrap()["limit"].as_u64();
    assert_eq!(
        (limit(r#"{"limit":5}"#), limit(r#"{"limit":5.0}"#)),
        (Some(5), None)
    );
    assert!(serde_json::from_str::<u64>("-0").is_err() && serde_json::from_str::<u64>("0").is_ok());
    assert!(serde_json::from_str::<f64>("-0.0")
        .unwrap()
        .is_sign_negative());
    assert!(serde_json::from_str::<u128>("1e20").is_err());
    assert!(serde_json::from_str::<u128>("100000000000000000000").is_ok());

    // Spelling does not matter, the value and its kind do.
    assert_eq!(digest(r#"{"n":1e20}"#), digest(r#"{"n": 10.0E19 }"#));
    assert_eq!(digest(r#"{"limit":5.0}"#), digest(r#"{"limit":50e-1}"#));
    assert_eq!(
        digest(r#"{"a":1,"b":2}"#),
        digest(r#"{ "b" : 2 , "a" : 1 }"#)
    );
}

/// Typed params, their text, and the `Value` that holds that text exactly: one digest.
#[test]
fn every_path_to_the_digest_agrees() {
    for arguments in [
        r#"{"limit":5}"#,
        r#"{"limit":5.0}"#,
        r#"{"x":-0.0,"y":0.0,"z":0}"#,
        r#"{"n":1e20,"m":0.1,"k":-2.5e-8,"j":18446744073709551615}"#,
        r#"{"s":"\u00e9\ud83d\ude00","t":[true,null,{"b":1,"a":2}]}"#,
    ] {
        let typed = call(arguments);
        let text = format!(
            r#"{{{META},"name":"t","arguments":{arguments},"requestState":"s","inputResponses":{{}}}}"#
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        let of = ParamsDigest::of(&typed).unwrap();
        assert_eq!(ParamsDigest::of_json(&text).unwrap(), of, "{arguments}");
        assert_eq!(ParamsDigest::of_value(&value), of, "{arguments}");
    }
    // What a `Value` cannot hold, it has already lost: the digest of the text keeps it.
    let text = r#"{"name":"t","arguments":{"n":100000000000000000000}}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        ParamsDigest::of_value(&value),
        ParamsDigest::of_json(r#"{"name":"t","arguments":{"n":1e20}}"#).unwrap()
    );
    assert_eq!(
        ParamsDigest::of_json(text).unwrap(),
        digest(r#"{"n":100000000000000000000}"#)
    );
}

#[test]
fn escapes_other_than_rfc_8259_are_refused() {
    for bad in [r#""\u+041""#, r#""\u+41a""#, r#""\u-041""#, r#""\u04""#] {
        let text = format!(r#"{{{META},"name":"t","arguments":{{"a":{bad}}}}}"#);
        assert!(
            matches!(
                ParamsDigest::of_json(&text),
                Err(DigestError::Canonical(CanonicalError::Syntax { .. }))
            ),
            "{bad} was read"
        );
    }
    assert_eq!(
        ParamsDigest::of_json(r#"{"a":"\u0041"}"#).unwrap(),
        ParamsDigest::of_json(r#"{"a":"A"}"#).unwrap()
    );
}

fn is_too_large(result: Result<ParamsDigest, DigestError>) -> bool {
    matches!(
        result,
        Err(DigestError::Canonical(CanonicalError::TooLarge { .. }))
    )
}

/// 16 MiB of nested arrays and 10 MiB of params are refused after reading at most the limit.
/// (Refused, not timed: time is measured by benchmarks, not by tests.)
#[test]
fn oversized_params_are_refused_before_anything_large_is_built() {
    let wide = format!("[{}[]]", "[[]],".repeat(16 * 1024 * 1024 / 5));
    let text = format!(r#"{{{META},"name":"t","arguments":{{"a":{wide}}}}}"#);
    assert!(is_too_large(ParamsDigest::of_json(&text)));
    let typed: CallToolRequestParams = serde_json::from_str(&text).unwrap();
    assert!(is_too_large(ParamsDigest::of(&typed)));
    assert!(matches!(
        SealContext::for_request("p", &typed, Duration::from_secs(60)),
        Err(DigestError::Canonical(CanonicalError::TooLarge { .. }))
    ));

    let big = format!(r#"{{"s":"{}"}}"#, "x".repeat(10 * 1024 * 1024));
    assert!(is_too_large(ParamsDigest::of(&call(&big))));
    assert!(is_too_large(ParamsDigest::of_json(&format!(
        r#"{{{META},"name":"t","arguments":{big}}}"#
    ))));

    let deep = format!(
        r#"{{{META},"name":"t","arguments":{{"a":{}{}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(matches!(
        ParamsDigest::of_json(&deep),
        Err(DigestError::Canonical(CanonicalError::TooDeep { .. }))
    ));

    // Within the limits, digested.
    let fits = format!(r#"{{"s":"{}"}}"#, "x".repeat(ParamsDigest::MAX_LEN - 64));
    assert!(ParamsDigest::of(&call(&fits)).is_ok());
}

/// A `requestState` or `inputResponses` of any length is left out without being read into the
/// digest: the digest is the one of the first attempt.
#[test]
fn a_giant_request_state_costs_the_digest_nothing() {
    let first = call(r#"{"a":1}"#);
    let expected = ParamsDigest::of(&first).unwrap();
    let mut retry = first.clone();
    retry.request_state = Some("x".repeat(10 * 1024 * 1024));
    assert_eq!(ParamsDigest::of(&retry).unwrap(), expected);
    let text = serde_json::to_string(&retry).unwrap();
    assert_eq!(ParamsDigest::of_json(&text).unwrap(), expected);
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(ParamsDigest::of_value(&value), expected);
    // The sealer then refuses the state for its length, before decoding it.
    let sealer = StateSealer::new(SealingKey::new(1, [3; 32]));
    let context = SealContext::for_request("p", &retry, Duration::from_secs(60)).unwrap();
    let refused = sealer
        .open(
            retry.request_state.as_deref().unwrap(),
            &context,
            SystemTime::now(),
        )
        .unwrap_err();
    assert_eq!(refused.kind(), mcp_mrtr::seal::OpenErrorKind::Malformed);
}

/// A `Value` beyond the limits (only the caller's own) still gets a digest of its own, which
/// no other params share.
#[test]
fn an_oversized_value_gets_a_digest_of_its_own() {
    let big = |c: &str| serde_json::json!({"name": "t", "arguments": {"s": c.repeat(2 << 20)}});
    let (a, b) = (big("x"), big("y"));
    assert_eq!(
        ParamsDigest::of_value(&a),
        ParamsDigest::of_value(&a.clone())
    );
    assert_ne!(ParamsDigest::of_value(&a), ParamsDigest::of_value(&b));
    assert!(is_too_large(ParamsDigest::of(&a)));
}

#[test]
fn seal_never_issues_a_token_open_refuses() {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let context = SealContext {
        principal: "p",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&serde_json::json!({})),
        ttl: Duration::from_secs(60),
    };
    let sealer = StateSealer::new(SealingKey::new(1, [3; 32])).with_max_token_len(1_000);
    // The largest payload that fits: its token opens.
    let mut fits = 0;
    while let Ok(token) = sealer.seal(&vec![b'x'; fits + 1], &context, now) {
        assert!(token.len() <= 1_000);
        assert_eq!(sealer.open(&token, &context, now).unwrap().len(), fits + 1);
        fits += 1;
    }
    assert!(fits > 500, "{fits}");
    match sealer.seal(&vec![b'x'; fits + 1], &context, now) {
        Err(SealError::TokenTooLong { len, max }) => {
            assert_eq!(max, 1_000);
            assert!(len > 1_000);
        }
        other => panic!("sealed: {other:?}"),
    }
    // The default limit too.
    let sealer = StateSealer::new(SealingKey::new(1, [3; 32]));
    let payload = vec![0u8; mcp_mrtr::seal::DEFAULT_MAX_TOKEN_LEN];
    assert!(matches!(
        sealer.seal(&payload, &context, now),
        Err(SealError::TokenTooLong { .. })
    ));
}
