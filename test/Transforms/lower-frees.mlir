// RUN: ckpt-opt %s --pass-pipeline="builtin.module(func.func(ckpt-lower-frees))" | FileCheck %s
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(func.func(ckpt-lower-frees{free-leftovers=false}))" | FileCheck %s --check-prefix=NOLEFT
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(func.func(ckpt-lower-frees{erase-only=true}))" | FileCheck %s --check-prefix=ERASE

// A free of a buffer whose alias (a subview) is read after the free:
// bufferization shared the buffer, so the dealloc goes after the last use
// of any alias. The free of an argument is dropped; the returned buffer is
// never freed; %c has no ckpt.free (a copy bufferization made): freed after
// its last use with free-leftovers, left alone without.
// CHECK-LABEL: func.func @aliases(
// CHECK-SAME:      %[[ARG:.*]]: memref<4xf32>
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[V:.*]] = memref.subview %[[A]]
// CHECK-NEXT:    memref.copy %[[ARG]], %[[C]]
// CHECK-NEXT:    memref.dealloc %[[C]]
// CHECK-NEXT:    memref.copy %[[V]], %[[B]]
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    return %[[B]]
// CHECK-NOT:     ckpt.free
// NOLEFT-LABEL: func.func @aliases(
// NOLEFT-NOT:     memref.dealloc %{{.*}}_1
// NOLEFT:         memref.dealloc %alloc :
// NOLEFT-NOT:     memref.dealloc
// NOLEFT:         return
// ERASE-LABEL: func.func @aliases(
// ERASE-NOT:     memref.dealloc
// ERASE-NOT:     ckpt.free
// ERASE:         return
func.func @aliases(%arg: memref<4xf32>) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %v = memref.subview %a[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
  "ckpt.free"(%a) : (memref<4xf32>) -> ()
  "ckpt.free"(%arg) : (memref<4xf32>) -> ()
  memref.copy %arg, %c : memref<4xf32> to memref<4xf32>
  memref.copy %v, %b : memref<4xf32, strided<[1]>> to memref<4xf32>
  return %b : memref<4xf32>
}


// The input frees %x itself (a bufferization.dealloc_tensor, bufferized to
// memref.dealloc): neither a ckpt.free of %x nor free-leftovers adds a second
// dealloc; %y, which nothing frees, is freed after its last use.
// CHECK-LABEL: func.func @deallocated(
// CHECK:         %[[X:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[Z:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[X]], %[[Y]]
// CHECK-NEXT:    memref.dealloc %[[X]]
// CHECK-NEXT:    memref.copy %[[Y]], %[[Z]]
// CHECK-NEXT:    memref.dealloc %[[Y]]
// CHECK-NEXT:    return %[[Z]]
// NOLEFT-LABEL: func.func @deallocated(
// NOLEFT-COUNT-1: memref.dealloc
// NOLEFT-NOT:     memref.dealloc
// NOLEFT:         return
func.func @deallocated() -> memref<4xf32> {
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %z = memref.alloc() : memref<4xf32>
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  "ckpt.free"(%x) : (memref<4xf32>) -> ()
  memref.copy %y, %z : memref<4xf32> to memref<4xf32>
  return %z : memref<4xf32>
}
