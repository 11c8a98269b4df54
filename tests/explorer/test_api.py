"""The explorer's JSON API: answers equal the library's, bad input is a 4xx JSON error."""


from __future__ import annotations

import json

import numpy as np
import pytest

import tilelayout as tl
from tests.helpers import call
from tilelayout import presets
from tilelayout.eval.inverse import elements_at
from tilelayout.explorer import examples
from tilelayout.explorer.request import ApiError, resolve
from tilelayout.explorer.views.analysis import access_view, analysis_view
from tilelayout.explorer.views.elements_at import elements_at_view
from tilelayout.explorer.views.explain import explain_view
from tilelayout.explorer.views.layout import _box, layout_view
from tilelayout.explorer.views.presets import preset_view
from tilelayout.explorer.views.presets import presets as preset_catalog

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_layout_view_equals_map_all():
    r = layout_view({"layout": REF, "shape": "8,16"})
    L = tl.parse(REF)
    arrays = L.map_all((8, 16))
    assert r["layout"] == str(L) and r["replicas"] == 2 and r["size"] == 128
    for a, v in arrays.items():
        assert r["coords"][a] == v.reshape(-1).tolist()
    # every (element, replica) pair has a physical cell inside the grid
    p = r["physical"]
    assert p["kind"] == "threads"
    assert [t["warpid"] for t in p["tiles"]] == [5, 6, 9, 10]
    assert max(p["row"]) < p["nrows"] and max(p["col"]) < p["ncols"]
    assert len(p["tile"]) == 256


def test_physical_kinds():
    kind = lambda e: layout_view({"layout": e.layout, "shape": list(e.shape),  # noqa: E731
                                      "dtype": e.dtype, "swizzle": e.swizzle})["physical"]["kind"]
    assert kind(examples.get("TMEM accumulator (2x128x112)")) == "tmem"
    assert kind(examples.get("Trainium SBUF (P x F)")) == "trainium"
    assert kind(examples.get("2x2 device mesh")) == "devices"
    assert kind(examples.get("smem 8x64 float16, 128B swizzle")) == "smem"
    assert kind(examples.get("extents only")) == "memory"


def test_smem_bank_grid_matches_bank_map():
    r = layout_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16", "swizzle": "128B"})
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    bm = tl.bank_map(L, "float16")
    p = r["physical"]
    assert p["sub"] == 2 and p["ncols"] == 32
    assert p["col"] == bm["bank"].reshape(-1).tolist()
    assert r["banks"]["bank"] == bm["bank"].reshape(-1).tolist()
    # column j = 0 reads banks 0, 4, ..., 28 (the reference worked example)
    assert [p["col"][64 * i] for i in range(8)] == [0, 4, 8, 12, 16, 20, 24, 28]


def test_explain_and_elements_at_match_library():
    ex = explain_view({"layout": REF, "shape": [8, 16], "index": [7, 15]})
    assert ex == tl.explain(tl.parse(REF), (7, 15), (8, 16)).to_dict()
    got = elements_at_view({"layout": REF, "shape": [8, 16], "coords": {"laneid": 5}})
    want = elements_at(tl.parse(REF), {"laneid": 5}, (8, 16))
    assert [tuple(e) for e in got["elements"]] == list(want)
    union = elements_at_view({"layout": REF, "shape": [8, 16],
                                  "coords": [{"warpid": 5}, {"warpid": 10}]})
    assert len(union["flat"]) == 128


def test_access_reports_column_conflict():
    col0 = [64 * i for i in range(8)]
    plain = access_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16", "elements": col0})
    swz = access_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16", "swizzle": "128B",
                           "elements": col0})
    assert plain["ways"] == 8 and plain["banks"] == [0]
    assert swz["ways"] == 1 and swz["banks"] == [0, 4, 8, 12, 16, 20, 24, 28]


def test_registry_presets_are_all_offered():
    listed = preset_catalog()["presets"]
    registry = [p for p in listed if p["group"] == "preset registry"]
    assert [p["name"] for p in registry] == list(presets.names())
    assert not [p for p in registry if "error" in p]
    for p in registry:
        r = layout_view(p)
        assert r["layout"] == p["layout"]


def test_too_large_is_explained_not_drawn():
    r = layout_view({"layout": "S[(1024,1024):(1024,1)]"})
    assert "coords" not in r and "at most" in r["too_large"]


