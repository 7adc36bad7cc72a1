//===- Remat.cpp - op-level rematerialization planners --------------------===//

#include "ckpt/Solver/Remat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

using namespace ckpt::sched;

namespace {

/// A schedule as its first executions (`base`, every op once, in order) and,
/// before each of them, the recomputations that run just before it
/// (`rec[t]`, in execution order). `rec[size]` holds recomputations after
/// the last first execution.
struct Staged {
  std::vector<int> base;
  std::vector<std::vector<int>> rec;
};

Staged toStaged(const Problem &problem, const Schedule &schedule) {
  Staged staged;
  std::vector<char> seen(problem.numOps(), 0);
  std::vector<int> pending;
  for (int op : schedule) {
    if (!seen[op]) {
      seen[op] = 1;
      staged.rec.push_back(std::move(pending));
      pending.clear();
      staged.base.push_back(op);
    } else {
      pending.push_back(op);
    }
  }
  staged.rec.push_back(std::move(pending));
  return staged;
}

/// The flat schedule; `stageOf[e]` (when given) is the stage of execution e,
/// `stageStart[t]` the index of rec[t]'s first execution.
void flatten(const Staged &staged, Schedule &out,
             std::vector<int> *stageOf = nullptr,
             std::vector<size_t> *stageStart = nullptr) {
  out.clear();
  if (stageOf)
    stageOf->clear();
  if (stageStart)
    stageStart->clear();
  for (size_t t = 0; t < staged.rec.size(); ++t) {
    if (stageStart)
      stageStart->push_back(out.size());
    for (int op : staged.rec[t]) {
      out.push_back(op);
      if (stageOf)
        stageOf->push_back(static_cast<int>(t));
    }
    if (t < staged.base.size()) {
      out.push_back(staged.base[t]);
      if (stageOf)
        stageOf->push_back(static_cast<int>(t));
    }
  }
}

/// Reusable simulator: the memory model of evaluate(), with the details the
/// greedy needs (versions, reads, buffers) when asked.
class Simulator {
public:
  explicit Simulator(const Problem &problem) : problem(problem) {
    latest.assign(problem.numValues(), -1);
  }

  struct Light {
    bool valid = false;
    double cost = 0;
    int64_t peak = 0;
    size_t peakIndex = 0;
    double area = 0; ///< sum over executions of bytes above the budget
  };

  /// Simulates `schedule`; keeps the details for the accessors below when
  /// `detail` is set.
  Light run(const Schedule &schedule, int64_t budget, bool detail) {
    ++evaluations;
    Light out;
    const size_t end = schedule.size();
    vValue.clear();
    vExec.clear();
    vLast.clear();
    vSource.clear();
    if (detail) {
      readPairs.clear();
    }
    for (int op : schedule) {
      const Op &o = problem.ops[op];
      out.cost += o.cost;
    }
    size_t e = 0;
    bool valid = true;
    for (; e < end && valid; ++e) {
      const Op &op = problem.ops[schedule[e]];
      for (int r : op.reads) {
        if (problem.values[r].producer < 0)
          continue;
        int x = latest[r];
        if (x < 0) {
          valid = false;
          break;
        }
        vLast[x] = e;
        if (detail)
          readPairs.push_back({x, e});
      }
      if (!valid)
        break;
      size_t first = vValue.size();
      for (int r : op.results) {
        const Value &value = problem.values[r];
        vValue.push_back(r);
        vExec.push_back(e);
        vLast.push_back(e);
        vSource.push_back(value.rule != BufferRule::Fresh && value.source >= 0
                              ? latest[value.source]
                              : -1);
      }
      for (size_t i = 0; i < op.results.size(); ++i)
        latest[op.results[i]] = static_cast<int>(first + i);
    }
    if (valid)
      for (int v = 0; v < problem.numValues(); ++v)
        if (problem.values[v].returned && latest[v] >= 0)
          vLast[latest[v]] = end;
    // Reset `latest` for the next run (only values that were set).
    for (int v : vValue)
      latest[v] = -1;
    if (!valid)
      return out;
    out.valid = true;

    const size_t numVersions = vValue.size();
    vBuffer.assign(numVersions, -1);
    bBytes.clear();
    bDef.clear();
    bLast.clear();
    for (size_t y = 0; y < numVersions; ++y) {
      const Value &value = problem.values[vValue[y]];
      int source = vSource[y];
      int shared = source >= 0 ? vBuffer[source] : -1;
      bool alias = false;
      if (value.rule == BufferRule::View) {
        alias = shared >= 0;
        if (!alias)
          continue;
      } else if (value.rule == BufferRule::InPlace) {
        alias = shared >= 0 && bLast[shared] <= vExec[y];
      }
      if (alias) {
        vBuffer[y] = shared;
        bLast[shared] = std::max(bLast[shared], vLast[y]);
        continue;
      }
      if (value.bytes == 0)
        continue;
      vBuffer[y] = static_cast<int>(bBytes.size());
      bBytes.push_back(value.bytes);
      bDef.push_back(vExec[y]);
      bLast.push_back(vLast[y]);
    }
    delta.assign(end + 1, 0);
    for (size_t b = 0; b < bBytes.size(); ++b) {
      delta[bDef[b]] += bBytes[b];
      delta[std::min(bLast[b], end - 1) + 1] -= bBytes[b];
    }
    int64_t live = 0;
    if (detail)
      liveAt.resize(end);
    for (size_t i = 0; i < end; ++i) {
      live += delta[i];
      if (detail)
        liveAt[i] = live;
      if (live > out.peak) {
        out.peak = live;
        out.peakIndex = i;
      }
      if (live > budget)
        out.area += static_cast<double>(live - budget);
    }
    if (detail)
      buildDetail();
    return out;
  }

