"""Tolerances of the checks of our float32 CPU results against PyTorch, from
an error model rather than constants tuned on one CPU.

The error model (bound on each entry of each result of a training step: the
loss and every gradient):

    |got - ref64| <= SAFETY * gamma_K * (|ref64| + max|ref64|)  [+ 5e-6 |got|]

  * ref64 is the same step in PyTorch eager in float64, on the same float32
    inputs and weights upcast (exact), so it is the exact result of our
    inputs up to K * 2^-53, which is nothing here.
  * u = 2^-24 is float32's unit roundoff and gamma_K = K u / (1 - K u). A
    float32 sum or dot product of K terms, in any order and blocking (the
    CPU's vector width, tiling, FMA or not: what differs between an AVX-512
    and an AVX2 machine), is within gamma_K * sum|terms| of the exact sum
    (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., ch.
    3, the inner-product bound; it holds for every summation order, and
    fused multiply-adds only lower it). Elementwise ops add a few u each,
    which the margins below cover.
  * K is the longest reduction of the step (the same K for every result: a
    gradient's error comes through the whole forward and backward chain):
    `reduction_length` takes it from the model's modules (a convolution's Cin/groups * kh * kw forward and
    Cout/groups * kh * kw for its input gradient, its weight gradient's
    batch * output positions, a linear layer's in and out features and rows,
    batch norm's batch * spatial, attention's width and sequence, an
    embedding's backward over the tokens, pooling windows, every dimension
    size a module sees (functional reductions along one axis) and the loss's
    reduction over the output's entries).
  * sum|terms| of the reduction that made an entry is not available, so it
    is stood for by |ref64| + max|ref64| over the result: the second term
    carries the error the earlier layers pass on, which scales with the
    result's magnitude rather than the entry's, and covers entries that are
    small by cancellation (a bias gradient before batch norm is 0 up to
    rounding).
  * [terms]: where the caller knows sum|terms| of the reduction that made
    an entry better than that stand-in, it passes it (float64, per entry)
    and the bound adds SAFETY * gamma_K * sum|terms|. Used for bias
    gradients (the sum over batch and positions of the gradient at the
    module's output, whose |.| eager float64 gives exactly): a bias that
    feeds a normalization (a convolution's bias before batch norm, the
    projection batch norm of a MobileNet block before the next one) has a
    gradient that is exactly 0, so |ref64| + max|ref64| is 0 too while the
    float32 sum of its terms is not.
  * SAFETY = 1.5 covers the propagation through the layers and the few
    ulps of transcendental functions (gamma_K is already the worst case of
    one reduction, all roundings of one sign). Measured on an AVX-512 Xeon,
    with PyTorch's AVX-512, AVX2 and generic kernels (ATEN_CPU_CAPABILITY,
    DNNL_MAX_CPU_ISA): the worst |got - ref64| / bound of
    python/tests/test_torch_import.py is 0.24 for ckpt-run's results, 0.49
    for mlir-runner's printed ones (mostly the printing), 0.30 for PyTorch's
    own float32.
  * [+ 5e-6 |got|]: for values printed with 6 significant digits
    (printMemrefF32 through mlir-runner), their rounding, half a unit of the
    6th digit, at most 5e-6 relative.

The check is validated on the CPU it runs on: PyTorch eager in float32 on the
same inputs must pass the same bound against ref64 (`check_results`); if it does
not, the bound is too tight for this CPU's kernels, not our compiler wrong.
It stays strict enough for bugs: in ResNet-18 (K = 4608, the largest here)
the bound of an entry of magnitude max|ref| is 2 * 1.5 * gamma_K ~ 8.2e-4
relative, so an entry off by 1e-3 of it fails, and in the small models
(K <= 256, bound <= 4.6e-5 relative) an entry off by 1e-4 fails.
"""

import math

import numpy as np

U32 = 2.0 ** -24
SAFETY = 1.5
PRINT_RTOL = 5e-6    # 6 significant digits: half a unit of the 6th, relative


def gamma(k):
    """gamma_K = K u / (1 - K u) for float32's u = 2^-24."""
    ku = k * U32
    assert ku < 0.5, f"reduction length {k} too long for a float32 error bound"
    return ku / (1.0 - ku)


