"""Random training graphs of five families, in Checkmate's node-link JSON.

    python -m ckpt.graph_families --out DIR [--seeds 101 102 ...] [--families ...]

Writes DIR/<family>_s<seed>.json for every family and seed: graphs that
`ckpt.import_graph` reads and `bench/plan_quality.py --graphs DIR` plans
against CBC's proven optima. The structure, the sizes and the costs depend
on the seed only (Python's `random.Random(seed)`, stable across versions
for these calls), so a seed names one graph forever:

- ``layered``: a random layered DAG like MOCCASIN's (layers of 1-3 nodes,
  each reading the previous layer and, with some probability, a node up to
  five layers back: long skip connections);
- ``resnet``: residual blocks (two convolutions, the skip added), with
  downsampling blocks that halve the activation and a 1x1 projection;
- ``unet``: an encoder (two convolutions, a pooling per level) and a decoder
  (an upsampling, the concatenation with the encoder's level, two
  convolutions): skips from each encoder level to its decoder level;
- ``densenet``: dense blocks (each layer reads the concatenation of every
  earlier output of its block) separated by transitions;
- ``transformer``: pre-norm decoder layers (norm, q/k/v, scores, softmax,
  context, projection, residual; norm, two linear layers, residual).

The backward is built like Checkmate's graphs: a loss node (backward) reads
the last forward node; each forward node v gets a gradient node reading the
gradients of v's readers, v's inputs and v itself (what the backward of most
ops reads), whose output has v's size. Costs (`cost_cpu`) are the forward
node's, twice for its gradient; sizes (`cost_ram`) are bytes.

Sizes are kept small (about 20-40 forward nodes) so that CBC proves the
optimum of Checkmate's MILP within minutes.
"""

import argparse
import json
import os
import random

FAMILIES = ("layered", "resnet", "unet", "densenet", "transformer")
MIB = 1 << 20


class Builder:
    """A forward graph under construction: nodes with a cost and a size."""

    def __init__(self, rng):
        self.rng = rng
        self.nodes = []  # (name, cost, bytes)
        self.preds = []

    def add(self, name, preds, cost, size):
        self.nodes.append((name, float(cost), int(size)))
        self.preds.append(sorted(set(preds)))
        return len(self.nodes) - 1

    def jitter(self, x, spread=0.5):
        """x scaled by a random factor in [1 - spread, 1 + spread]."""
        return x * (1 + spread * (2 * self.rng.random() - 1))

    def to_json(self):
        """The training graph: the forward, a loss node, the gradients."""
        n = len(self.nodes)
        consumers = [[] for _ in range(n)]
        for v, ps in enumerate(self.preds):
            for u in ps:
                consumers[u].append(v)
        nodes, links = [], []
        for v, (name, cost, size) in enumerate(self.nodes):
            nodes.append({"id": v, "name": name, "backward": False,
                          "cost_cpu": round(cost, 3), "cost_ram": size})
            links += [{"source": u, "target": v} for u in self.preds[v]]
        loss = n
        nodes.append({"id": loss, "name": "loss", "backward": True,
                      "cost_cpu": 1.0, "cost_ram": 4})
        links.append({"source": n - 1, "target": loss})
        grad = {}
        for v in reversed(range(n)):
            name, cost, size = self.nodes[v]
            g = len(nodes)
            grad[v] = g
            nodes.append({"id": g, "name": "grad_" + name, "backward": True,
                          "cost_cpu": round(2 * cost, 3), "cost_ram": size})
            reads = [grad[c] for c in consumers[v]] or [loss]
            reads += self.preds[v] + [v]
            links += [{"source": u, "target": g} for u in sorted(set(reads))]
        return {"directed": True, "multigraph": False, "graph": {},
                "nodes": nodes, "links": links}


def layered(b):
    layers = []
    x = b.add("input", [], 1, b.jitter(8 * MIB))
    layers.append([x])
    for depth in range(b.rng.randint(9, 13)):
        layer = []
        for k in range(b.rng.randint(1, 3)):
            preds = [b.rng.choice(layers[-1])]
            if b.rng.random() < 0.4 and len(layers) > 2:
                back = layers[-b.rng.randint(2, min(5, len(layers)))]
                preds.append(b.rng.choice(back))
            layer.append(b.add("l%d_%d" % (depth, k), preds, b.jitter(10),
                               b.jitter(8 * MIB, 0.9)))
        layers.append(layer)
    b.add("out", layers[-1], b.jitter(5), b.jitter(4 * MIB))


