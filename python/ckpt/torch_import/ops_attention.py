"""Handlers of PyTorch 2's fused attention: `scaled_dot_product_attention` as
the CPU kernel runs it, forward and backward.

Part of ckpt.torch_import (see its docstring).

On the CPU, `F.scaled_dot_product_attention` traces to
`_scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal,
attn_mask=, scale=)`, which returns the output and the logsumexp of each
row of scores, and its backward
`_scaled_dot_product_flash_attention_for_cpu_backward(dO, q, k, v, out, lse,
...)`, which reads only those: the probabilities are recomputed from q, k and
the logsumexp, never kept. The import keeps that contract, so the step saves
for the backward what the real kernel saves (out [B, H, L, Ev] and the float
logsumexp [B, H, L]); within each op the scores [B, H, L, S] are a transient
buffer (the CPU lowering has no tiled kernel that avoids them).

Shapes: q [B, H, L, E], k [B, Hk, S, E], v [B, Hk, S, Ev] with H a multiple
of Hk (grouped-query attention, `enable_gqa=True`: head h reads key/value
head h // (H / Hk)). A boolean mask arrives as an additive float mask (a
`where` before the op); an additive mask broadcasts to [B, H, L, S].
`is_causal` masks s > l (the top-left diagonal, as PyTorch). A query row
whose every key is masked (padding) gets output 0, logsumexp 0 and zero
gradients, as the kernel gives it. The scale
defaults to 1/sqrt(E). Dropout inside the kernel (`dropout_p > 0`, which the
CPU kernel does not take) is not supported.

Forward, per (b, h, l):  s = scale * q.k + mask;  m = max_s s;
lse = m + log(sum_s exp(s - m));  out = sum_s exp(s - lse) v.
Backward:  P = exp(s - lse);  dV = sum P dO;  D = sum_e dO * out;
dS = scale * P * (dO.v - D);  dQ = dS k;  dK = sum dS q (sums over the heads
of a group for dK and dV).
"""

import math

from .emit import _is_float
from .ops import _Unsupported, _handler


def _attention_args(tr, node, first, flags):
    """The operands and attributes of either op: q, k, v views (arguments
    first..first+2), the causal flag (dropout_p and is_causal are arguments
    flags, flags+1), the mask view (or None), the scale and the group size."""
    a, kw = node.args, node.kwargs
    q, k, v = (tr.view(x) for x in a[first:first + 3])
    rest = list(a[flags:])
    dropout = rest[0] if rest else kw.get("dropout_p", 0.0)
    causal = rest[1] if len(rest) > 1 else kw.get("is_causal", False)
    mask = kw.get("attn_mask")
    scale = kw.get("scale")
    if dropout:
        raise _Unsupported()
    if not all(_is_float(t.dt) for t in (q, k, v)) or not q.dt == k.dt == v.dt:
        raise _Unsupported()
    if len(q.shape) != 4 or len(k.shape) != 4 or len(v.shape) != 4:
        raise _Unsupported()
    b, h, _, e = q.shape
    hk = k.shape[1]
    if k.shape[0] != b or v.shape[:3] != k.shape[:3] or k.shape[3] != e or h % hk:
        raise _Unsupported()
    if scale is None:
        scale = 1.0 / math.sqrt(e)
    m = None
    if mask is not None:
        m = tr.view(mask)
        full = (b, h, q.shape[2], k.shape[2])
        if len(m.shape) > 4 or any(d not in (1, f) for d, f in zip(reversed(m.shape), reversed(full))):
            raise _Unsupported()
        if not _is_float(m.dt):
            raise _Unsupported()
    return q, k, v, bool(causal), m, float(scale), h // hk


def _kv(g):
    """The key/value head of query head d1."""
    return "d1" if g == 1 else f"d1 floordiv {g}"


def _mask_exprs(m):
    """Indexing of a mask broadcast to [B, H, L, S] (dims d0..d3)."""
    full = ["d0", "d1", "d2", "d3"]
    off = 4 - len(m.shape)
    exprs = [full[off + i] if m.shape[i] != 1 else "0" for i in range(len(m.shape))]
    return m.access(exprs)


