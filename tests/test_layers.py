"""Imports point down the layer order only (docs/architecture.md), checked on the source.

Every module under ``src/tilelayout`` is parsed with ``ast``; each import of a
``tilelayout`` module (absolute or relative, at any depth, including ``TYPE_CHECKING``
blocks) must name a module of a lower layer or of its own package. Siblings of one rank
(``planning``/``codegen``, ``presets``/``interop``, ``render``/``tirx``,
``explorer``/``commands``) may not
import each other. ``cli.py`` and the package ``__init__`` sit on top. The only way up is
the model's methods (``core/operations.py``, each a LayoutMethod), which import by name at run time and are
listed in :data:`UPWARD_BY_NAME`, the one place exceptions live.
"""

from __future__ import annotations

import ast
import importlib
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tilelayout"

#: layer -> rank; a module may import ranks below its own (and its own package)
LAYERS = {
    "core": 0, "syntax": 1, "eval": 2, "algebra": 3, "analysis": 4,
    "planning": 5, "codegen": 5, "presets": 6, "interop": 6, "render": 7, "tirx": 7,
    "explorer": 8, "commands": 8, "cli": 9, "__init__": 9, "__main__": 10,
}

#: the documented exceptions: module -> the layers it may reach upward, and how
UPWARD_BY_NAME = {
    "core/operations.py": "the model's methods are LayoutMethods: free functions of eval, algebra, "
                          "syntax, render and (the notebook display) explorer bound to the "
                          "layout, imported by name on first use (importlib), so no import "
                          "statement points up",
    "planning/problem/operands.py": "a 'preset:NAME' operand of the planning entry points is built "
                            "by tilelayout.presets, imported by name at run time "
                            "(importlib); no import statement points up",
    "planning/plan.py": "ConversionPlan.code(lang='gluon') is written by "
                        "tilelayout.interop.gluon_conversion (Gluon's layouts come from "
                        "interop's to_gluon, which needs Triton), imported by name at run "
                        "time (importlib); no import statement points up",
}


def _layer(parts: list[str]) -> str:
    """The layer of module ``tilelayout.<parts...>``."""
    return parts[0] if parts else "__init__"


