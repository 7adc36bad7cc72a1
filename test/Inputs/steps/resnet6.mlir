// Written by: python -m ckpt.zoo resnet --depth 6 --batch 4 --width 16 --size 16
// zoo: resnet depth=6 batch=4 width=16 size=16: NHWC x[4x16x16x3], stem conv3x3 + relu,
// 6 residual blocks (conv3x3, relu, conv3x3, + identity, relu), global average pool, linear 10,
// mean-squared-error loss. Results: loss, dW0, dWa1, dWb1, ..., dWf
func.func @resnet6_step(%x: tensor<4x16x16x3xf32>, %t: tensor<4x10xf32>, %w0: tensor<3x3x3x16xf32>, %wa1: tensor<3x3x16x16xf32>, %wb1: tensor<3x3x16x16xf32>, %wa2: tensor<3x3x16x16xf32>, %wb2: tensor<3x3x16x16xf32>, %wa3: tensor<3x3x16x16xf32>, %wb3: tensor<3x3x16x16xf32>, %wa4: tensor<3x3x16x16xf32>, %wb4: tensor<3x3x16x16xf32>, %wa5: tensor<3x3x16x16xf32>, %wb5: tensor<3x3x16x16xf32>, %wa6: tensor<3x3x16x16xf32>, %wb6: tensor<3x3x16x16xf32>, %wf: tensor<16x10xf32>)
    -> (tensor<f32>, tensor<3x3x3x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<16x10xf32>)
    attributes {ckpt.loss = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  // Forward.
  %v1 = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x3xf32> to tensor<4x18x18x3xf32>
  %e2 = tensor.empty() : tensor<4x16x16x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v1, %w0 : tensor<4x18x18x3xf32>, tensor<3x3x3x16xf32>)
      outs(%f3 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e5 = tensor.empty() : tensor<4x16x16x16xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v4 : tensor<4x16x16x16xf32>) outs(%e5 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v7 = tensor.pad %v6 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e8 = tensor.empty() : tensor<4x16x16x16xf32>
  %f9 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v10 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v7, %wa1 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f9 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e11 = tensor.empty() : tensor<4x16x16x16xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v10 : tensor<4x16x16x16xf32>) outs(%e11 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v13 = tensor.pad %v12 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e14 = tensor.empty() : tensor<4x16x16x16xf32>
  %f15 = linalg.fill ins(%zero : f32) outs(%e14 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v16 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v13, %wb1 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f15 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e17 = tensor.empty() : tensor<4x16x16x16xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v16, %v6 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e17 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e19 = tensor.empty() : tensor<4x16x16x16xf32>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v18 : tensor<4x16x16x16xf32>) outs(%e19 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v21 = tensor.pad %v20 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e22 = tensor.empty() : tensor<4x16x16x16xf32>
  %f23 = linalg.fill ins(%zero : f32) outs(%e22 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v24 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v21, %wa2 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f23 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e25 = tensor.empty() : tensor<4x16x16x16xf32>
  %v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v24 : tensor<4x16x16x16xf32>) outs(%e25 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v27 = tensor.pad %v26 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e28 = tensor.empty() : tensor<4x16x16x16xf32>
  %f29 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v30 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v27, %wb2 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f29 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e31 = tensor.empty() : tensor<4x16x16x16xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v30, %v20 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e31 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e33 = tensor.empty() : tensor<4x16x16x16xf32>
  %v34 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v32 : tensor<4x16x16x16xf32>) outs(%e33 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v35 = tensor.pad %v34 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e36 = tensor.empty() : tensor<4x16x16x16xf32>
  %f37 = linalg.fill ins(%zero : f32) outs(%e36 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v38 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v35, %wa3 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f37 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e39 = tensor.empty() : tensor<4x16x16x16xf32>
  %v40 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v38 : tensor<4x16x16x16xf32>) outs(%e39 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v41 = tensor.pad %v40 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e42 = tensor.empty() : tensor<4x16x16x16xf32>
  %f43 = linalg.fill ins(%zero : f32) outs(%e42 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v44 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v41, %wb3 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f43 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e45 = tensor.empty() : tensor<4x16x16x16xf32>
  %v46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v44, %v34 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e45 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e47 = tensor.empty() : tensor<4x16x16x16xf32>
  %v48 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v46 : tensor<4x16x16x16xf32>) outs(%e47 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v49 = tensor.pad %v48 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e50 = tensor.empty() : tensor<4x16x16x16xf32>
  %f51 = linalg.fill ins(%zero : f32) outs(%e50 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v52 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v49, %wa4 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f51 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e53 = tensor.empty() : tensor<4x16x16x16xf32>
  %v54 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v52 : tensor<4x16x16x16xf32>) outs(%e53 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v55 = tensor.pad %v54 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e56 = tensor.empty() : tensor<4x16x16x16xf32>
  %f57 = linalg.fill ins(%zero : f32) outs(%e56 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v58 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v55, %wb4 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f57 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e59 = tensor.empty() : tensor<4x16x16x16xf32>
  %v60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v58, %v48 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e59 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e61 = tensor.empty() : tensor<4x16x16x16xf32>
  %v62 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v60 : tensor<4x16x16x16xf32>) outs(%e61 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v63 = tensor.pad %v62 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e64 = tensor.empty() : tensor<4x16x16x16xf32>
  %f65 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v66 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v63, %wa5 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f65 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e67 = tensor.empty() : tensor<4x16x16x16xf32>
  %v68 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v66 : tensor<4x16x16x16xf32>) outs(%e67 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v69 = tensor.pad %v68 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e70 = tensor.empty() : tensor<4x16x16x16xf32>
  %f71 = linalg.fill ins(%zero : f32) outs(%e70 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v72 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v69, %wb5 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f71 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e73 = tensor.empty() : tensor<4x16x16x16xf32>
  %v74 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v72, %v62 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e73 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e75 = tensor.empty() : tensor<4x16x16x16xf32>
  %v76 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v74 : tensor<4x16x16x16xf32>) outs(%e75 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v77 = tensor.pad %v76 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e78 = tensor.empty() : tensor<4x16x16x16xf32>
  %f79 = linalg.fill ins(%zero : f32) outs(%e78 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v80 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v77, %wa6 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f79 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e81 = tensor.empty() : tensor<4x16x16x16xf32>
  %v82 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v80 : tensor<4x16x16x16xf32>) outs(%e81 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %v83 = tensor.pad %v82 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e84 = tensor.empty() : tensor<4x16x16x16xf32>
  %f85 = linalg.fill ins(%zero : f32) outs(%e84 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %v86 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v83, %wb6 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f85 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e87 = tensor.empty() : tensor<4x16x16x16xf32>
  %v88 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v86, %v76 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e87 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e89 = tensor.empty() : tensor<4x16x16x16xf32>
  %v90 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v88 : tensor<4x16x16x16xf32>) outs(%e89 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.maximumf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e91 = tensor.empty() : tensor<4x16xf32>
  %f92 = linalg.fill ins(%zero : f32) outs(%e91 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %v93 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v90 : tensor<4x16x16x16xf32>) outs(%f92 : tensor<4x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.00390625 : f32
    %m = arith.mulf %a0, %s : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e94 = tensor.empty() : tensor<4x10xf32>
  %f95 = linalg.fill ins(%zero : f32) outs(%e94 : tensor<4x10xf32>) -> tensor<4x10xf32>
  %v96 = linalg.matmul ins(%v93, %wf : tensor<4x16xf32>, tensor<16x10xf32>)
      outs(%f95 : tensor<4x10xf32>) -> tensor<4x10xf32>
  %e97 = tensor.empty() : tensor<4x10xf32>
  %v98 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v96, %t : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e97 : tensor<4x10xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.subf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x10xf32>
  %e99 = tensor.empty() : tensor<f32>
  %f100 = linalg.fill ins(%zero : f32) outs(%e99 : tensor<f32>) -> tensor<f32>
  %v101 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%v98 : tensor<4x10xf32>) outs(%f100 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %q = arith.mulf %a0, %a0 : f32
    %y = arith.addf %acc, %q : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e102 = tensor.empty() : tensor<f32>
  %v103 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%v101 : tensor<f32>) outs(%e102 : tensor<f32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.025 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  // Backward.
  %e104 = tensor.empty() : tensor<4x10xf32>
  %g105 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v98 : tensor<4x10xf32>) outs(%e104 : tensor<4x10xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.05 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x10xf32>
  %e106 = tensor.empty() : tensor<4x16xf32>
  %f107 = linalg.fill ins(%zero : f32) outs(%e106 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g108 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g105, %wf : tensor<4x10xf32>, tensor<16x10xf32>) outs(%f107 : tensor<4x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e109 = tensor.empty() : tensor<16x10xf32>
  %f110 = linalg.fill ins(%zero : f32) outs(%e109 : tensor<16x10xf32>) -> tensor<16x10xf32>
  %g111 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v93, %g105 : tensor<4x16xf32>, tensor<4x10xf32>) outs(%f110 : tensor<16x10xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16x10xf32>
  %e112 = tensor.empty() : tensor<4x16x16x16xf32>
  %g113 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g108 : tensor<4x16xf32>) outs(%e112 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %s = arith.constant 0.00390625 : f32
    %y = arith.mulf %a0, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e114 = tensor.empty() : tensor<4x16x16x16xf32>
  %g115 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g113, %v88 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e114 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e116 = tensor.empty() : tensor<3x3x16x16xf32>
  %f117 = linalg.fill ins(%zero : f32) outs(%e116 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g118 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v83, %g115 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f117 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v119 = tensor.pad %g115 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e120 = tensor.empty() : tensor<3x3x16x16xf32>
  %g121 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb6 : tensor<3x3x16x16xf32>) outs(%e120 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e122 = tensor.empty() : tensor<4x16x16x16xf32>
  %f123 = linalg.fill ins(%zero : f32) outs(%e122 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g124 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v119, %g121 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f123 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e125 = tensor.empty() : tensor<4x16x16x16xf32>
  %g126 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g124, %v80 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e125 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e127 = tensor.empty() : tensor<3x3x16x16xf32>
  %f128 = linalg.fill ins(%zero : f32) outs(%e127 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g129 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v77, %g126 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f128 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v130 = tensor.pad %g126 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e131 = tensor.empty() : tensor<3x3x16x16xf32>
  %g132 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa6 : tensor<3x3x16x16xf32>) outs(%e131 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e133 = tensor.empty() : tensor<4x16x16x16xf32>
  %f134 = linalg.fill ins(%zero : f32) outs(%e133 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g135 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v130, %g132 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f134 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e136 = tensor.empty() : tensor<4x16x16x16xf32>
  %g137 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g115, %g135 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e136 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e138 = tensor.empty() : tensor<4x16x16x16xf32>
  %g139 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g137, %v74 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e138 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e140 = tensor.empty() : tensor<3x3x16x16xf32>
  %f141 = linalg.fill ins(%zero : f32) outs(%e140 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g142 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v69, %g139 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f141 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v143 = tensor.pad %g139 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e144 = tensor.empty() : tensor<3x3x16x16xf32>
  %g145 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb5 : tensor<3x3x16x16xf32>) outs(%e144 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e146 = tensor.empty() : tensor<4x16x16x16xf32>
  %f147 = linalg.fill ins(%zero : f32) outs(%e146 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g148 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v143, %g145 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f147 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e149 = tensor.empty() : tensor<4x16x16x16xf32>
  %g150 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g148, %v66 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e149 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e151 = tensor.empty() : tensor<3x3x16x16xf32>
  %f152 = linalg.fill ins(%zero : f32) outs(%e151 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g153 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v63, %g150 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f152 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v154 = tensor.pad %g150 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e155 = tensor.empty() : tensor<3x3x16x16xf32>
  %g156 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa5 : tensor<3x3x16x16xf32>) outs(%e155 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e157 = tensor.empty() : tensor<4x16x16x16xf32>
  %f158 = linalg.fill ins(%zero : f32) outs(%e157 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g159 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v154, %g156 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f158 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e160 = tensor.empty() : tensor<4x16x16x16xf32>
  %g161 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g139, %g159 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e160 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e162 = tensor.empty() : tensor<4x16x16x16xf32>
  %g163 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g161, %v60 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e162 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e164 = tensor.empty() : tensor<3x3x16x16xf32>
  %f165 = linalg.fill ins(%zero : f32) outs(%e164 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g166 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v55, %g163 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f165 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v167 = tensor.pad %g163 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e168 = tensor.empty() : tensor<3x3x16x16xf32>
  %g169 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb4 : tensor<3x3x16x16xf32>) outs(%e168 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e170 = tensor.empty() : tensor<4x16x16x16xf32>
  %f171 = linalg.fill ins(%zero : f32) outs(%e170 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g172 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v167, %g169 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f171 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e173 = tensor.empty() : tensor<4x16x16x16xf32>
  %g174 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g172, %v52 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e173 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e175 = tensor.empty() : tensor<3x3x16x16xf32>
  %f176 = linalg.fill ins(%zero : f32) outs(%e175 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g177 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v49, %g174 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f176 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v178 = tensor.pad %g174 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e179 = tensor.empty() : tensor<3x3x16x16xf32>
  %g180 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa4 : tensor<3x3x16x16xf32>) outs(%e179 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e181 = tensor.empty() : tensor<4x16x16x16xf32>
  %f182 = linalg.fill ins(%zero : f32) outs(%e181 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g183 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v178, %g180 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f182 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e184 = tensor.empty() : tensor<4x16x16x16xf32>
  %g185 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g163, %g183 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e184 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e186 = tensor.empty() : tensor<4x16x16x16xf32>
  %g187 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g185, %v46 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e186 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e188 = tensor.empty() : tensor<3x3x16x16xf32>
  %f189 = linalg.fill ins(%zero : f32) outs(%e188 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g190 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v41, %g187 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f189 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v191 = tensor.pad %g187 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e192 = tensor.empty() : tensor<3x3x16x16xf32>
  %g193 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb3 : tensor<3x3x16x16xf32>) outs(%e192 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e194 = tensor.empty() : tensor<4x16x16x16xf32>
  %f195 = linalg.fill ins(%zero : f32) outs(%e194 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g196 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v191, %g193 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f195 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e197 = tensor.empty() : tensor<4x16x16x16xf32>
  %g198 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g196, %v38 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e197 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e199 = tensor.empty() : tensor<3x3x16x16xf32>
  %f200 = linalg.fill ins(%zero : f32) outs(%e199 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g201 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v35, %g198 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f200 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v202 = tensor.pad %g198 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e203 = tensor.empty() : tensor<3x3x16x16xf32>
  %g204 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa3 : tensor<3x3x16x16xf32>) outs(%e203 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e205 = tensor.empty() : tensor<4x16x16x16xf32>
  %f206 = linalg.fill ins(%zero : f32) outs(%e205 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g207 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v202, %g204 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f206 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e208 = tensor.empty() : tensor<4x16x16x16xf32>
  %g209 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g187, %g207 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e208 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e210 = tensor.empty() : tensor<4x16x16x16xf32>
  %g211 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g209, %v32 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e210 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e212 = tensor.empty() : tensor<3x3x16x16xf32>
  %f213 = linalg.fill ins(%zero : f32) outs(%e212 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g214 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v27, %g211 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f213 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v215 = tensor.pad %g211 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e216 = tensor.empty() : tensor<3x3x16x16xf32>
  %g217 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb2 : tensor<3x3x16x16xf32>) outs(%e216 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e218 = tensor.empty() : tensor<4x16x16x16xf32>
  %f219 = linalg.fill ins(%zero : f32) outs(%e218 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g220 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v215, %g217 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f219 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e221 = tensor.empty() : tensor<4x16x16x16xf32>
  %g222 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g220, %v24 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e221 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e223 = tensor.empty() : tensor<3x3x16x16xf32>
  %f224 = linalg.fill ins(%zero : f32) outs(%e223 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g225 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v21, %g222 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f224 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v226 = tensor.pad %g222 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e227 = tensor.empty() : tensor<3x3x16x16xf32>
  %g228 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa2 : tensor<3x3x16x16xf32>) outs(%e227 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e229 = tensor.empty() : tensor<4x16x16x16xf32>
  %f230 = linalg.fill ins(%zero : f32) outs(%e229 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g231 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v226, %g228 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f230 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e232 = tensor.empty() : tensor<4x16x16x16xf32>
  %g233 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g211, %g231 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e232 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e234 = tensor.empty() : tensor<4x16x16x16xf32>
  %g235 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g233, %v18 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e234 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e236 = tensor.empty() : tensor<3x3x16x16xf32>
  %f237 = linalg.fill ins(%zero : f32) outs(%e236 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g238 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v13, %g235 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f237 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v239 = tensor.pad %g235 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e240 = tensor.empty() : tensor<3x3x16x16xf32>
  %g241 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wb1 : tensor<3x3x16x16xf32>) outs(%e240 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e242 = tensor.empty() : tensor<4x16x16x16xf32>
  %f243 = linalg.fill ins(%zero : f32) outs(%e242 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g244 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v239, %g241 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f243 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e245 = tensor.empty() : tensor<4x16x16x16xf32>
  %g246 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g244, %v10 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e245 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e247 = tensor.empty() : tensor<3x3x16x16xf32>
  %f248 = linalg.fill ins(%zero : f32) outs(%e247 : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %g249 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v7, %g246 : tensor<4x18x18x16xf32>, tensor<4x16x16x16xf32>) outs(%f248 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %v250 = tensor.pad %g246 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<4x16x16x16xf32> to tensor<4x18x18x16xf32>
  %e251 = tensor.empty() : tensor<3x3x16x16xf32>
  %g252 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%wa1 : tensor<3x3x16x16xf32>) outs(%e251 : tensor<3x3x16x16xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %y = arith.addf %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x3x16x16xf32>
  %e253 = tensor.empty() : tensor<4x16x16x16xf32>
  %f254 = linalg.fill ins(%zero : f32) outs(%e253 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %g255 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%v250, %g252 : tensor<4x18x18x16xf32>, tensor<3x3x16x16xf32>)
      outs(%f254 : tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
  %e256 = tensor.empty() : tensor<4x16x16x16xf32>
  %g257 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g235, %g255 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e256 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e258 = tensor.empty() : tensor<4x16x16x16xf32>
  %g259 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g257, %v4 : tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) outs(%e258 : tensor<4x16x16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.cmpf ogt, %a1, %zero : f32
    %y = arith.select %p, %a0, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16x16x16xf32>
  %e260 = tensor.empty() : tensor<3x3x3x16xf32>
  %f261 = linalg.fill ins(%zero : f32) outs(%e260 : tensor<3x3x3x16xf32>) -> tensor<3x3x3x16xf32>
  %g262 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0, d6 + d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%v1, %g259 : tensor<4x18x18x3xf32>, tensor<4x16x16x16xf32>) outs(%f261 : tensor<3x3x3x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %m = arith.mulf %a0, %a1 : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x3x3x16xf32>
  return %v103, %g262, %g249, %g238, %g225, %g214, %g201, %g190, %g177, %g166, %g153, %g142, %g129, %g118, %g111 : tensor<f32>, tensor<3x3x3x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<3x3x16x16xf32>, tensor<16x10xf32>
}
