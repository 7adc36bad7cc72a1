//===- OffloadPlanner.cpp - keep, recompute or offload --------------------===//

#include "ckpt/Solver/Schedule/OffloadPlanner.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <set>

using namespace ckpt::sched;

//===----------------------------------------------------------------------===//
// Transfers, one at a time, at the device peak
//===----------------------------------------------------------------------===//

namespace {
struct Candidate {
  Transfer transfer;
  int64_t bytes;
  int version;
};

/// The moves of the versions idle at the device peak of `current` (not
/// yet `moved`): offloaded after their last use before the peak, reloaded
/// as late as the link allows without a stall or just before their next
/// reader.
std::vector<Candidate> idleAtThePeak(const TransferEvaluator &evaluator,
                                     size_t end,
                                     const TransferEvaluation &current,
                                     const std::vector<char> &moved,
                                     const LinkSpec &link) {
  const MemorySimulator &simulator = evaluator.tables();
  const double t = current.devicePeakTime;
  const std::vector<double> &start = current.start, &finish = current.end;
  std::vector<Candidate> candidates;
  for (size_t y = 0; y < moved.size(); ++y) {
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
      candidates.push_back({Transfer{simulator.versionValue[y], p, reloadAfter},
                            bytes, static_cast<int>(y)});
      if (r == q - 1)
        break;
    }
  }
  return candidates;
}

