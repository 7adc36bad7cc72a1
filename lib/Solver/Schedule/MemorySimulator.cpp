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
  const int numOps = problem.numOps(), numValues = problem.numValues();
  latest.assign(numValues, -1);
  valueProducer.resize(numValues);
  valueSource.resize(numValues);
  valueBytes.resize(numValues);
  valueRule.resize(numValues);
  for (int v = 0; v < numValues; ++v) {
    const Value &value = problem.values[v];
    valueProducer[v] = value.producer;
    valueSource[v] = value.source;
    valueBytes[v] = value.bytes;
    valueRule[v] = value.rule;
    if (value.returned)
      returnedValues.push_back(v);
  }
  flatOps.resize(numOps);
  opRecomputable.resize(numOps);
  for (int o = 0; o < numOps; ++o) {
    const Op &op = problem.ops[o];
    FlatOp &flat = flatOps[o];
    flat.readBegin = static_cast<int>(opReads.size());
    for (int r : op.reads)
      if (problem.values[r].producer >= 0)
        opReads.push_back(r);
    flat.readEnd = static_cast<int>(opReads.size());
    flat.resultBegin = static_cast<int>(opResults.size());
    opResults.insert(opResults.end(), op.results.begin(), op.results.end());
    flat.resultEnd = static_cast<int>(opResults.size());
    flat.units = 1 + static_cast<int64_t>(op.reads.size());
    flat.cost = op.cost;
    opRecomputable[o] = op.recomputable;
  }
}

MemorySimulator::Score MemorySimulator::run(const Schedule &schedule,
                                            int64_t budget, Detail detail,
                                            const std::vector<int> *runCounts) {
  ++evaluations;
  Score out;
  const size_t end = schedule.size();
  const bool full = detail == Detail::Full;

  // The cost (in schedule order), the work, and room for every version.
  int64_t units = 0;
  size_t maxVersions = 0;
  for (int o : schedule) {
    const FlatOp &flat = flatOps[o];
    out.cost += flat.cost;
    units += flat.units;
    maxVersions += static_cast<size_t>(flat.resultEnd - flat.resultBegin);
  }
  if (work)
    work->left -= units;
  versionValue.resize(maxVersions);
  versionExec.resize(maxVersions);
  versionLast.resize(maxVersions);
  versionSource.resize(maxVersions);

  if (!findVersions(schedule, full, runCounts, out))
    return out;
  out.valid = true;
  assignBuffers();
  countLiveBytes(end, budget, detail != Detail::None, out);
  if (full)
    buildIndexes();
  return out;
}

bool MemorySimulator::findVersions(const Schedule &schedule, bool full,
                                   const std::vector<int> *runCounts,
                                   Score &out) {
  //===--------------------------------------------------------------------===//
  // Pass 1: versions and their last reads.
  //===--------------------------------------------------------------------===//
  const size_t end = schedule.size();
  if (full)
    readPairs.clear();
  bool valid = true;
  int numVersions = 0;
  for (size_t e = 0; e < end; ++e) {
    const FlatOp &flat = flatOps[schedule[e]];
    const uint32_t exec = static_cast<uint32_t>(e);
    for (int i = flat.readBegin; i < flat.readEnd; ++i) {
      const int r = opReads[i];
      const int x = latest[r];
      if (x < 0) {
        if (runCounts && (*runCounts)[valueProducer[r]] == 0)
          continue; // partial: not part of the evaluated part
        valid = false;
        out.failedExecution = e;
        out.failedValue = r;
        break;
      }
      versionLast[x] = exec;
      if (full)
        readPairs.push_back({x, exec});
    }
    if (!valid)
      break;
    const int first = numVersions;
    for (int i = flat.resultBegin; i < flat.resultEnd; ++i, ++numVersions) {
      const int r = opResults[i];
      versionValue[numVersions] = r;
      versionExec[numVersions] = exec;
      versionLast[numVersions] = exec; // a version nobody reads dies at once
      versionSource[numVersions] =
          valueRule[r] != BufferRule::Fresh && valueSource[r] >= 0
              ? latest[valueSource[r]]
              : -1;
    }
    for (int i = flat.resultBegin; i < flat.resultEnd; ++i)
      latest[opResults[i]] = first + (i - flat.resultBegin);
  }
  versionValue.resize(numVersions);
  versionExec.resize(numVersions);
  versionLast.resize(numVersions);
  versionSource.resize(numVersions);
  if (valid)
    for (int v : returnedValues)
      if (latest[v] >= 0)
        versionLast[latest[v]] = static_cast<uint32_t>(end); // read at the end
  for (int v : versionValue) // reset for the next run
    latest[v] = -1;
  return valid;
}

