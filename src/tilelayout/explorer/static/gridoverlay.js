// Grid overlay: the highlight (other cells dimmed, the highlighted ones redrawn and
// ringed, the primary one ringed more strongly) on the overlay canvas, or into an export.
// Methods of Grid (grid.js); `this` is the grid.
import { state } from "./state.js";

export const overlay = {
  // cells: iterable of keys; colour(key) -> fill; primary: a key to ring more strongly
  highlight(cells, colour, primary = -1, wholeCells = false) {
    this.hl = cells && cells.length ? { cells, colour, primary, wholeCells } : null;
    this._paintOverlay();
  },

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
  },

  // the highlight: other cells dimmed (when `dim`), the highlighted ones redrawn and ringed
  _highlight(ctx, x0, y0, w, h, th = state.theme, dim = true) {
    const hl = this.hl;
    if (!hl) return;
    if (dim) {
      ctx.fillStyle = th.dim;
      ctx.fillRect(x0, y0, w, h);
    }
    const [g, subGap] = this.gaps();
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
  },
};
