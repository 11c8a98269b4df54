// The explorer page: controls, URL state, API calls, and the two views.
// Every coordinate drawn comes from the JSON API (the Python library); the page only
// folds the returned arrays into pictures.
import { Grid, ZOOM_STEPS, MIN_CELL, MAX_FIT } from "./grid.js";
import { renderAnalysis, requestLabel } from "./analysis.js";
import { renderDetails, renderSetDetails, renderSlotDetails, escapeHtml } from "./details.js";
import { exportSvg, exportPng, pythonSnippet } from "./export.js";
import { renderConvert, convertToggled, CONVERT_TARGETS } from "./convert.js";

const $ = (id) => document.getElementById(id);
const DIM_NAMES = ["i", "j", "k", "l", "p", "q", "u", "v"];
const HINT = `<p class="hint">Click a logical element to see its owners and the four steps; click a physical slot, lane, warp or device to see what it holds.</p>`;

const state = {
  presets: [], palette: [], options: null,
  data: null,            // last good /api/layout answer
  model: null,           // derived arrays for drawing
  sel: null,             // current selection
  color: null,
  seq: 0,
  renders: 0,
  timings: {},
  zoom: { logical: null, physical: null },  // null: fit to the panel; else px per cell
  preset: null,          // the registry preset entry whose parameters the widgets show
  analysis: null,        // last /api/analysis answer
  convert: null,         // last /api/convert answer
};
window.__tl = { state, ready: false, renders: 0 };

async function getJSON(url) {
  const r = await fetch(url);
  return r.json();
}

async function postJSON(url, body) {
  const r = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) { const e = new Error(data.error || `HTTP ${r.status}`); e.data = data; throw e; }
  return data;
}

function request() {
  return {
    layout: $("layout").value, shape: $("shape").value,
    dtype: $("dtype").value || null, swizzle: $("swizzle").value || "none",
    // a preset with a device mesh: its tiles follow the mesh's axis order
    order: state.axisOrder || null,
  };
}

// what is drawn, as a request: follow-up queries (explain, elements_at, access, analysis)
// ask about the picture on screen, not the fields (which may hold a half-typed layout,
// or a shape that was ignored because it does not fit)
function drawn() {
  const d = state.data;
  return { layout: d.text, shape: d.shape.join(","), dtype: d.dtype, swizzle: d.swizzle_mode };
}

// -- URL state ---------------------------------------------------------------------------
function writeURL() {
  const q = new URLSearchParams();
  const p = $("preset").value;
  if (p) q.set("preset", p);
  if (p && state.preset && state.preset.name === p) {
    for (const prm of state.preset.params) q.set(`p.${prm.name}`, paramText(prm));
  }
  q.set("layout", $("layout").value);
  if ($("shape").value && !state.shapeIgnored) q.set("shape", $("shape").value);
  if ($("dtype").value) q.set("dtype", $("dtype").value);
  if ($("swizzle").value && $("swizzle").value !== "none") q.set("swizzle", $("swizzle").value);
  if (state.color) q.set("color", state.color);
  if (state.sel && state.sel.type === "element" && state.data) {
    q.set("select", unravel(state.sel.flat, state.data.shape).join(","));
  }
  // zoom: px per cell of each view (absent: fit to the panel)
  if (state.zoom.logical !== null) q.set("zl", String(+state.zoom.logical.toFixed(2)));
  if (state.zoom.physical !== null) q.set("zp", String(+state.zoom.physical.toFixed(2)));
  if (document.body.classList.contains("embed")) q.set("embed", "1");
  history.replaceState(null, "", `${location.pathname}?${q.toString()}`);
}

function unravel(flat, shape) {
  const out = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) { out[d] = flat % shape[d]; flat = Math.floor(flat / shape[d]); }
  return out;
}

function ravel(idx, shape) {
  let f = 0;
  for (let d = 0; d < shape.length; d++) f = f * shape[d] + idx[d];
  return f;
}

// -- errors ----------------------------------------------------------------------------
function showError(err) {
  const box = $("error");
  for (const id of ["layout", "shape"]) $(id).classList.remove("bad");
  for (const el of document.querySelectorAll("#params .bad")) el.classList.remove("bad");
  if (!err) { box.hidden = true; box.innerHTML = ""; return; }
  const data = err.data || { error: String(err.message || err) };
  const field = data.field || "";
  if (field === "layout" || field === "shape") $(field).classList.add("bad");
  if (field.startsWith("param")) {
    const w = document.querySelector(`[data-testid="param-${field.slice(6)}"]`);
    if (w) w.classList.add("bad");
    else for (const el of document.querySelectorAll("#params input, #params select")) el.classList.add("bad");
  }
  let html = `<b>${escapeHtml(field || "error")}:</b> ${escapeHtml(data.error)}`;
  if (data.column && field === "layout") {
    const text = $("layout").value;
    html = `<b>layout, column ${data.column}:</b> ${escapeHtml(data.error)}` +
      `<pre>${escapeHtml(text)}\n<span class="caret">${" ".repeat(data.column - 1)}^</span></pre>`;
  }
  if (state.data) html += `<div class="muted">(showing the last valid layout)</div>`;
  box.innerHTML = html;
  box.hidden = false;
}

// -- loading a layout -----------------------------------------------------------------------
let debounce = null;
function scheduleUpdate(delay = 120) {
  clearTimeout(debounce);
  debounce = setTimeout(() => update(), delay);
}

async function update(opts = {}) {
  const seq = ++state.seq;
  const t0 = performance.now();
  let data, ignored = null;
  const req = request();
  try {
    try {
      data = await postJSON("/api/layout", req);
    } catch (err) {
      // the layout was just edited and the shape left in the field (from a preset or an
      // earlier layout) no longer fits it: draw the layout with its own shape instead of
      // keeping the old picture, and say so (the field is left as it is)
      const field = err.data && err.data.field;
      if (field !== "shape" || !req.shape.trim() || state.lastEdit !== "layout") throw err;
      data = await postJSON("/api/layout", { ...req, shape: "" });
      ignored = err.data.error;
    }
  } catch (err) {
    if (seq !== state.seq) return;
    showError(err);
    window.__tl.lastError = err.data || { error: String(err) };
    window.__tl.ready = true;
    return;
  }
  if (seq !== state.seq) return;
  const t1 = performance.now();
  showError(null);
  state.shapeIgnored = ignored;
  if (ignored) $("shape").classList.add("bad");
  window.__tl.lastError = null;
  const keepSel = opts.select || null;
  const sameLayout = state.data && state.data.layout === data.layout &&
    JSON.stringify(state.data.shape) === JSON.stringify(data.shape);
  const prevSel = sameLayout ? state.sel : null;
  if (!sameLayout) state.zoom = { logical: null, physical: null };
  state.data = data;
  state.sel = null;
  setupColorChoices(data, opts.color);
  build();
  const t2 = performance.now();
  state.timings = { fetch: t1 - t0, draw: t2 - t1, total: t2 - t0 };
  $("timing").textContent = `layout ${Math.round(t1 - t0)} ms · draw ${Math.round(t2 - t1)} ms`;
  if (keepSel) selectElement(ravel(keepSel, data.shape));
  else if (prevSel) restoreSelection(prevSel);
  writeURL();
  fetchAnalysis(seq);
  fetchConvert(seq);
  if (!window.__tl.firstRenderAt) window.__tl.firstRenderAt = performance.now();
  window.__tl.renders = ++state.renders;
  window.__tl.ready = true;
}

