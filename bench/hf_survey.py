#!/usr/bin/env python3
"""Which Hugging Face causal-LM families import into a training step.

    .venv/bin/python bench/hf_survey.py [--only TYPE,...] [--jobs 2]
                                        [--timeout 300] [--doc docs/IMPORTERS.md]

For every model type of transformers' causal-LM mapping
(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES), a tiny config: the family's default
configuration with each size field it has shrunk (2 layers, width 32, 4
heads, 2 key/value heads, feed-forward 64, vocabulary 96, 64 positions, head
size 8, 4 experts of which 2 per token), written as a config.json naming the
family's causal-LM class; then what `python -m ckpt.torch_import
hf:CONFIG.json --batch 2 --seq 8` does: build the model (random weights, no
download), capture its training step with the model's own loss, and
translate it. One line per family: the op count when nothing is opaque, the
opaque ops otherwise, or the first line of the error that stops it (a
config the shrinking broke says so). --doc writes the table between the
`hf-survey` markers of the Markdown file. Runs each family in a process of
its own, with --timeout seconds.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

SHRINK = {
    2: ("num_hidden_layers", "n_layer", "num_layers", "n_layers", "num_decoder_layers",
        "num_experts_per_tok", "num_key_value_heads", "n_kv_heads", "num_kv_heads"),
    4: ("num_attention_heads", "n_head", "num_heads", "n_heads", "num_local_experts",
        "num_experts", "n_routed_experts"),
    8: ("head_dim", "kv_channels"),
    32: ("hidden_size", "n_embd", "d_model", "dim", "moe_intermediate_size"),
    64: ("intermediate_size", "n_inner", "ffn_dim", "d_ff", "ffn_hidden_size",
         "max_position_embeddings", "n_positions", "n_ctx", "seq_length"),
    96: ("vocab_size",),
}

# Run in a fresh interpreter per family: prints one JSON line.
CHILD = r"""
import json, sys, traceback
path = sys.argv[1]
out = {}
try:
    from ckpt.torch_import import hf, import_module_info
    model, xs, names, name, ranges = hf.build_model(path, 2, seq=8)
    _, info = import_module_info(model, xs, None, loss="model", name=name,
                                    input_names=names, input_ranges=ranges)
    out["ops"] = info["mlir_ops"]
    out["opaque"] = sorted(info["opaque"])
except BaseException as e:  # noqa: BLE001 - reported, one line
    first = (str(e).strip().splitlines() or [""])[0]
    out["error"] = f"{type(e).__name__}: {first}"[:160]
print(json.dumps(out))
"""


def tiny_config(model_type, arch):
    """The family's default config, shrunk, as a dict with architectures."""
    import transformers
    config = transformers.AutoConfig.for_model(model_type)
    data = config.to_dict()
    layers = {k: data[k] for k in SHRINK[2][:5] if isinstance(data.get(k), int)}
    for value, keys in SHRINK.items():
        for key in keys:
            if isinstance(data.get(key), int) and data[key] > value:
                data[key] = value
    # Per-layer lists (layer_types, ...) follow the layer count.
    for key, before in layers.items():
        for field, items in list(data.items()):
            if isinstance(items, list) and len(items) == before > data[key]:
                data[field] = items[:data[key]]
    for sub in ("text_config", "decoder"):
        if isinstance(data.get(sub), dict):
            for value, keys in SHRINK.items():
                for key in keys:
                    if isinstance(data[sub].get(key), int) and data[sub][key] > value:
                        data[sub][key] = value
    data["architectures"] = [arch]
    data["model_type"] = model_type
    data["tie_word_embeddings"] = data.get("tie_word_embeddings", False)
    return data


def survey_one(model_type, arch, python, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"{model_type}.json")
        try:
            with open(path, "w") as f:
                json.dump(tiny_config(model_type, arch), f, default=str)
        except Exception as e:  # noqa: BLE001
            return model_type, arch, {"error": f"config: {type(e).__name__}: "
                                               f"{str(e).splitlines()[0] if str(e) else ''}"[:160]}
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "build", "python"))
        try:
            p = subprocess.run([python, "-c", CHILD, path], capture_output=True, text=True,
                               timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return model_type, arch, {"error": f"over {timeout} s"}
        lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
        if not lines:
            tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
            return model_type, arch, {"error": f"crashed: {tail[:160]}"}
        return model_type, arch, json.loads(lines[-1])


def verdict(result):
    if "error" in result:
        return "stops", result["error"].replace("|", "\\|")
    if result.get("opaque"):
        return "opaque", ", ".join(f"`{o}`" for o in result["opaque"])
    return "imports", f"no opaque op ({result.get('ops')} ops)" if result.get("ops") else \
        "no opaque op"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", help="comma-separated model types")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--doc", help="write the table into this Markdown file (hf-survey markers)")
    a = p.parse_args(argv)
    import transformers
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
    families = sorted(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES.items())
    if a.only:
        wanted = set(a.only.split(","))
        families = [(t, c) for t, c in families if t in wanted]
    families = [(t, c if isinstance(c, str) else c[0]) for t, c in families]
    rows, counts = [], {"imports": 0, "opaque": 0, "stops": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        jobs = [pool.submit(survey_one, t, c, sys.executable, a.timeout) for t, c in families]
        for job in jobs:
            model_type, arch, result = job.result()
            kind, text = verdict(result)
            counts[kind] += 1
            rows.append(f"| `{model_type}` | `{arch}` | {kind} | {text} |")
            print(f"{model_type} ({arch}): {kind}: {text}", flush=True)
    summary = (f"transformers {transformers.__version__}, {len(families)} causal-LM families "
               f"at 2 layers, width 32, batch 2, sequence 8: {counts['imports']} import with no "
               f"opaque op, {counts['opaque']} with opaque ops, {counts['stops']} stop")
    print(summary)
    if a.doc:
        from ckpt.remat import replace_block
        table = "\n".join([summary + " (`.venv/bin/python bench/hf_survey.py --doc "
                           "docs/IMPORTERS.md`).", "",
                           "| model type | class | result | what |", "| --- | --- | --- | --- |",
                           *rows])
        replace_block(a.doc, "hf-survey", "\n" + table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
