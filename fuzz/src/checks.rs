//! What each fuzz target checks, as plain functions: the fuzz targets call them on the inputs
//! libFuzzer makes, and `tests/tests/fuzz_regressions.rs` calls them (on stable) on every seed
//! and every input a fuzz run ever found, so that a crash found once stays fixed.
//!
//! Each function panics on a violated property; an input that is refused with an error is fine.

use std::time::{Duration, UNIX_EPOCH};

use mcp_mrtr::seal::{ParamsDigest, SealContext, SealingKey, StateSealer};
use mcp_typed::borrowed::IntoOwned;
use mcp_typed::elicit::RequestedSchema;
use mcp_typed::jsonrpc::DecodeError;
use mcp_typed::Elicit;
use mcp_typed::RawObject;
use serde_json::Value;

/// A target's check.
pub type Check = fn(&[u8]);

/// The targets, by name: what `scripts/fuzz.sh` runs and the regression test replays.
pub const TARGETS: [(&str, Check); 7] = [
    ("messages", messages),
    ("requested_schema", requested_schema),
    ("derived_form", derived_form),
    ("raw_object", raw_object),
    ("sealed_state", sealed_state),
    ("params_digest", params_digest),
    ("schema_loader", schema_loader),
];

/// Every revision's `ClientMessage` and `ServerMessage`, from text (`FromStr`) and through serde
/// (`Deserialize`, by `from_str`, `from_slice` and `from_reader`): all agree, and whatever
/// decodes re-encodes and decodes again to an equal value. The borrowed `ClientMessageRef` and
/// `ServerMessageRef` agree with them: the same refusals, and what decodes encodes to the same
/// text and, made owned, equals the owned decode.
pub fn messages(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    macro_rules! each {
        ($($module:ident),*) => {$(
            round_trip::<mcp_typed::$module::ClientMessage>(text);
            round_trip::<mcp_typed::$module::ServerMessage>(text);
            borrowed_agrees(text, mcp_typed::$module::borrowed::ClientMessageRef::parse);
            borrowed_agrees(text, mcp_typed::$module::borrowed::ServerMessageRef::parse);
        )*};
    }
    each!(
        v2024_11_05,
        v2025_03_26,
        v2025_06_18,
        v2025_11_25,
        v2026_07_28
    );
}

fn round_trip<M>(text: &str)
where
    M: std::str::FromStr
        + serde::Serialize
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
    M::Err: std::fmt::Debug,
{
    let parsed = text.parse::<M>();
    let through_serde = serde_json::from_str::<M>(text);
    assert_eq!(
        parsed.is_ok(),
        through_serde.is_ok(),
        "FromStr and Deserialize disagree on {text:?}: {parsed:?} / {through_serde:?}"
    );
    // serde_json's other readers give what its `from_str` gives, refusals included.
    let from_slice = serde_json::from_slice::<M>(text.as_bytes());
    let from_reader = serde_json::from_reader::<_, M>(text.as_bytes());
    for (reader, decoded) in [("from_slice", from_slice), ("from_reader", from_reader)] {
        match (&decoded, &through_serde) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{reader} on {text:?}"),
            (Err(_), Err(_)) => {}
            _ => panic!(
                "{reader} and from_str disagree on {text:?}: {decoded:?} / {through_serde:?}"
            ),
        }
    }
    let Ok(message) = parsed else {
        return;
    };
    assert_eq!(Some(&message), through_serde.as_ref().ok());
    let encoded = serde_json::to_string(&message).expect("a decoded message encodes");
    let again = encoded
        .parse::<M>()
        .unwrap_or_else(|e| panic!("{encoded} (from {text}) does not decode again: {e:?}"));
    assert_eq!(again, message, "{text} → {encoded}");
}

