// ckpt-prepare-entry marks public functions for ckpt-run: a C interface and
// the tensor signature, which the lowering carries onto the llvm.func.
// RUN: ckpt-opt %s --ckpt-prepare-entry | FileCheck %s
// RUN: ckpt-opt %s --ckpt-lower-to-cpu=dealloc=none | FileCheck %s --check-prefix=LLVM
// RUN: ckpt-opt %s --ckpt-prepare-entry="func=helper" | FileCheck %s --check-prefix=NAMED

// CHECK-LABEL: func.func @step(
// CHECK-SAME:    attributes {ckpt.signature = (tensor<16xf32>, tensor<4x4xi64>) -> (tensor<f64>, tensor<16xf32>), llvm.emit_c_interface}
// CHECK-NOT:   ckpt.loss
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT:   ckpt.signature
// CHECK-LABEL: func.func private @declared(
// CHECK-NOT:   ckpt.signature
// After the lowering, both the function and its C-interface wrapper carry the
// signature; the wrapper takes a pointer to the results, then one pointer to
// a memref descriptor per argument.
// LLVM-LABEL: llvm.func @step(
// LLVM-SAME:    attributes {ckpt.signature = (tensor<16xf32>, tensor<4x4xi64>) -> (tensor<f64>, tensor<16xf32>), llvm.emit_c_interface}
// LLVM-LABEL: llvm.func @_mlir_ciface_step(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LLVM-SAME:    attributes {ckpt.signature = (tensor<16xf32>, tensor<4x4xi64>) -> (tensor<f64>, tensor<16xf32>), llvm.emit_c_interface}
// NAMED-LABEL: func.func @step(
// NAMED-NOT:   ckpt.signature
// NAMED-LABEL: func.func private @helper(
// NAMED-SAME:    ckpt.signature = (tensor<2xi32>) -> tensor<2xi32>
func.func @step(%a: tensor<16xf32>, %n: tensor<4x4xi64>) -> (tensor<f64>, tensor<16xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %c = arith.constant dense<2.0> : tensor<f64>
  return %c, %a : tensor<f64>, tensor<16xf32>
}
func.func private @helper(%x: tensor<2xi32>) -> tensor<2xi32> {
  return %x : tensor<2xi32>
}
func.func private @declared(tensor<2xf32>) -> tensor<2xf32>

// A function without results gets a wrapper without a result pointer.
// CHECK-LABEL: func.func @no_results(
// CHECK-SAME:    attributes {ckpt.signature = (tensor<3xf32>) -> (), llvm.emit_c_interface}
// LLVM-LABEL: llvm.func @_mlir_ciface_no_results(%{{.*}}: !llvm.ptr)
// NAMED-LABEL: func.func @no_results(
// NAMED-NOT:   ckpt.signature
func.func @no_results(%a: tensor<3xf32>) {
  return
}
