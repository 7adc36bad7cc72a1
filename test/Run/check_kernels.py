#!/usr/bin/env python3
"""The BLAS kernels against the loops, on one training step planned at a
budget: lowered with ckpt-lower-to-cpu{kernels=loops} and {kernels=blas},
each run by ckpt-run with --print-outputs. Checks that the blas lowering
calls kernels (counts the calls of each in the LLVM dialect), that the
step's memory is the same (peak, allocation and free counts: the kernels
change no buffer), and that every output entry agrees within
8 * K * 2^-24 * max|output| (K the longest reduction of the step, given:
two float32 sums of K products in different orders differ by at most about
2 K u times the sum of |terms|, which the result's magnitude stands for).
Prints `CALLS contract=N conv=N filter_grad=N`, `MEMORY peak=P allocs=A
frees=F same` and `OUTPUTS n worst=R` (worst |diff| / bound, < 1).
Usage: check_kernels.py STEP.mlir ENTRY BUDGET K
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from ckpt import remat  # noqa: E402


def main(step, entry, budget, k):
    with tempfile.TemporaryDirectory() as tmp:
        wrapped = remat.wrap(step, tmp)
        planned, _, _ = remat.plan(wrapped, budget, tmp)
        rewritten, _ = remat.rewrite(planned, tmp)
        runs = {}
        for kernels in ("loops", "blas"):
            low = os.path.join(tmp, f"{kernels}.mlir")
            remat.run(["ckpt-opt", rewritten, f"--ckpt-lower-to-cpu=kernels={kernels}",
                       "-o", low])
            with open(low) as f:
                text = f.read()
            runs[kernels] = (text, remat.execute(low, entry, tmp, lower=None,
                                                 print_outputs=True))
    text = runs["blas"][0]
    calls = {name: text.count(f"llvm.call @ckpt_kernel_{name}_f32(")
             for name in ("contract", "conv2d_nchw_fchw", "conv2d_filter_grad")}
    assert "ckpt_kernel" not in runs["loops"][0], "the loops lowering calls a kernel"
    print("CALLS contract={contract} conv={conv2d_nchw_fchw} "
          "filter_grad={conv2d_filter_grad}".format(**calls))
    a, b = runs["loops"][1], runs["blas"][1]
    keys = ("peak_bytes", "allocs", "frees", "leaked_bytes")
    if any(a[key] != b[key] for key in keys):
        sys.exit(f"memory differs: loops {[a[key] for key in keys]}, "
                 f"blas {[b[key] for key in keys]}")
    print(f"MEMORY peak={a['peak_bytes']} allocs={a['allocs']} frees={a['frees']} same")
    worst = 0.0
    for i, (x, y) in enumerate(zip(a["outputs"], b["outputs"])):
        xs, ys = x["values"], y["values"]
        xs = xs if isinstance(xs, list) else [xs]
        ys = ys if isinstance(ys, list) else [ys]
        flat = lambda v: [e for s in v for e in flat(s)] if isinstance(v, list) else [v]  # noqa: E731
        xs, ys = flat(xs), flat(ys)
        bound = 8 * k * 2.0 ** -24 * max(abs(v) for v in xs + [0.0])
        for u, v in zip(xs, ys):
            if abs(u - v) > bound:
                sys.exit(f"output {i}: loops {u!r} vs blas {v!r}, over {bound:.3g}")
            if bound:
                worst = max(worst, abs(u - v) / bound)
    print(f"OUTPUTS {len(a['outputs'])} worst={'0' if worst == 0 else '<1'}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
