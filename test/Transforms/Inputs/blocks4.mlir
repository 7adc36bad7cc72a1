// A stem x0 = cos(x), then four identical blocks a_i = exp(x_(i-1)),
// x_i = sin(a_i) (1 KiB each, time 1), the loss a slice of x4 (a view: x4
// lives to the end), and the backward g4 .. g0 (time 2 each), g_i reading
// a_i (g0: x0). Positions: x0 0, a1 1, x1 2, a2 3, x2 4, a3 5, x3 6, a4 7,
// x4 8, l 9, g4 10, g3 11, g2 12, g1 13, g0 14. Store-all time 20.
ckpt.step @blocks4(%x: tensor<256xf32>) -> (tensor<1xf32>, tensor<256xf32>) {
  %x0 = math.cos %x {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %a1 = math.exp %x0 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %x1 = math.sin %a1 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %a2 = math.exp %x1 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %x2 = math.sin %a2 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %a3 = math.exp %x2 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %x3 = math.sin %a3 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %a4 = math.exp %x3 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %x4 = math.sin %a4 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32>
  %l = tensor.extract_slice %x4[0] [1] [1] {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : tensor<256xf32> to tensor<1xf32>
  %g4 = arith.mulf %x4, %a4 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<256xf32>
  %g3 = arith.mulf %g4, %a3 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<256xf32>
  %g2 = arith.mulf %g3, %a2 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<256xf32>
  %g1 = arith.mulf %g2, %a1 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<256xf32>
  %g0 = arith.mulf %g1, %x0 {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 2.0>} : tensor<256xf32>
  ckpt.return %l, %g0 : tensor<1xf32>, tensor<256xf32> loss(0)
}
