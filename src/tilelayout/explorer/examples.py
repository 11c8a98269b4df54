"""Small teaching examples offered by the explorer next to the preset registry.

Each example is plain data (layout text, shape, dtype, swizzle mode) so the page can
load it exactly as a user would type it.

>>> get("tensor-core tile").shape
(8, 16)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.axes import AxisTable, current
from ..core.errors import LayoutError


@dataclass(frozen=True)
class Example:
    """One teaching example: what to type into the explorer's fields."""

    name: str
    layout: str
    shape: tuple[int, ...]
    doc: str
    dtype: str | None = None
    swizzle: str = "none"
    color: str | None = None  # preferred colour-by choice ("laneid", "dim:0", "bank", ...)


#: the device axes the 2x2 mesh examples use, named like a JAX mesh's
MESH_AXES = ("x", "y")


def example_axes() -> AxisTable:
    """The table in force plus the examples' mesh axes: pass it (``parse(text,
    axes=example_axes())``) or put it in force for a block.

    >>> import tilelayout as tl
    >>> with example_axes():
    ...     tl.parse(get("2x2 device mesh").layout).axes
    ('x', 'm', 'y')
    """
    return current().with_axes(*MESH_AXES)

EXAMPLES: tuple[Example, ...] = (
    Example("shard to lanes", "S[(4,8):(8@laneid,1@laneid)]", (4, 8),
            "32 elements, one per lane of a warp: lane = 8*i + j.", color="laneid"),
    Example("shard + registers", "S[(8,4,2):(4@laneid,1@laneid,1)]", (8, 8),
            "An 8x8 tile over one warp, two register slots (m) per lane: "
            "lane = 4*i + j//2, m = j%2 (the mma C pattern).", color="laneid"),
    Example("shard + replica", "S[(8,4):(4@laneid,1@laneid)] + R[4:1@warpid]", (8, 4),
            "Every element lives on all four warps: the replica R[4:1@warpid] "
            "broadcasts the warp-0 placement to warps 1..3.", color="laneid"),
    Example("tensor-core tile",
            "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", (8, 16),
            "The reference document's case study: 2 warps x 32 lanes x 2 registers, "
            "placed on warps {5,6} by the offset and copied to {9,10} by the replica.",
            color="laneid"),
    Example("2x2 device mesh", "S[(2,4,2,4):(1@x,4,1@y,1)]", (8, 8),
            "An 8x8 array sharded over a 2x2 mesh (rows on x, columns on y); "
            "m is the address inside each device's local shard.", color="x"),
    Example("2x2 mesh + replica", "S[(2,4,8):(1@x,8,1)] + R[2:1@y]", (8, 8),
            "Rows sharded over mesh axis x and replicated over y (like PartitionSpec('x', None)).",
            color="x"),
    Example("Trainium SBUF (P x F)", "S[(128,32):(1@P,1@F)]", (128, 32),
            "A 128x32 tile in a Trainium scratchpad: rows on the 128 partitions P, "
            "columns on the free axis F.", color="dim:1"),
    Example("TMEM accumulator (2x128x112)", "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]",
            (2, 128, 112),
            "The reference document's Blackwell tensor-memory case study: "
            "TLane = l, TCol = 112*a + c (224 columns, not a power of two).", color="dim:0"),
    Example("smem 8x64 float16, no swizzle", "S[(8,64):(64,1)]", (8, 64),
            "Row-major float16 tile: one row is one 128-byte bank line, so a column read hits "
            "one bank 8 times (an 8-way conflict). Colour is the bank.",
            dtype="float16", swizzle="none", color="bank"),
    Example("smem 8x64 float16, 128B swizzle", "S[(8,64):(64,1)]", (8, 64),
            "The same tile with Swizzle(3,3,3): column j=0 lands on banks 0,4,..,28, "
            "no conflict. Colour is the bank.",
            dtype="float16", swizzle="128B", color="bank"),
    Example("smem 8x64 float16, bit-linear XOR swizzle",
            "ComposeLayout(XorSwizzle(1,2,4,8,16,32,96,144,264), S[(8,64):(64,1)])", (8, 64),
            "A swizzle no Swizzle(M,B,S) expresses (Triton's shared linear layouts live in this "
            "family): row bits 0,1,2 flip 16-byte chunk bits 2,1,0, so row r's chunks are XORed "
            "with r bit-reversed. Column 0 still lands on 8 different bank groups: no conflict. "
            "Colour is the bank.", dtype="float16", swizzle="none", color="bank"),
    Example("1-D shard", "S[64:1@laneid]", (64,),
            "64 elements over lanes with stride 1: lanes 32..63 do not exist in one warp "
            "(the mapping is still defined; legality analysis reports it).", color="laneid"),
    Example("extents only", "S[(4,8)]", (4, 8),
            "No strides: row-major compact on memory, m = 8*i + j.", color="dim:0"),
    Example("wgmma 128x256 accumulator",
            "S[(2,4,2,8,32,4,2):(1@wgid,1@wid_in_wg,2,4@laneid,4,1@laneid,1)]", (128, 256),
            "A 128x256 float32 accumulator over two warpgroups (wgmma m64n256 D per warpgroup): "
            "row = 64*wg + 16*warp + 8*h + lane//4, col = 8*c + 2*(lane%4) + e, "
            "register m = e + 2*h + 4*c. 32,768 elements: the benchmark tile.", color="laneid"),
)


def names() -> tuple[str, ...]:
    """Names of the teaching examples, in menu order."""
    return tuple(e.name for e in EXAMPLES)


def get(name: str) -> Example:
    """The teaching example called ``name``.

    >>> get("extents only").layout
    'S[(4,8)]'
    """
    for e in EXAMPLES:
        if e.name == name:
            return e
    raise LayoutError(f"unknown example {name!r}; expected one of {', '.join(names())}")