def imports_of(path: Path, root: Path) -> list[tuple[int, list[str]]]:
    """``(line, target parts below tilelayout)`` for every import of a tilelayout module."""
    rel = path.relative_to(root).with_suffix("").parts
    package = list(rel[:-1]) if rel[-1] != "__init__" else list(rel[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "tilelayout":
                    out.append((node.lineno, parts[1:]))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "tilelayout":
                    continue
                base = parts[1:]
            else:
                up = node.level - 1
                if up > len(package):
                    raise AssertionError(f"{path}:{node.lineno}: relative import above the package")
                base = package[:len(package) - up] + (node.module.split(".") if node.module else [])
            for alias in node.names:  # each name may itself be a module
                target = base + [alias.name]
                known = (root.joinpath(*target).is_dir()
                         or root.joinpath(*target).with_suffix(".py").exists())
                out.append((node.lineno, target if known else base))
    return out


def violations(root: Path) -> list[str]:
    """Every import under ``root`` (a ``tilelayout`` source folder) that points up or
    sideways, as ``file:line: a -> b``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        source_parts = list(rel.with_suffix("").parts)
        src_layer = _layer(source_parts)
        if src_layer not in LAYERS:
            found.append(f"{rel}: module outside every layer ({src_layer})")
            continue
        for line, target in imports_of(path, root):
            dst_layer = _layer(target)
            if dst_layer not in LAYERS:
                found.append(f"{rel}:{line}: imports unknown layer {dst_layer}")
                continue
            if dst_layer == src_layer and src_layer not in ("cli", "__init__"):
                continue  # inside one package
            if src_layer == "__init__" and source_parts == ["__init__"]:
                continue  # the package root re-exports every layer
            if LAYERS[dst_layer] < LAYERS[src_layer]:
                continue
            if rel.as_posix() in UPWARD_BY_NAME:
                continue
            how = "sideways" if LAYERS[dst_layer] == LAYERS[src_layer] else "up"
            found.append(f"{rel}:{line}: {src_layer} imports {'.'.join(target) or 'tilelayout'} "
                         f"({how}: {dst_layer})")
    return found


def test_every_import_points_down_the_layers():
    assert SRC.is_dir()
    assert violations(SRC) == []


#: the planning pipeline's stages, lowest first (docs/architecture.md, *The planner*): a
#: module imports its own stage or a lower one, and a mechanism only its own package
PIPELINE = {"problem": 0, "model": 1, "cost_model": 2, "mechanisms": 3}


def _stage(parts: list[str]) -> tuple[int, str] | None:
    """(rank, mechanism package) of a planning module ``tilelayout.planning.<parts>``;
    the top-level modules (plan, choice, machine ...) rank above every stage."""
    if not parts:
        return None
    head = parts[0]
    if head not in PIPELINE:
        return (len(PIPELINE), "")
    package = parts[1] if head == "mechanisms" and len(parts) > 1 else ""
    return (PIPELINE[head], package)


def pipeline_violations(root: Path) -> list[str]:
    """Imports inside ``planning/`` that point up the pipeline, or from one mechanism
    into another's internals."""
    found = []
    planning = root / "planning"
    for path in sorted(planning.rglob("*.py")):
        rel = path.relative_to(root)
        src = list(rel.with_suffix("").parts)[1:]
        if src and src[-1] == "__init__":
            src = src[:-1]
        here = _stage(src)
        if here is None:
            continue
        for line, target in imports_of(path, root):
            if target[:1] != ["planning"]:
                continue
            there = _stage(target[1:])
            if there is None:
                continue
            if there[0] > here[0]:
                found.append(f"{rel}:{line}: imports {'.'.join(target)} (up the pipeline)")
            elif here[0] == there[0] == PIPELINE["mechanisms"] and here[1] != there[1]:
                found.append(f"{rel}:{line}: mechanism {here[1]} imports {'.'.join(target)} "
                             f"(another mechanism)")
    return found


def test_the_planner_reads_as_its_pipeline():
    """problem < model < cost model < mechanisms < plan: no import points up, and a
    mechanism never reaches into another mechanism."""
    assert pipeline_violations(SRC) == []


def test_the_pipeline_check_finds_a_synthetic_violation(tmp_path):
    root = _package(tmp_path, {
        "planning/model/placement.py": "from ..mechanisms.staging import staging\n",
        "planning/mechanisms/staging/staging.py": "from ..shuffle import shuffle\n",
        "planning/mechanisms/shuffle/shuffle.py": "",
        "planning/cost_model.py": "from .model import placement\n",
    })
    found = pipeline_violations(root)
    assert any("placement.py" in f and "up the pipeline" in f for f in found)
    assert any("another mechanism" in f for f in found)
    assert not any("cost_model.py" in f for f in found)


def test_the_layout_methods_import_nothing_up_by_statement():
    # the layout methods still use no import statement that points up: they name modules
    methods = SRC / "core" / "operations.py"
    assert [t for _, t in imports_of(methods, SRC) if _layer(t) != "core"] == []


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "tilelayout"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for d in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
        (d / "__init__.py").touch()
    return root


@pytest.mark.parametrize("files,expected", [
    # an upward import at module level, relative and absolute
    ({"core/x.py": "from ..explorer import api\n", "explorer/api.py": ""},
     ["core/x.py:1: core imports explorer.api (up: explorer)"]),
    ({"eval/inverse.py": "from tilelayout.algebra.span import value_range\n",
      "algebra/span.py": ""},
     ["eval/inverse.py:1: eval imports algebra.span (up: algebra)"]),
    # sideways between siblings of one rank, inside a function
    ({"explorer/api.py": "def f():\n    from ..commands import convert\n",
      "commands/convert.py": ""},
     ["explorer/api.py:2: explorer imports commands.convert (sideways: commands)"]),
    # `from .. import presets` names the presets package
    ({"analysis/x.py": "from .. import presets\n", "presets/registry.py": ""},
     ["analysis/x.py:1: analysis imports presets (up: presets)"]),
    # a TYPE_CHECKING import counts too; `import tilelayout` is the top
    ({"render/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from ..explorer.api import ApiError\n", "explorer/api.py": "",
      "syntax/y.py": "import tilelayout as tl\n"},
     ["render/x.py:3: render imports explorer.api (up: explorer)",
      "syntax/y.py:1: syntax imports tilelayout (up: __init__)"]),
    # downward and same-package imports are fine; so is the package root
    ({"render/x.py": "from ..analysis.banks import bank_map\nfrom .y import z\n",
      "analysis/banks.py": "", "render/y.py": "", "__init__.py": "from .render import x\n",
      "cli.py": "from .explorer import serve\n", "explorer/serve.py": ""}, []),
])
def test_the_checker_fails_on_a_synthetic_upward_import(tmp_path, files, expected):
    assert violations(_package(tmp_path, files)) == expected


def test_the_lint_rule_refuses_function_level_imports(tmp_path):
    # ruff with the project's configuration (PLC0415): a function-level import in the
    # package is an error, the same import at module level is not
    import subprocess
    import sys

    config = SRC.parents[1] / "pyproject.toml"
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from tilelayout.explorer import api\n\n    return api\n")
    good = tmp_path / "good.py"
    good.write_text("from tilelayout.explorer import api\n\n\ndef f():\n    return api\n")
    run = lambda p: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(config),
         "--select", "PLC0415", str(p)], capture_output=True, text=True, timeout=60)
    refused, passed = run(bad), run(good)
    assert refused.returncode == 1 and "PLC0415" in refused.stdout
    assert passed.returncode == 0, passed.stdout
    assert '"PLC0415"' in config.read_text().split("[tool.ruff.lint]")[1].split("\n[")[0]


# ---- each hardware fact table is defined once ---------------------------------------------

#: the fact tables: module -> what it defines (docs/hardware.md)
FACT_TABLES = {"core/swizzle_modes.py": "the swizzle modes", "core/targets.py": "the targets",
               "core/wmma_shapes.py": "the AMD WMMA shapes"}
STATIC = SRC / "explorer" / "static"