def _scores(em, q, k, causal, m, scale, g, base):
    """s [B, H, L, S] = scale * q k^T + mask, -inf where causal masks."""
    dt = q.dt
    b, h, lq, _ = q.shape
    s = k.shape[2]
    acc = em.fill(0.0, (b, h, lq, s), dt, base + "_qk")
    # dims (b, h, l, s, e)
    qk = em.generic(base + "_qk", 5, ["parallel"] * 4 + ["reduction"],
                    [(q.root, q.access(["d0", "d1", "d2", "d4"])),
                     (k.root, k.access(["d0", _kv(g), "d3", "d4"]))],
                    [(acc, ["d0", "d1", "d2", "d3"])],
                    lambda r, a, o: [r.add(o[0], r.mul(a[0], a[1], dt), dt)])[0]
    if scale == 1.0 and m is None and not causal:
        return qk
    ids = ["d0", "d1", "d2", "d3"]
    ins = [(qk, ids)]
    if m is not None:
        ins.append((m.root, _mask_exprs(m)))

    def body(r, a, o):
        x = a[0] if scale == 1.0 else r.mul(a[0], r.c(scale, dt), dt)
        if m is not None:
            x = r.add(x, r.cast(a[1], m.dt, dt), dt)
        if causal:
            later = r.op(f"arith.cmpi ugt, {r.index(3)}, {r.index(2)} : index")
            x = r.select(later, r.c(-math.inf, dt), x, dt)
        return [x]
    e = em.empty((b, h, lq, s), dt, base + "_s")
    return em.generic(base + "_s", 4, ["parallel"] * 4, ins, [(e, ids)], body)[0]


def _logsumexp(em, s, lse_dt, base):
    """lse [B, H, L] of the scores' rows, in lse_dt (float32 for float32
    inputs, as the kernel)."""
    dt = s.dt
    shape = s.shape[:3]
    ids, red = ["d0", "d1", "d2", "d3"], ["d0", "d1", "d2"]
    mx = em.fill(-math.inf, shape, dt, base + "_max")
    mx = em.generic(base + "_max", 4, ["parallel"] * 3 + ["reduction"], [(s, ids)],
                    [(mx, red)], lambda r, a, o: [r.max(o[0], a[0], dt)])[0]
    # A row that masks every key (a padded query) has max -inf: the kernel
    # gives it lse 0, so that its probabilities exp(-inf - 0), its output
    # and its gradients are 0, not NaN.
    def masked(r, m):
        return r.cmp("eq", m, r.c(-math.inf, dt), dt)

    def sum_body(r, a, o):
        m = r.select(masked(r, a[1]), r.c(0.0, dt), a[1], dt)
        return [r.add(o[0], r.math("exp", r.sub(a[0], m, dt), dt), dt)]

    def lse_body(r, a, o):
        lse = r.add(a[0], r.math("log", a[1], dt), dt)
        return [r.cast(r.select(masked(r, a[0]), r.c(0.0, dt), lse, dt), dt, lse_dt)]
    tot = em.fill(0.0, shape, dt, base + "_sum")
    tot = em.generic(base + "_sum", 4, ["parallel"] * 3 + ["reduction"],
                     [(s, ids), (mx, red)], [(tot, red)], sum_body)[0]
    e = em.empty(shape, lse_dt, base + "_lse")
    return em.generic(base + "_lse", 3, ["parallel"] * 3, [(mx, red), (tot, red)], [(e, red)],
                      lse_body)[0]


@_handler("_scaled_dot_product_flash_attention_for_cpu.default")
def _h_sdpa_cpu(tr, node, base, metas):
    em = tr.em
    q, k, v, causal, m, scale, g = _attention_args(tr, node, 0, 3)
    (oshape, dt), (_, lse_dt) = metas[0], metas[1]
    s = _scores(em, q, k, causal, m, scale, g, base)
    lse = _logsumexp(em, s, lse_dt, base)
    acc = em.fill(0.0, oshape, dt, base + "_out")
    # dims (b, h, l, ev, s)
    out = em.generic(base + "_out", 5, ["parallel"] * 4 + ["reduction"],
                     [(s, ["d0", "d1", "d2", "d4"]), (lse, ["d0", "d1", "d2"]),
                      (v.root, v.access(["d0", _kv(g), "d4", "d3"]))],
                     [(acc, ["d0", "d1", "d2", "d3"])],
                     lambda r, a, o: [r.add(o[0], r.mul(r.math("exp", r.sub(
                         a[0], r.cast(a[1], lse_dt, dt), dt), dt), a[2], dt), dt)])[0]
    return (out, lse)


