// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(ckpt-gpu-managed-memory))' | FileCheck %s
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(ckpt-gpu-managed-memory{host-register=false}))' | FileCheck %s --check-prefix=NOREG

// Allocations become managed memory, deallocations an async gpu.dealloc
// waited for at once; the argument is registered at entry and unregistered
// before the return.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[A:[^:]*]]: memref<4xf32>)
// CHECK-NEXT:    %[[U:.*]] = memref.cast %[[A]] : memref<4xf32> to memref<*xf32>
// CHECK-NEXT:    gpu.host_register %[[U]] : memref<*xf32>
// CHECK-NEXT:    %[[B:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT:    %[[C:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[A]], %[[B]]
// CHECK-NEXT:    memref.copy %[[B]], %[[C]]
// CHECK-NEXT:    %[[W:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]] = gpu.dealloc async [%[[W]]] %[[B]] : memref<4xf32>
// CHECK-NEXT:    gpu.wait [%[[D]]]
// CHECK-NEXT:    gpu.host_unregister %[[U]] : memref<*xf32>
// CHECK-NEXT:    return %[[C]] : memref<4xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// Declarations are left alone.
// CHECK:       func.func private @decl(memref<4xf32>)
// NOREG-LABEL: func.func @f(
// NOREG-NOT:     gpu.host_register
// NOREG:         gpu.alloc host_shared
// NOREG-NOT:     gpu.host_unregister
// NOREG:         return
func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.copy %b, %c : memref<4xf32> to memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return %c : memref<4xf32>
}
func.func private @decl(%a: memref<4xf32>)

// -----

// Constant buffers live in host memory the kernels cannot read.
memref.global "private" constant @w : memref<4xf32> = dense<1.0>
func.func @g() -> memref<4xf32> {
  // expected-error @+1 {{ckpt-lower-to-nvptx: constant buffers (memref.get_global) live in host memory the kernels cannot read; not supported}}
  %w = memref.get_global @w : memref<4xf32>
  return %w : memref<4xf32>
}

// -----

// Host copies of offloaded values (ckpt-lower-host-copies: an allocation
// right after ckptRuntimeBeginHostCopy) stay in host memory, and so does
// their dealloc; the step's other buffers become managed memory.
// CHECK-LABEL: func.func @host_copy(
// CHECK:         %[[D:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK:         call @ckptRuntimeBeginHostCopy() : () -> ()
// CHECK-NEXT:    %[[H:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    call @ckptRuntimeEndHostCopy() : () -> ()
// CHECK-NEXT:    memref.copy %[[D]], %[[H]]
// CHECK:         memref.dealloc %[[H]] : memref<4xf32>
func.func private @ckptRuntimeBeginHostCopy()
func.func private @ckptRuntimeEndHostCopy()
func.func @host_copy() {
  %d = memref.alloc() : memref<4xf32>
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<4xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %d, %h : memref<4xf32> to memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  memref.dealloc %h : memref<4xf32>
  return
}

// -----

// Host memory left in memory space 1: ckpt-lower-host-copies did not run.
func.func @host_space() {
  // expected-error @+1 {{ckpt-lower-to-nvptx: a buffer in host memory (memory space 1): run ckpt-lower-host-copies first}}
  %h = memref.alloc() : memref<4xf32, 1>
  memref.dealloc %h : memref<4xf32, 1>
  return
}
