//===- Remat.cpp - op-level rematerialization planners --------------------===//
//
// The searches work on flat schedules. A schedule's *stages* are its first
// executions: stage t is the t-th first execution and the recomputations
// that run right before it; recomputations after the last first execution
// form a trailing stage.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Remat.h"
#include "Helper.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"
#include "ckpt/Solver/Schedule/Repeats.h"
#include "ckpt/Solver/Support/SplitMix64.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

using namespace ckpt::sched;
using Simulator = ckpt::sched::MemorySimulator;
using Detail = ckpt::sched::MemorySimulator::Detail;

//===----------------------------------------------------------------------===//
// Stages of a schedule
//===----------------------------------------------------------------------===//

namespace {

/// Where the stages of a flat schedule are.
struct Stages {
  std::vector<int> stageOf;  ///< per execution
  std::vector<size_t> start; ///< per stage: its first execution
  std::vector<size_t> base;  ///< per stage: its first execution's index
                             ///< (the schedule's size for the trailing one)
  std::vector<char> first;   ///< per execution: an op's first execution

  void build(const Problem &problem, const Schedule &schedule) {
    stageOf.assign(schedule.size(), 0);
    first.assign(schedule.size(), 0);
    start.clear();
    base.clear();
    seen.assign(problem.numOps(), 0);
    start.push_back(0);
    int stage = 0;
    for (size_t e = 0; e < schedule.size(); ++e) {
      stageOf[e] = stage;
      if (!seen[schedule[e]]) {
        seen[schedule[e]] = 1;
        first[e] = 1;
        base.push_back(e);
        start.push_back(e + 1);
        ++stage;
      }
    }
    base.push_back(schedule.size()); // the trailing stage
  }

private:
  std::vector<char> seen;
};

} // namespace

//===----------------------------------------------------------------------===//
// The greedy: one move at a time until the budget holds
//===----------------------------------------------------------------------===//

namespace {

/// Better = lower peak within the budget test, then lower cost.
bool better(const Simulator::Score &a, const Simulator::Score &b,
            int64_t budget) {
  bool fitA = a.peak <= budget, fitB = b.peak <= budget;
  if (fitA != fitB)
    return fitA;
  if (fitA)
    return a.cost < b.cost || (a.cost == b.cost && a.peak < b.peak);
  return a.peak < b.peak || (a.peak == b.peak && a.cost < b.cost);
}

/// One greedy move: run `ops` (in this order) before execution `position`
/// (in sorted mode: each among its stage's recomputations in op order).
struct Move {
  size_t position = 0;
  int stage = 0;
  std::vector<int> ops;
  double cost = 0;
  double estimate = 0; ///< estimated bytes saved at the peak
  size_t key = 0;      ///< generation order: 3 * buffer + variant
  int value = -1;      ///< with SearchOptions::repeats: the value of the
                       ///< buffer's version live across the peak (whose
                       ///< equivalents Repeats::images gives)
};

/// A simulator with a helper thread, for trials run beside the caller's on
/// the same problem. What its runs spend between `start` and `credit` is
/// counted on the caller's simulator as if the caller had run them: the
/// searches check their limits only between trials.
class Beside {
public:
  Beside(const Problem &problem, llvm::ThreadPoolInterface *threads)
      : sim(problem, &work), thread(threads) {}

  /// Runs `job` (trials on `sim` and `trial`) on the helper thread.
  void start(std::function<void()> job) {
    work.left = kUnlimited;
    evaluationsAtStart = sim.evaluations;
    thread.start(std::move(job));
  }
  /// Waits for the job to finish.
  void wait() { thread.wait(); }
  /// Counts the job's runs (evaluations, work) on `to`.
  void credit(Simulator &to) const {
    to.evaluations += sim.evaluations - evaluationsAtStart;
    if (Work *shared = to.sharedWork())
      shared->left -= kUnlimited - work.left;
  }

  Simulator sim;
  Schedule trial;

private:
  static constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();
  Work work;
  int64_t evaluationsAtStart = 0;
  Helper thread; // last: finishes its job before the rest goes
};

/// The greedy engine.
class Greedy {
public:
  Greedy(const Problem &problem, const SearchOptions &options)
      : problem(problem), options(options), sim(problem, options.work),
        rng{options.seed} {
    // The op graph flat, for the closures' walks.
    const int numOps = problem.numOps();
    readStart.assign(numOps + 1, 0);
    for (int op = 0; op < numOps; ++op)
      readStart[op + 1] =
          readStart[op] + static_cast<int>(problem.ops[op].reads.size());
    readValue.reserve(readStart.back());
    for (const Op &op : problem.ops)
      readValue.insert(readValue.end(), op.reads.begin(), op.reads.end());
    producerOf.resize(problem.numValues());
    for (int v = 0; v < problem.numValues(); ++v)
      producerOf[v] = problem.values[v].producer;
    opCost.resize(numOps);
    opFlags.resize(numOps);
    for (int op = 0; op < numOps; ++op) {
      opCost[op] = problem.ops[op].cost;
      opFlags[op] = (problem.ops[op].recomputable ? kRecomputable : 0) |
                    (problem.ops[op].constant ? kConstant : 0);
    }
  }

