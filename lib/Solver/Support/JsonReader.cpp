//===- JsonReader.cpp - Strict JSON input on top of llvm::json ------------===//

#include "ckpt/Solver/Support/JsonReader.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace ckpt;
using llvm::StringRef;

namespace {

constexpr size_t kMaxDepth = 512;
constexpr size_t kNone = StringRef::npos;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// What llvm::json::parse lets through and RFC 8259 does not, found in one
/// pass over the tokens: leading zeros and other numbers outside the
/// grammar ("+1", ".5", "1."), numbers a double cannot hold, trailing commas
/// (rejected by llvm::json too, with a vaguer message), duplicate keys (which
/// llvm::json would let the last one win), and nesting deeper than
/// kMaxDepth, checked before llvm::json's recursive parser goes down the
/// stack. Structure, strings and literals are left to llvm::json.
class StrictCheck {
public:
  explicit StrictCheck(StringRef text) : text(text) {}

  /// Scans up to the first finding; its offset is kNone when there is none.
  void run() {
    while (pos < text.size() && offset == kNone) {
      char c = text[pos];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++pos;
        continue;
      }
      if (c == '{' || c == '[')
        open(c == '{');
      else if (c == '}' || c == ']')
        close(c == '}');
      else if (c == ',')
        comma();
      else if (c == '"')
        string();
      else if (c == '-' || isDigit(c))
        number();
      else if (c == '+' || c == '.')
        fail(pos, std::string("expected a JSON value, found '") + c + "'");
      last = c;
      ++pos;
    }
  }

  size_t offset = kNone; ///< Where the message points.
  /// Where the problem starts, to tell which of this finding and an error
  /// of llvm::json comes first: the number, the key, the trailing comma.
  size_t start = kNone;
  std::string message;
  bool tooDeep = false;

private:
  struct Frame {
    bool object;
    bool expectKey;
    llvm::SmallDenseSet<StringRef, 8> keys;
  };
  StringRef text;
  size_t pos = 0;
  char last = 0; ///< The previous token's first character.
  size_t lastComma = 0;
  std::vector<Frame> stack;

  void fail(size_t at, std::string what, size_t from = kNone) {
    offset = at;
    start = from == kNone ? at : from;
    message = std::move(what);
  }

  void open(bool object) {
    if (stack.size() == kMaxDepth) {
      tooDeep = true;
      return fail(pos, "nesting deeper than 512 levels");
    }
    stack.push_back({object, object, {}});
  }

  void comma() {
    lastComma = pos;
    if (!stack.empty() && stack.back().object)
      stack.back().expectKey = true;
  }

  void close(bool object) {
    if (last == ',')
      return fail(
          pos, object ? "trailing comma in object" : "trailing comma in array",
          lastComma);
    if (!stack.empty())
      stack.pop_back();
  }

  /// Leaves pos at the closing quote (or the end).
  void string() {
    size_t quote = pos++;
    while (pos < text.size() && text[pos] != '"')
      pos += text[pos] == '\\' ? 2 : 1;
    if (pos >= text.size() || stack.empty() || !stack.back().expectKey)
      return;
    stack.back().expectKey = false;
    StringRef key = text.slice(quote + 1, pos);
    if (!stack.back().keys.insert(key).second)
      fail(quote, "duplicate key \"" + key.str() + "\"");
  }

  /// RFC 8259's number grammar; leaves pos at the number's last character.
  void number() {
    size_t first = pos;
    auto digits = [&] {
      while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    };
    auto at = [&](StringRef chars) {
      return pos < text.size() && chars.contains(text[pos]);
    };
    if (text[pos] == '-')
      ++pos;
    if (at("0")) {
      ++pos;
      if (at("0123456789"))
        return fail(first, "leading zeros are not allowed in numbers");
    } else if (at("123456789")) {
      digits();
    } else {
      return fail(first, "invalid number");
    }
    bool integer = true;
    if (at(".")) {
      integer = false;
      ++pos;
      if (!at("0123456789"))
        return fail(pos, "expected a digit after the decimal point", first);
      digits();
    }
    if (at("eE")) {
      integer = false;
      ++pos;
      if (at("+-"))
        ++pos;
      if (!at("0123456789"))
        return fail(pos, "expected a digit in the exponent", first);
      digits();
    }
    // llvm::json keeps integers of up to 64 bits exactly and reads the
    // others with strtod, which turns 1e999 into infinity.
    if (!integer || pos - first > 18) {
      std::string token = text.slice(first, pos).str();
      if (!std::isfinite(std::strtod(token.c_str(), nullptr)))
        return fail(first, "number out of range");
    }
    --pos;
  }
};

