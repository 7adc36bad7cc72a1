"""ckpt.compile_step: a step compiled in process, called on the model's own
parameters and a batch, checked against eager PyTorch in float64 (the
error model of numerics.py), its memory by the runtime's counters, its
refusals one line each; and the training example's short form (smallcnn and
tinygpt, AdamW at 50%, curves against eager)."""

import gc
import math
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "train"))

import numerics  # noqa: E402
from ckpt import remat  # noqa: E402
from ckpt.step import compile_step  # noqa: E402
from ckpt._ckpt_mlir import runtime_stats  # noqa: E402


class _Net(torch.nn.Module):
    """Conv, batch norm, ReLU, twice, pooling and a classifier: what a
    CNN's step holds, small enough to check every gradient entry."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.b1 = torch.nn.BatchNorm2d(8)
        self.c2 = torch.nn.Conv2d(8, 8, 3, stride=2, padding=1, bias=False)
        self.b2 = torch.nn.BatchNorm2d(8)
        self.c3 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        x = torch.relu(self.b1(self.c1(x)))
        x = torch.relu(self.b2(self.c2(x)))
        x = torch.relu(self.c3(x))
        return self.fc(x.mean((2, 3)))


@pytest.fixture(scope="module")
def net():
    torch.manual_seed(0)
    model = _Net()
    x = torch.rand(8, 3, 16, 16) - 0.5
    t = torch.randint(0, 5, (8,))
    return model, x, t, compile_step(model, x, t, budget="80%")


def _eager(model, x, t, dtype):
    import copy
    m = copy.deepcopy(model).to(dtype)
    loss = torch.nn.functional.cross_entropy(m(x.to(dtype)), t)
    return [loss.detach().numpy()] + [g.numpy() for g in
                                      torch.autograd.grad(loss, list(m.parameters()))]


def test_loss_and_gradients_match_eager_within_the_budget(net):
    model, x, t, step = net
    loss, grads = step(x, t)
    assert loss.shape == () and loss.dtype == torch.float32
    assert [g.shape for g in grads] == [p.shape for p in model.parameters()]
    got = [loss.numpy()] + [g.numpy() for g in grads]
    numerics.check_results(got, _eager(model, x, t, torch.float32),
                           _eager(model, x, t, torch.float64), "compiled step",
                           numerics.reduction_length(model, (x,), "cross_entropy"))
    # 80% of the store-all peak, planned and measured: something is
    # recomputed to fit it.
    assert step.planned_peak <= step.budget
    assert 0 < step.last_peak <= step.budget
    assert step.overhead > 0


def test_fast_math_keeps_the_error_bound(net):
    """fast_math=True lets LLVM reassociate float sums (vectorized batch
    norm and loss reductions): the results stay within the same bound, and
    the memory is the same to the byte."""
    model, x, t, step = net
    fast = compile_step(model, x, t, budget="80%", fast_math=True)
    loss, grads = fast(x, t)
    got = [loss.numpy()] + [g.numpy() for g in grads]
    numerics.check_results(got, _eager(model, x, t, torch.float32),
                           _eager(model, x, t, torch.float64), "fast-math step",
                           numerics.reduction_length(model, (x,), "cross_entropy"))
    step(x, t)
    assert fast.last_peak == step.last_peak and fast.budget == step.budget


def test_parameters_are_read_at_each_call(net):
    """The step runs on the model's current parameters (or `params=`),
    and a second call leaves the first call's gradients as they were."""
    model, x, t, step = net
    loss1, grads1 = step(x, t)
    kept = [g.clone() for g in grads1]
    other = [p.detach() * 0.5 for p in model.parameters()]
    loss2, grads2 = step(x, t, params=other)
    assert loss2.item() != loss1.item()
    assert all(torch.equal(a, b) for a, b in zip(grads1, kept))
    with torch.no_grad():
        w = model.fc.weight.clone()
        model.fc.weight.mul_(2.0)
        try:
            assert step(x, t)[0].item() != loss1.item()
        finally:
            model.fc.weight.copy_(w)
    assert step(x, t)[0].item() == loss1.item()