void MemorySimulator::assignBuffers() {
  //===--------------------------------------------------------------------===//
  // Pass 2: buffers, in creation order.
  //===--------------------------------------------------------------------===//
  const int numVersions = static_cast<int>(versionValue.size());
  versionBuffer.assign(numVersions, -1);
  bufferBytes.clear();
  bufferDef.clear();
  bufferLast.clear();
  for (int y = 0; y < numVersions; ++y) {
    const int v = versionValue[y];
    const BufferRule rule = valueRule[v];
    int source = versionSource[y];
    int shared = source >= 0 ? versionBuffer[source] : -1;
    bool alias = false;
    if (rule == BufferRule::View) {
      alias = shared >= 0;
      if (!alias)
        continue; // a view of an input (or of nothing): no buffer
    } else if (rule == BufferRule::InPlace) {
      // In place only when no later execution reads the source's buffer.
      alias = shared >= 0 && bufferLast[shared] <= versionExec[y];
    }
    if (alias) {
      versionBuffer[y] = shared;
      bufferLast[shared] = std::max(bufferLast[shared], versionLast[y]);
      continue;
    }
    if (valueBytes[v] == 0)
      continue;
    versionBuffer[y] = static_cast<int>(bufferBytes.size());
    bufferBytes.push_back(valueBytes[v]);
    bufferDef.push_back(versionExec[y]);
    bufferLast.push_back(versionLast[y]);
  }
}

void MemorySimulator::countLiveBytes(size_t end, int64_t budget, bool live,
                                     Score &out) {
  //===--------------------------------------------------------------------===//
  // Bytes live during each execution.
  //===--------------------------------------------------------------------===//
  delta.assign(end + 1, 0);
  for (size_t b = 0; b < bufferBytes.size(); ++b) {
    delta[bufferDef[b]] += bufferBytes[b];
    delta[std::min<size_t>(bufferLast[b], end - 1) + 1] -= bufferBytes[b];
  }
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
}

void MemorySimulator::prune(const Schedule &schedule, Schedule &out) {
  // Dead-code elimination on a straight line, last execution first: an
  // execution is needed when it is an op's first, cannot be recomputed, or
  // defines a version that a needed later execution (or the end) reads.
  const int numOps = problem.numOps();
  pruneCount.assign(numOps, 0);
  for (int op : schedule)
    if (op >= 0 && op < numOps)
      ++pruneCount[op];
  pruneNeeded.assign(problem.numValues(), 0);
  for (int v : returnedValues)
    pruneNeeded[v] = 1;
  pruneKeep.assign(schedule.size(), 0);
  for (size_t e = schedule.size(); e-- > 0;) {
    int op = schedule[e];
    if (op < 0 || op >= numOps) {
      pruneKeep[e] = 1; // invalid: evaluate() reports it
      continue;
    }
    const FlatOp &flat = flatOps[op];
    bool used = --pruneCount[op] == 0 || !opRecomputable[op];
    for (int i = flat.resultBegin; i < flat.resultEnd; ++i)
      used = used || pruneNeeded[opResults[i]];
    pruneKeep[e] = used;
    for (int i = flat.resultBegin; i < flat.resultEnd; ++i)
      pruneNeeded[opResults[i]] = 0;
    if (used)
      for (int i = flat.readBegin; i < flat.readEnd; ++i)
        pruneNeeded[opReads[i]] = 1;
  }
  // Compacts in place when `out` is `schedule`.
  const size_t size = schedule.size();
  if (&out != &schedule)
    out.resize(size);
  size_t kept = 0;
  for (size_t e = 0; e < size; ++e)
    if (pruneKeep[e])
      out[kept++] = schedule[e];
  out.resize(kept);
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
