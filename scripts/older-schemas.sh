#!/usr/bin/env bash
# Proves that the generator still handles the *older official* MCP schemas: every distinct
# version of the official schema file in the history of the specification repository, not only
# the six pinned in schema/revisions.toml.
#
# Usage:
#   scripts/older-schemas.sh SPEC_GIT_DIR [WORK_DIR]
#
#   SPEC_GIT_DIR  a clone, bare or not, of https://github.com/modelcontextprotocol/modelcontextprotocol
#                 (a full history: not `--depth`).
#   WORK_DIR      scratch folder (default: ${TMPDIR:-/tmp}/mcp-older-schemas); its schemas/ and
#                 crate/src/ are rewritten on every run. Nothing in the repository is written but
#                 the build directories target/release (the CLI) and target/older-schemas.
#
# Phases (each timed):
#   0. build    `cargo build --release -p mcp-codegen-cli`, the CLI used below.
#   1. collect  every distinct blob of schema/schema.json (early layout), schema/draft/schema.json
#               and schema/<YYYY-MM-DD>/schema.json over the first-parent history of HEAD and of
#               every tag (and the tagged commits themselves); blobs whose sha256 is pinned in
#               schema/revisions.toml are skipped, blobs that are not valid JSON are skipped and
#               listed; the rest go to WORK_DIR/schemas/<date>-<blob10>.json, date being the
#               committer date of the earliest commit holding the blob. WORK_DIR/index.tsv maps
#               each to its module, commit, path and blob.
#   2. generate `mcp-codegen generate --schema F --module <date>-<blob10> --out
#               WORK_DIR/crate/src/v<date>_<blob10>.rs` for each; a failure is printed with the
#               CLI's message and counted.
#   3. check    WORK_DIR/crate, a crate outside the workspace (empty [workspace] table) that
#               depends on generated/ (`mcp-typed`, no default features) and declares one module
#               per generated file under `#![deny(warnings)]`, is `cargo check`ed with the target
#               dir target/older-schemas (kept between runs). With OLDER_SCHEMAS_BATCH=N the
#               modules are checked N at a time (one `cargo check` per batch), for when checking
#               them all at once is too slow. Errors and warnings are attributed to the module of
#               their primary span; the full compiler output is in WORK_DIR/check.log.
#   4. summary  counts, failures by name, whether the crate checked cleanly, the time of each
#               phase. Exit status 1 if any generation or check failed (2 on a usage error).
#
# Example (about 5 minutes on 2 cores, almost all of it `cargo check`):
#   git clone --bare https://github.com/modelcontextprotocol/modelcontextprotocol /tmp/spec.git
#   bash scripts/older-schemas.sh /tmp/spec.git
set -euo pipefail

