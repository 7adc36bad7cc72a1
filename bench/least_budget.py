#!/usr/bin/env python3
"""The least budget against Checkmate's MILP, and one answer from every tool.

For every graph (the two of test/Solver/Inputs/least-budget and, with
--families, the generated training graphs of `python -m ckpt.graph_families`
for the given seeds), this

  - asks `ckpt-sched --as-imported --budget=1` for the least feasible budget
    L (the planner's least-budget search; the problem ckpt-plan plans for the
    imported step) and the same of `ckpt-opt --ckpt-wrap-step --ckpt-plan`
    on the step `python -m ckpt.import_graph` makes: the two must agree;
  - runs the MILP (`--strategy=ilp`, CBC, --time-limit seconds) at L - 1 B:
    a schedule found there is one below our least budget; "none" means CBC
    proved that no schedule of its program's form fits (each stage's
    recomputations before the stage's op, the form Checkmate's MILP has);
    "unknown" that it found none within the limit;
  - plans at L with `optimal` and with the MILP, and compares the costs:
    how far `optimal` is above the MILP's proven optimum (or its bound).

It prints, and with --doc writes into docs/BENCHMARKS.md (block
`least-budget`), one table. Exit status 1 when the tools disagree, when the
MILP finds a schedule below our least budget, or when a plan at L exceeds L.

    .venv/bin/python bench/least_budget.py --families 101 102 --time-limit 60 \\
        --doc docs/BENCHMARKS.md
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from ckpt import graph_families  # noqa: E402  (the source tree: no build needed)
from ckpt.remat import Failure, replace_block  # noqa: E402

LEAST_GRAPHS = os.path.join(ROOT, "test", "Solver", "Inputs", "least-budget")
LEAST = re.compile(r"the least feasible budget is (\d+) B")
MIB = float(1 << 20)


def graph_paths(tmp, seeds, only=None):
    """The two least-budget graphs, then the generated families for `seeds`
    (written into `tmp`), those whose file name matches the regex `only`."""
    graphs = [os.path.join(LEAST_GRAPHS, g) for g in ("layered-21.json", "transformer-22.json")]
    for family in graph_families.FAMILIES:
        for seed in seeds:
            path = os.path.join(tmp, "%s_s%d.json" % (family, seed))
            with open(path, "w") as f:
                json.dump(graph_families.generate(family, seed), f)
            graphs.append(path)
    if only:
        graphs = [g for g in graphs if re.search(only, os.path.basename(g))]
    return graphs


def add_graph_arguments(parser):
    """The options that pick the graphs and the build (graph_paths)."""
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build directory")
    parser.add_argument("--families", type=int, nargs="*", default=[],
                        help="seeds of the generated families to add")
    parser.add_argument("--only", help="a regex: only graphs whose name matches")


def sched(build, graph, *args, timeout=None):
    """ckpt-sched's JSON and wall seconds."""
    t0 = time.perf_counter()
    p = subprocess.run([os.path.join(build, "bin", "ckpt-sched"), graph, "--as-imported",
                        "--compact", *args], capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 2):
        raise RuntimeError("ckpt-sched %s %s: %s" % (graph, " ".join(args), p.stderr))
    return json.loads(p.stdout), wall


def plan_least(build, graph, tmp):
    """The least budget ckpt-plan names for the imported step."""
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    step = os.path.join(tmp, "step.mlir")
    subprocess.run([sys.executable, "-m", "ckpt.import_graph", graph, "-o", step],
                   check=True, env=env)
    p = subprocess.run([os.path.join(build, "bin", "ckpt-opt"), step, "--ckpt-wrap-step",
                        "--ckpt-plan=budget=1", "-o", os.devnull],
                       capture_output=True, text=True)
    m = LEAST.search(p.stderr)
    if not m:
        raise RuntimeError("ckpt-plan named no least budget for %s: %s" % (graph, p.stderr))
    return int(m.group(1))


