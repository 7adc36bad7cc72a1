// Budgets past the signed 64-bit byte range: a byte budget is rejected, a
// percentage saturates (it used to wrap around to a tiny budget through an
// out-of-range double-to-integer conversion).
// RUN: not ckpt-opt %s --ckpt-plan="budget=100000000000000000000 fit=model" 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not ckpt-opt %s --ckpt-plan="budget=9000000TiB" 2>&1 | FileCheck %s --check-prefix=UNIT
// RUN: ckpt-opt %s --ckpt-plan="budget=99999999999999999999%" | FileCheck %s --check-prefix=PERCENT
// RUN: ckpt-opt %s --ckpt-plan="budget=9000000000000000000" | FileCheck %s --check-prefix=LARGE
// BYTES: for the --budget option: budget '100000000000000000000' is too large: it must be below 2^63 bytes
// UNIT: for the --budget option: budget '9000000TiB' is too large: it must be below 2^63 bytes
// PERCENT: budget = 9223372036854775807
// LARGE: budget = 9000000000000000000

ckpt.step @two(%x: tensor<4xf32>) -> (f32, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %l = tensor.extract %b[%c0] : tensor<4xf32>
  %g = arith.mulf %b, %a : tensor<4xf32>
  ckpt.return %l, %g : f32, tensor<4xf32> loss(0)
}
