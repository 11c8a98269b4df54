"""The page's picture against its SVG export, per preset: the pixels that differ.

Opens each case in headless Debian Chromium, captures the page's own picture of both views
(its PNG export: the grids' canvas painting, light colours) and its SVG export (drawn by the
server), rasterizes the SVG in the same browser at the same size, and counts the pixels
whose colour differs by more than a small tolerance: in the whole picture and in the grids
(below the band of layout line, captions and legend). Writes ``<case>-page.png``,
``<case>-svg.png`` and ``<case>-diff.png`` (differing pixels in red) to ``--out``.

Run: ``/work/bin/tlpy scripts/svg_vs_page.py [--out test-artifacts/svg]``.
"""

from __future__ import annotations

import argparse
import base64
import json
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import sync_playwright

from tilelayout.explorer.server import serve_in_thread

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# case -> (preset query, the selection: ["element", flat] | ["slot", t, r, c, s] | None)
CASES = {
    "tensor-core-element": ("?preset=" + quote("tensor-core tile") + "&select=3,5", None),
    "tensor-core-slot": ("?preset=" + quote("tensor-core tile"), ["slot", 1, 3, 1, 0]),
    "smem-128b-swizzle": ("?preset=" + quote("smem 8x64 float16, 128B swizzle") + "&select=3,9", None),
    "tmem-2x128x112": ("?preset=" + quote("TMEM accumulator (2x128x112)"), ["slot", 0, 5, 2, 0]),
    "mesh-replica": ("?preset=" + quote("2x2 mesh + replica") + "&select=3,4", None),
    "smem-bank-word": ("?preset=" + quote("smem 8x64 float16, no swizzle"), ["slot", 0, 2, 5, 1]),
    "1d-shard": ("?preset=" + quote("1-D shard") + "&select=9", None),
    "trainium-sbuf": ("?preset=" + quote("Trainium SBUF (P x F)") + "&select=5,3", None),
}

# both pictures as RGBA arrays in the page, their difference counted there
COMPARE = """async ([svg, dim]) => {
  const png = await new Promise((resolve) => {
    const orig = URL.createObjectURL;
    URL.createObjectURL = (blob) => { URL.createObjectURL = orig; resolve(blob); return orig(blob); };
    document.querySelector('[data-testid=export-png]').dispatchEvent(
      new MouseEvent('click', { bubbles: true, shiftKey: dim })); });
  const load = (blob) => new Promise((resolve) => { const im = new Image();
    im.onload = () => resolve(im); im.src = URL.createObjectURL(blob); });
  const a = await load(png), b = await load(new Blob([svg], { type: 'image/svg+xml' }));
  const W = Math.max(a.width, b.width), H = Math.max(a.height, b.height);
  const pixels = (im) => { const c = document.createElement('canvas'); c.width = W; c.height = H;
    const ctx = c.getContext('2d'); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
    ctx.drawImage(im, 0, 0); return [c, ctx.getImageData(0, 0, W, H)]; };
  const [ca, pa] = pixels(a), [cb, pb] = pixels(b);
  const cd = document.createElement('canvas'); cd.width = W; cd.height = H;
  const dctx = cd.getContext('2d'), out = dctx.createImageData(W, H);
  let all = 0, grids = 0;
  for (let i = 0; i < W * H; i++) {
    let d = 0;
    for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(pa.data[4 * i + k] - pb.data[4 * i + k]));
    const off = d > 48;
    if (off) { all++; if (Math.floor(i / W) >= 90) grids++; }
    const g = (pa.data[4 * i] + pa.data[4 * i + 1] + pa.data[4 * i + 2]) / 3;
    out.data.set(off ? [220, 0, 0, 255] : [g, g, g, 90], 4 * i);
  }
  dctx.putImageData(out, 0, 0);
  return { size: [a.width, a.height, b.width, b.height], all, grids, pixels: W * H,
           page: ca.toDataURL(), svg: cb.toDataURL(), diff: cd.toDataURL() };
}"""


def compare(page, url: str, out: Path, dim: bool = False) -> None:
    """Each case: the page's picture, its SVG export, their difference (printed, saved)."""
    for case, (query, sel) in CASES.items():
        page.goto(f"{url}/{query}")
        page.wait_for_function("window.__tl && window.__tl.ready && window.__tl.renders > 0")
        if "select=" in query:
            page.wait_for_function("window.__tl.detailsFor !== undefined")
        if sel:
            page.evaluate("""async (h) => { const s = await import('/static/selection.js');
                s.selectSlot({t: h[1], r: h[2], c: h[3], s: h[4]}); }""", sel)
            page.wait_for_function("window.__tl.detailsFor !== undefined")
        page.mouse.move(0, 0)
        page.screenshot(path=str(out / f"{case}-screen.png"))
        with page.expect_download() as dl:
            page.click("[data-testid=export-svg]", modifiers=["Shift"] if dim else [])
        svg = Path(dl.value.path()).read_text(encoding="utf-8")
        (out / f"{case}.svg").write_text(svg, encoding="utf-8")
        got = page.evaluate(COMPARE, [svg, dim])
        for kind in ("page", "svg", "diff"):
            (out / f"{case}-{kind}.png").write_bytes(base64.b64decode(got.pop(kind).split(",", 1)[1]))
        print(json.dumps({"case": case, **got, "percent": round(100 * got["all"] / got["pixels"], 2)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="test-artifacts/svg")
    ap.add_argument("--dim", action="store_true", help="export with the rest dimmed (shift + click)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server, url = serve_in_thread()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        try:
            compare(browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True),
                    url, out, args.dim)
        finally:
            browser.close()
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
