//! Codegen time for every pinned revision: read + load + IR + emit + prettyplease, per revision
//! and in total, with parsing the schema JSON into `serde_json::Value` as the in-run baseline.
//!
//! `cargo bench -p mcp-codegen --bench codegen` (the pinned schemas in `schema/`, fetched first
//! where missing, as `mcp-codegen fetch` does: from `$MCP_SCHEMA_MIRROR` or the pinned upstream
//! commit, each checked against its sha256).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::revisions::Revisions;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = mcp_codegen::workspace::Workspace::open(&root).expect("workspace");
    let fetch_from = SchemaSource::resolve(None);
    let revisions = Revisions::load(&root.join("schema/revisions.toml")).expect("revisions.toml");
    let runs = 15;
    let (mut total, mut total_parse) = (Duration::ZERO, Duration::ZERO);
    println!(
        "{:<12} {:>10} {:>12} {:>8} {:>8}",
        "revision", "codegen", "parse JSON", "ratio", "lines"
    );
    for rev in &revisions.revisions {
        let path = workspace.fetch(rev, &fetch_from).unwrap_or_else(|e| {
            panic!("fetching the pinned schema: {e}\n(set MCP_SCHEMA_MIRROR or allow downloads)")
        });
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut config = mcp_codegen::Config::new();
        config.schema_path(&path).revision_name(&rev.name);
        let mut lines = 0;
        let codegen = time(runs, || {
            let text = config.generate_string().expect("generates");
            lines = text.lines().count();
        });
        let parse = time(runs, || {
            let value: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
            std::hint::black_box(value);
        });
        total += codegen;
        total_parse += parse;
        println!(
            "{:<12} {:>8.1}ms {:>10.2}ms {:>7.0}x {:>8}",
            rev.name,
            ms(codegen),
            ms(parse),
            ratio(codegen, parse),
            lines
        );
    }
    println!(
        "{:<12} {:>8.1}ms {:>10.2}ms {:>7.0}x   (one after the other)",
        "sum",
        ms(total),
        ms(total_parse),
        ratio(total, total_parse)
    );
    // What `mcp-codegen generate` does: verify the pinned files (all present since the loop
    // above), render each distinct schema once, in parallel.
    let all: Vec<_> = workspace.revisions.revisions.iter().collect();
    let generate = time(runs, || {
        let rendered = workspace.render_all(&all, &fetch_from).expect("generates");
        std::hint::black_box(rendered);
    });
    println!("{:<12} {:>8.1}ms {:>10.2}ms {:>7.0}x   (generate: sha256 checks, identical schemas once, {} threads)", "generate", ms(generate), ms(total_parse), ratio(generate, total_parse), 2);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
