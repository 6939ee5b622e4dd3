//! Decoding and encoding `ClientMessage` / `ServerMessage` over the benchmark corpora, one codec
//! at a time (`BENCH_ONLY=<corpus>:<codec>`), for the instruction counts of
//! scripts/bench-instructions.sh: a stable second view beside the clock of
//! scripts/bench-decode.sh (bench/). The official examples are read from
//! schema/2026-07-28/examples (`cargo run --bin mcp-codegen -- fetch` puts them there).

use std::hint::black_box;

use serde::de::IgnoredAny;
use serde_json::Value;

// Each user of the shared corpus takes what it needs.
#[allow(dead_code)]
mod corpus;
use corpus::{client_corpus, official_corpus, server_corpus};

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
                    ("serde", true, false) => drop(black_box(
                        serde_json::from_str::<v2025_11_25::ServerMessage>(text).expect("decodes"),
                    )),
                    ("serde", false, false) => drop(black_box(
                        serde_json::from_str::<v2025_11_25::ClientMessage>(text).expect("decodes"),
                    )),
                    ("serde", true, true) => drop(black_box(
                        serde_json::from_str::<v2026_07_28::ServerMessage>(text).expect("decodes"),
                    )),
                    ("serde", false, true) => drop(black_box(
                        serde_json::from_str::<v2026_07_28::ClientMessage>(text).expect("decodes"),
                    )),
                    ("borrowed", true, false) => drop(black_box(
                        v2025_11_25::borrowed::ServerMessageRef::parse(text).expect("decodes"),
                    )),
                    ("borrowed", false, false) => drop(black_box(
                        v2025_11_25::borrowed::ClientMessageRef::parse(text).expect("decodes"),
                    )),
                    ("borrowed", true, true) => drop(black_box(
                        v2026_07_28::borrowed::ServerMessageRef::parse(text).expect("decodes"),
                    )),
                    ("borrowed", false, true) => drop(black_box(
                        v2026_07_28::borrowed::ClientMessageRef::parse(text).expect("decodes"),
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
    eprintln!(
        "this bench counts instructions under callgrind (scripts/bench-instructions.sh, which \
         sets BENCH_ONLY); the clock is measured by scripts/bench-decode.sh"
    );
}
