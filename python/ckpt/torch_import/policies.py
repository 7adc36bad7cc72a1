"""Keep policies: which forward values a baseline keeps, as `ckpt.checkpoint`
marks for `ckpt-plan{strategy=keep}`.

The policies users know from PyTorch and Megatron-LM, over the *blocks* of a
model (the repeated modules: transformer layers, residual blocks):

  blocks     `torch.utils.checkpoint` on every block: a block keeps only its
             input; everything inside is recomputed in its backward.
  attention  Megatron-LM's selective recompute: keep everything but the
             attention core (the scores, mask, softmax and dropout between the
             two batched matmuls of an attention module, or PyTorch 2's fused
             attention kernel, scaled_dot_product_attention); recompute that.
  matmuls    PyTorch's selective activation checkpointing with the policy
             "save the matmuls" (torchtitan's): inside blocks, keep the outputs
             of matrix products (mm, addmm, bmm, baddbmm, convolution) and of
             the fused attention kernel, and recompute the rest.

Under every policy, what lies outside the blocks (embeddings, the head, the
loss) is kept, and so is every value a block passes on to the rest of the
forward (its output).

And the decision of PyTorch's own planner, on the same joint graph:

  partitioner[:B[:S]]  torch.compile's min-cut partitioner
             (`torch._functorch.partitioners.min_cut_rematerialization_partition`)
             with `activation_memory_budget = B` (default 1.0: its plain
             min cut) and knapsack solver S (`dp`, its default, `greedy` or
             `ilp`): keep the forward values it saves for the backward.
             The step's traced graph is handed to it as aot_autograd's
             joint graph (inputs and parameters as primals, the loss's seed
             gradient as the tangent, in-place ops as their functional
             forms), so the values it chooses are the step's own.

Part of ckpt.torch_import (see its docstring).
"""

import re
from collections import Counter

HAND_WRITTEN = ("blocks", "attention", "matmuls")
POLICIES = HAND_WRITTEN + ("partitioner[:B[:S]]",)   # as the messages list them
SOLVERS = ("dp", "greedy", "ilp")

# PyTorch 2's fused attention kernels: the attention core in one op (its
# outputs: the context and the logsumexp).
_ATTENTION_KERNELS = {"_scaled_dot_product_flash_attention_for_cpu",
                      "_scaled_dot_product_flash_attention",
                      "_scaled_dot_product_efficient_attention",
                      "_scaled_dot_product_cudnn_attention"}
# torchtitan's "save the matmuls" list saves the fused attention's outputs too.
_MATMULS = {"mm", "addmm", "bmm", "baddbmm", "convolution", "matmul"} | _ATTENTION_KERNELS
_BATCHED = {"bmm", "baddbmm"}
# Ops whose result is a view (an alias) of their first input: autograd saves
# such views (a detach of softmax's output), which must follow their input.
_ALIASES = {"detach", "alias", "view", "_unsafe_view", "reshape", "transpose", "t",
            "permute", "expand", "unsqueeze", "squeeze", "slice", "select",
            "as_strided", "getitem"}


def _op(node):
    """'aten.mm.default' -> 'mm'."""
    name = getattr(node.target, "__name__", str(node.target))
    return name.split(".")[0]


def block_class(spans, name=None):
    """The class whose instances are the blocks: `name` when given (checked),
    else the class of the modules that are numbered children of a container
    (path ending in '.<n>'), at least two of them, covering the most graph
    positions."""
    classes = Counter()
    counts = Counter()
    for path, cls, start, end in spans:
        if re.search(r"(^|\.)\d+$", path):
            classes[cls] += end - start
            counts[cls] += 1
    if name is not None:
        if not any(cls == name for _, cls, _, _ in spans):
            known = sorted({cls for _, cls, _, _ in spans})
            raise ValueError(f"no module of class '{name}' runs in the forward "
                             f"(classes: {', '.join(known)})")
        return name
    candidates = [c for c in classes if counts[c] >= 2]
    if not candidates:
        raise ValueError("no repeated blocks found (numbered children of a "
                         "Sequential or ModuleList): give --block-class")
    return max(candidates, key=lambda c: (classes[c], c))


