// RUN: ckpt-opt %s -split-input-file --ckpt-call-kernels=runtime=cuda | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-call-kernels=runtime=cpu | FileCheck %s --check-prefix=CPU
// RUN: not ckpt-opt %s --ckpt-call-kernels=runtime=tpu 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --runtime option: 'tpu' is not a valid value: expected cpu or cuda

// runtime=cuda: a matmul becomes a call of the CUDA runtime's cuBLAS
// contraction, with the CPU kernel's twelve integers (A's (b0, b1, M, K),
// B's (b0, b1, K, N), C's (b0, b1, M, N)).
// CHECK-LABEL: func.func private @ckpt_cuda_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-DAG:     %[[UA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<*xf32>
// CHECK-DAG:     %[[UB:.*]] = memref.cast %[[B]] : memref<8x16xf32> to memref<*xf32>
// CHECK-DAG:     %[[UC:.*]] = memref.cast %[[C]] : memref<4x16xf32> to memref<*xf32>
// CHECK:         call @ckpt_cuda_contract_f32(%[[UA]], %[[UB]], %[[UC]],
// CHECK-NOT:     linalg.matmul
// CPU-LABEL: func.func @matmul(
// CPU:         call @ckpt_kernel_contract_f32(
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// Q K^T with two batch dimensions, K stored (b, h, n, k): K^T has a unit
// stride along its rows, so it maps (transposed); the integers name the
// same dimensions as for the CPU kernel.
#q = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#kt = affine_map<(b, h, m, n, k) -> (b, h, n, k)>
#s = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
// CHECK-LABEL: func.func @two_batches(
// CHECK:         %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[D1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[D3:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[D2:.*]] = arith.constant 2 : i64
// CHECK:         call @ckpt_cuda_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[D0]], %[[D1]], %[[D3]], %[[D2]],
// CHECK-NOT:     linalg.generic
func.func @two_batches(%q: memref<2x3x4x8xf32>, %k: memref<2x3x5x8xf32>, %s: memref<2x3x4x5xf32>) {
  linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<2x3x4x8xf32>, memref<2x3x5x8xf32>) outs(%s : memref<2x3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A convolution and a filter gradient with packed filters go to cuDNN with
// the CPU kernels' integers: strides (2, 1), dilations (1, 3); strides
// (2, 3), dilations (1, 2) (the filter gradient's input map, read as in
// call-kernels.mlir). The input of the convolution has a strided layout.
#xin = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh * 2 + kh, ow * 3 + kw * 2)>
#gout = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>
#dw = affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>
// CHECK-LABEL: func.func private @ckpt_cuda_conv2d_nchw_fchw_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @ckpt_cuda_conv2d_filter_grad_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @convolutions(
// CHECK:         %[[SH:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[SW:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[DH:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[DW:.*]] = arith.constant 3 : i64
// CHECK:         call @ckpt_cuda_conv2d_nchw_fchw_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[SH]], %[[SW]], %[[DH]], %[[DW]])
// CHECK:         %[[GSH:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[GSW:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[GDH:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[GDW:.*]] = arith.constant 2 : i64
// CHECK:         call @ckpt_cuda_conv2d_filter_grad_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[GSH]], %[[GSW]], %[[GDH]], %[[GDW]])
// CHECK-NOT:     linalg.
// CPU-LABEL: func.func @convolutions(
// CPU:         call @ckpt_kernel_conv2d_nchw_fchw_f32(
// CPU:         call @ckpt_kernel_conv2d_filter_grad_f32(
func.func @convolutions(%x: memref<1x2x9x9xf32, strided<[324, 162, 18, 2]>>, %w: memref<4x2x3x3xf32>, %y: memref<1x4x4x3xf32>,
                        %gx: memref<2x3x9x11xf32>, %g: memref<2x4x4x3xf32>, %gw: memref<4x3x3x3xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 3]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<1x2x9x9xf32, strided<[324, 162, 18, 2]>>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [#xin, #gout, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%gx, %g : memref<2x3x9x11xf32>, memref<2x4x4x3xf32>) outs(%gw : memref<4x3x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left as linalg (GPU kernels) with runtime=cuda: an A whose matrix has no
// unit stride (every other column of a row), an A whose strides are not
// static, a convolution whose filter is not packed (stored (c, f, kh, kw))
// and an embedding gradient (no library kernel). The CPU kernels take all
// four.
#ids = affine_map<(r, c, b, s) -> (b, s)>
#gg = affine_map<(r, c, b, s) -> (b, s, c)>
#ww = affine_map<(r, c, b, s) -> (r, c)>
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     call
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32, strided<[16, 2]>>, memref<8x16xf32>)
// CHECK-NOT:     call
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32, strided<[?, 1]>>, memref<8x16xf32>)
// CHECK-NOT:     call
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK-NOT:     call
// CHECK:         return
// CPU-LABEL: func.func @left_alone(
// CPU:         call @ckpt_kernel_contract_f32(
// CPU:         call @ckpt_kernel_contract_f32(
// CPU:         call @ckpt_kernel_conv2d_nchw_fchw_f32(
// CPU:         call @ckpt_kernel_embedding_grad_f32(
func.func @left_alone(%a: memref<4x8xf32, strided<[16, 2]>>, %d: memref<4x8xf32, strided<[?, 1]>>,
                      %b: memref<8x16xf32>, %c: memref<4x16xf32>,
                      %x: memref<1x2x9x9xf32>, %w: memref<4x2x3x3xf32, strided<[9, 36, 3, 1]>>, %y: memref<1x4x7x7xf32>,
                      %i: memref<2x3xi64>, %g: memref<2x3x8xf32>, %e: memref<10x8xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32, strided<[16, 2]>>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%d, %b : memref<4x8xf32, strided<[?, 1]>>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x2x9x9xf32>, memref<4x2x3x3xf32, strided<[9, 36, 3, 1]>>) outs(%y : memref<1x4x7x7xf32>)
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant 0 : i64
  %hi = arith.constant 9 : i64
  linalg.generic {indexing_maps = [#ids, #gg, #ww], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%i, %g : memref<2x3xi64>, memref<2x3x8xf32>) outs(%e : memref<10x8xf32>) {
  ^bb0(%id: i64, %v: f32, %acc: f32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %cl = arith.maxsi %id, %lo : i64
    %cc = arith.minsi %cl, %hi : i64
    %eq = arith.cmpi eq, %cc, %ri : i64
    %sel = arith.select %eq, %v, %zero : f32
    %sum = arith.addf %acc, %sel : f32
    linalg.yield %sum : f32
  }
  return
}
