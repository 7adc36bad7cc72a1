//===- ChainDP.cpp - Optimal persistent checkpointing DP ------------------===//
//
// Theorem 1 of Beaumont et al. 2019, computed fast:
//
//  * Exact feasibility bounds first. lo(s,t), the least m with C_BP(s,t,m)
//    finite, follows from the same thresholds (m_none, m_all) by an O(L^3)
//    integer DP (on 32-bit integers when the sizes allow); hi(s,t), a
//    memory from which C_BP(s,t,.) is constant (the requirement of the
//    cheapest schedule: store-all, or for the AD model "checkpoint every
//    a"), likewise. Above min(hi, maxM) (maxM = limit - wa[0], the largest
//    m ever queried) a row is constant.
//  * Only what is read is computed: a pass from the top pair down
//    (neededFrom) finds the least m at which the splits, C2 and Algorithm 2
//    read each (s,t), given the range of m the top pair is queried on (one
//    m for solveChainDP, all of them for ChainDPTable). Rows are stored and
//    computed from there (a third less table on the chain benchmark); below
//    it a value is infinite or never read, so every value read is the same.
//  * Rows are indexed by (s,t) with m contiguous (float), so for one split
//    s' the candidate  pre(s,s') + C(s',t,m - wa[s'-1]) + C(s,s'-1,m)  is a
//    shifted add of two rows, min-ed into the result row: the loop over m is
//    innermost and vectorises. Kernels compiled for AVX-512, AVX2 and the
//    x86-64 baseline (picked at run time by chainKernelIsa, CKPT_ISA) do a
//    split in three pieces of the row (both rows vary, one does, neither);
//    the AVX-512 and AVX2 ones in one call per split.
//  * Dominated splits are pruned: each candidate is non-increasing in m and
//    bottoms out at c = its value where both rows are constant; the result
//    row so far is non-increasing too, so the candidate can only improve m
//    below the last m where the row is still above c (found by a downward
//    scan, amortised over the splits; no call at all where the row at the
//    split's first m is not above c). The kernels also skip blocks of m
//    where the candidate at the block end is not below the row at the block
//    start.
//  * Cache tiling: blocks of columns, and inside a block tiles of rows whose
//    splits with both rows outside the tile are applied like a blocked
//    matrix product, by micro-tiles that keep their rows in L1 (see
//    fillBlock). Threads take column blocks and wait (spin, then yield)
//    only for the previous block's rows they read: a pipelined wavefront
//    without global barriers.
//  * The table is mapped with transparent huge pages (Linux).
//  * Integer sizes are first divided by their gcd (exact: every threshold
//    is a sum of sizes), which shrinks exact-mode tables.
//
// The sequence is rebuilt as in Algorithm 2 by re-evaluating, at each node,
// the candidates from the table with the same float arithmetic and taking
// the best.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Chain/ChainDP.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdlib>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <thread>

#ifdef __linux__
#include <sys/mman.h>
#endif

using namespace ckpt::solver;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CKPT_X86_DISPATCH 1
#else
#define CKPT_X86_DISPATCH 0
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CKPT_PAUSE() _mm_pause()
#else
#define CKPT_PAUSE() ((void)0)
#endif

//===----------------------------------------------------------------------===//
// Inner kernels, one per instruction set, picked at run time
//===----------------------------------------------------------------------===//

namespace ckpt {
namespace solver {
namespace detail {

/// computeLo's row kernel works on whole blocks of this many elements (one
/// AVX-512 vector of 16-bit integers).
constexpr ptrdiff_t kLoBlock = 32;

// The inner kernels, compiled three times (AVX-512, AVX2, the x86-64
// baseline) and picked once per process (kIsa below): the best the CPU
// has, or less when the environment variable CKPT_ISA says so (generic,
// avx2, avx512), so that every path can be tested and timed on one machine.
#define CKPT_CHAIN_KERNELS(SUFFIX, ATTR)                                       \
  /* acc[i] = min(acc[i], (p + A[i]) + B[i]) */                                \
  ATTR void minAddAB##SUFFIX(float *__restrict acc, const float *__restrict A, \
                             const float *__restrict B, float p,               \
                             ptrdiff_t n) {                                    \
    for (ptrdiff_t i = 0; i < n; ++i) {                                        \
      float v = (p + A[i]) + B[i];                                             \
      acc[i] = v < acc[i] ? v : acc[i];                                        \
    }                                                                          \
  }                                                                            \
  /* acc[i] = min(acc[i], q + B[i]) */                                         \
  ATTR void minAddB##SUFFIX(float *__restrict acc, const float *__restrict B,  \
                            float q, ptrdiff_t n) {                            \
    for (ptrdiff_t i = 0; i < n; ++i) {                                        \
      float v = q + B[i];                                                      \
      acc[i] = v < acc[i] ? v : acc[i];                                        \
    }                                                                          \
  }                                                                            \
  /* acc[i] = min(acc[i], (p + A[i]) + b) */                                   \
  ATTR void minAddA##SUFFIX(float *__restrict acc, const float *__restrict A,  \
                            float p, float b, ptrdiff_t n) {                   \
    for (ptrdiff_t i = 0; i < n; ++i) {                                        \
      float v = (p + A[i]) + b;                                                \
      acc[i] = v < acc[i] ? v : acc[i];                                        \
    }                                                                          \
  }                                                                            \
  /* acc[i] = min(acc[i], c) */                                                \
  ATTR void minConst##SUFFIX(float *__restrict acc, float c, ptrdiff_t n) {    \
    for (ptrdiff_t i = 0; i < n; ++i)                                          \
      acc[i] = c < acc[i] ? c : acc[i];                                        \
  }                                                                            \
  /* best[k] = min(best[k], max(x[k] + w, v)) for k < n rounded up to a        \
     multiple of kLoBlock (the arrays are padded: whole blocks vectorise       \
     with no scalar remainder) */                                              \
  template <typename Int>                                                      \
  ATTR void minMaxPlusRow##SUFFIX(Int *__restrict best,                        \
                                  const Int *__restrict x, Int w, Int v,       \
                                  ptrdiff_t n) {                               \
    for (ptrdiff_t k0 = 0; k0 < n; k0 += kLoBlock)                             \
      for (ptrdiff_t k = k0; k < k0 + kLoBlock; ++k) {                         \
        const Int sum = static_cast<Int>(x[k] + w); /* no wider type */        \
        const Int m = sum > v ? sum : v;                                       \
        best[k] = m < best[k] ? m : best[k];                                   \
      }                                                                        \
  }                                                                            \
  /* neededFrom's reads of one pair: f = max(start, loA[k] + w[k], loB[k]);    \
     where f <= top, fromA[k] = min(fromA[k], f - w[k], hiA[k]) and            \
     fromB[k] = min(fromB[k], f, hiB[k]) */                                    \
  template <typename Int>                                                      \
  ATTR void markReads##SUFFIX(                                                 \
      Int *__restrict fromA, Int *__restrict fromB, const Int *__restrict loA, \
      const Int *__restrict hiA, const Int *__restrict w,                      \
      const Int *__restrict loB, const Int *__restrict hiB, Int start,         \
      Int top, ptrdiff_t n) {                                                  \
    for (ptrdiff_t k = 0; k < n; ++k) {                                        \
      const Int sum = static_cast<Int>(loA[k] + w[k]);                         \
      Int f = sum > start ? sum : start;                                       \
      f = loB[k] > f ? loB[k] : f;                                             \
      const Int shifted = static_cast<Int>(f - w[k]);                          \
      const Int a = shifted < hiA[k] ? shifted : hiA[k];                       \
      const Int b = f < hiB[k] ? f : hiB[k];                                   \
      fromA[k] = f <= top && a < fromA[k] ? a : fromA[k];                      \
      fromB[k] = f <= top && b < fromB[k] ? b : fromB[k];                      \
    }                                                                          \
  }

CKPT_CHAIN_KERNELS(Generic, )
#if CKPT_X86_DISPATCH
CKPT_CHAIN_KERNELS(Avx2, __attribute__((target("avx2"))))
CKPT_CHAIN_KERNELS(Avx512, __attribute__((target("avx512f,avx512bw"))))
#endif

