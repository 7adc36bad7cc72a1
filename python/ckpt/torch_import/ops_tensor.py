"""Handlers of tensor ops: ranges, triangular masks, embeddings, dropout masks
(Philox), concatenation, slicing and selecting (and their backward and
scatter forms), strided views, splitting, constant padding, creation.

Part of ckpt.torch_import (see its docstring).
"""

import math

from .trace import _is_view
from .emit import _T, _is_float, _numel
from .ops import _Unsupported, _handler, _opname
from .ops_index import clamp_index, note_range


@_handler("arange.default", "arange.start", "arange.start_step")
def _h_arange(tr, node, base, metas):
    """start + step * i, computed in the result type."""
    shape, dt = metas[0]
    args = list(node.args)
    if _opname(node) == "arange.default":
        start, step = 0, 1
    else:
        start = args[0]
        step = args[2] if len(args) > 2 else node.kwargs.get("step", 1)
    if not all(isinstance(v, (int, float)) for v in (start, step)):
        raise _Unsupported()
    if not _is_float(dt) and not all(isinstance(v, int) for v in (start, step)):
        raise _Unsupported()
    em = tr.em
    e = em.empty(shape, dt, base)

    def body(r, a, o):
        i = r.cast(r.cast(r.index(0), "index", "i64"), "i64", dt)
        return [r.add(r.scalar(start, dt), r.mul(r.scalar(step, dt), i, dt), dt)]
    return em.generic(base, 1, ["parallel"], [], [(e, ["d0"])], body)[0]


@_handler("triu.default", "tril.default")
def _h_triangle(tr, node, base, metas):
    """x where column - row >= diagonal (triu) or <= diagonal (tril), over
    the last two dims; zero (false) elsewhere: causal masks."""
    shape, dt = metas[0]
    n = len(shape)
    diagonal = node.args[1] if len(node.args) > 1 else node.kwargs.get("diagonal", 0)
    if n < 2 or not isinstance(diagonal, int):
        raise _Unsupported()
    upper = _opname(node) == "triu.default"
    x = tr.view(node.args[0])
    em = tr.em
    ids = [f"d{i}" for i in range(n)]
    e = em.empty(shape, dt, base)

    def body(r, a, o):
        off = r.op(f"arith.subi {r.index(n - 1)}, {r.index(n - 2)} : index")
        keep = r.cmp("ge" if upper else "le", off, r.c(diagonal, "index"), "index")
        return [r.select(keep, a[0], r.scalar(0, dt), dt)]
    return em.generic(base, n, ["parallel"] * n, [(x.root, x.access(ids))], [(e, ids)],
                      body)[0]


@_handler("embedding.default")
def _h_embedding(tr, node, base, metas):
    """weight[indices[...], :]: a gather, as a linalg.generic over the
    result that reads its row with tensor.extract, the index clamped to
    [0, num_embeddings - 1] (ops_index: out-of-range indices)."""
    shape, dt = metas[0]
    if any(bool(v) for v in node.args[3:]):   # scale_grad_by_freq, sparse
        raise _Unsupported()
    em = tr.em
    w = em.materialize(tr.view(node.args[0]))
    idx = tr.view(node.args[1])
    if len(w.shape) != 2 or idx.dt not in ("i64", "i32") or w.dt != dt:
        raise _Unsupported()
    n = len(shape)
    ids = [f"d{i}" for i in range(n)]
    e = em.empty(shape, dt, base)

    note_range(tr, idx, w.shape[0])

    def body(r, a, o):
        row = clamp_index(r, a[0], idx.dt, w.shape[0])
        return [r.op(f"tensor.extract {w.name}[{row}, {r.index(n - 1)}] : {w.type}")]
    return em.generic(base, n, ["parallel"] * n, [(idx.root, idx.access(ids[:-1]))],
                      [(e, ids)], body)[0]


