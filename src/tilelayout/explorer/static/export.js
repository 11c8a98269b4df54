// Export the current views (SVG, PNG) and the layout as a Python snippet.

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

// one view as SVG elements, from the grid geometry and the same fill functions the canvas uses
function gridSvg(grid, fill, dx, dy, title) {
  const s = grid.spec;
  const out = [`<text x="${dx}" y="${dy - 6}" font-size="12" font-weight="bold">${esc(title)}</text>`];
  const g = grid.ch >= 6 ? 1 : 0;
  for (let t = 0; t < s.ntiles; t++) {
    if (grid.header) out.push(`<text x="${dx + grid.tileX[t]}" y="${dy + grid.tileY[t] - 5}" font-size="10">${esc(s.tileLabel(t))}</text>`);
    for (let r = 0; r < s.nrows; r++) {
      for (let c = 0; c < s.ncols; c++) {
        for (let k = 0; k < grid.sub; k++) {
          const key = grid.key(t, r, c, k);
          const col = fill(key) || "#efedea";
          const [x, y, w, h] = grid.cellRect(t, r, c, grid.sub > 1 ? k : -1);
          out.push(`<rect x="${(dx + x).toFixed(1)}" y="${(dy + y).toFixed(1)}" width="${w - g}" height="${h - g}" fill="${col}"/>`);
        }
      }
    }
  }
  return out.join("");
}

export function exportSvg(state) {
  const m = state.model, d = state.data;
  if (!m) return;
  const lw = m.lgrid.width, pw = m.pgrid.width;
  const H = Math.max(m.lgrid.height, m.pgrid.height) + 60;
  const W = lw + pw + 40;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<text x="10" y="16" font-size="12" font-family="monospace">${esc(d.layout)} shape (${d.shape.join(", ")})</text>` +
    gridSvg(m.lgrid, m.fillL, 10, 44, "logical") +
    gridSvg(m.pgrid, m.fillP, lw + 30, 44, `physical: ${d.physical.title}`) + `</svg>`;
  download("tilelayout.svg", new Blob([svg], { type: "image/svg+xml" }));
  return svg.length;
}

// both views at their current cell size, the whole content (not only the scrolled-to
// part) unless it is very large, with the current highlight
export function exportPng(state) {
  const m = state.model;
  if (!m) return;
  const LIMIT = 8192;
  const part = (g) => (g.width <= LIMIT && g.height <= LIMIT
    ? [0, 0, g.width, g.height] : [g.sx, g.sy, g.vw, g.vh]);
  const [pl, pp] = [part(m.lgrid), part(m.pgrid)];
  const W = pl[2] + pp[2] + 40, H = Math.max(pl[3], pp[3]) + 20;
  const out = document.createElement("canvas");
  out.width = W; out.height = H;
  const ctx = out.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.save(); ctx.translate(10, 10); m.lgrid.render(ctx, ...pl, true); ctx.restore();
  ctx.save(); ctx.translate(30 + pl[2], 10); m.pgrid.render(ctx, ...pp, true); ctx.restore();
  out.toBlob((blob) => download("tilelayout.png", blob), "image/png");
}

export function pythonSnippet(state, unravel) {
  const d = state.data;
  if (!d) return "";
  const shape = d.shape.length === 1 ? `(${d.shape[0]},)` : `(${d.shape.join(", ")})`;
  const lines = ["import tilelayout as tl", "", `L = tl.parse(${JSON.stringify(d.layout)})`, `shape = ${shape}`];
  if (state.sel && state.sel.type === "element") {
    const idx = unravel(state.sel.flat, d.shape);
    lines.push(`L.apply((${idx.join(", ")}${idx.length === 1 ? "," : ""}), shape=shape)  # the owners of the selected element`);
  }
  lines.push("coords = L.map_all(shape)  # axis -> array of shape (*shape, replicas)");
  if (d.dtype && d.banks) lines.push(`banks = tl.bank_map(L, ${JSON.stringify(d.dtype)}, shape)`);
  return lines.join("\n") + "\n";
}
