// RUN: ckpt-opt %s -split-input-file -verify-diagnostics
// One expected error per invariant of ckpt.opaque.

func.func @empty_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op expects a non-empty name: the operation it stands for}}
  %r = ckpt.opaque ""(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @no_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ckpt.opaque' op expects at least one result: it stands for a pure operation, which computes nothing without results}}
  ckpt.opaque "aten.print"(%x) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @scalar_operand(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op operand #1 must be a ranked tensor with a static shape, got 'f32'}}
  %r = ckpt.opaque "aten.mul"(%x, %s) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic_operand(%x: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op operand #0 must be a ranked tensor with a static shape, got 'tensor<?xf32>'}}
  %r = ckpt.opaque "aten.relu"(%x) : (tensor<?xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @unranked_operand(%x: tensor<*xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op operand #0 must be a ranked tensor with a static shape, got 'tensor<*xf32>'}}
  %r = ckpt.opaque "aten.relu"(%x) : (tensor<*xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @memref_operand(%x: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op operand #0 must be a ranked tensor with a static shape, got 'memref<4xf32>'}}
  %r = ckpt.opaque "aten.relu"(%x) : (memref<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'ckpt.opaque' op result #1 must be a ranked tensor with a static shape, got 'tensor<4x?xf32>'}}
  %r:2 = ckpt.opaque "aten.nonzero"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4x?xf32>)
  return %r#1 : tensor<4x?xf32>
}

// -----

func.func @scalar_result(%x: tensor<4xf32>) -> f32 {
  // expected-error @+1 {{'ckpt.opaque' op result #0 must be a ranked tensor with a static shape, got 'f32'}}
  %r = ckpt.opaque "aten.item"(%x) : (tensor<4xf32>) -> f32
  return %r : f32
}

// -----

func.func @bad_cost(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.cost' must be a #ckpt.cost attribute, got 7 : i64}}
  %r = ckpt.opaque "aten.relu"(%x) {ckpt.cost = 7} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @name_not_a_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op attribute 'name' failed to satisfy constraint: string attribute}}
  %r = "ckpt.opaque"(%x) {name = 7} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @name_missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.opaque' op requires attribute 'name'}}
  %r = "ckpt.opaque"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
