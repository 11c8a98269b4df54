// Grid zoom: the cell size that fits a box (fit), the cells' aspect (widen), tiles per row
// for a chosen zoom (wrap), laying out for a box (setBox) and scrolling a cell into view.
// Methods of Grid (grid.js); `this` is the grid.
import { MIN_CELL, scrollbarSize } from "./gridgeometry.js";
import { TEXT_CELL } from "./gridtext.js";

export const MAX_FIT = 36;
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 36, 42, 48, 56, 64];
export const MAX_ASPECT = 3;   // cell width / height at most

// the number of items per row (1..n) that divide n
function divisors(n) {
  const out = [];
  for (let k = 1; k <= n; k++) if (n % k === 0) out.push(k);
  return out;
}

export const zoom = {
  // the largest square cell (minFit..MAX_FIT) at which everything fits the box, and the
  // tiles per row for it; when nothing fits, the smallest cell with the least overflow
  // (raw: the cell at which it would fit, below minFit too; visible: the part of the
  // content the box shows, 1 when it all fits).
  // Wrapped tiles prefer a count per row that divides the number of tiles (full rows,
  // 8 tiles as 2 x 4, not 3 + 3 + 2) unless another count gives clearly bigger cells.
  // Then the cells are widened into spare width when their labels need it (widen()):
  // {c: height, k, a: aspect, w, h, visible, rows: every row in view}.
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
    // every row in view (the columns may scroll, under a scroll bar)
    const rows = h <= boxH - (w > boxW ? scrollbarSize() : 0);
    return { ...best, a, w, h, visible, rows };
  },

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
  },

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
  },

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
  },

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
  },

  // scroll so that the cell is visible (centred when it was not); repaints synchronously
  reveal(key) {
    if (this.visible(key)) return false;
    const [x, y, w, h] = this.keyRect(key);
    const sc = this.els.scroll;
    sc.scrollLeft = Math.max(0, x + w / 2 - (this.vw + this.marginL) / 2);
    sc.scrollTop = Math.max(0, y + h / 2 - (this.vh + this.marginT) / 2);
    this.paint();
    return true;
  },

  // the zoom indicator's text: "22 px" for square cells, "30x22 px" (width x height) else
  sizeText() {
    const h = +this.ch.toFixed(2), w = +this.sw.toFixed(2);
    return w === h ? `${h} px` : `${w}x${h} px`;
  },
};
