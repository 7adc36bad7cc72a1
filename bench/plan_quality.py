#!/usr/bin/env python3
"""Plan quality against the exact optimum, on the Checkmate training graphs.

For every graph of GRAPHS (Checkmate's training graphs and MOCCASIN's random
layered graphs, in node-link JSON), imported with `python -m
ckpt.import_graph`, and for budgets of 0.9 and 0.8 of the store-all peak and
every 0.1 below down to the first budget the exact planner finds nothing
for (with --least, also at `optimal`'s least feasible budget, the hard
end), this runs on the same step:

  - `optimal`: `ckpt-opt --ckpt-wrap-step --ckpt-plan=budget=<bytes>`, timed
    as a whole process (parse to output);
  - `ilp`: the same with `strategy=ilp time-limit=<seconds>`: Checkmate's
    MILP solved by CBC, started from the greedy schedule, with its proven
    lower bound (the plan's `lower_bound`; `optimal` when it equals the
    plan's time).

It prints, and with --doc writes into docs/BENCHMARKS.md (between the
plan-quality markers), one table: for each graph and budget the overhead
(recompute cost over the step's cost) of both, the ILP's status and lower
bound, and how far `optimal`'s total cost is from the proven optimum (or
from the lower bound where none is proven), and whether the budget is below
the op floor (what the hungriest op reads and writes while it runs: no
schedule fits under it, a proof of infeasibility independent of CBC), and
`ckpt-report`'s lower bound with `optimal` above it: the bound over the
schedules in the step's order (`lower_bound_in_order`, which covers every
ILP schedule: the script fails if it is ever above one) where the plan is in
that order, else the bound over every schedule, marked "(any order)". ILP
results are cached in
--cache (they take minutes each); --fresh ignores the cache.

    .venv/bin/python bench/plan_quality.py --time-limit 600 --doc docs/BENCHMARKS.md

(--large-ops N --large-time-limit S give graphs over N ops S seconds instead.)

Exit status 1 when `optimal` is refused where `ilp` finds a schedule, when
its peak exceeds the budget, or (with --check) when its total cost is more
than 1% above a proven optimum.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from ckpt.import_graph import parse_graph  # noqa: E402  (the source tree: no build needed)
from ckpt.remat import Failure, replace_block  # noqa: E402

DEFAULT_GRAPHS = os.path.join(os.path.dirname(ROOT), "shared", "graphs", "checkmate")

PLAN = re.compile(r"#ckpt\.plan<strategy = \"[^\"]+\", budget = (\d+), peak = (\d+), "
                  r"time = ([^,]+), store_all_peak = (\d+), store_all_time = ([^,]+), "
                  r"schedule = \[([^\]]*)\](?:, lower_bound = ([^>]+))?>")
LEAST = re.compile(r"the least feasible budget is (?:[^(]*\()?(\d+) B")  # either format


def number(text):
    return float(text.strip())


def plan(opt, step, options, timeout, keep_output=False):
    """Runs ckpt-plan; returns a dict (feasible, time, peak, lower_bound,
    wall seconds, least, message; with keep_output the planned step)."""
    t0 = time.perf_counter()
    p = subprocess.run([opt, step, "--ckpt-wrap-step", f"--ckpt-plan={options}", "-o", "-"],
                       capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    out = {"wall_s": wall}
    if p.returncode == 0:
        m = PLAN.search(p.stdout)
        if not m:
            raise RuntimeError("no plan in the output of ckpt-plan=%s" % options)
        if keep_output:
            out["planned"] = p.stdout  # the planned step, for report_bound
        out.update(feasible=True, budget=int(m.group(1)), peak=int(m.group(2)),
                   time=number(m.group(3)), store_all_peak=int(m.group(4)),
                   store_all_time=number(m.group(5)),
                   executions=len([x for x in m.group(6).split(",") if x.strip()]))
        if m.group(7):
            out["lower_bound"] = number(m.group(7))
        return out
    message = p.stderr.strip().splitlines()[0] if p.stderr.strip() else "exit %d" % p.returncode
    out.update(feasible=False, message=message)
    least = LEAST.search(p.stderr)
    if least:
        out["least"] = int(least.group(1))
    if "CBC proved that no schedule fits" in p.stderr:
        out["status"] = "infeasible"
    elif "CBC found no schedule" in p.stderr:
        out["status"] = "unknown"
    elif "infeasible" not in p.stderr:
        raise RuntimeError("ckpt-plan=%s failed: %s" % (options, p.stderr[:2000]))
    return out


def op_floor(path):
    """The bytes the hungriest op of a graph needs while it runs (what it
    reads and what it writes; sizes as in the file): no schedule fits a
    smaller budget (the planner's own op lower bound, opLowerBound in
    lib/Solver/Schedule/Planner.cpp, on the file's sizes). Returns (bytes, op name)."""
    with open(path) as f:
        g = parse_graph(json.load(f))
    return max((n.bytes + sum(g.nodes[r].bytes for r in g.preds[i]), str(n.name))
               for i, n in enumerate(g.nodes))


def ilp_status(r):
    """optimal (CBC proved the plan optimal in its program), feasible (not
    proved), or beaten: the program's bound is above the plan, which is then
    `optimal`'s own (strategy=ilp returns it where it is cheaper than the
    program's schedule), so the program's optimum is not known here."""
    if not r["feasible"]:
        return r.get("status", "unknown")
    bound = r.get("lower_bound", 0.0)
    if bound > r["time"] * (1 + 1e-9):
        return "beaten"
    return "optimal" if bound >= r["time"] * (1 - 1e-9) else "feasible"


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--graphs", default=DEFAULT_GRAPHS, help="folder of graph JSON files")
    a.add_argument("--only", help="a regex: only graphs whose file name matches")
    a.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory")
    a.add_argument("--time-limit", type=float, default=600, help="CBC's seconds per budget")
    a.add_argument("--large-ops", type=int, default=0,
                   help="graphs with more ops than this get --large-time-limit (0: none)")
    a.add_argument("--large-time-limit", type=float, default=60,
                   help="CBC's seconds per budget on graphs over --large-ops ops")
    a.add_argument("--cache", default=os.path.join(ROOT, "bench", "results", "plan_quality.json"),
                   help="ILP results to reuse (JSON)")
    a.add_argument("--fresh", action="store_true", help="ignore the cached ILP results")
    a.add_argument("--cached-only", action="store_true",
                   help="run no ILP: budgets with no cached result show `not run`")
    a.add_argument("--least", action="store_true",
                   help="also plan at optimal's least feasible budget (the hard end)")
    a.add_argument("--block", default="plan-quality",
                   help="the markers of --doc's block (<!-- BLOCK:begin --> ... :end -->)")
    a.add_argument("--doc", help="write the table into this Markdown file (between the markers)")
    a.add_argument("--check", action="store_true",
                   help="fail when optimal is more than 1%% over a proven optimum")
    args = a.parse_args(argv)

    opt = os.path.join(args.build, "bin", "ckpt-opt")
    cache = {}
    if os.path.exists(args.cache) and not args.fresh:
        with open(args.cache) as f:
            cache = json.load(f)
    env = dict(os.environ, PYTHONPATH=os.path.join(args.build, "python"))
    # Smallest first: the graphs where the ILP proves optima come early.
    graphs = sorted(glob.glob(os.path.join(args.graphs, "*.json")), key=os.path.getsize)
    if args.only:
        graphs = [g for g in graphs if re.search(args.only, os.path.basename(g))]
    rows, failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in graphs:
            name = os.path.splitext(os.path.basename(path))[0]
            step = os.path.join(tmp, name + ".mlir")
            subprocess.run([sys.executable, "-m", "ckpt.import_graph", path, "-o", step],
                           check=True, env=env)
            ops = sum(1 for line in open(step) if "= ckpt.opaque " in line)
            base = plan(opt, step, "budget=100%", 600)
            floor, floor_op = op_floor(path)
            peak0, time0 = base["store_all_peak"], base["store_all_time"]
            limit = (args.large_time_limit if args.large_ops and ops > args.large_ops
                     else args.time_limit)
            def at_budget(fraction, budget, limit=limit):
                """Plans `budget` both ways; returns the ILP's result."""
                ours = plan(opt, step, f"budget={budget}", 600, keep_output=True)
                if ours["feasible"]:
                    # The in-order bound where the plan is in order (it
                    # covers the plan and every ILP schedule), else the bound
                    # over every schedule.
                    anyOrder, ours["in_order_bound"], ours["in_order"] = report_bound(
                        opt, ours.pop("planned"))
                    ours["bound"] = ours["in_order_bound"] if ours["in_order"] else anyOrder
                key = f"{name}@{budget}@{limit:g}"
                if key not in cache and args.cached_only:
                    # A result under another time limit, the longest.
                    others = sorted((float(k.rsplit("@", 1)[1]), k) for k in cache
                                    if k.startswith(f"{name}@{budget}@"))
                    if others:
                        limit, key = others[-1]
                    else:
                        cache[key] = {"feasible": False, "status": "not run", "wall_s": 0}
                elif key not in cache:
                    cache[key] = plan(opt, step, f"budget={budget} strategy=ilp "
                                      f"time-limit={limit:g}",
                                      limit * 2 + 120)
                    os.makedirs(os.path.dirname(args.cache), exist_ok=True)
                    with open(args.cache, "w") as f:
                        json.dump(cache, f, indent=1, sort_keys=True)
                exact = cache[key]
                status = ilp_status(exact)
                row = {"graph": name, "ops": ops, "fraction": fraction, "budget": budget,
                       "limit": limit,
                       "store_all_time": time0, "optimal": ours, "ilp": exact,
                       "status": status, "floor": floor, "floor_op": floor_op,
                       "store_all_peak": peak0}
                rows.append(row)
                print(format_line(row), flush=True)
                if ours["feasible"] and ours["peak"] > budget:
                    failures.append(f"{name} at {fraction}: optimal peaks at {ours['peak']} > {budget}")
                if exact["feasible"] and not ours["feasible"]:
                    failures.append(f"{name} at {fraction}: optimal is refused, ilp finds a schedule")
                ordered = ours.get("in_order_bound")
                # Against the program's proven optimum (the plan `ilp` returns
                # may be `optimal`'s, not in order, where that is cheaper).
                if ordered and status == "optimal" and ordered > exact["time"] * (1 + 1e-9):
                    failures.append(f"{name} at {fraction}: the in-order bound {ordered} is "
                                    f"above the ilp's schedule {exact['time']}")
                if (args.check and status == "optimal" and ours["feasible"]
                        and ours["time"] > exact["time"] * 1.01):
                    failures.append(f"{name} at {fraction}: optimal {ours['time']} > 1.01 x "
                                    f"the optimum {exact['time']}")
                return exact

            lowest = None
            for tenth in range(9, 0, -1):
                fraction = tenth / 10
                budget = int(peak0 * fraction)
                exact = at_budget(fraction, budget)
                if exact["feasible"]:
                    lowest = budget
                if tenth <= 8 and not exact["feasible"]:
                    break
            if args.least:
                # The hard end: optimal's least feasible budget (what it
                # names when refused), where it is below every tenth that
                # CBC found feasible.
                least = plan(opt, step, "budget=1", 600).get("least")
                if least and (lowest is None or least < lowest):
                    at_budget(round(least / peak0, 3), least)
    table = format_table(rows)
    print(table)
    if args.doc:
        try:
            replace_block(args.doc, args.block, table)
        except Failure as e:
            sys.exit(str(e))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


def overhead(r, time0):
    return 100.0 * (r["time"] - time0) / time0


def format_line(row):
    o, e, t0 = row["optimal"], row["ilp"], row["store_all_time"]
    ours = ("%.3f%%" % overhead(o, t0)) if o["feasible"] else "refused"
    exact = ("%.3f%%" % overhead(e, t0)) if e["feasible"] else "-"
    return "%-45s %s optimal %-9s (%.2f s) ilp %-9s %s" % (
        row["graph"][:45], fraction_text(row), ours, o["wall_s"], exact, row["status"])


def fraction_text(row):
    """0.7 for a tenth; 0.437 (least) for optimal's least feasible budget."""
    f = row["fraction"]
    return "%.1f" % f if abs(f * 10 - round(f * 10)) < 1e-9 else "%.3f (least)" % f


def status_text(row):
    text = "%s (%g s)" % (row["status"], row["limit"])
    if row["status"] != "infeasible" and row["budget"] < row["floor"]:
        text += "; below the op floor"
    return text


def report_bound(opt, planned):
    """ckpt-report's lower bounds on the step as planned (`planned`:
    ckpt-opt's output, read from standard input): (the bound over every
    schedule, the bound over schedules in the step's order, whether the
    plan is in that order)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        p = subprocess.run([opt, "-", f"--ckpt-report=output={out.name}", "-o", os.devnull],
                           input=planned, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return None, None, False
        r = json.load(open(out.name))[0]
        ordered = r["lower_bound_in_order"]
        return (r["lower_bound"].get("time_s"), ordered.get("time_s"),
                ordered["plan_in_order"])


def format_table(rows):
    out = ["| graph | ops | budget | `optimal` overhead | plan time | `ilp` overhead | "
           "`ilp` status (CBC time limit) | `ilp` lower bound | `optimal` total vs `ilp` "
           "| `ckpt-report` bound | `optimal` above it |",
           "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for row in rows:
        o, e, t0 = row["optimal"], row["ilp"], row["store_all_time"]
        ours = ("%.3f%%" % overhead(o, t0)) if o["feasible"] else "refused"
        exact = ("%.3f%%" % overhead(e, t0)) if e["feasible"] else "-"
        bound = e.get("lower_bound")
        bound_text = ("%.3f%%" % (100.0 * (bound - t0) / t0)) if bound else "-"
        if o["feasible"] and row["status"] == "optimal":
            versus = "%+.2f%% of the optimum" % (100.0 * (o["time"] / e["time"] - 1))
        elif o["feasible"] and bound:
            versus = "%+.2f%% of the bound" % (100.0 * (o["time"] / bound - 1))
        elif o["feasible"] and e["feasible"]:
            versus = "%+.2f%% of ilp's" % (100.0 * (o["time"] / e["time"] - 1))
        else:
            versus = "-"
        ours_bound = o.get("bound")
        ours_bound_text = (("%.3f%%" % (100.0 * (ours_bound - t0) / t0))
                           + ("" if o.get("in_order") else " (any order)")) if ours_bound else "-"
        above = ("%+.2f%%" % (100.0 * (o["time"] / ours_bound - 1))
                 if ours_bound and o["feasible"] else "-")
        out.append("| %s | %d | %s | %s | %.2f s | %s | %s | %s | %s | %s | %s |" % (
            row["graph"], row["ops"], fraction_text(row), ours, o["wall_s"], exact,
            status_text(row), bound_text, versus, ours_bound_text, above))
    out.append("")
    out.append("Overheads are the recompute cost over the step's own cost (the graph's "
               "`cost_cpu`); budgets are fractions of the store-all peak of the imported "
               "step (buffers rounded up to 16 B); plan time is `ckpt-opt` as a whole process. "
               "\"Below the op floor\": the budget is less than what one op reads and writes "
               "while it runs, so no schedule fits.")
    floors = {}
    for row in rows:
        floors.setdefault(row["graph"], row)
    out.append("")
    out.append("Op floors (the hungriest op, its bytes over the store-all peak): " + "; ".join(
        "%s %.3f (%s)" % (g, r["floor"] / r["store_all_peak"], r["floor_op"])
        for g, r in floors.items()) + ".")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
