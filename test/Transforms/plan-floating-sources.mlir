// RUN: ckpt-opt %s --ckpt-wrap-step --ckpt-plan="budget=90%" | FileCheck %s
// RUN: not ckpt-opt %s --ckpt-wrap-step --ckpt-plan="budget=50%" 2>&1 | FileCheck %s --check-prefix=LEAST
// RUN: ckpt-opt %s --ckpt-wrap-step --ckpt-plan="budget=100%" --ckpt-report -o /dev/null | FileCheck %s --check-prefix=REPORT

// Floating sources (docs/SEPARATORS.md): a forward op that reads only step
// arguments must not start the separator chain when it feeds a late layer.
// Two 6-layer tanh MLPs (gen_mlp.py --depth 6 --batch 64 --width 32 --in 32
// --out 10): @mlp6_step as generated, and @mlp6b_step, the same with a bias
// on the last layer written the way importers do it: the init of the last
// matmul is a broadcast of the bias argument %b6 (y = h5 W6 + b6), and the
// step also returns db6 = column sums of dy (10 f32).
//
// The broadcast reads only %b6: it is an entry of the forward graph, like the
// first matmul. Before floating sources it gave a path from the entries to
// the loss (b6 -> y -> d -> sse -> loss) around every separator: the biased
// step got 4 stages and no plan below its store-all peak. Now only the
// entry with the longest path to the loss, the first matmul z1 (z1 h1 z2 h2
// .. z5 h5 y d sse loss: 14 ops; the broadcast's is bcast y d sse loss: 5),
// starts the chain, and the broadcast is computed in the stage of its
// reader y.
//
// Both steps (by hand): forward values z1 h1 .. z5 h5 are 64x32 f32 = 8192 B,
// y and d 64x10 f32 = 2560 B, sse a 0-d f32 = 4 B; each is a separator, the
// loss (sse / 640) closes the last stage: 13 separators, 14 stages of one op
// each, except stage 11 of @mlp6b_step = {bcast, y}: 2 ops, input h5 (8192 B),
// output y (2560 B). Same chain, same plan; the biased step only holds db6 in
// addition: 40 B more in the chain model's store-all peak (store_all_peak),
// and 40 B rounded up to the 16 B buffer alignment, 48 B, more in the plan's
// peak at 90%. The least feasible budget is the same for both, 45056 B
// (5.5 x 8192): the leanest schedule peaks in the middle of the backward,
// before db6 is computed (it is returned, so it lives from the last layer's
// backward to the end), so db6 adds nothing to its peak.

// CHECK-LABEL: ckpt.step @mlp6_step
// CHECK-SAME: peak = [[#PEAK:]], time = {{[^,]+}}, store_all_peak = [[#SA:]],
// CHECK-LABEL: ckpt.step @mlp6b_step
// CHECK-SAME: peak = [[#PEAK+48]], time = {{[^,]+}}, store_all_peak = [[#SA+48]],

// LEAST: error: budget of {{.*}} is infeasible for strategy 'optimal': the least feasible budget is 45056 B (44.00 KiB)
// LEAST: error: budget of {{.*}} is infeasible for strategy 'optimal': the least feasible budget is 45056 B (44.00 KiB)

// The chain (what the chain DP plans over; sizes rounded up to the 16 B
// alignment, so sse counts 16 B): 14 stages of one op each, but
// stage 11 of the biased step = {bcast, y}.
// REPORT: "step": "mlp6_step",
// REPORT: "stages": 14,
// REPORT-NEXT: "separator_bytes": [8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 2560, 2560, 16],
// REPORT-NEXT: "stage_ops": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
// REPORT: "step": "mlp6b_step",
// REPORT: "stages": 14,
// REPORT-NEXT: "separator_bytes": [8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 2560, 2560, 16],
// REPORT-NEXT: "stage_ops": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1],

#id = affine_map<(i, j) -> (i, j)>
#red_out = affine_map<(i, j) -> ()>
#col = affine_map<(i, j) -> (j)>

