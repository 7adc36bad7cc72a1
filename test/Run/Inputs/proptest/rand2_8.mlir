// Written by: python -m ckpt.zoo.proptest --write 2 --ops 8
// A random training step (seed 2, 8 ops, batch 8): dense layers,
// tanh, relu, sums and concatenations on a random DAG; the loss sums one
// mean-squared-error term per value nothing else reads.
func.func @rand2_step(%x: tensor<8x4xf32>, %w1: tensor<4x12xf32>, %w2: tensor<4x16xf32>, %w3: tensor<4x12xf32>, %w4: tensor<32x8xf32>, %t1: tensor<8x12xf32>, %t2: tensor<8x12xf32>, %t3: tensor<8x8xf32>)
    -> (tensor<f32>, tensor<4x12xf32>, tensor<4x16xf32>, tensor<4x12xf32>, tensor<32x8xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // Forward.
  %e1 = tensor.empty() : tensor<8x12xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %v3 = linalg.matmul ins(%x, %w1 : tensor<8x4xf32>, tensor<4x12xf32>)
      outs(%f2 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %e4 = tensor.empty() : tensor<8x16xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v6 = linalg.matmul ins(%x, %w2 : tensor<8x4xf32>, tensor<4x16xf32>)
      outs(%f5 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e7 = tensor.empty() : tensor<8x16xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v6 : tensor<8x16xf32>) outs(%e7 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %v9 = tensor.pad %v8 low[0, 0] high[0, 16] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<8x16xf32> to tensor<8x32xf32>
  %v10 = tensor.pad %v8 low[0, 16] high[0, 0] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<8x16xf32> to tensor<8x32xf32>
  %e11 = tensor.empty() : tensor<8x32xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v9, %v10 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e11 : tensor<8x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e13 = tensor.empty() : tensor<8x12xf32>
  %f14 = linalg.fill ins(%zero : f32) outs(%e13 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %v15 = linalg.matmul ins(%x, %w3 : tensor<8x4xf32>, tensor<4x12xf32>)
      outs(%f14 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %e16 = tensor.empty() : tensor<8x12xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v15 : tensor<8x12xf32>) outs(%e16 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = math.tanh %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e18 = tensor.empty() : tensor<8x32xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v12 : tensor<8x32xf32>) outs(%e18 : tensor<8x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = math.tanh %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e20 = tensor.empty() : tensor<8x8xf32>
  %f21 = linalg.fill ins(%zero : f32) outs(%e20 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %v22 = linalg.matmul ins(%v19, %w4 : tensor<8x32xf32>, tensor<32x8xf32>)
      outs(%f21 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e23 = tensor.empty() : tensor<8x12xf32>
  %v24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %t1 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%e23 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e25 = tensor.empty() : tensor<f32>
  %f26 = linalg.fill ins(%zero : f32) outs(%e25 : tensor<f32>) -> tensor<f32>
  %v27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v24 : tensor<8x12xf32>) outs(%f26 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e28 = tensor.empty() : tensor<f32>
  %v29 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v27 : tensor<f32>) outs(%e28 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.010416666666666666 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e30 = tensor.empty() : tensor<8x12xf32>
  %v31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v17, %t2 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%e30 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e32 = tensor.empty() : tensor<f32>
  %f33 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<f32>) -> tensor<f32>
  %v34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v31 : tensor<8x12xf32>) outs(%f33 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e35 = tensor.empty() : tensor<f32>
  %v36 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v34 : tensor<f32>) outs(%e35 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.010416666666666666 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e37 = tensor.empty() : tensor<f32>
  %v38 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v29, %v36 : tensor<f32>, tensor<f32>) outs(%e37 : tensor<f32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e39 = tensor.empty() : tensor<8x8xf32>
  %v40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v22, %t3 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e39 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e41 = tensor.empty() : tensor<f32>
  %f42 = linalg.fill ins(%zero : f32) outs(%e41 : tensor<f32>) -> tensor<f32>
  %v43 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v40 : tensor<8x8xf32>) outs(%f42 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e44 = tensor.empty() : tensor<f32>
  %v45 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v43 : tensor<f32>) outs(%e44 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.015625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e46 = tensor.empty() : tensor<f32>
  %v47 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v38, %v45 : tensor<f32>, tensor<f32>) outs(%e46 : tensor<f32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  // Backward.
  %e48 = tensor.empty() : tensor<8x8xf32>
  %g49 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v40 : tensor<8x8xf32>) outs(%e48 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.03125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e50 = tensor.empty() : tensor<8x12xf32>
  %g51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v31 : tensor<8x12xf32>) outs(%e50 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.020833333333333332 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e52 = tensor.empty() : tensor<8x12xf32>
  %g53 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v24 : tensor<8x12xf32>) outs(%e52 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.020833333333333332 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e54 = tensor.empty() : tensor<8x32xf32>
  %f55 = linalg.fill ins(%zero : f32) outs(%e54 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %g56 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g49, %w4 : tensor<8x8xf32>, tensor<32x8xf32>) outs(%f55 : tensor<8x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e57 = tensor.empty() : tensor<32x8xf32>
  %f58 = linalg.fill ins(%zero : f32) outs(%e57 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %g59 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v19, %g49 : tensor<8x32xf32>, tensor<8x8xf32>) outs(%f58 : tensor<32x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<32x8xf32>
  %e60 = tensor.empty() : tensor<8x32xf32>
  %g61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g56, %v19 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e60 : tensor<8x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.mulf %a1, %a1 : f32
    %c = arith.subf %one, %s : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x32xf32>
  %e62 = tensor.empty() : tensor<8x12xf32>
  %g63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g51, %v17 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%e62 : tensor<8x12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.mulf %a1, %a1 : f32
    %c = arith.subf %one, %s : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x12xf32>
  %e64 = tensor.empty() : tensor<4x12xf32>
  %f65 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x12xf32>) -> tensor<4x12xf32>
  %g66 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g63 : tensor<8x4xf32>, tensor<8x12xf32>) outs(%f65 : tensor<4x12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x12xf32>
  %e67 = tensor.empty() : tensor<1xf32>
  %e68 = tensor.empty() : tensor<8x16xf32>
  %g69 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g61, %e67 : tensor<8x32xf32>, tensor<1xf32>) outs(%e68 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e70 = tensor.empty() : tensor<8x16xf32>
  %g71 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g61 : tensor<8x32xf32>) outs(%e70 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e72 = tensor.empty() : tensor<8x16xf32>
  %g73 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g69, %g71 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e72 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e74 = tensor.empty() : tensor<8x16xf32>
  %g75 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g73, %v6 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e74 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e76 = tensor.empty() : tensor<4x16xf32>
  %f77 = linalg.fill ins(%zero : f32) outs(%e76 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g78 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g75 : tensor<8x4xf32>, tensor<8x16xf32>) outs(%f77 : tensor<4x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e79 = tensor.empty() : tensor<4x12xf32>
  %f80 = linalg.fill ins(%zero : f32) outs(%e79 : tensor<4x12xf32>) -> tensor<4x12xf32>
  %g81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g53 : tensor<8x4xf32>, tensor<8x12xf32>) outs(%f80 : tensor<4x12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x12xf32>
  return %v47, %g81, %g78, %g66, %g59 : tensor<f32>, tensor<4x12xf32>, tensor<4x16xf32>, tensor<4x12xf32>, tensor<32x8xf32>
}
