#!/usr/bin/env bash
# Decoding and encoding MCP messages by the clock (bench/, see its src/main.rs): every public way
# to decode a message with mcp-typed (`FromStr`, serde_json's `from_str`, `from_slice`,
# `from_reader`, and `from_value`), serde_json's parse floor (`IgnoredAny`), `Value` and rmcp,
# interleaved in one run, over each direction's whole corpus: synthetic 2025-11-25 traffic, the
# official 2026-07-28 examples, and the captured traffic of the Python SDK 2.3.0 and the
# TypeScript SDK 1.32.2 with our peers. Prints a Markdown table of median ratios with the lowest
# and highest of the rounds.
#
#   scripts/bench-decode.sh [ROUNDS]   (default 21; the official examples are fetched as
#   `cargo run --bin mcp-codegen -- fetch` does: from $MCP_SCHEMA_MIRROR, or the pinned upstream)
#   BENCH_DETAIL=1 scripts/bench-decode.sh [ROUNDS]   instead: `FromStr` against the floor by
#   kind of message (method, or the members that name a result), with each kind's share of the
#   time spent over the floor: where decoding is slow.
#   BENCH_FEATURES=mimalloc scripts/bench-decode.sh [ROUNDS]   every codec under mimalloc
#   instead of the system allocator.
#   BENCH_FEATURES=alloc-replay scripts/bench-decode.sh [ROUNDS]   one more reference row: the
#   floor plus the allocator calls of each decoded message replayed (the allocator's share).
#   BENCH_ORDER=kind scripts/bench-decode.sh [ROUNDS]   the messages of each kind together
#   rather than in the order traffic brings them.
#   BENCH_PROFILE=CODEC[,DIRECTION[,TEXT]] scripts/bench-decode.sh   one codec alone for ten
#   seconds, for a sampling profiler on bench/target/release/mcp-typed-bench (bench/src/main.rs).
#
# Run it on an otherwise idle machine: the ratios are of wall-clock times.
set -euo pipefail
cd "$(dirname "$0")/.."
# The official examples, into schema/ (checked against their sha256).
cargo run --quiet --bin mcp-codegen -- fetch > /dev/null
cargo build --quiet --release --manifest-path bench/Cargo.toml ${BENCH_FEATURES:+--features "$BENCH_FEATURES"}
BENCH_ROUNDS="${1:-21}" bench/target/release/mcp-typed-bench
