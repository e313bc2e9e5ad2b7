#!/usr/bin/env bash
# Runs `wasm-pack test --headless --<browser>` N times and counts the runs that pass,
# fail and hang (no exit within a minute: a page stuck at "Loading scripts..." waits
# for the driver's 300 s page-load limit). docs/browser-tests.md has the figures.
#
#   bash benches/browser-runs.sh chrome 20
#   RUNNER_DIR=/path/to/other/wasm-bindgen/bin bash benches/browser-runs.sh firefox 20
#
# RUNNER_DIR puts another wasm-bindgen (and its wasm-bindgen-test-runner) first on
# PATH, as wasm-pack takes the one it finds there when its version matches Cargo.lock.
set -uo pipefail
cd "$(dirname "$0")/../wasm" # the binding crate, whose wasm suite this runs
browser=${1:?usage: browser-runs.sh chrome|firefox [runs]}
runs=${2:-20}
[ -n "${RUNNER_DIR:-}" ] && export PATH="$RUNNER_DIR:$PATH"
wasm-pack test --headless "--$browser" >/dev/null 2>&1 # build once, outside the count
pass=0 fail=0 hung=0
for _ in $(seq "$runs"); do
  log=$(timeout 60 wasm-pack test --headless "--$browser" 2>&1)
  case $? in
    0) grep -q "test result: ok. [1-9]" <<<"$log" && pass=$((pass + 1)) || fail=$((fail + 1)) ;;
    124) hung=$((hung + 1)); pkill -f "chromedriver|geckodriver|wasm-bindgen-test-runner" ;;
    *) fail=$((fail + 1)) ;;
  esac
done
echo "$browser, runner $(command -v wasm-bindgen-test-runner): $runs runs, $pass passed, $fail failed, $hung hung"
