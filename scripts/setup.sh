#!/usr/bin/env bash
# Installs what ckpt needs (Debian 12 packages), configures and builds it, and
# runs the main job on a shipped example. Idempotent: installs only what is
# missing and rebuilds only what changed.
#
#   scripts/setup.sh              install + build + run examples/mlp.mlir
#   scripts/setup.sh --no-example install + build only
#
# Environment: BUILD_DIR (default: build), JOBS (default: 2), CKPT_VENV (the
# Python environment, default: .venv), CKPT_PYTHON (the Python 3.11 it is made
# with, default: python3 on PATH).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}
run_example=1
for arg in "$@"; do
  case "$arg" in
    --no-example) run_example=0 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '==> %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

packages=(
  cmake ninja-build g++ git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgtest-dev libbenchmark-dev pkg-config coinor-libcbc-dev clang-format-22
  libopenblas-dev
  pybind11-dev python3-dev python3-venv
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  say "installing missing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    die "need root (or sudo) to install: ${missing[*]}"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q || die "apt-get update failed"
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || die "apt-get install failed for: ${missing[*]}"
else
  say "all Debian packages present"
fi

[ -x /usr/lib/llvm-22/bin/mlir-opt ] || die "/usr/lib/llvm-22/bin/mlir-opt is missing after install"

# The Python environment: PyTorch 2, transformers, timm and what the tests
# use, at the versions of python/requirements.lock, in $venv. Remade only when
# the requirements change (a stamp holds their checksum). The bindings are
# built for its interpreter, and every Python command of the project runs it.
venv=${CKPT_VENV:-$root/.venv}
py=${CKPT_PYTHON:-python3}
req="$root/python/requirements.txt"
lock="$root/python/requirements.lock"
stamp="$venv/.ckpt-requirements"
want=$(cat "$req" "$lock" | sha256sum | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
    || die "no Python interpreter '$py' (set CKPT_PYTHON)"
  [ "$ver" = "3.11" ] || say "warning: $py is Python $ver; python/requirements.lock was made on 3.11"
  say "making the Python environment $venv ($py, Python $ver): torch, transformers, timm (a few minutes)"
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv" || die "python -m venv $venv failed"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req" -c "$lock" \
    2> >(grep -v "is ignored: it is neither" >&2) || die "pip install -r $req failed"
  echo "$want" > "$stamp"
else
  say "Python environment $venv up to date"
fi
python="$venv/bin/python"

# The CUDA toolkit (not in Debian main; these machines' image has one in
# /usr/local/cuda): CUDA_HOME, else /usr/local/cuda, else the toolkit of the
# ptxas on PATH. When one is found, the GPU tests require its ptxas and
# libdevice (CKPT_CUDA_TOOLKIT) instead of being skipped.
cuda=""
for candidate in "${CUDA_HOME:-}" /usr/local/cuda \
    "$(dirname "$(dirname "$(command -v ptxas 2>/dev/null || echo /nonexistent/bin/ptxas)")")"; do
  if [ -n "$candidate" ] && [ -x "$candidate/bin/ptxas" ]; then
    cuda=$(cd "$candidate" && pwd -P)
    break
  fi
done
if [ -n "$cuda" ]; then
  say "CUDA toolkit: $cuda (ptxas $("$cuda/bin/ptxas" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')); the GPU tests require it"
  [ -f "$cuda/nvvm/libdevice/libdevice.10.bc" ] \
    || say "warning: $cuda has no nvvm/libdevice/libdevice.10.bc: the GPU tests will fail"
else
  say "no CUDA toolkit (CUDA_HOME, /usr/local/cuda, ptxas on PATH): GPU tests that need ptxas are skipped"
fi

if [ ! -f "$build_dir/build.ninja" ] || \
    ! grep -qx "CKPT_CUDA_TOOLKIT:PATH=$cuda" "$build_dir/CMakeCache.txt" 2>/dev/null || \
    ! grep -qx "CKPT_PYTHON_EXECUTABLE:FILEPATH=$python" "$build_dir/CMakeCache.txt" 2>/dev/null; then
  say "configuring in $build_dir"
  cmake -G Ninja -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DCKPT_CUDA_TOOLKIT="$cuda" -DCKPT_PYTHON_EXECUTABLE="$python" || die "cmake configure failed"
fi

say "building with ninja -j$jobs"
ninja -C "$build_dir" -j"$jobs" || die "build failed"

# Make `import ckpt` work in the environment (like `pip install -e`): a .pth
# file pointing at the package built in $build_dir/python.
if [ -d "$build_dir/python/ckpt" ]; then
  site=$("$python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
  echo "$build_dir/python" > "$site/ckpt-build.pth" \
    && say "python: '$python -c \"import ckpt\"' finds $build_dir/python (via $site/ckpt-build.pth)"
fi

if [ $run_example -eq 1 ]; then
  example="$root/examples/resnet-step.mlir"
  out="$build_dir/example"
  mkdir -p "$out"
  say "planning examples/resnet-step.mlir under 90% of its peak (ckpt-plan + ckpt-report)"
  "$build_dir/bin/ckpt-opt" "$example" --ckpt-wrap-step --ckpt-plan="budget=90%" \
    --ckpt-report="output=$out/report.json" -o "$out/planned.mlir"
  say "rewriting (recompute regions, frees) and lowering to the CPU"
  "$build_dir/bin/ckpt-opt" "$out/planned.mlir" --ckpt-rematerialize --ckpt-insert-frees \
    -o "$out/rematerialized.mlir"
  "$build_dir/bin/ckpt-opt" "$out/rematerialized.mlir" --ckpt-lower-to-cpu -o "$out/lowered.mlir"
  say "running the step (peak_bytes is the measured peak of live buffers)"
  "$build_dir/bin/ckpt-run" "$out/lowered.mlir" --entry=resnet_step
  say "the plan, the rewritten step and the report are in $out"
fi
say "done"
