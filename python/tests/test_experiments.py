"""ckpt.experiments: throughput against memory with ckpt-opt's plans (and,
apart, the paper's chain model)."""

import json
import os
import re
import subprocess
import sys

import pytest

import ckpt
from ckpt import experiments, remat


def _ckpt_opt(path, plan):
    """`ckpt-opt PATH --ckpt-wrap-step --ckpt-plan=PLAN` as a process: the
    plan's numbers (its ckpt-report, on standard output), or the least
    feasible budget its error names."""
    p = subprocess.run(["ckpt-opt", path, "--ckpt-wrap-step", f"--ckpt-plan={plan}",
                        remat.report_flag("-"), "-o", os.devnull],
                       capture_output=True, text=True)
    if p.returncode:
        # "... is 46.75 KiB (47872 B)" or "... is 47872 B (46.75 KiB)".
        m = re.search(r"least feasible budget is (?:(\d+) B|[^(\n]*\((\d+) B\))", p.stderr)
        assert m, p.stderr
        return int(m.group(1) or m.group(2))
    return remat.plan_numbers(json.loads(p.stdout))


@pytest.fixture(scope="module")
def resnet(tmp_path_factory):
    """A tiny CNN at batch 4, written to a file."""
    name, text, batch = experiments.load_source("zoo:resnet:depth=2,batch=4")
    path = tmp_path_factory.mktemp("resnet") / "resnet.mlir"
    path.write_text(text)
    return str(path), text, batch


@pytest.fixture(scope="module")
def sweep(resnet):
    """Its sweep at 4 budgets."""
    return resnet + (experiments.step_sweep(resnet[1], points=4),)


def test_store_all_peak_is_the_steps(sweep, tmp_path):
    """The store-all peak of the sweep (its last budget, the store-all curve
    and the table's column) is ckpt-opt's for the step, and what ckpt-run
    measures when the step as written runs; not the chain model's."""
    path, text, _, r = sweep
    alone = _ckpt_opt(path, "budget=100% strategy=store-all")
    assert r["store_all_peak"] == alone["store_all_peak"] == alone["peak"]
    assert r["store_all_time"] == alone["store_all_time"]
    assert r["budgets"][-1] == r["store_all_peak"]
    assert r["peaks"]["store-all"][-1] == r["store_all_peak"]
    assert all(t is None for t in r["times"]["store-all"][:-1])
    measured = remat.execute(remat.wrap(path, str(tmp_path)), "resnet2_step", str(tmp_path))
    assert measured["peak_bytes"] == r["store_all_peak"]
    # The chain model's peak is another number (the old figures' axis).
    chain, _ = experiments.chain_and_peak(text, "h100", 500)
    assert experiments.sweep_model(chain, 2, 500)["store_all_peak"] != r["store_all_peak"]


def test_every_point_is_ckpt_opts_plan(sweep):
    """Every plotted (budget, time) is what `ckpt-opt --ckpt-plan` gives at
    that budget, for optimal and for a baseline; the first budget is the
    least feasible one ckpt-opt names."""
    path, _, _, r = sweep
    assert r["least_feasible"] == _ckpt_opt(path, "budget=1") == r["budgets"][0]
    assert len(r["budgets"]) == 4 and r["budgets"] == sorted(r["budgets"])
    t0 = r["store_all_time"]
    for i, b in enumerate(r["budgets"]):
        p = _ckpt_opt(path, f"budget={b} device=h100 slots=500")
        assert (p["budget"], p["peak"], p["time"]) == (b, r["peaks"]["optimal"][i],
                                                       r["times"]["optimal"][i])
        assert r["overheads"]["optimal"][i] == pytest.approx(100 * (p["time"] / t0 - 1))
        q = _ckpt_opt(path, f"budget={b} strategy=revolve")
        if isinstance(q, int):
            assert r["times"]["revolve"][i] is None and b < q
        else:
            assert r["times"]["revolve"][i] == q["time"]
    assert r["least_feasible_overhead"] == r["overheads"]["optimal"][0]
    assert r["overheads"]["optimal"][-1] == 0
    # The least budgets of the baselines are ckpt-opt's too.
    for s in ("periodic:2", "sqrt", "revolve"):
        assert r["least_feasible_of"][s] == _ckpt_opt(path, f"budget=1 strategy={s}")
    # Best periodic: the fastest of store-all, periodic:2..4, sqrt that fits.
    for i, best in enumerate(r["best_periodic"]):
        fits = [r["times"][s][i] for s in experiments.PERIODIC if r["times"][s][i] is not None]
        assert best == (min(fits) if fits else None)
        if best is not None:
            assert r["times"]["optimal"][i] <= best * (1 + 1e-9)


def test_batch_is_the_steps(resnet, tmp_path):
    assert resnet[2] == 4
    # zoo's default batch of resnet is 2 (the old titles said 1).
    assert experiments.load_source("zoo:resnet:depth=2")[2] == 2
    # A file: its input's leading dimension (the old titles said 1).
    assert experiments.load_source(resnet[0])[2] == 4
    here = os.path.dirname(os.path.abspath(__file__))
    steps = os.path.join(here, "..", "..", "test", "Inputs", "steps")
    assert experiments.load_source(os.path.join(steps, "mlp8.mlir"))[2] == 512
    assert experiments.load_source(os.path.join(steps, "transformer3.mlir"))[2] == 4


