#!/usr/bin/env python3
"""Writes the PTX of every `gpu.binary` in FILE (lowered with format=isa) to
OUTDIR/<binary>.ptx and prints how many it wrote.

usage: extract_ptx.py FILE OUTDIR
"""
import os
import re
import sys

# MLIR prints strings with llvm::printEscapedString: `\\` for a backslash,
# `\XX` (two hex digits) for '"' and every non-printable byte.
BINARY = re.compile(
    r'gpu\.binary @(\w+)\s.*?assembly = "((?:[^"\\]|\\\\|\\[0-9A-Fa-f]{2})*)"')
ESCAPE = re.compile(r'\\(\\|[0-9A-Fa-f]{2})')


def unescape(text):
    return ESCAPE.sub(
        lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)),
        text)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    with open(sys.argv[1]) as f:
        source = f.read()
    os.makedirs(sys.argv[2], exist_ok=True)
    count = 0
    for match in BINARY.finditer(source):
        with open(os.path.join(sys.argv[2], match.group(1) + ".ptx"),
                  "w") as out:
            out.write(unescape(match.group(2)))
        count += 1
    if count == 0:
        sys.exit("extract_ptx.py: no gpu.binary with PTX (assembly = ...) in "
                 + sys.argv[1])
    print(f"ptx modules: {count}")


if __name__ == "__main__":
    main()
