#!/usr/bin/env python3
"""Numerically validate a hand-written training step (test/Inputs/steps/*.mlir).

For a step file holding one `func.func @<name>_step(...)` this script
  1. checks the file's conventions (one func, `ckpt.loss = 0`, no scf/cf ops,
     static f32 tensor arguments, loss first) and that the signature matches
     the numpy model registered under the same name below;
  2. draws deterministic inputs (fixed seed, uniform in [-0.5, 0.5], as f32;
     LayerNorm gains get +1);
  3. writes a wrapper module: the step (with `ckpt.loss` stripped) plus a
     `@main` that materializes the inputs as bit-exact hex `arith.constant
     dense<"0x...">` tensors, calls the step and prints every result with
     `printMemrefF32`;
  4. lowers it with stock mlir-opt and runs it with mlir-runner;
  5. compares every printed result with an independent float64 numpy
     implementation of the model's forward, loss and analytic backward, and
     checks that numpy backward against central finite differences (float64)
     on a few random coordinates per weight.
With --remat BUDGET it checks ckpt's own path instead of steps 3-4, with
the steps of python/ckpt/remat.py (ckpt-opt and ckpt-run on PATH): the step
is wrapped, planned at BUDGET, rewritten (`--ckpt-rematerialize
--ckpt-insert-frees`, which must recompute something), lowered by
`--ckpt-lower-to-cpu` and run by `ckpt-run --seed=N --print-outputs`; the numpy reference is evaluated on ckpt-run's own inputs
(its splitmix64 stream, reproduced by ckpt.mlir_runner.splitmix_inputs)
and compared with ckpt-run's printed outputs, with the same tolerances.
Prints `PASS <file> ...` and exits 0 when everything agrees, otherwise prints
`FAIL <file>: <reason>` and exits 1.

Usage: check_step.py STEP.mlir [--seed N] [--keep DIR] [--mlir-bin DIR]
                               [--mlir-lib DIR] [--verbose]
                               [--remat BUDGET]
Reported errors: "max abs err" is max |mlir - numpy| over all results;
"max rel err" is max |mlir - numpy| / |numpy| over the entries whose magnitude
is at least 1% of their tensor's largest entry (tiny entries are judged by the
absolute tolerance only, see RTOL/ATOL below).
"""

import argparse
import os
import re
import sys
import tempfile

import numpy as np

# --------------------------------------------------------------------------
# Tolerances.
# MLIR (f32) vs numpy (float64 on the same f32 inputs): elementwise
#   |mlir - ref| <= ATOL * max(1, max|ref|) + RTOL * |ref|
# (the absolute term is scaled by the tensor's magnitude so that entries that
# are small through cancellation are judged at f32 resolution of the tensor).
# The wrapper/lowering/printing harness is ckpt.mlir_runner (shared with the
# model zoo and the importer tests) and the plan/rewrite/lower/run steps of
# --remat are ckpt.remat, both imported from the source tree: `import ckpt`
# loads no compiled extension, so this script needs no built package.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
from ckpt import mlir_runner as _runner  # noqa: E402
from ckpt import remat as _remat  # noqa: E402
CheckError = _runner.CheckError
strip_ckpt_attr, mlir_tensor_type, hex_constant = (
    _runner.strip_ckpt_attr, _runner.mlir_tensor_type, _runner.hex_constant)
build_wrapper, parse_printed, run_mlir, splitmix_inputs = (
    _runner.build_wrapper, _runner.parse_printed, _runner.run_mlir,
    _runner.splitmix_inputs)
PIPELINE = _runner.PIPELINE

RTOL = 1e-4
ATOL = 1e-5
# numpy analytic gradient vs central finite differences in float64.
FD_EPS = 1e-6
FD_RTOL = 1e-5
FD_ATOL = 1e-7
FD_COORDS = 6  # random coordinates checked per weight


# --------------------------------------------------------------------------
# Reference models (float64). Each `fwd_bwd(p)` takes a dict of arrays and
# returns (loss, {weight_name: gradient}); `loss_only(p)` returns the loss.

def relu(a):
    return np.maximum(a, 0.0)


# ---- MLP ------------------------------------------------------------------
def mlp_loss(p):
    return mlp_fwd_bwd(p, grads=False)[0]


