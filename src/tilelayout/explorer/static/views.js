// The two views on screen: their grids, the box each gets (side by side or stacked), zoom
// and panning. Geometry lives in grid.js; what is drawn comes from the drawing model.
import { Grid, ZOOM_STEPS, MIN_CELL, MAX_FIT } from "./grid.js";
import { scrollbarSize } from "./gridgeometry.js";
import { logicalSpec, physicalSpec } from "./model.js";
import { applySelection } from "./selection.js";
import { state, hooks } from "./state.js";
import { writeURL } from "./urlstate.js";
import { $ } from "./util.js";

export const VIEWS = ["logical", "physical"];

function gridEls(view) {
  return {
    scroll: $(`${view}-scroll`), sizer: $(`${view}-sizer`), stick: $(`${view}-stick`),
    canvas: $(`${view}-canvas`), overlay: $(`${view}-overlay`),
  };
}

// Layouts of up to READABLE_ELEMENTS elements open with cells at least READABLE_CELL px
// high (text is drawn from there): the views scroll rather than shrink below it. Larger
// ones may open on an overview (zoom in to read them).
export const READABLE_CELL = 14;
export const READABLE_ELEMENTS = 2048;
const MIN_VIEWS_H = 420;  // px for both views (titles, captions and grids) at the least
const MIN_BOX = 110;      // px: a stacked view's grid box at the least

// the grids of both views for the model of answer d
export function makeGrids(d, m) {
  const readable = d.size <= READABLE_ELEMENTS;
  const minFit = (spec) => (readable ? Math.max(READABLE_CELL, spec.textCell || 0) : MIN_CELL);
  const ls = logicalSpec(d), ps = physicalSpec(d, m);
  m.lgrid = new Grid(gridEls("logical"), { ...ls, minFit: minFit(ls) });
  m.pgrid = new Grid(gridEls("physical"), { ...ps, minFit: minFit(ps) });
}

export function gridOf(view) { return view === "logical" ? state.model.lgrid : state.model.pgrid; }

export function paintBoth() {
  state.model.lgrid.paint();
  state.model.pgrid.paint();
}

// the physical view is shared memory as lines x banks
const lineBank = () => state.data.physical.kind === "smem";

// the grids' boxes stacked in full width wT and total height avail (both views' chrome
// taken off): the largest cell at which both fit, the spare height to the view whose cells
// grow more; when they do not both fit, half each
function stackedBoxes(m, wT, avail) {
  const steps = [];
  for (let c = MAX_FIT; c >= 4; c--) steps.push(c);
  for (let c = 3.75; c >= MIN_CELL; c -= 0.25) steps.push(c);
  const aL = m.lgrid.spec.aspect || 1, aP = m.pgrid.spec.aspect || 1;
  let at = null;
  for (const c of steps) {
    // (neither grid is fitted below its own least cell: fit() keeps it there)
    const cl = Math.max(c, m.lgrid.minFit), cp = Math.max(c, m.pgrid.minFit);
    const [wl, hl] = m.lgrid.size(cl, 1, aL);
    const [wp, hp] = m.pgrid.size(cp, m.pgrid.wrap(cp, wT, aP), aP);
    if (wl <= wT && wp <= wT && hl + hp <= avail) { at = { c, hl, hp }; break; }
  }
  if (!at) {
    // at their smallest cells: the line x bank view what it needs when the logical view
    // keeps a useful box; else a view that needs less than half gets what it needs, the
    // other the rest; else half each
    const fl = m.lgrid.minFit, fp = m.pgrid.minFit;
    // (with room for a horizontal scroll bar when the grid is wider than the box)
    const need = (g, c, a) => {
      const [w, h] = g.size(c, g === m.pgrid ? g.wrap(c, wT, a) : 1, a);
      return h + 2 + (w > wT ? scrollbarSize() : 0);
    };
    const nL = need(m.lgrid, fl, aL), nP = need(m.pgrid, fp, aP);
    const half = Math.floor(avail / 2);
    // (the line x bank view's lines are the pattern a swizzle makes)
    const banks = lineBank() && nP <= avail - Math.min(nL, MIN_BOX);
    const hl = banks ? avail - nP : nL <= half ? nL : nP <= half ? avail - nP : half;
    return { c: 0, hl: Math.max(Math.min(nL, MIN_BOX), Math.min(hl, avail - Math.min(nP, MIN_BOX))) };
  }
  const growL = m.lgrid.fit(wT, avail - at.hp).c, growP = m.pgrid.fit(wT, avail - at.hl).c;
  return { c: at.c, hl: growL > growP ? avail - at.hp : at.hl };
}

