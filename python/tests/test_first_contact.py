"""What a new user meets first: a model name the importer does not know, an
input the model rejects, a model whose output has auxiliary heads, and
torchvision's segmentation and video models by name."""

import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402


def _main(args, capsys):
    from ckpt.torch_import import main
    rc = main(args + ["--quiet"])
    return rc, capsys.readouterr().err.strip().splitlines()


def test_unknown_model_names_every_kind(capsys):
    rc, err = _main(["nosuch", "--batch", "1", "-o", "/dev/null"], capsys)
    assert rc == 1 and len(err) == 1, err
    for kind in ("resnet18", "segmentation or video model", "hf:CONFIG.json", "timm:NAME",
                 "path/to/file.py:Name"):
        assert kind in err[0]


@pytest.mark.parametrize("args, flags", [
    (["vit_b_16", "--batch", "2", "--image", "32"], "check --batch and --image"),
    (["timm:resnet18", "--batch", "1", "--image", "16"], "check --batch and --image"),
])
def test_rejected_input_names_the_flags_used(args, flags, capsys):
    rc, err = _main(args + ["-o", "/dev/null"], capsys)
    assert rc == 1 and len(err) == 1, err
    assert flags in err[0] and "--input-shape" not in err[0], err[0]


class _TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head, self.aux = nn.Linear(8, 3), nn.Linear(8, 3)

    def forward(self, x):
        h = self.body(x)
        return self.head(h), self.aux(h)


def test_auxiliary_outputs_warn_that_they_get_no_gradient():
    from ckpt.torch_import import import_module_info
    x, t = torch.rand(2, 4), torch.nn.functional.one_hot(torch.tensor([0, 2]), 3).float()
    with pytest.warns(UserWarning, match="returns 2 tensors .* gets zero gradients"):
        import_module_info(_TwoHeads(), x, t)


def test_googlenet_is_built_without_aux_heads():
    from ckpt.torch_import import build_model
    model, _, _ = build_model("googlenet", classes=10, image=64, batch=2)
    assert model.aux_logits is False and model.aux1 is None


def test_segmentation_model_by_name(tmp_path, capsys):
    out = tmp_path / "seg.mlir"
    rc, err = _main(["lraspp_mobilenet_v3_large", "--batch", "2", "--image", "32",
                     "--classes", "5", "-o", str(out)], capsys)
    assert rc == 0, err
    text = out.read_text()
    # per-pixel rows scored against one-hot targets [2*32*32, 5]
    assert "%t: tensor<2048x5xf32>" in text
    assert "ckpt.opaque" not in text and "upsample_bilinear2d" in text


def test_check_flag_runs_the_step_against_eager(capsys):
    rc, err = _main(["tinymlp", "--batch", "4", "--check", "-o", "/dev/null"], capsys)
    assert rc == 0, err
    assert err[-1].startswith("tinymlp_step: loss and 6 gradients within the error bound"), err


def test_check_fails_on_a_wrong_step():
    """The check is not vacuous: the step's tanh written as an exp is
    found."""
    from ckpt.torch_import import build_model, import_module_info
    from ckpt.torch_import.check import check
    model, x, target = build_model("tinymlp", batch=4)
    text, info = import_module_info(model, x, target, name="tinymlp")
    assert text.count("math.tanh") == 1
    wrong = text.replace("math.tanh", "math.exp")
    assert check(model, x, target, "cross_entropy", text, "tinymlp_step")["ours"] < 1
    with pytest.raises(ValueError, match="outside the error bound"):
        check(model, x, target, "cross_entropy", wrong, "tinymlp_step")


class _DictNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(4, 3), nn.Linear(4, 2)

    def forward(self, x):
        return {"aux": self.b(x), "out": self.a(x)}


def test_output_field_picks_what_is_scored(tmp_path, capsys):
    from ckpt.torch_import import import_module_info, user_inputs
    from ckpt.torch_import.trace import select_output
    with pytest.raises(ValueError, match=r"returns dict \(keys aux, out\), not a tensor: "
                                         r"choose the output to score with --output-field"):
        user_inputs(_DictNet(), (2, 4))
    model = select_output(_DictNet(), "out")
    x, t = user_inputs(model, (2, 4))
    assert tuple(t.shape) == (2, 3)
    text, info = import_module_info(model, x, t)
    assert info["params"] == ["model.a.weight", "model.a.bias", "model.b.weight", "model.b.bias"]
    with pytest.raises(ValueError, match=r"has no field 'nope' \(it has aux, out\)"):
        user_inputs(select_output(_DictNet(), "nope"), (2, 4))
    # the command line, with the segmentation model's "out"
    path = tmp_path / "net.py"
    path.write_text("import torch\nfrom torch import nn\n\n"
                    "class DictNet(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.a, self.b = nn.Linear(4, 3), nn.Linear(4, 2)\n\n"
                    "    def forward(self, x):\n"
                    "        return {'aux': self.b(x), 'out': self.a(x)}\n")
    rc, err = _main([f"{path}:DictNet", "--input-shape", "2x4", "--output-field", "out",
                     "--check", "-o", "/dev/null"], capsys)
    assert rc == 0 and "dictnet_step: loss and 4 gradients within the error bound" in err[-1]
