//===- ChainJson.cpp - Chain files and results as JSON --------------------===//

#include "ckpt/Solver/Chain/ChainJson.h"

#include "ckpt/Solver/Support/JsonReader.h"

#include <cmath>

using namespace ckpt;
using namespace ckpt::solver;
using llvm::json::Path;

namespace {

constexpr double kMaxInt = 4398046511104.0; // 2^42, see Chain::validate()

/// Reads the fields of a chain document, recording the first error.
struct ChainReader {
  const llvm::json::Object &doc;
  JsonError error;

  /// The array field `name`: present, of `want` entries (if want > 0) and
  /// not empty, every entry a non-negative number; nullptr after failing.
  const llvm::json::Array *nonNegativeArray(const char *name, size_t want,
                                            const char *what) {
    Path at = error.root().field(name);
    const llvm::json::Value *v = doc.get(name);
    if (!v) {
      error.fail(error.root(), "missing field '" + std::string(name) + "'");
      return nullptr;
    }
    const llvm::json::Array *a = v->getAsArray();
    if (!a) {
      error.fail(at, std::string("must be an array, got ") + kindName(*v));
      return nullptr;
    }
    if (want && a->size() != want) {
      error.fail(at, "must have " + std::to_string(want) + " entries (" + what +
                         "), got " + std::to_string(a->size()));
      return nullptr;
    }
    if (a->empty()) {
      error.fail(at, "must not be empty (the chain has at least the loss "
                     "stage)");
      return nullptr;
    }
    for (size_t i = 0; i < a->size(); ++i) {
      const llvm::json::Value &e = (*a)[i];
      std::optional<double> d = e.getAsNumber();
      if (!d) {
        error.fail(at.index(i),
                   std::string("must be a number, got ") + kindName(e));
        return nullptr;
      }
      if (*d < 0) {
        error.fail(at.index(i),
                   "must be non-negative, got " + formatNumber(*d));
        return nullptr;
      }
    }
    return a;
  }

  bool ints(const char *name, size_t want, const std::string &what,
            std::vector<int64_t> &out) {
    const llvm::json::Array *a = nonNegativeArray(name, want, what.c_str());
    if (!a)
      return false;
    Path at = error.root().field(name);
    out.clear();
    for (size_t i = 0; i < a->size(); ++i) {
      std::optional<int64_t> v = (*a)[i].getAsInteger();
      if (!v)
        return error.fail(at.index(i),
                          "must be an integer, got " +
                              formatNumber(*(*a)[i].getAsNumber()));
      if (*v > kMaxInt)
        return error.fail(at.index(i), "too large (above 2^42)");
      out.push_back(*v);
    }
    return true;
  }

  bool numbers(const char *name, size_t want, const std::string &what,
               std::vector<double> &out) {
    const llvm::json::Array *a = nonNegativeArray(name, want, what.c_str());
    if (!a)
      return false;
    out.clear();
    for (const llvm::json::Value &e : *a)
      out.push_back(*e.getAsNumber());
    return true;
  }

  bool positive(const char *name, std::optional<int64_t> &out) {
    const llvm::json::Value *v = doc.get(name);
    if (!v)
      return true;
    std::optional<int64_t> n = v->getAsInteger();
    if (!n || *n <= 0)
      return error.fail(error.root().field(name), "must be a positive integer");
    out = *n;
    return true;
  }

  /// Fails on the first unknown key (in sorted order).
  bool knownKeys() {
    static const char *known[] = {"memory", "slots", "wa",     "wdelta",
                                  "uf",     "ub",    "of",     "ob",
                                  "wabar",  "name",  "comment"};
    for (const auto *member : llvm::json::sortedElements(doc)) {
      llvm::StringRef key = member->first;
      bool ok = key.starts_with("_");
      for (const char *k : known)
        ok = ok || key == k;
      if (!ok)
        return error.fail(error.root(), "unknown field '" + key.str() + "'");
    }
    return true;
  }

