"""Tests of ckpt.torch_import's indexing ops, out-of-range indices, the valid
ranges of integer arguments and the loss specs (ops_index.py, losses.py).

Each step is imported, lowered with ckpt-opt, run by ckpt-run --seed=7 and
compared with PyTorch's eager autograd on the same inputs (splitmix64,
reproduced by ckpt.mlir_runner.splitmix_inputs) under numerics.py's error
model: the loss and every gradient. Steps whose integer arguments carry a
`ckpt.range` are run with the attribute stripped (ckpt-run then draws
integers in [-8, 8]: out of range for the small tables here, which is what
the clamping tests want), except in `test_integer_ranges_run_*`, which need
ckpt-prepare-entry / ckpt-run to honour `ckpt.range` (ids drawn in [LO, HI)).

Run: .venv/bin/python -m pytest python/tests/test_torch_import_index.py
"""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch
from torch import nn

from ckpt import torch_import as ti
from ckpt.mlir_runner import splitmix_inputs
from ckpt.torch_import.losses import parse_loss

import numerics
from test_torch_import import BUILD, check_against_torch, lower_and_run

torch.set_num_threads(1)
F = nn.functional

_RANGE_ATTR = re.compile(r" \{ckpt\.range = array<i64: -?\d+, -?\d+>\}")
_ARG = re.compile(r"%(\w+): tensor<([^>]*)>(?: \{ckpt\.range = array<i64: (-?\d+), (-?\d+)>\})?")


def strip_ranges(text):
    return _RANGE_ATTR.sub("", text)


def step_args(text, name):
    """[(name, shape, numpy dtype, range or None)] from the step's signature."""
    m = re.search(rf"func\.func @{name}_step\((.*?)\)\s*->", text, re.S)
    assert m, text[:2000]
    out = []
    for arg, ty, lo, hi in _ARG.findall(m.group(1)):
        *dims, elt = ty.split("x")
        dt = {"f32": np.float32, "i64": np.int64, "i32": np.int32}[elt]
        out.append((arg, tuple(int(d) for d in dims), dt,
                    (int(lo), int(hi)) if lo else None))
    return out


def eager(model, loss, x, t, params, dtype):
    """Loss and gradients by eager autograd (the importer's semantics) with
    PyTorch's own loss functions for the spec `loss`, in `dtype`."""
    from torch.func import functional_call
    spec = parse_loss(loss)
    m = ti.trace._prepare(model)
    names = [n for n, _ in m.named_parameters()]
    ps = [torch.tensor(p).to(dtype).requires_grad_() for p in params]
    x = torch.tensor(x)
    x = x.to(dtype) if x.is_floating_point() else x
    out = functional_call(m, dict(zip(names, ps)), (x,))
    t = torch.tensor(t)
    ii = -100 if spec.ignore_index is None else spec.ignore_index
    if spec.kind == "mse":
        value = F.mse_loss(out, t.to(dtype))
    elif spec.kind == "nll_loss":
        value = F.nll_loss(out, t, ignore_index=ii)
    else:
        value = F.cross_entropy(out, t if not t.is_floating_point() else t.to(dtype),
                                ignore_index=ii, label_smoothing=spec.label_smoothing)
    grads = torch.autograd.grad(value, ps, allow_unused=True)
    return [value.detach().numpy()] + [
        (g if g is not None else torch.zeros_like(p)).detach().numpy()
        for g, p in zip(grads, ps)]


