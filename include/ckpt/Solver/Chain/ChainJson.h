//===- ChainJson.h - Chain files and results as JSON ------------*- C++ -*-===//
//
// The ckpt-chain file format:
//
//   {"memory": M, "slots": S, "wa": [L+2], "wdelta": [L+2],
//    "uf": [L+1], "ub": [L+1], "of": [L+1], "ob": [L+1], "wabar": [L+1]}
//
// `memory` and `slots` are optional here (the CLI can supply them); without
// `slots` sizes are exact integers. Sizes (wa, wdelta, wabar, of, ob) must
// be non-negative integers, durations (uf, ub) non-negative numbers, memory
// and slots positive integers. Unknown keys are rejected (to catch typos),
// except keys starting with '_' and "name"/"comment", which are ignored.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_CHAIN_CHAIN_JSON_H
#define CKPT_SOLVER_CHAIN_CHAIN_JSON_H

#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"
#include "ckpt/Solver/Support/Json.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ckpt {
namespace solver {

/// A parsed chain file.
struct ChainInput {
  Chain chain;
  std::optional<int64_t> memory;
  std::optional<int64_t> slots;
};

/// Reads a chain from a parsed JSON document. On failure returns false and
/// sets `error` to "LINE:COLUMN: message" naming the field.
bool chainFromJson(const json::Value &doc, ChainInput &out, std::string &error);

/// Parses JSON text and reads the chain; errors are "LINE:COLUMN: ...".
bool parseChain(std::string_view text, ChainInput &out, std::string &error);

/// Reads and parses a chain file; errors are "PATH:LINE:COLUMN: ...".
bool readChainFile(const std::string &path, ChainInput &out,
                   std::string &error);

/// The chain (and optional budget) in the file format above.
json::Value chainToJson(const Chain &chain,
                        std::optional<int64_t> memory = std::nullopt,
                        std::optional<int64_t> slots = std::nullopt);

/// A strategy result as printed by ckpt-chain:
///   {"strategy", "feasible", "memory", "slots" (slot mode only),
///    "makespan", "peak", "peak_slots" (slot mode only),
///    "min_feasible_memory", "sequence"}
/// makespan/peak are null and the sequence empty when infeasible;
/// min_feasible_memory is null if no memory works.
json::Value resultToJson(const StrategyResult &r);

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_CHAIN_CHAIN_JSON_H
