#!/usr/bin/env python3
"""Plans each graph at each budget with `optimal` and with `ilp` (ckpt-sched)
and checks, independently of the planner's own simulator:

  - the schedule `optimal` prints is valid (each node runs after the values
    it reads were computed) and its peak, simulated here in the standard
    memory model, equals the peak it reports and is within the budget;
  - where `ilp` proves its schedule optimal, `optimal`'s cost is within 1%
    of it; `optimal` is never refused where `ilp` finds a schedule;
  - `ilp`'s plan never costs more than `optimal`'s (it is `optimal`'s where
    that is cheaper than the program's schedule, whose cost is printed);
  - the ILP's claims hold: its optimum and bound are its program's (stage t
    runs op t after recomputing earlier ops in op order), so `optimal`'s
    schedule, put in that form (each stage's recomputations sorted by op,
    once each), must not fit the budget at a cost below a claimed optimum
    or below the ILP's lower bound.

The ILP runs with a node limit and no time limit (--node-limit, default
20000), so that its answers are the same on any machine and under load.

Prints one line per graph and budget: `GRAPH PCT% optimal COST ilp STATUS
COST: ok` or `... FAIL why`.

usage: check_vs_ilp.py CKPT_SCHED GRAPH.json... --budgets 90,70,50
                       [--node-limit N]
CKPT_SCHED may be a command with arguments (one string, split on spaces).
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


def program_form(graph, names):
    """`names` (a schedule) in the ILP program's form, or None when it has
    recomputations after the last first execution: each first execution
    preceded by the recomputations since the previous one, sorted by the
    nodes' order in the file and each once."""
    order = {n["name"]: i for i, n in enumerate(graph["nodes"])}
    seen, pending, out = set(), set(), []
    for name in names:
        if name in seen:
            pending.add(name)
            continue
        seen.add(name)
        out.extend(sorted(pending, key=order.get))
        pending.clear()
        out.append(name)
    return None if pending else out


def sched(tool, path, budget, strategy, *extra):
    p = subprocess.run(tool.split() + [path, "--budget=%d" % budget, "--strategy=" + strategy,
                        "--compact", *extra], capture_output=True, text=True)
    if p.returncode not in (0, 2):
        raise RuntimeError(p.stderr)
    return json.loads(p.stdout)


def main(argv):
    tool = argv[1]
    budgets = [90, 70, 50]
    nodes = 20000
    paths = []
    i = 2
    while i < len(argv):
        if argv[i] == "--budgets":
            budgets = [int(x) for x in argv[i + 1].split(",")]
            i += 2
        elif argv[i] == "--node-limit":
            nodes = int(argv[i + 1])
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
            exact = sched(tool, path, budget, "ilp", "--time-limit=0",
                          "--node-limit=%d" % nodes)
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
            bound = exact.get("ilp", {}).get("lower_bound")
            # The program's optimum: its own schedule's cost (the plan
            # `ilp` returns is `optimal`'s where that is cheaper).
            program = exact.get("ilp", {}).get("cost", exact.get("cost"))
            if exact["feasible"] and ours["feasible"] and \
                    exact["cost"] > ours["cost"] + 1e-9 * max(ours["cost"], 1):
                problems.append("ilp's plan costs %g, more than optimal's %g"
                                % (exact["cost"], ours["cost"]))
            if ours["feasible"] and exact["feasible"]:
                form = program_form(graph, ours["schedule"])
                if form is not None:
                    fpeak, fcost = simulate(graph, form)
                    if fpeak <= budget and status == "optimal" and \
                            fcost < program - 1e-9 * max(fcost, 1):
                        problems.append("ilp claims its program's optimum %g, but optimal's "
                                        "schedule in the program's form costs %g within "
                                        "the budget" % (program, fcost))
                    if fpeak <= budget and bound is not None and \
                            fcost < bound - 1e-9 * max(fcost, 1):
                        problems.append("ilp's lower bound %g is above a schedule of its "
                                        "program's form costing %g" % (bound, fcost))
            if exact["feasible"] and not ours["feasible"]:
                problems.append("refused where ilp finds a schedule")
            if exact["feasible"] and status == "optimal" and ours["feasible"] and \
                    ours["cost"] > 1.01 * program:
                problems.append("cost %g over 1.01 x the optimum %g" % (ours["cost"], program))
            print("%s %d%% optimal %s ilp %s %s: %s" % (
                graph["graph"]["name"], pct,
                "%g" % ours["cost"] if ours["feasible"] else "infeasible",
                status, "%g" % program if exact["feasible"] else "-",
                "ok" if not problems else "FAIL " + "; ".join(problems)))
            failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