function restoreSelection(sel) {
  if (sel.type === "element") selectElement(sel.flat);
}

// -- colour choices --------------------------------------------------------------------
function setupColorChoices(data, wanted) {
  const sel = $("color");
  const choices = [];
  for (const a of data.axes) choices.push([a.name, `axis ${a.name}`]);
  data.shape.forEach((_, d) => choices.push([`dim:${d}`, `logical ${DIM_NAMES[d] || "d" + d}`]));
  if (data.banks) choices.push(["bank", "shared-memory bank"]);
  const values = choices.map((c) => c[0]);
  let pick = wanted || state.color;
  // a dtype just turned a memory layout into the line x bank view: colour by bank (what
  // the swizzle changes) unless a colour was chosen by hand
  if (data.banks && !state.hadBanks && !wanted && !state.colorChosen) pick = "bank";
  state.hadBanks = !!data.banks;
  if (!values.includes(pick)) {
    const thread = data.axes.find((a) => a.kind === "thread" && a.scope && a.scope[0] === "thread");
    const device = data.axes.find((a) => a.kind === "device");
    pick = thread ? thread.name : device ? device.name : data.banks ? "bank"
      : data.shape.length > 1 ? "dim:0" : values[0];
  }
  sel.innerHTML = choices.map(([v, t]) => `<option value="${escapeHtml(v)}">${escapeHtml(t)}</option>`).join("");
  sel.value = pick;
  state.color = pick;
}

function colorValue(e) {
  const d = state.data, R = d.replicas, c = state.color;
  if (c === "bank") return d.banks.bank[e * R];
  if (c.startsWith("dim:")) {
    const k = +c.slice(4);
    return unravel(e, d.shape)[k];
  }
  return d.coords[c][e * R];
}

function paletteOf(v) {
  const P = state.palette;
  return P[((v % P.length) + P.length) % P.length];
}

// -- building the views -----------------------------------------------------------------
function logicalFold(shape, n) {
  // N-D folded into 2-D: the last dim and every second one before it go across,
  // the others go down; a long 1-D shape wraps into rows of 32 or 64.
  let dims = shape.slice();
  let virtual = false;
  if (dims.length === 1 && n > 64) {
    const w = n % 64 === 0 ? 64 : n % 32 === 0 ? 32 : 0;
    if (w) { dims = [n / w, w]; virtual = true; }
  }
  const k = dims.length;
  const colDims = [], rowDims = [];
  for (let d = 0; d < k; d++) ((k - 1 - d) % 2 === 0 ? colDims : rowDims).push(d);
  return { dims, virtual, colDims, rowDims };
}

function build() {
  const d = state.data;
  const info = $("info");
  const n = d.size, R = d.replicas;
  const swz = d.swizzle ? ` · swizzle <code>${escapeHtml(d.swizzle)}</code>` : "";
  info.innerHTML = `<code>${escapeHtml(d.layout)}</code> · shape (${d.shape.join(", ")}) · ` +
    `${n.toLocaleString()} elements · ${R} replica${R === 1 ? "" : "s"}${swz}` +
    ` · axes ${d.axes.map((a) => `<code>${escapeHtml(a.name)}</code>` +
      (a.min === null ? "" : ` ${a.min}..${a.max}`)).join(", ")}`;
  const preset = state.presets.find((x) => x.name === $("preset").value);
  if (preset) {
    const doc = (preset.summary || preset.doc || "").split("\n")[0];
    info.innerHTML += `<div class="doc" data-testid="preset-doc"><b>${escapeHtml(preset.name)}</b>: ${escapeHtml(doc)}</div>`;
  }
  if (state.shapeIgnored) {
    info.innerHTML += `<span class="warn" data-testid="shape-ignored">shape field ignored: ` +
      `${escapeHtml(state.shapeIgnored)}. Drawn with the layout's own shape ` +
      `(${d.shape.join(", ")}); edit or clear the shape field.</span>`;
  }
  if (d.too_large) {
    info.innerHTML += `<span class="warn" data-testid="too-large">${escapeHtml(d.too_large)}</span>`;
    $("logical-title").textContent = `shape (${d.shape.join(", ")}) · not drawn`;
    $("physical-title").textContent = "not drawn";
    $("physical-title").title = "";
    $("details").innerHTML = HINT;
    $("analysis").hidden = true;
    state.model = null;
    for (const id of ["logical-canvas", "logical-overlay", "physical-canvas", "physical-overlay"]) {
      const c = $(id); c.width = 0; c.height = 0; c.style.width = "0px"; c.style.height = "0px";
    }
    for (const v of ["logical", "physical"]) {
      for (const part of ["scroll", "sizer", "stick"]) { $(`${v}-${part}`).style.width = "0px"; $(`${v}-${part}`).style.height = "0px"; }
      $(`${v}-zoom`).textContent = "";
    }
    $("legend").innerHTML = ""; $("physical-note").innerHTML = "";
    $("connectors").innerHTML = "";
    return;
  }
  const m = { n, R };
  // logical geometry
  const fold = logicalFold(d.shape, n);
  const rowRadix = fold.rowDims.map((x) => fold.dims[x]);
  const colRadix = fold.colDims.map((x) => fold.dims[x]);
  const nrowsL = rowRadix.reduce((a, b) => a * b, 1), ncolsL = colRadix.reduce((a, b) => a * b, 1);
  const strides = fold.dims.map((_, k) => fold.dims.slice(k + 1).reduce((a, b) => a * b, 1));
  const lkey = new Int32Array(n), lflat = new Int32Array(nrowsL * ncolsL).fill(-1);
  for (let e = 0; e < n; e++) {
    let r = 0, c = 0;
    for (const x of fold.rowDims) r = r * fold.dims[x] + Math.floor(e / strides[x]) % fold.dims[x];
    for (const x of fold.colDims) c = c * fold.dims[x] + Math.floor(e / strides[x]) % fold.dims[x];
    lkey[e] = r * ncolsL + c;
    lflat[r * ncolsL + c] = e;
  }
  m.fold = fold; m.lkey = lkey; m.lflat = lflat; m.nrowsL = nrowsL; m.ncolsL = ncolsL;
  const lastDimRows = (r) => {
    const x = fold.rowDims[fold.rowDims.length - 1];
    return x === undefined ? null : String(r % fold.dims[x]);
  };
  const lastDimCols = (c) => String(c % fold.dims[fold.colDims[fold.colDims.length - 1]]);
  m.lgrid = new Grid(gridEls("logical"), {
    ntiles: 1, nrows: nrowsL, ncols: ncolsL, sub: 1, rowRadix, colRadix, gaps: true,
    tileLabel: () => "", rowLabel: fold.virtual ? (r) => String(r * fold.dims[1]) : lastDimRows,
    colLabel: lastDimCols, mesh: null,
  });
  $("logical-title").textContent = `shape (${d.shape.join(", ")})` +
    (fold.virtual ? `, wrapped ${fold.dims[1]} per row` : "") +
    (d.shape.length > 2 ? ` — dims ${fold.rowDims.map((x) => DIM_NAMES[x]).join("·")} down, ` +
      `${fold.colDims.map((x) => DIM_NAMES[x]).join("·")} across` : "");
  // physical geometry
  const P = d.physical;
  const sub = P.sub || 1;
  const pairs = n * R;
  const span = P.span || 1;
  const nt = P.tiles.length;
  const ncells = nt * P.nrows * P.ncols * sub;
  const first = new Int32Array(ncells).fill(-1);  // first pair in each cell
  const collide = new Uint8Array(ncells);
  const pkeys = new Int32Array(pairs * span);
  for (let p = 0; p < pairs; p++) {
    for (let k = 0; k < span; k++) {
      const key = ((P.tile[p] * P.nrows + P.row[p]) * P.ncols + P.col[p] + k) * sub + (P.subpos ? P.subpos[p] : 0);
      pkeys[p * span + k] = key;
      const f = first[key];
      if (f < 0) first[key] = p;
      else if (Math.floor(f / R) !== Math.floor(p / R)) collide[key] = 1;
    }
  }
  // the list of pairs in each cell (CSR), for slot clicks and tooltips
  const count = new Int32Array(ncells + 1);
  for (let q = 0; q < pairs * span; q++) count[pkeys[q] + 1]++;
  for (let i = 0; i < ncells; i++) count[i + 1] += count[i];
  const fillPos = count.slice(0, ncells);
  const members = new Int32Array(pairs * span);
  for (let q = 0; q < pairs * span; q++) members[fillPos[pkeys[q]]++] = Math.floor(q / span);
  m.first = first; m.collide = collide; m.pkeys = pkeys; m.span = span; m.cellStart = count; m.members = members;
  const partLabel = (parts, idx) => {
    // mixed-radix decode of a grid index into the axis values of its parts
    const out = {};
    for (let k = parts.length - 1; k >= 0; k--) {
      const vs = parts[k].values;
      out[parts[k].axis] = vs[idx % vs.length];
      idx = Math.floor(idx / vs.length);
    }
    return out;
  };
  m.rowCoord = (r) => partLabel(P.rows, r);
  m.colCoord = (c) => partLabel(P.cols, c);
  const tileText = (t) => Object.entries(P.tiles[t]).map(([a, v]) => `${a} ${v}`).join(" · ");
  let mesh = null;
  if (P.mesh) {
    const [ra, ca] = P.tile_axes;
    mesh = {
      rows: P.mesh.rows, cols: P.mesh.cols,
      place: (t) => [P.mesh.rows.indexOf(P.tiles[t][ra]), P.mesh.cols.indexOf(P.tiles[t][ca])],
    };
  }
  const rowLabel = P.rows.length ? (r) => Object.values(m.rowCoord(r)).join("·")
    : P.fold ? (r) => String(P.fold.values[r * P.fold.width] ?? "") : null;
  const colLabel = P.cols.length ? (c) => Object.values(m.colCoord(c)).join("·")
    : P.fold ? (c) => `+${c}` : null;
  m.pgrid = new Grid(gridEls("physical"), {
    ntiles: nt, nrows: P.nrows, ncols: P.ncols, sub,
    rowRadix: P.rows.length ? P.rows.map((p) => p.values.length) : [P.nrows],
    colRadix: P.cols.length ? P.cols.map((p) => p.values.length) : [P.ncols],
    gaps: P.rows.length > 1 || P.cols.length > 1,
    tileLabel: (t) => (P.tile_axes.length ? tileText(t) : ""),
    tileShort: (t) => Object.values(P.tiles[t]).join("·"), rowLabel, colLabel, mesh,
  });
  $("physical-title").textContent = P.title;
  $("physical-title").title = P.title;
  const axesRows = P.rows.map((p) => p.axis).join(" x ") || (P.fold ? "address" : "");
  const axesCols = P.cols.map((p) => p.axis).join(" x ") || (P.fold ? "address offset" : "");
  $("physical-note").innerHTML = [
    axesRows ? `rows: ${escapeHtml(axesRows)}` : "",
    axesCols ? `columns: ${escapeHtml(axesCols)}` : "",
    P.tile_axes.length ? `tiles: ${escapeHtml(P.tile_axes.join(" x "))} (used values only)` : "",
    [...P.rows, ...P.cols].some((p) => p.compressed) || (P.fold && P.fold.compressed)
      ? "<b>sparse axis: only used values shown</b>" : "",
    collide.some((x) => x) ? `<span style="color:#b91c1c">&#9698; several elements share a slot</span>` : "",
    span > 1 ? `each ${escapeHtml(d.dtype)} spans ${span} bank words` : "",
  ].filter(Boolean).join(" · ");
  state.model = m;
  recolor();
}

