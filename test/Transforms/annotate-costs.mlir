// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-annotate-costs | FileCheck %s
// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-annotate-costs="device=cpu" | FileCheck %s --check-prefix=CPU
// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-annotate-costs="overwrite=true" | FileCheck %s --check-prefix=OVER
// RUN: ckpt-opt %s -split-input-file -allow-unregistered-dialect --ckpt-annotate-costs="profile=%S/Inputs/profile.json" | FileCheck %s --check-prefix=PROF

// Work by hand (f32 = 4 B). h100 roofline: 67e12 flop/s, 3.35e12 B/s.
// matmul 4x8 * 8x16: flops 2*4*16*8 = 1024; bytes: A 128 + B 512 + C written
//   256 + C read 256 (the payload accumulates) = 1152; time 1152/3.35e12 = 3.4388e-10.
//   cpu (1e11 flop/s, 2e10 B/s): max(1.024e-8, 5.76e-8) = 5.76e-8.
// generic tanh 4x16: 64 iterations x 1 op = 64 flops; bytes 256 in + 256 out
//   (the payload does not read the init) = 512; time 1.5284e-10.
// fill 4x16: no arithmetic; bytes: scalar 4 + 256 written = 260.
// arith.addf on tensor<4xf32>: 4 flops, 3 x 16 = 48 B. arith.constant: nothing.
// tensor.empty: nothing. An unregistered op: opaque, 16 B in + 32 B out.
// CHECK-LABEL: ckpt.step @costs(
// CHECK:         arith.constant {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>}
// CHECK:         tensor.empty() {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>}
// CHECK:         linalg.fill {ckpt.cost = #ckpt.cost<flops = 0, bytes = 260, time = 7.76119{{[0-9]+}}E-11>}
// CHECK:         linalg.matmul {ckpt.cost = #ckpt.cost<flops = 1024, bytes = 1152, time = 3.43880{{[0-9]+}}E-10>}
// CHECK:         linalg.generic
// CHECK-SAME:      ckpt.cost = #ckpt.cost<flops = 64, bytes = 512, time = 1.52835{{[0-9]+}}E-10>
// Ops inside a payload are part of their linalg op's cost, not costed alone.
// CHECK-NOT:       ckpt.cost
// CHECK:           linalg.yield
// CHECK:         arith.addf %{{.*}} {ckpt.cost = #ckpt.cost<flops = 4, bytes = 48, time = 1.43283{{[0-9]+}}E-11>}
// CHECK:         "foreign.op"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 48, time = 1.43283{{[0-9]+}}E-11>}
// A cost the user wrote is kept (unless overwrite=true).
// CHECK:         math.exp %{{.*}} {ckpt.cost = #ckpt.cost<flops = 7, bytes = 7, time = 7.000000e+00>}
// CHECK:         ckpt.return
// CPU-LABEL: ckpt.step @costs(
// CPU:         linalg.matmul {ckpt.cost = #ckpt.cost<flops = 1024, bytes = 1152, time = 5.760000e-08>}
// OVER-LABEL: ckpt.step @costs(
// OVER:         math.exp %{{.*}} {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 9.55223{{[0-9]+}}E-12>}
// PROF-LABEL: ckpt.step @costs(
// PROF:         linalg.matmul {ckpt.cost = #ckpt.cost<flops = 1024, bytes = 1152, time = 2.000000e-03>}
// PROF:         linalg.generic
// PROF-SAME:      time = 1.52835{{[0-9]+}}E-10
#id = affine_map<(i, j) -> (i, j)>
ckpt.step @costs(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %v: tensor<4xf32>) -> (f32, tensor<4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %s = arith.addf %v, %v : tensor<4xf32>
  %u = "foreign.op"(%v) : (tensor<4xf32>) -> tensor<8xf32>
  %x = math.exp %v {ckpt.cost = #ckpt.cost<flops = 7, bytes = 7, time = 7.0>} : tensor<4xf32>
  ckpt.return %zero, %t, %s, %u, %x : f32, tensor<4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32> loss(0)
}

// -----

// TOSA and tensor ops, by hand (h100 bandwidth 3.35e12 B/s dominates):
// tosa.matmul [1,2,3] x [1,3,4]: 2 x 8 outputs x 3 = 48 flops; bytes 24 + 48
//   + 4 + 4 (zero points) + 32 = 112; tosa.add on 2x3: 6 flops, 24 x 3 = 72 B;
// tosa.const and arith.constant: nothing; tensor.extract_slice 2x2: read and
// write 16 B each = 32 B; tensor.collapse_shape is a view: nothing.
// CHECK-LABEL: ckpt.step @tosa_and_tensor(
// CHECK:         "tosa.const"(){{.*}}{ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>}
// CHECK:         tosa.matmul {{.*}}{ckpt.cost = #ckpt.cost<flops = 48, bytes = 112, time = 3.34328{{[0-9]+}}E-11>}
// CHECK:         tosa.add {{.*}}{ckpt.cost = #ckpt.cost<flops = 6, bytes = 72, time = 2.14925{{[0-9]+}}E-11>}
// CHECK:         tensor.extract_slice {{.*}}{ckpt.cost = #ckpt.cost<flops = 0, bytes = 32, time = 9.55223{{[0-9]+}}E-12>}
// CHECK:         tensor.collapse_shape {{.*}}{ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 0.000000e+00>}
ckpt.step @tosa_and_tensor(%a: tensor<1x2x3xf32>, %b: tensor<1x3x4xf32>, %x: tensor<2x3xf32>, %t: tensor<4x4xf32>) -> (f32, tensor<1x2x4xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<16xf32>) {
  %l = arith.constant 0.0 : f32
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %s = tosa.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = tensor.extract_slice %t[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  ckpt.return %l, %m, %s, %e, %c : f32, tensor<1x2x4xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<16xf32> loss(0)
}

// -----

// Measured times by location win over times by op name; ops of recompute
// regions are costed too; ops outside steps are not.
// PROF-LABEL: ckpt.step @by_location(
// PROF:         math.exp %{{.*}} {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 5.000000e-01>}
// PROF:         ckpt.recompute
// PROF:           math.sin %{{.*}} {ckpt.cost = #ckpt.cost<flops = 4, bytes = 32, time = 9.55223{{[0-9]+}}E-12>}
// PROF:           ckpt.yield
// PROF-LABEL: func.func @not_a_step(
// PROF-NOT:     ckpt.cost
ckpt.step @by_location(%v: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>, tensor<4xf32>) {
  %x = math.exp %v : tensor<4xf32> loc("slow_exp")
  %r = ckpt.recompute (%v) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%in: tensor<4xf32>):
    %y = math.sin %in : tensor<4xf32>
    ckpt.yield %y : tensor<4xf32>
  }
  ckpt.return %l, %x, %r : f32, tensor<4xf32>, tensor<4xf32> loss(0)
}
func.func @not_a_step(%v: tensor<4xf32>) -> tensor<4xf32> {
  %x = math.exp %v : tensor<4xf32>
  return %x : tensor<4xf32>
}


