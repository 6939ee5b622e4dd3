//! Decode and encode throughput of `ClientMessage` / `ServerMessage` on a realistic corpus,
//! as time ratios against baselines measured in the same run: `serde_json::from_str` into
//! `IgnoredAny` (the parse floor) and into `serde_json::Value`; encoding against `Value`.
//!
//! `cargo bench -p mcp-typed --bench messages --features v2025_11_25,v2026_07_28`
//! (the official examples are read from `$MCP_SCHEMA_MIRROR`, default `../shared/mcp-schema`).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::de::IgnoredAny;
use serde_json::Value;

/// Median time of one pass over `corpus` with `f`, and of dropping what it built (kept apart,
/// so decode times compare parse + build; the drop is reported on its own).
fn measure_with_drop<T>(corpus: &[String], mut f: impl FnMut(&str) -> T) -> (Duration, Duration) {
    let mut decode = Vec::new();
    let mut drop_times = Vec::new();
    for _ in 0..31 {
        let mut built = Vec::with_capacity(corpus.len() * 10);
        let start = Instant::now();
        for _ in 0..10 {
            for text in corpus {
                built.push(f(text));
            }
        }
        decode.push(start.elapsed() / 10);
        let start = Instant::now();
        drop(black_box(built));
        drop_times.push(start.elapsed() / 10);
    }
    decode.sort();
    drop_times.sort();
    (decode[decode.len() / 2], drop_times[drop_times.len() / 2])
}

fn measure(corpus: &[String], f: impl FnMut(&str)) -> Duration {
    measure_with_drop(corpus, f).0
}

// The corpus is written as text with members in the order real peers write them (the
// TypeScript SDK: `jsonrpc`, `id`, `method`, `params`; `type` first in content blocks), since
// `serde_json::Value` would sort them.

fn tool(i: usize) -> String {
    format!(
        r#"{{"name":"tool_{i}","title":"Tool number {i}","description":"Looks things up in the project index and returns the matching entries with their locations and a short excerpt of each.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for"}},"limit":{{"type":"integer","minimum":1,"maximum":100}},"kinds":{{"type":"array","items":{{"type":"string","enum":["file","symbol","doc"]}}}}}},"required":["query"]}},"annotations":{{"readOnlyHint":true,"openWorldHint":false}}}}"#
    )
}

/// Messages a server sends (what a client decodes), 2025-11-25.
fn server_corpus() -> Vec<String> {
    let text = "lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(80);
    let tools: Vec<String> = (0..40).map(tool).collect();
    let mut out = vec![
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}],"nextCursor":"page-2"}}}}"#, tools.join(",")),
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"content":[{{"type":"text","text":"{}"}},{{"type":"text","text":"{}"}}],"structuredContent":{{"hits":3}}}}}}"#, &text[..1024], &text[1024..3072]),
        r##"{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"mode":"form","message":"Please provide your contact information","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Full name","minLength":1,"maxLength":100},"email":{"type":"string","format":"email","title":"Email"},"age":{"type":"integer","minimum":18,"maximum":130},"color":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}]},"topics":{"type":"array","minItems":1,"items":{"type":"string","enum":["rust","mcp","json"]},"default":["rust"]}},"required":["name","email"]}}}"##.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"db","data":{"rows":12,"ms":3.5}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool: nope"}}"#.to_owned(),
    ];
    for i in 0..10 {
        out.push(format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"op-{i}","progress":{},"total":100,"message":"Reticulating splines"}}}}"#, i * 10));
    }
    out
}

/// Messages a client sends (what a server decodes), 2025-11-25.
fn client_corpus() -> Vec<String> {
    let mut out = vec![
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"page-2"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"name":"Ada","email":"ada@example.com","age":36,"topics":["rust","mcp"]}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":4,"result":{"roots":[{"uri":"file:///home/ada/project","name":"project"}]}}"#.to_owned(),
    ];
    for i in 0..10 {
        out.push(format!(r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"tool_{i}","arguments":{{"query":"fn main","limit":20,"kinds":["symbol"]}},"_meta":{{"progressToken":{i}}}}}}}"#, 10 + i));
    }
    out
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

