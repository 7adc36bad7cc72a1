"""Write the kernels of a `ckpt-lower-to-nvptx` output to files.

    .venv/bin/python -m ckpt.kernels LOWERED.mlir -o OUTDIR

Every `gpu.binary @NAME` of the module becomes OUTDIR/NAME.ptx (the PTX text
of `format=isa`), OUTDIR/NAME.cubin (the ELF of `format=bin`) or
OUTDIR/NAME.fatbin (the fat binary of `format=fatbin`, the default), one
line per file on stdout: its name, kind, size and the target. For reading
the PTX, assembling it yourself (`ptxas -arch=sm_90 NAME.ptx`), or loading a
cubin with the CUDA driver API. Standard library only.

Exits 1 with a message when the file has no gpu.binary (for example a
ckpt-lower-to-cpu output) or cannot be read.
"""

import argparse
import os
import re
import sys

# `gpu.binary @name <offloading handler>? [#gpu.object<#nvvm.target<...>,
# properties = {...}, KIND "bytes">]`, as MLIR 22 prints it: KIND is
# `assembly = ` (isa), `bin = ` (bin) or nothing (fatbin). MLIR prints the
# string with llvm::printEscapedString: printable ASCII as is, `\\` for a
# backslash, `\XX` (two hex digits) for '"' and every other byte.
BINARY = re.compile(
    r'gpu\.binary @(\w+)\s.*?#nvvm\.target<([^>]*)>.*?'
    r'(assembly = |bin = |)"((?:[^"\\]|\\\\|\\[0-9A-Fa-f]{2})*)"', re.S)
_ESCAPE = re.compile(r'\\(\\|[0-9A-Fa-f]{2})')
_KINDS = {"assembly = ": "ptx", "bin = ": "cubin", "": "fatbin"}


def unescape_bytes(text):
    """The bytes of an MLIR string literal's contents."""
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(text):
        out += text[pos:m.start()].encode("latin-1")
        out.append(0x5C if m.group(1) == "\\" else int(m.group(1), 16))
        pos = m.end()
    out += text[pos:].encode("latin-1")
    return bytes(out)


def binaries(source):
    """[(name, kind, target, data bytes)] of every gpu.binary in `source`;
    kind is 'ptx', 'cubin' or 'fatbin'."""
    return [(m.group(1), _KINDS[m.group(3)], m.group(2), unescape_bytes(m.group(4)))
            for m in BINARY.finditer(source)]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ckpt.kernels",
                                 description="Write the kernels of a ckpt-lower-to-nvptx "
                                             "output (PTX, cubin or fatbin) to files.")
    ap.add_argument("file", help="a module lowered by ckpt-lower-to-nvptx")
    ap.add_argument("-o", "--out", required=True, help="output directory")
    args = ap.parse_args(argv)
    try:
        with open(args.file, encoding="latin-1") as f:
            found = binaries(f.read())
    except OSError as e:
        print(f"ckpt.kernels: error: cannot read '{args.file}': {e.strerror}", file=sys.stderr)
        return 1
    if not found:
        print(f"ckpt.kernels: error: no gpu.binary in '{args.file}' (lower the step with "
              "--ckpt-lower-to-nvptx)", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    for name, kind, target, data in found:
        path = os.path.join(args.out, f"{name}.{kind}")
        with open(path, "wb") as f:
            f.write(data)
        print(f"{path}: {kind}, {len(data)} bytes, {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
