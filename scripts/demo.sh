#!/usr/bin/env bash
# The README's demo: installs what is missing, builds the npm package, and validates the
# bundled example answer: markers with their spans, findings, the gate, the cleaned answer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
node scripts/build-pkg.mjs node
node examples/demo.mjs "$@"