/// The official 2026-07-28 examples that are JSON-RPC messages, split by the side that sends them.
fn official_corpus() -> (Vec<String>, Vec<String>) {
    use mcp_typed::v2026_07_28::{ClientMessage, ServerMessage};
    let mirror = std::env::var_os("MCP_SCHEMA_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/mcp-schema"
            ))
        });
    let (mut client, mut server) = (Vec::new(), Vec::new());
    let mut dirs: Vec<_> = std::fs::read_dir(mirror.join("2026-07-28/examples"))
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        for file in std::fs::read_dir(dir).expect("dir") {
            let text = std::fs::read_to_string(file.expect("file").path()).expect("read");
            let compact = minify(&text);
            if compact.parse::<ClientMessage>().is_ok() {
                client.push(compact);
            } else if compact.parse::<ServerMessage>().is_ok() {
                server.push(compact);
            }
        }
    }
    (client, server)
}

fn report<M: std::str::FromStr + serde::Serialize>(name: &str, corpus: &[String]) -> (f64, f64)
where
    M::Err: std::fmt::Debug,
{
    let bytes: usize = corpus.iter().map(String::len).sum();
    let (floor, _) = measure_with_drop(corpus, |t| {
        serde_json::from_str::<IgnoredAny>(t).expect("json")
    });
    let (value, value_drop) =
        measure_with_drop(corpus, |t| serde_json::from_str::<Value>(t).expect("json"));
    let (typed, typed_drop) = measure_with_drop(corpus, |t| t.parse::<M>().expect("decodes"));
    let values: Vec<Value> = corpus
        .iter()
        .map(|t| serde_json::from_str(t).expect("json"))
        .collect();
    let messages: Vec<M> = corpus.iter().map(|t| t.parse().expect("decodes")).collect();
    let encode_value = time_encode(&values);
    let encode_typed = time_encode(&messages);
    if std::env::var_os("BENCH_DETAIL").is_some() {
        for text in corpus {
            let one = std::slice::from_ref(text);
            let floor = measure(one, |t| {
                black_box(serde_json::from_str::<IgnoredAny>(t).expect("json"));
            });
            let typed = measure(one, |t| {
                black_box(t.parse::<M>().expect("decodes"));
            });
            println!(
                "    {:>5.2}x  {}",
                typed.as_secs_f64() / floor.as_secs_f64(),
                &text[..text.len().min(90)]
            );
        }
    }
    let mb = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{name:<34} {:>3} msgs {:>6} B | decode: IgnoredAny {:>5.0} MB/s, Value {:>4.2}x, typed {:>4.2}x | +drop: Value {:>4.2}x, typed {:>4.2}x | encode typed/Value {:>4.2}x",
        corpus.len(),
        bytes,
        mb(floor),
        value.as_secs_f64() / floor.as_secs_f64(),
        typed.as_secs_f64() / floor.as_secs_f64(),
        (value + value_drop).as_secs_f64() / floor.as_secs_f64(),
        (typed + typed_drop).as_secs_f64() / floor.as_secs_f64(),
        encode_typed.as_secs_f64() / encode_value.as_secs_f64(),
    );
    (
        typed.as_secs_f64() / floor.as_secs_f64(),
        encode_typed.as_secs_f64() / encode_value.as_secs_f64(),
    )
}

/// The corpus decoded into its direction's message type.
enum Typed {
    Server2025(Vec<mcp_typed::v2025_11_25::ServerMessage>),
    Client2025(Vec<mcp_typed::v2025_11_25::ClientMessage>),
    Server2026(Vec<mcp_typed::v2026_07_28::ServerMessage>),
    Client2026(Vec<mcp_typed::v2026_07_28::ClientMessage>),
}

impl Typed {
    fn decode(corpus: &[String], server: bool, is_2026: bool) -> Self {
        fn all<M: std::str::FromStr>(corpus: &[String]) -> Vec<M>
        where
            M::Err: std::fmt::Debug,
        {
            corpus.iter().map(|t| t.parse().expect("decodes")).collect()
        }
        match (server, is_2026) {
            (true, false) => Typed::Server2025(all(corpus)),
            (false, false) => Typed::Client2025(all(corpus)),
            (true, true) => Typed::Server2026(all(corpus)),
            (false, true) => Typed::Client2026(all(corpus)),
        }
    }

