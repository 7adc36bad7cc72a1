"""The anchor of bench/torch_planners.py: on a small GPT and a small CNN,
ckpt's plan at the peak of each PyTorch planner's decision (torch.compile's
min-cut partitioner at several activation_memory_budget values and knapsack
solvers, and the "save matmuls" selective checkpointing policy), evaluated
on the same traced graph in ckpt's memory and cost model, is at least as
fast and within that peak; and ckpt's least budget is below the least peak
any of them reaches."""

import os
import sys

import pytest

pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench"))

import torch_planners as tp  # noqa: E402

KEEPS = ["partitioner:1", "partitioner:0.6:dp", "partitioner:0.4:ilp",
         "partitioner:0.2:greedy", "partitioner:0", "matmuls"]


@pytest.mark.parametrize("model", ["tinygpt", "tinyresnet"])
def test_ckpt_at_least_as_fast_as_pytorch_planners(model, tmp_path):
    failures = []
    r = tp.compare(model, KEEPS, str(tmp_path), failures)
    assert not failures, failures
    rows = [row for row in r["rows"] if "peak" in row]
    assert len(rows) == len(KEEPS) - (model in tp.NO_BLOCKS), r["rows"]
    # The partitioner's decisions differ with its budget: a test that
    # compared one decision five times would say little.
    assert len({row["peak"] for row in rows}) >= 3, rows
    assert r["least"] < r["their_least"]


@pytest.mark.parametrize("policy, message", [
    ("partitioner:2", "the budget is a fraction in [0, 1]"),
    ("partitioner:half", "the budget is a fraction in [0, 1]"),
    ("partitioner:0.5:foo", "unknown solver 'foo': expected dp, greedy, ilp"),
    ("partitioner:0.5:dp:x", "unknown keep policy"),
    ("everything", "unknown keep policy 'everything'"),
])
def test_bad_keep_policies_are_refused(policy, message, capsys):
    from ckpt.torch_import import main
    with pytest.raises(SystemExit) as e:
        main(["tinymlp", "--batch", "2", "--keep", policy, "-o", os.devnull])
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_partitioner_policy_marks_what_pytorch_saves():
    """The marks are the forward values the partitioner saves: at budget 1
    its min cut, at 0 nothing (only the inputs, which are not marked)."""
    from ckpt import torch_import as ti
    model, x, t = ti.build_model("tinygpt", None, None, 2)
    full, info = ti.import_module_info(model, x, t, name="g", keep="partitioner:1")
    none, _ = ti.import_module_info(model, x, t, name="g", keep="partitioner:0")
    assert "Keep policy 'partitioner:1':" in full
    marks = full.count("= ckpt.checkpoint ")
    assert marks > 10 and none.count("= ckpt.checkpoint ") == 0
    assert f"'partitioner:1': {marks} ckpt.checkpoint marks" in full
