#!/usr/bin/env bash
# Multi round-trip calls of 2026-07-28 under load (bench/src/bin/mrtr_load.rs): two release
# `everything-server` instances on loopback sharing a random MRTR_STATE_KEY, many concurrent
# calls of `test_input_required_result_multi_round` with every retry sent to the other instance,
# each call's last retry then replayed and required to be refused. Prints completions per
# second, the p50 and p99 latency of whole calls and the calls lost, wrongly refused or replayed
# (exit status 1 unless none), as Markdown with the command, date and machine; a row per replay
# store (`memory`: each instance its own; `redis`: one redis-server, which must be on the PATH).
#
#   scripts/bench-mrtr-load.sh [--calls N (1000)] [--concurrency N (= calls)] [--timeout SECS (120)]
#                              [--replay-store memory|redis|none[,…] (memory)]
#
# The bench builds the server itself (`cargo build --release -p mcp-typed-examples --bin
# everything-server`; `--server PATH` runs another). Run it on an otherwise idle machine: the
# client and both servers share its cores.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release --manifest-path bench/Cargo.toml --bin mrtr_load -- "$@"
