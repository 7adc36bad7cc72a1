"""`python -m ckpt.torch_import ... --check`: run the imported step and
compare its loss and every gradient with eager PyTorch, as the test suite
does.

The step is wrapped and lowered to the CPU (`ckpt-opt --ckpt-wrap-step
--ckpt-lower-to-cpu`) and run by `ckpt-run --seed=7 --print-outputs`, which
draws the arguments (ckpt.mlir_runner.splitmix_inputs reproduces them: the
input, target and parameters, integer arguments within their ckpt.range).
PyTorch then runs the same training step eagerly on those values (the
model copied in training mode as the importer traces it, the same loss),
once in float32 and once in float64; every result of ours must be within
the error model's bound of the float64 one (ckpt.numerics), and PyTorch's
float32 must be too (else the step is too ill-conditioned for the bound on
this input, which is reported as such). Needs ckpt-opt and ckpt-run on
PATH.

Part of ckpt.torch_import (see its docstring).
"""

import contextlib
import io
import re
import tempfile

SEED = 7
_ARG = re.compile(r"%(\w+): tensor<([^>]*)>(\s*\{[^}]*\})?")
_RANGE = re.compile(r"ckpt\.range = array<i64: (-?\d+), (-?\d+)>")


def step_arguments(text, name):
    """[(shape, numpy dtype, (lo, hi) or None)] of the step's arguments."""
    import numpy as np
    m = re.search(rf"func\.func @{name}\((.*?)\)\s*->", text, re.S)
    if not m:
        raise ValueError(f"no @{name} in the step")
    out = []
    for _, ty, attrs in _ARG.findall(m.group(1)):
        *dims, elt = ty.split("x")
        dtype = {"f32": np.float32, "f64": np.float64, "i64": np.int64, "i32": np.int32}[elt]
        r = _RANGE.search(attrs or "")
        out.append((tuple(int(d) for d in dims), dtype,
                    (int(r.group(1)), int(r.group(2))) if r else None))
    return out


def _eager(model, loss, inputs, target, params, dtype):
    """The step's loss and gradients by eager autograd, in `dtype`, and per
    result the sum|terms| of a bias gradient's entries (None elsewhere;
    ckpt.numerics.bias_term_hooks)."""
    from ..numerics import bias_term_hooks
    import torch
    from torch.func import functional_call
    from .losses import loss_value, parse_loss
    from .trace import _output, _prepare
    spec = parse_loss(loss)
    m = _prepare(model)
    names = [n for n, _ in m.named_parameters()]
    ps = [torch.tensor(p).to(dtype).requires_grad_() for p in params]
    state = dict(zip(names, ps))
    state.update((n, b.to(dtype)) for n, b in m.named_buffers()
                 if b is not None and b.is_floating_point())

    def cast(a):
        t = torch.tensor(a)
        return t.to(dtype) if t.is_floating_point() else t
    sums = {}
    handles = bias_term_hooks(m, state, sums)
    try:
        out = functional_call(m, state, tuple(cast(x) for x in inputs))
        t = None if target is None else cast(target)
        value = loss_value(spec, out if spec.kind == "model" else _output(out), t)
        grads = torch.autograd.grad(value, ps, allow_unused=True)
    finally:
        for h in handles:
            h.remove()
    results = [value.detach().numpy()] + [
        (g if g is not None else torch.zeros_like(p)).detach().numpy() for g, p in zip(grads, ps)]
    return results, [None] + [sums.get(n) for n in names]


def check(model, example_inputs, target, loss, text, name):
    """Runs step `text` (function @NAME) and compares it with eager PyTorch:
    returns {"ours": worst |error| / bound, "pytorch": PyTorch float32's,
    "k": the reduction length}; raises ValueError (one line) when a result
    is outside the bound or the step cannot be checked."""
    import numpy as np
    from .. import numerics, remat
    from ..mlir_runner import splitmix_inputs
    _find_tools()
    inputs = example_inputs if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    args = step_arguments(text, name)
    if "%seed: " in text:
        raise ValueError("--check: a step with dropout on (its %seed argument) draws masks "
                         "PyTorch cannot reproduce")
    values = splitmix_inputs([a[0] for a in args], SEED, [a[1] for a in args],
                             ranges=[a[2] for a in args])
    n_in = len(inputs)
    n_t = 0 if target is None else 1
    xs, t, params = values[:n_in], (values[n_in] if n_t else None), values[n_in + n_t:]
    with tempfile.TemporaryDirectory(prefix="ckpt-check-") as tmp:
        step = f"{tmp}/step.mlir"
        with open(step, "w") as f:
            f.write(text)
        try:
            wrapped = remat.wrap(step, tmp)
            result = remat.execute(wrapped, name, tmp, seed=SEED, print_outputs=True)
        except remat.Failure as e:
            raise ValueError(f"--check: the step does not run: {str(e).splitlines()[0]}") from None
    got = [np.asarray(o["values"]) for o in result["outputs"]]
    k = numerics.reduction_length(model, tuple(inputs), loss)
    ref32, _ = _eager(model, loss, xs, t, params, _torch_dtype("float32"))
    ref64, terms = _eager(model, loss, xs, t, params, _torch_dtype("float64"))
    with contextlib.redirect_stdout(io.StringIO()):   # assert_close's record line
        try:
            theirs = numerics.assert_close(ref32, ref64, f"{name}: PyTorch float32 eager", k,
                                           terms=terms)
        except AssertionError as e:
            raise ValueError("--check: too ill-conditioned for the error bound on this input: "
                             f"PyTorch's own float32 is outside it too ({str(e)[:200]})") from None
        try:
            ours = numerics.assert_close(got, ref64, name, k, terms=terms)
        except AssertionError as e:
            raise ValueError(f"--check: {str(e)[:300]}") from None
    return {"ours": ours, "pytorch": theirs, "k": k}


def _find_tools():
    """ckpt-opt and ckpt-run on PATH, else beside the package's build
    (build/bin for the package in build/python/ckpt), put first on PATH."""
    import os
    import shutil
    if shutil.which("ckpt-opt") and shutil.which("ckpt-run"):
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bin_dir = os.path.join(os.path.dirname(os.path.dirname(here)), "bin")
    if os.path.isfile(os.path.join(bin_dir, "ckpt-opt")) and \
            os.path.isfile(os.path.join(bin_dir, "ckpt-run")):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
        return
    raise ValueError("--check needs ckpt-opt and ckpt-run on PATH (build/bin)")


def _torch_dtype(name):
    import torch
    return getattr(torch, name)
