"""tl.widget where no notebook can show it (a script, a plain REPL; with or without
anywidget): a warning says where it can be shown, and the static SVG view comes back, the
same view the widget would open (issue 28)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import tilelayout as tl
from tilelayout.explorer.widget import NotebookWarning, StaticView

ROOT = Path(__file__).resolve().parents[2]

# tl.widget in a fresh interpreter, with `hidden` modules impossible to import
SCRIPT = """
import sys, warnings
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Hide())
import tilelayout as tl
warnings.simplefilter("always")
view = tl.widget("mma.m16n8k16.C", color="laneid")
print(type(view).__name__, view.svg.startswith("<svg"), view.query)
"""


def test_outside_a_notebook_it_says_where_and_returns_the_static_view():
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        view = tl.widget("mma.m16n8k16.A", dtype="bfloat16", select=(9, 10), color="laneid")
    assert isinstance(view, StaticView)
    (w,) = [w for w in said if issubclass(w.category, NotebookWarning)]
    text = str(w.message)
    assert "this is not a notebook" in text and "Jupyter or VS Code notebook" in text
    assert "pip install 'tilelayout[widget]'" in text and "tilelayout serve" in text
    assert Path(w.filename) == Path(__file__)  # the caller's line, not ours
    # the same view: the page's query, and the picture of the preset with the selection
    assert view.query == "preset=mma.m16n8k16.A&p.dtype=bfloat16&color=laneid&select=9%2C10"
    p = tl.presets.get("mma.m16n8k16.A", dtype="bfloat16")
    assert view.svg == tl.render.svg.layout_svg(p.layout, p.shape, dtype=p.dtype, color="laneid",
                                                selected=9 * 16 + 10)
    assert view._repr_svg_() == view.svg and "outside a notebook" in repr(view)


def test_a_layout_with_its_swizzle_draws_the_bank_view():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotebookWarning)
        view = tl.widget("S[(8,64):(64,1)]", dtype="float16", swizzle="128B", color="bank")
    assert "line x bank" in view.svg and "swizzle=128B" in view.query


def test_too_large_for_a_picture_is_said():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotebookWarning)
        view = tl.widget("S[(4096,4096):(4096,1)]")
    assert view.svg is None and "too large" in repr(view)


@pytest.mark.parametrize("hidden", [(), ("anywidget",)], ids=["with anywidget", "without"])
def test_a_plain_python_process_gets_the_static_view(hidden):
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(hidden=list(hidden))],
                         capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr  # no traceback
    assert out.stdout.split()[:2] == ["StaticView", "True"]
    assert "NotebookWarning: tl.widget: this is not a notebook" in out.stderr
    assert "Traceback" not in out.stderr
