//===- JsonWriter.h - llvm::json::OStream in ckpt's JSON layout -*- C++ -*-===//
//
// Every JSON document ckpt prints (ckpt-chain, ckpt-sched, ckpt-graph, the
// ckpt-report pass, the Python module's to_json) is streamed with
// llvm::json::OStream, in the order the code writes it, with two additions:
//  * doubles in the shortest form that reads back to the same double, and
//    integral ones (below 2^53) without a fraction: 12, 0.1, 1e+300 (where
//    OStream would print %.17g: 12, 0.10000000000000001);
//  * arrays of scalars on one line also when pretty-printing: "[1, 2, 3]".
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_JSONWRITER_H
#define CKPT_SOLVER_SUPPORT_JSONWRITER_H

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <type_traits>

namespace ckpt {

/// `d` as JsonWriter writes it: integral values (|d| < 2^53) without a
/// fraction, others in the shortest form that round-trips; non-finite values
/// as `null`.
std::string formatNumber(double d);

/// llvm::json::OStream whose value() and attribute() write doubles with
/// formatNumber (and std::optional as the value or null).
class JsonWriter : public llvm::json::OStream {
public:
  /// indent > 0: pretty, `indent` spaces per level; otherwise one line.
  explicit JsonWriter(llvm::raw_ostream &os, int indent = 0)
      : OStream(os, indent > 0 ? static_cast<unsigned>(indent) : 0),
        pretty(indent > 0) {}

  template <typename T> void value(const T &v) {
    if constexpr (std::is_floating_point_v<T>)
      rawValue(formatNumber(v));
    else
      OStream::value(v);
  }
  template <typename T> void value(const std::optional<T> &v) {
    if (v)
      value(*v);
    else
      OStream::value(nullptr);
  }
  template <typename T> void attribute(llvm::StringRef key, const T &v) {
    attributeBegin(key);
    value(v);
    attributeEnd();
  }

  /// An array of scalars (numbers, strings, booleans) on one line: "[1, 2]"
  /// when pretty, "[1,2]" otherwise.
  template <typename Range> void scalarArray(const Range &items) {
    rawValue([&](llvm::raw_ostream &os) {
      os << '[';
      bool first = true;
      for (const auto &item : items) {
        if (!first)
          os << (pretty ? ", " : ",");
        first = false;
        if constexpr (std::is_floating_point_v<std::decay_t<decltype(item)>>)
          os << formatNumber(item);
        else
          llvm::json::OStream(os).value(item);
      }
      os << ']';
    });
  }
  template <typename Range>
  void attributeScalarArray(llvm::StringRef key, const Range &items) {
    attributeBegin(key);
    scalarArray(items);
    attributeEnd();
  }

private:
  bool pretty;
};

/// Writes one JSON value with `write(JsonWriter &)` to a string.
template <typename Fn> std::string writeJson(int indent, Fn write) {
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    JsonWriter json(os, indent);
    write(json);
  }
  return text;
}

} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_JSONWRITER_H
