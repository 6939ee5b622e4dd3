//! The official MCP conformance suite against `everything-server`
//! (`examples/src/bin/everything_server.rs`): one server process, started by the test on a free
//! port of 127.0.0.1, serving clients of 2025-11-25 and of 2026-07-28 at `/mcp`.
//!
//! The suite is the npm package `@modelcontextprotocol/conformance` 0.2.0-alpha.12 (the first
//! with `--requirements`; its `latest` tag is an older 0.1.16), run by Node 22.23.3 (the npm
//! package `node`: the suite needs Node 22 or later), both pinned by
//! `tests/interop/conformance/package-lock.json` and installed on first use by
//! `mcp_typed_tests::installed::conformance_suite` (`npm ci` in `target/conformance-suite`).
//!
//! What runs, one leg after the other, against `http://127.0.0.1:<port>/mcp` (a loopback
//! address, as the `dns-rebinding-protection` scenario needs):
//!
//! 1. `conformance server --requirements 2025-11-25`: the 30 server scenarios that revision
//!    requires, on its stateful wire (`initialize`, `Mcp-Session-Id`): among them the form ones,
//!    `tools-call-elicitation`, `elicitation-sep1034-defaults` and `elicitation-sep1330-enums`
//!    (checked to be there). The suite also runs 3 scenarios it does not score
//!    (`server-session-lifecycle`, `json-schema-2020-12`, `server-sse-polling`).
//! 2. `conformance server --requirements 2026-07-28`: the 37 server scenarios that revision
//!    requires, on its stateless wire (`_meta` on every request, `input_required` results),
//!    and 13 unscored ones (the `tasks-*` extension, `json-schema-2020-12`,
//!    `http-header-validation`, `http-custom-header-server-validation`).
//! 3. both requirement legs again through `mcp-check proxy` (the library's Streamable HTTP
//!    proxy, `mcp_wire_check::proxy::http`, in this process, in front of the same server):
//!    every scored scenario must still pass, and the proxy's JSON report
//!    (`proxy-report.jsonl`) may hold no violation but the suite's malformed requests that the
//!    server refused too and `PROXY_KNOWN_DEPARTURES` (the same departure as the referee's).
//! 4. `conformance server --scenario json-schema-2020-12`, the form schema's keywords kept as
//!    written: pending, so outside both requirement sets. Run on its own twice: at its default
//!    spec version (2025-11-25, where a keyword lost is only SKIPPED) and with `--spec-version
//!    2026-07-28`.
//!
//! What passes:
//!
//! - a requirements leg exits 0 (the suite's rule: no FAILURE in a scenario the revision
//!   scores); every scored scenario of its `=== SUMMARY ===` is marked ✓, and its failed checks
//!   add up to 0. The scenarios the suite runs without scoring them (extensions such as
//!   `tasks-*`, pending scenarios) are reported, not required. A WARNING of a scored scenario
//!   fails the test unless `KNOWN_WARNINGS` gives its reason. The suite announced as many
//!   scenarios as it summed up, and the `checks.json` files it writes (`-o`) agree with the
//!   summary. The baseline `tests/interop/conformance/expected-failures.yaml` (empty; passed as
//!   `--expected-failures` only when it is not) lists a scenario or a check only with its reason
//!   beside it, and never one about elicitation, sampling, roots or input_required, nor
//!   `json-schema-2020-12`.
//! - a single-scenario leg exits 0, is not SKIPPED (which exits 0 too), reports
//!   `Passed: N/N, 0 failed, 0 warnings` with N > 0, and its `checks.json` holds no FAILURE,
//!   WARNING or SKIPPED check.
//! - **the referee**: the server records every message of every leg, both ways
//!   (`EVERYTHING_SERVER_RECORD`); each must decode into its specific type of its era's
//!   generated module (a response as the result of its request) and re-encode to the same
//!   JSON. A request our types refuse passes only if the server refused it too (the suite sends
//!   malformed requests on purpose); anything else must be one of `KNOWN_DEPARTURES`, the
//!   named places where rmcp's wire form departs from the schema.
//!
//! Each leg is bounded in time (killed, and the test fails with its output, when it hangs), and
//! the server is killed when the test ends, however it ends. The legs run one after the other
//! in one test: the suite is heavy (a Node process driving up to 50 scenarios, 10 to 60 s a
//! leg on two cores), and a run prints every leg's results, then fails with every problem
//! found. (`reads_a_summary_and_a_baseline` checks the readers of its output on samples.) Each leg's summary and
//! its `checks.json` tally are printed (shown with `--nocapture`, and on failure); the full
//! output of each leg, its `checks.json` files and the server's log are kept in
//! `target/tmp/conformance/`.
//!
//! Run it with
//!
//! ```sh
//! cargo test -p mcp-typed-examples --test conformance -- --nocapture
//! ```
//!
//! or by hand, once the test has installed the suite:
//!
//! ```sh
//! cargo run -p mcp-typed-examples --bin everything-server -- --port 3100 &
//! PATH=$PWD/target/conformance-suite/node_modules/.bin:$PATH conformance server \
//!     --url http://127.0.0.1:3100/mcp --requirements 2026-07-28 \
//!     --expected-failures tests/interop/conformance/expected-failures.yaml
//! PATH=$PWD/target/conformance-suite/node_modules/.bin:$PATH conformance server \
//!     --url http://127.0.0.1:3100/mcp --scenario json-schema-2020-12 --spec-version 2026-07-28
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mcp_typed_tests::installed::{conformance_dir, conformance_suite};
use mcp_typed_tests::listening::Listening;
use serde_json::Value;

