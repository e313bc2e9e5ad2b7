#!/usr/bin/env bash
# The README's demo: installs what is missing, builds the npm package, and parses the
# bundled example answer, printing its markers with their spans.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
node scripts/build-pkg.mjs node
node examples/demo.mjs "$@"
