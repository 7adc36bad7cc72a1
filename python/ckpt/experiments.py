"""The rotor experiment on ckpt's planner (Beaumont et al. 2019, Figure 3).

    /usr/bin/python3 -m ckpt.experiments [SOURCE ...] [--out DIR] [--points N]
                                         [--doc FILE] [--slots S] [--device D]

For every model: the training step is planned once (ckpt-wrap-step,
ckpt-plan, ckpt-report through `ckpt.run_passes`), which gives the
heterogeneous chain the separator analysis cut it into (the report's
`chain`: per stage forward/backward times and sizes, predicted with the
`device` cost model). On that chain, for N budgets evenly spaced from the
least feasible budget of `optimal` to the store-all peak, every strategy is
solved: `optimal` (Theorem 1), `periodic:K` for every K (PyTorch's
checkpoint_sequential with K segments), `revolve` and `store-all`. The
predicted throughput of a strategy at a budget is the batch size over its
makespan, shown relative to store-all's (1.0 = no recomputation).

Writes DIR/<model>.png (throughput against memory, one curve per strategy;
`periodic` is the best K at each budget, with every K as a thin line),
DIR/results.json, and a markdown table (stdout, or replacing the block
between `<!-- experiments:begin -->` and `<!-- experiments:end -->` in
--doc): per model, stages, the chain model's store-all peak and least
feasible budgets, the mean and largest throughput gain of `optimal` over the
best `periodic` at equal memory (the best K at each budget, or store-all
where it fits; over the budgets where one of them fits), the step's own
store-all peak (the simulated peak of the step as written, ckpt-opt's and
ckpt-run's; a dashed line on the plots), and the planning time (the wall
time of ckpt-plan with fit=simulation, optimal, at 50% of the step's
store-all peak, or at the least feasible budget above it). Budgets, peaks
and throughputs of the sweep are the chain model's.

SOURCE is one of
  zoo:NAME[:key=value,...]    a model of ckpt.zoo (e.g. zoo:resnet:depth=8,batch=8)
  torch:NAME[:batch=B]        a torchvision model through ckpt.torch_import
  graph:PATH.json             a Checkmate graph through ckpt.import_graph
  PATH.mlir                   a step in a file
Without SOURCEs: the default set written in DEFAULT_SOURCES.
Needs matplotlib for the plots (Debian's python3-matplotlib).
"""

import argparse
import json
import os
import re
import sys
import tempfile
import time

import ckpt
from ckpt import progress, remat

def _find_graphs():
    """The Checkmate graphs: $CKPT_CHECKMATE_GRAPHS, or shared/graphs/checkmate
    in a directory above this file (beside the checkout)."""
    if os.environ.get("CKPT_CHECKMATE_GRAPHS"):
        return os.environ["CKPT_CHECKMATE_GRAPHS"]
    d = os.path.dirname(os.path.abspath(__file__))
    while d != os.path.dirname(d):
        candidate = os.path.join(d, "shared", "graphs", "checkmate")
        if os.path.isdir(candidate):
            return candidate
        d = os.path.dirname(d)
    return os.path.join("shared", "graphs", "checkmate")


_GRAPHS = _find_graphs()

DEFAULT_SOURCES = [
    "zoo:mlp:depth=16,batch=256,width=64",
    "zoo:resnet:depth=8,batch=8,width=16,size=16",
    "zoo:transformer:depth=6,batch=4,width=32,size=64",
    "zoo:unet:depth=3,batch=4,width=8,size=32",
    "zoo:densenet:depth=8,batch=4,width=8,size=16",
    "torch:resnet18:batch=8",
    "torch:resnet50:batch=8",
    "torch:resnet101:batch=8",
    "torch:resnet152:batch=8",
    "torch:densenet121:batch=8",
    "torch:vgg16:batch=8",
    "torch:inception_v3:batch=8",
] + [f"graph:{os.path.join(_GRAPHS, g)}" for g in [
    "VGG16_256_224_224_3_train_nx.json", "VGG19_256_224_224_3_train_nx.json",
    "ResNet50_256_224_224_3_train_nx.json", "MobileNet_512_224_224_3_train_nx.json",
    "fcn_8_vgg_32_416_608_3_train_nx.json", "segnet_32_416_608_3_train_nx.json",
    "vgg_unet_32_416_608_3_train_nx.json"]]


