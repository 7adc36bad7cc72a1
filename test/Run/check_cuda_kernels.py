#!/usr/bin/env python3
"""The CUDA runtime's library kernels (what ckpt-lower-to-nvptx{kernels=blas}
calls) run on the host: the runtime as built, loaded beside a driver whose
context can be made current (build/lib/cuda-host/libcuda.so.1, on
LD_LIBRARY_PATH) and, through CKPT_CUBLAS and CKPT_CUDNN, a cuBLAS and a
cuDNN that compute on host memory with the libraries' own argument checks
(build/lib/cuda-host). So the descriptors' reading, the operands' order,
transposes, leading dimensions, batch strides, the convolutions' tensor and
filter descriptors and geometry, and the arguments' ABI are checked; only
the GPU is not. Small integer inputs: the float sums are exact.

- _mlir_ciface_ckpt_cuda_contract_f32: random contractions C += A B with
  zero, one or two batch dimensions, each operand's dimensions in a random
  order in its memref and stored in another random order (with padding): C
  must equal numpy's einsum. A layout with no unit stride must print one
  error, count it (ckptCudaErrorCount) and leave C as it was.
- _mlir_ciface_ckpt_cuda_conv2d_nchw_fchw_f32 and
  _mlir_ciface_ckpt_cuda_conv2d_filter_grad_f32: random convolutions
  (strides and dilations 1-2, inputs with rows and columns past the last
  the output reads, input and output in random storage orders): O += conv
  and dW += the filter gradient must equal numpy's. A filter that is not
  packed must be refused likewise.
- mgpuStreamCreate / mgpuStreamDestroy: the lowered code's stream per
  launch is one kept stream per thread.
Prints `CONTRACT n mapped=M refused=R sgemm_calls=S`,
`CONV n run=M refused=R cudnn_calls=C`, `STREAMS rounds=200 distinct=D
created=C destroyed=X`, then `ERRORS e`.
Usage: check_cuda_kernels.py BUILD_DIR
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


def stored(rng, shape, max_pad=1):
    """A random view of `shape` (small integers) stored in a random
    dimension order, with up to `max_pad` elements of padding after each
    innermost run."""
    order = list(rng.permutation(len(shape)))           # storage dim -> view dim
    storage_shape = [shape[d] for d in order]
    storage_shape[-1] += int(rng.integers(0, max_pad + 1))
    storage = rng.integers(-3, 4, size=storage_shape).astype(np.float32)
    storage = storage[tuple(slice(0, shape[d]) for d in order)]
    view = np.transpose(storage, np.argsort(order))
    assert list(view.shape) == list(shape)
    return view


def operand(rng, roles, sizes):
    """A random view whose memref dimensions hold `roles` (names of the
    logical dimensions, absent batch dimensions left out) in a random order,
    stored densely in another random order with padding: (view, the memref
    dimension of each role)."""
    order = list(rng.permutation(len(roles)))           # memref dim -> role
    view = stored(rng, [sizes[roles[r]] for r in order], max_pad=2)
    return view, {roles[r]: d for d, r in enumerate(order)}


def logical(view, dims, roles):
    """`view` with its dimensions in the order `roles`, size 1 for a role
    it lacks."""
    present = [r for r in roles if r in dims]
    out = np.transpose(view, [dims[r] for r in present])
    return out.reshape([view.shape[dims[r]] if r in dims else 1 for r in roles])


def unranked(view, keep):
    """A pointer to the unranked memref of `view`; `keep` holds what must
    stay alive."""
    desc = descriptor(view)
    keep.append(desc)
    return ctypes.byref(Unranked(view.ndim, ctypes.cast(desc, ctypes.c_void_p)))


def contractions(runtime):
    cublas = ctypes.CDLL(os.environ["CKPT_CUBLAS"])
    contract = runtime._mlir_ciface_ckpt_cuda_contract_f32
    contract.argtypes = [ctypes.POINTER(Unranked)] * 3 + [ctypes.c_int64] * 12
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
        keep = []
        args = [unranked(v, keep) for v in (a, b, c)]
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
    print(f"CONTRACT {cases} mapped={mapped} refused={refused} "
          f"sgemm_calls={cublas.ckptHostCublasCalls()}")


def taps(x, ky, kx, oh, ow, sh, sw, dh, dw):
    """The input rows and columns output (oh, ow) reads at tap (ky, kx)."""
    return x[:, :, ky * dh: ky * dh + (oh - 1) * sh + 1: sh,
             kx * dw: kx * dw + (ow - 1) * sw + 1: sw]


def convolutions(runtime):
    cudnn = ctypes.CDLL(os.environ["CKPT_CUDNN"])
    forward = runtime._mlir_ciface_ckpt_cuda_conv2d_nchw_fchw_f32
    filter_grad = runtime._mlir_ciface_ckpt_cuda_conv2d_filter_grad_f32
    for fn in (forward, filter_grad):
        fn.argtypes = [ctypes.POINTER(Unranked)] * 3 + [ctypes.c_int64] * 4
    cudnn.ckptHostCudnnCalls.restype = ctypes.c_int64
    rng = np.random.default_rng(5)
    run = refused = 0
    cases = 200
    for case in range(cases):
        n, c, f, kh, kw, oh, ow = (int(rng.integers(1, 4)) for _ in range(7))
        sh, sw, dh, dw = (int(rng.integers(1, 3)) for _ in range(4))
        h = (oh - 1) * sh + (kh - 1) * dh + 1 + int(rng.integers(0, 2))
        w_ = (ow - 1) * sw + (kw - 1) * dw + 1 + int(rng.integers(0, 2))
        x = stored(rng, [n, c, h, w_])
        out = stored(rng, [n, f, oh, ow])
        packed = case % 10 != 9 or f == 1 or c == 1  # (c, f) swapped: still packed
        filt = rng.integers(-3, 4, size=(f, c, kh, kw)).astype(np.float32)
        if not packed:
            filt = np.ascontiguousarray(np.transpose(filt, (1, 0, 2, 3))).transpose(1, 0, 2, 3)
        grad_filter = (rng.integers(-3, 4, size=(f, c, kh, kw)).astype(np.float32) if packed
                       else filt.copy(order="K"))
        want_out, want_dw = out.copy(), grad_filter.copy()
        for ky in range(kh):
            for kx in range(kw):
                xs = taps(x, ky, kx, oh, ow, sh, sw, dh, dw)
                want_out += np.einsum("ncyx,fc->nfyx", xs, filt[:, :, ky, kx])
                want_dw[:, :, ky, kx] += np.einsum("ncyx,nfyx->fc", xs, out)
        before_out, before_dw = out.copy(), grad_filter.copy(order="K")
        errors = runtime.ckptCudaErrorCount()
        keep = []
        forward(unranked(x, keep), unranked(filt, keep), unranked(out, keep), sh, sw, dh, dw)
        filter_grad(unranked(x, keep), unranked(before_out, keep), unranked(grad_filter, keep),
                    sh, sw, dh, dw)
        if packed:
            run += 1
            if runtime.ckptCudaErrorCount() != errors or not np.array_equal(out, want_out) \
                    or not np.array_equal(grad_filter, want_dw):
                sys.exit(f"conv case {case}: differs from numpy ({n} {c} {f} {kh}x{kw} "
                         f"out {oh}x{ow} stride {sh},{sw} dilation {dh},{dw})")
        else:
            refused += 1
            if runtime.ckptCudaErrorCount() != errors + 2 or not np.array_equal(out, before_out) \
                    or not np.array_equal(grad_filter, before_dw):
                sys.exit(f"conv case {case}: a filter that is not packed was not refused")
    print(f"CONV {cases} run={run} refused={refused} cudnn_calls={cudnn.ckptHostCudnnCalls()}")


def streams(runtime):
    """The launch stream: 100 create / synchronize / destroy rounds, as the
    lowered code makes around each launch, on this thread and on another,
    must create one stream per thread and destroy none."""
    import threading
    driver = ctypes.CDLL("libcuda.so.1")  # the host driver the runtime loaded
    runtime.mgpuStreamCreate.restype = ctypes.c_void_p
    runtime.mgpuStreamSynchronize.argtypes = [ctypes.c_void_p]
    runtime.mgpuStreamDestroy.argtypes = [ctypes.c_void_p]
    seen = []

    def rounds():
        for _ in range(100):
            stream = runtime.mgpuStreamCreate()
            seen.append(stream)
            runtime.mgpuStreamSynchronize(stream)
            runtime.mgpuStreamDestroy(stream)

    rounds()
    other = threading.Thread(target=rounds)
    other.start()
    other.join()
    print(f"STREAMS rounds={len(seen)} distinct={len(set(seen))} "
          f"created={driver.ckptHostDriverStreams(0)} destroyed={driver.ckptHostDriverStreams(1)}")


def main(build):
    runtime = ctypes.CDLL(os.path.join(build, "lib", "libckpt_cuda_runtime.so"))
    runtime.ckptCudaErrorCount.restype = ctypes.c_uint64
    contractions(runtime)
    convolutions(runtime)
    streams(runtime)
    print(f"ERRORS {runtime.ckptCudaErrorCount()}")


if __name__ == "__main__":
    main(sys.argv[1])
