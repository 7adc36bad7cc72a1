"""ckpt: activation checkpointing solvers, from Python.

Bindings to the solver layer of the ckpt project (plain C++, no MLIR):

* chains (Beaumont et al. 2019, "Optimal checkpointing for heterogeneous
  chains"), rotor-style::

      import ckpt
      chain = ckpt.Chain(uf=[1, 2, 1], ub=[2, 4, 1], wa=[2, 2, 2, 1],
                         wdelta=[2, 2, 2, 1], of=[0, 0, 0], ob=[0, 0, 0],
                         wabar=[4, 4, 1])
      r = ckpt.solve(chain, memory=10)      # optimal persistent schedule
      r.makespan, r.peak, r.sequence        # 12.0, 10, ['Fck1', 'Fall2', ...]

  ``ckpt.strategies()`` lists the chain strategies (``optimal``,
  ``store-all``, ``periodic:K``, ``sqrt``, ``revolve``, ``memory-poor``;
  ``ckpt.plan_strategies()`` those of ckpt-plan); ``ckpt.simulate``
  checks a sequence; ``ckpt.sweep`` gives the time/memory trade-off curve.

* training graphs (Checkmate / MOCCASIN node-link JSON), their tree
  decompositions and separator chains::

      g = ckpt.Graph.from_json("graph.json")
      g.treewidth("min-fill")
      ckpt.separator_chain(g)["separators"]

Invalid input raises ``ValueError`` with the solver's message, which names the
offending field.

``import ckpt`` loads neither compiled extension: the solver bindings
(``_ckpt``) are loaded on the first use of ``Chain``, ``Graph`` or a solver
function, the MLIR ones (``_ckpt_mlir``, which loads libMLIR.so) on the first
use of ``run_passes``/``optimize``. So the pure-Python modules
(``ckpt.zoo``, ``ckpt.mlir_text``, ``ckpt.mlir_runner``, ``ckpt.remat``, ...)
import from a source checkout that has no build.
"""

__all__ = [
    "Chain",
    "Graph",
    "Result",
    "articulation_chain",
    "device_profiles",
    "min_feasible_memory",
    "separator_chain",
    "simulate",
    "solve",
    "strategies",
    "strategy_help",
    "sweep",
]


def _solver():
    """The solver extension, loaded on first use."""
    from . import _ckpt
    return _ckpt


class Result(dict):
    """A dict whose keys are also attributes (``r.makespan == r["makespan"]``).

    Returned by :func:`solve`, :func:`simulate` and :func:`sweep`.
    """

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return list(self.keys()) + dir(dict)

    def __repr__(self):
        return "Result(%s)" % dict.__repr__(self)


def solve(chain, memory=None, slots=500, strategy="optimal", threads=0,
          with_sequence=True):
    """Runs a checkpointing strategy on ``chain`` within ``memory``.

    ``memory`` is the budget M in the unit of the chain's sizes (defaults to
    the ``memory`` of a chain read with ``Chain.from_json``). With ``slots``
    S > 0 (default 500) the budget is cut into S slots and every size is
    rounded up to whole slots (paper Section 5.2); ``slots=0`` uses exact
    sizes. ``strategy`` is one of :func:`strategies` (``"periodic:K"`` with
    an integer K).

    Returns a :class:`Result` with ``feasible``, ``makespan``, ``peak``
    (simulated, exact sizes), ``peak_units`` (these three None when
    infeasible), ``sequence`` (operation names such as ``"Fall1"``,
    ``"Fck2"``, ``"Fn3"``, ``"B1"``; empty when infeasible), ``min_feasible_memory`` (None if no budget works),
    ``strategy``, ``memory`` and ``slots``. Raises ValueError on bad input.
    """
    return Result(_solver().solve(chain, memory, slots, strategy, threads,
                                    with_sequence))


