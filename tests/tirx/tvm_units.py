"""apache/tvm main's own layout unit tests, recorded as data: inputs and expected values.

Source: apache/tvm at commit ``TVM_COMMIT``, ``tests/python/tirx/test_layout.py`` (every
unit but the PrimFunc-building ``test_pool_allocator_alloc_mma`` and the CUDA-copy
internals ``test_cuda_copy_extract_swizzle_tile_simplifies_constant_region_extents``), the
host-side layout tests of
``tests/python/tirx/operator/tile_primitive/cuda/copy_async/test_tcgen05_ldst.py``, and
the docstring examples of the apache-tvm-tirx 0.1.0a4 wheel (``Axis``, ``TileLayout``,
``ComposeLayout``). A unit is one inner ``case`` of a test function (or the function,
or one parametrization): 157 units. Each is a list of checks over expressions, written
in the small vocabulary ``tests/tirx/test_tvm_units.py`` evaluates:

* layouts: ``("L", text)`` (our text form) and ``("spec", part, ...)`` -- TIRx's spelling
  ``S[extents:strides] + R[...] + offset`` (a part is ``("S"|"R", extents, strides)``,
  ``("@", value, axis)``, an int, or ``("()", part, ...)`` for a parenthesized sum; a
  stride is an int, an axis name, ``("@", n, axis)`` or ``("pair", n, axis)``);
  ``("C", per_element, swizzle_len, atom_len, tile, swizzle_inner)`` for ComposeLayout;
* calls: ``(".", subject, method, args, kwargs)``, ``("T", name, args, kwargs)`` (a name of
  ``tilelayout.tirx``), ``("[]", value, index)``, ``("attr", value, name)``; values:
  ``("I", extent, stride, axis)``, ``("A", axis)``, ``("V", name)`` (a variable),
  ``("E", text)`` (an index expression over the variables), ``("R", begin, end)`` (a
  TVM-style range with ``min`` / ``extent``), ``("n", name)`` / ``("py", text)`` (a grid
  value / an integer formula of the grid values);
* checks: ``("eq", a, b)``, ``("none", a)``, ``("true", a)``, ``("false", a)``,
  ``("raises", a, kind, regex)`` (the Python kind TIRx raises, also a LayoutError here),
  ``("grid", ranges, checks)``, ``("evals", ranges, expression, formula)``,
  ``("kind", a, node type)``, ``("has", a, text)`` / ``("hasnot", a, text)``,
  ``("cuda", checks)`` (inside a CUDA target, TIRx's ``with tvm.target.Target("cuda")``).

``UNSUPPORTED`` names the 7 units whose answer needs a symbolic *layout* (extents,
strides or offsets that are variables: our layouts hold integers; symbolic
*coordinates* are supported) or a TVM allocator helper, with the refusal checked.
"""

TVM_COMMIT = "5d4dc8721307cf9677becacf0395c19be130e206"
TEST_FILES = ("tests/python/tirx/test_layout.py",
              "tests/python/tirx/operator/tile_primitive/cuda/copy_async/test_tcgen05_ldst.py")


def _canon(text: str, expected: str) -> list:
    """``TileLayout(text).canonicalize() == TileLayout(expected)`` (both our text form)."""
    return [("eq", (".", ("L", text), "canonicalize", []), ("L", expected))]


def _tiles(inner, outer, oshape, ishape, tiled, tiled_shape, *, canon=False,
           expected=None, none_inner=False, none_outer=False) -> list:
    """The tile unit pattern: ``inner.tile(outer)`` (== ``expected`` when given), then
    ``inner.is_tile_inner`` recovers ``outer`` and ``outer.is_tile_outer`` recovers
    ``inner`` (canonically); ``none_*``: the swapped queries are None."""
    t = (".", inner, "tile", [outer, oshape, ishape]) if tiled is None else tiled
    checks = []
    if expected is not None:
        lhs = (".", t, "canonicalize", []) if canon else t
        checks.append(("eq", lhs, expected))
    rec_outer = (".", inner, "is_tile_inner", [t, tiled_shape, ishape])
    rec_inner = (".", outer, "is_tile_outer", [t, tiled_shape, oshape])
    checks += [("eq", (".", rec_outer, "canonicalize", []), (".", outer, "canonicalize", [])),
               ("eq", (".", rec_inner, "canonicalize", []), (".", inner, "canonicalize", []))]
    if none_inner:
        checks.append(("none", (".", outer, "is_tile_inner", [t, tiled_shape, oshape])))
    if none_outer:
        checks.append(("none", (".", inner, "is_tile_outer", [t, tiled_shape, ishape])))
    return checks


def _recognized(inner, outer, oshape, ishape, tiled_shape) -> list:
    """``inner.is_tile_inner`` recovers ``outer``, also from the canonical tile, and the
    canonical ``outer`` is not an inner of it."""
    t = (".", inner, "tile", [outer, oshape, ishape])
    tc = (".", t, "canonicalize", [])
    return [("eq", (".", (".", inner, "is_tile_inner", [t, tiled_shape, ishape]), "canonicalize", []),
             (".", outer, "canonicalize", [])),
            ("notnone", (".", inner, "is_tile_inner", [tc, tiled_shape, ishape])),
            ("none", (".", (".", outer, "canonicalize", []), "is_tile_inner", [tc, tiled_shape, oshape]))]


_SW128 = ("C", 3, 3, 3, "S[512:1]", True)
_SW64 = ("C", 3, 2, 3, "S[256:1]", True)
_MMA = ("L", "S[(1,2):(2,1)]")
_WARP = ("L", "S[(8,4):(4@laneid,1@laneid)]")
_CTA = ("L", "S[(2,2):(2@warpid,1@warpid)]")
_TILED_TX = ("L", "S[(2,8,2,4,2):(64@tx,4@tx,32@tx,1@tx,1)]")
_STRUCT_TILE = "S[(8,8):(64,1)] + 72"
_SUM = (".", (".", ("L", "S[(2,2):(4,1)]"), "direct_sum", [("L", "S[(2,2):(8,2)]"), [2, 2], [2, 2]]),
        "canonicalize", [])
_TILED88 = (".", ("L", "S[(8,8):(8,1)]"), "tile", [("L", "S[(8,8):(8,1)]"), [8, 8], [8, 8]])
_GROUPED = ("[]", (".", _TILED88, "group", [[64, 64]]), 0)
_SEPS = ("[]", (".", _TILED88, "group", [[64, 64]]), 1)

