"""timm models by name: `python -m ckpt.torch_import timm:NAME --batch B
[--image S] [--classes K]`.

`timm.create_model(NAME, pretrained=False, num_classes=K)` (random weights,
no download), with `img_size=S` for the models whose constructor takes one
(vision transformers, Swin), trained with cross entropy on an input
[B, 3, S, S] (S: --image, else the model's default input size) and one-hot
class probabilities [B, K] (K: --classes, default 1000).

Part of ckpt.torch_import (see its docstring).
"""


def build_model(name, batch, image=None, classes=None, seed=0):
    """(module, x, target) of timm model `name`."""
    import torch
    try:
        import timm
    except ImportError:
        raise ValueError("timm: models need the 'timm' package "
                         "(scripts/setup.sh installs it in .venv)") from None
    if name not in timm.list_models():
        close = timm.list_models(f"*{name}*")[:5]
        raise ValueError(f"timm {timm.__version__} has no model '{name}'"
                         + (f" (did you mean {', '.join(close)}?)" if close else ""))
    classes = 1000 if classes is None else classes
    if classes < 1:
        raise ValueError("--classes must be at least 1")
    kwargs = {"pretrained": False, "num_classes": classes}
    torch.manual_seed(seed)
    model = timm.create_model(name, **kwargs)
    size = image or model.pretrained_cfg.get("input_size", (3, 224, 224))[-1]
    if image is not None and image != model.pretrained_cfg.get("input_size", (0, 0, 0))[-1]:
        # Transformers fix their position table's size at construction.
        try:
            torch.manual_seed(seed)
            model = timm.create_model(name, img_size=image, **kwargs)
        except TypeError:
            pass
    channels = model.pretrained_cfg.get("input_size", (3,))[0]
    gen = torch.Generator().manual_seed(seed)
    x = torch.rand(batch, channels, size, size, generator=gen) - 0.5
    labels = torch.randint(0, classes, (batch,), generator=gen)
    return model, x, torch.nn.functional.one_hot(labels, classes).to(torch.float32)
