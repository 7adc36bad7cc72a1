"""Tests of the PyTorch importer (ckpt.torch_import).

Small models are imported, lowered with ckpt-opt and run on the CPU, and their
loss and every gradient are compared with PyTorch's eager autograd on the
same inputs (in float64, within the error model's bound of numerics.py, which
PyTorch's own float32 result must pass too), two ways:
  * ckpt-opt --ckpt-wrap-step --ckpt-lower-to-cpu + ckpt-run --seed=7
    --print-outputs: ckpt-run's deterministic inputs (a splitmix64 stream,
    reproduced here) are fed to PyTorch too;
  * test/Inputs/steps/check_step.py's harness: a @main holding the model's
    own weights as hex dense constants, run with mlir-runner.
torchvision models are imported and planned with ckpt-opt (no execution).
torchvision's ResNet-18 (64x64, batch 2) is run against eager autograd in the
default suite; only the biggest planning cases need CKPT_SLOW=1.

Run: .venv/bin/python -m pytest python/tests/test_torch_import.py
"""

import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

# torch is a declared dependency (scripts/setup.sh installs it in .venv):
# without it these checks fail instead of turning into skips.
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(1)

from ckpt import torch_import as ti  # noqa: E402
from ckpt.mlir_runner import splitmix_inputs  # noqa: E402

import numerics  # noqa: E402  (python/tests/numerics.py: the error model)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))
MLIR_BIN = os.environ.get("CKPT_MLIR_BIN", "/usr/lib/llvm-22/bin")
MLIR_LIB = os.environ.get("CKPT_MLIR_LIB", "/usr/lib/llvm-22/lib")
SLOW = os.environ.get("CKPT_SLOW") == "1"


