// Export the current views (SVG, PNG) and the layout as a Python snippet.
import { labelStep, GAP_T, CELL_FONT, LINE_HEIGHT, splitLabel } from "./grid.js";
import { LIGHT } from "./theme.js";
import { connectorsSvg } from "./selection.js";
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

// a cell's text at the grid's one label size (as on the canvas: on two lines when the grid
// writes them so)
function cellTextSvg(label, x, y, w, h, px, lines = 1) {
  if (!label) return "";
  const [a, b] = lines === 2 ? splitLabel(label) : [label, null];
  const one = (t, cy) => `<text x="${(x + w / 2).toFixed(1)}" y="${cy.toFixed(1)}" font-size="${px}" font-family="${CELL_FONT}" text-anchor="middle" dominant-baseline="middle" fill="#1c1917">${esc(t)}</text>`;
  if (b === null) return one(label, y + h / 2 + 0.5);
  const dy = (px * LINE_HEIGHT) / 2;
  return one(a, y + h / 2 - dy + 0.5) + one(b, y + h / 2 + dy + 0.5);
}

// What an export shows besides the two grids: the layout line, each view's caption, the
// legend, and the current selection (highlighted cells ringed, others dimmed only when
// asked; connectors from the selected element to its owners). In export coordinates.
function extras(state) {
  const d = state.data, m = state.model;
  const caption = (id) => document.getElementById(id).textContent;
  const cs = m.colours, legend = cs.values.slice(0, 24);
  const sel = state.sel;
  return {
    head: `${d.layout} shape (${d.shape.join(", ")})`,
    captions: [`logical: ${caption("logical-caption")}`, `physical: ${caption("physical-caption")}`],
    legend: legend.map((v) => [v, cs.of(v)]),
    legendMore: cs.values.length > legend.length ? `… ${cs.values.length} values` +
      (cs.cycle ? `, colours repeat every ${cs.cycle}` : ", each its own colour") : "",
    what: (d.colours.choices.find((c) => c.key === state.color) || { what: state.color }).what,
    element: sel && sel.type === "element" ? m.lkey[sel.flat] : -1,
    owners: sel ? sel.physKeys : [],
  };
}

const BAND = 76;  // px above the grids: layout line, two captions, the legend

function extrasSvg(x, W) {
  const out = [`<text x="10" y="16" font-size="12" font-family="monospace">${esc(x.head)}</text>`];
  x.captions.forEach((c, i) => out.push(`<text x="10" y="${32 + 13 * i}" font-size="11" fill="#44403c">${esc(c)}</text>`));
  let lx = 10;
  out.push(`<text x="${lx}" y="66" font-size="11" fill="#44403c">colour = ${esc(x.what)}:</text>`);
  lx += 7 * (10 + x.what.length);
  for (const [v, col] of x.legend) {
    if (lx > W - 40) break;
    out.push(`<rect x="${lx}" y="57" width="10" height="10" fill="${col}" stroke="#00000026"/>` +
      `<text x="${lx + 13}" y="66" font-size="11" fill="#44403c">${v}</text>`);
    lx += 20 + 7 * String(v).length;
  }
  if (x.legendMore) out.push(`<text x="${lx}" y="66" font-size="11" fill="#44403c">${esc(x.legendMore)}</text>`);
  return out.join("");
}

// the connectors of the export (owners' cells in content coordinates + the view offsets)
function exportConnectors(m, x, dl, dp) {
  if (x.element < 0) return [];
  const [lx, ly, lw, lh] = m.lgrid.keyRect(x.element);
  return x.owners.slice(0, 64).map((k) => {
    const [px0, py0, , ph] = m.pgrid.keyRect(k);
    return { x1: dl[0] + lx + lw, y1: dl[1] + ly + lh / 2, x2: dp[0] + px0 - 1, y2: dp[1] + py0 + ph / 2, inside: true };
  });
}

// one view as SVG elements, from the grid geometry and the same fill functions the canvas uses
function gridSvg(grid, fill, dx, dy, title) {
  const s = grid.spec;
  const out = [`<text x="${dx}" y="${dy - 6}" font-size="12" font-weight="bold">${esc(title)}</text>`];
  const g = grid.ch >= 6 ? 1 : 0;
  // the canvas rule: every non-empty cell labelled at the grid's one size, or none
  const px = grid.labelPx(), lines = grid.labelLines();
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
          if (text && fill(key)) out.push(cellTextSvg(text(key), dx + x, dy + y, w, h, px, lines));
        }
      }
    }
  }
  return out.join("");
}

// the highlight of one view: rings around its highlighted cells; the others dimmed if asked
function highlightSvg(grid, dx, dy, dim) {
  const hl = grid.hl;
  if (!hl) return "";
  let out = dim ? `<rect x="${dx}" y="${dy}" width="${grid.width}" height="${grid.height}" fill="#ffffff" fill-opacity="0.68"/>` : "";
  for (const key of hl.cells) {
    const [x, y, w, h] = hl.wholeCells ? grid.cellRect(...grid.unkey(key).slice(0, 3)) : grid.keyRect(key);
    out += `<rect x="${(dx + x - 0.5).toFixed(1)}" y="${(dy + y - 0.5).toFixed(1)}" width="${w}" height="${h}" fill="none" stroke="#111111"/>`;
  }
  if (hl.primary >= 0) {
    const [x, y, w, h] = grid.keyRect(hl.primary);
    out += `<rect x="${(dx + x - 1.5).toFixed(1)}" y="${(dy + y - 1.5).toFixed(1)}" width="${w + 2}" height="${h + 2}" fill="none" stroke="#2563eb" stroke-width="2"/>`;
  }
  return out;
}

