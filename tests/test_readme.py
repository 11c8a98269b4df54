"""The README's first look shows what the library returns."""

from pathlib import Path

import tilelayout as tl

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
# every code block runs as written in tests/docs/test_doc_blocks.py; here: the values the
# first look shows in its comments


def test_first_look_outputs_match_the_comments():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    assert "# ({laneid: 31, warpid: 6, m: 1}, {laneid: 31, warpid: 10, m: 1})" in README
    assert repr(L.apply((7, 15), shape=(8, 16))) == \
        "({laneid: 31, warpid: 6, m: 1}, {laneid: 31, warpid: 10, m: 1})"
    assert L.elements_at({"laneid": 5, "warpid": 9}, (8, 16)) == ((1, 2), (1, 3))
    table = tl.presets.get("mma.m16n8k16.C").layout.table((16, 8)).splitlines()
    excerpt = README.split("print(C.table((16, 8)))")[1].split("```\n```\n")[1].splitlines()[:6]
    assert table[:6] == excerpt


def test_explain_excerpt_is_the_real_output():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    text = str(tl.explain(L, (7, 15), (8, 16)))
    excerpt = README.split("`explain` prints the reference document's four steps:\n\n```\n")[1]
    excerpt = excerpt.split("```")[0].rstrip("\n")
    assert text.endswith(excerpt)