def test_sweep_on_a_zoo_step(tmp_path):
    """The chain model (--chain-model): the rotor DP on the report's chain."""
    name, text, batch = experiments.load_source("zoo:mlp:depth=6,batch=64,width=16")
    assert (name, batch) == ("mlp-depth6-batch64-width16", 64)
    chain = experiments.chain_of(text, "h100", 500)
    assert set(chain) >= {"uf", "ub", "wa", "wabar", "wdelta", "of", "ob"}
    r = experiments.sweep_model(chain, points=5, slots=500)
    assert r["stages"] == len(chain["uf"])
    assert r["budgets"][0] == r["least_feasible"] and r["budgets"][-1] == r["store_all_peak"]
    # optimal is feasible everywhere on the grid and never slower than any
    # fixed schedule that fits the same budget, except at the
    # store-all peak itself, where slot rounding costs the DP (documented in
    # docs/BENCHMARKS.md; ckpt-plan tries store-all as a candidate there).
    last = len(r["budgets"]) - 1
    for i, _ in enumerate(r["budgets"]):
        best = r["makespans"]["optimal"][i]
        assert best is not None
        for s, series in r["makespans"].items():
            if series[i] is not None and i < last:
                assert best <= series[i] * (1 + 1e-9), (s, i)
    assert r["makespans"]["store-all"][last] is not None
    assert r["mean_gain"] is not None and r["mean_gain"] >= 0


def test_command_writes_plots_table_and_doc(resnet, tmp_path):
    import matplotlib  # noqa: F401  (python3-matplotlib: a declared dependency)
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- experiments:begin -->\nold\n<!-- experiments:end -->\nafter\n")
    out = tmp_path / "figs"
    rc = experiments.main(["zoo:resnet:depth=2", resnet[0], "--out", str(out),
                           "--points", "3", "--doc", str(doc), "--chain-model", "--quiet"])
    assert rc == 0
    text = doc.read_text()
    assert text.startswith("before\n<!-- experiments:begin -->\n"
                           "| model | batch | store-all peak |")
    assert "old" not in text and text.endswith("<!-- experiments:end -->\nafter\n")
    assert "Average over the 2 models" in text
    rows = json.loads((out / "results.json").read_text())
    assert [r["name"] for r in rows] == ["resnet-depth2", "resnet"]
    assert [r["batch"] for r in rows] == [2, 4]
    for r in rows:
        assert f"(batch {r['batch']})" in r["title"] and "ckpt-opt" in r["title"]
        assert "chain model (Beaumont et al. 2019)" in r["chain_model"]["title"]
        assert f"batch {r['batch']}," in r["chain_model"]["title"]
        for png in (out / f"{r['name']}.png", out / f"{r['name']}-chain.png"):
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The table's store-all peak and least budget are ckpt-opt's for the step.
    path = resnet[0]
    peak = _ckpt_opt(path, "strategy=store-all")["store_all_peak"]
    least = _ckpt_opt(path, "budget=1")
    over = 100 * (_ckpt_opt(path, f"budget={least}")["time"] / rows[1]["store_all_time"] - 1)
    assert rows[1]["store_all_peak"] == peak and rows[1]["least_feasible"] == least
    assert (f"| resnet | 4 | {peak / 2 ** 20:.2f} MiB | {least / 2 ** 20:.2f} MiB "
            f"({100 * least / peak:.0f}%) | +{over:.1f}% |") in text
    # The chain model's figures come apart, under their own heading.
    head, chain_part = text.split("The chain model (Beaumont et al. 2019)", 1)
    assert "chain store-all peak" not in head and "| chain store-all peak |" in chain_part
    assert f"| resnet | {rows[1]['chain_model']['stages']} |" in chain_part


def test_results_are_the_steps_without_chain_model(tmp_path):
    """The recorded store-all peak and least budget are ckpt-opt's for the
    step; no chain figure is made unless asked for."""
    out = tmp_path / "figs"
    assert experiments.main(["zoo:mlp:depth=6,batch=64,width=16", "--out", str(out),
                             "--points", "2", "--quiet"]) == 0
    (row,) = json.loads((out / "results.json").read_text())
    step = tmp_path / "mlp.mlir"
    step.write_text(experiments.load_source("zoo:mlp:depth=6,batch=64,width=16")[1])
    assert row["store_all_peak"] == _ckpt_opt(str(step), "strategy=store-all")["peak"]
    assert row["least_feasible"] == _ckpt_opt(str(step), "budget=1")
    assert row["least_feasible"] < row["store_all_peak"]
    assert row["budgets"] == [row["least_feasible"], row["store_all_peak"]]
    assert sorted(os.listdir(out)) == ["mlp-depth6-batch64-width16.png", "results.json"]
    assert "chain_model" not in row
    assert row["title"].startswith("mlp-depth6-batch64-width16 (batch 64)")


def test_missing_doc_is_a_clean_error(tmp_path):
    """One line on stderr, nonzero status, no traceback; and before any
    model is planned."""
    missing = tmp_path / "nowhere" / "BENCHMARKS.md"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(ckpt.__file__)))
    p = subprocess.run([sys.executable, "-m", "ckpt.experiments", "zoo:mlp", "--out",
                        str(tmp_path / "figs"), "--doc", str(missing), "--quiet"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [
        f"python -m ckpt.experiments: error: --doc {missing}: No such file or directory"]
    assert not (tmp_path / "figs").exists()
    nomarks = tmp_path / "doc.md"
    nomarks.write_text("no block\n")
    assert experiments.main(["zoo:mlp", "--doc", str(nomarks), "--out", str(tmp_path)]) == 2


def test_bad_sources_are_reported(tmp_path, capsys):
    rc = experiments.main(["zoo:lenet", "zoo:mlp:depth", "--out", str(tmp_path), "--no-plots"])
    assert rc == 1
    err = capsys.readouterr().err
    assert "zoo:lenet: unknown model 'lenet'" in err
    assert "zoo:mlp:depth: expected key=value, not 'depth'" in err
