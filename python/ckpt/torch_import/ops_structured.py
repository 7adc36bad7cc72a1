"""Handlers of structured ops: convolution (and its backward), max, average and
adaptive pooling, matrix products.

Part of ckpt.torch_import (see its docstring).
"""

import math

from .emit import _T, _is_float
from .ops import _Unsupported, _handler, _ints, _meta
from .ops_tensor import _insert


# ---------------------------------------------------------------------------
# Handlers of the structured ops.

def _conv_params(node):
    a = node.args
    stride, padding, dilation = _ints(a[3]), _ints(a[4]), _ints(a[5])
    transposed, groups = a[6], a[8]
    return stride, padding, dilation, transposed, groups


@_handler("convolution.default")
def _h_convolution(tr, node, base, metas):
    em = tr.em
    stride, padding, dilation, transposed, groups = _conv_params(node)
    x = tr.mat(node.args[0], base + "_x")
    w = tr.mat(node.args[1], base + "_w")
    if transposed or groups != 1 or len(x.shape) != 4 or _is_float(x.dt) is False:
        raise _Unsupported()
    if any(o != 0 for o in _ints(node.args[7])):
        raise _Unsupported()
    shape, dt = metas[0]
    xp = em.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0, base + "_pad")
    init = em.fill(0.0, shape, dt, base)
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : tensor<2xi64>, "
            f"strides = dense<{stride}> : tensor<2xi64>}} ins({xp.name}, {w.name} : {xp.type}, "
            f"{w.type}) outs({init.name} : {init.type}) -> {res.type}")
    if node.args[2] is not None:
        res = _add_bias(em, res, tr.view(node.args[2]), 1, base + "_bias")
    return res


def _add_bias(em, t, bias, dim, base):
    """t + bias broadcast along dim `dim` of t (bias [C] or [..., C] with
    the trailing dims aligned). A separate op, not the init of the
    contraction: an op that reads only parameters would be an entry of the
    forward graph, which the planner's separator search cannot cut."""
    n = len(t.shape)
    if len(bias.shape) == 1:
        exprs = [f"d{dim}"]
    else:
        off = n - len(bias.shape)
        exprs = [f"d{off + k}" if bias.shape[k] == t.shape[off + k] else "0"
                 for k in range(len(bias.shape))]
    e = em.empty(t.shape, t.dt, base)
    ids = [f"d{i}" for i in range(n)]
    return em.generic(base, n, ["parallel"] * n, [(t, ids), (bias.root, bias.access(exprs))],
                      [(e, ids)], lambda r, a, o: [r.add(a[0], r.cast(a[1], bias.dt, t.dt), t.dt)])[0]


def _dilate_pad(em, g, stride, low, high, base):
    """g [N, C, Ho, Wo] with stride-1 zeros between rows/columns and `low` /
    `high` zeros around (spatial dims)."""
    n, c, ho, wo = g.shape
    if stride == [1, 1]:
        return em.pad(g, [0, 0] + low, [0, 0] + high, 0.0, base)
    full = (n, c, low[0] + (ho - 1) * stride[0] + 1 + high[0],
            low[1] + (wo - 1) * stride[1] + 1 + high[1])
    z = em.fill(0.0, full, g.dt, base)
    return _insert(em, g, z, [0, 0, low[0], low[1]], [n, c, ho, wo],
                   [1, 1, stride[0], stride[1]], base)


