//===- Passes.td - ckpt passes -----------------------------*- tablegen -*-===//

#ifndef CKPT_TRANSFORMS_PASSES_TD
#define CKPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def WrapStepPass : Pass<"ckpt-wrap-step", "mlir::ModuleOp"> {
  let summary = "Turn func.func training steps into ckpt.step ops";
  let description = [{
    Wraps each selected `func.func` into a `ckpt.step` with the same name,
    signature, argument/result attributes and other attributes, and turns its
    `func.return` into a `ckpt.return` that names the loss.

    A function is selected when it carries `ckpt.loss = <result index>`, or
    when the `func` option names it, or (with `func` empty) when `loss-index`
    is given, in which case every function with a body is selected. The loss
    index comes from `loss-index` when given, else from `ckpt.loss`; when both
    are present they must agree. The function must have a single block, must
    not be referenced (a `ckpt.step` cannot be called) and its loss must be a
    float scalar or a one-element float tensor. A module with nothing to wrap
    and no `ckpt.step` (an empty file, say) gets a warning, not an error.

    A `tensor.empty` that several ops of the step use (exporters such as
    torch-mlir share one among many destinations after their CSE) is split:
    every use but the first gets a `tensor.empty` of its own, right before
    its op. One-shot bufferization allocates a buffer per destination
    anyway; the plan's memory model must see each of them (a two-layer MLP
    exported by torch-mlir: store-all predicted at 8,480 B against 6,656 B
    measured before the split; 6,432 B, as measured, after).

    ```mlir
    func.func @train(%w: tensor<4xf32>) -> (f32, tensor<4xf32>) attributes {ckpt.loss = 0 : i64}
    // becomes
    ckpt.step @train(%w: tensor<4xf32>) -> (f32, tensor<4xf32>) { ... ckpt.return %l, %g : f32, tensor<4xf32> loss(0) }
    ```
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"\"",
           "Wrap only the function with this name">,
    Option<"lossIndex", "loss-index", "int64_t", /*default=*/"-1",
           "Index of the result that is the loss (-1: read the ckpt.loss "
           "attribute)">,
  ];
  let dependentDialects = ["::ckpt::CkptDialect", "::mlir::func::FuncDialect"];
}

def UnwrapStepPass : Pass<"ckpt-unwrap-step", "mlir::ModuleOp"> {
  let summary = "Turn ckpt.step ops back into func.func";
  let description = [{
    The inverse of `ckpt-wrap-step`: each `ckpt.step` becomes a `func.func`
    carrying `ckpt.loss = <index>` with the same name, signature and
    attributes, and its `ckpt.return` becomes `func.return`. Recompute regions,
    checkpoints and frees in the body are kept as they are.
  }];
  let dependentDialects = ["::ckpt::CkptDialect", "::mlir::func::FuncDialect"];
}

def AnnotateCostsPass : Pass<"ckpt-annotate-costs", "mlir::ModuleOp"> {
  let summary = "Write the cost of every op of every step as a ckpt.cost attribute";
  let description = [{
    Attaches `ckpt.cost = #ckpt.cost<flops, bytes, time>` to every top-level
    op of every `ckpt.step` (and to the ops of its recompute regions), so that
    users can read and override the costs the planner uses. Work (flops, bytes)
    comes from the `CostOpInterface` models; time from a roofline over the
    `device` profile, or from a measured `profile` file: a JSON object mapping
    an op name (`"linalg.matmul"`) or a location (`"file.mlir:12:3"`, or a
    `NameLoc` name) to seconds, locations first (`ckpt-run --profile` writes
    one, ckpt-profile-ops). Ops the model does not know
    are costed by their tensor bytes (no flops). Costs already present are
    kept unless `overwrite` is set. Dynamically shaped ops are errors.
  }];
  let options = [
    Option<"device", "device", "::ckpt::Device", /*default=*/"::ckpt::Device::H100",
           "Device of the roofline cost model">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "JSON file of measured op times (seconds) by op name or location">,
    Option<"overwrite", "overwrite", "bool", /*default=*/"false",
           "Replace ckpt.cost attributes that are already present">,
  ];
  let dependentDialects = ["::ckpt::CkptDialect"];
}

