"""Import a PyTorch training step into MLIR (a `ckpt` training step).

    /usr/bin/python3 -m ckpt.torch_import MODEL --batch N [--image S]
        [--classes K] [--loss cross_entropy|mse] [--device h100] [-o OUT.mlir]

MODEL is a torchvision model (resnet18/34/50/101/152, densenet121,
inception_v3, vgg16) or a small built-in one (`tinyresnet`, `tinymlp`,
`tinytransformer`). From Python::

    from ckpt.torch_import import import_module
    text = import_module(model, x, target, loss="cross_entropy")

What is traced: the whole training step, `functional_call` of the model with
its parameters as inputs, the loss and `torch.autograd.grad` of the loss
w.r.t. every parameter, with `make_fx` (fake tensors: no real compute) and the
decompositions of PyTorch 1.13 for batch norm, layer/group norm, softmax,
log-softmax, nll loss and mse loss. In-place ops are made functional (by a
checked local rewrite, or `functorch.experimental.functionalize` where that
rewrite does not apply). The result is one
`func.func @<name>_step(%x, %t, %p0, ...) -> (loss, grad0, ...)
attributes {ckpt.loss = 0 : i64}` on static-shape tensors, the loss a 0-d
`tensor<f32>`.

Semantics: the model runs in training mode, except dropout, which is put in
eval mode (the identity: a random mask cannot be reproduced by the planner
or executed deterministically). Batch norm uses the batch statistics, as in
training; its running statistics are dropped (the modules are traced with
`track_running_stats=False`), so the step neither reads nor updates them.
Every parameter gets a gradient (zeros when the loss does not depend on it).
The model is copied first; the caller's module is not changed.

Losses: `cross_entropy` takes either class probabilities `[N, K]` (float) or
class indices `[N]` (integers, turned into one-hot probabilities, which gives
the same loss), always passed to the step as a float `[N, K]` tensor (soft
labels); `mse` takes a float target of the output's shape. Both are means
over the batch (PyTorch's default reduction).

Ops: the ATen ops of the op table (`EXECUTABLE_OPS`) become upstream MLIR
(linalg named ops and `linalg.generic`, `tensor`, `arith`, `math`) that
ckpt-opt can lower to the CPU and run; every other op becomes
`ckpt.opaque "aten.<name>"` with the real result types and a `#ckpt.cost`
(flops where known, bytes = operands + results, time from the device
profile). Such a step can be planned, but not lowered.

Errors (a model that cannot be traced, data-dependent shapes, a target of
the wrong shape) raise ValueError; the command line prints the message and
exits 1.
"""

import argparse
import copy
import math
import operator
import os
import re
import sys
import time

import numpy as np

__all__ = [
    "EXECUTABLE_OPS",
    "MODELS",
    "load_user_model",
    "user_inputs",
    "build_model",
    "import_module",
    "import_module_info",
    "main",
]

# Device profiles (peak FP32 flop/s, bytes/s), the same figures as ckpt-opt's
# cost model (lib/Analysis/CostModel.cpp): the time of an opaque op is
# max(flops / peak, bytes / bandwidth).
DEVICES = {
    "h100": (67.0e12, 3.35e12),
    "a100": (19.5e12, 2.039e12),
    "v100": (15.7e12, 0.9e12),
    "cpu": (1.0e11, 2.0e10),
}


# ---------------------------------------------------------------------------
# Built-in small models (executable end to end on the CPU).

def _tiny_models():
    import torch
    from torch import nn

    class TinyBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            identity = x if self.down is None else self.down(x)
            return torch.relu(out + identity)

    class TinyResNet(nn.Module):
        """A small ResNet: conv3x3 stem (with bias) + relu, 3x3/2 max pooling,
        a basic block, a downsampling block (3x3/2 conv, 1x1/2 shortcut),
        2x2 average pooling, a linear classifier (with bias); batch norm after
        every convolution of the blocks."""

        def __init__(self, classes=10, width=8, image=16):
            super().__init__()
            self.stem = nn.Conv2d(3, width, 3, 1, 1, bias=True)
            self.pool = nn.MaxPool2d(3, 2, 1)
            self.block1 = TinyBlock(width, width, 1)
            self.block2 = TinyBlock(width, 2 * width, 2)
            self.avg = nn.AvgPool2d(2)
            side = (image + 1) // 2  # after the max pooling
            side = (side - 1) // 2 + 1  # after the stride-2 block
            self.fc = nn.Linear(2 * width * (side // 2) ** 2, classes)

        def forward(self, x):
            x = self.pool(torch.relu(self.stem(x)))
            x = self.block2(self.block1(x))
            return self.fc(torch.flatten(self.avg(x), 1))

    class TinyMLP(nn.Module):
        """Linear -> tanh -> Linear -> relu -> Linear (with biases)."""

        def __init__(self, features=12, hidden=16, classes=4):
            super().__init__()
            self.fc1 = nn.Linear(features, hidden)
            self.fc2 = nn.Linear(hidden, hidden)
            self.fc3 = nn.Linear(hidden, classes)

        def forward(self, x):
            return self.fc3(torch.relu(self.fc2(torch.tanh(self.fc1(x)))))

    class TinyTransformer(nn.Module):
        """A pre-LayerNorm attention block on [N, T, D] and a GELU MLP, mean
        over the tokens, a linear classifier."""

        def __init__(self, dim=8, classes=5):
            super().__init__()
            self.ln1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim)
            self.mlp1 = nn.Linear(dim, 2 * dim)
            self.mlp2 = nn.Linear(2 * dim, dim)
            self.head = nn.Linear(dim, classes)
            self.dim = dim

        def forward(self, x):
            q, k, v = self.qkv(self.ln1(x)).split(self.dim, dim=-1)
            att = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(self.dim), dim=-1)
            x = x + self.proj(att @ v)
            x = x + self.mlp2(torch.nn.functional.gelu(self.mlp1(self.ln2(x))))
            return self.head(x.mean(dim=1))

    return TinyResNet, TinyMLP, TinyTransformer


# name -> (default image size or input shape, default classes)
MODELS = {
    "resnet18": 224, "resnet34": 224, "resnet50": 224, "resnet101": 224,
    "resnet152": 224, "densenet121": 224, "inception_v3": 299, "vgg16": 224,
    "tinyresnet": 16, "tinymlp": None, "tinytransformer": None,
}


def build_model(name, classes=None, image=None, batch=1, seed=0):
    """The model `name` (see MODELS; other torchvision classification models
    by their constructor's name too, 224x224 by default) and example inputs:
    returns (module, x, target) with x of shape [batch, 3, image, image] for
    the image models ([batch, 12] for tinymlp, [batch, 6, 8] for
    tinytransformer) and target one-hot class probabilities [batch, classes]."""
    import torch
    if name not in MODELS:
        import torchvision
        ctor = getattr(torchvision.models, name, None)
        if name.startswith("_") or not callable(ctor) or isinstance(ctor, type):
            raise ValueError(f"unknown model '{name}'; known: {', '.join(MODELS)} "
                             f"(or another torchvision.models constructor)")
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    if name.startswith("tiny"):
        TinyResNet, TinyMLP, TinyTransformer = _tiny_models()
        classes = classes or {"tinyresnet": 10, "tinymlp": 4, "tinytransformer": 5}[name]
        if name == "tinyresnet":
            image = image or 16
            model = TinyResNet(classes, image=image)
            x = torch.rand(batch, 3, image, image, generator=gen) - 0.5
        elif name == "tinymlp":
            model = TinyMLP(classes=classes)
            x = torch.rand(batch, 12, generator=gen) - 0.5
        else:
            model = TinyTransformer(classes=classes)
            x = torch.rand(batch, 6, 8, generator=gen) - 0.5
    else:
        import torchvision
        classes = classes or 1000
        image = image or MODELS.get(name) or 224
        kwargs = {"num_classes": classes}
        if name == "inception_v3":
            kwargs.update(aux_logits=False, init_weights=False)
        model = getattr(torchvision.models, name)(**kwargs)
        x = torch.rand(batch, 3, image, image, generator=gen) - 0.5
    labels = torch.randint(0, classes, (batch,), generator=gen)
    target = torch.nn.functional.one_hot(labels, classes).to(torch.float32)
    return model, x, target


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


def _prepare(module):
    """A copy of `module` in training mode with batch-norm running statistics
    dropped and dropout off."""
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
        if isinstance(mod, nn.modules.dropout._DropoutNd) or \
                type(mod).__name__ == "StochasticDepth":
            mod.eval()
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