def run_and_check(model, x, target, loss, name, tmp_path, keep_ranges=False,
                  clamp=None):
    """Import (no opaque op), lower, run by ckpt-run, compare with eager
    autograd. `clamp`: {argument index: n}: the eager reference reads that
    integer argument clamped to [0, n - 1] (the step's out-of-range rule).
    Returns (text, inputs, worst ratio)."""
    text, info = ti.import_module_info(model, x, target, loss, name=name)
    assert info["opaque_ops"] == 0, info["opaque"]
    run_text = text if keep_ranges else strip_ranges(text)
    result = lower_and_run(run_text, f"{name}_step", tmp_path)
    assert result["leaked_bytes"] == 0
    args = step_args(run_text, name)
    inputs = splitmix_inputs([a[1] for a in args], 7, [a[2] for a in args],
                             ranges=[a[3] for a in args])
    ref_in = list(inputs)
    for i, n in (clamp or {}).items():
        ref_in[i] = np.clip(ref_in[i], 0, n - 1)
    k = numerics.reduction_length(model, x, loss)
    got = [o["values"] for o in result["outputs"]]
    ref32 = eager(model, loss, ref_in[0], ref_in[1], ref_in[2:], torch.float32)
    ref64 = eager(model, loss, ref_in[0], ref_in[1], ref_in[2:], torch.float64)
    ours, _ = numerics.check_results(got, ref32, ref64, f"{name} via ckpt-run", k)
    return text, inputs, ours, got


# ---------------------------------------------------------------------------
# Index ops, forward and backward

class _Gathers(nn.Module):
    """index_select, gather, scatter (src, value), scatter_add, index_add
    with constant indices (buffers), and their backwards (index_add, gather,
    scatter_add, scatter.value)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.head = nn.Linear(28, 5)
        self.register_buffer("idx", torch.tensor([2, 0, 5, 5, 1]), persistent=False)
        self.register_buffer("pos", torch.tensor([[1, 3, 4], [0, 2, 7]]), persistent=False)

    def forward(self, x):
        h = torch.tanh(self.fc(x))                                       # [N, 6]
        n = h.shape[0]
        a = h.index_select(1, self.idx)                                  # [N, 5]
        b = h.gather(1, self.idx[None, :3].expand(n, 3))                 # [N, 3]
        c = h.new_zeros(n, 8).scatter_add(1, self.idx[None].expand(n, 5), h[:, :5] * a)
        d = h.new_zeros(n, 8).scatter(1, self.pos[:1].expand(n, 3), b)    # [N, 8]
        e = h.scatter(1, self.idx[None, :2].expand(n, 2), 0.5)           # [N, 6]
        f = h.new_zeros(n, 6).index_add(1, self.idx[:3], b, alpha=2.0)   # [N, 6]
        # a scatter whose index is smaller than the tensor in another dim
        g = h.new_zeros(n, 8).scatter_add(1, self.pos[:, :2], b[:2, :2])  # index [2, 2]
        out = torch.cat([c, d, e * f, (g[:, :6] + h)], dim=1)              # [N, 28]
        return self.head(out)


class _Attention(nn.Module):
    """Grouped-query attention's patterns: k and v from one projection by
    unbind (stack in the backward), repeated to the query heads by
    repeat_interleave (int count, and counts in a tensor), expand, repeat,
    torch.stack."""

    def __init__(self, dim=8, heads=4, kv_heads=2):
        super().__init__()
        self.heads, self.kv, self.hd = heads, kv_heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv_proj = nn.Linear(dim, 2 * kv_heads * self.hd)
        self.o = nn.Linear(dim, dim)
        self.register_buffer("counts", torch.tensor([1, 3]), persistent=False)

    def forward(self, x):
        b, s, d = x.shape
        q = self.q(x).view(b, s, self.heads, self.hd).transpose(1, 2)
        kv = self.kv_proj(x).view(b, s, 2, self.kv, self.hd)
        k, v = kv.unbind(dim=2)
        k = k.transpose(1, 2).repeat_interleave(self.heads // self.kv, dim=1)
        v = v.transpose(1, 2).repeat_interleave(self.counts, dim=1)
        att = torch.softmax(q @ k.transpose(-1, -2) / self.hd ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        y = torch.stack([y, torch.tanh(y)], dim=1).mean(1)
        bias = x[:, :1, :2].repeat(1, s, 4)                       # [b, s, 8]
        return self.o(y + bias + x.mean(1, keepdim=True).expand(b, s, d)).sum(1)


def test_index_ops_match_torch(tmp_path):
    torch.manual_seed(0)
    model = _Gathers()
    x = torch.rand(3, 4) - 0.5
    target = torch.rand(3, 5) * 2 - 1
    text, _, ours, _ = run_and_check(model, x, target, "mse", "gathers", tmp_path)
    for op in ("index_select", "gather", "scatter_add", "scatter", "index_add"):
        assert re.search(rf"%{op}\w* = linalg\.generic", text), op
    assert "tensor.insert_slice" in text   # the boxed scatter_add
    assert ours < 1


def test_attention_patterns_match_torch(tmp_path):
    torch.manual_seed(0)
    model = _Attention()
    x = torch.rand(2, 5, 8) - 0.5
    target = torch.rand(2, 8) * 2 - 1
    text, _, ours, _ = run_and_check(model, x, target, "mse", "gqa", tmp_path)
    assert "tensor.concat" in text and "repeat_interleave" not in text
    # counts in a buffer: an index_select by a constant index, the same step
    # under real tracing
    assert re.search(r"%index_select\w* = linalg\.generic", text)
    assert ti.import_module(model, x, target, "mse", name="gqa", tracing_mode="real") == text
    assert ours < 1


def test_llama_runs_and_matches_torch(tmp_path):
    """The built-in llama (unbind + stack, repeat_interleave) now lowers:
    no opaque op; loss and gradients through ckpt-run equal eager's."""
    model, x, labels = ti.build_model("llama", batch=1, layers=1, width=16, heads=4,
                                      kv_heads=2, seq=4, vocab=16)
    target = F.one_hot(labels, 16).to(torch.float32)
    info = check_against_torch(model, x, target, "cross_entropy", "llama", tmp_path,
                               runner=False)
    assert info["opaque_ops"] == 0