def parse_policy(policy):
    """(name, budget, solver) of a keep policy; budget and solver only for
    'partitioner'. Raises ValueError for an unknown or malformed one."""
    if not isinstance(policy, str):
        raise ValueError(f"keep policy {policy!r} is not a string")
    name, *rest = policy.split(":")
    if name in HAND_WRITTEN and not rest:
        return name, None, None
    if name != "partitioner" or len(rest) > 2:
        raise ValueError(f"unknown keep policy '{policy}': expected "
                         f"{', '.join(POLICIES)}")
    try:
        budget = float(rest[0]) if rest else 1.0
    except ValueError:
        budget = -1.0
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"keep policy '{policy}': the budget is a fraction in [0, 1] "
                         "(torch.compile's activation_memory_budget)")
    solver = rest[1] if len(rest) > 1 else "dp"
    if solver not in SOLVERS:
        raise ValueError(f"keep policy '{policy}': unknown solver '{solver}': expected "
                         f"{', '.join(SOLVERS)}")
    return name, budget, solver


def loss_seed(gm, what=""):
    """The node of the traced step `gm` that seeds the backward: ones_like of
    the loss (its first result). Raises ValueError (prefixed by `what`) when
    there is not exactly one."""
    import torch
    loss = list(gm.graph.nodes)[-1].args[0][0]
    seeds = [u for u in loss.users if u.target is torch.ops.aten.ones_like.default]
    if len(seeds) != 1:
        raise ValueError(f"{what}the loss's seed gradient (ones_like of the loss) is "
                         "not in the traced step")
    return seeds[0]


def _as_joint_graph(gm):
    """A copy of the traced step `gm` in the form of aot_autograd's joint
    graph, for PyTorch's partitioner: placeholders renamed primals_1..N, the
    seed gradient of the loss (ones_like of the first output) a placeholder
    tangents_1, mutating ops as their functional forms (their later readers
    read the result). Node names are kept, so decisions map back by name."""
    import copy
    import torch
    g = copy.deepcopy(gm)
    graph = g.graph
    nodes = list(graph.nodes)
    order = {n: i for i, n in enumerate(nodes)}
    placeholders = [n for n in nodes if n.op == "placeholder"]
    for k, n in enumerate(placeholders):
        n.target = n.name = f"primals_{k + 1}"
    seed = loss_seed(g, "keep policy 'partitioner': ")
    for n in nodes:
        t = n.target
        if isinstance(t, torch._ops.OpOverload) and t._schema.is_mutable:
            base = n.args[0]
            op = t._schema.name.split("::")[1].rstrip("_")
            functional = getattr(getattr(torch.ops.aten, op, None), t._overloadname, None)
            if functional is None or not isinstance(base, torch.fx.Node):
                raise ValueError(f"keep policy 'partitioner': no functional form of "
                                 f"the in-place op {t} (node {n.name}) for PyTorch's "
                                 "partitioner")
            n.target = functional
            for u in list(base.users):
                if u is not n and order[u] > order[n]:
                    u.replace_input_with(base, n)
    with graph.inserting_after(placeholders[-1]):
        tangent = graph.placeholder("tangents_1")
    tangent.meta = dict(seed.meta)
    seed.replace_all_uses_with(tangent)
    graph.erase_node(seed)
    g.recompile()
    return g


def partitioner_split(gm, budget=1.0, solver="dp"):
    """(forward, backward) GraphModules of PyTorch's min-cut partitioner
    (`min_cut_rematerialization_partition`) on `gm` (a traced step) in
    aot_autograd's joint form, at activation_memory_budget `budget` with
    knapsack solver `solver`. Raises ValueError naming PyTorch's failure."""
    import logging
    from torch._functorch import config, partitioners
    joint = _as_joint_graph(gm)
    logger = logging.getLogger("torch._functorch.partitioners")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with config.patch(activation_memory_budget=budget,
                          activation_memory_budget_solver=solver):
            return partitioners.min_cut_rematerialization_partition(
                joint, [], num_fwd_outputs=1)
    except Exception as e:  # noqa: BLE001 - PyTorch's own failure, reported
        raise ValueError(f"keep policy 'partitioner:{budget}:{solver}': PyTorch's "
                         f"partitioner failed: {type(e).__name__}: "
                         f"{str(e).splitlines()[0] if str(e) else ''}") from None
    finally:
        logger.setLevel(level)


