#!/usr/bin/env python3
"""Plans each graph at each budget with `optimal` and with `ilp` (ckpt-sched)
and checks, independently of the planner's own simulator:

  - the schedule `optimal` prints is valid (each node runs after the values
    it reads were computed) and its peak, simulated here in the standard
    memory model, equals the peak it reports and is within the budget;
  - where `ilp` proves its schedule optimal, `optimal`'s cost is within 1%
    of it; `optimal` is never refused where `ilp` finds a schedule.

Prints one line per graph and budget: `GRAPH PCT% optimal COST ilp STATUS
COST: ok` or `... FAIL why`.

usage: check_vs_ilp.py CKPT_SCHED GRAPH.json... --budgets 90,70,50
"""

import json
import subprocess
import sys


def simulate(graph, names):
    """Peak of a schedule (node names in order): each execution allocates
    its node's output; a version is freed after its last reader, or kept to
    the end when its node is a sink. Inputs are outside the budget."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    by_name = {n["name"]: n["id"] for n in graph["nodes"]}
    preds = {v: [] for v in nodes}
    succs = {v: [] for v in nodes}
    for link in graph["links"]:
        preds[link["target"]].append(link["source"])
        succs[link["source"]].append(link["target"])
    steps = [by_name[name] for name in names]
    latest = {}            # node -> index of its current version
    versions = []          # (node, defined at, last read)
    for e, v in enumerate(steps):
        for u in preds[v]:
            if nodes[u].get("input"):
                continue
            if u not in latest:
                raise ValueError("%s runs before %s is computed" % (nodes[v]["name"],
                                                                    nodes[u]["name"]))
            versions[latest[u]][2] = e
        latest[v] = len(versions)
        versions.append([v, e, e])
    for v, y in latest.items():
        if not succs[v]:
            versions[y][2] = len(steps)  # a result of the step: kept
    missing = [nodes[v]["name"] for v in nodes
               if not nodes[v].get("input") and v not in latest]
    if missing:
        raise ValueError("never computed: " + ", ".join(missing))
    peak = 0
    for e in range(len(steps)):
        live = sum(nodes[v]["cost_ram"] for v, d, last in versions if d <= e <= last)
        peak = max(peak, live)
    cost = sum(nodes[v]["cost_cpu"] for v in steps)
    return peak, cost


def sched(tool, path, budget, strategy, *extra):
    p = subprocess.run([tool, path, "--budget=%d" % budget, "--strategy=" + strategy,
                        "--compact", *extra], capture_output=True, text=True)
    if p.returncode not in (0, 2):
        raise RuntimeError(p.stderr)
    return json.loads(p.stdout)


def main(argv):
    tool = argv[1]
    budgets = [90, 70, 50]
    paths = []
    i = 2
    while i < len(argv):
        if argv[i] == "--budgets":
            budgets = [int(x) for x in argv[i + 1].split(",")]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    failed = False
    for path in paths:
        with open(path) as f:
            graph = json.load(f)
        base = sched(tool, path, 1 << 60, "store-all")
        peak0 = base["store_all"]["peak"]
        for pct in budgets:
            budget = peak0 * pct // 100
            ours = sched(tool, path, budget, "optimal", "--schedule")
            exact = sched(tool, path, budget, "ilp", "--time-limit=60")
            problems = []
            if ours["feasible"]:
                peak, cost = simulate(graph, ours["schedule"])
                if peak != ours["peak"]:
                    problems.append("simulated peak %d != reported %d" % (peak, ours["peak"]))
                if peak > budget:
                    problems.append("peak %d over the budget %d" % (peak, budget))
                if abs(cost - ours["cost"]) > 1e-9 * max(cost, 1):
                    problems.append("cost %g != reported %g" % (cost, ours["cost"]))
            status = exact.get("ilp", {}).get("status", "?")
            if exact["feasible"] and not ours["feasible"]:
                problems.append("refused where ilp finds a schedule")
            if exact["feasible"] and status == "optimal" and ours["feasible"] and \
                    ours["cost"] > 1.01 * exact["cost"]:
                problems.append("cost %g over 1.01 x the optimum %g" % (ours["cost"], exact["cost"]))
            print("%s %d%% optimal %s ilp %s %s: %s" % (
                graph["graph"]["name"], pct,
                "%g" % ours["cost"] if ours["feasible"] else "infeasible",
                status, "%g" % exact["cost"] if exact["feasible"] else "-",
                "ok" if not problems else "FAIL " + "; ".join(problems)))
            failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
