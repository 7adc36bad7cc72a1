#!/usr/bin/env bash
# Runs the whole test suite (lit + GoogleTest, through ctest), installing and
# building first when needed, so that it passes from a clean clone.
#
#   scripts/test.sh              the suite
#   scripts/test.sh --load       the suite with a busy loop competing on every
#                                core (twice the machine's cores in runnable
#                                work), as on a shared CI machine
#   scripts/test.sh --generic    the suite on the generic (x86-64 baseline,
#                                no AVX2/AVX-512) code paths: the chain DP's
#                                kernels and ckpt-run's JIT (CKPT_ISA=generic),
#                                PyTorch's kernels (ATEN_CPU_CAPABILITY=default,
#                                DNNL_MAX_CPU_ISA=SSE41)
#
# The two flags combine. Environment: BUILD_DIR (default: build), JOBS
# (default: 2, ctest's parallelism).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
load=0
for arg in "$@"; do
  case "$arg" in
    --load) load=1 ;;
    --generic)
      export CKPT_ISA=generic ATEN_CPU_CAPABILITY=default DNNL_MAX_CPU_ISA=SSE41
      echo "==> generic code paths: CKPT_ISA=$CKPT_ISA ATEN_CPU_CAPABILITY=$ATEN_CPU_CAPABILITY DNNL_MAX_CPU_ISA=$DNNL_MAX_CPU_ISA" ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh" --no-example
cd "$build_dir"
if [ "$load" = 1 ]; then
  cores=$(nproc)
  pids=()
  # One busy loop per core, at normal priority, for as long as the suite runs.
  for _ in $(seq "$cores"); do
    ( while :; do :; done ) &
    pids+=("$!")
  done
  trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
  echo "==> load: $cores busy loops beside the suite"
fi
ctest --output-on-failure --no-tests=error -j"${JOBS:-2}"
