//===- JsonWriter.cpp - llvm::json::OStream in ckpt's JSON layout ---------===//

#include "ckpt/Solver/Support/JsonWriter.h"

#include <charconv>
#include <cmath>

std::string ckpt::formatNumber(double d) {
  if (!std::isfinite(d))
    return "null";
  if (std::floor(d) == d && std::fabs(d) < 9007199254740992.0) // 2^53
    return std::to_string(static_cast<long long>(d));          // -0 prints as 0
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d); // shortest round trip
  return std::string(buf, r.ptr);
}
