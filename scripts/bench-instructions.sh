#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of decoding and encoding the message corpora of
# generated/benches/messages.rs: typed `ClientMessage`/`ServerMessage` against
# `serde_json::from_str::<IgnoredAny>` (the parse floor) and `serde_json::Value`, in the same run.
# Instruction counts are stable on a shared machine; wall-clock ratios here vary by 2x between runs.
# Each count runs the codec 20 times over the corpus; the setup (reading the corpus) is counted
# once with the codec `none` and subtracted.
# Usage: scripts/bench-instructions.sh   (needs valgrind; MCP_SCHEMA_MIRROR for the examples)
set -euo pipefail
cd "$(dirname "$0")/.."
export MCP_SCHEMA_MIRROR="${MCP_SCHEMA_MIRROR:-$(cd .. && pwd)/shared/mcp-schema}"
cargo bench -q -p mcp-schema --bench messages --features v2025_11_25,v2026_07_28 --no-run 2>/dev/null
bin=$(ls -t target/release/deps/messages-* | grep -v '\.d$' | head -n 1)
count() { # corpus codec -> instructions
  BENCH_ONLY="$1:$2" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-16s %16s %12s %12s %18s\n' corpus "IgnoredAny instr" "Value ×" "typed ×" "encode typed/Value"
for corpus in server client official-server official-client; do
  none=$(count "$corpus" none)
  ignored=$(count "$corpus" ignored)
  value=$(count "$corpus" value)
  typed=$(count "$corpus" typed)
  enc_value=$(count "$corpus" encode-value)
  enc_typed=$(count "$corpus" encode-typed)
  # encode-typed decodes each message too: its encode share is (encode-typed - typed).
  awk -v c="$corpus" -v n="$none" -v i="$ignored" -v v="$value" -v t="$typed" -v ev="$enc_value" -v et="$enc_typed" 'BEGIN {
    floor = i - n
    printf "%-16s %16d %11.2fx %11.2fx %17.2fx\n", c, floor, (v - n) / floor, (t - n) / floor, (et - t) / (ev - n)
  }'
done
