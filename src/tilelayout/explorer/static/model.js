// The drawing model: from one /api/layout answer, which cell of each view every element
// (and every element-replica pair) is drawn in, what each cell says and how it is
// coloured. No DOM here: plain arrays and functions over the server's answer.
import { unravel } from "./util.js";

// the logical view: element e sits in cell lkey[e] = row * ncols + col (the server's fold)
function logicalCells(d) {
  const f = d.fold, n = d.size;
  const lkey = Int32Array.from(f.cell), lflat = new Int32Array(f.nrows * f.ncols).fill(-1);
  for (let e = 0; e < n; e++) lflat[lkey[e]] = e;
  return { lkey, lflat, nrowsL: f.nrows, ncolsL: f.ncols };
}

// the physical view: each pair's cells (pkeys, span cells per pair), the first pair in
// each cell, cells shared by different elements, and the pairs in each cell (CSR)
function physicalCells(d) {
  const P = d.physical, R = d.replicas;
  const sub = P.sub || 1, span = P.span || 1, pairs = d.size * R;
  const ncells = P.tiles.length * P.nrows * P.ncols * sub;
  const first = new Int32Array(ncells).fill(-1);
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
  const cellStart = new Int32Array(ncells + 1);
  for (let q = 0; q < pairs * span; q++) cellStart[pkeys[q] + 1]++;
  for (let i = 0; i < ncells; i++) cellStart[i + 1] += cellStart[i];
  const fillPos = cellStart.slice(0, ncells);
  const members = new Int32Array(pairs * span);
  for (let q = 0; q < pairs * span; q++) members[fillPos[pkeys[q]]++] = Math.floor(q / span);
  return { first, collide, pkeys, span, sub, cellStart, members };
}

// mixed-radix decode of a grid index into the axis values of its parts
function partCoord(parts, idx) {
  const out = {};
  for (let k = parts.length - 1; k >= 0; k--) {
    const vs = parts[k].values;
    out[parts[k].axis] = vs[idx % vs.length];
    idx = Math.floor(idx / vs.length);
  }
  return out;
}

export function buildModel(d) {
  const P = d.physical;
  const m = { n: d.size, R: d.replicas, fold: d.fold, ...logicalCells(d), ...physicalCells(d) };
  m.rowCoord = (r) => partCoord(P.rows, r);
  m.colCoord = (c) => partCoord(P.cols, c);
  return m;
}

// the grid specs of both views (what grid.js needs besides its DOM elements)
export function logicalSpec(d) {
  const f = d.fold;
  return {
    ntiles: 1, nrows: f.nrows, ncols: f.ncols, sub: 1, rowRadix: f.row_radix, colRadix: f.col_radix,
    gaps: true, tileLabel: () => "", rowLabel: f.row_dims.length || f.wrap ? (r) => f.row_labels[r] : null,
    colLabel: (c) => f.col_labels[c], mesh: null,
  };
}

export function physicalSpec(d, m) {
  const P = d.physical;
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
  // the shared-memory line x bank view with several elements per bank word: narrow halves
  // whose "i,j" text goes on two lines, in cells high enough for that
  const halves = P.kind === "smem" && (P.sub || 1) > 1;
  return {
    ...(halves ? { twoLines: true, aspect: 0.75, textCell: 19 } : {}),
    ntiles: P.tiles.length, nrows: P.nrows, ncols: P.ncols, sub: P.sub || 1,
    rowRadix: P.rows.length ? P.rows.map((p) => p.values.length) : [P.nrows],
    colRadix: P.cols.length ? P.cols.map((p) => p.values.length) : [P.ncols],
    gaps: P.rows.length > 1 || P.cols.length > 1,
    tileLabel: (t) => (P.tile_axes.length ? tileText(t) : ""),
    tileShort: (t) => Object.values(P.tiles[t]).join("·"), rowLabel, colLabel, mesh,
  };
}

