"""The same workload on two commits, side by side in one run: is the newer one slower?

Each revision (``--before``, default ``6f303f9``: main before the architecture work of
issue 22; ``--after``, default ``HEAD``; ``.`` means this working tree, uncommitted edits
included) is extracted with ``git archive`` into a temporary directory (removed at the
end, also on Ctrl-C or failure). The workload below then runs in fresh subprocesses of
this virtual environment's Python with ``PYTHONPATH=<that checkout>/src``, rounds
alternating between the two sides (before, after, after, before, ...) so that the
machine's noise falls on both equally. The workload uses only public API present at
both revisions:

* ``apply`` warm, per call, from two call sites: ``L.apply((i, j), (128, 128))`` and
  ``L.apply(k)`` (flat index, default shape), on the 4-iter + replica tile
  ``S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]``; ``base`` warm;
* cold: the first ``apply`` (and, separately, the first ``base``) of a freshly parsed
  layout with replicas (a new layout value for each sample, so nothing is cached; the
  modules are already imported), and its first 10 calls together: what making a layout's
  plan costs, wherever it is paid (since issue 22 a plan answers its first call step by
  step and compiles on the second); and the first 10 calls of each of 24 layouts of that
  family with other strides and offsets, each generating code of another shape (since
  issue 22 layouts whose code differs only in its integers share one compiled code: this
  measures a structure seen for the first time);
* ``map_all`` of that tile over 128 x 128 (with its replica), and of 2**24 elements
  (after 16 MB allocated and freed, so the C allocator is in the same state on both
  sides: see ``_map_all``);
* ``plan_conversion`` (fastest of 3) on four pairs: Triton's V tile (blocked -> dot
  operand B, 64 x 64 float16, the slowest scenario of ``bench_plan.py --scenarios``),
  blocked -> dot operand A (mma v2), the 64 x 64 float16 transpose over 4 warps, and the
  32 x 32 float32 transpose in one warp;
* first render: what the explorer's server computes for the page's first paint, in a
  fresh process with the server module imported (as ``tilelayout serve`` has it):
  ``GET /api/presets``, ``GET /api/options`` and ``POST /api/layout`` of the page's
  default preset (the tensor-core tile), each through the server's route table and JSON
  encoder (``server._GET`` / ``server._POST``, ``server.dumps``) exactly as a request
  runs them, without the HTTP socket; then the side panels the page shows with it
  (``/api/analysis``, ``/api/convert``, ``/api/table`` on the drawn layout: the page
  after issue 22 asks them inside the layout request, the older page in three requests
  after it; the computation is the same routes' either way); and the first
  ``/api/layout`` of the 128 x 256 float32 wgmma accumulator (32,768 elements, the
  ``bench_explorer.py`` tile); and, in another fresh process, ``POST /api/preset`` of
  each of the 32 registry presets that 6f303f9 has (the page's request when it loads a
  registry preset): the catalog's common part, since ``/api/presets`` lists every
  preset and the registry has grown since (Triton and AMD layouts).

Per measurement the table gives each side's median and best over the rounds, the ratio
of the medians (after / before), the range of the per-round ratios (each round pairs an
after run with the before run next to it), the noise (the larger side's: twice the
robust standard deviation of its rounds, relative to its median, and at least 3%) and a
verdict: "slower" or "faster" when the ratio is beyond the noise and at least two thirds
of the rounds agree, else "within noise". Giving one revision for both sides (an A/A
run) shows what the machine's noise alone produces.

Run: .venv/bin/python benchmarks/bench_commits.py [--before REV] [--after REV] [--rounds N]
Progress goes to stderr; the markdown table to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TILE = "S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]"
BIG = "S[(64,64,64,64):(262144,1,4096,64)]"  # 2**24 elements, one axis
ACC = "S[(2,4,2,8,32,4,2):(1@wgid,1@wid_in_wg,2,4@laneid,4,1@laneid,1)]"  # 128 x 256 fp32
ROWS_F16 = "S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]"  # Triton Blocked [1,8] [4,8] [4,1]
COLS_F16 = "S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]"  # Blocked [8,1] [8,4] [1,4] (0,1)
DOT_B_K2 = "S[(8,4,2,8,8):(2,1@laneid,1,16,4@laneid)] + R[4:1@warpid]"  # DotOperand(1, mma, 2)
MMA2 = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"  # mma v2 [4,1], 64 x 64
PAIRS = {
    "Triton V tile: blocked -> dot B (64x64 fp16)": (ROWS_F16, DOT_B_K2, (64, 64), "float16"),
    "blocked -> dot A, mma v2 (64x64 fp16)": (ROWS_F16, MMA2, (64, 64), "float16"),
    "transpose, 4 warps (64x64 fp16)": (ROWS_F16, COLS_F16, (64, 64), "float16"),
    "transpose, one warp (32x32 fp32)": ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                                         (32, 32), "float32"),
}
#: the registry presets of 6f303f9 (every one is still registered): the catalog's common part
PRESETS_6F303F9 = (
    "mma.m16n8k16.A", "mma.m16n8k16.B", "mma.m16n8k16.C", "mma.m16n8k8.A", "mma.m16n8k8.B",
    "mma.m16n8k8.C", "mma.m16n8k32.A", "mma.m16n8k32.B", "mma.m16n8k32.C", "ldmatrix.x1",
    "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.m16n16", "ldmatrix.m8n16", "wgmma.m64nNk16.D",
    "wgmma.m64nNkK.A", "tcgen05.ld.32x32b", "tcgen05.ld.16x64b", "tcgen05.ld.16x128b",
    "tcgen05.ld.16x256b", "tcgen05.ld.16x32bx2", "tmem.accumulator", "tmem.scale_factors",
    "smem.swizzle_atom", "smem.tile", "trainium.sbuf", "trainium.psum", "mesh.shard",
    "case.tensor_core_tile", "case.tmem_2x128x112", "case.scale_factor_atom",
    "case.swizzle_8x64_float16")
#: the workload's groups, each run in a fresh process per round and side
GROUPS = ("render", "catalog", "scalar", "map_all", "plan")


# -- the workload (runs in the subprocess, against the checkout on PYTHONPATH) -----------------
def _per_call(fn: Callable[[int], object], number: int, repeat: int = 7) -> float:
    """Seconds per call of ``fn(n)`` (a loop of ``n`` calls), fastest of ``repeat`` runs."""
    fn(number // 10)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(number)
        best = min(best, time.perf_counter() - t0)
    return best / number


def _fastest(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _scalar() -> dict[str, float]:
    import tilelayout as tl

    L = tl.parse(TILE)
    pairs = [(i * 37 % 128, i * 11 % 128) for i in range(256)]
    flats = [i * 61 % 16384 for i in range(256)]

    def site_a(n: int) -> None:  # a 2-d index and an explicit shape
        for _ in range(n // 256):
            for x in pairs:
                L.apply(x, (128, 128))

    def site_b(n: int) -> None:  # a flat index, the default shape
        for _ in range(n // 256):
            for f in flats:
                L.apply(f)

    def base(n: int) -> None:
        for _ in range(n // 256):
            for x in pairs:
                L.base(x, (128, 128))

    out = {"apply warm, site A: L.apply((i, j), (128, 128))": _per_call(site_a, 51200),
           "apply warm, site B: L.apply(k)": _per_call(site_b, 51200),
           "base warm: L.base((i, j), (128, 128))": _per_call(base, 51200)}
    for n, method in enumerate(("apply", "base")):
        first, ten = [], []
        for k in range(24):  # a new layout value each sample: nothing of it is cached
            fn = getattr(tl.parse(f"{TILE} + {n * 100 + k + 1}"), method)
            t0 = time.perf_counter()
            fn((3, 5), (128, 128))
            t1 = time.perf_counter()
            for i in range(9):
                fn((i, 5), (128, 128))
            first.append(t1 - t0)
            ten.append(time.perf_counter() - t0)
        out[f"{method} cold: first call on a new layout with replicas"] = statistics.median(first)
        out[f"{method} cold: its first 10 calls"] = statistics.median(ten)
        new = []
        for k in NEW_STRUCTURES:  # each generates code of another shape: nothing to share
            fn = getattr(tl.parse(_structure(k, n + 1)), method)
            t0 = time.perf_counter()
            for i in range(10):
                fn((i, 5), (128, 128))
            new.append(time.perf_counter() - t0)
        out[f"{method} cold: first 10 calls, each layout of a new structure"] = statistics.median(new)
    return out


#: 24 layouts of the tile's family, each generating different code (shifts or products,
#: an offset or none; without the tile's own structure, which the samples above compiled)
NEW_STRUCTURES = [k for k in range(1, 32) if k != 16][:24]


def _structure(k: int, replica_stride: int) -> str:
    """The tile with its strides and offset picked by the bits of ``k``."""
    b = [(k >> i) & 1 for i in range(5)]
    return (f"S[(8,16,16,8):({(4, 3)[b[0]]}@laneid,{(2, 3)[b[1]]}@warpid,{(8, 9)[b[2]]},"
            f"{(1, 5)[b[3]]}@laneid)] + R[2:{replica_stride}@warpid] + {(0, 7)[b[4]]}")


def _map_all() -> dict[str, float]:
    import numpy as np

    import tilelayout as tl

    # The same code runs at ~190, ~270 or ~320 us on the 128 x 128 tile depending on the
    # C allocator's state (whether its arrays come from fresh pages; it varies with what
    # the process allocated before, i.e. with the revision's imports). Allocating and
    # freeing 16 MB first puts every process in the same (fast) state.
    np.ones(1 << 21).sum()
    tile, big = tl.parse(TILE), tl.parse(BIG)
    out = {"map_all 128x128, 4 iters + replica": _fastest(lambda: tile.map_all((128, 128)), 20)}
    with tl.limits(elements=1 << 24, output_bytes=1 << 29):  # 2**24 is over the defaults
        out["map_all 2**24 elements, 1 axis"] = _fastest(lambda: big.map_all(), 3)
    return out


def _plan() -> dict[str, float]:
    import tilelayout as tl

    out = {}
    for name, (src, dst, shape, dtype) in PAIRS.items():
        args = (tl.parse(src), tl.parse(dst), shape, dtype)
        out[f"plan_conversion: {name}"] = _fastest(lambda args=args: tl.plan_conversion(*args), 3)
    return out


def _render() -> dict[str, float]:
    from tilelayout.explorer import server

    def get(path: str) -> dict:
        return json.loads(server.dumps(server._GET[path]()))

    def post(path: str, req: dict) -> bytes:
        return server.dumps(server._POST[path](req)).encode()

    t0 = time.perf_counter()
    presets = get("/api/presets")["presets"]
    get("/api/options")
    entry = next(p for p in presets if p["name"] == "tensor-core tile")
    drawn = {"layout": entry["layout"], "shape": ",".join(map(str, entry["shape"])),
             "dtype": entry["dtype"], "swizzle": entry["swizzle"] or "none"}
    post("/api/layout", {**drawn, "order": None})
    t1 = time.perf_counter()
    for path in ("/api/analysis", "/api/convert", "/api/table"):
        post(path, drawn)
    t2 = time.perf_counter()
    post("/api/layout", {"layout": ACC, "shape": "128,256", "dtype": "float32", "swizzle": "none",
                         "order": None})
    t3 = time.perf_counter()
    return {"first render: presets + options + layout of the default preset": t1 - t0,
            "first render: its side panels (analysis, convert, table)": t2 - t1,
            "first /api/layout of the 128x256 accumulator": t3 - t2}


def _catalog() -> dict[str, float]:
    from tilelayout.explorer import server

    t0 = time.perf_counter()
    for name in PRESETS_6F303F9:
        server.dumps(server._POST["/api/preset"]({"name": name}))
    return {f"first /api/preset of each of the {len(PRESETS_6F303F9)} presets of 6f303f9":
            time.perf_counter() - t0}


def workload(group: str) -> None:
    """Run one group and print ``{"file": tilelayout's path, "times": {name: seconds}}``."""
    import tilelayout

    times = {"render": _render, "catalog": _catalog, "scalar": _scalar, "map_all": _map_all,
             "plan": _plan}[group]()
    print(json.dumps({"file": tilelayout.__file__, "times": times}))


# -- the driver ------------------------------------------------------------------------
def git(*args: str) -> str:
    proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"git {' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout.strip()


def checkout(rev: str, into: Path) -> Path:
    """``rev``'s ``src`` extracted in a new directory under ``into`` (``.``: this working
    tree's ``src``). The same revision on both sides (an A/A run) gets two copies."""
    if rev == ".":
        return ROOT / "src"
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    dest = Path(tempfile.mkdtemp(prefix=f"{commit[:12]}-", dir=into))
    with subprocess.Popen(["git", "-C", str(ROOT), "archive", commit, "src"],
                          stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
            tar.extractall(dest, filter="data")
    if proc.returncode:
        raise SystemExit(f"git archive {rev} failed")
    return dest / "src"


def run_group(src: Path, group: str) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(src)
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--workload", group],
                          env=env, capture_output=True, text=True, cwd=src.parent)
    if proc.returncode:
        raise SystemExit(f"workload {group} failed on {src}:\n{proc.stderr[-3000:]}")
    answer = json.loads(proc.stdout.strip().splitlines()[-1])
    if not Path(answer["file"]).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"the workload imported {answer['file']}, not the checkout {src}")
    return answer["times"]