def bound(ref64, k, printed=None, terms=None):
    """The per-entry bound of the error model (module docstring) for one
    result, float64 numpy; `printed`: the values as printed with 6
    significant digits, whose rounding is added; `terms`: sum|terms| of
    each entry's reduction where known (float64, the result's shape)."""
    r = np.abs(np.asarray(ref64, dtype=np.float64))
    scale = r + float(np.max(r, initial=0.0))
    if terms is not None:
        scale = scale + np.abs(np.asarray(terms, dtype=np.float64)).reshape(r.shape)
    b = SAFETY * gamma(k) * scale
    if printed is not None:
        b = b + PRINT_RTOL * np.abs(np.asarray(printed, dtype=np.float64).reshape(r.shape))
    return b


def assert_close(got, ref64, what, k, printed=False, terms=None):
    """Asserts every entry of every result in `got` is within the error
    model's bound of the float64 reference `ref64` (lists of arrays, in the
    same order) for reduction length `k`; `printed`: `got` was printed with 6
    significant digits; `terms`: None, or a list with, per result, None or
    the sum|terms| of each entry's reduction (see `bound`). Returns the worst
    |got - ref64| / bound over all entries (printed for the record: pytest
    -s)."""
    assert len(got) == len(ref64), f"{what}: {len(got)} results, expected {len(ref64)}"
    worst = 0.0
    for i, (g, r) in enumerate(zip(got, ref64)):
        r = np.asarray(r, dtype=np.float64)
        g = np.asarray(g, dtype=np.float64).reshape(r.shape)
        b = bound(r, k, g if printed else None, terms[i] if terms is not None else None)
        diff = np.abs(g - r)
        bad = ~(diff <= b)      # NaN fails too
        if bad.any():
            j = np.unravel_index(int(np.argmax(np.where(bad, diff / np.maximum(b, 1e-300), 0))),
                                 r.shape) if r.shape else ()
            raise AssertionError(
                f"{what}: result {i} {list(r.shape)}: {int(bad.sum())} entries outside the "
                f"error bound (K = {k}), worst at {list(j)}: got {g[j]:.9g}, float64 "
                f"reference {r[j]:.9g}, |got - ref| = {diff[j]:.3g} > bound {b[j]:.3g} "
                f"(ref max {float(np.abs(r).max()):.3g})")
        if r.size:
            worst = max(worst, float(np.max(diff / np.maximum(b, 1e-300))))
    print(f"numerics: {what}: K = {k}, worst |got - ref64| / bound = {worst:.3g}")
    return worst


def check_results(got, ref32, ref64, what, k, printed=False, terms=None):
    """Our results `got` and PyTorch's float32 eager results `ref32` against
    the float64 reference, both under the same bound: PyTorch passing it on
    this CPU is what says the bound is not too tight. Returns the two worst
    ratios (ours, PyTorch's). `terms`: see `assert_close`."""
    theirs = assert_close(ref32, ref64, f"{what}: PyTorch float32 eager", k, terms=terms)
    ours = assert_close(got, ref64, what, k, printed, terms)
    return ours, theirs


