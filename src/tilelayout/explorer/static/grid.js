// A zoomable, scrollable canvas grid of tiles x rows x columns x sub-cells, with a
// highlight overlay. It knows geometry and drawing only; which element sits in which
// cell is decided by the caller from the library's answer (the JSON API).
//
// The grid lives in a scroll box. The canvases are only as large as the visible part
// (they stick to the box's top-left corner) and draw the visible cells, so a 128 x 256
// tile can be zoomed to 48 px per cell without allocating a huge bitmap. Row and column
// labels are frozen bands at the left and top edges.
//
// Cells are `cell` px high and `cell * aspect` px wide (a sub-cell, for bank words of
// several elements). The aspect is 1 (square) unless the grid is height-limited, its box
// has spare width and the widest cell label would not fit a square at the cell's full text
// size: then fit() widens the cells, up to MAX_ASPECT and the width the box allows. Zooming
// keeps the aspect (it scales both dimensions); the zoom level is the cell height.

const DPR = () => Math.max(1, Math.min(3, window.devicePixelRatio || 1));
import { state } from "./state.js";
export const LABEL_PX = 10;  // row / column label font size
export const MIN_CELL = 1;
export const MAX_FIT = 36;
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 36, 42, 48, 56, 64];
export const GAP_T = 10;       // between tiles
export const MAX_ASPECT = 3;   // cell width / height at most
const SCROLLBAR = 16;   // reserved when one direction overflows
const MAX_MARGIN = 120; // the widest row-label band

// start offsets of n mixed-radix positions (radices outer -> inner) with a gap at every
// boundary of an outer digit; gaps shrink for inner levels
function positions(radices, cell, gaps) {
  const n = radices.reduce((a, b) => a * b, 1);
  const inner = [];
  let prod = 1;
  for (let k = radices.length - 1; k >= 0; k--) { inner[k] = prod; prod *= radices[k]; }
  const pos = new Float64Array(n + 1);
  for (let i = 0; i <= n; i++) {
    let g = 0;
    for (let k = 0; k < radices.length - 1; k++) {
      if (gaps) g += Math.floor(i / inner[k]) * Math.max(1, 4 - k) * (i === n ? 0 : 1);
    }
    pos[i] = i * cell + g;
  }
  if (n > 0) pos[n] = pos[n - 1] + cell;
  return pos;
}

function bisect(arr, x, n) { // largest i < n with arr[i] <= x, or -1
  let lo = 0, hi = n - 1, ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] <= x) { ans = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return ans;
}

// every label when each fits its cell (with a little air), else every 2nd, 4th, ...
// (a subsample that is the same across the grid)
export function labelStep(cell, minPx) {
  let step = 1;
  while (step * cell < minPx) step *= 2;
  return step;
}

let measureCtx = null;
function textWidth(text, font) {
  measureCtx ||= document.createElement("canvas").getContext("2d");
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}

export const LABEL_FONT = `${LABEL_PX}px ui-monospace, monospace`;
const HEAD_FONT = "600 11px system-ui, sans-serif";
export const CELL_FONT = "ui-monospace, monospace";
export const MIN_LABEL_PX = 7;   // cell text below this size is not drawn at all
export const TEXT_CELL = 14;     // nor in cells lower than this
export const LINE_HEIGHT = 1.15;  // of two-line cell texts, in font sizes

// "i,j" -> ["i,", "j"] (where a cell text breaks onto two lines); [text, null] without a comma
export function splitLabel(text) {
  const k = text.lastIndexOf(",");
  return k < 0 ? [text, null] : [text.slice(0, k + 1), text.slice(k + 1)];
}

// the widest of n labels label(i), in px of `font` (all of them when n is moderate,
// else a spread sample plus the last)
function widestLabel(n, label, font) {
  let widest = 0;
  const step = Math.max(1, Math.floor(n / 1024));
  for (let i = 0; i < n; i += step) widest = Math.max(widest, textWidth(String(label(i) ?? ""), font));
  if (n) widest = Math.max(widest, textWidth(String(label(n - 1) ?? ""), font));
  return widest;
}

// the number of items per row (1..n) that divide n
function divisors(n) {
  const out = [];
  for (let k = 1; k <= n; k++) if (n % k === 0) out.push(k);
  return out;
}

