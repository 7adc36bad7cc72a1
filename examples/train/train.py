"""Train with ckpt's gradients: a small CNN and a small GPT-style decoder,
AdamW, at a memory budget, beside the same loop in eager PyTorch.

    PYTHONPATH=build/python .venv/bin/python examples/train/train.py \
        [--models smallcnn,tinygpt] [--steps 50] [--budget 50%] [--batch 16]
        [--image 32] [--device cpu|cuda]

Per model, three copies of the same initial weights train on the same
batches with torch.optim.AdamW:
  * ckpt: `ckpt.compile_step(model, x, t, budget=...)`, then each step
    `step.train(x, t)` (the loss; gradients into p.grad) and `opt.step()`;
  * eager float32: `loss.backward()` and `opt.step()`, as everyone trains;
  * eager float64: the same in float64, the reference.

Checked at every step (the exit status is 1 when any fails):
  * the step is computed right: ckpt's loss and gradients against float64
    eager on ckpt's own current weights, within ckpt.numerics' error bound
    (reduction length K of the model); eager float32 on the same weights
    must pass the same bound, which says the bound is not too tight here.
    The models are smooth (SiLU, GELU): a ReLU input within rounding of 0
    lands on either side depending on the order of a sum, which switches
    its gradient entry and moves every gradient before it by up to 2%, a
    difference no entrywise bound holds (seen with ReLU from step 14);
  * the curves agree: |loss_ckpt(k) - loss_64(k)| <= 2 max_{j<=k}
    |loss_32(j) - loss_64(j)| + b(k), where b(k) is the one-step bound of
    the loss: float32 training drifts from float64 training by rounding
    that AdamW carries from step to step, and ckpt's float32 run, another
    order of the same sums, may drift at most twice as far as PyTorch's own
    float32 run does on this CPU;
  * memory: the measured peak of every step (the ckpt runtime's count of
    the step's allocations) is within the budget.

Prints one line per step and a summary with the step times (ckpt's and
eager's, same process, same number of threads).

With --device cuda, ckpt's step runs on CUDA device 0
(compile_step(device="cuda"); the weights, the batches and both eager runs
stay on the CPU, and the call copies them in). The checks are the same.
The step time is then the GPU step's, copies included, beside eager on the
CPU. This has not yet run on a GPU.
"""

import argparse
import copy
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import ckpt.step
from ckpt import numerics
from ckpt.torch_import.models import build_model
from ckpt.torch_import.trace import dropout_off


class SmallCNN(torch.nn.Module):
    """Ten 3x3 convolutions with batch norm and SiLU at 16 channels, two
    of them (the 1st and 6th) stride 2, global pooling and a linear classifier: deep enough
    that activations, not one layer, set the peak."""

    def __init__(self, classes=10, width=16, depth=10):
        super().__init__()
        layers, c = [], 3
        for i in range(depth):
            stride = 2 if i in (0, 5) else 1
            layers += [torch.nn.Conv2d(c, width, 3, stride, 1, bias=False),
                       torch.nn.BatchNorm2d(width), torch.nn.SiLU()]
            c = width
        self.features = torch.nn.Sequential(*layers)
        self.fc = torch.nn.Linear(width, classes)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3)))


def make(name, batch, seed, image):
    """(model, one batch (x, class-index targets)) for `name`."""
    gen = torch.Generator().manual_seed(seed)
    if name == "smallcnn":
        torch.manual_seed(seed)
        return SmallCNN(), (torch.rand(batch, 3, image, image, generator=gen) - 0.5,
                            torch.randint(0, 10, (batch,), generator=gen))
    model, x, t = build_model(name, batch=batch, seed=seed)
    return model, (x, t.argmax(1) if t.is_floating_point() else t)


def batches(name, batch, count, seed, image):
    """`count` fixed batches (inputs, class-index targets) for `name`."""
    return [make(name, batch, seed + 1 + i, image)[1] for i in range(count)]


def eager_loss(model, x, t):
    out = model(x)
    return F.cross_entropy(out.reshape(-1, out.shape[-1]), t)


def loss_and_grads(model, x, t, dtype):
    """Eager loss and gradients of a copy of `model` in `dtype` (float64
    upcasts the float32 weights exactly)."""
    m = copy.deepcopy(model).to(dtype)
    xs = x.to(dtype) if x.is_floating_point() else x
    loss = eager_loss(m, xs, t)
    grads = torch.autograd.grad(loss, list(m.parameters()))
    return [loss.detach().numpy()] + [g.numpy() for g in grads]


