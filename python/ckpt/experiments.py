"""Throughput against memory with ckpt-opt's plans (rotor's Figure 3).

    .venv/bin/python -m ckpt.experiments [SOURCE ...] [--out DIR] [--points N]
                                         [--doc FILE] [--slots S] [--device D]
                                         [--chain-model] [--no-plots] [--quiet]

For every model, everything plotted and tabulated is what `ckpt-opt` plans
for the step itself (ckpt-wrap-step, ckpt-plan, ckpt-report through
`ckpt.run_passes`, in the simulation's memory model: fit=simulation, the
`device` cost model, `slots` DP slots), in the units `ckpt-opt` reports
and `ckpt-run` measures:

- the step's store-all peak and time: the `#ckpt.plan`'s `store_all_peak`
  and `store_all_time` (the simulated peak of the step as written);
- the least feasible budget of `optimal`: the one ckpt-plan's error names
  when asked for 1 byte;
- N budgets evenly spaced from that least budget to the store-all peak; at
  each, `optimal`'s plan (its `#ckpt.plan` peak and time) and every
  baseline `ckpt-report` gives at the same budget: `store-all`,
  `periodic:2`, `periodic:3`, `periodic:4`, `sqrt` (periodic with about
  sqrt(stages) segments), `revolve` and `memory-poor`, each planned as
  `ckpt-plan strategy=...` plans it (their least feasible budgets too).

The predicted throughput of a plan is store-all's time over the plan's
time (1.0 = no recomputation); its overhead is the plan's time over
store-all's, minus 1 (ckpt-opt's `overhead_percent`). "Best periodic" is,
at each budget, the fastest of `periodic:2..4`, `sqrt` and `store-all`
that fits (checkpoint_sequential with the best of those segment counts, or
no checkpointing); the gain of `optimal` over it is
`time(best periodic) / time(optimal) - 1`, over the budgets where it fits.

Writes DIR/<model>.png (throughput against the budget, one curve per
strategy; the title gives the batch size of the step, read from its input's
shape), DIR/results.json, and a markdown table (stdout, or replacing the
block between `<!-- experiments:begin -->` and `<!-- experiments:end -->`
in --doc): per model, its batch, the step's store-all peak, the least
feasible budget of `optimal` and its overhead there, the least budget of
the best periodic schedule, the mean and largest gain, and the planning
time (the wall time of ckpt-plan, optimal, at 50% of the step's store-all
peak, or at the least feasible budget when that is higher).

--chain-model adds, apart and labelled as such, the paper's own model: the
rotor chain (Beaumont et al. 2019) of the step that the separator analysis
cuts it into (`ckpt-report`'s `chain`), solved by the chain DP for every
strategy and every periodic:K (DIR/<model>-chain.png, titled "chain model
(Beaumont et al. 2019)", `chain_model` in results.json, a second table).
The chain model counts every stage's saved values at full size, so its
peaks and budgets are not the step's (often far above them).

SOURCE is one of
  zoo:NAME[:key=value,...]    a model of ckpt.zoo (e.g. zoo:resnet:depth=8,batch=8)
  torch:NAME[:batch=B]        a torchvision model through ckpt.torch_import
  graph:PATH.json             a Checkmate graph through ckpt.import_graph
  PATH.mlir                   a step in a file
Without SOURCEs: the default set written in DEFAULT_SOURCES.
Needs matplotlib for the plots (python/requirements.txt, in .venv).
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

# The report's baselines that are checkpoint_sequential with some number of
# segments, or no checkpointing at all: "best periodic" is the fastest of
# these that fits.
PERIODIC = ("store-all", "periodic:2", "periodic:3", "periodic:4", "sqrt")


def _kv(spec):
    out = {}
    for item in filter(None, spec.split(",")):
        if "=" not in item:
            raise ValueError(f"expected key=value, not '{item}'")
        k, v = item.split("=", 1)
        out[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return out


_FUNC_HEAD = re.compile(r"func\.func\s+(?:\w+\s+)?@[\w.$-]+\s*\(")


def batch_of(text):
    """The batch size of the (first) training step in `text`: the leading
    dimension of the first argument of the first function with a
    `ckpt.loss` attribute (the input, as ckpt.zoo and ckpt.torch_import
    write it), or of the first `ckpt.step`'s first argument; None when it
    is not a static ranked tensor."""
    for m in _FUNC_HEAD.finditer(text):
        # The header runs to the line that opens the body.
        end = text.find("\n", m.end())
        while end != -1 and not text[m.start():end].rstrip().endswith("{"):
            end = text.find("\n", end + 1)
        header = text[m.start():end if end != -1 else len(text)]
        if "ckpt.loss" not in header:
            continue
        arg = re.match(r"\s*%[\w$.-]+\s*:\s*tensor<(\d+)x", text[m.end():])
        return int(arg.group(1)) if arg else None
    arg = re.search(r"ckpt\.step\b[^(\n]*\(\s*%[\w$.-]+\s*:\s*tensor<(\d+)x", text)
    return int(arg.group(1)) if arg else None


def load_source(source):
    """(name, MLIR text, batch) of a SOURCE string. The batch is the one of
    the step: its input's leading dimension (for a Checkmate graph, whose
    inputs are bytes, the batch its file name gives)."""
    if source.startswith("zoo:"):
        _, name, *rest = source.split(":", 2)
        opts = _kv(rest[0]) if rest else {}
        from . import zoo
        step = zoo.generate(name, **opts)
        label = name + "".join(f"-{k}{v}" for k, v in opts.items())
        inputs = [v.shape for v, role in step.builder.args if role == "input"]
        batch = batch_of(step.text) or (inputs[0][0] if inputs else None)
        return label, step.text, batch
    if source.startswith("torch:"):
        _, name, *rest = source.split(":", 2)
        opts = _kv(rest[0]) if rest else {}
        from . import torch_import
        model, x, target = torch_import.build_model(name, batch=opts.get("batch", 1),
                                                    image=opts.get("image"))
        text = torch_import.import_module(model, x, target, name=name)
        batch = batch_of(text) or int(x.shape[0])
        return f"{name}-b{batch}", text, batch
    if source.startswith("graph:"):
        path = source[len("graph:"):]
        from . import import_graph
        text = import_graph.import_graph(path)
        name = os.path.splitext(os.path.basename(path))[0]
        # Checkmate's file names hold the batch: MODEL_BATCH_H_W_C_train_nx.
        m = re.search(r"_(\d+)_\d+_\d+_\d+_train", name)
        return name, text, int(m.group(1)) if m else None
    with open(source) as f:
        text = f.read()
    return os.path.splitext(os.path.basename(source))[0], text, batch_of(text)


# ---- ckpt-opt's plans -------------------------------------------------------

def _plan(wrapped, budget, device, slots):
    """ckpt-plan (optimal) + ckpt-report on the wrapped step at `budget`:
    (the plan's numbers, remat.plan_numbers, and the report of the first
    step). Raises ckpt.PipelineError when the budget is infeasible."""
    _, data = ckpt._run_with_report(
        wrapped, [f"ckpt-plan{{budget={budget} strategy=optimal fit=simulation "
                  f"device={device} slots={slots}}}"], [f"device={device}", f"slots={slots}"])
    if not data:
        raise ValueError("no ckpt.step with a ckpt.loss in the input")
    return remat.plan_numbers(data), data[0]


def step_sweep(text, points, device="h100", slots=500):
    """ckpt-opt's plans for the step in `text` at `points` budgets evenly
    spaced from the least feasible budget of `optimal` to the step's
    store-all peak (see the module docstring). Times in seconds, sizes in
    bytes; None where a strategy does not fit."""
    wrapped, _ = ckpt.run_passes(text, "ckpt-wrap-step")
    try:
        numbers, report = _plan(wrapped, 1, device, slots)
        least = 1
    except ckpt.PipelineError as e:
        if e.least_feasible_bytes is None:
            raise
        least = e.least_feasible_bytes
        numbers, report = _plan(wrapped, least, device, slots)
    planned = {least: (numbers, report)}
    peak, t0 = numbers["store_all_peak"], numbers["store_all_time"]
    least_of = {s: b.get("min_feasible_bytes") for s, b in report["baselines"].items()}
    least_of["optimal"] = least
    strategies = ["optimal"] + list(report["baselines"])
    budgets = sorted({int(least + (peak - least) * i / max(points - 1, 1))
                      for i in range(points)} | {peak})
    times = {s: [] for s in strategies}
    peaks = {s: [] for s in strategies}
    for b in budgets:
        numbers, report = planned.get(b) or _plan(wrapped, b, device, slots)
        runs = {"optimal": {"feasible": True, "time_s": numbers["time"],
                            "peak_bytes": numbers["peak"]}}
        runs.update(report["baselines"])
        for s in strategies:
            r = runs.get(s, {})
            times[s].append(r["time_s"] if r.get("feasible") else None)
            peaks[s].append(r["peak_bytes"] if r.get("feasible") else None)
    best = [min((times[s][i] for s in PERIODIC if s in times and times[s][i] is not None),
                default=None) for i in range(len(budgets))]
    gains = [p / o - 1 for p, o in zip(best, times["optimal"]) if p is not None and o]
    periodic_least = [least_of[s] for s in PERIODIC if least_of.get(s) is not None]

    def overhead(t):
        return None if t is None else 100.0 * (t / t0 - 1.0)
    return {"store_all_peak": peak, "store_all_time": t0,
            "least_feasible": least, "least_feasible_overhead": overhead(times["optimal"][0]),
            "least_feasible_periodic": min(periodic_least, default=None),
            "least_feasible_of": least_of, "budgets": budgets, "times": times,
            "peaks": peaks, "best_periodic": best,
            "overheads": {s: [overhead(t) for t in ts] for s, ts in times.items()},
            "mean_gain": sum(gains) / len(gains) if gains else None,
            "max_gain": max(gains) if gains else None, "gain_points": len(gains)}


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
        # The budget in bytes, from ckpt-report (run after the timed plan).
        _, report = ckpt._run_with_report(planned, [], [remat.REPORT_OPTIONS])
        return seconds, remat.plan_numbers(report)["budget"]
    try:
        return plan("50%")
    except ckpt.PipelineError as e:
        if e.least_feasible_bytes is None:
            raise
        return plan(e.least_feasible_bytes)


def _batch(batch):
    return "batch unknown" if batch is None else f"batch {batch}"


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _finish_plot(plt, fig, ax, path, title, wrap, fontsize):
    """Titles the axes (wrapped after its first ': ' when longer than
    `wrap`), writes the figure to `path` and returns the title."""
    ax.set_title(title.replace(": ", ":\n", 1) if len(title) > wrap else title,
                 fontsize=fontsize)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return title


def plot(name, result, batch, path):
    """The figure of ckpt-opt's plans; returns its title."""
    plt = _pyplot()
    t0 = result["store_all_time"]
    mib = [b / 2 ** 20 for b in result["budgets"]]

    def throughput(series):
        return [t0 / t if t else None for t in series]
    fig, ax = plt.subplots(figsize=(6, 4))
    for s in PERIODIC[1:]:
        if s in result["times"]:
            ax.plot(mib, throughput(result["times"][s]), color="0.85", linewidth=0.6)
    styles = [("optimal", "optimal (ckpt-opt)", "C0", "o"),
              ("best_periodic", "periodic (K = 2, 3, 4, sqrt), best, or store-all", "C1", "s"),
              ("revolve", "revolve", "C2", "^"), ("store-all", "store-all", "C3", "x")]
    for key, label, color, marker in styles:
        series = result["best_periodic"] if key == "best_periodic" else result["times"].get(key)
        if series is None:
            continue
        ax.plot(mib, throughput(series), label=label, color=color, marker=marker,
                markersize=3, linewidth=1.2)
    ax.axvline(result["store_all_peak"] / 2 ** 20, color="0.4", linestyle="--", linewidth=0.8,
               label="the step's store-all peak (ckpt-opt, ckpt-run)")
    ax.set_xlabel("memory budget (MiB; the step's simulated peak, as ckpt-run measures it)")
    ax.set_ylabel("throughput relative to store-all")
    title = f"{name} ({_batch(batch)}): ckpt-opt's plans"
    return _finish_plot(plt, fig, ax, path, title, wrap=66, fontsize=10)