mod support;
use support::suite::{last_lines, passed_failed, strip_ansi, unscored, ScenarioLine};

const SERVER: &str = env!("CARGO_BIN_EXE_everything-server");

/// How long a requirements leg may take (about a minute here; 30 s per scenario at most).
const REQUIREMENTS_LIMIT: Duration = Duration::from_secs(15 * 60);
/// How long a single-scenario leg may take.
const SCENARIO_LIMIT: Duration = Duration::from_secs(3 * 60);

/// The form scenarios of the 2025-11-25 requirement set.
const FORM_SCENARIOS: [&str; 3] = [
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
];

/// The WARNING checks of scored scenarios the server gives on purpose, each with its reason.
/// Any other warning fails the test.
const KNOWN_WARNINGS: [(&str, &str); 1] = [(
    "input-required-result-ignore-extra-params",
    "the suite sends `inputResponses` with no `requestState` and expects them used; \
     `mcp_mrtr::serve` believes an answer only for a question its sealed state says was \
     asked (otherwise stripping the state would bypass its TTL, lifetime and single use), so \
     it asks again, which the scenario rates a WARNING",
)];

/// How many failing checks a leg lists in the failure message.
const LISTED_CHECKS: usize = 40;

/// The pending form scenario, run on its own on both wires.
const JSON_SCHEMA_SCENARIO: &str = "json-schema-2020-12";

/// What a baseline entry must never be about.
const NEVER_IN_BASELINE: [&str; 6] = [
    "elicitation",
    "sampling",
    "roots",
    "input-required",
    "input_required",
    JSON_SCHEMA_SCENARIO,
];

#[test]
fn everything_server_passes_the_official_conformance_suite() {
    let suite = conformance_suite();
    let baseline_file = conformance_dir()
        .join("expected-failures.yaml")
        .canonicalize()
        .expect("tests/interop/conformance/expected-failures.yaml");
    let baseline = Baseline::read(&baseline_file);
    let results = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    let _ = std::fs::remove_dir_all(&results);
    std::fs::create_dir_all(&results).expect("create the results folder");

    let mut server = start_server(&results.join("everything-server.log"));
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    println!(
        "@modelcontextprotocol/conformance {} on Node {} ({}), everything-server at {url}, \
         results in {}",
        suite.version,
        suite.node_version,
        suite.dir.display(),
        results.display()
    );

    let mut problems = Vec::new();
    for revision in REVISIONS {
        let leg = Leg {
            title: format!("requirements {revision}"),
            slug: format!("requirements-{revision}"),
            args: requirements_args(revision, &baseline, &baseline_file),
            limit: REQUIREMENTS_LIMIT,
        };
        let ran = leg.run(&url, &results);
        let found = check_requirements(revision, &ran, &baseline);
        problems.extend(found.into_iter().map(|p| format!("{}: {p}", leg.title)));
    }
    problems.extend(through_the_proxy(
        server.port,
        &results,
        &baseline,
        &baseline_file,
    ));
    for spec_version in [None, Some("2026-07-28")] {
        let mut args = vec!["--scenario".to_owned(), JSON_SCHEMA_SCENARIO.to_owned()];
        if let Some(version) = spec_version {
            args.extend(["--spec-version".to_owned(), version.to_owned()]);
        }
        let leg = Leg {
            title: format!(
                "{JSON_SCHEMA_SCENARIO} ({})",
                spec_version.map_or("default spec version".to_owned(), |v| {
                    format!("--spec-version {v}")
                })
            ),
            slug: format!(
                "{JSON_SCHEMA_SCENARIO}-{}",
                spec_version.unwrap_or("default")
            ),
            args,
            limit: SCENARIO_LIMIT,
        };
        let ran = leg.run(&url, &results);
        let found = check_scenario(&ran);
        problems.extend(found.into_iter().map(|p| format!("{}: {p}", leg.title)));
    }

    // Our types as the referee of rmcp's traffic: every message of every leg, both ways.
    problems.extend(referee(&results.join("wire.jsonl")));
    // The same recording as `mcp-check FILE` reads it.
    problems.extend(recording_read_by_mcp_check(&results.join("wire.jsonl")));

    if let Some(status) = server.exited() {
        problems.push(format!(
            "everything-server exited during the run ({status})"
        ));
    }
    drop(server);
    if !problems.is_empty() {
        panic!(
            "the conformance suite found problems (full output in {}):\n- {}\n\n\
             everything-server's log, last lines:\n{}",
            results.display(),
            problems.join("\n- "),
            tail(&results.join("everything-server.log"), 40)
        );
    }
}

