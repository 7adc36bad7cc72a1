// Written by: python -m ckpt.zoo.proptest --write 28 --ops 8
// A random training step (seed 28, 8 ops, batch 8): dense layers,
// tanh, relu, sums and concatenations on a random DAG; the loss sums one
// mean-squared-error term per value nothing else reads.
func.func @rand28_step(%x: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>, %w3: tensor<8x8xf32>, %t1: tensor<8x8xf32>, %t2: tensor<8x16xf32>, %t3: tensor<8x8xf32>)
    -> (tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // Forward.
  %e1 = tensor.empty() : tensor<8x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %v3 = linalg.matmul ins(%x, %w1 : tensor<8x8xf32>, tensor<8x8xf32>)
      outs(%f2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e4 = tensor.empty() : tensor<8x8xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %v6 = linalg.matmul ins(%x, %w2 : tensor<8x8xf32>, tensor<8x8xf32>)
      outs(%f5 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e7 = tensor.empty() : tensor<8x8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %v9 = linalg.matmul ins(%v6, %w3 : tensor<8x8xf32>, tensor<8x8xf32>)
      outs(%f8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e10 = tensor.empty() : tensor<8x8xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v9 : tensor<8x8xf32>) outs(%e10 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e12 = tensor.empty() : tensor<8x8xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11 : tensor<8x8xf32>) outs(%e12 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = math.tanh %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e14 = tensor.empty() : tensor<8x8xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v13 : tensor<8x8xf32>) outs(%e14 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = math.tanh %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %v16 = tensor.pad %v15 low[0, 0] high[0, 8] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<8x16xf32>
  %v17 = tensor.pad %v11 low[0, 8] high[0, 0] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<8x16xf32>
  %e18 = tensor.empty() : tensor<8x16xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v16, %v17 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e18 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e20 = tensor.empty() : tensor<8x8xf32>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v9 : tensor<8x8xf32>) outs(%e20 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = math.tanh %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e22 = tensor.empty() : tensor<8x8xf32>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v3, %t1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e22 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e24 = tensor.empty() : tensor<f32>
  %f25 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<f32>) -> tensor<f32>
  %v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v23 : tensor<8x8xf32>) outs(%f25 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e27 = tensor.empty() : tensor<f32>
  %v28 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v26 : tensor<f32>) outs(%e27 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.015625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e29 = tensor.empty() : tensor<8x16xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v19, %t2 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e29 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e31 = tensor.empty() : tensor<f32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e31 : tensor<f32>) -> tensor<f32>
  %v33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v30 : tensor<8x16xf32>) outs(%f32 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e34 = tensor.empty() : tensor<f32>
  %v35 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v33 : tensor<f32>) outs(%e34 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0078125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e36 = tensor.empty() : tensor<f32>
  %v37 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v28, %v35 : tensor<f32>, tensor<f32>) outs(%e36 : tensor<f32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e38 = tensor.empty() : tensor<8x8xf32>
  %v39 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v21, %t3 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e38 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e40 = tensor.empty() : tensor<f32>
  %f41 = linalg.fill ins(%zero : f32) outs(%e40 : tensor<f32>) -> tensor<f32>
  %v42 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%v39 : tensor<8x8xf32>) outs(%f41 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e43 = tensor.empty() : tensor<f32>
  %v44 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v42 : tensor<f32>) outs(%e43 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.015625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e45 = tensor.empty() : tensor<f32>
  %v46 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%v37, %v44 : tensor<f32>, tensor<f32>) outs(%e45 : tensor<f32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  // Backward.
  %e47 = tensor.empty() : tensor<8x8xf32>
  %g48 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v39 : tensor<8x8xf32>) outs(%e47 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.03125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e49 = tensor.empty() : tensor<8x16xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v30 : tensor<8x16xf32>) outs(%e49 : tensor<8x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.015625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %e51 = tensor.empty() : tensor<8x8xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v23 : tensor<8x8xf32>) outs(%e51 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.03125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e53 = tensor.empty() : tensor<8x8xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g48, %v21 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e53 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.mulf %a1, %a1 : f32
    %c = arith.subf %one, %s : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e55 = tensor.empty() : tensor<1xf32>
  %e56 = tensor.empty() : tensor<8x8xf32>
  %g57 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g50, %e55 : tensor<8x16xf32>, tensor<1xf32>) outs(%e56 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e58 = tensor.empty() : tensor<8x8xf32>
  %g59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 8)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g50 : tensor<8x16xf32>) outs(%e58 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e60 = tensor.empty() : tensor<8x8xf32>
  %g61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g57, %v15 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e60 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.mulf %a1, %a1 : f32
    %c = arith.subf %one, %s : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e62 = tensor.empty() : tensor<8x8xf32>
  %g63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g61, %v13 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e62 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.mulf %a1, %a1 : f32
    %c = arith.subf %one, %s : f32
    %y = arith.mulf %a0, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e64 = tensor.empty() : tensor<8x8xf32>
  %g65 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g59, %g63 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e64 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e66 = tensor.empty() : tensor<8x8xf32>
  %g67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g65, %v9 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e66 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e68 = tensor.empty() : tensor<8x8xf32>
  %g69 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g54, %g67 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e68 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e70 = tensor.empty() : tensor<8x8xf32>
  %f71 = linalg.fill ins(%zero : f32) outs(%e70 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %g72 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g69, %w3 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f71 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e73 = tensor.empty() : tensor<8x8xf32>
  %f74 = linalg.fill ins(%zero : f32) outs(%e73 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %g75 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v6, %g69 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f74 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e76 = tensor.empty() : tensor<8x8xf32>
  %f77 = linalg.fill ins(%zero : f32) outs(%e76 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %g78 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g72 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f77 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e79 = tensor.empty() : tensor<8x8xf32>
  %f80 = linalg.fill ins(%zero : f32) outs(%e79 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %g81 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g52 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f80 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  return %v46, %g81, %g78, %g75 : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
