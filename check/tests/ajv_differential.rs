//! The differential test of `mcp-check` against the conformance suite's own wire validation
//! (ajv 8.20.0 on the same revision's schema.json, dispatched and configured as
//! @modelcontextprotocol/conformance 0.2.0-alpha.12 does: tests/interop/ajv/wire_validate.mjs).
//!
//! Over the corpus (the official 2026-07-28 examples, as messages), the recorded SDK traffic
//! (fuzz/seeds/traffic, paired as check/tests/traffic.rs does), a smallest instance of each
//! message type the corpus lacks, three messages of each message type drawn from its schema
//! (`mcp_wire_check::values`), and generated mutations breaking each constraint, member type
//! and required member of each message type of each revision: both sides must give the same
//! verdict (valid or not) on every message, or the difference must match one of [`REASONS`],
//! each an explained disagreement with its evidence. 2024-11-05, which the suite does not
//! support, is validated by ajv the same way (draft-07).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_wire_check::{traffic, Checker, Revision, Side, Verdict};
use serde_json::{json, Value};
use support::ajv::{self, AjvError};
use support::mutate::{envelope_mutations, mutations};
use support::schema::Schema;

/// One message checked by our side.
struct Checked {
    source: &'static str,
    label: String,
    message: Value,
    verdict: Verdict,
}

/// One message checked by both sides.
struct Outcome<'a> {
    checked: &'a Checked,
    theirs: &'a [AjvError],
    /// The schema of the revision our side checked it in.
    schema: &'a Schema,
}

impl Outcome<'_> {
    fn ours_valid(&self) -> bool {
        self.checked.verdict.is_valid()
    }
    fn theirs_valid(&self) -> bool {
        self.theirs.is_empty()
    }
    fn method(&self) -> Option<&str> {
        self.checked.message.get("method").and_then(Value::as_str)
    }
    /// Whether we found it invalid, only for the `keyword` (`method`, `jsonrpc`, …).
    fn ours_only(&self, keyword: &str) -> bool {
        let violations = &self.checked.verdict.violations;
        !violations.is_empty() && violations.iter().all(|v| v.keyword == keyword)
    }
}

/// An explained disagreement: which differences it covers, why, and where that is shown.
struct Reason {
    id: &'static str,
    why: &'static str,
    evidence: &'static str,
    applies: fn(&Outcome) -> bool,
}