/// The revisions whose requirement sets run, directly and through the proxy.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// `--requirements <revision>`, and the baseline when it has entries.
fn requirements_args(revision: &str, baseline: &Baseline, baseline_file: &Path) -> Vec<String> {
    let mut args = vec!["--requirements".to_owned(), revision.to_owned()];
    // With a baseline the suite also exits 1 on a WARNING; the test reads the warnings
    // itself (`KNOWN_WARNINGS`), so an empty baseline is not passed.
    if !baseline.entries.is_empty() {
        args.extend([
            "--expected-failures".into(),
            baseline_file.display().to_string(),
        ]);
    }
    args
}

/// The requirement legs again, through `mcp-check proxy --listen 127.0.0.1:0 --upstream
/// http://127.0.0.1:<port>` (the library's proxy, in this process): every scored scenario
/// still passes, and the proxy's report (`proxy-report.jsonl`, a JSON line per message)
/// has no violation but the suite's malformed requests the server refused too and
/// [`PROXY_KNOWN_DEPARTURES`]. Returns the problems.
fn through_the_proxy(
    port: u16,
    results: &Path,
    baseline: &Baseline,
    baseline_file: &Path,
) -> Vec<String> {
    use mcp_wire_check::proxy::http::{self, HttpProxy};
    use mcp_wire_check::Checker;
    let report = results.join("proxy-report.jsonl");
    let proxy = http::start(HttpProxy {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        upstream: format!("http://127.0.0.1:{port}"),
        checker: Checker::default(),
        report: Box::new(File::create(&report).expect("create the proxy's report")),
        json: true,
        limits: Default::default(),
        record: None,
        check: true,
    })
    .expect("the proxy starts");
    let url = format!("http://{}/mcp", proxy.local_addr());
    let mut problems = Vec::new();
    for revision in REVISIONS {
        let leg = Leg {
            title: format!("requirements {revision} through mcp-check proxy"),
            slug: format!("proxy-requirements-{revision}"),
            args: requirements_args(revision, baseline, baseline_file),
            limit: REQUIREMENTS_LIMIT,
        };
        let ran = leg.run(&url, results);
        let found = check_requirements(revision, &ran, baseline);
        problems.extend(found.into_iter().map(|p| format!("{}: {p}", leg.title)));
    }
    let summary = proxy.stop();
    let lines: Vec<Value> = std::fs::read_to_string(&report)
        .expect("the proxy's report")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let refereed = proxy_referee(&lines);
    println!(
        "\n=== mcp-check proxy: {summary}; {} malformed requests refused by the server too, \
         {} known departures",
        refereed.refused_by_both.len(),
        refereed.known.len()
    );
    for (why, line) in &refereed.known {
        println!("known departure: {why}: {}", shorten(&line.to_string()));
    }
    if summary.messages != lines.len() || summary.messages < 100 {
        problems.push(format!(
            "mcp-check proxy: {} report lines for {summary} (at least 100 expected)",
            lines.len()
        ));
    }
    problems.extend(
        (refereed.unexplained.iter())
            .map(|line| format!("mcp-check proxy: {}", shorten(&line.to_string()))),
    );
    problems
}

/// Where the proxy's report finds rmcp departing from the schema: the pointer of the
/// violation, and the reason (that of the same departure in [`KNOWN_DEPARTURES`]).
const PROXY_KNOWN_DEPARTURES: [(&str, &str); 1] =
    [("/params/inputResponses", KNOWN_DEPARTURES[0].1)];

/// What the proxy's report says, sorted as [`referee`] sorts the recording.
#[derive(Debug, Default)]
struct ProxyRefereed<'a> {
    /// Client messages with violations that the server refused too (an error answered their
    /// id in the same exchange, or nothing did), and the errors answering a request of an
    /// unknown revision, which have none to be checked in.
    refused_by_both: Vec<&'a Value>,
    /// Violations of [`PROXY_KNOWN_DEPARTURES`], with their reason.
    known: Vec<(&'static str, &'a Value)>,
    /// Everything else that is not a valid message: a problem.
    unexplained: Vec<&'a Value>,
}

