#!/usr/bin/env bash
# Short fuzz run of every target in fuzz/ (cargo fuzz, libFuzzer, stable toolchain with
# `--sanitizer none`: Rust's own bounds and overflow checks are the oracle, plus each
# target's assertions). Starts from the committed seeds in fuzz/corpus/<target>; new
# inputs go to a temporary directory, so the committed corpus stays as it is.
#   bash scripts/fuzz-smoke.sh [seconds per target, default 60]
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
SECONDS_EACH=${1:-60}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cargo fuzz build --sanitizer none -O
for target in $(cargo fuzz list); do
  mkdir -p "$WORK/$target"
  echo "fuzz $target for ${SECONDS_EACH}s"
  status=0
  cargo fuzz run --sanitizer none -O "$target" "$WORK/$target" "corpus/$target" -- \
    -max_total_time="$SECONDS_EACH" -max_len=4096 -artifact_prefix="$WORK/$target-" \
    -print_final_stats=1 > "$WORK/$target.log" 2>&1 || status=$?
  grep -E "^(Done|stat::number_of_executed_units)" "$WORK/$target.log" || true
  if [ "$status" -ne 0 ]; then
    grep -m1 -A6 "panicked" "$WORK/$target.log" >&2 || tail -40 "$WORK/$target.log" >&2
    for crash in "$WORK/$target-"*; do
      [ -f "$crash" ] && echo "input $(basename "$crash") (base64): $(base64 -w0 "$crash")" >&2
    done
    echo "fuzz target $target failed" >&2
    exit 1
  fi
done
