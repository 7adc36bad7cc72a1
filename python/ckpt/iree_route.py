"""A rematerialized step compiled and run by IREE (llvm-cpu).

    python -m ckpt.iree_route STEP.mlir [--budget 50%] [--seed 0] [--keep DIR]
                              [--no-barriers]

STEP is a file of `func.func {ckpt.loss}` (linalg on tensors). The step is
wrapped, planned at the budget and rewritten (ckpt-rematerialize), then
handed to IREE as IREE's input: recompute regions inlined (each region's
inputs first pass through `util.optimization_barrier`, IREE's barrier, so
that IREE's CSE cannot merge a recomputation with the original computation,
as JAX does for XLA), ckpt's pinned allocations written back as tensor.empty
(IREE does its own buffer planning and rejects bufferization.alloc_tensor),
named linalg ops generalized (IREE 3.13's MLIR no longer has linalg.sub and
the other named elementwise ops of MLIR 22), and ckpt's attributes dropped.
`iree-compile --iree-hal-target-device=local
--iree-hal-local-target-device-backends=llvm-cpu` builds it; the IREE runtime
runs it on ckpt-run's inputs (same seed, `ckpt.mlir_runner.splitmix_inputs`)
and the outputs are compared with ckpt-run's (the step lowered by
ckpt-lower-to-cpu): equal within float32 rounding (IREE's code generator
orders sums and fuses multiply-adds its own way), reported as the largest
error relative to each output's largest magnitude.

The recomputation must still be in what IREE executes: the matmul dispatches
of IREE's flow-level program (`iree-compile --compile-to=flow`) are counted
for the rematerialized step and for the step as written, and the first must
exceed the second by exactly the contractions (linalg ops that reduce:
matmuls, convolutions, sums) ckpt-rematerialize added (with
--no-barriers, IREE's CSE merges them back and this fails).

Prints one JSON object; exits 1 when a property fails. Needs ckpt-opt and
ckpt-run on PATH and iree-base-compiler / iree-base-runtime installed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from .mlir_runner import splitmix_inputs
from .numerics import max_relative_error
from .remat import Failure, execute, plan, run, wrap

RECOMPUTE = re.compile(r"^(\s*)(%[\w#:]+) = ckpt\.recompute\(([^)]*)\) : \(([^)]*)\) -> ")
CKPT_ATTRS = re.compile(r"ckpt\.(budget|loss) = (\{[^}]*\}|[^,}]*)(, )?")
TYPE_SPLIT = re.compile(r",\s*(?![^<>]*>)")


def iree_tool(name):
    """The IREE command `name`: beside this Python's executable, else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    found = here if os.path.exists(here) else shutil.which(name)
    if not found:
        raise Failure(f"{name} not found: pip install iree-base-compiler iree-base-runtime")
    return found


def add_barriers(text):
    """Each tensor input of each ckpt.recompute through a
    util.optimization_barrier of its own (generic form: ckpt-opt parses it
    with --allow-unregistered-dialect); scalars pass as they are. Returns
    (text, number of barriers)."""
    out, n = [], 0
    for line in text.splitlines():
        m = RECOMPUTE.match(line)
        if m and m.group(3).strip():
            indent, operands, types = m.group(1), m.group(3), m.group(4)
            renamed = []
            for value, type_ in zip((v.strip() for v in operands.split(",")),
                                    TYPE_SPLIT.split(types)):
                if not type_.strip().startswith("tensor<"):
                    renamed.append(value)
                    continue
                name = f"%ckpt_barrier{n}"
                n += 1
                out.append(f'{indent}{name} = "util.optimization_barrier"({value}) : '
                           f"({type_.strip()}) -> {type_.strip()}")
                renamed.append(name)
            line = line.replace(f"ckpt.recompute({operands})",
                                f"ckpt.recompute({', '.join(renamed)})", 1)
        out.append(line)
    return "\n".join(out) + "\n", n


def iree_input(planned, tmp, barriers=True):
    """The IREE input of a planned step: (file, number of barriers)."""
    rewritten = os.path.join(tmp, "rematerialized.mlir")
    run(["ckpt-opt", planned, "--ckpt-rematerialize", "-o", rewritten])
    with open(rewritten) as f:
        text = f.read()
    text, barriers = add_barriers(text) if barriers else (text, 0)
    with_barriers = os.path.join(tmp, "barriers.mlir")
    with open(with_barriers, "w") as f:
        f.write(text)
    inlined = os.path.join(tmp, "inlined.mlir")
    run(["ckpt-opt", with_barriers, "--allow-unregistered-dialect", "--ckpt-inline-recompute",
         "--ckpt-unwrap-step", "--linalg-generalize-named-ops", "-o", inlined])
    with open(inlined) as f:
        text = f.read()
    text = text.replace("bufferization.alloc_tensor()", "tensor.empty()")
    text = CKPT_ATTRS.sub("", text).replace(" attributes {}", "")
    out = os.path.join(tmp, "iree-input.mlir")
    with open(out, "w") as f:
        f.write(text)
    return out, barriers