  /// Fits `schedule` into `budget`; returns the best schedule reached.
  Schedule fit(Schedule schedule, int64_t budget) {
    stages.build(problem, schedule);
    Simulator::Score current = sim.run(schedule, budget, Detail::Full);
    if (!current.valid)
      return schedule;
    Schedule best = schedule;
    Simulator::Score bestScore = current;
    Schedule trial;
    while (current.peak > budget && !sim.exhausted(options.maxEvaluations)) {
      // Bytes saved beyond the excess over the budget are worth nothing: a
      // move that saves what is missing ranks by its cost alone, so a large
      // cheap-per-byte move does not win over a small cheaper one that
      // suffices.
      if (options.capExcess)
        excess = static_cast<double>(current.peak - budget);
      std::vector<Move> moves = candidates(schedule, current.peakIndex);
      if (moves.empty())
        break;
      // Rank by estimated cost per byte saved; evaluate the best few.
      std::sort(moves.begin(), moves.end(), [&](const Move &a, const Move &b) {
        double l = a.cost * worth(b.estimate), r = b.cost * worth(a.estimate);
        return l < r || (l == r && a.key < b.key);
      });
      if (static_cast<int>(moves.size()) > options.candidates)
        moves.resize(options.candidates);
      int chosen = -1;
      // Moves that lower the peak come first. Among them, recomputing a
      // returned value last ranks after the others when it leaves more over
      // the budget in all (the area): the free move that recomputes a
      // 16 B loss value at the end lowers the peak by 16 B but keeps what
      // the loss reads alive to the end, and would otherwise win over any
      // move that costs something (test/Transforms/plan-returned-value.test).
      int chosenClass = 0;
      double chosenRatio = 0;
      // With a seed, the ratios are scaled by random factors in [1, 2): a
      // different greedy path per seed (the floor search's restarts).
      evaluate(schedule, moves, budget, trial);
      for (size_t i = 0; i < moves.size(); ++i) {
        const Simulator::Score &score = scores[i];
        if (!score.valid)
          continue;
        double extra = score.cost - current.cost;
        bool lowersPeak = score.peak < current.peak;
        bool lastAndWider =
            moves[i].position >= schedule.size() && score.area > current.area;
        int moveClass = !lowersPeak ? 0 : lastAndWider ? 1 : 2;
        double ratio;
        if (lowersPeak) {
          ratio = extra / worth(static_cast<double>(current.peak - score.peak));
        } else if (score.peak == current.peak && score.area < current.area) {
          ratio = extra / (current.area - score.area);
        } else {
          continue;
        }
        if (options.seed)
          ratio *= 1.0 + rng.uniform();
        if (chosen < 0 || moveClass > chosenClass ||
            (moveClass == chosenClass && ratio < chosenRatio)) {
          chosen = static_cast<int>(i);
          chosenClass = moveClass;
          chosenRatio = ratio;
        }
      }
      if (chosen < 0)
        break;
      if (!(chosenClass == 2 &&
            batch(schedule, moves[chosen], current, scores[chosen], chosenRatio,
                  budget, trial)))
        apply(schedule, moves[chosen], trial);
      schedule.swap(trial);
      stages.build(problem, schedule);
      current = sim.run(schedule, budget, Detail::Full);
      if (better(current, bestScore, budget)) {
        best = schedule;
        bestScore = current;
      }
    }
    return best;
  }

  int64_t evaluations() const { return sim.evaluations; }

  /// Starts a new count of evaluations, limited to `maxEvaluations` (the
  /// flat op graph and the buffers are kept for the next fit).
  void restart(int64_t maxEvaluations) {
    options.maxEvaluations = maxEvaluations;
    sim.evaluations = 0;
  }

private:
  /// scores[i] = the run of `schedule` with moves[i] applied. With
  /// options.parallel, a helper thread runs every other move on its own
  /// simulator, and its runs are counted here as if this one ran them (the
  /// searches check their limits only between steps).
  void evaluate(const Schedule &schedule, const std::vector<Move> &moves,
                int64_t budget, Schedule &trial) {
    scores.resize(moves.size());
    const bool split = options.parallel && moves.size() > 1;
    if (split) {
      if (!beside)
        beside.emplace(problem, options.threads);
      beside->start([&] {
        for (size_t i = 1; i < moves.size(); i += 2) {
          apply(schedule, moves[i], beside->trial);
          scores[i] = beside->sim.run(beside->trial, budget, Detail::None);
        }
      });
    }
    for (size_t i = 0; i < moves.size(); i += split ? 2 : 1) {
      apply(schedule, moves[i], trial);
      scores[i] = sim.run(trial, budget, Detail::None);
    }
    if (split) {
      beside->wait();
      beside->credit(sim);
    }
  }