/// Sorts the lines of the proxy's JSON report.
fn proxy_referee(lines: &[Value]) -> ProxyRefereed<'_> {
    let mut refereed = ProxyRefereed::default();
    for line in lines {
        if line["valid"] == true {
            continue;
        }
        let answered = |other: &&Value| {
            other["from"] == "server"
                && other["file"] == line["file"]
                && other["line"] == line["line"]
                && other.get("id").is_some()
                && other.get("id") == line.get("id")
                && other.get("error").is_none()
        };
        let pointers: Vec<&str> = (line["violations"].as_array().into_iter().flatten())
            .filter_map(|v| v["pointer"].as_str())
            .collect();
        let known = PROXY_KNOWN_DEPARTURES
            .iter()
            .find(|(pointer, _)| !pointers.is_empty() && pointers.iter().all(|p| p == pointer));
        // The error answering a request in a revision nobody knows (the suite's
        // `server/discover` with an unsupported version) has no revision to be checked in.
        let refusal = line.get("error").is_some()
            && line["violations"]
                .as_array()
                .into_iter()
                .flatten()
                .all(|v| v["keyword"] == "revision")
            && lines.iter().any(|other| {
                other["from"] == "client"
                    && other["valid"] == false
                    && other["file"] == line["file"]
                    && other["line"] == line["line"]
                    && other.get("id") == line.get("id")
            });
        if let Some((_, why)) = known {
            refereed.known.push((why, line));
        } else if refusal
            || (line["from"] == "client" && !lines.iter().any(|other| answered(&other)))
        {
            refereed.refused_by_both.push(line);
        } else {
            refereed.unexplained.push(line);
        }
    }
    refereed
}

/// Where rmcp's wire form departs from the schema, each with the text that identifies it and
/// why. A recorded message our types refuse or re-encode differently must be one of these.
const KNOWN_DEPARTURES: [(&str, &str); 1] = [(
    r#""inputResponses":null"#,
    "rmcp reads `inputResponses: null` (sent by input-required-result-validate-input) as no \
     answers and the call is served; the schema, and so the generated types, refuse `null` \
     there",
)];

/// Reads everything-server's recording as `mcp-check` does: every line a record with its
/// conversation and sender, several conversations, every message of the server valid (the
/// client's include the suite's malformed requests on purpose, which [`referee`] sorts out).
fn recording_read_by_mcp_check(recording: &Path) -> Vec<String> {
    use mcp_wire_check::{traffic, Checker, Side};
    let text = std::fs::read_to_string(recording).unwrap_or_default();
    let entries = traffic::read(&text);
    let verdicts = Checker::new(None).check_recording(&entries);
    let conversations: std::collections::BTreeSet<_> =
        entries.iter().map(|e| e.conversation.clone()).collect();
    println!(
        "\n=== mcp-check reads the recording: {} messages in {} conversations, {} valid",
        verdicts.len(),
        conversations.len(),
        verdicts.iter().filter(|v| v.is_valid()).count()
    );
    let mut problems = Vec::new();
    if conversations.len() < 2 || conversations.contains(&None) {
        problems.push(format!("mcp-check: conversations {conversations:?}"));
    }
    if let Some(entry) = entries.iter().find(|e| e.from.is_none()) {
        problems.push(format!("mcp-check: a record without its sender: {entry:?}"));
    }
    for (entry, verdict) in entries.iter().zip(&verdicts) {
        if entry.from == Some(Side::Server) && !verdict.is_valid() {
            problems.push(format!("mcp-check on the recording: {verdict:?}"));
        }
    }
    problems
}

/// Checks every message everything-server recorded against the generated types of its era
/// (a response as the result of its request) and prints the totals; returns the problems.
fn referee(recording: &Path) -> Vec<String> {
    let recorded = support::read_recording(recording);
    let refereed = support::referee(&recorded);
    println!(
        "\n=== referee: {} messages recorded, {} decoded into their specific types and \
         re-encoded exactly, {} malformed requests refused by our types and the server alike, \
         {} departures",
        recorded.len(),
        refereed.checked,
        refereed.refused_by_both.len(),
        refereed.departures.len()
    );
    let mut problems = Vec::new();
    if refereed.checked < 100 {
        problems.push(format!(
            "the referee checked only {} messages of {}",
            refereed.checked,
            recording.display()
        ));
    }
    for departure in &refereed.departures {
        match KNOWN_DEPARTURES
            .iter()
            .find(|(text, _)| departure.contains(text))
        {
            Some((_, why)) => println!("known departure: {why}: {}", shorten(departure)),
            None => problems.push(format!("the referee: {}", shorten(departure))),
        }
    }
    problems
}

