"""The public entry points: import_module(_info) and the command line.

Part of ckpt.torch_import (see its docstring).
"""

import argparse
import re
import sys
import time

from .. import progress
from .models import MODELS, SIZES, build_model
from .policies import keep_nodes, parse_policy
from .trace import _Scopes, _shape, _trace, load_user_model, select_output, user_inputs
from .translate import _Translator
from .emit import _mlir_dtype, _ttype
from .losses import parse_loss


# ---------------------------------------------------------------------------
# The public API.

def import_module_info(module, example_inputs, target, loss="cross_entropy", name=None,
                       tracing_mode="fake", dropout=False, keep=None,
                       block_class=None, input_names=None, input_ranges=None,
                       locations=False, traced=None):
    """Like import_module, but returns (text, info): info holds the counts
    ('aten_ops', 'mlir_ops', 'opaque_ops', 'opaque' by name), the parameter
    names ('params'), the seconds spent tracing ('trace_s', functionalization
    included) and emitting ('emit_s'), the function name ('name'), whether
    functorch's functionalize was needed ('functionalized': in-place ops on
    views or inputs), the traced step ('graph': a torch.fx.GraphModule taking
    the inputs, the target unless the model computes its loss, then the
    parameters; returning the loss and the gradients) and its inputs and
    target as traced ('args'). With `locations`, each op is located at the
    node of 'graph' it comes from: `loc("NAME")`. With `traced` (the info of
    an earlier import of the same module, inputs, target and loss), its
    trace is reused: another keep policy or naming costs no second trace
    (not for the hand-written keep policies, which need the module scopes
    of a trace of their own)."""
    import torch
    if tracing_mode not in ("fake", "real"):
        raise ValueError("tracing_mode must be 'fake' or 'real'")
    if name is None:
        name = type(module).__name__.lower()
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not name.endswith("_step"):
        name += "_step"
    # The hand-written policies act on blocks: which module made each node.
    scopes = _Scopes() if keep and parse_policy(keep)[0] != "partitioner" else None
    if traced is not None and scopes is None:
        trace = traced["trace"]
    else:
        trace = _trace(module, example_inputs, target, loss, tracing_mode, dropout, scopes)
    gm, pnames, pshapes, inputs, target, trace_s, functionalized = trace
    kept, blocks = (keep_nodes(gm, scopes, keep, block_class) if keep
                    else (set(), None))
    start = time.perf_counter()
    arg_info = []
    if input_names is not None:
        for x, xn in zip(inputs, input_names):
            arg_info.append((re.sub(r"\W", "_", xn), f"{xn} {list(x.shape)}"))
    elif len(inputs) == 1:
        arg_info.append(("x", f"input {list(inputs[0].shape)}"))
    else:
        for i, x in enumerate(inputs):
            arg_info.append((f"x{i}", f"input {i} {list(x.shape)}"))
    if target is not None:
        arg_info.append(("t", f"target {list(target.shape)} ({loss})"))
    for i, (pn, ps) in enumerate(zip(pnames, pshapes)):
        arg_info.append((f"p{i}", f"{pn} {list(ps)}"))
    classes = gm.meta.get("ckpt_target_classes")
    if classes is not None and target is not None:
        input_ranges = dict(input_ranges or {}, t=(0, classes))
    tr = _Translator(gm, name, arg_info, kept, locations)
    body = tr.run()
    ranges = dict(getattr(tr, "ranges", {}))   # valid ranges of integer arguments (ops_index)
    # Ranges the caller knows (class labels), intersected with the ops' own.
    values = dict(zip([a for a, _ in arg_info[:len(inputs)]], inputs))
    if target is not None:
        values["t"] = target
    for arg, (lo, hi) in (input_ranges or {}).items():
        if arg in ranges:
            lo, hi = max(lo, ranges[arg][0]), min(hi, ranges[arg][1])
        t = values[arg]
        ranges[arg] = (lo, hi, _ttype(tuple(t.shape), _mlir_dtype(t.dtype)))
    body = _with_ranges(body, ranges)
    arg_info = [(a, c + (f", valid range [{ranges[a][0]}, {ranges[a][1]})" if a in ranges else ""))
                for a, c in arg_info]
    if tr.dropouts:
        arg_info.append(("seed", "the dropout seed (Philox4x32-10 key)"))
    header = [
        f"// Imported by ckpt.torch_import from PyTorch {torch.__version__}: "
        f"{type(module).__name__}, loss {loss}.",
        "// Training mode; batch norm uses batch statistics (running statistics dropped);",
        (f"// dropout on: {tr.dropouts} mask(s) drawn by Philox4x32-10 from (seed, mask, "
         "element)." if tr.dropouts else "// dropout off.")
        + " Results: the loss, then the gradient of each parameter.",
        "// Arguments:",
    ] + [f"//   %{a}: {c}" for a, c in arg_info]
    if keep:
        over = f" over the {blocks} blocks" if blocks else ""
        header.append(f"// Keep policy '{keep}'{over}: "
                      f"{tr.checkpoints} ckpt.checkpoint marks (plan with "
                      "ckpt-plan{strategy=keep}).")
    if tr.em.opaque:
        header.append("// Opaque ops (planned, not executable): " + ", ".join(
            f"{k} x{v}" for k, v in sorted(tr.em.opaque.items())))
    text = "\n".join(header) + "\n\n" + body
    info = {
        "aten_ops": tr.aten_ops,
        "mlir_ops": tr.em.top_ops + len(tr.em.const_lines),
        "opaque_ops": sum(tr.em.opaque.values()),
        "opaque": dict(tr.em.opaque),
        "params": pnames,
        "trace_s": trace_s,
        "emit_s": time.perf_counter() - start,
        "name": name,
        "functionalized": functionalized,
        "dropouts": tr.dropouts,
        "checkpoints": tr.checkpoints,
        "block_class": blocks,
        "ranges": {a: r[:2] for a, r in ranges.items()},
        "graph": gm,
        "trace": trace,
        "args": list(inputs) + ([] if target is None else [target]),
    }
    return text, info


