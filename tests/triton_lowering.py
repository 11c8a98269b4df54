"""Triton's own lowering of Gluon layout objects (Gluon's ``to_linear_layout``, on the
CPU), the reference the Triton, AMD and Gluon tests compare with. Import it after
``pytest.importorskip("triton.experimental.gluon")``: Triton is the optional extra."""

from __future__ import annotations

import tempfile

from triton._C.libtriton import gluon_ir, ir, passes

_CTX = ir.context()
ir.load_dialects(_CTX)
_BUILDER = gluon_ir.GluonOpBuilder(_CTX)


def lowered(obj, shape):
    """Triton's linear layout of Gluon layout object ``obj`` over ``shape``."""
    return _BUILDER.to_linear_layout(obj._to_ir(_BUILDER), list(shape))


def trim(vectors):
    """Trailing zero memory bases: padding past the last element (the allocation's size),
    which our layouts do not carry (docs/interop/triton.md)."""
    out = list(vectors)
    while out and not any(out[-1]):
        out.pop()
    return out


def triton_bases(obj, shape) -> dict[str, list[list[int]]]:
    """Triton's lowering of a Gluon layout: its non-empty bases per input dimension
    (``offset`` for a shared layout, ``row``/``col`` for tensor memory, ``register``,
    ``lane``, ``warp``, ``block`` for a distributed one)."""
    ll = lowered(obj, shape)
    if hasattr(ll, "offset_bases"):
        return {"offset": trim(ll.offset_bases)}
    if hasattr(ll, "rows"):
        return {k: v for k, v in (("row", ll.rows), ("col", trim(ll.cols))) if v}
    out = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases,
           "block": ll.block_bases}
    return {k: [list(v) for v in vs] for k, vs in out.items() if vs}


def accelerate_matmul(ttgir: str) -> str:
    """Triton's accelerate-matmul pass on a TritonGPU module (text): the module it writes,
    whose MMA and operand layouts the dtype and scale tests read."""
    ctx = ir.context()
    ir.load_dialects(ctx)
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir") as f:
        f.write(ttgir)
        f.flush()
        mod = ir.parse_mlir_module(f.name, ctx)
    mod.context = ctx
    pm = ir.pass_manager(ctx)
    passes.ttgpuir.add_accelerate_matmul(pm)
    pm.run(mod, "accelerate_matmul")
    return str(mod)
