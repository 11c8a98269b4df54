"""The PTX opcodes the shared-memory replay (:mod:`.ptx_replay`) knows, each with what
the replay does with it. Every other opcode is refused with :class:`.ptx_text.ReplayError`
naming it: an instruction the replay has not been taught is an error, never a guess at
what it might do to an address or a count.

The list is every opcode Triton 3.9 emits in the scenario kernels and in the
differential harness's ``convert`` kernels (tests/planning/triton), with the other
widths of the same integer operations (PTX ISA, "Integer Arithmetic Instructions",
"Logic and Shift Instructions", "Data Movement and Conversion Instructions"):

* ``INTEGER``: evaluated over threads when every source is known (:mod:`.ptx_integer`);
  of data, the result is data;
* ``DATA``: the result is data (global / parameter loads, float conversions);
* ``SHARED``: shared-memory accesses, costed (``ld`` / ``st.shared``, ``ldmatrix`` /
  ``stmatrix``);
* ``EXCHANGE``: ``shfl.sync`` (counted on data, evaluated on thread indices);
* ``SYNC``: barriers (counted), TMA and proxy fences (counted by kind), and instructions
  that write nothing the replay needs (global stores, ``ret``); ``elect.sync`` elects
  lane 0.

>>> kind("add.s64"), kind("ld.global.b8"), kind("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
('integer', 'data', 'shared')
>>> kind("mul.hi.u32"), kind("bar.sync"), kind("barrier.sync.aligned") is None
('integer', 'sync', True)
"""

from __future__ import annotations

import re

_I = r"(?:8|16|32|64)"
_FLOAT = r"(?:f16x2|bf16x2|f16|bf16|f32|f64|tf32|e4m3x2|e5m2x2|[bsu]" + _I + ")"
_CACHE = r"(?:\.(?:nc|ca|cg|cs|lu|cv|wb|wt|L1::\w+|L2::\w+))*"

#: kind -> the opcodes of that kind (full matches)
OPCODES: dict[str, tuple[str, ...]] = {
    "integer": (
        rf"(?:add|sub)\.[su]{_I}", rf"mul\.(?:lo|hi|wide)\.[su]{_I}",
        rf"mad\.(?:lo|wide)\.[su]{_I}", rf"shl\.b{_I}", rf"shr\.[bsu]{_I}",
        rf"(?:and|or|xor|not)\.(?:b{_I}|pred)", rf"neg\.s{_I}", rf"(?:min|max)\.[su]{_I}",
        r"bfe\.[su](?:32|64)", r"bfi\.b(?:32|64)", r"lop3\.b32", r"prmt\.b32",
        rf"cvt\.[su]{_I}\.[su]{_I}", r"cvta(?:\.to)?\.(?:param|shared|global|local)\.u(?:32|64)",
        rf"setp\.(?:eq|ne|lt|le|gt|ge|lo|ls|hi|hs)\.[bsu]{_I}", rf"selp\.[bsu]{_I}",
        rf"mov\.(?:pred|[bsu]{_I})",
    ),
    "data": (
        rf"ld\.(?:global|param|const){_CACHE}(?:\.v[248])?\.[bsuf]{_I}",
        rf"cvt(?:\.(?:rn|rz|rm|rp|rna|satfinite|relu|sat|ftz))*\.{_FLOAT}\.{_FLOAT}",
    ),
    "shared": (
        rf"(?:ld|st)\.shared(?:::cta)?(?:\.v[248])?\.[bsuf]{_I}",
        r"(?:ldmatrix|stmatrix)\.sync\.aligned\.(?:m8n8|m16n16)\.x[124](?:\.trans)?"
        r"(?:\.shared(?:::cta)?)?\.b(?:8|16)",
    ),
    "exchange": (r"shfl\.sync\.(?:idx|bfly|up|down)\.b32",),
    "sync": (
        r"bar\.sync", r"bar\.warp\.sync", r"ret", r"exit",
        rf"st\.global{_CACHE}(?:\.v[248])?\.[bsuf]{_I}",
        r"fence\.proxy\.async\.shared::cta", r"elect\.sync",
        r"cp\.async\.bulk\.tensor\.[1-5]d\.global\.shared::cta\.bulk_group",
        r"cp\.async\.bulk\.commit_group", r"cp\.async\.bulk\.wait_group(?:\.read)?",
    ),
}

_COMPILED = {k: re.compile("|".join(f"(?:{p})" for p in v)) for k, v in OPCODES.items()}


def kind(op: str) -> str | None:
    """The kind of a known opcode (see the module doc); ``None`` for an unknown one."""
    for k, pattern in _COMPILED.items():
        if pattern.fullmatch(op):
            return k
    return None