def partitioner_saved(gm, budget=1.0, solver="dp"):
    """The names of the nodes of `gm` (a traced step) that PyTorch's min-cut
    partitioner saves for the backward at activation_memory_budget `budget`
    with knapsack solver `solver` (the placeholders excluded)."""
    fw, _ = partitioner_split(gm, budget, solver)
    outputs = list(fw.graph.nodes)[-1].args[0]
    return {o.name for o in outputs[1:] if o is not None and not o.name.startswith(
        ("primals_", "tangents_"))}


def keep_nodes(gm, scopes, policy, block_cls=None):
    """The forward nodes of `gm` to keep under `policy` (a set of nodes), and
    the block class used (None for 'partitioner'). `scopes` is the trace's
    _Scopes (None for 'partitioner', which needs no blocks)."""
    name, budget, solver = parse_policy(policy)
    if name == "partitioner":
        saved = partitioner_saved(gm, budget, solver)
        return {n for n in gm.graph.nodes if n.op == "call_function" and n.name in saved}, None
    if scopes.forward_end is None:
        raise ValueError("internal error: the forward's end was not recorded")
    cls = block_class(scopes.spans, block_cls)
    blocks = sorted((start, end) for _, c, start, end in scopes.spans if c == cls)
    attention = sorted((start, end) for _, c, start, end in scopes.spans
                       if "attention" in c.lower())
    if policy == "attention" and not attention:
        raise ValueError("keep policy 'attention': no attention module (a class "
                         "whose name contains 'Attention') runs in the forward")

    def inside(spans, pos):
        for start, end in spans:
            if start <= pos < end:
                return (start, end)
        return None

    forward = [n for n in gm.graph.nodes if n.op == "call_function"
               and scopes.position.get(n, scopes.forward_end) < scopes.forward_end]
    is_forward = set(forward)
    block_of = {n: inside(blocks, scopes.position[n]) for n in forward}

    core = set()
    if policy == "attention":
        # Per attention call: the nodes downstream of one of its batched
        # matmuls (included) and upstream of another (excluded).
        by_span = {}
        for n in forward:
            span = inside(attention, scopes.position[n])
            if span is not None:
                by_span.setdefault(span, []).append(n)
        for nodes in by_span.values():
            fused = {n for n in nodes if _op(n) in _ATTENTION_KERNELS}
            if fused:           # PyTorch 2: the core is the fused kernel
                core |= fused
                continue
            members = set(nodes)
            down = set()
            for n in nodes:  # in graph order
                if _op(n) in _BATCHED or any(a in down for a in n.all_input_nodes):
                    down.add(n)
            up = set()
            for n in reversed(nodes):
                if any(u in members and (_op(u) in _BATCHED or u in up)
                       for u in n.users):
                    up.add(n)
            core |= down & up
        # Views of the core are the core.
        for n in forward:
            if (n not in core and _op(n) in _ALIASES and n.all_input_nodes
                    and n.all_input_nodes[0] in core):
                core.add(n)

    keep = set()
    for n in forward:
        block = block_of[n]
        if block is None:
            keep.add(n)
            continue
        # A value the rest of the forward reads leaves the block: kept.
        if any(u in is_forward and block_of.get(u) != block for u in n.users):
            keep.add(n)
            continue
        if policy == "matmuls" and (_op(n) in _MATMULS or (
                _op(n) == "getitem" and n.all_input_nodes[0] in keep)):
            keep.add(n)
        elif policy == "attention" and n not in core:
            keep.add(n)
    return keep, cls