// Side by side or stacked for a height H of both views (px, chrome included): the fitted
// cells both ways and the choice. When everything fits both ways: stacked only when that
// gives clearly bigger cells. When not (the cells stop at their readable minimum and the
// views scroll): the arrangement that shows more of the view that shows least.
// ch: each view's titles, caption and legend, side by side and stacked (measured).
function plan(m, W, H, gap, ch, keep = null) {
  const pad = 22; // view padding + border
  const wS = Math.floor((W - gap) / 2) - pad;
  const wT = W - pad;
  const avail = H - ch.Ls - ch.Ps - gap;
  const fL = m.lgrid.fit(wS, H - ch.L), fP = m.pgrid.fit(wS, H - ch.P);
  const st = stackedBoxes(m, wT, avail);
  const sL = m.lgrid.fit(wT, st.hl), sP = m.pgrid.fit(wT, avail - st.hl);
  const sideAll = fL.visible >= 1 && fP.visible >= 1, stackAll = sL.visible >= 1 && sP.visible >= 1;
  let stacked;
  if (keep !== null) stacked = keep;
  else if (W - gap < 2 * 300) stacked = true;
  else if (sideAll && stackAll) stacked = Math.min(sL.raw, sP.raw) >= 1.25 * Math.min(fL.raw, fP.raw);
  else if (stackAll !== sideAll) stacked = stackAll;
  else stacked = Math.min(sL.visible, sP.visible) > 1.1 * Math.min(fL.visible, fP.visible);
  const [l, ph] = stacked ? [sL, sP] : [fL, fP];
  return { H, wS, wT, avail, fL, fP, sL, sP, st, stacked, rows: l.rows && ph.rows, prows: ph.rows };
}

// Side by side or stacked views, and the box each grid gets, so that cells are as large as
// the window allows (up to MAX_FIT px), for the height below the page's controls and
// notes. When that does not show every row of both views (the cells stop at their
// readable minimum and the views would scroll) but the window's height under the sticky
// controls does, the views take the least height that shows every row (the page then
// scrolls the notes above them away under the controls: all 8 lines of a swizzle pattern
// at once rather than 5 in a scroll box); when no height shows every row of both, every
// line of the line x bank view. A window too short for sticky controls scrolls the page
// anyway: there each view may be as high as the window. Zoomed views keep their cell size.
export function arrange() {
  const m = state.model;
  if (!m) return;
  const views = $("views");
  const cs = getComputedStyle(views);
  const gap = parseFloat(cs.columnGap) || 12;
  const W = views.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const top = views.getBoundingClientRect().top + window.scrollY;
  const padY = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + 4;
  // the height below the controls, but at least MIN_VIEWS_H (a short window scrolls the page)
  const H = Math.max(MIN_VIEWS_H, window.innerHeight - top - padY);
  // the window's height under the sticky controls (all of it when they scroll away)
  const controls = $("controls");
  const under = getComputedStyle(controls).position === "sticky" ? controls.offsetHeight : 0;
  const winH = window.innerHeight - under - padY;
  // a short window scrolls the page: there the views may each be as high as the window
  const Hmax = Math.max(H, under ? winH : 2 * winH);
  // each view's titles, caption and legend: measured both ways (they wrap differently)
  const chrome = (v) => $(`${v}-view`).offsetHeight - $(`${v}-scroll`).offsetHeight + 2;
  const was = views.classList.contains("stacked");
  views.classList.add("stacked");
  const ch = { Ls: chrome("logical"), Ps: chrome("physical") };
  views.classList.remove("stacked");
  ch.L = chrome("logical"); ch.P = chrome("physical");
  views.classList.toggle("stacked", was);
  const zl = state.zoom.logical !== null, zp = state.zoom.physical !== null;
  let p = plan(m, W, H, gap, ch);
  // each view no higher than the window (it can be seen whole)
  const inWindow = (q) => (q.stacked ? Math.max(q.st.hl + ch.Ls, q.avail - q.st.hl + ch.Ps) <= winH
    : q.H <= Math.max(H, winH));
  // (in the arrangement chosen for H: a taller one does not turn two views that both
  // scroll sideways into narrower halves)
  const top2 = plan(m, W, Hmax, gap, ch, p.stacked);
  // every row of both views, else every line of the line x bank view
  const goal = top2.rows ? "rows" : lineBank() && top2.prows ? "prows" : null;
  if (goal && !p[goal] && !zl && !zp && Hmax > H) {
    let lo = H, hi = Hmax;  // the least height that shows them
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (plan(m, W, mid, gap, ch, p.stacked)[goal]) hi = mid; else lo = mid;
    }
    const q = plan(m, W, hi, gap, ch, p.stacked);
    if (inWindow(q)) p = q;
  }
  const { stacked, wS, wT, avail, fL, fP, sL, sP, st } = p;
  views.classList.toggle("stacked", stacked);
  const brief = (f) => ({ c: f.c, raw: f.raw, visible: f.visible, w: f.w, h: f.h });
  hooks.arrangement = {
    stacked, W, H: p.H, below: H, avail, side: [brief(fL), brief(fP)], stack: [brief(sL), brief(sP)], hl: st.hl,
  };
  let boxL, boxP;
  if (stacked) {
    let hl = st.hl;
    if (zl || zp) {
      // a zoomed view gets what its content needs, up to at least half of the height
      // (it scrolls); the other keeps its fitted box when it can and re-fits
      const half = Math.floor(avail / 2);
      const need = (g, c) => Math.ceil(g.size(c, g.wrap(c, wT, g.aspect ?? 1))[1]) + scrollbarSize() + 1;
      const nL = zl ? need(m.lgrid, state.zoom.logical) : 0;
      const nP = zp ? need(m.pgrid, state.zoom.physical) : 0;
      if (zl && zp) hl = nL + nP <= avail || nL < half ? nL : nP < half ? avail - nP : half;
      else if (zl) hl = Math.min(nL, Math.max(half, st.hl));
      else hl = avail - Math.min(nP, Math.max(half, avail - st.hl));
    }
    boxL = [wT, hl];
    boxP = [wT, avail - hl];
  } else {
    boxL = [wS, p.H - ch.L];
    boxP = [wS, p.H - ch.P];
  }
  m.boxes = { logical: boxL, physical: boxP };
  m.lgrid.setBox(...boxL, state.zoom.logical);
  m.pgrid.setBox(...boxP, state.zoom.physical);
  m.arranged = true;
  zoomLabels();
}

