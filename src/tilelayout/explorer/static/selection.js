// Selecting: an element (its owners), a physical slot / lane / tile (what it holds), or a
// set (a row, a bank, an analysis finding); highlighting it in both views, the connectors
// between them, the details panel, hover tooltips and the keyboard.
import { postJSON, drawnRequest } from "./api.js";
import { renderDetails, renderSetDetails, renderSlotDetails } from "./details.js";
import {
  physKeysOfElements, coordOfPair, coordText, describeCell, coordsInCells, lineElements, bankElements,
} from "./model.js";
import { state, hooks } from "./state.js";
import { writeURL } from "./urlstate.js";
import { $, escapeHtml, unravel } from "./util.js";

export const HINT = `<p class="hint">Click a logical element to see its owners and the four steps; click a physical slot, lane, warp or device to see what it holds.</p>`;

// reveal: scroll each view so that some of the selection is visible (after a new selection)
export function applySelection(reveal = false) {
  const m = state.model, sel = state.sel;
  $("connectors").innerHTML = "";
  if (!m) return;
  if (!sel) {
    m.lgrid.highlight([], null);
    m.pgrid.highlight([], null);
    hooks.highlight = { logical: [], physical: [] };
    return;
  }
  const logicalKeys = sel.elements.map((e) => m.lkey[e]);
  const physKeys = sel.physKeys;
  const primary = sel.type === "element" ? m.lkey[sel.flat] : -1;
  if (reveal) {
    if (logicalKeys.length && !logicalKeys.some((k) => m.lgrid.visible(k))) m.lgrid.reveal(primary >= 0 ? primary : logicalKeys[0]);
    if (physKeys.length && !physKeys.some((k) => m.pgrid.visible(k))) m.pgrid.reveal(physKeys[0]);
  }
  m.lgrid.highlight(logicalKeys, m.fillL, primary);
  m.pgrid.highlight(physKeys, m.fillP, sel.type === "slot" ? physKeys[0] : -1, sel.wholeCells);
  hooks.highlight = {
    logical: [...sel.elements].sort((a, b) => a - b),
    physical: physKeys.map((k) => m.pgrid.unkey(k)),
  };
  if (sel.type === "element") drawConnectors(m.lkey[sel.flat], physKeys);
}

// where the connector of element cell lk to owner cell k starts and ends, in the grids'
// content coordinates (model m): the element's right edge, the owner's left edge, both at
// mid-height (the page's overlay and the PNG export both draw from this)
export function connectorEnds(m, lk, k) {
  const [lx, ly, lw, lh] = m.lgrid.keyRect(lk), [px, py, , ph] = m.pgrid.keyRect(k);
  return [lx + lw, ly + lh / 2, px - 1, py + ph / 2];
}

// the connectors of element cell lk to its owners' cells physKeys, in page coordinates
// relative to `base` (a DOMRect): [{x1, y1, x2, y2, inside}]; an end outside its scrolled
// view is pinned to the view's edge (inside: false)
function connectorLines(lk, physKeys, base) {
  const m = state.model, lg = m.lgrid, pg = m.pgrid;
  const lr = lg.canvas.getBoundingClientRect(), pr = pg.canvas.getBoundingClientRect();
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  return physKeys.map((k) => {
    const ends = connectorEnds(m, lk, k);
    const x1 = ends[0] - lg.sx, y1 = ends[1] - lg.sy, x2 = ends[2] - pg.sx, y2 = ends[3] - pg.sy;
    const lin = x1 >= lg.marginL && x1 <= lg.vw && y1 >= lg.marginT && y1 <= lg.vh;
    const pin = x2 >= pg.marginL - 2 && x2 <= pg.vw && y2 >= pg.marginT && y2 <= pg.vh;
    return { x1: lr.left - base.left + clamp(x1, lg.marginL, lg.vw),
             y1: lr.top - base.top + clamp(y1, lg.marginT, lg.vh),
             x2: pr.left - base.left + clamp(x2, pg.marginL, pg.vw),
             y2: pr.top - base.top + clamp(y2, pg.marginT, pg.vh), inside: lin && pin };
  });
}

