//===- CkptBase.td - ckpt dialect definition ---------------*- tablegen -*-===//
//
// The training-step dialect: one training step (forward, loss, backward) and
// the rematerialization decisions taken on it.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTBASE_TD
#define CKPT_DIALECT_CKPT_IR_CKPTBASE_TD

include "mlir/IR/OpBase.td"

def Ckpt_Dialect : Dialect {
  let name = "ckpt";
  let summary = "Training steps and their activation-checkpointing plan";
  let description = [{
    The `ckpt` dialect holds one training step of a neural network
    (`ckpt.step`) together with the decisions that make it fit a memory
    budget: values the user keeps (`ckpt.checkpoint`), recomputation regions
    placed in the backward pass (`ckpt.recompute`) and early buffer frees
    (`ckpt.free`). Ops inside a step come from upstream dialects (linalg,
    tensor, arith, math, tosa, ...).
  }];
  let cppNamespace = "::ckpt";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined next to them, in CkptAttrs.cpp).
    void registerAttributes();
    /// Registers the types (CkptTypes.cpp).
    void registerTypes();
  }];
}

class Ckpt_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ckpt_Dialect, mnemonic, traits>;

#endif // CKPT_DIALECT_CKPT_IR_CKPTBASE_TD