enum class Isa { Generic = 0, Avx2 = 1, Avx512 = 2 };

/// The best instruction set of this CPU, lowered to CKPT_ISA when set.
Isa detectIsa() {
  Isa best = Isa::Generic;
#if CKPT_X86_DISPATCH
  __builtin_cpu_init(); // we may run before libgcc's own initialiser
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    best = Isa::Avx512;
  else if (__builtin_cpu_supports("avx2"))
    best = Isa::Avx2;
#endif
  if (const char *wanted = std::getenv("CKPT_ISA")) {
    std::string w = wanted;
    Isa cap = w == "generic" ? Isa::Generic
              : w == "avx2"  ? Isa::Avx2
                             : Isa::Avx512;
    if (cap < best)
      best = cap;
  }
  return best;
}

const Isa kIsa = detectIsa();

#if CKPT_X86_DISPATCH
#define CKPT_DISPATCH(NAME, ...)                                               \
  (kIsa == Isa::Avx512 ? NAME##Avx512(__VA_ARGS__)                             \
   : kIsa == Isa::Avx2 ? NAME##Avx2(__VA_ARGS__)                               \
                       : NAME##Generic(__VA_ARGS__))
#else
#define CKPT_DISPATCH(NAME, ...) NAME##Generic(__VA_ARGS__)
#endif

inline void minAddAB(float *acc, const float *A, const float *B, float p,
                     ptrdiff_t n) {
  CKPT_DISPATCH(minAddAB, acc, A, B, p, n);
}
inline void minAddB(float *acc, const float *B, float q, ptrdiff_t n) {
  CKPT_DISPATCH(minAddB, acc, B, q, n);
}
inline void minAddA(float *acc, const float *A, float p, float b, ptrdiff_t n) {
  CKPT_DISPATCH(minAddA, acc, A, p, b, n);
}
inline void minConst(float *acc, float c, ptrdiff_t n) {
  CKPT_DISPATCH(minConst, acc, c, n);
}
template <typename Int>
inline void minMaxPlusRow(Int *best, const Int *x, Int w, Int v, ptrdiff_t n) {
  CKPT_DISPATCH(minMaxPlusRow, best, x, w, v, n);
}
template <typename Int>
inline void markReads(Int *fromA, Int *fromB, const Int *loA, const Int *hiA,
                      const Int *w, const Int *loB, const Int *hiB, Int start,
                      Int top, ptrdiff_t n) {
  CKPT_DISPATCH(markReads, fromA, fromB, loA, hiA, w, loB, hiB, start, top, n);
}

} // namespace detail
} // namespace solver
} // namespace ckpt

const char *ckpt::solver::chainKernelIsa() {
  switch (detail::kIsa) {
  case detail::Isa::Avx512:
    return "avx512";
  case detail::Isa::Avx2:
    return "avx2";
  case detail::Isa::Generic:
    return "generic";
  }
  return "generic";
}

using namespace ckpt::solver::detail;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int64_t kNever = INT64_C(1) << 62;
} // namespace

//===----------------------------------------------------------------------===//
// The AVX-512 kernel of one split
//===----------------------------------------------------------------------===//

#if CKPT_X86_DISPATCH
namespace {

const bool kHasAvx512 = kIsa == Isa::Avx512;

/// One split, AVX-512, relative to m = from (applySplit's first m, index 0):
/// acc[0..e] where e = the last index <= eStart with acc > c (the pruning scan,
/// 16 at a time), then acc[i] = min(acc[i], (p + A') + B') for i in [0, e],
/// where A' = A[i] for i <= nA and Alast above (likewise B'), with masked
/// loads: one loop, no scalar tails, no reads past the rows. Returns e (< 0:
/// the split cannot improve the row).
#define CKPT_AVX512 __attribute__((target("avx512f"), always_inline)) inline

/// The body shared by splitAvx512 and splitAvx2 after the pruning scan: the
/// candidate on [0, e] in its three pieces (both rows vary, one does,
/// neither) by MINADD<AVaries, BVaries>(acc, A, B, p, aConst, bConst, n).
/// (A macro: GCC inlines a kernel only into a function of its target.)
#define CKPT_SPLIT_PIECES(MINADD)                                              \
  do {                                                                         \
    const int64_t e1 = std::min({e, nA, nB});                                  \
    if (e1 >= 0)                                                               \
      MINADD<true, true>(acc, A, B, p, 0, 0, e1 + 1);                          \
    const int64_t s2 = std::max<int64_t>(0, std::min(nA, nB) + 1);             \
    const int64_t e2 = std::min(e, std::max(nA, nB));                          \
    if (e2 >= s2) {                                                            \
      if (nA < nB)                                                             \
        MINADD<false, true>(acc + s2, A, B + s2, p, Alast, 0, e2 - s2 + 1);    \
      else                                                                     \
        MINADD<true, false>(acc + s2, A + s2, B, p, 0, Blast, e2 - s2 + 1);    \
    }                                                                          \
    const int64_t s3 = std::max<int64_t>(0, std::max(nA, nB) + 1);             \
    if (s3 <= e)                                                               \
      MINADD<false, false>(acc + s3, A, B, p, Alast, Blast, e - s3 + 1);       \
  } while (false)

/// minAdd512's block: 16 and 64 lanes were slower on the chain benchmark.
constexpr int64_t kBlock512 = 32;

/// The last index <= top with acc > T (-1 if none), 16 at a time.
CKPT_AVX512 int64_t scanDown512(const float *acc, int64_t top, float T) {
  const __m512 vT = _mm512_set1_ps(T);
  while (top >= 0) {
    const int64_t base = std::max<int64_t>(0, top - 15);
    const __mmask16 in =
        static_cast<__mmask16>((2u << (top - base)) - 1); // base..top
    const __m512 v = _mm512_maskz_loadu_ps(in, acc + base);
    const unsigned gt = _mm512_mask_cmp_ps_mask(in, v, vT, _CMP_GT_OQ);
    if (gt)
      return base + 31 - __builtin_clz(gt);
    top = base - 1;
  }
  return top;
}

/// acc[k..k+15] = min(acc, (p + A) + B) on the lanes of `in`, the vectors
/// vp, va, vb standing for p and the constants where a row does not vary.
/// Masked loads: nothing is read past a row.
template <bool AVaries, bool BVaries>
CKPT_AVX512 void min16(float *acc, const float *A, const float *B, __m512 vp,
                       __m512 va, __m512 vb, int64_t k, __mmask16 in) {
  const __m512 a = AVaries ? _mm512_maskz_loadu_ps(in, A + k) : va;
  const __m512 b = BVaries ? _mm512_maskz_loadu_ps(in, B + k) : vb;
  const __m512 v = _mm512_add_ps(_mm512_add_ps(vp, a), b);
  const __m512 old = _mm512_maskz_loadu_ps(in, acc + k);
  _mm512_mask_storeu_ps(acc + k,
                        _mm512_mask_cmp_ps_mask(in, v, old, _CMP_LT_OQ), v);
}

/// acc[i] = min(acc[i], candidateAt(i)) on [0, n), 16 lanes at a time and
/// the last lanes masked, skipping blocks of kBlock512 lanes (and the rest
/// under a block) where the candidate at the end is not below acc at the
/// start: both are non-increasing in m.
template <bool AVaries, bool BVaries>
CKPT_AVX512 void minAdd512(float *acc, const float *A, const float *B, float p,
                           float aConst, float bConst, int64_t n) {
  const __m512 vp = _mm512_set1_ps(p), va = _mm512_set1_ps(aConst),
               vb = _mm512_set1_ps(bConst);
  auto at = [&](int64_t m) {
    return (p + (AVaries ? A[m] : aConst)) + (BVaries ? B[m] : bConst);
  };
  constexpr int64_t kBlock = kBlock512;
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    if (!(at(i + kBlock - 1) < acc[i]))
      continue;
    for (int64_t k = i; k < i + kBlock; k += 16)
      min16<AVaries, BVaries>(acc, A, B, vp, va, vb, k, 0xffff);
  }
  if (i >= n || !(at(n - 1) < acc[i]))
    return;
  for (; i + 16 <= n; i += 16)
    min16<AVaries, BVaries>(acc, A, B, vp, va, vb, i, 0xffff);
  if (i < n)
    min16<AVaries, BVaries>(acc, A, B, vp, va, vb, i,
                            static_cast<__mmask16>((1u << (n - i)) - 1));
}

