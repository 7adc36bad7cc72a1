#!/usr/bin/env python3
"""The joint planner against the ILP with paging, on the generated families.

For every graph of the generated families (`python -m ckpt.graph_families`,
the seeds given; every graph of at most --max-ops ops), over a link that
copies the forward's bytes in the forward's time (the "balanced" link:
bytes per cost unit = forward bytes / forward cost; with --slow also one a
quarter as fast), at budgets of FRACTIONS of the store-all peak, this runs

  - the joint planner: `ckpt-sched --offload-link=BW --budget=F%` (strategy
    optimal: recomputation and offloading together, OffloadPlanner.h);
  - the ILP with paging: the same with `--strategy=ilp --time-limit=T`
    (Checkmate's MILP with POET's paging variables, CBC; Ilp.h), its own
    outcome in `offload.ilp`: status, the program's time of its plan, its
    proven lower bound, and the same plan's time with copies overlapping.

The table gives both plans' overheads over the store-all cost and how far
the joint planner's time is from the ILP's proven optimum (its program's
time; the program's stages are synchronous, so the joint planner may be
below it) or, where none is proven, from its lower bound. ILP results are
cached in --cache (the joint planner's plans are made again on every run);
--fresh ignores the cache.

    .venv/bin/python bench/offload_ilp.py --seeds 101 102 --doc docs/BENCHMARKS.md

Exit status 1 when the joint planner is refused where the ILP plans, when
a plan's device peak exceeds the budget, or (with --check) when the joint
planner's time is more than 1% above a proven optimum.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

from offload_steps import cpu_name  # the same CPU line as the other offload tables

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRACTIONS = (0.8, 0.6, 0.4)


def sched(build, graph, budget, link, extra, timeout):
    cmd = [os.path.join(build, "bin", "ckpt-sched"), graph, f"--budget={budget}",
           f"--offload-link={link}", "--compact"] + extra
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode not in (0, 2):
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def balanced_link(path):
    with open(path) as f:
        nodes = json.load(f)["nodes"]
    forward = [n for n in nodes if not n["backward"]]
    return sum(n["cost_ram"] for n in forward) / sum(n["cost_cpu"] for n in forward)


def measure_ilp(a, graph, fraction, link):
    """The ILP with paging's outcome (cached: it takes minutes)."""
    budget = f"{round(100 * fraction)}%"
    ilp = sched(a.build, graph, budget, f"{link:.6g}",
                ["--strategy=ilp", f"--time-limit={a.time_limit:g}"],
                3 * a.time_limit + 120)
    row = {"graph": os.path.basename(graph)[:-5], "ops": ilp["ops"],
           "fraction": fraction, "link": float(f"{link:.6g}"), "budget": ilp["budget"],
           "store_all_cost": ilp["store_all"]["cost"], "time_limit": a.time_limit}
    p = ilp["offload"].get("ilp", {})
    row["ilp_status"] = p.get("status", "none")
    for key in ("cost", "program_time", "lower_bound", "transfers", "device_peak", "seconds"):
        row["ilp_" + key] = p.get(key)
    return row


def measure_joint(a, graph, row):
    """The joint planner's plan at the row's budget (rerun every time)."""
    joint = sched(a.build, graph, str(row["budget"]), f"{row['link']:.6g}", [], 600)
    row["recompute"] = joint["cost"] if joint["feasible"] else None
    o = joint["offload"]
    row["joint"] = o["cost"] if o["feasible"] else None
    row["joint_peak"] = o.get("device_peak")
    row["joint_transfers"] = o.get("transfers")
    return row


def check(row, failures):
    where = f"{row['graph']} at {row['fraction']}"
    if row["joint"] is None and row["ilp_cost"] is not None:
        failures.append(f"{where}: the joint planner is refused where the ILP plans")
    for peak in ("joint_peak", "ilp_device_peak"):
        if row.get(peak) is not None and row[peak] > row["budget"]:
            failures.append(f"{where}: {peak} {row[peak]} over the budget {row['budget']}")


def gap(row):
    """(percent, proven) of the joint planner's time over the ILP's optimum
    or lower bound."""
    if row["joint"] is None or not row.get("ilp_lower_bound"):
        return None, False
    proven = row["ilp_status"] == "optimal"
    ref = row["ilp_program_time"] if proven else row["ilp_lower_bound"]
    return 100 * (row["joint"] - ref) / ref, proven


def pct(value, base):
    return "—" if value is None else f"{100 * (value - base) / base:.2f}%"


