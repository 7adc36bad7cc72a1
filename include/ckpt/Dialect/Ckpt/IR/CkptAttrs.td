//===- CkptAttrs.td - ckpt dialect attributes --------------*- tablegen -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD
#define CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "mlir/IR/AttrTypeBase.td"

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

def Ckpt_StageAttr : Ckpt_Attr<"Stage", "stage"> {
  let summary = "One stage of a planned chain";
  let description = [{
    A stage of the chain the planner cut the forward pass into (1-based, the
    last one holds the loss), with how the plan first runs its forward:
    `all` (F_all: keep every value its backward reads), `ck` (F_ck: keep only
    its input) or `none` (F_none: keep nothing). `forward`/`backward` are the
    predicted times of its forward and backward ops (u_f, u_b), `input_bytes`
    the size of the separator it starts from (w_a of its input) and
    `saved_bytes` what F_all keeps (w_abar).
  }];
  let parameters = (ins "uint64_t":$index, StringRefParameter<"kind">:$kind,
                        "uint64_t":$ops,
                        Ckpt_SecondsParameter:$forward,
                        Ckpt_SecondsParameter:$backward,
                        "uint64_t":$input_bytes, "uint64_t":$saved_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// A bracketed list of stages: `[<index = 1, ...>, <index = 2, ...>]`.
def Ckpt_StageArrayParameter : ArrayRefParameter<"::ckpt::StageAttr", "stages"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<::ckpt::StageAttr>> {
    ::llvm::SmallVector<::ckpt::StageAttr> stages;
    if ($_parser.parseCommaSeparatedList(::mlir::AsmParser::Delimiter::Square,
          [&]() -> ::mlir::ParseResult {
            ::ckpt::StageAttr stage;
            if ($_parser.parseCustomAttributeWithFallback(stage))
              return ::mlir::failure();
            stages.push_back(stage);
            return ::mlir::success();
          }))
      return ::mlir::failure();
    return stages;
  }() }];
  let printer = [{
    $_printer << '[';
    ::llvm::interleaveComma($_self, $_printer, [&](::ckpt::StageAttr stage) {
      $_printer.printStrippedAttrOrType(stage);
    });
    $_printer << ']';
  }];
}

def Ckpt_PlanAttr : Ckpt_Attr<"Plan", "plan"> {
  let summary = "The rematerialization plan of a training step";
  let description = [{
    What `ckpt-plan` decided for a step under `budget` bytes with `strategy`:
    the `peak` bytes and `time` (seconds) the chain model predicts for the
    planned step, those of the store-all schedule (nothing recomputed), the
    stages and the operation sequence of the schedule (`Fall<l>`, `Fck<l>`,
    `Fn<l>`, `B<l>`, as in Beaumont et al. 2019), space separated, and
    `simulated_peak`: the peak of live buffers of the step once rewritten
    (recompute regions and frees), from the memory simulation (0: not
    simulated).
  }];
  let parameters = (ins StringRefParameter<"strategy">:$strategy,
                        "uint64_t":$budget, "uint64_t":$peak,
                        Ckpt_SecondsParameter:$time,
                        "uint64_t":$store_all_peak,
                        Ckpt_SecondsParameter:$store_all_time,
                        Ckpt_StageArrayParameter:$stages,
                        StringRefParameter<"sequence">:$sequence,
                        DefaultValuedParameter<"uint64_t", "0">:$simulated_peak);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD
