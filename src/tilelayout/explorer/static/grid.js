// A canvas grid of tiles x rows x columns x sub-cells, with an overlay for highlights.
// It knows geometry and drawing only; which element sits in which cell is decided by
// the caller from the library's answer (the JSON API).

const DPR = () => Math.max(1, Math.min(3, window.devicePixelRatio || 1));
const EMPTY = "#efedea";
const TILE_BG = "#e7e5e4";
export const HIGHLIGHT_DIM = "rgba(255,255,255,0.68)";

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
  // the end position sits right after the last cell
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

function labelStep(cell, minPx) {
  let step = 1;
  while (step * cell < minPx) step *= 2;
  return step;
}

export class Grid {
  // spec: {ntiles, nrows, ncols, sub, rowRadix, colRadix, gaps, tileLabel(t), rowLabel(r),
  //        colLabel(c), mesh: {rows, cols, place(t) -> [i, j]} | null, availWidth, maxHeight,
  //        maxCell, labels: bool}
  constructor(canvas, overlay, spec) {
    this.canvas = canvas;
    this.overlay = overlay;
    this.spec = spec;
    this.layout();
  }

  layout() {
    const s = this.spec;
    const sub = s.sub || 1;
    const cols = s.ncols * sub;
    const tiled = s.ntiles > 1 || (s.tileLabel && s.tileLabel(0));
    const header = tiled ? 16 : 0;
    const maxCell = s.maxCell || 26;
    const gapT = 10;
    const avail = Math.max(120, s.availWidth);
    const marginL = s.labels === false ? 2 : 30;
    const marginT = s.labels === false ? 2 : 16;
    const extra = (radices) => (s.gaps && radices.length > 1
      ? positions(radices, 0, true)[radices.reduce((a, b) => a * b, 1) - 1] : 0);
    const gapW = extra(s.colRadix || [s.ncols]);
    const gapH = extra(s.rowRadix || [s.nrows]);
    let best = null;
    const candidates = [];
    if (s.mesh) candidates.push(s.mesh.cols.length);
    else for (let k = 1; k <= Math.min(s.ntiles, 64); k++) candidates.push(k);
    for (const k of candidates) {
      const usable = avail - marginL - (k - 1) * gapT - k * gapW - 4;
      let cell = Math.floor(usable / (k * cols));
      cell = Math.max(1, Math.min(maxCell, cell));
      const tileRows = s.mesh ? s.mesh.rows.length : Math.ceil(s.ntiles / k);
      const h = marginT + tileRows * (s.nrows * cell + gapH + header + gapT);
      const w = marginL + k * (cols * cell + gapW) + (k - 1) * gapT;
      const score = { k, cell, h, w };
      if (!best) best = score;
      else {
        const fitsB = best.h <= s.maxHeight, fitsS = h <= s.maxHeight;
        if (fitsS && (!fitsB || cell > best.cell || (cell === best.cell && h < best.h))) best = score;
        else if (!fitsS && !fitsB && h < best.h) best = score;
      }
    }
    let cell = best.cell;
    const sw = cell; // width of one sub-cell
    this.sub = sub;
    this.sw = sw;
    this.cw = sw * sub;
    this.ch = cell;
    this.rowY = positions(s.rowRadix || [s.nrows], cell, s.gaps);
    this.colX = positions(s.colRadix || [s.ncols], this.cw, s.gaps);
    const tileW = this.colX[s.ncols];
    const tileH = this.rowY[s.nrows];
    this.tileW = tileW; this.tileH = tileH;
    this.tileX = new Float64Array(s.ntiles);
    this.tileY = new Float64Array(s.ntiles);
    const perRow = best.k;
    for (let t = 0; t < s.ntiles; t++) {
      const [i, j] = s.mesh ? s.mesh.place(t) : [Math.floor(t / perRow), t % perRow];
      this.tileX[t] = marginL + j * (tileW + gapT);
      this.tileY[t] = marginT + header + i * (tileH + header + gapT);
    }
    const tileRows = s.mesh ? s.mesh.rows.length : Math.ceil(s.ntiles / perRow);
    this.header = header;
    this.perRow = perRow;
    this.marginL = marginL; this.marginT = marginT;
    this.width = Math.ceil(marginL + perRow * tileW + (perRow - 1) * gapT + 4);
    this.height = Math.ceil(marginT + tileRows * (tileH + header + gapT));
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(this.width * DPR());
      c.height = Math.round(this.height * DPR());
      c.style.width = `${this.width}px`;
      c.style.height = `${this.height}px`;
    }
  }

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

  // what is under css pixel (x, y): {kind: "cell"|"tile"|"row"|"col", t, r, c, s}
  hit(x, y) {
    const s = this.spec;
    for (let t = 0; t < s.ntiles; t++) {
      const x0 = this.tileX[t], y0 = this.tileY[t];
      if (x >= x0 && x < x0 + this.tileW && y >= y0 - this.header && y < y0 && this.header) {
        return { kind: "tile", t };
      }
      if (x >= x0 && x < x0 + this.tileW && y >= y0 && y < y0 + this.tileH) {
        const r = bisect(this.rowY, y - y0, s.nrows);
        const c = bisect(this.colX, x - x0, s.ncols);
        if (r < 0 || c < 0) return null;
        if (y - y0 >= this.rowY[r] + this.ch || x - x0 >= this.colX[c] + this.cw) return null;
        const sub = Math.min(this.sub - 1, Math.floor((x - x0 - this.colX[c]) / this.sw));
        return { kind: "cell", t, r, c, s: sub };
      }
    }
    // row labels left of the first tile column, column labels above the first tile row
    if (x < this.marginL && s.rowLabel) {
      for (let t = 0; t < s.ntiles; t++) {
        const y0 = this.tileY[t];
        if (y >= y0 && y < y0 + this.tileH) {
          const r = bisect(this.rowY, y - y0, s.nrows);
          if (r >= 0) return { kind: "row", t, r };
        }
      }
    }
    if (y < this.marginT + (this.header ? 0 : 0) && y >= 0 && s.colLabel) {
      const x0 = this.tileX[0];
      if (x >= x0 && x < x0 + this.tileW) {
        const c = bisect(this.colX, x - x0, s.ncols);
        if (c >= 0) return { kind: "col", t: 0, c };
      }
    }
    return null;
  }

  _ctx(canvas) {
    const ctx = canvas.getContext("2d");
    ctx.setTransform(DPR(), 0, 0, DPR(), 0, 0);
    return ctx;
  }

  // fill(key) -> colour string or null (empty); text(key) -> string or null; mark(key) -> bool
  draw(fill, text, mark) {
    const s = this.spec;
    const ctx = this._ctx(this.canvas);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, this.width, this.height);
    const gap = this.ch >= 6 ? 1 : 0;
    const subGap = this.sw >= 10 ? 1 : 0;
    ctx.font = `${Math.max(8, Math.min(11, this.ch - 6))}px ui-monospace, monospace`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const showText = text && this.ch >= 12;
    for (let t = 0; t < s.ntiles; t++) {
      const x0 = this.tileX[t], y0 = this.tileY[t];
      if (this.header) {
        ctx.fillStyle = "#44403c";
        ctx.textAlign = "left";
        ctx.font = "11px system-ui, sans-serif";
        ctx.fillText(s.tileLabel(t), x0, y0 - 8, Math.max(40, this.tileW));
        ctx.textAlign = "center";
        ctx.font = `${Math.max(8, Math.min(11, this.ch - 6))}px ui-monospace, monospace`;
      }
      ctx.fillStyle = gap ? "#ffffff" : TILE_BG;
      ctx.fillRect(x0, y0, this.tileW, this.tileH);
      for (let r = 0; r < s.nrows; r++) {
        const y = y0 + this.rowY[r];
        for (let c = 0; c < s.ncols; c++) {
          const xc = x0 + this.colX[c];
          for (let k = 0; k < this.sub; k++) {
            const key = ((t * s.nrows + r) * s.ncols + c) * this.sub + k;
            const col = fill(key);
            ctx.fillStyle = col || EMPTY;
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
            if (showText && col) {
              const label = text(key);
              if (label && ctx.measureText(label).width <= this.sw - 3) {
                ctx.fillStyle = "#1c1917";
                ctx.fillText(label, xc + k * this.sw + this.sw / 2, y + this.ch / 2 + 0.5);
              }
            }
          }
        }
      }
    }
    this.drawLabels(ctx);
  }

  drawLabels(ctx) {
    const s = this.spec;
    if (s.labels === false) return;
    ctx.fillStyle = "#78716c";
    ctx.font = "10px ui-monospace, monospace";
    if (s.rowLabel) {
      const step = labelStep(this.ch, 12);
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      const firstCol = new Set();
      for (let t = 0; t < s.ntiles; t++) {
        if (firstCol.has(this.tileY[t])) continue;
        firstCol.add(this.tileY[t]);
        for (let r = 0; r < s.nrows; r += step) {
          const text = s.rowLabel(r);
          if (text !== null) ctx.fillText(text, this.marginL - 4, this.tileY[t] + this.rowY[r] + this.ch / 2, this.marginL - 4);
        }
      }
    }
    if (s.colLabel) {
      const step = labelStep(this.cw, 20);
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      const y = this.marginT - 13;
      for (let j = 0; j < this.perRow; j++) {
        const x0 = this.marginL + j * (this.tileW + 10);
        for (let c = 0; c < s.ncols; c += step) {
          const text = s.colLabel(c);
          if (text !== null) ctx.fillText(text, x0 + this.colX[c] + this.cw / 2, y + 12 - 1);
        }
        if (!s.mesh && s.ntiles === 1) break;
        if (s.mesh) break;
      }
    }
  }

  // cells: iterable of keys; colour(key) -> fill; primary: a key to ring more strongly
  highlight(cells, colour, primary = -1, wholeCells = false) {
    const ctx = this._ctx(this.overlay);
    ctx.clearRect(0, 0, this.width, this.height);
    if (!cells || cells.length === 0) return;
    ctx.fillStyle = HIGHLIGHT_DIM;
    ctx.fillRect(0, 0, this.width, this.height);
    const rects = [];
    for (const key of cells) {
      rects.push([key, wholeCells ? this.cellRect(...this.unkey(key).slice(0, 3)) : this.keyRect(key)]);
    }
    ctx.strokeStyle = "#111111";
    ctx.lineWidth = 1;
    for (const [, [x, y, w, h]] of rects) ctx.strokeRect(x - 0.5, y - 0.5, w + 1 - (this.ch >= 6 ? 1 : 0), h + 1 - (this.ch >= 6 ? 1 : 0));
    for (const [key, [x, y, w, h]] of rects) {
      const g = this.ch >= 6 ? 1 : 0;
      ctx.fillStyle = colour(key) || EMPTY;
      ctx.fillRect(x, y, w - g, h - g);
    }
    if (primary >= 0) {
      const [x, y, w, h] = this.keyRect(primary);
      ctx.strokeStyle = "#2563eb";
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1.5, y - 1.5, w + 2, h + 2);
    }
  }

  // centre of a cell in css pixels relative to the canvas
  centre(key, whole = false) {
    const [x, y, w, h] = whole ? this.cellRect(...this.unkey(key).slice(0, 3)) : this.keyRect(key);
    return [x + w / 2, y + h / 2];
  }
}
