//===- ScheduleSimulator.h - evaluate()'s memory model, reusable -*- C++
//-*-===//
//
// The simulator the greedy and the local searches (Remat.cpp) score their
// moves with: the memory model of sched::evaluate (Schedule.h) without its
// validity rules for non-recomputable ops, with reusable buffers, a work
// counter, the bytes above a budget, and on request the details a move needs
// (versions, reads, buffers). unittests/Solver/ScheduleTest.cpp checks that it
// agrees with evaluate on the cost, the peak and the bytes live at every
// execution of thousands of random schedules. Internal to lib/Solver and its
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H
#define CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H

#include "ckpt/Solver/Schedule/Remat.h"
#include "ckpt/Solver/Schedule/Schedule.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ckpt {
namespace sched {
namespace detail {

/// Reusable simulator: the memory model of evaluate(), with the details the
/// greedy needs (versions, reads, buffers) when asked.
class Simulator {
public:
  explicit Simulator(const Problem &problem, Work *work = nullptr)
      : problem(problem), work(work) {
    latest.assign(problem.numValues(), -1);
  }

  /// Whether the searches using this simulator should stop.
  bool exhausted(int64_t maxEvaluations) const {
    return evaluations >= maxEvaluations || (work && work->spent());
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
    if (work) {
      int64_t units = static_cast<int64_t>(end);
      for (int op : schedule)
        units += static_cast<int64_t>(problem.ops[op].reads.size());
      work->left -= units;
    }
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
  Work *work;
  std::vector<int> latest;
  std::vector<std::pair<int, size_t>> readPairs;
  std::vector<int64_t> delta;
  std::vector<size_t> cursor;
};

} // namespace detail
} // namespace sched
} // namespace ckpt

#endif // CKPT_SOLVER_SCHEDULE_MEMORY_SIMULATOR_H
