"""A training step you can call: ckpt.compile_step.

    step = ckpt.compile_step(model, (x,), target, budget="50%")
    loss, grads = step(x, target)        # on the model's current parameters
    loss = step.train(x, target)         # the same, gradients into p.grad
    optimizer.step()

compile_step imports the model's training step (ckpt.torch_import), plans
it under the budget, rewrites it (recompute regions, frees), lowers it with
ckpt-lower-to-cpu{kernels=blas} and JITs it, once and in process (the _ckpt_mlir
extension; no subprocess, no ckpt-opt on PATH). A call then runs the step's
machine code on descriptors that point at the batch's and the parameters'
own memory (no copy when they are contiguous and of the step's dtype) and
returns the loss and one gradient per parameter as torch tensors that own
the step's result buffers (no copy either). Each call's measured peak (the
ckpt runtime's count of the step's allocations) is `step.last_peak`, within
`step.budget`.

What the step computes is what ckpt.torch_import traces: training mode,
batch norm with batch statistics (the running statistics are not updated),
dropout only with `dropout=True`, drawn by the step's counter-based Philox
from the `seed` given to the call.
"""

import math
import weakref

from . import _run_with_report, remat

__all__ = ["compile_step", "CompiledStep"]

def _mlir():
    from . import _ckpt_mlir
    return _ckpt_mlir


class _Buffer:
    """One result buffer the step allocated: freed (through the ckpt
    runtime) when the last tensor over it goes."""

    def __init__(self, address):
        self.address = address
        weakref.finalize(self, _mlir().runtime_free, address)


class CompiledStep:
    """A planned, lowered and JIT'd training step (see compile_step).

    Attributes: `budget` (bytes), `planned_peak` (bytes, the plan's),
    `overhead` (the plan's recompute time over the store-all time, as a
    fraction), `last_peak` (the measured peak of the last call, bytes),
    `params` (parameter names in the order of the gradients), `inputs`
    and `results` (the step's signature: dtype, shape, valid range)."""

    def __init__(self, model, engine, info, numbers, n_inputs, has_target):
        self._model = model
        self._engine = engine
        self.params = list(info["params"])
        self.inputs = list(engine.inputs)
        self.results = list(engine.results)
        self.dropout = info["dropouts"] > 0
        self.budget = numbers["budget"]
        self.planned_peak = numbers["peak"]
        self.overhead = numbers["time"] / numbers["store_all_time"] - 1.0
        self.last_peak = None
        self._n_inputs = n_inputs
        self._has_target = has_target
        self._n_words = [3 + 2 * len(r["shape"]) for r in self.results]

    def _check(self, i, t, what):
        import torch
        spec = self.inputs[i]
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{what} is a {type(t).__name__}, not a tensor")
        dtype = getattr(torch, spec["dtype"])
        if tuple(t.shape) != tuple(spec["shape"]) or t.dtype != dtype:
            raise ValueError(f"{what} is {t.dtype} {list(t.shape)}; the step was compiled "
                             f"for {dtype} {list(spec['shape'])}")
        if t.device.type != "cpu":
            raise ValueError(f"{what} is on {t.device}; the step runs on the CPU")
        if spec["range"] is not None and t.numel():
            lo, hi = spec["range"]
            low, high = int(t.min()), int(t.max())
            if low < lo or high >= hi:
                raise ValueError(f"{what} holds {low if low < lo else high}, outside its "
                                 f"valid range [{lo}, {hi})")
        return t.contiguous()

    def __call__(self, *batch, params=None, seed=0):
        """Runs the step on `batch` (the inputs, then the target unless the
        model computes its loss) and the model's current parameters (or
        `params`, tensors in the order of `self.params`). Returns (loss,
        gradients): a 0-d tensor and a list of tensors of the parameters'
        shapes. `seed`: the dropout seed (steps compiled with dropout)."""
        import ctypes
        import torch
        want = self._n_inputs + self._has_target
        if len(batch) != want:
            raise ValueError(f"the step takes {want} tensor(s) (inputs"
                             f"{', target' if self._has_target else ''}), got {len(batch)}")
        if params is None:
            named = dict(self._model.named_parameters())
            params = [named[n] for n in self.params]
        elif len(params) != len(self.params):
            raise ValueError(f"the step takes {len(self.params)} parameters, got {len(params)}")
        args = [self._check(i, t, f"argument {i}") for i, t in enumerate(batch)]
        args += [self._check(len(batch) + j, p.detach(), f"parameter '{n}'")
                 for j, (n, p) in enumerate(zip(self.params, params))]
        if self.dropout:
            spec = self.inputs[len(args)]
            args.append(torch.full(spec["shape"], int(seed), dtype=getattr(torch, spec["dtype"])))
        descriptors = [_descriptor(t) for t in args]
        results = (ctypes.c_int64 * max(1, sum(self._n_words)))()
        mlir = _mlir()
        mlir.runtime_reset()
        self._engine.invoke(ctypes.addressof(results), [ctypes.addressof(d) for d in descriptors])
        self.last_peak = mlir.runtime_stats()["peak_bytes"]
        del args, descriptors
        out, at, owners = [], 0, {}
        for spec, n in zip(self.results, self._n_words):
            out.append(_result(spec, results[at:at + n], owners))
            at += n
        return out[0], out[1:]

    def train(self, *batch, seed=0):
        """Runs the step on the model's parameters and stores each gradient
        in the parameter's `.grad` (replacing it), as loss.backward() after
        zero_grad() would; returns the loss."""
        loss, grads = self(*batch, seed=seed)
        named = dict(self._model.named_parameters())
        for n, g in zip(self.params, grads):
            named[n].grad = g
        return loss