function recolor() {
  const d = state.data, m = state.model;
  if (!m) return;
  const n = d.size, R = d.replicas;
  const cidx = new Int32Array(n);
  const seen = new Map();
  for (let e = 0; e < n; e++) {
    const v = colorValue(e);
    cidx[e] = v;
    if (seen.size <= 64) seen.set(v, (seen.get(v) || 0) + 1);
  }
  m.cval = cidx;
  const fillL = (key) => { const e = m.lflat[key]; return e < 0 ? null : paletteOf(cidx[e]); };
  const axesNames = d.axes.map((a) => a.name);
  const textL = (key) => {
    const e = m.lflat[key];
    if (e < 0) return null;
    return String(cidx[e]);
  };
  m.fillL = fillL;
  const fillP = (key) => { const p = m.first[key]; return p < 0 ? null : paletteOf(cidx[Math.floor(p / R)]); };
  const textP = (key) => {
    const p = m.first[key];
    if (p < 0) return null;
    const e = Math.floor(p / R);
    return d.shape.length === 1 ? String(e) : unravel(e, d.shape).join(",");
  };
  m.fillP = fillP;
  void axesNames;
  // legend
  const c = state.color;
  const what = c === "bank" ? "bank" : c.startsWith("dim:") ? `logical ${DIM_NAMES[+c.slice(4)]}` : c;
  const vals = [...seen.keys()].sort((a, b) => a - b);
  const many = seen.size > 32;
  const items = vals.slice(0, 16).map((v) =>
    `<span><span class="sw" style="background:${paletteOf(v)}"></span>${v}</span>`).join("");
  $("legend").innerHTML = `<span>colour = <b>${escapeHtml(what)}</b>:</span>${items}` +
    (many || vals.length > 16 ? `<span>… ${many ? "many" : vals.length} values; the ${state.palette.length} colours repeat</span>` : "");
  // the cell text sizes the cells (widened when the labels need it): set it first, and
  // re-fit when the new text (the logical view shows the colour value) changes the aspect
  m.lgrid.setFns(fillL, textL, null);
  m.pgrid.setFns(fillP, textP, (key) => m.collide[key] === 1);
  const refit = (v) => { const g = gridOf(v); return g.fitted && g.fit(...m.boxes[v]).a !== g.aspect; };
  if (!m.arranged || refit("logical") || refit("physical")) arrange();
  const tL = performance.now();
  m.lgrid.paint();
  m.pgrid.paint();
  state.timings.paint = performance.now() - tL;
  applySelection();
}

// -- selection ---------------------------------------------------------------------------
function pairsOfElement(e) {
  const out = [];
  const R = state.data.replicas;
  for (let r = 0; r < R; r++) out.push(e * R + r);
  return out;
}

function physKeysOfElements(elems) {
  const m = state.model, R = state.data.replicas, span = m.span;
  const keys = new Set();
  for (const e of elems) for (let r = 0; r < R; r++) for (let k = 0; k < span; k++) keys.add(m.pkeys[(e * R + r) * span + k]);
  return [...keys];
}

