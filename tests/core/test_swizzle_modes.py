"""The swizzle-mode table (core/swizzle_modes.py): the PTX byte patterns, the encodings,
the target that offers each mode, and the docs page that lists them."""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core.swizzle_modes import (
    ENCODINGS,
    MODE_NAMES,
    SWIZZLE_MODE_TABLE,
    mode_info,
    modes_help,
    modes_on,
)
from tilelayout.core.targets import FEATURES, TARGETS, targets_with

DOC = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"

#: PTX ISA 5.5.7's tables as byte formulas (a = byte address, a >> 7 = the 128-byte line)
PTX = {"none": lambda a: a,
       "32B": lambda a: a ^ (((a >> 7) & 1) << 4),
       "64B": lambda a: a ^ (((a >> 7) & 3) << 4),
       "128B": lambda a: a ^ (((a >> 7) & 7) << 4),
       "128B_atom32B": lambda a: a ^ (((a >> 7) & 3) << 5),
       "128B_atom64B": lambda a: a ^ (((a >> 7) & 1) << 6),
       "96B": lambda a: a ^ (((a >> 7) & 1) << 4)}


def test_every_mode_has_its_ptx_pattern():
    assert set(PTX) == set(SWIZZLE_MODE_TABLE)
    a = np.arange(1 << 13)
    for name, m in SWIZZLE_MODE_TABLE.items():
        sw = tl.Swizzle(*m.byte_swizzle)
        assert np.array_equal(sw.apply(a), PTX[name](a)), name
        assert np.array_equal(PTX[name](a[: 2 * m.repeat_bytes]) % m.repeat_bytes,
                              PTX[name](a[: 2 * m.repeat_bytes] % m.repeat_bytes)), name


@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64"])
def test_for_dtype_is_the_byte_pattern_in_elements(dtype):
    nb = tl.dtype_bytes(dtype)
    a = np.arange(0, 1 << 13, nb)
    for name in SWIZZLE_MODE_TABLE:
        got = tl.Swizzle.for_dtype(dtype, name).apply(a // nb) * nb
        assert np.array_equal(got, PTX[name](a)), (dtype, name)


def test_atomicity_units_stay_whole_and_rows_are_whole_units():
    for name, m in SWIZZLE_MODE_TABLE.items():
        a = np.arange(0, 4096, m.atomicity_bytes)
        assert np.all(PTX[name](a) % m.atomicity_bytes == 0), name
        assert m.span_bytes % m.atomicity_bytes == 0 and m.atom_rows == 8


def test_encodings():
    by = {n: m.encodings() for n, m in SWIZZLE_MODE_TABLE.items()}
    assert [by[n]["wgmma"] for n in MODE_NAMES] == ["0", "3", "2", "1", None, None, None]
    assert [m.tcgen05 for m in SWIZZLE_MODE_TABLE.values()] == [0, 6, 4, 2, 1, None, None]
    assert [m.tma_driver for m in SWIZZLE_MODE_TABLE.values()] == [0, 1, 2, 3, 4, 6, None]
    assert [m.tensormap_mode for m in SWIZZLE_MODE_TABLE.values()] == [0, 1, 2, 3, 3, 3, 4]
    assert [m.tensormap_atomicity for m in SWIZZLE_MODE_TABLE.values()] == [0, 0, 0, 0, 1, 3, 0]
    assert [m.triton for m in SWIZZLE_MODE_TABLE.values()] == [0, 32, 64, 128, None, None, None]
    assert by["128B_atom32B"]["tcgen05"].startswith("1 (MN-major operands only")
    assert by["96B"]["tma"].startswith("tensormap.replace only (swizzle_mode 4")
    assert by["128B"]["cute"] == "Layout_{K,MN}_SW128_Atom = Swizzle<3,4,3> on bytes"
    for e in by.values():
        assert list(e) == list(ENCODINGS)


def test_first_targets():
    first = {n: targets_with(m.feature)[0].name for n, m in SWIZZLE_MODE_TABLE.items()}
    assert first == {"none": "sm_90", "32B": "sm_90", "64B": "sm_90", "128B": "sm_90",
                     "128B_atom32B": "sm_100", "128B_atom64B": "sm_100", "96B": "sm_103a"}
    assert all(m.feature in FEATURES for m in SWIZZLE_MODE_TABLE.values())
    assert not any(TARGETS["sm_90a"].has(m.feature) for m in SWIZZLE_MODE_TABLE.values()
                   if m.wgmma is None)  # the modes wgmma cannot encode all came after sm_90


def test_names_and_views():
    assert MODE_NAMES == tuple(tl.SWIZZLE_MODES) == tuple(SWIZZLE_MODE_TABLE)
    assert dict(tl.SWIZZLE_MODES) == {n: m.swizzle_len for n, m in SWIZZLE_MODE_TABLE.items()}
    assert modes_help().split("/") == list(MODE_NAMES)
    assert mode_info("128b") is SWIZZLE_MODE_TABLE["128B"] and mode_info(" 96B ").name == "96B"
    with pytest.raises(tl.DtypeError, match="unknown swizzle mode '256B'; expected one of none"):
        mode_info("256B")
    with pytest.raises(TypeError):
        SWIZZLE_MODE_TABLE["x"] = SWIZZLE_MODE_TABLE["none"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        SWIZZLE_MODE_TABLE["none"].span_bytes = 8  # type: ignore[misc]


def _doc_rows() -> list[str]:
    d = lambda v: "–" if v is None else str(v)  # noqa: E731
    out = []
    for m in SWIZZLE_MODE_TABLE.values():
        mm, b, s = m.byte_swizzle
        tma = "–" if m.tma_enum is None else f"`{m.tma_enum}` ({m.tma_driver})"
        tc = d(m.tcgen05) + (", MN-major only" if m.tcgen05_note else "")
        cute = "–" if m.cute is None else f"`{m.cute}`"
        out.append(f"| `{m.name}` | {m.span_bytes} | {m.atomicity_bytes} | {m.atom_rows} x "
                   f"{m.span_bytes} B | `Swizzle<{b},{mm},{s}>` | {m.repeat_bytes} | {tma} | "
                   f"{m.tensormap_mode}, {m.tensormap_atomicity} | {d(m.wgmma)} | {tc} | {cute} | "
                   f"{d(m.triton)} | `{targets_with(m.feature)[0].name}` |")
    return out


def test_docs_table_is_the_table():
    text = DOC.read_text().split("## Swizzle modes")[1]
    rows = [line for line in text.splitlines() if re.match(r"\| `[^`]+` \| \d", line)]
    assert rows == _doc_rows()


@pytest.mark.parametrize("name, encoding, modes", [
    ("sm_80", "tma", []),
    ("sm_90", "tma", ["none", "32B", "64B", "128B"]),
    ("sm_90a", "wgmma", ["none", "32B", "64B", "128B"]),
    ("sm_100a", "wgmma", []),
    ("sm_100a", "tcgen05", ["none", "32B", "64B", "128B", "128B_atom32B"]),
    ("sm_120", "tma", ["none", "32B", "64B", "128B", "128B_atom32B", "128B_atom64B"]),
    ("sm_120a", "tcgen05", []),
    ("sm_103a", "tma", list(MODE_NAMES)),
])
def test_modes_on(name, encoding, modes):
    assert [m.name for m in modes_on(name, encoding)] == modes


def test_modes_on_refuses_an_unknown_encoding():
    with pytest.raises(tl.LayoutError, match="unknown swizzle encoding 'cute'"):
        modes_on("sm_90", "cute")
