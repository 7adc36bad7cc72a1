//===- CkptAttrs.cpp - ckpt dialect attributes ----------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace ckpt;

/// Prints a time in seconds as `printFloat` does, except that a value whose
/// decimal form has no '.' (a large integral time, such as the costs of
/// imported graphs) is printed as that integer, which the parser reads,
/// instead of as a hexadecimal bit pattern.
static void printSeconds(AsmPrinter &printer, const llvm::APFloat &value) {
  double seconds = value.convertToDouble();
  if (std::isfinite(seconds) && seconds >= 0.0 &&
      seconds < 18446744073709551616.0 && seconds == std::floor(seconds)) {
    // printFloat's first choice: six digits in exponential form, when exact.
    llvm::SmallString<32> scientific;
    value.toString(scientific, /*FormatPrecision=*/6, /*FormatMaxPadding=*/0,
                   /*TruncateZero=*/false);
    llvm::SmallString<32> text;
    value.toString(text);
    if (!llvm::APFloat(value.getSemantics(), scientific)
             .bitwiseIsEqual(value) &&
        llvm::StringRef(text).find_first_not_of("0123456789") ==
            llvm::StringRef::npos &&
        llvm::APFloat(value.getSemantics(), text).bitwiseIsEqual(value)) {
      printer << text;
      return;
    }
  }
  printer.printFloat(value);
}

#include "ckpt/Dialect/Ckpt/IR/CkptEnums.cpp.inc"

/// A device of #ckpt.plan: its keyword, or the same as a string.
static FailureOr<ckpt::Device> parseDevice(AsmParser &parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (failed(parser.parseOptionalString(&name))) {
    StringRef keyword;
    if (failed(parser.parseOptionalKeyword(&keyword)))
      return parser.emitError(loc, "expected a device name");
    name = keyword.str();
  }
  if (std::optional<ckpt::Device> device = symbolizeDevice(name))
    return *device;
  std::string names;
  for (uint32_t i = 0; i <= getMaxEnumValForDevice(); ++i)
    names += (i ? ", " : "") + stringifyDevice(static_cast<Device>(i)).str();
  return parser.emitError(loc, "unknown plan device '")
         << name << "': expected " << names;
}

#define GET_ATTRDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.cpp.inc"

LogicalResult CostAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               uint64_t /*flops*/, uint64_t /*bytes*/,
                               llvm::APFloat time) {
  double seconds = time.convertToDouble();
  if (!std::isfinite(seconds) || seconds < 0.0)
    return emitError() << "cost time must be a finite, non-negative number "
                          "of seconds, got "
                       << seconds;
  return success();
}

LogicalResult PlanAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef /*strategy*/,
    uint64_t /*budget*/, uint64_t /*peak*/, llvm::APFloat time,
    uint64_t /*storeAllPeak*/, llvm::APFloat storeAllTime,
    ArrayRef<int64_t> schedule, llvm::APFloat lowerBound, Device /*device*/,
    StringRef /*profile*/, ArrayRef<int64_t> transfers, uint64_t /*hostPeak*/) {
  for (const llvm::APFloat &value : {time, storeAllTime, lowerBound}) {
    double seconds = value.convertToDouble();
    if (!std::isfinite(seconds) || seconds < 0.0)
      return emitError() << "plan times must be finite and non-negative";
  }
  for (int64_t position : schedule)
    if (position < 0)
      return emitError() << "schedule positions must be non-negative, got "
                         << position;
  if (transfers.size() % 5)
    return emitError() << "transfers hold five integers each";
  const int64_t executions = static_cast<int64_t>(schedule.size());
  for (size_t i = 0; i < transfers.size(); i += 5) {
    int64_t op = transfers[i], result = transfers[i + 1],
            after = transfers[i + 2], done = transfers[i + 3],
            reload = transfers[i + 4];
    auto bad = [&]() {
      return emitError() << "transfer " << i / 5 << " [" << op << ", " << result
                         << ", " << after << ", " << done << ", " << reload
                         << "]: ";
    };
    if (op < 0 || result < 0)
      return bad() << "op and result must be non-negative";
    if (after < 0 || after >= executions)
      return bad() << "offload_after must be an execution of the schedule "
                      "(0 to "
                   << executions - 1 << ")";
    // Equal: the step waits for the copy at once, before the next
    // execution.
    if (done < after || done >= executions)
      return bad() << "offload_done must be offload_after or an execution "
                      "after it (up to "
                   << executions - 1 << ")";
    // A value never reloaded is never read again: it is freed, not moved.
    if (reload <= after || reload >= executions)
      return bad() << "reload_after must be an execution after offload_after "
                      "(up to "
                   << executions - 1 << ")";
    if (done > reload)
      return bad() << "offload_done must be at or before reload_after";
  }
  return success();
}

void CkptDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.cpp.inc"
      >();
}
