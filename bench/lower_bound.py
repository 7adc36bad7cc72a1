#!/usr/bin/env python3
"""`optimal` against ckpt-report's lower bound, on steps too large for CBC.

For each step and budget: `ckpt-opt STEP --ckpt-wrap-step
--ckpt-plan=budget=B --ckpt-report`, and from the report the plan's
overhead (its time over the step's own, minus 1), the lower bound's
(`lower_bound.recompute_s` over the step's time: no schedule of
recomputation alone within the budget does better), and how far the plan is
above the bound (`plan_above_percent`: an upper bound on how far it is from
the optimum); then the same for the bound over the schedules that run the
ops a first time in the step's order (`lower_bound_in_order`, the space of
Checkmate's program), when the plan is in that order. Steps: GPT-2 small and ResNet-152 (batch 8, through
`ckpt.torch_import`), and with --graphs, the 1000-node random layered graph
and ResNet-50 of the Checkmate graphs (through `ckpt.import_graph`).

    .venv/bin/python bench/lower_bound.py --build build \
        --graphs ../shared/graphs/checkmate --doc docs/BENCHMARKS.md
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from ckpt import remat  # noqa: E402

TORCH = [("GPT-2 small b8", ["gpt2small", "--batch", "8"], ["70%", "50%", "30%"]),
         ("ResNet-152 b8", ["resnet152", "--batch", "8"], ["70%", "50%", "30%"])]
GRAPHS = [("random layered, 1000 nodes", "random_layered_n1000_w0.31_nlv0.75_ed0.2_scd0.14.json",
           ["90%", "80%", "70%"]),
          ("ResNet-50 (Checkmate)", "ResNet50_256_224_224_3_train_nx.json",
           ["70%", "50%", "30%"])]


LEAST = re.compile(r"the least feasible budget is [^(]*\(([^)]*)\)")


def row(opt, name, path, budget):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        p = subprocess.run([opt, path, "--ckpt-wrap-step", f"--ckpt-plan=budget={budget}",
                            f"--ckpt-report=output={out.name}", "-o", os.devnull],
                           capture_output=True, text=True)
        if p.returncode != 0:
            least = LEAST.search(p.stderr)
            why = f"refused (least feasible budget {least.group(1)})" if least else "refused"
            return f"| {name} | {budget} | {why} | | | | | |"
        r = json.load(open(out.name))[0]
    base = r["store_all"]["time_s"]
    plan = r["plan"]["overhead_percent"]
    cells = []
    for lb in (r["lower_bound"], r["lower_bound_in_order"]):
        if lb.get("infeasible"):
            cells += ["infeasible?!", ""]
            continue
        bound = 100.0 * lb["recompute_s"] / base
        above = lb.get("plan_above_percent")
        cells += [f"{bound:.2f}%", f"{above:.2f}%" if above is not None
                  else "(plan not in order)"]
    ordered = r["lower_bound_in_order"]
    anyOrder = r["lower_bound"]
    binding = (f"{anyOrder['cuts_binding']} of {anyOrder['cuts']} / "
               f"{ordered['cuts_binding']} of {ordered['cuts']}")
    return f"| {name} | {budget} | {plan:.2f}% | " + " | ".join(cells) + f" | {binding} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--graphs", help="the Checkmate graphs' folder")
    ap.add_argument("--doc")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    opt = os.path.join(build, "bin", "ckpt-opt")
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    rows = ["| step | budget | plan's overhead | bound (any order) | plan above it "
            "| bound in order | plan above it | cuts that bind (any / in order) |",
            "|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        steps = []
        for name, model, budgets in TORCH:
            path = os.path.join(tmp, f"{len(steps)}.mlir")
            subprocess.run([sys.executable, "-m", "ckpt.torch_import", *model, "--quiet",
                            "-o", path], check=True, env=env)
            steps.append((name, path, budgets))
        for name, graph, budgets in GRAPHS if args.graphs else []:
            path = os.path.join(tmp, f"{len(steps)}.mlir")
            subprocess.run([sys.executable, "-m", "ckpt.import_graph",
                            os.path.join(args.graphs, graph), "-o", path], check=True, env=env)
            steps.append((name, path, budgets))
        for name, path, budgets in steps:
            for budget in budgets:
                rows.append(row(opt, name, path, budget))
                print(rows[-1], flush=True)
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    text = (f"Commit {commit}, with `.venv/bin/python bench/lower_bound.py --build build "
            f"--graphs ../shared/graphs/checkmate --doc docs/BENCHMARKS.md`. Overheads are "
            f"over the step's own time (each op once); budgets are of the store-all peak.\n\n"
            + "\n".join(rows) + "\n")
    print(text)
    if args.doc:
        remat.replace_block(args.doc, "lower-bound", text)


if __name__ == "__main__":
    main()
