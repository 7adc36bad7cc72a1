#!/usr/bin/env python3
"""Runs planned training steps on the GPU and on the CPU and checks them.

    scripts/gpu-check.sh [--cpu-only] [--budgets 100,70,50] [--models a,b]
                         [--rtol 1e-3] [--keep DIR] [--offload] [--repeat 5]
                         [--time-model] [--no-compiled-steps]

Models: the zoo steps resnet, transformer and mlp8 of test/Inputs/steps,
torchvision's ResNet-18 (batch 2, 64x64, 10 classes) and the 2-layer GPT
`tinygpt` (batch 8, dropout 0.1 on) imported through ckpt.torch_import. For every model and budget (percent of the step's
store-all peak; the step's least feasible budget where that is more):
ckpt-plan (optimal, h100 costs; with --offload, offload=auto with the cpu
device's costs and link, a memcpy without latency, so that these small
steps move values to host memory and back), ckpt-rematerialize and
ckpt-insert-frees, whose memory simulation predicts the peak; then

- CPU: ckpt-lower-to-cpu and ckpt-run;
- GPU: ckpt-lower-to-nvptx (fatbin, sm_90) and ckpt-run --gpu, whose peak
  is the device memory the step allocated (every buffer goes through the
  counting mgpuMemAlloc): once with every op a GPU kernel (kernels=loops),
  once with the contractions on cuBLAS and the convolutions on cuDNN
  (kernels=blas; CKPT_CUBLAS and CKPT_CUDNN are set to the environment's
  NVIDIA wheels when unset).

Checks, each a MISS when it fails (the script exits 1 on any):
- on each device, the outputs of every budget are bit-identical to those of
  the first budget (the same step, only scheduled differently), and nothing
  leaks;
- on each device, the measured peak is within the budget and equals the
  predicted peak;
- with --offload, on each device the host copies peak where the plan says
  (its host_peak) and none is left at exit;
- the GPU's outputs equal the CPU's within the tolerance: for every result,
  max |gpu - cpu| <= rtol * max(1, max |cpu|) (GPU math functions and
  fused multiply-adds round differently from the CPU's).

The time model (--time-model; on a GPU, implied by --offload): for each
model and device, the step as written is lowered with profile=true and run
(ckpt-run --profile, the median of --repeat runs per op, and the copy link
timed with the step's own copy functions); each budget is then planned with
those times (profile=, offload=auto with --offload), rewritten, lowered
(on the CPU with async-copies=true, as the GPU lowering's default) and run,
and its time (the median of --repeat runs) is compared with the plan's. On
a GPU a step more than 5% off its plan's time is a MISS: offload stays off
by default until this has passed (README); on the CPU the ratio is only
reported (a shared CPU's times are not a verdict).

Then (GPU only, unless --no-compiled-steps) each imported model through
the Python API, ckpt.compile_step(device="cuda") at 50% (or its least
feasible budget), against the same step compiled for the CPU: loss and
gradients within the tolerance, the device peak equal to the CPU step's
and within the budget; a second table gives its step time (the median of
--repeat calls on CUDA tensors) against eager PyTorch on the same GPU.

Times: CPU ms is one run; GPU ms the median of --repeat runs (the first,
which loads the kernels, included); for the imported models, eager GPU ms
is the same model's forward, cross entropy and backward in eager PyTorch
on the same GPU (the median of 20 synchronized steps after 3 warm-ups),
and GPU / eager their ratio. With --keep DIR, a model imported into DIR by
an earlier run (DIR/resnet18/resnet18.mlir) is used as it is, so a GPU
machine without the importer's PyTorch version can run the same steps.

--cpu-only skips the GPU half (the test suite runs this; machines without
a GPU). Needs ckpt-opt and ckpt-run on PATH (the shell wrapper puts
build/bin there) and .venv/bin/python with torch for ResNet-18.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python", "ckpt"))
import remat  # noqa: E402  (python/ckpt/remat.py: standard library only)

STEPS = os.path.join(ROOT, "test", "Inputs", "steps")
MODELS = {
    "resnet": (os.path.join(STEPS, "resnet.mlir"), "resnet_step"),
    "transformer": (os.path.join(STEPS, "transformer.mlir"), "transformer_step"),
    "mlp8": (os.path.join(STEPS, "mlp8.mlir"), "mlp8_step"),
    "resnet18": (None, "resnet18_step"),
    "tinygpt": (None, "tinygpt_step"),
}
# How the imported models are built (ckpt.torch_import.build_model) and
# imported (the GPT with its dropout on: Philox masks, the same on both).
IMPORTS = {"resnet18": (dict(batch=2, image=64, classes=10), {}),
           "tinygpt": (dict(batch=8), dict(dropout=True))}
LOWERINGS = {"cpu": "--ckpt-lower-to-cpu", "gpu": "--ckpt-lower-to-nvptx=format=fatbin",
             "gpu-blas": "--ckpt-lower-to-nvptx=format=fatbin kernels=blas"}
# The time model's: copies beside the ops on every device, as plans assume.
TIME_LOWERINGS = dict(LOWERINGS, cpu="--ckpt-lower-to-cpu=async-copies=true")


def import_model(name, path):
    """An imported model (IMPORTS) as a step file; one already at `path` (a
    --keep directory of an earlier run) is used as it is."""
    if os.path.exists(path):
        return
    from ckpt import torch_import as ti   # the built package (PYTHONPATH)
    build, extra = IMPORTS[name]
    model, x, target = ti.build_model(name, **build)
    with open(path, "w") as f:
        f.write(ti.import_module(model, x, target, name=name, **extra))


def eager_ms(name, runs=20, warmup=3):
    """Eager PyTorch's time for the imported model's step (forward, cross
    entropy, backward) on the GPU, in ms: the median of `runs` after `warmup`,
    each synchronized. None for the zoo steps (no PyTorch model) or when
    PyTorch or its GPU is missing (the reason goes to stderr)."""
    if name not in IMPORTS:
        return None
    try:
        import time
        import torch
        import torch.nn.functional as F
        from ckpt import torch_import as ti
        build, extra = IMPORTS[name]
        model, x, target = ti.build_model(name, **build)
        dev = torch.device("cuda")
        model = model.to(dev).train()
        x, target = x.to(dev), target.to(dev)
        times = []
        for i in range(warmup + runs):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = model(x)
            out = out if torch.is_tensor(out) else out[0]
            loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), target)
            model.zero_grad(set_to_none=True)
            loss.backward()
            torch.cuda.synchronize()
            if i >= warmup:
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        return times[len(times) // 2]
    except Exception as e:  # noqa: BLE001 - reported, the check goes on
        print(f"gpu-check: eager {name}: {type(e).__name__}: {e}", file=sys.stderr)
        return None


def max_error(gpu, cpu):
    """The largest max|gpu - cpu| / max(1, max|cpu|) over the results."""
    worst = 0.0
    for g, c in zip(gpu["outputs"], cpu["outputs"]):
        scale = max([1.0] + [abs(float(v)) for v in c["values"]])
        diff = max([0.0] + [abs(float(a) - float(b)) for a, b in zip(g["values"], c["values"])])
        worst = max(worst, diff / scale)
    return worst


def model_step(name, tmp):
    """The step file of `name` (imported into `tmp` when it is a PyTorch
    model) and its entry."""
    path, entry = MODELS[name]
    if path is None:
        path = os.path.join(tmp, f"{name}.mlir")
        import_model(name, path)
    return path, entry


# How far a GPU step's time may be from its plan's (a fraction).
TIME_MODEL_TOLERANCE = 0.05


def plan_at(wrapped, pct, tmp, options):
    """ckpt-plan at `pct`% (at the step's least feasible budget when that is
    more): (planned file, numbers, whether the least budget was taken)."""
    try:
        planned, _, numbers = remat.plan(wrapped, f"{pct}%", tmp, options)
        return planned, numbers, False
    except remat.Infeasible as e:
        planned, _, numbers = remat.plan(wrapped, str(e.least), tmp, options)
        return planned, numbers, True


def check_time_model(name, wrapped, budgets, devices, tmp, misses, options, repeat):
    """Each device's op times measured on the step as written (`wrapped`,
    ckpt-run --profile), the step planned with them at each budget, and its
    measured time against the plan's: rows for time_model_table. A MISS on a
    GPU device when off by more than TIME_MODEL_TOLERANCE."""
    entry = MODELS[name][1]
    rows = []
    for device in devices:
        gpu = device != "cpu"
        lowering = TIME_LOWERINGS[device]
        profile = os.path.join(tmp, f"profile-{device}.json")
        measured = remat.execute(wrapped, entry, tmp, f"{lowering} profile=true",
                                 repeat=repeat, gpu=gpu, profile=profile)
        with open(profile) as f:
            times = json.load(f)
        ops = sum(v for k, v in times.items() if not k.startswith("link."))
        rows.append({"model": name, "device": device, "budget": "as written, timed per op",
                     "moved": 0, "plan_ms": ops * 1e3, "ms": measured["wall_ms"]})
        for pct in budgets:
            row = {"model": name, "device": device}
            rows.append(row)
            try:
                planned, numbers, least = plan_at(wrapped, pct, tmp,
                                                  f"{options} profile={profile}".strip())
                rewritten, _ = remat.rewrite(planned, tmp)
                r = remat.execute(rewritten, entry, tmp, lowering, repeat=repeat, gpu=gpu)
            except remat.Failure as e:
                misses.append(f"{name} {pct}% {device} time model: {str(e)[:600]}")
                row.update(budget=f"{pct}% failed")
                continue
            row.update(budget=f"{pct}%{' -> least' if least else ' ='} {numbers['budget']} B",
                       moved=numbers["transfers"], plan_ms=numbers["time"] * 1e3,
                       ms=r["wall_ms"])
            off = r["wall_ms"] / row["plan_ms"] - 1
            if gpu and abs(off) > TIME_MODEL_TOLERANCE:
                misses.append(f"{name} {pct}% {device}: step {r['wall_ms']:.3f} ms, its plan's "
                              f"time {row['plan_ms']:.3f} ms ({off:+.1%}, over "
                              f"{TIME_MODEL_TOLERANCE:.0%})")
    return rows


def time_model_table(rows):
    out = ["| model | device | budget | values moved | plan's time (measured op times) ms "
           "| step ms | step / plan |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "ms" not in r:
            out.append(f"| {r['model']} | {r['device']} | {r['budget']} | - | - | - | - |")
            continue
        out.append(f"| {r['model']} | {r['device']} | {r['budget']} | {r['moved']} | "
                   f"{r['plan_ms']:.3f} | {r['ms']:.3f} | {r['ms'] / r['plan_ms']:.3f} |")
    return "\n".join(out)


def check_model(name, wrapped, budgets, gpu, rtol, tmp, misses, options="", repeat=1):
    entry = MODELS[name][1]
    rows = []
    first = {}
    for pct in budgets:
        row = {"model": name, "pct": pct}
        rows.append(row)
        # Below the step's least feasible budget: run at that one.
        planned, numbers, row["least"] = plan_at(wrapped, pct, tmp, options)
        budget, planned_host = numbers["budget"], numbers["host_peak"]
        row["moved"] = planned_host > 0
        rewritten, predicted = remat.rewrite(planned, tmp)
        row.update(budget=budget, predicted=predicted)
        for device in (["cpu", "gpu", "gpu-blas"] if gpu else ["cpu"]):
            try:
                r = remat.execute(rewritten, entry, tmp, LOWERINGS[device],
                                  print_outputs=True, gpu=device != "cpu",
                                  repeat=repeat if device != "cpu" else 1)
            except remat.Failure as e:
                row[device] = None
                misses.append(f"{name} {pct}% {device}: {str(e)[:600]}")
                continue
            row[device] = r
            first.setdefault(device, r)
            what = f"{name} {pct}% {device}"
            if r["outputs_sha256"] != first[device]["outputs_sha256"]:
                misses.append(f"{what}: outputs differ from those at {budgets[0]}%")
            if r["leaked_bytes"]:
                misses.append(f"{what}: leaks {r['leaked_bytes']} B")
            if r["peak_bytes"] > budget:
                misses.append(f"{what}: peak {r['peak_bytes']} B over the budget {budget} B")
            if r["peak_bytes"] != predicted:
                misses.append(f"{what}: peak {r['peak_bytes']} B, predicted {predicted} B")
            copies = "host_copy" if device != "cpu" else "host"
            if r[f"{copies}_peak_bytes"] != planned_host:
                misses.append(f"{what}: host copies peak at {r[f'{copies}_peak_bytes']} B, "
                              f"planned {planned_host} B")
            if r[f"{copies}_live_bytes_at_exit"]:
                misses.append(f"{what}: host copies left at exit")
        for device in ("gpu", "gpu-blas"):
            if row.get(device) and row.get("cpu"):
                row[f"error-{device}"] = error = max_error(row[device], row["cpu"])
                if error > rtol:
                    misses.append(f"{name} {pct}% {device}: outputs differ from the CPU's "
                                  f"by {error:.3g} (relative), over {rtol:g}")
    if gpu:
        eager = eager_ms(name)
        for row in rows:
            row["eager"] = eager
    return rows


def check_compiled_steps(rtol, misses, repeat):
    """ckpt.compile_step(device="cuda") (the step called from Python on CUDA
    device 0) against the same step compiled for the CPU, for each imported
    model at 50% (or its least feasible budget): the loss and gradients
    within `rtol` as in max_error, the device peak equal to the CPU step's
    and within the budget. Time: the median of `repeat` calls after one,
    each on CUDA tensors (the copies into the step's managed buffers
    included), against eager PyTorch on the same GPU."""
    import time
    import torch
    from ckpt import torch_import as ti
    from ckpt.step import compile_step
    rows = []
    for name, (build, extra) in IMPORTS.items():
        row = {"model": name}
        rows.append(row)
        try:
            model, x, target = ti.build_model(name, **build)
            kw = dict(dropout=extra.get("dropout", False))
            try:
                cpu = compile_step(model, x, target, budget="50%", **kw)
            except remat.Infeasible as e:
                cpu = compile_step(model, x, target, budget=e.least, **kw)
                row["least"] = True
            want = cpu(x, target, seed=1)
            xc, tc = x.cuda(), target.cuda()
            row.update(budget=cpu.budget, cpu_peak=cpu.last_peak)
            for kernels in ("blas", "loops"):
                gpu = compile_step(model, x, target, budget=cpu.budget, device="cuda",
                                   kernels=kernels, **kw)
                got = gpu(xc, tc, seed=1)
                times = []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    gpu(xc, tc, seed=1)
                    times.append((time.perf_counter() - t0) * 1e3)
                times.sort()
                worst = 0.0
                for g, c in zip([got[0]] + got[1], [want[0]] + want[1]):
                    scale = max(1.0, c.abs().max().item())
                    worst = max(worst, (g.double().cpu() - c.double()).abs().max().item() / scale)
                row[kernels] = dict(peak=gpu.last_peak, error=worst,
                                    ms=times[len(times) // 2], device=gpu.device_name)
                what = f"compile_step {name} cuda kernels={kernels}"
                if worst > rtol:
                    misses.append(f"{what}: differs from the CPU step by {worst:.3g} "
                                  f"(relative), over {rtol:g}")
                if gpu.last_peak != cpu.last_peak or gpu.last_peak > gpu.budget:
                    misses.append(f"{what}: device peak {gpu.last_peak} B, CPU step's "
                                  f"{cpu.last_peak} B, budget {gpu.budget} B")
        except Exception as e:  # noqa: BLE001 - a miss, the check goes on
            misses.append(f"compile_step {name} cuda: {type(e).__name__}: {str(e)[:600]}")
        row["eager"] = eager_ms(name)
    return rows


def compiled_table(rows):
    out = ["| model (compile_step) | kernels | budget | CPU step peak | CUDA step peak "
           "| CUDA vs CPU (rel.) | CUDA step ms | eager GPU ms | CUDA / eager |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        eager = r.get("eager")
        for kernels in ("blas", "loops"):
            k = r.get(kernels)
            if not k:
                out.append(f"| {r['model']} | {kernels} | failed | - | - | - | - | - | - |")
                continue
            out.append(f"| {r['model']} | {kernels} | "
                       f"{'least ' if r.get('least') else '50% = '}{r['budget']} B "
                       f"| {r['cpu_peak']} | {k['peak']} | {k['error']:.2g} | {k['ms']:.3f} | "
                       f"{'%.3f' % eager if eager else '-'} | "
                       f"{'%.1f' % (k['ms'] / eager) if eager else '-'} |")
    return "\n".join(out)


def table(rows, gpu):
    """One line per model, budget and GPU lowering ("kernels": every op a
    GPU kernel; "cuBLAS": the contractions on cuBLAS, the convolutions on
    cuDNN)."""
    out = ["| model | budget | predicted peak | CPU peak | GPU peak | GPU lowering | GPU launches "
           "| GPU vs CPU (rel.) | CPU ms | GPU ms | eager GPU ms | GPU / eager |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        cpu = r.get("cpu")
        for device, label in (("gpu", "kernels"), ("gpu-blas", "cuBLAS")):
            g = r.get(device)
            gpu_cell = (lambda k: str(g[k]) if g else ("not run" if not gpu else "failed"))
            error = r.get(f"error-{device}")
            out.append(
                f"| {r['model']}{' (moved)' if r.get('moved') else ''} | "
                f"{r['pct']}% {'-> least ' if r.get('least') else '= '}"
                f"{r['budget']} B | {r['predicted']} B | "
                f"{cpu['peak_bytes'] if cpu else 'failed'} | {gpu_cell('peak_bytes')} | "
                f"{label} | {gpu_cell('kernels')} | "
                f"{'%.2g' % error if error is not None else '-'} | "
                f"{cpu['wall_ms'] if cpu else '-'} | {g['wall_ms'] if g else '-'} | "
                f"{'%.3f' % r['eager'] if r.get('eager') else '-'} | "
                f"{'%.1f' % (g['wall_ms'] / r['eager']) if g and r.get('eager') else '-'} |")
            if not gpu:
                break
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gpu-check.sh", description=__doc__.split("\n")[0])
    ap.add_argument("--cpu-only", action="store_true", help="skip the GPU half")
    ap.add_argument("--budgets", default="100,70,50")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--keep", help="keep the intermediate files in this directory")
    ap.add_argument("--repeat", type=int, default=5,
                    help="GPU runs per step; the GPU ms column is their median")
    ap.add_argument("--offload", action="store_true",
                    help="plan with offload=auto (values moved to host memory)")
    ap.add_argument("--time-model", action="store_true",
                    help="plan with op times measured on each device and compare "
                         "each step's time with its plan's (on a GPU, implied by "
                         "--offload)")
    ap.add_argument("--no-compiled-steps", action="store_true",
                    help="skip ckpt.compile_step(device='cuda') on the imported models")
    args = ap.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    models = args.models.split(",")
    for m in models:
        if m not in MODELS:
            ap.error(f"unknown model '{m}' (known: {', '.join(MODELS)})")
    gpu = not args.cpu_only
    if gpu:
        # cuBLAS and cuDNN for the kernels=blas runs (ckpt-run, compile_step).
        from ckpt.step import use_nvidia_wheels
        use_nvidia_wheels()
        # One clear line when there is no device, before any work.
        with tempfile.TemporaryDirectory() as tmp:
            low = os.path.join(tmp, "mlp.mlir")
            remat.run(["ckpt-opt", os.path.join(STEPS, "mlp.mlir"), "--ckpt-wrap-step",
                       "--ckpt-lower-to-nvptx=format=fatbin", "-o", low])
            probe = subprocess.run(["ckpt-run", "--gpu", low, "--entry=mlp_step"],
                                   capture_output=True, text=True)
        if probe.returncode:
            print(f"gpu-check: {probe.stderr.strip().splitlines()[-1]}", file=sys.stderr)
            print("gpu-check: without a usable GPU, run with --cpu-only", file=sys.stderr)
            return 1
    misses, rows, timed = [], [], []
    time_model = args.time_model or (gpu and args.offload)
    for m in models:
        with tempfile.TemporaryDirectory() as tmp:
            work = os.path.join(args.keep, m) if args.keep else tmp
            os.makedirs(work, exist_ok=True)
            # One import and one wrapped step for both checks.
            wrapped = remat.wrap(model_step(m, work)[0], work)
            rows += check_model(m, wrapped, budgets, gpu, args.rtol, work, misses,
                                "offload=auto device=cpu" if args.offload else "",
                                args.repeat)
            if time_model:
                timed += check_time_model(m, wrapped, budgets,
                                          ["cpu", "gpu", "gpu-blas"] if gpu else ["cpu"],
                                          work, misses,
                                          "offload=auto device=cpu" if args.offload
                                          else "device=cpu", args.repeat)
        print(f"gpu-check: {m} done", file=sys.stderr, flush=True)
    print(table(rows, gpu))
    if time_model:
        print()
        print(time_model_table(timed))
    if gpu and not args.no_compiled_steps:
        compiled = check_compiled_steps(args.rtol, misses, args.repeat)
        print()
        print(compiled_table(compiled))
        rows += compiled
    for miss in misses:
        print(f"MISS {miss}")
    print(f"{'FAIL' if misses else 'PASS'}: {len(rows)} runs, {len(misses)} misses"
          f"{'' if gpu else ' (CPU only: the GPU half was not run)'}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