  // Details of the last detailed run.
  std::vector<int> vValue, vSource, vBuffer;
  std::vector<size_t> vExec, vLast;
  std::vector<int64_t> bBytes, liveAt;
  std::vector<size_t> bDef, bLast;
  /// Reads of each version, sorted by execution (CSR).
  std::vector<size_t> readStart, readExec;
  /// Versions of each value in execution order (CSR), and the versions of
  /// each buffer.
  std::vector<size_t> valueStart;
  std::vector<int> valueVersions;
  std::vector<size_t> bufferStart;
  std::vector<int> bufferVersions;
  int64_t evaluations = 0;

  /// The latest version of `value` defined before execution `q`, or -1.
  int versionBefore(int value, size_t q) const {
    size_t lo = valueStart[value], hi = valueStart[value + 1];
    int found = -1;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (vExec[valueVersions[mid]] < q) {
        found = valueVersions[mid];
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return found;
  }

  /// The first read of version `y` after execution `e`, or SIZE_MAX.
  size_t nextRead(int y, size_t e) const {
    auto first = readExec.begin() + readStart[y];
    auto last = readExec.begin() + readStart[y + 1];
    auto it = std::upper_bound(first, last, e);
    return it == last ? std::numeric_limits<size_t>::max() : *it;
  }

  bool readAt(int y, size_t e) const {
    auto first = readExec.begin() + readStart[y];
    auto last = readExec.begin() + readStart[y + 1];
    return std::binary_search(first, last, e);
  }

private:
  void buildDetail() {
    const size_t numVersions = vValue.size();
    readStart.assign(numVersions + 1, 0);
    for (const auto &pair : readPairs)
      ++readStart[pair.first + 1];
    for (size_t y = 0; y < numVersions; ++y)
      readStart[y + 1] += readStart[y];
    readExec.resize(readPairs.size());
    cursor.assign(readStart.begin(), readStart.end() - 1);
    for (const auto &pair : readPairs) // reads are recorded in execution order
      readExec[cursor[pair.first]++] = pair.second;

    valueStart.assign(problem.numValues() + 1, 0);
    for (int v : vValue)
      ++valueStart[v + 1];
    for (int v = 0; v < problem.numValues(); ++v)
      valueStart[v + 1] += valueStart[v];
    valueVersions.resize(numVersions);
    cursor.assign(valueStart.begin(), valueStart.end() - 1);
    for (size_t y = 0; y < numVersions; ++y)
      valueVersions[cursor[vValue[y]]++] = static_cast<int>(y);

    bufferStart.assign(bBytes.size() + 1, 0);
    for (int b : vBuffer)
      if (b >= 0)
        ++bufferStart[b + 1];
    for (size_t b = 0; b < bBytes.size(); ++b)
      bufferStart[b + 1] += bufferStart[b];
    bufferVersions.resize(bufferStart.back());
    cursor.assign(bufferStart.begin(), bufferStart.end() - 1);
    for (size_t y = 0; y < numVersions; ++y)
      if (vBuffer[y] >= 0)
        bufferVersions[cursor[vBuffer[y]]++] = static_cast<int>(y);
  }

  const Problem &problem;
  std::vector<int> latest;
  std::vector<std::pair<int, size_t>> readPairs;
  std::vector<int64_t> delta;
  std::vector<size_t> cursor;
};

/// Better = lower peak within the budget test, then lower cost.
bool better(const Simulator::Light &a, const Simulator::Light &b,
            int64_t budget) {
  bool fitA = a.peak <= budget, fitB = b.peak <= budget;
  if (fitA != fitB)
    return fitA;
  if (fitA)
    return a.cost < b.cost || (a.cost == b.cost && a.peak < b.peak);
  return a.peak < b.peak || (a.peak == b.peak && a.cost < b.cost);
}

/// One greedy move: recompute `ops` (in this order) at position `index` of
/// `rec[stage]` (its size: right before the stage's first execution).
struct Move {
  int stage = 0;
  size_t index = 0;
  std::vector<int> ops;
  double cost = 0;
  double estimate = 0; ///< estimated bytes saved at the peak
};

/// The greedy engine over a staged schedule.
class Greedy {
public:
  Greedy(const Problem &problem, const SearchOptions &options)
      : problem(problem), options(options), sim(problem) {}