UNITS: dict[str, list] = {
    # -- the wheel's docstring examples ----------------------------------------------------
    "docstring.Axis": [("eq", ("[]", (".", ("spec", ("S", [8], [("@", 2, "m")])), "apply", [3]),
                               "m"), 6)],
    "docstring.TileLayout": [("eq", ("[]", (".", ("spec", ("S", [4, 8], None)), "apply", [1, 2]),
                                     "m"), 10)],
    "docstring.ComposeLayout": [("eq", ("[]", (".", ("C", 0, 2, 3, "S[(8,8):(8,1)]", True),
                                               "apply", [1, 2]), "m"), 11)],
    # -- test_axis, constructors, spec builder ---------------------------------------------
    "test_axis": (
        [("eq", ("T", f"Axis.{a}"), ("T", "Axis.get", [a]))
         for a in ("bx", "by", "bz", "cbx", "cby", "cbz", "tx", "warpid", "laneid", "wgid",
                   "tid_in_wg", "wid_in_wg", "m", "P", "F", "TCol", "TLane")]
        + [("true", (".", ("A", a), "is_thread", [])) for a in
           ("bx", "by", "bz", "cbx", "cby", "cbz", "tx", "warpid", "laneid", "wgid", "tid_in_wg",
            "wid_in_wg")]
        + [("true", (".", ("A", a), "is_memory", [])) for a in ("m", "P", "F", "TCol", "TLane")]
        + [("eq", ("attr", (".", ("A", "bx"), "get_scope", []), "name"), "thread"),
           ("eq", ("attr", (".", ("A", "bx"), "get_subscope", []), "name"), "cta")]),
    "test_constructor": [
        ("eq", ("spec", ("S", [2, 3, 4], None)), ("T", "TileLayout.from_iters", [
            [("I", 2, 12, "m"), ("I", 3, 4, "m"), ("I", 4, 1, "m")], [], {}])),
        ("eq", ("spec", ("S", [2, 3, 4], [12, 4, 1])), ("L", "S[(2,3,4):(12,4,1)]")),
        ("eq", ("spec", ("S", [2, 3, 4], [("@", 12, "m"), ("@", 4, "m"), ("@", 1, "m")])),
         ("L", "S[(2,3,4):(12,4,1)]")),
        ("eq", ("spec", ("S", [8, 4, 2], [("@", 4, "laneid"), ("@", 1, "laneid"), 1])),
         ("T", "TileLayout.from_iters", [[("I", 8, 4, "laneid"), ("I", 4, 1, "laneid"),
                                          ("I", 2, 1, "m")], [], {}])),
        ("eq", ("spec", ("S", [8], [("@", 4, "laneid")]), ("R", [4], [("@", 1, "laneid")])),
         ("T", "TileLayout.from_iters", [[("I", 8, 4, "laneid")], [("I", 4, 1, "laneid")], {}])),
        ("eq", ("spec", ("S", [8], [("@", 4, "laneid")]), ("@", 1, "laneid")),
         ("T", "TileLayout.from_iters", [[("I", 8, 4, "laneid")], [], {("A", "laneid"): 1}])),
    ],
    "test_constructor_multi_term_offset": [
        ("eq", ("dict", ("attr", ("spec", ("S", [8], [("@", 4, "laneid")]), ("@", 1, "laneid"),
                                  ("@", 2, "warpid"), 64), "offset")),
         {("A", "laneid"): 1, ("A", "warpid"): 2, ("A", "m"): 64}),
        ("eq", ("spec", ("S", [8], [("@", 4, "laneid")]), ("@", 1, "laneid"), ("@", 2, "warpid"),
                64),
         ("spec", ("S", [8], [("@", 4, "laneid")]),
          ("()", ("@", 1, "laneid"), ("@", 2, "warpid"), 64))),
        ("eq", ("dict", ("attr", ("spec", ("S", [8], [("@", 4, "laneid")]), ("@", 1, "laneid")),
                         "offset")), {("A", "laneid"): 1}),
        ("eq", ("dict", ("attr", ("spec", ("S", [8], [("@", 4, "laneid")]), 64), "offset")),
         {("A", "m"): 64}),
        ("eq", ("dict", ("attr", ("spec", ("()", ("S", [8], [("@", 4, "laneid")]),
                                           ("@", 1, "laneid")),
                                  ("()", ("R", [4], [("@", 1, "laneid")]), ("@", 2, "warpid"))),
                         "offset")), {("A", "laneid"): 1, ("A", "warpid"): 2}),
        ("eq", ("dict", ("attr", ("spec", 64, ("S", [8], [("@", 4, "laneid")]),
                                  ("@", 1, "laneid")), "offset")),
         {("A", "laneid"): 1, ("A", "m"): 64}),
    ],
    "test_wg_local_layout_helper": [
        ("eq", (".", ("T", "wg_local_layout", [16]), "canonicalize", []),
         (".", ("L", "S[(128,16):(1@tid_in_wg,1)]"), "canonicalize", [])),
        ("eq", (".", ("T", "wg_local_layout", [8], {"rows": 64}), "canonicalize", []),
         (".", ("L", "S[(64,8):(1@tid_in_wg,1)]"), "canonicalize", [])),
    ],
    "test_spec_builder": [
        ("eq", ("str", ("spec", ("S", [8, 4, 2], [("@", 4, "laneid"), ("@", 1, "laneid"), 1]))),
         ("str", ("L", "S[(8,4,2):(4@laneid,1@laneid,1)]"))),
        ("eq", ("str", ("spec", ("S", [128], [("@", 1, "laneid")]))),
         ("str", ("L", "S[128:1@laneid]"))),
        ("eq", ("str", ("spec", ("S", [8, 4, 2], None))), ("str", ("L", "S[(8,4,2):(8,2,1)]"))),
        ("eq", ("str", ("spec", ("S", [8], [("@", 4, "laneid")]), ("R", [4], [("@", 1, "laneid")]))),
         ("str", ("L", "S[8:4@laneid] + R[4:1@laneid]"))),
        ("eq", ("str", ("spec", ("S", [1], [1]), ("R", [8, 4], [("@", 4, "laneid"), ("@", 1, "laneid")]),
                        ("@", 2, "warpid"))),
         ("str", ("L", "S[1:1] + R[(8,4):(4@laneid,1@laneid)] + 2@warpid"))),
        ("eq", ("str", ("spec", ("S", [8], ["laneid"]))), ("str", ("L", "S[8:1@laneid]"))),
        ("eq", ("str", ("spec", ("S", [32], ["warpid"]))), ("str", ("L", "S[32:1@warpid]"))),
        ("eq", ("str", ("spec", ("S", [8, 4], ["laneid", 1]))), ("str", ("L", "S[(8,4):(1@laneid,1)]"))),
        ("eq", ("str", ("spec", ("S", [8], [("pair", 4, "laneid")]))), ("str", ("L", "S[8:4@laneid]"))),
        ("eq", ("str", ("spec", ("S", [1], [1]), ("R", [4], ["laneid"]))),
         ("str", ("L", "S[1:1] + R[4:1@laneid]"))),
    ],
    "test_verify_well_formed.test_scope_connected": [
        ("eq", (".", ("L", "S[(8,4,2):(4@laneid,1@laneid,1)]"), "get_scope", []), ["thread", "warp"]),
        ("eq", ("attr", ("[]", (".", ("L", "S[8:4@laneid] + R[4:1@laneid]"), "get_scope", []), 1),
                "name"), "warp"),
        ("true", (".", ("L", "S[8:4@laneid] + R[4:1@laneid]"), "verify_well_formed", [])),
        ("eq", (".", ("L", "S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"), "get_scope",
                []), ["thread", "cta"]),
        ("true", (".", ("L", "S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"),
                  "verify_well_formed", [])),
        ("eq", (".", ("L", "S[(2,8,2,4,2):(2@wid_in_wg,4@laneid,1@wid_in_wg,1@laneid,1)]"),
                "get_scope", []), ["thread", "warpgroup"]),
        ("raises", (".", ("L", "S[(2,8,2,4,2):(2@wgid,4@laneid,1@wgid,1@laneid,1)]"),
                    "verify_well_formed", []), "Exception", None),
    ],
    # -- canonicalize --------------------------------------------------------------------
    "test_normalize_tile_layout.case1": _canon("S[(8,8,8,4,2):(512,64,8,2,1)]", "S[4096:1]"),
    "test_normalize_tile_layout.case2": _canon("S[(8,8,1,8,4,2):(512,64,160,8,2,1)]", "S[4096:1]"),
    "test_normalize_tile_layout.case3": _canon("S[(8,8,8,4,1,1):(512,64,8,2,1,1)]", "S[2048:2]"),
    "test_normalize_tile_layout.case4": _canon("S[(8,8,1,1,1,4,1,1):(512,64,1,1,1,2,1,1)]",
                                               "S[(64,4):(64,2)]"),
    "test_normalize_tile_layout.case5": _canon("S[(2,3,6):(18,6,1)]", "S[36:1]"),
    "test_normalize_tile_layout.case6": _canon("S[(8,2,3,6):(6,18,6,1)]", "S[(8,36):(6,1)]"),
    "test_normalize_tile_layout.case7": _canon("S[(8,2,3,6):(6,24,6,1)]", "S[(8,2,18):(6,24,1)]"),
    "test_normalize_tile_layout.case8": _canon("S[(8,2,4,2,3,6):(2,1,4,24,6,1)]",
                                               "S[(16,4,2,18):(1,4,24,1)]"),
    "test_normalize_tile_layout.case9": _canon("S[(3,4,5,2):(20,5,1,60)]", "S[(60,2):(1,60)]"),
    "test_normalize_tile_layout.case10": _canon("S[(18,8,2,4,2,3,6):(4,2,1,4,24,6,1)]",
                                                "S[(18,16,4,2,18):(4,1,4,24,1)]"),
    "test_normalize_tile_layout.case11": _canon("S[(3,4,5,2,3,4):(20,5,1,60,20,5)]",
                                                "S[(60,24):(1,5)]"),
    "test_normalize_tile_layout.case_no_norm": _canon(
        "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]", "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"),
    "test_normalize_tile_layout.case_both_data_device1": _canon(
        "S[(8,8,8,1,4,2,1):(16,4@laneid,2,1,1@laneid,1,1)]",
        "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"),
    "test_normalize_tile_layout.case_both_data_device2": _canon(
        "S[(8,8,8,1,4,2,1):(16,4@laneid,2,1,1@laneid,1,4@laneid)]",
        "S[(8,8,8,4,2):(16,4@laneid,2,1@laneid,1)]"),
    "test_normalize_tile_layout.case_both_data_device3": _canon(
        "S[(8,8,8,1,1,2,1):(16,4@laneid,2,1,4@laneid,1,1)] + 0@laneid", "S[(8,8,16):(16,4@laneid,1)]"),
    "test_normalize_tile_layout.case_both_data_device4": _canon(
        "S[(8,4,8,8,16):(4@laneid,1@laneid,4,2,4)]", "S[(32,8,8,16):(1@laneid,4,2,4)]"),
    "test_normalize_tile_layout.case_both_data_device6": _canon(
        "S[(8,4,8,16):(4@laneid,1@laneid,2,4)]", "S[(32,8,16):(1@laneid,2,4)]"),
    "test_normalize_tile_layout.case_both_data_device7": _canon(
        "S[(8,4,8):(4@laneid,1@laneid,8)]", "S[(32,8):(1@laneid,8)]"),
    "test_normalize_tile_layout.case_both_data_device8": _canon(
        "S[(8,4,8):(4@laneid,1@laneid,4)]", "S[(32,8):(1@laneid,4)]"),
    "test_normalize_tile_layout.case_both_data_device9": _canon(
        "S[(8,4):(4@laneid,1@laneid)]", "S[32:1@laneid]"),
    "test_normalize_tile_layout.case_both_data_device12": _canon(
        "S[(8,4,4,8,8,8):(4@laneid,1@laneid,4,8,8,8)]", "S[(32,4,8,8,8):(1@laneid,4,8,8,8)]"),
    "test_normalize_tile_layout.case_both_data_device13": _canon(
        "S[(8,4,4,8,8,8):(4@laneid,1@laneid,16,2,8,8)]", "S[(32,32,8,8):(1@laneid,2,8,8)]"),
    "test_normalize_tile_layout.case_both_data_device14": _canon(
        "S[(8,4,4,8,8,4,4,16,8):(4@laneid,1@laneid,16,2,8,2,16,1,4)]",
        "S[(32,32,32,64,8):(1@laneid,2,2,1,4)]"),
    "test_normalize_tile_layout.case15": _canon(
        "S[(32,3,4,5,2,3,4):(1@laneid,20,5,1,60,20,5)]", "S[(32,60,24):(1@laneid,1,5)]"),
    "test_normalize_tile_layout.unit_layout_case1": _canon("S[(1,1,1,1,1):(1,1,1,1,1)]", "S[1:1]"),
    "test_normalize_tile_layout.case_fuse_axis": [("cuda", [
        ("true", (".", ("L", "S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]"),
                  "verify_well_formed", [])),
        ("true", (".", ("L", "S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]"), "verify_well_formed", [])),
        *_canon("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]",
                "S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]"),
        *_canon("S[(2,2,8,4):(2@warpid,1@warpid,4@laneid,1@laneid)]", "S[128:1@tx]"),
        *_canon("S[(2,2,8,2,2,4):(2@wgid,2@wid_in_wg,4@laneid,1@wgid,1@wid_in_wg,1@laneid)]",
                "S[(2,2,8,2,2,4):(256@tx,64@tx,4@tx,128@tx,32@tx,1@tx)]"),
        *_canon("S[(2,8,2,4):(2@wid_in_wg,4@laneid,1@wid_in_wg,1@laneid)]",
                "S[(2,8,2,4):(64@tid_in_wg,4@tid_in_wg,32@tid_in_wg,1@tid_in_wg)]"),
        *_canon("S[(2,2,4,32):(2@wgid,1@wgid,32@tid_in_wg,1@tid_in_wg)]", "S[512:1@tx]"),
    ])],
    "test_normalize_tile_layout.case_sort_replicate_exclude_iters": [
        ("eq", (".", ("L", "S[1:1] + R[(8,4):(4@laneid,1@laneid)] + 2@warpid"), "canonicalize", []),
         (".", ("L", "S[1:1] + R[(4,8):(1@laneid,4@laneid)] + 2@warpid"), "canonicalize", []))],
    "test_normalize_tile_layout.case_empty_shard_canonicalize": [
        ("notnone", (".", ("L", "S[()] + R[32:1@laneid]"), "canonicalize", []))],
    # -- tile and its recognizers --------------------------------------------------------
    "test_tile_layout.case1": _tiles(("L", "S[8:1]"), ("L", "S[8:1]"), [8], [8], None, [64],
                                     expected=("L", "S[64:1]")),
    "test_tile_layout.case2": _tiles(("L", "S[(8,8):(8,1)]"), ("L", "S[(8,8):(8,1)]"), [8, 8], [8, 8],
                                     None, [64, 64], expected=("L", "S[(8,8,8,8):(512,8,64,1)]")),
    "test_tile_layout.case3": _tiles(("L", "S[(2,4):(1,2)]"), ("L", "S[(8,8):(8,1)]"), [8, 8], [2, 4],
                                     None, [16, 32], expected=("L", "S[(8,2,32):(64,1,2)]"),
                                     none_inner=True, none_outer=True),
    "test_tile_layout.case4": _tiles(("L", "S[(4,2,2,4):(16,8,1,2)]"), ("L", "S[(8,8):(8,1)]"),
                                     [8, 8], [8, 8], None, [64, 64],
                                     expected=(".", ("L", "S[(8,4,2,8,2,4):(512,16,8,64,1,2)]"),
                                               "canonicalize", []),
                                     none_inner=True, none_outer=True),
    "test_tile_layout.case5_sharded1": _tiles(
        ("L", "S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), ("L", "S[(8,8):(8,1)]"), [8, 8], [8, 8], None,
        [64, 64], expected=(".", ("L", "S[(8,8,1,8,4,2):(16,4@laneid,2,2,1@laneid,1)]"),
                            "canonicalize", []), none_inner=True, none_outer=True),
    "test_tile_layout.case6_sharded2": _tiles(
        ("L", "S[(8,4):(4@laneid,1@laneid)]"), ("L", "S[(8,8):(8,1)]"), [8, 8], [8, 4], None, [64, 32],
        expected=("L", "S[(8,8,8,4):(8,4@laneid,1,1@laneid)]"), none_inner=True, none_outer=True),
    "test_tile_layout.case7_normalized4": _tiles(
        ("L", "S[(2,4,1):(2,3,1)]"), ("L", "S[(4,2,1):(2,1,1)]"), [4, 2], [2, 4], None, [8, 8],
        none_inner=True, none_outer=True),
    "test_tile_layout.case8_normalized5": _tiles(
        ("L", "S[(2,4):(4,1)]"), ("L", "S[(8,2):(2,1)]"), [8, 2], [2, 4], None, [16, 8],
        none_inner=True, none_outer=True),
    "test_tile_layout.case9_normalized6": _tiles(
        ("L", "S[(2,1,1):(4,3,1)]"), ("L", "S[(8,4,1):(4,1,4)]"), [8, 4], [2, 1], None, [16, 4]),
    "test_tile_layout.case10_normalized7": [
        ("eq", (".", (".", ("L", "S[(1,2,1):(4,3,1)]"), "is_tile_inner", [
            (".", ("L", "S[(1,2,1):(4,3,1)]"), "tile", [("L", "S[(8,8,4):(32,4,1)]"), [8, 8, 4],
                                                       [1, 2, 1]]), [8, 16, 4], [1, 2, 1]]),
                "canonicalize", []), (".", ("L", "S[(8,8,4):(32,4,1)]"), "canonicalize", [])),
        ("notnone", (".", ("L", "S[(1,2,1):(4,3,1)]"), "is_tile_inner", [
            (".", (".", ("L", "S[(1,2,1):(4,3,1)]"), "tile", [("L", "S[(8,8,4):(32,4,1)]"),
                                                             [8, 8, 4], [1, 2, 1]]),
             "canonicalize", []), [8, 16, 4], [1, 2, 1]])),
        ("none", (".", ("L", "S[(8,8,4):(32,4,1)]"), "is_tile_inner", [
            (".", ("L", "S[(1,2,1):(4,3,1)]"), "tile", [("L", "S[(8,8,4):(32,4,1)]"), [8, 8, 4],
                                                       [1, 2, 1]]), [8, 16, 4], [8, 8, 4]])),
        ("none", (".", ("L", "S[(1,2,2):(8,4,3)]"), "is_tile_inner", [
            (".", ("L", "S[(1,2,1):(4,3,1)]"), "tile", [("L", "S[(8,8,4):(32,4,1)]"), [8, 8, 4],
                                                       [1, 2, 1]]), [8, 16, 4], [1, 2, 2]])),
    ],
    "test_tile_layout.case11_normalized8": _recognized(
        ("L", "S[(8,8,1,4,2):(4,4@laneid,2,1@laneid,1)]"), ("L", "S[(8,8,4):(32,4,1)]"), [8, 8, 4],
        [8, 8, 8], [64, 64, 32]),
    "test_tile_layout.case12_normalized9": _recognized(
        ("L", "S[(2,4,2,2):(4,1,4,3)]"), ("L", "S[(16,8,4):(1,64,16)]"), [16, 8, 4], [8, 2, 2],
        [128, 16, 8]),
    "test_tile_layout.case_dims_mismatch": [
        ("raises", (".", ("L", "S[(2,4):(1,2)]"), "tile", [("L", "S[8:1]"), [8], [2, 4]]),
         "Exception", None)],
    "test_tile_layout.case_tile_compose_layout": [
        ("eq", (".", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "tile",
                      [("L", "S[(8,1):(1,1)]"), [8, 1], [8, 64]]), "canonicalize", []),
         (".", ("C", 3, 3, 3, "S[4096:1]", True), "canonicalize", [])),
        ("eq", (".", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "is_tile_inner", [
            (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "tile",
             [("L", "S[(8,1):(1,1)]"), [8, 1], [8, 64]]), [4096], [512]]), "canonicalize", []),
         ("L", "S[8:1]")),
        ("eq", (".", (".", ("L", "S[(8,1):(1,1)]"), "is_tile_outer", [
            (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "tile",
             [("L", "S[(8,1):(1,1)]"), [8, 1], [8, 64]]), [4096], [8]]), "canonicalize", []),
         (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "canonicalize", [])),
        ("none", (".", ("L", "S[(8,1):(1,1)]"), "is_tile_inner", [
            (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "tile",
             [("L", "S[(8,1):(1,1)]"), [8, 1], [8, 64]]), [4096], [512]])),
        ("none", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "is_tile_outer", [
            (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "tile",
             [("L", "S[(8,1):(1,1)]"), [8, 1], [8, 64]]), [4096], [8]])),
    ],
    "test_tile_layout.case_tile_swizzle_layout": _tiles(
        _SW128, ("L", "S[(8,4):(1,8)]"), [8, 4], [8, 64], None, [64, 256], canon=True,
        expected=("C", 3, 3, 3, "S[(64,4,64):(64,4096,1)]", True)),
    "test_tile_layout.case_tile_swizzle_layout2": _tiles(
        _SW128, ("L", "S[(3,8,4):(32,1,8)]"), [3, 8, 4], [1, 8, 64], None, [3, 64, 256], canon=True,
        expected=("C", 3, 3, 3, "S[(3,64,4,64):(16384,64,4096,1)]", True)),
    "test_tile_layout.case_tile_swizzle_layout3": _tiles(
        _SW64, ("L", "S[(8,8):(1,8)]"), [8, 8], [8, 32], None, [64, 256], canon=True,
        expected=("C", 3, 2, 3, "S[(64,8,32):(32,2048,1)]", True)),
    "test_tile_layout.case_tile_swizzle_layout4": [
        ("none", (".", _SW64, "is_tile_inner", [_SW64, [64, 256], [8, 32]])),
        ("eq", (".", (".", _SW64, "is_tile_inner", [_SW64, [64, 32], [8, 32]]), "canonicalize", []),
         (".", ("L", "S[(8,1):(1,0)]"), "canonicalize", [])),
    ],
    "test_tile_layout.case_tile_swizzle_layout5": [
        ("eq", (".", (".", _SW64, "is_tile_inner", [
            (".", (".", _SW64, "tile", [("L", "S[(8,8):(1,8)]"), [8, 8], [8, 32]]), "tile",
             [("L", "S[(2,2):(1,2)]"), [2, 2], [64, 256]]), [128, 512], [8, 32]]), "canonicalize", []),
         (".", (".", ("L", "S[(8,8):(1,8)]"), "tile", [("L", "S[(2,2):(1,2)]"), [2, 2], [8, 8]]),
          "canonicalize", []))],
    "test_shard_layout.case_mma_layout": _tiles(
        _MMA, _WARP, [8, 4], [1, 2], None, [8, 8], canon=True, expected=("L", "S[(32,2):(1@laneid,1)]")),
    "test_shard_layout.case_cta_layout": [
        ("eq", (".", (".", (".", _MMA, "tile", [_WARP, [8, 4], [1, 2]]), "tile", [_CTA, [2, 2], [8, 8]]),
                "canonicalize", []),
         (".", ("L", "S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]"), "canonicalize", [])),
        ("eq", (".", _MMA, "is_tile_inner", [
            (".", (".", _MMA, "tile", [_WARP, [8, 4], [1, 2]]), "tile", [_CTA, [2, 2], [8, 8]]),
            [16, 16], [1, 2]]), ("L", "S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]")),
        ("eq", (".", (".", _CTA, "is_tile_outer", [
            (".", (".", _MMA, "tile", [_WARP, [8, 4], [1, 2]]), "tile", [_CTA, [2, 2], [8, 8]]),
            [16, 16], [2, 2]]), "canonicalize", []),
         (".", (".", _MMA, "tile", [_WARP, [8, 4], [1, 2]]), "canonicalize", [])),
    ],
    "test_shard_layout.case_cta_layout2": [("cuda", [
        ("eq", (".", (".", ("L", "S[2:1]"), "is_tile_inner", [_TILED_TX, [16, 16], [1, 2]]),
                "canonicalize", []),
         (".", ("L", "S[(2,8,2,4):(64@tx,4@tx,32@tx,1@tx)]"), "canonicalize", [])),
        ("eq", (".", (".", ("L", "S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]"), "is_tile_outer",
                      [_TILED_TX, [16, 16], [16, 8]]), "canonicalize", []), ("L", "S[2:1]")),
        ("eq", (".", (".", ("L", "S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), "is_tile_inner",
                      [_TILED_TX, [16, 16], [8, 8]]), "canonicalize", []),
         (".", _CTA, "canonicalize", [])),
        ("eq", (".", (".", _CTA, "is_tile_outer", [_TILED_TX, [16, 16], [2, 2]]), "canonicalize", []),
         ("L", "S[(32,2):(1@laneid,1)]")),
    ])],
    "test_shard_layout.case_quad_shuffle": _tiles(
        _MMA, ("L", "S[8:4@laneid]"), [8, 1], [1, 2], None, [8, 2], canon=True,
        expected=("L", "S[(8,2):(4@laneid,1)]")),
    "test_shard_layout.case_replicate": _tiles(
        ("L", "S[(64,128):(128,1)]"), ("L", "S[2:2@warpid] + R[2:1@warpid]"), [2, 1], [64, 128], None,
        [128, 128], canon=True,
        expected=(".", ("L", "S[(2,8192):(2@warpid,1)] + R[2:1@warpid]"), "canonicalize", [])),
    # -- size, span, trainium ------------------------------------------------------------
    "test_size_span.tile_layout_size": [("eq", (".", ("L", "S[(8,8):(8,1)]"), "size", []), 64)],
    "test_size_span.swizzle_layout_size": [
        ("eq", (".", _SW128, "size", []), 512),
        ("eq", (".", ("C", 4, 3, 3, "S[1024:1]", True), "size", []), 1024)],
    "test_size_span.compose_layout_size": [
        ("eq", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "size", []), 512)],
    "test_size_span.tile_layout_span": [
        ("eq", (".", ("L", "S[(8,8):(8,1)]"), "span", []), 64),
        ("eq", (".", ("L", "S[(8,6):(8,1)]"), "span", []), 62),
        ("eq", (".", ("L", "S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), "span", []), 2)],
    "test_size_span.swizzle_layout_span": [
        ("eq", (".", _SW128, "span", []), 512),
        ("eq", (".", ("C", 4, 3, 3, "S[1024:1]", True), "span", []), 1024)],
    "test_size_span.compose_layout_span": [
        ("eq", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "span", []), 512)],
    "test_size_span.trainium_layout_tests": [
        ("eq", (".", ("L", "S[(8,8):(1@P,1@F)]"), "size", ["P"]), 8),
        ("eq", (".", ("L", "S[(8,8):(1@P,1@F)]"), "size", ["F"]), 8),
        ("eq", (".", ("L", "S[(8,8,8):(64@F,1@P,1@F)]"), "size", ["P"]), 8),
        ("eq", (".", ("L", "S[(8,8,8):(64@F,1@P,1@F)]"), "size", ["F"]), 64),
        ("eq", (".", ("L", "S[(8,8,8):(64@F,1@P,1@F)]"), "span", ["F"]), 456),
        ("eq", (".", ("L", "S[8:1@P]"), "size", ["F"]), 1),
        ("eq", (".", ("L", "S[8:1@F]"), "size", ["P"]), 1),
        ("eq", (".", ("T", "TileLayout.trainium", ["PF", [128, 128]]), "size", ["P"]), 128),
        ("eq", ("T", "TileLayout.trainium", ["FPF", [32, 512, 512]]),
         ("L", "S[(32,4,128,512):(512@F,16384@F,1@P,1@F)]")),
        ("eq", ("T", "TileLayout.trainium", ["FPPF", [2, 4, 32, 512]]),
         ("L", "S[(2,4,32,512):(512@F,32@P,1@P,1@F)]")),
    ],
    # -- apply ---------------------------------------------------------------------------
    "test_apply.test_tile_layout_0": [
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("L", "S[(8,8):(8,1)]"), "apply", [("py", "i * 8 + j")]), "m"),
             ("py", "i * 8 + j")),
            ("eq", ("[]", (".", ("L", "S[(8,8):(8,1)]"), "apply", [("n", "i"), ("n", "j")],
                        {"shape": [8, 8]}), "m"), ("py", "i * 8 + j"))]),
        ("raises", (".", ("L", "S[(8,8):(8,1)]"), "apply", [1, 1, 1]), "Exception", None)],
    "test_apply.test_tile_layout_1": [
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("L", "S[(8,8):(10,1)]"), "apply", [("py", "i * 8 + j")]), "m"),
             ("py", "i * 10 + j")),
            ("eq", ("[]", (".", ("L", "S[(8,8):(10,1)]"), "apply", [("n", "i"), ("n", "j")],
                        {"shape": [8, 8]}), "m"), ("py", "i * 10 + j"))])],
    "test_apply.test_tile_layout_2": [
        ("grid", {"i": 6, "j": 16}, [
            ("eq", ("[]", (".", ("L", "S[(2,3,4,2,2):(1,2,12,6,48)]"), "apply",
                             [("n", "i"), ("n", "j")], {"shape": [6, 16]}), "m"),
             ("py", "i // 3 + i % 3 * 2 + j // 4 * 12 + j % 4 // 2 * 6 + j % 2 * 48"))])],
    "test_apply.test_tile_layout_3": [
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("L", "S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), "apply",
                             [("n", "i"), ("n", "j")], {"shape": [8, 8]}), "m"), ("py", "j % 2")),
            ("eq", ("[]", (".", ("L", "S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), "apply",
                             [("n", "i"), ("n", "j")], {"shape": [8, 8]}), "laneid"),
             ("py", "i * 4 + j // 2"))])],
    "test_apply.test_tile_layout_4": [
        ("eq", ("[]", (".", ("L", "S[(8,8):(8,1)]"), "apply", [("V", "v")]), "m"), ("V", "v"))],
    "test_apply.test_swizzle_layout_0": [
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("C", 0, 3, 3, "S[64:1]", True), "apply", [("py", "i * 8 + j")]), "m"),
             ("py", "i * 8 + i ^ j"))])],
    "test_apply.test_swizzle_layout_1": [
        ("eq", (".", _SW128, "size", []), 512),
        ("grid", {"p": 4096}, [
            ("eq", ("[]", (".", _SW128, "apply", [("n", "p")]), "m"),
             ("py", "p // 512 * 512 + (p % 512 // 64 * 8 + (p % 512 // 64 ^ p % 64 // 8)) * 8 + p % 8"))])],
    "test_apply.test_swizzle_layout_2": [
        ("eq", (".", ("C", 0, 3, 3, "S[64:1]", False), "size", []), 64),
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("C", 0, 3, 3, "S[64:1]", False), "apply", [("py", "i * 8 + j")]), "m"),
             ("py", "(i ^ j) * 8 + j"))])],
    "test_apply.test_swizzle_layout_3": [
        ("grid", {"i": 8, "j": 8}, [
            ("eq", ("[]", (".", ("C", 0, 2, 3, "S[32:1]", True), "apply", [("py", "i * 8 + j")]), "m"),
             ("py", "i * 8 + j // 4 * 4 + (i % 4 ^ j % 4)"))])],
    "test_apply.test_compose_layout_0": [
        ("eq", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "size", []), 512),
        ("eq", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "span", []), 512),
        ("grid", {"i": 8, "j": 64}, [
            ("eq", ("[]", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "apply", [("py", "i * 64 + j")]),
                    "m"),
             ("[]", (".", _SW128, "apply", [("[]", (".", ("L", "S[(8,64):(64,1)]"), "apply",
                                                     [("py", "i * 64 + j")]), "m")]), "m"))])],
    "test_apply.test_compose_layout_1": [
        ("eq", (".", ("C", 3, 3, 3, "S[(16,64,8):(64,1,1024)]", True), "size", []), 8192),
        ("eq", (".", ("C", 3, 3, 3, "S[(16,64,8):(64,1,1024)]", True), "span", []), 8192),
        ("grid", {"i": 16, "j": 64, "k": 8}, [
            ("eq", ("[]", (".", ("C", 3, 3, 3, "S[(16,64,8):(64,1,1024)]", True), "apply",
                             [("py", "i * 512 + j * 8 + k")]), "m"),
             ("[]", (".", _SW128, "apply", [("[]", (".", ("L", "S[(16,64,8):(64,1,1024)]"), "apply",
                                                     [("py", "i * 512 + j * 8 + k")]), "m")]), "m"))])],
    "test_apply.test_trainium_layout_0": [
        ("grid", {"i": 8, "j": 8}, [
            ("at", (".", ("L", "S[(8,8):(8@F,1@P)]"), "apply", [("n", "i"), ("n", "j")],
                    {"shape": [8, 8]}), {"F": ("py", "i * 8"), "P": ("n", "j")})])],
    "test_apply.test_trainium_layout_1": [
        ("grid", {"i": 6, "j": 16}, [
            ("at", (".", ("L", "S[(2,6,4,2,2):(1@F,1@P,12@F,6@P,48@F)]"), "apply",
                    [("n", "i"), ("n", "j")], {"shape": [12, 16]}),
             {"F": ("py", "i // 6 + j // 4 * 12 + j % 2 * 48"), "P": ("py", "i % 6 + j % 4 // 2 * 6")})])],
    "test_apply.test_trainium_psum_layout_0": [
        ("grid", {"i": 1024, "j": 8}, [
            ("at", (".", (".", ("L", "S[(1024,8):(1@F,1@P)]"), "to_psum", []), "apply",
                    [("n", "i"), ("n", "j")], {"shape": [1024, 8]}),
             {"Bank": ("py", "i // 512"), "F": ("py", "i % 512"), "P": ("n", "j")})])],
    "test_normalize_compose_layout.case1": [
        ("eq", (".", ("C", 3, 3, 3, "S[512:1]", True), "canonicalize", []), _SW128)],
    "test_normalize_compose_layout.case2": [
        ("eq", (".", ("C", 3, 3, 3, "S[(64,4,64):(64,4096,1)]", True), "canonicalize", []),
         ("C", 3, 3, 3, "S[(64,4,64):(64,4096,1)]", True))],
    "test_normalize_trainium_layout.case1": _canon("S[(8,8):(8@P,1@F)]", "S[(8,8):(8@P,1@F)]"),
    "test_normalize_trainium_layout.case2": _canon("S[(8,1,8):(8@F,1@P,1@F)]", "S[64:1@F]"),
    "test_normalize_trainium_layout.case3": _canon("S[(8,8,8):(8@F,1@P,1@F)]", "S[(8,8,8):(8@F,1@P,1@F)]"),
    # -- direct sum, group, permute ------------------------------------------------------
    "test_direct_sum.case1": [
        ("eq", _SUM, ("L", "S[16:1]")),
        ("grid", {"p": 2, "q": 2, "i": 2, "j": 2}, [
            ("eq", ("[]", (".", _SUM, "apply", [("n", "p"), ("n", "q"), ("n", "i"), ("n", "j")],
                           {"shape": [2, 2, 2, 2]}), "m"),
             ("+", ("[]", (".", ("L", "S[(2,2):(8,2)]"), "apply", [("n", "p"), ("n", "i")],
                           {"shape": [2, 2]}), "m"),
              ("[]", (".", ("L", "S[(2,2):(4,1)]"), "apply", [("n", "q"), ("n", "j")],
                      {"shape": [2, 2]}), "m")))]),
        ("eq", (".", (".", ("L", "S[(2,2):(4,1)]"), "is_direct_sum_right", [_SUM, [2, 2, 2, 2], [2, 2]]),
                "canonicalize", []), (".", ("L", "S[(2,2):(8,2)]"), "canonicalize", [])),
        ("eq", (".", (".", ("L", "S[(2,2):(8,2)]"), "is_direct_sum_left", [_SUM, [2, 2, 2, 2], [2, 2]]),
                "canonicalize", []), (".", ("L", "S[(2,2):(4,1)]"), "canonicalize", [])),
    ],
    "test_group_by_logical_shape.case1": [
        ("eq", ("[]", (".", _TILED88, "group", [[64, 64]]), 0), _TILED88),
        ("eq", ("[]", (".", _TILED88, "group", [[64, 64]]), 1), [0, 2, 4])],
    "test_group_many_uses_minimal_common_refinement": [
        ("eq", (".", ("L", "S[30:1]"), "group_many", [[[6, 5], [2, 15]]]),
         [("L", "S[(2,3,5):(15,5,1)]"), [[0, 2, 3], [0, 1, 3]]])],
    "test_group_many_preserves_repeated_boundaries_as_unit_iters": [
        ("eq", (".", ("L", "S[30:1]"), "group_many", [[[1, 6, 1, 5, 1], [2, 1, 3, 5]]]),
         [("L", "S[(1,2,1,3,1,5,1):(30,15,15,5,5,1,1)]"), [[0, 1, 4, 5, 6, 7], [0, 2, 3, 4, 7]]])],
    "test_group_many_preserves_existing_unit_iter_stride": [
        ("eq", (".", ("L", "S[(6,1,5):(5,97,1)]"), "group_many", [[[6, 1, 5], [30]]]),
         [("L", "S[(6,1,5):(5,97,1)]"), [[0, 1, 2, 3], [0, 3]]])],
    "test_group_many_rejects_incompatible_boundaries": [
        ("raises", (".", ("L", "S[12:1]"), "group_many", [[[3, 4], [2, 6]]]), "RuntimeError",
         "incompatible cumulative boundaries")],
    "test_permute_by_groups.case_swap_two_groups": [
        ("eq", (".", _GROUPED, "permute_by_groups", [_SEPS, [1, 0]]),
         (".", _GROUPED, "permute_dims", [[2, 3, 0, 1]]))],
    "test_permute_by_groups.case_identity": [
        ("eq", (".", _GROUPED, "permute_by_groups", [_SEPS, [0, 1]]), _GROUPED)],
    "test_permute_by_groups.case_invalid_perm": [
        ("raises", (".", _GROUPED, "permute_by_groups", [_SEPS, [0, 0]]), "AssertionError", None)],
    "test_tile_to.case1": [
        ("eq", (".", ("L", "S[(8,8):(8,1)]"), "tile_to", [[64, 64], [8, 8]]),
         (".", ("L", "S[(8,8):(8,1)]"), "tile", [("L", "S[(8,8):(8,1)]"), [8, 8], [8, 8]]))],
    # -- shared and tensor memory constructors ------------------------------------------
    "test_mma_shared_layout.case1": [
        ("eq", ("T", "mma_shared_layout", ["float16", ("T", "SwizzleMode.SWIZZLE_128B_ATOM"), [64, 256]]),
         ("C", 3, 3, 3, "S[(64,4,64):(64,4096,1)]", True))],
    "test_mma_shared_layout.case2": [
        ("eq", ("T", "mma_shared_layout", ["float16", ("T", "SwizzleMode.SWIZZLE_128B_ATOM"), [3, 64, 256]]),
         ("C", 3, 3, 3, "S[(3,64,4,64):(16384,64,4096,1)]", True))],
    "test_mma_shared_layout.case3": [
        ("eq", ("T", "mma_shared_layout", ["float16", ("T", "SwizzleMode.SWIZZLE_64B_ATOM"), [3, 64, 256]]),
         ("C", 3, 2, 3, "S[(3,64,8,32):(16384,32,2048,1)]", True))],
    "test_tmem_mma_operand_layout_grouped_d": [
        ("eq", ("T", "tmem_mma_operand_layout", ["D", [64, 512], "float32"],
                {"M": 64, "cta_group": 1, "ws": True, "group": [2, 2, 128]}),
         (".", ("L", "S[(64,2,2,128):(1@TLane,128@TCol,64@TLane,1@TCol)]"), "canonicalize", [])),
        ("eq", ("T", "tmem_mma_operand_layout", ["D", [64, 512], "float32"],
                {"M": 128, "cta_group": 2, "group": [2, 2, 128]}),
         (".", ("L", "S[(64,2,2,128):(1@TLane,128@TCol,64@TLane,1@TCol)]"), "canonicalize", [])),
        ("raises", ("T", "tmem_mma_operand_layout", ["D", [128, 256], "float32"],
                    {"M": 128, "cta_group": 1, "ws": True}), "ValueError", "ws=True only valid"),
        ("raises", ("T", "tmem_mma_operand_layout", ["D", [64, 512], "float32"],
                    {"M": 64, "cta_group": 1, "ws": True, "group": [4, 128]}), "ValueError", "group must be"),
        ("raises", ("T", "tmem_mma_operand_layout", ["A", [1, 128, 64], "bfloat16"],
                    {"M": 128, "cta_group": 1}), "ValueError", "identity needs 2D"),
        ("eq", ("T", "tmem_mma_operand_layout", ["A", [64, 64], "float32"], {"M": 64, "cta_group": 1}),
         (".", ("L", "S[(64,64):(1@TLane,1@TCol)]"), "canonicalize", [])),
    ],
    # -- storage, pack, unpack -----------------------------------------------------------
    "test_storage.case1": [("eq", (".", ("L", "S[(8,8):(8,1)]"), "storage", []), ("L", "S[(8,8):(8,1)]"))],
    "test_storage.case2": [("eq", (".", ("L", "S[(8,4,2):(4@laneid,1@laneid,1)]"), "storage", []),
                            ("L", "S[2:1]"))],
    "test_storage.case3": [("eq", (".", _SW128, "storage", []), _SW128)],
    "test_storage.case4": [
        ("eq", (".", (".", (".", (".", (".", ("L", "S[2:1]"), "tile", [_WARP, [8, 4], [1, 2]]), "tile",
                                     [("L", "S[(2,1):(1,2)]"), [2, 1], [8, 8]]), "tile",
                               [("L", "S[(1,8):(8,1)]"), [1, 8], [16, 8]]), "storage", []),
                "canonicalize", []),
         (".", (".", (".", ("L", "S[2:1]"), "tile", [("L", "S[(2,1):(1,2)]"), [2, 1], [1, 2]]), "tile",
                     [("L", "S[(1,8):(8,1)]"), [1, 8], [2, 2]]), "canonicalize", []))],
    "test_unpack.case1": [("eq", (".", (".", ("L", "S[(8,8):(8,1)]"), "unpack", [2]), "canonicalize", []),
                           (".", ("L", "S[(8,16):(16,1)]"), "canonicalize", []))],
    "test_unpack.case2": [("eq", (".", (".", _SW128, "unpack", [2]), "canonicalize", []),
                           (".", ("C", 4, 3, 3, "S[1024:1]", True), "canonicalize", []))],
    "test_unpack.case3": [("eq", (".", (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "unpack", [2]),
                                  "canonicalize", []),
                           (".", ("C", 4, 3, 3, "S[(8,128):(128,1)]", True), "canonicalize", []))],
    "test_pack.case1": [("eq", (".", (".", ("L", "S[(8,16):(16,1)]"), "pack", [2]), "canonicalize", []),
                         (".", ("L", "S[(8,8):(8,1)]"), "canonicalize", []))],
    "test_pack.case2": [("eq", (".", (".", ("C", 4, 3, 3, "S[1024:1]", True), "pack", [2]),
                                "canonicalize", []),
                         (".", _SW128, "canonicalize", []))],
    "test_pack.case3": [("eq", (".", (".", ("C", 4, 3, 3, "S[(8,128):(128,1)]", True), "pack", [2]),
                                "canonicalize", []),
                         (".", ("C", 3, 3, 3, "S[(8,64):(64,1)]", True), "canonicalize", []))],
}


