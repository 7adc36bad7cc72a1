// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize="keep-plan=true" | FileCheck %s --check-prefix=KEEP
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize --ckpt-insert-frees | FileCheck %s --check-prefix=FREE

// The schedule of the chain DP's sequence Fall1 Fall2 Fck3 Fn4 Fall5 Fall6
// B6 B5 Fall3 Fall4 B4 B3 B2 B1 on a six-op chain (positions: 0 a, 1 b,
// 2 c, 3 d, 4 e, 5 l, 6 ge, 7 gd, 8 gc, 9 gb, 10 ga): the forward as
// written, ge, gd, then c again (the recomputed d has no reader: gd ran
// before it), gc, gb, ga. The second c is a recompute region reading b; gc
// reads it. The step returns the same values.
// CHECK-LABEL: ckpt.step @chain6(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NOT:     ckpt.plan
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[D:.*]] = math.exp %[[C]]
// CHECK-NEXT:    %[[E:.*]] = math.sin %[[D]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[E]]
// CHECK-NEXT:    %[[GE:.*]] = arith.mulf %[[E]], %[[E]]
// CHECK-NEXT:    %[[GD:.*]] = arith.mulf %[[GE]], %[[D]]
// CHECK-NEXT:    %[[C2:.*]] = ckpt.recompute(%[[B]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[R:.*]] = math.cos %[[IN]]
// CHECK-NEXT:      ckpt.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[GC:.*]] = arith.mulf %[[GD]], %[[C2]]
// CHECK-NEXT:    %[[GB:.*]] = arith.mulf %[[GC]], %[[B]]
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[GB]], %[[A]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[GA]] : tensor<1xf32>, tensor<4xf32> loss(0)
// KEEP-LABEL: ckpt.step @chain6(
// KEEP-SAME:    ckpt.plan = #ckpt.plan<{{.*}}schedule = [0, 1, 2, 3, 4, 5, 6, 7, 2, 8, 9, 10]>
// Frees, by hand, with the memory model (an elementwise op writes in place
// into its first operand when that dies there): d goes into c's buffer (c
// dies at d, since gc reads the recomputed c); ge, gd, gc, gb, ga into e's
// buffer, which is returned. So: {c, d} is freed after gd, the recomputed c
// after gc, b after gb, a after ga; l and e's buffer are returned.
// FREE-LABEL: ckpt.step @chain6(
// FREE-NOT:     ckpt.free
// FREE:         %[[D:.*]] = math.exp %{{[0-9]+}}
// FREE-NOT:     ckpt.free
// FREE:         %[[GD:.*]] = arith.mulf %{{.*}}, %[[D]]
// FREE-NEXT:    ckpt.free %[[D]]
// FREE-NEXT:    %[[C2:.*]] = ckpt.recompute
// FREE:         %[[GC:.*]] = arith.mulf %[[GD]], %[[C2]]
// FREE-NEXT:    ckpt.free %[[C2]]
// FREE-NEXT:    %[[GB:.*]] = arith.mulf %[[GC]], %[[B:.*]] :
// FREE-NEXT:    ckpt.free %[[B]]
// FREE-NEXT:    %[[GA:.*]] = arith.mulf %[[GB]], %[[A:.*]] :
// FREE-NEXT:    ckpt.free %[[A]]
// FREE-NEXT:    ckpt.return
ckpt.step @chain6(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 96, peak = 96, time = 18.0, store_all_peak = 112, store_all_time = 16.0,
      schedule = [0, 1, 2, 3, 4, 5, 6, 7, 2, 8, 9, 10]>} {
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

// A value recomputed twice (positions: 0 a, 1 b, 2 l, 3 g1, 4 g2; the
// schedule runs a before g1 and again before g2): two regions, each read by
// the op after it. By hand: b writes in place into a's buffer (the first a
// dies at b), g1 and g2 into it too (returned); each recomputed a is freed
// after its reader.
// CHECK-LABEL: ckpt.step @twice(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[B]]
// CHECK-NEXT:    %[[R1:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           math.exp
// CHECK:         }
// CHECK-NEXT:    %[[G1:.*]] = arith.mulf %[[B]], %[[R1]]
// CHECK-NEXT:    %[[R2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           math.exp
// CHECK:         }
// CHECK-NEXT:    %[[G2:.*]] = arith.mulf %[[G1]], %[[R2]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[G2]]
// FREE-LABEL: ckpt.step @twice(
// FREE-NOT:     ckpt.free
// FREE:         %[[R1:.*]] = ckpt.recompute
// FREE:         arith.mulf %{{.*}}, %[[R1]]
// FREE-NEXT:    ckpt.free %[[R1]]
// FREE-NEXT:    %[[R2:.*]] = ckpt.recompute
// FREE:         arith.mulf %{{.*}}, %[[R2]]
// FREE-NEXT:    ckpt.free %[[R2]]
// FREE-NEXT:    ckpt.return
ckpt.step @twice(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 64, peak = 64, time = 7.0, store_all_peak = 64, store_all_time = 5.0,
      schedule = [0, 1, 2, 0, 3, 0, 4]>} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g1 = arith.mulf %b, %a : tensor<4xf32>
  %g2 = arith.mulf %g1, %a : tensor<4xf32>
  ckpt.return %l, %g2 : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// Recomputing inside a branch of a diamond (positions: 0 a, 1 p, 2 q, 3 s,
// 4 l, 5 gp, 6 gq, 7 ga): p runs again before gp, from a, which stays (ga
// reads it). By hand: s writes in place into p's buffer (the first p dies at
// s), gp, gq and ga into it too (returned); the recomputed p is freed after
// gp, q after gq, a after ga.
// CHECK-LABEL: ckpt.step @branch(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[P:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[Q:.*]] = math.cos %[[A]]
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[P]], %[[Q]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[S]]
// CHECK-NEXT:    %[[R:.*]] = ckpt.recompute(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[P2:.*]] = math.sin %[[IN]]
// CHECK-NEXT:      ckpt.yield %[[P2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[GP:.*]] = arith.mulf %[[S]], %[[R]]
// CHECK-NEXT:    %[[GQ:.*]] = arith.mulf %[[GP]], %[[Q]]
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[GQ]], %[[A]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[GA]]
// FREE-LABEL: ckpt.step @branch(
// FREE-NOT:     ckpt.free
// FREE:         %[[R:.*]] = ckpt.recompute
// FREE:         %[[GP:.*]] = arith.mulf %{{.*}}, %[[R]]
// FREE-NEXT:    ckpt.free %[[R]]
// FREE-NEXT:    %[[GQ:.*]] = arith.mulf %[[GP]], %[[Q:.*]] :
// FREE-NEXT:    ckpt.free %[[Q]]
// FREE-NEXT:    %[[GA:.*]] = arith.mulf %[[GQ]], %[[A:.*]] :
// FREE-NEXT:    ckpt.free %[[A]]
// FREE-NEXT:    ckpt.return
ckpt.step @branch(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 9.0, store_all_peak = 80, store_all_time = 8.0,
      schedule = [0, 1, 2, 3, 4, 1, 5, 6, 7]>} {
  %a = math.exp %x : tensor<4xf32>
  %p = math.sin %a : tensor<4xf32>
  %q = math.cos %a : tensor<4xf32>
  %s = arith.addf %p, %q : tensor<4xf32>
  %l = tensor.extract_slice %s[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %gp = arith.mulf %s, %p : tensor<4xf32>
  %gq = arith.mulf %gp, %q : tensor<4xf32>
  %ga = arith.mulf %gq, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// A run of two recomputations (b, then a; positions: 0 a, 1 b, 2 c, 3 l,
// 4 g1, 5 g2) is cut where a buffer from before it dies: the first a is
// read for the last time by the recomputed b (b writes into a new buffer:
// its first operand is the argument %x), so the run becomes two regions
// with a's free between them, as the schedule's memory model frees it.
// CHECK-LABEL: ckpt.step @cut(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[X]], %[[A]]
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[C]]
// CHECK-NEXT:    %[[B2:.*]] = ckpt.recompute(%[[X]], %[[A]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           arith.mulf
// CHECK:         }
// CHECK-NEXT:    %[[A2:.*]] = ckpt.recompute(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           math.exp
// CHECK:         }
// CHECK-NEXT:    %[[G1:.*]] = arith.mulf %[[C]], %[[B2]]
// CHECK-NEXT:    %[[G2:.*]] = arith.mulf %[[G1]], %[[A2]]
// FREE-LABEL: ckpt.step @cut(
// FREE:         %[[A:.*]] = math.exp
// FREE:         ckpt.recompute(%{{.*}}, %[[A]])
// FREE:         }
// FREE-NEXT:    ckpt.free %[[A]]
// FREE-NEXT:    %[[A2:.*]] = ckpt.recompute
// FREE:         %[[G1:.*]] = arith.mulf %{{.*}}, %[[B2:.*]] :
// FREE-NEXT:    ckpt.free %[[B2]]
// FREE-NEXT:    arith.mulf %[[G1]], %[[A2]]
// FREE-NEXT:    ckpt.free %[[A2]]
// FREE-NEXT:    ckpt.return
ckpt.step @cut(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 80, peak = 80, time = 8.0, store_all_peak = 80, store_all_time = 6.0,
      schedule = [0, 1, 2, 3, 1, 0, 4, 5]>} {
  %a = math.exp %x : tensor<4xf32>
  %b = arith.mulf %x, %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %l = tensor.extract_slice %c[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g1 = arith.mulf %c, %b : tensor<4xf32>
  %g2 = arith.mulf %g1, %a : tensor<4xf32>
  ckpt.return %l, %g2 : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// Constant-like ops run again where the schedule says (the planners re-run
// them next to the ops that read them), inside the region; a kept value (a
// user checkpoint) and step arguments come in as inputs; values used inside
// a payload (%two) count as reads. Positions: 0 %two, 1 %e, 2 %k, 3 %s,
// 4 %t, 5 %l, 6 %e2, 7 %g; the schedule runs %two, %e and %s again before %g.
// CHECK-LABEL: ckpt.step @clones(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32>)
// CHECK:         %[[K:.*]] = ckpt.checkpoint
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X]], %[[K]])
// CHECK-NEXT:    ^bb0(%[[IX:.*]]: tensor<4xf32>, %[[IK:.*]]: tensor<4xf32>):
// CHECK-DAG:       arith.constant 2.0
// CHECK-DAG:       bufferization.alloc_tensor() : tensor<4xf32>
// CHECK:           %[[S:.*]] = linalg.generic
// CHECK-NOT:       math.exp
// CHECK:           ckpt.yield %[[S]]
// CHECK:         linalg.mul ins(%[[R]], %[[R]]
#id = affine_map<(i) -> (i)>
ckpt.step @clones(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "memory-poor", budget = 48, peak = 48, time = 1.0, store_all_peak = 48, store_all_time = 1.0,
      schedule = [0, 1, 2, 3, 4, 5, 0, 1, 3, 6, 7]>} {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %k = ckpt.checkpoint %w : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %k : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.mulf %m, %two : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %t = math.exp %s : tensor<4xf32>
  %l = tensor.extract_slice %t[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %g = linalg.mul ins(%s, %s : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// A schedule that runs every op once, in the block's order, leaves the step
// in its order (the plan is still removed). Its tensor.empty become
// allocations (their attributes kept), and the budget is recorded with the
// peak of the step: one 16 B buffer (4 x f32) that math.exp writes, then
// linalg.mul in place into the second, 32 B in all, the slice a view.
// CHECK-LABEL: ckpt.step @identity(
// CHECK-SAME:    attributes {ckpt.budget = {bytes = 40 : i64, peak = 32 : i64}}
// CHECK-NOT:     ckpt.plan
// CHECK-NOT:     tensor.empty
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[E:.*]] = bufferization.alloc_tensor() {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>} : tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.mul ins(%[[A]], %[[A]] : {{.*}}) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[M]]
// CHECK-NEXT:    ckpt.return %[[L]]
ckpt.step @identity(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "store-all", budget = 40, peak = 32, time = 2.0, store_all_peak = 32, store_all_time = 2.0,
      schedule = [0, 1, 2, 3]>} {
  %a = math.exp %x : tensor<4xf32>
  %e = tensor.empty() {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.0>} : tensor<4xf32>
  %m = linalg.mul ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %l = tensor.extract_slice %m[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// A schedule may also move ops without recomputing any: the ops follow it.
// CHECK-LABEL: ckpt.step @moved(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NEXT:    %[[G:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[A]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[G]]
ckpt.step @moved(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 48, peak = 48, time = 3.0, store_all_peak = 48, store_all_time = 3.0,
      schedule = [0, 2, 1]>} {
  %a = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %g = math.sin %a : tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}
