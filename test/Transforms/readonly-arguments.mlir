// ckpt-readonly-arguments marks the tensor arguments of functions with a body
// and leaves declarations alone: one-shot bufferization rejects
// `bufferization.writable` on a declaration, so a module holding one (a
// runtime helper, say) used to fail ckpt-lower-to-cpu.
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(func.func(ckpt-readonly-arguments))" | FileCheck %s
// RUN: ckpt-opt %s --ckpt-wrap-step --ckpt-plan=budget=100% --ckpt-rematerialize --ckpt-insert-frees --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: func.func private @helper(tensor<4xf32>, f32)
// CHECK-NOT:   bufferization.writable
// CHECK-LABEL: func.func @step(
// CHECK-SAME:    %arg0: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME:    %arg1: tensor<4xf32> {bufferization.writable = false}
// CHECK-LABEL: func.func @main(

// CPU: llvm.func @helper(
// CPU: llvm.func @step(
// CPU: llvm.call @helper(
func.func private @helper(tensor<4xf32>, f32)

func.func @step(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %a = arith.mulf %x, %w : tensor<4xf32>
  %b = math.tanh %a : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce ins(%b : tensor<4xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %g = arith.mulf %b, %x : tensor<4xf32>
  return %l, %g : tensor<f32>, tensor<4xf32>
}

// Calls the declaration: one-shot bufferization then checks its arguments.
func.func @main() {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %s = arith.constant 2.0 : f32
  call @helper(%c, %s) : (tensor<4xf32>, f32) -> ()
  return
}
