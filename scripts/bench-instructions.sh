#!/usr/bin/env bash
# Instruction counts (valgrind callgrind) of the benchmarks in generated/benches. Instruction
# counts are stable on a shared machine: a second view beside the clock of
# scripts/bench-decode.sh, which decides.
#
# messages: decoding and encoding the message corpora of generated/benches/messages.rs: typed
# `ClientMessage`/`ServerMessage` (by `FromStr` and by `serde_json::from_str`) and the borrowed
# `ClientMessageRef`/`ServerMessageRef` (`parse`) against
# `serde_json::from_str::<IgnoredAny>` (the parse floor) and `serde_json::Value`. Each count runs the codec 20 times over the corpus.
# The last two rows count each direction's corpus whole: its synthetic messages and the official
# examples that side sends (the decode goal, <= 2.5x the floor, is per direction).
#
# elicit: checking the contents of elicitation forms, generated/benches/elicit.rs: derived
# `from_json_str` against jsonschema's parse into `Value` + `is_valid` (goal <= 1/3), derived
# `from_content`, `Validator::validate` (goal <= 1/2) and `Validator::is_valid` against
# jsonschema's `is_valid` on the parsed `Value`, per form, valid and invalid contents apart, and
# over all forms. Each count runs the codec 100 times over the contents.
#
# In both, the setup (reading the corpus; building the forms and validators) is counted once
# with the codec `none` and subtracted.
# Usage: scripts/bench-instructions.sh [messages] [elicit]   (default both; needs valgrind;
# the official examples are fetched into schema/ first; honours CARGO_TARGET_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --bin mcp-codegen -- fetch > /dev/null # the official examples, into schema/

build() { # bench [cargo args...] -> the path of the built bench binary
  local log
  log=$(cargo bench -p mcp-typed --bench "$@" --no-run 2>&1) || {
    printf '%s\n' "$log" >&2
    return 1
  }
  printf '%s\n' "$log" | sed -n 's/^ *Executable .*(\(.*\))$/\1/p' | tail -n 1
}

count() { # binary BENCH_ONLY -> instructions
  BENCH_ONLY="$2" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

messages() {
  local bin corpus none codec
  local -A net=() # "<corpus>:<codec>" -> net instructions (the setup, codec `none`, subtracted)
  local codecs=(ignored value typed serde borrowed encode-value encode-typed)
  bin=$(build messages --features v2025_11_25,v2026_07_28,borrowed)
  printf '%-16s %16s %10s %10s %10s %10s %18s\n' corpus "IgnoredAny instr" "Value ×" "FromStr ×" "serde ×" "borrowed ×" "encode typed/Value"
  for corpus in server client official-server official-client; do
    none=$(count "$bin" "$corpus:none")
    for codec in "${codecs[@]}"; do
      net[$corpus:$codec]=$(($(count "$bin" "$corpus:$codec") - none))
      # Each direction's corpus as a whole: its synthetic messages and the official examples.
      local direction=${corpus#official-}
      net[$direction-all:$codec]=$((${net[$direction-all:$codec]:-0} + ${net[$corpus:$codec]}))
    done
  done
  for corpus in server client official-server official-client server-all client-all; do
    row "$corpus" "${net[$corpus:ignored]}" "${net[$corpus:value]}" "${net[$corpus:typed]}" \
      "${net[$corpus:serde]}" "${net[$corpus:borrowed]}" "${net[$corpus:encode-value]}" "${net[$corpus:encode-typed]}"
  done
}

row() { # name floor value typed serde borrowed enc_value enc_typed (net instructions)
  awk -v c="$1" -v i="$2" -v v="$3" -v t="$4" -v s="$5" -v b="$6" -v ev="$7" -v et="$8" 'BEGIN {
    printf "%-16s %16d %9.2fx %9.2fx %9.2fx %9.2fx %17.2fx\n", c, i, v / i, t / i, s / i, b / i, et / ev
  }'
}

elicit() {
  local bin form subset codec none n
  local -A net=() # "<form>/<subset>:<codec>" -> instructions without the setup
  bin=$(build elicit --features derive)
  local codecs=(jsonschema-decode decode from-content jsonschema validate is-valid)
  for form in contact signup meeting confirm; do
    for subset in valid invalid; do
      none=$(count "$bin" "$form/$subset:none")
      for codec in "${codecs[@]}"; do
        n=$(count "$bin" "$form/$subset:$codec")
        net["$form/$subset:$codec"]=$((n - none))
        net["$form/all:$codec"]=$((${net["$form/all:$codec"]:-0} + n - none))
        net["all/$subset:$codec"]=$((${net["all/$subset:$codec"]:-0} + n - none))
        net["all/all:$codec"]=$((${net["all/all:$codec"]:-0} + n - none))
      done
    done
  done
  echo "(1) jsonschema parse+is_valid  (2) derived from_json_str  (3) derived from_content"
  echo "(4) jsonschema is_valid  (5) Validator::validate  (6) Validator::is_valid;"
  echo "instructions for 100 passes"
  printf '%-18s %11s %11s %11s %11s %11s %11s %8s %8s %8s %8s\n' form "(1)" "(2)" "(3)" "(4)" "(5)" "(6)" \
    "(2)/(1)" "(3)/(4)" "(5)/(4)" "(6)/(4)"
  for form in contact signup meeting confirm all; do
    for subset in all valid invalid; do
      awk -v a="${net["$form/$subset:jsonschema-decode"]}" -v b="${net["$form/$subset:decode"]}" \
        -v c="${net["$form/$subset:from-content"]}" -v d="${net["$form/$subset:jsonschema"]}" \
        -v e="${net["$form/$subset:validate"]}" -v g="${net["$form/$subset:is-valid"]}" \
        -v subset="$subset" -v f="$form" 'BEGIN {
        name = (subset == "all") ? f : "  " f ", " subset
        printf "%-18s %11d %11d %11d %11d %11d %11d %7.2fx %7.2fx %7.2fx %7.2fx\n", name, a, b, c, d, e, g,
          b / a, c / d, e / d, g / d
      }'
    done
  done
  awk -v a="${net["all/all:jsonschema-decode"]}" -v b="${net["all/all:decode"]}" \
    -v d="${net["all/all:jsonschema"]}" -v e="${net["all/all:validate"]}" 'BEGIN {
    printf "goal (2)/(1) <= 0.33: %.2fx, %s; goal (5)/(4) <= 0.50: %.2fx, %s\n",
      b / a, (b / a <= 1 / 3) ? "met" : "NOT met", e / d, (e / d <= 0.5) ? "met" : "NOT met"
  }'
}

benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(messages elicit)
for bench in "${benches[@]}"; do
  case "$bench" in
    messages | elicit)
      [ ${#benches[@]} -eq 1 ] || echo "== $bench"
      "$bench"
      ;;
    *)
      echo "unknown bench $bench: messages or elicit" >&2
      exit 2
      ;;
  esac
done