  /// With options.repeats: `move` (which lowers the peak of `schedule`,
  /// scored `alone`, at `ratio`) with its equivalents in the other blocks
  /// of its run, built at the same peak execution as candidates() builds
  /// moves, as many as the excess over the budget needs when each saves what
  /// the move saves: written to `out` when they lower the peak at a cost per
  /// byte of at most `ratio`. False (and `out` unspecified) otherwise.
  bool batch(const Schedule &schedule, const Move &move,
             const Simulator::Score &current, const Simulator::Score &alone,
             double ratio, int64_t budget, Schedule &out) {
    if (!options.repeats || options.sortedInsertion || options.seed ||
        move.value < 0 || alone.peak >= current.peak)
      return false;
    int64_t saved = current.peak - alone.peak;
    int64_t wanted = (current.peak - budget) / saved - 1;
    if (wanted < 1)
      return false;
    std::vector<int> images = options.repeats->images(problem, move.value);
    if (images.empty())
      return false;
    // The candidates' runs replaced the tables of the schedule's run.
    Simulator::Score again = sim.run(schedule, budget, Detail::Full);
    if (!again.valid)
      return false;
    const size_t tau = again.peakIndex;
    const int variant = static_cast<int>(move.key % 3);
    std::vector<Move> moves{move};
    for (int value : images) {
      if (static_cast<int64_t>(moves.size()) > wanted)
        break;
      int buffer = liveBuffer(value, tau);
      if (buffer < 0)
        continue;
      std::optional<Pending> p = pendingFor(schedule, buffer, tau);
      if (!p)
        continue;
      std::vector<Move> built;
      addMove(p->producers, p->position, tau, variant, p->buffer, p->stage, 0,
              std::numeric_limits<double>::infinity(), built);
      // An equivalent that costs more per byte (its block reads other
      // values, or they are not alive there) is left to a later step.
      if (!built.empty() && built.front().cost * move.estimate <=
                                move.cost * built.front().estimate * (1 + 1e-9))
        moves.push_back(std::move(built.front()));
    }
    if (moves.size() < 2)
      return false;
    // Insert from the last position back, so the others stay in place.
    std::stable_sort(
        moves.begin(), moves.end(),
        [](const Move &a, const Move &b) { return a.position > b.position; });
    out = schedule;
    for (const Move &m : moves)
      out.insert(out.begin() + m.position, m.ops.begin(), m.ops.end());
    Simulator::Score score = sim.run(out, budget, Detail::None);
    if (!score.valid || score.peak >= current.peak)
      return false;
    double extra = score.cost - current.cost;
    if (extra / worth(static_cast<double>(current.peak - score.peak)) >
        ratio * (1 + 1e-9))
      return false;
    if (options.imagesApplied)
      *options.imagesApplied += static_cast<int64_t>(moves.size()) - 1;
    return true;
  }

  /// The buffer of the version of `value` live across execution `tau` of
  /// the last detailed run, or -1.
  int liveBuffer(int value, size_t tau) const {
    for (size_t i = sim.valueStart[value]; i < sim.valueStart[value + 1]; ++i) {
      int version = sim.valueVersions[i];
      if (sim.versionExec[version] < tau && sim.versionLast[version] > tau)
        return sim.versionBuffer[version];
    }
    return -1;
  }

  void apply(const Schedule &schedule, const Move &move, Schedule &out) const {
    out = schedule;
    if (!options.sortedInsertion) {
      out.insert(out.begin() + move.position, move.ops.begin(), move.ops.end());
      return;
    }
    size_t from = stages.start[move.stage];
    size_t to = stages.base[move.stage];
    for (int op : move.ops) {
      auto at = std::lower_bound(out.begin() + from, out.begin() + to, op);
      out.insert(at, op);
      ++to;
    }
  }

  /// A buffer live across execution `tau` of the last detailed run and not
  /// read there, with the recomputable producers of the versions read after
  /// tau, and where to recompute them.
  struct Pending {
    size_t buffer;
    int stage;
    size_t position;
    std::vector<int> producers;
    size_t firstMove, endMove;
  };

