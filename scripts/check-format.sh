#!/usr/bin/env bash
# Checks that every C and C++ file of the project is formatted as
# .clang-format says (LLVM style) by clang-format 22; lists the files that are
# not and exits 1. Run by the test suite (test/tools/clang-format.test).
#
#   scripts/check-format.sh          check
#   scripts/check-format.sh --fix    format the files in place
#
# Environment: CLANG_FORMAT (default: clang-format-22, else
# /usr/lib/llvm-22/bin/clang-format; scripts/setup.sh installs it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fix=0
case "${1:-}" in
  --fix) fix=1 ;;
  "") ;;
  *) echo "check-format.sh: unknown argument '$1' (--fix or nothing)" >&2; exit 2 ;;
esac

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for candidate in clang-format-22 /usr/lib/llvm-22/bin/clang-format; do
    if command -v "$candidate" >/dev/null 2>&1; then cf=$candidate; break; fi
  done
fi
[ -n "$cf" ] || { echo "check-format.sh: clang-format 22 not found (apt-get install clang-format-22)" >&2; exit 1; }
version=$("$cf" --version)
case "$version" in
  *"version 22."*) ;;
  *) echo "check-format.sh: $cf is not clang-format 22 ($version)" >&2; exit 1 ;;
esac

cd "$root"
# The tracked sources in a git checkout, else every source under the tree.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.h' '*.c')
else
  mapfile -t files < <(find include lib tools unittests bench python/src \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) -type f | sort)
fi
[ ${#files[@]} -gt 0 ] || { echo "check-format.sh: no C or C++ files found under $root" >&2; exit 1; }

if [ $fix -eq 1 ]; then
  "$cf" -i "${files[@]}"
  echo "check-format.sh: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format.sh: ${#bad[@]} of ${#files[@]} files are not formatted ($cf; run scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format.sh: ${#files[@]} files formatted"
