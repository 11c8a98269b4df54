"""Explorer responsiveness in a real browser (Debian's Chromium, headless).

Measures, for the 128 x 256 benchmark tile (32,768 elements, two warpgroups):

* first full render: from navigation start to both views drawn (the page's own
  ``performance.now()`` at the end of its first draw, which includes the API call);
* click-to-highlight: a real mouse click on a logical cell until the owners are
  highlighted in both views (synchronous in the page; the details panel then fills
  from ``/api/explain``, measured separately as click-to-details);
* physical-slot click until the elements are highlighted (one ``/api/elements_at``
  round trip);
* zoom step: one "+" on the logical view (re-layout, repaint of both views and the
  highlight), stepping from the fitted size up to 16 px per cell;
* click-to-highlight again with the logical view zoomed to 16 px per cell (the views
  scroll; the canvases only draw the visible cells).

Run: ``.venv/bin/python benchmarks/bench_explorer.py [--runs 5]``.
Targets: first render < 1000 ms, click-to-highlight < 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
from urllib.parse import quote

from playwright.sync_api import sync_playwright

from tilelayout.explorer.examples import get
from tilelayout.explorer.server import serve_in_thread

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

CLICK_JS = """async ([x, y]) => {
  const canvas = document.getElementById(%r);
  const t0 = performance.now();
  canvas.dispatchEvent(new MouseEvent('click', {clientX: x, clientY: y, bubbles: true}));
  const sync = performance.now() - t0;   // highlight + connectors are drawn synchronously
  const key = JSON.stringify(window.__tl.highlight);
  return {sync, key};
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    e = get("wgmma 128x256 accumulator")
    server, url = serve_in_thread()
    first, clicks, details, slots, zooms, zclicks = [], [], [], [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        for _ in range(args.runs):
            page.goto(f"{url}/?preset={quote(e.name)}")
            page.wait_for_function("window.__tl && window.__tl.renders > 0")
            # performance.now() counts from navigation start
            first.append(page.evaluate("window.__tl.firstRenderAt"))
            for flat in (0, 4097, 16384, 32767):
                pt = page.evaluate(f"window.__tl.logicalCenter({flat})")
                r = page.evaluate(CLICK_JS % "logical-canvas", [pt["x"], pt["y"]])
                clicks.append(r["sync"])
                t = page.evaluate(f"""async () => {{ const t0 = performance.now();
                    while (window.__tl.detailsFor !== {flat}) await new Promise(r => setTimeout(r, 1));
                    return performance.now() - t0; }}""")
                details.append(r["sync"] + t)
            for (t, row, col) in ((0, 5, 3), (7, 31, 127)):
                pt = page.evaluate(f"window.__tl.physicalCenter({t}, {row}, {col}, 0)")
                before = page.evaluate("window.__tl.selects || 0")
                t0 = page.evaluate("performance.now()")
                page.evaluate(CLICK_JS % "physical-canvas", [pt["x"], pt["y"]])
                page.wait_for_function(f"(window.__tl.selects || 0) > {before}")
                slots.append(page.evaluate("performance.now()") - t0)
            zooms += page.evaluate("""() => { const t = [];
                while (window.__tl.cell().logical < 16) {
                  const s = performance.now(); window.__tl.zoom('logical', 1);
                  t.push(performance.now() - s); }
                return t; }""")
            for flat in (0, 4097, 16384, 32767):
                pt = page.evaluate(f"window.__tl.logicalCenter({flat})")
                r = page.evaluate(CLICK_JS % "logical-canvas", [pt["x"], pt["y"]])
                zclicks.append(r["sync"])
        browser.close()
    server.shutdown()
    server.server_close()

    def row(name, xs, target):
        print(f"| {name} | {statistics.median(xs):.1f} ms | {max(xs):.1f} ms | {target} |")

    print(f"tile: {e.layout} shape {e.shape} ({len(first)} page loads)\n")
    print("| measurement | median | max | target |\n|---|---|---|---|")
    row("first full render (navigation start -> both views drawn)", first, "< 1000 ms")
    row("click -> owners highlighted (logical cell)", clicks, "< 50 ms")
    row("click -> details panel filled (/api/explain)", details, "-")
    row("physical slot click -> elements highlighted (/api/elements_at)", slots, "-")
    row("zoom step (+), fit -> 16 px per cell", zooms, "-")
    row("click -> owners highlighted, zoomed to 16 px", zclicks, "< 50 ms")


if __name__ == "__main__":
    main()