@_handler("embedding_dense_backward.default")
def _h_embedding_backward(tr, node, base, metas):
    """The gradient of the weight: grad[v, d] = sum over the positions p with
    indices[p] == v (and v != padding_idx) of grad_output[p, d]. A scatter-add
    written as a reduction over the positions, for every row v: deterministic
    (positions summed in order), but its iteration space is vocabulary x
    width x positions, which the cost model counts as such. indices[p] is
    clamped to [0, vocabulary - 1] first, as the forward reads it."""
    shape, dt = metas[0]
    g, idx = tr.view(node.args[0]), tr.view(node.args[1])
    padding, by_freq = node.args[3], node.args[4]
    if by_freq or len(shape) != 2 or idx.dt not in ("i64", "i32") or not _is_float(dt):
        raise _Unsupported()
    em = tr.em
    # One reduction dim per position dim of size > 1 (a unit dim, as of
    # position ids [1, S] viewed from arange(S), reads index 0 and gives no
    # loop dim: its loop's range could not be taken from any operand).
    pos = ["0"] * len(idx.shape)
    k = 0
    for i, size in enumerate(idx.shape):
        if size != 1:
            pos[i] = f"d{2 + k}"
            k += 1
    init = em.fill(0.0, shape, dt, base)

    note_range(tr, idx, shape[0])

    def body(r, a, o):
        v = r.cast(r.index(0), "index", idx.dt)
        row = r.op(f"arith.minsi {r.op(f'arith.maxsi {a[0]}, {r.c(0, idx.dt)} : {idx.dt}')}, "
                   f"{r.c(shape[0] - 1, idx.dt)} : {idx.dt}")
        hit = r.cmp("eq", row, v, idx.dt)
        if padding is not None and padding >= 0:
            hit = r.mul(hit, r.cmp("ne", v, r.scalar(padding, idx.dt), idx.dt), "i1")
        return [r.add(o[0], r.select(hit, r.cast(a[1], g.dt, dt), r.scalar(0.0, dt), dt), dt)]
    return em.generic(base, 2 + k, ["parallel", "parallel"] + ["reduction"] * k,
                      [(idx.root, idx.access(pos)), (g.root, g.access(pos + ["d1"]))],
                      [(init, ["d0", "d1"])], body)[0]


# Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
# SC 2011): the multipliers and the Weyl key increments.
_PHILOX_M = (0xD2511F53, 0xCD9E8D57)
_PHILOX_W = (0x9E3779B9, 0xBB67AE85)


def _philox(r, counter, key):
    """Philox4x32-10 of four i32 counter words and two i32 key words (SSA
    names); returns the four i32 output words."""
    c0, c1, c2, c3 = counter
    k0, k1 = key
    i64 = "i64"

    def mulhilo(m, x):
        p = r.op(f"arith.muli {r.c(m, i64)}, {r.op(f'arith.extui {x} : i32 to i64')} : i64")
        hi = r.op(f"arith.trunci {r.op(f'arith.shrui {p}, {r.c(32, i64)} : i64')} : i64 to i32")
        return hi, r.op(f"arith.trunci {p} : i64 to i32")

    def xor(a, b):
        return r.op(f"arith.xori {a}, {b} : i32")

    for rnd in range(10):
        if rnd:
            k0 = r.op(f"arith.addi {k0}, {r.c(_PHILOX_W[0] - (1 << 32), 'i32')} : i32")
            k1 = r.op(f"arith.addi {k1}, {r.c(_PHILOX_W[1] - (1 << 32), 'i32')} : i32")
        hi0, lo0 = mulhilo(_PHILOX_M[0], c0)
        hi1, lo1 = mulhilo(_PHILOX_M[1], c2)
        c0, c1, c2, c3 = xor(xor(hi1, c1), k0), lo1, xor(xor(hi0, c3), k1), lo0
    return c0, c1, c2, c3


