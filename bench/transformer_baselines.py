#!/usr/bin/env python3
"""`optimal` against the recompute policies transformer users know.

    PYTHONPATH=build/python PATH=build/bin:$PATH .venv/bin/python \\
        bench/transformer_baselines.py [--models tinygpt,gpt2small] [--batch 8] \\
        [--doc docs/BENCHMARKS.md] [--plot docs/figures/transformer-baselines.png]

For each GPT model (`python -m ckpt.torch_import NAME --batch B`, dropout
off), the baselines are:

  store-all   nothing recomputed;
  blocks      `torch.utils.checkpoint` on every transformer block;
  attention   Megatron-LM's selective recompute (keep all but the attention
              core: scores, mask, softmax, dropout);
  matmuls     PyTorch's selective activation checkpointing, saving the
              outputs of matrix products (recompute everything else).

Each baseline is the step imported with `--keep POLICY` (its kept values
marked by `ckpt.checkpoint`) and planned with `ckpt-plan{strategy=keep}`: a
fixed schedule with a peak P and a time T. `optimal` is planned on the
unmarked step at the budget P (equal memory) and at every 10% of the
store-all peak at or above P (every budget where the baseline fits); a
violation is an `optimal` plan slower than T there (by more than 1e-9
relative) or over its budget. For models small enough to run (tinygpt;
`--run`), both plans at P are rewritten, lowered to the CPU and run by
ckpt-run: outputs bit-identical to the unplanned step, measured peak equal
to the predicted one, optimal's within P. Exit status 1 on any violation.

--doc replaces the block between `<!-- transformer-baselines:begin -->` and
`<!-- transformer-baselines:end -->`; --plot draws each model's `optimal`
overhead against the budget with the baselines as points (matplotlib).
"""

import argparse
import os
import sys
import tempfile

from ckpt import remat  # the built package: PYTHONPATH=build/python

POLICIES = ["blocks", "attention", "matmuls"]
NAMES = {"store-all": "store-all", "blocks": "checkpoint every block",
         "attention": "Megatron selective (attention core)",
         "matmuls": "save matmuls, recompute the rest"}


def wrapped_step(args, keep, tmp, tag):
    """`python -m ckpt.torch_import ARGS [--keep KEEP]`, wrapped by
    ckpt-wrap-step: the wrapped file (TAG-wrapped.mlir in `tmp`)."""
    path = os.path.join(tmp, f"{tag}.mlir")
    cmd = [sys.executable, "-m", "ckpt.torch_import"] + args + ["--quiet", "-o", path]
    if keep:
        cmd += ["--keep", keep]
    remat.run(cmd)
    wrapped = os.path.join(tmp, f"{tag}-wrapped.mlir")
    remat.run(["ckpt-opt", path, "--ckpt-wrap-step", "-o", wrapped])
    return wrapped


def planned(wrapped, budget, options, tmp, name):
    """(planned file, numbers) of ckpt-plan at `budget`."""
    sub = os.path.join(tmp, name)
    os.makedirs(sub, exist_ok=True)
    path, _, numbers = remat.plan(wrapped, budget, sub, options)
    return path, numbers, sub


def measure(path, entry, sub, base_hash, budget, predicted_peak):
    """Rewrites, lowers and runs a planned step; checks it; returns the
    measured peak."""
    rewritten, predicted = remat.rewrite(path, sub)
    if predicted != predicted_peak:
        raise remat.Failure(f"{path}: the rewritten step's peak {predicted} is not the "
                            f"plan's {predicted_peak}")
    result = remat.execute(rewritten, entry, sub)
    remat.check({"outputs_sha256": base_hash}, result, budget, predicted)
    return result["peak_bytes"]