  /// The Pending of `buffer` at `tau`, if it can be recomputed there.
  std::optional<Pending> pendingFor(const Schedule &schedule, size_t buffer,
                                    size_t tau) const {
    const size_t end = schedule.size();
    if (!(sim.bufferDef[buffer] < tau && sim.bufferLast[buffer] > tau))
      return std::nullopt;
    // The versions of the buffer read after tau; none read at tau.
    size_t firstRead = std::numeric_limits<size_t>::max();
    std::vector<int> producers;
    for (size_t i = sim.bufferStart[buffer]; i < sim.bufferStart[buffer + 1];
         ++i) {
      int version = sim.bufferVersions[i];
      if (sim.readAt(version, tau))
        return std::nullopt;
      size_t next = sim.nextRead(version, tau);
      if (next == std::numeric_limits<size_t>::max() &&
          sim.versionLast[version] <= tau)
        continue; // dead before tau
      if (next == std::numeric_limits<size_t>::max())
        next = end; // returned: the end reads it (recompute it last)
      firstRead = std::min(firstRead, next);
      int producer = producerOf[sim.versionValue[version]];
      if (!(opFlags[producer] & kRecomputable))
        return std::nullopt;
      producers.push_back(producer);
    }
    if (producers.empty())
      return std::nullopt;
    // Recompute right before that read (or, in sorted mode, among the
    // stage's recomputations in op order); for the end, last of all.
    int stage = firstRead == end ? static_cast<int>(stages.base.size()) - 1
                                 : stages.stageOf[firstRead];
    size_t position = firstRead;
    std::sort(producers.begin(), producers.end());
    producers.erase(std::unique(producers.begin(), producers.end()),
                    producers.end());
    if (options.sortedInsertion) {
      auto from = schedule.begin() + stages.start[stage];
      auto to = schedule.begin() + stages.base[stage];
      if (!std::is_sorted(from, to))
        return std::nullopt;
      for (int p : producers)
        if (std::binary_search(from, to, p))
          return std::nullopt;
      position = std::lower_bound(from, to, producers[0]) - schedule.begin();
      if (position <= tau)
        return std::nullopt;
    }
    return Pending{buffer, stage, position, std::move(producers), 0, 0};
  }

  /// Candidate moves at execution `tau` of the last detailed run: per
  /// buffer live across tau and not read there, the recomputation of its
  /// producers before its next read, in three variants (see closure()).
  /// Only the best `options.candidates` by cost per byte are evaluated, so
  /// the unbounded variant 1 is built last and abandoned as soon as its
  /// cost shows it cannot be among them (the ranking is unchanged).
  std::vector<Move> candidates(const Schedule &schedule, size_t tau) {
    std::vector<Move> moves;
    std::vector<Pending> pending;
    const size_t numBuffers = sim.bufferBytes.size();
    for (size_t buffer = 0; buffer < numBuffers; ++buffer) {
      std::optional<Pending> found = pendingFor(schedule, buffer, tau);
      if (!found)
        continue;
      Pending p = std::move(*found);
      p.firstMove = moves.size();
      for (int variant : {0, 2})
        addMove(p.producers, p.position, tau, variant, buffer, p.stage,
                p.firstMove, std::numeric_limits<double>::infinity(), moves);
      if (options.recomputeAfterPeak && !options.sortedInsertion &&
          p.position > tau + 1) {
        const size_t before = moves.size();
        for (int variant : {0, 2})
          addMove(p.producers, tau + 1, tau, variant, buffer,
                  stages.stageOf[tau + 1], p.firstMove,
                  std::numeric_limits<double>::infinity(), moves);
        // Keys after every buffer's own (the same variant modulo 3).
        for (size_t i = before; i < moves.size(); ++i)
          moves[i].key += 3 * numBuffers;
      }
      p.endMove = moves.size();
      pending.push_back(std::move(p));
    }
    // The ratio the K-th best move reaches so far bounds variant 1.
    const size_t numEvaluated =
        static_cast<size_t>(std::max(options.candidates, 1));
    std::vector<double> best; // max-heap of the numEvaluated best ratios
    auto record = [&](const Move &m) {
      double ratio = m.cost / worth(m.estimate);
      if (best.size() < numEvaluated) {
        best.push_back(ratio);
        std::push_heap(best.begin(), best.end());
      } else if (ratio < best.front()) {
        std::pop_heap(best.begin(), best.end());
        best.back() = ratio;
        std::push_heap(best.begin(), best.end());
      }
    };
    for (const Move &m : moves)
      record(m);
    for (const Pending &p : pending) {
      double bound =
          best.size() < numEvaluated
              ? std::numeric_limits<double>::infinity()
              : best.front() * (1 + 1e-9) *
                    worth(static_cast<double>(sim.bufferBytes[p.buffer]));
      size_t before = moves.size();
      addMove(p.producers, p.position, tau, 1, p.buffer, p.stage, p.firstMove,
              bound, moves, p.endMove);
      if (moves.size() > before)
        record(moves.back());
    }
    return moves;
  }

