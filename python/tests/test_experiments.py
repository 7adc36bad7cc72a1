"""ckpt.experiments: the throughput/memory sweep on a step's chain."""

import json

from ckpt import experiments


def test_sweep_on_a_zoo_step(tmp_path):
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


def test_command_writes_plots_table_and_doc(tmp_path):
    import matplotlib  # noqa: F401  (python3-matplotlib: a declared dependency)
    doc = tmp_path / "doc.md"
    doc.write_text("before\n<!-- experiments:begin -->\nold\n<!-- experiments:end -->\nafter\n")
    out = tmp_path / "figs"
    rc = experiments.main(["zoo:resnet:depth=2,batch=4", "zoo:towers:batch=32",
                           "--out", str(out), "--points", "3", "--doc", str(doc)])
    assert rc == 0
    text = doc.read_text()
    assert text.startswith("before\n<!-- experiments:begin -->\n| model | stages |")
    assert "old" not in text and text.endswith("<!-- experiments:end -->\nafter\n")
    assert "| resnet-depth2-batch4 |" in text and "Average over the 2 models" in text
    rows = json.loads((out / "results.json").read_text())
    assert [r["name"] for r in rows] == ["resnet-depth2-batch4", "towers-batch32"]
    for r in rows:
        png = out / f"{r['name']}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The step's own store-all peak is ckpt-plan's (not the chain model's),
    # and the table labels the chain model's figures as such.
    import re
    import ckpt
    _, text0, _ = experiments.load_source("zoo:resnet:depth=2,batch=4")
    planned, _ = ckpt.run_passes(text0, "ckpt-wrap-step,ckpt-plan{strategy=store-all}")
    peak = int(re.search(r"store_all_peak = (\d+)", planned).group(1))
    assert rows[0]["step_store_all_peak"] == peak
    assert "| chain store-all peak |" in text and "| step store-all peak (ckpt-opt) |" in text
    assert f"| {peak / 2 ** 20:.2f} MiB |" in text


def test_bad_sources_are_reported(tmp_path, capsys):
    rc = experiments.main(["zoo:lenet", "zoo:mlp:depth", "--out", str(tmp_path), "--no-plots"])
    assert rc == 1
    err = capsys.readouterr().err
    assert "zoo:lenet: unknown model 'lenet'" in err
    assert "zoo:mlp:depth: expected key=value, not 'depth'" in err
