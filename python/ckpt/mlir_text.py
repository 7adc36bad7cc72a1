"""MLIR text: the syntax the package's step writers share.

`ckpt.zoo` (training steps derived by hand) and `ckpt.torch_import` (traced
PyTorch modules) both write MLIR as text. The syntax they have in common lives
here once: element types and their sizes, tensor types, float literals that
parse back to the same value, affine maps (inline, or pooled as `#mapN`
aliases), and the header of a `linalg.generic`. Only the standard library.
"""

import math
import struct

#: Bytes per element of the element types the writers use.
ELEMENT_BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4,
                 "i16": 2, "i8": 1, "i1": 1}

_FLOATS = ("f64", "f32", "f16", "bf16")

# NaN, +inf and -inf of each float type, as the bit patterns MLIR prints.
_SPECIAL = {"f32": (0x7FC00000, 0x7F800000, 0xFF800000),
            "f64": (0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000),
            "f16": (0x7E00, 0x7C00, 0xFC00),
            "bf16": (0x7FC0, 0x7F80, 0xFF80)}


def is_float(dt):
    return dt in _FLOATS


def numel(shape):
    return math.prod(shape)


def tensor_type(shape, dt="f32"):
    """`tensor<2x3xf32>`; `tensor<f32>` for rank 0."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"


def _round(v, dt):
    """`v` rounded to the nearest value of `dt` (to nearest, ties to even)."""
    if dt == "f64":
        return v
    if dt == "f32":
        try:
            return struct.unpack("<f", struct.pack("<f", v))[0]
        except OverflowError:   # beyond float32's range (finfo(float64).min)
            return math.copysign(math.inf, v)
    if dt == "f16":
        try:
            return struct.unpack("<e", struct.pack("<e", v))[0]
        except OverflowError:
            return math.copysign(math.inf, v)
    # bf16: the upper half of the f32 bits, rounded to nearest even.
    bits = struct.unpack("<I", struct.pack("<f", _round(v, "f32")))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def float_literal(v, dt="f32"):
    """The shortest decimal that parses back to `v` rounded to `dt`, with a
    '.' in its mantissa (MLIR reads `1e-05` as an integer and an identifier:
    `1.0e-05`). NaN and infinities (also a finite value that rounds to one)
    are the type's bit pattern in hexadecimal, which is how MLIR spells
    them."""
    if dt not in _FLOATS:
        raise ValueError(f"not a float type: {dt}")
    x = _round(float(v), dt)
    if math.isnan(x) or math.isinf(x):
        bits = _SPECIAL[dt]
        return hex(bits[0] if math.isnan(x) else bits[1] if x > 0 else bits[2])
    if dt == "f64":
        text = repr(x)
    else:
        text = next(t for t in (f"{x:.{p}g}" for p in range(1, 18))
                    if _round(float(t), dt) == x)
    mantissa, e, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + e + exponent


def affine_map(ndims, exprs):
    """`affine_map<(d0, d1) -> (d1, d0)>` over `ndims` dims."""
    dims = ", ".join(f"d{i}" for i in range(ndims))
    return f"affine_map<({dims}) -> ({', '.join(exprs)})>"


def identity_map(rank, ndims=None):
    """The map of the first `rank` of `ndims` (default `rank`) dims."""
    return affine_map(rank if ndims is None else ndims,
                      [f"d{i}" for i in range(rank)])


class MapPool:
    """Affine maps by alias: each distinct map becomes `#mapN = ...` once
    (`lines`, to be written before the module) and is referred to as
    `#mapN`."""

    def __init__(self):
        self.aliases = {}
        self.lines = []

    def __call__(self, ndims, exprs):
        text = affine_map(ndims, exprs)
        if text not in self.aliases:
            self.aliases[text] = f"#map{len(self.aliases)}"
            self.lines.append(f"{self.aliases[text]} = {text}")
        return self.aliases[text]


def generic_header(maps, iterators, ins, outs):
    """`linalg.generic {indexing_maps = [...], iterator_types = [...]}
    ins(...) outs(...)` without the results and the region: `ins` and `outs`
    are (SSA name, type) pairs; `ins` may be empty."""
    its = ", ".join(f'"{i}"' for i in iterators)
    text = (f"linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{its}]}}")

    def operands(keyword, pairs):
        return (f"{keyword}({', '.join(n for n, _ in pairs)} : "
                f"{', '.join(t for _, t in pairs)})")

    if ins:
        text += " " + operands("ins", ins)
    return text + " " + operands("outs", outs)


class Emitter:
    """The op writer of one function body, shared by the zoo's tape and the
    PyTorch importer: SSA names, `tensor.empty`, `linalg.fill`,
    `linalg.generic`, `tensor.pad` and any other op as text, each indented
    as `mlir-opt` prints it. Values are SSA names and types are type text:
    the callers keep their own notion of a value (the tape's `Value`, the
    importer's typed views).

    `names(base)` returns a new SSA name (default: `%<base><n>`, n counting
    every name). Affine maps are passed in as text: `affine_map` inline, or a
    `MapPool`'s aliases. `lines` may be swapped to write into another list
    (the zoo writes the forward and the backward apart); `ops` counts the
    ops written. While `loc` is a name, each op written is located there:
    `loc("NAME")` after its text (the PyTorch importer names the FX node an
    op comes from)."""

    def __init__(self, names=None):
        self.lines = []
        self.ops = 0
        self.loc = None
        self._names = names
        self._count = 0

    def fresh(self, base):
        if self._names is not None:
            return self._names(base)
        self._count += 1
        return f"%{base}{self._count}"

    def emit(self, text):
        """One op; its text may span several lines (regions)."""
        if self.loc is not None:
            text += f' loc("{self.loc}")'
        self.lines.extend("  " + line for line in text.split("\n"))
        self.ops += 1

    def empty(self, type_, base="e"):
        name = self.fresh(base)
        self.emit(f"{name} = tensor.empty() : {type_}")
        return name

    def fill(self, scalar, dt, init, type_, base="f"):
        """`linalg.fill` of `init` (of type `type_`) with the SSA scalar."""
        name = self.fresh(base)
        self.emit(f"{name} = linalg.fill ins({scalar} : {dt}) "
                  f"outs({init} : {type_}) -> {type_}")
        return name

    def generic(self, name, maps, iterators, ins, outs, args, body, yields):
        """A `linalg.generic` named `name` (`%v`, or `%v:2` written for two
        results). `maps` are map texts (inputs then outputs); `ins`/`outs`
        are (SSA, type) pairs; `args` are the block's (name, scalar type);
        `body` its ops as lines; `yields` the yielded (SSA, scalar type).
        Returns the result references (`%v`, or `%v#0`, `%v#1`)."""
        header = generic_header(maps, iterators, ins, outs)
        lhs = name if len(outs) == 1 else f"{name}:{len(outs)}"
        rtypes = outs[0][1] if len(outs) == 1 else \
            "(" + ", ".join(t for _, t in outs) + ")"
        text = [f"{lhs} = {header} {{",
                "^bb0(" + ", ".join(f"{a}: {t}" for a, t in args) + "):"]
        text += ["  " + line for line in body]
        text.append(f"  linalg.yield {', '.join(v for v, _ in yields)} : "
                    + ", ".join(t for _, t in yields))
        text.append(f"}} -> {rtypes}")
        self.emit("\n".join(text))
        return [name] if len(outs) == 1 else [f"{name}#{k}" for k in range(len(outs))]

    def pad(self, name, src, src_type, low, high, value, dt, type_, arg="%i"):
        """`tensor.pad` of `src` by `low`/`high` with the SSA scalar
        `value`; the block's index arguments are `<arg>0`, `<arg>1`, ..."""
        idx = ", ".join(f"{arg}{i}: index" for i in range(len(low)))
        self.emit(f"{name} = tensor.pad {src} low{list(low)} high{list(high)} {{\n"
                  f"^bb0({idx}):\n  tensor.yield {value} : {dt}\n"
                  f"}} : {src_type} to {type_}")
        return name
