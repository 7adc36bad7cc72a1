"""Handlers of indexing ops: index_select / index_add, gather / scatter
(scatter.src, scatter.value, scatter_add), stack, repeat; the clamping of
indices and the valid ranges of integer arguments.

Out-of-range indices (docs/IMPORTERS.md, "Out-of-range indices"): every
gather-like read (embedding, index_select, gather) and every scatter-like
write (embedding_dense_backward, index_add, scatter, scatter_add) clamps its
index to [0, n - 1] first (XLA's rule), so no generated code reads or writes
outside a buffer whatever the ids: a step fed out-of-range ids computes what
it computes on the clamped ids. Negative indices are clamped too, not
wrapped (PyTorch rejects them in all of these ops): -1 is row 0.

Valid ranges: an index op whose index is a step argument (through views
only: token ids, class targets) records the argument's valid range [0, n)
(`tr.ranges`, intersected over its uses); the importer writes it on the
argument as `{ckpt.range = array<i64: 0, n>}`, and ckpt-run draws the
argument there.

Part of ckpt.torch_import (see its docstring).
"""

import math

from .emit import _T, _View, _is_float, _numel
from .ops import EXECUTABLE_OPS, _Unsupported, _handler, _opname


def clamp_index(r, v, dt, n):
    """The index (an `index` SSA value) of integer scalar `v` (type dt)
    clamped to [0, n - 1]."""
    if n < 1:
        raise _Unsupported()
    v = r.op(f"arith.maxsi {v}, {r.c(0, dt)} : {dt}")
    v = r.op(f"arith.minsi {v}, {r.c(n - 1, dt)} : {dt}")
    return r.op(f"arith.index_cast {v} : {dt} to index")


def note_range(tr, idx, n):
    """Records [0, n) as the valid range of the step argument that `idx`
    (a view) reads, if it reads one: `tr.ranges[name] = (lo, hi, type)`."""
    root = idx.root if isinstance(idx, _View) else idx
    names = {a for a, _ in tr.arg_info}
    name = root.name[1:]
    if name not in names or _is_float(root.dt):
        return
    ranges = tr.__dict__.setdefault("ranges", {})
    lo, hi = 0, n
    if name in ranges:
        lo, hi = max(lo, ranges[name][0]), min(hi, ranges[name][1])
        if lo >= hi:        # uses that disagree: keep the first
            return
    ranges[name] = (lo, hi, root.type)


def _int_index(idx):
    if idx.dt not in ("i64", "i32"):
        raise _Unsupported()


def _extract(r, t, coords):
    return r.op(f"tensor.extract {t.name}[{', '.join(coords)}] : {t.type}")


def _read_along(tr, x, idx, dim, shape, dt, base, index_dims):
    """The result (shape, dt) reads x at the clamped index along dim, the
    other coordinates its own: one linalg.generic over the result with
    tensor.extract, reading idx at the result dimensions index_dims(ids)."""
    n = len(x.shape)
    note_range(tr, idx, x.shape[dim])
    ids = [f"d{i}" for i in range(n)]
    e = tr.em.empty(shape, dt, base)

    def body(r, a, o):
        j = clamp_index(r, a[0], idx.dt, x.shape[dim])
        return [_extract(r, x, [j if d == dim else r.index(d) for d in range(n)])]
    return tr.em.generic(base, n, ["parallel"] * n,
                         [(idx.root, idx.access(index_dims(ids)))], [(e, ids)], body)[0]


@_handler("index_select.default")
def _h_index_select(tr, node, base, metas):
    """x.index_select(dim, index): the result reads x at the clamped index
    along dim (a linalg.generic over the result with tensor.extract)."""
    shape, dt = metas[0]
    x = tr.mat(node.args[0], base + "_x")
    idx = tr.view(node.args[2])
    _int_index(idx)
    n = len(x.shape)
    if n == 0 or len(idx.shape) > 1 or len(shape) != n:
        raise _Unsupported()
    dim = node.args[1] % n
    return _read_along(tr, x, idx, dim, shape, dt, base,
                       lambda ids: [ids[dim]] if idx.shape else [])


