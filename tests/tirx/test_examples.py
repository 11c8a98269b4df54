"""Published TIRx layout code, run verbatim through ``tilelayout.tirx``.

* The examples in apache-tvm-tirx's own docstrings (``Axis``, ``TileLayout``,
  ``ComposeLayout``), read from the installed package, with only the import line
  changed to ``import tilelayout.tirx as T``.
* The snippets of "Modern GPU Programming for MLSys", chapter "TIRx Layout API"
  (mlc.ai/modern-gpu-programming-for-mlsys/chapter_tirx_layout_api), transcribed.
* The reference document's layouts (the seed document, docs/model.md), whose text form
  is Python under ``tilelayout.tirx``: each is evaluated as a Python expression and
  checked against its tables.
"""

from __future__ import annotations

import inspect
import re
import textwrap

import pytest

import tilelayout as tl
import tilelayout.tirx as T

TV = pytest.importorskip(
    "tvm_tirx.tirx.layout",
    reason="apache-tvm-tirx is not installed (pip install -e '.[tvm]'; scripts/test.sh does)",
)

pytestmark = pytest.mark.interop

IMPORT = "from tvm_tirx.script import tirx as T"


def _code_blocks(doc: str) -> list[str]:
    blocks, lines = [], doc.splitlines()
    for k, line in enumerate(lines):
        if line.strip().startswith(".. code:: python"):
            body = []
            for nxt in lines[k + 1:]:
                if nxt.strip() and not nxt.startswith(" "):
                    break
                body.append(nxt)
            blocks.append(textwrap.dedent("\n".join(body)).strip())
    return blocks


@pytest.mark.parametrize("cls", ["Axis", "TileLayout", "ComposeLayout"])
def test_tirx_docstring_examples_run_verbatim(cls):
    blocks = _code_blocks(inspect.getdoc(getattr(TV, cls)))
    assert blocks and all(IMPORT in b and "assert" in b for b in blocks)
    for block in blocks:
        exec(block, {})  # TIRx itself
        exec(block.replace(IMPORT, "import tilelayout.tirx as T"), {})  # ours, same asserts


BOOK_IMPORT = """from tilelayout.tirx import (
    TileLayout,
    SwizzleLayout,
    ComposeLayout,
    S,
    R,
    laneid,
    warpid,
    tid_in_wg,
    TLane,
    TCol,
    m,
    tcgen05_atom_layout,
    tmem_datapath_layout,
    wg_local_layout,
)"""


def test_book_chapter_snippets():
    ns: dict = {}
    exec(BOOK_IMPORT, ns)
    exec("layout = TileLayout(S[(128, 256) : (1@TLane, 1@TCol)])", ns)
    exec("frag = TileLayout(\n    S[(8, 2, 4, 2) : (4@laneid, 1@warpid, 1@laneid, 1)]\n)", ns)
    assert ns["layout"].apply(5, 7) == {"TLane": 5, "TCol": 7}
    assert ns["frag"] == tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]")
    assert ns["frag"].apply(7, 15, shape=[8, 16]) == {"laneid": 31, "warpid": 1, "m": 1}
    theirs = TV.TileLayout(TV.S[(8, 2, 4, 2):(4 @ TV.Axis.get("laneid"), 1 @ TV.Axis.get("warpid"),
                                              1 @ TV.Axis.get("laneid"), 1)])
    for flat in range(128):
        assert ns["frag"].apply(flat) == {str(k): int(v) for k, v in theirs.apply(flat).items()}


# the reference document's layouts and table rows (element -> its coordinates)
TENSOR_CORE = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
REFERENCE = [
    (TENSOR_CORE, (8, 16), [((0, 0), {"laneid": 0, "warpid": 5, "m": 0}),
                            ((0, 2), {"laneid": 1, "warpid": 5, "m": 0}),
                            ((1, 0), {"laneid": 4, "warpid": 5, "m": 0}),
                            ((0, 8), {"laneid": 0, "warpid": 6, "m": 0}),
                            ((7, 15), {"laneid": 31, "warpid": 6, "m": 1})]),
    ("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", (2, 128, 112),
     [((0, 0, 0), {"TLane": 0, "TCol": 0}), ((0, 5, 3), {"TLane": 5, "TCol": 3}),
      ((1, 0, 0), {"TLane": 0, "TCol": 112}), ((1, 127, 111), {"TLane": 127, "TCol": 223})]),
    ("S[(32, 4):(1@TLane, 1@TCol)] + R[4:32@TLane]", (32, 4),
     [((3, 2), {"TLane": 3, "TCol": 2})]),
    ("S[(8,64):(64@m,1@m)]", (8, 64), [((1, 2), {"m": 66})]),
]


@pytest.mark.parametrize("text,shape,rows", REFERENCE, ids=[r[0][:24] for r in REFERENCE])
def test_reference_document_layouts_are_python(text, shape, rows):
    names = {n: getattr(T, n) for n in ("S", "R", "laneid", "warpid", "TLane", "TCol", "m")}
    ours = T.TileLayout(eval(text, names))  # the document's text, as Python
    assert ours == tl.parse(re.sub(r"\s", "", text))
    for index, coord in rows:
        assert ours.apply(*index, shape=list(shape)) == coord
        theirs = TV.TileLayout(eval(text, {"S": TV.S, "R": TV.R, **{
            n: TV.Axis.get(n) for n in ("laneid", "warpid", "TLane", "TCol", "m")}}))
        assert {str(k): int(v) for k, v in theirs.apply(*index, shape=list(shape)).items()} \
            == coord


def test_the_issue_examples():
    """The calls issue 20 reported as failing, now TIRx's answers."""
    laneid, warpid = T.laneid, T.warpid
    tile = T.TileLayout(T.S[(8, 64):(64, 1)])
    L = T.TileLayout(T.S[(8, 2, 4, 2):(4@laneid, 1@warpid, 1@laneid, 1)] + T.R[2:4@warpid]
                     + 5@warpid)
    assert L.apply(1, 3, shape=[8, 16]) == {"laneid": 5, "warpid": 5, "m": 1}
    assert L.apply(*[7, 1, 3, 1]) == L.apply(127) == {"laneid": 31, "warpid": 6, "m": 1}
    C = T.ComposeLayout(per_element=3, swizzle_len=3, atom_len=3, tile_layout=tile,
                        swizzle_inner=True)
    ref = TV.ComposeLayout(per_element=3, swizzle_len=3, atom_len=3,
                           tile_layout=TV.TileLayout(TV.S[(8, 64):(64, 1)]), swizzle_inner=True)
    assert all(C.apply(i) == {"m": int(ref.apply(i)["m"])} for i in range(512))
    assert T.Axis.get("laneid") is not None and T.Axis.laneid == T.laneid
    assert L.get_scope() == ("thread", "cta")
