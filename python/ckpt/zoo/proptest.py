"""Property test: random steps through plan, rewrite, lowering and ckpt-run.

    python -m ckpt.zoo.proptest [--seeds A:B] [--ops N] [--jobs J] [--keep DIR]
                                [--offload | --host-passes]
    python -m ckpt.zoo.proptest --write SEED [--ops N]     # print one step
    python -m ckpt.zoo.proptest --replay DIR               # kept steps

For every seed in [A, B): the random step of `ckpt.zoo.random_step` is
wrapped, lowered and run unplanned with ckpt-run, then planned at a random
budget between 30% and 100% of its store-all peak (when that budget is
infeasible, the error must name the least feasible budget, and the step is
planned again at exactly that many bytes), rewritten (ckpt-rematerialize,
ckpt-insert-frees), lowered and run. It checks the truths of DESIGN.md:

* the outputs are bit-identical to the unplanned step's (same SHA-256),
* the measured peak is at most the budget,
* nothing leaks (total allocated = total freed, results aside),
* the predicted peak (simulation of the rewritten step) equals the
  measured one.
With --offload every plan is made with `offload=auto device=cpu` (values
may move to host memory and back over the cpu device's memcpy link; an
infeasible budget then names the least budget with offloading,
which is planned instead), and also:
* the host copies peak at the plan's host_peak and none is left at exit.
With --host-passes a random mix of a host compiler's passes (cse,
canonicalize, sccp, loop-invariant-code-motion, inline, symbol-dce,
linalg-fuse-elementwise-ops, eliminate-empty-tensors; one to four, drawn
from the seed) runs after ckpt-rematerialize, before ckpt-insert-frees (or
after it, one seed in four), and each seed must end one of two ways
(ckpt.host_passes): outputs identical and measured peak within the budget,
or one of ckpt's documented errors; the refusals of a program that would
have fitted are counted.

A failing seed is shrunk: the smallest op count with which the same seed
still fails is found, and (with --keep DIR) that step is written to
DIR/rand<seed>_<ops>.mlir, ready to become a regression test: --replay DIR
runs every rand<seed>_<ops>.mlir of DIR as written (not regenerated, so a
kept step survives changes to the generator) at the seed's budget, with the
same checks; test/Run/proptest-regressions.test replays
test/Run/Inputs/proptest. Needs ckpt-opt and ckpt-run on PATH. Exits 1 when
a seed or a kept step fails.
"""

import argparse
import concurrent.futures
import os
import random
import re
import sys
import tempfile

from .random_step import random_step


from ..remat import Failure, Infeasible, execute as _execute, plan, rewrite, wrap
from ..remat import check as check_properties
from ..host_passes import random_mix, through_host


def check_step(text, entry, percent, offload=False, host=None):
    """Runs one step through the pipeline at `percent`; returns a summary
    dict, raises Failure when a property does not hold. `host`: a mix of
    host passes and whether it runs after ckpt-insert-frees, run after
    ckpt-rematerialize (ckpt.host_passes.through_host)."""
    options = "offload=auto device=cpu" if offload else ""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "step.mlir")
        with open(src, "w") as f:
            f.write(text)
        wrapped = wrap(src, tmp)
        base = _execute(wrapped, entry, tmp)
        if base["leaked_bytes"]:
            raise Failure(f"the unplanned step leaks {base['leaked_bytes']} B")
        budget_opt, infeasible = f"{percent}%", False
        try:
            planned, _, numbers = plan(wrapped, budget_opt, tmp, options)
        except Infeasible as e:
            infeasible, budget_opt = True, str(e.least)
            try:
                planned, _, numbers = plan(wrapped, budget_opt, tmp, options)
            except (Infeasible, Failure) as again:
                raise Failure(f"the least feasible budget named at {percent}%, "
                              f"{e.least} B, is infeasible: {again}") from None
        budget = numbers["budget"]
        if host:
            mix, after_frees = host
            r = through_host(planned, entry, tmp, mix, budget, base, after_frees)
            return {"budget": budget, "percent": percent, "infeasible_at_percent": infeasible,
                    "base_peak": base["peak_bytes"], "measured": r["peak"], "moved": False,
                    "host": r}
        rewritten, predicted = rewrite(planned, tmp)
        m = _execute(rewritten, entry, tmp)
        try:
            host = numbers["host_peak"]
            check_properties(base, m, budget, predicted, host)
        except Failure as e:
            raise Failure(f"budget {budget} B ({budget_opt}): {e}") from None
        return {"budget": budget, "percent": percent, "infeasible_at_percent": infeasible,
                "base_peak": base["peak_bytes"], "predicted": predicted,
                "measured": m["peak_bytes"], "moved": host > 0}


def percent_for(seed):
    return random.Random(f"budget-{seed}").randint(30, 100)


def host_for(seed):
    """The host passes of `seed` (--host-passes): a random mix of one to four,
    run after ckpt-insert-frees one time in four, else before it."""
    rng = random.Random(f"host-{seed}")
    return random_mix(rng), rng.random() < 0.25


def run_seed(seed, ops, offload=False, host=False):
    step = random_step(seed, ops)
    try:
        return seed, check_step(step.text, step.entry, percent_for(seed), offload,
                                host_for(seed) if host else None), None
    except Failure as e:
        return seed, None, str(e)


