#!/usr/bin/env python3
"""ckpt against PyTorch's own planners, on the same joint graph.

    PYTHONPATH=build/python PATH=build/bin:$PATH .venv/bin/python \\
        bench/torch_planners.py [--models tinygpt,tinyresnet] [--doc docs/BENCHMARKS.md]

For each model (`python -m ckpt.torch_import MODEL ...`, dropout off), the
PyTorch planners are:

  partitioner:B:S  torch.compile's min-cut partitioner with
                   `torch._functorch.config.activation_memory_budget = B`
                   (1.0, its default: the plain min cut; 0.0: save only the
                   inputs) and knapsack solver S (dp, its default, greedy,
                   ilp); B in 0.8, 0.6, 0.4, 0.2 for each solver;
  matmuls          torchtitan's selective activation checkpointing policy
                   (save the outputs of matrix products inside each block,
                   recompute the rest).

Each is the step imported with `--keep PLANNER` (the values PyTorch saves for
the backward marked by `ckpt.checkpoint`; ckpt.torch_import.policies hands
the step's traced graph to the partitioner as aot_autograd's joint graph)
and evaluated in ckpt's memory and cost model with
`ckpt-plan{strategy=keep}`: a schedule with a peak P (bytes the step
allocates: activations and gradients) and a predicted time T. ckpt's
`optimal` is planned on the unmarked step at the budget P. Verdicts: ckpt
ahead (faster at a peak <= P), equal (within 1e-9 of T), behind. Also: where
the partitioner's peak grows as its budget shrinks (not monotone), and the
least budget each side reaches.

Exit status 1 when ckpt is behind anywhere or over a budget. --doc replaces
the block between `<!-- torch-planners:begin -->` and `<!-- torch-planners:end -->`.
"""

import argparse
import os
import platform
import sys
import tempfile
import time

from ckpt import remat  # the built package: PYTHONPATH=build/python

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transformer_baselines import planned, wrapped_step  # noqa: E402

MODELS = {
    # the anchors (python/tests/test_torch_planners.py)
    "tinygpt": ["tinygpt", "--batch", "8"],
    "tinyresnet": ["tinyresnet", "--batch", "8"],
    # the four
    "gpt2small": ["gpt2small", "--batch", "2"],
    "llama-1b-width": ["llama", "--batch", "1", "--width", "2048", "--heads", "32",
                       "--kv-heads", "8", "--layers", "2", "--seq", "1024",
                       "--vocab", "32000"],
    "vit_b_16": ["vit_b_16", "--batch", "8"],
    "resnet50": ["resnet50", "--batch", "8"],
}
LABELS = {"llama-1b-width": "Llama-3-style, width 2048, 2 layers, seq 1024"}
# Models without repeated blocks, where the "matmuls" policy has no blocks to
# act in.
NO_BLOCKS = {"tinyresnet"}
SOLVERS = ("dp", "greedy", "ilp")
BUDGETS = ("0.8", "0.6", "0.4", "0.2")


def planners(solvers=SOLVERS, budgets=BUDGETS):
    """The PyTorch planners compared, as --keep policies."""
    return (["partitioner:1"] + [f"partitioner:{b}:{s}" for s in solvers for b in budgets]
            + ["partitioner:0", "matmuls"])


def plan_numbers(wrapped, budget, options, tmp, tag):
    """The #ckpt.plan numbers of ckpt-plan at `budget` (in tmp/TAG)."""
    return planned(wrapped, budget, options, tmp, tag)[1]


def least_budget(wrapped, tmp):
    """ckpt's least feasible budget: the one its refusal of 1 byte names."""
    try:
        plan_numbers(wrapped, "1", "", tmp, "least")
        return 1
    except remat.Infeasible as e:
        return e.least


