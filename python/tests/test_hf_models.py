"""Hugging Face models from their configs (examples/hf/*.json), end to end:
imported with the model's own loss (`hf:CONFIG.json`, no weights), no
opaque op, lowered to the CPU and run by ckpt-run, the loss and every
gradient against eager PyTorch in float64 on ckpt-run's inputs under the
error model of numerics.py (PyTorch's own float32 must pass the same bound),
then planned at 70% and 50% of the store-all peak (or the least budget the
planner names), rewritten, run: outputs bit-identical to the unplanned run,
measured peak = predicted <= budget (ckpt.remat.check).

The configs are small (two layers, width 32), so that each runs in seconds.
"""

import glob
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import models_e2e as me  # noqa: E402
import numerics  # noqa: E402

CONFIGS = sorted(glob.glob(os.path.join(ROOT, "examples", "hf", "*.json")))
BUDGETS = ("70%", "50%")
BATCH, SEQ, IMAGE = 2, 8, 16


def _import(path):
    from ckpt.torch_import import hf, import_module_info
    model, xs, names, name, ranges = hf.build_model(path, BATCH, seq=SEQ, image=IMAGE)
    text, info = import_module_info(model, xs, None, loss="model", name=name,
                                    input_names=names, input_ranges=ranges)
    return model, xs, names, name, text, info


def eager_model_step(model, inputs, params, dtype, terms=False):
    """The model's own loss and every gradient by eager autograd, in `dtype`,
    on the step's inputs (numpy) and parameters (numpy, float32). With
    `terms`, also the sum|terms| of each bias gradient's entries
    (models_e2e.eager_step): a key projection's bias has a gradient that is
    exactly 0 (softmax ignores a constant per row), its float32 sum is not."""
    from torch.func import functional_call
    from ckpt.torch_import import trace
    from ckpt.torch_import.losses import model_loss
    m = trace._prepare(model)
    names = [n for n, _ in m.named_parameters()]
    ps = [torch.tensor(p).to(dtype).requires_grad_() for p in params]
    state = dict(zip(names, ps))
    state.update((n, b.to(dtype)) for n, b in m.named_buffers()
                 if b is not None and b.is_floating_point())
    xs = []
    for x in inputs:
        x = torch.tensor(x)
        xs.append(x.to(dtype) if x.is_floating_point() else x)
    sums = {}
    handles = me.bias_term_hooks(m, state, sums) if terms else []
    try:
        value = model_loss(functional_call(m, state, tuple(xs)))
        grads = torch.autograd.grad(value, ps, allow_unused=True)
    finally:
        for h in handles:
            h.remove()
    results = [value.detach().numpy()] + [
        (g if g is not None else torch.zeros_like(p)).detach().numpy()
        for g, p in zip(grads, ps)]
    if terms:
        return results, [None] + [sums.get(n) for n in names]
    return results


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: os.path.basename(p)[:-5])
def test_hf_model_end_to_end(path, tmp_path):
    model, xs, names, name, text, info = _import(path)
    assert info["opaque_ops"] == 0, info["opaque"]
    tmp = str(tmp_path)
    step = me.write_step(text, name, tmp)
    wrapped, base = me.base_run(step, name, tmp)
    # Eager PyTorch on ckpt-run's inputs (the splitmix draw, in the ranges
    # the step declares).
    inputs = me.ckpt_run_inputs(text, name)
    n_in = len(xs)
    got = [np.asarray(o["values"]) for o in base["outputs"]]
    k = numerics.reduction_length(model, xs, "model")
    ref32 = eager_model_step(model, inputs[:n_in], inputs[n_in:], torch.float32)
    ref64, terms = eager_model_step(model, inputs[:n_in], inputs[n_in:], torch.float64,
                                    terms=True)
    ours, theirs = numerics.check_results(got, ref32, ref64, name, k, terms=terms)
    print(f"{name}: {info['aten_ops']} aten ops, worst error / bound {ours:.3g} "
          f"(PyTorch float32 {theirs:.3g})")
    for budget in BUDGETS:
        measured, nbytes, least, seconds = me.plan_and_run(wrapped, name, budget, base, tmp)
        assert measured["outputs_sha256"] == base["outputs_sha256"]
        assert measured["peak_bytes"] <= nbytes
        print(f"{name} at {budget}: budget {nbytes} B{' (least)' if least else ''}, peak "
              f"{measured['peak_bytes']} B, plan {seconds:.2f} s")


def test_input_names_are_the_step_arguments():
    path = os.path.join(ROOT, "examples", "hf", "llama3-tiny.json")
    _, _, _, name, text, _ = _import(path)
    sig = text[text.index(f"func.func @{name}_step("):]
    sig = sig[:sig.index("->")]
    assert sig.count("%input_ids: tensor<2x8xi64>") == 1
    assert "%t:" not in sig


@pytest.mark.parametrize("content, message", [
    ('{"architectures": ["NoSuchModelForCausalLM"], "model_type": "llama"}',
     "has no model class 'NoSuchModelForCausalLM'"),
    ('{"model_type": "llama"}', "no 'architectures' list"),
    ('{"architectures": ["LlamaModel"], "model_type": "llama"}',
     "no training task known"),
    ('[1, 2]', "is not a JSON object"),
    ('{"architectures": ["LlamaForCausalLM"], "model_type": "no_such_type"}',
     "model_type 'no_such_type'"),
])
def test_bad_configs_are_one_line_errors(tmp_path, content, message):
    from ckpt.torch_import import hf
    path = tmp_path / "config.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        hf.build_model(str(path), 2, seq=8)