/// One split, AVX-512, relative to m = from (applySplit's first m, index 0):
/// the pruning scan e = the last index <= eStart with acc > c, then the
/// candidate on [0, e] in its three parts (both rows vary, one does,
/// neither). Returns e (< 0: the split cannot improve the row).
__attribute__((target("avx512f"))) int64_t
splitAvx512(float *acc, const float *A, const float *B, float p, float Alast,
            float Blast, float c, int64_t eStart, int64_t nA, int64_t nB) {
  const int64_t e = scanDown512(acc, eStart, c);
  if (e < 0)
    return e;
  CKPT_SPLIT_PIECES(minAdd512);
  return e;
}

//===----------------------------------------------------------------------===//
// The AVX2 pruning scan
//===----------------------------------------------------------------------===//

const bool kHasAvx2Only = kIsa == Isa::Avx2;

/// The last index <= top with acc > T (-1 if none), 8 at a time down to
/// acc[0..7], then one by one: the pruning scan of applySplit on the AVX2
/// path (the rest of a split is faster in pieces that skip blocks of m than
/// in one masked loop like splitAvx512: measured).
__attribute__((target("avx2"))) int64_t scanDown256(const float *acc,
                                                    int64_t top, float T) {
  const __m256 vT = _mm256_set1_ps(T);
  for (; top >= 7; top -= 8) {
    const unsigned gt = static_cast<unsigned>(_mm256_movemask_ps(
        _mm256_cmp_ps(_mm256_loadu_ps(acc + top - 7), vT, _CMP_GT_OQ)));
    if (gt)
      return top - 7 + 31 - __builtin_clz(gt);
  }
  while (top >= 0 && !(acc[top] > T))
    --top;
  return top;
}

/// The candidate (p + A[m]) + B[m] at one m, A or B replaced by the constant
/// aConst / bConst where AVaries / BVaries is false.
template <bool AVaries, bool BVaries>
inline float candidateAt(const float *A, const float *B, float p, float aConst,
                         float bConst, int64_t m) {
  return (p + (AVaries ? A[m] : aConst)) + (BVaries ? B[m] : bConst);
}

/// acc[k..k+7] = min(acc, (p + A) + B), the vectors vp, va, vb standing for
/// p and the constants.
template <bool AVaries, bool BVaries>
__attribute__((target("avx2"), always_inline)) inline void
min8(float *acc, const float *A, const float *B, __m256 vp, __m256 va,
     __m256 vb, int64_t k) {
  const __m256 a = AVaries ? _mm256_loadu_ps(A + k) : va;
  const __m256 b = BVaries ? _mm256_loadu_ps(B + k) : vb;
  const __m256 v = _mm256_add_ps(_mm256_add_ps(vp, a), b);
  _mm256_storeu_ps(acc + k, _mm256_min_ps(v, _mm256_loadu_ps(acc + k)));
}

/// acc[i] = min(acc[i], candidateAt(i)) on [0, n), skipping blocks of 32
/// (when n >= 64) and the rest under a block (8 lanes or more) where the
/// candidate at the end is not below acc at the start (both are
/// non-increasing; a sixth of the lanes on the chain benchmark are in such
/// rests, a third of them skipped: measured). 8 lanes at a time, scalar
/// tails. (Full blocks have a loop of their own: with a constant trip count
/// it is unrolled, 15 % faster than one loop over blocks with a shorter
/// last one.)
template <bool AVaries, bool BVaries>
__attribute__((target("avx2"), always_inline)) inline void
minAdd256(float *acc, const float *A, const float *B, float p, float aConst,
          float bConst, int64_t n) {
  const __m256 vp = _mm256_set1_ps(p), va = _mm256_set1_ps(aConst),
               vb = _mm256_set1_ps(bConst);
  // (No lambdas: GCC does not compile them for the enclosing target.)
  constexpr int64_t kBlock = 32;
  const bool skip = n >= 2 * kBlock;
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    if (skip && !(candidateAt<AVaries, BVaries>(A, B, p, aConst, bConst,
                                                i + kBlock - 1) < acc[i]))
      continue;
    for (int64_t k = i; k < i + kBlock; k += 8)
      min8<AVaries, BVaries>(acc, A, B, vp, va, vb, k);
  }
  if (n - i >= 8 &&
      !(candidateAt<AVaries, BVaries>(A, B, p, aConst, bConst, n - 1) < acc[i]))
    return;
  for (; i + 8 <= n; i += 8)
    min8<AVaries, BVaries>(acc, A, B, vp, va, vb, i);
  for (; i < n; ++i) {
    const float v = candidateAt<AVaries, BVaries>(A, B, p, aConst, bConst, i);
    acc[i] = v < acc[i] ? v : acc[i];
  }
}

/// One split on the AVX2 path, relative to m = from (index 0), like
/// splitAvx512: the pruning scan, then the candidate on [0, e] in its three
/// parts (both rows vary, one does, neither), in one call.
/// (_mm256_min_ps(v, acc) keeps acc when v is not below it, as the
/// generic kernels do: the same floats.)
__attribute__((target("avx2"))) int64_t splitAvx2(float *acc, const float *A,
                                                  const float *B, float p,
                                                  float Alast, float Blast,
                                                  float c, int64_t eStart,
                                                  int64_t nA, int64_t nB) {
  const int64_t e = scanDown256(acc, eStart, c);
  if (e < 0)
    return e;
  CKPT_SPLIT_PIECES(minAdd256);
  return e;
}

} // namespace
#endif

//===----------------------------------------------------------------------===//
// The scaled chain: thresholds and feasibility bounds
//===----------------------------------------------------------------------===//

namespace {

/// The chain as the DP reads it: its sizes divided by their gcd (`scale`),
/// in 1-based arrays named as in Chain (the paper's omega_a^l, omega_delta^l,
/// omega_abar^l, o_f^l, o_b^l, u_f^l, u_b^l), plus per-(s,t) thresholds and
/// feasibility bounds.
struct ScaledChain {
  int n = 0;                            // L+1 stages
  bool allowAll = true;                 // C2 for s < t
  int64_t scale = 1;                    // gcd of all sizes
  std::vector<int64_t> wa, wdelta;      // [0..n]
  std::vector<int64_t> wabar, of, ob;   // [1..n], index 0 unused
  std::vector<double> uf, ub, ufPrefix; // [1..n]; ufPrefix[l] = uf[1..l]
  // Per pair (s <= t), indexed by idx(s,t).
  std::vector<int64_t> mNone; // m_none^{s,t} (s < t)
  std::vector<int64_t> lo;    // least m with C(s,t,m) finite
  std::vector<int64_t> hi;    // C(s,t,m) constant for m >= hi
  int64_t topLo = 0;          // lo(1, n) (capped when computed so)

