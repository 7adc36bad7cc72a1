"""Plan, rewrite, lower and run one training step with ckpt-opt and ckpt-run.

The steps every end-to-end check of a plan takes, in one place: the property
test (`ckpt.zoo.proptest`), `test/Run/check_remat.py`,
`test/Inputs/steps/check_step.py --remat` and `bench/remat_table.py`; and
`replace_block`, which the benchmark scripts write their tables into the
docs with. Standard library only: the scripts import it from the source tree,
so that they run without a built `ckpt` package (under the sanitizer build,
say).
Needs `ckpt-opt` and `ckpt-run` on PATH.
"""

import json
import os
import re
import subprocess


class Failure(Exception):
    """A command failed, or a property of a planned step does not hold."""


class Infeasible(Exception):
    """ckpt-plan said the budget is infeasible; `least` is the least
    feasible budget (bytes) its error names."""

    def __init__(self, least, message):
        super().__init__(message)
        self.least = least


def run(args, timeout=None):
    """Runs `args`; Failure when it exits non-zero or, with `timeout`
    (seconds), does not end in time (a guard against a hung process, not a
    measure of speed)."""
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(f"{' '.join(args)} did not end within {timeout} s") from None
    if p.returncode:
        raise Failure(f"{' '.join(args)} exited {p.returncode}: {p.stderr.strip()[-2000:]}")
    return p


def wrap(step, tmp):
    """The step file with its `ckpt.loss` functions wrapped into ckpt.step."""
    wrapped = os.path.join(tmp, "wrapped.mlir")
    run(["ckpt-opt", step, "--ckpt-wrap-step", "-o", wrapped])
    return wrapped


def execute(mlir, entry, tmp, lower="--ckpt-lower-to-cpu", repeat=1, seed=7,
            print_outputs=False, gpu=False, opt_level=None, timeout=None,
            profile=None):
    """Lowers `mlir` and runs `entry` with ckpt-run --seed=SEED: its JSON
    (with every result's values when `print_outputs`). With `gpu`, `lower`
    must be an NVPTX lowering and the step runs with ckpt-run --gpu.
    `lower=None`: `mlir` is lowered already. `opt_level`: ckpt-run's
    --opt-level (its default, 0, when None). `timeout`: run's, for ckpt-run.
    `profile`: a file for ckpt-run --profile (`lower` with profile=true)."""
    low = mlir
    if lower is not None:
        low = os.path.join(tmp, "lowered-gpu.mlir" if gpu else "lowered.mlir")
        run(["ckpt-opt", mlir, lower, "-o", low])
    args = ["ckpt-run", low, f"--entry={entry}", f"--seed={seed}"]
    if repeat > 1:
        args.append(f"--repeat={repeat}")
    if opt_level is not None:
        args.append(f"--opt-level={opt_level}")
    if print_outputs:
        args.append("--print-outputs")
    if profile:
        args.append(f"--profile={profile}")
    if gpu:
        args.append("--gpu")
    return json.loads(run(args, timeout).stdout)


# The least feasible budget (bytes) an infeasible-budget error names:
# "... the least feasible budget is 13153337344 B (12.25 GiB)" or "... is 80 B";
# with offload=auto, "... the least feasible budget with offloading is 48 B;
# of recomputation alone 80 B" (the first: the least budget that plans).
# Read from the message: ckpt-opt refuses the budget with no structured form
# of it (ckpt-report needs a plan; in process, ckpt.PipelineError carries it
# as least_feasible_bytes).
LEAST_FEASIBLE = re.compile(r"the least feasible budget (?:with offloading )?is (\d+) B")


# What ckpt-report is asked for beside each plan: the plan's numbers, not
# the least budgets or lower bounds (which plan again).
REPORT_OPTIONS = "least=false lower-bound=false"


def report_flag(path):
    """The ckpt-opt argument that writes ckpt-report's JSON to `path` (after
    a --ckpt-plan=...; nothing planned again)."""
    return f"--ckpt-report=output={path} {REPORT_OPTIONS}"


def read_report(path):
    """The JSON ckpt-report wrote to `path` (a list, one entry per step)."""
    with open(path) as f:
        return json.load(f)


