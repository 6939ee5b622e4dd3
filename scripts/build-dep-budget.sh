#!/usr/bin/env bash
# What a build script pays to depend on the generator: a scratch crate whose only
# build-dependency is `mcp-codegen` (this repository's, by path, default features), beside the
# same crate with `prost-build` and with `typify` instead, built clean in one run.
#
# For each generator, in a scratch folder under target/tmp/build-dep-budget (never in the
# repository's target), with its own target folder and CARGO_INCREMENTAL=0:
#   crates   the packages cargo compiles for the scratch crate (its "Compiling" lines, the
#            scratch crate left out): the generator and its whole normal closure
#   seconds  the wall time of `cargo build` from clean (`cargo clean` first), dependencies
#            downloaded beforehand (`cargo fetch`), so no network time is counted
# Runs are interleaved (run 1 of each generator, then run 2, ...); the median and the spread
# (min–max) of each are printed, and the ratio of medians to prost-build's.
#
#   bash scripts/build-dep-budget.sh [--runs N]      (default 3)
#
# The goal: mcp-codegen compiles at most 30 crates and no more than prost-build does, in no more
# time. Needs crates.io (prost-build and typify are downloaded).
set -euo pipefail

RUNS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        *) echo "usage: $0 [--runs N]" >&2; exit 2 ;;
    esac
done

REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$REPO/target/tmp/build-dep-budget"
mkdir -p "$WORK"

# name → the build-dependency line.
declare -A DEPENDENCY=(
    [mcp-codegen]="mcp-codegen = { path = \"$REPO/codegen\" }"
    [prost-build]='prost-build = "0.14"'
    [typify]='typify = "0.5"'
)
NAMES=(mcp-codegen prost-build typify)

for name in "${NAMES[@]}"; do
    dir="$WORK/$name"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<EOF
# Written by scripts/build-dep-budget.sh.
[package]
name = "uses-$name"
version = "0.0.0"
edition = "2021"
publish = false

[build-dependencies]
${DEPENDENCY[$name]}

# Not a member of the repository's workspace.
[workspace]
EOF
    echo 'fn main() {}' > "$dir/build.rs"
    : > "$dir/src/lib.rs"
    (cd "$dir" && cargo fetch --quiet)
done

declare -A TIMES CRATES
for run in $(seq 1 "$RUNS"); do
    for name in "${NAMES[@]}"; do
        dir="$WORK/$name"
        (cd "$dir" && cargo clean --quiet)
        start=$(date +%s.%N)
        log=$(cd "$dir" && CARGO_INCREMENTAL=0 cargo build --offline 2>&1)
        end=$(date +%s.%N)
        seconds=$(echo "$end - $start" | bc)
        crates=$(grep -c '^ *Compiling ' <<<"$log")
        crates=$((crates - 1)) # the scratch crate itself
        TIMES[$name]="${TIMES[$name]:-} $seconds"
        CRATES[$name]=$crates
        printf 'run %d  %-12s %3d crates  %6.1f s\n' "$run" "$name" "$crates" "$seconds"
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
spread() { tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%.1f–%.1f", lo, hi}'; }

base=$(median <<<"${TIMES[prost-build]}")
echo
echo "date $(date -u +%F), $(nproc) cores, rustc $(rustc --version | cut -d' ' -f2), $RUNS runs"
printf '%-12s %6s %9s %11s %13s\n' generator crates median spread "÷ prost-build"
for name in "${NAMES[@]}"; do
    m=$(median <<<"${TIMES[$name]}")
    printf '%-12s %6d %8.1fs %11s %12.2f×\n' "$name" "${CRATES[$name]}" "$m" \
        "$(spread <<<"${TIMES[$name]}")" "$(echo "$m / $base" | bc -l)"
done