def _with_ranges(text, ranges):
    """The step with `{ckpt.range = array<i64: LO, HI>}` on each integer
    argument of `ranges` ({name: (lo, hi, type)}): its valid values are
    [LO, HI) (ckpt-run draws it there)."""
    if not ranges:
        return text
    start = text.index("func.func @")
    end = text.index("->", start)
    sig = text[start:end]
    for arg, (lo, hi, ty) in ranges.items():
        old = f"%{arg}: {ty}"
        assert sig.count(old) == 1, old
        sig = sig.replace(old, f"{old} {{ckpt.range = array<i64: {lo}, {hi}>}}")
    return text[:start] + sig + text[end:]


def import_module(module, example_inputs, target, loss="cross_entropy", name=None,
                  tracing_mode="fake", dropout=False, keep=None,
                  block_class=None):
    """The training step of `module` as MLIR text.

    module: a torch.nn.Module (copied; the copy is put in training mode,
      batch-norm running statistics dropped, dropout off);
    example_inputs: a tensor or a tuple of tensors (only their shapes and
      dtypes matter with the default fake-tensor tracing);
    target: cross_entropy: class probabilities [N, K] or class indices [N];
      mse: a tensor of the output's shape;
    name: the function is @<name>_step (default: the class name, lowercase);
    tracing_mode: 'fake' (shapes only) or 'real' (runs the model);
    dropout: keep dropout on. Each mask is then drawn by a counter-based
      generator (Philox4x32-10) keyed on (seed, mask number, element index),
      the seed being the step's last argument `%seed: tensor<i64>`: a mask
      recomputed by a rematerialized step is the one drawn first.
    keep: a keep policy (ckpt.torch_import.policies: 'blocks', 'attention',
      'matmuls', or 'partitioner:B:S', what torch.compile's min-cut
      partitioner saves at activation_memory_budget B with knapsack solver
      S): marks the forward values the policy keeps with
      `ckpt.checkpoint`, for `ckpt-plan{strategy=keep}`; the blocks are the
      modules of class `block_class` (default: the repeated, numbered
      children of a container that cover the most of the forward).
    Raises ValueError when the step cannot be traced or translated."""
    return import_module_info(module, example_inputs, target, loss, name, tracing_mode,
                              dropout, keep, block_class)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m ckpt.torch_import",
        description="Import the training step of a model into MLIR (a ckpt training "
                    "step): a built-in name, any torchvision.models constructor, or "
                    "your own nn.Module as path/to/file.py:ClassOrFactory.")
    ap.add_argument("model", help="a built-in (" + ", ".join(MODELS) + "), another "
                    "torchvision.models constructor (e.g. mobilenet_v2, vit_b_16, "
                    "convnext_tiny), hf:CONFIG.json (a Hugging Face model built from "
                    "its config, no weights, trained with its own loss: --batch, "
                    "--seq or --image), timm:NAME (a timm model, random weights: "
                    "--batch, --image, --classes), or path/to/file.py:Name, where "
                    "Name is an nn.Module class or a function returning one, called "
                    "with no arguments (needs --input-shape)")
    ap.add_argument("--batch", type=int, help="batch size (built-in and torchvision "
                    "models)")
    ap.add_argument("--image", type=int, help="image size (default: 224; 299 for "
                    "inception_v3, 16 for tinyresnet)")
    ap.add_argument("--classes", type=int, help="number of classes (default 1000; 10 "
                    "for tinyresnet)")
    for flag, what in (("layers", "number of blocks"), ("width", "model width"),
                       ("heads", "attention heads"),
                       ("kv-heads", "key/value heads of the grouped-query attention (llama)"),
                       ("seq", "sequence length"), ("vocab", "vocabulary size")):
        ap.add_argument(f"--{flag}", type=int, help=f"{what} of a built-in transformer "
                        "(tinygpt, gpt2small, llama; default: its configuration)")
    ap.add_argument("--attention-mask", action="store_true",
                    help="hf: text models: the step also takes attention_mask [B, S] (1 "
                    "token, 0 padding); a causal LM's labels are -100 at the padding")
    ap.add_argument("--input-shape", help="your model's input, e.g. 8x3x224x224 "
                    "(the batch is its first size)")
    ap.add_argument("--input-dtype", default="float32",
                    choices=["float32", "float64", "int64", "int32"],
                    help="your model's input type (int64 for token ids; default float32)")
    ap.add_argument("--target-shape", help="your model's target (default: the "
                    "output's shape; one size with cross_entropy: class indices)")
    ap.add_argument("--loss", default="cross_entropy",
                    help="cross_entropy (default), mse or nll_loss, with options: "
                    "cross_entropy:label_smoothing=0.1,ignore_index=0 (also 'indices': "
                    "class indices stay an integer argument), nll_loss:ignore_index=0")
    ap.add_argument("--tracing", default="fake", choices=["fake", "real"])
    ap.add_argument("--dropout", action="store_true", help="keep dropout on: masks "
                    "drawn by Philox4x32-10 from (seed, mask, element), the seed the "
                    "step's last argument, so that recomputation draws the same mask")
    ap.add_argument("--keep", metavar="POLICY", help="mark the forward values a "
                    "baseline keeps with ckpt.checkpoint, for ckpt-plan{strategy=keep}: "
                    "'blocks' (torch.utils.checkpoint on every block), 'attention' "
                    "(Megatron-LM's selective recompute: all but the attention core), "
                    "'matmuls' (PyTorch's selective checkpointing saving matmul outputs) "
                    "or 'partitioner[:B[:S]]' (what torch.compile's min-cut partitioner "
                    "saves at activation_memory_budget B, default 1, with knapsack "
                    "solver S: dp (default), greedy or ilp)")
    ap.add_argument("--block-class", help="with --keep: the class of the blocks (default: "
                    "the repeated, numbered children of a Sequential or ModuleList)")
    ap.add_argument("--locations", action="store_true",
                    help="locate each op at the node of the traced FX graph it comes "
                    "from: loc(\"NAME\") (ckpt-opt keeps them with --mlir-print-debuginfo)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    ap.add_argument("--stats", action="store_true",
                    help="print op counts and timings to stderr")
    ap.add_argument("--output-field", metavar="FIELD",
                    help="score this field of the model's output: a dict key ('out' of "
                    "a segmentation model), an attribute ('logits') or a tuple index; "
                    "default: the output itself, or its first tensor, or .logits")
    ap.add_argument("--check", action="store_true",
                    help="run the imported step (ckpt-opt, ckpt-run on PATH) and compare its "
                    "loss and every gradient with eager PyTorch in float64 under the error "
                    "bound of ckpt.numerics; prints the worst error / bound to stderr, exit 1 "
                    "outside the bound")
    ap.add_argument("--quiet", action="store_true",
                    help="no progress line on stderr (drawn only when stderr is a terminal)")
    opts = ap.parse_args(argv)
    try:
        parse_loss(opts.loss)
    except ValueError as e:
        ap.error(str(e))
    if opts.block_class and not opts.keep:
        ap.error("--block-class needs --keep")
    if opts.keep is not None:
        try:
            parse_policy(opts.keep)
        except ValueError as e:
            ap.error(str(e))
    from . import trace as _trace_module
    flags = _trace_module.INPUT_FLAGS[0]
    _trace_module.INPUT_FLAGS[0] = (
        "--batch, --seq and --image" if opts.model.startswith("hf:") else
        "--input-shape and --input-dtype" if ":" in opts.model and
        not opts.model.startswith("timm:") else "--batch and --image")
    try:
        return _run(opts)
    finally:
        _trace_module.INPUT_FLAGS[0] = flags


