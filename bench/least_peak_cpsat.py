#!/usr/bin/env python3
"""The least budget against CP-SAT's lowest peak (issue 44, item 2).

For every graph of bench/least_budget.py (the two least-budget graphs and,
with --families, the generated families for the given seeds), this asks
`ckpt-sched --as-imported --budget=1` for our least feasible budget L, then
lets OR-Tools' CP-SAT minimise the peak over Checkmate's schedules (stage t
computes node t and, before it, any earlier nodes again, in node order;
any node may run again, backward ones too) for --seconds, started from our
own schedule at L as a hint. CP-SAT's model follows Checkmate's MILP with
the peak as the objective; the schedule it returns is then replayed by
`ckpt-sched --as-imported --replay` in our own memory model (buffers in
16-byte granules, the loss kept to the end), so that the figure compared
with L is ours, not the model's.

It prints, and with --doc writes into docs/BENCHMARKS.md (block
`least-peak-cpsat`), one table: per graph L, the replayed peak of CP-SAT's
best schedule, how far under L it is, and the extra cost of that schedule;
then the same with every backward node run once (only forward nodes
recomputed), which shows how much of a gap needs backward recomputation.
Exit status 1 when a schedule under L was found (the issue's goal is never).

    .venv/bin/python bench/least_peak_cpsat.py --families 101 102 --seconds 45 \\
        --doc docs/BENCHMARKS.md

Needs `ortools` (installed into this Python's environment on first use,
version ORTOOLS below, when missing).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from ckpt.remat import Failure, replace_block  # noqa: E402
from least_budget import MIB, add_graph_arguments, graph_paths, sched  # noqa: E402

ORTOOLS = "9.15.6755"


def cp_model_module():
    """OR-Tools' cp_model, installed on first use."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        print("least_peak_cpsat: installing ortools==%s" % ORTOOLS, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                        "ortools==%s" % ORTOOLS], check=True)
        from ortools.sat.python import cp_model
    return cp_model


def least_peak(graph, hint, seconds, workers, backward_once=False):
    """CP-SAT's lowest-peak schedule of `graph` (Checkmate's form) as node
    names, its status and its wall seconds. `hint`: a schedule (node names)
    whose stages seed the search. `backward_once`: every backward node runs
    once (only forward nodes are recomputed, as our planner's schedules
    mostly do)."""
    cp_model = cp_model_module()
    nodes = sorted(graph["nodes"], key=lambda n: n["id"])
    n = len(nodes)
    index = {node["id"]: k for k, node in enumerate(nodes)}
    size = [int(node["cost_ram"]) for node in nodes]
    preds = [[] for _ in range(n)]
    users = [[] for _ in range(n)]
    for link in graph["links"]:
        s, t = index[link["source"]], index[link["target"]]
        preds[t].append(s)
        users[s].append(t)
    if any(p >= v for v in range(n) for p in preds[v]):
        raise ValueError("nodes are not numbered in a topological order")
    m = cp_model.CpModel()
    peak = m.NewIntVar(0, sum(size), "peak")
    R = [[m.NewBoolVar("R%d_%d" % (t, i)) for i in range(t + 1)] for t in range(n)]
    S = [[m.NewBoolVar("S%d_%d" % (t, i)) for i in range(t)] for t in range(n + 1)]
    for t in range(n):
        m.Add(R[t][t] == 1)
        for j in range(t + 1):  # a node runs only when its inputs are there
            for i in preds[j]:
                m.AddBoolOr([R[t][i]] + ([S[t][i]] if i < t else [])).OnlyEnforceIf(R[t][j])
    for t in range(1, n + 1):  # kept into stage t: kept or computed in t - 1
        for i in range(t):
            held = [R[t - 1][i]] + ([S[t - 1][i]] if i < t - 1 else [])
            m.AddBoolOr(held).OnlyEnforceIf(S[t][i])
    for i in range(n):
        m.Add(S[n][i] == 0)
    if backward_once:
        for i in range(n):
            if nodes[i].get("backward"):
                for t in range(i + 1, n):
                    m.Add(R[t][i] == 0)
    for t in range(n):  # memory after each node of stage t, before frees
        used = sum(size[i] * S[t][i] for i in range(t))
        for k in range(t + 1):
            used = used + size[k] * R[t][k]
            m.Add(used <= peak)
            freed = []
            for i in set(preds[k] + [k]):
                f = m.NewBoolVar("")
                later = [R[t][j] for j in users[i] if k < j <= t]
                kept = [S[t + 1][i]] if i < t + 1 else []
                conds = [R[t][k]] + [x.Not() for x in later + kept]
                m.AddBoolAnd(conds).OnlyEnforceIf(f)
                m.AddBoolOr([c.Not() for c in conds]).OnlyEnforceIf(f.Not())
                freed.append(size[i] * f)
            used = used - sum(freed)
    m.Minimize(peak)
    # The hint: our schedule cut into stages at first executions.
    by_name = {node["name"]: k for k, node in enumerate(nodes)}
    stage, done, ran = 0, set(), [set() for _ in range(n)]
    for name in hint:
        k = by_name[name]
        if stage < n:
            ran[stage].add(k)
        if k not in done:
            done.add(k)
            stage += 1
    for t in range(n):
        for i in range(t + 1):
            m.AddHint(R[t][i], i in ran[t])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    t0 = time.perf_counter()
    status = solver.Solve(m)
    wall = time.perf_counter() - t0
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, solver.StatusName(status), wall
    schedule = [nodes[i]["name"] for t in range(n) for i in range(t + 1)
                if solver.Value(R[t][i])]
    return schedule, solver.StatusName(status), wall


