// One pre-LayerNorm transformer block training step (no biases in the
// projections): LayerNorm -> single-head self-attention -> residual, then
// LayerNorm -> ReLU MLP -> residual; sum-of-squares loss against a target.
// Shapes: x[8x16] (sequence 8, model dim 16), t[8x16], Wq, Wk, Wv, Wo [16x16],
// W1[16x32], W2[32x16], LayerNorm gains/shifts g1, b1, g2, b2 [16].
//
// LN(a; g, b)[i,j] = g_j * xh[i,j] + b_j,  xh = (a - mu_i) * rs_i,
//   mu_i = mean_j a[i,j],  var_i = mean_j (a[i,j] - mu_i)^2,
//   rs_i = 1 / sqrt(var_i + 1e-5)
// Forward:
//   n1 = LN(x; g1, b1)                                   [8x16]
//   Q = n1 Wq,  K = n1 Wk,  V = n1 Wv                    [8x16]
//   S = Q K^T / sqrt(16)                                 [8x8]
//   P = softmax_rows(S):  E = exp(S - rowmax(S)),  P = E / rowsum(E)
//   A = P V                                              [8x16]
//   h = x + A Wo                                         [8x16]
//   n2 = LN(h; g2, b2)
//   z = n2 W1 [8x32],  m = relu(z),  y = h + m W2        [8x16]
//   d = y - t,  loss = sum_ij d_ij^2
// Backward:
//   dy  = 2 d
//   dW2 = m^T dy,    dm = dy W2^T,   dz = dm * [z > 0]
//   dW1 = n2^T dz,   dn2 = dz W1^T
//   LayerNorm 2 backward (xh2, rs2 from the forward):
//     dg2 = sum_i dn2 * xh2,  db2 = sum_i dn2,  dxh = dn2 * g2
//     dhn = rs2 * (dxh - mean_j(dxh) - xh2 * mean_j(dxh * xh2))
//   dh  = dy + dhn                        (residual)
//   dWo = A^T dh,    dA = dh Wo^T
//   dP  = dA V^T,    dV = P^T dA
//   dS  = P * (dP - rowsum(dP * P))       (softmax backward)
//   dSs = dS / sqrt(16)                   (through the scaling)
//   dQ  = dSs K,     dK = dSs^T Q
//   dWq = n1^T dQ,   dWk = n1^T dK,  dWv = n1^T dV
//   dn1 = dQ Wq^T + dK Wk^T + dV Wv^T
//   dg1 = sum_i dn1 * xh1,  db1 = sum_i dn1   (dx is not needed)
// Result 0 is the loss (`ckpt.loss = 0`); results 1..10 are dWq, dWk, dWv,
// dWo, dW1, dW2, dg1, db1, dg2, db2.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#red_out = affine_map<(i, j) -> ()>
#id1 = affine_map<(i) -> (i)>

