"""The built-in models: small ones and torchvision constructors.

Part of ckpt.torch_import (see its docstring).
"""

import functools
import math


# ---------------------------------------------------------------------------
# Built-in small models (executable end to end on the CPU).

def _tiny_models():
    """The classes of the small built-in models: (TinyResNet, TinyMLP,
    TinyTransformer, GPT)."""
    return (_tiny_resnet(),) + _tiny_mlp_and_transformer() + (_gpt(),)


def _tiny_resnet():
    import torch
    from torch import nn

    class TinyBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            identity = x if self.down is None else self.down(x)
            return torch.relu(out + identity)

    class TinyResNet(nn.Module):
        """A small ResNet: conv3x3 stem (with bias) + relu, 3x3/2 max pooling,
        a basic block, a downsampling block (3x3/2 conv, 1x1/2 shortcut),
        2x2 average pooling, a linear classifier (with bias); batch norm after
        every convolution of the blocks."""

        def __init__(self, classes=10, width=8, image=16):
            super().__init__()
            self.stem = nn.Conv2d(3, width, 3, 1, 1, bias=True)
            self.pool = nn.MaxPool2d(3, 2, 1)
            self.block1 = TinyBlock(width, width, 1)
            self.block2 = TinyBlock(width, 2 * width, 2)
            self.avg = nn.AvgPool2d(2)
            side = (image + 1) // 2  # after the max pooling
            side = (side - 1) // 2 + 1  # after the stride-2 block
            self.fc = nn.Linear(2 * width * (side // 2) ** 2, classes)

        def forward(self, x):
            x = self.pool(torch.relu(self.stem(x)))
            x = self.block2(self.block1(x))
            return self.fc(torch.flatten(self.avg(x), 1))

    return TinyResNet


def _tiny_mlp_and_transformer():
    import torch
    from torch import nn

    class TinyMLP(nn.Module):
        """Linear -> tanh -> Linear -> relu -> Linear (with biases)."""

        def __init__(self, features=12, hidden=16, classes=4):
            super().__init__()
            self.fc1 = nn.Linear(features, hidden)
            self.fc2 = nn.Linear(hidden, hidden)
            self.fc3 = nn.Linear(hidden, classes)

        def forward(self, x):
            return self.fc3(torch.relu(self.fc2(torch.tanh(self.fc1(x)))))

    class TinyTransformer(nn.Module):
        """A pre-LayerNorm attention block on [N, T, D] and a GELU MLP, mean
        over the tokens, a linear classifier."""

        def __init__(self, dim=8, classes=5):
            super().__init__()
            self.ln1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim)
            self.mlp1 = nn.Linear(dim, 2 * dim)
            self.mlp2 = nn.Linear(2 * dim, dim)
            self.head = nn.Linear(dim, classes)
            self.dim = dim

        def forward(self, x):
            q, k, v = self.qkv(self.ln1(x)).split(self.dim, dim=-1)
            att = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(self.dim), dim=-1)
            x = x + self.proj(att @ v)
            x = x + self.mlp2(torch.nn.functional.gelu(self.mlp1(self.ln2(x))))
            return self.head(x.mean(dim=1))

    return TinyMLP, TinyTransformer


def _gpt():
    import torch
    from torch import nn

    class GPTBlock(nn.Module):
        """Pre-LayerNorm causal self-attention (nn.MultiheadAttention with a
        triu mask) and a GELU MLP, both residual."""

        def __init__(self, dim, heads, seq, dropout):
            super().__init__()
            self.ln1 = nn.LayerNorm(dim)
            self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
            self.ln2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(),
                                     nn.Linear(4 * dim, dim))
            self.drop1 = nn.Dropout(dropout)
            self.drop2 = nn.Dropout(dropout)
            self.seq = seq

        def forward(self, x):
            mask = torch.triu(torch.ones(self.seq, self.seq, dtype=torch.bool,
                                         device=x.device), 1)
            h = self.ln1(x)
            a, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False)
            x = x + self.drop1(a)
            return x + self.drop2(self.mlp(self.ln2(x)))

    class GPT(nn.Module):
        """A decoder-only transformer: token and position embeddings, `layers`
        GPT blocks, a final LayerNorm and a linear head over the vocabulary,
        whose logits [batch * seq, vocab] are returned for a cross entropy
        against the next tokens. The embeddings read the absolute value of
        the token ids (ckpt-run's integer inputs are in [-8, 8]), so any id in
        (-vocab, vocab) is valid. Dropout (GPT-2's places: after the
        embeddings, on the attention weights, after attention and MLP) is
        `dropout`; it is imported only with `dropout=True`."""

        def __init__(self, vocab=256, dim=64, heads=4, seq=32, layers=2, dropout=0.1):
            super().__init__()
            self.tok = nn.Embedding(vocab, dim)
            self.pos = nn.Embedding(seq, dim)
            self.drop = nn.Dropout(dropout)
            self.blocks = nn.Sequential(*[GPTBlock(dim, heads, seq, dropout)
                                          for _ in range(layers)])
            self.ln = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, vocab, bias=False)
            self.seq = seq

        def forward(self, idx):
            pos = torch.arange(self.seq, device=idx.device)
            x = self.drop(self.tok(idx.abs()) + self.pos(pos))
            x = self.ln(self.blocks(x))
            return self.head(x).flatten(0, 1)

    return GPT


