#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for SECONDS each (default 60), from the seed corpus made of
# real data (official examples and schemas, captured peer traffic, the validation corpus, real
# sealed tokens), and prints each target's executions and coverage.
#
#   scripts/fuzz.sh [SECONDS] [TARGET…]
#   FUZZ_CODEGEN_UNITS=1 scripts/fuzz.sh 3600 messages   (faster runs, slower build)
#   FUZZ_DEBUGINFO=line-tables-only scripts/fuzz.sh …     (file:line in RUST_BACKTRACE=1 traces)
#   FUZZ_PROFILE=dev scripts/fuzz.sh 15                   (unoptimized: builds in a fraction of
#                                                          the time, runs slower; CI's short pass)
#
# Each phase is stamped with the seconds since the script started.
#
# Engine: libFuzzer through cargo-fuzz (the well-kept coverage-guided fuzzer of the Rust
# ecosystem; it needs the nightly toolchain, installed here). No sanitizer: the crates forbid
# `unsafe`, so what is looked for is panics, overflows (debug assertions are on), stack
# exhaustion, timeouts and memory blow-ups, which libFuzzer reports without one, at several
# times the speed. A crash stops the run and leaves its input in fuzz/artifacts/<target>/:
# copy it into fuzz/regressions/<target>/ (replayed by tests/tests/fuzz_regressions.rs) with
# the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(messages requested_schema derived_form raw_object sealed_state params_digest schema_loader)

CARGO_FUZZ_VERSION=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  echo "== [+${SECONDS}s] installing cargo-fuzz $CARGO_FUZZ_VERSION: cargo +nightly install cargo-fuzz --version $CARGO_FUZZ_VERSION --locked --debug"
  # A debug build: it only runs cargo, and builds in 40% less CPU than a release one.
  cargo +nightly install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --quiet --debug
fi

echo "== [+${SECONDS}s] seeds (the official files are fetched first: cargo run --bin mcp-codegen -- fetch)"
cargo run --quiet --bin mcp-codegen -- fetch > /dev/null
corpus=target/fuzz-corpus
# A dev build: the seeds are the same, and a release build of everything the targets reach took
# 422 s where this one takes 108 s (2 cores, 2026-11-27), most of a CI run's fuzz step.
cargo run --quiet --manifest-path fuzz/Cargo.toml --example seeds -- "$corpus"

# Codegen units: cargo-fuzz builds with one by default, which leaves a core idle and took 8 of the
# CI's minutes once every message type had a borrowed form; 16 builds in about half the time for
# slightly slower runs. FUZZ_CODEGEN_UNITS=1 for long runs.
units="${FUZZ_CODEGEN_UNITS:-16}"
# The profile: release (fuzz/Cargo.toml's opt-level) for runs that are meant to find things;
# dev for a pass that checks every target builds and survives its seeds and some mutations.
profile="${FUZZ_PROFILE:-release}"
# No debuginfo: cargo-fuzz asks for line tables, which nothing here reads (a panic's message
# carries its location; without a sanitizer libFuzzer prints no stack trace). Without them the
# build took 14% less CPU and the targets are half the size (61 MB, not 121 MB, for messages).
# Given to `build` and `run` alike, or `run` would build again.
flags=(--sanitizer none --debug-assertions)
case "$profile" in
  release) flags+=(--release --codegen-units "$units") ;;
  dev) flags+=(--dev) ;;
  *) echo "FUZZ_PROFILE is release or dev, not $profile" >&2; exit 2 ;;
esac
export RUSTFLAGS="-Cdebuginfo=${FUZZ_DEBUGINFO:-0}${RUSTFLAGS:+ $RUSTFLAGS}"
if [ "$profile" = release ]; then
  echo "== [+${SECONDS}s] build (release at fuzz/Cargo.toml's opt-level, debug assertions, no sanitizer, $units codegen units, debuginfo ${FUZZ_DEBUGINFO:-0})"
else
  echo "== [+${SECONDS}s] build (dev: unoptimized, debug assertions, no sanitizer, debuginfo ${FUZZ_DEBUGINFO:-0})"
fi
cargo +nightly fuzz build "${flags[@]}"
echo "== [+${SECONDS}s] run each target for ${seconds}s"

for target in "${targets[@]}"; do
  mkdir -p "$corpus/$target" "fuzz/artifacts/$target"
  log="target/fuzz-$target.log"
  # -rss_limit_mb: a memory blow-up is a finding; -timeout: so is one input taking seconds.
  if ! cargo +nightly fuzz run "${flags[@]}" \
      "$target" "$corpus/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="fuzz/artifacts/$target/" > "$log" 2>&1; then
    # What failed, then the input itself: a CI log is often all there is of a finding.
    grep -m1 -A20 -E "panicked at|ERROR: libFuzzer|==ERROR|timeout after" "$log" || tail -40 "$log"
    for input in fuzz/artifacts/"$target"/*; do
      [ -f "$input" ] || continue
      echo "input $input ($(wc -c < "$input") bytes), base64:"
      head -c 65536 "$input" | base64 -w0
      echo
    done
    echo "FAILED: $target (input in fuzz/artifacts/$target/)"
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  echo "$target: ${runs:-?} executions in ${seconds}s, coverage ${cov:-?} edges, no crash"
done
