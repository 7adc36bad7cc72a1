//===- JsonReader.h - Strict JSON input on top of llvm::json ----*- C++ -*-===//
//
// ckpt reads its JSON inputs (chain files, graphs, replayed schedules,
// measured profiles) with llvm::json::parse, after a cheap lexical check
// that keeps them to RFC 8259 where llvm::json is lenient, and that bounds
// the nesting depth that llvm::json's recursive parser would follow down the
// stack. Semantic errors (a missing field, a field of the wrong type) name
// the offending value by its llvm::json::Path ("nodes[3].cost_cpu").
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_JSONREADER_H
#define CKPT_SOLVER_SUPPORT_JSONREADER_H

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace ckpt {

/// Parses one JSON document. Strict: no comments, trailing commas,
/// NaN/Infinity, leading zeros or other numbers outside RFC 8259's grammar,
/// numbers out of a double's range, control characters in strings,
/// duplicate object keys (compared as written) or invalid UTF-8, and at
/// most 512 nested arrays and objects. On failure returns nullopt and sets
/// `error` to "LINE:COLUMN: message" (1-based).
std::optional<llvm::json::Value> parseJson(llvm::StringRef text,
                                           std::string &error);

/// Reads the file at `path` whole into `text` ("-" is not special); false
/// when it cannot be read.
bool readFile(const std::string &path, std::string &text);

/// `error` about the input `source` (a path, "<stdin>"): "SOURCE:LINE:COLUMN:
/// message" for a syntax error of parseJson, "SOURCE: message" otherwise.
std::string withSource(const std::string &source, const std::string &error);

/// "null", "boolean", "number", "string", "array" or "object".
const char *kindName(const llvm::json::Value &v);

/// The first error a reader of a parsed document finds: where (an
/// llvm::json::Path under root()) and what.
class JsonError {
public:
  /// The path of the document itself: root().field("nodes").index(3).
  const llvm::json::Path &root() const { return rootPath; }
  /// Records `message` about the value at `at` unless an error is already
  /// recorded. Returns false.
  bool fail(llvm::json::Path at, std::string message);
  bool failed() const { return hasError; }
  /// "PATH: message", or "message" for the document itself; PATH is
  /// llvm::json's, without the root: "nodes[3].cost_cpu".
  std::string text() const;

private:
  llvm::json::Path::Root rootState;
  llvm::json::Path rootPath{rootState};
  std::string message;
  bool hasError = false;
};

} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_JSONREADER_H
