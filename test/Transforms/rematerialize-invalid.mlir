// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-rematerialize

// expected-error @+1 {{the plan's schedule names op #5 but the step has 2 ops: the step changed after it was planned}}
ckpt.step @position_out_of_range(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 5]>} {
  %a = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{the plan's schedule is not valid for this step: op 1 ('tensor.extract_slice') never runs}}
ckpt.step @op_never_runs(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 0]>} {
  %a = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{the plan's schedule is not valid for this step: execution 0 (op 1, 'tensor.extract_slice') reads a value of op 0 before it is computed}}
ckpt.step @read_before_computed(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [1, 0]>} {
  %a = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// A user checkpoint keeps its value: it never runs twice.
// expected-error @+1 {{the plan's schedule is not valid for this step: execution 2 runs op 0 ('ckpt.checkpoint') again, but it cannot be recomputed}}
ckpt.step @not_recomputable(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 1, 0]>} {
  %k = ckpt.checkpoint %x : tensor<4xf32>
  %l = tensor.extract_slice %k[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// Ops with memory effects keep their order.
// expected-error @+1 {{the plan's schedule is not valid for this step: execution 2 runs op 1 ('memref.store') after op 2: ops that cannot be recomputed keep their order}}
ckpt.step @effects_reordered(%x: tensor<4xf32>, %m: memref<4xf32>, %v: f32) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 2, 1, 3]>} {
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<4xf32>
  memref.store %v, %m[%c0] : memref<4xf32>
  %l = tensor.extract_slice %x[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// The frees of a step were placed for its order as written: a plan that
// moves or repeats ops is refused at the first free (ckpt-insert-frees runs
// after the rewrite).
ckpt.step @holds_frees(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 32, peak = 32, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 1, 2, 0, 1]>} {
  %e = math.exp %x : tensor<4xf32>
  %t = math.tanh %e : tensor<4xf32>
  // expected-error @+1 {{cannot rematerialize a step that already holds ckpt.free: its frees were placed for the step as written (run ckpt-insert-frees after ckpt-rematerialize)}}
  ckpt.free %e : tensor<4xf32>
  %l = tensor.extract_slice %t[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l, %t : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// The same step under the identity schedule is left as written, frees
// included (no error).
ckpt.step @holds_frees_identity(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 16, peak = 16, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 1, 2]>} {
  %e = math.exp %x : tensor<4xf32>
  %t = math.tanh %e : tensor<4xf32>
  ckpt.free %e : tensor<4xf32>
  %l = tensor.extract_slice %t[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l, %t : tensor<1xf32>, tensor<4xf32> loss(0)
}

// -----

// expected-error @+1 {{the plan's transfer 0 moves result #3 of op #0, which the step does not have: the step changed after it was planned}}
ckpt.step @transfer_of_a_missing_result(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 1, 2, 3, 4], transfers = [[0, 3, 0, 1, 2]]>} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %d = arith.mulf %c, %a : tensor<4xf32>
  %l = tensor.extract_slice %d[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// a is read by b (execution 1) while the plan has it on the host.
// expected-error @+1 {{the plan's transfers are not valid for this step: transfer 0 (value 0): execution 1 reads it while it is on the host (reloaded after 2)}}
ckpt.step @transfer_read_on_the_host(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      schedule = [0, 1, 2, 3, 4], transfers = [[0, 0, 0, 1, 2]]>} {
  %a = math.exp %x : tensor<4xf32>
  %b = math.sin %a : tensor<4xf32>
  %c = math.cos %b : tensor<4xf32>
  %d = arith.mulf %c, %a : tensor<4xf32>
  %l = tensor.extract_slice %d[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// A plan whose schedule does not fit its own budget was not made for this
// step (or was edited): one 16-byte buffer (4 x f32; the loss is a view of
// it) against 8 bytes.
// expected-error @+1 {{the plan's schedule peaks at 16 B, over the plan's budget of 8 B: the plan was not made for this step (run ckpt-plan again)}}
ckpt.step @schedule_over_its_budget(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 8, peak = 8, time = 1.0, store_all_peak = 16, store_all_time = 1.0,
      schedule = [0, 1]>} {
  %e = math.exp %x : tensor<4xf32>
  %l = tensor.extract_slice %e[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}
