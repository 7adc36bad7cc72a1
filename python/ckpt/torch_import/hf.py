"""Hugging Face models from a config file: no weights, no download.

    python -m ckpt.torch_import hf:CONFIG.json --batch B --seq S [--image S]

The config is a `config.json` as the Hub has it (or one written by hand);
its `architectures` field names the class (`LlamaForCausalLM`), its
`model_type` the configuration class. The model is built by the class's
constructor from the config (random initialisation, seeded), in training
mode, with `attn_implementation="sdpa"` (PyTorch's fused attention, as the
models run by default), and its training step is imported with the model's
own loss (`loss="model"`): the step's arguments are the model's inputs, then
the parameters.

| task (class name ends in) | step inputs | the model is called with |
| --- | --- | --- |
| `ForCausalLM`, `LMHeadModel` | `input_ids` [B, S] | input_ids, labels = input_ids |
| `ForMaskedLM` | `input_ids`, `labels` [B, S] | input_ids, labels (-100: not scored) |
| `ForConditionalGeneration` (T5, BART) | `input_ids`, `labels` [B, S] | input_ids, labels (the decoder's inputs are the labels shifted right, as the model makes them) |
| `ForImageClassification` | `pixel_values` [B, C, S, S], `labels` [B] | pixel_values, labels |

With `attention_mask=True` (`--attention-mask`, text models), the step takes
`attention_mask` [B, S] (int64, 1 for a token, 0 for padding, as a tokenizer
makes it) after `input_ids`, and the model is called with it; a causal LM's
labels are then the input ids with -100 (not scored) at the padding, as
transformers' DataCollatorForLanguageModeling makes them. A query at a
padded position that sees no unpadded key gets output 0 and no gradient, as
PyTorch's fused attention kernel gives it.

Part of ckpt.torch_import (see its docstring).
"""

import json
import os

TASKS = (
    ("ForCausalLM", "causal"), ("LMHeadModel", "causal"), ("ForMaskedLM", "masked"),
    ("ForConditionalGeneration", "seq2seq"), ("ForImageClassification", "image"),
)


def _task(arch):
    for suffix, task in TASKS:
        if arch.endswith(suffix):
            return task
    raise ValueError(f"architecture '{arch}': no training task known for it (expected a "
                     "class ending in " + ", ".join(s for s, _ in TASKS) + ")")


def load_config(path):
    """(transformers config, architecture class name) of a config.json."""
    try:
        import transformers
    except ImportError:
        raise ValueError("hf: models need the 'transformers' package "
                         "(scripts/setup.sh installs it in .venv)") from None
    if not os.path.isfile(path):
        raise ValueError(f"hf: no such config file: '{path}'")
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"hf: cannot read '{path}' as JSON: {e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"hf: '{path}' is not a JSON object")
    archs = data.get("architectures")
    if not archs or not isinstance(archs, list) or not isinstance(archs[0], str):
        raise ValueError(f"hf: '{path}' has no 'architectures' list naming the model class")
    arch = archs[0]
    if not hasattr(transformers, arch):
        raise ValueError(f"hf: transformers {transformers.__version__} has no model class "
                         f"'{arch}' (the config's architectures field)")
    model_type = data.get("model_type")
    if not model_type:
        raise ValueError(f"hf: '{path}' has no 'model_type'")
    rest = {k: v for k, v in data.items() if k not in ("model_type", "architectures")}
    try:
        config = transformers.AutoConfig.for_model(model_type, **rest)
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"hf: model_type '{model_type}' of '{path}': {e}") from None
    config.architectures = [arch]
    return config, arch


def build_model(path, batch, seq=None, image=None, seed=0, attention_mask=False):
    """(module, example inputs, input names, name, ranges) of the config at
    `path`: the module takes the step's inputs positionally and returns the
    model's output (with its `.loss`); ranges: {input name: (lo, hi)}, the
    valid values of integer inputs the model checks (class labels, the
    attention mask's 0 and 1). attention_mask: the step takes the padding
    mask of a text model (see the module's docstring)."""
    import torch
    from torch import nn
    import transformers
    config, arch = load_config(path)
    task = _task(arch)
    if attention_mask and task == "image":
        raise ValueError("hf: --attention-mask is for text models (token ids), not "
                         f"{arch}")
    # The fused attention kernel where the family has it, as it trains by
    # default; the family's own attention where it has no SDPA path.
    model = None
    for attention in ("sdpa", "eager"):
        config._attn_implementation = attention
        torch.manual_seed(seed)
        try:
            model = getattr(transformers, arch)(config)
            break
        except Exception as e:  # noqa: BLE001 - a model class rejecting its config
            message = str(e).splitlines()[0] if str(e) else ""
            if attention == "sdpa" and "does not support an attention implementation" in message:
                continue
            raise ValueError(f"hf: {arch}({os.path.basename(path)}) failed: "
                             f"{type(e).__name__}: {message}") from None
    gen = torch.Generator().manual_seed(seed)
    if task == "image":
        size = image or getattr(config, "image_size", None)
        channels = getattr(config, "num_channels", 3)
        if not isinstance(size, int):
            raise ValueError("hf: image models need --image S")
        classes = getattr(config, "num_labels", 2)
        inputs = (torch.rand(batch, channels, size, size, generator=gen) - 0.5,
                  torch.randint(0, classes, (batch,), generator=gen))
        names = ("pixel_values", "labels")
    else:
        if not seq:
            raise ValueError("hf: text models need --seq S")
        vocab = config.vocab_size
        ids = torch.randint(0, vocab, (batch, seq), generator=gen)
        if task == "causal":
            inputs, names = (ids,), ("input_ids",)
        else:
            labels = torch.randint(0, vocab, (batch, seq), generator=gen)
            if task == "masked":
                # Score about 15% of the positions, as BERT's masking.
                keep = torch.rand(batch, seq, generator=gen) < 0.15
                keep[:, 0] = True
                labels = torch.where(keep, labels, torch.full_like(labels, -100))
            inputs, names = (ids, labels), ("input_ids", "labels")
        if attention_mask:
            # Right padding: each row's tokens, then its pads.
            lengths = torch.randint(1, seq + 1, (batch,), generator=gen)
            mask = (torch.arange(seq)[None, :] < lengths[:, None]).to(torch.int64)
            inputs = (ids, mask) + inputs[1:]
            names = ("input_ids", "attention_mask") + names[1:]

    class HFStep(nn.Module):
        """The model called with keyword inputs (labels = input_ids for a
        causal LM)."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *xs):
            kwargs = dict(zip(names, xs))
            if task == "causal":
                ids = kwargs["input_ids"]
                mask = kwargs.get("attention_mask")
                kwargs["labels"] = ids if mask is None else torch.where(
                    mask.bool(), ids, torch.full_like(ids, -100))
            return self.model(**kwargs)

    name = arch.lower()
    # The labels' valid classes (-100, not scored, is valid too: ckpt-run
    # draws in [0, classes)).
    classes = getattr(config, "num_labels", 2) if task == "image" else config.vocab_size
    ranges = {"labels": (0, classes)} if "labels" in names else {}
    if attention_mask:
        ranges["attention_mask"] = (0, 2)
    return HFStep(), inputs, names, name, ranges
