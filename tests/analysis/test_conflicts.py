"""The bank-conflict (wavefront) model, checked against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.analysis.conflicts import linear_wavefronts, wavefronts_batch


def brute_wavefronts(addrs, access):
    per = 32 * 4 // access
    total = 0
    for p in range(0, 32, per):
        words = {a // 4 + j for a in addrs[p:p + per] if a is not None for j in range(access // 4)}
        banks = {}
        for w in words:
            banks.setdefault(w % 32, set()).add(w)
        total += max((len(v) for v in banks.values()), default=0)
    return total


@given(st.sampled_from([4, 8, 16]), st.data())
def test_wavefronts_match_brute_force(access, data):
    addrs = [data.draw(st.one_of(st.none(), st.integers(0, 63).map(lambda x: x * access)))
             for _ in range(32)]
    assert tl.smem_wavefronts(addrs, access) == brute_wavefronts(addrs, access)


def test_wavefront_model_examples():
    assert tl.smem_wavefronts([0] * 32, 4) == 1  # broadcast of one word
    assert tl.smem_wavefronts([4 * i for i in range(32)], 4) == 1
    assert tl.smem_wavefronts([256 * i for i in range(32)], 4) == 32
    assert tl.smem_wavefronts([8 * i for i in range(32)], 8) == 2
    assert tl.smem_wavefronts([16 * i for i in range(32)], 16) == 4
    with pytest.raises(tl.LayoutError, match="4, 8 or 16"):
        tl.smem_wavefronts([0] * 32, 2)
    with pytest.raises(tl.LayoutError, match="aligned"):
        tl.smem_wavefronts([2] * 32, 4)
    assert wavefronts_batch([[0] * 32, [128 * i for i in range(32)]], 4).tolist() == [1, 32]


@pytest.mark.parametrize("dtype", ["float8", "float16", "float32", "float64"])
@pytest.mark.parametrize("mode", ["32B", "64B", "128B"])
def test_swizzled_16byte_columns_are_conflict_free(dtype, mode):
    width = {"32B": 32, "64B": 64, "128B": 128}[mode]
    nb = tl.dtype_bytes(dtype)
    cols = width // nb
    L = tl.ComposeLayout(tl.Swizzle.for_dtype(dtype, mode), tl.parse(f"S[(8,{cols}):({cols},1)]"))
    per = 16 // nb
    for c in range(cols // per):
        lanes = [[(r, c * per + k) for k in range(per)] for r in range(8)]
        rep = tl.bank_conflicts(L, dtype, lanes)
        assert rep.wavefronts == rep.ideal == 1 and not rep.conflicting_banks


def test_unswizzled_column_hits_one_bank():
    L = tl.parse("S[(8,64):(64,1)]")
    rep = tl.bank_conflicts(L, "float16", [[(r, 0)] for r in range(8)])  # one element per lane
    assert rep.wavefronts == 8 and rep.ideal == 1 and list(rep.conflicting_banks) == [0]
    sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), L)
    assert tl.bank_conflicts(sw, "float16", [[(r, 0)] for r in range(8)]).wavefronts == 1
    with pytest.raises(tl.LayoutError, match="contiguous"):
        tl.bank_conflicts(L, "float16", [[(0, 0), (1, 0)]])


def test_tile_conflicts_whole_tile():
    plain = tl.parse("S[(128,128):(128,1)]")
    sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), plain)
    a = tl.tile_conflicts(plain, "float16", (128, 128))
    b = tl.tile_conflicts(sw, "float16", (128, 128))
    # per access: 32 rows of 256 bytes -> every 8-lane phase asks 4 banks for 8 words
    assert a.per_access == (32,) * a.accesses and a.ideal == 4 * a.accesses
    # 128B swizzle repeats every 8 rows of 128 bytes; rows are 256 bytes, so lanes
    # r and r+4 collide: the analysis must find the residual 2-way conflict
    assert b.wavefronts == 2 * b.ideal
    tight = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(64,64):(64,1)]"))
    assert tl.tile_conflicts(tight, "float16", (64, 64)).conflict_free


def test_tile_conflicts_matches_single_access():
    L = tl.ComposeLayout(tl.Swizzle(3, 2, 3), tl.parse("S[(64,32):(32,1)]"))
    r = tl.tile_conflicts(L, "float16", (64, 32))
    k = 0
    for c in range(4):
        for b in range(2):
            lanes = [[(32 * b + l, 8 * c + j) for j in range(8)] for l in range(32)]
            assert tl.bank_conflicts(L, "float16", lanes).wavefronts == r.per_access[k]
            k += 1


@pytest.mark.parametrize("bad", [[-1] * 32, [4.5] * 32, ["8"] * 32, [True] * 32])
def test_smem_wavefronts_rejects_bad_addresses(bad):
    with pytest.raises(tl.LayoutError, match="lane 0"):
        tl.smem_wavefronts(bad, 4)


def test_smem_wavefronts_rejects_float_access_bytes():
    with pytest.raises(tl.LayoutError, match="access_bytes"):
        tl.smem_wavefronts([0] * 32, 4.0)


@pytest.mark.parametrize(("first", "n", "match"), [(1, 8, "aligned"), (1, 2, "aligned"),
                                                   (0, 3, "6 bytes")])
def test_bank_conflicts_rejects_misaligned_or_odd_vectors(first, n, match):
    L = tl.parse("S[(8,64):(64,1)]")
    lanes = [[(r, j) for j in range(first, first + n)] for r in range(8)]
    with pytest.raises(tl.LayoutError, match=match):
        tl.bank_conflicts(L, "float16", lanes)


def test_bank_conflicts_narrow_aligned_vectors_still_count_as_words():
    L = tl.parse("S[(8,64):(64,1)]")
    r = tl.bank_conflicts(L, "float16", [[(0, 2 * k + 1)] for k in range(32)])  # 2 bytes each
    assert (r.wavefronts, r.ideal) == (1, 1)


def test_tile_conflicts_partial_access_ideal():
    # 4 rows x one 16-byte vector: a single access with 4 active lanes in one phase
    r = tl.tile_conflicts(tl.parse("S[32:1]"), "float16", (4, 8))
    assert (r.wavefronts, r.ideal, r.conflict_free) == (1, 1, True)


@pytest.mark.parametrize(("dtype", "shape", "access"), [("float64", (8, 64), 4),
                                                        ("float16", (8, 8, 8), 16)])
def test_tile_conflicts_bad_inputs(dtype, shape, access):
    import math

    L = tl.TileLayout([(math.prod(shape), 1, "m")])
    with pytest.raises(tl.LayoutError):
        tl.tile_conflicts(L, dtype, shape, access)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 5), st.data())
def test_the_closed_form_of_xor_linear_requests_is_the_model(access, lanes, data):
    """linear_wavefronts equals wavefronts_batch on every XOR-linear request (sub-word
    accesses charged as the word that holds them)."""
    unit = max(access, 4)
    vectors = [data.draw(st.integers(0, 4095)) * access for _ in range(lanes)]
    base = data.draw(st.integers(0, 255)) * unit
    addr = []
    for lane in range(32):
        if lane >= 1 << lanes:
            addr.append(-1)
            continue
        a = base
        for k, v in enumerate(vectors):
            if lane >> k & 1:
                a ^= v
        addr.append(a // unit * unit)
    wavefronts, ideal = linear_wavefronts(vectors, access)
    assert wavefronts == int(wavefronts_batch(np.array([addr]), unit)[0])
    assert ideal == max(1, (1 << lanes) * unit // 128)
