//===- BudgetTest.cpp - budgets as users write and read them
//---------------===//
//
// Every figure printed for a byte count plans when pasted back: the exact
// bytes always, the unit figure of a least budget (rounded up) too; units in
// any case.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Support/Budget.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace ckpt;

namespace {

/// The budget in bytes `text` parses to (fails the test if it does not).
double parsed(const std::string &text) {
  std::string error;
  std::optional<BudgetSpec> spec = parseBudget(text, error);
  EXPECT_TRUE(spec) << text << ": " << error;
  EXPECT_FALSE(spec && spec->percent) << text;
  return spec ? spec->value : -1;
}

TEST(Budget, PrintedFiguresPasteBack) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> cases = {1,
                                 1023,
                                 1024,
                                 1025,
                                 30224,
                                 1386256,
                                 1048575,
                                 1048576,
                                 1048577,
                                 13153337344,
                                 8287944704,
                                 (1ull << 40) - 1,
                                 (1ull << 40) + 1};
  for (int i = 0; i < 2000; ++i)
    cases.push_back((rng() >> 1) >> (rng() % 60)); // below 2^63
  for (uint64_t bytes : cases) {
    if (bytes == 0)
      continue;
    std::string text = formatBytes(bytes, /*roundUp=*/true);
    // "N B" first: exactly the bytes.
    size_t space = text.find(" B");
    ASSERT_NE(space, std::string::npos) << text;
    EXPECT_EQ(parsed(text.substr(0, space)), static_cast<double>(bytes))
        << text;
    if (bytes < 1024) {
      EXPECT_EQ(text, std::to_string(bytes) + " B");
      continue;
    }
    // "(X.YY UNIT)": at least the bytes, and less than one hundredth of the
    // unit more.
    size_t open = text.find('('), close = text.find(')');
    ASSERT_TRUE(open != std::string::npos && close != std::string::npos)
        << text;
    std::string figure = text.substr(open + 1, close - open - 1);
    std::string compact = figure;
    compact.erase(compact.find(' '), 1); // "1.33MiB", as users paste it
    double back = parsed(compact);
    EXPECT_GE(back, static_cast<double>(bytes)) << text;
    std::string unit = figure.substr(figure.find(' ') + 1);
    double scale = unit == "KiB"   ? 1024.0
                   : unit == "MiB" ? 1048576.0
                   : unit == "GiB" ? 1073741824.0
                                   : 1099511627776.0;
    EXPECT_LT(back - static_cast<double>(bytes), scale / 100 + 1) << text;
  }
}

TEST(Budget, UnitsInAnyCase) {
  EXPECT_EQ(parsed("5gb"), 5e9);
  EXPECT_EQ(parsed("5GB"), 5e9);
  EXPECT_EQ(parsed("2 mib"), 2.0 * 1048576);
  EXPECT_EQ(parsed("1.5GiB"), 1.5 * 1073741824);
  EXPECT_EQ(parsed("3tb"), 3e12);
  EXPECT_EQ(parsed("512KIB"), 512.0 * 1024);
  std::string error;
  EXPECT_FALSE(parseBudget("5 gigabytes", error));
  EXPECT_NE(error.find("in any case"), std::string::npos) << error;
}

TEST(Budget, NearestFigureForBudgets) {
  // Budgets (not least budgets) print their unit figure rounded to nearest.
  EXPECT_EQ(formatBytes(400000), "400000 B (390.62 KiB)");
  EXPECT_EQ(formatBytes(1386256), "1386256 B (1.32 MiB)");
  EXPECT_EQ(formatBytes(1386256, /*roundUp=*/true), "1386256 B (1.33 MiB)");
}

} // namespace
