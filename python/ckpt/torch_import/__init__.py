"""Import a PyTorch training step into MLIR (a `ckpt` training step).

    .venv/bin/python -m ckpt.torch_import MODEL --batch N [--image S]
        [--classes K] [--loss cross_entropy|mse] [-o OUT.mlir]

MODEL is any torchvision model (classification, segmentation, video), a
small built-in one (`tinyresnet`, `tinymlp`, `tinytransformer`, the
transformers `tinygpt`, `gpt2small`, `llama`, sized by
--layers/--width/--heads/--kv-heads/--seq/--vocab), `hf:CONFIG.json` (a
Hugging Face model from its config, trained with its own loss: `hf`),
`timm:NAME`, or your own `path/to/file.py:Name`. `--check` runs the step
against eager PyTorch (`check`). PyTorch 2 (torch.func). From Python::

    from ckpt.torch_import import import_module
    text = import_module(model, x, target, loss="cross_entropy")

What is traced: the whole training step, `functional_call` of the model with
its parameters as inputs, the loss and `torch.autograd.grad` of the loss
w.r.t. every parameter, with `make_fx` (fake tensors: no real compute; oneDNN
off, so that recurrent layers trace to their cells) and PyTorch's
decompositions for batch norm, layer/group norm, softmax, log-softmax, nll
loss, mse loss, SDPA's safe softmax and vector norms. In-place ops are made functional (by a
checked local rewrite, or `torch.func.functionalize` where that
rewrite does not apply). The result is one
`func.func @<name>_step(%x, %t, %p0, ...) -> (loss, grad0, ...)
attributes {ckpt.loss = 0 : i64}` on static-shape tensors, the loss a 0-d
`tensor<f32>`.

Semantics: the model runs in training mode, except dropout, which is off
(nn.Dropout in eval mode, nn.MultiheadAttention's dropout 0) unless
`dropout=True` (`--dropout`): then each mask is drawn by Philox4x32-10 from
(the step's %seed argument, mask number, element index), a pure function, so
that a recomputed mask is the one drawn first. Batch norm uses the batch statistics, as in
training; its running statistics are dropped (the modules are traced with
`track_running_stats=False`), so the step neither reads nor updates them.
Every parameter gets a gradient (zeros when the loss does not depend on it).
The model is copied first; the caller's module is not changed.

Baselines: `keep=` (`--keep blocks|attention|matmuls`) marks the forward
values a hand-written recompute policy keeps with `ckpt.checkpoint`, for
`ckpt-plan{strategy=keep}` (see `policies`).

Locations: `locations=True` (`--locations`) puts each op at `loc("NODE")`,
NODE the node of the traced FX graph it comes from (`info["graph"]`).

Back to PyTorch: `torch_policy(model, x, target, budget="60%")` plans the
step with ckpt and returns a TorchPlan, the forward and backward graphs of
the step's joint graph with ckpt's saved values and recomputations, which
trains in eager PyTorch through autograd (`plan(*plan.args).backward()`;
see `export`).

Losses: `cross_entropy` takes either class probabilities `[N, K]` (float) or
class indices `[N]` (integers, turned into one-hot probabilities, which gives
the same loss), always passed to the step as a float `[N, K]` tensor (soft
labels); `mse` takes a float target of the output's shape. Both are means
over the batch (PyTorch's default reduction). `loss` is a spec string
(`losses.py`): also `nll_loss`, `cross_entropy:label_smoothing=E,ignore_index=I`,
`cross_entropy:indices`; with class indices kept, `%t` is an integer `[N]`
argument. Index ops clamp out-of-range indices, and an integer argument an
index op reads gets `{ckpt.range = array<i64: 0, n>}` (`ops_index.py`).

Ops: the ATen ops of the op table (`EXECUTABLE_OPS`) become upstream MLIR
(linalg named ops and `linalg.generic`, `tensor`, `arith`, `math`) that
ckpt-opt can lower to the CPU and run; every other op becomes
`ckpt.opaque "aten.<name>"` with the real result types and a `#ckpt.work`
(flops where known, bytes = operands + results; ckpt-opt times it with the
roofline of the device the step is planned for, `ckpt-plan device=`). Such a
step can be planned, but not lowered.

Buffers (persistent or not), tensor attributes and constants made in
forward are read as dense constants of the step (fake tracing converts them
to fake tensors where an op reads them), never arguments; equal ones are
written once.

Errors (a model that cannot be traced, data-dependent shapes, a target of
the wrong shape) raise ValueError, one line: for a failure while running or
tracing the model, the ATen op, the module path (`blocks.0.attn`) and the
source line; the command line prints the message and exits 1.
"""

from .models import MODELS, build_model
from .trace import load_user_model, user_inputs
from .ops import EXECUTABLE_OPS
# The op handlers register themselves as their modules are imported; a
# handler that replaces another names it (`replaces=`), and its module
# imports the replaced one's first, so the order here does not matter.
from . import ops_structured, ops_tensor, ops_index  # noqa: F401  (register their op handlers)
from . import ops_conv  # noqa: F401,E402  (grouped and transposed convolutions)
from . import ops_conv3d  # noqa: F401,E402  (3-D convolutions)
from . import ops_attention  # noqa: F401,E402  (scaled_dot_product_attention)
from . import ops_resize  # noqa: F401,E402  (F.interpolate: nearest, bilinear)
from .api import import_module, import_module_info, main
from .export import StepPlanner, TorchPlan, torch_policy

__all__ = [
    "EXECUTABLE_OPS",
    "MODELS",
    "load_user_model",
    "user_inputs",
    "build_model",
    "import_module",
    "import_module_info",
    "main",
    "StepPlanner",
    "TorchPlan",
    "torch_policy",
]