@_handler("bernoulli.float", "bernoulli.p")
def _h_bernoulli(tr, node, base, metas):
    """A dropout mask: 1 with probability p, else 0, drawn for element i of
    the n-th mask of the step as the first word of Philox4x32-10 with counter
    (i mod 2^32, i div 2^32, n, 0) and key (seed mod 2^32, seed div 2^32),
    the seed being the step's %seed argument: 1 when its top 24 bits, as a
    fraction of 2^24, are below p. A pure function of (seed, n, i), so a
    recomputed mask is the first one."""
    shape, dt = metas[0]
    p = node.args[1] if len(node.args) > 1 else node.kwargs.get("p", 0.5)
    if not isinstance(p, (int, float)) or node.kwargs.get("generator") is not None:
        raise _Unsupported()
    em = tr.em
    seed = tr.seed_arg()
    mask_id = tr.dropouts
    tr.dropouts += 1
    n = len(shape)
    ids = [f"d{i}" for i in range(n)]
    e = em.empty(shape, dt, base)
    # Keep when the 24-bit draw u satisfies u < p * 2^24 (exact for f32 draws).
    threshold = min(max(int(math.ceil(float(p) * (1 << 24))), 0), 1 << 24)

    def body(r, a, o):
        linear = r.c(0, "index")
        stride = 1
        for d in reversed(range(n)):
            term = r.op(f"arith.muli {r.index(d)}, {r.c(stride, 'index')} : index")
            linear = r.op(f"arith.addi {linear}, {term} : index")
            stride *= shape[d]
        i = r.op(f"arith.index_cast {linear} : index to i64")
        c32 = r.c(32, "i64")

        def split(v):   # (low, high) 32-bit words of an i64
            top = r.op(f"arith.shrui {v}, {c32} : i64")
            return (r.op(f"arith.trunci {v} : i64 to i32"),
                    r.op(f"arith.trunci {top} : i64 to i32"))
        lo, hi = split(i)
        k0, k1 = split(a[0])
        out = _philox(r, (lo, hi, r.c(mask_id, "i32"), r.c(0, "i32")), (k0, k1))
        u = r.op(f"arith.shrui {out[0]}, {r.c(8, 'i32')} : i32")
        keep = r.op(f"arith.cmpi ult, {u}, {r.c(threshold, 'i32')} : i32")
        return [r.select(keep, r.scalar(1, dt), r.scalar(0, dt), dt)]
    return em.generic(base, n, ["parallel"] * n, [(seed, [])], [(e, ids)], body)[0]


@_handler("cat.default")
def _h_cat(tr, node, base, metas):
    em = tr.em
    shape, dt = metas[0]
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    dim %= len(shape)
    parts = [tr.mat(a, base + "_in") for a in node.args[0]]
    parts = [p for p in parts if len(p.shape) == len(shape) and p.shape[dim] > 0]
    if any(p.dt != dt for p in parts):
        raise _Unsupported()
    if len(parts) == 1:
        return parts[0]
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.concat dim({dim}) {', '.join(p.name for p in parts)} : "
            f"({', '.join(p.type for p in parts)}) -> {res.type}")
    return res


def _slice_range(size, start, end, step):
    start = 0 if start is None else start
    end = size if end is None else end
    if start < 0:
        start += size
    if end < 0:
        end += size
    start = min(max(start, 0), size)
    end = min(max(end, start), size)
    return start, end, step


@_handler("slice.Tensor")
def _h_slice(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    a = list(node.args) + [None] * 5
    dim = (a[1] if a[1] is not None else 0) % len(x.shape)
    start, end, step = _slice_range(x.shape[dim], a[2], a[3], a[4] if a[4] is not None else 1)
    shape, dt = metas[0]
    if shape == x.shape:
        return x
    offs = [0] * len(shape)
    strides = [1] * len(shape)
    offs[dim], strides[dim] = start, step
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {list(shape)} {strides} : "
            f"{x.type} to {res.type}")
    return res


@_handler("select.int")
def _h_select(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    dim = node.args[1] % len(x.shape)
    index = node.args[2] % x.shape[dim]
    shape, dt = metas[0]
    offs = [0] * len(x.shape)
    sizes = list(x.shape)
    offs[dim], sizes[dim] = index, 1
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {sizes} {[1] * len(sizes)} : "
            f"{x.type} to {res.type}")
    return res


