/*===- Runtime.h - ckpt runtime: allocation counting ------------*- C -*-===*\
|*                                                                            *|
|* The C ABI of the ckpt runtime (libckpt_runtime.so, or the static          *|
|* CkptRuntime library). It defines the three allocation hooks that           *|
|* `finalize-memref-to-llvm{use-generic-functions=1}` makes lowered code      *|
|* call, and counts what goes through them: live bytes, peak live bytes,      *|
|* total bytes, allocations, frees. The CUDA wrappers (libckpt_cuda_runtime)  *|
|* record device allocations in a second, separate set of counters.           *|
|*                                                                            *|
|* Sizes are the sizes the IR asked for: the plain `_mlir_memref_to_llvm_     *|
|* alloc` path of the memref lowering asks for the buffer size plus the       *|
|* alignment (64 for bufferized buffers), the aligned path for the exact      *|
|* size. Freeing a pointer the runtime did not allocate is counted as an      *|
|* error and otherwise ignored (the pointer is not passed to free()).         *|
|*                                                                            *|
|* All functions are thread-safe.                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_RUNTIME_H
#define CKPT_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define CKPT_RUNTIME_EXPORT __declspec(dllexport)
#else
#define CKPT_RUNTIME_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Counters since the last ckptRuntimeReset(). `liveBytes` counts only the
 * allocations made since then that are still live; freeing an allocation
 * made before the reset releases its memory but changes no counter. */
typedef struct CkptRuntimeStats {
  /* Host memory, through the _mlir_memref_to_llvm_* hooks. */
  uint64_t liveBytes;    /* bytes allocated and not yet freed */
  uint64_t peakBytes;    /* the largest liveBytes seen */
  uint64_t totalBytes;   /* bytes allocated in all */
  uint64_t allocCount;   /* allocations */
  uint64_t freeCount;    /* frees of known pointers (null frees not counted) */
  uint64_t unknownFrees; /* frees of pointers the runtime never allocated */
  /* Device memory, recorded by the CUDA wrappers (mgpuMemAlloc/mgpuMemFree). */
  uint64_t deviceLiveBytes;
  uint64_t devicePeakBytes;
  uint64_t deviceTotalBytes;
  uint64_t deviceAllocCount;
  uint64_t deviceFreeCount;
  uint64_t deviceUnknownFrees;
  uint64_t kernelLaunches; /* kernels launched (mgpuLaunchKernel) */
  /* Host copies of offloaded values: the allocations made between
   * ckptRuntimeBeginHostCopy and ckptRuntimeEndHostCopy (on the CPU path,
   * the lowering of ckpt.offload), apart from the step's own memory. */
  uint64_t hostCopyLiveBytes;
  uint64_t hostCopyPeakBytes;
  uint64_t hostCopyTotalBytes;
  uint64_t hostCopyAllocCount;
  uint64_t hostCopyFreeCount;
} CkptRuntimeStats;

/* The hooks of `finalize-memref-to-llvm{use-generic-functions=1}`. */
CKPT_RUNTIME_EXPORT void *_mlir_memref_to_llvm_alloc(size_t size);
CKPT_RUNTIME_EXPORT void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                             size_t size);
CKPT_RUNTIME_EXPORT void _mlir_memref_to_llvm_free(void *ptr);

/* Allocations through the hooks between these two calls (on the calling
 * thread) are host copies of offloaded values: counted in the hostCopy*
 * counters, not in the step's. Freeing one through the hook counts it
 * there too. `ckpt-lower-host-copies` brackets the allocations of host
 * memory (memory space 1) with them. */
CKPT_RUNTIME_EXPORT void ckptRuntimeBeginHostCopy(void);
CKPT_RUNTIME_EXPORT void ckptRuntimeEndHostCopy(void);

/* Where host copies come from: `alloc` (null: the default, posix_memalign)
 * gives the memory of every host-copy allocation whose alignment is at most
 * 4096, and `release` takes it back when the hook frees it. A null result
 * falls back to the default. libckpt_cuda_runtime.so sets page-locked
 * memory (cuMemAllocHost) when it is loaded, so that its copies to and from
 * host copies are asynchronous. Allocations made before a change are
 * released by the function that made them. */
CKPT_RUNTIME_EXPORT void
ckptRuntimeSetHostCopyAllocator(void *(*alloc)(size_t),
                                void (*release)(void *));

