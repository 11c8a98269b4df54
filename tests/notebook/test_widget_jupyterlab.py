"""tl.widget in a real JupyterLab, driven by Debian's Chromium: the test starts JupyterLab
on loopback, opens a notebook, runs its cells, clicks a cell of the widget's logical view
and reads the highlight (the selected element, its owners and the four steps), changes
"colour by", reads the line x bank view of a swizzled shared-memory tile, and sees a
layout displayed by itself as the widget. The kernel answers the page (no explorer
server runs). Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("anywidget")
pytest.importorskip("jupyterlab")
sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
TOKEN = "tilelayout-widget-test"
CELLS = [
    'import tilelayout as tl\ntl.widget("case.tensor_core_tile", color="laneid", height=860)',
    'tl.widget("case.swizzle_8x64_float16", height=700)',
    'tl.parse("S[(8,4):(4@laneid,1@laneid)]")   # a layout itself shows as the widget',
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on loopback over a folder with one notebook; its URL."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("Debian's chromium is not installed (run scripts/ensure-chromium.sh)")
    home = tmp_path_factory.mktemp("lab")
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{k}", "metadata": {},
              "outputs": [], "source": text} for k, text in enumerate(CELLS)]
    (home / "notebooks").mkdir()
    (home / "notebooks" / "widget.ipynb").write_text(json.dumps({
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}}}))
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "run"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"), "IPYTHONDIR": str(home / "ipython")}
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={home / 'notebooks'}", "--allow-root",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly"],
        env=env, cwd=home, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=5).close()
                break
            except OSError:
                assert proc.poll() is None and time.time() < deadline, "JupyterLab did not start"
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def notebook(lab, browser):
    """The notebook open in JupyterLab at a normal laptop width, its cells run; the page
    (in the session's one Chromium, tests/conftest.py)."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(f"{lab}/lab/tree/widget.ipynb?token={TOKEN}")
    page.wait_for_selector(".jp-Notebook .jp-Cell .jp-InputArea-editor", timeout=120_000)
    # the kernel is connected and idle (keys pressed before that run nothing)
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=120_000)
    page.locator(".jp-Cell .jp-InputArea-editor").first.click()
    for _ in CELLS:
        page.keyboard.press("Shift+Enter")
    try:
        page.wait_for_function(
            "document.querySelectorAll('iframe.tilelayout-widget').length === 3",
            timeout=120_000)
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "widget-jupyterlab-failed.png"))
        raise
    frames = [el.content_frame() for el in page.query_selector_all("iframe.tilelayout-widget")]
    for frame in frames:
        frame.wait_for_function("window.__tl && window.__tl.ready && window.__tl.state.model",
                                timeout=120_000)
    yield page, frames
    page.close()


def _shot(page, index: int, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    # the notebook as a user sees it: JupyterLab's window with the widget's cell output
    page.locator(".jp-OutputArea-output").nth(index).evaluate(
        "el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(ARTIFACTS / name))


def test_click_a_cell_highlights_its_owners_and_shows_the_four_steps(notebook):
    page, (tile, _, _) = notebook
    assert tile.evaluate("window.__tl.lastError") is None
    assert tile.locator("#preset").input_value() == "case.tensor_core_tile"
    # element (7, 15) = flat 127: a real click at its centre in the logical canvas
    pos = tile.evaluate("""() => {
        const c = window.__tl.logicalCenter(127);
        const r = document.getElementById('logical-canvas').getBoundingClientRect();
        return {x: c.x - r.left, y: c.y - r.top};
    }""")
    tile.locator("#logical-canvas").click(position=pos)
    tile.wait_for_function("window.__tl.state.sel && window.__tl.state.sel.flat === 127")
    details = tile.locator("#details")
    details.get_by_text("laneid=31, warpid=10, m=1").first.wait_for()
    text = details.inner_text()
    assert "laneid=31, warpid=6, m=1" in text and "laneid=31, warpid=10, m=1" in text
    for step in ("flatten", "split", "accumulate", "replica"):
        assert step in text, step
    assert tile.evaluate("window.__tl.state.sel.type") == "element"
    _shot(page, 0, "widget-jupyterlab-selected.png")


def test_colour_by_recolours_the_views(notebook):
    _, (tile, _, _) = notebook
    # elements (0, 0) and (0, 8) share lane 0 but sit on warps 5 and 6
    assert tile.evaluate("window.__tl.state.color") == "laneid"
    assert tile.evaluate("window.__tl.colorOf(0)") == tile.evaluate("window.__tl.colorOf(8)")
    tile.locator("#color").select_option("warpid")
    tile.wait_for_function("window.__tl.state.color === 'warpid'")
    assert tile.evaluate("window.__tl.colorOf(0)") != tile.evaluate("window.__tl.colorOf(8)")
    assert "colour = warpid" in tile.locator("#views").inner_text()


def test_the_bank_view_of_a_swizzled_tile(notebook):
    page, (_, smem, _) = notebook
    assert smem.evaluate("window.__tl.lastError") is None
    assert smem.evaluate("window.__tl.state.data.swizzle") == "Swizzle(3,3,3)"
    views = smem.locator("#views").inner_text()
    assert "bank" in views.lower()
    _shot(page, 1, "widget-jupyterlab-banks.png")


def test_a_layout_displays_as_the_widget(notebook):
    _, (_, _, shown) = notebook
    assert shown.evaluate("window.__tl.lastError") is None
    assert shown.locator("#layout").input_value() == "S[(8,4):(4@laneid,1@laneid)]"
    assert shown.evaluate("window.__tl.state.data.shape") == [8, 4]