def test_results_own_the_step_buffers(net):
    """The loss and gradients are the step's own result buffers (no copy):
    live in the runtime until the tensors go, then freed."""
    model, x, t, step = net
    loss, grads = step(x, t)
    n = sum(g.numel() for g in grads) + 1
    live = runtime_stats()["live_bytes"]
    assert live >= 4 * n
    del loss, grads
    gc.collect()
    assert runtime_stats()["live_bytes"] == 0


def test_train_fills_grad(net):
    model, x, t, step = net
    model.zero_grad(set_to_none=True)
    loss = step.train(x, t)
    eager = _eager(model, x, t, torch.float64)
    assert abs(loss.item() - float(eager[0])) < 1e-4
    for p, g in zip(model.parameters(), eager[1:]):
        assert p.grad is not None and p.grad.shape == p.shape
        assert np.allclose(p.grad.numpy(), g, atol=1e-4)


def test_bad_batches_are_one_line_errors(net):
    model, x, t, step = net
    high, low = t.clone(), t.clone()
    high[3], low[2] = 9, -1
    cases = [
        ((x[:4], t), "argument 0 is torch.float32 [4, 3, 16, 16]; the step was compiled for "
                     "torch.float32 [8, 3, 16, 16]"),
        ((x.double(), t), "argument 0 is torch.float64 [8, 3, 16, 16]; the step was compiled"),
        ((x, t.int()), "argument 1 is torch.int32 [8]; the step was compiled for torch.int64 [8]"),
        ((x, high), "argument 1 holds 9, outside its valid range [0, 5)"),
        ((x, low), "argument 1 holds -1, outside its valid range [0, 5)"),
        ((x,), "the step takes 2 tensor(s) (inputs, target), got 1"),
    ]
    for args, message in cases:
        with pytest.raises(ValueError) as e:
            step(*args)
        assert message in str(e.value) and "\n" not in str(e.value), str(e.value)
    with pytest.raises(ValueError, match=r"argument 0 is on meta; the step runs on the CPU$"):
        step(x.to("meta"), t)
    with pytest.raises(TypeError, match="argument 1 is a list, not a tensor"):
        step(x, [1] * 8)
    with pytest.raises(ValueError, match="the step takes 10 parameters, got 1"):
        step(x, t, params=[x])
    # A non-contiguous batch is copied, not refused.
    xt = x.transpose(2, 3).contiguous().transpose(2, 3)
    assert not xt.is_contiguous()
    assert step(xt, t)[0].item() == step(x, t)[0].item()


def test_top_level_name():
    import ckpt
    import ckpt.step
    assert ckpt.compile_step is ckpt.step.compile_step
    assert "compile_step" in ckpt.__all__


