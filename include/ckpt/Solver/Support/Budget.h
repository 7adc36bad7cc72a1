//===- Budget.h - memory budgets as users write them ------------*- C++ -*-===//
//
// "1048576", "512KiB", "1.5GiB", "2MB" or "70%" (of a store-all peak): the
// one parser of budgets, for ckpt-plan and the command-line tools.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SOLVER_SUPPORT_BUDGET_H
#define CKPT_SOLVER_SUPPORT_BUDGET_H

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

/// The units a budget may carry, as --help lists them.
constexpr const char *kBudgetUnits = "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB";

/// Parses "1048576", "512KiB", "1.5GiB", "2MB", "70%" (units B, KB, MB, GB,
/// TB, KiB, MiB, GiB, TiB in any case, e.g. "5gb", "512kib"; decimal units are
/// powers of 1000; a fraction of a byte is dropped). Returns
/// std::nullopt and sets `error` on malformed input or a byte budget of
/// kMaxBudgetBytes or more.
std::optional<BudgetSpec> parseBudget(std::string_view text,
                                      std::string &error);

/// "1386256 B (1.33 MiB)": the exact bytes first, then the figure in the
/// largest binary unit it reaches (nothing more below 1 KiB). With `roundUp`
/// the unit figure is rounded up to two decimals so that pasting it back as a
/// budget gives at least `bytes` (for least feasible budgets); otherwise it is
/// rounded to nearest.
std::string formatBytes(uint64_t bytes, bool roundUp = false);

/// The budget in bytes, percentages taken of `reference`: at least 1 B (a
/// percentage of a step that holds no buffer is still a budget), and a huge
/// percentage saturates below 2^63.
int64_t budgetBytes(const BudgetSpec &spec, uint64_t reference);

} // namespace ckpt

#endif // CKPT_SOLVER_SUPPORT_BUDGET_H
