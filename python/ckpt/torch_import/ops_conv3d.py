"""Handlers of 3-D convolutions (NCDHW, forward and backward): torchvision's
video models (r3d_18, mc3_18, r2plus1d_18, the patch embedding of Swin3D).

Ungrouped and untransposed, any stride, padding and dilation, as the 2-D
construction of ops_conv with one more spatial dim. x [N, C, D, H, W],
w [F, C, KD, KH, KW]:

  * forward: `tensor.pad` + `linalg.conv_3d_ncdhw_fcdhw`, the bias added
    after;
  * input gradient: the output gradient dilated by the stride (zeros
    between its elements, `tensor.insert_slice` with strides into zeros)
    and padded by d(k-1)-p on each side (cropped where that is negative),
    convolved (stride 1, dilation d) with the flipped filter, its channels
    swapped ([C, F, KD, KH, KW], a `linalg.generic`);
  * filter gradient: a `linalg.generic` over (f, c, kd, kh, kw, n, od, oh,
    ow) reading the padded input at (n, c, od*s + kd*d, ...) and the output
    gradient at (n, f, od, oh, ow);
  * bias gradient: a sum over (n, od, oh, ow).

Grouped or transposed 3-D convolutions are not translated (opaque). The
handlers here replace ops_conv's (declared: `replaces=`; importing this
module imports ops_conv first): they take 5-D convolutions and pass every
other to ops_conv's.

Part of ckpt.torch_import (see its docstring).
"""

from .emit import _T, _is_float
from .ops import _Unsupported, _handler, _ints, _meta
from .ops_conv import _h_convolution as _previous_forward
from .ops_conv import _h_convolution_backward as _previous_backward
from .ops_structured import _add_bias

_IDS = ["d0", "d1", "d2", "d3", "d4"]


def _attrs(stride, dilation):
    return (f"{{dilations = dense<{list(dilation)}> : tensor<3xi64>, "
            f"strides = dense<{list(stride)}> : tensor<3xi64>}}")


def _conv3d(em, xp, w, stride, dilation, out_shape, base):
    """linalg.conv_3d_ncdhw_fcdhw of the padded xp by w into out_shape."""
    init = em.fill(0.0, out_shape, xp.dt, base)
    name = em.fresh(base)
    res = _T(name, out_shape, xp.dt)
    em.emit(f"{name} = linalg.conv_3d_ncdhw_fcdhw {_attrs(stride, dilation)} ins({xp.name}, "
            f"{w.name} : {xp.type}, {w.type}) outs({init.name} : {init.type}) -> {res.type}")
    return res


