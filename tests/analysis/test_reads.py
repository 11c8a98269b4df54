"""Tile reads and bank access: frozen reports whose requests carry their elements."""

from __future__ import annotations

import dataclasses

import pytest

import tilelayout as tl

SMEM = tl.parse("S[(8,64):(64,1)]")
SWIZZLED = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), SMEM)


@pytest.mark.parametrize("layout", [SMEM, SWIZZLED], ids=["plain", "swizzled"])
@pytest.mark.parametrize("order", ["column", "row"])
def test_each_request_s_elements_cost_what_the_request_costs(layout, order):
    tc = tl.tile_conflicts(layout, "float16", (8, 64), 16, order)
    assert tc.accesses == len(tc.requests) == 2
    assert sorted(e for r in tc.requests for e in r) == list(range(8 * 64))
    for k, elems in enumerate(tc.requests):
        lanes = [[divmod(e, 64) for e in elems[i:i + 8]] for i in range(0, len(elems), 8)]
        assert tl.bank_conflicts(layout, "float16", lanes).wavefronts == tc.per_access[k]
    assert tc.to_dict()["per_access"] == list(tc.per_access)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tc.wavefronts = 0  # type: ignore[misc]


def test_tile_reads_details_the_worst_request():
    r = tl.tile_reads(SMEM, (8, 64), "float16")
    column, row = r.reads
    assert (r.access_bytes, r.per_vector) == (16, 8)
    assert column.worst.ways == 8 and row.worst.ways == 1
    assert column.worst.wavefronts == column.conflicts.per_access[column.worst_request]
    assert tl.tile_reads(SWIZZLED, (8, 64), "float16").reads[0].conflicts.conflict_free
    assert "replicas" in tl.tile_reads(tl.parse("S[64:1] + R[2:1@pid]"), (64,), "float16").note


def test_bank_access_and_reports_hold_no_dicts():
    a = tl.bank_access(SMEM, "float16", (8, 64), [0, 64, 128, 192])
    assert a.to_dict() == {"words": [0, 32, 64, 96], "banks": [0], "ways": 4,
                           "per_bank": {"0": [0, 32, 64, 96]}}
    with pytest.raises(TypeError):
        a.per_bank[1] = (1,)  # type: ignore[index]
    rep = tl.bank_conflicts(SMEM, "float16", [[(r, j) for j in range(8)] for r in range(8)])
    with pytest.raises(TypeError):
        rep.conflicting_banks[3] = 1  # type: ignore[index]
    with pytest.raises(tl.LayoutError, match="flat indices"):
        tl.bank_access(SMEM, "float16", (8, 64), [512])
