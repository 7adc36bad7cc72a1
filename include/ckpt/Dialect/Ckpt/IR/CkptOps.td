//===- CkptOps.td - ckpt dialect operations ----------------*- tablegen -*-===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTOPS_TD
#define CKPT_DIALECT_CKPT_IR_CKPTOPS_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "ckpt/Dialect/Ckpt/IR/CkptTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// StepOp
//===----------------------------------------------------------------------===//

def Ckpt_StepOp : Ckpt_Op<"step", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove
  ]> {
  let summary = "One training step: forward, loss and backward in one block";
  let description = [{
    A function-like op that defines a symbol and holds one training step in a
    single block. Its arguments are the step's inputs (parameters, data,
    labels): they live outside the memory budget and are never recomputed or
    freed. Its terminator, `ckpt.return`, returns the step's results and names
    which of them is the loss. The forward pass is the set of ops the loss
    depends on; every other op belongs to the backward pass.

    ```mlir
    ckpt.step @train(%w: tensor<4x4xf32>, %x: tensor<4xf32>) -> (f32, tensor<4x4xf32>) {
      ...
      ckpt.return %loss, %dw : f32, tensor<4x4xf32> loss(0)
    }
    ```
  }];

  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);

  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];

  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//

    /// The body of a step is its callable region.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }

    //===------------------------------------------------------------------===//
    // Training-step queries
    //===------------------------------------------------------------------===//

    /// The terminator of the step's block.
    ReturnOp getReturnOp();
    /// Index of the result that is the loss.
    unsigned getLossIndex();
    /// The SSA value returned as the loss.
    ::mlir::Value getLoss();
  }];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

