"""ckpt's plan, for PyTorch to train with.

    plan = ckpt.torch_import.torch_policy(model, x, target, budget="60%")
    loss = plan(*plan.args)     # the module's parameters, autograd as usual
    loss.backward()             # p.grad of each parameter
    optimizer.step()

The step is traced and imported as usual, located (`loc("NODE")` on each op,
NODE its node of the traced FX graph), planned by `ckpt-plan` at the budget
and rewritten by `ckpt-rematerialize`, then read back (read_rewritten):
the forward values the rewritten step keeps for its backward (read by a
backward op, or by a recompute region as its input), and its backward in
order with the recomputations. In PyTorch's terms these are the *saved
values* of aot_autograd's split of the joint graph into a forward and a
backward graph (the split torch.compile's partitioners end in), and a
backward graph in autograd's order in which each value ckpt recomputes is
made again just before the backward op it precedes in ckpt's schedule
(scheduled_backward). With schedule="pytorch", only the saved values come
from ckpt: `_extract_fwd_bwd_modules` and
`reordering_to_mimic_autograd_engine` place each recomputation once, as
they do for `min_cut_rematerialization_partition`.

What the export cannot express:
  - a selective-checkpointing policy function: SAC recomputes a region all
    at once, per op call; ckpt's recomputations are per value;
  - a value ckpt keeps for part of the backward and recomputes for a later
    use: it is saved for the whole backward;
  - one output of an op with several (var_mean's mean and rstd, the fused
    attention's output and logsumexp): the ops of the step carry the node's
    location, not the output's, so all its outputs the backward reads are
    saved (they are small beside the ones ckpt chooses between);
  - ckpt's memory model is the planned MLIR step's: eager PyTorch allocates
    temporaries it does not see, so the peak PyTorch measures differs.

Part of ckpt.torch_import (see its docstring).
"""

import os
import re
import tempfile

_VALUE = re.compile(r"%[\w.$-]+(?:#\d+)?")
# A name location ending a line: loc("NODE") (a file location is
# loc("file":L:C)).
_NAME_LOC = re.compile(r'loc\("([^"]*)"\)\s*$')
# The printing that keeps the locations, one per op, in a form read line by
# line.
LOCATED = ("--mlir-print-debuginfo", "--mlir-print-local-scope", "--mlir-print-op-generic")


def _phases(gm):
    """(forward, backward): the names of the traced step's call_function and
    get_attr nodes before the loss's seed gradient (ones_like of the loss),
    and from it on."""
    from .policies import loss_seed
    nodes = list(gm.graph.nodes)
    at = nodes.index(loss_seed(gm))
    ops = ("call_function", "get_attr")
    return ({n.name for n in nodes[:at] if n.op in ops},
            {n.name for n in nodes[at:] if n.op in ops})


def _ops(lines, first, end, indent):
    """The ops written at `indent` spaces in lines[first:end]: (first line,
    end line, op name, results, location name or None)."""
    pad = " " * indent
    top = re.compile("^" + pad + r'(?:(%[\w.$-]+)(?::(\d+))? = )?"([\w.]+)"')
    starts = []
    for i in range(first, end):
        m = top.match(lines[i])
        if m:
            starts.append((i, m.groups()))
    ops = []
    for k, (i, (name, count, op)) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else end
        # Its last line: the last at `indent` (a region's closing line ends
        # with the op's types and location).
        last = max(j for j in range(i, stop) if lines[j].startswith(pad)
                   and len(lines[j]) > indent and lines[j][indent] not in " ^")
        m = _NAME_LOC.search(lines[last])
        results = ([] if name is None else [name] if count is None else
                   [f"{name}#{r}" for r in range(int(count))])
        ops.append((i, stop, op, results, m.group(1) if m else None))
    return ops


