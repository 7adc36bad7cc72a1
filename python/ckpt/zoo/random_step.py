"""Random training steps for property testing (seeded, reproducible).

`random_step(seed, ops)` records a random DAG of `ops` primitives on a
StepBuilder and returns a `ckpt.zoo.Step`: dense layers (a new weight each),
tanh and relu, sums of two values of one shape (residual skips, merging
towers) and concatenations, with operands drawn from recent values (chains),
from any earlier value (long skips) or from a value already read (multi-use
values, shared subexpressions: a value read by several later ops). Every
value nothing reads becomes a loss term, `mean((v - t_i)^2)` against its own
target, and the loss is the sum of the terms, so every weight matters.
Shapes are random too: the batch is 8, 32, 64 or 128 (so that activations,
not weights, dominate memory, as in training) and widths are drawn from
4, 8, 12 and 16.
"""

import random

from . import Step
from .builder import StepBuilder


def random_step(seed, ops=16):
    rng = random.Random(seed)
    batch = rng.choice([8, 32, 64, 128])
    widths = [4, 8, 12, 16]
    b = StepBuilder(f"rand{seed}", [
        f"Written by: python -m ckpt.zoo.proptest --write {seed} --ops {ops}",
        f"A random training step (seed {seed}, {ops} ops, batch {batch}): dense layers,",
        "tanh, relu, sums and concatenations on a random DAG; the loss sums one",
        "mean-squared-error term per value nothing else reads."])
    x = b.input("x", (batch, rng.choice(widths)))
    values = [x]
    readers = {x.name: 0}
    n_params = 0

    def pick():
        r = rng.random()
        if r < 0.55:
            return values[-1]                      # chain
        if r < 0.8:
            used = [v for v in values if readers[v.name] > 0]
            if used:
                return rng.choice(used)            # multi-use / shared value
        return rng.choice(values)                  # any earlier value (skip)

    def linear(v, width):
        nonlocal n_params
        n_params += 1
        w = b.param(f"w{n_params}", (v.shape[1], width), fan_in=v.shape[1])
        return b.linear(v, w)

    for _ in range(ops):
        kind = rng.choices(["linear", "tanh", "relu", "add", "concat"], [4, 2, 2, 2, 1])[0]
        a = pick()
        if kind == "linear" or a is x and kind in ("tanh", "relu"):
            out = linear(a, rng.choice(widths))
            ins = [a]
        elif kind == "tanh":
            out, ins = b.tanh(a), [a]
        elif kind == "relu":
            out, ins = b.relu(a), [a]
        else:
            same = [v for v in values if v.shape == a.shape and v is not a]
            other = rng.choice(same) if same and kind == "add" else None
            if kind == "add" and other is None:
                other = linear(rng.choice(values), a.shape[1])
                readers[other.name] = 0
                values.append(other)
            elif kind == "concat":
                other = rng.choice(values)
                if a.shape[1] + other.shape[1] > 32:
                    other = linear(other, 4)
                    readers[other.name] = 0
                    values.append(other)
            out = b.add(a, other) if kind == "add" else b.concat(a, other)
            ins = [a, other]
        for v in ins:
            readers[v.name] += 1
        readers[out.name] = 0
        values.append(out)

    sinks = [v for v in values if readers[v.name] == 0 and v is not x]
    loss = None
    for i, v in enumerate(sinks):
        term = b.mse(v, b.target(f"t{i + 1}", v.shape))
        loss = term if loss is None else b.add(loss, term)
    return Step(b, b.finish(loss))
