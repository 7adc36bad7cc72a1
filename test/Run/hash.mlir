// outputs_sha256 is the SHA-256 of all results' bytes in order (row-major,
// little-endian). It depends only on the inputs, which depend only on --seed.
//
// REQUIRES: ckpt-run
// RUN: ckpt-opt %s --ckpt-lower-to-cpu=dealloc=none -o %t.mlir
// RUN: ckpt-run %t.mlir --entry=step --seed=1 | FileCheck %s --check-prefix=SEED1
// The same seed gives the same hash, at every optimization level and when
// repeated; another seed gives another hash.
// RUN: ckpt-run %t.mlir --entry=step --seed=1 --opt-level=0 | FileCheck %s --check-prefix=SEED1
// RUN: ckpt-run %t.mlir --entry=step --seed=1 --opt-level=3 --repeat=3 | FileCheck %s --check-prefix=SEED1
// ... and for every CPU the JIT may target: the x86-64 baseline, AVX2 (also
// through CKPT_ISA, which scripts/test.sh --generic sets), the host.
// RUN: ckpt-run %t.mlir --entry=step --seed=1 --jit-cpu=generic --opt-level=2 | FileCheck %s --check-prefix=SEED1
// RUN: env CKPT_ISA=avx2 ckpt-run %t.mlir --entry=step --seed=1 --opt-level=2 | FileCheck %s --check-prefix=SEED1
// RUN: env CKPT_ISA=generic ckpt-run %t.mlir --entry=step --seed=1 --jit-cpu=host | FileCheck %s --check-prefix=SEED1
// RUN: not ckpt-run %t.mlir --entry=step --jit-cpu=pentium9000 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: ckpt-run: error: cannot create a target machine for CPU 'pentium9000'
// RUN: ckpt-run %t.mlir --entry=step --seed=1 | grep -o '"outputs_sha256":"[0-9a-f]*"' > %t.h1
// RUN: ckpt-run %t.mlir --entry=step --seed=1 | grep -o '"outputs_sha256":"[0-9a-f]*"' > %t.h1b
// RUN: ckpt-run %t.mlir --entry=step --seed=2 | grep -o '"outputs_sha256":"[0-9a-f]*"' > %t.h2
// RUN: diff %t.h1 %t.h1b
// RUN: not diff %t.h1 %t.h2
// The entry defaults to the only function with a ckpt.signature.
// RUN: ckpt-run %t.mlir --seed=1 | FileCheck %s --check-prefix=SEED1
// --print-outputs adds the values to the one JSON object.
// RUN: ckpt-run %t.mlir --entry=step --seed=1 --print-outputs | FileCheck %s --check-prefix=VALUES

// x = a + b, z = x * b - a on the seed-1 inputs (a: the first 16 values of
// the splitmix64 stream, b: the next 16, each (bits >> 40) * 2^-24 - 0.5).
// These are exact IEEE operations, so the hash is that of numpy's float32
// x.tobytes() + z.tobytes() on the same inputs (checked when this was written).
// SEED1: {"entry":"step","outputs_sha256":"b0f05c1a9c8b47d6cb6977c9303f86be6d13e6361a1dbb70e992ddb92c8b0ea1",
// VALUES: "outputs":[{"type":"tensor<16xf32>","values":[0.211896122,0.561132252,0.652707636,0.328683734,
// VALUES-SAME: {"type":"tensor<16xf32>","values":[-0.0357656814,-0.0688283592,-0.352402508,0.181962043,
func.func @step(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %y = linalg.mul ins(%x, %b : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  %e3 = tensor.empty() : tensor<16xf32>
  %z = linalg.sub ins(%y, %a : tensor<16xf32>, tensor<16xf32>) outs(%e3 : tensor<16xf32>) -> tensor<16xf32>
  return %x, %z : tensor<16xf32>, tensor<16xf32>
}
