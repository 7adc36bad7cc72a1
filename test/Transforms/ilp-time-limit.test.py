"""Wall time of ckpt-opt's ILP plan against its time limit (ilp-time-limit.test).

usage: ilp-time-limit.test.py CKPT_OPT STEP.mlir SECONDS"""
import subprocess
import sys
import time


def wall(tool, step, plan):
    start = time.monotonic()
    p = subprocess.run([tool, step, "--ckpt-wrap-step", "--ckpt-plan=" + plan, "-o",
                        "/dev/null"], capture_output=True, text=True)
    return time.monotonic() - start, p


tool, step, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
base, p = wall(tool, step, "strategy=store-all")
assert p.returncode == 0, p.stderr
took, p = wall(tool, step, "strategy=ilp budget=80%% time-limit=%g" % limit)
# Feasible (a schedule) or infeasible (none in time): both keep the limit.
assert p.returncode in (0, 1) and "PLEASE submit" not in p.stderr, p.stderr
over = took - base
print("ilp time-limit=%g: %s (%.2f s planning, %.2f s besides)" % (
    limit, "within 10%" if over <= 1.10 * limit else "OVER", over, base))
sys.exit(0 if over <= 1.10 * limit else 1)