/* The copies `ckpt-async-host-copies{runtime=cpu}` issues: `bytes` from
 * `src` to `dst` (addresses as integers), in the order issued, on one copy
 * thread; returns a ticket that ckptRuntimeWaitCopy waits for (returns when
 * that copy, and every copy issued before it, has ended). The environment
 * variable CKPT_RUNTIME_COPY_DELAY_US (read at the first copy) delays each
 * copy by that many microseconds: tests make a missing wait show. */
CKPT_RUNTIME_EXPORT int64_t ckptRuntimeCopyAsync(int64_t dst, int64_t src,
                                                 int64_t bytes);
CKPT_RUNTIME_EXPORT void ckptRuntimeWaitCopy(int64_t ticket);

/* The marks `ckpt-profile-ops` puts around each op of a step: `id` is the
 * op's index in the module's `ckpt.profile_keys`. Begin starts the clock of
 * the calling thread; End(id), after Begin(id) on the same thread, adds the
 * time since to id's total and counts one run (an End without its Begin is
 * ignored). Reset forgets every total; Read stores id's total seconds in
 * *seconds (when not null) and returns how many runs it adds up (0 for an
 * id never ended). */
CKPT_RUNTIME_EXPORT void ckptRuntimeProfileBegin(int64_t id);
CKPT_RUNTIME_EXPORT void ckptRuntimeProfileEnd(int64_t id);
CKPT_RUNTIME_EXPORT void ckptRuntimeProfileReset(void);
CKPT_RUNTIME_EXPORT uint64_t ckptRuntimeProfileRead(int64_t id,
                                                    double *seconds);

/* The kernels `ckpt-call-kernels` calls (lib/Runtime/Kernels.cpp), through
 * the C interface of functions on unranked memrefs of f32 (`llvm.emit_c_
 * interface`): each operand is its rank and a pointer to its ranked
 * descriptor (allocated, aligned, offset, sizes[rank], strides[rank]). */
typedef struct CkptUnrankedMemRef {
  int64_t rank;
  void *descriptor;
} CkptUnrankedMemRef;

/* C += A B, batched: the int64 arguments name the memref dimension of A's
 * (batch0, batch1, M, K), B's (batch0, batch1, K, N) and C's (batch0,
 * batch1, M, N), -1 for a batch dimension the contraction does not have. */
CKPT_RUNTIME_EXPORT void _mlir_ciface_ckpt_kernel_contract_f32(
    const CkptUnrankedMemRef *a, const CkptUnrankedMemRef *b,
    const CkptUnrankedMemRef *c, int64_t ab0, int64_t ab1, int64_t am,
    int64_t ak, int64_t bb0, int64_t bb1, int64_t bk, int64_t bn, int64_t cb0,
    int64_t cb1, int64_t cm, int64_t cn);

/* O += conv(I, W) as linalg.conv_2d_nchw_fchw with strides (sh, sw) and
 * dilations (dh, dw): I [N, C, H, W] (padded), W [F, C, KH, KW],
 * O [N, F, OH, OW]. */
CKPT_RUNTIME_EXPORT void _mlir_ciface_ckpt_kernel_conv2d_nchw_fchw_f32(
    const CkptUnrankedMemRef *input, const CkptUnrankedMemRef *filter,
    const CkptUnrankedMemRef *output, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw);

/* O += exp(S - LSE) V, batched (an attention's probabilities times V):
 * the int64 arguments name the memref dimension of S's (batch0, batch1, M,
 * K), LSE's (batch0, batch1, M), V's (batch0, batch1, K, N) and O's
 * (batch0, batch1, M, N), -1 for a batch dimension it does not have. */
CKPT_RUNTIME_EXPORT void _mlir_ciface_ckpt_kernel_exp_contract_f32(
    const CkptUnrankedMemRef *s, const CkptUnrankedMemRef *lse,
    const CkptUnrankedMemRef *v, const CkptUnrankedMemRef *o, int64_t sb0,
    int64_t sb1, int64_t sm, int64_t sk, int64_t lb0, int64_t lb1, int64_t lm,
    int64_t vb0, int64_t vb1, int64_t vk, int64_t vn, int64_t ob0, int64_t ob1,
    int64_t om, int64_t on);

/* W[clamp(I[t], LO, HI), :] += G[t, :] over the tokens t (an embedding's
 * weight gradient): the int64 arguments name the memref dimension of I's
 * (token0, token1), G's (token0, token1, column) and W's (row, column), -1
 * for a second token dimension it does not have, then LO and HI. I is a
 * memref of i64. */
