//===- Json.cpp - Small strict JSON reader and writer ---------------------===//

#include "ckpt/Solver/Support/Json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace ckpt::json;

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

Value Value::array(ArrayT items) {
  Value v;
  v.kind_ = Kind::Array;
  v.arr_ = std::move(items);
  return v;
}

Value Value::object(ObjectT members) {
  Value v;
  v.kind_ = Kind::Object;
  v.obj_ = std::move(members);
  return v;
}

bool Value::isInteger() const {
  if (kind_ != Kind::Number)
    return false;
  if (exactInt_)
    return true;
  // 2^63 is exactly representable; anything >= it does not fit.
  return std::isfinite(num_) && std::floor(num_) == num_ &&
         num_ >= -9223372036854775808.0 && num_ < 9223372036854775808.0;
}

int64_t Value::asInt64() const {
  if (!isInteger())
    return 0;
  return exactInt_ ? int_ : static_cast<int64_t>(num_);
}

const Value *Value::find(std::string_view key) const {
  if (kind_ != Kind::Object)
    return nullptr;
  for (const auto &m : obj_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

Value &Value::set(std::string key, Value v) {
  if (kind_ == Kind::Null)
    kind_ = Kind::Object;
  for (auto &m : obj_)
    if (m.first == key) {
      m.second = std::move(v);
      return m.second;
    }
  obj_.emplace_back(std::move(key), std::move(v));
  return obj_.back().second;
}

Value &Value::push(Value v) {
  if (kind_ == Kind::Null)
    kind_ = Kind::Array;
  arr_.push_back(std::move(v));
  return arr_.back();
}

const char *Value::kindName(Kind k) {
  switch (k) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "boolean";
  case Kind::Number:
    return "number";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  ParseResult run() {
    ParseResult r;
    skipWs();
    bool ok = parseValue(r.value, 0);
    if (ok) {
      skipWs();
      ok = atEndOrFail();
    }
    if (!ok) {
      r.ok = false;
      r.line = errLine_;
      r.column = errCol_;
      r.error = std::to_string(errLine_) + ":" + std::to_string(errCol_) +
                ": " + errMsg_;
      r.value = Value();
      return r;
    }
    r.ok = true;
    return r;
  }

private:
  static constexpr int kMaxDepth = 512;
  std::string_view text_;
  size_t pos_ = 0, line_ = 1, lineStart_ = 0;
  std::string errMsg_;
  size_t errLine_ = 0, errCol_ = 0;

  size_t col() const { return pos_ - lineStart_ + 1; }
  bool eof() const { return pos_ >= text_.size(); }
  char peek() const { return eof() ? '\0' : text_[pos_]; }

  bool fail(std::string msg) {
    if (errMsg_.empty()) {
      errMsg_ = std::move(msg);
      errLine_ = line_;
      errCol_ = col();
    }
    return false;
  }

  std::string describeCurrent() const {
    if (eof())
      return "end of input";
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x20 || c >= 0x7f) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
      return buf;
    }
    return std::string("'") + static_cast<char>(c) + "'";
  }

  void skipWs() {
    while (!eof()) {
      char c = text_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        lineStart_ = pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  bool atEndOrFail() {
    if (!eof())
      return fail("unexpected " + describeCurrent() + " after the JSON value");
    return true;
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return fail("invalid literal, expected '" + std::string(word) + "'");
    pos_ += word.size();
    return true;
  }

  bool parseValue(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than 512 levels");
    size_t l = line_, c = col();
    bool ok;
    switch (peek()) {
    case '{':
      ok = parseObject(out, depth);
      break;
    case '[':
      ok = parseArray(out, depth);
      break;
    case '"': {
      std::string s;
      ok = parseString(s);
      if (ok)
        out = Value(std::move(s));
      break;
    }
    case 't':
      ok = literal("true");
      if (ok)
        out = Value(true);
      break;
    case 'f':
      ok = literal("false");
      if (ok)
        out = Value(false);
      break;
    case 'n':
      ok = literal("null");
      if (ok)
        out = Value();
      break;
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        ok = parseNumber(out);
      else
        ok = fail("expected a JSON value, found " + describeCurrent());
    }
    if (ok)
      out.setLocation(l, c);
    return ok;
  }

  bool parseObject(Value &out, int depth) {
    ++pos_; // '{'
    out = Value::object();
    skipWs();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skipWs();
      if (peek() != '"')
        return fail("expected a string key, found " + describeCurrent());
      size_t keyLine = line_, keyCol = col();
      std::string key;
      if (!parseString(key))
        return false;
      if (out.find(key)) {
        errMsg_ = "duplicate key \"" + key + "\"";
        errLine_ = keyLine;
        errCol_ = keyCol;
        return false;
      }
      skipWs();
      if (peek() != ':')
        return fail("expected ':' after object key, found " +
                    describeCurrent());
      ++pos_;
      skipWs();
      Value v;
      if (!parseValue(v, depth + 1))
        return false;
      out.asObject().emplace_back(std::move(key), std::move(v));
      skipWs();
      if (peek() == ',') {
        ++pos_;
        skipWs();
        if (peek() == '}')
          return fail("trailing comma in object");
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}' in object, found " + describeCurrent());
    }
  }

  bool parseArray(Value &out, int depth) {
    ++pos_; // '['
    out = Value::array();
    skipWs();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skipWs();
      Value v;
      if (!parseValue(v, depth + 1))
        return false;
      out.asArray().push_back(std::move(v));
      skipWs();
      if (peek() == ',') {
        ++pos_;
        skipWs();
        if (peek() == ']')
          return fail("trailing comma in array");
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']' in array, found " + describeCurrent());
    }
  }

  static void appendUtf8(std::string &s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t &out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      uint32_t d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        return fail("invalid \\u escape: expected 4 hex digits");
      out = out * 16 + d;
      ++pos_;
    }
    return true;
  }

  bool parseString(std::string &out) {
    ++pos_; // '"'
    for (;;) {
      if (eof())
        return fail("unterminated string");
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail(c == '\n' ? "unterminated string (newline in string)"
                              : "control character in string must be escaped");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      char e = peek();
      ++pos_;
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
          if (text_.substr(pos_, 2) != "\\u")
            return fail("unpaired UTF-16 surrogate in \\u escape");
          pos_ += 2;
          uint32_t lo;
          if (!hex4(lo))
            return false;
          if (lo < 0xDC00 || lo > 0xDFFF)
            return fail("invalid UTF-16 surrogate pair in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos_;
        return fail("invalid escape sequence in string");
      }
    }
  }

  bool parseNumber(Value &out) {
    size_t start = pos_;
    bool isInt = true;
    if (peek() == '-')
      ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9')
        return fail("leading zeros are not allowed in numbers");
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    } else {
      return fail("invalid number");
    }
    if (peek() == '.') {
      isInt = false;
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("expected a digit after the decimal point");
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      isInt = false;
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (!(peek() >= '0' && peek() <= '9'))
        return fail("expected a digit in the exponent");
      while (peek() >= '0' && peek() <= '9')
        ++pos_;
    }
    const char *b = text_.data() + start, *e = text_.data() + pos_;
    if (isInt) {
      int64_t iv;
      auto r = std::from_chars(b, e, iv);
      if (r.ec == std::errc() && r.ptr == e) {
        out = Value(iv);
        return true;
      }
    }
    double d = 0;
    auto r = std::from_chars(b, e, d);
    if (r.ec == std::errc::result_out_of_range && r.ptr == e) {
      // Overflow is an error, underflow rounds (strtod gives both).
      d = std::strtod(std::string(b, e).c_str(), nullptr);
      r.ec = std::errc();
    }
    if (r.ec != std::errc() || r.ptr != e || !std::isfinite(d)) {
      pos_ = start;
      return fail("number out of range");
    }
    out = Value(d);
    return true;
  }
};

} // namespace

