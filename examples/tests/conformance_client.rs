//! The official MCP conformance suite against `conformance-client`
//! (`examples/src/bin/conformance_client/`: rmcp's Streamable HTTP client with
//! `mcp_typed_rmcp::client::TypedClient`, and rmcp's OAuth for `auth/*`), the client side of
//! what `tests/conformance.rs` does for the server. The suite
//! (`@modelcontextprotocol/conformance` 0.2.0-alpha.12 on Node 22, pinned by
//! `tests/interop/conformance/package-lock.json`) is installed on first use by
//! `mcp_typed_tests::installed::conformance_suite`; it starts its own mock servers and runs the
//! client once per scenario, the server URL as the last argument.
//!
//! The legs, one after the other:
//!
//! 1. `conformance client --requirements 2025-11-25` (stateful wire) and
//!    `--requirements 2026-07-28` (stateless wire). Every scored scenario must be marked ✓: the
//!    named ones below (`initialize`, `tools_call`, `elicitation-sep1034-client-defaults`,
//!    `sse-retry` in 2025-11-25; `tools_call`, `request-metadata`,
//!    `sep-2322-client-request-state`, `http-*-headers`, `json-schema-ref-no-deref` in
//!    2026-07-28) and the `auth/*` ones, which the client passes with rmcp's OAuth support
//!    (at least 14 and 25 of them ran, so none can drop out unseen). The unscored extension
//!    scenarios (`auth/dpop`, client credentials, …) run and their totals are printed, not
//!    required; they make the suite's exit status 1, which is not checked.
//! 2. `conformance client --scenario json-schema-2020-12-preservation` (not scored by either
//!    revision) at its default spec version and with `--spec-version 2026-07-28`: exits 0 with
//!    `Passed: N/N, 0 failed, 0 warnings`.
//!
//! Each leg is bounded in time (killed past its limit, and the test fails). The output of each
//! leg and its `checks.json` files are kept in `target/tmp/conformance-client/`.
//!
//! ```sh
//! cargo test -p mcp-typed-examples --test conformance_client -- --nocapture
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_typed_tests::installed::conformance_suite;

mod support;
use support::suite::{last_lines, strip_ansi, unscored, ScenarioLine};

const CLIENT: &str = env!("CARGO_BIN_EXE_conformance-client");

/// How long a requirements leg may take (1 to 2 minutes here; 30 s per scenario at most).
const REQUIREMENTS_LIMIT: Duration = Duration::from_secs(10 * 60);
/// How long a single-scenario leg may take.
const SCENARIO_LIMIT: Duration = Duration::from_secs(2 * 60);

/// Per revision: the scored scenarios that are not `auth/*`, each must pass, and how many
/// scored `auth/*` scenarios at least must run (every one that runs must pass).
const REQUIRED: [(&str, &[&str], usize); 2] = [
    (
        "2025-11-25",
        &[
            "initialize",
            "tools_call",
            "elicitation-sep1034-client-defaults",
            "sse-retry",
        ],
        14,
    ),
    (
        "2026-07-28",
        &[
            "tools_call",
            "request-metadata",
            "sep-2322-client-request-state",
            "http-standard-headers",
            "http-custom-headers",
            "http-invalid-tool-headers",
            "json-schema-ref-no-deref",
        ],
        25,
    ),
];

const PRESERVATION: &str = "json-schema-2020-12-preservation";

