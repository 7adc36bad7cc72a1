//===- CkptAttrs.td - ckpt dialect attributes --------------*- tablegen -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD
#define CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// The devices of the cost model, from the passes' `device=` option to
// `#ckpt.plan` and ckpt-report: each names a row of the solver's table
// (ckpt/Solver/Support/Devices.h: roofline and link to host memory), which
// ckpt::DeviceProfile::get looks up.
def Ckpt_Device : I32EnumAttr<"Device", "a device of the cost model", [
    I32EnumAttrCase<"H100", 0, "h100">,
    I32EnumAttrCase<"A100", 1, "a100">,
    I32EnumAttrCase<"V100", 2, "v100">,
    I32EnumAttrCase<"CPU", 3, "cpu">,
    I32EnumAttrCase<"GH200", 4, "gh200">]> {
  let cppNamespace = "::ckpt";
  let genSpecializedAttr = 0;
}

// A device, printed as its keyword (`a100`) and left out for h100; parsed
// from the keyword or, as plans were written before, a string ("a100").
def Ckpt_DeviceParameter : EnumParameter<Ckpt_Device> {
  let summary = "the device whose costs the plan is in (default: h100)";
  let parser = [{ parseDevice($_parser) }];
  let defaultValue = "::ckpt::Device::H100";
}

class Ckpt_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Ckpt_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// A non-negative floating-point parameter printed and parsed as a plain number.
def Ckpt_SecondsParameter : APFloatParameter<"time in seconds"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::APFloat> {
    // Accept integers too: `time = 0` reads better than `time = 0.0`.
    bool negative = ::mlir::succeeded($_parser.parseOptionalMinus());
    double value;
    uint64_t integer;
    ::mlir::OptionalParseResult asInteger =
        $_parser.parseOptionalInteger(integer);
    if (asInteger.has_value()) {
      if (::mlir::failed(*asInteger))
        return ::mlir::failure();
      value = static_cast<double>(integer);
    } else if ($_parser.parseFloat(value)) {
      return ::mlir::failure();
    }
    return ::llvm::APFloat(negative ? -value : value);
  }() }];
  let printer = [{ printSeconds($_printer, $_self) }];
}

def Ckpt_CostAttr : Ckpt_Attr<"Cost", "cost"> {
  let summary = "The cost of one operation: floating-point work, bytes moved, time";
  let description = [{
    The cost of executing one operation once, as the planner sees it:
    `flops` floating-point operations, `bytes` bytes read and written, and
    the predicted (or measured) `time` in seconds. Users may write or edit it
    to override the cost model.

    ```mlir
    %0 = linalg.matmul {ckpt.cost = #ckpt.cost<flops = 2048, bytes = 1536, time = 1.2e-06>} ...
    ```
  }];
  let parameters = (ins "uint64_t":$flops, "uint64_t":$bytes,
                        Ckpt_SecondsParameter:$time);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The time as a double, in seconds.
    double getSeconds() const { return getTime().convertToDouble(); }
  }];
}

def Ckpt_WorkAttr : Ckpt_Attr<"Work", "work"> {
  let summary = "The work of one operation, timed by the plan's device";
  let description = [{
    The work of executing one operation once, for an op the cost model does
    not know (an importer's `ckpt.opaque`): `flops` floating-point
    operations and `bytes` bytes read and written. Unlike `#ckpt.cost`, it
    holds no time: the cost model times it with the roofline of the device
    the step is planned for (`ckpt-plan device=`), so the same IR plans for
    any device. A `#ckpt.cost` or a measured profile on the same op wins.

    ```mlir
    %0 = ckpt.opaque "aten.cumsum"(%x) {ckpt.work = #ckpt.work<flops = 0, bytes = 2048>} : ...
    ```
  }];
  let parameters = (ins "uint64_t":$flops, "uint64_t":$bytes);
  let assemblyFormat = "`<` struct(params) `>`";
}

// A non-negative time in seconds that is 0 unless given (left out when 0).
def Ckpt_OptionalSecondsParameter : APFloatParameter<"time in seconds"> {
  let parser = Ckpt_SecondsParameter.parser;
  let printer = Ckpt_SecondsParameter.printer;
  let defaultValue = "::llvm::APFloat(0.0)";
  let comparator = "$_lhs.bitwiseIsEqual($_rhs)";
}

// A bracketed list of op positions: `[0, 1, 2, 1, 3]`.
def Ckpt_ScheduleParameter : ArrayRefParameter<"int64_t", "op positions"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
    ::llvm::SmallVector<int64_t> positions;
    if ($_parser.parseCommaSeparatedList(::mlir::AsmParser::Delimiter::Square,
          [&]() -> ::mlir::ParseResult {
            int64_t position;
            if ($_parser.parseInteger(position))
              return ::mlir::failure();
            positions.push_back(position);
            return ::mlir::success();
          }))
      return ::mlir::failure();
    return positions;
  }() }];
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer);
    $_printer << ']';
  }];
}

