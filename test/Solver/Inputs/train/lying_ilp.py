#!/usr/bin/env python3
"""A ckpt-sched that lies about the ILP, for sched-vs-ilp.test: runs the real
one (first argument) and, for --strategy=ilp, reports a proven optimum 10%
above the true cost with a bound equal to it. check_vs_ilp.py must reject it
wherever `optimal`'s schedule, put in the program's form, fits the budget.

usage: lying_ilp.py CKPT_SCHED ARGS..."""

import json
import subprocess
import sys

p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
if p.returncode not in (0, 2) or "--strategy=ilp" not in sys.argv:
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    sys.exit(p.returncode)
out = json.loads(p.stdout)
if out.get("feasible"):
    out["cost"] *= 1.1
    out["ilp"]["cost"] = out["cost"]
    out["ilp"]["status"] = "optimal"
    out["ilp"]["lower_bound"] = out["cost"]
print(json.dumps(out))
sys.exit(p.returncode)