// Both views as one SVG picture (light colours), with the captions, the legend and the
// current selection; dim: dim what is not selected (as the page does)
export function exportSvg(state, { dim = false } = {}) {
  const m = state.model, d = state.data;
  if (!m) return;
  const x = extras(state);
  const lw = m.lgrid.width, pw = m.pgrid.width;
  const top = BAND + 28;
  const H = Math.max(m.lgrid.height, m.pgrid.height) + top + 16;
  // wide enough for the physical view's title, the captions and the layout text (about
  // 6-7 px a character)
  const W = Math.ceil(Math.max(lw + pw + 40, lw + 40 + 7 * (10 + d.physical.title.length),
    20 + 7.3 * (d.layout.length + 20), ...x.captions.map((c) => 20 + 6.2 * c.length)));
  const dl = [10, top], dp = [lw + 30, top];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fff"/>` + extrasSvg(x, W) +
    gridSvg(m.lgrid, m.fillL, ...dl, "logical") + highlightSvg(m.lgrid, ...dl, dim) +
    gridSvg(m.pgrid, m.fillP, ...dp, `physical: ${d.physical.title}`) + highlightSvg(m.pgrid, ...dp, dim) +
    connectorsSvg(exportConnectors(m, x, dl, dp), Math.max(0, x.owners.length - 64)) + `</svg>`;
  download("tilelayout.svg", new Blob([svg], { type: "image/svg+xml" }));
  return svg.length;
}

// both views at their current cell size, the whole content (not only the scrolled-to
// part) unless it is very large, with the captions, the legend and the current selection
// (ringed, connected; others dimmed only when asked)
export function exportPng(state, { dim = false } = {}) {
  const m = state.model;
  if (!m) return;
  const LIMIT = 8192;
  const part = (g) => (g.width <= LIMIT && g.height <= LIMIT
    ? [0, 0, g.width, g.height] : [g.sx, g.sy, g.vw, g.vh]);
  const [pl, pp] = [part(m.lgrid), part(m.pgrid)];
  const d = state.data, x = extras(state);
  const TOP = BAND + 28;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = "12px ui-monospace, monospace";
  const wide = Math.max(measure.measureText(x.head).width, ...x.captions.map((c) => 6.2 * c.length));
  const W = Math.max(pl[2] + pp[2] + 40, Math.ceil(wide) + 20);
  const H = Math.max(pl[3], pp[3]) + TOP + 10;
  const out = document.createElement("canvas");
  out.width = W; out.height = H;
  const ctx = out.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#1c1917";
  ctx.textBaseline = "alphabetic";
  ctx.font = "12px ui-monospace, monospace";
  ctx.fillText(x.head, 10, 16);
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#44403c";
  x.captions.forEach((c, i) => ctx.fillText(c, 10, 32 + 13 * i));
  let lx = 10;
  const key = `colour = ${x.what}:`;
  ctx.fillText(key, lx, 66);
  lx += ctx.measureText(key).width + 8;
  for (const [v, col] of x.legend) {
    if (lx > W - 40) break;
    ctx.fillStyle = col; ctx.fillRect(lx, 57, 10, 10);
    ctx.fillStyle = "#44403c"; ctx.fillText(String(v), lx + 13, 66);
    lx += 20 + ctx.measureText(String(v)).width;
  }
  if (x.legendMore) ctx.fillText(x.legendMore, lx, 66);
  ctx.font = "bold 12px system-ui, sans-serif";
  ctx.fillStyle = "#1c1917";
  ctx.fillText("logical", 10, TOP - 6);
  ctx.fillText(`physical: ${d.physical.title}`, 30 + pl[2], TOP - 6, Math.max(60, pp[2]));
  const opts = { highlight: true, dim, theme: LIGHT };
  ctx.save(); ctx.translate(10, TOP); m.lgrid.render(ctx, ...pl, opts); ctx.restore();
  ctx.save(); ctx.translate(30 + pl[2], TOP); m.pgrid.render(ctx, ...pp, opts); ctx.restore();
  // connectors (when both views are exported whole, so that the coordinates agree)
  if (pl[0] === 0 && pl[1] === 0 && pp[0] === 0 && pp[1] === 0) {
    ctx.strokeStyle = "rgba(37,99,235,0.75)";
    ctx.lineWidth = 1.5;
    for (const c of exportConnectors(m, x, [10, TOP], [30 + pl[2], TOP])) {
      const mx = (c.x1 + c.x2) / 2;
      ctx.beginPath();
      ctx.moveTo(c.x1, c.y1);
      ctx.bezierCurveTo(mx, c.y1, mx, c.y2, c.x2, c.y2);
      ctx.stroke();
    }
  }
  out.toBlob((blob) => download("tilelayout.png", blob), "image/png");
}

export function pythonSnippet(state) {
  const d = state.data;
  if (!d) return "";
  const shape = d.shape.length === 1 ? `(${d.shape[0]},)` : `(${d.shape.join(", ")})`;
  const lines = ["import tilelayout as tl", ""];
  // mesh axes (x, y, dp, tp, ...) are user axes: the parse in a fresh interpreter
  // declares them (a JSON list of names is a Python list too)
  const declared = d.axes.filter((a) => a.kind === "device" && a.name !== "pid").map((a) => a.name);
  const axes = declared.length ? `, axes=${JSON.stringify(declared)}` : "";
  lines.push(`L = tl.parse(${JSON.stringify(d.layout)}${axes})`, `shape = ${shape}`);
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
