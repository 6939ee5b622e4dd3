//! The wire referee by the clock: the same recorded traffic checked by `mcp-check`'s engine
//! (`mcp_wire_check::Checker`: parse, follow the conversation, decode with the generated types,
//! validate the constraint keywords), by the `jsonschema` crate and by ajv (Node), each
//! validating every message against the definition of the revision's `schema.json` that the
//! official conformance suite picks: the crate both with its runtime validators (built from the
//! schema when the program starts) and with its compile-time ones (`#[jsonschema::validator]`,
//! one struct per definition, written by bench/build.rs for 2025-11-25 and 2026-07-28, the
//! revisions of the traffic). Prints each engine's messages per second (median of
//! interleaved rounds, with the interquartile range and the lowest–highest), the ratios of
//! `mcp-check`'s rate to each baseline's (per round: median, quartiles, range), and how many
//! messages each engine found invalid, with the messages they disagree on. Three reference rows
//! beside them: the generated types alone (`FromStr` of each line as the revision and side
//! the baselines are given, then `validate()`), what the engine costs without following the
//! conversation; the parse of each line into a `serde_json::Value` alone, where the `jsonschema`
//! validators start; serde_json's scan of each line building nothing (`IgnoredAny`), the floor
//! of any engine that reads the text with serde_json.
//!
//! ```text
//! cargo run --release --manifest-path bench/Cargo.toml --bin wire_check -- \
//!     [--rounds 101] [--passes 20] [--warmup 10] [--only TEXT] [--node PATH] [--no-ajv]
//! ```
//!
//! Needs, from a fresh clone: the schemas (`cargo run --bin mcp-codegen -- fetch`, or
//! `MCP_SCHEMA_MIRROR` pointing at a mirror holding `<revision>/schema.json` and
//! `2026-07-28/examples/`); and for ajv the conformance suite's Node 22 and ajv, installed in
//! `target/conformance-suite` by `cargo test -p mcp-typed-examples --test conformance` (or by
//! hand: copy `tests/interop/conformance/package{,-lock}.json` there and `npm ci --prefix
//! target/conformance-suite`), with the npm packages of `tests/interop` (`npm ci --prefix
//! tests/interop`) that `tests/interop/ajv/wire_validate.mjs` imports. `--node` names another
//! Node 22 or later; `--no-ajv` leaves ajv out. `--only TEXT` keeps the conversations whose name
//! contains TEXT (`python`, `typescript`, `examples`).
//!
//! The traffic: `fuzz/seeds/traffic/*.jsonl` (the Python SDK 2.3.0 in both eras, a conversation;
//! the TypeScript SDK 1.32.2's client side and server side, each a one-sided recording, checked
//! as the repository's tests check them) and the official 2026-07-28 examples that are whole
//! JSON-RPC messages, each its own conversation. What the baselines need to pick a definition
//! (the revision, the sender, the method of the request a response answers) is taken from one
//! untimed pass of `mcp-check` over the same traffic; they get it for free, `mcp-check` works
//! it out in every timed pass. Every engine's timing includes the parse of each JSON line
//! (`serde_json::Value` for both Rust engines, `JSON.parse` for ajv).
//!
//! Interleaving: each round times `--passes` passes of every engine over the whole traffic, in
//! an order rotated from round to round; ajv runs in one long-lived Node process (its compiled
//! validators and the JIT stay warm), asked for its passes over a line protocol on stdin/stdout
//! and timing them itself with `process.hrtime`, while this process waits on the pipe; the Rust
//! engines run while Node waits on its stdin. `--warmup` untimed rounds come first (ajv's JIT
//! needs several: with one, its median came out a third lower).

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::hint::black_box;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use jsonschema::{Validator, ValidatorMap};
use mcp_wire_check::{traffic, Checker, Revision, Side};
use serde_json::{json, Value};

#[path = "../provenance.rs"]
mod provenance;
use provenance::{commit, today};
#[path = "../../../check/tests/support/suite.rs"]
mod suite;
use suite::Dispatch;

