"""Tests of ckpt.torch_import's tracing: buffers and constants under the
default (fake-tensor) tracing, the one-line tracing errors, the built-in
llama and the size options of the built-in transformers.

Run: .venv/bin/python -m pytest python/tests/test_torch_import_trace.py
"""

import math
import os
import re
import sys

import pytest
import torch
from torch import nn

from ckpt import torch_import as ti  # noqa: E402

# python/tests/test_torch_import.py's helpers: import, lower, run by
# ckpt-run and compare with eager autograd (numerics.py's error model).
from test_torch_import import BUILD, check_against_torch, eager_step, run  # noqa: E402

torch.set_num_threads(1)


# ---------------------------------------------------------------------------
# Buffers and constants

class _MaskedAttention(nn.Module):
    def __init__(self, dim, seq):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dim = dim
        # A non-persistent bool buffer (equal in both blocks: one constant).
        self.register_buffer("mask", torch.ones(seq, seq, dtype=torch.bool).triu(1),
                             persistent=False)

    def forward(self, x):
        q, k, v = self.qkv(x).split(self.dim, dim=-1)
        att = (q @ k.transpose(1, 2)) / math.sqrt(self.dim)
        return torch.softmax(att.masked_fill(self.mask, float("-inf")), dim=-1) @ v


class _Buffered(nn.Module):
    """Buffers (persistent and not, float and bool), a tensor attribute that
    is not a buffer, and constants made in forward (arange, ones, tensor)."""

    def __init__(self, dim=8, seq=6, classes=4):
        super().__init__()
        self.blocks = nn.ModuleList(_MaskedAttention(dim, seq) for _ in range(2))
        table = torch.sin(torch.arange(seq * dim, dtype=torch.float32).view(seq, dim))
        self.register_buffer("table", table * 0.1)                        # persistent
        self.register_buffer("scale", torch.linspace(0.5, 1.5, dim), persistent=False)
        self.shift = torch.linspace(-0.1, 0.1, dim)                       # not a buffer
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = x + self.table * self.scale + self.shift
        pos = torch.arange(x.shape[1], dtype=torch.float32) / x.shape[1]
        x = x + pos[:, None] * torch.ones(x.shape[-1])
        for block in self.blocks:
            x = x + block(x)
        w = torch.tensor([0.3, 0.1, 0.2, 0.15, 0.05, 0.2])
        return self.head((x * w[:, None]).sum(1))


def test_buffers_and_constants_trace_by_default_and_match_torch(tmp_path):
    """Fake tracing (the default) takes buffers, tensor attributes and
    constants made in forward; they become dense constants of the step (the
    equal masks of the two blocks one constant), and the step's loss and
    gradients through ckpt-run equal eager autograd's."""
    torch.manual_seed(0)
    model = _Buffered()
    x = torch.rand(3, 6, 8) - 0.5
    target = torch.nn.functional.one_hot(torch.tensor([0, 3, 1]), 4).to(torch.float32)
    text, info = ti.import_module_info(model, x, target, name="buffered")
    assert info["opaque_ops"] == 0, info["opaque"]
    # Parameters only are arguments; buffers are constants.
    assert info["params"] == [n for n, _ in model.named_parameters()]
    assert len(re.findall(r"arith\.constant dense<\"0x[0-9A-F]+\"> : tensor<6x6xi1>", text)) == 1
    assert re.search(r"arith\.constant dense<\"0x[0-9A-F]+\"> : tensor<6x8xf32>", text)
    # The same step as real tracing.
    assert ti.import_module(model, x, target, tracing_mode="real", name="buffered") == text
    check_against_torch(model, x, target, "cross_entropy", "buffered", tmp_path, runner=False)


def test_repeat_interleave_is_traced_with_static_shapes():
    """repeat_interleave with an int count (grouped-query attention) traces
    under fake tensors, as a broadcast and a reshape with the same values."""
    x = torch.arange(24.0).view(2, 3, 4)
    for dim in (None, 0, 1, 2, -1):
        assert torch.equal(ti.trace._repeat_interleave(x, 3, dim),
                           x.repeat_interleave(3, dim=dim)), dim

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x).repeat_interleave(2, dim=1).flatten(1)

    text, info = ti.import_module_info(Net(), torch.rand(2, 3, 4), torch.rand(2, 24), "mse")
    assert info["opaque_ops"] == 0, info["opaque"]
    assert "repeat_interleave" not in text


