//===- Budget.cpp - memory budgets as users write them --------------------===//

#include "ckpt/Solver/Support/Budget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace ckpt;

namespace {

std::string_view trim(std::string_view text) {
  const char *space = " \t\n\v\f\r";
  size_t first = text.find_first_not_of(space);
  if (first == std::string_view::npos)
    return {};
  size_t last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

} // namespace

std::optional<BudgetSpec> ckpt::parseBudget(std::string_view text,
                                            std::string &error) {
  std::string_view trimmed = trim(text);
  auto fail = [&]() -> std::optional<BudgetSpec> {
    error = "invalid budget '" + std::string(text) +
            "': expected a number of bytes with an optional unit (" +
            kBudgetUnits +
            ", in any case) or a percentage of the store-all peak such as "
            "'70%'";
    return std::nullopt;
  };
  // Split the number (digits and points) from the unit.
  size_t numberEnd = 0;
  while (numberEnd < trimmed.size() &&
         ((trimmed[numberEnd] >= '0' && trimmed[numberEnd] <= '9') ||
          trimmed[numberEnd] == '.'))
    ++numberEnd;
  std::string number(trimmed.substr(0, numberEnd));
  std::string_view unit = trim(trimmed.substr(numberEnd));
  char *end = nullptr;
  double value = number.empty() ? 0 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() ||
      !std::isfinite(value))
    return fail();
  BudgetSpec spec;
  if (unit == "%") {
    if (value <= 0)
      return fail();
    spec.percent = true;
    spec.value = value;
    return spec;
  }
  const std::pair<std::string_view, double> units[] = {
      {"", 1.0},
      {"B", 1.0},
      {"KB", 1e3},
      {"MB", 1e6},
      {"GB", 1e9},
      {"TB", 1e12},
      {"KiB", 1024.0},
      {"MiB", 1024.0 * 1024},
      {"GiB", 1024.0 * 1024 * 1024},
      {"TiB", 1024.0 * 1024 * 1024 * 1024}};
  auto sameIgnoringCase = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(a[i])) !=
          std::tolower(static_cast<unsigned char>(b[i])))
        return false;
    return true;
  };
  double scale = -1;
  for (const auto &[name, factor] : units)
    if (sameIgnoringCase(unit, name))
      scale = factor;
  if (scale < 0 || value * scale < 1)
    return fail();
  // Budgets are kept in signed 64-bit byte counts (the report, the solver):
  // a larger one would wrap around, and converting a double past 2^64 to an
  // integer is undefined.
  if (value * scale >= kMaxBudgetBytes) {
    error = "budget '" + std::string(text) +
            "' is too large: it must be below 2^63 bytes";
    return std::nullopt;
  }
  spec.value = std::floor(value * scale);
  return spec;
}

std::string ckpt::formatBytes(uint64_t bytes, bool roundUp) {
  std::string out = std::to_string(bytes) + " B";
  const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024)
    return out;
  double scale = 1024;
  int unit = 0;
  while (unit < 3 && static_cast<double>(bytes) >= scale * 1024) {
    scale *= 1024;
    ++unit;
  }
  // Hundredths of the unit, rounded; rounded up, the figure parsed back
  // (floor(figure * scale)) is checked to reach `bytes` and raised by one
  // hundredth while a double's rounding leaves it short.
  double hundredths = static_cast<double>(bytes) / scale * 100;
  hundredths = roundUp ? std::ceil(hundredths) : std::nearbyint(hundredths);
  char buffer[64];
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::snprintf(buffer, sizeof(buffer), "%.2f %s", hundredths / 100,
                  units[unit]);
    if (!roundUp)
      break;
    std::string error;
    std::optional<BudgetSpec> back = parseBudget(buffer, error);
    if (back && back->value >= static_cast<double>(bytes))
      break;
    hundredths += 1;
  }
  return out + " (" + buffer + ")";
}

int64_t ckpt::budgetBytes(const BudgetSpec &spec, uint64_t reference) {
  double value = spec.percent
                     ? static_cast<double>(reference) * spec.value / 100.0
                     : spec.value;
  if (value >= kMaxBudgetBytes)
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(
      std::max<uint64_t>(1, static_cast<uint64_t>(value)));
}