def read_rewritten(text, forward, backward):
    """(kept, schedule) of the rewritten step `text` (printed with LOCATED):
    `kept`, the names of the `forward` nodes whose values it keeps for its
    backward (read by an op located at a `backward` node, or by a
    `ckpt.recompute` region: its inputs; values read only by the step's
    return are not counted); `schedule`, its backward in order: (node name,
    recomputed) for each op located at a `backward` node and each op inside
    a recompute region, ops of one node in a row counted once."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if '"ckpt.step"' in line), None)
    if start is None:
        raise ValueError("no ckpt.step in the rewritten step")
    ops = _ops(lines, start + 1, len(lines), 4)
    # The node each forward value comes from (a recompute region's results
    # are recomputed values, not kept ones).
    where = {r: loc for _, _, op, results, loc in ops if op != "ckpt.recompute"
             for r in results}
    kept, schedule = set(), []
    for i, end, op, results, loc in ops:
        recompute = op == "ckpt.recompute"
        if not recompute and loc not in backward:
            continue
        own = set(results)
        for j in range(i, end):
            for v in _VALUE.findall(lines[j]):
                src = where.get(v)
                if src in forward and v not in own:
                    kept.add(src)
        inner = [loc] if not recompute else [
            x[4] for x in _ops(lines, i + 1, end, 6)]
        for name in inner:
            event = (name, recompute)
            if name is not None and (not schedule or schedule[-1] != event):
                schedule.append(event)
    return kept, schedule


def _saved_nodes(joint, kept):
    """The nodes of `joint` (aot_autograd's joint graph of the step) to save:
    the kept ones (an op of several outputs: its outputs the backward reads),
    get_attr constants left out (both graphs have them), then every primal
    the backward or its recomputations read."""
    import operator
    import torch
    nodes = list(joint.graph.nodes)
    order = {n: i for i, n in enumerate(nodes)}
    # The backward: the nodes that depend on the seed gradient.
    grad = set()
    for n in nodes:
        if n.name == "tangents_1" or any(a in grad for a in n.all_input_nodes):
            grad.add(n)
    saved = []
    for n in nodes:
        if n.name not in kept or n.op != "call_function":
            continue
        if n.users and all(u.target is operator.getitem for u in n.users):
            saved += [u for u in n.users if any(w in grad for w in u.users)]
        else:
            saved.append(n)
    stop = set(saved)
    outputs = nodes[-1].args[0][1:]
    stack = [o for o in outputs if isinstance(o, torch.fx.Node)]
    seen, primals = set(), []
    while stack:
        n = stack.pop()
        if n in seen or n in stop:
            continue
        seen.add(n)
        if n.op == "placeholder":
            if n.name.startswith("primals_"):
                primals.append(n)
            continue
        stack.extend(n.all_input_nodes)
    return sorted(set(saved), key=order.get) + sorted(primals, key=order.get)


def split(joint, saved):
    """(forward, backward) GraphModules of `joint` saving the nodes `saved`
    (a list of its nodes), the backward's recomputations placed as late as
    PyTorch's partitioners place them."""
    from torch._functorch.partitioners import (_extract_fwd_bwd_modules,
                                               reordering_to_mimic_autograd_engine)
    fw, bw = _extract_fwd_bwd_modules(joint, list(saved), saved_sym_nodes=[],
                                      num_fwd_outputs=1)
    return fw, reordering_to_mimic_autograd_engine(bw)


def scheduled_backward(joint, saved, schedule):
    """The backward graph of `joint` with ckpt's recomputations (`schedule`,
    read_rewritten's): its backward nodes in the joint graph's order, each
    recomputed node made anew just before the backward node it precedes in
    ckpt's schedule (later readers read the newest copy; an older one is
    freed after its last reader). A value nothing makes (a view, one output
    of several, a value ckpt did not keep and the schedule does not
    recompute) is made where it is first read. Its inputs: the nodes of
    `saved` and the primals it reads (in the order it first reads them),
    then the seed gradient; forward_saving makes the forward that returns
    them."""
    import torch
    nodes = {n.name: n for n in joint.graph.nodes}
    saved = set(saved)
    g = torch.fx.Graph()
    tangent = nodes["tangents_1"]
    env = {tangent: g.placeholder("tangents_1")}
    env[tangent].meta = dict(tangent.meta)
    first = env[tangent]    # the other inputs go before it

    def get(n):
        if n in env:
            return env[n]
        if n in saved or n.op == "placeholder":
            with g.inserting_before(first):
                env[n] = g.placeholder(n.name)
            env[n].meta = dict(n.meta)
            return env[n]
        return make(n)

    def make(n):
        env[n] = g.node_copy(n, get)
        return env[n]

    # The backward nodes run in the joint graph's order (autograd's); each
    # recomputation just before the backward node it precedes in ckpt's
    # schedule.
    before, pending = {}, []
    for name, recomputed in schedule:
        n = nodes.get(name)
        if n is None or n.op != "call_function":
            continue
        if recomputed:
            pending.append(n)
        elif pending:
            before.setdefault(n, []).extend(pending)
            pending = []
    backward = set()
    for n in joint.graph.nodes:
        if n is tangent or any(a in backward for a in n.all_input_nodes):
            backward.add(n)
    for n in joint.graph.nodes:
        if n not in backward or n.op != "call_function":
            continue
        for r in before.get(n, ()):
            make(r)
        if n not in env:
            make(n)
    for r in pending:
        make(r)
    out = joint.graph.find_nodes(op="output")[0].args[0][1:]
    g.output([get(o) if isinstance(o, torch.fx.Node) else o for o in out])
    g.eliminate_dead_code()
    for p in g.find_nodes(op="placeholder"):
        if not p.users and p is not first:
            g.erase_node(p)     # read only by dead code
    return torch.fx.GraphModule(joint, g)


def forward_saving(joint, saved):
    """The forward graph of `joint`: the loss, then each of `saved` (the
    split of PyTorch's partitioners also drops what its own backward does
    not read)."""
    import torch
    from torch._functorch._aot_autograd.descriptors import SavedForBackwardsAOTOutput
    from torch._functorch._aot_autograd.utils import _is_primal
    from torch._functorch.partitioners import (_extract_fwd_bwd_outputs,
                                               _extract_graph_with_inputs_outputs)
    outputs, _, descs, _ = _extract_fwd_bwd_outputs(joint, num_fwd_outputs=1)
    primals = [n for n in joint.graph.find_nodes(op="placeholder") if _is_primal(n)]
    g = _extract_graph_with_inputs_outputs(
        joint.graph, primals, outputs + list(saved),
        descs + [SavedForBackwardsAOTOutput(i) for i in range(len(saved))], "forward")
    return torch.fx.GraphModule(joint, g)


def boxed(gm):
    """`gm` called with one list of arguments, which it empties (as
    aot_autograd calls its graphs): each argument is freed after its last
    use, not held by the caller."""
    import torch
    gm.graph.set_codegen(torch.fx.graph._BoxedCodeGen())
    gm.recompile()
    return gm


def run_split(fw, bw, primals):
    """Runs the boxed forward `fw` on `primals` (a list, emptied), then the
    boxed backward `bw` on the saved values and a seed gradient of one;
    returns (loss, gradients). The saved values are freed as the backward
    reads them for the last time."""
    import torch
    out = fw(primals)
    loss = out[0]
    names = [n.name for n in fw.graph.find_nodes(op="output")[0].args[0]]
    by_name = dict(zip(names[1:], out[1:]))
    del out
    args = [torch.ones_like(loss) if n.name.startswith("tangents_") else by_name.pop(n.name)
            for n in bw.graph.find_nodes(op="placeholder")]
    del by_name
    grads = bw(args)
    return loss, grads


def measured_peak(fn):
    """(result of fn(), peak bytes): the most bytes the CPU allocator held
    for fn's allocations at once, from torch.profiler's memory records
    (what was allocated before the call is not counted)."""
    import gc
    from torch.profiler import ProfilerActivity, profile
    from torch._C._profiler import _EventType
    gc.collect()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        result = fn()
    # The running sum of the allocations and frees recorded (a free of a
    # block allocated before is not recorded; the allocator's own running
    # total is not used: it keeps what earlier profiles allocated and freed
    # after them).
    events = []
    stack = list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:
        e = stack.pop()
        if e.tag == _EventType.Allocation:
            events.append((e.start_time_ns, e.extra_fields.alloc_size))
        stack.extend(e.children)
    live = peak = 0
    for _, size in sorted(events):
        live += size
        peak = max(peak, live)
    return result, peak


class TorchPlan:
    """ckpt's plan of a training step as PyTorch graphs (see the module's
    docstring). Attributes: `saved` (the names of the traced step's nodes
    saved for the backward), `forward` and `backward` (torch.fx
    GraphModules), `numbers` (the plan: budget, peak, time, store_all_peak,
    store_all_time, in ckpt's memory and cost model), `params` (the
    parameter names, in the order the graphs take them), `args` (the
    inputs and target as traced: what `plan(*args)` takes)."""

    def __init__(self, module, info, fw, bw, saved, numbers):
        self.module = module
        self.params = list(info["params"])
        self.args = list(info["args"])
        self.forward, self.backward = boxed(fw), boxed(bw)
        self.saved = saved
        self.numbers = numbers
        self._names = [n.name for n in fw.graph.find_nodes(op="output")[0].args[0]][1:]
        self._bw_inputs = [n.name for n in bw.graph.find_nodes(op="placeholder")]

    def __call__(self, *args):
        """The loss of the step on `args` (the inputs, then the target unless
        the model computes its loss, as `self.args`), with the module's
        current parameters; its backward runs the plan's backward graph and
        accumulates the parameters' .grad."""
        import torch
        named = dict(self.module.named_parameters())
        params = [named[n] for n in self.params]
        if len(args) != len(self.args):
            raise ValueError(f"the step takes {len(self.args)} tensors (inputs, then the "
                             f"target unless the model computes its loss), not {len(args)}")
        return _PlannedStep.apply(self, len(args), *args, *params)


def _planned_step():
    import torch

    class PlannedStep(torch.autograd.Function):
        @staticmethod
        def forward(ctx, plan, n_args, *primals):
            out = plan.forward([p.detach() for p in primals])
            ctx.plan, ctx.n_args = plan, n_args
            ctx.saved = dict(zip(plan._names, out[1:]))
            return out[0]

        @staticmethod
        def backward(ctx, grad):
            saved, ctx.saved = ctx.saved, None
            args = [grad if n.startswith("tangents_") else saved.pop(n)
                    for n in ctx.plan._bw_inputs]
            del saved
            grads = ctx.plan.backward(args)
            return (None, None) + (None,) * ctx.n_args + tuple(grads)

    return PlannedStep


class _Lazy:
    """_PlannedStep, made on first use (torch imported then)."""
    cls = None

    def apply(self, *a):
        if _Lazy.cls is None:
            _Lazy.cls = _planned_step()
        return _Lazy.cls.apply(*a)


_PlannedStep = _Lazy()


def _real_args(traced, example_inputs, target):
    """The step's arguments as traced (`traced`: inputs, then the target
    unless the model computes its loss), with a real target: a fake trace
    keeps only the shape of a one-hot target it makes of class indices."""
    import torch
    args = list(traced)
    n = len(args) - (0 if target is None else 1)
    if target is not None:
        t = args[n]
        if t.is_floating_point() and not target.is_floating_point() and t.dim() == 2:
            t = torch.nn.functional.one_hot(target.long(), t.shape[1]).to(t.dtype)
        else:
            t = target.to(t.dtype)
        args[n] = t
    return args


class StepPlanner:
    """The training step of `module`, traced and imported once (located), to
    plan at several budgets: `plan(budget)` is a TorchPlan. Arguments as
    torch_policy's; attributes `text` (the located step), `info`
    (import_module_info's), `joint` (the step as aot_autograd's joint
    graph)."""

    def __init__(self, module, example_inputs, target=None, loss="cross_entropy"):
        import shutil
        from .api import import_module_info
        from .policies import _as_joint_graph
        if shutil.which("ckpt-opt") is None:
            raise ValueError("ckpt-opt is not on PATH: add the build's bin folder "
                             "(PATH=build/bin:$PATH after scripts/setup.sh)")
        self.module, self.loss = module, loss
        self.text, self.info = import_module_info(module, example_inputs, target, loss,
                                                  name="planned", locations=True)
        self.info["args"] = _real_args(self.info["args"], example_inputs, target)
        self.phases = _phases(self.info["graph"])
        self.joint = _as_joint_graph(self.info["graph"])
        from .. import remat
        with tempfile.TemporaryDirectory() as d:     # wrapped once, planned per budget
            step = os.path.join(d, "step.mlir")
            with open(step, "w") as f:
                f.write(self.text)
            self.wrapped = remat.run(["ckpt-opt", step, "--ckpt-wrap-step",
                                      *LOCATED]).stdout

    def plan(self, budget, options="", tmp=None, schedule="ckpt"):
        """The TorchPlan of ckpt-plan at `budget` (with ckpt-plan `options`);
        temporary files in a directory under `tmp`. `schedule`: "ckpt" (the
        backward in the rewritten step's order, recomputations where ckpt
        places them) or "pytorch" (only the saved values from ckpt; each
        other value recomputed once, where PyTorch's partitioners place it)."""
        if schedule not in ("ckpt", "pytorch"):
            raise ValueError(f"schedule '{schedule}': expected 'ckpt' or 'pytorch'")
        if re.search(r"\boffload=(?!none\b)", options):
            raise ValueError("offload: PyTorch's forward/backward split has no host "
                             "transfers; plan without offload")
        from .. import remat
        with tempfile.TemporaryDirectory(dir=tmp) as d:
            wrapped = os.path.join(d, "wrapped.mlir")
            with open(wrapped, "w") as f:
                f.write(self.wrapped)
            path, _, numbers = remat.plan(wrapped, budget, d, options, flags=LOCATED)
            rewritten = os.path.join(d, "rewritten.mlir")
            remat.run(["ckpt-opt", path, "--ckpt-rematerialize", *LOCATED, "-o", rewritten])
            with open(rewritten) as f:
                kept, order = read_rewritten(f.read(), *self.phases)
        saved = _saved_nodes(self.joint, kept)
        if schedule == "pytorch":
            fw, bw = split(self.joint, saved)
        else:
            # The forward returns what ckpt's backward reads: the saved
            # values it reads, and the primals its recomputations start from.
            bw = scheduled_backward(self.joint, saved, order)
            nodes = {n.name: n for n in self.joint.graph.nodes}
            saved = [nodes[p.name] for p in bw.graph.find_nodes(op="placeholder")
                     if p.name != "tangents_1"]
            fw = forward_saving(self.joint, saved)
        return TorchPlan(self.module, self.info, fw, bw, sorted(n.name for n in saved),
                         numbers)


def torch_policy(module, example_inputs, target=None, budget="70%",
                 loss="cross_entropy", options="", tmp=None, schedule="ckpt"):
    """ckpt's plan of `module`'s training step at `budget` (ckpt-plan's
    syntax: "60%" of the step's store-all peak, or bytes), as a TorchPlan
    PyTorch trains with. `example_inputs`, `target` and `loss` are those of
    import_module (`loss="model"` for a model that computes its own loss,
    target None); `options` more ckpt-plan options (e.g. "device=a100").
    ckpt-opt must be on PATH. Raises ckpt.remat.Infeasible (its `least`
    the least feasible budget) when the budget is below what ckpt can
    reach, ValueError when the step cannot be imported. `schedule`: see
    StepPlanner.plan."""
    return StepPlanner(module, example_inputs, target, loss).plan(budget, options, tmp,
                                                                  schedule)