  static size_t idx(int s, int t) {
    return static_cast<size_t>(t) * (t - 1) / 2 + (s - 1);
  }
  /// The same pairs by rows (s-major): (s, s..n) contiguous.
  size_t idxS(int s, int t) const {
    const size_t nn = static_cast<size_t>(n), si = static_cast<size_t>(s);
    return (si - 1) * nn - (si - 1) * (si - 2) / 2 + static_cast<size_t>(t - s);
  }
  size_t numPairs() const { return static_cast<size_t>(n) * (n + 1) / 2; }
  /// The forward peak of stage j inside a sub-chain that starts before it:
  /// m_none^{s,t} = wdelta[t] + max(wa[s] + of[s], max_{s<j<t} of this).
  int64_t forwardPeakAt(int j) const { return wa[j - 1] + wa[j] + of[j]; }
  int64_t mAll(int s, int t) const {
    return std::max(wdelta[t] + wabar[s] + of[s], wdelta[s] + wabar[s] + ob[s]);
  }
  float pre(int s, int sp) const { // sum_{k=s}^{sp-1} uf[k]
    return static_cast<float>(ufPrefix[sp - 1] - ufPrefix[s - 1]);
  }
  float ufub(int s) const { return static_cast<float>(uf[s] + ub[s]); }
};

/// lo and m_none of every pair of `chain`, on integers of type Int:
/// lo(s,t) = min(max(m_none, min over s' of max(lo(s',t) + wa[s'-1],
/// lo(s,s'-1))), C2's max(m_all, lo(s+1,t) + wabar[s])).
///
/// By rows, s descending: for one s, split s' (increasing) adds its term to
/// the running minima of every t >= s' at once (a vector operation along
/// the row (s', .)), and lo(s, s'-1) is final just before, when every split
/// it has is in. No horizontal minimum per pair.
///
/// With `cap`, every lo above it is stored as cap: min(x, cap) commutes
/// with max, min and the addition of non-negative sizes, so the capped lo
/// of every pair is min(lo, cap) exactly, and wa is capped likewise. That
/// answers "is lo at most cap - 1?" on narrower integers.
template <typename Int>
void computeLo(ScaledChain &chain,
               int64_t cap = std::numeric_limits<int64_t>::max()) {
  const int n = chain.n;
  const size_t pairs = chain.numPairs();
  // lo by rows (idxS) and the running minima of one row, padded for the
  // kernel's whole blocks (it reads past a row into the next ones, all
  // final, or into the zeros after the last; what it writes past n is
  // never read).
  std::vector<Int> loRow(pairs + kLoBlock, 0), best(n + 1 + kLoBlock);
  // Where each row starts in loRow: (s, t) is at row[s] + t - s.
  std::vector<size_t> row(n + 2, pairs);
  for (int s = 1; s <= n; ++s)
    row[s] = chain.idxS(s, s);
  // chain.lo and chain.mNone are left alone when empty (the capped search
  // needs only the top pair's lo).
  const bool store = !chain.lo.empty();
  auto set = [&](int s, int t, int64_t lo) {
    lo = std::min(lo, cap);
    if (store)
      chain.lo[ScaledChain::idx(s, t)] = lo;
    loRow[row[s] + (t - s)] = static_cast<Int>(lo);
  };
  for (int s = n; s >= 1; --s) {
    set(s, s, chain.mAll(s, s));
    std::fill(best.begin() + s + 1, best.end(),
              std::numeric_limits<Int>::max());
    int64_t forwardPeak = chain.wa[s] + chain.of[s]; // m_none's, up to q
    // m_all(s, q) = max(wdelta[q] + allQ, allS); C2 adds wabar[s].
    const int64_t allQ = chain.wabar[s] + chain.of[s],
                  allS = chain.wdelta[s] + chain.wabar[s] + chain.ob[s];
    for (int q = s; q <= n; ++q) {
      if (q > s) { // every split of (s, q) is in: lo(s, q) is final
        if (q - 1 >= s + 1)
          forwardPeak = std::max(forwardPeak, chain.forwardPeakAt(q - 1));
        const int64_t mNone = chain.wdelta[q] + forwardPeak;
        if (store)
          chain.mNone[ScaledChain::idx(s, q)] = mNone;
        const int64_t opt1 = std::max<int64_t>(mNone, best[q]);
        const int64_t opt2 =
            chain.allowAll
                ? std::max({chain.wdelta[q] + allQ, allS,
                            int64_t(loRow[row[s + 1] + (q - s - 1)]) +
                                chain.wabar[s]})
                : kNever;
        set(s, q, std::min(opt1, opt2));
      }
      if (q < n) // split s' = q + 1: max(lo(s', t) + wa[q], lo(s, q))
        minMaxPlusRow(&best[q + 1], &loRow[row[q + 1]],
                      static_cast<Int>(std::min(chain.wa[q], cap)),
                      loRow[row[s] + (q - s)], n - q);
    }
  }
  chain.topLo = loRow[row[1] + (n - 1)];
}

/// `unitChain` (sizes in units) scaled, with m_none, lo and hi of every pair;
/// with `limitCap` (units), only topLo, every lo above what that limit
/// leaves for the pairs (limitCap / scale - wa[0] + 1) capped at that
/// (computeLo's cap), and no per-pair array.
ScaledChain makeScaledChain(const Chain &unitChain, bool allowAll,
                            std::optional<int64_t> limitCap = std::nullopt) {
  ScaledChain chain;
  chain.n = unitChain.numStages();
  chain.allowAll = allowAll;
  const int n = chain.n;
  int64_t unit = 0;
  __int128 total = 0; // of the sizes, in units of the chain
  for (const auto *v : {&unitChain.wa, &unitChain.wdelta, &unitChain.wabar,
                        &unitChain.of, &unitChain.ob})
    for (int64_t x : *v) {
      unit = std::gcd(unit, x);
      total += x;
    }
  if (unit <= 0)
    unit = 1;
  chain.scale = unit;
  chain.wa.resize(n + 1);
  chain.wdelta.resize(n + 1);
  for (int i = 0; i <= n; ++i) {
    chain.wa[i] = unitChain.wa[i] / unit;
    chain.wdelta[i] = unitChain.wdelta[i] / unit;
  }
  chain.wabar.assign(n + 1, 0);
  chain.of.assign(n + 1, 0);
  chain.ob.assign(n + 1, 0);
  chain.uf.assign(n + 1, 0);
  chain.ub.assign(n + 1, 0);
  chain.ufPrefix.assign(n + 1, 0);
  for (int l = 1; l <= n; ++l) {
    chain.wabar[l] = unitChain.wabarAt(l) / unit;
    chain.of[l] = unitChain.ofAt(l) / unit;
    chain.ob[l] = unitChain.obAt(l) / unit;
    chain.uf[l] = unitChain.ufAt(l);
    chain.ub[l] = unitChain.ubAt(l);
    chain.ufPrefix[l] = chain.ufPrefix[l - 1] + chain.uf[l];
  }

  // computeLo on the narrowest integers that hold every sum of its loop:
  // each lo is at most its cap and at most hi, a sum of distinct sizes (at
  // most the scaled total), and the loop adds one wa more. 16-bit integers
  // (a few thousand slots) have twice the lanes of 32-bit ones.
  const int64_t cap =
      limitCap ? std::max<int64_t>(*limitCap / unit - chain.wa[0], 0) + 1
               : std::numeric_limits<int64_t>::max();
  const int64_t bound = static_cast<int64_t>(
      std::min<__int128>(std::min<__int128>(cap, total / unit),
                         std::numeric_limits<int64_t>::max()));
  auto computeLoNarrow = [&] {
    if (bound <= std::numeric_limits<int16_t>::max() / 2)
      computeLo<int16_t>(chain, cap);
    else if (bound <= std::numeric_limits<int32_t>::max() / 2)
      computeLo<int32_t>(chain, cap);
    else
      computeLo<int64_t>(chain, cap);
  };
  if (limitCap) { // only topLo
    computeLoNarrow();
    return chain;
  }
  const size_t pairs = chain.numPairs();
  chain.mNone.assign(pairs, 0);
  chain.lo.assign(pairs, 0);
  chain.hi.assign(pairs, 0);
  computeLoNarrow();
  for (int t = 1; t <= n; ++t) {
    const size_t it = ScaledChain::idx(t, t);
    chain.hi[it] = chain.mAll(t, t);
    for (int s = t - 1; s >= 1; --s) {
      const size_t i = ScaledChain::idx(s, t);
      if (allowAll) // store-all: F_all^s, then (s+1, t) stores all.
        chain.hi[i] =
            std::max(chain.mAll(s, t),
                     chain.wabar[s] + chain.hi[ScaledChain::idx(s + 1, t)]);
      else // F_ck^s, then (s+1, t), then F_all^s B^s.
        chain.hi[i] = std::max(
            {chain.mNone[i], chain.wa[s] + chain.hi[ScaledChain::idx(s + 1, t)],
             chain.mAll(s, s)});
      assert(chain.hi[i] >= chain.lo[i]);
    }
  }
  return chain;
}

} // namespace

//===----------------------------------------------------------------------===//
// The table's storage
//===----------------------------------------------------------------------===//

