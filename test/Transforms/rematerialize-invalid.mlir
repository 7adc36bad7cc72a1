// RUN: ckpt-opt %s -split-input-file -verify-diagnostics --ckpt-rematerialize

// expected-error @+1 {{malformed plan sequence: 'Fx1'}}
ckpt.step @bad_word(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 4>],
      sequence = "Fx1 B1">} {
  %l = tensor.extract_slice %x[0] [1] [1] {ckpt.stage = 1 : i64} : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{malformed plan sequence: 'B2'}}
ckpt.step @stage_out_of_plan(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 4>],
      sequence = "Fall1 B2">} {
  %l = tensor.extract_slice %x[0] [1] [1] {ckpt.stage = 1 : i64} : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{the plan sequence must start with a forward sweep over stages 1 to 2}}
ckpt.step @no_sweep(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 16>,
                <index = 2, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 16, saved_bytes = 4>],
      sequence = "Fall2 Fall1 B2 B1">} {
  %a = math.exp %x {ckpt.stage = 1 : i64} : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] {ckpt.stage = 2 : i64} : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{the plan sequence must start with a forward sweep over stages 1 to 2}}
ckpt.step @short_sweep(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 16>,
                <index = 2, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 16, saved_bytes = 4>],
      sequence = "Fall1 B1">} {
  %a = math.exp %x {ckpt.stage = 1 : i64} : tensor<4xf32>
  %l = tensor.extract_slice %a[0] [1] [1] {ckpt.stage = 2 : i64} : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

ckpt.step @stage_out_of_range(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 4>],
      sequence = "Fall1 B1">} {
  // expected-error @+1 {{stage index 3 is out of range: the plan has 1 stages}}
  %l = tensor.extract_slice %x[0] [1] [1] {ckpt.stage = 3 : i64} : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

ckpt.step @stage_not_recomputable(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [<index = 1, kind = "all", ops = 1, forward = 1.0, backward = 0.0, input_bytes = 0, saved_bytes = 4>],
      sequence = "Fall1 B1">} {
  // expected-error @+1 {{op is in stage 1 but cannot be recomputed}}
  %k = ckpt.checkpoint %x {ckpt.stage = 1 : i64} : tensor<4xf32>
  %l = tensor.extract_slice %k[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}

// -----

ckpt.step @empty_plan(%x: tensor<4xf32>) -> tensor<1xf32> attributes {
    // expected-error @-1 {{the plan has no stages}}
    ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 1.0, store_all_peak = 1, store_all_time = 1.0,
      stages = [], sequence = "">} {
  %l = tensor.extract_slice %x[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
  ckpt.return %l : tensor<1xf32> loss(0)
}