def test_compile_refusals():
    torch.manual_seed(0)
    model = _Net()
    x, t = torch.rand(8, 3, 16, 16), torch.randint(0, 5, (8,))
    for device in ("tpu", "cuda:1", torch.device("cuda", 1)):
        with pytest.raises(ValueError, match=r"device '.*': compile_step runs steps on "
                                             r"'cpu' or 'cuda' \(CUDA device 0\)"):
            compile_step(model, x, t, device=device)
    with pytest.raises(ValueError, match="kernels must be 'loops' or 'blas', not 'cudnn'"):
        compile_step(model, x, t, device="cuda", kernels="cudnn")
    with pytest.raises(ValueError, match="chip='sm_80' is an option of device='cuda'"):
        compile_step(model, x, t, chip="sm_80")
    with pytest.raises(ValueError, match="opt_level and codegen_level must be 0, 1, 2 or 3"):
        compile_step(model, x, t, opt_level=4)
    with pytest.raises(ValueError, match="opt_level and codegen_level must be 0, 1, 2 or 3"):
        compile_step(model, x, t, codegen_level=-1)
    with pytest.raises(ValueError, match="kernels must be 'loops' or 'blas', not 'mkl'"):
        compile_step(model, x, t, kernels="mkl")
    with pytest.raises(ValueError, match="invalid budget"):
        compile_step(model, x, t, budget="1 GiB")
    with pytest.raises(remat.Infeasible) as e:
        compile_step(model, x, t, budget="10%")
    least = e.value.least
    assert f"the least feasible budget is {least} B" in str(e.value)
    # The least feasible budget it names compiles, and the step keeps it,
    # with loop nests as with the BLAS kernels (the same buffers: the same
    # peak), and both are float64's loss and gradients within the error
    # bound (they differ only in the order of their sums).
    step = compile_step(model, x, t, budget=least, opt_level=0, codegen_level=2,
                        kernels="loops")
    loss, grads = step(x, t)
    assert step.last_peak <= least == step.budget
    blas = compile_step(model, x, t, budget=least)
    loss2, grads2 = blas(x, t)
    assert blas.last_peak == step.last_peak
    ref64 = _eager(model, x, t, torch.float64)
    k = numerics.reduction_length(model, (x,), "cross_entropy")
    for what, (l, gs) in (("loops", (loss, grads)), ("blas", (loss2, grads2))):
        numerics.assert_close([l.numpy()] + [g.numpy() for g in gs], ref64, what, k)


class _DropoutNet(torch.nn.Module):
    """Two dropouts (p = 0.25, 0.1) on `fc(x) + o`, o a parameter of the
    mask's shape: o's gradient is zero exactly where the mask drops (o1's
    also where the second mask drops a whole row, which eight outputs at
    p = 0.1 make a 1e-8 event)."""

    P = (0.25, 0.1)

    def __init__(self, batch):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 16)
        self.fc2 = torch.nn.Linear(16, 8)
        self.o1 = torch.nn.Parameter(torch.rand(batch, 16) - 0.5)
        self.o2 = torch.nn.Parameter(torch.rand(batch, 8) - 0.5)
        self.drops = torch.nn.ModuleList(torch.nn.Dropout(p) for p in self.P)

    def forward(self, x):
        h = torch.tanh(self.drops[0](self.fc1(x) + self.o1))
        return self.drops[1](self.fc2(h) + self.o2)


def test_dropout_masks_are_the_counter_based_ones():
    """With dropout=True the call's `seed` keys the step's Philox4x32-10:
    mask n keeps element i when the top 24 bits of the first word for
    counter (i, 0, n, 0) and key (seed, seed >> 32) are below
    ceil((1 - p) 2^24) (the importer's rule, test_torch_import.py). The
    bits, read off o's gradients, equal the independent Python Philox's;
    the same seed gives the same step, another seed other masks."""
    # The independent Python Philox (checked against Random123's known
    # answers there).
    from test_torch_import import _philox4x32_10
    torch.manual_seed(0)
    batch = 4
    model = _DropoutNet(batch)
    x, t = torch.rand(batch, 12), torch.rand(batch, 8)
    step = compile_step(model, x, t, budget="100%", loss="mse", dropout=True)
    for seed in (3, 2 ** 33 + 7):
        _, grads = step(x, t, seed=seed)
        _, again = step(x, t, seed=seed)
        assert all(torch.equal(a, b) for a, b in zip(grads, again))
        for n, (name, p) in enumerate(zip(("o1", "o2"), _DropoutNet.P)):
            shape = tuple(model.get_parameter(name).shape)
            threshold = math.ceil((1 - p) * (1 << 24))
            want = np.array([(_philox4x32_10([i, 0, n, 0], [seed, seed >> 32])[0] >> 8)
                             < threshold for i in range(math.prod(shape))]).reshape(shape)
            got = grads[step.params.index(name)].numpy() != 0
            assert np.array_equal(got, want), (seed, n)
    other = step(x, t, seed=4)[1][step.params.index("o1")]
    assert not torch.equal(other != 0, grads[step.params.index("o1")] != 0)