def spread(xs: list[float]) -> float:
    """A side's noise: twice its rounds' robust standard deviation (1.4826 x the median
    absolute deviation), relative to their median."""
    mid = statistics.median(xs)
    return 2 * 1.4826 * statistics.median(abs(x - mid) for x in xs) / mid


#: the smallest difference called slower or faster: the same code in two processes of
#: different revisions can differ by 1-2% (imports change what the allocator and caches
#: hold; an A/A run, ``--before X --after X``, shows the rest of the noise)
NOISE_FLOOR = 0.03


def verdict(before: list[float], after: list[float]) -> tuple[float, float, float, float, str]:
    """(ratio of medians, lowest and highest per-round ratio, noise, verdict): "slower"
    ("faster") when the ratio is beyond the noise (the larger side's, at least
    :data:`NOISE_FLOOR`) and at least two thirds of the rounds agree, else "within noise"."""
    ratio = statistics.median(after) / statistics.median(before)
    paired = [a / b for a, b in zip(after, before)]
    noise = max(spread(before), spread(after), NOISE_FLOOR)
    agree = 3 * sum(p > 1 if ratio > 1 else p < 1 for p in paired) >= 2 * len(paired)
    word = "within noise"
    if abs(ratio - 1) > noise and agree:
        word = "slower" if ratio > 1 else "faster"
    return ratio, min(paired), max(paired), noise, word


def fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def table(before: dict[str, list[float]], after: dict[str, list[float]], names: tuple[str, str]) -> str:
    lines = [f"| measurement | before {names[0]}: median / best | after {names[1]}: median / best "
             "| after / before | per-round ratios | noise | verdict |", "|---|---|---|---|---|---|---|"]
    for key in before:
        b, a = before[key], after[key]
        ratio, lo, hi, noise, word = verdict(b, a)
        lines.append(f"| {key} | {fmt(statistics.median(b))} / {fmt(min(b))} "
                     f"| {fmt(statistics.median(a))} / {fmt(min(a))} | {ratio:.2f}x "
                     f"| {lo:.2f}-{hi:.2f} | ±{100 * noise:.0f}% | {word} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="6f303f9")
    ap.add_argument("--after", default="HEAD")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--groups", default=",".join(GROUPS), help=f"any of {', '.join(GROUPS)}")
    ap.add_argument("--workload", choices=GROUPS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.workload:
        workload(args.workload)
        return
    groups = [g for g in args.groups.split(",") if g]
    if unknown := set(groups) - set(GROUPS):
        raise SystemExit(f"unknown groups {sorted(unknown)}; expected any of {', '.join(GROUPS)}")
    # SIGTERM ends the run like Ctrl-C does, so the temporary checkouts are removed
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    names = tuple("working tree" if r == "." else f"{r} ({git('rev-parse', '--short', r)})"
                  for r in (args.before, args.after))
    with tempfile.TemporaryDirectory(prefix="bench_commits_") as tmp:
        srcs = [checkout(args.before, Path(tmp)), checkout(args.after, Path(tmp))]
        results: list[dict[str, list[float]]] = [{}, {}]
        for r in range(args.rounds):
            order = (0, 1) if r % 2 == 0 else (1, 0)
            for group in groups:
                for side in order:
                    print(f"round {r + 1}/{args.rounds}: {group} on {names[side]}", file=sys.stderr)
                    for key, t in run_group(srcs[side], group).items():
                        results[side].setdefault(key, []).append(t)
    print(f"{args.rounds} rounds; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}\n")
    print(table(results[0], results[1], names))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the with-block has removed the temporary checkouts
        raise SystemExit("interrupted; the temporary checkouts are removed") from None