def mlp_fwd_bwd(p, grads=True):
    x, t, w1, w2, w3 = p["x"], p["t"], p["w1"], p["w2"], p["w3"]
    z1 = x @ w1
    h1 = np.tanh(z1)
    z2 = h1 @ w2
    h2 = relu(z2)
    y = h2 @ w3
    d = y - t
    loss = np.mean(d * d)
    if not grads:
        return loss, None
    dy = 2.0 * d / d.size
    dw3 = h2.T @ dy
    dh2 = dy @ w3.T
    dz2 = dh2 * (z2 > 0)
    dw2 = h1.T @ dz2
    dh1 = dz2 @ w2.T
    dz1 = dh1 * (1.0 - h1 * h1)
    dw1 = x.T @ dz1
    return loss, {"w1": dw1, "w2": dw2, "w3": dw3}


# ---- ResNet ---------------------------------------------------------------
def conv3x3(x, w):
    """NHWC x HWCF, stride 1, zero padding 1 ('same')."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, wd, w.shape[3]))
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("nhwc,cf->nhwf", xp[:, kh:kh + h, kw:kw + wd, :], w[kh, kw])
    return out


def conv3x3_bwd(x, w, dout, need_dx=True):
    """Gradients of conv3x3 by scatter-adding each tap (no flipped conv)."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    dw = np.zeros_like(w)
    dxp = np.zeros_like(xp)
    for kh in range(3):
        for kw in range(3):
            dw[kh, kw] = np.einsum("nhwc,nhwf->cf", xp[:, kh:kh + h, kw:kw + wd, :], dout)
            if need_dx:
                dxp[:, kh:kh + h, kw:kw + wd, :] += np.einsum("nhwf,cf->nhwc", dout, w[kh, kw])
    return (dxp[:, 1:-1, 1:-1, :] if need_dx else None), dw


def resnet_loss(p):
    return resnet_fwd_bwd(p, grads=False)[0]


def resnet_fwd_bwd(p, grads=True):
    x, t = p["x"], p["t"]
    c0 = conv3x3(x, p["w0"])
    h0 = relu(c0)
    saved = []
    h = h0
    for a, b in (("wa1", "wb1"), ("wa2", "wb2")):
        u = conv3x3(h, p[a])
        r = relu(u)
        v = conv3x3(r, p[b])
        s = v + h
        saved.append((h, u, r, s))
        h = relu(s)
    hw = h.shape[1] * h.shape[2]
    g = h.sum(axis=(1, 2)) / hw            # global average pool [N, C]
    y = g @ p["wf"]
    d = y - t
    loss = np.sum(d * d)
    if not grads:
        return loss, None
    out = {}
    dy = 2.0 * d
    out["wf"] = g.T @ dy
    dg = dy @ p["wf"].T
    dh = np.broadcast_to(dg[:, None, None, :] / hw, h.shape).copy()
    for (a, b), (hin, u, r, s) in reversed(list(zip((("wa1", "wb1"), ("wa2", "wb2")), saved))):
        ds = dh * (s > 0)
        dr, out[b] = conv3x3_bwd(r, p[b], ds)
        du = dr * (u > 0)
        dhin, out[a] = conv3x3_bwd(hin, p[a], du)
        dh = dhin + ds
    dc0 = dh * (c0 > 0)
    _, out["w0"] = conv3x3_bwd(x, p["w0"], dc0, need_dx=False)
    return loss, out


# ---- Transformer block ----------------------------------------------------
LN_EPS = 1e-5


def layernorm(a, g, b):
    mu = a.mean(axis=1, keepdims=True)
    xc = a - mu
    rs = 1.0 / np.sqrt((xc * xc).mean(axis=1, keepdims=True) + LN_EPS)
    xh = xc * rs
    return xh * g + b, xh, rs


def layernorm_bwd(dn, xh, rs, g):
    """Returns (da, dg, db), written from the chain rule through mu and var
    (not the compact closed form used in the MLIR step)."""
    dxh = dn * g
    nd = xh.shape[1]
    xc = xh / rs
    dvar = np.sum(dxh * xc, axis=1, keepdims=True) * (-0.5) * rs ** 3
    dmu = -np.sum(dxh * rs, axis=1, keepdims=True) + dvar * np.mean(-2.0 * xc, axis=1, keepdims=True)
    da = dxh * rs + dvar * 2.0 * xc / nd + dmu / nd
    return da, np.sum(dn * xh, axis=0), np.sum(dn, axis=0)


