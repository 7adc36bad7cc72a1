// A transfer waited for at once (offload_done = offload_after), run on the
// CPU beside the same plan waited for later. The six-op chain of
// test/Transforms/rematerialize-offload.mlir, a (16 B) offloaded after b
// and reloaded after gc: in @waited_later the step waits for the copy
// after d, in @waited_at_once right after issuing it, before c. Both
// return the same bits as the step without transfers, free every byte they
// allocate (host copies too), and peak where the plan says: 80 B at ge (b,
// c, d, e, ge), where a has gone in both; the host holds a's 16 B.
//
// REQUIRES: ckpt-run
// RUN: ckpt-opt %s --ckpt-rematerialize --ckpt-insert-frees --ckpt-lower-to-cpu -o %t.mlir
// RUN: ckpt-run %t.mlir --entry=unplanned --seed=7 > %t.out
// RUN: ckpt-run %t.mlir --entry=waited_later --seed=7 >> %t.out
// RUN: ckpt-run %t.mlir --entry=waited_at_once --seed=7 >> %t.out
// RUN: FileCheck %s < %t.out
// CHECK: "entry":"unplanned","outputs_sha256":"[[SHA:[0-9a-f]+]]","peak_bytes":96,{{.*}}"leaked_bytes":0
// CHECK: "entry":"waited_later","outputs_sha256":"[[SHA]]","peak_bytes":80,{{.*}}"leaked_bytes":0,{{.*}}"host_peak_bytes":16,"host_copies":1,"host_live_bytes_at_exit":0
// CHECK: "entry":"waited_at_once","outputs_sha256":"[[SHA]]","peak_bytes":80,{{.*}}"leaked_bytes":0,{{.*}}"host_peak_bytes":16,"host_copies":1,"host_live_bytes_at_exit":0

ckpt.step @unplanned(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
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

ckpt.step @waited_later(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
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

ckpt.step @waited_at_once(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
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
