"""Shared test configuration: hypothesis profiles (CI runs the 'ci' profile)."""

import os

from hypothesis import HealthCheck, settings

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
