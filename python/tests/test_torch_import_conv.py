"""Grouped, depthwise and transposed convolutions, the activations of
MobileNet and ConvNeXt, and stochastic depth through the PyTorch importer
(python/ckpt/torch_import/ops_conv.py; issue 27, item 2).

Every model here is imported with no `ckpt.opaque` op, lowered with
`ckpt-opt --ckpt-wrap-step --ckpt-lower-to-cpu`, run with `ckpt-run --seed=7
--print-outputs`, and its loss and every gradient are compared with eager
PyTorch on ckpt-run's inputs under numerics.py's error model
(test_torch_import.check_against_torch; PyTorch's own float32 result must
pass the same bound). Stochastic depth (torchvision's StochasticDepth, on
with `dropout=True`) draws its row masks with the importer's counter-based
Philox: the eager reference multiplies by the masks the independent Python
Philox gives for ckpt-run's seed. Planned with `ckpt-opt
--ckpt-remat-pipeline=budget=70%` (or the least feasible budget the error
names), lowered and run, the steps give bit-identical outputs to the
unplanned run.

Run: .venv/bin/python -m pytest python/tests/test_torch_import_conv.py
"""

import json
import re

import numpy as np
import pytest
import torch
from torch import nn

torch.set_num_threads(1)

from ckpt import torch_import as ti  # noqa: E402
from ckpt.mlir_runner import splitmix_inputs  # noqa: E402

import numerics  # noqa: E402
from test_torch_import import (_philox_mask, check_against_torch, lower_and_run,  # noqa: E402
                               run)



# ---------------------------------------------------------------------------
# Models

class _GroupedConvs(nn.Module):
    """Grouped (groups=2), depthwise with stride 2 on a 10x10 input (the
    last padded row unread), depthwise with channel multiplier 2 and
    dilation 2 (no bias), and a grouped (3, 1) kernel with stride (2, 1)."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(4, 8, 3, padding=1, groups=2)
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.c3 = nn.Conv2d(8, 16, 3, padding=2, dilation=2, groups=8, bias=False)
        self.c4 = nn.Conv2d(16, 8, (3, 1), stride=(2, 1), padding=(1, 0), groups=4)
        self.fc = nn.Linear(8 * 3 * 5, 5)

    def forward(self, x):
        h = torch.tanh(self.c1(x))
        h = torch.tanh(self.c2(h))
        h = torch.tanh(self.c3(h))
        return self.fc(self.c4(h).flatten(1))


class _Transposed(nn.Module):
    """ConvTranspose2d: stride 2, padding 1, output_padding 1 (5 -> 10);
    grouped (2), stride 2, padding 3 > d(k-1) (10 -> 15: the dilated input
    cropped); dilation 2, no bias (15 -> 17); then a strided convolution."""

    def __init__(self):
        super().__init__()
        self.t1 = nn.ConvTranspose2d(3, 6, 3, stride=2, padding=1, output_padding=1)
        self.t2 = nn.ConvTranspose2d(6, 4, 3, stride=2, padding=3, groups=2)
        self.t3 = nn.ConvTranspose2d(4, 4, 2, dilation=2, bias=False)
        self.c = nn.Conv2d(4, 2, 3, stride=4)

    def forward(self, x):
        h = torch.tanh(self.t1(x))
        h = torch.tanh(self.t2(h))
        h = torch.tanh(self.t3(h))
        return self.c(h).flatten(1)


class _Activations(nn.Module):
    """SiLU, Hardswish, Hardsigmoid (functional: decomposed by the tracer;
    in place: aten.hardswish_ / hardsigmoid_ and their backwards), ReLU6,
    GELU (tanh and erf) after (depthwise) convolutions."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 6, 3, padding=1)
        self.c2 = nn.Conv2d(6, 6, 3, padding=1, groups=6)
        self.c3 = nn.Conv2d(6, 6, 1)
        self.fc = nn.Linear(6, 4)

    def forward(self, x):
        h = self.c1(x) * 3
        h = nn.functional.silu(h) + nn.functional.hardswish(h)
        h = self.c2(h)
        h = nn.functional.hardsigmoid(h) * nn.functional.relu6(h * 4)
        h = nn.functional.hardswish(self.c3(h) * 4, inplace=True) + \
            nn.functional.hardsigmoid(h * 5, inplace=True)
        h = self.c3(h)
        h = nn.functional.gelu(h, approximate="tanh") + nn.functional.gelu(h)
        return self.fc(h.mean((2, 3)))


