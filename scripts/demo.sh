#!/usr/bin/env bash
# The README's demo: installs what it needs if missing, builds the npm package, validates the
# bundled example answer (markers with their spans, findings, the gate, the cleaned
# answer), then builds the React demo (www/) and serves it on http://127.0.0.1:5173.
#
#   bash scripts/demo.sh [answer.json] [--no-serve]
set -euo pipefail
cd "$(dirname "$0")/.."
serve=1
args=()
for arg in "$@"; do
  if [ "$arg" = "--no-serve" ]; then serve=0; else args+=("$arg"); fi
done
bash scripts/setup.sh --demo # only what the demo needs; scripts/test.sh installs the rest
node scripts/build-pkg.mjs node bundler
node examples/demo.mjs "${args[@]}"
node_modules/.bin/vite build --config www/vite.config.mjs
echo "React demo built in target/www/dist."
if [ "$serve" = 1 ]; then
  echo "Serving it on http://127.0.0.1:5173 (Ctrl-C to stop)."
  exec node_modules/.bin/vite preview --config www/vite.config.mjs
fi
