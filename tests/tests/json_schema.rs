//! `schemars::JsonSchema` of the generated types (feature `schemars`), checked against the
//! official schemas (with their errata) with the `jsonschema` crate: on the official 2026-07-28
//! examples and on mutations of them, the schema of a generated type accepts exactly what the
//! official definition accepts, in every revision that has the definition. And the values drawn
//! from those schemas (`mcp_typed::valid`, features `arbitrary` and `proptest`): for every type
//! of every revision, accepted by the official definition and decoded and encoded back unchanged.
//! On the same values, the official examples and their mutations, the verdict path (`__check`,
//! feature `verdict`, what `mcp-check` judges most messages with) passes only what decodes and
//! validates.

use std::collections::BTreeMap;

use mcp_typed::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcp_typed_tests::drawn::{compile, definition_validator, definitions, draw_every_type, Drawn};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{json, Value};

type SchemaOf = fn(&str) -> Option<Schema>;
type RoundTrip = fn(&str, &str) -> Option<Result<Value, serde_json::Error>>;

/// Every revision: its name and the generated `__json_schema` lookup.
const REVISIONS: [(&str, SchemaOf); 6] = [
    ("2024-11-05", v2024_11_05::__json_schema),
    ("2025-03-26", v2025_03_26::__json_schema),
    ("2025-06-18", v2025_06_18::__json_schema),
    ("2025-11-25", v2025_11_25::__json_schema),
    ("2026-07-28", v2026_07_28::__json_schema),
    ("draft", draft::__json_schema),
];

/// Every revision's generated `__roundtrip` (decode a definition's JSON, encode it again).
const ROUND_TRIPS: [RoundTrip; 6] = [
    v2024_11_05::__roundtrip,
    v2025_03_26::__roundtrip,
    v2025_06_18::__roundtrip,
    v2025_11_25::__roundtrip,
    v2026_07_28::__roundtrip,
    draft::__roundtrip,
];

/// The official schema of `revision`, corrected by `schema/errata.toml` as the generator
/// corrects it (tests/tests/errata.rs shows each correction is needed).
fn official_root(revision: &str) -> Value {
    let workspace = mcp_codegen::workspace::Workspace::open(mcp_typed_tests::repo_root())
        .expect("revisions.toml");
    let source = mcp_codegen::fetch::SchemaSource::Dir(mcp_typed_tests::mirror());
    let revision = workspace
        .revisions
        .get(revision)
        .expect("a pinned revision");
    workspace.load(revision, &source).expect("loads").0
}

fn validator(schema: &Schema) -> jsonschema::Validator {
    compile(schema.as_value())
        .unwrap_or_else(|e| panic!("generated schema does not compile: {e}\n{schema:?}"))
}

/// The official examples of 2026-07-28: (definition, file name, instance).
fn examples() -> Vec<(String, String, Value)> {
    mcp_typed_tests::official_examples()
        .into_iter()
        .map(|example| {
            let instance = serde_json::from_str(&example.text).expect("json");
            (example.definition, example.file_name, instance)
        })
        .collect()
}

/// The instance and variants of it that break it in the ways a schema can notice: each member
/// (down to depth 3) removed, or replaced by a value of each JSON kind; one undeclared member.
fn mutations(instance: &Value) -> Vec<Value> {
    fn walk(value: &Value, depth: usize, out: &mut Vec<Value>, rebuild: &dyn Fn(Value) -> Value) {
        if depth == 3 {
            return;
        }
        let replacements = [
            json!(null),
            json!(7),
            json!(2.5),
            json!("text"),
            json!(true),
            json!([]),
            json!({}),
        ];
        match value {
            Value::Object(map) => {
                for (key, member) in map {
                    let mut without = map.clone();
                    without.remove(key);
                    out.push(rebuild(Value::Object(without)));
                    for replacement in &replacements {
                        let mut changed = map.clone();
                        changed.insert(key.clone(), replacement.clone());
                        out.push(rebuild(Value::Object(changed)));
                    }
                    let inner = |v: Value| {
                        let mut changed = map.clone();
                        changed.insert(key.clone(), v);
                        rebuild(Value::Object(changed))
                    };
                    walk(member, depth + 1, out, &inner);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let inner = |v: Value| {
                        let mut changed = items.clone();
                        changed[i] = v;
                        rebuild(Value::Array(changed))
                    };
                    for replacement in &replacements {
                        out.push(inner(replacement.clone()));
                    }
                    walk(item, depth + 1, out, &inner);
                }
            }
            _ => {}
        }
    }
    let mut out = vec![instance.clone()];
    if let Value::Object(map) = instance {
        let mut extra = map.clone();
        extra.insert("undeclaredMember".into(), json!(1));
        out.push(Value::Object(extra));
    }
    walk(instance, 0, &mut out, &|v| v);
    out
}