def test_index_ops_lower_without_opaque():
    """Every new handler is listed as executable."""
    for op in ("index_select.default", "gather.default", "scatter.src", "scatter.value",
               "scatter_add.default", "index_add.default", "stack.default",
               "repeat.default"):
        assert op in ti.EXECUTABLE_OPS, op


# ---------------------------------------------------------------------------
# Out-of-range indices: clamped

class _Ids(nn.Module):
    """Token ids into an embedding, an index_select of a parameter table and
    a gather along the vocabulary; `clamp`: the same model clamping the ids
    to the vocabulary itself first."""

    def __init__(self, vocab=5, dim=3, seq=6, clamp=False):
        super().__init__()
        self.vocab, self.clamp = vocab, clamp
        self.emb = nn.Embedding(vocab, dim)
        self.table = nn.Parameter(torch.randn(vocab, dim))
        self.scores = nn.Parameter(torch.randn(2, vocab))
        self.head = nn.Linear(seq * dim + seq, 4)

    def forward(self, ids):
        if self.clamp:
            ids = ids.clamp(0, self.vocab - 1)
        b, s = ids.shape
        h = self.emb(ids) + self.table.index_select(0, ids.reshape(-1)).view(b, s, -1)
        g = self.scores.gather(1, ids)                                    # [b, s]
        return self.head(torch.cat([torch.tanh(h).flatten(1), g], dim=1))


def test_out_of_range_ids_are_clamped(tmp_path):
    """ckpt-run's ids in [-8, 8] for a vocabulary of 5: the step's loss and
    gradients are eager autograd's on the ids clamped to [0, 4]."""
    torch.manual_seed(0)
    model = _Ids()
    x = torch.zeros(2, 6, dtype=torch.int64)
    target = torch.rand(2, 4) * 2 - 1
    text, inputs, ours, _ = run_and_check(model, x, target, "mse", "ids", tmp_path,
                                          clamp={0: 5})
    ids = inputs[0]
    assert (ids < 0).any() and (ids > 4).any()      # out of range both ways
    # the clamp is in the generated code, before every tensor.extract of a row
    assert len(re.findall(r"arith\.maxsi", text)) >= 3
    assert len(re.findall(r"arith\.minsi", text)) >= 3
    assert ours < 1


