"""A conversion plan as Gluon: ``ConversionPlan.code(lang="gluon")`` (SPEC section 8).

For a plan that stages through shared memory the module holds a ``@gluon.jit`` function
``NAME(x)`` that allocates the tile in the plan's own shared layout -- converted by
:func:`~tilelayout.interop.triton.to_gluon` to ``NVMMASharedLayout``,
``SwizzledSharedLayout`` or ``SharedLinearLayout`` -- stores ``x`` into it and loads it
back in the destination layout (Triton picks the store and load instructions for those
layouts). A shared-memory side is the tile itself (``NAME(x)`` returns it, or
``NAME(smem)`` loads it); a TMA store ends with ``fence_async_shared`` and
``tma.async_store``. A plan that stays in registers has no Gluon spelling (Gluon has no
shuffle primitive): ``NAME`` is ``ttgl.convert_layout`` and its docstring says what
Triton does instead and what the plan does. Plans between devices have no code.

The layouts are module-level ``ttgl.constexpr`` values named after the function
(``NAME_SRC_LAYOUT``, ``NAME_DST_LAYOUT``, ``NAME_SMEM_LAYOUT``), so a kernel builds its
tensors with them. Needs Triton (``pip install 'tilelayout[triton]'``).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
...                        "float16")
>>> text = gluon_conversion(p, "transpose")
>>> "def transpose(x):" in text and "allocate_shared_memory" in text
True
"""

from __future__ import annotations

from types import MappingProxyType

from ..core.compose import Layout
from ..planning.code.program import program_of
from . import InteropError, require
from .triton import to_gluon

#: our dtype names -> Gluon's
GLUON_DTYPES = MappingProxyType({
    "float32": "float32", "float": "float32", "fp32": "float32", "float16": "float16",
    "half": "float16", "fp16": "float16", "bfloat16": "bfloat16", "bf16": "bfloat16",
    "e4m3": "float8e4nv", "float8": "float8e4nv", "float8_e4m3": "float8e4nv",
    "e5m2": "float8e5", "float8_e5m2": "float8e5", "int8": "int8", "uint8": "uint8",
    "int16": "int16", "int32": "int32", "uint32": "uint32", "float64": "float64",
    "double": "float64", "int64": "int64",
})
_HOPPER = "from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, tma"


def _spelled(layout: Layout, shape: list[int], imports: dict[str, None]) -> str:
    """The Gluon object equal to ``layout`` as Python source (its imports collected)."""
    obj = to_gluon(layout, shape)
    text = require("tilelayout.interop.gluon", "triton", "the Gluon helper of a plan").gluon_code(
        obj, "x")
    lines = text.splitlines()
    for line in lines[:-1]:
        imports[line] = None
    return lines[-1].split(" = ", 1)[1]


def _smem_layout(plan) -> Layout | None:
    """The shared-memory tile the plan stages through, as a layout of the whole tile (a
    staging in passes: the pass bits above the buffer's, one tile of them all)."""
    if plan.src.axes and set(plan.src.axes) == {"m"}:
        return plan.src
    if plan.smem is not None and plan.smem.layout is not None:
        return plan.smem.layout
    return None


def gluon_conversion(plan, name: str = "convert") -> str:
    """The Gluon module of ``plan`` (see the module doc)."""
    if not name.isidentifier():
        raise ValueError(f"expected a Python identifier for the function name, got {name!r}")
    prog = program_of(plan)
    shape = [int(s) for s in plan.shape]
    imports: dict[str, None] = {"from triton.experimental import gluon": None,
                                "from triton.experimental.gluon import language as ttgl": None}
    up = name.upper()
    consts: list[str] = []
    if not prog.src_shared:
        consts += [f"#: the source registers' layout (the tensor {name} takes)",
                   f"{up}_SRC_LAYOUT = ttgl.constexpr({_spelled(plan.src, shape, imports)})"]
    if not prog.dst_shared:
        consts += [f"#: the destination registers' layout (the tensor {name} returns)",
                   f"{up}_DST_LAYOUT = ttgl.constexpr({_spelled(plan.dst, shape, imports)})"]
    smem = _smem_layout(plan) if prog.staging is not None else None
    if prog.staging is not None and smem is not None and (prog.staging.passes == 1 or
                                                          plan._bits is not None):
        consts += [f"#: the shared-memory tile: the plan's layout {smem}",
                   f"{up}_SMEM_LAYOUT = ttgl.constexpr({_spelled(smem, shape, imports)})"]
        body = _staged(plan, prog, name, shape, imports)
    else:
        body = _in_registers(plan, prog, name)
    head = [f'"""{plan.src}  ->  {plan.dst}: a {"x".join(map(str, shape))} {plan.dtype} tile on '
            f"{plan.target}, as planned by tilelayout ({plan.kind} exchange, {prog.mechanism}).",
            ""] + [f"{i + 1}. {s.text}" for i, s in enumerate(plan.stages)] + ['"""', ""]
    return "\n".join(head + list(imports) + [""] + consts + ["", ""] + body) + "\n"


