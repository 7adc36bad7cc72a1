//===- Offload.cpp - schedules with copies to host memory -----------------===//
//
// The versions, buffers and last reads come from the one memory model
// (MemorySimulator); this file places them, and the copies, in time.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Offload.h"
#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>
#include <tuple>

using namespace ckpt::sched;

namespace {
/// A transfer resolved to the version it moves, with its times.
struct Move {
  int version = -1;
  int64_t bytes = 0;
  size_t after = 0, reloadAfter = kNoReload;
  size_t firstReader = kNoReload; ///< the first read after the reload
  double offloadStart = 0, offloadEnd = 0;
  double reloadStart = 0, reloadEnd = 0;
};

/// A change of live bytes. Device and host memory change where the step's
/// program allocates and frees, at execution boundaries, in this order:
/// `order` 5e at the start of execution e (its results), 5e + 1 at its end
/// (the buffers it read last), then, between e and e + 1, 5e + 2 (the
/// device buffers of offloads waited for there), 5e + 3 (the host copies of
/// offloads and the device buffers of reloads issued there) and 5e + 4 (the
/// host copies of reloads waited for there). `time` is that instant (for
/// devicePeakTime).
struct Event {
  int64_t order;
  double time;
  int64_t bytes;
  bool operator<(const Event &other) const { return order < other.order; }
};
int64_t startOrder(size_t e) { return 5 * int64_t(e); }
int64_t endOrder(size_t e) { return 5 * int64_t(e) + 1; }
int64_t offloadWaitOrder(size_t e) { return 5 * int64_t(e) + 2; }
int64_t issueOrder(size_t e) { return 5 * int64_t(e) + 3; }
int64_t reloadWaitOrder(size_t e) { return 5 * int64_t(e) + 4; }

/// The most bytes live at once, and the first instant it is reached.
std::pair<int64_t, double> peakOf(std::vector<Event> &events) {
  std::stable_sort(events.begin(), events.end());
  int64_t live = 0, peak = 0;
  double when = 0;
  for (const Event &event : events) {
    live += event.bytes;
    if (live > peak) {
      peak = live;
      when = event.time;
    }
  }
  return {peak, when};
}
} // namespace

TransferEvaluator::TransferEvaluator(const Problem &problem,
                                     const Schedule &schedule)
    : problem(problem), schedule(schedule), simulator(problem) {
  Evaluation checked = sched::evaluate(problem, schedule);
  if (!checked.valid) {
    scheduleError = checked.error;
    return;
  }
  simulator.run(schedule, std::numeric_limits<int64_t>::max(),
                MemorySimulator::Detail::Full);
}

int TransferEvaluator::ownBuffer(int version) const {
  int buffer = simulator.versionBuffer[version];
  if (buffer < 0 || simulator.bufferBytes[buffer] <= 0)
    return -1;
  // The last version of its buffer (no view or in-place result is made of
  // it later), and its tensor is the whole buffer (a view only when it has
  // the buffer's bytes: a reshape, not a slice).
  const Value &value = problem.values[simulator.versionValue[version]];
  if (simulator.bufferVersions[simulator.bufferStart[buffer + 1] - 1] !=
          version ||
      (value.rule == BufferRule::View &&
       value.bytes != simulator.bufferBytes[buffer]))
    return -1;
  return buffer;
}

bool TransferEvaluator::movableAfter(int version, size_t after) const {
  int buffer = ownBuffer(version);
  if (buffer < 0)
    return false;
  // The buffer's earlier versions (written over in place) are dead by then.
  for (size_t i = simulator.bufferStart[buffer];
       i + 1 < simulator.bufferStart[buffer + 1]; ++i)
    if (simulator.versionLast[simulator.bufferVersions[i]] > after)
      return false;
  return true;
}

TransferEvaluation
ckpt::sched::evaluateTransfers(const Problem &problem, const Schedule &schedule,
                               const std::vector<Transfer> &transfers,
                               const LinkSpec &link) {
  return TransferEvaluator(problem, schedule).evaluate(transfers, link);
}

