#!/usr/bin/env bash
# Installs whatever is missing on a fresh machine (Rust, Node 20, Python and apt are
# assumed). Safe to run again: it skips what is there.
#
#   bash scripts/setup.sh          what the tests need: the demo's set, then wasm-pack,
#                                  cargo-fuzz, Debian's chromium, chromium-driver and
#                                  firefox-esr, geckodriver, promtool, wrk and valgrind
#   bash scripts/setup.sh --demo   what the demo needs: the wasm32 target, wasm-bindgen-cli
#                                  (the version in Cargo.lock, its test server fixed) and the
#                                  npm devDependencies (binaryen's wasm-opt, vite, react)
set -euo pipefail
cd "$(dirname "$0")/.."
demo_only=false
[ "${1:-}" = --demo ] && demo_only=true

say() { echo "=== setup: $*"; }
# Installs Debian packages with apt, as root or through sudo.
apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
WBG=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print}' Cargo.lock)
[ -n "$WBG" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }

rustup target list --installed | grep -qx wasm32-unknown-unknown || { say "wasm32 target"; rustup target add wasm32-unknown-unknown; }
for component in rustfmt clippy; do
  rustup component list --installed | grep -q "^$component" || { say "$component"; rustup component add "$component"; }
done
# wasm-bindgen-cli, its test runner's web server built with the fix for tiny_http 0.12's
# connection pool (docs/browser-tests.md): unfixed, a third of headless browser runs hung
# at "Loading scripts...". The stamp tells a fixed install from a plain one.
RUNNER_STAMP="${CARGO_HOME:-$HOME/.cargo}/bin/.citeproof-wasm-bindgen"
RUNNER_WANT="wasm-bindgen $WBG with tiny_http 0.12.0 (pool fix)"
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WBG" ] || [ "$(cat "$RUNNER_STAMP" 2>/dev/null)" != "$RUNNER_WANT" ]; then
  say "wasm-bindgen-cli $WBG, tiny_http's pool fixed (about 3 minutes)"
  tools="$PWD/target/tools"
  rm -rf "$tools/tiny-http-vendor" && mkdir -p "$tools/tiny-http-vendor/src"
  printf '[workspace]\n[package]\nname = "vendor-tiny-http"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\ntiny_http = "=0.12.0"\n' \
    >"$tools/tiny-http-vendor/Cargo.toml"
  : >"$tools/tiny-http-vendor/src/lib.rs"
  (cd "$tools/tiny-http-vendor" && cargo vendor --quiet --versioned-dirs vendor >/dev/null)
  pool="$tools/tiny-http-vendor/vendor/tiny_http-0.12.0/src/util/task_pool.rs"
  # A connection is queued for an idle thread only if more threads wait than tasks
  # are queued; else it gets a thread of its own (each serves one keep-alive connection).
  sed -i 's/if self.sharing.waiting_tasks.load(Ordering::Acquire) == 0 {/if self.sharing.waiting_tasks.load(Ordering::Acquire) <= queue.len() {/' "$pool"
  grep -q 'waiting_tasks.load(Ordering::Acquire) <= queue.len()' "$pool" || { echo "tiny_http's pool was not patched" >&2; exit 1; }
  cargo install wasm-bindgen-cli --version "$WBG" --force \
    --config "patch.crates-io.tiny_http.path=\"$tools/tiny-http-vendor/vendor/tiny_http-0.12.0\""
  echo "$RUNNER_WANT" >"$RUNNER_STAMP"
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm devDependencies"
  npm ci --no-audit --no-fund
fi
node_modules/.bin/wasm-opt --version | grep -q 'version 132' || { echo "wrong wasm-opt" >&2; exit 1; }
$demo_only && exit 0

if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack 0.15.1" ]; then
  say "wasm-pack 0.15.1 (about 2 minutes)"
  cargo install wasm-pack --version 0.15.1 --locked --force
fi
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz 0.13.2" ]; then
  say "cargo-fuzz 0.13.2 (about 1 minute), for the fuzz smoke run"
  cargo install cargo-fuzz --version 0.13.2 --locked --force
fi
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! command -v firefox-esr >/dev/null; then
  say "chromium, chromium-driver, firefox-esr (apt), for wasm-pack test --headless"
  apt_install chromium chromium-driver firefox-esr
fi
if [ "$(geckodriver --version 2>/dev/null | head -1)" != "geckodriver 0.37.1" ]; then
  say "geckodriver 0.37.1 (cargo, about 2 minutes), Firefox's WebDriver"
  cargo install geckodriver --version 0.37.1 --locked --force
fi
if ! command -v promtool >/dev/null; then
  say "promtool (apt prometheus), to check the metrics exposition"
  apt_install --no-install-recommends prometheus
fi
if ! command -v wrk >/dev/null; then
  say "wrk (apt), for benches/worker-load.mjs"
  apt_install --no-install-recommends wrk
fi
if ! command -v valgrind >/dev/null; then
  say "valgrind (apt), whose callgrind counts the hostile shapes' instructions (tests/js/storm.test.mjs)"
  apt_install --no-install-recommends valgrind
fi
