"""ckpt.run_passes and ckpt.optimize: the pass pipeline on MLIR text."""

import os

import pytest

import ckpt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPS = os.path.join(ROOT, "test", "Inputs", "steps")


def read(name):
    with open(os.path.join(STEPS, name)) as f:
        return f.read()


def test_run_passes_wraps_a_step():
    out, diags = ckpt.run_passes(read("mlp.mlir"), "ckpt-wrap-step")
    assert "ckpt.step @mlp_step" in out and "func.func @mlp_step" not in out
    assert diags == ""
    # The same with the builtin.module anchor.
    anchored, _ = ckpt.run_passes(read("mlp.mlir"), "builtin.module(ckpt-wrap-step)")
    assert anchored == out


def test_optimize_fits_the_budget_and_reports():
    text = read("mlp8.mlir")
    out, report = ckpt.optimize(text, "70%")
    assert "ckpt.recompute" in out and "ckpt.free" in out
    (step,) = report
    assert step["step"] == "mlp8_step" and step["strategy"] == "optimal"
    # 70% of the store-all peak of mlp8 (591120 B, docs/BENCHMARKS.md).
    assert step["budget_bytes"] == 413784
    assert step["simulated_peak_bytes"] <= step["budget_bytes"]
    assert step["plan"]["feasible"]
    assert {"store_all", "baselines", "stages"} <= step.keys()


def test_optimize_budget_units_and_strategies():
    text = read("mlp8.mlir")
    _, report = ckpt.optimize(text, "1GiB", strategy="store-all")
    assert report[0]["budget_bytes"] == 1 << 30
    assert report[0]["strategy"] == "store-all"
    # periodic:2 needs 414992 B on mlp8 (its least feasible budget).
    _, report = ckpt.optimize(text, 420000, strategy="periodic:2", slots=0)
    assert report[0]["budget_bytes"] == 420000
    with pytest.raises(ckpt.PipelineError, match=r"budget of 400000 B \(390.62 KiB\) is "
                       r"infeasible for strategy 'periodic:2': the least feasible budget "
                       r"is 414992 B \(405.27 KiB\)"):
        ckpt.optimize(text, 400000, strategy="periodic:2", slots=0)


def test_optimize_lowers_to_the_cpu():
    out, _ = ckpt.optimize(read("mlp8.mlir"), "90%", lower="cpu")
    assert "llvm.func @mlp8_step" in out and "linalg." not in out


def test_errors_are_located_pipeline_errors():
    assert issubclass(ckpt.PipelineError, ValueError)
    with pytest.raises(ckpt.PipelineError) as e:
        ckpt.optimize(read("mlp8.mlir"), "10%", filename="mlp8.mlir")
    # The least budget is tight: planned at 283904 B mlp8 fits (peak 283904, as
    # ckpt-run measures it), at 283903 B it is refused.
    assert ("mlp8.mlir:27:1: error: budget of 59112 B (57.73 KiB) is infeasible for "
            "strategy 'optimal': the least feasible budget is 283904 B (277.25 KiB)") \
        in str(e.value)
    # ... and in bytes on the error, which plans when given back.
    assert e.value.least_feasible_bytes == 283904
    _, report = ckpt.optimize(read("mlp8.mlir"), e.value.least_feasible_bytes)
    assert report[0]["simulated_peak_bytes"] <= 283904
    with pytest.raises(ckpt.PipelineError, match=r"could not parse the input:\n"
                                                 r"<input>:1:14: error: expected non-function type") as e:
        ckpt.run_passes("func.func @f( {", "ckpt-wrap-step")
    assert e.value.least_feasible_bytes is None
    with pytest.raises(ckpt.PipelineError, match="invalid pass pipeline 'ckpt-no-such-pass'") as e:
        ckpt.run_passes(read("mlp.mlir"), "ckpt-no-such-pass")
    assert e.value.least_feasible_bytes is None
    with pytest.raises(ckpt.PipelineError, match="expected a number of bytes with an "
                                                 "optional unit"):
        ckpt.optimize(read("mlp.mlir"), "70parsecs")
    # A pass option's parser reports a bad value on standard error (llvm::cl);
    # the PipelineError carries it.
    with pytest.raises(ckpt.PipelineError,
                       match=r"for the --slots option: '-1' is not a valid value: "
                             r"expected 0 or a positive integer"):
        ckpt.run_passes(read("mlp.mlir"), "ckpt-wrap-step,ckpt-plan{slots=-1}")
    with pytest.raises(ckpt.PipelineError,
                       match=r"for the --device option: 'tpu' is not a valid value"):
        ckpt.run_passes(read("mlp.mlir"), "ckpt-plan{device=tpu}")
    with pytest.raises(ValueError, match="invalid option value"):
        ckpt.optimize(read("mlp.mlir"), "70% strategy=sqrt")
    with pytest.raises(ValueError, match="lower must be None, 'cpu' or 'nvptx'"):
        ckpt.optimize(read("mlp.mlir"), "70%", lower="tpu")


def test_unregistered_dialects_only_when_allowed():
    text = 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n'
    with pytest.raises(ckpt.PipelineError, match="2:12: error: operation being parsed with an unregistered dialect"):
        ckpt.run_passes(text, "ckpt-wrap-step")
    out, _ = ckpt.run_passes(text, "ckpt-wrap-step", allow_unregistered=True)
    assert '"foo.bar"()' in out
