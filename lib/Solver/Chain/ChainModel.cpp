//===- ChainModel.cpp - Heterogeneous chain model and simulator -----------===//

#include "ckpt/Solver/Chain/ChainModel.h"

#include <algorithm>
#include <charconv>
#include <cmath>

using namespace ckpt::solver;

std::string Chain::validate() const {
  if (uf.empty())
    return "field 'uf': the chain needs at least one stage (the loss)";
  const size_t stages = uf.size();
  auto lengthError = [&](const char *name, size_t got, size_t want,
                         const char *what) {
    return "field '" + std::string(name) + "' must have " +
           std::to_string(want) + " entries (" + what +
           ", with L = " + std::to_string(stages - 1) + " from 'uf'), got " +
           std::to_string(got);
  };
  struct SizeField {
    const char *name;
    const std::vector<int64_t> *v;
    size_t want;
    const char *what;
  };
  if (ub.size() != stages)
    return lengthError("ub", ub.size(), stages, "L+1");
  const SizeField sizes[] = {
      {"wa", &wa, stages + 1, "L+2"},   {"wdelta", &wdelta, stages + 1, "L+2"},
      {"of", &of, stages, "L+1"},       {"ob", &ob, stages, "L+1"},
      {"wabar", &wabar, stages, "L+1"},
  };
  for (const auto &f : sizes)
    if (f.v->size() != f.want)
      return lengthError(f.name, f.v->size(), f.want, f.what);
  for (const auto *t : {&uf, &ub})
    for (size_t i = 0; i < t->size(); ++i)
      if (!std::isfinite((*t)[i]) || (*t)[i] < 0)
        return "field '" + std::string(t == &uf ? "uf" : "ub") + "'[" +
               std::to_string(i) + "] must be a finite non-negative number";
  for (const auto &f : sizes)
    for (size_t i = 0; i < f.v->size(); ++i)
      if ((*f.v)[i] < 0)
        return "field '" + std::string(f.name) + "'[" + std::to_string(i) +
               "] must be non-negative";
  // Keep sums of sizes far from int64 overflow.
  constexpr int64_t kMaxSize = int64_t(1) << 42;
  for (const auto &f : sizes)
    for (size_t i = 0; i < f.v->size(); ++i)
      if ((*f.v)[i] > kMaxSize)
        return "field '" + std::string(f.name) + "'[" + std::to_string(i) +
               "] is too large (above 2^42)";
  return "";
}

double Chain::storeAllMakespan() const {
  double s = 0;
  for (size_t i = 0; i < uf.size(); ++i)
    s += uf[i] + ub[i];
  return s;
}

int64_t MemoryModel::toUnits(int64_t size) const {
  if (exact() || size <= 0)
    return size;
  // ceil(size * S / M) without overflow.
  __int128 num = static_cast<__int128>(size) * slots;
  __int128 q = (num + memory - 1) / memory;
  return static_cast<int64_t>(q);
}

Chain ckpt::solver::toUnits(const Chain &chain, const MemoryModel &model) {
  Chain c = chain;
  if (model.exact())
    return c;
  for (auto *v : {&c.wa, &c.wdelta, &c.wabar, &c.of, &c.ob})
    for (auto &x : *v)
      x = model.toUnits(x);
  return c;
}

std::string ckpt::solver::toString(const Op &op) {
  const char *p = "?";
  switch (op.kind) {
  case OpKind::FAll:
    p = "Fall";
    break;
  case OpKind::FCk:
    p = "Fck";
    break;
  case OpKind::FNone:
    p = "Fn";
    break;
  case OpKind::Backward:
    p = "B";
    break;
  }
  return p + std::to_string(op.stage);
}

std::string ckpt::solver::toString(const std::vector<Op> &seq) {
  std::string s;
  for (size_t i = 0; i < seq.size(); ++i) {
    if (i)
      s += ' ';
    s += toString(seq[i]);
  }
  return s;
}

