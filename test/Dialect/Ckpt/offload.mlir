// RUN: ckpt-opt %s -split-input-file | FileCheck %s
// RUN: ckpt-opt %s -split-input-file | ckpt-opt -split-input-file | FileCheck %s
// RUN: ckpt-opt %s -split-input-file -mlir-print-op-generic | ckpt-opt -split-input-file | FileCheck %s

// A value moved to host memory and back: the offload's event completes the
// copy (then the device buffer may be freed), the reload starts after it and
// its own event guards every use of the reloaded tensor.
// CHECK-LABEL: ckpt.step @moved(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[H:.*]], %[[OFF:.*]] = ckpt.offload %[[A]] : tensor<8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    ckpt.wait %[[OFF]]
// CHECK-NEXT:    ckpt.free %[[A]] : tensor<8x16xf32>
// CHECK-NEXT:    %[[R:.*]], %[[ON:.*]] = ckpt.reload %[[H]] after %[[OFF]] : tensor<8x16xf32>
// CHECK-NEXT:    ckpt.wait %[[ON]]
// CHECK-NEXT:    %[[C:.*]] = arith.addf %[[R]], %[[B]]
ckpt.step @moved(%x: tensor<8x16xf32>, %l: f32) -> (f32, tensor<8x16xf32>) {
  %a = math.exp %x : tensor<8x16xf32>
  %h, %off = ckpt.offload %a : tensor<8x16xf32>
  %b = math.sin %a : tensor<8x16xf32>
  ckpt.wait %off
  ckpt.free %a : tensor<8x16xf32>
  %r, %on = ckpt.reload %h after %off : tensor<8x16xf32>
  ckpt.wait %on
  %c = arith.addf %r, %b : tensor<8x16xf32>
  ckpt.return %l, %c : f32, tensor<8x16xf32> loss(0)
}

// -----

// One wait for several events; the types print as !ckpt.host and
// !ckpt.event.
// CHECK-LABEL: func.func @types(
// CHECK-SAME:    %{{.*}}: !ckpt.host<tensor<4xf32>>, %{{.*}}: !ckpt.event, %{{.*}}: !ckpt.event)
// CHECK:         ckpt.wait %{{.*}}, %{{.*}}
func.func @types(%h: !ckpt.host<tensor<4xf32>>, %e: !ckpt.event, %f: !ckpt.event) {
  ckpt.wait %e, %f
  return
}
