#!/usr/bin/env bash
# Compile-time and code-size budget of `mcp-typed` (generated/) and of `#[derive(Elicit)]`,
# measured against rust-mcp-schema 2.0.0 in the same run.
#
# What it measures, in a scratch directory (never in the repository), with its own
# CARGO_TARGET_DIR and CARGO_INCREMENTAL=0:
#
#   1. Compile time of the measured crate alone, dependencies already built: for each
#      configuration below, `cargo clean -p <crate> [--release]` then
#      `cargo build [--release] --timings`, and the crate's own rustc time is read from the
#      timings report (not the wall time of `cargo build`: no cargo start-up, no scratch crate),
#      with its frontend share (time until the crate's metadata was ready; the rest is codegen:
#      MIR optimisation, LLVM). A RUSTC_WRAPPER also records the user + system CPU time of that
#      rustc: it does not count waiting for a core, but still grows with cache and memory
#      contention, so on a shared machine it is a second opinion, not a noise-free figure.
#      Repetitions are interleaved (rep 1 of every configuration, then rep 2, ...) so that a
#      change of machine load hits all of them alike; the minimum (least disturbed by
#      concurrent load) and the median are printed, and ratios are taken on the minima (and on
#      the medians) of the same run. The goal pair (default, reference) gets
#      --reps repetitions; the large configurations, whose ratios are far from any goal line and
#      whose release builds take minutes, get --reps-large.
#        default      mcp-typed, default features (v2026_07_28: its types and message enums)
#        forms        mcp-typed, default features + derive, and mcp-mrtr without its default
#                     features: also the elicitation forms (`mcp_typed::elicit`,
#                     `#[derive(Elicit)]`) and the multi round-trip helpers, opt-in, as they
#                     were in the default until 2026-11-22 (in mcp-typed's `mrtr` feature until
#                     2026-11-26). This configuration measures the sum of the rustc times of
#                     mcp-typed, mcp-elicit (twice: for the macro, on the host, and for
#                     mcp-typed), mcp-typed-macros and mcp-mrtr
#        borrowed     mcp-typed, default features + borrowed: the borrowed family of the default
#                     revision (`v2026_07_28::borrowed`) beside its owned types: the feature's cost
#                     is its time over `default`'s
#        v2025_11_25  mcp-typed, default-features = false, features = ["v2025_11_25"]: the
#                     revision the reference is measured with, nothing else
#        six-revs     mcp-typed, all six revision features: the "all revisions" goal (the
#                     forms, derive + mcp-mrtr, add what they add to `default`: compare `forms`)
#        all          mcp-typed, every feature of generated/Cargo.toml (six revisions, derive,
#                     registry, schemars). Only with --all-features: `registry` is a
#                     #[doc(hidden)] test hook (`__roundtrip`, one monomorphized serde_json
#                     round trip per type) and schemars is an integration whose cost is
#                     mostly its own dependencies, so the revision goal is judged on six-revs.
#        reference    rust-mcp-schema = "=2.0.0", default-features = false,
#                     features = ["2025_11_25", "schema_utils"]: the crate's defaults are
#                     ["2026_07_28", "schema_utils"], which would add a second revision; its
#                     2025_11_25 schema + schema_utils + validators are the 16,170 lines of the
#                     reference figure (6.5 s dev / 16.4 s release, 2 cores).
#      Both sides use cargo's default dev and release profiles (the scratch crates are their own
#      workspaces: this repository's [profile.release] does not apply). The dependency versions
#      are this repository's Cargo.lock (copied into each scratch crate as its seed).
#      Goals: default <= 0.5x reference in dev and in release; six-revs <= 2x reference.
#
#   2. Source size: lines of generated/src/gen/*.rs per revision (all lines, `///`/`//!` doc
#      lines, code lines = neither blank, comment nor doc) against the reference's 2025_11_25
#      files, and the hand-written rest of both crates; the borrowed family's files
#      (generated/src/gen/*/borrowed.rs, feature borrowed) apart.
#
#   3. Expanded size of `#[derive(Elicit)]` on a 6-field contact form (name: String with length
#      bounds, email: String format email, age: i64 with bounds, topic: titled enum,
#      channels: Vec<enum> multi select, subscribe: bool with default) against serde's
#      `#[derive(Deserialize)]` on the same struct: `RUSTC_BOOTSTRAP=1 cargo rustc --
#      -Zunpretty=expanded` (works on stable) of a scratch crate, with the derive minus without
#      it; the struct's derive and the two enums' derives apart. Helper attributes
#      (`#[elicit(...)]`, `#[serde(...)]`) are dropped from both sides before counting. Tokens
#      are counted by a simple lexer (identifiers, literals, lifetimes, punctuation characters),
#      the same for both derives. The form is also compiled (`cargo check`) to prove it valid.
#
# Usage: scripts/compile-budget.sh [--dir DIR] [--reps N] [--reps-large N] [--all-features]
#                                   [--only CONFIG,...] [--keep]
#   --dir DIR        scratch directory (default: a new `mktemp -d`); deleted at the end unless
#                    --keep, or unless DIR existed before
#   --reps N         repetitions of default, borrowed and reference, per profile (default 3)
#   --reps-large N   repetitions of forms, v2025_11_25, six-revs and all, per profile (default 1)
#   --all-features   also measure `all` (adds about 8 minutes on 2 cores: its warm-up build and
#                    one measured build per profile)
#   --only LIST      measure only these configurations (comma-separated; reference is always
#                    measured, the goals are printed only when their configurations were)
#   --keep           keep the scratch directory (crates, target dir, timing reports, expansions)
# Needs: cargo on stable (RUSTC_BOOTSTRAP=1 is set only for the expansion), network access to
# crates.io for rust-mcp-schema (or it in the cargo cache), awk, about 2 GB of disk (3 GB with
# --all-features). Takes about 13 minutes on 2 cores with the defaults (one warm-up build of
# forms and reference per profile, which builds every dependency; then 3 + 3 + 1 + 1 + 1
# measured builds per profile).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=""
reps=3
reps_large=1
keep=0
with_all=0
only=""
while (($#)); do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --reps-large) reps_large=$2; shift 2 ;;
    --all-features) with_all=1; shift ;;
    --only) only=",$2,"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ -z $dir ]]; then
  dir=$(mktemp -d -t mcp-compile-budget.XXXXXX)
