//===- Budget.h - memory budgets as users write them ------------*- C++ -*-===//
//
// "1048576", "512KiB", "1.5GiB", "2MB" or "70%" (of a store-all peak): the
// one parser of budgets, for ckpt-plan and the command-line tools.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_BUDGET_H
#define CKPT_SOLVER_BUDGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

/// A budget as the user wrote it: bytes, or a percentage of the store-all peak.
struct BudgetSpec {
  bool percent = false;
  double value = 0; ///< bytes, or percent (0 < value)
};

/// Budgets in bytes are below 2^63 (kept in signed 64-bit counts).
constexpr double kMaxBudgetBytes = 9223372036854775808.0; // 2^63

/// Parses "1048576", "512KiB", "1.5GiB", "2MB", "70%" (units B, KB, MB, GB,
/// KiB, MiB, GiB, TiB; decimal units are powers of 1000). Returns
/// std::nullopt and sets `error` on malformed input or a byte budget of
/// kMaxBudgetBytes or more.
std::optional<BudgetSpec> parseBudget(std::string_view text,
                                      std::string &error);

/// The budget in bytes, percentages taken of `reference`: at least 1 B (a
/// percentage of a step that holds no buffer is still a budget), and a huge
/// percentage saturates below 2^63.
int64_t budgetBytes(const BudgetSpec &spec, uint64_t reference);

} // namespace ckpt

#endif // CKPT_SOLVER_BUDGET_H