def transformer_loss(p):
    return transformer_fwd_bwd(p, grads=False)[0]


def transformer_fwd_bwd(p, grads=True):
    x, t = p["x"], p["t"]
    wq, wk, wv, wo, w1, w2 = (p[k] for k in ("wq", "wk", "wv", "wo", "w1", "w2"))
    scale = 1.0 / np.sqrt(x.shape[1])
    n1, xh1, rs1 = layernorm(x, p["g1"], p["b1"])
    q = n1 @ wq
    k = n1 @ wk
    v = n1 @ wv
    s = (q @ k.T) * scale
    e = np.exp(s - s.max(axis=1, keepdims=True))
    pr = e / e.sum(axis=1, keepdims=True)
    a = pr @ v
    o = a @ wo
    h = x + o
    n2, xh2, rs2 = layernorm(h, p["g2"], p["b2"])
    z = n2 @ w1
    m = relu(z)
    y = h + m @ w2
    d = y - t
    loss = np.sum(d * d)
    if not grads:
        return loss, None
    dy = 2.0 * d
    dw2 = m.T @ dy
    dm = dy @ w2.T
    dz = dm * (z > 0)
    dw1 = n2.T @ dz
    dn2 = dz @ w1.T
    dhn, dg2, db2 = layernorm_bwd(dn2, xh2, rs2, p["g2"])
    dh = dy + dhn
    dwo = a.T @ dh
    da = dh @ wo.T
    dpr = da @ v.T
    dv = pr.T @ da
    # Softmax backward via its Jacobian diag(p) - p p^T, row by row.
    ds = np.stack([(np.diag(pr[i]) - np.outer(pr[i], pr[i])) @ dpr[i]
                   for i in range(pr.shape[0])])
    dq = (ds @ k) * scale
    dk = (ds.T @ q) * scale
    dn1 = dq @ wq.T + dk @ wk.T + dv @ wv.T
    _, dg1, db1 = layernorm_bwd(dn1, xh1, rs1, p["g1"])
    return loss, {"wq": n1.T @ dq, "wk": n1.T @ dk, "wv": n1.T @ dv,
                  "wo": dwo, "w1": dw1, "w2": dw2,
                  "g1": dg1, "b1": db1, "g2": dg2, "b2": db2}


# ---- Generated deep MLP (gen_mlp.py): @mlp<D>_step -----------------------
def deep_mlp_model(name, args, text):
    """Model for a step written by gen_mlp.py, derived from its signature
    (x[B x I], t[B x O], w1[I x W], ..., w<D>[W x O]) and from the order of
    the hidden activations (math.tanh / arith.maximumf) in its forward pass.
    Weights are drawn with scale sqrt(12 / fan_in) (variance 1 / fan_in) so
    that the deep tanh stack does not saturate."""
    depth = int(re.fullmatch(r"mlp(\d+)_step", name).group(1))
    names = ["x", "t"] + [f"w{i}" for i in range(1, depth + 1)]
    if [a for a, _ in args] != names:
        raise CheckError(f"@{name}: arguments {[a for a, _ in args]} != {names}")
    spec = [(a, s) for a, s in args]
    fwd = re.sub(r"//[^\n]*", "", text.split("// Forward.", 1)[-1].split("// Backward.", 1)[0])
    acts = ["tanh" if a == "math.tanh" else "relu"
            for a in re.findall(r"math\.tanh|arith\.maximumf", fwd)]
    if len(acts) != depth - 1:
        raise CheckError(f"@{name}: found {len(acts)} hidden activations, expected {depth - 1}")
    wnames = names[2:]

    def fwd_bwd(p, grads=True):
        hs, zs = [p["x"]], []
        for i in range(1, depth):
            zs.append(hs[-1] @ p[f"w{i}"])
            hs.append(np.tanh(zs[-1]) if acts[i - 1] == "tanh" else relu(zs[-1]))
        d = hs[-1] @ p[f"w{depth}"] - p["t"]
        loss = np.mean(d * d)
        if not grads:
            return loss, None
        out = {}
        dz = 2.0 * d / d.size
        for i in range(depth, 0, -1):
            out[f"w{i}"] = hs[i - 1].T @ dz
            if i > 1:
                dh = dz @ p[f"w{i}"].T
                dz = dh * (1.0 - hs[i - 1] ** 2) if acts[i - 2] == "tanh" else dh * (zs[i - 2] > 0)
        return loss, out

    scale = {w: float(np.sqrt(12.0 / dict(spec)[w][0])) for w in wnames}
    return spec, wnames, fwd_bwd, lambda p: fwd_bwd(p, grads=False)[0], scale