// reveal: scroll each view so that some of the selection is visible (after a new selection)
function applySelection(reveal = false) {
  const m = state.model, sel = state.sel;
  const svg = $("connectors");
  svg.innerHTML = "";
  if (!m) return;
  if (!sel) {
    m.lgrid.highlight([], null);
    m.pgrid.highlight([], null);
    window.__tl.highlight = { logical: [], physical: [] };
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
  window.__tl.highlight = {
    logical: [...sel.elements].sort((a, b) => a - b),
    physical: physKeys.map((k) => m.pgrid.unkey(k)),
  };
  if (sel.type === "element") drawConnectors(m.lkey[sel.flat], physKeys);
}

// connectors from the element's right edge to each owner's left edge (view coordinates);
// an end outside its scrolled view is pinned to the view's edge and drawn dashed
function drawConnectors(lk, physKeys) {
  const m = state.model;
  const svg = $("connectors");
  const base = $("views").getBoundingClientRect();
  const lr = $("logical-canvas").getBoundingClientRect();
  const pr = $("physical-canvas").getBoundingClientRect();
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  const lg = m.lgrid, pg = m.pgrid;
  const [lx0, ly0, lw, lh] = lg.keyRect(lk);
  let x1 = lx0 + lw - lg.sx, y1 = ly0 + lh / 2 - lg.sy;
  const lin = x1 >= lg.marginL && x1 <= lg.vw && y1 >= lg.marginT && y1 <= lg.vh;
  x1 = lr.left - base.left + clamp(x1, lg.marginL, lg.vw);
  y1 = lr.top - base.top + clamp(y1, lg.marginT, lg.vh);
  const shown = physKeys.slice(0, 64);
  let html = "";
  for (const k of shown) {
    const [px0, py0, , ph] = pg.keyRect(k);
    let x2 = px0 - 1 - pg.sx, y2 = py0 + ph / 2 - pg.sy;
    const pin = x2 >= pg.marginL - 2 && x2 <= pg.vw && y2 >= pg.marginT && y2 <= pg.vh;
    x2 = pr.left - base.left + clamp(x2, pg.marginL, pg.vw);
    y2 = pr.top - base.top + clamp(y2, pg.marginT, pg.vh);
    const mx = (x1 + x2) / 2;
    html += `<path d="M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}" fill="none" ` +
      `stroke="#2563eb" stroke-width="1.5" stroke-opacity="0.75"${lin && pin ? "" : ' stroke-dasharray="4 3"'}/>` +
      `<circle cx="${x2}" cy="${y2}" r="2.5" fill="#2563eb"/>`;
  }
  html += `<circle cx="${x1}" cy="${y1}" r="2.5" fill="#2563eb"/>`;
  if (physKeys.length > shown.length) html += `<text x="${x1 + 6}" y="${y1 - 6}" font-size="11" fill="#2563eb">+${physKeys.length - shown.length} more owners</text>`;
  svg.innerHTML = html;
}

// -- sizing, zoom and panning ------------------------------------------------------------
function gridEls(view) {
  return {
    scroll: $(`${view}-scroll`), sizer: $(`${view}-sizer`), stick: $(`${view}-stick`),
    canvas: $(`${view}-canvas`), overlay: $(`${view}-overlay`),
  };
}

// choose side by side or stacked views and the box each grid gets, so that cells are as
// large as the window allows (up to MAX_FIT px); zoomed views keep their cell size
function arrange() {
  const m = state.model;
  if (!m) return;
  const views = $("views");
  const cs = getComputedStyle(views);
  const gap = parseFloat(cs.columnGap) || 12;
  const W = views.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const top = views.getBoundingClientRect().top + window.scrollY;
  const H = Math.max(260, window.innerHeight - top - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - 4);
  const pad = 22; // view padding + border
  const chrome = (v) => $(`${v}-view`).offsetHeight - $(`${v}-scroll`).offsetHeight + 2;
  const cL = chrome("logical"), cP = chrome("physical");
  const wS = Math.floor((W - gap) / 2) - pad;
  const fL = m.lgrid.fit(wS, H - cL), fP = m.pgrid.fit(wS, H - cP);
  const side = Math.min(fL.c, fP.c);
  const wT = W - pad;
  let stackedAt = null;
  const steps = [];
  for (let c = MAX_FIT; c >= 4; c--) steps.push(c);
  for (let c = 3.75; c >= MIN_CELL; c -= 0.25) steps.push(c);
  for (const c of steps.filter((x) => x > side)) {
    const [wl, hl] = m.lgrid.size(c, 1);
    const [wp, hp] = m.pgrid.size(c, m.pgrid.wrap(c, wT));
    if (wl <= wT && wp <= wT && hl + hp + cL + cP + gap <= H) { stackedAt = { c, hl }; break; }
  }
  // side by side unless stacking gives clearly bigger cells, or the side-by-side grids
  // overflow their boxes (at the smallest cell) while stacked ones fit
  const sideFits = fL.w <= wS && fL.h <= H - cL && fP.w <= wS && fP.h <= H - cP;
  // too wide for a half even at the smallest cell (e.g. 2 x 4 tiles of 128 columns), but
  // not for the full width: stacked, scrolling (if at all) down rather than across
  const sideTooWide = fL.w > wS || fP.w > wS;
  const stackFitsAcross = m.lgrid.size(MIN_CELL, 1)[0] <= wT &&
    m.pgrid.size(MIN_CELL, m.pgrid.wrap(MIN_CELL, wT))[0] <= wT;
  const stacked = W - gap < 2 * 300 || (sideTooWide && stackFitsAcross) ||
    (stackedAt !== null && (stackedAt.c >= side * 1.25 || !sideFits));
  views.classList.toggle("stacked", stacked);
  let boxL, boxP;
  const avail = H - cL - cP - gap;
  const zl = state.zoom.logical !== null, zp = state.zoom.physical !== null;
  if (stacked && stackedAt) {
    // both fit at stackedAt.c; the height left over goes to the view whose cells grow more
    const hp = m.pgrid.size(stackedAt.c, m.pgrid.wrap(stackedAt.c, wT))[1];
    const growL = m.lgrid.fit(wT, avail - hp).c, growP = m.pgrid.fit(wT, avail - stackedAt.hl).c;
    const hl0 = growL > growP ? avail - hp : stackedAt.hl;
    let hl = hl0;
    if (zl || zp) {
      // a zoomed view gets what its content needs, up to at least half of the height
      // (it scrolls); the other keeps its fitted box when it can and re-fits
      const half = Math.floor(avail / 2);
      const need = (g, c) => Math.ceil(g.size(c, g.wrap(c, wT, g.aspect ?? 1))[1]) + 16;
      const nL = zl ? need(m.lgrid, state.zoom.logical) : 0;
      const nP = zp ? need(m.pgrid, state.zoom.physical) : 0;
      if (zl && zp) hl = nL + nP <= avail || nL < half ? nL : nP < half ? avail - nP : half;
      else if (zl) hl = Math.min(nL, Math.max(half, hl0));
      else hl = avail - Math.min(nP, Math.max(half, avail - hl0));
    }
    boxL = [wT, hl];
    boxP = [wT, avail - hl];
  } else if (stacked) {
    boxL = [wT, Math.max(200, Math.floor((H - cL - cP - gap) / 2))];
    boxP = [wT, Math.max(200, H - boxL[1] - cL - cP - gap)];
  } else {
    boxL = [wS, H - cL];
    boxP = [wS, H - cP];
  }
  m.boxes = { logical: boxL, physical: boxP };
  m.lgrid.setBox(...boxL, state.zoom.logical);
  m.pgrid.setBox(...boxP, state.zoom.physical);
  m.arranged = true;
  zoomLabels();
}

function gridOf(view) { return view === "logical" ? state.model.lgrid : state.model.pgrid; }

function zoomLabels() {
  const m = state.model;
  if (!m) return;
  for (const v of ["logical", "physical"]) {
    const g = gridOf(v);
    $(`${v}-zoom`).textContent = `${g.sizeText()}${g.fitted ? " · fit" : ""}`;
    $(`${v}-scroll`).classList.toggle("pannable", g.width > g.vw + 1 || g.height > g.vh + 1);
  }
}

// dir: +1 zoom in, -1 out, 0 fit; anchor: a point of the visible box that stays put
function zoom(view, dir, anchor = null) {
  const m = state.model;
  if (!m || !m.boxes) return;
  const g = gridOf(view);
  const cur = g.cell;
  let next = null;
  if (dir > 0) next = ZOOM_STEPS.find((z) => z > cur) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
  else if (dir < 0) next = [...ZOOM_STEPS].reverse().find((z) => z < cur) ?? MIN_CELL;
  const [ax, ay] = anchor || [g.vw / 2, g.vh / 2];
  const h = g.hit(Math.max(ax, g.marginL), Math.max(ay, g.marginT));
  let keep = null;
  if (h && h.kind === "cell") {
    const key = g.key(h.t, h.r, h.c, 0);
    const [x, y, w, hh] = g.cellRect(h.t, h.r, h.c);
    keep = { key, fx: (ax + g.sx - x) / w, fy: (ay + g.sy - y) / hh };
  }
  const fx = (ax + g.sx) / g.width, fy = (ay + g.sy) / g.height;
  state.zoom[view] = next;
  arrange();
  const sc = g.els.scroll;
  if (keep) {
    const [t, r, c] = g.unkey(keep.key);
    const [x, y, w, hh] = g.cellRect(t, r, c);
    sc.scrollLeft = x + keep.fx * w - ax;
    sc.scrollTop = y + keep.fy * hh - ay;
  } else {
    sc.scrollLeft = fx * g.width - ax;
    sc.scrollTop = fy * g.height - ay;
  }
  m.lgrid.paint();
  m.pgrid.paint();
  applySelection();
  zoomLabels();
  writeURL();
  window.__tl.zooms = (window.__tl.zooms || 0) + 1;
}

// a zoom level from the URL (zl, zp): px per cell, or null (fit) when absent or not a number
function zoomParam(text) {
  const z = text === null ? NaN : parseFloat(text);
  return Number.isFinite(z) && z > 0 ? Math.max(MIN_CELL, Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], z)) : null;
}

