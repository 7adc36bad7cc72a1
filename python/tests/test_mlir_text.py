"""ckpt.mlir_text, the syntax the zoo and the PyTorch importer share: float
literals parse back to the value they stand for (checked by mlir-opt, which
prints the parsed constants' bytes), types, maps and the generic header."""

import math
import re
import struct
import subprocess

import pytest

from ckpt.mlir_text import (MapPool, affine_map, float_literal, generic_header,
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
