#!/usr/bin/env python3
"""ckpt-run's compile time against the size of the step, per --opt-level.

    PYTHONPATH=build/python .venv/bin/python bench/jit_time.py \\
        [--bin build/bin] [--depths 2,8,24,34] [--levels 0,2] \\
        [--max-o2-ops 3000] [--doc docs/BENCHMARKS.md]

Each step is the zoo transformer (batch 2, width 16, sequence 8) at the
given depths, lowered by ckpt-opt --ckpt-wrap-step --ckpt-lower-to-cpu and
run once by ckpt-run at each level (whole process, /usr/bin/time-like wall
clock, minus ckpt-run's own wall_ms for the step: the rest is parsing,
translating and compiling). Levels above 0 are skipped for steps of more than
--max-o2-ops ops (their compile time grows much faster than the step: minutes
at 7,000 ops). Prints a Markdown table with the CPU it ran on; with --doc,
writes it between the markers <!-- jit-time:begin --> and <!-- jit-time:end -->.
Outputs must hash the same at every level (the script exits 1 otherwise).
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    flags = open("/proc/cpuinfo").read()
                    isa = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "SSE"
                    return f"{name} ({isa}, {os.cpu_count()} cores)"
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--depths", default="2,8,24,34")
    ap.add_argument("--levels", default="0,2")
    ap.add_argument("--max-o2-ops", type=int, default=3000)
    ap.add_argument("--doc")
    args = ap.parse_args(argv)
    rows = []
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for depth in [int(d) for d in args.depths.split(",")]:
            step = os.path.join(tmp, f"t{depth}.mlir")
            lowered = os.path.join(tmp, f"t{depth}.ll.mlir")
            subprocess.run([sys.executable, "-m", "ckpt.zoo", "transformer", "--depth", str(depth),
                            "--batch", "2", "--width", "16", "--size", "8", "-o", step], check=True)
            ops = sum(1 for line in open(step) if re.search(r"^\s*%\S+ = ", line))
            subprocess.run([os.path.join(args.bin, "ckpt-opt"), step, "--ckpt-wrap-step",
                            "--ckpt-lower-to-cpu", "-o", lowered], check=True)
            llvm_ops = sum(1 for line in open(lowered) if " = llvm." in line or "llvm." in line)
            hashes = set()
            for level in [int(x) for x in args.levels.split(",")]:
                if level > 0 and ops > args.max_o2_ops:
                    rows.append((ops, llvm_ops, level, None, None))
                    continue
                start = time.monotonic()
                p = subprocess.run([os.path.join(args.bin, "ckpt-run"), lowered,
                                    f"--entry=transformer{depth}_step", f"--opt-level={level}",
                                    "--quiet"], capture_output=True, text=True, check=True)
                wall = time.monotonic() - start
                out = json.loads(p.stdout)
                hashes.add(out["outputs_sha256"])
                run_s = out["wall_ms"] / 1000
                rows.append((ops, llvm_ops, level, wall - run_s, run_s))
                print(f"  {ops} ops, opt-level {level}: compile {wall - run_s:.2f} s, "
                      f"step {run_s * 1000:.2f} ms", file=sys.stderr)
            if len(hashes) > 1:
                print(f"depth {depth}: outputs differ between levels", file=sys.stderr)
                failed = True
    lines = [f"ckpt-run's compile time (whole process less the step's own run), zoo "
             f"transformer steps, on {cpu_name()}; `bench/jit_time.py`:", "",
             "| step ops | LLVM-dialect lines | opt-level | compile (s) | step (ms) |",
             "|---:|---:|---:|---:|---:|"]
    for ops, llvm_ops, level, compile_s, run_s in rows:
        if compile_s is None:
            lines.append(f"| {ops} | {llvm_ops} | {level} | not run (minutes) | |")
        else:
            lines.append(f"| {ops} | {llvm_ops} | {level} | {compile_s:.2f} | {run_s * 1000:.2f} |")
    table = "\n".join(lines)
    print(table)
    if args.doc:
        text = open(args.doc).read()
        begin, end = "<!-- jit-time:begin -->", "<!-- jit-time:end -->"
        if begin not in text or end not in text:
            print(f"{args.doc}: no {begin} ... {end} block", file=sys.stderr)
            return 2
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(args.doc, "w").write(head + begin + "\n" + table + "\n" + end + tail)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