// set both views' zoom levels (null: fit) and redraw; the selection is scrolled into view
function setZoom(logical, physical) {
  const m = state.model;
  if (!m) return;
  state.zoom = { logical, physical };
  arrange();
  m.lgrid.paint();
  m.pgrid.paint();
  applySelection(true);
  zoomLabels();
  writeURL();
}

let pan = null;
let suppressClick = false;
function setupViewport(view) {
  const sc = $(`${view}-scroll`), canvas = $(`${view}-canvas`);
  let frame = 0;
  sc.addEventListener("scroll", () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (!state.model) return;
      gridOf(view).paint();
      if (state.sel && state.sel.type === "element") applySelection();
    });
  });
  sc.addEventListener("wheel", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || !state.model) return;
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(view, ev.deltaY < 0 ? 1 : -1, [ev.clientX - r.left, ev.clientY - r.top]);
  }, { passive: false });
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0 || !state.model) return;
    const g = gridOf(view);
    if (g.width <= g.vw + 1 && g.height <= g.vh + 1) return;
    pan = { view, x: ev.clientX, y: ev.clientY, sl: sc.scrollLeft, st: sc.scrollTop, moved: false };
  });
}

window.addEventListener("mousemove", (ev) => {
  if (!pan) return;
  const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
  if (!pan.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
  pan.moved = true;
  const sc = $(`${pan.view}-scroll`);
  sc.classList.add("panning");
  sc.scrollLeft = pan.sl - dx;
  sc.scrollTop = pan.st - dy;
});
window.addEventListener("mouseup", () => {
  if (!pan) return;
  if (pan.moved) { suppressClick = true; setTimeout(() => { suppressClick = false; }, 0); }
  $(`${pan.view}-scroll`).classList.remove("panning");
  pan = null;
});

async function selectElement(flat) {
  const d = state.data, m = state.model;
  if (!m || flat < 0 || flat >= d.size) return;
  const physKeys = physKeysOfElements([flat]);
  state.sel = { type: "element", flat, elements: [flat], physKeys };
  applySelection(true);
  writeURL();
  const index = unravel(flat, d.shape);
  const token = (state.selToken = (state.selToken || 0) + 1);
  try {
    const ex = await postJSON("/api/explain", { ...drawn(), index });
    if (token !== state.selToken) return;
    $("details").innerHTML = renderDetails(ex, d, DIM_NAMES);
  } catch (err) {
    if (token !== state.selToken) return;
    $("details").textContent = `explain failed: ${err.message}`;
  }
  window.__tl.detailsFor = flat;
}

async function selectByCoords(coords, label, physKeys, wholeCells) {
  const d = state.data;
  const token = (state.selToken = (state.selToken || 0) + 1);
  let res;
  try {
    res = await postJSON("/api/elements_at", { ...drawn(), coords });
  } catch (err) {
    $("details").textContent = `elements_at failed: ${err.message}`;
    return;
  }
  if (token !== state.selToken) return;
  const elems = res.flat;
  state.sel = { type: "slot", elements: elems, physKeys: physKeys ?? physKeysOfElements(elems), wholeCells };
  applySelection(true);
  writeURL();
  $("details").innerHTML = renderSlotDetails(label, coords, res, d, DIM_NAMES);
  window.__tl.detailsFor = label;
  window.__tl.selects = (window.__tl.selects || 0) + 1;
}

async function selectSet(elems, label, source = null) {
  const d = state.data;
  state.sel = { type: "set", elements: elems, physKeys: physKeysOfElements(elems), source };
  applySelection(true);
  markActiveAnalysis();
  writeURL();
  const token = (state.selToken = (state.selToken || 0) + 1);
  $("details").innerHTML = renderSetDetails(label, elems, d, null, DIM_NAMES);
  if (d.banks && elems.length && elems.length <= 4096) {
    try {
      const access = await postJSON("/api/access", { ...drawn(), elements: elems });
      if (token === state.selToken) $("details").innerHTML = renderSetDetails(label, elems, d, access, DIM_NAMES);
    } catch (err) { /* the selection stays; the bank summary is optional */ }
  }
}

function clearSelection() {
  state.sel = null;
  markActiveAnalysis();
  state.selToken = (state.selToken || 0) + 1;
  applySelection();
  writeURL();
  $("details").innerHTML = HINT;
}

function coordOfPair(p) {
  const d = state.data, out = {};
  for (const a of d.axes) out[a.name] = d.coords[a.name][p];
  return out;
}

function onLogicalClick(ev) {
  const m = state.model;
  if (!m || suppressClick) return;
  const rect = ev.target.getBoundingClientRect();
  const h = m.lgrid.hit(ev.clientX - rect.left, ev.clientY - rect.top);
  if (!h) return;
  const d = state.data, fold = m.fold;
  if (h.kind === "cell") {
    const e = m.lflat[h.r * m.ncolsL + h.c];
    if (e >= 0) selectElement(e);
  } else if (h.kind === "row" || h.kind === "col") {
    const elems = [];
    const line = h.kind === "row" ? h.r : h.c;
    for (let k = 0; k < (h.kind === "row" ? m.ncolsL : m.nrowsL); k++) {
      const e = m.lflat[h.kind === "row" ? line * m.ncolsL + k : k * m.ncolsL + line];
      if (e >= 0) elems.push(e);
    }
    const dims = h.kind === "row" ? fold.rowDims : fold.colDims;
    const name = dims.length === 1 && !fold.virtual ? DIM_NAMES[dims[0]] : h.kind;
    const first = unravel(elems[0], d.shape);
    const val = dims.length === 1 && !fold.virtual ? first[dims[0]] : line;
    selectSet(elems, `${h.kind === "row" ? "row" : "column"} ${name}=${val}`);
  }
}

function onPhysicalClick(ev) {
  const m = state.model, d = state.data;
  if (!m || suppressClick) return;
  const rect = ev.target.getBoundingClientRect();
  const h = m.pgrid.hit(ev.clientX - rect.left, ev.clientY - rect.top);
  if (!h) return;
  const P = d.physical;
  if (h.kind === "cell") {
    // the cell's coordinates, read from the library's arrays; what it holds comes from
    // elements_at (the library's inverse query)
    const isWord = P.kind === "smem";
    const keys = [];
    for (let s = 0; s < m.pgrid.sub; s++) {
      if (!isWord && s !== h.s) continue;
      keys.push(m.pgrid.key(h.t, h.r, h.c, s));
    }
    const coords = [], seen = new Set();
    for (const key of keys) {
      for (let q = m.cellStart[key]; q < m.cellStart[key + 1]; q++) {
        const c = coordOfPair(m.members[q]);
        const s = JSON.stringify(c);
        if (!seen.has(s)) { seen.add(s); coords.push(c); }
      }
    }
    const label = describeCell(h);
    if (!coords.length) {
      state.sel = { type: "slot", elements: [], physKeys: [keys[0]], wholeCells: isWord };
      applySelection();
      $("details").innerHTML = `<h3>${escapeHtml(label)}</h3><p>empty: no logical element is placed here.</p>`;
      return;
    }
    selectByCoords(coords, label, [m.pgrid.key(h.t, h.r, h.c, isWord ? 0 : h.s)], isWord);
  } else if (h.kind === "tile") {
    selectByCoords(P.tiles[h.t], Object.entries(P.tiles[h.t]).map(([a, v]) => `${a}=${v}`).join(", "));
  } else if (h.kind === "row" && P.rows.length && P.kind !== "smem") {
    const c = m.rowCoord(h.r);
    selectByCoords(c, Object.entries(c).map(([a, v]) => `${a}=${v}`).join(", "));
  } else if (h.kind === "col" && P.cols.length && P.kind !== "smem") {
    const c = m.colCoord(h.c);
    selectByCoords(c, Object.entries(c).map(([a, v]) => `${a}=${v}`).join(", "));
  } else if (P.kind === "smem" && (h.kind === "row" || h.kind === "col")) {
    // a whole bank or line: read from the library's bank arrays
    const arr = h.kind === "col" ? d.banks.bank : d.banks.line;
    const want = h.kind === "col" ? h.c : P.rows[0].values[h.r];
    const elems = [], R = d.replicas;
    for (let e = 0; e < d.size; e++) {
      for (let r = 0; r < R; r++) if (arr[e * R + r] === want) { elems.push(e); break; }
    }
    selectSet(elems, `${h.kind === "col" ? "bank" : "line"} ${want}`);
  }
}

function describeCell(h) {
  const m = state.model, P = state.data.physical;
  const parts = [];
  if (P.tile_axes.length) for (const [a, v] of Object.entries(P.tiles[h.t])) parts.push(`${a}=${v}`);
  if (P.kind === "smem") parts.push(`line=${P.rows[0].values[h.r]}`, `bank=${h.c}`);
  else if (P.fold) {
    const i = h.r * P.fold.width + h.c;
    parts.push(`m=${P.fold.values[i] ?? "-"}`);
  } else {
    for (const [a, v] of Object.entries(m.rowCoord(h.r))) parts.push(`${a}=${v}`);
    for (const [a, v] of Object.entries(m.colCoord(h.c))) parts.push(`${a}=${v}`);
  }
  return parts.join(", ");
}

// -- hover tooltips ---------------------------------------------------------------------
function tooltip(ev, text) {
  const tip = $("tooltip");
  if (!text) { tip.hidden = true; return; }
  tip.textContent = text;
  tip.hidden = false;
  const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 6);
  tip.style.left = `${x}px`;
  tip.style.top = `${ev.clientY + 16}px`;
}