def test_out_of_range_ids_equal_clamped_ids(tmp_path):
    """The same weights, ids clamped by the model itself (`clamp` op) or by
    the step's index rule: bit-identical outputs through ckpt-run."""
    torch.manual_seed(0)
    model = _Ids()
    clamped = _Ids(clamp=True)
    clamped.load_state_dict(model.state_dict())
    x = torch.zeros(2, 6, dtype=torch.int64)
    target = torch.rand(2, 4) * 2 - 1
    outs = []
    for m, name in ((model, "raw"), (clamped, "clamped")):
        text = strip_ranges(ti.import_module(m, x, target, "mse", name=name))
        (tmp_path / name).mkdir()
        outs.append(lower_and_run(text, f"{name}_step", tmp_path / name)["outputs"])
    assert len(outs[0]) == len(outs[1])
    for a, b in zip(*outs):
        assert a["values"] == b["values"]


# ---------------------------------------------------------------------------
# Valid ranges of integer arguments

def test_ranges_emitted_on_integer_arguments():
    torch.manual_seed(0)
    text, info = ti.import_module_info(_Ids(vocab=5), torch.zeros(2, 6, dtype=torch.int64),
                                       torch.rand(2, 4), "mse", name="ids")
    assert "%x: tensor<2x6xi64> {ckpt.range = array<i64: 0, 5>}," in text
    assert info["ranges"] == {"x": (0, 5)}
    assert "//   %x: input [2, 6], valid range [0, 5)" in text
    # class targets of nll_loss / cross_entropy with indices: [0, classes)
    mlp = nn.Sequential(nn.Linear(4, 6), nn.LogSoftmax(dim=1))
    for loss in ("nll_loss", "cross_entropy:ignore_index=2", "cross_entropy:indices",
                 "cross_entropy:indices,label_smoothing=0.1"):
        text, info = ti.import_module_info(mlp, torch.rand(8, 4),
                                           torch.zeros(8, dtype=torch.int64), loss, name="c")
        assert "%t: tensor<8xi64> {ckpt.range = array<i64: 0, 6>}" in text, loss
        assert info["ranges"] == {"t": (0, 6)} and info["opaque_ops"] == 0, loss
    # plain cross_entropy keeps the one-hot float target (no range)
    text = ti.import_module(mlp, torch.rand(8, 4), torch.zeros(8, dtype=torch.int64),
                            "cross_entropy", name="c")
    assert "%t: tensor<8x6xf32>," in text and "ckpt.range" not in text


def test_splitmix_inputs_ranges():
    shapes = [(5,), (7,), (3,), (4,)]
    dts = [np.float32, np.int64, np.int32, np.int64]
    old = splitmix_inputs(shapes, 7, dts)
    new = splitmix_inputs(shapes, 7, dts, ranges=[None, (3, 9), None, (-2, 1)])
    assert np.array_equal(old[0], new[0]) and np.array_equal(old[2], new[2])
    assert new[1].dtype == np.int64 and new[1].min() >= 3 and new[1].max() < 9
    assert new[3].min() >= -2 and new[3].max() < 1
    # the same splitmix64 bits: old = bits % 17 - 8, new = LO + bits % (HI - LO)
    z = _splitmix_bits(7, 5 + 7)[5:]
    assert np.array_equal(new[1], (z % np.uint64(6)).astype(np.int64) + 3)
    assert np.array_equal(old[1], (z % np.uint64(17)).astype(np.int64) - 8)


def _splitmix_bits(seed, n):
    z = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def test_integer_ranges_run_embedding(tmp_path):
    """Needs ckpt-run to honour ckpt.range: ids drawn in [0, 5)."""
    torch.manual_seed(0)
    model = _Ids()
    text, inputs, ours, _ = run_and_check(model, torch.zeros(2, 6, dtype=torch.int64),
                                          torch.rand(2, 4) * 2 - 1, "mse", "ids",
                                          tmp_path, keep_ranges=True)
    assert inputs[0].min() >= 0 and inputs[0].max() <= 4
    assert len(set(inputs[0].reshape(-1).tolist())) > 2


@pytest.mark.parametrize("loss", ["cross_entropy:ignore_index=2", "nll_loss"])
def test_integer_ranges_run_losses(loss, tmp_path):
    """Needs ckpt-run to honour ckpt.range: class targets drawn in [0, 6)."""
    torch.manual_seed(0)
    model = _Classifier(log_probs=loss.startswith("nll"))
    text, inputs, ours, _ = run_and_check(model, torch.rand(8, 4),
                                          torch.zeros(8, dtype=torch.int64), loss, "cls",
                                          tmp_path, keep_ranges=True)
    assert inputs[1].min() >= 0 and inputs[1].max() <= 5


