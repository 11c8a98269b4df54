// Every cell, row label and column label of one view of the explorer, read from the
// canvas's pixels (tests/browser/test_every_cell.py): what is missing, at most a few of
// each, with the reason. The argument is the view ("logical" or "physical").
(view) => {
  const m = window.__tl.state.model, g = view === 'logical' ? m.lgrid : m.pgrid, s = g.spec;
  const sc = g.els.scroll, canvas = g.canvas, ctx = canvas.getContext('2d');
  const th = window.__tl.state.theme;
  const dpr = canvas.width / parseFloat(canvas.style.width);
  const out = {view, client: [sc.clientWidth, sc.clientHeight],
               canvas: [parseFloat(canvas.style.width), parseFloat(canvas.style.height)],
               cells: 0, rows: 0, cols: 0, missing: [], unlabelled: [], positions: 0};
  const probe = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  const rgb = (colour) => {
    probe.clearRect(0, 0, 1, 1); probe.fillStyle = colour; probe.fillRect(0, 0, 1, 1);
    return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  };
  let img = null, at = null;
  const grab = () => {
    const k = `${sc.scrollLeft},${sc.scrollTop}`;
    if (at === k) return;
    g.paint();
    img = ctx.getImageData(0, 0, canvas.width, canvas.height);
    at = k; out.positions++;
  };
  const pixel = (x, y) => {  // view css px -> [r, g, b]
    const i = (Math.floor(y * dpr) * img.width + Math.floor(x * dpr)) * 4;
    return [img.data[i], img.data[i + 1], img.data[i + 2]];
  };
  const far = (a, b, d) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > d;
  // scroll the real box so that content rect (x, y, w, h) is inside the client area, right
  // of and below the frozen label bands; whether it got there
  const inside = (x, y, w, h) =>
    x - sc.scrollLeft >= g.marginL - 0.5 && y - sc.scrollTop >= g.marginT - 0.5 &&
    x + w - sc.scrollLeft <= Math.min(sc.clientWidth, out.canvas[0]) + 0.5 &&
    y + h - sc.scrollTop <= Math.min(sc.clientHeight, out.canvas[1]) + 0.5;
  const show = (x, y, w, h) => {
    if (inside(x, y, w, h)) return true;
    sc.scrollLeft = Math.max(0, x + w / 2 - (sc.clientWidth + g.marginL) / 2);
    sc.scrollTop = Math.max(0, y + h / 2 - (sc.clientHeight + g.marginT) / 2);
    return inside(x, y, w, h);
  };
  const miss = (what) => { if (out.missing.length < 6) out.missing.push(what); };
  const ink = (x0, y0, x1, y1, ref) => {  // any pixel of the view box far from ref
    for (let y = Math.max(0, y0); y < y1; y += 0.5) for (let x = Math.max(0, x0); x < x1; x += 0.5)
      if (far(pixel(x, y), ref, 120)) return true;
    return false;
  };
  const rowsLabelled = new Set(), colsLabelled = new Set();
  const rowStep = g.rowStep(), colStep = g.colStep();
  const labels = s.labels !== false;
  // row labels sit beside the first tile of each tile row, column labels over the tiles
  // of the first tile row (the bands are frozen: they stay while the view scrolls)
  const firsts = new Set(), tops = new Set();
  for (let i = 0; i < g.tileRows; i++) firsts.add(g.tileInRow(i));
  for (let j = 0; j < (s.ntiles === 1 ? 1 : g.perRow); j++) tops.add(g._tileAt(0, j));
  for (let t = 0; t < s.ntiles; t++) {
    for (let r = 0; r < s.nrows; r++) {
      for (let c = 0; c < s.ncols; c++) {
        for (let k = 0; k < g.sub; k++) {
          const key = g.key(t, r, c, k);
          const [x, y, w, h] = g.keyRect(key);
          const where = `tile ${t} row ${r} col ${c}.${k}`;
          if (!show(x, y, w, h)) { miss(`${where}: no scroll position shows it`); continue; }
          grab();
          const vx = x - sc.scrollLeft, vy = y - sc.scrollTop;
          // inside the cell, clear of its text (centred) and of the gap at its right / bottom
          const px = w >= 6 ? vx + 1 : vx + w / 2, py = h >= 6 ? vy + 1 : vy + h / 2;
          const want = rgb(g.fns.fill(key) || th.empty);
          if (far(pixel(px, py), want, 24)) miss(`${where}: drawn ${pixel(px, py)}, not ${want}`);
          else out.cells++;
          if (!labels || k !== g.sub - 1) continue;
          // the labels of a whole cell (a label crossing the view's edge is left out)
          const [cx0, cy0, cw0, ch0] = g.cellRect(t, r, c);
          if (!show(cx0, cy0, cw0, ch0)) continue;
          grab();
          const ux = cx0 - sc.scrollLeft, uy = cy0 - sc.scrollTop;
          // (a label taller or wider than its first row or column would cross into the
          // corner: left out, by design, in an overview whose labels are thinned anyway)
          if (s.rowLabel && firsts.has(t) && c === 0 && r % rowStep === 0 &&
              g.rowY[r] + ch0 / 2 >= 5 && !rowsLabelled.has(`${t}:${r}`)) {
            // the row label: right-aligned in the left band, at the row's middle
            const ref = pixel(0.5, uy + ch0 / 2);
            if (ink(2, uy + ch0 / 2 - 3, g.marginL - 3, uy + ch0 / 2 + 3, ref)) rowsLabelled.add(`${t}:${r}`);
            else if (out.unlabelled.length < 6) out.unlabelled.push(`tile ${t} row ${r}`);
          }
          if (s.colLabel && tops.has(t) && r === 0 && c % colStep === 0 &&
              g.colX[c] + cw0 / 2 >= g.colLabelW / 2 && !colsLabelled.has(`${t}:${c}`)) {
            // the column label: centred over the column in the top band
            const cx = ux + cw0 / 2, ref = pixel(cx, 0.5);
            if (ink(cx - 2, g.marginT - 12, cx + 2, g.marginT - 2, ref)) colsLabelled.add(`${t}:${c}`);
            else if (out.unlabelled.length < 6) out.unlabelled.push(`tile ${t} col ${c}`);
          }
        }
      }
    }
  }
  out.rows = rowsLabelled.size; out.cols = colsLabelled.size;
  out.total = s.ntiles * s.nrows * s.ncols * g.sub;
  out.steps = [rowStep, colStep];
  sc.scrollLeft = 0; sc.scrollTop = 0; g.paint();
  return out;
}
