// Imported from ckpt.torch_import.models.TinyResNet (batch 2, 16x16, 10
// classes) by `python -m ckpt.torch_import tinyresnet --batch 2 --loss
// cross_entropy:indices`: a step with NCHW convolutions for test/Run/kernels.test.
// Imported by ckpt.torch_import from PyTorch 2.14.1+cu130: TinyResNet, loss cross_entropy:indices.
// Training mode; batch norm uses batch statistics (running statistics dropped);
// dropout off. Results: the loss, then the gradient of each parameter.
// Arguments:
//   %x: input [2, 3, 16, 16]
//   %t: target [2] (cross_entropy:indices), valid range [0, 10)
//   %p0: stem.weight [8, 3, 3, 3]
//   %p1: stem.bias [8]
//   %p2: block1.conv1.weight [8, 8, 3, 3]
//   %p3: block1.bn1.weight [8]
//   %p4: block1.bn1.bias [8]
//   %p5: block1.conv2.weight [8, 8, 3, 3]
//   %p6: block1.bn2.weight [8]
//   %p7: block1.bn2.bias [8]
//   %p8: block2.conv1.weight [16, 8, 3, 3]
//   %p9: block2.bn1.weight [16]
//   %p10: block2.bn1.bias [16]
//   %p11: block2.conv2.weight [16, 16, 3, 3]
//   %p12: block2.bn2.weight [16]
//   %p13: block2.bn2.bias [16]
//   %p14: block2.down.0.weight [16, 8, 1, 1]
//   %p15: block2.down.1.weight [16]
//   %p16: block2.down.1.bias [16]
//   %p17: fc.weight [10, 64]
//   %p18: fc.bias [10]

#map0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4 * 1, d3 * 2 + d5 * 1)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#map6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#map7 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map8 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map9 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map10 = affine_map<(d0, d1) -> (d0, d1)>
#map11 = affine_map<(d0, d1) -> (d1)>
#map12 = affine_map<(d0, d1) -> (d0)>
#map13 = affine_map<(d0, d1) -> (d0, 0)>
#map14 = affine_map<(d0) -> (d0)>
#map15 = affine_map<(d0) -> ()>
#map16 = affine_map<(d0) -> (d0, 0)>
#map17 = affine_map<() -> ()>
#map18 = affine_map<(d0, d1) -> ()>
#map19 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map20 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map21 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
#map22 = affine_map<(d0) -> (0, d0, 0, 0)>
#map23 = affine_map<(d0, d1, d2, d3) -> (d1, d0, 0 - d2, 0 - d3)>
#map24 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d5 * 2 + d2 * 1, d6 * 2 + d3 * 1)>
#map25 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0, d5, d6)>
#map26 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#map27 = affine_map<(d0, d1, d2, d3) -> (d1, d0, 2 - d2, 2 - d3)>
#map28 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d1, d5 * 1 + d2 * 1, d6 * 1 + d3 * 1)>
#map29 = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#map30 = affine_map<(d0, d1, d2, d3) -> (d0)>