/// Starts `everything-server --port 0`, its output in `log`, and waits until it says which port
/// it listens on; killed when dropped.
fn start_server(log: &Path) -> Listening {
    Listening::start_reporting_logged(
        Command::new(SERVER)
            .args(["--port", "0"])
            .env("EVERYTHING_SERVER_RECORD", log.with_file_name("wire.jsonl")),
        "everything-server",
        Some(log),
    )
}

/// One run of `conformance server`.
struct Leg {
    /// What it is called in the messages.
    title: String,
    /// Its file names in the results folder.
    slug: String,
    /// Its arguments after `--url URL`.
    args: Vec<String>,
    limit: Duration,
}

/// What a leg did.
struct Ran {
    /// `None`: killed, past its time limit.
    status: Option<ExitStatus>,
    /// Its output, colours removed.
    stdout: String,
    stderr: String,
    /// The folder its `checks.json` files are in (`-o`).
    checks_dir: PathBuf,
    limit: Duration,
}

impl Leg {
    /// Runs it to its end, or kills it past its limit; its output goes to files of `results`.
    fn run(&self, url: &str, results: &Path) -> Ran {
        let checks_dir = results.join(&self.slug);
        std::fs::create_dir_all(&checks_dir).expect("create the leg's folder");
        let stdout_file = results.join(format!("{}.stdout.txt", self.slug));
        let stderr_file = results.join(format!("{}.stderr.txt", self.slug));
        let mut command = conformance_suite().command();
        command
            .args(["server", "--url", url])
            .args(&self.args)
            .arg("-o")
            .arg(&checks_dir)
            .stdin(Stdio::null())
            .stdout(File::create(&stdout_file).expect("create the leg's stdout"))
            .stderr(File::create(&stderr_file).expect("create the leg's stderr"));
        println!(
            "\n=== {}: conformance server --url {url} {} -o {}",
            self.title,
            self.args.join(" "),
            checks_dir.display()
        );
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("the suite's status") {
                break Some(status);
            }
            if started.elapsed() > self.limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let read = |path: &Path| strip_ansi(&std::fs::read_to_string(path).unwrap_or_default());
        Ran {
            status,
            stdout: read(&stdout_file),
            stderr: read(&stderr_file),
            checks_dir,
            limit: self.limit,
        }
    }
}

impl Ran {
    /// The problem of its exit, if any: a hang or a failure, with the end of its output when
    /// `with_output` (what it printed is not shown otherwise).
    fn exit_problems(&self, with_output: bool) -> Vec<String> {
        let problem = match self.status {
            None => format!("did not finish within {:?}", self.limit),
            Some(status) if !status.success() => format!("exited with {status}"),
            Some(_) => return Vec::new(),
        };
        vec![if with_output || self.status.is_none() {
            format!(
                "{problem}; the end of its output:\n{}\n{}",
                last_lines(&self.stdout, 40),
                last_lines(&self.stderr, 20)
            )
        } else {
            problem
        }]
    }
}