# Registry: function name -> (arguments in order as (name, shape), names of
# the weights whose gradients are results 1.., fwd_bwd, loss_only).
# Every argument is drawn uniform in [-0.5, 0.5] (as f32), plus INIT_OFFSET
# for the LayerNorm gains (so they start around 1).
INIT_OFFSET = {"g1": 1.0, "g2": 1.0}
MODELS = {
    "mlp_step": (
        [("x", (8, 32)), ("t", (8, 10)), ("w1", (32, 64)), ("w2", (64, 64)),
         ("w3", (64, 10))],
        ["w1", "w2", "w3"], mlp_fwd_bwd, mlp_loss),
    "resnet_step": (
        [("x", (2, 8, 8, 4)), ("t", (2, 10)), ("w0", (3, 3, 4, 8)),
         ("wa1", (3, 3, 8, 8)), ("wb1", (3, 3, 8, 8)),
         ("wa2", (3, 3, 8, 8)), ("wb2", (3, 3, 8, 8)), ("wf", (8, 10))],
        ["w0", "wa1", "wb1", "wa2", "wb2", "wf"], resnet_fwd_bwd, resnet_loss),
    "transformer_step": (
        [("x", (8, 16)), ("t", (8, 16)), ("wq", (16, 16)), ("wk", (16, 16)),
         ("wv", (16, 16)), ("wo", (16, 16)), ("w1", (16, 32)), ("w2", (32, 16)),
         ("g1", (16,)), ("b1", (16,)), ("g2", (16,)), ("b2", (16,))],
        ["wq", "wk", "wv", "wo", "w1", "w2", "g1", "b1", "g2", "b2"],
        transformer_fwd_bwd, transformer_loss),
}


# --------------------------------------------------------------------------
def parse_type(ty):
    """'tensor<8x32xf32>' -> (8, 32); 'tensor<f32>' / 'f32' -> ()."""
    ty = ty.strip()
    if ty == "f32":
        return ()
    m = re.fullmatch(r"tensor<((?:\d+x)*)f32>", ty)
    if not m:
        raise CheckError(f"unsupported type '{ty}' (need static f32 tensors)")
    return tuple(int(d) for d in m.group(1).split("x") if d)


def parse_step(text):
    funcs = re.findall(r"\bfunc\.func\b", text)
    if len(funcs) != 1:
        raise CheckError(f"expected exactly one func.func, found {len(funcs)}")
    m = re.search(r"func\.func\s+@(\w+)\s*\((.*?)\)\s*->\s*\((.*?)\)\s*"
                  r"attributes\s*\{([^}]*)\}\s*\{", text, re.S)
    if not m:
        raise CheckError("could not parse `func.func @name(args) -> (results) "
                         "attributes {...} {` header")
    name, args_s, res_s, attrs = m.groups()
    if not name.endswith("_step"):
        raise CheckError(f"function @{name} is not named @<name>_step")
    if not re.search(r"\bckpt\.loss\s*=\s*0\s*:\s*i64\b", attrs):
        raise CheckError("missing `ckpt.loss = 0 : i64` attribute")
    body = re.sub(r"//[^\n]*", "", text[m.end():])
    for bad in ("scf.", "cf.", "memref.", "bufferization."):
        if re.search(r"\b" + re.escape(bad) + r"\w+", body):
            raise CheckError(f"step body uses '{bad}' ops (must be pure tensor code)")
    args = [(a, parse_type(ty)) for a, ty in
            re.findall(r"%([\w$.]+)\s*:\s*(tensor<[^>]*>|f32)", args_s)]
    res_types = re.findall(r"tensor<[^>]*>|\bf32\b", res_s)
    results = [parse_type(ty) for ty in res_types]
    if not results or results[0] != ():
        raise CheckError("result 0 (the loss) must be tensor<f32> or f32")
    return name, args, res_types, results