/// "LINE:COLUMN: " of the byte at `offset` (1-based).
std::string position(StringRef text, size_t offset) {
  StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n') + 1; // npos + 1 == 0
  return std::to_string(before.count('\n') + 1) + ":" +
         std::to_string(offset - lineStart + 1) + ": ";
}

/// llvm::json's ParseError ("[LINE:COLUMN, byte=OFFSET]: Message") as
/// "LINE:COLUMN: message" for `text`; `offset` is set to the offset of the
/// character it names. Most of its errors point just past the character
/// they consumed; those below point at a character not consumed (or the
/// end).
std::string parseErrorText(StringRef text, const std::string &log,
                           size_t &offset) {
  unsigned line = 0, column = 0;
  int end = 0;
  if (std::sscanf(log.c_str(), "[%u:%u, byte=%zu]: %n", &line, &column, &offset,
                  &end) != 3 ||
      end == 0)
    return log;
  std::string what = log.substr(end);
  bool consumed = true;
  for (const char *notConsumed :
       {"Text after end of document", "Unexpected EOF",
        "Invalid UTF-8 sequence", "Unterminated string"})
    consumed = consumed && what != notConsumed;
  if (consumed && offset > 0)
    --offset;
  if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z')
    what[0] = static_cast<char>(what[0] - 'A' + 'a');
  return position(text, offset) + what;
}

} // namespace

std::optional<llvm::json::Value> ckpt::parseJson(StringRef text,
                                                 std::string &error) {
  StrictCheck check(text);
  check.run();
  if (check.tooDeep) {
    error = position(text, check.offset) + check.message;
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    // The earlier of the two errors.
    size_t offset = kNone;
    error = parseErrorText(text, llvm::toString(parsed.takeError()), offset);
    if (check.offset == kNone || offset <= check.start)
      return std::nullopt;
  } else if (check.offset == kNone) {
    return std::move(*parsed);
  }
  error = position(text, check.offset) + check.message;
  return std::nullopt;
}

bool ckpt::readFile(const std::string &path, std::string &text) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return false;
  text = (*buffer)->getBuffer().str();
  return true;
}

std::string ckpt::withSource(const std::string &source,
                             const std::string &error) {
  bool positioned = !error.empty() && isDigit(error[0]);
  return source + (positioned ? ":" : ": ") + error;
}

const char *ckpt::kindName(const llvm::json::Value &v) {
  switch (v.kind()) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return "boolean";
  case llvm::json::Value::Number:
    return "number";
  case llvm::json::Value::String:
    return "string";
  case llvm::json::Value::Array:
    return "array";
  case llvm::json::Value::Object:
    return "object";
  }
  return "?";
}

bool JsonError::fail(llvm::json::Path at, std::string what) {
  if (!hasError) {
    at.report("");
    message = std::move(what);
    hasError = true;
  }
  return false;
}

std::string JsonError::text() const {
  // "MESSAGE at (root).nodes[3].cost_cpu", or "MESSAGE" at the root itself.
  std::string full = llvm::toString(rootState.getError());
  const char *marker = " at (root)";
  size_t at = full.find(marker);
  std::string what = hasError ? message : full.substr(0, at);
  if (at == std::string::npos)
    return what;
  std::string path = full.substr(at + std::strlen(marker));
  if (!path.empty() && path[0] == '.')
    path.erase(0, 1);
  return path + ": " + what;
}
