// Written by: python -m ckpt.zoo.proptest --write 1 --ops 1
// A random training step (seed 1, 1 ops, batch 32): dense layers,
// tanh, relu, sums and concatenations on a random DAG; the loss sums one
// mean-squared-error term per value nothing else reads.
func.func @rand1_step(%x: tensor<32x4xf32>, %w1: tensor<4x16xf32>, %t1: tensor<32x16xf32>)
    -> (tensor<f32>, tensor<4x16xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  // Forward.
  %e1 = tensor.empty() : tensor<32x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %v3 = linalg.matmul ins(%x, %w1 : tensor<32x4xf32>, tensor<4x16xf32>)
      outs(%f2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %e4 = tensor.empty() : tensor<32x16xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %t1 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%e4 : tensor<32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  %e6 = tensor.empty() : tensor<f32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<f32>) -> tensor<f32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v5 : tensor<32x16xf32>) outs(%f7 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e9 = tensor.empty() : tensor<f32>
  %v10 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v8 : tensor<f32>) outs(%e9 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.001953125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  // Backward.
  %e11 = tensor.empty() : tensor<32x16xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v5 : tensor<32x16xf32>) outs(%e11 : tensor<32x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.00390625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  %e13 = tensor.empty() : tensor<4x16xf32>
  %f14 = linalg.fill ins(%zero : f32) outs(%e13 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g12 : tensor<32x4xf32>, tensor<32x16xf32>) outs(%f14 : tensor<4x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %v10, %g15 : tensor<f32>, tensor<4x16xf32>
}