func.func @tinyresnet_step(%x: tensor<2x3x16x16xf32>,
    %t: tensor<2xi64> {ckpt.range = array<i64: 0, 10>},
    %p0: tensor<8x3x3x3xf32>,
    %p1: tensor<8xf32>,
    %p2: tensor<8x8x3x3xf32>,
    %p3: tensor<8xf32>,
    %p4: tensor<8xf32>,
    %p5: tensor<8x8x3x3xf32>,
    %p6: tensor<8xf32>,
    %p7: tensor<8xf32>,
    %p8: tensor<16x8x3x3xf32>,
    %p9: tensor<16xf32>,
    %p10: tensor<16xf32>,
    %p11: tensor<16x16x3x3xf32>,
    %p12: tensor<16xf32>,
    %p13: tensor<16xf32>,
    %p14: tensor<16x8x1x1xf32>,
    %p15: tensor<16xf32>,
    %p16: tensor<16xf32>,
    %p17: tensor<10x64xf32>,
    %p18: tensor<10xf32>)
    -> (tensor<f32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>, tensor<16xf32>, tensor<10x64xf32>, tensor<10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 0xff800000 : f32
  %c2 = arith.constant 0 : i64
  %c3 = arith.constant 0.0078125 : f32
  %c4 = arith.constant 1.0e-05 : f32
  %c5 = arith.constant 0.03125 : f32
  %c6 = arith.constant 0.25 : f32
  %c7 = arith.constant -100 : i64
  %c8 = arith.constant 9 : i64
  %c9 = arith.constant 1.0 : f32
  %c10 = arith.constant -1.0 : f32
  %c11 = arith.constant 0 : index
  %c12 = arith.constant 2 : index
  %c13 = arith.constant 8 : index
  %convolution_pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x3x16x16xf32> to tensor<2x3x18x18xf32>
  %convolution_e = tensor.empty() : tensor<2x8x16x16xf32>
  %convolution_f = linalg.fill ins(%c0 : f32) outs(%convolution_e : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %convolution = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%convolution_pad, %p0 : tensor<2x3x18x18xf32>, tensor<8x3x3x3xf32>) outs(%convolution_f : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %convolution_bias_e = tensor.empty() : tensor<2x8x16x16xf32>
  %convolution_bias = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution, %p1 : tensor<2x8x16x16xf32>, tensor<8xf32>) outs(%convolution_bias_e : tensor<2x8x16x16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x16x16xf32>
  %relu_e = tensor.empty() : tensor<2x8x16x16xf32>
  %relu = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_bias : tensor<2x8x16x16xf32>) outs(%relu_e : tensor<2x8x16x16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b0, %c0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x16x16xf32>
  %max_pool2d_with_indices_pad = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c1 : f32
  } : tensor<2x8x16x16xf32> to tensor<2x8x17x17xf32>
  %max_pool2d_with_indices_win_e = tensor.empty() : tensor<3x3xf32>
  %max_pool2d_with_indices_vals_e = tensor.empty() : tensor<2x8x8x8xf32>
  %max_pool2d_with_indices_vals_f = linalg.fill ins(%c1 : f32) outs(%max_pool2d_with_indices_vals_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %max_pool2d_with_indices_idx_e = tensor.empty() : tensor<2x8x8x8xi64>
  %max_pool2d_with_indices_idx_f = linalg.fill ins(%c2 : i64) outs(%max_pool2d_with_indices_idx_e : tensor<2x8x8x8xi64>) -> tensor<2x8x8x8xi64>
  %max_pool2d_with_indices:2 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%max_pool2d_with_indices_pad, %max_pool2d_with_indices_win_e : tensor<2x8x17x17xf32>, tensor<3x3xf32>) outs(%max_pool2d_with_indices_vals_f, %max_pool2d_with_indices_idx_f : tensor<2x8x8x8xf32>, tensor<2x8x8x8xi64>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32, %b3: i64):
    %r0 = linalg.index 2 : index
    %r1 = linalg.index 3 : index
    %r2 = linalg.index 4 : index
    %r3 = linalg.index 5 : index
    %r4 = affine.apply affine_map<(a, b) -> (a * 2 + b * 1 - 1)>(%r0, %r2)
    %r5 = affine.apply affine_map<(a, b) -> (a * 2 + b * 1 - 1)>(%r1, %r3)
    %r6 = affine.apply affine_map<(a, b) -> (a * 16 + b)>(%r4, %r5)
    %r7 = arith.index_cast %r6 : index to i64
    %r8 = arith.cmpf ogt, %b0, %b2 : f32
    %r9 = arith.cmpf uno, %b0, %b0 : f32
    %r10 = arith.ori %r8, %r9 : i1
    %r11 = arith.select %r10, %b0, %b2 : f32
    %r12 = arith.select %r10, %r7, %b3 : i64
    linalg.yield %r11, %r12 : f32, i64
  } -> (tensor<2x8x8x8xf32>, tensor<2x8x8x8xi64>)
  %convolution_1_pad = tensor.pad %max_pool2d_with_indices#0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_1_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_1_f = linalg.fill ins(%c0 : f32) outs(%convolution_1_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_1 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%convolution_1_pad, %p2 : tensor<2x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%convolution_1_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %var_mean_mean_e = tensor.empty() : tensor<8xf32>
  %var_mean_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_mean_e : tensor<8xf32>) -> tensor<8xf32>
  %var_mean_mean = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_1 : tensor<2x8x8x8xf32>) outs(%var_mean_mean_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    %r1 = arith.addf %b1, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<8xf32>
  %var_mean_e = tensor.empty() : tensor<8xf32>
  %var_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_e : tensor<8xf32>) -> tensor<8xf32>
  %var_mean = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_1, %var_mean_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%var_mean_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    %r1 = arith.mulf %r0, %r0 : f32
    %r2 = arith.mulf %r1, %c3 : f32
    %r3 = arith.addf %b2, %r2 : f32
    linalg.yield %r3 : f32
  } -> tensor<8xf32>
  %add_e = tensor.empty() : tensor<1x8x1x1xf32>
  %add = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%var_mean : tensor<8xf32>) outs(%add_e : tensor<1x8x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b0, %c4 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x8x1x1xf32>
  %rsqrt_e = tensor.empty() : tensor<1x8x1x1xf32>
  %rsqrt = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add : tensor<1x8x1x1xf32>) outs(%rsqrt_e : tensor<1x8x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.rsqrt %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x8x1x1xf32>
  %sub_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_1, %var_mean_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul = linalg.generic {indexing_maps = [#map0, #map5, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub, %rsqrt : tensor<2x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%mul_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_1_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_1 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul, %p3 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_1_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %add_1_e = tensor.empty() : tensor<2x8x8x8xf32>
  %add_1 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_1, %p4 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%add_1_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %relu_1_e = tensor.empty() : tensor<2x8x8x8xf32>
  %relu_1 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_1 : tensor<2x8x8x8xf32>) outs(%relu_1_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b0, %c0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %convolution_2_pad = tensor.pad %relu_1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_2_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_2_f = linalg.fill ins(%c0 : f32) outs(%convolution_2_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_2 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%convolution_2_pad, %p5 : tensor<2x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%convolution_2_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %var_mean_1_mean_e = tensor.empty() : tensor<8xf32>
  %var_mean_1_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_1_mean_e : tensor<8xf32>) -> tensor<8xf32>
  %var_mean_1_mean = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_2 : tensor<2x8x8x8xf32>) outs(%var_mean_1_mean_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    %r1 = arith.addf %b1, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<8xf32>
  %var_mean_1_e = tensor.empty() : tensor<8xf32>
  %var_mean_1_f = linalg.fill ins(%c0 : f32) outs(%var_mean_1_e : tensor<8xf32>) -> tensor<8xf32>
  %var_mean_1 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_2, %var_mean_1_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%var_mean_1_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    %r1 = arith.mulf %r0, %r0 : f32
    %r2 = arith.mulf %r1, %c3 : f32
    %r3 = arith.addf %b2, %r2 : f32
    linalg.yield %r3 : f32
  } -> tensor<8xf32>
  %add_2_e = tensor.empty() : tensor<1x8x1x1xf32>
  %add_2 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%var_mean_1 : tensor<8xf32>) outs(%add_2_e : tensor<1x8x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b0, %c4 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x8x1x1xf32>
  %rsqrt_1_e = tensor.empty() : tensor<1x8x1x1xf32>
  %rsqrt_1 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_2 : tensor<1x8x1x1xf32>) outs(%rsqrt_1_e : tensor<1x8x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.rsqrt %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x8x1x1xf32>
  %sub_1_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_1 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_2, %var_mean_1_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_1_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_2_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_2 = linalg.generic {indexing_maps = [#map0, #map5, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_1, %rsqrt_1 : tensor<2x8x8x8xf32>, tensor<1x8x1x1xf32>) outs(%mul_2_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_3_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_3 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_2, %p6 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_3_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %add_3_e = tensor.empty() : tensor<2x8x8x8xf32>
  %add_3 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_3, %p7 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%add_3_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %add_4_e = tensor.empty() : tensor<2x8x8x8xf32>
  %add_4 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_3, %max_pool2d_with_indices#0 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%add_4_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %relu_2_e = tensor.empty() : tensor<2x8x8x8xf32>
  %relu_2 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_4 : tensor<2x8x8x8xf32>) outs(%relu_2_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b0, %c0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %convolution_3_pad = tensor.pad %relu_2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_3_e = tensor.empty() : tensor<2x16x4x4xf32>
  %convolution_3_f = linalg.fill ins(%c0 : f32) outs(%convolution_3_e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %convolution_3 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>} ins(%convolution_3_pad, %p8 : tensor<2x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%convolution_3_f : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %var_mean_2_mean_e = tensor.empty() : tensor<16xf32>
  %var_mean_2_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_2_mean_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_2_mean = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_3 : tensor<2x16x4x4xf32>) outs(%var_mean_2_mean_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    %r1 = arith.addf %b1, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16xf32>
  %var_mean_2_e = tensor.empty() : tensor<16xf32>
  %var_mean_2_f = linalg.fill ins(%c0 : f32) outs(%var_mean_2_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_2 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_3, %var_mean_2_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%var_mean_2_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    %r1 = arith.mulf %r0, %r0 : f32
    %r2 = arith.mulf %r1, %c5 : f32
    %r3 = arith.addf %b2, %r2 : f32
    linalg.yield %r3 : f32
  } -> tensor<16xf32>
  %add_5_e = tensor.empty() : tensor<1x16x1x1xf32>
  %add_5 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%var_mean_2 : tensor<16xf32>) outs(%add_5_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b0, %c4 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %rsqrt_2_e = tensor.empty() : tensor<1x16x1x1xf32>
  %rsqrt_2 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_5 : tensor<1x16x1x1xf32>) outs(%rsqrt_2_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.rsqrt %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %sub_2_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_2 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_3, %var_mean_2_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_2_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_4_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_4 = linalg.generic {indexing_maps = [#map0, #map5, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_2, %rsqrt_2 : tensor<2x16x4x4xf32>, tensor<1x16x1x1xf32>) outs(%mul_4_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_5_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_5 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_4, %p9 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_5_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %add_6_e = tensor.empty() : tensor<2x16x4x4xf32>
  %add_6 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_5, %p10 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%add_6_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %relu_3_e = tensor.empty() : tensor<2x16x4x4xf32>
  %relu_3 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_6 : tensor<2x16x4x4xf32>) outs(%relu_3_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b0, %c0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %convolution_4_pad = tensor.pad %relu_3 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x16x4x4xf32> to tensor<2x16x6x6xf32>
  %convolution_4_e = tensor.empty() : tensor<2x16x4x4xf32>
  %convolution_4_f = linalg.fill ins(%c0 : f32) outs(%convolution_4_e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %convolution_4 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%convolution_4_pad, %p11 : tensor<2x16x6x6xf32>, tensor<16x16x3x3xf32>) outs(%convolution_4_f : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %var_mean_3_mean_e = tensor.empty() : tensor<16xf32>
  %var_mean_3_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_3_mean_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_3_mean = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_4 : tensor<2x16x4x4xf32>) outs(%var_mean_3_mean_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    %r1 = arith.addf %b1, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16xf32>
  %var_mean_3_e = tensor.empty() : tensor<16xf32>
  %var_mean_3_f = linalg.fill ins(%c0 : f32) outs(%var_mean_3_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_3 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_4, %var_mean_3_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%var_mean_3_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    %r1 = arith.mulf %r0, %r0 : f32
    %r2 = arith.mulf %r1, %c5 : f32
    %r3 = arith.addf %b2, %r2 : f32
    linalg.yield %r3 : f32
  } -> tensor<16xf32>
  %add_7_e = tensor.empty() : tensor<1x16x1x1xf32>
  %add_7 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%var_mean_3 : tensor<16xf32>) outs(%add_7_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b0, %c4 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %rsqrt_3_e = tensor.empty() : tensor<1x16x1x1xf32>
  %rsqrt_3 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_7 : tensor<1x16x1x1xf32>) outs(%rsqrt_3_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.rsqrt %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %sub_3_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_3 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_4, %var_mean_3_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_3_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_6_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_6 = linalg.generic {indexing_maps = [#map0, #map5, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_3, %rsqrt_3 : tensor<2x16x4x4xf32>, tensor<1x16x1x1xf32>) outs(%mul_6_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_7_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_7 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_6, %p12 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_7_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %add_8_e = tensor.empty() : tensor<2x16x4x4xf32>
  %add_8 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_7, %p13 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%add_8_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %convolution_5_e = tensor.empty() : tensor<2x16x4x4xf32>
  %convolution_5_f = linalg.fill ins(%c0 : f32) outs(%convolution_5_e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %convolution_5 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>} ins(%relu_2, %p14 : tensor<2x8x8x8xf32>, tensor<16x8x1x1xf32>) outs(%convolution_5_f : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %var_mean_4_mean_e = tensor.empty() : tensor<16xf32>
  %var_mean_4_mean_f = linalg.fill ins(%c0 : f32) outs(%var_mean_4_mean_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_4_mean = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_5 : tensor<2x16x4x4xf32>) outs(%var_mean_4_mean_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    %r1 = arith.addf %b1, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16xf32>
  %var_mean_4_e = tensor.empty() : tensor<16xf32>
  %var_mean_4_f = linalg.fill ins(%c0 : f32) outs(%var_mean_4_e : tensor<16xf32>) -> tensor<16xf32>
  %var_mean_4 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%convolution_5, %var_mean_4_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%var_mean_4_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    %r1 = arith.mulf %r0, %r0 : f32
    %r2 = arith.mulf %r1, %c5 : f32
    %r3 = arith.addf %b2, %r2 : f32
    linalg.yield %r3 : f32
  } -> tensor<16xf32>
  %add_9_e = tensor.empty() : tensor<1x16x1x1xf32>
  %add_9 = linalg.generic {indexing_maps = [#map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%var_mean_4 : tensor<16xf32>) outs(%add_9_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b0, %c4 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %rsqrt_4_e = tensor.empty() : tensor<1x16x1x1xf32>
  %rsqrt_4 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_9 : tensor<1x16x1x1xf32>) outs(%rsqrt_4_e : tensor<1x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.rsqrt %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<1x16x1x1xf32>
  %sub_4_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_4 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_5, %var_mean_4_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_4_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_8_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_8 = linalg.generic {indexing_maps = [#map0, #map5, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_4, %rsqrt_4 : tensor<2x16x4x4xf32>, tensor<1x16x1x1xf32>) outs(%mul_8_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_9_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_9 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_8, %p15 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_9_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %add_10_e = tensor.empty() : tensor<2x16x4x4xf32>
  %add_10 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mul_9, %p16 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%add_10_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %add_11_e = tensor.empty() : tensor<2x16x4x4xf32>
  %add_11 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_8, %add_10 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%add_11_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %relu_4_e = tensor.empty() : tensor<2x16x4x4xf32>
  %relu_4 = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_11 : tensor<2x16x4x4xf32>) outs(%relu_4_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b0, %c0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %avg_pool2d_win_e = tensor.empty() : tensor<2x2xf32>
  %avg_pool2d_e = tensor.empty() : tensor<2x16x2x2xf32>
  %avg_pool2d_f = linalg.fill ins(%c0 : f32) outs(%avg_pool2d_e : tensor<2x16x2x2xf32>) -> tensor<2x16x2x2xf32>
  %avg_pool2d = linalg.generic {indexing_maps = [#map6, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%relu_4, %avg_pool2d_win_e : tensor<2x16x4x4xf32>, tensor<2x2xf32>) outs(%avg_pool2d_f : tensor<2x16x2x2xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %c6 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x16x2x2xf32>
  %view = tensor.collapse_shape %avg_pool2d [[0], [1, 2, 3]] : tensor<2x16x2x2xf32> into tensor<2x64xf32>
  %addmm_e = tensor.empty() : tensor<2x10xf32>
  %addmm_f = linalg.fill ins(%c0 : f32) outs(%addmm_e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %addmm = linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%view, %p17 : tensor<2x64xf32>, tensor<10x64xf32>) outs(%addmm_f : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x10xf32>
  %addmm_bias_e = tensor.empty() : tensor<2x10xf32>
  %addmm_bias = linalg.generic {indexing_maps = [#map10, #map11, #map10], iterator_types = ["parallel", "parallel"]} ins(%addmm, %p18 : tensor<2x10xf32>, tensor<10xf32>) outs(%addmm_bias_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %amax_e = tensor.empty() : tensor<2xf32>
  %amax_f = linalg.fill ins(%c1 : f32) outs(%amax_e : tensor<2xf32>) -> tensor<2xf32>
  %amax = linalg.generic {indexing_maps = [#map10, #map12], iterator_types = ["parallel", "reduction"]} ins(%addmm_bias : tensor<2x10xf32>) outs(%amax_f : tensor<2xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.maximumf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2xf32>
  %sub_5_e = tensor.empty() : tensor<2x10xf32>
  %sub_5 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%addmm_bias, %amax : tensor<2x10xf32>, tensor<2xf32>) outs(%sub_5_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %exp_e = tensor.empty() : tensor<2x10xf32>
  %exp = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%sub_5 : tensor<2x10xf32>) outs(%exp_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.exp %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %sum_1_e = tensor.empty() : tensor<2xf32>
  %sum_1_f = linalg.fill ins(%c0 : f32) outs(%sum_1_e : tensor<2xf32>) -> tensor<2xf32>
  %sum_1 = linalg.generic {indexing_maps = [#map10, #map12], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<2x10xf32>) outs(%sum_1_f : tensor<2xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2xf32>
  %log_e = tensor.empty() : tensor<2x1xf32>
  %log = linalg.generic {indexing_maps = [#map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%sum_1 : tensor<2xf32>) outs(%log_e : tensor<2x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.log %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x1xf32>
  %sub_6_e = tensor.empty() : tensor<2x10xf32>
  %sub_6 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel"]} ins(%sub_5, %log : tensor<2x10xf32>, tensor<2x1xf32>) outs(%sub_6_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %ne_e = tensor.empty() : tensor<2xi1>
  %ne = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%t : tensor<2xi64>) outs(%ne_e : tensor<2xi1>) {
  ^bb0(%b0: i64, %b1: i1):
    %r0 = arith.cmpi ne, %b0, %c7 : i64
    linalg.yield %r0 : i1
  } -> tensor<2xi1>
  %scalar_tensor_e = tensor.empty() : tensor<i64>
  %scalar_tensor_f = linalg.fill ins(%c2 : i64) outs(%scalar_tensor_e : tensor<i64>) -> tensor<i64>
  %where_e = tensor.empty() : tensor<2xi64>
  %where = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel"]} ins(%ne, %t, %scalar_tensor_f : tensor<2xi1>, tensor<2xi64>, tensor<i64>) outs(%where_e : tensor<2xi64>) {
  ^bb0(%b0: i1, %b1: i64, %b2: i64, %b3: i64):
    %r0 = arith.select %b0, %b1, %b2 : i64
    linalg.yield %r0 : i64
  } -> tensor<2xi64>
  %gather_e = tensor.empty() : tensor<2x1xf32>
  %gather = linalg.generic {indexing_maps = [#map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%where : tensor<2xi64>) outs(%gather_e : tensor<2x1xf32>) {
  ^bb0(%b0: i64, %b1: f32):
    %r0 = arith.maxsi %b0, %c2 : i64
    %r1 = arith.minsi %r0, %c8 : i64
    %r2 = arith.index_cast %r1 : i64 to index
    %r3 = linalg.index 0 : index
    %r4 = tensor.extract %sub_6[%r3, %r2] : tensor<2x10xf32>
    linalg.yield %r4 : f32
  } -> tensor<2x1xf32>
  %neg_e = tensor.empty() : tensor<2xf32>
  %neg = linalg.generic {indexing_maps = [#map16, #map14], iterator_types = ["parallel"]} ins(%gather : tensor<2x1xf32>) outs(%neg_e : tensor<2xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.negf %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2xf32>
  %ne_1_e = tensor.empty() : tensor<2xi1>
  %ne_1 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%t : tensor<2xi64>) outs(%ne_1_e : tensor<2xi1>) {
  ^bb0(%b0: i64, %b1: i1):
    %r0 = arith.cmpi ne, %b0, %c7 : i64
    linalg.yield %r0 : i1
  } -> tensor<2xi1>
  %scalar_tensor_1_e = tensor.empty() : tensor<f32>
  %scalar_tensor_1_f = linalg.fill ins(%c0 : f32) outs(%scalar_tensor_1_e : tensor<f32>) -> tensor<f32>
  %where_1_e = tensor.empty() : tensor<2xf32>
  %where_1 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel"]} ins(%ne_1, %neg, %scalar_tensor_1_f : tensor<2xi1>, tensor<2xf32>, tensor<f32>) outs(%where_1_e : tensor<2xf32>) {
  ^bb0(%b0: i1, %b1: f32, %b2: f32, %b3: f32):
    %r0 = arith.select %b0, %b1, %b2 : f32
    linalg.yield %r0 : f32
  } -> tensor<2xf32>
  %ne_2_e = tensor.empty() : tensor<2xi1>
  %ne_2 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%t : tensor<2xi64>) outs(%ne_2_e : tensor<2xi1>) {
  ^bb0(%b0: i64, %b1: i1):
    %r0 = arith.cmpi ne, %b0, %c7 : i64
    linalg.yield %r0 : i1
  } -> tensor<2xi1>
  %sum_2_e = tensor.empty() : tensor<i64>
  %sum_2_f = linalg.fill ins(%c2 : i64) outs(%sum_2_e : tensor<i64>) -> tensor<i64>
  %sum_2 = linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["reduction"]} ins(%ne_2 : tensor<2xi1>) outs(%sum_2_f : tensor<i64>) {
  ^bb0(%b0: i1, %b1: i64):
    %r0 = arith.extui %b0 : i1 to i64
    %r1 = arith.addi %b1, %r0 : i64
    linalg.yield %r1 : i64
  } -> tensor<i64>
  %_to_copy_e = tensor.empty() : tensor<f32>
  %_to_copy = linalg.generic {indexing_maps = [#map17, #map17], iterator_types = []} ins(%sum_2 : tensor<i64>) outs(%_to_copy_e : tensor<f32>) {
  ^bb0(%b0: i64, %b1: f32):
    %r0 = arith.sitofp %b0 : i64 to f32
    linalg.yield %r0 : f32
  } -> tensor<f32>
  %sum_3_e = tensor.empty() : tensor<f32>
  %sum_3_f = linalg.fill ins(%c0 : f32) outs(%sum_3_e : tensor<f32>) -> tensor<f32>
  %sum_3 = linalg.generic {indexing_maps = [#map14, #map15], iterator_types = ["reduction"]} ins(%where_1 : tensor<2xf32>) outs(%sum_3_f : tensor<f32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<f32>
  %div_e = tensor.empty() : tensor<f32>
  %div = linalg.generic {indexing_maps = [#map17, #map17, #map17], iterator_types = []} ins(%sum_3, %_to_copy : tensor<f32>, tensor<f32>) outs(%div_e : tensor<f32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.divf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<f32>
  %ones_like_e = tensor.empty() : tensor<f32>
  %ones_like_f = linalg.fill ins(%c9 : f32) outs(%ones_like_e : tensor<f32>) -> tensor<f32>
  %div_1_e = tensor.empty() : tensor<f32>
  %div_1 = linalg.generic {indexing_maps = [#map17, #map17, #map17], iterator_types = []} ins(%ones_like_f, %_to_copy : tensor<f32>, tensor<f32>) outs(%div_1_e : tensor<f32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.divf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<f32>
  %ne_3_e = tensor.empty() : tensor<2x1xi1>
  %ne_3 = linalg.generic {indexing_maps = [#map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<2xi64>) outs(%ne_3_e : tensor<2x1xi1>) {
  ^bb0(%b0: i64, %b1: i1):
    %r0 = arith.cmpi ne, %b0, %c7 : i64
    linalg.yield %r0 : i1
  } -> tensor<2x1xi1>
  %scalar_tensor_2_e = tensor.empty() : tensor<i64>
  %scalar_tensor_2_f = linalg.fill ins(%c2 : i64) outs(%scalar_tensor_2_e : tensor<i64>) -> tensor<i64>
  %where_2_e = tensor.empty() : tensor<2x1xi64>
  %where_2 = linalg.generic {indexing_maps = [#map10, #map12, #map18, #map10], iterator_types = ["parallel", "parallel"]} ins(%ne_3, %t, %scalar_tensor_2_f : tensor<2x1xi1>, tensor<2xi64>, tensor<i64>) outs(%where_2_e : tensor<2x1xi64>) {
  ^bb0(%b0: i1, %b1: i64, %b2: i64, %b3: i64):
    %r0 = arith.select %b0, %b1, %b2 : i64
    linalg.yield %r0 : i64
  } -> tensor<2x1xi64>
  %zeros_like_e = tensor.empty() : tensor<2x10xf32>
  %zeros_like_f = linalg.fill ins(%c0 : f32) outs(%zeros_like_e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %scatter = linalg.generic {indexing_maps = [#map7, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%where_2 : tensor<2x1xi64>) outs(%zeros_like_f : tensor<2x10xf32>) {
  ^bb0(%b0: i64, %b1: f32):
    %r0 = arith.maxsi %b0, %c2 : i64
    %r1 = arith.minsi %r0, %c8 : i64
    %r2 = arith.index_cast %r1 : i64 to index
    %r3 = linalg.index 1 : index
    %r4 = arith.cmpi eq, %r2, %r3 : index
    %r5 = arith.select %r4, %c10, %b1 : f32
    linalg.yield %r5 : f32
  } -> tensor<2x10xf32>
  %ne_4_e = tensor.empty() : tensor<2x1xi1>
  %ne_4 = linalg.generic {indexing_maps = [#map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<2xi64>) outs(%ne_4_e : tensor<2x1xi1>) {
  ^bb0(%b0: i64, %b1: i1):
    %r0 = arith.cmpi ne, %b0, %c7 : i64
    linalg.yield %r0 : i1
  } -> tensor<2x1xi1>
  %scalar_tensor_3_e = tensor.empty() : tensor<f32>
  %scalar_tensor_3_f = linalg.fill ins(%c0 : f32) outs(%scalar_tensor_3_e : tensor<f32>) -> tensor<f32>
  %where_3_e = tensor.empty() : tensor<2x1xf32>
  %where_3 = linalg.generic {indexing_maps = [#map10, #map18, #map18, #map10], iterator_types = ["parallel", "parallel"]} ins(%ne_4, %div_1, %scalar_tensor_3_f : tensor<2x1xi1>, tensor<f32>, tensor<f32>) outs(%where_3_e : tensor<2x1xf32>) {
  ^bb0(%b0: i1, %b1: f32, %b2: f32, %b3: f32):
    %r0 = arith.select %b0, %b1, %b2 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x1xf32>
  %mul_10_e = tensor.empty() : tensor<2x10xf32>
  %mul_10 = linalg.generic {indexing_maps = [#map10, #map13, #map10], iterator_types = ["parallel", "parallel"]} ins(%scatter, %where_3 : tensor<2x10xf32>, tensor<2x1xf32>) outs(%mul_10_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %exp_1_e = tensor.empty() : tensor<2x10xf32>
  %exp_1 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%sub_6 : tensor<2x10xf32>) outs(%exp_1_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = math.exp %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %sum_4_e = tensor.empty() : tensor<2xf32>
  %sum_4_f = linalg.fill ins(%c0 : f32) outs(%sum_4_e : tensor<2xf32>) -> tensor<2xf32>
  %sum_4 = linalg.generic {indexing_maps = [#map10, #map12], iterator_types = ["parallel", "reduction"]} ins(%mul_10 : tensor<2x10xf32>) outs(%sum_4_f : tensor<2xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<2xf32>
  %mul_11_e = tensor.empty() : tensor<2x10xf32>
  %mul_11 = linalg.generic {indexing_maps = [#map10, #map12, #map10], iterator_types = ["parallel", "parallel"]} ins(%exp_1, %sum_4 : tensor<2x10xf32>, tensor<2xf32>) outs(%mul_11_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %sub_7_e = tensor.empty() : tensor<2x10xf32>
  %sub_7 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%mul_10, %mul_11 : tensor<2x10xf32>, tensor<2x10xf32>) outs(%sub_7_e : tensor<2x10xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x10xf32>
  %mm_e = tensor.empty() : tensor<2x64xf32>
  %mm_f = linalg.fill ins(%c0 : f32) outs(%mm_e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %mm = linalg.matmul ins(%sub_7, %p17 : tensor<2x10xf32>, tensor<10x64xf32>) outs(%mm_f : tensor<2x64xf32>) -> tensor<2x64xf32>
  %mm_1_e = tensor.empty() : tensor<10x64xf32>
  %mm_1_f = linalg.fill ins(%c0 : f32) outs(%mm_1_e : tensor<10x64xf32>) -> tensor<10x64xf32>
  %mm_1 = linalg.generic {indexing_maps = [#map19, #map20, #map9], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sub_7, %view : tensor<2x10xf32>, tensor<2x64xf32>) outs(%mm_1_f : tensor<10x64xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<10x64xf32>
  %sum_5_e = tensor.empty() : tensor<10xf32>
  %sum_5_f = linalg.fill ins(%c0 : f32) outs(%sum_5_e : tensor<10xf32>) -> tensor<10xf32>
  %sum_5 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["reduction", "parallel"]} ins(%sub_7 : tensor<2x10xf32>) outs(%sum_5_f : tensor<10xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<10xf32>
  %view_2 = tensor.expand_shape %mm [[0], [1, 2, 3]] output_shape [2, 16, 2, 2] : tensor<2x64xf32> into tensor<2x16x2x2xf32>
  %avg_pool2d_backward_gpad_e = tensor.empty() : tensor<2x16x5x5xf32>
  %avg_pool2d_backward_gpad_f = linalg.fill ins(%c0 : f32) outs(%avg_pool2d_backward_gpad_e : tensor<2x16x5x5xf32>) -> tensor<2x16x5x5xf32>
  %avg_pool2d_backward_gpad = tensor.insert_slice %view_2 into %avg_pool2d_backward_gpad_f[0, 0, 1, 1] [2, 16, 2, 2] [1, 1, 2, 2] : tensor<2x16x2x2xf32> into tensor<2x16x5x5xf32>
  %avg_pool2d_backward_win_e = tensor.empty() : tensor<2x2xf32>
  %avg_pool2d_backward_e = tensor.empty() : tensor<2x16x4x4xf32>
  %avg_pool2d_backward_f = linalg.fill ins(%c0 : f32) outs(%avg_pool2d_backward_e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %avg_pool2d_backward = linalg.generic {indexing_maps = [#map21, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%avg_pool2d_backward_gpad, %avg_pool2d_backward_win_e : tensor<2x16x5x5xf32>, tensor<2x2xf32>) outs(%avg_pool2d_backward_f : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %c6 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x16x4x4xf32>
  %threshold_backward_e = tensor.empty() : tensor<2x16x4x4xf32>
  %threshold_backward = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%avg_pool2d_backward, %relu_4 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%threshold_backward_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.cmpf ole, %b1, %c0 : f32
    %r1 = arith.select %r0, %c0, %b0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x16x4x4xf32>
  %sum_6_e = tensor.empty() : tensor<16xf32>
  %sum_6_f = linalg.fill ins(%c0 : f32) outs(%sum_6_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_6 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%threshold_backward : tensor<2x16x4x4xf32>) outs(%sum_6_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_8_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_8 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_5, %var_mean_4_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_8_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_12_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_12 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward, %sub_8 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%mul_12_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sum_7_e = tensor.empty() : tensor<16xf32>
  %sum_7_f = linalg.fill ins(%c0 : f32) outs(%sum_7_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_7 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%mul_12 : tensor<2x16x4x4xf32>) outs(%sum_7_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_13_e = tensor.empty() : tensor<16xf32>
  %mul_13 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_6 : tensor<16xf32>) outs(%mul_13_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_14_e = tensor.empty() : tensor<16xf32>
  %mul_14 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_7 : tensor<16xf32>) outs(%mul_14_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_15_e = tensor.empty() : tensor<16xf32>
  %mul_15 = linalg.generic {indexing_maps = [#map22, #map22, #map14], iterator_types = ["parallel"]} ins(%rsqrt_4, %rsqrt_4 : tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) outs(%mul_15_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_16_e = tensor.empty() : tensor<16xf32>
  %mul_16 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel"]} ins(%mul_14, %mul_15 : tensor<16xf32>, tensor<16xf32>) outs(%mul_16_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_17_e = tensor.empty() : tensor<16xf32>
  %mul_17 = linalg.generic {indexing_maps = [#map22, #map14, #map14], iterator_types = ["parallel"]} ins(%rsqrt_4, %p15 : tensor<1x16x1x1xf32>, tensor<16xf32>) outs(%mul_17_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_9_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_9 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_5, %var_mean_4_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_9_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_18_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_18 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_9, %mul_16 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_18_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_10_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_10 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward, %mul_18 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%sub_10_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_11_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_11 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_10, %mul_13 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_11_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_19_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_19 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_11, %mul_17 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_19_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_20_e = tensor.empty() : tensor<16xf32>
  %mul_20 = linalg.generic {indexing_maps = [#map14, #map22, #map14], iterator_types = ["parallel"]} ins(%sum_7, %rsqrt_4 : tensor<16xf32>, tensor<1x16x1x1xf32>) outs(%mul_20_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %convolution_backward_gpad_e = tensor.empty() : tensor<2x16x8x8xf32>
  %convolution_backward_gpad_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_gpad_e : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %convolution_backward_gpad = tensor.insert_slice %mul_19 into %convolution_backward_gpad_f[0, 0, 0, 0] [2, 16, 4, 4] [1, 1, 2, 2] : tensor<2x16x4x4xf32> into tensor<2x16x8x8xf32>
  %convolution_backward_wflip_e = tensor.empty() : tensor<8x16x1x1xf32>
  %convolution_backward_wflip = linalg.generic {indexing_maps = [#map23, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p14 : tensor<16x8x1x1xf32>) outs(%convolution_backward_wflip_e : tensor<8x16x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    linalg.yield %b0 : f32
  } -> tensor<8x16x1x1xf32>
  %convolution_backward_dx_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_backward_dx_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_dx_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_dx = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%convolution_backward_gpad, %convolution_backward_wflip : tensor<2x16x8x8xf32>, tensor<8x16x1x1xf32>) outs(%convolution_backward_dx_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_dw_e = tensor.empty() : tensor<16x8x1x1xf32>
  %convolution_backward_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_dw_e : tensor<16x8x1x1xf32>) -> tensor<16x8x1x1xf32>
  %convolution_backward_dw = linalg.generic {indexing_maps = [#map24, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%relu_2, %mul_19 : tensor<2x8x8x8xf32>, tensor<2x16x4x4xf32>) outs(%convolution_backward_dw_f : tensor<16x8x1x1xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16x8x1x1xf32>
  %sum_8_e = tensor.empty() : tensor<16xf32>
  %sum_8_f = linalg.fill ins(%c0 : f32) outs(%sum_8_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_8 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%threshold_backward : tensor<2x16x4x4xf32>) outs(%sum_8_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_12_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_12 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_4, %var_mean_3_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_12_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_21_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_21 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward, %sub_12 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%mul_21_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sum_9_e = tensor.empty() : tensor<16xf32>
  %sum_9_f = linalg.fill ins(%c0 : f32) outs(%sum_9_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_9 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%mul_21 : tensor<2x16x4x4xf32>) outs(%sum_9_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_22_e = tensor.empty() : tensor<16xf32>
  %mul_22 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_8 : tensor<16xf32>) outs(%mul_22_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_23_e = tensor.empty() : tensor<16xf32>
  %mul_23 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_9 : tensor<16xf32>) outs(%mul_23_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_24_e = tensor.empty() : tensor<16xf32>
  %mul_24 = linalg.generic {indexing_maps = [#map22, #map22, #map14], iterator_types = ["parallel"]} ins(%rsqrt_3, %rsqrt_3 : tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) outs(%mul_24_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_25_e = tensor.empty() : tensor<16xf32>
  %mul_25 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel"]} ins(%mul_23, %mul_24 : tensor<16xf32>, tensor<16xf32>) outs(%mul_25_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_26_e = tensor.empty() : tensor<16xf32>
  %mul_26 = linalg.generic {indexing_maps = [#map22, #map14, #map14], iterator_types = ["parallel"]} ins(%rsqrt_3, %p12 : tensor<1x16x1x1xf32>, tensor<16xf32>) outs(%mul_26_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_13_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_13 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_4, %var_mean_3_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_13_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_27_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_27 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_13, %mul_25 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_27_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_14_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_14 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward, %mul_27 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%sub_14_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_15_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_15 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_14, %mul_22 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_15_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_28_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_28 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_15, %mul_26 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_28_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_29_e = tensor.empty() : tensor<16xf32>
  %mul_29 = linalg.generic {indexing_maps = [#map14, #map22, #map14], iterator_types = ["parallel"]} ins(%sum_9, %rsqrt_3 : tensor<16xf32>, tensor<1x16x1x1xf32>) outs(%mul_29_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %convolution_backward_1_gpad = tensor.pad %mul_28 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x16x4x4xf32> to tensor<2x16x6x6xf32>
  %convolution_backward_1_wflip_e = tensor.empty() : tensor<16x16x3x3xf32>
  %convolution_backward_1_wflip = linalg.generic {indexing_maps = [#map27, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p11 : tensor<16x16x3x3xf32>) outs(%convolution_backward_1_wflip_e : tensor<16x16x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    linalg.yield %b0 : f32
  } -> tensor<16x16x3x3xf32>
  %convolution_backward_1_dx_e = tensor.empty() : tensor<2x16x4x4xf32>
  %convolution_backward_1_dx_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_1_dx_e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %convolution_backward_1_dx = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%convolution_backward_1_gpad, %convolution_backward_1_wflip : tensor<2x16x6x6xf32>, tensor<16x16x3x3xf32>) outs(%convolution_backward_1_dx_f : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %convolution_backward_1_xpad = tensor.pad %relu_3 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x16x4x4xf32> to tensor<2x16x6x6xf32>
  %convolution_backward_1_dw_e = tensor.empty() : tensor<16x16x3x3xf32>
  %convolution_backward_1_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_1_dw_e : tensor<16x16x3x3xf32>) -> tensor<16x16x3x3xf32>
  %convolution_backward_1_dw = linalg.generic {indexing_maps = [#map28, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%convolution_backward_1_xpad, %mul_28 : tensor<2x16x6x6xf32>, tensor<2x16x4x4xf32>) outs(%convolution_backward_1_dw_f : tensor<16x16x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16x16x3x3xf32>
  %threshold_backward_1_e = tensor.empty() : tensor<2x16x4x4xf32>
  %threshold_backward_1 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_backward_1_dx, %relu_3 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%threshold_backward_1_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.cmpf ole, %b1, %c0 : f32
    %r1 = arith.select %r0, %c0, %b0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x16x4x4xf32>
  %sum_10_e = tensor.empty() : tensor<16xf32>
  %sum_10_f = linalg.fill ins(%c0 : f32) outs(%sum_10_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_10 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%threshold_backward_1 : tensor<2x16x4x4xf32>) outs(%sum_10_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_16_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_16 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_3, %var_mean_2_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_16_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_30_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_30 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_1, %sub_16 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%mul_30_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sum_11_e = tensor.empty() : tensor<16xf32>
  %sum_11_f = linalg.fill ins(%c0 : f32) outs(%sum_11_e : tensor<16xf32>) -> tensor<16xf32>
  %sum_11 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%mul_30 : tensor<2x16x4x4xf32>) outs(%sum_11_f : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_31_e = tensor.empty() : tensor<16xf32>
  %mul_31 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_10 : tensor<16xf32>) outs(%mul_31_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_32_e = tensor.empty() : tensor<16xf32>
  %mul_32 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_11 : tensor<16xf32>) outs(%mul_32_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c5 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_33_e = tensor.empty() : tensor<16xf32>
  %mul_33 = linalg.generic {indexing_maps = [#map22, #map22, #map14], iterator_types = ["parallel"]} ins(%rsqrt_2, %rsqrt_2 : tensor<1x16x1x1xf32>, tensor<1x16x1x1xf32>) outs(%mul_33_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_34_e = tensor.empty() : tensor<16xf32>
  %mul_34 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel"]} ins(%mul_32, %mul_33 : tensor<16xf32>, tensor<16xf32>) outs(%mul_34_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %mul_35_e = tensor.empty() : tensor<16xf32>
  %mul_35 = linalg.generic {indexing_maps = [#map22, #map14, #map14], iterator_types = ["parallel"]} ins(%rsqrt_2, %p9 : tensor<1x16x1x1xf32>, tensor<16xf32>) outs(%mul_35_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %sub_17_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_17 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_3, %var_mean_2_mean : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_17_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_36_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_36 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_17, %mul_34 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_36_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_18_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_18 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_1, %mul_36 : tensor<2x16x4x4xf32>, tensor<2x16x4x4xf32>) outs(%sub_18_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %sub_19_e = tensor.empty() : tensor<2x16x4x4xf32>
  %sub_19 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_18, %mul_31 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%sub_19_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_37_e = tensor.empty() : tensor<2x16x4x4xf32>
  %mul_37 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_19, %mul_35 : tensor<2x16x4x4xf32>, tensor<16xf32>) outs(%mul_37_e : tensor<2x16x4x4xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x16x4x4xf32>
  %mul_38_e = tensor.empty() : tensor<16xf32>
  %mul_38 = linalg.generic {indexing_maps = [#map14, #map22, #map14], iterator_types = ["parallel"]} ins(%sum_11, %rsqrt_2 : tensor<16xf32>, tensor<1x16x1x1xf32>) outs(%mul_38_e : tensor<16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<16xf32>
  %convolution_backward_2_gpad_e = tensor.empty() : tensor<2x16x10x10xf32>
  %convolution_backward_2_gpad_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_2_gpad_e : tensor<2x16x10x10xf32>) -> tensor<2x16x10x10xf32>
  %convolution_backward_2_gpad = tensor.insert_slice %mul_37 into %convolution_backward_2_gpad_f[0, 0, 1, 1] [2, 16, 4, 4] [1, 1, 2, 2] : tensor<2x16x4x4xf32> into tensor<2x16x10x10xf32>
  %convolution_backward_2_wflip_e = tensor.empty() : tensor<8x16x3x3xf32>
  %convolution_backward_2_wflip = linalg.generic {indexing_maps = [#map27, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p8 : tensor<16x8x3x3xf32>) outs(%convolution_backward_2_wflip_e : tensor<8x16x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    linalg.yield %b0 : f32
  } -> tensor<8x16x3x3xf32>
  %convolution_backward_2_dx_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_backward_2_dx_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_2_dx_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_2_dx = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%convolution_backward_2_gpad, %convolution_backward_2_wflip : tensor<2x16x10x10xf32>, tensor<8x16x3x3xf32>) outs(%convolution_backward_2_dx_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_2_xpad = tensor.pad %relu_2 low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x9x9xf32>
  %convolution_backward_2_dw_e = tensor.empty() : tensor<16x8x3x3xf32>
  %convolution_backward_2_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_2_dw_e : tensor<16x8x3x3xf32>) -> tensor<16x8x3x3xf32>
  %convolution_backward_2_dw = linalg.generic {indexing_maps = [#map24, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%convolution_backward_2_xpad, %mul_37 : tensor<2x8x9x9xf32>, tensor<2x16x4x4xf32>) outs(%convolution_backward_2_dw_f : tensor<16x8x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<16x8x3x3xf32>
  %add_12_e = tensor.empty() : tensor<2x8x8x8xf32>
  %add_12 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_backward_dx, %convolution_backward_2_dx : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%add_12_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %threshold_backward_2_e = tensor.empty() : tensor<2x8x8x8xf32>
  %threshold_backward_2 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%add_12, %relu_2 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%threshold_backward_2_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.cmpf ole, %b1, %c0 : f32
    %r1 = arith.select %r0, %c0, %b0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x8x8x8xf32>
  %sum_12_e = tensor.empty() : tensor<8xf32>
  %sum_12_f = linalg.fill ins(%c0 : f32) outs(%sum_12_e : tensor<8xf32>) -> tensor<8xf32>
  %sum_12 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%threshold_backward_2 : tensor<2x8x8x8xf32>) outs(%sum_12_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %sub_20_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_20 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_2, %var_mean_1_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_20_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_39_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_39 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_2, %sub_20 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%mul_39_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sum_13_e = tensor.empty() : tensor<8xf32>
  %sum_13_f = linalg.fill ins(%c0 : f32) outs(%sum_13_e : tensor<8xf32>) -> tensor<8xf32>
  %sum_13 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%mul_39 : tensor<2x8x8x8xf32>) outs(%sum_13_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_40_e = tensor.empty() : tensor<8xf32>
  %mul_40 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_12 : tensor<8xf32>) outs(%mul_40_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_41_e = tensor.empty() : tensor<8xf32>
  %mul_41 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_13 : tensor<8xf32>) outs(%mul_41_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_42_e = tensor.empty() : tensor<8xf32>
  %mul_42 = linalg.generic {indexing_maps = [#map22, #map22, #map14], iterator_types = ["parallel"]} ins(%rsqrt_1, %rsqrt_1 : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) outs(%mul_42_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_43_e = tensor.empty() : tensor<8xf32>
  %mul_43 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel"]} ins(%mul_41, %mul_42 : tensor<8xf32>, tensor<8xf32>) outs(%mul_43_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_44_e = tensor.empty() : tensor<8xf32>
  %mul_44 = linalg.generic {indexing_maps = [#map22, #map14, #map14], iterator_types = ["parallel"]} ins(%rsqrt_1, %p6 : tensor<1x8x1x1xf32>, tensor<8xf32>) outs(%mul_44_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %sub_21_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_21 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_2, %var_mean_1_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_21_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_45_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_45 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_21, %mul_43 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_45_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sub_22_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_22 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_2, %mul_45 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%sub_22_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sub_23_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_23 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_22, %mul_40 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_23_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_46_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_46 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_23, %mul_44 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_46_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_47_e = tensor.empty() : tensor<8xf32>
  %mul_47 = linalg.generic {indexing_maps = [#map14, #map22, #map14], iterator_types = ["parallel"]} ins(%sum_13, %rsqrt_1 : tensor<8xf32>, tensor<1x8x1x1xf32>) outs(%mul_47_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %convolution_backward_3_gpad = tensor.pad %mul_46 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_backward_3_wflip_e = tensor.empty() : tensor<8x8x3x3xf32>
  %convolution_backward_3_wflip = linalg.generic {indexing_maps = [#map27, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p5 : tensor<8x8x3x3xf32>) outs(%convolution_backward_3_wflip_e : tensor<8x8x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    linalg.yield %b0 : f32
  } -> tensor<8x8x3x3xf32>
  %convolution_backward_3_dx_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_backward_3_dx_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_3_dx_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_3_dx = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%convolution_backward_3_gpad, %convolution_backward_3_wflip : tensor<2x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%convolution_backward_3_dx_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_3_xpad = tensor.pad %relu_1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_backward_3_dw_e = tensor.empty() : tensor<8x8x3x3xf32>
  %convolution_backward_3_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_3_dw_e : tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
  %convolution_backward_3_dw = linalg.generic {indexing_maps = [#map28, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%convolution_backward_3_xpad, %mul_46 : tensor<2x8x10x10xf32>, tensor<2x8x8x8xf32>) outs(%convolution_backward_3_dw_f : tensor<8x8x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<8x8x3x3xf32>
  %threshold_backward_3_e = tensor.empty() : tensor<2x8x8x8xf32>
  %threshold_backward_3 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_backward_3_dx, %relu_1 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%threshold_backward_3_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.cmpf ole, %b1, %c0 : f32
    %r1 = arith.select %r0, %c0, %b0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x8x8x8xf32>
  %sum_14_e = tensor.empty() : tensor<8xf32>
  %sum_14_f = linalg.fill ins(%c0 : f32) outs(%sum_14_e : tensor<8xf32>) -> tensor<8xf32>
  %sum_14 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%threshold_backward_3 : tensor<2x8x8x8xf32>) outs(%sum_14_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %sub_24_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_24 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_1, %var_mean_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_24_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_48_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_48 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_3, %sub_24 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%mul_48_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sum_15_e = tensor.empty() : tensor<8xf32>
  %sum_15_f = linalg.fill ins(%c0 : f32) outs(%sum_15_e : tensor<8xf32>) -> tensor<8xf32>
  %sum_15 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%mul_48 : tensor<2x8x8x8xf32>) outs(%sum_15_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_49_e = tensor.empty() : tensor<8xf32>
  %mul_49 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_14 : tensor<8xf32>) outs(%mul_49_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_50_e = tensor.empty() : tensor<8xf32>
  %mul_50 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel"]} ins(%sum_15 : tensor<8xf32>) outs(%mul_50_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.mulf %b0, %c3 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_51_e = tensor.empty() : tensor<8xf32>
  %mul_51 = linalg.generic {indexing_maps = [#map22, #map22, #map14], iterator_types = ["parallel"]} ins(%rsqrt, %rsqrt : tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) outs(%mul_51_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_52_e = tensor.empty() : tensor<8xf32>
  %mul_52 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel"]} ins(%mul_50, %mul_51 : tensor<8xf32>, tensor<8xf32>) outs(%mul_52_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %mul_53_e = tensor.empty() : tensor<8xf32>
  %mul_53 = linalg.generic {indexing_maps = [#map22, #map14, #map14], iterator_types = ["parallel"]} ins(%rsqrt, %p3 : tensor<1x8x1x1xf32>, tensor<8xf32>) outs(%mul_53_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %sub_25_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_25 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%convolution_1, %var_mean_mean : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_25_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_54_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_54 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_25, %mul_52 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_54_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sub_26_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_26 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_3, %mul_54 : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%sub_26_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %sub_27_e = tensor.empty() : tensor<2x8x8x8xf32>
  %sub_27 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_26, %mul_49 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%sub_27_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.subf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_55_e = tensor.empty() : tensor<2x8x8x8xf32>
  %mul_55 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sub_27, %mul_53 : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%mul_55_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %mul_56_e = tensor.empty() : tensor<8xf32>
  %mul_56 = linalg.generic {indexing_maps = [#map14, #map22, #map14], iterator_types = ["parallel"]} ins(%sum_15, %rsqrt : tensor<8xf32>, tensor<1x8x1x1xf32>) outs(%mul_56_e : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  %convolution_backward_4_gpad = tensor.pad %mul_55 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_backward_4_wflip_e = tensor.empty() : tensor<8x8x3x3xf32>
  %convolution_backward_4_wflip = linalg.generic {indexing_maps = [#map27, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p2 : tensor<8x8x3x3xf32>) outs(%convolution_backward_4_wflip_e : tensor<8x8x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    linalg.yield %b0 : f32
  } -> tensor<8x8x3x3xf32>
  %convolution_backward_4_dx_e = tensor.empty() : tensor<2x8x8x8xf32>
  %convolution_backward_4_dx_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_4_dx_e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_4_dx = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%convolution_backward_4_gpad, %convolution_backward_4_wflip : tensor<2x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%convolution_backward_4_dx_f : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %convolution_backward_4_xpad = tensor.pad %max_pool2d_with_indices#0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
  %convolution_backward_4_dw_e = tensor.empty() : tensor<8x8x3x3xf32>
  %convolution_backward_4_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_4_dw_e : tensor<8x8x3x3xf32>) -> tensor<8x8x3x3xf32>
  %convolution_backward_4_dw = linalg.generic {indexing_maps = [#map28, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%convolution_backward_4_xpad, %mul_55 : tensor<2x8x10x10xf32>, tensor<2x8x8x8xf32>) outs(%convolution_backward_4_dw_f : tensor<8x8x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<8x8x3x3xf32>
  %add_13_e = tensor.empty() : tensor<2x8x8x8xf32>
  %add_13 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%threshold_backward_2, %convolution_backward_4_dx : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%add_13_e : tensor<2x8x8x8xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.addf %b0, %b1 : f32
    linalg.yield %r0 : f32
  } -> tensor<2x8x8x8xf32>
  %max_pool2d_with_indices_backward_win_e = tensor.empty() : tensor<3x3xf32>
  %max_pool2d_with_indices_backward_e = tensor.empty() : tensor<2x8x16x16xf32>
  %max_pool2d_with_indices_backward_f = linalg.fill ins(%c0 : f32) outs(%max_pool2d_with_indices_backward_e : tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  %max_pool2d_with_indices_backward = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%max_pool2d_with_indices_backward_win_e : tensor<3x3xf32>) outs(%max_pool2d_with_indices_backward_f : tensor<2x8x16x16xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = linalg.index 0 : index
    %r1 = linalg.index 1 : index
    %r2 = linalg.index 2 : index
    %r3 = linalg.index 3 : index
    %r4 = linalg.index 4 : index
    %r5 = linalg.index 5 : index
    %r6 = affine.apply affine_map<(a, b) -> (a + 1 - b * 1)>(%r2, %r4)
    %r7 = arith.cmpi sge, %r6, %c11 : index
    %r8 = arith.divsi %r6, %c12 : index
    %r9 = arith.remsi %r6, %c12 : index
    %r10 = arith.cmpi eq, %r9, %c11 : index
    %r11 = arith.andi %r7, %r10 : i1
    %r12 = arith.cmpi slt, %r8, %c13 : index
    %r13 = arith.andi %r11, %r12 : i1
    %r14 = arith.select %r13, %r8, %c11 : index
    %r15 = affine.apply affine_map<(a, b) -> (a + 1 - b * 1)>(%r3, %r5)
    %r16 = arith.cmpi sge, %r15, %c11 : index
    %r17 = arith.divsi %r15, %c12 : index
    %r18 = arith.remsi %r15, %c12 : index
    %r19 = arith.cmpi eq, %r18, %c11 : index
    %r20 = arith.andi %r16, %r19 : i1
    %r21 = arith.cmpi slt, %r17, %c13 : index
    %r22 = arith.andi %r20, %r21 : i1
    %r23 = arith.select %r22, %r17, %c11 : index
    %r24 = arith.andi %r13, %r22 : i1
    %r25 = tensor.extract %add_13[%r0, %r1, %r14, %r23] : tensor<2x8x8x8xf32>
    %r26 = tensor.extract %max_pool2d_with_indices#1[%r0, %r1, %r14, %r23] : tensor<2x8x8x8xi64>
    %r27 = affine.apply affine_map<(a, b) -> (a * 16 + b)>(%r2, %r3)
    %r28 = arith.index_cast %r27 : index to i64
    %r29 = arith.cmpi eq, %r26, %r28 : i64
    %r30 = arith.andi %r24, %r29 : i1
    %r31 = arith.select %r30, %r25, %c0 : f32
    %r32 = arith.addf %b1, %r31 : f32
    linalg.yield %r32 : f32
  } -> tensor<2x8x16x16xf32>
  %threshold_backward_4_e = tensor.empty() : tensor<2x8x16x16xf32>
  %threshold_backward_4 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%max_pool2d_with_indices_backward, %relu : tensor<2x8x16x16xf32>, tensor<2x8x16x16xf32>) outs(%threshold_backward_4_e : tensor<2x8x16x16xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.cmpf ole, %b1, %c0 : f32
    %r1 = arith.select %r0, %c0, %b0 : f32
    linalg.yield %r1 : f32
  } -> tensor<2x8x16x16xf32>
  %convolution_backward_5_xpad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %c0 : f32
  } : tensor<2x3x16x16xf32> to tensor<2x3x18x18xf32>
  %convolution_backward_5_dw_e = tensor.empty() : tensor<8x3x3x3xf32>
  %convolution_backward_5_dw_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_5_dw_e : tensor<8x3x3x3xf32>) -> tensor<8x3x3x3xf32>
  %convolution_backward_5_dw = linalg.generic {indexing_maps = [#map28, #map25, #map26], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%convolution_backward_5_xpad, %threshold_backward_4 : tensor<2x3x18x18xf32>, tensor<2x8x16x16xf32>) outs(%convolution_backward_5_dw_f : tensor<8x3x3x3xf32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32):
    %r0 = arith.mulf %b0, %b1 : f32
    %r1 = arith.addf %b2, %r0 : f32
    linalg.yield %r1 : f32
  } -> tensor<8x3x3x3xf32>
  %convolution_backward_5_db_e = tensor.empty() : tensor<8xf32>
  %convolution_backward_5_db_f = linalg.fill ins(%c0 : f32) outs(%convolution_backward_5_db_e : tensor<8xf32>) -> tensor<8xf32>
  %convolution_backward_5_db = linalg.generic {indexing_maps = [#map29, #map30], iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%threshold_backward_4 : tensor<2x8x16x16xf32>) outs(%convolution_backward_5_db_f : tensor<8xf32>) {
  ^bb0(%b0: f32, %b1: f32):
    %r0 = arith.addf %b1, %b0 : f32
    linalg.yield %r0 : f32
  } -> tensor<8xf32>
  return %div, %convolution_backward_5_dw, %convolution_backward_5_db, %convolution_backward_4_dw, %mul_56, %sum_14, %convolution_backward_3_dw, %mul_47, %sum_12, %convolution_backward_2_dw, %mul_38, %sum_10, %convolution_backward_1_dw, %mul_29, %sum_8, %convolution_backward_dw, %mul_20, %sum_6, %mm_1, %sum_5 : tensor<f32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x8x1x1xf32>, tensor<16xf32>, tensor<16xf32>, tensor<10x64xf32>, tensor<10xf32>
}