@_handler("convolution_backward.default")
def _h_convolution_backward(tr, node, base, metas):
    em = tr.em
    a = node.args
    stride, padding, dilation = _ints(a[4]), _ints(a[5]), _ints(a[6])
    transposed, output_padding, groups, mask = a[7], _ints(a[8]), a[9], a[10]
    g = tr.mat(a[0], base + "_g")
    x_node, w_node = a[1], a[2]
    xshape = _meta(x_node)[0][0]
    w = tr.mat(w_node, base + "_w")
    if transposed or groups != 1 or len(xshape) != 4 or any(output_padding):
        raise _Unsupported()
    n, c, h, wd = xshape
    f, _, kh, kw = w.shape
    _, _, ho, wo = g.shape
    dt = g.dt
    k = [kh, kw]
    results = [None, None, None]
    if mask[0]:
        low = [dilation[i] * (k[i] - 1) - padding[i] for i in range(2)]
        size = [h + dilation[0] * (kh - 1), wd + dilation[1] * (kw - 1)]
        high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(2)]
        if min(low) < 0 or min(high) < 0:
            raise _Unsupported()
        gp = _dilate_pad(em, g, stride, low, high, base + "_gpad")
        e = em.empty((c, f, kh, kw), w.dt, base + "_wflip")
        wf = em.generic(base + "_wflip", 4, ["parallel"] * 4,
                        [(w, ["d1", "d0", f"{kh - 1} - d2", f"{kw - 1} - d3"])],
                        [(e, ["d0", "d1", "d2", "d3"])], lambda r, a_, o: [a_[0]])[0]
        init = em.fill(0.0, (n, c, h, wd), dt, base + "_dx")
        name = em.fresh(base + "_dx")
        res = _T(name, (n, c, h, wd), dt)
        em.emit(f"{name} = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : tensor<2xi64>, "
                f"strides = dense<1> : tensor<2xi64>}} ins({gp.name}, {wf.name} : {gp.type}, "
                f"{wf.type}) outs({init.name} : {init.type}) -> {res.type}")
        results[0] = res
    if mask[1]:
        x = tr.mat(x_node, base + "_x")
        # the input rows and columns the forward convolution read
        need = [(g.shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
        high = [max(0, need[i] - padding[i] - xshape[2 + i]) for i in range(2)]
        xp = em.pad(x, [0, 0] + padding, [0, 0] + high, 0.0, base + "_xpad")
        init = em.fill(0.0, w.shape, dt, base + "_dw")

        def body(r, a_, o):
            return [r.add(o[0], r.mul(a_[0], a_[1], dt), dt)]
        # iteration (f, c, kh, kw, n, oh, ow)
        hexp = f"d5 * {stride[0]} + d2 * {dilation[0]}"
        wexp = f"d6 * {stride[1]} + d3 * {dilation[1]}"
        results[1] = em.generic(base + "_dw", 7, ["parallel"] * 4 + ["reduction"] * 3,
                                [(xp, ["d4", "d1", hexp, wexp]), (g, ["d4", "d0", "d5", "d6"])],
                                [(init, ["d0", "d1", "d2", "d3"])], body)[0]
    if mask[2]:
        init = em.fill(0.0, (f,), dt, base + "_db")
        results[2] = em.generic(base + "_db", 4, ["parallel", "reduction", "reduction", "reduction"],
                                [(g, ["d1", "d0", "d2", "d3"])], [(init, ["d0"])],
                                lambda r, a_, o: [r.add(o[0], a_[0], dt)])[0]
    return tuple(results)


def _pool_params(node, kernel_at, with_dilation):
    a = node.args
    k = _ints(a[kernel_at])
    stride = _ints(a[kernel_at + 1]) if len(a) > kernel_at + 1 and a[kernel_at + 1] else k
    padding = _ints(a[kernel_at + 2]) if len(a) > kernel_at + 2 else [0, 0]
    if with_dilation:
        dilation = _ints(a[kernel_at + 3]) if len(a) > kernel_at + 3 else [1, 1]
    else:
        dilation = [1, 1]
    return k, stride, padding, dilation


@_handler("max_pool2d_with_indices.default")
def _h_max_pool(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    if len(x.shape) != 4 or not _is_float(x.dt):
        raise _Unsupported()
    k, stride, padding, dilation = _pool_params(node, 1, True)
    (shape, dt), (_, idt) = metas
    w = x.shape[3]
    need = [(shape[2 + i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 for i in range(2)]
    high = [max(0, need[i] - padding[i] - x.shape[2 + i]) for i in range(2)]
    xp = em.pad(x, [0, 0] + padding, [0, 0] + high, -math.inf, base + "_pad")
    win = em.empty(tuple(k), dt, base + "_win")
    vals = em.fill(-math.inf, shape, dt, base + "_vals")
    idx = em.fill(0, shape, idt, base + "_idx")

    def body(r, a, o):
        v, m, i = a[0], o[0], o[1]
        oh, ow, kh, kw = r.index(2), r.index(3), r.index(4), r.index(5)
        hh = r.op(f"affine.apply affine_map<(a, b) -> (a * {stride[0]} + b * {dilation[0]} - "
                  f"{padding[0]})>({oh}, {kh})")
        ww = r.op(f"affine.apply affine_map<(a, b) -> (a * {stride[1]} + b * {dilation[1]} - "
                  f"{padding[1]})>({ow}, {kw})")
        flat = r.op(f"affine.apply affine_map<(a, b) -> (a * {w} + b)>({hh}, {ww})")
        flat = r.cast(flat, "index", idt)
        gt = r.cmp("gt", v, m, dt)
        nan = r.op(f"arith.cmpf uno, {v}, {v} : {dt}")
        take = r.op(f"arith.ori {gt}, {nan} : i1")
        return [r.select(take, v, m, dt), r.select(take, flat, i, idt)]
    hexp = f"d2 * {stride[0]} + d4 * {dilation[0]}"
    wexp = f"d3 * {stride[1]} + d5 * {dilation[1]}"
    out = em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                     [(xp, ["d0", "d1", hexp, wexp]), (win, ["d4", "d5"])],
                     [(vals, ["d0", "d1", "d2", "d3"]), (idx, ["d0", "d1", "d2", "d3"])], body)
    return (out[0], out[1])


@_handler("max_pool2d_with_indices_backward.default")
def _h_max_pool_backward(tr, node, base, metas):
    em = tr.em
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    idx = tr.mat(node.args[7], base + "_idx")
    k, stride, padding, dilation = _pool_params(node, 2, True)
    if len(x_shape) != 4:
        raise _Unsupported()
    shape, dt = metas[0]
    n, c, h, w = x_shape
    ho, wo = g.shape[2], g.shape[3]
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, shape, dt, base)

    def body(r, a, o):
        i0, i1, ih, iw, kh, kw = (r.index(d) for d in range(6))
        conds = []
        pos = []
        for (ix, kx, s, p, dd, lim) in ((ih, kh, stride[0], padding[0], dilation[0], ho),
                                          (iw, kw, stride[1], padding[1], dilation[1], wo)):
            # output row t / s reads input row ix through tap kx when
            # t = ix + p - kx * d >= 0, t % s == 0 and t / s < lim
            t = r.op(f"affine.apply affine_map<(a, b) -> (a + {p} - b * {dd})>({ix}, {kx})")
            ok = r.op(f"arith.cmpi sge, {t}, {r.c(0, 'index')} : index")
            q = r.op(f"arith.divsi {t}, {r.c(s, 'index')} : index")
            if s != 1:
                rem = r.op(f"arith.remsi {t}, {r.c(s, 'index')} : index")
                ok2 = r.op(f"arith.cmpi eq, {rem}, {r.c(0, 'index')} : index")
                ok = r.op(f"arith.andi {ok}, {ok2} : i1")
            ok3 = r.op(f"arith.cmpi slt, {q}, {r.c(lim, 'index')} : index")
            ok = r.op(f"arith.andi {ok}, {ok3} : i1")
            pos.append(r.op(f"arith.select {ok}, {q}, {r.c(0, 'index')} : index"))
            conds.append(ok)
        valid = r.op(f"arith.andi {conds[0]}, {conds[1]} : i1")
        gv = r.op(f"tensor.extract {g.name}[{i0}, {i1}, {pos[0]}, {pos[1]}] : {g.type}")
        iv = r.op(f"tensor.extract {idx.name}[{i0}, {i1}, {pos[0]}, {pos[1]}] : {idx.type}")
        flat = r.op(f"affine.apply affine_map<(a, b) -> (a * {w} + b)>({ih}, {iw})")
        flat = r.cast(flat, "index", idx.dt)
        same = r.op(f"arith.cmpi eq, {iv}, {flat} : {idx.dt}")
        hit = r.op(f"arith.andi {valid}, {same} : i1")
        return [r.add(o[0], r.select(hit, gv, r.scalar(0, dt), dt), dt)]
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(win, ["d4", "d5"])], [(init, ["d0", "d1", "d2", "d3"])], body)[0]


def _avg_pool_supported(x_shape, out_shape, k, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    if divisor_override is not None:
        return False
    if any(padding) and not count_include_pad:
        return False
    for i in range(2):
        floor = (x_shape[2 + i] + 2 * padding[i] - k[i]) // stride[i] + 1
        if out_shape[2 + i] != floor:
            return False  # ceil mode added a partial window
    return True


def _avg_args(node, at):
    a = node.args
    k = _ints(a[at])
    stride = _ints(a[at + 1]) if len(a) > at + 1 and a[at + 1] else k
    padding = _ints(a[at + 2]) if len(a) > at + 2 else [0, 0]
    ceil_mode = a[at + 3] if len(a) > at + 3 else False
    cip = a[at + 4] if len(a) > at + 4 else True
    div = a[at + 5] if len(a) > at + 5 else None
    return k, stride, padding, ceil_mode, cip, div


def _avg_pool(tr, x, k, stride, padding, shape, base):
    em = tr.em
    dt = x.dt
    xp = em.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0, base + "_pad")
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, shape, dt, base)
    scale = 1.0 / (k[0] * k[1])
    hexp, wexp = f"d2 * {stride[0]} + d4", f"d3 * {stride[1]} + d5"
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(xp, ["d0", "d1", hexp, wexp]), (win, ["d4", "d5"])],
                      [(init, ["d0", "d1", "d2", "d3"])],
                      lambda r, a, o: [r.add(o[0], r.mul(a[0], r.scalar(scale, dt), dt), dt)])[0]


