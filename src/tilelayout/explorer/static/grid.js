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
//
// The grid's concerns live in their own modules, whose methods are installed on Grid:
// gridgeometry.js (where things sit), gridzoom.js (fit and zoom), gridhit.js (what is under
// a point), gridtext.js (text sizes and fitting), gridpaint.js (painting), gridoverlay.js
// (the highlight).
import { geometry, MIN_CELL, positions } from "./gridgeometry.js";
import { hitTesting } from "./gridhit.js";
import { overlay } from "./gridoverlay.js";
import { painting } from "./gridpaint.js";
import { LABEL_FONT, textFitting, widestLabel } from "./gridtext.js";
import { zoom } from "./gridzoom.js";

export { MIN_CELL } from "./gridgeometry.js";
export { MAX_FIT, ZOOM_STEPS } from "./gridzoom.js";

const MAX_MARGIN = 120; // the widest row-label band

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
    this._heads = null;  // whether every tile label fits, for a tile width (gridpaint.js)
    this.fns = null;
    this.box = [400, 300];
  }

  get sx() { return this.els.scroll.scrollLeft; }
  get sy() { return this.els.scroll.scrollTop; }
}

Object.assign(Grid.prototype, geometry, zoom, hitTesting, textFitting, painting, overlay);
