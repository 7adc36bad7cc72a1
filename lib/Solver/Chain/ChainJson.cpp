//===- ChainJson.cpp - Chain files and results as JSON --------------------===//

#include "ckpt/Solver/Chain/ChainJson.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace ckpt;
using namespace ckpt::solver;

namespace {

std::string at(const json::Value &v) {
  return std::to_string(v.line()) + ":" + std::to_string(v.column()) + ": ";
}

constexpr double kMaxInt = 4398046511104.0; // 2^42, see Chain::validate()

/// "field 'name'[i]", for messages about one entry of an array field.
std::string elementName(const char *name, size_t i) {
  return "field '" + std::string(name) + "'[" + std::to_string(i) + "]";
}

/// The array field `name` of `doc`: present, an array of `want` entries (if
/// want > 0) and not empty, every entry a non-negative number. nullptr and
/// `error` set otherwise.
const json::Value::ArrayT *readNonNegativeArray(const json::Value &doc,
                                                const char *name, size_t want,
                                                const char *what,
                                                std::string &error) {
  const json::Value *v = doc.find(name);
  if (!v) {
    error = at(doc) + "missing field '" + name + "'";
    return nullptr;
  }
  if (!v->isArray()) {
    error = at(*v) + "field '" + name + "' must be an array, got " +
            json::Value::kindName(v->kind());
    return nullptr;
  }
  const auto &a = v->asArray();
  if (want && a.size() != want) {
    error = at(*v) + "field '" + name + "' must have " + std::to_string(want) +
            " entries (" + what + "), got " + std::to_string(a.size());
    return nullptr;
  }
  if (a.empty()) {
    error = at(*v) + "field '" + name +
            "' must not be empty (the chain has at least the loss stage)";
    return nullptr;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const json::Value &e = a[i];
    std::string where = elementName(name, i);
    if (!e.isNumber()) {
      error = at(e) + where + " must be a number, got " +
              json::Value::kindName(e.kind());
      return nullptr;
    }
    if (e.asDouble() < 0) {
      error = at(e) + where + " must be non-negative, got " +
              json::formatNumber(e.asDouble());
      return nullptr;
    }
  }
  return &a;
}

bool readIntArray(const json::Value &doc, const char *name, size_t want,
                  const char *what, std::vector<int64_t> &out,
                  std::string &error) {
  const json::Value::ArrayT *a =
      readNonNegativeArray(doc, name, want, what, error);
  if (!a)
    return false;
  out.clear();
  for (size_t i = 0; i < a->size(); ++i) {
    const json::Value &e = (*a)[i];
    std::string where = elementName(name, i);
    if (!e.isInteger()) {
      error = at(e) + where + " must be an integer, got " +
              json::formatNumber(e.asDouble());
      return false;
    }
    if (e.asDouble() > kMaxInt) {
      error = at(e) + where + " is too large (above 2^42)";
      return false;
    }
    out.push_back(e.asInt64());
  }
  return true;
}

bool readNumArray(const json::Value &doc, const char *name, size_t want,
                  const char *what, std::vector<double> &out,
                  std::string &error) {
  const json::Value::ArrayT *a =
      readNonNegativeArray(doc, name, want, what, error);
  if (!a)
    return false;
  out.clear();
  for (const json::Value &e : *a)
    out.push_back(e.asDouble());
  return true;
}

bool readPositive(const json::Value &doc, const char *name,
                  std::optional<int64_t> &out, std::string &error) {
  const json::Value *v = doc.find(name);
  if (!v)
    return true;
  if (!v->isNumber() || !v->isInteger() || v->asInt64() <= 0) {
    error = at(*v) + "field '" + name + "' must be a positive integer";
    return false;
  }
  out = v->asInt64();
  return true;
}

} // namespace

