#!/usr/bin/env bash
# Times the README's two commands as on a fresh machine (BENCHMARKS.md): a clean clone of
# this checkout's HEAD in $DIR, its own RUSTUP_HOME holding a copy (hard links) of the
# stable toolchain without the wasm32 target, an empty CARGO_HOME (no tools, no crate
# registry) and an empty npm cache. Debian's packages stay as installed, so apt's time is
# not measured. Needs rustup's stable toolchain in ~/.rustup and the network to the registries.
#
#   bash benches/fresh-machine.sh [DIR, default /tmp/fresh]
set -euo pipefail
F=${1:-/tmp/fresh}
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
rm -rf "$F"; mkdir -p "$F/rustup/toolchains" "$F/cargo/bin" "$F/npm-cache"
cp ~/.rustup/settings.toml "$F/rustup/"
cp -al ~/.rustup/toolchains/stable-x86_64-unknown-linux-gnu "$F/rustup/toolchains/"
T=$F/rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib
# Unlink (not edit) what names the wasm32 target: the files are hard links to ~/.rustup's.
rm -rf "$T/wasm32-unknown-unknown" "$T/manifest-rust-std-wasm32-unknown-unknown"
grep -v wasm32 "$T/components" >"$T/components.new"; rm "$T/components"; mv "$T/components.new" "$T/components"
python3 - "$T/multirust-config.toml" <<'EOF'
import os, sys
path = sys.argv[1]
text = open(path).read().replace('[[components]]\npkg = "rust-std"\ntarget = "wasm32-unknown-unknown"\nis_extension = false\n\n', "")
os.unlink(path)
open(path, "w").write(text)
EOF
cp ~/.cargo/bin/rustup "$F/cargo/bin/"
for proxy in cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver; do ln -s rustup "$F/cargo/bin/$proxy"; done
git clone -q "$repo" "$F/citeproof"
[ -e "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$F/shared"
export RUSTUP_HOME=$F/rustup CARGO_HOME=$F/cargo npm_config_cache=$F/npm-cache
export PATH=$F/cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd "$F/citeproof"
start=$(date +%s); bash scripts/demo.sh --no-serve >"$F/demo.log" 2>&1; demo=$(($(date +%s) - start))
start=$(date +%s); bash .ci/run >"$F/test.log" 2>&1; tests=$(($(date +%s) - start))
echo "demo ${demo} s, then the test command ${tests} s (logs in $F); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
