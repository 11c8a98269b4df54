"""The differential harness (issue 26): ``tl.plan_conversion`` held against what Triton
itself does, on seeded random pairs of Triton distributed layouts (:mod:`.pairs`).

For each pair:

* **Triton's side** runs in a child process (:mod:`.worker`, one per job, restarted when
  Triton aborts it or a pair exceeds the timeout): each layout lowered by Triton (its
  linear-layout bases) and read by ``from_triton`` (our text); the ``convert`` kernel
  compiled on the CPU for the pair's target and its PTX replayed (:mod:`.measure`).
  A pair Triton refuses (raises, aborts, hangs) is recorded as such, never fatal.
  Answers are cached under ``.cache/vs_triton/`` by the pair, the Triton version and a
  hash of the measuring code (:data:`.measure.MEASUREMENT_FILES`).
* **Our side** runs here, without Triton: the two texts parsed; checked to map every
  hardware point (register, lane, warp) to the element Triton's bases give it
  (``agree``); ``tl.plan_conversion(src, dst, shape, dtype, target=...,
  dst_packing="unpacked")`` timed (CPU time of this thread; values one to a register, as
  Triton's LLVM values are); ``execute()`` checked to deliver Triton's own layout of ``dst``,
  replicas included (``execute_ok``); the plan's costs as the scenario suite counts them
  (:func:`..scenarios.suite.our_cost`).
* **The verdict** per metric (:data:`METRICS`: shared-memory bytes, wavefronts,
  instructions per warp): ``equal``, ``better`` (ours lower) or ``worse``; overall
  ``worse`` if worse in any metric, else ``better`` if better in any, else ``equal``
  (issue 26: 0 worse in wavefronts, shared-memory bytes and instructions per warp).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

import tilelayout as tl

from ..conftest import expected
from ..scenarios.suite import our_cost
from .measure import MEASUREMENT_FILES
from .pairs import Pair

ROOT = Path(__file__).resolve().parents[3]
TESTS = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vs_triton"
METRICS = ("smem_bytes", "wavefronts", "instructions")
#: how our plans deliver sub-word values here: one to a register, as Triton's LLVM values
#: are (an i8 or f16 is a value of its own; whoever consumes them packs them)
DST_PACKING = "unpacked"
#: hardware input dimension of Triton's bases -> our axis (interop.triton.DEFAULT_IN_DIMS)
AXES = {"register": "m", "lane": "laneid", "warp": "warpid"}
#: the element limit of the checks (Triton's layouts read back, ``execute()``): a pair's
#: replicas may take it past the default, which planning itself keeps (seed 29's pair
#: 776: 4,227,072 rows, 1.8 GB and 21 s to execute)
CHECK_ELEMENTS = 1 << 24
#: statuses that are facts about the pair (cached); a timeout may pass on a quieter run
CACHED = ("ok", "refused", "aborted", "replay-error")


def triton_version() -> str:
    try:
        return importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def measurement_hash() -> str:
    h = hashlib.sha256()
    for f in MEASUREMENT_FILES:
        h.update((TESTS / f).read_bytes())
    return h.hexdigest()[:16]


# -- Triton's side: child processes ------------------------------------------------------

class Worker:
    """One child process answering pairs (:mod:`.worker`); ``ask`` never raises for what
    the child does: a dead child is ``aborted``, a slow one ``timeout`` (and killed)."""

    #: the child: this worker module, run by this interpreter
    COMMAND = (sys.executable, "-m", "tests.planning.triton.worker")

    def __init__(self, command: Iterable[str] = COMMAND) -> None:
        self.command = list(command)
        self.tmp = tempfile.TemporaryDirectory(prefix="vs_triton_")
        self.log_path = Path(self.tmp.name) / "stderr.log"
        self.proc: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        src = Path(tl.__file__).resolve().parents[1]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(ROOT)]),
               "TRITON_CACHE_DIR": str(Path(self.tmp.name) / "triton"),
               "TRITON_DEFAULT_FP_FUSION": "1"}
        log = open(self.log_path, "ab")  # noqa: SIM115  (the child owns it while it lives)
        proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                cwd=ROOT, env=env, text=True)
        log.close()
        return proc

    def ask(self, pair: Pair, timeout: float) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        start = self.log_path.stat().st_size if self.log_path.exists() else 0
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(pair.as_json()) + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            line = proc.stdout.readline() if ready else None
        except (BrokenPipeError, OSError):
            line = ""
        if line is None:
            proc.kill()
            proc.wait()
            self.proc = None
            return {"status": "timeout", "error": f"no answer in {timeout:.0f} s"}
        if not line:
            code = proc.wait()
            self.proc = None
            with open(self.log_path, "rb") as f:
                f.seek(start)
                tail = f.read().decode(errors="replace").strip().splitlines()[-8:]
            return {"status": "aborted", "returncode": code, "error": "\n".join(tail)[-1500:]}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.tmp.cleanup()


class TritonSide:
    """Triton's measurements of pairs: from the cache, else from ``jobs`` workers."""

    def __init__(self, jobs: int = 1, timeout: float = 300.0, cache: Path | None = CACHE):
        self.jobs, self.timeout, self.cache = jobs, timeout, cache
        self.version = triton_version()
        self.code = measurement_hash()
        self._local = threading.local()
        self._workers: list[Worker] = []
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(jobs)

    def _path(self, pair: Pair) -> Path | None:
        if self.cache is None:
            return None
        key = json.dumps([pair.key(), self.version, self.code])
        return self.cache / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"

    def _worker(self) -> Worker:
        w = getattr(self._local, "worker", None)
        if w is None:
            w = self._local.worker = Worker()
            with self._lock:
                self._workers.append(w)
        return w

    def measure(self, pair: Pair) -> dict[str, Any]:
        """Triton's answer for ``pair`` (see :mod:`.worker`), plus ``"cached"``."""
        path = self._path(pair)
        if path is not None and path.exists():
            return {**json.loads(path.read_text()), "cached": True}
        out = self._worker().ask(pair, self.timeout)
        out["triton_version"] = self.version
        if path is not None and out["status"] in CACHED:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps(out))
            os.replace(tmp, path)
        return {**out, "cached": False}

    def map(self, pairs: Iterable[Pair]) -> Iterator[tuple[Pair, dict[str, Any]]]:
        """(pair, answer) as answers arrive, ``jobs`` pairs at a time."""
        futures = {self._pool.submit(self.measure, p): p for p in pairs}
        for f in as_completed(futures):
            yield futures[f], f.result()

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)
        for w in self._workers:
            w.close()
        self._workers.clear()

    def __enter__(self) -> TritonSide:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- our side ----------------------------------------------------------------------------

