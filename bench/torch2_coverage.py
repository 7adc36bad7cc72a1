#!/usr/bin/env python3
"""What the PyTorch 2 importer covers: Hugging Face models from configs,
timm models, and torchvision's whole model zoo.

    .venv/bin/python bench/torch2_coverage.py [--groups hf,timm,torchvision]
        [--models NAME,...] [--no-run] [--max-run-ops N] [--doc docs/IMPORTERS.md]

Per model: the import (default fake tracing, the model's own loss for hf:
configs, cross entropy for the others) and its traced ATen op count and
opaque ops; `ckpt-plan` at 70% and 50% of the store-all peak (wall time, and
the least feasible budget where one is infeasible); and, for a step of at
most --max-run-ops ATen ops (default 3000) and --max-run-params parameters
(default 30 million), inputs no larger than 4x3x64x64 and no opaque ops,
the run:
lowered to the CPU, run by ckpt-run, the loss and every gradient against
eager PyTorch in float64 under the error model of python/tests/numerics.py
(the worst |error| / bound, ours and PyTorch's float32). A model that fails
anywhere is reported in its row, not fatal.

The sizes: hf: examples/hf/*.json at batch 2, sequence 8 (images 16x16);
timm: the small variants of python/tests/test_timm_models.py; torchvision:
one model of each family (TORCHVISION below; --all-torchvision: all of
them), each constructor with num_classes=10 (segmentation models with
weights_backbone=None, aux_loss=False, their per-pixel scores as rows),
batch 2 at 64x64 (224x224 for the vision transformers and Swin, whose
patch grids are fixed; video models 1x3x4x32x32; inception_v3 and googlenet
without aux heads).

Prints a Markdown table; --doc writes it into the file between
`<!-- torch2-coverage:begin -->` and `<!-- torch2-coverage:end -->`.
"""

import argparse
import glob
import os
import platform
import sys
import tempfile
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))

import torch  # noqa: E402

torch.set_num_threads(1)
warnings.filterwarnings("ignore")

import models_e2e as me  # noqa: E402  (python/tests/models_e2e.py)
from ckpt import remat  # noqa: E402
from ckpt import torch_import as ti  # noqa: E402
from ckpt.torch_import.models import PixelRows  # noqa: E402

GROUPS = ("hf", "timm", "torchvision")


def short(e, n=90):
    text = " ".join(str(e).split())
    if " exited " in text:
        text = text.split("error:", 1)[-1].strip()
    return text if len(text) <= n else text[:n - 3] + "..."


def _size(n):
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n} B"


def _cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "CPU"


def hf_models():
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "hf", "*.json"))):
        name = os.path.basename(path)[:-5]

        def build(path=path):
            from ckpt.torch_import import hf
            model, xs, names, step, ranges = hf.build_model(path, 2, seq=8, image=16)
            return model, xs, None, dict(loss="model", input_names=names,
                                         input_ranges=ranges)
        yield f"hf:{name}", build


def timm_models():
    import test_timm_models as tt
    import timm
    for name, (kwargs, shape) in sorted(tt.SMALL.items()):
        def build(name=name, kwargs=kwargs, shape=shape):
            torch.manual_seed(0)
            model = timm.create_model(name, pretrained=False, num_classes=10, **kwargs)
            x, t = ti.user_inputs(model, shape)
            return model, (x,), t, {}
        yield f"timm:{name}", build


# One model of each torchvision family (its smallest, and the ones named in
# the issues: segmentation, Swin, MaxViT, the video models);
# --all-torchvision takes every model of torchvision.models.list_models().
TORCHVISION = [
    "alexnet", "convnext_tiny", "densenet121", "efficientnet_b0", "efficientnet_v2_s",
    "googlenet", "inception_v3", "maxvit_t", "mnasnet0_5", "mobilenet_v2",
    "mobilenet_v3_small", "regnet_x_400mf", "regnet_y_400mf", "resnet18", "resnet50",
    "resnext50_32x4d", "shufflenet_v2_x0_5", "squeezenet1_1", "swin_t", "swin_v2_t", "vgg11",
    "vit_b_16", "wide_resnet50_2", "fcn_resnet50", "deeplabv3_mobilenet_v3_large",
    "lraspp_mobilenet_v3_large", "r3d_18", "mc3_18", "r2plus1d_18", "s3d", "mvit_v2_s",
    "swin3d_t"]


def torchvision_models(every=False):
    import torchvision
    tv = torchvision.models
    seg = set(tv.list_models(module=tv.segmentation))
    video = set(tv.list_models(module=tv.video))
    names = (tv.list_models(module=tv) + sorted(seg) + sorted(video)) if every else TORCHVISION
    for name in names:
        def build(name=name):
            kw = dict(num_classes=10)
            if name in seg:
                kw.update(weights_backbone=None, aux_loss=False)
            if name in ("inception_v3", "googlenet"):
                kw.update(aux_logits=False, init_weights=False)
            torch.manual_seed(0)
            model = tv.get_model(name, **kw)
            if name in seg:
                model = PixelRows(model)
            if name in video:
                shape = (1, 3, 4, 32, 32)
            elif name.startswith(("vit", "swin", "maxvit")):
                shape = (2, 3, 224, 224)
            elif name == "inception_v3":
                shape = (2, 3, 96, 96)
            else:
                shape = (2, 3, 64, 64)
            x, t = ti.user_inputs(model, shape)
            return model, (x,), t, {}
        yield f"{name}", build