elif [[ -e $dir ]]; then
  keep=1 # never delete a directory we did not create
  mkdir -p "$dir"
else
  mkdir -p "$dir"
fi
dir=$(cd "$dir" && pwd)
if ((!keep)); then
  trap 'rm -rf "$dir"' EXIT
fi

export CARGO_TARGET_DIR="$dir/target"
export CARGO_INCREMENTAL=0
unset RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTC_WRAPPER CARGO_BUILD_RUSTC_WRAPPER
log="$dir/build.log"
: >"$log"

# A rustc wrapper that logs the CPU time (user + system) of the measured crates' compiles: it
# does not count the time spent waiting for a core while other builds share the machine.
cpu_log="$dir/cpu.log"
cat >"$dir/rustc-cpu" <<'EOF_WRAPPER'
#!/usr/bin/env bash
rustc=$1
shift
case " $* " in
  *" --crate-name mcp_typed "* | *" --crate-name mcp_elicit "* | *" --crate-name mcp_typed_macros "* | *" --crate-name rust_mcp_schema "*)
    TIMEFORMAT='%U %S'
    { time "$rustc" "$@" 2>&3; } 3>&2 2>>"$BUDGET_CPU_LOG"
    ;;
  *) exec "$rustc" "$@" ;;
esac
EOF_WRAPPER
chmod +x "$dir/rustc-cpu"
export RUSTC_WRAPPER="$dir/rustc-cpu" BUDGET_CPU_LOG="$cpu_log"

say() { printf '%s\n' "$*" >&2; }
die() { say "error: $*"; say "(log: $log)"; exit 1; }

# ---------------------------------------------------------------------------------------------
# Scratch crates

# Every feature of mcp-typed, from the [features] table of generated/Cargo.toml.
all_features=$(awk '/^\[features\]/ { on = 1; next } /^\[/ { on = 0 } on && /^[a-z0-9_]+ *=/ { sub(/ *=.*/, ""); if ($0 != "default") printf "%s\"%s\"", (n++ ? ", " : ""), $0 }' "$repo/generated/Cargo.toml")
six_revs='"v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft"'

