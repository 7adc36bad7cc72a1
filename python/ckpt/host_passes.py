"""A rematerialized step through a host compiler's own passes.

    python -m ckpt.host_passes STEP.mlir [--budgets 70% 50%]
                               [--mixes cse canonicalize,cse ...] [--after-frees]
                               [--unpin]

A host compiler runs its cleanups around ckpt's passes. For each budget and
each mix of upstream passes (comma separated, run in that order), STEP (a
file of `func.func {ckpt.loss}`) is wrapped, planned, rewritten with
ckpt-rematerialize, given to the mix, then to ckpt-insert-frees (the mix
runs after it instead with --after-frees), lowered with ckpt-lower-to-cpu
and run with ckpt-run. Each case ends one of two ways, and anything else is
a failure:

* kept: the outputs are bit-identical to the unplanned step's and the
  measured peak is within the budget;
* refused: a pass stopped with one of ckpt's documented errors (REFUSALS:
  ckpt-insert-frees finds the step over its budget, ckpt-check-peak finds the
  bufferized program over it, or the verifier finds a free the mix broke).
  The case is then also run with the checks off (the budget attribute
  dropped), and the peak it would have measured is reported: a refusal of a
  program that would have fitted is a false alarm, counted apart.

Prints one line per case and a summary; exits 1 on any failure. The same
function (`through_host`) drives `python -m ckpt.zoo.proptest --host-passes`.
Standard library only; needs ckpt-opt and ckpt-run on PATH.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

from .remat import Failure, Infeasible, execute, plan, run, wrap

# The passes a host compiler runs, as ckpt-opt spells them.
HOST_PASSES = ["cse", "canonicalize", "sccp", "loop-invariant-code-motion", "inline",
               "symbol-dce", "linalg-fuse-elementwise-ops", "eliminate-empty-tensors"]

# The mixes of the issue that found the problem (#39), after ckpt-rematerialize.
DEFAULT_MIXES = ["cse", "canonicalize,cse", "cse,canonicalize,cse",
                 "linalg-fuse-elementwise-ops,cse", "sccp,cse,loop-invariant-code-motion"]

# ckpt's errors for a step a host pass broke: each names what happened.
REFUSALS = [
    ("insert-frees", re.compile(r"error: the step now peaks at \d+ B here, over the budget of \d+ B")),
    ("check-peak", re.compile(r"error: this allocation brings the step's live buffers to \d+ B, "
                              r"over the budget of \d+ B")),
    ("verifier", re.compile(r"error: 'ckpt\.free' op ")),
]

BUDGET_ATTR = re.compile(r"ckpt\.budget = \{bytes = \d+ : i64, peak = \d+ : i64\},? ?")


def random_mix(rng, longest=4):
    """A random sequence of 1..`longest` host passes."""
    return [rng.choice(HOST_PASSES) for _ in range(rng.randint(1, longest))]


def _opt(src, dst, flags):
    """ckpt-opt SRC FLAGS -o DST; the CompletedProcess (not raised on error)."""
    return subprocess.run(["ckpt-opt", src, *flags, "-o", dst], capture_output=True, text=True)


def _refusal(stderr):
    for name, pattern in REFUSALS:
        if pattern.search(stderr):
            return name
    return None


def _pipeline(planned, tmp, mix, after_frees, budget_attr=True, unpin=False):
    """rematerialize, the mix and insert-frees in their order: the rewritten
    file and None, or None and the stderr of the first that failed. Without
    `budget_attr`, the rewritten step's ckpt.budget is dropped (no check);
    `unpin` also writes its allocations back as tensor.empty (the rewrite as
    it was before issue 39)."""
    steps = [["--ckpt-rematerialize"]]
    host = [f"--{p}" for p in mix]
    steps += [["--ckpt-insert-frees"], host] if after_frees else [host, ["--ckpt-insert-frees"]]
    current = planned
    for i, flags in enumerate(steps):
        out = os.path.join(tmp, f"host{i}.mlir")
        p = _opt(current, out, flags)
        if p.returncode:
            return None, p.stderr
        if i == 0 and (not budget_attr or unpin):
            with open(out) as f:
                text = BUDGET_ATTR.sub("", f.read()).replace(" attributes {}", "")
            if unpin:
                text = text.replace("bufferization.alloc_tensor()", "tensor.empty()")
            with open(out, "w") as f:
                f.write(text)
        current = out
    return current, None


def _refused(by, program, entry, tmp, budget):
    """A refusal by `by`, with the peak `program` (a rewritten step, None
    when the mix cannot be rewritten without the checks either) measures
    with the checks off."""
    peak = None
    if program is not None:
        peak = execute(program, entry, tmp,
                       lower="--ckpt-lower-to-cpu=check-budget=false")["peak_bytes"]
    return {"outcome": "refused", "refused_by": by, "peak": peak,
            "false_alarm": peak is not None and peak <= budget}


def through_host(planned, entry, tmp, mix, budget, base, after_frees=False, unpin=False):
    """One case: returns a dict with `outcome` ("kept" or "refused"), `peak`
    (measured, or the peak the refused program would have measured),
    `refused_by` and `false_alarm`. Raises Failure when neither holds.
    `unpin`: the rewrite without its safeguards (a check of this check)."""
    rewritten, err = _pipeline(planned, tmp, mix, after_frees, unpin=unpin)
    if rewritten is None:
        by = _refusal(err)
        if not by:
            raise Failure(f"mix {','.join(mix)}: an undocumented error: {err.strip()[-1500:]}")
        unchecked, _ = _pipeline(planned, tmp, mix, after_frees, budget_attr=False)
        return _refused(by, unchecked, entry, tmp, budget)
    low = os.path.join(tmp, "lowered.mlir")
    p = _opt(rewritten, low, ["--ckpt-lower-to-cpu"])
    if p.returncode:
        by = _refusal(p.stderr)
        if not by:
            raise Failure(f"mix {','.join(mix)}: the lowering failed: {p.stderr.strip()[-1500:]}")
        return _refused(by, rewritten, entry, tmp, budget)
    m = execute(low, entry, tmp, lower=None)
    if m["outputs_sha256"] != base["outputs_sha256"]:
        raise Failure(f"mix {','.join(mix)}: outputs differ from the unplanned step")
    if m["peak_bytes"] > budget:
        raise Failure(f"mix {','.join(mix)}: measured peak {m['peak_bytes']} B over the "
                      f"budget {budget} B, and no error")
    if m["leaked_bytes"]:
        raise Failure(f"mix {','.join(mix)}: leaks {m['leaked_bytes']} B")
    return {"outcome": "kept", "refused_by": None, "peak": m["peak_bytes"], "false_alarm": False}


def planned_step(step, budget, tmp):
    """Wraps and plans `step` at `budget` (the least feasible budget when
    that is infeasible); returns (planned file, budget bytes, unplanned run)."""
    wrapped = wrap(step, tmp)
    entry = re.search(r"ckpt\.step @(\w+)", open(wrapped).read()).group(1)
    base = execute(wrapped, entry, tmp)
    try:
        planned, _, numbers = plan(wrapped, budget, tmp)
    except Infeasible as e:
        planned, _, numbers = plan(wrapped, str(e.least), tmp)
    return planned, numbers["budget"], base, entry


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.host_passes",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("step")
    p.add_argument("--budgets", nargs="+", default=["70%", "50%"])
    p.add_argument("--mixes", nargs="+", default=DEFAULT_MIXES)
    p.add_argument("--after-frees", action="store_true",
                   help="run the mix after ckpt-insert-frees instead of before it")
    p.add_argument("--unpin", action="store_true",
                   help="undo ckpt-rematerialize's safeguards (tensor.empty back, no "
                        "ckpt.budget): shows that a silent violation fails")
    a = p.parse_args(argv)
    name = os.path.splitext(os.path.basename(a.step))[0]
    counts = {"kept": 0, "refused": 0, "false_alarm": 0, "failed": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for budget in a.budgets:
            planned, bytes_, base, entry = planned_step(a.step, budget, tmp)
            for mix in a.mixes:
                label = f"{name} {budget} {mix}"
                try:
                    r = through_host(planned, entry, tmp, mix.split(","), bytes_, base,
                                     a.after_frees, a.unpin)
                except Failure as e:
                    counts["failed"] += 1
                    print(f"FAIL {label}: {e}", flush=True)
                    continue
                counts[r["outcome"]] += 1
                counts["false_alarm"] += r["false_alarm"]
                if r["outcome"] == "kept":
                    print(f"kept {label}: peak {r['peak']} B <= budget {bytes_} B", flush=True)
                else:
                    would = f", would have peaked at {r['peak']} B" if r["peak"] else ""
                    print(f"refused {label}: by {r['refused_by']}{would} (budget {bytes_} B)",
                          flush=True)
    print(f"{'PASS' if not counts['failed'] else 'FAIL'}: {counts['kept']} kept, "
          f"{counts['refused']} refused ({counts['false_alarm']} false alarms), "
          f"{counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
