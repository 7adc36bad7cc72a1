#!/usr/bin/env python3
"""Predicted against measured peak and time of rematerialized steps (CPU).

    PATH=build/bin:$PATH /usr/bin/python3 bench/remat_table.py STEP.mlir ENTRY PERCENT... [--repeat N]

For each budget (a percentage of the step's store-all peak): ckpt-plan with
device=cpu (fit=simulation, optimal), ckpt-rematerialize, ckpt-insert-frees,
ckpt-lower-to-cpu, then ckpt-run --repeat=N. Prints one markdown row per
budget: the budget, the predicted peak (memory simulation of the rewritten
step) and the measured one, the predicted time overhead over store-all
(the plan's `time` against its `store_all_time`) and the measured one
(median wall time against the unplanned step's). Outputs must be
bit-identical to the unplanned step's; the script stops otherwise.
"""
import json
import re
import subprocess
import sys
import tempfile


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"{' '.join(args)} failed:\n{p.stderr}")
    return p


def measure(mlir, entry, repeat, tmp):
    low = f"{tmp}/lowered.mlir"
    run(["ckpt-opt", mlir, "--ckpt-lower-to-cpu", "-o", low])
    return json.loads(run(["ckpt-run", low, f"--entry={entry}", "--seed=7",
                           f"--repeat={repeat}"]).stdout)


def main():
    args = sys.argv[1:]
    repeat = 10
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    step, entry, percents = args[0], args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = f"{tmp}/wrapped.mlir"
        run(["ckpt-opt", step, "--ckpt-wrap-step", "-o", wrapped])
        base = measure(wrapped, entry, repeat, tmp)
        print("| budget | predicted peak | measured peak | predicted time overhead "
              "| measured wall (median) | measured overhead |")
        print("| --- | --- | --- | --- | --- | --- |")
        for pct in percents:
            planned = f"{tmp}/planned.mlir"
            p = subprocess.run(["ckpt-opt", wrapped, f"--ckpt-plan=budget={pct}% device=cpu",
                                "-o", planned], capture_output=True, text=True)
            if p.returncode:
                least = re.search(r"least feasible budget is (.*)$", p.stderr, re.M)
                print(f"| {pct}% | infeasible: least {least.group(1) if least else '?'} | | | | |")
                continue
            text = open(planned).read()
            budget = int(re.search(r"budget = (\d+)", text).group(1))
            t = float(re.search(r" time = ([-+.\dEe]+)", text).group(1))
            t0 = float(re.search(r"store_all_time = ([-+.\dEe]+)", text).group(1))
            rewritten = f"{tmp}/rewritten.mlir"
            run(["ckpt-opt", planned, "--ckpt-rematerialize", "--ckpt-insert-frees",
                 "-o", rewritten])
            remarks = run(["ckpt-opt", rewritten, "--ckpt-print-analysis",
                           "-o", "/dev/null"]).stderr
            predicted = int(re.findall(r"forward ops: .*peak (\d+) B at", remarks)[-1])
            m = measure(rewritten, entry, repeat, tmp)
            if m["outputs_sha256"] != base["outputs_sha256"] or m["leaked_bytes"]:
                raise SystemExit(f"{pct}%: outputs differ or leak")
            print(f"| {pct}% = {budget} | {predicted} | {m['peak_bytes']} | "
                  f"{100 * (t / t0 - 1):+.1f}% | {m['wall_ms']:.2f} ms | "
                  f"{100 * (m['wall_ms'] / base['wall_ms'] - 1):+.1f}% |")
        print(f"\nunplanned: peak {base['peak_bytes']} B, wall (median of {repeat}) "
              f"{base['wall_ms']:.2f} ms")


if __name__ == "__main__":
    main()
