"""Typed tensor values, views and scalar regions of the importer, written
through the MLIR text emitter the zoo shares (`ckpt.mlir_text.Emitter`).

Part of ckpt.torch_import (see its docstring).
"""

import re

from ..mlir_text import ELEMENT_BYTES as _BYTES
from ..mlir_text import Emitter, MapPool
from ..mlir_text import float_literal as _float_literal
from ..mlir_text import is_float as _is_float
from ..mlir_text import numel as _numel
from ..mlir_text import tensor_type as _ttype


# ---------------------------------------------------------------------------
# MLIR emission.

_DTYPES = {}


def _mlir_dtype(dtype):
    import torch
    if not _DTYPES:
        _DTYPES.update({
            torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
            torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
            torch.int16: "i16", torch.int8: "i8", torch.uint8: "i8", torch.bool: "i1",
        })
    if dtype not in _DTYPES:
        raise ValueError(f"unsupported dtype {dtype}")
    return _DTYPES[dtype]


class _T:
    """A materialized tensor value."""
    __slots__ = ("name", "shape", "dt")

    def __init__(self, name, shape, dt):
        self.name, self.shape, self.dt = name, tuple(shape), dt

    @property
    def type(self):
        return _ttype(self.shape, self.dt)


class _View:
    """A tensor as a view of a materialized root: logical dim i is root dim
    dims[i] (same size) or None (size 1, or a broadcast); unmapped root dims
    have size 1. Elementwise ops, reductions and contractions read views
    through their indexing maps; other ops materialize them."""
    __slots__ = ("root", "shape", "dims", "cache")

    def __init__(self, root, shape=None, dims=None):
        self.root = root
        self.shape = tuple(root.shape if shape is None else shape)
        self.dims = list(range(len(root.shape)) if dims is None else dims)
        self.cache = None

    @property
    def dt(self):
        return self.root.dt

    def plain(self):
        return self.shape == self.root.shape and self.dims == list(range(len(self.shape)))

    def access(self, exprs):
        """Root indexing expressions, given an expression per logical dim."""
        out = ["0"] * len(self.root.shape)
        for i, d in enumerate(self.dims):
            if d is not None:
                out[d] = exprs[i]
        return out


def _reassociation(src, dst):
    """Groups of src and dst dims with equal products (a common coarsening):
    returns (groups_src, groups_dst) or None. Unit dims join a neighbour."""
    if _numel(src) != _numel(dst):
        return None
    if not src or not dst:
        return None
    gs, gd = [], []
    i = j = 0
    while i < len(src) and j < len(dst):
        a, b = [i], [j]
        ps, pd = src[i], dst[j]
        i += 1
        j += 1
        while ps != pd:
            if ps < pd:
                if i >= len(src):
                    return None
                ps *= src[i]
                a.append(i)
                i += 1
            else:
                if j >= len(dst):
                    return None
                pd *= dst[j]
                b.append(j)
                j += 1
        gs.append(a)
        gd.append(b)
    while i < len(src):  # trailing unit dims
        gs[-1].append(i)
        i += 1
    while j < len(dst):
        gd[-1].append(j)
        j += 1
    return gs, gd


def _nonunit(shape):
    return [(i, d) for i, d in enumerate(shape) if d != 1]


