//===- MemorySimulator.cpp - the memory model of schedules ----------------===//
//
// Two passes over a schedule: versions and their last reads, then buffers in
// creation order by each value's rule (Schedule.h), whose live ranges give
// the bytes live during each execution as a difference array.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/MemorySimulator.h"

#include <algorithm>

using namespace ckpt::sched;

MemorySimulator::MemorySimulator(const Problem &problem, Work *work)
    : problem(problem), work(work) {
  latest.assign(problem.numValues(), -1);
}

MemorySimulator::Score MemorySimulator::run(const Schedule &schedule,
                                            int64_t budget, Detail detail,
                                            const std::vector<int> *runCounts) {
  ++evaluations;
  Score out;
  const size_t end = schedule.size();
  const bool full = detail == Detail::Full;
  if (work) {
    int64_t units = static_cast<int64_t>(end);
    for (int op : schedule)
      units += static_cast<int64_t>(problem.ops[op].reads.size());
    work->left -= units;
  }
  for (int op : schedule)
    out.cost += problem.ops[op].cost;

  //===--------------------------------------------------------------------===//
  // Pass 1: versions and their last reads.
  //===--------------------------------------------------------------------===//
  versionValue.clear();
  versionExec.clear();
  versionLast.clear();
  versionSource.clear();
  if (full)
    readPairs.clear();
  bool valid = true;
  for (size_t e = 0; e < end && valid; ++e) {
    const Op &op = problem.ops[schedule[e]];
    for (int r : op.reads) {
      int producer = problem.values[r].producer;
      if (producer < 0)
        continue; // an input: outside the budget
      int x = latest[r];
      if (x < 0 && runCounts && (*runCounts)[producer] == 0)
        continue; // partial: not part of the evaluated part
      if (x < 0) {
        valid = false;
        out.failedExecution = e;
        out.failedValue = r;
        break;
      }
      versionLast[x] = e;
      if (full)
        readPairs.push_back({x, e});
    }
    if (!valid)
      break;
    size_t first = versionValue.size();
    for (int r : op.results) {
      const Value &value = problem.values[r];
      versionValue.push_back(r);
      versionExec.push_back(e);
      versionLast.push_back(e); // a version nobody reads dies at once
      versionSource.push_back(value.rule != BufferRule::Fresh &&
                                      value.source >= 0
                                  ? latest[value.source]
                                  : -1);
    }
    for (size_t i = 0; i < op.results.size(); ++i)
      latest[op.results[i]] = static_cast<int>(first + i);
  }
  if (valid)
    for (int v = 0; v < problem.numValues(); ++v)
      if (problem.values[v].returned && latest[v] >= 0)
        versionLast[latest[v]] = end; // read at the end
  for (int v : versionValue)          // reset for the next run
    latest[v] = -1;
  if (!valid)
    return out;
  out.valid = true;

  //===--------------------------------------------------------------------===//
  // Pass 2: buffers, in creation order.
  //===--------------------------------------------------------------------===//
  const size_t numVersions = versionValue.size();
  versionBuffer.assign(numVersions, -1);
  bufferBytes.clear();
  bufferDef.clear();
  bufferLast.clear();
  for (size_t y = 0; y < numVersions; ++y) {
    const Value &value = problem.values[versionValue[y]];
    int source = versionSource[y];
    int shared = source >= 0 ? versionBuffer[source] : -1;
    bool alias = false;
    if (value.rule == BufferRule::View) {
      alias = shared >= 0;
      if (!alias)
        continue; // a view of an input (or of nothing): no buffer
    } else if (value.rule == BufferRule::InPlace) {
      // In place only when no later execution reads the source's buffer.
      alias = shared >= 0 && bufferLast[shared] <= versionExec[y];
    }
    if (alias) {
      versionBuffer[y] = shared;
      bufferLast[shared] = std::max(bufferLast[shared], versionLast[y]);
      continue;
    }
    if (value.bytes == 0)
      continue;
    versionBuffer[y] = static_cast<int>(bufferBytes.size());
    bufferBytes.push_back(value.bytes);
    bufferDef.push_back(versionExec[y]);
    bufferLast.push_back(versionLast[y]);
  }

  //===--------------------------------------------------------------------===//
  // Bytes live during each execution.
  //===--------------------------------------------------------------------===//
  delta.assign(end + 1, 0);
  for (size_t b = 0; b < bufferBytes.size(); ++b) {
    delta[bufferDef[b]] += bufferBytes[b];
    delta[std::min(bufferLast[b], end - 1) + 1] -= bufferBytes[b];
  }
  const bool live = detail != Detail::None;
  if (live)
    liveAt.resize(end);
  int64_t bytes = 0;
  for (size_t e = 0; e < end; ++e) {
    bytes += delta[e];
    if (live)
      liveAt[e] = bytes;
    if (bytes > out.peak) {
      out.peak = bytes;
      out.peakIndex = e;
    }
    if (bytes > budget)
      out.area += static_cast<double>(bytes - budget);
  }
  if (full)
    buildIndexes();
  return out;
}

void MemorySimulator::buildIndexes() {
  // Reads of each version, in execution order (readPairs is recorded so).
  const size_t numVersions = versionValue.size();
  readStart.assign(numVersions + 1, 0);
  for (const auto &pair : readPairs)
    ++readStart[pair.first + 1];
  for (size_t y = 0; y < numVersions; ++y)
    readStart[y + 1] += readStart[y];
  readExec.resize(readPairs.size());
  cursor.assign(readStart.begin(), readStart.end() - 1);
  for (const auto &pair : readPairs)
    readExec[cursor[pair.first]++] = pair.second;

  // Versions of each value, in execution order.
  valueStart.assign(problem.numValues() + 1, 0);
  for (int v : versionValue)
    ++valueStart[v + 1];
  for (int v = 0; v < problem.numValues(); ++v)
    valueStart[v + 1] += valueStart[v];
  valueVersions.resize(numVersions);
  cursor.assign(valueStart.begin(), valueStart.end() - 1);
  for (size_t y = 0; y < numVersions; ++y)
    valueVersions[cursor[versionValue[y]]++] = static_cast<int>(y);

  // Versions of each buffer, in creation order.
  bufferStart.assign(bufferBytes.size() + 1, 0);
  for (int b : versionBuffer)
    if (b >= 0)
      ++bufferStart[b + 1];
  for (size_t b = 0; b < bufferBytes.size(); ++b)
    bufferStart[b + 1] += bufferStart[b];
  bufferVersions.resize(bufferStart.back());
  cursor.assign(bufferStart.begin(), bufferStart.end() - 1);
  for (size_t y = 0; y < numVersions; ++y)
    if (versionBuffer[y] >= 0)
      bufferVersions[cursor[versionBuffer[y]]++] = static_cast<int>(y);
}

int MemorySimulator::versionBefore(int value, size_t q) const {
  size_t lo = valueStart[value], hi = valueStart[value + 1];
  int found = -1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (versionExec[valueVersions[mid]] < q) {
      found = valueVersions[mid];
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return found;
}

size_t MemorySimulator::nextRead(int y, size_t e) const {
  auto first = readExec.begin() + readStart[y];
  auto last = readExec.begin() + readStart[y + 1];
  auto it = std::upper_bound(first, last, e);
  return it == last ? std::numeric_limits<size_t>::max() : *it;
}

bool MemorySimulator::readAt(int y, size_t e) const {
  auto first = readExec.begin() + readStart[y];
  auto last = readExec.begin() + readStart[y + 1];
  return std::binary_search(first, last, e);
}