def _insert(em, src, dst, offs, sizes, strides, base):
    name = em.fresh(base)
    res = _T(name, dst.shape, dst.dt)
    em.emit(f"{name} = tensor.insert_slice {src.name} into {dst.name}{offs} {sizes} {strides} : "
            f"{src.type} into {dst.type}")
    return res


@_handler("slice_backward.default")
def _h_slice_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    sizes, dim, start, end, step = node.args[1:6]
    shape, dt = metas[0]
    dim %= len(shape)
    start, end, step = _slice_range(shape[dim], start, end, step)
    z = tr.em.fill(0.0 if _is_float(dt) else 0, shape, dt, base)
    offs, strides = [0] * len(shape), [1] * len(shape)
    offs[dim], strides[dim] = start, step
    return _insert(tr.em, g, z, offs, list(g.shape), strides, base)


@_handler("select_backward.default")
def _h_select_backward(tr, node, base, metas):
    g = tr.mat(node.args[0], base + "_g")
    sizes, dim, index = node.args[1:4]
    shape, dt = metas[0]
    dim %= len(shape)
    z = tr.em.fill(0.0 if _is_float(dt) else 0, shape, dt, base)
    offs, sz = [0] * len(shape), list(shape)
    offs[dim], sz[dim] = index % shape[dim], 1
    return _insert(tr.em, g, z, offs, sz, [1] * len(shape), base)


@_handler("slice_scatter.default")
def _h_slice_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    a = list(node.args) + [None] * 6
    dim = (a[2] if a[2] is not None else 0) % len(x.shape)
    start, end, step = _slice_range(x.shape[dim], a[3], a[4], a[5] if a[5] is not None else 1)
    offs, strides = [0] * len(x.shape), [1] * len(x.shape)
    offs[dim], strides[dim] = start, step
    return _insert(tr.em, src, x, offs, list(src.shape), strides, base)


@_handler("select_scatter.default")
def _h_select_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    dim = node.args[2] % len(x.shape)
    offs, sz = [0] * len(x.shape), list(x.shape)
    offs[dim], sz[dim] = node.args[3] % x.shape[dim], 1
    return _insert(tr.em, src, x, offs, sz, [1] * len(x.shape), base)