  bool read(ChainInput &in) {
    Chain &c = in.chain;
    if (!knownKeys())
      return false;
    // L comes from uf; every other array must agree with it.
    if (!numbers("uf", 0, "", c.uf))
      return false;
    const size_t stages = c.uf.size();
    const std::string L = std::to_string(stages - 1);
    const std::string perStage = "L+1, with L = " + L + " from 'uf'";
    const std::string perAct = "L+2, with L = " + L + " from 'uf'";
    if (!numbers("ub", stages, perStage, c.ub) ||
        !ints("wa", stages + 1, perAct, c.wa) ||
        !ints("wdelta", stages + 1, perAct, c.wdelta) ||
        !ints("wabar", stages, perStage, c.wabar) ||
        !ints("of", stages, perStage, c.of) ||
        !ints("ob", stages, perStage, c.ob) || !positive("memory", in.memory) ||
        !positive("slots", in.slots))
      return false;
    std::string v = c.validate();
    if (!v.empty())
      return error.fail(error.root(), v);
    return true;
  }
};

} // namespace

bool ckpt::solver::chainFromJson(const llvm::json::Value &doc, ChainInput &out,
                                 std::string &error) {
  const llvm::json::Object *object = doc.getAsObject();
  if (!object) {
    error = std::string("expected a JSON object describing the chain, got ") +
            kindName(doc);
    return false;
  }
  ChainReader reader{*object, {}};
  ChainInput in;
  if (!reader.read(in)) {
    error = reader.error.text();
    return false;
  }
  out = std::move(in);
  return true;
}

bool ckpt::solver::parseChain(std::string_view text, ChainInput &out,
                              std::string &error) {
  std::optional<llvm::json::Value> doc = parseJson(text, error);
  return doc && chainFromJson(*doc, out, error);
}

bool ckpt::solver::readChainFile(const std::string &path, ChainInput &out,
                                 std::string &error) {
  std::string text;
  if (!readFile(path, text)) {
    error = path + ": cannot open file";
    return false;
  }
  if (!parseChain(text, out, error)) {
    error = withSource(path, error);
    return false;
  }
  return true;
}

void ckpt::solver::writeChainJson(JsonWriter &json, const Chain &chain,
                                  std::optional<int64_t> memory,
                                  std::optional<int64_t> slots) {
  json.object([&] {
    if (memory)
      json.attribute("memory", *memory);
    if (slots)
      json.attribute("slots", *slots);
    json.attributeScalarArray("wa", chain.wa);
    json.attributeScalarArray("wdelta", chain.wdelta);
    json.attributeScalarArray("uf", chain.uf);
    json.attributeScalarArray("ub", chain.ub);
    json.attributeScalarArray("of", chain.of);
    json.attributeScalarArray("ob", chain.ob);
    json.attributeScalarArray("wabar", chain.wabar);
  });
}

std::string ckpt::solver::chainToJson(const Chain &chain,
                                      std::optional<int64_t> memory,
                                      std::optional<int64_t> slots,
                                      int indent) {
  return writeJson(indent, [&](JsonWriter &json) {
    writeChainJson(json, chain, memory, slots);
  });
}

void ckpt::solver::writeResultJson(JsonWriter &json, const StrategyResult &r) {
  auto ifFeasible = [&](auto v) {
    return r.feasible ? std::optional(v) : std::nullopt;
  };
  json.object([&] {
    json.attribute("strategy", r.strategy.name());
    json.attribute("feasible", r.feasible);
    json.attribute("memory", r.budget.memory);
    if (!r.budget.exact())
      json.attribute("slots", r.budget.slots);
    json.attribute("makespan", ifFeasible(r.makespan));
    json.attribute("peak", ifFeasible(r.peak));
    if (!r.budget.exact())
      json.attribute("peak_slots", ifFeasible(r.peakUnits));
    json.attribute("min_feasible_memory", r.minFeasibleMemory);
    std::vector<std::string> sequence;
    for (const Op &op : r.sequence)
      sequence.push_back(toString(op));
    json.attributeScalarArray("sequence", sequence);
  });
}

std::string ckpt::solver::resultToJson(const StrategyResult &r, int indent) {
  return writeJson(indent, [&](JsonWriter &json) { writeResultJson(json, r); });
}
