"""Handlers of 2-D resizing: `F.interpolate` (nearest and bilinear, with and
without align_corners) and their backwards, as PyTorch's CPU kernels define
them (aten/src/ATen/native/UpSample.h).

Part of ckpt.torch_import (see its docstring).

Per output row i of an axis of input size n and output size m (the same for
columns), in float32 as PyTorch computes it:

  nearest:   src(i) = i if m == n, i >> 1 if m == 2n (whatever the scale
             given), else
             min(floor(i * s), n - 1) with s = 1 / scale (the scale_factor
             given) or n / m
  bilinear:  r = s * i with align_corners (s = (n - 1) / (m - 1), 0 when
             m == 1), else max(0, s * (i + 0.5) - 0.5) (s as nearest's);
             i0 = floor(r), i1 = i0 + (i0 < n - 1), l1 = clamp(r - i0, 0, 1),
             l0 = 1 - l1

The forward reads the source pixels (tensor.extract) for every output
element. The backward is the transposed map, separable: a reduction over the
output columns for every input column, then over the output rows for every
input row, each term weighted by the forward's weight of that pair (0 where
the pair is not a neighbour), so that no scatter is needed.
"""

from .emit import _is_float
from .ops import EXECUTABLE_OPS, _Unsupported, _handler


def _scale_args(args, first):
    """(scales_h, scales_w) from the optional arguments at `first`."""
    rest = list(args[first:]) + [None, None]
    return rest[0], rest[1]


def _axis_scale(r, n, m, given, align, linear):
    """The float32 SSA scale of one axis (see the module docstring), or
    None for the nearest shortcuts."""
    if linear and align:
        if m <= 1:
            return r.c(0.0, "f32")
        return r.op(f"arith.divf {r.c(float(n - 1), 'f32')}, {r.c(float(m - 1), 'f32')} : f32")
    if given is not None and given > 0:
        return r.c(1.0 / given, "f32")
    return r.op(f"arith.divf {r.c(float(n), 'f32')}, {r.c(float(m), 'f32')} : f32")


def _nearest_src(r, i, n, m, given):
    """src(i) of nearest as an `index` SSA value."""
    if m == n:
        return i
    if m == 2 * n:
        return r.op(f"arith.shrui {i}, {r.c(1, 'index')} : index")
    s = _axis_scale(r, n, m, given, False, False)
    f = r.op(f"arith.sitofp {r.op(f'arith.index_cast {i} : index to i64')} : i64 to f32")
    f = r.op(f"math.floor {r.op(f'arith.mulf {f}, {s} : f32')} : f32")
    k = r.op(f"arith.fptosi {f} : f32 to i64")
    k = r.op(f"arith.minsi {k}, {r.c(n - 1, 'i64')} : i64")
    return r.op(f"arith.index_cast {k} : i64 to index")


def _linear_src(r, i, n, m, given, align):
    """(i0, i1, l0, l1) of bilinear for output index i: two `index` and
    two f32 SSA values."""
    s = _axis_scale(r, n, m, given, align, True)
    f = r.op(f"arith.sitofp {r.op(f'arith.index_cast {i} : index to i64')} : i64 to f32")
    if align:
        src = r.op(f"arith.mulf {s}, {f} : f32")
    else:
        half = r.c(0.5, "f32")
        src = r.op(f"arith.mulf {s}, {r.op(f'arith.addf {f}, {half} : f32')} : f32")
        src = r.op(f"arith.subf {src}, {half} : f32")
        src = r.op(f"arith.maximumf {src}, {r.c(0.0, 'f32')} : f32")
    k0 = r.op(f"arith.fptosi {src} : f32 to i64")
    more = r.op(f"arith.cmpi slt, {k0}, {r.c(n - 1, 'i64')} : i64")
    k1 = r.op(f"arith.addi {k0}, {r.op(f'arith.extui {more} : i1 to i64')} : i64")
    l1 = r.op(f"arith.subf {src}, {r.op(f'arith.sitofp {k0} : i64 to f32')} : f32")
    zero, one = r.c(0.0, "f32"), r.c(1.0, "f32")
    l1 = r.op(f"arith.maximumf {l1}, {zero} : f32")
    l1 = r.op(f"arith.minimumf {l1}, {one} : f32")
    l0 = r.op(f"arith.subf {one}, {l1} : f32")
    i0 = r.op(f"arith.index_cast {k0} : i64 to index")
    i1 = r.op(f"arith.index_cast {k1} : i64 to index")
    return i0, i1, l0, l1


def _weight(r, mode, i, target, n, m, given, align, dt):
    """The forward's weight of input index `target` in output index `i`
    along one axis (dt scalar): 1 / 0 for nearest, l0 [i0 == t] + l1
    [i1 == t] for bilinear."""
    zero = r.c(0.0, dt)
    if mode == "nearest":
        hit = r.op(f"arith.cmpi eq, {_nearest_src(r, i, n, m, given)}, {target} : index")
        return r.select(hit, r.c(1.0, dt), zero, dt)
    i0, i1, l0, l1 = _linear_src(r, i, n, m, given, align)
    l0, l1 = r.cast(l0, "f32", dt), r.cast(l1, "f32", dt)
    w0 = r.select(r.op(f"arith.cmpi eq, {i0}, {target} : index"), l0, zero, dt)
    w1 = r.select(r.op(f"arith.cmpi eq, {i1}, {target} : index"), l1, zero, dt)
    return r.add(w0, w1, dt)


