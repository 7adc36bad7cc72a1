//===- PassOptions.h - closed-set options of ckpt passes --------*- C++ -*-===//
//
// The enum types behind the ckpt passes' and pipelines' options that take one
// of a closed set of values (`fit=`, `dealloc=`, `format=`, `math=`; `device=`
// takes the dialect's ckpt::Device), and the command-line parser they use (and
// the parser of the typed options: `strategy=`, `budget=`, ...): a value
// outside the set is rejected when the options are parsed, with a message that
// lists the valid values (llvm::cl's own parser only says "Cannot find option
// named").
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_PASSOPTIONS_H
#define CKPT_TRANSFORMS_PASSOPTIONS_H

#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.h"
#include "ckpt/Solver/Schedule/PlanStrategy.h"
#include "ckpt/Solver/Support/Budget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace ckpt {

/// `fit=`: what must fit the budget.
enum class FitMode { Simulation, Model };

/// `offload=` of ckpt-plan: whether values may move to host memory.
enum class OffloadMode { Off, Auto };

/// `dealloc=`: who frees the buffers of a lowered step.
enum class DeallocMode { Ckpt, Upstream, None };

/// `kernels=` of ckpt-lower-to-cpu: how contractions and convolutions run.
enum class KernelMode { Loops, Blas };

/// `runtime=` of ckpt-async-host-copies: whose copy functions it calls.
enum class CopyRuntime { Cpu, Cuda };

/// `runtime=` of ckpt-call-kernels: whose kernels it calls.
enum class KernelRuntime { Cpu, Cuda };

/// `format=` of ckpt-lower-to-nvptx: the GPU binary embedded in the module.
enum class GPUFormat { Isa, Bin, Fatbin };

/// `math=` of ckpt-lower-to-nvptx: where kernels' math functions come from.
enum class MathMode { Auto, Libdevice, Approx };

/// Numeric and budget options checked when the options are parsed (like
/// the closed sets and `strategy=`): a bad value is an error before any step
/// is looked at. Each converts to the value it holds.

/// `slots=` (0: exact sizes) and `node-limit=` (0: none).
struct NonNegativeCount {
  int64_t value = 0;
  operator int64_t() const { return value; }
};

/// `time-limit=`: seconds, more than 0.
struct PositiveSeconds {
  double value = 60;
  operator double() const { return value; }
};

/// `ilp-memory=`: bytes with a unit, or a percentage of the machine's memory
/// (parseBudget's syntax).
struct MemoryLimitSpec {
  BudgetSpec spec;
};

inline bool operator==(const BudgetSpec &a, const BudgetSpec &b) {
  return a.percent == b.percent && a.value == b.value;
}
inline bool operator!=(const BudgetSpec &a, const BudgetSpec &b) {
  return !(a == b);
}
inline bool operator!=(const NonNegativeCount &a, const NonNegativeCount &b) {
  return a.value != b.value;
}
inline bool operator!=(const PositiveSeconds &a, const PositiveSeconds &b) {
  return a.value != b.value;
}
inline bool operator!=(const MemoryLimitSpec &a, const MemoryLimitSpec &b) {
  return a.spec != b.spec;
}

/// How the options print these values (MLIR prints pass options back):
/// as they parse.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const BudgetSpec &budget);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const NonNegativeCount &count);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const PositiveSeconds &seconds);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const MemoryLimitSpec &limit);
namespace sched {
/// Prints the canonical spelling (MLIR prints pass options with it).
llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                              const PlanStrategy &strategy);
} // namespace sched

/// Parses an option value of type T; std::nullopt with `error` set when it
/// is not one.
std::optional<BudgetSpec> parseOptionValue(llvm::StringRef text, BudgetSpec *,
                                           std::string &error);
std::optional<NonNegativeCount>
parseOptionValue(llvm::StringRef text, NonNegativeCount *, std::string &error);
std::optional<PositiveSeconds>
parseOptionValue(llvm::StringRef text, PositiveSeconds *, std::string &error);
std::optional<MemoryLimitSpec>
parseOptionValue(llvm::StringRef text, MemoryLimitSpec *, std::string &error);
/// `strategy=`: PlanStrategy::parse, so that a bad value is an error when
/// the options are parsed, with or without a step to plan.
std::optional<sched::PlanStrategy> parseOptionValue(llvm::StringRef text,
                                                    sched::PlanStrategy *,
                                                    std::string &error);

/// The error of a value outside what an option takes: "'x' is not a valid
/// value: expected EXPECTED", for every option of the passes.
std::string notValidOptionValue(llvm::StringRef text, llvm::StringRef expected);