  /// Fits `staged` into `budget`; returns the best schedule reached.
  Staged fit(Staged staged, int64_t budget) {
    Schedule flat;
    std::vector<int> stageOf;
    std::vector<size_t> stageStart;
    flatten(staged, flat, &stageOf, &stageStart);
    Simulator::Light current = sim.run(flat, budget, /*detail=*/true);
    if (!current.valid)
      return staged;
    Staged best = staged;
    Simulator::Light bestScore = current;
    Schedule trial;
    while (current.peak > budget &&
           sim.evaluations < options.maxEvaluations) {
      std::vector<Move> moves =
          candidates(staged, stageOf, stageStart, current.peakIndex);
      if (moves.empty())
        break;
      // Rank by estimated cost per byte saved; evaluate the best few.
      std::stable_sort(moves.begin(), moves.end(),
                       [](const Move &a, const Move &b) {
                         return a.cost * b.estimate < b.cost * a.estimate;
                       });
      if (static_cast<int>(moves.size()) > options.candidates)
        moves.resize(options.candidates);
      int chosen = -1;
      bool chosenLowersPeak = false;
      double chosenRatio = 0;
      Simulator::Light chosenScore;
      for (size_t i = 0; i < moves.size(); ++i) {
        Staged next = apply(staged, moves[i]);
        flatten(next, trial);
        Simulator::Light score = sim.run(trial, budget, /*detail=*/false);
        if (!score.valid)
          continue;
        double extra = score.cost - current.cost;
        bool lowersPeak = score.peak < current.peak;
        double ratio;
        if (lowersPeak) {
          ratio = extra / static_cast<double>(current.peak - score.peak);
        } else if (score.peak == current.peak && score.area < current.area) {
          ratio = extra / (current.area - score.area);
        } else {
          continue;
        }
        if (chosen < 0 || (lowersPeak && !chosenLowersPeak) ||
            (lowersPeak == chosenLowersPeak && ratio < chosenRatio)) {
          chosen = static_cast<int>(i);
          chosenLowersPeak = lowersPeak;
          chosenRatio = ratio;
          chosenScore = score;
        }
      }
      if (chosen < 0)
        break;
      staged = apply(staged, moves[chosen]);
      flatten(staged, flat, &stageOf, &stageStart);
      current = sim.run(flat, budget, /*detail=*/true);
      if (better(current, bestScore, budget)) {
        best = staged;
        bestScore = current;
      }
    }
    return best;
  }

  int64_t evaluations() const { return sim.evaluations; }
  Simulator &simulator() { return sim; }

private:
  Staged apply(const Staged &staged, const Move &move) const {
    Staged next = staged;
    std::vector<int> &list = next.rec[move.stage];
    if (options.sortedInsertion) {
      for (int op : move.ops)
        list.insert(std::lower_bound(list.begin(), list.end(), op), op);
      return next;
    }
    list.insert(list.begin() + move.index, move.ops.begin(), move.ops.end());
    return next;
  }

