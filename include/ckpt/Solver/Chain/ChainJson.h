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
// Read with llvm::json (JsonReader.h), written with JsonWriter.h.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_CHAIN_CHAIN_JSON_H
#define CKPT_SOLVER_CHAIN_CHAIN_JSON_H

#include "ckpt/Solver/Chain/ChainModel.h"
#include "ckpt/Solver/Chain/ChainStrategies.h"
#include "ckpt/Solver/Support/JsonWriter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {
namespace solver {

/// A parsed chain file.
struct ChainInput {
  Chain chain;
  std::optional<int64_t> memory;
  std::optional<int64_t> slots;
};

/// Reads a chain from a parsed JSON document. On failure returns false and
/// sets `error` to "FIELD: message" naming the field by its path ("of[1]:
/// must be non-negative, got -1"), or "message" about the whole document.
bool chainFromJson(const llvm::json::Value &doc, ChainInput &out,
                   std::string &error);

/// Parses JSON text and reads the chain; syntax errors are "LINE:COLUMN:
/// message", others as chainFromJson's.
bool parseChain(std::string_view text, ChainInput &out, std::string &error);

/// Reads and parses a chain file; errors are "PATH:LINE:COLUMN: message" or
/// "PATH: FIELD: message".
bool readChainFile(const std::string &path, ChainInput &out,
                   std::string &error);

/// Writes the chain (and optional budget) in the file format above.
void writeChainJson(JsonWriter &json, const Chain &chain,
                    std::optional<int64_t> memory = std::nullopt,
                    std::optional<int64_t> slots = std::nullopt);
/// The same as text; indent > 0: pretty-printed.
std::string chainToJson(const Chain &chain,
                        std::optional<int64_t> memory = std::nullopt,
                        std::optional<int64_t> slots = std::nullopt,
                        int indent = 0);

/// A strategy result as printed by ckpt-chain:
///   {"strategy", "feasible", "memory", "slots" (slot mode only),
///    "makespan", "peak", "peak_slots" (slot mode only),
///    "min_feasible_memory", "sequence"}
/// makespan/peak are null and the sequence empty when infeasible;
/// min_feasible_memory is null if no memory works.
void writeResultJson(JsonWriter &json, const StrategyResult &r);
/// The same as text; indent > 0: pretty-printed.
std::string resultToJson(const StrategyResult &r, int indent = 0);

} // namespace solver
} // namespace ckpt

#endif // CKPT_SOLVER_CHAIN_CHAIN_JSON_H
