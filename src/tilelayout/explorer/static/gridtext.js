// Grid text fitting: measuring texts, the one cell-text size (and one or two lines) of a
// grid, label subsampling, drawing a cell's text, and the audit of what was drawn.
// Methods of Grid (grid.js); `this` is the grid.
import { state } from "./state.js";

export const LABEL_PX = 10;  // row / column label font size
export const LABEL_FONT = `${LABEL_PX}px ui-monospace, monospace`;
export const HEAD_FONT = "600 11px system-ui, sans-serif";
export const CELL_FONT = "ui-monospace, monospace";
export const MIN_LABEL_PX = 7;   // cell text below this size is not drawn at all
export const TEXT_CELL = 14;     // nor in cells lower than this
export const LINE_HEIGHT = 1.15;  // of two-line cell texts, in font sizes

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

// "i,j" -> ["i,", "j"] (where a cell text breaks onto two lines); [text, null] without a comma
export function splitLabel(text) {
  const k = text.lastIndexOf(",");
  return k < 0 ? [text, null] : [text.slice(0, k + 1), text.slice(k + 1)];
}

// the widest of n labels label(i), in px of `font` (all of them when n is moderate,
// else a spread sample plus the last)
export function widestLabel(n, label, font) {
  let widest = 0;
  const step = Math.max(1, Math.floor(n / 1024));
  for (let i = 0; i < n; i += step) widest = Math.max(widest, textWidth(String(label(i) ?? ""), font));
  if (n) widest = Math.max(widest, textWidth(String(label(n - 1) ?? ""), font));
  return widest;
}

export const textFitting = {
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
  },

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
  },

  // the full cell-text size for cells ch px high
  _cellSize(ch = this.ch) { return Math.max(8, Math.min(13, Math.floor(ch * 0.42))); },

  // the label size in (sub-)cells sw x ch: the largest up to _cellSize(ch) at which the
  // widest label fits the width; 0 when that is below MIN_LABEL_PX or cells are too low
  _pxFor(sw, ch) { return this._textFit(sw, ch).px; },

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
  },

  // 1 or 2: how the cell texts are written at the current size
  labelLines() {
    if (!this.fns || !this.fns.text || this.ch < TEXT_CELL) return 1;
    return this._textFit(this.sw, this.ch).lines;
  },

  // The cell-text size of the whole grid: the largest (up to _cellSize()) at which the
  // widest label of the grid fits one cell (a rectangle: sw x ch), so that every cell is
  // labelled at the same size; 0 (no cell text anywhere) when that is below MIN_LABEL_PX
  // or cells are small.
  labelPx() {
    if (!this.fns || !this.fns.text || this.ch < TEXT_CELL) return 0;
    return this._pxFor(this.sw, this.ch);
  },

  // column labels: every one when the widest fits a column (3 px apart), else a
  // power-of-two subsample
  colStep() { return labelStep(this.cw, this.colLabelW + 3); },

  // row labels: every one when a row is a label high (and 2 px), else a subsample
  rowStep() { return labelStep(this.ch, LABEL_PX + 2); },

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
  },
};