def _cast(plan, prog) -> list[str]:
    if prog.conversion is None:
        return []
    return [f"    x = x.to(ttgl.{GLUON_DTYPES[plan.dtype.lower()]})  # "
            f"{prog.conversion.instruction}, packed pairs"]


def _staged(plan, prog, name: str, shape: list[int], imports: dict[str, None]) -> list[str]:
    up = name.upper()
    c = plan.costs
    cost = (f"{c.get('store_requests', 0)} store and {c.get('load_requests', 0)} load "
            f"request(s), {c.get('wavefronts', 0)} wavefronts, {prog.smem_bytes} bytes")
    if prog.src_shared:
        return ["@gluon.jit", f"def {name}(smem):",
                f'    """Load the shared-memory tile ``smem`` (laid out as {up}_SMEM_LAYOUT; '
                f"a TMA load writes it with that layout) in {up}_DST_LAYOUT: the plan's "
                f'{cost}."""',
                f"    return smem.load({up}_DST_LAYOUT)"]
    alloc = f"ttgl.allocate_shared_memory(x.dtype, {shape}, {up}_SMEM_LAYOUT, x)"
    if prog.tma is not None:
        imports[_HOPPER] = None
        coords = ", ".join(f"origin{d}" for d in range(len(shape)))
        return ["@gluon.jit", f"def {name}(x, desc, {coords}):",
                f'    """Store ``x`` ({up}_SRC_LAYOUT) into a shared-memory tile laid out as '
                f"{up}_SMEM_LAYOUT (the plan's {cost}), then TMA-store it at ({coords}); "
                f"``desc``: a tensor descriptor of the global tensor with block {shape} and "
                f'layout {up}_SMEM_LAYOUT."""',
                *_cast(plan, prog), f"    smem = {alloc}", "    fence_async_shared()",
                f"    tma.async_store(desc, [{coords}], smem)", "    tma.store_wait(0)"]
    if prog.dst_shared:
        return ["@gluon.jit", f"def {name}(x):",
                f'    """Store ``x`` ({up}_SRC_LAYOUT) into a shared-memory tile laid out as '
                f"the destination ({up}_SMEM_LAYOUT) and return it: the plan's {cost}."
                f'"""', *_cast(plan, prog), f"    return {alloc}"]
    return ["@gluon.jit", f"def {name}(x):",
            f'    """``x`` ({up}_SRC_LAYOUT) in {up}_DST_LAYOUT, through a shared-memory tile '
            f"laid out as the plan chose ({up}_SMEM_LAYOUT): the plan's {cost}"
            + (f" in {prog.staging.passes} passes (here the whole tile at once)"
               if prog.staging.passes > 1 else "") + '."""',
            *_cast(plan, prog), f"    smem = {alloc}", f"    return smem.load({up}_DST_LAYOUT)"]


def _in_registers(plan, prog, name: str) -> list[str]:
    up = name.upper()
    c = plan.costs
    if prog.exchange is None and prog.transpose is None:
        what = (f"stages in {prog.staging.passes} passes through a buffer Gluon cannot "
                f"allocate pass by pass" if prog.staging is not None else "has no tile")
    elif prog.mechanism == "none":
        what = "moves nothing: every thread already holds its elements"
    else:
        what = (f"stays in registers: {c.get('shuffle_instructions', c.get('shuffle_rounds', 0))} "
                f"shfl.sync, {c.get('shuffle_selects', 0)} selects and "
                f"{c.get('byte_permutes', c.get('shuffle_packs', 0))} byte permutes per warp")
    return ["@gluon.jit", f"def {name}(x):",
            f'    """``x`` ({up}_SRC_LAYOUT) in {up}_DST_LAYOUT. The plan {what}; Gluon has no '
            "shuffle primitive to spell that, so ttgl.convert_layout lets Triton lower it "
            "its own way (registers when nothing crosses threads, warp shuffles when its "
            "analysis finds them, else a staging through shared memory). "
            f'ConversionPlan.code(lang="cuda") is the plan\'s own code."""',
            *_cast(plan, prog), f"    return ttgl.convert_layout(x, {up}_DST_LAYOUT)"]


def gluon_dtype(dtype: str) -> str:
    """Gluon's name of ``dtype`` (``ttgl.<name>``).

    >>> gluon_dtype("e4m3")
    'float8e4nv'
    """
    try:
        return GLUON_DTYPES[dtype.lower()]
    except KeyError:
        raise InteropError(f"no Gluon dtype for {dtype!r}") from None




__all__ = ["GLUON_DTYPES", "gluon_conversion", "gluon_dtype"]