/// Every explained disagreement besides the errata (each erratum of schema/errata.toml explains
/// the disagreements that ajv on the corrected schema no longer has). Any other one fails.
const REASONS: &[Reason] = &[
    Reason {
        id: "not-a-wire-message",
        why: "a definition with this method exists but no side sends it as a JSON-RPC message in \
              this revision (2026-07-28: sampling/createMessage, elicitation/create and roots/list \
              are input requests inside a result); the suite dispatches to any definition whose \
              `method` is a constant",
        evidence: "2026-07-28 schema.json: no ServerRequest; InputRequest is \
                   anyOf[CreateMessageRequest, ElicitRequest, ListRootsRequest]",
        applies: |o| {
            o.theirs_valid()
                && o.ours_only("method")
                && o.method().is_some_and(|m| !o.schema.on_the_wire(m))
        },
    },
    Reason {
        id: "suite-skips-the-envelope-of-known-methods",
        why: "before 2025-11-25 a method's definition (CallToolRequest) has `method` and `params` \
              only; the suite validates a known method's message against it alone, never against \
              JSONRPCRequest/JSONRPCNotification, so a wrong or missing `jsonrpc` or `id` passes",
        evidence: "2025-06-18 schema.json: CallToolRequest.required = [method, params]; \
                   JSONRPCRequest.required = [id, jsonrpc, method]",
        applies: |o| {
            o.theirs_valid()
                && o.schema.revision < Revision::V2025_11_25
                && o.method().is_some_and(|m| o.schema.methods.contains_key(m))
                && !o.ours_valid()
                && (o.checked.verdict.violations.iter())
                    .all(|v| v.pointer == "/jsonrpc" || v.pointer == "/id" || v.pointer.is_empty())
        },
    },
    Reason {
        id: "closed-envelope (ours)",
        why: "a message with a top-level member besides `jsonrpc`, `id`, `method`, `params`, \
              `result` and `error`: the official envelope definitions leave it open (no \
              `additionalProperties`), our types read the JSON-RPC envelope as closed and \
              refuse the member (found by the messages drawn from the schemas)",
        evidence: "2025-11-25 schema.json: JSONRPCRequest has no additionalProperties; JSON-RPC \
                   2.0 §4 and §5 list a request's and a response's members; \
                   generated/src/__private/diagnosis.rs: `unknown member`",
        applies: |o| {
            o.theirs_valid()
                && !o.ours_valid()
                && (o.checked.verdict.violations.iter()).all(|v| {
                    v.expected.starts_with("unknown member") && v.pointer.matches('/').count() == 1
                })
        },
    },
    Reason {
        id: "integer-beyond-i64 (ours: a limit)",
        why: "an integer beyond 64 bits (2^64 − 1, 1e20): valid JSON Schema `integer`s (which \
              set no range, and which JavaScript reads as doubles), beyond the i64 of our types",
        evidence: "JSON Schema 2020-12 validation §6.1.1 (no range for `integer`); \
                   RFC 8259 §6 (numbers beyond IEEE 754 double precision are implementation \
                   limits)",
        applies: |o| {
            o.theirs_valid()
                && !o.ours_valid()
                && ours_refuse_integers(o)
                && numbers(&o.checked.message).iter().any(|n| {
                    n.as_u64().is_some_and(|u| u > i64::MAX as u64)
                        || is_integral_float_beyond_i64(n)
                })
        },
    },
];

/// Every number in `value`.
fn numbers(value: &Value) -> Vec<&serde_json::Number> {
    match value {
        Value::Number(n) => vec![n],
        Value::Array(items) => items.iter().flat_map(numbers).collect(),
        Value::Object(members) => members.values().flat_map(numbers).collect(),
        _ => Vec::new(),
    }
}

/// Whether `n` is written as a float with no fractional part outside i64's range (one within
/// it is the integer it stands for, to our types as to ajv).
fn is_integral_float_beyond_i64(n: &serde_json::Number) -> bool {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    n.is_f64()
        && n.as_f64()
            .is_some_and(|f| f.fract() == 0.0 && !(-LIMIT..LIMIT).contains(&f))
}

/// Whether every violation we found is a number refused as an i64 (`invalid type: floating
/// point`, `invalid value: integer`, or a union none of whose members took it).
fn ours_refuse_integers(o: &Outcome) -> bool {
    (o.checked.verdict.violations.iter()).all(|v| {
        v.expected.contains("floating point `")
            || v.expected.contains("invalid value: integer `")
            || v.expected.contains("no variant of")
    })
}

/// Checks one message, after the request it answers when it is a response (so that the result
/// is checked as that request's).
fn check_one(
    revision: Revision,
    from: Option<Side>,
    request: Option<(Side, &str)>,
    message: &Value,
) -> Verdict {
    let mut checker = Checker::new(Some(revision));
    if let Some((side, method)) = request {
        let id = message.get("id").cloned().unwrap_or(json!(1));
        let asked = json!({"from": side.name(), "message":
            {"jsonrpc": "2.0", "id": id, "method": method, "params": {}}});
        checker.check(&traffic::entry(1, &asked.to_string()));
    }
    // Twice: in the order peers write (`jsonrpc`, `id` first), which the checker's quick
    // readings take, and read by its framing only: both must come to the same verdict.
    let record = |message: String| match from {
        Some(side) => format!("{{\"from\":\"{}\",\"message\":{message}}}", side.name()),
        None => format!("{{\"message\":{message}}}"),
    };
    let mut framed = checker.clone().framed_only();
    let verdict = checker.check(&traffic::entry(2, &record(in_peer_order(message))));
    let by_framing = framed.check(&traffic::entry(2, &record(message.to_string())));
    assert_eq!(
        verdict, by_framing,
        "the two readings of {message} disagree"
    );
    verdict
}