def _trace(module, example_inputs, target, loss, tracing_mode):
    """make_fx of the training step. Returns (graph module, parameter names,
    parameter shapes, input tensors, target tensor, seconds)."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch._decomp import get_decompositions
    from torch.nn.utils.stateless import functional_call

    aten = torch.ops.aten
    if loss not in ("cross_entropy", "mse"):
        raise ValueError(f"unknown loss '{loss}': expected cross_entropy or mse")
    model = _prepare(module)
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
        grads = torch.autograd.grad(value, ps, allow_unused=True)
        return (value,) + tuple(g if g is not None else torch.zeros_like(p)
                                for g, p in zip(grads, ps))

    params = [p.detach().requires_grad_() for _, p in named]
    decomp = get_decompositions([getattr(aten, n) for n in _DECOMPOSED if hasattr(aten, n)])
    if tracing_mode == "fake":
        _register_meta_kernels()
    start = time.perf_counter()
    try:
        gm = make_fx(step, decomposition_table=decomp, tracing_mode=tracing_mode)(
            *[x.detach() for x in inputs], target.detach(), *params)
    except Exception as e:  # noqa: BLE001
        kind = type(e).__name__
        hint = ""
        if "Dynamic" in kind or "DataDependent" in kind or "symbolic" in str(e).lower():
            hint = " (data-dependent or dynamic shapes are not supported)"
        raise ValueError(f"cannot trace the training step{hint}: {kind}: {e}") from None
    seconds = time.perf_counter() - start
    functionalized = not _inplace_rewrite_is_safe(gm.graph)
    if functionalized:
        from functorch.experimental import functionalize
        try:
            gm = make_fx(functionalize(gm), tracing_mode=tracing_mode)(
                *[x.detach() for x in inputs], target.detach(), *params)
        except Exception as e:  # noqa: BLE001
            raise ValueError(f"cannot functionalize the traced step: "
                             f"{type(e).__name__}: {e}") from None
        seconds = time.perf_counter() - start
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


# ---------------------------------------------------------------------------
# MLIR emission.

_DTYPES = {}


def _mlir_dtype(dtype):
    import torch
    if not _DTYPES:
        _DTYPES.update({
            torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
            torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
            torch.int16: "i16", torch.int8: "i8", torch.uint8: "i8", torch.bool: "i1",
        })
    if dtype not in _DTYPES:
        raise ValueError(f"unsupported dtype {dtype}")
    return _DTYPES[dtype]


_BYTES = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2,
          "i8": 1, "i1": 1}


def _is_float(dt):
    return dt in ("f32", "f64", "f16", "bf16")


def _ttype(shape, dt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _float_literal(v, dt):
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        bits = {"f32": (0x7FC00000, 0x7F800000, 0xFF800000),
                "f64": (0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000),
                "f16": (0x7E00, 0x7C00, 0xFC00),
                "bf16": (0x7FC0, 0x7F80, 0xFF80)}[dt]
        return hex(bits[0] if math.isnan(v) else bits[1] if v > 0 else bits[2])
    if dt == "f32":
        v = float(np.float32(v))
    return repr(v)


class _T:
    """A materialized tensor value."""
    __slots__ = ("name", "shape", "dt")

    def __init__(self, name, shape, dt):
        self.name, self.shape, self.dt = name, tuple(shape), dt

    @property
    def type(self):
        return _ttype(self.shape, self.dt)


class _View:
    """A tensor as a view of a materialized root: logical dim i is root dim
    dims[i] (same size) or None (size 1, or a broadcast); unmapped root dims
    have size 1. Elementwise ops, reductions and contractions read views
    through their indexing maps; other ops materialize them."""
    __slots__ = ("root", "shape", "dims", "cache")

    def __init__(self, root, shape=None, dims=None):
        self.root = root
        self.shape = tuple(root.shape if shape is None else shape)
        self.dims = list(range(len(root.shape)) if dims is None else dims)
        self.cache = None

    @property
    def dt(self):
        return self.root.dt

    def plain(self):
        return self.shape == self.root.shape and self.dims == list(range(len(self.shape)))

    def access(self, exprs):
        """Root indexing expressions, given an expression per logical dim."""
        out = ["0"] * len(self.root.shape)
        for i, d in enumerate(self.dims):
            if d is not None:
                out[d] = exprs[i]
        return out


def _reassociation(src, dst):
    """Groups of src and dst dims with equal products (a common coarsening):
    returns (groups_src, groups_dst) or None. Unit dims join a neighbour."""
    if _numel(src) != _numel(dst):
        return None
    if not src or not dst:
        return None
    gs, gd = [], []
    i = j = 0
    while i < len(src) and j < len(dst):
        a, b = [i], [j]
        ps, pd = src[i], dst[j]
        i += 1
        j += 1
        while ps != pd:
            if ps < pd:
                if i >= len(src):
                    return None
                ps *= src[i]
                a.append(i)
                i += 1
            else:
                if j >= len(dst):
                    return None
                pd *= dst[j]
                b.append(j)
                j += 1
        gs.append(a)
        gd.append(b)
    while i < len(src):  # trailing unit dims
        gs[-1].append(i)
        i += 1
    while j < len(dst):
        gd[-1].append(j)
        j += 1
    return gs, gd


def _nonunit(shape):
    return [(i, d) for i, d in enumerate(shape) if d != 1]


class _Emitter:
    def __init__(self, device):
        self.lines = []
        self.consts = {}
        self.const_lines = []
        self.used = set()
        self.maps = {}
        self.map_lines = []
        self.device = DEVICES[device]
        self.opaque = {}
        self.top_ops = 0

    # -- names, constants, maps -------------------------------------------
    def fresh(self, base):
        base = re.sub(r"[^A-Za-z0-9_]", "_", base) or "v"
        if re.fullmatch(r"[rb]\d+|cst\d+|c\d+", base):
            base += "_"
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return "%" + name

    def emit(self, text):
        self.lines.append("  " + text)
        self.top_ops += 1

    def const(self, value, dt):
        if _is_float(dt):
            lit = _float_literal(value, dt)
        elif dt == "i1":
            lit = "true" if value else "false"
        elif dt == "index":
            lit = str(int(value))
        else:
            lit = str(int(value))
        key = (lit, dt)
        if key not in self.consts:
            name = f"%c{len(self.consts)}"
            self.consts[key] = name
            self.const_lines.append(f"  {name} = arith.constant {lit} : {dt}")
        return self.consts[key]

    def amap(self, ndims, exprs):
        dims = ", ".join(f"d{i}" for i in range(ndims))
        text = f"affine_map<({dims}) -> ({', '.join(exprs)})>"
        if text not in self.maps:
            self.maps[text] = f"#map{len(self.maps)}"
            self.map_lines.append(f"{self.maps[text]} = {text}")
        return self.maps[text]

    # -- basic ops ---------------------------------------------------------
    def empty(self, shape, dt, base):
        name = self.fresh(base + "_e")
        t = _T(name, shape, dt)
        self.emit(f"{name} = tensor.empty() : {t.type}")
        return t

    def fill(self, value, shape, dt, base):
        e = self.empty(shape, dt, base)
        name = self.fresh(base + "_f")
        self.emit(f"{name} = linalg.fill ins({self.const(value, dt)} : {dt}) "
                  f"outs({e.name} : {e.type}) -> {e.type}")
        return _T(name, shape, dt)

    def generic(self, base, ndims, iters, ins, outs, body, res_names=None):
        """ins: [(value _T, exprs)], outs: [(init _T, exprs)]; body(region,
        in_args, out_args) returns the yielded scalars."""
        region = _Region(self)
        in_args = [region.arg(t.dt) for t, _ in ins]
        out_args = [region.arg(t.dt) for t, _ in outs]
        yields = body(region, in_args, out_args)
        maps = [self.amap(ndims, e) for _, e in ins] + [self.amap(ndims, e) for _, e in outs]
        its = ", ".join(f'"{i}"' for i in iters)
        ins_s = ""
        if ins:
            ins_s = (" ins(" + ", ".join(t.name for t, _ in ins) + " : "
                     + ", ".join(t.type for t, _ in ins) + ")")
        outs_s = (" outs(" + ", ".join(t.name for t, _ in outs) + " : "
                  + ", ".join(t.type for t, _ in outs) + ")")
        results = [_T(self.fresh(base), t.shape, t.dt) for t, _ in outs]
        if len(results) == 1:
            lhs = results[0].name
            rtypes = results[0].type
        else:
            lhs = results[0].name + f":{len(results)}"
            rtypes = "(" + ", ".join(r.type for r in results) + ")"
            first = results[0].name
            results = [_T(f"{first}#{k}", r.shape, r.dt) for k, r in enumerate(results)]
        lines = [f"{lhs} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                 f"iterator_types = [{its}]}}{ins_s}{outs_s} {{",
                 "  ^bb0(" + ", ".join(f"{a}: {t}" for a, t in region.args) + "):"]
        lines += ["    " + l for l in region.lines]
        lines.append(f"    linalg.yield {', '.join(yields)} : "
                     + ", ".join(t.dt for t, _ in outs))
        lines.append(f"  }} -> {rtypes}")
        self.lines.append("  " + "\n  ".join(lines))
        self.top_ops += 1
        return results

    # -- views ---------------------------------------------------------------
    def materialize(self, v, base="m"):
        if isinstance(v, _T):
            return v
        if v.plain():
            return v.root
        if v.cache is not None:
            return v.cache
        mapped = [d for d in v.dims if d is not None]
        broadcast = any(d is None and s != 1 for d, s in zip(v.dims, v.shape))
        if not broadcast and mapped == sorted(mapped):
            out = self.reshape(v.root, v.shape, base)
        elif (not broadcast and len(v.shape) == len(v.root.shape)
              and None not in v.dims):
            e = self.empty(v.shape, v.dt, base)
            name = self.fresh(base)
            perm = [0] * len(v.dims)
            for i, d in enumerate(v.dims):
                perm[i] = d
            self.emit(f"{name} = linalg.transpose ins({v.root.name} : {v.root.type}) "
                      f"outs({e.name} : {e.type}) permutation = {perm}")
            out = _T(name, v.shape, v.dt)
        else:
            n = len(v.shape)
            e = self.empty(v.shape, v.dt, base)
            exprs = [f"d{i}" for i in range(n)]
            out = self.generic(base, n, ["parallel"] * n,
                               [(v.root, v.access(exprs))], [(e, exprs)],
                               lambda r, a, o: [a[0]])[0]
        v.cache = out
        return out

    def reshape(self, t, shape, base):
        shape = tuple(shape)
        if t.shape == shape:
            return t
        src, dst = t.shape, shape
        if not src or not dst:
            # rank 0 <-> all-unit shape
            name = self.fresh(base)
            res = _T(name, dst, t.dt)
            if not dst:
                self.emit(f"{name} = tensor.collapse_shape {t.name} [] : {t.type} into {res.type}")
            else:
                self.emit(f"{name} = tensor.expand_shape {t.name} [] output_shape {list(dst)} "
                          f": {t.type} into {res.type}")
            return res
        r = _reassociation(src, dst)
        if r is None:
            raise ValueError(f"cannot reshape {list(src)} to {list(dst)}")
        gs, gd = r
        common = tuple(_numel([src[i] for i in g]) for g in gs)
        cur = t
        if common != src:
            name = self.fresh(base + "_c" if common != dst else base)
            res = _T(name, common, t.dt)
            self.emit(f"{name} = tensor.collapse_shape {cur.name} {gs} : {cur.type} into {res.type}")
            cur = res
        if common != dst:
            name = self.fresh(base)
            res = _T(name, dst, t.dt)
            self.emit(f"{name} = tensor.expand_shape {cur.name} {gd} output_shape {list(dst)} "
                      f": {cur.type} into {res.type}")
            cur = res
        return cur

    def pad(self, t, low, high, value, base):
        if not any(low) and not any(high):
            return t
        shape = tuple(s + a + b for s, a, b in zip(t.shape, low, high))
        name = self.fresh(base)
        res = _T(name, shape, t.dt)
        idx = ", ".join(f"%b{i}: index" for i in range(len(shape)))
        self.lines.append(
            f"  {name} = tensor.pad {t.name} low{list(low)} high{list(high)} {{\n"
            f"  ^bb0({idx}):\n    tensor.yield {self.const(value, t.dt)} : {t.dt}\n"
            f"  }} : {t.type} to {res.type}")
        self.top_ops += 1
        return res

    # -- cost of opaque ops -------------------------------------------------
    def opaque_op(self, aten_name, operands, results, flops, base):
        operands = [self.materialize(v) for v in operands]
        bytes_ = sum(_numel(t.shape) * _BYTES[t.dt] for t in operands)
        bytes_ += sum(_numel(s) * _BYTES[dt] for s, dt in results)
        peak, bw = self.device
        seconds = max(flops / peak, bytes_ / bw)
        names = [self.fresh(base)]
        rtypes = [_ttype(s, dt) for s, dt in results]
        lhs = names[0] if len(results) == 1 else f"{names[0]}:{len(results)}"
        self.emit(f'{lhs} = ckpt.opaque "{aten_name}"({", ".join(t.name for t in operands)}) '
                  f"{{ckpt.cost = #ckpt.cost<flops = {int(flops)}, bytes = {int(bytes_)}, "
                  f"time = {seconds:.6e}>}} : ({', '.join(t.type for t in operands)}) -> "
                  + (rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"))
        self.opaque[aten_name] = self.opaque.get(aten_name, 0) + 1
        if len(results) == 1:
            return [_T(names[0], results[0][0], results[0][1])]
        return [_T(f"{names[0]}#{k}", s, dt) for k, (s, dt) in enumerate(results)]


class _Region:
    """Scalar code of a linalg.generic body."""

    def __init__(self, em):
        self.em = em
        self.lines = []
        self.args = []
        self.n = 0

    def arg(self, dt):
        name = f"%b{len(self.args)}"
        self.args.append((name, dt))
        return name

    def op(self, text):
        name = f"%r{self.n}"
        self.n += 1
        self.lines.append(f"{name} = {text}")
        return name

    def c(self, value, dt):
        return self.em.const(value, dt)

    def index(self, dim):
        return self.op(f"linalg.index {dim} : index")

    # arithmetic on a compute type
    def add(self, a, b, dt):
        return self.op(f"arith.{'addf' if _is_float(dt) else 'ori' if dt == 'i1' else 'addi'} {a}, {b} : {dt}")

    def sub(self, a, b, dt):
        return self.op(f"arith.{'subf' if _is_float(dt) else 'subi'} {a}, {b} : {dt}")

    def mul(self, a, b, dt):
        return self.op(f"arith.{'mulf' if _is_float(dt) else 'andi' if dt == 'i1' else 'muli'} {a}, {b} : {dt}")

    def div(self, a, b, dt):
        return self.op(f"arith.{'divf' if _is_float(dt) else 'divsi'} {a}, {b} : {dt}")

    def neg(self, a, dt):
        if _is_float(dt):
            return self.op(f"arith.negf {a} : {dt}")
        return self.op(f"arith.subi {self.c(0, dt)}, {a} : {dt}")

    def max(self, a, b, dt):
        return self.op(f"arith.{'maximumf' if _is_float(dt) else 'maxsi'} {a}, {b} : {dt}")

    def min(self, a, b, dt):
        return self.op(f"arith.{'minimumf' if _is_float(dt) else 'minsi'} {a}, {b} : {dt}")

    def math(self, fn, a, dt):
        return self.op(f"math.{fn} {a} : {dt}")

    def cmp(self, pred, a, b, dt):
        if _is_float(dt):
            fp = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}[pred]
            return self.op(f"arith.cmpf {fp}, {a}, {b} : {dt}")
        ip = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}[pred]
        if dt == "i1":
            ip = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}.get(pred, ip)
        return self.op(f"arith.cmpi {ip}, {a}, {b} : {dt}")

    def select(self, c, a, b, dt):
        return self.op(f"arith.select {c}, {a}, {b} : {dt}")

    def cast(self, a, src, dst):
        if src == dst:
            return a
        if _is_float(src) and _is_float(dst):
            wider = {"f16": 1, "bf16": 1, "f32": 2, "f64": 3}
            return self.op(f"arith.{'extf' if wider[dst] > wider[src] else 'truncf'} {a} : {src} to {dst}")
        if _is_float(dst):
            return self.op(f"arith.{'uitofp' if src == 'i1' else 'sitofp'} {a} : {src} to {dst}")
        if dst == "i1":
            return self.cmp("ne", a, self.c(0, src), src)
        if _is_float(src):
            return self.op(f"arith.fptosi {a} : {src} to {dst}")
        if src == "index":
            return self.op(f"arith.index_cast {a} : index to {dst}")
        if _BYTES[dst] > _BYTES[src]:
            return self.op(f"arith.{'extui' if src == 'i1' else 'extsi'} {a} : {src} to {dst}")
        return self.op(f"arith.trunci {a} : {src} to {dst}")

    def scalar(self, v, dt):
        """A Python number or a block argument, as dt."""
        if isinstance(v, tuple):  # (ssa name, dtype)
            return self.cast(v[0], v[1], dt)
        if _is_float(dt):
            return self.c(float(v), dt)
        if dt == "i1":
            return self.c(bool(v), dt)
        return self.c(int(v), dt)


# ---------------------------------------------------------------------------
# The op table.

def _ints(v, n=2):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) == 1:
        return v * n
    return v


def _meta(node):
    """[(shape, dtype)] of the node's results (None for a result that is not
    a tensor, e.g. an output a convolution_backward mask leaves out)."""
    m = node.meta.get("tensor_meta")
    if m is None:
        return _meta_multi(node)
    if not hasattr(m, "shape"):
        return [None if x is None else (_static(node, x.shape), _mlir_dtype(x.dtype))
                for x in m]
    return [(_static(node, m.shape), _mlir_dtype(m.dtype))]


def _static(node, shape):
    for d in shape:
        if not isinstance(d, int):
            raise ValueError(f"node {node.name} ({node.target}) has a dynamic shape "
                             f"{list(shape)}: only static shapes are supported")
    return tuple(int(d) for d in shape)


def _meta_multi(node):
    """Shapes of a node with several results (make_fx records them on the
    getitem users only): the op evaluated on meta tensors, else the users."""
    import torch
    from torch.fx import Node

    def to_meta(a):
        if isinstance(a, Node):
            m = a.meta.get("tensor_meta")
            if m is None or not hasattr(m, "shape"):
                raise KeyError(a.name)
            return torch.empty(tuple(m.shape), dtype=m.dtype, device="meta")
        if isinstance(a, (list, tuple)):
            return type(a)(to_meta(x) for x in a)
        return a
    try:
        out = node.target(*to_meta(node.args), **{k: to_meta(v) for k, v in node.kwargs.items()})
        if isinstance(out, torch.Tensor):
            return [(_static(node, out.shape), _mlir_dtype(out.dtype))]
        return [None if not isinstance(o, torch.Tensor) else
                (_static(node, o.shape), _mlir_dtype(o.dtype)) for o in out]
    except Exception:  # noqa: BLE001 - fall back to the users' shapes
        pass
    found = {}
    for user in node.users:
        if user.target is operator.getitem and user.meta.get("tensor_meta") is not None:
            m = user.meta["tensor_meta"]
            found[user.args[1]] = (_static(user, m.shape), _mlir_dtype(m.dtype))
    if not found:
        raise ValueError(f"node {node.name} ({node.target}) has no shape information")
    return [found.get(i) for i in range(max(found) + 1)]


def _opname(node):
    t = node.target
    name = getattr(t, "__name__", str(t))  # e.g. "add.Tensor"
    return name


class _Unsupported(Exception):
    """This op (with these arguments) has no executable lowering here."""


_ELEMENTWISE = {}
_HANDLERS = {}


def _handler(*names):
    def deco(fn):
        for n in names:
            _HANDLERS[n] = fn
        return fn
    return deco


def _ew(*names, cmp=False):
    def deco(fn):
        for n in names:
            _ELEMENTWISE[n] = (fn, cmp)
        return fn
    return deco


# Elementwise bodies: fn(region, scalars as (name, dtype) or numbers, compute dt, kwargs)
def _sc(r, v, dt):
    return r.scalar(v, dt)


@_ew("add.Tensor", "add.Scalar")
def _ew_add(r, a, dt, kw):
    b = _sc(r, a[1], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        b = r.mul(b, r.scalar(alpha, dt), dt)
    return r.add(_sc(r, a[0], dt), b, dt)


@_ew("sub.Tensor", "sub.Scalar")
def _ew_sub(r, a, dt, kw):
    b = _sc(r, a[1], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        b = r.mul(b, r.scalar(alpha, dt), dt)
    return r.sub(_sc(r, a[0], dt), b, dt)


@_ew("rsub.Scalar", "rsub.Tensor")
def _ew_rsub(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        x = r.mul(x, r.scalar(alpha, dt), dt)
    return r.sub(_sc(r, a[1], dt), x, dt)


@_ew("mul.Tensor", "mul.Scalar")
def _ew_mul(r, a, dt, kw):
    return r.mul(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("div.Tensor", "div.Scalar")
def _ew_div(r, a, dt, kw):
    if kw.get("rounding_mode") is not None or not _is_float(dt):
        raise _Unsupported()
    return r.div(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("neg.default")
def _ew_neg(r, a, dt, kw):
    return r.neg(_sc(r, a[0], dt), dt)


@_ew("relu.default", "relu_.default")
def _ew_relu(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), r.scalar(0, dt), dt)


@_ew("threshold_backward.default")
def _ew_threshold_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    c = r.cmp("le", x, r.scalar(a[2], dt), dt)
    return r.select(c, r.scalar(0, dt), g, dt)


@_ew("threshold.default")
def _ew_threshold(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    c = r.cmp("le", x, r.scalar(a[1], dt), dt)
    return r.select(c, r.scalar(a[2], dt), x, dt)


@_ew("where.self", "where.ScalarSelf", "where.ScalarOther", "where.Scalar")
def _ew_where(r, a, dt, kw):
    c = _sc(r, a[0], "i1")
    return r.select(c, _sc(r, a[1], dt), _sc(r, a[2], dt), dt)


@_ew("masked_fill.Scalar", "masked_fill.Tensor")
def _ew_masked_fill(r, a, dt, kw):
    return r.select(_sc(r, a[1], "i1"), _sc(r, a[2], dt), _sc(r, a[0], dt), dt)


def _unary_math(fn):
    def body(r, a, dt, kw):
        if not _is_float(dt):
            raise _Unsupported()
        return r.math(fn, _sc(r, a[0], dt), dt)
    return body


for _n, _f in (("exp", "exp"), ("log", "log"), ("tanh", "tanh"), ("sqrt", "sqrt"),
               ("rsqrt", "rsqrt"), ("erf", "erf"), ("sin", "sin"), ("cos", "cos"),
               ("abs", "absf"), ("floor", "floor"), ("ceil", "ceil"), ("log1p", "log1p"),
               ("expm1", "expm1"), ("log2", "log2"), ("exp2", "exp2")):
    _ELEMENTWISE[f"{_n}.default"] = (_unary_math(_f), False)


@_ew("sigmoid.default")
def _ew_sigmoid(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    e = r.math("exp", r.neg(x, dt), dt)
    return r.div(r.scalar(1, dt), r.add(r.scalar(1, dt), e, dt), dt)


@_ew("sigmoid_backward.default")
def _ew_sigmoid_backward(r, a, dt, kw):
    g, y = _sc(r, a[0], dt), _sc(r, a[1], dt)
    return r.mul(g, r.mul(y, r.sub(r.scalar(1, dt), y, dt), dt), dt)


@_ew("tanh_backward.default")
def _ew_tanh_backward(r, a, dt, kw):
    g, y = _sc(r, a[0], dt), _sc(r, a[1], dt)
    return r.mul(g, r.sub(r.scalar(1, dt), r.mul(y, y, dt), dt), dt)


_SQRT1_2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327


@_ew("gelu.default")
def _ew_gelu(r, a, dt, kw):
    if kw.get("approximate", "none") != "none":
        raise _Unsupported()
    x = _sc(r, a[0], dt)
    cdf = r.mul(r.scalar(0.5, dt), r.add(r.scalar(1, dt),
                r.math("erf", r.mul(x, r.scalar(_SQRT1_2, dt), dt), dt), dt), dt)
    return r.mul(x, cdf, dt)


@_ew("gelu_backward.default")
def _ew_gelu_backward(r, a, dt, kw):
    if kw.get("approximate", "none") != "none":
        raise _Unsupported()
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    cdf = r.mul(r.scalar(0.5, dt), r.add(r.scalar(1, dt),
                r.math("erf", r.mul(x, r.scalar(_SQRT1_2, dt), dt), dt), dt), dt)
    pdf = r.mul(r.scalar(_INV_SQRT_2PI, dt),
                r.math("exp", r.mul(r.scalar(-0.5, dt), r.mul(x, x, dt), dt), dt), dt)
    return r.mul(g, r.add(cdf, r.mul(x, pdf, dt), dt), dt)


@_ew("silu.default")
def _ew_silu(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    s = r.div(r.scalar(1, dt), r.add(r.scalar(1, dt), r.math("exp", r.neg(x, dt), dt), dt), dt)
    return r.mul(x, s, dt)


@_ew("silu_backward.default")
def _ew_silu_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    one = r.scalar(1, dt)
    s = r.div(one, r.add(one, r.math("exp", r.neg(x, dt), dt), dt), dt)
    return r.mul(g, r.mul(s, r.add(one, r.mul(x, r.sub(one, s, dt), dt), dt), dt), dt)


@_ew("pow.Tensor_Scalar")
def _ew_pow(r, a, dt, kw):
    if not _is_float(dt):
        raise _Unsupported()
    x, e = _sc(r, a[0], dt), a[1]
    if e == 1:
        return r.op(f"arith.addf {x}, {r.scalar(0, dt)} : {dt}")
    if e == 2:
        return r.mul(x, x, dt)
    if e == 3:
        return r.mul(r.mul(x, x, dt), x, dt)
    if e == 0.5:
        return r.math("sqrt", x, dt)
    if e == -0.5:
        return r.math("rsqrt", x, dt)
    if e == -1:
        return r.div(r.scalar(1, dt), x, dt)
    return r.op(f"math.powf {x}, {r.scalar(e, dt)} : {dt}")


@_ew("pow.Tensor_Tensor")
def _ew_pow_tt(r, a, dt, kw):
    if not _is_float(dt):
        raise _Unsupported()
    return r.op(f"math.powf {_sc(r, a[0], dt)}, {_sc(r, a[1], dt)} : {dt}")


@_ew("reciprocal.default")
def _ew_reciprocal(r, a, dt, kw):
    return r.div(r.scalar(1, dt), _sc(r, a[0], dt), dt)


@_ew("clamp_min.default", "clamp_min.Tensor")
def _ew_clamp_min(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("clamp_max.default", "clamp_max.Tensor")
def _ew_clamp_max(r, a, dt, kw):
    return r.min(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("clamp.default", "clamp.Tensor")
def _ew_clamp(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    lo = a[1] if len(a) > 1 else kw.get("min")
    hi = a[2] if len(a) > 2 else kw.get("max")
    if lo is not None:
        x = r.max(x, _sc(r, lo, dt), dt)
    if hi is not None:
        x = r.min(x, _sc(r, hi, dt), dt)
    return x


@_ew("hardtanh.default")
def _ew_hardtanh(r, a, dt, kw):
    lo = a[1] if len(a) > 1 else kw.get("min_val", -1.0)
    hi = a[2] if len(a) > 2 else kw.get("max_val", 1.0)
    return r.min(r.max(_sc(r, a[0], dt), r.scalar(lo, dt), dt), r.scalar(hi, dt), dt)


@_ew("hardtanh_backward.default")
def _ew_hardtanh_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    out = r.op(f"arith.ori {r.cmp('le', x, r.scalar(a[2], dt), dt)}, "
               f"{r.cmp('ge', x, r.scalar(a[3], dt), dt)} : i1")
    return r.select(out, r.scalar(0, dt), g, dt)


@_ew("maximum.default")
def _ew_maximum(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("minimum.default")
def _ew_minimum(r, a, dt, kw):
    return r.min(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


def _cmp_body(pred):
    def body(r, a, dt, kw):
        return r.cmp(pred, _sc(r, a[0], dt), _sc(r, a[1], dt), dt)
    return body


for _p in ("eq", "ne", "lt", "le", "gt", "ge"):
    _ELEMENTWISE[f"{_p}.Tensor"] = (_cmp_body(_p), True)
    _ELEMENTWISE[f"{_p}.Scalar"] = (_cmp_body(_p), True)


@_ew("logical_not.default", "bitwise_not.default")
def _ew_not(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.xori {_sc(r, a[0], 'i1')}, {r.scalar(True, 'i1')} : i1")


@_ew("logical_and.default", "bitwise_and.Tensor")
def _ew_and(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.andi {_sc(r, a[0], 'i1')}, {_sc(r, a[1], 'i1')} : i1")


@_ew("logical_or.default", "bitwise_or.Tensor")
def _ew_or(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.ori {_sc(r, a[0], 'i1')}, {_sc(r, a[1], 'i1')} : i1")


@_ew("_to_copy.default", "to.dtype", "type_as.default", "convert_element_type.default")
def _ew_to_copy(r, a, dt, kw):
    return _sc(r, a[0], dt)


_VIEW_OPS = {"detach.default", "alias.default", "lift_fresh_copy.default", "clone.default",
             "contiguous.default", "lift_fresh.default", "conj_physical.default",
             "view.default", "_reshape_alias.default", "_unsafe_view.default",
             "reshape.default", "unsqueeze.default", "squeeze.dim", "squeeze.default",
             "squeeze.dims", "expand.default", "t.default", "transpose.int",
             "permute.default", "flatten.using_ints", "view_as.default",
             "_to_copy.default", "numpy_T.default", "convert_element_type.default",
             "to.dtype"}

_REDUCTIONS = {"sum.dim_IntList", "sum.default", "mean.dim", "mean.default",
               "amax.default", "amin.default", "var.correction", "var_mean.correction",
               "var.dim", "var.default"}

# Ops that lower to executable MLIR (some only for some arguments: convolution
# for 2-D, ungrouped, untransposed; pooling for 2-D without ceil-mode
# windows of varying size; division without rounding mode; ...). Every other
# op becomes ckpt.opaque.
EXECUTABLE_OPS = sorted(set(_ELEMENTWISE) | _VIEW_OPS | _REDUCTIONS | {
    "mm.default", "addmm.default", "bmm.default", "convolution.default",
    "convolution_backward.default", "max_pool2d_with_indices.default",
    "max_pool2d_with_indices_backward.default", "avg_pool2d.default",
    "avg_pool2d_backward.default", "_adaptive_avg_pool2d.default",
    "_adaptive_avg_pool2d_backward.default", "cat.default", "slice.Tensor",
    "select.int", "slice_backward.default", "select_backward.default",
    "slice_scatter.default", "select_scatter.default", "constant_pad_nd.default",
    "ones_like.default", "zeros_like.default", "full_like.default", "empty_like.default",
    "new_zeros.default", "new_ones.default", "new_full.default", "new_empty.default",
    "zeros.default", "ones.default", "full.default", "scalar_tensor.default",
    "empty.memory_format", "fill.Scalar", "split.Tensor", "split_with_sizes.default",
    "unbind.int", "as_strided.default", "as_strided_scatter.default",
    "new_empty_strided.default"})


# ---------------------------------------------------------------------------
# The translation of one graph.

class _Translator:
    def __init__(self, gm, name, arg_info, device):
        self.gm = gm
        self.name = name
        self.arg_info = arg_info
        self.em = _Emitter(device)
        self.env = {}
        self.aten_ops = 0

    # values
    def val(self, a):
        """The translated value of an FX argument."""
        from torch.fx import Node
        if isinstance(a, Node):
            v = self.env[a]
            return v
        if isinstance(a, (list, tuple)):
            return [self.val(x) for x in a]
        return a

    def view(self, a):
        v = self.val(a)
        if isinstance(v, _T):
            return _View(v)
        if isinstance(v, _View):
            return v
        raise _Unsupported()

    def mat(self, a, base="m"):
        v = self.val(a)
        if isinstance(v, _View):
            return self.em.materialize(v, base)
        if isinstance(v, _T):
            return v
        raise _Unsupported()

    # driver
    def run(self):
        graph = self.gm.graph
        live = self.liveness(graph)
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(self.arg_info):
            raise ValueError("internal error: placeholder count mismatch")
        args = []
        for node, (argname, comment) in zip(placeholders, self.arg_info):
            shape, dt = _meta(node)[0]
            t = _T("%" + argname, shape, dt)
            self.em.used.add(argname)
            self.env[node] = t
            args.append((t, comment))
        for node in graph.nodes:
            if node.op in ("placeholder", "output"):
                if node.op == "output":
                    out_node = node
                continue
            if node not in live:
                continue
            if node.op == "get_attr":
                self.env[node] = self.constant(getattr(self.gm, node.target), node.name)
                continue
            if node.op != "call_function":
                raise ValueError(f"unsupported FX node {node.op} {node.target}")
            if node.target is operator.getitem:
                self.env[node] = self.val(node.args[0])[node.args[1]]
                continue
            self.aten_ops += 1
            self.translate(node)
        outs = out_node.args[0]
        results = []
        for i, o in enumerate(outs):
            v = self.val(o)
            if v is None:
                raise ValueError("a result of the step is None")
            t = self.em.materialize(v, f"result{i}") if isinstance(v, _View) else v
            if not isinstance(t, _T):
                raise ValueError(f"result {i} of the step is not a tensor")
            results.append(t)
        if results[0].shape != () or results[0].dt != "f32":
            raise ValueError(f"the loss is {results[0].type}, not tensor<f32>")
        return self.text(args, results)

    def liveness(self, graph):
        from torch.fx import Node
        live = set()
        nodes = list(graph.nodes)

        def inputs(n):
            out = []
            for a in list(n.args) + list(n.kwargs.values()):
                stack = [a]
                while stack:
                    x = stack.pop()
                    if isinstance(x, Node):
                        out.append(x)
                    elif isinstance(x, (list, tuple)):
                        stack.extend(x)
            return out
        for n in reversed(nodes):
            if n.op == "output" or n in live or (
                    n.op == "call_function" and _mutates_first(n) and n.args[0] in live):
                live.add(n)
                live.update(inputs(n))
        return live

    def constant(self, tensor, base):
        t = tensor.detach()
        dt = _mlir_dtype(t.dtype)
        shape = tuple(t.shape)
        name = self.em.fresh(base)
        arr = t.cpu().numpy()
        if arr.size == 1 or (arr.size and np.all(arr == arr.reshape(-1)[0])):
            v = arr.reshape(-1)[0] if arr.size else 0
            if _is_float(dt):
                lit = _float_literal(v, dt)
            elif dt == "i1":
                lit = "true" if v else "false"
            else:
                lit = str(int(v))
            body = f"dense<{lit}>"
        elif dt == "i1":
            body = "dense<[" + ", ".join("true" if x else "false" for x in arr.reshape(-1)) + "]>"
            if len(shape) != 1:
                raise _Unsupported()
        else:
            npdt = {"f32": "<f4", "f64": "<f8", "f16": "<f2", "i64": "<i8", "i32": "<i4",
                    "i16": "<i2", "i8": "<i1"}.get(dt)
            if npdt is None:
                raise ValueError(f"cannot write a constant of type {dt}")
            body = f'dense<"0x{np.ascontiguousarray(arr, dtype=npdt).tobytes().hex().upper()}">'
        res = _T(name, shape, dt)
        self.em.emit(f"{name} = arith.constant {body} : {res.type}")
        return res

    def text(self, args, results):
        em = self.em
        head = []
        head += em.map_lines
        if em.map_lines:
            head.append("")
        sig = ",\n    ".join(f"{t.name}: {t.type}" for t, _ in args)
        rt = ", ".join(t.type for t in results)
        head.append(f"func.func @{self.name}({sig})\n    -> ({rt})\n"
                    f"    attributes {{ckpt.loss = 0 : i64}} {{")
        body = em.const_lines + em.lines
        body.append(f"  return {', '.join(t.name for t in results)} : {rt}")
        return "\n".join(head + body + ["}", ""])

    # -- one node ----------------------------------------------------------
    def translate(self, node):
        name = _opname(node)
        base = node.name
        metas = _meta(node)
        try:
            if _mutates_first(node) and name not in _ELEMENTWISE:
                # op_ -> op on the same arguments
                functional = name.split(".")[0][:-1] + "." + name.split(".", 1)[1]
                if functional in _ELEMENTWISE or functional in _HANDLERS:
                    result = self.dispatch(node, functional, base, metas)
                else:
                    raise _Unsupported()
            else:
                result = self.dispatch(node, name, base, metas)
        except _Unsupported:
            result = self.opaque(node, name, base, metas)
        self.env[node] = result
        if _mutates_first(node):
            self.env[node.args[0]] = result

    def dispatch(self, node, name, base, metas):
        if name in _VIEW_OPS:
            return self.view_op(node, name, base, metas)
        if name in _ELEMENTWISE:
            fn, is_cmp = _ELEMENTWISE[name]
            return self.elementwise(node, fn, is_cmp, base, metas)
        if name in _REDUCTIONS:
            return self.reduction(node, name, base, metas)
        if name in _HANDLERS:
            return _HANDLERS[name](self, node, base, metas)
        raise _Unsupported()

    def opaque(self, node, name, base, metas):
        from torch.fx import Node
        operands = []

        def collect(a):
            if isinstance(a, Node):
                v = self.env[a]
                if isinstance(v, (_T, _View)):
                    operands.append(v)
            elif isinstance(a, (list, tuple)):
                for x in a:
                    collect(x)
        for a in list(node.args) + list(node.kwargs.values()):
            collect(a)
        results = [m for m in metas if m is not None]
        if not results:
            raise ValueError(f"op {name} has no tensor result")
        flops = _flops(node, name, metas)
        schema = _schema(node)
        full = schema.name.replace("::", ".") if schema is not None else "aten." + name
        if _mutates_first(node) and full.endswith("_"):
            full = full[:-1]  # the step is functional: op_(a) is a = op(a)
        if schema is not None and schema.overload_name not in ("", "default"):
            full += "." + schema.overload_name
        ts = self.em.opaque_op(full, operands, results, flops, base)
        if len(metas) == 1 and hasattr(node.meta.get("tensor_meta"), "shape"):
            return ts[0]
        it = iter(ts)
        return tuple(None if m is None else next(it) for m in metas)

    # -- views -------------------------------------------------------------
    def view_op(self, node, name, base, metas):
        shape, dt = metas[0]
        src = self.val(node.args[0])
        if not isinstance(src, (_T, _View)):
            raise _Unsupported()
        v = src if isinstance(src, _View) else _View(src)
        if name in ("_to_copy.default", "convert_element_type.default", "to.dtype") \
                and dt != v.dt:
            fn, _ = _ELEMENTWISE[name]
            return self.elementwise(node, fn, False, base, metas)
        if name in ("t.default", "transpose.int", "permute.default", "numpy_T.default"):
            n = len(v.shape)
            if name == "t.default" or name == "numpy_T.default":
                perm = list(range(n))[::-1]
            elif name == "transpose.int":
                a, b = node.args[1] % max(n, 1), node.args[2] % max(n, 1)
                perm = list(range(n))
                perm[a], perm[b] = perm[b], perm[a]
            else:
                perm = [p % n for p in node.args[1]]
            return _View(v.root, [v.shape[p] for p in perm], [v.dims[p] for p in perm])
        if name == "expand.default":
            n = len(shape)
            off = n - len(v.shape)
            dims = [None] * off + list(v.dims)
            for i in range(n):
                if i >= off and v.shape[i - off] == shape[i]:
                    continue
                dims[i] = None
            return _View(v.root, shape, dims)
        if tuple(shape) == v.shape:
            return v
        # a reshape: keep it a view when only unit dims change
        a, b = _nonunit(v.shape), _nonunit(shape)
        if [s for _, s in a] == [s for _, s in b]:
            dims = [None] * len(shape)
            for (i, _), (j, _) in zip(a, b):
                dims[j] = v.dims[i]
            return _View(v.root, shape, dims)
        t = self.em.materialize(v, base + "_src")
        return self.em.reshape(t, shape, base)

    # -- elementwise ---------------------------------------------------------
    def elementwise(self, node, fn, is_cmp, base, metas):
        from torch.fx import Node
        shape, out_dt = metas[0]
        n = len(shape)
        args = list(node.args)
        kw = dict(node.kwargs)
        tensors = []  # (position, view)
        for i, a in enumerate(args):
            if isinstance(a, Node):
                v = self.view(a)
                tensors.append((i, v))
        # compute type
        if is_cmp:
            dts = [v.dt for _, v in tensors]
            if any(_is_float(d) for d in dts):
                cdt = max((d for d in dts if _is_float(d)), key=lambda d: _BYTES[d])
            elif any(isinstance(a, float) for a in args[:2]):
                cdt = "f32"
            elif dts and all(d == "i1" for d in dts) and not any(
                    isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
                cdt = "i1"
            else:
                cdt = max(dts, key=lambda d: _BYTES[d]) if dts else "i64"
                if cdt == "i1":
                    cdt = "i64"
        else:
            cdt = out_dt
        ins = []
        for i, v in tensors:
            off = n - len(v.shape)
            if off < 0:
                raise _Unsupported()
            exprs = [f"d{off + k}" if v.shape[k] == shape[off + k] else "0"
                     for k in range(len(v.shape))]
            ins.append((v.root, v.access(exprs)))
        init = self.em.empty(shape, out_dt, base)

        def body(r, in_args, out_args):
            vals = list(args)
            for (i, v), a in zip(tensors, in_args):
                vals[i] = (a, v.dt)
            res = fn(r, vals, cdt, kw)
            rdt = "i1" if is_cmp else cdt
            return [r.cast(res, rdt, out_dt)]
        exprs = [f"d{i}" for i in range(n)]
        return self.em.generic(base, n, ["parallel"] * n, ins, [(init, exprs)], body)[0]

    # -- reductions ----------------------------------------------------------
    def reduction(self, node, name, base, metas):
        x = self.view(node.args[0])
        n = len(x.shape)
        kw = dict(node.kwargs)
        args = list(node.args)
        if name in ("sum.default", "mean.default"):
            dims, keep = list(range(n)), False
        elif name in ("amax.default", "amin.default"):
            dims = args[1] if len(args) > 1 else kw.get("dim", [])
            keep = args[2] if len(args) > 2 else kw.get("keepdim", False)
            dims = list(dims) if dims else list(range(n))
        elif name in ("var.correction", "var_mean.correction", "var.dim", "var.default"):
            dims = args[1] if len(args) > 1 else kw.get("dim")
            dims = list(range(n)) if dims is None else list(dims)
            keep = kw.get("keepdim", args[3] if name == "var.dim" and len(args) > 3 else False)
            if name == "var.dim":
                unbiased = args[2] if len(args) > 2 else kw.get("unbiased", True)
                correction = 1 if unbiased else 0
            elif name == "var.default":
                unbiased = args[1] if len(args) > 1 else kw.get("unbiased", True)
                dims, keep, correction = list(range(n)), False, 1 if unbiased else 0
            else:
                correction = kw.get("correction")
                correction = 1 if correction is None else correction
        else:
            dims = args[1] if len(args) > 1 else kw.get("dim")
            keep = args[2] if len(args) > 2 else kw.get("keepdim", False)
            dims = list(range(n)) if not dims else list(dims)
        dims = sorted(set(d % n for d in dims)) if n else []
        out_dt = metas[0][1]
        if not _is_float(out_dt) and name not in ("sum.dim_IntList", "sum.default",
                                                  "amax.default", "amin.default"):
            raise _Unsupported()
        kept = [i for i in range(n) if i not in dims]
        red_shape = tuple(x.shape[i] for i in kept)
        count = _numel([x.shape[i] for i in dims])
        iters = ["reduction" if i in dims else "parallel" for i in range(n)]
        exprs = [f"d{i}" for i in range(n)]
        out_exprs = [f"d{i}" for i in kept]
        xin = (x.root, x.access(exprs))

        def finish(t):
            if not keep:
                return t
            full = tuple(1 if i in dims else x.shape[i] for i in range(n))
            vdims = []
            k = 0
            for i in range(n):
                if i in dims:
                    vdims.append(None)
                else:
                    vdims.append(k)
                    k += 1
            return _View(t, full, vdims)

        if name.startswith("sum") or name.startswith("mean"):
            scale = 1.0 / count if name.startswith("mean") and count else None
            init = self.em.fill(0, red_shape, out_dt, base)

            def body(r, a, o):
                v = r.cast(a[0], x.dt, out_dt)
                if scale is not None:
                    v = r.mul(v, r.scalar(scale, out_dt), out_dt)
                return [r.add(o[0], v, out_dt)]
            t = self.em.generic(base, n, iters, [xin], [(init, out_exprs)], body)[0]
            return finish(t)
        if name.startswith("amax") or name.startswith("amin"):
            is_max = name.startswith("amax")
            if _is_float(out_dt):
                start = -math.inf if is_max else math.inf
            elif out_dt == "i1":
                start = not is_max
            else:
                bits = _BYTES[out_dt] * 8
                start = -(1 << (bits - 1)) if is_max else (1 << (bits - 1)) - 1
            init = self.em.fill(start, red_shape, out_dt, base)

            def body(r, a, o):
                return [(r.max if is_max else r.min)(o[0], a[0], out_dt)]
            t = self.em.generic(base, n, iters, [xin], [(init, out_exprs)], body)[0]
            return finish(t)
        # variance: the mean, then the mean square deviation
        denom = count - correction
        mean = self.em.fill(0, red_shape, out_dt, base + "_mean")

        def mean_body(r, a, o):
            v = r.mul(r.cast(a[0], x.dt, out_dt), r.scalar(1.0 / count, out_dt), out_dt)
            return [r.add(o[0], v, out_dt)]
        m = self.em.generic(base + "_mean", n, iters, [xin], [(mean, out_exprs)], mean_body)[0]
        var0 = self.em.fill(0, red_shape, out_dt, base)
        inv = (1.0 / denom) if denom > 0 else math.inf

        def var_body(r, a, o):
            d = r.sub(r.cast(a[0], x.dt, out_dt), a[1], out_dt)
            v = r.mul(r.mul(d, d, out_dt), r.scalar(inv, out_dt), out_dt)
            return [r.add(o[0], v, out_dt)]
        var = self.em.generic(base, n, iters, [xin, (m, out_exprs)], [(var0, out_exprs)],
                              var_body)[0]
        if name == "var_mean.correction":
            return (finish(var), finish(m))
        return finish(var)


def _flops(node, name, metas):
    """A flop estimate for an opaque op: known formulas for convolutions,
    matrix products and pooling; one per result element otherwise."""
    out = sum(_numel(m[0]) for m in metas if m is not None)
    try:
        if name.startswith("convolution") or name.startswith("_convolution"):
            w = node.args[1] if name.startswith("convolution.") else node.args[2]
            wshape = w.meta["tensor_meta"].shape  # [F, C / groups, kh, kw]
            per_out = _numel(wshape[1:])
            if name.startswith("convolution_backward"):
                g = node.args[0].meta["tensor_meta"].shape
                mask = node.args[-1]
                return 2 * _numel(g) * per_out * (int(mask[0]) + int(mask[1])) + _numel(g)
            return 2 * out * per_out
        if name.startswith(("mm.", "addmm.", "bmm.", "matmul.")):
            a = node.args[1 if name.startswith("addmm") else 0].meta["tensor_meta"].shape
            return 2 * out * a[-1]
        if "pool" in name:
            k = node.args[1] if "backward" not in name else node.args[2]
            if isinstance(k, (list, tuple)):
                return out * _numel(_ints(k))
    except (AttributeError, IndexError, KeyError, TypeError):
        pass
    return out


# ---------------------------------------------------------------------------
# Handlers of the structured ops.

def _conv_params(node):
    a = node.args
    stride, padding, dilation = _ints(a[3]), _ints(a[4]), _ints(a[5])
    transposed, groups = a[6], a[8]
    return stride, padding, dilation, transposed, groups


@_handler("convolution.default")
def _h_convolution(tr, node, base, metas):
    em = tr.em
    stride, padding, dilation, transposed, groups = _conv_params(node)
    x = tr.mat(node.args[0], base + "_x")
    w = tr.mat(node.args[1], base + "_w")
    if transposed or groups != 1 or len(x.shape) != 4 or _is_float(x.dt) is False:
        raise _Unsupported()
    if any(o != 0 for o in _ints(node.args[7])):
        raise _Unsupported()
    shape, dt = metas[0]
    xp = em.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0, base + "_pad")
    init = em.fill(0.0, shape, dt, base)
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : tensor<2xi64>, "
            f"strides = dense<{stride}> : tensor<2xi64>}} ins({xp.name}, {w.name} : {xp.type}, "
            f"{w.type}) outs({init.name} : {init.type}) -> {res.type}")
    if node.args[2] is not None:
        res = _add_bias(em, res, tr.view(node.args[2]), 1, base + "_bias")
    return res


def _add_bias(em, t, bias, dim, base):
    """t + bias broadcast along dim `dim` of t (bias [C] or [..., C] with
    the trailing dims aligned). A separate op, not the init of the
    contraction: an op that reads only parameters would be an entry of the
    forward graph, which the planner's separator search cannot cut."""
    n = len(t.shape)
    if len(bias.shape) == 1:
        exprs = [f"d{dim}"]
    else:
        off = n - len(bias.shape)
        exprs = [f"d{off + k}" if bias.shape[k] == t.shape[off + k] else "0"
                 for k in range(len(bias.shape))]
    e = em.empty(t.shape, t.dt, base)
    ids = [f"d{i}" for i in range(n)]
    return em.generic(base, n, ["parallel"] * n, [(t, ids), (bias.root, bias.access(exprs))],
                      [(e, ids)], lambda r, a, o: [r.add(a[0], r.cast(a[1], bias.dt, t.dt), t.dt)])[0]