const USAGE: &str =
    "usage: wire_check [--rounds N (101)] [--passes N (20): passes over the traffic \
per timing] [--warmup N (10): untimed rounds first] [--only TEXT: the conversations whose name \
contains TEXT] [--node PATH (the conformance suite's)] [--no-ajv]";

/// How many messages disagreeing engines are shown in full.
const SHOWN_DISAGREEMENTS: usize = 8;

struct Options {
    rounds: usize,
    passes: u32,
    warmup: usize,
    only: Option<String>,
    node: Option<PathBuf>,
    ajv: bool,
    args: Vec<String>,
}

fn options() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        rounds: 101,
        passes: 20,
        warmup: 10,
        only: None,
        node: None,
        ajv: true,
        args: args.clone(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut number = || -> Result<u64, String> {
            let text = rest.next().ok_or_else(|| format!("{arg} needs a value"))?;
            match text.parse::<u64>() {
                Ok(n) if (1..=100_000).contains(&n) => Ok(n),
                _ => Err(format!("{arg}: a number from 1 to 100000, not {text}")),
            }
        };
        match arg.as_str() {
            "--rounds" => options.rounds = number()? as usize,
            "--passes" => options.passes = number()? as u32,
            "--warmup" => options.warmup = number()? as usize,
            "--only" => {
                let text = rest.next().ok_or("--only needs a text")?;
                options.only = Some(text.clone());
            }
            "--node" => {
                let path = rest.next().ok_or("--node needs a path")?;
                options.node = Some(PathBuf::from(path));
            }
            "--no-ajv" => options.ajv = false,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(options)
}

// ---------------------------------------------------------------------------------------------
// The traffic.

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `$MCP_SCHEMA_MIRROR/<path>` when the mirror is set, else the repository's `schema/<path>`.
fn schema_path(path: &str) -> PathBuf {
    match std::env::var_os("MCP_SCHEMA_MIRROR") {
        Some(mirror) if !mirror.is_empty() => PathBuf::from(mirror).join(path),
        _ => repository().join("schema").join(path),
    }
}

/// One conversation as `mcp-check` is given it: its lines, the revision assumed before any
/// `initialize` and who sent every message of a one-sided recording.
struct Conversation {
    name: String,
    assumed: Option<Revision>,
    sender: Option<Side>,
    lines: Vec<String>,
}

impl Conversation {
    fn checker(&self) -> Checker {
        let checker = Checker::new(self.assumed);
        match self.sender {
            Some(side) => checker.sent_by(side),
            None => checker,
        }
    }
}

fn recording(
    file: &str,
    assumed: Option<Revision>,
    sender: Option<Side>,
) -> Result<Conversation, String> {
    let path = repository().join("fuzz/seeds/traffic").join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Conversation {
        name: file.to_owned(),
        assumed,
        sender,
        lines: (text.lines())
            .filter(|line| !line.trim().is_empty())
            .map(str::to_owned)
            .collect(),
    })
}