/// `message` written as peers write it: `jsonrpc`, `id`, `method`, `params`, `result`, `error`
/// first, then any other member.
fn in_peer_order(message: &Value) -> String {
    let Some(members) = message.as_object() else {
        return message.to_string();
    };
    const FIRST: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];
    let first = FIRST
        .iter()
        .filter_map(|name| Some((*name, members.get(*name)?)));
    let rest = (members.iter())
        .filter(|(name, _)| !FIRST.contains(&name.as_str()))
        .map(|(name, value)| (name.as_str(), value));
    let written: Vec<String> = (first.chain(rest))
        .map(|(name, value)| format!("{}:{value}", Value::from(name)))
        .collect();
    format!("{{{}}}", written.join(","))
}

/// The official 2026-07-28 examples that are messages, or parts of one that make a message:
/// a result (as the response to its request), an error object, a request's parameters.
fn examples(schema: &Schema) -> Vec<Checked> {
    let mut out = Vec::new();
    for example in mcp_typed_tests::official_examples() {
        let value: Value = serde_json::from_str(&example.text).expect("an example is JSON");
        let definition = example.definition.as_str();
        let label = format!("{definition}/{}", example.file_name);
        let result_of = |name: &str| -> Option<String> {
            if name == "InputRequiredResult" {
                return Some("tools/call".to_owned());
            }
            schema.method_of_result(name).map(str::to_owned)
        };
        let (message, request) = if value.get("jsonrpc").is_some() {
            let method = definition.strip_suffix("Response").and_then(result_of);
            (value, method)
        } else if let Some(method) = result_of(definition) {
            (
                json!({"jsonrpc": "2.0", "id": 1, "result": value}),
                Some(method),
            )
        } else if value.get("code").is_some() && value.get("message").is_some() {
            (json!({"jsonrpc": "2.0", "id": 1, "error": value}), None)
        } else if let Some(method) = schema.methods_with_params(definition).first() {
            let def = schema.def(&schema.methods[method]);
            let mut message = json!({"jsonrpc": "2.0", "method": method, "params": value});
            if def["required"]
                .as_array()
                .is_some_and(|r| r.contains(&json!("id")))
            {
                message["id"] = json!(1);
            }
            (message, None)
        } else {
            continue; // a part of a message only (a Tool, a content block)
        };
        let request = request.as_deref().map(|m| (schema.sender_of(m), m));
        let from = request.map(|(side, _)| side.other());
        let verdict = check_one(Revision::V2026_07_28, from, request, &message);
        out.push(Checked {
            source: "official examples",
            label,
            message,
            verdict,
        });
    }
    out
}

/// The recorded SDK traffic, each recording through one checker as check/tests/traffic.rs does.
fn recorded_traffic() -> Vec<Checked> {
    let recordings = [
        ("python-sdk-2.3.0.jsonl", Checker::new(None)),
        (
            "typescript-sdk-1.32.2-client.jsonl",
            Checker::new(None).sent_by(Side::Client),
        ),
        (
            "typescript-sdk-1.32.2-server.jsonl",
            Checker::new(Some(Revision::V2025_11_25)).sent_by(Side::Server),
        ),
    ];
    let mut out = Vec::new();
    for (name, mut checker) in recordings {
        let path = mcp_typed_tests::repo_root()
            .join("fuzz/seeds/traffic")
            .join(name);
        let text = std::fs::read_to_string(&path).expect("recorded traffic");
        for entry in traffic::read(&text) {
            let verdict = checker.check(&entry);
            out.push(Checked {
                source: "recorded traffic",
                label: format!("{name}:{}", entry.line),
                message: (entry.message.as_deref().ok())
                    .and_then(|text| serde_json::from_str(text).ok())
                    .expect("a recorded message is JSON"),
                verdict,
            });
        }
    }
    out
}

/// The message types of a revision: each request and notification definition by its method,
/// each result definition by its request's method, each error response definition.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum MessageType {
    Sent(String),
    Result(String),
    Error(String),
}

