"""SVG -> PNG, with whatever well-kept rasterizer this machine has.

Tried in order: ``cairosvg`` (PyPI; needs the system cairo library), then a headless
Chromium (``$TILELAYOUT_CHROMIUM``, ``chromium``, ``chromium-browser``,
``google-chrome``; ``scripts/ensure-chromium.sh`` installs Debian's). When neither is
there, :class:`~tilelayout.render.svg.RenderError` says so, instead of a traceback.

>>> import shutil
>>> png = svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>') if (
...     shutil.which("chromium")) else b"\\x89PNG"
>>> png[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .svg import RenderError

_BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def _size(svg: str) -> tuple[int, int]:
    m = re.search(r'<svg[^>]*\bwidth="(\d+)"[^>]*\bheight="(\d+)"', svg)
    return (int(m.group(1)), int(m.group(2))) if m else (1100, 800)


def find_chromium() -> str | None:
    """The headless-capable browser to rasterize with, or ``None``."""
    env = os.environ.get("TILELAYOUT_CHROMIUM")
    if env:
        return env if Path(env).exists() or shutil.which(env) else None
    for name in _BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG picture (``scale`` 2 for a sharper image)."""
    problem = "cairosvg is not installed"
    try:
        cairosvg = importlib.import_module("cairosvg")  # optional: the 'png' route
    except ImportError:
        cairosvg = None
    except OSError as exc:  # installed, but the system cairo library is missing
        cairosvg, problem = None, f"cairosvg cannot load the cairo library ({exc})"
    if cairosvg is not None:
        return cairosvg.svg2png(bytestring=svg.encode(), scale=scale)
    browser = find_chromium()
    if browser is None:
        raise RenderError(
            f"cannot write PNG: no rasterizer ({problem}; no Chromium found — install "
            f"Debian's chromium or set TILELAYOUT_CHROMIUM). Write .svg instead."
        )
    w, h = _size(svg)
    with tempfile.TemporaryDirectory(prefix="tilelayout-png-") as tmp:
        src, out = Path(tmp) / "picture.svg", Path(tmp) / "picture.png"
        src.write_text(svg, encoding="utf-8")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--default-background-color=ffffffff", f"--force-device-scale-factor={scale}",
               f"--window-size={w},{h}", f"--screenshot={out}", src.as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "HOME": tmp})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise RenderError(f"cannot write PNG: running {browser} failed ({exc})") from None
        if not out.exists():
            tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
            raise RenderError(f"cannot write PNG: {browser} produced no image ({tail[0]})")
        return out.read_bytes()
