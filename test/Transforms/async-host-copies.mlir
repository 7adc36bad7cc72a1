// RUN: ckpt-opt %s -split-input-file --ckpt-async-host-copies | FileCheck %s
// RUN: ckpt-opt %s -split-input-file --ckpt-async-host-copies=runtime=cuda | FileCheck %s --check-prefix=CUDA
// RUN: not ckpt-opt %s -split-input-file --ckpt-async-host-copies=runtime=tpu 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --runtime option: 'tpu' is not a valid value: expected cpu or cuda

// An offload (%a into the host copy %h) and its reload (%h into %a2), as
// ckpt-lower-offloads and ckpt-lower-host-copies leave them. The offload's
// copy reads %a: the log reading %a runs beside it, the dealloc of %a
// waits. The reload's copy writes %a2: the abs, which does not touch it,
// runs beside it, the mul reading %a2 waits. The reload is issued after
// the offload's wait (it reads %h, which the offload writes).
// CHECK:       func.func private @ckptRuntimeCopyAsync(i64, i64, i64) -> i64
// CHECK-NEXT:  func.func private @ckptRuntimeWaitCopy(i64)
// CHECK-LABEL: func.func @moved(
// CHECK:         linalg.exp
// CHECK:         call @ckptRuntimeBeginHostCopy()
// CHECK-NEXT:    %[[H:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    call @ckptRuntimeEndHostCopy()
// CHECK-NEXT:    %[[HP:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK-NEXT:    %[[HI:.*]] = arith.index_cast %[[HP]] : index to i64
// CHECK-NEXT:    %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[A:.*]] :
// CHECK-NEXT:    %[[AI:.*]] = arith.index_cast %[[AP]] : index to i64
// CHECK-NEXT:    %[[N:.*]] = arith.constant 16 : i64
// CHECK-NEXT:    %[[OFF:.*]] = call @ckptRuntimeCopyAsync(%[[HI]], %[[AI]], %[[N]])
// CHECK-NOT:     memref.copy
// CHECK-NEXT:    %[[B:.*]] = memref.alloc()
// CHECK-NEXT:    linalg.log ins(%[[A]] : memref<4xf32>) outs(%[[B]]
// CHECK-NEXT:    call @ckptRuntimeWaitCopy(%[[OFF]])
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    %[[A2:.*]] = memref.alloc()
// CHECK-NEXT:    %[[A2P:.*]] = memref.extract_aligned_pointer_as_index %[[A2]]
// CHECK-NEXT:    %[[A2I:.*]] = arith.index_cast %[[A2P]]
// CHECK-NEXT:    %[[HP2:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK-NEXT:    %[[HI2:.*]] = arith.index_cast %[[HP2]]
// CHECK-NEXT:    %[[N2:.*]] = arith.constant 16 : i64
// CHECK-NEXT:    %[[ON:.*]] = call @ckptRuntimeCopyAsync(%[[A2I]], %[[HI2]], %[[N2]])
// CHECK-NEXT:    %[[C:.*]] = memref.alloc()
// CHECK-NEXT:    linalg.abs ins(%[[B]] : memref<4xf32>) outs(%[[C]]
// CHECK-NEXT:    call @ckptRuntimeWaitCopy(%[[ON]])
// CHECK-NEXT:    linalg.mul ins(%[[C]], %[[A2]] :
// CHECK-NEXT:    memref.dealloc %[[H]]
// The same with the CUDA runtime's functions.
// CUDA:        func.func private @ckptCudaCopyAsync(i64, i64, i64) -> i64
// CUDA-NEXT:   func.func private @ckptCudaWaitCopy(i64)
// CUDA-LABEL:  func.func @moved(
// CUDA:          %[[OFF:.*]] = call @ckptCudaCopyAsync(
// CUDA:          call @ckptCudaWaitCopy(%[[OFF]])
// CUDA-NEXT:     memref.dealloc
// CUDA:          %[[ON:.*]] = call @ckptCudaCopyAsync(
// CUDA:          call @ckptCudaWaitCopy(%[[ON]])
// CUDA-NEXT:     linalg.mul
// CUDA-NOT:      ckptRuntimeCopyAsync
func.func private @ckptRuntimeBeginHostCopy()
func.func private @ckptRuntimeEndHostCopy()

