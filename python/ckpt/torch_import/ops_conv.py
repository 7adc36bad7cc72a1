"""Handlers of grouped, depthwise and transposed 2-D convolutions (forward and
backward), and the few other ops MobileNetV2 and ConvNeXt need: `zero`, the
tanh form of GELU, and the as_strided pattern of a channels-last global
average pooling's backward.

Convolutions (NCHW, any stride, padding, dilation, groups; transposed with
output_padding). With G groups, x [N, G*Cg, H, W] and w [G*Fg, Cg, KH, KW]:

  * forward: `tensor.pad` + `linalg.conv_2d_nchw_fchw` (G = 1, the handler of
    ops_structured, unchanged) or, grouped, the input, filter and output
    reshaped (`tensor.expand_shape`/`collapse_shape`, free) to [N, G, Cg, ...],
    [G, Fg, Cg, ...], [N, G, Fg, ...] around `linalg.conv_2d_ngchw_gfchw`;
    depthwise is Cg = 1 (Fg = the channel multiplier);
  * input gradient: the output gradient dilated by the stride and padded by
    d(k-1)-p (cropped where that is negative), convolved (stride 1,
    dilation d) with the flipped filter, channels swapped within each group
    ([G, Cg, Fg, KH, KW], a `linalg.generic`);
  * filter gradient: a `linalg.generic` over (g, f, c, kh, kw, n, oh, ow)
    reading the padded input at (n, g, c, oh*s + kh*d, ow*s + kw*d) and the
    output gradient at (n, g, f, oh, ow);
  * bias gradient: a sum over (n, oh, ow).

A transposed convolution (w [G*Cin_g, Cout_g, KH, KW]) is the input gradient
of the convolution with the same filter: its forward is the input-gradient
construction above (output_padding adds to the high padding), its input
gradient the grouped forward convolution of its output gradient, and its
filter gradient the filter-gradient construction with the roles of input
and output gradient exchanged.

The ungrouped, untransposed cases stay with ops_structured's handlers (the
handlers here call them); the handlers here replace its registrations of
`convolution` and `convolution_backward` (declared: `replaces=`), and
ops_tensor's of `as_strided` and `as_strided_scatter`, and ops.py's GELU
bodies, likewise.

Part of ckpt.torch_import (see its docstring).
"""

import math

from .emit import _T, _is_float, _numel
from .ops import EXECUTABLE_OPS, _Unsupported, _ew, _handler, _ints, _meta
from .ops import _ew_gelu as _gelu_erf, _ew_gelu_backward as _gelu_erf_backward
from . import ops_structured as _structured
from . import ops_tensor as _tensor
from .ops_structured import _add_bias, _dilate_pad


# ---------------------------------------------------------------------------
# Building blocks

def _conv_attrs(stride, dilation):
    return (f"{{dilations = dense<{list(dilation)}> : tensor<2xi64>, "
            f"strides = dense<{list(stride)}> : tensor<2xi64>}}")


def _crop(em, t, low, high, base):
    """t [N, C, H, W] without its first -low[i] / last -high[i] rows and
    columns where those are negative."""
    cut_lo = [max(0, -v) for v in low]
    cut_hi = [max(0, -v) for v in high]
    if not any(cut_lo) and not any(cut_hi):
        return t
    n, c, h, w = t.shape
    shape = (n, c, h - cut_lo[0] - cut_hi[0], w - cut_lo[1] - cut_hi[1])
    name = em.fresh(base)
    res = _T(name, shape, t.dt)
    em.emit(f"{name} = tensor.extract_slice {t.name}[0, 0, {cut_lo[0]}, {cut_lo[1]}] "
            f"{list(shape)} [1, 1, 1, 1] : {t.type} to {res.type}")
    return res