def compare(model, keeps, tmp, failures):
    """Rows for `model` (a MODELS key) against each planner of `keeps`."""
    args = MODELS[model]
    plain = wrapped_step(args, None, tmp, "plain")
    base = plan_numbers(plain, "100%", "strategy=store-all", tmp, "store-all")
    peak0, time0 = base["store_all_peak"], base["store_all_time"]
    rows = []
    for keep in keeps:
        if keep == "matmuls" and model in NO_BLOCKS:
            continue
        tag = keep.replace(":", "_").replace(".", "")
        row = {"planner": keep}
        try:
            marked = wrapped_step(args, keep, tmp, tag)
        except remat.Failure as e:
            row["error"] = str(e).strip().splitlines()[-1][:200]
            rows.append(row)
            print(f"{model} {keep}: {row['error']}", flush=True)
            continue
        # Their schedule, whatever it peaks at (keeping nothing can peak
        # above store-all: everything recomputed at once).
        theirs = plan_numbers(marked, str(10 * peak0), "strategy=keep", tmp, f"k-{tag}")
        ours = plan_numbers(plain, str(theirs["peak"]), "", tmp, f"o-{tag}")
        row.update(peak=theirs["peak"], time=theirs["time"], ours=ours)
        if ours["peak"] > theirs["peak"]:
            failures.append(f"{model} {keep}: ckpt peaks at {ours['peak']} B over "
                            f"the budget {theirs['peak']} B")
        rel = ours["time"] / theirs["time"] - 1
        row["verdict"] = "equal" if abs(rel) <= 1e-9 else ("ahead" if rel < 0 else "behind")
        if row["verdict"] == "behind":
            failures.append(f"{model} {keep}: ckpt {ours['time']:.6g} slower than "
                            f"{theirs['time']:.6g} at {theirs['peak']} B")
        rows.append(row)
        print(f"{model} {keep}: peak {100 * theirs['peak'] / peak0:.1f}%, overhead "
              f"{100 * (theirs['time'] / time0 - 1):.2f}% vs ckpt "
              f"{100 * (ours['time'] / time0 - 1):.2f}% ({row['verdict']})", flush=True)
    # Monotonicity of the partitioner in its budget, per solver.
    notes = []
    for solver in SOLVERS:
        seq = [r for r in rows if "peak" in r and (
            r["planner"] in ("partitioner:1", "partitioner:0")
            or r["planner"].endswith(":" + solver))]
        seq.sort(key=lambda r: -float(r["planner"].split(":")[1]))
        for hi, lo in zip(seq, seq[1:]):
            if lo["peak"] > hi["peak"]:
                notes.append(f"{lo['planner']} peaks higher than {hi['planner']} "
                             f"({lo['peak']} > {hi['peak']} B): not monotone")
    least = least_budget(plain, tmp)
    their_least = min((r["peak"] for r in rows if "peak" in r), default=None)
    return {"model": model, "peak0": peak0, "time0": time0, "rows": rows,
            "notes": sorted(set(notes)), "least": least, "their_least": their_least}


def table(results, seconds):
    out = ["| model | PyTorch planner | its peak | its overhead | ckpt at that peak | "
           "ckpt |", "|---|---|---:|---:|---:|---|"]
    for r in results:
        p0, t0 = r["peak0"], r["time0"]
        name = LABELS.get(r["model"], r["model"]) + " " + " ".join(MODELS[r["model"]][1:3])
        for row in r["rows"]:
            if "error" in row:
                out.append(f"| {name} | {row['planner']} | failed: {row['error']} | | | |")
                continue
            o = row["ours"]
            out.append(f"| {name} | `{row['planner']}` | {100 * row['peak'] / p0:.1f}% | "
                       f"{100 * (row['time'] / t0 - 1):.2f}% | "
                       f"{100 * (o['time'] / t0 - 1):.2f}% | {row['verdict']} |")
    out.append("")
    for r in results:
        p0 = r["peak0"]
        line = (f"- {r['model']}: store-all peak {p0} B; least budget ckpt "
                f"{100 * r['least'] / p0:.1f}%, PyTorch's planners "
                f"{100 * r['their_least'] / p0:.1f}%" if r["their_least"] else "")
        out.append(line + ("; " + "; ".join(r["notes"]) if r["notes"] else "") + ".")
    out.append("")
    out.append("Peaks are of the step's store-all peak (what the step allocates, as "
               "ckpt-run measures it); overheads are predicted time (ckpt's h100 roofline "
               "model) over the store-all time. Generated by `bench/torch_planners.py` "
               f"({time.strftime('%Y-%m-%d')}, {platform.machine()}, {seconds:.0f} s).")
    return "\n".join(out) + "\n"


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--models", default="tinygpt,tinyresnet",
                   help="comma-separated, of: " + ", ".join(MODELS))
    a.add_argument("--solvers", default=",".join(SOLVERS))
    a.add_argument("--budgets", default=",".join(BUDGETS))
    a.add_argument("--doc", help="write the table into this Markdown file")
    args = a.parse_args(argv)
    failures, results = [], []
    keeps = planners(args.solvers.split(","), args.budgets.split(","))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            if model not in MODELS:
                a.error(f"unknown model '{model}': expected one of {', '.join(MODELS)}")
            sub = os.path.join(tmp, model)
            os.makedirs(sub)
            results.append(compare(model, keeps, sub, failures))
    text = table(results, time.perf_counter() - start)
    return remat.publish(text, args.doc, "torch-planners", failures)


if __name__ == "__main__":
    sys.exit(main())