#[test]
fn conformance_client_passes_the_official_client_scenarios() {
    let suite = conformance_suite();
    let results = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-client");
    let _ = std::fs::remove_dir_all(&results);
    std::fs::create_dir_all(&results).expect("create the results folder");
    println!(
        "@modelcontextprotocol/conformance {} on Node {}, client {CLIENT}, results in {}",
        suite.version,
        suite.node_version,
        results.display()
    );

    let mut problems = Vec::new();
    for (revision, required, auth_scored) in REQUIRED {
        let slug = format!("requirements-{revision}");
        let ran = run_leg(
            &["--requirements", revision],
            &results.join(&slug),
            REQUIREMENTS_LIMIT,
        );
        let Some(ran) = ran else {
            problems.push(format!(
                "{slug}: did not finish within {REQUIREMENTS_LIMIT:?}"
            ));
            continue;
        };
        let Some(scenarios) = summary(&ran) else {
            problems.push(format!(
                "{slug}: no `=== SUITE SUMMARY ===`; the end of its output:\n{}",
                last_lines(&ran, 40)
            ));
            continue;
        };
        let unscored = unscored(&ran);
        let total = |auth: bool, scored: bool| {
            let chosen = scenarios.iter().filter(|s| {
                s.name.starts_with("auth/") == auth && unscored.contains(&s.name) != scored
            });
            let (mut n, mut ok, mut passed, mut failed) = (0, 0, 0, 0);
            for s in chosen {
                n += 1;
                ok += usize::from(s.ok);
                passed += s.passed;
                failed += s.failed;
            }
            format!("{ok}/{n} scenarios passed ({passed} checks passed, {failed} failed)")
        };
        println!(
            "\n=== client totals {revision}: scored non-auth {}; scored auth {}; unscored \
             non-auth {}; unscored auth {}",
            total(false, true),
            total(true, true),
            total(false, false),
            total(true, false)
        );
        for name in required {
            match scenarios.iter().find(|s| s.name == *name) {
                Some(s) if s.ok => {}
                Some(s) => problems.push(format!(
                    "{slug}: {name} failed ({} passed, {} failed)",
                    s.passed, s.failed
                )),
                None => problems.push(format!("{slug}: {name} did not run")),
            }
        }
        for s in &scenarios {
            let scored = !unscored.contains(&s.name);
            if scored && !s.ok && !required.contains(&&*s.name) {
                problems.push(format!("{slug}: scored scenario {} failed", s.name));
            }
        }
        let auth_ran = scenarios
            .iter()
            .filter(|s| s.name.starts_with("auth/") && !unscored.contains(&s.name))
            .count();
        if auth_ran < auth_scored {
            problems.push(format!(
                "{slug}: {auth_ran} scored auth/* scenarios ran, {auth_scored} expected"
            ));
        }
    }
    for spec_version in [None, Some("2026-07-28")] {
        let mut args = vec!["--scenario", PRESERVATION];
        args.extend(spec_version.iter().flat_map(|v| ["--spec-version", v]));
        let slug = format!("{PRESERVATION}-{}", spec_version.unwrap_or("default"));
        match run_leg(&args, &results.join(&slug), SCENARIO_LIMIT) {
            None => problems.push(format!("{slug}: did not finish within {SCENARIO_LIMIT:?}")),
            Some(ran) => {
                let line = ran
                    .lines()
                    .skip_while(|l| l.trim() != "Test Results:")
                    .nth(1)
                    .unwrap_or_default()
                    .trim()
                    .to_owned();
                println!("\n=== {slug}: {line}");
                let counts: Vec<usize> = line
                    .strip_prefix("Passed: ")
                    .unwrap_or_default()
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|p| p.parse().ok())
                    .collect();
                let ok = matches!(counts[..], [p, n, 0, 0] if p == n && p > 0);
                if !ok || !ran.contains("OVERALL: PASSED") {
                    problems.push(format!(
                        "{slug}: not `Passed: N/N, 0 failed, 0 warnings`: `{line}`; the end of \
                         its output:\n{}",
                        last_lines(&ran, 40)
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the client conformance legs found problems (output in {}):\n- {}",
        results.display(),
        problems.join("\n- ")
    );
}

/// Runs `conformance client --command <client> <args> -o <dir>`, its output in `<dir>.txt`;
/// `None` when killed past `limit`, else its output, colours removed.
fn run_leg(args: &[&str], dir: &Path, limit: Duration) -> Option<String> {
    std::fs::create_dir_all(dir).expect("create the leg's folder");
    let out_file = dir.with_extension("txt");
    let out = std::fs::File::create(&out_file).expect("create the leg's output");
    let mut command = conformance_suite().command();
    command
        .args(["client", "--command", CLIENT])
        .args(args)
        .arg("-o")
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("the leg's output"))
        .stderr(out);
    println!(
        "\n=== conformance client --command {CLIENT} {}",
        args.join(" ")
    );
    let mut child = spawn(&mut command);
    let started = Instant::now();
    loop {
        if child.try_wait().expect("the suite's status").is_some() {
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&out_file).unwrap_or_default();
    Some(strip_ansi(&text))
}

fn spawn(command: &mut Command) -> std::process::Child {
    command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"))
}

/// The scenario lines of `=== SUITE SUMMARY ===`, up to `Total:`; printed.
fn summary(output: &str) -> Option<Vec<ScenarioLine>> {
    let start = output.find("=== SUITE SUMMARY ===")?;
    let text = &output[start..];
    println!("{}", text.trim_end());
    let mut scenarios = Vec::new();
    for line in text.lines().skip(1).map(str::trim) {
        if line.is_empty() {
            continue;
        }
        if line.starts_with("Total: ") {
            return Some(scenarios);
        }
        scenarios.push(ScenarioLine::parse(line)?);
    }
    None
}

#[test]
fn reads_a_suite_summary() {
    let output = "x\n=== SUITE SUMMARY ===\n\n✓ tools_call: 2 passed, 0 failed\n\
                  ✗ auth/dpop: 0 passed, 3 failed\n\nTotal: 2 passed, 3 failed, 0 warnings\n\n\
                  Not scored for 2026-07-28: 1 scenario(s) run, 1 failing.\n  \
                  ✗ auth/dpop (extension)\n";
    let scenarios = summary(output).expect("a summary");
    assert_eq!(scenarios.len(), 2);
    assert!(scenarios[0].ok && scenarios[0].name == "tools_call" && scenarios[0].passed == 2);
    assert!(!scenarios[1].ok && scenarios[1].failed == 3);
    assert_eq!(unscored(output), ["auth/dpop"]);
    assert_eq!(strip_ansi("\u{1b}[32mSUCCESS\u{1b}[0m"), "SUCCESS");
}
