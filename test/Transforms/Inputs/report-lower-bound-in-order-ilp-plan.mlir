// The step of report-lower-bound-in-order.mlir with the plan CBC proves
// optimal among its program's schedules at 150 B: f0, f1, f0, u0, f1, u1
// (report-lower-bound-in-order-ilp.test). Not a test itself.
ckpt.step @hand(%x: tensor<0xi8>) -> (tensor<1xf32>, tensor<1xf32>) attributes {ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 150, peak = 128, time = 1.0e+01, store_all_peak = 208, store_all_time = 6.0, schedule = [0, 1, 0, 2, 1, 3], lower_bound = 1.0e+01>} {
  %a = ckpt.opaque "f0"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<0xi8>) -> tensor<96xi8>
  %b = ckpt.opaque "f1"(%x) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 3.0>} : (tensor<0xi8>) -> tensor<96xi8>
  %c = ckpt.opaque "u0"(%a) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<96xi8>) -> tensor<1xf32>
  %d = ckpt.opaque "u1"(%b) {ckpt.cost = #ckpt.cost<flops = 0, bytes = 0, time = 1.0>} : (tensor<96xi8>) -> tensor<1xf32>
  ckpt.return %c, %d : tensor<1xf32>, tensor<1xf32> loss(0)
}
