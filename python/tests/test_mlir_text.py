"""ckpt.mlir_text, the MLIR text the zoo and the PyTorch importer share: float
literals parse back to the value they stand for (checked by mlir-opt, which
prints the parsed constants' bytes), types, maps, the generic header and the
Emitter's ops (parsed by mlir-opt); `import ckpt` loads no extension."""

import math
import re
import struct
import subprocess

import pytest

from ckpt.mlir_text import (Emitter, MapPool, affine_map, float_literal, generic_header,
                            identity_map, tensor_type)

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

VALUES = [0.0, -0.0, 1.0, -2.5, 0.1, 1 / 3, 1e-05, 1e-12, 2.0 ** -20, 3e20, 1e16,
          65504.0, 123456789.0, 6e-08, math.inf, -math.inf, math.nan]


def test_literals_by_hand():
    # A '.' in every mantissa: MLIR reads `1e-05` as `1` and an identifier.
    assert float_literal(1e-05, "f64") == "1.0e-05"
    assert float_literal(1e16, "f64") == "1.0e+16"
    assert float_literal(1e-05, "f32") == "1.0e-05"
    assert float_literal(2, "f32") == "2.0"
    # The shortest decimal of the value rounded to the type.
    assert float_literal(0.1, "f32") == "0.1"
    assert float_literal(1 / 3, "f32") == "0.33333334"
    assert float_literal(1 / 3, "f64") == "0.3333333333333333"
    assert float_literal(0.1, "f16") == "0.1"
    # bf16 1/3 is 0x3EAB = 0.333984375 (neighbours 0.33203125, 0.3359375).
    assert float_literal(1 / 3, "bf16") == "0.334"
    # NaN and the infinities as bit patterns, also a finite value that
    # rounds to infinity in the type.
    assert float_literal(math.nan, "f32") == "0x7fc00000"
    assert float_literal(-math.inf, "f64") == "0xfff0000000000000"
    assert float_literal(1e6, "f16") == "0x7c00"
    assert float_literal(math.inf, "bf16") == "0x7f80"
    with pytest.raises(ValueError):
        float_literal(1.0, "i32")


def _bytes(values, fmt):
    return b"".join(struct.pack(fmt, v) for v in values)


@pytest.mark.parametrize("dt,fmt", [("f64", "<d"), ("f32", "<f"), ("f16", "<e"),
                                    ("bf16", None)])