def format_table(rows):
    lines = ["| graph | ops | budget | recompute only | joint planner (copies) | "
             "ILP: status | ILP: program time | ILP: its plan (copies) | "
             "joint vs ILP |",
             "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    for r in rows:
        base = r["store_all_cost"]
        g, proven = gap(r)
        if g is None:
            versus = "—"
        else:
            versus = f"{g:+.2f}%" + ("" if proven else " (bound)")
        ilp_plan = ("—" if r["ilp_cost"] is None
                    else f"{pct(r['ilp_cost'], base)} ({r['ilp_transfers']})")
        joint = ("—" if r["joint"] is None
                 else f"{pct(r['joint'], base)} ({r['joint_transfers']})")
        program = "—" if r["ilp_program_time"] is None else pct(r["ilp_program_time"], base)
        lines.append(f"| {r['graph']} | {r['ops']} | {r['fraction']:.1f} | "
                     f"{pct(r['recompute'], base)} | {joint} | {r['ilp_status']} | "
                     f"{program} | {ilp_plan} | {versus} |")
    return "\n".join(lines)


def summary(rows):
    proven = [gap(r)[0] for r in rows if gap(r)[1]]
    within = sum(1 for g in proven if g <= 1.0)
    equal = sum(1 for g in proven if abs(g) <= 1e-6)
    below = sum(1 for g in proven if g < -1e-6)
    bounded = [gap(r)[0] for r in rows if not gap(r)[1] and gap(r)[0] is not None]
    near = sum(1 for g in bounded if g <= 1.0)
    return (f"{len(rows)} plans. The ILP proves {len(proven)} optima; the joint planner "
            f"is within 1% of {within} of them (equal at {equal}, below at {below}). "
            f"Where CBC proves none in its time ({len(bounded)} plans), the joint "
            f"planner is within 1% of CBC's lower bound at {near}.")


def provenance(a, rows):
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    limits = sorted({r["time_limit"] for r in rows})
    seeds = " ".join(str(s) for s in a.seeds)
    return (f"Joint plans made on {cpu_name()} at commit {commit}; the ILP's "
            f"results (CBC, {'/'.join(f'{t:g}' for t in limits)} s each, cached in "
            f"bench/results/offload_ilp.json) with the same command: "
            f"`.venv/bin/python bench/offload_ilp.py --seeds {seeds} "
            f"--time-limit {a.time_limit:g} --doc docs/BENCHMARKS.md`.")


def write_doc(path, block, text):
    begin, end = f"<!-- BEGIN {block} -->", f"<!-- END {block} -->"
    with open(path) as f:
        doc = f.read()
    if begin not in doc:
        raise SystemExit(f"{path} has no {begin} marker")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--seeds", nargs="+", type=int, default=[101, 102])
    a.add_argument("--max-ops", type=int, default=100)
    a.add_argument("--build", default=os.path.join(ROOT, "build"))
    a.add_argument("--time-limit", type=float, default=60, help="CBC's seconds per plan")
    a.add_argument("--slow", action="store_true", help="also a link a quarter as fast")
    a.add_argument("--only", help="only graphs whose name contains this")
    a.add_argument("--cache", default=os.path.join(ROOT, "bench", "results", "offload_ilp.json"))
    a.add_argument("--fresh", action="store_true")
    a.add_argument("--doc", help="write the table into this Markdown file")
    a.add_argument("--block", default="offload-ilp")
    a.add_argument("--check", action="store_true")
    a = a.parse_args(argv)
    cache = {}
    if os.path.exists(a.cache) and not a.fresh:
        with open(a.cache) as f:
            cache = {(r["graph"], r["fraction"], r["link"]): r for r in json.load(f)}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "ckpt.graph_families", "--out", tmp, "--seeds"]
                       + [str(s) for s in a.seeds], check=True, capture_output=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
        rows, failures = [], []
        for graph in sorted(glob.glob(os.path.join(tmp, "*.json"))):
            with open(graph) as f:
                if len(json.load(f)["nodes"]) > a.max_ops:
                    continue
            if a.only and a.only not in os.path.basename(graph):
                continue
            links = [balanced_link(graph)]
            if a.slow:
                links.append(links[0] / 4)
            for link in links:
                for fraction in FRACTIONS:
                    key = (os.path.basename(graph)[:-5], fraction, float(f"{link:.6g}"))
                    row = cache.get(key) or measure_ilp(a, graph, fraction, link)
                    row = measure_joint(a, graph, row)
                    cache[key] = row
                    check(row, failures)
                    rows.append(row)
                    print(format_table([row]).splitlines()[-1], flush=True)
                    os.makedirs(os.path.dirname(a.cache), exist_ok=True)
                    with open(a.cache, "w") as f:
                        json.dump(sorted(cache.values(), key=lambda r: (r["graph"], r["link"],
                                                                       -r["fraction"])),
                                  f, indent=1)
    text = provenance(a, rows) + "\n\n" + format_table(rows) + "\n\n" + summary(rows)
    print(text)
    if a.doc:
        write_doc(a.doc, a.block, text)
    if a.check:
        for r in rows:
            g, proven = gap(r)
            if proven and g > 1.0:
                failures.append(f"{r['graph']} at {r['fraction']}: the joint planner "
                                f"is {g:.2f}% above the ILP's optimum")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