def simulate(chain, sequence, memory=None, slots=0):
    """Applies a sequence of operations (Table 1 of the paper) to ``chain``.

    ``sequence`` is a list of names (``["Fall1", "B1"]``) or one
    space-separated string. With ``slots`` > 0 sizes are rounded to slots of
    ``memory``/``slots``. Returns a :class:`Result` with ``valid``,
    ``error`` (why not), ``error_index``, ``makespan`` and ``peak`` (in
    units), plus ``fits`` (valid and peak within the limit) when ``memory``
    is given. Raises ValueError for a malformed operation name.
    """
    return Result(_solver().simulate(chain, sequence, memory, slots))


def sweep(chain, strategy="optimal", slots=500, count=10, threads=0):
    """The time/memory trade-off curve of ``strategy`` on ``chain``.

    ``count`` budgets evenly spaced from the strategy's least feasible
    memory to the memory store-all needs (duplicates removed). Returns a
    list of :class:`Result`, one per budget, as :func:`solve` returns them.
    """
    return [Result(p) for p in _solver().sweep(chain, strategy, slots, count,
                                                threads)]


def strategies():
    """The names of the chain strategies :func:`solve` accepts
    (``periodic:K`` stands for ``periodic:1``, ``periodic:2``, ...). The
    step planner's are :func:`plan_strategies`."""
    return _solver().strategies()


def plan_strategies():
    """The strategies of ``ckpt-plan``'s ``strategy=`` and ``ckpt-sched``'s
    ``--strategy``, from the C++ list (``ckpt/Solver/Schedule/PlanStrategy.h``):
    a list of dicts ``{"name", "chain", "needs_step", "summary"}``, in the
    order help texts give them. ``chain``: plans the separator chain
    (``fit=model`` applies); ``needs_step``: needs an MLIR step (the marks of
    ``ckpt.checkpoint``, op kinds), so ckpt-plan only."""
    return _solver().plan_strategies()


def device_profiles():
    """The devices of the cost model (``ckpt-opt``'s ``device=``): a dict
    ``{name: (peak flop/s, bytes/s)}``; an op's roofline time is
    ``max(flops / peak, bytes / bandwidth)``. The table is the C++ one
    (``include/ckpt/Solver/Support/Devices.h``)."""
    return dict(_solver().device_profiles())


def min_feasible_memory(chain, strategy="optimal", slots=500):
    """The least memory for which ``strategy`` is feasible with ``slots``
    slots (0 = exact sizes), or None if none is."""
    return _solver().min_feasible_memory(chain, strategy, slots)


def separator_chain(graph, heuristic="min-fill", minimize_sink_side=True):
    """The separator chain of a training graph (see docs/SEPARATORS.md).

    Separators come from a tree decomposition of the forward graph
    (``heuristic`` ``"min-fill"`` or ``"min-degree"``). Returns a dict:

    * ``separators``: list of ``{"members": [names], "member_ids": [...],
      "bytes": n}`` from the inputs to the loss;
    * ``stages``: list of ``{"nodes", "node_ids", "input_separator",
      "output_separator", "cost", "bytes", "input_bytes", "output_bytes",
      "backward_reads", "backward_read_ids", "backward_read_bytes"}``
      (separator indices, -1 for the step inputs / the loss);
    * ``entries``, ``losses`` (names), ``width``, ``candidates``, ``valid``.
    """
    return _solver().separator_chain(graph, heuristic, minimize_sink_side)


def articulation_chain(graph):
    """The baseline chain of single-value separators (the articulation
    points between the inputs and the loss); same dict as
    :func:`separator_chain`."""
    return _solver().articulation_chain(graph)


# ---- MLIR: passes and pipelines on MLIR text (the _ckpt_mlir extension) ----

def _mlir():
    """The MLIR extension, loaded on first use (it loads libMLIR.so)."""
    from . import _ckpt_mlir
    return _ckpt_mlir


def __getattr__(name):
    # The extensions' classes without loading them at `import ckpt`.
    if name in ("Chain", "Graph", "strategy_help"):
        return getattr(_solver(), name)
    if name == "PipelineError":
        return _mlir().PipelineError
    if name == "compile_step":      # ckpt.step (imports torch when called)
        from .step import compile_step
        return compile_step
    raise AttributeError(f"module 'ckpt' has no attribute '{name}'")