// the connectors as SVG elements, for the page's overlay
function connectorsSvg(lines, more, colour) {
  let html = "";
  for (const { x1, y1, x2, y2, inside } of lines) {
    const mx = (x1 + x2) / 2;
    html += `<path d="M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}" fill="none" ` +
      `stroke="${colour}" stroke-width="1.5" stroke-opacity="0.75"${inside ? "" : ' stroke-dasharray="4 3"'}/>` +
      `<circle cx="${x2}" cy="${y2}" r="2.5" fill="${colour}"/>`;
  }
  if (lines.length) {
    const { x1, y1 } = lines[0];
    html += `<circle cx="${x1}" cy="${y1}" r="2.5" fill="${colour}"/>`;
    if (more) html += `<text x="${x1 + 6}" y="${y1 - 6}" font-size="11" fill="${colour}">+${more} more owners</text>`;
  }
  return html;
}

function drawConnectors(lk, physKeys) {
  const shown = physKeys.slice(0, 64);
  const lines = connectorLines(lk, shown, $("views").getBoundingClientRect());
  $("connectors").innerHTML = connectorsSvg(lines, physKeys.length - shown.length, state.theme.primary);
}

// the details panel (a live region: screen readers announce what a selection shows)
function details(html) { $("details").innerHTML = html; }

export async function selectElement(flat) {
  const d = state.data, m = state.model;
  if (!m || flat < 0 || flat >= d.size) return;
  state.sel = { type: "element", flat, elements: [flat], physKeys: physKeysOfElements(m, [flat]) };
  applySelection(true);
  writeURL();
  const index = unravel(flat, d.shape);
  const token = (state.selToken = (state.selToken || 0) + 1);
  try {
    const ex = await postJSON("/api/explain", { ...drawnRequest(d), index });
    if (token !== state.selToken) return;
    details(renderDetails(ex, d));
  } catch (err) {
    if (token !== state.selToken) return;
    details(`<p>The details of this element could not be loaded: ${escapeHtml(err.message)}</p>`);
  }
  hooks.detailsFor = flat;
}

async function selectByCoords(coords, label, physKeys, wholeCells) {
  const d = state.data;
  const token = (state.selToken = (state.selToken || 0) + 1);
  let res;
  try {
    res = await postJSON("/api/elements_at", { ...drawnRequest(d), coords });
  } catch (err) {
    details(`<p>What this slot holds could not be loaded: ${escapeHtml(err.message)}</p>`);
    return;
  }
  if (token !== state.selToken) return;
  const elems = res.flat;
  state.sel = { type: "slot", elements: elems, physKeys: physKeys ?? physKeysOfElements(state.model, elems), wholeCells };
  applySelection(true);
  writeURL();
  details(renderSlotDetails(label, coords, res, d));
  hooks.detailsFor = label;
  hooks.selects = (hooks.selects || 0) + 1;
}

export async function selectSet(elems, label, source = null) {
  const d = state.data;
  state.sel = { type: "set", elements: elems, physKeys: physKeysOfElements(state.model, elems), source };
  applySelection(true);
  markActiveAnalysis();
  writeURL();
  const token = (state.selToken = (state.selToken || 0) + 1);
  details(renderSetDetails(label, elems, d, null));
  if (d.banks && elems.length && elems.length <= 4096) {
    try {
      const access = await postJSON("/api/access", { ...drawnRequest(d), elements: elems });
      if (token === state.selToken) details(renderSetDetails(label, elems, d, access));
    } catch (err) { /* the selection stays; the bank summary is optional */ }
  }
}

export function clearSelection() {
  state.sel = null;
  markActiveAnalysis();
  state.selToken = (state.selToken || 0) + 1;
  applySelection();
  writeURL();
  details(HINT);
}

export function markActiveAnalysis() {
  const src = state.sel && state.sel.type === "set" ? state.sel.source : null;
  for (const el of document.querySelectorAll("#analysis .active")) el.classList.remove("active");
  if (!src) return;
  const sel = src.finding !== undefined ? `[data-finding="${src.finding}"]`
    : `.chips [data-read="${src.read}"][data-req="${src.req}"], li[data-read="${src.read}"][data-req="${src.req}"]`;
  for (const el of document.querySelectorAll(`#analysis ${sel}`)) el.classList.add("active");
}