def _run(opts):
    """main's work on the parsed options."""
    line = progress.Line(3, f"ckpt.torch_import {opts.model}", quiet=opts.quiet)
    line.step("building the model")
    try:
        import torch
        torch.set_num_threads(max(1, min(torch.get_num_threads(), 4)))
        hf_spec = opts.model.startswith("hf:")
        timm_spec = opts.model.startswith("timm:")
        user = ":" in opts.model and not hf_spec and not timm_spec
        ranges, names = None, None
        if opts.attention_mask and not hf_spec:
            raise ValueError("--attention-mask is for hf: text models")
        if hf_spec or timm_spec:
            for flag in ("input_shape", "target_shape") + tuple(
                    f for f in SIZES if f != "seq" or timm_spec):
                if getattr(opts, flag) is not None:
                    raise ValueError(f"--{flag.replace('_', '-')} is not for "
                                     f"{opts.model.split(':')[0]}: models")
            if opts.batch is None or opts.batch < 1:
                raise ValueError("--batch (at least 1) is required")
        if hf_spec:
            if opts.loss != "cross_entropy" or opts.classes is not None:
                raise ValueError("hf: models train with their own loss (labels given): "
                                 "no --loss or --classes")
            from . import hf
            model, x, names, name, ranges = hf.build_model(
                opts.model[3:], opts.batch, seq=opts.seq, image=opts.image,
                attention_mask=opts.attention_mask)
            opts.loss, target = "model", None
        elif timm_spec:
            from . import timm_models
            model, x, target = timm_models.build_model(
                opts.model[5:], opts.batch, opts.image, opts.classes)
            name = opts.model[5:]
            if parse_loss(opts.loss).indices:
                target = target.argmax(-1)
        elif user:
            if opts.input_shape is None:
                raise ValueError("a model given as path/to/file.py:Name needs --input-shape")
            for flag in ("batch", "image", "classes") + SIZES:
                if getattr(opts, flag) is not None:
                    raise ValueError(f"--{flag.replace('_', '-')} is for built-in models; give "
                                     f"--input-shape (and --target-shape) instead")
            model, name = load_user_model(opts.model)
            name = name.lower()
            if opts.output_field is not None:    # before the output's shape is taken
                model = select_output(model, opts.output_field)
            target_shape = (_shape(opts.target_shape, "--target-shape")
                            if opts.target_shape else None)
            x, target = user_inputs(model, _shape(opts.input_shape, "--input-shape"),
                                    opts.input_dtype, target_shape, opts.loss)
        else:
            for flag in ("input_shape", "target_shape"):
                if getattr(opts, flag) is not None:
                    raise ValueError(f"--{flag.replace('_', '-')} is for models given as "
                                     f"path/to/file.py:Name")
            if opts.batch is None:
                raise ValueError("--batch is required for built-in and torchvision models")
            if opts.batch < 1:
                raise ValueError("--batch must be at least 1")
            model, x, target = build_model(opts.model, opts.classes, opts.image, opts.batch,
                                           **{k: getattr(opts, k) for k in SIZES})
            name = opts.model
            if parse_loss(opts.loss).kind == "mse":
                target = target * 2 - 1
            elif parse_loss(opts.loss).indices and target.is_floating_point():
                target = target.argmax(-1)      # one-hot -> class indices
        if opts.output_field is not None and not user:
            if hf_spec:
                raise ValueError("--output-field: hf: models are scored on their own loss")
            model = select_output(model, opts.output_field)
        line.step("tracing and translating")
        text, info = import_module_info(model, x, target, opts.loss, name=name,
                                        tracing_mode=opts.tracing,
                                        dropout=opts.dropout, keep=opts.keep,
                                        block_class=opts.block_class,
                                        input_names=names, input_ranges=ranges,
                                        locations=opts.locations)
        line.step("writing")
    except ValueError as e:
        line.close()
        print(f"ckpt.torch_import: error: {e}", file=sys.stderr)
        return 1
    if opts.output == "-":
        sys.stdout.write(text)
    else:
        with open(opts.output, "w") as f:
            f.write(text)
    line.close()
    if opts.check:
        from .check import check
        try:
            if info["opaque_ops"]:
                raise ValueError("--check: the step has opaque ops, which do not run")
            res = check(model, x, target, opts.loss, text, info["name"])
        except ValueError as e:
            print(f"ckpt.torch_import: error: {e}", file=sys.stderr)
            return 1
        print(f"{info['name']}: loss and {len(info['params'])} gradients within the error "
              f"bound (K = {res['k']}): worst error / bound {res['ours']:.3g}, PyTorch's "
              f"float32 {res['pytorch']:.3g}", file=sys.stderr)
    if opts.stats:
        op = ", ".join(f"{k} x{v}" for k, v in sorted(info["opaque"].items())) or "none"
        print(f"{info['name']}: {info['aten_ops']} aten ops -> {info['mlir_ops']} MLIR ops, "
              f"{info['opaque_ops']} opaque ({op}); trace {info['trace_s']:.2f} s, "
              f"emit {info['emit_s']:.2f} s", file=sys.stderr)
    return 0