func.func @moved(%x: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<4xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %a, %h : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.log ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  memref.dealloc %a : memref<4xf32>
  %a2 = memref.alloc() : memref<4xf32>
  memref.copy %h, %a2 : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  linalg.abs ins(%b : memref<4xf32>) outs(%c : memref<4xf32>)
  linalg.mul ins(%c, %a2 : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  memref.dealloc %h : memref<4xf32>
  memref.dealloc %a2 : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return
}

// -----

// A write through a view of the offloaded buffer waits; taking the view
// does not. The source of the copy is a function argument (the pointer of
// any identity-layout buffer will do).
// CHECK-LABEL: func.func @view_written(
// CHECK-SAME:      %[[X:.*]]: memref<8xf32>
// CHECK:         %[[OFF:.*]] = call @ckptRuntimeCopyAsync(
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[X]][0] [4] [1]
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc()
// CHECK-NEXT:    linalg.exp ins(%[[S]] : {{.*}}) outs(%[[Y]]
// CHECK-NEXT:    call @ckptRuntimeWaitCopy(%[[OFF]])
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[S]]
func.func private @ckptRuntimeBeginHostCopy()
func.func private @ckptRuntimeEndHostCopy()

func.func @view_written(%x: memref<8xf32>) -> memref<4xf32> {
  %zero = arith.constant 0.0 : f32
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<8xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %x, %h : memref<8xf32> to memref<8xf32>
  %s = memref.subview %x[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %y = memref.alloc() : memref<4xf32>
  linalg.exp ins(%s : memref<4xf32, strided<[1]>>) outs(%y : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32, strided<[1]>>)
  memref.dealloc %h : memref<8xf32>
  return %y : memref<4xf32>
}

// -----

// Nothing touches either buffer after the copy: it is waited for before
// the return. A call whose memory effects are unknown waits for a copy
// that reads its operand, as for one that writes it.
// CHECK-LABEL: func.func @waited_at_return(
// CHECK:         %[[E:.*]] = call @ckptRuntimeCopyAsync(
// CHECK-NEXT:    call @ckptRuntimeWaitCopy(%[[E]])
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @unknown_effects(
// CHECK:         %[[E:.*]] = call @ckptRuntimeCopyAsync(
// CHECK-NEXT:    call @ckptRuntimeWaitCopy(%[[E]])
// CHECK-NEXT:    call @opaque(
func.func private @ckptRuntimeBeginHostCopy()
func.func private @ckptRuntimeEndHostCopy()
func.func private @opaque(memref<4xf32>)

func.func @waited_at_return(%x: memref<4xf32>) -> memref<4xf32> {
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<4xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %x, %h : memref<4xf32> to memref<4xf32>
  return %h : memref<4xf32>
}

func.func @unknown_effects(%x: memref<4xf32>) {
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<4xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %x, %h : memref<4xf32> to memref<4xf32>
  call @opaque(%x) : (memref<4xf32>) -> ()
  memref.dealloc %h : memref<4xf32>
  return
}

// -----

// Left synchronous: a strided source (not one dense range of bytes), and
// a copy between two buffers neither of which is a host copy. Nothing is
// declared when nothing is rewritten.
// CHECK-NOT:   ckptRuntimeCopyAsync
// CHECK-LABEL: func.func @stays(
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4xf32, strided<[2]>> to memref<4xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32>
// CHECK-NOT:     ckptRuntimeCopyAsync
func.func private @ckptRuntimeBeginHostCopy()
func.func private @ckptRuntimeEndHostCopy()

func.func @stays(%x: memref<8xf32>, %y: memref<4xf32>) {
  %s = memref.subview %x[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  call @ckptRuntimeBeginHostCopy() : () -> ()
  %h = memref.alloc() : memref<4xf32>
  call @ckptRuntimeEndHostCopy() : () -> ()
  memref.copy %s, %h : memref<4xf32, strided<[2]>> to memref<4xf32>
  %z = memref.alloc() : memref<4xf32>
  memref.copy %y, %z : memref<4xf32> to memref<4xf32>
  memref.dealloc %h : memref<4xf32>
  memref.dealloc %z : memref<4xf32>
  return
}