function coordText(p) {
  return Object.entries(coordOfPair(p)).map(([a, v]) => `${a}=${v}`).join(" ");
}

function onLogicalHover(ev) {
  const m = state.model, d = state.data;
  if (!m) return;
  const rect = ev.target.getBoundingClientRect();
  const h = m.lgrid.hit(ev.clientX - rect.left, ev.clientY - rect.top);
  if (!h || h.kind !== "cell") { tooltip(ev, h ? `click: select this ${h.kind}` : null); return; }
  const e = m.lflat[h.r * m.ncolsL + h.c];
  if (e < 0) return tooltip(ev, null);
  const idx = unravel(e, d.shape);
  const lines = [`(${idx.map((x, k) => `${DIM_NAMES[k]}=${x}`).join(", ")})  flat ${e}`];
  const seen = new Set();
  for (const p of pairsOfElement(e)) { const t = coordText(p); if (!seen.has(t)) { seen.add(t); lines.push("-> " + t); } }
  if (d.banks) lines.push(`bank ${d.banks.bank[e * d.replicas]}, line ${d.banks.line[e * d.replicas]}`);
  tooltip(ev, lines.slice(0, 12).join("\n") + (lines.length > 12 ? `\n… ${lines.length - 12} more` : ""));
}

function onPhysicalHover(ev) {
  const m = state.model, d = state.data;
  if (!m) return;
  const rect = ev.target.getBoundingClientRect();
  const h = m.pgrid.hit(ev.clientX - rect.left, ev.clientY - rect.top);
  if (!h) return tooltip(ev, null);
  if (h.kind !== "cell") return tooltip(ev, `click: everything at this ${h.kind === "tile" ? "tile" : h.kind}`);
  const key = m.pgrid.key(h.t, h.r, h.c, h.s);
  const lines = [describeCell(h)];
  const elems = new Set();
  for (let q = m.cellStart[key]; q < m.cellStart[key + 1]; q++) elems.add(Math.floor(m.members[q] / d.replicas));
  if (!elems.size) lines.push("(empty)");
  for (const e of [...elems].slice(0, 8)) lines.push(`holds (${unravel(e, d.shape).join(", ")})`);
  if (elems.size > 8) lines.push(`… ${elems.size - 8} more`);
  tooltip(ev, lines.join("\n"));
}

// -- keyboard ------------------------------------------------------------------------------
function onKey(ev) {
  if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  const m = state.model;
  if (ev.key === "Escape") { clearSelection(); return; }
  if (!m || !state.sel || state.sel.type !== "element") return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const mv = moves[ev.key];
  if (!mv) return;
  ev.preventDefault();
  const key = m.lkey[state.sel.flat];
  const r = Math.floor(key / m.ncolsL) + mv[0], c = (key % m.ncolsL) + mv[1];
  if (r < 0 || c < 0 || r >= m.nrowsL || c >= m.ncolsL) return;
  const e = m.lflat[r * m.ncolsL + c];
  if (e >= 0) selectElement(e);
}