def PlanPass : Pass<"ckpt-plan", "mlir::ModuleOp"> {
  let summary = "Decide what to keep and what to recompute under a memory budget";
  let description = [{
    For each `ckpt.step`: costs every top-level op, and plans a *schedule*
    under `budget`: the order in which the step's ops run, where an op that
    runs again is recomputed there. The result is a `ckpt.plan` attribute on
    the step: the strategy, the budget, the schedule (op positions in the
    step's block), its peak of live buffers and its time, as the memory
    simulation that predicts `ckpt-run` evaluates them, and the peak and time
    of the step as written.

    Strategies (docs/PLANNING.md): `optimal` (the default: the fastest of
    the chain DP of Beaumont et al. 2019 over a separator chain and an
    op-level greedy, improved by local search on the exact simulation),
    `ilp` (the exact schedule: Checkmate's MILP, solved with CBC within
    `time-limit` seconds, started from `optimal`; its proven lower bound is
    the plan's `lower_bound`), `store-all`, `periodic:K` (PyTorch's
    checkpoint_sequential with K segments), `sqrt`, `revolve`, `memory-poor`,
    `articulation` (the chain DP over single-value separators, like openai's
    'memory' mode), `speed` (keep the outputs of matmul and convolution ops,
    recompute the rest once before its backward: openai's 'speed' mode),
    `manual` (the same with the values `ckpt.checkpoint` marks: openai's
    'collection' mode) and `keep` (keep exactly the forward values
    `ckpt.checkpoint` marks; recompute every other forward value once,
    right before the backward first reads it: PyTorch's selective
    activation checkpointing with the marks as its save list, or
    `torch.utils.checkpoint` on every block when the marks are the blocks'
    inputs and what lies outside the blocks; with `fit=simulation` only).

    `budget` is a number of bytes with an optional unit (`6GiB`, `512KiB`,
    `2MB`; units in any case, `5gb`) or a percentage of the store-all peak
    (`70%`). An infeasible budget is an error at the step that names the
    least feasible budget the strategy reaches, in exact bytes and in a unit
    rounded up, either of which plans when given back. A module without a
    `ckpt.step` is an error that says how to make one (`allow-no-step=true`
    accepts it); a bad `budget` or `strategy` is an error even then.

    `strategy=ilp` solves Checkmate's program with CBC. Its `lower_bound` and
    its proof of optimality are the program's own: they hold for the
    schedules the program describes (each stage's recomputations in the
    step's op order), not for every schedule, so `optimal` may find a
    cheaper one; the plan is then `optimal`'s (never worse than it), and the
    least budget an infeasible one names is the lower of the two. `time-limit` bounds the whole plan's wall time (the warm
    start, building the program and CBC) within 10%; `node-limit` bounds
    CBC's branch-and-bound nodes, which gives the same answer on any machine
    and under any load; `ilp-memory` bounds the memory CBC may use: a program
    estimated larger is refused before it is built, naming its size.

    `offload=auto` (strategy `optimal` or `ilp`, `fit=simulation`) plans offloading
    beside recomputation (docs/PLANNING.md section 7): a value may be copied
    to host memory after an op and back before a later reader, over the
    link of `device` (h100: PCIe 5, a100: PCIe 4, v100: PCIe 3, gh200:
    NVLink-C2C, cpu: a memcpy), the copies overlapping compute on their own
    streams; a measured `profile` may give the link in its place
    (`"link.to_host"`, `"link.to_device"`: bytes per second;
    `"link.latency"`: seconds per copy). The plan is the fastest of
    recomputation alone and recomputation
    with copies, so it is never slower than `offload=off`, and it may fit
    budgets below the least that recomputation alone reaches. The plan's
    `transfers` list the copies, `peak` is the device peak where the step's
    program allocates and frees (what a run measures), `time` includes the
    stalls of late reloads, and `host_peak` the host bytes.
    `ckpt-rematerialize` places them as `ckpt.offload`, `ckpt.wait` and
    `ckpt.reload`. Off by default until `scripts/gpu-check.sh --offload`
    has measured on a GPU that offloaded steps take the time their plans
    say (README); `ckpt-run --profile` measures the op times and the link
    of the machine a step runs on (`ckpt-profile-ops`). With
    `strategy=ilp` the joint plan is the faster of the joint planner's and
    that of Checkmate's MILP extended with POET's paging variables (CBC,
    warm-started from strategy `ilp`'s recompute-only plan, with a time
    limit of its own); a plan that copies carries no `lower_bound`.

    `repeated-blocks` (on by default; strategy `optimal`): the step's runs
    of identical blocks (a transformer's layers, a ResNet stage's blocks:
    the same ops on their own weights, one block after the other) are
    found, and each step of the greedy that lowers the peak applies its
    move in the other blocks too, as many as the excess over the budget
    needs, when together they lower the peak at the move's own cost per
    byte (else the move alone). A deep model then plans in a few greedy
    steps per kind of move instead of one per layer. `ckpt-report` lists
    the runs it finds (`repeated_blocks`).
  }];
  let options = [
    Option<"budget", "budget", "::ckpt::BudgetSpec",
           /*default=*/"::ckpt::BudgetSpec{true, 100}",
           "Memory budget: bytes with a unit (B, KB, MB, GB, TB, KiB, MiB, "
           "GiB, TiB; any case) or a percentage of the store-all peak ('70%')">,
    Option<"strategy", "strategy", "::ckpt::sched::PlanStrategy",
           /*default=*/"::ckpt::sched::PlanStrategy{}",
           "optimal, ilp, store-all, periodic:K, sqrt, revolve, memory-poor, "
           "articulation, speed, manual or keep">,
    Option<"slots", "slots", "::ckpt::NonNegativeCount",
           /*default=*/"::ckpt::NonNegativeCount{500}",
           "Memory slots of the chain DP (0: exact byte sizes)">,
    Option<"device", "device", "::ckpt::Device", /*default=*/"::ckpt::Device::H100",
           "Device of the op times (its roofline and link)">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "JSON file of measured op times (seconds) by op name or location">,
    Option<"fit", "fit", "::ckpt::FitMode", /*default=*/"::ckpt::FitMode::Simulation",
           "What must fit the budget: 'simulation' (the simulated peak of "
           "the schedule; percentages of the step's own simulated peak) or "
           "'model' (the chain model's peak, as Theorem 1 states it; "
           "percentages of its store-all peak; chain strategies only)",
           [{CKPT_FIT_VALUES}]>,
    Option<"offload", "offload", "::ckpt::OffloadMode",
           /*default=*/"::ckpt::OffloadMode::Off",
           "'auto': recompute or move values to host memory over the "
           "device's link, whichever is faster (strategy optimal or ilp); "
           "'off': "
           "recomputation only",
           [{CKPT_OFFLOAD_VALUES}]>,
    Option<"timeLimit", "time-limit", "::ckpt::PositiveSeconds",
           /*default=*/"::ckpt::PositiveSeconds{60}",
           "Wall-clock seconds of the 'ilp' strategy, warm start and program "
           "building included">,
    Option<"nodeLimit", "node-limit", "::ckpt::NonNegativeCount",
           /*default=*/"::ckpt::NonNegativeCount{0}",
           "Branch-and-bound nodes of the 'ilp' strategy (0: no limit); "
           "unlike time-limit, the same answer on any machine">,
    Option<"ilpMemory", "ilp-memory", "::ckpt::MemoryLimitSpec",
           /*default=*/"::ckpt::MemoryLimitSpec{{true, 50}}",
           "Memory the 'ilp' strategy may use: bytes with a unit, or a "
           "percentage of the machine's memory">,
    Option<"repeatedBlocks", "repeated-blocks", "bool", /*default=*/"true",
           "Strategy optimal: find identical blocks (layers) and let its "
           "greedies apply a move in every block where it fits at the same "
           "cost per byte ('false': one move at a time)">,
    Option<"allowNoStep", "allow-no-step", "bool", /*default=*/"false",
           "Accept a module without a ckpt.step (otherwise an error)">,
  ];
  let dependentDialects = ["::ckpt::CkptDialect"];
}

def ReportPass : Pass<"ckpt-report", "mlir::ModuleOp"> {
  let summary = "Write a JSON report of each planned step and compare strategies";
  let description = [{
    For every `ckpt.step` that carries a `ckpt.plan`, writes one JSON object
    (a JSON array for the whole module) describing the plan the step
    carries, evaluated by the memory simulation (nothing is planned again):
    its peak and time, the overhead over the store-all schedule in percent,
    the ops it runs more than once, the bytes live during each execution of
    its schedule; the store-all peak and time; every baseline strategy
    (store-all, periodic:K for K = 2..4, sqrt, revolve, memory-poor) planned
    at the same budget; a lower bound on the time of every schedule of
    recomputation alone within the budget (`lower_bound`: cuts at single
    ops, Lagrangian relaxation; `plan_above_percent` is how far the plan is
    above it, so at most how far from the optimum), and one on the time of
    those that run each op a first time in the step's order, as the `ilp`
    program does (`lower_bound_in_order`; `plan_in_order` says whether the
    plan does, and only then is `plan_above_percent` given); the runs of identical
    blocks `ckpt-plan`'s `repeated-blocks` uses (`repeated_blocks`: each
    run's first position, op and location, ops per block and blocks); and
    the step's chain model (`chain`, in ckpt-chain's input format, with its
    `stages` and `separator_bytes`). Also emits a
    one-line summary of the plan as a remark on the step. Times are in the
    costs the plan was made with (its `device` and `profile`, recorded in
    the plan): `device=` or `profile=` given here must be those, else the
    step gets an error. `slots` should be the plan's (it sizes the
    baselines' chain DP).
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the JSON report ('-': standard output)">,
    Option<"slots", "slots", "::ckpt::NonNegativeCount",
           /*default=*/"::ckpt::NonNegativeCount{500}",
           "Memory slots of the chain DP (as given to ckpt-plan)">,
    Option<"leastOption", "least", "bool", /*default=*/"true",
           "Report the least feasible budgets (`least_budget`): of "
           "recomputation alone and with offloading over the device's link, "
           "each a budget at which ckpt-plan plans (and one byte under which "
           "it refuses)">,
    Option<"lowerBoundOption", "lower-bound", "bool", /*default=*/"true",
           "Report lower bounds on the time of every schedule of "
           "recomputation alone within the budget (`lower_bound`) and of "
           "those in the step's order (`lower_bound_in_order`)">,
    Option<"device", "device", "::ckpt::Device", /*default=*/"::ckpt::Device::H100",
           "Device: the plan's (recorded in it); given, it must be "
           "the plan's">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "Measured op times: the plan's (recorded in it); given, it must "
           "be the plan's">,
  ];
}

def RematerializePass : Pass<"ckpt-rematerialize", "mlir::ModuleOp"> {
  let summary = "Apply a step's plan: the schedule's order and recompute regions";
  let description = [{
    For every `ckpt.step` with a `ckpt.plan`, puts the step's top-level ops
    in the order of the plan's schedule. The first execution of an op is the
    op itself; every later execution is a clone, and each run of consecutive
    clones becomes a `ckpt.recompute` region (ended early where a buffer
    from before it is read for the last time, so that frees can follow every
    buffer's last reader). Every op reads the version of each value computed
    last before it; the step returns the last versions. The step's results
    are unchanged: recomputed ops are pure and deterministic. A schedule that
    runs every op once in the block's order keeps the block's order.

    Every `tensor.empty` of a planned step then becomes a
    `bufferization.alloc_tensor` of the same type: the buffer one-shot
    bufferization would have allocated there anyway, but an allocation,
    which a host compiler's `cse` or `canonicalize` cannot merge with
    another (two merged `tensor.empty` make one buffer live from the first
    use to the last, and bufferization copies around it: mlp8 at 60% went
    from 349,456 B to 484,624 B after one `--cse`). The plan's budget and
    the rewritten step's simulated peak go on the step as
    `ckpt.budget = {bytes = B : i64, peak = P : i64}` (builtin attributes,
    which survive the lowering to the LLVM dialect), which
    `ckpt-insert-frees` and `ckpt-check-peak` check the step against.

    The plan is removed afterwards, unless `keep-plan` is set.
  }];
  let options = [
    Option<"keepPlan", "keep-plan", "bool", /*default=*/"false",
           "Keep the ckpt.plan attribute">,
  ];
  let dependentDialects = ["::ckpt::CkptDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def InsertFreesPass : Pass<"ckpt-insert-frees", "mlir::ModuleOp"> {
  let summary = "Free every buffer right after its last use";
  let description = [{
    In every `ckpt.step`, and in every `ckpt.recompute` region of one, inserts
    `ckpt.free` right after the last use of each buffer in the block's order,
    with the memory model of `ckpt-print-analysis` (views and in-place writes
    share a buffer, which is freed after the last use of any of its values).
    Buffers the block returns or yields are not freed; step arguments are
    never freed. Existing `ckpt.free` ops are kept.

    A step with a `ckpt.budget` (one `ckpt-rematerialize` rewrote) is then
    simulated again: if whatever ran since the rewrite made it peak over the
    budget, the pass fails with an error at the op where it peaks.
  }];
  let dependentDialects = ["::ckpt::CkptDialect"];
}

def InlineRecomputePass : Pass<"ckpt-inline-recompute"> {
  let summary = "Inline recompute regions and drop checkpoint markers";
  let description = [{
    Prepares a rematerialized step for bufferization: every `ckpt.recompute`
    is replaced by the ops of its region (block arguments become the inputs,
    results the yielded values) and every `ckpt.checkpoint` by its operand.
    Run no CSE or canonicalization afterwards: they would merge the
    recomputed ops with the originals and undo the plan.
  }];
}

def ProfileOpsPass : Pass<"ckpt-profile-ops", "mlir::ModuleOp"> {
  let summary = "Time every op of every step when the lowered step runs";
  let description = [{
    Puts a call to `ckptRuntimeProfileBegin(id)` before and to
    `ckptRuntimeProfileEnd(id)` after every op of every `ckpt.step` that
    computes something (not constants, `tensor.empty` or the
    `bufferization.alloc_tensor` ckpt-rematerialize makes of it, nor ckpt's
    own ops),
    and lists the ops' keys in the module attribute `ckpt.profile_keys`, an
    array of strings: `id` is an index into it. The key of an op is the one
    `profile=` files look it up by first (ckpt-annotate-costs): its location
    (`"file.mlir:12:3"`, or a `NameLoc` name), else its op name. Ops that
    share a key (an op and its recomputation, or ops without a location)
    share an `id`. `ckpt-run --profile=FILE` writes such a file: per key the
    mean time of its executions in a run (the median over `--repeat` runs),
    and the link of the step's copies, so that a step can be planned with
    the times of the machine it runs on (docs/PLANNING.md, section 2). A
    `ckpt.recompute` region may hold no calls: run `ckpt-inline-recompute`
    first (the lowerings' `profile=true` do), else the region is an error.
    The marks are calls, across which no later pass moves the ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def ReadOnlyArgumentsPass : Pass<"ckpt-readonly-arguments", "mlir::func::FuncOp"> {
  let summary = "Keep bufferization from writing into the caller's buffers";
  let description = [{
    Marks every tensor argument of the function `bufferization.writable =
    false`, so that one-shot bufferization (with function boundaries) never
    writes in place into an argument: a step's arguments are the caller's
    parameters and data, which a training step must not clobber.
    Declarations are left alone: one-shot bufferization rejects the attribute
    on a function without a body.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def LowerFreesPass : Pass<"ckpt-lower-frees", "mlir::func::FuncOp"> {
  let summary = "Turn ckpt.free of bufferized values into memref.dealloc";
  let description = [{
    After one-shot bufferization, `ckpt.free %m` holds a memref. The pass
    finds the allocation `%m` is a view of, and deallocates it right after
    the last use of any value aliasing it (buffer view-flow analysis), which
    is never earlier than the free: bufferization may have chosen other
    aliasing than the tensor-level model, and the dealloc stays sound.
    Frees of function arguments and of buffers that escape through the
    return are dropped. With `free-leftovers`, every other allocation of the
    function that does not escape is deallocated after its last use too
    (copies made by bufferization), so that nothing leaks. An allocation
    the function deallocates already (a `bufferization.dealloc_tensor` in
    the input, lowered to `memref.dealloc`) gets no second dealloc.
  }];
  let options = [
    Option<"freeLeftovers", "free-leftovers", "bool", /*default=*/"true",
           "Also deallocate allocations no ckpt.free covers">,
    Option<"eraseOnly", "erase-only", "bool", /*default=*/"false",
           "Only erase the ckpt.free ops (when another mechanism, such as "
           "upstream's ownership-based deallocation, frees buffers)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CheckPeakPass : Pass<"ckpt-check-peak", "mlir::func::FuncOp"> {
  let summary = "Check a bufferized step's peak against the budget it was planned for";
  let description = [{
    The last check a host compiler runs, after bufferization and
    deallocation: the function's allocations (`memref.alloc` of the default
    memory space, each rounded up to its alignment, at least 16 bytes, as
    the allocator `ckpt-run` counts them asks for) are counted in program
    order, and each `memref.dealloc`, or `bufferization.dealloc` under a
    constant true condition, ends the allocation it reaches through views;
    a buffer the function returns lives to the end. If the live bytes go
    over the budget, the pass fails with an error at the first allocation
    that brings them over, with notes at the largest buffers live then.

    The budget is the function's `ckpt.budget` (which `ckpt-rematerialize`
    puts on the step and `ckpt-unwrap-step` carries to the function), or
    `budget` bytes when given; a function with neither is not checked. The
    count is exact for code without loops (a rematerialized step after
    bufferization); an allocation inside a loop, or of dynamic size, gets a
    warning and the function is not checked. `ckpt-lower-to-cpu` and
    `ckpt-lower-to-nvptx` run it after deallocation (`check-budget`).
  }];
  let options = [
    Option<"budget", "budget", "uint64_t", /*default=*/"0",
           "Budget in bytes (0: the function's ckpt.budget)">,
    Option<"remark", "remark", "bool", /*default=*/"false",
           "Report the peak of every checked function as a remark">,
  ];
}

def RejectOpaquePass : Pass<"ckpt-reject-opaque"> {
  let summary = "Fail on ckpt.opaque ops, which have no lowering";
  let description = [{
    Emits an error at every `ckpt.opaque` op under the op it runs on (nested
    ones included) and fails when there is one. `ckpt.opaque` stands for an
    op a front end could not translate: a step holding one can be planned
    and rewritten, but there is nothing to lower it to. The first pass of
    both lowerings (`ckpt-lower-to-cpu`, `ckpt-lower-to-nvptx`), so that they
    stop with this message instead of a bufferization error.
  }];
}

def LowerOffloadsPass : Pass<"ckpt-lower-offloads", "mlir::func::FuncOp"> {
  let summary = "Lower ckpt.offload, ckpt.reload and ckpt.wait to copies on the CPU";
  let description = [{
    The CPU lowering of the copies to host memory, on tensors, before
    bufferization (part of `ckpt-lower-to-cpu`). The CPU runs them
    synchronously in program order: `ckpt.offload %t` becomes
    `bufferization.alloc_tensor() copy(%t) {memory_space = 1}` (memory space
    1 is host memory), `ckpt.reload` a copy of it back into memory space 0,
    a `ckpt.wait` on a reload's event a `bufferization.dealloc_tensor` of the
    host copy, and a `ckpt.wait` on an offload's event nothing (the
    `ckpt.free` of the device tensor after it stays). After bufferization,
    `ckpt-lower-host-copies` counts the host buffers apart.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def LowerHostCopiesPass : Pass<"ckpt-lower-host-copies", "mlir::ModuleOp"> {
  let summary = "Allocate host memory buffers through the runtime's host-copy counters";
  let description = [{
    After bufferization: every `memref.alloc` in memory space 1 (host
    memory, the host copies of `ckpt-lower-offloads`) becomes an allocation
    in the default space between calls to `ckptRuntimeBeginHostCopy` and
    `ckptRuntimeEndHostCopy` (declared private in the module), which the
    ckpt runtime counts as host memory, apart from the step's; `ckpt-run`
    reports them as `host_peak_bytes`. Only `memref.copy` and
    `memref.dealloc` may use such a buffer.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def AsyncHostCopiesPass : Pass<"ckpt-async-host-copies", "mlir::ModuleOp"> {
  let summary = "Copy into and out of host copies asynchronously, waiting where the buffers are next touched";
  let description = [{
    After `ckpt-lower-host-copies` (and, on the GPU path,
    `ckpt-gpu-managed-memory`): every `memref.copy` into or out of a host
    copy (an allocation right after a call to `ckptRuntimeBeginHostCopy`)
    between buffers of static shape and identity layout becomes a call that
    issues the copy and returns a handle, `ckptRuntimeCopyAsync` (the ckpt
    runtime's copy thread) or `ckptCudaCopyAsync` (a CUDA copy stream into
    page-locked host memory), by `runtime`. One call waiting for the handle
    (`...WaitCopy`) goes right before the first later op of the same block
    that touches a buffer of the copy in a way the copy forbids: any use of
    the buffer the copy writes or of a view of it, and a write or free of
    the buffer it reads (reads go on beside the copy); an op whose memory
    effects are unknown counts as touching what it uses. Without such an
    op, the wait goes before the block's terminator. So an offload's copy
    runs beside the ops after it until its source is freed or rewritten,
    and a reload's until its value is first used: where the plan put its
    `ckpt.wait`, or later. Other copies stay as they are (synchronous).
  }];
  let options = [
    Option<"runtime", "runtime", "::ckpt::CopyRuntime",
           /*default=*/"::ckpt::CopyRuntime::Cpu",
           "The runtime whose copy functions the copies call: 'cpu' or "
           "'cuda'",
           [{CKPT_COPY_RUNTIME_VALUES}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CallKernelsPass : Pass<"ckpt-call-kernels", "mlir::ModuleOp"> {
  let summary = "Run f32 contractions, convolutions and embedding gradients as calls to the runtime's kernels";
  let description = [{
    After bufferization, on memrefs of f32, these linalg ops become calls
    to the ckpt runtime's kernels (declared private in the module with
    `llvm.emit_c_interface`; operands as unranked memrefs, then integers:
    which dimension of each operand plays which part, or the strides and
    dilations):
    - a contraction with one reduction, one M, one N and at most two batch
      dimensions (`linalg.matmul`, `linalg.batch_matmul`, and the
      `linalg.generic` forms with transposed operands that importers
      write): `ckpt_kernel_contract_f32`;
    - `linalg.conv_2d_nchw_fchw`: `ckpt_kernel_conv2d_nchw_fchw_f32`;
    - a convolution's filter gradient as ckpt.torch_import writes it (a
      multiply-accumulate over (f, c, kh, kw, n, oh, ow) reading the input
      at a linear position): `ckpt_kernel_conv2d_filter_grad_f32`;
    - the fused attention's `out + exp(s - lse) * v` contraction:
      `ckpt_kernel_exp_contract_f32`;
    - an embedding's weight gradient (ids of i64, clamped, compared with the
      row index, selecting the output gradient or 0):
      `ckpt_kernel_embedding_grad_f32`.
    The runtime defines them over OpenBLAS's `cblas_sgemm` (convolutions
    through im2col, the attention through blocks of probabilities, in a
    workspace of at most 8 MiB per thread, reused, outside the step's
    budget, whose buffers are unchanged). Other ops are left to
    `convert-linalg-to-loops`. `ckpt-lower-to-cpu{kernels=blas}` runs it
    after `ckpt-check-peak`.

    With `runtime=cuda` (`ckpt-lower-to-nvptx{kernels=blas}`, on the
    managed buffers of the GPU lowering) the calls go to the CUDA runtime,
    with the same arguments, over libraries it loads at run time:
    - a contraction whose operands have static sizes and strides that map
      onto a column-major sgemm (each operand has a unit stride along one of
      its two matrix dimensions; `ckpt/Runtime/Gemm.h`, which the runtime
      uses too): `ckpt_cuda_contract_f32`, over cuBLAS's strided batched
      sgemm;
    - a convolution or filter gradient whose operands have static sizes and
      strides and whose filter (or filter gradient) is packed:
      `ckpt_cuda_conv2d_nchw_fchw_f32` and `ckpt_cuda_conv2d_filter_grad_f32`,
      over cuDNN's convolution forward and backward-filter.
    The other ops (the attention and embedding kernels among them) stay
    linalg and become the lowering's GPU kernels.
  }];
  let options = [
    Option<"runtime", "runtime", "::ckpt::KernelRuntime",
           /*default=*/"::ckpt::KernelRuntime::Cpu",
           "The runtime whose kernels the calls reach: 'cpu' or 'cuda'",
           [{CKPT_KERNEL_RUNTIME_VALUES}]>,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PrintAnalysisPass : Pass<"ckpt-print-analysis", "mlir::ModuleOp"> {
  let summary = "Report the phase split, activations and memory of each step as remarks";
  let description = [{
    For each `ckpt.step`, emits a remark on every top-level op naming its
    phase (forward or backward), whether its results are activations, the
    buffer bytes it allocates and the bytes live while it runs in the current
    order; and a remark on the step with the totals and the peak. Meant for
    tests and for users checking what the planner sees.
  }];
}

def PrepareEntryPass : Pass<"ckpt-prepare-entry", "mlir::ModuleOp"> {
  let summary = "Mark public functions as ckpt-run entry points";
  let description = [{
    On every public `func.func` with a body (or only the one named by
    `func`), sets `llvm.emit_c_interface` (so `convert-func-to-llvm` emits
    `_mlir_ciface_<name>`) and records the tensor signature as
    `ckpt.signature = <function type>` (a `TypeAttr`), which survives
    bufferization and the lowering to the LLVM dialect onto both
    `llvm.func @<name>` and `llvm.func @_mlir_ciface_<name>`. `ckpt-run`
    reads it to build the input memrefs and to read the results. It removes
    `ckpt.loss` from every function of the module, entry or not (the
    C-interface wrapper returns nothing, and the LLVM function of a
    multi-result function returns one struct, so a result index would not
    verify on them).

    Run it after `ckpt-unwrap-step` and before bufferization. Every argument
    and result must be a statically shaped tensor of f32, f64, i32 or i64;
    anything else is an error at the function.
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"\"",
           "Prepare only the function with this name (empty: every public "
           "function with a body)">,
  ];
}

#endif // CKPT_TRANSFORMS_PASSES_TD