// A list of transfers, five integers each, `[[3, 0, 4, 5, 9], ...]`; stored
// flat. Left out when empty.
def Ckpt_TransfersParameter : OptionalArrayRefParameter<"int64_t", "transfers"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
    ::llvm::SmallVector<int64_t> flat;
    if ($_parser.parseCommaSeparatedList(::mlir::AsmParser::Delimiter::Square,
          [&]() -> ::mlir::ParseResult {
            ::llvm::SMLoc loc = $_parser.getCurrentLocation();
            size_t before = flat.size();
            if ($_parser.parseCommaSeparatedList(
                  ::mlir::AsmParser::Delimiter::Square,
                  [&]() -> ::mlir::ParseResult {
                    int64_t value;
                    if ($_parser.parseInteger(value))
                      return ::mlir::failure();
                    flat.push_back(value);
                    return ::mlir::success();
                  }))
              return ::mlir::failure();
            if (flat.size() - before != 5)
              return $_parser.emitError(loc)
                     << "a transfer is [op, result, offload_after, "
                        "offload_done, reload_after], got "
                     << (flat.size() - before) << " integers";
            return ::mlir::success();
          }))
      return ::mlir::failure();
    return flat;
  }() }];
  let printer = [{
    $_printer << '[';
    for (size_t i = 0; i < $_self.size(); i += 5) {
      if (i)
        $_printer << ", ";
      $_printer << '[';
      ::llvm::interleaveComma($_self.slice(i, 5), $_printer);
      $_printer << ']';
    }
    $_printer << ']';
  }];
}

def Ckpt_PlanAttr : Ckpt_Attr<"Plan", "plan"> {
  let summary = "The rematerialization plan of a training step: an op-level schedule";
  let description = [{
    What `ckpt-plan` decided for a step under `budget` bytes with
    `strategy`: the `schedule`, the order in which the step's top-level ops
    run, by their position in the step's block (0-based, the terminator
    aside), where an op that appears again is recomputed there; the `peak`
    bytes of live buffers and the `time` (seconds) of that schedule, from
    the memory simulation that predicts `ckpt-run`; and the peak and time of
    the step as written (`store_all_peak`, `store_all_time`: every op once,
    nothing recomputed). `lower_bound` (seconds, left out when 0) is the
    lower bound that `strategy = "ilp"` proved for the schedules of its
    program (Checkmate's: each stage's recomputations in the step's op
    order), not for every schedule: the plan is the program's optimum when
    it equals `time`, and another strategy may still find a cheaper
    schedule that recomputes in another order.
    `device` (left out for `h100`, the default) and `profile` (the measured
    op times file, left out when none) are the costs the times are in:
    `ckpt-report` describes the plan with them.

    `transfers` (left out when none; `ckpt-plan offload=auto`) are the
    values moved to host memory and back, five integers each:
    `[op, result, offload_after, offload_done, reload_after]` moves result
    `result` of the op at position `op` (the version live when execution
    `offload_after` of the schedule ends): it is offloaded after that
    execution, the step waits for the copy and frees the device buffer
    after execution `offload_done`, and reloads it after execution
    `reload_after` (offload_after <= offload_done <= reload_after and
    offload_after < reload_after), waiting for the reload before its next
    reader. `offload_done` equal to `offload_after` waits at once: the copy
    ends and the buffer is freed before the next execution starts. `peak`
    and `time` then count the transfers (the time with the stalls the link
    causes), and `host_peak` is the most bytes held in host memory.

    ```mlir
    ckpt.step @train(...) attributes {ckpt.plan = #ckpt.plan<strategy = "optimal",
        budget = 1000, peak = 960, time = 3.5e-06, store_all_peak = 1200,
        store_all_time = 3.0e-06, schedule = [0, 1, 2, 3, 4, 0, 1, 5, 6]>}
    ```
  }];
  let parameters = (ins StringRefParameter<"strategy">:$strategy,
                        "uint64_t":$budget, "uint64_t":$peak,
                        Ckpt_SecondsParameter:$time,
                        "uint64_t":$store_all_peak,
                        Ckpt_SecondsParameter:$store_all_time,
                        Ckpt_ScheduleParameter:$schedule,
                        Ckpt_OptionalSecondsParameter:$lower_bound,
                        Ckpt_DeviceParameter:$device,
                        StringRefParameter<"measured op times file", "\"\"">:$profile,
                        Ckpt_TransfersParameter:$transfers,
                        DefaultValuedParameter<"uint64_t", "0">:$host_peak);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// One transfer of `transfers`.
    struct Transfer {
      int64_t op, result, offloadAfter, offloadDone, reloadAfter;
    };
    size_t getNumTransfers() const { return getTransfers().size() / 5; }
    Transfer getTransfer(size_t i) const {
      ::llvm::ArrayRef<int64_t> t = getTransfers().slice(5 * i, 5);
      return {t[0], t[1], t[2], t[3], t[4]};
    }
  }];
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD
