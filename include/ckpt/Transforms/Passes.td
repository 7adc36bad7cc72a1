//===- Passes.td - ckpt passes -----------------------------*- tablegen -*-===//

#ifndef CKPT_TRANSFORMS_PASSES_TD
#define CKPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def WrapStepPass : Pass<"ckpt-wrap-step", "mlir::ModuleOp"> {
  let summary = "Turn func.func training steps into ckpt.step ops";
  let description = [{
    Wraps each selected `func.func` into a `ckpt.step` with the same name,
    signature, argument/result attributes and other attributes, and turns its
    `func.return` into a `ckpt.return` that names the loss.

    A function is selected when it carries `ckpt.loss = <result index>`, or
    when the `func` option names it, or (with `func` empty) when `loss-index`
    is given, in which case every function with a body is selected. The loss
    index comes from `loss-index` when given, else from `ckpt.loss`; when both
    are present they must agree. The function must have a single block, must
    not be referenced (a `ckpt.step` cannot be called) and its loss must be a
    float scalar or a one-element float tensor.

    ```mlir
    func.func @train(%w: tensor<4xf32>) -> (f32, tensor<4xf32>) attributes {ckpt.loss = 0 : i64}
    // becomes
    ckpt.step @train(%w: tensor<4xf32>) -> (f32, tensor<4xf32>) { ... ckpt.return %l, %g : f32, tensor<4xf32> loss(0) }
    ```
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"\"",
           "Wrap only the function with this name">,
    Option<"lossIndex", "loss-index", "int64_t", /*default=*/"-1",
           "Index of the result that is the loss (-1: read the ckpt.loss "
           "attribute)">,
  ];
  let dependentDialects = ["::ckpt::CkptDialect", "::mlir::func::FuncDialect"];
}

def UnwrapStepPass : Pass<"ckpt-unwrap-step", "mlir::ModuleOp"> {
  let summary = "Turn ckpt.step ops back into func.func";
  let description = [{
    The inverse of `ckpt-wrap-step`: each `ckpt.step` becomes a `func.func`
    carrying `ckpt.loss = <index>` with the same name, signature and
    attributes, and its `ckpt.return` becomes `func.return`. Recompute regions,
    checkpoints and frees in the body are kept as they are.
  }];
  let dependentDialects = ["::ckpt::CkptDialect", "::mlir::func::FuncDialect"];
}

#endif // CKPT_TRANSFORMS_PASSES_TD