def _slice(subject, shape, region) -> list:
    """The slice unit pattern (TVM's ``verify_slice``): the slice exists, and every
    element of the region maps where the layout maps it."""
    sliced = (".", subject, "slice", [shape, region])
    sizes = {f"u{d}": r[1] - r[0] for d, r in enumerate(region)}
    inner = [("n", f"u{d}") for d in range(len(region))]
    outer = [("py", f"u{d} + {r[0]}") for d, r in enumerate(region)]
    return [("notnone", sliced),
            ("grid", sizes, [("eq", ("[]", (".", sliced, "apply", inner,
                                           {"shape": [r[1] - r[0] for r in region]}), "m"),
                                  ("[]", (".", subject, "apply", outer, {"shape": shape}), "m"))])]


UNITS.update({
    "test_slice.case1": [*_slice(("L", "S[(8,8):(8,1)]"), [64], [(5, 8)]),
                         ("eq", (".", (".", ("L", "S[(8,8):(8,1)]"), "slice", [[64], [("R", 5, 8)]]),
                                 "canonicalize", []),
                          (".", (".", ("L", "S[(8,8):(8,1)]"), "slice", [[64], [(5, 8)]]),
                           "canonicalize", []))],
    "test_slice.case2": _slice(("L", "S[(4,4,4,4):(64,4,16,1)]"), [16, 16], [(2, 3), (6, 10)]),
    "test_slice.case3": _slice(("L", "S[(2,8,3,8):(192,8,64,1)]"), [16, 24], [(2, 6), (4, 12)]),
    "test_slice.case4": _slice(("L", "S[(128,2,64):(64,8192,1)]"), [128, 128], [(0, 128), (32, 96)]),
    "test_slice.case_swizzle_slice": _slice(_SW128, [512], [(64, 128)]),
    "test_slice.case_compose_slice": _slice(("C", 3, 3, 3, "S[(8,64):(64,1)]", True), [512], [(64, 128)]),
    "test_slice.case_compose_slice_2d": _slice(("C", 3, 3, 3, "S[(8,64):(64,1)]", True), [8, 64],
                                               [(2, 4), (0, 64)]),
    "test_slice_tcgen05_frag_layout_scope_consistent": [("cuda", [
        ("threads", (".", ("L", "S[(4,2,2,8,4,4,2):(1@wid_in_wg,16,2,4@laneid,4,1@laneid,1)]"), "slice",
                     [[128, 32], [(0, 128), (0, 32)]]), ["tid_in_wg"], 128),
        ("threads", (".", ("L", "S[(4,2,2,8,4,4,2):(1@wid_in_wg,16,2,4@laneid,4,1@laneid,1)]"), "slice",
                     [[128, 32], [(0, 128), (16, 32)]]), ["tid_in_wg"], 128),
    ])],
    "test_apply_to_shape": [
        ("eq", (".", ("L", "S[(16,16):(16,1)]"), "apply_to_shape", [[5, 7], [16, 16]]), [5, 7]),
        ("eq", (".", ("L", "S[(16,4,4):(16,4,1)]"), "apply_to_shape", [[5, 7], [16, 16]]), [5, 1, 3]),
        ("eq", (".", ("L", "S[(4,4,4,4):(64,16,4,1)]"), "apply_to_shape", [[13, 9], [16, 16]]),
         [3, 1, 2, 1]),
    ],
})


