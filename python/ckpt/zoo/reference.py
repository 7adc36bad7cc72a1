"""Checks a zoo step's numerics against PyTorch on the same weights.

The step is compiled with Debian's stock mlir-opt (an upstream pipeline:
one-shot bufferization, linalg to loops, to LLVM; none of ckpt's passes) and
run with mlir-runner inside a wrapper `@main` that holds the inputs as
bit-exact hex constants and prints every result. The reference replays the
model's tape in torch, in float64, on the same (float32) inputs, and takes
the gradients with torch.autograd: an implementation of the forward and of
the derivatives independent of the MLIR the builder wrote.

Needs numpy and torch (python/requirements.txt, in .venv).
"""

import os
import tempfile

from .. import mlir_runner

MLIR_BIN = os.environ.get("CKPT_MLIR_BIN", "/usr/lib/llvm-22/bin")
MLIR_LIB = os.environ.get("CKPT_MLIR_LIB", "/usr/lib/llvm-22/lib")


def draw_inputs(builder, seed=0):
    """Deterministic float32 arguments: uniform in each argument's range."""
    import numpy as np
    rng = np.random.default_rng(seed)
    return {v.name: rng.uniform(*builder.init[v.name], size=v.shape).astype(np.float32)
            for v, _ in builder.args}


def torch_reference(builder, inputs):
    """(loss, [dparam...]) in float64 numpy, by torch.autograd."""
    import torch
    values = {n: torch.tensor(a, dtype=torch.float64, requires_grad=True)
              for n, a in inputs.items()}
    loss = builder.torch_loss(values)
    grads = torch.autograd.grad(loss, [values[p.name] for p in builder.params])
    return [loss.detach().numpy()] + [g.numpy() for g in grads]


def run_mlir(builder, text, inputs):
    """Runs the step on `inputs` with stock mlir-opt + mlir-runner
    (`ckpt.mlir_runner`); returns the results as float64 numpy arrays."""
    shapes = [()] + [p.shape for p in builder.params]
    wrapper = mlir_runner.build_wrapper(
        text, f"{builder.name}_step", [v.shape for v, _ in builder.args],
        [inputs[v.name] for v, _ in builder.args],
        [mlir_runner.mlir_tensor_type(s) for s in shapes], shapes)
    with tempfile.TemporaryDirectory() as tmp:
        out = mlir_runner.run_mlir(wrapper, tmp, MLIR_BIN, MLIR_LIB)
    return mlir_runner.parse_printed(out, shapes)


def check(builder, text, seed=0, rtol=1e-3, atol=1e-4):
    """Compares the MLIR step's loss and gradients with torch's. Returns a
    dict: ok, max_abs, max_rel, failures (one line per bad result). Result
    i passes when |mlir - ref| <= atol * max(1, max|ref|) + rtol * |ref|
    elementwise (printMemrefF32 prints 6 significant digits)."""
    import numpy as np
    inputs = draw_inputs(builder, seed)
    ref = torch_reference(builder, inputs)
    got = run_mlir(builder, text, inputs)
    names = ["loss"] + ["d" + p.name[1:] for p in builder.params]
    failures, max_abs, max_rel = [], 0.0, 0.0
    for name, g, r in zip(names, got, ref):
        diff = np.abs(g - r)
        scale = max(1.0, float(np.max(np.abs(r))))
        max_abs = max(max_abs, float(np.max(diff)))
        big = np.abs(r) >= 1e-2 * float(np.max(np.abs(r)))
        if np.any(big):
            max_rel = max(max_rel, float(np.max(diff[big] / np.abs(r[big]))))
        if not (np.all(np.isfinite(g)) and np.all(diff <= atol * scale + rtol * np.abs(r))):
            i = np.unravel_index(int(np.argmax(diff)), diff.shape) if diff.shape else ()
            failures.append(f"{name}{list(i)}: mlir {g[i]:.7g} vs torch {r[i]:.7g}")
    return {"ok": not failures, "max_abs": max_abs, "max_rel": max_rel,
            "failures": failures, "loss": float(ref[0])}
