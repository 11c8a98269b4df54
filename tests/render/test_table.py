"""Text tables: every owner listed, swizzled addresses shown."""

from __future__ import annotations

import tilelayout as tl
from tilelayout.render.table import layout_table

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_table_lists_every_owner_like_print_layout():
    text = layout_table(tl.parse(REF), (8, 16))
    lines = text.splitlines()
    assert lines[0].endswith("cell = laneid,warpid,m")
    row7 = next(line for line in lines if line.lstrip().startswith("7 |"))
    cells = [c.strip() for c in row7.rstrip(" |").split(" | ")[1:]]
    # (7, 15): laneid 31, warps {6, 10}, m 1 -- the reference table's last row
    assert cells[15] == "31,6,1|31,10,1"
    assert cells[0] == "28,5,0|28,9,0"
    assert tl.parse(REF).table((8, 16)) == text


def test_table_shows_swizzled_addresses():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    rows = layout_table(L).splitlines()
    row1 = [c.strip() for c in rows[5].split("|")[1:-1]]
    assert row1[0] == "72"  # addr(1, 0) = 64 + 8 * (0 ^ 1)
