// What ckpt-run measures, on steps small enough to count by hand. Each
// tensor<16xf32> buffer is 64 bytes; ckpt-lower-to-cpu bufferizes it into a
// `memref.alloc() {alignment = 16}` and lowers that to
// `_mlir_memref_to_llvm_aligned_alloc(16, size)`, the size rounded up to a
// multiple of 16. The runtime counts that size: 64 bytes per buffer. With
// dealloc=none nothing inserts deallocations, so a buffer that is neither
// returned nor freed by a `bufferization.dealloc_tensor` is a leak.
//
// REQUIRES: ckpt-run
// RUN: ckpt-opt %s --ckpt-lower-to-cpu=dealloc=none -o %t.mlir
// RUN: ckpt-run %t.mlir --entry=chain | FileCheck %s --check-prefix=CHAIN
// RUN: ckpt-run %t.mlir --entry=with_frees | FileCheck %s --check-prefix=FREES
// RUN: ckpt-run %t.mlir --entry=in_place | FileCheck %s --check-prefix=INPLACE
// RUN: ckpt-run %t.mlir --entry=copy_on_write | FileCheck %s --check-prefix=COPY
// RUN: ckpt-run %t.mlir --entry=returns_arg | FileCheck %s --check-prefix=ARG
// RUN: ckpt-run %t.mlir --entry=types --print-outputs | FileCheck %s --check-prefix=TYPES
// The counters are per run: repeating gives the same numbers.
// RUN: ckpt-run %t.mlir --entry=with_frees --repeat=4 | FileCheck %s --check-prefix=FREES

// x = a + b, y = x * b, z = y - a; returns x and z. Three allocations (x, y,
// z), all live at the end: peak 3 * 64 = 192. x and z are returned (128
// bytes); y is never freed: 64 bytes leaked.
// CHAIN: {"entry":"chain","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":192,"live_bytes_at_exit":192,"result_bytes":128,"leaked_bytes":64,"allocs":3,"frees":0,"unknown_frees":0,"total_bytes":192,
func.func @chain(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %y = linalg.mul ins(%x, %b : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %z = linalg.sub ins(%y, %a : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %x, %z : tensor<16xf32>, tensor<16xf32>
}

// The same chain returning only z, with x freed after its last use and y
// after its own: x (64 live), y (128), free x (64), z (128), free y (64).
// Peak 128 instead of 192; only the result is live at the end: no leak.
// FREES: {"entry":"with_frees","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":128,"live_bytes_at_exit":64,"result_bytes":64,"leaked_bytes":0,"allocs":3,"frees":2,"unknown_frees":0,"total_bytes":192,
func.func @with_frees(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %y = linalg.mul ins(%x, %b : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  bufferization.dealloc_tensor %x : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %z = linalg.sub ins(%y, %a : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  bufferization.dealloc_tensor %y : tensor<16xf32>
  return %z : tensor<16xf32>
}

// Each op writes into the previous result, which is dead afterwards, so
// bufferization works in place: one buffer for the whole chain.
// INPLACE: {"entry":"in_place","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":64,"live_bytes_at_exit":64,"result_bytes":64,"leaked_bytes":0,"allocs":1,"frees":0,"unknown_frees":0,"total_bytes":64,
func.func @in_place(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.mul ins(%x, %b : tensor<16xf32>, tensor<16xf32>) outs(%x : tensor<16xf32>) -> tensor<16xf32>
  %z = linalg.sub ins(%y, %a : tensor<16xf32>, tensor<16xf32>) outs(%y : tensor<16xf32>) -> tensor<16xf32>
  return %z : tensor<16xf32>
}

// y = a + a * b accumulates into a, but a is returned as well, so
// bufferization cannot write into the argument: it allocates a buffer and
// copies a into it (a copy costs an allocation). Result 1 is the caller's own
// argument buffer: not counted, and not freed by ckpt-run.
// COPY: {"entry":"copy_on_write","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":64,"live_bytes_at_exit":64,"result_bytes":64,"leaked_bytes":0,"allocs":1,"frees":0,"unknown_frees":0,"total_bytes":64,
#id = affine_map<(i) -> (i)>
func.func @copy_on_write(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<16xf32>) outs(%a : tensor<16xf32>) {
  ^bb0(%bv: f32, %acc: f32):
    %p = arith.mulf %acc, %bv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %y, %a : tensor<16xf32>, tensor<16xf32>
}

// Returning an argument allocates nothing.
// ARG: {"entry":"returns_arg","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":0,"live_bytes_at_exit":0,"result_bytes":0,"leaked_bytes":0,"allocs":0,"frees":0,"unknown_frees":0,"total_bytes":0,
func.func @returns_arg(%a: tensor<4x4xi32>) -> tensor<4x4xi32> {
  return %a : tensor<4x4xi32>
}

// Every element type, rank 0 included. Inputs come from one splitmix64 stream
// (seed 0) over the arguments in order: f64 in [-0.5, 0.5) from 53 bits,
// integers (x mod 17) - 8. Buffers, rounded up to 16 bytes: 6 x 8 = 48,
// 5 x 4 = 20 -> 32 and 8 -> 16 bytes: 96 in all. The constant result is a global
// (memref.get_global): not an allocation, not counted, not freed.
// TYPES: {"entry":"types","outputs_sha256":"{{[0-9a-f]+}}","peak_bytes":96,"live_bytes_at_exit":96,"result_bytes":96,"leaked_bytes":0,"allocs":3,"frees":0,"unknown_frees":0,"total_bytes":96,
// TYPES-SAME: "outputs":[{"type":"tensor<2x3xf64>","values":[0.76662161642728521,-0.13694400590298006,-0.94713245681480451,0.94176395630765697,-0.78730661686557513,-0.34534847156374848]},
// TYPES-SAME: {"type":"tensor<5xi32>","values":[1,4,49,36,9]},{"type":"tensor<i64>","values":[-2]},{"type":"tensor<f32>","values":[1.5]}]}
func.func @types(%d: tensor<2x3xf64>, %i: tensor<5xi32>, %l: tensor<i64>)
    -> (tensor<2x3xf64>, tensor<5xi32>, tensor<i64>, tensor<f32>) {
  %e0 = tensor.empty() : tensor<2x3xf64>
  %d2 = linalg.add ins(%d, %d : tensor<2x3xf64>, tensor<2x3xf64>) outs(%e0 : tensor<2x3xf64>) -> tensor<2x3xf64>
  %e1 = tensor.empty() : tensor<5xi32>
  %i2 = linalg.mul ins(%i, %i : tensor<5xi32>, tensor<5xi32>) outs(%e1 : tensor<5xi32>) -> tensor<5xi32>
  %e2 = tensor.empty() : tensor<i64>
  %l2 = linalg.add ins(%l, %l : tensor<i64>, tensor<i64>) outs(%e2 : tensor<i64>) -> tensor<i64>
  %c = arith.constant dense<1.5> : tensor<f32>
  return %d2, %i2, %l2, %c : tensor<2x3xf64>, tensor<5xi32>, tensor<i64>, tensor<f32>
}