def _strided_box(node, base_shape, size, stride, offset):
    """The box (offsets, steps) of base_shape that as_strided(size, stride,
    offset) selects when the input is a contiguous tensor of its own storage
    (a fresh result, not a view), or None."""
    src = node.args[0]
    val = getattr(src, "meta", {}).get("val")
    if _is_view(src) or src.op != "call_function":
        return None
    if val is not None and (val.storage_offset() != 0 or not val.is_contiguous()):
        return None
    n = len(base_shape)
    if len(size) != n:
        return None
    cstride = [_numel(base_shape[i + 1:]) for i in range(n)]
    offs, steps, rest = [], [], offset
    for i in range(n):
        offs.append(rest // cstride[i])
        rest %= cstride[i]
        if size[i] == 1:
            steps.append(1)
        elif stride[i] % cstride[i] == 0 and stride[i] > 0:
            steps.append(stride[i] // cstride[i])
        else:
            return None
        if offs[i] + (size[i] - 1) * steps[i] >= base_shape[i]:
            return None
    return offs, steps


@_handler("as_strided.default")
def _h_as_strided(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    size, stride = list(node.args[1]), list(node.args[2])
    offset = node.args[3] if len(node.args) > 3 and node.args[3] is not None else 0
    box = _strided_box(node, x.shape, size, stride, offset)
    if box is None:
        raise _Unsupported()
    offs, steps = box
    shape, dt = metas[0]
    name = tr.em.fresh(base)
    res = _T(name, shape, dt)
    tr.em.emit(f"{name} = tensor.extract_slice {x.name}{offs} {size} {steps} : "
               f"{x.type} to {res.type}")
    return res


@_handler("as_strided_scatter.default")
def _h_as_strided_scatter(tr, node, base, metas):
    x = tr.mat(node.args[0], base + "_x")
    src = tr.mat(node.args[1], base + "_src")
    size, stride = list(node.args[2]), list(node.args[3])
    offset = node.args[4] if len(node.args) > 4 and node.args[4] is not None else 0
    box = _strided_box(node, x.shape, size, stride, offset)
    if box is None or tuple(size) != src.shape:
        raise _Unsupported()
    offs, steps = box
    return _insert(tr.em, src, x, offs, size, steps, base)


@_handler("split.Tensor", "split_with_sizes.default", "unbind.int", "unsafe_split.Tensor",
          "unsafe_split_with_sizes.default")
def _h_split(tr, node, base, metas):
    em = tr.em
    x = tr.mat(node.args[0], base + "_x")
    name = _opname(node)
    dim = (node.args[2] if len(node.args) > 2 else node.kwargs.get("dim", 0)) \
        if name != "unbind.int" else (node.args[1] if len(node.args) > 1 else 0)
    dim %= len(x.shape)
    out = []
    start = 0
    for k, (shape, dt) in enumerate(metas):
        offs, sizes = [0] * len(x.shape), list(x.shape)
        if name == "unbind.int":
            offs[dim], sizes[dim] = k, 1
        else:
            offs[dim], sizes[dim] = start, shape[dim]
            start += shape[dim]
        r = em.fresh(f"{base}_{k}")
        res = _T(r, shape, dt)
        em.emit(f"{r} = tensor.extract_slice {x.name}{offs} {sizes} {[1] * len(sizes)} : "
                f"{x.type} to {res.type}")
        out.append(res)
    return tuple(out)


@_handler("constant_pad_nd.default")
def _h_constant_pad(tr, node, base, metas):
    """F.pad with a constant: pads (last dim first, low then high) may be
    negative, which crops (Swin and MaxViT undo their window padding so):
    the crop first, as a slice, then the padding."""
    x = tr.mat(node.args[0], base + "_x")
    pads = list(node.args[1])
    value = node.args[2] if len(node.args) > 2 else 0
    n = len(x.shape)
    if len(pads) % 2 or len(pads) > 2 * n:
        raise _Unsupported()
    low, high = [0] * n, [0] * n
    for i in range(len(pads) // 2):
        low[n - 1 - i], high[n - 1 - i] = pads[2 * i], pads[2 * i + 1]
    if any(lo < 0 or hi < 0 for lo, hi in zip(low, high)):
        start = [max(0, -lo) for lo in low]
        sizes = [x.shape[d] - start[d] - max(0, -high[d]) for d in range(n)]
        if min(sizes) < 0:
            raise _Unsupported()
        name = tr.em.fresh(base + "_crop")
        crop = _T(name, sizes, x.dt)
        tr.em.emit(f"{name} = tensor.extract_slice {x.name}{start} {sizes} {[1] * n} : "
                   f"{x.type} to {crop.type}")
        x = crop
        low, high = [max(0, v) for v in low], [max(0, v) for v in high]
    return tr.em.pad(x, low, high, value, base)


def _creation(value_of):
    def handler(tr, node, base, metas):
        shape, dt = metas[0]
        v = value_of(node)
        if _is_float(dt):
            v = float(v)
        elif dt == "i1":
            v = bool(v)
        else:
            v = int(v)
        return tr.em.fill(v, shape, dt, base)
    return handler


for _n, _f in (("ones_like.default", lambda n: 1), ("zeros_like.default", lambda n: 0),
               ("empty_like.default", lambda n: 0), ("new_zeros.default", lambda n: 0),
               ("new_ones.default", lambda n: 1), ("new_empty.default", lambda n: 0),
               ("new_empty_strided.default", lambda n: 0),
               ("zeros.default", lambda n: 0), ("ones.default", lambda n: 1),
               ("empty.memory_format", lambda n: 0),
               ("full_like.default", lambda n: n.args[1]),
               ("new_full.default", lambda n: n.args[2]),
               ("full.default", lambda n: n.args[1]),
               ("scalar_tensor.default", lambda n: n.args[0]),
               ("fill.Scalar", lambda n: n.args[1])):
    _handler(_n)(_creation(_f))