/// The message type the suite validates `checked` as (`None`: the envelope only).
fn type_of(schema: &Schema, checked: &Checked) -> Option<MessageType> {
    let message = &checked.message;
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        return (schema.methods.contains_key(method)).then(|| MessageType::Sent(method.to_owned()));
    }
    if let Some(error) = message.get("error").filter(|e| !e.is_null()) {
        let code = error["code"].as_i64();
        let def = code.and_then(|c| schema.errors.get(&c)).map(String::as_str);
        return Some(MessageType::Error(
            def.unwrap_or(schema.error_envelope()).to_owned(),
        ));
    }
    let method = checked.verdict.method.as_deref()?;
    (schema.results.contains_key(method)).then(|| MessageType::Result(method.to_owned()))
}

/// Who sends a message of `kind`, and the request it answers (sender and method).
fn sender(schema: &Schema, kind: &MessageType) -> (Side, Option<(Side, String)>) {
    match kind {
        MessageType::Sent(method) => (schema.sender_of(method), None),
        MessageType::Result(method) => {
            let asker = schema.sender_of(method);
            (asker.other(), Some((asker, method.clone())))
        }
        MessageType::Error(_) => (Side::Server, None),
    }
}

/// Every message type of `schema`, with the definition a message of it is validated against
/// and where in the message that definition's instance is.
fn message_types(schema: &Schema) -> Vec<(MessageType, String, &'static str)> {
    let sent = (schema.methods.iter()).map(|(m, d)| (MessageType::Sent(m.clone()), d.clone(), ""));
    let results = (schema.results.iter())
        .map(|(m, d)| (MessageType::Result(m.clone()), d.clone(), "/result"));
    let errors = (schema.errors.values().map(String::as_str))
        .chain([schema.error_envelope()])
        .map(|d| (MessageType::Error(d.to_owned()), d.to_owned(), ""));
    sent.chain(results).chain(errors).collect()
}

/// A smallest instance of each message type of `schema` that `have` has none of.
fn synthesized(schema: &Schema, have: &BTreeSet<MessageType>) -> Vec<Checked> {
    let mut out = Vec::new();
    for (kind, def, _) in message_types(schema) {
        if have.contains(&kind) {
            continue;
        }
        let instance = match &kind {
            MessageType::Sent(_) => schema.minimal_message(&def),
            _ => schema.minimal(schema.def(&def), 0),
        };
        out.extend(instance.map(|instance| checked(schema, &kind, "synthesized", def, instance)));
    }
    out
}

/// `instance` of a message type as a message (a result in its response), checked by our side.
fn checked(
    schema: &Schema,
    kind: &MessageType,
    source: &'static str,
    label: String,
    instance: Value,
) -> Checked {
    let message = match kind {
        MessageType::Result(_) => json!({"jsonrpc": "2.0", "id": 1, "result": instance}),
        _ => instance,
    };
    let (from, request) = sender(schema, kind);
    let request = request.as_ref().map(|(side, m)| (*side, m.as_str()));
    let verdict = check_one(schema.revision, Some(from), request, &message);
    Checked {
        source,
        label,
        message,
        verdict,
    }
}

/// How many messages of each message type are drawn from its schema.
const DRAWS: u64 = 3;

/// Messages of each message type of `schema` drawn from its definition
/// (`mcp_wire_check::values`): valid by construction, reaching what the corpus rarely holds.
fn drawn(schema: &Schema) -> Vec<Checked> {
    let mut out = Vec::new();
    for (kind, def, _) in message_types(schema) {
        for seed in 0..DRAWS {
            let label = format!("{def} (seed {seed})");
            let drawn = schema.drawn(&def, seed);
            out.extend(drawn.map(|instance| checked(schema, &kind, "drawn", label, instance)));
        }
    }
    out
}