# ---------------------------------------------------------------------------
# Losses

class _Classifier(nn.Module):
    def __init__(self, classes=6, log_probs=False):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, classes)
        self.log_probs = log_probs

    def forward(self, x):
        y = self.fc2(torch.tanh(self.fc1(x)))
        return torch.log_softmax(y, dim=1) if self.log_probs else y


LOSSES = [
    ("mse", "float"),
    ("cross_entropy:label_smoothing=0.1", "onehot"),
    ("cross_entropy:indices", "indices"),
    ("cross_entropy:ignore_index=4", "indices"),
    ("cross_entropy:label_smoothing=0.2,ignore_index=4", "indices"),
    ("cross_entropy:label_smoothing=0.15,indices", "indices"),
    ("nll_loss", "indices"),
    ("nll_loss:ignore_index=4", "indices"),
]


@pytest.mark.parametrize("loss,kind", LOSSES)
def test_loss_matches_torch(loss, kind, tmp_path):
    """Each loss spec against PyTorch's own loss (F.cross_entropy with
    label_smoothing / ignore_index, F.nll_loss, F.mse_loss): loss and every
    gradient. Class targets are ckpt-run's integers in [-8, 8] (ranges
    stripped), and the reference reads them clamped to [0, 5] (the step's
    rule); with ignore_index=4 the rows whose drawn target is 4 are ignored
    (4 is inside [0, 5], so no clamped id becomes it)."""
    torch.manual_seed(0)
    model = _Classifier(log_probs=loss.startswith("nll"))
    x = torch.rand(12, 4) - 0.5
    if kind == "float":
        target = torch.rand(12, 6) * 2 - 1
    elif kind == "onehot":
        target = F.one_hot(torch.arange(12) % 6, 6).to(torch.float32)
    else:
        target = torch.zeros(12, dtype=torch.int64)
    name = re.sub(r"\W", "_", loss)
    text, inputs, ours, got = run_and_check(model, x, target, loss, name, tmp_path,
                                            clamp={1: 6} if kind == "indices" else None)
    if kind == "indices":
        assert re.search(r"%t: tensor<12xi64> \{ckpt\.range = array<i64: 0, 6>\}", text)
        t = inputs[1]
        ii = parse_loss(loss).ignore_index
        if ii is not None:
            assert (t == ii).any() and (t != ii).any()   # some rows ignored, some not
    assert np.isfinite(got[0]).all()
    assert ours < 1


def test_loss_spec_errors():
    for spec, msg in (("hinge", "unknown loss 'hinge'"),
                      ("mse:ignore_index=1", "mse takes no options"),
                      ("cross_entropy:label_smoothing=2",
                       "label_smoothing must be a number in [0, 1]"),
                      ("nll_loss:label_smoothing=0.1", "nll_loss takes the options ignore_index"),
                      ("cross_entropy:ignore_index=x", "ignore_index must be an integer")):
        with pytest.raises(ValueError, match=re.escape(msg)):
            parse_loss(spec)
    mlp = _Classifier()
    with pytest.raises(ValueError, match="needs class indices"):
        ti.import_module(mlp, torch.rand(2, 4), torch.rand(2, 6), "nll_loss")


def test_cli_loss_spec(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(BUILD, "python") + os.pathsep + env.get("PYTHONPATH", "")
    out = tmp_path / "m.mlir"
    r = subprocess.run([sys.executable, "-m", "ckpt.torch_import", "tinymlp", "--batch", "2",
                        "--loss", "cross_entropy:ignore_index=1", "-o", str(out), "--quiet"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert re.search(r"%t: tensor<2xi64> \{ckpt\.range = array<i64: 0, \d+>\}", out.read_text())
    r = subprocess.run([sys.executable, "-m", "ckpt.torch_import", "tinymlp", "--batch", "2",
                        "--loss", "hinge"], capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "unknown loss 'hinge'" in r.stderr
