// A two-layer perceptron training step: forward, squared-error loss, backward.
//   h = tanh(x W1),  y = h W2,  loss = sum((y - t)^2)
//   dy = 2 (y - t),  dW2 = h^T dy,  dh = dy W2^T,  dz = dh (1 - h^2),  dW1 = x^T dz
// Result 0 is the loss (`ckpt.loss = 0`); results 1 and 2 are the gradients.

#id = affine_map<(i, j) -> (i, j)>
#red_in = affine_map<(i, j) -> (i, j)>
#red_out = affine_map<(i, j) -> ()>

func.func @mlp_step(%x: tensor<4x8xf32>, %t: tensor<4x4xf32>,
                    %w1: tensor<8x16xf32>, %w2: tensor<16x4xf32>)
    -> (tensor<f32>, tensor<8x16xf32>, tensor<16x4xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32

  // Forward.
  %e4x16 = tensor.empty() : tensor<4x16xf32>
  %z4x16 = linalg.fill ins(%zero : f32) outs(%e4x16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %z1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>)
                      outs(%z4x16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<4x16xf32>) outs(%e4x16 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %e4x4 = tensor.empty() : tensor<4x4xf32>
  %z4x4 = linalg.fill ins(%zero : f32) outs(%e4x4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<4x16xf32>, tensor<16x4xf32>)
                     outs(%z4x4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = linalg.sub ins(%y, %t : tensor<4x4xf32>, tensor<4x4xf32>)
                  outs(%e4x4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<4x4xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>

  // Backward.
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x4xf32>) outs(%e4x4 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %a, %two : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %e16x4 = tensor.empty() : tensor<16x4xf32>
  %ht = linalg.transpose ins(%h : tensor<4x16xf32>) outs(%e16x4 : tensor<16x4xf32>) permutation = [1, 0]
  %z16x4 = linalg.fill ins(%zero : f32) outs(%e16x4 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %dw2 = linalg.matmul ins(%ht, %dy : tensor<16x4xf32>, tensor<4x4xf32>)
                       outs(%z16x4 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %e4x16b = tensor.empty() : tensor<4x16xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<16x4xf32>) outs(%e4x16b : tensor<4x16xf32>) permutation = [1, 0]
  %z4x16b = linalg.fill ins(%zero : f32) outs(%e4x16b : tensor<4x16xf32>) -> tensor<4x16xf32>
  %dh = linalg.matmul ins(%dy, %w2t : tensor<4x4xf32>, tensor<4x16xf32>)
                      outs(%z4x16b : tensor<4x16xf32>) -> tensor<4x16xf32>
  %dz = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh, %h : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e4x16b : tensor<4x16xf32>) {
  ^bb0(%g: f32, %a: f32, %o: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.subf %one, %a2 : f32
    %v = arith.mulf %g, %s : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %e8x4 = tensor.empty() : tensor<8x4xf32>
  %xt = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e8x4 : tensor<8x4xf32>) permutation = [1, 0]
  %e8x16 = tensor.empty() : tensor<8x16xf32>
  %z8x16 = linalg.fill ins(%zero : f32) outs(%e8x16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dw1 = linalg.matmul ins(%xt, %dz : tensor<8x4xf32>, tensor<4x16xf32>)
                       outs(%z8x16 : tensor<8x16xf32>) -> tensor<8x16xf32>

  return %loss, %dw1, %dw2 : tensor<f32>, tensor<8x16xf32>, tensor<16x4xf32>
}