def compare(label, got, ref):
    diff = np.abs(got - ref)
    scale = max(1.0, float(np.max(np.abs(ref))))
    ok = np.all(diff <= ATOL * scale + RTOL * np.abs(ref)) and np.all(np.isfinite(got))
    big = np.abs(ref) >= 1e-2 * float(np.max(np.abs(ref)))
    rel = float(np.max(diff[big] / np.abs(ref[big]))) if np.any(big) else 0.0
    return bool(ok), float(np.max(diff)), rel


def run_remat(step, name, budget, seed, workdir):
    """Plans, rewrites, lowers and runs the step with ckpt's tools (the
    steps of python/ckpt/remat.py); returns (number of recompute regions,
    ckpt-run's JSON)."""
    try:
        wrapped = _remat.wrap(step, workdir)
        planned, _, _ = _remat.plan(wrapped, budget, workdir)
        rewritten, _ = _remat.rewrite(planned, workdir)
        with open(rewritten) as f:
            regions = f.read().count("ckpt.recompute(")
        if regions == 0:
            raise CheckError(f"the plan at budget={budget} recomputes nothing")
        return regions, _remat.execute(rewritten, name, workdir, seed=seed,
                                       print_outputs=True)
    except (_remat.Failure, _remat.Infeasible) as e:
        raise CheckError(str(e)) from None


