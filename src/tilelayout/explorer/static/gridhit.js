// Grid hit-testing: what is under a point of the visible box (a cell, a tile header, a
// row or column label). A method of Grid (grid.js); `this` is the grid.
import { bisect, GAP_T } from "./gridgeometry.js";

export const hitTesting = {
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
  },
};