usage() {
    sed -n '/^# Usage:/,/^#   4\./p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -ge 1 && $# -le 2 && $1 != -h && $1 != --help ]] || usage

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SPEC=$1
WORK=${2:-${TMPDIR:-/tmp}/mcp-older-schemas}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
[[ -d $SPEC ]] || { echo "error: $SPEC is not a folder" >&2; exit 2; }
# `git -C` finds the git directory of a work tree (.git) as well as a bare repository.
GIT_DIR=$(git -C "$SPEC" rev-parse --absolute-git-dir 2>/dev/null) ||
    { echo "error: $SPEC is not a git repository" >&2; exit 2; }
g() { git --git-dir="$GIT_DIR" "$@"; }

export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0
TARGET=${CARGO_TARGET_DIR:-$REPO/target}
CLI=$TARGET/release/mcp-codegen
CHECK_TARGET=$REPO/target/older-schemas
BATCH=${OLDER_SCHEMAS_BATCH:-0}

now() { printf '%s\n' "${EPOCHREALTIME:-$(date +%s.%N)}"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
declare -A PHASE_TIME
START_ALL=$(now)

# JSON validity: prints those of the files named on stdin (one a line) that do not hold exactly
# one JSON document. One python3 process for all of them (a start-up per file costs seconds).
if command -v python3 >/dev/null; then
    invalid_json() {
        python3 -c '
import json, sys
for line in sys.stdin:
    path = line.rstrip("\n")
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
    except (ValueError, UnicodeDecodeError):
        print(path)'
    }
elif command -v jq >/dev/null; then
    invalid_json() {
        local path
        while IFS= read -r path; do
            jq -e -s 'length == 1' "$path" >/dev/null 2>&1 || printf '%s\n' "$path"
        done
    }
else
    echo "error: python3 or jq is needed to check JSON" >&2
    exit 2
fi

# ------------------------------------------------------------------------------------------------
echo "== 0. build: cargo build --release -p mcp-codegen-cli"
t=$(now)
cargo build --release -q -p mcp-codegen-cli --manifest-path "$REPO/Cargo.toml"
[[ -x $CLI ]] || { echo "error: no CLI at $CLI" >&2; exit 2; }
PHASE_TIME[build]=$(since "$t")

# ------------------------------------------------------------------------------------------------
echo "== 1. collect: schema blobs of $GIT_DIR"
t=$(now)
declare -A PINNED
while read -r sum; do PINNED[$sum]=1; done < <(
    sed -nE 's/^[[:space:]]*sha256[[:space:]]*=[[:space:]]*"([0-9a-fA-F]{64})".*/\1/p' \
        "$REPO/schema/revisions.toml" | tr 'A-F' 'a-f')
[[ ${#PINNED[@]} -gt 0 ]] || { echo "error: no sha256 pin in schema/revisions.toml" >&2; exit 2; }

mapfile -t TAGS < <(g tag)
TAG_COMMITS=()
for tag in "${TAGS[@]}"; do
    if c=$(g rev-parse -q --verify "refs/tags/$tag^{commit}"); then TAG_COMMITS+=("$c"); fi
done
# "<committer time> <committer date> <commit>", oldest first, each commit once.
COMMITS=$(
    {
        g log --first-parent --format='%ct %cs %H' HEAD "${TAG_COMMITS[@]}" -- schema
        [[ ${#TAG_COMMITS[@]} -eq 0 ]] || g log --no-walk --format='%ct %cs %H' "${TAG_COMMITS[@]}"
    } | sort -k1,1n -k3,3 | awk '!seen[$3]++'
)
N_COMMITS=$(grep -c . <<<"$COMMITS" || true)

# "<date> <commit> <blob> <path>" for the first (oldest) commit holding each blob.
# (No `{n}` interval: mawk has none.)
D='[0-9]'
PATH_RE="^schema/(schema[.]json|draft/schema[.]json|$D$D$D$D-$D$D-$D$D/schema[.]json)\$"
BLOBS=$(
    while read -r _ date commit; do
        g ls-tree -r "$commit" -- schema/ |
            awk -v d="$date" -v c="$commit" -v re="$PATH_RE" \
                -F '\t' '{ split($1, m, " "); if (m[2] == "blob" && $2 ~ re) print d, c, m[3], $2 }'
    done <<<"$COMMITS" | awk '!seen[$3]++'
)

rm -rf "$WORK/schemas"
mkdir -p "$WORK/schemas"
INDEX=$WORK/index.tsv
printf 'name\tmodule\tdate\tcommit\tpath\tblob\n' >"$INDEX"
N_DISTINCT=0 N_PINNED=0
CANDIDATES=()
while read -r date commit blob path; do
    [[ -n ${blob:-} ]] || continue
    N_DISTINCT=$((N_DISTINCT + 1))
    sum=$(g cat-file blob "$blob" | sha256sum | cut -d' ' -f1)
    if [[ -n ${PINNED[$sum]:-} ]]; then
        N_PINNED=$((N_PINNED + 1))
        continue
    fi
    g cat-file blob "$blob" >"$WORK/schemas/$date-${blob:0:10}.json"
    CANDIDATES+=("$date $commit $blob $path")
done <<<"$BLOBS"
declare -A NOT_JSON
while IFS= read -r file; do NOT_JSON[$file]=1; done < <(
    for line in "${CANDIDATES[@]}"; do
        read -r date _ blob _ <<<"$line"
        printf '%s\n' "$WORK/schemas/$date-${blob:0:10}.json"
    done | invalid_json)
INVALID=()
NAMES=()
declare -A INFO
for line in "${CANDIDATES[@]}"; do
    read -r date commit blob path <<<"$line"
    name=$date-${blob:0:10}
    file=$WORK/schemas/$name.json
    if [[ -n ${NOT_JSON[$file]:-} ]]; then
        rm -f "$file"
        INVALID+=("$date $path blob $blob (commit ${commit:0:10})")
        continue
    fi
    module=v${name//-/_}
    NAMES+=("$name")
    INFO[$name]="$date $path blob $blob"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$module" "$date" "$commit" "$path" "$blob" >>"$INDEX"
done
N_OLDER=${#NAMES[@]}
if [[ $N_OLDER -gt 0 ]]; then
    FIRST_DATE=${NAMES[0]:0:10} LAST_DATE=${NAMES[$((N_OLDER - 1))]:0:10}
fi
echo "   $N_COMMITS commits, $N_DISTINCT distinct blobs, $N_PINNED pinned, ${#INVALID[@]} not JSON, $N_OLDER older schemas"
for line in "${INVALID[@]}"; do echo "   not JSON, skipped: $line"; done
PHASE_TIME[collect]=$(since "$t")

# ------------------------------------------------------------------------------------------------
echo "== 2. generate: $CLI generate --schema ... ($N_OLDER schemas)"
t=$(now)
SRC=$WORK/crate/src
rm -rf "$SRC"
mkdir -p "$SRC"
MODULES=()
GEN_FAILED=()
declare -A GEN_ERR   # name -> first line of the CLI's message
for name in "${NAMES[@]}"; do
    module=v${name//-/_}
    if out=$(cd "$WORK" && "$CLI" generate --schema "schemas/$name.json" --module "$name" \
        --out "$SRC/$module.rs" 2>&1); then
        MODULES+=("$module")
    else
        GEN_FAILED+=("$name")
        GEN_ERR[$name]=$(grep -m1 . <<<"$out" || echo "(no message, exit status only)")
        rm -f "$SRC/$module.rs"
        echo "   FAILED $name (${INFO[$name]}):"
        sed 's/^/      /' <<<"$out"
    fi
done
echo "   ${#MODULES[@]} generated, ${#GEN_FAILED[@]} failed"
PHASE_TIME[generate]=$(since "$t")

# ------------------------------------------------------------------------------------------------
echo "== 3. check: cargo check of $WORK/crate (target dir $CHECK_TARGET)"
t=$(now)
CRATE=$WORK/crate
cat >"$CRATE/Cargo.toml" <<EOF
# Written by scripts/older-schemas.sh: the code generated from older official MCP schemas.
[package]
name = "mcp-older-schemas"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
mcp-typed = { path = "$REPO/generated", default-features = false }

# Not a member of the repository's workspace.
[workspace]
EOF
# The repository's lock file: the same dependency versions, and no registry lookup.
cp "$REPO/Cargo.lock" "$CRATE/Cargo.lock"

write_lib() {
    {
        echo "//! The code generated from older official MCP schemas, one module per schema."
        echo "// As strict as the \`mcp-typed\` crate, which includes the generated files."
        echo "#![warn(missing_docs, missing_debug_implementations)]"
        echo "#![deny(warnings)]"
        echo
        for module in "$@"; do
            printf '#[rustfmt::skip]\npub mod %s;\n' "$module"
        done
    } >"$CRATE/src/lib.rs"
}

LOG=$WORK/check.log
: >"$LOG"
CHECK_OK=1
N_BATCHES=0
declare -A MOD_ERR   # module -> first error (or warning) of its own
declare -A BAD_MOD
OTHER_ERRORS=""
run_check() {
    N_BATCHES=$((N_BATCHES + 1))
    write_lib "$@"
    local json rc=0
    json=$(cargo check --manifest-path "$CRATE/Cargo.toml" --target-dir "$CHECK_TARGET" \
        --message-format=json 2>>"$LOG") || rc=$?
    jq -r 'select(.reason == "compiler-message") | .message.rendered // empty' <<<"$json" >>"$LOG"
    [[ $rc -eq 0 ]] && return 0
    CHECK_OK=0
    # "<module>\t<level>: <message>" for the crate's own errors and warnings.
    local attributed
    attributed=$(jq -r '
        select(.reason == "compiler-message" and (.target.name | gsub("-"; "_")) == "mcp_older_schemas")
        | .message
        | select(.level == "error" or .level == "warning")
        | ((.spans[] | select(.is_primary) | .file_name) // "") as $f
        | [($f | capture("(?<m>[^/]+)\\.rs$").m // "?"), "\(.level): \(.message)"]
        | @tsv' <<<"$json" 2>/dev/null || true)
    local module message
    while IFS=$'\t' read -r module message; do
        [[ -n $module ]] || continue
        if [[ $module == lib || $module == "?" ]]; then
            [[ $OTHER_ERRORS == *"$message"* ]] || OTHER_ERRORS+="$message"$'\n'
            continue
        fi
        BAD_MOD[$module]=1
        [[ -n ${MOD_ERR[$module]:-} ]] || MOD_ERR[$module]=$message
    done <<<"$attributed"
    if [[ -z $attributed ]]; then
        OTHER_ERRORS+="cargo check failed (exit $rc) with no diagnostic of the crate: see $LOG"$'\n'
    fi
}
if [[ ${#MODULES[@]} -eq 0 ]]; then
    echo "   nothing to check"
    CHECK_OK=0
elif [[ $BATCH -gt 0 ]]; then
    for ((i = 0; i < ${#MODULES[@]}; i += BATCH)); do
        run_check "${MODULES[@]:i:BATCH}"
        echo "   batch $N_BATCHES (modules $((i + 1))-$((i + ${#MODULES[@]:i:BATCH}))) at $(since "$t") s"
    done
    write_lib "${MODULES[@]}"   # leave the crate whole
else
    run_check "${MODULES[@]}"
fi
PHASE_TIME[check]=$(since "$t")

# ------------------------------------------------------------------------------------------------
CHECK_FAILED=()
for module in "${MODULES[@]}"; do
    [[ -n ${BAD_MOD[$module]:-} ]] && CHECK_FAILED+=("$module")
done
echo
echo "== summary"
echo "spec repository:       $GIT_DIR (HEAD $(g rev-parse --short=10 HEAD), ${#TAGS[@]} tags, $N_COMMITS commits)"
echo "distinct schema blobs: $N_DISTINCT ($N_PINNED pinned in schema/revisions.toml, ${#INVALID[@]} not JSON)"
echo "older schemas:         $N_OLDER${FIRST_DATE:+ ($FIRST_DATE .. $LAST_DATE)} in $WORK/schemas"
for line in "${INVALID[@]}"; do echo "  skipped, not JSON:   $line"; done
echo "generated:             ${#MODULES[@]}"
echo "generation failed:     ${#GEN_FAILED[@]}"
for name in "${GEN_FAILED[@]}"; do echo "  $name (${INFO[$name]}): ${GEN_ERR[$name]}"; done
if [[ $CHECK_OK -eq 1 ]]; then
    check_word="clean"
else
    check_word="FAILED"
fi
batches=""
[[ $BATCH -gt 0 ]] && batches=", $N_BATCHES batches of $BATCH"
echo "cargo check:           $check_word (${#MODULES[@]} modules, #![deny(warnings)]$batches; log $LOG)"
for module in "${CHECK_FAILED[@]}"; do
    name=${module#v}
    name=${name:0:4}-${name:5:2}-${name:8:2}-${name:11}
    echo "  $module (${INFO[$name]:-?}): ${MOD_ERR[$module]}"
done
if [[ -n $OTHER_ERRORS ]]; then
    while read -r line; do [[ -n $line ]] && echo "  (not in a module) $line"; done <<<"$OTHER_ERRORS"
fi
printf 'wall time:             build %s s, collect %s s, generate %s s, check %s s, total %s s\n' \
    "${PHASE_TIME[build]}" "${PHASE_TIME[collect]}" "${PHASE_TIME[generate]}" \
    "${PHASE_TIME[check]}" "$(since "$START_ALL")"

if [[ ${#GEN_FAILED[@]} -gt 0 || $CHECK_OK -ne 1 ]]; then
    echo "result:                FAILED"
    exit 1
fi
echo "result:                ok"
