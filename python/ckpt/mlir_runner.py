"""Runs a training step on given inputs with stock MLIR tools.

The harness of the numeric checks (test/Inputs/steps/check_step.py, the
model zoo's `--check`, the PyTorch importer's tests): a wrapper module holds
the step (its `ckpt.*` attributes stripped) plus a `@main` that builds the
inputs as bit-exact hex `arith.constant dense<"0x...">` tensors, calls the
step and prints every result with `printMemrefF32`; Debian's stock
`mlir-opt` lowers it with upstream passes only (PIPELINE) and `mlir-runner`
runs it. numpy only, and nothing here imports the rest of the `ckpt`
package.
"""

import os
import re
import subprocess

import numpy as np


class CheckError(Exception):
    pass


def strip_ckpt_attr(text):
    text = re.sub(r"\s*attributes\s*\{\s*ckpt\.loss\s*=\s*\d+\s*:\s*i64\s*\}", "", text)
    text = re.sub(r"ckpt\.loss\s*=\s*\d+\s*:\s*i64\s*,\s*", "", text)
    text = re.sub(r",\s*ckpt\.loss\s*=\s*\d+\s*:\s*i64", "", text)
    if "ckpt." in re.sub(r"//.*", "", text):
        raise CheckError("could not strip the ckpt.* attributes")
    return text


def mlir_tensor_type(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def hex_constant(arr):
    a = np.ascontiguousarray(arr, dtype="<f4")
    return f'dense<"0x{a.tobytes().hex().upper()}"> : {mlir_tensor_type(a.shape)}'


def build_wrapper(step_text, name, arg_shapes, inputs, res_types, results):
    lines = [strip_ckpt_attr(step_text), "",
             "func.func private @printMemrefF32(memref<*xf32>)", "",
             "func.func @main() {"]
    for i, arr in enumerate(inputs):
        lines.append(f"  %in{i} = arith.constant {hex_constant(arr)}")
    arg_list = ", ".join(f"%in{i}" for i in range(len(inputs)))
    arg_tys = ", ".join(mlir_tensor_type(s) for s in arg_shapes)
    lines.append(f"  %r:{len(results)} = func.call @{name}({arg_list}) : "
                 f"({arg_tys}) -> ({', '.join(res_types)})")
    for i, (ty, shape) in enumerate(zip(res_types, results)):
        val = f"%r#{i}"
        if ty == "f32":
            lines.append(f"  %s{i} = tensor.from_elements {val} : tensor<f32>")
            val, ty = f"%s{i}", "tensor<f32>"
        mt = "memref<" + "".join(f"{d}x" for d in shape) + "f32>"
        lines.append(f"  %m{i} = bufferization.to_buffer {val} : {ty} to {mt}")
        lines.append(f"  %u{i} = memref.cast %m{i} : {mt} to memref<*xf32>")
        lines.append(f"  func.call @printMemrefF32(%u{i}) : (memref<*xf32>) -> ()")
    lines += ["  return", "}", ""]
    return "\n".join(lines)


PIPELINE = [
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-loops",
    "--expand-strided-metadata",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--convert-math-to-llvm",
    "--convert-math-to-libm",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--finalize-memref-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
]

NUM_RE = re.compile(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", re.I)


def parse_printed(out, expected_shapes):
    chunks = out.split("Unranked Memref")[1:]
    if len(chunks) != len(expected_shapes):
        raise CheckError(f"expected {len(expected_shapes)} printed results, got "
                         f"{len(chunks)}; runner output:\n{out[:2000]}")
    vals = []
    for i, (chunk, shape) in enumerate(zip(chunks, expected_shapes)):
        sm = re.search(r"sizes\s*=\s*\[([^\]]*)\]", chunk)
        sizes = tuple(int(s) for s in sm.group(1).split(",") if s.strip()) if sm else None
        if sizes != tuple(shape):
            raise CheckError(f"result {i}: printed sizes {sizes} != expected {shape}")
        data = chunk.split("data =", 1)[1]
        nums = [float(s) for s in NUM_RE.findall(data)]
        if len(nums) != int(np.prod(shape, dtype=np.int64)):
            raise CheckError(f"result {i}: parsed {len(nums)} values, "
                             f"expected {int(np.prod(shape))}")
        vals.append(np.array(nums, dtype=np.float64).reshape(shape))
    return vals


def run_mlir(wrapper, workdir, mlir_bin, mlir_lib):
    src = os.path.join(workdir, "wrapper.mlir")
    low = os.path.join(workdir, "lowered.mlir")
    with open(src, "w") as f:
        f.write(wrapper)
    opt = [os.path.join(mlir_bin, "mlir-opt"), src, *PIPELINE, "-o", low]
    p = subprocess.run(opt, capture_output=True, text=True)
    if p.returncode != 0:
        raise CheckError(f"mlir-opt failed ({' '.join(opt)}):\n{p.stderr[:4000]}")
    libs = ",".join(os.path.join(mlir_lib, l) for l in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    run = [os.path.join(mlir_bin, "mlir-runner"), low, "-e", "main",
           "-entry-point-result=void", f"-shared-libs={libs}"]
    p = subprocess.run(run, capture_output=True, text=True)
    if p.returncode != 0:
        raise CheckError(f"mlir-runner failed ({' '.join(run)}):\n{p.stderr[:4000]}")
    return p.stdout


def splitmix_inputs(shapes, seed, dtypes=None, ranges=None):
    """ckpt-run's inputs (`ckpt-run --seed=SEED`): one splitmix64 stream over
    the arguments in order, each float32 (bits >> 40) * 2^-24 - 0.5, or, for
    the arguments whose entry of `dtypes` is an integer numpy type (int64,
    int32), bits % 17 - 8 in that type, or LO + bits % (HI - LO) where the
    entry of `ranges` is (LO, HI) (the argument's `ckpt.range`, valid values
    [LO, HI)). `dtypes` defaults to all float32, `ranges` to none."""
    total = sum(int(np.prod(s)) for s in shapes)
    k = np.arange(1, total + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + k * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    v = (z >> np.uint64(40)).astype(np.float32) * np.float32(2.0 ** -24) - np.float32(0.5)
    out, o = [], 0
    for i, s in enumerate(shapes):
        n = int(np.prod(s))
        dt = np.dtype(dtypes[i]) if dtypes is not None else np.dtype(np.float32)
        rng = ranges[i] if ranges is not None else None
        if np.issubdtype(dt, np.integer) and rng is not None:
            lo, hi = int(rng[0]), int(rng[1])
            if not lo < hi:
                raise ValueError(f"argument {i}: empty range [{lo}, {hi})")
            drawn = (z[o:o + n] % np.uint64(hi - lo)).astype(np.int64) + np.int64(lo)
            out.append(drawn.astype(dt).reshape(s))
        elif np.issubdtype(dt, np.integer):
            out.append(((z[o:o + n] % np.uint64(17)).astype(np.int64) - 8).astype(dt).reshape(s))
        else:
            out.append(v[o:o + n].reshape(s))
        o += n
    return out
