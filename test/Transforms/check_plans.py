#!/usr/bin/env python3
"""Checks ckpt-plan and ckpt-report on a training step at several budgets.

For each budget (a percentage of the store-all peak):
  - if the plan is feasible: its predicted peak is within the budget, and no
    baseline strategy that fits the same budget is predicted to be faster;
  - if it is infeasible: the error names the least feasible budget N, a plan
    at N succeeds, a plan at N - 1 fails, and no baseline fits N - 1 either.
Prints one line per budget; exits non-zero on the first violation.
Usage: check_plans.py STEP.mlir PERCENT...
"""
import json
import re
import subprocess
import sys
import tempfile

WRAP = ["--ckpt-wrap-step"]


def plan(step, budget, report):
    args = ["ckpt-opt", step, *WRAP, f"--ckpt-plan=budget={budget}"]
    if report:
        args.append(f"--ckpt-report=output={report}")
    args += ["-o", "/dev/null"]
    return subprocess.run(args, capture_output=True, text=True)


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def check_feasible(step, label, report_path):
    with open(report_path) as f:
        entry = json.load(f)[0]
    budget = entry["budget_bytes"]
    chosen = entry["plan"]
    if not chosen["feasible"] or chosen["peak_bytes"] > budget:
        fail(f"{step} {label}: plan peak {chosen.get('peak_bytes')} over budget {budget}")
    for name, base in entry["baselines"].items():
        if base.get("feasible"):
            if base["peak_bytes"] > budget:
                fail(f"{step} {label}: {name} claims to fit but peaks at {base['peak_bytes']}")
            if chosen["time_s"] > base["time_s"] * (1 + 1e-9):
                fail(f"{step} {label}: optimal {chosen['time_s']} slower than {name} {base['time_s']}")
    return entry


def main():
    step, percents = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        report = f"{tmp}/report.json"
        for percent in percents:
            label = f"{percent}%"
            run = plan(step, label, report)
            if run.returncode == 0:
                entry = check_feasible(step, label, report)
                print(f"OK {label} feasible peak={entry['plan']['peak_bytes']} "
                      f"budget={entry['budget_bytes']} overhead={entry['plan']['overhead_percent']:.1f}%")
                continue
            match = re.search(r"infeasible for strategy 'optimal': the least feasible budget is (\d+) B",
                              run.stderr)
            if not match:
                fail(f"{step} {label}: unexpected failure:\n{run.stderr}")
            least = int(match.group(1))
            if plan(step, least, report).returncode != 0:
                fail(f"{step} {label}: the least feasible budget {least} is infeasible")
            check_feasible(step, f"{least}B", report)
            if plan(step, least - 1, None).returncode == 0:
                fail(f"{step} {label}: {least - 1} B is feasible, so {least} is not the least")
            print(f"OK {label} infeasible least={least}")
    print("PASS")


if __name__ == "__main__":
    main()
