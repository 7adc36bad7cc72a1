#!/usr/bin/env python3
"""`optimal` against every other strategy, on the models of the rotor experiment.

    PYTHONPATH=build/python .venv/bin/python bench/strategy_sweep.py \
        [--ckpt-opt build/bin/ckpt-opt] [--inputs DIR] [--json OUT.json] \
        [--before BEFORE.json] [--doc docs/BENCHMARKS.md] [--quick] [SOURCE ...]

SOURCEs are those of `python -m ckpt.experiments` (zoo:, torch:, graph:,
PATH.mlir); without any, its default set (five zoo steps, seven torchvision
models at batch 8, the seven Checkmate graphs). Each is imported once into
DIR (default /tmp/ckpt-sweep) and reused on later runs.

Everything is planned by the `ckpt-opt` given (as a separate process), in
the simulation's memory model (fit=simulation, h100 costs, 500 slots),
budgets as percentages of the step's simulated store-all peak:

- least: for every strategy, the least feasible budget it names when
  planned at 1 byte (`optimal`, `articulation`, `speed`, `store-all`,
  `periodic:2..4`, `sqrt`, `revolve`, `memory-poor`);
- at 100%, 90%, ..., 10% where `optimal` fits: `optimal`'s plan and
  `ckpt-report`'s baselines at the same budget (store-all, periodic:2..4,
  sqrt, revolve, memory-poor), plus `articulation` and `speed` planned
  alone. The overhead of a plan is its predicted time over the store-all
  time of the step, minus 1.

A violation is a budget where another strategy fits and is faster than
`optimal` (by more than 1e-9 relative), or a strategy whose least feasible
budget is below `optimal`'s. The script exits 1 on any violation.

--cached RESULTS.json renders the table of an earlier run's --json without
planning anything. --quick plans only `optimal` at 1 byte and at 50% (what an older ckpt-opt
is asked for the "before" column, with --json); --before BEFORE.json adds
its least budget and 50% overhead beside this run's in the table. --doc
replaces the block between `<!-- sweep:begin -->` and `<!-- sweep:end -->`.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from ckpt import remat  # the built package: PYTHONPATH=build/python

BASELINES = ["store-all", "periodic:2", "periodic:3", "periodic:4", "sqrt",
             "revolve", "memory-poor"]
ALONE = ["articulation", "speed"]
PERCENTS = list(range(100, 0, -10))
def plan(ckpt_opt, path, budget, strategy="optimal", report=None):
    """Plans `path` with `ckpt-opt`; returns (plan dict, seconds) or raises
    remat.Infeasible. `budget` is a ckpt-plan budget string. The plan dict
    is read from ckpt-report's JSON: the whole report goes to `report` when
    given, else only the plan's numbers to a temporary file."""
    opts = f"budget={budget} strategy={strategy}"
    with tempfile.TemporaryDirectory() as tmp:
        out = report or os.path.join(tmp, "report.json")
        cmd = [ckpt_opt, path, "--ckpt-wrap-step", f"--ckpt-plan={opts}",
               f"--ckpt-report=output={out}" if report else remat.report_flag(out),
               "-o", os.devnull]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            m = remat.LEAST_FEASIBLE.search(proc.stderr)
            if "infeasible" in proc.stderr:
                raise remat.Infeasible(int(m.group(1)) if m else None, proc.stderr.strip())
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[:2000]}")
        try:
            return remat.plan_numbers(remat.read_report(out)), seconds
        except remat.Failure as e:
            raise SystemExit(f"{' '.join(cmd)}: {e}")


def overhead(p):
    return 100.0 * (p["time"] / p["store_all_time"] - 1.0)


def least_of(ckpt_opt, path, strategy):
    try:
        plan(ckpt_opt, path, "1", strategy)
    except remat.Infeasible as e:
        return e.least
    return 1


