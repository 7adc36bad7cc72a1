//===- OffloadPlanner.cpp - keep, recompute or offload --------------------===//

#include "ckpt/Solver/Schedule/OffloadPlanner.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace ckpt::sched;

//===----------------------------------------------------------------------===//
// Transfers, one at a time, at the device peak
//===----------------------------------------------------------------------===//

namespace {
/// The greedy's transfers on the schedule `evaluator` simulated, chosen over
/// `link`: one move at a time, at the device peak's instant, until no move
/// lowers the peak (or moves it to a later instant) or `maxTransfers`.
/// `visit(transfers, evaluation over link)` sees every prefix, the empty one
/// first, and returns true to stop. The moves do not depend on a budget: the
/// moves a budget keeps are a prefix of those any lower budget keeps.
template <typename Visit>
void greedyTransfers(const TransferEvaluator &evaluator, size_t end,
                     const LinkSpec &link, const OffloadPlanOptions &options,
                     Visit &&visit) {
  std::vector<Transfer> transfers;
  TransferEvaluation current = evaluator.evaluate(transfers, link);
  if (!current.valid)
    return;
  if (visit(transfers, current))
    return;
  const MemorySimulator &simulator = evaluator.tables();
  const size_t numVersions = simulator.versionValue.size();
  std::vector<char> moved(numVersions, 0);
  struct Candidate {
    Transfer transfer;
    int64_t bytes;
    int version;
  };
  for (int step = 0; step < options.maxTransfers; ++step) {
    const double t = current.devicePeakTime;
    const std::vector<double> &start = current.start, &finish = current.end;
    std::vector<Candidate> candidates;
    for (size_t y = 0; y < numVersions; ++y) {
      int buffer = evaluator.ownBuffer(static_cast<int>(y));
      if (moved[y] || buffer < 0)
        continue;
      // The gap of its uses around t: its last use p that ends by t, and
      // the next read q (the end for a returned version).
      size_t p = simulator.versionExec[y];
      if (finish[p] > t)
        continue; // defined at the peak or later
      size_t q = end;
      for (size_t i = simulator.readStart[y]; i < simulator.readStart[y + 1];
           ++i) {
        size_t e = simulator.readExec[i];
        if (finish[e] <= t) {
          p = std::max(p, e);
        } else {
          q = e;
          break;
        }
      }
      bool returned = simulator.versionLast[y] == end;
      if (q == end && !returned)
        continue; // dead after p: nothing to move
      if (q < end && start[q] <= t)
        continue; // read at the peak
      if (q == p + 1)
        continue; // no execution between its uses to overlap with
      // Reload as late as the link allows: the last execution r before q
      // whose end leaves the copy time before q starts, and not before t.
      int64_t bytes = simulator.bufferBytes[buffer];
      double copy = link.seconds(bytes, /*toHostWay=*/false);
      double needed = q < end ? start[q] : current.time;
      size_t r = q - 1;
      while (r > p + 1 && finish[r] + copy > needed && finish[r - 1] >= t)
        --r;
      // Both that prefetch and the reload just in time (after q - 1,
      // stalling q by the copy): the prefetched copy may be back while the
      // peak lasts.
      for (size_t reloadAfter : {r, q - 1}) {
        candidates.push_back(
            {Transfer{simulator.versionValue[y], p, reloadAfter}, bytes,
             static_cast<int>(y)});
        if (r == q - 1)
          break;
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) {
                       return a.bytes > b.bytes;
                     });
    if (candidates.size() > static_cast<size_t>(2 * options.candidates))
      candidates.resize(2 * options.candidates);
    // The move that lowers the peak most, then the fastest; a move that
    // moves the peak to a later instant without raising it also counts.
    int best = -1;
    TransferEvaluation bestEval;
    for (size_t c = 0; c < candidates.size(); ++c) {
      // A move lowers the peak by its bytes at most (the bytes live at the
      // peak's position drop by no more): the rest, smaller, cannot reach
      // the best one's peak.
      if (best >= 0 &&
          current.devicePeak - candidates[c].bytes > bestEval.devicePeak)
        break;
      transfers.push_back(candidates[c].transfer);
      TransferEvaluation e = evaluator.evaluate(transfers, link);
      transfers.pop_back();
      if (!e.valid)
        continue;
      bool progress = e.devicePeak < current.devicePeak ||
                      (e.devicePeak == current.devicePeak &&
                       e.devicePeakTime > current.devicePeakTime);
      if (!progress)
        continue;
      if (best < 0 || e.devicePeak < bestEval.devicePeak ||
          (e.devicePeak == bestEval.devicePeak && e.time < bestEval.time)) {
        best = static_cast<int>(c);
        bestEval = std::move(e);
      }
    }
    if (best < 0)
      break;
    transfers.push_back(candidates[best].transfer);
    moved[candidates[best].version] = 1;
    current = std::move(bestEval);
    if (visit(transfers, current))
      return;
  }
}

/// The links the greedy chooses its moves over, for planning over `link`:
/// symmetric, with no latency, at the bandwidths 2^k bytes per unit
/// from `floor` up to the larger of 2^10 times `floor` and twice `link`'s
/// host-to-device bandwidth. A plan made for any of them is valid over
/// every link, and no slower over a faster one (more bandwidth, less
/// latency); and a faster link chooses over every link a slower one does,
/// so that it never gets a slower plan. Chosen over a slower link than the
/// one planned for, the moves reload earlier (no stall); over a faster one,
/// later (a lower peak, with stalls). With `stride` n, every n-th of them
/// (counted from `floor`'s, so that they are among the others).
std::vector<LinkSpec> linksToChooseOver(const LinkSpec &link, double floor,
                                        int stride) {
  int bottom = static_cast<int>(std::ceil(std::log2(floor)));
  int top = bottom + 10;
  if (link.toDevice > 0 && std::isfinite(link.toDevice))
    top = std::max(top,
                   static_cast<int>(std::ceil(std::log2(2 * link.toDevice))));
  top -= (top - bottom) % stride;
  std::vector<LinkSpec> links; // the fastest first: of plans as fast, the
                               // one reloading latest is kept
  for (int k = top; k >= bottom; k -= stride) {
    double bandwidth = std::exp2(static_cast<double>(k));
    links.push_back(LinkSpec{bandwidth, bandwidth, 0});
  }
  return links;
}

/// The floor of linksToChooseOver: the bandwidth at which the largest value
/// of `problem` takes as long as the whole step (store-all) to copy.
double slowestChoice(const Problem &problem) {
  int64_t largest = 1;
  for (const Value &v : problem.values)
    largest = std::max(largest, v.bytes);
  double step = 0;
  for (const Op &op : problem.ops)
    step += op.cost;
  double floor = step > 0 ? static_cast<double>(largest) / step : 1.0;
  return std::isfinite(floor) && floor > 0 ? floor : 1.0;
}

/// The joint planner's search (planWithOffload): every candidate but the
/// recompute-only plan at the budget is made without looking at the budget,
/// which only picks the fastest of them that fits.
class JointSearch {
public:
  JointSearch(const Problem &problem, const OffloadPlanOptions &options,
              OffloadPlanResult &out)
      : problem(problem), options(options), out(out) {}

