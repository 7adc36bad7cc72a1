//===- NaiveChainDP.h - Reference implementation of Theorem 1 ---*- C++ -*-===//
//
// A deliberately straightforward implementation of Theorem 1 of Beaumont et
// al. 2019, laid out like the paper's C code: a full table C[m][s][t] for
// every m in 0..limit - wa[0], the split loop innermost, no pruning, no
// bounds, no threads. It is the cross-check for the fast solver (unit tests)
// and the "naive" time in the benchmark. Test/benchmark code only.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TESTING_NAIVECHAINDP_H
#define CKPT_TESTING_NAIVECHAINDP_H

#include "ckpt/Solver/Chain/ChainModel.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ckpt {
namespace solver {
namespace naive {

/// C_BP(1, L+1, limit - wa[0]) for `u` (sizes in units), +infinity when
/// infeasible. allowAllChains = false gives the AD-model variant (C2 only
/// for s = t) used by the revolve baseline.
template <typename T = double>
T solve(const Chain &u, int64_t limit, bool allowAllChains = true) {
  const T inf = std::numeric_limits<T>::infinity();
  const int n = u.numStages();
  const int64_t M = limit - u.wa[0];
  if (M < 0)
    return inf;
  // 1-based arrays as in the paper.
  auto a = [&](int i) { return u.wa[i]; };
  auto d = [&](int i) { return u.wdelta[i]; };
  auto ab = [&](int l) { return u.wabarAt(l); };
  auto of = [&](int l) { return u.ofAt(l); };
  auto ob = [&](int l) { return u.obAt(l); };
  auto uf = [&](int l) { return static_cast<T>(u.ufAt(l)); };
  auto ub = [&](int l) { return static_cast<T>(u.ubAt(l)); };
  auto mAll = [&](int s, int t) {
    return std::max(d(t) + ab(s) + of(s), d(s) + ab(s) + ob(s));
  };
  auto mNone = [&](int s, int t) {
    int64_t v = d(t) + a(s) + of(s);
    for (int j = s + 1; j < t; ++j)
      v = std::max(v, d(t) + a(j - 1) + a(j) + of(j));
    return v;
  };
  const size_t N = static_cast<size_t>(n) + 1;
  std::vector<T> C(static_cast<size_t>(M + 1) * N * N, inf);
  auto at = [&](int64_t m, int s, int t) -> T & {
    return C[(static_cast<size_t>(m) * N + s) * N + t];
  };
  auto get = [&](int64_t m, int s, int t) -> T {
    return m < 0 ? inf : at(m, s, t);
  };
  // Thresholds do not depend on m: precompute them.
  std::vector<int64_t> mn(N * N, 0), ma(N * N, 0);
  for (int s = 1; s <= n; ++s)
    for (int t = s; t <= n; ++t) {
      ma[s * N + t] = mAll(s, t);
      if (s < t)
        mn[s * N + t] = mNone(s, t);
    }
  for (int64_t m = 0; m <= M; ++m) {
    for (int s = 1; s <= n; ++s) // Eq. (1)
      at(m, s, s) = m >= ma[s * N + s] ? uf(s) + ub(s) : inf;
    for (int len = 1; len < n; ++len)
      for (int s = 1; s + len <= n; ++s) {
        const int t = s + len;
        T c1 = inf, c2 = inf;
        if (m >= mn[s * N + t]) {
          T sum = 0;                            // sum_{k=s}^{s'-1} uf(k)
          for (int sp = s + 1; sp <= t; ++sp) { // C_ck(s, s', t, m)
            sum += uf(sp - 1);
            T v = sum + get(m - a(sp - 1), sp, t) + get(m, s, sp - 1);
            c1 = std::min(c1, v);
          }
        }
        if (allowAllChains && m >= ma[s * N + t]) // C_all(s, t, m)
          c2 = uf(s) + get(m - ab(s), s + 1, t) + ub(s);
        at(m, s, t) = std::min(c1, c2);
      }
  }
  return at(M, 1, n);
}

} // namespace naive
} // namespace solver
} // namespace ckpt

#endif // CKPT_TESTING_NAIVECHAINDP_H