namespace {

/// The table's storage. On Linux, large tables are mapped directly and
/// marked for transparent huge pages: the rows a split reads are scattered
/// over the whole table, and 2 MiB pages cut both the TLB misses and the
/// page faults of the first touch (a few % of the solve otherwise).
struct TableDeleter {
  size_t mappedBytes = 0; // 0: allocated with new[]
  void *mapped = nullptr;
  void operator()(float *p) const {
#ifdef __linux__
    if (mappedBytes) {
      munmap(mapped, mappedBytes);
      return;
    }
#endif
    delete[] p;
  }
};

std::unique_ptr<float[], TableDeleter> allocateTable(size_t floats) {
#ifdef __linux__
  constexpr size_t kHuge = size_t(2) << 20;
  const size_t bytes = floats * sizeof(float);
  if (bytes >= 2 * kHuge) {
    const size_t len = (bytes + kHuge - 1) / kHuge * kHuge + kHuge;
    void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      const uintptr_t u = reinterpret_cast<uintptr_t>(p);
      const uintptr_t aligned = (u + kHuge - 1) & ~uintptr_t(kHuge - 1);
      madvise(reinterpret_cast<void *>(aligned), len - (aligned - u),
              MADV_HUGEPAGE); // advisory: failure only costs speed
      return std::unique_ptr<float[], TableDeleter>(
          reinterpret_cast<float *>(aligned), TableDeleter{len, p});
    }
  }
#endif
  return std::unique_ptr<float[], TableDeleter>(new float[floats]);
}

} // namespace

//===----------------------------------------------------------------------===//
// The DP table
//===----------------------------------------------------------------------===//

namespace {

/// Where a row lives: m in [lo, hi] (empty when lo > hi) at data + off.
/// lo is the least m that any query reads (neededFrom), at or above the
/// least feasible m; below lo the row is infinite or never read.
struct RowMeta {
  int64_t lo, hi;
  size_t off;
};

/// The DP table: one float row per (s,t) on m in [lo, min(hi, maxM)], lo
/// as neededFrom gives it.
///
/// Row metadata is kept twice, so that both operands of a split are read
/// sequentially: by column (t-major, idx(s,t): the rows (s',t), s' > s,
/// used as "A") and by row (s-major, idxS(s,t): the rows (s,q), q < t, used
/// as "B"). `last*` hold each row's minimum (its value at hi) once computed.
struct Table {
  const ScaledChain &chain;
  std::vector<RowMeta> metaT, metaS;
  std::vector<float> lastT, lastS;
  std::unique_ptr<float[], TableDeleter> data;

  explicit Table(const ScaledChain &scaled) : chain(scaled) {}

  size_t idxS(int s, int t) const { return chain.idxS(s, t); }
  static bool empty(const RowMeta &r) { return r.lo > r.hi; }
  const float *row(const RowMeta &r) const { return data.get() + r.off; }

  /// C(s,t,m) with the constant extension above the row.
  float value(int s, int t, int64_t m) const {
    const RowMeta &r = metaT[ScaledChain::idx(s, t)];
    if (empty(r) || m < r.lo)
      return kInf;
    return row(r)[std::min(m, r.hi) - r.lo];
  }

  /// Per-pair pruning state (see applySplit).
  struct PairState {
    int64_t e;      ///< Candidates can only improve m <= e.
    float prevC;    ///< c of the previous split (c must not decrease).
    int64_t start;  ///< max(lo, m_none): no split below (hi + 1 if empty).
    int64_t lo, hi; ///< The row (copied from metaT).
    float *acc;
    /// A new pass over the splits: c may restart from below.
    void restart() {
      e = hi;
      prevC = -kInf;
    }
  };

  void beginPair(int s, int t, PairState &st);
  void applyC2(int s, int t);
  /// One operand row of a split: m in [lo, hi] (empty when lo > hi) at
  /// row[m - lo], `last` its minimum.
  struct Operand {
    const float *row;
    int64_t lo, hi;
    float last;
  };
  /// A = C(sp, t, m - wa[sp-1]), shifted to m.
  Operand operandA(int t, int sp) const {
    const size_t j = ScaledChain::idx(sp, t);
    const RowMeta &r = metaT[j];
    const int64_t shift = chain.wa[sp - 1];
    return {row(r), r.lo + shift, r.hi + shift, lastT[j]};
  }
  /// B = C(s, sp-1, m).
  Operand operandB(int s, int sp) const {
    const size_t j = idxS(s, sp - 1);
    const RowMeta &r = metaS[j];
    return {row(r), r.lo, r.hi, lastS[j]};
  }
  void applySplit(int s, int t, int sp, PairState &st) {
    applySplit(st, operandA(t, sp), operandB(s, sp), chain.pre(s, sp));
  }
  /// The split with operands A and B and p = pre(s, sp).
  void applySplit(PairState &st, const Operand &a, const Operand &b, float p);
  void finishPair(int s, int t);
  /// All of (s,t) at once: begin, C2, every split, finish.
  void computePair(int s, int t);
};

} // namespace

//===----------------------------------------------------------------------===//
// One pair (s,t): C2 and the splits of C1, pruned
//===----------------------------------------------------------------------===//