/// The borrowed decode of `text` (`parse`, and serde's `from_str`) against the
/// owned one: both refuse it, with the same error, or both decode it, to the same text and, made
/// owned, to equal values.
fn borrowed_agrees<'a, B>(text: &'a str, parse: fn(&'a str) -> Result<B, DecodeError>)
where
    B: IntoOwned + serde::Serialize + serde::Deserialize<'a> + std::fmt::Debug,
    B::Owned: std::str::FromStr<Err = DecodeError>
        + serde::Serialize
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
{
    let owned = text.parse::<B::Owned>();
    let borrowed = parse(text);
    match (owned, borrowed) {
        (Ok(owned), Ok(borrowed)) => {
            let encoded = serde_json::to_string(&borrowed).expect("a decoded message encodes");
            let owned_encoded = serde_json::to_string(&owned).expect("a decoded message encodes");
            assert_eq!(
                encoded, owned_encoded,
                "the borrowed and owned encodings of {text}"
            );
            assert_eq!(borrowed.into_owned(), owned, "made owned, on {text}");
        }
        (Err(owned), Err(borrowed)) => {
            assert_eq!(borrowed, owned, "the borrowed and owned refusals of {text}")
        }
        (owned, borrowed) => {
            panic!("borrowed and owned disagree on {text:?}: {borrowed:?} / {owned:?}")
        }
    }
    // serde's way in gives what `parse` gives: both refuse, or both decode to the same text.
    // (`from_slice` reads as `from_str` does; it is compared in tests/tests/borrowed.rs, not here,
    // where each reader is one more copy of every decoder for the fuzz build to compile.)
    match (
        serde_json::from_str::<B>(text),
        serde_json::from_str::<B::Owned>(text),
    ) {
        (Ok(borrowed), Ok(owned)) => assert_eq!(
            serde_json::to_string(&borrowed).ok(),
            serde_json::to_string(&owned).ok(),
            "borrowed from_str on {text}"
        ),
        // The same refusal. Where the borrowed type keeps raw text that the owned type reads as
        // a `Value` (an undeclared member), serde_json skips what the other parses: text that
        // is not JSON is refused in other words (`key must be a string` / `trailing comma`),
        // and a column apart; a refusal of JSON is word for word the same.
        (Err(borrowed), Err(owned)) => {
            assert_eq!(borrowed.classify(), owned.classify(), "refusals of {text}");
            if owned.is_data() {
                assert_eq!(
                    without_position(&borrowed),
                    without_position(&owned),
                    "borrowed from_str refusal of {text}"
                );
            }
        }
        (borrowed, owned) => {
            panic!("borrowed from_str and owned disagree on {text:?}: {borrowed:?} / {owned:?}")
        }
    }
}

/// A serde_json error's message without the ` at line L column C` its `Display` adds.
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    message.strip_suffix(&suffix).unwrap_or(&message).to_owned()
}

/// A requested schema parsed from text writes and parses back to the same schema; on any
/// content (the bytes after the first `\n`), `validate` and `is_valid` agree and do not panic.
pub fn requested_schema(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (schema_text, content_text) = text.split_once('\n').unwrap_or((text, "{}"));
    let Ok(schema) = RequestedSchema::parse_str(schema_text) else {
        return;
    };
    let _ = schema.problems();
    let written = serde_json::to_string(&schema).expect("a parsed schema writes");
    let again = RequestedSchema::parse_str(&written)
        .unwrap_or_else(|e| panic!("{written} (from {schema_text}) does not parse again: {e}"));
    assert_eq!(again, schema, "{schema_text} → {written}");
    if let Ok(Value::Object(content)) = serde_json::from_str::<Value>(content_text) {
        let validator = schema.validator();
        let report = validator.validate(&content);
        assert_eq!(
            report.is_ok(),
            validator.is_valid(&content),
            "{schema_text} / {content_text}"
        );
        assert_eq!(report.is_ok(), schema.validate(&content).is_ok());
        if let Err(errors) = report {
            assert!(!errors.errors().is_empty(), "a refusal names what is wrong");
        }
    }
}

/// A form with every kind of field.
#[derive(Debug, PartialEq, Elicit)]
pub struct Everything {
    /// A bounded name
    #[elicit(min_length = 1, max_length = 20, pattern = "^[a-z]+$")]
    pub name: String,
    #[elicit(format = "email")]
    pub email: Option<String>,
    #[elicit(format = "uri")]
    pub site: Option<String>,
    #[elicit(format = "date")]
    pub day: Option<String>,
    #[elicit(format = "date-time")]
    pub at: Option<String>,
    #[elicit(minimum = -5, maximum = 500)]
    pub count: i16,
    #[elicit(minimum = 0.5, maximum = 2.5)]
    pub ratio: Option<f64>,
    pub flag: Option<bool>,
    pub color: Option<Color>,
    #[elicit(min_items = 1, max_items = 2)]
    pub colors: Option<Vec<Color>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Elicit)]
pub enum Color {
    #[elicit(title = "Red")]
    Red,
    #[elicit(title = "Green")]
    Green,
}

