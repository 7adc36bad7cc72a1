//===- Planner.cpp - every strategy as one schedule planner ---------------===//

#include "ckpt/Solver/Schedule/Planner.h"
#include "Helper.h"

#include "ckpt/Solver/Chain/ChainDP.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"
#include "ckpt/Solver/Schedule/LowerBound.h"
#include "ckpt/Solver/Schedule/Repeats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <thread>

using namespace ckpt;
using namespace ckpt::sched;

//===----------------------------------------------------------------------===//
// The keep-separators strategies' fixed sequence
//===----------------------------------------------------------------------===//

namespace {

/// Fixed sequences of the keep-separators strategies ('speed', 'manual'):
/// Fck1 .. FckL Fall(L+1) B(L+1) FallL BL .. Fall1 B1.
std::vector<solver::Op> keepSeparatorsSequence(int length) {
  std::vector<solver::Op> sequence;
  for (int l = 1; l <= length; ++l)
    sequence.push_back({solver::OpKind::FCk, l});
  sequence.push_back({solver::OpKind::FAll, length + 1});
  sequence.push_back({solver::OpKind::Backward, length + 1});
  for (int l = length; l >= 1; --l) {
    sequence.push_back({solver::OpKind::FAll, l});
    sequence.push_back({solver::OpKind::Backward, l});
  }
  return sequence;
}

} // namespace

//===----------------------------------------------------------------------===//
// Candidates: schedules with their exact evaluation
//===----------------------------------------------------------------------===//

namespace {

/// A schedule with its exact evaluation.
struct Candidate {
  Schedule schedule;
  double cost = 0;
  int64_t peak = 0;
  std::vector<solver::Op> sequence; ///< when from the chain
  std::string producer;
  bool valid = false;
};

/// `schedule` evaluated exactly, credited to `producer`.
Candidate score(const Problem &problem, Schedule schedule,
                std::string producer) {
  Candidate c;
  Evaluation e = evaluate(problem, schedule);
  c.valid = e.valid;
  c.cost = e.cost;
  c.peak = e.peak;
  c.schedule = std::move(schedule);
  c.producer = std::move(producer);
  return c;
}

/// Keeps the best candidate within the budget and the least peak seen.
struct Best {
  int64_t budget;
  std::optional<Candidate> fit;
  std::optional<int64_t> leastPeak;

