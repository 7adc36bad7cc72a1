"""Checks a zoo step's numerics against PyTorch on the same weights.

The step is compiled with Debian's stock mlir-opt (an upstream pipeline:
one-shot bufferization, linalg to loops, to LLVM; none of ckpt's passes) and
run with mlir-runner inside a wrapper `@main` that holds the inputs as
bit-exact hex constants and prints every result. The reference replays the
model's tape in torch, in float64, on the same (float32) inputs, and takes
the gradients with torch.autograd: an implementation of the forward and of
the derivatives independent of the MLIR the builder wrote.

Needs numpy and torch (Debian's python3-numpy, python3-torch).
"""

import os
import re
import subprocess
import tempfile

MLIR_BIN = os.environ.get("CKPT_MLIR_BIN", "/usr/lib/llvm-22/bin")
MLIR_LIB = os.environ.get("CKPT_MLIR_LIB", "/usr/lib/llvm-22/lib")

PIPELINE = [
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
    "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-math-to-libm",
    "--convert-arith-to-llvm", "--convert-index-to-llvm", "--finalize-memref-to-llvm",
    "--convert-func-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts",
]

NUM_RE = re.compile(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", re.I)


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


def _hex(arr):
    import numpy as np
    from .builder import tensor_type
    a = np.ascontiguousarray(arr, dtype="<f4")
    return f'dense<"0x{a.tobytes().hex().upper()}"> : {tensor_type(a.shape)}'


def run_mlir(builder, text, inputs):
    """Runs the step on `inputs` with stock mlir-opt + mlir-runner; returns
    the results as float64 numpy arrays."""
    import numpy as np
    from .builder import tensor_type
    step = text.replace(" attributes {ckpt.loss = 0 : i64}", "")
    if "ckpt." in re.sub(r"//.*", "", step):
        raise RuntimeError("the step holds ckpt attributes stock mlir-opt does not know")
    shapes = [()] + [p.shape for p in builder.params]
    types = [tensor_type(s) for s in shapes]
    lines = [step, "func.func private @printMemrefF32(memref<*xf32>)", "func.func @main() {"]
    for i, (v, _) in enumerate(builder.args):
        lines.append(f"  %in{i} = arith.constant {_hex(inputs[v.name])}")
    args = ", ".join(f"%in{i}" for i in range(len(builder.args)))
    arg_types = ", ".join(v.type for v, _ in builder.args)
    lines.append(f"  %r:{len(shapes)} = func.call @{builder.name}_step({args}) : "
                 f"({arg_types}) -> ({', '.join(types)})")
    for i, (ty, s) in enumerate(zip(types, shapes)):
        mt = "memref<" + "".join(f"{d}x" for d in s) + "f32>"
        lines += [f"  %m{i} = bufferization.to_buffer %r#{i} : {ty} to {mt}",
                  f"  %u{i} = memref.cast %m{i} : {mt} to memref<*xf32>",
                  f"  func.call @printMemrefF32(%u{i}) : (memref<*xf32>) -> ()"]
    lines += ["  return", "}", ""]
    with tempfile.TemporaryDirectory() as tmp:
        src, low = os.path.join(tmp, "wrapper.mlir"), os.path.join(tmp, "lowered.mlir")
        with open(src, "w") as f:
            f.write("\n".join(lines))
        p = subprocess.run([os.path.join(MLIR_BIN, "mlir-opt"), src, *PIPELINE, "-o", low],
                           capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"mlir-opt failed:\n{p.stderr[:4000]}")
        libs = ",".join(os.path.join(MLIR_LIB, l)
                        for l in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        p = subprocess.run([os.path.join(MLIR_BIN, "mlir-runner"), low, "-e", "main",
                            "-entry-point-result=void", f"-shared-libs={libs}"],
                           capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"mlir-runner failed:\n{p.stderr[:4000]}")
    chunks = p.stdout.split("Unranked Memref")[1:]
    if len(chunks) != len(shapes):
        raise RuntimeError(f"expected {len(shapes)} printed results, got {len(chunks)}")
    results = []
    for chunk, s in zip(chunks, shapes):
        nums = [float(x) for x in NUM_RE.findall(chunk.split("data =", 1)[1])]
        results.append(np.array(nums, dtype=np.float64).reshape(s))
    return results


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
