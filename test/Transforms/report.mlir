// RUN: ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80" --ckpt-report="slots=0 output=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.json
// Without output= the report goes to standard output. It is in the costs the
// plan was made with (recorded in the plan: here the cpu profile).
// RUN: ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80 device=cpu" --ckpt-report="slots=0" -o /dev/null 2>/dev/null | FileCheck %s
// A device or profile other than the plan's is an error at the step: the
// report would describe other times than the plan's.
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80" --ckpt-report="device=cpu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHERDEVICE
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80 device=a100" --ckpt-report="device=h100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHERDEVICE2
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80" --ckpt-report="profile=%S/Inputs/missing.json" 2>&1 -o /dev/null | FileCheck %s --check-prefix=PROFILE
// The device given that is the plan's is accepted.
// RUN: ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80 device=v100" --ckpt-report="slots=0 device=v100" -o /dev/null 2>/dev/null | FileCheck %s
// The report describes the plan the step carries, whatever the strategy
// that made it: nothing is planned again.
// RUN: ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80 strategy=periodic:2" --ckpt-report="slots=0" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=CARRIED
// RUN: ckpt-opt %S/Inputs/chain6.mlir --ckpt-report 2>&1 -o /dev/null | FileCheck %s --check-prefix=UNPLANNED
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-report="device=tpu" 2>&1 -o /dev/null | FileCheck %s --check-prefix=DEVICE
// RUN: not ckpt-opt %S/Inputs/chain6.mlir --ckpt-plan="budget=80" --ckpt-report="output=%S/Inputs/no-such-dir/r.json" 2>&1 -o /dev/null | FileCheck %s --check-prefix=OUTPUT

// The chain of plan.mlir (Inputs/chain6.mlir) under 80 B; see plan.mlir for
// its hand computation: the schedule runs a again before ga (positions 0 a,
// 1 b, 2 c, 3 d, 4 e, 5 l, 6 ge, 7 gd, 8 gc, 9 gb, 10 ga), peak 80 B, time
// 17 (store-all: 96 B, 16). 80 / 96 = 83.3%, (17 - 16) / 16 = +6.25%.
// REMARK: remark: ckpt: 'chain6' with optimal under 80 B: peak 80 B (83.3% of the store-all peak), time 17 s (+6.2%), 1 recomputation
// UNPLANNED: warning: no ckpt.plan on this step: run ckpt-plan first; the step is left out of the report
// DEVICE: for the --device option: 'tpu' is not a valid value: expected h100, a100, v100, cpu or gh200
// OTHERDEVICE: error: the plan was made for device 'h100' and is reported in its times: leave out device=cpu or plan with it
// OTHERDEVICE2: error: the plan was made for device 'a100' and is reported in its times: leave out device=h100 or plan with it
// PROFILE: error: the plan was made with no profile and is reported in its times: leave out profile= or plan with it
// OUTPUT: error: cannot write the report:

// CHECK:      "step": "chain6",
// CHECK-NEXT: "strategy": "optimal",
// CHECK-NEXT: "budget_bytes": 80,
// CHECK-NEXT: "plan": {
// CHECK-NEXT:   "feasible": true,
// CHECK-NEXT:   "peak_bytes": 80,
// CHECK-NEXT:   "time_s": 17,
// CHECK-NEXT:   "overhead_percent": 6.25,
// CHECK-NEXT:   "executions": 12,
// CHECK-NEXT:   "recomputed": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "position": 0,
// CHECK-NEXT:       "op": "math.exp",
// CHECK-NEXT:       "loc": "{{.*}}chain6.mlir:3:8",
// CHECK-NEXT:       "runs": 2
// CHECK-NEXT:     }
// CHECK-NEXT:   ]
// CHECK-NEXT: },
// CHECK-NEXT: "simulated_peak_bytes": 80,
// The least budgets, by hand: e's buffer lives to the end (the loss %l is
// a view of it, returned), and ga reads gb and a (writing into gb's
// buffer): 16 + 16 + 16 = 48 B, which recomputing everything from %x
// reaches. The joint planner finds no copy that goes lower.
// CHECK-NEXT: "least_budget": {
// CHECK-NEXT:   "recomputation_bytes": 48,
// CHECK-NEXT:   "with_offloading_bytes": 48,
// CHECK-NEXT:   "link": "the device's (the plan's)"
// CHECK-NEXT: },
// No run of identical blocks: in exp sin cos exp sin, a block repeats twice at
// most (a run needs three).
// CHECK-NEXT: "repeated_blocks": [],
// The lower bound (report-lower-bound.mlir has one that binds): no cut at
// one op binds here. At ge, a b c d are needed later and e is read (80 B),
// ge's result may take a read's buffer (mulf is in place): 80 B; at gd, a b
// c and the reads ge d: 80 B; and so on. The store-all peak of 96 B comes
// from ge not taking e's buffer (l, a view of e, is returned), which a cut
// at one op does not see. So the bound is the step's own time, 16.
// CHECK-NEXT: "lower_bound": {
// CHECK-NEXT:   "scope": "every schedule of recomputation alone within the budget (cuts at single ops, Lagrangian relaxation)",
// CHECK-NEXT:   "cuts": 11,
// CHECK-NEXT:   "cuts_binding": 0,
// CHECK-NEXT:   "recompute_s": 0,
// CHECK-NEXT:   "time_s": 16,
// CHECK-NEXT:   "plan_above_percent": 6.25
// CHECK-NEXT: },
// In the step's order the cut at gd (position 7) binds: l ran before it and
// is returned, a view of e, so e's 16 B are live (or e is made again); a b
// c are read later (48 B), ge and d are read there (32 B): 96 B, 16 over
// 80 B (gd may write over ge). The cheapest 16 B: a, recomputed at cost 1:
// the bound is 17, the plan's time: optimal among the schedules in order.
// (The bound over every schedule misses it: an op like l, which could run
// after gd, counts there only with the bytes of its results, none for a
// view: a looser relaxation, still a bound.)
// CHECK-NEXT: "lower_bound_in_order": {
// CHECK-NEXT:   "scope": "every schedule of recomputation alone within the budget that runs each op a first time in the step's order, as the ilp program does (cuts at single ops, Lagrangian relaxation)",
// CHECK-NEXT:   "cuts": 11,
// CHECK-NEXT:   "cuts_binding": 1,
// CHECK-NEXT:   "plan_in_order": true,
// CHECK-NEXT:   "recompute_s": 0.99999999
// CHECK-NEXT:   "time_s": 16.99999999
// CHECK-NEXT:   "cut_position": 7,
// CHECK-NEXT:   "cut_op": "arith.mulf",
// CHECK-NEXT:   "cut_loc": "{{.*}}chain6.mlir:10:9",
// CHECK-NEXT:   "plan_above_percent": {{[0-9.e-]+}}
// CHECK-NEXT: },
// CHECK-NEXT: "store_all": {
// CHECK-NEXT:   "peak_bytes": 96,
// CHECK-NEXT:   "time_s": 16
// Baselines at the same 80 B, by hand (plan.mlir has periodic:2, sqrt and
// memory-poor): store-all needs 96. periodic:3 (Fck1 Fck2 Fall3..6, B6..B3,
// Fall2 B2, Fall1 B1) and periodic:4 recompute only what nobody reads any
// more once pruned (b, a after gb and ga ran): the step as written, 96 B.
// CHECK:      "baselines": {
// CHECK-NEXT:   "store-all": {
// CHECK-NEXT:     "feasible": false,
// CHECK-NEXT:     "min_feasible_bytes": 96
// CHECK:        "periodic:2": {
// CHECK-NEXT:     "feasible": true,
// CHECK-NEXT:     "peak_bytes": 80,
// CHECK-NEXT:     "time_s": 17,
// CHECK:        "periodic:3": {
// CHECK-NEXT:     "feasible": false,
// CHECK-NEXT:     "min_feasible_bytes": 96
// CHECK:        "periodic:4": {
// CHECK-NEXT:     "feasible": false,
// CHECK-NEXT:     "min_feasible_bytes": 96
// CHECK:        "sqrt": {
// CHECK-NEXT:     "feasible": true,
// CHECK-NEXT:     "peak_bytes": 80,
// CHECK-NEXT:     "time_s": 17,
// CHECK:        "revolve": {
// CHECK:        "memory-poor": {
// CHECK-NEXT:     "feasible": true,
// CHECK-NEXT:     "peak_bytes": 48,
// CHECK-NEXT:     "time_s": 26,
// Bytes live during each execution of the plan's schedule, by hand: a 16,
// b in place into the first a (it dies there) 16, c 32, d 48, e 64, l 64 (a
// view of e's buffer, which it holds to the end, being returned), ge 80 (a
// buffer of its own: e is held), gd in place into ge 80, d dies at gd; gc
// 64, c dies; gb 48, b dies; the second a 48, ga 48.
// CHECK:      "timeline_bytes": [16, 16, 32, 48, 64, 64, 80, 80, 64, 48, 48, 48],
// The chain model (ckpt-chain's input format; the step's own #ckpt.cost
// times; sizes rounded up to the 16 B alignment): stages {a} .. {e} {l};
// ge..ga run in B6..B2; ga (16 B, returned) rides along with delta^1 and
// delta^0; ob = max(B^l's own peak, wa[l-1] + returned bytes of B^l).
// CHECK-NEXT: "stages": 6,
// CHECK-NEXT: "separator_bytes": [16, 16, 16, 16, 16],
// CHECK-NEXT: "stage_ops": [1, 1, 1, 1, 1, 1],
// CHECK-NEXT: "chain": {
// CHECK-NEXT:   "memory": 80,
// CHECK-NEXT:   "wa": [0, 16, 16, 16, 16, 16, 16],
// CHECK-NEXT:   "wdelta": [16, 32, 16, 16, 16, 16, 16],
// CHECK-NEXT:   "uf": [1, 1, 1, 1, 1, 1],
// CHECK-NEXT:   "ub": [0, 2, 2, 2, 2, 2],
// CHECK-NEXT:   "of": [0, 0, 0, 0, 0, 0],
// CHECK-NEXT:   "ob": [0, 32, 16, 16, 16, 16],
// CHECK-NEXT:   "wabar": [16, 16, 16, 16, 16, 16]
// CHECK-NEXT: }

// periodic:2's own schedule (plan.mlir: the same as optimal's here).
// CARRIED:      "strategy": "periodic:2",
// CARRIED:      "plan": {
// CARRIED-NEXT:   "feasible": true,
// CARRIED-NEXT:   "peak_bytes": 80,
// CARRIED-NEXT:   "time_s": 17,
