#!/usr/bin/env python3
"""End-to-end check of rematerialization on one training step.

For each budget (a percentage of the planner's store-all peak): plan the step,
rewrite it (recompute regions, frees), lower it to the CPU and run it with
ckpt-run, and check that
  - its outputs are bit-identical to the unplanned step's (same SHA-256),
  - its measured peak of live buffers is at most the budget,
  - the predicted peak (the memory simulation of the rewritten step, as
    ckpt-print-analysis reports it) is within 5% of the measured one.
An infeasible budget must be reported with the least feasible budget.
Also prints the measured peak of the unplanned step with ckpt's frees and
with upstream's ownership-based deallocation, for comparison.
Usage: check_remat.py STEP.mlir ENTRY PERCENT...
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def run(args, check=True):
    result = subprocess.run(args, capture_output=True, text=True)
    if check and result.returncode != 0:
        print(f"FAIL command {' '.join(args)}:\n{result.stderr}")
        sys.exit(1)
    return result


def execute(mlir, entry, tmp, lower="--ckpt-lower-to-cpu"):
    lowered = os.path.join(tmp, "lowered.mlir")
    run(["ckpt-opt", mlir, lower, "-o", lowered])
    return json.loads(run(["ckpt-run", lowered, f"--entry={entry}", "--seed=7"]).stdout)


def main():
    step, entry, percents = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = os.path.join(tmp, "wrapped.mlir")
        run(["ckpt-opt", step, "--ckpt-wrap-step", "-o", wrapped])
        base = execute(wrapped, entry, tmp)
        upstream = execute(wrapped, entry, tmp, "--ckpt-lower-to-cpu=dealloc=upstream")
        if upstream["outputs_sha256"] != base["outputs_sha256"]:
            print("FAIL upstream deallocation changed the outputs")
            sys.exit(1)
        print(f"BASE peak={base['peak_bytes']} upstream_dealloc_peak={upstream['peak_bytes']} "
              f"leaked={base['leaked_bytes']}")
        for percent in percents:
            planned = os.path.join(tmp, "planned.mlir")
            plan = run(["ckpt-opt", wrapped, f"--ckpt-plan=budget={percent}%", "-o", planned],
                       check=False)
            if plan.returncode != 0:
                least = re.search(r"the least feasible budget is .*?(\d+) B\)?$", plan.stderr, re.M)
                if not least:
                    print(f"FAIL {percent}%: {plan.stderr}")
                    sys.exit(1)
                print(f"OK {percent}% infeasible least={least.group(1)}")
                continue
            budget = int(re.search(r"ckpt.plan = #ckpt.plan<[^>]*?budget = (\d+)",
                                   open(planned).read()).group(1))
            rewritten = os.path.join(tmp, "rewritten.mlir")
            run(["ckpt-opt", planned, "--ckpt-rematerialize", "--ckpt-insert-frees",
                 "-o", rewritten])
            remarks = run(["ckpt-opt", rewritten, "--ckpt-print-analysis", "-o", os.devnull]).stderr
            predicted = int(re.findall(r"forward ops: .*peak (\d+) B at", remarks)[-1])
            measured = execute(rewritten, entry, tmp)
            if measured["outputs_sha256"] != base["outputs_sha256"]:
                fail = "outputs differ from the unplanned step"
            elif measured["leaked_bytes"] != 0:
                fail = f"leaks {measured['leaked_bytes']} B"
            elif measured["peak_bytes"] > budget:
                fail = f"measured peak {measured['peak_bytes']} over budget {budget}"
            elif abs(predicted - measured["peak_bytes"]) > 0.05 * measured["peak_bytes"]:
                fail = f"predicted {predicted} vs measured {measured['peak_bytes']}"
            else:
                fail = None
            line = (f"{percent}% budget={budget} predicted={predicted} "
                    f"measured={measured['peak_bytes']} base={base['peak_bytes']}")
            if fail:
                print(f"FAIL {line}: {fail}")
                sys.exit(1)
            print(f"OK {line} identical")
    print("PASS")


if __name__ == "__main__":
    main()