  /// Candidate moves at execution `tau` of the last detailed run.
  std::vector<Move> candidates(const Staged &staged,
                               const std::vector<int> &stageOf,
                               const std::vector<size_t> &stageStart,
                               size_t tau) {
    std::vector<Move> moves;
    const size_t numBuffers = sim.bBytes.size();
    for (size_t b = 0; b < numBuffers; ++b) {
      if (!(sim.bDef[b] < tau && sim.bLast[b] > tau))
        continue;
      // The versions of the buffer read after tau; none read at tau.
      bool readNow = false;
      size_t firstRead = std::numeric_limits<size_t>::max();
      std::vector<int> producers;
      bool recomputable = true;
      for (size_t i = sim.bufferStart[b]; i < sim.bufferStart[b + 1]; ++i) {
        int y = sim.bufferVersions[i];
        if (sim.readAt(y, tau)) {
          readNow = true;
          break;
        }
        size_t next = sim.nextRead(y, tau);
        if (next == std::numeric_limits<size_t>::max() &&
            sim.vLast[y] <= tau)
          continue; // dead before tau
        if (next == std::numeric_limits<size_t>::max()) {
          // Live to the end (returned) without a read: cannot drop it.
          recomputable = false;
          break;
        }
        firstRead = std::min(firstRead, next);
        int producer = problem.values[sim.vValue[y]].producer;
        if (!problem.ops[producer].recomputable) {
          recomputable = false;
          break;
        }
        producers.push_back(producer);
      }
      if (readNow || !recomputable || producers.empty())
        continue;
      // Recompute right before that read (or, in sorted mode, among the
      // stage's recomputations in op order).
      int stage = stageOf[firstRead];
      size_t q = firstRead;
      size_t index = q - stageStart[stage];
      if (options.sortedInsertion) {
        const std::vector<int> &list = staged.rec[stage];
        if (!std::is_sorted(list.begin(), list.end()))
          continue;
        bool present = false;
        for (int p : producers)
          if (std::binary_search(list.begin(), list.end(), p))
            present = true;
        if (present)
          continue;
        index = std::lower_bound(list.begin(), list.end(), producers[0]) -
                list.begin();
        q = stageStart[stage] + index;
        if (q <= tau)
          continue;
      }
      size_t firstVariant = moves.size();
      for (int variant = 0; variant < 3; ++variant) {
        Move move;
        move.stage = stage;
        move.index = index;
        if (!closure(producers, q, tau, variant, move))
          continue;
        move.estimate += static_cast<double>(sim.bBytes[b]);
        if (move.estimate <= 0)
          continue;
        bool same = false;
        for (size_t i = firstVariant; i < moves.size(); ++i)
          if (moves[i].ops == move.ops)
            same = true;
        if (!same)
          moves.push_back(std::move(move));
      }
    }
    return moves;
  }

  /// The ops to recompute at position `q` for `producers`: variant 0 keeps
  /// every value they read longer; 1 also recomputes the values they read
  /// that are dead at q, recursively; 2 does so one level deep. Constant-
  /// like ops are always recomputed. Sets move.ops, move.cost and the bytes
  /// kept longer across tau (negative estimate). False when impossible.
  bool closure(const std::vector<int> &producers, size_t q, size_t tau,
               int variant, Move &move) {
    ++stamp;
    if (opMark.size() != static_cast<size_t>(problem.numOps()))
      opMark.assign(problem.numOps(), 0);
    if (bufferMark.size() < sim.bBytes.size())
      bufferMark.resize(sim.bBytes.size(), 0);
    std::vector<int> needed(producers);
    for (int p : producers)
      opMark[p] = stamp;
    stack.clear();
    for (int p : producers)
      stack.push_back({p, 0});
    while (!stack.empty()) {
      auto [op, depth] = stack.back();
      stack.pop_back();
      for (int r : problem.ops[op].reads) {
        int producer = problem.values[r].producer;
        if (producer < 0 || opMark[producer] == stamp)
          continue;
        int x = sim.versionBefore(r, q);
        if (x < 0)
          return false; // not computed before q in this order
        bool alive = sim.vLast[x] >= q;
        const Op &def = problem.ops[producer];
        bool recompute =
            def.recomputable &&
            (def.constant ||
             (!alive && (variant == 1 || (variant == 2 && depth == 0))));
        if (recompute) {
          opMark[producer] = stamp;
          needed.push_back(producer);
          stack.push_back({producer, depth + 1});
          continue;
        }
        if (!alive && sim.vLast[x] < tau) {
          int buffer = sim.vBuffer[x];
          if (buffer >= 0 && bufferMark[buffer] != stamp) {
            bufferMark[buffer] = stamp;
            move.estimate -= static_cast<double>(sim.bBytes[buffer]);
          }
        }
      }
    }
    std::sort(needed.begin(), needed.end()); // a topological order
    move.ops = std::move(needed);
    for (int op : move.ops)
      move.cost += problem.ops[op].cost;
    return true;
  }

