"""Seeded trials of the fuzzed surfaces, each in a child process with a time limit.

A trial is ``(surface, seed)``: the child builds its inputs from ``random.Random(seed)``,
calls the surface's functions in-process (no isolation inside: an abort must show) and
compares the answers with the reference where one answers (pycute, Triton's lowering,
apache-tvm-tirx). What the child reports, or what became of it:

* ``answered`` / ``refused`` (every refusal a ``LayoutError``, its message one line);
* ``error``: any other exception (a bug), with its type and message;
* ``mismatch``: an answer that differs from the reference;
* ``abort``: the child died (a signal, an exit): :class:`~tilelayout.interop.isolation.ChildDied`;
* ``hang``: the trial took longer than its limit (the child is killed).

The parent counts them per surface (:class:`Report`); ``benchmarks/fuzz_surfaces.py`` runs
long campaigns, ``tests/fuzz/test_surfaces.py`` a seeded sample.
"""

from __future__ import annotations

import importlib
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tilelayout as tl
from tilelayout.core.errors import LayoutError
from tilelayout.interop.isolation import ChildDied, ChildPool, ChildTimeout

#: surface name -> "module:function" of its trial (a function of one random.Random)
SURFACES = {
    "tirx": "tests.fuzz.trials_tirx:trial",
    "algebra.cute": "tests.fuzz.trials_cute:algebra_trial",
    "interop.cute": "tests.fuzz.trials_cute:interop_trial",
    "interop.triton": "tests.fuzz.trials_triton:triton_trial",
    "interop.gluon": "tests.fuzz.trials_triton:gluon_trial",
    "interop.jax": "tests.fuzz.trials_misc:jax_trial",
    "presets": "tests.fuzz.trials_presets:trial",
    "widget": "tests.fuzz.trials_misc:widget_trial",
    "target": "tests.fuzz.trials_misc:target_trial",
    "planning": "tests.fuzz.trials_misc:planning_trial",
}
#: what a trial can come to
OUTCOMES = ("answered", "refused", "error", "mismatch", "abort", "hang")
#: the limits a trial runs under (the resource model keeps each input bounded)
LIMITS = tl.Limits(elements=1 << 16, replicas=1 << 12, output_bytes=1 << 24, search=1 << 16,
                   cells=1 << 12, seconds=4.0)


class Mismatch(AssertionError):
    """An answer that differs from the reference's."""


def expect(ok: bool, what: str) -> None:
    """Raise :class:`Mismatch` with ``what`` unless ``ok``."""
    if not ok:
        raise Mismatch(what[:400])


def _trial_function(surface: str) -> Callable[[random.Random], Any]:
    module, _, name = SURFACES[surface].partition(":")
    return getattr(importlib.import_module(module), name)


def run_trial(surface: str, seed: int) -> tuple[str, str]:
    """One trial, in this process: ``(outcome, detail)``."""
    rng = random.Random(f"{surface}:{seed}")
    trial = _trial_function(surface)
    try:
        with tl.limits(LIMITS):
            trial(rng)
    except Mismatch as exc:
        return "mismatch", str(exc)
    except LayoutError as exc:
        text = str(exc)
        if "\n" in text.strip():
            return "error", f"multi-line LayoutError: {text[:300]!r}"
        return "refused", text[:300]
    except Exception as exc:  # noqa: BLE001 (the point: anything else is a bug)
        frames = traceback.extract_tb(exc.__traceback__)
        where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames)
                      if "/tilelayout/" in f.filename), "")
        return "error", f"{type(exc).__name__} at {where}: {str(exc)[:300]}"
    return "answered", ""


@dataclass
class Report:
    """Counts per surface and outcome, and the first few examples of each bad outcome."""

    counts: dict[str, Counter] = field(default_factory=dict)
    examples: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, surface: str, seed: int, outcome: str, detail: str) -> None:
        self.counts.setdefault(surface, Counter())[outcome] += 1
        if outcome not in ("answered", "refused"):
            shown = self.examples.setdefault((surface, outcome), [])
            kind = detail.split(":")[0]  # one example per error type and place
            if len(shown) < 12 and not any(e.split(": ", 1)[1].split(":")[0] == kind for e in shown):
                shown.append(f"seed {seed}: {detail}")

    def bad(self, surface: str) -> int:
        c = self.counts.get(surface, Counter())
        return sum(c[o] for o in ("error", "mismatch", "abort", "hang"))

    def table(self) -> str:
        rows = ["| surface | trials | " + " | ".join(OUTCOMES) + " |",
                "|---" * (len(OUTCOMES) + 2) + "|"]
        for surface in SURFACES:
            c = self.counts.get(surface)
            if c:
                rows.append(f"| {surface} | {sum(c.values())} | "
                            + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
        return "\n".join(rows)

    def failures(self) -> str:
        return "\n".join(f"{s} {o}: {e}" for (s, o), shown in self.examples.items() for e in shown)


def run(trials: Iterable[tuple[str, int]], *, workers: int = 2, timeout: float = 5.0,
        progress: Callable[[int, Report], None] | None = None) -> Report:
    """Run ``(surface, seed)`` trials in a pool of children; a dead child is an abort, one
    over ``timeout`` seconds a hang."""
    report = Report()
    pool = ChildPool(workers=workers, timeout=timeout, preload=("tests.fuzz.runner",))
    start = time.monotonic()
    try:
        for n, (surface, seed) in enumerate(trials, 1):
            try:
                outcome, detail = pool.call("tests.fuzz.runner:run_trial", surface, seed,
                                            what=f"{surface} trial {seed}")
            except ChildTimeout as exc:
                outcome, detail = "hang", str(exc)
            except ChildDied as exc:
                outcome, detail = "abort", str(exc)
            report.add(surface, seed, outcome, detail)
            if progress is not None:
                progress(n, report)
    finally:
        pool.close()
    report.seconds = time.monotonic() - start
    return report


#: trial seeds of campaign ``seed`` are ``seed * CAMPAIGN + k``: two campaigns never share one
CAMPAIGN = 1_000_000


def seeded(surfaces: Iterable[str], per_surface: int, seed: int = 0) -> list[tuple[str, int]]:
    """``per_surface`` trials of each surface, interleaved, from campaign ``seed``."""
    names = list(surfaces)
    return [(s, seed * CAMPAIGN + k) for k in range(per_surface) for s in names]
