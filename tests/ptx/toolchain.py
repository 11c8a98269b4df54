"""NVIDIA's compiler from the virtual environment's Python packages (the ``cuda`` extra,
installed by ``scripts/ensure-cuda.sh``): CUDA C++ to PTX with ``nvcc``, PTX to a cubin
with ``ptxas``, a cubin to SASS text with ``nvdisasm`` (or ``cuobjdump -sass``), and the
SASS instruction counts. No GPU is needed.

Compiled PTX / cubins are cached by content hash under ``.cache/ptx/`` in the repository
(gitignored), so a suite of many small kernels compiles each once; :func:`compile_many`
compiles many translation units in one ``nvcc`` run.

>>> t = tools()
>>> sorted(t.paths())  # doctest: +SKIP
['cuobjdump', 'nvcc', 'nvdisasm', 'ptxas']
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import tilelayout as tl

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "ptx"
#: the targets the proof compiles for (sm_90a / sm_100a: the arch-specific features)
TARGETS = ("sm_80", "sm_89", "sm_90a", "sm_100a")
TIMEOUT = 300  # seconds for one compiler run
_INSTALL = "run scripts/ensure-cuda.sh (installs the 'cuda' extra of pyproject.toml)"


class ToolchainError(tl.LayoutError):
    """A CUDA tool is missing, or it refused the input (its message is included)."""


@dataclass(frozen=True)
class Tools:
    """Paths of the CUDA tools found (None: not installed)."""

    nvcc: Path | None
    ptxas: Path | None
    nvdisasm: Path | None
    cuobjdump: Path | None

    def paths(self) -> dict[str, Path]:
        return {k: v for k, v in vars(self).items() if v is not None}

    def need(self, name: str) -> Path:
        path = getattr(self, name)
        if path is None:
            raise ToolchainError(f"{name} is not installed in this Python environment: {_INSTALL}")
        return path


def _package_dirs(package: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    return [Path(p) for p in (spec.submodule_search_locations or [])]


@cache
def tools() -> Tools:
    """The CUDA tools of the environment: NVIDIA's ``nvidia-*`` wheels first (``nvidia/cu13/bin``,
    or the CUDA 12 layout ``nvidia/cuda_nvcc/bin``), then -- for ptxas / nvdisasm /
    cuobjdump only -- the copies Triton ships, then ``PATH``."""
    bins: list[Path] = []
    for d in _package_dirs("nvidia"):
        bins += [d / "cu13" / "bin", d / "cuda_nvcc" / "bin", d / "cuda_nvdisasm" / "bin",
                 d / "cuda_cuobjdump" / "bin"]
    triton = [d / "backends" / "nvidia" / "bin" for d in _package_dirs("triton")]

    def find(name: str, extra: list[Path]) -> Path | None:
        for b in bins + extra:
            if (b / name).is_file() and os.access(b / name, os.X_OK):
                return b / name
        found = shutil.which(name)
        return Path(found) if found else None

    return Tools(find("nvcc", []), find("ptxas", triton), find("nvdisasm", triton),
                 find("cuobjdump", triton))


@cache
def version(tool: str = "nvcc") -> str:
    """``release 13.5, V13.5.37`` -- the tool's version line (part of every cache key)."""
    out = _run([str(tools().need(tool)), "--version"], tool).stdout
    m = re.search(r"release [^\n]+", out)
    return m.group(0) if m else out.strip().splitlines()[-1]


def _run(cmd: list[str], what: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        raise ToolchainError(f"{what} did not finish in {TIMEOUT} s") from e
    except OSError as e:
        raise ToolchainError(f"{what} could not start: {e}") from e
    if done.returncode != 0:
        msg = (done.stderr or done.stdout).strip()
        raise ToolchainError(f"{what} failed (exit {done.returncode}):\n{msg}")
    return done


def _check_target(arch: str) -> None:
    if not re.fullmatch(r"sm_\d+[af]?", arch):
        raise ToolchainError(f"expected a target such as sm_90a, got {arch!r}")


def _cached(kind: str, key_parts: list[str], make) -> bytes:
    key = hashlib.sha256("\0".join(key_parts).encode()).hexdigest()[:32]
    path = CACHE / f"{key}.{kind}"
    if path.is_file():
        return path.read_bytes()
    data = make()
    CACHE.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=CACHE, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)  # atomic: a reader never sees half a file
    return data


def compile_ptx(source: str, arch: str = "sm_90a", options: tuple[str, ...] = ()) -> str:
    """PTX of a CUDA C++ translation unit, by ``nvcc -ptx`` for ``arch`` (cached)."""
    _check_target(arch)
    nvcc = tools().need("nvcc")

    def make() -> bytes:
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "unit.cu").write_text(source)
            _run([str(nvcc), f"-arch={arch}", "-std=c++17", "-ptx", *options, "unit.cu",
                  "-o", "unit.ptx"], f"nvcc -arch={arch}", cwd=d)
            return (Path(d) / "unit.ptx").read_bytes()

    return _cached("ptx", [version(), arch, *options, source], make).decode()