namespace {

/// Checks transfer `i` and resolves it to the version it moves (`move`);
/// false, with `error`, when it is not valid.
bool resolveTransfer(const TransferEvaluator &evaluator, const Problem &problem,
                     size_t end, const Transfer &t, size_t i,
                     std::vector<int> &moveOfVersion, Move &move,
                     std::string &error) {
  const MemorySimulator &simulator = evaluator.tables();
  std::string name = "transfer " + std::to_string(i);
  auto fail = [&](const std::string &why) {
    error = name + ": " + why;
    return false;
  };
  if (t.value < 0 || t.value >= problem.numValues())
    return fail("value " + std::to_string(t.value) + " does not exist");
  name += " (value " + std::to_string(t.value) + ")";
  if (t.after >= end)
    return fail("execution " + std::to_string(t.after) + " does not exist");
  if (t.reloadAfter != kNoReload &&
      (t.reloadAfter <= t.after || t.reloadAfter >= end))
    return fail("reloadAfter " + std::to_string(t.reloadAfter) +
                " is not an execution after " + std::to_string(t.after) +
                " (an offload and its reload have an execution between)");
  if (t.waitAfter != kNoReload &&
      (t.waitAfter < t.after || t.waitAfter >= end ||
       (t.reloadAfter != kNoReload && t.waitAfter > t.reloadAfter)))
    return fail("waitAfter " + std::to_string(t.waitAfter) + " is not " +
                std::to_string(t.after) +
                " or an execution after it at or before its reload");
  move.version = simulator.versionBefore(t.value, t.after + 1);
  if (move.version < 0)
    return fail("no version exists when execution " + std::to_string(t.after) +
                " ends");
  if (!evaluator.movableAfter(move.version, t.after))
    return fail("it is not the last version of its buffer, a view, or "
                "without bytes, or an earlier version of its buffer is "
                "read after the offload: only a whole buffer that nothing "
                "else reads moves");
  if (moveOfVersion[move.version] >= 0)
    return fail("its version already moves (transfer " +
                std::to_string(moveOfVersion[move.version]) + ")");
  moveOfVersion[move.version] = static_cast<int>(i);
  move.bytes = simulator.bufferBytes[simulator.versionBuffer[move.version]];
  move.after = t.after;
  move.reloadAfter = t.reloadAfter;
  bool returned = simulator.versionLast[move.version] == end;
  size_t next = simulator.nextRead(move.version, t.after);
  if (t.reloadAfter == kNoReload) {
    if (next != kNoReload)
      return fail("execution " + std::to_string(next) +
                  " reads it, but it is never reloaded");
    if (returned)
      return fail("it is returned, but never reloaded");
  } else {
    if (next != kNoReload && next <= t.reloadAfter)
      return fail("execution " + std::to_string(next) +
                  " reads it while it is on the host (reloaded after " +
                  std::to_string(t.reloadAfter) + ")");
    if (next == kNoReload && !returned)
      return fail("nothing reads it after its reload");
    move.firstReader = next; // kNoReload: only the end (returned)
  }
  return true;
}

/// Places the executions and the copies in time (out.start, out.end,
/// out.offloadDone, the stalls, out.time) and the moves' copies.
void placeInTime(const Problem &problem, const Schedule &schedule,
                 const std::vector<Transfer> &transfers, const LinkSpec &link,
                 std::vector<Move> &moves, TransferEvaluation &out) {
  const size_t end = schedule.size();
  std::vector<std::vector<int>> offloadsAfter(end), reloadsAfter(end),
      waitsAt(end);
  std::vector<int> waitsAtEnd;
  for (size_t m = 0; m < moves.size(); ++m) {
    offloadsAfter[moves[m].after].push_back(static_cast<int>(m));
    if (moves[m].reloadAfter == kNoReload)
      continue;
    reloadsAfter[moves[m].reloadAfter].push_back(static_cast<int>(m));
    if (moves[m].firstReader != kNoReload)
      waitsAt[moves[m].firstReader].push_back(static_cast<int>(m));
    else
      waitsAtEnd.push_back(static_cast<int>(m));
  }
  out.start.resize(end);
  out.end.resize(end);
  // Where the program waits for each offload: after the first execution
  // that ends once the copy has ended, or where its reload is issued (the
  // reload's buffer is allocated only once the offloaded one is freed), or
  // after the last execution.
  out.offloadDone.assign(transfers.size(), end - 1);
  std::vector<int> pending; // offloads issued, not waited for
  double clock = 0, toHostFree = 0, toDeviceFree = 0;
  for (size_t e = 0; e < end; ++e) {
    double start = clock;
    for (int m : waitsAt[e])
      start = std::max(start, moves[m].reloadEnd);
    out.stallTime += start - clock;
    const double cost = problem.ops[schedule[e]].cost;
    out.computeTime += cost;
    out.start[e] = start;
    out.end[e] = clock = start + cost;
    double waited = clock;
    std::vector<int> stillPending;
    for (int m : pending) {
      const Move &move = moves[m];
      const size_t wait = transfers[m].waitAfter;
      bool waitsHere = wait != kNoReload
                           ? wait == e
                           : move.offloadEnd <= clock || move.reloadAfter == e;
      if (!waitsHere) {
        stillPending.push_back(m);
        continue;
      }
      out.offloadDone[m] = e;
      waited = std::max(waited, move.offloadEnd);
    }
    pending = std::move(stillPending);
    out.stallTime += waited - clock;
    clock = waited;
    for (int m : offloadsAfter[e]) {
      Move &move = moves[m];
      move.offloadStart = std::max(clock, toHostFree);
      move.offloadEnd = toHostFree =
          move.offloadStart + link.seconds(move.bytes, /*toHostWay=*/true);
      out.offloadedBytes += move.bytes;
      if (transfers[m].waitAfter != e)
        pending.push_back(m);
    }
    // Offloads waited for at once (waitAfter == after): the compute stalls
    // until they end, before this boundary's reloads are issued.
    for (int m : offloadsAfter[e]) {
      if (transfers[m].waitAfter != e)
        continue;
      out.offloadDone[m] = e;
      out.stallTime += std::max(0.0, moves[m].offloadEnd - clock);
      clock = std::max(clock, moves[m].offloadEnd);
    }
    for (int m : reloadsAfter[e]) {
      Move &move = moves[m];
      move.reloadStart = std::max({clock, toDeviceFree, move.offloadEnd});
      move.reloadEnd = toDeviceFree =
          move.reloadStart + link.seconds(move.bytes, /*toHostWay=*/false);
    }
  }
  // The step ends when its last execution and its copies have.
  double finish = clock;
  for (int m : waitsAtEnd)
    finish = std::max(finish, moves[m].reloadEnd);
  out.stallTime += finish - clock;
  for (const Move &move : moves)
    finish = std::max({finish, move.offloadEnd, move.reloadEnd});
  out.time = finish;
}

/// The device and host peaks (out.devicePeak, out.devicePeakTime,
/// out.hostPeak), from where the program allocates and frees.
void placeInMemory(const MemorySimulator &simulator,
                   const std::vector<Move> &moves, size_t end,
                   TransferEvaluation &out) {
  std::vector<Event> device, host;
  auto at = [&](int64_t order, size_t e, bool atStart, int64_t bytes) {
    return Event{order, atStart ? out.start[e] : out.end[e], bytes};
  };
  std::vector<char> moved(simulator.bufferBytes.size(), 0);
  for (size_t m = 0; m < moves.size(); ++m) {
    const Move &move = moves[m];
    int buffer = simulator.versionBuffer[move.version];
    moved[buffer] = 1;
    // On the device until the program has waited for its offload.
    size_t def = simulator.bufferDef[buffer];
    device.push_back(at(startOrder(def), def, true, move.bytes));
    size_t done = out.offloadDone[m];
    device.push_back(at(offloadWaitOrder(done), done, false, -move.bytes));
    // On the host from the offload's issue to the wait before the reload's
    // first reader (the end when none reads it; never freed when not
    // reloaded).
    host.push_back(at(issueOrder(move.after), move.after, false, move.bytes));
    if (move.reloadAfter == kNoReload)
      continue;
    size_t waited = move.firstReader == kNoReload ? end : move.firstReader;
    host.push_back(
        at(reloadWaitOrder(waited - 1), waited - 1, false, -move.bytes));
    // Back on the device from the reload's issue to its last reader.
    device.push_back(
        at(issueOrder(move.reloadAfter), move.reloadAfter, false, move.bytes));
    size_t last = simulator.versionLast[move.version];
    if (last < end)
      device.push_back(at(endOrder(last), last, false, -move.bytes));
  }
  for (size_t b = 0; b < simulator.bufferBytes.size(); ++b) {
    if (moved[b])
      continue;
    size_t def = simulator.bufferDef[b];
    device.push_back(at(startOrder(def), def, true, simulator.bufferBytes[b]));
    size_t last = simulator.bufferLast[b];
    if (last < end)
      device.push_back(
          at(endOrder(last), last, false, -simulator.bufferBytes[b]));
  }
  std::tie(out.devicePeak, out.devicePeakTime) = peakOf(device);
  out.hostPeak = peakOf(host).first;
}

} // namespace

