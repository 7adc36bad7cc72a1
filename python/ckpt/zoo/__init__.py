"""ckpt.zoo: training steps written out in MLIR (forward, loss, backward).

    python -m ckpt.zoo NAME [--depth D] [--batch B] [--width W] [--size S]
                            [--towers K] [-o FILE] [--check]

writes the step of model NAME (mlp, resnet, transformer, unet, towers,
densenet; see `ckpt.zoo.models`) as a `func.func @<name>_step` with the
`ckpt.loss` attribute, ready for `ckpt-opt --ckpt-wrap-step --ckpt-plan`,
executable on the CPU through `ckpt-opt --ckpt-lower-to-cpu` and `ckpt-run`.
`--check` compiles and runs it with stock MLIR tools and compares its loss
and gradients with torch.autograd on the same weights (`ckpt.zoo.reference`).

From Python::

    from ckpt import zoo
    step = zoo.generate("resnet", depth=2, batch=2)
    step.text           # the MLIR
    step.entry          # "resnet2_step"
    zoo.check(step)     # {"ok": True, "max_rel": ..., ...}
"""

from .builder import StepBuilder
from .models import MODELS


class Step:
    """A generated step: its MLIR `text`, its `entry` function name and the
    `builder` that recorded it (its tape replays in torch)."""

    def __init__(self, builder, text):
        self.builder = builder
        self.text = text
        self.entry = f"{builder.name}_step"


def generate(name, **options):
    """The step of model `name` with the given options (see models.py)."""
    import inspect
    if name not in MODELS:
        raise ValueError(f"unknown model '{name}' (one of: {', '.join(MODELS)})")
    fn = MODELS[name]
    given = {k: v for k, v in options.items() if v is not None}
    builder, loss = fn(**given)
    # The command line that writes this step, with every option spelled out.
    params = inspect.signature(fn).parameters
    shown = {k: given.get(k, p.default) for k, p in params.items()
             if k in ("depth", "batch", "width", "size", "towers")}
    flags = " ".join(f"--{k} {v}" for k, v in shown.items() if v is not None)
    builder.comment.insert(0, f"Written by: python -m ckpt.zoo {name} {flags}")
    return Step(builder, builder.finish(loss))


def check(step, seed=0, **tolerances):
    """Runs `step` with stock MLIR tools and compares it with torch."""
    from .reference import check as _check
    return _check(step.builder, step.text, seed=seed, **tolerances)


__all__ = ["MODELS", "Step", "StepBuilder", "check", "generate"]