export class Grid {
  // els: {scroll, stick, sizer, canvas, overlay}
  // spec: {ntiles, nrows, ncols, sub, rowRadix, colRadix, gaps, tileLabel(t), rowLabel(r),
  //        colLabel(c), mesh: {rows, cols, place(t) -> [i, j]} | null, labels: bool}
  constructor(els, spec) {
    this.els = els;
    this.canvas = els.canvas;
    this.overlay = els.overlay;
    this.spec = spec;
    const s = spec;
    this.sub = s.sub || 1;
    const tiled = s.ntiles > 1 || !!(s.tileLabel && s.tileLabel(0));
    this.header = tiled ? 16 : 0;
    const widest = s.rowLabel && s.labels !== false ? widestLabel(s.nrows, s.rowLabel, LABEL_FONT) : 0;
    this.colLabelW = s.colLabel && s.labels !== false ? widestLabel(s.ncols, s.colLabel, LABEL_FONT) : 0;
    // the row-label band: as wide as the widest label (a label that does not fit it is
    // left out, never squeezed)
    this.marginL = s.labels === false ? 2 : Math.ceil(Math.min(MAX_MARGIN, Math.max(22, widest + 8)));
    // fit() never goes below this cell height: the view scrolls instead
    this.minFit = Math.max(MIN_CELL, s.minFit || MIN_CELL);
    this.marginT = s.labels === false ? 2 : 16;
    const extra = (radices) => (s.gaps && radices.length > 1
      ? positions(radices, 0, true)[radices.reduce((a, b) => a * b, 1) - 1] : 0);
    this.gapW = extra(s.colRadix || [s.ncols]);
    this.gapH = extra(s.rowRadix || [s.nrows]);
    this.fitted = true;
    this.aspect = null;  // width / height of a (sub-)cell; chosen by fit(), kept by zoom
    this.hl = null;
    this.fns = null;
    this.box = [400, 300];
  }

  // the (sub-)cell width for cell height c at aspect a: whole pixels from 4 px up
  static cellWidth(c, a) {
    if (a === 1) return c;
    return c >= 4 ? Math.floor(c * a + 1e-6) : c * a;
  }

  // content size at cell height c with k tiles per row (cells of aspect a)
  size(c, k, a = 1) {
    const s = this.spec;
    const perRow = s.mesh ? s.mesh.cols.length : k;
    const tileRows = s.mesh ? s.mesh.rows.length : Math.ceil(s.ntiles / k);
    const tileW = s.ncols * this.sub * Grid.cellWidth(c, a) + this.gapW, tileH = s.nrows * c + this.gapH;
    return [this.marginL + perRow * tileW + (perRow - 1) * GAP_T + 4,
      this.marginT + tileRows * (tileH + this.header) + (tileRows - 1) * GAP_T + 4];
  }

  candidates() {
    const s = this.spec;
    if (s.mesh) return [s.mesh.cols.length];
    const out = [];
    for (let k = 1; k <= Math.min(s.ntiles, 64); k++) out.push(k);
    return out;
  }

  // the largest square cell (minFit..MAX_FIT) at which everything fits the box, and the
  // tiles per row for it; when nothing fits, the smallest cell with the least overflow
  // (raw: the cell at which it would fit, below minFit too; visible: the part of the
  // content the box shows, 1 when it all fits).
  // Wrapped tiles prefer a count per row that divides the number of tiles (full rows,
  // 8 tiles as 2 x 4, not 3 + 3 + 2) unless another count gives clearly bigger cells.
  // Then the cells are widened into spare width when their labels need it (widen()):
  // {c: height, k, a: aspect, w, h}.
  fit(boxW, boxH) {
    const s = this.spec;
    const a0 = s.aspect || 1;  // a fixed aspect (narrow bank-word halves), else square first
    let best = this._fit(boxW, boxH, this.candidates(), a0);
    if (!s.mesh && s.ntiles > 2) {
      const even = this._fit(boxW, boxH, divisors(s.ntiles).filter((k) => k <= 64), a0);
      if (even && even.c * 1.25 >= best.c) best = even;
    }
    const a = s.aspect || this.widen(best.c, best.k, boxW);
    const [w, h] = a === 1 ? [best.w, best.h] : this.size(best.c, best.k, a);
    const visible = Math.min(1, boxW / w) * Math.min(1, boxH / h);
    return { ...best, a, w, h, visible };
  }

  // The aspect (width / height) of cells of height c with k tiles per row in a box boxW
  // wide: 1 (square) when the grid's widest label fits a square cell at the full text size
  // for the height, when cells are too low for text, or when the box has no spare width;
  // else the cells are widened until that label fits at the full size, or as far as
  // MAX_ASPECT and the box allow, provided the label then fits at MIN_LABEL_PX or more.
  widen(c, k, boxW) {
    if (c < TEXT_CELL) return 1;
    const widest = this.widestText();
    if (!widest || this._pxFor(c, c) >= this._cellSize(c)) return 1;
    const w0 = this.size(0, k)[0], w1 = this.size(1, k)[0];  // the width is linear in it
    const room = Math.floor((boxW - w0) / (w1 - w0));
    const want = Math.ceil(this._cellSize(c) * widest + 8);  // with a little air
    const sw = Math.min(want, room, Math.floor(MAX_ASPECT * c));
    if (sw <= c || this._pxFor(sw, c) <= this._pxFor(c, c)) return 1;
    return sw / c;
  }