# ---- the paper's chain model (--chain-model) -------------------------------

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


def sweep_model(chain_json, points, slots):
    """The rotor chain DP (not ckpt-opt's plans) on a chain model: every
    strategy and every periodic:K at `points` budgets from the chain's
    least feasible budget of `optimal` to its store-all peak."""
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


CHAIN_TITLE = "chain model (Beaumont et al. 2019)"


def plot_chain(name, result, batch, path):
    """The figure of the chain model's DP; returns its title."""
    plt = _pyplot()
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
                   linewidth=0.8, label="the step's store-all peak (ckpt-opt)")
    ax.set_xlabel("memory budget (MiB, chain model: not the step's peak)")
    ax.set_ylabel("throughput relative to store-all (chain model)")
    title = f"{name} ({_batch(batch)}, {result['stages']} stages): {CHAIN_TITLE}"
    return _finish_plot(plt, fig, ax, path, title, wrap=60, fontsize=9)


# ---- tables -----------------------------------------------------------------

def _mib(b):
    return f"{b / 2 ** 20:.2f} MiB"


def _gain(g):
    return "n/a" if g is None else "%.1f%%" % (100 * g)


def table(rows):
    """The markdown table of ckpt-opt's plans (and, for the rows run with
    --chain-model, the chain model's table after it)."""
    lines = ["| model | batch | store-all peak | least budget (optimal) | overhead there | "
             "least budget (best periodic) | mean gain over best periodic | "
             "largest gain | planning time |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    gains = []
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['name']} | failed: {r['error']} | | | | | | | |")
            continue
        peak = r["store_all_peak"]

        def pct(b):
            return f"{_mib(b)} ({100 * b / peak:.0f}%)" if b else "none"
        if r["mean_gain"] is not None:
            gains.append(r["mean_gain"])
        over = r["least_feasible_overhead"]
        lines.append(
            f"| {r['name']} | {'?' if r['batch'] is None else r['batch']} | {_mib(peak)} | "
            f"{pct(r['least_feasible'])} | {'n/a' if over is None else '+%.1f%%' % over} | "
            f"{pct(r['least_feasible_periodic'])} | {_gain(r['mean_gain'])} "
            f"({r['gain_points']} budgets) | {_gain(r['max_gain'])} | "
            f"{r['planning_s']:.2f} s |")
    if gains:
        lines.append("")
        lines.append(f"Average over the {len(gains)} models of the mean throughput gain of "
                     f"`optimal` over the best `periodic` at equal memory: "
                     f"**{100 * sum(gains) / len(gains):.1f}%**.")
    chained = [r for r in rows if "chain_model" in r]
    if chained:
        lines += ["", f"The {CHAIN_TITLE}, not ckpt-opt's plans (`--chain-model`): the rotor "
                  "chain DP on the step's separator chain, whose sizes count every stage's "
                  "saved values at full size.", "",
                  "| model | stages | chain store-all peak | step store-all peak (ckpt-opt) | "
                  "least feasible (optimal, chain) | least feasible (best periodic, chain) | "
                  "mean gain over best periodic (chain) | largest gain (chain) |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in chained:
            c = r["chain_model"]
            peak = c["store_all_peak"]

            def cpct(b):
                return f"{_mib(b)} ({100 * b / peak:.0f}%)" if b else "none"
            lines.append(
                f"| {r['name']} | {c['stages']} | {_mib(peak)} | {_mib(r['store_all_peak'])} | "
                f"{cpct(c['least_feasible'])} | {cpct(c['least_feasible_periodic'])} | "
                f"{_gain(c['mean_gain'])} ({c['gain_points']} budgets) | "
                f"{_gain(c['max_gain'])} |")
        chain_gains = [r["chain_model"]["mean_gain"] for r in chained
                       if r["chain_model"]["mean_gain"] is not None]
        if chain_gains:
            lines += ["", f"Average over the {len(chain_gains)} models of the mean gain of the "
                      f"chain DP's `optimal` over its best `periodic` (chain model): "
                      f"**{100 * sum(chain_gains) / len(chain_gains):.1f}%**."]
    return "\n".join(lines)


def _fail(message):
    """A usage error: one line on stderr, status 2."""
    print(f"python -m ckpt.experiments: error: {message}", file=sys.stderr)
    return 2


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.experiments",
                                description="Throughput against memory with ckpt-opt's plans "
                                            "(rotor's Figure 3).")
    p.add_argument("sources", nargs="*", help="models (see the module docstring)")
    p.add_argument("--out", default="docs/figures", help="directory of the PNGs and results.json")
    p.add_argument("--points", type=int, default=16, help="budgets per model (default 16)")
    p.add_argument("--slots", type=int, default=500, help="DP slots (default 500)")
    p.add_argument("--device", default="h100", help="cost model (default h100)")
    p.add_argument("--doc", help="markdown file whose experiments block is replaced")
    p.add_argument("--chain-model", action="store_true",
                   help="also the paper's chain model (Beaumont et al. 2019), apart: "
                        "DIR/<model>-chain.png and a second table")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line on stderr (drawn only when stderr is a terminal)")
    a = p.parse_args(argv)
    if a.points < 2:
        return _fail("--points must be at least 2")
    if a.doc:
        # Checked before the (long) run, not after it.
        try:
            with open(a.doc) as f:
                doc = f.read()
        except OSError as e:
            return _fail(f"--doc {a.doc}: {e.strerror or e}")
        if "<!-- experiments:begin -->" not in doc or "<!-- experiments:end -->" not in doc:
            return _fail(f"--doc {a.doc} has no <!-- experiments:begin --> ... "
                         "<!-- experiments:end --> block")
    try:
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:
        return _fail(f"--out {a.out}: {e.strerror or e}")
    rows = []
    sources = a.sources or DEFAULT_SOURCES
    line = progress.Line(len(sources), "ckpt.experiments", quiet=a.quiet)
    for source in sources:
        line.step(source.split("/")[-1])
        try:
            name, text, batch = load_source(source)
            r = step_sweep(text, a.points, a.device, a.slots)
            r["planning_s"], r["planning_budget"] = planning_time(text, a.device, a.slots)
            if a.chain_model:
                chain, _ = chain_and_peak(text, a.device, a.slots)
                r["chain_model"] = sweep_model(chain, a.points, a.slots)
                r["chain_model"]["step_store_all_peak"] = r["store_all_peak"]
        except (ValueError, OSError, ImportError, remat.Failure) as e:
            msg = str(e).strip().split("\n")[0][:200]
            print(f"{source}: {msg}", file=sys.stderr)
            rows.append({"name": source, "error": msg})
            continue
        r.update(name=name, source=source, batch=batch, device=a.device, slots=a.slots)
        rows.append(r)
        if not a.no_plots:
            r["title"] = plot(name, r, batch, os.path.join(a.out, f"{name}.png"))
            if a.chain_model:
                r["chain_model"]["title"] = plot_chain(
                    name, r["chain_model"], batch, os.path.join(a.out, f"{name}-chain.png"))
        over = r["least_feasible_overhead"]
        print(f"{name}: {_batch(batch)}, store-all {_mib(r['store_all_peak'])}, least "
              f"{_mib(r['least_feasible'])} at "
              f"{'n/a' if over is None else '+%.1f%%' % over}, mean gain "
              f"{_gain(r['mean_gain'])}, planning {r['planning_s']:.2f} s", file=sys.stderr)
    line.close()
    try:
        with open(os.path.join(a.out, "results.json"), "w") as f:
            json.dump(rows, f, indent=1)
    except OSError as e:
        return _fail(f"--out {a.out}: {e.strerror or e}")
    md = table(rows)
    if a.doc:
        try:
            remat.replace_block(a.doc, "experiments", md)
        except (remat.Failure, OSError) as e:
            return _fail(f"--doc {a.doc}: {getattr(e, 'strerror', None) or e}")
    else:
        print(md)
    return 0 if all("error" not in r for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