def _llama_models():
    import torch
    from torch import nn
    import torch.nn.functional as F

    class RMSNorm(nn.Module):
        """x / sqrt(mean(x^2) + eps) * weight, over the last dimension."""

        def __init__(self, dim, eps=1e-5):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(dim))
            self.eps = eps

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

    def rotate(x, cos, sin):
        """Rotary embedding (the halves form: x * cos + rotate_half(x) * sin)."""
        x1, x2 = x.chunk(2, dim=-1)
        return x * cos + torch.cat((-x2, x1), dim=-1) * sin

    class LlamaAttention(nn.Module):
        """Causal grouped-query attention: `heads` query heads share
        `kv_heads` key/value heads (repeat_interleave), rotary embeddings on
        queries and keys, keys and values from one projection split by
        unbind, no biases."""

        def __init__(self, dim, heads, kv_heads):
            super().__init__()
            self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
            self.q = nn.Linear(dim, heads * self.head_dim, bias=False)
            self.kv = nn.Linear(dim, 2 * kv_heads * self.head_dim, bias=False)
            self.o = nn.Linear(heads * self.head_dim, dim, bias=False)

        def forward(self, x, cos, sin, mask):
            b, t, _ = x.shape
            q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
            k, v = self.kv(x).view(b, t, 2, self.kv_heads, self.head_dim) \
                .permute(2, 0, 3, 1, 4).unbind(0)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            group = self.heads // self.kv_heads
            k = k.repeat_interleave(group, dim=1)
            v = v.repeat_interleave(group, dim=1)
            att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
            att = torch.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
            y = (att @ v).transpose(1, 2).reshape(b, t, self.heads * self.head_dim)
            return self.o(y)

    class LlamaMLP(nn.Module):
        """SwiGLU: down(silu(gate(x)) * up(x)), no biases."""

        def __init__(self, dim, hidden):
            super().__init__()
            self.gate = nn.Linear(dim, hidden, bias=False)
            self.up = nn.Linear(dim, hidden, bias=False)
            self.down = nn.Linear(hidden, dim, bias=False)

        def forward(self, x):
            return self.down(F.silu(self.gate(x)) * self.up(x))

    class LlamaBlock(nn.Module):
        """Pre-RMSNorm attention and SwiGLU MLP, both residual."""

        def __init__(self, dim, heads, kv_heads, hidden):
            super().__init__()
            self.attn_norm = RMSNorm(dim)
            self.attn = LlamaAttention(dim, heads, kv_heads)
            self.mlp_norm = RMSNorm(dim)
            self.mlp = LlamaMLP(dim, hidden)

        def forward(self, x, cos, sin, mask):
            x = x + self.attn(self.attn_norm(x), cos, sin, mask)
            return x + self.mlp(self.mlp_norm(x))

    class Llama(nn.Module):
        """A Llama-style decoder: token embedding, `layers` blocks of
        RMSNorm + grouped-query attention with rotary embeddings and RMSNorm
        + SwiGLU MLP, a final RMSNorm and a head over the vocabulary (its
        own weight, or the embedding's with `tied`), returning the logits
        [batch * seq, vocab]. The rotary tables (cos, sin: [seq, head dim])
        and the causal mask ([seq, seq] bool, True above the diagonal) are
        non-persistent buffers, registered once. Like GPT, it embeds the
        absolute value of the token ids (ckpt-run's integers are in
        [-8, 8])."""

        def __init__(self, vocab=256, dim=64, heads=4, kv_heads=2, seq=32, layers=2,
                     hidden=None, tied=False, theta=10000.0):
            super().__init__()
            head_dim = dim // heads
            if hidden is None:
                multiple = 256 if dim >= 1024 else 8
                hidden = -(-int(8 * dim / 3) // multiple) * multiple
            self.tok = nn.Embedding(vocab, dim)
            self.blocks = nn.ModuleList(LlamaBlock(dim, heads, kv_heads, hidden)
                                        for _ in range(layers))
            self.norm = RMSNorm(dim)
            self.head = None if tied else nn.Linear(dim, vocab, bias=False)
            inv = 1.0 / theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
            freqs = torch.outer(torch.arange(seq, dtype=torch.float64), inv)
            angles = torch.cat((freqs, freqs), dim=-1)
            self.register_buffer("cos", angles.cos().float(), persistent=False)
            self.register_buffer("sin", angles.sin().float(), persistent=False)
            self.register_buffer("mask", torch.ones(seq, seq, dtype=torch.bool).triu(1),
                                 persistent=False)

        def forward(self, idx):
            x = self.tok(idx.abs())
            for block in self.blocks:
                x = block(x, self.cos, self.sin, self.mask)
            x = self.norm(x)
            w = self.tok.weight if self.head is None else self.head.weight
            return F.linear(x, w).flatten(0, 1)

    return Llama


# The GPT configurations: vocabulary, width, heads, sequence, layers.
GPTS = {"tinygpt": (256, 64, 4, 32, 2), "gpt2small": (50257, 768, 12, 1024, 12)}

# The Llama configurations: vocabulary, width, heads, key/value heads,
# sequence, layers.
LLAMAS = {"llama": (256, 64, 4, 2, 32, 2)}

# The options that size the built-in transformers (build_model's keywords).
SIZES = ("layers", "width", "heads", "kv_heads", "seq", "vocab")


# name -> (default image size or input shape, default classes)
MODELS = {
    "resnet18": 224, "resnet34": 224, "resnet50": 224, "resnet101": 224,
    "resnet152": 224, "densenet121": 224, "inception_v3": 299, "vgg16": 224,
    "tinyresnet": 16, "tinymlp": None, "tinytransformer": None,
    "tinygpt": None, "gpt2small": None, "llama": None,
}


def _sizes(name, defaults, sizes):
    """The transformer configuration of `name`: its defaults (GPTS' or
    LLAMAS' order) overridden by the given sizes, checked."""
    given = {k: v for k, v in sizes.items() if v is not None}
    if "kv_heads" in given and name not in LLAMAS:
        raise ValueError(f"--kv-heads is for llama, not {name}")
    config = dict(zip(("vocab", "width", "heads", "kv_heads", "seq", "layers")
                      if name in LLAMAS else ("vocab", "width", "heads", "seq", "layers"),
                      defaults))
    for k, v in given.items():
        if not isinstance(v, int) or v < 1:
            raise ValueError(f"--{k.replace('_', '-')} must be a positive integer, not {v}")
        config[k] = v
    if "heads" in given and "kv_heads" in config and "kv_heads" not in given:
        config["kv_heads"] = min(config["kv_heads"], config["heads"])
        while config["heads"] % config["kv_heads"]:
            config["kv_heads"] -= 1
    if config["width"] % config["heads"]:
        raise ValueError(f"--width {config['width']} is not a multiple of --heads "
                         f"{config['heads']}")
    if name in LLAMAS:
        if config["heads"] % config["kv_heads"]:
            raise ValueError(f"--heads {config['heads']} is not a multiple of --kv-heads "
                             f"{config['kv_heads']}")
        if (config["width"] // config["heads"]) % 2:
            raise ValueError(f"the head size (--width / --heads = "
                             f"{config['width'] // config['heads']}) must be even for the "
                             f"rotary embedding")
    return config


def _torchvision_names():
    """torchvision's trainable models: classification, segmentation and video."""
    import torchvision
    tv = torchvision.models
    return set(tv.list_models(module=tv) + tv.list_models(module=tv.segmentation)
               + tv.list_models(module=tv.video))


@functools.lru_cache(maxsize=None)
def _pixel_rows():
    import torch

    class PixelRows(torch.nn.Module):
        """A segmentation model's per-pixel class scores ("out" [B, K, H, W])
        as rows [B*H*W, K], for the cross entropy over classes."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            out = self.model(x)["out"]
            return out.permute(0, 2, 3, 1).reshape(-1, out.shape[1])
    return PixelRows


def PixelRows(model):  # noqa: N802 - the class, made on first use (torch imported lazily)
    return _pixel_rows()(model)


def build_model(name, classes=None, image=None, batch=1, seed=0, **sizes):
    """The model `name` (see MODELS; any other torchvision model by its name
    in torchvision.models.list_models(), 224x224 by default: classification;
    segmentation, whose per-pixel scores become rows [batch*image*image,
    classes] scored against one-hot targets of that shape; video, on clips
    [batch, 3, 4, image, image]) and example inputs: returns (module, x,
    target) with x of shape [batch, 3, image, image] for the image models ([batch, 12] for tinymlp, [batch, 6, 8] for
    tinytransformer) and target one-hot class probabilities [batch, classes].
    The GPTs (tinygpt: vocabulary 256, width 64, 4 heads, sequence 32, 2
    layers; gpt2small: GPT-2 small's 50257, 768, 12, 1024, 12) and llama
    (vocabulary 256, width 64, 4 heads, 2 key/value heads, sequence 32, 2
    layers) take token ids x [batch, seq] (int64) and next-token targets as
    class indices [batch * seq] (int64; the step takes them one-hot,
    [batch * seq, vocab] f32); `classes` and `image` do not apply to them.
    `sizes` (layers, width, heads, kv_heads (llama), seq, vocab) override a
    transformer's configuration; with `heads` alone, llama's kv_heads becomes
    the largest divisor of heads not above its default."""
    import torch
    if name not in MODELS and name not in _torchvision_names():
        raise ValueError(f"unknown model '{name}'; known: {', '.join(MODELS)}, any "
                         "torchvision classification, segmentation or video model "
                         "(torchvision.models.list_models()), hf:CONFIG.json, timm:NAME, "
                         "or path/to/file.py:Name")
    unknown = [k for k in sizes if k not in SIZES]
    if unknown:
        raise TypeError(f"build_model() got unexpected keyword(s) {', '.join(unknown)}")
    if name not in GPTS and name not in LLAMAS and any(v is not None for v in sizes.values()):
        flag = next(k for k, v in sizes.items() if v is not None).replace("_", "-")
        raise ValueError(f"--{flag} is for the built-in transformers "
                         f"({', '.join(list(GPTS) + list(LLAMAS))}), not {name}")
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    if name in GPTS:
        c = _sizes(name, GPTS[name], sizes)
        GPT = _gpt()
        model = GPT(c["vocab"], c["width"], c["heads"], c["seq"], c["layers"])
        x = torch.randint(0, c["vocab"], (batch, c["seq"]), generator=gen)
        return model, x, torch.randint(0, c["vocab"], (batch * c["seq"],), generator=gen)
    if name in LLAMAS:
        c = _sizes(name, LLAMAS[name], sizes)
        model = _llama_models()(c["vocab"], c["width"], c["heads"], c["kv_heads"], c["seq"],
                                c["layers"])
        x = torch.randint(0, c["vocab"], (batch, c["seq"]), generator=gen)
        return model, x, torch.randint(0, c["vocab"], (batch * c["seq"],), generator=gen)
    if name.startswith("tiny"):
        TinyResNet, TinyMLP, TinyTransformer, _ = _tiny_models()
        classes = classes or {"tinyresnet": 10, "tinymlp": 4, "tinytransformer": 5}[name]
        if name == "tinyresnet":
            image = image or 16
            model = TinyResNet(classes, image=image)
            x = torch.rand(batch, 3, image, image, generator=gen) - 0.5
        elif name == "tinymlp":
            model = TinyMLP(classes=classes)
            x = torch.rand(batch, 12, generator=gen) - 0.5
        else:
            model = TinyTransformer(classes=classes)
            x = torch.rand(batch, 6, 8, generator=gen) - 0.5
    else:
        import torchvision
        classes = classes or 1000
        image = image or MODELS.get(name) or 224
        kwargs = {"num_classes": classes}
        segmentation = name in torchvision.models.list_models(
            module=torchvision.models.segmentation)
        video = name in torchvision.models.list_models(module=torchvision.models.video)
        if name in ("inception_v3", "googlenet"):
            # Their auxiliary heads would get no gradient from the loss on
            # the main output: left out, as for evaluation.
            kwargs.update(aux_logits=False, init_weights=False)
        if segmentation:
            # No download of a pretrained backbone; the main head only.
            kwargs.update(weights_backbone=None, aux_loss=False)
        model = torchvision.models.get_model(name, **kwargs)
        if segmentation:
            model = PixelRows(model)
        if video:
            x = torch.rand(batch, 3, 4, image, image, generator=gen) - 0.5
        else:
            x = torch.rand(batch, 3, image, image, generator=gen) - 0.5
        if segmentation:
            labels = torch.randint(0, classes, (batch * image * image,), generator=gen)
            return model, x, torch.nn.functional.one_hot(labels, classes).to(torch.float32)
    labels = torch.randint(0, classes, (batch,), generator=gen)
    target = torch.nn.functional.one_hot(labels, classes).to(torch.float32)
    return model, x, target
