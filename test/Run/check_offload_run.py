#!/usr/bin/env python3
"""End-to-end check of offloading on one training step (ckpt-plan
offload=auto, device cpu: its link is a memcpy).

Runs the unplanned step with ckpt-run first: its measured peak P and its
outputs are the reference. For each budget PCT% (PCT * P / 100 rounded
down, computed here):

  - plans with recomputation alone (offload=off) and with offloading
    (offload=auto); the joint plan must fit the budget and be no slower
    than recomputation alone (the plans' times; when recomputation alone is
    infeasible, the joint plan must still fit);
  - rewrites the joint plan (ckpt.offload / ckpt.wait / ckpt.reload, frees),
    lowers it to the CPU and runs it: the outputs must be bit-identical to
    the unplanned step's, nothing leaks (device or host), and the measured
    device peak equals both the plan's peak and the memory simulation of the
    rewritten step (ckpt-print-analysis), to the byte; the measured host peak
    equals the plan's host_peak.

Prints `OK PCT% budget=B transfers=N peak=P host=H faster|same|below` per
budget (`faster`: the joint plan is faster than recomputation alone;
`below`: recomputation alone cannot fit the budget, the joint plan does),
or `INFEASIBLE PCT% least=L` when neither fits (ckpt-plan's error names L,
the least budget with offloading, which must be above the budget).

`least` instead of a percentage: the budget is the least budget with
offloading that ckpt-plan names at a budget of 1 B; it is checked as above
(planned, run, measured), one byte under it must be refused naming it
again, and it must be at most the least budget of recomputation alone
(named with offload=off): `OK least budget=L recompute_least=R ...`.
With --async-copies the rewritten steps are lowered with
`ckpt-lower-to-cpu{async-copies=true}`: the copies into and out of host
copies run on the runtime's copy thread (ckpt-async-host-copies), each
delayed by CKPT_RUNTIME_COPY_DELAY_US (default here 2000 us), so that a
wait placed too late lets a kernel read a buffer before its copy has
written it, or a free come before the copy has read it: the outputs must
still be bit-identical, and the peaks the same.

Usage: check_offload_run.py [--async-copies] STEP.mlir ENTRY PERCENT|least...
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from ckpt import remat  # noqa: E402

def least_of(wrapped, budget, tmp, options):
    """The least budget ckpt-plan names when `budget` is refused."""
    try:
        remat.plan(wrapped, budget, tmp, options)
    except remat.Infeasible as e:
        return e.least
    raise remat.Failure(f"ckpt-plan={options} plans {budget} B")


def main():
    args = sys.argv[1:]
    lower, timeout = "--ckpt-lower-to-cpu", None
    if args and args[0] == "--async-copies":
        args = args[1:]
        lower = "--ckpt-lower-to-cpu=async-copies=true"
        os.environ.setdefault("CKPT_RUNTIME_COPY_DELAY_US", "2000")
        # A buffer freed under a copy can corrupt the heap, and the crash
        # handler then hang in malloc: fail instead (the step takes well
        # under a second).
        timeout = 600
    step, entry, percents = args[0], args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            wrapped = remat.wrap(step, tmp)
            base = remat.execute(wrapped, entry, tmp)
            print(f"BASE peak={base['peak_bytes']} host={base['host_peak_bytes']}")
            for percent in percents:
                recompute_least = None
                if percent == "least":
                    budget = least_of(wrapped, 1, tmp, "device=cpu offload=auto")
                    recompute_least = least_of(wrapped, 1, tmp, "device=cpu")
                    if budget > recompute_least:
                        raise remat.Failure(f"the least budget with offloading, {budget}, is "
                                            f"above recomputation's, {recompute_least}")
                    under = least_of(wrapped, budget - 1, tmp, "device=cpu offload=auto")
                    if under != budget:
                        raise remat.Failure(f"one byte under {budget} names {under}")
                else:
                    budget = int(percent) * base["peak_bytes"] // 100
                try:
                    alone_time = remat.plan(wrapped, budget, tmp, "device=cpu")[2]["time"]
                except remat.Infeasible:
                    alone_time = None
                try:
                    planned, _, numbers = remat.plan(
                        wrapped, budget, tmp, "device=cpu offload=auto")
                except remat.Infeasible as e:
                    # Names the least budget of recomputation alone.
                    if alone_time is not None or e.least <= budget:
                        raise remat.Failure(f"{percent}%: refused: {e}") from None
                    print(f"INFEASIBLE {percent}% least={e.least}")
                    continue
                if numbers["budget"] != budget:
                    raise remat.Failure(f"the plan's budget {numbers['budget']} is not {budget}")
                if numbers["peak"] > budget:
                    raise remat.Failure(f"the plan's peak {numbers['peak']} is over {budget}")
                if alone_time is not None and numbers["time"] > alone_time:
                    raise remat.Failure(f"{percent}%: the joint plan ({numbers['time']} s) is "
                                        f"slower than recomputation alone ({alone_time} s)")
                rewritten, predicted = remat.rewrite(planned, tmp)
                measured = remat.execute(rewritten, entry, tmp, lower, timeout=timeout)
                remat.check(base, measured, budget, predicted, numbers["host_peak"])
                if measured["peak_bytes"] != numbers["peak"]:
                    raise remat.Failure(f"measured peak {measured['peak_bytes']} vs the "
                                        f"plan's {numbers['peak']}")
                speed = ("below" if alone_time is None
                         else "faster" if numbers["time"] < alone_time else "same")
                label = (f"least budget={budget} recompute_least={recompute_least}"
                         if recompute_least is not None else f"{percent}% budget={budget}")
                print(f"OK {label} transfers={numbers['transfers']} "
                      f"peak={measured['peak_bytes']} host={numbers['host_peak']} {speed} "
                      f"identical")
        except (remat.Failure, remat.Infeasible) as e:
            print(f"FAIL {e}")
            sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
