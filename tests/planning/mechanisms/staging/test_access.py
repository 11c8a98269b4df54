"""tl.smem_access against the scalar reference, on presets and hand-made layouts."""

from __future__ import annotations

import random

import pytest

import tilelayout as tl
from tests.planning.reference import reference_cost
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.swizzle_family import swizzle_candidates

C4 = "S[(2,2,8,4,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"      # mma C, 2 warps, 32x32
LDSM = "S[(2,16,2,2,8):(1@warpid,1@laneid,8,16@laneid,1)]"          # 16 B per lane row reads


def _cases():
    out = []
    for name, params in (("mma.m16n8k16.C", {"dtype": "float32"}),
                         ("mma.m16n8k16.C", {"dtype": "float16"}),
                         ("mma.m16n8k16.A", {"dtype": "float16"}),
                         ("ldmatrix.x4", {}),
                         ("wgmma.m64nNk16.D", {"n": 16}),
                         ("tcgen05.ld.16x256b", {})):
        p = presets.get(name, **params)
        dtype = params.get("dtype", "float16" if name.startswith("ldmatrix") else "float32")
        cands = swizzle_candidates(p.shape, dtype)
        for c in cands[:: max(1, len(cands) // 6)]:
            out.append(pytest.param(p.layout, c.layout, p.shape, dtype,
                                    id=f"{name}-{dtype}-{c.name}"))
    for text, shape, dtype in ((C4, (32, 32), "float16"), (LDSM, (32, 32), "float16"),
                               (C4, (32, 32), "float32")):
        for c in swizzle_candidates(shape, dtype)[::3]:
            out.append(pytest.param(tl.parse(text), c.layout, shape, dtype,
                                    id=f"{text[:12]}-{dtype}-{c.name}"))
    # padded rows (a classic conflict cure) and a non-power-of-two tile
    out.append(pytest.param(tl.parse(C4), tl.parse("S[(32,32):(40,1)]"), (32, 32), "float16",
                            id="padded-rows"))
    out.append(pytest.param(tl.parse("S[(3,8,4,2):(8,4@laneid,1@laneid,1)]"),
                            tl.parse("S[(24,8):(8,1)]"), (24, 8), "float32", id="24x8"))
    return out


@pytest.mark.parametrize("dist, smem, shape, dtype", _cases())
def test_matches_scalar_reference(dist, smem, shape, dtype):
    r = tl.smem_access(dist, smem, shape, dtype)
    assert (r.vector_bytes, r.requests, r.wavefronts, r.ideal) == \
        reference_cost(dist, smem, shape, dtype)
    assert r.wavefronts == sum(r.per_request) and len(r.request_ids) == r.requests


def test_explicit_narrower_vector():
    C = presets.get("mma.m16n8k16.C", dtype="float32")
    rm = tl.parse("S[(16,8):(8,1)]")
    wide = tl.smem_access(C.layout, rm, C.shape, "float32")
    narrow = tl.smem_access(C.layout, rm, C.shape, "float32", vector_bytes=4)
    assert (wide.vector_bytes, narrow.vector_bytes) == (8, 4)
    assert narrow.requests == 2 * wide.requests
    assert (narrow.vector_bytes, narrow.requests, narrow.wavefronts, narrow.ideal) == \
        reference_cost(C.layout, rm, C.shape, "float32", 4)


def test_worst_request_names_lanes_and_banks():
    rows = tl.parse("S[(32,8):(1@laneid,1)]")
    r = tl.smem_access(rows, tl.parse("S[(32,8):(64,1)]"), (32, 8), "float16")
    w = r.worst
    assert (r.wavefronts, r.ideal, w.wavefronts, w.ideal) == (32, 4, 32, 4)
    assert w.conflict_lanes == tuple(range(32)) and w.conflict_banks == (0, 1, 2, 3)
    assert w.banks == (0,) * 32 and w.elements[5] == (5, 0)
    assert w.byte_addresses[1] == 128
    ok = tl.smem_access(rows, tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(32,8):(64,1)]")),
                        (32, 8), "float16")
    assert ok.conflict_free and ok.worst.conflict_lanes == ()


def test_tid_in_wg_threads_split_into_warps():
    dist = tl.parse("S[(128,4):(1@tid_in_wg,1)]")          # thread t owns row t
    r = tl.smem_access(dist, tl.parse("S[(128,4):(4,1)]"), (128, 4), "float32")
    assert len(r.warps) == 4 and r.requests == 4 and r.conflict_free
    assert (r.vector_bytes, r.requests, r.wavefronts, r.ideal) == \
        reference_cost(dist, tl.parse("S[(128,4):(4,1)]"), (128, 4), "float32")


def test_replicated_reader_broadcasts():
    dist = tl.parse("S[(8,4):(4@laneid,1)] + R[4:1@laneid]")   # 4 lanes read each row
    r = tl.smem_access(dist, tl.parse("S[(8,4):(4,1)]"), (8, 4), "float32")
    assert r.vector_bytes == 16 and r.conflict_free


BAD = [
    ("S[(2,32):(1@pid,1@laneid)]", "S[(2,32):(32,1)]", (2, 32), "float16", "not a thread axis"),
    ("S[(2,32):(1@bx,1@laneid)]", "S[(2,32):(32,1)]", (2, 32), "float16", "one CTA"),
    ("S[(2,32):(0,1@laneid)]", "S[(2,32):(32,1)]", (2, 32), "float16", "two elements in one register"),
    ("S[(64,2):(1@laneid,1)]", "S[(64,2):(2,1)]", (64, 2), "float16", "laneid 63"),
    ("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]", (32, 2), "float16", "address m only"),
    ("S[(32,2):(1@laneid,1)]", "S[(32,2):(1,0)]", (32, 2), "float16", "two elements at one address"),
    ("S[(32,2):(1@laneid,1)]", "S[(32,4):(4,1)]", (32, 2), "float16", "does not cover the tile"),
    ("S[(32,2):(1@laneid,1)]", "S[(32,2):(2,1)] + R[2:64]", (32, 2), "float16", "replicas"),
]


@pytest.mark.parametrize("dist, smem, shape, dtype, words", BAD)
def test_bad_input_is_one_line(dist, smem, shape, dtype, words):
    with pytest.raises(tl.LayoutError) as e:
        tl.smem_access(tl.parse(dist), tl.parse(smem), shape, dtype)
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("vb, words", [(3, "power-of-two"), (32, "at most 16"),
                                       (16, "partial group"), (8, "consecutive")])
def test_bad_vector_bytes(vb, words):
    C = presets.get("mma.m16n8k16.C", dtype="float32")
    dist, shape = C.layout, C.shape
    smem = tl.parse("S[(16,8):(1,16)]") if vb == 8 else tl.parse("S[(16,8):(8,1)]")
    if vb == 16:  # two registers per lane: a 4-slot group is half full
        dist, shape, smem = tl.parse("S[(32,2):(1@laneid,1)]"), (32, 2), tl.parse("S[(32,2):(2,1)]")
    with pytest.raises(tl.LayoutError, match=words):
        tl.smem_access(dist, smem, shape, "float32", vector_bytes=vb)


def test_cost_limit():
    with pytest.raises(tl.BudgetError, match="register file") as e:
        tl.smem_access(tl.parse(C4), tl.parse("S[(32,32):(32,1)]"), (32, 32), "float16",
                       limits=tl.Limits(elements=1000))
    assert "\n" not in str(e.value) and "--max-elements" in str(e.value)
    with tl.limits(elements=1100):   # 1024 elements pass; the 2 x 32 x 16 table too
        assert tl.smem_access(tl.parse(C4), tl.parse("S[(32,32):(32,1)]"), (32, 32),
                              "float16").requests


def _random_case(rng):
    """A register layout of an R x C tile on one warp (rows and columns split between
    lanes and slots, either slot order) and a padded, transposed or swizzled smem tile."""
    R, C = rng.choice([4, 8, 16, 12, 6]), rng.choice([4, 8, 16, 10])
    ra = rng.choice([x for x in (1, 2, 4, 8) if R % x == 0])
    ca = rng.choice([x for x in (1, 2, 4, 8) if C % x == 0 and ra * x <= 32])
    rb, cb = R // ra, C // ca
    rows_first = rng.random() < 0.5
    slot_r, slot_c = (1, rb) if rows_first else (cb, 1)
    lr, lc = (1, ra) if rng.random() < 0.5 else (ca, 1)
    dist = tl.parse(f"S[({ra},{rb},{ca},{cb}):({lr}@laneid,{slot_r},{lc}@laneid,{slot_c})]")
    pad = rng.choice([0, 0, 1, 2, 4, 8])
    if rng.random() < 0.4 and (R * C) % 64 == 0:
        smem = tl.ComposeLayout(tl.Swizzle(rng.choice([1, 2, 3]), rng.choice([1, 2, 3]), 3),
                                tl.parse(f"S[({R},{C}):({C},1)]"))
    elif rng.random() < 0.5:
        smem = tl.parse(f"S[({R},{C}):({C + pad},1)]")
    else:
        smem = tl.parse(f"S[({R},{C}):(1,{R + pad})]")
    return dist, smem, (R, C), rng.choice(["float16", "float32", "float8"])


def test_random_layouts_match_the_scalar_reference():
    rng = random.Random(3)
    for _ in range(40):
        dist, smem, shape, dtype = _random_case(rng)
        r = tl.smem_access(dist, smem, shape, dtype)
        assert (r.vector_bytes, r.requests, r.wavefronts, r.ideal) == \
            reference_cost(dist, smem, shape, dtype), (dist, smem, dtype)