def run_passes(text, pipeline, allow_unregistered=False, filename="<input>"):
    """Runs a textual pass pipeline on MLIR text, as ``ckpt-opt`` would.

    ``pipeline`` is what ``--pass-pipeline`` takes, with or without the
    ``builtin.module(...)`` anchor: every upstream pass and every ckpt pass
    and pipeline, e.g. ``"ckpt-wrap-step,ckpt-plan{budget=70%}"``. Returns
    ``(text, diagnostics)``: the printed module and the warnings/remarks of
    the run. Raises :class:`PipelineError` (a ValueError) with every
    diagnostic, located ``filename:line:col``, when parsing, verification or
    a pass fails.
    """
    return _mlir().run_passes(text, pipeline, allow_unregistered, filename)


def _run_with_report(text, before, report=(), after=(), filename="<input>"):
    """run_passes of the passes `before`, ``ckpt-report`` (with the options
    `report`, its JSON written to a temporary file), then the passes
    `after`. Returns (the printed module, the report: a list with one dict
    per planned step)."""
    import json
    import os
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".json", prefix="ckpt-report-")
    os.close(fd)
    try:
        reporting = "ckpt-report{" + " ".join([f"output={path}", *report]) + "}"
        out, _ = run_passes(text, ",".join([*before, reporting, *after]), filename=filename)
        with open(path) as f:
            return out, json.load(f)
    finally:
        os.unlink(path)


def _option(value):
    text = str(value)
    if any(c in text for c in " {}'\""):
        raise ValueError(f"invalid option value {text!r}")
    return text


def optimize(text, budget, strategy="optimal", device="h100", slots=500,
             fit="simulation", profile=None, lower=None, filename="<input>"):
    """Fits a training step into a memory budget: plan, rewrite, and
    optionally lower.

    ``text`` holds ``ckpt.step`` ops or ``func.func`` ops carrying a
    ``ckpt.loss`` attribute (wrapped with ``ckpt-wrap-step``). ``budget`` is
    a number of bytes (an int, or a string with a unit: ``"6GiB"``,
    ``"512KiB"``) or a percentage of the store-all peak (``"70%"``).
    ``strategy``: ``optimal`` (default), ``store-all``, ``periodic:K``,
    ``sqrt``, ``revolve``, ``memory-poor``, ``articulation``, ``speed`` or
    ``manual`` (see ``ckpt-opt --help``); ``device``, ``slots``, ``fit`` and
    ``profile`` are ckpt-plan's options. ``lower`` = ``"cpu"`` or
    ``"nvptx"`` also runs ``ckpt-lower-to-cpu`` / ``ckpt-lower-to-nvptx``.

    Returns ``(text, report)``: the rewritten module (recompute regions and
    ``ckpt.free`` ops; lowered if asked) and the report of ``ckpt-report``
    as a list with one dict per step (the plan, store-all and every baseline
    at the same budget, separators, memory timeline). Raises
    :class:`PipelineError` with the tool's located message when the input
    is invalid or the budget is infeasible (the message names the least
    feasible budget, and the error's ``least_feasible_bytes`` holds it in
    bytes, ready to be passed back as ``budget``; None for other errors).
    """
    plan = [f"budget={_option(budget)}", f"strategy={_option(strategy)}",
            f"device={_option(device)}", f"slots={int(slots)}", f"fit={_option(fit)}"]
    common = [f"device={_option(device)}", f"slots={int(slots)}"]
    if profile:
        plan.append(f"profile={_option(profile)}")
        common.append(f"profile={_option(profile)}")
    if lower not in (None, "cpu", "nvptx"):
        raise ValueError(f"lower must be None, 'cpu' or 'nvptx', not {lower!r}")
    after = ["ckpt-rematerialize", "ckpt-insert-frees"]
    if lower:
        after.append(f"ckpt-lower-to-{lower}")
    return _run_with_report(text, ["ckpt-wrap-step", "ckpt-plan{" + " ".join(plan) + "}"],
                            common, after, filename)


__all__ += ["PipelineError", "compile_step", "optimize", "run_passes"]