def import_sources(sources, inputs):
    """Writes each source's step to inputs/<name>.mlir (once); returns
    [(name, path)]."""
    from ckpt import experiments  # the built package: PYTHONPATH=build/python
    os.makedirs(inputs, exist_ok=True)
    index_path = os.path.join(inputs, "index.json")
    index = json.load(open(index_path)) if os.path.exists(index_path) else {}
    out = []
    for source in sources:
        if source not in index or not os.path.exists(index[source]):
            name, text, _ = experiments.load_source(source)
            path = os.path.join(inputs, name + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            index[source] = path
            json.dump(index, open(index_path, "w"), indent=1)
        path = index[source]
        out.append((os.path.splitext(os.path.basename(path))[0], path))
    return out


def sweep(ckpt_opt, name, path, quick):
    result = {"model": name}
    least = least_of(ckpt_opt, path, "optimal")
    result["least"] = {"optimal": least}
    full, seconds = plan(ckpt_opt, path, "100%")
    store_all = full["store_all_peak"]
    result["store_all_peak"] = store_all
    try:
        p, seconds = plan(ckpt_opt, path, "50%")
        result["overhead_50"] = overhead(p)
        result["plan_seconds_50"] = seconds
    except remat.Infeasible:
        result["overhead_50"] = None
    if quick:
        return result
    for s in ALONE + BASELINES:
        result["least"][s] = least_of(ckpt_opt, path, s)
    violations = [f"{s}: least {result['least'][s]} B < optimal's {least} B"
                  for s in ALONE + BASELINES
                  if result["least"][s] is not None and least is not None
                  and result["least"][s] < least]
    rows = []
    slowest = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        for pct in PERCENTS:
            try:
                p, seconds = plan(ckpt_opt, path, f"{pct}%", report=report)
            except remat.Infeasible:
                continue
            slowest = max(slowest, seconds)
            data = json.load(open(report))[0]
            row = {"percent": pct, "budget": p["budget"], "optimal": overhead(p),
                   "peak": p["peak"], "others": {}}
            if p["peak"] > p["budget"]:
                violations.append(f"{pct}%: optimal's peak {p['peak']} B over the budget")
            for s in BASELINES:
                b = data["baselines"][s]
                if b.get("feasible"):
                    row["others"][s] = b["overhead_percent"]
            for s in ALONE:
                try:
                    q, _ = plan(ckpt_opt, path, f"{pct}%", s)
                    row["others"][s] = overhead(q)
                except remat.Infeasible:
                    pass
            for s, o in row["others"].items():
                if (100 + o) < (100 + row["optimal"]) * (1 - 1e-9):
                    violations.append(f"{pct}%: {s} +{o:.3f}% < optimal +{row['optimal']:.3f}%")
            rows.append(row)
    result["rows"] = rows
    result["violations"] = violations
    result["slowest_plan_seconds"] = slowest
    return result


def _mib(b):
    return "-" if b is None else f"{b / 2**20:.1f}"


def _pct(b, whole):
    return "-" if b is None else f"{100.0 * b / whole:.0f}%"


def _ovh(o):
    return "refused" if o is None else f"{o:.2f}%"


def _secs(s):
    return "-" if s is None else f"{s:.2f} s"


def table(results, before):
    before = {r["model"]: r for r in before}
    lines = ["| model | store-all MiB | least MiB before | least MiB after | at 50% before "
             "| at 50% after | budgets compared | best other at 50% | violations | plan at 50% |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        b = before.get(r["model"], {})
        whole = r["store_all_peak"]
        at50 = next((row for row in r.get("rows", []) if row["percent"] == 50), None)
        best = "-"
        if at50 and at50["others"]:
            s, o = min(at50["others"].items(), key=lambda kv: kv[1])
            best = f"{s} {o:.2f}%"
        lb = b.get("least", {}).get("optimal")
        lines.append(
            f"| {r['model']} | {_mib(whole)} | "
            f"{_mib(lb)} ({_pct(lb, whole)}) | "
            f"{_mib(r['least']['optimal'])} ({_pct(r['least']['optimal'], whole)}) | "
            f"{_ovh(b.get('overhead_50')) if b else '-'} | {_ovh(r['overhead_50'])} | "
            f"{len(r.get('rows', []))} | {best} | {len(r.get('violations', []))} | "
            f"{_secs(r.get('plan_seconds_50'))} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sources", nargs="*")
    ap.add_argument("--ckpt-opt", default="build/bin/ckpt-opt")
    ap.add_argument("--inputs", default=os.path.join(tempfile.gettempdir(), "ckpt-sweep"))
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--before", help="results of an older ckpt-opt (--quick --json)")
    ap.add_argument("--doc", help="markdown file whose sweep block is replaced")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--quiet", action="store_true",
                    help="no progress line on stderr (drawn only when stderr is a terminal)")
    ap.add_argument("--cached", metavar="RESULTS.json",
                    help="render the table of an earlier run (its --json) instead of running")
    args = ap.parse_args(argv)
    from ckpt import experiments, progress
    sources = args.sources or experiments.DEFAULT_SOURCES
    results = json.load(open(args.cached)) if args.cached else []
    models = [] if args.cached else import_sources(sources, args.inputs)
    line = progress.Line(len(models), "strategy_sweep", quiet=args.quiet)
    for name, path in models:
        line.step(name)
        r = sweep(args.ckpt_opt, name, path, args.quick)
        results.append(r)
        print(f"{name}: least {r['least']['optimal']} B, 50% {_ovh(r['overhead_50'])}, "
              f"violations {len(r.get('violations', []))}", file=sys.stderr, flush=True)
        for v in r.get("violations", []):
            print(f"  VIOLATION {v}", file=sys.stderr)
        if args.json:
            json.dump(results, open(args.json, "w"), indent=1)
    line.close()
    if args.quick:
        return 0
    before = json.load(open(args.before)) if args.before else []
    text = table(results, before)
    if args.doc:
        try:
            remat.replace_block(args.doc, "sweep", text)
        except remat.Failure as e:
            raise SystemExit(str(e))
    else:
        print(text)
    return 1 if any(r.get("violations") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