def Ckpt_ReturnOp : Ckpt_Op<"return", [
    Pure, HasParent<"StepOp">, ReturnLike, Terminator
  ]> {
  let summary = "Terminates a training step and names its loss";
  let description = [{
    Returns the step's results. `loss(i)` names the result that is the loss:
    exactly one per step, of scalar-like type (a float, or a float tensor
    holding one element).

    ```mlir
    ckpt.return %loss, %grad : f32, tensor<4xf32> loss(0)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$loss);
  let assemblyFormat = [{
    ($operands^ `:` type($operands))? `loss` `(` $loss `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// CheckpointOp
//===----------------------------------------------------------------------===//

def Ckpt_CheckpointOp : Ckpt_Op<"checkpoint", [
    NoMemoryEffect, SameOperandsAndResultType
  ]> {
  let summary = "Marks a value the user wants kept (never recomputed)";
  let description = [{
    An identity: the result is the operand. It tells the planner (strategy
    `manual`, openai's "collection" mode, and strategy `keep`, PyTorch's
    selective activation checkpointing) that the user wants this value kept
    in memory from the forward to the backward pass. It runs nothing and
    costs nothing.

    ```mlir
    %h = ckpt.checkpoint %z : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// RecomputeOp
//===----------------------------------------------------------------------===//

def Ckpt_RecomputeOp : Ckpt_Op<"recompute", [
    IsolatedFromAbove, RecursiveMemoryEffects
  ]> {
  let summary = "Recomputes values from values that are kept";
  let description = [{
    Runs ops of the step again where the schedule of the step's plan runs
    them a second (or later) time. The region receives what it reads from
    outside (`inputs`) as block arguments and yields the recomputed values
    that later ops read, which are the op's results. The region is isolated
    from above: all it reads comes through the operands. It may hold only
    side-effect-free ops (and `ckpt.free` of its own temporaries), so running
    it again gives the same values. `ckpt-inline-recompute` replaces it by
    its ops before bufferization.

    ```mlir
    %r = ckpt.recompute (%a) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>):
      %y = math.tanh %x : tensor<4xf32>
      ckpt.yield %y : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The terminator of the region.
    YieldOp getYieldOp();
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Ckpt_YieldOp : Ckpt_Op<"yield", [
    Pure, HasParent<"RecomputeOp">, ReturnLike, Terminator
  ]> {
  let summary = "Yields the recomputed values of a `ckpt.recompute` region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

//===----------------------------------------------------------------------===//
// FreeOp
//===----------------------------------------------------------------------===//

def Ckpt_FreeOp : Ckpt_Op<"free", [MemoryEffects<[MemFree]>]> {
  let summary = "The buffer of a value is dead from this point";
  let description = [{
    Declares that the buffer holding `value` is no longer needed. The value
    must be defined by an op in the same block (step arguments belong to the
    user and are never freed) and, for a tensor, must not be used after this
    op. Bufferization turns it into a `ckpt.free` of the memref, which marks
    the allocation as freeable (its aliases may still be read: bufferization
    can share buffers differently than the tensor-level model); then
    `ckpt-lower-frees` deallocates the allocation after the last use of any
    of its aliases.

    ```mlir
    ckpt.free %h : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyShaped:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Offloading: OffloadOp, ReloadOp, WaitOp
//===----------------------------------------------------------------------===//

def Ckpt_OffloadOp : Ckpt_Op<"offload", [
    TypesMatchWith<"the host copy holds the value's type", "value", "host",
                   "::ckpt::HostType::get($_self.getContext(), "
                   "::llvm::cast<::mlir::RankedTensorType>($_self))">
  ]> {
  let summary = "Start copying a tensor to host memory";
  let description = [{
    Starts an asynchronous copy of `value` to host memory and returns the
    host copy and an event that completes when the copy has ended. Until
    then the device buffer of `value` must stay; after a `ckpt.wait` on the
    event it may be freed (`ckpt.free`). The host copy takes no device
    memory and is read only by `ckpt.reload`. The planner places these ops
    where offloading a value is cheaper than keeping or recomputing it
    (docs/PLANNING.md, section 7).

    ```mlir
    %h, %off = ckpt.offload %a : tensor<8x16xf32>
    ...
    ckpt.wait %off
    ckpt.free %a : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value);
  let results = (outs Ckpt_HostType:$host, Ckpt_EventType:$done);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Ckpt_ReloadOp : Ckpt_Op<"reload", [
    TypesMatchWith<"the host copy holds the value's type", "value", "host",
                   "::ckpt::HostType::get($_self.getContext(), "
                   "::llvm::cast<::mlir::RankedTensorType>($_self))">
  ]> {
  let summary = "Start copying a host copy back to device memory";
  let description = [{
    Starts an asynchronous copy of the host copy `host` into a new device
    tensor, once `offloaded` (the event of the `ckpt.offload` that made the
    host copy) has completed, and returns the tensor and an event that
    completes when the copy has ended. The tensor may be used only after a
    `ckpt.wait` on that event in the same block (the verifier checks every
    use, and the ops of nested regions by their ancestor in the block).

    ```mlir
    %b, %on = ckpt.reload %h after %off : tensor<8x16xf32>
    ckpt.wait %on
    %c = math.exp %b : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Ckpt_HostType:$host, Ckpt_EventType:$offloaded);
  let results = (outs AnyRankedTensor:$value, Ckpt_EventType:$done);
  let assemblyFormat = "$host `after` $offloaded attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Ckpt_WaitOp : Ckpt_Op<"wait"> {
  let summary = "Wait until copies have ended";
  let description = [{
    Blocks until every event has completed: the copies of `ckpt.offload` and
    `ckpt.reload` that produced them have ended.

    ```mlir
    ckpt.wait %off, %on
    ```
  }];
  let arguments = (ins Variadic<Ckpt_EventType>:$events);
  let assemblyFormat = "$events attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// OpaqueOp
//===----------------------------------------------------------------------===//

def Ckpt_OpaqueOp : Ckpt_Op<"opaque", [Pure]> {
  let summary = "An operation a front end could not translate";
  let description = [{
    Stands for one operation of the source program that a front end (the
    PyTorch importer, the Checkmate graph importer) could not translate into
    upstream dialects. `name` says what it was (e.g. the ATen op or the
    graph node); the operand and result types are the real ones, so the
    planner knows the sizes of the buffers it reads and writes. Its cost is
    the discardable `ckpt.cost` attribute when present; otherwise the cost
    model's opaque estimate (the bytes of its operands and results, no
    flops).

    The op is pure: it has no side effects and gives the same results when
    run again, so the planner may recompute it. Every result is a new buffer
    (no operand is written in place). Operands and results must be ranked
    tensors with static shapes, and there is at least one result (an
    operation with side effects only cannot be modelled as pure). A step
    that contains it can be planned and rewritten, but not lowered:
    `ckpt-lower-to-cpu` and `ckpt-lower-to-nvptx` stop with an error at the
    op.

    ```mlir
    %r:2 = ckpt.opaque "aten.max_pool2d_with_indices"(%a, %b)
        {ckpt.cost = #ckpt.cost<flops = 10, bytes = 20, time = 1.0e-06>}
        : (tensor<1x4xf32>, tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>)
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_TD