def _fact_names() -> tuple[set[str], set[str]]:
    """(swizzle mode names, target names) as the tables define them."""
    from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE
    from tilelayout.core.targets import TARGETS

    return set(SWIZZLE_MODE_TABLE), set(TARGETS)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _fact_numbers() -> dict[str, tuple[int, ...]]:
    """The tables' integer columns with three or more distinct values (in table order): the
    swizzle modes' byte sizes and encodings, the WMMA K lists."""
    import dataclasses

    from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE, SwizzleModeInfo
    from tilelayout.core.wmma_shapes import WMMA_K

    out = {}
    for field in dataclasses.fields(SwizzleModeInfo):
        seq: list[int] = []
        for row in SWIZZLE_MODE_TABLE.values():
            v = getattr(row, field.name)
            if type(v) is int and v not in seq:
                seq.append(v)
        if len(seq) >= 3:
            out[f"the swizzle modes' {field.name}"] = tuple(seq)
    out.update({f"the WMMA v{v} K values": ks for v, ks in WMMA_K.items() if len(ks) >= 3})
    return out


def copied_numbers(values: Sequence[int], facts: dict[str, tuple[int, ...]]) -> str | None:
    """The fact ``values`` (a literal list of distinct ints) copies, or None. Byte sizes and
    K values (a column reaching 16 or more): any three or more of them that are not a run
    of consecutive integers. Small codes (an encoding's field values): the whole column, in
    table order, or as a set that is not a run (0, 1, 2, 3 in order is just counting)."""
    got = set(values)
    if len(got) < 3 or len(got) != len(values):
        return None
    run = max(got) - min(got) == len(got) - 1
    for what, seq in facts.items():
        if max(seq) >= 16:
            if got <= set(seq) and not run:
                return what
        elif len(got) >= 4 and (tuple(values) == seq or (got == set(seq) and not run)):
            return what
    return None


#: numbers listed in source that are not a copy of a table: file -> {the listed text: why}
NOT_COPIES: dict[str, dict[str, str]] = {
    "presets/tmem.py": {"32, 64 or 128": "the M of tcgen05.mma.ws (PTX ISA Table 39), not "
                                          "swizzle widths"},
}


#: numbers written in a string as a list: 0/32/64/128, "32, 64 or 128"
NUMBER_LIST = re.compile(r"(?<![\w.])\d+(?:\s*(?:/|,|,? or)\s*\d+){2,}(?![\w.])")


#: an encoding spelled in source: a TMA enum name, a descriptor value table, CuTe's atoms
ENCODING_WORDS = re.compile(r"CU_TENSOR_MAP_SWIZZLE|SWIZZLE_(?:NONE|32B|64B|128B)|"
                            r"swizzle_byte_width\s*=\s*\d|_SW(?:32|64|128)_Atom")


def fact_duplicates(root: Path, static: Path | None = None) -> list[str]:
    """Places under ``root`` (a ``tilelayout`` source folder) and ``static`` (the page) that
    write a swizzle-mode or target fact the tables own: a literal collection of two or more
    mode (or target) names, a string listing three or more modes, a comparison with a mode
    name other than "none", an encoding's name; docstrings (prose) aside."""
    modes, targets = _fact_names()
    numbers = _fact_numbers()
    named = modes - {"none"}
    word = re.compile(r"(?<![\w<])(" + "|".join(sorted(map(re.escape, named), key=len,
                                                       reverse=True)) + r")(?!\w)")
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in FACT_TABLES:
            continue
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                consts = [e.value for e in elts if isinstance(e, ast.Constant)]
                for names, what in ((modes, "swizzle modes"), (targets, "targets")):
                    hit = [c for c in consts if c in names]
                    if len(hit) >= 2:
                        found.append(f"{where}: a list of {what} {hit}")
                ints = [c for c in consts if type(c) is int]
                copied = copied_numbers(ints, numbers) if len(ints) == len(elts) else None
                if copied:
                    found.append(f"{where}: {ints} copies {copied}")
            elif isinstance(node, ast.Compare):
                hit = [c.value for c in node.comparators
                       if isinstance(c, ast.Constant) and c.value in named | targets]
                if hit:
                    found.append(f"{where}: compares with {hit[0]!r}")
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docs):
                if len(set(word.findall(node.value))) >= 3:
                    found.append(f"{where}: a string listing swizzle modes")
                if ENCODING_WORDS.search(node.value):
                    found.append(f"{where}: an encoding name {ENCODING_WORDS.search(node.value)[0]}")
                for listed in NUMBER_LIST.findall(node.value):
                    copied = copied_numbers([int(v) for v in re.findall(r"\d+", listed)], numbers)
                    if copied and listed not in NOT_COPIES.get(rel, {}):
                        found.append(f"{where}: a string listing {copied} ({listed})")
    if static is not None:
        for path in sorted(static.glob("*.*")):
            if path.suffix not in (".js", ".html"):
                continue
            for i, line in enumerate(path.read_text().splitlines(), 1):
                if word.search(line) or ENCODING_WORDS.search(line):
                    found.append(f"{path.name}:{i}: a swizzle mode the page should get from "
                                 f"/api/options")
                for listed in NUMBER_LIST.findall(line):
                    copied = copied_numbers([int(v) for v in re.findall(r"\d+", listed)], numbers)
                    if copied:
                        found.append(f"{path.name}:{i}: {listed} copies {copied} (the page "
                                     f"should get it from /api/options)")
    return found


