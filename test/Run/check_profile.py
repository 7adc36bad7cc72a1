"""Checks `ckpt-run --profile` on a zoo step, against what is known without
ckpt: the keys come from the step's source text, the times must add up to
the plan's.

    check_profile.py STEP.mlir ENTRY TMPDIR BUDGET

1. The step (its `ckpt.loss` function wrapped into ckpt.step) is lowered with
   ckpt-lower-to-cpu{profile=true} and run three times with --profile (each
   ckpt-opt run starts from the step file, whose locations are the keys). The
   profile's op keys must be exactly the ops of the function's body that
   compute something, read off the source text here: every line at brace
   depth 1 that defines a value with an op other than arith.constant and
   tensor.empty (nor the bufferization.alloc_tensor ckpt-rematerialize
   makes of it), keyed "FILE:LINE:COLUMN" at the op's name, where MLIR's
   parser puts an op's location. Each time is a finite number >= 0, their
   sum is > 0 (a steady clock across the step's matmuls moves); the
   link's three numbers are there, its bandwidths > 0 and its latency >= 0.
2. ckpt-annotate-costs{profile=FILE}: every timed op's ckpt.cost time is the
   profile's number for its location (printed with --mlir-print-debuginfo).
3. ckpt-plan{profile=FILE} at 100%: the store-all time in ckpt-report is the
   sum of the profile's op times (the untimed ops cost nothing), within a
   relative 1e-9.
4. A plan at BUDGET (ckpt-plan's syntax) that recomputes, rewritten
   (recomputed ops share their originals' locations) and lowered with
   profile=true, times the same keys.

Prints one line per check; exits 1 on the first failure.
"""

import json
import math
import os
import re
import subprocess
import sys

DEF = re.compile(r"^(\s*)%[\w#:]+(?:\s*,\s*%[\w#:]+)*\s*=\s*([a-z_]+\.[a-z_0-9.]+)")


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        fail(f"{' '.join(args)}: {p.stderr.strip()}")
    return p.stdout


def source_keys(path, entry):
    """FILE:LINE:COL of the ops of `entry`'s body that compute something."""
    keys, depth, inside = set(), 0, False
    with open(path) as f:
        for number, line in enumerate(f, 1):
            code = line.split("//", 1)[0]
            if not inside:
                if re.search(rf"func\.func @{entry}\b", code):
                    inside, depth = True, 0
                else:
                    continue
            m = DEF.match(code)
            if m and depth == 1 and m.group(2) not in ("arith.constant", "tensor.empty"):
                keys.add(f"{path}:{number}:{code.index(m.group(2)) + 1}")
            depth += code.count("{") - code.count("}")
            if depth == 0 and "}" in code:
                break
    return keys


def profile(passes, entry, tmp, name):
    """ckpt-opt `passes` (the step file first: its locations are the keys),
    lowered with profile=true and run with --profile."""
    low = os.path.join(tmp, f"{name}.low.mlir")
    out = os.path.join(tmp, f"{name}.json")
    run(["ckpt-opt", *passes, "--ckpt-lower-to-cpu=profile=true", "-o", low])
    result = json.loads(run(["ckpt-run", low, f"--entry={entry}", "--repeat=3",
                             f"--profile={out}"]))
    with open(out) as f:
        times = json.load(f)
    return out, times, result


def main():
    step, entry, tmp, budget = sys.argv[1:5]
    os.makedirs(tmp, exist_ok=True)
    # One ckpt-opt run from the step file each time, so that every op keeps
    # its location there.
    wrap = [step, "--ckpt-wrap-step"]
    path, times, result = profile(wrap, entry, tmp, "as-written")
    link = {k: times.pop(k, None) for k in ("link.to_host", "link.to_device", "link.latency")}
    want = source_keys(step, entry)
    if set(times) != want:
        fail(f"profile keys differ from the source's ops: missing {sorted(want - set(times))}, "
             f"extra {sorted(set(times) - want)}")
    if result["profiled_ops"] != len(want):
        fail(f"ckpt-run says profiled_ops {result['profiled_ops']}, the source has {len(want)}")
    if not all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0
               for v in times.values()):
        fail("an op time is not a finite number >= 0")
    if sum(times.values()) <= 0:
        fail("the op times add up to nothing")
    if None in link.values() or link["link.to_host"] <= 0 or link["link.to_device"] <= 0 \
            or link["link.latency"] < 0:
        fail(f"bad link {link}")
    print(f"keys: {len(want)} ops of {entry}, each timed; link measured")

    annotated = run(["ckpt-opt", *wrap, f"--ckpt-annotate-costs=profile={path}",
                     "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    # An op's text runs from its first line to the line that brings the
    # brace depth back and ends with its location (after its regions, and
    # after the attributes of an op that prints them there, like tensor.pad).
    seen, text, depth = 0, "", 0
    cost = re.compile(r"ckpt\.cost = #ckpt\.cost<[^>]*time = ([-+0-9.eE]+)>")
    loc = re.compile(r'loc\("([^"]+)":(\d+):(\d+)\)\s*$')
    for line in annotated.splitlines():
        if not text and not re.match(r"\s*%", line):
            depth += line.count("{") - line.count("}")
            continue
        if not text:
            start = depth
        text += line + "\n"
        depth += line.count("{") - line.count("}")
        end = loc.search(line)
        if depth != start or not end:
            continue
        m, key = cost.search(text), f"{end.group(1)}:{end.group(2)}:{end.group(3)}"
        text = ""
        if m and key in times:
            seen += 1
            if abs(float(m.group(1)) - times[key]) > 2e-6 * max(times[key], 1e-12):
                fail(f"{key}: ckpt.cost time {m.group(1)}, profile {times[key]}")
    if seen < len(want):
        fail(f"only {seen} of {len(want)} timed ops carry the profile's time")
    print(f"annotate-costs: {seen} ops cost at the profile's times")

    report = os.path.join(tmp, "report.json")
    run(["ckpt-opt", *wrap, f"--ckpt-plan=budget=100% device=cpu profile={path}",
         f"--ckpt-report=output={report} least=false lower-bound=false", "-o", os.devnull])
    with open(report) as f:
        store_all = float(json.load(f)[0]["store_all"]["time_s"])
    total = sum(times.values())
    if abs(store_all - total) > 1e-9 * total:
        fail(f"store-all time {store_all} s, the ops' times add up to {total} s")
    print("plan: store-all time = the sum of the op times")

    plan = [*wrap, f"--ckpt-plan=budget={budget} device=cpu profile={path}",
            "--ckpt-rematerialize", "--ckpt-insert-frees"]
    recomputes = run(["ckpt-opt", *plan]).count("ckpt.recompute")
    _, again, _ = profile(plan, entry, tmp, "planned")
    keys = set(again) - {"link.to_host", "link.to_device", "link.latency"}
    if recomputes == 0 or keys != want:
        fail(f"the planned step ({recomputes} recompute regions) times "
             f"{len(keys)} keys, not the {len(want)} of the step")
    print(f"planned at {budget}: {recomputes} recompute regions, the same keys")


if __name__ == "__main__":
    main()