@_handler("gather.default")
def _h_gather(tr, node, base, metas):
    """x.gather(dim, index): out[i] = x[i with dim -> clamp(index[i])]."""
    shape, dt = metas[0]
    if node.kwargs.get("sparse_grad") or (len(node.args) > 3 and node.args[3]):
        raise _Unsupported()
    x = tr.mat(node.args[0], base + "_x")
    idx = tr.view(node.args[2])
    _int_index(idx)
    n = len(x.shape)
    if n == 0 or idx.shape != tuple(shape) or len(shape) != n or any(
            shape[d] > x.shape[d] for d in range(n) if d != node.args[1] % n):
        raise _Unsupported()
    dim = node.args[1] % n
    return _read_along(tr, x, idx, dim, shape, dt, base, lambda ids: ids)


def _position_loop(ins, n, k):
    """(ins, loop count) of a scatter-like generic over the n result dims and
    the positions p (loop d<n>, k of them): when no operand's map names d<n>
    (a unit index dim, read through a view), linalg could not infer its
    range: with k == 1 the loop is dropped (p = 0)."""
    pd = f"d{n}"
    if any(pd in e for _, exprs in ins for e in exprs):
        return ins, n + 1
    if k != 1:
        raise _Unsupported()
    return [(t, ["0" if e == pd else e for e in exprs]) for t, exprs in ins], n


def _slice(em, t, sizes, base):
    if tuple(sizes) == t.shape:
        return t
    name = em.fresh(base)
    res = _T(name, sizes, t.dt)
    em.emit(f"{name} = tensor.extract_slice {t.name}{[0] * len(sizes)} {list(sizes)} "
            f"{[1] * len(sizes)} : {t.type} to {res.type}")
    return res


def _insert(em, src, dst, base):
    name = em.fresh(base)
    n = len(dst.shape)
    em.emit(f"{name} = tensor.insert_slice {src.name} into {dst.name}{[0] * n} "
            f"{list(src.shape)} {[1] * n} : {src.type} into {dst.type}")
    return _T(name, dst.shape, dst.dt)


@_handler("scatter.src", "scatter.value", "scatter_add.default")
def _h_scatter(tr, node, base, metas):
    """x.scatter(dim, index, src|value) / x.scatter_add(dim, index, src):
    out = x, then out[i with dim -> clamp(index[i])] = src[i] (or += src[i])
    for every i of index. Written as a reduction over the positions p along
    dim, for every result element: out[j] = the last src[j with dim -> p]
    whose clamped index[..p..] is j[dim] (x[j] if none: deterministic, the
    last writer in order wins, as PyTorch's CPU loop), or x[j] plus the sum
    of them in order (scatter_add). Where index is smaller than x in another
    dim, that box of x is scattered into and inserted back."""
    shape, dt = metas[0]
    name = _opname(node)
    if node.kwargs.get("reduce") is not None or len(node.args) > 4:
        raise _Unsupported()
    x = tr.mat(node.args[0], base + "_x")
    n = len(x.shape)
    if n == 0 or x.dt != dt:
        raise _Unsupported()
    dim = node.args[1] % n
    idx = tr.view(node.args[2])
    _int_index(idx)
    if len(idx.shape) != n or any(idx.shape[d] > x.shape[d] for d in range(n) if d != dim):
        raise _Unsupported()
    box = tuple(x.shape[d] if d == dim else idx.shape[d] for d in range(n))
    if _numel(idx.shape) == 0:
        return x
    note_range(tr, idx, x.shape[dim])
    value = None
    src = None
    if name == "scatter.value":
        value = node.args[3]
        if not isinstance(value, (int, float, bool)):
            raise _Unsupported()
    else:
        src = tr.view(node.args[3])
        if len(src.shape) != n or any(src.shape[d] < idx.shape[d] for d in range(n)):
            raise _Unsupported()
        if src.shape != idx.shape:
            src = _View(_slice(tr.em, tr.em.materialize(src, base + "_src"), idx.shape,
                               base + "_src"))
    em = tr.em
    init = _slice(em, x, box, base + "_box")
    ids = [f"d{i}" for i in range(n)]
    pos = [f"d{n}" if d == dim else ids[d] for d in range(n)]
    ins = [(idx.root, idx.access(pos))]
    if src is not None:
        ins.append((src.root, src.access(pos)))
    ins, loops = _position_loop(ins, n, idx.shape[dim])

    def body(r, a, o):
        j = clamp_index(r, a[0], idx.dt, x.shape[dim])
        hit = r.cmp("eq", j, r.index(dim), "index")
        v = r.scalar(value, dt) if src is None else r.cast(a[1], src.dt, dt)
        if name == "scatter_add.default":
            zero = r.scalar(0, dt)
            return [r.add(o[0], r.select(hit, v, zero, dt), dt)]
        return [r.select(hit, v, o[0], dt)]
    out = em.generic(base, loops, ["parallel"] * n + ["reduction"] * (loops - n), ins,
                     [(init, ids)], body)[0]
    if box != x.shape:
        out = _insert(em, out, x, base)
    return out


