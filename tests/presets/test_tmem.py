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
    if datapath == "E" and n not in (64, 128, 256):
        n = 64 if n < 128 else 256  # .ws takes N = 64, 128 or 256 only (PTX Table 39)
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


def test_align_only_for_half_datapath_layouts():
    for datapath in "ABDEG":
        with pytest.raises(presets.PresetError, match="only to datapaths C and F"):
            presets.get("tmem.accumulator", datapath=datapath, n=64, align=16)


# -- cta_group::2 (A, B, C) and M=32 .ws (G) ----------------------------------------------

PAIR_M = {"A": 256, "B": 128, "C": 128}


def pair_formula(datapath, n, align=0):
    """The closed forms of PTX 9.7.16.10.5 layouts A, B, C, written out: rows m < M/2 in
    the CTA with cbx 0, the rest in cbx 1; r = row inside that CTA's tensor memory."""
    half = PAIR_M[datapath] // 2
    pairs = []
    for m in range(2 * half):
        cta, r = divmod(m, half)
        for c in range(n):
            if datapath == "A":
                lane, col = r, c
            elif datapath == "B":
                lane, col = r + 64 * (c // (n // 2)), c % (n // 2)
            else:
                lane, col = align + r % 16 + 32 * (r // 16), c
            pairs.append(((m, c), {"cbx": cta, "TLane": lane, "TCol": col}))
    return collect(pairs)


#: per-CTA CuTe atoms in virtual addressing (lane + 128 col): tmem_frg_2sm "4x1" (A) and
#: "2x2" (B); C uses the M=64 half-datapath atom that PTX's table gives it (as for F)
PAIR_ATOM = {"A": "(128,{n}):(1,128)", "B": "(64,({h},2)):(1,(128,64))",
             "C": "((16,4),{n}):((1,32),128)"}


def modes(text):
    """A CuTe layout parsed once: (coordinate per top-level mode) -> offset."""
    shape, stride = cute_layout.parse(text)
    return lambda *coords: sum(cute_layout.evaluate(s, d, x)
                               for s, d, x in zip(shape, stride, coords, strict=True))


def pair_cute(datapath, n, align=0):
    """The 2SM CLayout (2,(M/2,N)):(M/2,(1,M)) gives, for CTA v and its value (r, c), the
    accumulator element (index m + M c); the per-CTA atom gives that value's address."""
    half = PAIR_M[datapath] // 2
    clayout = modes(f"(2,({half},{n})):({half},(1,{2 * half}))")
    atom = modes(PAIR_ATOM[datapath].format(n=n, h=n // 2))
    pairs = []
    for v in range(2):
        for c in range(n):
            for r in range(half):
                index = clayout(v, r + half * c)
                addr = atom(r, c) + align
                pairs.append(((index % (2 * half), index // (2 * half)),
                              {"cbx": v, "TLane": addr % 128, "TCol": addr // 128}))
    return collect(pairs)


@pytest.mark.parametrize(("datapath", "align", "n"), [
    ("A", 0, 16), ("A", 0, 48), ("A", 0, 128),
    ("B", 0, 16), ("B", 0, 112), ("B", 0, 256),
    ("C", 0, 16), ("C", 0, 96), ("C", 16, 16), ("C", 16, 64),
])
def test_cta_pair_layouts_match_formula_and_cute(datapath, align, n):
    p = presets.get("tmem.accumulator", datapath=datapath, n=n, align=align)
    assert p.shape == (PAIR_M[datapath], n)
    expected = pair_formula(datapath, n, align)
    assert len(expected) == PAIR_M[datapath] * n
    assert pair_cute(datapath, n, align) == expected
    assert of_preset(p) == expected


def g_formula(n):
    """Layout G (M=32 .ws, "1x4"): column quarter q of row m goes to lane m + 32 q."""
    return collect(((m, c), {"TLane": m + 32 * (c // (n // 4)), "TCol": c % (n // 4)})
                   for m in range(32) for c in range(n))


def g_cute(n):
    """CuTe tmem_frg_ws M=32 atom (32,(N/4,4)):(1,(128,32)), address lane + 128 col."""
    atom = modes(f"(32,({n // 4},4)):(1,(128,32))")
    pairs = []
    for m in range(32):
        for c in range(n):
            addr = atom(m, c)
            pairs.append(((m, c), {"TLane": addr % 128, "TCol": addr // 128}))
    return collect(pairs)


@pytest.mark.parametrize("n", [64, 128, 256])
def test_layout_g_matches_formula_and_cute(n):
    p = presets.get("tmem.accumulator", datapath="G", n=n)
    assert p.shape == (32, n)
    expected = g_formula(n)
    assert g_cute(n) == expected
    assert of_preset(p) == expected


@pytest.mark.parametrize(("datapath", "n"), [("A", 64), ("B", 64), ("C", 64), ("G", 64)])
def test_each_cta_stores_its_rows_once_in_its_own_lanes(datapath, n):
    """Per CTA: M/2 x n distinct cells (M x n for G), all lanes < 128, columns < n."""
    table = of_preset(presets.get("tmem.accumulator", datapath=datapath, n=n))
    cells = {}
    for coords in table.values():
        (coord,) = coords
        d = dict(coord)
        cells.setdefault(d.get("cbx", 0), set()).add((d["TLane"], d["TCol"]))
    per_cta = len(table) // len(cells)
    assert all(len(v) == per_cta for v in cells.values())
    assert all(0 <= lane < 128 and 0 <= col < n for v in cells.values() for lane, col in v)


def test_two_c_tiles_interleave_in_each_cta():
    a = of_preset(presets.get("tmem.accumulator", datapath="C", n=32, align=0))
    b = of_preset(presets.get("tmem.accumulator", datapath="C", n=32, align=16))
    cells_a = set().union(*a.values())
    cells_b = set().union(*b.values())
    assert not cells_a & cells_b and len(cells_a | cells_b) == 2 * 128 * 32


def test_layout_c_is_not_the_2sm_2x2_atom():
    """Sources disagree on C: PTX's table gives it F's half-datapath organization (what the
    preset follows); CUTLASS's sparse 2SM traits would apply tmem_frg_2sm's 2x2 atom (B)."""
    c = of_preset(presets.get("tmem.accumulator", datapath="C", n=64))
    b = of_preset(presets.get("tmem.accumulator", datapath="B", n=64))
    assert c != b and c[(16, 0)] != b[(16, 0)]
    assert dict(next(iter(c[(16, 0)])))["TLane"] == 32


@pytest.mark.parametrize(("datapath", "n", "allowed"), [
    ("A", 8, "16..256 step 16"), ("B", 24, "16..256 step 16"), ("C", 200, "16..256 step 16"),
    ("G", 32, "64, 128, 256"), ("G", 96, "64, 128, 256"), ("E", 8, "64, 128, 256"),
    ("E", 192, "64, 128, 256"),
])
def test_n_is_validated_per_datapath(datapath, n, allowed):
    with pytest.raises(presets.PresetError, match=f"n={n} is not a valid N for datapath "
                       rf"{datapath}.*N must be {allowed} \(PTX ISA 9.7.16.2.1, Table 39\)"):
        presets.get("tmem.accumulator", datapath=datapath, n=n)


def table_39(datapath, kind, ws=False, sparse=False):
    """Valid N straight from PTX Table 39's text (docs/hardware-facts.md#tensor-memory)."""
    if ws and datapath in "ABCF":  # .ws is cta_group::1 with M = 32, 64 (E), 128 only
        return set()
    if sparse and datapath == "B":  # B is the dense M=128 cta_group::2 layout
        return set()
    if datapath in "EG" or ws:  # .ws: {64, 128, 256}, sparse {64, 128}
        return {64, 128} if sparse else {64, 128, 256}
    if datapath in "ABC":  # cta_group::2
        return set(range(32, 257, 32)) if kind == "i8" else set(range(16, 257, 16))
    if kind == "i8":
        return {8, 16, 24, 32} | set(range(48, 257, 16))
    return set(range(8, 257, 8))


@pytest.mark.parametrize("datapath", list("ABCDEFG"))
@pytest.mark.parametrize("kind", [None, "f16", "i8"])
@pytest.mark.parametrize(("ws", "sparse"), [(False, False), (True, False), (True, True),
                                           (False, True)])
def test_every_n_follows_table_39(datapath, kind, ws, sparse):
    built = set()
    for n in range(8, 257, 8):
        try:
            p = presets.get("tmem.accumulator", datapath=datapath, n=n, kind=kind, ws=ws,
                            sparse=sparse)
        except presets.PresetError as exc:
            assert ("Table 39" in str(exc) or "PTX ISA 9.7.16.10.5" in str(exc)) and \
                "\n" not in str(exc)
            continue
        built.add(n)
        assert p.shape[1] == n
        if ws and datapath == "D":  # .ws changes which N are valid, not the layout
            assert p.layout == presets.get("tmem.accumulator", datapath="D", n=n).layout
    assert built == table_39(datapath, kind, ws, sparse)


def test_ws_refusals_name_the_rule():
    with pytest.raises(presets.PresetError, match=r"n=96 is not a valid N for datapath D "
                       r"\(M=128, cta_group::1, \.ws\): N must be 64, 128, 256"):
        presets.get("tmem.accumulator", datapath="D", n=96, ws=True)
    with pytest.raises(presets.PresetError, match=r"ws=True: \.ws is cta_group::1 .* datapath B"):
        presets.get("tmem.accumulator", datapath="B", n=64, ws=True)
    with pytest.raises(presets.PresetError, match=r"n=256 is not a valid N for datapath G "
                       r"\(M=32, \.ws, sparse\): N must be 64, 128 "):
        presets.get("tmem.accumulator", datapath="G", n=256, sparse=True)
    with pytest.raises(presets.PresetError, match=r"sparse=True: datapath B .* the sparse one is C"):
        presets.get("tmem.accumulator", datapath="B", n=64, sparse=True)


@pytest.mark.parametrize("datapath", list("EFG"))
def test_block_scaled_kinds_need_m128(datapath):
    with pytest.raises(presets.PresetError, match=r"kind::mxf8f6f4 needs M = 128 .*Table 39"):
        presets.get("tmem.accumulator", datapath=datapath, n=64, kind="mxf8f6f4")
    assert presets.get("tmem.accumulator", datapath="D", n=64, kind="mxf4").shape == (128, 64)


def test_c_is_documented_as_inferred():
    assert "C's per-element map is\ninferred" in presets.info("tmem.accumulator").doc


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
    # 512 32-bit columns per CTA (PTX 9.7.16.1): 4 stages x 8 row groups x 32 cells = 1024
    ({"rows": 256, "sf_per_row": 128, "pipe_depth": 4}, "need 1024 32-bit columns"),
    ({"rows": 32, "sf_per_row": 4, "pipe_depth": 513}, "tensor memory has 512"),
])
def test_scale_factor_bad_params(params, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get("tmem.scale_factors", **params)


def test_scale_factors_may_fill_all_512_columns():
    p = presets.get("tmem.scale_factors", rows=128, sf_per_row=4, pipe_depth=128)
    cols = p.layout.map_all(p.shape)["TCol"]
    assert cols.max() == 4 * 512 - 1  # element columns: four factors per 32-bit column