def _descriptor(t):
    """The ranked memref descriptor of a contiguous CPU tensor: allocated,
    aligned, offset, sizes, strides (in elements)."""
    import ctypes
    rank = t.dim()
    words = [t.data_ptr(), t.data_ptr(), 0] + list(t.shape) + list(t.stride())
    return (ctypes.c_int64 * (3 + 2 * rank))(*words)


def _result(spec, words, owners):
    """The tensor over a result descriptor: the step's own buffer (no copy)
    when the ckpt runtime allocated it, else a copy (a constant, say)."""
    import ctypes
    import torch
    dtype = getattr(torch, spec["dtype"])
    shape = tuple(spec["shape"])
    rank = len(shape)
    allocated, aligned, offset = words[0], words[1], words[2]
    strides = tuple(words[3 + rank:3 + 2 * rank])
    itemsize = dtype.itemsize
    numel = math.prod(shape)
    if numel == 0:
        return torch.empty(shape, dtype=dtype)
    contiguous = tuple(math.prod(shape[i + 1:]) for i in range(rank))
    size = _mlir().runtime_allocation(allocated)
    start = aligned + offset * itemsize
    if size is not None and strides == tuple(contiguous):
        owner = owners.get(allocated) or owners.setdefault(allocated, _Buffer(allocated))
        buf = (ctypes.c_char * (numel * itemsize)).from_address(start)
        # The tensor keeps `buf`, which keeps the owner: the buffer is freed
        # when the last tensor over it goes.
        buf._ckpt_owner = owner
        tensor = torch.frombuffer(buf, dtype=dtype).view(shape)
        return tensor
    extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    raw = (ctypes.c_char * (extent * itemsize)).from_address(start)
    flat = torch.frombuffer(raw, dtype=dtype)
    return flat.as_strided(shape, strides).clone()


def compile_step(model, example_inputs, target=None, budget="50%", loss=None,
                 device="cpu", opt_level=2, dropout=False, options="", cpu="",
                 kernels="blas", codegen_level=None, fast_math=False):
    """Imports `model`'s training step on `example_inputs` (a tensor or a
    tuple) and `target` (None for loss 'model'), plans it under `budget`
    (bytes, "6GiB", or a percentage of the store-all peak: "50%"), rewrites
    and lowers it, and JIT-compiles it at LLVM `opt_level` (0-3: the IR
    passes, and the code generator unless `codegen_level` is given) for `cpu`
    (empty: the host, or CKPT_ISA): a CompiledStep. `loss`: a ckpt loss spec
    (default cross_entropy, with class indices kept as integers when the
    target is an integer tensor). `options`: more ckpt-plan options
    ("strategy=sqrt", ...). `fast_math`: let LLVM reassociate and contract
    float additions and multiplications (faster reductions; results within
    the same error bound, different in the last bits). `kernels`: "blas"
    (f32 contractions and NCHW convolutions call the runtime's OpenBLAS
    kernels, ckpt-lower-to-cpu's kernels=blas) or "loops" (every op as loop
    nests). `device` must be "cpu": the NVPTX lowering is not callable from
    Python yet. Raises ValueError for a model or batch the
    importer refuses, and ckpt.remat.Infeasible (with `least`, the least
    feasible budget in bytes) for a budget too small."""
    import torch
    from .torch_import.api import import_module_info
    if device != "cpu":
        raise ValueError(f"device {device!r}: compile_step runs steps on the CPU only "
                         "(the NVPTX lowering is not callable from Python yet)")
    for level in (opt_level, codegen_level):
        if level is not None and not 0 <= int(level) <= 3:
            raise ValueError("opt_level and codegen_level must be 0, 1, 2 or 3")
    if kernels not in ("loops", "blas"):
        raise ValueError(f"kernels must be 'loops' or 'blas', not {kernels!r}")
    inputs = example_inputs if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    if loss is None:
        loss = ("cross_entropy:indices" if isinstance(target, torch.Tensor)
                and not target.is_floating_point() else "cross_entropy")
    text, info = import_module_info(model, tuple(inputs), target, loss=loss, dropout=dropout)
    if info["opaque_ops"]:
        raise ValueError("the step has ops ckpt cannot execute: " + ", ".join(
            f"{k} x{v}" for k, v in sorted(info["opaque"].items())))
    mlir = _mlir()
    plan = f"budget={_option(budget)} device=cpu" + (f" {options}" if options else "")
    try:
        planned, report = _run_with_report(text, ["ckpt-wrap-step", f"ckpt-plan{{{plan}}}"],
                                           [remat.REPORT_OPTIONS], filename=info["name"])
    except mlir.PipelineError as e:
        if e.least_feasible_bytes is not None:
            raise remat.Infeasible(e.least_feasible_bytes, str(e)) from None
        raise
    numbers = remat.plan_numbers(report)
    lower = "ckpt-lower-to-cpu" + ("" if kernels == "loops" else f"{{kernels={kernels}}}")
    engine = mlir.CompiledStep(planned, f"ckpt-rematerialize,ckpt-insert-frees,{lower}",
                               info["name"], int(opt_level), cpu, info["name"],
                               None if codegen_level is None else int(codegen_level),
                               bool(fast_math))
    return CompiledStep(model, engine, info, numbers, len(inputs), target is not None)


def _option(value):
    text = str(value)
    if not text or any(c in text for c in " {}'\""):
        raise ValueError(f"invalid budget {text!r}")
    return text
