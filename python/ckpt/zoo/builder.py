"""A tape that writes a training step in MLIR, forward and backward.

`StepBuilder` records a model as a sequence of primitives (linear, conv3x3,
relu, tanh, add, pooling, upsampling, concatenation, layer norm, attention,
global pooling, mean-squared-error loss). `finish(loss)` then writes one
`func.func @<name>_step(%x, %t, params...) -> (loss, dparams...)
attributes {ckpt.loss = 0 : i64}` on static f32 tensors in upstream MLIR
(linalg named ops and `linalg.generic`, `tensor.pad`, `tensor.empty`,
`linalg.fill`, `arith`, `math`): the forward ops, then the backward ops that
reverse-mode differentiation of the tape gives, each backward op with its own
`tensor.empty`, in the conventions of test/Inputs/steps/README.md. Gradients
of a value read several times are summed.

The same tape also replays in PyTorch (`torch_loss`), so the gradients of
the MLIR can be checked against torch.autograd on the same weights, an
independent implementation (see `ckpt.zoo.reference`).

Only the standard library is needed to write MLIR; torch only to check it.
"""

import math

from ..mlir_text import affine_map as amap
from ..mlir_text import Emitter, float_literal, tensor_type
from ..mlir_text import identity_map as ident


def f32(v):
    """An f32 literal."""
    return float_literal(v, "f32")


class Value:
    """A tensor of the step: an argument or the result of a primitive."""

    def __init__(self, name, shape, needs_grad):
        self.name = name
        self.shape = tuple(shape)
        self.needs_grad = needs_grad

    @property
    def type(self):
        return tensor_type(self.shape)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def numel(self):
        return math.prod(self.shape)


class Node:
    def __init__(self, kind, inputs, output, saved, backward, torch_fn):
        self.kind = kind
        self.inputs = inputs          # [Value]
        self.output = output          # Value
        self.saved = saved            # dict of forward SSA names the backward reads
        self.backward = backward      # fn(builder, node, grad_name) -> [grad_name | None]
        self.torch_fn = torch_fn      # fn(*torch tensors) -> torch tensor