// -- presets and controls -----------------------------------------------------------------
function loadPreset(name, opts = {}) {
  const p = state.presets.find((x) => x.name === name);
  if (!p || p.error) return false;
  applyPresetEntry(p);
  state.lastEdit = null;
  state.colorChosen = !!opts.color;
  update({ color: opts.color || p.color || null, select: opts.select });
  return true;
}

function applyPresetEntry(p) {
  $("preset").value = p.name;
  $("layout").value = p.layout;
  $("shape").value = p.shape.join(",");
  $("dtype").value = p.dtype || "";
  $("swizzle").value = p.swizzle || "none";
  $("info").title = p.doc || "";
  state.presetDoc = p.doc || "";
  state.axisOrder = p.order || null;
  state.preset = p.params && p.params.length ? p : null;
  renderParams();
}

// -- preset parameters ----------------------------------------------------------------------
function paramText(prm) { return prm.text; }

function renderParams() {
  const box = $("params");
  const p = state.preset;
  if (!p) { box.hidden = true; box.innerHTML = ""; return; }
  const widgets = p.params.map((prm) => {
    const id = `param-${prm.name}`;
    const attrs = `data-testid="${id}" data-param="${escapeHtml(prm.name)}" title="${escapeHtml(prm.doc || prm.name)}"`;
    let w;
    if (prm.kind === "bool") {
      w = `<input type="checkbox" ${attrs}${prm.value ? " checked" : ""}>`;
    } else if (prm.choice_texts) {
      w = `<select ${attrs}>` + prm.choice_texts.map((t) =>
        `<option${t === prm.text ? " selected" : ""}>${escapeHtml(t)}</option>`).join("") + `</select>`;
    } else if (prm.kind === "int") {
      w = `<input type="number" step="1" ${attrs} value="${escapeHtml(prm.text)}">`;
    } else {
      const hint = { shape: "8,64", mesh: "dp=2,tp=4", spec: "dp,None or (dp,tp),None" }[prm.kind] || "";
      w = `<input type="text" class="${prm.kind === "shape" ? "" : "wide"}" spellcheck="false" ${attrs} value="${escapeHtml(prm.text)}" placeholder="${hint}">`;
    }
    return `<label class="ctl">${escapeHtml(prm.name)}${prm.required ? "" : ""} ${w}</label>`;
  }).join("");
  box.innerHTML = `<span class="ptitle"><b>${escapeHtml(p.name)}</b> parameters</span>${widgets}`;
  box.hidden = false;
  let timer = null;
  for (const el of box.querySelectorAll("[data-param]")) {
    const now = () => { clearTimeout(timer); rebuildPreset(); };
    if (el.tagName === "SELECT" || el.type === "checkbox") el.addEventListener("change", now);
    else el.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(rebuildPreset, 250); });
  }
}

function paramTexts() {
  const out = {};
  for (const el of $("params").querySelectorAll("[data-param]")) {
    out[el.dataset.param] = el.type === "checkbox" ? (el.checked ? "true" : "false") : el.value;
  }
  return out;
}

// build the registry preset with the widgets' values (POST /api/preset) and show it
async function rebuildPreset() {
  const p = state.preset;
  if (!p) return;
  await buildPreset(p.name, paramTexts());
}

async function buildPreset(name, texts, opts = {}) {
  const seq = ++state.seq;
  let entry;
  try {
    entry = await postJSON("/api/preset", { name, params: texts });
  } catch (err) {
    if (seq !== state.seq) return false;
    showError(err);
    window.__tl.lastError = err.data || { error: String(err) };
    window.__tl.ready = true;
    window.__tl.presetErrors = (window.__tl.presetErrors || 0) + 1;
    return false;
  }
  if (seq !== state.seq) return false;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.param : null;
  const keepWidgets = state.preset && state.preset.name === name;
  state.preset = entry;
  applyPresetEntry(entry);
  if (keepWidgets && focused) {  // keep typing in the widget that was being edited
    const el = $("params").querySelector(`[data-param="${focused}"]`);
    if (el) { el.value = texts[focused]; el.focus(); }
  }
  if (opts.dtype !== undefined && opts.dtype !== null) $("dtype").value = opts.dtype;
  if (opts.swizzle) $("swizzle").value = opts.swizzle;
  await update({ color: opts.color || null, select: opts.select || null });
  window.__tl.presetBuilds = (window.__tl.presetBuilds || 0) + 1;
  return true;
}

// -- analysis: legality findings and bank conflicts --------------------------------------------
async function fetchAnalysis(seq) {
  const box = $("analysis");
  const d = state.data;
  state.analysis = null;
  if (!d || d.too_large) { box.hidden = true; return; }
  let a;
  try {
    a = await postJSON("/api/analysis", drawn());
  } catch (err) {
    if (seq !== state.seq) return;
    box.innerHTML = `<h3>legality</h3><p class="muted">${escapeHtml(err.message)}</p>`;
    box.hidden = false;
    return;
  }
  if (seq !== state.seq) return;
  state.analysis = a;
  box.innerHTML = renderAnalysis(a, d);
  box.hidden = false;
  markActiveAnalysis();
  window.__tl.analysisFor = d.layout;
}

// -- "in other tools": the layout in CuTe / CuTe TV / JAX / Triton notation -------------------
async function fetchConvert(seq) {
  const box = $("convert");
  const d = state.data;
  state.convert = null;
  if (!d) { box.hidden = true; return; }
  let r;
  try {
    r = await postJSON("/api/convert", { ...drawn(), targets: CONVERT_TARGETS });
  } catch (err) {
    if (seq !== state.seq) return;
    box.innerHTML = `<h3>in other tools</h3><p class="muted">${escapeHtml(err.message)}</p>`;
    box.hidden = false;
    return;
  }
  if (seq !== state.seq) return;
  state.convert = r;
  box.innerHTML = renderConvert(r);
  box.hidden = false;
  window.__tl.convertFor = d.layout;
}

async function onConvertClick(ev) {
  const b = ev.target.closest("button[data-copy]");
  if (!b || !state.convert) return;
  const t = state.convert.targets[+b.dataset.copy];
  const ok = await copyText(t.text);
  window.__tl.lastCopied = ok ? t.text : null;
  flash(b, ok ? "copied" : "failed");
}

function onAnalysisClick(ev) {
  const a = state.analysis, d = state.data;
  if (!a || !state.model) return;
  const f = ev.target.closest("[data-finding]");
  if (f) {
    const i = +f.dataset.finding, fd = a.legality.findings[i];
    selectSet(fd.elements, `${fd.kind.replace(/_/g, " ")}: ${fd.message}`, { finding: i });
    return;
  }
  const b = ev.target.closest("[data-read]");
  if (b) {
    const i = +b.dataset.read, k = +b.dataset.req, read = a.conflicts.reads[i];
    selectSet(read.requests[k].elements, requestLabel(read, k, d.shape), { read: i, req: k });
  }
}

function markActiveAnalysis() {
  const src = state.sel && state.sel.type === "set" ? state.sel.source : null;
  for (const el of document.querySelectorAll("#analysis .active")) el.classList.remove("active");
  if (!src) return;
  const sel = src.finding !== undefined ? `[data-finding="${src.finding}"]`
    : `.chips [data-read="${src.read}"][data-req="${src.req}"], li[data-read="${src.read}"][data-req="${src.req}"]`;
  for (const el of document.querySelectorAll(`#analysis ${sel}`)) el.classList.add("active");
}