def _conv(em, xp, w, stride, dilation, groups, out_shape, base):
    """Convolution of the (already padded) xp [N, G*Cg, Hp, Wp] with
    w [G*Fg, Cg, KH, KW] into out_shape [N, G*Fg, OH, OW]."""
    dt = xp.dt
    n, c, hp, wp = xp.shape
    f, cg, kh, kw = w.shape
    if c != groups * cg or f % groups:
        raise _Unsupported()
    attrs = _conv_attrs(stride, dilation)
    if groups == 1:
        init = em.fill(0.0, out_shape, dt, base)
        name = em.fresh(base)
        res = _T(name, out_shape, dt)
        em.emit(f"{name} = linalg.conv_2d_nchw_fchw {attrs} ins({xp.name}, {w.name} : "
                f"{xp.type}, {w.type}) outs({init.name} : {init.type}) -> {res.type}")
        return res
    fg = f // groups
    x5 = em.reshape(xp, (n, groups, cg, hp, wp), base + "_xg")
    w5 = em.reshape(w, (groups, fg, cg, kh, kw), base + "_wg")
    o5 = (n, groups, fg, out_shape[2], out_shape[3])
    init = em.fill(0.0, o5, dt, base)
    name = em.fresh(base + "_g")
    res = _T(name, o5, dt)
    em.emit(f"{name} = linalg.conv_2d_ngchw_gfchw {attrs} ins({x5.name}, {w5.name} : "
            f"{x5.type}, {w5.type}) outs({init.name} : {init.type}) -> {res.type}")
    return em.reshape(res, out_shape, base)


