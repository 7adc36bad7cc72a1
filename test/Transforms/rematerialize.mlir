// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize="keep-plan=true" | FileCheck %s --check-prefix=KEEP
// RUN: ckpt-opt %s -split-input-file --ckpt-rematerialize --ckpt-insert-frees | FileCheck %s --check-prefix=FREE

// The plan plan.mlir makes for its six-stage chain under 96 B:
// Fall1 Fall2 Fck3 Fn4 Fall5 Fall6 B6 B5 Fall3 Fall4 B4 B3 B2 B1.
// The first sweep is the forward as written. Then, in sequence order:
// B6 = ge (reads e), B5 = gd (reads d = a^4), the recomputation of stage 3
// from b and of stage 4 from the recomputed c, B4 = gc (reads the
// recomputed c), B3 = gb (reads b), B2 = ga (reads a). Nobody reads the
// recomputed d (gd ran in B5, reading a^4 as B5's input), so that region is
// dropped. The results are the same values: the step returns the same outputs.
// CHECK-LABEL: ckpt.step @chain6(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NOT:     ckpt.plan
// CHECK:         %[[A:.*]] = math.exp %[[X]]
// CHECK-NOT:     ckpt.stage
// CHECK-NEXT:    %[[B:.*]] = math.sin %[[A]]
// CHECK-NEXT:    %[[C:.*]] = math.cos %[[B]]
// CHECK-NEXT:    %[[D:.*]] = math.exp %[[C]]
// CHECK-NEXT:    %[[E:.*]] = math.sin %[[D]]
// CHECK-NEXT:    %[[L:.*]] = tensor.extract_slice %[[E]]
// CHECK-NEXT:    %[[GE:.*]] = arith.mulf %[[E]], %[[E]]
// CHECK-NEXT:    %[[GD:.*]] = arith.mulf %[[GE]], %[[D]]
// CHECK-NEXT:    %[[C2:.*]] = ckpt.recompute(%[[B]]) {instance = 1 : i64, stage = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[R:.*]] = math.cos %[[IN]]
// CHECK-NEXT:      ckpt.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[GC:.*]] = arith.mulf %[[GD]], %[[C2]]
// CHECK-NEXT:    %[[GB:.*]] = arith.mulf %[[GC]], %[[B]]
// CHECK-NEXT:    %[[GA:.*]] = arith.mulf %[[GB]], %[[A]]
// CHECK-NEXT:    ckpt.return %[[L]], %[[GA]] : tensor<1xf32>, tensor<4xf32> loss(0)
// KEEP-LABEL: ckpt.step @chain6(
// KEEP-SAME:    ckpt.plan = #ckpt.plan
// KEEP:         math.exp %{{.*}} {ckpt.stage = 1 : i64}
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
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 16>,
                <index = 2, kind = "all", ops = 1, forward = 1.0, backward = 2.0, input_bytes = 16, saved_bytes = 16>,
                <index = 3, kind = "ck", ops = 1, forward = 1.0, backward = 2.0, input_bytes = 16, saved_bytes = 16>,
                <index = 4, kind = "none", ops = 1, forward = 1.0, backward = 2.0, input_bytes = 16, saved_bytes = 16>,
                <index = 5, kind = "all", ops = 1, forward = 1.0, backward = 2.0, input_bytes = 16, saved_bytes = 16>,
                <index = 6, kind = "all", ops = 1, forward = 1.0, backward = 2.0, input_bytes = 16, saved_bytes = 4>],
      sequence = "Fall1 Fall2 Fck3 Fn4 Fall5 Fall6 B6 B5 Fall3 Fall4 B4 B3 B2 B1">} {
  %a = math.exp %x {ckpt.stage = 1 : i64} : tensor<4xf32>
  %b = math.sin %a {ckpt.stage = 2 : i64} : tensor<4xf32>
  %c = math.cos %b {ckpt.stage = 3 : i64} : tensor<4xf32>
  %d = math.exp %c {ckpt.stage = 4 : i64} : tensor<4xf32>
  %e = math.sin %d {ckpt.stage = 5 : i64} : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] {ckpt.stage = 6 : i64} : tensor<4xf32> to tensor<1xf32>
  %ge = arith.mulf %e, %e : tensor<4xf32>
  %gd = arith.mulf %ge, %d : tensor<4xf32>
  %gc = arith.mulf %gd, %c : tensor<4xf32>
  %gb = arith.mulf %gc, %b : tensor<4xf32>
  %ga = arith.mulf %gb, %a : tensor<4xf32>
  ckpt.return %l, %ga : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// Constant-like ops (constants, empties, fills of constants) are cloned into
// a recompute region instead of being captured; kept values (a user
// checkpoint) and step arguments come in as inputs; values used inside a
// payload (%two) count as reads. Stage 1 runs twice (memory-poor style):
// the backward reads %s, which only stage 1 reads, so it runs in B1 and reads
// the recomputed %s; the recomputed %t has no reader and is dropped.
// CHECK-LABEL: ckpt.step @clones(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32>)
// CHECK:         %[[K:.*]] = ckpt.checkpoint
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X]], %[[K]]) {instance = 1 : i64, stage = 1 : i64}
// CHECK-NEXT:    ^bb0(%[[IX:.*]]: tensor<4xf32>, %[[IK:.*]]: tensor<4xf32>):
// CHECK-DAG:       arith.constant 2.0
// CHECK-DAG:       tensor.empty() : tensor<4xf32>
// CHECK:           %[[S:.*]] = linalg.generic
// CHECK-NOT:       math.exp
// CHECK:           ckpt.yield %[[S]]
// CHECK:         linalg.mul ins(%[[R]], %[[R]]
#id = affine_map<(i) -> (i)>
ckpt.step @clones(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "memory-poor", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "ck", ops = 1, forward = 1.0, backward = 1.0, input_bytes = 0, saved_bytes = 16>,
                <index = 2, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 16, saved_bytes = 4>],
      sequence = "Fck1 Fall2 B2 Fall1 B1">} {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %k = ckpt.checkpoint %w : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %k : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {ckpt.stage = 1 : i64} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.mulf %m, %two : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %t = math.exp %s {ckpt.stage = 1 : i64} : tensor<4xf32>
  %l = tensor.extract_slice %t[0] [1] [1] {ckpt.stage = 2 : i64} : tensor<4xf32> to tensor<1xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %g = linalg.mul ins(%s, %s : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  ckpt.return %l, %g : tensor<1xf32>, tensor<4xf32> loss(0)
}
