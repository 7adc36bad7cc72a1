#!/usr/bin/env python3
"""Predicted against measured peak and time of rematerialized steps (CPU).

    PATH=build/bin:$PATH .venv/bin/python bench/remat_table.py STEP.mlir ENTRY PERCENT... [--repeat N]

For each budget (a percentage of the step's store-all peak): ckpt-plan with
device=cpu (fit=simulation, optimal), ckpt-rematerialize, ckpt-insert-frees,
ckpt-lower-to-cpu, then ckpt-run --repeat=N --opt-level=2 (times of optimized code). Prints one markdown row per
budget: the budget, the predicted peak (memory simulation of the rewritten
step) and the measured one, the predicted time overhead over store-all
(the plan's `time` against its `store_all_time`) and the measured one
(median wall time against the unplanned step's). Outputs must be
bit-identical to the unplanned step's; the script stops otherwise.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from ckpt import remat  # noqa: E402  (the source tree: no build needed)


def main():
    args = sys.argv[1:]
    repeat = 10
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    step, entry, percents = args[0], args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = remat.wrap(step, tmp)
        base = remat.execute(wrapped, entry, tmp, repeat=repeat, opt_level=2)
        print("| budget | predicted peak | measured peak | predicted time overhead "
              "| measured wall (median) | measured overhead |")
        print("| --- | --- | --- | --- | --- | --- |")
        for pct in percents:
            try:
                planned, _, numbers = remat.plan(wrapped, f"{pct}%", tmp, "device=cpu")
            except remat.Infeasible as e:
                print(f"| {pct}% | infeasible: least {e.least} B | | | | |")
                continue
            budget, t, t0 = numbers["budget"], numbers["time"], numbers["store_all_time"]
            rewritten, predicted = remat.rewrite(planned, tmp)
            m = remat.execute(rewritten, entry, tmp, repeat=repeat, opt_level=2)
            if m["outputs_sha256"] != base["outputs_sha256"] or m["leaked_bytes"]:
                raise SystemExit(f"{pct}%: outputs differ or leak")
            print(f"| {pct}% = {budget} | {predicted} | {m['peak_bytes']} | "
                  f"{100 * (t / t0 - 1):+.1f}% | {m['wall_ms']:.2f} ms | "
                  f"{100 * (m['wall_ms'] / base['wall_ms'] - 1):+.1f}% |")
        print(f"\nunplanned: peak {base['peak_bytes']} B, wall (median of {repeat}) "
              f"{base['wall_ms']:.2f} ms")


if __name__ == "__main__":
    main()
