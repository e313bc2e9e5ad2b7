#!/usr/bin/env bash
# The batch CLI at scale: answers per second on one core and on all cores, and the peak
# memory (max RSS) on a large file. The file repeats data/expertqa/answers-val.jsonl
# (real answers with their sources) to SIZE_MB megabytes.
#
#   bash benches/cli.sh [SIZE_MB]     (default 1024: a 1 GB file, written to $TMPDIR)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1024}
cargo build --release --quiet --bin citeproof
file=${TMPDIR:-/tmp}/citeproof-bench-$size_mb.jsonl
if [ ! -s "$file" ]; then
  python3 - "$file" "$size_mb" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
lines = open("data/expertqa/answers-val.jsonl", "rb").read().splitlines(keepends=True)
written = 0
with open(path, "wb") as out:
    while written < size:
        for line in lines:
            out.write(line)
            written += len(line)
            if written >= size:
                break
PY
fi
lines=$(wc -l < "$file")
echo "citeproof check on $lines answers ($(du -m "$file" | cut -f1) MB), $(nproc) cores, $(date -u +%F)"
for jobs in 1 "$(nproc)"; do
  /usr/bin/time -f "%e %M" -o /tmp/citeproof-bench-time target/release/citeproof check "$file" --json --jobs "$jobs" > /dev/null 2>&1 || true
  read -r seconds rss_kb < /tmp/citeproof-bench-time
  python3 -c "import sys; s,k,n,j=float(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3]),sys.argv[4]; print(f'  --jobs {j}: {s:.1f} s, {n/s:,.0f} answers/s, max RSS {k/1024:.0f} MB')" "$seconds" "$rss_kb" "$lines" "$jobs"
done