bool ckpt::solver::chainFromJson(const json::Value &doc, ChainInput &out,
                                 std::string &error) {
  if (!doc.isObject()) {
    error = at(doc) + "expected a JSON object describing the chain, got " +
            json::Value::kindName(doc.kind());
    return false;
  }
  static const char *known[] = {"memory", "slots", "wa",     "wdelta",
                                "uf",     "ub",    "of",     "ob",
                                "wabar",  "name",  "comment"};
  for (const auto &m : doc.asObject()) {
    bool ok = !m.first.empty() && m.first[0] == '_';
    for (const char *k : known)
      ok = ok || m.first == k;
    if (!ok) {
      error = at(m.second) + "unknown field '" + m.first + "'";
      return false;
    }
  }
  ChainInput in;
  Chain &c = in.chain;
  // L comes from uf; every other array must agree with it.
  if (!readNumArray(doc, "uf", 0, "", c.uf, error))
    return false;
  const size_t stages = c.uf.size();
  const std::string L = std::to_string(stages - 1);
  const std::string perStage = "L+1, with L = " + L + " from 'uf'";
  const std::string perAct = "L+2, with L = " + L + " from 'uf'";
  if (!readNumArray(doc, "ub", stages, perStage.c_str(), c.ub, error) ||
      !readIntArray(doc, "wa", stages + 1, perAct.c_str(), c.wa, error) ||
      !readIntArray(doc, "wdelta", stages + 1, perAct.c_str(), c.wdelta,
                    error) ||
      !readIntArray(doc, "wabar", stages, perStage.c_str(), c.wabar, error) ||
      !readIntArray(doc, "of", stages, perStage.c_str(), c.of, error) ||
      !readIntArray(doc, "ob", stages, perStage.c_str(), c.ob, error) ||
      !readPositive(doc, "memory", in.memory, error) ||
      !readPositive(doc, "slots", in.slots, error))
    return false;
  std::string v = c.validate();
  if (!v.empty()) {
    error = at(doc) + v;
    return false;
  }
  out = std::move(in);
  return true;
}

bool ckpt::solver::parseChain(std::string_view text, ChainInput &out,
                              std::string &error) {
  json::ParseResult pr = json::parse(text);
  if (!pr.ok) {
    error = pr.error;
    return false;
  }
  return chainFromJson(pr.value, out, error);
}

bool ckpt::solver::readChainFile(const std::string &path, ChainInput &out,
                                 std::string &error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = path + ": cannot open file";
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  if (!parseChain(ss.str(), out, error)) {
    error = path + ":" + error;
    return false;
  }
  return true;
}

json::Value ckpt::solver::chainToJson(const Chain &chain,
                                      std::optional<int64_t> memory,
                                      std::optional<int64_t> slots) {
  json::Value doc = json::Value::object();
  if (memory)
    doc.set("memory", *memory);
  if (slots)
    doc.set("slots", *slots);
  auto ints = [](const std::vector<int64_t> &v) {
    json::Value a = json::Value::array();
    for (int64_t x : v)
      a.push(x);
    return a;
  };
  auto nums = [](const std::vector<double> &v) {
    json::Value a = json::Value::array();
    for (double x : v)
      a.push(x);
    return a;
  };
  doc.set("wa", ints(chain.wa));
  doc.set("wdelta", ints(chain.wdelta));
  doc.set("uf", nums(chain.uf));
  doc.set("ub", nums(chain.ub));
  doc.set("of", ints(chain.of));
  doc.set("ob", ints(chain.ob));
  doc.set("wabar", ints(chain.wabar));
  return doc;
}

json::Value ckpt::solver::resultToJson(const StrategyResult &r) {
  json::Value doc = json::Value::object();
  doc.set("strategy", r.strategy.name());
  doc.set("feasible", r.feasible);
  doc.set("memory", r.budget.memory);
  if (!r.budget.exact())
    doc.set("slots", r.budget.slots);
  doc.set("makespan", r.feasible ? json::Value(r.makespan) : json::Value());
  doc.set("peak", r.feasible ? json::Value(r.peak) : json::Value());
  if (!r.budget.exact())
    doc.set("peak_slots",
            r.feasible ? json::Value(r.peakUnits) : json::Value());
  doc.set("min_feasible_memory", r.minFeasibleMemory
                                     ? json::Value(*r.minFeasibleMemory)
                                     : json::Value());
  json::Value seq = json::Value::array();
  for (const Op &op : r.sequence)
    seq.push(toString(op));
  doc.set("sequence", std::move(seq));
  return doc;
}