declare -A dep=(
  [default]="mcp-typed = { path = \"$repo/generated\" }"
  [forms]="mcp-typed = { path = \"$repo/generated\", features = [\"derive\"] }
mcp-mrtr = { path = \"$repo/mrtr\", default-features = false }"
  [borrowed]="mcp-typed = { path = \"$repo/generated\", features = [\"borrowed\"] }"
  [v2025_11_25]="mcp-typed = { path = \"$repo/generated\", default-features = false, features = [\"v2025_11_25\"] }"
  [six-revs]="mcp-typed = { path = \"$repo/generated\", features = [$six_revs] }"
  [all]="mcp-typed = { path = \"$repo/generated\", features = [$all_features] }"
  [reference]='rust-mcp-schema = { version = "=2.0.0", default-features = false, features = ["2025_11_25", "schema_utils"] }'
)
declare -A pkg=([default]=mcp-typed [borrowed]=mcp-typed [forms]="mcp-typed mcp-elicit mcp-typed-macros mcp-mrtr" [v2025_11_25]=mcp-typed [six-revs]=mcp-typed [all]=mcp-typed [reference]=rust-mcp-schema)
declare -A nreps=([default]=$reps [borrowed]=$reps [forms]=$reps_large [v2025_11_25]=$reps_large [six-revs]=$reps_large [all]=$reps_large [reference]=$reps)
configs=()
for c in default borrowed forms v2025_11_25 six-revs all; do
  [[ $c == all ]] && ((!with_all)) && continue
  [[ -n $only && $only != *",$c,"* ]] && continue
  configs+=("$c")
done
configs+=(reference)
has() { [[ " ${configs[*]} " == *" $1 "* ]]; }

new_crate() { # name dependency-lines...
  local name=$1
  shift
  mkdir -p "$dir/$name/src"
  {
    printf '[package]\nname = "budget-%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n' "$name"
    printf '%s\n' "$@"
    # Its own workspace: not a member of anything above the scratch directory.
    printf '\n[workspace]\n'
  } >"$dir/$name/Cargo.toml"
  : >"$dir/$name/src/lib.rs"
  cp "$repo/Cargo.lock" "$dir/$name/Cargo.lock"
}

for c in "${configs[@]}"; do
  new_crate "$c" "${dep[$c]}"
done

cargo_in() { # crate cargo-args... (output to the log)
  local crate=$1
  shift
  (cd "$dir/$crate" && cargo "$@") >>"$log" 2>&1 || die "cargo $* in $crate failed"
}

say "scratch directory: $dir"
# Warm-up: every dependency, built once per profile. mcp-typed's revision features do not reach
# its dependencies, and derive + mcp-mrtr bring all the others but `all`'s (schemars), so building `forms` (or, without it, the first mcp-typed configuration) builds the
# dependencies of all but `all`. This also builds the measured crates once, unmeasured.
warm=(reference)
for c in forms six-revs default borrowed v2025_11_25; do
  has "$c" && { warm+=("$c"); break; }
done
has all && warm+=(all)
say "warm-up (every dependency, dev and release): ${warm[*]} ..."
for c in "${warm[@]}"; do
  cargo_in "$c" build
  cargo_in "$c" build --release
done

# ---------------------------------------------------------------------------------------------
# 1. Compile time

# The rustc time of the crate `name` and the end of its frontend section, from the last timings
# report; for several names (or a crate built twice), the sum of their times and no frontend.
unit_time() { # name... -> "duration frontend_end"
  awk -v names=" $* " '
    /"name": "/ { v = $0; sub(/.*"name": "/, "", v); sub(/".*/, "", v); on = index(names, " " v " ") > 0; dur = ""; front = ""; next }
    on && /"duration":/ && dur == "" { v = $2; sub(/,/, "", v); dur = v; total += v; units++ }
    on && /"frontend"/ { in_front = 1 }
    on && in_front && /"end":/ { v = $2; sub(/,/, "", v); front = v; in_front = 0 }
    END { if (units) print total, (units == 1 && front != "" ? front : "nan") }
  ' "$CARGO_TARGET_DIR/cargo-timings/cargo-timing.html"
}

declare -A samples=() fronts=() cpus=()
measure() { # config profile(dev|release)
  local c=$1 profile=$2 flag=() t0 t1 got cpu
  [[ $profile == release ]] && flag=(--release)
  local packages=()
  for p in ${pkg[$c]}; do packages+=(-p "$p"); done
  cargo_in "$c" clean "${packages[@]}" "${flag[@]}"
  : >"$cpu_log"
  t0=$(date +%s.%N)
  cargo_in "$c" build "${flag[@]}" --timings
  t1=$(date +%s.%N)
  # shellcheck disable=SC2086 # the names of the measured crates
  got=$(unit_time ${pkg[$c]})
  # Fallback (no timings data): the wall time of `cargo build`.
  [[ -n $got ]] || got="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') nan"
  cpu=$(awk '{ s += $1 + $2 } END { printf "%.2f", s }' "$cpu_log")
  samples[$c/$profile]+="${got%% *} "
  fronts[$c/$profile]+="${got##* } "
  cpus[$c/$profile]+="$cpu "
}

max_reps=$((reps > reps_large ? reps : reps_large))
say "measuring: ${configs[*]} x dev, release; $reps reps of default and reference, $reps_large of the others, interleaved ..."
for ((r = 1; r <= max_reps; r++)); do
  for c in "${configs[@]}"; do
    ((r > nreps[$c])) && continue
    for profile in dev release; do
      measure "$c" "$profile"
      last=${samples[$c/$profile]% } last_cpu=${cpus[$c/$profile]% }
      say "  rep $r $c $profile: ${last##* } s (cpu ${last_cpu##* } s; load $(cut -d' ' -f1 /proc/loadavg))"
    done
  done
done

# stats "samples" -> "min median"
stats() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f", v[1], m }'; }
# the frontend share (%) of the sample with the minimum time
front_share() { paste -d' ' <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) | sort -g | head -1 | awk '{ if ($2 == "nan") print "-"; else printf "%.0f%%", 100 * $2 / $1 }'; }

