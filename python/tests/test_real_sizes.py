"""The Hugging Face and timm models of the suite at their real sizes (set
CKPT_SLOW=1): the configs of examples/hf/real/ (Llama 3.2 1B, Qwen3 0.6B,
GPT-2, BERT base, T5 small, ViT-B/16 as the Hub has them; Mistral 7B's layer
shapes with 4 of its 32 layers, since its float32 weights would not fit this
machine's memory) at batch 8 and sequence 512 (BERT's longest; ViT at
batch 32, 224x224), and timm's resnet50, convnext_tiny, efficientnet_b0,
vit_small_patch16_224 and swin_tiny_patch4_window7_224 at batch 32 and
224x224. The budgets cover what the step allocates (activations and the
gradients it returns), not the parameters it is given; the sizes are such
that activations, not gradients, set the store-all peak.

Each is imported (no opaque op), planned at 70% and 50% of its store-all
peak (or at the least budget the planner names), and rewritten: the
rewritten step's simulated peak equals the plan's and is within the budget.
They are not run: at these sizes the unoptimised CPU lowering takes hours;
the small configs of test_hf_models.py and test_timm_models.py are the ones
run against eager PyTorch.

    CKPT_SLOW=1 CKPT_BUILD_DIR=$PWD/build .venv/bin/python -m pytest -s \\
        python/tests/test_real_sizes.py
"""

import glob
import os
import sys
import tempfile
import time

import pytest

SLOW = os.environ.get("CKPT_SLOW") == "1"
pytestmark = pytest.mark.skipif(not SLOW, reason="real sizes: set CKPT_SLOW=1")
torch = pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import models_e2e as me  # noqa: E402

HF = sorted(glob.glob(os.path.join(ROOT, "examples", "hf", "real", "*.json")))
TIMM = ("resnet50", "convnext_tiny", "efficientnet_b0", "vit_small_patch16_224",
        "swin_tiny_patch4_window7_224")


def _plan_and_rewrite(text, name):
    """Imports are planned at 70% and 50% (or the least budget) and
    rewritten; returns the figures printed for each."""
    from ckpt import remat
    rows = []
    with tempfile.TemporaryDirectory(prefix="ckpt-real-") as tmp:
        step = os.path.join(tmp, f"{name}.mlir")
        with open(step, "w") as f:
            f.write(text)
        wrapped = remat.wrap(step, tmp)
        for budget in ("70%", "50%"):
            planned, numbers, least, seconds = me.plan_or_least(wrapped, budget, tmp)
            nbytes = numbers["budget"]
            _, predicted = remat.rewrite(planned, tmp)
            assert numbers["peak"] <= nbytes, (budget, numbers)
            assert predicted == numbers["peak"], (budget, predicted, numbers)
            overhead = numbers["time"] / numbers["store_all_time"] - 1
            rows.append(f"{budget}: budget {nbytes / 2**20:.1f} MiB"
                        f"{' (least)' if least else ''} of {numbers['store_all_peak'] / 2**20:.1f}"
                        f" MiB, +{100 * overhead:.1f}% time, plan {seconds:.1f} s")
    return rows


@pytest.mark.parametrize("path", HF, ids=lambda p: os.path.basename(p)[:-5])
def test_hf_real_size(path):
    from ckpt.torch_import import hf, import_module_info
    image = "vit" in os.path.basename(path)
    start = time.perf_counter()
    model, xs, names, name, ranges = hf.build_model(
        path, 32 if image else 8, seq=None if image else 512, image=224 if image else None)
    text, info = import_module_info(model, xs, None, loss="model", name=name,
                                    input_names=names, input_ranges=ranges)
    seconds = time.perf_counter() - start
    assert info["opaque_ops"] == 0, info["opaque"]
    params = sum(p.numel() for p in model.parameters())
    del model
    rows = _plan_and_rewrite(text, name)
    print(f"\n{os.path.basename(path)}: {params / 1e6:.0f}M parameters, {info['aten_ops']} "
          f"aten ops, import {seconds:.0f} s; " + "; ".join(rows))


@pytest.mark.parametrize("name", TIMM)
def test_timm_real_size(name):
    pytest.importorskip("timm")
    from ckpt.torch_import import import_module_info, timm_models
    start = time.perf_counter()
    model, x, target = timm_models.build_model(name, 32, 224)
    text, info = import_module_info(model, x, target, name=name)
    seconds = time.perf_counter() - start
    assert info["opaque_ops"] == 0, info["opaque"]
    params = sum(p.numel() for p in model.parameters())
    rows = _plan_and_rewrite(text, name)
    print(f"\ntimm:{name}: {params / 1e6:.0f}M parameters, {info['aten_ops']} aten ops, "
          f"import {seconds:.0f} s; "
          + "; ".join(rows))