// -- clicks ---------------------------------------------------------------------------------
function hitOf(grid, ev) {
  const rect = ev.target.getBoundingClientRect();
  return grid.hit(ev.clientX - rect.left, ev.clientY - rect.top);
}

export function onLogicalClick(ev, suppressed) {
  const m = state.model;
  if (!m || suppressed) return;
  const h = hitOf(m.lgrid, ev);
  if (!h) return;
  if (h.kind === "cell") {
    const e = m.lflat[h.r * m.ncolsL + h.c];
    if (e >= 0) selectElement(e);
  } else if (h.kind === "row" || h.kind === "col") {
    const line = h.kind === "row" ? h.r : h.c;
    const elems = lineElements(m, h.kind, line);
    const name = (h.kind === "row" ? m.fold.row_name : m.fold.col_name) || h.kind;
    selectSet(elems, `${h.kind === "row" ? "row" : "column"} ${name}=${line}`);
  }
}

// select physical cell h = {t, r, c, s}: what it holds (a whole bank word in the line x bank
// view). The cell's coordinates are read from the library's arrays; what it holds comes
// from elements_at (the library's inverse query).
export function selectSlot(h) {
  const m = state.model, d = state.data, P = d.physical;
  state.pcursor = h;
  const isWord = P.kind === "smem";
  const keys = [];
  for (let s = 0; s < m.pgrid.sub; s++) if (isWord || s === h.s) keys.push(m.pgrid.key(h.t, h.r, h.c, s));
  const coords = coordsInCells(d, m, keys);
  const label = describeCell(d, m, h);
  if (!coords.length) {
    state.sel = { type: "slot", elements: [], physKeys: [keys[0]], wholeCells: isWord };
    applySelection(true);
    details(`<h3>${escapeHtml(label)}</h3><p>empty: no logical element is placed here.</p>`);
    hooks.detailsFor = label;
    return;
  }
  selectByCoords(coords, label, [m.pgrid.key(h.t, h.r, h.c, isWord ? 0 : h.s)], isWord);
}

export function onPhysicalClick(ev, suppressed) {
  const m = state.model, d = state.data;
  if (!m || suppressed) return;
  const h = hitOf(m.pgrid, ev);
  if (!h) return;
  const P = d.physical;
  const named = (c) => Object.entries(c).map(([a, v]) => `${a}=${v}`).join(", ");
  if (h.kind === "cell") {
    selectSlot(h);
  } else if (h.kind === "tile") {
    selectByCoords(P.tiles[h.t], named(P.tiles[h.t]));
  } else if (h.kind === "row" && P.rows.length && P.kind !== "smem") {
    selectByCoords(m.rowCoord(h.r), named(m.rowCoord(h.r)));
  } else if (h.kind === "col" && P.cols.length && P.kind !== "smem") {
    selectByCoords(m.colCoord(h.c), named(m.colCoord(h.c)));
  } else if (P.kind === "smem" && (h.kind === "row" || h.kind === "col")) {
    // a whole bank or line: read from the library's bank arrays
    const want = h.kind === "col" ? h.c : P.rows[0].values[h.r];
    selectSet(bankElements(d, h.kind, want), `${h.kind === "col" ? "bank" : "line"} ${want}`);
  }
}

// -- hover tooltips -------------------------------------------------------------------------
function tooltip(ev, text) {
  const tip = $("tooltip");
  if (!text) { tip.hidden = true; return; }
  tip.textContent = text;
  tip.hidden = false;
  const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 6);
  tip.style.left = `${x}px`;
  tip.style.top = `${ev.clientY + 16}px`;
}

export function hideTooltip() { $("tooltip").hidden = true; }

