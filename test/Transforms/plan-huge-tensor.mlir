// Static shapes too large to size: 2^62 f32 elements (2^64 bytes) used to
// wrap around to 0 B, and the planner planned the step as if the tensors
// were free; now they are refused like dynamic shapes, with their own error.
// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-plan="budget=70%"

ckpt.step @wraps_to_zero(%x: tensor<4611686018427387904xf32>, %l: f32) -> (f32, tensor<4611686018427387904xf32>) {
  // expected-error @+1 {{'math.exp' op has an operand (#0: 'tensor<4611686018427387904xf32>') of more than 2^50 bytes; the planner cannot size it}}
  %a = math.exp %x : tensor<4611686018427387904xf32>
  %b = math.exp %a : tensor<4611686018427387904xf32>
  ckpt.return %l, %b : f32, tensor<4611686018427387904xf32> loss(0)
}

// -----

// More than 2^63 elements: the element count itself overflows.
ckpt.step @count_overflows(%x: tensor<4294967296x4294967296xf32>, %l: f32) -> (f32, tensor<4294967296x4294967296xf32>) {
  // expected-error @+1 {{'math.exp' op has an operand (#0: 'tensor<4294967296x4294967296xf32>') of more than 2^50 bytes; the planner cannot size it}}
  %a = math.exp %x : tensor<4294967296x4294967296xf32>
  ckpt.return %l, %a : f32, tensor<4294967296x4294967296xf32> loss(0)
}

// -----

// A zero-sized dimension is 0 B, whatever the other dimensions: planned.
ckpt.step @empty(%x: tensor<0x4611686018427387904xf32>, %l: f32) -> (f32, tensor<0x4611686018427387904xf32>) {
  %a = math.exp %x : tensor<0x4611686018427387904xf32>
  ckpt.return %l, %a : f32, tensor<0x4611686018427387904xf32> loss(0)
}
