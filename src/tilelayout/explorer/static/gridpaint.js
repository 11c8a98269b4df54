// Grid painting: the visible region's tiles, cells and their texts, and the frozen
// row / column label bands. Methods of Grid (grid.js); `this` is the grid.
import { DPR, GAP_T } from "./gridgeometry.js";
import { HEAD_FONT, LABEL_FONT, LABEL_PX, LINE_HEIGHT } from "./gridtext.js";
import { state } from "./state.js";

export const painting = {
  _ctx(canvas) {
    const ctx = canvas.getContext("2d");
    ctx.setTransform(DPR(), 0, 0, DPR(), 0, 0);
    return ctx;
  },

  // fill(key) -> colour string or null (empty); text(key) -> string or null; mark(key) -> bool
  draw(fill, text, mark) {
    this.setFns(fill, text, mark);
    this.paint();
  },

  // the blank between cells and between the sub-cells of a cell, in px
  gaps() { return [this.ch >= 6 ? 1 : 0, this.sw >= 10 ? 1 : 0]; },

  // the name tile t gets in a region whose right edge is at `right`: [1, its label],
  // [2, its short label] when only that fits, [0, ""] when neither does (ctx: HEAD_FONT).
  // One rule for the grid, so that neighbours read alike: every tile its label ("warpid 5")
  // when every label fits its tile, else the first tile of each row of tiles its label
  // (it names the axis) and the others their short one ("warpid 5", "6", "9", "10").
  headForm(ctx, t, right) {
    const s = this.spec;
    ctx.font = HEAD_FONT;
    const label = s.tileLabel(t);
    if (!label) return [0, ""];
    const room = (u, r) => Math.min(this.tileW + GAP_T - 4, r - this.tileX[u]);
    const full = this._allHeadsFit(ctx, room) || this._firstInTileRow(t);
    if (full && ctx.measureText(label).width <= room(t, right)) return [1, label];
    const short = s.tileShort ? s.tileShort(t) : "";
    return short && ctx.measureText(short).width <= room(t, right) ? [2, short] : [0, ""];
  },

  // whether every tile's label fits its tile in the whole grid (kept for the layout)
  _allHeadsFit(ctx, room) {
    const at = `${this.tileW},${this.width}`;
    if (this._heads && this._heads.at === at) return this._heads.all;
    let all = true;
    for (let u = 0; u < this.spec.ntiles && all; u++) {
      all = ctx.measureText(this.spec.tileLabel(u)).width <= room(u, this.width);
    }
    this._heads = { at, all };
    return all;
  },

  _firstInTileRow(t) {
    const s = this.spec;
    const i = s.mesh ? s.mesh.place(t)[0] : Math.floor(t / this.perRow);
    return this.tileInRow(i) === t;
  },

  // the drawing functions without painting (fit() needs the text to size the cells)
  setFns(fill, text, mark) {
    this.fns = { fill, text, mark };
  },

  // repaint the visible part (after a scroll or a zoom)
  paint() {
    if (!this.fns) return;
    const ctx = this._ctx(this.canvas);
    this.render(ctx, this.sx, this.sy, this.vw, this.vh);
    this._paintOverlay();
  },

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
    const [gap, subGap] = this.gaps();
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
        const [form, label] = this.headForm(ctx, t, x0 + w);
        const lw = ctx.measureText(label).width;
        const top = ty - 8 - 6;
        if (form && tx >= x0 && top >= y0 && top + 12 <= y0 + h) {
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
              ctx.fillStyle = th.mark;
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
  },

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
      const step = this.rowStep();
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
  },
};
