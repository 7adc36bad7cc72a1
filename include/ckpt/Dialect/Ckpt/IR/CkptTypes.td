//===- CkptTypes.td - ckpt dialect types -------------------*- tablegen -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTTYPES_TD
#define CKPT_DIALECT_CKPT_IR_CKPTTYPES_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Ckpt_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Ckpt_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Ckpt_HostType : Ckpt_Type<"Host", "host"> {
  let summary = "A copy of a tensor in host memory";
  let description = [{
    The host-memory copy of a device tensor that `ckpt.offload` made: it
    takes no device memory, and is read back only by `ckpt.reload`.

    ```mlir
    !ckpt.host<tensor<8x16xf32>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$tensor);
  let assemblyFormat = "`<` $tensor `>`";
}

def Ckpt_EventType : Ckpt_Type<"Event", "event"> {
  let summary = "The completion of an asynchronous copy";
  let description = [{
    Completes when the copy that produced it (`ckpt.offload`,
    `ckpt.reload`) has ended; `ckpt.wait` waits for it.
  }];
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTTYPES_TD
