"""The ops PyTorch 2 traces that the model families reach, one small model
each, through the whole pipeline: imported with no opaque op (the fused
attention kernel, interpolation, negative padding, roll, advanced indexing
and their backwards), run by ckpt-run, the loss and every gradient against
eager float64 under the error model of numerics.py (PyTorch's float32 must
pass the same bound), and for the attention variants planned at 50% (or the
least budget) with bit-identical outputs and peak = predicted <= budget.
"""

import os
import sys

import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import models_e2e as me  # noqa: E402


class Attention(nn.Module):
    """Token embedding, one F.scaled_dot_product_attention over heads from
    linear projections (kv heads for grouped-query attention), a head on
    the mean over positions."""

    def __init__(self, dim=32, heads=4, kv=2, causal=True, mask=None, scale=None):
        super().__init__()
        self.h, self.kv, self.d = heads, kv, dim // heads
        self.emb = nn.Embedding(50, dim)
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, kv * self.d)
        self.v = nn.Linear(dim, kv * self.d)
        self.o = nn.Linear(dim, 10)
        self.causal, self.mask, self.scale = causal, mask, scale

    def forward(self, x):
        h = self.emb(x)
        b, n, _ = h.shape
        q = self.q(h).view(b, n, self.h, self.d).transpose(1, 2)
        k = self.k(h).view(b, n, self.kv, self.d).transpose(1, 2)
        v = self.v(h).view(b, n, self.kv, self.d).transpose(1, 2)
        m = None
        if self.mask == "bool":
            m = torch.ones(n, n, dtype=torch.bool).tril(1)
        elif self.mask == "padded":
            # Query 0 sees no key: a padded query, output 0, no gradient.
            m = torch.ones(n, n, dtype=torch.bool).tril(-1)
        elif self.mask == "float":
            m = torch.arange(n, dtype=torch.float32).view(1, n) * -0.25
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=self.causal,
                                           scale=self.scale, enable_gqa=self.kv != self.h)
        return self.o(a.transpose(1, 2).reshape(b, n, -1)).mean(1)


class Resize(nn.Module):
    """A convolution, F.interpolate, a pad with a negative side (a crop) and
    a roll, then a linear head."""

    def __init__(self, out, **interpolate):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.interpolate = interpolate
        self.head = nn.Linear(4 * out * out, 10)

    def forward(self, x):
        y = F.interpolate(self.conv(x), **self.interpolate)
        y = F.pad(y, (1, -1, -1, 1)).roll(shifts=(2, -1), dims=(2, 3))
        return self.head(y.flatten(1))


class Indexed(nn.Module):
    """A learned table read through a constant index tensor (Swin's relative
    position bias): index.Tensor forward, index_put with accumulate in the
    backward."""

    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(7, 3))
        self.register_buffer("index", torch.tensor([[0, 3, 6], [2, 2, 5]]), persistent=False)
        self.lin = nn.Linear(12, 10)

    def forward(self, x):
        bias = self.table[self.index]                  # [2, 3, 3]
        return self.lin(x + bias.flatten()[:12])


class TwoIndices(nn.Module):
    """A padding mask read by batch and key position through two index
    tensors that broadcast together (Hugging Face's masks:
    mask[batch_idx, kv_idx]): index.Tensor with leading index tensors."""

    def __init__(self):
        super().__init__()
        self.register_buffer("pad", torch.tensor([[1, 1, 0, 1], [0, 1, 1, 1]]).bool(),
                             persistent=False)
        self.register_buffer("rows", torch.arange(2).view(2, 1, 1), persistent=False)
        self.register_buffer("cols", torch.tensor([3, 0, 2, 1, 1]).view(1, 1, 5),
                             persistent=False)
        self.lin = nn.Linear(10, 10)

    def forward(self, x):
        mask = self.pad[self.rows, self.cols]          # [2, 1, 5]
        return self.lin(x * mask.flatten(1).float().repeat(1, 2))


def _check(model, shape, dtype, tmp_path, plan=False):
    from ckpt import torch_import as ti
    x, t = ti.user_inputs(model, shape, dtype)
    text, info = ti.import_module_info(model, x, t, name="m")
    assert info["opaque_ops"] == 0, info["opaque"]
    tmp = str(tmp_path)
    wrapped, base = me.base_run(me.write_step(text, "m", tmp), "m", tmp)
    me.compare_with_eager(model, x, text, "m", base)
    if plan:
        measured, nbytes, _, _ = me.plan_and_run(wrapped, "m", "50%", base, tmp)
        assert measured["outputs_sha256"] == base["outputs_sha256"]
        assert measured["peak_bytes"] <= nbytes
    return text


@pytest.mark.parametrize("kwargs", [
    dict(), dict(kv=4), dict(kv=1, causal=False), dict(causal=False, mask="bool"),
    dict(causal=False, mask="float", scale=0.3), dict(causal=False, mask="padded"),
], ids=["causal-gqa", "causal-mha", "mqa", "bool-mask", "float-mask-scale",
        "fully-masked-row"])
def test_scaled_dot_product_attention(kwargs, tmp_path):
    torch.manual_seed(0)
    text = _check(Attention(**kwargs), (2, 8), "int64", tmp_path, plan=True)
    # The fused kernel's contract: the forward returns the output and the
    # logsumexp [B, H, L] (f32), which the backward reads.
    assert "_scaled_dot_product_flash_attention_for_cpu_lse" in text
    assert "tensor<2x4x8xf32>" in text


