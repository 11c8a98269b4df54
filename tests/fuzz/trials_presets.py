"""Trials of the Triton and AMD presets (``triton.*``, ``amd.*``) with hostile parameters,
compared with Triton's own lowering of the equal Gluon object wherever the preset builds
one (blocked, NVMMA distributed and shared, swizzled shared, tensor memory, MFMA)."""

from __future__ import annotations

import random
from typing import Any

from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd
from triton.experimental.gluon.language.nvidia import blackwell as bw

from tests.fuzz.runner import expect
from tests.fuzz.trials_triton import _bases_of, _tritons
from tests.fuzz.values import junk
from tilelayout import presets
from tilelayout.core.errors import LayoutError
from tilelayout.interop.gluon_checks import check_lowering
from tilelayout.presets import registry

NAMES = tuple(n for n in registry.names() if n.startswith(("triton.", "amd.")))
#: nasty values per parameter kind
NASTY = {
    "shape": ((3, 4), (0, 8), (1048576, 64), (True, 64), (4.5, 8), "8,4", (1 << 40,), (), (64,),
              (2, 2, 2), (-1, 4), "x", (2 ** 31, 1), (1, 1, 1, 1)),
    "int": (0, 3, -1, True, 8.0, 1 << 40, "8", None, 10 ** 5000),
    "choice": (0, 5, 8.0, True, "x", None, 2 ** 31),
    "bool": (1, 0, "yes", None),
    "order": ((0,), (1, 1), (0, 1, 2), "1,0", (True, False), ()),
    "spec": ((("0", "3"),), (("0", "1"), ("1", "0"), ("9", "9")), (), "x", ((0, 1),)),
    "mesh": ("x", {"a": 0}),
}


def _value(rng: random.Random, prm: Any) -> Any:
    if rng.random() < 0.5 and prm.choices:
        return rng.choice(prm.choices)
    if prm.kind == "shape" and isinstance(prm.default, tuple):
        return tuple(1 << rng.randint(0, 7) for _ in prm.default)
    if prm.kind == "int" and isinstance(prm.default, int):
        return 1 << rng.randint(0, 4)
    return rng.choice(NASTY.get(prm.kind, (None,)) + (junk(rng),))


def _gluon(name: str, p: dict[str, Any]) -> Any | None:
    """The Gluon object a built preset equals (None: not compared)."""
    if any(p.get(k, (1, 1)) not in ((1, 1), (1, 0), (0, 1)) for k in ("ctas_per_cga", "cta_split_num")):
        return None
    if name == "triton.blocked":
        return ttgl.BlockedLayout(list(p["size_per_thread"]), list(p["threads_per_warp"]),
                                  list(p["warps_per_cta"]), list(p["order"]))
    if name == "triton.nvmma_shared":
        return ttgl.NVMMASharedLayout(p["swizzle_byte_width"], p["element_bitwidth"],
                                      len(p["shape"]), p["transposed"], p["fp4_padded"])
    if name == "triton.swizzled_shared":
        return ttgl.SwizzledSharedLayout(p["vec"], p["per_phase"], p["max_phase"], list(p["order"]))
    if name == "triton.tmem":
        return bw.TensorMemoryLayout(tuple(p["block"]), p["col_stride"])
    if name == "amd.mfma":
        return amd.AMDMFMALayout(p["version"], list(p["instr_shape"]), p["transposed"],
                                 list(p["warps_per_cta"]), p["element_bitwidth"],
                                 list(p["tiles_per_warp"]))
    if name == "triton.nvmma_distributed" and p.get("instr_shape"):
        return ttgl.NVMMADistributedLayout([p["version"], 0], list(p["warps_per_cta"]),
                                           list(p["instr_shape"]))
    return None


def trial(rng: random.Random) -> None:
    name = rng.choice(NAMES)
    info = registry.info(name)
    given = {}
    for prm in info.params:
        if rng.random() < 0.3:
            given[prm.name] = _value(rng, prm)
    if rng.random() < 0.05:
        given[rng.choice(("nope", "shapes", "dtype"))] = 1
    built = presets.get(name, **given)
    try:
        obj = _gluon(name, dict(built.params))
    except (AssertionError, TypeError, ValueError):  # Gluon's own constructor refuses it
        return
    if obj is None:
        return
    shape = list(built.shape)
    try:
        check_lowering(obj, shape)
    except LayoutError:
        return  # the preset builds what Triton would refuse: nothing to compare with
    theirs = _tritons(obj, shape)
    mine = {k: v for k, v in _bases_of(built.layout, tuple(shape), "offset" in theirs).items() if v}
    expect(mine == theirs, f"{name} {given}: {built.layout} has bases {mine}, Triton's {theirs}")