export function onLogicalHover(ev) {
  const m = state.model, d = state.data;
  if (!m) return;
  const h = hitOf(m.lgrid, ev);
  if (!h || h.kind !== "cell") { tooltip(ev, h ? `click: select this ${h.kind === "col" ? "column" : h.kind}` : null); return; }
  const e = m.lflat[h.r * m.ncolsL + h.c];
  if (e < 0) return tooltip(ev, null);
  const idx = unravel(e, d.shape);
  const lines = [`(${idx.map((x, k) => `${d.dim_names[k]}=${x}`).join(", ")})  flat ${e}`];
  const seen = new Set();
  for (let r = 0; r < d.replicas; r++) {
    const t = coordText(coordOfPair(d, e * d.replicas + r));
    if (!seen.has(t)) { seen.add(t); lines.push("-> " + t); }
  }
  if (d.banks) lines.push(`bank ${d.banks.bank[e * d.replicas]}, line ${d.banks.line[e * d.replicas]}`);
  tooltip(ev, lines.slice(0, 12).join("\n") + (lines.length > 12 ? `\n… ${lines.length - 12} more` : ""));
}

export function onPhysicalHover(ev) {
  const m = state.model, d = state.data;
  if (!m) return;
  const h = hitOf(m.pgrid, ev);
  if (!h) return tooltip(ev, null);
  if (h.kind !== "cell") return tooltip(ev, `click: everything at this ${h.kind === "col" ? "column" : h.kind}`);
  const key = m.pgrid.key(h.t, h.r, h.c, h.s);
  const lines = [describeCell(d, m, h)];
  const elems = new Set();
  for (let q = m.cellStart[key]; q < m.cellStart[key + 1]; q++) elems.add(Math.floor(m.members[q] / d.replicas));
  if (!elems.size) lines.push("(empty)");
  for (const e of [...elems].slice(0, 8)) lines.push(`holds (${unravel(e, d.shape).join(", ")})`);
  if (elems.size > 8) lines.push(`… ${elems.size - 8} more`);
  tooltip(ev, lines.join("\n"));
}

// -- keyboard ------------------------------------------------------------------------------
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Escape clears the selection. Arrow keys: on the logical view (or anywhere once an element
// is selected) they move the selected element, starting at element (0, 0); on the physical
// view they move from slot to slot (across tiles at the left and right edges), starting at
// the first slot of the first tile.
export function onKey(ev) {
  const target = ev.target || {};
  if (["INPUT", "SELECT", "TEXTAREA", "BUTTON", "SUMMARY"].includes(target.tagName)) return;
  const m = state.model;
  if (ev.key === "Escape") { clearSelection(); return; }
  const mv = MOVES[ev.key];
  if (!m || !mv) return;
  if (target.id === "physical-canvas") { ev.preventDefault(); movePhysical(mv); return; }
  const element = state.sel && state.sel.type === "element";
  if (!element && target.id !== "logical-canvas") return;  // the page scrolls as usual
  ev.preventDefault();
  if (!element) { selectElement(m.lflat[0] >= 0 ? m.lflat[0] : 0); return; }
  const key = m.lkey[state.sel.flat];
  const r = Math.floor(key / m.ncolsL) + mv[0], c = (key % m.ncolsL) + mv[1];
  if (r < 0 || c < 0 || r >= m.nrowsL || c >= m.ncolsL) return;
  const e = m.lflat[r * m.ncolsL + c];
  if (e >= 0) selectElement(e);
}

function movePhysical([dr, dc]) {
  const g = state.model.pgrid, s = g.spec;
  const cur = state.sel && state.sel.type === "slot" ? state.pcursor : null;
  if (!cur) { selectSlot({ t: 0, r: 0, c: 0, s: 0 }); return; }
  let { t, r, c } = cur;
  const sub = s.sub > 1 && state.data.physical.kind !== "smem" ? cur.s : 0;
  r += dr; c += dc;
  if (c < 0 && t > 0) { t -= 1; c = s.ncols - 1; }
  if (c >= s.ncols && t < s.ntiles - 1) { t += 1; c = 0; }
  if (r < 0 || r >= s.nrows || c < 0 || c >= s.ncols) return;
  selectSlot({ t, r, c, s: sub });
}
