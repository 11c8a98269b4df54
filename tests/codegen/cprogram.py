"""One C / C++ / CUDA test program for many layouts: every generated function, the
indices and probe coordinates it runs on, and the values it must print."""

from __future__ import annotations

import functools
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np

from tilelayout.codegen.generate import codegen

from .helpers import image_samples, near_misses, probe_expected

SAMPLES = 512  # element/replica evaluations per layout (all of them when fewer)


def _array(name: str, values) -> str:
    body = ",".join(str(int(v)) for v in values) or "0"
    return f"static const long long {name}[] = {{{body}}};"


@functools.cache
def _probes(layout, shape) -> tuple[np.ndarray, list[int]]:
    """Probe coordinates (image samples, then near misses) and the flat index at each."""
    rows, flat = image_samples(layout, shape, SAMPLES // 4)
    probes = near_misses(rows, 16)
    allrows = np.concatenate([rows, probes]) if len(probes) else rows
    return allrows, flat.tolist() + probe_expected(layout, shape, probes)


@functools.cache
def _block(k: int, layout, shape: tuple[int, ...], inv: bool) -> tuple[list[str], list[str], list[int]]:
    """The language-independent part for one layout: data arrays, main() lines and the
    integers it must print (forward on sampled elements x every replica, then the
    inverse on the probe coordinates)."""
    n, reps, naxes = layout.size(), layout.replica_count, len(layout.axes)
    coords = layout.map_all(shape)
    step = max(1, math.ceil(n * reps / SAMPLES))
    flats = list(range(0, n, step))
    data = [_array(f"flat{k}", flats)]
    dims = [f"i{d}" for d in range(len(shape))]
    unflat = [f"long long {dims[d]} = f % {shape[d]}; f /= {shape[d]};"
              for d in range(len(shape) - 1, -1, -1)]
    args = dims + (["r"] if reps > 1 else [])
    main = [
        f"    printf(\"L{k}\\n\");",
        f"    for (int e = 0; e < {len(flats)}; ++e) for (long long r = 0; r < {reps}; ++r) {{",
        f"        long long f = flat{k}[e]; {' '.join(unflat)}",
        f"        (void)r; fwd{k}({', '.join(args + ['out'])});",
        f"        for (int a = 0; a < {naxes}; ++a) printf(\"%lld \", out[a]);",
        "        printf(\"\\n\");",
        "    }",
    ]
    expected = [-(k + 1)]
    for f in flats:
        idx = tuple(np.unravel_index(f, shape)) if shape else ()
        for r in range(reps):
            expected += [int(coords[a][idx + (r,)]) for a in layout.axes]
    if inv and naxes:
        allrows, want = _probes(layout, shape)
        data.append(_array(f"probe{k}", allrows.reshape(-1)))
        argv = ", ".join(f"p[{a}]" for a in range(naxes))
        main += [
            f"    for (int e = 0; e < {len(allrows)}; ++e) {{",
            f"        const long long *p = probe{k} + e * {naxes};",
            f"        printf(\"%lld\\n\", inv{k}({argv}));",
            "    }",
        ]
        expected += want
    return data, main, expected


def build(cases, lang: str) -> tuple[str, list[int]]:
    """(source, expected printed integers) for ``cases`` = [(layout, shape, invertible)]."""
    parts = ["#include <stdio.h>"]
    main: list[str] = ["int main(void) {", "    long long out[16];"]
    expected: list[int] = []
    for k, (layout, shape, inv) in enumerate(cases):
        shape = tuple(shape)
        parts.append(codegen(layout, shape, lang=lang, name=f"fwd{k}"))
        if inv and layout.axes:
            parts.append(codegen(layout, shape, lang=lang, name=f"inv{k}", inverse=True))
        data, lines, want = _block(k, layout, shape, inv)
        parts += data
        main += lines
        expected += want
    main += ["    return 0;", "}"]
    return "\n".join(parts + main) + "\n", expected


def parse_output(text: str) -> list[int]:
    """Printed integers; an ``L<k>`` marker becomes ``-(k+1)`` (matching ``build``)."""
    out: list[int] = []
    for tok in text.split():
        out.append(-(int(tok[1:]) + 1) if tok.startswith("L") else int(tok))
    return out


def compiler(lang: str) -> list[str]:
    """The compiler command for ``lang`` (CUDA text is built as C++ with the qualifiers
    defined away)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    cxx = shutil.which("g++") or shutil.which("c++")
    if lang == "c":
        assert cc, "a C compiler (cc) is required: scripts/bootstrap.sh installs build-essential"
        return [cc, "-std=c11", "-x", "c"]
    assert cxx, "a C++ compiler (g++) is required: scripts/bootstrap.sh installs build-essential"
    cmd = [cxx, "-std=c++17", "-x", "c++"]
    if lang == "cuda":
        cmd += ["-D__host__=", "-D__device__="]
    return cmd


def run(source: str, lang: str, workdir: Path) -> str:
    """Compile ``source`` with the system compiler and return what the program prints."""
    src = workdir / f"prog_{lang}.txt"
    exe = workdir / f"prog_{lang}"
    src.write_text(source)
    done = subprocess.run(compiler(lang) + ["-O0", "-Wall", "-o", str(exe), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[:3000]
    warnings = [ln for ln in done.stderr.splitlines() if "warning" in ln]
    assert not warnings, warnings[:5]
    ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[:2000]
    return ran.stdout