@_handler("index_add.default")
def _h_index_add(tr, node, base, metas):
    """x.index_add(dim, index, source, alpha=1): out[j] = x[j] + alpha * the
    sum, in order, of source[j with dim -> p] over the positions p whose
    clamped index[p] is j[dim] (a reduction over p for every result element:
    deterministic; the index_select backward)."""
    shape, dt = metas[0]
    x = tr.mat(node.args[0], base + "_x")
    n = len(x.shape)
    alpha = node.args[4] if len(node.args) > 4 else node.kwargs.get("alpha", 1)
    if n == 0 or x.dt != dt or not isinstance(alpha, (int, float)):
        raise _Unsupported()
    dim = node.args[1] % n
    idx = tr.view(node.args[2])
    _int_index(idx)
    src = tr.view(node.args[3])
    k = idx.shape[0] if idx.shape else 1
    if len(idx.shape) > 1 or len(src.shape) != n or any(
            src.shape[d] != (k if d == dim else x.shape[d]) for d in range(n)):
        raise _Unsupported()
    if k == 0:
        return x
    note_range(tr, idx, x.shape[dim])
    ids = [f"d{i}" for i in range(n)]
    pos = [f"d{n}" if d == dim else ids[d] for d in range(n)]
    ins = [(idx.root, idx.access([f"d{n}"] if idx.shape else [])),
           (src.root, src.access(pos))]
    ins, loops = _position_loop(ins, n, k)

    def body(r, a, o):
        j = clamp_index(r, a[0], idx.dt, x.shape[dim])
        hit = r.cmp("eq", j, r.index(dim), "index")
        v = r.cast(a[1], src.dt, dt)
        if alpha != 1:
            v = r.mul(v, r.scalar(alpha, dt), dt)
        return [r.add(o[0], r.select(hit, v, r.scalar(0, dt), dt), dt)]
    return tr.em.generic(base, loops, ["parallel"] * n + ["reduction"] * (loops - n), ins,
                         [(x, ids)], body)[0]


@_handler("stack.default")
def _h_stack(tr, node, base, metas):
    """torch.stack: each input reshaped with a unit dim at `dim`, then
    tensor.concat along it (the backward of unbind)."""
    shape, dt = metas[0]
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    dim %= len(shape)
    em = tr.em
    parts = []
    for i, a in enumerate(node.args[0]):
        t = tr.mat(a, f"{base}_in")
        if t.dt != dt:
            raise _Unsupported()
        unit = t.shape[:dim] + (1,) + t.shape[dim:]
        parts.append(em.reshape(t, unit, f"{base}_u{i}"))
    if len(parts) == 1:
        return parts[0]
    name = em.fresh(base)
    res = _T(name, shape, dt)
    em.emit(f"{name} = tensor.concat dim({dim}) {', '.join(p.name for p in parts)} : "
            f"({', '.join(p.type for p in parts)}) -> {res.type}")
    return res