def contraction_dispatches(mlir, tmp, tag):
    """(dispatches of a contraction, all dispatches) that IREE's flow-level
    program of `mlir` runs: calls of the executables whose body reduces
    (a matmul or another contraction) and of all executables."""
    flow = os.path.join(tmp, f"{tag}.flow.mlir")
    run([iree_tool("iree-compile"), "--iree-hal-target-device=local",
         "--iree-hal-local-target-device-backends=llvm-cpu", "--compile-to=flow", mlir,
         "-o", flow])
    with open(flow) as f:
        text = f.read()
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"flow\.executable private @(\w+)", text)]
    reducing = set()
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else text.find("util.func", start)
        if '"reduction"' in text[start:end]:
            reducing.add(name)
    calls = re.findall(r"flow\.dispatch @(\w+)::", text)
    return sum(c in reducing for c in calls), len(calls)


def contractions(mlir):
    """The linalg.generic ops of `mlir` (named ops generalized) that reduce."""
    with open(mlir) as f:
        return len(re.findall(r"linalg\.generic \{[^}]*\"reduction\"", f.read()))


def generic_input(wrapped, tmp):
    """The step as written, in IREE's input form (for the dispatch count)."""
    out = os.path.join(tmp, "plain-generic.mlir")
    run(["ckpt-opt", wrapped, "--ckpt-unwrap-step", "--linalg-generalize-named-ops", "-o", out])
    with open(out) as f:
        text = CKPT_ATTRS.sub("", f.read()).replace(" attributes {}", "")
    with open(out, "w") as f:
        f.write(text)
    return out


def signature(text):
    """(entry name, argument shapes, element types) of the one func.func."""
    m = re.search(r"func\.func @(\w+)\(([^)]*)\)", text)
    shapes, dtypes = [], []
    for t in re.findall(r"tensor<([^>]*)>", m.group(2)):
        *dims, elt = t.split("x")
        shapes.append(tuple(int(d) for d in dims))
        dtypes.append({"f32": np.float32, "i64": np.int64, "i32": np.int32}[elt])
    return m.group(1), shapes, dtypes


def run_iree(vmfb, entry, inputs):
    import iree.runtime as ireert
    with open(vmfb, "rb") as f:
        module = ireert.load_vm_flatbuffer(f.read(), driver="local-task")
    results = module[entry](*inputs)
    if not isinstance(results, (list, tuple)):
        results = [results]
    return [np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in results]


def ckpt_outputs(tmp, entry, seed):
    """ckpt-run's run of the step iree_input rematerialized (its frees
    inserted, the CPU lowering), with its outputs."""
    freed = os.path.join(tmp, "freed.mlir")
    run(["ckpt-opt", os.path.join(tmp, "rematerialized.mlir"), "--ckpt-insert-frees",
         "-o", freed])
    return execute(freed, entry, tmp, seed=seed, print_outputs=True)


def check(step, budget, seed, tmp, barriers=True):
    wrapped = wrap(step, tmp)
    planned, _, numbers = plan(wrapped, budget, tmp)
    budget_bytes = numbers["budget"]
    src, barriers = iree_input(planned, tmp, barriers)
    plain = generic_input(wrapped, tmp)
    added = contractions(src) - contractions(plain)
    with open(src) as f:
        entry, shapes, dtypes = signature(f.read())
    vmfb = os.path.join(tmp, "step.vmfb")
    run([iree_tool("iree-compile"), "--iree-hal-target-device=local",
         "--iree-hal-local-target-device-backends=llvm-cpu", src, "-o", vmfb])
    inputs = splitmix_inputs(shapes, seed, dtypes)
    got = run_iree(vmfb, entry, inputs)
    ours = ckpt_outputs(tmp, entry, seed)
    expected = [o["values"] for o in ours["outputs"]]
    if len(got) != len(expected):
        raise Failure(f"IREE returned {len(got)} results, ckpt-run {len(expected)}")
    worst = max_relative_error(got, expected)
    remat_mm, remat_dispatches = contraction_dispatches(src, tmp, "remat")
    plain_mm, plain_dispatches = contraction_dispatches(plain, tmp, "plain")
    report = {"step": os.path.basename(step), "budget": budget_bytes, "barriers": barriers,
              "outputs": len(got), "max_relative_error": worst,
              "recomputed_contractions": added,
              "contraction_dispatches": {"rematerialized": remat_mm, "as_written": plain_mm},
              "dispatches": {"rematerialized": remat_dispatches, "as_written": plain_dispatches},
              "ckpt_run_peak_bytes": ours["peak_bytes"]}
    problems = []
    if worst > 1e-5:
        problems.append(f"outputs differ from ckpt-run's by {worst:.3g} (relative)")
    if remat_mm - plain_mm != added:
        problems.append(f"IREE's program runs {remat_mm - plain_mm} more contraction "
                        f"dispatches than the step as written, not the {added} contractions "
                        "ckpt-rematerialize added: IREE optimized recomputation away")
    report["ok"] = not problems
    report["problems"] = problems
    return report


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.iree_route",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("step")
    p.add_argument("--budget", default="50%")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep", help="copy the IREE input and module to this directory")
    p.add_argument("--no-barriers", action="store_true",
                   help="hand IREE the recomputation without barriers (shows why they "
                        "are there)")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            report = check(a.step, a.budget, a.seed, tmp, not a.no_barriers)
        except Failure as e:
            print(json.dumps({"ok": False, "problems": [str(e)]}))
            return 1
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            for name in ("iree-input.mlir", "step.vmfb"):
                shutil.copy(os.path.join(tmp, name), a.keep)
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
