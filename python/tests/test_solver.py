"""Tests of the ckpt Python bindings (solver layer).

Plain test_* functions with assert: run under pytest, or directly:

    PYTHONPATH=build/python .venv/bin/python python/tests/test_solver.py

which runs every test and prints "OK: N tests" when all pass.
"""

import os
import re
import sys

import ckpt

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHAIN2 = os.path.join(ROOT, "test", "Solver", "Inputs", "chain2.json")

# The 3-stage chain (L = 2) of test/Solver/Inputs/chain2.json and the worked
# example of docs/SOLVER.md.
CHAIN2_ARRAYS = dict(uf=[1, 2, 1], ub=[2, 4, 1], wa=[2, 2, 2, 1],
                     wdelta=[2, 2, 2, 1], of=[0, 0, 0], ob=[0, 0, 0],
                     wabar=[4, 4, 1])

# A 4-node forward chain a -> b -> c -> d (test/Graph/Inputs/chain4.json).
CHAIN4_JSON = """
{"directed": true, "multigraph": false, "graph": {"name": "chain4"},
 "nodes": [
  {"id": 0, "name": "a", "backward": false, "cost_cpu": 1, "cost_ram": 10},
  {"id": 1, "name": "b", "backward": false, "cost_cpu": 2, "cost_ram": 20},
  {"id": 2, "name": "c", "backward": false, "cost_cpu": 3, "cost_ram": 30},
  {"id": 3, "name": "d", "backward": false, "cost_cpu": 4, "cost_ram": 40}],
 "links": [{"source": 0, "target": 1}, {"source": 1, "target": 2},
           {"source": 2, "target": 3}]}
"""


def raises_value_error(fn, *args, **kwargs):
    """The message of the ValueError fn(*args, **kwargs) raises."""
    try:
        fn(*args, **kwargs)
    except ValueError as e:
        return str(e)
    raise AssertionError("no ValueError from %s" % getattr(fn, "__name__", fn))


def chain2():
    return ckpt.Chain(**CHAIN2_ARRAYS)


# -- chains -------------------------------------------------------------------

def test_chain_attributes():
    c = chain2()
    assert c.length == 2 and c.num_stages == 3 and len(c) == 3
    assert c.uf == [1.0, 2.0, 1.0]
    assert c.wa == [2, 2, 2, 1]
    assert c.wabar == [4, 4, 1]
    assert c.store_all_makespan() == 11
    assert c.memory is None and c.slots is None


def test_optimal_chain2_m10():
    # Hand-checked in test/Solver/optimal.test: a^1 is checkpointed and F^1
    # recomputed, makespan 11 + uf1 = 12, peak 10.
    for slots in (0, 500):
        r = ckpt.solve(chain2(), 10, slots=slots)
        assert r.feasible is True
        assert r.makespan == 12
        assert r.peak == 10
        assert r.min_feasible_memory == 10
        assert r.sequence == ["Fck1", "Fall2", "Fall3", "B3", "B2", "Fall1",
                              "B1"]
        assert r["makespan"] == r.makespan  # dict access works too
        assert r.strategy == "optimal" and r.memory == 10 and r.slots == slots


def test_optimal_chain2_m12_and_m11():
    r = ckpt.solve(chain2(), 12, slots=0)
    assert r.feasible and r.makespan == 11 and r.peak == 12
    assert r.sequence == ["Fall1", "Fall2", "Fall3", "B3", "B2", "B1"]
    assert ckpt.solve(chain2(), 11, slots=0).makespan == 12


def test_infeasible_chain2_m9():
    r = ckpt.solve(chain2(), 9, slots=0)
    assert r.feasible is False
    assert r.makespan is None and r.peak is None
    assert r.sequence == []
    assert r.min_feasible_memory == 10