KEPT = re.compile(r"rand(\d+)_(\d+)\.mlir")
ENTRY = re.compile(r"^func\.func @(\w+)\(", re.M)


def replay(directory):
    """Runs every kept step of `directory`; returns the exit status."""
    names = sorted((f for f in os.listdir(directory) if KEPT.fullmatch(f)),
                   key=lambda f: tuple(int(g) for g in KEPT.fullmatch(f).groups()))
    if not names:
        print(f"error: no rand<seed>_<ops>.mlir in {directory}", file=sys.stderr)
        return 1
    failed = 0
    for name in names:
        seed = int(KEPT.fullmatch(name).group(1))
        with open(os.path.join(directory, name)) as f:
            text = f.read()
        entry = ENTRY.search(text)
        try:
            if not entry:
                raise Failure("no func.func in the file")
            summary = check_step(text, entry.group(1), percent_for(seed))
        except Failure as e:
            print(f"FAIL {name}: {e}", flush=True)
            failed += 1
            continue
        least = " (infeasible: planned at the least feasible budget)" \
            if summary["infeasible_at_percent"] else ""
        print(f"PASS {name}: {summary['percent']}%{least}, budget {summary['budget']} B, "
              f"measured {summary['measured']} B of {summary['base_peak']} B unplanned", flush=True)
    print(f"{'PASS' if not failed else 'FAIL'}: {len(names) - failed} of {len(names)} kept steps")
    return 1 if failed else 0


def shrink(seed, ops, error, offload=False, host=False):
    """The smallest op count with which `seed` still fails, and its error
    (`ops` and `error`, the failure already seen, when no smaller one does)."""
    for n in range(1, ops):
        _, _, err = run_seed(seed, n, offload, host)
        if err:
            return n, err
    return ops, error


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.zoo.proptest", description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="0:50", help="A:B, the seeds in [A, B) (default 0:50)")
    p.add_argument("--ops", type=int, default=16, help="primitives per step (default 16)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--keep", help="write shrunk failing steps to this directory")
    p.add_argument("--write", type=int, metavar="SEED", help="print the step of SEED and exit")
    p.add_argument("--replay", metavar="DIR", help="run the kept steps of DIR (rand<seed>_<ops>.mlir)")
    p.add_argument("--offload", action="store_true",
                   help="plan with offload=auto device=cpu (values moved to host memory)")
    p.add_argument("--host-passes", action="store_true",
                   help="run a random mix of a host compiler's passes (cse, canonicalize, "
                        "fusion, ...) after ckpt-rematerialize: the budget is kept or a "
                        "documented error stops the pipeline")
    a = p.parse_args(argv)
    if a.host_passes and a.offload:
        p.error("--host-passes and --offload are separate runs")
    if a.replay is not None:
        return replay(a.replay)
    if a.ops < 1:
        p.error("--ops must be positive")
    if a.write is not None:
        sys.stdout.write(random_step(a.write, a.ops).text)
        return 0
    m = re.fullmatch(r"(\d+):(\d+)", a.seeds)
    if not m or int(m.group(1)) >= int(m.group(2)):
        p.error(f"--seeds must be A:B with A < B, not '{a.seeds}'")
    seeds = range(int(m.group(1)), int(m.group(2)))
    failures, infeasible, squeezed, moved = [], 0, [], 0
    outcomes = {"kept": 0, "refused": 0, "false_alarm": 0}
    with concurrent.futures.ProcessPoolExecutor(max_workers=a.jobs) as pool:
        for seed, summary, err in pool.map(run_seed, seeds, [a.ops] * len(seeds),
                                           [a.offload] * len(seeds),
                                           [a.host_passes] * len(seeds)):
            if err:
                print(f"FAIL seed {seed}: {err}", flush=True)
                failures.append((seed, err))
                continue
            infeasible += summary["infeasible_at_percent"]
            moved += summary["moved"]
            if a.host_passes:
                outcomes[summary["host"]["outcome"]] += 1
                outcomes["false_alarm"] += summary["host"]["false_alarm"]
            if summary["measured"] and summary.get("host", {}).get("outcome", "kept") == "kept":
                squeezed.append(summary["measured"] / summary["base_peak"])
    for seed, first_error in failures:
        n, err = shrink(seed, a.ops, first_error, a.offload, a.host_passes)
        print(f"SHRUNK seed {seed}: fails with --ops {n}: {err}")
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            path = os.path.join(a.keep, f"rand{seed}_{n}.mlir")
            with open(path, "w") as f:
                f.write(random_step(seed, n).text)
            print(f"  kept {path}")
    passed = len(seeds) - len(failures)
    if squeezed:
        print(f"measured peak / unplanned peak: min {min(squeezed):.3f}, "
              f"mean {sum(squeezed) / len(squeezed):.3f}")
    if a.offload:
        print(f"offload=auto: {moved} of {len(seeds) - len(failures)} plans move values "
              f"to host memory")
    if a.host_passes:
        print(f"host passes: {outcomes['kept']} kept the budget, {outcomes['refused']} "
              f"refused by a documented error ({outcomes['false_alarm']} of them would have "
              f"fitted)")
    print(f"{'PASS' if not failures else 'FAIL'}: {passed} of {len(seeds)} seeds "
          f"(ops {a.ops}; {infeasible} planned at the least feasible budget named by the "
          f"error after the drawn budget was infeasible)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
