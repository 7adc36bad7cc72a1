"""Tracing a training step with make_fx, functionalization, user models.

Part of ckpt.torch_import (see its docstring).
"""

import copy
import os
import re
import time

from .losses import loss_value, model_loss, parse_loss


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
    # torch 2: the softmax of SDPA's math path (0 for rows masked whole);
    # F.normalize's norm (Swin V2's cosine attention)
    "_safe_softmax", "linalg_vector_norm",
    # beta * input + alpha * (a @ b): BLOOM's ALiBi scores; softplus (Apertus's
    # xIELU activation) -- both found by bench/hf_survey.py
    "baddbmm", "softplus", "softplus_backward",
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
    mode, as are stochastic depth (torchvision) and DropPath (timm);
    nn.MultiheadAttention's dropout probability set to 0; the functional
    dropouts are turned off while tracing, by _static_shapes)."""
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
    if not dropout:
        dropout_off(model)
    for name, buf in model.named_buffers():
        if buf is not None and not isinstance(buf, torch.Tensor):
            raise ValueError(f"buffer {name} is not a tensor")
    return model


def dropout_off(model):
    """Turns `model`'s dropout off in place, as a step imported without
    dropout has it: nn.Dropout modules, stochastic depth (torchvision) and
    DropPath (timm) in eval mode, nn.MultiheadAttention's dropout
    probability 0. Returns the model. (Eager PyTorch then computes what
    such a step computes.)"""
    from torch import nn
    for mod in model.modules():
        if isinstance(mod, nn.modules.dropout._DropoutNd) or \
                type(mod).__name__ in ("StochasticDepth", "DropPath"):
            mod.eval()
        if isinstance(mod, nn.MultiheadAttention):
            mod.dropout = 0.0
    return model


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


class _ModuleHooks:
    """Forward pre-hooks and hooks on every named submodule of a model
    (paths such as 'blocks.0.attn'): `_enter(path, class name)` runs as a
    module's forward starts, `_exit(path)` as it returns. The class name is
    taken when attaching: functional_call may swap in a subclass while it
    runs. The base of _Where and _Scopes."""

    def __init__(self):
        self._handles = []

    def attach(self, model):
        for path, mod in model.named_modules():
            if not path:
                continue
            self._handles.append(mod.register_forward_pre_hook(
                lambda m, i, path=path, cls=type(mod).__name__: self._enter(path, cls)))
            self._handles.append(mod.register_forward_hook(
                lambda m, i, o, path=path: self._exit(path)))
        return self

    def detach(self):
        for h in self._handles:
            h.remove()
        self._handles = []

    def _enter(self, path, cls):
        raise NotImplementedError

    def _exit(self, path):
        raise NotImplementedError


class _Where(_ModuleHooks):
    """Where the model is while it runs: the path of the innermost module
    whose forward is running, and whether the forward is over (the backward
    is being traced). After an exception the path stays where the exception
    left it."""

    def __init__(self):
        super().__init__()
        self.stack = []          # (path, class name)
        self.backward = False

    def _enter(self, path, cls):
        self.stack.append((path, cls))

    def _exit(self, path):
        while self.stack:
            if self.stack.pop()[0] == path:
                break

    def describe(self):
        if self.stack:
            path, cls = self.stack[-1]
            return f"in {path} ({cls})"
        return "in the backward" if self.backward else "in the model's top-level forward"


_TORCH_DIR = None


def _failure(e, where=None):
    """One line for an exception raised while running or tracing the model:
    the ATen op that failed (found in the traceback), the module path, the
    innermost source line outside torch and this file, and the exception's
    first line without tensor values (a FakeTensorMode error prints every
    argument)."""
    import torch
    global _TORCH_DIR
    if _TORCH_DIR is None:
        _TORCH_DIR = os.path.dirname(torch.__file__)
    op = None
    source = None
    here = os.path.abspath(__file__)
    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    for frame, line in reversed(frames):
        fn = frame.f_code.co_filename
        if op is None:
            func = frame.f_locals.get("func")
            if isinstance(func, torch._ops.OpOverload):
                op = str(func)
        if source is None and not fn.startswith(_TORCH_DIR) and \
                os.path.abspath(fn) != here and not fn.startswith("<"):
            source = f"{os.path.basename(fn)}:{line}"
    func = getattr(e, "func", None)
    if func is None and e.args and isinstance(e.args[0], torch._ops.OpOverload):
        func = e.args[0]
    if isinstance(func, torch._ops.OpOverload):
        op = str(func)
    msg = str(e).strip()
    if op == "aten._local_scalar_dense.default" or "get value out of a tracing" in msg:
        msg = ("a tensor's value is read in Python (.item(), int(), float(), bool(), "
               "or `if` on a tensor)")
    elif "DynamicOutputShape" in type(e).__name__:
        msg = "the output's shape depends on the values"
    for cut in ("Found in ", "\n"):
        if cut in msg:
            msg = msg[:msg.index(cut)].rstrip()
    msg = re.sub(r"tensor\(\[.*", "...", msg)
    if len(msg) > 240:
        msg = msg[:240] + "..."
    parts = [op or "", where.describe() if where is not None else "",
             f"at {source}" if source else ""]
    head = " ".join(p for p in parts if p)
    kind = type(e).__name__
    text = f"{kind}: {msg}" if msg and msg != op else kind
    return f"{head}: {text}" if head else text


def _data_dependent(e):
    kind = type(e).__name__
    return ("Dynamic" in kind or "DataDependent" in kind or "symbolic" in str(e).lower()
            or "get value out of a tracing tensor" in str(e))


_LENIENT = []


def _fake_mode():
    """A FakeTensorMode that takes real tensors too, converting them to fake
    ones: buffers and tensors the model holds (rotary tables, masks)
    or makes in forward. Under make_fx they are traced as constants of the
    graph (`get_attr` nodes, which the importer writes as dense constants)."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
    from torch.utils._pytree import tree_map_only
    if not _LENIENT:
        class _LenientFakeTensorMode(FakeTensorMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if func not in self.lift_fns:
                    args, kwargs = tree_map_only(
                        torch.Tensor,
                        lambda t: t if isinstance(t, FakeTensor) else self.from_tensor(t),
                        (args, kwargs))
                return super().__torch_dispatch__(func, types, args, kwargs)
        _LENIENT.append(_LenientFakeTensorMode)
    return _LENIENT[0]


def _new_fake_mode(**options):
    """A fake mode of _fake_mode() with fallback kernels, and those of
    `options` that this PyTorch takes (torch 2 has no
    throw_on_data_dependent_ops: it always raises on data-dependent ops)."""
    import inspect
    cls = _fake_mode()
    accepted = inspect.signature(cls.__init__).parameters
    kwargs = {k: v for k, v in dict(allow_fallback_kernels=True, **options).items()
              if k in accepted}
    return cls(**kwargs)


def _repeat_interleave(x, repeats, dim=None, *, output_size=None):
    """x.repeat_interleave(repeats, dim) for an int `repeats`, by a
    broadcast and a reshape: the same values, a static shape (PyTorch's
    own implementation goes through repeat_interleave.Tensor, whose output
    size depends on the values of the repeats)."""
    if dim is None:
        x = x.reshape(-1)
        dim = 0
    dim = dim % x.dim()
    shape = list(x.shape)
    y = x.unsqueeze(dim + 1).expand(*shape[:dim + 1], repeats, *shape[dim + 1:])
    return y.reshape(*shape[:dim], shape[dim] * repeats, *shape[dim + 1:])


def _known_tensor(t):
    """Whether `t` is a real tensor whose values are known while tracing
    (not a fake tensor, not a traced value): a buffer or a constant."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor
    return (isinstance(t, torch.Tensor) and not isinstance(t, FakeTensor)
            and type(t) is torch.Tensor and not t.is_floating_point()
            and t.device.type != "meta")


def _no_modes():
    """A context without the dispatch modes of the trace (fake tensors,
    make_fx) or torch-function modes: ops on real tensors run for real."""
    import contextlib
    import torch
    from torch.utils._python_dispatch import _get_current_dispatch_mode, _pop_mode_temporarily
    stack = contextlib.ExitStack()
    while _get_current_dispatch_mode() is not None:
        stack.enter_context(_pop_mode_temporarily())
    stack.enter_context(torch._C.DisableTorchFunction())
    return stack


def _static_shapes(dropout=True):
    """A TorchFunctionMode that rewrites the calls whose ATen form has a
    data-dependent shape though their result's shape is static:
    `repeat_interleave` with an int count (grouped-query attention). With
    `dropout` False, it also turns off the dropout that modules call as a
    function in training mode (Hugging Face's attention): F.dropout and its
    kin return their input, F.scaled_dot_product_attention gets dropout_p 0."""
    import torch
    import torch.nn.functional as F
    from torch.overrides import TorchFunctionMode
    dropouts = {F.dropout, F.dropout1d, F.dropout2d, F.dropout3d, F.alpha_dropout,
                F.feature_alpha_dropout}

    class _StaticShapes(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if not dropout and func in dropouts:
                return args[0] if args else kwargs["input"]
            if not dropout and func is F.scaled_dot_product_attention:
                # (query, key, value, attn_mask, dropout_p, ...)
                args = args[:4] + (0.0,) + args[5:] if len(args) > 4 else args
                kwargs = dict(kwargs, dropout_p=0.0) if "dropout_p" in kwargs else kwargs
                return func(*args, **kwargs)
            if func in (torch.repeat_interleave, torch.Tensor.repeat_interleave):
                rest = dict(kwargs)
                r = args[1] if len(args) > 1 else rest.pop("repeats", None)
                if isinstance(r, int) and args and isinstance(args[0], torch.Tensor):
                    dim = args[2] if len(args) > 2 else rest.pop("dim", None)
                    return _repeat_interleave(args[0], r, dim, **rest)
                if _known_tensor(r) and args and isinstance(args[0], torch.Tensor):
                    # Counts known while tracing (a buffer, a constant): an
                    # index_select by the static index they give.
                    dim = args[2] if len(args) > 2 else rest.pop("dim", None)
                    x = args[0].reshape(-1) if dim is None else args[0]
                    with _no_modes():   # real values, not fake ones
                        counts = r.reshape(-1).tolist()
                    if len(counts) == 1:
                        return _repeat_interleave(args[0], int(counts[0]), dim)
                    index = [i for i, c in enumerate(counts) for _ in range(int(c))]
                    with _no_modes():   # a real tensor, read as a constant
                        index = torch.tensor(index, dtype=torch.int64)
                    return x.index_select(0 if dim is None else dim, index)
            return func(*args, **kwargs)

    return _StaticShapes()


class _quiet_fake_tensor_log:
    """torch 2's FakeTensorMode logs every failing op's traceback at ERROR
    level before raising it; the importer reports the error itself in one
    line (_failure), so that log is silenced while tracing."""

    def __enter__(self):
        import logging
        self.logger = logging.getLogger("torch._subclasses.fake_tensor")
        self.level = self.logger.level
        self.logger.setLevel(logging.CRITICAL)
        return self

    def __exit__(self, *exc):
        self.logger.setLevel(self.level)
        return False


def _make_fx(fn, args, decomp, tracing_mode):
    """make_fx(fn)(*args); with tracing_mode 'fake', under a FakeTensorMode
    that takes real tensors too (see _fake_mode)."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    # Without oneDNN, nn.LSTM and nn.GRU trace to their cells' matmuls and
    # pointwise ops (torch 2 on the CPU otherwise calls mkldnn_rnn_layer).
    # The switch alone (torch.backends.mkldnn.flags also sets oneDNN's TF32,
    # with a warning on every machine without an Intel GPU).
    enabled = torch._C._get_mkldnn_enabled()
    torch._C._set_mkldnn_enabled(False)
    try:
        with _quiet_fake_tensor_log():
            if tracing_mode != "fake":
                return make_fx(fn, decomposition_table=decomp, tracing_mode=tracing_mode)(*args)
            mode = _new_fake_mode()
            fake = [mode.from_tensor(a) for a in args]
            with mode:
                return make_fx(fn, decomposition_table=decomp, tracing_mode="real")(*fake)
    finally:
        torch._C._set_mkldnn_enabled(enabled)


def _output_shape(model, inputs, own_loss=False):
    """The shape of the model's output for `inputs` (with `own_loss`, of the
    loss it returns), computed on fake tensors (shapes only): (shape, None),
    or (None, one line saying why the model cannot run)."""
    import torch
    from torch.func import functional_call
    where = _Where().attach(model)
    try:
        mode = _new_fake_mode(throw_on_data_dependent_ops=True)
        with torch.no_grad(), _quiet_fake_tensor_log():
            state = {n: mode.from_tensor(t) for n, t in model.named_parameters()}
            xs = tuple(mode.from_tensor(x) for x in inputs)
            with mode, _static_shapes():
                out = functional_call(model, state, xs)
            return tuple((model_loss(out) if own_loss else _output(out)).shape), None
    except Exception as e:  # noqa: BLE001
        return None, _failure(e, where)
    finally:
        where.detach()


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
        out, why = _output_shape(_prepare(model), (x,))
        if out is None:
            raise ValueError(_run_error(why, x))
        target_shape = out
    spec = parse_loss(loss)
    if spec.classes and (len(target_shape) == 1 or spec.indices):
        if len(target_shape) == 1:
            return x, torch.zeros(*target_shape, dtype=torch.int64)
        return x, torch.randint(0, target_shape[-1], target_shape[:-1], generator=gen)
    if spec.classes:
        labels = torch.randint(0, target_shape[-1], target_shape[:-1], generator=gen)
        return x, torch.nn.functional.one_hot(labels, target_shape[-1]).to(torch.float32)
    return x, torch.rand(*target_shape, generator=gen) * 2 - 1


# What a user changes when the model rejects its input: the flags of the
# command line that made the input (api.main sets them for built-in,
# torchvision, timm and hf: models while it runs, and restores them).
INPUT_FLAGS = ["--input-shape and --input-dtype"]


def _run_error(why, x):
    """The error of a model that cannot run on its example input `x`."""
    shape = "x".join(str(d) for d in x.shape)
    dtype = str(x.dtype).replace("torch.", "")
    if "DataDependent" in why or "DynamicOutputShape" in why:
        return f"cannot trace the model (data-dependent or dynamic shapes are not supported): {why}"
    return (f"the model fails on an input of shape {shape} ({dtype}; check "
            f"{INPUT_FLAGS[0]}): {why}")


def _graph_len():
    """The number of nodes of the graph make_fx is building (None outside a
    trace)."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    for mode in _get_current_dispatch_mode_stack():
        tracer = getattr(mode, "tracer", None)
        if tracer is not None and hasattr(tracer, "graph"):
            return len(tracer.graph.nodes)
    return None


class _Scopes(_ModuleHooks):
    """Which module's forward created each node of a traced step.

    Forward hooks record, for every module call, the span of graph positions
    [start, end) its nodes take (make_fx appends nodes in dispatch order);
    the step records where the forward (model and loss) ends. After
    functionalization, each node of the new graph takes the position of the
    node of the first graph it was traced from."""

    def __init__(self):
        super().__init__()
        self.spans = []         # (module path, class name, start, end)
        self.forward_end = None
        self.position = {}      # node of the final graph -> first-graph position
        self._open = []

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
    from torch._decomp import get_decompositions

    aten = torch.ops.aten
    spec = parse_loss(loss)     # raises ValueError for an unknown loss
    model = _prepare(module, dropout)
    named = [(n, p) for n, p in model.named_parameters()]
    if not named:
        raise ValueError("the model has no parameters: there is nothing to train")
    names = [n for n, _ in named]
    inputs = _as_tuple(example_inputs)
    own_loss = spec.kind == "model"
    _check_arguments(inputs, target, own_loss)

    # The output's shape, for checking the target (and class count): the
    # model run on the meta device (shapes only). Where that fails, the trace
    # below reports the error.
    out_shape, why = _output_shape(model, inputs, own_loss)
    if not own_loss:
        target = _step_target(spec, target, out_shape, tracing_mode)

    where = _Where()
    step = _step_function(model, names, spec, len(inputs), where, scopes, dropout)
    params = [p.detach().requires_grad_() for _, p in named]
    targets = [] if own_loss else [target.detach()]

    def args():
        return [x.detach() for x in inputs] + targets + params

    decomp = get_decompositions([getattr(aten, n) for n in _DECOMPOSED if hasattr(aten, n)])
    if tracing_mode == "fake":
        _register_meta_kernels()
    start = time.perf_counter()
    if scopes is not None:
        scopes.attach(model)
    where.attach(model)
    try:
        gm = _make_fx(step, args(), decomp, tracing_mode)
    except Exception as e:  # noqa: BLE001
        if why is not None and not _data_dependent(e):
            # The model does not even run on its input (a wrong shape or type).
            raise ValueError(f"cannot trace the training step: "
                             f"{_run_error(why, inputs[0])}") from None
        hint = (" (data-dependent or dynamic shapes are not supported)"
                if _data_dependent(e) else "")
        raise ValueError(f"cannot trace the training step{hint}: "
                         f"{_failure(e, where)}") from None
    finally:
        where.detach()
        if scopes is not None:
            scopes.detach()
    seconds = time.perf_counter() - start
    functionalized = not _inplace_rewrite_is_safe(gm.graph)
    if functionalized:
        gm = _functionalized(gm, args(), tracing_mode, scopes)
        seconds = time.perf_counter() - start
    elif scopes is not None:
        scopes.position = _positions(gm)
    _share_constants(gm)
    if spec.indices and out_shape is not None and len(out_shape) >= 2:
        # Class indices: the target's valid values are [0, classes) (the
        # index ops reach it through the loss's where(t != ignore_index)).
        gm.meta["ckpt_target_classes"] = out_shape[1]
    return (gm, names, [tuple(p.shape) for p in params], inputs, target, seconds,
            functionalized)


def _check_arguments(inputs, target, own_loss):
    """Raises ValueError unless every example input is a tensor, and the
    target is a tensor (None for a model computing its own loss)."""
    import torch
    for i, x in enumerate(inputs):
        if not isinstance(x, torch.Tensor):
            raise ValueError(f"example input {i} is not a tensor")
    if own_loss:
        if target is not None:
            raise ValueError("loss 'model' takes no target: the model computes its loss")
    elif not isinstance(target, torch.Tensor):
        raise ValueError("the target is not a tensor")


def _step_target(spec, target, out_shape, tracing_mode):
    """The target as the step takes it (float32, or int64 class indices with
    `spec.indices`; class indices one-hot otherwise), checked against the
    model's output shape `out_shape` (None when the model does not run: the
    trace then reports why). Raises ValueError when they do not match."""
    import torch
    if out_shape is None:
        return target.to(torch.float32) if target.is_floating_point() else target
    if spec.classes:
        if len(out_shape) != 2:
            raise ValueError(f"{spec.kind} needs a [N, classes] output, the model "
                             f"gives {list(out_shape)}")
        if spec.indices and target.is_floating_point():
            raise ValueError(f"loss '{spec.spec}' needs class indices [N] (integers), "
                             f"not a float target")
        if not target.is_floating_point():
            if tuple(target.shape) != out_shape[:1]:
                raise ValueError(f"class-index target of shape {list(target.shape)} "
                                 f"for an output of shape {list(out_shape)}")
            if spec.indices:
                # An integer argument of the step (losses.py).
                target = target.to(torch.int64)
            elif tracing_mode == "fake":
                # Only its shape and type are traced: no [N, classes] one-hot
                # built (1.6 GB and 20 s for GPT-2's vocabulary at 8 x 1024).
                target = torch.empty(out_shape[0], out_shape[1])
            else:
                target = torch.nn.functional.one_hot(target.long(), out_shape[1])
        if not spec.indices:
            target = target.to(torch.float32)
    else:
        target = target.to(torch.float32)
    if tuple(target.shape) != (out_shape[:1] if spec.indices else out_shape):
        raise ValueError(f"target of shape {list(target.shape)} for an output of "
                         f"shape {list(out_shape)}")
    return target


def _step_function(model, names, spec, n_in, where, scopes, dropout):
    """The training step make_fx traces: (inputs..., target unless the model
    computes its loss, parameters...) -> (loss, gradient of each parameter;
    zeros where the loss does not depend on it). It tells `where` when the
    backward starts, and `scopes` (when given) where the forward ends."""
    import torch
    from torch.func import functional_call
    own_loss = spec.kind == "model"
    n_t = 0 if own_loss else 1

    def step(*args):
        xs, ps = args[:n_in], args[n_in + n_t:]
        t = None if own_loss else args[n_in]
        where.stack.clear()
        where.backward = False
        with _static_shapes(dropout):
            out = functional_call(model, dict(zip(names, ps)), tuple(xs))
            value = loss_value(spec, out if own_loss else _output(out), t)
        where.backward = True
        if scopes is not None:
            scopes.end_forward()
        grads = torch.autograd.grad(value, ps, allow_unused=True)
        return (value,) + tuple(g if g is not None else torch.zeros_like(p)
                                for g, p in zip(grads, ps))
    return step


def _positions(gm):
    """Each node of `gm`'s graph -> its position (the scopes' numbering)."""
    return {node: i for i, node in enumerate(gm.graph.nodes)}


def _functionalized(gm, args, tracing_mode, scopes):
    """`gm` traced again on `args` through functorch's functionalize (its
    in-place ops on views or inputs made functional). With `scopes`, each
    node of the new graph takes the position (in `gm`) of the node it was
    traced from."""
    import torch
    from torch.func import functionalize
    first = _positions(gm) if scopes is not None else {}
    origin = []   # (first position, start, end) in the new graph

    class _Origins(torch.fx.Interpreter):
        def run_node(self, n):
            begin = _graph_len()
            out = super().run_node(n)
            if begin is not None:
                origin.append((first[n], begin, _graph_len()))
            return out

    fn = gm if scopes is None else (lambda *a: _Origins(gm).run(*a))
    try:
        new = _make_fx(functionalize(fn), args, None, tracing_mode)
    except Exception as e:  # noqa: BLE001
        raise ValueError(f"cannot functionalize the traced step: "
                         f"{_failure(e)}") from None
    if scopes is not None:
        nodes = list(new.graph.nodes)
        for pos, begin, end in origin:
            for node in nodes[begin:end]:
                scopes.position[node] = pos
    return new


def _share_constants(gm):
    """One `get_attr` node per constant tensor: make_fx adds one per use of
    a tensor the model holds (a buffer read by every layer), and one per
    tensor for equal buffers (a causal mask registered by every block);
    every use reads the first node instead, so the importer writes each
    constant once."""
    import hashlib
    import torch
    graph = gm.graph
    first = {}     # (dtype, shape, digest) -> node
    changed = False
    for node in list(graph.nodes):
        if node.op != "get_attr":
            continue
        t = getattr(gm, node.target, None)
        if not isinstance(t, torch.Tensor) or t.device.type != "cpu":
            continue
        try:
            data = t.detach().contiguous().numpy()
            digest = hashlib.blake2b(data.tobytes(), digest_size=16).hexdigest()
        except (TypeError, RuntimeError):   # a dtype numpy lacks: not shared
            digest = str(id(t))
        key = (str(t.dtype), tuple(t.shape), digest)
        other = first.get(key)
        if other is None or not torch.equal(getattr(gm, other.target), t):
            first.setdefault(key, node)
            continue
        node.replace_all_uses_with(other)
        graph.erase_node(node)
        changed = True
    if changed:
        graph.lint()
        gm.recompile()


def select_output(model, field):
    """`model` wrapped so that its forward returns the output's `field`: a
    key of a dict (torchvision's segmentation models return {"out": ...,
    "aux": ...}), an attribute of a named tuple or Hugging Face ModelOutput
    (`logits`), or an index of a tuple ("0"). The command line's
    --output-field."""
    import torch

    class SelectOutput(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *xs):
            out = self.model(*xs)
            if isinstance(out, dict) and field in out:
                return out[field]
            if isinstance(out, (tuple, list)) and field.lstrip("-").isdigit() and \
                    -len(out) <= int(field) < len(out):
                return out[int(field)]
            if hasattr(out, field):
                return getattr(out, field)
            known = (list(out) if isinstance(out, dict) else
                     [f"0..{len(out) - 1}"] if isinstance(out, (tuple, list)) else [])
            raise ValueError(f"the model's output ({type(out).__name__}) has no field "
                             f"'{field}'" + (f" (it has {', '.join(map(str, known))})"
                                             if known else ""))
    return SelectOutput()


def _output(out):
    """The tensor a model returns (the first field of a named tuple such as
    torchvision's InceptionOutputs)."""
    import torch
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)) and out and isinstance(out[0], torch.Tensor):
        rest = sum(1 for o in out[1:] if isinstance(o, torch.Tensor))
        if rest:
            import warnings
            warnings.warn(f"the model returns {1 + rest} tensors ({type(out).__name__}); the "
                          "loss reads the first, so what computes only the others (auxiliary "
                          "heads: torchvision's googlenet and inception_v3 with "
                          "aux_logits=True) gets zero gradients", stacklevel=2)
        return out[0]
    if hasattr(out, "logits"):
        return out.logits
    keys = f" (keys {', '.join(map(str, out))})" if isinstance(out, dict) else ""
    raise ValueError(f"the model returns {type(out).__name__}{keys}, not a tensor: choose the "
                     "output to score with --output-field (select_output)")


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
