//===- Repeats.cpp - identical blocks of a problem ------------------------===//
//
// See Repeats.h.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Schedule/Repeats.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>

using namespace ckpt::sched;

namespace {

/// Mixes `x` into the hash `h`.
uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

/// A hash of what makes two ops identical apart from their reads' values.
uint64_t signature(const Problem &problem, const Op &op) {
  uint64_t h = std::hash<std::string>()(op.name);
  uint64_t cost;
  static_assert(sizeof(cost) == sizeof(op.cost), "double is 64 bits");
  std::memcpy(&cost, &op.cost, sizeof(cost));
  h = mix(h, cost);
  h = mix(h, (op.recomputable ? 1 : 0) | (op.backward ? 2 : 0) |
                 (op.constant ? 4 : 0));
  h = mix(h, op.reads.size());
  for (int r : op.results) {
    const Value &v = problem.values[r];
    h = mix(h, static_cast<uint64_t>(v.bytes));
    h = mix(h, static_cast<uint64_t>(v.rule) | (v.returned ? 8 : 0));
  }
  return h;
}

class Finder {
public:
  explicit Finder(const Problem &problem) : problem(problem) {
    resultIndex.assign(problem.numValues(), -1);
    for (const Op &op : problem.ops)
      for (size_t i = 0; i < op.results.size(); ++i)
        resultIndex[op.results[i]] = static_cast<int>(i);
  }

  /// Whether value `b` stands to value `a` as an op `period` later does.
  bool corresponds(int a, int b, int period) const {
    if (a == b)
      return true;
    if (a < 0 || b < 0)
      return false;
    int pa = problem.values[a].producer, pb = problem.values[b].producer;
    if (pa < 0 && pb < 0)
      return true; // two inputs: the blocks' own weights
    return pa >= 0 && pb == pa + period && resultIndex[a] == resultIndex[b];
  }

  /// Whether op `b` is op `a` one block of `period` ops later.
  bool identical(int a, int b, int period) const {
    const Op &x = problem.ops[a], &y = problem.ops[b];
    if (x.name != y.name || x.cost != y.cost ||
        x.recomputable != y.recomputable || x.backward != y.backward ||
        x.constant != y.constant || x.reads.size() != y.reads.size() ||
        x.results.size() != y.results.size())
      return false;
    for (size_t i = 0; i < x.reads.size(); ++i)
      if (!corresponds(x.reads[i], y.reads[i], period))
        return false;
    for (size_t i = 0; i < x.results.size(); ++i) {
      const Value &u = problem.values[x.results[i]];
      const Value &v = problem.values[y.results[i]];
      if (u.bytes != v.bytes || u.rule != v.rule || u.returned != v.returned)
        return false;
      if (u.rule != BufferRule::Fresh &&
          !corresponds(u.source, v.source, period))
        return false;
    }
    return true;
  }

private:
  const Problem &problem;
  std::vector<int> resultIndex;
};

} // namespace

std::vector<int> Repeats::images(const Problem &problem, int value) const {
  std::vector<int> out;
  if (value < 0 || value >= problem.numValues())
    return out;
  int producer = problem.values[value].producer;
  if (producer < 0 || runOf[producer] < 0)
    return out;
  const RepeatRun &run = runs[runOf[producer]];
  const Op &op = problem.ops[producer];
  size_t index = std::find(op.results.begin(), op.results.end(), value) -
                 op.results.begin();
  int block = (producer - run.start) / run.period;
  int offset = (producer - run.start) % run.period;
  for (int d = 1; d < run.count; ++d)
    for (int b : {block + d, block - d})
      if (b >= 0 && b < run.count)
        out.push_back(
            problem.ops[run.start + b * run.period + offset].results[index]);
  return out;
}

Repeats ckpt::sched::findRepeats(const Problem &problem, int minCount,
                                 int minPeriod) {
  Repeats repeats;
  const int n = problem.numOps();
  repeats.runOf.assign(n, -1);
  minCount = std::max(minCount, 2);
  minPeriod = std::max(minPeriod, 1);
  // The next op with the same signature, per op.
  std::vector<int> nextSame(n, -1);
  {
    std::unordered_map<uint64_t, int> last;
    last.reserve(n);
    for (int o = n - 1; o >= 0; --o) {
      uint64_t s = signature(problem, problem.ops[o]);
      auto [it, inserted] = last.emplace(s, o);
      if (!inserted) {
        nextSame[o] = it->second;
        it->second = o;
      }
    }
  }
  Finder finder(problem);
  int floor = 0; // the first op after the last run
  // Failed tries may each compare up to a period of ops (two identical
  // halves: a run of two blocks); past a total of kTries * n comparisons, a
  // failed try skips the ops it compared, so the search stays linear.
  constexpr int64_t kTries = 16;
  int64_t compared = 0;
  for (int o = 0; o < n;) {
    int period = nextSame[o] < 0 ? 0 : nextSame[o] - o;
    if (period < minPeriod) {
      ++o;
      continue;
    }
    // Ops [o, end) are identical to the op a period later.
    int end = o;
    while (end + period < n && finder.identical(end, end + period, period))
      ++end;
    int start = o;
    while (start > floor &&
           finder.identical(start - 1, start - 1 + period, period))
      --start;
    int count = (end + period - start) / period;
    // Blocks of constant-like ops alone (constants of the same type, whose
    // values the problem does not hold) are not blocks: nothing in them is
    // kept or recomputed.
    bool computes = false;
    for (int op = start; op < start + period && !computes; ++op)
      computes = !problem.ops[op].constant;
    if (count < minCount || !computes) {
      compared += end - start + 1;
      o = compared > kTries * n ? std::max(o + 1, end) : o + 1;
      continue;
    }
    int index = static_cast<int>(repeats.runs.size());
    repeats.runs.push_back({start, period, count});
    for (int op = start; op < start + count * period; ++op)
      repeats.runOf[op] = index;
    o = floor = start + count * period;
  }
  return repeats;
}
