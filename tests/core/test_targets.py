"""The target table (core/targets.py): spellings, features, ordering, errors, docs."""

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.core.targets import FEATURES, TARGETS, Target, at_least, target, targets_with

DOC = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


@pytest.mark.parametrize("spelling, name", [
    ("sm_90", "sm_90"), ("sm90", "sm_90"), ("SM_90", "sm_90"), (" sm_90 ", "sm_90"),
    (90, "sm_90"), ("90", "sm_90"), ("9.0", "sm_90"), ("compute_90", "sm_90"),
    ("sm_90a", "sm_90a"), ("sm90A", "sm_90a"), ("9.0a", "sm_90a"), ("sm_100a", "sm_100a"),
    ("sm_120", "sm_120"), ("12.0a", "sm_120a"), ("sm_86", "sm_86"), ("8.9", "sm_89"),
])
def test_spellings_name_one_target(spelling, name):
    assert target(spelling).name == name
    assert target(target(spelling)) is TARGETS[name]


@pytest.mark.parametrize("bad", ["sm_91", "sm_100f", "hopper", "", "sm_", 7, 3.5, None,
                                 True, "x" * 500, ["sm_90"]])
def test_unknown_targets_are_one_line_errors(bad):
    with pytest.raises(tl.UnknownTargetError) as e:
        target(bad)
    assert isinstance(e.value, tl.LayoutError)
    assert "\n" not in str(e.value) and len(str(e.value)) < 300
    assert "sm_90" in str(e.value)   # the known names are listed


def test_did_you_mean():
    assert "did you mean 'sm_100'" in str(pytest.raises(tl.UnknownTargetError, target, "sm_101")
                                          .value)


def test_required_targets_exist():
    for name in ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120"):
        assert name in TARGETS


@pytest.mark.parametrize("feature, names", [
    ("ldmatrix", ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                  "sm_103", "sm_103a", "sm_120", "sm_120a"]),
    ("cp.async", ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_103",
                  "sm_103a", "sm_120", "sm_120a"]),
    ("stmatrix", ["sm_90", "sm_90a", "sm_100", "sm_100a", "sm_103", "sm_103a", "sm_120",
                  "sm_120a"]),
    ("tma", ["sm_90", "sm_90a", "sm_100", "sm_100a", "sm_103", "sm_103a", "sm_120", "sm_120a"]),
    ("wgmma", ["sm_90a"]),
    ("tcgen05", ["sm_100a", "sm_103a"]),
    ("ldmatrix.b8", ["sm_100a", "sm_103a", "sm_120a"]),
    ("stmatrix.b8", ["sm_100a", "sm_103a", "sm_120a"]),
    ("tma.swizzle_atomicity", ["sm_100", "sm_100a", "sm_103", "sm_103a", "sm_120", "sm_120a"]),
    ("tma.swizzle_96B", ["sm_103a"]),
])
def test_feature_sets(feature, names):
    assert [t.name for t in targets_with(feature)] == names


def test_mma_shapes():
    assert "m16n8k16.f16" in target("sm_80").mma
    assert "m16n8k32.e4m3" not in target("sm_86").mma
    assert "m16n8k32.e4m3" in target("sm_89").mma and "m16n8k32.e4m3" in target("sm_120").mma
    assert "m16n8k32.f8f6f4" in target("sm_120a").mma
    assert "m16n8k32.f8f6f4" not in target("sm_100a").mma
    assert "m16n8k16.f16" not in target("sm_75").mma


def test_portable_targets_nest_and_arch_specific_ones_add_only():
    portable = [t for t in TARGETS.values() if not t.arch_specific]
    for older, newer in zip(portable, portable[1:], strict=False):
        assert older.sm < newer.sm
        assert older.features <= newer.features and set(older.mma) <= set(newer.mma)
    for t in TARGETS.values():
        assert t.features <= set(FEATURES)
        if t.arch_specific:
            assert TARGETS[t.name[:-1]].features < t.features


def test_at_least():
    assert at_least("sm_90", "sm_80") and at_least("sm_120a", "sm_120")
    assert not at_least("sm_80", "sm_89")
    assert at_least("sm_90a", "sm_90a") and not at_least("sm_100a", "sm_90a")
    assert not at_least("sm_90", "sm_90a")
    assert target("sm_100").at_least(target("sm_90"))


@given(st.sampled_from(list(TARGETS)), st.sampled_from(list(TARGETS)))
def test_at_least_matches_features(a, b):
    """Whatever ``b`` offers, a target at least ``b`` offers too."""
    if at_least(a, b):
        assert TARGETS[b].features <= TARGETS[a].features
        assert set(TARGETS[b].mma) <= set(TARGETS[a].mma)


def test_frozen_and_read_only():
    t = target("sm_90")
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.sm = 80  # type: ignore[misc]
    with pytest.raises(TypeError):
        TARGETS["sm_99"] = t  # type: ignore[index]
    with pytest.raises(TypeError):
        FEATURES["x"] = FEATURES["tma"]  # type: ignore[index]
    assert isinstance(t.features, frozenset) and isinstance(t.mma, tuple)


def test_repr_round_trips():
    for t in TARGETS.values():
        assert eval(repr(t), {"target": target}) is t
        assert isinstance(t, Target)


def test_unknown_feature_is_an_error():
    with pytest.raises(tl.UnknownTargetError, match="did you mean 'wgmma'"):
        target("sm_90a").has("wgmm")


def test_top_level_names():
    assert tl.target is target and tl.TARGETS is TARGETS and tl.Target is Target


def test_docs_table_matches():
    """docs/hardware.md's target table has one row per target, with the features it offers."""
    text = DOC.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| target |"))
    columns = [c.strip().strip("`") for c in header.strip("|").split("|")]
    assert set(columns[2:]) == set(FEATURES)
    rows = {}
    for line in text.split("### Features")[0].splitlines():
        m = re.match(r"\| `(sm_\d+a?)` \|", line)
        if m:
            rows[m[1]] = [c.strip() for c in line.strip("|").split("|")]
    assert list(rows) == list(TARGETS)
    for name, cells in rows.items():
        offered = {f for f, cell in zip(columns[2:], cells[2:], strict=True) if cell == "yes"}
        assert offered == TARGETS[name].features, name
    for f in FEATURES.values():
        assert f"| `{f.name}` | {f.summary} | {f.source} |" in text


def test_docs_code_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
