#!/usr/bin/env python3
"""Runs a step lowered to the LLVM dialect (ckpt-lower-to-cpu) under
AddressSanitizer: the step's code instrumented by LLVM's ASan pass, its
inputs and every buffer it allocates in heap blocks with redzones, so that any
read or write outside a buffer stops the run with ASan's report.

usage: asan_step.py STEP.ll.mlir ENTRY WORKDIR [--int-value V ...]

Integer inputs are filled with the values given by --int-value (cycled;
default 0), float inputs with 0.25. The step's code goes through
mlir-translate, LLVM's `opt -passes=asan` (every function marked
sanitize_address) and llc; a generated C main builds the memref descriptors
of the step's `ckpt.signature`, provides the allocation hooks with
aligned_alloc/free, calls `_mlir_ciface_ENTRY` and is linked with GCC's
AddressSanitizer runtime. Leak detection is off: the step's own leaks are
ckpt-run's to count. Exit code: the program's (0: clean; ASan's report
otherwise)."""
import os
import re
import subprocess
import sys

BIN = os.environ.get("CKPT_MLIR_BIN", "/usr/lib/llvm-22/bin")


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit("failed: " + " ".join(cmd))
    return p


def parse_types(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def tensor(t):
    m = re.fullmatch(r"tensor<(?:([0-9x]+)x)?(f32|f64|i32|i64)>", t)
    if not m:
        raise SystemExit("unsupported type " + t)
    shape = [int(d) for d in m.group(1).split("x")] if m.group(1) else []
    return shape, m.group(2)


def main(argv):
    step, entry, work = argv[1], argv[2], argv[3]
    ints = [int(v) for i, v in enumerate(argv) if i > 0 and argv[i - 1] == "--int-value"] or [0]
    text = open(step).read()
    m = re.search(r"llvm\.func @%s\(.*ckpt\.signature = \((.*?)\) -> \(?(.*?)\)?, llvm\.emit_c_interface" % re.escape(entry), text)
    if not m:
        raise SystemExit("no ckpt.signature on @" + entry)
    args = [tensor(t) for t in parse_types(m.group(1))]
    results = [tensor(t) for t in parse_types(m.group(2))]
    ll = os.path.join(work, "step.ll")
    run([os.path.join(BIN, "mlir-translate"), "--mlir-to-llvmir", step, "-o", ll])
    # Instrument every function of the step.
    src = open(ll).read()
    src = re.sub(r"^(define [^\n]*\))( #\d+)? \{$", lambda m: m.group(1) + " sanitize_address" + (m.group(2) or "") + " {",
                 src, flags=re.M)
    if "target triple" not in src:
        # ASan's shadow mapping is the target's: without a triple opt would
        # use another OS's offset than the Linux runtime.
        src = 'target triple = "x86_64-pc-linux-gnu"\n' + src
    open(ll, "w").write(src)
    asan = os.path.join(work, "step.asan.ll")
    run([os.path.join(BIN, "opt"), "-passes=asan", ll, "-S", "-o", asan])
    obj = os.path.join(work, "step.o")
    run([os.path.join(BIN, "llc"), "-O0", "-filetype=obj", "-relocation-model=pic", asan, "-o", obj])
    ctype = {"f32": "float", "f64": "double", "i32": "int32_t", "i64": "int64_t"}
    lines = ["#include <stdint.h>", "#include <stdlib.h>", "#include <stdio.h>",
             "void *_mlir_memref_to_llvm_aligned_alloc(int64_t a, int64_t n) { return aligned_alloc((size_t)a, (size_t)((n + a - 1) / a * a)); }",
             "void *_mlir_memref_to_llvm_alloc(int64_t n) { return malloc((size_t)n); }",
             "void _mlir_memref_to_llvm_free(void *p) { free(p); }",
             "extern void _mlir_ciface_%s(void *results%s);" % (entry, "".join(", void *a%d" % i for i in range(len(args)))),
             "static const int64_t ints[] = {%s};" % ", ".join(str(v) for v in ints),
             "int main(void) {"]
    for i, (shape, dt) in enumerate(args):
        n = 1
        for d in shape:
            n *= d
        strides = []
        s = 1
        for d in reversed(shape):
            strides.insert(0, s)
            s *= d
        lines.append("  %s *d%d = malloc(sizeof(%s) * %d);" % (ctype[dt], i, ctype[dt], max(n, 1)))
        fill = "ints[k %% %d]" % len(ints) if dt.startswith("i") else "0.25"
        lines.append("  for (int k = 0; k < %d; ++k) d%d[k] = (%s)%s;" % (n, i, ctype[dt], fill))
        words = ["(int64_t)(intptr_t)d%d" % i, "(int64_t)(intptr_t)d%d" % i, "0"] + [str(x) for x in shape] + [str(x) for x in strides]
        lines.append("  int64_t m%d[] = {%s};" % (i, ", ".join(words)))
    nres = sum(3 + 2 * len(shape) for shape, _ in results)
    lines.append("  int64_t *res = calloc(%d, sizeof(int64_t));" % max(nres, 1))
    lines.append("  _mlir_ciface_%s(res%s);" % (entry, "".join(", m%d" % i for i in range(len(args)))))
    lines.append('  printf("ran @%s under ASan\\n");' % entry)
    lines.append("  return 0;\n}")
    c = os.path.join(work, "main.c")
    open(c, "w").write("\n".join(lines) + "\n")
    exe = os.path.join(work, "step")
    run(["gcc", "-fsanitize=address", "-g", c, obj, "-o", exe, "-lm"])
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    p = subprocess.run([exe], capture_output=True, text=True, env=env)
    sys.stdout.write(p.stdout)
    sys.stderr.write("\n".join(p.stderr.splitlines()[:12]) + "\n")
    return p.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