  /// Builds variant `variant` for `buffer` and appends it to `moves`
  /// unless it is impossible, saves nothing, costs more than `bound`, or
  /// repeats a move of the same buffer (moves[firstMove, endMove) and the
  /// moves appended after `endMove` when given).
  void addMove(const std::vector<int> &producers, size_t position, size_t tau,
               int variant, size_t buffer, int stage, size_t firstMove,
               double bound, std::vector<Move> &moves,
               size_t endMove = std::numeric_limits<size_t>::max()) {
    Move move;
    move.stage = stage;
    move.position = position;
    move.key = 3 * buffer + variant;
    if (!closure(producers, position, tau, variant, bound, move))
      return;
    move.estimate += static_cast<double>(sim.bufferBytes[buffer]);
    if (move.estimate <= 0)
      return;
    // The value whose equivalents batch() looks up (only with blocks).
    for (size_t i = sim.bufferStart[buffer];
         options.repeats && i < sim.bufferStart[buffer + 1]; ++i)
      if (sim.versionLast[sim.bufferVersions[i]] > tau) {
        move.value = sim.versionValue[sim.bufferVersions[i]];
        break;
      }
    size_t last = std::min(endMove, moves.size());
    for (size_t i = firstMove; i < last; ++i)
      if (moves[i].ops == move.ops && moves[i].position == move.position) {
        // The same move: it keeps the earlier variant's place.
        moves[i].key = std::min(moves[i].key, move.key);
        return;
      }
    moves.push_back(std::move(move));
  }

  /// The ops to recompute before execution `position` for `producers`:
  /// variant 0 keeps every value they read longer; 1 also recomputes the
  /// values they read that are dead there, recursively; 2 does so one level
  /// deep. Constant-
  /// like ops are always recomputed. Sets move.ops, move.cost and the bytes
  /// kept longer across tau (negative estimate). False when impossible or
  /// when the cost exceeds `bound`.
  bool closure(const std::vector<int> &producers, size_t position, size_t tau,
               int variant, double bound, Move &move) {
    ++stamp;
    if (opMark.size() != static_cast<size_t>(problem.numOps()))
      opMark.assign(problem.numOps(), 0);
    if (bufferMark.size() < sim.bufferBytes.size())
      bufferMark.resize(sim.bufferBytes.size(), 0);
    std::vector<int> needed(producers);
    double cost = 0;
    for (int p : producers) {
      opMark[p] = stamp;
      cost += opCost[p];
    }
    stack.clear();
    for (int p : producers)
      stack.push_back({p, 0});
    while (!stack.empty()) {
      auto [op, depth] = stack.back();
      stack.pop_back();
      for (int i = readStart[op]; i < readStart[op + 1]; ++i) {
        int value = readValue[i];
        int producer = producerOf[value];
        if (producer < 0 || opMark[producer] == stamp)
          continue;
        int version = sim.versionBefore(value, position);
        if (version < 0)
          return false; // not computed before `position` in this order
        // Right after the peak, what the peak's execution reads is alive
        // (keeping it one execution longer adds nothing at the peak).
        bool alive = sim.versionLast[version] >= position ||
                     (options.recomputeAfterPeak && position == tau + 1 &&
                      sim.versionLast[version] == tau);
        int flags = opFlags[producer];
        bool recompute =
            (flags & kRecomputable) &&
            ((flags & kConstant) ||
             (!alive && (variant == 1 || (variant == 2 && depth == 0))));
        if (recompute) {
          opMark[producer] = stamp;
          needed.push_back(producer);
          cost += opCost[producer];
          if (cost > bound)
            return false; // cannot rank among the evaluated moves
          stack.push_back({producer, depth + 1});
          continue;
        }
        if (!alive && sim.versionLast[version] < tau) {
          int buffer = sim.versionBuffer[version];
          if (buffer >= 0 && bufferMark[buffer] != stamp) {
            bufferMark[buffer] = stamp;
            move.estimate -= static_cast<double>(sim.bufferBytes[buffer]);
          }
        }
      }
    }
    // Op ids are a topological order: sort, by a scan of the marks when
    // the ids are dense enough.
    auto [lo, hi] = std::minmax_element(needed.begin(), needed.end());
    int first = *lo, last = *hi;
    if (static_cast<size_t>(last - first) <= 4 * needed.size()) {
      needed.clear();
      for (int op = first; op <= last; ++op)
        if (opMark[op] == stamp)
          needed.push_back(op);
    } else {
      std::sort(needed.begin(), needed.end());
    }
    move.ops = std::move(needed);
    for (int op : move.ops)
      move.cost += opCost[op];
    return true;
  }