func.func @transformer_step(%x: tensor<8x16xf32>, %t: tensor<8x16xf32>,
                            %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>,
                            %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>,
                            %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>,
                            %g1: tensor<16xf32>, %b1: tensor<16xf32>,
                            %g2: tensor<16xf32>, %b2: tensor<16xf32>)
    -> (tensor<f32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>,
        tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>,
        tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.25 : f32        // 1/sqrt(16)
  %two = arith.constant 2.0 : f32
  %inv_d = arith.constant 0.0625 : f32      // 1/16 (LayerNorm mean over model dim)
  %eps = arith.constant 1.0e-5 : f32

  // Forward.
  // n1 = LN(x; g1, b1)
  %e_mu1 = tensor.empty() : tensor<8xf32>
  %f_mu1 = linalg.fill ins(%zero : f32) outs(%e_mu1 : tensor<8xf32>) -> tensor<8xf32>
  %mu1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%f_mu1 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %c = arith.mulf %a, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_xc1 = tensor.empty() : tensor<8x16xf32>
  %xc1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mu1 : tensor<8x16xf32>, tensor<8xf32>) outs(%e_xc1 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %mu: f32, %o: f32):
    %r = arith.subf %a, %mu : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e_var1 = tensor.empty() : tensor<8xf32>
  %f_var1 = linalg.fill ins(%zero : f32) outs(%e_var1 : tensor<8xf32>) -> tensor<8xf32>
  %var1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc1 : tensor<8x16xf32>) outs(%f_var1 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %c = arith.mulf %sq, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_rs1 = tensor.empty() : tensor<8xf32>
  %rs1 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%var1 : tensor<8xf32>) outs(%e_rs1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ve = arith.addf %a, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_xh1 = tensor.empty() : tensor<8x16xf32>
  %xh1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc1, %rs1 : tensor<8x16xf32>, tensor<8xf32>) outs(%e_xh1 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %rs: f32, %o: f32):
    %r = arith.mulf %a, %rs : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e_n1 = tensor.empty() : tensor<8x16xf32>
  %n1 = linalg.generic {indexing_maps = [#id, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xh1, %g1, %b1 : tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e_n1 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %g: f32, %b: f32, %o: f32):
    %ag = arith.mulf %a, %g : f32
    %r = arith.addf %ag, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  // Q, K, V projections.
  %e_q = tensor.empty() : tensor<8x16xf32>
  %f_q = linalg.fill ins(%zero : f32) outs(%e_q : tensor<8x16xf32>) -> tensor<8x16xf32>
  %q = linalg.matmul ins(%n1, %wq : tensor<8x16xf32>, tensor<16x16xf32>)
                     outs(%f_q : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_k = tensor.empty() : tensor<8x16xf32>
  %f_k = linalg.fill ins(%zero : f32) outs(%e_k : tensor<8x16xf32>) -> tensor<8x16xf32>
  %k = linalg.matmul ins(%n1, %wk : tensor<8x16xf32>, tensor<16x16xf32>)
                     outs(%f_k : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_v = tensor.empty() : tensor<8x16xf32>
  %f_v = linalg.fill ins(%zero : f32) outs(%e_v : tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = linalg.matmul ins(%n1, %wv : tensor<8x16xf32>, tensor<16x16xf32>)
                     outs(%f_v : tensor<8x16xf32>) -> tensor<8x16xf32>
  // S = Q K^T / sqrt(d)
  %e_kt = tensor.empty() : tensor<16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<8x16xf32>) outs(%e_kt : tensor<16x8xf32>) permutation = [1, 0]
  %e_qk = tensor.empty() : tensor<8x8xf32>
  %f_qk = linalg.fill ins(%zero : f32) outs(%e_qk : tensor<8x8xf32>) -> tensor<8x8xf32>
  %qk = linalg.matmul ins(%q, %kt : tensor<8x16xf32>, tensor<16x8xf32>)
                      outs(%f_qk : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e_s = tensor.empty() : tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x8xf32>) outs(%e_s : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // P = softmax over rows of S.
  %e_mx = tensor.empty() : tensor<8xf32>
  %f_mx = linalg.fill ins(%neg_inf : f32) outs(%e_mx : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x8xf32>) outs(%f_mx : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_ex = tensor.empty() : tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<8x8xf32>, tensor<8xf32>) outs(%e_ex : tensor<8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %c = arith.subf %a, %m : f32
    %r = math.exp %c : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %e_sm = tensor.empty() : tensor<8xf32>
  %f_sm = linalg.fill ins(%zero : f32) outs(%e_sm : tensor<8xf32>) -> tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x8xf32>) outs(%f_sm : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_p = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<8x8xf32>, tensor<8xf32>) outs(%e_p : tensor<8x8xf32>) {
  ^bb0(%a: f32, %z: f32, %o: f32):
    %r = arith.divf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // A = P V ; h = x + A Wo
  %e_a = tensor.empty() : tensor<8x16xf32>
  %f_a = linalg.fill ins(%zero : f32) outs(%e_a : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x16xf32>)
                     outs(%f_a : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_o = tensor.empty() : tensor<8x16xf32>
  %f_o = linalg.fill ins(%zero : f32) outs(%e_o : tensor<8x16xf32>) -> tensor<8x16xf32>
  %o = linalg.matmul ins(%a, %wo : tensor<8x16xf32>, tensor<16x16xf32>)
                     outs(%f_o : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_h = tensor.empty() : tensor<8x16xf32>
  %h = linalg.add ins(%x, %o : tensor<8x16xf32>, tensor<8x16xf32>)
                  outs(%e_h : tensor<8x16xf32>) -> tensor<8x16xf32>
  // n2 = LN(h; g2, b2)
  %e_mu2 = tensor.empty() : tensor<8xf32>
  %f_mu2 = linalg.fill ins(%zero : f32) outs(%e_mu2 : tensor<8xf32>) -> tensor<8xf32>
  %mu2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<8x16xf32>) outs(%f_mu2 : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %c = arith.mulf %in, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_xc2 = tensor.empty() : tensor<8x16xf32>
  %xc2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %mu2 : tensor<8x16xf32>, tensor<8xf32>) outs(%e_xc2 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %mu: f32, %out: f32):
    %r = arith.subf %in, %mu : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e_var2 = tensor.empty() : tensor<8xf32>
  %f_var2 = linalg.fill ins(%zero : f32) outs(%e_var2 : tensor<8xf32>) -> tensor<8xf32>
  %var2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc2 : tensor<8x16xf32>) outs(%f_var2 : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %c = arith.mulf %sq, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_rs2 = tensor.empty() : tensor<8xf32>
  %rs2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%var2 : tensor<8xf32>) outs(%e_rs2 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ve = arith.addf %in, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_xh2 = tensor.empty() : tensor<8x16xf32>
  %xh2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc2, %rs2 : tensor<8x16xf32>, tensor<8xf32>) outs(%e_xh2 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %rs: f32, %out: f32):
    %r = arith.mulf %in, %rs : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e_n2 = tensor.empty() : tensor<8x16xf32>
  %n2 = linalg.generic {indexing_maps = [#id, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xh2, %g2, %b2 : tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e_n2 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %out: f32):
    %ag = arith.mulf %in, %g : f32
    %r = arith.addf %ag, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  // MLP: z = n2 W1, m = relu(z), y = h + m W2
  %e_z = tensor.empty() : tensor<8x32xf32>
  %f_z = linalg.fill ins(%zero : f32) outs(%e_z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %z = linalg.matmul ins(%n2, %w1 : tensor<8x16xf32>, tensor<16x32xf32>)
                     outs(%f_z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e_m = tensor.empty() : tensor<8x32xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<8x32xf32>) outs(%e_m : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %e_mw = tensor.empty() : tensor<8x16xf32>
  %f_mw = linalg.fill ins(%zero : f32) outs(%e_mw : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mw = linalg.matmul ins(%m, %w2 : tensor<8x32xf32>, tensor<32x16xf32>)
                      outs(%f_mw : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_y = tensor.empty() : tensor<8x16xf32>
  %y = linalg.add ins(%h, %mw : tensor<8x16xf32>, tensor<8x16xf32>)
                  outs(%e_y : tensor<8x16xf32>) -> tensor<8x16xf32>
  // loss = sum((y - t)^2)
  %e_d = tensor.empty() : tensor<8x16xf32>
  %d = linalg.sub ins(%y, %t : tensor<8x16xf32>, tensor<8x16xf32>)
                  outs(%e_d : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<8x16xf32>) outs(%f_l : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<f32>

  // Backward.
  %e_dy = tensor.empty() : tensor<8x16xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<8x16xf32>) outs(%e_dy : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  // dW2 = m^T dy
  %e_mt = tensor.empty() : tensor<32x8xf32>
  %mt = linalg.transpose ins(%m : tensor<8x32xf32>) outs(%e_mt : tensor<32x8xf32>) permutation = [1, 0]
  %e_dw2 = tensor.empty() : tensor<32x16xf32>
  %f_dw2 = linalg.fill ins(%zero : f32) outs(%e_dw2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %dw2 = linalg.matmul ins(%mt, %dy : tensor<32x8xf32>, tensor<8x16xf32>)
                       outs(%f_dw2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  // dm = dy W2^T ; dz = dm * [z > 0]
  %e_w2t = tensor.empty() : tensor<16x32xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<32x16xf32>) outs(%e_w2t : tensor<16x32xf32>) permutation = [1, 0]
  %e_dm = tensor.empty() : tensor<8x32xf32>
  %f_dm = linalg.fill ins(%zero : f32) outs(%e_dm : tensor<8x32xf32>) -> tensor<8x32xf32>
  %dm = linalg.matmul ins(%dy, %w2t : tensor<8x16xf32>, tensor<16x32xf32>)
                      outs(%f_dm : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e_dz = tensor.empty() : tensor<8x32xf32>
  %dz = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dm, %z : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e_dz : tensor<8x32xf32>) {
  ^bb0(%gr: f32, %zz: f32, %out: f32):
    %pos = arith.cmpf ogt, %zz, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  // dW1 = n2^T dz ; dn2 = dz W1^T
  %e_n2t = tensor.empty() : tensor<16x8xf32>
  %n2t = linalg.transpose ins(%n2 : tensor<8x16xf32>) outs(%e_n2t : tensor<16x8xf32>) permutation = [1, 0]
  %e_dw1 = tensor.empty() : tensor<16x32xf32>
  %f_dw1 = linalg.fill ins(%zero : f32) outs(%e_dw1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %dw1 = linalg.matmul ins(%n2t, %dz : tensor<16x8xf32>, tensor<8x32xf32>)
                       outs(%f_dw1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e_w1t = tensor.empty() : tensor<32x16xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<16x32xf32>) outs(%e_w1t : tensor<32x16xf32>) permutation = [1, 0]
  %e_dn2 = tensor.empty() : tensor<8x16xf32>
  %f_dn2 = linalg.fill ins(%zero : f32) outs(%e_dn2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dn2 = linalg.matmul ins(%dz, %w1t : tensor<8x32xf32>, tensor<32x16xf32>)
                       outs(%f_dn2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  // LayerNorm 2 backward: dg2, db2, and dhn = rs2 (dxh - mean(dxh) - xh2 mean(dxh xh2)).
  %e_dg2 = tensor.empty() : tensor<16xf32>
  %f_dg2 = linalg.fill ins(%zero : f32) outs(%e_dg2 : tensor<16xf32>) -> tensor<16xf32>
  %dg2 = linalg.generic {indexing_maps = [#id, #id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dn2, %xh2 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f_dg2 : tensor<16xf32>) {
  ^bb0(%gr: f32, %xh: f32, %acc: f32):
    %c = arith.mulf %gr, %xh : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e_db2 = tensor.empty() : tensor<16xf32>
  %f_db2 = linalg.fill ins(%zero : f32) outs(%e_db2 : tensor<16xf32>) -> tensor<16xf32>
  %db2 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dn2 : tensor<8x16xf32>) outs(%f_db2 : tensor<16xf32>) {
  ^bb0(%gr: f32, %acc: f32):
    %r = arith.addf %acc, %gr : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e_dxh2 = tensor.empty() : tensor<8x16xf32>
  %dxh2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dn2, %g2 : tensor<8x16xf32>, tensor<16xf32>) outs(%e_dxh2 : tensor<8x16xf32>) {
  ^bb0(%gr: f32, %g: f32, %out: f32):
    %r = arith.mulf %gr, %g : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e_ma2 = tensor.empty() : tensor<8xf32>
  %f_ma2 = linalg.fill ins(%zero : f32) outs(%e_ma2 : tensor<8xf32>) -> tensor<8xf32>
  %ma2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dxh2 : tensor<8x16xf32>) outs(%f_ma2 : tensor<8xf32>) {
  ^bb0(%gr: f32, %acc: f32):
    %c = arith.mulf %gr, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_mb2 = tensor.empty() : tensor<8xf32>
  %f_mb2 = linalg.fill ins(%zero : f32) outs(%e_mb2 : tensor<8xf32>) -> tensor<8xf32>
  %mb2 = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dxh2, %xh2 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f_mb2 : tensor<8xf32>) {
  ^bb0(%gr: f32, %xh: f32, %acc: f32):
    %gx = arith.mulf %gr, %xh : f32
    %c = arith.mulf %gx, %inv_d : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_dhn = tensor.empty() : tensor<8x16xf32>
  %dhn = linalg.generic {indexing_maps = [#id, #id, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dxh2, %xh2, %ma2, %mb2, %rs2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
      outs(%e_dhn : tensor<8x16xf32>) {
  ^bb0(%gr: f32, %xh: f32, %ma: f32, %mb: f32, %rs: f32, %out: f32):
    %u = arith.subf %gr, %ma : f32
    %xm = arith.mulf %xh, %mb : f32
    %w = arith.subf %u, %xm : f32
    %r = arith.mulf %w, %rs : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  // dh = dy + dhn (residual)
  %e_dh = tensor.empty() : tensor<8x16xf32>
  %dh = linalg.add ins(%dy, %dhn : tensor<8x16xf32>, tensor<8x16xf32>)
                   outs(%e_dh : tensor<8x16xf32>) -> tensor<8x16xf32>
  // dWo = A^T dh ; dA = dh Wo^T
  %e_at = tensor.empty() : tensor<16x8xf32>
  %at = linalg.transpose ins(%a : tensor<8x16xf32>) outs(%e_at : tensor<16x8xf32>) permutation = [1, 0]
  %e_dwo = tensor.empty() : tensor<16x16xf32>
  %f_dwo = linalg.fill ins(%zero : f32) outs(%e_dwo : tensor<16x16xf32>) -> tensor<16x16xf32>
  %dwo = linalg.matmul ins(%at, %dh : tensor<16x8xf32>, tensor<8x16xf32>)
                       outs(%f_dwo : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e_wot = tensor.empty() : tensor<16x16xf32>
  %wot = linalg.transpose ins(%wo : tensor<16x16xf32>) outs(%e_wot : tensor<16x16xf32>) permutation = [1, 0]
  %e_da = tensor.empty() : tensor<8x16xf32>
  %f_da = linalg.fill ins(%zero : f32) outs(%e_da : tensor<8x16xf32>) -> tensor<8x16xf32>
  %da = linalg.matmul ins(%dh, %wot : tensor<8x16xf32>, tensor<16x16xf32>)
                      outs(%f_da : tensor<8x16xf32>) -> tensor<8x16xf32>
  // dP = dA V^T ; dV = P^T dA
  %e_vt = tensor.empty() : tensor<16x8xf32>
  %vt = linalg.transpose ins(%v : tensor<8x16xf32>) outs(%e_vt : tensor<16x8xf32>) permutation = [1, 0]
  %e_dp = tensor.empty() : tensor<8x8xf32>
  %f_dp = linalg.fill ins(%zero : f32) outs(%e_dp : tensor<8x8xf32>) -> tensor<8x8xf32>
  %dp = linalg.matmul ins(%da, %vt : tensor<8x16xf32>, tensor<16x8xf32>)
                      outs(%f_dp : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e_pt = tensor.empty() : tensor<8x8xf32>
  %pt = linalg.transpose ins(%p : tensor<8x8xf32>) outs(%e_pt : tensor<8x8xf32>) permutation = [1, 0]
  %e_dv = tensor.empty() : tensor<8x16xf32>
  %f_dv = linalg.fill ins(%zero : f32) outs(%e_dv : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dv = linalg.matmul ins(%pt, %da : tensor<8x8xf32>, tensor<8x16xf32>)
                      outs(%f_dv : tensor<8x16xf32>) -> tensor<8x16xf32>
  // Softmax backward: dSs = P * (dP - rowsum(dP * P)) / sqrt(d)
  %e_rsum = tensor.empty() : tensor<8xf32>
  %f_rsum = linalg.fill ins(%zero : f32) outs(%e_rsum : tensor<8xf32>) -> tensor<8xf32>
  %rsum = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f_rsum : tensor<8xf32>) {
  ^bb0(%gr: f32, %pp: f32, %acc: f32):
    %gp = arith.mulf %gr, %pp : f32
    %r = arith.addf %acc, %gp : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e_ds = tensor.empty() : tensor<8x8xf32>
  %ds = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dp, %p, %rsum : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) outs(%e_ds : tensor<8x8xf32>) {
  ^bb0(%gr: f32, %pp: f32, %rr: f32, %out: f32):
    %c = arith.subf %gr, %rr : f32
    %u = arith.mulf %pp, %c : f32
    %r = arith.mulf %u, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  // dQ = dSs K ; dK = dSs^T Q
  %e_dq = tensor.empty() : tensor<8x16xf32>
  %f_dq = linalg.fill ins(%zero : f32) outs(%e_dq : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<8x8xf32>, tensor<8x16xf32>)
                      outs(%f_dq : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e_dst = tensor.empty() : tensor<8x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<8x8xf32>) outs(%e_dst : tensor<8x8xf32>) permutation = [1, 0]
  %e_dk = tensor.empty() : tensor<8x16xf32>
  %f_dk = linalg.fill ins(%zero : f32) outs(%e_dk : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dk = linalg.matmul ins(%dst, %q : tensor<8x8xf32>, tensor<8x16xf32>)
                      outs(%f_dk : tensor<8x16xf32>) -> tensor<8x16xf32>
  // dWq = n1^T dQ ; dWk = n1^T dK ; dWv = n1^T dV
  %e_n1t = tensor.empty() : tensor<16x8xf32>
  %n1t = linalg.transpose ins(%n1 : tensor<8x16xf32>) outs(%e_n1t : tensor<16x8xf32>) permutation = [1, 0]
  %e_dwq = tensor.empty() : tensor<16x16xf32>
  %f_dwq = linalg.fill ins(%zero : f32) outs(%e_dwq : tensor<16x16xf32>) -> tensor<16x16xf32>
  %dwq = linalg.matmul ins(%n1t, %dq : tensor<16x8xf32>, tensor<8x16xf32>)
                       outs(%f_dwq : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e_dwk = tensor.empty() : tensor<16x16xf32>
  %f_dwk = linalg.fill ins(%zero : f32) outs(%e_dwk : tensor<16x16xf32>) -> tensor<16x16xf32>
  %dwk = linalg.matmul ins(%n1t, %dk : tensor<16x8xf32>, tensor<8x16xf32>)
                       outs(%f_dwk : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e_dwv = tensor.empty() : tensor<16x16xf32>
  %f_dwv = linalg.fill ins(%zero : f32) outs(%e_dwv : tensor<16x16xf32>) -> tensor<16x16xf32>
  %dwv = linalg.matmul ins(%n1t, %dv : tensor<16x8xf32>, tensor<8x16xf32>)
                       outs(%f_dwv : tensor<16x16xf32>) -> tensor<16x16xf32>
  // dn1 = dQ Wq^T + dK Wk^T + dV Wv^T (accumulated through the matmul outs)
  %e_wqt = tensor.empty() : tensor<16x16xf32>
  %wqt = linalg.transpose ins(%wq : tensor<16x16xf32>) outs(%e_wqt : tensor<16x16xf32>) permutation = [1, 0]
  %e_wkt = tensor.empty() : tensor<16x16xf32>
  %wkt = linalg.transpose ins(%wk : tensor<16x16xf32>) outs(%e_wkt : tensor<16x16xf32>) permutation = [1, 0]
  %e_wvt = tensor.empty() : tensor<16x16xf32>
  %wvt = linalg.transpose ins(%wv : tensor<16x16xf32>) outs(%e_wvt : tensor<16x16xf32>) permutation = [1, 0]
  %e_dn1 = tensor.empty() : tensor<8x16xf32>
  %f_dn1 = linalg.fill ins(%zero : f32) outs(%e_dn1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dn1q = linalg.matmul ins(%dq, %wqt : tensor<8x16xf32>, tensor<16x16xf32>)
                        outs(%f_dn1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dn1qk = linalg.matmul ins(%dk, %wkt : tensor<8x16xf32>, tensor<16x16xf32>)
                         outs(%dn1q : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dn1 = linalg.matmul ins(%dv, %wvt : tensor<8x16xf32>, tensor<16x16xf32>)
                       outs(%dn1qk : tensor<8x16xf32>) -> tensor<8x16xf32>
  // LayerNorm 1 backward (parameters only): dg1 = sum_i dn1 xh1, db1 = sum_i dn1.
  %e_dg1 = tensor.empty() : tensor<16xf32>
  %f_dg1 = linalg.fill ins(%zero : f32) outs(%e_dg1 : tensor<16xf32>) -> tensor<16xf32>
  %dg1 = linalg.generic {indexing_maps = [#id, #id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dn1, %xh1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f_dg1 : tensor<16xf32>) {
  ^bb0(%gr: f32, %xh: f32, %acc: f32):
    %c = arith.mulf %gr, %xh : f32
    %r = arith.addf %acc, %c : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e_db1 = tensor.empty() : tensor<16xf32>
  %f_db1 = linalg.fill ins(%zero : f32) outs(%e_db1 : tensor<16xf32>) -> tensor<16xf32>
  %db1 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dn1 : tensor<8x16xf32>) outs(%f_db1 : tensor<16xf32>) {
  ^bb0(%gr: f32, %acc: f32):
    %r = arith.addf %acc, %gr : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>

  return %loss, %dwq, %dwk, %dwv, %dwo, %dw1, %dw2, %dg1, %db1, %dg2, %db2
      : tensor<f32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>,
        tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>,
        tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