CKPT_RUNTIME_EXPORT void _mlir_ciface_ckpt_kernel_embedding_grad_f32(
    const CkptUnrankedMemRef *ids, const CkptUnrankedMemRef *outputGrad,
    const CkptUnrankedMemRef *weightGrad, int64_t i0, int64_t i1, int64_t g0,
    int64_t g1, int64_t gc, int64_t wr, int64_t wc, int64_t lo, int64_t hi);

/* dW += the filter gradient of that convolution: dW [F, C, KH, KW] gets the
 * sum over (n, oh, ow) of I[n, c, oh sh + kh dh, ow sw + kw dw] G[n, f, oh,
 * ow], G [N, F, OH, OW] the output gradient. */
CKPT_RUNTIME_EXPORT void _mlir_ciface_ckpt_kernel_conv2d_filter_grad_f32(
    const CkptUnrankedMemRef *input, const CkptUnrankedMemRef *outputGrad,
    const CkptUnrankedMemRef *filterGrad, int64_t sh, int64_t sw, int64_t dh,
    int64_t dw);

/* The kernels of the OpenBLAS the runtime's kernels call (its
 * openblas_get_corename: "SkylakeX", "Haswell", "Prescott", ...), loading it
 * if need be; null when none loads (the kernels then run loop nests).
 * OpenBLAS is loaded at run time: from CKPT_OPENBLAS when set (and only
 * from there), else the library the build found, else libopenblas.so.0.
 * Before it loads, an unset OPENBLAS_CORETYPE is set from the CPU: SkylakeX
 * with AVX-512 (F, BW, DQ, VL), Haswell with AVX2 and FMA; OpenBLAS 0.3.21
 * (Debian 12) runs its SSE3 kernels on x86 CPUs newer than itself. */
CKPT_RUNTIME_EXPORT const char *ckptRuntimeBlasCore(void);

/* Zeroes every counter (host and device) and starts a new epoch: from now on
 * only new allocations count. Allocations made before stay known, so freeing
 * them later is not an error. */
CKPT_RUNTIME_EXPORT void ckptRuntimeReset(void);

/* Copies the counters into *stats. */
CKPT_RUNTIME_EXPORT void ckptRuntimeGetStats(CkptRuntimeStats *stats);

/* Prints the host counters as one JSON line on stdout, e.g. for a module run
 * by `mlir-runner -shared-libs=libckpt_runtime.so` that calls it (declare it
 * as `func.func private @ckptRuntimePrintStats()`):
 * {"peak_bytes": N, "live_bytes": N, "allocs": N, "frees": N,
 *  "unknown_frees": N, "total_bytes": N} */
CKPT_RUNTIME_EXPORT void ckptRuntimePrintStats(void);

/* Returns 1 and stores the requested size in *size (when size is not null)
 * if ptr is the start of a live host allocation of the runtime, else 0. */
CKPT_RUNTIME_EXPORT int ckptRuntimeFindAllocation(const void *ptr,
                                                  size_t *size);

/* Frees every live host allocation, host copies included (of any epoch);
 * returns how many. For
 * drivers that reclaim leaked buffers between runs. Counted as frees. */
CKPT_RUNTIME_EXPORT size_t ckptRuntimeFreeAll(void);

/* Device bookkeeping, called by the CUDA wrappers after a successful device
 * allocation / before a device free. ckptRuntimeRecordDeviceFree returns 1
 * if ptr was a recorded device allocation, else 0 (and counts an unknown
 * free). Null pointers are ignored. */
CKPT_RUNTIME_EXPORT void ckptRuntimeRecordDeviceAlloc(const void *ptr,
                                                      uint64_t size);
CKPT_RUNTIME_EXPORT int ckptRuntimeRecordDeviceFree(const void *ptr);
CKPT_RUNTIME_EXPORT void ckptRuntimeRecordLaunch(void);

/* Returns 1 and stores the recorded size in *size (when size is not null)
 * if ptr is a live device allocation, else 0. */
CKPT_RUNTIME_EXPORT int ckptRuntimeFindDeviceAllocation(const void *ptr,
                                                        size_t *size);

/* Stores up to `capacity` live device allocations (of any epoch) in ptrs;
 * returns how many there are. */
CKPT_RUNTIME_EXPORT size_t ckptRuntimeListDeviceAllocations(void **ptrs,
                                                            size_t capacity);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CKPT_RUNTIME_RUNTIME_H */
