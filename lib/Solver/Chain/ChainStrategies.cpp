//===- ChainStrategies.cpp - Checkpointing strategies on a chain ----------===//

#include "ckpt/Solver/Chain/ChainStrategies.h"

#include "ckpt/Solver/Chain/ChainDP.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

using namespace ckpt::solver;

namespace {
/// Upper bound on the slot count (the DP table is O(S L^2)).
constexpr int64_t kMaxSlots = int64_t(1) << 20;
} // namespace

std::string Strategy::name() const {
  switch (kind) {
  case Kind::Optimal:
    return "optimal";
  case Kind::StoreAll:
    return "store-all";
  case Kind::Periodic:
    return "periodic:" + std::to_string(segments);
  case Kind::Sqrt:
    return "sqrt";
  case Kind::Revolve:
    return "revolve";
  case Kind::MemoryPoor:
    return "memory-poor";
  }
  return "?";
}

bool ckpt::solver::parseStrategy(std::string_view text, Strategy &out,
                                 std::string &error) {
  static const std::pair<const char *, Strategy::Kind> simple[] = {
      {"optimal", Strategy::Kind::Optimal},
      {"store-all", Strategy::Kind::StoreAll},
      {"sqrt", Strategy::Kind::Sqrt},
      {"revolve", Strategy::Kind::Revolve},
      {"memory-poor", Strategy::Kind::MemoryPoor}};
  for (const auto &s : simple)
    if (text == s.first) {
      out = Strategy{s.second, 0};
      return true;
    }
  int segments = 0;
  if (parsePeriodic(text, segments, error)) {
    if (segments == 0)
      return false;
    out = Strategy{Strategy::Kind::Periodic, segments};
    return true;
  }
  error = "unknown strategy '" + std::string(text) +
          "' (expected optimal, store-all, periodic:K, sqrt, revolve or "
          "memory-poor)";
  return false;
}

bool ckpt::solver::parsePeriodic(std::string_view text, int &segments,
                                 std::string &error) {
  constexpr std::string_view kPeriodic = "periodic:";
  if (text.substr(0, kPeriodic.size()) != kPeriodic)
    return false;
  std::string_view digits = text.substr(kPeriodic.size());
  int k = 0;
  auto parsed =
      std::from_chars(digits.data(), digits.data() + digits.size(), k);
  if (digits.empty() || parsed.ec != std::errc() ||
      parsed.ptr != digits.data() + digits.size() || k < 1) {
    segments = 0;
    error = "invalid strategy '" + std::string(text) +
            "': periodic:K needs an integer K >= 1";
    return true;
  }
  segments = k;
  return true;
}

std::string ckpt::solver::strategyHelp() {
  return "  optimal      optimal persistent schedule (Beaumont et al. 2019, "
         "Theorem 1)\n"
         "  store-all    F_all every stage, no recomputation\n"
         "  periodic:K   PyTorch checkpoint_sequential with K segments\n"
         "  sqrt         periodic:K with K = round(sqrt(L))\n"
         "  revolve      AD-model optimum (only a stored, F_all before each "
         "B)\n"
         "  memory-poor  keep only a^0, recompute from it before each B\n";
}

std::vector<Op> ckpt::solver::storeAllSequence(int L) {
  std::vector<Op> seq;
  for (int l = 1; l <= L + 1; ++l)
    seq.push_back({OpKind::FAll, l});
  for (int l = L + 1; l >= 1; --l)
    seq.push_back({OpKind::Backward, l});
  return seq;
}

std::vector<Op> ckpt::solver::periodicSequence(int L, int K) {
  if (L <= 0 || K <= 1)
    return storeAllSequence(L);
  const int seg = L / K;
  std::vector<Op> seq;
  // Forward: K-1 checkpointed segments keep only their input.
  for (int j = 0; j < K - 1; ++j) {
    const int p = j * seg + 1, q = (j + 1) * seg;
    seq.push_back({OpKind::FCk, p});
    for (int l = p + 1; l <= q; ++l)
      seq.push_back({OpKind::FNone, l});
  }
  // The last segment and the loss run normally (with autograd).
  const int r = (K - 1) * seg + 1;
  for (int l = r; l <= L + 1; ++l)
    seq.push_back({OpKind::FAll, l});
  for (int l = L + 1; l >= r; --l)
    seq.push_back({OpKind::Backward, l});
  // Backward of each checkpointed segment: recompute it with autograd.
  for (int j = K - 2; j >= 0; --j) {
    const int p = j * seg + 1, q = (j + 1) * seg;
    for (int l = p; l <= q; ++l)
      seq.push_back({OpKind::FAll, l});
    for (int l = q; l >= p; --l)
      seq.push_back({OpKind::Backward, l});
  }
  return seq;
}

