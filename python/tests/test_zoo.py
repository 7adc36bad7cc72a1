"""The model zoo (ckpt.zoo): every model's step computes the loss and the
gradients torch.autograd computes on the same weights, plans with ckpt-opt,
and the steps checked in under test/Inputs/steps are what the zoo writes."""

import os
import re
import subprocess
import sys

import pytest

from ckpt import zoo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPS = os.path.join(ROOT, "test", "Inputs", "steps")

# A declared dependency (torch, in .venv): missing, the suite fails.
import torch  # noqa: E402

torch.set_num_threads(1)


@pytest.mark.parametrize("name", sorted(zoo.MODELS))
def test_gradients_match_torch(name):
    step = zoo.generate(name)
    result = zoo.check(step)
    assert result["ok"], result["failures"]
    assert result["max_rel"] < 1e-3


def test_gradients_match_torch_other_sizes():
    for name, opts in [("mlp", dict(depth=4, act=None, batch=3, width=5, size=7)),
                       ("resnet", dict(depth=1, batch=1, width=3, size=4)),
                       ("transformer", dict(depth=2, batch=1, width=8, size=4)),
                       ("unet", dict(depth=1, batch=1, width=2, size=4)),
                       ("towers", dict(depth=1, batch=2, width=3, size=2, towers=4)),
                       ("densenet", dict(depth=2, batch=1, width=2, size=4))]:
        opts.pop("act", None)
        result = zoo.check(zoo.generate(name, **opts), seed=3)
        assert result["ok"], (name, result["failures"])


def test_check_catches_a_wrong_gradient():
    # The tanh derivative 1 - h^2 turned into 1 + h^2: dW1 .. dW2 go wrong
    # (dW3, after the last tanh, stays right), and the check must say so.
    step = zoo.generate("mlp")
    assert step.text.count("%c = arith.subf %one, %s : f32") == 2
    step.text = step.text.replace("%c = arith.subf %one, %s : f32",
                                  "%c = arith.addf %one, %s : f32")
    result = zoo.check(step)
    assert not result["ok"]
    assert [f.split("[")[0] for f in result["failures"]] == ["dw1", "dw2"]


@pytest.mark.parametrize("name,entry,options", [
    ("resnet6.mlir", "resnet6_step", dict(name="resnet", depth=6, batch=4, width=16, size=16)),
    ("transformer3.mlir", "transformer3_step",
     dict(name="transformer", depth=3, batch=4, width=16, size=32)),
])
def test_checked_in_steps_are_what_the_zoo_writes(name, entry, options):
    step = zoo.generate(**options)
    assert step.entry == entry
    with open(os.path.join(STEPS, name)) as f:
        assert f.read() == step.text


def test_step_conventions():
    step = zoo.generate("resnet", depth=2)
    text = step.text
    header = re.search(r"func\.func @(\w+)\((.*?)\)\s*-> \((.*?)\)\s*attributes "
                       r"\{ckpt\.loss = 0 : i64\}", text, re.S)
    assert header and header.group(1) == "resnet2_step"
    results = header.group(3).split(", ")
    assert results[0] == "tensor<f32>"
    assert len(results) == 1 + 6     # loss, dW0, dWa1, dWb1, dWa2, dWb2, dWf
    fwd, bwd = text.split("// Backward.")
    assert "// Forward." in fwd
    # Every backward op that writes a tensor gets its own tensor.empty.
    outs = re.findall(r"outs\((%\w+)", bwd)
    assert len(outs) == len(set(outs))


@pytest.mark.parametrize("name", ["unet", "densenet", "towers"])
def test_zoo_steps_plan(name, tmp_path):
    src = tmp_path / "step.mlir"
    src.write_text(zoo.generate(name, batch=4).text)
    p = subprocess.run(["ckpt-opt", str(src), "--ckpt-wrap-step", "--ckpt-plan=budget=90%",
                        "--ckpt-rematerialize", "--ckpt-insert-frees"],
                       capture_output=True, text=True)
    if p.returncode:
        assert re.search(r"the least feasible budget is .*\d+ B", p.stderr), p.stderr
    else:
        assert "ckpt.step" in p.stdout and "ckpt.free" in p.stdout


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "ckpt.zoo", *args], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))


def test_cli_writes_and_checks(tmp_path):
    out = tmp_path / "m.mlir"
    p = run_cli("mlp", "--depth", "2", "--batch", "2", "-o", str(out), "--check")
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith("PASS mlp2_step")
    assert out.read_text() == zoo.generate("mlp", depth=2, batch=2).text


def test_cli_errors():
    p = run_cli("lenet")
    assert p.returncode == 2 and "invalid choice: 'lenet'" in p.stderr
    p = run_cli("mlp", "--depth", "0")
    assert p.returncode == 2 and "--depth must be positive" in p.stderr
    p = run_cli("mlp", "--towers", "2")
    assert p.returncode == 2 and "--towers applies to the towers model only" in p.stderr
    p = run_cli("unet", "--depth", "3", "--size", "12")
    assert p.returncode == 1
    assert "error: unet: size 12 must be divisible by 2^depth = 8" in p.stderr
    p = run_cli("mlp", "--depth", "1")
    assert p.returncode == 1 and "error: mlp: depth must be at least 2" in p.stderr
    with pytest.raises(ValueError, match="unknown model 'lenet'"):
        zoo.generate("lenet")


def test_random_steps_are_deterministic_and_match_torch():
    from ckpt.zoo.random_step import random_step
    assert random_step(5).text == random_step(5).text
    assert random_step(5).text != random_step(6).text
    kinds = set()
    for seed in range(6):
        step = random_step(seed, ops=10)
        kinds |= {n.kind for n in step.builder.nodes}
        result = zoo.check(step)
        assert result["ok"], (seed, result["failures"])
    assert {"linear", "tanh", "relu", "add", "concat", "mse"} <= kinds


def test_property_checker_reports_each_violation(monkeypatch):
    from ckpt.zoo import proptest
    from ckpt.zoo.random_step import random_step
    step = random_step(1, ops=8)
    summary = proptest.check_step(step.text, step.entry, 100)
    assert summary["measured"] <= summary["budget"]
    real = proptest._execute
    for field, value, message in [("outputs_sha256", "0" * 64, "outputs differ"),
                                  ("leaked_bytes", 64, "leaks 64 B"),
                                  ("peak_bytes", 10 ** 9, "over the budget"),
                                  ("host_peak_bytes", 8, "host copies peak at 8 B"),
                                  ("host_live_bytes_at_exit", 16,
                                   "16 B of host copies left")]:
        calls = []

        def fake(mlir, entry, tmp):
            result = real(mlir, entry, tmp)
            calls.append(1)
            if len(calls) == 2:          # the rewritten step, not the unplanned one
                result[field] = value
            return result
        monkeypatch.setattr(proptest, "_execute", fake)
        with pytest.raises(proptest.Failure, match=message):
            proptest.check_step(step.text, step.entry, 100)


def test_shrink_finds_the_fewest_failing_ops(monkeypatch):
    from ckpt.zoo import proptest
    monkeypatch.setattr(proptest, "run_seed",
                        lambda seed, n, offload=False, host=False: (seed, None,
                                                        "boom" if n >= 5 else None))
    assert proptest.shrink(3, 9, "first") == (5, "boom")
    monkeypatch.setattr(proptest, "run_seed",
                        lambda seed, n, offload=False, host=False: (seed, {}, None))
    # No smaller step fails: the failure already seen is kept.
    assert proptest.shrink(3, 9, "first") == (9, "first")
