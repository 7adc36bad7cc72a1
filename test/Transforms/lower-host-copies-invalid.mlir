// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-lower-host-copies

// Host memory (memory space 1) read by a kernel: only copies and deallocs
// may use it.
func.func @host_buffer_computed_on(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %h = memref.alloc() : memref<4xf32, 1>
  memref.copy %x, %h : memref<4xf32> to memref<4xf32, 1>
  // expected-error @+1 {{'memref.load' op uses a host copy: only memref.copy and memref.dealloc may}}
  %v = memref.load %h[%c0] : memref<4xf32, 1>
  memref.dealloc %h : memref<4xf32, 1>
  return
}

// -----

func.func @dynamic_host_buffer(%n: index) {
  // expected-error @+1 {{'memref.alloc' op host copies of dynamic shape are not supported}}
  %h = memref.alloc(%n) : memref<?xf32, 1>
  memref.dealloc %h : memref<?xf32, 1>
  return
}
