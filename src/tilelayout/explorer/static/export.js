// Export the current views (SVG, PNG) and the layout as a Python snippet.
import { drawnRequest, postJSON } from "./api.js";
import { connectorEnds } from "./selection.js";
import { LIGHT } from "./theme.js";
import { unravel } from "./util.js";

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
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

// the connectors of the export (owners' cells in content coordinates + the view offsets)
function exportConnectors(m, x, dl, dp) {
  if (x.element < 0) return [];
  return x.owners.slice(0, 64).map((k) => {
    const [x1, y1, x2, y2] = connectorEnds(m, x.element, k);
    return { x1: dl[0] + x1, y1: dl[1] + y1, x2: dp[0] + x2, y2: dp[1] + y2, inside: true };
  });
}

// a list of numbers as runs, {start, runs: [[step, count], ...]} (render/page_view.py
// expand_runs): the page's positions and ring keys are mostly evenly spaced, and the
// request stays small
function runs(list) {
  if (!list.length) return [];
  const out = [];
  for (let i = 1; i < list.length; i++) {
    const step = list[i] - list[i - 1], last = out[out.length - 1];
    if (last && Math.abs(last[0] - step) < 1e-9) last[1]++;
    else out.push([step, 1]);
  }
  return { start: list[0], runs: out };
}

// the ringed cells to send: the first 64 in the page's order (the connectors go to those),
// the rest sorted (they compress to runs), at most 3072 (the request stays under the
// server's body limit)
function ringKeys(cells) {
  const keys = [...cells].slice(0, 3072);
  return [...keys.slice(0, 64), ...keys.slice(64).sort((a, b) => a - b)];
}

// One view's grid as the page lays it out and paints it (render/page_view.py GridView):
// where its tiles, rows and columns sit at the current zoom, its text size, which labels
// and tile names it writes, what its selection rings. The server draws there.
function gridView(g) {
  const s = g.spec, hl = g.hl, ctx = document.createElement("canvas").getContext("2d");
  return {
    cell: [g.sw, g.ch], font: g.labelPx(), lines: g.labelLines(), margin: [g.marginL, g.marginT],
    header: g.header, size: [g.width, g.height], gaps: g.gaps(),
    rows: runs(Array.from(g.rowY.subarray(0, s.nrows + 1))), cols: runs(Array.from(g.colX.subarray(0, s.ncols + 1))),
    tiles: Array.from(g.tileX, (x, t) => [x, g.tileY[t]]),
    steps: [g.rowStep(), g.colStep()],
    heads: g.header ? Array.from(g.tileX, (x, t) => (g.tileY[t] >= 14 ? g.headForm(ctx, t, g.width)[0] : 0)) : [],
    ring: runs(hl ? ringKeys(hl.cells) : []), primary: hl ? hl.primary : -1, whole: !!(hl && hl.wholeCells),
  };
}

// Both views as one SVG picture (light colours), drawn by the server (render/page_svg.py)
// where the page draws them: each view's geometry and selection, the colour key, the
// captions, the theme; dim: dim what is not selected (as the page does)
export async function exportSvg(state, { dim = false } = {}) {
  const m = state.model, d = state.data;
  if (!m) return;
  const x = extras(state);
  const { svg } = await postJSON("/api/svg", {
    ...drawnRequest(d), order: d.order || null, color: state.color, dim,
    view: { logical: gridView(m.lgrid), physical: gridView(m.pgrid), what: x.what, captions: x.captions, theme: LIGHT },
  });
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
  // connectors as the page draws them, dots at both ends (when both views are exported
  // whole, so that the coordinates agree)
  if (pl[0] === 0 && pl[1] === 0 && pp[0] === 0 && pp[1] === 0) {
    const lines = exportConnectors(m, x, [10, TOP], [30 + pl[2], TOP]);
    const dot = (cx, cy) => { ctx.beginPath(); ctx.arc(cx, cy, 2.5, 0, 2 * Math.PI); ctx.fill(); };
    ctx.strokeStyle = "rgba(37,99,235,0.75)";
    ctx.fillStyle = LIGHT.primary;
    ctx.lineWidth = 1.5;
    for (const c of lines) {
      const mx = (c.x1 + c.x2) / 2;
      ctx.beginPath();
      ctx.moveTo(c.x1, c.y1);
      ctx.bezierCurveTo(mx, c.y1, mx, c.y2, c.x2, c.y2);
      ctx.stroke();
      dot(c.x2, c.y2);
    }
    if (lines.length) {
      dot(lines[0].x1, lines[0].y1);
      const more = x.owners.length - lines.length;
      ctx.font = "11px system-ui, sans-serif";
      if (more > 0) ctx.fillText(`+${more} more owners`, lines[0].x1 + 6, lines[0].y1 - 6);
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
