"""Shared test configuration: hypothesis profiles (CI runs the 'ci' profile) and the one
headless Debian Chromium every browser-driven test shares (Playwright's sync API runs one
instance per thread, so the explorer's and the notebook's tests use the same browser)."""

import os
import shutil

import pytest
from hypothesis import HealthCheck, settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_sessionfinish(session, exitstatus):
    """With TILELAYOUT_STRICT=1 (set by scripts/test.sh, so by CI) a skipped test fails the
    run: the test script installs every optional tool, so a skip there means a broken set-up."""
    if os.environ.get("TILELAYOUT_STRICT") != "1" or exitstatus != 0:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reporter.write_line(
            f"TILELAYOUT_STRICT: {len(skipped)} test(s) skipped; the full suite must run everything",
            red=True,
        )
        session.exitstatus = 1


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright's driver for the session (one per thread: every browser shares it)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (run scripts/ensure-chromium.sh)")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser), with
    overlay scroll bars (Playwright passes --hide-scrollbars: they take no room)."""
    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def browser_bars(playwright_driver):
    """The same Chromium with classic scroll bars (15 px each, as on Windows and most Linux
    desktops): Playwright's --hide-scrollbars left out. Started on first use."""
    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                                          ignore_default_args=["--hide-scrollbars"])
    yield b
    b.close()