ParseResult ckpt::json::parse(std::string_view text) {
  return Parser(text).run();
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

std::string ckpt::json::formatNumber(double d) {
  if (!std::isfinite(d))
    return "null";
  if (std::floor(d) == d && std::fabs(d) < 9007199254740992.0) {
    if (d == 0)
      return "0"; // also for -0
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(d));
    return buf;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

std::string ckpt::json::quote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  out += '"';
  return out;
}

namespace {

bool isScalar(const Value &v) { return !v.isArray() && !v.isObject(); }

void writeValue(const Value &v, int indent, int level, std::string &out) {
  auto newline = [&](int lvl) {
    out += '\n';
    out.append(static_cast<size_t>(indent) * lvl, ' ');
  };
  switch (v.kind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += v.asBool() ? "true" : "false";
    return;
  case Value::Kind::Number:
    if (v.isInteger() && std::fabs(v.asDouble()) >= 9007199254740992.0)
      out += std::to_string(v.asInt64());
    else
      out += formatNumber(v.asDouble());
    return;
  case Value::Kind::String:
    out += quote(v.asString());
    return;
  case Value::Kind::Array: {
    const auto &a = v.asArray();
    bool flat = indent < 0;
    if (!flat) {
      flat = true;
      for (const auto &e : a)
        flat = flat && isScalar(e);
    }
    out += '[';
    for (size_t i = 0; i < a.size(); ++i) {
      if (i)
        out += (flat && indent >= 0) ? ", " : ",";
      if (!flat)
        newline(level + 1);
      writeValue(a[i], indent, level + 1, out);
    }
    if (!flat && !a.empty())
      newline(level);
    out += ']';
    return;
  }
  case Value::Kind::Object: {
    const auto &o = v.asObject();
    out += '{';
    for (size_t i = 0; i < o.size(); ++i) {
      if (i)
        out += ',';
      if (indent >= 0)
        newline(level + 1);
      out += quote(o[i].first);
      out += indent >= 0 ? ": " : ":";
      writeValue(o[i].second, indent, level + 1, out);
    }
    if (indent >= 0 && !o.empty())
      newline(level);
    out += '}';
    return;
  }
  }
}

} // namespace

std::string ckpt::json::write(const Value &v, int indent) {
  std::string out;
  writeValue(v, indent, 0, out);
  return out;
}

bool ckpt::json::readFile(const std::string &path, std::string &text) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return false;
  text.clear();
  char buf[1 << 16];
  size_t k;
  while ((k = std::fread(buf, 1, sizeof buf, f)) > 0)
    text.append(buf, k);
  std::fclose(f);
  return true;
}