TransferEvaluation
TransferEvaluator::evaluate(const std::vector<Transfer> &transfers,
                            const LinkSpec &link) const {
  TransferEvaluation out;
  if (!scheduleError.empty()) {
    out.error = scheduleError;
    return out;
  }
  if (!transfers.empty() &&
      !(link.toHost > 0 && link.toDevice > 0 && link.latency >= 0)) {
    out.error = "the link needs positive bandwidths and a latency >= 0";
    return out;
  }
  const size_t end = schedule.size();

  //===--------------------------------------------------------------------===//
  // The transfers, checked and resolved to versions.
  //===--------------------------------------------------------------------===//
  std::vector<Move> moves;
  std::vector<int> moveOfVersion(simulator.versionValue.size(), -1);
  for (size_t i = 0; i < transfers.size(); ++i) {
    Move move;
    if (!resolveTransfer(*this, problem, end, transfers[i], i, moveOfVersion,
                         move, out.error))
      return out;
    moves.push_back(move);
  }

  //===--------------------------------------------------------------------===//
  // Time: the compute stream, and one copy stream each way.
  //===--------------------------------------------------------------------===//
  placeInTime(problem, schedule, transfers, link, moves, out);

  //===--------------------------------------------------------------------===//
  // Memory: device and host bytes where the program allocates and frees.
  //===--------------------------------------------------------------------===//
  placeInMemory(simulator, moves, end, out);
  out.valid = true;
  return out;
}