  const Problem &problem;
  SearchOptions options;
  Simulator sim;
  int stamp = 0;
  std::vector<int> opMark, bufferMark;
  std::vector<std::pair<int, int>> stack;
};

/// The recomputations of `staged` as (stage, op), the most expensive first.
std::vector<std::pair<int, int>> recomputations(const Problem &problem,
                                                const Staged &staged) {
  std::vector<std::pair<int, int>> recs;
  for (size_t t = 0; t < staged.rec.size(); ++t)
    for (int op : staged.rec[t])
      recs.push_back({static_cast<int>(t), op});
  std::stable_sort(recs.begin(), recs.end(), [&](const auto &a, const auto &b) {
    return problem.ops[a.second].cost > problem.ops[b.second].cost;
  });
  return recs;
}

/// Removes recomputations (most expensive first) while `budget` holds.
Staged drop(const Problem &problem, Staged staged, int64_t budget,
            Simulator &sim, int64_t maxEvaluations) {
  Schedule flat;
  flatten(staged, flat);
  Simulator::Light current = sim.run(flat, budget, false);
  if (!current.valid || current.peak > budget)
    return staged;
  bool changed = true;
  while (changed && sim.evaluations < maxEvaluations) {
    changed = false;
    for (const auto &[stage, op] : recomputations(problem, staged)) {
      if (sim.evaluations >= maxEvaluations)
        break;
      std::vector<int> &list = staged.rec[stage];
      auto it = std::find(list.begin(), list.end(), op);
      if (it == list.end())
        continue; // pruned meanwhile
      Staged next = staged;
      std::vector<int> &nextList = next.rec[stage];
      nextList.erase(nextList.begin() + (it - list.begin()));
      flatten(next, flat);
      flat = prune(problem, flat);
      Simulator::Light score = sim.run(flat, budget, false);
      if (score.valid && score.peak <= budget && score.cost <= current.cost) {
        staged = toStaged(problem, flat);
        current = score;
        changed = true;
      }
    }
  }
  return staged;
}

} // namespace

Schedule ckpt::sched::fitBudget(const Problem &problem, const Schedule &start,
                                int64_t budget, const SearchOptions &options) {
  Greedy greedy(problem, options);
  Staged staged = greedy.fit(toStaged(problem, start), budget);
  Schedule out;
  flatten(staged, out);
  return prune(problem, out);
}

Schedule ckpt::sched::dropRecomputations(const Problem &problem,
                                         const Schedule &schedule,
                                         int64_t budget,
                                         const SearchOptions &options) {
  Simulator sim(problem);
  Staged staged =
      drop(problem, toStaged(problem, schedule), budget, sim,
           options.maxEvaluations);
  Schedule out;
  flatten(staged, out);
  return out;
}

Schedule ckpt::sched::improve(const Problem &problem,
                              const Schedule &schedule, int64_t budget,
                              const SearchOptions &options) {
  Simulator sim(problem);
  Staged staged = drop(problem, toStaged(problem, schedule), budget, sim,
                       options.maxEvaluations);
  Schedule flat;
  flatten(staged, flat);
  Simulator::Light current = sim.run(flat, budget, false);
  if (!current.valid || current.peak > budget)
    return flat;
  int64_t spent = sim.evaluations;
  for (int round = 0; round < options.rounds; ++round) {
    bool changed = false;
    for (const auto &[stage, op] : recomputations(problem, staged)) {
      if (spent >= options.maxEvaluations)
        break;
      std::vector<int> &list = staged.rec[stage];
      auto it = std::find(list.begin(), list.end(), op);
      if (it == list.end())
        continue;
      Staged ruined = staged;
      ruined.rec[stage].erase(ruined.rec[stage].begin() + (it - list.begin()));
      flatten(ruined, flat);
      flat = prune(problem, flat);
      SearchOptions inner = options;
      inner.maxEvaluations = options.maxEvaluations - spent;
      Greedy greedy(problem, inner);
      Staged refit = greedy.fit(toStaged(problem, flat), budget);
      spent += greedy.evaluations();
      Simulator check(problem);
      refit = drop(problem, refit, budget, check,
                   options.maxEvaluations - spent);
      spent += check.evaluations;
      flatten(refit, flat);
      Simulator::Light score = check.run(flat, budget, false);
      if (score.valid && score.peak <= budget && score.cost < current.cost) {
        staged = refit;
        current = score;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  flatten(staged, flat);
  return flat;
}

Schedule ckpt::sched::leastPeak(const Problem &problem, const Schedule &start,
                                const SearchOptions &options) {
  return fitBudget(problem, start, 0, options);
}