def _check_step():
    path = os.path.join(ROOT, "test", "Inputs", "steps", "check_step.py")
    spec = importlib.util.spec_from_file_location("ckpt_check_step", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------------------
# Helpers

def eager_step(model, loss, x, t, params, dtype=torch.float32):
    """Loss and gradients by PyTorch eager autograd, with the importer's
    training-mode semantics (batch statistics, no dropout), in `dtype`
    (torch.float64: the error model's reference, on the same float32 values
    upcast; integer inputs stay integers)."""
    from torch.func import functional_call
    m = ti.trace._prepare(model)
    names = [n for n, _ in m.named_parameters()]
    ps = [torch.tensor(p).to(dtype).requires_grad_() for p in params]
    state = dict(zip(names, ps))
    state.update((n, b.to(dtype)) for n, b in m.named_buffers()
                 if b is not None and b.is_floating_point())
    x = torch.tensor(x)
    x = x.to(dtype) if x.is_floating_point() else x
    out = functional_call(m, state, (x,))
    fn = (torch.nn.functional.cross_entropy if loss == "cross_entropy"
          else torch.nn.functional.mse_loss)
    value = fn(out, torch.tensor(t).to(dtype))
    grads = torch.autograd.grad(value, ps)
    return [value.detach().numpy()] + [g.numpy() for g in grads]


def check_numerics(got, model, loss, inputs, what, k, printed=False):
    """Our results `got` against eager autograd on `inputs` (x, target,
    params...), by the error model of numerics.py: within its bound of the
    float64 result, as PyTorch's own float32 result must be; `k` the
    reduction length, `printed`: 6 significant digits (mlir-runner)."""
    x, t, params = inputs[0], inputs[1], inputs[2:]
    ref32 = eager_step(model, loss, x, t, params)
    ref64 = eager_step(model, loss, x, t, params, torch.float64)
    return numerics.check_results(got, ref32, ref64, what, k, printed)


def lower_and_run(text, entry, tmp_path):
    step = tmp_path / "step.mlir"
    step.write_text(text)
    lowered = tmp_path / "lowered.mlir"
    r = run(["ckpt-opt", str(step), "--ckpt-wrap-step", "--ckpt-lower-to-cpu",
             "-o", str(lowered)])
    assert r.returncode == 0, r.stderr[:4000]
    r = run(["ckpt-run", str(lowered), f"--entry={entry}", "--seed=7", "--print-outputs"])
    assert r.returncode == 0, r.stderr[:4000]
    return json.loads(r.stdout)


# ---------------------------------------------------------------------------
# Executable models: values against PyTorch

SMALL = [("tinymlp", 3, "mse"), ("tinymlp", 2, "cross_entropy"),
         ("tinyresnet", 2, "cross_entropy"), ("tinytransformer", 2, "cross_entropy")]


def check_against_torch(model, x, target, loss, name, tmp_path, runner=True):
    """Import, run (both ways, or only through ckpt-run) and compare with
    PyTorch; returns the importer's info."""
    text, info = ti.import_module_info(model, x, target, loss, name=name)
    assert info["opaque_ops"] == 0, info["opaque"]
    assert re.search(rf"func\.func @{name}_step\(%x: ", text)
    assert "attributes {ckpt.loss = 0 : i64}" in text
    params = [p.detach().numpy() for p in model.parameters()]
    assert info["params"] == [n for n, _ in model.named_parameters()]

    # 1. ckpt's CPU pipeline on ckpt-run's inputs.
    result = lower_and_run(text, f"{name}_step", tmp_path)
    cs = _check_step()
    if x.is_floating_point():   # check_step.py parses f32 signatures only
        _, args, res_types, res_shapes = cs.parse_step(text)
        shapes = [s for _, s in args]
        assert shapes == [tuple(x.shape), tuple(target.shape)] + [p.shape for p in params]
        assert res_shapes == [()] + [p.shape for p in params]
    else:
        assert not runner
        shapes = [tuple(x.shape), tuple(target.shape)] + [p.shape for p in params]
        assert len(result["outputs"]) == 1 + len(params)
    # ckpt-run's inputs: integers (bits % 17 - 8) for an integer x.
    dtypes = [x.numpy().dtype] + [np.float32] * (len(shapes) - 1)
    inputs = splitmix_inputs(shapes, 7, dtypes)
    k = numerics.reduction_length(model, x, loss)
    got = [o["values"] for o in result["outputs"]]
    check_numerics(got, model, loss, inputs, f"{name} via ckpt-run", k)
    assert result["leaked_bytes"] == 0
    if not runner:
        return info

    # 2. The model's own weights as constants, through mlir-runner.
    real = [x.numpy().astype(np.float32), target.numpy().astype(np.float32)] + params
    wrapper = cs.build_wrapper(text, f"{name}_step", shapes, real, res_types, res_shapes)
    printed = cs.run_mlir(wrapper, str(tmp_path), MLIR_BIN, MLIR_LIB)
    got = cs.parse_printed(printed, res_shapes)
    # printMemrefF32 prints 6 significant digits: printed=True adds their
    # rounding to the bound.
    check_numerics(got, model, loss, real, f"{name} via mlir-runner", k, printed=True)
    return info


@pytest.mark.parametrize("name,batch,loss", SMALL)
def test_small_model_matches_torch(name, batch, loss, tmp_path):
    model, x, target = ti.build_model(name, batch=batch)
    if loss == "mse":
        target = target * 2 - 1
    info = check_against_torch(model, x, target, loss, name, tmp_path)
    assert not info["functionalized"]


class _InPlaceOnView(torch.nn.Module):
    """In-place ops on a view (the importer's local rewrite does not apply:
    functorch's functionalize runs; autograd's CopySlices gives as_strided
    and as_strided_scatter) and on a fresh tensor."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 6)
        self.fc2 = torch.nn.Linear(6, 3)

    def forward(self, x):
        h = self.fc1(x)
        h[:, 2:5].mul_(3.0)
        h = torch.relu(h) * 2
        h.add_(1.0)
        return self.fc2(h)


class _Activations(torch.nn.Module):
    """Elementwise ops and reductions: relu6 (hardtanh), sigmoid, tanh, silu,
    gelu, leaky relu, where, exp, log, sqrt, rsqrt, pow, mean, amax, clamp."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 8)
        self.fc2 = torch.nn.Linear(8, 8)
        self.fc3 = torch.nn.Linear(8, 8)
        self.fc4 = torch.nn.Linear(8, 3)

    def forward(self, x):
        F = torch.nn.functional
        h = self.fc2(F.relu6(self.fc1(x) * 4))
        h = torch.sigmoid(h) * torch.tanh(h) + F.silu(h) + F.gelu(h)
        h = F.leaky_relu(self.fc3(h), 0.1)
        h = torch.where(h > 0.05, h, 0.5 * h)
        h = torch.log(torch.exp(h) + 1) + torch.sqrt(h * h + 1) + h * torch.rsqrt(h ** 2 + 2)
        h = h - h.mean(dim=1, keepdim=True) + h.amax(dim=1, keepdim=True) / 3
        return self.fc4(torch.clamp(h, -2, 2))


def test_activations_match_torch(tmp_path):
    torch.manual_seed(0)
    check_against_torch(_Activations(), torch.rand(4, 6) - 0.5, torch.rand(4, 3), "mse",
                        "acts", tmp_path)


def test_inplace_on_view_matches_torch(tmp_path):
    torch.manual_seed(0)
    x = torch.rand(2, 4) - 0.5
    target = torch.softmax(torch.rand(2, 3), 1)
    info = check_against_torch(_InPlaceOnView(), x, target, "cross_entropy", "inplace", tmp_path)
    assert info["functionalized"]


def test_real_tracing_gives_the_same_step():
    model, x, target = ti.build_model("tinyresnet", batch=2)
    fake = ti.import_module(model, x, target)
    assert ti.import_module(model, x, target, tracing_mode="real") == fake
    assert "ckpt.opaque" not in fake


def test_class_index_target_is_one_hot():
    model, x, target = ti.build_model("tinymlp", batch=3)
    labels = target.argmax(1)
    assert ti.import_module(model, x, labels) == ti.import_module(model, x, target)


def test_remat_on_imported_step(tmp_path):
    """Plan, rematerialize and run the imported tinyresnet (batch 8, 32x32,
    so that activations dominate): test/Run/check_remat.py checks identical
    outputs, the budget, the predicted peak and the least feasible budget."""
    model, x, target = ti.build_model("tinyresnet", batch=8, image=32)
    text = ti.import_module(model, x, target, name="tinyresnet")
    path = tmp_path / "tinyresnet.mlir"
    path.write_text(text)
    r = run([sys.executable, os.path.join(ROOT, "test", "Run", "check_remat.py"), str(path),
             "tinyresnet_step", "80", "40"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^OK 80% budget=\d+ .* identical$", r.stdout, re.M), r.stdout
    # 40% is below what the step can reach: the named least budget runs
    # within itself, and one byte less is refused (docs/PLANNING.md).
    assert re.search(r"^INFEASIBLE 40% least=(\d+)\nLEAST \1 budget=\1 predicted=(\d+) "
                     r"measured=\2 .* identical\nBELOW \d+ refused$", r.stdout, re.M), r.stdout


# ---------------------------------------------------------------------------
# Opaque ops and errors

class _CumsumNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x):
        return torch.cumsum(self.fc(x), 1)


def test_opaque_op_plans_but_does_not_lower(tmp_path):
    text, info = ti.import_module_info(_CumsumNet(), torch.rand(2, 4), torch.rand(2, 3),
                                       loss="mse", name="cum")
    assert info["opaque"].get("aten.cumsum", 0) >= 2  # forward and backward
    # Its work (one flop per element, operand and result bytes), no time.
    m = re.search(r'= ckpt\.opaque "aten\.cumsum"\(%\w+\) \{ckpt\.work = #ckpt\.work<flops = 6, '
                  r'bytes = 48>\} : \(tensor<2x3xf32>\) -> tensor<2x3xf32>',
                  text)
    assert m, text
    step = tmp_path / "cum.mlir"
    step.write_text(text)
    # Timed by the device it is planned for: max(6 / peak, 48 / bandwidth),
    # h100 (67e12, 3.35e12): 1.4328358e-11 s; cpu (1e11, 2e10): 2.4e-09 s.
    for device, seconds in (("h100", 48 / 3.35e12), ("cpu", 48 / 2e10)):
        r = run(["ckpt-opt", str(step), "--ckpt-wrap-step",
                 f"--ckpt-annotate-costs=device={device}"])
        assert r.returncode == 0, r.stderr
        timed = re.findall(r'"aten\.cumsum"\(%\w+\) \{ckpt\.cost = #ckpt\.cost<flops = 6, '
                           r'bytes = 48, time = ([0-9.eE+-]+)>', r.stdout)
        assert timed and all(abs(float(t) / seconds - 1) < 1e-6 for t in timed), \
            (device, timed)
    r = run(["ckpt-opt", str(step), "--ckpt-wrap-step", "--ckpt-plan=budget=100%",
             "-o", os.devnull])
    assert r.returncode == 0, r.stderr
    r = run(["ckpt-opt", str(step), "--ckpt-wrap-step", "--ckpt-lower-to-cpu", "-o", os.devnull,
             "--mlir-print-op-on-diagnostic=false"])
    assert r.returncode != 0
    assert '"aten.cumsum" has no lowering' in r.stderr


class _DataDependent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.fc(x)
        return y if y.sum() > 0 else -y


class _DynamicShape(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.fc(x)
        return y[y > 0].reshape(1, -1)[:, :3]


def test_errors():
    x, t = torch.rand(2, 4), torch.rand(2, 3)
    with pytest.raises(ValueError, match="cannot trace the training step.*data-dependent"):
        ti.import_module(_DataDependent(), x, t)
    with pytest.raises(ValueError, match="dynamic shapes are not supported"):
        ti.import_module(_DynamicShape(), x, t)
    with pytest.raises(ValueError, match=r"target of shape \[2, 4\] for an output of shape \[2, 3\]"):
        ti.import_module(_CumsumNet(), x, torch.rand(2, 4))
    with pytest.raises(ValueError, match="unknown loss 'l1'"):
        ti.import_module(_CumsumNet(), x, t, loss="l1")
    with pytest.raises(ValueError, match="no parameters"):
        ti.import_module(torch.nn.ReLU(), x, t)


def _cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(BUILD, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return run([sys.executable, "-m", "ckpt.torch_import", *args], env=env)


def test_cli(tmp_path):
    out = tmp_path / "tiny.mlir"
    r = _cli("tinyresnet", "--batch", "2", "-o", str(out), "--stats")
    assert r.returncode == 0, r.stderr
    assert re.search(r"tinyresnet_step: \d+ aten ops -> \d+ MLIR ops, 0 opaque", r.stderr)
    text = out.read_text()
    assert re.search(r"func\.func @tinyresnet_step\(%x: tensor<2x3x16x16xf32>,\s+%t: "
                     r"tensor<2x10xf32>,\s+%p0: tensor<8x3x3x3xf32>", text)
    r = run(["ckpt-opt", str(out), "--ckpt-wrap-step", "-o", os.devnull])
    assert r.returncode == 0, r.stderr
    r = _cli("nosuchnet", "--batch", "1")
    assert r.returncode == 1 and "unknown model 'nosuchnet'" in r.stderr
    r = _cli("tinymlp", "--batch", "0")
    assert r.returncode == 1 and "--batch must be at least 1" in r.stderr


_USER_MODEL = """
import torch


class MyNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def make_net():
    return torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))


answer = 42
"""


def test_cli_user_model_matches_torch(tmp_path):
    """Your own nn.Module through the command line (file.py:Class), lowered,
    run by ckpt-run and compared with eager autograd on ckpt-run's inputs."""
    src = tmp_path / "mynet.py"
    src.write_text(_USER_MODEL)
    out = tmp_path / "mynet.mlir"
    r = _cli(f"{src}:MyNet", "--input-shape", "8x16", "-o", str(out), "--stats")
    assert r.returncode == 0, r.stderr
    assert "mynet_step: " in r.stderr and ", 0 opaque" in r.stderr
    text = out.read_text()
    # The target defaults to the output's shape (class probabilities).
    assert re.search(r"func\.func @mynet_step\(%x: tensor<8x16xf32>,\s+%t: tensor<8x4xf32>", text)
    result = lower_and_run(text, "mynet_step", tmp_path)
    model, _ = ti.load_user_model(f"{src}:MyNet")
    params = [p.detach().numpy() for p in model.parameters()]
    inputs = splitmix_inputs([(8, 16), (8, 4)] + [p.shape for p in params], 7)
    check_numerics([o["values"] for o in result["outputs"]], model, "cross_entropy", inputs,
                   "mynet via ckpt-run",
                   numerics.reduction_length(model, torch.tensor(inputs[0]), "cross_entropy"))


def test_cli_user_model_factory_and_targets(tmp_path):
    src = tmp_path / "nets.py"
    src.write_text(_USER_MODEL)
    out = tmp_path / "net.mlir"
    # A factory function; class indices as the target; mse with its shape.
    r = _cli(f"{src}:make_net", "--input-shape", "4x6", "--target-shape", "4", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert re.search(r"func\.func @make_net_step\(%x: tensor<4x6xf32>,\s+%t: tensor<4x3xf32>",
                     out.read_text())
    r = _cli(f"{src}:make_net", "--input-shape", "4x6", "--loss", "mse", "--target-shape",
             "4x3", "-o", str(out))
    assert r.returncode == 0, r.stderr
    r = run(["ckpt-opt", str(out), "--ckpt-wrap-step", "--ckpt-plan=budget=100%", "-o",
             os.devnull])
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args,message", [
    (["{src}:Nope", "--input-shape", "2x16"], "'{src}' has no 'Nope' (callables there: MyNet, make_net)"),
    (["{src}:answer", "--input-shape", "2x16"], "'answer' in '{src}' is not a class or a function"),
    (["{src}:MyNet"], "a model given as path/to/file.py:Name needs --input-shape"),
    (["{dir}/missing.py:MyNet", "--input-shape", "2x16"], "no such file: '{dir}/missing.py'"),
    (["{src}:MyNet", "--input-shape", "2x0"], "--input-shape must be positive sizes separated by 'x'"),
    (["{src}:MyNet", "--input-shape", "2x16", "--batch", "2"], "--batch is for built-in models"),
    (["{src}:MyNet", "--input-shape", "8x16", "--target-shape", "8x5"],
     "target of shape [8, 5] for an output of shape [8, 4]"),
    (["tinymlp", "--batch", "2", "--input-shape", "2x12"],
     "--input-shape is for models given as path/to/file.py:Name"),
    (["tinymlp"], "--batch is required for built-in and torchvision models"),
])
def test_cli_user_model_errors(tmp_path, args, message):
    src = tmp_path / "mynet.py"
    src.write_text(_USER_MODEL)
    fill = {"src": str(src), "dir": str(tmp_path)}
    r = _cli(*[a.format(**fill) for a in args], "-o", os.devnull)
    assert r.returncode == 1
    assert f"ckpt.torch_import: error: {message.format(**fill)}" in r.stderr, r.stderr


def test_cli_help_names_every_kind_of_model():
    r = _cli("--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    for name in ("resnet18", "inception_v3", "tinytransformer", "mobilenet_v2", "vit_b_16",
                 "path/to/file.py:Name", "--input-shape", "--input-dtype", "--target-shape"):
        assert name in text, name


def test_tinygpt_matches_torch(tmp_path):
    """A 2-layer GPT (vocabulary 256, width 64, 4 heads, sequence 32, batch 8:
    token and position embeddings, nn.MultiheadAttention with a causal triu
    mask, GELU MLPs, cross entropy over the vocabulary) imports with no opaque
    op, and its loss and every gradient through ckpt-run equal eager
    autograd's on the same inputs (token ids from ckpt-run's integers, whose
    absolute value the model takes)."""
    model, x, labels = ti.build_model("tinygpt", batch=8)
    assert x.dtype == torch.int64 and tuple(x.shape) == (8, 32)
    target = torch.nn.functional.one_hot(labels, 256).to(torch.float32)
    text, info = ti.import_module_info(model, x, target, "cross_entropy", name="tinygpt")
    for op in ("embedding.default", "embedding_dense_backward.default", "triu.default",
               "baddbmm.default", "arange.default"):
        assert op in ti.EXECUTABLE_OPS
    assert "tensor.extract" in text      # the gather of the embeddings
    check_against_torch(model, x, target, "cross_entropy", "tinygpt", tmp_path, runner=False)


def _policy_split(policy, dropout=False):
    """The forward nodes of tinygpt's blocks a keep policy keeps and drops,
    by aten op name (sorted)."""
    from ckpt.torch_import import policies, trace
    model, x, labels = ti.build_model("tinygpt", batch=2)
    target = torch.nn.functional.one_hot(labels, 256).to(torch.float32)
    scopes = trace._Scopes()
    gm = trace._trace(model, (x,), target, "cross_entropy", "fake", dropout, scopes)[0]
    keep, cls = policies.keep_nodes(gm, scopes, policy)
    assert cls == "GPTBlock"
    blocks = [(s, e) for _, c, s, e in scopes.spans if c == "GPTBlock"]
    assert len(blocks) == 2
    inside = [n for n in gm.graph.nodes if n.op == "call_function"
              and scopes.position.get(n, 10 ** 9) < scopes.forward_end
              and any(s <= scopes.position[n] < e for s, e in blocks)]
    outside = [n for n in gm.graph.nodes if n.op == "call_function"
               and scopes.position.get(n, 10 ** 9) < scopes.forward_end
               and n not in inside]
    op = policies._op
    return (sorted(op(n) for n in inside if n in keep),
            sorted(op(n) for n in inside if n not in keep),
            [n for n in outside if n not in keep])


def test_keep_policies_mark_what_the_baselines_keep():
    """The keep policies on tinygpt's two GPTBlocks (found as the repeated
    children of a Sequential), checked against what each baseline keeps by
    definition. Outside the blocks everything is kept, under every policy."""
    # checkpoint every block: only what leaves a block (its output, the
    # residual sum) is kept.
    kept, dropped, outside = _policy_split("blocks")
    assert kept == ["add", "add"] and outside == []
    # save matmuls (torchtitan's list): the products (in-projection mm, three
    # addmm), PyTorch 2's fused attention with its two outputs (getitem: the
    # context and the logsumexp; nn.MultiheadAttention runs it in training
    # without dropout), and the block outputs.
    flash = "_scaled_dot_product_flash_attention_for_cpu"
    kept, dropped, outside = _policy_split("matmuls")
    assert kept == sorted(["add", "addmm", "addmm", "addmm", flash, "getitem", "getitem",
                           "mm"] * 2)
    assert outside == [] and not {"mm", "addmm", flash} & set(dropped)
    # Megatron's selective recompute: the attention core alone is dropped,
    # the fused kernel, its outputs and the views of them (getitem, detach,
    # the heads' permute and view back), per block; everything else is kept.
    kept, dropped, outside = _policy_split("attention")
    assert dropped == sorted([flash, "detach", "getitem", "getitem", "permute", "view"] * 2)
    assert outside == [] and "mm" in kept and "addmm" in kept
    # With dropout on, nn.MultiheadAttention takes the unfused path: the
    # core is between the scores bmm (dropped) and the context bmm (kept),
    # the attention-weight dropout in it.
    kept, dropped, outside = _policy_split("attention", dropout=True)
    assert "bernoulli_" in dropped and kept.count("bmm") == 2 and dropped.count("bmm") == 2


def test_keep_policy_errors(tmp_path):
    r = _cli("tinygpt", "--batch", "2", "--keep", "blocks", "--block-class", "Nope")
    assert r.returncode == 1 and "no module of class 'Nope' runs in the forward" in r.stderr
    r = _cli("tinymlp", "--batch", "2", "--keep", "blocks")
    assert r.returncode == 1 and "no repeated blocks found" in r.stderr
    r = _cli("tinyresnet", "--batch", "2", "--keep", "attention", "--block-class", "TinyBlock")
    assert r.returncode == 1 and "no attention module" in r.stderr
    r = _cli("tinygpt", "--batch", "2", "--block-class", "GPTBlock")
    assert r.returncode == 2 and "--block-class needs --keep" in r.stderr
    out = tmp_path / "gpt.mlir"
    r = _cli("tinygpt", "--batch", "2", "--keep", "attention", "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "Keep policy 'attention' over the GPTBlock blocks" in text
    assert text.count("ckpt.checkpoint") > 0


def _philox4x32_10(counter, key):
    """Philox4x32-10 in plain Python integers, written from the paper (Salmon
    et al., SC 2011), independently of the importer's MLIR."""
    m0, m1, w0, w1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
    c = [v & 0xFFFFFFFF for v in counter]
    k0, k1 = key[0] & 0xFFFFFFFF, key[1] & 0xFFFFFFFF
    for rnd in range(10):
        if rnd:
            k0, k1 = (k0 + w0) & 0xFFFFFFFF, (k1 + w1) & 0xFFFFFFFF
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
    return c


def test_philox_reference_known_answers():
    # Random123's known-answer vectors for philox4x32_10.
    assert _philox4x32_10([0, 0, 0, 0], [0, 0]) == [
        0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert _philox4x32_10([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2) == [
        0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert _philox4x32_10([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
                          [0xA4093822, 0x299F31D0]) == [
        0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


class _DropoutMLP(torch.nn.Module):
    """Three dropouts, masks 0, 1, 2 in forward order, with p = 0.25, 0.5,
    0.1. Each drops `fc(h) + o`, o a parameter of the mask's own shape: o's
    gradient is the mask times a nonzero factor, so the step's outputs show
    every mask's bits. `masks`: eager's stand-in for the importer's dropout,
    multiplying by given masks and dividing by 1 - p as nn.Dropout does."""

    P = (0.25, 0.5, 0.1)

    def __init__(self, batch):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 16)
        self.fc2 = torch.nn.Linear(16, 16)
        self.fc3 = torch.nn.Linear(16, 8)
        self.fc4 = torch.nn.Linear(8, 4)
        self.o1 = torch.nn.Parameter(torch.rand(batch, 16) - 0.5)
        self.o2 = torch.nn.Parameter(torch.rand(batch, 16) - 0.5)
        self.o3 = torch.nn.Parameter(torch.rand(batch, 8) - 0.5)
        self.drops = torch.nn.ModuleList(torch.nn.Dropout(p) for p in self.P)

    def forward(self, x, masks=None):
        def drop(n, h):
            return self.drops[n](h) if masks is None else h * masks[n] / (1 - self.P[n])
        h = torch.tanh(drop(0, self.fc1(x) + self.o1))
        h = torch.tanh(drop(1, self.fc2(h) + self.o2))
        return self.fc4(torch.tanh(drop(2, self.fc3(h) + self.o3)))


def _philox_mask(seed, mask, shape, p):
    """Dropout mask number `mask` of the step by the independent Python
    Philox: element i kept when the top 24 bits of the first word for
    counter (i, 0, mask, 0) and key (seed, its high word) are below
    ceil((1 - p) * 2^24)."""
    threshold = math.ceil((1 - p) * (1 << 24))
    n = math.prod(shape)
    return np.array([1.0 if (_philox4x32_10([i, 0, mask, 0], [seed, seed >> 32])[0] >> 8)
                     < threshold else 0.0 for i in range(n)], dtype=np.float32).reshape(shape)


def _check_against_masked_eager(model, ins, masks, got, what, x):
    """The step's loss and gradients `got` (ckpt-run on inputs `ins`: x,
    target, parameters, seed) against eager autograd of `model` called with
    `masks=` (the masks the step should have drawn), MSE loss, under
    numerics.py's error model."""
    from torch.func import functional_call
    names = [n for n, _ in model.named_parameters()]

    def eager(dtype):
        ps = [torch.tensor(a).to(dtype).requires_grad_() for a in ins[2:-1]]
        y = functional_call(model, dict(zip(names, ps)), (torch.tensor(ins[0]).to(dtype),),
                            {"masks": [torch.tensor(m).to(dtype) for m in masks]})
        loss = torch.nn.functional.mse_loss(y, torch.tensor(ins[1]).to(dtype))
        return [loss.detach().numpy()] + [g.numpy() for g in torch.autograd.grad(loss, ps)]
    numerics.check_results(got, eager(torch.float32), eager(torch.float64), what,
                           numerics.reduction_length(model, x))


def test_dropout_masks_are_philox_and_gradients_match(tmp_path):
    """With dropout on, the step takes a %seed argument and mask n (the n-th
    dropout of the forward) keeps element i when the top 24 bits of
    Philox4x32-10's first word for counter (i, 0, n, 0) and key (seed mod
    2^32, seed div 2^32) are below ceil((1 - p) * 2^24). Three masks: the
    bits of every one, read off the step's gradients, equal the independent
    Python Philox's for its own mask number, and eager autograd with those
    masks gives the step's loss and gradients (numerics.py's error model)."""
    torch.manual_seed(0)
    batch = 3
    model = _DropoutMLP(batch)
    x, t = torch.rand(batch, 12), torch.rand(batch, 4)
    text, info = ti.import_module_info(model, x, t, "mse", name="drop", dropout=True)
    assert info["dropouts"] == 3 and info["opaque_ops"] == 0
    assert "%seed: tensor<i64>" in text
    # Off by default: no mask, no seed.
    off, info_off = ti.import_module_info(model, x, t, "mse", name="drop")
    assert info_off["dropouts"] == 0 and "%seed" not in off
    result = lower_and_run(text, "drop_step", tmp_path)
    names = [n for n, _ in model.named_parameters()]
    params = [p.detach().numpy() for p in model.parameters()]
    shapes = [tuple(x.shape), tuple(t.shape)] + [p.shape for p in params] + [()]
    ins = splitmix_inputs(shapes, 7, [np.float32] * (len(shapes) - 1) + [np.int64])
    seed = int(ins[-1])
    got = [np.asarray(o["values"], dtype=np.float64) for o in result["outputs"]]
    masks = []
    for n, (o, p) in enumerate(zip(("o1", "o2", "o3"), _DropoutMLP.P)):
        shape = model.get_parameter(o).shape
        mask = _philox_mask(seed, n, tuple(shape), p)
        assert 0 < mask.sum() < mask.size, (n, mask)
        # The step's mask n: where the gradient of o(n+1) is not zero.
        bits = got[1 + names.index(o)].reshape(shape) != 0
        assert np.array_equal(bits, mask != 0), (
            f"mask {n}: {int((bits != (mask != 0)).sum())} of {mask.size} bits differ from "
            f"Philox with counter (i, 0, {n}, 0)")
        masks.append(mask)
    assert not np.array_equal(masks[0], masks[1])   # the mask number matters
    _check_against_masked_eager(model, ins, masks, got, "dropout step", x)


class _DropoutAttention(torch.nn.Module):
    """Causal grouped-query attention with dropout on the probabilities
    (F.scaled_dot_product_attention's dropout_p, positional, as a module
    passes it in training mode), then a functional F.dropout. `masks`: eager's
    stand-in, attention written out (softmax, mask / (1 - p), times v)."""

    P, H, KV, D = 0.25, 4, 2, 4

    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, self.H * self.D)
        self.kv = torch.nn.Linear(8, 2 * self.KV * self.D)
        self.o = torch.nn.Linear(self.H * self.D, 3)

    def forward(self, x, masks=None):
        b, n, _ = x.shape
        q = self.q(x).view(b, n, self.H, self.D).transpose(1, 2)
        k, v = self.kv(x).view(b, n, 2, self.KV, self.D).permute(2, 0, 3, 1, 4)
        if masks is None:
            a = F.scaled_dot_product_attention(q, k, v, None, self.P, True, enable_gqa=True)
        else:
            g = self.H // self.KV
            k, v = k.repeat_interleave(g, 1), v.repeat_interleave(g, 1)
            s = q @ k.transpose(-1, -2) / math.sqrt(self.D)
            s = s.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
            a = (s.softmax(-1) * masks[0] / (1 - self.P)) @ v
        y = self.o(a.transpose(1, 2).reshape(b, n, -1))
        return y if masks is None else y * masks[1] / 0.5

    def drop(self, y):
        return F.dropout(y, 0.5, self.training)


class _DropoutAttentionStep(_DropoutAttention):
    def forward(self, x, masks=None):
        y = super().forward(x, masks)
        return self.drop(y) if masks is None else y


def test_attention_dropout_is_philox_and_gradients_match(tmp_path):
    """Dropout inside F.scaled_dot_product_attention (and a functional
    F.dropout after it), imported with dropout on: PyTorch traces the
    attention's math form, whose [B, H, L, S] mask is the step's mask 0 and
    F.dropout's mask 1, both drawn by the counter-based Philox; eager
    attention written out with the independent Python Philox's masks gives
    the step's loss and gradients. With dropout off, neither draws a mask."""
    torch.manual_seed(0)
    model = _DropoutAttentionStep()
    b, n = 2, 6
    x, t = torch.rand(b, n, 8), torch.rand(b, n, 3)
    off, info_off = ti.import_module_info(model, x, t, "mse", name="attn")
    assert info_off["dropouts"] == 0 and "%seed" not in off
    text, info = ti.import_module_info(model, x, t, "mse", name="attn", dropout=True)
    assert info["dropouts"] == 2 and info["opaque_ops"] == 0, info
    result = lower_and_run(text, "attn_step", tmp_path)
    shapes = [tuple(x.shape), tuple(t.shape)] + [p.shape for p in model.parameters()] + [()]
    ins = splitmix_inputs(shapes, 7, [np.float32] * (len(shapes) - 1) + [np.int64])
    seed = int(ins[-1])
    masks = [_philox_mask(seed, 0, (b, model.H, n, n), model.P),
             _philox_mask(seed, 1, (b, n, 3), 0.5)]
    got = [np.asarray(o["values"], dtype=np.float64) for o in result["outputs"]]
    _check_against_masked_eager(model, ins, masks, got, "attention dropout step", x)


@pytest.mark.skipif(not SLOW, reason="GPT-2 small: set CKPT_SLOW=1")
def test_gpt2_small_imports_and_plans(tmp_path):
    """GPT-2 small's shape (12 layers, width 768, 12 heads, sequence 1024,
    vocabulary 50257) at batch 8: no opaque op, and planned at 50%."""
    model, x, labels = ti.build_model("gpt2small", batch=8)
    text, info = ti.import_module_info(model, x, labels, "cross_entropy", name="gpt2small")
    assert info["opaque_ops"] == 0, info["opaque"]
    path = tmp_path / "gpt2small.mlir"
    path.write_text(text)
    r, _ = plan(path, "50%")
    assert r.returncode == 0, r.stderr[:4000]


def test_torchvision_resnet18_matches_torch(tmp_path):
    """torchvision's ResNet-18 (7x7/2 stem, 3x3/2 max pooling, downsampling
    blocks, global average pooling) at 64x64, batch 2, through ckpt-run.
    (At 32x32 the last batch norm normalizes 2 values per channel, so the
    gradients are too ill-conditioned to compare.) About 30 s: part of the
    default suite."""
    model, x, target = ti.build_model("resnet18", batch=2, image=64, classes=10)
    check_against_torch(model, x, target, "cross_entropy", "resnet18", tmp_path, runner=False)


# ---------------------------------------------------------------------------
# torchvision models: import and plan

_LEAST = re.compile(r"the least feasible budget is (\d+) B")


def plan(path, budget):
    start = time.perf_counter()
    r = run(["ckpt-opt", str(path), "--ckpt-wrap-step", f"--ckpt-plan=budget={budget}",
             "--mlir-print-op-on-diagnostic=false", "-o", os.devnull])
    return r, time.perf_counter() - start


def _slow(*params):
    return pytest.param(*params, marks=pytest.mark.skipif(
        not SLOW, reason="big model: set CKPT_SLOW=1"))


@pytest.mark.parametrize("name,batch", [
    ("resnet18", 1), ("resnet50", 1), ("densenet121", 1), ("inception_v3", 1),
    ("vgg16", 1), ("resnet18", 8), ("resnet101", 1), ("resnet152", 1),
    _slow("resnet50", 8),
    _slow("resnet152", 8), _slow("densenet121", 8), _slow("inception_v3", 8),
    _slow("vgg16", 8)])
def test_torchvision_model_plans(name, batch, tmp_path):
    model, x, target = ti.build_model(name, batch=batch)
    text, info = ti.import_module_info(model, x, target, name=name)
    del model
    # Every op of these models has an executable lowering.
    assert info["opaque_ops"] == 0, info["opaque"]
    assert info["aten_ops"] > 100
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    r, seconds = plan(path, "80%")
    print(f"{name} batch {batch}: {info['aten_ops']} aten ops, {info['mlir_ops']} MLIR ops, "
          f"trace {info['trace_s']:.1f} s, plan {seconds:.1f} s")
    if r.returncode != 0:
        m = _LEAST.search(r.stderr)
        assert m, r.stderr[:4000]
        # The least feasible budget the error names is feasible.
        r, _ = plan(path, f"{m.group(1)}B")
        assert r.returncode == 0, r.stderr[:4000]