export function zoomLabels() {
  if (!state.model) return;
  for (const v of VIEWS) {
    const g = gridOf(v);
    $(`${v}-zoom`).textContent = `${g.sizeText()}${g.fitted ? " · fit" : ""}`;
    $(`${v}-scroll`).classList.toggle("pannable", g.width > g.vw + 1 || g.height > g.vh + 1);
  }
}

// re-fit both views to the window (after a resize); keeps the selection
export function relayout() {
  if (!state.model) return;
  arrange();
  paintBoth();
  applySelection();
}

// dir: +1 zoom in, -1 out, 0 fit; anchor: a point of the visible box that stays put
export function zoom(view, dir, anchor = null) {
  const m = state.model;
  if (!m || !m.boxes) return;
  const g = gridOf(view);
  const cur = g.cell;
  let next = null;
  if (dir > 0) next = ZOOM_STEPS.find((z) => z > cur) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
  else if (dir < 0) next = [...ZOOM_STEPS].reverse().find((z) => z < cur) ?? MIN_CELL;
  const [ax, ay] = anchor || [g.vw / 2, g.vh / 2];
  const h = g.hit(Math.max(ax, g.marginL), Math.max(ay, g.marginT));
  let keep = null;
  if (h && h.kind === "cell") {
    const key = g.key(h.t, h.r, h.c, 0);
    const [x, y, w, hh] = g.cellRect(h.t, h.r, h.c);
    keep = { key, fx: (ax + g.sx - x) / w, fy: (ay + g.sy - y) / hh };
  }
  const fx = (ax + g.sx) / g.width, fy = (ay + g.sy) / g.height;
  state.zoom[view] = next;
  arrange();
  const sc = g.els.scroll;
  if (keep) {
    const [t, r, c] = g.unkey(keep.key);
    const [x, y, w, hh] = g.cellRect(t, r, c);
    sc.scrollLeft = x + keep.fx * w - ax;
    sc.scrollTop = y + keep.fy * hh - ay;
  } else {
    sc.scrollLeft = fx * g.width - ax;
    sc.scrollTop = fy * g.height - ay;
  }
  paintBoth();
  applySelection();
  zoomLabels();
  writeURL();
  hooks.zooms = (hooks.zooms || 0) + 1;
}

// set both views' zoom levels (null: fit) and redraw; the selection is scrolled into view
export function setZoom(logical, physical) {
  if (!state.model) return;
  state.zoom = { logical, physical };
  arrange();
  paintBoth();
  applySelection(true);
  zoomLabels();
  writeURL();
}

// a drag that moved (a pan) is not a click
const pointer = state.pointer;

// scrolling repaints, ctrl + wheel zooms, dragging pans
export function setupViewport(view) {
  const sc = $(`${view}-scroll`), canvas = $(`${view}-canvas`);
  let frame = 0;
  sc.addEventListener("scroll", () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (!state.model) return;
      gridOf(view).paint();
      if (state.sel && state.sel.type === "element") applySelection();
    });
  });
  sc.addEventListener("wheel", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || !state.model) return;
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(view, ev.deltaY < 0 ? 1 : -1, [ev.clientX - r.left, ev.clientY - r.top]);
  }, { passive: false });
  canvas.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0 || !state.model) return;
    const g = gridOf(view);
    if (g.width <= g.vw + 1 && g.height <= g.vh + 1) return;
    pointer.pan = { view, x: ev.clientX, y: ev.clientY, sl: sc.scrollLeft, st: sc.scrollTop, moved: false };
  });
}

export function setupPanning() {
  window.addEventListener("mousemove", (ev) => {
    const pan = pointer.pan;
    if (!pan) return;
    const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
    if (!pan.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    pan.moved = true;
    const sc = $(`${pan.view}-scroll`);
    sc.classList.add("panning");
    sc.scrollLeft = pan.sl - dx;
    sc.scrollTop = pan.st - dy;
  });
  window.addEventListener("mouseup", () => {
    const pan = pointer.pan;
    if (!pan) return;
    if (pan.moved) { pointer.suppressClick = true; setTimeout(() => { pointer.suppressClick = false; }, 0); }
    $(`${pan.view}-scroll`).classList.remove("panning");
    pointer.pan = null;
  });
}