  /// Chooses moves over every `stride`-th link of linksToChooseOver.
  void chooseOver(int stride) {
    choiceLinks =
        linksToChooseOver(options.link, slowestChoice(problem), stride);
  }

  /// The recompute-only plan at `budget` (strategy optimal, cached).
  const PlanResult &recomputeOnly(int64_t budget) {
    auto it = plans.find(budget);
    if (it != plans.end())
      return it->second;
    PlanOptions plan;
    plan.budget = budget;
    plan.slots = options.slots;
    return plans.emplace(budget, planSchedule(problem, plan)).first->second;
  }

  /// Keeps `schedule` with `transfers` (evaluated as `e` over the link) when
  /// it fits and is the fastest so far; records the lowest device peak.
  void consider(const Schedule &schedule,
                const std::vector<Transfer> &transfers,
                const TransferEvaluation &e, const std::string &producer) {
    if (!e.valid)
      return;
    if (out.lowestDevicePeak == 0 || e.devicePeak < out.lowestDevicePeak)
      out.lowestDevicePeak = e.devicePeak;
    if (e.devicePeak > options.budget)
      return;
    if (out.feasible && !(e.time < out.evaluation.time))
      return;
    out.feasible = true;
    out.schedule = schedule;
    out.transfers = transfers;
    out.evaluation = e;
    out.producer = producer;
  }

  /// save_on_cpu's transfers on the schedule `evaluator` simulated, then
  /// with those that cost time dropped one at a time, the smallest first
  /// (at most 200 tried: each costs an evaluation); every set on the way is
  /// a candidate.
  void saveOnCpu(const TransferEvaluator &evaluator, const Schedule &schedule,
                 const std::string &producer) {
    std::vector<Transfer> transfers = evaluator.saveOnCpu();
    if (transfers.empty())
      return;
    TransferEvaluation kept = evaluator.evaluate(transfers, options.link);
    if (!kept.valid)
      return;
    consider(schedule, transfers, kept, producer);
    if (transfers.size() > 200)
      return;
    const MemorySimulator &tables = evaluator.tables();
    auto bytesOf = [&](const Transfer &t) {
      int version = tables.versionBefore(t.value, t.after + 1);
      return tables.bufferBytes[tables.versionBuffer[version]];
    };
    std::vector<Transfer> order = transfers;
    std::stable_sort(order.begin(), order.end(),
                     [&](const Transfer &a, const Transfer &b) {
                       return bytesOf(a) < bytesOf(b);
                     });
    for (const Transfer &drop : order) {
      std::vector<Transfer> fewer;
      for (const Transfer &t : transfers)
        if (t.value != drop.value || t.after != drop.after)
          fewer.push_back(t);
      TransferEvaluation e = evaluator.evaluate(fewer, options.link);
      if (e.valid && e.time <= kept.time) {
        transfers = std::move(fewer);
        kept = std::move(e);
        consider(schedule, transfers, kept, producer);
      }
    }
  }

