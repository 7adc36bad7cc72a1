// A step that is not an entry point (private) and whose loss is not result 0:
// ckpt-prepare-entry used to leave its `ckpt.loss = 1` in place, and once
// convert-func-to-llvm packed the two results into one struct the attribute
// no longer verified, so ckpt-lower-to-cpu failed on a valid module.
// RUN: ckpt-opt %s --ckpt-unwrap-step --ckpt-prepare-entry | FileCheck %s --check-prefix=PREP
// RUN: ckpt-opt %s --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU

// PREP-LABEL: func.func private @inner(
// PREP-NOT:     ckpt.loss
// PREP-LABEL: func.func @entry(
// PREP-NOT:     ckpt.loss

// CPU-NOT:   ckpt.loss
// CPU:       llvm.func @inner(
// CPU-NOT:   ckpt.loss
// CPU:       llvm.func @entry(
// CPU-NOT:   ckpt.loss
ckpt.step private @inner(%w: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  %a = arith.mulf %w, %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %a, %l : tensor<4xf32>, tensor<1xf32> loss(1)
}

ckpt.step @entry(%w: tensor<4xf32>, %x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %a = math.tanh %w : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g = arith.mulf %a, %x : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}
