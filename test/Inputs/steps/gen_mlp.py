#!/usr/bin/env python3
"""Generate a deep-MLP training step in the conventions of mlp.mlir.

    gen_mlp.py --depth D --batch B --width W --in I --out O [--act tanh|alt] [-o FILE]

writes one `func.func @mlp<D>_step(%x, %t, %w1, ..., %w<D>)` on tensors
(linalg named ops and linalg.generic; forward, then backward, every backward
op with its own tensor.empty) returning `(loss, dW1, ..., dW<D>)` with
`attributes {ckpt.loss = 0 : i64}`:

    z1 = x W1, h1 = act1(z1), ..., z<D-1> = h<D-2> W<D-1>, h<D-1> = act(z<D-1>),
    y = h<D-1> W<D>, loss = mean((y - t)^2)

with x[B x I], t[B x O], W1[I x W], W2..W<D-1>[W x W], W<D>[W x O], no biases.
`--act tanh` (default) puts tanh on every hidden layer; `--act alt`
alternates tanh (odd layers) and relu (even layers), as mlp.mlir does. The
tanh backward reads the activation h (1 - h^2), the relu backward reads the
pre-activation z ([z > 0]), as in mlp.mlir. stdlib only.
"""

import argparse
import sys


def ty(*shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def f32_literal(v):
    # Decimal literal that rounds to the f32 nearest v.
    return repr(float(v)) if "e" not in repr(float(v)) else f"{v:.9e}"


def generate(depth, batch, width, nin, nout, act="tanh"):
    if depth < 2:
        raise ValueError("depth must be at least 2")
    D, B = depth, batch
    dims = [nin] + [width] * (D - 1) + [nout]          # dims[i-1] x dims[i] = W_i
    acts = ["tanh" if (act == "tanh" or i % 2 == 1) else "relu" for i in range(1, D)]
    n = B * nout
    L = []
    w = L.append

    # ---- header comment -------------------------------------------------
    wshapes = ", ".join(f"W{i}[{dims[i-1]}x{dims[i]}]" for i in range(1, D + 1))
    w(f"// A perceptron training step with {D} layers (gen_mlp.py --depth {D} "
      f"--batch {B} --width {width} --in {nin} --out {nout} --act {act}):")
    w(f"// forward, mean-squared-error loss, backward. Shapes: x[{B}x{nin}], "
      f"t[{B}x{nout}],")
    w(f"// {wshapes}.")
    w("//")
    w("// Forward (h0 = x):")
    for i in range(1, D):
        f = "tanh(z%d)" % i if acts[i-1] == "tanh" else "relu(z%d) = max(z%d, 0)" % (i, i)
        w(f"//   z{i} = h{i-1} W{i}   [{B}x{dims[i]}]    h{i} = {f}")
    w(f"//   y  = h{D-1} W{D}   [{B}x{nout}]")
    w("//   d  = y - t")
    w(f"//   loss = mean(d^2) = (1/{n}) sum_ij d_ij^2")
    w("// Backward:")
    w(f"//   dy = (2/{n}) d ; dz{D} = dy")
    w(f"//   for i = {D} .. 1:  dW_i = h_(i-1)^T dz_i   [dims of W_i]")
    w("//                     dh_(i-1) = dz_i W_i^T   (i > 1)")
    w("//                     dz_(i-1) = dh_(i-1) * (1 - h_(i-1)^2)   (tanh)")
    w("//                              = dh_(i-1) * [z_(i-1) > 0]     (relu)")
    w(f"// Result 0 is the loss (`ckpt.loss = 0`); results 1..{D} are dW1 .. dW{D}.")
    w("")
    w("#id = affine_map<(i, j) -> (i, j)>")
    w("#red_out = affine_map<(i, j) -> ()>")
    w("")

    # ---- signature --------------------------------------------------------
    args = [f"%x: {ty(B, nin)}", f"%t: {ty(B, nout)}"] + \
           [f"%w{i}: {ty(dims[i-1], dims[i])}" for i in range(1, D + 1)]
    res_tys = ["tensor<f32>"] + [ty(dims[i-1], dims[i]) for i in range(1, D + 1)]
    w(f"func.func @mlp{D}_step(" + (",\n" + " " * (len(f"func.func @mlp{D}_step("))).join(
        ", ".join(args[k:k + 2]) for k in range(0, len(args), 2)) + ")")
    w(f"    -> ({', '.join(res_tys)})")
    w("    attributes {ckpt.loss = 0 : i64} {")
    w("  %zero = arith.constant 0.0 : f32")
    w("  %one = arith.constant 1.0 : f32")
    w(f"  %inv_n = arith.constant {f32_literal(1.0 / n)} : f32      // 1/{n}")
    w(f"  %two_inv_n = arith.constant {f32_literal(2.0 / n)} : f32   // 2/{n}")
    w("")

    def matmul(res, a, b, m, k, nn, indent="  "):
        w(f"{indent}%e_{res} = tensor.empty() : {ty(m, nn)}")
        w(f"{indent}%f_{res} = linalg.fill ins(%zero : f32) outs(%e_{res} : {ty(m, nn)}) -> {ty(m, nn)}")
        w(f"{indent}%{res} = linalg.matmul ins(%{a}, %{b} : {ty(m, k)}, {ty(k, nn)})")
        w(f"{indent}    outs(%f_{res} : {ty(m, nn)}) -> {ty(m, nn)}")

    def transpose(res, a, m, nn):
        w(f"  %e_{res} = tensor.empty() : {ty(nn, m)}")
        w(f"  %{res} = linalg.transpose ins(%{a} : {ty(m, nn)}) outs(%e_{res} : {ty(nn, m)}) "
          f"permutation = [1, 0]")

    # ---- forward ----------------------------------------------------------
    w("  // Forward.")
    prev = "x"
    for i in range(1, D):
        matmul(f"z{i}", prev, f"w{i}", B, dims[i-1], dims[i])
        t = ty(B, dims[i])
        w(f"  %e_h{i} = tensor.empty() : {t}")
        w(f"  %h{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}}")
        w(f"      ins(%z{i} : {t}) outs(%e_h{i} : {t}) {{")
        w("  ^bb0(%a: f32, %o: f32):")
        if acts[i-1] == "tanh":
            w("    %v = math.tanh %a : f32")
        else:
            w("    %v = arith.maximumf %a, %zero : f32")
        w("    linalg.yield %v : f32")
        w(f"  }} -> {t}")
        prev = f"h{i}"
    matmul("y", prev, f"w{D}", B, width, nout)
    ty_y = ty(B, nout)
    w(f"  %e_d = tensor.empty() : {ty_y}")
    w(f"  %d = linalg.sub ins(%y, %t : {ty_y}, {ty_y})")
    w(f"                  outs(%e_d : {ty_y}) -> {ty_y}")
    w("  %e_l = tensor.empty() : tensor<f32>")
    w("  %f_l = linalg.fill ins(%zero : f32) outs(%e_l : tensor<f32>) -> tensor<f32>")
    w("  %sse = linalg.generic {indexing_maps = [#id, #red_out], iterator_types = [\"reduction\", \"reduction\"]}")
    w(f"      ins(%d : {ty_y}) outs(%f_l : tensor<f32>) {{")
    w("  ^bb0(%a: f32, %acc: f32):")
    w("    %sq = arith.mulf %a, %a : f32")
    w("    %s = arith.addf %acc, %sq : f32")
    w("    linalg.yield %s : f32")
    w("  } -> tensor<f32>")
    w("  %e_loss = tensor.empty() : tensor<f32>")
    w("  %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}")
    w("      ins(%sse : tensor<f32>) outs(%e_loss : tensor<f32>) {")
    w("  ^bb0(%a: f32, %o: f32):")
    w("    %v = arith.mulf %a, %inv_n : f32")
    w("    linalg.yield %v : f32")
    w("  } -> tensor<f32>")
    w("")

    # ---- backward ---------------------------------------------------------
    w("  // Backward.")
    w(f"  %e_dy = tensor.empty() : {ty_y}")
    w("  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}")
    w(f"      ins(%d : {ty_y}) outs(%e_dy : {ty_y}) {{")
    w("  ^bb0(%a: f32, %o: f32):")
    w("    %v = arith.mulf %a, %two_inv_n : f32")
    w("    linalg.yield %v : f32")
    w(f"  }} -> {ty_y}")
    dz = "dy"
    for i in range(D, 0, -1):
        hin = "x" if i == 1 else f"h{i-1}"
        w(f"  // dW{i} = {hin}^T dz{i}")
        transpose(f"{hin}t", hin, B, dims[i-1])
        matmul(f"dw{i}", f"{hin}t", dz, dims[i-1], B, dims[i])
        if i == 1:
            break
        a = acts[i-2]
        if a == "tanh":
            w(f"  // dh{i-1} = dz{i} W{i}^T ; dz{i-1} = dh{i-1} * (1 - h{i-1}^2)")
        else:
            w(f"  // dh{i-1} = dz{i} W{i}^T ; dz{i-1} = dh{i-1} * [z{i-1} > 0]")
        transpose(f"w{i}t", f"w{i}", dims[i-1], dims[i])
        matmul(f"dh{i-1}", dz, f"w{i}t", B, dims[i], dims[i-1])
        t = ty(B, dims[i-1])
        w(f"  %e_dz{i-1} = tensor.empty() : {t}")
        w("  %" + f"dz{i-1}" + " = linalg.generic {indexing_maps = [#id, #id, #id], "
          "iterator_types = [\"parallel\", \"parallel\"]}")
        if a == "tanh":
            w(f"      ins(%dh{i-1}, %h{i-1} : {t}, {t}) outs(%e_dz{i-1} : {t}) {{")
            w("  ^bb0(%g: f32, %a: f32, %o: f32):")
            w("    %a2 = arith.mulf %a, %a : f32")
            w("    %s = arith.subf %one, %a2 : f32")
            w("    %v = arith.mulf %g, %s : f32")
        else:
            w(f"      ins(%dh{i-1}, %z{i-1} : {t}, {t}) outs(%e_dz{i-1} : {t}) {{")
            w("  ^bb0(%g: f32, %z: f32, %o: f32):")
            w("    %pos = arith.cmpf ogt, %z, %zero : f32")
            w("    %v = arith.select %pos, %g, %zero : f32")
        w("    linalg.yield %v : f32")
        w(f"  }} -> {t}")
        dz = f"dz{i-1}"
    w("")
    rets = ", ".join(["%loss"] + [f"%dw{i}" for i in range(1, D + 1)])
    w(f"  return {rets} : {', '.join(res_tys)}")
    w("}")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--in", dest="nin", type=int, required=True)
    ap.add_argument("--out", dest="nout", type=int, required=True)
    ap.add_argument("--act", choices=["tanh", "alt"], default="tanh")
    ap.add_argument("-o", dest="output", default="-")
    o = ap.parse_args()
    text = generate(o.depth, o.batch, o.width, o.nin, o.nout, o.act)
    if o.output == "-":
        sys.stdout.write(text)
    else:
        with open(o.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