def _dilate_pad(em, g, stride, low, high, base):
    """g [N, C, Ho, Wo] with stride-1 zeros between rows/columns and `low` /
    `high` zeros around (spatial dims)."""
    n, c, ho, wo = g.shape
    if stride == [1, 1]:
        return em.pad(g, [0, 0] + low, [0, 0] + high, 0.0, base)
    full = (n, c, low[0] + (ho - 1) * stride[0] + 1 + high[0],
            low[1] + (wo - 1) * stride[1] + 1 + high[1])
    z = em.fill(0.0, full, g.dt, base)
    name = em.fresh(base)
    res = _T(name, full, g.dt)
    em.emit(f"{name} = tensor.insert_slice {g.name} into {z.name}[0, 0, {low[0]}, {low[1]}] "
            f"[{n}, {c}, {ho}, {wo}] [1, 1, {stride[0]}, {stride[1]}] : {g.type} into {res.type}")
    return res


@_handler("convolution_backward.default")
def _h_convolution_backward(tr, node, base, metas):
    em = tr.em
    a = node.args
    stride, padding, dilation = _ints(a[4]), _ints(a[5]), _ints(a[6])
    transposed, output_padding, groups, mask = a[7], _ints(a[8]), a[9], a[10]
    g = tr.mat(a[0], base + "_g")
    x_node, w_node = a[1], a[2]
    xshape = _meta(x_node)[0][0]
    w = tr.mat(w_node, base + "_w")
    if transposed or groups != 1 or len(xshape) != 4 or any(output_padding):
        raise _Unsupported()
    n, c, h, wd = xshape
    f, _, kh, kw = w.shape
    _, _, ho, wo = g.shape
    dt = g.dt
    k = [kh, kw]
    results = [None, None, None]
    if mask[0]:
        low = [dilation[i] * (k[i] - 1) - padding[i] for i in range(2)]
        size = [h + dilation[0] * (kh - 1), wd + dilation[1] * (kw - 1)]
        high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(2)]
        if min(low) < 0 or min(high) < 0:
            raise _Unsupported()
        gp = _dilate_pad(em, g, stride, low, high, base + "_gpad")
        e = em.empty((c, f, kh, kw), w.dt, base + "_wflip")
        wf = em.generic(base + "_wflip", 4, ["parallel"] * 4,
                        [(w, ["d1", "d0", f"{kh - 1} - d2", f"{kw - 1} - d3"])],
                        [(e, ["d0", "d1", "d2", "d3"])], lambda r, a_, o: [a_[0]])[0]
        init = em.fill(0.0, (n, c, h, wd), dt, base + "_dx")
        name = em.fresh(base + "_dx")
        res = _T(name, (n, c, h, wd), dt)
        em.emit(f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : tensor<2xi64>, "
                f"strides = dense<1> : tensor<2xi64>}} ins({gp.name}, {wf.name} : {gp.type}, "
                f"{wf.type}) outs({init.name} : {init.type}) -> {res.type}")
        results[0] = res
    if mask[1]:
        x = tr.mat(x_node, base + "_x")
        # the input rows and columns the forward convolution read
        need = [(g.shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
        high = [max(0, need[i] - padding[i] - xshape[2 + i]) for i in range(2)]
        xp = em.pad(x, [0, 0] + padding, [0, 0] + high, 0.0, base + "_xpad")
        init = em.fill(0.0, w.shape, dt, base + "_dw")

        def body(r, a_, o):
            return [r.add(o[0], r.mul(a_[0], a_[1], dt), dt)]
        # iteration (f, c, kh, kw, n, oh, ow)
        hexp = f"d5 * {stride[0]} + d2 * {dilation[0]}"
        wexp = f"d6 * {stride[1]} + d3 * {dilation[1]}"
        results[1] = em.generic(base + "_dw", 7, ["parallel"] * 4 + ["reduction"] * 3,
                                [(xp, ["d4", "d1", hexp, wexp]), (g, ["d4", "d0", "d5", "d6"])],
                                [(init, ["d0", "d1", "d2", "d3"])], body)[0]
    if mask[2]:
        init = em.fill(0.0, (f,), dt, base + "_db")
        results[2] = em.generic(base + "_db", 4, ["parallel", "reduction", "reduction", "reduction"],
                                [(g, ["d1", "d0", "d2", "d3"])], [(init, ["d0"])],
                                lambda r, a_, o: [r.add(o[0], a_[0], dt)])[0]
    return tuple(results)


def _pool_params(node, kernel_at, with_dilation):
    a = node.args
    k = _ints(a[kernel_at])
    stride = _ints(a[kernel_at + 1]) if len(a) > kernel_at + 1 and a[kernel_at + 1] else k
    padding = _ints(a[kernel_at + 2]) if len(a) > kernel_at + 2 else [0, 0]
    if with_dilation:
        dilation = _ints(a[kernel_at + 3]) if len(a) > kernel_at + 3 else [1, 1]
    else:
        dilation = [1, 1]
    return k, stride, padding, dilation


@_handler("max_pool2d_with_indices.default")
def _h_max_pool(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    if len(x.shape) != 4 or not _is_float(x.dt):
        raise _Unsupported()
    k, stride, padding, dilation = _pool_params(node, 1, True)
    (shape, dt), (_, idt) = metas
    w = x.shape[3]
    need = [(shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
    high = [max(0, need[i] - padding[i] - x.shape[2 + i]) for i in range(2)]
    xp = em.pad(x, [0, 0] + padding, [0, 0] + high, -math.inf, base + "_pad")
    win = em.empty(tuple(k), dt, base + "_win")
    vals = em.fill(-math.inf, shape, dt, base + "_vals")
    idx = em.fill(0, shape, idt, base + "_idx")

    def body(r, a, o):
        v, m, i = a[0], o[0], o[1]
        oh, ow, kh, kw = r.index(2), r.index(3), r.index(4), r.index(5)
        hh = r.op(f"affine.apply affine_map<(a, b) -> (a * {stride[0]} + b * {dilation[0]} - "
                  f"{padding[0]})>({oh}, {kh})")
        ww = r.op(f"affine.apply affine_map<(a, b) -> (a * {stride[1]} + b * {dilation[1]} - "
                  f"{padding[1]})>({ow}, {kw})")
        flat = r.op(f"affine.apply affine_map<(a, b) -> (a * {w} + b)>({hh}, {ww})")
        flat = r.cast(flat, "index", idt)
        gt = r.cmp("gt", v, m, dt)
        nan = r.op(f"arith.cmpf uno, {v}, {v} : {dt}")
        take = r.op(f"arith.ori {gt}, {nan} : i1")
        return [r.select(take, v, m, dt), r.select(take, flat, i, idt)]
    hexp = f"d2 * {stride[0]} + d4 * {dilation[0]}"
    wexp = f"d3 * {stride[1]} + d5 * {dilation[1]}"
    out = em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                     [(xp, ["d0", "d1", hexp, wexp]), (win, ["d4", "d5"])],
                     [(vals, ["d0", "d1", "d2", "d3"]), (idx, ["d0", "d1", "d2", "d3"])], body)
    return (out[0], out[1])


@_handler("max_pool2d_with_indices_backward.default")
def _h_max_pool_backward(tr, node, base, metas):
    em = tr.em
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    idx = tr.mat(node.args[7], base + "_idx")
    k, stride, padding, dilation = _pool_params(node, 2, True)
    if len(x_shape) != 4:
        raise _Unsupported()
    shape, dt = metas[0]
    n, c, h, w = x_shape
    ho, wo = g.shape[2], g.shape[3]
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, shape, dt, base)

    def body(r, a, o):
        i0, i1, ih, iw, kh, kw = (r.index(d) for d in range(6))
        conds = []
        pos = []
        for (ix, kx, s, p, dd, lim) in ((ih, kh, stride[0], padding[0], dilation[0], ho),
                                          (iw, kw, stride[1], padding[1], dilation[1], wo)):
            # output row t / s reads input row ix through tap kx when
            # t = ix + p - kx * d >= 0, t % s == 0 and t / s < lim
            t = r.op(f"affine.apply affine_map<(a, b) -> (a + {p} - b * {dd})>({ix}, {kx})")
            ok = r.op(f"arith.cmpi sge, {t}, {r.c(0, 'index')} : index")
            q = r.op(f"arith.divsi {t}, {r.c(s, 'index')} : index")
            if s != 1:
                rem = r.op(f"arith.remsi {t}, {r.c(s, 'index')} : index")
                ok2 = r.op(f"arith.cmpi eq, {rem}, {r.c(0, 'index')} : index")
                ok = r.op(f"arith.andi {ok}, {ok2} : i1")
            ok3 = r.op(f"arith.cmpi slt, {q}, {r.c(lim, 'index')} : index")
            ok = r.op(f"arith.andi {ok}, {ok3} : i1")
            pos.append(r.op(f"arith.select {ok}, {q}, {r.c(0, 'index')} : index"))
            conds.append(ok)
        valid = r.op(f"arith.andi {conds[0]}, {conds[1]} : i1")
        gv = r.op(f"tensor.extract {g.name}[{i0}, {i1}, {pos[0]}, {pos[1]}] : {g.type}")
        iv = r.op(f"tensor.extract {idx.name}[{i0}, {i1}, {pos[0]}, {pos[1]}] : {idx.type}")
        flat = r.op(f"affine.apply affine_map<(a, b) -> (a * {w} + b)>({ih}, {iw})")
        flat = r.cast(flat, "index", idx.dt)
        same = r.op(f"arith.cmpi eq, {iv}, {flat} : {idx.dt}")
        hit = r.op(f"arith.andi {valid}, {same} : i1")
        return [r.add(o[0], r.select(hit, gv, r.scalar(0, dt), dt), dt)]
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(win, ["d4", "d5"])], [(init, ["d0", "d1", "d2", "d3"])], body)[0]


def _avg_pool_supported(x_shape, out_shape, k, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    if divisor_override is not None:
        return False
    if any(padding) and not count_include_pad:
        return False
    for i in range(2):
        floor = (x_shape[2 + i] + 2 * padding[i] - k[i]) // stride[i] + 1
        if out_shape[2 + i] != floor:
            return False  # ceil mode added a partial window
    return True


def _avg_args(node, at):
    a = node.args
    k = _ints(a[at])
    stride = _ints(a[at + 1]) if len(a) > at + 1 and a[at + 1] else k
    padding = _ints(a[at + 2]) if len(a) > at + 2 else [0, 0]
    ceil_mode = a[at + 3] if len(a) > at + 3 else False
    cip = a[at + 4] if len(a) > at + 4 else True
    div = a[at + 5] if len(a) > at + 5 else None
    return k, stride, padding, ceil_mode, cip, div


def _avg_pool(tr, x, k, stride, padding, shape, base):
    em = tr.em
    dt = x.dt
    xp = em.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0, base + "_pad")
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, shape, dt, base)
    scale = 1.0 / (k[0] * k[1])
    hexp, wexp = f"d2 * {stride[0]} + d4", f"d3 * {stride[1]} + d5"
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(xp, ["d0", "d1", hexp, wexp]), (win, ["d4", "d5"])],
                      [(init, ["d0", "d1", "d2", "d3"])],
                      lambda r, a, o: [r.add(o[0], r.mul(a[0], r.scalar(scale, dt), dt), dt)])[0]


