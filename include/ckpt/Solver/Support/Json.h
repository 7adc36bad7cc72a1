//===- Json.h - Small strict JSON reader and writer -------------*- C++ -*-===//
//
// A dependency-free (no LLVM, no exceptions) JSON value tree with a strict
// RFC 8259 parser and a writer. Used by ckpt-chain to read chain files and to
// print results, and meant to be reused for other inputs (e.g. Checkmate graph
// JSON), so it is deliberately general.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_JSON_H
#define CKPT_SOLVER_SUPPORT_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {
namespace json {

/// A JSON value: null, boolean, number, string, array or object.
///
/// Numbers are kept as a double; a number literal written without fraction
/// or exponent that fits in an int64_t is also kept exactly, so integers
/// beyond 2^53 survive a round trip. Objects keep their keys in input order.
/// Values produced by parse() remember the line and column (1-based) where
/// they start, so that semantic errors can point into the input.
class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using ArrayT = std::vector<Value>;
  using ObjectT = std::vector<std::pair<std::string, Value>>;

  /// Constructs null.
  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : kind_(Kind::Bool), bool_(b) {}
  Value(double d) : kind_(Kind::Number), num_(d) {}
  Value(int v) : Value(static_cast<int64_t>(v)) {}
  Value(int64_t v)
      : kind_(Kind::Number), num_(static_cast<double>(v)), int_(v),
        exactInt_(true) {}
  Value(std::string s) : kind_(Kind::String), str_(std::move(s)) {}
  Value(const char *s) : kind_(Kind::String), str_(s) {}
  Value(std::string_view s) : kind_(Kind::String), str_(s) {}

  /// An empty array / object, to be filled with push()/set().
  static Value array(ArrayT items = {});
  static Value object(ObjectT members = {});

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isNumber() const { return kind_ == Kind::Number; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  /// True for a number whose value is integral and representable as int64_t.
  bool isInteger() const;

  /// Accessors; calling one on a value of another kind returns a default
  /// (false, 0, empty) rather than failing.
  bool asBool() const { return kind_ == Kind::Bool && bool_; }
  double asDouble() const { return kind_ == Kind::Number ? num_ : 0.0; }
  /// The integer value (exact for integer literals); 0 unless isInteger().
  int64_t asInt64() const;
  const std::string &asString() const { return str_; }
  const ArrayT &asArray() const { return arr_; }
  ArrayT &asArray() { return arr_; }
  const ObjectT &asObject() const { return obj_; }
  ObjectT &asObject() { return obj_; }

  /// Object member lookup; nullptr when absent or not an object.
  const Value *find(std::string_view key) const;
  /// Sets (replacing) an object member; turns null into an empty object.
  Value &set(std::string key, Value v);
  /// Appends to an array; turns null into an empty array.
  Value &push(Value v);

  /// Source position (1-based) for parsed values, 0 for constructed ones.
  size_t line() const { return line_; }
  size_t column() const { return column_; }
  void setLocation(size_t line, size_t column) {
    line_ = line;
    column_ = column;
  }

  /// Human-readable kind name ("number", "array", ...).
  static const char *kindName(Kind k);

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double num_ = 0.0;
  int64_t int_ = 0;
  bool exactInt_ = false;
  std::string str_;
  ArrayT arr_;
  ObjectT obj_;
  size_t line_ = 0, column_ = 0;
};

/// Result of parse(): on failure `error` is "LINE:COLUMN: message".
struct ParseResult {
  bool ok = false;
  Value value;
  std::string error;
  size_t line = 0, column = 0;
};

/// Reads the file at `path` whole into `text`; false when it cannot be
/// opened.
bool readFile(const std::string &path, std::string &text);

/// Parses one JSON document (surrounding whitespace allowed, nothing else).
/// Strict: no comments, trailing commas, NaN/Infinity, leading zeros, control
/// characters in strings or duplicate object keys. Nesting depth is limited
/// (512) so hostile input cannot overflow the stack.
ParseResult parse(std::string_view text);

/// Writes `v` as JSON. indent < 0: compact, one line. indent >= 0: pretty,
/// members on their own lines indented by `indent` spaces per level; arrays
/// holding only scalars stay on one line.
std::string write(const Value &v, int indent = -1);

/// Formats a number the way write() does: integral values (|x| < 2^53)
/// without a fraction, others in the shortest form that round-trips;
/// non-finite values as `null`.
std::string formatNumber(double d);

/// Quotes and escapes a string as a JSON string literal.
std::string quote(std::string_view s);

} // namespace json
} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_JSON_H
