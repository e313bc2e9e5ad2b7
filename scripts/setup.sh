#!/usr/bin/env bash
# Installs whatever is missing on a fresh machine (Rust, Node 20, Python and apt are
# assumed): the wasm32 target, wasm-bindgen-cli (the version in Cargo.lock), wasm-pack, cargo-fuzz,
# Debian's chromium (driven by Playwright), promtool and wrk, and the npm devDependencies (binaryen's wasm-opt,
# typescript, vite, wrangler, playwright-core). Safe to run again: it skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "=== setup: $*"; }
WBG=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print}' Cargo.lock)
[ -n "$WBG" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }

rustup target list --installed | grep -qx wasm32-unknown-unknown || { say "wasm32 target"; rustup target add wasm32-unknown-unknown; }
for component in rustfmt clippy; do
  rustup component list --installed | grep -q "^$component" || { say "$component"; rustup component add "$component"; }
done
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WBG" ]; then
  say "wasm-bindgen-cli $WBG (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$WBG" --force
fi
if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack 0.15.1" ]; then
  say "wasm-pack 0.15.1 (about 2 minutes)"
  cargo install wasm-pack --version 0.15.1 --locked --force
fi
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz 0.13.2" ]; then
  say "cargo-fuzz 0.13.2 (about 1 minute), for the fuzz smoke run"
  cargo install cargo-fuzz --version 0.13.2 --locked --force
fi
if ! command -v chromium >/dev/null; then
  say "chromium (apt)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if ! command -v promtool >/dev/null; then
  say "promtool (apt prometheus), to check the metrics exposition"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
if ! command -v wrk >/dev/null; then
  say "wrk (apt), for benches/worker-load.mjs"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm devDependencies"
  npm ci --no-audit --no-fund
fi
node_modules/.bin/wasm-opt --version | grep -q 'version 132' || { echo "wrong wasm-opt" >&2; exit 1; }