@_handler("repeat.default")
def _h_repeat(tr, node, base, metas):
    """x.repeat(r0, r1, ...): a broadcast view [r0, .., r_i, s_i, ..] of x
    materialized (one linalg.generic) and collapsed to [.., r_i * s_i, ..]."""
    shape, dt = metas[0]
    v = tr.view(node.args[0])
    reps = list(node.args[1])
    lead = len(reps) - len(v.shape)
    if lead < 0:
        raise _Unsupported()
    if all(r == 1 for r in reps[lead:]) and lead == 0:
        return v
    vshape, dims = list(reps[:lead]), [None] * lead
    for i, s in enumerate(v.shape):
        vshape += [reps[lead + i], s]
        dims += [None, v.dims[i]]
    t = tr.em.materialize(_View(v.root, vshape, dims), base + "_b")
    return tr.em.reshape(t, shape, base)


def _one_index(tr, node, base):
    """(x, dim, idx) of advanced indexing x[..., idx, ...] with one index
    tensor (the others None, as `x[:, idx]`): x materialized, idx an
    integer view whose valid range [0, x.shape[dim]) is noted. PyTorch's
    index.Tensor and index_put with more than one index tensor are not
    translated."""
    from torch.fx import Node
    x = tr.mat(node.args[0], base + "_x")
    indices = list(node.args[1])
    given = [i for i, t in enumerate(indices) if t is not None]
    if len(given) != 1 or not isinstance(indices[given[0]], Node) or given[0] >= len(x.shape):
        raise _Unsupported()
    dim = given[0]
    idx = tr.view(indices[dim])
    _int_index(idx)
    return x, dim, idx


def _leading_indices(tr, node, base, shape, dt):
    """x[i0, i1, ..., ik-1] with k >= 2 index tensors on x's first k dims
    (broadcast together, as Hugging Face's masks index a padding mask by
    batch and key position): the result is the broadcast shape followed by
    x's other dims, and reads x at the clamped indices."""
    from torch.fx import Node
    indices = list(node.args[1])
    x = tr.mat(node.args[0], base + "_x")
    k = len(indices)
    if k < 2 or k > len(x.shape) or not all(isinstance(t, Node) for t in indices):
        raise _Unsupported()
    views = [tr.view(t) for t in indices]
    for v in views:
        _int_index(v)
    b = max(len(v.shape) for v in views)
    lead = tuple(shape[:b])
    if tuple(shape) != lead + tuple(x.shape[k:]):
        raise _Unsupported()
    for v in views:
        off = b - len(v.shape)
        if any(s not in (1, lead[off + i]) for i, s in enumerate(v.shape)):
            raise _Unsupported()
    for j, v in enumerate(views):
        note_range(tr, v, x.shape[j])
    m = len(shape)
    ids = [f"d{i}" for i in range(m)]
    ins = []
    for v in views:
        off = b - len(v.shape)
        exprs = ["0" if s == 1 and lead[off + i] != 1 else ids[off + i]
                 for i, s in enumerate(v.shape)]
        ins.append((v.root, v.access(exprs)))
    e = tr.em.empty(shape, dt, base)

    def body(r, a, o):
        coords = [clamp_index(r, a[j], views[j].dt, x.shape[j]) for j in range(k)]
        coords += [r.index(b + t) for t in range(len(x.shape) - k)]
        return [_extract(r, x, coords)]
    return tr.em.generic(base, m, ["parallel"] * m, ins, [(e, ids)], body)[0]