@_handler("_scaled_dot_product_flash_attention_for_cpu_backward.default")
def _h_sdpa_cpu_backward(tr, node, base, metas):
    em = tr.em
    a = node.args
    do, out, lse = tr.view(a[0]), tr.view(a[4]), tr.mat(a[5], base + "_lse")
    q, k, v, causal, m, scale, g = _attention_args(tr, node, 1, 6)
    dt = q.dt
    b, h, lq, e = q.shape
    hk, sk, ev = k.shape[1], k.shape[2], v.shape[3]
    ids = ["d0", "d1", "d2", "d3"]
    s = _scores(em, q, k, causal, m, scale, g, base)
    pe = em.empty((b, h, lq, sk), dt, base + "_p")
    p = em.generic(base + "_p", 4, ["parallel"] * 4, [(s, ids), (lse, ids[:3])], [(pe, ids)],
                   lambda r, x, o: [r.math("exp", r.sub(x[0], r.cast(x[1], lse.dt, dt), dt),
                                           dt)])[0]
    mac = (lambda r, x, o: [r.add(o[0], r.mul(x[0], x[1], dt), dt)])
    # dV [B, Hk, S, Ev]: dims (b, hk, s, ev, l) or, with groups, (b, hk, s,
    # ev, j, l) where j picks the query head hk * g + j.
    nd, qh, ql = (5, "d1", "d4") if g == 1 else (6, f"d1 * {g} + d4", "d5")
    red = ["parallel"] * 4 + ["reduction"] * (nd - 4)
    # j's range, for the loop bounds (as the window of a pooling)
    group = [] if g == 1 else [(em.empty((g,), dt, base + "_group"), ["d4"])]
    dv = em.generic(base + "_dv", nd, red,
                    [(p, ["d0", qh, ql, "d2"]), (do.root, do.access(["d0", qh, ql, "d3"]))] + group,
                    [(em.fill(0.0, (b, hk, sk, ev), dt, base + "_dv"), ids)], mac)[0]
    # D [B, H, L] = sum_ev dO * out
    dd = em.generic(base + "_d", 4, ["parallel"] * 3 + ["reduction"],
                    [(do.root, do.access(ids)), (out.root, out.access(ids))],
                    [(em.fill(0.0, (b, h, lq), dt, base + "_d"), ids[:3])], mac)[0]
    # dP [B, H, L, S] = dO v^T: dims (b, h, l, s, ev)
    dp = em.generic(base + "_dp", 5, ["parallel"] * 4 + ["reduction"],
                    [(do.root, do.access(["d0", "d1", "d2", "d4"])),
                     (v.root, v.access(["d0", _kv(g), "d3", "d4"]))],
                    [(em.fill(0.0, (b, h, lq, sk), dt, base + "_dp"), ids)], mac)[0]
    # dS = scale * P * (dP - D)
    ds = em.generic(base + "_ds", 4, ["parallel"] * 4, [(p, ids), (dp, ids), (dd, ids[:3])],
                    [(em.empty((b, h, lq, sk), dt, base + "_ds"), ids)],
                    lambda r, x, o: [r.mul(r.mul(x[0], r.sub(x[1], x[2], dt), dt),
                                           r.c(scale, dt), dt)])[0]
    # dQ [B, H, L, E] = dS k: dims (b, h, l, e, s)
    dq = em.generic(base + "_dq", 5, ["parallel"] * 4 + ["reduction"],
                    [(ds, ["d0", "d1", "d2", "d4"]), (k.root, k.access(["d0", _kv(g), "d4", "d3"]))],
                    [(em.fill(0.0, (b, h, lq, e), dt, base + "_dq"), ids)], mac)[0]
    # dK [B, Hk, S, E] = sum dS^T q: dims as dV's
    dk = em.generic(base + "_dk", nd, red,
                    [(ds, ["d0", qh, ql, "d2"]), (q.root, q.access(["d0", qh, ql, "d3"]))] + group,
                    [(em.fill(0.0, (b, hk, sk, e), dt, base + "_dk"), ids)], mac)[0]
    return (dq, dk, dv)
