"""A PyTorch training step exported by torch-mlir, rematerialized by ckpt.

    python -m ckpt.torch_mlir_route MODEL [--batch 2] [--budget 60%] [--seed 0]
                                          [--loss cross_entropy] [-o FILE]

MODEL is a built-in model of `python -m ckpt.torch_import` (tinymlp,
tinyresnet, tinytransformer, tinygpt, ...). Its training step is captured as
ckpt's importer captures it (make_fx of functional_call + loss +
autograd.grad, the joint forward and backward graph, inputs then targets then
parameters), and handed to torch-mlir's FX importer
(`torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")`),
not to ckpt's own translation. The MLIR it writes (linalg on tensors, from
torch-mlir's own, newer MLIR) gets `ckpt.loss = 0` on its function and goes
through ckpt-opt of LLVM 22: ckpt-wrap-step, ckpt-plan at the budget (the
least feasible budget when that is infeasible), ckpt-rematerialize,
ckpt-insert-frees, ckpt-lower-to-cpu, and ckpt-run. It checks:

* the unplanned step's results equal eager PyTorch's on the same inputs
  (ckpt-run's splitmix inputs) within float32 rounding (largest error
  relative to each result's largest magnitude, at most 1e-4);
* the rematerialized step's results are bit-identical to the unplanned
  step's, and its measured peak is within the budget and equal to the plan's
  predicted peak.

Prints one JSON object; exits 1 when a property fails. Needs torch-mlir
(python/requirements.txt), ckpt-opt and ckpt-run on PATH.
"""

import argparse
import json
import os
import re
import sys
import tempfile

from .remat import Failure, Infeasible, execute, plan, run, wrap


def export(model_name, batch, loss, out):
    """The joint step of `model_name` through torch-mlir: writes `out` and
    returns (entry, graph module, example arguments)."""
    from torch_mlir import fx

    from .torch_import.models import build_model
    from .torch_import.losses import parse_loss
    from .torch_import.trace import _trace

    model, x, target = build_model(model_name, batch=batch)
    if parse_loss(loss).indices and target.is_floating_point():
        target = target.argmax(-1)
    gm, _, _, inputs, target, _, _ = _trace(model, x, target, loss, "real")
    params = [p.detach() for p in model.parameters()]
    args = [t.detach() for t in inputs] + [target] + params
    entry = f"{model_name}_step"
    try:
        module = fx.export_and_import(gm, *args, output_type="linalg-on-tensors",
                                      func_name=entry)
    except Exception as e:  # noqa: BLE001 - torch-mlir's own errors, reported
        text = str(e)
        first = next((line.strip() for line in text.splitlines()
                      if "failed to legalize" in line), text.splitlines()[0])
        raise Failure(f"torch-mlir cannot lower the step to linalg: {first[:400]}") from None
    text = str(module)
    # The loss is the first result of ckpt's joint step.
    text, n = re.subn(rf"(func\.func @{entry}\([^\n]*\)) \{{",
                      r"\1 attributes {ckpt.loss = 0 : i64} {", text, count=1)
    if n != 1:
        raise Failure(f"torch-mlir's output has no func.func @{entry}")
    with open(out, "w") as f:
        f.write(text)
    return entry, gm, args


def eager(gm, args, outputs, seed):
    """The largest error of ckpt-run's `outputs` against the graph module run
    eagerly on ckpt-run's inputs (same seed)."""
    import numpy as np
    import torch

    from .mlir_runner import splitmix_inputs
    from .numerics import max_relative_error

    dtypes = [np.int64 if not a.is_floating_point() else np.float32 for a in args]
    ranges = [None] * len(args)
    classes = gm.meta.get("ckpt_target_classes")
    for i, a in enumerate(args):
        if not a.is_floating_point() and classes:
            ranges[i] = (0, classes)
    drawn = splitmix_inputs([tuple(a.shape) for a in args], seed, dtypes, ranges)
    with torch.no_grad():
        want = gm(*[torch.from_numpy(np.ascontiguousarray(d)) for d in drawn])
    want = want if isinstance(want, (list, tuple)) else [want]
    return max_relative_error([o["values"] for o in outputs],
                              [w.detach().double().numpy() for w in want])


def check(model_name, batch, budget, loss, seed, tmp, keep=None):
    src = keep or os.path.join(tmp, "torch-mlir.mlir")
    entry, gm, args = export(model_name, batch, loss, src)
    wrapped = wrap(src, tmp)
    base = execute(wrapped, entry, tmp, seed=seed, print_outputs=True)
    worst = eager(gm, args, base["outputs"], seed)
    try:
        planned, _, numbers = plan(wrapped, budget, tmp)
    except Infeasible as e:
        planned, _, numbers = plan(wrapped, str(e.least), tmp)
    budget_bytes, predicted = numbers["budget"], numbers["peak"]
    rewritten = os.path.join(tmp, "rewritten.mlir")
    run(["ckpt-opt", planned, "--ckpt-rematerialize", "--ckpt-insert-frees",
         "-o", rewritten])
    with open(rewritten) as f:
        recomputes = f.read().count("ckpt.recompute")
    m = execute(rewritten, entry, tmp, seed=seed)
    problems = []
    if worst > 1e-4:
        problems.append(f"the step differs from eager PyTorch by {worst:.3g} (relative)")
    if m["outputs_sha256"] != base["outputs_sha256"]:
        problems.append("the rematerialized step's outputs differ from the unplanned step's")
    if m["peak_bytes"] > budget_bytes:
        problems.append(f"measured peak {m['peak_bytes']} B over the budget {budget_bytes} B")
    if m["peak_bytes"] != predicted:
        problems.append(f"measured peak {m['peak_bytes']} B, predicted {predicted} B")
    return {"model": model_name, "entry": entry, "budget": budget_bytes,
            "unplanned_peak": base["peak_bytes"], "predicted_peak": predicted,
            "measured_peak": m["peak_bytes"], "recompute_regions": recomputes,
            "max_relative_error_vs_eager": worst, "ok": not problems,
            "problems": problems}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.torch_mlir_route",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--budget", default="60%")
    p.add_argument("--loss", default="cross_entropy")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", dest="out", help="keep torch-mlir's MLIR (with ckpt.loss) here")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            report = check(a.model, a.batch, a.budget, a.loss, a.seed, tmp, a.out)
        except Failure as e:
            print(json.dumps({"ok": False, "problems": [str(e)]}))
            return 1
    print(json.dumps(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