/// The derived decoder (`from_json_str`, one pass over the text) and `from_content` give the
/// dynamic validator's verdict, and agree with each other.
pub fn derived_form(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let one_pass = Everything::from_json_str(text);
    let Ok(Value::Object(content)) = serde_json::from_str::<Value>(text) else {
        return;
    };
    // serde_json keeps the last of duplicate members; the one-pass decoder refuses duplicates.
    let from_content = Everything::from_content(&content);
    let dynamic = Everything::requested_schema().validate(&content);
    assert_eq!(
        from_content.is_ok(),
        dynamic.is_ok(),
        "{text}: {from_content:?} / {dynamic:?}"
    );
    if let Ok(value) = one_pass {
        assert_eq!(Ok(value), from_content, "{text}");
    }
}

/// A free-form object is kept as text and decoded from it like serde_json decodes the text; it
/// writes back what it read.
pub fn raw_object(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let raw = serde_json::from_str::<RawObject>(text);
    let value = serde_json::from_str::<Value>(text);
    match raw {
        Ok(raw) => {
            let written = serde_json::to_string(&raw).expect("writes");
            let again = serde_json::from_str::<RawObject>(&written).expect("reads what it wrote");
            assert_eq!(again, raw, "{text} → {written}");
            match value {
                Ok(value) => {
                    assert!(value.is_object(), "{text}");
                    assert_eq!(raw.decode::<Value>().expect("decodes"), value, "{text}");
                }
                // Valid JSON that serde_json cannot hold in a `Value` (a number beyond f64,
                // `1e400`): kept as text, and refused the same way when read.
                Err(refused) => assert!(raw.decode::<Value>().is_err(), "{text}: {refused}"),
            }
        }
        Err(_) => assert!(
            !matches!(value, Ok(Value::Object(_))),
            "{text}: refused an object"
        ),
    }
}

/// `StateSealer::open` never opens a token it did not seal, and never panics on one.
pub fn sealed_state(data: &[u8]) {
    let Ok(token) = std::str::from_utf8(data) else {
        return;
    };
    let sealer = StateSealer::new(SealingKey::new(1, [0x5a; 32]));
    let context = SealContext {
        principal: "fuzz",
        method: "tools/call",
        params_digest: ParamsDigest::of_value(&Value::Null),
        ttl: Duration::from_secs(600),
    };
    let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    assert!(
        sealer.open(token, &context, now).is_err(),
        "opened {token:?}"
    );
    // A real token with a byte of the fuzzer's changed is refused too.
    let real = sealer.seal(b"state", &context, now).expect("seals");
    if let Some(&byte) = data.first() {
        let mut changed = real.into_bytes();
        let at = usize::from(byte) % changed.len();
        let old = changed[at];
        changed[at] = if data.len() > 1 && data[1] != old {
            data[1]
        } else {
            old ^ 1
        };
        if let Ok(changed) = String::from_utf8(changed) {
            let later = now + Duration::from_secs(u64::from(byte));
            assert!(
                sealer.open(&changed, &context, later).is_err(),
                "opened {changed:?}"
            );
        }
    }
}

/// `ParamsDigest::of_json` (a hand-written canonical reader of the params a peer sent) on any
/// text: a digest or an error, never a panic; blanks around the text change nothing; and where
/// serde_json reads the text as a `Value` that holds it exactly (integers only), the digest of
/// that value is the same.
pub fn params_digest(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(digest) = ParamsDigest::of_json(text) else {
        return;
    };
    let padded = format!(" \n{text}\t");
    assert_eq!(
        ParamsDigest::of_json(&padded).ok(),
        Some(digest),
        "blanks changed the digest of {text:?}"
    );
    fn exact(value: &Value) -> bool {
        match value {
            Value::Number(n) => n.is_i64() || n.is_u64(),
            Value::Array(items) => items.iter().all(exact),
            Value::Object(members) => members.values().all(exact),
            _ => true,
        }
    }
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        if exact(&value) {
            assert_eq!(
                ParamsDigest::of_value(&value),
                digest,
                "the Value of {text:?} digests differently"
            );
        }
    }
}

/// The generator's loader on any JSON: a module, or an error with a JSON pointer; never a panic.
/// An object is also loaded as each dialect (its `$schema` set), so that both ways of reading
/// definitions see every input.
pub fn schema_loader(data: &[u8]) {
    let Ok(root) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let mut inputs = vec![root.clone()];
    if let Value::Object(object) = &root {
        for dialect in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2020-12/schema",
        ] {
            let mut object = object.clone();
            object.insert("$schema".into(), dialect.into());
            inputs.push(Value::Object(object));
        }
    }
    for input in &inputs {
        if let Err(error) = mcp_codegen::load_schema(input) {
            assert!(
                error.pointer.is_empty() || error.pointer.starts_with('/'),
                "not a JSON pointer: {error}"
            );
        }
    }
}