def _tiny_mobilenet_v2():
    """MobileNetV2's inverted residuals (torchvision's class): a stride-2
    stem, a residual block with expansion 2, a stride-2 block with
    expansion 3 (1x1 expand, 3x3 depthwise, 1x1 project; BN, ReLU6)."""
    from torchvision.models.mobilenetv2 import InvertedResidual
    from torchvision.ops.misc import Conv2dNormActivation
    torch.manual_seed(0)
    return nn.Sequential(
        Conv2dNormActivation(3, 8, stride=2, norm_layer=nn.BatchNorm2d,
                             activation_layer=nn.ReLU6),
        InvertedResidual(8, 8, 1, 2), InvertedResidual(8, 12, 2, 3),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(1), nn.Linear(12, 5))


def _tiny_mobilenet_v3():
    """MobileNetV3's blocks (torchvision's class): Hardswish, a 5x5 depthwise
    convolution, squeeze-and-excitation with Hardsigmoid."""
    from torchvision.models.mobilenetv3 import InvertedResidual, InvertedResidualConfig
    from torchvision.ops.misc import Conv2dNormActivation
    torch.manual_seed(0)
    cfg1 = InvertedResidualConfig(8, 3, 16, 8, True, "RE", 1, 1, 1.0)
    cfg2 = InvertedResidualConfig(8, 5, 24, 16, True, "HS", 2, 1, 1.0)
    return nn.Sequential(
        Conv2dNormActivation(3, 8, stride=2, norm_layer=nn.BatchNorm2d,
                             activation_layer=nn.Hardswish),
        InvertedResidual(cfg1, nn.BatchNorm2d), InvertedResidual(cfg2, nn.BatchNorm2d),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(1), nn.Linear(16, 5))


class _TinyConvNeXt(nn.Module):
    """ConvNeXt's blocks (torchvision's CNBlock: 7x7 depthwise convolution,
    permute to NHWC, LayerNorm, Linear, GELU, Linear, permute back, layer
    scale, stochastic depth) and LayerNorm2d, with a patchify stem, a
    downsampling layer and torchvision's head (global average pooling,
    LayerNorm2d, Flatten, Linear). Stochastic depth 0.5 in the last two
    blocks (0 in the first: no mask). `torchvision_head=False` normalizes
    the pooled features with nn.LayerNorm after Flatten instead of
    LayerNorm2d before it (same values): see
    test_convnext_torchvision_head_lowers."""

    def __init__(self, sd=0.5, torchvision_head=False):
        super().__init__()
        from torchvision.models.convnext import CNBlock, LayerNorm2d
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 2, stride=2), LayerNorm2d(8, eps=1e-6))
        self.stage1 = nn.Sequential(CNBlock(8, 0.5, 0.0), CNBlock(8, 0.5, sd))
        self.down = nn.Sequential(LayerNorm2d(8, eps=1e-6), nn.Conv2d(8, 16, 2, stride=2))
        self.stage2 = CNBlock(16, 0.5, sd)
        if torchvision_head:
            self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), LayerNorm2d(16, eps=1e-6),
                                      nn.Flatten(1), nn.Linear(16, 5))
        else:
            self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(1),
                                      nn.LayerNorm(16, eps=1e-6), nn.Linear(16, 5))

    def forward(self, x):
        return self.head(self.stage2(self.down(self.stage1(self.stem(x)))))


