// RUN: ckpt-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// One expected error per invariant of the ckpt dialect.

//===----------------------------------------------------------------------===//
// ckpt.step
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'ckpt.step' op expects a body: a training step cannot be a declaration}}
ckpt.step @declaration(f32) -> f32

// -----

// expected-error @+1 {{'ckpt.step' op expects a body of exactly one block, found 2}}
ckpt.step @two_blocks(%x: f32) -> f32 {
  cf.br ^next
^next:
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+1 {{'ckpt.step' op expects at least one result: the loss}}
ckpt.step @no_result(%x: f32) -> () {
  ckpt.return loss(0)
}

// -----

// expected-error @+1 {{'ckpt.step' op expects its block to end with 'ckpt.return'}}
ckpt.step @other_terminator(%x: f32) -> f32 {
  "foreign.terminator"(%x) : (f32) -> ()
}

// -----

// expected-error @+1 {{entry block must have 1 arguments to match function signature}}
ckpt.step @entry_block_mismatch(f32) -> f32 {
^bb0:
  %c = arith.constant 1.0 : f32
  ckpt.return %c : f32 loss(0)
}

//===----------------------------------------------------------------------===//
// ckpt.return
//===----------------------------------------------------------------------===//

// -----

ckpt.step @wrong_count(%x: f32) -> (f32, f32) {
  // expected-error @+1 {{'ckpt.return' op returns 1 values, but the enclosing step has 2 results}}
  ckpt.return %x : f32 loss(0)
}

// -----

ckpt.step @wrong_type(%x: f64) -> f32 {
  // expected-error @+1 {{'ckpt.return' op type of operand #0 ('f64') does not match the step's result type ('f32')}}
  ckpt.return %x : f64 loss(0)
}

// -----

ckpt.step @loss_out_of_range(%x: f32, %y: f32) -> (f32, f32) {
  // expected-error @+1 {{'ckpt.return' op loss index 2 is out of range: the step returns 2 values}}
  ckpt.return %x, %y : f32, f32 loss(2)
}

// -----

ckpt.step @loss_negative(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.return' op attribute 'loss' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  ckpt.return %x : f32 loss(-1)
}

// -----

ckpt.step @loss_not_scalar(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.return' op the loss (operand #0) must be a float scalar or a float tensor of one element, got 'tensor<4xf32>'}}
  ckpt.return %x : tensor<4xf32> loss(0)
}

// -----

ckpt.step @loss_integer(%x: i32) -> i32 {
  // expected-error @+1 {{'ckpt.return' op the loss (operand #0) must be a float scalar or a float tensor of one element, got 'i32'}}
  ckpt.return %x : i32 loss(0)
}

// -----

ckpt.step @loss_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ckpt.return' op the loss (operand #0) must be a float scalar or a float tensor of one element, got 'tensor<?xf32>'}}
  ckpt.return %x : tensor<?xf32> loss(0)
}

// -----

func.func @return_outside_step(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.return' op expects parent op 'ckpt.step'}}
  ckpt.return %x : f32 loss(0)
}

//===----------------------------------------------------------------------===//
// ckpt.checkpoint
//===----------------------------------------------------------------------===//

// -----

func.func @checkpoint_changes_type(%x: f32) -> f64 {
  // expected-error @+1 {{'ckpt.checkpoint' op requires the same type for all operands and results}}
  %c = "ckpt.checkpoint"(%x) : (f32) -> f64
  return %c : f64
}

//===----------------------------------------------------------------------===//
// ckpt.recompute / ckpt.yield
//===----------------------------------------------------------------------===//

// -----

func.func @recompute_missing_argument(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.recompute' op region has 0 arguments, but the op has 1 inputs}}
  %r = ckpt.recompute (%x) : (f32) -> f32 {
    %c = arith.constant 1.0 : f32
    ckpt.yield %c : f32
  }
  return %r : f32
}

// -----