// -----

// An op the cost model does not know, with its work recorded (#ckpt.work, as
// the PyTorch importer writes it on ckpt.opaque): timed by the roofline of the
// device asked for. 6 flops, 48 bytes: h100 max(6/67e12, 48/3.35e12) =
// 1.4328358e-11 s; cpu max(6/1e11, 48/2e10) = 2.4e-9 s. The work stays.
// CHECK-LABEL: ckpt.step @work(
// CHECK:         ckpt.opaque "aten.cumsum"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 6, bytes = 48, time = 1.43283{{[0-9]+}}E-11>, ckpt.work = #ckpt.work<flops = 6, bytes = 48>}
// PROF-LABEL: ckpt.step @work(
// CPU-LABEL: ckpt.step @work(
// CPU:         ckpt.opaque "aten.cumsum"(%{{.*}}) {ckpt.cost = #ckpt.cost<flops = 6, bytes = 48, time = 2.400000e-09>, ckpt.work = #ckpt.work<flops = 6, bytes = 48>}
ckpt.step @work(%v: tensor<2x3xf32>, %l: f32) -> (f32, tensor<2x3xf32>) {
  %x = ckpt.opaque "aten.cumsum"(%v) {ckpt.work = #ckpt.work<flops = 6, bytes = 48>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  ckpt.return %l, %x : f32, tensor<2x3xf32> loss(0)
}