  _fit(boxW, boxH, ks, a = 1) {
    let best = null;
    for (const k of ks) {
      const [w1, h1] = this.size(1, k, a), [w0, h0] = this.size(0, k, a);
      // whole pixels from 4 px up (crisp edges); quarter pixels below, so that big tiles
      // still fit as an overview
      const raw = Math.min(MAX_FIT, (boxW - w0) / (w1 - w0), (boxH - h0) / (h1 - h0));
      const c = Math.max(this.minFit, raw >= 4 ? Math.floor(raw) : Math.floor(raw * 4) / 4);
      const [w, h] = this.size(c, k, a);
      const over = Math.max(0, w - boxW) * 4 + Math.max(0, h - boxH); // prefer vertical scrolling
      const score = [c, -over, -w * h];
      if (!best || score[0] > best.score[0] || (score[0] === best.score[0] &&
          (score[1] > best.score[1] || (score[1] === best.score[1] && score[2] > best.score[2])))) {
        best = { c, k, w, h, score, raw: Math.max(MIN_CELL, raw) };
      }
    }
    return best;
  }

  // tiles per row for an explicit cell size (and aspect): as many as fit the box width,
  // preferring a count that divides the number of tiles
  wrap(c, boxW, a = 1) {
    const ks = this.candidates();
    let k = ks[0];
    for (const x of ks) if (this.size(c, x, a)[0] <= boxW) k = x;
    if (this.spec.mesh) return k;
    let d = 1;
    for (const x of divisors(this.spec.ntiles)) if (x <= k) d = x;
    return 2 * d >= k ? d : k;
  }