/// Checks a requirements leg, printing its summary and `checks.json` tally; returns its problems.
fn check_requirements(revision: &str, ran: &Ran, baseline: &Baseline) -> Vec<String> {
    let Some(summary) = Summary::parse(&ran.stdout) else {
        let mut problems = ran.exit_problems(true);
        problems.push("its output has no complete `=== SUMMARY ===`".into());
        return problems;
    };
    let mut problems = ran.exit_problems(false);
    println!("{}", summary.text);
    let checks = read_checks(&ran.checks_dir);
    println!("checks.json ({revision}): {}", tally(&checks));

    let announced = format!("Running requirements {revision} (");
    match ran
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix(&announced))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse::<usize>().ok())
    {
        Some(count) if count == summary.scenarios.len() => {}
        Some(count) => problems.push(format!(
            "the suite announced {count} scenarios and summed up {}",
            summary.scenarios.len()
        )),
        None => problems.push(format!("no `{announced}N scenarios)` line")),
    }
    if summary.scenarios.is_empty() {
        problems.push("no scenario ran".into());
    }
    // What the revision requires is scored; the rest (extensions, pending scenarios) is
    // reported, not required.
    let unscored = unscored(&ran.stdout);
    let mut scored_failures = 0;
    let mut failed = Vec::new();
    let mut unscored_failed = Vec::new();
    for scenario in &summary.scenarios {
        if unscored.contains(&scenario.name) {
            if !scenario.ok {
                unscored_failed.push(scenario.name.as_str());
            }
        } else if !baseline.lists(&scenario.name) {
            scored_failures += scenario.failed;
            if !scenario.ok {
                failed.push(scenario.name.as_str());
            }
        }
    }
    if !failed.is_empty() {
        problems.push(format!(
            "{} scored scenarios marked ✗ (not in the baseline): {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    println!(
        "scored ({revision}): {} scenarios, {} passed; not scored: {} run, failing: {}",
        summary.scenarios.len() - unscored.len(),
        summary.scenarios.len() - unscored.len() - failed.len(),
        unscored.len(),
        if unscored_failed.is_empty() {
            "none".to_owned()
        } else {
            unscored_failed.join(", ")
        }
    );
    let stale = baseline.stale(&summary, &checks);
    if !stale.is_empty() {
        problems.push(format!(
            "baseline entries that pass (remove them): {}",
            stale.join(", ")
        ));
    }
    if scored_failures != 0 {
        problems.push(format!(
            "{scored_failures} failed checks in scored scenarios (Total: {} passed, {} failed)",
            summary.passed, summary.failed
        ));
    }
    for (scenario, list) in &checks {
        if unscored.contains(scenario) {
            continue;
        }
        for check in list.iter().filter(|c| c["status"] == "WARNING") {
            let known = KNOWN_WARNINGS.iter().find(|(name, _)| name == scenario);
            match known {
                Some((_, why)) => println!("known WARNING {scenario} [{}]: {why}", check["id"]),
                None => problems.push(format!(
                    "a WARNING of a scored scenario: {scenario} [{}] {}",
                    check["id"],
                    shorten(check["description"].as_str().unwrap_or_default())
                )),
            }
        }
    }
    if revision == "2025-11-25" {
        for name in FORM_SCENARIOS {
            if !summary.scenarios.iter().any(|s| s.name == name) {
                problems.push(format!("the form scenario {name} did not run"));
            }
        }
    }
    // The files agree with the summary: one folder per scenario, the same counts.
    if checks.len() != summary.scenarios.len() {
        problems.push(format!(
            "{} checks.json files for {} scenarios (a scenario that could not run writes none)",
            checks.len(),
            summary.scenarios.len()
        ));
    }
    let count = |status: &str| -> usize {
        checks
            .iter()
            .map(|(_, list)| list.iter().filter(|c| c["status"] == status).count())
            .sum()
    };
    let lines_passed: usize = summary.scenarios.iter().map(|s| s.passed).sum();
    let lines_failed: usize = summary.scenarios.iter().map(|s| s.failed).sum();
    if (lines_passed, lines_failed) != (summary.passed, summary.failed) {
        problems.push(format!(
            "the scenario lines add up to {lines_passed} passed and {lines_failed} failed"
        ));
    }
    if (count("SUCCESS"), count("FAILURE")) != (summary.passed, summary.failed) {
        problems.push(format!(
            "checks.json counts {} SUCCESS and {} FAILURE, the summary {} passed and {} failed",
            count("SUCCESS"),
            count("FAILURE"),
            summary.passed,
            summary.failed
        ));
    }
    if !problems.is_empty() {
        problems.extend(failing_checks(&checks, &["FAILURE", "WARNING"]));
    }
    problems
}

/// Checks a single-scenario leg, printing its results and `checks.json` tally; returns its
/// problems.
fn check_scenario(ran: &Ran) -> Vec<String> {
    if let Some(line) = ran.stdout.lines().find(|l| l.starts_with("SKIPPED")) {
        let mut problems = ran.exit_problems(true);
        problems.push(format!("skipped, not run: {line}"));
        return problems;
    }
    let checks = read_checks(&ran.checks_dir);
    // `Test Results:` then `Passed: 8/8, 0 failed, 0 warnings`.
    let results = ran
        .stdout
        .lines()
        .skip_while(|line| line.trim() != "Test Results:")
        .nth(1)
        .unwrap_or_default()
        .trim()
        .to_owned();
    println!("{results}");
    println!("checks.json: {}", tally(&checks));
    // Its output is not printed: the end of it when it has no results.
    let mut problems = ran.exit_problems(results.is_empty());
    let counts: Vec<usize> = results
        .strip_prefix("Passed: ")
        .unwrap_or_default()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .filter_map(|part| part.parse().ok())
        .collect();
    match counts[..] {
        [passed, of, 0, 0] if passed == of && passed > 0 => {}
        _ => problems.push(format!(
            "not `Passed: N/N, 0 failed, 0 warnings`: `{results}`"
        )),
    }
    if checks.len() != 1 {
        problems.push(format!(
            "{} checks.json files, for one scenario",
            checks.len()
        ));
    }
    // On the 2025-11-25 wire a keyword lost is a SKIPPED check: none may be.
    problems.extend(failing_checks(&checks, &["FAILURE", "WARNING", "SKIPPED"]));
    problems
}

/// The `=== SUMMARY ===` of a suite run.
struct Summary {
    /// From `=== SUMMARY ===` to the end of the output, as printed.
    text: String,
    scenarios: Vec<ScenarioLine>,
    /// `Total: <passed> passed, <failed> failed`.
    passed: usize,
    failed: usize,
}

impl Summary {
    /// `None` without a summary, or one whose lines are not as expected.
    fn parse(stdout: &str) -> Option<Self> {
        let start = stdout.find("=== SUMMARY ===")?;
        let text = stdout[start..].trim_end().to_owned();
        let mut scenarios = Vec::new();
        for line in text.lines().skip(1) {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(total) = line.strip_prefix("Total: ") {
                let (passed, failed) = passed_failed(total)?;
                return Some(Self {
                    text,
                    scenarios,
                    passed,
                    failed,
                });
            }
            scenarios.push(ScenarioLine::parse(line)?);
        }
        None
    }
}

/// The checks of every scenario of a leg: `(scenario, checks)` from each
/// `server-<scenario>-<timestamp>/checks.json`, sorted.
fn read_checks(dir: &Path) -> Vec<(String, Vec<Value>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let file = entry.path().join("checks.json");
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // a skipped scenario's folder holds nothing
        };
        let checks: Vec<Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a JSON array: {e}", file.display()));
        // `server-<scenario>-2026-11-26T17-03-57-556Z`
        let folder = entry.file_name().to_string_lossy().into_owned();
        let name = folder.strip_prefix("server-").unwrap_or(&folder);
        let name = name
            .len()
            .checked_sub("-2026-11-26T17-03-57-556Z".len())
            .map_or(name, |end| &name[..end]);
        out.push((name.to_owned(), checks));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `50 scenarios, 197 checks: 196 SUCCESS, 1 SKIPPED`.
fn tally(checks: &[(String, Vec<Value>)]) -> String {
    let mut by_status = BTreeMap::<String, usize>::new();
    for check in checks.iter().flat_map(|(_, list)| list) {
        let status = check["status"].as_str().unwrap_or("(no status)").to_owned();
        *by_status.entry(status).or_default() += 1;
    }
    let mut out = format!(
        "{} scenarios, {} checks",
        checks.len(),
        by_status.values().sum::<usize>()
    );
    for (i, (status, count)) in by_status.iter().enumerate() {
        let _ = write!(out, "{}{count} {status}", if i == 0 { ": " } else { ", " });
    }
    out
}

/// The checks with one of `statuses`, one line each (at most [`LISTED_CHECKS`], and a line
/// saying how many more).
fn failing_checks(checks: &[(String, Vec<Value>)], statuses: &[&str]) -> Vec<String> {
    let text = |value: &Value| shorten(value.as_str().unwrap_or_default());
    let mut lines: Vec<String> = checks
        .iter()
        .flat_map(|(scenario, list)| list.iter().map(move |check| (scenario, check)))
        .filter(|(_, check)| statuses.iter().any(|s| check["status"] == *s))
        .map(|(scenario, check)| {
            let mut line = format!(
                "{scenario} [{}] {}: {}",
                text(&check["id"]),
                text(&check["status"]),
                text(&check["description"])
            );
            if let Some(message) = check["errorMessage"].as_str() {
                let _ = write!(line, " ({})", shorten(message));
            }
            line
        })
        .collect();
    if lines.len() > LISTED_CHECKS {
        let more = lines.len() - LISTED_CHECKS;
        lines.truncate(LISTED_CHECKS);
        lines.push(format!("… and {more} more (see the checks.json files)"));
    }
    lines
}

/// `text` on one line, cut at 300 characters.
fn shorten(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(300) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line,
    }
}

