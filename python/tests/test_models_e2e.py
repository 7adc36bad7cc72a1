"""End to end, per model family (issue 27, item 6): the small version of
each family of python/tests/models_e2e.py — a Llama-style decoder and
tinygpt (built-in), a ViT, torchvision's MobileNetV2 and ConvNeXt classes,
a U-Net with ConvTranspose2d, torchvision's ResNet class — is

  1. imported with the default fake tracing and nothing but its input's
     shape and dtype (`import_module_info` as `python -m ckpt.torch_import
     models_e2e.py:NAME --input-shape S [--input-dtype int64]` does: default
     cross-entropy loss, default target of the output's shape), with no
     `ckpt.opaque` op;
  2. lowered (`ckpt-opt --ckpt-wrap-step --ckpt-lower-to-cpu`) and run with
     `ckpt-run --seed=7 --print-outputs`, and its loss and every gradient
     compared with eager PyTorch on the same inputs (ckpt-run's splitmix64
     stream reproduced by `ckpt.mlir_runner.splitmix_inputs`, token ids in
     the ranges of the step's `ckpt.range` arguments where it has some);
  3. planned at 70% and 50% of its store-all peak (at the least feasible
     budget the error names where one is infeasible), rewritten
     (ckpt-rematerialize, ckpt-insert-frees), lowered and run: outputs
     bit-identical (`outputs_sha256`) to the unplanned run's at every
     budget, no leak, measured peak within the budget and equal to the
     predicted one (`ckpt.remat.check`).

Tolerance of 2: numerics.py's error model, not a constant. Each entry of
each result must be within SAFETY * gamma_K * (|ref64| + max|ref64| +
terms) of PyTorch's float64 eager result on the same float32 values
(SAFETY = 1.5, gamma_K = K u / (1 - K u), u = 2^-24: Higham's bound on a
float32 sum of K terms in any order). K is numerics.reduction_length of the
model on its input with the cross-entropy loss: the longest reduction of
the step (convolution taps x channels, matmul inner sizes, batch-norm
batch x positions, attention width and sequence, the embedding backward's
tokens, the loss's rows and classes). `terms` is, for bias gradients only,
the exact float64 sum over batch and positions of |gradient at the
module's output| (a bias before a normalization has a gradient of exactly
0, whose float32 rounding |ref64| does not bound). PyTorch's own float32
result must pass the same bound (numerics.check_results), which is what
says the bound is not too tight for this CPU.

Models whose steps still hold opaque ops, because the lowerings of
parallel work have not landed yet, are strict xfails naming the ops; flip
them when they land. Each test takes a few seconds here (2-core machine).
The full sizes are bench/importer_coverage.py's (and CKPT_SLOW=1 here).

Run: .venv/bin/python -m pytest python/tests/test_models_e2e.py
"""

import os

import numpy as np
import pytest
import torch

torch.set_num_threads(1)

import models_e2e as me  # noqa: E402  (python/tests/models_e2e.py)

SLOW = os.environ.get("CKPT_SLOW") == "1"

# Small models that still import with opaque ops, and why. (The Llama's
# aten.stack, the backward of unbind, became executable with helper B's
# ops_index.py. When its token ids get `ckpt.range` and splitmix_inputs has
# no `ranges` argument yet, the comparison is an xfail at run time:
# models_e2e.Unreproducible.) strict: an unexpected pass fails, so that the
# mark is removed when the missing piece lands.
PENDING = {
    # (MobileNetV2's small model was one, ill-conditioned at its sizes: it
    # now takes batch-norm eps 0.1, models_e2e.mobilenet_v2_small says why.)
}
# The full sizes (CKPT_SLOW=1): the same ops, and at 32x32 (batch 2, the
# default eps 1e-5) MobileNetV2's gradients are too ill-conditioned to
# compare (its last batch norms normalize 2 values per channel: PyTorch's
# float32 is outside the bound too), so that test stays an xfail after
# helper A's work.
PENDING_FULL = {
    "mobilenet_v2": "ill-conditioned at 32x32: eager float64 gradients move by about "
                    "2,500x the error bound for a 1e-9 relative change of the weights",
}

