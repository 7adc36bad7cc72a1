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

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import models_e2e as me  # noqa: E402

CONFIGS = sorted(glob.glob(os.path.join(ROOT, "examples", "hf", "*.json")))
BUDGETS = ("70%", "50%")
BATCH, SEQ, IMAGE = 2, 8, 16


def _import(path):
    from ckpt.torch_import import hf, import_module_info
    model, xs, names, name, ranges = hf.build_model(path, BATCH, seq=SEQ, image=IMAGE)
    text, info = import_module_info(model, xs, None, loss="model", name=name,
                                    input_names=names, input_ranges=ranges)
    return model, xs, names, name, text, info


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: os.path.basename(p)[:-5])
def test_hf_model_end_to_end(path, tmp_path):
    model, xs, names, name, text, info = _import(path)
    assert info["opaque_ops"] == 0, info["opaque"]
    tmp = str(tmp_path)
    step = me.write_step(text, name, tmp)
    wrapped, base = me.base_run(step, name, tmp)
    # Eager PyTorch on ckpt-run's inputs (the splitmix draw, in the ranges
    # the step declares).
    ours, theirs = me.compare_model_loss_with_eager(model, xs, text, name, base)
    print(f"{name}: {info['aten_ops']} aten ops, worst error / bound {ours:.3g} "
          f"(PyTorch float32 {theirs:.3g})")
    me.plan_at_budgets(wrapped, name, base, tmp, BUDGETS)


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