// re-fit both views to the window (after a resize); keeps the selection
function relayout() {
  if (!state.model) return;
  arrange();
  state.model.lgrid.paint();
  state.model.pgrid.paint();
  applySelection();
}

function fillControls(opts) {
  const groups = {};
  for (const p of state.presets) (groups[p.group] ||= []).push(p);
  let html = `<option value="">(custom)</option>`;
  for (const [g, items] of Object.entries(groups)) {
    html += `<optgroup label="${escapeHtml(g)}">` + items.map((p) =>
      `<option value="${escapeHtml(p.name)}"${p.error ? " disabled" : ""}>${escapeHtml(p.name)}${p.error ? " (unavailable)" : ""}</option>`).join("") + "</optgroup>";
  }
  $("preset").innerHTML = html;
  $("dtype").innerHTML = `<option value="">(none)</option>` + opts.dtypes.map((t) => `<option>${t}</option>`).join("");
  $("swizzle").innerHTML = opts.swizzles.map((t) => `<option>${t}</option>`).join("");
}

async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (_) {
    const ta = $("clipboard"); ta.value = text; ta.select();
    try { return document.execCommand("copy"); } catch (__) { return false; }
  }
}

function flash(button, text) {
  const old = button.textContent;
  button.textContent = text;
  setTimeout(() => { button.textContent = old; }, 1200);
}

function waitFor(cond) {
  return new Promise((resolve) => {
    const tick = () => (cond() ? resolve() : setTimeout(tick, 20));
    tick();
  });
}

async function main() {
  const q = new URLSearchParams(location.search);
  if (q.get("embed") === "1") document.body.classList.add("embed");
  const [presets, opts] = await Promise.all([getJSON("/api/presets"), getJSON("/api/options")]);
  state.presets = presets.presets;
  state.palette = opts.palette;
  state.options = opts;
  fillControls(opts);
  const select = q.get("select") ? q.get("select").split(",").map((x) => parseInt(x, 10)) : null;
  const color = q.get("color");
  const named = state.presets.find((x) => x.name === q.get("preset") && x.params && !x.error);
  if (named) {
    // a registry preset: rebuilt from its parameters (p.<name>), so a link reproduces them
    const texts = {};
    for (const [k, v] of q.entries()) if (k.startsWith("p.")) texts[k.slice(2)] = v;
    state.preset = named;
    const ok = await buildPreset(named.name, texts, {
      select, color, dtype: q.has("dtype") ? q.get("dtype") : null, swizzle: q.get("swizzle"),
    });
    if (!ok) { applyPresetEntry(named); for (const [k, v] of Object.entries(texts)) { const el = $("params").querySelector(`[data-param="${k}"]`); if (el) { if (el.type === "checkbox") el.checked = v === "true"; else el.value = v; } } }
  } else if (q.get("layout")) {
    $("preset").value = q.get("preset") || "";
    $("layout").value = q.get("layout");
    $("shape").value = q.get("shape") || "";
    $("dtype").value = q.get("dtype") || "";
    $("swizzle").value = q.get("swizzle") || "none";
    await update({ select: select && select.every(Number.isFinite) ? select : null, color });
  } else if (!(q.get("preset") && loadPreset(q.get("preset"), { select, color }))) {
    loadPreset("tensor-core tile", { select, color });
  }
  const zl = zoomParam(q.get("zl")), zp = zoomParam(q.get("zp"));
  if (zl !== null || zp !== null) {
    if (!state.model) await waitFor(() => state.model || window.__tl.lastError);
    setZoom(zl, zp);
  }
  const toCustom = (ev) => {
    state.lastEdit = ev.target.id;
    $("preset").value = ""; state.preset = null; state.axisOrder = null; renderParams(); scheduleUpdate();
  };
  $("layout").addEventListener("input", toCustom);
  $("shape").addEventListener("input", toCustom);
  $("analysis").addEventListener("click", onAnalysisClick);
  $("convert").addEventListener("click", onConvertClick);
  $("convert").addEventListener("toggle", (ev) => convertToggled(ev.target), true);
  $("dtype").addEventListener("change", () => update());
  $("swizzle").addEventListener("change", () => update());
  $("preset").addEventListener("change", () => { if ($("preset").value) loadPreset($("preset").value); });
  $("color").addEventListener("change", () => {
    state.color = $("color").value; state.colorChosen = true; recolor(); writeURL();
  });
  $("logical-canvas").addEventListener("click", onLogicalClick);
  $("physical-canvas").addEventListener("click", onPhysicalClick);
  $("logical-canvas").addEventListener("mousemove", onLogicalHover);
  $("physical-canvas").addEventListener("mousemove", onPhysicalHover);
  for (const id of ["logical-canvas", "physical-canvas"]) $(id).addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(relayout, 120);
  });
  for (const v of ["logical", "physical"]) setupViewport(v);
  for (const b of document.querySelectorAll(".zoom button")) {
    b.addEventListener("click", () => zoom(b.parentElement.dataset.view, +b.dataset.zoom));
  }
  $("export-svg").addEventListener("click", () => exportSvg(state, DIM_NAMES));
  $("export-png").addEventListener("click", () => exportPng(state));
  $("copy-python").addEventListener("click", async (ev) => {
    const ok = await copyText(pythonSnippet(state, unravel));
    flash(ev.target, ok ? "copied" : "failed");
  });
  $("copy-link").addEventListener("click", async (ev) => {
    const ok = await copyText(location.href);
    flash(ev.target, ok ? "copied" : "failed");
  });
}

Object.assign(window.__tl, {
  // test hooks: where things are drawn, in page (client) coordinates
  // (the cell is scrolled into its view first when it is not visible)
  logicalCenter(flat) {
    const m = state.model;
    m.lgrid.reveal(m.lkey[flat]);
    const r = $("logical-canvas").getBoundingClientRect();
    const [x, y] = m.lgrid.toView(...m.lgrid.centre(m.lkey[flat]));
    return { x: r.left + x, y: r.top + y };
  },
  physicalCenter(t, row, col, s = 0) {
    const m = state.model, key = m.pgrid.key(t, row, col, s);
    m.pgrid.reveal(key);
    const r = $("physical-canvas").getBoundingClientRect();
    const [x, y] = m.pgrid.toView(...m.pgrid.centre(key));
    return { x: r.left + x, y: r.top + y };
  },
  cell: () => ({ logical: state.model.lgrid.cell, physical: state.model.pgrid.cell }),
  // cell geometry of both views: width x height of a (sub-)cell, aspect, fitted or zoomed
  geometry: () => {
    const f = (g) => ({ w: g.sw, h: g.ch, aspect: g.aspect, fitted: g.fitted, px: g.labelPx() });
    return { logical: f(state.model.lgrid), physical: f(state.model.pgrid) };
  },
  zoom, setZoom,
  // what the last paint drew: the cell-text size and how many non-empty cells got text
  labels: () => ({ logical: state.model.lgrid.painted, physical: state.model.pgrid.painted }),
  pairCell(p) { return state.model.pgrid.unkey(state.model.pkeys[p * state.model.span]); },
  palette: () => state.palette,
  colorOf: (flat) => paletteOf(state.model.cval[flat]),
  selectElement, clearSelection,
});

main().catch((err) => { showError(err); console.error(err); });