// the colour value of every element under colour key `key` (an axis, "dim:K" or "bank")
export function colourValues(d, key) {
  const n = d.size, R = d.replicas, out = new Int32Array(n);
  if (key === "bank") for (let e = 0; e < n; e++) out[e] = d.banks.bank[e * R];
  else if (key.startsWith("dim:")) {
    const k = +key.slice(4);
    for (let e = 0; e < n; e++) out[e] = unravel(e, d.shape)[k];
  } else for (let e = 0; e < n; e++) out[e] = d.coords[key][e * R];
  return out;
}

// every physical cell of the elements `elems` (all their replicas and spanned words)
export function physKeysOfElements(m, elems) {
  const keys = new Set();
  for (const e of elems) {
    for (let r = 0; r < m.R; r++) for (let k = 0; k < m.span; k++) keys.add(m.pkeys[(e * m.R + r) * m.span + k]);
  }
  return [...keys];
}

// the coordinate of element-replica pair p: {axis: value}
export function coordOfPair(d, p) {
  const out = {};
  for (const a of d.axes) out[a.name] = d.coords[a.name][p];
  return out;
}

export const coordText = (c) => Object.entries(c).map(([a, v]) => `${a}=${v}`).join(", ");

// the elements of logical row / column `line` (h.kind "row" or "col")
export function lineElements(m, kind, line) {
  const out = [];
  const len = kind === "row" ? m.ncolsL : m.nrowsL;
  for (let k = 0; k < len; k++) {
    const e = m.lflat[kind === "row" ? line * m.ncolsL + k : k * m.ncolsL + line];
    if (e >= 0) out.push(e);
  }
  return out;
}

// a physical cell {t, r, c} in words: "warpid=1, laneid=3, m=2"
export function describeCell(d, m, h) {
  const P = d.physical, parts = [];
  if (P.tile_axes.length) for (const [a, v] of Object.entries(P.tiles[h.t])) parts.push(`${a}=${v}`);
  if (P.kind === "smem") parts.push(`line=${P.rows[0].values[h.r]}`, `bank=${h.c}`);
  else if (P.fold) parts.push(`m=${P.fold.values[h.r * P.fold.width + h.c] ?? "-"}`);
  else {
    for (const [a, v] of Object.entries(m.rowCoord(h.r))) parts.push(`${a}=${v}`);
    for (const [a, v] of Object.entries(m.colCoord(h.c))) parts.push(`${a}=${v}`);
  }
  return parts.join(", ");
}

// the distinct pairs' coordinates held by physical cells `keys`
export function coordsInCells(d, m, keys) {
  const coords = [], seen = new Set();
  for (const key of keys) {
    for (let q = m.cellStart[key]; q < m.cellStart[key + 1]; q++) {
      const c = coordOfPair(d, m.members[q]);
      const s = JSON.stringify(c);
      if (!seen.has(s)) { seen.add(s); coords.push(c); }
    }
  }
  return coords;
}

// every element with a replica whose bank (kind "col") / line ("row") is `want`
export function bankElements(d, kind, want) {
  const arr = kind === "col" ? d.banks.bank : d.banks.line;
  const elems = [], R = d.replicas;
  for (let e = 0; e < d.size; e++) {
    for (let r = 0; r < R; r++) if (arr[e * R + r] === want) { elems.push(e); break; }
  }
  return elems;
}

// the physical view's note: what its rows, columns and tiles are
export function physicalNote(d, m) {
  const P = d.physical;
  const axesRows = P.rows.map((p) => p.axis).join(" x ") || (P.fold ? "address" : "");
  const axesCols = P.cols.map((p) => p.axis).join(" x ") || (P.fold ? "address offset" : "");
  return [
    axesRows ? `rows: ${axesRows}` : "",
    axesCols ? `columns: ${axesCols}` : "",
    P.tile_axes.length ? `tiles: ${P.tile_axes.join(" x ")} (used values only)` : "",
    [...P.rows, ...P.cols].some((p) => p.compressed) || (P.fold && P.fold.compressed)
      ? "sparse axis: only used values shown" : "",
    m.collide.some((x) => x) ? "◢ several elements share a slot" : "",
    m.span > 1 ? `each ${d.dtype} spans ${m.span} bank words` : "",
  ].filter(Boolean);
}
