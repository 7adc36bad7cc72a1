#!/usr/bin/env python3
"""Offloading against recomputation on imported PyTorch steps.

Tables, printed and (with --doc) written into docs/BENCHMARKS.md between
the offload-plans, offload-runs and offload-graphs markers:

1. Plans. For GPT-2 small (batch 8, sequence 1024), a Llama-style decoder
   (12 layers, width 768, 12 heads, 4 key/value heads, sequence 512, vocabulary
   32000, batch 4) and ResNet-50 (batch 8, 224x224), imported with
   `python -m ckpt.torch_import`, for the h100 (PCIe 5) and gh200
   (NVLink-C2C) device profiles, at 70%, 50% and 30% of the store-all peak
   and at the least budget recomputation alone reaches (named by ckpt-plan's
   error at 1 byte), and at the least budget with offloading where that is
   lower (named by the error with offload=auto): the overhead over the
   store-all time of

   - recomputation alone: `ckpt-plan budget=B device=D` (offload=off);
   - offloading alone: PyTorch's save_on_cpu on the step as written (every
     saved activation to the host after its last forward reader, back on
     demand), `ckpt-report`'s `save_on_cpu` baseline: its device peak may
     not fit B ("over" when it does not);
   - checkpointing every block with its inputs offloaded: the step imported
     with `--keep blocks` (ckpt.checkpoint on every block's input),
     `ckpt-report`'s `checkpoint_offload` baseline (strategy keep, then
     save_on_cpu on that schedule); "over" as above;
   - both: `ckpt-plan budget=B device=D offload=auto`, with the number of
     values moved and the host peak;

   and the wall time of the joint plan (ckpt-opt, whole process).

2. Runs on the CPU. Small versions (tinyresnet, tinygpt, llama; batch 2)
   planned with offload=auto for the cpu device at 95%, 80% and 60% of the
   measured unplanned peak, rewritten, lowered and run by ckpt-run: device
   peak predicted (the plan's, and ckpt-print-analysis on the rewritten
   step) against measured, host peak planned against measured, outputs
   against the unplanned step's.

3. Checkmate's graphs (with --graphs DIR, e.g. ../shared/graphs/checkmate;
   written between the offload-graphs markers): `ckpt-sched GRAPH
   --budget=B --offload-link=1e6 --compact` at 70%, 50%, 30% and 20%, the
   graphs' own cost units and a link of 10^6 bytes per unit each way.

    .venv/bin/python bench/offload_steps.py --build build --doc docs/BENCHMARKS.md \
        --graphs ../shared/graphs/checkmate

(--only plans|runs|graphs makes one of the blocks.)

Exit status 1 when a joint plan is slower than recomputation alone, when a
peak exceeds its budget, or when a run differs from its prediction.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from ckpt import remat  # noqa: E402

MODELS = [
    ("GPT-2 small", ["gpt2small", "--batch", "8"]),
    ("Llama-style", ["llama", "--batch", "4", "--layers", "12", "--width", "768",
                     "--heads", "12", "--kv-heads", "4", "--seq", "512", "--vocab", "32000"]),
    ("ResNet-50", ["resnet50", "--batch", "8"]),
]
SMALL = [("tinyresnet", ["tinyresnet", "--batch", "2"], "tinyresnet_step"),
         ("tinygpt", ["tinygpt", "--batch", "2"], "tinygpt_step"),
         ("llama", ["llama", "--batch", "2"], "llama_step")]
DEVICES = ["h100", "gh200"]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def import_model(args, out, build):
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    subprocess.run([sys.executable, "-m", "ckpt.torch_import", *args, "--quiet", "-o", out],
                   check=True, env=env)


def plan_report(opt, step, budget, device, offload, tmp):
    """(report entry, wall seconds) of ckpt-plan + ckpt-report (the plan's
    numbers and baselines; no least budgets or lower bounds), or (error, s)."""
    report = os.path.join(tmp, "report.json")
    start = time.monotonic()
    p = subprocess.run([opt, step, "--ckpt-wrap-step",
                        f"--ckpt-plan=budget={budget} device={device} offload={offload}",
                        remat.report_flag(report), "-o", os.devnull],
                       capture_output=True, text=True)
    wall = time.monotonic() - start
    if p.returncode:
        return p.stderr, wall
    with open(report) as f:
        return json.load(f)[0], wall


def gib(n):
    return f"{n / 2**30:.2f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def plans_table(opt, build, tmp, failures):
    rows = ["| model | device | budget | recompute only | save_on_cpu | blocks + offload "
            "| recompute + offload | moved | host peak | plan time |",
            "|---|---|---|---|---|---|---|---|---|---|"]

    def over(baseline, entry):
        text = f"{baseline['overhead_percent']:.1f}%"
        if baseline["peak_bytes"] > entry["budget_bytes"]:
            share = 100 * baseline["peak_bytes"] / entry["store_all"]["peak_bytes"]
            text += f" (over: {share:.0f}%)"
        return text

    for name, args in MODELS:
        step = os.path.join(tmp, "model.mlir")
        import_model(args, step, build)
        marked = os.path.join(tmp, "marked.mlir")
        import_model(args + ["--keep", "blocks"], marked, build)
        for device in DEVICES:
            blocks, _ = plan_report(opt, marked, "100%", device, "off", tmp)
            blocks = (None if isinstance(blocks, str)
                      else blocks["baselines"].get("checkpoint_offload"))
            error, _ = plan_report(opt, step, 1, device, "off", tmp)
            least = remat.LEAST_FEASIBLE.search(error)
            budgets = ["70%", "50%", "30%"] + ([least.group(1)] if least else [])
            labels = {}
            if least:
                labels[least.group(1)] = f"least ({gib(int(least.group(1)))})"
                # The least budget with offloading, where it is lower.
                error, _ = plan_report(opt, step, 1, device, "auto", tmp)
                lower = remat.LEAST_FEASIBLE.search(error)
                if lower and int(lower.group(1)) < int(least.group(1)):
                    budgets.append(lower.group(1))
                    labels[lower.group(1)] = (f"least with offloading ({lower.group(1)} B, "
                                              f"{int(least.group(1)) - int(lower.group(1))} B "
                                              "under)")
            for budget in budgets:
                alone, _ = plan_report(opt, step, budget, device, "off", tmp)
                joint, wall = plan_report(opt, step, budget, device, "auto", tmp)
                label = labels.get(budget, budget)
                if isinstance(joint, str):
                    if "infeasible" not in joint or not isinstance(alone, str):
                        failures.append(f"{name} {device} {budget}: {joint.strip()[-300:]}")
                    rows.append(f"| {name} | {device} | {label} | refused | | | refused | | | "
                                f"{wall:.1f} s |")
                    print(rows[-1], flush=True)
                    continue
                bytes_ = joint["budget_bytes"]
                plan = joint["plan"]
                if plan["peak_bytes"] > bytes_:
                    failures.append(f"{name} {device} {budget}: peak over the budget")
                alone_text = "refused"
                if not isinstance(alone, str):
                    alone_text = f"{alone['plan']['overhead_percent']:.2f}%"
                    if plan["time_s"] > alone["plan"]["time_s"]:
                        failures.append(f"{name} {device} {budget}: joint slower")
                cpu_text = over(joint["baselines"]["save_on_cpu"], joint)
                blocks_text = over(blocks, joint) if blocks and "peak_bytes" in blocks else "-"
                moved = len(plan.get("transfers", []))
                rows.append(f"| {name} | {device} | {label} | {alone_text} | {cpu_text} | "
                            f"{blocks_text} | "
                            f"{plan['overhead_percent']:.2f}% | {moved} | "
                            f"{gib(plan.get('host_peak_bytes', 0)) if moved else '-'} | {wall:.1f} s |")
                print(rows[-1], flush=True)
    return "\n".join(rows)


def runs_table(build, tmp, failures):
    rows = ["| step | budget | moved | device peak: planned | simulated | measured "
            "| host peak: planned | measured | outputs |", "|---|---|---|---|---|---|---|---|---|"]
    for name, args, entry in SMALL:
        step = os.path.join(tmp, f"{name}.mlir")
        import_model(args, step, build)
        wrapped = remat.wrap(step, tmp)
        base = remat.execute(wrapped, entry, tmp)
        for percent in (95, 80, 60):
            budget = percent * base["peak_bytes"] // 100
            try:
                planned, _, numbers = remat.plan(wrapped, budget, tmp, "device=cpu offload=auto")
            except (remat.Failure, remat.Infeasible):
                rows.append(f"| {name} | {percent}% | refused | | | | | | |")
                continue
            host, moved = numbers["host_peak"], numbers["transfers"]
            rewritten, simulated = remat.rewrite(planned, tmp)
            run = remat.execute(rewritten, entry, tmp)
            same = run["outputs_sha256"] == base["outputs_sha256"]
            try:
                remat.check(base, run, budget, simulated, host)
                if run["peak_bytes"] != numbers["peak"]:
                    raise remat.Failure(f"measured peak {run['peak_bytes']} vs the plan's "
                                        f"{numbers['peak']}")
            except remat.Failure as e:
                failures.append(f"{name} {percent}%: {e}")
            rows.append(f"| {name} | {percent}% ({budget} B) | {moved} | {numbers['peak']} | "
                        f"{simulated} | {run['peak_bytes']} | {host} | {run['host_peak_bytes']} | "
                        f"{'identical' if same else 'DIFFERENT'} |")
            print(rows[-1], flush=True)
    return "\n".join(rows)


GRAPHS = [("ResNet-50", "ResNet50_256_224_224_3_train_nx.json"),
          ("MobileNet", "MobileNet_512_224_224_3_train_nx.json"),
          ("vgg_unet", "vgg_unet_32_416_608_3_train_nx.json"),
          ("fcn_8_vgg", "fcn_8_vgg_32_416_608_3_train_nx.json")]


def graphs_table(build, graphs, failures):
    sched = os.path.join(build, "bin", "ckpt-sched")
    rows = ["| graph | budget | recompute only | recompute + offload | host | time |",
            "|---|---|---|---|---|---|"]
    for name, file in GRAPHS:
        path = os.path.join(graphs, file)
        for percent in (70, 50, 30, 20):
            start = time.monotonic()
            p = subprocess.run([sched, path, f"--budget={percent}%", "--offload-link=1e6",
                                "--compact"], capture_output=True, text=True)
            wall = time.monotonic() - start
            try:
                d = json.loads(p.stdout)  # exit status 2: infeasible, still a report
            except json.JSONDecodeError:
                failures.append(f"{name} {percent}%: {p.stderr.strip()[-300:]}")
                continue
            off = d.get("offload", {})
            alone = f"{d['overhead_percent']:.2f}%" if d.get("feasible") else "refused"
            if not off.get("feasible"):
                joint, host = "refused", "-"
            else:
                if d.get("feasible") and off["cost"] > d["cost"]:
                    failures.append(f"{name} {percent}%: joint slower")
                copies = off["transfers"]
                stall = f", {off['stall']:.0f} units of stall" if off["stall"] else ", no stall"
                joint = (f"{off['overhead_percent']:.2f}% ({copies} copies{stall})" if copies
                         else f"{off['overhead_percent']:.2f}% (no copy)")
                host = f"{off['host_peak'] / 1e9:.1f} GB" if copies else "-"
            rows.append(f"| {name} | {percent}% | {alone} | {joint} | {host} | {wall:.2f} s |")
            print(rows[-1], flush=True)
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--doc", help="write the tables into this Markdown file")
    ap.add_argument("--graphs", help="the folder of Checkmate's graphs (table 3)")
    ap.add_argument("--only", choices=["plans", "runs", "graphs"])
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    os.environ["PATH"] = os.path.join(build, "bin") + os.pathsep + os.environ["PATH"]
    opt = os.path.join(build, "bin", "ckpt-opt")
    failures = []
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    where = f"Measured on {cpu_name()}, commit {commit}, with "
    command = "`.venv/bin/python bench/offload_steps.py --build build --doc docs/BENCHMARKS.md"
    with tempfile.TemporaryDirectory() as tmp:
        for block, make in (("plans", lambda: plans_table(opt, build, tmp, failures)),
                            ("runs", lambda: runs_table(build, tmp, failures))):
            if args.only not in (None, block):
                continue
            text = where + f"{command} --only {block}`.\n\n" + make() + "\n"
            print(text)
            if args.doc:
                remat.replace_block(args.doc, f"offload-{block}", text)
    if args.only in (None, "graphs") and args.graphs:
        graphs = graphs_table(build, args.graphs, failures)
        text = (where + f"{command} --only graphs --graphs ../shared/graphs/checkmate`."
                f"\n\n{graphs}\n")
        print(text)
        if args.doc:
            remat.replace_block(args.doc, "offload-graphs", text)
    for failure in failures:
        print("FAIL", failure, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