  // lay out for a box (css px). cell = null: fit to the box (height and aspect); a number:
  // that cell height, at the aspect of the last fit (of this box when there was none)
  setBox(boxW, boxH, cell = null) {
    this.box = [boxW, boxH];
    let k;
    if (cell === null) {
      const f = this.fit(boxW, boxH);
      cell = f.c; k = f.k;
      this.aspect = f.a;
      this.fitted = true;
    } else {
      if (this.aspect === null) this.aspect = this.fit(boxW, boxH).a;
      cell = Math.max(MIN_CELL, Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], cell));
      k = this.wrap(cell, boxW, this.aspect);
      this.fitted = false;
    }
    this._geometry(cell, k);
  }

  _geometry(cell, k) {
    const s = this.spec, sub = this.sub;
    this.cell = cell;  // the zoom level: px per cell, down
    this.sw = Grid.cellWidth(cell, this.aspect ?? 1);
    this.cw = this.sw * sub;
    this.ch = cell;
    this.rowY = positions(s.rowRadix || [s.nrows], cell, s.gaps);
    this.colX = positions(s.colRadix || [s.ncols], this.cw, s.gaps);
    this.tileW = this.colX[s.ncols];
    this.tileH = this.rowY[s.nrows];
    this.perRow = s.mesh ? s.mesh.cols.length : k;
    this.tileRows = s.mesh ? s.mesh.rows.length : Math.ceil(s.ntiles / k);
    this.tileX = new Float64Array(s.ntiles);
    this.tileY = new Float64Array(s.ntiles);
    for (let t = 0; t < s.ntiles; t++) {
      const [i, j] = s.mesh ? s.mesh.place(t) : [Math.floor(t / k), t % k];
      this.tileX[t] = this.marginL + j * (this.tileW + GAP_T);
      this.tileY[t] = this.marginT + this.header + i * (this.tileH + this.header + GAP_T);
    }
    const [w, h] = this.size(cell, k, this.aspect ?? 1);
    this.width = Math.ceil(w);
    this.height = Math.ceil(h);
    // the visible box: the content, or the box with scroll bars when it does not fit
    const [bw, bh] = this.box;
    const overX = this.width > bw, overY = this.height > bh;
    const vw = Math.min(bw, this.width + (overY ? SCROLLBAR : 0));
    const vh = Math.min(bh, this.height + (overX ? SCROLLBAR : 0));
    const { scroll, sizer, stick } = this.els;
    scroll.style.width = `${Math.ceil(vw)}px`;
    scroll.style.height = `${Math.ceil(vh)}px`;
    sizer.style.width = `${this.width}px`;
    sizer.style.height = `${this.height}px`;
    this.vw = Math.max(1, scroll.clientWidth || Math.floor(vw - (overY ? SCROLLBAR : 0)));
    this.vh = Math.max(1, scroll.clientHeight || Math.floor(vh - (overX ? SCROLLBAR : 0)));
    stick.style.width = `${this.vw}px`;
    stick.style.height = `${this.vh}px`;
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(this.vw * DPR());
      c.height = Math.round(this.vh * DPR());
      c.style.width = `${this.vw}px`;
      c.style.height = `${this.vh}px`;
    }
  }

  get sx() { return this.els.scroll.scrollLeft; }
  get sy() { return this.els.scroll.scrollTop; }

  cellRect(t, r, c, sub = -1) {
    const x = this.tileX[t] + this.colX[c] + (sub >= 0 ? sub * this.sw : 0);
    const y = this.tileY[t] + this.rowY[r];
    return [x, y, sub >= 0 ? this.sw : this.cw, this.ch];
  }

  key(t, r, c, s = 0) { return ((t * this.spec.nrows + r) * this.spec.ncols + c) * this.sub + s; }

  unkey(key) {
    const s = key % this.sub; key = (key - s) / this.sub;
    const c = key % this.spec.ncols; key = (key - c) / this.spec.ncols;
    const r = key % this.spec.nrows;
    return [(key - r) / this.spec.nrows, r, c, s];
  }

  keyRect(key) {
    const [t, r, c, s] = this.unkey(key);
    return this.cellRect(t, r, c, this.sub > 1 ? s : -1);
  }

  // which tile column / tile row a content coordinate falls in (or -1)
  _tileCol(x) {
    const j = Math.floor((x - this.marginL) / (this.tileW + GAP_T));
    if (j < 0 || j >= this.perRow) return -1;
    return x - (this.marginL + j * (this.tileW + GAP_T)) < this.tileW ? j : -1;
  }

  _tileRow(y) {
    const step = this.tileH + this.header + GAP_T;
    const i = Math.floor((y - this.marginT) / step);
    if (i < 0 || i >= this.tileRows) return -1;
    return i;
  }

  _tileAt(i, j) {
    const s = this.spec;
    if (!s.mesh) { const t = i * this.perRow + j; return t < s.ntiles ? t : -1; }
    for (let t = 0; t < s.ntiles; t++) {
      const [a, b] = s.mesh.place(t);
      if (a === i && b === j) return t;
    }
    return -1;
  }

  // the first tile of tile row i (a mesh may leave some places empty), or -1
  tileInRow(i) {
    for (let j = 0; j < this.perRow; j++) {
      const t = this._tileAt(i, j);
      if (t >= 0) return t;
    }
    return -1;
  }

  // what is under the visible-box point (x, y): {kind: "cell"|"tile"|"row"|"col", t, r, c, s}
  hit(x, y) {
    const s = this.spec;
    const labels = s.labels !== false;
    if (labels && y < this.marginT && x >= this.marginL && s.colLabel) {
      const cx = x + this.sx;
      const j = this._tileCol(cx);
      if (j < 0) return null;
      const c = bisect(this.colX, cx - (this.marginL + j * (this.tileW + GAP_T)), s.ncols);
      let t = -1;
      for (let i = 0; i < this.tileRows && t < 0; i++) t = this._tileAt(i, j);
      return c >= 0 ? { kind: "col", t: Math.max(0, t), c } : null;
    }
    if (labels && x < this.marginL && y >= this.marginT && s.rowLabel) {
      const cy = y + this.sy;
      const i = this._tileRow(cy);
      if (i < 0) return null;
      const t = this.tileInRow(i);
      if (t < 0) return null;
      const r = bisect(this.rowY, cy - this.tileY[t], s.nrows);
      if (r < 0 || cy - this.tileY[t] >= this.tileH) return null;
      return { kind: "row", t, r };
    }
    const cx = x + this.sx, cy = y + this.sy;
    const j = this._tileCol(cx), i = this._tileRow(cy);
    if (i < 0 || j < 0) return null;
    const t = this._tileAt(i, j);
    if (t < 0) return null;
    const x0 = this.tileX[t], y0 = this.tileY[t];
    if (this.header && cy >= y0 - this.header && cy < y0) return { kind: "tile", t };
    if (cy < y0 || cy >= y0 + this.tileH) return null;
    const r = bisect(this.rowY, cy - y0, s.nrows);
    const c = bisect(this.colX, cx - x0, s.ncols);
    if (r < 0 || c < 0) return null;
    if (cy - y0 >= this.rowY[r] + this.ch || cx - x0 >= this.colX[c] + this.cw) return null;
    const sub = Math.min(this.sub - 1, Math.floor((cx - x0 - this.colX[c]) / this.sw));
    return { kind: "cell", t, r, c, s: sub };
  }

  _ctx(canvas) {
    const ctx = canvas.getContext("2d");
    ctx.setTransform(DPR(), 0, 0, DPR(), 0, 0);
    return ctx;
  }

  // fill(key) -> colour string or null (empty); text(key) -> string or null; mark(key) -> bool
  draw(fill, text, mark) {
    this.setFns(fill, text, mark);
    this.paint();
  }

  // the drawing functions without painting (fit() needs the text to size the cells)
  setFns(fill, text, mark) {
    this.fns = { fill, text, mark };
  }

  // the width of the longest cell text in px per px of font size (0: no text), measured
  // once per set of drawing functions
  widestText() {
    const fns = this.fns;
    if (!fns || !fns.text) return 0;
    if (fns.widest === undefined) {
      // the longest text of any cell (monospace: the longest string is the widest)
      const s = this.spec, n = s.ntiles * s.nrows * s.ncols * this.sub;
      let longest = "", part = "";
      for (let key = 0; key < n; key++) {
        const t = fns.text(key);
        if (!t) continue;
        if (t.length > longest.length) longest = t;
        const [a, b] = splitLabel(t);
        if (b !== null && Math.max(a.length, b.length) > part.length) part = a.length >= b.length ? a : b;
      }
      fns.widest = longest ? textWidth(longest, `100px ${CELL_FONT}`) / 100 : 0;
      // the widest line when every "i,j" text is written on two lines ("i," over "j")
      fns.widestLine = part ? textWidth(part, `100px ${CELL_FONT}`) / 100 : 0;
    }
    return fns.widest;
  }

  // repaint the visible part (after a scroll or a zoom)
  paint() {
    if (!this.fns) return;
    const ctx = this._ctx(this.canvas);
    this.render(ctx, this.sx, this.sy, this.vw, this.vh);
    this._paintOverlay();
  }

  // visible index ranges of one tile inside the region
  _ranges(t, x0, y0, w, h) {
    const s = this.spec;
    const tx = this.tileX[t], ty = this.tileY[t];
    if (tx > x0 + w || tx + this.tileW < x0 || ty - this.header > y0 + h || ty + this.tileH < y0) return null;
    const r0 = Math.max(0, bisect(this.rowY, y0 - ty, s.nrows));
    const r1 = Math.min(s.nrows - 1, Math.max(0, bisect(this.rowY, y0 + h - ty, s.nrows)));
    const c0 = Math.max(0, bisect(this.colX, x0 - tx, s.ncols));
    const c1 = Math.min(s.ncols - 1, Math.max(0, bisect(this.colX, x0 + w - tx, s.ncols)));
    return [r0, r1, c0, c1];
  }

  // draw the content region [x0, x0+w) x [y0, y0+h) into ctx at (0, 0); labels as frozen
  // bands along the region's left and top edges
  // opts: {highlight: draw the highlight (rings; dimmed others when `dim`), theme}
  render(ctx, x0, y0, w, h, opts = {}) {
    const s = this.spec;
    const { fill, text, mark } = this.fns;
    const th = opts.theme || state.theme;
    const boxes = [];  // every text drawn: [x, y, w, h, kind, cellRect?] in region coordinates
    ctx.save();
    ctx.fillStyle = th.bg;
    ctx.fillRect(0, 0, w, h);
    ctx.translate(-x0, -y0);
    const gap = this.ch >= 6 ? 1 : 0;
    const subGap = this.sw >= 10 ? 1 : 0;
    const px = this.labelPx();  // one text size for the whole grid; 0: no cell text
    const lines = this.labelLines();
    const th2 = lines === 2 ? px * LINE_HEIGHT + px : px;  // the text block's height
    ctx.textBaseline = "middle";
    const showText = text && px > 0;
    // a cell's text is drawn only where it is whole: inside the region, clear of the
    // frozen label bands (drawn over the cells once scrolled)
    const labels = s.labels !== false;
    const tx0 = x0 + (labels && x0 > 0 ? this.marginL : 0), ty0 = y0 + (labels && y0 > 0 ? this.marginT : 0);
    const whole = (x, y, cw) => x >= tx0 - 0.01 && x + cw <= x0 + w + 0.01 && y >= ty0 - 0.01 && y + this.ch <= y0 + h + 0.01;
    const stats = { px, filled: 0, labelled: 0 };  // filled: non-empty cells shown whole
    for (let t = 0; t < s.ntiles; t++) {
      const rg = this._ranges(t, x0, y0, w, h);
      if (!rg) continue;
      const [r0, r1, c0, c1] = rg;
      const tx = this.tileX[t], ty = this.tileY[t];
      if (this.header) {
        // the tile's label, or its short form, whole and inside the region; else none
        ctx.fillStyle = th.head;
        ctx.textAlign = "left";
        ctx.textBaseline = "middle";
        ctx.font = HEAD_FONT;
        const room = Math.min(this.tileW + GAP_T - 4, x0 + w - tx);
        let label = s.tileLabel(t);
        if (s.tileShort && ctx.measureText(label).width > room) label = s.tileShort(t);
        const lw = ctx.measureText(label).width;
        const top = ty - 8 - 6;
        if (label && lw <= room && tx >= x0 && top >= y0 && top + 12 <= y0 + h) {
          ctx.fillText(label, tx, ty - 8);
          boxes.push([tx - x0, top - y0, lw, 12, "tile"]);
        }
      }
      ctx.fillStyle = gap ? th.bg : th.tileBg;
      ctx.fillRect(tx, ty, this.tileW, this.tileH);
      for (let r = r0; r <= r1; r++) {
        const y = ty + this.rowY[r];
        for (let c = c0; c <= c1; c++) {
          const xc = tx + this.colX[c];
          for (let k = 0; k < this.sub; k++) {
            const key = ((t * s.nrows + r) * s.ncols + c) * this.sub + k;
            const col = fill(key);
            ctx.fillStyle = col || th.empty;
            const last = k === this.sub - 1;
            ctx.fillRect(xc + k * this.sw, y, this.sw - (last ? gap : subGap), this.ch - gap);
            if (mark && mark(key)) {
              ctx.fillStyle = "#b91c1c";
              ctx.beginPath();
              const x1 = xc + (k + 1) * this.sw - gap;
              ctx.moveTo(x1 - Math.max(3, this.sw / 3), y);
              ctx.lineTo(x1, y);
              ctx.lineTo(x1, y + Math.max(3, this.ch / 3));
              ctx.fill();
            }
            // counted and labelled: the non-empty cells the region shows whole
            if (!col || !whole(xc + k * this.sw, y, this.sw)) continue;
            stats.filled++;
            if (showText) {
              const lw = this._label(ctx, text(key), xc + k * this.sw, y, this.sw, px, th, lines);
              if (lw) {
                stats.labelled++;
                if (this.audit) boxes.push([xc + k * this.sw + (this.sw - lw) / 2 - x0, y + (this.ch - th2) / 2 - y0, lw, th2, "cell", [xc + k * this.sw - x0, y - y0, this.sw - (k === this.sub - 1 ? gap : subGap), this.ch - gap]]);
              }
            }
          }
        }
      }
    }
    if (opts.highlight) this._highlight(ctx, x0, y0, w, h, th, !!opts.dim);
    ctx.restore();
    this._labels(ctx, x0, y0, w, h, th, boxes);
    stats.boxes = boxes;
    this.painted = stats;
  }

  // a cell's text at the grid's one label size (on two lines when labelLines() says so);
  // its width (0: nothing drawn)
  _label(ctx, label, x, y, w, size, th = state.theme, lines = 1) {
    if (!label) return 0;
    ctx.font = `${size}px ${CELL_FONT}`;
    ctx.fillStyle = th.text;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const [a, b] = lines === 2 ? splitLabel(label) : [label, null];
    if (b === null) {
      ctx.fillText(label, x + w / 2, y + this.ch / 2 + 0.5);
      return ctx.measureText(label).width || 1;
    }
    const dy = (size * LINE_HEIGHT) / 2;
    ctx.fillText(a, x + w / 2, y + this.ch / 2 - dy + 0.5);
    ctx.fillText(b, x + w / 2, y + this.ch / 2 + dy + 0.5);
    return Math.max(ctx.measureText(a).width, ctx.measureText(b).width) || 1;
  }

  // the full cell-text size for cells ch px high
  _cellSize(ch = this.ch) { return Math.max(8, Math.min(13, Math.floor(ch * 0.42))); }

  // the label size in (sub-)cells sw x ch: the largest up to _cellSize(ch) at which the
  // widest label fits the width; 0 when that is below MIN_LABEL_PX or cells are too low
  _pxFor(sw, ch) { return this._textFit(sw, ch).px; }

  // {px, lines}: one line as _pxFor says; else, for "i,j" texts in narrow cells (a bank
  // word's half), two lines ("i," over "j") when they fit at MIN_LABEL_PX or more
  _textFit(sw, ch) {
    const widest = this.widestText();
    if (!widest || ch < TEXT_CELL) return { px: 0, lines: 1 };
    const px = Math.min(this._cellSize(ch), Math.floor((sw - 3) / widest + 1e-9));
    if (px >= MIN_LABEL_PX) return { px, lines: 1 };
    const line = this.fns.widestLine;
    if (!this.spec.twoLines || !line) return { px: 0, lines: 1 };
    const px2 = Math.min(this._cellSize(ch), Math.floor((ch - 2) / (2 * LINE_HEIGHT)), Math.floor((sw - 3) / line + 1e-9));
    return px2 >= MIN_LABEL_PX ? { px: px2, lines: 2 } : { px: 0, lines: 1 };
  }

  // 1 or 2: how the cell texts are written at the current size
  labelLines() {
    if (!this.fns || !this.fns.text || this.ch < TEXT_CELL) return 1;
    return this._textFit(this.sw, this.ch).lines;
  }

  // The cell-text size of the whole grid: the largest (up to _cellSize()) at which the
  // widest label of the grid fits one cell (a rectangle: sw x ch), so that every cell is
  // labelled at the same size; 0 (no cell text anywhere) when that is below MIN_LABEL_PX
  // or cells are small.
  labelPx() {
    if (!this.fns || !this.fns.text || this.ch < TEXT_CELL) return 0;
    return this._pxFor(this.sw, this.ch);
  }

  // the zoom indicator's text: "22 px" for square cells, "30x22 px" (width x height) else
  sizeText() {
    const h = +this.ch.toFixed(2), w = +this.sw.toFixed(2);
    return w === h ? `${h} px` : `${w}x${h} px`;
  }

  // column labels: every one when the widest fits a column (3 px apart), else a
  // power-of-two subsample
  colStep() { return labelStep(this.cw, this.colLabelW + 3); }

  // The frozen label bands (region coordinates): row labels right-aligned in the left band,
  // column labels centred in the top band. A label is drawn whole or not at all: never
  // squeezed, never cut by the region's edges or the corner, never over its neighbour
  // (every 2nd, 4th, ... label when they do not all fit).
  _labels(ctx, x0, y0, w, h, th = state.theme, boxes = []) {
    const s = this.spec;
    if (s.labels === false) return;
    ctx.save();
    ctx.font = LABEL_FONT;
    ctx.fillStyle = th.band;
    if (y0 > 0) ctx.fillRect(0, 0, w, this.marginT);
    if (x0 > 0) ctx.fillRect(0, 0, this.marginL, h);
    ctx.fillStyle = th.label;
    const half = LABEL_PX / 2;
    if (s.rowLabel) {
      const step = labelStep(this.ch, LABEL_PX + 2);
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      for (let i = 0; i < this.tileRows; i++) {
        const t = this.tileInRow(i);
        if (t < 0) continue;
        const ty = this.tileY[t] - y0;
        if (ty > h || ty + this.tileH < 0) continue;
        for (let r = 0; r < s.nrows; r += step) {
          const y = ty + this.rowY[r] + this.ch / 2;
          if (y - half < this.marginT || y + half > h) continue;
          const label = s.rowLabel(r);
          if (label === null || label === undefined || label === "") continue;
          const lw = ctx.measureText(label).width;
          if (lw > this.marginL - 6) continue;
          ctx.fillText(label, this.marginL - 4, y);
          boxes.push([this.marginL - 4 - lw, y - half, lw, LABEL_PX, "row"]);
        }
      }
    }
    if (s.colLabel) {
      const step = this.colStep();
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      const cols = s.ntiles === 1 ? 1 : this.perRow;
      for (let j = 0; j < cols; j++) {
        const tx = this.marginL + j * (this.tileW + GAP_T) - x0;
        if (tx > w || tx + this.tileW < 0) continue;
        for (let c = 0; c < s.ncols; c += step) {
          const x = tx + this.colX[c] + this.cw / 2;
          const label = s.colLabel(c);
          if (label === null || label === undefined || label === "") continue;
          const lw = ctx.measureText(label).width;
          if (x - lw / 2 < this.marginL || x + lw / 2 > w) continue;
          ctx.fillText(label, x, this.marginT - 2);
          boxes.push([x - lw / 2, this.marginT - 2 - LABEL_PX, lw, LABEL_PX, "col"]);
        }
      }
    }
    ctx.fillStyle = th.bg;
    if (x0 > 0 || y0 > 0) ctx.fillRect(0, 0, this.marginL, this.marginT);
    ctx.restore();
  }

  // Texts that overlap each other, leave the canvas, or leave their cell, in the last paint
  // (this.audit must have been set before it): [] when every text is readable.
  textProblems() {
    const boxes = (this.painted && this.painted.boxes) || [];
    const out = [];
    const eps = 0.5;
    const inside = (b, r) => b[0] >= r[0] - eps && b[1] >= r[1] - eps && b[0] + b[2] <= r[0] + r[2] + eps && b[1] + b[3] <= r[1] + r[3] + eps;
    for (const b of boxes) {
      if (!inside(b, [0, 0, this.vw, this.vh])) out.push({ problem: "outside the canvas", box: b.slice(0, 5) });
      if (b[4] === "cell" && !inside(b, b[5])) out.push({ problem: "outside its cell", box: b.slice(0, 6) });
    }
    // labels against each other (cell texts are inside distinct cells, checked above)
    const labels = boxes.filter((b) => b[4] !== "cell").sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i];
      for (let k = i + 1; k < labels.length && labels[k][0] < a[0] + a[2] - eps; k++) {
        const b = labels[k];
        if (b[1] < a[1] + a[3] - eps && a[1] < b[1] + b[3] - eps) out.push({ problem: "labels overlap", a: a.slice(0, 5), b: b.slice(0, 5) });
      }
    }
    return out;
  }

  // cells: iterable of keys; colour(key) -> fill; primary: a key to ring more strongly
  highlight(cells, colour, primary = -1, wholeCells = false) {
    this.hl = cells && cells.length ? { cells, colour, primary, wholeCells } : null;
    this._paintOverlay();
  }

  _paintOverlay() {
    const ctx = this._ctx(this.overlay);
    ctx.clearRect(0, 0, this.vw, this.vh);
    if (!this.hl) return;
    ctx.save();
    if (this.spec.labels !== false) {  // keep the frozen label bands readable
      ctx.beginPath();
      ctx.rect(this.marginL, this.marginT, this.vw, this.vh);
      ctx.clip();
    }
    ctx.translate(-this.sx, -this.sy);
    this._highlight(ctx, this.sx, this.sy, this.vw, this.vh, state.theme, true);
    ctx.restore();
  }

  // the highlight: other cells dimmed (when `dim`), the highlighted ones redrawn and ringed
  _highlight(ctx, x0, y0, w, h, th = state.theme, dim = true) {
    const hl = this.hl;
    if (!hl) return;
    if (dim) {
      ctx.fillStyle = th.dim;
      ctx.fillRect(x0, y0, w, h);
    }
    const g = this.ch >= 6 ? 1 : 0;
    const rects = [];
    for (const key of hl.cells) {
      const [x, y, cw, ch] = hl.wholeCells ? this.cellRect(...this.unkey(key).slice(0, 3)) : this.keyRect(key);
      if (x > x0 + w || x + cw < x0 || y > y0 + h || y + ch < y0) continue;
      rects.push([key, x, y, cw, ch]);
    }
    ctx.strokeStyle = th.ring;
    ctx.lineWidth = 1;
    for (const [, x, y, cw, ch] of rects) ctx.strokeRect(x - 0.5, y - 0.5, cw + 1 - g, ch + 1 - g);
    const px = this.labelPx();
    const text = px > 0 ? this.fns.text : null;
    for (const [key, x, y, cw, ch] of rects) {
      if (hl.wholeCells && this.sub > 1) {  // a whole bank word: each element in it
        const subGap = this.sw >= 10 ? 1 : 0;
        for (let k = 0; k < this.sub; k++) {
          const col = hl.colour(key + k);
          ctx.fillStyle = col || th.empty;
          ctx.fillRect(x + k * this.sw, y, this.sw - (k === this.sub - 1 ? g : subGap), ch - g);
          if (text && col) this._label(ctx, text(key + k), x + k * this.sw, y, this.sw, px, th, this.labelLines());
        }
        continue;
      }
      const col = hl.colour(key);
      ctx.fillStyle = col || th.empty;
      ctx.fillRect(x, y, cw - g, ch - g);
      if (text && col) this._label(ctx, text(key), x, y, cw, px, th, this.labelLines());
    }
    if (hl.primary >= 0) {
      const [x, y, cw, ch] = this.keyRect(hl.primary);
      ctx.strokeStyle = th.primary;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1.5, y - 1.5, cw + 2, ch + 2);
    }
  }

  // centre of a cell in content css pixels
  centre(key, whole = false) {
    const [x, y, w, h] = whole ? this.cellRect(...this.unkey(key).slice(0, 3)) : this.keyRect(key);
    return [x + w / 2, y + h / 2];
  }

  // content point -> visible-box point
  toView(x, y) { return [x - this.sx, y - this.sy]; }

  visible(key) {
    const [x, y, w, h] = this.keyRect(key);
    const vx = x - this.sx, vy = y - this.sy;
    return vx >= this.marginL - 1 && vy >= this.marginT - 1 && vx + w <= this.vw + 1 && vy + h <= this.vh + 1;
  }

  // scroll so that the cell is visible (centred when it was not); repaints synchronously
  reveal(key) {
    if (this.visible(key)) return false;
    const [x, y, w, h] = this.keyRect(key);
    const sc = this.els.scroll;
    sc.scrollLeft = Math.max(0, x + w / 2 - (this.vw + this.marginL) / 2);
    sc.scrollTop = Math.max(0, y + h / 2 - (this.vh + this.marginT) / 2);
    this.paint();
    return true;
  }
}