def measure(build, path, seconds, workers, tmp):
    name = os.path.splitext(os.path.basename(path))[0]
    with open(path) as f:
        graph = json.load(f)
    first, _ = sched(build, path, "--budget=1")
    least = first["least_feasible_bytes"]
    ours, _ = sched(build, path, "--budget=%d" % least, "--schedule")
    row = {"graph": name, "ops": first["ops"], "least": least,
           "store_all_cost": first["store_all"]["cost"], "ours_cost": ours["cost"]}
    for once in (False, True):
        key = "once_" if once else ""
        schedule, status, wall = least_peak(graph, ours["schedule"], seconds, workers, once)
        row.update({key + "status": status, key + "wall": wall})
        if schedule is not None:
            replay_file = os.path.join(tmp, name + (".once" if once else "") + ".cpsat.json")
            with open(replay_file, "w") as f:
                json.dump({"schedule": schedule}, f)
            replayed, _ = sched(build, path, "--budget=%d" % least, "--replay=" + replay_file)
            row.update({key + "peak": replayed["replay"]["peak"],
                        key + "cost": replayed["replay"]["cost"]})
    return row


def cells(r, key):
    """The replayed peak, how far under our least, the overhead and status."""
    if key + "peak" not in r:
        return "none found (%s)" % r[key + "status"].lower(), "-", "-"
    peak, under = r[key + "peak"], r["least"] - r[key + "peak"]
    gap = "%.2f MiB (%.1f%%)" % (under / MIB, 100.0 * under / r["least"]) if under > 0 else "no"
    return ("%.2f MiB (%s)" % (peak / MIB, r[key + "status"].lower()), gap,
            "%.0f%%" % (100.0 * (r[key + "cost"] / r["store_all_cost"] - 1)))


def format_table(rows, seconds, workers):
    out = ["| graph | ops | our least budget (overhead) | CP-SAT's lowest peak | under ours "
           "| its overhead | the same, backward nodes once | under ours | its overhead |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| %s | %d | %.2f MiB (%.0f%%) | %s | %s | %s | %s | %s | %s |" % (
            (r["graph"], r["ops"], r["least"] / MIB,
             100.0 * (r["ours_cost"] / r["store_all_cost"] - 1))
            + cells(r, "") + cells(r, "once_")))
    below = sum(1 for r in rows if r.get("peak", r["least"]) < r["least"])
    once = sum(1 for r in rows if r.get("once_peak", r["least"]) < r["least"])
    out.append("")
    out.append("CP-SAT %g s per graph and model, %d workers, from our schedule at our least "
               "budget; peaks are CP-SAT's schedules replayed by `ckpt-sched --as-imported "
               "--replay`, overheads the extra cost over store-all's. It found a schedule "
               "under our least budget on %d of %d graphs; %d with every backward node "
               "run once." % (seconds, workers, below, len(rows), once))
    return "\n".join(out)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_graph_arguments(a)
    a.add_argument("--seconds", type=float, default=45, help="CP-SAT's seconds per graph")
    a.add_argument("--workers", type=int, default=2, help="CP-SAT's threads")
    a.add_argument("--doc", help="write the table into this Markdown file "
                                 "(block least-peak-cpsat)")
    args = a.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for graph in graph_paths(tmp, args.families, args.only):
            row = measure(args.build, graph, args.seconds, args.workers, tmp)
            rows.append(row)
            print("%-16s least %d  cp-sat %s (%s), backward once %s (%s)" % (
                row["graph"], row["least"], row.get("peak", "-"), row["status"],
                row.get("once_peak", "-"), row["once_status"]), flush=True)
    table = format_table(rows, args.seconds, args.workers)
    print(table)
    if args.doc:
        try:
            replace_block(args.doc, "least-peak-cpsat", table)
        except Failure as e:
            sys.exit(str(e))
    return 1 if any(r.get("peak", r["least"]) < r["least"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
