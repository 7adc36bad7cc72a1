#!/usr/bin/env python3
"""Step time of a compiled step (ckpt.compile_step) against eager PyTorch,
side by side in one process, on the same CPU and number of threads.

    PYTHONPATH=build/python .venv/bin/python bench/step_time.py \\
        [--models resnet18,gpt2width] [--budgets 100%,50%] [--threads 1] \\
        [--repeat 5] [--levels 2/2,0/2] [--kernels loops,blas] [--doc docs/BENCHMARKS.md]

Models: torchvision ResNet-18 (batch 4, 64x64, 10 classes) and a GPT-2-width
decoder (width 768, 12 heads, 2 layers, sequence 128, vocabulary 4096, batch
2), cross entropy on class indices. One step is forward, loss and backward:
eager is `loss.backward()` after zero_grad (PyTorch float32,
torch.set_num_threads(--threads)); ckpt is the compiled step's call at each
budget (loss and every gradient back as tensors). Each time is the median of
--repeat runs after one warm-up, ckpt's and eager's interleaved (the
machine's load changes between runs). The table gives compile time, the ckpt and
eager step times and their ratio, per budget (a budget below the least feasible one is planned at the least),
kernel choice (`ckpt-lower-to-cpu{kernels=...}`; loops only at the first
levels) and LLVM levels (--levels: IR passes / code generator, each pair
`opt_level` / `codegen_level` of compile_step); with --doc it goes between
<!-- step-time:begin --> and <!-- step-time:end -->. Every compiled step's
loss must equal eager's within 1e-3 relative (exit 1 otherwise).
"""

import argparse
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from jit_time import cpu_name  # noqa: E402
from ckpt import remat  # noqa: E402
from ckpt.step import compile_step  # noqa: E402
from ckpt.torch_import.models import build_model  # noqa: E402
from ckpt.torch_import.trace import dropout_off  # noqa: E402

MODELS = {
    "resnet18": "torchvision ResNet-18, batch 4, 64x64, 10 classes",
    "gpt2width": "GPT-2-width decoder (768 wide, 12 heads, 2 layers, seq 128, vocab 4096), batch 2",
}


def make(name):
    if name == "resnet18":
        model, x, t = build_model("resnet18", classes=10, image=64, batch=4)
        return model, x, t.argmax(1)
    if name == "gpt2width":
        model, x, t = build_model("gpt2small", batch=2, layers=2, seq=128, vocab=4096)
        return dropout_off(model), x, t     # as in the step
    raise SystemExit(f"unknown model {name}; known: {', '.join(MODELS)}")


def timed(fns, repeat):
    """Median seconds of each of `fns`, their runs interleaved (one of each
    per round, after one warm-up round), so that a change in the machine's
    load reaches all of them alike."""
    for fn in fns:
        fn()
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times):
            start = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - start)
    return [statistics.median(ts) for ts in times]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="resnet18,gpt2width")
    ap.add_argument("--budgets", default="100%,50%")
    ap.add_argument("--kernels", default="loops,blas")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--levels", default="2/2,0/2")
    ap.add_argument("--doc")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    os.environ["OPENBLAS_NUM_THREADS"] = str(a.threads)
    rows, failures = [], []
    for name in a.models.split(","):
        model, x, t = make(name)

        def eager():
            model.zero_grad(set_to_none=True)
            out = model(x)
            loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), t)
            loss.backward()
            return loss
        want = eager().item()
        levels = [tuple(int(v) for v in pair.split("/")) for pair in a.levels.split(",")]
        runs = [(k, lv) for lv in levels for k in a.kernels.split(",")
                if k != "loops" or lv == levels[0]]
        for kernels, (opt, codegen) in runs:
            for budget in a.budgets.split(","):
                label = budget
                start = time.perf_counter()
                try:
                    step = compile_step(model, x, t, budget=budget, opt_level=opt,
                                        codegen_level=codegen, kernels=kernels)
                except remat.Infeasible as e:
                    # Below the least feasible budget: plan at the least.
                    label = f"{budget} refused, least {e.least} B"
                    start = time.perf_counter()
                    step = compile_step(model, x, t, budget=e.least, opt_level=opt,
                                        codegen_level=codegen, kernels=kernels)
                compile_s = time.perf_counter() - start
                got = step(x, t)[0].item()
                if abs(got - want) > 1e-3 * abs(want):
                    failures.append(f"{name} {kernels} {budget}: loss {got} vs eager {want}")
                t_ckpt, t_eager = timed([lambda: step(x, t), eager], a.repeat)
                rows.append(f"| {name} | {kernels} | {opt} / {codegen} | {label} "
                            f"(+{100 * step.overhead:.1f}%) | "
                            f"{compile_s:.1f} s | {1e3 * t_ckpt:.1f} ms | {1e3 * t_eager:.1f} ms | "
                            f"**{t_ckpt / t_eager:.2f}** | {step.last_peak} B |")
                print(rows[-1], flush=True)
    head = [f"Step time (forward, loss, backward) on {cpu_name()}, {a.threads} thread(s), "
            f"PyTorch {torch.__version__.split('+')[0]}, median of {a.repeat}; "
            f"`bench/step_time.py`:", ""]
    head += [f"- {n}: {MODELS[n]}" for n in a.models.split(",")] + [""]
    head += ["| model | kernels | LLVM IR / codegen level | budget (recompute) | compile | "
             "ckpt step | eager step | ckpt / eager | measured peak |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    return remat.publish("\n".join(head + rows), a.doc, "step-time", failures)


if __name__ == "__main__":
    sys.exit(main())