@pytest.mark.parametrize("text, shape", [
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,-1)] + R[2:4@warpid] + 5@warpid", (8, 16)),
    ("S[(4,8,2):(-8,1@laneid,3)] + R[3:2] + 7", (4, 16)),
    ("S[(2,64,2,32):(1@cbx,1@TLane,64@TLane,1@TCol)]", (128, 64)),
])
def test_axis_ranges_without_evaluation_equal_map_all(text, shape):
    # above the caps the page still shows each axis's range; it must be the real one
    L = tl.parse(text)
    arrays = L.map_all(shape)
    assert _box(L) == {a: (int(v.min()), int(v.max())) for a, v in arrays.items()}


def test_too_large_reports_axis_ranges():
    r = layout_view({"layout": "S[(1024,1024):(1,1024@P)] + 3@P"})
    assert {a["name"]: (a["min"], a["max"]) for a in r["axes"]} == {
        "m": (0, 1023), "P": (3, 1023 * 1024 + 3)}
    r = layout_view({"layout": "S[(1024,1024)]", "dtype": "float16", "swizzle": "128B"})
    assert [(a["name"], a["min"], a["max"]) for a in r["axes"]] == [("m", None, None)]


@pytest.mark.parametrize("body, field, column", [
    ({"layout": "S[(8,4):(4@lane,1)]"}, "layout", 12),
    ({"layout": "S[(8,4):(4,1)"}, "layout", 14),
    ({"layout": ""}, "layout", None),
    ({"layout": "S[(8,4):(4,1)]", "shape": "7,4"}, "shape", None),
    ({"layout": "S[(8,4):(4,1)]", "shape": "a,b"}, "shape", None),
    ({"layout": "S[(8,4):(4,1)]", "swizzle": "128B"}, "swizzle", None),
    ({"layout": "S[(8,4):(4,1)]", "dtype": "float7"}, "dtype", None),
    ({"layout": "S[(8,4):(4,1)]", "swizzle": "48B", "dtype": "float16"}, "swizzle", None),
    ({"layout": 5}, "layout", None),
])
def test_bad_input_names_the_field(body, field, column):
    with pytest.raises(ApiError) as info:
        layout_view(body)
    assert info.value.status == 400 and info.value.field == field
    assert info.value.column == column


def test_map_all_coords_are_integers_in_json():
    r = layout_view({"layout": "S[(4,4):(-1@laneid,4@laneid)] + 3@laneid"})
    arr = np.array(r["coords"]["laneid"])
    assert arr.dtype.kind == "i" and r["axes"][0]["min"] == int(arr.min())


# -- preset parameters (POST /api/preset) ----------------------------------------------------
def test_registry_entries_carry_their_parameters():
    entries = {e["name"]: e for e in preset_catalog()["presets"] if e["group"] == "preset registry"}
    assert set(entries) == set(presets.names())
    for name, e in entries.items():
        info = presets.info(name)
        assert [p["name"] for p in e["params"]] == [p.name for p in info.params]
        for p in e["params"]:
            # the widget text reads back (parse_params) to the default the library uses
            assert presets.parse_params(name, {p["name"]: p["text"]})[p["name"]] == \
                presets.default(name).params[p["name"]]
            if p["choices"] is not None:
                assert p["text"] in p["choice_texts"]


@pytest.mark.parametrize(("name", "texts", "kwargs"), [
    ("wgmma.m64nNk16.D", {"n": "16"}, {"n": 16}),
    ("mma.m16n8k16.A", {"dtype": "bfloat16"}, {"dtype": "bfloat16"}),
    ("mma.m16n8k32.B", {"dtype": "e4m3"}, {"dtype": "e4m3"}),
    ("ldmatrix.x4", {"trans": "true"}, {"trans": True}),
    ("tmem.accumulator", {"datapath": "F", "n": "64", "align": "16"},
     {"datapath": "F", "n": 64, "align": 16}),
    ("tmem.scale_factors", {"rows": "64", "sf_dtype": "e4m3"}, {"rows": 64, "sf_dtype": "e4m3"}),
    ("smem.tile", {"dtype": "bfloat16", "mode": "64B", "shape": "16,32"},
     {"dtype": "bfloat16", "mode": "64B", "shape": (16, 32)}),
    ("trainium.psum", {"shape": "128,64"}, {"shape": (128, 64)}),
    ("mesh.shard", {"mesh": "dp=4,tp=2", "spec": "(dp,tp),None", "shape": "16,4"},
     {"mesh": {"dp": 4, "tp": 2}, "spec": (("dp", "tp"), None), "shape": (16, 4)}),
])
def test_preset_view_equals_presets_get(name, texts, kwargs):
    e = preset_view({"name": name, "params": texts})
    want = presets.get(name, **kwargs)
    assert e["layout"] == str(want.layout) and e["shape"] == list(want.shape)
    values = {p["name"]: p["text"] for p in e["params"]}
    for k, text in texts.items():
        assert values[k].replace(" ", "") == text.replace(" ", "")
    # the built layout draws: /api/layout accepts the entry as it is
    r = layout_view(e)
    assert r["layout"] == str(want.layout)


