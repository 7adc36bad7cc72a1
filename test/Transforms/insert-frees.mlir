// RUN: ckpt-opt %s -split-input-file --ckpt-insert-frees | FileCheck %s

// Every buffer is freed right after its last use in the block; returned
// buffers and step arguments are never freed. With the memory model of
// ckpt-print-analysis, an elementwise op writes in place into an operand
// that dies there: %d takes %a's buffer (%a's last use), so that buffer is
// returned and not freed; %c dies at %d and is freed; %b is returned.
// CHECK-LABEL: ckpt.step @chain(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = math.tanh %[[A]] : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = math.sin %[[B]] : tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = arith.addf %[[A]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:    ckpt.free %[[C]] : tensor<4xf32>
// CHECK-NEXT:    ckpt.return %{{.*}}, %[[D]], %[[B]] : f32, tensor<4xf32>, tensor<4xf32> loss(0)
ckpt.step @chain(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %b = math.tanh %a : tensor<4xf32>
  %c = math.sin %b : tensor<4xf32>
  %d = arith.addf %a, %c : tensor<4xf32>
  ckpt.return %l, %d, %b : f32, tensor<4xf32>, tensor<4xf32> loss(0)
}

// -----

// Inside a recompute region the same rule holds for the region's block:
// %e dies at the matmul (which writes into %f's buffer) and is freed there;
// the yielded %m is not. In the step, the region's result is freed after
// its last use, the second matmul.
// CHECK-LABEL: ckpt.step @region(
// CHECK:         %[[R:.*]] = ckpt.recompute(%{{.*}})
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: tensor<4x4xf32>):
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[IN]] : tensor<4x4xf32>
// CHECK-NEXT:      %[[Z:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT:      %[[ZR:.*]] = arith.constant
// CHECK-NEXT:      %[[F:.*]] = linalg.fill
// CHECK-NEXT:      %[[M:.*]] = linalg.matmul ins(%[[E]], %[[E]] : {{.*}}) outs(%[[F]] : {{.*}})
// CHECK-NEXT:      ckpt.free %[[E]] : tensor<4x4xf32>
// CHECK-NEXT:      ckpt.yield %[[M]] : tensor<4x4xf32>
// CHECK-NEXT:    }
// CHECK:         %[[S:.*]] = linalg.matmul ins(%[[R]], %[[R]] : {{.*}})
// CHECK-NEXT:    ckpt.free %[[R]] : tensor<4x4xf32>
// CHECK-NEXT:    ckpt.return %{{.*}}, %[[S]] : f32, tensor<4x4xf32> loss(0)
ckpt.step @region(%x: tensor<4x4xf32>, %l: f32) -> (f32, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = ckpt.recompute (%x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %e = math.exp %a : tensor<4x4xf32>
    %z = tensor.empty() : tensor<4x4xf32>
    %zr = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zr : f32) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%e, %e : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    ckpt.yield %m : tensor<4x4xf32>
  }
  %z2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%z2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul ins(%r, %r : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  ckpt.return %l, %s : f32, tensor<4x4xf32> loss(0)
}

// -----

// Frees already present are kept, and not doubled.
// CHECK-LABEL: ckpt.step @existing(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    ckpt.free %[[A]] : tensor<4xf32>
// CHECK-NOT:     ckpt.free %[[A]]
// CHECK:         ckpt.return
ckpt.step @existing(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  ckpt.free %a : tensor<4xf32>
  ckpt.return %l, %b : f32, tensor<4xf32> loss(0)
}
