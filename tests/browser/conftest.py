"""One explorer server for the whole browser test session (the one Chromium is in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import explorer_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def explorer_url():
    with explorer_server() as url:
        yield url


class Page:
    """A page of the explorer plus the console errors it logged."""

    def __init__(self, page, base):
        self.page = page
        self.base = base
        self.errors: list[str] = []  # script errors and console.error calls
        self.http_errors: list[str] = []  # 4xx answers the browser logs (expected for bad input)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _console(self, msg) -> None:
        if msg.type != "error":
            return
        if "status of 4" in msg.text and "Failed to load resource" in msg.text:
            self.http_errors.append(msg.text)
        else:
            self.errors.append(msg.text)

    def open(self, query: str = "") -> None:
        self.page.goto(f"{self.base}/{query}")
        self.page.wait_for_function("window.__tl && window.__tl.ready && window.__tl.renders > 0")

    def renders(self) -> int:
        return self.page.evaluate("window.__tl.renders")

    def wait_render(self, after: int) -> None:
        self.page.wait_for_function(f"window.__tl.renders > {after}")

    def settle(self, quiet_ms: int = 300) -> None:
        """Wait until no render happens for ``quiet_ms`` (every answer in flight drawn:
        under load a request sent before the last one may still arrive)."""
        while True:
            seen = self.renders()
            self.page.wait_for_timeout(quiet_ms)
            if self.renders() == seen:
                return

    def click_at(self, expr: str) -> None:
        """Scroll the point ``expr`` (a JS expression giving {x, y}) into view and click it."""
        pt = self.page.evaluate(expr)
        h = self.page.viewport_size["height"]
        if not 40 <= pt["y"] <= h - 10:
            self.page.evaluate(f"window.scrollBy(0, {pt['y'] - h / 2})")
            pt = self.page.evaluate(expr)
        self.page.mouse.click(pt["x"], pt["y"])

    def ctrl_wheel(self, testid: str, delta: int = -100) -> None:
        """Ctrl + mouse wheel over the middle of the element ``data-testid=testid`` (zoom)."""
        box = self.page.locator(f"[data-testid={testid}]").bounding_box()
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.keyboard.down("Control")
        self.page.mouse.wheel(0, delta)
        self.page.keyboard.up("Control")

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture(scope="session")
def context(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context, explorer_url):
    p = context.new_page()
    yield Page(p, explorer_url)
    p.close()
