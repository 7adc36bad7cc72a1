// A perceptron training step with 8 layers (gen_mlp.py --depth 8 --batch 512 --width 32 --in 32 --out 10 --act tanh):
// forward, mean-squared-error loss, backward. Shapes: x[512x32], t[512x10],
// W1[32x32], W2[32x32], W3[32x32], W4[32x32], W5[32x32], W6[32x32], W7[32x32], W8[32x10].
//
// Forward (h0 = x):
//   z1 = h0 W1   [512x32]    h1 = tanh(z1)
//   z2 = h1 W2   [512x32]    h2 = tanh(z2)
//   z3 = h2 W3   [512x32]    h3 = tanh(z3)
//   z4 = h3 W4   [512x32]    h4 = tanh(z4)
//   z5 = h4 W5   [512x32]    h5 = tanh(z5)
//   z6 = h5 W6   [512x32]    h6 = tanh(z6)
//   z7 = h6 W7   [512x32]    h7 = tanh(z7)
//   y  = h7 W8   [512x10]
//   d  = y - t
//   loss = mean(d^2) = (1/5120) sum_ij d_ij^2
// Backward:
//   dy = (2/5120) d ; dz8 = dy
//   for i = 8 .. 1:  dW_i = h_(i-1)^T dz_i   [dims of W_i]
//                     dh_(i-1) = dz_i W_i^T   (i > 1)
//                     dz_(i-1) = dh_(i-1) * (1 - h_(i-1)^2)   (tanh)
//                              = dh_(i-1) * [z_(i-1) > 0]     (relu)
// Result 0 is the loss (`ckpt.loss = 0`); results 1..8 are dW1 .. dW8.

#id = affine_map<(i, j) -> (i, j)>
#red_out = affine_map<(i, j) -> ()>