def compile_many(sources: dict[str, str], arch: str = "sm_90a") -> dict[str, str]:
    """PTX of many translation units compiled by one ``nvcc`` run: unit ``k`` goes into
    ``namespace k { ... }`` after all the units' ``#include`` lines, so headers are read
    once and a unit's file-scope names stay its own (its ``extern "C"`` kernels must
    have names unique across the units). Returns, per unit, the PTX of the whole batch
    (run any kernel by its name). A compiler error names the unit its line is in."""
    for k in sources:
        if not re.fullmatch(r"[A-Za-z_]\w*", k):
            raise ToolchainError(f"expected unit names that are C++ identifiers, got {k!r}")
    includes: list[str] = []
    bodies: list[tuple[str, list[str]]] = []
    for k, src in sources.items():
        body = []
        for line in src.splitlines():
            if line.strip().startswith("#include"):
                if line.strip() not in includes:
                    includes.append(line.strip())
                body.append("")  # keep the unit's line numbers
            else:
                body.append(line)
        bodies.append((k, body))
    lines = list(includes)
    starts: list[tuple[int, str]] = []  # (first line of the unit's body, 1-based, unit)
    for k, body in bodies:
        lines.append(f"namespace {k} {{")
        starts.append((len(lines) + 1, k))
        lines += body
        lines.append(f"}}  // namespace {k}")
    try:
        ptx = compile_ptx("\n".join(lines) + "\n", arch)
    except ToolchainError as e:
        raise ToolchainError(_name_units(str(e), starts)) from None
    return dict.fromkeys(sources, ptx)


def _name_units(message: str, starts: list[tuple[int, str]]) -> str:
    """nvcc's ``unit.cu(123): error`` lines of a batch as ``unit NAME, line 7: error``."""
    def unit_line(m: re.Match) -> str:
        n = int(m.group(1))
        first, name = max((s for s in starts if s[0] <= n), default=(1, "(headers)"))
        return f"unit {name}, line {n - first + 1}"

    out = re.sub(r"unit\.cu\((\d+)\)", unit_line, message)
    kept = out.splitlines()
    return "\n".join(kept[:60] + ([f"... ({len(kept) - 60} more lines)"] if len(kept) > 60 else []))


def compile_cubin(ptx: str, arch: str = "sm_90a") -> bytes:
    """The cubin ``ptxas`` assembles from ``ptx`` for ``arch`` (cached)."""
    _check_target(arch)
    ptxas = tools().need("ptxas")

    def make() -> bytes:
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "unit.ptx").write_text(ptx)
            _run([str(ptxas), f"-arch={arch}", "unit.ptx", "-o", "unit.cubin"],
                 f"ptxas -arch={arch}", cwd=d)
            return (Path(d) / "unit.cubin").read_bytes()

    return _cached("cubin", [version("ptxas"), arch, ptx], make)


def sass(cubin: bytes) -> str:
    """SASS text of a cubin: ``nvdisasm`` when installed, else ``cuobjdump -sass``."""
    t = tools()
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "unit.cubin").write_bytes(cubin)
        if t.nvdisasm is not None:
            return _run([str(t.nvdisasm), "-c", "unit.cubin"], "nvdisasm", cwd=d).stdout
        return _run([str(t.need("cuobjdump")), "-sass", "unit.cubin"], "cuobjdump", cwd=d).stdout


_SASS = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")


def sass_functions(text: str) -> dict[str, list[str]]:
    """The SASS mnemonics (with their modifiers, e.g. ``SHFL.IDX``) of each function of
    nvdisasm / cuobjdump output, in order."""
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if m := re.match(r"\s*\.text\.(\S+?):", line) or \
                re.match(r"\s*Function : (\S+)", line):
            current = m.group(1)
            out.setdefault(current, [])
            continue
        if current is not None and (m := _SASS.search(line)):
            out[current].append(m.group(1))
    return out


#: SASS opcodes the proof reports (shared memory, shuffles, byte permutes, barriers)
SASS_KINDS = ("SHFL", "PRMT", "SEL", "FSEL", "LDSM", "STSM", "STS", "LDS", "BAR", "UTMASTG", "SYNCS")


def sass_counts(text: str, function: str | None = None) -> Counter[str]:
    """Instructions of one function (the only one when ``function`` is None) by opcode,
    without modifiers: ``{"SHFL": 4, "PRMT": 2, ...}``; NOPs and the final branch to
    itself are not instructions of the program."""
    funcs = sass_functions(text)
    if function is None:
        if len(funcs) != 1:
            raise ToolchainError(f"expected one function in the SASS, found {sorted(funcs)}")
        function = next(iter(funcs))
    if function not in funcs:
        raise ToolchainError(f"no function {function!r} in the SASS (found {sorted(funcs)})")
    ops = [m.split(".")[0] for m in funcs[function]]
    return Counter(o for o in ops if o != "NOP")


def sass_of(ptx: str, arch: str = "sm_90a", function: str | None = None) -> Counter[str] | None:
    """SASS opcode counts of ``function`` in ``ptx`` assembled for ``arch``, or None when
    ptxas or both disassemblers are missing."""
    t = tools()
    if t.ptxas is None or (t.nvdisasm is None and t.cuobjdump is None):
        return None
    return sass_counts(sass(compile_cubin(ptx, arch)), function)
