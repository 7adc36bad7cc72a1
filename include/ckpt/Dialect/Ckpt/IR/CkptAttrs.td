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
  let printer = [{ $_printer.printFloat($_self) }];
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

#endif // CKPT_DIALECT_CKPT_IR_CKPTATTRS_TD
