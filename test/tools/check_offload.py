"""Checks ckpt-sched's joint plan (--offload-link) against its own
recompute-only plan in the same output: never slower where recomputation
fits, within the budget, time = compute + stall; and, when asked (--faster),
strictly faster. Reads one JSON object from stdin; prints OK or the failure."""
import json
import sys

d = json.load(sys.stdin)
o = d["offload"]
fail = []
if d["feasible"] and not o["feasible"]:
    fail.append("recomputation fits but the joint plan does not")
if o["feasible"]:
    if o["device_peak"] > d["budget"]:
        fail.append(f"device peak {o['device_peak']} over the budget {d['budget']}")
    if d["feasible"] and o["cost"] > d["cost"]:
        fail.append(f"joint {o['cost']} slower than recompute-only {d['cost']}")
    if o["stall"] < 0 or o["cost"] < d["store_all"]["cost"]:
        fail.append("time below the store-all cost or a negative stall")
    if "--faster" in sys.argv and not (o["transfers"] > 0 and o["cost"] < d["cost"]):
        fail.append(f"expected a faster plan with transfers: {o}")
print("FAIL: " + "; ".join(fail) if fail else "OK")
