#!/usr/bin/env bash
# Runs the zoo steps (resnet, transformer, mlp8) and torchvision's ResNet-18
# planned at 100/70/50% on the GPU (ckpt-run --gpu) and on the CPU, checks
# results, peaks and leaks, prints a table and exits 1 on any miss. See
# scripts/gpu_check.py for the checks and options (--cpu-only without a GPU).
#
# Environment: BUILD_DIR (default: build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
[ -x "$build_dir/bin/ckpt-run" ] || {
  echo "gpu-check.sh: no $build_dir/bin/ckpt-run: run scripts/setup.sh first" >&2
  exit 1
}
export PATH="$build_dir/bin:$PATH"
export PYTHONPATH="$build_dir/python${PYTHONPATH:+:$PYTHONPATH}"
exec "${CKPT_VENV:-$root/.venv}/bin/python" "$root/scripts/gpu_check.py" "$@"