/// `tests/interop/conformance/expected-failures.yaml`: `server:` entries, each a scenario or a
/// `scenario:check-id`, with its reason as a comment beside it.
struct Baseline {
    /// Its entries: a scenario, and a check of it or `None` for the whole scenario.
    entries: Vec<(String, Option<String>)>,
}

impl Baseline {
    /// Reads and checks it (the rules are in the file's comment).
    fn read(path: &Path) -> Self {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Self::parse(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
    }

    /// Parses and checks its text; an error starts with its line number.
    fn parse(text: &str) -> Result<Self, String> {
        let mut entries = Vec::new();
        let mut in_server = false;
        for (number, line) in (1..).zip(text.lines()) {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (item, reason) = match trimmed.split_once(" #") {
                Some((item, reason)) => (item.trim(), reason.trim()),
                None => (trimmed, ""),
            };
            if !line.starts_with([' ', '-']) {
                in_server = match item {
                    "server:" => true,
                    "server: []" => false,
                    _ => return Err(format!("{number}: only `server:` entries are read: {line}")),
                };
                continue;
            }
            let Some(entry) = item.strip_prefix("- ").filter(|_| in_server) else {
                return Err(format!("{number}: not a `server:` entry: {line}"));
            };
            let entry = entry.trim().trim_matches(['"', '\'']);
            if reason.is_empty() {
                return Err(format!(
                    "{number}: `{entry}` needs its reason beside it (`- {entry}  # why`)"
                ));
            }
            let lower = entry.to_ascii_lowercase();
            if let Some(word) = NEVER_IN_BASELINE.iter().find(|w| lower.contains(*w)) {
                return Err(format!(
                    "{number}: `{entry}` cannot be in the baseline (it is about {word}): it \
                     must pass"
                ));
            }
            entries.push(match entry.split_once(':') {
                Some((scenario, check)) => (scenario.to_owned(), Some(check.to_owned())),
                None => (entry.to_owned(), None),
            });
        }
        Ok(Self { entries })
    }

    /// Whether it has an entry about `scenario`.
    fn lists(&self, scenario: &str) -> bool {
        self.entries.iter().any(|(s, _)| s == scenario)
    }

    /// Its entries about what passed in this leg: a scenario with no failure, a check that
    /// succeeded. (The suite finds those of the scored scenarios too; not those of the others.)
    fn stale(&self, summary: &Summary, checks: &[(String, Vec<Value>)]) -> Vec<String> {
        let mut stale = Vec::new();
        for (scenario, check) in &self.entries {
            let Some(line) = summary.scenarios.iter().find(|l| &l.name == scenario) else {
                continue; // not run in this leg
            };
            match check {
                None if line.failed == 0 => stale.push(scenario.clone()),
                None => {}
                Some(id) => {
                    let passed = checks
                        .iter()
                        .filter(|(name, _)| name == scenario)
                        .flat_map(|(_, list)| list)
                        .any(|c| c["id"] == id.as_str() && c["status"] == "SUCCESS");
                    if passed {
                        stale.push(format!("{scenario}:{id}"));
                    }
                }
            }
        }
        stale
    }
}

/// The last `count` lines of a file.
fn tail(path: &Path, count: usize) -> String {
    last_lines(
        &String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()),
        count,
    )
}