/// Every official example validates against the schema of its generated type.
#[test]
fn official_examples_validate_against_the_generated_schemas() {
    let mut checked = 0;
    for (definition, file, instance) in examples() {
        let schema = v2026_07_28::__json_schema(&definition)
            .unwrap_or_else(|| panic!("no generated type for `{definition}`"));
        let errors: Vec<String> = validator(&schema)
            .iter_errors(&instance)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{definition}/{file}: {errors:#?}");
        checked += 1;
    }
    assert_eq!(checked, 129);
}

/// On the examples and their mutations, each revision's generated schema and its official
/// definition agree instance by instance (the examples are 2026-07-28 messages, so many are
/// invalid under older revisions: the agreement covers rejections as well).
#[test]
fn generated_schemas_accept_what_the_official_definitions_accept() {
    let examples = examples();
    let mut agreements = 0usize;
    let mut rejections = 0usize;
    let mut disagreements = Vec::new();
    for (revision, schema_of) in REVISIONS {
        let root = official_root(revision);
        let (key, names) = definitions(&root);
        let mut cache: BTreeMap<&str, (jsonschema::Validator, jsonschema::Validator)> =
            BTreeMap::new();
        for (definition, file, instance) in &examples {
            if !names.contains(definition) {
                continue;
            }
            let (official, ours) = cache.entry(definition).or_insert_with(|| {
                let schema = schema_of(definition)
                    .unwrap_or_else(|| panic!("{revision}: no generated type for `{definition}`"));
                (
                    definition_validator(&root, key, definition),
                    validator(&schema),
                )
            });
            for variant in mutations(instance) {
                let expected = official.is_valid(&variant);
                if ours.is_valid(&variant) == expected {
                    agreements += 1;
                    rejections += usize::from(!expected);
                } else {
                    disagreements.push(format!(
                        "{revision} {definition}/{file}: official says {expected} for {variant}"
                    ));
                }
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first ones:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    println!("{agreements} instances: same answer; {rejections} of them rejected by both");
    // The mutations must exercise both answers, or the agreement proves little.
    assert!(agreements > 30_000, "{agreements} instances checked");
    assert!(rejections > 20_000, "{rejections} rejections");
}

/// Every definition of every revision has a schema that compiles and holds no unresolved
/// reference. The call sets (`ClientRequest`, …) encode as `method` + `params`, not as their
/// definitions, so the lookup by definition leaves them out (their schemas are tested below).
#[test]
fn every_definition_of_every_revision_has_a_schema() {
    let call_sets = [
        "ClientRequest",
        "ClientNotification",
        "ServerRequest",
        "ServerNotification",
    ];
    let mut count = 0;
    for (revision, schema_of) in REVISIONS {
        let (_, names) = definitions(&official_root(revision));
        for name in names {
            let Some(schema) = schema_of(&name) else {
                assert!(
                    call_sets.contains(&name.as_str()),
                    "{revision}: no generated type for `{name}`"
                );
                continue;
            };
            let text = serde_json::to_string(&schema).expect("encode");
            assert!(
                !text.contains("\"mcp:"),
                "{revision} {name}: unresolved reference"
            );
            assert!(
                jsonschema::meta::is_valid(schema.as_value()),
                "{revision} {name}: not a valid JSON Schema"
            );
            validator(&schema);
            count += 1;
        }
    }
    assert!(count > 600, "{count} definitions");
}

/// A generator with draft-07 settings writes `definitions` and `#/definitions/...` references;
/// the examples still validate.
#[test]
fn draft07_settings_are_honoured() {
    let generator = SchemaSettings::draft07().into_generator();
    let schema = generator.into_root_schema_for::<v2026_07_28::CallToolResult>();
    let value = schema.as_value();
    assert!(value.get("definitions").is_some(), "{value}");
    assert!(value.get("$defs").is_none());
    let text = value.to_string();
    assert!(text.contains("#/definitions/ContentBlock"), "{text}");
    let v = validator(&schema);
    for (definition, file, instance) in examples() {
        if definition == "CallToolResult" {
            assert!(v.is_valid(&instance), "{file}");
        }
    }
}

/// A server's own type embeds MCP types: the same definition of two revisions gets two entries
/// (ids are qualified by module), and the embedded schema checks the embedded values.
#[test]
fn mcp_types_embed_in_a_servers_own_schema() {
    #[derive(JsonSchema, serde::Serialize)]
    #[allow(dead_code)]
    struct Catalog {
        current: Vec<v2026_07_28::Tool>,
        legacy: Vec<v2025_11_25::Tool>,
        annotations: Option<v2026_07_28::ToolAnnotations>,
    }
    let schema = schemars::schema_for!(Catalog);
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .expect("$defs");
    assert!(defs.contains_key("Tool"), "{:?}", defs.keys());
    assert!(defs.contains_key("Tool2"), "{:?}", defs.keys());
    assert!(defs.contains_key("ToolAnnotations"));
    let v = validator(&schema);
    let tool = json!({"name": "get_weather", "inputSchema": {"type": "object"}});
    assert!(v.is_valid(&json!({"current": [tool], "legacy": [tool], "annotations": null})));
    // `inputSchema` is required by both revisions' `Tool`.
    let broken = json!({"name": "get_weather"});
    assert!(!v.is_valid(&json!({"current": [broken], "legacy": [], "annotations": null})));
    assert!(!v.is_valid(&json!({"current": [], "legacy": [broken], "annotations": null})));
    // `readOnlyHint` is a boolean.
    let annotations = json!({"readOnlyHint": "yes"});
    assert!(!v.is_valid(&json!({"current": [], "legacy": [], "annotations": annotations})));
}

/// A definition that is only a type alias (`Cursor = String`) is inlined with its own schema
/// where another type refers to it, keeping the official description.
#[test]
fn alias_definitions_are_inlined() {
    let schema = schemars::schema_for!(v2026_07_28::ListToolsResult);
    let cursor = schema
        .pointer("/properties/nextCursor")
        .expect("nextCursor");
    assert_eq!(cursor.get("type"), Some(&json!("string")), "{cursor}");
    assert!(cursor.get("$ref").is_none(), "{cursor}");
}

/// The call sets and envelopes encode as JSON-RPC messages, not as their schema definitions:
/// their schemas describe what they encode. Every official request, notification and response
/// example that decodes as a `ClientMessage`/`ServerMessage` validates against its schema, and
/// broken envelopes do not.
#[test]
fn message_envelopes_describe_what_they_encode() {
    let client = validator(&schemars::schema_for!(v2026_07_28::ClientMessage));
    let server = validator(&schemars::schema_for!(v2026_07_28::ServerMessage));
    let mut decoded = 0;
    for (definition, file, instance) in examples() {
        let text = instance.to_string();
        if let Ok(message) = text.parse::<v2026_07_28::ClientMessage>() {
            assert!(
                client.is_valid(&instance),
                "{definition}/{file} as ClientMessage"
            );
            assert!(client.is_valid(&serde_json::to_value(&message).expect("encode")));
            decoded += 1;
        }
        if let Ok(message) = text.parse::<v2026_07_28::ServerMessage>() {
            assert!(
                server.is_valid(&instance),
                "{definition}/{file} as ServerMessage"
            );
            assert!(server.is_valid(&serde_json::to_value(&message).expect("encode")));
            decoded += 1;
        }
    }
    assert!(decoded > 30, "{decoded} examples decoded as messages");
    // Revision 2026-07-28 requires `_meta` (protocol version, client info) in every request.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let params = json!({"_meta": meta, "name": "x"});
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    assert!(client.is_valid(&call));
    assert!(
        !server.is_valid(&call),
        "servers send no requests in 2026-07-28"
    );
    for broken in [
        json!({"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": params}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"_meta": meta}}),
        json!({"jsonrpc": "2.0", "id": null, "method": "tools/call", "params": params}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "no/such/method", "params": params}),
        json!([call]),
    ] {
        assert!(!client.is_valid(&broken), "{broken}");
        assert!(
            broken
                .to_string()
                .parse::<v2026_07_28::ClientMessage>()
                .is_err(),
            "{broken}"
        );
    }
    // The call set alone is `method` + `params`.
    let requests = validator(&schemars::schema_for!(v2026_07_28::ClientRequest));
    assert!(requests.is_valid(&json!({"method": "tools/call", "params": params})));
    assert!(!requests.is_valid(&json!({"method": "tools/call"})));
}

/// Revision 2025-03-26 has JSON-RPC batches: its envelopes accept a non-empty array of requests
/// and notifications, or of responses, not a mix and not an empty one.
#[test]
fn batch_envelopes_of_2025_03_26() {
    let client = validator(&schemars::schema_for!(v2025_03_26::ClientMessage));
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = json!({"jsonrpc": "2.0", "id": 2, "result": {}});
    assert!(client.is_valid(&json!([ping, initialized])));
    assert!(client.is_valid(&json!([response])));
    assert!(!client.is_valid(&json!([])));
    assert!(!client.is_valid(&json!([ping, response])));
    let batch: v2025_03_26::ClientMessage = json!([ping, initialized])
        .to_string()
        .parse()
        .expect("batch");
    assert!(client.is_valid(&serde_json::to_value(&batch).expect("encode")));
}

type CheckOf = fn(&str, &str) -> Option<bool>;
type ValidateOf =
    fn(
        &str,
        &str,
    ) -> Option<Result<Result<(), mcp_typed::validate::Violations>, serde_json::Error>>;

/// Every revision's verdict path (`__check`) and its decode and `validate()` (`__validate`).
const VERDICTS: [(CheckOf, ValidateOf); 6] = [
    (v2024_11_05::__check, v2024_11_05::__validate),
    (v2025_03_26::__check, v2025_03_26::__validate),
    (v2025_06_18::__check, v2025_06_18::__validate),
    (v2025_11_25::__check, v2025_11_25::__validate),
    (v2026_07_28::__check, v2026_07_28::__validate),
    (draft::__check, draft::__validate),
];

/// What the verdict path made of a set of texts, against decode and `validate()`.
#[derive(Default)]
struct Verdicts {
    texts: usize,
    /// Texts both found valid.
    passed: usize,
    /// Texts the verdict path passed that decode or `validate()` refuse: must be none.
    unsound: Vec<String>,
    /// Valid texts the verdict path left to the decoder (allowed: it then decodes).
    left: usize,
    /// Valid drawn values and official examples it left to the decoder: must be none, or
    /// `mcp-check` decodes what most traffic is.
    left_unmutated: Vec<String>,
}

impl Verdicts {
    fn judge(
        &mut self,
        (check, validate): (CheckOf, ValidateOf),
        name: &str,
        text: &str,
        mutated: bool,
    ) {
        self.texts += 1;
        let verdict = check(name, text).unwrap_or_else(|| panic!("no __check of {name}"));
        let valid = matches!(validate(name, text), Some(Ok(Ok(()))));
        match (verdict, valid) {
            (true, true) => self.passed += 1,
            (true, false) => self.unsound.push(format!("{name}: {text}")),
            (false, true) if mutated => self.left += 1,
            (false, true) => self.left_unmutated.push(format!("{name}: {text}")),
            (false, false) => {}
        }
    }

    /// `value`, its mutations, and its text with its first member written twice.
    fn judge_all(&mut self, revision: (CheckOf, ValidateOf), name: &str, value: &Value) {
        self.judge(revision, name, &value.to_string(), false);
        for mutation in mutations(value).iter().skip(1) {
            self.judge(revision, name, &mutation.to_string(), true);
        }
        if let Some((key, member)) = value.as_object().and_then(|map| map.iter().next()) {
            let text = value.to_string();
            let twice = format!("{{{}:{member},{}", Value::from(key.as_str()), &text[1..]);
            self.judge(revision, name, &twice, true);
        }
    }
}

/// The verdict path (`__check`) against decode and `validate()` (`__validate`), the contract
/// `mcp-check` rests on: on values drawn from every type of every revision, their mutations
/// (members removed, replaced by each kind of value, added, written twice) and the official
/// examples and theirs, it passes nothing they refuse, and it passes every drawn value and
/// example (what keeps most traffic off the decoder).
#[test]
fn the_verdict_path_passes_only_what_decodes_and_validates() {
    let mut all = Verdicts::default();
    for ((revision, schema_of), verdicts) in REVISIONS.into_iter().zip(VERDICTS) {
        let (_, names) = definitions(&official_root(revision));
        for name in &names {
            let Some(schema) = schema_of(name).map(Schema::to_value) else {
                continue;
            };
            for seed in 0..draws() {
                let Ok(value) = mcp_typed_json::values::Values::new(&schema, seed).of(&schema)
                else {
                    break;
                };
                all.judge_all(verdicts, name, &value);
            }
        }
    }
    for (definition, _, instance) in examples() {
        all.judge_all(VERDICTS[4], &definition, &instance);
    }
    let Verdicts {
        texts,
        passed,
        unsound,
        left,
        left_unmutated,
    } = all;
    println!(
        "{texts} texts: {passed} passed by the verdict path and valid, {} passed and invalid, \
         {left} valid mutations and {} valid drawn values or examples left to the decoder",
        unsound.len(),
        left_unmutated.len()
    );
    assert!(
        unsound.is_empty(),
        "passed, yet refused:\n{}",
        unsound.join("\n")
    );
    assert!(
        left_unmutated.is_empty(),
        "left to the decoder:\n{}",
        left_unmutated.join("\n")
    );
    assert!(passed > 4000, "{passed}");
}

/// Undeclared members past the few the verdict path compares one by one (it hashes the rest,
/// so that a peer's object of many members is not judged in their square): each name still
/// once, as the decoder takes them.
#[test]
fn many_undeclared_members_are_each_taken_once() {
    let members = |repeat: Option<(usize, usize)>| {
        (0..40)
            .map(|i| match repeat {
                Some((at, earlier)) if i == at => format!("\"m{earlier}\":{i}"),
                _ => format!("\"m{i}\":{i}"),
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let (check, validate) = VERDICTS[3];
    // A repeat among the first few, and one of a name before the hashing began, found after it.
    for repeat in [None, Some((5, 2)), Some((30, 3)), Some((39, 20))] {
        let text = format!("{{\"name\":\"echo\",{}}}", members(repeat));
        let passed = check("CallToolRequestParams", &text).expect("a definition");
        let valid = matches!(validate("CallToolRequestParams", &text), Some(Ok(Ok(()))));
        assert_eq!(passed, repeat.is_none(), "{text}");
        assert_eq!(valid, repeat.is_none(), "{text}");
    }
}

/// How many values are drawn per type (CI's budget; `MCP_TYPED_DRAWS` runs more).
fn draws() -> u64 {
    std::env::var("MCP_TYPED_DRAWS").map_or(6, |n| n.parse().expect("MCP_TYPED_DRAWS: a number"))
}

/// Values drawn from every generated type's own schema (what `mcp_typed::valid::draw` does for
/// one type): each is accepted by the official definition, and decodes into the type and
/// encodes back to the same JSON.
#[test]
fn values_drawn_for_every_type_are_valid_and_round_trip() {
    let mut all = Drawn::default();
    for ((revision, schema_of), round_trip) in REVISIONS.into_iter().zip(ROUND_TRIPS) {
        // The schema's `anyOf` takes any object with a string `resultType` as an
        // `InputRequiredResult`; the types read `resultType` as the conformance suite does
        // (`input_required`, else the complete result): a result of another `resultType`
        // without the complete result's members is no result.
        let other_result_type = |drawn: &Value| {
            !matches!(
                drawn["result"]["resultType"].as_str(),
                None | Some("input_required" | "complete")
            )
        };
        let drawn = draw_every_type(
            revision,
            &official_root(revision),
            draws(),
            |name| schema_of(name).map(Schema::to_value),
            round_trip,
            other_result_type,
        );
        all.types += drawn.types;
        all.values += drawn.values;
        all.excused += drawn.excused;
        all.failures.extend(drawn.failures);
    }
    let Drawn {
        types,
        values,
        excused,
        failures,
    } = all;
    println!(
        "{types} types of 6 revisions, {values} values drawn ({excused} results of another \
         resultType refused), {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(types > 600, "{types} types");
    assert!(excused < values / 50, "{excused} of {values}");
}

/// The typed API, as a user's property test and fuzz target take it: `valid::strategy` under
/// proptest, `Valid<T>` from a fuzzer's bytes, each value valid and the same after a round trip.
#[test]
fn the_typed_api_draws_valid_messages() {
    use mcp_typed::valid::{strategy, Valid};
    use mcp_typed::validate::Validate as _;
    use proptest::prelude::*;

    let mut runner = proptest::test_runner::TestRunner::deterministic();
    runner
        .run(&strategy::<v2026_07_28::CallToolRequest>(), |request| {
            prop_assert_eq!(request.validate(), Ok(()));
            let text = serde_json::to_string(&request).expect("encodes");
            let back: v2026_07_28::CallToolRequest = serde_json::from_str(&text).expect("decodes");
            prop_assert_eq!(back, request);
            Ok(())
        })
        .expect("every drawn request is valid");

    let bytes: Vec<u8> = (0..=255).collect();
    let mut input = arbitrary::Unstructured::new(&bytes);
    let mut drawn = 0;
    while !input.is_empty() {
        let Valid(result) = (input.arbitrary::<Valid<v2025_11_25::CallToolResult>>())
            .expect("a value for every seed");
        assert_eq!(result.validate(), Ok(()), "{result:?}");
        drawn += 1;
    }
    assert_eq!(drawn, 32, "8 bytes of the input per value");
}
