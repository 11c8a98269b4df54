// Export the current views (SVG, PNG) and the layout as a Python snippet.
import { labelStep, GAP_T, CELL_FONT, LIGHT } from "./grid.js";
import { escapeHtml as esc, unravel } from "./util.js";

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// the row and column labels, as the canvas draws them (same spacing rule)
function labelsSvg(grid, dx, dy) {
  const s = grid.spec, out = [];
  if (s.labels === false) return out;
  const font = `font-size="10" font-family="ui-monospace, monospace" fill="#78716c"`;
  if (s.rowLabel) {
    const step = labelStep(grid.ch, 12);
    for (let i = 0; i < grid.tileRows; i++) {  // left of each row of tiles
      const t = grid.tileInRow(i);
      if (t < 0) continue;
      for (let r = 0; r < s.nrows; r += step) {
        const label = s.rowLabel(r);
        if (label === null) continue;
        const y = dy + grid.tileY[t] + grid.rowY[r] + grid.ch / 2;
        out.push(`<text x="${dx + grid.marginL - 4}" y="${y.toFixed(1)}" text-anchor="end" dominant-baseline="middle" ${font}>${esc(label)}</text>`);
      }
    }
  }
  if (s.colLabel) {
    const step = grid.colStep();
    const cols = s.ntiles === 1 ? 1 : Math.min(grid.perRow, s.ntiles);
    for (let j = 0; j < cols; j++) {
      const tx = grid.marginL + j * (grid.tileW + GAP_T);
      for (let c = 0; c < s.ncols; c += step) {
        const label = s.colLabel(c);
        if (label === null) continue;
        const x = dx + tx + grid.colX[c] + grid.cw / 2;
        out.push(`<text x="${x.toFixed(1)}" y="${dy + grid.marginT - 3}" text-anchor="middle" ${font}>${esc(label)}</text>`);
      }
    }
  }
  return out;
}

// a cell's text at the grid's one label size (as on the canvas)
function cellTextSvg(label, x, y, w, h, px) {
  if (!label) return "";
  return `<text x="${(x + w / 2).toFixed(1)}" y="${(y + h / 2 + 0.5).toFixed(1)}" font-size="${px}" font-family="${CELL_FONT}" text-anchor="middle" dominant-baseline="middle" fill="#1c1917">${esc(label)}</text>`;
}

// one view as SVG elements, from the grid geometry and the same fill functions the canvas uses
function gridSvg(grid, fill, dx, dy, title) {
  const s = grid.spec;
  const out = [`<text x="${dx}" y="${dy - 6}" font-size="12" font-weight="bold">${esc(title)}</text>`];
  const g = grid.ch >= 6 ? 1 : 0;
  // the canvas rule: every non-empty cell labelled at the grid's one size, or none
  const px = grid.labelPx();
  const text = px > 0 ? grid.fns.text : null;
  out.push(...labelsSvg(grid, dx, dy));
  for (let t = 0; t < s.ntiles; t++) {
    if (grid.header) out.push(`<text x="${dx + grid.tileX[t]}" y="${dy + grid.tileY[t] - 5}" font-size="10">${esc(s.tileLabel(t))}</text>`);
    for (let r = 0; r < s.nrows; r++) {
      for (let c = 0; c < s.ncols; c++) {
        for (let k = 0; k < grid.sub; k++) {
          const key = grid.key(t, r, c, k);
          const col = fill(key) || "#efedea";
          const [x, y, w, h] = grid.cellRect(t, r, c, grid.sub > 1 ? k : -1);
          out.push(`<rect x="${(dx + x).toFixed(1)}" y="${(dy + y).toFixed(1)}" width="${w - g}" height="${h - g}" fill="${col}"/>`);
          if (text && fill(key)) out.push(cellTextSvg(text(key), dx + x, dy + y, w, h, px));
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
  // wide enough for the physical view's title and the layout text (about 7 px a character)
  const W = Math.ceil(Math.max(lw + pw + 40, lw + 40 + 7 * (10 + d.physical.title.length),
    20 + 7.3 * (d.layout.length + 20)));
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
  const d = state.data, TOP = 44;  // a title band, as in the SVG: layout, shape, view titles
  const head = `${d.layout} shape (${d.shape.join(", ")})`;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = "12px ui-monospace, monospace";
  const W = Math.max(pl[2] + pp[2] + 40, Math.ceil(measure.measureText(head).width) + 20);
  const H = Math.max(pl[3], pp[3]) + TOP + 10;
  const out = document.createElement("canvas");
  out.width = W; out.height = H;
  const ctx = out.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#1c1917";
  ctx.textBaseline = "alphabetic";
  ctx.font = "12px ui-monospace, monospace";
  ctx.fillText(head, 10, 16);
  ctx.font = "bold 12px system-ui, sans-serif";
  ctx.fillText("logical", 10, TOP - 6);
  ctx.fillText(`physical: ${d.physical.title}`, 30 + pl[2], TOP - 6, Math.max(60, pp[2]));
  ctx.save(); ctx.translate(10, TOP); m.lgrid.render(ctx, ...pl, { highlight: true, theme: LIGHT }); ctx.restore();
  ctx.save(); ctx.translate(30 + pl[2], TOP); m.pgrid.render(ctx, ...pp, { highlight: true, theme: LIGHT }); ctx.restore();
  out.toBlob((blob) => download("tilelayout.png", blob), "image/png");
}

export function pythonSnippet(state) {
  const d = state.data;
  if (!d) return "";
  const shape = d.shape.length === 1 ? `(${d.shape[0]},)` : `(${d.shape.join(", ")})`;
  const lines = ["import tilelayout as tl", ""];
  // mesh axes (x, y, dp, tp, ...) are user axes: a fresh interpreter must declare them
  // before parsing (declaring an existing axis again with the same kind is a no-op)
  const declared = d.axes.filter((a) => a.kind === "device" && a.name !== "pid");
  for (const a of declared) lines.push(`tl.declare_axis(${JSON.stringify(a.name)}, kind="device")`);
  if (declared.length) lines.push("");
  lines.push(`L = tl.parse(${JSON.stringify(d.layout)})`, `shape = ${shape}`);
  if (state.sel && state.sel.type === "element") {
    const idx = unravel(state.sel.flat, d.shape);
    lines.push(`print(L.apply((${idx.join(", ")}${idx.length === 1 ? "," : ""}), shape=shape))  # the owners of the selected element`);
  }
  lines.push("coords = L.map_all(shape)  # axis -> array of shape (*shape, replicas)");
  lines.push("print({axis: v.shape for axis, v in coords.items()})");
  if (d.dtype && d.banks) {
    lines.push(`banks = tl.bank_map(L, ${JSON.stringify(d.dtype)}, shape)  # address, byte, bankword, bank, line`);
    lines.push(`print(banks["bank"])`);
  }
  return lines.join("\n") + "\n";
}