echo
echo "== Compile time of the crate alone, dependencies built (s; min / median of the reps) =="
echo "   $(nproc) cores; $(rustc --version); cargo's default dev and release profiles"
echo "   wall: the crate's rustc time from cargo --timings; front: its share before metadata was"
echo "   ready (parse, expand, type/borrow check; the rest is MIR optimisation and LLVM)."
echo "   cpu: user + system CPU time of that rustc (all its threads; no waiting for a core)."
declare -A mins=() meds=() cmins=() cmeds=()
for c in "${configs[@]}"; do
  for profile in dev release; do
    read -r "mins[$c/$profile]" "meds[$c/$profile]" <<<"$(stats "${samples[$c/$profile]}")"
    read -r "cmins[$c/$profile]" "cmeds[$c/$profile]" <<<"$(stats "${cpus[$c/$profile]}")"
  done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for profile in dev release; do
  echo "   -- $profile"
  printf '   %-12s %4s %17s %6s %7s %17s %7s\n' config reps "wall min/med" front "x ref" "cpu min/med" "x ref"
  for c in "${configs[@]}"; do
    printf '   %-12s %4s %17s %6s %7s %17s %7s\n' "$c" "${nreps[$c]}" \
      "${mins[$c/$profile]} / ${meds[$c/$profile]}" "$(front_share "${samples[$c/$profile]}" "${fronts[$c/$profile]}")" \
      "$(ratio "${mins[$c/$profile]}" "${mins[reference/$profile]}")x" \
      "${cmins[$c/$profile]} / ${cmeds[$c/$profile]}" "$(ratio "${cmins[$c/$profile]}" "${cmins[reference/$profile]}")x"
  done
done
echo "   all samples, wall | cpu (s):"
for c in "${configs[@]}"; do
  for profile in dev release; do
    printf '     %-12s %-8s %s| %s\n' "$c" "$profile" "${samples[$c/$profile]}" "${cpus[$c/$profile]}"
  done
done
echo "   load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