/// The seed inputs of each target, from real data: the official examples and schemas (fetched
/// into `schema/` by `mcp-codegen fetch`), the peer traffic captured in `fuzz/seeds/`, the
/// validation corpus, and real sealed tokens. `root` is the repository.
pub fn seeds(root: &std::path::Path) -> Vec<(&'static str, Vec<u8>)> {
    let mut seeds: Vec<(&'static str, Vec<u8>)> = Vec::new();
    let read = |path: &std::path::Path| std::fs::read(path).unwrap_or_default();
    let files = |dir: std::path::PathBuf| -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        let mut pending = vec![dir];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    found.push(path);
                }
            }
        }
        found.sort();
        found
    };
    // Messages: each official example (whole messages and their parts), each captured line.
    for path in files(root.join("schema/2026-07-28/examples")) {
        let text = read(&path);
        seeds.push(("messages", text.clone()));
        seeds.push(("raw_object", text.clone()));
        if path.to_string_lossy().contains("/ElicitRequestFormParams/") {
            if let Ok(value) = serde_json::from_slice::<Value>(&text) {
                let schema = value["requestedSchema"].to_string();
                seeds.push(("requested_schema", schema.into_bytes()));
            }
        }
    }
    for path in files(root.join("fuzz/seeds/traffic")) {
        for line in read(&path).split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            seeds.push(("messages", line.to_vec()));
            seeds.push(("raw_object", line.to_vec()));
            if let Ok(message) = serde_json::from_slice::<Value>(line) {
                if let Some(params) = message.get("params") {
                    seeds.push(("params_digest", params.to_string().into_bytes()));
                }
            }
        }
    }
    for params in [
        r#"{"name":"transfer","arguments":{"amount":100000000000000000001,"memo":"\ud800"}}"#,
        r#"{"a":1e400,"b":[1.0,-0.0,25e-1],"c":{"r\u0065po":"x","repo":"y"}}"#,
    ] {
        seeds.push(("params_digest", params.as_bytes().to_vec()));
    }
    // Forms and answers: the validation corpus.
    for path in files(root.join("tests/validation-corpus")) {
        let Ok(corpus) = serde_json::from_slice::<Value>(&read(&path)) else {
            continue;
        };
        for group in corpus["groups"].as_array().into_iter().flatten() {
            for test in group["tests"].as_array().into_iter().flatten() {
                let case = format!("{}\n{}", group["schema"], test["content"]);
                seeds.push(("requested_schema", case.into_bytes()));
                seeds.push(("derived_form", test["content"].to_string().into_bytes()));
            }
        }
    }
    seeds.push((
        "derived_form",
        br#"{"name":"ada","email":"a@b.c","site":"https://x","day":"2026-02-28","at":"2026-02-28T10:00:00Z","count":3,"ratio":1.5,"flag":true,"color":"Red","colors":["Green"]}"#.to_vec(),
    ));
    // Tokens: real ones, of the same format, sealed with another secret under the same key id
    // (the target's sealer must refuse them all).
    let sealer = StateSealer::new(SealingKey::new(1, [0xa5; 32]));
    for (principal, payload) in [
        ("fuzz", &b"state"[..]),
        ("other", b""),
        ("fuzz", &[0u8; 300][..]),
    ] {
        let context = SealContext {
            principal,
            method: "tools/call",
            params_digest: ParamsDigest::of_value(&Value::Null),
            ttl: Duration::from_secs(60),
        };
        let now = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        if let Ok(token) = sealer.seal(payload, &context, now) {
            seeds.push(("sealed_state", token.into_bytes()));
        }
    }
    // Schemas: each definition of each pinned schema, alone (its references dangle: errors
    // the loader must report, not panic on).
    for path in files(root.join("schema")) {
        if path.file_name().is_some_and(|n| n == "schema.json") {
            let Ok(schema) = serde_json::from_slice::<Value>(&read(&path)) else {
                continue;
            };
            for key in ["$defs", "definitions"] {
                for (name, definition) in schema[key].as_object().into_iter().flatten() {
                    let alone = serde_json::json!({ key: { name: definition } });
                    seeds.push(("schema_loader", alone.to_string().into_bytes()));
                }
            }
        }
    }
    seeds
}