# ---------------------------------------------------------------------------
# Errors

class _Attn(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.mode = mode

    def forward(self, x):
        y = self.fc(x)
        if self.mode == "item":
            return y * y.sum().item()
        if self.mode == "nonzero":
            return y * torch.nonzero(y).shape[0]
        return y if y.sum() > 0 else -y


class _Block(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.attn = _Attn(mode)

    def forward(self, x):
        return self.attn(x)


class _Untraceable(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.blocks = nn.Sequential(_Block(mode))
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.blocks(x))


@pytest.mark.parametrize("mode,op", [
    ("item", "aten._local_scalar_dense.default"),
    ("nonzero", "aten.nonzero.default"),
    ("if", "aten._local_scalar_dense.default"),
])
def test_tracing_error_is_one_line_with_the_op_and_module(mode, op):
    x, t = torch.rand(2, 8), torch.rand(2, 3)
    with pytest.raises(ValueError) as err:
        ti.import_module(_Untraceable(mode), x, t)
    msg = str(err.value)
    assert "\n" not in msg and "tensor(" not in msg and len(msg) < 400, msg
    assert msg.startswith("cannot trace the training step (data-dependent or dynamic "
                          f"shapes are not supported): {op} in blocks.0.attn (_Attn) at "
                          "test_torch_import_trace.py:"), msg
    # The default target's shape cannot be inferred either: the same cause.
    with pytest.raises(ValueError) as err:
        ti.user_inputs(_Untraceable(mode), (2, 8))
    msg = str(err.value)
    assert "\n" not in msg and "--target-shape" not in msg, msg
    assert msg.startswith("cannot trace the model (data-dependent or dynamic shapes are "
                          f"not supported): {op} in blocks.0.attn (_Attn) at "), msg


def test_wrong_input_shape_says_so():
    with pytest.raises(ValueError) as err:
        ti.user_inputs(_Untraceable("item"), (2, 7))
    assert str(err.value) == (
        "the model fails on an input of shape 2x7 (float32; check --input-shape and "
        "--input-dtype): aten.mm.default in blocks.0.attn.fc (Linear) at "
        f"test_torch_import_trace.py:{_Attn.forward.__code__.co_firstlineno + 1}: "
        "RuntimeError: a and b must have same reduction dim, but got [2, 7] X [8, 8].")
    # Given a target, the trace says the same.
    with pytest.raises(ValueError, match=r"^cannot trace the training step: the model fails "
                       r"on an input of shape 2x7 \(float32; check --input-shape"):
        ti.import_module(_Untraceable("item"), torch.rand(2, 7), torch.rand(2, 3))


def test_backward_failure_names_the_backward():
    class NoGrad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("no backward here")

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            return NoGrad.apply(self.fc(x))

    with pytest.raises(ValueError, match=r"^cannot trace the training step: in the backward "
                       r"at test_torch_import_trace.py:\d+: RuntimeError: no backward here$"):
        ti.import_module(Net(), torch.rand(2, 4), torch.rand(2, 3))


# ---------------------------------------------------------------------------
# The built-in llama and the size options

def _cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(BUILD, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return run([sys.executable, "-m", "ckpt.torch_import", *args], env=env)


# The ops other helpers are adding lowerings for (the backward of unbind).
PENDING = {"aten.stack"}


def test_llama_cli_sizes(tmp_path):
    out = tmp_path / "llama.mlir"
    r = _cli("llama", "--batch", "2", "--layers", "2", "--width", "32", "--heads", "4",
             "--kv-heads", "2", "--seq", "8", "--vocab", "64", "--stats", "-o", str(out))
    assert r.returncode == 0, r.stderr
    m = re.search(r"llama_step: (\d+) aten ops -> (\d+) MLIR ops, (\d+) opaque \(([^)]*)\)",
                  r.stderr)
    assert m, r.stderr
    opaque = {} if m.group(4) == "none" else dict(
        (k, int(v)) for k, v in re.findall(r"(\S+) x(\d+)", m.group(4)))
    assert set(opaque) <= PENDING, opaque
    text = out.read_text()
    assert re.search(r"func\.func @llama_step\(%x: tensor<2x8xi64>,\s+%t: tensor<16x64xf32>,"
                     r"\s+%p0: tensor<64x32xf32>", text)
    # The rotary tables and the causal mask, once each.
    assert len(re.findall(r"arith\.constant dense<\"0x[0-9A-F]+\"> : tensor<8x8xf32>", text)) == 2
    assert len(re.findall(r"arith\.constant dense<\"0x[0-9A-F]+\"> : tensor<8x8xi1>", text)) == 1
    r = run(["ckpt-opt", str(out), "--ckpt-wrap-step", "-o", os.devnull])
    assert r.returncode == 0, r.stderr
    # Sizes for the GPTs too; errors.
    r = _cli("tinygpt", "--batch", "1", "--layers", "1", "--width", "16", "--heads", "2",
             "--seq", "4", "--vocab", "32", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "%x: tensor<1x4xi64>" in out.read_text()
    for args, message in [
            (["llama", "--batch", "1", "--width", "30"], "--width 30 is not a multiple of --heads 4"),
            (["llama", "--batch", "1", "--heads", "4", "--kv-heads", "3"],
             "--heads 4 is not a multiple of --kv-heads 3"),
            (["llama", "--batch", "1", "--width", "12", "--heads", "4"],
             "the head size (--width / --heads = 3) must be even for the rotary embedding"),
            (["llama", "--batch", "1", "--layers", "0"], "--layers must be a positive integer"),
            (["tinygpt", "--batch", "1", "--kv-heads", "2"], "--kv-heads is for llama, not tinygpt"),
            (["tinymlp", "--batch", "1", "--seq", "4"],
             "--seq is for the built-in transformers (tinygpt, gpt2small, llama), not tinymlp")]:
        r = _cli(*args, "-o", os.devnull)
        assert r.returncode == 1 and f"ckpt.torch_import: error: {message}" in r.stderr, r.stderr


def test_llama_trace_matches_eager():
    """The llama step traced on fake tensors (rotary tables and mask as
    constants, repeat_interleave rewritten, unbind), run by torch.fx on real
    tensors, gives eager autograd's loss and gradients."""
    model, x, labels = ti.build_model("llama", batch=2, layers=2, width=32, heads=4,
                                      kv_heads=2, seq=8, vocab=64)
    assert sorted(n for n, _ in model.named_buffers()) == ["cos", "mask", "sin"]
    assert model.state_dict().keys() == dict(model.named_parameters()).keys()
    x = x % 8     # ids in [0, 8), the absolute values of ckpt-run's integers
    target = torch.nn.functional.one_hot(labels, 64).to(torch.float32)
    gm, names, _, _, t, _, _ = ti.trace._trace(model, x, target, "cross_entropy", "fake")
    params = [p.detach() for p in model.parameters()]
    got = [o.detach().numpy() for o in gm(x, t, *params)]
    ref = eager_step(model, "cross_entropy", x.numpy(), t.numpy(),
                     [p.numpy() for p in params])
    assert len(got) == len(ref) == 1 + len(params)
    for g, r, what in zip(got, ref, ["loss"] + names):
        assert g.shape == r.shape, what
        assert abs(g - r).max() <= 1e-5 * (1 + abs(r).max()), what


def test_llama_sizes_and_tied_head():
    model, x, labels = ti.build_model("llama", batch=1, layers=3, width=48, heads=6,
                                      seq=4, vocab=16)
    assert len(model.blocks) == 3 and tuple(x.shape) == (1, 4) and tuple(labels.shape) == (4,)
    attn = model.blocks[0].attn
    # --heads alone: kv heads the largest divisor of 6 not above 2.
    assert (attn.heads, attn.kv_heads, attn.head_dim) == (6, 2, 8)
    assert model.blocks[0].mlp.gate.out_features == 128      # 8 * 48 / 3, multiple of 8
    tied = ti.models._llama_models()(vocab=16, dim=16, heads=2, kv_heads=1, seq=4, layers=1,
                                     tied=True)
    assert tied.head is None
    text, info = ti.import_module_info(tied, torch.zeros(2, 4, dtype=torch.int64),
                                       torch.zeros(8, dtype=torch.int64), name="tied")
    assert info["params"][0] == "tok.weight" and "head.weight" not in info["params"]
    assert set(info["opaque"]) <= PENDING, info["opaque"]