def test_each_fact_table_is_defined_once():
    assert fact_duplicates(SRC, STATIC) == []
    for rel, listed in NOT_COPIES.items():  # each exemption still names a real place
        text = (SRC / rel).read_text()
        assert all(t in text for t in listed), f"drop the stale exemption in {rel}"


@pytest.mark.parametrize("text", [
    'MODES = ("none", "32B", "64B")\n',
    'ROW = {"128B": 128, "96B": 32}\n',
    'def f(mode):\n    return mode == "96B"\n',
    'HELP = "swizzle mode none/32B/64B/128B"\n',
    'TMA = "CU_TENSOR_MAP_SWIZZLE_128B"\n',
    'WIDTH = "NVMMASharedLayout(swizzle_byte_width=128)"\n',
    'SM = ("sm_90", "sm_100a")\n',
    'def g(t):\n    return t != "sm_90a"\n',
    # literal copies of the tables' numbers: byte widths, encodings, WMMA K values
    'WIDTHS = (0, 32, 64, 128)\n',
    'def h(w):\n    return w in [128, 64, 32]\n',
    'PHASES = {32: (4, 2), 64: (2, 4), 128: (1, 8)}\n',
    'K = {3: (4, 32, 64, 128)}\n',
    'WGMMA = (0, 3, 2, 1)\n',
    'TCGEN05 = {0, 6, 4, 2, 1}\n',
    'HELP = "swizzle_byte_width 0/32/64/128"\n',
    'HELP = "a width of 32, 64 or 128 bytes"\n',
])
def test_the_fact_check_finds_a_synthetic_duplicate(tmp_path, text):
    root = _package(tmp_path, {"presets/dup.py": text, "core/ok.py": '"""none/32B/64B/128B"""\n'})
    found = fact_duplicates(root)
    assert len(found) == 1 and found[0].startswith("presets/dup.py:"), found


@pytest.mark.parametrize("text", [
    'SHAPE = (16, 32)\nRUN = (1, 2, 3, 4)\nSMALL = (0, 2, 4)\nDUP = (32, 32, 64)\n',
    'MIXED = (32, 64, "128")\nSIZES = "8/16/32 elements"\nONE = (0, 3, 2)\n',
])
def test_the_fact_check_leaves_other_numbers_alone(tmp_path, text):
    assert fact_duplicates(_package(tmp_path, {"presets/ok.py": text})) == []


def test_the_fact_check_reads_the_page(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.js").write_text('const modes = ["none", "128B_atom32B"];\n'
                                   'const widths = [0, 32, 64, 128], shape = [16, 32];\n')
    root = _package(tmp_path, {"core/ok.py": "X = 1\n"})
    assert fact_duplicates(root, static) == [
        "app.js:1: a swizzle mode the page should get from /api/options",
        "app.js:2: 0, 32, 64, 128 copies the swizzle modes' triton (the page should get it "
        "from /api/options)"]


# -- no hidden global state ------------------------------------------------------------------
#: the library's caches: functools caches of pure functions of immutable arguments (what
#: they return never depends on what was cached before), each bounded or over a fixed set
DOCUMENTED_CACHES: dict[str, str] = {
    "tilelayout.eval.compiled:cached_plan": "compiled evaluators per (layout value, shape), LRU",
    "tilelayout.eval.compiled:_plan_in_order": "the same for equal layouts in another axis order",
    "tilelayout.eval.compiled:head_lines": "a generated function's first lines per rank",
    "tilelayout.eval.shared_code:template_code": "compiled code per generated template (the "
                                                 "source with its integers as holes), LRU",
    "tilelayout.planning.model.threads:_groups": "vector groups per (register file object, width), LRU",
    "tilelayout.planning.model.threads:_requests": "warp requests per (register file object, width), LRU",
    "tilelayout.eval.forward:_cached_shape": "admitted shapes per (layout value, shape), LRU",
    "tilelayout.planning.mechanisms.staging.bit_access:_wavefronts": "a warp request's "
        "wavefronts per (lane byte offsets, access width), LRU",
    "tilelayout.eval.forward:_xor_tables": "XorSwizzle lookup tables per swizzle value, LRU",
    "tilelayout.explorer.request:explorer_device_axes": "the mesh axis names of the fixed presets",
    "tilelayout.explorer.request:_device_table": "a request's axis table per (table, names), LRU",
    "tilelayout.explorer.request:_parsed": "parsed layouts per (text, axis table), LRU",
    "tilelayout.presets.registry:_documented": "each registered preset's doc text with example",
    "tilelayout.presets.registry:_built_default": "each registered preset built with its defaults",
    "tilelayout.algebra.cute.modes:_tile": "our layout per CuTe (shape, stride, axis), LRU",
    "tilelayout.tirx.apply:try_group": "a layout grouped by a shape (TIRx's TryGroup) per "
                                       "(layout value, shape), LRU",
    "tilelayout.tirx.apply:_plan": "a layout's extents, strides and offset as tuples per "
                                   "layout value, LRU",
    "tilelayout.explorer.widget:_assets": "the page's files, read once (fixed by the package)",
    "tilelayout.explorer.widget:_widget_class": "the widget class, made once anywidget imports",
    "tilelayout.interop.gluon:_context": "one MLIR context and Gluon builder, made once Triton "
                                         "imports (it only builds IR objects)",
    "tilelayout.interop.isolation:default_pool": "the process's pool of child processes for native "
                                                 "code (made once; its children start on use)",
}

