"""The named Gluon layouts ``to_gluon`` tries (``interop/gluon_candidates.py``): the guesses
inferred from a layout's Triton bases contain the right class (Triton's lowering confirms
it), and ``to_gluon`` names slices, FMA / WMMA / MFMA dot operands and batched layouts."""

from __future__ import annotations

import itertools

import pytest

from tilelayout import presets
from tilelayout.interop.triton import from_triton, to_gluon, to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from tilelayout.interop.gluon_candidates import (  # noqa: E402
    distributed_candidates,
    swizzled_candidate,
)

from ..triton_lowering import triton_bases  # noqa: E402


def _first_equal(p):
    """The first candidate whose Triton lowering equals the preset, and how many were tried."""
    ours = to_triton_bases(p.layout, p.shape)
    for i, obj in enumerate(distributed_candidates(ours, p.shape, False)):
        try:
            if triton_bases(obj, p.shape) == ours:
                return obj, i + 1
        except Exception:  # noqa: BLE001,S112 (Triton refuses a guess for this shape)
            continue
    return None, -1


@pytest.mark.parametrize("name,params,cls", [
    ("triton.blocked", {"size_per_thread": (1, 4), "threads_per_warp": (4, 8),
                        "warps_per_cta": (2, 2), "order": (1, 0), "shape": (64, 64)},
     "BlockedLayout"),
    ("amd.mfma", {"version": 3, "instr_shape": (32, 32, 8), "warps_per_cta": (2, 2),
                  "shape": (64, 64)}, "AMDMFMALayout"),
    ("amd.mfma_dot_operand", {"operand_index": 1, "k_width": 8, "instr_shape": (16, 16, 16),
                              "warps_per_cta": (2, 2), "shape": (64, 64)}, "DotOperandLayout"),
    ("triton.slice", {"dim": 0, "parent": "mma_v2", "warps_per_cta": (2, 4),
                      "instr_shape": (16, 8), "shape": (64,)}, "SliceLayout"),
])
def test_the_guesses_contain_the_class_triton_confirms(name, params, cls):
    p = presets.get(name, **params)
    obj, tried = _first_equal(p)
    assert obj is not None and type(obj).__name__ in (cls, "BlockedLayout"), (obj, tried)
    assert from_triton(obj, p.shape) == p.layout


