"""Imports point down the layer order only (docs/architecture.md), checked on the source.

Every module under ``src/tilelayout`` is parsed with ``ast``; each import of a
``tilelayout`` module (absolute or relative, at any depth, including ``TYPE_CHECKING``
blocks) must name a module of a lower layer or of its own package. Siblings of one rank
(``planning``/``codegen``, ``presets``/``interop``, ``render``/``tirx``,
``explorer``/``commands``) may not
import each other. ``cli.py`` and the package ``__init__`` sit on top. The only way up is
the model's methods (``core/operations.py``, each a LayoutMethod), which import by name at run time and are
listed in :data:`DOORS`, the one place exceptions live.
"""

from __future__ import annotations

import ast
import importlib
import re
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tilelayout"

#: layer -> rank; a module may import ranks below its own (and its own package)
LAYERS = {
    "core": 0, "syntax": 1, "eval": 2, "algebra": 3, "analysis": 4,
    "planning": 5, "codegen": 5, "presets": 6, "interop": 6, "render": 7, "tirx": 7,
    "explorer": 8, "commands": 8, "cli": 9, "__init__": 9, "__main__": 10,
}

#: the documented exceptions: module -> the layers it may reach upward, and how
DOORS = {
    "core/operations.py": "the model's methods are LayoutMethods: free functions of eval, algebra, "
                          "syntax, render and (the notebook display) explorer bound to the "
                          "layout, imported by name on first use (importlib), so no import "
                          "statement points up",
    "planning/operands.py": "a 'preset:NAME' operand of the planning entry points is built "
                            "by tilelayout.presets, imported by name at run time "
                            "(importlib); no import statement points up",
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
            if rel.as_posix() in DOORS:
                continue
            how = "sideways" if LAYERS[dst_layer] == LAYERS[src_layer] else "up"
            found.append(f"{rel}:{line}: {src_layer} imports {'.'.join(target) or 'tilelayout'} "
                         f"({how}: {dst_layer})")
    return found


def test_every_import_points_down_the_layers():
    assert SRC.is_dir()
    assert violations(SRC) == []


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
FACT_TABLES = {"core/swizzle_modes.py": "the swizzle modes", "core/targets.py": "the targets"}
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


#: an encoding spelled in source: a TMA enum name, a descriptor value table, CuTe's atoms
ENCODING_WORDS = re.compile(r"CU_TENSOR_MAP_SWIZZLE|SWIZZLE_(?:NONE|32B|64B|128B)|"
                            r"swizzle_byte_width\s*=\s*\d|_SW(?:32|64|128)_Atom")


def fact_duplicates(root: Path, static: Path | None = None) -> list[str]:
    """Places under ``root`` (a ``tilelayout`` source folder) and ``static`` (the page) that
    write a swizzle-mode or target fact the tables own: a literal collection of two or more
    mode (or target) names, a string listing three or more modes, a comparison with a mode
    name other than "none", an encoding's name; docstrings (prose) aside."""
    modes, targets = _fact_names()
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
    if static is not None:
        for path in sorted(static.glob("*.*")):
            if path.suffix not in (".js", ".html"):
                continue
            for i, line in enumerate(path.read_text().splitlines(), 1):
                if word.search(line) or ENCODING_WORDS.search(line):
                    found.append(f"{path.name}:{i}: a swizzle mode the page should get from "
                                 f"/api/options")
    return found


def test_each_fact_table_is_defined_once():
    assert fact_duplicates(SRC, STATIC) == []


@pytest.mark.parametrize("text", [
    'MODES = ("none", "32B", "64B")\n',
    'ROW = {"128B": 128, "96B": 32}\n',
    'def f(mode):\n    return mode == "96B"\n',
    'HELP = "swizzle mode none/32B/64B/128B"\n',
    'TMA = "CU_TENSOR_MAP_SWIZZLE_128B"\n',
    'WIDTH = "NVMMASharedLayout(swizzle_byte_width=128)"\n',
    'SM = ("sm_90", "sm_100a")\n',
    'def g(t):\n    return t != "sm_90a"\n',
])
def test_the_fact_check_finds_a_synthetic_duplicate(tmp_path, text):
    root = _package(tmp_path, {"presets/dup.py": text, "core/ok.py": '"""none/32B/64B/128B"""\n'})
    found = fact_duplicates(root)
    assert len(found) == 1 and found[0].startswith("presets/dup.py:"), found


def test_the_fact_check_reads_the_page(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.js").write_text('const modes = ["none", "128B_atom32B"];\n')
    root = _package(tmp_path, {"core/ok.py": "X = 1\n"})
    assert fact_duplicates(root, static) == [
        "app.js:1: a swizzle mode the page should get from /api/options"]
# -- no hidden global state ------------------------------------------------------------------
#: the library's caches: functools caches of pure functions of immutable arguments (what
#: they return never depends on what was cached before), each bounded or over a fixed set
DOCUMENTED_CACHES: dict[str, str] = {
    "tilelayout.eval.compiled:cached_plan": "compiled evaluators per (layout value, shape), LRU",
    "tilelayout.eval.compiled:_plan_in_order": "the same for equal layouts in another axis order",
    "tilelayout.eval.shared_code:template_code": "compiled code per generated template (the "
                                                 "source with its integers as holes), LRU",
    "tilelayout.planning.threads:_groups": "vector groups per (register file object, width), LRU",
    "tilelayout.planning.threads:_requests": "warp requests per (register file object, width), LRU",
    "tilelayout.eval.forward:_cached_shape": "admitted shapes per (layout value, shape), LRU",
    "tilelayout.eval.forward:_xor_tables": "XorSwizzle lookup tables per swizzle value, LRU",
    "tilelayout.explorer.request:explorer_device_axes": "the mesh axis names of the fixed presets",
    "tilelayout.explorer.request:_device_table": "a request's axis table per (table, names), LRU",
    "tilelayout.explorer.request:_parsed": "parsed layouts per (text, axis table), LRU",
    "tilelayout.presets.registry:_documented": "each registered preset's doc text with example",
    "tilelayout.presets.registry:_built_default": "each registered preset built with its defaults",
    "tilelayout.algebra.cute.modes:_tile": "our layout per CuTe (shape, stride, axis), LRU",
    "tilelayout.explorer.widget:_assets": "the page's files, read once (fixed by the package)",
    "tilelayout.explorer.widget:_widget_class": "the widget class, made once anywidget imports",
}

#: module-level plain-dict caches (a hot path pays no functools call): the same contract,
#: each bounded by the code that fills it (its test checks the bound)
DOCUMENTED_DICT_CACHES: dict[str, str] = {
    "tilelayout.eval.compiled:PLANS": "compiled evaluators per layout object (keyed by its "
                                      "LayoutKey: no layout hash per call) and shape, bounded",
}

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


def test_no_module_level_mutable_state_changes_while_the_library_works():
    modules = _library_modules()
    before = _snapshot(modules)
    _workload()
    _workload()  # twice: a first call that fills something lazily is caught too
    after = _snapshot(_library_modules())
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert changed == [], f"module globals changed: {changed}"


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
