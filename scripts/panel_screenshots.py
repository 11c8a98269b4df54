"""Pictures of the explorer's "index code" and "move data" panels for docs/explorer.md.

Usage (from the repository root, with the package importable and Debian's chromium):
``python scripts/panel_screenshots.py [--out docs/images] [--scale 2]``. Writes
``explorer-code-panel.png`` and ``explorer-move-data.png`` at a 1000 x 700 window.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import sync_playwright

from tilelayout.explorer.server import serve_in_thread

CHROMIUM = "/usr/bin/chromium"
SRC, DST = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/images")
    ap.add_argument("--scale", type=float, default=2)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server, url = serve_in_thread()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1000, "height": 700},
                                    device_scale_factor=args.scale)
            page.goto(f"{url}/?preset=mma.m16n8k16.C")
            page.wait_for_function("window.__tl && window.__tl.ready && window.__tl.renders > 0")
            page.add_style_tag(content="header#controls { position: static; }")
            page.click("[data-testid=codegen-toggle] summary")
            page.select_option("[data-testid=codegen-lang]", "cuda")
            page.wait_for_function("(window.__tl.codegenFor || '').endsWith('|cuda|false')")
            page.locator("#codegen").screenshot(path=str(out / "explorer-code-panel.png"))
            page.goto(f"{url}/?layout={quote(SRC)}&shape=32,32&move=plan&to={quote(DST)}"
                      "&mdtype=float32")
            page.wait_for_function("window.__tl.movePicture && window.__tl.movePicture.kind === 'banks'")
            # the sticky header would cover the top of a panel taller than the window
            page.add_style_tag(content="header#controls { position: static; }")
            page.locator("#movedata").screenshot(path=str(out / "explorer-move-data.png"))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"wrote {out / 'explorer-code-panel.png'} and {out / 'explorer-move-data.png'}")


if __name__ == "__main__":
    main()