class _Emitter:
    """Typed values and views over the shared op writer (`ckpt.mlir_text.
    Emitter`): names derived from the traced node names, constants pooled at
    the top of the function, affine maps pooled as aliases."""

    def __init__(self):
        self.consts = {}
        self.const_lines = []
        self.used = set()
        self.maps = MapPool()
        self.out = Emitter(names=self.fresh)
        self.opaque = {}

    @property
    def lines(self):
        return self.out.lines

    @property
    def top_ops(self):
        return self.out.ops

    # -- names, constants, maps -------------------------------------------
    def fresh(self, base):
        base = re.sub(r"[^A-Za-z0-9_]", "_", base) or "v"
        if re.fullmatch(r"[rb]\d+|cst\d+|c\d+", base):
            base += "_"
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return "%" + name

    def emit(self, text):
        self.out.emit(text)

    def const(self, value, dt):
        if _is_float(dt):
            lit = _float_literal(value, dt)
        elif dt == "i1":
            lit = "true" if value else "false"
        elif dt == "index":
            lit = str(int(value))
        else:
            lit = str(int(value))
        key = (lit, dt)
        if key not in self.consts:
            name = f"%c{len(self.consts)}"
            self.consts[key] = name
            # A bool attribute is typed i1 already: `arith.constant true`.
            typed = lit if dt == "i1" else f"{lit} : {dt}"
            self.const_lines.append(f"  {name} = arith.constant {typed}")
        return self.consts[key]

    @property
    def map_lines(self):
        return self.maps.lines

    # -- basic ops ---------------------------------------------------------
    def empty(self, shape, dt, base):
        return _T(self.out.empty(_ttype(shape, dt), base + "_e"), shape, dt)

    def fill(self, value, shape, dt, base):
        e = self.empty(shape, dt, base)
        return _T(self.out.fill(self.const(value, dt), dt, e.name, e.type, base + "_f"),
                  shape, dt)

    def generic(self, base, ndims, iters, ins, outs, body):
        """ins: [(value _T, exprs)], outs: [(init _T, exprs)]; body(region,
        in_args, out_args) returns the yielded scalars."""
        region = _Region(self)
        in_args = [region.arg(t.dt) for t, _ in ins]
        out_args = [region.arg(t.dt) for t, _ in outs]
        yields = body(region, in_args, out_args)
        maps = [self.maps(ndims, e) for _, e in ins] + [self.maps(ndims, e) for _, e in outs]
        refs = self.out.generic(self.fresh(base), maps, iters,
                                [(t.name, t.type) for t, _ in ins],
                                [(t.name, t.type) for t, _ in outs], region.args,
                                region.lines, [(y, t.dt) for y, (t, _) in zip(yields, outs)])
        return [_T(r, t.shape, t.dt) for r, (t, _) in zip(refs, outs)]

    # -- views ---------------------------------------------------------------
    def materialize(self, v, base="m"):
        if isinstance(v, _T):
            return v
        if v.plain():
            return v.root
        if v.cache is not None:
            return v.cache
        mapped = [d for d in v.dims if d is not None]
        broadcast = any(d is None and s != 1 for d, s in zip(v.dims, v.shape))
        if not broadcast and mapped == sorted(mapped):
            out = self.reshape(v.root, v.shape, base)
        elif (not broadcast and len(v.shape) == len(v.root.shape)
              and None not in v.dims):
            e = self.empty(v.shape, v.dt, base)
            name = self.fresh(base)
            perm = [0] * len(v.dims)
            for i, d in enumerate(v.dims):
                perm[i] = d
            self.emit(f"{name} = linalg.transpose ins({v.root.name} : {v.root.type}) "
                      f"outs({e.name} : {e.type}) permutation = {perm}")
            out = _T(name, v.shape, v.dt)
        else:
            n = len(v.shape)
            e = self.empty(v.shape, v.dt, base)
            exprs = [f"d{i}" for i in range(n)]
            out = self.generic(base, n, ["parallel"] * n,
                               [(v.root, v.access(exprs))], [(e, exprs)],
                               lambda r, a, o: [a[0]])[0]
        v.cache = out
        return out

    def reshape(self, t, shape, base):
        shape = tuple(shape)
        if t.shape == shape:
            return t
        src, dst = t.shape, shape
        if not src or not dst:
            # rank 0 <-> all-unit shape
            name = self.fresh(base)
            res = _T(name, dst, t.dt)
            if not dst:
                self.emit(f"{name} = tensor.collapse_shape {t.name} [] : {t.type} into {res.type}")
            else:
                self.emit(f"{name} = tensor.expand_shape {t.name} [] output_shape {list(dst)} "
                          f": {t.type} into {res.type}")
            return res
        r = _reassociation(src, dst)
        if r is None:
            raise ValueError(f"cannot reshape {list(src)} to {list(dst)}")
        gs, gd = r
        common = tuple(_numel([src[i] for i in g]) for g in gs)
        cur = t
        if common != src:
            name = self.fresh(base + "_c" if common != dst else base)
            res = _T(name, common, t.dt)
            self.emit(f"{name} = tensor.collapse_shape {cur.name} {gs} : {cur.type} into {res.type}")
            cur = res
        if common != dst:
            name = self.fresh(base)
            res = _T(name, dst, t.dt)
            self.emit(f"{name} = tensor.expand_shape {cur.name} {gd} output_shape {list(dst)} "
                      f": {cur.type} into {res.type}")
            cur = res
        return cur

    def pad(self, t, low, high, value, base):
        if not any(low) and not any(high):
            return t
        shape = tuple(s + a + b for s, a, b in zip(t.shape, low, high))
        res = _T(self.fresh(base), shape, t.dt)
        self.out.pad(res.name, t.name, t.type, low, high, self.const(value, t.dt), t.dt,
                     res.type, arg="%b")
        return res

    # -- work of opaque ops -------------------------------------------------
    def opaque_op(self, aten_name, operands, results, flops, base):
        # The work only (#ckpt.work): ckpt-opt times it with the roofline of
        # the device the step is planned for (ckpt-plan device=).
        operands = [self.materialize(v) for v in operands]
        bytes_ = sum(_numel(t.shape) * _BYTES[t.dt] for t in operands)
        bytes_ += sum(_numel(s) * _BYTES[dt] for s, dt in results)
        names = [self.fresh(base)]
        rtypes = [_ttype(s, dt) for s, dt in results]
        lhs = names[0] if len(results) == 1 else f"{names[0]}:{len(results)}"
        self.emit(f'{lhs} = ckpt.opaque "{aten_name}"({", ".join(t.name for t in operands)}) '
                  f"{{ckpt.work = #ckpt.work<flops = {int(flops)}, bytes = {int(bytes_)}>}} : ({', '.join(t.type for t in operands)}) -> "
                  + (rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"))
        self.opaque[aten_name] = self.opaque.get(aten_name, 0) + 1
        if len(results) == 1:
            return [_T(names[0], results[0][0], results[0][1])]
        return [_T(f"{names[0]}#{k}", s, dt) for k, (s, dt) in enumerate(results)]


class _Region:
    """Scalar code of a linalg.generic body."""

    def __init__(self, em):
        self.em = em
        self.lines = []
        self.args = []
        self.n = 0

    def arg(self, dt):
        name = f"%b{len(self.args)}"
        self.args.append((name, dt))
        return name

    def op(self, text):
        name = f"%r{self.n}"
        self.n += 1
        self.lines.append(f"{name} = {text}")
        return name

    def c(self, value, dt):
        return self.em.const(value, dt)

    def index(self, dim):
        return self.op(f"linalg.index {dim} : index")

    # arithmetic on a compute type
    def add(self, a, b, dt):
        return self.op(f"arith.{'addf' if _is_float(dt) else 'ori' if dt == 'i1' else 'addi'} {a}, {b} : {dt}")

    def sub(self, a, b, dt):
        return self.op(f"arith.{'subf' if _is_float(dt) else 'subi'} {a}, {b} : {dt}")

    def mul(self, a, b, dt):
        return self.op(f"arith.{'mulf' if _is_float(dt) else 'andi' if dt == 'i1' else 'muli'} {a}, {b} : {dt}")

    def div(self, a, b, dt):
        return self.op(f"arith.{'divf' if _is_float(dt) else 'divsi'} {a}, {b} : {dt}")

    def neg(self, a, dt):
        if _is_float(dt):
            return self.op(f"arith.negf {a} : {dt}")
        return self.op(f"arith.subi {self.c(0, dt)}, {a} : {dt}")

    def max(self, a, b, dt):
        return self.op(f"arith.{'maximumf' if _is_float(dt) else 'maxsi'} {a}, {b} : {dt}")

    def min(self, a, b, dt):
        return self.op(f"arith.{'minimumf' if _is_float(dt) else 'minsi'} {a}, {b} : {dt}")

    def math(self, fn, a, dt):
        return self.op(f"math.{fn} {a} : {dt}")

    def cmp(self, pred, a, b, dt):
        if _is_float(dt):
            fp = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}[pred]
            return self.op(f"arith.cmpf {fp}, {a}, {b} : {dt}")
        ip = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}[pred]
        if dt == "i1":
            ip = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}.get(pred, ip)
        return self.op(f"arith.cmpi {ip}, {a}, {b} : {dt}")

    def select(self, c, a, b, dt):
        return self.op(f"arith.select {c}, {a}, {b} : {dt}")

    def cast(self, a, src, dst):
        if src == dst:
            return a
        if _is_float(src) and _is_float(dst):
            wider = {"f16": 1, "bf16": 1, "f32": 2, "f64": 3}
            return self.op(f"arith.{'extf' if wider[dst] > wider[src] else 'truncf'} {a} : {src} to {dst}")
        if _is_float(dst):
            return self.op(f"arith.{'uitofp' if src == 'i1' else 'sitofp'} {a} : {src} to {dst}")
        if dst == "i1":
            return self.cmp("ne", a, self.c(0, src), src)
        if _is_float(src):
            return self.op(f"arith.fptosi {a} : {src} to {dst}")
        if src == "index":
            return self.op(f"arith.index_cast {a} : index to {dst}")
        if _BYTES[dst] > _BYTES[src]:
            return self.op(f"arith.{'extui' if src == 'i1' else 'extsi'} {a} : {src} to {dst}")
        return self.op(f"arith.trunci {a} : {src} to {dst}")

    def scalar(self, v, dt):
        """A Python number or a block argument, as dt."""
        if isinstance(v, tuple):  # (ssa name, dtype)
            return self.cast(v[0], v[1], dt)
        if _is_float(dt):
            return self.c(float(v), dt)
        if dt == "i1":
            return self.c(bool(v), dt)
        return self.c(int(v), dt)