/// How --help names a value of those types ("--budget=<budget>").
inline llvm::StringRef optionValueName(BudgetSpec *) { return "budget"; }
inline llvm::StringRef optionValueName(NonNegativeCount *) { return "uint"; }
inline llvm::StringRef optionValueName(PositiveSeconds *) { return "seconds"; }
inline llvm::StringRef optionValueName(MemoryLimitSpec *) { return "memory"; }
inline llvm::StringRef optionValueName(sched::PlanStrategy *) {
  return "strategy";
}

/// llvm::cl's parser for those types: parseOptionValue, its error as the
/// option's ("for the --budget option: invalid budget 'lots': ...").
template <typename T>
class CheckedOptionParser : public llvm::cl::basic_parser<T> {
public:
  CheckedOptionParser(llvm::cl::Option &option)
      : llvm::cl::basic_parser<T>(option) {}
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             T &value) {
    std::string error;
    std::optional<T> parsed =
        parseOptionValue(arg, static_cast<T *>(nullptr), error);
    if (!parsed)
      return option.error(error);
    value = *parsed;
    return false;
  }
  llvm::StringRef getValueName() const override {
    return optionValueName(static_cast<T *>(nullptr));
  }
  void printOptionDiff(const llvm::cl::Option &option, const T &value,
                       const llvm::cl::OptionValue<T> &,
                       size_t globalWidth) const {
    this->printOptionName(option, globalWidth);
    llvm::outs() << "= " << value << "\n";
  }
};

/// The option spelling of a value ("fatbin", ...), for the APIs that take it
/// as text (MLIR's gpu-module-to-binary).
llvm::StringRef stringify(GPUFormat value);

/// llvm::cl::parser<E> with a better error: "'x' is not a valid value:
/// expected a, b or c". Same layout as llvm::cl::parser<E> (a `Values` list
/// of name/value pairs), so MLIR's pass options can print the value back.
template <typename E>
class EnumOptionParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(llvm::StringRef name, E v, llvm::StringRef helpStr)
        : GenericOptionInfo(name, helpStr), V(v) {}
    llvm::cl::OptionValue<E> V;
  };
  llvm::SmallVector<OptionInfo, 8> Values;

public:
  EnumOptionParser(llvm::cl::Option &owner) : generic_parser_base(owner) {}

  using parser_data_type = E;

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override {
    return Values[n].Name;
  }
  llvm::StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &
  getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, E &value) {
    llvm::StringRef text = Owner.hasArgStr() ? arg : argName;
    for (const OptionInfo &info : Values)
      if (info.Name == text) {
        value = info.V.getValue();
        return false;
      }
    std::string expected;
    for (size_t i = 0; i < Values.size(); ++i) {
      if (i)
        expected += i + 1 == Values.size() ? " or " : ", ";
      expected += Values[i].Name.str();
    }
    return option.error(notValidOptionValue(text, expected));
  }

  template <class DT>
  void addLiteralOption(llvm::StringRef name, const DT &v,
                        llvm::StringRef helpStr) {
    Values.push_back(OptionInfo(name, static_cast<E>(v), helpStr));
    AddLiteralOption(Owner, name);
  }

  void removeLiteralOption(llvm::StringRef name) {
    Values.erase(Values.begin() + findOption(name));
  }
};

} // namespace ckpt

/// The values of each option, for ODS `Option`s and pipeline options alike.
#define CKPT_FIT_VALUES                                                        \
  ::llvm::cl::values(clEnumValN(::ckpt::FitMode::Simulation, "simulation",     \
                                "the simulated peak of the schedule"),         \
                     clEnumValN(::ckpt::FitMode::Model, "model",               \
                                "the chain model's peak (Theorem 1)"))
#define CKPT_OFFLOAD_VALUES                                                    \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::OffloadMode::Off, "off", "recomputation only"),       \
      clEnumValN(::ckpt::OffloadMode::Auto, "auto",                            \
                 "recompute or offload over the device's link"))
#define CKPT_KERNEL_VALUES                                                     \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::KernelMode::Loops, "loops",                           \
                 "every linalg op as loops (convert-linalg-to-loops)"),        \
      clEnumValN(::ckpt::KernelMode::Blas, "blas",                             \
                 "f32 contractions and convolutions as calls to the "          \
                 "runtime's BLAS kernels (ckpt-call-kernels)"))