def test_the_documented_blocked_guess_comes_first():
    bases = {"register": [[0, 1]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
    first = next(distributed_candidates(bases, (8, 8), False))
    assert type(first).__name__ == "BlockedLayout"
    assert (list(first.size_per_thread), list(first.threads_per_warp)) == ([1, 2], [8, 4])
    assert triton_bases(first, (8, 8)) == bases


@pytest.mark.parametrize("vec,per,top,order", [(4, 2, 4, (1, 0)), (8, 1, 8, (1, 0)),
                                               (2, 4, 2, (0, 1)), (1, 1, 1, (1, 0))])
def test_the_swizzled_guess_is_the_swizzled_shared_layout(vec, per, top, order):
    shape = (32, 64)
    p = presets.get("triton.swizzled_shared", vec=vec, per_phase=per, max_phase=top,
                    order=order, shape=shape)
    offsets = to_triton_shared_bases(p.layout, shape)
    obj = swizzled_candidate(offsets, 2)
    assert triton_bases(obj, shape) == {"offset": offsets}


def test_mma_slices_fma_and_wmma_come_back_named():
    """to_gluon names slices of MMA parents (36), FMA dot operands (36) and WMMA layouts
    (48) -- each checked by Triton's lowering -- and every one reads back equal (a
    BlockedLayout where one is equal: it is the simpler name)."""
    cases = []
    for dim, warps, shape in itertools.product((0, 1), [(1, 1), (2, 2), (4, 1), (1, 4), (2, 4), (8, 1)],
                                               [(64,), (16,), (8,)]):
        cases.append((presets.get("triton.slice", dim=dim, parent="mma_v2", warps_per_cta=warps,
                                  instr_shape=(16, 8), shape=shape), ("SliceLayout", "BlockedLayout")))
    for op, spt, order, shape in itertools.product((0, 1), [(1, 4), (2, 2), (1, 1)], [(1, 0), (0, 1)],
                                                   [(16, 64), (64, 16), (4, 4)]):
        cases.append((presets.get("triton.dot_operand", operand_index=op, k_width=0, parent="blocked",
                                  warps_per_cta=(2, 2), size_per_thread=spt, threads_per_warp=(4, 8),
                                  order=order, shape=shape), ("DotOperandLayout", "BlockedLayout")))
    for version, trans, (warps, regs), shape in itertools.product(
            (1, 2), (False, True), [([], []), ([[0, 1], [1, 0]], []), ([[1, 0], [2, 0]], [[0, 1]])],
            [(16, 16), (32, 32), (64, 64), (128, 32)]):
        cases.append((presets.get("amd.wmma", version=version, transposed=trans,
                                  warp_bases=tuple((str(a), str(b)) for a, b in warps),
                                  reg_bases=tuple((str(a), str(b)) for a, b in regs), shape=shape),
                      ("AMDWMMALayout", "BlockedLayout")))
    for p, classes in cases:
        obj = to_gluon(p.layout, p.shape)
        assert type(obj).__name__ in classes, (p.name, p.params, obj)
        assert from_triton(obj, p.shape) == p.layout
        assert to_triton_bases(p.layout, p.shape) == triton_bases(obj, p.shape)
    assert len(cases) == 36 + 36 + 48


def test_batched_layouts_and_amd_dot_operands_come_back_named():
    """to_gluon names rank-3 mma v2 layouts and their dot operands (40), rank-3 MFMA (6) and
    WMMA (4), MFMA dot operands (48) and WMMA dot operands (32): 130, every one confirmed by
    Triton's lowering and read back equal."""
    cases = []
    for warps, shape in itertools.product([(1, 1, 1), (2, 2, 1), (1, 2, 2), (2, 1, 4)],
                                          [(2, 32, 32), (4, 16, 64)]):
        cases.append(presets.get("triton.nvmma_distributed", version=2, warps_per_cta=warps,
                                 instr_shape=(1, 16, 8), shape=shape))
        for op, kw in itertools.product((0, 1), (2, 8)):
            cases.append(presets.get("triton.dot_operand", operand_index=op, k_width=kw,
                                     parent="mma_v2", warps_per_cta=warps, instr_shape=(1, 16, 8),
                                     shape=shape))
    for warps, shape in itertools.product([(1, 1, 1), (2, 1, 2), (1, 2, 2)], [(2, 64, 64), (4, 32, 32)]):
        cases.append(presets.get("amd.mfma", version=3, instr_shape=(32, 32, 8), warps_per_cta=warps,
                                 tiles_per_warp=(1, 1, 1), shape=shape))
    for (wb, rb), shape in itertools.product([(("0,0,1", "0,1,0"), ()), (("1,0,0", "0,1,0"), ("0,0,1",))],
                                             [(2, 32, 32), (4, 32, 64)]):
        cases.append(presets.get("amd.wmma", version=2, warp_bases=wb, reg_bases=rb, shape=shape))
    for op, kw, (m, k), warps, shape in itertools.product((0, 1), (4, 8), [(32, 8), (16, 16)],
                                                          [(1, 1), (2, 2), (1, 4)], [(64, 64), (128, 32)]):
        cases.append(presets.get("amd.mfma_dot_operand", operand_index=op, k_width=kw,
                                 instr_shape=(m, m, k), warps_per_cta=warps, shape=shape))
    for v, op, kw, wb, shape in itertools.product((1, 2), (0, 1), (8, 16), [("0,1", "0,2", "1,0"), ("1,0",)],
                                                  [(64, 64), (32, 128)]):
        cases.append(presets.get("amd.wmma_dot_operand", operand_index=op, k_width=kw, version=v,
                                 warp_bases=wb, shape=shape))
    for p in cases:
        obj = to_gluon(p.layout, p.shape)
        assert "Linear" not in type(obj).__name__, (p.name, p.params)
        assert from_triton(obj, p.shape) == p.layout
        assert to_triton_bases(p.layout, p.shape) == triton_bases(obj, p.shape)
    assert len(cases) == 130
