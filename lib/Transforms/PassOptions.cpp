//===- PassOptions.cpp - closed-set options of ckpt passes ----------------===//

#include "ckpt/Transforms/PassOptions.h"
#include "ckpt/Solver/Support/Devices.h"
#include "ckpt/Transforms/ListValidOptions.h"

#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>

using namespace ckpt;

void llvm::cl::parser<Device>::initialize() {
  for (uint32_t i = 0; i <= getMaxEnumValForDevice(); ++i) {
    auto device = static_cast<Device>(i);
    StringRef name = stringifyDevice(device);
    const solver::DeviceSpec *spec = solver::findDeviceSpec(name);
    addLiteralOption(name, device, spec ? spec->description : "");
  }
}

llvm::StringRef ckpt::stringify(GPUFormat value) {
  switch (value) {
  case GPUFormat::Isa:
    return "isa";
  case GPUFormat::Bin:
    return "bin";
  case GPUFormat::Fatbin:
    return "fatbin";
  }
  return "fatbin";
}

/// The shortest text that reads back as `value` ("70", "0.5", "33.3...").
static std::string shortest(double value) {
  char text[64];
  std::to_chars_result end = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, end.ptr);
}

llvm::raw_ostream &ckpt::operator<<(llvm::raw_ostream &os,
                                    const BudgetSpec &budget) {
  if (budget.percent)
    return os << shortest(budget.value) << "%";
  // Bytes are whole (parseBudget drops a fraction) and below 2^63.
  return os << static_cast<uint64_t>(budget.value);
}

llvm::raw_ostream &ckpt::operator<<(llvm::raw_ostream &os,
                                    const NonNegativeCount &count) {
  return os << count.value;
}

llvm::raw_ostream &ckpt::operator<<(llvm::raw_ostream &os,
                                    const PositiveSeconds &seconds) {
  return os << shortest(seconds.value);
}

llvm::raw_ostream &ckpt::operator<<(llvm::raw_ostream &os,
                                    const MemoryLimitSpec &limit) {
  return os << limit.spec;
}

std::string ckpt::notValidOptionValue(llvm::StringRef text,
                                      llvm::StringRef expected) {
  return "'" + text.str() + "' is not a valid value: expected " +
         expected.str();
}

std::optional<BudgetSpec>
ckpt::parseOptionValue(llvm::StringRef text, BudgetSpec *, std::string &error) {
  return parseBudget(std::string_view(text.data(), text.size()), error);
}

std::optional<NonNegativeCount> ckpt::parseOptionValue(llvm::StringRef text,
                                                       NonNegativeCount *,
                                                       std::string &error) {
  int64_t value;
  if (text.getAsInteger(10, value) || value < 0) {
    error = notValidOptionValue(text, "0 or a positive integer");
    return std::nullopt;
  }
  return NonNegativeCount{value};
}

std::optional<PositiveSeconds> ckpt::parseOptionValue(llvm::StringRef text,
                                                      PositiveSeconds *,
                                                      std::string &error) {
  double value;
  if (text.getAsDouble(value) || !(value > 0) || !std::isfinite(value)) {
    error = notValidOptionValue(text, "a positive number of seconds");
    return std::nullopt;
  }
  return PositiveSeconds{value};
}

std::optional<MemoryLimitSpec> ckpt::parseOptionValue(llvm::StringRef text,
                                                      MemoryLimitSpec *,
                                                      std::string &error) {
  std::string why;
  std::optional<BudgetSpec> spec =
      parseBudget(std::string_view(text.data(), text.size()), why);
  if (!spec) {
    error = notValidOptionValue(
        text, std::string("a number of bytes with an optional "
                          "unit (") +
                  kBudgetUnits +
                  ", in any case) or a percentage of the "
                  "machine's memory such as '50%'");
    return std::nullopt;
  }
  return MemoryLimitSpec{*spec};
}

llvm::raw_ostream &ckpt::sched::operator<<(llvm::raw_ostream &os,
                                           const PlanStrategy &strategy) {
  return os << strategy.str();
}

std::optional<sched::PlanStrategy> ckpt::parseOptionValue(llvm::StringRef text,
                                                          sched::PlanStrategy *,
                                                          std::string &error) {
  return sched::PlanStrategy::parse(std::string_view(text.data(), text.size()),
                                    error);
}

std::string ckpt::listPassOptions(mlir::Pass &pass) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pass.printAsTextualPipeline(os);
  llvm::StringRef rest(text);
  size_t open = rest.find('{');
  if (open == llvm::StringRef::npos || !rest.ends_with("}"))
    return "";
  rest = rest.slice(open + 1, rest.size() - 1);
  // `name=value name=value ...`; a value may hold spaces inside braces or
  // quotes.
  std::string names;
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && rest[i] == ' ')
      ++i;
    size_t eq = rest.find('=', i);
    if (eq == llvm::StringRef::npos)
      break;
    if (!names.empty())
      names += ", ";
    names += rest.slice(i, eq).str();
    int depth = 0;
    char quote = 0;
    for (i = eq + 1; i < rest.size(); ++i) {
      char c = rest[i];
      if (quote) {
        if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      } else if (c == ' ' && depth == 0) {
        break;
      }
    }
  }
  return names;
}