def _extract(r, x, coords):
    return r.op(f"tensor.extract {x.name}[{', '.join(coords)}] : {x.type}")


def _forward(tr, node, base, metas, mode):
    shape, dt = metas[0]
    x = tr.mat(node.args[0], base + "_x")
    if len(x.shape) != 4 or not _is_float(dt) or x.dt != dt:
        raise _Unsupported()
    align = bool(node.args[2]) if mode == "bilinear" else False
    sh, sw = _scale_args(node.args, 3 if mode == "bilinear" else 2)
    (_, _, n_h, n_w), (_, _, m_h, m_w) = x.shape, shape
    ids = ["d0", "d1", "d2", "d3"]
    e = tr.em.empty(shape, dt, base)

    def body(r, a, o):
        b, c, i, j = (r.index(d) for d in range(4))
        if mode == "nearest":
            return [_extract(r, x, [b, c, _nearest_src(r, i, n_h, m_h, sh),
                                    _nearest_src(r, j, n_w, m_w, sw)])]
        h0, h1, hl0, hl1 = _linear_src(r, i, n_h, m_h, sh, align)
        w0, w1, wl0, wl1 = _linear_src(r, j, n_w, m_w, sw, align)
        hl0, hl1, wl0, wl1 = (r.cast(v, "f32", dt) for v in (hl0, hl1, wl0, wl1))

        def row(h):
            return r.add(r.mul(wl0, _extract(r, x, [b, c, h, w0]), dt),
                         r.mul(wl1, _extract(r, x, [b, c, h, w1]), dt), dt)
        return [r.add(r.mul(hl0, row(h0), dt), r.mul(hl1, row(h1), dt), dt)]
    return tr.em.generic(base, 4, ["parallel"] * 4, [], [(e, ids)], body)[0]


def _backward(tr, node, base, metas, mode):
    shape, dt = metas[0]
    g = tr.view(node.args[0])
    out_size, in_size = list(node.args[1]), list(node.args[2])
    if len(in_size) != 4 or not _is_float(dt) or g.dt != dt or tuple(in_size) != tuple(shape):
        raise _Unsupported()
    align = bool(node.args[3]) if mode == "bilinear" else False
    sh, sw = _scale_args(node.args, 4 if mode == "bilinear" else 3)
    nb, nc, n_h, n_w = in_size
    m_h, m_w = out_size
    em = tr.em
    # t[b, c, i, w] = sum_j g[b, c, i, j] * W_w(j, w), then
    # out[b, c, h, w] = sum_i W_h(i, h) * t[b, c, i, w]
    t = _transpose_axis(em, g.root, g.access, (nb, nc, m_h, n_w), 3, mode, n_w, m_w, sw, align,
                        base + "_cols")
    return _transpose_axis(em, t, None, tuple(shape), 2, mode, n_h, m_h, sh, align,
                           base + "_rows")


def _transpose_axis(em, src, access, out_shape, axis, mode, n, m, given, align, base):
    """out[..., t, ...] = sum_o src[..., o, ...] * W(o, t) along `axis` (2
    rows, 3 columns): the backward of resizing that axis from n to m. Dims
    (b, c, h, w, o); `access` maps src's indexing when it is a view."""
    dt = src.dt
    ids = ["d0", "d1", "d2", "d3"]
    read = list(ids)
    read[axis] = "d4"
    init = em.fill(0.0, out_shape, dt, base)

    def body(r, a, o):
        wt = _weight(r, mode, r.index(4), r.index(axis), n, m, given, align, dt)
        return [r.add(o[0], r.mul(a[0], wt, dt), dt)]
    return em.generic(base, 5, ["parallel"] * 4 + ["reduction"],
                      [(src, access(read) if access else read)], [(init, ids)], body)[0]


@_handler("upsample_nearest2d.default")
def _h_upsample_nearest(tr, node, base, metas):
    return _forward(tr, node, base, metas, "nearest")


@_handler("upsample_bilinear2d.default")
def _h_upsample_bilinear(tr, node, base, metas):
    return _forward(tr, node, base, metas, "bilinear")


@_handler("upsample_nearest2d_backward.default")
def _h_upsample_nearest_backward(tr, node, base, metas):
    return _backward(tr, node, base, metas, "nearest")


@_handler("upsample_bilinear2d_backward.default")
def _h_upsample_bilinear_backward(tr, node, base, metas):
    return _backward(tr, node, base, metas, "bilinear")


_OPS = ["upsample_nearest2d.default", "upsample_bilinear2d.default",
        "upsample_nearest2d_backward.default", "upsample_bilinear2d_backward.default"]
EXECUTABLE_OPS.extend(o for o in _OPS if o not in EXECUTABLE_OPS)
EXECUTABLE_OPS.sort()