def test_chain_from_json_file_and_text():
    c = ckpt.Chain.from_json(CHAIN2)
    assert c.memory == 10 and c.slots is None
    assert c.uf == chain2().uf and c.wabar == chain2().wabar
    # The budget of the file is the default.
    assert ckpt.solve(c).makespan == 12
    c2 = ckpt.Chain.from_json(c.to_json())
    assert c2.wa == c.wa and c2.memory == 10
    msg = raises_value_error(ckpt.Chain.from_json, '{"uf": [1]}')
    assert "'" in msg  # names a field


def test_chain_errors_name_the_field():
    bad = dict(CHAIN2_ARRAYS, wa=[2, 2, 2])
    assert "wa" in raises_value_error(ckpt.Chain, **bad)
    bad = dict(CHAIN2_ARRAYS, ub=[2, 4])
    assert "ub" in raises_value_error(ckpt.Chain, **bad)
    bad = dict(CHAIN2_ARRAYS, wabar=[4, -1, 1])
    assert "wabar" in raises_value_error(ckpt.Chain, **bad)
    assert "memory" in raises_value_error(ckpt.solve, chain2())  # no budget
    assert "memory" in raises_value_error(ckpt.solve, chain2(), 0)
    assert "bogus" in raises_value_error(ckpt.solve, chain2(), 10,
                                         strategy="bogus")
    assert "slots" in raises_value_error(ckpt.solve, chain2(), 10, slots=-1)


def test_plan_strategies_are_one_list():
    # One list (PlanStrategy.h): ckpt-plan's option text, its docs, the
    # chain solver's strategies and ckpt-sched read or follow it.
    plan = ckpt.plan_strategies()
    names = [s["name"] for s in plan]
    assert names == ["optimal", "ilp", "store-all", "periodic:K", "sqrt",
                     "revolve", "memory-poor", "articulation", "speed",
                     "manual", "keep"]
    assert all(s["summary"] for s in plan)
    chain = {s["name"] for s in plan if s["chain"]}
    assert set(ckpt.strategies()) <= chain
    assert [s["name"] for s in plan if s["needs_step"]] == [
        "speed", "manual", "keep"]
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "docs", "PLANNING.md")) as f:
        planning = f.read()
    with open(os.path.join(root, "include", "ckpt", "Transforms",
                           "Passes.td")) as f:
        passes = f.read()
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    listed = "strategy=" + "|".join(names)
    assert listed in readme, listed
    # The option's help text, as ckpt-opt --help prints it.
    spelled = ", ".join(names[:-1]) + " or " + names[-1]
    assert spelled in re.sub(r'"\s*\n\s*"', "", passes), spelled
    for name in names:
        assert "`" + name + "`" in planning, name
        assert "`" + name + "`" in passes, name


def test_strategies():
    names = ckpt.strategies()
    assert names == ["optimal", "store-all", "periodic:K", "sqrt", "revolve",
                     "memory-poor"]
    assert "revolve" in ckpt.strategy_help()
    c = chain2()
    for name in ["optimal", "store-all", "periodic:2", "sqrt", "revolve",
                 "memory-poor"]:
        r = ckpt.solve(c, 100, slots=0, strategy=name)
        assert r.feasible and r.strategy == name, name
        # Every strategy's sequence simulates to its makespan and peak.
        s = ckpt.simulate(c, r.sequence)
        assert s.valid and s.makespan == r.makespan and s.peak == r.peak, name
    # With plenty of memory, nothing beats store-all.
    assert ckpt.solve(c, 100, slots=0).makespan == c.store_all_makespan()


def test_simulate():
    c = chain2()
    s = ckpt.simulate(c, "Fck1 Fall2 Fall3 B3 B2 Fall1 B1", memory=10)
    assert s.valid and s.makespan == 12 and s.peak == 10 and s.fits
    assert s.error_index is None
    s = ckpt.simulate(c, ["Fall1", "B1"])
    assert not s.valid and s.error and s.error_index is not None
    assert "Fx1" in raises_value_error(ckpt.simulate, c, ["Fx1"])
    assert "B7" in raises_value_error(ckpt.simulate, c, ["B7"])