def _avg_pool_backward(tr, g, x_shape, k, stride, padding, base):
    em = tr.em
    dt = g.dt
    n, c, h, w = x_shape
    low = [k[i] - 1 - padding[i] for i in range(2)]
    size = [h + k[0] - 1, w + k[1] - 1]
    high = [size[i] - low[i] - ((g.shape[2 + i] - 1) * stride[i] + 1) for i in range(2)]
    if min(low) < 0 or min(high) < 0:
        raise _Unsupported()
    gp = _dilate_pad(em, g, stride, low, high, base + "_gpad")
    win = em.empty(tuple(k), dt, base + "_win")
    init = em.fill(0.0, x_shape, dt, base)
    scale = 1.0 / (k[0] * k[1])
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(gp, ["d0", "d1", "d2 + d4", "d3 + d5"]), (win, ["d4", "d5"])],
                      [(init, ["d0", "d1", "d2", "d3"])],
                      lambda r, a, o: [r.add(o[0], r.mul(a[0], r.scalar(scale, dt), dt), dt)])[0]


@_handler("avg_pool2d.default")
def _h_avg_pool(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    shape, dt = metas[0]
    k, stride, padding, ceil_mode, cip, div = _avg_args(node, 1)
    if len(x.shape) != 4 or not _avg_pool_supported(x.shape, shape, k, stride, padding,
                                                     ceil_mode, cip, div):
        raise _Unsupported()
    return _avg_pool(tr, x, k, stride, padding, shape, base)


@_handler("avg_pool2d_backward.default")
def _h_avg_pool_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    k, stride, padding, ceil_mode, cip, div = _avg_args(node, 2)
    if len(x_shape) != 4 or not _avg_pool_supported(x_shape, g.shape, k, stride, padding,
                                                     ceil_mode, cip, div):
        raise _Unsupported()
    return _avg_pool_backward(tr, g, x_shape, k, stride, padding, base)


def _adaptive_window(r, o, n_in, n_out):
    """(start, end) of output index o's window along an axis of an adaptive
    pooling, as PyTorch: floor(o * I / O) and ceil((o + 1) * I / O)."""
    start = r.op(f"affine.apply affine_map<(a) -> ((a * {n_in}) floordiv {n_out})>({o})")
    end = r.op(f"affine.apply affine_map<(a) -> ((a * {n_in} + {n_in}) ceildiv {n_out})>({o})")
    return start, end


def _in_window(r, i, start, end):
    lo = r.op(f"arith.cmpi sge, {i}, {start} : index")
    hi = r.op(f"arith.cmpi slt, {i}, {end} : index")
    return r.op(f"arith.andi {lo}, {hi} : i1")


def _adaptive_any(tr, x, g, in_shape, out_shape, dt, base):
    """Adaptive average pooling of any sizes (windows that differ in size or
    overlap, an output larger than the input: AlexNet's and VGG's 6x6 or 7x7
    pool after a smaller feature map), as a masked reduction. Forward (x
    given): out[o] = sum of x over o's window / its size, dims (n, c, oh,
    ow, h, w). Backward (g given): grad[h, w] = sum over the windows holding
    (h, w) of g[o] / the window's size, dims (n, c, h, w, oh, ow)."""
    em = tr.em
    (ih, iw), (oh, ow) = in_shape[2:], out_shape[2:]
    forward = g is None
    res_shape = out_shape if forward else in_shape
    init = em.fill(0.0, res_shape, dt, base)
    ids = ["d0", "d1", "d2", "d3"]
    src = x if forward else g

    def body(r, a, o):
        if forward:
            po, qo, pi, qi = r.index(2), r.index(3), r.index(4), r.index(5)
        else:
            pi, qi, po, qo = r.index(2), r.index(3), r.index(4), r.index(5)
        h0, h1 = _adaptive_window(r, po, ih, oh)
        w0, w1 = _adaptive_window(r, qo, iw, ow)
        inside = r.op(f"arith.andi {_in_window(r, pi, h0, h1)}, {_in_window(r, qi, w0, w1)} : i1")
        count = r.op(f"arith.muli {r.op(f'arith.subi {h1}, {h0} : index')}, "
                     f"{r.op(f'arith.subi {w1}, {w0} : index')} : index")
        count = r.cast(r.cast(count, "index", "i64"), "i64", dt)
        term = r.select(inside, r.div(a[0], count, dt), r.c(0.0, dt), dt)
        return [r.add(o[0], term, dt)]
    return em.generic(base, 6, ["parallel"] * 4 + ["reduction"] * 2,
                      [(src, ["d0", "d1", "d4", "d5"])], [(init, ids)], body)[0]


@_handler("_adaptive_avg_pool2d.default")
def _h_adaptive(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    shape, dt = metas[0]
    if len(x.shape) != 4 or not _is_float(dt):
        raise _Unsupported()
    if x.shape[2] % shape[2] or x.shape[3] % shape[3]:
        return _adaptive_any(tr, x, None, x.shape, shape, dt, base)
    k = [x.shape[2] // shape[2], x.shape[3] // shape[3]]
    if k == [1, 1]:
        return x
    return _avg_pool(tr, x, k, k, [0, 0], shape, base)


@_handler("_adaptive_avg_pool2d_backward.default")
def _h_adaptive_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    x_shape = _meta(node.args[1])[0][0]
    if len(x_shape) != 4 or not _is_float(g.dt):
        raise _Unsupported()
    if x_shape[2] % g.shape[2] or x_shape[3] % g.shape[3]:
        return _adaptive_any(tr, None, g, x_shape, g.shape, g.dt, base)
    k = [x_shape[2] // g.shape[2], x_shape[3] // g.shape[3]]
    if k == [1, 1]:
        return g
    return _avg_pool_backward(tr, g, x_shape, k, k, [0, 0], base)


def _contract(tr, node, base, metas, a_node, b_node, batched, bias_node=None):
    em = tr.em
    shape, dt = metas[0]
    a, b = tr.view(a_node), tr.view(b_node)
    if not (_is_float(a.dt) and a.dt == b.dt == dt):
        raise _Unsupported()
    init = em.fill(0.0, shape, dt, base)
    res = None
    if a.plain() and b.plain():
        op = "linalg.batch_matmul" if batched else "linalg.matmul"
        name = em.fresh(base)
        res = _T(name, shape, dt)
        em.emit(f"{name} = {op} ins({a.root.name}, {b.root.name} : {a.root.type}, {b.root.type}) "
                f"outs({init.name} : {init.type}) -> {res.type}")
    else:
        res = _generic_contract(em, a, b, init, batched, base)
    if bias_node is not None:
        res = _add_bias(em, res, tr.view(bias_node), len(shape) - 1, base + "_bias")
    return res


def _generic_contract(em, a, b, init, batched, base):
    dt = init.dt
    if batched:   # (b, m, n, k)
        ae, be, oe, nd = ["d0", "d1", "d3"], ["d0", "d3", "d2"], ["d0", "d1", "d2"], 4
    else:         # (m, n, k)
        ae, be, oe, nd = ["d0", "d2"], ["d2", "d1"], ["d0", "d1"], 3
    return em.generic(base, nd, ["parallel"] * (nd - 1) + ["reduction"],
                      [(a.root, a.access(ae)), (b.root, b.access(be))], [(init, oe)],
                      lambda r, x, o: [r.add(o[0], r.mul(x[0], x[1], dt), dt)])[0]


@_handler("mm.default")
def _h_mm(tr, node, base, metas):
    return _contract(tr, node, base, metas, node.args[0], node.args[1], False)


@_handler("bmm.default")
def _h_bmm(tr, node, base, metas):
    return _contract(tr, node, base, metas, node.args[0], node.args[1], True)


@_handler("addmm.default")
def _h_addmm(tr, node, base, metas):
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        raise _Unsupported()
    return _contract(tr, node, base, metas, node.args[1], node.args[2], False,
                     bias_node=node.args[0])


@_handler("baddbmm.default")
def _h_baddbmm(tr, node, base, metas):
    """input + batch1 @ batch2 (beta = alpha = 1), the input broadcast as a
    bias: nn.MultiheadAttention's masked attention scores."""
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        raise _Unsupported()
    return _contract(tr, node, base, metas, node.args[1], node.args[2], True,
                     bias_node=node.args[0])