#: module-level plain-dict caches (a hot path pays no functools call): the same contract,
#: each bounded by the code that fills it (its test checks the bound)
DOCUMENTED_DICT_CACHES: dict[str, str] = {
    "tilelayout.eval.compiled:PLANS": "compiled evaluators per layout object (keyed by its "
                                      "LayoutKey: no layout hash per call) and shape, bounded",
    "tilelayout.core.iter:_SHARED": "interned Iters per (extent, stride, axis) (Iter.shared: "
                                    "equal values either way), cleared at 8192",
}

#: module-level containers filled while the package imports and only read afterwards
REGISTRIES: dict[str, str] = {
    "tilelayout.presets.registry:_REGISTRY": "the preset registry: each preset module registers "
                                             "its presets as tilelayout.presets imports it "
                                             "(register/add refuse a name twice)",
    "tilelayout.tirx.expr:_IMPL": "the operations the expression nodes delegate to (+, ==, "
                                  "evaluate, str, ...), bound once by tilelayout.tirx.symbolic "
                                  "and .spelling as tilelayout.tirx imports",
}

#: every module-level name the library binds to a mutable container, with the reason: the
#: documented dict caches and the registries; every other module-level table is read-only
#: (MappingProxyType, tuple, frozenset)
MUTABLE_GLOBALS: dict[str, str] = {**DOCUMENTED_DICT_CACHES, **REGISTRIES}

_MUTABLE = (dict, list, set, bytearray)


def _library_modules() -> list:
    import importlib
    import pkgutil

    import tilelayout

    names = ["tilelayout"] + [m.name for m in pkgutil.walk_packages(tilelayout.__path__,
                                                                    "tilelayout.")]
    return [importlib.import_module(n) for n in names]


def _frozen_copy(value: object, depth: int = 0) -> object:
    """A comparable copy of a mutable container, nested containers copied too."""
    if depth > 6:
        return id(value)
    if isinstance(value, dict):
        return ("dict", tuple((k, _frozen_copy(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_frozen_copy(v, depth + 1) for v in value))
    if isinstance(value, set | frozenset):
        return ("set", frozenset(id(v) for v in value))
    if isinstance(value, bytearray):
        return bytes(value)
    return id(value)


def _documented_dict(key: str) -> object:
    module, name = key.split(":")
    return getattr(importlib.import_module(module), name)


def _snapshot(modules: list) -> dict[str, object]:
    """Every mutable container a library module holds at module level (by module:name)."""
    caches = {id(_documented_dict(key)) for key in DOCUMENTED_DICT_CACHES}  # and imports
    out = {}
    for mod in modules:
        for name, value in vars(mod).items():
            if isinstance(value, _MUTABLE) and not name.startswith("__") \
                    and id(value) not in caches:
                out[f"{mod.__name__}:{name}"] = _frozen_copy(value)
    return out


def test_every_cache_is_a_documented_functools_cache():
    import functools

    found = {f"{mod.__name__}:{name}" for mod in _library_modules()
             for name, value in vars(mod).items()
             if isinstance(value, functools._lru_cache_wrapper)
             and value.__module__ == mod.__name__}
    assert found == set(DOCUMENTED_CACHES)
    for key in DOCUMENTED_DICT_CACHES:  # each exists, a plain dict
        assert type(_documented_dict(key)) is dict, key


def _workload() -> None:
    """A representative run: user axes, evaluation, presets, a JAX mesh, a plan, the
    explorer's request handling (in-process), pictures and code."""
    import tilelayout as tl
    from tilelayout import presets
    from tilelayout.explorer import views
    from tilelayout.interop import jax as tl_jax

    with tl.axes("data", model=4):
        L = tl.parse("S[(4,2,8):(1@model,1@data,1)] + R[2:1@pid]")
        assert L.map_all()["model"].shape == (4, 2, 8, 2) and tl.legality(L).findings == ()
    M = tl.parse(str(L), axes=["data", "model"])
    assert eval(repr(M), vars(tl)) == L and L.apply(3) and L.canonicalize()
    tl.declare_axis("stage", extent=2)
    T = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    assert T.base((0, 8), (8, 16)) and T.map_all((8, 16)) and tl.explain(T, (1, 2), (8, 16))
    assert T.codegen(lang="python") and T.table() and T._repr_svg_()
    for name in ("mma.m16n8k16.C", "wgmma.m64nNk16.D", "mesh.shard"):
        presets.get(name).layout.map_all()
    presets.get("mesh.shard", mesh={"rows": 2, "cols": 2}, spec=("rows", "cols"), shape=(4, 4))
    assert presets.names() and presets.catalog()
    S = tl_jax.from_partition_spec(("x", None), {"x": 2, "y": 4}, (8, 6))
    assert tl_jax.partition_spec_entries(S, {"x": 2, "y": 4}, (8, 6)) == ("x", None)
    assert tl.parse(str(S), axes=tl_jax.mesh_table({"x": 2, "y": 4})) == S
    tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32")
    assert tl.compose(tl.parse("S[(4,8):(8,1)]"), tl.parse("S[(2,4):(4,1)]")).size()
    views.presets.presets()
    views.options.options()
    e = views.presets.preset_view({"name": "mesh.shard", "params": {"mesh": "dp=2,tp=2"}})
    views.layout.layout_view(e)
    views.layout.layout_view({"layout": "S[(2,4):(1@alpha,1)]", "mesh": "alpha=2", "shape": "8"})
    views.convert.convert_view({"layout": "S[(2,4):(1@alpha,1)]", "mesh": "alpha=2"})
    views.analysis.analysis_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})
    views.explain.explain_view({"layout": str(T), "shape": [8, 16], "index": [7, 15]})
    views.elements_at.elements_at_view({"layout": "S[(8,4):(4@laneid,1@laneid)]",
                                        "coords": {"laneid": 5}})
    views.table.table_view({"layout": "S[(8,4):(4@laneid,1@laneid)]"})
    views.codegen.codegen_view({"layout": "S[(2,2):(0,1)]", "inverse": True})
    views.plan.plan_view({"src": "S[(32,32):(1@laneid,1)]", "dst": "S[(32,32):(1,1@laneid)]",
                          "dtype": "float32"})
    views.smem.smem_view({"writer": "S[(32,32):(1@laneid,1)]",
                          "reader": "S[(32,32):(1,1@laneid)]", "dtype": "float16"})