def _kv(spec):
    out = {}
    for item in filter(None, spec.split(",")):
        if "=" not in item:
            raise ValueError(f"expected key=value, not '{item}'")
        k, v = item.split("=", 1)
        out[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return out


def load_source(source):
    """(name, MLIR text, batch) of a SOURCE string."""
    if source.startswith("zoo:"):
        _, name, *rest = source.split(":", 2)
        opts = _kv(rest[0]) if rest else {}
        from . import zoo
        step = zoo.generate(name, **opts)
        label = name + "".join(f"-{k}{v}" for k, v in opts.items())
        return label, step.text, opts.get("batch", 1)
    if source.startswith("torch:"):
        _, name, *rest = source.split(":", 2)
        opts = _kv(rest[0]) if rest else {}
        from . import torch_import
        batch = opts.get("batch", 1)
        model, x, target = torch_import.build_model(name, batch=batch, image=opts.get("image"))
        text = torch_import.import_module(model, x, target, name=name)
        return f"{name}-b{batch}", text, batch
    if source.startswith("graph:"):
        path = source[len("graph:"):]
        from . import import_graph
        text = import_graph.import_graph(path)
        name = os.path.splitext(os.path.basename(path))[0]
        # Checkmate's file names hold the batch: MODEL_BATCH_H_W_C_train_nx.
        m = re.search(r"_(\d+)_\d+_\d+_\d+_train", name)
        return name, text, int(m.group(1)) if m else 1
    with open(source) as f:
        return os.path.splitext(os.path.basename(source))[0], f.read(), 1


def chain_of(text, device, slots):
    """The chain model of the (first) step in `text`, as the report gives it."""
    return chain_and_peak(text, device, slots)[0]


def chain_and_peak(text, device, slots):
    """The chain model of the (first) step in `text`, and the step's
    store-all peak (the simulated peak of the step as written: ckpt-opt's
    and ckpt-run's, below the chain model's own)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        ckpt.run_passes(text, "ckpt-wrap-step,ckpt-plan{budget=1TiB strategy=store-all "
                              f"fit=model device={device} slots={slots}}},"
                              f"ckpt-report{{output={report.name} device={device} "
                              f"slots={slots}}}")
        data = json.load(open(report.name))
    if not data:
        raise ValueError("no ckpt.step with a ckpt.loss in the input")
    return data[0]["chain"], data[0]["store_all"]["peak_bytes"]


def planning_time(text, device, slots):
    """Wall time of ckpt-plan (optimal, fit=simulation) at 50% of the step's
    store-all peak (ckpt-plan's own percentage), or at the least feasible
    budget it names when that is higher; and that budget in bytes."""
    wrapped, _ = ckpt.run_passes(text, "ckpt-wrap-step")

    def plan(budget):
        start = time.perf_counter()
        planned, _ = ckpt.run_passes(
            wrapped, f"ckpt-plan{{budget={budget} device={device} slots={slots}}}")
        seconds = time.perf_counter() - start
        return seconds, remat.plan_numbers(planned)["budget"]
    try:
        return plan("50%")
    except ckpt.PipelineError as e:
        if e.least_feasible_bytes is None:
            raise
        return plan(e.least_feasible_bytes)


def sweep_model(chain_json, points, slots):
    chain = ckpt.Chain.from_json(json.dumps(chain_json))
    L = len(chain_json["uf"]) - 1     # stages 0..L; periodic:K for 1 <= K <= L
    store_all = ckpt.solve(chain, memory=1 << 62, slots=0, strategy="store-all")
    peak, t0 = store_all.peak, store_all.makespan
    least = ckpt.min_feasible_memory(chain, "optimal", slots)
    budgets = sorted({int(least + (peak - least) * i / max(points - 1, 1))
                      for i in range(points)})
    strategies = ["optimal", "revolve", "store-all"] + [f"periodic:{k}" for k in range(1, L + 1)]
    curves = {s: [] for s in strategies}
    for m in budgets:
        for s in strategies:
            # Fixed schedules (store-all, periodic) are checked with exact
            # sizes; the dynamic programs (optimal, revolve) round sizes up
            # to slots of m/slots, which can only cost them memory.
            exact = s == "store-all" or s.startswith("periodic:")
            r = ckpt.solve(chain, memory=m, slots=0 if exact else slots, strategy=s,
                           with_sequence=False)
            curves[s].append(r.makespan if r.feasible else None)
    # The baseline: checkpoint_sequential with the best number of segments
    # at each budget, or no checkpointing at all (store-all) where it fits.
    periodic = [min((curves[s][i] for s in strategies
                     if (s == "store-all" or s.startswith("periodic:"))
                     and curves[s][i] is not None), default=None)
                for i in range(len(budgets))]
    gains = [p / o - 1 for p, o in zip(periodic, curves["optimal"])
             if p is not None and o is not None]
    least_periodic = min((m for m, p in zip(budgets, periodic) if p is not None), default=None)
    return {"stages": L + 1, "max_k": L, "store_all_peak": peak, "store_all_time": t0,
            "least_feasible": least, "least_feasible_periodic": least_periodic,
            "budgets": budgets, "makespans": curves, "best_periodic": periodic,
            "mean_gain": sum(gains) / len(gains) if gains else None,
            "max_gain": max(gains) if gains else None, "gain_points": len(gains)}


def plot(name, result, batch, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t0 = result["store_all_time"]
    mib = [b / 2 ** 20 for b in result["budgets"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    for k in range(1, result["max_k"] + 1):
        ys = [t0 / m if m else None for m in result["makespans"][f"periodic:{k}"]]
        ax.plot(mib, ys, color="0.85", linewidth=0.6)
    styles = [("optimal", "optimal (Theorem 1)", "C0", "o"),
              ("best_periodic", "periodic, best K, or store-all", "C1", "s"),
              ("revolve", "revolve", "C2", "^"), ("store-all", "store-all", "C3", "x")]
    for key, label, color, marker in styles:
        series = result["best_periodic"] if key == "best_periodic" else result["makespans"][key]
        ys = [t0 / m if m else None for m in series]
        ax.plot(mib, ys, label=label, color=color, marker=marker, markersize=3, linewidth=1.2)
    if result.get("step_store_all_peak"):
        ax.axvline(result["step_store_all_peak"] / 2 ** 20, color="0.4", linestyle="--",
                   linewidth=0.8, label="step as written (ckpt-opt's store-all peak)")
    ax.set_xlabel("memory budget (MiB, chain model)")
    ax.set_ylabel("throughput relative to store-all")
    ax.set_title(f"{name} (batch {batch}, {result['stages']} stages)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def table(rows):
    lines = ["| model | stages | chain store-all peak | least feasible (optimal, chain) | "
             "least feasible (best periodic, chain) | mean gain over best periodic | "
             "largest gain | step store-all peak (ckpt-opt) | planning time |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    gains = []
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['name']} | failed: {r['error']} | | | | | | | |")
            continue
        peak = r["store_all_peak"]

        def pct(b):
            return f"{b / 2 ** 20:.2f} MiB ({100 * b / peak:.0f}%)" if b else "none"
        g = r["mean_gain"]
        if g is not None:
            gains.append(g)
        mean = "n/a" if g is None else "%.1f%%" % (100 * g)
        largest = "n/a" if r["max_gain"] is None else "%.1f%%" % (100 * r["max_gain"])
        lines.append(
            f"| {r['name']} | {r['stages']} | {peak / 2 ** 20:.2f} MiB | {pct(r['least_feasible'])} | "
            f"{pct(r['least_feasible_periodic'])} | {mean} ({r['gain_points']} budgets) | "
            f"{largest} | {r['step_store_all_peak'] / 2 ** 20:.2f} MiB | "
            f"{r['planning_s']:.2f} s |")
    if gains:
        lines.append("")
        lines.append(f"Average over the {len(gains)} models of the mean throughput gain of "
                     f"`optimal` over the best `periodic` at equal memory: "
                     f"**{100 * sum(gains) / len(gains):.1f}%**.")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.experiments",
                                description="Figure 3 of Beaumont et al. 2019 on ckpt's planner.")
    p.add_argument("sources", nargs="*", help="models (see the module docstring)")
    p.add_argument("--out", default="docs/figures", help="directory of the PNGs and results.json")
    p.add_argument("--points", type=int, default=16, help="budgets per model (default 16)")
    p.add_argument("--slots", type=int, default=500, help="DP slots (default 500)")
    p.add_argument("--device", default="h100", help="cost model (default h100)")
    p.add_argument("--doc", help="markdown file whose experiments block is replaced")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line on stderr (drawn only when stderr is a terminal)")
    a = p.parse_args(argv)
    if a.points < 2:
        p.error("--points must be at least 2")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    sources = a.sources or DEFAULT_SOURCES
    line = progress.Line(len(sources), "ckpt.experiments", quiet=a.quiet)
    for source in sources:
        line.step(source.split("/")[-1])
        try:
            name, text, batch = load_source(source)
            chain, step_peak = chain_and_peak(text, a.device, a.slots)
            r = sweep_model(chain, a.points, a.slots)
            r["step_store_all_peak"] = step_peak
            r["planning_s"], r["planning_budget"] = planning_time(text, a.device, a.slots)
        except (ValueError, OSError, ImportError) as e:
            msg = str(e).strip().split("\n")[0][:200]
            print(f"{source}: {msg}", file=sys.stderr)
            rows.append({"name": source, "error": msg})
            continue
        r.update(name=name, source=source, batch=batch)
        rows.append(r)
        if not a.no_plots:
            plot(name, r, batch, os.path.join(a.out, f"{name}.png"))
        mean = "n/a" if r["mean_gain"] is None else "%.1f%%" % (100 * r["mean_gain"])
        print(f"{name}: {r['stages']} stages, mean gain {mean}, "
              f"planning {r['planning_s']:.2f} s", file=sys.stderr)
    line.close()
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    md = table(rows)
    if a.doc:
        try:
            remat.replace_block(a.doc, "experiments", md)
        except remat.Failure as e:
            p.error(str(e))
    else:
        print(md)
    return 0 if all("error" not in r for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