/// The readers of the suite's output and of the baseline, on samples (no server, no suite).
#[test]
fn reads_a_summary_and_a_baseline() {
    let stdout = "Running requirements 2025-11-25 (2 scenarios) against http://127.0.0.1:1/mcp\n\
                  \n=== SUMMARY ===\n\
                  \u{1b}[32m✓ ping: 2 passed, 0 failed\u{1b}[0m\n\
                  ✗ tools-list: 1 passed, 2 failed\n\
                  \nTotal: 3 passed, 2 failed\n\
                  \nBaseline check passed: all failures are expected.\n";
    let summary = Summary::parse(&strip_ansi(stdout)).expect("a summary");
    let lines: Vec<_> = summary
        .scenarios
        .iter()
        .map(|s| (s.ok, s.name.as_str(), s.passed, s.failed))
        .collect();
    assert_eq!(lines, [(true, "ping", 2, 0), (false, "tools-list", 1, 2)]);
    assert_eq!((summary.passed, summary.failed), (3, 2));
    assert!(summary.text.ends_with("all failures are expected."));
    // Cut short: no `Total:` line.
    assert!(Summary::parse("=== SUMMARY ===\n✓ ping: 2 passed, 0 failed\n").is_none());

    let empty = Baseline::parse("# nothing\nserver: []\n").expect("the empty baseline");
    assert!(empty.entries.is_empty());
    let listed = Baseline::parse(
        "server:\n  - tools-list  # a reason\n  - \"caching:sep-2549-ttl-non-negative\"  # another\n",
    )
    .expect("a baseline");
    assert!(listed.lists("tools-list") && listed.lists("caching") && !listed.lists("ping"));
    let stale = Baseline::parse(
        "server:\n- ping  # passes\n- tools-list  # fails\n- tools-list:b  # passes\n\
         - tools-list:a  # fails\n- caching  # not run\n",
    )
    .expect("a baseline")
    .stale(
        &summary,
        &[(
            "tools-list".to_owned(),
            vec![
                serde_json::json!({"id": "a", "status": "FAILURE"}),
                serde_json::json!({"id": "b", "status": "SUCCESS"}),
            ],
        )],
    );
    assert_eq!(stale, ["ping", "tools-list:b"]);
    for (text, error) in [
        ("server:\n  - tools-list\n", "needs its reason"),
        (
            "server:\n  - tools-call-elicitation  # no\n",
            "about elicitation",
        ),
        (
            "server:\n  - input-required-result-basic-list-roots  # no\n",
            "about roots",
        ),
        ("server:\n  - tools-call-sampling  # no\n", "about sampling"),
        (
            "server:\n  - json-schema-2020-12:sep-2106-anchor  # no\n",
            "json-schema",
        ),
        ("client:\n  - tools_call  # no\n", "only `server:`"),
    ] {
        let found = Baseline::parse(text).err().unwrap_or_default();
        assert!(found.contains(error), "{text:?}: {found:?}");
    }
}