/// Adds transfers to the schedule `evaluator` simulated (once, for every
/// candidate), one at a time, until its device peak is within `budget` or no
/// transfer lowers it: at the peak's instant, the moves of a version idle
/// there are evaluated exactly and the one that lowers the peak most (then
/// the fastest) is kept. `current` ends as the evaluation of the transfers
/// returned. Each move is also tried waited for at once: when no other
/// lowers the peak, or with `waitAlways` at every step.
std::vector<Transfer>
greedyTransfers(const TransferEvaluator &evaluator, size_t end, int64_t budget,
                const OffloadPlanOptions &options, TransferEvaluation &current,
                bool cheapest = false, bool waitAlways = false) {
  std::vector<Transfer> transfers;
  current = evaluator.evaluate(transfers, options.link);
  if (!current.valid)
    return transfers;
  std::vector<char> moved(evaluator.tables().versionValue.size(), 0);
  for (int step = 0; step < options.maxTransfers && current.devicePeak > budget;
       ++step) {
    std::vector<Candidate> candidates =
        idleAtThePeak(evaluator, end, current, moved, options.link);
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) {
                       return a.bytes > b.bytes;
                     });
    if (candidates.size() > static_cast<size_t>(2 * options.candidates))
      candidates.resize(2 * options.candidates);
    // The move that lowers the peak most, then the fastest (with
    // `cheapest`: the fastest, then the one that lowers the peak most); a
    // move that moves the peak to a later instant without raising it also
    // counts. When none does (or with `waitAlways`), the same moves waited
    // for at once: the compute stalls for the copy, and the buffer is gone
    // before the execution at the peak allocates (an offload overlapping it
    // frees nothing there; at the least budget of a step, where one
    // execution's operands fill the device, nothing else may stay).
    int best = -1;
    Transfer bestTransfer;
    TransferEvaluation bestEval;
    for (bool waitAtOnce : {false, true}) {
      for (size_t c = 0; c < candidates.size(); ++c) {
        Transfer candidate = candidates[c].transfer;
        if (waitAtOnce)
          candidate.waitAfter = candidate.after;
        transfers.push_back(candidate);
        TransferEvaluation e = evaluator.evaluate(transfers, options.link);
        transfers.pop_back();
        if (!e.valid)
          continue;
        bool progress = e.devicePeak < current.devicePeak ||
                        (e.devicePeak == current.devicePeak &&
                         e.devicePeakTime > current.devicePeakTime);
        if (!progress)
          continue;
        bool better = cheapest ? e.time < bestEval.time ||
                                     (e.time == bestEval.time &&
                                      e.devicePeak < bestEval.devicePeak)
                               : e.devicePeak < bestEval.devicePeak ||
                                     (e.devicePeak == bestEval.devicePeak &&
                                      e.time < bestEval.time);
        if (best < 0 || better) {
          best = static_cast<int>(c);
          bestTransfer = candidate;
          bestEval = std::move(e);
        }
      }
      if (best >= 0 && !waitAlways)
        break;
    }
    if (best < 0)
      break;
    transfers.push_back(bestTransfer);
    moved[candidates[best].version] = 1;
    current = std::move(bestEval);
  }
  return transfers;
}
/// Improves `transfers` (evaluated as `current`, within `budget`) one
/// transfer at a time: dropping it, issuing its reload 1, 2, 4, ...
/// executions earlier (where a late reload stalls its reader), its
/// offload that many earlier or later, or waiting for the offload that
/// many later (or where the copy ends), whichever is fastest and stays
/// within the budget; a few passes, until nothing helps.
void polishTransfers(const TransferEvaluator &evaluator, int64_t budget,
                     const LinkSpec &link, std::vector<Transfer> &transfers,
                     TransferEvaluation &current) {
  if (!current.valid || current.devicePeak > budget)
    return;
  for (int pass = 0; pass < 3; ++pass) {
    bool improved = false;
    size_t t = 0;
    while (t < transfers.size()) {
      std::vector<Transfer> best;
      TransferEvaluation bestEval = current;
      auto offer = [&](std::vector<Transfer> trial) {
        TransferEvaluation e = evaluator.evaluate(trial, link);
        if (e.valid && e.devicePeak <= budget &&
            e.time < bestEval.time * (1 - 1e-12)) {
          best = std::move(trial);
          bestEval = std::move(e);
        }
      };
      std::vector<Transfer> fewer = transfers;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(t));
      offer(std::move(fewer));
      const Transfer move = transfers[t];
      // The offload issued after `after`; a wait at once moves with it,
      // a later wait stays where it is, kept between the copies.
      auto offloadAfter = [&](size_t after) {
        std::vector<Transfer> trial = transfers;
        trial[t].after = after;
        if (move.waitAfter != kNoReload &&
            (move.waitAfter == move.after || move.waitAfter < after))
          trial[t].waitAfter = after;
        offer(std::move(trial));
      };
      for (size_t back = 1; back <= move.after; back *= 2)
        offloadAfter(move.after - back);
      const size_t last = move.reloadAfter == kNoReload ? 0 : move.reloadAfter;
      for (size_t ahead = 1; move.after + ahead < last; ahead *= 2)
        offloadAfter(move.after + ahead);
      for (size_t back = 1; move.reloadAfter != kNoReload &&
                            move.reloadAfter >= move.after + back + 1;
           back *= 2) {
        std::vector<Transfer> trial = transfers;
        trial[t].reloadAfter = move.reloadAfter - back;
        if (move.waitAfter != kNoReload)
          trial[t].waitAfter = std::min(move.waitAfter, trial[t].reloadAfter);
        offer(std::move(trial));
      }
      // A wait at once (the greedy's, where the buffer had to be gone
      // before the next execution) 1, 2, 4, ... executions later, or where
      // the copy ends.
      if (move.waitAfter != kNoReload) {
        std::vector<Transfer> trial = transfers;
        trial[t].waitAfter = kNoReload;
        offer(std::move(trial));
        for (size_t later = 1; move.waitAfter + later <= last; later *= 2) {
          trial = transfers;
          trial[t].waitAfter = move.waitAfter + later;
          offer(std::move(trial));
        }
      }
      if (best.empty()) {
        ++t;
        continue;
      }
      bool dropped = best.size() < transfers.size();
      transfers = std::move(best);
      current = std::move(bestEval);
      improved = true;
      if (!dropped)
        ++t;
    }
    if (!improved)
      break;
  }
}

/// save_on_cpu's transfers on the schedule `evaluator` simulated, less those
/// the budget does not need (the smallest first; at most 200 tried: each
/// costs an evaluation), evaluated in `kept`; nullopt when there are none
/// or they do not fit.
std::optional<std::vector<Transfer>>
trimmedSaveOnCpu(const TransferEvaluator &evaluator, int64_t budget,
                 const LinkSpec &link, TransferEvaluation &kept) {
  std::vector<Transfer> transfers = evaluator.saveOnCpu();
  if (transfers.empty())
    return std::nullopt;
  kept = evaluator.evaluate(transfers, link);
  if (!kept.valid || kept.devicePeak > budget)
    return std::nullopt;
  if (transfers.size() > 200)
    return transfers;
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
    TransferEvaluation e = evaluator.evaluate(fewer, link);
    if (e.valid && e.devicePeak <= budget && e.time <= kept.time) {
      transfers = std::move(fewer);
      kept = std::move(e);
    }
  }
  return transfers;
}

