"""The op table: elementwise ops, views, reductions, and the handler registry.

Part of ckpt.torch_import (see its docstring).
"""

import operator

from .emit import _is_float, _mlir_dtype


# ---------------------------------------------------------------------------
# The op table.

def _ints(v, n=2):
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) == 1:
        return v * n
    return v


def _meta(node):
    """[(shape, dtype)] of the node's results (None for a result that is not
    a tensor, e.g. an output a convolution_backward mask leaves out)."""
    m = node.meta.get("tensor_meta")
    if m is None:
        return _meta_multi(node)
    if not hasattr(m, "shape"):
        return [None if x is None else (_static(node, x.shape), _mlir_dtype(x.dtype))
                for x in m]
    return [(_static(node, m.shape), _mlir_dtype(m.dtype))]


def _static(node, shape):
    for d in shape:
        if not isinstance(d, int):
            raise ValueError(f"node {node.name} ({node.target}) has a dynamic shape "
                             f"{list(shape)}: only static shapes are supported")
    return tuple(int(d) for d in shape)


def _meta_multi(node):
    """Shapes of a node with several results (make_fx records them on the
    getitem users only): the op evaluated on meta tensors, else the users."""
    import torch
    from torch.fx import Node

    def to_meta(a):
        if isinstance(a, Node):
            m = a.meta.get("tensor_meta")
            if m is None or not hasattr(m, "shape"):
                raise KeyError(a.name)
            return torch.empty(tuple(m.shape), dtype=m.dtype, device="meta")
        if isinstance(a, (list, tuple)):
            return type(a)(to_meta(x) for x in a)
        return a
    try:
        out = node.target(*to_meta(node.args), **{k: to_meta(v) for k, v in node.kwargs.items()})
        if isinstance(out, torch.Tensor):
            return [(_static(node, out.shape), _mlir_dtype(out.dtype))]
        return [None if not isinstance(o, torch.Tensor) else
                (_static(node, o.shape), _mlir_dtype(o.dtype)) for o in out]
    except Exception:  # noqa: BLE001 - fall back to the users' shapes
        pass
    found = {}
    for user in node.users:
        if user.target is operator.getitem and user.meta.get("tensor_meta") is not None:
            m = user.meta["tensor_meta"]
            found[user.args[1]] = (_static(user, m.shape), _mlir_dtype(m.dtype))
    if not found:
        raise ValueError(f"node {node.name} ({node.target}) has no shape information")
    return [found.get(i) for i in range(max(found) + 1)]


def _opname(node):
    t = node.target
    name = getattr(t, "__name__", str(t))  # e.g. "add.Tensor"
    return name


class _Unsupported(Exception):
    """This op (with these arguments) has no executable lowering here."""


_ELEMENTWISE = {}    # op name -> (body, cmp)
_HANDLERS = {}       # op name -> handler(translator, node, base name, metas)


def _register(table, name, fn, entry, replaces):
    """table[name] = entry: the op `name` gets `fn`. One registration per
    op: a second raises, unless it names the function it replaces
    (`replaces`, which must be the one registered now), so that an override
    is declared where it is made and a change of import order is caught at
    import time."""
    old = table.get(name)
    old = old[0] if isinstance(old, tuple) else old
    if replaces is None and old is not None:
        raise RuntimeError(f"{fn.__module__}.{fn.__qualname__}: {name} has a handler "
                           f"already ({old.__module__}.{old.__qualname__}); pass "
                           f"replaces=<it> to replace it")
    if replaces is not None and old is not replaces:
        now = "none" if old is None else f"{old.__module__}.{old.__qualname__}"
        raise RuntimeError(f"{fn.__module__}.{fn.__qualname__}: replaces "
                           f"{replaces.__module__}.{replaces.__qualname__} for {name}, "
                           f"but the handler registered is {now}")
    table[name] = entry


def _handler(*names, replaces=None):
    """Registers the decorated function as the handler of the ATen ops
    `names`; `replaces`: the handler it replaces (see _register)."""
    def deco(fn):
        for n in names:
            _register(_HANDLERS, n, fn, fn, replaces)
        return fn
    return deco


def _ew(*names, cmp=False, replaces=None):
    """Registers the decorated function as the elementwise body of the ATen
    ops `names`; `replaces`: the body it replaces (see _register)."""
    def deco(fn):
        for n in names:
            _register(_ELEMENTWISE, n, fn, (fn, cmp), replaces)
        return fn
    return deco