# Planned steps that break a property of ckpt.remat.check: found by these
# tests, not caused by missing lowerings (the import and the numerics pass).
REMAT_BUGS = {
    # The ViT (2048 B measured over the prediction and the budget) and the
    # Llama (3072 B under it) found here are fixed: lib/Analysis/StepProblem.cpp
    # models extract_slice as a view and collapse_shape copies as buffers
    # (test/Run/view-buffers.mlir).
}

BUDGETS = ("70%", "50%")


def _pending(name):
    if name in PENDING_FULL:
        return PENDING_FULL[name]
    return PENDING.get(name.replace("_small", ""))


def _param(name, remat=False):
    marks = []
    family = name.replace("_small", "")
    if _pending(name):
        marks.append(pytest.mark.xfail(strict=True, reason=_pending(name)))
    elif remat and family in REMAT_BUGS:
        marks.append(pytest.mark.xfail(strict=True, reason=REMAT_BUGS[family]))
    if not me.FAMILIES[name][3]:
        marks.append(pytest.mark.skipif(not SLOW, reason="full size: set CKPT_SLOW=1"))
    return pytest.param(name, marks=marks, id=name)


SMALL = [n for n, v in me.FAMILIES.items() if v[3]]
FULL = [n for n, v in me.FAMILIES.items() if not v[3]]


def check_family(name, tmp_path, remat):
    model, x, _, text, info = me.import_family(name)
    # 1. No opaque op.
    assert info["opaque_ops"] == 0, f"{name}: opaque ops {info['opaque']}"
    step = me.write_step(text, name, str(tmp_path))
    # 2. Unplanned: run, no leak, loss and gradients against eager PyTorch.
    wrapped, base = me.base_run(step, name, str(tmp_path))
    assert base["leaked_bytes"] == 0
    assert len(base["outputs"]) == 1 + len(info["params"])
    try:
        ours, theirs = me.compare_with_eager(model, x, text, name, base)
    except me.Unreproducible as e:
        pytest.xfail(str(e))
    print(f"{name}: {info['aten_ops']} aten ops, {info['mlir_ops']} MLIR ops; worst error / "
          f"bound {ours:.3g} (PyTorch float32 {theirs:.3g}); peak {base['peak_bytes']} B")
    if not remat:
        return
    # 3. Planned at each budget: same outputs, bit for bit.
    for budget in BUDGETS:
        measured, nbytes, least, seconds = me.plan_and_run(wrapped, name, budget, base,
                                                           str(tmp_path))
        assert measured["outputs_sha256"] == base["outputs_sha256"]
        print(f"{name} at {budget}: budget {nbytes} B{' (least)' if least else ''}, peak "
              f"{measured['peak_bytes']} B, plan {seconds:.2f} s")


@pytest.mark.parametrize("name", [_param(n) for n in SMALL])
def test_small_model_matches_torch(name, tmp_path):
    """Steps 1 and 2 of the module docstring."""
    check_family(name, tmp_path, remat=False)


@pytest.mark.parametrize("name", [_param(n, remat=True) for n in SMALL])
def test_small_model_remat_is_bit_identical(name, tmp_path):
    """Steps 1 to 3 of the module docstring."""
    check_family(name, tmp_path, remat=True)


@pytest.mark.parametrize("name", [_param(n, remat=True) for n in FULL])
def test_full_model_end_to_end(name, tmp_path):
    check_family(name, tmp_path, remat=True)


def test_every_family_has_a_small_and_a_full_model():
    families = {n.replace("_small", "") for n in SMALL}
    assert families == {"llama", "tinygpt", "vit", "mobilenet_v2", "convnext", "unet",
                        "resnet18"}
    assert len(FULL) == len(SMALL)


def test_step_arguments_read_ranges():
    text = ("func.func @m_step(%x: tensor<2x8xi64> {ckpt.range = array<i64: 0, 64>}, "
            "%t: tensor<16x64xf32>, %p0: tensor<64x8xf32>) -> (tensor<f32>) {")
    assert me.step_arguments(text, "m") == [((2, 8), np.int64, (0, 64)),
                                            ((16, 64), np.float32, None),
                                            ((64, 8), np.float32, None)]
