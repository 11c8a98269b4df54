"""tl.choose_smem_layout: optimal within its family (exhaustive search on small tiles, with
the scalar reference), the ideal is a true lower bound and is reached where it can be,
and bad input is one line."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tilelayout as tl
from tests.planning.reference import reference_cost
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.costing import cost, prepare

C_F32 = presets.get("mma.m16n8k16.C", dtype="float32")
ROWS = tl.parse("S[(2,32,32):(1@warpid,1@laneid,1)]")        # lane owns a 32-element row
COLS = tl.parse("S[(64,32):(1,1@laneid)]")                    # lane owns a 64-element column
C_T = tl.parse("S[(8,2,4,2):(4@laneid,1,1@laneid,2)]")        # mma C transposed: (8, 16)
C2 = tl.parse("S[(2,2,8,4,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")   # mma C, 2 warps
LDSM2 = tl.parse("S[(2,16,2,2,8):(1@warpid,1@laneid,8,16@laneid,1)]")  # 16 B row reads


def _family(shape, dtype):
    """The swizzle family written out independently: every order of the dims, the whole
    contiguous dim or chunks of the swizzle span (chunk index outermost), each mode."""
    nb = tl.dtype_bytes(dtype)
    modes = [("none", None, 16)]
    for name, b in (("32B", 1), ("64B", 2), ("128B", 3)):
        modes.append((name, tl.Swizzle(4 - (nb.bit_length() - 1), b, 3), 16 << b))
    modes.append(("128B_atom32B", tl.Swizzle(5 - (nb.bit_length() - 1), 2, 2), 128))
    modes.append(("128B_atom64B", tl.Swizzle(6 - (nb.bit_length() - 1), 1, 1), 128))
    n = int(np.prod(shape))
    out = []
    for order in itertools.permutations(range(len(shape))):
        c = order[-1]
        for chunk_bytes in (None, 16, 32, 64, 128):
            for name, sw, span in modes:
                if chunk_bytes is not None and (chunk_bytes != span or shape[c] * nb <= span
                                                or (shape[c] * nb) % span):
                    continue
                if sw is not None and n % (1 << (sw.per_element + sw.swizzle_len)):
                    continue
                addr = np.empty(shape, dtype=np.int64)
                for idx in itertools.product(*(range(e) for e in shape)):
                    w = (chunk_bytes // nb) if chunk_bytes else shape[c]
                    lin, acc = idx[c] % w, w
                    for d in reversed(order[:-1]):
                        lin += idx[d] * acc
                        acc *= shape[d]
                    lin += (idx[c] // w) * acc
                    addr[idx] = sw(lin) if sw is not None else lin
                out.append((f"{name}/{order}/{chunk_bytes}", addr))
    return out


class _Table:
    """A shared-memory layout given by an explicit address table (for the reference)."""

    def __init__(self, addr):
        self.addr = addr

    def base(self, idx, shape):
        return {"m": int(self.addr[idx])}


SMALL = [
    pytest.param(C_F32.layout, C_T, (16, 8), "float32", id="mmaC-to-transposed-f32"),
    pytest.param(C_F32.layout, C_F32.layout, (16, 8), "float16", id="mmaC-roundtrip-f16"),
    pytest.param(C2, LDSM2, (32, 32), "float16", id="mmaC-to-ldmatrix-rows-f16"),
    pytest.param(ROWS, COLS, (64, 32), "float16", id="rows-to-columns-f16"),
]


@pytest.mark.parametrize("writer, reader, shape, dtype", SMALL)
def test_optimal_within_swizzle_family(writer, reader, shape, dtype):
    c = tl.choose_smem_layout(writer, reader, shape, dtype)
    best = None
    for _, addr in _family(shape, dtype):
        t = _Table(addr)
        w = reference_cost(writer, t, shape, dtype)
        r = reference_cost(reader, t, shape, dtype)
        key = (w[2] + r[2], -(w[0] + r[0]))
        best = key if best is None else min(best, key)
    assert (c.wavefronts, -(c.write.vector_bytes + c.read.vector_bytes)) == best
    # the chosen layout's own costs agree with the reference
    assert (c.write.vector_bytes, c.write.requests, c.write.wavefronts, c.write.ideal) == \
        reference_cost(writer, c.layout, shape, dtype)
    # the runners-up are sorted and the chosen one is first
    keys = [x.key() for x in c.candidates]
    assert keys == sorted(keys) and c.candidates[0].layout == c.layout
    assert c.searched == len(c.candidates) >= 10


def test_ideal_reached_for_mma_accumulator_to_ldmatrix_rows():
    W = tl.parse("S[(4,2,2,8,16,4,2):(1@warpid,4,2,4@laneid,8,1@laneid,1)]")
    R = tl.parse("S[(4,2,16,8,2,8):(1@warpid,64,1@laneid,8,16@laneid,1)]")
    c = tl.choose_smem_layout(W, R, (128, 128), "float16")
    assert c.distance == 0 and c.write.conflict_free and c.read.conflict_free
    assert (c.write.vector_bytes, c.read.vector_bytes) == (4, 16)
    assert any(m.startswith("TMA") for m in c.accepted_by)
    assert any(m.startswith("wgmma") for m in c.accepted_by)


def test_transpose_needs_narrow_reads_and_says_so():
    c = tl.choose_smem_layout(ROWS, COLS, (64, 32), "float16")
    assert (c.write.vector_bytes, c.read.vector_bytes) == (16, 2)
    assert c.write.conflict_free and c.read.conflict_free
    assert c.ideal == 64 and c.distance == 32     # no layout gives both sides 16 B vectors


def test_ideal_is_a_lower_bound_over_random_layouts():
    sides = prepare(C2, LDSM2, (32, 32), "float16")
    c = tl.choose_smem_layout(C2, LDSM2, (32, 32), "float16")
    rng = np.random.default_rng(7)
    base = tl.parse("S[(32,32):(32,1)]")
    for _ in range(40):
        perm = rng.permutation(32 * 32)
        x = cost(sides, "random", base, addresses=perm)
        assert x.wavefronts >= c.ideal


def test_choice_json_and_text():
    c = tl.choose_smem_layout(C_F32.layout, C_T, (16, 8), "float32")
    d = c.to_dict()
    assert d["layout"] == str(c.layout) and d["ideal"] == c.ideal
    assert len(d["candidates"]) == len(c.candidates) and "per_request" not in d["write"]
    assert str(c).startswith(str(c.layout))


BAD = [
    (C_F32.layout, tl.parse("S[(2,32,32):(1@warpid,1@laneid,1)]"), (16, 8), "float32",
     "different shapes"),
    (C_F32.layout, tl.parse("S[(8,8):(8@laneid,1)]"), (16, 8), "float32", "different shapes"),
    (tl.parse("S[(16,8):(1@laneid,1)] + R[2:16@laneid]"), C_F32.layout, (16, 8), "float32",
     "replicas"),
    (C_F32.layout, C_F32.layout, (16, 8), "float32", "family"),
    (tl.parse("S[()]"), tl.parse("S[()]"), (), "float32", "no dimensions"),
]


@pytest.mark.parametrize("writer, reader, shape, dtype, words", BAD)
def test_bad_input_is_one_line(writer, reader, shape, dtype, words):
    family = "best" if words == "family" else "swizzle"
    with pytest.raises(tl.LayoutError) as e:
        tl.choose_smem_layout(writer, reader, shape, dtype, family)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_reader_not_covering_the_tile():
    small = tl.parse("S[(8,8):(4@laneid,1)]")   # 64 elements, the tile has 128
    with pytest.raises(tl.LayoutError, match="different shapes|does not cover"):
        tl.choose_smem_layout(C_F32.layout, small, (16, 8), "float32")
    with pytest.raises(tl.LayoutError, match="does not cover"):
        tl.choose_smem_layout(C_F32.layout, C_F32.layout, (16, 16), "float32")


def test_candidate_limit():
    with pytest.raises(tl.BudgetError, match="swizzle family costs"):
        tl.choose_smem_layout(C_F32.layout, C_T, (16, 8), "float32",
                              limits=tl.Limits(search=3))
    with tl.limits(search=3), pytest.raises(tl.BudgetError, match="family='any' costs"):
        tl.choose_smem_layout(C_F32.layout, C_T, (16, 8), "float32", "any")