goal() { # label config profile limit
  local w c
  w=$(ratio "${mins[$2/$3]}" "${mins[reference/$3]}")
  c=$(ratio "${cmins[$2/$3]}" "${cmins[reference/$3]}")
  awk -v l="$1" -v w="$w" -v c="$c" -v wm="$(ratio "${meds[$2/$3]}" "${meds[reference/$3]}")" -v m="$4" 'BEGIN {
    printf "   %-36s wall %5.2fx (medians %5.2fx), cpu %5.2fx; goal <= %.1fx: %s\n", l, w, wm, c, m, (w <= m && c <= m ? "met" : (w <= m || c <= m ? "borderline" : "MISSED"))
  }'
}
echo "== Goals (ratios of the minima) =="
for profile in dev release; do
  has default && goal "default / reference, $profile" default "$profile" 0.5
done
for profile in dev release; do
  has six-revs && goal "six revisions / reference, $profile" six-revs "$profile" 2
done
for profile in dev release; do
  has borrowed && has default && echo "   the feature borrowed, $profile: $(ratio "${mins[borrowed/$profile]}" "${mins[default/$profile]}")x default's time (medians $(ratio "${meds[borrowed/$profile]}" "${meds[default/$profile]}")x)"
done

# ---------------------------------------------------------------------------------------------
# 2. Source size

# lines: all, doc (/// or //!), code (not blank, not a comment)
count_lines() {
  awk '{ n++ } /^[[:space:]]*\/\/[\/!]/ { d++; next } /^[[:space:]]*(\/\/.*)?$/ { next } { c++ } END { printf "%7d %7d %7d", n, d, c }' "$@"
}
ref_src=$(cd "$dir/reference" && cargo metadata --format-version 1 2>>"$log" |
  grep -o '"manifest_path":"[^"]*rust-mcp-schema-2\.0\.0/Cargo.toml"' | head -1 | sed 's/.*:"//; s/Cargo.toml"$/src/')
echo
echo "== Source lines (all / doc comments / code) =="
printf '%-40s %7s %7s %7s\n' file lines doc code
for f in "$repo"/generated/src/gen/*.rs; do
  printf '%-40s %s\n' "generated/src/gen/$(basename "$f")" "$(count_lines "$f")"
done
printf '%-40s %s\n' "  all six revisions" "$(count_lines "$repo"/generated/src/gen/*.rs)"
for f in "$repo"/generated/src/gen/*/borrowed.rs; do
  printf '%-40s %s\n' "${f#"$repo"/}" "$(count_lines "$f")"