def run_model(model, batch, run, tmp, failures):
    rows, curve = [], []
    entry = f"{model}_step"
    steps = {}
    for keep in [None] + POLICIES:
        steps[keep] = wrapped_step([model, "--batch", str(batch)], keep, tmp,
                                   f"{model}-{keep or 'plain'}")
    plain = steps[None]
    _, base, _ = planned(plain, "100%", "strategy=store-all", tmp, "store-all")
    peak0, time0 = base["store_all_peak"], base["store_all_time"]
    base_hash = None
    if run:
        base_hash = remat.execute(plain, entry, os.path.join(tmp, "store-all"))["outputs_sha256"]

    def overhead(t):
        return 100.0 * (t / time0 - 1.0)

    for pct in range(100, 0, -10):
        try:
            _, o, _ = planned(plain, f"{pct}%", "", tmp, f"optimal-{pct}")
            curve.append((100.0 * o["budget"] / peak0, overhead(o["time"]), o))
        except remat.Infeasible:
            break
    for policy in ["store-all"] + POLICIES:
        if policy == "store-all":
            path, b, sub = planned(plain, "100%", "strategy=store-all", tmp, "b-store-all")
        else:
            path, b, sub = planned(steps[policy], "100%", "strategy=keep", tmp, f"b-{policy}")
            if b["store_all_peak"] != peak0 or abs(b["store_all_time"] / time0 - 1) > 1e-12:
                failures.append(f"{model} {policy}: the marked step is not the plain one "
                                f"(store-all {b['store_all_peak']} B, {b['store_all_time']})")
        budget = b["peak"]
        opath, o, osub = planned(plain, str(budget), "", tmp, f"o-{policy}")
        row = {"model": model, "policy": policy, "peak": budget, "time": b["time"],
               "opt": o, "measured": None}
        if o["peak"] > budget:
            failures.append(f"{model} {policy}: optimal peaks at {o['peak']} > {budget}")
        if o["time"] > b["time"] * (1 + 1e-9):
            failures.append(f"{model} {policy}: optimal {o['time']} slower than the "
                            f"baseline {b['time']} at {budget} B")
        for pct, over, c in curve:
            if c["budget"] >= budget and c["time"] > b["time"] * (1 + 1e-9):
                failures.append(f"{model} {policy}: optimal at {pct:.0f}% is slower than "
                                f"the baseline")
        curve.append((100.0 * budget / peak0, overhead(o["time"]), o))
        if run:
            try:
                row["measured"] = (measure(path, entry, sub, base_hash, peak0, b["peak"]),
                                   measure(opath, entry, osub, base_hash, budget, o["peak"]))
            except remat.Failure as e:
                failures.append(f"{model} {policy}: {e}")
        rows.append(row)
        print(f"{model:10s} {policy:10s} peak {100.0 * budget / peak0:6.1f}% "
              f"overhead {overhead(b['time']):7.3f}%  optimal {overhead(o['time']):7.3f}% "
              f"(peak {o['peak']})"
              + (f"  measured {row['measured'][0]} / {row['measured'][1]} B"
                 if row["measured"] else ""), flush=True)
    curve.sort(key=lambda x: x[0])
    return {"model": model, "batch": batch, "peak0": peak0, "time0": time0,
            "rows": rows, "curve": [(p, v) for p, v, _ in curve]}


def table(results):
    out = ["| model | baseline | baseline peak | baseline overhead | `optimal` overhead "
           "at that budget | `optimal` peak | measured peaks (baseline / `optimal`) |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        t0, p0 = r["time0"], r["peak0"]
        for row in r["rows"]:
            o = row["opt"]
            measured = ("%d / %d B" % row["measured"]) if row["measured"] else "not run"
            out.append(
                f"| {r['model']} b{r['batch']} | {NAMES[row['policy']]} | "
                f"{100.0 * row['peak'] / p0:.1f}% ({row['peak']} B) | "
                f"{100.0 * (row['time'] / t0 - 1):.2f}% | "
                f"{100.0 * (o['time'] / t0 - 1):.2f}% | {o['peak']} B | {measured} |")
    out.append("")
    out.append("Budgets and peaks are of the step's store-all peak (the simulated peak of the "
               "step as written, what ckpt-run measures); overheads are predicted time (h100 "
               "roofline) over the store-all time.")
    return "\n".join(out) + "\n"


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(results), figsize=(6 * len(results), 4.2), squeeze=False)
    marks = {"store-all": "s", "blocks": "o", "attention": "^", "matmuls": "D"}
    for ax, r in zip(axes[0], results):
        xs, ys = zip(*r["curve"])
        ax.plot(xs, ys, "-", color="black", label="optimal")
        for row in r["rows"]:
            ax.plot(100.0 * row["peak"] / r["peak0"], 100.0 * (row["time"] / r["time0"] - 1),
                    marks[row["policy"]], markersize=8, label=NAMES[row["policy"]])
        ax.set_title(f"{r['model']}, batch {r['batch']}")
        ax.set_xlabel("memory (% of the store-all peak)")
        ax.set_ylabel("recompute overhead (%)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--models", default="tinygpt,gpt2small")
    a.add_argument("--batch", type=int, default=8)
    a.add_argument("--run", default="tinygpt",
                   help="models whose plans are also run by ckpt-run (comma-separated)")
    a.add_argument("--doc", help="write the table into this Markdown file")
    a.add_argument("--plot", help="draw the figure into this PNG file")
    args = a.parse_args(argv)
    failures, results = [], []
    runs = set(filter(None, args.run.split(",")))
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            sub = os.path.join(tmp, model)
            os.makedirs(sub)
            results.append(run_model(model, args.batch, model in runs, sub, failures))
    text = table(results)
    print(text)
    if args.doc:
        try:
            remat.replace_block(args.doc, "transformer-baselines", text)
        except remat.Failure as e:
            sys.exit(str(e))
    if args.plot:
        plot(results, args.plot)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