def _avg_pool_backward(tr, g, x_shape, k, stride, padding, base):
    em = tr.em
    dt = g.dt
    n, c, h, w = x_shape
    low = [k[i] - 1 - padding[i] for i in range(2)]
    size = [h + k[0] - 1, w + k[1] - 1]
    high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(2)]
    if min(low) < 0 or min(high) < 0:
        raise _Unsupported()
    gp = _dilate_pad(em, g, stride, low, high, base + "_gpad")
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, x_shape, dt, base)
    scale = 1.0 / (k[0] * k[1])
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(gp, ["d0", "d1", "d2 + d4", "d3 + d5"]), (win, ["d4", "d5"])],
                      [(init, ["d0", "d1", "d2", "d3"])],
                      lambda r, a, o: [r.add(o[0], r.mul(a[0], r.scalar(scale, dt), dt), dt)])[0]


@_handler("avg_pool2d.default")
def _h_avg_pool(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    shape, dt = metas[0]
    k, stride, padding, ceil_mode, cip, div = _avg_args(node, 1)
    if len(x.shape) != 4 or not _avg_pool_supported(x.shape, shape, k, stride, padding,
                                                     ceil_mode, cip, div):
        raise _Unsupported()
    return _avg_pool(tr, x, k, stride, padding, shape, base)


@_handler("avg_pool2d_backward.default")
def _h_avg_pool_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    k, stride, padding, ceil_mode, cip, div = _avg_args(node, 2)
    if len(x_shape) != 4 or not _avg_pool_supported(x_shape, g.shape, k, stride, padding,
                                                     ceil_mode, cip, div):
        raise _Unsupported()
    return _avg_pool_backward(tr, g, x_shape, k, stride, padding, base)


@_handler("_adaptive_avg_pool2d.default")
def _h_adaptive(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    shape, dt = metas[0]
    if len(x.shape) != 4 or x.shape[2] % shape[2] or x.shape[3] % shape[3]:
        raise _Unsupported()
    k = [x.shape[2] // shape[2], x.shape[3] // shape[3]]
    if k == [1, 1]:
        return x
    return _avg_pool(tr, x, k, k, [0, 0], shape, base)


@_handler("_adaptive_avg_pool2d_backward.default")
def _h_adaptive_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    if len(x_shape) != 4 or x_shape[2] % g.shape[2] or x_shape[3] % g.shape[3]:
        raise _Unsupported()
    k = [x_shape[2] // g.shape[2], x_shape[3] // g.shape[3]]
    if k == [1, 1]:
        return g
    return _avg_pool_backward(tr, g, x_shape, k, k, [0, 0], base)


def _contract(tr, node, base, metas, a_node, b_node, batched, bias_node=None):
    em = tr.em
    shape, dt = metas[0]
    a, b = tr.view(a_node), tr.view(b_node)
    if not (_is_float(a.dt) and a.dt == b.dt == dt):
        raise _Unsupported()
    init = em.fill(0.0, shape, dt, base)
    res = None
    if a.plain() and b.plain():
        op = "linalg.batch_matmul" if batched else "linalg.matmul"
        name = em.fresh(base)
        res = _T(name, shape, dt)
        em.emit(f"{name} = {op} ins({a.root.name}, {b.root.name} : {a.root.type}, {b.root.type}) "
                f"outs({init.name} : {init.type}) -> {res.type}")
    else:
        res = _generic_contract(em, a, b, init, batched, base)
    if bias_node is not None:
        res = _add_bias(em, res, tr.view(bias_node), len(shape) - 1, base + "_bias")
    return res


def _generic_contract(em, a, b, init, batched, base):
    dt = init.dt
    if batched:   # (b, m, n, k)
        ae, be, oe, nd = ["d0", "d1", "d3"], ["d0", "d3", "d2"], ["d0", "d1", "d2"], 4
    else:         # (m, n, k)
        ae, be, oe, nd = ["d0", "d2"], ["d2", "d1"], ["d0", "d1"], 3
    return em.generic(base, nd, ["parallel"] * (nd - 1) + ["reduction"],
                      [(a.root, a.access(ae)), (b.root, b.access(be))], [(init, oe)],
                      lambda r, x, o: [r.add(o[0], r.mul(x[0], x[1], dt), dt)])[0]


@_handler("mm.default")
def _h_mm(tr, node, base, metas):
    return _contract(tr, node, base, metas, node.args[0], node.args[1], False)


@_handler("bmm.default")
def _h_bmm(tr, node, base, metas):
    return _contract(tr, node, base, metas, node.args[0], node.args[1], True)


@_handler("addmm.default")
def _h_addmm(tr, node, base, metas):
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        raise _Unsupported()
    return _contract(tr, node, base, metas, node.args[1], node.args[2], False,
                     bias_node=node.args[0])


@_handler("cat.default")
def _h_cat(tr, node, base, metas):
    em = tr.em
    shape, dt = metas[0]
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    dim %= len(shape)
    parts = [tr.mat(a, base + "_in") for a in node.args[0]]
    parts = [p for p in parts if len(p.shape) == len(shape) and p.shape[dim] > 0]
    if any(p.dt != dt for p in parts):
        raise _Unsupported()
    if len(parts) == 1:
        return parts[0]
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.concat dim({dim}) {', '.join(p.name for p in parts)} : "
            f"({', '.join(p.type for p in parts)}) -> {res.type}")
    return res


def _slice_range(size, start, end, step):
    start = 0 if start is None else start
    end = size if end is None else end
    if start < 0:
        start += size
    if end < 0:
        end += size
    start = min(max(start, 0), size)
    end = min(max(end, start), size)
    return start, end, step


@_handler("slice.Tensor")
def _h_slice(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    a = list(node.args) + [None] * 5
    dim = (a[1] if a[1] is not None else 0) % len(x.shape)
    start, end, step = _slice_range(x.shape[dim], a[2], a[3], a[4] if a[4] is not None else 1)
    shape, dt = metas[0]
    if shape == x.shape:
        return x
    offs = [0] * len(shape)
    strides = [1] * len(shape)
    offs[dim], strides[dim] = start, step
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {list(shape)} {strides} : "
            f"{x.type} to {res.type}")
    return res


@_handler("select.int")
def _h_select(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    dim = node.args[1] % len(x.shape)
    index = node.args[2] % x.shape[dim]
    shape, dt = metas[0]
    offs = [0] * len(x.shape)
    sizes = list(x.shape)
    offs[dim], sizes[dim] = index, 1
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {sizes} {[1] * len(sizes)} : "
            f"{x.type} to {res.type}")
    return res


def _insert(em, src, dst, offs, sizes, strides, base):
    name = em.fresh(base)
    res = _T(name, dst.shape, dst.dt)
    em.emit(f"{name} = tensor.insert_slice {src.name} into {dst.name}{offs} {sizes} {strides} : "
            f"{src.type} into {dst.type}")
    return res


@_handler("slice_backward.default")
def _h_slice_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    sizes, dim, start, end, step = node.args[1:6]
    shape, dt = metas[0]
    dim %= len(shape)
    start, end, step = _slice_range(shape[dim], start, end, step)
    z = tr.em.fill(0.0 if _is_float(dt) else 0, shape, dt, base)
    offs, strides = [0] * len(shape), [1] * len(shape)
    offs[dim], strides[dim] = start, step
    return _insert(tr.em, g, z, offs, list(g.shape), strides, base)


@_handler("select_backward.default")
def _h_select_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    sizes, dim, index = node.args[1:4]
    shape, dt = metas[0]
    dim %= len(shape)
    z = tr.em.fill(0.0 if _is_float(dt) else 0, shape, dt, base)
    offs, sz = [0] * len(shape), list(shape)
    offs[dim], sz[dim] = index % shape[dim], 1
    return _insert(tr.em, g, z, offs, sz, [1] * len(shape), base)


@_handler("slice_scatter.default")
def _h_slice_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    a = list(node.args) + [None] * 6
    dim = (a[2] if a[2] is not None else 0) % len(x.shape)
    start, end, step = _slice_range(x.shape[dim], a[3], a[4], a[5] if a[5] is not None else 1)
    offs, strides = [0] * len(x.shape), [1] * len(x.shape)
    offs[dim], strides[dim] = start, step
    return _insert(tr.em, src, x, offs, list(src.shape), strides, base)


@_handler("select_scatter.default")
def _h_select_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    dim = node.args[2] % len(x.shape)
    offs, sz = [0] * len(x.shape), list(x.shape)
    offs[dim], sz[dim] = node.args[3] % x.shape[dim], 1
    return _insert(tr.em, src, x, offs, sz, [1] * len(x.shape), base)


def _strided_box(node, base_shape, size, stride, offset):
    """The box (offsets, steps) of base_shape that as_strided(size, stride,
    offset) selects when the input is a contiguous tensor of its own storage
    (a fresh result, not a view), or None."""
    src = node.args[0]
    val = getattr(src, "meta", {}).get("val")
    if _is_view(src) or src.op != "call_function":
        return None
    if val is not None and (val.storage_offset() != 0 or not val.is_contiguous()):
        return None
    n = len(base_shape)
    if len(size) != n:
        return None
    cstride = [_numel(base_shape[i + 1:]) for i in range(n)]
    offs, steps, rest = [], [], offset
    for i in range(n):
        offs.append(rest // cstride[i])
        rest %= cstride[i]
        if size[i] == 1:
            steps.append(1)
        elif stride[i] % cstride[i] == 0 and stride[i] > 0:
            steps.append(stride[i] // cstride[i])
        else:
            return None
        if offs[i] + (size[i] - 1) * steps[i] >= base_shape[i]:
            return None
    return offs, steps


@_handler("as_strided.default")
def _h_as_strided(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    size, stride = list(node.args[1]), list(node.args[2])
    offset = node.args[3] if len(node.args) > 3 and node.args[3] is not None else 0
    box = _strided_box(node, x.shape, size, stride, offset)
    if box is None:
        raise _Unsupported()
    offs, steps = box
    shape, dt = metas[0]
    name = tr.em.fresh(base)
    res = _T(name, shape, dt)
    tr.em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {size} {steps} : "
               f"{x.type} to {res.type}")
    return res


@_handler("as_strided_scatter.default")
def _h_as_strided_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    size, stride = list(node.args[2]), list(node.args[3])
    offset = node.args[4] if len(node.args) > 4 and node.args[4] is not None else 0
    box = _strided_box(node, x.shape, size, stride, offset)
    if box is None or tuple(size) != src.shape:
        raise _Unsupported()
    offs, steps = box
    return _insert(tr.em, src, x, offs, size, steps, base)


@_handler("split.Tensor", "split_with_sizes.default", "unbind.int")
def _h_split(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    name = _opname(node)
    dim = (node.args[2] if len(node.args) > 2 else node.kwargs.get("dim", 0)) \
        if name != "unbind.int" else (node.args[1] if len(node.args) > 1 else 0)
    dim %= len(x.shape)
    out = []
    start = 0
    for k, (shape, dt) in enumerate(metas):
        offs, sizes = [0] * len(x.shape), list(x.shape)
        if name == "unbind.int":
            offs[dim], sizes[dim] = k, 1
        else:
            offs[dim], sizes[dim] = start, shape[dim]
            start += shape[dim]
        r = em.fresh(f"{base}_{k}")
        res = _T(r, shape, dt)
        em.emit(f"{r} = tensor.extract_slice {x.name}{offs} {sizes} {[1] * len(sizes)} : "
                f"{x.type} to {res.type}")
        out.append(res)
    return tuple(out)


@_handler("constant_pad_nd.default")
def _h_constant_pad(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    pads = list(node.args[1])
    value = node.args[2] if len(node.args) > 2 else 0
    if any(p < 0 for p in pads):
        raise _Unsupported()
    n = len(x.shape)
    low, high = [0] * n, [0] * n
    for i in range(len(pads) // 2):
        low[n - 1 - i], high[n - 1 - i] = pads[2 * i], pads[2 * i + 1]
    return tr.em.pad(x, low, high, value, base)


def _creation(value_of):
    def handler(tr, node, base, metas):
        shape, dt = metas[0]
        v = value_of(node)
        if _is_float(dt):
            v = float(v)
        elif dt == "i1":
            v = bool(v)
        else:
            v = int(v)
        return tr.em.fill(v, shape, dt, base)
    return handler


for _n, _f in (("ones_like.default", lambda n: 1), ("zeros_like.default", lambda n: 0),
               ("empty_like.default", lambda n: 0), ("new_zeros.default", lambda n: 0),
               ("new_ones.default", lambda n: 1), ("new_empty.default", lambda n: 0),
               ("new_empty_strided.default", lambda n: 0),
               ("zeros.default", lambda n: 0), ("ones.default", lambda n: 1),
               ("empty.memory_format", lambda n: 0),
               ("full_like.default", lambda n: n.args[1]),
               ("new_full.default", lambda n: n.args[2]),
               ("full.default", lambda n: n.args[1]),
               ("scalar_tensor.default", lambda n: n.args[0]),
               ("fill.Scalar", lambda n: n.args[1])):
    _HANDLERS[_n] = _creation(_f)


# ---------------------------------------------------------------------------
# The public API.

def import_module_info(module, example_inputs, target, loss="cross_entropy", name=None,
                       device="h100", tracing_mode="fake"):
    """Like import_module, but returns (text, info): info holds the counts
    ('aten_ops', 'mlir_ops', 'opaque_ops', 'opaque' by name), the parameter
    names ('params'), the seconds spent tracing ('trace_s', functionalization
    included) and emitting ('emit_s'), the function name ('name') and whether
    functorch's functionalize was needed ('functionalized': in-place ops on
    views or inputs)."""
    import torch
    if device not in DEVICES:
        raise ValueError(f"unknown device '{device}'; known: {', '.join(DEVICES)}")
    if tracing_mode not in ("fake", "real"):
        raise ValueError("tracing_mode must be 'fake' or 'real'")
    if name is None:
        name = type(module).__name__.lower()
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not name.endswith("_step"):
        name += "_step"
    gm, pnames, pshapes, inputs, target, trace_s, functionalized = _trace(
        module, example_inputs, target, loss, tracing_mode)
    start = time.perf_counter()
    arg_info = []
    if len(inputs) == 1:
        arg_info.append(("x", f"input {list(inputs[0].shape)}"))
    else:
        for i, x in enumerate(inputs):
            arg_info.append((f"x{i}", f"input {i} {list(x.shape)}"))
    arg_info.append(("t", f"target {list(target.shape)} ({loss})"))
    for i, (pn, ps) in enumerate(zip(pnames, pshapes)):
        arg_info.append((f"p{i}", f"{pn} {list(ps)}"))
    tr = _Translator(gm, name, arg_info, device)
    body = tr.run()
    header = [
        f"// Imported by ckpt.torch_import from PyTorch {torch.__version__}: "
        f"{type(module).__name__}, loss {loss}.",
        "// Training mode; batch norm uses batch statistics (running statistics dropped);",
        "// dropout off. Results: the loss, then the gradient of each parameter.",
        "// Arguments:",
    ] + [f"//   %{a}: {c}" for a, c in arg_info]
    if tr.em.opaque:
        header.append("// Opaque ops (planned, not executable): " + ", ".join(
            f"{k} x{v}" for k, v in sorted(tr.em.opaque.items())))
    text = "\n".join(header) + "\n\n" + body
    info = {
        "aten_ops": tr.aten_ops,
        "mlir_ops": tr.em.top_ops + len(tr.em.const_lines),
        "opaque_ops": sum(tr.em.opaque.values()),
        "opaque": dict(tr.em.opaque),
        "params": pnames,
        "trace_s": trace_s,
        "emit_s": time.perf_counter() - start,
        "name": name,
        "functionalized": functionalized,
    }
    return text, info


def import_module(module, example_inputs, target, loss="cross_entropy", name=None,
                  device="h100", tracing_mode="fake"):
    """The training step of `module` as MLIR text.

    module: a torch.nn.Module (copied; the copy is put in training mode,
      batch-norm running statistics dropped, dropout off);
    example_inputs: a tensor or a tuple of tensors (only their shapes and
      dtypes matter with the default fake-tensor tracing);
    target: cross_entropy: class probabilities [N, K] or class indices [N];
      mse: a tensor of the output's shape;
    name: the function is @<name>_step (default: the class name, lowercase);
    device: the profile for the time of opaque ops (h100, a100, v100, cpu);
    tracing_mode: 'fake' (shapes only) or 'real' (runs the model).
    Raises ValueError when the step cannot be traced or translated."""
    return import_module_info(module, example_inputs, target, loss, name, device,
                              tracing_mode)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m ckpt.torch_import",
        description="Import the training step of a model into MLIR (a ckpt training "
                    "step): a built-in name, any torchvision.models constructor, or "
                    "your own nn.Module as path/to/file.py:ClassOrFactory.")
    ap.add_argument("model", help="a built-in (" + ", ".join(MODELS) + "), another "
                    "torchvision.models constructor (e.g. mobilenet_v2, vit_b_16, "
                    "convnext_tiny), or path/to/file.py:Name, where Name is an "
                    "nn.Module class or a function returning one, called with no "
                    "arguments (needs --input-shape)")
    ap.add_argument("--batch", type=int, help="batch size (built-in and torchvision "
                    "models)")
    ap.add_argument("--image", type=int, help="image size (default: 224; 299 for "
                    "inception_v3, 16 for tinyresnet)")
    ap.add_argument("--classes", type=int, help="number of classes (default 1000; 10 "
                    "for tinyresnet)")
    ap.add_argument("--input-shape", help="your model's input, e.g. 8x3x224x224 "
                    "(the batch is its first size)")
    ap.add_argument("--input-dtype", default="float32",
                    choices=["float32", "float64", "int64", "int32"],
                    help="your model's input type (int64 for token ids; default float32)")
    ap.add_argument("--target-shape", help="your model's target (default: the "
                    "output's shape; one size with cross_entropy: class indices)")
    ap.add_argument("--loss", default="cross_entropy", choices=["cross_entropy", "mse"])
    ap.add_argument("--device", default="h100", choices=sorted(DEVICES),
                    help="profile for the time of opaque ops (default h100)")
    ap.add_argument("--tracing", default="fake", choices=["fake", "real"])
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    ap.add_argument("--stats", action="store_true",
                    help="print op counts and timings to stderr")
    opts = ap.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(max(1, min(torch.get_num_threads(), 4)))
        user = ":" in opts.model
        if user:
            if opts.input_shape is None:
                raise ValueError("a model given as path/to/file.py:Name needs --input-shape")
            for flag in ("batch", "image", "classes"):
                if getattr(opts, flag) is not None:
                    raise ValueError(f"--{flag} is for built-in models; give "
                                     f"--input-shape (and --target-shape) instead")
            model, name = load_user_model(opts.model)
            name = name.lower()
            target_shape = (_shape(opts.target_shape, "--target-shape")
                            if opts.target_shape else None)
            x, target = user_inputs(model, _shape(opts.input_shape, "--input-shape"),
                                    opts.input_dtype, target_shape, opts.loss)
        else:
            for flag in ("input_shape", "target_shape"):
                if getattr(opts, flag) is not None:
                    raise ValueError(f"--{flag.replace('_', '-')} is for models given as "
                                     f"path/to/file.py:Name")
            if opts.batch is None:
                raise ValueError("--batch is required for built-in and torchvision models")
            if opts.batch < 1:
                raise ValueError("--batch must be at least 1")
            model, x, target = build_model(opts.model, opts.classes, opts.image, opts.batch)
            name = opts.model
            if opts.loss == "mse":
                target = target * 2 - 1
        text, info = import_module_info(model, x, target, opts.loss, name=name,
                                        device=opts.device, tracing_mode=opts.tracing)
    except ValueError as e:
        print(f"ckpt.torch_import: error: {e}", file=sys.stderr)
        return 1
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w") as f:
            f.write(text)
    if opts.stats:
        op = ", ".join(f"{k} x{v}" for k, v in sorted(info["opaque"].items())) or "none"
        print(f"{info['name']}: {info['aten_ops']} aten ops -> {info['mlir_ops']} MLIR ops, "
              f"{info['opaque_ops']} opaque ({op}); trace {info['trace_s']:.2f} s, "
              f"emit {info['emit_s']:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