@pytest.mark.parametrize("out, kwargs", [
    (16, dict(scale_factor=2, mode="nearest")),
    (13, dict(size=(13, 13), mode="nearest")),
    (16, dict(scale_factor=2, mode="bilinear")),
    (13, dict(size=(13, 13), mode="bilinear", align_corners=True)),
    (24, dict(scale_factor=3, mode="bilinear")),
], ids=["nearest-x2", "nearest-13", "bilinear-x2", "bilinear-13-align", "bilinear-x3"])
def test_interpolate_pad_roll(out, kwargs, tmp_path):
    torch.manual_seed(0)
    _check(Resize(out, **kwargs), (2, 3, 8, 8), "float32", tmp_path)


def test_index_and_index_put(tmp_path):
    torch.manual_seed(0)
    _check(Indexed(), (2, 12), "float32", tmp_path)


def test_index_with_two_broadcast_indices(tmp_path):
    torch.manual_seed(0)
    text = _check(TwoIndices(), (2, 10), "float32", tmp_path)
    assert "tensor<2x1x5xi1>" in text


class Adaptive(nn.Module):
    """Adaptive average pooling to sizes that do not divide the input: a
    larger output (AlexNet's 6x6 after a smaller map) and overlapping
    windows."""

    def __init__(self, out):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.out = out
        self.head = nn.Linear(4 * out[0] * out[1], 10)

    def forward(self, x):
        return self.head(F.adaptive_avg_pool2d(self.conv(x), self.out).flatten(1))


@pytest.mark.parametrize("out", [(6, 6), (3, 5)], ids=["larger", "overlapping"])
def test_adaptive_avg_pool_of_any_size(out, tmp_path):
    torch.manual_seed(0)
    _check(Adaptive(out), (2, 3, 4, 4), "float32", tmp_path)


class Recurrent(nn.Module):
    """A two-layer nn.LSTM or nn.GRU over an embedded sequence, a head on
    the last step (traced without oneDNN: the cells' matmuls, unsafe_split
    of the gates, sigmoid and tanh)."""

    def __init__(self, cell):
        super().__init__()
        self.emb = nn.Embedding(20, 6)
        self.rnn = cell(6, 8, num_layers=2, batch_first=True)
        self.head = nn.Linear(8, 10)

    def forward(self, x):
        return self.head(self.rnn(self.emb(x))[0][:, -1])


@pytest.mark.parametrize("cell", [nn.LSTM, nn.GRU], ids=["lstm", "gru"])
def test_recurrent_layers(cell, tmp_path):
    torch.manual_seed(0)
    _check(Recurrent(cell), (2, 5), "int64", tmp_path, plan=True)


class Video(nn.Module):
    """3-D convolutions as torchvision's video models have them: a strided
    stem with padding, a dilated one, a (1, 3, 3) + (3, 1, 1) pair (R(2+1)D),
    batch norm, a global pool and a head."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv3d(3, 4, (3, 5, 5), stride=(1, 2, 2), padding=(1, 2, 2), bias=False)
        self.bn = nn.BatchNorm3d(4)
        self.dil = nn.Conv3d(4, 4, 3, padding=2, dilation=2)
        self.spatial = nn.Conv3d(4, 6, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1))
        self.temporal = nn.Conv3d(6, 6, (3, 1, 1), stride=(2, 1, 1), padding=(1, 0, 0))
        self.head = nn.Linear(6, 10)

    def forward(self, x):
        y = torch.relu(self.bn(self.stem(x)))
        y = torch.relu(self.dil(y)) + y
        y = self.temporal(torch.relu(self.spatial(y)))
        return self.head(y.mean(dim=(2, 3, 4)))


def test_conv3d(tmp_path):
    torch.manual_seed(0)
    _check(Video(), (2, 3, 4, 8, 8), "float32", tmp_path, plan=True)


class Router(nn.Module):
    """A mixture-of-experts router: top-2 of the gate's scores, softmax over
    the two, the experts' outputs gathered at the chosen indices."""

    def __init__(self, largest=True):
        super().__init__()
        self.gate = nn.Linear(6, 5)
        self.experts = nn.Linear(6, 5)
        self.head = nn.Linear(2, 10)
        self.largest = largest

    def forward(self, x):
        top, idx = self.gate(x).topk(2, dim=-1, largest=self.largest)
        chosen = self.experts(x).gather(1, idx)
        return self.head(top.softmax(-1) * chosen)


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_topk(largest, tmp_path):
    torch.manual_seed(0)
    _check(Router(largest), (4, 6), "float32", tmp_path, plan=True)


class EmptySlices(nn.Module):
    """Slices with no element and what is built from them (a window
    padding of zero, as Swin3D's on a short clip): a cat with an empty
    piece, a slice_scatter into an empty tensor in the backward."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 6)
        self.head = nn.Linear(6, 10)

    def forward(self, x):
        y = self.lin(x)
        empty = y[:, 4:4][1:]           # a slice of a tensor with no element
        return self.head(torch.cat([y[:, :3], y[:, 3:]], dim=1)) + empty.sum()


def test_empty_slices(tmp_path):
    torch.manual_seed(0)
    _check(EmptySlices(), (2, 6), "float32", tmp_path)


def test_softplus(tmp_path):
    """softplus and its backward, decomposed (Apertus's xIELU; BLOOM's baddbmm
    is checked by examples/hf/bloom-tiny.json)."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 10), nn.Softplus(beta=2.0, threshold=1.0),
                          nn.Linear(10, 10))
    _check(model, (4, 10), "float32", tmp_path)