def resnet(b):
    size, x = 16 * MIB, b.add("stem", [], b.jitter(20), 16 * MIB)
    for i in range(b.rng.randint(5, 8)):
        down = i > 0 and b.rng.random() < 0.35
        if down:
            size //= 2
        c1 = b.add("b%d_conv1" % i, [x], b.jitter(20), b.jitter(size, 0.2))
        r1 = b.add("b%d_relu1" % i, [c1], b.jitter(2), size)
        c2 = b.add("b%d_conv2" % i, [r1], b.jitter(20), size)
        skip = b.add("b%d_proj" % i, [x], b.jitter(5), size) if down else x
        x = b.add("b%d_add" % i, [c2, skip], b.jitter(2), size)
    b.add("head", [x], b.jitter(5), MIB)


def unet(b):
    size = 16 * MIB
    x = b.add("stem", [], b.jitter(10), size)
    skips = []
    depth = b.rng.randint(3, 4)
    for d in range(depth):
        x = b.add("enc%d_a" % d, [x], b.jitter(20), size)
        x = b.add("enc%d_b" % d, [x], b.jitter(20), size)
        skips.append(x)
        size //= 2
        x = b.add("pool%d" % d, [x], b.jitter(2), size)
    x = b.add("mid", [x], b.jitter(20), size)
    for d in reversed(range(depth)):
        size *= 2
        x = b.add("up%d" % d, [x], b.jitter(5), size)
        x = b.add("cat%d" % d, [x, skips[d]], b.jitter(1), 2 * size)
        x = b.add("dec%d_a" % d, [x], b.jitter(20), size)
        x = b.add("dec%d_b" % d, [x], b.jitter(20), size)
    b.add("head", [x], b.jitter(5), b.jitter(size))


def densenet(b):
    growth = 4 * MIB
    x = b.add("stem", [], b.jitter(10), 8 * MIB)
    for blk in range(b.rng.randint(2, 3)):
        outs = [x]
        for layer in range(b.rng.randint(3, 5)):
            cat = b.add("d%d_cat%d" % (blk, layer), outs, b.jitter(1),
                        sum(b.nodes[o][2] for o in outs))
            outs.append(b.add("d%d_conv%d" % (blk, layer), [cat], b.jitter(15),
                              b.jitter(growth, 0.2)))
        x = b.add("d%d_transition" % blk, outs, b.jitter(8), b.jitter(8 * MIB, 0.2))
    b.add("head", [x], b.jitter(5), MIB)


def transformer(b):
    width = 4 * MIB
    x = b.add("embed", [], b.jitter(5), width)
    for i in range(b.rng.randint(2, 3)):
        scores = b.jitter(8 * MIB, 0.5)
        n1 = b.add("t%d_norm1" % i, [x], 1, width)
        q = b.add("t%d_q" % i, [n1], b.jitter(10), width)
        k = b.add("t%d_k" % i, [n1], b.jitter(10), width)
        v = b.add("t%d_v" % i, [n1], b.jitter(10), width)
        s = b.add("t%d_scores" % i, [q, k], b.jitter(8), scores)
        p = b.add("t%d_softmax" % i, [s], b.jitter(3), scores)
        c = b.add("t%d_context" % i, [p, v], b.jitter(8), width)
        o = b.add("t%d_proj" % i, [c], b.jitter(10), width)
        x = b.add("t%d_add1" % i, [x, o], 1, width)
        n2 = b.add("t%d_norm2" % i, [x], 1, width)
        h = b.add("t%d_fc1" % i, [n2], b.jitter(40), 4 * width)
        a = b.add("t%d_gelu" % i, [h], b.jitter(3), 4 * width)
        f = b.add("t%d_fc2" % i, [a], b.jitter(40), width)
        x = b.add("t%d_add2" % i, [x, f], 1, width)
    b.add("head", [x], b.jitter(20), b.jitter(width))


def generate(family, seed):
    """The training graph of `family` for `seed` (node-link dict)."""
    b = Builder(random.Random("%s:%d" % (family, seed)))
    {"layered": layered, "resnet": resnet, "unet": unet,
     "densenet": densenet, "transformer": transformer}[family](b)
    return b.to_json()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for the JSON files")
    ap.add_argument("--seeds", type=int, nargs="+", default=[101, 102])
    ap.add_argument("--families", nargs="+", default=list(FAMILIES),
                    choices=FAMILIES)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for family in args.families:
        for seed in args.seeds:
            path = os.path.join(args.out, "%s_s%d.json" % (family, seed))
            graph = generate(family, seed)
            with open(path, "w") as f:
                json.dump(graph, f)
            print("%s: %d nodes" % (path, len(graph["nodes"])))


if __name__ == "__main__":
    main()
