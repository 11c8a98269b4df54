"""``mma.sync`` register fragments (sm_80+): which lane holds which matrix element.

Every fragment maps the logical operand matrix (row-major, shape as in PTX: A is
M x K, B is K x N, C/D is M x N) to ``laneid`` (the lane of the warp) and ``m``
(PTX's element index i of a_i / b_i / c_i: element i of the thread's registers, low
half first, so 16-bit halves and 8-bit bytes are separate elements).

Formulas (PTX ISA 9.7.14.5.x), with ``g = laneid >> 2`` and ``t = laneid % 4``, are
quoted in each preset's doc. Each is a bit permutation of the element index, so each
fragment is a single :class:`~tilelayout.TileLayout`: every logical dimension is split
into digits that go to lane or register bits (see :mod:`.digits`).

>>> from tilelayout import presets
>>> str(presets.get("mma.m16n8k16.C").layout)
'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .digits import Digit, digits_layout
from .registry import Param, PresetLayout, register

F16 = ("float16", "bfloat16")
I8 = ("int8", "uint8", "e4m3", "e5m2")


@dataclass(frozen=True)
class Fragment:
    """One operand fragment: per-dimension digits, the PTX formula and its sources."""

    rows: tuple[Digit, ...]
    cols: tuple[Digit, ...]
    formula: str
    ptx: str
    cute: str


def _lane(extent: int, stride: int) -> Digit:
    return (extent, stride, "laneid")


def _reg(extent: int, stride: int) -> Digit:
    return (extent, stride, "m")


# C/D of every m16n8kK shape: row = g + 8*(i>>1), col = 2t + (i&1)
_C = Fragment(
    rows=(_reg(2, 2), _lane(8, 4)),
    cols=(_lane(4, 1), _reg(2, 1)),
    formula="row = g for i < 2 else g + 8;  col = 2t + (i & 1)",
    ptx="PTX ISA 9.7.14.5.8 (#warp-level-matrix-fragment-mma-16816-float), "
    "same for m16n8k8 (9.7.14.5.7) and m16n8k32 (9.7.14.5.10)",
    cute="CuTe SM80_16x8_Row = ((4,8),(2,2)):((32,1),(16,8)) (CLayout, index = m + 16 n)",
)

#: (shape, operand, dtype family) -> fragment
FRAGMENTS: MappingProxyType[tuple[str, str, str], Fragment] = MappingProxyType({
    ("m16n8k16", "A", "16bit"): Fragment(
        rows=(_reg(2, 2), _lane(8, 4)),
        cols=(_reg(2, 4), _lane(4, 1), _reg(2, 1)),
        formula="row = g for i in {0,1,4,5} else g + 8;  col = 2t + (i & 1) + (8 if i >= 4)",
        ptx="PTX ISA 9.7.14.5.8 (#warp-level-matrix-fragment-mma-16816-float)",
        cute="CuTe SM80_16x8x16_F32F16F16F32_TN ALayout ((4,8),(2,2,2)):((32,1),(16,8,128))",
    ),
    ("m16n8k16", "B", "16bit"): Fragment(
        rows=(_reg(2, 2), _lane(4, 1), _reg(2, 1)),
        cols=(_lane(8, 4),),
        formula="row = 2t + (i & 1) + (8 if i >= 2);  col = g",
        ptx="PTX ISA 9.7.14.5.8 (#warp-level-matrix-fragment-mma-16816-float)",
        cute="CuTe SM80_16x8x16_F32F16F16F32_TN BLayout ((4,8),(2,2)):((16,1),(8,64)) (N x K)",
    ),
    ("m16n8k16", "A", "8bit"): Fragment(
        rows=(_reg(2, 4), _lane(8, 4)),
        cols=(_lane(4, 1), _reg(4, 1)),
        formula="row = g for i < 4 else g + 8;  col = 4t + (i & 3)",
        ptx="PTX ISA 9.7.14.5.9 (m16n8k16 .s8/.u8/.e4m3/.e5m2)",
        cute="CuTe SM80_16x8x16_S32S8S8S32_TN ALayout ((4,8),(4,2)):((64,1),(16,8))",
    ),
    ("m16n8k16", "B", "8bit"): Fragment(
        rows=(_lane(4, 1), _reg(4, 1)),
        cols=(_lane(8, 4),),
        formula="row = 4t + i;  col = g",
        ptx="PTX ISA 9.7.14.5.9 (m16n8k16 .s8/.u8/.e4m3/.e5m2)",
        cute="CuTe SM80_16x8x16_S32S8S8S32_TN BLayout SM80_8x16_Row = ((4,8),4):((32,1),8)",
    ),
    ("m16n8k8", "A", "16bit"): Fragment(
        rows=(_reg(2, 2), _lane(8, 4)),
        cols=(_lane(4, 1), _reg(2, 1)),
        formula="row = g for i < 2 else g + 8;  col = 2t + (i & 1)",
        ptx="PTX ISA 9.7.14.5.7 (#warp-level-matrix-fragment-mma-1688)",
        cute="CuTe SM80_16x8x8_F32F16F16F32_TN ALayout SM80_16x8_Row = ((4,8),(2,2)):((32,1),(16,8))",
    ),
    ("m16n8k8", "B", "16bit"): Fragment(
        rows=(_lane(4, 1), _reg(2, 1)),
        cols=(_lane(8, 4),),
        formula="row = 2t + i;  col = g",
        ptx="PTX ISA 9.7.14.5.7 (#warp-level-matrix-fragment-mma-1688)",
        cute="CuTe SM80_16x8x8_F32F16F16F32_TN BLayout SM80_8x8_Row = ((4,8),2):((16,1),8)",
    ),
    ("m16n8k8", "A", "tf32"): Fragment(
        rows=(_reg(2, 1), _lane(8, 4)),
        cols=(_reg(2, 2), _lane(4, 1)),
        formula="row = g for i in {0,2} else g + 8;  col = t for i in {0,1} else t + 4",
        ptx="PTX ISA 9.7.14.5.7 (#warp-level-matrix-fragment-mma-1688, .tf32)",
        cute="CuTe SM80_16x8x8_F32TF32TF32F32_TN ALayout ((4,8),(2,2)):((16,1),(8,64))",
    ),
    ("m16n8k8", "B", "tf32"): Fragment(
        rows=(_reg(2, 1), _lane(4, 1)),
        cols=(_lane(8, 4),),
        formula="row = t + 4i;  col = g",
        ptx="PTX ISA 9.7.14.5.7 (#warp-level-matrix-fragment-mma-1688, .tf32)",
        cute="CuTe SM80_16x8x8_F32TF32TF32F32_TN BLayout ((4,8),2):((8,1),32)",
    ),
    ("m16n8k32", "A", "8bit"): Fragment(
        rows=(_reg(2, 4), _lane(8, 4)),
        cols=(_reg(2, 8), _lane(4, 1), _reg(4, 1)),
        formula="row = g for i in [0,4) or [8,12) else g + 8;  col = 4t + (i & 3) + (16 if i >= 8)",
        ptx="PTX ISA 9.7.14.5.10 (#warp-level-matrix-fragment-mma-16832)",
        cute="CuTe SM80_16x8x32_S32S8S8S32_TN / SM89_16x8x32_F32E4M3E4M3F32_TN ALayout "
        "((4,8),(4,2,2)):((64,1),(16,8,256))",
    ),
    ("m16n8k32", "B", "8bit"): Fragment(
        rows=(_reg(2, 4), _lane(4, 1), _reg(4, 1)),
        cols=(_lane(8, 4),),
        formula="row = 4t + (i & 3) + (16 if i >= 4);  col = g",
        ptx="PTX ISA 9.7.14.5.10 (#warp-level-matrix-fragment-mma-16832)",
        cute="CuTe SM80_16x8x32_S32S8S8S32_TN BLayout ((4,8),(4,2)):((32,1),(8,128))",
    ),
})

#: shape -> (M, N, K, A/B dtypes, C dtypes)
SHAPES: MappingProxyType[str, tuple[int, int, int, tuple[str, ...], tuple[str, ...]]] = MappingProxyType({
    "m16n8k16": (16, 8, 16, F16 + I8, ("float32", "float16", "int32")),
    "m16n8k8": (16, 8, 8, F16 + ("tfloat32",), ("float32", "float16")),
    "m16n8k32": (16, 8, 32, I8, ("float32", "float16", "int32")),
})


def dtype_family(dtype: str) -> str:
    """``16bit`` / ``tf32`` / ``8bit``: which fragment table a dtype selects.

    >>> dtype_family("bfloat16"), dtype_family("e4m3")
    ('16bit', '8bit')
    """
    if dtype in F16:
        return "16bit"
    if dtype == "tfloat32":
        return "tf32"
    return "8bit"


def fragment(shape: str, operand: str, dtype: str) -> Fragment:
    """The fragment of ``operand`` (A, B or C) of ``mma.<shape>`` for ``dtype``."""
    if operand == "C":
        return _C
    return FRAGMENTS[(shape, operand, dtype_family(dtype))]


def operand_shape(shape: str, operand: str) -> tuple[int, int]:
    """Logical (rows, cols) of an operand: A = (M, K), B = (K, N), C = (M, N).

    >>> operand_shape("m16n8k32", "B")
    (32, 8)
    """
    m, n, k, _, _ = SHAPES[shape]
    return {"A": (m, k), "B": (k, n), "C": (m, n)}[operand]


_OPERAND_TEXT = MappingProxyType({
    "A": "operand A registers (a_i), logical M x K",
    "B": "operand B registers (b_i), logical K x N (not CuTe's N x K)",
    "C": "accumulator C/D registers (c_i / d_i), logical M x N",
})


def _doc(shape: str, operand: str) -> str:
    m, n, k, ab, cd = SHAPES[shape]
    dtypes = cd if operand == "C" else ab
    lines = [
        f"``mma.sync.aligned.{shape}`` {_OPERAND_TEXT[operand]}: lane and register of every "
        "element.",
        "",
        f"Hardware object: the per-thread registers of one warp executing "
        f"mma.sync.aligned.{shape}.row.col; logical shape {operand_shape(shape, operand)}, "
        "row-major. ``laneid`` is the lane, ``m`` is PTX's element index i "
        "(16-bit halves and 8-bit bytes of a register counted separately, low first).",
        f"dtype: {', '.join(dtypes)}."
        + ("" if operand == "C" else " The mapping depends only on the element width class "
           "(16-bit, tf32, 8-bit)."),
        "",
        "Formula (g = laneid >> 2, t = laneid % 4):",
    ]
    seen = set()
    for d in dtypes:
        frag = fragment(shape, operand, d)
        if frag.formula in seen:
            continue
        seen.add(frag.formula)
        fam = "all dtypes" if operand == "C" else dtype_family(d)
        lines.append(f"  [{fam}] {frag.formula}")
    sources = sorted({fragment(shape, operand, d).ptx for d in dtypes})
    cutes = sorted({fragment(shape, operand, d).cute for d in dtypes})
    lines += ["", "Source: " + "; ".join(sources) + ".",
              "Cross-check: " + "; ".join(cutes) + " (tests evaluate both)."]
    return "\n".join(lines)


def _make(shape: str, operand: str) -> None:
    m, n, k, ab, cd = SHAPES[shape]
    dtypes = cd if operand == "C" else ab

    def build(dtype: str) -> PresetLayout:
        frag = fragment(shape, operand, dtype)
        return PresetLayout(digits_layout(frag.rows, frag.cols), operand_shape(shape, operand),
                     dtype=dtype)

    dtype_param = Param(
        "dtype", "choice", dtypes[0], dtypes, required=operand != "C",
        doc="element type" + (" (accumulator)" if operand == "C" else ""),
    )
    register(
        f"mma.{shape}.{operand}",
        summary=f"mma.sync {shape} {operand} fragment: {operand_shape(shape, operand)} "
        "-> laneid, m",
        source=fragment(shape, operand, dtypes[0]).ptx,
        params=[dtype_param],
        doc=_doc(shape, operand),
    )(build)


for _shape in SHAPES:
    for _operand in ("A", "B", "C"):
        _make(_shape, _operand)
