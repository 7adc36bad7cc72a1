#!/usr/bin/env python3
"""The chain DP as a user runs it: `ckpt-chain` as a whole process against
the naive DP's whole process (issue 43, item 7).

The chain is the L = 339, S = 500, 50% chain of the chain-DP benchmark
(`ckpt-bench-chain --write-chain=339:500:50:FILE`). For each path of the
chain DP's kernels (the best this CPU has, then CKPT_ISA=avx2 and
CKPT_ISA=generic where the CPU has more), --runs rounds each time, in turn:

  - `ckpt-chain --threads=1 FILE`: read the chain, the DP, the sequence,
    its simulation, the least feasible memory, the JSON output; wall, user
    and system time and peak RSS of the process (what `/usr/bin/time`
    reports);
  - the naive reference DP's whole process, once per round
    (`ckpt-bench-chain --naive --benchmark_filter=Naive`: the paper's
    [m][s][t] table, one thread);
  - beside them the in-process solve (`ckpt-bench-chain
    --benchmark_filter=L:339/S:500/pct:50`, median of 5, the DP's default
    threads), as BENCHMARKS.md's plan-time table reports it.

The ratio is the median over the rounds of naive wall / ckpt-chain wall
within a round (the machine's load changes between rounds). Prints a
Markdown table; --doc writes it into docs/BENCHMARKS.md between the
chain-process markers.

    .venv/bin/python bench/chain_process.py --build build --doc docs/BENCHMARKS.md
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from plan_time import arguments, chain_ms, isa_env, isa_paths, publish  # noqa: E402


def process(args, env):
    """Runs `args` to the end; returns wall seconds, user and system seconds
    and peak RSS in MiB of that process alone."""
    start = time.monotonic()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code:
        raise subprocess.CalledProcessError(code, args)
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024


def main():
    args, build = arguments(__doc__)
    chain = os.path.join(build, "bin", "ckpt-chain")
    bench = os.path.join(build, "bin", "ckpt-bench-chain")
    paths = isa_paths()
    envs = {isa: isa_env(isa) for isa in paths}
    with tempfile.TemporaryDirectory() as tmp:
        file = os.path.join(tmp, "chain.json")
        subprocess.run([bench, f"--write-chain=339:500:50:{file}"], check=True)
        naive, runs = [], {isa: [] for isa in paths}
        for _ in range(args.runs):
            naive.append(process([bench, "--naive", "--benchmark_filter=Naive"],
                                 envs[None]))
            for isa in paths:
                runs[isa].append(process([chain, "--threads=1", file], envs[isa]))
        naive_wall = statistics.median(r[0] for r in naive)
        rows = ["| path | ckpt-chain, whole process, one thread: wall | user | system "
                "| peak RSS | naive DP, whole process | whole-process ratio "
                "| in-process solve (ckpt-bench-chain) |",
                "|---|---|---|---|---|---|---|---|"]
        for isa in paths:
            mine = runs[isa]
            med = [statistics.median(r[k] for r in mine) for k in range(4)]
            ratio = statistics.median(n[0] / m[0] for n, m in zip(naive, mine))
            inproc = chain_ms(bench, envs[isa])
            rows.append(f"| {isa or 'best (default)'} | {med[0]:.3f} s | {med[1]:.3f} s "
                        f"| {med[2]:.3f} s | {med[3]:.0f} MiB | {naive_wall:.2f} s "
                        f"| {ratio:.1f}x | {inproc:.0f} ms |")
            print(rows[-1], flush=True)
    publish(rows, args.runs, "rounds", "chain_process.py", "chain-process", args.doc)


if __name__ == "__main__":
    main()
