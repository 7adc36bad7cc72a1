// A small ResNet training step (NHWC, no bias, no batch norm): a 3x3 stem
// conv with ReLU, two residual blocks, global average pooling and a linear
// classifier; sum-of-squares loss against a target.
// Shapes: x[2x8x8x4], t[2x10], W0[3x3x4x8] (HWCF), Wa1, Wb1, Wa2, Wb2
// [3x3x8x8], Wf[8x10]. All convs: 3x3, stride 1, zero padding 1 (tensor.pad
// + linalg.conv_2d_nhwc_hwcf), so spatial size stays 8x8.
//
// conv(a, W)[n,i,j,f] = sum_{kh,kw,c} pad(a)[n, i+kh, j+kw, c] W[kh,kw,c,f]
//
// Forward:
//   c0 = conv(x, W0),  h0 = relu(c0)                         [2x8x8x8]
//   block k = 1, 2 (input h_{k-1}):
//     u_k = conv(h_{k-1}, Wa_k),  r_k = relu(u_k)
//     v_k = conv(r_k, Wb_k),      s_k = v_k + h_{k-1},  h_k = relu(s_k)
//   g[n,c] = (1/64) sum_{i,j} h2[n,i,j,c]                    [2x8]
//   y = g Wf                                                 [2x10]
//   d = y - t,  loss = sum_ij d_ij^2
// Backward:
//   dy = 2 d,  dWf = g^T dy,  dg = dy Wf^T
//   dh2[n,i,j,c] = dg[n,c] / 64
//   block k = 2, 1:
//     ds_k  = dh_k * [s_k > 0]
//     dWb_k = filter_grad(r_k, ds_k),    dr_k = data_grad(ds_k, Wb_k)
//     du_k  = dr_k * [u_k > 0]
//     dWa_k = filter_grad(h_{k-1}, du_k)
//     dh_{k-1} = data_grad(du_k, Wa_k) + ds_k                 (skip path)
//   dc0 = dh0 * [c0 > 0],  dW0 = filter_grad(x, dc0)
// with
//   filter_grad(a, g)[kh,kw,c,f] = sum_{n,i,j} pad(a)[n, i+kh, j+kw, c] g[n,i,j,f]
//       (a linalg.generic with reduction iterators over n, i, j), and
//   data_grad(g, W) = conv(g, flip(W)),  flip(W)[a,b,f,c] = W[2-a, 2-b, c, f]
//       (pad the gradient by 1, convolve with the spatially flipped filter
//        whose in/out channels are swapped).
// Result 0 is the loss (`ckpt.loss = 0`); results 1..6 are dW0, dWa1, dWb1,
// dWa2, dWb2, dWf.

#id2 = affine_map<(i, j) -> (i, j)>
#red_out2 = affine_map<(i, j) -> ()>
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#nc = affine_map<(n, h, w, c) -> (n, c)>
#flip = affine_map<(a, b, f, c) -> (2 - a, 2 - b, c, f)>
#fg_in = affine_map<(kh, kw, c, f, n, h, w) -> (n, h + kh, w + kw, c)>
#fg_dout = affine_map<(kh, kw, c, f, n, h, w) -> (n, h, w, f)>
#fg_out = affine_map<(kh, kw, c, f, n, h, w) -> (kh, kw, c, f)>