/// The mutations of one valid instance of each message type of `schema`.
fn mutated(schema: &Schema, bases: &BTreeMap<MessageType, &Checked>) -> Vec<Checked> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (kind, def, pointer) in message_types(schema) {
        let Some(base) = bases.get(&kind) else {
            continue;
        };
        let (from, request) = sender(schema, &kind);
        let request = request.as_ref().map(|(side, m)| (*side, m.as_str()));
        let made = mutations(schema, &base.message, pointer, schema.def(&def));
        for mutation in made.into_iter().chain(envelope_mutations(&base.message)) {
            if !seen.insert(mutation.message.to_string()) {
                continue;
            }
            let verdict = check_one(schema.revision, Some(from), request, &mutation.message);
            out.push(Checked {
                source: "mutations",
                label: format!("{def}: {}", mutation.what),
                message: mutation.message,
                verdict,
            });
        }
    }
    out
}

/// What ajv is given for `checked`: the revision, sender and request method our side found.
fn ajv_input(checked: &Checked, schema: Option<&Path>) -> Value {
    let v = &checked.verdict;
    let revision = v.revision.map_or("2025-11-25", Revision::version);
    let is_response = checked.message.get("method").is_none();
    let request_method = v.method.as_deref().filter(|_| is_response);
    ajv::input(
        revision,
        v.from.map(Side::name),
        request_method,
        &checked.message,
        schema,
    )
}

/// One erratum of schema/errata.toml, with the corrected schema of each revision it changes.
struct Erratum {
    id: String,
    summary: String,
    evidence: String,
    schemas: BTreeMap<Revision, PathBuf>,
}

/// Each erratum applied alone to the mirror's schemas, written under the test's temporary
/// folder.
fn errata() -> Vec<Erratum> {
    use mcp_codegen::errata::{apply, Errata};
    use mcp_codegen::revisions::Dialect;
    let list = Errata::load(&mcp_typed_tests::repo_root().join("schema/errata.toml"))
        .expect("schema/errata.toml");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ajv-differential");
    let mut out = Vec::new();
    for erratum in &list.errata {
        let mut schemas = BTreeMap::new();
        for revision in Revision::ALL {
            let changes: Vec<_> = (erratum.changes.iter())
                .filter(|c| c.revisions.iter().any(|r| r == revision.version()))
                .map(|c| (erratum, c))
                .collect();
            if changes.is_empty() {
                continue;
            }
            let official = mcp_typed_tests::mirror()
                .join(revision.version())
                .join("schema.json");
            let mut root: Value =
                serde_json::from_str(&std::fs::read_to_string(official).expect("schema"))
                    .expect("JSON");
            let dialect = match root.get("$defs") {
                Some(_) => Dialect::Draft2020_12,
                None => Dialect::Draft07,
            };
            apply(&mut root, dialect, &changes).expect("the erratum applies");
            let path = dir
                .join(&erratum.id)
                .join(revision.version())
                .join("schema.json");
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create");
            std::fs::write(&path, root.to_string()).expect("write the corrected schema");
            schemas.insert(revision, path);
        }
        out.push(Erratum {
            id: erratum.id.clone(),
            summary: erratum.summary.clone(),
            evidence: erratum.evidence.first().cloned().unwrap_or_default(),
            schemas,
        });
    }
    out
}

/// For each disagreement (an index into `checked`), the erratum that explains it: the first whose
/// corrected schema makes ajv agree with us.
fn explained_by_errata(checked: &[&Checked], errata: &[Erratum]) -> BTreeMap<usize, usize> {
    let mut asked = Vec::new();
    let mut inputs = Vec::new();
    for (at, c) in checked.iter().enumerate() {
        let Some(revision) = c.verdict.revision else {
            continue;
        };
        for (e, erratum) in errata.iter().enumerate() {
            if let Some(path) = erratum.schemas.get(&revision) {
                asked.push((at, e));
                inputs.push(ajv_input(c, Some(path)));
            }
        }
    }
    let mut out = BTreeMap::new();
    for ((at, e), errors) in asked.into_iter().zip(ajv::validate(&inputs)) {
        if errors.is_empty() == checked[at].verdict.is_valid() {
            out.entry(at).or_insert(e);
        }
    }
    out
}