std::vector<Op> ckpt::solver::memoryPoorSequence(int L) {
  std::vector<Op> seq;
  for (int l = L + 1; l >= 1; --l) {
    if (l >= 2) {
      seq.push_back({OpKind::FCk, 1});
      for (int k = 2; k <= l - 1; ++k)
        seq.push_back({OpKind::FNone, k});
    }
    seq.push_back({OpKind::FAll, l});
    seq.push_back({OpKind::Backward, l});
  }
  return seq;
}

namespace {

bool isDP(const Strategy &s) {
  return s.kind == Strategy::Kind::Optimal || s.kind == Strategy::Kind::Revolve;
}

/// Checks the chain, strategy and slot count; returns an error message.
std::string checkInputs(const Chain &chain, const Strategy &strategy,
                        int64_t slots) {
  std::string err = chain.validate();
  if (!err.empty())
    return err;
  if (slots < 0)
    return "slots must be a positive integer (or 0 for exact sizes)";
  if (slots > kMaxSlots)
    return "slots must be at most " + std::to_string(kMaxSlots);
  if (strategy.kind == Strategy::Kind::Periodic) {
    const int L = chain.length();
    if (strategy.segments < 1 || strategy.segments > std::max(L, 1))
      return "strategy periodic:" + std::to_string(strategy.segments) +
             " needs 1 <= K <= L (L = " + std::to_string(L) + ")";
  }
  return "";
}

std::vector<Op> fixedSequence(const Chain &chain, const Strategy &s) {
  const int L = chain.length();
  switch (s.kind) {
  case Strategy::Kind::StoreAll:
    return storeAllSequence(L);
  case Strategy::Kind::Periodic:
    return periodicSequence(L, s.segments);
  case Strategy::Kind::Sqrt: {
    int k = static_cast<int>(std::lround(std::sqrt(static_cast<double>(L))));
    return periodicSequence(L, std::max(1, k));
  }
  case Strategy::Kind::MemoryPoor:
    return memoryPoorSequence(L);
  default:
    return {};
  }
}

/// The distinct positive sizes of `chain`, ascending.
std::vector<int64_t> distinctSizes(const Chain &chain) {
  std::vector<int64_t> sizes;
  for (const auto *v :
       {&chain.wa, &chain.wdelta, &chain.wabar, &chain.of, &chain.ob})
    for (int64_t x : *v)
      if (x > 0)
        sizes.push_back(x);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

/// The budgets M in [lo, hi] at which the slot count ceil(x * slots / M) of
/// one of `sizes` (distinctSizes of a chain of `stages` stages) drops
/// (x * slots / k rounded up, for integers k), plus lo and hi, sorted: the
/// slot counts, and so any feasibility, are constant from one to the next.
/// Empty when bisecting the integers of [lo, hi] costs less.
std::vector<int64_t> slotBreakpoints(const std::vector<int64_t> &sizes,
                                     int stages, int64_t slots, int64_t lo,
                                     int64_t hi) {
  auto ceilDiv = [](__int128 a, __int128 b) { return (a + b - 1) / b; };
  // For x: k from ceil(x S / hi) (the budget is at most hi) to
  // ceil(x S / lo) - 1 (above lo).
  __int128 count = 0;
  for (int64_t x : sizes)
    count +=
        ceilDiv(__int128(x) * slots, lo) - ceilDiv(__int128(x) * slots, hi);
  // Listing and sorting them must cost less than the tests it saves (one
  // test of a chain of L stages is about L^3 / 6 steps).
  const __int128 L = stages, testWork = L * L * L / 6;
  std::vector<int64_t> out;
  if (count >= (__int128(hi) - lo) / 2 ||
      count > std::min<__int128>(1 << 22, std::max<__int128>(1024, testWork)))
    return out; // bisecting the integers costs less
  out.reserve(static_cast<size_t>(count) + 2);
  out.push_back(lo);
  for (int64_t x : sizes) {
    const __int128 xs = __int128(x) * slots;
    for (__int128 k = ceilDiv(xs, hi), kEnd = ceilDiv(xs, lo); k < kEnd; ++k)
      out.push_back(static_cast<int64_t>(ceilDiv(xs, k)));
  }
  out.push_back(hi);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// The least limit in units at which `strategy` is feasible with budget M
/// and `slots` slots (slots > 0): the DP's feasibility bound, or the fixed
/// sequence's peak. It is feasible at M when this is at most `slots`. The
/// DP's bound is only exact up to 2 * slots (above, 2 * slots + 1): enough
/// for the search, on narrower integers.
int64_t slotsNeeded(const Chain &chain, const Strategy &strategy,
                    const std::vector<Op> &fixed, int64_t M, int64_t slots) {
  Chain u = toUnits(chain, MemoryModel{M, slots});
  if (isDP(strategy))
    return minFeasibleLimit(u, strategy.kind == Strategy::Kind::Optimal,
                            2 * slots);
  return simulate(u, fixed).peak;
}

/// The memory the slots needed at budget M take, ceil(n * M / S) for n
/// slots needed: near the answer it moves only with the rounding of sizes,
/// so it is where the search looks next.
int64_t slotBytes(int64_t n, int64_t M, int64_t slots) {
  const __int128 v = (__int128(n) * M + slots - 1) / slots;
  return static_cast<int64_t>(
      std::min<__int128>(v, std::numeric_limits<int64_t>::max()));
}

/// The least M in (a, b] at which `feasible` holds, for b feasible and
/// feasibility monotone in M and constant between the budgets of
/// slotBreakpoints: a bisection over those budgets (or over the integers
/// when listing them costs more).
template <typename Feasible>
int64_t leastFeasibleIn(int64_t a, int64_t b, const std::vector<int64_t> &sizes,
                        int stages, int64_t slots, Feasible feasible) {
  const std::vector<int64_t> budgets =
      slotBreakpoints(sizes, stages, slots, a + 1, b);
  auto budget = [&](int64_t k) { return budgets.empty() ? k : budgets[k]; };
  int64_t lo = budgets.empty() ? a + 1 : 0,
          hi = budgets.empty() ? b : static_cast<int64_t>(budgets.size()) - 1;
  while (lo < hi) { // budget(hi) is feasible
    const int64_t mid = lo + (hi - lo) / 2;
    if (feasible(budget(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return budget(lo);
}

} // namespace

bool ckpt::solver::minFeasibleMemory(const Chain &chain,
                                     const Strategy &strategy, int64_t slots,
                                     std::optional<int64_t> &out,
                                     std::string &error,
                                     const SlotProbe *known) {
  out.reset();
  error = checkInputs(chain, strategy, slots);
  if (!error.empty())
    return false;
  const bool allowAll = strategy.kind == Strategy::Kind::Optimal;
  std::vector<Op> fixed = fixedSequence(chain, strategy);
  if (slots == 0) { // exact sizes: the answer directly
    out = std::max<int64_t>(isDP(strategy) ? minFeasibleLimit(chain, allowAll)
                                           : simulate(chain, fixed).peak,
                            1);
    return true;
  }
  // Slot mode. Feasibility is monotone in M (rounded sizes only shrink as M
  // grows), and from hi = maxSize * S up every non-zero size is one slot.
  const std::vector<int64_t> sizes = distinctSizes(chain);
  const int64_t hi =
      std::max<int64_t>((sizes.empty() ? 0 : sizes.back()) * slots, 1);
  auto needed = [&](int64_t M) {
    return slotsNeeded(chain, strategy, fixed, std::min(M, hi), slots);
  };
  // The search keeps a (infeasible; 0: none known) below b (feasible) and
  // probes where slotBytes(n, M), the memory the slots needed at M take,
  // points to: it moves only with the rounding of sizes, so a few probes
  // bring the bracket within a fraction of a slot of the answer, and a
  // bisection over the breakpoints left finishes. Each probe misses by
  // `off` more than the last (from an eighth of a slot, doubling), so that
  // their number is logarithmic whatever the estimates do.
  int64_t a = 0, M = hi, n = 0;
  if (known && known->memory >= 1) {
    M = std::min(known->memory, hi);
    n = known->needed;
  } else {
    n = needed(M);
  }
  // 1. A feasible b, from above the memory an infeasible M's slots take.
  for (int64_t off = 0; n > slots; off *= 2) {
    a = M;
    if (M >= hi)
      return true; // feasible for no M
    const int64_t est = slotBytes(n, M, slots);
    if (!off)
      off = std::max<int64_t>(est / (8 * slots), 1);
    M = est >= hi - off ? hi : std::max(est + off, a + 1);
    n = needed(M);
  }
  int64_t b = M;
  // 2. An infeasible a, from below the memory b's slots take. The miss
  //    doubles only while the estimates stand still.
  for (int64_t off = 0, last = 0; b - a > 1;) {
    const int64_t est = std::min(slotBytes(n, b, slots), b);
    const int64_t base = std::max<int64_t>(est / (8 * slots), 1);
    off = off && last - est <= off ? 2 * off : base;
    last = est;
    const int64_t probe = est - off;
    if (probe <= a)
      break;
    const int64_t np = needed(probe);
    if (np > slots) {
      a = probe;
      break;
    }
    b = probe;
    n = np;
  }
  // 3. Bisect (a, b].
  out = b - a <= 1
            ? b
            : leastFeasibleIn(a, b, sizes, chain.length(), slots,
                              [&](int64_t m) { return needed(m) <= slots; });
  return true;
}

StrategyResult ckpt::solver::runStrategy(const Chain &chain,
                                         const Strategy &strategy,
                                         const MemoryModel &budget,
                                         const SolveOptions &options) {
  StrategyResult r;
  r.strategy = strategy;
  r.budget = budget;
  r.error = checkInputs(chain, strategy, budget.slots);
  if (r.error.empty() && budget.memory <= 0)
    r.error = "memory must be a positive integer";
  if (!r.error.empty())
    return r;

  const Chain u = toUnits(chain, budget);
  const int64_t limit = budget.limit();
  std::vector<Op> seq;
  // The units this strategy needs at this budget, which the search for the
  // least feasible memory starts from.
  std::optional<SlotProbe> known;
  if (isDP(strategy)) {
    DPOptions opts;
    opts.allowAllChains = strategy.kind == Strategy::Kind::Optimal;
    opts.threads = options.threads;
    DPSolution sol = solveChainDP(u, limit, opts);
    if (!sol.error.empty()) {
      r.error = sol.error;
      return r;
    }
    if (sol.feasible)
      seq = std::move(sol.sequence);
    r.feasible = sol.feasible;
    known = SlotProbe{budget.memory, sol.minFeasibleLimit};
  } else {
    seq = fixedSequence(chain, strategy);
  }
  if (!seq.empty()) {
    Simulation su = simulate(u, seq);
    if (!su.valid) {
      r.error = "internal error: invalid " + strategy.name() +
                " sequence: " + su.error;
      return r;
    }
    r.feasible = su.peak <= limit;
    if (!isDP(strategy))
      known = SlotProbe{budget.memory, su.peak};
    if (isDP(strategy) && !r.feasible) {
      r.error = "internal error: the DP's sequence exceeds the limit";
      return r;
    }
    if (r.feasible) {
      Simulation sb = budget.exact() ? su : simulate(chain, seq);
      r.makespan = su.makespan;
      r.peakUnits = su.peak;
      r.peak = sb.peak;
      if (options.withSequence)
        r.sequence = std::move(seq);
    }
  }
  if (options.withMinFeasible) {
    std::string err;
    if (!minFeasibleMemory(chain, strategy, budget.slots, r.minFeasibleMemory,
                           err, known ? &*known : nullptr)) {
      r.error = err;
      return r;
    }
  }
  return r;
}

bool ckpt::solver::sweep(const Chain &chain, const Strategy &strategy,
                         int64_t slots, int count, std::vector<SweepPoint> &out,
                         std::string &error, unsigned threads) {
  out.clear();
  if (count < 1) {
    error = "the sweep needs at least one budget";
    return false;
  }
  std::optional<int64_t> lo, hi;
  if (!minFeasibleMemory(chain, strategy, slots, lo, error))
    return false;
  if (!lo) {
    error = "strategy " + strategy.name() +
            " is infeasible for every memory "
            "with " +
            std::to_string(slots) + " slots";
    return false;
  }
  if (!minFeasibleMemory(chain, Strategy{Strategy::Kind::StoreAll, 0}, slots,
                         hi, error))
    return false;
  int64_t top = hi ? std::max(*hi, *lo) : *lo;
  SolveOptions opts;
  opts.threads = threads;
  opts.withSequence = false;
  opts.withMinFeasible = false;
  int64_t prev = -1;
  for (int k = 0; k < count; ++k) {
    int64_t m = *lo;
    if (count > 1)
      m += static_cast<int64_t>(
          std::llround(static_cast<long double>(top - *lo) * k / (count - 1)));
    if (m == prev)
      continue;
    prev = m;
    SweepPoint p;
    p.memory = m;
    p.result = runStrategy(chain, strategy, MemoryModel{m, slots}, opts);
    if (!p.result.error.empty()) {
      error = p.result.error;
      return false;
    }
    p.result.minFeasibleMemory = lo;
    out.push_back(std::move(p));
  }
  return true;
}