def test_training_example_short_form(capsys):
    """examples/train/train.py: smallcnn and tinygpt, 8 AdamW steps at 50%:
    each step's loss and gradients within the error bound of float64 on the
    step's own weights, the loss curve within twice float32 eager's drift
    from float64 eager, every step's measured peak within the budget."""
    import train
    status = train.main(["--steps", "8"])
    out = capsys.readouterr().out
    assert status == 0, out[-3000:]
    assert "smallcnn: 8 steps" in out and "tinygpt: 8 steps" in out


# device="cuda" on machines without a GPU (CI's): how far the step gets.

def _cuda_runtime():
    from ckpt import _ckpt_mlir
    return _ckpt_mlir.CUDA_RUNTIME


def _driver_loads():
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def _cuda_stub():
    """A CUDA driver stub (loads, has no device): the toolkit's, else the
    build's own (lib/Runtime/CudaDriverStub.cpp), or None."""
    import shutil
    roots = [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]
    ptxas = shutil.which("ptxas")
    if ptxas:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    stubs = [os.path.join(root, "lib64", "stubs", "libcuda.so") for root in filter(None, roots)]
    stubs.append(os.path.join(os.environ["CKPT_BUILD_DIR"], "lib", "cuda-stub", "libcuda.so.1"))
    return next((stub for stub in stubs if os.path.exists(stub)), None)


@pytest.mark.skipif(_driver_loads(), reason="this machine has a CUDA driver")
def test_cuda_without_a_driver_is_one_line():
    """No libcuda.so.1: one RuntimeError naming what is missing, before
    anything is imported or lowered."""
    torch.manual_seed(0)
    model = _Net()
    x, t = torch.rand(8, 3, 16, 16), torch.randint(0, 5, (8,))
    if _cuda_runtime() is None:
        with pytest.raises(RuntimeError, match="built without the CUDA toolkit"):
            compile_step(model, x, t, device="cuda")
        return
    with pytest.raises(RuntimeError) as e:
        compile_step(model, x, t, budget="1%", device="cuda")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith("no CUDA device available: cannot load '")
    assert "libckpt_cuda_runtime.so' (libcuda.so.1: cannot open shared object file" in message


_STUB_SCRIPT = """
import sys, torch
sys.path.insert(0, {here!r})
from test_compile_step import _Net
from ckpt.step import compile_step
from ckpt import PipelineError
torch.manual_seed(0)
model = _Net()
x, t = torch.rand(8, 3, 16, 16), torch.randint(0, 5, (8,))
for chip, kernels, budget in {cases}:
    try:
        compile_step(model, x, t, budget=budget, device="cuda", chip=chip, kernels=kernels)
        print("compiled")
    except (RuntimeError, PipelineError) as e:
        print(type(e).__name__ + ": " + str(e).replace("\\n", " | "))
"""


def _run_stub_script(tmp_path, cases, **env):
    """Runs compile_step on `cases` (chip, kernels, budget) in a process
    whose libcuda.so.1 is the driver stub: a line per case."""
    import subprocess
    driver = tmp_path / "driver"
    driver.mkdir(exist_ok=True)
    if not (driver / "libcuda.so.1").exists():
        (driver / "libcuda.so.1").symlink_to(_cuda_stub())
    env = dict(os.environ, LD_LIBRARY_PATH=str(driver),
               PYTHONPATH=os.pathsep.join(sys.path), **env)
    script = _STUB_SCRIPT.format(here=HERE, cases=repr(cases))
    run = subprocess.run([sys.executable, "-c", script],
                         capture_output=True, text=True, env=env, timeout=1200)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    assert len(lines) == len(cases), run.stdout
    return lines


_NO_DEVICE = ("RuntimeError: no CUDA device available (cuInit failed: "
              "CUDA_ERROR_STUB_LIBRARY (the CUDA driver stub was loaded: no "
              "NVIDIA driver is installed))")