def plan_numbers(report):
    """{budget, peak, time, store_all_peak, store_all_time, transfers (how
    many values move to host memory), host_peak} of the first planned step
    of `report`, ckpt-report's JSON (its list, or one step's entry): the
    numbers of the step's #ckpt.plan. Raises Failure when there is none."""
    entry = report[0] if isinstance(report, list) and report else report
    if not isinstance(entry, dict) or "plan" not in entry:
        raise Failure("no planned step in the report")
    chosen, store_all = entry["plan"], entry["store_all"]
    return {"budget": entry["budget_bytes"], "peak": chosen["peak_bytes"],
            "time": float(chosen["time_s"]),
            "store_all_peak": store_all["peak_bytes"],
            "store_all_time": float(store_all["time_s"]),
            "transfers": len(chosen.get("transfers", [])),
            "host_peak": chosen.get("host_peak_bytes", 0)}


def plan(wrapped, budget, tmp, options="", flags=()):
    """ckpt-plan at `budget` (ckpt-plan's syntax: "70%", "1024"); returns
    (planned file, its text, its numbers: plan_numbers of the ckpt-report
    written beside it). `flags`: more ckpt-opt arguments (passes after the
    plan, printing options). Raises Infeasible when the error names the
    least feasible budget, Failure otherwise."""
    planned = os.path.join(tmp, "planned.mlir")
    report = os.path.join(tmp, "planned.json")
    spec = f"budget={budget}" + (f" {options}" if options else "")
    p = subprocess.run(["ckpt-opt", wrapped, f"--ckpt-plan={spec}", report_flag(report),
                        *flags, "-o", planned], capture_output=True, text=True)
    if p.returncode:
        least = LEAST_FEASIBLE.search(p.stderr)
        if not least:
            raise Failure(f"ckpt-plan at {budget} failed without naming the least feasible "
                          f"budget: {p.stderr.strip()}")
        raise Infeasible(int(least.group(1)), p.stderr.strip())
    with open(planned) as f:
        text = f.read()
    return planned, text, plan_numbers(read_report(report))


def rewrite(planned, tmp):
    """ckpt-rematerialize + ckpt-insert-frees; returns (rewritten file, its
    predicted peak: the memory simulation ckpt-print-analysis reports)."""
    rewritten = os.path.join(tmp, "rewritten.mlir")
    run(["ckpt-opt", planned, "--ckpt-rematerialize", "--ckpt-insert-frees", "-o", rewritten])
    # The simulation of the rewritten step is in ckpt-print-analysis's remark
    # only (ckpt-report evaluates a plan, not a rewritten step): read from it.
    remarks = run(["ckpt-opt", rewritten, "--ckpt-print-analysis", "-o", os.devnull]).stderr
    return rewritten, int(re.findall(r"forward ops: .*peak (\d+) B at", remarks)[-1])


def check(base, measured, budget, predicted, host_peak=None):
    """The properties of a planned run against the unplanned one: identical
    outputs, no leak, measured peak within the budget, predicted peak equal
    to the measured one; with `host_peak` (the plan's, offload=auto), the
    host copies peak there and none is left at exit. Raises Failure naming
    the first that fails."""
    peak = measured["peak_bytes"]
    if measured["outputs_sha256"] != base["outputs_sha256"]:
        raise Failure("outputs differ from the unplanned step")
    if measured["leaked_bytes"]:
        raise Failure(f"leaks {measured['leaked_bytes']} B")
    if peak > budget:
        raise Failure(f"measured peak {peak} over the budget {budget}")
    if predicted != peak:
        raise Failure(f"predicted peak {predicted} vs measured {peak}")
    if host_peak is None:
        return
    if measured["host_peak_bytes"] != host_peak:
        raise Failure(f"host copies peak at {measured['host_peak_bytes']} B, "
                      f"planned {host_peak} B")
    if measured["host_live_bytes_at_exit"]:
        raise Failure(f"{measured['host_live_bytes_at_exit']} B of host copies left")


def publish(text, doc, name, failures):
    """A benchmark's end: prints its table `text`, writes it into the
    Markdown file `doc` (when given) between the `name` markers
    (replace_block), prints each of `failures` as `FAIL ...`; returns the
    exit status (1 when any failed). Exits with the message when `doc` lacks
    the markers."""
    import sys
    print(text)
    if doc:
        try:
            replace_block(doc, name, text)
        except Failure as e:
            sys.exit(str(e))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


def replace_block(path, name, text):
    """Replaces what lies between `<!-- NAME:begin -->` and `<!-- NAME:end -->`
    in the Markdown file `path` with `text` (the markers stay). Raises
    Failure when the file lacks them."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        raise Failure(f"{path} has no {begin} ... {end} block")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{begin}\n{text.rstrip()}\n{end}{tail}")