@_handler("index.Tensor")
def _h_index(tr, node, base, metas):
    """x[..., idx, ...] (one index tensor, at dim d): the result is x's
    shape with dim d replaced by idx's shape, and reads x at the clamped
    idx[i] along d (Swin's relative position bias table). With index
    tensors on x's first k dims instead, _leading_indices."""
    shape, dt = metas[0]
    indices = list(node.args[1])
    if sum(t is not None for t in indices) > 1:
        return _leading_indices(tr, node, base, shape, dt)
    x, dim, idx = _one_index(tr, node, base)
    n, k = len(x.shape), len(idx.shape)
    if tuple(shape) != x.shape[:dim] + idx.shape + x.shape[dim + 1:]:
        raise _Unsupported()
    note_range(tr, idx, x.shape[dim])
    m = len(shape)
    ids = [f"d{i}" for i in range(m)]
    e = tr.em.empty(shape, dt, base)

    def body(r, a, o):
        j = clamp_index(r, a[0], idx.dt, x.shape[dim])
        coords = ([r.index(d) for d in range(dim)] + [j]
                  + [r.index(d + k - 1) for d in range(dim + 1, n)])
        return [_extract(r, x, coords)]
    return tr.em.generic(base, m, ["parallel"] * m,
                         [(idx.root, idx.access(ids[dim:dim + k]))], [(e, ids)], body)[0]


@_handler("index_put.default")
def _h_index_put(tr, node, base, metas):
    """x.index_put([..., idx, ...], values, accumulate): out = x, then for
    every position p of idx, out[..., clamp(idx[p]), ...] = values[..., p,
    ...] (the last writer in order wins, as PyTorch's CPU loop) or, with
    accumulate (the backward of index.Tensor), += in order. A reduction
    over the positions for every result element."""
    shape, dt = metas[0]
    x, dim, idx = _one_index(tr, node, base)
    n, k = len(x.shape), len(idx.shape)
    values = tr.view(node.args[2])
    accumulate = node.args[3] if len(node.args) > 3 else node.kwargs.get("accumulate", False)
    if (values.shape != x.shape[:dim] + idx.shape + x.shape[dim + 1:] or x.dt != dt
            or _numel(idx.shape) == 0):
        raise _Unsupported()
    note_range(tr, idx, x.shape[dim])
    ids = [f"d{i}" for i in range(n)]
    pos = [f"d{n + i}" for i in range(k)]
    ins = [(idx.root, idx.access(pos)),
           (values.root, values.access(ids[:dim] + pos + ids[dim + 1:]))]

    def body(r, a, o):
        j = clamp_index(r, a[0], idx.dt, x.shape[dim])
        hit = r.cmp("eq", j, r.index(dim), "index")
        v = r.cast(a[1], values.dt, dt)
        if accumulate:
            return [r.add(o[0], r.select(hit, v, r.scalar(0, dt), dt), dt)]
        return [r.select(hit, v, o[0], dt)]
    if any(s == 1 for s in idx.shape):
        # a unit position dim gives a loop no operand bounds (_position_loop)
        raise _Unsupported()
    init = tr.em.materialize(_View(x), base + "_init")
    return tr.em.generic(base, n + k, ["parallel"] * n + ["reduction"] * k, ins,
                         [(init, ids)], body)[0]


@_handler("roll.default")
def _h_roll(tr, node, base, metas):
    """x.roll(shifts, dims): out[i] = x[i with each rolled dim d ->
    (i[d] - shift) mod size] (Swin's shifted windows). Without dims (a roll
    of the flattened tensor) it is not translated."""
    shape, dt = metas[0]
    x = tr.mat(node.args[0], base + "_x")
    n = len(x.shape)
    shifts = list(node.args[1]) if isinstance(node.args[1], (list, tuple)) else [node.args[1]]
    dims = node.args[2] if len(node.args) > 2 else node.kwargs.get("dims", [])
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    if not dims or len(dims) != len(shifts) or n == 0:
        raise _Unsupported()
    amount = {}
    for sh, d in zip(shifts, dims):
        d %= n
        amount[d] = (amount.get(d, 0) + sh) % x.shape[d]
    ids = [f"d{i}" for i in range(n)]
    e = tr.em.empty(shape, dt, base)

    def body(r, a, o):
        coords = []
        for d in range(n):
            i = r.index(d)
            if amount.get(d):
                back = x.shape[d] - amount[d]
                i = r.op(f"affine.apply affine_map<(a) -> ((a + {back}) mod {x.shape[d]})>({i})")
            coords.append(i)
        return [_extract(r, x, coords)]
    return tr.em.generic(base, n, ["parallel"] * n, [], [(e, ids)], body)[0]


