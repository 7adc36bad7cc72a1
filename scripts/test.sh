#!/usr/bin/env bash
# Runs the whole test suite (lit + GoogleTest, through ctest), installing and
# building first when needed, so that it passes from a clean clone.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" --no-example
cd "$build_dir"
ctest --output-on-failure --no-tests=error -j"${JOBS:-2}"
