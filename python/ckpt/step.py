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

With device="cuda" the step is lowered by ckpt-lower-to-nvptx instead and
runs on CUDA device 0 through libckpt_cuda_runtime.so. Its memory scheme
(ARCHITECTURE.md, "GPU path") needs every buffer in managed memory, so a
call copies the batch and the parameters into managed buffers the step
keeps (one copy each, from CPU or CUDA tensors); the results are CUDA
tensors over the step's own managed buffers (no copy), and `last_peak` is
the device memory the step allocated.

What the step computes is what ckpt.torch_import traces: training mode,
batch norm with batch statistics (the running statistics are not updated),
dropout only with `dropout=True`, drawn by the step's counter-based Philox
from the `seed` given to the call.
"""

import math
import os
import weakref

from . import _run_with_report, remat

__all__ = ["compile_step", "CompiledStep"]

def _mlir():
    from . import _ckpt_mlir
    return _ckpt_mlir


class _Buffer:
    """One result buffer the step allocated: freed (through the step's
    runtime, which the finalizer keeps alive) when the last tensor over it
    goes."""

    def __init__(self, engine, address, on_device):
        self.address = address
        weakref.finalize(self, engine.free, address, on_device)


# __cuda_array_interface__ type strings of the step's dtypes.
_TYPESTR = {"float32": "<f4", "float64": "<f8", "int32": "<i4", "int64": "<i8"}


class _CudaArray:
    """A dense array in CUDA-accessible memory (managed buffers), seen by
    torch through __cuda_array_interface__: torch.as_tensor(a, device="cuda")
    makes a tensor over it without a copy and keeps `a` (and so `owner`)
    alive while the tensor lives."""

    def __init__(self, address, spec, owner=None):
        self.__cuda_array_interface__ = {
            "shape": tuple(spec["shape"]), "typestr": _TYPESTR[spec["dtype"]],
            "data": (address, False), "strides": None, "version": 2}
        self._owner = owner


class CompiledStep:
    """A planned, lowered and JIT'd training step (see compile_step).

    Attributes: `budget` (bytes), `planned_peak` (bytes, the plan's),
    `overhead` (the plan's recompute time over the store-all time, as a
    fraction), `last_peak` (the measured peak of the last call, bytes),
    `params` (parameter names in the order of the gradients), `inputs`
    and `results` (the step's signature: dtype, shape, valid range)."""

    def __init__(self, model, engine, info, numbers, n_inputs, has_target, device):
        self._model = model
        self._engine = engine
        self.device = device
        self.device_name = engine.device
        self._staging = None
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
        if t.device.type != "cpu" and (self.device == "cpu" or t.device.type != "cuda"):
            raise ValueError(f"{what} is on {t.device}; the step runs on "
                             f"{'the CPU' if self.device == 'cpu' else 'CUDA device 0'}")
        if spec["range"] is not None and t.numel():
            lo, hi = spec["range"]
            low, high = int(t.min()), int(t.max())
            if low < lo or high >= hi:
                raise ValueError(f"{what} holds {low if low < lo else high}, outside its "
                                 f"valid range [{lo}, {hi})")
        return t.contiguous() if self.device == "cpu" else t

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
        if self.device == "cuda":
            descriptors = self._stage(args)
        else:
            descriptors = [_descriptor(t.data_ptr(), t.shape) for t in args]
        results = (ctypes.c_int64 * max(1, sum(self._n_words)))()
        engine = self._engine
        engine.reset()
        engine.invoke(ctypes.addressof(results), [ctypes.addressof(d) for d in descriptors])
        self.last_peak = engine.stats()["peak_bytes"]
        del args, descriptors
        out, at, owners = [], 0, {}
        for spec, n in zip(self.results, self._n_words):
            out.append(_result(engine, spec, results[at:at + n], owners, self.device))
            at += n
        return out[0], out[1:]

    def _stage(self, args):
        """A CUDA step's arguments: copied into managed buffers (allocated at
        the first call, kept and freed with the step), whose descriptors it
        returns."""
        import torch
        if self._staging is None:
            engine = self._engine
            sizes = [math.prod(spec["shape"]) * getattr(torch, spec["dtype"]).itemsize
                     for spec in self.inputs]
            self._staging = [engine.alloc_staging(n) if n else 0 for n in sizes]
            weakref.finalize(self, _free_staging, engine, list(self._staging))
        # The caller's pending work on the tensors, then the copies (on
        # torch's stream), must be done before the step's own streams start.
        torch.cuda.synchronize()
        for address, spec, t in zip(self._staging, self.inputs, args):
            if address:
                torch.as_tensor(_CudaArray(address, spec), device="cuda").copy_(t)
        torch.cuda.synchronize()
        return [_descriptor(address, spec["shape"])
                for address, spec in zip(self._staging, self.inputs)]

    def train(self, *batch, seed=0):
        """Runs the step on the model's parameters and stores each gradient
        in the parameter's `.grad` (replacing it), as loss.backward() after
        zero_grad() would; returns the loss."""
        loss, grads = self(*batch, seed=seed)
        named = dict(self._model.named_parameters())
        for n, g in zip(self.params, grads):
            p = named[n]
            p.grad = g if g.device == p.device else g.to(p.device)
        return loss


def _free_staging(engine, addresses):
    for address in addresses:
        if address:
            engine.free_staging(address)


def _descriptor(address, shape):
    """The ranked memref descriptor of a dense array at `address`:
    allocated, aligned, offset, sizes, strides (in elements)."""
    import ctypes
    rank = len(shape)
    strides = [math.prod(shape[i + 1:]) for i in range(rank)]
    words = [address, address, 0] + list(shape) + strides
    return (ctypes.c_int64 * (3 + 2 * rank))(*words)


def _result(engine, spec, words, owners, device):
    """The tensor over a result descriptor: the step's own buffer (no copy)
    when the step's runtime allocated it (a CUDA tensor for a buffer on the
    device), else a copy (a constant, say)."""
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
        return torch.empty(shape, dtype=dtype, device=device)
    contiguous = tuple(math.prod(shape[i + 1:]) for i in range(rank))
    found = engine.allocation(allocated)
    start = aligned + offset * itemsize
    if found is not None and strides == tuple(contiguous):
        on_device = found[1]
        owner = owners.get(allocated) or owners.setdefault(
            allocated, _Buffer(engine, allocated, on_device))
        if on_device:
            return torch.as_tensor(_CudaArray(start, spec, owner), device="cuda")
        buf = (ctypes.c_char * (numel * itemsize)).from_address(start)
        # The tensor keeps `buf`, which keeps the owner: the buffer is freed
        # when the last tensor over it goes.
        buf._ckpt_owner = owner
        tensor = torch.frombuffer(buf, dtype=dtype).view(shape)
        return tensor.to(device)
    # Host memory of the step (a CUDA step's host buffers and arguments are
    # managed or host memory: the host reads them all).
    extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    raw = (ctypes.c_char * (extent * itemsize)).from_address(start)
    flat = torch.frombuffer(raw, dtype=dtype)
    return flat.as_strided(shape, strides).clone().to(device)


def compile_step(model, example_inputs, target=None, budget="50%", loss=None,
                 device="cpu", opt_level=None, dropout=False, options="", cpu="",
                 kernels=None, codegen_level=None, fast_math=False, chip=None):
    """Imports `model`'s training step on `example_inputs` (a tensor or a
    tuple) and `target` (None for loss 'model'), plans it under `budget`
    (bytes, "6GiB", or a percentage of the store-all peak: "50%"), rewrites
    and lowers it, and JIT-compiles it at LLVM `opt_level` (0-3: the IR
    passes, and the code generator unless `codegen_level` is given; default
    2 on the CPU, 0 for a CUDA step's host code, which only launches
    kernels) for `cpu` (empty: the host, or CKPT_ISA): a CompiledStep.
    `loss`: a ckpt loss spec
    (default cross_entropy, with class indices kept as integers when the
    target is an integer tensor). `options`: more ckpt-plan options
    ("strategy=sqrt", ...). `fast_math`: let LLVM reassociate and contract
    float additions and multiplications (faster reductions; results within
    the same error bound, different in the last bits). `kernels`: "blas",
    the default (on the CPU, f32 contractions and NCHW convolutions call the
    runtime's OpenBLAS kernels, ckpt-lower-to-cpu's kernels=blas; on CUDA,
    f32 contractions call cuBLAS and convolutions cuDNN,
    ckpt-lower-to-nvptx's kernels=blas, loaded from CKPT_CUBLAS and
    CKPT_CUDNN, which use_nvidia_wheels sets to the environment's NVIDIA
    wheels when unset) or "loops" (every op as loop nests, or as GPU
    kernels).
    `device`: "cpu", or "cuda" (CUDA device 0: the step is lowered by
    ckpt-lower-to-nvptx for `chip`, by default the device's own as torch
    reports it, else sm_90, and planned with the h100 cost model unless
    `options` names another device). Raises ValueError for a model, batch
    or option the importer or compile_step refuses, ckpt.remat.Infeasible
    (with `least`, the least feasible budget in bytes) for a budget too
    small, and RuntimeError for device="cuda" without a usable CUDA device
    (or, with kernels="blas", without cuBLAS or cuDNN)."""
    import torch
    from .torch_import.api import import_module_info
    device = _device(device)
    for level in (opt_level, codegen_level):
        if level is not None and not 0 <= int(level) <= 3:
            raise ValueError("opt_level and codegen_level must be 0, 1, 2 or 3")
    if device == "cpu" and chip is not None:
        raise ValueError(f"chip={chip!r} is an option of device='cuda'")
    if kernels is None:
        kernels = "blas"
    if kernels not in ("loops", "blas"):
        raise ValueError(f"kernels must be 'loops' or 'blas', not {kernels!r}")
    mlir = _mlir()
    if device == "cuda":
        if mlir.CUDA_RUNTIME is None:
            raise RuntimeError("device 'cuda': this build of ckpt has no CUDA runtime "
                               "(it was built without the CUDA toolkit)")
        # Without the driver library (or cuBLAS, cuDNN) this fails now, before
        # any work.
        mlir.load_cuda_runtime(mlir.CUDA_RUNTIME)
        if kernels == "blas":
            use_nvidia_wheels()
            try:
                mlir.load_cuda_libraries(mlir.CUDA_RUNTIME)
            except RuntimeError as e:
                raise RuntimeError(f"{e}; or compile with kernels='loops', which needs "
                                   "neither cuBLAS nor cuDNN") from None
        chip = _option(chip or _default_chip(), "chip")
    inputs = example_inputs if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    if loss is None:
        loss = ("cross_entropy:indices" if isinstance(target, torch.Tensor)
                and not target.is_floating_point() else "cross_entropy")
    text, info = import_module_info(model, tuple(inputs), target, loss=loss, dropout=dropout)
    if info["opaque_ops"]:
        raise ValueError("the step has ops ckpt cannot execute: " + ", ".join(
            f"{k} x{v}" for k, v in sorted(info["opaque"].items())))
    costs = "cpu" if device == "cpu" else "h100"
    plan = f"budget={_option(budget)} device={costs}" + (f" {options}" if options else "")
    try:
        planned, report = _run_with_report(text, ["ckpt-wrap-step", f"ckpt-plan{{{plan}}}"],
                                           [remat.REPORT_OPTIONS], filename=info["name"])
    except mlir.PipelineError as e:
        if e.least_feasible_bytes is not None:
            raise remat.Infeasible(e.least_feasible_bytes, str(e)) from None
        raise
    numbers = remat.plan_numbers(report)
    if device == "cuda":
        # The arguments are the step's managed copies (CompiledStep._stage).
        lower = f"ckpt-lower-to-nvptx{{chip={chip} host-register=false kernels={kernels}}}"
    else:
        lower = "ckpt-lower-to-cpu" + ("" if kernels == "loops" else f"{{kernels={kernels}}}")
    if opt_level is None:
        opt_level = 2 if device == "cpu" else 0
    engine = mlir.CompiledStep(planned, f"ckpt-rematerialize,ckpt-insert-frees,{lower}",
                               info["name"], int(opt_level), cpu, info["name"],
                               None if codegen_level is None else int(codegen_level),
                               bool(fast_math), mlir.CUDA_RUNTIME if device == "cuda" else "")
    return CompiledStep(model, engine, info, numbers, len(inputs), target is not None, device)


def _device(device):
    """'cpu' or 'cuda' from a device name or torch.device."""
    text = str(device)
    if text in ("cpu", "cuda", "cuda:0"):
        return "cpu" if text == "cpu" else "cuda"
    raise ValueError(f"device {text!r}: compile_step runs steps on 'cpu' or 'cuda' "
                     "(CUDA device 0)")


def _find_wheel_library(patterns):
    """The first file matching one of `patterns` under a directory of
    sys.path (where pip puts the NVIDIA wheels), else None."""
    import glob
    import sys
    for base in sys.path:
        for pattern in patterns:
            found = sorted(glob.glob(os.path.join(base or ".", pattern)))
            if found:
                return found[-1]
    return None


def use_nvidia_wheels():
    """Sets CKPT_CUBLAS and CKPT_CUDNN, each where unset, to the libraries
    of the NVIDIA wheels in this environment (PyTorch's CUDA build installs
    them: nvidia/cu13/lib/libcublas.so.13, or nvidia/cublas/lib for CUDA 12,
    and nvidia/cudnn/lib/libcudnn.so.9), for the CUDA runtime's cuBLAS and
    cuDNN kernels. Returns the two values (None for one unset)."""
    wanted = {"CKPT_CUBLAS": ("nvidia/cu13/lib/libcublas.so.13",
                              "nvidia/cublas/lib/libcublas.so.1[23]"),
              "CKPT_CUDNN": ("nvidia/cudnn/lib/libcudnn.so.9",)}
    for name, patterns in wanted.items():
        if not os.environ.get(name):
            found = _find_wheel_library(patterns)
            if found:
                os.environ[name] = found
    return os.environ.get("CKPT_CUBLAS"), os.environ.get("CKPT_CUDNN")


def _default_chip():
    """sm_XY of CUDA device 0 as torch sees it, else sm_90."""
    import torch
    try:
        if torch.cuda.is_available():
            major, minor = torch.cuda.get_device_capability(0)
            return f"sm_{major}{minor}"
    except (RuntimeError, AssertionError):
        pass
    return "sm_90"


def _option(value, what="budget"):
    text = str(value)
    if not text or any(c in text for c in " {}'\""):
        raise ValueError(f"invalid {what} {text!r}")
    return text