# Elementwise bodies: fn(region, scalars as (name, dtype) or numbers, compute dt, kwargs)
def _sc(r, v, dt):
    return r.scalar(v, dt)


@_ew("add.Tensor", "add.Scalar")
def _ew_add(r, a, dt, kw):
    b = _sc(r, a[1], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        b = r.mul(b, r.scalar(alpha, dt), dt)
    return r.add(_sc(r, a[0], dt), b, dt)


@_ew("sub.Tensor", "sub.Scalar")
def _ew_sub(r, a, dt, kw):
    b = _sc(r, a[1], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        b = r.mul(b, r.scalar(alpha, dt), dt)
    return r.sub(_sc(r, a[0], dt), b, dt)


@_ew("rsub.Scalar", "rsub.Tensor")
def _ew_rsub(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    alpha = kw.get("alpha", 1)
    if alpha != 1:
        x = r.mul(x, r.scalar(alpha, dt), dt)
    return r.sub(_sc(r, a[1], dt), x, dt)


@_ew("mul.Tensor", "mul.Scalar")
def _ew_mul(r, a, dt, kw):
    return r.mul(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("div.Tensor", "div.Scalar")
def _ew_div(r, a, dt, kw):
    if kw.get("rounding_mode") is not None or not _is_float(dt):
        raise _Unsupported()
    return r.div(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("neg.default")
def _ew_neg(r, a, dt, kw):
    return r.neg(_sc(r, a[0], dt), dt)


@_ew("relu.default", "relu_.default")
def _ew_relu(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), r.scalar(0, dt), dt)


@_ew("threshold_backward.default")
def _ew_threshold_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    c = r.cmp("le", x, r.scalar(a[2], dt), dt)
    return r.select(c, r.scalar(0, dt), g, dt)


@_ew("threshold.default")
def _ew_threshold(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    c = r.cmp("le", x, r.scalar(a[1], dt), dt)
    return r.select(c, r.scalar(a[2], dt), x, dt)


@_ew("where.self", "where.ScalarSelf", "where.ScalarOther", "where.Scalar")
def _ew_where(r, a, dt, kw):
    c = _sc(r, a[0], "i1")
    return r.select(c, _sc(r, a[1], dt), _sc(r, a[2], dt), dt)


@_ew("masked_fill.Scalar", "masked_fill.Tensor")
def _ew_masked_fill(r, a, dt, kw):
    return r.select(_sc(r, a[1], "i1"), _sc(r, a[2], dt), _sc(r, a[0], dt), dt)


def _unary_math(fn):
    def body(r, a, dt, kw):
        if not _is_float(dt):
            raise _Unsupported()
        return r.math(fn, _sc(r, a[0], dt), dt)
    return body


for _n, _f in (("exp", "exp"), ("log", "log"), ("tanh", "tanh"), ("sqrt", "sqrt"),
               ("rsqrt", "rsqrt"), ("erf", "erf"), ("sin", "sin"), ("cos", "cos"),
               ("floor", "floor"), ("ceil", "ceil"), ("log1p", "log1p"),
               ("expm1", "expm1"), ("log2", "log2"), ("exp2", "exp2")):
    _ew(f"{_n}.default")(_unary_math(_f))


@_ew("abs.default")
def _ew_abs(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    if _is_float(dt):
        return r.math("absf", x, dt)
    if dt == "i1":
        return x
    return r.math("absi", x, dt)


@_ew("sigmoid.default")
def _ew_sigmoid(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    e = r.math("exp", r.neg(x, dt), dt)
    return r.div(r.scalar(1, dt), r.add(r.scalar(1, dt), e, dt), dt)


@_ew("sigmoid_backward.default")
def _ew_sigmoid_backward(r, a, dt, kw):
    g, y = _sc(r, a[0], dt), _sc(r, a[1], dt)
    return r.mul(g, r.mul(y, r.sub(r.scalar(1, dt), y, dt), dt), dt)


@_ew("tanh_backward.default")
def _ew_tanh_backward(r, a, dt, kw):
    g, y = _sc(r, a[0], dt), _sc(r, a[1], dt)
    return r.mul(g, r.sub(r.scalar(1, dt), r.mul(y, y, dt), dt), dt)


_SQRT1_2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327


@_ew("gelu.default")
def _ew_gelu(r, a, dt, kw):
    if kw.get("approximate", "none") != "none":
        raise _Unsupported()
    x = _sc(r, a[0], dt)
    cdf = r.mul(r.scalar(0.5, dt), r.add(r.scalar(1, dt),
                r.math("erf", r.mul(x, r.scalar(_SQRT1_2, dt), dt), dt), dt), dt)
    return r.mul(x, cdf, dt)


@_ew("gelu_backward.default")
def _ew_gelu_backward(r, a, dt, kw):
    if kw.get("approximate", "none") != "none":
        raise _Unsupported()
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    cdf = r.mul(r.scalar(0.5, dt), r.add(r.scalar(1, dt),
                r.math("erf", r.mul(x, r.scalar(_SQRT1_2, dt), dt), dt), dt), dt)
    pdf = r.mul(r.scalar(_INV_SQRT_2PI, dt),
                r.math("exp", r.mul(r.scalar(-0.5, dt), r.mul(x, x, dt), dt), dt), dt)
    return r.mul(g, r.add(cdf, r.mul(x, pdf, dt), dt), dt)


@_ew("silu.default")
def _ew_silu(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    s = r.div(r.scalar(1, dt), r.add(r.scalar(1, dt), r.math("exp", r.neg(x, dt), dt), dt), dt)
    return r.mul(x, s, dt)


@_ew("silu_backward.default")
def _ew_silu_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    one = r.scalar(1, dt)
    s = r.div(one, r.add(one, r.math("exp", r.neg(x, dt), dt), dt), dt)
    return r.mul(g, r.mul(s, r.add(one, r.mul(x, r.sub(one, s, dt), dt), dt), dt), dt)


@_ew("pow.Tensor_Scalar")
def _ew_pow(r, a, dt, kw):
    if not _is_float(dt):
        raise _Unsupported()
    x, e = _sc(r, a[0], dt), a[1]
    if e == 1:
        return r.op(f"arith.addf {x}, {r.scalar(0, dt)} : {dt}")
    if e == 2:
        return r.mul(x, x, dt)
    if e == 3:
        return r.mul(r.mul(x, x, dt), x, dt)
    if e == 0.5:
        return r.math("sqrt", x, dt)
    if e == -0.5:
        return r.math("rsqrt", x, dt)
    if e == -1:
        return r.div(r.scalar(1, dt), x, dt)
    return r.op(f"math.powf {x}, {r.scalar(e, dt)} : {dt}")


@_ew("pow.Tensor_Tensor")
def _ew_pow_tt(r, a, dt, kw):
    if not _is_float(dt):
        raise _Unsupported()
    return r.op(f"math.powf {_sc(r, a[0], dt)}, {_sc(r, a[1], dt)} : {dt}")


@_ew("reciprocal.default")
def _ew_reciprocal(r, a, dt, kw):
    return r.div(r.scalar(1, dt), _sc(r, a[0], dt), dt)


@_ew("clamp_min.default", "clamp_min.Tensor")
def _ew_clamp_min(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("clamp_max.default", "clamp_max.Tensor")
def _ew_clamp_max(r, a, dt, kw):
    return r.min(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("clamp.default", "clamp.Tensor")
def _ew_clamp(r, a, dt, kw):
    x = _sc(r, a[0], dt)
    lo = a[1] if len(a) > 1 else kw.get("min")
    hi = a[2] if len(a) > 2 else kw.get("max")
    if lo is not None:
        x = r.max(x, _sc(r, lo, dt), dt)
    if hi is not None:
        x = r.min(x, _sc(r, hi, dt), dt)
    return x


@_ew("hardtanh.default")
def _ew_hardtanh(r, a, dt, kw):
    lo = a[1] if len(a) > 1 else kw.get("min_val", -1.0)
    hi = a[2] if len(a) > 2 else kw.get("max_val", 1.0)
    return r.min(r.max(_sc(r, a[0], dt), r.scalar(lo, dt), dt), r.scalar(hi, dt), dt)


@_ew("hardtanh_backward.default")
def _ew_hardtanh_backward(r, a, dt, kw):
    g, x = _sc(r, a[0], dt), _sc(r, a[1], dt)
    out = r.op(f"arith.ori {r.cmp('le', x, r.scalar(a[2], dt), dt)}, "
               f"{r.cmp('ge', x, r.scalar(a[3], dt), dt)} : i1")
    return r.select(out, r.scalar(0, dt), g, dt)


@_ew("maximum.default")
def _ew_maximum(r, a, dt, kw):
    return r.max(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


@_ew("minimum.default")
def _ew_minimum(r, a, dt, kw):
    return r.min(_sc(r, a[0], dt), _sc(r, a[1], dt), dt)


def _cmp_body(pred):
    def body(r, a, dt, kw):
        return r.cmp(pred, _sc(r, a[0], dt), _sc(r, a[1], dt), dt)
    return body


for _p in ("eq", "ne", "lt", "le", "gt", "ge"):
    _ew(f"{_p}.Tensor", f"{_p}.Scalar", cmp=True)(_cmp_body(_p))


@_ew("logical_not.default", "bitwise_not.default")
def _ew_not(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.xori {_sc(r, a[0], 'i1')}, {r.scalar(True, 'i1')} : i1")


@_ew("logical_and.default", "bitwise_and.Tensor")
def _ew_and(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.andi {_sc(r, a[0], 'i1')}, {_sc(r, a[1], 'i1')} : i1")


@_ew("logical_or.default", "bitwise_or.Tensor")
def _ew_or(r, a, dt, kw):
    if dt != "i1":
        raise _Unsupported()
    return r.op(f"arith.ori {_sc(r, a[0], 'i1')}, {_sc(r, a[1], 'i1')} : i1")


@_ew("_to_copy.default", "to.dtype", "type_as.default", "convert_element_type.default")
def _ew_to_copy(r, a, dt, kw):
    return _sc(r, a[0], dt)


@_ew("copy.default", "fill.Tensor")
def _ew_copy(r, a, dt, kw):
    """copy(self, src) and fill(self, value): src (value) broadcast to self's
    shape, in self's type (the functional form of copy_ and fill_)."""
    return _sc(r, a[1], dt)


_VIEW_OPS = {"detach.default", "alias.default", "lift_fresh_copy.default", "clone.default",
             "contiguous.default", "lift_fresh.default", "conj_physical.default",
             "view.default", "_reshape_alias.default", "_unsafe_view.default",
             "reshape.default", "unsqueeze.default", "squeeze.dim", "squeeze.default",
             "squeeze.dims", "expand.default", "t.default", "transpose.int",
             "permute.default", "flatten.using_ints", "view_as.default",
             "_to_copy.default", "numpy_T.default", "convert_element_type.default",
             "to.dtype"}

_REDUCTIONS = {"sum.dim_IntList", "sum.default", "mean.dim", "mean.default",
               "amax.default", "amin.default", "var.correction", "var_mean.correction",
               "var.dim", "var.default", "all.dim", "all.dims", "all.default", "any.dim",
               "any.dims", "any.default"}

# Ops that lower to executable MLIR (some only for some arguments: convolution
# for 2-D, ungrouped, untransposed; pooling for 2-D without ceil-mode
# windows of varying size; division without rounding mode; ...). Every other
# op becomes ckpt.opaque.
EXECUTABLE_OPS = sorted(set(_ELEMENTWISE) | _VIEW_OPS | _REDUCTIONS | {
    "mm.default", "addmm.default", "bmm.default", "convolution.default",
    "convolution_backward.default", "max_pool2d_with_indices.default",
    "max_pool2d_with_indices_backward.default", "avg_pool2d.default",
    "avg_pool2d_backward.default", "_adaptive_avg_pool2d.default",
    "_adaptive_avg_pool2d_backward.default", "cat.default", "slice.Tensor",
    "select.int", "slice_backward.default", "select_backward.default",
    "slice_scatter.default", "select_scatter.default", "constant_pad_nd.default",
    "ones_like.default", "zeros_like.default", "full_like.default", "empty_like.default",
    "new_zeros.default", "new_ones.default", "new_full.default", "new_empty.default",
    "zeros.default", "ones.default", "full.default", "scalar_tensor.default",
    "empty.memory_format", "fill.Scalar", "split.Tensor", "split_with_sizes.default",
    "unbind.int", "unsafe_split.Tensor", "unsafe_split_with_sizes.default", "as_strided.default", "as_strided_scatter.default",
    "new_empty_strided.default", "arange.default", "arange.start",
    "arange.start_step", "triu.default", "tril.default", "baddbmm.default",
    "embedding.default", "embedding_dense_backward.default", "bernoulli.float",
    "bernoulli.p"})
