"""The documentation site builds with MkDocs in strict mode (every warning, broken link or
missing anchor fails it), with an API reference generated from the docstrings and the
pictures and explorer screenshots the pages show."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import tilelayout
from tilelayout import tirx
from tilelayout.algebra import cute as cute_algebra

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out, done.stdout + done.stderr


def test_the_site_builds_with_no_warning(site):
    _, log = site
    assert "WARNING" not in log and "Documentation built" in log


def test_every_page_is_in_the_site(site):
    out, _ = site
    pages = [p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md")]
    assert len(pages) >= 15
    for page in pages:
        html = out / ("index.html" if page.stem == "index" else page.with_suffix("") / "index.html")
        assert html.is_file(), page


def test_the_api_reference_documents_every_public_name(site):
    out, _ = site
    html = (out / "api" / "index.html").read_text()
    documented = set(re.findall(r'id="tilelayout\.(?:\w+\.)*(\w+)"', html))
    for module in (tilelayout, cute_algebra, tirx):
        public = {name for name in module.__all__ if callable(getattr(module, name))}
        assert public - documented == set(), module.__name__
    # docstring examples are code blocks, not Markdown quotes
    assert "&gt;&gt;&gt;" in html and "<blockquote>" not in html


def test_pictures_and_screenshots_are_in_the_site(site):
    out, _ = site
    screenshots = sorted((ROOT / "docs" / "images" / "explorer").glob("*.png"))
    assert screenshots
    for picture in [*screenshots, *(ROOT / "docs" / "images").glob("*.*")]:
        assert (out / picture.relative_to(ROOT / "docs")).is_file(), picture.name
    gallery = (out / "gallery" / "index.html").read_text()
    assert all(f"images/explorer/{p.name}" in gallery for p in screenshots)
    explorer = (out / "explorer" / "index.html").read_text()
    assert "explorer-tensor-core.png" in explorer and "embed=1" in explorer