#: calls that make a mutable container
_MUTABLE_CALLS = frozenset({"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict",
                            "Counter", "deque", "WeakValueDictionary", "WeakKeyDictionary",
                            "WeakSet", "ChainMap"})


def _makes_mutable(node: ast.expr) -> bool:
    """True for an expression that builds a mutable container: a dict, list or set display or
    comprehension, or a call of dict(), list(), set(), bytearray() and the like."""
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in _MUTABLE_CALLS
    return False


def mutable_bindings(source: str, module: str) -> list[str]:
    """``module:name`` for every module-level name ``source`` binds to a mutable container
    (statements under module-level ``if``/``try``/``with``/``for`` count; function and class
    bodies do not; dunders such as ``__all__`` aside)."""
    found = []

    def bind(target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name) and value is not None and _makes_mutable(value) \
                and not target.id.startswith("__"):
            found.append(f"{module}:{target.id}")
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [None] * 99
            for t, v in zip(target.elts, values):
                bind(t, v)

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                bind(node.target, node.value)
            elif isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
                for field in ("body", "orelse", "finalbody"):
                    walk(getattr(node, field, []))
                for handler in getattr(node, "handlers", []):
                    walk(handler.body)

    walk(ast.parse(source).body)
    return found


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _holds_mutable(value: object) -> bool:
    """A mutable container or a writable array, or a frozen value with one inside
    (:func:`_plain_containers` finds where)."""
    return bool(_plain_containers(value, "", set()))


def test_module_level_tables_are_read_only():
    # in the source: no module-level name is bound to a dict/list/set display or call ...
    found = [b for path in sorted(SRC.rglob("*.py"))
             for b in mutable_bindings(path.read_text(), _module_name(path, SRC))]
    assert sorted(set(found) - set(MUTABLE_GLOBALS)) == [], "make it read-only or document it"
    # ... and after import no module global holds a mutable container, however it was built
    allowed = {id(_documented_dict(key)) for key in MUTABLE_GLOBALS}
    held = sorted(f"{mod.__name__}:{name}" for mod in _library_modules()
                  for name, value in vars(mod).items()
                  if not name.startswith("__") and id(value) not in allowed
                  and _holds_mutable(value))
    assert held == [], "module globals holding mutable data"
    assert all(type(_documented_dict(key)) is dict for key in MUTABLE_GLOBALS)


@pytest.mark.parametrize("text,expected", [
    ("FOO = {}\n", ["m:FOO"]),
    ("BAR: list[int] = [1, 2]\nOK = (1, 2)\n", ["m:BAR"]),
    ("import collections\nif True:\n    C = collections.defaultdict(list)\n", ["m:C"]),
    ("A, B = set(), (1,)\nD = {k: 1 for k in 'ab'}\n", ["m:A", "m:D"]),
    ("from types import MappingProxyType\nT = MappingProxyType({'a': 1})\n"
     "F = frozenset({1})\n__all__ = ['T']\ndef f():\n    local = {}\n    return local\n", []),
])
def test_the_table_check_finds_a_synthetic_mutable_global(text, expected):
    assert mutable_bindings(text, "m") == expected


def test_the_table_check_sees_a_global_built_at_run_time():
    from tilelayout.core import axes

    axes._leak_probe = MappingProxyType({"a": [1]})  # type: ignore[attr-defined]
    try:
        assert _holds_mutable(axes._leak_probe)  # type: ignore[attr-defined]
        assert not _holds_mutable(MappingProxyType({"a": (1,)}))
        assert _holds_mutable(np.zeros(2)) and not _holds_mutable(_ro(np.zeros(2)))
        import collections
        import weakref

        assert _holds_mutable((collections.deque(),)) and _holds_mutable(weakref.WeakSet())
    finally:
        del axes._leak_probe  # type: ignore[attr-defined]


