//===- GraphJson.h - Reading graphs from Checkmate-style JSON ---*- C++ -*-===//
//
// Reads networkx node-link JSON as published with Checkmate / MOCCASIN:
//  * training graphs: nodes[] {id, name?, backward, cost_cpu, cost_ram,
//    input?}, links[] {source, target};
//  * random layered graphs: nodes[] {name (integer), duration, out_cost,
//    param_cost?}, links[] {"0": source, "1": target}; graph.source_node, when
//    present, is marked as the step input.
// "input": true (our extension) marks a step input / parameter. Errors name
// the node or field and its path ("nodes[3].cost_cpu: node 3 ('relu'):
// ..."); syntax errors their line:column. No exceptions. Read with llvm::json
// (JsonReader.h), written with JsonWriter.h.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_GRAPH_GRAPH_JSON_H
#define CKPT_SOLVER_GRAPH_GRAPH_JSON_H

#include "ckpt/Solver/Graph/Graph.h"
#include "ckpt/Solver/Support/JsonWriter.h"

#include <string>
#include <string_view>

namespace ckpt {
namespace graph {

struct GraphReadResult {
  bool ok = false;
  Graph graph; ///< Finalized and acyclic when ok.
  /// When !ok: "LINE:COLUMN: message" (syntax), "PATH: message" (a field)
  /// or "message" (the whole graph).
  std::string error;
};

/// Builds a graph from a parsed JSON document.
GraphReadResult graphFromJson(const llvm::json::Value &doc);
/// Parses JSON text, then graphFromJson.
GraphReadResult parseGraphJson(std::string_view text);
/// Reads a file, then parseGraphJson; errors are prefixed with the path.
GraphReadResult readGraphFile(const std::string &path);

/// Writes a graph in the Checkmate training-graph format (nodes with id,
/// name, backward, cost_cpu, cost_ram, and input when set; links).
void writeGraphJson(JsonWriter &json, const Graph &g);
/// The same as text; indent > 0: pretty-printed.
std::string graphToJson(const Graph &g, int indent = 0);

} // namespace graph
} // namespace ckpt

#endif // CKPT_SOLVER_GRAPH_GRAPH_JSON_H