def measure(name, build, tmp, run, max_run_ops, max_run_params):
    row = {"name": name}
    start = time.perf_counter()
    try:
        model, xs, target, extra = build()
        row["input"] = " ".join("x".join(map(str, x.shape)) + (
            "" if x.is_floating_point() else f" {str(x.dtype)[6:]}") for x in xs)
        text, info = ti.import_module_info(model, xs if len(xs) > 1 else xs[0], target,
                                           name="m", **extra)
    except Exception as e:  # noqa: BLE001
        row["error"] = f"import fails: {short(e)}"
        return row
    row.update(aten=info["aten_ops"], opaque=info["opaque"],
               import_s=time.perf_counter() - start)
    step = me.write_step(text, "m", tmp)
    try:
        wrapped = remat.wrap(step, tmp)
    except remat.Failure as e:
        row["error"] = f"ckpt-opt --ckpt-wrap-step fails: {short(e)}"
        return row
    for budget in ("70%", "50%"):
        try:
            seconds, least = me.plan_only(wrapped, budget, tmp)
            row[budget] = f"{seconds:.2f} s" + ("" if least is None else
                                                f" (least {_size(least)})")
        except remat.Failure as e:
            row[budget] = f"fails: {short(e, 60)}"
    if info["opaque_ops"]:
        row["runs"] = "no (opaque ops)"
        return row
    params = sum(p.numel() for p in model.parameters())
    big_input = any(x.numel() > 4 * 3 * 64 * 64 for x in xs)
    if not run or info["aten_ops"] > max_run_ops or params > max_run_params or big_input:
        row["runs"] = "not run (size)"
        return row
    try:
        _, base = me.base_run(step, "m", tmp)
    except remat.Failure as e:
        row["runs"] = f"no: {short(e, 60)}"
        return row
    try:
        if extra.get("loss") == "model":
            ours, theirs = me.compare_model_loss_with_eager(model, xs, text, "m", base)
        else:
            ours, theirs = me.compare_with_eager(model, xs[0], text, "m", base)
        row["runs"] = f"yes, {ours:.2g} (PyTorch {theirs:.2g})"
    except AssertionError as e:
        msg = str(e)
        if "PyTorch float32 eager" in msg.split(":")[1]:
            row["runs"] = "yes; ill-conditioned: PyTorch's float32 is outside the bound too"
        else:
            row["runs"] = f"yes, outside the bound: {short(msg, 80)}"
    except Exception as e:  # noqa: BLE001
        row["runs"] = f"yes, not compared: {short(e, 60)}"
    return row


def table(rows):
    lines = ["| model | input | aten ops | opaque | runs, worst error / bound | plan 70% | "
             "plan 50% | import |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "aten" not in r:
            lines.append(f"| {r['name']} | {r.get('input', '')} | | | {r.get('error', '')} "
                         "| | | |")
            continue
        op = r["opaque"]
        opaque = (", ".join(f"{k} x{v}" for k, v in sorted(op.items())) if op else "0")
        lines.append(f"| {r['name']} | {r['input']} | {r['aten']} | {opaque} | "
                     f"{r.get('runs', r.get('error', ''))} | {r.get('70%', '')} | "
                     f"{r.get('50%', '')} | {r['import_s']:.1f} s |")
    return "\n".join(lines)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--groups", default=",".join(GROUPS))
    a.add_argument("--models", help="only these (comma-separated names as in the table)")
    a.add_argument("--no-run", action="store_true", help="import and plan only")
    a.add_argument("--max-run-ops", type=int, default=3000)
    a.add_argument("--max-run-params", type=float, default=30e6)
    a.add_argument("--all-torchvision", action="store_true",
                   help="every torchvision model, not one of each family")
    a.add_argument("--doc", help="write the table into this Markdown file")
    args = a.parse_args(argv)
    sources = {"hf": hf_models, "timm": timm_models,
               "torchvision": lambda: torchvision_models(args.all_torchvision)}
    only = set(args.models.split(",")) if args.models else None
    rows, start = [], time.time()
    for group in args.groups.split(","):
        if group not in sources:
            sys.exit(f"unknown group '{group}'; known: {', '.join(GROUPS)}")
        for name, build in sources[group]():
            if only is not None and name not in only:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                rows.append(measure(name, build, tmp, not args.no_run, args.max_run_ops,
                                    args.max_run_params))
            print(f"{name}: {rows[-1].get('runs', rows[-1].get('error'))} "
                  f"({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    clean = sum(1 for r in rows if "aten" in r and not r["opaque"])
    ran = sum(1 for r in rows if r.get("runs", "").startswith("yes, ") and "outside" not in
              r["runs"] and "not compared" not in r["runs"])
    text = table(rows) + (
        f"\n\n{len(rows)} models: {clean} import with no opaque op, {ran} run and match "
        f"eager PyTorch within the bound. Generated by `bench/torch2_coverage.py` "
        f"({time.strftime('%Y-%m-%d')}, PyTorch {torch.__version__}, {platform.machine()}, "
        f"{_cpu()}, one thread, {time.time() - start:.0f} s in all). "
        "Plan = wall time of `ckpt-opt --ckpt-plan=budget=B` on the wrapped step (least: the "
        "least feasible budget the error names, where B is below it).")
    print(text)
    if args.doc:
        try:
            remat.replace_block(args.doc, "torch2-coverage", text)
        except remat.Failure as e:
            sys.exit(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
