"""The losses of an imported training step, selected by a spec string.

    mse                                  mean squared error (float target of
                                         the output's shape)
    cross_entropy                        log-softmax cross entropy; class
                                         probabilities [N, K], or class indices
                                         [N] turned into one-hot probabilities
    cross_entropy:label_smoothing=0.1    PyTorch's label smoothing
    cross_entropy:ignore_index=0         rows whose class is 0 contribute 0 and
                                         are left out of the mean
    cross_entropy:indices                class indices stay an integer [N]
                                         argument of the step (not one-hot)
    nll_loss[:ignore_index=I]            negative log-likelihood of an output
                                         of log-probabilities, class indices
    model                                the model computes its own loss (a
                                         Hugging Face model given `labels`):
                                         its output's `.loss` (or ["loss"],
                                         or the output itself when it is a
                                         0-d tensor); no target argument

Options join with commas (`cross_entropy:label_smoothing=0.1,ignore_index=3`).
The same string is `import_module(..., loss=SPEC)` and `--loss SPEC`.
A class-index target stays an integer argument `%t: tensor<Nxi64>` of the
step when the spec asks for it: `nll_loss`, `ignore_index` (a one-hot row
cannot say "ignored") or `indices`; the plain `cross_entropy` keeps turning
indices into one-hot float probabilities (the same loss, and the step that
earlier imports wrote). Every loss is a mean (PyTorch's default reduction);
with `ignore_index` over the rows not ignored (NaN when all are).

Part of ckpt.torch_import (see its docstring).
"""

KINDS = ("cross_entropy", "mse", "nll_loss", "model")


class LossSpec:
    """A parsed loss spec: kind, label_smoothing, ignore_index (None: none),
    indices (whether class indices stay an integer argument)."""
    __slots__ = ("spec", "kind", "label_smoothing", "ignore_index", "indices")

    def __init__(self, spec, kind, label_smoothing=0.0, ignore_index=None, indices=False):
        self.spec, self.kind = spec, kind
        self.label_smoothing, self.ignore_index = label_smoothing, ignore_index
        self.indices = indices or kind == "nll_loss" or ignore_index is not None

    @property
    def classes(self):
        """Whether the target names classes (cross entropy, nll)."""
        return self.kind in ("cross_entropy", "nll_loss")

    def __repr__(self):
        return f"LossSpec({self.spec!r})"


def parse_loss(spec):
    """The LossSpec of a spec string (module docstring); a LossSpec is
    returned as it is. Raises ValueError naming what is wrong."""
    if isinstance(spec, LossSpec):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"the loss must be a string, not {type(spec).__name__}")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip()
    if kind not in KINDS:
        raise ValueError(f"unknown loss '{spec}': expected {', '.join(KINDS)}, with "
                         "options as in cross_entropy:label_smoothing=0.1,ignore_index=0")
    opts = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = (s.strip() for s in item.partition("="))
        if key in opts:
            raise ValueError(f"loss '{spec}': option '{key}' given twice")
        allowed = {"cross_entropy": ("label_smoothing", "ignore_index", "indices"),
                   "nll_loss": ("ignore_index",), "mse": (), "model": ()}[kind]
        if key not in allowed:
            raise ValueError(f"loss '{spec}': {kind} takes "
                             + (f"the options {', '.join(allowed)}" if allowed else "no options")
                             + f", not '{key}'")
        try:
            if key == "label_smoothing":
                v = float(value)
                if not 0.0 <= v <= 1.0:
                    raise ValueError
            elif key == "ignore_index":
                v = int(value)
            else:   # indices: a flag
                if eq and value not in ("1", "true", "True"):
                    raise ValueError
                v = True
        except ValueError:
            want = {"label_smoothing": "a number in [0, 1]", "ignore_index": "an integer",
                    "indices": "a flag (no value)"}[key]
            raise ValueError(f"loss '{spec}': {key} must be {want}, not '{value}'") from None
        opts[key] = v
    return LossSpec(spec, kind, **opts)


def loss_value(spec, out, t):
    """The loss of output `out` against target `t` (float probabilities or
    values, or int64 class indices when spec.indices), written with ops
    whose traced forms have static shapes."""
    import torch
    F = torch.nn.functional
    spec = parse_loss(spec)
    if spec.kind == "model":
        return model_loss(out)
    if spec.kind == "mse":
        return F.mse_loss(out, t)
    ii = spec.ignore_index
    if not spec.indices:        # class probabilities (one-hot from indices)
        return F.cross_entropy(out, t, label_smoothing=spec.label_smoothing)
    logp = out if spec.kind == "nll_loss" else torch.log_softmax(out, dim=1)
    if spec.kind == "nll_loss" or spec.label_smoothing == 0.0:
        # PyTorch's own nll: log-probabilities gathered at the targets, the
        # gradient scattered back (both with clamped indices in the step).
        return F.nll_loss(logp, t, ignore_index=-100 if ii is None else ii)
    # Label smoothing with class indices. PyTorch 1.13's own form selects the
    # rows not ignored with masked_select (a data-dependent shape); this is
    # the same value: per row (1 - e) * -logp[t] + e / K * -sum(logp), the
    # ignored rows 0, the mean over the rows not ignored.
    e, k = spec.label_smoothing, out.shape[1]
    nll = -logp.gather(1, t.unsqueeze(1)).squeeze(1)
    smooth = -logp.sum(dim=1)
    per_row = (1.0 - e) * nll + (e / k) * smooth
    if ii is None:
        return per_row.mean()
    keep = t != ii
    return torch.where(keep, per_row, torch.zeros_like(per_row)).sum() / keep.sum()


def model_loss(out):
    """The loss a model returned: `out.loss` (Hugging Face's ModelOutput),
    `out["loss"]`, the first field of a tuple, or `out` itself, which must
    be a 0-d floating tensor."""
    import torch
    loss = getattr(out, "loss", None)
    if loss is None and isinstance(out, dict):
        loss = out.get("loss")
    if loss is None and isinstance(out, (tuple, list)) and out:
        loss = out[0]
    if loss is None:
        loss = out
    if not isinstance(loss, torch.Tensor) or loss.dim() != 0 or not loss.is_floating_point():
        what = (f"a tensor of shape {list(loss.shape)}" if isinstance(loss, torch.Tensor)
                else type(out).__name__)
        raise ValueError(f"loss 'model': the model returned {what}, not a loss "
                         "(a 0-d float tensor, or an output with .loss: pass the labels)")
    return loss