def test_sweep():
    pts = ckpt.sweep(chain2(), "optimal", slots=0, count=3)
    assert [p.memory for p in pts] == [10, 11, 12]
    assert [p.makespan for p in pts] == [12, 12, 11]
    assert all(p.feasible for p in pts)
    assert ckpt.min_feasible_memory(chain2(), "optimal", 0) == 10
    assert "count" in raises_value_error(ckpt.sweep, chain2(), count=0)


# -- graphs -------------------------------------------------------------------

def test_graph_from_json():
    g = ckpt.Graph.from_json(CHAIN4_JSON)
    assert g.name == "chain4" and g.num_nodes == 4 and g.num_edges == 3
    assert [n["name"] for n in g.nodes] == ["a", "b", "c", "d"]
    assert g.nodes[2]["bytes"] == 30 and g.nodes[2]["cost"] == 3
    assert g.edges == [(0, 1), (1, 2), (2, 3)]
    assert g.entries() == ["a"] and g.losses() == ["d"]
    assert g.treewidth() == 1
    assert g.treewidth("min-degree") == 1 and g.treewidth("exact") == 1
    assert g.treewidth(view="forward") == 1
    td = g.tree_decomposition()
    assert td["width"] == 1 and len(td["bags"]) == len(td["parent"])
    g2 = ckpt.Graph.from_json(os.path.join(ROOT, "test", "Graph", "Inputs",
                                           "chain4.json"))
    assert g2.num_nodes == 4
    assert ckpt.Graph.from_json(g.to_json()).num_edges == 3
    gb = g.with_backward()
    assert gb.num_nodes == 8


def test_graph_errors():
    msg = raises_value_error(ckpt.Graph.from_json, '{"nodes": 3}')
    assert "nodes" in msg
    raises_value_error(ckpt.Graph.from_json, "{not json")
    raises_value_error(ckpt.Graph.from_json, "/nonexistent/graph.json")
    g = ckpt.Graph.from_json(CHAIN4_JSON)
    assert "bogus" in raises_value_error(g.treewidth, "bogus")
    assert "bogus" in raises_value_error(ckpt.separator_chain, g, "bogus")


def test_separator_chain():
    # As test/Graph/chain4.test: every inner value is a separator, so the
    # chain is a | b | c | d.
    g = ckpt.Graph.from_json(CHAIN4_JSON)
    c = ckpt.separator_chain(g)
    assert c["valid"]
    assert [s["members"] for s in c["separators"]] == [["a"], ["b"], ["c"]]
    assert [s["bytes"] for s in c["separators"]] == [10, 20, 30]
    stages = c["stages"]
    assert [s["nodes"] for s in stages] == [["a"], ["b"], ["c"], ["d"]]
    assert stages[0]["input_separator"] == -1
    assert stages[0]["output_separator"] == 0
    assert stages[0]["output_bytes"] == 10
    assert stages[3]["input_separator"] == 2
    assert stages[3]["output_separator"] == -1
    assert stages[3]["input_bytes"] == 30 and stages[3]["cost"] == 4
    assert c["entries"] == ["a"] and c["losses"] == ["d"]
    a = ckpt.articulation_chain(g)
    assert [s["members"] for s in a["separators"]] == [["a"], ["b"], ["c"]]


def _run_all():
    tests = [(name, fn) for name, fn in sorted(globals().items())
             if name.startswith("test_") and callable(fn)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
        except Exception as e:  # report every failure, then exit non-zero
            failed += 1
            print("FAIL: %s: %s: %s" % (name, type(e).__name__, e))
    if failed:
        print("FAILED: %d of %d tests" % (failed, len(tests)))
        return 1
    print("OK: %d tests" % len(tests))
    return 0


if __name__ == "__main__":
    sys.exit(_run_all())