namespace {

/// acc[m - lo] = min(acc[m - lo], (p + A[m - aOff]) + B[m - bOff] (or
/// + bConst)) for m in [x, y], skipping blocks of m where the candidate
/// cannot win: both the candidate and acc are non-increasing in m, so on a
/// block [m1, m2] the candidate is >= its value at m2 and acc <= acc[m1].
template <bool BVaries>
void minAddBlocks(float *acc, int64_t lo, int64_t x, int64_t y, const float *A,
                  int64_t aOff, const float *B, int64_t bOff, float p,
                  float bConst) {
  constexpr int64_t kBlock = 32;
  auto flush = [&](int64_t from, int64_t to) {
    if (BVaries)
      minAddAB(acc + (from - lo), A + (from - aOff), B + (from - bOff), p,
               to - from + 1);
    else
      minAddA(acc + (from - lo), A + (from - aOff), p, bConst, to - from + 1);
  };
  if (y - x < 2 * kBlock) { // too short for the checks to pay off
    flush(x, y);
    return;
  }
  int64_t run = -1;
  for (int64_t m1 = x; m1 <= y; m1 += kBlock) {
    const int64_t m2 = std::min(y, m1 + kBlock - 1);
    const float lb = (p + A[m2 - aOff]) + (BVaries ? B[m2 - bOff] : bConst);
    if (lb < acc[m1 - lo]) {
      if (run < 0)
        run = m1;
    } else if (run >= 0) {
      flush(run, m1 - 1);
      run = -1;
    }
  }
  if (run >= 0)
    flush(run, y);
}

void Table::beginPair(int s, int t, PairState &st) {
  const size_t i = ScaledChain::idx(s, t);
  const RowMeta &me = metaT[i];
  st.lo = me.lo;
  st.hi = me.hi;
  st.acc = data.get() + me.off;
  st.restart();
  if (empty(me)) {
    st.start = me.hi + 1;
    return;
  }
  st.start = s < t ? std::max(me.lo, chain.mNone[i]) : me.lo;
  std::fill(st.acc, st.acc + (me.hi - me.lo + 1), kInf);
}

// C2 = uf[s] + C(s+1, t, m - wabar[s]) + ub[s]  for m >= m_all^{s,t}.
void Table::applyC2(int s, int t) {
  const RowMeta &me = metaT[ScaledChain::idx(s, t)];
  if (!chain.allowAll || empty(me))
    return;
  const size_t j = ScaledChain::idx(s + 1, t);
  const RowMeta &ra = metaT[j];
  if (empty(ra))
    return;
  const int64_t lo = me.lo, rowHi = me.hi, shift = chain.wabar[s];
  float *acc = data.get() + me.off;
  const int64_t start = std::max({lo, chain.mAll(s, t), ra.lo + shift});
  const float stageCost = chain.ufub(s);
  const float *A = row(ra);
  const int64_t e1 = std::min(rowHi, ra.hi + shift);
  if (e1 >= start)
    minAddB(acc + (start - lo), A + (start - shift - ra.lo), stageCost,
            e1 - start + 1);
  const int64_t s2 = std::max(start, ra.hi + shift + 1);
  if (s2 <= rowHi)
    minConst(acc + (s2 - lo), stageCost + lastT[j], rowHi - s2 + 1);
}

// One term of C1: pre(s,s') + C(s', t, m - wa[s'-1]) + C(s, s'-1, m), for
// m >= m_none^{s,t}.
//
// Pruning: the term is non-increasing in m and bottoms out at c (both rows
// constant); the result row is non-increasing too, so the term can only
// improve m <= e, the last m with acc[m] > c. Splits come in increasing s'
// where c grows (pre grows, the rest is the sub-chains' minima) and acc only
// shrinks, so e only moves down: a linear scan, restarted when c decreases
// (rounding, AD model, or a new pass over the splits).
inline void Table::applySplit(PairState &st, const Operand &a, const Operand &b,
                              float p) {
  const int64_t lo = st.lo, rowHi = st.hi;
  // (An empty row has lo > hi: from > rowHi then.)
  const int64_t from = std::max({st.start, a.lo, b.lo});
  if (from > rowHi || a.lo > a.hi || b.lo > b.hi)
    return;
  float *acc = st.acc;
  const float Alast = a.last, Blast = b.last;
  const float c = (p + Alast) + Blast; // the term's minimum
  if (c < st.prevC)
    st.e = rowHi;
  st.prevC = c;
  // acc is non-increasing: where it is not above c at `from`, it is not
  // above c anywhere the split reaches (the pruning scan's answer, without
  // the call).
  if (st.e < from)
    return;
  if (!(acc[from - lo] > c)) {
    st.e = from - 1;
    return;
  }
  const float *A = a.row, *B = b.row;
  const int64_t ea = a.hi, eb = b.hi; // rows vary up to ea / eb
#if CKPT_X86_DISPATCH
  // One call per split on the AVX-512 and AVX2 paths.
  if (kHasAvx512 || kHasAvx2Only) {
    float *acc0 = acc + (from - lo);
    const float *A0 = A + (from - a.lo), *B0 = B + (from - b.lo);
    const int64_t e = kHasAvx512
                          ? splitAvx512(acc0, A0, B0, p, Alast, Blast, c,
                                        st.e - from, ea - from, eb - from)
                          : splitAvx2(acc0, A0, B0, p, Alast, Blast, c,
                                      st.e - from, ea - from, eb - from);
    st.e = e + from;
    return;
  }
#endif
  int64_t e = st.e;
  while (e >= from && acc[e - lo] <= c)
    --e;
  st.e = e;
  if (e < from)
    return;
  const int64_t end = e;
  const int64_t e1 = std::min({end, ea, eb});
  if (e1 >= from)
    minAddBlocks<true>(acc, lo, from, e1, A, a.lo, B, b.lo, p, 0.0f);
  if (ea < eb) {
    const int64_t s2 = std::max(from, ea + 1), e2 = std::min(end, eb);
    if (e2 >= s2)
      minAddB(acc + (s2 - lo), B + (s2 - b.lo), p + Alast, e2 - s2 + 1);
  } else if (eb < ea) {
    const int64_t s2 = std::max(from, eb + 1), e2 = std::min(end, ea);
    if (e2 >= s2)
      minAddBlocks<false>(acc, lo, s2, e2, A, a.lo, B, b.lo, p, Blast);
  }
  const int64_t s3 = std::max(from, std::max(ea, eb) + 1);
  if (s3 <= end)
    minConst(acc + (s3 - lo), c, end - s3 + 1);
}

void Table::finishPair(int s, int t) {
  const size_t i = ScaledChain::idx(s, t);
  const RowMeta &me = metaT[i];
  if (empty(me))
    return;
  float *acc = data.get() + me.off;
  const ptrdiff_t len = static_cast<ptrdiff_t>(me.hi - me.lo + 1);
  if (s == t) // Eq. (1): lo = m_all^{s,s}.
    std::fill(acc, acc + len, chain.ufub(s));
  assert(acc[0] < kInf && "lo(s,t) must be feasible");
  lastT[i] = lastS[idxS(s, t)] = acc[len - 1];
}

void Table::computePair(int s, int t) {
  if (s < t) {
    PairState st;
    beginPair(s, t, st);
    applyC2(s, t);
    for (int sp = s + 1; sp <= t; ++sp)
      applySplit(s, t, sp, st);
  }
  finishPair(s, t);
}

} // namespace

//===----------------------------------------------------------------------===//
// Filling the table: column blocks, row tiles, threads
//===----------------------------------------------------------------------===//

