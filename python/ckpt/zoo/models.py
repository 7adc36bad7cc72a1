"""The zoo's models, each a function that records one on a StepBuilder.

Every model takes the same keywords so that the command line is uniform:

* ``depth``: layers (MLP), residual blocks (ResNet), transformer blocks,
  down/up levels (U-Net), layers per tower (towers), dense layers (DenseNet);
* ``batch``: the batch size;
* ``width``: hidden width (MLP, towers), channels (ResNet, U-Net, the
  DenseNet growth rate) or the model dimension (transformer);
* ``size``: the image side (conv nets) or the sequence length (transformer);
* ``towers``: the number of parallel towers (towers only).

All end in the mean-squared-error loss against a target ``t``. Images are
NHWC and filters HWCF; every convolution is 3x3, stride 1, zero padding 1.
"""

from .builder import StepBuilder


def mlp(depth=3, batch=8, width=32, size=16, towers=None, act="tanh"):
    """x[batch, size] -> (linear, tanh) x (depth-1) -> linear -> y[batch, 10]."""
    if depth < 2:
        raise ValueError("mlp: depth must be at least 2")
    b = StepBuilder(f"mlp{depth}", [
        f"zoo: mlp depth={depth} batch={batch} width={width} size={size}: "
        f"x[{batch}x{size}] -> {depth - 1} x (linear {width}, {act}) -> linear 10,",
        "mean-squared-error loss. Results: loss, dW1 ..."])
    h = b.input("x", (batch, size))
    t = b.target("t", (batch, 10))
    dims = [size] + [width] * (depth - 1) + [10]
    ws = [b.param(f"w{i + 1}", (dims[i], dims[i + 1]), fan_in=dims[i]) for i in range(depth)]
    for i, w in enumerate(ws):
        h = b.linear(h, w)
        if i < depth - 1:
            h = b.tanh(h) if act == "tanh" else b.relu(h)
    return b, b.mse(h, t)


def resnet(depth=2, batch=2, width=8, size=8, towers=None):
    """Stem conv3x3 (3 -> width) + relu, `depth` residual blocks
    (conv -> relu -> conv, + identity, relu), global average pooling,
    linear width -> 10."""
    b = StepBuilder(f"resnet{depth}", [
        f"zoo: resnet depth={depth} batch={batch} width={width} size={size}: NHWC "
        f"x[{batch}x{size}x{size}x3], stem conv3x3 + relu,",
        f"{depth} residual blocks (conv3x3, relu, conv3x3, + identity, relu), global "
        "average pool, linear 10,", "mean-squared-error loss. Results: loss, dW0, dWa1, dWb1, ..., dWf"])
    x = b.input("x", (batch, size, size, 3))
    t = b.target("t", (batch, 10))
    w0 = b.param("w0", (3, 3, 3, width), fan_in=27)
    blocks = [(b.param(f"wa{i + 1}", (3, 3, width, width), fan_in=9 * width),
               b.param(f"wb{i + 1}", (3, 3, width, width), fan_in=9 * width))
              for i in range(depth)]
    wf = b.param("wf", (width, 10), fan_in=width)
    h = b.relu(b.conv3x3(x, w0))
    for wa, wb in blocks:
        r = b.relu(b.conv3x3(h, wa))
        h = b.relu(b.add(b.conv3x3(r, wb), h))
    return b, b.mse(b.linear(b.global_avgpool(h), wf), t)


def transformer(depth=1, batch=2, width=16, size=8, towers=None):
    """`depth` pre-LayerNorm blocks on x[batch, size, width]: LN ->
    single-head attention (Wq, Wk, Wv, Wo) + residual, LN -> MLP
    (width -> 2 width, relu, -> width) + residual."""
    D, H = width, 2 * width
    b = StepBuilder(f"transformer{depth}", [
        f"zoo: transformer depth={depth} batch={batch} width={width} size={size}: "
        f"x[{batch}x{size}x{width}],",
        f"{depth} pre-LayerNorm blocks (LN, single-head softmax attention, + residual; "
        f"LN, MLP {D}->{H} relu ->{D}, + residual),",
        "mean-squared-error loss against t[same shape]. Results: loss, then per block "
        "dWq dWk dWv dWo dW1 dW2 dg1 db1 dg2 db2"])
    x = b.input("x", (batch, size, D))
    t = b.target("t", (batch, size, D))
    layers = []
    for i in range(depth):
        p = {n: b.param(f"{n}{i + 1}", (D, D), fan_in=D) for n in ("wq", "wk", "wv", "wo")}
        p["w1"] = b.param(f"w1_{i + 1}", (D, H), fan_in=D)
        p["w2"] = b.param(f"w2_{i + 1}", (H, D), fan_in=H)
        for n in ("g1", "b1", "g2", "b2"):
            p[n] = b.param(f"{n}_{i + 1}", (D,), center=1.0 if n[0] == "g" else 0.0, scale=0.1)
        layers.append(p)
    h = x
    for p in layers:
        n = b.layernorm(h, p["g1"], p["b1"])
        a = b.attention(b.linear(n, p["wq"]), b.linear(n, p["wk"]), b.linear(n, p["wv"]))
        h = b.add(h, b.linear(a, p["wo"]))
        n = b.layernorm(h, p["g2"], p["b2"])
        h = b.add(h, b.linear(b.relu(b.linear(n, p["w1"])), p["w2"]))
    return b, b.mse(h, t)