def hardware_map(bases: dict[str, list[list[int]]], shape: tuple[int, ...]
                 ) -> dict[str, Any]:
    """Triton's layout as data: for every (register, lane, warp) point, the flat
    (row-major) index of the element its bases give it. Returns ``{"axes": our axes of
    the non-empty input dimensions, "points": {coordinate tuple: flat index}}``."""
    dims = [d for d in AXES if bases.get(d)]
    grids = np.meshgrid(*[np.arange(1 << len(bases[d])) for d in dims], indexing="ij")
    flat_pts = [g.ravel() for g in grids]
    coord = np.zeros((len(shape), flat_pts[0].size if flat_pts else 1), dtype=np.int64)
    for d, pts in zip(dims, flat_pts, strict=True):
        for bit, vec in enumerate(bases[d]):
            on = (pts >> bit) & 1
            coord ^= np.asarray(vec, dtype=np.int64)[:, None] * on[None, :]
    flat = np.ravel_multi_index(tuple(coord), shape)
    keys = zip(*(p.tolist() for p in flat_pts), strict=True)
    return {"axes": [AXES[d] for d in dims], "points": dict(zip(keys, flat.tolist(), strict=True))}


def tritons_layout(bases: dict[str, list[list[int]]], layout: tl.Layout, shape) -> dict:
    """Triton's layout as ``{coordinate in layout.axes order: flat index}`` (what
    ``execute()`` must deliver); ``{}`` if the layout's axes are not Triton's."""
    hw = hardware_map(bases, tuple(shape))
    if sorted(hw["axes"]) != sorted(layout.axes):
        return {}
    order = [hw["axes"].index(a) for a in layout.axes]
    return {tuple(k[i] for i in order): v for k, v in hw["points"].items()}


