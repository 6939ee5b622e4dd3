//! `mcp_wire_check::values` on every definition of every pinned revision: each drawn value is
//! valid under the `jsonschema` crate, and each drawn message or result decodes into the
//! generated types of its revision, passes their `validate()` and encodes back to the same JSON.

use std::collections::BTreeMap;

use mcp_typed::validate::Validate as _;
use mcp_typed_tests::drawn::definitions;
use mcp_wire_check::values::Values;
use mcp_wire_check::{traffic, Checker, Revision, Side};
use serde_json::{json, Value};

/// Values drawn per definition, each from its own seed.
const DRAWS: u64 = 25;

fn schema(revision: Revision) -> Value {
    let path = mcp_typed_tests::mirror()
        .join(revision.version())
        .join("schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema.json is JSON")
}

#[test]
fn every_definition_gets_values_its_schema_accepts() {
    let mut covered = 0;
    let mut failures = Vec::new();
    for revision in Revision::ALL {
        let root = schema(revision);
        let key = definitions(&root).0;
        let validators = jsonschema::options()
            .should_validate_formats(true)
            .with_format("byte", |_: &str| true)
            .build_map(&root)
            .unwrap_or_else(|e| panic!("{revision}: {e}"));
        for name in root[key].as_object().expect("definitions").keys() {
            let pointer = format!("#/{key}/{name}");
            let validator = validators
                .get(&pointer)
                .expect("a validator per definition");
            for seed in 0..DRAWS {
                let drawn = Values::new(&root, seed).of_definition(name);
                match drawn {
                    Ok(value) if validator.is_valid(&value) => {}
                    Ok(value) => {
                        let error = validator.iter_errors(&value).next().unwrap();
                        failures.push(format!(
                            "{revision} {name} seed {seed}: {error} at {}: {value}",
                            error.instance_path()
                        ));
                        break;
                    }
                    Err(error) => {
                        failures.push(format!("{revision} {name}: {error}"));
                        break;
                    }
                }
            }
            covered += 1;
        }
    }
    println!(
        "{covered} definitions of {} revisions, {DRAWS} values each",
        Revision::ALL.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(covered > 500, "{covered} definitions");
}

/// Decodes `message` as the generated message type of `revision` sent by `client` (or the
/// server), validates it and encodes it again: what is wrong, if anything.
fn round_trip(revision: Revision, client: bool, message: &Value) -> Result<(), String> {
    macro_rules! through {
        ($m:ident) => {{
            use mcp_typed::$m as m;
            let text = message.to_string();
            let encoded = if client {
                let decoded: m::ClientMessage = text.parse().map_err(|e| format!("decode: {e}"))?;
                decoded.validate().map_err(|e| format!("validate: {e}"))?;
                serde_json::to_value(&decoded)
            } else {
                let decoded: m::ServerMessage = text.parse().map_err(|e| format!("decode: {e}"))?;
                decoded.validate().map_err(|e| format!("validate: {e}"))?;
                serde_json::to_value(&decoded)
            };
            let encoded = encoded.map_err(|e| format!("encode: {e}"))?;
            if mcp_typed_tests::same_json(&encoded, message) {
                Ok(())
            } else {
                Err(format!("encoded as {encoded}"))
            }
        }};
    }
    match revision {
        Revision::V2024_11_05 => through!(v2024_11_05),
        Revision::V2025_03_26 => through!(v2025_03_26),
        Revision::V2025_06_18 => through!(v2025_06_18),
        Revision::V2025_11_25 => through!(v2025_11_25),
        Revision::V2026_07_28 => through!(v2026_07_28),
    }
}

/// The `_meta` member by which a 2026-07-28 request states its revision.
const STATED_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The members of a JSON-RPC request or notification.
const ENVELOPE: [&str; 4] = ["jsonrpc", "id", "method", "params"];

#[test]
fn drawn_messages_and_results_round_trip_through_the_generated_types() {
    let mut checked = BTreeMap::new();
    let mut failures = Vec::new();
    let mut unreached = Vec::new();
    for revision in Revision::ALL {
        let root = schema(revision);
        let key = definitions(&root).0;
        let unions = [
            ("ClientRequest", true),
            ("ClientNotification", true),
            ("ClientResult", true),
            ("ServerRequest", false),
            ("ServerNotification", false),
            ("ServerResult", false),
        ];
        for (union, client) in unions {
            // 2026-07-28's server sends no requests, so its client no responses; the schema
            // keeps the union.
            let answers_nothing = union == "ClientResult" && revision == Revision::V2026_07_28;
            if root[key].get(union).is_none() || answers_nothing {
                continue;
            }
            let branches = root[key][union]["anyOf"].as_array().map_or(1, Vec::len);
            let mut methods = std::collections::BTreeSet::new();
            for seed in 0..DRAWS * 8 {
                let drawn = Values::new(&root, seed).of_definition(union).unwrap();
                methods.extend(
                    drawn
                        .get("method")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                );
                let message = if union.ends_with("Result") {
                    json!({"jsonrpc": "2.0", "id": seed, "result": drawn})
                } else {
                    let mut message = drawn.clone();
                    let members = message.as_object_mut().expect("a message is an object");
                    // The envelope takes no member JSON-RPC does not define: the codec refuses
                    // one (-32600) where the schema would allow it.
                    members.retain(|name, _| ENVELOPE.contains(&name.as_str()));
                    members.entry("jsonrpc").or_insert(json!("2.0"));
                    if union.ends_with("Request") {
                        members.entry("id").or_insert(json!(seed));
                    }
                    message
                };
                if let Err(why) = round_trip(revision, client, &message) {
                    failures.push(format!(
                        "{revision} {union} seed {seed}: {why}\n  {message}"
                    ));
                }
                // The referee finds nothing wrong with a request or notification (a result
                // answering no request seen is reported as such).
                if !union.ends_with("Result") {
                    let side = if client { Side::Client } else { Side::Server };
                    let mut checker = Checker::new(Some(revision)).sent_by(side);
                    let text = message.to_string();
                    let verdict = checker.check(&traffic::entry(1, &text));
                    if !verdict.is_valid() {
                        failures.push(format!(
                            "{revision} {union} seed {seed}: mcp-check: {:?}\n  {message}",
                            verdict.violations
                        ));
                    }
                    // Every 2026-07-28 request states its revision in `params._meta`: the quick
                    // reading of a passed request's stated version rests on it.
                    if revision == Revision::V2026_07_28 && union == "ClientRequest" {
                        let mut unstated = message.clone();
                        let meta = unstated["params"]["_meta"].as_object_mut();
                        let stated = meta.and_then(|m| m.remove(STATED_VERSION));
                        let text = unstated.to_string();
                        let verdict = (Checker::new(Some(revision)).sent_by(side))
                            .check(&traffic::entry(1, &text));
                        if stated.is_none() || verdict.is_valid() {
                            failures.push(format!(
                                "{revision} {union} seed {seed}: valid without `_meta`'s \
                                 {STATED_VERSION}\n  {message}"
                            ));
                        }
                    }
                }
                *checked.entry(revision.version()).or_insert(0) += 1;
            }
            // Every request and notification of the union was drawn.
            if !union.ends_with("Result") && methods.len() != branches {
                unreached.push(format!(
                    "{revision} {union}: {} of {branches}",
                    methods.len()
                ));
            }
        }
    }
    assert!(unreached.is_empty(), "methods not drawn: {unreached:?}");
    println!("round trips: {checked:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
