#!/usr/bin/env python3
"""Planning deep models with and without repeated blocks (issue 30, item 3).

For GPT-2-width steps of 12, 24, 48 and 96 layers (batch 1) and for
ResNet-152 and GPT-2 small at batch 8, at 70%, 50% and 30% of the store-all
peak: the median of --runs runs of

    ckpt-opt STEP --ckpt-wrap-step --ckpt-plan="budget=P repeated-blocks=B" \\
        -o OUT --mlir-timing

with B = true (the default) and false: the whole process's wall time, the
ckpt-plan pass's share (from --mlir-timing), and the plan's time (the
ckpt.plan attribute), so the quality is compared on the same budget (for
a refused budget, the least feasible budget the error names). The
runs of identical blocks come from `--ckpt-report="lower-bound=false"`
(`repeated_blocks`). Prints a Markdown table with the CPU's name; --doc
writes it into docs/BENCHMARKS.md between the repeated-blocks markers.

    .venv/bin/python bench/repeated_blocks.py --build build --doc docs/BENCHMARKS.md
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from plan_time import arguments, import_step, publish  # noqa: E402

STEPS = [("GPT-2 width, 12 layers, b1", ["gpt2small", "--batch", "1", "--layers", "12"]),
         ("GPT-2 width, 24 layers, b1", ["gpt2small", "--batch", "1", "--layers", "24"]),
         ("GPT-2 width, 48 layers, b1", ["gpt2small", "--batch", "1", "--layers", "48"]),
         ("GPT-2 width, 96 layers, b1", ["gpt2small", "--batch", "1", "--layers", "96"]),
         ("GPT-2 small b8", ["gpt2small", "--batch", "8"]),
         ("ResNet-152 b8", ["resnet152", "--batch", "8"])]
BUDGETS = ["70%", "50%", "30%"]


LEAST = re.compile(r"the least feasible budget is (\d+) B")


def plan(opt, path, budget, blocks, out):
    """(wall seconds, ckpt-plan seconds, plan time, or for a refused budget
    the least feasible budget named as a string)."""
    args = [opt, path, "--ckpt-wrap-step",
            f"--ckpt-plan=budget={budget} repeated-blocks={'true' if blocks else 'false'}",
            "-o", out, "--mlir-timing"]
    start = time.monotonic()
    run = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - start
    match = re.search(r"^\s*([\d.]+) \(\s*[\d.]+%\)\s+PlanPass", run.stderr, re.M)
    if run.returncode != 0:
        least = LEAST.search(run.stderr)
        return wall, float(match.group(1)), f"refused, least {least.group(1) if least else '?'} B"
    with open(out) as f:
        found = re.search(r"ckpt\.plan = #ckpt\.plan<[^>]*?time = ([0-9.e+-]+)", f.read())
    return wall, float(match.group(1)), float(found.group(1))


def blocks_of(opt, path, tmp):
    report = os.path.join(tmp, "report.json")
    subprocess.run([opt, path, "--ckpt-wrap-step", "--ckpt-plan=budget=100%",
                    f"--ckpt-report=output={report} lower-bound=false", "-o", os.devnull],
                   check=True, capture_output=True)
    with open(report) as f:
        runs = json.load(f)[0]["repeated_blocks"]
    return ", ".join(f"{r['blocks']} x {r['ops_per_block']} ops" for r in runs) or "none"


def main():
    args, build = arguments(__doc__)
    opt = os.path.join(build, "bin", "ckpt-opt")
    rows = ["| step | identical blocks found | budget | wall, blocks | wall, one move "
            "at a time | ckpt-plan pass, blocks | ckpt-plan pass, one move at a time "
            "| plan time, blocks vs one move at a time |",
            "|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mlir")
        for label, model in STEPS:
            path = os.path.join(tmp, "step.mlir")
            import_step(build, model, path)
            found = blocks_of(opt, path, tmp)
            for budget in BUDGETS:
                cells = {}
                for blocks in (True, False):
                    runs = [plan(opt, path, budget, blocks, out) for _ in range(args.runs)]
                    cells[blocks] = (statistics.median(r[0] for r in runs),
                                     statistics.median(r[1] for r in runs), runs[0][2])
                a, b = cells[True], cells[False]
                if isinstance(a[2], str) or isinstance(b[2], str):
                    quality = f"{a[2]} vs {b[2]}"
                else:
                    quality = f"{a[2]:.6g} s vs {b[2]:.6g} s ({100 * (a[2] - b[2]) / b[2]:+.3f}%)"
                rows.append(f"| {label} | {found} | {budget} | {a[0]:.2f} s | {b[0]:.2f} s "
                            f"| {a[1]:.2f} s | {b[1]:.2f} s | {quality} |")
                print(rows[-1], flush=True)
    publish(rows, args.runs, "runs", "repeated_blocks.py", "repeated-blocks", args.doc)


if __name__ == "__main__":
    main()