def finite_difference_check(params, wnames, grads, loss_fn, rng):
    """Central differences on FD_COORDS random coordinates per weight."""
    worst_abs, worst_rel, failures = 0.0, 0.0, []
    for w in wnames:
        g = grads[w]
        gscale = max(float(np.max(np.abs(g))), 1e-12)
        flat = rng.choice(g.size, size=min(FD_COORDS, g.size), replace=False)
        for fi in flat:
            idx = tuple(int(i) for i in np.unravel_index(int(fi), g.shape))
            orig = params[w][idx]
            params[w][idx] = orig + FD_EPS
            lp = loss_fn(params)
            params[w][idx] = orig - FD_EPS
            lm = loss_fn(params)
            params[w][idx] = orig
            fd = (lp - lm) / (2 * FD_EPS)
            err = abs(fd - g[idx])
            worst_abs = max(worst_abs, err)
            worst_rel = max(worst_rel, err / max(abs(g[idx]), 1e-3 * gscale))
            if err > FD_ATOL * max(1.0, gscale) + FD_RTOL * abs(g[idx]):
                failures.append(f"d{w}{list(idx)}: analytic {g[idx]:.8g} vs "
                                f"finite-difference {fd:.8g}")
    return worst_abs, worst_rel, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--keep", metavar="DIR", help="keep wrapper/lowered IR in DIR")
    ap.add_argument("--mlir-bin", default=os.environ.get("CKPT_MLIR_BIN", "/usr/lib/llvm-22/bin"),
                    help="directory of mlir-opt and mlir-runner "
                         "(default: $CKPT_MLIR_BIN or /usr/lib/llvm-22/bin)")
    ap.add_argument("--mlir-lib", default=os.environ.get("CKPT_MLIR_LIB", "/usr/lib/llvm-22/lib"),
                    help="directory of libmlir_(c_)runner_utils.so "
                         "(default: $CKPT_MLIR_LIB or /usr/lib/llvm-22/lib)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--remat", metavar="BUDGET",
                    help="check ckpt's path instead: plan at BUDGET (must recompute), "
                         "--ckpt-lower-to-cpu, ckpt-run --print-outputs")
    opts = ap.parse_args()
    fname = os.path.basename(opts.step)

    try:
        with open(opts.step) as f:
            text = f.read()
        name, args, res_types, results = parse_step(text)
        if name not in MODELS and re.fullmatch(r"mlp\d+_step", name):
            spec, wnames, fwd_bwd, loss_fn, scale = deep_mlp_model(name, args, text)
        elif name not in MODELS:
            raise CheckError(f"no numpy reference model for @{name} "
                             f"(known: {', '.join(sorted(MODELS))}, mlp<D>_step)")
        else:
            spec, wnames, fwd_bwd, loss_fn = MODELS[name]
            scale = {}
        if [s for _, s in args] != [s for _, s in spec]:
            raise CheckError(f"argument shapes {[s for _, s in args]} != reference "
                             f"{[s for _, s in spec]}")
        want_res = [()] + [dict(spec)[w] for w in wnames]
        if results != want_res:
            raise CheckError(f"result shapes {results} != reference {want_res}")

        if opts.remat:
            inputs = splitmix_inputs([s for _, s in spec], opts.seed)
        else:
            rng = np.random.default_rng(opts.seed)
            inputs = [(INIT_OFFSET.get(n, 0.0) + scale.get(n, 1.0) * rng.uniform(-0.5, 0.5, size=s)).astype(np.float32)
                      for n, s in spec]
        params = {n: a.astype(np.float64) for (n, _), a in zip(spec, inputs)}

        # numpy reference and its finite-difference validation.
        loss, grads = fwd_bwd(params)
        fd_abs, fd_rel, fd_fail = finite_difference_check(
            params, wnames, grads, loss_fn, np.random.default_rng(opts.seed + 1))
        if fd_fail:
            more = f"\n  ... and {len(fd_fail) - 10} more" if len(fd_fail) > 10 else ""
            raise CheckError("numpy backward disagrees with finite differences:\n  "
                             + "\n  ".join(fd_fail[:10]) + more)

        # MLIR run: stock mlir-opt + mlir-runner, or ckpt's tools.
        with tempfile.TemporaryDirectory(prefix="check_step_") as d:
            if opts.keep:
                os.makedirs(opts.keep, exist_ok=True)
                d = opts.keep
            if opts.remat:
                regions, result = run_remat(opts.step, name, opts.remat, opts.seed, d)
                if result["leaked_bytes"]:
                    raise CheckError(f"ckpt-run: {result['leaked_bytes']} B leaked")
                got = [np.asarray(o["values"], dtype=np.float64).reshape(r)
                       for o, r in zip(result["outputs"], results)]
                if len(got) != len(results):
                    raise CheckError(f"ckpt-run printed {len(result['outputs'])} results, "
                                     f"expected {len(results)}")
            else:
                wrapper = build_wrapper(text, name, [s for _, s in spec], inputs,
                                        res_types, results)
                got = parse_printed(run_mlir(wrapper, d, opts.mlir_bin, opts.mlir_lib),
                                    results)

        refs = [np.array(loss)] + [grads[w] for w in wnames]
        labels = ["loss"] + ["d" + w for w in wnames]
        max_abs, max_rel, bad = 0.0, 0.0, []
        for lab, g, r in zip(labels, got, refs):
            ok, a, rl = compare(lab, g, r)
            max_abs, max_rel = max(max_abs, a), max(max_rel, rl)
            if opts.verbose:
                print(f"  {lab:6s} shape={r.shape} max|ref|={np.max(np.abs(r)):.4g} "
                      f"abs_err={a:.3g} rel_err={rl:.3g} {'ok' if ok else 'MISMATCH'}")
            if not ok:
                bad.append(f"{lab}: max abs err {a:.3g}, max rel err {rl:.3g}")
        if bad:
            raise CheckError("MLIR results disagree with numpy:\n  " + "\n  ".join(bad))
    except CheckError as e:
        print(f"FAIL {fname}: {e}")
        return 1

    how = (f"rematerialized at {opts.remat} ({regions} recompute regions, peak "
           f"{result['peak_bytes']} B), ckpt-run" if opts.remat else "mlir")
    print(f"PASS {fname}: loss={float(got[0]):.6g} (numpy {float(loss):.6g}); "
          f"{how}-vs-numpy max abs err {max_abs:.3g}, max rel err {max_rel:.3g}; "
          f"numpy-vs-finite-diff max abs err {fd_abs:.3g}, max rel err {fd_rel:.3g} "
          f"({FD_COORDS} coords x {len(wnames)} weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