func.func @recompute_argument_type(%x: f32) -> f64 {
  // expected-error @+1 {{'ckpt.recompute' op region argument #0 has type 'f64', but input #0 has type 'f32'}}
  %r = ckpt.recompute (%x) : (f32) -> f64 {
  ^bb0(%a: f64):
    ckpt.yield %a : f64
  }
  return %r : f64
}

// -----

func.func @recompute_no_yield(%x: f32) {
  // expected-error @+1 {{'ckpt.recompute' op expects its region to end with 'ckpt.yield'}}
  ckpt.recompute (%x) : (f32) -> () {
  ^bb0(%a: f32):
    "foreign.terminator"() : () -> ()
  }
  return
}

// -----

func.func @recompute_yield_count(%x: f32) -> (f32, f32) {
  // expected-error @+1 {{'ckpt.recompute' op region yields 1 values, but the op has 2 results}}
  %r:2 = ckpt.recompute (%x) : (f32) -> (f32, f32) {
  ^bb0(%a: f32):
    ckpt.yield %a : f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

func.func @recompute_yield_type(%x: f32) -> f64 {
  // expected-error @+1 {{'ckpt.recompute' op yielded value #0 has type 'f32', but result #0 has type 'f64'}}
  %r = ckpt.recompute (%x) : (f32) -> f64 {
  ^bb0(%a: f32):
    ckpt.yield %a : f32
  }
  return %r : f64
}

// -----

func.func @recompute_side_effect(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.recompute' op may only hold side-effect-free ops, but the region holds 'memref.alloc'}}
  %r = ckpt.recompute (%x) : (f32) -> f32 {
  ^bb0(%a: f32):
    // expected-note @+1 {{op with side effects is here}}
    %m = memref.alloc() : memref<4xf32>
    ckpt.yield %a : f32
  }
  return %r : f32
}

// -----

func.func @recompute_unknown_op(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.recompute' op may only hold side-effect-free ops, but the region holds 'foreign.op'}}
  %r = ckpt.recompute (%x) : (f32) -> f32 {
  ^bb0(%a: f32):
    // expected-note @+1 {{op with side effects is here}}
    %b = "foreign.op"(%a) : (f32) -> f32
    ckpt.yield %b : f32
  }
  return %r : f32
}

// -----

func.func @recompute_captures(%x: f32) -> f32 {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = ckpt.recompute () : () -> f32 {
    // expected-error @+1 {{'arith.negf' op using value defined outside the region}}
    %n = arith.negf %x : f32
    ckpt.yield %n : f32
  }
  return %r : f32
}

// -----

func.func @yield_outside_recompute(%x: f32) {
  // expected-error @+1 {{'ckpt.yield' op expects parent op 'ckpt.recompute'}}
  ckpt.yield %x : f32
}

//===----------------------------------------------------------------------===//
// ckpt.free
//===----------------------------------------------------------------------===//

// -----

ckpt.step @free_argument(%x: tensor<4xf32>, %l: f32) -> f32 {
  // expected-error @+1 {{'ckpt.free' op cannot free a block argument: only values computed in this block can be freed (step inputs belong to the caller)}}
  ckpt.free %x : tensor<4xf32>
  ckpt.return %l : f32 loss(0)
}

// -----

ckpt.step @free_other_block(%x: tensor<4xf32>, %l: f32) -> f32 {
  %e = math.exp %x : tensor<4xf32>
  scf.execute_region {
    // expected-error @+1 {{'ckpt.free' op frees a value defined in another block}}
    ckpt.free %e : tensor<4xf32>
    scf.yield
  }
  ckpt.return %l : f32 loss(0)
}

// -----

ckpt.step @use_after_free(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.free' op frees a value that is used after it is freed}}
  ckpt.free %e : tensor<4xf32>
  // expected-note @+1 {{later use is here}}
  %s = math.sin %e : tensor<4xf32>
  ckpt.return %l, %s : f32, tensor<4xf32> loss(0)
}

// -----

ckpt.step @use_after_free_nested(%x: tensor<4xf32>, %l: f32) -> (f32, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.free' op frees a value that is used after it is freed}}
  ckpt.free %e : tensor<4xf32>
  %r = scf.execute_region -> tensor<4xf32> {
    // expected-note @+1 {{later use is here}}
    %s = math.sin %e : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  ckpt.return %l, %r : f32, tensor<4xf32> loss(0)
}

// -----

ckpt.step @double_free(%x: tensor<4xf32>, %l: f32) -> f32 {
  %e = math.exp %x : tensor<4xf32>
  // expected-error @+1 {{'ckpt.free' op frees a value that is used after it is freed}}
  ckpt.free %e : tensor<4xf32>
  // expected-note @+1 {{later use is here}}
  ckpt.free %e : tensor<4xf32>
  ckpt.return %l : f32 loss(0)
}

// -----

ckpt.step @free_scalar(%x: f32) -> f32 {
  %y = arith.negf %x : f32
  // expected-error @+1 {{'ckpt.free' op operand #0 must be shaped of any type values, but got 'f32'}}
  "ckpt.free"(%y) : (f32) -> ()
  ckpt.return %x : f32 loss(0)
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// -----

func.func @cost_negative_time(%x: f32) -> f32 {
  // expected-error @+1 {{cost time must be a finite, non-negative number of seconds, got -1.000000e+00}}
  %y = arith.negf %x {ckpt.cost = #ckpt.cost<flops = 1, bytes = 8, time = -1.0>} : f32
  return %y : f32
}

// -----

func.func @cost_not_a_cost(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.cost' must be a #ckpt.cost attribute, got 1 : i64}}
  %y = arith.negf %x {ckpt.cost = 1 : i64} : f32
  return %y : f32
}

// -----

func.func @unknown_attribute(%x: f32) -> f32 {
  // expected-error @+1 {{unknown ckpt dialect attribute 'ckpt.costs'}}
  %y = arith.negf %x {ckpt.costs = 1 : i64} : f32
  return %y : f32
}

// -----

func.func @loss_on_op(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.loss' may only be attached to a function}}
  %y = arith.negf %x {ckpt.loss = 0 : i64} : f32
  return %y : f32
}

// -----

// expected-error @+1 {{'ckpt.loss' must be an integer result index, got "first"}}
func.func @loss_not_integer(%x: f32) -> f32 attributes {ckpt.loss = "first"} {
  return %x : f32
}

// -----

// expected-error @+1 {{'ckpt.loss' = 3 is out of range: the function has 1 results}}
func.func @loss_attr_out_of_range(%x: f32) -> f32 attributes {ckpt.loss = 3 : i64} {
  return %x : f32
}

// -----

// expected-error @+1 {{'ckpt.loss' = -1 is out of range: the function has 1 results}}
func.func @loss_attr_negative(%x: f32) -> f32 attributes {ckpt.loss = -1 : i64} {
  return %x : f32
}

// -----

// expected-error @+1 {{'ckpt.plan' must be a #ckpt.plan attribute, got "fast"}}
ckpt.step @plan_not_a_plan(%x: f32) -> f32 attributes {ckpt.plan = "fast"} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+1 {{'ckpt.plan' may only be attached to a ckpt.step}}
func.func @plan_on_func(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = []>} {
  return %x : f32
}

// -----

func.func @unknown_stage_attribute(%x: f32) -> f32 {
  // expected-error @+1 {{unknown ckpt dialect attribute 'ckpt.stage'}}
  %y = arith.negf %x {ckpt.stage = 1 : i64} : f32
  return %y : f32
}

// -----

// expected-error @+2 {{schedule positions must be non-negative, got -1}}
ckpt.step @plan_negative_position(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, -1]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{plan times must be finite and non-negative}}
ckpt.step @plan_negative_time(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = -1.0, store_all_peak = 1, store_all_time = 0, schedule = []>} {
  ckpt.return %x : f32 loss(0)
}

// -----

ckpt.step @plan_unknown_device(%x: f32) -> f32 attributes {
  // expected-error @+2 {{unknown plan device 'tpu': expected h100, a100, v100, cpu, gh200}}
  // expected-error @+1 {{failed to parse Ckpt_PlanAttr parameter 'device' which is to be a `::ckpt::Device`}}
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [], device = tpu>} {
  ckpt.return %x : f32 loss(0)
}

// -----

ckpt.step @plan_unknown_device_string(%x: f32) -> f32 attributes {
  // expected-error @+2 {{unknown plan device 'tpu': expected h100, a100, v100, cpu, gh200}}
  // expected-error @+1 {{failed to parse Ckpt_PlanAttr parameter 'device' which is to be a `::ckpt::Device`}}
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [], device = "tpu">} {
  ckpt.return %x : f32 loss(0)
}

// -----

ckpt.step @plan_device_not_a_name(%x: f32) -> f32 attributes {
  // expected-error @+2 {{expected a device name}}
  // expected-error @+1 {{failed to parse Ckpt_PlanAttr parameter 'device' which is to be a `::ckpt::Device`}}
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [], device = 3>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{plan times must be finite and non-negative}}
ckpt.step @plan_negative_lower_bound(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "ilp", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [], lower_bound = -2.0>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+3 {{expected integer value}}
// expected-error @+2 {{failed to parse Ckpt_PlanAttr parameter 'schedule'}}
ckpt.step @plan_schedule_not_integers(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [a]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+1 {{'ckpt.range' of argument #0 must be array<i64: LO, HI> with LO < HI (the valid values [LO, HI)), got array<i64: 5, 5>}}
func.func @empty_range(%ids: tensor<4xi64> {ckpt.range = array<i64: 5, 5>}) -> tensor<4xi64> {
  return %ids : tensor<4xi64>
}

// -----

// expected-error @+1 {{'ckpt.range' of argument #0 must be array<i64: LO, HI> with LO < HI (the valid values [LO, HI)), got 3 : i64}}
func.func @range_not_an_array(%ids: tensor<4xi64> {ckpt.range = 3 : i64}) -> tensor<4xi64> {
  return %ids : tensor<4xi64>
}

// -----

// expected-error @+1 {{'ckpt.range' is for integer arguments, but argument #1 is 'tensor<4xf32>'}}
func.func @range_on_floats(%ids: tensor<4xi64>, %x: tensor<4xf32> {ckpt.range = array<i64: 0, 4>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown ckpt dialect argument attribute 'ckpt.ranges' (on argument #0)}}
func.func @unknown_argument_attribute(%ids: tensor<4xi64> {ckpt.ranges = array<i64: 0, 4>}) -> tensor<4xi64> {
  return %ids : tensor<4xi64>
}

// -----

// expected-error @+1 {{'ckpt.input_ranges' must be an array of array<i64: LO, HI> (LO < HI) or array<i64>, one per argument, got [array<i64: 4, 0>]}}
func.func @bad_input_ranges(%ids: tensor<4xi64>) -> tensor<4xi64> attributes {ckpt.input_ranges = [array<i64: 4, 0>]} {
  return %ids : tensor<4xi64>
}

// -----

func.func @work_not_a_work(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.work' must be a #ckpt.work attribute, got #ckpt.cost<flops = 1, bytes = 8, time = 1.000000e+00>}}
  %y = arith.negf %x {ckpt.work = #ckpt.cost<flops = 1, bytes = 8, time = 1.0>} : f32
  return %y : f32
}

// -----

ckpt.step @plan_transfer_of_four(%x: f32) -> f32 attributes {
  // expected-error @+2 {{a transfer is [op, result, offload_after, offload_done, reload_after], got 4 integers}}
  // expected-error @+1 {{failed to parse Ckpt_PlanAttr parameter 'transfers'}}
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2], transfers = [[0, 0, 1, 2]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{transfer 0 [0, 0, 3, 3, 2]: offload_after must be an execution of the schedule (0 to 2)}}
ckpt.step @plan_transfer_after_the_end(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2], transfers = [[0, 0, 3, 3, 2]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{transfer 0 [0, 0, 1, 0, 2]: offload_done must be offload_after or an execution after it (up to 2)}}
ckpt.step @plan_transfer_done_before_its_offload(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2], transfers = [[0, 0, 1, 0, 2]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{transfer 0 [0, 0, 1, 2, 1]: reload_after must be an execution after offload_after (up to 3)}}
ckpt.step @plan_transfer_reloaded_at_its_offload(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2, 3], transfers = [[0, 0, 1, 2, 1]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{transfer 0 [0, 0, 0, 3, 2]: offload_done must be at or before reload_after}}
ckpt.step @plan_transfer_waited_after_its_reload(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2, 3], transfers = [[0, 0, 0, 3, 2]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// A value never reloaded is never read again: it is freed, not moved.
// expected-error @+2 {{transfer 0 [0, 0, 1, 2, -1]: reload_after must be an execution after offload_after (up to 3)}}
ckpt.step @plan_transfer_never_reloaded(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2, 3], transfers = [[0, 0, 1, 2, -1]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+2 {{transfer 0 [-1, 0, 0, 1, 2]: op and result must be non-negative}}
ckpt.step @plan_transfer_negative_op(%x: f32) -> f32 attributes {
  ckpt.plan = #ckpt.plan<strategy = "optimal", budget = 1, peak = 1, time = 0, store_all_peak = 1, store_all_time = 0, schedule = [0, 1, 2, 3], transfers = [[-1, 0, 0, 1, 2]]>} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+1 {{'ckpt.budget' has a planned peak (9 B) over the budget (8 B), got {bytes = 8 : i64, peak = 9 : i64}}}
ckpt.step @budget_under_peak(%x: f32) -> f32 attributes {
  ckpt.budget = {bytes = 8 : i64, peak = 9 : i64}} {
  ckpt.return %x : f32 loss(0)
}

// -----

// expected-error @+1 {{'ckpt.budget' must be {bytes = B : i64, peak = P : i64}, got 8 : i64}}
func.func @budget_not_an_attr(%x: f32) -> f32 attributes {ckpt.budget = 8 : i64} {
  return %x : f32
}

// -----

func.func @budget_on_an_op(%x: f32) -> f32 {
  // expected-error @+1 {{'ckpt.budget' may only be attached to a function}}
  %y = arith.negf %x {ckpt.budget = {bytes = 8 : i64, peak = 8 : i64}} : f32
  return %y : f32
}

// -----

// expected-error @+1 {{'ckpt.budget' must hold a non-negative bytes and peak, got {bytes = -8 : i64, peak = -9 : i64}}}
func.func @budget_negative(%x: f32) -> f32 attributes {ckpt.budget = {bytes = -8 : i64, peak = -9 : i64}} {
  return %x : f32
}

// -----

// A recompute region may hold the allocations ckpt-rematerialize pins its
// buffers with, but not one that copies or lives elsewhere.
ckpt.step @recompute_alloc_copy(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'ckpt.recompute' op may only hold side-effect-free ops, but the region holds 'bufferization.alloc_tensor'}}
  %r = ckpt.recompute (%x) : (tensor<1xf32>) -> (tensor<1xf32>) {
  ^bb0(%a: tensor<1xf32>):
    // expected-note @+1 {{op with side effects is here}}
    %c = bufferization.alloc_tensor() copy(%a) : tensor<1xf32>
    ckpt.yield %c : tensor<1xf32>
  }
  ckpt.return %r : tensor<1xf32> loss(0)
}

// -----

// expected-error @+1 {{'ckpt.profile_keys' must be an array of strings on a module, got [1]}}
module attributes {ckpt.profile_keys = [1]} {
}

// -----

// expected-error @+1 {{'ckpt.profile_keys' must be an array of strings on a module, got ["a.mlir:1:1"]}}
func.func @profile_keys_on_a_function() attributes {ckpt.profile_keys = ["a.mlir:1:1"]} {
  return
}