def verdict(ours: dict[str, int], theirs: dict[str, int]) -> dict[str, str]:
    """Per metric ``equal`` / ``better`` / ``worse`` (ours vs Triton), and ``overall``."""
    v = {m: "equal" if ours[m] == theirs[m] else "better" if ours[m] < theirs[m] else "worse"
         for m in METRICS}
    values = set(v.values())
    v["overall"] = "worse" if "worse" in values else "better" if "better" in values else "equal"
    return v


def our_side(pair: Pair, answer: dict[str, Any],
             clock: Callable[[], float] = time.thread_time) -> dict[str, Any]:
    """Plan the pair with our layouts and compare with Triton's answer (module doc)."""
    rec: dict[str, Any] = {"pair": pair.as_json(), "text": pair.text(),
                           "status": answer["status"], "triton_version": answer.get(
                               "triton_version")}
    for k in ("stage", "error", "returncode", "compile_s", "cached"):
        if k in answer:
            rec[k] = answer[k]
    if answer["status"] != "ok":
        return rec
    rec["triton"] = answer["triton"]
    lay = answer["layouts"]
    missing = [s for s in ("src", "dst") if "ours" not in lay[s]]
    if missing:
        rec["status"] = "ours-refused"
        rec["error"] = "; ".join(f"{s}: {lay[s]['ours_error']}" for s in missing)
        return rec
    src, dst = tl.parse(lay["src"]["ours"]), tl.parse(lay["dst"]["ours"])
    rec["layouts"] = {"src": str(src), "dst": str(dst)}
    with tl.limits(elements=CHECK_ELEMENTS):  # the checks enumerate every replica
        want = {s: tritons_layout(lay[s]["bases"], layout, pair.shape)
                for s, layout in (("src", src), ("dst", dst))}
        rec["agree"] = all(want[s] and want[s] == expected(layout, pair.shape)
                           for s, layout in (("src", src), ("dst", dst)))
    t0, w0 = clock(), time.perf_counter()
    try:
        plan = tl.plan_conversion(src, dst, pair.shape, pair.dtype, target=pair.target,
                                  dst_packing=DST_PACKING)
    except Exception as exc:  # noqa: BLE001  (a refusal or a defect: recorded as found)
        rec["status"] = "plan-error"
        rec["error"] = f"{type(exc).__name__}: {exc}"[:1500]
        return rec
    rec["plan_s"], rec["plan_wall_s"] = clock() - t0, time.perf_counter() - w0
    try:
        with tl.limits(elements=CHECK_ELEMENTS):
            got = plan.execute()
        rec["execute_ok"] = bool(want["dst"]) and got == want["dst"]
    except Exception as exc:  # noqa: BLE001
        rec["execute_ok"] = False
        rec["execute_error"] = f"{type(exc).__name__}: {exc}"[:1500]
    c = our_cost(plan)
    rec["ours"] = {"smem_bytes": c.smem_bytes, "wavefronts": c.wavefronts,
                   "instructions": c.instructions, "detail": c.detail,
                   "mechanism": plan.mechanism, "kind": plan.kind}
    rec["verdict"] = verdict(rec["ours"], rec["triton"])
    return rec


def paste(rec: dict[str, Any]) -> str:
    """The pair as a ``plan_conversion`` call the reader can paste."""
    p = rec["pair"]
    return (f'tl.plan_conversion("{rec["layouts"]["src"]}", "{rec["layouts"]["dst"]}", '
            f'{tuple(p["shape"])}, "{p["dtype"]}", target="{p["target"]}", '
            f'dst_packing="{DST_PACKING}")')


def run(pairs: Iterable[Pair], side: TritonSide,
        progress: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Every pair's record (:func:`our_side` of Triton's answer), in the pairs' order."""
    out = []
    for pair, answer in side.map(pairs):
        rec = our_side(pair, answer)
        out.append(rec)
        if progress is not None:
            progress(rec)
    return sorted(out, key=lambda r: (r["pair"]["seed"], r["pair"]["index"]))
