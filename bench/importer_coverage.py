#!/usr/bin/env python3
"""What the PyTorch importer covers, model family by model family.

    PYTHONPATH=build/python PATH=build/bin:$PATH .venv/bin/python \\
        bench/importer_coverage.py [--models llama,vit,...] [--doc docs/IMPORTERS.md]

For each family of python/tests/models_e2e.py at its coverage size — the
built-in llama and tinygpt (default sizes, batch 2), a ViT, torchvision's
mobilenet_v2 and convnext_tiny (num_classes=10, 32x32, batch 2), a U-Net with
ConvTranspose2d, torchvision's resnet18 (64x64, batch 2) — it imports the
model with the default fake tracing and nothing but the input's shape and
dtype (as `python -m ckpt.torch_import python/tests/models_e2e.py:NAME
--input-shape S [--input-dtype int64]` does), and reports: the traced ATen
ops, the step's MLIR ops, its opaque ops (count and names); whether the step
runs (`ckpt-opt --ckpt-wrap-step --ckpt-lower-to-cpu`, `ckpt-run --seed=7`);
whether its loss and every gradient match eager PyTorch within the error
model's bound (python/tests/numerics.py; the worst |error| / bound, ours and
PyTorch's own float32); and the wall time of `ckpt-plan` at 70% and 50% of
the store-all peak (planning works with opaque ops too), with the least
feasible budget where one is infeasible. A model that fails anywhere is
reported, not fatal. Prints a Markdown table; --doc writes it into the file
between `<!-- coverage:begin -->` and `<!-- coverage:end -->`.
"""

import argparse
import os
import platform
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))

import torch  # noqa: E402

torch.set_num_threads(1)

import models_e2e as me  # noqa: E402  (python/tests/models_e2e.py)
from ckpt import remat  # noqa: E402

COVERAGE = ["llama", "tinygpt", "vit", "mobilenet_v2", "convnext_tiny", "unet", "resnet18"]


def short(e, n=90):
    """One line of at most n characters: a failed command's first error
    line (remat.Failure: "COMMAND exited N: STDERR"), else the message."""
    text = str(e)
    if " exited " in text.split("\n")[0]:
        text = text.split(": ", 1)[-1]
        errors = [l for l in text.split("\n") if "error:" in l]
        text = errors[0].split("error:", 1)[1] if errors else text
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 3] + "..."


def measure(name, tmp):
    row = {"name": name}
    start = time.perf_counter()
    try:
        model, x, _, text, info = me.import_family(name)
    except Exception as e:  # noqa: BLE001
        row["error"] = f"import fails: {short(e)}"
        return row
    row.update(aten=info["aten_ops"], mlir=info["mlir_ops"], opaque=info["opaque"],
               import_s=time.perf_counter() - start)
    step = me.write_step(text, name, tmp)
    try:
        wrapped = remat.wrap(step, tmp)
    except remat.Failure as e:
        row["error"] = f"ckpt-opt --ckpt-wrap-step fails: {short(e)}"
        return row
    for budget in ("70%", "50%"):
        try:
            seconds, least = me.plan_only(wrapped, budget, tmp)
        except remat.Failure as e:
            row[budget] = f"fails: {short(e, 60)}"
            continue
        store = None
        if least is not None:
            # The store-all peak, for the least budget's share of it.
            try:
                store = remat.plan(wrapped, str(least), tmp)[2]["store_all_peak"]
            except (remat.Failure, remat.Infeasible):
                pass
        row[budget] = f"{seconds:.2f} s" + (
            "" if least is None else
            f" (least {100 * least / store:.0f}%)" if store else f" (least {least} B)")
    if info["opaque_ops"]:
        row["runs"] = "no (opaque)"
        return row
    try:
        _, base = me.base_run(step, name, tmp)
        row["runs"] = "yes"
    except remat.Failure as e:
        row["runs"] = f"no: {short(e, 60)}"
        return row
    try:
        ours, theirs = me.compare_with_eager(model, x, text, name, base)
        row["match"] = f"yes ({ours:.2g}; PyTorch {theirs:.2g})"
    except me.Unreproducible as e:
        row["match"] = f"not checked: {short(e, 60)}"
    except AssertionError as e:
        msg = str(e)
        if "PyTorch float32 eager" in msg.split(":")[1]:
            row["match"] = "ill-conditioned: PyTorch's float32 is outside the bound too"
        else:
            row["match"] = f"no: {short(msg, 80)}"
    return row


def table(rows):
    lines = ["| model | input | aten | MLIR | opaque | runs | loss + grads vs PyTorch "
             "(worst error / bound) | plan 70% | plan 50% |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        _, shape, dtype, _ = me.FAMILIES[r["name"]]
        inp = "x".join(map(str, shape)) + ("" if dtype == "float32" else f" {dtype}")
        if "error" in r and "aten" not in r:
            lines.append(f"| {r['name']} | {inp} | | | | {r['error']} | | | |")
            continue
        op = r["opaque"]
        opaque = (f"{sum(op.values())}: " + ", ".join(f"{k} x{v}" for k, v in sorted(op.items()))
                  if op else "0")
        lines.append(f"| {r['name']} | {inp} | {r['aten']} | {r['mlir']} | {opaque} | "
                     f"{r.get('runs', r.get('error', ''))} | {r.get('match', '')} | "
                     f"{r.get('70%', '')} | {r.get('50%', '')} |")
    return "\n".join(lines)


def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--models", default=",".join(COVERAGE),
                   help="families of python/tests/models_e2e.py (comma-separated)")
    a.add_argument("--doc", help="write the table into this Markdown file (between the markers)")
    args = a.parse_args(argv)
    rows = []
    start = time.time()
    for name in args.models.split(","):
        if name not in me.FAMILIES:
            sys.exit(f"unknown family '{name}'; known: {', '.join(me.FAMILIES)}")
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(measure(name, tmp))
        print(f"{name}: done ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
    text = table(rows) + (
        f"\n\nGenerated by `bench/importer_coverage.py` ({time.strftime('%Y-%m-%d')}, PyTorch "
        f"{torch.__version__}, {platform.machine()}, {time.time() - start:.0f} s in all). "
        "Plan = wall time of `ckpt-opt --ckpt-plan=budget=B` on the wrapped step (least: the "
        "least feasible budget the error names, of the store-all peak).")
    print(text)
    if args.doc:
        try:
            remat.replace_block(args.doc, "coverage", text)
        except remat.Failure as e:
            sys.exit(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
