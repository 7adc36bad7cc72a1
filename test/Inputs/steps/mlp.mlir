// A three-layer perceptron training step: forward, mean-squared-error loss,
// backward. Shapes: x[8x32], t[8x10], W1[32x64], W2[64x64], W3[64x10].
//
// Forward:
//   z1 = x W1            [8x64]      h1 = tanh(z1)
//   z2 = h1 W2           [8x64]      h2 = relu(z2) = max(z2, 0)
//   y  = h2 W3           [8x10]
//   d  = y - t
//   loss = mean(d^2) = (1/80) sum_ij d_ij^2
// Backward:
//   dy  = (2/80) d
//   dW3 = h2^T dy        [64x10]
//   dh2 = dy W3^T        [8x64]      dz2 = dh2 * [z2 > 0]
//   dW2 = h1^T dz2       [64x64]
//   dh1 = dz2 W2^T       [8x64]      dz1 = dh1 * (1 - h1^2)
//   dW1 = x^T dz1        [32x64]
// Result 0 is the loss (`ckpt.loss = 0`); results 1..3 are dW1, dW2, dW3.

#id = affine_map<(i, j) -> (i, j)>
#red_out = affine_map<(i, j) -> ()>

func.func @mlp_step(%x: tensor<8x32xf32>, %t: tensor<8x10xf32>,
                    %w1: tensor<32x64xf32>, %w2: tensor<64x64xf32>,
                    %w3: tensor<64x10xf32>)
    -> (tensor<f32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.constant 0.0125 : f32      // 1/80
  %two_inv_n = arith.constant 0.025 : f32   // 2/80

  // Forward.
  %e_z1 = tensor.empty() : tensor<8x64xf32>
  %f_z1 = linalg.fill ins(%zero : f32) outs(%e_z1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %z1 = linalg.matmul ins(%x, %w1 : tensor<8x32xf32>, tensor<32x64xf32>)
                      outs(%f_z1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e_h1 = tensor.empty() : tensor<8x64xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<8x64xf32>) outs(%e_h1 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %e_z2 = tensor.empty() : tensor<8x64xf32>
  %f_z2 = linalg.fill ins(%zero : f32) outs(%e_z2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %z2 = linalg.matmul ins(%h1, %w2 : tensor<8x64xf32>, tensor<64x64xf32>)
                      outs(%f_z2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e_h2 = tensor.empty() : tensor<8x64xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z2 : tensor<8x64xf32>) outs(%e_h2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %e_y = tensor.empty() : tensor<8x10xf32>
  %f_y = linalg.fill ins(%zero : f32) outs(%e_y : tensor<8x10xf32>) -> tensor<8x10xf32>
  %y = linalg.matmul ins(%h2, %w3 : tensor<8x64xf32>, tensor<64x10xf32>)
                     outs(%f_y : tensor<8x10xf32>) -> tensor<8x10xf32>
  %e_d = tensor.empty() : tensor<8x10xf32>
  %d = linalg.sub ins(%y, %t : tensor<8x10xf32>, tensor<8x10xf32>)
                  outs(%e_d : tensor<8x10xf32>) -> tensor<8x10xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %sse = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<8x10xf32>) outs(%f_l : tensor<f32>) {
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
  %e_dy = tensor.empty() : tensor<8x10xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<8x10xf32>) outs(%e_dy : tensor<8x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %two_inv_n : f32
    linalg.yield %v : f32
  } -> tensor<8x10xf32>
  // dW3 = h2^T dy
  %e_h2t = tensor.empty() : tensor<64x8xf32>
  %h2t = linalg.transpose ins(%h2 : tensor<8x64xf32>) outs(%e_h2t : tensor<64x8xf32>) permutation = [1, 0]
  %e_dw3 = tensor.empty() : tensor<64x10xf32>
  %f_dw3 = linalg.fill ins(%zero : f32) outs(%e_dw3 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %dw3 = linalg.matmul ins(%h2t, %dy : tensor<64x8xf32>, tensor<8x10xf32>)
                       outs(%f_dw3 : tensor<64x10xf32>) -> tensor<64x10xf32>
  // dh2 = dy W3^T ; dz2 = dh2 * [z2 > 0]
  %e_w3t = tensor.empty() : tensor<10x64xf32>
  %w3t = linalg.transpose ins(%w3 : tensor<64x10xf32>) outs(%e_w3t : tensor<10x64xf32>) permutation = [1, 0]
  %e_dh2 = tensor.empty() : tensor<8x64xf32>
  %f_dh2 = linalg.fill ins(%zero : f32) outs(%e_dh2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %dh2 = linalg.matmul ins(%dy, %w3t : tensor<8x10xf32>, tensor<10x64xf32>)
                       outs(%f_dh2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e_dz2 = tensor.empty() : tensor<8x64xf32>
  %dz2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh2, %z2 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e_dz2 : tensor<8x64xf32>) {
  ^bb0(%g: f32, %z: f32, %o: f32):
    %pos = arith.cmpf ogt, %z, %zero : f32
    %v = arith.select %pos, %g, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  // dW2 = h1^T dz2
  %e_h1t = tensor.empty() : tensor<64x8xf32>
  %h1t = linalg.transpose ins(%h1 : tensor<8x64xf32>) outs(%e_h1t : tensor<64x8xf32>) permutation = [1, 0]
  %e_dw2 = tensor.empty() : tensor<64x64xf32>
  %f_dw2 = linalg.fill ins(%zero : f32) outs(%e_dw2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %dw2 = linalg.matmul ins(%h1t, %dz2 : tensor<64x8xf32>, tensor<8x64xf32>)
                       outs(%f_dw2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  // dh1 = dz2 W2^T ; dz1 = dh1 * (1 - h1^2)
  %e_w2t = tensor.empty() : tensor<64x64xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<64x64xf32>) outs(%e_w2t : tensor<64x64xf32>) permutation = [1, 0]
  %e_dh1 = tensor.empty() : tensor<8x64xf32>
  %f_dh1 = linalg.fill ins(%zero : f32) outs(%e_dh1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %dh1 = linalg.matmul ins(%dz2, %w2t : tensor<8x64xf32>, tensor<64x64xf32>)
                       outs(%f_dh1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e_dz1 = tensor.empty() : tensor<8x64xf32>
  %dz1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %h1 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e_dz1 : tensor<8x64xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  // dW1 = x^T dz1
  %e_xt = tensor.empty() : tensor<32x8xf32>
  %xt = linalg.transpose ins(%x : tensor<8x32xf32>) outs(%e_xt : tensor<32x8xf32>) permutation = [1, 0]
  %e_dw1 = tensor.empty() : tensor<32x64xf32>
  %f_dw1 = linalg.fill ins(%zero : f32) outs(%e_dw1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %dw1 = linalg.matmul ins(%xt, %dz1 : tensor<32x8xf32>, tensor<8x64xf32>)
                       outs(%f_dw1 : tensor<32x64xf32>) -> tensor<32x64xf32>

  return %loss, %dw1, %dw2, %dw3 : tensor<f32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x10xf32>
}