  /// Bytes saved at the peak, counted up to the excess over the budget.
  double worth(double bytes) const { return std::min(bytes, excess); }

  const Problem &problem;
  SearchOptions options;
  Simulator sim;
  Stages stages;
  /// The candidates' runs (evaluate), and the helper thread that runs half
  /// of them with options.parallel.
  std::vector<Simulator::Score> scores;
  std::optional<Beside> beside;
  /// The current peak's excess over the budget (fit's loop).
  double excess = std::numeric_limits<double>::infinity();
  ckpt::SplitMix64 rng; ///< The seed's stream (with a nonzero seed).
  int stamp = 0;
  std::vector<int> opMark, bufferMark;
  std::vector<std::pair<int, int>> stack;
  // The op graph, flat.
  enum : char { kRecomputable = 1, kConstant = 2 };
  std::vector<int> readStart, readValue, producerOf;
  std::vector<double> opCost;
  std::vector<char> opFlags;
};

} // namespace

//===----------------------------------------------------------------------===//
// Ruin and recreate
//===----------------------------------------------------------------------===//

namespace {

/// The recomputations of `schedule` as (op, occurrence) pairs, the most
/// expensive first.
std::vector<std::pair<int, int>> recomputations(const Problem &problem,
                                                const Schedule &schedule) {
  std::vector<int> count(problem.numOps(), 0);
  std::vector<std::pair<int, int>> recs;
  for (int op : schedule)
    if (count[op]++ > 0)
      recs.push_back({op, count[op] - 1});
  std::stable_sort(recs.begin(), recs.end(), [&](const auto &a, const auto &b) {
    return problem.ops[a.first].cost > problem.ops[b.first].cost;
  });
  return recs;
}

/// The index of the `occurrence`-th execution (0: the first) of `op`, or the
/// schedule's size.
size_t findOccurrence(const Schedule &schedule, int op, int occurrence) {
  for (size_t e = 0; e < schedule.size(); ++e)
    if (schedule[e] == op && occurrence-- == 0)
      return e;
  return schedule.size();
}

/// `schedule` without the `occurrence`-th execution of `op` and what only
/// it needed (pruned by `sim`), in `out`; false when that execution is gone.
bool ruin(Simulator &sim, const Schedule &schedule, int op, int occurrence,
          Schedule &out) {
  size_t at = findOccurrence(schedule, op, occurrence);
  if (at == schedule.size())
    return false;
  out.assign(schedule.begin(), schedule.begin() + at);
  out.insert(out.end(), schedule.begin() + at + 1, schedule.end());
  sim.prune(out, out);
  return true;
}

/// Whether a ruin-and-recreate search that made `spent` evaluations stops.
bool stopSearch(const SearchOptions &options, int64_t spent) {
  return spent >= options.maxEvaluations ||
         (options.work && options.work->spent());
}

/// What one recreate step of ruinAndRecreate did: `changed` counts for
/// another round; `restart` ends this round at once (the recomputations of
/// the current schedule changed).
struct Recreated {
  bool changed = false;
  bool restart = false;
};

/// Ruin and recreate: in rounds, each recomputation of `current` (most
/// expensive first) is erased with what only it needed, and `recreate`
/// refits that ruined schedule, replacing `current` when the refit is
/// better. Stops after `options.rounds` rounds, a round that changed
/// nothing, or when `spent` (which `recreate` adds to) reaches the work
/// budget.
template <typename Recreate>
void ruinAndRecreate(const Problem &problem, Simulator &sim, Schedule &current,
                     const SearchOptions &options, const int64_t &spent,
                     Recreate recreate) {
  Schedule ruined;
  for (int round = 0; round < options.rounds; ++round) {
    bool changed = false;
    for (const auto &[op, occurrence] : recomputations(problem, current)) {
      if (stopSearch(options, spent))
        break;
      if (!ruin(sim, current, op, occurrence, ruined))
        continue;
      Recreated step = recreate(ruined);
      changed = changed || step.changed;
      if (step.restart)
        break;
    }
    if (!changed)
      break;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Dropping recomputations
//===----------------------------------------------------------------------===//

namespace {

/// Removes recomputations (most expensive first) while `budget` holds.
/// With `parallel`, the next trial runs beside the current one on a second
/// thread, on the same schedule: it is what the one-thread search would run
/// next when the current trial is refused (most are), and is thrown away
/// otherwise; the work it did is counted as if run after it. The schedule
/// is the same either way.
Schedule drop(const Problem &problem, Schedule schedule, int64_t budget,
              Simulator &sim, int64_t maxEvaluations, bool parallel = false,
              llvm::ThreadPoolInterface *threads = nullptr) {
  Simulator::Score current = sim.run(schedule, budget, Detail::None);
  if (!current.valid || current.peak > budget)
    return schedule;
  Schedule trial;
  std::optional<Beside> beside;
  Simulator::Score besideScore;
  if (parallel)
    beside.emplace(problem, threads);
  auto fits = [&](const Simulator::Score &score) {
    return score.valid && score.peak <= budget && score.cost <= current.cost;
  };
  bool changed = true;
  while (changed && !sim.exhausted(maxEvaluations)) {
    changed = false;
    const std::vector<std::pair<int, int>> recs =
        recomputations(problem, schedule);
    for (size_t k = 0; k < recs.size(); ++k) {
      if (sim.exhausted(maxEvaluations))
        break;
      if (!ruin(sim, schedule, recs[k].first, recs[k].second, trial))
        continue; // pruned meanwhile
      // The next trial on this schedule, beside this one.
      size_t next = recs.size();
      if (beside)
        for (size_t j = k + 1; j < recs.size(); ++j)
          if (findOccurrence(schedule, recs[j].first, recs[j].second) <
              schedule.size()) {
            next = j;
            break;
          }
      if (next < recs.size())
        beside->start([&, next] {
          ruin(beside->sim, schedule, recs[next].first, recs[next].second,
               beside->trial);
          besideScore = beside->sim.run(beside->trial, budget, Detail::None);
        });
      Simulator::Score score = sim.run(trial, budget, Detail::None);
      if (next < recs.size())
        beside->wait();
      if (fits(score)) {
        schedule.swap(trial);
        current = score;
        changed = true;
        continue; // the next trial ran on the schedule before: run it again
      }
      if (next == recs.size() || sim.exhausted(maxEvaluations))
        continue;
      // The next trial as the one-thread search runs it.
      beside->credit(sim);
      k = next;
      if (fits(besideScore)) {
        schedule.swap(beside->trial);
        current = besideScore;
        changed = true;
      }
    }
  }
  return schedule;
}

} // namespace

//===----------------------------------------------------------------------===//
// Fitting a budget
//===----------------------------------------------------------------------===//

Schedule ckpt::sched::fitBudget(const Problem &problem, const Schedule &start,
                                int64_t budget, const SearchOptions &options) {
  Greedy greedy(problem, options);
  return prune(problem, greedy.fit(start, budget));
}

Schedule ckpt::sched::dropRecomputations(const Problem &problem,
                                         const Schedule &schedule,
                                         int64_t budget,
                                         const SearchOptions &options) {
  Simulator sim(problem, options.work);
  return drop(problem, schedule, budget, sim, options.maxEvaluations);
}

//===----------------------------------------------------------------------===//
// Improving a schedule that fits: drop, then ruin and recreate
//===----------------------------------------------------------------------===//

namespace {

/// One refit of a ruined schedule in `improve`: a greedy, then drop, on the
/// refit's own simulators and work counter.
struct Refit {
  Refit(const Problem &problem, const SearchOptions &options)
      : greedy(problem, withWork(options)), check(problem, &work) {}
  Refit(const Refit &) = delete; // the simulators point at `work`
  Refit &operator=(const Refit &) = delete;

  /// Refits `ruined` into `budget` with at most `maxEvaluations`
  /// evaluations and `workLeft` units: the refit, its score, and what it
  /// spent (evaluations, units).
  void run(const Problem &problem, const Schedule &ruined, int64_t budget,
           int64_t maxEvaluations, int64_t workLeft) {
    work.left = workLeft;
    greedy.restart(maxEvaluations);
    refit = greedy.fit(ruined, budget);
    evaluations = greedy.evaluations();
    check.evaluations = 0;
    check.prune(refit, refit);
    refit = drop(problem, refit, budget, check,
                 std::max<int64_t>(maxEvaluations - evaluations, 1));
    evaluations += check.evaluations;
    score = check.run(refit, budget, Detail::None);
    units = workLeft - work.left;
  }

  SearchOptions withWork(SearchOptions options) {
    options.work = &work;
    options.parallel = false; // the two refits run side by side already
    return options;
  }

  Work work;
  Greedy greedy;
  Simulator check;
  Schedule refit;
  Simulator::Score score;
  int64_t evaluations = 0, units = 0;
};

} // namespace

Schedule ckpt::sched::improve(const Problem &problem, const Schedule &schedule,
                              int64_t budget, const SearchOptions &options) {
  Simulator sim(problem, options.work);
  Schedule current =
      drop(problem, schedule, budget, sim, options.maxEvaluations,
           options.parallel, options.threads);
  Simulator::Score score = sim.run(current, budget, Detail::None);
  if (!score.valid || score.peak > budget)
    return current;
  int64_t spent = sim.evaluations;
  // The greedies (bytes capped at the excess, and every byte: each finds
  // refits the other misses), each with its drop and checking simulator.
  SearchOptions capped = options, uncapped = options;
  capped.capExcess = true;
  uncapped.capExcess = false;
  Refit cappedRefit(problem, capped), uncappedRefit(problem, uncapped);
  Refit *refits[] = {&cappedRefit, &uncappedRefit};
  Work unlimited;
  Work &shared = options.work ? *options.work : unlimited;
  // The second refit, in parallel mode, runs beside the first as if the
  // first spent nothing. It did the same as when run after the first when
  // the two together stay within the limits (the limits are only ever
  // compared against what is left, which shrinks as work is done): then it
  // is kept, else run again after the first.
  std::optional<Helper> side; // runs the second refit
  if (options.parallel)
    side.emplace(options.threads);
  auto withinLimits = [&](const Refit &a, const Refit &b) {
    return spent + a.evaluations + b.evaluations < options.maxEvaluations &&
           shared.left - a.units - b.units > 0;
  };
  ruinAndRecreate(
      problem, sim, current, options, spent, [&](const Schedule &ruined) {
        Recreated step;
        bool started = false, besideDone = false;
        if (side && !stopSearch(options, spent)) {
          side->start([&, maxEvaluations = options.maxEvaluations - spent,
                       workLeft = shared.left] {
            refits[1]->run(problem, ruined, budget, maxEvaluations, workLeft);
          });
          started = true;
        }
        for (int i = 0; i < 2; ++i) {
          Refit &refit = *refits[i];
          if (i == 1 && started) {
            side->wait();
            started = false;
            besideDone = withinLimits(*refits[0], *refits[1]);
          }
          if (stopSearch(options, spent))
            break;
          if (!(i == 1 && besideDone))
            refit.run(problem, ruined, budget, options.maxEvaluations - spent,
                      shared.left);
          spent += refit.evaluations;
          shared.left -= refit.units;
          const Simulator::Score &trial = refit.score;
          if (!(trial.valid && trial.peak <= budget && trial.cost < score.cost))
            continue;
          current.swap(refit.refit);
          score = trial;
          step.changed = true;
        }
        if (started)
          side->wait();
        return step;
      });
  return current;
}

//===----------------------------------------------------------------------===//
// Lowering the peak
//===----------------------------------------------------------------------===//

Schedule ckpt::sched::leastPeak(const Problem &problem, const Schedule &start,
                                const SearchOptions &options) {
  return fitBudget(problem, start, 0, options);
}

Schedule ckpt::sched::lowerPeak(const Problem &problem, const Schedule &start,
                                const SearchOptions &options) {
  Simulator check(problem, options.work);
  Simulator::Score score = check.run(start, 0, Detail::None);
  if (!score.valid)
    return start;
  Schedule current = start;
  int64_t spent = check.evaluations;
  // Every byte under the peak counts here: the aim is the lowest peak.
  SearchOptions uncapped = options;
  uncapped.capExcess = false;
  Greedy greedy(problem, uncapped);
  // Remove one recomputation (with what only it needed) and let the greedy
  // fit the rest one byte under the current peak: a recomputation placed
  // early by the greedy can block a lower peak found otherwise. A cheaper
  // schedule at the same peak is kept too, without another round.
  ruinAndRecreate(
      problem, check, current, options, spent, [&](const Schedule &ruined) {
        greedy.restart(options.maxEvaluations - spent);
        Schedule refit = prune(problem, greedy.fit(ruined, score.peak - 1));
        spent += greedy.evaluations();
        check.evaluations = 0;
        Simulator::Score trial = check.run(refit, score.peak - 1, Detail::None);
        spent += check.evaluations;
        bool lower = trial.valid && trial.peak < score.peak;
        if (!lower && !(trial.valid && trial.peak == score.peak &&
                        trial.cost < score.cost))
          return Recreated{};
        current.swap(refit);
        score = trial;
        // A lower peak changed the recomputations: start over.
        return Recreated{lower, lower};
      });
  return current;
}
