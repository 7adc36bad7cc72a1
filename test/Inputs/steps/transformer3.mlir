// Written by: python -m ckpt.zoo transformer --depth 3 --batch 4 --width 16 --size 32
// zoo: transformer depth=3 batch=4 width=16 size=32: x[4x32x16],
// 3 pre-LayerNorm blocks (LN, single-head softmax attention, + residual; LN, MLP 16->32 relu ->16, + residual),
// mean-squared-error loss against t[same shape]. Results: loss, then per block dWq dWk dWv dWo dW1 dW2 dg1 db1 dg2 db2
func.func @transformer3_step(%x: tensor<4x32x16xf32>, %t: tensor<4x32x16xf32>, %wq1: tensor<16x16xf32>, %wk1: tensor<16x16xf32>, %wv1: tensor<16x16xf32>, %wo1: tensor<16x16xf32>, %w1_1: tensor<16x32xf32>, %w2_1: tensor<32x16xf32>, %g1_1: tensor<16xf32>, %b1_1: tensor<16xf32>, %g2_1: tensor<16xf32>, %b2_1: tensor<16xf32>, %wq2: tensor<16x16xf32>, %wk2: tensor<16x16xf32>, %wv2: tensor<16x16xf32>, %wo2: tensor<16x16xf32>, %w1_2: tensor<16x32xf32>, %w2_2: tensor<32x16xf32>, %g1_2: tensor<16xf32>, %b1_2: tensor<16xf32>, %g2_2: tensor<16xf32>, %b2_2: tensor<16xf32>, %wq3: tensor<16x16xf32>, %wk3: tensor<16x16xf32>, %wv3: tensor<16x16xf32>, %wo3: tensor<16x16xf32>, %w1_3: tensor<16x32xf32>, %w2_3: tensor<32x16xf32>, %g1_3: tensor<16xf32>, %b1_3: tensor<16xf32>, %g2_3: tensor<16xf32>, %b2_3: tensor<16xf32>)
    -> (tensor<f32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  // Forward.
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x32x16xf32>) outs(%f2 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e4 = tensor.empty() : tensor<4x32x16xf32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %v3 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e4 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e6 = tensor.empty() : tensor<4x32xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v5 : tensor<4x32x16xf32>) outs(%f7 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e9 = tensor.empty() : tensor<4x32xf32>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v8 : tensor<4x32xf32>) outs(%e9 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e11 = tensor.empty() : tensor<4x32x16xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5, %v10 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e11 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e13 = tensor.empty() : tensor<4x32x16xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v12, %g1_1, %b1_1 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e13 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e15 = tensor.empty() : tensor<4x32x16xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e15 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v14, %wq1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f16 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e18 = tensor.empty() : tensor<4x32x16xf32>
  %f19 = linalg.fill ins(%zero : f32) outs(%e18 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v14, %wk1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f19 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e21 = tensor.empty() : tensor<4x32x16xf32>
  %f22 = linalg.fill ins(%zero : f32) outs(%e21 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v14, %wv1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f22 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e24 = tensor.empty() : tensor<4x32x32xf32>
  %f25 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v17, %v20 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f25 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %m = arith.mulf %a0, %a1 : f32
    %n = arith.mulf %m, %s : f32
    %y = arith.addf %acc, %n : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e27 = tensor.empty() : tensor<4x32xf32>
  %f28 = linalg.fill ins(%neg_inf : f32) outs(%e27 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v26 : tensor<4x32x32xf32>) outs(%f28 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e30 = tensor.empty() : tensor<4x32x32xf32>
  %v31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v26, %v29 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e30 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e32 = tensor.empty() : tensor<4x32xf32>
  %f33 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v34 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v31 : tensor<4x32x32xf32>) outs(%f33 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e35 = tensor.empty() : tensor<4x32x32xf32>
  %v36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v31, %v34 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e35 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e37 = tensor.empty() : tensor<4x32x16xf32>
  %f38 = linalg.fill ins(%zero : f32) outs(%e37 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v39 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v36, %v23 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f38 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e40 = tensor.empty() : tensor<4x32x16xf32>
  %f41 = linalg.fill ins(%zero : f32) outs(%e40 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v42 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v39, %wo1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f41 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e43 = tensor.empty() : tensor<4x32x16xf32>
  %v44 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %v42 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e43 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e45 = tensor.empty() : tensor<4x32xf32>
  %f46 = linalg.fill ins(%zero : f32) outs(%e45 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v47 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v44 : tensor<4x32x16xf32>) outs(%f46 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e48 = tensor.empty() : tensor<4x32x16xf32>
  %v49 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v44, %v47 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e48 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e50 = tensor.empty() : tensor<4x32xf32>
  %f51 = linalg.fill ins(%zero : f32) outs(%e50 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v49 : tensor<4x32x16xf32>) outs(%f51 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e53 = tensor.empty() : tensor<4x32xf32>
  %v54 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v52 : tensor<4x32xf32>) outs(%e53 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e55 = tensor.empty() : tensor<4x32x16xf32>
  %v56 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v49, %v54 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e55 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e57 = tensor.empty() : tensor<4x32x16xf32>
  %v58 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v56, %g2_1, %b2_1 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e57 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e59 = tensor.empty() : tensor<4x32x32xf32>
  %f60 = linalg.fill ins(%zero : f32) outs(%e59 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v61 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v58, %w1_1 : tensor<4x32x16xf32>, tensor<16x32xf32>) outs(%f60 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e62 = tensor.empty() : tensor<4x32x32xf32>
  %v63 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v61 : tensor<4x32x32xf32>) outs(%e62 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e64 = tensor.empty() : tensor<4x32x16xf32>
  %f65 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v66 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v63, %w2_1 : tensor<4x32x32xf32>, tensor<32x16xf32>) outs(%f65 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e67 = tensor.empty() : tensor<4x32x16xf32>
  %v68 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v44, %v66 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e67 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e69 = tensor.empty() : tensor<4x32xf32>
  %f70 = linalg.fill ins(%zero : f32) outs(%e69 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v71 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v68 : tensor<4x32x16xf32>) outs(%f70 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e72 = tensor.empty() : tensor<4x32x16xf32>
  %v73 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v68, %v71 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e72 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e74 = tensor.empty() : tensor<4x32xf32>
  %f75 = linalg.fill ins(%zero : f32) outs(%e74 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v76 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v73 : tensor<4x32x16xf32>) outs(%f75 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e77 = tensor.empty() : tensor<4x32xf32>
  %v78 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v76 : tensor<4x32xf32>) outs(%e77 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e79 = tensor.empty() : tensor<4x32x16xf32>
  %v80 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v73, %v78 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e79 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e81 = tensor.empty() : tensor<4x32x16xf32>
  %v82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v80, %g1_2, %b1_2 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e81 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e83 = tensor.empty() : tensor<4x32x16xf32>
  %f84 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v85 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v82, %wq2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f84 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e86 = tensor.empty() : tensor<4x32x16xf32>
  %f87 = linalg.fill ins(%zero : f32) outs(%e86 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v88 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v82, %wk2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f87 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e89 = tensor.empty() : tensor<4x32x16xf32>
  %f90 = linalg.fill ins(%zero : f32) outs(%e89 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v91 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v82, %wv2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f90 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e92 = tensor.empty() : tensor<4x32x32xf32>
  %f93 = linalg.fill ins(%zero : f32) outs(%e92 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v94 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v85, %v88 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f93 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %m = arith.mulf %a0, %a1 : f32
    %n = arith.mulf %m, %s : f32
    %y = arith.addf %acc, %n : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e95 = tensor.empty() : tensor<4x32xf32>
  %f96 = linalg.fill ins(%neg_inf : f32) outs(%e95 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v97 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v94 : tensor<4x32x32xf32>) outs(%f96 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e98 = tensor.empty() : tensor<4x32x32xf32>
  %v99 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v94, %v97 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e98 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e100 = tensor.empty() : tensor<4x32xf32>
  %f101 = linalg.fill ins(%zero : f32) outs(%e100 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v102 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v99 : tensor<4x32x32xf32>) outs(%f101 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e103 = tensor.empty() : tensor<4x32x32xf32>
  %v104 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v99, %v102 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e103 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e105 = tensor.empty() : tensor<4x32x16xf32>
  %f106 = linalg.fill ins(%zero : f32) outs(%e105 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v107 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v104, %v91 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f106 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e108 = tensor.empty() : tensor<4x32x16xf32>
  %f109 = linalg.fill ins(%zero : f32) outs(%e108 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v110 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v107, %wo2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f109 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e111 = tensor.empty() : tensor<4x32x16xf32>
  %v112 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v68, %v110 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e111 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e113 = tensor.empty() : tensor<4x32xf32>
  %f114 = linalg.fill ins(%zero : f32) outs(%e113 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v115 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v112 : tensor<4x32x16xf32>) outs(%f114 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e116 = tensor.empty() : tensor<4x32x16xf32>
  %v117 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v112, %v115 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e116 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e118 = tensor.empty() : tensor<4x32xf32>
  %f119 = linalg.fill ins(%zero : f32) outs(%e118 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v120 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v117 : tensor<4x32x16xf32>) outs(%f119 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e121 = tensor.empty() : tensor<4x32xf32>
  %v122 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v120 : tensor<4x32xf32>) outs(%e121 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e123 = tensor.empty() : tensor<4x32x16xf32>
  %v124 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v117, %v122 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e123 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e125 = tensor.empty() : tensor<4x32x16xf32>
  %v126 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v124, %g2_2, %b2_2 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e125 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e127 = tensor.empty() : tensor<4x32x32xf32>
  %f128 = linalg.fill ins(%zero : f32) outs(%e127 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v129 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v126, %w1_2 : tensor<4x32x16xf32>, tensor<16x32xf32>) outs(%f128 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e130 = tensor.empty() : tensor<4x32x32xf32>
  %v131 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v129 : tensor<4x32x32xf32>) outs(%e130 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e132 = tensor.empty() : tensor<4x32x16xf32>
  %f133 = linalg.fill ins(%zero : f32) outs(%e132 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v134 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v131, %w2_2 : tensor<4x32x32xf32>, tensor<32x16xf32>) outs(%f133 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e135 = tensor.empty() : tensor<4x32x16xf32>
  %v136 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v112, %v134 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e135 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e137 = tensor.empty() : tensor<4x32xf32>
  %f138 = linalg.fill ins(%zero : f32) outs(%e137 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v139 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v136 : tensor<4x32x16xf32>) outs(%f138 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e140 = tensor.empty() : tensor<4x32x16xf32>
  %v141 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v136, %v139 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e140 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e142 = tensor.empty() : tensor<4x32xf32>
  %f143 = linalg.fill ins(%zero : f32) outs(%e142 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v144 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v141 : tensor<4x32x16xf32>) outs(%f143 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e145 = tensor.empty() : tensor<4x32xf32>
  %v146 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v144 : tensor<4x32xf32>) outs(%e145 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e147 = tensor.empty() : tensor<4x32x16xf32>
  %v148 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v141, %v146 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e147 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e149 = tensor.empty() : tensor<4x32x16xf32>
  %v150 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v148, %g1_3, %b1_3 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e149 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e151 = tensor.empty() : tensor<4x32x16xf32>
  %f152 = linalg.fill ins(%zero : f32) outs(%e151 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v150, %wq3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f152 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e154 = tensor.empty() : tensor<4x32x16xf32>
  %f155 = linalg.fill ins(%zero : f32) outs(%e154 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v156 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v150, %wk3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f155 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e157 = tensor.empty() : tensor<4x32x16xf32>
  %f158 = linalg.fill ins(%zero : f32) outs(%e157 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v159 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v150, %wv3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f158 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e160 = tensor.empty() : tensor<4x32x32xf32>
  %f161 = linalg.fill ins(%zero : f32) outs(%e160 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v162 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v153, %v156 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f161 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %m = arith.mulf %a0, %a1 : f32
    %n = arith.mulf %m, %s : f32
    %y = arith.addf %acc, %n : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e163 = tensor.empty() : tensor<4x32xf32>
  %f164 = linalg.fill ins(%neg_inf : f32) outs(%e163 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v165 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v162 : tensor<4x32x32xf32>) outs(%f164 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e166 = tensor.empty() : tensor<4x32x32xf32>
  %v167 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v162, %v165 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e166 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e168 = tensor.empty() : tensor<4x32xf32>
  %f169 = linalg.fill ins(%zero : f32) outs(%e168 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v170 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v167 : tensor<4x32x32xf32>) outs(%f169 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e171 = tensor.empty() : tensor<4x32x32xf32>
  %v172 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v167, %v170 : tensor<4x32x32xf32>, tensor<4x32xf32>) outs(%e171 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e173 = tensor.empty() : tensor<4x32x16xf32>
  %f174 = linalg.fill ins(%zero : f32) outs(%e173 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v175 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v172, %v159 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f174 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e176 = tensor.empty() : tensor<4x32x16xf32>
  %f177 = linalg.fill ins(%zero : f32) outs(%e176 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v178 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v175, %wo3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f177 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e179 = tensor.empty() : tensor<4x32x16xf32>
  %v180 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v136, %v178 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e179 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e181 = tensor.empty() : tensor<4x32xf32>
  %f182 = linalg.fill ins(%zero : f32) outs(%e181 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v183 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v180 : tensor<4x32x16xf32>) outs(%f182 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e184 = tensor.empty() : tensor<4x32x16xf32>
  %v185 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v180, %v183 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e184 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e186 = tensor.empty() : tensor<4x32xf32>
  %f187 = linalg.fill ins(%zero : f32) outs(%e186 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %v188 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v185 : tensor<4x32x16xf32>) outs(%f187 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %q = arith.mulf %a0, %a0 : f32
    %m = arith.mulf %q, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e189 = tensor.empty() : tensor<4x32xf32>
  %v190 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v188 : tensor<4x32xf32>) outs(%e189 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %e = arith.constant 1.0e-05 : f32
    %v = arith.addf %a0, %e : f32
    %y = math.rsqrt %v : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e191 = tensor.empty() : tensor<4x32x16xf32>
  %v192 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v185, %v190 : tensor<4x32x16xf32>, tensor<4x32xf32>) outs(%e191 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e193 = tensor.empty() : tensor<4x32x16xf32>
  %v194 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v192, %g2_3, %b2_3 : tensor<4x32x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e193 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %m, %a2 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e195 = tensor.empty() : tensor<4x32x32xf32>
  %f196 = linalg.fill ins(%zero : f32) outs(%e195 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %v197 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v194, %w1_3 : tensor<4x32x16xf32>, tensor<16x32xf32>) outs(%f196 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e198 = tensor.empty() : tensor<4x32x32xf32>
  %v199 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v197 : tensor<4x32x32xf32>) outs(%e198 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e200 = tensor.empty() : tensor<4x32x16xf32>
  %f201 = linalg.fill ins(%zero : f32) outs(%e200 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %v202 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v199, %w2_3 : tensor<4x32x32xf32>, tensor<32x16xf32>) outs(%f201 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e203 = tensor.empty() : tensor<4x32x16xf32>
  %v204 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v180, %v202 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e203 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e205 = tensor.empty() : tensor<4x32x16xf32>
  %v206 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v204, %t : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e205 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e207 = tensor.empty() : tensor<f32>
  %f208 = linalg.fill ins(%zero : f32) outs(%e207 : tensor<f32>) -> tensor<f32>
  %v209 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%v206 : tensor<4x32x16xf32>) outs(%f208 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e210 = tensor.empty() : tensor<f32>
  %v211 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%v209 : tensor<f32>) outs(%e210 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.00048828125 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  // Backward.
  %e212 = tensor.empty() : tensor<4x32x16xf32>
  %g213 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v206 : tensor<4x32x16xf32>) outs(%e212 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0009765625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e214 = tensor.empty() : tensor<4x32x32xf32>
  %f215 = linalg.fill ins(%zero : f32) outs(%e214 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g216 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g213, %w2_3 : tensor<4x32x16xf32>, tensor<32x16xf32>) outs(%f215 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e217 = tensor.empty() : tensor<32x16xf32>
  %f218 = linalg.fill ins(%zero : f32) outs(%e217 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %g219 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v199, %g213 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f218 : tensor<32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  %e220 = tensor.empty() : tensor<4x32x32xf32>
  %g221 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g216, %v197 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%e220 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e222 = tensor.empty() : tensor<4x32x16xf32>
  %f223 = linalg.fill ins(%zero : f32) outs(%e222 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g224 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g221, %w1_3 : tensor<4x32x32xf32>, tensor<16x32xf32>) outs(%f223 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e225 = tensor.empty() : tensor<16x32xf32>
  %f226 = linalg.fill ins(%zero : f32) outs(%e225 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %g227 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v194, %g221 : tensor<4x32x16xf32>, tensor<4x32x32xf32>) outs(%f226 : tensor<16x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %e228 = tensor.empty() : tensor<16xf32>
  %f229 = linalg.fill ins(%zero : f32) outs(%e228 : tensor<16xf32>) -> tensor<16xf32>
  %g230 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g224, %v192 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f229 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e231 = tensor.empty() : tensor<16xf32>
  %f232 = linalg.fill ins(%zero : f32) outs(%e231 : tensor<16xf32>) -> tensor<16xf32>
  %g233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g224 : tensor<4x32x16xf32>) outs(%f232 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e234 = tensor.empty() : tensor<4x32x16xf32>
  %g235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g224, %g2_3 : tensor<4x32x16xf32>, tensor<16xf32>) outs(%e234 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e236 = tensor.empty() : tensor<4x32xf32>
  %f237 = linalg.fill ins(%zero : f32) outs(%e236 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g235 : tensor<4x32x16xf32>) outs(%f237 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e239 = tensor.empty() : tensor<4x32xf32>
  %f240 = linalg.fill ins(%zero : f32) outs(%e239 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g241 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g235, %v192 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f240 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %p = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %p, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e242 = tensor.empty() : tensor<4x32x16xf32>
  %g243 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g235, %g238, %v192, %g241, %v190 : tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32xf32>) outs(%e242 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %u = arith.subf %a0, %a1 : f32
    %v = arith.mulf %a2, %a3 : f32
    %w = arith.subf %u, %v : f32
    %y = arith.mulf %w, %a4 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e244 = tensor.empty() : tensor<4x32x16xf32>
  %g245 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g213, %g243 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e244 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e246 = tensor.empty() : tensor<4x32x16xf32>
  %f247 = linalg.fill ins(%zero : f32) outs(%e246 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g248 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g245, %wo3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f247 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e249 = tensor.empty() : tensor<16x16xf32>
  %f250 = linalg.fill ins(%zero : f32) outs(%e249 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g251 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v175, %g245 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f250 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e252 = tensor.empty() : tensor<4x32x32xf32>
  %f253 = linalg.fill ins(%zero : f32) outs(%e252 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g254 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g248, %v159 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f253 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e255 = tensor.empty() : tensor<4x32x16xf32>
  %f256 = linalg.fill ins(%zero : f32) outs(%e255 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v172, %g248 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f256 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e258 = tensor.empty() : tensor<4x32xf32>
  %f259 = linalg.fill ins(%zero : f32) outs(%e258 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g260 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g254, %v172 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%f259 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e261 = tensor.empty() : tensor<4x32x32xf32>
  %g262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g254, %g260, %v172 : tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>) outs(%e261 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %d = arith.subf %a0, %a1 : f32
    %m = arith.mulf %d, %a2 : f32
    %y = arith.mulf %m, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e263 = tensor.empty() : tensor<4x32x16xf32>
  %f264 = linalg.fill ins(%zero : f32) outs(%e263 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g265 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g262, %v156 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f264 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e266 = tensor.empty() : tensor<4x32x16xf32>
  %f267 = linalg.fill ins(%zero : f32) outs(%e266 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g268 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g262, %v153 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f267 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e269 = tensor.empty() : tensor<4x32x16xf32>
  %f270 = linalg.fill ins(%zero : f32) outs(%e269 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g271 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g257, %wv3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f270 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e272 = tensor.empty() : tensor<16x16xf32>
  %f273 = linalg.fill ins(%zero : f32) outs(%e272 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g274 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v150, %g257 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f273 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e275 = tensor.empty() : tensor<4x32x16xf32>
  %f276 = linalg.fill ins(%zero : f32) outs(%e275 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g277 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g268, %wk3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f276 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e278 = tensor.empty() : tensor<16x16xf32>
  %f279 = linalg.fill ins(%zero : f32) outs(%e278 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g280 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v150, %g268 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f279 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e281 = tensor.empty() : tensor<4x32x16xf32>
  %g282 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g271, %g277 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e281 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e283 = tensor.empty() : tensor<4x32x16xf32>
  %f284 = linalg.fill ins(%zero : f32) outs(%e283 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g285 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g265, %wq3 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f284 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e286 = tensor.empty() : tensor<16x16xf32>
  %f287 = linalg.fill ins(%zero : f32) outs(%e286 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g288 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v150, %g265 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f287 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e289 = tensor.empty() : tensor<4x32x16xf32>
  %g290 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g282, %g285 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e289 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e291 = tensor.empty() : tensor<16xf32>
  %f292 = linalg.fill ins(%zero : f32) outs(%e291 : tensor<16xf32>) -> tensor<16xf32>
  %g293 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g290, %v148 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f292 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e294 = tensor.empty() : tensor<16xf32>
  %f295 = linalg.fill ins(%zero : f32) outs(%e294 : tensor<16xf32>) -> tensor<16xf32>
  %g296 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g290 : tensor<4x32x16xf32>) outs(%f295 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e297 = tensor.empty() : tensor<4x32x16xf32>
  %g298 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g290, %g1_3 : tensor<4x32x16xf32>, tensor<16xf32>) outs(%e297 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e299 = tensor.empty() : tensor<4x32xf32>
  %f300 = linalg.fill ins(%zero : f32) outs(%e299 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g301 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g298 : tensor<4x32x16xf32>) outs(%f300 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e302 = tensor.empty() : tensor<4x32xf32>
  %f303 = linalg.fill ins(%zero : f32) outs(%e302 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g304 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g298, %v148 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f303 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %p = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %p, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e305 = tensor.empty() : tensor<4x32x16xf32>
  %g306 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g298, %g301, %v148, %g304, %v146 : tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32xf32>) outs(%e305 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %u = arith.subf %a0, %a1 : f32
    %v = arith.mulf %a2, %a3 : f32
    %w = arith.subf %u, %v : f32
    %y = arith.mulf %w, %a4 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e307 = tensor.empty() : tensor<4x32x16xf32>
  %g308 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g245, %g306 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e307 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e309 = tensor.empty() : tensor<4x32x32xf32>
  %f310 = linalg.fill ins(%zero : f32) outs(%e309 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g311 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g308, %w2_2 : tensor<4x32x16xf32>, tensor<32x16xf32>) outs(%f310 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e312 = tensor.empty() : tensor<32x16xf32>
  %f313 = linalg.fill ins(%zero : f32) outs(%e312 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %g314 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v131, %g308 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f313 : tensor<32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  %e315 = tensor.empty() : tensor<4x32x32xf32>
  %g316 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g311, %v129 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%e315 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e317 = tensor.empty() : tensor<4x32x16xf32>
  %f318 = linalg.fill ins(%zero : f32) outs(%e317 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g319 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g316, %w1_2 : tensor<4x32x32xf32>, tensor<16x32xf32>) outs(%f318 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e320 = tensor.empty() : tensor<16x32xf32>
  %f321 = linalg.fill ins(%zero : f32) outs(%e320 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %g322 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v126, %g316 : tensor<4x32x16xf32>, tensor<4x32x32xf32>) outs(%f321 : tensor<16x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %e323 = tensor.empty() : tensor<16xf32>
  %f324 = linalg.fill ins(%zero : f32) outs(%e323 : tensor<16xf32>) -> tensor<16xf32>
  %g325 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g319, %v124 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f324 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e326 = tensor.empty() : tensor<16xf32>
  %f327 = linalg.fill ins(%zero : f32) outs(%e326 : tensor<16xf32>) -> tensor<16xf32>
  %g328 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g319 : tensor<4x32x16xf32>) outs(%f327 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e329 = tensor.empty() : tensor<4x32x16xf32>
  %g330 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g319, %g2_2 : tensor<4x32x16xf32>, tensor<16xf32>) outs(%e329 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e331 = tensor.empty() : tensor<4x32xf32>
  %f332 = linalg.fill ins(%zero : f32) outs(%e331 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g333 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g330 : tensor<4x32x16xf32>) outs(%f332 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e334 = tensor.empty() : tensor<4x32xf32>
  %f335 = linalg.fill ins(%zero : f32) outs(%e334 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g336 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g330, %v124 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f335 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %p = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %p, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e337 = tensor.empty() : tensor<4x32x16xf32>
  %g338 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g330, %g333, %v124, %g336, %v122 : tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32xf32>) outs(%e337 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %u = arith.subf %a0, %a1 : f32
    %v = arith.mulf %a2, %a3 : f32
    %w = arith.subf %u, %v : f32
    %y = arith.mulf %w, %a4 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e339 = tensor.empty() : tensor<4x32x16xf32>
  %g340 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g308, %g338 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e339 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e341 = tensor.empty() : tensor<4x32x16xf32>
  %f342 = linalg.fill ins(%zero : f32) outs(%e341 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g343 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g340, %wo2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f342 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e344 = tensor.empty() : tensor<16x16xf32>
  %f345 = linalg.fill ins(%zero : f32) outs(%e344 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g346 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v107, %g340 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f345 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e347 = tensor.empty() : tensor<4x32x32xf32>
  %f348 = linalg.fill ins(%zero : f32) outs(%e347 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g349 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g343, %v91 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f348 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e350 = tensor.empty() : tensor<4x32x16xf32>
  %f351 = linalg.fill ins(%zero : f32) outs(%e350 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g352 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v104, %g343 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f351 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e353 = tensor.empty() : tensor<4x32xf32>
  %f354 = linalg.fill ins(%zero : f32) outs(%e353 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g355 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g349, %v104 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%f354 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e356 = tensor.empty() : tensor<4x32x32xf32>
  %g357 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g349, %g355, %v104 : tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>) outs(%e356 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %d = arith.subf %a0, %a1 : f32
    %m = arith.mulf %d, %a2 : f32
    %y = arith.mulf %m, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e358 = tensor.empty() : tensor<4x32x16xf32>
  %f359 = linalg.fill ins(%zero : f32) outs(%e358 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g360 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g357, %v88 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f359 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e361 = tensor.empty() : tensor<4x32x16xf32>
  %f362 = linalg.fill ins(%zero : f32) outs(%e361 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g363 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g357, %v85 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f362 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e364 = tensor.empty() : tensor<4x32x16xf32>
  %f365 = linalg.fill ins(%zero : f32) outs(%e364 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g366 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g352, %wv2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f365 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e367 = tensor.empty() : tensor<16x16xf32>
  %f368 = linalg.fill ins(%zero : f32) outs(%e367 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g369 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v82, %g352 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f368 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e370 = tensor.empty() : tensor<4x32x16xf32>
  %f371 = linalg.fill ins(%zero : f32) outs(%e370 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g372 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g363, %wk2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f371 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e373 = tensor.empty() : tensor<16x16xf32>
  %f374 = linalg.fill ins(%zero : f32) outs(%e373 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g375 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v82, %g363 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f374 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e376 = tensor.empty() : tensor<4x32x16xf32>
  %g377 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g366, %g372 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e376 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e378 = tensor.empty() : tensor<4x32x16xf32>
  %f379 = linalg.fill ins(%zero : f32) outs(%e378 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g380 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g360, %wq2 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f379 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e381 = tensor.empty() : tensor<16x16xf32>
  %f382 = linalg.fill ins(%zero : f32) outs(%e381 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g383 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v82, %g360 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f382 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e384 = tensor.empty() : tensor<4x32x16xf32>
  %g385 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g377, %g380 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e384 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e386 = tensor.empty() : tensor<16xf32>
  %f387 = linalg.fill ins(%zero : f32) outs(%e386 : tensor<16xf32>) -> tensor<16xf32>
  %g388 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g385, %v80 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f387 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e389 = tensor.empty() : tensor<16xf32>
  %f390 = linalg.fill ins(%zero : f32) outs(%e389 : tensor<16xf32>) -> tensor<16xf32>
  %g391 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g385 : tensor<4x32x16xf32>) outs(%f390 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e392 = tensor.empty() : tensor<4x32x16xf32>
  %g393 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g385, %g1_2 : tensor<4x32x16xf32>, tensor<16xf32>) outs(%e392 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e394 = tensor.empty() : tensor<4x32xf32>
  %f395 = linalg.fill ins(%zero : f32) outs(%e394 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g396 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g393 : tensor<4x32x16xf32>) outs(%f395 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e397 = tensor.empty() : tensor<4x32xf32>
  %f398 = linalg.fill ins(%zero : f32) outs(%e397 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g399 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g393, %v80 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f398 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %p = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %p, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e400 = tensor.empty() : tensor<4x32x16xf32>
  %g401 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g393, %g396, %v80, %g399, %v78 : tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32xf32>) outs(%e400 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %u = arith.subf %a0, %a1 : f32
    %v = arith.mulf %a2, %a3 : f32
    %w = arith.subf %u, %v : f32
    %y = arith.mulf %w, %a4 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e402 = tensor.empty() : tensor<4x32x16xf32>
  %g403 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g340, %g401 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e402 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e404 = tensor.empty() : tensor<4x32x32xf32>
  %f405 = linalg.fill ins(%zero : f32) outs(%e404 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g406 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g403, %w2_1 : tensor<4x32x16xf32>, tensor<32x16xf32>) outs(%f405 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e407 = tensor.empty() : tensor<32x16xf32>
  %f408 = linalg.fill ins(%zero : f32) outs(%e407 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %g409 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v63, %g403 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f408 : tensor<32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  %e410 = tensor.empty() : tensor<4x32x32xf32>
  %g411 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g406, %v61 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%e410 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e412 = tensor.empty() : tensor<4x32x16xf32>
  %f413 = linalg.fill ins(%zero : f32) outs(%e412 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g414 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g411, %w1_1 : tensor<4x32x32xf32>, tensor<16x32xf32>) outs(%f413 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e415 = tensor.empty() : tensor<16x32xf32>
  %f416 = linalg.fill ins(%zero : f32) outs(%e415 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %g417 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v58, %g411 : tensor<4x32x16xf32>, tensor<4x32x32xf32>) outs(%f416 : tensor<16x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %e418 = tensor.empty() : tensor<16xf32>
  %f419 = linalg.fill ins(%zero : f32) outs(%e418 : tensor<16xf32>) -> tensor<16xf32>
  %g420 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g414, %v56 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f419 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e421 = tensor.empty() : tensor<16xf32>
  %f422 = linalg.fill ins(%zero : f32) outs(%e421 : tensor<16xf32>) -> tensor<16xf32>
  %g423 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g414 : tensor<4x32x16xf32>) outs(%f422 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e424 = tensor.empty() : tensor<4x32x16xf32>
  %g425 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g414, %g2_1 : tensor<4x32x16xf32>, tensor<16xf32>) outs(%e424 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e426 = tensor.empty() : tensor<4x32xf32>
  %f427 = linalg.fill ins(%zero : f32) outs(%e426 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g428 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g425 : tensor<4x32x16xf32>) outs(%f427 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e429 = tensor.empty() : tensor<4x32xf32>
  %f430 = linalg.fill ins(%zero : f32) outs(%e429 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g431 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g425, %v56 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f430 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %s = arith.constant 0.0625 : f32
    %p = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %p, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e432 = tensor.empty() : tensor<4x32x16xf32>
  %g433 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g425, %g428, %v56, %g431, %v54 : tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32x16xf32>, tensor<4x32xf32>, tensor<4x32xf32>) outs(%e432 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
    %u = arith.subf %a0, %a1 : f32
    %v = arith.mulf %a2, %a3 : f32
    %w = arith.subf %u, %v : f32
    %y = arith.mulf %w, %a4 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e434 = tensor.empty() : tensor<4x32x16xf32>
  %g435 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g403, %g433 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e434 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e436 = tensor.empty() : tensor<4x32x16xf32>
  %f437 = linalg.fill ins(%zero : f32) outs(%e436 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g438 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g435, %wo1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f437 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e439 = tensor.empty() : tensor<16x16xf32>
  %f440 = linalg.fill ins(%zero : f32) outs(%e439 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g441 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v39, %g435 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f440 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e442 = tensor.empty() : tensor<4x32x32xf32>
  %f443 = linalg.fill ins(%zero : f32) outs(%e442 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %g444 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g438, %v23 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f443 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e445 = tensor.empty() : tensor<4x32x16xf32>
  %f446 = linalg.fill ins(%zero : f32) outs(%e445 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g447 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v36, %g438 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f446 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e448 = tensor.empty() : tensor<4x32xf32>
  %f449 = linalg.fill ins(%zero : f32) outs(%e448 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %g450 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g444, %v36 : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%f449 : tensor<4x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e451 = tensor.empty() : tensor<4x32x32xf32>
  %g452 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g444, %g450, %v36 : tensor<4x32x32xf32>, tensor<4x32xf32>, tensor<4x32x32xf32>) outs(%e451 : tensor<4x32x32xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
    %s = arith.constant 0.25 : f32
    %d = arith.subf %a0, %a1 : f32
    %m = arith.mulf %d, %a2 : f32
    %y = arith.mulf %m, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x32x32xf32>
  %e453 = tensor.empty() : tensor<4x32x16xf32>
  %f454 = linalg.fill ins(%zero : f32) outs(%e453 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g455 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g452, %v20 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f454 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e456 = tensor.empty() : tensor<4x32x16xf32>
  %f457 = linalg.fill ins(%zero : f32) outs(%e456 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g458 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g452, %v17 : tensor<4x32x32xf32>, tensor<4x32x16xf32>) outs(%f457 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e459 = tensor.empty() : tensor<4x32x16xf32>
  %f460 = linalg.fill ins(%zero : f32) outs(%e459 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g461 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g447, %wv1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f460 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e462 = tensor.empty() : tensor<16x16xf32>
  %f463 = linalg.fill ins(%zero : f32) outs(%e462 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g464 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v14, %g447 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f463 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e465 = tensor.empty() : tensor<4x32x16xf32>
  %f466 = linalg.fill ins(%zero : f32) outs(%e465 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g467 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g458, %wk1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f466 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e468 = tensor.empty() : tensor<16x16xf32>
  %f469 = linalg.fill ins(%zero : f32) outs(%e468 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g470 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v14, %g458 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f469 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e471 = tensor.empty() : tensor<4x32x16xf32>
  %g472 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g461, %g467 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e471 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e473 = tensor.empty() : tensor<4x32x16xf32>
  %f474 = linalg.fill ins(%zero : f32) outs(%e473 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  %g475 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%g455, %wq1 : tensor<4x32x16xf32>, tensor<16x16xf32>) outs(%f474 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e476 = tensor.empty() : tensor<16x16xf32>
  %f477 = linalg.fill ins(%zero : f32) outs(%e476 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g478 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v14, %g455 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f477 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %e479 = tensor.empty() : tensor<4x32x16xf32>
  %g480 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g472, %g475 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%e479 : tensor<4x32x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x16xf32>
  %e481 = tensor.empty() : tensor<16xf32>
  %f482 = linalg.fill ins(%zero : f32) outs(%e481 : tensor<16xf32>) -> tensor<16xf32>
  %g483 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g480, %v12 : tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%f482 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e484 = tensor.empty() : tensor<16xf32>
  %f485 = linalg.fill ins(%zero : f32) outs(%e484 : tensor<16xf32>) -> tensor<16xf32>
  %g486 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%g480 : tensor<4x32x16xf32>) outs(%f485 : tensor<16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %acc, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %v211, %g478, %g470, %g464, %g441, %g417, %g409, %g483, %g486, %g420, %g423, %g383, %g375, %g369, %g346, %g322, %g314, %g388, %g391, %g325, %g328, %g288, %g280, %g274, %g251, %g227, %g219, %g293, %g296, %g230, %g233 : tensor<f32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