def _structured(subject, coords, expected, ranges, *, shape=None, logical=None) -> list:
    """A symbolic apply: the expression equals ``expected`` (TIRx's tree, structurally),
    and at every binding in ``ranges`` it evaluates to the swizzled ``logical`` address
    (the swizzle of the unswizzled tile's address, by our evaluator)."""
    kw = {} if shape is None else {"shape": shape}
    actual = ("[]", (".", subject, "apply", [("V", c) for c in coords], kw), "m")
    checks = [("eq", actual, ("E", expected))]
    if logical is not None:
        checks.append(("evals", ranges, actual, logical))
    return checks


_SWZ = "({0}) ^ ((({0}) >> 3 & 56) >> 3)"  # Swizzle(3,3,3) of an address, as a formula
UNITS.update({
    **{f"test_compose_structured_apply_uses_bounded_normal_form[{b}]": [
        *_structured(("C", 3, b, 3, _STRUCT_TILE, True), ["x", "y"], expected, {"x": 8, "y": 8},
                     logical=f"s{b}(x * 64 + y + 72)"),
        *_structured(("C", 3, b, 3, _STRUCT_TILE, True), ["x", "y"], expected, {}, shape=[8, 8])]
       for b, expected in (
           (0, "x * 64 + y + 72"),
           (1, "(x * 64 + (y ^ (((x + 1) & 1) << 3)) + 64) ^ 8"),
           (2, "(x * 64 + (y ^ (((x + 1) & 3) << 3)) + 64) ^ 8"),
           (3, "(x * 64 + (y ^ (((x + 1) & 7) << 3)) + 64) ^ 8"))},
    "test_compose_rank_one_shape_aware_apply_is_structured": [
        *_structured(("C", 3, 3, 3, _STRUCT_TILE, True), ["flat"],
                     "(flat // 8 * 64 + (flat % 8 ^ (((flat // 8 + 1) & 7) << 3)) + 64) ^ 8",
                     {"flat": 64}, shape=[64], logical="s3(flat // 8 * 64 + flat % 8 + 72)"),
        ("notkind", ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply", [("V", "flat")],
                            {"shape": [64]}), "m"), "Let")],
    "test_compose_scalar_apply_keeps_full_swizzle_semantics": [
        ("has", ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply", [("V", "coord")]), "m"), "//"),
        ("has", ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply", [("V", "coord")]), "m"), "%"),
        ("evals", {"coord": 256}, ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply",
                                            [("V", "coord")]), "m"),
         "s3(coord // 8 * 64 + coord % 8 + 72)")],
    "test_compose_shape_aware_apply_decomposes_each_logical_coordinate":
        _structured(("C", 3, 3, 3, "S[(2,4,8,8):(256,64,8,1)]", True), ["x", "y"],
                    "x * 64 + (y ^ ((x & 7) << 3))",
                    {"x": 8, "y": 64}, shape=[8, 64], logical="s3(x * 64 + y)"),
    "test_compose_structured_apply_splits_one_cross_atom_term": [
        *_structured(("C", 3, 3, 3, "S[(128,8):(8,1)]", True), ["x", "y"],
                     "x // 8 * 64 + (x % 8 * 8 + y ^ (((x // 8) & 7) << 3))", {"x": 128, "y": 8},
                     logical="s3(x * 8 + y)"),
        ("notkind", ("[]", (".", ("C", 3, 3, 3, "S[(128,8):(8,1)]", True), "apply", [("V", "x"), ("V", "y")]),
                     "m"), "Let")],
    "test_compose_structured_apply_handles_uint32_casts_per_term": [
        ("eq", ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply", [("E", "cast('uint32', x)"),
                                                                        ("E", "cast('uint32', y)")],
                       {"shape": [8, 8]}), "m"),
         ("E", "(cast('uint32', x) * 64 + 64"
               " + (cast('uint32', y) ^ (((cast('uint32', x) + 1) & 7) << 3))) ^ 8")),
        ("hasnot", ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply", [("E", "cast('uint32', x)"),
                                                                            ("E", "cast('uint32', y)")],
                           {"shape": [8, 8]}), "m"), "// T.uint32(64)"),
        ("evals", {"x": 8, "y": 8}, ("[]", (".", ("C", 3, 3, 3, _STRUCT_TILE, True), "apply",
                                            [("E", "cast('uint32', x)"), ("E", "cast('uint32', y)")],
                                            {"shape": [8, 8]}), "m"), "s3(x * 64 + y + 72)")],
    "test_compose_extent_one_coordinate_is_zero_before_classification": [
        *_structured(("C", 3, 3, 3, "S[(1,8,8):(-1,64,1)] + 8", True), ["unused", "x", "y"],
                     "(x * 64 + (y ^ ((x & 7) << 3))) ^ 8", {}),
        ("hasnot", ("[]", (".", ("C", 3, 3, 3, "S[(1,8,8):(-1,64,1)] + 8", True), "apply",
                           [("V", "unused"), ("V", "x"), ("V", "y")]), "m"), "unused")],
    **{f"test_compose_structured_apply_falls_back_to_full_swizzle[{case}]": [
        ("kind", ("[]", (".", ("C", 3, 3, 3, tile, inner), "apply", [("V", "x"), ("V", "y")]), "m"), "Let"),
        ("eq", ("attr", ("[]", (".", ("C", 3, 3, 3, tile, inner), "apply", [("V", "x"), ("V", "y")]), "m"),
                "value"), ("[]", (".", ("L", tile), "apply", [("V", "x"), ("V", "y")]), "m")),
        ("kind", ("attr", ("[]", (".", ("C", 3, 3, 3, tile, inner), "apply", [("V", "x"), ("V", "y")]), "m"),
                  "body"), "Let"),
        ("letq", ("[]", (".", ("C", 3, 3, 3, tile, inner), "apply", [("V", "x"), ("V", "y")]), "m"), 8),
        ("evals", {"x": 3, "y": 8}, ("[]", (".", ("C", 3, 3, 3, tile, inner), "apply",
                                             [("V", "x"), ("V", "y")]), "m"), logical)]
       for case, tile, inner, logical in (
           ("outer_swizzle", "S[(8,8):(64,1)] + 8", False, "o3(x * 64 + y + 8)"),
           ("negative_stride", "S[(8,8):(-64,1)] + 8", True, "s3(x * -64 + y + 8)"),
           ("carry", "S[(8,8):(64,1)] + 4", True, "s3(x * 64 + y + 4)"))},
    "test_compose_structured_apply_emits_shared_base_address_chain": [
        ("eq", ("[]", (".", ("C", 3, 3, 3, f"S[(8,8):(64,1)] + {c}", True), "apply",
                       [("V", "x"), ("V", "y")]),
                "m"), ("E", f"({base}) {op}"))
        for c, base, op in ((0, "x * 64 + (y ^ ((x & 7) << 3))", "+ 0"),
                            (8, "x * 64 + (y ^ ((x & 7) << 3))", "^ 8"),
                            (16, "x * 64 + (y ^ ((x & 7) << 3))", "^ 16"),
                            (24, "x * 64 + (y ^ ((x & 7) << 3))", "^ 24"),
                            (512, "x * 64 + (y ^ ((x & 7) << 3))", "+ 512"),
                            (520, "x * 64 + (y ^ ((x & 7) << 3)) + 512", "^ 8"),
                            (528, "x * 64 + (y ^ ((x & 7) << 3)) + 512", "^ 16"),
                            (536, "x * 64 + (y ^ ((x & 7) << 3)) + 512", "^ 24"))]
    + [("evals", {"x": 8, "y": 8}, ("[]", (".", ("C", 3, 3, 3, f"S[(8,8):(64,1)] + {c}", True), "apply",
                                           [("V", "x"), ("V", "y")]), "m"), f"s3(x * 64 + y + {c})")
       for c in (0, 8, 16, 24, 512, 520, 528, 536)],
})