/// The official 2026-07-28 examples that are whole JSON-RPC messages, one conversation each,
/// written on one line (members in their order).
fn official_examples() -> Result<Vec<Conversation>, String> {
    let root = schema_path("2026-07-28/examples");
    let read = |dir: &Path| -> Result<Vec<PathBuf>, String> {
        let mut paths = (std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?)
            .map(|entry| entry.map(|e| e.path()).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        paths.sort();
        Ok(paths)
    };
    let mut out = Vec::new();
    for dir in read(&root)? {
        for file in read(&dir)? {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let is_message = serde_json::from_str::<Value>(&text)
                .is_ok_and(|value| value.get("jsonrpc").is_some());
            if is_message {
                let name = file.strip_prefix(&root).unwrap_or(&file).display();
                out.push(Conversation {
                    name: format!("2026-07-28/examples/{name}"),
                    assumed: Some(Revision::V2026_07_28),
                    sender: None,
                    lines: vec![minify(&text)],
                });
            }
        }
    }
    Ok(out)
}

/// JSON text without the whitespace between tokens, members kept in their order.
fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

fn traffic_of_the_run() -> Result<Vec<Conversation>, String> {
    let mut conversations = vec![
        recording("python-sdk-2.3.0.jsonl", None, None)?,
        recording(
            "typescript-sdk-1.32.2-client.jsonl",
            None,
            Some(Side::Client),
        )?,
        // The server's side alone has no `initialize`: its revision is given, as the tests do.
        recording(
            "typescript-sdk-1.32.2-server.jsonl",
            Some(Revision::V2025_11_25),
            Some(Side::Server),
        )?,
    ];
    conversations.extend(official_examples()?);
    Ok(conversations)
}

/// A message as the baselines get it: its line, and what picks its definition.
struct Routed {
    /// Where it comes from: the conversation's name and the line.
    source: String,
    text: String,
    revision: Revision,
    from: Option<Side>,
    /// The method of the request it answers, when it is a response whose request was seen.
    request_method: Option<String>,
    /// Whether `mcp-check` found it invalid, and why (its first violation).
    mcp_check: Option<String>,
}

/// One untimed pass of `mcp-check`: every message with what the baselines need.
fn route(conversations: &[Conversation]) -> Result<Vec<Routed>, String> {
    let mut out = Vec::new();
    for conversation in conversations {
        let mut checker = conversation.checker();
        for (at, line) in conversation.lines.iter().enumerate() {
            let entry = traffic::entry(at + 1, line);
            let verdict = checker.check(&entry);
            let source = format!("{}:{}", conversation.name, at + 1);
            let revision = verdict
                .revision
                .ok_or_else(|| format!("{source}: mcp-check found no revision"))?;
            let is_response = (entry.message.as_deref().ok())
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
                .is_some_and(|m| m.get("method").is_none());
            out.push(Routed {
                source,
                text: line.clone(),
                revision,
                from: verdict.from,
                request_method: verdict.method.filter(|_| is_response),
                mcp_check: verdict
                    .violations
                    .first()
                    .map(|v| format!("{} {}: {}", v.pointer, v.keyword, v.expected)),
            });
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// The engines.

/// `mcp-check`'s engine over every conversation, each with a new `Checker`: the invalid count.
fn mcp_check_pass(conversations: &[Conversation]) -> usize {
    let mut invalid = 0;
    for conversation in conversations {
        let mut checker = conversation.checker();
        for (at, line) in conversation.lines.iter().enumerate() {
            let entry = traffic::entry(at + 1, black_box(line));
            invalid += usize::from(!checker.check(&entry).is_valid());
        }
    }
    invalid
}

/// The definitions the conformance suite validates with, compiled by the `jsonschema` crate:
/// each definition's pointer (`#/$defs/Name`) by what picks it.
struct JsonSchemaRevision {
    revision: Revision,
    validators: ValidatorMap,
    /// `method` constant → the definition that has it.
    methods: HashMap<String, String>,
    /// Request method → its `XxxResult`.
    results: HashMap<String, String>,
    /// Error code constant → the definition whose `error` has it.
    errors: HashMap<i64, String>,
    request: String,
    notification: String,
    result_response: String,
    error_response: String,
    input_required: Option<String>,
}

impl JsonSchemaRevision {
    fn load(revision: Revision) -> Result<Self, String> {
        let path = schema_path(&format!("{revision}/schema.json"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut schema: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let key = if schema.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        // The suite's correction of these two revisions: NumberSchema's bounds and default are
        // numbers, not integers.
        if matches!(revision, Revision::V2025_06_18 | Revision::V2025_11_25) {
            let properties = &mut schema[key]["NumberSchema"]["properties"];
            for name in ["minimum", "maximum", "default"] {
                if properties[name]["type"] == "integer" {
                    properties[name]["type"] = json!("number");
                }
            }
        }
        let defs = schema[key]
            .as_object()
            .ok_or_else(|| format!("{}: no {key}", path.display()))?;
        let pointer = |name: &str| format!("#/{key}/{name}");
        let dispatch = Dispatch::of(defs);
        let first_of = |names: &[&str]| {
            let found = names.iter().find(|n| defs.contains_key(**n));
            pointer(found.unwrap_or(&names[names.len() - 1]))
        };
        let out = JsonSchemaRevision {
            revision,
            methods: as_pointers(key, dispatch.methods),
            results: as_pointers(key, dispatch.results),
            errors: as_pointers(key, dispatch.errors),
            request: pointer("JSONRPCRequest"),
            notification: pointer("JSONRPCNotification"),
            result_response: first_of(&["JSONRPCResultResponse", "JSONRPCResponse"]),
            error_response: first_of(&["JSONRPCErrorResponse", "JSONRPCError"]),
            input_required: defs
                .contains_key("InputRequiredResult")
                .then(|| pointer("InputRequiredResult")),
            // As the suite's ajv: formats asserted (ajv-formats), `byte` taken as known.
            validators: jsonschema::options()
                .should_validate_formats(true)
                .with_format("byte", |_: &str| true)
                .build_map(&schema)
                .map_err(|e| format!("{revision}: jsonschema: {e}"))?,
        };
        let all = out.methods.values().chain(out.results.values());
        let envelopes = [&out.request, &out.notification, &out.result_response];
        let envelopes = envelopes.into_iter().chain([&out.error_response]);
        let compiled = compiled_validators::compiled(revision.version());
        for pointer in all.chain(out.errors.values()).chain(envelopes) {
            out.validator(pointer)?;
            // The compile-time validators: one for every definition the suite may pick.
            if !compiled.contains(&pointer.as_str()) {
                return Err(format!(
                    "{revision}: no compile-time validator of {pointer}: bench/build.rs found no \
                     schema (set MCP_SCHEMA_MIRROR, or fetch them, and rebuild)"
                ));
            }
        }
        Ok(out)
    }

    fn validator(&self, pointer: &str) -> Result<&Validator, String> {
        self.validators
            .get(pointer)
            .ok_or_else(|| format!("jsonschema compiled no validator for {pointer}"))
    }

    /// How many errors the suite's choice of definition finds in `message` (what it validates
    /// an answer with: its result's definition first, then the response envelope), counted by
    /// the validators of `compilation`.
    fn errors(
        &self,
        message: &Value,
        request_method: Option<&str>,
        compilation: Compilation,
    ) -> usize {
        let count = |pointer: &str, value: &Value| match compilation {
            Compilation::Runtime => match self.validators.get(pointer) {
                Some(validator) if validator.is_valid(value) => 0,
                Some(validator) => validator.iter_errors(value).count().max(1),
                None => 1,
            },
            Compilation::CompileTime => {
                compiled_validators::errors(self.revision.version(), pointer, value).unwrap_or(1)
            }
        };
        if let Value::Array(batch) = message {
            return (batch.iter())
                .map(|m| self.errors(m, request_method, compilation))
                .sum();
        }
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            let pointer = self
                .methods
                .get(method)
                .unwrap_or(if message.get("id").is_some() {
                    &self.request
                } else {
                    &self.notification
                });
            return count(pointer, message);
        }
        if message.get("error").is_some_and(|e| !e.is_null()) {
            let code = message["error"]["code"].as_i64();
            let pointer = code.and_then(|c| self.errors.get(&c));
            return count(pointer.unwrap_or(&self.error_response), message);
        }
        if let Some(result) = message.get("result") {
            let result_type = result.get("resultType").and_then(Value::as_str);
            let definition = match (result_type, &self.input_required) {
                (Some("input_required"), Some(pointer)) => Some(pointer),
                (Some("task"), _) => None,
                _ => request_method.and_then(|m| self.results.get(m)),
            };
            if let Some(pointer) = definition {
                let found = count(pointer, result);
                if found > 0 {
                    return found;
                }
            }
            return count(&self.result_response, message);
        }
        1
    }
}

/// The definitions of `by`, as the suite picks them, made pointers into the compiled map
/// (`#/<key>/<name>`).
fn as_pointers<K: Eq + Hash>(key: &str, by: BTreeMap<K, String>) -> HashMap<K, String> {
    (by.into_iter())
        .map(|(picked_by, name)| (picked_by, format!("#/{key}/{name}")))
        .collect()
}

/// Which of the `jsonschema` crate's validators: built at run time from the schema
/// (`ValidatorMap`), or generated at compile time by its macro (bench/build.rs).
#[derive(Debug, Clone, Copy)]
enum Compilation {
    Runtime,
    CompileTime,
}

/// The `jsonschema` crate over the routed messages: the invalid count.
fn jsonschema_pass(
    routed: &[Routed],
    revisions: &HashMap<Revision, JsonSchemaRevision>,
    compilation: Compilation,
) -> usize {
    let mut invalid = 0;
    for message in routed {
        let errors = match serde_json::from_str::<Value>(black_box(&message.text)) {
            Ok(value) => revisions[&message.revision].errors(
                &value,
                message.request_method.as_deref(),
                compilation,
            ),
            Err(_) => 1,
        };
        invalid += usize::from(errors > 0);
    }
    invalid
}

/// A reference row: what `mcp-check`'s engine would cost if it decoded each line's text with
/// the generated types of the revision and side the baselines are given (`FromStr`, then
/// `validate()`), without following the conversation nor going through `serde_json::Value`.
fn typed_pass(routed: &[Routed]) -> usize {
    use mcp_typed::validate::Validate as _;
    macro_rules! valid_in {
        ($module:ident, $from:expr, $text:expr) => {{
            use mcp_typed::$module as m;
            match $from {
                Some(Side::Client) => {
                    ($text.parse::<m::ClientMessage>()).is_ok_and(|x| x.validate().is_ok())
                }
                _ => ($text.parse::<m::ServerMessage>()).is_ok_and(|x| x.validate().is_ok()),
            }
        }};
    }
    let mut invalid = 0;
    for message in routed {
        let text = black_box(message.text.as_str());
        let valid = match message.revision {
            Revision::V2025_11_25 => valid_in!(v2025_11_25, message.from, text),
            Revision::V2026_07_28 => valid_in!(v2026_07_28, message.from, text),
            // Not in the traffic of the run.
            _ => false,
        };
        invalid += usize::from(!valid);
    }
    invalid
}

/// Two reference rows, the floors under any engine that reads each line: the parse into a
/// `serde_json::Value` alone (what the `jsonschema` validators start from), and serde_json's scan
/// of the text that builds nothing (`serde::de::IgnoredAny`: what a checker that validated while
/// it scanned could approach). `Err` counts as invalid.
fn parse_pass(routed: &[Routed], build: bool) -> usize {
    let mut invalid = 0;
    for message in routed {
        let text = black_box(message.text.as_str());
        let parsed = if build {
            serde_json::from_str::<Value>(text).map(|value| drop(black_box(value)))
        } else {
            serde_json::from_str::<serde::de::IgnoredAny>(text).map(drop)
        };
        invalid += usize::from(parsed.is_err());
    }
    invalid
}

/// ajv in a Node process of its own (`bench/ajv_wire_check.mjs`), killed when dropped.
struct Ajv {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    corpus: PathBuf,
    /// Per message, the errors ajv found.
    errors: Vec<Vec<String>>,
    version: String,
}

impl Ajv {
    fn start(node: &Path, routed: &[Routed]) -> Result<Ajv, String> {
        let revisions: std::collections::BTreeSet<Revision> =
            routed.iter().map(|m| m.revision).collect();
        let schemas: serde_json::Map<String, Value> = (revisions.iter())
            .map(|r| {
                let path = schema_path(&format!("{r}/schema.json"));
                (r.to_string(), json!(path.display().to_string()))
            })
            .collect();
        let messages: Vec<Value> = (routed.iter())
            .map(|m| {
                json!({
                    "text": m.text,
                    "revision": m.revision.to_string(),
                    "from": m.from.map(Side::name),
                    "requestMethod": m.request_method,
                })
            })
            .collect();
        let corpus = std::env::temp_dir().join(format!("wire_check-{}.json", std::process::id()));
        let document = json!({"schemas": schemas, "messages": messages});
        std::fs::write(&corpus, document.to_string())
            .map_err(|e| format!("{}: {e}", corpus.display()))?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("ajv_wire_check.mjs");
        let mut child = Command::new(node)
            .arg(&script)
            .arg(&corpus)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", node.display()))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, BufReader::new(stdout)),
            _ => return Err("node's stdin and stdout are not piped".into()),
        };
        let mut ajv = Ajv {
            child,
            stdin,
            stdout,
            corpus,
            errors: Vec::new(),
            version: String::new(),
        };
        let ready = ajv.read()?;
        ajv.version = ready["ajv"].as_str().unwrap_or("?").to_owned();
        let errors = ready["errors"].as_array().ok_or("no `errors` from ajv")?;
        ajv.errors = (errors.iter())
            .map(|list| {
                (list.as_array().into_iter().flatten())
                    .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_owned))
                    .collect()
            })
            .collect();
        if ajv.errors.len() != routed.len() {
            return Err(format!(
                "ajv answered for {} messages of {}",
                ajv.errors.len(),
                routed.len()
            ));
        }
        Ok(ajv)
    }

    fn read(&mut self) -> Result<Value, String> {
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line);
        match read {
            Ok(0) => Err("ajv_wire_check.mjs ended (see its error above)".into()),
            Ok(_) => serde_json::from_str(&line).map_err(|e| format!("ajv said {line:?}: {e}")),
            Err(e) => Err(format!("reading from node: {e}")),
        }
    }

    /// `passes` passes over the messages, timed by Node: the time and the invalid count.
    fn pass(&mut self, passes: u32) -> Result<(Duration, usize), String> {
        writeln!(self.stdin, "{passes}").map_err(|e| format!("writing to node: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("writing to node: {e}"))?;
        let answer = self.read()?;
        let times = answer["passes"].as_array().ok_or("no `passes` from ajv")?;
        let nanos: f64 = times.iter().filter_map(Value::as_f64).sum();
        let invalid = answer["invalid"].as_u64().ok_or("no `invalid` from ajv")?;
        Ok((Duration::from_secs_f64(nanos / 1e9), invalid as usize))
    }
}

impl Drop for Ajv {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.corpus);
    }
}

// ---------------------------------------------------------------------------------------------
// The run.

/// The Node of the conformance suite (`target/conformance-suite`), where the tests install it.
fn suite_node() -> PathBuf {
    repository().join("target/conformance-suite/node_modules/node/bin/node")
}

fn run() -> Result<(), String> {
    let options = options()?;
    let mut conversations = traffic_of_the_run()?;
    if let Some(only) = &options.only {
        conversations.retain(|c| c.name.contains(only.as_str()));
        if conversations.is_empty() {
            return Err(format!("--only {only}: no conversation's name contains it"));
        }
    }
    let routed = route(&conversations)?;
    let revisions: std::collections::BTreeSet<Revision> =
        routed.iter().map(|m| m.revision).collect();
    let mut compiled = HashMap::new();
    for revision in revisions {
        compiled.insert(revision, JsonSchemaRevision::load(revision)?);
    }
    let mut ajv = if options.ajv {
        let node = options.node.clone().unwrap_or_else(suite_node);
        if !node.is_file() {
            return Err(format!(
                "no Node at {}: install the conformance suite (see this program's docs) or give --node, or --no-ajv",
                node.display()
            ));
        }
        Some(Ajv::start(&node, &routed)?)
    } else {
        None
    };
    let engines = if ajv.is_some() { 7 } else { 6 };
    // times[engine]: one per round; invalid[engine]: the count of the last pass.
    let mut times = vec![Vec::new(); engines];
    let mut invalid = vec![0; engines];
    for round in 0..options.warmup + options.rounds {
        for k in 0..engines {
            let engine = (k + round) % engines;
            let (time, found) = match engine {
                0 => timed(options.passes, || mcp_check_pass(&conversations)),
                1 => timed(options.passes, || {
                    jsonschema_pass(&routed, &compiled, Compilation::Runtime)
                }),
                2 => timed(options.passes, || typed_pass(&routed)),
                3 => timed(options.passes, || {
                    jsonschema_pass(&routed, &compiled, Compilation::CompileTime)
                }),
                4 => timed(options.passes, || parse_pass(&routed, true)),
                5 => timed(options.passes, || parse_pass(&routed, false)),
                _ => ajv.as_mut().expect("ajv runs").pass(options.passes)?,
            };
            invalid[engine] = found;
            if round >= options.warmup {
                times[engine].push(time);
            }
        }
    }
    report(&options, &routed, &compiled, ajv.as_ref(), &times, &invalid);
    Ok(())
}

/// Times `passes` calls of `pass`: the time and the last invalid count.
fn timed(passes: u32, mut pass: impl FnMut() -> usize) -> (Duration, usize) {
    let start = Instant::now();
    let mut invalid = 0;
    for _ in 0..passes {
        invalid = black_box(pass());
    }
    (start.elapsed(), invalid)
}

/// Median, quartiles and range of some values: `median [q1–q3] (lowest–highest)`, with
/// `decimals` after the point.
fn spread(mut values: Vec<f64>, decimals: usize) -> String {
    values.sort_by(f64::total_cmp);
    let at = |quantile: f64| values[((values.len() - 1) as f64 * quantile).round() as usize];
    format!(
        "{:.decimals$} [{:.decimals$}–{:.decimals$}] ({:.decimals$}–{:.decimals$})",
        at(0.5),
        at(0.25),
        at(0.75),
        at(0.0),
        at(1.0)
    )
}

fn report(
    options: &Options,
    routed: &[Routed],
    compiled: &HashMap<Revision, JsonSchemaRevision>,
    ajv: Option<&Ajv>,
    times: &[Vec<Duration>],
    invalid: &[usize],
) {
    let messages = routed.len();
    let bytes: usize = routed.iter().map(|m| m.text.len()).sum();
    let rates: Vec<Vec<f64>> = (times.iter())
        .map(|engine| {
            (engine.iter())
                .map(|t| (messages as f64 * f64::from(options.passes)) / t.as_secs_f64())
                .collect()
        })
        .collect();
    println!(
        "{} interleaved rounds (after {} untimed), each {} passes per engine over the same {messages} \
         messages ({} kB); the parse of each JSON line included for every engine",
        options.rounds,
        options.warmup,
        options.passes,
        bytes / 1000
    );
    println!("| engine | messages/s: median [quartiles] (lowest–highest) | mcp-check ÷ engine, per round: median [quartiles] (lowest–highest) | invalid messages |");
    println!("|---|---|---|---|");
    for (engine, rate) in rates.iter().enumerate() {
        let ratio = if engine == 0 {
            "1".to_owned()
        } else {
            let ratios = (rates[0].iter().zip(rate))
                .map(|(ours, theirs)| ours / theirs)
                .collect();
            spread(ratios, 2)
        };
        let label = match engine {
            0 => "`mcp-check` (mcp_wire_check::Checker)".to_owned(),
            1 => "`jsonschema` 0.60 crate".to_owned(),
            2 => "reference: the generated types alone, routed as the baselines".to_owned(),
            3 => "`jsonschema` 0.60 crate, compile-time validators (`#[jsonschema::validator]`)"
                .to_owned(),
            4 => "reference: the parse into `serde_json::Value` alone".to_owned(),
            5 => "reference: serde_json's scan alone, building nothing (`IgnoredAny`)".to_owned(),
            _ => format!("ajv {} (Node)", ajv.map_or("?", |a| &a.version)),
        };
        println!(
            "| {label} | {} | {ratio} | {} |",
            spread(rate.clone(), 0),
            invalid[engine]
        );
    }
    disagreements(routed, compiled, ajv);
    println!(
        "\nMeasured {} on {} cores ({}){}, with\n`cargo run --release --manifest-path bench/Cargo.toml --bin wire_check --{}`.",
        today(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::env::consts::ARCH,
        commit().map_or_else(String::new, |c| format!(" (commit {c})")),
        options.args.iter().map(|a| format!(" {a}")).collect::<String>(),
    );
}

/// The messages the engines do not agree on (valid for one, invalid for another), with why.
fn disagreements(
    routed: &[Routed],
    compiled: &HashMap<Revision, JsonSchemaRevision>,
    ajv: Option<&Ajv>,
) {
    let mut shown = 0;
    let mut count = 0;
    for (index, message) in routed.iter().enumerate() {
        let value: Value = serde_json::from_str(&message.text).unwrap_or(Value::Null);
        let jsonschema = compiled[&message.revision].errors(
            &value,
            message.request_method.as_deref(),
            Compilation::Runtime,
        );
        let ajv_errors = ajv.map(|a| &a.errors[index]);
        let verdicts = [
            message.mcp_check.is_some(),
            jsonschema > 0,
            ajv_errors.is_some_and(|e| !e.is_empty()),
        ];
        let compared = if ajv.is_some() { 3 } else { 2 };
        if verdicts[..compared].iter().all(|v| *v == verdicts[0]) {
            continue;
        }
        count += 1;
        if shown == SHOWN_DISAGREEMENTS {
            continue;
        }
        shown += 1;
        let mut why = vec![format!(
            "mcp-check: {}",
            message.mcp_check.as_deref().unwrap_or("valid")
        )];
        why.push(format!(
            "jsonschema: {}",
            if jsonschema > 0 {
                first_jsonschema_error(compiled, message, &value)
            } else {
                "valid".into()
            }
        ));
        if let Some(errors) = ajv_errors {
            let first = errors.first().map_or("valid", String::as_str);
            why.push(format!("ajv: {first}"));
        }
        let short: String = message.text.chars().take(160).collect();
        println!(
            "- disagreement at {} ({}, {}): {}\n  `{short}`",
            message.source,
            message.revision,
            message.request_method.as_deref().unwrap_or("-"),
            why.join("; ")
        );
    }
    println!("{count} messages the engines do not agree on.");
}

/// The first error the `jsonschema` crate reports for a message, found by trying the
/// definitions as [`JsonSchemaRevision::errors`] does.
fn first_jsonschema_error(
    compiled: &HashMap<Revision, JsonSchemaRevision>,
    message: &Routed,
    value: &Value,
) -> String {
    let revision = &compiled[&message.revision];
    let mut pointers: Vec<&String> = Vec::new();
    if let Some(method) = value.get("method").and_then(Value::as_str) {
        pointers.extend(revision.methods.get(method));
        pointers.extend([&revision.request, &revision.notification]);
    } else if value.get("error").is_some() {
        let code = value["error"]["code"].as_i64();
        pointers.extend(code.and_then(|c| revision.errors.get(&c)));
        pointers.push(&revision.error_response);
    } else {
        let method = message.request_method.as_deref();
        pointers.extend(method.and_then(|m| revision.results.get(m)));
        pointers.push(&revision.result_response);
    }
    for pointer in pointers {
        let target = if pointer.ends_with("Result") {
            &value["result"]
        } else {
            value
        };
        if let Some(error) = revision
            .validators
            .get(pointer)
            .and_then(|v| v.iter_errors(target).next())
        {
            return format!("{pointer}: {} at {}", error, error.instance_path());
        }
    }
    "invalid".into()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("wire_check: {message}");
            ExitCode::from(2)
        }
    }
}

/// The `jsonschema` crate's compile-time validators (bench/build.rs).
mod compiled_validators {
    include!(concat!(env!("OUT_DIR"), "/compiled_validators.rs"));
}
