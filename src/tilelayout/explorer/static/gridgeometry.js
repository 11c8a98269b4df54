// Grid geometry: where tiles, rows, columns and (sub-)cells sit in content pixels, the
// scroll box and canvas sizes for a cell size, and the key <-> (tile, row, col, sub) maps.
// Methods of Grid (grid.js); `this` is the grid.

export const DPR = () => Math.max(1, Math.min(3, window.devicePixelRatio || 1));
export const MIN_CELL = 1;
export const GAP_T = 10;       // between tiles

// the width of a scroll bar in css px: 0 where scroll bars overlay the content (macOS,
// phones, headless Chromium), about 15 for classic ones (Windows, most Linux desktops).
// Measured once per device pixel ratio (a browser zoom changes it).
const bars = new Map();
export function scrollbarSize() {
  const dpr = window.devicePixelRatio || 1;
  if (!bars.has(dpr)) {
    const probe = document.createElement("div");
    probe.style.cssText = "position:absolute;left:-9999px;top:0;width:100px;height:100px;overflow:scroll";
    document.body.appendChild(probe);
    bars.set(dpr, Math.max(0, probe.offsetWidth - probe.clientWidth));
    probe.remove();
  }
  return bars.get(dpr);
}

// start offsets of n mixed-radix positions (radices outer -> inner) with a gap at every
// boundary of an outer digit; gaps shrink for inner levels
export function positions(radices, cell, gaps) {
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

// largest i < n with arr[i] <= x, or -1
export function bisect(arr, x, n) {
  let lo = 0, hi = n - 1, ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] <= x) { ans = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return ans;
}

// the (sub-)cell width for cell height c at aspect a: whole pixels from 4 px up
export function cellWidth(c, a) {
  if (a === 1) return c;
  return c >= 4 ? Math.floor(c * a + 1e-6) : c * a;
}

export const geometry = {
  // content size at cell height c with k tiles per row (cells of aspect a)
  size(c, k, a = 1) {
    const s = this.spec;
    const perRow = s.mesh ? s.mesh.cols.length : k;
    const tileRows = s.mesh ? s.mesh.rows.length : Math.ceil(s.ntiles / k);
    const tileW = s.ncols * this.sub * cellWidth(c, a) + this.gapW, tileH = s.nrows * c + this.gapH;
    return [this.marginL + perRow * tileW + (perRow - 1) * GAP_T + 4,
      this.marginT + tileRows * (tileH + this.header) + (tileRows - 1) * GAP_T + 4];
  },

  candidates() {
    const s = this.spec;
    if (s.mesh) return [s.mesh.cols.length];
    const out = [];
    for (let k = 1; k <= Math.min(s.ntiles, 64); k++) out.push(k);
    return out;
  },

  _geometry(cell, k) {
    const s = this.spec, sub = this.sub;
    this.cell = cell;  // the zoom level: px per cell, down
    this.sw = cellWidth(cell, this.aspect ?? 1);
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
    // the visible box: the content, or the box with scroll bars when it does not fit (a
    // scroll bar for one direction takes room from the other, which may then overflow too)
    const [bw, bh] = this.box;
    const bar = scrollbarSize();
    let overX = this.width > bw, overY = this.height > bh;
    overX = overX || (overY && this.width > bw - bar);
    overY = overY || (overX && this.height > bh - bar);
    const vw = Math.min(bw, this.width + (overY ? bar : 0));
    const vh = Math.min(bh, this.height + (overX ? bar : 0));
    const { scroll, sizer, stick } = this.els;
    // the canvases keep their last size until they are resized below: take them out of the
    // measurement (a canvas larger than the new box would overflow it, and the scroll bars
    // that brings would take the last row and column's room from the grid)
    stick.style.width = "0px";
    stick.style.height = "0px";
    scroll.style.width = `${Math.ceil(vw)}px`;
    scroll.style.height = `${Math.ceil(vh)}px`;
    sizer.style.width = `${this.width}px`;
    sizer.style.height = `${this.height}px`;
    // what the grid really has: the scroll box's client area (scroll bars taken off)
    this.vw = Math.max(1, scroll.clientWidth || Math.floor(vw - (overY ? bar : 0)));
    this.vh = Math.max(1, scroll.clientHeight || Math.floor(vh - (overX ? bar : 0)));
    stick.style.width = `${this.vw}px`;
    stick.style.height = `${this.vh}px`;
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(this.vw * DPR());
      c.height = Math.round(this.vh * DPR());
      c.style.width = `${this.vw}px`;
      c.style.height = `${this.vh}px`;
    }
  },

  cellRect(t, r, c, sub = -1) {
    const x = this.tileX[t] + this.colX[c] + (sub >= 0 ? sub * this.sw : 0);
    const y = this.tileY[t] + this.rowY[r];
    return [x, y, sub >= 0 ? this.sw : this.cw, this.ch];
  },

  key(t, r, c, s = 0) { return ((t * this.spec.nrows + r) * this.spec.ncols + c) * this.sub + s; },

  unkey(key) {
    const s = key % this.sub; key = (key - s) / this.sub;
    const c = key % this.spec.ncols; key = (key - c) / this.spec.ncols;
    const r = key % this.spec.nrows;
    return [(key - r) / this.spec.nrows, r, c, s];
  },

  keyRect(key) {
    const [t, r, c, s] = this.unkey(key);
    return this.cellRect(t, r, c, this.sub > 1 ? s : -1);
  },

  // which tile column / tile row a content coordinate falls in (or -1)
  _tileCol(x) {
    const j = Math.floor((x - this.marginL) / (this.tileW + GAP_T));
    if (j < 0 || j >= this.perRow) return -1;
    return x - (this.marginL + j * (this.tileW + GAP_T)) < this.tileW ? j : -1;
  },

  _tileRow(y) {
    const step = this.tileH + this.header + GAP_T;
    const i = Math.floor((y - this.marginT) / step);
    if (i < 0 || i >= this.tileRows) return -1;
    return i;
  },

  _tileAt(i, j) {
    const s = this.spec;
    if (!s.mesh) { const t = i * this.perRow + j; return t < s.ntiles ? t : -1; }
    for (let t = 0; t < s.ntiles; t++) {
      const [a, b] = s.mesh.place(t);
      if (a === i && b === j) return t;
    }
    return -1;
  },

  // the first tile of tile row i (a mesh may leave some places empty), or -1
  tileInRow(i) {
    for (let j = 0; j < this.perRow; j++) {
      const t = this._tileAt(i, j);
      if (t >= 0) return t;
    }
    return -1;
  },

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
  },

  // centre of a cell in content css pixels
  centre(key, whole = false) {
    const [x, y, w, h] = whole ? this.cellRect(...this.unkey(key).slice(0, 3)) : this.keyRect(key);
    return [x + w / 2, y + h / 2];
  },

  // content point -> visible-box point
  toView(x, y) { return [x - this.sx, y - this.sy]; },

  visible(key) {
    const [x, y, w, h] = this.keyRect(key);
    const vx = x - this.sx, vy = y - this.sy;
    return vx >= this.marginL - 1 && vy >= this.marginT - 1 && vx + w <= this.vw + 1 && vy + h <= this.vh + 1;
  },
};