def measure(build, graph, limit, tmp):
    name = os.path.splitext(os.path.basename(graph))[0]
    first, least_wall = sched(build, graph, "--budget=1")
    least = first["least_feasible_bytes"]
    row = {"graph": name, "ops": first["ops"], "store_all_peak": first["store_all"]["peak"],
           "store_all_cost": first["store_all"]["cost"], "least": least,
           "least_s": least_wall, "plan_least": plan_least(build, graph, tmp)}
    below, _ = sched(build, graph, "--budget=%d" % (least - 1), "--strategy=ilp",
                     "--time-limit=%g" % limit, timeout=limit * 2 + 120)
    if below["feasible"]:
        row["below"] = "found, peak %d B" % below["peak"]
    else:
        row["below"] = {"infeasible": "none (proved)"}.get(below["ilp"]["status"], "unknown")
    ours, _ = sched(build, graph, "--budget=%d" % least)
    exact, _ = sched(build, graph, "--budget=%d" % least, "--strategy=ilp",
                     "--time-limit=%g" % limit, timeout=limit * 2 + 120)
    row.update(ours_cost=ours["cost"], ours_peak=ours["peak"], ilp=exact["ilp"],
               ilp_cost=exact["ilp"].get("cost"))
    return row


def overhead(cost, row):
    return 100.0 * (cost - row["store_all_cost"]) / row["store_all_cost"]


def versus(row):
    ilp = row["ilp"]
    if ilp["status"] == "optimal" and row["ilp_cost"] is not None:
        return "%+.2f%% of the optimum" % (100.0 * (row["ours_cost"] / row["ilp_cost"] - 1))
    if ilp.get("lower_bound"):
        return "%+.2f%% of the bound" % (100.0 * (row["ours_cost"] / ilp["lower_bound"] - 1))
    return "-"


def format_table(rows, limit):
    out = ["| graph | ops | least budget (of store-all) | ckpt-plan's | time to name it | "
           "MILP at least - 1 B | `optimal` overhead at least | MILP (status) | "
           "`optimal` vs MILP |",
           "|---|---:|---:|---|---:|---|---:|---|---|"]
    for r in rows:
        ilp = r["ilp"]
        exact = ("%.2f%%" % overhead(r["ilp_cost"], r)) if r["ilp_cost"] is not None else "-"
        out.append("| %s | %d | %d B, %.2f MiB (%.1f%%) | %s | %.2f s | %s | %.2f%% | %s (%s) | %s |" % (
            r["graph"], r["ops"], r["least"], r["least"] / MIB,
            100.0 * r["least"] / r["store_all_peak"],
            "same" if r["plan_least"] == r["least"] else "%d B" % r["plan_least"],
            r["least_s"], r["below"], overhead(r["ours_cost"], r), exact, ilp["status"],
            versus(r)))
    found = sum(1 for r in rows if r["below"].startswith("found"))
    proved = sum(1 for r in rows if r["below"].startswith("none"))
    out.append("")
    out.append("CBC %g s per run. The MILP found a schedule below our least budget on %d of "
               "%d graphs; it proved that none exists (in its program's form) on %d; on the "
               "others it found none within the limit." % (limit, found, len(rows), proved))
    return "\n".join(out)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_graph_arguments(a)
    a.add_argument("--time-limit", type=float, default=60, help="CBC's seconds per run")
    a.add_argument("--doc", help="write the table into this Markdown file (block least-budget)")
    args = a.parse_args(argv)
    rows, failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for graph in graph_paths(tmp, args.families, args.only):
            row = measure(args.build, graph, args.time_limit, tmp)
            rows.append(row)
            print("%-16s least %d (%s) below: %s; optimal %.2f%% ilp %s" % (
                row["graph"], row["least"],
                "same" if row["plan_least"] == row["least"] else row["plan_least"],
                row["below"], overhead(row["ours_cost"], row), row["ilp"]["status"]), flush=True)
            if row["plan_least"] != row["least"]:
                failures.append("%s: ckpt-sched names %d B, ckpt-plan %d B" % (
                    row["graph"], row["least"], row["plan_least"]))
            if row["below"].startswith("found"):
                failures.append("%s: the MILP fits %d B, under our least budget" % (
                    row["graph"], row["least"] - 1))
            if row["ours_peak"] > row["least"]:
                failures.append("%s: optimal peaks above its least budget" % row["graph"])
    table = format_table(rows, args.time_limit)
    print(table)
    if args.doc:
        try:
            replace_block(args.doc, "least-budget", table)
        except Failure as e:
            sys.exit(str(e))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