_OPS = ["roll.default", "index_select.default", "gather.default", "scatter.src", "scatter.value",
        "scatter_add.default", "index_add.default", "stack.default", "repeat.default",
        "index.Tensor", "index_put.default"]
EXECUTABLE_OPS.extend(o for o in _OPS if o not in EXECUTABLE_OPS)
EXECUTABLE_OPS.sort()


@_handler("topk.default")
def _h_topk(tr, node, base, metas):
    """x.topk(k, dim, largest, sorted): k passes over dim, pass t picking the
    largest (smallest) element that comes after pass t-1's pick in the
    order (value descending (ascending), then index ascending): values and
    int64 indices, sorted, ties to the lower index (PyTorch leaves the
    order of ties unspecified). The backward is a scatter of the values'
    gradient at the indices (translated as such). For a small k (MoE
    routers): each pass reads the whole dim."""
    from .ops_tensor import _insert as _insert_slice   # (ops_tensor imports this module)
    (vshape, dt), (_, idt) = metas[0], metas[1]
    x = tr.mat(node.args[0], base + "_x")
    n = len(x.shape)
    a = list(node.args) + [None] * 4
    k = a[1]
    dim = (a[2] if a[2] is not None else node.kwargs.get("dim", -1)) % n
    largest = a[3] if a[3] is not None else node.kwargs.get("largest", True)
    if not _is_float(dt) or k < 1 or k > x.shape[dim] or idt != "i64":
        raise _Unsupported()
    em = tr.em
    red_shape = tuple(s for i, s in enumerate(x.shape) if i != dim)
    ids = [f"d{i}" for i in range(n)]
    out_ids = [f"d{i}" for i in range(n) if i != dim]
    iters = ["reduction" if i == dim else "parallel" for i in range(n)]
    worst = -math.inf if largest else math.inf
    picks = []
    prev = None
    for t in range(k):
        vals = em.fill(worst, red_shape, dt, f"{base}_v{t}")
        idx = em.fill(-1, red_shape, "i64", f"{base}_i{t}")
        ins = [(x, ids)] + ([] if prev is None else [(prev[0], out_ids), (prev[1], out_ids)])

        def body(r, a_, o, first=prev is None):
            v, j = a_[0], r.cast(r.index(dim), "index", "i64")
            better = r.cmp("gt" if largest else "lt", v, o[0], dt)
            tie = r.mul(r.cmp("eq", v, o[0], dt), r.cmp("eq", o[1], r.c(-1, "i64"), "i64"), "i1")
            take = r.add(better, tie, "i1")
            if not first:
                after = r.cmp("lt" if largest else "gt", v, a_[1], dt)
                same = r.mul(r.cmp("eq", v, a_[1], dt), r.cmp("gt", j, a_[2], "i64"), "i1")
                take = r.mul(take, r.add(after, same, "i1"), "i1")
            return [r.select(take, v, o[0], dt), r.select(take, j, o[1], "i64")]
        prev = em.generic(f"{base}_k{t}", n, iters, ins, [(vals, out_ids), (idx, out_ids)], body)
        picks.append(prev)
    # stack the k picks along dim
    full_v = em.empty(tuple(vshape), dt, base + "_values")
    full_i = em.empty(tuple(vshape), "i64", base + "_indices")
    for t, (v, i) in enumerate(picks):
        offs = [0] * n
        offs[dim] = t
        sizes = list(vshape)
        sizes[dim] = 1
        v4 = em.reshape(v, tuple(sizes), f"{base}_v{t}r")
        i4 = em.reshape(i, tuple(sizes), f"{base}_i{t}r")
        full_v = _insert_slice(em, v4, full_v, offs, sizes, [1] * n, f"{base}_values")
        full_i = _insert_slice(em, i4, full_i, offs, sizes, [1] * n, f"{base}_indices")
    return (full_v, full_i)


EXECUTABLE_OPS.extend(o for o in ["topk.default"] if o not in EXECUTABLE_OPS)
EXECUTABLE_OPS.sort()
