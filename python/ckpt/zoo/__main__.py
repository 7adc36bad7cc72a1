"""python -m ckpt.zoo NAME [options]: see ckpt/zoo/__init__.py."""

import argparse
import sys

from . import MODELS, check, generate


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m ckpt.zoo",
                                description="Write a training step of a zoo model in MLIR.")
    p.add_argument("name", choices=sorted(MODELS), help="the model")
    p.add_argument("--depth", type=int, help="layers / blocks / levels")
    p.add_argument("--batch", type=int, help="batch size")
    p.add_argument("--width", type=int, help="hidden width, channels or model dimension")
    p.add_argument("--size", type=int, help="image side, sequence length or input width")
    p.add_argument("--towers", type=int, help="number of towers (towers only)")
    p.add_argument("-o", "--output", help="output file (default: stdout)")
    p.add_argument("--check", action="store_true",
                   help="run the step with stock MLIR tools and compare its loss and "
                        "gradients with torch.autograd; prints PASS/FAIL")
    p.add_argument("--seed", type=int, default=0, help="inputs for --check")
    a = p.parse_args(argv)
    if a.towers is not None and a.name != "towers":
        p.error("--towers applies to the towers model only")
    for opt in ("depth", "batch", "width", "size", "towers"):
        v = getattr(a, opt)
        if v is not None and v < 1:
            p.error(f"--{opt} must be positive")
    try:
        step = generate(a.name, depth=a.depth, batch=a.batch, width=a.width, size=a.size,
                        towers=a.towers)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if a.output:
        with open(a.output, "w") as f:
            f.write(step.text)
    else:
        sys.stdout.write(step.text)
    if a.check:
        r = check(step, seed=a.seed)
        status = "PASS" if r["ok"] else "FAIL"
        print(f"{status} {step.entry}: loss {r['loss']:.6g}, max abs err {r['max_abs']:.2g}, "
              f"max rel err {r['max_rel']:.2g}", file=sys.stderr)
        for line in r["failures"]:
            print("  " + line, file=sys.stderr)
        return 0 if r["ok"] else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