@pytest.mark.skipif(_driver_loads() or _cuda_stub() is None or _cuda_runtime() is None,
                    reason="needs the CUDA toolkit's driver stub, no driver, and a "
                           "build with the CUDA runtime")
def test_cuda_step_compiles_up_to_the_device(tmp_path):
    """With the toolkit's driver stub as libcuda.so.1 (it loads but has no
    device), device="cuda" loads the CUDA runtime, plans the step, lowers
    it by ckpt-lower-to-nvptx for the chip (an unknown chip fails there,
    so the chip reaches the lowering), compiles the kernels (ptxas) and
    the host code, resolves every mgpu* function the host code calls, and
    only then finds no device: one RuntimeError line. With the default
    kernels="blas" it has loaded cuBLAS too (the environment's NVIDIA
    wheel); kernels="loops" needs none."""
    lines = _run_stub_script(tmp_path, [("gfx90a", "loops", "80%"), (None, None, "80%"),
                                        (None, "loops", "80%")])
    assert lines[0].startswith("PipelineError: ") and \
        "unknown chip 'gfx90a': expected sm_XX (e.g. sm_80, sm_90)" in lines[0], lines[0]
    assert lines[1:] == [_NO_DEVICE, _NO_DEVICE], lines


@pytest.mark.skipif(_driver_loads() or _cuda_stub() is None or _cuda_runtime() is None,
                    reason="needs the CUDA toolkit's driver stub, no driver, and a "
                           "build with the CUDA runtime")
def test_cuda_step_without_cublas_is_one_line(tmp_path):
    """kernels="blas" (the default) with a CKPT_CUBLAS that names no file:
    one RuntimeError line saying so, before planning (a 1% budget is not
    reported infeasible); kernels="loops" goes on to the device."""
    lines = _run_stub_script(tmp_path, [(None, None, "1%"), (None, "loops", "80%")],
                             CKPT_CUBLAS=str(tmp_path / "none" / "libcublas.so.13"))
    assert lines[0].startswith("RuntimeError: cannot load cuBLAS from CKPT_CUBLAS='"), lines[0]
    assert "none/libcublas.so.13: cannot open shared object file" in lines[0], lines[0]
    assert lines[0].endswith("; or compile with kernels='loops', which needs neither "
                             "cuBLAS nor cuDNN"), lines[0]
    assert lines[1] == _NO_DEVICE, lines[1]


@pytest.mark.skipif(not torch.cuda.is_available() or _cuda_runtime() is None,
                    reason="needs a CUDA device (scripts/gpu-check.sh runs this too)")
def test_cuda_step_matches_the_cpu_step():
    """On a GPU, with cuBLAS and with GPU kernels only: the CUDA step's loss
    and gradients are CUDA tensors of the parameters' shapes, within 1e-3 (relative to max(1, |cpu|)) of the CPU
    step's, and its device peak is the CPU step's (the same buffers in the
    same 16-byte granules), within the budget."""
    torch.manual_seed(0)
    model = _Net()
    x, t = torch.rand(8, 3, 16, 16) - 0.5, torch.randint(0, 5, (8,))
    cpu = compile_step(model, x, t, budget="80%")
    want = cpu(x, t)
    for kernels in ("blas", "loops"):
        gpu = compile_step(model, x, t, budget="80%", device="cuda", kernels=kernels)
        got = gpu(x.cuda(), t.cuda())
        assert got[0].device.type == "cuda"
        for g, c in zip([got[0]] + got[1], [want[0]] + want[1]):
            assert g.shape == c.shape
            scale = max(1.0, c.abs().max().item())
            assert (g.cpu() - c).abs().max().item() <= 1e-3 * scale, kernels
        assert gpu.last_peak == cpu.last_peak <= gpu.budget
        assert gpu.device == "cuda" and gpu.device_name != "cpu"