def _double_conv(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class _TinyUNet(nn.Module):
    """A two-level U-Net: max-pooling down, ConvTranspose2d up (kernel 2
    stride 2, and kernel 3 stride 2 padding 1 output_padding 1), skips
    concatenated; per-pixel scores as rows [B*H*W, classes]."""

    def __init__(self, w=4, classes=3):
        super().__init__()
        self.enc1 = _double_conv(3, w)
        self.enc2 = _double_conv(w, 2 * w)
        self.mid = _double_conv(2 * w, 2 * w)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.ConvTranspose2d(2 * w, 2 * w, 2, stride=2)
        self.dec2 = _double_conv(4 * w, w)
        self.up1 = nn.ConvTranspose2d(w, w, 3, stride=2, padding=1, output_padding=1)
        self.dec1 = _double_conv(2 * w, w)
        self.out = nn.Conv2d(w, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        y = self.out(d1)
        return y.permute(0, 2, 3, 1).reshape(-1, y.shape[1])


def _ce_target(model, x):
    with torch.no_grad():
        out = ti.trace._prepare(model)(x)
    return torch.softmax(torch.rand(out.shape), -1)


# ---------------------------------------------------------------------------
# Import, run, compare

def _eager(model, loss, ins, dtype, masks=None, terms=False):
    """Loss and every gradient by eager autograd on ckpt-run's inputs `ins`
    (x, target, params..., [seed]) in `dtype`, with the importer's
    semantics; `masks`: stochastic depth on, StochasticDepth number n
    (those with p > 0, in forward order) multiplying by masks[n] / (1 - p).
    With `terms`, also the sum|terms| of each bias gradient's entries (the
    sum over all but the bias's axis of |gradient at the module's output|;
    numerics.bound), None for the other results."""
    from torch.func import functional_call
    from torchvision.ops import StochasticDepth
    m = ti.trace._prepare(model, dropout=masks is not None)
    if masks is not None:
        live = [s for s in m.modules() if isinstance(s, StochasticDepth) and s.p > 0]
        assert len(live) == len(masks)
        for s, mask in zip(live, masks):
            s.forward = (lambda inp, s=s, mask=mask:
                         inp * torch.tensor(mask).to(dtype) / (1.0 - s.p))
    names = [n for n, _ in m.named_parameters()]
    ps = [torch.tensor(a).to(dtype).requires_grad_() for a in ins[2:2 + len(names)]]
    state = dict(zip(names, ps))
    sums, handles = {}, []
    for mname, mod in m.named_modules() if terms else ():
        bias = getattr(mod, "bias", None)
        if not isinstance(bias, nn.Parameter):
            continue

        def hook(mod, inputs, out, key=f"{mname}.bias",
                 trailing=isinstance(mod, nn.Linear) or type(mod) is nn.LayerNorm):
            def grad_hook(g):
                a = g.abs()
                a = (a.reshape(-1, a.shape[-1]).sum(0) if trailing
                     else a.transpose(0, 1).flatten(1).sum(1))
                sums[key] = sums.get(key, 0) + a.detach().numpy()
            out.register_hook(grad_hook)
        handles.append(mod.register_forward_hook(hook))
    try:
        y = functional_call(m, state, (torch.tensor(ins[0]).to(dtype),))
        fn = nn.functional.cross_entropy if loss == "cross_entropy" else nn.functional.mse_loss
        value = fn(y, torch.tensor(ins[1]).to(dtype))
        grads = torch.autograd.grad(value, ps)
    finally:
        for h in handles:
            h.remove()
    results = [value.detach().numpy()] + [g.numpy() for g in grads]
    return (results, [None] + [sums.get(n) for n in names]) if terms else results


WORST = {}   # name -> (ours, PyTorch's) worst |error| / bound, for the record


def _check(model, x, target, loss, name, tmp_path, dropout=False):
    """Imports `model` (no opaque op), lowers and runs it with ckpt-run, and
    compares the loss and every gradient with eager autograd on ckpt-run's
    inputs (numerics.check_results, with the bias gradients' terms). With
    `dropout`, stochastic depth is on and the eager reference uses the
    masks of the independent Python Philox for ckpt-run's seed. Returns
    (text, info, masks)."""
    from torchvision.ops import StochasticDepth
    text, info = ti.import_module_info(model, x, target, loss, name=name, dropout=dropout)
    assert info["opaque_ops"] == 0, info["opaque"]
    result = lower_and_run(text, f"{name}_step", tmp_path)
    assert result["leaked_bytes"] == 0
    params = [p.detach().numpy() for p in model.parameters()]
    shapes = [tuple(x.shape), tuple(target.shape)] + [p.shape for p in params]
    dtypes = [np.float32] * len(shapes)
    if info["dropouts"]:
        shapes.append(())
        dtypes.append(np.int64)
    ins = splitmix_inputs(shapes, 7, dtypes)
    masks = None
    if dropout:
        seed = int(ins[-1])
        sds = [m for m in model.modules() if isinstance(m, StochasticDepth) and m.p > 0]
        assert info["dropouts"] == len(sds)
        masks = [_philox_mask(seed, n, (x.shape[0],) + (1,) * (x.dim() - 1), m.p)
                 for n, m in enumerate(sds)]
    got = [np.asarray(o["values"], dtype=np.float64) for o in result["outputs"]]
    k = numerics.reduction_length(model, x, loss)
    ref32 = _eager(model, loss, ins, torch.float32, masks)
    ref64, terms = _eager(model, loss, ins, torch.float64, masks, terms=True)
    WORST[name] = numerics.check_results(got, ref32, ref64, f"{name} via ckpt-run", k,
                                         terms=terms)
    return text, info, masks


# ---------------------------------------------------------------------------
# Planning: bit-identical outputs

def _remat_identical(text, name, tmp_path, budget="70%"):
    """The step planned and rewritten by `ckpt-opt --ckpt-remat-pipeline=
    budget=B` (at the least feasible budget the error names where B is
    infeasible), lowered and run: its outputs are bit-identical to the
    unplanned step's, nothing leaks. Returns (budget used, least or None)."""
    step = tmp_path / f"{name}.mlir"
    step.write_text(text)
    entry = f"{name}_step"

    def lowered_run(args, out):
        r = run(["ckpt-opt", str(step)] + args + ["--ckpt-lower-to-cpu", "-o", str(out),
                                                 "--mlir-print-op-on-diagnostic=false"])
        if r.returncode:
            return r, None
        r2 = run(["ckpt-run", str(out), f"--entry={entry}", "--seed=7"])
        assert r2.returncode == 0, r2.stderr[:4000]
        return r, json.loads(r2.stdout)

    _, base = lowered_run(["--ckpt-wrap-step"], tmp_path / "base.mlir")
    r, planned = lowered_run([f"--ckpt-remat-pipeline=budget={budget}"], tmp_path / "p.mlir")
    least = None
    if planned is None:
        m = re.search(r"the least feasible budget is (\d+) B", r.stderr)
        assert m, r.stderr[:4000]
        least = int(m.group(1))
        r, planned = lowered_run([f"--ckpt-remat-pipeline=budget={least}"], tmp_path / "p.mlir")
        assert planned is not None, r.stderr[:4000]
        assert planned["peak_bytes"] <= least
    assert planned["outputs_sha256"] == base["outputs_sha256"]
    assert planned["leaked_bytes"] == 0 and base["leaked_bytes"] == 0
    assert planned["peak_bytes"] <= base["peak_bytes"]
    print(f"{name}: unplanned peak {base['peak_bytes']} B, planned at "
          f"{budget if least is None else f'least {least} B'}: peak {planned['peak_bytes']} B, "
          "identical")
    return budget, least


# ---------------------------------------------------------------------------
# Tests

def test_grouped_and_depthwise_conv_match_torch(tmp_path):
    """Also through mlir-runner with the model's own weights
    (test_torch_import.check_against_torch)."""
    torch.manual_seed(0)
    model = _GroupedConvs()
    x = torch.rand(2, 4, 10, 10) - 0.5
    check_against_torch(model, x, torch.rand(2, 5), "mse", "grouped", tmp_path)
    _check(model, x, torch.rand(2, 5), "mse", "grouped", tmp_path)


def test_conv_transpose_matches_torch(tmp_path):
    torch.manual_seed(0)
    model = _Transposed()
    x = torch.rand(2, 3, 5, 5) - 0.5
    text, _, _ = _check(model, x, torch.rand(2, 32), "mse", "transposed", tmp_path)
    assert "linalg.conv_2d_ngchw_gfchw" in text      # the grouped one


@pytest.mark.parametrize("decomposed", [True, False])
def test_activations_match_torch(decomposed, tmp_path, monkeypatch):
    """decomposed=False: the tracer keeps hardswish, hardsigmoid and their
    backwards as ops (ops_conv.py's elementwise bodies) instead of
    decomposing them."""
    if not decomposed:
        monkeypatch.setattr(ti.trace, "_DECOMPOSED", [
            n for n in ti.trace._DECOMPOSED if not n.startswith(("hardswish", "hardsigmoid"))])
    torch.manual_seed(0)
    model = _Activations()
    x = torch.rand(2, 3, 8, 8) - 0.5
    t = torch.rand(2, 4)
    ops = {str(n.target) for n in ti.trace._trace(model, (x,), t, "mse", "fake")[0].graph.nodes}
    kept = {f"aten.{op}.default" for op in ("hardswish", "hardswish_backward", "hardsigmoid",
                                            "hardsigmoid_backward")}
    assert (kept <= ops) == (not decomposed), sorted(o for o in ops if "hard" in o)
    _check(model, x, t, "mse", "acts", tmp_path)


@pytest.mark.parametrize("name", ["mobilenet_v2_block", "mobilenet_v3_block"])
def test_inverted_residual_blocks_match_torch(name, tmp_path):
    model = _tiny_mobilenet_v2() if name == "mobilenet_v2_block" else _tiny_mobilenet_v3()
    x = torch.rand(2, 3, 16, 16) - 0.5
    text, _, _ = _check(model, x, _ce_target(model, x), "cross_entropy", name, tmp_path)
    _remat_identical(text, name, tmp_path)


def test_unet_with_conv_transpose_matches_torch_and_plans(tmp_path):
    torch.manual_seed(0)
    model = _TinyUNet()
    x = torch.rand(2, 3, 16, 16) - 0.5
    text, _, _ = _check(model, x, _ce_target(model, x), "cross_entropy", "unet", tmp_path)
    _remat_identical(text, "unet", tmp_path)


def test_convnext_block_matches_torch(tmp_path):
    """Stochastic depth off (the importer's default): the blocks, LayerNorm2d
    and the channels-last global pooling (functionalization's as_strided
    pattern: zero, as_strided, as_strided_scatter) against eager autograd."""
    torch.manual_seed(0)
    model = _TinyConvNeXt()
    x = torch.rand(2, 3, 16, 16) - 0.5
    _, info, _ = _check(model, x, _ce_target(model, x), "cross_entropy", "convnext", tmp_path)
    assert info["dropouts"] == 0 and info["functionalized"]


def test_convnext_stochastic_depth_is_philox_and_recomputes_exactly(tmp_path):
    """Stochastic depth on (`dropout=True`): each StochasticDepth with p > 0
    draws one row mask [N, 1, 1, 1] by the importer's Philox (mask n = the
    n-th of the forward, element kept with probability 1 - p, then divided
    by 1 - p); eager autograd with the independent Python Philox's masks for
    ckpt-run's seed gives the step's loss and gradients; planned at 70% (or
    the least budget), the step's outputs are bit-identical to the
    unplanned run's (the masks recompute exactly)."""
    torch.manual_seed(0)
    model = _TinyConvNeXt(sd=0.5)
    x = torch.rand(2, 3, 16, 16) - 0.5
    text, info, masks = _check(model, x, _ce_target(model, x), "cross_entropy", "cnsd",
                               tmp_path, dropout=True)
    assert info["dropouts"] == 2 and "%seed: tensor<i64>" in text
    bits = np.concatenate([m.reshape(-1) for m in masks])
    print("stochastic depth rows kept:", bits.tolist())
    assert 0 < bits.sum() < bits.size       # some rows dropped, some kept
    _remat_identical(text, "cnsd", tmp_path)


def test_convnext_torchvision_head_lowers(tmp_path):
    """torchvision's ConvNeXt head (LayerNorm2d on the pooled [N, C, 1, 1])
    imports without opaque ops but does not lower yet (translate.py, not
    this module's)."""
    torch.manual_seed(0)
    model = _TinyConvNeXt(torchvision_head=True)
    x = torch.rand(2, 3, 16, 16) - 0.5
    _check(model, x, _ce_target(model, x), "cross_entropy", "cnhead", tmp_path)


@pytest.mark.parametrize("name", ["mobilenet_v2", "convnext_tiny"])
def test_torchvision_models_import_without_opaque_ops(name):
    """torchvision's mobilenet_v2 and convnext_tiny (10 classes, 32x32,
    batch 2): every op translates (before ops_conv.py: 34 and 39 opaque
    ops)."""
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(num_classes=10)
    x = torch.rand(2, 3, 32, 32)
    _, info = ti.import_module_info(model, x, torch.softmax(torch.rand(2, 10), 1), name=name)
    assert info["opaque_ops"] == 0, info["opaque"]


def test_torchvision_mobilenet_v2_runs_and_plans(tmp_path):
    """torchvision's mobilenet_v2 (10 classes, 32x32, batch 2) lowers and
    runs, and planned at 70% (or the least budget) gives identical outputs.
    (Not compared with PyTorch: at 32x32 its last batch norms normalize 2
    values per channel, too ill-conditioned for the error bound.)"""
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2(num_classes=10)
    x = torch.rand(2, 3, 32, 32)
    text, info = ti.import_module_info(model, x, torch.softmax(torch.rand(2, 10), 1),
                                       name="mnv2")
    assert info["opaque_ops"] == 0, info["opaque"]
    result = lower_and_run(text, "mnv2_step", tmp_path)
    assert result["leaked_bytes"] == 0
    assert all(np.isfinite(o["values"]).all() for o in result["outputs"])
    _remat_identical(text, "mnv2", tmp_path)


def test_handler_overrides_are_declared():
    """An op has one handler: registering a second raises at import time
    unless it names the one it replaces (`replaces=`), as ops_conv and
    ops_conv3d do; the table keeps the handlers that won before."""
    from ckpt.torch_import import ops, ops_conv, ops_conv3d, ops_structured
    with pytest.raises(RuntimeError, match="has a handler already"):
        ops._handler("convolution.default")(lambda *a: None)
    with pytest.raises(RuntimeError, match="the handler registered is"):
        ops._handler("convolution.default", replaces=ops_structured._h_convolution)(
            lambda *a: None)
    with pytest.raises(RuntimeError, match="the handler registered is none"):
        ops._handler("no_such_op.default", replaces=ops_conv._h_convolution)(lambda *a: None)
    with pytest.raises(RuntimeError, match="has a handler already"):
        ops._ew("gelu.default")(lambda *a: None)
    assert ops._HANDLERS["convolution.default"] is ops_conv3d._h_convolution
    assert ops_conv3d._previous_forward is ops_conv._h_convolution
    assert ops_conv._plain_convolution is ops_structured._h_convolution
    assert ops._ELEMENTWISE["gelu.default"][0] is ops_conv._ew_gelu
    assert "no_such_op.default" not in ops._HANDLERS
