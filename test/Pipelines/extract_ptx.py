#!/usr/bin/env python3
"""Writes the PTX of every `gpu.binary` in FILE (lowered with format=isa) to
OUTDIR/<binary>.ptx and prints how many it wrote. The parsing is the user
tool's, `python -m ckpt.kernels`, imported from the source tree.

usage: extract_ptx.py FILE OUTDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from ckpt import kernels  # noqa: E402


def ptx_modules(text):
    """[(binary name, PTX text)] of the gpu.binary ops that hold PTX."""
    return [(name, data.decode("latin-1"))
            for name, kind, _, data in kernels.binaries(text) if kind == "ptx"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    with open(sys.argv[1], encoding="latin-1") as f:
        found = ptx_modules(f.read())
    if not found:
        sys.exit("extract_ptx.py: no gpu.binary with PTX (assembly = ...) in "
                 + sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, ptx in found:
        with open(os.path.join(sys.argv[2], name + ".ptx"), "w") as out:
            out.write(ptx)
    print(f"ptx modules: {len(found)}")


if __name__ == "__main__":
    main()