  void offer(const Candidate &c) {
    if (!c.valid)
      return;
    if (!leastPeak || c.peak < *leastPeak)
      leastPeak = c.peak;
    if (c.peak > budget)
      return;
    if (!fit || c.cost < fit->cost ||
        (c.cost == fit->cost && c.peak < fit->peak))
      fit = c;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Schedules from the chain: the DP's budget search, the baselines
//===----------------------------------------------------------------------===//

namespace {

/// The chain of a problem with its DP table for the chain-budget search.
class ChainProducer {
public:
  ChainProducer(const Problem &problem, const ProblemChain &chain,
                int64_t slots)
      : problem(problem), pc(chain), slots(slots) {
    solver::Simulation all =
        solver::simulate(pc.chain, solver::storeAllSequence(pc.chain.length()));
    top = std::max<int64_t>(all.peak, 1);
  }

  Candidate expand(const std::vector<solver::Op> &sequence,
                   const std::string &producer) const {
    Candidate c =
        score(problem, expandSequence(problem, pc, sequence), producer);
    c.sequence = sequence;
    return c;
  }

  /// Searches the chain budget of the DP (`allowAll`: Theorem 1, else the
  /// AD model): offers the fastest expanded schedule that fits, and the
  /// leanest one (at the DP's least budget) as `lean`. The table and the
  /// expanded schedules do not depend on the budget: they are kept for the
  /// next search.
  std::string searchDP(bool allowAll, Best &best,
                       std::optional<Candidate> *lean = nullptr) const {
    if (!dp || dp->allowAll != allowAll) {
      dp.emplace();
      dp->allowAll = allowAll;
      solver::Chain units = pc.chain;
      dp->limit = top;
      if (slots > 0) {
        units = solver::toUnits(pc.chain, solver::MemoryModel{top, slots});
        dp->limit = slots;
      }
      solver::DPOptions options;
      options.allowAllChains = allowAll;
      dp->table =
          solver::ChainDPTable::build(units, dp->limit, options, dp->error);
    }
    if (!dp->table)
      return dp->error;
    const int64_t limit = dp->limit;
    int64_t lo = dp->table->minFeasibleLimit();
    if (lo > limit)
      return "";
    auto at = [&](int64_t l) -> const Candidate & {
      auto it = dp->at.find(l);
      if (it == dp->at.end()) {
        std::vector<solver::Op> sequence;
        double makespan = 0;
        dp->table->solve(l, sequence, makespan);
        it = dp->at.emplace(l, expand(sequence, "chain")).first;
      }
      return it->second;
    };
    const Candidate &leanest = at(lo);
    best.offer(leanest);
    if (lean)
      *lean = leanest;
    if (leanest.peak > best.budget)
      return "";
    // The largest chain budget whose schedule fits (the fastest), assuming
    // the exact peak grows with the chain budget; then its neighbours.
    int64_t good = lo, bad = limit + 1;
    const Candidate &atTop = at(limit);
    best.offer(atTop);
    if (atTop.peak <= best.budget)
      return "";
    while (bad - good > 1) {
      int64_t mid = good + (bad - good) / 2;
      const Candidate &c = at(mid);
      best.offer(c);
      (c.peak <= best.budget ? good : bad) = mid;
    }
    return "";
  }

  /// The baseline chain schedules, expanded: memory-poor, periodic:2..8 and
  /// sqrt (computed once).
  const std::vector<Candidate> &baselines() const {
    if (!baselineCandidates) {
      const int L = pc.chain.length();
      std::vector<std::vector<solver::Op>> sequences = {
          solver::memoryPoorSequence(L)};
      for (int k = 2; k <= std::min(L, 8); ++k)
        sequences.push_back(solver::periodicSequence(L, k));
      int k = static_cast<int>(std::lround(std::sqrt(static_cast<double>(L))));
      sequences.push_back(solver::periodicSequence(L, std::max(1, k)));
      baselineCandidates.emplace();
      for (const std::vector<solver::Op> &sequence : sequences)
        baselineCandidates->push_back(expand(sequence, "chain"));
    }
    return *baselineCandidates;
  }

  const Problem &problem;
  const ProblemChain &pc;
  int64_t slots;
  int64_t top = 1; ///< chain store-all peak (chain bytes)

private:
  /// The DP table of the last search and the schedules expanded from it.
  struct DPState {
    bool allowAll = true;
    int64_t limit = 0;
    std::unique_ptr<solver::ChainDPTable> table;
    std::string error;
    std::map<int64_t, Candidate> at;
  };
  mutable std::optional<DPState> dp;
  mutable std::optional<std::vector<Candidate>> baselineCandidates;
};

/// The chain of a problem and its producer, built when first needed.
class LazyChain {
public:
  LazyChain(const Problem &problem, int64_t slots)
      : problem(problem), slots(slots) {}
  const ChainProducer &get() {
    if (!producer) {
      pc.emplace(buildProblemChain(problem));
      producer.emplace(problem, *pc, slots);
    }
    return *producer;
  }

private:
  const Problem &problem;
  int64_t slots;
  std::optional<ProblemChain> pc;
  std::optional<ChainProducer> producer;
};

} // namespace

//===----------------------------------------------------------------------===//
// fit=model: the chain strategies in the chain's own memory model
//===----------------------------------------------------------------------===//

namespace {

/// fit=model: Theorem 1 as the paper states it, on the chain.
PlanResult planChainModel(const Problem &problem, const ProblemChain &pc,
                          const PlanOptions &options) {
  const StrategyKind kind = options.strategy.kind;
  PlanResult result;
  std::vector<solver::Op> sequence;
  int64_t chainPeak = 0;
  int64_t budget = options.budget - pc.persistentBytes;
  if (kind == StrategyKind::Speed || kind == StrategyKind::Manual) {
    sequence = keepSeparatorsSequence(pc.chain.length());
    solver::Simulation sim = solver::simulate(pc.chain, sequence);
    chainPeak = sim.peak;
    result.leastPeak = pc.persistentBytes + sim.peak;
    if (chainPeak > budget)
      return result;
  } else {
    solver::Strategy strategy = *options.strategy.chainStrategy();
    std::string error;
    std::optional<int64_t> least;
    if (budget <= 0) {
      if (!solver::minFeasibleMemory(pc.chain, strategy, options.slots, least,
                                     error))
        result.error = error;
      else if (least)
        result.leastPeak = pc.persistentBytes + *least;
      return result;
    }
    // The run finds the least feasible memory too, from its own budget.
    solver::StrategyResult run = solver::runStrategy(
        pc.chain, strategy, solver::MemoryModel{budget, options.slots});
    if (!run.error.empty()) {
      result.error = run.error;
      return result;
    }
    if (run.minFeasibleMemory)
      result.leastPeak = pc.persistentBytes + *run.minFeasibleMemory;
    if (!run.feasible)
      return result;
    sequence = run.sequence;
  }
  ChainProducer producer(problem, pc, options.slots);
  Candidate c = producer.expand(sequence, "chain");
  result.feasible = true;
  result.schedule = c.schedule;
  result.time = c.cost;
  result.peak = c.peak;
  result.sequence = sequence;
  result.producer = "chain";
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// The plan of the best candidate
//===----------------------------------------------------------------------===//

namespace {

/// The plan of the best candidate that fits (none: not feasible).
PlanResult finish(const Best &best) {
  PlanResult result;
  result.leastPeak = best.leastPeak;
  if (!best.fit)
    return result;
  result.feasible = true;
  result.schedule = best.fit->schedule;
  result.time = best.fit->cost;
  result.peak = best.fit->peak;
  result.sequence = best.fit->sequence;
  result.producer = best.fit->producer;
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// Improving searches and their work limits
//===----------------------------------------------------------------------===//

namespace {

/// Improves a candidate that fits by local search (Remat.h).
Candidate search(const Problem &problem, const Candidate &start, int64_t budget,
                 const SearchOptions &options) {
  Schedule improved = improve(problem, start.schedule, budget, options);
  Candidate c =
      score(problem, improved,
            start.producer == "search" ? "search" : start.producer + "+search");
  if (!c.valid || c.peak > budget || c.cost > start.cost)
    return start;
  return c;
}

/// The largest problem (in ops) planned from the lower bound's keep set too
/// (the bound costs about n^2).
constexpr int kBoundStartOps = 500;

/// Whether a problem is large: more than 20,000 ops plus reads. On a large
/// problem the greedy evaluates fewer candidates per step, and a plan runs
/// one greedy from the schedule as written instead of two (one greedy on
/// them takes about as long as the improving searches).
bool isLarge(const Problem &problem) {
  int64_t units = problem.numOps();
  for (const Op &op : problem.ops)
    units += static_cast<int64_t>(op.reads.size());
  return units > 20000;
}

/// Work limits: the searches after the first greedy share a budget of
/// simulated units, about the same time whatever the problem's size; large
/// problems evaluate fewer candidates per greedy step.
SearchOptions scaled(bool large, SearchOptions options) {
  if (large)
    options.candidates = std::min(options.candidates, 4);
  return options;
}

/// The shared work of the improving searches of one plan (each ruined
/// schedule is refitted by two greedies, Remat.h's improve).
constexpr int64_t kSearchWork = 60000000;

/// Search options for the improving searches of one plan: `base` with a
/// fresh work budget of kSearchWork that they share.
struct Improving {
  explicit Improving(const SearchOptions &base) : options(base) {
    work.left = kSearchWork;
    options.work = &work;
  }
  Improving(const Improving &) = delete;
  Improving &operator=(const Improving &) = delete;

  Work work;
  SearchOptions options;
};

} // namespace

//===----------------------------------------------------------------------===//
// The least peak, whatever the budget
//===----------------------------------------------------------------------===//

namespace {

/// The most bytes one op needs at once (what it reads and defines): no
/// schedule peaks lower.
int64_t opLowerBound(const Problem &problem) {
  int64_t bound = 0;
  for (const Op &op : problem.ops) {
    int64_t bytes = 0;
    for (int r : op.reads)
      bytes += problem.values[r].bytes;
    for (int r : op.results)
      bytes += problem.values[r].bytes;
    bound = std::max(bound, bytes);
  }
  return bound;
}

/// Randomized restarts of the greedy in the least-peak search (they share
/// one work budget, so more restarts cost no more on large problems; 32, not
/// 4: transformer-22 of test/Solver/Inputs/least-budget goes from 636 MiB
/// to 614 MiB).
constexpr uint64_t kRestarts = 32;
/// At most this many successive lowerings by ruin-and-recreate.
constexpr int kLowerings = 32;

/// One least-peak search with `options`: the greedy from the schedule as
/// written (plain and with kRestarts randomized choices), from the chain
/// DP's leanest schedule and (problems of up to kBoundStartOps ops) from the
/// keep-set schedule that recomputes every forward value for each backward
/// reader, driven down to the op lower bound, then lowered
/// by ruin-and-recreate (lowerPeak). The greedies without a seed use
/// `repeats` (may be null).
Candidate leastPeakSearch(const Problem &problem,
                          const std::optional<Candidate> &lean,
                          const SearchOptions &options,
                          const Repeats *repeats) {
  // The greedies without a seed take the blocks' moves together.
  SearchOptions withBlocks = options;
  withBlocks.repeats = repeats;
  int64_t target = opLowerBound(problem);
  Best best{target, {}, {}};
  std::optional<Candidate> leanest;
  auto offer = [&](Candidate c) {
    if (c.valid && (!leanest || c.peak < leanest->peak ||
                    (c.peak == leanest->peak && c.cost < leanest->cost)))
      leanest = std::move(c);
  };
  const Schedule identity = identitySchedule(problem);
  offer(score(problem, fitBudget(problem, identity, target, withBlocks),
              "search"));
  if (lean && lean->valid) {
    offer(*lean);
    offer(score(problem, fitBudget(problem, lean->schedule, target, withBlocks),
                "chain+search"));
  }
  // On problems of up to kBoundStartOps ops, the leanest keep-set schedule
  // too: every forward value recomputed for each backward op that reads it
  // (the generated transformers of bench/plan_quality.py: 60 MiB -> 56 MiB).
  if (problem.numOps() <= kBoundStartOps) {
    // Nothing kept: inputs, returned values and backward results stay
    // available in any keep-set schedule.
    Candidate start = score(
        problem,
        keepSetSchedule(problem, std::vector<char>(problem.numValues(), 0),
                        /*perReader=*/true),
        "cheap-per-reader");
    offer(start);
    offer(score(problem, fitBudget(problem, start.schedule, target, withBlocks),
                "cheap-per-reader+search"));
  }
  // Restarts from the schedule as written with randomized choices (fixed
  // seeds, so deterministic), sharing one work budget.
  Improving restarts(options);
  for (uint64_t seed = 1; seed <= kRestarts && !restarts.work.spent(); ++seed) {
    restarts.options.seed = seed;
    offer(score(problem, fitBudget(problem, identity, target, restarts.options),
                "search"));
  }
  if (!leanest)
    return Candidate();
  // Then ruin-and-recreate towards a lower peak.
  Improving lowering(options);
  lowering.options.rounds = kLowerings;
  Candidate lower =
      score(problem, lowerPeak(problem, leanest->schedule, lowering.options),
            leanest->producer);
  if (lower.valid && lower.peak < leanest->peak)
    return lower;
  return *leanest;
}

/// The leanest schedule found independently of any budget: the better of
/// two least-peak searches, one whose greedy also recomputes right after
/// the peak (SearchOptions::recomputeAfterPeak) and one without. The first
/// took layered-21 of test/Solver/Inputs/least-budget from 307 MiB to
/// 292 MiB, the floor of its largest op, but alone ends higher on some
/// graphs (Checkmate's 1000-op random_layered: 382319 B, not 376459 B).
Candidate leastPeakCandidate(const Problem &problem,
                             const std::optional<Candidate> &lean,
                             const SearchOptions &options,
                             const Repeats *repeats) {
  Candidate plain = leastPeakSearch(problem, lean, options, repeats);
  SearchOptions after = options;
  after.recomputeAfterPeak = true;
  Candidate afterPeak = leastPeakSearch(problem, lean, after, repeats);
  if (afterPeak.valid &&
      (!plain.valid || afterPeak.peak < plain.peak ||
       (afterPeak.peak == plain.peak && afterPeak.cost < plain.cost)))
    return afterPeak;
  return plain;
}

} // namespace

//===----------------------------------------------------------------------===//
// Planning at one budget: the greedies, the chain, local search
//===----------------------------------------------------------------------===//

namespace {

/// What planning at one budget finds: the best fit (if any), the least peak
/// seen, and the chain DP's leanest schedule.
struct Attempt {
  Best best;
  std::optional<Candidate> lean;
  std::string error;
  SearchOptions searchOptions;
  int64_t repeatedMoves = 0; ///< SearchOptions::imagesApplied, both greedies
};

/// What the part of an attempt beside the first greedy finds (see
/// Attempter::run).
struct Beside {
  Best chainBest;
  std::optional<Candidate> lean;
  std::string error;
  std::optional<Candidate> other, otherImproved;
  int64_t repeatedMoves = 0;
};

/// Plans at one budget (see attempt): the state its phases share.
class Attempter {
public:
  Attempter(const Problem &problem, const PlanOptions &options, bool forIlp,
            LazyChain &chain, const Repeats *repeats, bool bothRankings,
            bool fitOnly)
      : problem(problem), options(options), forIlp(forIlp), chain(chain),
        repeats(repeats), bothRankings(bothRankings), fitOnly(fitOnly),
        a{Best{options.budget, {}, {}}, {}, {}, {}},
        beside{Best{options.budget, {}, {}}, {}, {}, {}, {}, 0} {}

  /// The attempt, from the schedule as written to the chain's plans.
  Attempt run() {
    Best &best = a.best;
    identity = score(problem, identitySchedule(problem), "store-all");
    best.offer(identity);
    large = isLarge(problem);
    searchOptions = scaled(large, options.search);
    searchOptions.sortedInsertion = forIlp || options.search.sortedInsertion;
    searchOptions.parallel = options.parallel;
    searchOptions.threads = options.threads;
    a.searchOptions = searchOptions;
    if (identity.peak <= options.budget)
      return std::move(a);
    Improving improvingSearch(searchOptions);
    SearchOptions &improving = improvingSearch.options;
    // Where the every-byte search runs on the second thread, the first
    // search's refits share nothing else.
    everyByteBeside = bothRankings && !large && !forIlp;

    // Two parts do not depend on the greedy from the schedule as written,
    // and run beside it on a second thread (options.parallel): the chain
    // DP's budget search with the baselines, and, with `bothRankings` on a
    // problem that is not large, the every-byte greedy with its own search
    // (started before it is known to be wanted: kept only where the first
    // greedy fits). Results are offered in one fixed order after both
    // finish, so the plan is the same with one thread or two.
    std::optional<Helper> second;
    // A descent (fitOnly) that the greedy fits needs nothing else: the chain
    // runs after it, and only where it fails.
    if (options.parallel && !forIlp && !fitOnly) {
      second.emplace(options.threads);
      second->start([this] { runBeside(); });
    }

    bool fits = fitFirstGreedy(second.has_value(), improving);
    if (forIlp || (fits && fitOnly))
      return std::move(a);
    if (bothRankings && !large && problem.numOps() <= kBoundStartOps)
      tryBoundStarts();
    if (second)
      second->wait();
    else
      runBeside();
    a.repeatedMoves += beside.repeatedMoves;
    if (fits && beside.other) { // with bothRankings, on a problem not large
      best.offer(*beside.other);
      if (beside.otherImproved)
        best.offer(*beside.otherImproved);
    }
    offerChain(improving);
    if (bothRankings && !large && problem.numOps() <= kBoundStartOps)
      tryCheapStarts();
    return std::move(a);
  }

private:
  /// The part beside the first greedy: the chain DP's budget search with
  /// the baselines, and the every-byte greedy with its own search.
  void runBeside() {
    const ChainProducer &producer = chain.get();
    beside.error =
        producer.searchDP(/*allowAll=*/true, beside.chainBest, &beside.lean);
    if (beside.error.empty())
      for (const Candidate &baseline : producer.baselines())
        beside.chainBest.offer(baseline);
    if (!bothRankings || large)
      return;
    SearchOptions everyByte = searchOptions;
    everyByte.repeats = repeats;
    everyByte.imagesApplied = &beside.repeatedMoves;
    everyByte.capExcess = false;
    everyByte.parallel = false; // beside the first greedy already
    Candidate other =
        score(problem,
              fitBudget(problem, identity.schedule, options.budget, everyByte),
              "search");
    if (other.valid && other.peak <= options.budget) {
      Improving own(searchOptions);
      own.options.parallel = false;
      beside.otherImproved =
          search(problem, other, options.budget, own.options);
    }
    beside.other = std::move(other);
  }

  /// The greedy from the schedule as written, and its search where it fits
  /// (unless fitOnly); returns whether it fits. `secondRuns`: the second
  /// thread runs beside it.
  bool fitFirstGreedy(bool secondRuns, SearchOptions &improving) {
    Best &best = a.best;
    // The greedy from the schedule as written (its candidates on two threads
    // unless the every-byte search takes the second).
    firstGreedy = searchOptions;
    firstGreedy.repeats = repeats;
    firstGreedy.imagesApplied = &a.repeatedMoves;
    firstGreedy.parallel = options.parallel && !everyByteBeside;
    Candidate greedy = score(
        problem,
        fitBudget(problem, identity.schedule, options.budget, firstGreedy),
        "search");
    best.offer(greedy);
    bool fits = greedy.valid && greedy.peak <= options.budget;
    if (fits && !fitOnly) {
      if (everyByteBeside && secondRuns)
        improving.parallel = false;
      best.offer(search(problem, greedy, options.budget, improving));
      improving.parallel = options.parallel;
    }
    return fits;
  }

  /// The starts from the lower bound's keep sets.
  void tryBoundStarts() {
    Best &best = a.best;
    // On problems of up to kBoundStartOps ops, one or two more starts (not
    // in the descents of the least-budget search, up to kDescents of them):
    // the keep set of the lower bound's binding cut (LowerBound.h), the
    // values its relaxation recomputes dropped from a keep-everything
    // schedule, fitted by the greedy and improved with a search of its own;
    // of the bound over every schedule, then of the bound in order when its
    // keep set differs. Its choices are global where the greedy's are one
    // move at a time: on the U-Net and transformer families of
    // bench/plan_quality.py near the least budget it finds plans 3-18%
    // cheaper (the in-order start: a layered DAG at 0.5, 3% cheaper).
    std::vector<int> tried;
    for (BoundScope scope : {BoundScope::Any, BoundScope::InOrder}) {
      RecomputeBound bound = recomputeLowerBound(problem, options.budget,
                                                 {scope, /*keepSet=*/true});
      if (bound.infeasible || bound.recomputed.empty())
        continue;
      std::sort(bound.recomputed.begin(), bound.recomputed.end());
      if (bound.recomputed == tried)
        continue; // the same start again
      tried = bound.recomputed;
      std::vector<char> keep(problem.numValues(), 1);
      for (int v : bound.recomputed)
        keep[v] = 0;
      Candidate start = score(problem, keepSetSchedule(problem, keep), "bound");
      best.offer(start);
      std::vector<Candidate> found;
      fitAndImprove(start, firstGreedy, found);
      for (const Candidate &c : found)
        best.offer(c);
    }
  }

  /// `start` (a keep-set schedule) fitted by the greedy with `fitting`
  /// unless it fits, and, where that fits, improved by a search of its own:
  /// the fitted and the improved candidates, appended to `out`. Reads only
  /// what the attempt was given, so it may run on a helper thread.
  void fitAndImprove(const Candidate &start, const SearchOptions &fitting,
                     std::vector<Candidate> &out) const {
    Candidate fitted =
        start.valid && start.peak <= options.budget
            ? start
            : score(problem,
                    fitBudget(problem, start.schedule, options.budget, fitting),
                    start.producer + "+search");
    out.push_back(fitted);
    if (fitted.valid && fitted.peak <= options.budget) {
      Improving own(searchOptions);
      own.options.parallel = false;
      out.push_back(search(problem, fitted, options.budget, own.options));
    }
  }

  /// Starts from keep sets of cheap values. The forward values are ranked
  /// by their producer's cost per byte; each start recomputes the cheapest
  /// quarter, half or three quarters of them (keepSetSchedule) and keeps
  /// the rest, once with one recomputation serving every later reader and
  /// once recomputing for each backward op that reads them. It is fitted
  /// by the greedy and improved by a search of its own. This is the plan of
  /// PyTorch's partitioner (recompute what is cheap, keep matmul and
  /// convolution outputs), which the greedy's one move at a time misses
  /// where it takes many cheap recomputations together: a residual stream
  /// of additions recomputed before each block's backward from the kept
  /// convolution outputs (the ResNet of seed 101 of the generated families
  /// at 0.6: 7.50% -> 5.87%, CBC's proven optimum). The six starts run on
  /// two threads, three each, and are offered in one fixed order.
  void tryCheapStarts() {
    std::vector<std::pair<double, int>> ranked;
    for (int v = 0; v < problem.numValues(); ++v) {
      const Value &value = problem.values[v];
      if (value.producer < 0 || value.returned || value.bytes <= 0)
        continue;
      const Op &op = problem.ops[value.producer];
      if (op.backward || !op.recomputable || op.constant)
        continue;
      ranked.push_back({op.cost / static_cast<double>(value.bytes), v});
    }
    if (ranked.empty())
      return;
    std::sort(ranked.begin(), ranked.end()); // ties: by value, as listed
    std::vector<Candidate> found[2];
    int64_t moves[2] = {0, 0};
    auto run = [&](bool perReader) {
      SearchOptions fitting = firstGreedy;
      fitting.parallel = false;
      fitting.imagesApplied = &moves[perReader];
      for (double share : {0.25, 0.5, 0.75}) {
        std::vector<char> keep(problem.numValues(), 1);
        size_t n = static_cast<size_t>(share * ranked.size());
        for (size_t i = 0; i < n; ++i)
          keep[ranked[i].second] = 0;
        fitAndImprove(score(problem, keepSetSchedule(problem, keep, perReader),
                            perReader ? "cheap-per-reader" : "cheap"),
                      fitting, found[perReader]);
      }
    };
    if (options.parallel) {
      Helper helper(options.threads);
      helper.start([&] { run(true); });
      run(false);
      helper.wait();
    } else {
      run(false);
      run(true);
    }
    for (const std::vector<Candidate> &list : found)
      for (const Candidate &c : list)
        a.best.offer(c);
    a.repeatedMoves += moves[0] + moves[1];
  }

  /// Offers the chain DP's plans and the baselines, searched from, and the
  /// greedy from the chain's leanest schedule when nothing fits yet.
  void offerChain(SearchOptions &improving) {
    Best &best = a.best;
    // The chain DP and the baselines.
    a.error = beside.error;
    if (!a.error.empty())
      return;
    Best &chainBest = beside.chainBest;
    std::optional<Candidate> &lean = a.lean;
    lean = std::move(beside.lean);
    if (chainBest.fit) {
      best.offer(*chainBest.fit);
      if (!fitOnly)
        best.offer(search(problem, *chainBest.fit, options.budget, improving));
    }
    if (chainBest.leastPeak &&
        (!best.leastPeak || *chainBest.leastPeak < *best.leastPeak))
      best.leastPeak = chainBest.leastPeak;
    if (!best.fit && lean && lean->valid) {
      // Nothing fits yet: the greedy from the chain's leanest schedule.
      Candidate fromLean = score(
          problem,
          fitBudget(problem, lean->schedule, options.budget, searchOptions),
          "chain+search");
      best.offer(fromLean);
      if (fromLean.valid && fromLean.peak <= options.budget && !fitOnly)
        best.offer(search(problem, fromLean, options.budget, improving));
    }
  }

  const Problem &problem;
  const PlanOptions &options;
  const bool forIlp;
  LazyChain &chain;
  const Repeats *repeats;
  const bool bothRankings, fitOnly;
  Attempt a;
  Candidate identity;
  bool large = false;
  SearchOptions searchOptions;
  /// The every-byte search runs on the second thread.
  bool everyByteBeside = false;
  SearchOptions firstGreedy;
  Beside beside;
};

/// With `bothRankings`, on a problem that is not large and where the greedy
/// fits, two greedies start from the schedule as written: the one that
/// counts only the bytes missing at the peak (SearchOptions::capExcess) and
/// the one that counts every byte a move saves. The first shares its search
/// work with the search from the chain's plan, as when it runs alone; the
/// second has a search work of its own, so the plan is never worse than with
/// the first alone. Neither wins everywhere: from the first, MobileNet at 0.7
/// reaches CBC's proven optimum; from the second, GPT-2 small at 36% of its
/// peak is 1.4% faster. The descents of the least-budget search run the
/// first alone, with `fitOnly`: they need a schedule within the budget, not
/// a cheap one, so the searches that lower a fit's cost are left out (the
/// plan at the asked budget gets its own search afterwards).
Attempt attempt(const Problem &problem, const PlanOptions &options, bool forIlp,
                LazyChain &chain, const Repeats *repeats,
                bool bothRankings = false, bool fitOnly = false) {
  return Attempter(problem, options, forIlp, chain, repeats, bothRankings,
                   fitOnly)
      .run();
}

} // namespace

//===----------------------------------------------------------------------===//
// strategy=optimal, and the least feasible budget by descents
//===----------------------------------------------------------------------===//

namespace {

/// At most this many descents of the least-budget search (each a greedy
/// fit, the chain where that fails; see planOptimal).
constexpr int kDescents = 64;

PlanResult planOptimal(const Problem &problem, const PlanOptions &options,
                       bool forIlp) {
  LazyChain chain(problem, options.slots);
  // Identical blocks, used by the greedies that fit the budget from a start
  // (not in the program's form of the ILP's warm start, nor by the searches
  // that follow them).
  Repeats repeats;
  if (options.repeatedBlocks && !forIlp)
    repeats = findRepeats(problem);
  const Repeats *blocks = repeats.empty() ? nullptr : &repeats;
  Attempt a =
      attempt(problem, options, forIlp, chain, blocks, /*bothRankings=*/true);
  if (!a.error.empty()) {
    PlanResult result;
    result.error = a.error;
    return result;
  }
  Best &best = a.best;
  auto done = [&] {
    PlanResult result = finish(best);
    result.repeatedMoves = a.repeatedMoves;
    return result;
  };
  if (best.fit || forIlp)
    return done();
  // Nothing fits. The least feasible budget the error names must be one at
  // which planning succeeds, and one byte less must fail, whatever budget
  // was asked. So it comes from a search that does not depend on the
  // budget: the leanest schedule the greedy reaches, then descents (plan
  // at one byte under the leanest peak; while that fits, take its plan).
  // Planning at any budget at or above the result ends here with the same
  // schedule, which fits; at one byte under it, the last descent failed.
  if (options.progress)
    options.progress("searching the least feasible budget", 0);
  Candidate leanest =
      leastPeakCandidate(problem, a.lean, a.searchOptions, blocks);
  // Galloping: after a descent that fits, the next one asks for twice as
  // many bytes less; after a failure, half as many; the search ends when one
  // byte under the peak fails, and that last check is the attempt planning
  // at that budget makes first (so one byte under the result is refused,
  // unless the kDescents cap ends the search first). The other descents
  // only look for a fit, without the searches that lower its cost: 2-5x
  // faster, and so more of them fit in the cap (bench: EfficientNet-B0
  // refused in 1.4 s, not 7.3 s).
  int64_t step = 1;
  for (int i = 0; i < kDescents && leanest.valid && leanest.peak > step; ++i) {
    if (options.progress)
      options.progress("searching the least feasible budget: descent " +
                           std::to_string(i + 1) + " of at most " +
                           std::to_string(kDescents),
                       0);
    PlanOptions lower = options;
    lower.budget = leanest.peak - step;
    Attempt below = attempt(problem, lower, /*forIlp=*/false, chain, blocks,
                            /*bothRankings=*/false, /*fitOnly=*/true);
    if (step == 1 && !(below.error.empty() && below.best.fit))
      // One byte under: the attempt planning at that budget makes first
      // (both rankings, its searches), so that where it fits, the search
      // goes on from its plan, and where it fails, so does planning there.
      below = attempt(problem, lower, /*forIlp=*/false, chain, blocks,
                      /*bothRankings=*/true);
    if (below.error.empty() && below.best.fit) {
      leanest = *below.best.fit;
      step *= 2;
      continue;
    }
    if (step == 1)
      break;
    step /= 2;
  }
  best.offer(leanest);
  if (leanest.valid)
    best.leastPeak = leanest.peak;
  if (leanest.valid && leanest.peak <= options.budget) {
    Improving improving(a.searchOptions);
    best.offer(search(problem, leanest, options.budget, improving.options));
  }
  return done();
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points: the strategy dispatch
//===----------------------------------------------------------------------===//

int64_t ckpt::sched::chainStoreAllPeak(const Problem &problem) {
  ProblemChain pc = buildProblemChain(problem);
  solver::Simulation all =
      solver::simulate(pc.chain, solver::storeAllSequence(pc.chain.length()));
  return pc.persistentBytes + all.peak;
}

namespace {

/// strategy=keep: the schedule of options.keep.
PlanResult planKeep(const Problem &problem, const PlanOptions &options) {
  PlanResult result;
  Candidate c = score(problem, keepSetSchedule(problem, options.keep), "keep");
  if (!c.valid) {
    result.error = "internal error: the keep-set schedule is not valid";
    return result;
  }
  Best best{options.budget, {}, {}};
  best.offer(c);
  return finish(best);
}

} // namespace

IlpOptions ckpt::sched::ilpOptionsOf(const PlanOptions &options) {
  IlpOptions ilpOptions;
  ilpOptions.timeLimit = options.ilpTimeLimit;
  ilpOptions.nodeLimit = options.ilpNodeLimit;
  ilpOptions.memoryLimit = options.ilpMemoryLimit;
  ilpOptions.threads = options.ilpThreads;
  ilpOptions.log = options.ilpLog;
  return ilpOptions;
}

namespace {

/// strategy=ilp: CBC's schedule, warm-started from `optimal`'s, or
/// `optimal`'s own where that is cheaper.
PlanResult planIlp(const Problem &problem, const PlanOptions &options) {
  // The time limit covers the warm start too.
  auto started = std::chrono::steady_clock::now();
  // The warm start (the same on one thread or two); CBC runs in a process
  // of its own, which inherits none of this one's memory.
  PlanResult start = planOptimal(problem, options, /*forIlp=*/true);
  if (!start.error.empty())
    return start;
  // `optimal`'s own plan, which the ILP's answer must beat: the program
  // describes only schedules that recompute in the step's op order, so
  // `optimal` may find a cheaper schedule, or one where the program has
  // none (and a lower least budget).
  PlanResult own = planOptimal(problem, options, /*forIlp=*/false);
  if (!own.error.empty())
    return own;
  IlpOptions ilpOptions = ilpOptionsOf(options);
  ilpOptions.started = started;
  if (start.feasible)
    ilpOptions.warmStart = &start.schedule;
  if (options.progress)
    options.progress("CBC solving the ILP", options.ilpTimeLimit);
  IlpResult ilp = solveIlp(problem, options.budget, ilpOptions);
  PlanResult result;
  result.leastPeak = start.leastPeak;
  if (!ilp.error.empty() && ilp.schedule.empty()) {
    result.error = ilp.error;
    return result;
  }
  if (!ilp.schedule.empty() && ilp.error.empty()) {
    Candidate c = score(problem, ilp.schedule, "ilp");
    result.feasible = c.valid && c.peak <= options.budget;
    result.schedule = c.schedule;
    result.time = c.cost;
    result.peak = c.peak;
    result.producer = "ilp";
  }
  result.ilp = std::move(ilp);
  if (own.leastPeak &&
      (!result.leastPeak || *own.leastPeak < *result.leastPeak))
    result.leastPeak = own.leastPeak;
  if (own.feasible && (!result.feasible || own.time < result.time)) {
    result.feasible = true;
    result.schedule = std::move(own.schedule);
    result.time = own.time;
    result.peak = own.peak;
    result.producer = own.producer;
  }
  return result;
}

/// The chain strategies (with fit=simulation or fit=model).
PlanResult planChain(const Problem &problem, const PlanOptions &options) {
  const StrategyKind kind = options.strategy.kind;
  ChainOptions chainOptions;
  const bool keepSeparators =
      kind == StrategyKind::Speed || kind == StrategyKind::Manual;
  if (kind == StrategyKind::Articulation)
    chainOptions.kind = SeparatorKind::Articulation;
  if (keepSeparators)
    chainOptions = options.candidates;
  ProblemChain pc = buildProblemChain(problem, chainOptions);
  if (options.fitModel)
    return planChainModel(problem, pc, options);

  ChainProducer producer(problem, pc, options.slots);
  Best best{options.budget, {}, {}};
  const int L = pc.chain.length();
  if (keepSeparators) {
    best.offer(producer.expand(keepSeparatorsSequence(L), "chain"));
    return finish(best);
  }
  solver::Strategy strategy = *options.strategy.chainStrategy();
  switch (strategy.kind) {
  case solver::Strategy::Kind::Optimal:
  case solver::Strategy::Kind::Revolve: {
    std::string failure = producer.searchDP(
        strategy.kind == solver::Strategy::Kind::Optimal, best);
    if (!failure.empty()) {
      PlanResult result;
      result.error = failure;
      return result;
    }
    break;
  }
  case solver::Strategy::Kind::StoreAll:
    best.offer(score(problem, identitySchedule(problem), "store-all"));
    break;
  case solver::Strategy::Kind::Periodic:
    if (strategy.segments > std::max(L, 1)) {
      PlanResult result;
      result.error = "periodic:" + std::to_string(strategy.segments) +
                     " needs at most " + std::to_string(std::max(L, 1)) +
                     " segments: the chain has " + std::to_string(L) +
                     " stages before the loss";
      return result;
    }
    best.offer(producer.expand(solver::periodicSequence(L, strategy.segments),
                               "chain"));
    break;
  case solver::Strategy::Kind::Sqrt: {
    int k = static_cast<int>(std::lround(std::sqrt(static_cast<double>(L))));
    best.offer(
        producer.expand(solver::periodicSequence(L, std::max(1, k)), "chain"));
    break;
  }
  case solver::Strategy::Kind::MemoryPoor:
    best.offer(producer.expand(solver::memoryPoorSequence(L), "chain"));
    break;
  }
  return finish(best);
}

} // namespace

PlanResult ckpt::sched::planSchedule(const Problem &problem,
                                     const PlanOptions &options) {
  const StrategyKind kind = options.strategy.kind;
  if (kind == StrategyKind::Periodic && options.strategy.segments < 1) {
    PlanResult result;
    result.error = "periodic:K needs an integer K >= 1";
    return result;
  }
  if (options.fitModel && !options.strategy.info().chain) {
    PlanResult result;
    result.error = "fit=model applies to the chain strategies; '" +
                   options.strategy.str() +
                   "' is a schedule, planned with fit=simulation";
    return result;
  }
  if (kind == StrategyKind::Optimal && !options.fitModel)
    return planOptimal(problem, options, /*forIlp=*/false);
  if (kind == StrategyKind::Keep)
    return planKeep(problem, options);
  if (kind == StrategyKind::Ilp)
    return planIlp(problem, options);
  return planChain(problem, options);
}
