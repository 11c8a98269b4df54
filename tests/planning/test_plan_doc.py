"""docs/data-movement.md's `tilelayout plan` transcript is what the command prints, and
its Triton table is what the cross-check measures (the Python examples run in
test_data_movement_doc.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import run

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "data-movement.md").read_text()


def test_plan_transcript():
    block = PAGE.split("$ tilelayout plan ")[1].split("```")[0]
    command, *expected = block.strip("\n").splitlines()
    out = run("plan", *re.findall(r"\S+", command))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == expected


def test_triton_table_shows_our_current_plans():
    from tests.planning.triton.test_vs_triton import CASES, KNOWN_GAPS, ours

    rows = {line.split(" | ")[0][2:]: line.split(" | ") for line in PAGE.splitlines()
            if line.startswith("| ") and line.count(" | ") == 7}
    for name, src, dst, shape, dtype, _ in CASES:
        p, smem, waves = ours(src, dst, shape, dtype)
        cells = rows[name]
        assert cells[2].startswith(f"{p.kind} / {p.mechanism}"), name
        assert (int(cells[3]), int(cells[4])) == (smem, waves), name
    for name in KNOWN_GAPS:
        assert f"**{name.split(' (')[0]}**" in PAGE