/// Halves the gaps on either side of the best start (`bestStart`, which
/// `tryStart` updates), twice: the plans recomputation makes differ from one
/// budget to the next, and so do the transfers that bring them under this
/// one.
void startsBesideTheBest(const std::set<int64_t> &tried,
                         const int64_t &bestStart,
                         const std::function<void(int64_t)> &tryStart) {
  for (int round = 0; round < 2 && bestStart >= 0; ++round) {
    int64_t center = bestStart;
    auto at = tried.find(center);
    if (at != tried.begin())
      tryStart(*std::prev(at) + (center - *std::prev(at)) / 2);
    at = tried.find(center);
    if (std::next(at) != tried.end())
      tryStart(center + (*std::next(at) - center) / 2);
  }
}

/// greedyTransfers on the schedule `evaluator` simulated; where that ends
/// over the budget and with `retry`, again weighing waits at once at every
/// step (a move that overlapped its copy may have led nowhere).
std::vector<Transfer> fitUnderTheBudget(const TransferEvaluator &evaluator,
                                        size_t end,
                                        const OffloadPlanOptions &options,
                                        TransferEvaluation &added,
                                        bool cheapest, bool retry) {
  std::vector<Transfer> transfers =
      greedyTransfers(evaluator, end, options.budget, options, added, cheapest);
  if (retry && added.valid && added.devicePeak > options.budget)
    transfers = greedyTransfers(evaluator, end, options.budget, options, added,
                                cheapest, /*waitAlways=*/true);
  return transfers;
}

/// A start's plan that fits, not polished yet (problems over 500 ops).
struct Unpolished {
  const Schedule *schedule; // in planWithOffload's `plans`
  std::vector<Transfer> transfers;
  TransferEvaluation evaluation;
  int64_t start;
};

/// Polishes the `count` fastest of `unpolished` and offers each to
/// `consider`.
void polishTheFastest(
    const Problem &problem, const OffloadPlanOptions &options,
    std::vector<Unpolished> &unpolished, size_t count,
    const std::function<void(const Schedule &, std::vector<Transfer>,
                             TransferEvaluation, const std::string &)>
        &consider) {
  std::stable_sort(unpolished.begin(), unpolished.end(),
                   [](const Unpolished &a, const Unpolished &b) {
                     return a.evaluation.time < b.evaluation.time;
                   });
  for (size_t i = 0; i < std::min(count, unpolished.size()); ++i) {
    Unpolished &u = unpolished[i];
    TransferEvaluator evaluator(problem, *u.schedule);
    polishTransfers(evaluator, options.budget, options.link, u.transfers,
                    u.evaluation);
    consider(*u.schedule, std::move(u.transfers), std::move(u.evaluation),
             "recompute@" + std::to_string(u.start) + "+offload");
  }
}

/// Keeps `schedule` with `transfers` (whose evaluation is `e`) in `out`
/// when it fits `budget` and is the fastest so far; `out.lowestDevicePeak`
/// is the lowest of every valid plan offered.
void keepIfFastest(OffloadPlanResult &out, int64_t budget,
                   const Schedule &schedule, std::vector<Transfer> transfers,
                   TransferEvaluation e, const std::string &producer) {
  if (e.valid &&
      (out.lowestDevicePeak == 0 || e.devicePeak < out.lowestDevicePeak))
    out.lowestDevicePeak = e.devicePeak;
  if (!e.valid || e.devicePeak > budget)
    return;
  if (out.feasible && !(e.time < out.evaluation.time))
    return;
  out.feasible = true;
  out.schedule = schedule;
  out.transfers = std::move(transfers);
  out.evaluation = std::move(e);
  out.producer = producer;
}

} // namespace

//===----------------------------------------------------------------------===//
// The joint plan
//===----------------------------------------------------------------------===//