done
printf '%-40s %s\n' "  the borrowed family (feature)" "$(count_lines "$repo"/generated/src/gen/*/borrowed.rs)"
mapfile -t hand < <(find "$repo/generated/src" -name '*.rs' -not -path '*/gen/*' | sort)
printf '%-40s %s\n' "generated/src, hand-written (all)" "$(count_lines "${hand[@]}")"
if [[ -d $ref_src/generated_schema/2025_11_25 ]]; then
  for f in "$ref_src"/generated_schema/2025_11_25/*.rs; do
    printf '%-40s %s\n' "reference 2025_11_25/$(basename "$f")" "$(count_lines "$f")"
  done
  printf '%-40s %s\n' "  reference 2025_11_25 total" "$(count_lines "$ref_src"/generated_schema/2025_11_25/*.rs)"
else
  echo "(reference sources not found)"
fi

# ---------------------------------------------------------------------------------------------
# 3. Expanded size of the derive

new_crate derive "mcp-typed = { path = \"$repo/generated\", features = [\"derive\"] }" 'serde = { version = "1", features = ["derive"] }'
# form STRUCT_DERIVES ENUM_DERIVES: the #[elicit(...)] helper attributes are written where Elicit
# is derived (elsewhere nothing declares them), #[serde(...)] where any of the two is.
form() {
  local sd=$1 ed=$2 attrs=0 sattrs=0
  [[ $ed == *Elicit* ]] && attrs=1
  [[ $sd == *Elicit* ]] && sattrs=1
  cat <<EOF
#![allow(dead_code)]
#[allow(unused_imports)]
use mcp_typed::Elicit;
#[allow(unused_imports)]
use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash$ed)]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    $( ((attrs)) && echo '#[elicit(title = "Sales question")]')
    Sales,
    $( ((attrs)) && echo '#[elicit(title = "Support request")]')
    Support,
    $( ((attrs)) && echo '#[elicit(title = "Something else")]')
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash$ed)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Email,
    Phone,
    Chat,
}

/// Contact details.
#[derive(Debug$sd)]
pub struct Contact {
    /// Your full name
    $( ((sattrs)) && echo '#[elicit(min_length = 1, max_length = 100)]')
    pub name: String,
    /// Where we answer
    $( ((sattrs)) && echo '#[elicit(format = "email")]')
    pub email: String,
    /// Age in years
    $( ((sattrs)) && echo '#[elicit(minimum = 18, maximum = 120)]')
    pub age: i64,
    /// What it is about
    pub topic: Topic,
    /// How we may reach you
    $( ((sattrs)) && echo '#[elicit(min_items = 1)]')
    pub channels: Vec<Channel>,
    /// Send me news
    $( ((sattrs)) && echo '#[elicit(default = false)]')
    pub subscribe: bool,
}
EOF
}
plain() { form "$@" | if [[ $2 == "" ]]; then grep -v '#\[serde('; else cat; fi; }

expand() { # variant-name struct-derives enum-derives
  plain "$2" "$3" >"$dir/derive/src/lib.rs"
  (cd "$dir/derive" && RUSTC_BOOTSTRAP=1 cargo rustc --lib --profile check -q -- -Zunpretty=expanded) \
    2>>"$log" | grep -v -E '^[[:space:]]*#\[(elicit|serde)\(' >"$dir/derive/$1.expanded" ||
    die "expansion of the $1 form failed"
}
# lines bytes tokens of a file
measure_text() {
  local lines bytes tokens
  lines=$(wc -l <"$1")
  bytes=$(wc -c <"$1")
  tokens=$(grep -oE "\"([^\"\\\\]|\\\\.)*\"|'[a-zA-Z_][a-zA-Z0-9_]*|'([^'\\\\]|\\\\.)'|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|[^[:space:]]" "$1" | wc -l)
  echo "$lines $bytes $tokens"
}
say "expanding the derives ..."
# Prove the form valid (the derive's compile-time checks pass, the code type-checks).
plain ", Elicit, Deserialize" ", Elicit, Deserialize" >"$dir/derive/src/lib.rs"
cargo_in derive check
expand none "" ""
expand elicit-enums "" ", Elicit"
expand elicit ", Elicit" ", Elicit"
expand serde-enums "" ", Deserialize"
expand serde ", Deserialize" ", Deserialize"
read -r l0 b0 t0 <<<"$(measure_text "$dir/derive/none.expanded")"
delta() { # what minus base
  local l b t lb bb tb
  read -r l b t <<<"$(measure_text "$dir/derive/$1.expanded")"
  read -r lb bb tb <<<"$(measure_text "$dir/derive/$2.expanded")"
  printf '%-44s %7d %8d %8d\n' "$3" $((l - lb)) $((b - bb)) $((t - tb))
}
echo
echo "== Expanded size of the derives (6-field contact form; lines / bytes / tokens of rustc's expanded output) =="
printf '%-44s %7s %8s %8s\n' "" lines bytes tokens
printf '%-44s %7d %8d %8d\n' "the form without derives (baseline)" "$l0" "$b0" "$t0"
delta elicit elicit-enums "#[derive(Elicit)] on the struct"
delta elicit-enums none "#[derive(Elicit)] on the two enums"
delta serde serde-enums "#[derive(Deserialize)] on the struct (serde)"
delta serde-enums none "#[derive(Deserialize)] on the two enums"
read -r le be te <<<"$(measure_text "$dir/derive/elicit.expanded")"
read -r lee bee tee <<<"$(measure_text "$dir/derive/elicit-enums.expanded")"
read -r ls bs ts <<<"$(measure_text "$dir/derive/serde.expanded")"
read -r lse bse tse <<<"$(measure_text "$dir/derive/serde-enums.expanded")"
echo "   struct derive, Elicit / serde Deserialize: $(ratio $((le - lee)) $((ls - lse)))x lines, $(ratio $((te - tee)) $((ts - tse)))x tokens"
echo "   (Elicit implements requested_schema, from_content and the one-pass from_json_str;"
echo "    serde's Deserialize is the decoding alone, without any checks)"

if ((keep)); then
  say "kept: $dir (expansions in $dir/derive/*.expanded, timing reports in $CARGO_TARGET_DIR/cargo-timings)"
fi