def test_preset_view_errors_name_the_parameter(server):
    cases = [({"name": "wgmma.m64nNk16.D", "params": {"n": "17"}}, 400, "param.n", "one of"),
             ({"name": "tmem.scale_factors", "params": {"rows": "abc"}}, 400, "param.rows",
              "integer"),
             ({"name": "tmem.scale_factors", "params": {"rows": "3"}}, 400, "param.rows", "32"),
             ({"name": "wgmma.m64nNk16.D", "params": {"m": "64"}}, 400, "param.m", "no parameter"),
             ({"name": "wgmma.nope"}, 404, "name", "unknown preset"),
             ({"name": "smem.tile", "params": "dtype=float16"}, 400, "params", "object")]
    for body, status, field, words in cases:
        code, ctype, raw = call(server, "/api/preset", body)
        data = json.loads(raw)
        assert (code, data["field"]) == (status, field), body
        assert words in data["error"] and ctype == "application/json"


# -- analysis (POST /api/analysis) -----------------------------------------------------------
@pytest.mark.parametrize("text", ["S[64:1@laneid]", "S[(2,32):(1@wgid,2@laneid)]",
                                  "S[(4,8):(1@laneid,1@laneid)]", REF,
                                  "S[(2,128):(1@TLane,130@TLane)]"])
def test_analysis_findings_equal_the_library_and_list_all_their_elements(text):
    from tilelayout.analysis.legality import legality

    L = tl.parse(text)
    shape = L.check_shape(None)
    got = analysis_view({"layout": text})["legality"]
    want = legality(L, shape).to_dict()
    assert got["ok"] == want["ok"]
    keys = ("kind", "message", "count", "examples", "axis")
    assert [{k: f[k] for k in keys} for f in got["findings"]] \
        == [{k: f[k] for k in keys} for f in want["findings"]]
    for f, w in zip(got["findings"], want["findings"]):
        if f["kind"] not in ("out_of_range", "duplicate"):
            assert f["elements"] is None and w["elements"] == []
            continue
        assert f["elements"] == w["elements"]  # the page shows the library's own list
        elems = f["elements"]
        assert len(elems) == f["count"] and elems == sorted(elems)
        assert {tuple(e) for e in f["examples"]} <= {np.unravel_index(e, shape) for e in elems}
        # every listed element really is out of range / shares a coordinate; no other is
        owners = {e: [tuple(sorted(c.items())) for c in L.apply(e)] for e in range(L.size())}
        if f["kind"] == "duplicate":
            seen: dict = {}
            for e, cs in owners.items():
                for c in cs:
                    seen.setdefault(c, set()).add(e)
            want_elems = sorted({e for es in seen.values() if len(es) > 1 for e in es})
        else:
            name = f["message"].split("'")[1]
            ext = tl.core.axes.axis(name).extent
            want_elems = [e for e, cs in owners.items()
                          if any(not 0 <= dict(c)[name] < ext for c in cs)]
        assert elems == want_elems


