#!/usr/bin/env bash
# The quick loop while developing: formatting, clippy (native and wasm32), native tests,
# the wasm suite in Node, the package build and size budget, tsc, and the JS tests that
# need no browser. No fuzzing, no headless browsers, no setup: run `bash scripts/test.sh`
# (the README's and CI's command) once before committing, which runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

step() { echo "=== $* (+${SECONDS}s)"; }

step "cargo fmt --check"
cargo fmt --check
step "clippy (native, wasm32)"
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
# The browser core: the library without the default features (issue 25).
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
step "native tests"
cargo test
step "wasm tests in Node"
wasm-pack test --node
step "npm package and size budget"
node scripts/build-pkg.mjs
node scripts/build-pkg.mjs web --no-default-features --out target/pkg-browser
node scripts/size-check.mjs
step "TypeScript declarations"
tsc -p tests/js/types
tsc -p tests/js/types/tsconfig.es2022.json
tsc -p tests/js/types/tsconfig.ai.json
step "JS tests without a browser"
# The files that launch Chromium (Playwright) are left to the full run.
mapfile -t files < <(grep -L "launchChromium\|buildReactApp" tests/js/*.test.mjs)
node --test "${files[@]}"
step "quick tests passed (the full run: bash scripts/test.sh)"