def _padded_input(em, x, k, stride, padding, dilation, out_sp, base):
    """x padded by `padding` low and as much high as the output reads."""
    need = [(out_sp[i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(3)]
    high = [max(0, need[i] - padding[i] - x.shape[2 + i]) for i in range(3)]
    return em.pad(x, [0, 0] + list(padding), [0, 0] + high, 0.0, base)


def _dilated(em, g, stride, low, high, base):
    """g [N, F, Do, Ho, Wo] with stride-1 zeros between its elements along
    each spatial dim and low/high zeros around (negative: cropped)."""
    n, f = g.shape[:2]
    if list(stride) == [1, 1, 1]:
        t = g
    else:
        full = (n, f) + tuple((g.shape[2 + i] - 1) * stride[i] + 1 for i in range(3))
        z = em.fill(0.0, full, g.dt, base + "_z")
        name = em.fresh(base + "_dil")
        t = _T(name, full, g.dt)
        em.emit(f"{name} = tensor.insert_slice {g.name} into {z.name}[0, 0, 0, 0, 0] "
                f"{list(g.shape)} [1, 1, {stride[0]}, {stride[1]}, {stride[2]}] : "
                f"{g.type} into {z.type}")
    t = em.pad(t, [0, 0] + [max(0, v) for v in low], [0, 0] + [max(0, v) for v in high],
               0.0, base + "_pad")
    cut_lo, cut_hi = [max(0, -v) for v in low], [max(0, -v) for v in high]
    if any(cut_lo) or any(cut_hi):
        shape = (n, f) + tuple(t.shape[2 + i] - cut_lo[i] - cut_hi[i] for i in range(3))
        name = em.fresh(base + "_crop")
        res = _T(name, shape, t.dt)
        em.emit(f"{name} = tensor.extract_slice {t.name}[0, 0, {cut_lo[0]}, {cut_lo[1]}, "
                f"{cut_lo[2]}] {list(shape)} [1, 1, 1, 1, 1] : {t.type} to {res.type}")
        t = res
    return t


def _conv_args(a, first):
    stride, padding, dilation = (_ints(a[first + i], 3) for i in range(3))
    return stride, padding, dilation, a[first + 3], a[first + 5]


@_handler("convolution.default", replaces=_previous_forward)
def _h_convolution(tr, node, base, metas):
    a = node.args
    shape, dt = metas[0]
    if len(shape) != 5:
        return _previous_forward(tr, node, base, metas)
    stride, padding, dilation, transposed, groups = _conv_args(a, 3)
    if transposed or groups != 1 or not _is_float(dt):
        raise _Unsupported()
    x, w = tr.mat(a[0], base + "_x"), tr.mat(a[1], base + "_w")
    xp = _padded_input(tr.em, x, w.shape[2:], stride, padding, dilation, shape[2:], base)
    res = _conv3d(tr.em, xp, w, stride, dilation, shape, base)
    if a[2] is not None:
        res = _add_bias(tr.em, res, tr.view(a[2]), 1, base + "_bias")
    return res


@_handler("convolution_backward.default", replaces=_previous_backward)
def _h_convolution_backward(tr, node, base, metas):
    a = node.args
    xshape = _meta(a[1])[0][0]
    if len(xshape) != 5:
        return _previous_backward(tr, node, base, metas)
    stride, padding, dilation, transposed, groups = _conv_args(a, 4)
    mask = a[10]
    em = tr.em
    g, w = tr.mat(a[0], base + "_g"), tr.mat(a[2], base + "_w")
    if transposed or groups != 1 or not _is_float(g.dt) or any(_ints(a[8], 3)):
        raise _Unsupported()
    dt = g.dt
    f, c = w.shape[:2]
    k = list(w.shape[2:])
    results = [None, None, None]
    if mask[0]:
        low = [dilation[i] * (k[i] - 1) - padding[i] for i in range(3)]
        size = [xshape[2 + i] + dilation[i] * (k[i] - 1) for i in range(3)]
        high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(3)]
        gp = _dilated(em, g, stride, low, high, base + "_dx")
        e = em.empty((c, f) + tuple(k), w.dt, base + "_wflip")
        wf = em.generic(base + "_wflip", 5, ["parallel"] * 5,
                        [(w, ["d1", "d0"] + [f"{k[i] - 1} - d{2 + i}" for i in range(3)])],
                        [(e, _IDS)], lambda r, x_, o: [x_[0]])[0]
        results[0] = _conv3d(em, gp, wf, [1, 1, 1], dilation, tuple(xshape), base + "_dx")
    if mask[1]:
        x = tr.mat(a[1], base + "_x")
        xp = _padded_input(em, x, k, stride, padding, dilation, g.shape[2:], base + "_xpad")
        init = em.fill(0.0, tuple(w.shape), dt, base + "_dw")
        # iteration (f, c, kd, kh, kw, n, od, oh, ow)
        sp = [f"d{6 + i} * {stride[i]} + d{2 + i} * {dilation[i]}" for i in range(3)]
        results[1] = em.generic(base + "_dw", 9, ["parallel"] * 5 + ["reduction"] * 4,
                                [(xp, ["d5", "d1"] + sp), (g, ["d5", "d0", "d6", "d7", "d8"])],
                                [(init, _IDS)],
                                lambda r, x_, o: [r.add(o[0], r.mul(x_[0], x_[1], dt), dt)])[0]
    if mask[2]:
        init = em.fill(0.0, (f,), dt, base + "_db")
        results[2] = em.generic(base + "_db", 5, ["parallel"] + ["reduction"] * 4,
                                [(g, ["d1", "d0", "d2", "d3", "d4"])], [(init, ["d0"])],
                                lambda r, x_, o: [r.add(o[0], x_[0], dt)])[0]
    for r, m in zip(results, metas):
        if r is not None and (m is None or tuple(r.shape) != tuple(m[0])):
            raise _Unsupported()
    return tuple(results)