std::vector<Transfer>
ckpt::sched::saveOnCpuTransfers(const Problem &problem,
                                const Schedule &schedule) {
  return TransferEvaluator(problem, schedule).saveOnCpu();
}

std::vector<Transfer> TransferEvaluator::saveOnCpu() const {
  std::vector<Transfer> transfers;
  if (!scheduleError.empty())
    return transfers;
  const size_t numVersions = simulator.versionValue.size();
  for (size_t y = 0; y < numVersions; ++y) {
    int value = simulator.versionValue[y];
    const Value &v = problem.values[value];
    if (v.producer < 0 || problem.ops[v.producer].backward)
      continue;
    if (ownBuffer(static_cast<int>(y)) < 0)
      continue;
    // Its forward reads, then its backward reads, not interleaved.
    size_t lastForward = simulator.versionExec[y];
    size_t firstBackward = kNoReload;
    bool interleaved = false;
    for (size_t i = simulator.readStart[y]; i < simulator.readStart[y + 1];
         ++i) {
      size_t e = simulator.readExec[i];
      if (problem.ops[schedule[e]].backward) {
        firstBackward = std::min(firstBackward, e);
      } else {
        interleaved |= firstBackward != kNoReload;
        lastForward = std::max(lastForward, e);
      }
    }
    // Read again by the next execution: no execution to overlap the copies
    // with, and no bytes saved.
    if (firstBackward == kNoReload || interleaved ||
        firstBackward == lastForward + 1)
      continue;
    if (!movableAfter(static_cast<int>(y), lastForward))
      continue;
    transfers.push_back({value, lastForward, firstBackward - 1});
  }
  std::stable_sort(
      transfers.begin(), transfers.end(),
      [](const Transfer &a, const Transfer &b) { return a.after < b.after; });
  return transfers;
}
