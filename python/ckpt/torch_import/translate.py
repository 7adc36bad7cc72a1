"""The translation of one traced graph into a ckpt training step.

Part of ckpt.torch_import (see its docstring).
"""

import math
import operator

import numpy as np

from .trace import _mutates_first, _schema
from .emit import _BYTES, _Emitter, _T, _View, _is_float, _mlir_dtype, _nonunit, _numel
from .ops import _ELEMENTWISE, _HANDLERS, _REDUCTIONS, _Unsupported, _VIEW_OPS, _ints, _meta, _opname


# ---------------------------------------------------------------------------
# The translation of one graph.

# In-place view ops whose functional form has another overload name
# (nn.GRU's transpose_ of its hidden state).
_INPLACE_VIEWS = {"transpose_.default": "transpose.int", "t_.default": "t.default",
                  "unsqueeze_.default": "unsqueeze.default", "squeeze_.dim": "squeeze.dim",
                  "squeeze_.default": "squeeze.default"}


class _Translator:
    def __init__(self, gm, name, arg_info, keep=(), locations=False):
        self.gm = gm
        self.locations = locations  # each op at loc("<its FX node>")
        self.keep = set(keep)  # nodes marked with ckpt.checkpoint
        self.checkpoints = 0
        self.name = name
        self.arg_info = arg_info
        self.em = _Emitter()
        self.env = {}
        self.aten_ops = 0
        self.dropouts = 0      # random masks drawn (bernoulli), numbered from 0
        self.seed = None       # the %seed argument, once a mask needs it

    # values
    def val(self, a):
        """The translated value of an FX argument."""
        from torch.fx import Node
        if isinstance(a, Node):
            v = self.env[a]
            return v
        if isinstance(a, (list, tuple)):
            return [self.val(x) for x in a]
        return a

    def view(self, a):
        v = self.val(a)
        if isinstance(v, _T):
            return _View(v)
        if isinstance(v, _View):
            return v
        raise _Unsupported()

    def mat(self, a, base="m"):
        v = self.val(a)
        if isinstance(v, _View):
            return self.em.materialize(v, base)
        if isinstance(v, _T):
            return v
        raise _Unsupported()

    # driver
    def run(self):
        graph = self.gm.graph
        live = self.liveness(graph)
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(self.arg_info):
            raise ValueError("internal error: placeholder count mismatch")
        args = []
        for node, (argname, comment) in zip(placeholders, self.arg_info):
            shape, dt = _meta(node)[0]
            t = _T("%" + argname, shape, dt)
            self.em.used.add(argname)
            self.env[node] = t
            args.append((t, comment))
        for node in graph.nodes:
            if node.op in ("placeholder", "output"):
                if node.op == "output":
                    out_node = node
                continue
            if node not in live:
                continue
            if self.locations:
                self.em.out.loc = node.name
            if node.op == "get_attr":
                self.env[node] = self.constant(getattr(self.gm, node.target), node.name)
                self.em.out.loc = None
                continue
            if node.op != "call_function":
                raise ValueError(f"unsupported FX node {node.op} {node.target}")
            if node.target is operator.getitem:
                self.env[node] = self.val(node.args[0])[node.args[1]]
                if node in self.keep:
                    self.mark(node)
                self.em.out.loc = None
                continue
            self.aten_ops += 1
            self.translate(node)
            if node in self.keep:
                self.mark(node)
            self.em.out.loc = None
        outs = out_node.args[0]
        results = []
        for i, o in enumerate(outs):
            v = self.val(o)
            if v is None:
                raise ValueError("a result of the step is None")
            t = self.em.materialize(v, f"result{i}") if isinstance(v, _View) else v
            if not isinstance(t, _T):
                raise ValueError(f"result {i} of the step is not a tensor")
            results.append(t)
        if results[0].shape != () or results[0].dt != "f32":
            raise ValueError(f"the loss is {results[0].type}, not tensor<f32>")
        if self.seed is not None:
            args.append((self.seed, "dropout seed"))
        return self.text(args, results)

    def mark(self, node):
        """Marks the value of `node` kept (`ckpt.checkpoint`); later readers
        read the mark. A view marks the tensor it is a view of."""
        v = self.env[node]
        if isinstance(v, _T):
            self.env[node] = self._checkpoint(v, node.name)
        elif isinstance(v, _View):
            root = self._checkpoint(v.root, node.name)
            self.env[node] = _View(root, v.shape, v.dims)

    def _checkpoint(self, t, base):
        name = self.em.fresh(base + "_kept")
        self.em.emit(f"{name} = ckpt.checkpoint {t.name} : {t.type}")
        self.checkpoints += 1
        return _T(name, t.shape, t.dt)

    def seed_arg(self):
        """The step's `%seed: tensor<i64>` argument (the key of the dropout
        masks), added after the others."""
        if self.seed is None:
            self.seed = _T("%seed", (), "i64")
            self.em.used.add("seed")
        return self.seed

    def liveness(self, graph):
        from torch.fx import Node
        live = set()
        nodes = list(graph.nodes)

        def inputs(n):
            out = []
            for a in list(n.args) + list(n.kwargs.values()):
                stack = [a]
                while stack:
                    x = stack.pop()
                    if isinstance(x, Node):
                        out.append(x)
                    elif isinstance(x, (list, tuple)):
                        stack.extend(x)
            return out
        for n in reversed(nodes):
            if n.op == "output" or n in live or (
                    n.op == "call_function" and _mutates_first(n) and n.args[0] in live):
                live.add(n)
                live.update(inputs(n))
        return live

    def constant(self, tensor, base):
        t = tensor.detach()
        dt = _mlir_dtype(t.dtype)
        shape = tuple(t.shape)
        arr = t.cpu().numpy()
        if arr.size == 1 or (arr.size and np.all(arr == arr.reshape(-1)[0])):
            # A splat (e.g. the element count a mean divides by) is filled in
            # a buffer of the step rather than read from a global: the
            # memory simulation counts it, and a GPU kernel can read it.
            v = arr.reshape(-1)[0] if arr.size else 0
            v = float(v) if _is_float(dt) else bool(v) if dt == "i1" else int(v)
            return self.em.fill(v, shape, dt, base)
        name = self.em.fresh(base)
        if dt == "i1":
            # MLIR's hex form of i1 elements: bit-packed, least significant
            # bit first (not a splat here: a single 0x00 or 0xFF byte would
            # read as one).
            bits = np.packbits(arr.reshape(-1).astype(bool), bitorder="little")
            body = f'dense<"0x{bits.tobytes().hex().upper()}">'
        else:
            npdt = {"f32": "<f4", "f64": "<f8", "f16": "<f2", "i64": "<i8", "i32": "<i4",
                    "i16": "<i2", "i8": "<i1"}.get(dt)
            if npdt is None:
                raise ValueError(f"cannot write a constant of type {dt}")
            body = f'dense<"0x{np.ascontiguousarray(arr, dtype=npdt).tobytes().hex().upper()}">'
        res = _T(name, shape, dt)
        self.em.emit(f"{name} = arith.constant {body} : {res.type}")
        return res

    def text(self, args, results):
        em = self.em
        head = []
        head += em.map_lines
        if em.map_lines:
            head.append("")
        sig = ",\n    ".join(f"{t.name}: {t.type}" for t, _ in args)
        rt = ", ".join(t.type for t in results)
        head.append(f"func.func @{self.name}({sig})\n    -> ({rt})\n"
                    f"    attributes {{ckpt.loss = 0 : i64}} {{")
        body = em.const_lines + em.lines
        body.append(f"  return {', '.join(t.name for t in results)} : {rt}")
        return "\n".join(head + body + ["}", ""])

    # -- one node ----------------------------------------------------------
    def translate(self, node):
        name = _opname(node)
        base = node.name
        metas = self._inplace_view_meta(node) if name in _INPLACE_VIEWS else _meta(node)
        empty = self._empty_results(metas, base)
        if empty is not None:
            # Every result has no element (Swin3D's window padding of a short
            # clip): nothing to compute, and tensor slices reject offsets
            # into empty dims.
            self.env[node] = empty
            if _mutates_first(node):
                self.env[node.args[0]] = empty
            return
        try:
            if _mutates_first(node) and name not in _ELEMENTWISE:
                # op_ -> op on the same arguments
                functional = _INPLACE_VIEWS.get(
                    name, name.split(".")[0][:-1] + "." + name.split(".", 1)[1])
                if functional in _ELEMENTWISE or functional in _HANDLERS or \
                        functional in _VIEW_OPS:
                    result = self.dispatch(node, functional, base, metas)
                else:
                    raise _Unsupported()
            else:
                result = self.dispatch(node, name, base, metas)
        except _Unsupported:
            result = self.opaque(node, name, base, metas)
        self.env[node] = result
        if _mutates_first(node):
            self.env[node.args[0]] = result

    def _empty_results(self, metas, base):
        """Empty tensors for a node whose every tensor result has a zero
        size (the result, or a tuple of them), else None."""
        if not metas or any(m is None for m in metas) or \
                not all(0 in m[0] for m in metas):
            return None
        res = [self.em.empty(m[0], m[1], base) for m in metas]
        return res[0] if len(res) == 1 else tuple(res)

    def _inplace_view_meta(self, node):
        """The result meta of an in-place view op (transpose_): make_fx
        records the fake tensor's metadata after the mutation, for this
        node and its input alike, so the op is evaluated again on a meta
        tensor of the input's translated shape."""
        import torch
        src = self.val(node.args[0])
        if not isinstance(src, (_T, _View)):
            return _meta(node)
        out = node.target(torch.empty(src.shape, device="meta"), *node.args[1:])
        return [(tuple(out.shape), src.dt)]

    def dispatch(self, node, name, base, metas):
        if name in _VIEW_OPS:
            return self.view_op(node, name, base, metas)
        if name in _ELEMENTWISE:
            fn, is_cmp = _ELEMENTWISE[name]
            return self.elementwise(node, fn, is_cmp, base, metas)
        if name in _REDUCTIONS:
            return self.reduction(node, name, base, metas)
        if name in _HANDLERS:
            return _HANDLERS[name](self, node, base, metas)
        raise _Unsupported()

    def opaque(self, node, name, base, metas):
        from torch.fx import Node
        operands = []

        def collect(a):
            if isinstance(a, Node):
                v = self.env[a]
                if isinstance(v, (_T, _View)):
                    operands.append(v)
            elif isinstance(a, (list, tuple)):
                for x in a:
                    collect(x)
        for a in list(node.args) + list(node.kwargs.values()):
            collect(a)
        results = [m for m in metas if m is not None]
        if not results:
            raise ValueError(f"op {name} has no tensor result")
        flops = _flops(node, name, metas)
        schema = _schema(node)
        full = schema.name.replace("::", ".") if schema is not None else "aten." + name
        if _mutates_first(node) and full.endswith("_"):
            full = full[:-1]  # the step is functional: op_(a) is a = op(a)
        if schema is not None and schema.overload_name not in ("", "default"):
            full += "." + schema.overload_name
        ts = self.em.opaque_op(full, operands, results, flops, base)
        if len(metas) == 1 and hasattr(node.meta.get("tensor_meta"), "shape"):
            return ts[0]
        it = iter(ts)
        return tuple(None if m is None else next(it) for m in metas)

    # -- views -------------------------------------------------------------
    def view_op(self, node, name, base, metas):
        shape, dt = metas[0]
        src = self.val(node.args[0])
        if not isinstance(src, (_T, _View)):
            raise _Unsupported()
        v = src if isinstance(src, _View) else _View(src)
        if name in ("_to_copy.default", "convert_element_type.default", "to.dtype") \
                and dt != v.dt:
            fn, _ = _ELEMENTWISE[name]
            return self.elementwise(node, fn, False, base, metas)
        if name in ("t.default", "transpose.int", "permute.default", "numpy_T.default"):
            n = len(v.shape)
            if name == "t.default" or name == "numpy_T.default":
                perm = list(range(n))[::-1]
            elif name == "transpose.int":
                a, b = node.args[1] % max(n, 1), node.args[2] % max(n, 1)
                perm = list(range(n))
                perm[a], perm[b] = perm[b], perm[a]
            else:
                perm = [p % n for p in node.args[1]]
            return _View(v.root, [v.shape[p] for p in perm], [v.dims[p] for p in perm])
        if name == "expand.default":
            n = len(shape)
            off = n - len(v.shape)
            dims = [None] * off + list(v.dims)
            for i in range(n):
                if i >= off and v.shape[i - off] == shape[i]:
                    continue
                dims[i] = None
            return _View(v.root, shape, dims)
        if tuple(shape) == v.shape:
            return v
        # a reshape: keep it a view when only unit dims change
        a, b = _nonunit(v.shape), _nonunit(shape)
        if [s for _, s in a] == [s for _, s in b]:
            dims = [None] * len(shape)
            for (i, _), (j, _) in zip(a, b):
                dims[j] = v.dims[i]
            return _View(v.root, shape, dims)
        t = self.em.materialize(v, base + "_src")
        return self.em.reshape(t, shape, base)

    # -- elementwise ---------------------------------------------------------
    def elementwise(self, node, fn, is_cmp, base, metas):
        from torch.fx import Node
        shape, out_dt = metas[0]
        n = len(shape)
        args = list(node.args)
        kw = dict(node.kwargs)
        tensors = []  # (position, view)
        for i, a in enumerate(args):
            if isinstance(a, Node):
                v = self.view(a)
                tensors.append((i, v))
        # compute type
        if is_cmp:
            dts = [v.dt for _, v in tensors]
            if any(_is_float(d) for d in dts):
                cdt = max((d for d in dts if _is_float(d)), key=lambda d: _BYTES[d])
            elif any(isinstance(a, float) for a in args[:2]):
                cdt = "f32"
            elif dts and all(d == "i1" for d in dts) and not any(
                    isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
                cdt = "i1"
            else:
                cdt = max(dts, key=lambda d: _BYTES[d]) if dts else "i64"
                if cdt == "i1":
                    cdt = "i64"
        else:
            cdt = out_dt
        ins = []
        for i, v in tensors:
            off = n - len(v.shape)
            if off < 0:
                raise _Unsupported()
            exprs = [f"d{off + k}" if v.shape[k] == shape[off + k] else "0"
                     for k in range(len(v.shape))]
            ins.append((v.root, v.access(exprs)))
        init = self.em.empty(shape, out_dt, base)

        def body(r, in_args, out_args):
            vals = list(args)
            for (i, v), a in zip(tensors, in_args):
                vals[i] = (a, v.dt)
            res = fn(r, vals, cdt, kw)
            rdt = "i1" if is_cmp else cdt
            return [r.cast(res, rdt, out_dt)]
        exprs = [f"d{i}" for i in range(n)]
        return self.em.generic(base, n, ["parallel"] * n, ins, [(init, exprs)], body)[0]

    # -- reductions ----------------------------------------------------------
    def reduction(self, node, name, base, metas):
        x = self.view(node.args[0])
        n = len(x.shape)
        kw = dict(node.kwargs)
        args = list(node.args)
        if name in ("sum.default", "mean.default"):
            dims, keep = list(range(n)), False
        elif name in ("amax.default", "amin.default"):
            dims = args[1] if len(args) > 1 else kw.get("dim", [])
            keep = args[2] if len(args) > 2 else kw.get("keepdim", False)
            dims = list(dims) if dims else list(range(n))
        elif name in ("var.correction", "var_mean.correction", "var.dim", "var.default"):
            dims = args[1] if len(args) > 1 else kw.get("dim")
            dims = list(range(n)) if dims is None else list(dims)
            keep = kw.get("keepdim", args[3] if name == "var.dim" and len(args) > 3 else False)
            if name == "var.dim":
                unbiased = args[2] if len(args) > 2 else kw.get("unbiased", True)
                correction = 1 if unbiased else 0
            elif name == "var.default":
                unbiased = args[1] if len(args) > 1 else kw.get("unbiased", True)
                dims, keep, correction = list(range(n)), False, 1 if unbiased else 0
            else:
                correction = kw.get("correction")
                correction = 1 if correction is None else correction
        else:
            dims = args[1] if len(args) > 1 else kw.get("dim")
            keep = args[2] if len(args) > 2 else kw.get("keepdim", False)
            dims = [dims] if isinstance(dims, int) else dims
            dims = list(range(n)) if not dims else list(dims)
        dims = sorted(set(d % n for d in dims)) if n else []
        # A reduced dimension the view maps to no root dimension (a unit or
        # broadcast dimension it inserted) would be a loop with no bound in
        # the generic's maps: read a materialized copy instead (ConvNeXt's
        # LayerNorm2d bias gradient over a [N, C] -> [N, 1, 1, C] view).
        if any(x.dims[d] is None for d in dims):
            x = _View(self.em.materialize(x, base))
        out_dt = metas[0][1]
        logical = name.startswith("all") or name.startswith("any")
        if not _is_float(out_dt) and not logical and name not in (
                "sum.dim_IntList", "sum.default", "amax.default", "amin.default"):
            raise _Unsupported()
        kept = [i for i in range(n) if i not in dims]
        red_shape = tuple(x.shape[i] for i in kept)
        count = _numel([x.shape[i] for i in dims])
        iters = ["reduction" if i in dims else "parallel" for i in range(n)]
        exprs = [f"d{i}" for i in range(n)]
        out_exprs = [f"d{i}" for i in kept]
        xin = (x.root, x.access(exprs))

        def finish(t):
            if not keep:
                return t
            full = tuple(1 if i in dims else x.shape[i] for i in range(n))
            vdims = []
            k = 0
            for i in range(n):
                if i in dims:
                    vdims.append(None)
                else:
                    vdims.append(k)
                    k += 1
            return _View(t, full, vdims)

        if name.startswith("sum") or name.startswith("mean"):
            scale = 1.0 / count if name.startswith("mean") and count else None
            init = self.em.fill(0, red_shape, out_dt, base)

            def body(r, a, o):
                v = r.cast(a[0], x.dt, out_dt)
                if scale is not None:
                    v = r.mul(v, r.scalar(scale, out_dt), out_dt)
                return [r.add(o[0], v, out_dt)]
            t = self.em.generic(base, n, iters, [xin], [(init, out_exprs)], body)[0]
            return finish(t)
        if logical:     # all / any: and / or of x != 0, into a bool
            is_all = name.startswith("all")
            init = self.em.fill(is_all, red_shape, "i1", base)

            def body(r, a, o):
                return [(r.mul if is_all else r.add)(o[0], r.cast(a[0], x.dt, "i1"), "i1")]
            t = self.em.generic(base, n, iters, [xin], [(init, out_exprs)], body)[0]
            return finish(t)
        if name.startswith("amax") or name.startswith("amin"):
            is_max = name.startswith("amax")
            if _is_float(out_dt):
                start = -math.inf if is_max else math.inf
            elif out_dt == "i1":
                start = not is_max
            else:
                bits = _BYTES[out_dt] * 8
                start = -(1 << (bits - 1)) if is_max else (1 << (bits - 1)) - 1
            init = self.em.fill(start, red_shape, out_dt, base)

            def body(r, a, o):
                return [(r.max if is_max else r.min)(o[0], a[0], out_dt)]
            t = self.em.generic(base, n, iters, [xin], [(init, out_exprs)], body)[0]
            return finish(t)
        # variance: the mean, then the mean square deviation
        denom = count - correction
        mean = self.em.fill(0, red_shape, out_dt, base + "_mean")

        def mean_body(r, a, o):
            v = r.mul(r.cast(a[0], x.dt, out_dt), r.scalar(1.0 / count, out_dt), out_dt)
            return [r.add(o[0], v, out_dt)]
        m = self.em.generic(base + "_mean", n, iters, [xin], [(mean, out_exprs)], mean_body)[0]
        var0 = self.em.fill(0, red_shape, out_dt, base)
        inv = (1.0 / denom) if denom > 0 else math.inf

        def var_body(r, a, o):
            d = r.sub(r.cast(a[0], x.dt, out_dt), a[1], out_dt)
            v = r.mul(r.mul(d, d, out_dt), r.scalar(inv, out_dt), out_dt)
            return [r.add(o[0], v, out_dt)]
        var = self.em.generic(base, n, iters, [xin, (m, out_exprs)], [(var0, out_exprs)],
                              var_body)[0]
        if name == "var_mean.correction":
            return (finish(var), finish(m))
        return finish(var)


def _flops(node, name, metas):
    """A flop estimate for an opaque op: known formulas for convolutions,
    matrix products and pooling; one per result element otherwise."""
    out = sum(_numel(m[0]) for m in metas if m is not None)
    try:
        if name.startswith("convolution") or name.startswith("_convolution"):
            w = node.args[1] if name.startswith("convolution.") else node.args[2]
            wshape = w.meta["tensor_meta"].shape  # [F, C / groups, kh, kw]
            per_out = _numel(wshape[1:])
            if name.startswith("convolution_backward"):
                g = node.args[0].meta["tensor_meta"].shape
                mask = node.args[-1]
                return 2 * _numel(g) * per_out * (int(mask[0]) + int(mask[1])) + _numel(g)
            return 2 * out * per_out
        if name.startswith(("mm.", "addmm.", "bmm.", "matmul.")):
            a = node.args[1 if name.startswith("addmm") else 0].meta["tensor_meta"].shape
            return 2 * out * a[-1]
        if "pool" in name:
            k = node.args[1] if "backward" not in name else node.args[2]
            if isinstance(k, (list, tuple)):
                return out * _numel(_ints(k))
    except (AttributeError, IndexError, KeyError, TypeError):
        pass
    return out
