"""Screenshots of the explorer, one per preset, for docs/images/explorer/ (and a review).

Opens every preset in headless Debian Chromium at a window size (default 1000x700, as a
first-time reader on a laptop sees it) and saves the window, not the whole page.

Run: ``PYTHONPATH=src .venv/bin/python scripts/explorer_screenshots.py [--size 1000x700]
[--out docs/images/explorer] [--scale 1]``.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import sync_playwright

from tilelayout.explorer.server import serve_in_thread
from tilelayout.explorer.views.presets import presets

# the pictures in docs/explorer.md and the README: file -> (window, query)
FEATURES = {
    "explorer-tensor-core.png": ((1400, 900), "?preset=tensor-core tile&select=3,5"),
    "explorer-params.png": ((1400, 900), "?preset=tmem.accumulator&p.datapath=F&p.n=64&p.align=0"),
    "explorer-conflicts.png": ((1400, 900), "?preset=smem 8x64 float16, no swizzle&select=0,8"),
    "explorer-smem-swizzle.png": ((1400, 900), "?preset=smem 8x64 float16, 128B swizzle&select=3,9"),
    "explorer-zoom.png": ((1400, 900), "?preset=wgmma 128x256 accumulator&zl=16&zp=8&select=8,9"),
}

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def slug(name: str) -> str:
    """A file name for a preset: ``"smem 8x64 float16, 128B swizzle"`` ->
    ``smem-8x64-float16-128b-swizzle``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1000x700")
    ap.add_argument("--out", default="docs/images/explorer")
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--features", metavar="DIR",
                    help="write the feature pictures of docs/explorer.md to DIR instead")
    args = ap.parse_args()
    w, h = map(int, args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = [p["name"] for p in presets()["presets"] if not p.get("error")]
    shots = ({f: q for f, (_, q) in FEATURES.items()} if args.features
             else {f"{slug(n)}.png": f"?preset={quote(n)}" for n in names})
    if args.features:
        out = Path(args.features)
        w, h = next(iter(FEATURES.values()))[0]
    server, url = serve_in_thread()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": w, "height": h}, device_scale_factor=args.scale)
            for file, query in shots.items():
                page.goto(f"{url}/{query.replace(' ', '%20')}")
                page.wait_for_function("window.__tl && window.__tl.ready && window.__tl.renders > 0")
                page.wait_for_function("window.__tl.analysisFor !== undefined || !window.__tl.state.model")
                if "select=" in query:
                    page.wait_for_function("window.__tl.detailsFor !== undefined")
                page.mouse.move(0, 0)
                page.screenshot(path=str(out / file))
                print(out / file)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