func.func @mlp6_step(%x: tensor<64x32xf32>, %t: tensor<64x10xf32>,
                     %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>,
                     %w3: tensor<32x32xf32>, %w4: tensor<32x32xf32>,
                     %w5: tensor<32x32xf32>, %w6: tensor<32x10xf32>)
    -> (tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.constant 0.0015625 : f32      // 1/640
  %two_inv_n = arith.constant 0.003125 : f32   // 2/640

  // Forward.
  %e_z1 = tensor.empty() : tensor<64x32xf32>
  %f_z1 = linalg.fill ins(%zero : f32) outs(%e_z1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z1 = linalg.matmul ins(%x, %w1 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h1 = tensor.empty() : tensor<64x32xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<64x32xf32>) outs(%e_h1 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z2 = tensor.empty() : tensor<64x32xf32>
  %f_z2 = linalg.fill ins(%zero : f32) outs(%e_z2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z2 = linalg.matmul ins(%h1, %w2 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h2 = tensor.empty() : tensor<64x32xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<64x32xf32>) outs(%e_h2 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z3 = tensor.empty() : tensor<64x32xf32>
  %f_z3 = linalg.fill ins(%zero : f32) outs(%e_z3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z3 = linalg.matmul ins(%h2, %w3 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h3 = tensor.empty() : tensor<64x32xf32>
  %h3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z3 : tensor<64x32xf32>) outs(%e_h3 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z4 = tensor.empty() : tensor<64x32xf32>
  %f_z4 = linalg.fill ins(%zero : f32) outs(%e_z4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z4 = linalg.matmul ins(%h3, %w4 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h4 = tensor.empty() : tensor<64x32xf32>
  %h4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z4 : tensor<64x32xf32>) outs(%e_h4 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z5 = tensor.empty() : tensor<64x32xf32>
  %f_z5 = linalg.fill ins(%zero : f32) outs(%e_z5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z5 = linalg.matmul ins(%h4, %w5 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h5 = tensor.empty() : tensor<64x32xf32>
  %h5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z5 : tensor<64x32xf32>) outs(%e_h5 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_y = tensor.empty() : tensor<64x10xf32>
  %f_y = linalg.fill ins(%zero : f32) outs(%e_y : tensor<64x10xf32>) -> tensor<64x10xf32>
  %y = linalg.matmul ins(%h5, %w6 : tensor<64x32xf32>, tensor<32x10xf32>)
      outs(%f_y : tensor<64x10xf32>) -> tensor<64x10xf32>
  %e_d = tensor.empty() : tensor<64x10xf32>
  %d = linalg.sub ins(%y, %t : tensor<64x10xf32>, tensor<64x10xf32>)
                  outs(%e_d : tensor<64x10xf32>) -> tensor<64x10xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %sse = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<64x10xf32>) outs(%f_l : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e_loss = tensor.empty() : tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%sse : tensor<f32>) outs(%e_loss : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %inv_n : f32
    linalg.yield %v : f32
  } -> tensor<f32>

  // Backward.
  %e_dy = tensor.empty() : tensor<64x10xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<64x10xf32>) outs(%e_dy : tensor<64x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %two_inv_n : f32
    linalg.yield %v : f32
  } -> tensor<64x10xf32>
  // dW6 = h5^T dz6
  %e_h5t = tensor.empty() : tensor<32x64xf32>
  %h5t = linalg.transpose ins(%h5 : tensor<64x32xf32>) outs(%e_h5t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw6 = tensor.empty() : tensor<32x10xf32>
  %f_dw6 = linalg.fill ins(%zero : f32) outs(%e_dw6 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %dw6 = linalg.matmul ins(%h5t, %dy : tensor<32x64xf32>, tensor<64x10xf32>)
      outs(%f_dw6 : tensor<32x10xf32>) -> tensor<32x10xf32>
  // dh5 = dz6 W6^T ; dz5 = dh5 * (1 - h5^2)
  %e_w6t = tensor.empty() : tensor<10x32xf32>
  %w6t = linalg.transpose ins(%w6 : tensor<32x10xf32>) outs(%e_w6t : tensor<10x32xf32>) permutation = [1, 0]
  %e_dh5 = tensor.empty() : tensor<64x32xf32>
  %f_dh5 = linalg.fill ins(%zero : f32) outs(%e_dh5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh5 = linalg.matmul ins(%dy, %w6t : tensor<64x10xf32>, tensor<10x32xf32>)
      outs(%f_dh5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz5 = tensor.empty() : tensor<64x32xf32>
  %dz5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh5, %h5 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz5 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW5 = h4^T dz5
  %e_h4t = tensor.empty() : tensor<32x64xf32>
  %h4t = linalg.transpose ins(%h4 : tensor<64x32xf32>) outs(%e_h4t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw5 = tensor.empty() : tensor<32x32xf32>
  %f_dw5 = linalg.fill ins(%zero : f32) outs(%e_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw5 = linalg.matmul ins(%h4t, %dz5 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh4 = dz5 W5^T ; dz4 = dh4 * (1 - h4^2)
  %e_w5t = tensor.empty() : tensor<32x32xf32>
  %w5t = linalg.transpose ins(%w5 : tensor<32x32xf32>) outs(%e_w5t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh4 = tensor.empty() : tensor<64x32xf32>
  %f_dh4 = linalg.fill ins(%zero : f32) outs(%e_dh4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh4 = linalg.matmul ins(%dz5, %w5t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz4 = tensor.empty() : tensor<64x32xf32>
  %dz4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh4, %h4 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz4 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW4 = h3^T dz4
  %e_h3t = tensor.empty() : tensor<32x64xf32>
  %h3t = linalg.transpose ins(%h3 : tensor<64x32xf32>) outs(%e_h3t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw4 = tensor.empty() : tensor<32x32xf32>
  %f_dw4 = linalg.fill ins(%zero : f32) outs(%e_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw4 = linalg.matmul ins(%h3t, %dz4 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh3 = dz4 W4^T ; dz3 = dh3 * (1 - h3^2)
  %e_w4t = tensor.empty() : tensor<32x32xf32>
  %w4t = linalg.transpose ins(%w4 : tensor<32x32xf32>) outs(%e_w4t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh3 = tensor.empty() : tensor<64x32xf32>
  %f_dh3 = linalg.fill ins(%zero : f32) outs(%e_dh3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh3 = linalg.matmul ins(%dz4, %w4t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz3 = tensor.empty() : tensor<64x32xf32>
  %dz3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh3, %h3 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz3 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW3 = h2^T dz3
  %e_h2t = tensor.empty() : tensor<32x64xf32>
  %h2t = linalg.transpose ins(%h2 : tensor<64x32xf32>) outs(%e_h2t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw3 = tensor.empty() : tensor<32x32xf32>
  %f_dw3 = linalg.fill ins(%zero : f32) outs(%e_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw3 = linalg.matmul ins(%h2t, %dz3 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh2 = dz3 W3^T ; dz2 = dh2 * (1 - h2^2)
  %e_w3t = tensor.empty() : tensor<32x32xf32>
  %w3t = linalg.transpose ins(%w3 : tensor<32x32xf32>) outs(%e_w3t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh2 = tensor.empty() : tensor<64x32xf32>
  %f_dh2 = linalg.fill ins(%zero : f32) outs(%e_dh2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh2 = linalg.matmul ins(%dz3, %w3t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz2 = tensor.empty() : tensor<64x32xf32>
  %dz2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh2, %h2 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz2 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW2 = h1^T dz2
  %e_h1t = tensor.empty() : tensor<32x64xf32>
  %h1t = linalg.transpose ins(%h1 : tensor<64x32xf32>) outs(%e_h1t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw2 = tensor.empty() : tensor<32x32xf32>
  %f_dw2 = linalg.fill ins(%zero : f32) outs(%e_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw2 = linalg.matmul ins(%h1t, %dz2 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh1 = dz2 W2^T ; dz1 = dh1 * (1 - h1^2)
  %e_w2t = tensor.empty() : tensor<32x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<32x32xf32>) outs(%e_w2t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh1 = tensor.empty() : tensor<64x32xf32>
  %f_dh1 = linalg.fill ins(%zero : f32) outs(%e_dh1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh1 = linalg.matmul ins(%dz2, %w2t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz1 = tensor.empty() : tensor<64x32xf32>
  %dz1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %h1 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz1 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW1 = x^T dz1
  %e_xt = tensor.empty() : tensor<32x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%e_xt : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw1 = tensor.empty() : tensor<32x32xf32>
  %f_dw1 = linalg.fill ins(%zero : f32) outs(%e_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw1 = linalg.matmul ins(%xt, %dz1 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>

  return %loss, %dw1, %dw2, %dw3, %dw4, %dw5, %dw6 : tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>
}

func.func @mlp6b_step(%x: tensor<64x32xf32>, %t: tensor<64x10xf32>,
                     %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>,
                     %w3: tensor<32x32xf32>, %w4: tensor<32x32xf32>,
                     %w5: tensor<32x32xf32>, %w6: tensor<32x10xf32>,
                     %b6: tensor<10xf32>)
    -> (tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>, tensor<10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.constant 0.0015625 : f32      // 1/640
  %two_inv_n = arith.constant 0.003125 : f32   // 2/640

  // Forward.
  %e_z1 = tensor.empty() : tensor<64x32xf32>
  %f_z1 = linalg.fill ins(%zero : f32) outs(%e_z1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z1 = linalg.matmul ins(%x, %w1 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h1 = tensor.empty() : tensor<64x32xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<64x32xf32>) outs(%e_h1 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z2 = tensor.empty() : tensor<64x32xf32>
  %f_z2 = linalg.fill ins(%zero : f32) outs(%e_z2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z2 = linalg.matmul ins(%h1, %w2 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h2 = tensor.empty() : tensor<64x32xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<64x32xf32>) outs(%e_h2 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z3 = tensor.empty() : tensor<64x32xf32>
  %f_z3 = linalg.fill ins(%zero : f32) outs(%e_z3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z3 = linalg.matmul ins(%h2, %w3 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h3 = tensor.empty() : tensor<64x32xf32>
  %h3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z3 : tensor<64x32xf32>) outs(%e_h3 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z4 = tensor.empty() : tensor<64x32xf32>
  %f_z4 = linalg.fill ins(%zero : f32) outs(%e_z4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z4 = linalg.matmul ins(%h3, %w4 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h4 = tensor.empty() : tensor<64x32xf32>
  %h4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z4 : tensor<64x32xf32>) outs(%e_h4 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_z5 = tensor.empty() : tensor<64x32xf32>
  %f_z5 = linalg.fill ins(%zero : f32) outs(%e_z5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %z5 = linalg.matmul ins(%h4, %w5 : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_z5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_h5 = tensor.empty() : tensor<64x32xf32>
  %h5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z5 : tensor<64x32xf32>) outs(%e_h5 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %e_y = tensor.empty() : tensor<64x10xf32>
  %f_y = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b6 : tensor<10xf32>) outs(%e_y : tensor<64x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64x10xf32>
  %y = linalg.matmul ins(%h5, %w6 : tensor<64x32xf32>, tensor<32x10xf32>)
      outs(%f_y : tensor<64x10xf32>) -> tensor<64x10xf32>
  %e_d = tensor.empty() : tensor<64x10xf32>
  %d = linalg.sub ins(%y, %t : tensor<64x10xf32>, tensor<64x10xf32>)
                  outs(%e_d : tensor<64x10xf32>) -> tensor<64x10xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %sse = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<64x10xf32>) outs(%f_l : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e_loss = tensor.empty() : tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%sse : tensor<f32>) outs(%e_loss : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %inv_n : f32
    linalg.yield %v : f32
  } -> tensor<f32>

  // Backward.
  %e_dy = tensor.empty() : tensor<64x10xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<64x10xf32>) outs(%e_dy : tensor<64x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %two_inv_n : f32
    linalg.yield %v : f32
  } -> tensor<64x10xf32>
  // db6 = sum_i dz6[i, :]
  %e_db6 = tensor.empty() : tensor<10xf32>
  %f_db6 = linalg.fill ins(%zero : f32) outs(%e_db6 : tensor<10xf32>) -> tensor<10xf32>
  %db6 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<64x10xf32>) outs(%f_db6 : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  // dW6 = h5^T dz6
  %e_h5t = tensor.empty() : tensor<32x64xf32>
  %h5t = linalg.transpose ins(%h5 : tensor<64x32xf32>) outs(%e_h5t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw6 = tensor.empty() : tensor<32x10xf32>
  %f_dw6 = linalg.fill ins(%zero : f32) outs(%e_dw6 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %dw6 = linalg.matmul ins(%h5t, %dy : tensor<32x64xf32>, tensor<64x10xf32>)
      outs(%f_dw6 : tensor<32x10xf32>) -> tensor<32x10xf32>
  // dh5 = dz6 W6^T ; dz5 = dh5 * (1 - h5^2)
  %e_w6t = tensor.empty() : tensor<10x32xf32>
  %w6t = linalg.transpose ins(%w6 : tensor<32x10xf32>) outs(%e_w6t : tensor<10x32xf32>) permutation = [1, 0]
  %e_dh5 = tensor.empty() : tensor<64x32xf32>
  %f_dh5 = linalg.fill ins(%zero : f32) outs(%e_dh5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh5 = linalg.matmul ins(%dy, %w6t : tensor<64x10xf32>, tensor<10x32xf32>)
      outs(%f_dh5 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz5 = tensor.empty() : tensor<64x32xf32>
  %dz5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh5, %h5 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz5 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW5 = h4^T dz5
  %e_h4t = tensor.empty() : tensor<32x64xf32>
  %h4t = linalg.transpose ins(%h4 : tensor<64x32xf32>) outs(%e_h4t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw5 = tensor.empty() : tensor<32x32xf32>
  %f_dw5 = linalg.fill ins(%zero : f32) outs(%e_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw5 = linalg.matmul ins(%h4t, %dz5 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh4 = dz5 W5^T ; dz4 = dh4 * (1 - h4^2)
  %e_w5t = tensor.empty() : tensor<32x32xf32>
  %w5t = linalg.transpose ins(%w5 : tensor<32x32xf32>) outs(%e_w5t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh4 = tensor.empty() : tensor<64x32xf32>
  %f_dh4 = linalg.fill ins(%zero : f32) outs(%e_dh4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh4 = linalg.matmul ins(%dz5, %w5t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh4 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz4 = tensor.empty() : tensor<64x32xf32>
  %dz4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh4, %h4 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz4 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW4 = h3^T dz4
  %e_h3t = tensor.empty() : tensor<32x64xf32>
  %h3t = linalg.transpose ins(%h3 : tensor<64x32xf32>) outs(%e_h3t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw4 = tensor.empty() : tensor<32x32xf32>
  %f_dw4 = linalg.fill ins(%zero : f32) outs(%e_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw4 = linalg.matmul ins(%h3t, %dz4 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh3 = dz4 W4^T ; dz3 = dh3 * (1 - h3^2)
  %e_w4t = tensor.empty() : tensor<32x32xf32>
  %w4t = linalg.transpose ins(%w4 : tensor<32x32xf32>) outs(%e_w4t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh3 = tensor.empty() : tensor<64x32xf32>
  %f_dh3 = linalg.fill ins(%zero : f32) outs(%e_dh3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh3 = linalg.matmul ins(%dz4, %w4t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz3 = tensor.empty() : tensor<64x32xf32>
  %dz3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh3, %h3 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz3 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW3 = h2^T dz3
  %e_h2t = tensor.empty() : tensor<32x64xf32>
  %h2t = linalg.transpose ins(%h2 : tensor<64x32xf32>) outs(%e_h2t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw3 = tensor.empty() : tensor<32x32xf32>
  %f_dw3 = linalg.fill ins(%zero : f32) outs(%e_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw3 = linalg.matmul ins(%h2t, %dz3 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh2 = dz3 W3^T ; dz2 = dh2 * (1 - h2^2)
  %e_w3t = tensor.empty() : tensor<32x32xf32>
  %w3t = linalg.transpose ins(%w3 : tensor<32x32xf32>) outs(%e_w3t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh2 = tensor.empty() : tensor<64x32xf32>
  %f_dh2 = linalg.fill ins(%zero : f32) outs(%e_dh2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh2 = linalg.matmul ins(%dz3, %w3t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz2 = tensor.empty() : tensor<64x32xf32>
  %dz2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh2, %h2 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz2 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW2 = h1^T dz2
  %e_h1t = tensor.empty() : tensor<32x64xf32>
  %h1t = linalg.transpose ins(%h1 : tensor<64x32xf32>) outs(%e_h1t : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw2 = tensor.empty() : tensor<32x32xf32>
  %f_dw2 = linalg.fill ins(%zero : f32) outs(%e_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw2 = linalg.matmul ins(%h1t, %dz2 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh1 = dz2 W2^T ; dz1 = dh1 * (1 - h1^2)
  %e_w2t = tensor.empty() : tensor<32x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<32x32xf32>) outs(%e_w2t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh1 = tensor.empty() : tensor<64x32xf32>
  %f_dh1 = linalg.fill ins(%zero : f32) outs(%e_dh1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dh1 = linalg.matmul ins(%dz2, %w2t : tensor<64x32xf32>, tensor<32x32xf32>)
      outs(%f_dh1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e_dz1 = tensor.empty() : tensor<64x32xf32>
  %dz1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %h1 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_dz1 : tensor<64x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  // dW1 = x^T dz1
  %e_xt = tensor.empty() : tensor<32x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%e_xt : tensor<32x64xf32>) permutation = [1, 0]
  %e_dw1 = tensor.empty() : tensor<32x32xf32>
  %f_dw1 = linalg.fill ins(%zero : f32) outs(%e_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw1 = linalg.matmul ins(%xt, %dz1 : tensor<32x64xf32>, tensor<64x32xf32>)
      outs(%f_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>

  return %loss, %dw1, %dw2, %dw3, %dw4, %dw5, %dw6, %db6 : tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>, tensor<10xf32>
}