def _conv_forward(em, x, w, stride, padding, dilation, groups, out_shape, base):
    """The (grouped) convolution of x by w, padding `padding` on both sides
    of each spatial dim (more rows at the end where the output needs them;
    rows it does not read are left)."""
    kh, kw = w.shape[2], w.shape[3]
    k = [kh, kw]
    need = [(out_shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
    high = [max(padding[i], need[i] - padding[i] - x.shape[2 + i]) for i in range(2)]
    xp = em.pad(x, [0, 0] + list(padding), [0, 0] + high, 0.0, base + "_pad")
    return _conv(em, xp, w, stride, dilation, groups, out_shape, base)


def _conv_input_grad(em, g, w, stride, padding, dilation, groups, out_hw, base):
    """The input gradient of the (grouped) convolution by w [G*Fg, Cg, KH, KW]
    given its output gradient g [N, G*Fg, Ho, Wo], of spatial size out_hw:
    also the forward of the transposed convolution by w (out_hw then
    includes its output_padding, which lands in the high padding)."""
    n, f, ho, wo = g.shape
    _, cg, kh, kw = w.shape
    k = [kh, kw]
    if f != w.shape[0] or f % groups:
        raise _Unsupported()
    fg = f // groups
    low = [dilation[i] * (k[i] - 1) - padding[i] for i in range(2)]
    size = [out_hw[i] + dilation[i] * (k[i] - 1) for i in range(2)]
    high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(2)]
    gp = _dilate_pad(em, g, stride, [max(0, v) for v in low], [max(0, v) for v in high],
                     base + "_gpad")
    gp = _crop(em, gp, low, high, base + "_gcrop")
    # the flipped filter, channels swapped within each group: [G*Cg, Fg, KH, KW]
    if groups == 1:
        e = em.empty((cg, f, kh, kw), w.dt, base + "_wflip")
        wf = em.generic(base + "_wflip", 4, ["parallel"] * 4,
                        [(w, ["d1", "d0", f"{kh - 1} - d2", f"{kw - 1} - d3"])],
                        [(e, ["d0", "d1", "d2", "d3"])], lambda r, a, o: [a[0]])[0]
    else:
        w5 = em.reshape(w, (groups, fg, cg, kh, kw), base + "_wg")
        e = em.empty((groups, cg, fg, kh, kw), w.dt, base + "_wflip")
        wf5 = em.generic(base + "_wflip", 5, ["parallel"] * 5,
                         [(w5, ["d0", "d2", "d1", f"{kh - 1} - d3", f"{kw - 1} - d4"])],
                         [(e, ["d0", "d1", "d2", "d3", "d4"])], lambda r, a, o: [a[0]])[0]
        wf = em.reshape(wf5, (groups * cg, fg, kh, kw), base + "_wflip")
    out_shape = (n, groups * cg, out_hw[0], out_hw[1])
    return _conv(em, gp, wf, [1, 1], dilation, groups, out_shape, base)


def _conv_filter_grad(em, x, g, stride, padding, dilation, groups, wshape, base):
    """dw [G*Fg, Cg, KH, KW] of the (grouped) convolution of x [N, G*Cg, H, W]
    whose output gradient is g [N, G*Fg, Ho, Wo]: the sum over (n, oh, ow)
    of x_padded[n, c, oh*s + kh*d, ow*s + kw*d] * g[n, f, oh, ow]."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = wshape
    _, _, ho, wo = g.shape
    k = [kh, kw]
    if c != groups * cg or f % groups or g.shape[1] != f:
        raise _Unsupported()
    fg = f // groups
    dt = g.dt
    need = [(g.shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
    high = [max(0, need[i] - padding[i] - x.shape[2 + i]) for i in range(2)]
    xp = em.pad(x, [0, 0] + list(padding), [0, 0] + high, 0.0, base + "_xpad")

    def body(r, a, o):
        return [r.add(o[0], r.mul(a[0], a[1], dt), dt)]
    if groups == 1:
        init = em.fill(0.0, tuple(wshape), dt, base)
        # iteration (f, c, kh, kw, n, oh, ow)
        hexp = f"d5 * {stride[0]} + d2 * {dilation[0]}"
        wexp = f"d6 * {stride[1]} + d3 * {dilation[1]}"
        return em.generic(base, 7, ["parallel"] * 4 + ["reduction"] * 3,
                          [(xp, ["d4", "d1", hexp, wexp]), (g, ["d4", "d0", "d5", "d6"])],
                          [(init, ["d0", "d1", "d2", "d3"])], body)[0]
    x5 = em.reshape(xp, (n, groups, cg, xp.shape[2], xp.shape[3]), base + "_xg")
    g5 = em.reshape(g, (n, groups, fg, ho, wo), base + "_gg")
    init = em.fill(0.0, (groups, fg, cg, kh, kw), dt, base)
    # iteration (g, f, c, kh, kw, n, oh, ow)
    hexp = f"d6 * {stride[0]} + d3 * {dilation[0]}"
    wexp = f"d7 * {stride[1]} + d4 * {dilation[1]}"
    dw = em.generic(base, 8, ["parallel"] * 5 + ["reduction"] * 3,
                    [(x5, ["d5", "d0", "d2", hexp, wexp]), (g5, ["d5", "d0", "d1", "d6", "d7"])],
                    [(init, ["d0", "d1", "d2", "d3", "d4"])], body)[0]
    return em.reshape(dw, tuple(wshape), base)


def _bias_grad(em, g, base):
    dt = g.dt
    init = em.fill(0.0, (g.shape[1],), dt, base)
    return em.generic(base, 4, ["parallel", "reduction", "reduction", "reduction"],
                      [(g, ["d1", "d0", "d2", "d3"])], [(init, ["d0"])],
                      lambda r, a, o: [r.add(o[0], a[0], dt)])[0]


# ---------------------------------------------------------------------------
# Handlers

_plain_convolution = _structured._h_convolution
_plain_convolution_backward = _structured._h_convolution_backward


@_handler("convolution.default", replaces=_plain_convolution)
def _h_convolution(tr, node, base, metas):
    a = node.args
    stride, padding, dilation = _ints(a[3]), _ints(a[4]), _ints(a[5])
    transposed, output_padding, groups = a[6], _ints(a[7]), a[8]
    if not transposed and groups == 1:
        return _plain_convolution(tr, node, base, metas)
    em = tr.em
    x = tr.mat(a[0], base + "_x")
    w = tr.mat(a[1], base + "_w")
    shape, dt = metas[0]
    if len(x.shape) != 4 or not _is_float(x.dt) or len(stride) != 2:
        raise _Unsupported()
    if not transposed:
        if any(output_padding):
            raise _Unsupported()
        res = _conv_forward(em, x, w, stride, padding, dilation, groups, shape, base)
    else:
        res = _conv_input_grad(em, x, w, stride, padding, dilation, groups, shape[2:], base)
    if tuple(res.shape) != tuple(shape):
        raise _Unsupported()
    if a[2] is not None:
        res = _add_bias(em, res, tr.view(a[2]), 1, base + "_bias")
    return res


@_handler("convolution_backward.default", replaces=_plain_convolution_backward)
def _h_convolution_backward(tr, node, base, metas):
    a = node.args
    stride, padding, dilation = _ints(a[4]), _ints(a[5]), _ints(a[6])
    transposed, output_padding, groups, mask = a[7], _ints(a[8]), a[9], a[10]
    if not transposed and groups == 1:
        return _plain_convolution_backward(tr, node, base, metas)
    em = tr.em
    g = tr.mat(a[0], base + "_g")
    xshape = _meta(a[1])[0][0]
    w = tr.mat(a[2], base + "_w")
    if len(xshape) != 4 or len(g.shape) != 4 or not _is_float(g.dt):
        raise _Unsupported()
    if not transposed and any(output_padding):
        raise _Unsupported()
    results = [None, None, None]
    if not transposed:
        if mask[0]:
            results[0] = _conv_input_grad(em, g, w, stride, padding, dilation, groups,
                                          xshape[2:], base + "_dx")
        if mask[1]:
            x = tr.mat(a[1], base + "_x")
            results[1] = _conv_filter_grad(em, x, g, stride, padding, dilation, groups,
                                           w.shape, base + "_dw")
    else:
        # y = conv_transpose(x, w): dx = conv(g, w), dw = filter gradient of
        # the convolution of g whose output gradient is x.
        if mask[0]:
            results[0] = _conv_forward(em, g, w, stride, padding, dilation, groups,
                                       tuple(xshape), base + "_dx")
        if mask[1]:
            x = tr.mat(a[1], base + "_x")
            results[1] = _conv_filter_grad(em, g, x, stride, padding, dilation, groups,
                                           w.shape, base + "_dw")
    if mask[2]:
        results[2] = _bias_grad(em, g, base + "_db")
    for r, m in zip(results, metas):
        if r is not None and (m is None or tuple(r.shape) != tuple(m[0])):
            raise _Unsupported()
    return tuple(results)


@_handler("zero.default")
def _h_zero(tr, node, base, metas):
    """zero(x): zeros of x's shape (functionalization's form of zero_)."""
    shape, dt = metas[0]
    return tr.em.fill(0, shape, dt, base)


# as_strided / as_strided_scatter that reinterpret a whole contiguous tensor
# as another contiguous shape (a reshape). Functionalization writes them for
# the global average pooling of a channels-last input (ConvNeXt: its blocks'
# outputs are permuted views): ATen's adaptive_avg_pool2d to 1x1 is `mean` +
# `as_strided_` to channels-last strides, whose backward (autograd's
# as_strided_backward) is new_empty + zero_ + as_strided + copy_. On a
# [N, C, 1, 1] tensor those strides change no element's place. Narrow: only
# a full, contiguous reinterpretation (same element count, offset 0, strides
# those of the size's row-major layout except along unit dims) of a fresh
# tensor; everything else goes to the handlers registered before.

def _contiguous_reinterpretation(node, base_shape, size, stride, offset):
    from .trace import _is_view
    src = node.args[0]
    if offset or _is_view(src) or src.op != "call_function":
        return False
    val = getattr(src, "meta", {}).get("val")
    if val is not None and (val.storage_offset() != 0 or not val.is_contiguous()):
        return False
    if _numel(size) != _numel(base_shape) or len(size) != len(stride):
        return False
    for i, s in enumerate(size):
        if s != 1 and stride[i] != _numel(size[i + 1:]):
            return False
    return True


_prev_as_strided = _tensor._h_as_strided
_prev_as_strided_scatter = _tensor._h_as_strided_scatter


@_handler("as_strided.default", replaces=_prev_as_strided)
def _h_as_strided(tr, node, base, metas):
    try:
        return _prev_as_strided(tr, node, base, metas)
    except _Unsupported:
        pass
    x = tr.mat(node.args[0], base + "_x")
    size, stride = list(node.args[1]), list(node.args[2])
    offset = node.args[3] if len(node.args) > 3 and node.args[3] is not None else 0
    if not _contiguous_reinterpretation(node, x.shape, size, stride, offset):
        raise _Unsupported()
    return tr.em.reshape(x, tuple(size), base)


@_handler("as_strided_scatter.default", replaces=_prev_as_strided_scatter)
def _h_as_strided_scatter(tr, node, base, metas):
    try:
        return _prev_as_strided_scatter(tr, node, base, metas)
    except _Unsupported:
        pass
    x_shape = _meta(node.args[0])[0][0]
    size, stride = list(node.args[2]), list(node.args[3])
    offset = node.args[4] if len(node.args) > 4 and node.args[4] is not None else 0
    if not _contiguous_reinterpretation(node, x_shape, size, stride, offset):
        raise _Unsupported()
    src = tr.mat(node.args[1], base + "_src")
    if tuple(src.shape) != tuple(size):
        raise _Unsupported()
    # the whole of x is overwritten: the result is src in x's shape
    return tr.em.reshape(src, tuple(x_shape), base)


# ---------------------------------------------------------------------------
# GELU's tanh form (nn.GELU(approximate="tanh")); the erf form stays ops.py's.

_SQRT_2_PI = math.sqrt(2.0 / math.pi)
_GELU_C = 0.044715


def _gelu_tanh_inner(r, x, dt):
    x3 = r.mul(r.mul(x, x, dt), x, dt)
    u = r.mul(r.scalar(_SQRT_2_PI, dt), r.add(x, r.mul(r.scalar(_GELU_C, dt), x3, dt), dt), dt)
    return r.math("tanh", u, dt)


@_ew("gelu.default", replaces=_gelu_erf)
def _ew_gelu(r, a, dt, kw):
    if kw.get("approximate", "none") != "tanh":
        return _gelu_erf(r, a, dt, kw)
    x = r.scalar(a[0], dt)
    t = _gelu_tanh_inner(r, x, dt)
    return r.mul(r.mul(r.scalar(0.5, dt), x, dt), r.add(r.scalar(1, dt), t, dt), dt)


@_ew("gelu_backward.default", replaces=_gelu_erf_backward)
def _ew_gelu_backward(r, a, dt, kw):
    if kw.get("approximate", "none") != "tanh":
        return _gelu_erf_backward(r, a, dt, kw)
    # d/dx 0.5 x (1 + tanh(u)) = 0.5 (1 + t) + 0.5 x (1 - t^2) u',
    # u' = sqrt(2/pi) (1 + 3 c x^2)
    g, x = r.scalar(a[0], dt), r.scalar(a[1], dt)
    one, half = r.scalar(1, dt), r.scalar(0.5, dt)
    t = _gelu_tanh_inner(r, x, dt)
    du = r.mul(r.scalar(_SQRT_2_PI, dt),
               r.add(one, r.mul(r.scalar(3 * _GELU_C, dt), r.mul(x, x, dt), dt), dt), dt)
    left = r.mul(half, r.add(one, t, dt), dt)
    right = r.mul(r.mul(half, x, dt), r.mul(r.sub(one, r.mul(t, t, dt), dt), du, dt), dt)
    return r.mul(g, r.add(left, right, dt), dt)


# ---------------------------------------------------------------------------
# Hardswish and Hardsigmoid (MobileNetV3). The tracer decomposes the
# functional forms; the in-place ones (nn.Hardswish(inplace=True):
# hardswish_) reach the importer as ops, and so may their backwards. ops.py
# has no body of its own for them (one there would make this registration
# raise).

def _relu6_of_x_plus_3(r, x, dt):
    t = r.add(x, r.scalar(3, dt), dt)
    return r.min(r.max(t, r.scalar(0, dt), dt), r.scalar(6, dt), dt)


def _ew_hardswish(r, a, dt, kw):
    x = r.scalar(a[0], dt)
    return r.div(r.mul(x, _relu6_of_x_plus_3(r, x, dt), dt), r.scalar(6, dt), dt)


def _ew_hardswish_backward(r, a, dt, kw):
    # 0 below -3, g (x / 3 + 1/2) on [-3, 3], g above (PyTorch's kernel)
    g, x = r.scalar(a[0], dt), r.scalar(a[1], dt)
    mid = r.mul(g, r.add(r.div(x, r.scalar(3, dt), dt), r.scalar(0.5, dt), dt), dt)
    upper = r.select(r.cmp("le", x, r.scalar(3, dt), dt), mid, g, dt)
    return r.select(r.cmp("lt", x, r.scalar(-3, dt), dt), r.scalar(0, dt), upper, dt)


def _ew_hardsigmoid(r, a, dt, kw):
    x = r.scalar(a[0], dt)
    return r.div(_relu6_of_x_plus_3(r, x, dt), r.scalar(6, dt), dt)


def _ew_hardsigmoid_backward(r, a, dt, kw):
    # g / 6 on (-3, 3), else 0
    g, x = r.scalar(a[0], dt), r.scalar(a[1], dt)
    inside = r.op(f"arith.andi {r.cmp('gt', x, r.scalar(-3, dt), dt)}, "
                  f"{r.cmp('lt', x, r.scalar(3, dt), dt)} : i1")
    return r.select(inside, r.div(g, r.scalar(6, dt), dt), r.scalar(0, dt), dt)


for _op, _fn in (("hardswish.default", _ew_hardswish),
                 ("hardswish_backward.default", _ew_hardswish_backward),
                 ("hardsigmoid.default", _ew_hardsigmoid),
                 ("hardsigmoid_backward.default", _ew_hardsigmoid_backward)):
    _ew(_op)(_fn)
    if _op not in EXECUTABLE_OPS:
        EXECUTABLE_OPS.append(_op)

for _op in ("zero.default",):
    if _op not in EXECUTABLE_OPS:
        EXECUTABLE_OPS.append(_op)
EXECUTABLE_OPS.sort()
