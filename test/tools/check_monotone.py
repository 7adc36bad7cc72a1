"""Checks that ckpt-sched's joint plan (--offload-link) is monotone:
  --links CKPT-SCHED GRAPH BUDGET LINK...: at one budget, over links given
    from slow to fast, every link plans where a slower one does, and no
    slower;
  --budgets CKPT-SCHED GRAPH LINK BUDGET...: over one link, budgets given
    from small to large, every budget plans where a smaller one does, and
    no slower, unless recomputation alone (the same output's plan) is
    slower at the larger budget than at the smaller: the recompute-only
    planner's own miss, which the joint plan may inherit (OffloadPlanner.h).
Prints OK with the number of pairs compared (and of those the joint plan
is strictly faster on), or FAIL with every pair that is not."""
import json
import subprocess
import sys


def sched(exe, graph, budget, link):
    p = subprocess.run([exe, graph, f"--budget={budget}", f"--offload-link={link}",
                        "--compact"], capture_output=True, text=True)
    if p.returncode not in (0, 2):
        sys.exit(f"FAIL: {exe} {graph} --budget={budget} --offload-link={link}: "
                 f"{p.stderr.strip()}")
    d = json.loads(p.stdout)
    o = d["offload"]
    return {"joint": o["cost"] if o["feasible"] else None,
            "alone": d["cost"] if d["feasible"] else None}


def main():
    mode, exe, graph, fixed, *sweep = sys.argv[1:]
    if mode == "--links":
        plans = [sched(exe, graph, fixed, link) for link in sweep]
    elif mode == "--budgets":
        plans = [sched(exe, graph, budget, fixed) for budget in sweep]
    else:
        sys.exit(f"unknown mode {mode}")
    fail, pairs, strict = [], 0, 0
    for i in range(len(sweep)):
        for j in range(i + 1, len(sweep)):
            small, large = plans[i], plans[j]
            if small["joint"] is None:
                continue
            if mode == "--budgets" and small["alone"] is not None and (
                    large["alone"] is None or large["alone"] > small["alone"]):
                continue  # recomputation alone's own miss
            pairs += 1
            if large["joint"] is None or large["joint"] > small["joint"] * (1 + 1e-12):
                fail.append(f"{sweep[j]}: {large['joint']} after {sweep[i]}: {small['joint']}")
            elif large["joint"] < small["joint"] * (1 - 1e-12):
                strict += 1
    print("FAIL: " + "; ".join(fail) if fail else f"OK {pairs} pairs, {strict} faster")


main()
