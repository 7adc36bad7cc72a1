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


def _import(path, attention_mask=False):
    from ckpt.torch_import import hf, import_module_info
    model, xs, names, name, ranges = hf.build_model(path, BATCH, seq=SEQ, image=IMAGE,
                                                    attention_mask=attention_mask)
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


@pytest.mark.parametrize("config", ["llama3-tiny", "gpt2-tiny", "t5-tiny"])
def test_hf_model_with_padding_mask(config, tmp_path):
    """The step takes attention_mask [B, S]; ckpt-run draws every element in
    {0, 1}, so rows and queries that see no key occur (query 0 of a causal
    row that starts with padding): PyTorch's kernel gives them output 0 and
    no gradient, and so must the step. A causal LM's labels are -100 at the
    padding."""
    path = os.path.join(ROOT, "examples", "hf", config + ".json")
    model, xs, names, name, text, info = _import(path, attention_mask=True)
    assert names[:2] == ("input_ids", "attention_mask")
    assert info["opaque_ops"] == 0, info["opaque"]
    sig = text[text.index(f"func.func @{name}_step("):]
    assert f"%attention_mask: tensor<{BATCH}x{SEQ}xi64>" in sig[:sig.index("->")]
    tmp = str(tmp_path)
    wrapped, base = me.base_run(me.write_step(text, name, tmp), name, tmp)
    mask = me.ckpt_run_inputs(text, name)[1]
    assert 0 < int(mask.sum()) < mask.size, "ckpt-run drew no padding"
    me.compare_model_loss_with_eager(model, xs, text, name, base)
    me.plan_at_budgets(wrapped, name, base, tmp, ("50%",))


def test_hf_attention_dropout(tmp_path):
    """Llama 3 with attention_dropout 0.1: off by default (no mask, no
    %seed: the step is deterministic); with dropout on, each layer's
    attention probabilities get a counter-based mask, so that the planned
    step, recomputing attention, runs bit-identical to the unplanned one."""
    import json
    from ckpt.torch_import import hf, import_module_info
    with open(os.path.join(ROOT, "examples", "hf", "llama3-tiny.json")) as f:
        config = dict(json.load(f), attention_dropout=0.1)
    path = tmp_path / "llama.json"
    path.write_text(json.dumps(config))
    model, xs, names, name, ranges = hf.build_model(str(path), BATCH, seq=SEQ)
    off, info = import_module_info(model, xs, None, loss="model", name=name,
                                   input_names=names, input_ranges=ranges)
    assert info["dropouts"] == 0 and "%seed" not in off
    text, info = import_module_info(model, xs, None, loss="model", name=name,
                                    input_names=names, input_ranges=ranges, dropout=True)
    assert info["dropouts"] == config["num_hidden_layers"] and info["opaque_ops"] == 0
    tmp = str(tmp_path)
    wrapped, base = me.base_run(me.write_step(text, name, tmp), name, tmp)
    me.plan_at_budgets(wrapped, name, base, tmp, ("50%",))


def test_padding_mask_is_for_text_models(tmp_path, capsys):
    from ckpt.torch_import import main
    vit = os.path.join(ROOT, "examples", "hf", "vit-tiny.json")
    for args, message in (
            ([f"hf:{vit}", "--batch", "2", "--image", "16"], "is for text models"),
            (["resnet18", "--batch", "2"], "--attention-mask is for hf: text models")):
        rc = main(args + ["--attention-mask", "--quiet", "-o", str(tmp_path / "x.mlir")])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 1 and len(err) == 1 and message in err[0], err


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