def unet(depth=2, batch=2, width=4, size=16, towers=None):
    """A U-Net with long skips: conv3x3 (3 -> width) + relu, then `depth`
    levels down (avg pool 2x2, conv + relu) and back up (nearest 2x
    upsampling, concatenation with the skip of the same level, conv + relu),
    then conv3x3 -> 3 channels; loss against a target image."""
    if size % (2 ** depth):
        raise ValueError(f"unet: size {size} must be divisible by 2^depth = {2 ** depth}")
    C = width
    b = StepBuilder(f"unet{depth}", [
        f"zoo: unet depth={depth} batch={batch} width={width} size={size}: NHWC "
        f"x[{batch}x{size}x{size}x3], conv3x3 + relu,",
        f"{depth} x (avgpool 2x2, conv3x3 + relu) down, {depth} x (upsample 2x, concat skip, "
        "conv3x3 + relu) up, conv3x3 -> 3,", "mean-squared-error loss against t[same shape as x]."])
    x = b.input("x", (batch, size, size, 3))
    t = b.target("t", (batch, size, size, 3))
    win = b.param("w_in", (3, 3, 3, C), fan_in=27)
    down = [b.param(f"w_down{i + 1}", (3, 3, C, C), fan_in=9 * C) for i in range(depth)]
    up = [b.param(f"w_up{i + 1}", (3, 3, 2 * C, C), fan_in=18 * C) for i in range(depth)]
    wout = b.param("w_out", (3, 3, C, 3), fan_in=9 * C)
    h = b.relu(b.conv3x3(x, win))
    skips = []
    for w in down:
        skips.append(h)
        h = b.relu(b.conv3x3(b.avgpool2(h), w))
    for w, skip in zip(up, reversed(skips)):
        h = b.relu(b.conv3x3(b.concat(b.upsample2(h), skip), w))
    return b, b.mse(b.conv3x3(h, wout), t)


def towers(depth=2, batch=16, width=16, size=16, towers=3):
    """`towers` parallel MLP towers on the same input x[batch, size], each
    `depth` x (linear width, tanh), summed, then linear -> 10."""
    k = towers
    b = StepBuilder(f"towers{k}x{depth}", [
        f"zoo: towers towers={k} depth={depth} batch={batch} width={width} size={size}: "
        f"x[{batch}x{size}] -> {k} parallel towers",
        f"of {depth} x (linear {width}, tanh), summed, linear 10, mean-squared-error loss."])
    x = b.input("x", (batch, size))
    t = b.target("t", (batch, 10))
    ws = [[b.param(f"w{j + 1}_{i + 1}", (size if i == 0 else width, width),
                   fan_in=size if i == 0 else width) for i in range(depth)] for j in range(k)]
    wf = b.param("wf", (width, 10), fan_in=width * k)
    total = None
    for tower in ws:
        h = x
        for w in tower:
            h = b.tanh(b.linear(h, w))
        total = h if total is None else b.add(total, h)
    return b, b.mse(b.linear(total, wf), t)


def densenet(depth=3, batch=2, width=4, size=8, towers=None):
    """DenseNet-like: conv3x3 (3 -> width) + relu, then `depth` dense
    layers, each conv3x3 + relu over the concatenation of every earlier
    feature map (growth rate `width`), global average pooling, linear 10."""
    g = width
    b = StepBuilder(f"densenet{depth}", [
        f"zoo: densenet depth={depth} batch={batch} width={width} size={size}: NHWC "
        f"x[{batch}x{size}x{size}x3], conv3x3 + relu,",
        f"{depth} dense layers (conv3x3 + relu over the concatenation of all earlier "
        f"maps, growth {g}),", "global average pool, linear 10, mean-squared-error loss."])
    x = b.input("x", (batch, size, size, 3))
    t = b.target("t", (batch, 10))
    w0 = b.param("w0", (3, 3, 3, g), fan_in=27)
    ws = [b.param(f"w{i + 1}", (3, 3, g * (i + 1), g), fan_in=9 * g * (i + 1))
          for i in range(depth)]
    wf = b.param("wf", (g * (depth + 1), 10), fan_in=g * (depth + 1))
    feats = b.relu(b.conv3x3(x, w0))
    for w in ws:
        feats = b.concat(feats, b.relu(b.conv3x3(feats, w)))
    return b, b.mse(b.linear(b.global_avgpool(feats), wf), t)


MODELS = {
    "mlp": mlp,
    "resnet": resnet,
    "transformer": transformer,
    "unet": unet,
    "towers": towers,
    "densenet": densenet,
}
