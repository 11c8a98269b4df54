"""The package as a user gets it: the sdist and wheel built from this tree, the sdist's own
tests run from its unpacked copy, the wheel installed into a fresh virtual environment,
and the README's links written for an index page (absolute, into the repository)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import numpy
import pytest

from tilelayout.core.version import __version__

ROOT = Path(__file__).resolve().parents[2]
#: the one project URL (pyproject's [project.urls] and the README use it)
REPO = "https://github.com/tilelayout/tilelayout"


def _env() -> dict[str, str]:
    """The environment without this checkout's src/ on the path (a user has none)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _check(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """An sdist, and a wheel built from that sdist (``python -m build``, no download)."""
    out = tmp_path_factory.mktemp("dist")
    _check([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)])
    return out


def _files_under(root: Path, folder: str) -> set[str]:
    return {p.relative_to(root).as_posix() for p in (root / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def test_the_sdist_holds_every_test_and_its_tests_run(dist, tmp_path):
    sdist = dist / f"tilelayout-{__version__}.tar.gz"
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    unpacked = tmp_path / f"tilelayout-{__version__}"
    for folder in ("tests", "docs", "scripts", "src/tilelayout"):
        assert _files_under(unpacked, folder) == _files_under(ROOT, folder), folder
    for name in ("LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "mkdocs.yml"):
        assert (unpacked / name).is_file(), name
    # a subset of the suite, from the unpacked sdist alone (its src/ on the path)
    env = {**_env(), "PYTHONPATH": str(unpacked / "src")}
    done = _check([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "tests/test_layers.py", "tests/test_readme.py", "tests/syntax",
                   "tests/codegen/test_docs.py", "tests/test_cli.py"], cwd=unpacked, env=env)
    assert re.search(r"\d+ passed", done.stdout) and "failed" not in done.stdout


def test_the_wheel_carries_the_licence_types_and_metadata(dist):
    wheel = dist / f"tilelayout-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(f"tilelayout-{__version__}.dist-info/METADATA").decode()
    assert "tilelayout/py.typed" in names and "tilelayout/__main__.py" in names
    assert f"tilelayout-{__version__}.dist-info/licenses/LICENSE" in names
    assert "tilelayout/explorer/static/index.html" in names
    assert not any(n.startswith(("tests/", "docs/")) for n in names)
    assert f"Version: {__version__}\n" in meta and "License-Expression: Apache-2.0" in meta
    assert f"Project-URL: Source, {REPO}\n" in meta and "Classifier: Typing :: Typed" in meta
    assert "Author-email: " in meta


@pytest.fixture(scope="module")
def fresh_venv(dist, tmp_path_factory) -> Path:
    """A new virtual environment with only the wheel and numpy (from pip's cache)."""
    root = tmp_path_factory.mktemp("venv")
    wheels = root / "wheels"
    _check([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
            "-d", str(wheels), f"numpy=={numpy.__version__}"], env=_env())
    venv = root / "env"
    _check([sys.executable, "-m", "venv", str(venv)], env=_env())
    wheel = dist / f"tilelayout-{__version__}-py3-none-any.whl"
    _check([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index",
            "--find-links", str(wheels), str(wheel)], env=_env())
    return venv


def test_a_fresh_venv_runs_the_installed_wheel(fresh_venv, tmp_path):
    python, tilelayout = str(fresh_venv / "bin" / "python"), str(fresh_venv / "bin" / "tilelayout")
    where = _check([python, "-c", "import tilelayout; print(tilelayout.__file__)"],
                   env=_env(), cwd=tmp_path).stdout
    assert where.startswith(str(fresh_venv)), where
    assert _check([tilelayout, "--version"], env=_env()).stdout == f"tilelayout {__version__}\n"
    presets = _check([python, "-m", "tilelayout", "presets"], env=_env(), cwd=tmp_path).stdout
    assert "mma.m16n8k16.C" in presets and "smem.swizzle" in presets


def test_a_fresh_venv_serves_the_page_on_a_port_that_was_busy(fresh_venv):
    tilelayout = str(fresh_venv / "bin" / "tilelayout")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        busy = subprocess.run([tilelayout, "serve", "--port", str(port)], capture_output=True,
                              text=True, timeout=60, env=_env())
    assert busy.returncode == 2
    assert busy.stderr == f"tilelayout: error: cannot listen on 127.0.0.1:{port}: " \
                         "Address already in use\n"
    # the port is free again: the same command serves the page there
    proc = subprocess.Popen([tilelayout, "serve", "--port", str(port), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        assert proc.stdout.readline().startswith(f"tilelayout explorer at http://127.0.0.1:{port}/")
        deadline = time.time() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                    page = r.read().decode()
                break
            except OSError:
                assert time.time() < deadline
                time.sleep(0.1)
        assert "<html" in page.lower() and "tilelayout" in page.lower()
    finally:
        proc.terminate()  # SIGTERM: stops it as Ctrl-C does, even where SIGINT is ignored
        assert proc.wait(timeout=10) == 0


def _links(text: str) -> list[str]:
    return re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", text) + re.findall(r'(?:src|href)="([^"]+)"',
                                                                      text)


def test_readme_links_work_on_an_index_page():
    links = _links((ROOT / "README.md").read_text())
    assert len(links) >= 10
    for link in links:
        assert re.match(r"https?://|#", link), f"relative link {link!r} breaks on an index page"
        for prefix in (f"{REPO}/blob/main/", f"{REPO}/tree/main/",
                       REPO.replace("github.com", "raw.githubusercontent.com") + "/main/"):
            if link.startswith(prefix):
                target = link[len(prefix):].split("#")[0]
                assert (ROOT / target).exists(), f"{link} names no file of the repository"
    pyproject = (ROOT / "pyproject.toml").read_text()
    urls = re.findall(r'^\w+ = "(https://[^"]+)"', pyproject.split("[project.urls]")[1].split("\n[")[0],
                      re.M)
    assert urls and all(u.startswith(REPO) for u in urls), urls
