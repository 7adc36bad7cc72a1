#!/usr/bin/env python3
"""How long ckpt.compile_step takes on a large step: import, plan, rewrite,
lower and JIT, against the number of ops in the step.

    PYTHONPATH=build/python .venv/bin/python bench/compile_time.py \\
        [--depths 25,50,100] [--levels 0/0,0/2] [--budget 100%] [--doc docs/BENCHMARKS.md]

Each model is an MLP of `depth` blocks (Linear 64 -> 64, LayerNorm, GELU),
batch 8, cross entropy over 10 classes: a deep, narrow step whose op count
grows with the depth (the traced step's ops: forward, loss and backward).
For each depth and LLVM level pair (IR passes / code generator) it prints
the step's op count, the wall time of compile_step (whole, in process), and
the time of one call of the step; the CPU is named. Levels above 0 for the
IR passes are skipped for steps over --max-o2-ops ops (minutes). With --doc
the table goes between <!-- compile-time:begin --> and :end -->.
"""

import argparse
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from jit_time import cpu_name  # noqa: E402
from ckpt import remat  # noqa: E402
from ckpt.remat import replace_block  # noqa: E402
from ckpt.step import compile_step  # noqa: E402
from ckpt.torch_import.api import import_module_info  # noqa: E402


def mlp(depth):
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(64, 64), torch.nn.LayerNorm(64), torch.nn.GELU()]
    return torch.nn.Sequential(*layers, torch.nn.Linear(64, 10))


def step_ops(model, x, t):
    """Ops in the traced step (every op of the function body)."""
    text, _ = import_module_info(model, (x,), t, loss="cross_entropy:indices")
    return sum(1 for line in text.splitlines()
               if line.strip().startswith("%") and " = " in line)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--depths", default="25,50,100")
    a.add_argument("--levels", default="0/0,0/2")
    a.add_argument("--budget", default="100%")
    a.add_argument("--doc", help="write the table into this Markdown file")
    a.add_argument("--max-o2-ops", type=int, default=3000)
    args = a.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    lines = [f"compile_step's compile time, MLP steps, on {cpu_name()}; "
             f"`bench/compile_time.py`:", "",
             "| step ops | LLVM IR / codegen level | compile_step (s) | step (ms) |",
             "|---:|---:|---:|---:|"]
    print("\n".join(lines), flush=True)
    for depth in (int(d) for d in args.depths.split(",")):
        model = mlp(depth)
        x = torch.randn(8, 64)
        t = torch.randint(0, 10, (8,))
        ops = step_ops(model, x, t)
        for pair in args.levels.split(","):
            ir, codegen = (int(v) for v in pair.split("/"))
            if ir > 0 and ops > args.max_o2_ops:
                lines.append(f"| {ops} | {ir} / {codegen} | not run (minutes) | |")
                print(lines[-1], flush=True)
                continue
            t0 = time.perf_counter()
            try:
                step = compile_step(model, x, t, budget=args.budget, opt_level=ir,
                                    codegen_level=codegen)
            except remat.Infeasible as e:  # a budget under the least: the least
                t0 = time.perf_counter()
                step = compile_step(model, x, t, budget=e.least, opt_level=ir,
                                    codegen_level=codegen)
            compile_s = time.perf_counter() - t0
            step(x, t)
            t0 = time.perf_counter()
            step(x, t)
            run_ms = (time.perf_counter() - t0) * 1000
            lines.append(f"| {ops} | {ir} / {codegen} | {compile_s:.1f} | {run_ms:.1f} |")
            print(lines[-1], flush=True)
    if args.doc:
        replace_block(args.doc, "compile-time", "\n".join(lines))


if __name__ == "__main__":
    main()
