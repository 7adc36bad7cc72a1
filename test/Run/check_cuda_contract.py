#!/usr/bin/env python3
"""The CUDA runtime's cuBLAS contraction, _mlir_ciface_ckpt_cuda_contract_f32
(what ckpt-lower-to-nvptx{kernels=blas} calls), run on the host: the
runtime as built, loaded beside a driver whose context can be made current
(build/lib/cuda-host/libcuda.so.1, on LD_LIBRARY_PATH) and, through
CKPT_CUBLAS, a cuBLAS that computes on host memory with cuBLAS's own
argument checks (build/lib/cuda-host/libcublas.so.13). So the descriptors'
reading, the operands' order and transposes, the leading dimensions, the
batch strides and the arguments' ABI are checked; only the GPU is not.

For random contractions C += A B with zero, one or two batch dimensions,
each operand's dimensions in a random order in its memref and stored in
another random order (with padding): C must equal numpy's einsum exactly
(small integers: the float sums are exact). A layout with no unit stride
must print one error, count it (ckptCudaErrorCount) and leave C as it was.
Prints `CASES n mapped=M refused=R sgemm_calls=S errors=E`.
Usage: check_cuda_contract.py BUILD_DIR
"""
import ctypes
import os
import sys

import numpy as np


class Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def descriptor(view):
    """The ranked memref descriptor of a float32 numpy view (kept alive by
    the caller)."""
    words = [view.ctypes.data, view.ctypes.data, 0] + list(view.shape) + \
        [s // 4 for s in view.strides]
    return (ctypes.c_int64 * len(words))(*words)


def operand(rng, roles, sizes):
    """A random view whose memref dimensions hold `roles` (names of the
    logical dimensions, absent batch dimensions left out) in a random order,
    stored densely in another random order with padding: (view, the memref
    dimension of each role)."""
    order = list(rng.permutation(len(roles)))           # memref dim -> role
    shape = [sizes[roles[r]] for r in order]
    storage_order = list(rng.permutation(len(roles)))   # storage dim -> memref dim
    pad = int(rng.integers(0, 3))
    storage_shape = [shape[d] for d in storage_order]
    storage_shape[-1] += pad
    storage = rng.integers(-3, 4, size=storage_shape).astype(np.float32)
    storage = storage[tuple(slice(0, s) for s in [shape[d] for d in storage_order])]
    view = np.transpose(storage, np.argsort(storage_order))
    assert list(view.shape) == shape
    dims = {roles[r]: d for d, r in enumerate(order)}
    return view, dims


def logical(view, dims, roles):
    """`view` with its dimensions in the order `roles`, size 1 for a role
    it lacks."""
    present = [r for r in roles if r in dims]
    out = np.transpose(view, [dims[r] for r in present])
    return out.reshape([view.shape[dims[r]] if r in dims else 1 for r in roles])


def main(build):
    runtime = ctypes.CDLL(os.path.join(build, "lib", "libckpt_cuda_runtime.so"))
    cublas = ctypes.CDLL(os.environ["CKPT_CUBLAS"])
    contract = runtime._mlir_ciface_ckpt_cuda_contract_f32
    contract.argtypes = [ctypes.POINTER(Unranked)] * 3 + [ctypes.c_int64] * 12
    runtime.ckptCudaErrorCount.restype = ctypes.c_uint64
    cublas.ckptHostCublasCalls.restype = ctypes.c_int64
    rng = np.random.default_rng(3)
    mapped = refused = 0
    cases = 400
    for case in range(cases):
        batches = [b for b in ("x", "y") if rng.integers(0, 2)]
        sizes = {r: int(rng.integers(1, 5)) for r in ("x", "y", "m", "n", "k")}
        a, ad = operand(rng, batches + ["m", "k"], sizes)
        b, bd = operand(rng, batches + ["k", "n"], sizes)
        c, cd = operand(rng, batches + ["m", "n"], sizes)
        if case % 10 == 9 and sizes["m"] > 1 and sizes["k"] > 1:
            # Every other element along both of A's matrix dimensions.
            wide = rng.integers(-3, 4, size=[2 * s for s in a.shape]).astype(np.float32)
            a = wide[tuple(slice(0, 2 * s, 2) for s in a.shape)]
        roles = ["x", "y", "m", "n", "k"]
        want = logical(c, cd, roles[:2] + ["m", "n"]) + np.einsum(
            "xymk,xykn->xymn", logical(a, ad, roles[:2] + ["m", "k"]),
            logical(b, bd, roles[:2] + ["k", "n"]))
        before = c.copy()
        errors = runtime.ckptCudaErrorCount()
        descs = [descriptor(v) for v in (a, b, c)]
        args = [ctypes.byref(Unranked(v.ndim, ctypes.cast(d, ctypes.c_void_p)))
                for v, d in zip((a, b, c), descs)]
        ints = []
        for dims, rows, cols in ((ad, "m", "k"), (bd, "k", "n"), (cd, "m", "n")):
            ints += [dims.get("x", -1), dims.get("y", -1), dims[rows], dims[cols]]
        contract(*args, *ints)
        unit = all(v.strides[dims[r]] == 4 or v.shape[dims[r]] == 1 or
                   v.shape[dims[s]] == 1 or v.strides[dims[s]] == 4
                   for v, dims, r, s in ((a, ad, "m", "k"), (b, bd, "k", "n"),
                                         (c, cd, "m", "n")))
        got = logical(c, cd, roles[:2] + ["m", "n"])
        if unit:
            mapped += 1
            if runtime.ckptCudaErrorCount() != errors or not np.array_equal(got, want):
                sys.exit(f"case {case}: C differs from einsum (sizes {sizes}, "
                         f"strides {a.strides} {b.strides} {c.strides})")
        else:
            refused += 1
            if runtime.ckptCudaErrorCount() != errors + 1 or not np.array_equal(c, before):
                sys.exit(f"case {case}: a layout without a unit stride was not refused")
    print(f"CASES {cases} mapped={mapped} refused={refused} "
          f"sgemm_calls={cublas.ckptHostCublasCalls()} errors={runtime.ckptCudaErrorCount()}")


if __name__ == "__main__":
    main(sys.argv[1])