    fn encode(&self, index: usize) {
        let text = match self {
            Typed::Server2025(m) => serde_json::to_string(&m[index]),
            Typed::Client2025(m) => serde_json::to_string(&m[index]),
            Typed::Server2026(m) => serde_json::to_string(&m[index]),
            Typed::Client2026(m) => serde_json::to_string(&m[index]),
        };
        drop(black_box(text.expect("encodes")));
    }
}

fn time_encode<T: serde::Serialize>(items: &[T]) -> Duration {
    let mut samples: Vec<Duration> = (0..31)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..10 {
                for item in items {
                    black_box(serde_json::to_string(item).expect("encodes"));
                }
            }
            start.elapsed() / 10
        })
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    use mcp_typed::{v2025_11_25, v2026_07_28};
    // `BENCH_ONLY=<corpus>:<codec>`: run one codec over one corpus 20 times and nothing else,
    // for an instruction count under callgrind (scripts/bench-instructions.sh), which unlike
    // wall-clock time is stable on a shared machine.
    if let Some(only) = std::env::var_os("BENCH_ONLY") {
        let only = only.to_string_lossy().into_owned();
        let (corpus_name, codec) = only.split_once(':').expect("BENCH_ONLY=<corpus>:<codec>");
        let (official_client, official_server) = official_corpus();
        let corpus = match corpus_name {
            "server" => server_corpus(),
            "client" => client_corpus(),
            "official-server" => official_server,
            "official-client" => official_client,
            other => panic!("unknown corpus {other}"),
        };
        // `BENCH_GREP=<text>`: only the messages that contain it; `BENCH_GREP=!<text>`: those
        // that do not (to profile one message, or the corpus without it).
        let grep = std::env::var("BENCH_GREP").unwrap_or_default();
        let (keep, grep) = match grep.strip_prefix('!') {
            Some(rest) => (false, rest.to_owned()),
            None => (true, grep),
        };
        let corpus: Vec<String> = corpus
            .into_iter()
            .filter(|t| grep.is_empty() || t.contains(&grep) == keep)
            .collect();
        let server = corpus_name.contains("server");
        let is_2026 = corpus_name.starts_with("official");
        let values: Vec<Value> = corpus
            .iter()
            .map(|t| serde_json::from_str(t).expect("json"))
            .collect();
        // The typed messages to encode, decoded in the setup (which `none` counts too), so the
        // typed encode is counted alone, like the `Value` encode of the parsed `values`.
        let typed = Typed::decode(&corpus, server, is_2026);
        for _ in 0..20 {
            for (index, (text, value)) in corpus.iter().zip(&values).enumerate() {
                match (codec, server, is_2026) {
                    ("none", ..) => {}
                    ("ignored", ..) => drop(black_box(
                        serde_json::from_str::<IgnoredAny>(text).expect("json"),
                    )),
                    ("value", ..) => drop(black_box(
                        serde_json::from_str::<Value>(text).expect("json"),
                    )),
                    ("typed", true, false) => drop(black_box(
                        text.parse::<v2025_11_25::ServerMessage>().expect("decodes"),
                    )),
                    ("typed", false, false) => drop(black_box(
                        text.parse::<v2025_11_25::ClientMessage>().expect("decodes"),
                    )),
                    ("typed", true, true) => drop(black_box(
                        text.parse::<v2026_07_28::ServerMessage>().expect("decodes"),
                    )),
                    ("typed", false, true) => drop(black_box(
                        text.parse::<v2026_07_28::ClientMessage>().expect("decodes"),
                    )),
                    ("encode-value", ..) => {
                        drop(black_box(serde_json::to_string(value).expect("encodes")))
                    }
                    ("encode-typed", ..) => typed.encode(index),
                    (other, ..) => panic!("unknown codec {other}"),
                }
            }
        }
        return;
    }
    println!("ratios are times relative to the baseline of the same row (lower is faster)");
    report::<v2025_11_25::ServerMessage>("server -> client (2025-11-25)", &server_corpus());
    report::<v2025_11_25::ClientMessage>("client -> server (2025-11-25)", &client_corpus());
    let (client, server) = official_corpus();
    report::<v2026_07_28::ServerMessage>("official examples, server (2026)", &server);
    report::<v2026_07_28::ClientMessage>("official examples, client (2026)", &client);
}
