#!/usr/bin/env bash
# Builds the seed corpus of ckpt-fuzz-opt from the lit tests: every
# test/**/*.mlir split on its `// -----` lines (as -split-input-file does),
# one file per chunk, named <path with / as _>.<chunk number>.mlir. Chunks with
# no operation text (only comments and blank lines) are skipped.
#
#   fuzz/make-corpus.sh [OUT_DIR]     (default: build-fuzz/corpus-seed)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/build-fuzz/corpus-seed}
mkdir -p "$out"
count=0
while IFS= read -r -d '' file; do
  rel=${file#"$root"/test/}
  base=${rel//\//_}
  base=${base%.mlir}
  n=$(awk -v out="$out" -v base="$base" '
    function flush() {
      if (body ~ /[^[:space:]]/) {
        name = sprintf("%s/%s.%d.mlir", out, base, chunk)
        printf "%s", text > name
        close(name)
        written++
      }
      chunk++; text = ""; body = ""
    }
    BEGIN { chunk = 0; written = 0 }
    /^\/\/ -----/ { flush(); next }
    { text = text $0 "\n"; if ($0 !~ /^[[:space:]]*\/\//) body = body $0 }
    END { flush(); print written }
  ' "$file")
  count=$((count + n))
done < <(find "$root/test" -name '*.mlir' -print0 | sort -z)
echo "make-corpus.sh: $count seed inputs in $out"