func.func @resnet_step(%x: tensor<2x8x8x4xf32>, %t: tensor<2x10xf32>,
                       %w0: tensor<3x3x4x8xf32>,
                       %wa1: tensor<3x3x8x8xf32>, %wb1: tensor<3x3x8x8xf32>,
                       %wa2: tensor<3x3x8x8xf32>, %wb2: tensor<3x3x8x8xf32>,
                       %wf: tensor<8x10xf32>)
    -> (tensor<f32>, tensor<3x3x4x8xf32>, tensor<3x3x8x8xf32>, tensor<3x3x8x8xf32>,
        tensor<3x3x8x8xf32>, tensor<3x3x8x8xf32>, tensor<8x10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %inv_hw = arith.constant 0.015625 : f32   // 1/64

  // Forward.
  // Stem: c0 = conv(x, W0), h0 = relu(c0).
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x4xf32> to tensor<2x10x10x4xf32>
  %e_c0 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_c0 = linalg.fill ins(%zero : f32) outs(%e_c0 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w0 : tensor<2x10x10x4xf32>, tensor<3x3x4x8xf32>)
      outs(%f_c0 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_h0 = tensor.empty() : tensor<2x8x8x8xf32>
  %h0 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c0 : tensor<2x8x8x8xf32>) outs(%e_h0 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>

  // Block 1: u1 = conv(h0, Wa1), r1 = relu(u1), v1 = conv(r1, Wb1),
  //          s1 = v1 + h0, h1 = relu(s1).
  %h0p = tensor.pad %h0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_u1 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_u1 = linalg.fill ins(%zero : f32) outs(%e_u1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %u1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%h0p, %wa1 : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_u1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_r1 = tensor.empty() : tensor<2x8x8x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%u1 : tensor<2x8x8x8xf32>) outs(%e_r1 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  %r1p = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_v1 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_v1 = linalg.fill ins(%zero : f32) outs(%e_v1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %v1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r1p, %wb1 : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_v1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_s1 = tensor.empty() : tensor<2x8x8x8xf32>
  %s1 = linalg.add ins(%v1, %h0 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>)
                   outs(%e_s1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_h1 = tensor.empty() : tensor<2x8x8x8xf32>
  %h1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s1 : tensor<2x8x8x8xf32>) outs(%e_h1 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>

  // Block 2: u2 = conv(h1, Wa2), r2 = relu(u2), v2 = conv(r2, Wb2),
  //          s2 = v2 + h1, h2 = relu(s2).
  %h1p = tensor.pad %h1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_u2 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_u2 = linalg.fill ins(%zero : f32) outs(%e_u2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %u2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%h1p, %wa2 : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_u2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_r2 = tensor.empty() : tensor<2x8x8x8xf32>
  %r2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%u2 : tensor<2x8x8x8xf32>) outs(%e_r2 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  %r2p = tensor.pad %r2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_v2 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_v2 = linalg.fill ins(%zero : f32) outs(%e_v2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %v2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r2p, %wb2 : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_v2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_s2 = tensor.empty() : tensor<2x8x8x8xf32>
  %s2 = linalg.add ins(%v2, %h1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>)
                   outs(%e_s2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_h2 = tensor.empty() : tensor<2x8x8x8xf32>
  %h2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s2 : tensor<2x8x8x8xf32>) outs(%e_h2 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>

  // Head: g = global average pool(h2), y = g Wf, loss = sum((y - t)^2).
  %e_g = tensor.empty() : tensor<2x8xf32>
  %f_g = linalg.fill ins(%zero : f32) outs(%e_g : tensor<2x8xf32>) -> tensor<2x8xf32>
  %g = linalg.generic {indexing_maps = [#id4, #nc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%h2 : tensor<2x8x8x8xf32>) outs(%f_g : tensor<2x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sc = arith.mulf %a, %inv_hw : f32
    %r = arith.addf %acc, %sc : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %e_y = tensor.empty() : tensor<2x10xf32>
  %f_y = linalg.fill ins(%zero : f32) outs(%e_y : tensor<2x10xf32>) -> tensor<2x10xf32>
  %y = linalg.matmul ins(%g, %wf : tensor<2x8xf32>, tensor<8x10xf32>)
                     outs(%f_y : tensor<2x10xf32>) -> tensor<2x10xf32>
  %e_d = tensor.empty() : tensor<2x10xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x10xf32>, tensor<2x10xf32>)
                  outs(%e_d : tensor<2x10xf32>) -> tensor<2x10xf32>
  %e_l = tensor.empty() : tensor<f32>
  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id2, #red_out2], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<2x10xf32>) outs(%f_l : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<f32>

  // Backward.
  // Head: dy = 2 d, dWf = g^T dy, dg = dy Wf^T, dh2 = broadcast(dg) / 64.
  %e_dy = tensor.empty() : tensor<2x10xf32>
  %dy = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<2x10xf32>) outs(%e_dy : tensor<2x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<2x10xf32>
  %e_gt = tensor.empty() : tensor<8x2xf32>
  %gt = linalg.transpose ins(%g : tensor<2x8xf32>) outs(%e_gt : tensor<8x2xf32>) permutation = [1, 0]
  %e_dwf = tensor.empty() : tensor<8x10xf32>
  %f_dwf = linalg.fill ins(%zero : f32) outs(%e_dwf : tensor<8x10xf32>) -> tensor<8x10xf32>
  %dwf = linalg.matmul ins(%gt, %dy : tensor<8x2xf32>, tensor<2x10xf32>)
                       outs(%f_dwf : tensor<8x10xf32>) -> tensor<8x10xf32>
  %e_wft = tensor.empty() : tensor<10x8xf32>
  %wft = linalg.transpose ins(%wf : tensor<8x10xf32>) outs(%e_wft : tensor<10x8xf32>) permutation = [1, 0]
  %e_dg = tensor.empty() : tensor<2x8xf32>
  %f_dg = linalg.fill ins(%zero : f32) outs(%e_dg : tensor<2x8xf32>) -> tensor<2x8xf32>
  %dg = linalg.matmul ins(%dy, %wft : tensor<2x10xf32>, tensor<10x8xf32>)
                      outs(%f_dg : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e_dh2 = tensor.empty() : tensor<2x8x8x8xf32>
  %dh2 = linalg.generic {indexing_maps = [#nc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dg : tensor<2x8xf32>) outs(%e_dh2 : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %inv_hw : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>

  // Block 2 backward.
  %e_ds2 = tensor.empty() : tensor<2x8x8x8xf32>
  %ds2 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dh2, %s2 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e_ds2 : tensor<2x8x8x8xf32>) {
  ^bb0(%gr: f32, %pre: f32, %o: f32):
    %pos = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // dWb2 = filter_grad(r2, ds2)
  %e_dwb2 = tensor.empty() : tensor<3x3x8x8xf32>
  %f_dwb2 = linalg.fill ins(%zero : f32) outs(%e_dwb2 : tensor<3x3x8x8xf32>) -> tensor<3x3x8x8xf32>
  %dwb2 = linalg.generic {indexing_maps = [#fg_in, #fg_dout, #fg_out],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%r2p, %ds2 : tensor<2x10x10x8xf32>, tensor<2x8x8x8xf32>) outs(%f_dwb2 : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %gr: f32, %acc: f32):
    %m = arith.mulf %a, %gr : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x3x8x8xf32>
  // dr2 = conv(pad(ds2), flip(Wb2)) ; du2 = dr2 * [u2 > 0]
  %e_wb2f = tensor.empty() : tensor<3x3x8x8xf32>
  %wb2f = linalg.generic {indexing_maps = [#flip, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%wb2 : tensor<3x3x8x8xf32>) outs(%e_wb2f : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3x8x8xf32>
  %ds2p = tensor.pad %ds2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_dr2 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_dr2 = linalg.fill ins(%zero : f32) outs(%e_dr2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %dr2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%ds2p, %wb2f : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_dr2 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_du2 = tensor.empty() : tensor<2x8x8x8xf32>
  %du2 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dr2, %u2 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e_du2 : tensor<2x8x8x8xf32>) {
  ^bb0(%gr: f32, %pre: f32, %o: f32):
    %pos = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // dWa2 = filter_grad(h1, du2)
  %e_dwa2 = tensor.empty() : tensor<3x3x8x8xf32>
  %f_dwa2 = linalg.fill ins(%zero : f32) outs(%e_dwa2 : tensor<3x3x8x8xf32>) -> tensor<3x3x8x8xf32>
  %dwa2 = linalg.generic {indexing_maps = [#fg_in, #fg_dout, #fg_out],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%h1p, %du2 : tensor<2x10x10x8xf32>, tensor<2x8x8x8xf32>) outs(%f_dwa2 : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %gr: f32, %acc: f32):
    %m = arith.mulf %a, %gr : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x3x8x8xf32>
  // dh1 = conv(pad(du2), flip(Wa2)) + ds2
  %e_wa2f = tensor.empty() : tensor<3x3x8x8xf32>
  %wa2f = linalg.generic {indexing_maps = [#flip, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%wa2 : tensor<3x3x8x8xf32>) outs(%e_wa2f : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3x8x8xf32>
  %du2p = tensor.pad %du2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_dh1c = tensor.empty() : tensor<2x8x8x8xf32>
  %f_dh1c = linalg.fill ins(%zero : f32) outs(%e_dh1c : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %dh1c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%du2p, %wa2f : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_dh1c : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_dh1 = tensor.empty() : tensor<2x8x8x8xf32>
  %dh1 = linalg.add ins(%dh1c, %ds2 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>)
                    outs(%e_dh1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>

  // Block 1 backward.
  %e_ds1 = tensor.empty() : tensor<2x8x8x8xf32>
  %ds1 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dh1, %s1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e_ds1 : tensor<2x8x8x8xf32>) {
  ^bb0(%gr: f32, %pre: f32, %o: f32):
    %pos = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // dWb1 = filter_grad(r1, ds1)
  %e_dwb1 = tensor.empty() : tensor<3x3x8x8xf32>
  %f_dwb1 = linalg.fill ins(%zero : f32) outs(%e_dwb1 : tensor<3x3x8x8xf32>) -> tensor<3x3x8x8xf32>
  %dwb1 = linalg.generic {indexing_maps = [#fg_in, #fg_dout, #fg_out],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%r1p, %ds1 : tensor<2x10x10x8xf32>, tensor<2x8x8x8xf32>) outs(%f_dwb1 : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %gr: f32, %acc: f32):
    %m = arith.mulf %a, %gr : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x3x8x8xf32>
  // dr1 = conv(pad(ds1), flip(Wb1)) ; du1 = dr1 * [u1 > 0]
  %e_wb1f = tensor.empty() : tensor<3x3x8x8xf32>
  %wb1f = linalg.generic {indexing_maps = [#flip, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%wb1 : tensor<3x3x8x8xf32>) outs(%e_wb1f : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3x8x8xf32>
  %ds1p = tensor.pad %ds1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_dr1 = tensor.empty() : tensor<2x8x8x8xf32>
  %f_dr1 = linalg.fill ins(%zero : f32) outs(%e_dr1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %dr1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%ds1p, %wb1f : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_dr1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_du1 = tensor.empty() : tensor<2x8x8x8xf32>
  %du1 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dr1, %u1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e_du1 : tensor<2x8x8x8xf32>) {
  ^bb0(%gr: f32, %pre: f32, %o: f32):
    %pos = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  // dWa1 = filter_grad(h0, du1)
  %e_dwa1 = tensor.empty() : tensor<3x3x8x8xf32>
  %f_dwa1 = linalg.fill ins(%zero : f32) outs(%e_dwa1 : tensor<3x3x8x8xf32>) -> tensor<3x3x8x8xf32>
  %dwa1 = linalg.generic {indexing_maps = [#fg_in, #fg_dout, #fg_out],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%h0p, %du1 : tensor<2x10x10x8xf32>, tensor<2x8x8x8xf32>) outs(%f_dwa1 : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %gr: f32, %acc: f32):
    %m = arith.mulf %a, %gr : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x3x8x8xf32>
  // dh0 = conv(pad(du1), flip(Wa1)) + ds1
  %e_wa1f = tensor.empty() : tensor<3x3x8x8xf32>
  %wa1f = linalg.generic {indexing_maps = [#flip, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%wa1 : tensor<3x3x8x8xf32>) outs(%e_wa1f : tensor<3x3x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3x3x8x8xf32>
  %du1p = tensor.pad %du1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x8xf32> to tensor<2x10x10x8xf32>
  %e_dh0c = tensor.empty() : tensor<2x8x8x8xf32>
  %f_dh0c = linalg.fill ins(%zero : f32) outs(%e_dh0c : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %dh0c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%du1p, %wa1f : tensor<2x10x10x8xf32>, tensor<3x3x8x8xf32>)
      outs(%f_dh0c : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %e_dh0 = tensor.empty() : tensor<2x8x8x8xf32>
  %dh0 = linalg.add ins(%dh0c, %ds1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>)
                    outs(%e_dh0 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>

  // Stem backward: dc0 = dh0 * [c0 > 0], dW0 = filter_grad(x, dc0).
  %e_dc0 = tensor.empty() : tensor<2x8x8x8xf32>
  %dc0 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dh0, %c0 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e_dc0 : tensor<2x8x8x8xf32>) {
  ^bb0(%gr: f32, %pre: f32, %o: f32):
    %pos = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %pos, %gr, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8x8xf32>
  %e_dw0 = tensor.empty() : tensor<3x3x4x8xf32>
  %f_dw0 = linalg.fill ins(%zero : f32) outs(%e_dw0 : tensor<3x3x4x8xf32>) -> tensor<3x3x4x8xf32>
  %dw0 = linalg.generic {indexing_maps = [#fg_in, #fg_dout, #fg_out],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xp, %dc0 : tensor<2x10x10x4xf32>, tensor<2x8x8x8xf32>) outs(%f_dw0 : tensor<3x3x4x8xf32>) {
  ^bb0(%a: f32, %gr: f32, %acc: f32):
    %m = arith.mulf %a, %gr : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x3x4x8xf32>

  return %loss, %dw0, %dwa1, %dwb1, %dwa2, %dwb2, %dwf
      : tensor<f32>, tensor<3x3x4x8xf32>, tensor<3x3x8x8xf32>, tensor<3x3x8x8xf32>,
        tensor<3x3x8x8xf32>, tensor<3x3x8x8xf32>, tensor<8x10xf32>
}