def _ro(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


#: class attributes the standard library itself caches: copyreg writes ``__slotnames__`` on
#: a slotted class the first time pickle copies one of its values (the child-process pool
#: pickles layouts and limits, tilelayout.interop.isolation)
STDLIB_CLASS_CACHES = frozenset({"__slotnames__"})


def _classes(modules: list) -> dict[str, tuple[tuple[str, int], ...]]:
    """Every class a library module defines: its attributes (name, object id)."""
    return {f"{mod.__name__}:{cls.__qualname__}": tuple(sorted((k, id(v))
                                                               for k, v in vars(cls).items()
                                                               if k not in STDLIB_CLASS_CACHES))
            for mod in modules for cls in vars(mod).values()
            if isinstance(cls, type) and cls.__module__ == mod.__name__}


def test_no_module_level_mutable_state_changes_while_the_library_works():
    modules = _library_modules()
    before, classes = _snapshot(modules), _classes(modules)
    _workload()
    _workload()  # twice: a first call that fills something lazily is caught too
    after = _snapshot(_library_modules())
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert changed == [], f"module globals changed: {changed}"
    now = _classes(_library_modules())  # no class gains or swaps an attribute either
    assert sorted(k for k in classes if classes[k] != now.get(k)) == [], "classes changed"


def test_the_state_check_sees_a_changed_global():
    from tilelayout.core import axes

    modules = _library_modules()
    before = _snapshot(modules)
    axes._leak_probe = []  # type: ignore[attr-defined]
    try:
        assert "tilelayout.core.axes:_leak_probe" in _snapshot(modules).keys() - before.keys()
        axes._leak_probe.append(1)  # type: ignore[attr-defined]
        middle = _snapshot(modules)
        axes._leak_probe.append(2)  # type: ignore[attr-defined]
        assert _snapshot(modules) != middle
    finally:
        del axes._leak_probe  # type: ignore[attr-defined]


def _plain_containers(value: object, path: str, seen: set[int], depth: int = 0) -> list[str]:
    """Where a value (dataclasses, tuples, frozensets, read-only mappings, nested) holds a
    mutable container (any mutable mapping, sequence or set: dicts, lists, deques, weak
    dictionaries...) or a writable numpy array."""
    import dataclasses
    from collections.abc import MutableMapping, MutableSequence, MutableSet

    if depth > 10 or id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, (*_MUTABLE, MutableMapping, MutableSequence, MutableSet)):
        return [f"{path}: {type(value).__name__}"]
    if isinstance(value, np.ndarray):
        return [f"{path}: a writable array"] if value.flags.writeable else []
    if isinstance(value, tuple | frozenset):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    elif isinstance(value, MappingProxyType):
        items = [(f"{path} key {k!r}", k) for k in value]
        items += [(f"{path}[{k!r}]", v) for k, v in value.items()]
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [(f"{path}.{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value)]
    else:
        return []
    return [hit for p, v in items for hit in _plain_containers(v, p, seen, depth + 1)]


def test_the_library_s_values_hold_frozen_data_only():
    # a plan (with its private route: placements, schedules), reports and presets
    import tilelayout as tl
    from tilelayout import presets

    C = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"
    values = {
        "plan": tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                                   (32, 32), "float32"),
        "access": tl.smem_access(tl.parse(C), tl.parse("S[(16,8):(8,1)]"), (16, 8), "float32"),
        "choice": tl.choose_smem_layout("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                                        (32, 32), "float16"),
        "legality": tl.legality(tl.parse(C)),
        "explain": tl.explain(tl.parse(C), (1, 2), (16, 8)),
        "preset": presets.get("mesh.shard", mesh={"rows": 2, "cols": 2}, spec=("rows", "cols"),
                              shape=(4, 4)),
        "info": presets.info("mma.m16n8k16.C"),
    }
    found = [hit for name, v in values.items() for hit in _plain_containers(v, name, set())]
    assert found == []
    assert _plain_containers((MappingProxyType({"a": [1]}), np.zeros(1)), "probe", set()) == [
        "probe[0]['a']: list", "probe[1]: a writable array"]


#: frozen dataclasses with array fields that are not frozen by ``freeze_fields`` in their
#: ``__post_init__``, each with where their arrays are made read-only instead
ARRAYS_FROZEN_ELSEWHERE = {
    "render/physical.py:PhysicalView": "built only by physical_view(), which passes read-only "
                                       "views (_frozen) and read-only mappings of them",
}

_MUTABLE_ANNOTATION = re.compile(r"\b(dict|list|set|bytearray|Dict|List|Set)\b(\[|$)")
_ARRAY_ANNOTATION = re.compile(r"\bnp\.ndarray\b|\bndarray\b")


def unfrozen_dataclass_fields(source: str, where: str) -> list[str]:
    """Frozen dataclasses in ``source`` declaring a dict / list / set field, or an array
    field without ``freeze_fields(self)`` in their ``__post_init__``."""
    out = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        if not any(isinstance(d, ast.Call) and any(
                k.arg == "frozen" and getattr(k.value, "value", False) for k in d.keywords)
                for d in cls.decorator_list):
            continue
        fields = [(ast.unparse(f.target), ast.unparse(f.annotation)) for f in cls.body
                  if isinstance(f, ast.AnnAssign)]
        out += [f"{where}:{cls.name}.{name}: {ann}" for name, ann in fields
                if _MUTABLE_ANNOTATION.search(ann)]
        post = [f for f in cls.body if isinstance(f, ast.FunctionDef)
                and f.name == "__post_init__"]
        freezes = any(isinstance(c, ast.Call) and getattr(c.func, "id", "") == "freeze_fields"
                      for f in post for c in ast.walk(f))
        arrays = [name for name, ann in fields if _ARRAY_ANNOTATION.search(ann)]
        if arrays and not freezes and f"{where}:{cls.name}" not in ARRAYS_FROZEN_ELSEWHERE:
            out.append(f"{where}:{cls.name}: array fields {arrays} not frozen in __post_init__")
    return out


def test_frozen_dataclasses_declare_frozen_fields():
    found = [hit for path in sorted(SRC.rglob("*.py"))
             for hit in unfrozen_dataclass_fields(path.read_text(),
                                                  path.relative_to(SRC).as_posix())]
    assert found == [], "hold tuples / MappingProxyType; freeze arrays with freeze_fields"
    probe = ("@dataclass(frozen=True)\nclass A:\n    rows: dict[str, int]\n"
             "    table: np.ndarray\n")
    assert unfrozen_dataclass_fields(probe, "x.py") == [
        "x.py:A.rows: dict[str, int]", "x.py:A: array fields ['table'] not frozen in __post_init__"]
    fixed = probe.replace("dict[str, int]", "tuple[int, ...]") + (
        "    def __post_init__(self):\n        freeze_fields(self)\n")
    assert unfrozen_dataclass_fields(fixed, "x.py") == []


def test_the_state_check_sees_a_changed_class():
    from tilelayout.core.tile import TileLayout

    modules = _library_modules()
    before = _classes(modules)
    TileLayout._leak_probe = 1  # type: ignore[attr-defined]
    try:
        assert [k for k in before if before[k] != _classes(modules)[k]] == [
            "tilelayout.core.tile:TileLayout"]
    finally:
        del TileLayout._leak_probe  # type: ignore[attr-defined]


# -- tests mirror src ------------------------------------------------------------------------
TESTS = Path(__file__).resolve().parent

#: modules with no ``tests/<path>/test_<name>.py``, each with the reason (keep it short:
#: a module's behaviour is tested in the file named after it)
NO_TEST_FILE: dict[str, str] = {
    "__main__.py": "`python -m tilelayout`: two lines handing over to cli.main (test_cli.py)",
}


def missing_test_files(src: Path, tests: Path) -> list[str]:
    """``src`` modules (``__init__.py`` aside) without ``tests/<same path>/test_<name>.py``."""
    out = []
    for path in sorted(src.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        rel = path.relative_to(src)
        if not (tests / rel.parent / f"test_{rel.stem}.py").is_file():
            out.append(rel.as_posix())
    return out


def test_every_module_has_a_test_file_named_after_it():
    missing = missing_test_files(SRC, TESTS)
    assert sorted(set(missing) - set(NO_TEST_FILE)) == [], "add tests/<path>/test_<name>.py"
    assert sorted(set(NO_TEST_FILE) - set(missing)) == [], "drop the exemption: it has tests now"


def test_the_mirror_check_finds_a_module_without_tests(tmp_path):
    src, tests = tmp_path / "src", tmp_path / "tests"
    for rel in ("core/__init__.py", "core/tile.py", "core/shape.py", "cli.py"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("")
    (tests / "core").mkdir(parents=True)
    (tests / "core" / "test_tile.py").write_text("")
    (tests / "test_cli.py").write_text("")
    (tests / "test_shape.py").write_text("")  # the right name in the wrong folder
    assert missing_test_files(src, tests) == ["core/shape.py"]


# -- small modules ---------------------------------------------------------------------------
MAX_MODULE_LINES = 500

#: modules over MAX_MODULE_LINES, each with the reason (docs/architecture.md, "Module size")
LONG_MODULES: dict[str, str] = {}


def long_modules(root: Path, limit: int = MAX_MODULE_LINES) -> dict[str, int]:
    """Modules under ``root`` (Python and the page's files) longer than ``limit`` lines."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".js", ".css", ".html") and path.is_file():
            n = len(path.read_text().splitlines())
            if n > limit:
                out[path.relative_to(root).as_posix()] = n
    return out


def test_no_module_over_500_lines_except_the_documented_ones():
    found = long_modules(SRC)
    assert sorted(set(found) - set(LONG_MODULES)) == [], f"split these modules: {found}"
    assert sorted(set(LONG_MODULES) - set(found)) == [], "drop the exception: it is short now"
    note = (SRC.parents[1] / "docs" / "architecture.md").read_text()
    assert all(f"`{name}`" in note for name in LONG_MODULES), "give the reason in the note"


def test_the_size_check_finds_a_long_module(tmp_path):
    root = _package(tmp_path, {"core/long.py": "x = 1\n" * 501, "core/ok.py": "x = 1\n" * 500})
    (root / "static").mkdir()
    (root / "static" / "app.js").write_text("let a;\n" * 600)
    assert long_modules(root) == {"core/long.py": 501, "static/app.js": 600}
