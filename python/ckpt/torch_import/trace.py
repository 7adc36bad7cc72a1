"""Tracing a training step with make_fx, functionalization, user models.

Part of ckpt.torch_import (see its docstring).
"""

import copy
import os
import re
import time


# ---------------------------------------------------------------------------
# Tracing.

_DECOMPOSED = [
    "native_batch_norm", "native_batch_norm_backward", "native_layer_norm",
    "native_layer_norm_backward", "native_group_norm", "native_group_norm_backward",
    "_softmax", "_softmax_backward_data", "_log_softmax", "_log_softmax_backward_data",
    "nll_loss_forward", "nll_loss_backward", "mse_loss", "mse_loss_backward",
    "leaky_relu", "leaky_relu_backward",
    "hardswish", "hardswish_backward", "hardsigmoid", "hardsigmoid_backward",
    "logsumexp", "log_sigmoid_forward", "log_sigmoid_backward",
]

_META_REGISTERED = []


def _register_meta_kernels():
    """Fake-tensor tracing runs ops without a Meta kernel for real (on zeros
    of the right shapes): give the few ops a training step needs a Python
    Meta kernel, which only computes shapes. Registered once per process into
    torch's dispatcher (a correct shape function for aten ops that lack one)."""
    import torch
    if _META_REGISTERED:
        return
    lib = torch.library.Library("aten", "IMPL", "Meta")
    _META_REGISTERED.append(lib)  # keep the registration alive

    def convolution_backward(grad_output, input, weight, bias_sizes, stride, padding,
                             dilation, transposed, output_padding, groups, output_mask):
        return (input.new_empty(input.shape) if output_mask[0] else None,
                weight.new_empty(weight.shape) if output_mask[1] else None,
                grad_output.new_empty((grad_output.shape[1],)) if output_mask[2] else None)

    def adaptive_avg_pool2d_backward(grad_output, self):
        return self.new_empty(self.shape)

    for name, fn in (("convolution_backward", convolution_backward),
                     ("_adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward)):
        if not torch._C._dispatch_has_kernel_for_dispatch_key("aten::" + name, "Meta"):
            lib.impl(name, fn)


def _prepare(module, dropout=False):
    """A copy of `module` in training mode with batch-norm running statistics
    dropped, and dropout off unless `dropout` (nn.Dropout modules in eval
    mode, nn.MultiheadAttention's dropout probability set to 0)."""
    import torch
    from torch import nn
    # A copy of the module objects only: parameters and buffers are shared
    # (they are passed in or read, never changed).
    memo = {id(t): t for t in list(module.parameters()) + list(module.buffers())}
    model = copy.deepcopy(module, memo)
    model.train()
    for mod in model.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            mod.track_running_stats = False
            mod.running_mean = None
            mod.running_var = None
            mod.num_batches_tracked = None
        if dropout:
            continue
        if isinstance(mod, nn.modules.dropout._DropoutNd) or \
                type(mod).__name__ == "StochasticDepth":
            mod.eval()
        if isinstance(mod, nn.MultiheadAttention):
            mod.dropout = 0.0
    for name, buf in model.named_buffers():
        if buf is not None and not isinstance(buf, torch.Tensor):
            raise ValueError(f"buffer {name} is not a tensor")
    return model


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _meta_output_shape(model, inputs):
    """The shape of the model's output for `inputs`, computed on the meta
    device (shapes only); None when the model cannot run there."""
    import torch
    from torch.nn.utils.stateless import functional_call
    try:
        with torch.no_grad():
            meta = {n: torch.empty_like(t, device="meta")
                    for n, t in list(model.named_parameters()) + list(model.named_buffers())}
            out = functional_call(model, meta, tuple(x.to("meta") for x in inputs))
            return tuple(_output(out).shape)
    except Exception:  # noqa: BLE001
        return None


def _shape(text, what):
    """'8x3x224x224' -> (8, 3, 224, 224)."""
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        dims = ()
    if not dims or any(d < 1 for d in dims):
        raise ValueError(f"{what} must be positive sizes separated by 'x' "
                         f"(e.g. 8x3x224x224), not '{text}'")
    return dims


def load_user_model(spec):
    """The model of `spec`, 'path/to/file.py:Name': the file is loaded as a
    module, and Name (an nn.Module class or a function returning a module)
    is called with no arguments. Returns (module, name)."""
    import importlib.util
    import torch
    path, _, attr = spec.rpartition(":")
    if not path or not attr:
        raise ValueError(f"'{spec}' is not a built-in model or path/to/file.py:Name")
    if not os.path.isfile(path):
        raise ValueError(f"no such file: '{path}'")
    mod_name = "ckpt_user_model_" + re.sub(r"\W", "_", os.path.basename(path))
    module_spec = importlib.util.spec_from_file_location(mod_name, path)
    if module_spec is None:
        raise ValueError(f"cannot load '{path}' as a Python module")
    user = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(user)
    except Exception as e:  # noqa: BLE001
        raise ValueError(f"loading '{path}' failed: {type(e).__name__}: {e}") from None
    obj = getattr(user, attr, None)
    if obj is None:
        known = [n for n, v in vars(user).items() if not n.startswith("_") and callable(v)]
        raise ValueError(f"'{path}' has no '{attr}' (callables there: "
                         f"{', '.join(known) or 'none'})")
    if not callable(obj):
        raise ValueError(f"'{attr}' in '{path}' is not a class or a function")
    try:
        model = obj()
    except Exception as e:  # noqa: BLE001
        raise ValueError(f"calling {attr}() failed: {type(e).__name__}: {e}") from None
    if not isinstance(model, torch.nn.Module):
        raise ValueError(f"{attr}() returned a {type(model).__name__}, not a torch.nn.Module")
    return model, attr


def user_inputs(model, input_shape, input_dtype="float32", target_shape=None,
                loss="cross_entropy", seed=0):
    """Example input and target for a user model: the input of `input_shape`
    (uniform in [-0.5, 0.5) for floats, zeros for integers: valid indices for
    any embedding), and a target of `target_shape` (class indices when it
    has one dimension and the loss is cross_entropy) or, by default, of the
    output's shape (one-hot class probabilities for cross_entropy)."""
    import torch
    gen = torch.Generator().manual_seed(seed)
    dtypes = {"float32": torch.float32, "float64": torch.float64,
              "int64": torch.int64, "int32": torch.int32}
    if input_dtype not in dtypes:
        raise ValueError(f"unknown input dtype '{input_dtype}': expected "
                         f"{', '.join(dtypes)}")
    dt = dtypes[input_dtype]
    if dt.is_floating_point:
        x = (torch.rand(*input_shape, generator=gen) - 0.5).to(dt)
    else:
        x = torch.zeros(*input_shape, dtype=dt)
    if target_shape is None:
        out = _meta_output_shape(_prepare(model), (x,))
        if out is None:
            raise ValueError("cannot infer the output's shape for the target: "
                             "give --target-shape")
        target_shape = out
    if loss == "cross_entropy" and len(target_shape) == 1:
        return x, torch.zeros(*target_shape, dtype=torch.int64)
    if loss == "cross_entropy":
        labels = torch.randint(0, target_shape[-1], target_shape[:-1], generator=gen)
        return x, torch.nn.functional.one_hot(labels, target_shape[-1]).to(torch.float32)
    return x, torch.rand(*target_shape, generator=gen) * 2 - 1


def _graph_len():
    """The number of nodes of the graph make_fx is building (None outside a
    trace)."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    for mode in _get_current_dispatch_mode_stack():
        tracer = getattr(mode, "tracer", None)
        if tracer is not None and hasattr(tracer, "graph"):
            return len(tracer.graph.nodes)
    return None


class _Scopes:
    """Which module's forward created each node of a traced step.

    Forward hooks record, for every module call, the span of graph positions
    [start, end) its nodes take (make_fx appends nodes in dispatch order);
    the step records where the forward (model and loss) ends. After
    functionalization, each node of the new graph takes the position of the
    node of the first graph it was traced from."""

    def __init__(self):
        self.spans = []         # (module path, class name, start, end)
        self.forward_end = None
        self.position = {}      # node of the final graph -> first-graph position
        self._open = []
        self._handles = []

    def attach(self, model):
        for path, mod in model.named_modules():
            if not path:
                continue
            self._handles.append(mod.register_forward_pre_hook(
                lambda m, i, path=path: self._enter(path, type(m).__name__)))
            self._handles.append(mod.register_forward_hook(
                lambda m, i, o, path=path: self._exit(path)))

    def detach(self):
        for h in self._handles:
            h.remove()
        self._handles = []

    def _enter(self, path, cls):
        n = _graph_len()
        if n is not None:
            self._open.append((path, cls, n))

    def _exit(self, path):
        n = _graph_len()
        if n is None or not self._open or self._open[-1][0] != path:
            return
        p, cls, start = self._open.pop()
        self.spans.append((p, cls, start, n))

    def end_forward(self):
        n = _graph_len()
        if n is not None and self.forward_end is None:
            self.forward_end = n


def _trace(module, example_inputs, target, loss, tracing_mode, dropout=False,
           scopes=None):
    """make_fx of the training step. Returns (graph module, parameter names,
    parameter shapes, input tensors, target tensor, seconds). With `scopes`
    (a _Scopes), records which module created each node."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch._decomp import get_decompositions
    from torch.nn.utils.stateless import functional_call

    aten = torch.ops.aten
    if loss not in ("cross_entropy", "mse"):
        raise ValueError(f"unknown loss '{loss}': expected cross_entropy or mse")
    model = _prepare(module, dropout)
    named = [(n, p) for n, p in model.named_parameters()]
    if not named:
        raise ValueError("the model has no parameters: there is nothing to train")
    names = [n for n, _ in named]
    inputs = _as_tuple(example_inputs)
    for i, x in enumerate(inputs):
        if not isinstance(x, torch.Tensor):
            raise ValueError(f"example input {i} is not a tensor")
    if not isinstance(target, torch.Tensor):
        raise ValueError("the target is not a tensor")

    # The output's shape, for checking the target (and class count): the
    # model run on the meta device (shapes only). Where that fails, the trace
    # below reports the error.
    out_shape = _meta_output_shape(model, inputs)
    if out_shape is None:
        target = target.to(torch.float32) if target.is_floating_point() else target
    elif loss == "cross_entropy":
        if len(out_shape) != 2:
            raise ValueError(f"cross_entropy needs a [N, classes] output, the model "
                             f"gives {list(out_shape)}")
        if not target.is_floating_point():
            if tuple(target.shape) != out_shape[:1]:
                raise ValueError(f"class-index target of shape {list(target.shape)} "
                                 f"for an output of shape {list(out_shape)}")
            if tracing_mode == "fake":
                # Only its shape and type are traced: no [N, classes] one-hot
                # built (1.6 GB and 20 s for GPT-2's vocabulary at 8 x 1024).
                target = torch.empty(out_shape[0], out_shape[1])
            else:
                target = torch.nn.functional.one_hot(target.long(), out_shape[1])
        target = target.to(torch.float32)
    else:
        target = target.to(torch.float32)
    if out_shape is not None and tuple(target.shape) != out_shape:
        raise ValueError(f"target of shape {list(target.shape)} for an output of "
                         f"shape {list(out_shape)}")

    n_in = len(inputs)

    def step(*args):
        xs, t, ps = args[:n_in], args[n_in], args[n_in + 1:]
        out = _output(functional_call(model, dict(zip(names, ps)), tuple(xs)))
        if loss == "cross_entropy":
            value = torch.nn.functional.cross_entropy(out, t)
        else:
            value = torch.nn.functional.mse_loss(out, t)
        if scopes is not None:
            scopes.end_forward()
        grads = torch.autograd.grad(value, ps, allow_unused=True)
        return (value,) + tuple(g if g is not None else torch.zeros_like(p)
                                for g, p in zip(grads, ps))

    params = [p.detach().requires_grad_() for _, p in named]
    decomp = get_decompositions([getattr(aten, n) for n in _DECOMPOSED if hasattr(aten, n)])
    if tracing_mode == "fake":
        _register_meta_kernels()
    start = time.perf_counter()
    if scopes is not None:
        scopes.attach(model)
    try:
        gm = make_fx(step, decomposition_table=decomp, tracing_mode=tracing_mode)(
            *[x.detach() for x in inputs], target.detach(), *params)
    except Exception as e:  # noqa: BLE001
        kind = type(e).__name__
        hint = ""
        if "Dynamic" in kind or "DataDependent" in kind or "symbolic" in str(e).lower():
            hint = " (data-dependent or dynamic shapes are not supported)"
        raise ValueError(f"cannot trace the training step{hint}: {kind}: {e}") from None
    finally:
        if scopes is not None:
            scopes.detach()
    seconds = time.perf_counter() - start
    # The first graph's positions of its nodes (the scopes' numbering).
    first = {node: i for i, node in enumerate(gm.graph.nodes)} if scopes is not None else {}
    functionalized = not _inplace_rewrite_is_safe(gm.graph)
    if functionalized:
        from functorch.experimental import functionalize
        origin = []   # (first position, start, end) in the new graph

        class _Origins(torch.fx.Interpreter):
            def run_node(self, n):
                begin = _graph_len()
                out = super().run_node(n)
                if begin is not None:
                    origin.append((first[n], begin, _graph_len()))
                return out

        source = gm
        fn = gm if scopes is None else (lambda *a: _Origins(source).run(*a))
        try:
            gm = make_fx(functionalize(fn), tracing_mode=tracing_mode)(
                *[x.detach() for x in inputs], target.detach(), *params)
        except Exception as e:  # noqa: BLE001
            raise ValueError(f"cannot functionalize the traced step: "
                             f"{type(e).__name__}: {e}") from None
        seconds = time.perf_counter() - start
        if scopes is not None:
            nodes = list(gm.graph.nodes)
            for pos, begin, end in origin:
                for node in nodes[begin:end]:
                    scopes.position[node] = pos
    elif scopes is not None:
        scopes.position = first
    return (gm, names, [tuple(p.shape) for p in params], inputs, target, seconds,
            functionalized)


def _output(out):
    """The tensor a model returns (the first field of a named tuple such as
    torchvision's InceptionOutputs)."""
    import torch
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        return out[0]
    if hasattr(out, "logits"):
        return out.logits
    raise ValueError(f"the model returns {type(out).__name__}, not a tensor")


def _schema(node):
    target = node.target
    return getattr(target, "_schema", None)


def _mutates_first(node):
    schema = _schema(node)
    if schema is None or not schema.arguments:
        return False
    info = schema.arguments[0].alias_info
    return info is not None and info.is_write


def _mutates_other(node):
    schema = _schema(node)
    if schema is None:
        return False
    return any(a.alias_info is not None and a.alias_info.is_write
               for a in schema.arguments[1:])


def _is_view(node):
    schema = _schema(node)
    if schema is None or not schema.returns:
        return False
    info = schema.returns[0].alias_info
    return info is not None and not info.is_write


def _inplace_rewrite_is_safe(graph):
    """The emitter treats `op_(a, ...)` as `a = op(a, ...)`: every later use
    of `a` reads the new value. That is exact when `a` is a fresh tensor (not
    a view, not an input; or the result of such an in-place op) and no view
    of its storage was taken before the mutation. Otherwise the graph must be
    functionalized."""
    from torch.fx import Node
    root = {}      # node -> the node owning its storage
    views = {}     # storage root -> positions of the views taken of it
    for pos, node in enumerate(graph.nodes):
        root[node] = node
        if node.op != "call_function":
            continue
        if _mutates_other(node):
            return False
        first = node.args[0] if node.args and isinstance(node.args[0], Node) else None
        if _mutates_first(node):
            if first is None or first.op != "call_function" or _is_view(first):
                return False
            base = root[first]
            if base.op != "call_function" or views.get(base):
                return False
            root[node] = base
        elif _is_view(node) and first is not None:
            root[node] = root[first]
            views.setdefault(root[first], []).append(pos)
    return True