/// The tallies printed at the end.
#[derive(Default)]
struct Tally {
    messages: BTreeMap<&'static str, usize>,
    per_revision: BTreeMap<String, usize>,
    agreements: usize,
    both_invalid: usize,
    same_pointer: usize,
    explained: BTreeMap<String, usize>,
    /// Disagreements (explained or not) per source.
    disagreements: BTreeMap<&'static str, usize>,
    unexplained: Vec<String>,
}

impl Tally {
    /// Counts an agreement; `false` for a disagreement.
    fn agrees(&mut self, outcome: &Outcome) -> bool {
        *self.messages.entry(outcome.checked.source).or_default() += 1;
        let revision = outcome
            .checked
            .verdict
            .revision
            .map_or("none", Revision::version);
        *self.per_revision.entry(revision.to_owned()).or_default() += 1;
        if outcome.ours_valid() != outcome.theirs_valid() {
            *self
                .disagreements
                .entry(outcome.checked.source)
                .or_default() += 1;
            return false;
        }
        self.agreements += 1;
        if !outcome.ours_valid() {
            self.both_invalid += 1;
            let ours: BTreeSet<&str> = (outcome.checked.verdict.violations.iter())
                .map(|v| v.pointer.as_str())
                .collect();
            if outcome
                .theirs
                .iter()
                .any(|e| ours.contains(e.pointer.as_str()))
            {
                self.same_pointer += 1;
            }
        }
        true
    }

    fn explain(&mut self, outcome: &Outcome) {
        match REASONS.iter().find(|r| (r.applies)(outcome)) {
            Some(reason) => *self.explained.entry(reason.id.to_owned()).or_default() += 1,
            None => self.unexplained.push(describe(outcome)),
        }
    }
}

fn describe(outcome: &Outcome) -> String {
    let c = outcome.checked;
    format!(
        "{} {} ({:?}, {} from {:?}, method {:?}: ours {}, ajv {})\n  message: {}\n  ours: {:?}\n  ajv: {:?}",
        c.source,
        c.label,
        c.verdict.revision,
        c.verdict.line,
        c.verdict.from,
        c.verdict.method,
        if outcome.ours_valid() { "valid" } else { "invalid" },
        if outcome.theirs_valid() { "valid" } else { "invalid" },
        c.message,
        c.verdict.violations,
        outcome.theirs,
    )
}

/// The corpus: the official examples, the recorded traffic, and a smallest instance of each
/// message type neither has (valid on our side) in each revision.
fn corpus(schemas: &[Schema]) -> Vec<Checked> {
    let newest = schemas.last().expect("revisions");
    let mut corpus = examples(newest);
    corpus.extend(recorded_traffic());
    for schema in schemas {
        let have: BTreeSet<MessageType> = (corpus.iter())
            .filter(|c| c.verdict.revision == Some(schema.revision) && c.verdict.is_valid())
            .filter_map(|c| type_of(schema, c))
            .collect();
        let made = synthesized(schema, &have);
        corpus.extend(made);
        corpus.extend(drawn(schema));
    }
    corpus
}

/// The mutations of the first instance of each message type that both sides find valid.
fn all_mutations(schemas: &[Schema], corpus: &[Checked], theirs: &[Vec<AjvError>]) -> Vec<Checked> {
    let mut out = Vec::new();
    for schema in schemas {
        let mut bases = BTreeMap::new();
        for (checked, errors) in corpus.iter().zip(theirs) {
            let valid = checked.verdict.is_valid() && errors.is_empty();
            if valid && checked.verdict.revision == Some(schema.revision) {
                if let Some(kind) = type_of(schema, checked) {
                    bases.entry(kind).or_insert(checked);
                }
            }
        }
        out.extend(mutated(schema, &bases));
    }
    out
}