def test_analysis_bank_conflicts_equal_the_library():
    from tilelayout.analysis.conflicts import bank_conflicts, tile_conflicts

    base = "S[(8,64):(64,1)]"
    for mode, ways in (("none", 8), ("128B", 1), ("32B", 4)):
        req = {"layout": base, "dtype": "float16", "swizzle": mode}
        L = resolve(req)[0]
        c = analysis_view(req)["conflicts"]
        assert c["access_bytes"] == 16 and c["per_vector"] == 8
        for read in c["reads"]:
            tc = tile_conflicts(L, "float16", (8, 64), 16, read["order"])
            assert (read["wavefronts"], read["ideal"]) == (tc.wavefronts, tc.ideal)
            assert [q["wavefronts"] for q in read["requests"]] == list(tc.per_access)
            for k, q in enumerate(read["requests"]):
                lanes = [[divmod(e, 64) for e in q["elements"][i:i + 8]]
                         for i in range(0, len(q["elements"]), 8)]
                assert bank_conflicts(L, "float16", lanes, (8, 64)).wavefronts == tc.per_access[k]
        column = c["reads"][0]
        assert column["order"] == "column" and column["worst"]["ways"] == ways
        # request 0 of the column reads: vector columns 0..3, rows 0..7, lane = row
        assert column["requests"][0]["elements"][:16] == [*range(8), *range(64, 72)]
    assert analysis_view({"layout": base})["conflicts"] is None      # no dtype: no banks
    assert analysis_view({"layout": REF, "dtype": "float16"})["conflicts"] is None  # registers


def test_analysis_http_errors(server):
    code, _, raw = call(server, "/api/analysis", {"layout": "S[(1024,1024):(1024,1)]"})
    assert code == 413 and "too large" in json.loads(raw)["error"]
    code, _, raw = call(server, "/api/analysis", {"layout": "S[(8,4):(4@lane,1)]"})
    assert code == 400 and json.loads(raw)["field"] == "layout"
    code, _, raw = call(server, "/api/analysis", {"layout": "S[(8,64):(64,1)]", "dtype": "float16"})
    assert code == 200 and json.loads(raw)["conflicts"]["reads"][0]["worst"]["ways"] == 8


def test_a_mesh_preset_draws_its_tiles_in_the_mesh_order(server):
    # mesh.shard with spec None,tp: the layout lists tp before dp, the mesh is dp x tp
    e = preset_view({"name": "mesh.shard", "params": {"spec": "None,tp"}})
    assert e["order"] == ["dp", "tp"]
    p = layout_view(e)["physical"]  # the page sends the entry's order with the layout
    assert p["tile_axes"] == ["dp", "tp"] and "devices (dp x tp)" in p["title"]
    assert p["mesh"] == {"rows": [0, 1], "cols": [0, 1]}
    # without an order: the layout's axis order
    bare = layout_view({"layout": e["layout"], "shape": e["shape"]})["physical"]
    assert bare["tile_axes"] == [a for a in tl.parse(e["layout"], axes=e["order"]).axes if a in ("dp", "tp")]
    # presets without a mesh have no order; a bad order is a 400 naming the field
    assert preset_view({"name": "mma.m16n8k16.A", "params": {}})["order"] is None
    for bad in ("dp,tp", [1, 2], ["x"] * 17):
        code, _, raw = call(server, "/api/layout", {"layout": REF, "order": bad})
        assert code == 400 and json.loads(raw)["field"] == "order"


def test_two_requests_declaring_different_axes_never_leak(server):
    import threading

    a = {"layout": "S[(2,4):(1@alpha,1)]", "mesh": "alpha=2", "shape": "8"}
    b = {"layout": "S[(2,4):(1@beta,1)]", "mesh": "beta=2", "shape": "8"}
    swapped = {**b, "layout": a["layout"]}  # beta's request naming alpha's axis
    # in-process: each request's axes are a value built from its own body
    assert layout_view(a)["axis_names"] == ["alpha", "m"]
    assert layout_view(b)["axis_names"] == ["beta", "m"]
    with pytest.raises(ApiError, match="unknown axis 'alpha'"):
        layout_view(swapped)
    errors: list[str] = []

    def hammer(req: dict, name: str) -> None:
        for _ in range(30):
            try:
                assert layout_view(req)["axis_names"] == [name, "m"]
                layout_view(swapped)
                errors.append("swapped passed")
            except ApiError as exc:
                if "unknown axis 'alpha'" not in exc.message:
                    errors.append(exc.message)

    threads = [threading.Thread(target=hammer, args=(r, n)) for r, n in ((a, "alpha"), (b, "beta"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # through the server and its answer cache: an answer never serves another body
    assert call(server, "/api/layout", a)[0] == 200
    status, _, raw = call(server, "/api/layout", swapped)
    assert status == 400 and "unknown axis 'alpha'" in json.loads(raw)["error"]
    assert call(server, "/api/layout", a)[0] == 200
    assert not tl.is_axis("alpha") and not tl.is_axis("beta")
