// RUN: ckpt-opt %s -split-input-file --ckpt-call-kernels | FileCheck %s

// A matmul: C += A B with A (M, K), B (K, N), C (M, N) at dimensions 0, 1 of
// each, no batch: the twelve integers are A's (b0, b1, M, K), B's (b0, b1,
// K, N) and C's (b0, b1, M, N).
// CHECK-LABEL: func.func private @ckpt_kernel_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-DAG:     %[[UA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<*xf32>
// CHECK-DAG:     %[[UB:.*]] = memref.cast %[[B]] : memref<8x16xf32> to memref<*xf32>
// CHECK-DAG:     %[[UC:.*]] = memref.cast %[[C]] : memref<4x16xf32> to memref<*xf32>
// CHECK-DAG:     %[[N1:.*]] = arith.constant -1 : i64
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[O:.*]] = arith.constant 1 : i64
// CHECK:         call @ckpt_kernel_contract_f32(%[[UA]], %[[UB]], %[[UC]], %[[N1]], %{{.*}}, %[[Z]], %[[O]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     linalg.matmul
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// The dimensions, read off the call by value: a transposed A (K, M) as the
// importers write A^T B, and the attention-style contraction with two batch
// dimensions, its B transposed ((b, h, n, k) for K^T).
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#q = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#kt = affine_map<(b, h, m, n, k) -> (b, h, n, k)>
#s = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
// CHECK-LABEL: func.func @transposed(
// CHECK:         %[[N1:.*]] = arith.constant -1 : i64
// CHECK:         %[[N2:.*]] = arith.constant -1 : i64
// CHECK:         %[[AM:.*]] = arith.constant 1 : i64
// CHECK:         %[[AK:.*]] = arith.constant 0 : i64
// CHECK:         %[[N3:.*]] = arith.constant -1 : i64
// CHECK:         %[[N4:.*]] = arith.constant -1 : i64
// CHECK:         %[[BK:.*]] = arith.constant 0 : i64
// CHECK:         %[[BN:.*]] = arith.constant 1 : i64
// CHECK:         %[[N5:.*]] = arith.constant -1 : i64
// CHECK:         %[[N6:.*]] = arith.constant -1 : i64
// CHECK:         %[[CM:.*]] = arith.constant 0 : i64
// CHECK:         %[[CN:.*]] = arith.constant 1 : i64
// CHECK:         call @ckpt_kernel_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[N1]], %[[N2]], %[[AM]], %[[AK]], %[[N3]], %[[N4]], %[[BK]], %[[BN]], %[[N5]], %[[N6]], %[[CM]], %[[CN]])
func.func @transposed(%a: memref<8x4xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @two_batches(
// A: (b0, b1, M, K) = (0, 1, 2, 3); B = K^T: (b0, b1, K, N) = (0, 1, 3, 2);
// C: (0, 1, 2, 3).
// CHECK:         %[[C0:.*]] = arith.constant 0 : i64
// CHECK:         %[[C1:.*]] = arith.constant 1 : i64
// CHECK:         %[[C2:.*]] = arith.constant 2 : i64
// CHECK:         %[[C3:.*]] = arith.constant 3 : i64
// CHECK:         %[[D0:.*]] = arith.constant 0 : i64
// CHECK:         %[[D1:.*]] = arith.constant 1 : i64
// CHECK:         %[[D3:.*]] = arith.constant 3 : i64
// CHECK:         %[[D2:.*]] = arith.constant 2 : i64
// CHECK:         call @ckpt_kernel_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[D0]], %[[D1]], %[[D3]], %[[D2]],
func.func @two_batches(%q: memref<2x3x5x4xf32>, %k: memref<2x3x6x4xf32>, %s: memref<2x3x5x6xf32>) {
  linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<2x3x5x4xf32>, memref<2x3x6x4xf32>) outs(%s : memref<2x3x5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A convolution: its strides (2, 1) and dilations (1, 3), in that order.
// CHECK-LABEL: func.func private @ckpt_kernel_conv2d_nchw_fchw_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @conv(
// CHECK:         %[[SH:.*]] = arith.constant 2 : i64
// CHECK:         %[[SW:.*]] = arith.constant 1 : i64
// CHECK:         %[[DH:.*]] = arith.constant 1 : i64
// CHECK:         %[[DW:.*]] = arith.constant 3 : i64
// CHECK:         call @ckpt_kernel_conv2d_nchw_fchw_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[SH]], %[[SW]], %[[DH]], %[[DW]])
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @conv(%x: memref<1x2x9x9xf32>, %w: memref<4x2x3x3xf32>, %y: memref<1x4x4x3xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 3]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<1x2x9x9xf32>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x4x3xf32>)
  return
}

// -----

// The filter gradient as ckpt.torch_import writes it, over (f, c, kh, kw,
// n, oh, ow), the input read at (n, c, 2 oh + kh, 3 ow + 2 kw): strides
// (2, 3), dilations (1, 2).
// CHECK-LABEL: func.func private @ckpt_kernel_conv2d_filter_grad_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @filter_grad(
// CHECK:         %[[SH:.*]] = arith.constant 2 : i64
// CHECK:         %[[SW:.*]] = arith.constant 3 : i64
// CHECK:         %[[DH:.*]] = arith.constant 1 : i64
// CHECK:         %[[DW:.*]] = arith.constant 2 : i64
// CHECK:         call @ckpt_kernel_conv2d_filter_grad_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[SH]], %[[SW]], %[[DH]], %[[DW]])
// CHECK-NOT:     linalg.generic
#xin = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, oh * 2 + kh, ow * 3 + kw * 2)>
#gout = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>
#dw = affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>
func.func @filter_grad(%x: memref<2x3x9x11xf32>, %g: memref<2x4x4x3xf32>, %dw: memref<4x3x3x3xf32>) {
  linalg.generic {indexing_maps = [#xin, #gout, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<2x3x9x11xf32>, memref<2x4x4x3xf32>) outs(%dw : memref<4x3x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The attention's probabilities times V as ckpt.torch_import writes the
// fused CPU attention: O += exp(S - LSE) V over (b, h, l, e, s). S (b, h,
// l, s): dims 0, 1, 2 (M), 3 (K); LSE (b, h, l): 0, 1, 2; V (b, h, s, e):
// 0, 1, 2 (K), 3 (N); O (b, h, l, e): 0, 1, 2, 3.
#sc = affine_map<(b, h, l, e, s) -> (b, h, l, s)>
#ls = affine_map<(b, h, l, e, s) -> (b, h, l)>
#vv = affine_map<(b, h, l, e, s) -> (b, h, s, e)>
#oo = affine_map<(b, h, l, e, s) -> (b, h, l, e)>
// CHECK-LABEL: func.func private @ckpt_kernel_exp_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @attention(
// CHECK-COUNT-4: memref.cast
// CHECK:         %[[S0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[S1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[S2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[S3:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[L0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[L1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[L2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[V1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 3 : i64
// CHECK:         call @ckpt_kernel_exp_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[L0]], %[[L1]], %[[L2]], %[[V0]], %[[V1]], %[[V2]], %[[V3]],
// CHECK-NOT:     math.exp
func.func @attention(%s: memref<2x3x5x6xf32>, %lse: memref<2x3x5xf32>, %v: memref<2x3x6x4xf32>, %o: memref<2x3x5x4xf32>) {
  linalg.generic {indexing_maps = [#sc, #ls, #vv, #oo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%s, %lse, %v : memref<2x3x5x6xf32>, memref<2x3x5xf32>, memref<2x3x6x4xf32>) outs(%o : memref<2x3x5x4xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %p = arith.mulf %e, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An embedding's weight gradient as ckpt.torch_import writes it: over
// (row, column, b, s), the ids I (b, s) clamped to [0, 9] select the rows
// of W (row, column) that G (b, s, column) adds to. I: (t0, t1) = (0, 1);
// G: (0, 1, 2); W: (row, column) = (0, 1); LO = 0, HI = 9.
#ids = affine_map<(r, c, b, s) -> (b, s)>
#gg = affine_map<(r, c, b, s) -> (b, s, c)>
#ww = affine_map<(r, c, b, s) -> (r, c)>
// CHECK-LABEL: func.func private @ckpt_kernel_embedding_grad_f32(memref<*xi64>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @embedding_grad(
// CHECK:         memref.cast %{{.*}} : memref<2x3xi64> to memref<*xi64>
// CHECK:         %[[I0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[I1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[G0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[G1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[GC:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[WR:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[WC:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 9 : i64
// CHECK:         call @ckpt_kernel_embedding_grad_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[I0]], %[[I1]], %[[G0]], %[[G1]], %[[GC]], %[[WR]], %[[WC]], %[[LO]], %[[HI]])
// CHECK-NOT:     linalg.generic
func.func @embedding_grad(%i: memref<2x3xi64>, %g: memref<2x3x8xf32>, %w: memref<10x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant 0 : i64
  %hi = arith.constant 9 : i64
  linalg.generic {indexing_maps = [#ids, #gg, #ww], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%i, %g : memref<2x3xi64>, memref<2x3x8xf32>) outs(%w : memref<10x8xf32>) {
  ^bb0(%id: i64, %x: f32, %acc: f32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %c = arith.maxsi %id, %lo : i64
    %cc = arith.minsi %c, %hi : i64
    %eq = arith.cmpi eq, %cc, %ri : i64
    %sel = arith.select %eq, %x, %zero : f32
    %sum = arith.addf %acc, %sel : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Left to the loops: f64, tensors, a body that is not a multiply-add, a
// buffer in host memory (space 1), two reduction dimensions, a filter
// gradient whose input is read at a non-linear position.
#m = affine_map<(m, n, k) -> (m, k)>
#n = affine_map<(m, n, k) -> (k, n)>
#o = affine_map<(m, n, k) -> (m, n)>
#a2 = affine_map<(m, n, k, j) -> (m, k, j)>
#b2 = affine_map<(m, n, k, j) -> (k, j, n)>
#c2 = affine_map<(m, n, k, j) -> (m, n)>
#xmod = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, c, (oh + kh) mod 4, ow + kw)>
#gout = affine_map<(f, c, kh, kw, n, oh, ow) -> (n, f, oh, ow)>
#dw = affine_map<(f, c, kh, kw, n, oh, ow) -> (f, c, kh, kw)>
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     call
// CHECK:         linalg.matmul ins({{.*}} : memref<4x8xf64>, memref<8x16xf64>)
// CHECK:         linalg.matmul ins({{.*}} : tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK:         linalg.generic
// CHECK:           arith.subf
// CHECK:         linalg.matmul ins({{.*}} : memref<4x8xf32, 1>, memref<8x16xf32>)
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK-NOT:     call
// CHECK:         return
func.func @left_alone(%a: memref<4x8xf64>, %b: memref<8x16xf64>, %c: memref<4x16xf64>,
                      %ta: tensor<4x8xf32>, %tb: tensor<8x16xf32>, %tc: tensor<4x16xf32>,
                      %fa: memref<4x8xf32>, %fb: memref<8x16xf32>, %fc: memref<4x16xf32>,
                      %ha: memref<4x8xf32, 1>,
                      %ka: memref<4x8x2xf32>, %kb: memref<8x2x16xf32>,
                      %x: memref<1x2x6x6xf32>, %g: memref<1x3x4x4xf32>, %dw: memref<3x2x3x3xf32>) -> tensor<4x16xf32> {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x16xf64>) outs(%c : memref<4x16xf64>)
  %t = linalg.matmul ins(%ta, %tb : tensor<4x8xf32>, tensor<8x16xf32>) outs(%tc : tensor<4x16xf32>) -> tensor<4x16xf32>
  linalg.generic {indexing_maps = [#m, #n, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%fa, %fb : memref<4x8xf32>, memref<8x16xf32>) outs(%fc : memref<4x16xf32>) {
  ^bb0(%x0: f32, %y0: f32, %acc: f32):
    %p = arith.subf %x0, %y0 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%ha, %fb : memref<4x8xf32, 1>, memref<8x16xf32>) outs(%fc : memref<4x16xf32>)
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%ka, %kb : memref<4x8x2xf32>, memref<8x2x16xf32>) outs(%fc : memref<4x16xf32>) {
  ^bb0(%x0: f32, %y0: f32, %acc: f32):
    %p = arith.mulf %x0, %y0 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#xmod, #gout, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %g : memref<1x2x6x6xf32>, memref<1x3x4x4xf32>) outs(%dw : memref<3x2x3x3xf32>) {
  ^bb0(%x0: f32, %y0: f32, %acc: f32):
    %p = arith.mulf %x0, %y0 : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return %t : tensor<4x16xf32>
}

// -----

// Left to the loops too: exp(LSE - S) (the operands swapped) and an
// embedding gradient whose unselected value is 1, not 0.
#sc = affine_map<(b, h, l, e, s) -> (b, h, l, s)>
#ls = affine_map<(b, h, l, e, s) -> (b, h, l)>
#vv = affine_map<(b, h, l, e, s) -> (b, h, s, e)>
#oo = affine_map<(b, h, l, e, s) -> (b, h, l, e)>
#ids = affine_map<(r, c, b, s) -> (b, s)>
#gg = affine_map<(r, c, b, s) -> (b, s, c)>
#ww = affine_map<(r, c, b, s) -> (r, c)>
// CHECK-LABEL: func.func @left_alone_too(
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK-NOT:     call
// CHECK:         return
func.func @left_alone_too(%s: memref<2x3x5x6xf32>, %lse: memref<2x3x5xf32>, %v: memref<2x3x6x4xf32>, %o: memref<2x3x5x4xf32>,
                          %i: memref<2x3xi64>, %g: memref<2x3x8xf32>, %w: memref<10x8xf32>) {
  linalg.generic {indexing_maps = [#sc, #ls, #vv, #oo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%s, %lse, %v : memref<2x3x5x6xf32>, memref<2x3x5xf32>, memref<2x3x6x4xf32>) outs(%o : memref<2x3x5x4xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32, %acc: f32):
    %d = arith.subf %m, %a : f32
    %e = math.exp %d : f32
    %p = arith.mulf %e, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  %one = arith.constant 1.0 : f32
  %lo = arith.constant 0 : i64
  %hi = arith.constant 9 : i64
  linalg.generic {indexing_maps = [#ids, #gg, #ww], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%i, %g : memref<2x3xi64>, memref<2x3x8xf32>) outs(%w : memref<10x8xf32>) {
  ^bb0(%id: i64, %x: f32, %acc: f32):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %c = arith.maxsi %id, %lo : i64
    %cc = arith.minsi %c, %hi : i64
    %eq = arith.cmpi eq, %cc, %ri : i64
    %sel = arith.select %eq, %x, %one : f32
    %sum = arith.addf %acc, %sel : f32
    linalg.yield %sum : f32
  }
  return
}