#define CKPT_COPY_RUNTIME_VALUES                                               \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::CopyRuntime::Cpu, "cpu",                              \
                 "ckptRuntimeCopyAsync / ckptRuntimeWaitCopy: the ckpt "       \
                 "runtime's copy thread"),                                     \
      clEnumValN(::ckpt::CopyRuntime::Cuda, "cuda",                            \
                 "ckptCudaCopyAsync / ckptCudaWaitCopy: a CUDA copy stream"))

#define CKPT_KERNEL_RUNTIME_VALUES                                             \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::KernelRuntime::Cpu, "cpu",                            \
                 "the ckpt runtime's kernels over OpenBLAS, on the host"),     \
      clEnumValN(::ckpt::KernelRuntime::Cuda, "cuda",                          \
                 "contractions on cuBLAS and convolutions on cuDNN (the "      \
                 "CUDA runtime's), where their layout allows"))

#define CKPT_DEALLOC_VALUES                                                    \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::DeallocMode::Ckpt, "ckpt",                            \
                 "the plan's ckpt.free ops, as memref.dealloc"),               \
      clEnumValN(::ckpt::DeallocMode::Upstream, "upstream",                    \
                 "MLIR's buffer-deallocation-pipeline (frees ignored)"),       \
      clEnumValN(::ckpt::DeallocMode::None, "none", "nothing is freed"))
#define CKPT_GPU_FORMAT_VALUES                                                 \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::GPUFormat::Isa, "isa", "PTX text"),                   \
      clEnumValN(::ckpt::GPUFormat::Bin, "bin", "cubin (ptxas)"),              \
      clEnumValN(::ckpt::GPUFormat::Fatbin, "fatbin",                          \
                 "fat binary (ptxas, fatbinary)"))
#define CKPT_MATH_VALUES                                                       \
  ::llvm::cl::values(                                                          \
      clEnumValN(::ckpt::MathMode::Auto, "auto",                               \
                 "libdevice when the toolkit has it, else approx"),            \
      clEnumValN(::ckpt::MathMode::Libdevice, "libdevice",                     \
                 "the toolkit's libdevice, linked into the PTX"),              \
      clEnumValN(::ckpt::MathMode::Approx, "approx",                           \
                 "polynomial approximations, no libdevice"))

/// llvm::cl::parser<E> for each enum: the parser above.
#define CKPT_ENUM_OPTION_PARSER(E)                                             \
  namespace llvm {                                                             \
  namespace cl {                                                               \
  template <> class parser<E> : public ::ckpt::EnumOptionParser<E> {           \
  public:                                                                      \
    using EnumOptionParser::EnumOptionParser;                                  \
  };                                                                           \
  }                                                                            \
  }
CKPT_ENUM_OPTION_PARSER(::ckpt::FitMode)
CKPT_ENUM_OPTION_PARSER(::ckpt::OffloadMode)

#define CKPT_CHECKED_OPTION_PARSER(T)                                          \
  namespace llvm {                                                             \
  namespace cl {                                                               \
  template <> class parser<T> : public ::ckpt::CheckedOptionParser<T> {        \
  public:                                                                      \
    using CheckedOptionParser::CheckedOptionParser;                            \
  };                                                                           \
  }                                                                            \
  }
CKPT_CHECKED_OPTION_PARSER(::ckpt::BudgetSpec)
CKPT_CHECKED_OPTION_PARSER(::ckpt::NonNegativeCount)
CKPT_CHECKED_OPTION_PARSER(::ckpt::PositiveSeconds)
CKPT_CHECKED_OPTION_PARSER(::ckpt::MemoryLimitSpec)
CKPT_CHECKED_OPTION_PARSER(::ckpt::sched::PlanStrategy)
#undef CKPT_CHECKED_OPTION_PARSER

namespace llvm {
namespace cl {
/// `device=`: the devices of the dialect's enum (CkptAttrs.td), each with the
/// description of its row of the table (Devices.h).
template <>
class parser<::ckpt::Device> : public ::ckpt::EnumOptionParser<::ckpt::Device> {
public:
  using EnumOptionParser::EnumOptionParser;
  void initialize();
};
} // namespace cl
} // namespace llvm
CKPT_ENUM_OPTION_PARSER(::ckpt::DeallocMode)
CKPT_ENUM_OPTION_PARSER(::ckpt::KernelMode)
CKPT_ENUM_OPTION_PARSER(::ckpt::CopyRuntime)
CKPT_ENUM_OPTION_PARSER(::ckpt::KernelRuntime)
CKPT_ENUM_OPTION_PARSER(::ckpt::GPUFormat)
CKPT_ENUM_OPTION_PARSER(::ckpt::MathMode)
#undef CKPT_ENUM_OPTION_PARSER

#endif // CKPT_TRANSFORMS_PASSOPTIONS_H
