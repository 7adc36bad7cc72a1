"""Checks ckpt-sched's joint plan (--offload-link) against its own
recompute-only plan in the same output: never slower where recomputation
fits, within the budget, time = compute + stall; and, when asked (--faster),
strictly faster; with --ilp, the claims of strategy ilp's ILP with paging. Reads one JSON object from stdin; prints OK or the failure."""
import json
import subprocess
import sys

if "--least" in sys.argv:
    # --least CKPT-SCHED GRAPH LINK: at 1 B neither plan fits, and the joint
    # plan's least budget is at most recomputation's, plans, and one byte
    # under it does not.
    exe, graph, link = sys.argv[sys.argv.index("--least") + 1:][:3]

    def sched(budget):
        p = subprocess.run([exe, graph, f"--budget={budget}", f"--offload-link={link}",
                            "--compact"], capture_output=True, text=True)
        return json.loads(p.stdout)

    first = sched(1)
    least, alone = first["offload"]["least_feasible_bytes"], first["least_feasible_bytes"]
    at, under = sched(least), sched(least - 1)
    fail = []
    if least > alone:
        fail.append(f"least with offloading {least} above recomputation's {alone}")
    if not at["offload"]["feasible"] or at["offload"]["device_peak"] > least:
        fail.append(f"no joint plan within {least}: {at['offload']}")
    if under["offload"]["feasible"] or under["offload"].get("least_feasible_bytes") != least:
        fail.append(f"one byte under {least}: {under['offload']}")
    print("FAIL: " + "; ".join(fail) if fail else
          f"OK least={least} {'below' if least < alone else 'same as'} recomputation's {alone}")
    sys.exit(0)

if "--sweep" in sys.argv:
    # --sweep CKPT-SCHED GRAPH: at 50 and 70% of the store-all peak, links
    # 1, 2, 4, 8 x 10^5 give no slower plan one after the other; over 10^6,
    # budgets 40, 50, ..., 90% give no slower plan one after the other.
    exe, graph = sys.argv[sys.argv.index("--sweep") + 1:][:2]

    def joint(budget, link):
        p = subprocess.run([exe, graph, f"--budget={budget}%", f"--offload-link={link:g}",
                            "--compact"], capture_output=True, text=True)
        o = json.loads(p.stdout)["offload"]
        return o["cost"] if o["feasible"] else None

    bad, pairs = [], 0
    ladders = [[(b, 1e5 * 2 ** k) for k in range(4)] for b in (50, 70)]
    ladders.append([(b, 1e6) for b in range(40, 100, 10)])
    for ladder in ladders:
        times = [joint(b, link) for b, link in ladder]
        for i in range(1, len(times)):
            if times[i - 1] is None:
                continue
            pairs += 1
            if times[i] is None or times[i] > times[i - 1] * (1 + 1e-12):
                bad.append(f"{ladder[i]}: {times[i]} after {ladder[i - 1]}: {times[i - 1]}")
    print(f"FAIL: {bad}" if bad else f"OK monotone on {pairs} pairs" if pairs else "FAIL: no pair")
    sys.exit(0)

if "--monotone" in sys.argv:
    # --monotone CKPT-SCHED GRAPH BUDGET SLOW FAST: at the same budget the
    # joint plan over the faster link is no slower than over the slower one
    # (whose plan is valid, and no slower, on the faster link).
    exe, graph, budget, slow, fast = sys.argv[sys.argv.index("--monotone") + 1:][:5]

    def joint(link):
        p = subprocess.run([exe, graph, f"--budget={budget}", f"--offload-link={link}",
                            "--compact"], capture_output=True, text=True)
        return json.loads(p.stdout)["offload"]

    a, b = joint(slow), joint(fast)
    ok = a["feasible"] and b["feasible"] and b["cost"] <= a["cost"] * (1 + 1e-12)
    print(f"OK faster link no slower" if ok else f"FAIL: link {slow}: {a}; link {fast}: {b}")
    sys.exit(0)

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
    if "--copies" in sys.argv:
        # With --schedule: the joint schedule and one entry per copy, each
        # moving a value computed at or before `after`, waited for after
        # it, and brought back (if at all) no earlier than the wait.
        schedule, copies = o["schedule"], o["copies"]
        if len(copies) != o["transfers"]:
            fail.append(f"{len(copies)} copies listed, {o['transfers']} counted")
        if len(schedule) - d["ops"] != o["recomputations"]:
            fail.append("the schedule's length does not match its recomputations")
        for c in copies:
            after, wait, reload = c["after"], c["wait_after"], c["reload_after"]
            if not 0 <= after < len(schedule) or c["value"] not in schedule[:after + 1]:
                fail.append(f"copy {c}: its value is not computed by execution {after}")
            if not after <= wait < len(schedule):
                fail.append(f"copy {c}: waited for before it is issued")
            if reload is not None and not wait <= reload < len(schedule):
                fail.append(f"copy {c}: reloaded before the offload is waited for")
if "--ilp" in sys.argv:
    # strategy ilp: the ILP with paging's own outcome (offload.ilp). Without
    # limits it proves its program's optimum; its plan fits, its time with
    # overlapping copies is at most its program time, which is at most the
    # recompute-only plan's; the joint plan is the faster of it and the
    # joint planner's.
    p = o.get("ilp", {})
    if p.get("status") != "optimal":
        fail.append(f"the ILP with paging did not prove an optimum: {p}")
    elif not (p["device_peak"] <= d["budget"] and p["cost"] <= p["program_time"] * (1 + 1e-9)
              and abs(p["lower_bound"] - p["program_time"]) <= 1e-6 * p["program_time"]
              and p["program_time"] <= d["cost"] * (1 + 1e-9)
              and o["cost"] <= p["cost"] * (1 + 1e-9)):
        fail.append(f"the ILP's claims do not hold: {p}, joint {o['cost']}, recompute {d['cost']}")
    if "--copies-pay" in sys.argv and not (p.get("transfers", 0) > 0
                                           and p["program_time"] < d["cost"]):
        fail.append(f"expected the ILP to copy and beat recomputation: {p}")
print("FAIL: " + "; ".join(fail) if fail else "OK")