def test_literals_parse_back_to_the_value(dt, fmt):
    # Each literal in a dense constant; mlir-opt prints the parsed elements
    # as hex bytes, compared with Python's own rounding of the value (struct;
    # bf16: the upper half of the f32 bits, rounded to nearest even, NaN kept
    # quiet).
    values = [v for v in VALUES if not (dt == "f16" and abs(v) > 65504 and
                                        math.isfinite(v))]
    lits = ", ".join(float_literal(v, dt) for v in values)
    text = (f"func.func @f() -> tensor<{len(values)}x{dt}> {{\n"
            f"  %c = arith.constant dense<[{lits}]> : tensor<{len(values)}x{dt}>\n"
            f"  return %c : tensor<{len(values)}x{dt}>\n}}\n")
    out = subprocess.run([MLIR_OPT, "--mlir-print-elementsattrs-with-hex-if-larger=1"],
                         input=text, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = bytes.fromhex(re.search(r'dense<"0x([0-9A-F]+)">', out.stdout).group(1))
    if fmt is not None:
        want = _bytes(values, fmt)
    else:
        want = b""
        for v in values:
            bits = struct.unpack("<I", struct.pack("<f", v))[0]
            if math.isnan(v):
                top = 0x7FC0
            else:
                top = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF
            want += struct.pack("<H", top)
    if dt == "f32":  # Python's struct keeps NaN's payload; MLIR's is canonical
        want = want.replace(struct.pack("<f", math.nan), struct.pack("<I", 0x7FC00000))
    assert got == want


def test_types_maps_and_generic_header():
    assert tensor_type((2, 3)) == "tensor<2x3xf32>"
    assert tensor_type((), "i1") == "tensor<i1>"
    assert affine_map(2, ["d1", "d0"]) == "affine_map<(d0, d1) -> (d1, d0)>"
    assert identity_map(1, 2) == "affine_map<(d0, d1) -> (d0)>"
    assert affine_map(0, []) == "affine_map<() -> ()>"
    pool = MapPool()
    assert pool(2, ["d0"]) == "#map0"
    assert pool(2, ["d1"]) == "#map1"
    assert pool(2, ["d0"]) == "#map0"
    assert pool.lines == ["#map0 = affine_map<(d0, d1) -> (d0)>",
                          "#map1 = affine_map<(d0, d1) -> (d1)>"]
    assert (generic_header(["#map0", "#map1"], ["parallel", "reduction"],
                           [("%a", "tensor<4xf32>")], [("%o", "tensor<f32>")])
            == 'linalg.generic {indexing_maps = [#map0, #map1], iterator_types = '
               '["parallel", "reduction"]} ins(%a : tensor<4xf32>) outs(%o : tensor<f32>)')
    assert (generic_header(["#m"], ["parallel"], [], [("%o", "tensor<4xf32>")])
            == 'linalg.generic {indexing_maps = [#m], iterator_types = ["parallel"]} '
               'outs(%o : tensor<4xf32>)')


def test_emitter_writes_ops_mlir_opt_parses():
    # A function body written with Emitter: a fill, a two-result generic
    # (sum and max of a row, maps pooled), a pad; names by the default
    # counter. The text is written out by hand below, then parsed by mlir-opt.
    pool = MapPool()
    em = Emitter()
    t4, t2x4, t2 = tensor_type((4,)), tensor_type((2, 4)), tensor_type((2,))
    e = em.empty(t2)
    z = em.fill("%zero", "f32", e, t2)
    s, m = em.generic("%v", [pool(2, ["d0", "d1"]), pool(2, ["d0"]), pool(2, ["d0"])],
                      ["parallel", "reduction"], [("%x", t2x4)], [(z, t2), (z, t2)],
                      [("%a", "f32"), ("%s", "f32"), ("%m", "f32")],
                      ["%p = arith.addf %s, %a : f32", "%q = arith.maximumf %m, %a : f32"],
                      [("%p", "f32"), ("%q", "f32")])
    assert (s, m) == ("%v#0", "%v#1")
    p = em.pad(em.fresh("v"), "%y", t4, [1], [2], "%zero", "f32", tensor_type((7,)))
    assert (e, z, p) == ("%e1", "%f2", "%v3")
    assert em.ops == 4
    assert em.lines == [
        "  %e1 = tensor.empty() : tensor<2xf32>",
        "  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>",
        '  %v:2 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = '
        '["parallel", "reduction"]} ins(%x : tensor<2x4xf32>) outs(%f2, %f2 : tensor<2xf32>, '
        'tensor<2xf32>) {',
        "  ^bb0(%a: f32, %s: f32, %m: f32):",
        "    %p = arith.addf %s, %a : f32",
        "    %q = arith.maximumf %m, %a : f32",
        "    linalg.yield %p, %q : f32, f32",
        "  } -> (tensor<2xf32>, tensor<2xf32>)",
        "  %v3 = tensor.pad %y low[1] high[2] {",
        "  ^bb0(%i0: index):",
        "    tensor.yield %zero : f32",
        "  } : tensor<4xf32> to tensor<7xf32>"]
    text = "\n".join(pool.lines + [
        "func.func @f(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> "
        "(tensor<2xf32>, tensor<2xf32>, tensor<7xf32>) {",
        "  %zero = arith.constant 0.0 : f32"] + em.lines + [
        f"  return {s}, {m}, {p} : tensor<2xf32>, tensor<2xf32>, tensor<7xf32>", "}", ""])
    out = subprocess.run([MLIR_OPT, "--verify-diagnostics"], input=text,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "linalg.generic" in out.stdout and "tensor.pad" in out.stdout


def test_emitter_names_and_maps_are_the_callers():
    used = []
    em = Emitter(names=lambda base: used.append(base) or f"%{base}_{len(used)}")
    assert em.empty("tensor<f32>", "x") == "%x_1"
    assert em.fill("%c", "f32", "%x_1", "tensor<f32>", "y") == "%y_2"
    assert used == ["x", "y"]
    em.lines = []                                            # write elsewhere
    em.generic("%g", [identity_map(0)] * 2, [], [("%x_1", "tensor<f32>")],
               [("%y_2", "tensor<f32>")], [("%a", "f32"), ("%b", "f32")], [],
               [("%a", "f32")])
    assert "[affine_map<() -> ()>, affine_map<() -> ()>]" in em.lines[0]  # inline maps
    em.lines = []
    em.emit("%a = op\n  region")
    assert em.lines == ["  %a = op", "    region"] and em.ops == 4


def test_import_ckpt_loads_no_extension():
    # The pure-Python modules import from the source tree, with no build.
    import os
    import sys
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = ("import sys; import ckpt, ckpt.zoo, ckpt.mlir_text, ckpt.remat, "
            "ckpt.mlir_runner, ckpt.kernels; "
            "print(sorted(m for m in sys.modules if m.startswith('ckpt._')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": src})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