def train(name, steps, budget, batch, lr, seed, pool, image, device="cpu"):
    torch.manual_seed(seed)
    model, _ = make(name, batch, seed, image)
    data = batches(name, batch, pool, seed, image)
    # Dropout off in eager, as in the imported step (compile_step's default).
    dropout_off(model)
    ours, eager32, eager64 = (copy.deepcopy(model) for _ in range(3))
    eager64 = eager64.double()
    opts = [torch.optim.AdamW(m.parameters(), lr=lr) for m in (ours, eager32, eager64)]
    start = time.perf_counter()
    step = ckpt.step.compile_step(ours, data[0][0], data[0][1], budget=budget, device=device)
    compile_s = time.perf_counter() - start
    k = numerics.reduction_length(model, (data[0][0],), "cross_entropy")
    print(f"{name}: {sum(p.numel() for p in model.parameters())} parameters, budget "
          f"{budget} = {step.budget} B, planned peak {step.planned_peak} B, recompute "
          f"+{100 * step.overhead:.2f}%, compiled in {compile_s:.1f} s; K = {k}")
    failures, drift32, worst_step, worst_curve, worst_torch = [], 0.0, 0.0, 0.0, 0.0
    times = {"ckpt": [], "eager": []}
    for i in range(steps):
        x, t = data[i % pool]
        # ckpt: the step on its own weights, checked against float64 there.
        before = copy.deepcopy(ours)
        t0 = time.perf_counter()
        loss = step.train(x, t)
        times["ckpt"].append(time.perf_counter() - t0)
        got = [loss.cpu().numpy()] + [p.grad.numpy() for p in ours.parameters()]
        try:
            mine, theirs = numerics.check_results(
                got, loss_and_grads(before, x, t, torch.float32),
                loss_and_grads(before, x, t, torch.float64), f"{name} step {i}", k)
            worst_step, worst_torch = max(worst_step, mine), max(worst_torch, theirs)
        except AssertionError as e:
            failures.append(str(e))
        if step.last_peak > step.budget:
            failures.append(f"{name} step {i}: measured peak {step.last_peak} B over the "
                            f"budget {step.budget} B")
        opts[0].step()
        # eager float32 and float64
        opts[1].zero_grad()
        t0 = time.perf_counter()
        l32 = eager_loss(eager32, x, t)
        l32.backward()
        times["eager"].append(time.perf_counter() - t0)
        opts[1].step()
        opts[2].zero_grad()
        l64 = eager_loss(eager64, x.double() if x.is_floating_point() else x, t)
        l64.backward()
        opts[2].step()
        lc, l32, l64 = loss.item(), l32.item(), l64.item()
        drift32 = max(drift32, abs(l32 - l64))
        allowed = 2 * drift32 + float(numerics.bound(np.float64(l64), k))
        worst_curve = max(worst_curve, abs(lc - l64) / allowed)
        if not abs(lc - l64) <= allowed:
            failures.append(f"{name} step {i}: ckpt's loss {lc:.9g} is {abs(lc - l64):.3g} from "
                            f"float64's {l64:.9g}, over {allowed:.3g} (2 x float32's drift "
                            f"{drift32:.3g} + one step's bound)")
        print(f"{name} step {i:3d}: loss ckpt {lc:.7f}  eager32 {l32:.7f}  eager64 {l64:.7f}  "
              f"peak {step.last_peak} B")
    med = {key: sorted(v)[len(v) // 2] for key, v in times.items()}
    print(f"{name}: {steps} steps; worst step error / bound {worst_step:.3g} (PyTorch "
          f"float32 on the same weights {worst_torch:.3g}); worst curve "
          f"distance / allowed {worst_curve:.3g}; step time ckpt {1e3 * med['ckpt']:.1f} ms, "
          f"eager {1e3 * med['eager']:.1f} ms (x{med['ckpt'] / med['eager']:.2f}, "
          f"{torch.get_num_threads()} threads"
          f"{'' if device == 'cpu' else '; ckpt on ' + step.device_name})")
    return failures


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default="smallcnn,tinygpt")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--budget", default="50%")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--image", type=int, default=32, help="smallcnn's image size")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--pool", type=int, default=4, help="distinct batches, cycled")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                   help="where ckpt's step runs (eager stays on the CPU)")
    a = p.parse_args(argv)
    failures = []
    for name in a.models.split(","):
        failures += train(name, a.steps, a.budget, a.batch, a.lr, a.seed, a.pool, a.image,
                          a.device)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
