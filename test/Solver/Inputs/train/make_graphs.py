#!/usr/bin/env python3
"""Writes the small training graphs of test/Solver/sched-vs-ilp.test.

Each graph is a forward DAG and its backward, in Checkmate's node-link JSON:
the backward node of forward node v reads the gradients of v's consumers, v's
inputs and v itself (as autograd saves them), and the gradient of the first
layer's input is not computed. Sizes and costs are drawn from a fixed seed, so
the files are reproducible: `python3 make_graphs.py` rewrites them unchanged.
"""

import json
import os
import random


def training_graph(name, forward, seed):
    """forward: list of (name, [predecessor indices]) in topological order;
    index 0 is the input."""
    rng = random.Random(seed)
    nodes, links = [], []
    n = len(forward)
    consumers = [[] for _ in range(n)]
    for v, (_, preds) in enumerate(forward):
        for u in preds:
            consumers[u].append(v)
    for v, (label, preds) in enumerate(forward):
        node = {"id": v, "name": label, "backward": False,
                "cost_cpu": 0 if v == 0 else rng.randint(1, 20),
                "cost_ram": rng.choice([4, 8, 8, 16, 16, 32, 48, 64]) * 1024}
        if v == 0:
            node["input"] = True
        nodes.append(node)
        links += [{"source": u, "target": v} for u in preds]
    grad = {}
    # The loss's gradient seeds the backward; then reverse topological order.
    for v in range(n - 1, 0, -1):
        g = len(nodes)
        grad[v] = g
        nodes.append({"id": g, "name": "grad_" + forward[v][0], "backward": True,
                      "cost_cpu": rng.randint(1, 40),
                      "cost_ram": nodes[v]["cost_ram"]})
        reads = [grad[c] for c in consumers[v]] + [u for u in forward[v][1] if u != 0] + [v]
        links += [{"source": u, "target": g} for u in sorted(set(reads))]
    return {"directed": True, "multigraph": False, "graph": {"name": name},
            "nodes": nodes, "links": links}


def chain(depth):
    f = [("x", [])]
    for i in range(1, depth + 1):
        f.append(("l%d" % i, [i - 1]))
    f.append(("loss", [depth]))
    return f


def unet(depth):
    """Encoder l1..ld, decoder u(d-1)..u1 with skips from the encoder."""
    f = [("x", [])]
    for i in range(1, depth + 1):
        f.append(("e%d" % i, [i - 1]))
    prev = depth
    for i in range(depth - 1, 0, -1):
        f.append(("d%d" % i, [prev, i]))
        prev = len(f) - 1
    f.append(("loss", [prev]))
    return f


def towers(k, depth):
    f = [("x", [])]
    ends = []
    for t in range(k):
        prev = 0
        for i in range(1, depth + 1):
            f.append(("t%d_%d" % (t, i), [prev]))
            prev = len(f) - 1
        ends.append(prev)
    f.append(("join", ends))
    f.append(("loss", [len(f) - 1]))
    return f


def dense(layers, window):
    """Each layer reads the `window` layers before it (DenseNet-like)."""
    f = [("x", [])]
    for i in range(1, layers + 1):
        f.append(("h%d" % i, list(range(max(0, i - window), i))))
    f.append(("loss", [layers]))
    return f


def random_layered(n, seed):
    rng = random.Random(seed)
    f = [("x", [])]
    for i in range(1, n):
        preds = {i - 1}
        for _ in range(rng.randint(0, 2)):
            preds.add(rng.randint(max(0, i - 6), i - 1))
        f.append(("r%d" % i, sorted(preds)))
    f.append(("loss", [n - 1]))
    return f


GRAPHS = {
    "chain12": (chain(12), 1),
    "unet5": (unet(5), 2),
    "towers3": (towers(3, 4), 3),
    "dense8": (dense(8, 3), 4),
    "layered12": (random_layered(12, 5), 5),
}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, (forward, seed) in GRAPHS.items():
        with open(os.path.join(here, name + ".json"), "w") as out:
            json.dump(training_graph(name, forward, seed), out, indent=None)
            out.write("\n")