OffloadPlanResult
ckpt::sched::planWithOffload(const Problem &problem,
                             const OffloadPlanOptions &options) {
  OffloadPlanResult out;
  std::map<int64_t, PlanResult> ownPlans;
  std::map<int64_t, PlanResult> &plans =
      options.plans ? *options.plans : ownPlans;
  auto recomputeOnly = [&](int64_t budget) -> const PlanResult & {
    auto it = plans.find(budget);
    if (it != plans.end())
      return it->second;
    PlanOptions plan;
    plan.budget = budget;
    plan.slots = options.slots;
    return plans.emplace(budget, planSchedule(problem, plan)).first->second;
  };
  auto consider = [&](const Schedule &schedule, std::vector<Transfer> transfers,
                      TransferEvaluation e, const std::string &producer) {
    keepIfFastest(out, options.budget, schedule, std::move(transfers),
                  std::move(e), producer);
  };

  const PlanResult &atBudget = options.recomputeOnly
                                   ? *options.recomputeOnly
                                   : recomputeOnly(options.budget);
  if (!atBudget.error.empty()) {
    out.error = atBudget.error;
    return out;
  }
  out.recomputeFeasible = atBudget.feasible;
  if (atBudget.feasible) {
    out.recomputeTime = atBudget.time;
    consider(atBudget.schedule, {},
             TransferEvaluator(problem, atBudget.schedule)
                 .evaluate({}, options.link),
             "recompute");
  }

  // save_on_cpu's transfers on the schedule `evaluator` simulated, less those
  // the budget does not need.
  auto saveOnCpu = [&](const TransferEvaluator &evaluator,
                       const Schedule &schedule, const std::string &producer) {
    TransferEvaluation kept;
    std::optional<std::vector<Transfer>> transfers =
        trimmedSaveOnCpu(evaluator, options.budget, options.link, kept);
    if (transfers)
      consider(schedule, std::move(*transfers), std::move(kept), producer);
  };
  const Schedule asWritten = identitySchedule(problem);
  saveOnCpu(TransferEvaluator(problem, asWritten), asWritten, "save_on_cpu");

  // Recompute less, offload instead: plans at larger budgets, brought under
  // this one by transfers (each plan simulated once for both kinds).
  int64_t storeAll = evaluate(problem, asWritten).peak;
  int64_t low = std::max(options.budget, atBudget.leastPeak.value_or(0));
  // With refine, on up to 500 ops (as the planner's own extra starts): the
  // second greedy, the retry weighing waits at once, every start's polish
  // and the extra starts. On GPT-2 small (4,600 ops) the second greedy and
  // the starts tripled the planning time for nothing, the retry made a
  // refused plan 1.5x slower for no plan, and polishing every start doubled
  // the time: there only the two fastest starts are polished.
  const bool thorough = options.refine && problem.numOps() <= 500;
  std::set<int64_t> tried;
  int64_t bestStart = -1; // the larger budget of the fastest plan so far
  std::vector<Unpolished> unpolished;
  auto tryStart = [&](int64_t budget) {
    if (!tried.insert(budget).second)
      return;
    if (budget <= options.budget && atBudget.feasible)
      return; // that plan is the one at the budget
    const PlanResult &larger = recomputeOnly(budget);
    if (!larger.feasible)
      return;
    double before = out.feasible ? out.evaluation.time : 0;
    bool had = out.feasible;
    TransferEvaluator evaluator(problem, larger.schedule);
    // Thorough, also the greedy that takes the fastest move each step.
    for (bool cheapest : {false, true}) {
      if (cheapest && !thorough)
        break;
      TransferEvaluation added;
      std::vector<Transfer> transfers =
          fitUnderTheBudget(evaluator, larger.schedule.size(), options, added,
                            cheapest, /*retry=*/thorough);
      if (thorough)
        polishTransfers(evaluator, options.budget, options.link, transfers,
                        added);
      else if (options.refine && added.valid &&
               added.devicePeak <= options.budget && !transfers.empty())
        unpolished.push_back({&larger.schedule, transfers, added, budget});
      consider(larger.schedule, std::move(transfers), std::move(added),
               "recompute@" + std::to_string(budget) +
                   (cheapest ? "+offload(fastest)" : "+offload"));
    }
    saveOnCpu(evaluator, larger.schedule,
              "recompute@" + std::to_string(budget) + "+save_on_cpu");
    if (out.feasible && (!had || out.evaluation.time < before))
      bestStart = budget;
  };
  tryStart(storeAll);
  for (int k = 3; k >= 0; --k)
    tryStart(low + (storeAll - low) * k / 4);
  if (thorough)
    startsBesideTheBest(tried, bestStart, tryStart);
  polishTheFastest(problem, options, unpolished, 2, consider);
  if (!out.feasible && options.searchLeast && !atBudget.feasible) {
    OffloadPlanOptions search = options;
    search.plans = &plans; // the larger budgets' plans, made above
    // Under recomputation's least, the starts and the greedies' paths are
    // those of a budget of 1 B: so is the lowest peak they reached.
    search.lowestDevicePeak = out.lowestDevicePeak;
    out.leastBudget = leastBudgetWithOffload(problem, search, atBudget);
  }
  return out;
}

