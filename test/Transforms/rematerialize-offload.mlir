// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize --ckpt-insert-frees | FileCheck %s --check-prefix=FREE
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize --ckpt-insert-frees --ckpt-print-analysis -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEAK

// The six-op chain of rematerialize.mlir (positions: 0 a, 1 b, 2 c, 3 d,
// 4 e, 5 l, 6 ge, 7 gd, 8 gc, 9 gb, 10 ga), every op once, and a (16 B)
// moved to host memory: offloaded after b (execution 1), waited for after
// d (3), reloaded after gc (8), and waited for before its reader ga (after
// gb, 9). ga reads the reloaded tensor.
// CHECK-LABEL: ckpt.step @chain6(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[H:.*]], %[[OFF:.*]] = ckpt.offload %[[A]] : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[D:.*]] = math.exp %[[C]]
// CHECK-NEXT:    ckpt.wait %[[OFF]]
// CHECK-NEXT:    %[[E:.*]] = math.sin %[[D]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[E]]
// CHECK-NEXT:    %[[GE:.*]] = arith.mulf %[[E]], %[[E]]
// CHECK-NEXT:    %[[GD:.*]] = arith.mulf %[[GE]], %[[D]]
// CHECK-NEXT:    %[[GC:.*]] = arith.mulf %[[GD]], %[[C]]
// CHECK-NEXT:    %[[A2:.*]], %[[ON:.*]] = ckpt.reload %[[H]] after %[[OFF]] : tensor<4xf32>
// CHECK-NEXT:    %[[GB:.*]] = arith.mulf %[[GC]], %[[B]]
// CHECK-NEXT:    ckpt.wait %[[ON]]
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[GB]], %[[A2]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[GA]] : tensor<1xf32>, tensor<4xf32> loss(0)
// Frees and peak by hand (16 B buffers; an elementwise op writes in place
// into its first operand when that dies there): a, b, c, d live at d (64);
// the wait on a's offload is a's last use, so a is freed right after it;
// e (returned: l views it) and ge make b, c, d, e, ge = 80, the peak (96
// with a: the step as written); gd, gc, gb, ga write in place into ge's
// buffer; d dies at gd, c at gc; the reload allocates a' (b, e, gc, a' =
// 64); b dies at gb; a' at ga. The rewrite itself checks that this
// simulation equals the one of the plan's schedule and transfers
// (evaluateTransfers).
// FREE-LABEL: ckpt.step @chain6(
// FREE:         ckpt.offload
// FREE-NOT:     ckpt.free
// FREE:         ckpt.wait %[[OFF:.*]]
// FREE-NEXT:    ckpt.free %[[A:.*]] : tensor<4xf32>
// FREE:         %[[GE:.*]] = arith.mulf %[[E:.*]], %[[E]]
// FREE-NEXT:    %[[GD:.*]] = arith.mulf %[[GE]], %[[D:.*]] :
// FREE-NEXT:    ckpt.free %[[D]]
// FREE-NEXT:    %[[GC:.*]] = arith.mulf %[[GD]], %[[C:.*]] :
// FREE-NEXT:    ckpt.free %[[C]]
// FREE-NEXT:    %[[A2:.*]], %[[ON:.*]] = ckpt.reload
// FREE-NEXT:    arith.mulf %[[GC]], %[[B:.*]] :
// FREE-NEXT:    ckpt.free %[[B]]
// FREE-NEXT:    ckpt.wait %[[ON]]
// FREE-NEXT:    arith.mulf %{{.*}}, %[[A2]]
// FREE-NEXT:    ckpt.free %[[A2]]
// FREE-NEXT:    ckpt.return
// PEAK: forward ops: {{.*}} peak 80 B at #9
ckpt.step @chain6(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 16.0, store_all_peak = 96, store_all_time = 16.0,
      schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], transfers = [[0, 0, 1, 3, 8]], host_peak = 16>} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %d = math.exp %c : tensor<4xf32>
  %e = math.sin %d : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e : tensor<4xf32>
  %gd = arith.mulf %ge, %d : tensor<4xf32>
  %gc = arith.mulf %gd, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// The same chain with a's offload waited for at once (offload_done =
// offload_after = 1): the wait follows the offload, before c, and a is
// freed there, so c, d and e run without it. The peak is still ge's (b, c,
// d, e, ge = 80), where a was gone already.
// CHECK-LABEL: ckpt.step @chain6_wait_at_once(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[H:.*]], %[[OFF:.*]] = ckpt.offload %[[A]] : tensor<4xf32>
// CHECK-NEXT:    ckpt.wait %[[OFF]]
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[D:.*]] = math.exp %[[C]]
// CHECK-NEXT:    %[[E:.*]] = math.sin %[[D]]
// CHECK:         %[[A2:.*]], %[[ON:.*]] = ckpt.reload %[[H]] after %[[OFF]] : tensor<4xf32>
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    ckpt.wait %[[ON]]
// CHECK-NEXT:    arith.mulf %{{.*}}, %[[A2]]
// FREE-LABEL: ckpt.step @chain6_wait_at_once(
// FREE:         ckpt.offload
// FREE-NEXT:    ckpt.wait
// FREE-NEXT:    ckpt.free %{{.*}} : tensor<4xf32>
// FREE-NEXT:    math.cos
// PEAK: forward ops: {{.*}} peak 80 B at #9
ckpt.step @chain6_wait_at_once(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 16.0, store_all_peak = 96, store_all_time = 16.0,
      schedule = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], transfers = [[0, 0, 1, 1, 8]], host_peak = 16>} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %d = math.exp %c : tensor<4xf32>
  %e = math.sin %d : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e : tensor<4xf32>
  %gd = arith.mulf %ge, %d : tensor<4xf32>
  %gc = arith.mulf %gd, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}
