"""Tensor-memory accumulator and scale-factor presets vs facts §5 and the CuTe atoms."""

from __future__ import annotations

import pytest

from tilelayout import presets

from . import cute_layout
from .tables import collect, of_preset

N_SOME = (8, 16, 64, 120, 256)


def acc_formula(datapath, n, align=0):
    m_rows = 128 if datapath == "D" else 64
    pairs = []
    for m in range(m_rows):
        for c in range(n):
            if datapath == "D":
                lane, col = m, c
            elif datapath == "E":
                lane, col = m + 64 * (c // (n // 2)), c % (n // 2)
            else:
                lane, col = align + (m % 16) + 32 * (m // 16), c
            pairs.append(((m, c), {"TLane": lane, "TCol": col}))
    return collect(pairs)


def acc_cute(datapath, n, align=0):
    """CuTe tmem_frg atoms (facts §5), coordinate (m, n) -> virtual address dp + 128 col."""
    text = {"F": f"((16,4),{n}):((1,32),128)", "E": f"(64,({n // 2},2)):(1,(128,64))"}[datapath]
    pairs = []
    for m in range(64):
        for c in range(n):
            addr = cute_layout.evaluate_modes(text, (m, c)) + align
            pairs.append(((m, c), {"TLane": addr % 128, "TCol": addr // 128}))
    return collect(pairs)


@pytest.mark.parametrize("n", N_SOME)
@pytest.mark.parametrize(("datapath", "align"), [("D", 0), ("E", 0), ("F", 0), ("F", 16)])
def test_accumulator_matches_formula(datapath, align, n):
    p = presets.get("tmem.accumulator", datapath=datapath, n=n, align=align)
    expected = acc_formula(datapath, n, align)
    assert of_preset(p) == expected
    if datapath != "D":
        assert acc_cute(datapath, n, align) == expected


def test_two_f_tiles_interleave_without_overlap():
    a = presets.get("tmem.accumulator", datapath="F", n=64, align=0)
    b = presets.get("tmem.accumulator", datapath="F", n=64, align=16)
    cells_a = set().union(*of_preset(a).values())
    cells_b = set().union(*of_preset(b).values())
    assert not cells_a & cells_b and len(cells_a | cells_b) == 128 * 64


@pytest.mark.parametrize("datapath", ["A", "B", "C", "G"])
def test_unsourced_datapaths_are_refused_with_a_reason(datapath):
    with pytest.raises(presets.PresetError, match="only as a figure"):
        presets.get("tmem.accumulator", datapath=datapath, n=64)


def test_align_only_for_layout_f():
    with pytest.raises(presets.PresetError, match="only to datapath F"):
        presets.get("tmem.accumulator", datapath="D", n=64, align=16)


# -- scale factors ------------------------------------------------------------------------


def sf_formula(rows, sf_per_row, reuse=1, pipe_depth=1):
    """facts §5: lane (row%32)+32q, 32-bit column row/32, byte sf; TCol in factor units.
    Groups of 4 factors beyond the first, and pipeline stages, follow the documented
    tiling order (after all rows/32 columns)."""
    groups = rows // 32
    stage = 4 * groups * -(-sf_per_row // 4)
    pairs = []
    for s in range(pipe_depth):
        for u in range(reuse):
            for row in range(rows):
                for sf in range(sf_per_row):
                    col32 = row // 32 + groups * (sf // 4)
                    index = tuple(d for d, n in ((s, pipe_depth), (u, reuse)) if n != 1)
                    for q in range(4):
                        pairs.append((index + (row, sf), {
                            "TLane": row % 32 + 32 * q,
                            "TCol": stage * s + 4 * col32 + sf % 4,
                        }))
    return collect(pairs)


def sf_cute(rows, nsf):
    """CuTe tmem_sf_frg atom (((32,MN/32),4),(VS,NSF)):(((1,512),32),(0,128)) with VS = 1;
    mode 0 = (row, duplicate q), mode 1 = (vector elem, sf); address dp + 128 element column."""
    text = f"(((32,{rows // 32}),4),(1,{nsf})):(((1,512),32),(0,128))"
    pairs = []
    for row in range(rows):
        for q in range(4):
            for sf in range(nsf):
                addr = cute_layout.evaluate_modes(text, (row + rows * q, sf))
                pairs.append(((row, sf), {"TLane": addr % 128, "TCol": addr // 128}))
    return collect(pairs)


@pytest.mark.parametrize("rows", [32, 64, 128, 256])
@pytest.mark.parametrize("nsf", [1, 2, 4])
@pytest.mark.parametrize("sf_dtype", ["e8m0", "e4m3"])
def test_scale_factors_match_facts_and_cute_atom(rows, nsf, sf_dtype):
    p = presets.get("tmem.scale_factors", rows=rows, sf_per_row=nsf, sf_dtype=sf_dtype)
    expected = sf_formula(rows, nsf)
    assert sf_cute(rows, nsf) == expected
    assert of_preset(p) == expected
    assert "R[4:32@TLane]" in str(p.layout) and p.dtype == sf_dtype


@pytest.mark.parametrize(("rows", "nsf", "reuse", "pipe"),
                         [(128, 8, 1, 1), (64, 16, 1, 2), (128, 4, 2, 2), (32, 1, 3, 1)])
def test_scale_factors_groups_reuse_and_pipeline(rows, nsf, reuse, pipe):
    p = presets.get("tmem.scale_factors", rows=rows, sf_per_row=nsf, reuse=reuse,
                    pipe_depth=pipe)
    assert of_preset(p) == sf_formula(rows, nsf, reuse, pipe)


def test_scale_factors_with_32_rows_is_the_reference_atom():
    for nsf in (1, 2, 3, 4):
        a = presets.get("tmem.scale_factors", rows=32, sf_per_row=nsf)
        b = presets.get("case.scale_factor_atom", sf_per_mma=nsf)
        assert a.shape == b.shape and of_preset(a) == of_preset(b)


@pytest.mark.parametrize(("params", "message"), [
    ({"rows": 48}, "multiple of 32"),
    ({"sf_per_row": 6}, "multiple of 4"),
    ({"reuse": 0}, ">= 1"),
    ({"sf_dtype": "e2m1"}, "must be one of"),
])
def test_scale_factor_bad_params(params, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get("tmem.scale_factors", **params)
