#!/usr/bin/env python3
"""End-to-end check that the frees ckpt-insert-frees inserts are the ones
that free a rematerialized step's buffers.

The CPU lowering (`ckpt-lower-to-cpu`) runs `ckpt-lower-frees` with
`free-leftovers=true`: every allocation no `ckpt.free` covers is deallocated
after its last use anyway. That hides wrong or missing frees from the
end-to-end checks (check_remat.py, the property test): a step rewritten
without a single ckpt.free still leaks nothing and peaks at its prediction.
Here the step is lowered by the same pipeline with that one option turned
off (`ckpt-opt --ckpt-lower-to-cpu --dump-pass-pipeline`, with
`free-leftovers=true` replaced by `free-leftovers=false`; it must occur
exactly once), so that every `memref.dealloc` the run executes comes from a
`ckpt.free` of the rewritten step (ckpt-lower-frees places it at the free,
or after the last use of an alias of the buffer when that is later).

For each budget PCT% (an infeasible one is replaced by the least feasible
budget its error names, as check_remat.py does): plan, rewrite
(ckpt-rematerialize, ckpt-insert-frees), lower strictly, run with ckpt-run,
and require

  - leaked_bytes == 0: every buffer but the results is freed by a ckpt.free,
  - ckpt-run's count of frees == the number of ckpt.free ops in the
    rewritten step: each one deallocates a buffer of its own (none is lost
    by resolving to a buffer another free covers already),
  - measured peak == the plan's peak (#ckpt.plan peak) == the predicted peak
    (ckpt-print-analysis's memory simulation of the rewritten step): no free
    is later than the model assumes where it matters,
  - outputs bit-identical to the unplanned step's (default lowering).

Prints `OK PCT% budget=B plan_peak=P predicted=P measured=M leaked=0
ckpt_frees=N allocs=A frees=F` (N: ckpt.free ops in the step lowered; A, F:
ckpt-run's counts), or `FAIL PCT% ...` with the same numbers, and exits 1
after the last budget if any failed.

Views are modeled as bufferization makes them (docs/PLANNING.md, section
3): a tensor.extract_slice shares its source's buffer, and a
tensor.collapse_shape of a non-contiguous slice is a copy of its own. Before
that model, a ckpt.recompute whose body was only a view (the torch-imported
tinygpt at its least budgets) had a ckpt.free that freed nothing, and the
collapse's copy was reached by no ckpt.free; both pass now.

Mutations (the numbers to compare stay those of the real rewrite; only what
is lowered and run changes), for showing that the check can fail:

  --mutate=no-insert-frees   rewrite with ckpt-rematerialize alone (the pass
                             does nothing)
  --mutate=drop:K            delete the K-th `ckpt.free` line (1-based, in
                             text order; `drop:peak` picks the one delay:peak
                             picks)
  --mutate=delay:K           move the K-th `ckpt.free` past the next op of its
                             block (one op too late; tensor.empty, alloc_tensor and
                             arith.constant, which allocate nothing, do not
                             count)
  --mutate=delay:peak        move the last top-level `ckpt.free` before the
                             peak op (as ckpt-print-analysis names it) to
                             right after that op
  --mutate=sweep             every drop:K and every delay:K in turn; prints
                             one `SWEEP` line per budget with how many
                             mutants the check catches (slow: two runs per
                             free)

Usage: check_frees.py [--mutate=M] STEP.mlir ENTRY PERCENT...
Needs ckpt-opt and ckpt-run on PATH.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from ckpt import remat  # noqa: E402

FREE = re.compile(r"^(\s*)ckpt\.free ")
NO_BUFFER = re.compile(r"= (tensor\.empty|bufferization\.alloc_tensor|arith\.constant)\b")


def strict_pipeline():
    """(ckpt-lower-to-cpu's pass pipeline as ckpt-opt prints it, the same
    with free-leftovers=false). Without ckpt-check-peak (check-budget=false),
    which would stop the mutants that raise the peak before this check sees
    them."""
    p = subprocess.run(["ckpt-opt", "--ckpt-lower-to-cpu=check-budget=false",
                        "--dump-pass-pipeline",
                        "-o", os.devnull], input="module {}", capture_output=True, text=True)
    if p.returncode:
        raise remat.Failure(f"ckpt-opt --dump-pass-pipeline failed: {p.stderr.strip()}")
    lines = p.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("builtin.module("))
    text = " ".join(line.strip() for line in lines[start:])
    if text.count("free-leftovers=true") != 1:
        raise remat.Failure("ckpt-lower-to-cpu's pipeline does not run ckpt-lower-frees with "
                            f"free-leftovers=true exactly once: {text}")
    return text, text.replace("free-leftovers=true", "free-leftovers=false")


def check_printed_pipeline(mlir, printed, tmp):
    """The printed pipeline, run as text, must lower `mlir` exactly as
    --ckpt-lower-to-cpu does: else the strict lowering would differ from
    the real one in more than free-leftovers."""
    a, b = os.path.join(tmp, "default.mlir"), os.path.join(tmp, "printed.mlir")
    remat.run(["ckpt-opt", mlir, "--ckpt-lower-to-cpu", "-o", a])
    remat.run(["ckpt-opt", mlir, f"--pass-pipeline={printed}", "-o", b])
    with open(a) as fa, open(b) as fb:
        if fa.read() != fb.read():
            raise remat.Failure("ckpt-lower-to-cpu's printed pipeline lowers the step "
                                "differently from --ckpt-lower-to-cpu")


def analysis(rewritten):
    """(predicted peak, line of the peak op) of ckpt-print-analysis."""
    remarks = remat.run(["ckpt-opt", rewritten, "--ckpt-print-analysis",
                         "-o", os.devnull]).stderr
    peak, at = re.findall(r"forward ops: .*peak (\d+) B at #(\d+)", remarks)[-1]
    line = re.search(rf":(\d+):\d+: remark: #{at} ", remarks)
    return int(peak), int(line.group(1))


def indent(line):
    return len(line) - len(line.lstrip(" "))


def op_end(lines, i):
    """Index of the last line of the op starting at line i (its regions'
    block labels, at the op's indentation, and closing `}` lines included)."""
    ind, j = indent(lines[i]), i + 1
    while j < len(lines) and (indent(lines[j]) > ind or
                              (indent(lines[j]) == ind and lines[j].lstrip().startswith(("}", "^")))):
        j += 1
    return j - 1


def next_op(lines, i):
    """The first line of the op after line i in the same block (frees and
    ops that allocate no buffer skipped: moving a free past a tensor.empty
    changes nothing), or None when the block ends or the next op is its
    terminator."""
    ind, j = indent(lines[i]), i + 1
    while j < len(lines) and indent(lines[j]) == ind and (FREE.match(lines[j]) or
                                                          NO_BUFFER.search(lines[j])):
        j += 1
    if j >= len(lines) or indent(lines[j]) != ind or lines[j].lstrip().startswith(("}", "^")):
        return None
    if re.match(r"\s*(ckpt\.yield|ckpt\.return|func\.return|return|linalg\.yield)\b",
                lines[j]):
        return None
    return j


def move_after(lines, i, j):
    """Moves line i to right after the op starting at line j (j > i)."""
    end = op_end(lines, j)
    return lines[:i] + lines[i + 1:end + 1] + [lines[i]] + lines[end + 1:]


def frees(lines):
    return [i for i, line in enumerate(lines) if FREE.match(line)]


def count_frees(text):
    return len(frees(text.split("\n")))


def peak_free(lines, peak_line):
    """Index of the last top-level ckpt.free before the peak op's line."""
    top = indent(lines[peak_line])
    before = [i for i in frees(lines) if i < peak_line and indent(lines[i]) == top]
    if not before:
        raise remat.Failure("no top-level ckpt.free before the peak op")
    return before[-1]


def mutate(text, mode, peak_line):
    """The rewritten step's text mutated; None when the mutation does not
    apply (a free with no op after it in its block)."""
    lines = text.split("\n")
    kind, _, which = mode.partition(":")
    if which == "peak":
        i = peak_free(lines, peak_line - 1)
    else:
        i = frees(lines)[int(which) - 1]
    if kind == "drop":
        return "\n".join(lines[:i] + lines[i + 1:])
    j = peak_line - 1 if which == "peak" else next_op(lines, i)
    if j is None:
        return None
    return "\n".join(move_after(lines, i, j))


def run_strict(mlir, entry, pipeline, tmp):
    low = os.path.join(tmp, "strict.mlir")
    remat.run(["ckpt-opt", mlir, f"--pass-pipeline={pipeline}", "-o", low])
    return json.loads(remat.run(["ckpt-run", low, f"--entry={entry}", "--seed=7"]).stdout)


def verdict(base, m, plan_peak, predicted, n_frees):
    """The failed properties, empty when all hold."""
    bad = []
    if m["leaked_bytes"]:
        bad.append(f"leaks {m['leaked_bytes']} B")
    if m["frees"] != n_frees:
        bad.append(f"{m['frees']} deallocations for {n_frees} ckpt.free ops")
    if m["peak_bytes"] != predicted or plan_peak != predicted:
        bad.append("peaks differ")
    if m["outputs_sha256"] != base["outputs_sha256"]:
        bad.append("outputs differ")
    return bad


def numbers(budget, plan_peak, predicted, m, n_frees):
    return (f"budget={budget} plan_peak={plan_peak} predicted={predicted} "
            f"measured={m['peak_bytes']} leaked={m['leaked_bytes']} ckpt_frees={n_frees} "
            f"allocs={m['allocs']} frees={m['frees']}")


def check_budget(wrapped, entry, base, percent, mode, pipelines, tmp):
    """Returns True when the check passes at PERCENT%."""
    try:
        planned, _, plan = remat.plan(wrapped, f"{percent}%", tmp)
        label = f"{percent}%"
    except remat.Infeasible as e:
        planned, _, plan = remat.plan(wrapped, str(e.least), tmp)
        label = f"{percent}%->least"
    budget, plan_peak = plan["budget"], plan["peak"]
    rewritten = os.path.join(tmp, "rewritten.mlir")
    remat.run(["ckpt-opt", planned, "--ckpt-rematerialize", "--ckpt-insert-frees",
               "-o", rewritten])
    predicted, peak_line = analysis(rewritten)
    printed, pipeline = pipelines
    check_printed_pipeline(rewritten, printed, tmp)
    with open(rewritten) as f:
        text = f.read()
    n_frees = count_frees(text)

    if mode == "sweep":
        caught = {"drop": [0, 0], "delay": [0, 0]}
        harmless = []
        for kind in ("drop", "delay"):
            for k in range(1, n_frees + 1):
                mutated = mutate(text, f"{kind}:{k}", peak_line)
                if mutated is None:
                    continue
                path = os.path.join(tmp, "mutated.mlir")
                with open(path, "w") as f:
                    f.write(mutated)
                m = run_strict(path, entry, pipeline, tmp)
                caught[kind][1] += 1
                if verdict(base, m, plan_peak, predicted, count_frees(mutated)):
                    caught[kind][0] += 1
                else:
                    harmless.append(f"{kind}:{k}")
        print(f"SWEEP {label} budget={budget} ckpt_frees={n_frees} "
              f"drop_caught={caught['drop'][0]}/{caught['drop'][1]} "
              f"delay_caught={caught['delay'][0]}/{caught['delay'][1]}")
        if harmless:
            print(f"  not caught (measured equals the prediction, nothing leaks): "
                  f"{' '.join(harmless)}")
        return caught["drop"][0] == caught["drop"][1]

    lowered = rewritten
    if mode == "no-insert-frees":
        lowered = os.path.join(tmp, "mutated.mlir")
        remat.run(["ckpt-opt", planned, "--ckpt-rematerialize", "-o", lowered])
    elif mode != "none":
        lowered = os.path.join(tmp, "mutated.mlir")
        mutated = mutate(text, mode, peak_line)
        if mutated is None:
            raise remat.Failure(f"{mode} does not apply")
        with open(lowered, "w") as f:
            f.write(mutated)
    m = run_strict(lowered, entry, pipeline, tmp)
    with open(lowered) as f:
        n_lowered = count_frees(f.read())
    bad = verdict(base, m, plan_peak, predicted, n_lowered)
    line = numbers(budget, plan_peak, predicted, m, n_lowered)
    print(f"{'FAIL' if bad else 'OK'} {label} {line}" + (f": {', '.join(bad)}" if bad else ""))
    return not bad


def main():
    args = sys.argv[1:]
    mode = "none"
    if args and args[0].startswith("--mutate="):
        mode = args.pop(0)[len("--mutate="):]
    step, entry, percents = args[0], args[1], args[2:]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        try:
            pipelines = strict_pipeline()
            wrapped = remat.wrap(step, tmp)
            base = remat.execute(wrapped, entry, tmp)
            for percent in percents:
                ok &= check_budget(wrapped, entry, base, percent, mode, pipelines, tmp)
        except (remat.Failure, remat.Infeasible) as e:
            print(f"FAIL {e}")
            sys.exit(1)
    print("PASS" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
