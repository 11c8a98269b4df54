"""Instruction kinds beyond consecutive-slot vectors: packed registers and ldmatrix /
stmatrix, checked against the ldmatrix presets (written from the PTX fragment tables),
the plain model, and the machine model on random F2-linear conversions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.conftest import expected
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.access import access_report, smem_addresses
from tilelayout.planning.mechanisms.staging.instructions import (
    best_access,
    matrix_access,
    matrix_report,
    packed_order,
    permuted,
)
from tilelayout.planning.model.threads import RegisterFile, register_file


def _preset(name: str, **params):
    p = presets.get(name, **{**presets.info(name).defaults, **params})
    return p.layout, p.shape


@pytest.mark.parametrize("name,count", [("ldmatrix.x1", 1), ("ldmatrix.x2", 2),
                                        ("ldmatrix.x4", 4)])
@pytest.mark.parametrize("trans", [False, True])
def test_the_ldmatrix_presets_are_recognised_as_one_instruction(name, count, trans):
    layout, shape = _preset(name, trans=trans)
    rf = register_file(layout, shape)
    n = int(np.prod(shape))
    addr = np.arange(n)  # the matrices row-major: row i of matrix j at 8 * (8j + i)
    m = matrix_access(rf, addr, trans)
    r = matrix_report(rf, addr, "float16", m, store=False)
    assert r.mechanism == f"ldmatrix.x{count}" + (".trans" if trans else "")
    assert (r.requests, r.wavefronts, r.ideal) == (1, count, count)
    best = best_access(rf, addr, "float16", store=False)  # x1: as cheap as ld.shared.b32
    assert (best.wavefronts, best.requests) <= (r.wavefronts, r.requests)
    # lane 8j + i supplies row i of matrix j
    assert m.rows[0, 0, : 8 * count].tolist() == list(range(0, 8 * 8 * count, 8))
    # the instruction's semantics give every lane exactly the elements the preset says
    for j in range(count):
        for e in (0, 1):
            got = m.lane_addresses(0, j, e)[0]
            want = addr[rf.table[0, :, m.slots[0, j, e]]]
            assert got.tolist() == want.tolist()


def test_the_wrong_transposition_is_refused():
    layout, shape = _preset("ldmatrix.x4", trans=False)
    rf = register_file(layout, shape)
    assert matrix_access(rf, np.arange(256), trans=True) is None


def _bytes_in_m8n8(order=(0, 1, 2, 3)):
    """Four m8n8 matrices of 8-bit data (matrix ``j``: bytes ``128 j ..``): lane ``t``'s
    register ``j`` holds bytes ``4 (t % 4) + b`` of row ``t / 4``, byte ``b`` in slot
    ``4 j + order[b]`` (the PTX ISA's .b16 fragment, two bytes a 16-bit element)."""
    t = np.arange(32)
    table = np.zeros((1, 32, 16), dtype=np.int64)
    addr = np.zeros(512, dtype=np.int64)
    for j in range(4):
        for b in range(4):
            el = 128 * j + 4 * t + b  # one element per (matrix, lane, byte)
            table[0, :, 4 * j + order[b]] = el
            addr[el] = 128 * j + 16 * (t // 4) + 4 * (t % 4) + b
    return RegisterFile(table, (), (), False), addr


def test_m8n8_moves_8_bit_data_four_bytes_a_register():
    rf, addr = _bytes_in_m8n8()
    m = matrix_access(rf, addr, False, 16)
    assert m.counts == (4,) and m.form == "m8n8" and m.width == 16
    assert m.slots[0].tolist() == [[4 * j + b for b in range(4)] for j in range(4)]
    assert m.rows[0, 0].tolist() == [128 * j + 16 * i for j in range(4) for i in range(8)]
    for j in range(4):
        for b in range(4):  # the instruction's semantics give every byte where it is
            got = m.lane_addresses(0, j, b)[0]
            assert got.tolist() == addr[rf.table[0, :, m.slots[0, j, b]]].tolist()
    # .trans moves 16-bit elements: a byte pair per row, never this
    assert matrix_access(rf, addr, True, 16) is None
    r = matrix_report(rf, addr, "int8", m, store=False, worst=False)
    assert (r.mechanism, r.requests, r.wavefronts) == ("ldmatrix.x4", 1, 4)


def test_m8n8_bytes_out_of_slot_order_are_named_per_byte():
    # the bytes of each register sit in slots 1, 0, 3, 2: the schedule names them (the
    # code writer packs them with byte permutes)
    rf, addr = _bytes_in_m8n8((1, 0, 3, 2))
    m = matrix_access(rf, addr, False, 16)
    assert m.slots[0, 0].tolist() == [1, 0, 3, 2]


def test_one_matrix_of_32_bit_values_is_one_ldmatrix_x1():
    # 32 values, one a lane: lane t holds value t % 4 of row t / 4 (a pair of halves)
    rf = RegisterFile(np.arange(32).reshape(1, 32, 1), (), (), False)
    m = matrix_access(rf, np.arange(32), False, 4)
    assert m.counts == (1,) and m.rows[0, 0, :8].tolist() == list(range(0, 32, 4))


def test_lanes_holding_copies_of_a_row_each_supply_its_address():
    # one 8x8 matrix of 16-bit data in which lanes t and t ^ 16 hold the same elements:
    # rows 0-3 are read by groups 0-3 and again by groups 4-7
    t = np.arange(32)
    table = np.stack([8 * (t % 16 // 4) + 2 * (t % 4), 8 * (t % 16 // 4) + 2 * (t % 4) + 1],
                     axis=1)[None]
    rf = RegisterFile(table, (), (), False)
    addr = np.arange(32)
    assert matrix_access(rf, addr, False) is None  # a row read by two groups of lanes
    m = matrix_access(rf, addr, False, copies=True)
    assert m.counts == (1,) and m.rows[0, 0, :8].tolist() == [0, 8, 16, 24] * 2
    for e in (0, 1):
        got = m.lane_addresses(0, 0, e)[0]
        assert got.tolist() == addr[table[0, :, m.slots[0, 0, e]]].tolist()


def test_packing_pairs_registers_that_are_not_adjacent_slots():
    # lane l holds (r, l) for r = 0..3 in slots ordered r = 0, 2, 1, 3
    dist = tl.parse("S[(2,2,32):(1,2,1@laneid)]")
    smem = tl.parse("S[(4,32):(1,4)]")  # column-major: rows of one column adjacent
    rf = register_file(dist, (4, 32))
    addr = smem_addresses(smem, (4, 32))
    plain = tl.smem_access(dist, smem, (4, 32), "float16")  # the consecutive-slot model: unchanged
    assert (plain.vector_bytes, plain.mechanism) == (2, "vector")
    order = packed_order(rf, addr)
    assert order == (0, 2, 1, 3)
    r = best_access(rf, addr, "float16", store=True)
    assert (r.mechanism, r.vector_bytes, r.slot_order) == ("packed", 8, (0, 2, 1, 3))
    assert r.wavefronts < plain.wavefronts
    assert r.wavefronts == access_report(permuted(rf, order), addr, "float16").wavefronts


@st.composite
def linear_pair(draw):
    """Two F2-linear register layouts of a 2^n tile over 32 lanes (and 1-2 warps)."""
    n = draw(st.integers(7, 10))
    warps = draw(st.integers(0, min(2, n - 6)))

    def side():
        bits = draw(st.permutations(range(n)))
        roles = ["laneid"] * 5 + ["warpid"] * warps + ["m"] * (n - 5 - warps)
        used = {"laneid": 1, "warpid": 1, "m": 1}
        stride = {}
        for b, role in zip(bits, roles, strict=True):
            stride[b] = (role, used[role])
            used[role] *= 2
        strides = ",".join(f"{s}@{a}" if a != "m" else str(s)
                           for a, s in (stride[b] for b in reversed(range(n))))
        return f"S[({','.join(['2'] * n)}):({strides})]"

    return side(), side(), n


@settings(max_examples=25, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "float32"]))
def test_random_linear_conversions_deliver_and_never_cost_more(p, dtype):
    src, dst, n = p
    plan = tl.plan_conversion(src, dst, (1 << n,), dtype)
    assert plan.execute() == expected(plan.dst, plan.shape)
    if plan.mechanism == "shared-memory" and plan.costs["passes"] == 1:
        plain = tl.choose_smem_layout(plan.src, plan.dst, plan.shape, dtype)
        assert plan.costs["wavefronts"] <= plain.wavefronts


def test_32_bit_values_move_as_pairs_through_ldmatrix_and_stmatrix():
    # the one-warp float32 transpose: 8 st.shared.v4 + 8 ldmatrix.x4 (Triton 3.9's code) or,
    # where stmatrix exists, its mirror image 8 stmatrix.x4 + 8 ld.shared.v4 at the same cost
    rows, cols = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"
    pairs = {"sm_90": {("stmatrix.x4", "ld.shared.v4.b32"), ("st.shared.v4.b32", "ldmatrix.x4")},
             "sm_80": {("st.shared.v4.b32", "ldmatrix.x4")}}
    for target, allowed in pairs.items():
        p = tl.plan_conversion(rows, cols, (32, 32), "float32", target=target)
        assert (p.costs["store_instruction"], p.costs["load_instruction"]) in allowed
        assert (p.costs["store_requests"], p.costs["load_requests"]) == (8, 8)
        assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"] == 64
        out = p.execute()
        r = p._route.dst
        assert all(out[tuple(c)] == e for c, e in zip(r.coords.tolist(), r.element.tolist(),
                                                       strict=True))
