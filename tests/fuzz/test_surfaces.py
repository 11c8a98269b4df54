"""A seeded sample of the surface fuzzer (issue 29; long runs: benchmarks/fuzz_surfaces.py):
each trial runs in a child process with a time limit, so an abort or a hang is counted,
not fatal. Every surface but tirx (whose fixes land from its own branch) must see no error
other than a one-line LayoutError, no abort, no hang and no answer that differs from the
reference (pycute, Triton's lowering, apache-tvm-tirx); tirx must not abort, hang or
differ. Each surface must also answer some trials (a trial that only refuses tests
nothing)."""

from __future__ import annotations

import pytest

from tests.fuzz.runner import SURFACES, run, seeded

pytest.importorskip("triton.experimental.gluon", reason="the fuzzer compares with Triton")
pytest.importorskip("pycute", reason="the fuzzer compares with pycute")
pytest.importorskip("tvm_tirx", reason="the fuzzer compares with apache-tvm-tirx")
pytest.importorskip("anywidget", reason="the widget surface needs anywidget")

SEED = 2929
PER_SURFACE = 40


def test_a_seeded_sample_of_every_surface():
    report = run(seeded(SURFACES, PER_SURFACE, SEED), workers=2, timeout=20.0)
    bad = {s: report.bad(s) for s in SURFACES if s != "tirx"}
    assert not any(bad.values()), f"{bad}\n{report.table()}\n{report.failures()}"
    tirx = report.counts["tirx"]
    assert tirx["abort"] == tirx["hang"] == tirx["mismatch"] == 0, report.failures()
    for surface in SURFACES:
        counts = report.counts[surface]
        assert sum(counts.values()) == PER_SURFACE, (surface, counts)
        assert counts["answered"] >= 3, (surface, counts)