class StepBuilder:
    """Records primitives and writes the step (see the module docstring)."""

    def __init__(self, name, comment=()):
        self.name = name
        self.comment = list(comment)
        self.args = []                # (Value, role) with role input/target/param
        self.params = []              # [Value]
        self.init = {}                # arg name -> (low, high) of its uniform draw
        self.nodes = []
        self.fwd = []
        self.bwd = []
        self.em = Emitter()          # writes into self.fwd, then self.bwd
        self.em.lines = self.fwd

    # ---- arguments ----------------------------------------------------------
    def _arg(self, name, shape, role, needs_grad, low, high):
        v = Value(f"%{name}", shape, needs_grad)
        self.args.append((v, role))
        self.init[v.name] = (low, high)
        return v

    def input(self, name, shape, scale=1.0):
        return self._arg(name, shape, "input", False, -scale, scale)

    def target(self, name, shape, scale=1.0):
        return self._arg(name, shape, "target", False, -scale, scale)

    def param(self, name, shape, fan_in=None, center=0.0, scale=None):
        if scale is None:
            scale = math.sqrt(3.0 / fan_in)
        v = self._arg(name, shape, "param", True, center - scale, center + scale)
        self.params.append(v)
        return v

    # ---- emission helpers ---------------------------------------------------
    def fresh(self, prefix):
        return self.em.fresh(prefix)

    def emit(self, op):
        self.em.emit(op)

    def empty(self, shape):
        return self.em.empty(tensor_type(shape))

    def zeros(self, shape, value="%zero"):
        ty = tensor_type(shape)
        return self.em.fill(value, "f32", self.empty(shape), ty)

    def generic(self, out_shape, ins, out_map, iterators, body, init=None,
                prefix="v"):
        """A linalg.generic. `ins` is [(ssa, shape, map)]; `body` are payload
        lines that read %a0, %a1, ... (the inputs) and %acc (the output
        element) and end with the value to yield, `%y`. `init` is the output
        operand (default: a fresh tensor.empty)."""
        out_ty = tensor_type(out_shape)
        if init is None:
            init = self.empty(out_shape)
        args = [(f"%a{i}", "f32") for i in range(len(ins))] + [("%acc", "f32")]
        return self.em.generic(self.fresh(prefix), [m for _, _, m in ins] + [out_map],
                               iterators, [(s, tensor_type(sh)) for s, sh, _ in ins],
                               [(init, out_ty)], args, body, [("%y", "f32")])[0]

    def elementwise(self, shape, ins, body, prefix="v"):
        """Elementwise over `shape`; `ins` are (ssa, shape) pairs of that
        shape or broadcast along leading dims (a smaller-rank trailing
        shape is not used; use `generic` for other broadcasts)."""
        rank = len(shape)
        return self.generic(shape, [(s, sh, ident(rank)) for s, sh in ins],
                            ident(rank), ["parallel"] * rank, body, prefix=prefix)

    def add_grads(self, a, b, shape):
        return self.elementwise(shape, [(a, shape), (b, shape)],
                                ["%y = arith.addf %a0, %a1 : f32"], prefix="g")

    def pad(self, src, shape, low, high):
        out = tuple(d + l + h for d, l, h in zip(shape, low, high))
        r = self.em.pad(self.fresh("v"), src, tensor_type(shape), low, high, "%zero",
                        "f32", tensor_type(out))
        return r, out

    def node(self, kind, inputs, shape, saved, backward, torch_fn, name=None):
        needs = any(v.needs_grad for v in inputs)
        out = Value(name, shape, needs)
        n = Node(kind, inputs, out, saved, backward, torch_fn)
        self.nodes.append(n)
        return out

    # ---- primitives ---------------------------------------------------------
    def linear(self, x, w):
        """y[..., N] = x[..., K] @ w[K, N]."""
        K, N = w.shape
        assert x.shape[-1] == K, (x.shape, w.shape)
        lead = x.shape[:-1]
        shape = lead + (N,)
        r = len(lead)
        if r == 1:
            f = self.zeros(shape)
            y = self.fresh("v")
            self.emit(f"{y} = linalg.matmul ins({x.name}, {w.name} : {x.type}, {w.type})\n"
                      f"    outs({f} : {tensor_type(shape)}) -> {tensor_type(shape)}")
        else:
            # loops (lead..., n, k)
            nd = r + 2
            L = [f"d{i}" for i in range(r)]
            n_, k_ = f"d{r}", f"d{r + 1}"
            y = self.generic(shape, [(x.name, x.shape, amap(nd, L + [k_])),
                                     (w.name, w.shape, amap(nd, [k_, n_]))],
                             amap(nd, L + [n_]), ["parallel"] * (r + 1) + ["reduction"],
                             ["%m = arith.mulf %a0, %a1 : f32",
                              "%y = arith.addf %acc, %m : f32"], init=self.zeros(shape))

        def backward(b, node, g):
            x, w = node.inputs
            gx = gw = None
            if x.needs_grad:   # gx[..., k] = sum_n g[..., n] w[k, n]
                nd = r + 2
                L = [f"d{i}" for i in range(r)]
                k_, n_ = f"d{r}", f"d{r + 1}"
                gx = b.generic(x.shape, [(g, shape, amap(nd, L + [n_])),
                                         (w.name, w.shape, amap(nd, [k_, n_]))],
                               amap(nd, L + [k_]), ["parallel"] * (r + 1) + ["reduction"],
                               ["%m = arith.mulf %a0, %a1 : f32",
                                "%y = arith.addf %acc, %m : f32"],
                               init=b.zeros(x.shape), prefix="g")
            if w.needs_grad:   # gw[k, n] = sum_lead x[..., k] g[..., n]
                nd = r + 2
                L = [f"d{i + 2}" for i in range(r)]
                gw = b.generic(w.shape, [(x.name, x.shape, amap(nd, L + ["d0"])),
                                         (g, shape, amap(nd, L + ["d1"]))],
                               amap(nd, ["d0", "d1"]), ["parallel"] * 2 + ["reduction"] * r,
                               ["%m = arith.mulf %a0, %a1 : f32",
                                "%y = arith.addf %acc, %m : f32"],
                               init=b.zeros(w.shape), prefix="g")
            return [gx, gw]

        return self.node("linear", [x, w], shape, {}, backward,
                         lambda x, w: x @ w, name=y)

    def relu(self, x):
        y = self.elementwise(x.shape, [(x.name, x.shape)],
                             ["%y = arith.maximumf %a0, %zero : f32"])

        def backward(b, node, g):
            return [b.elementwise(x.shape, [(g, x.shape), (x.name, x.shape)],
                                  ["%p = arith.cmpf ogt, %a1, %zero : f32",
                                   "%y = arith.select %p, %a0, %zero : f32"], prefix="g")]

        return self.node("relu", [x], x.shape, {}, backward,
                         lambda x: x.clamp_min(0), name=y)

    def tanh(self, x):
        y = self.elementwise(x.shape, [(x.name, x.shape)], ["%y = math.tanh %a0 : f32"])

        def backward(b, node, g):
            return [b.elementwise(x.shape, [(g, x.shape), (node.output.name, x.shape)],
                                  ["%s = arith.mulf %a1, %a1 : f32",
                                   "%c = arith.subf %one, %s : f32",
                                   "%y = arith.mulf %a0, %c : f32"], prefix="g")]

        return self.node("tanh", [x], x.shape, {}, backward, lambda x: x.tanh(), name=y)

    def add(self, a, b_):
        assert a.shape == b_.shape, (a.shape, b_.shape)
        y = self.elementwise(a.shape, [(a.name, a.shape), (b_.name, b_.shape)],
                             ["%y = arith.addf %a0, %a1 : f32"])
        return self.node("add", [a, b_], a.shape, {}, lambda b, node, g: [g, g],
                         lambda a, b: a + b, name=y)

    def conv3x3(self, x, w):
        """NHWC x HWCF, stride 1, zero padding 1 (tensor.pad + conv)."""
        N, H, W, C = x.shape
        assert w.shape[:3] == (3, 3, C), (x.shape, w.shape)
        F = w.shape[3]
        shape = (N, H, W, F)
        xp, pshape = self.pad(x.name, x.shape, [0, 1, 1, 0], [0, 1, 1, 0])
        f = self.zeros(shape)
        y = self.fresh("v")
        self.emit(f"{y} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
                  f"strides = dense<1> : tensor<2xi64>}}\n"
                  f"    ins({xp}, {w.name} : {tensor_type(pshape)}, {w.type})\n"
                  f"    outs({f} : {tensor_type(shape)}) -> {tensor_type(shape)}")

        def backward(b, node, g):
            gx = gw = None
            if w.needs_grad:
                # gw[kh,kw,c,f] = sum_{n,h,w} xp[n,h+kh,w+kw,c] g[n,h,w,f]
                gw = b.generic(w.shape,
                               [(xp, pshape, amap(7, ["d4", "d5 + d0", "d6 + d1", "d2"])),
                                (g, shape, amap(7, ["d4", "d5", "d6", "d3"]))],
                               amap(7, ["d0", "d1", "d2", "d3"]),
                               ["parallel"] * 4 + ["reduction"] * 3,
                               ["%m = arith.mulf %a0, %a1 : f32",
                                "%y = arith.addf %acc, %m : f32"],
                               init=b.zeros(w.shape), prefix="g")
            if x.needs_grad:
                # gx = conv(pad(g), flip(w)), flip(w)[a,b,f,c] = w[2-a,2-b,c,f]
                gp, gpshape = b.pad(g, shape, [0, 1, 1, 0], [0, 1, 1, 0])
                wf = b.generic((3, 3, F, C), [(w.name, w.shape,
                                               amap(4, ["2 - d0", "2 - d1", "d3", "d2"]))],
                               ident(4), ["parallel"] * 4, ["%y = arith.addf %a0, %zero : f32"],
                               prefix="g")
                fz = b.zeros(x.shape)
                gx = b.fresh("g")
                b.emit(f"{gx} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : "
                       f"tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}\n"
                       f"    ins({gp}, {wf} : {tensor_type(gpshape)}, "
                       f"{tensor_type((3, 3, F, C))})\n"
                       f"    outs({fz} : {x.type}) -> {x.type}")
            return [gx, gw]

        def torch_fn(x, w):
            import torch.nn.functional as F_
            return F_.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1),
                             padding=1).permute(0, 2, 3, 1)

        return self.node("conv3x3", [x, w], shape, {"padded": xp}, backward, torch_fn,
                         name=y)

    def avgpool2(self, x):
        """2x2 average pooling, stride 2 (NHWC)."""
        N, H, W, C = x.shape
        assert H % 2 == 0 and W % 2 == 0, x.shape
        shape = (N, H // 2, W // 2, C)
        win = self.empty((2, 2))
        y = self.generic(shape, [(x.name, x.shape, amap(6, ["d0", "d1 * 2 + d4",
                                                            "d2 * 2 + d5", "d3"])),
                                 (win, (2, 2), amap(6, ["d4", "d5"]))],
                         amap(6, ["d0", "d1", "d2", "d3"]), ["parallel"] * 4 + ["reduction"] * 2,
                         ["%m = arith.mulf %a0, %quarter : f32",
                          "%y = arith.addf %acc, %m : f32"], init=self.zeros(shape))

        def backward(b, node, g):
            return [b.generic(x.shape, [(g, shape, amap(4, ["d0", "d1 floordiv 2",
                                                            "d2 floordiv 2", "d3"]))],
                              ident(4), ["parallel"] * 4,
                              ["%y = arith.mulf %a0, %quarter : f32"], prefix="g")]

        def torch_fn(x):
            import torch.nn.functional as F_
            return F_.avg_pool2d(x.permute(0, 3, 1, 2), 2).permute(0, 2, 3, 1)

        return self.node("avgpool2", [x], shape, {}, backward, torch_fn, name=y)

    def upsample2(self, x):
        """Nearest-neighbour 2x upsampling (NHWC)."""
        N, H, W, C = x.shape
        shape = (N, 2 * H, 2 * W, C)
        y = self.generic(shape, [(x.name, x.shape, amap(4, ["d0", "d1 floordiv 2",
                                                            "d2 floordiv 2", "d3"]))],
                         ident(4), ["parallel"] * 4, ["%y = arith.addf %a0, %zero : f32"])

        def backward(b, node, g):
            win = b.empty((2, 2))
            return [b.generic(x.shape, [(g, shape, amap(6, ["d0", "d1 * 2 + d4",
                                                            "d2 * 2 + d5", "d3"])),
                                        (win, (2, 2), amap(6, ["d4", "d5"]))],
                              amap(6, ["d0", "d1", "d2", "d3"]),
                              ["parallel"] * 4 + ["reduction"] * 2,
                              ["%y = arith.addf %acc, %a0 : f32"], init=b.zeros(x.shape),
                              prefix="g")]

        def torch_fn(x):
            return x.repeat_interleave(2, dim=1).repeat_interleave(2, dim=2)

        return self.node("upsample2", [x], shape, {}, backward, torch_fn, name=y)

    def concat(self, a, b_):
        """Concatenation along the last dimension: pad each operand with
        zeros to the full width and add (pure, no insert_slice)."""
        assert a.shape[:-1] == b_.shape[:-1], (a.shape, b_.shape)
        r = a.rank
        C1, C2 = a.shape[-1], b_.shape[-1]
        pa, shape = self.pad(a.name, a.shape, [0] * r, [0] * (r - 1) + [C2])
        pb, _ = self.pad(b_.name, b_.shape, [0] * (r - 1) + [C1], [0] * r)
        y = self.elementwise(shape, [(pa, shape), (pb, shape)],
                             ["%y = arith.addf %a0, %a1 : f32"])

        def backward(b, node, g):
            lead = [f"d{i}" for i in range(r - 1)]
            ga = gb = None
            if a.needs_grad:
                # ga[..., c] = g[..., c + j] over a 1-element window j: reading g
                # with the identity map would make linalg infer the loop
                # range of c from g (C1 + C2) instead of from ga (C1).
                win = b.empty((1,))
                ga = b.generic(a.shape, [(g, shape, amap(r + 1, lead + [f"d{r - 1} + d{r}"])),
                                         (win, (1,), amap(r + 1, [f"d{r}"]))],
                               ident(r, r + 1), ["parallel"] * r + ["reduction"],
                               ["%y = arith.addf %a0, %zero : f32"], prefix="g")
            if b_.needs_grad:
                gb = b.generic(b_.shape, [(g, shape, amap(r, lead + [f"d{r - 1} + {C1}"]))],
                               ident(r), ["parallel"] * r,
                               ["%y = arith.addf %a0, %zero : f32"], prefix="g")
            return [ga, gb]

        import_cat = lambda a, b: __import__("torch").cat([a, b], dim=-1)  # noqa: E731
        return self.node("concat", [a, b_], shape, {}, backward, import_cat, name=y)

    def global_avgpool(self, x):
        """[N, H, W, C] -> [N, C], the mean over H and W."""
        N, H, W, C = x.shape
        shape = (N, C)
        inv = f32(1.0 / (H * W))
        y = self.generic(shape, [(x.name, x.shape, amap(4, ["d0", "d2", "d3", "d1"]))],
                         amap(4, ["d0", "d1"]), ["parallel", "parallel", "reduction", "reduction"],
                         [f"%s = arith.constant {inv} : f32",
                          "%m = arith.mulf %a0, %s : f32",
                          "%y = arith.addf %acc, %m : f32"], init=self.zeros(shape))

        def backward(b, node, g):
            return [b.generic(x.shape, [(g, shape, amap(4, ["d0", "d3"]))], ident(4),
                              ["parallel"] * 4, [f"%s = arith.constant {inv} : f32",
                                                 "%y = arith.mulf %a0, %s : f32"], prefix="g")]

        return self.node("global_avgpool", [x], shape, {}, backward,
                         lambda x: x.mean(dim=(1, 2)), name=y)

    def _bcast(self, r):
        """Map of a [...] row statistic inside a [..., D] loop nest."""
        return amap(r, [f"d{i}" for i in range(r - 1)])

    def layernorm(self, x, gain, shift, eps=1e-5):
        """LayerNorm over the last dim with a gain and a shift."""
        r = x.rank
        D = x.shape[-1]
        lead = x.shape[:-1]
        invd = f32(1.0 / D)
        mean = self.generic(lead, [(x.name, x.shape, ident(r))], self._bcast(r),
                            ["parallel"] * (r - 1) + ["reduction"],
                            [f"%s = arith.constant {invd} : f32",
                             "%m = arith.mulf %a0, %s : f32",
                             "%y = arith.addf %acc, %m : f32"], init=self.zeros(lead))
        xc = self.generic(x.shape, [(x.name, x.shape, ident(r)), (mean, lead, self._bcast(r))],
                          ident(r), ["parallel"] * r, ["%y = arith.subf %a0, %a1 : f32"])
        var = self.generic(lead, [(xc, x.shape, ident(r))], self._bcast(r),
                           ["parallel"] * (r - 1) + ["reduction"],
                           [f"%s = arith.constant {invd} : f32",
                            "%q = arith.mulf %a0, %a0 : f32",
                            "%m = arith.mulf %q, %s : f32",
                            "%y = arith.addf %acc, %m : f32"], init=self.zeros(lead))
        rs = self.generic(lead, [(var, lead, ident(r - 1))], ident(r - 1), ["parallel"] * (r - 1),
                          [f"%e = arith.constant {f32(eps)} : f32",
                           "%v = arith.addf %a0, %e : f32",
                           "%y = math.rsqrt %v : f32"])
        xh = self.generic(x.shape, [(xc, x.shape, ident(r)), (rs, lead, self._bcast(r))],
                          ident(r), ["parallel"] * r, ["%y = arith.mulf %a0, %a1 : f32"])
        gmap = amap(r, [f"d{r - 1}"])
        y = self.generic(x.shape, [(xh, x.shape, ident(r)), (gain.name, gain.shape, gmap),
                                   (shift.name, shift.shape, gmap)],
                         ident(r), ["parallel"] * r,
                         ["%m = arith.mulf %a0, %a1 : f32", "%y = arith.addf %m, %a2 : f32"])

        def backward(b, node, g):
            x, gain, shift = node.inputs
            red = ["reduction"] * (r - 1) + ["parallel"]
            dmap = amap(r, [f"d{r - 1}"])
            gg = gs = gx = None
            if gain.needs_grad:
                gg = b.generic(gain.shape, [(g, x.shape, ident(r)), (xh, x.shape, ident(r))],
                               dmap, red, ["%m = arith.mulf %a0, %a1 : f32",
                                           "%y = arith.addf %acc, %m : f32"],
                               init=b.zeros(gain.shape), prefix="g")
            if shift.needs_grad:
                gs = b.generic(shift.shape, [(g, x.shape, ident(r))], dmap, red,
                               ["%y = arith.addf %acc, %a0 : f32"],
                               init=b.zeros(shift.shape), prefix="g")
            if x.needs_grad:
                # dxh = g * gain; dx = rs * (dxh - mean(dxh) - xh * mean(dxh * xh))
                dxh = b.generic(x.shape, [(g, x.shape, ident(r)), (gain.name, gain.shape, gmap)],
                                ident(r), ["parallel"] * r, ["%y = arith.mulf %a0, %a1 : f32"],
                                prefix="g")
                rowred = ["parallel"] * (r - 1) + ["reduction"]
                m1 = b.generic(lead, [(dxh, x.shape, ident(r))], self._bcast(r), rowred,
                               [f"%s = arith.constant {invd} : f32",
                                "%m = arith.mulf %a0, %s : f32",
                                "%y = arith.addf %acc, %m : f32"], init=b.zeros(lead), prefix="g")
                m2 = b.generic(lead, [(dxh, x.shape, ident(r)), (xh, x.shape, ident(r))],
                               self._bcast(r), rowred,
                               [f"%s = arith.constant {invd} : f32",
                                "%p = arith.mulf %a0, %a1 : f32",
                                "%m = arith.mulf %p, %s : f32",
                                "%y = arith.addf %acc, %m : f32"], init=b.zeros(lead), prefix="g")
                gx = b.generic(x.shape, [(dxh, x.shape, ident(r)), (m1, lead, self._bcast(r)),
                                         (xh, x.shape, ident(r)), (m2, lead, self._bcast(r)),
                                         (rs, lead, self._bcast(r))],
                               ident(r), ["parallel"] * r,
                               ["%u = arith.subf %a0, %a1 : f32",
                                "%v = arith.mulf %a2, %a3 : f32",
                                "%w = arith.subf %u, %v : f32",
                                "%y = arith.mulf %w, %a4 : f32"], prefix="g")
            return [gx, gg, gs]

        def torch_fn(x, gain, shift):
            import torch.nn.functional as F_
            return F_.layer_norm(x, (D,), gain, shift, eps)

        return self.node("layernorm", [x, gain, shift], x.shape,
                         {"xh": xh, "rs": rs}, backward, torch_fn, name=y)

    def attention(self, q, k, v):
        """Single-head softmax attention per sequence: q, k, v [B, S, D] ->
        softmax(q k^T / sqrt(D)) v, the softmax over keys (max-shifted)."""
        B, S, D = q.shape
        assert k.shape == q.shape == v.shape
        sc = f32(1.0 / math.sqrt(D))
        sshape = (B, S, S)
        # s[b,i,j] = sc * sum_d q[b,i,d] k[b,j,d]     loops (b, i, j, d)
        s = self.generic(sshape, [(q.name, q.shape, amap(4, ["d0", "d1", "d3"])),
                                  (k.name, k.shape, amap(4, ["d0", "d2", "d3"]))],
                         amap(4, ["d0", "d1", "d2"]), ["parallel"] * 3 + ["reduction"],
                         [f"%s = arith.constant {sc} : f32",
                          "%m = arith.mulf %a0, %a1 : f32",
                          "%n = arith.mulf %m, %s : f32",
                          "%y = arith.addf %acc, %n : f32"], init=self.zeros(sshape))
        row = amap(3, ["d0", "d1"])
        mx = self.generic((B, S), [(s, sshape, ident(3))], row,
                          ["parallel", "parallel", "reduction"],
                          ["%y = arith.maximumf %acc, %a0 : f32"],
                          init=self.zeros((B, S), "%neg_inf"))
        ex = self.generic(sshape, [(s, sshape, ident(3)), (mx, (B, S), row)], ident(3),
                          ["parallel"] * 3, ["%d = arith.subf %a0, %a1 : f32",
                                             "%y = math.exp %d : f32"])
        sm = self.generic((B, S), [(ex, sshape, ident(3))], row,
                          ["parallel", "parallel", "reduction"],
                          ["%y = arith.addf %acc, %a0 : f32"], init=self.zeros((B, S)))
        p = self.generic(sshape, [(ex, sshape, ident(3)), (sm, (B, S), row)], ident(3),
                         ["parallel"] * 3, ["%y = arith.divf %a0, %a1 : f32"])
        # o[b,i,d] = sum_j p[b,i,j] v[b,j,d]     loops (b, i, d, j)
        o = self.generic(q.shape, [(p, sshape, amap(4, ["d0", "d1", "d3"])),
                                   (v.name, v.shape, amap(4, ["d0", "d3", "d2"]))],
                         amap(4, ["d0", "d1", "d2"]), ["parallel"] * 3 + ["reduction"],
                         ["%m = arith.mulf %a0, %a1 : f32",
                          "%y = arith.addf %acc, %m : f32"], init=self.zeros(q.shape))

        def backward(b, node, g):
            q, k, v = node.inputs
            mm = ["%m = arith.mulf %a0, %a1 : f32", "%y = arith.addf %acc, %m : f32"]
            red4 = ["parallel"] * 3 + ["reduction"]
            # dp[b,i,j] = sum_d g[b,i,d] v[b,j,d]         loops (b, i, j, d)
            dp = b.generic(sshape, [(g, q.shape, amap(4, ["d0", "d1", "d3"])),
                                    (v.name, v.shape, amap(4, ["d0", "d2", "d3"]))],
                           amap(4, ["d0", "d1", "d2"]), red4, mm, init=b.zeros(sshape), prefix="g")
            gv = None
            if v.needs_grad:   # dv[b,j,d] = sum_i p[b,i,j] g[b,i,d]   loops (b, j, d, i)
                gv = b.generic(v.shape, [(p, sshape, amap(4, ["d0", "d3", "d1"])),
                                         (g, q.shape, amap(4, ["d0", "d3", "d2"]))],
                               amap(4, ["d0", "d1", "d2"]), red4, mm, init=b.zeros(v.shape),
                               prefix="g")
            # ds = sc * p * (dp - sum_j dp * p)
            rsum = b.generic((B, S), [(dp, sshape, ident(3)), (p, sshape, ident(3))], row,
                             ["parallel", "parallel", "reduction"], mm,
                             init=b.zeros((B, S)), prefix="g")
            ds = b.generic(sshape, [(dp, sshape, ident(3)), (rsum, (B, S), row),
                                    (p, sshape, ident(3))], ident(3), ["parallel"] * 3,
                           [f"%s = arith.constant {sc} : f32",
                            "%d = arith.subf %a0, %a1 : f32",
                            "%m = arith.mulf %d, %a2 : f32",
                            "%y = arith.mulf %m, %s : f32"], prefix="g")
            gq = gk = None
            if q.needs_grad:   # dq[b,i,d] = sum_j ds[b,i,j] k[b,j,d]   loops (b, i, d, j)
                gq = b.generic(q.shape, [(ds, sshape, amap(4, ["d0", "d1", "d3"])),
                                         (k.name, k.shape, amap(4, ["d0", "d3", "d2"]))],
                               amap(4, ["d0", "d1", "d2"]), red4, mm, init=b.zeros(q.shape),
                               prefix="g")
            if k.needs_grad:   # dk[b,j,d] = sum_i ds[b,i,j] q[b,i,d]   loops (b, j, d, i)
                gk = b.generic(k.shape, [(ds, sshape, amap(4, ["d0", "d3", "d1"])),
                                         (q.name, q.shape, amap(4, ["d0", "d3", "d2"]))],
                               amap(4, ["d0", "d1", "d2"]), red4, mm, init=b.zeros(k.shape),
                               prefix="g")
            return [gq, gk, gv]

        def torch_fn(q, k, v):
            s = (q @ k.transpose(1, 2)) / math.sqrt(D)
            return s.softmax(dim=-1) @ v

        return self.node("attention", [q, k, v], q.shape, {"p": p}, backward, torch_fn,
                         name=o)

    def mse(self, y, t):
        """mean((y - t)^2) as a 0-d tensor."""
        r = y.rank
        n = y.numel
        d = self.elementwise(y.shape, [(y.name, y.shape), (t.name, t.shape)],
                             ["%y = arith.subf %a0, %a1 : f32"])
        sse = self.generic((), [(d, y.shape, ident(r))], amap(r, []), ["reduction"] * r,
                           ["%q = arith.mulf %a0, %a0 : f32",
                            "%y = arith.addf %acc, %q : f32"], init=self.zeros(()))
        loss = self.generic((), [(sse, (), amap(0, []))], amap(0, []), [],
                            [f"%s = arith.constant {f32(1.0 / n)} : f32",
                             "%y = arith.mulf %a0, %s : f32"])

        def backward(b, node, g):
            # g is 1 (the loss is the output): dy = (2/n) d
            return [b.elementwise(y.shape, [(d, y.shape)],
                                  [f"%s = arith.constant {f32(2.0 / n)} : f32",
                                   "%y = arith.mulf %a0, %s : f32"], prefix="g"), None]

        return self.node("mse", [y, t], (), {"d": d}, backward,
                         lambda y, t: ((y - t) ** 2).mean(), name=loss)

    # ---- the step -------------------------------------------------------------
    def finish(self, loss):
        """Writes the backward and returns the step's MLIR text."""
        assert loss.shape == () and self.nodes and self.nodes[-1].output is loss
        self.em.lines = self.bwd
        grads = {}
        for node in reversed(self.nodes):
            g = "%seed" if node.output is loss else grads.get(node.output.name)
            if g is None:
                continue   # nothing the loss depends on reads this value
            for v, gv in zip(node.inputs, node.backward(self, node, g)):
                if gv is None or not v.needs_grad:
                    continue
                if v.name in grads:
                    grads[v.name] = self.add_grads(grads[v.name], gv, v.shape)
                else:
                    grads[v.name] = gv
        missing = [p.name for p in self.params if p.name not in grads]
        if missing:
            raise ValueError(f"parameters {missing} do not affect the loss")

        res_types = [tensor_type(())] + [p.type for p in self.params]
        sig = ", ".join(f"{v.name}: {v.type}" for v, _ in self.args)
        out = [f"// {line}" if line else "//" for line in self.comment]
        out += [f"func.func @{self.name}_step({sig})",
                f"    -> ({', '.join(res_types)})",
                "    attributes {ckpt.loss = 0 : i64} {",
                "  %zero = arith.constant 0.0 : f32",
                "  %one = arith.constant 1.0 : f32",
                "  %quarter = arith.constant 0.25 : f32",
                "  %neg_inf = arith.constant 0xFF800000 : f32",
                "  // Forward."]
        out += self.fwd
        out += ["  // Backward."]
        out += self.bwd
        rets = ", ".join([loss.name] + [grads[p.name] for p in self.params])
        out += [f"  return {rets} : {', '.join(res_types)}", "}", ""]
        text = "\n".join(out)
        # The seed gradient of the loss is never materialised: the loss's
        # own backward (mse) ignores it.
        assert "%seed" not in "\n".join(self.bwd)
        # Drop the constants the step does not use.
        for c in ("%one", "%quarter", "%neg_inf"):
            if text.count(c) == 1:
                text = "\n".join(l for l in text.split("\n") if not l.startswith(f"  {c} ="))
        return text

    # ---- the reference ----------------------------------------------------------
    def torch_loss(self, values):
        """Replays the tape in torch. `values` maps argument names (with
        the %) to torch tensors; returns the loss."""
        env = dict(values)
        for node in self.nodes:
            env[node.output.name] = node.torch_fn(*[env[v.name] for v in node.inputs])
        return env[self.nodes[-1].output.name]