func.func @mlp8_step(%x: tensor<512x32xf32>, %t: tensor<512x10xf32>,
                     %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>,
                     %w3: tensor<32x32xf32>, %w4: tensor<32x32xf32>,
                     %w5: tensor<32x32xf32>, %w6: tensor<32x32xf32>,
                     %w7: tensor<32x32xf32>, %w8: tensor<32x10xf32>)
    -> (tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.constant 0.0001953125 : f32      // 1/5120
  %two_inv_n = arith.constant 0.000390625 : f32   // 2/5120

  // Forward.
  %e_z1 = tensor.empty() : tensor<512x32xf32>
  %f_z1 = linalg.fill ins(%zero : f32) outs(%e_z1 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z1 = linalg.matmul ins(%x, %w1 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z1 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h1 = tensor.empty() : tensor<512x32xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<512x32xf32>) outs(%e_h1 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z2 = tensor.empty() : tensor<512x32xf32>
  %f_z2 = linalg.fill ins(%zero : f32) outs(%e_z2 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z2 = linalg.matmul ins(%h1, %w2 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z2 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h2 = tensor.empty() : tensor<512x32xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<512x32xf32>) outs(%e_h2 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z3 = tensor.empty() : tensor<512x32xf32>
  %f_z3 = linalg.fill ins(%zero : f32) outs(%e_z3 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z3 = linalg.matmul ins(%h2, %w3 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z3 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h3 = tensor.empty() : tensor<512x32xf32>
  %h3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z3 : tensor<512x32xf32>) outs(%e_h3 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z4 = tensor.empty() : tensor<512x32xf32>
  %f_z4 = linalg.fill ins(%zero : f32) outs(%e_z4 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z4 = linalg.matmul ins(%h3, %w4 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z4 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h4 = tensor.empty() : tensor<512x32xf32>
  %h4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z4 : tensor<512x32xf32>) outs(%e_h4 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z5 = tensor.empty() : tensor<512x32xf32>
  %f_z5 = linalg.fill ins(%zero : f32) outs(%e_z5 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z5 = linalg.matmul ins(%h4, %w5 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z5 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h5 = tensor.empty() : tensor<512x32xf32>
  %h5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z5 : tensor<512x32xf32>) outs(%e_h5 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z6 = tensor.empty() : tensor<512x32xf32>
  %f_z6 = linalg.fill ins(%zero : f32) outs(%e_z6 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z6 = linalg.matmul ins(%h5, %w6 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z6 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h6 = tensor.empty() : tensor<512x32xf32>
  %h6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z6 : tensor<512x32xf32>) outs(%e_h6 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_z7 = tensor.empty() : tensor<512x32xf32>
  %f_z7 = linalg.fill ins(%zero : f32) outs(%e_z7 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %z7 = linalg.matmul ins(%h6, %w7 : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_z7 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_h7 = tensor.empty() : tensor<512x32xf32>
  %h7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z7 : tensor<512x32xf32>) outs(%e_h7 : tensor<512x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  %e_y = tensor.empty() : tensor<512x10xf32>
  %f_y = linalg.fill ins(%zero : f32) outs(%e_y : tensor<512x10xf32>) -> tensor<512x10xf32>
  %y = linalg.matmul ins(%h7, %w8 : tensor<512x32xf32>, tensor<32x10xf32>)
      outs(%f_y : tensor<512x10xf32>) -> tensor<512x10xf32>
  %e_d = tensor.empty() : tensor<512x10xf32>
  %d = linalg.sub ins(%y, %t : tensor<512x10xf32>, tensor<512x10xf32>)
                  outs(%e_d : tensor<512x10xf32>) -> tensor<512x10xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %sse = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<512x10xf32>) outs(%f_l : tensor<f32>) {
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
  %e_dy = tensor.empty() : tensor<512x10xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<512x10xf32>) outs(%e_dy : tensor<512x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %two_inv_n : f32
    linalg.yield %v : f32
  } -> tensor<512x10xf32>
  // dW8 = h7^T dz8
  %e_h7t = tensor.empty() : tensor<32x512xf32>
  %h7t = linalg.transpose ins(%h7 : tensor<512x32xf32>) outs(%e_h7t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw8 = tensor.empty() : tensor<32x10xf32>
  %f_dw8 = linalg.fill ins(%zero : f32) outs(%e_dw8 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %dw8 = linalg.matmul ins(%h7t, %dy : tensor<32x512xf32>, tensor<512x10xf32>)
      outs(%f_dw8 : tensor<32x10xf32>) -> tensor<32x10xf32>
  // dh7 = dz8 W8^T ; dz7 = dh7 * (1 - h7^2)
  %e_w8t = tensor.empty() : tensor<10x32xf32>
  %w8t = linalg.transpose ins(%w8 : tensor<32x10xf32>) outs(%e_w8t : tensor<10x32xf32>) permutation = [1, 0]
  %e_dh7 = tensor.empty() : tensor<512x32xf32>
  %f_dh7 = linalg.fill ins(%zero : f32) outs(%e_dh7 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh7 = linalg.matmul ins(%dy, %w8t : tensor<512x10xf32>, tensor<10x32xf32>)
      outs(%f_dh7 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz7 = tensor.empty() : tensor<512x32xf32>
  %dz7 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh7, %h7 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz7 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW7 = h6^T dz7
  %e_h6t = tensor.empty() : tensor<32x512xf32>
  %h6t = linalg.transpose ins(%h6 : tensor<512x32xf32>) outs(%e_h6t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw7 = tensor.empty() : tensor<32x32xf32>
  %f_dw7 = linalg.fill ins(%zero : f32) outs(%e_dw7 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw7 = linalg.matmul ins(%h6t, %dz7 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw7 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh6 = dz7 W7^T ; dz6 = dh6 * (1 - h6^2)
  %e_w7t = tensor.empty() : tensor<32x32xf32>
  %w7t = linalg.transpose ins(%w7 : tensor<32x32xf32>) outs(%e_w7t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh6 = tensor.empty() : tensor<512x32xf32>
  %f_dh6 = linalg.fill ins(%zero : f32) outs(%e_dh6 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh6 = linalg.matmul ins(%dz7, %w7t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh6 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz6 = tensor.empty() : tensor<512x32xf32>
  %dz6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh6, %h6 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz6 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW6 = h5^T dz6
  %e_h5t = tensor.empty() : tensor<32x512xf32>
  %h5t = linalg.transpose ins(%h5 : tensor<512x32xf32>) outs(%e_h5t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw6 = tensor.empty() : tensor<32x32xf32>
  %f_dw6 = linalg.fill ins(%zero : f32) outs(%e_dw6 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw6 = linalg.matmul ins(%h5t, %dz6 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw6 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh5 = dz6 W6^T ; dz5 = dh5 * (1 - h5^2)
  %e_w6t = tensor.empty() : tensor<32x32xf32>
  %w6t = linalg.transpose ins(%w6 : tensor<32x32xf32>) outs(%e_w6t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh5 = tensor.empty() : tensor<512x32xf32>
  %f_dh5 = linalg.fill ins(%zero : f32) outs(%e_dh5 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh5 = linalg.matmul ins(%dz6, %w6t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh5 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz5 = tensor.empty() : tensor<512x32xf32>
  %dz5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh5, %h5 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz5 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW5 = h4^T dz5
  %e_h4t = tensor.empty() : tensor<32x512xf32>
  %h4t = linalg.transpose ins(%h4 : tensor<512x32xf32>) outs(%e_h4t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw5 = tensor.empty() : tensor<32x32xf32>
  %f_dw5 = linalg.fill ins(%zero : f32) outs(%e_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw5 = linalg.matmul ins(%h4t, %dz5 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw5 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh4 = dz5 W5^T ; dz4 = dh4 * (1 - h4^2)
  %e_w5t = tensor.empty() : tensor<32x32xf32>
  %w5t = linalg.transpose ins(%w5 : tensor<32x32xf32>) outs(%e_w5t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh4 = tensor.empty() : tensor<512x32xf32>
  %f_dh4 = linalg.fill ins(%zero : f32) outs(%e_dh4 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh4 = linalg.matmul ins(%dz5, %w5t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh4 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz4 = tensor.empty() : tensor<512x32xf32>
  %dz4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh4, %h4 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz4 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW4 = h3^T dz4
  %e_h3t = tensor.empty() : tensor<32x512xf32>
  %h3t = linalg.transpose ins(%h3 : tensor<512x32xf32>) outs(%e_h3t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw4 = tensor.empty() : tensor<32x32xf32>
  %f_dw4 = linalg.fill ins(%zero : f32) outs(%e_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw4 = linalg.matmul ins(%h3t, %dz4 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh3 = dz4 W4^T ; dz3 = dh3 * (1 - h3^2)
  %e_w4t = tensor.empty() : tensor<32x32xf32>
  %w4t = linalg.transpose ins(%w4 : tensor<32x32xf32>) outs(%e_w4t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh3 = tensor.empty() : tensor<512x32xf32>
  %f_dh3 = linalg.fill ins(%zero : f32) outs(%e_dh3 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh3 = linalg.matmul ins(%dz4, %w4t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh3 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz3 = tensor.empty() : tensor<512x32xf32>
  %dz3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh3, %h3 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz3 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW3 = h2^T dz3
  %e_h2t = tensor.empty() : tensor<32x512xf32>
  %h2t = linalg.transpose ins(%h2 : tensor<512x32xf32>) outs(%e_h2t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw3 = tensor.empty() : tensor<32x32xf32>
  %f_dw3 = linalg.fill ins(%zero : f32) outs(%e_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw3 = linalg.matmul ins(%h2t, %dz3 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw3 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh2 = dz3 W3^T ; dz2 = dh2 * (1 - h2^2)
  %e_w3t = tensor.empty() : tensor<32x32xf32>
  %w3t = linalg.transpose ins(%w3 : tensor<32x32xf32>) outs(%e_w3t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh2 = tensor.empty() : tensor<512x32xf32>
  %f_dh2 = linalg.fill ins(%zero : f32) outs(%e_dh2 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh2 = linalg.matmul ins(%dz3, %w3t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh2 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz2 = tensor.empty() : tensor<512x32xf32>
  %dz2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh2, %h2 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz2 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW2 = h1^T dz2
  %e_h1t = tensor.empty() : tensor<32x512xf32>
  %h1t = linalg.transpose ins(%h1 : tensor<512x32xf32>) outs(%e_h1t : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw2 = tensor.empty() : tensor<32x32xf32>
  %f_dw2 = linalg.fill ins(%zero : f32) outs(%e_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw2 = linalg.matmul ins(%h1t, %dz2 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  // dh1 = dz2 W2^T ; dz1 = dh1 * (1 - h1^2)
  %e_w2t = tensor.empty() : tensor<32x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<32x32xf32>) outs(%e_w2t : tensor<32x32xf32>) permutation = [1, 0]
  %e_dh1 = tensor.empty() : tensor<512x32xf32>
  %f_dh1 = linalg.fill ins(%zero : f32) outs(%e_dh1 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %dh1 = linalg.matmul ins(%dz2, %w2t : tensor<512x32xf32>, tensor<32x32xf32>)
      outs(%f_dh1 : tensor<512x32xf32>) -> tensor<512x32xf32>
  %e_dz1 = tensor.empty() : tensor<512x32xf32>
  %dz1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %h1 : tensor<512x32xf32>, tensor<512x32xf32>) outs(%e_dz1 : tensor<512x32xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<512x32xf32>
  // dW1 = x^T dz1
  %e_xt = tensor.empty() : tensor<32x512xf32>
  %xt = linalg.transpose ins(%x : tensor<512x32xf32>) outs(%e_xt : tensor<32x512xf32>) permutation = [1, 0]
  %e_dw1 = tensor.empty() : tensor<32x32xf32>
  %f_dw1 = linalg.fill ins(%zero : f32) outs(%e_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dw1 = linalg.matmul ins(%xt, %dz1 : tensor<32x512xf32>, tensor<512x32xf32>)
      outs(%f_dw1 : tensor<32x32xf32>) -> tensor<32x32xf32>

  return %loss, %dw1, %dw2, %dw3, %dw4, %dw5, %dw6, %dw7, %dw8 : tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>
}
