"""timm models end to end, at small sizes: each family's constructor with
fewer blocks or a narrower width (timm's keyword overrides), imported with
the default cross-entropy loss, no opaque op, lowered to the CPU and run by
ckpt-run, the loss and every gradient against eager PyTorch in float64
under the error model of numerics.py (PyTorch's own float32 must pass the
same bound), then planned at 70% and 50% (or the least budget named),
rewritten and run: outputs bit-identical, measured peak = predicted <=
budget (models_e2e.plan_and_run).

The batch is 4 where batch norm meets a small feature map: a batch of 2
at 1x1 normalizes two values to +-1, whose gradient is ill-conditioned
enough that PyTorch's own float32 leaves the bound (measured, worst error /
bound of PyTorch's float32: ResNet-50 at 2x32x32 over 1, at 4x32x32 0.27;
EfficientNet-B0 at 4x32x32 over 1, at 2x64x64 0.30, at 4x64x64 0.064).
"""

import os
import sys

import pytest

torch = pytest.importorskip("torch")
timm = pytest.importorskip("timm")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import models_e2e as me  # noqa: E402

# name -> (timm keyword overrides, input shape)
SMALL = {
    "resnet50": (dict(layers=(1, 1, 1, 1)), (4, 3, 32, 32)),
    "convnext_tiny": (dict(depths=(1, 1, 1, 1), dims=(16, 32, 48, 64)), (2, 3, 32, 32)),
    # 64x64: at 32x32 its last feature map is 1x1 (see above)
    "efficientnet_b0": (dict(), (4, 3, 64, 64)),
    "vit_small_patch16_224": (dict(img_size=32, patch_size=8, depth=2, embed_dim=32,
                                   num_heads=4), (2, 3, 32, 32)),
    # two blocks per stage: the second shifts its windows (roll), and the
    # relative position bias is an index into a table (index, index_put)
    "swin_tiny_patch4_window7_224": (dict(img_size=32, patch_size=2, window_size=4,
                                          depths=(2, 2), num_heads=(2, 4), embed_dim=16),
                                     (2, 3, 32, 32)),
}
BUDGETS = ("70%", "50%")


@pytest.mark.parametrize("name", sorted(SMALL))
def test_timm_model_end_to_end(name, tmp_path):
    from ckpt.torch_import import import_module_info, user_inputs
    kwargs, shape = SMALL[name]
    torch.manual_seed(0)
    model = timm.create_model(name, pretrained=False, num_classes=10, **kwargs)
    x, target = user_inputs(model, shape)
    step_name = "m"
    text, info = import_module_info(model, x, target, name=step_name)
    assert info["opaque_ops"] == 0, info["opaque"]
    tmp = str(tmp_path)
    wrapped, base = me.base_run(me.write_step(text, step_name, tmp), step_name, tmp)
    ours, theirs = me.compare_with_eager(model, x, text, step_name, base)
    print(f"{name}: {info['aten_ops']} aten ops, worst error / bound {ours:.3g} "
          f"(PyTorch float32 {theirs:.3g})")
    me.plan_at_budgets(wrapped, step_name, base, tmp, BUDGETS, label=name)


def test_timm_spec_on_the_command_line(tmp_path):
    from ckpt.torch_import import main
    out = tmp_path / "step.mlir"
    assert main(["timm:resnet18", "--batch", "2", "--image", "32", "--classes", "10",
                 "-o", str(out), "--quiet"]) == 0
    text = out.read_text()
    assert "func.func @resnet18_step(%x: tensor<2x3x32x32xf32>," in text
    assert "%t: tensor<2x10xf32>" in text
    assert "ckpt.opaque" not in text


def test_unknown_timm_model_is_one_line(capsys):
    from ckpt.torch_import import main
    assert main(["timm:resnet5000", "--batch", "2", "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no model 'resnet5000'" in err[0], err