namespace {

/// Micro-tile side and split chunk of fillBlock's phase 1.
constexpr int kMicro = 4, kSplitChunk = 32;

/// Waits (spin, then yield) until `flag` is set.
void waitDone(const std::atomic<uint8_t> &flag) {
  for (int spin = 0; !flag.load(std::memory_order_acquire); ++spin) {
    if (spin < 256)
      CKPT_PAUSE();
    else
      std::this_thread::yield();
  }
}

/// Fills the pairs (s, t) with t in the column block [t0, t1].
///
/// First the triangle s >= t0 pair by pair (s descending, t ascending).
/// Then tiles of rows [s0, s1] (s1 < t0, going up): a pair (s,t) of a tile
/// has "external" splits s' in (s1, t0], whose rows (s', t) and (s, s'-1)
/// are outside the tile and already done, and "internal" ones in (s, s1] and
/// (t0, t], which need rows of the tile itself. Phase 1 applies the
/// external splits like a blocked matrix product (split outermost, then the
/// tile's pairs): each row (s, s'-1) is reused for all t of the tile and
/// each row (s', t) for all s, from cache. Phase 2 completes each pair (C2,
/// internal splits) in dependency order.
///
/// With `done` (several threads), a tile first waits for (s0, t0-1), the
/// previous block's pair that completes its rows s >= s0, and every pair is
/// flagged when complete.
void fillBlock(Table &table, int t0, int t1, int tileRows,
               std::atomic<uint8_t> *done) {
  auto mark = [&](int s, int t) {
    if (done)
      done[ScaledChain::idx(s, t)].store(1, std::memory_order_release);
  };
  for (int s = t1; s >= t0; --s)
    for (int t = s; t <= t1; ++t) {
      table.computePair(s, t);
      mark(s, t);
    }
  const int blockCols = t1 - t0 + 1;
  std::vector<Table::PairState> states(static_cast<size_t>(tileRows) *
                                       blockCols);
  std::vector<Table::Operand> opsA(static_cast<size_t>(kSplitChunk) *
                                   blockCols),
      opsB(static_cast<size_t>(tileRows) * kSplitChunk);
  std::vector<float> pres(opsB.size());
  for (int s1 = t0 - 1; s1 >= 1;) {
    const int s0 = std::max(1, s1 - tileRows + 1);
    if (done)
      waitDone(done[ScaledChain::idx(s0, t0 - 1)]);
    auto state = [&](int s, int t) -> Table::PairState & {
      return states[static_cast<size_t>(s - s0) * blockCols + (t - t0)];
    };
    for (int s = s0; s <= s1; ++s)
      for (int t = t0; t <= t1; ++t)
        table.beginPair(s, t, state(s, t));
    // Phase 1: external splits, in chunks of kSplitChunk, each applied by
    // micro-tiles of kMicro x kMicro pairs (splits inside, pairs outside):
    // a micro-tile's rows stay in L1 for a whole chunk, while the chunk's
    // operand rows (kSplitChunk per row and per column of the tile) stay in
    // L2. Every pair still sees its splits in increasing order.
    // The chunk's operands are gathered first (each is used by a whole row
    // or column of the tile).
    for (int spa = s1 + 1; spa <= t0; spa += kSplitChunk) {
      const int spb = std::min(t0, spa + kSplitChunk - 1);
      const int chunk = spb - spa + 1;
      for (int sp = spa; sp <= spb; ++sp)
        for (int t = t0; t <= t1; ++t)
          opsA[static_cast<size_t>(sp - spa) * blockCols + (t - t0)] =
              table.operandA(t, sp);
      for (int s = s0; s <= s1; ++s)
        for (int sp = spa; sp <= spb; ++sp) {
          const size_t k =
              static_cast<size_t>(s - s0) * kSplitChunk + (sp - spa);
          opsB[k] = table.operandB(s, sp);
          pres[k] = table.chain.pre(s, sp);
        }
      for (int tg = t0; tg <= t1; tg += kMicro)
        for (int sg = s0; sg <= s1; sg += kMicro) {
          const int te = std::min(t1, tg + kMicro - 1);
          const int se = std::min(s1, sg + kMicro - 1);
          for (int k = 0; k < chunk; ++k)
            for (int s = sg; s <= se; ++s) {
              const size_t kb = static_cast<size_t>(s - s0) * kSplitChunk + k;
              const Table::Operand &b = opsB[kb];
              const float p = pres[kb];
              const Table::Operand *a =
                  &opsA[static_cast<size_t>(k) * blockCols];
              for (int t = tg; t <= te; ++t)
                table.applySplit(state(s, t), a[t - t0], b, p);
            }
        }
    }
    for (int s = s1; s >= s0; --s) // phase 2: C2 and internal splits
      for (int t = t0; t <= t1; ++t) {
        Table::PairState &ps = state(s, t);
        table.applyC2(s, t);
        ps.restart();
        for (int sp = s + 1; sp <= s1; ++sp)
          table.applySplit(s, t, sp, ps);
        for (int sp = t0 + 1; sp <= t; ++sp)
          table.applySplit(s, t, sp, ps);
        table.finishPair(s, t);
        mark(s, t);
      }
    s1 = s0 - 1;
  }
}

/// Fills the table by blocks of `cols` columns; with several threads each
/// takes the next block, a pipelined wavefront (see fillBlock).
void fillTable(Table &table, unsigned threads, int cols, int tileRows) {
  const int n = table.chain.n;
  cols = std::max(cols, 1);
  tileRows = std::max(tileRows, 1);
  if (threads <= 1) {
    for (int t0 = 1; t0 <= n; t0 += cols)
      fillBlock(table, t0, std::min(n, t0 + cols - 1), tileRows, nullptr);
    return;
  }
  const size_t pairs = table.chain.numPairs();
  std::unique_ptr<std::atomic<uint8_t>[]> done(new std::atomic<uint8_t>[pairs]);
  for (size_t k = 0; k < pairs; ++k)
    done[k].store(0, std::memory_order_relaxed);
  std::atomic<int> nextBlock{0};
  auto worker = [&]() {
    for (;;) {
      const int t0 =
          1 + cols * nextBlock.fetch_add(1, std::memory_order_relaxed);
      if (t0 > n)
        return;
      fillBlock(table, t0, std::min(n, t0 + cols - 1), tileRows, done.get());
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k)
    pool.emplace_back(worker);
  worker();
  for (auto &th : pool)
    th.join();
}

} // namespace

//===----------------------------------------------------------------------===//
// Rebuilding the sequence (Algorithm 2)
//===----------------------------------------------------------------------===//

namespace {

/// Algorithm 2, with an explicit stack.
bool reconstruct(const Table &table, int64_t m0, std::vector<Op> &seq) {
  const ScaledChain &chain = table.chain;
  struct Task {
    bool emit;
    Op op;
    int s, t;
    int64_t m;
  };
  std::vector<Task> stack;
  stack.push_back({false, Op{}, 1, chain.n, m0});
  auto emit = [&](OpKind k, int l) {
    stack.push_back({true, Op{k, l}, 0, 0, 0});
  };
  while (!stack.empty()) {
    Task task = stack.back();
    stack.pop_back();
    if (task.emit) {
      seq.push_back(task.op);
      continue;
    }
    const int s = task.s, t = task.t;
    const int64_t m = task.m;
    if (s == t) {
      if (m < chain.mAll(s, s))
        return false;
      emit(OpKind::Backward, s);
      emit(OpKind::FAll, s);
      continue;
    }
    float best = kInf;
    int choice = -1; // 0: C2 (F_all^s), else the split s'
    if (chain.allowAll && m >= chain.mAll(s, t)) {
      float v = chain.ufub(s) + table.value(s + 1, t, m - chain.wabar[s]);
      if (v < best) {
        best = v;
        choice = 0;
      }
    }
    if (m >= chain.mNone[ScaledChain::idx(s, t)]) {
      for (int sp = s + 1; sp <= t; ++sp) {
        float v =
            (chain.pre(s, sp) + table.value(sp, t, m - chain.wa[sp - 1])) +
            table.value(s, sp - 1, m);
        if (v < best) {
          best = v;
          choice = sp;
        }
      }
    }
    if (choice < 0)
      return false;
    if (choice == 0) {
      emit(OpKind::Backward, s);
      stack.push_back({false, Op{}, s + 1, t, m - chain.wabar[s]});
      emit(OpKind::FAll, s);
    } else {
      const int sp = choice;
      stack.push_back({false, Op{}, s, sp - 1, m});
      stack.push_back({false, Op{}, sp, t, m - chain.wa[sp - 1]});
      for (int k = sp - 1; k > s; --k)
        emit(OpKind::FNone, k);
      emit(OpKind::FCk, s);
    }
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Solving
//===----------------------------------------------------------------------===//

namespace {

/// The worker threads for a chain of `n` stages: `requested`, or (0) the
/// hardware's, at most 8; one below 48 stages.
unsigned pickThreads(unsigned requested, int n) {
  unsigned th = requested;
  if (th == 0) {
    th = std::thread::hardware_concurrency();
    if (th == 0)
      th = 1;
    th = std::min(th, 8u);
  }
  if (n < 48) // not worth a thread
    th = 1;
  return th;
}

} // namespace

int64_t ckpt::solver::minFeasibleLimit(const Chain &unitChain,
                                       bool allowAllChains) {
  // No cap that a limit can reach: only lo(1, n), no per-pair array.
  return minFeasibleLimit(unitChain, allowAllChains,
                          std::numeric_limits<int64_t>::max() - 1);
}

int64_t ckpt::solver::minFeasibleLimit(const Chain &unitChain,
                                       bool allowAllChains, int64_t cap) {
  cap = std::clamp<int64_t>(cap, 0, std::numeric_limits<int64_t>::max() - 1);
  ScaledChain chain = makeScaledChain(unitChain, allowAllChains, cap);
  const int64_t limit = (chain.topLo + chain.wa[0]) * chain.scale;
  return std::min(limit, cap + 1);
}

namespace {
/// The least m at which anything reads C(s,t,m), by pair (idx(s,t)), when
/// the top pair (1,n) is read on [topFrom, maxM]: the DP's splits and C2
/// over their ranges (from applySplit's `from` up), and Algorithm 2. Rows
/// are only computed and stored from there: below it every value that is
/// read is infinite (below the least feasible m), so the table, its
/// values and the sequence are the same, in less memory and time. A row
/// nothing reads gets maxM + 1 (not stored); one read only above its hi
/// (where the constant extension answers) gets its hi.
///
/// Readers come before what they read in the order t descending, s
/// ascending: (s,t) reads (s',t) for s' > s and (s,q) for q < t. `fromT`
/// gathers the reads of rows as A (and C2) by column, `fromS` those as B by
/// row, so that both inner loops are contiguous.
template <typename Int>
std::vector<int64_t> neededFromOn(const ScaledChain &chain, const Table &table,
                                  int64_t maxM, int64_t topFrom) {
  const int n = chain.n;
  const size_t pairs = chain.numPairs();
  // Every value at or above maxM + 1 stands for "above every m read": the
  // decisions (f <= top, the minima that mark) are the same with it, and
  // sums stay within Int.
  const int64_t over = maxM + 1;
  auto clamp = [&](int64_t x) { return static_cast<Int>(std::min(x, over)); };
  const Int kUnread = clamp(std::numeric_limits<int64_t>::max());
  std::vector<Int> fromT(pairs, kUnread), fromS(pairs, kUnread);
  // lo and the capped hi by columns (A operands, idx) and by rows (B
  // operands, idxS), and wa, all clamped.
  std::vector<Int> loT(pairs), loS(pairs), hiT(pairs), hiS(pairs),
      wa(chain.wa.size());
  for (size_t k = 0; k < wa.size(); ++k)
    wa[k] = clamp(chain.wa[k]);
  for (int t = 1; t <= n; ++t)
    for (int s = 1; s <= t; ++s) {
      const size_t i = ScaledChain::idx(s, t), k = table.idxS(s, t);
      hiT[i] = hiS[k] = clamp(std::min(chain.hi[i], maxM));
      loT[i] = loS[k] = clamp(chain.lo[i]);
    }
  const size_t top = ScaledChain::idx(1, n);
  fromT[top] = std::min(clamp(topFrom), hiT[top]); // above hi: hi answers
  std::vector<int64_t> out(pairs, maxM + 1);
  for (int t = n; t >= 1; --t)
    for (int s = 1; s <= t; ++s) {
      const size_t i = ScaledChain::idx(s, t), k = table.idxS(s, t);
      const Int rowHi = hiT[i];
      const Int first = std::max(std::min(fromT[i], fromS[k]), loT[i]);
      if (first > rowHi)
        continue; // nothing reads it (or it is infeasible up to maxM)
      out[i] = first;
      if (s == t)
        continue;
      // Splits s' in (s, t]: A = (s', t) at m - wa[s'-1], B = (s, s'-1) at
      // m, for m from max(start, lo_A + wa[s'-1], lo_B) (applySplit's
      // `from`) up to rowHi. An empty operand has lo > its capped hi, so
      // its `from` is above rowHi.
      const Int start = std::max(first, clamp(chain.mNone[i]));
      const size_t a0 = ScaledChain::idx(s + 1, t), b0 = table.idxS(s, s);
      markReads(&fromT[a0], &fromS[b0], &loT[a0], &hiT[a0], &wa[s], &loS[b0],
                &hiS[b0], start, rowHi, t - s);
      if (chain.allowAll) { // C2: (s+1, t) at m - wabar[s], m >= m_all
        const int64_t shift = chain.wabar[s];
        const int64_t from =
            std::max<int64_t>({first, chain.mAll(s, t), chain.lo[a0] + shift});
        if (from <= rowHi)
          fromT[a0] = std::min({fromT[a0], clamp(from - shift), hiT[a0]});
      }
    }
  return out;
}

/// neededFromOn on 32-bit integers when the budget allows (slot mode).
std::vector<int64_t> neededFrom(const ScaledChain &chain, const Table &table,
                                int64_t maxM, int64_t topFrom) {
  if (maxM < std::numeric_limits<int32_t>::max() / 4)
    return neededFromOn<int32_t>(chain, table, maxM, topFrom);
  return neededFromOn<int64_t>(chain, table, maxM, topFrom);
}

/// Lays out and fills the table of `chain` for m up to `maxM`, the top pair
/// read on [topFrom, maxM].
bool buildTable(const ScaledChain &chain, int64_t maxM, int64_t topFrom,
                const DPOptions &options, Table &table, size_t &tableBytes,
                std::string &error) {
  const int n = chain.n;
  const size_t pairs = chain.numPairs();
  table.metaT.resize(pairs);
  table.metaS.resize(pairs);
  table.lastT.assign(pairs, kInf);
  table.lastS.assign(pairs, kInf);
  const std::vector<int64_t> first = neededFrom(chain, table, maxM, topFrom);
  size_t total = 0;
  for (int t = 1; t <= n; ++t)
    for (int s = 1; s <= t; ++s) {
      const size_t i = ScaledChain::idx(s, t);
      RowMeta r{first[i], std::min(chain.hi[i], maxM), total};
      if (r.lo <= r.hi) {
        total += static_cast<size_t>(r.hi - r.lo + 1);
        if (total > options.maxTableBytes / sizeof(float)) {
          error = "the DP table would exceed " +
                  std::to_string(options.maxTableBytes >> 20) +
                  " MiB: memory sizes are too large for exact mode, use "
                  "slots (e.g. 500)";
          return false;
        }
      }
      table.metaT[i] = r;
      table.metaS[table.idxS(s, t)] = r;
    }
  table.data = allocateTable(std::max<size_t>(total, 1));
  tableBytes = total * sizeof(float);
  fillTable(table, pickThreads(options.threads, n), options.tileColumns,
            options.tileRows);
  return true;
}

double sequenceMakespan(const Chain &unitChain, const std::vector<Op> &seq) {
  double sum = 0;
  for (const Op &op : seq)
    sum += op.kind == OpKind::Backward ? unitChain.ubAt(op.stage)
                                       : unitChain.ufAt(op.stage);
  return sum;
}
} // namespace

DPSolution ckpt::solver::solveChainDP(const Chain &unitChain, int64_t limit,
                                      const DPOptions &options) {
  DPSolution sol;
  ScaledChain chain = makeScaledChain(unitChain, options.allowAllChains);
  const int n = chain.n;
  const size_t top = ScaledChain::idx(1, n);
  sol.minFeasibleLimit = (chain.lo[top] + chain.wa[0]) * chain.scale;
  if (limit < 0)
    limit = 0;
  const int64_t maxM =
      limit / chain.scale - chain.wa[0]; // largest m ever queried
  if (maxM < chain.lo[top])
    return sol; // infeasible

  Table table(chain);
  if (!buildTable(chain, maxM, maxM, options, table, sol.tableBytes, sol.error))
    return sol;

  sol.feasible = true;
  if (!options.reconstruct) {
    sol.makespan = table.value(1, n, maxM);
    return sol;
  }
  if (!reconstruct(table, maxM, sol.sequence)) {
    sol.error = "internal error: sequence reconstruction failed";
    sol.feasible = false;
    return sol;
  }
  sol.makespan = sequenceMakespan(unitChain, sol.sequence);
  return sol;
}

//===----------------------------------------------------------------------===//
// ChainDPTable: one table, many limits
//===----------------------------------------------------------------------===//

/// The chain, its scaled form and the table filled for maxLimit.
struct ChainDPTable::Impl {
  Chain unitChain;
  ScaledChain chain;
  Table table;
  int64_t maxLimit = 0;
  explicit Impl(const Chain &c, bool allowAll)
      : unitChain(c), chain(makeScaledChain(c, allowAll)), table(chain) {}
};

ChainDPTable::ChainDPTable(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
ChainDPTable::~ChainDPTable() = default;

std::unique_ptr<ChainDPTable> ChainDPTable::build(const Chain &unitChain,
                                                  int64_t maxLimit,
                                                  const DPOptions &options,
                                                  std::string &error) {
  auto impl = std::make_unique<Impl>(unitChain, options.allowAllChains);
  impl->maxLimit = std::max<int64_t>(maxLimit, 0);
  const ScaledChain &chain = impl->chain;
  const int64_t maxM = impl->maxLimit / chain.scale - chain.wa[0];
  size_t bytes = 0;
  if (maxM >= chain.lo[ScaledChain::idx(1, chain.n)] &&
      !buildTable(chain, maxM, chain.lo[ScaledChain::idx(1, chain.n)], options,
                  impl->table, bytes, error))
    return nullptr;
  return std::unique_ptr<ChainDPTable>(new ChainDPTable(std::move(impl)));
}

int64_t ChainDPTable::minFeasibleLimit() const {
  const ScaledChain &chain = impl->chain;
  return (chain.lo[ScaledChain::idx(1, chain.n)] + chain.wa[0]) * chain.scale;
}

int64_t ChainDPTable::maxLimit() const { return impl->maxLimit; }

bool ChainDPTable::solve(int64_t limit, std::vector<Op> &sequence,
                         double &makespan) const {
  sequence.clear();
  makespan = 0;
  const ScaledChain &chain = impl->chain;
  limit = std::min(limit, impl->maxLimit);
  const int64_t maxM = limit / chain.scale - chain.wa[0];
  if (limit < minFeasibleLimit() ||
      maxM < chain.lo[ScaledChain::idx(1, chain.n)] || !impl->table.data)
    return false;
  if (!reconstruct(impl->table, maxM, sequence)) {
    sequence.clear();
    return false;
  }
  makespan = sequenceMakespan(impl->unitChain, sequence);
  return true;
}