def reduction_length(model, x, loss="mse"):
    """K of the error model: the longest reduction of `model`'s training step
    on input `x` (a tuple: the model's inputs) (forward and backward), from its modules' types and the
    shapes they see in one forward pass (a copy in training mode: nothing of
    the model changes), and from the loss: "mse" a mean over all the
    output's entries, "cross_entropy" a log-sum-exp over the classes (the
    last dimension) and a mean over the rows.
    """
    import torch
    from torch import nn
    from ckpt.torch_import import trace

    m = trace._prepare(model)
    lengths = []

    def numel(t):
        return int(t.numel()) if isinstance(t, torch.Tensor) else 0

    def tensors(v):
        if isinstance(v, torch.Tensor):
            return [v]
        if isinstance(v, (tuple, list)):
            return [t for e in v for t in tensors(e)]
        return []

    def hook(mod, inputs, output):
        ins, outs = tensors(inputs), tensors(output)
        for t in ins + outs:           # reductions along one axis, any module
            lengths.extend(int(s) for s in t.shape)
        out = outs[0] if outs else None
        if isinstance(mod, nn.modules.conv._ConvNd):
            w = mod.weight
            taps = math.prod(w.shape[2:])
            lengths.append(w.shape[1] * taps)                       # forward
            lengths.append(w.shape[0] // mod.groups * taps)         # input gradient
            lengths.append(numel(out) // out.shape[1])              # weight gradient
        elif isinstance(mod, nn.Linear):
            lengths.extend([mod.in_features, mod.out_features,
                            numel(out) // mod.out_features])            # weight gradient
        elif isinstance(mod, (nn.modules.batchnorm._BatchNorm, nn.GroupNorm,
                              nn.modules.instancenorm._InstanceNorm)):
            # batch norm's statistics and every norm's weight gradient sum
            # over all but the channels; group norm's statistics over a
            # sample's group (shorter), instance norm's over the positions.
            lengths.append(numel(ins[0]) // ins[0].shape[1])
        elif isinstance(mod, nn.LayerNorm):
            n = math.prod(mod.normalized_shape)
            lengths.extend([n, numel(ins[0]) // n])
        elif isinstance(mod, nn.MultiheadAttention):
            lengths.extend([mod.embed_dim, mod.head_dim, numel(ins[0]) // mod.embed_dim])
        elif isinstance(mod, nn.Embedding):
            lengths.append(numel(ins[0]))                           # backward: tokens
        elif isinstance(mod, nn.modules.pooling._AvgPoolNd) or \
                isinstance(mod, nn.modules.pooling._AdaptiveAvgPoolNd):
            lengths.append(max(1, numel(ins[0]) // max(1, numel(out))))

    handles = [mod.register_forward_hook(hook) for mod in m.modules()]
    try:
        with torch.no_grad():
            out = m(*x) if isinstance(x, (tuple, list)) else m(x)
    finally:
        for h in handles:
            h.remove()
    if loss == "model":     # the model's own loss: cross entropy of its logits
        out = out.logits
    if loss.split(":")[0] in ("cross_entropy", "nll_loss", "model"):    # losses.py specs too
        lengths.extend([out.shape[-1], numel(out) // out.shape[-1]])
    else:
        lengths.append(numel(out))
    return max(2, max(lengths))


def bias_term_hooks(m, state, sums):
    """Hooks on every module of `m` with a bias parameter in `state` that
    add, into sums["<module>.bias"], the sum|terms| of each entry of the
    bias gradient (the sum over every axis but the bias's of |gradient at
    the module's output|; numerics.bound). Returns the hook handles."""
    import torch
    from torch import nn
    handles = []
    for mname, mod in m.named_modules():
        bias = getattr(mod, "bias", None)
        if not isinstance(bias, nn.Parameter) or f"{mname}.bias" not in state:
            continue

        # The bias is on the channels (dim 1) of convolutions, channel
        # norms and LayerNorm subclasses over NCHW (ConvNeXt's LayerNorm2d),
        # on the trailing dims of every other module (nn.Linear, nn.LayerNorm,
        # a language model head's own bias).
        channels = isinstance(mod, (nn.modules.conv._ConvNd, nn.modules.batchnorm._BatchNorm,
                                    nn.GroupNorm, nn.modules.instancenorm._InstanceNorm)) or (
            isinstance(mod, nn.LayerNorm) and type(mod) is not nn.LayerNorm)

        def hook(mod, inputs, out, key=f"{mname}.bias", nd=bias.dim(), numel=bias.numel(),
                 trailing=not channels):
            if not isinstance(out, torch.Tensor) or not out.requires_grad:
                return

            def grad_hook(g):
                a = g.abs()
                a = (a.flatten(0, a.dim() - nd - 1).sum(0) if trailing and a.dim() > nd
                     else a.transpose(0, 1).flatten(1).sum(1) if not trailing else a)
                if a.numel() == numel:      # else the output is not biased as assumed
                    sums[key] = sums.get(key, 0) + a.detach().numpy()
            out.register_hook(grad_hook)
        handles.append(mod.register_forward_hook(hook))
    return handles


def max_relative_error(got, want):
    """The largest |got - want| over pairs of arrays, each relative to the
    largest magnitude of its `want` (the routes' float32-rounding check)."""
    worst = 0.0
    for g, w in zip(got, want):
        w = np.asarray(w, dtype=np.float64).reshape(-1)
        g = np.asarray(g, dtype=np.float64).reshape(-1)
        scale = max(float(np.max(np.abs(w))), 1e-30)
        worst = max(worst, float(np.max(np.abs(g - w))) / scale)
    return worst
