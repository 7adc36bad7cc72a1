#!/usr/bin/env python3
"""Planning time by instruction-set path, whole process (issue 30's figures).

For each path of the chain DP's kernels (the best this CPU has, then
CKPT_ISA=avx2 and CKPT_ISA=generic where the CPU has more), and for the
best path once more with the planner on one thread
(--mlir-disable-threading: the plans are the same), the median of --runs
whole-process wall times of:

  - ResNet-152, batch 8, at 50%: `ckpt-opt STEP --ckpt-wrap-step
    --ckpt-plan=budget=50% -o /dev/null`;
  - GPT-2 small, batch 8, at 50% (the same);
  - a 48-layer GPT-2-width step (gpt2small --layers 48, batch 1) at 50%;
  - the chain DP on the L = 339, S = 500 chain of the chain-DP benchmark
    (`ckpt-bench-chain --benchmark_filter=L:339/S:500/pct:50`, its median),
    and the naive reference DP once (`--naive`), for the ratio.

The steps are imported once with `python -m ckpt.torch_import`. Prints a
Markdown table with the CPU's name and vector extensions; --doc writes it
into docs/BENCHMARKS.md between the plan-time markers.

    .venv/bin/python bench/plan_time.py --build build --doc docs/BENCHMARKS.md
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from ckpt import remat  # noqa: E402

STEPS = [("ResNet-152 b8", ["resnet152", "--batch", "8"]),
         ("GPT-2 small b8", ["gpt2small", "--batch", "8"]),
         ("GPT-2 width, 48 layers, b1", ["gpt2small", "--batch", "1", "--layers", "48"])]


def cpu():
    name, flags = "unknown CPU", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    return name, flags


def arguments(description):
    """The timing scripts' options (--build, --runs, --doc); returns them and
    the build directory, absolute."""
    ap = argparse.ArgumentParser(description=description.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--doc")
    args = ap.parse_args()
    return args, os.path.abspath(args.build)


def import_step(build, model, path):
    """Writes the step of `model` (ckpt.torch_import's arguments) to `path`,
    with the build's Python package."""
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    subprocess.run([sys.executable, "-m", "ckpt.torch_import", *model, "--quiet",
                    "-o", path], check=True, env=env)


def publish(rows, runs, what, script, block, doc):
    """Prints `rows` (a Markdown table) under a line naming this CPU, the
    commit and the command, and writes them into `doc` between the `block`
    markers when given."""
    name, flags = cpu()
    ext = ", ".join(f for f in ("avx2", "avx512f", "avx512bw") if f in flags) or "none"
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    text = (f"Measured on {name} ({ext}), commit {commit}, medians of {runs} {what}, "
            f"with `.venv/bin/python bench/{script} --build build "
            f"--doc docs/BENCHMARKS.md`.\n\n" + "\n".join(rows) + "\n")
    print(text)
    if doc:
        remat.replace_block(doc, block, text)


def isa_paths():
    """The chain DP's kernel paths to time: the best this CPU has (None),
    then the narrower ones CKPT_ISA can force on it (the AVX-512 path needs
    AVX-512F and BW)."""
    _, flags = cpu()
    avx512 = "avx512f" in flags and "avx512bw" in flags
    return [None] + (["avx2"] if avx512 else []) + ["generic"]


def isa_env(isa):
    """This process's environment with CKPT_ISA set to `isa` (unset: None)."""
    env = dict(os.environ)
    env.pop("CKPT_ISA", None)
    if isa:
        env["CKPT_ISA"] = isa
    return env


def wall(args, env):
    start = time.monotonic()
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def chain_ms(bench, env, naive=False):
    args = [bench, "--benchmark_filter=L:339/S:500/pct:50"]
    args += ["--naive", "--benchmark_filter=Naive"] if naive else [
        "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"]
    out = subprocess.run(args, check=True, env=env, capture_output=True, text=True).stdout
    rows = [l for l in out.splitlines() if "L:339/S:500/pct:50" in l]
    row = next((l for l in rows if "median" in l), rows[-1])
    value, unit = re.search(r"\s([\d.]+) (ms|s|us)\s", row).groups()
    return float(value) * {"ms": 1, "s": 1000, "us": 0.001}[unit]


def main():
    args, build = arguments(__doc__)
    opt = os.path.join(build, "bin", "ckpt-opt")
    bench = os.path.join(build, "bin", "ckpt-bench-chain")
    paths = isa_paths()
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for label, model in STEPS:
            path = os.path.join(tmp, f"{len(files)}.mlir")
            import_step(build, model, path)
            files.append((label, path))
        rows = ["| path | " + " | ".join(label for label, _ in files)
                + " | chain DP L=339 S=500 | naive DP | ratio |",
                "|---|" + "---|" * (len(files) + 3)]
        naive = chain_ms(bench, dict(os.environ), naive=True)
        # Each path on two threads (ckpt-opt's default), then the best path
        # on one (--mlir-disable-threading); the chain DP's own threads are
        # the same in every row.
        for isa, threads in [(isa, 2) for isa in paths] + [(None, 1)]:
            env = isa_env(isa)
            extra = ["--mlir-disable-threading"] if threads == 1 else []
            cells = []
            for _, path in files:
                times = [wall([opt, path, "--ckpt-wrap-step", "--ckpt-plan=budget=50%",
                               "-o", os.devnull, *extra], env) for _ in range(args.runs)]
                cells.append(f"{statistics.median(times):.2f} s")
            label = (isa or "best (default)") + (", one thread" if threads == 1 else "")
            if threads == 1:
                rows.append(f"| {label} | " + " | ".join(cells) + " | | | |")
            else:
                fast = chain_ms(bench, env)
                rows.append(f"| {label} | " + " | ".join(cells)
                            + f" | {fast:.0f} ms | {naive:.0f} ms | {naive / fast:.0f}x |")
            print(rows[-1], flush=True)
    publish(rows, args.runs, "whole-process runs", "plan_time.py", "plan-time", args.doc)


if __name__ == "__main__":
    main()