bool ckpt::solver::parseOp(std::string_view text, Op &out) {
  static const std::pair<const char *, OpKind> kinds[] = {
      {"Fall", OpKind::FAll},
      {"Fck", OpKind::FCk},
      {"Fn", OpKind::FNone},
      {"B", OpKind::Backward}};
  for (const auto &k : kinds) {
    std::string_view p(k.first);
    if (text.substr(0, p.size()) != p)
      continue;
    std::string_view num = text.substr(p.size());
    if (num.empty() || num[0] == '+' || num[0] == '-')
      return false;
    int v = 0;
    auto r = std::from_chars(num.data(), num.data() + num.size(), v);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size() || v < 1)
      return false;
    out.kind = k.second;
    out.stage = v;
    return true;
  }
  return false;
}

Simulation ckpt::solver::simulate(const Chain &chain,
                                  const std::vector<Op> &seq) {
  Simulation r;
  const int n = chain.numStages(); // L+1
  // What is held: plain a^i, abar^i, delta^i for i = 0..n.
  std::vector<char> hasA(n + 1, 0), hasAbar(n + 1, 0), hasDelta(n + 1, 0);
  hasA[0] = 1;
  hasDelta[n] = 1;
  int64_t cur = chain.wa[0] + chain.wdelta[n];
  r.peak = 0;
  auto failAt = [&](size_t i, const std::string &msg) {
    r.valid = false;
    r.errorIndex = i;
    r.error = "operation " + std::to_string(i) + " (" + toString(seq[i]) +
              "): " + msg;
    return r;
  };
  for (size_t i = 0; i < seq.size(); ++i) {
    const Op &op = seq[i];
    const int l = op.stage;
    if (l < 1 || l > n)
      return failAt(i, "stage out of range 1.." + std::to_string(n));
    if (op.kind == OpKind::Backward) {
      if (!hasDelta[l])
        return failAt(i, "delta^" + std::to_string(l) + " is not in memory");
      if (!hasAbar[l])
        return failAt(i, "abar^" + std::to_string(l) + " is not in memory");
      if (!hasA[l - 1] && !hasAbar[l - 1])
        return failAt(i, "a^" + std::to_string(l - 1) + " is not in memory");
      if (hasDelta[l - 1])
        return failAt(i, "delta^" + std::to_string(l - 1) +
                             " is already in memory");
      r.peak = std::max(r.peak, cur + chain.obAt(l));
      r.makespan += chain.ubAt(l);
      hasDelta[l] = 0;
      cur -= chain.wdelta[l];
      hasAbar[l] = 0;
      cur -= chain.wabarAt(l);
      if (hasA[l - 1]) {
        hasA[l - 1] = 0;
        cur -= chain.wa[l - 1];
      }
      hasDelta[l - 1] = 1;
      cur += chain.wdelta[l - 1];
      continue;
    }
    if (!hasA[l - 1] && !hasAbar[l - 1])
      return failAt(i, "a^" + std::to_string(l - 1) + " is not in memory");
    int64_t outSize;
    if (op.kind == OpKind::FAll) {
      if (hasAbar[l])
        return failAt(i, "abar^" + std::to_string(l) + " is already in memory");
      outSize = chain.wabarAt(l);
    } else {
      if (hasA[l])
        return failAt(i, "a^" + std::to_string(l) + " is already in memory");
      outSize = chain.wa[l];
    }
    r.peak = std::max(r.peak, cur + outSize + chain.ofAt(l));
    r.makespan += chain.ufAt(l);
    cur += outSize;
    if (op.kind == OpKind::FAll)
      hasAbar[l] = 1;
    else
      hasA[l] = 1;
    if (op.kind == OpKind::FNone && hasA[l - 1]) {
      hasA[l - 1] = 0;
      cur -= chain.wa[l - 1];
    }
  }
  if (!hasDelta[0]) {
    r.valid = false;
    r.errorIndex = seq.size();
    r.error = "sequence ends before delta^0 is computed";
    return r;
  }
  r.valid = true;
  return r;
}
