// The remat pipeline = wrap-step, plan, rematerialize, insert-frees; its
// options are ckpt-plan's. With the chain of Transforms/plan.mlir under 80 B
// (fit=model: the chain model of plan.mlir, whose least budget is 80 B) the
// chain DP's schedule recomputes d before gd, and a and b before ga (gb
// reads the b it kept): two runs of recomputations, two regions, and frees.
// RUN: ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-remat-pipeline="budget=80 slots=0 fit=model strategy=optimal device=cpu profile=%S/../Transforms/Inputs/profile.json" | FileCheck %s --check-prefix=REMAT
// REMAT-LABEL: ckpt.step @chain6(
// REMAT-NOT:     ckpt.plan
// REMAT-COUNT-2: ckpt.recompute
// REMAT-NOT:     ckpt.recompute
// REMAT:         ckpt.free
// REMAT:         ckpt.return
// A func.func with ckpt.loss is wrapped first; memory-poor recomputes from
// a^0 before each backward (Fck1 Fn2 Fall3 B3 Fck1 Fall2 B2 Fall1 B1): ga
// (B2) reads the recomputed a and b, one run of two recomputations, so one
// region with two results; the last recomputation of a is unread.
// RUN: ckpt-opt %s --ckpt-remat-pipeline="strategy=memory-poor fit=model budget=1MiB" | FileCheck %s --check-prefix=WRAP
// WRAP-LABEL: ckpt.step @f(
// WRAP:         %[[R:.*]]:2 = ckpt.recompute({{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// WRAP:         arith.mulf %[[R]]#1, %[[R]]#0
// WRAP-NOT:     ckpt.recompute
// The CPU lowering: an LLVM-dialect module, the step with a C interface and
// its signature, allocations through the generic (counted) functions, and
// frees (ckpt's) or none.
// RUN: ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-remat-pipeline="budget=80 slots=0 fit=model" --ckpt-lower-to-cpu | FileCheck %s --check-prefix=CPU
// CPU: llvm.func @_mlir_memref_to_llvm_free
// CPU: llvm.func @chain6(
// CPU-SAME: ckpt.signature = (tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>)
// CPU-SAME: llvm.emit_c_interface
// CPU: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CPU: llvm.call @_mlir_memref_to_llvm_free
// RUN: ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-lower-to-cpu="dealloc=none" | FileCheck %s --check-prefix=NONE
// NONE-LABEL: llvm.func @chain6(
// NONE-NOT: llvm.call @_mlir_memref_to_llvm_free
// NONE: llvm.return
// RUN: ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-lower-to-cpu="dealloc=upstream" | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM-LABEL: llvm.func @chain6(
// UPSTREAM: llvm.call @_mlir_memref_to_llvm_free
// RUN: not ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-lower-to-cpu="dealloc=foo" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --dealloc option: 'foo' is not a valid value: expected ckpt, upstream or none
// kernels=blas: the MLP's f32 matmuls become calls of the runtime's kernel
// (ckpt-call-kernels after ckpt-check-peak), through its C interface;
// kernels=loops (the default) calls none.
// RUN: ckpt-opt %S/../Inputs/steps/mlp.mlir --ckpt-wrap-step --ckpt-lower-to-cpu="kernels=blas" | FileCheck %s --check-prefix=BLAS
// BLAS-DAG: llvm.func private @ckpt_kernel_contract_f32(
// BLAS-DAG: llvm.func @_mlir_ciface_ckpt_kernel_contract_f32(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// BLAS-LABEL: llvm.func @mlp_step(
// BLAS-COUNT-8: llvm.call @ckpt_kernel_contract_f32(
// RUN: ckpt-opt %S/../Inputs/steps/mlp.mlir --ckpt-wrap-step --ckpt-lower-to-cpu="kernels=loops" | FileCheck %s --check-prefix=LOOPS
// LOOPS-NOT: ckpt_kernel
// LOOPS: llvm.func @mlp_step(
// LOOPS-NOT: ckpt_kernel
// RUN: not ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-lower-to-cpu="kernels=cublas" 2>&1 | FileCheck %s --check-prefix=BADKERNELS
// BADKERNELS: for the --kernels option: 'cublas' is not a valid value: expected loops or blas
// The remat pipeline's closed-set options are checked when parsed, as ckpt-plan's.
// RUN: not ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-remat-pipeline="fit=simulaton" 2>&1 | FileCheck %s --check-prefix=BADFIT
// BADFIT: for the --fit option: 'simulaton' is not a valid value: expected simulation or model
// RUN: not ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-remat-pipeline="device=tpu" 2>&1 | FileCheck %s --check-prefix=BADDEVICE
// BADDEVICE: for the --device option: 'tpu' is not a valid value: expected h100, a100, v100, cpu or gh200
// RUN: not ckpt-opt %S/../Transforms/Inputs/chain6.mlir --ckpt-remat-pipeline="budget=1 slots=0" 2>&1 | FileCheck %s --check-prefix=INFEASIBLE
// INFEASIBLE: error: budget of 1 B is infeasible for strategy 'optimal': the least feasible budget is

func.func @f(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {ckpt.loss = 0 : i64} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %l = tensor.extract_slice %b[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  %ga = arith.mulf %b, %a : tensor<4xf32>
  return %l, %ga : tensor<1xf32>, tensor<4xf32>
}