#[test]
fn mcp_check_agrees_with_the_suites_ajv_validation() {
    let schemas: Vec<Schema> = Revision::ALL.into_iter().map(Schema::load).collect();
    let schema_of = |c: &Checked| {
        let revision = c.verdict.revision.unwrap_or(Revision::V2025_11_25);
        schemas
            .iter()
            .find(|s| s.revision == revision)
            .expect("a schema")
    };
    let corpus = corpus(&schemas);
    let inputs: Vec<Value> = corpus.iter().map(|c| ajv_input(c, None)).collect();
    let corpus_theirs = ajv::validate(&inputs);
    let mutations = all_mutations(&schemas, &corpus, &corpus_theirs);
    let inputs: Vec<Value> = mutations.iter().map(|c| ajv_input(c, None)).collect();
    let mutations_theirs = ajv::validate(&inputs);

    // wire_validate.mjs is the suite's validation: the same verdicts as the suite's own function.
    let all_inputs: Vec<Value> = corpus
        .iter()
        .chain(&mutations)
        .map(|c| ajv_input(c, None))
        .collect();
    let same = ajv::same_as_suite(&all_inputs);
    println!("wire_validate.mjs against the suite's own function: {same}");
    assert_eq!(same["differ"], 0, "{same:#}");
    assert!(same["same"].as_u64().unwrap_or(0) >= 3000, "{same}");

    let mut tally = Tally::default();
    let mut disagreements = Vec::new();
    let pairs = (corpus.iter().zip(&corpus_theirs)).chain(mutations.iter().zip(&mutations_theirs));
    for (checked, theirs) in pairs {
        let outcome = Outcome {
            checked,
            theirs,
            schema: schema_of(checked),
        };
        if !tally.agrees(&outcome) {
            disagreements.push(outcome);
        }
    }
    let errata = errata();
    let checked: Vec<&Checked> = disagreements.iter().map(|o| o.checked).collect();
    let by_erratum = explained_by_errata(&checked, &errata);
    for (at, outcome) in disagreements.iter().enumerate() {
        match by_erratum.get(&at) {
            Some(&e) => {
                *tally
                    .explained
                    .entry(format!("erratum {}", errata[e].id))
                    .or_default() += 1
            }
            None => tally.explain(outcome),
        }
    }
    report(&tally, &errata);
    let mut per_keyword: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &mutations {
        let what = m.label.split_once(": ").map_or("", |(_, w)| w);
        let keyword = what.split([' ', ':']).next().unwrap_or_default();
        *per_keyword.entry(keyword).or_default() += 1;
    }
    println!("mutations per keyword broken: {per_keyword:?}");
    assert!(
        tally.unexplained.is_empty(),
        "{} unexplained disagreements:\n{}",
        tally.unexplained.len(),
        tally.unexplained.join("\n")
    );
    assert!(
        tally.messages["official examples"] >= 60,
        "{:?}",
        tally.messages
    );
    assert_eq!(tally.messages["recorded traffic"], 110 + 86 + 108);
    assert!(tally.messages["mutations"] >= 2000, "{:?}", tally.messages);
    assert!(tally.messages["drawn"] >= 500, "{:?}", tally.messages);
}

/// Prints the counts: messages per source, agreements, explained disagreements per reason.
fn report(tally: &Tally, errata: &[Erratum]) {
    let total: usize = tally.messages.values().sum();
    println!("messages per source: {:?} ({total} in all)", tally.messages);
    println!("messages per revision: {:?}", tally.per_revision);
    println!(
        "agreements: {} ({} invalid on both sides, {} of those with a pointer in common)",
        tally.agreements, tally.both_invalid, tally.same_pointer
    );
    for erratum in errata {
        let id = format!("erratum {}", erratum.id);
        let count = tally.explained.get(&id).copied().unwrap_or(0);
        println!(
            "explained, {id}: {count} — {} ({})",
            erratum.summary, erratum.evidence
        );
    }
    for reason in REASONS {
        let count = tally.explained.get(reason.id).copied().unwrap_or(0);
        println!(
            "explained, {}: {count} — {} ({})",
            reason.id, reason.why, reason.evidence
        );
    }
    println!(
        "disagreements per source: {:?}, unexplained: {}",
        tally.disagreements,
        tally.unexplained.len()
    );
}
