// RUN: ckpt-opt %s -split-input-file --ckpt-profile-ops | FileCheck %s

// Every op of the step that computes something is bracketed by the two
// marks, with the index of its key in the module's ckpt.profile_keys: its
// file location. Not timed: constants, tensor.empty, alloc_tensor (what
// ckpt-rematerialize makes of tensor.empty), ckpt.free, the return.
// The recomputed exp and tanh, inlined from their region (same locations as
// the originals), share their ids.
// CHECK-LABEL: module attributes {ckpt.profile_keys = ["s.mlir:3:3", "s.mlir:4:3", "s.mlir:9:3"]}
// CHECK:       func.func private @ckptRuntimeProfileBegin(i64)
// CHECK-NEXT:  func.func private @ckptRuntimeProfileEnd(i64)
// CHECK-LABEL: ckpt.step @inlined(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[ID0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[ID0]]) : (i64) -> ()
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    call @ckptRuntimeProfileEnd(%[[ID0]]) : (i64) -> ()
// CHECK-NEXT:    %[[ID1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[ID1]]) : (i64) -> ()
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[E]] : tensor<4xf32>
// CHECK-NEXT:    call @ckptRuntimeProfileEnd(%[[ID1]]) : (i64) -> ()
// CHECK-NEXT:    ckpt.free %[[E]] : tensor<4xf32>
// CHECK-NEXT:    %[[RID0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[RID0]]) : (i64) -> ()
// CHECK-NEXT:    %[[E2:.*]] = math.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    call @ckptRuntimeProfileEnd(%[[RID0]]) : (i64) -> ()
// CHECK-NEXT:    %[[RID1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[RID1]]) : (i64) -> ()
// CHECK-NEXT:    %[[T2:.*]] = math.tanh %[[E2]] : tensor<4xf32>
// CHECK-NEXT:    call @ckptRuntimeProfileEnd(%[[RID1]]) : (i64) -> ()
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[FRESH:.*]] = bufferization.alloc_tensor() : tensor<4xf32>
// CHECK-NEXT:    %[[ID2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[ID2]]) : (i64) -> ()
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[E2]], %[[T2]] : tensor<4xf32>
// CHECK-NEXT:    call @ckptRuntimeProfileEnd(%[[ID2]]) : (i64) -> ()
// CHECK-NEXT:    ckpt.return %{{.*}}, %[[S]], %[[T]] : f32, tensor<4xf32>, tensor<4xf32> loss(0)
ckpt.step @inlined(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<1.0> : tensor<4xf32> loc("s.mlir":2:3)
  %e = math.exp %x : tensor<4xf32> loc("s.mlir":3:3)
  %t = math.tanh %e : tensor<4xf32> loc("s.mlir":4:3)
  ckpt.free %e : tensor<4xf32>
  %e2 = math.exp %x : tensor<4xf32> loc("s.mlir":3:3)
  %t2 = math.tanh %e2 : tensor<4xf32> loc("s.mlir":4:3)
  %empty = tensor.empty() : tensor<4xf32> loc("s.mlir":8:3)
  %fresh = bufferization.alloc_tensor() : tensor<4xf32> loc("s.mlir":8:3)
  %s = arith.addf %e2, %t2 : tensor<4xf32> loc("s.mlir":9:3)
  ckpt.return %l, %s, %t : f32, tensor<4xf32>, tensor<4xf32> loss(0)
}

// -----

// Keys as ckpt-annotate-costs' profile= looks them up first: a name
// location by its name (an FX node of the PyTorch importer), a fused
// location by its first file location, an op without a location by its op
// name (so the two sines share a key, and an id). Ops of two steps share
// one list.
// CHECK-LABEL: module attributes {ckpt.profile_keys = ["fc1", "s.mlir:5:6", "math.sin", "t.mlir:1:1"]}
// CHECK-LABEL: ckpt.step @names(
// CHECK:         %[[N0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[N0]])
// CHECK-NEXT:    math.exp
// CHECK:         %[[N1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[N1]])
// CHECK-NEXT:    math.cos
// CHECK:         %[[N2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[N2]])
// CHECK-NEXT:    math.sin
// CHECK:         %[[M2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[M2]])
// CHECK-NEXT:    math.sin
// CHECK-LABEL: ckpt.step @second(
// CHECK:         %[[N3:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    call @ckptRuntimeProfileBegin(%[[N3]])
// CHECK-NEXT:    arith.mulf
ckpt.step @names(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf32> loc("fc1"("s.mlir":1:1))
  %b = math.cos %a : tensor<4xf32> loc(fused["s.mlir":5:6, "t.mlir":7:8])
  %c = math.sin %b : tensor<4xf32> loc(unknown)
  %d = math.sin %c : tensor<4xf32> loc(unknown)
  ckpt.return %l, %d : f32, tensor<4xf32> loss(0)
}
ckpt.step @second(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32 loc("t.mlir":1:1)
  ckpt.return %y : f32 loss(0)
}

// -----

// Functions that are not steps are left alone: no marks, no declarations,
// no attribute.
// CHECK-LABEL: module {
// CHECK-NEXT:    func.func @not_a_step(
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      return
// CHECK-NOT:   ckptRuntimeProfile
func.func @not_a_step(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = math.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}