std::optional<int64_t>
ckpt::sched::leastBudgetWithOffload(const Problem &problem,
                                    const OffloadPlanOptions &options,
                                    const PlanResult &recomputeOnly) {
  if (!recomputeOnly.leastPeak)
    return std::nullopt;
  std::map<int64_t, PlanResult> plans;
  OffloadPlanOptions at = options;
  at.searchLeast = false;
  at.refine = false; // whether a plan fits, not how fast
  if (!at.plans)
    at.plans = &plans;
  // Recomputation alone fits no budget under its least peak: the refused
  // plan stands for every budget the descent asks (its least is searched
  // independently of the budget).
  at.recomputeOnly = &recomputeOnly;
  // The device peak of the plan at `budget`, if it has one.
  auto fits = [&](int64_t budget) -> std::optional<int64_t> {
    at.budget = budget;
    OffloadPlanResult r = planWithOffload(problem, at);
    if (!r.error.empty() || !r.feasible)
      return std::nullopt;
    return r.evaluation.devicePeak;
  };
  int64_t least = *recomputeOnly.leastPeak;
  // Start where the greedy's copies get without a budget to stop them.
  at.budget = 1;
  int64_t lowest = options.lowestDevicePeak
                       ? options.lowestDevicePeak
                       : planWithOffload(problem, at).lowestDevicePeak;
  if (lowest > 0 && lowest < least && fits(lowest))
    least = lowest;
  int64_t step = 1;
  for (int i = 0; i < 64 && least > step; ++i) {
    std::optional<int64_t> peak = fits(least - step);
    if (!peak) {
      if (step == 1)
        break;
      step /= 2;
      continue;
    }
    least -= step;
    // A plan under what was asked: take its peak when that plans too.
    if (*peak < least && fits(*peak))
      least = *peak;
    step *= 2;
  }
  return least;
}

namespace {
/// strategy=ilp over a link: the ILP with paging (Ilp.h), warm-started from
/// the recompute-only plan `recompute` (strategy=ilp's), or `joint` (the
/// joint planner's) where that is faster; the ILP's outcome in `ilp`.
void planPagingIlp(const Problem &problem, const PlanOptions &options,
                   const PlanResult &recompute, OffloadPlanResult &joint) {
  IlpOptions ilpOptions = ilpOptionsOf(options);
  ilpOptions.paging = options.offload;
  if (recompute.feasible)
    ilpOptions.warmStart = &recompute.schedule;
  if (options.progress)
    options.progress("CBC solving the ILP with paging", options.ilpTimeLimit);
  IlpResult ilp = solveIlp(problem, options.budget, ilpOptions);
  bool faster = !ilp.schedule.empty() && ilp.evaluation.valid &&
                (!joint.feasible || ilp.cost < joint.evaluation.time);
  if (!ilp.error.empty() && ilp.schedule.empty() && !joint.feasible) {
    joint.error = ilp.error;
  } else if (faster) {
    joint.leastBudget.reset(); // it plans
    joint.feasible = true;
    joint.schedule = ilp.schedule;
    joint.transfers = ilp.transfers;
    joint.evaluation = ilp.evaluation;
    joint.producer = "ilp";
  }
  joint.ilp = std::move(ilp);
}
} // namespace

PlanThenOffload ckpt::sched::planThenOffload(const Problem &problem,
                                             const PlanOptions &options) {
  PlanThenOffload out;
  out.recompute = planSchedule(problem, options);
  const std::optional<LinkSpec> &link = options.offload;
  if (!link || !out.recompute.error.empty())
    return out;
  if (options.progress)
    options.progress("planning offloads", 0);
  OffloadPlanOptions offload;
  offload.budget = options.budget;
  offload.link = *link;
  offload.slots = options.slots;
  // The joint planner starts from strategy optimal's plan at this budget.
  const bool ilp = options.strategy.kind == StrategyKind::Ilp;
  PlanResult optimal;
  if (ilp) {
    PlanOptions optimalOptions = options;
    optimalOptions.strategy = PlanStrategy();
    optimalOptions.progress = nullptr;
    optimal = planSchedule(problem, optimalOptions);
  }
  offload.recomputeOnly = ilp ? &optimal : &out.recompute;
  out.joint = planWithOffload(problem, offload);
  if (ilp && out.joint->error.empty())
    planPagingIlp(problem, options, out.recompute, *out.joint);
  return out;
}
