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
The steps themselves are python/ckpt/remat.py's (loaded by path: no built
Python package needed). Usage: check_remat.py STEP.mlir ENTRY PERCENT...
"""
import importlib.util
import os
import sys
import tempfile

_spec = importlib.util.spec_from_file_location("ckpt_remat", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "ckpt", "remat.py"))
remat = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(remat)


def main():
    step, entry, percents = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            wrapped = remat.wrap(step, tmp)
            base = remat.execute(wrapped, entry, tmp)
            upstream = remat.execute(wrapped, entry, tmp, "--ckpt-lower-to-cpu=dealloc=upstream")
        except remat.Failure as e:
            print(f"FAIL {e}")
            sys.exit(1)
        if upstream["outputs_sha256"] != base["outputs_sha256"]:
            print("FAIL upstream deallocation changed the outputs")
            sys.exit(1)
        print(f"BASE peak={base['peak_bytes']} upstream_dealloc_peak={upstream['peak_bytes']} "
              f"leaked={base['leaked_bytes']}")
        for percent in percents:
            line = f"{percent}%"
            try:
                planned, _, budget = remat.plan(wrapped, f"{percent}%", tmp)
                rewritten, predicted = remat.rewrite(planned, tmp)
                measured = remat.execute(rewritten, entry, tmp)
                line = (f"{percent}% budget={budget} predicted={predicted} "
                        f"measured={measured['peak_bytes']} base={base['peak_bytes']}")
                remat.check(base, measured, budget, predicted)
            except remat.Infeasible as e:
                print(f"OK {percent}% infeasible least={e.least}")
                continue
            except remat.Failure as e:
                print(f"FAIL {line}: {e}")
                sys.exit(1)
            print(f"OK {line} identical")
    print("PASS")


if __name__ == "__main__":
    main()