  /// The greedy's transfers on `schedule`, chosen over each of
  /// `choiceLinks`, each prefix evaluated over the link up to the first that
  /// fits (a move adds copies: the prefixes after it are no faster); then
  /// save_on_cpu's.
  void offloadFrom(const Schedule &schedule, const std::string &name) {
    TransferEvaluator evaluator(problem, schedule);
    consider(schedule, {}, evaluator.evaluate({}, options.link), name);
    for (const LinkSpec &chosenOver : choiceLinks)
      greedyTransfers(evaluator, schedule.size(), chosenOver, options,
                      [&](const std::vector<Transfer> &transfers,
                          const TransferEvaluation &) {
                        if (transfers.empty())
                          return false;
                        TransferEvaluation e =
                            evaluator.evaluate(transfers, options.link);
                        consider(schedule, transfers, e, name + "+offload");
                        return e.valid && e.devicePeak <= options.budget;
                      });
    saveOnCpu(evaluator, schedule, name + "+save_on_cpu");
  }

private:
  const Problem &problem;
  const OffloadPlanOptions &options;
  OffloadPlanResult &out;
  std::map<int64_t, PlanResult> plans;
  std::vector<LinkSpec> choiceLinks;
};
} // namespace

//===----------------------------------------------------------------------===//
// The joint plan
//===----------------------------------------------------------------------===//

OffloadPlanResult
ckpt::sched::planWithOffload(const Problem &problem,
                             const OffloadPlanOptions &options) {
  OffloadPlanResult out;
  JointSearch search(problem, options, out);
  const PlanResult atBudget = options.recomputeOnly
                                  ? *options.recomputeOnly
                                  : search.recomputeOnly(options.budget);
  if (!atBudget.error.empty()) {
    out.error = atBudget.error;
    return out;
  }
  out.recomputeFeasible = atBudget.feasible;
  if (atBudget.feasible) {
    out.recomputeTime = atBudget.time;
    search.consider(atBudget.schedule, {},
                    TransferEvaluator(problem, atBudget.schedule)
                        .evaluate({}, options.link),
                    "recompute");
  }
  const Schedule asWritten = identitySchedule(problem);
  search.saveOnCpu(TransferEvaluator(problem, asWritten), asWritten,
                   "save_on_cpu");

  // Recompute less, offload instead: recompute-only plans at budgets that
  // do not depend on this one (twelfths of the store-all peak, and the
  // least peak recomputation reaches when this budget is under it), those
  // above the budget brought under it by transfers. Those at or under it
  // are left out: they fit as they are, copies make them no faster, and
  // the recompute-only plan at the budget is as fast as they are unless it
  // misses (planning them costs more than the rest).
  // Under recomputation's least, where nothing may fit and every greedy
  // run then goes to its end (the least budget with offloading), the
  // moves are chosen over every other link (one per two doublings).
  search.chooseOver(atBudget.feasible || !atBudget.leastPeak ? 1 : 2);
  int64_t storeAll = evaluate(problem, asWritten).peak;
  constexpr int kStarts = 12;
  std::vector<int64_t> above;
  if (!atBudget.feasible && atBudget.leastPeak)
    above.push_back(*atBudget.leastPeak);
  int64_t floor = atBudget.feasible ? options.budget
                                    : atBudget.leastPeak.value_or(storeAll);
  for (int k = 1; k <= kStarts; ++k) {
    int64_t budget = storeAll * k / kStarts;
    if (budget > floor)
      above.push_back(budget);
  }
  for (int64_t budget : above) {
    const PlanResult &start = search.recomputeOnly(budget);
    if (start.feasible)
      search.offloadFrom(start.schedule, "recompute@" + std::to_string(budget));
  }
  // Under recomputation's least, no candidate depends on the budget: the
  // lowest device peak among them is the least budget that plans.
  if (!out.feasible && atBudget.leastPeak && out.lowestDevicePeak > 0)
    out.leastBudget = out.lowestDevicePeak;
  return out;
}

std::optional<int64_t>
ckpt::sched::leastBudgetWithOffload(const Problem &problem,
                                    const OffloadPlanOptions &options,
                                    const PlanResult &recomputeOnly) {
  if (!recomputeOnly.leastPeak)
    return std::nullopt;
  OffloadPlanOptions at = options;
  at.budget = 1;
  at.recomputeOnly = &recomputeOnly;
  OffloadPlanResult r = planWithOffload(problem, at);
  if (r.feasible) // a step that needs no memory
    return r.evaluation.devicePeak;
  return r.leastBudget;
}