# -- test_tcgen05_ldst.py: the host-side layout tests ------------------------------------
#: (row, col) of fp32 register r of warpgroup thread t, per shape (the test's _decompose_fp32)
DECOMPOSE = {
    "16x64b": ("((t & 31) >> 2) + 8 * ((t & 31) & 1) + 16 * (t >> 5)",
               "(((t & 31) >> 1) & 1) + 2 * r"),
    "16x128b": ("((t & 31) >> 2) + 8 * (r & 1) + 16 * (t >> 5)", "((t & 31) & 3) + 4 * (r >> 1)"),
    "16x256b": ("((t & 31) >> 2) + 8 * ((r >> 1) & 1) + 16 * (t >> 5)",
                "(r & 1) + 2 * ((t & 31) & 3) + 8 * (r >> 2)"),
}
COLS_PER_REP = {"16x64b": 2, "16x128b": 4, "16x256b": 8}
REGS_PER_REP = {"16x64b": 1, "16x128b": 2, "16x256b": 4}

UNITS.update({
    **{f"test_tmem_datapath_layout_F_row_to_lane_mapping[{s}]": [
        ("grid", {"r": 64, "c": [0, 1, 7, 16, 31]}, [
            ("at", (".", ("T", "tmem_datapath_layout", ["F", 64, 32], {"sub_slab": s}), "apply",
                    [("n", "r"), ("n", "c")], {"shape": [64, 32]}),
             {"TLane": ("py", f"(r // 16) * 32 + {s} * 16 + r % 16"), "TCol": ("n", "c")})])]
       for s in (0, 1)},
    "test_tmem_datapath_layout_rejects_invalid_sub_slab": [
        ("raises", ("T", "tmem_datapath_layout", ["F", 64, 8], {"sub_slab": 2}), "ValueError",
         "sub_slab must be 0 or 1"),
        ("raises", ("T", "tmem_datapath_layout", ["D", 128, 8], {"sub_slab": 1}), "ValueError",
         "already spans both sub-slabs")],
    **{f"test_tcgen05_atom_layout_apply_matches_decompose_fp32[{shape}-{rep}]": [
        ("grid", {"t": 128, "r": REGS_PER_REP[shape] * rep}, [
            ("at0", (".", ("T", "tcgen05_atom_layout", [shape, [64, COLS_PER_REP[shape] * rep], "float32"]),
                     "apply", [("py", DECOMPOSE[shape][0]), ("py", DECOMPOSE[shape][1])],
                     {"shape": [64, COLS_PER_REP[shape] * rep]}),
             {"laneid": ("py", "t & 31"), "wid_in_wg": ("py", "t >> 5"), "m": ("n", "r")})])]
       for shape in ("16x64b", "16x128b", "16x256b") for rep in (1, 2, 4)},
    "test_tmem_datapath_layout_D_row_to_lane_mapping": [
        ("eq", ("[]", (".", ("T", "tmem_datapath_layout", ["D", 128, 32]), "apply", [r, 0],
                       {"shape": [128, 32]}), "TLane"), r) for r in (0, 1, 15, 16, 31, 32, 63, 64, 127)],
    "test_tmem_datapath_layout_B_col_split_mapping": [
        ("at", (".", ("T", "tmem_datapath_layout", ["B", 64, 128]), "apply", [row, col],
                {"shape": [64, 128]}),
         {"TLane": row + 64 * (col // 64), "TCol": col % 64})
        for row in (0, 1, 31, 63) for col in (0, 1, 63, 64, 65, 127)],
    "test_tcgen05_atom_layout_32x32b_datapath_B_mapping": [
        ("at", (".", ("T", "tcgen05_atom_layout", ["32x32b", [64, 128], "float32"]), "apply", [row, col],
                {"shape": [64, 128]}), {"tid_in_wg": row + 64 * (col // 64), "m": col % 64})
        for row in (0, 1, 31, 63) for col in (0, 1, 63, 64, 65, 127)],
    "test_datapath_B_layout_factories_reject_invalid_inputs": [
        ("raises", ("T", "tmem_datapath_layout", ["B", 128, 32]), "ValueError", "expects rows=64"),
        ("raises", ("T", "tmem_datapath_layout", ["B", 64, 31]), "ValueError", "expects even cols"),
        ("raises", ("T", "tmem_datapath_layout", ["B", 64, 32], {"sub_slab": 1}), "ValueError",
         "sub_slab must be 0"),
        ("raises", ("T", "tcgen05_atom_layout", ["32x32b", [64, 32], "float16"]), "ValueError", "fp32-only"),
        ("raises", ("T", "tcgen05_atom_layout", ["32x32b", [64, 31], "float32"]), "ValueError",
         "expects even N"),
        ("raises", ("T", "tcgen05_atom_layout", ["32x32b", [64, 6], "float32"]), "ValueError",
         "PTX Table 49"),
    ],
})

#: units whose answer needs what we do not model, each with its reason and the refusal
UNSUPPORTED: dict[str, tuple[str, list]] = {
    "test_group_many_accepts_only_provably_ordered_symbolic_boundaries": (
        "a symbolic extent (floormod(n, 16) + 2): our layouts hold integers", [
            ("raises", ("spec", ("S", [("E", "2 * (n % 16 + 2)")], [1])), "Exception", "integer")]),
    "test_slice.case_adds_region_offset_to_base": (
        "a symbolic offset (warp_offset * 64): our layouts hold integers", [
            ("raises", ("spec", ("S", [4, 64], None), ("E", "warp_offset * 64")), "Exception", "symbolic")]),
    "test_compose_structured_apply_classifies_dynamic_offsets": (
        "a symbolic offset (high * 64 + low % 8 + 16): our layouts hold integers", [
            ("raises", ("spec", ("S", [8, 8], [64, 1]), ("E", "high * 64")), "Exception", "symbolic")]),
    "test_compose_structured_apply_falls_back_to_full_swizzle[unbounded_low]": (
        "a symbolic offset (value): our layouts hold integers", [
            ("raises", ("spec", ("S", [8, 8], [64, 1]), ("E", "value")), "Exception", "symbolic")]),
    "test_compose_structured_apply_falls_back_to_full_swizzle[symbolic_stride]": (
        "a symbolic stride (value): our layouts hold integers", [
            ("raises", ("spec", ("S", [8, 8], [("E", "value"), 1]), 8), "Exception", "integer|symbolic")]),
    "test_slice_single_shard_skips_defensive_floormod": (
        "a symbolic slice region (stage, stage + 1), whose offset would be symbolic: our layouts "
        "hold integers", [
            ("raises", (".", ("L", "S[(3,128,128):(16384,128,1)]"), "slice",
                        [[3, 128, 128], [("R", ("V", "stage"), ("E", "stage + 1")), ("R", 0, 128),
                                         ("R", 0, 128)]]), "Exception", "symbolic")]),
    "test_default_tmem_layout_M128_matches_datapath_D": (
        "_default_tmem_layout is a helper of TVM's CUDA allocator (tvm.backend.cuda.lang."
        "alloc_pool), not the layout API; main defines it for 128 rows as "
        "tmem_datapath_layout('D', 128, cols), which is checked here against TVM's identity "
        "(rows, cols):(1@TLane, 1@TCol)", [
            ("eq", ("T", "tmem_datapath_layout", ["D", 128, 32]), ("L", "S[(128,32):(1@TLane,1@TCol)]"))]),
}
