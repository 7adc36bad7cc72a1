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

/// A change of live bytes at an instant. At equal times, events are ordered
/// by `order`: a copy's end first (-1), then the executions' allocations
/// and frees in execution order (2e at the start of execution e, 2e + 1 at
/// its end), a copy's allocation last.
struct Event {
  double time;
  int64_t order;
  int64_t bytes;
  bool operator<(const Event &other) const {
    return std::tie(time, order) < std::tie(other.time, other.order);
  }
};
constexpr int64_t kCopyEnds = -1;
constexpr int64_t kCopyStarts = std::numeric_limits<int64_t>::max();

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
  if (buffer < 0 ||
      simulator.bufferStart[buffer + 1] - simulator.bufferStart[buffer] != 1)
    return -1;
  return buffer;
}

TransferEvaluation
ckpt::sched::evaluateTransfers(const Problem &problem, const Schedule &schedule,
                               const std::vector<Transfer> &transfers,
                               const LinkSpec &link) {
  return TransferEvaluator(problem, schedule).evaluate(transfers, link);
}

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
    const Transfer &t = transfers[i];
    std::string name = "transfer " + std::to_string(i);
    auto fail = [&](const std::string &why) {
      out.error = name + ": " + why;
      return out;
    };
    if (t.value < 0 || t.value >= problem.numValues())
      return fail("value " + std::to_string(t.value) + " does not exist");
    name += " (value " + std::to_string(t.value) + ")";
    if (t.after >= end)
      return fail("execution " + std::to_string(t.after) + " does not exist");
    if (t.reloadAfter != kNoReload &&
        (t.reloadAfter < t.after || t.reloadAfter >= end))
      return fail("reloadAfter " + std::to_string(t.reloadAfter) +
                  " is not an execution at or after " +
                  std::to_string(t.after));
    Move move;
    move.version = simulator.versionBefore(t.value, t.after + 1);
    if (move.version < 0)
      return fail("no version exists when execution " +
                  std::to_string(t.after) + " ends");
    int buffer = ownBuffer(move.version);
    if (buffer < 0)
      return fail("its buffer is shared with a view or an in-place result, "
                  "or it has none: only a buffer of its own moves");
    if (moveOfVersion[move.version] >= 0)
      return fail("its version already moves (transfer " +
                  std::to_string(moveOfVersion[move.version]) + ")");
    moveOfVersion[move.version] = static_cast<int>(i);
    move.bytes = simulator.bufferBytes[buffer];
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
    moves.push_back(move);
  }

  //===--------------------------------------------------------------------===//
  // Time: the compute stream, and one copy stream each way.
  //===--------------------------------------------------------------------===//
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
    for (int m : offloadsAfter[e]) {
      Move &move = moves[m];
      move.offloadStart = std::max(clock, toHostFree);
      move.offloadEnd = toHostFree =
          move.offloadStart + link.seconds(move.bytes, /*toHostWay=*/true);
      out.offloadedBytes += move.bytes;
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

  //===--------------------------------------------------------------------===//
  // Memory: device and host bytes over time.
  //===--------------------------------------------------------------------===//
  std::vector<Event> device, host;
  auto startOf = [&](size_t e) {
    return Event{out.start[e], 2 * int64_t(e), 0};
  };
  auto endOf = [&](size_t e) {
    return Event{out.end[e], 2 * int64_t(e) + 1, 0};
  };
  std::vector<char> moved(simulator.bufferBytes.size(), 0);
  for (const Move &move : moves) {
    int buffer = simulator.versionBuffer[move.version];
    moved[buffer] = 1;
    // On the device until its offload ends.
    Event alloc = startOf(simulator.bufferDef[buffer]);
    alloc.bytes = move.bytes;
    device.push_back(alloc);
    device.push_back({move.offloadEnd, kCopyEnds, -move.bytes});
    host.push_back({move.offloadStart, kCopyStarts, move.bytes});
    if (move.reloadAfter == kNoReload)
      continue;
    host.push_back({move.reloadEnd, kCopyEnds, -move.bytes});
    // Back on the device from the reload's start to its last reader.
    device.push_back({move.reloadStart, kCopyStarts, move.bytes});
    size_t last = simulator.versionLast[move.version];
    if (last < end) {
      Event free = endOf(last);
      free.bytes = -move.bytes;
      device.push_back(free);
    }
  }
  for (size_t b = 0; b < simulator.bufferBytes.size(); ++b) {
    if (moved[b])
      continue;
    Event alloc = startOf(simulator.bufferDef[b]);
    alloc.bytes = simulator.bufferBytes[b];
    device.push_back(alloc);
    if (simulator.bufferLast[b] < end) {
      Event free = endOf(simulator.bufferLast[b]);
      free.bytes = -simulator.bufferBytes[b];
      device.push_back(free);
    }
  }
  std::tie(out.devicePeak, out.devicePeakTime) = peakOf(device);
  out.hostPeak = peakOf(host).first;
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
    if (firstBackward == kNoReload || interleaved)
      continue;
    transfers.push_back({value, lastForward, firstBackward - 1});
  }
  std::stable_sort(
      transfers.begin(), transfers.end(),
      [](const Transfer &a, const Transfer &b) { return a.after < b.after; });
  return transfers;
}
