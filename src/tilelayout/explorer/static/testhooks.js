// Test hooks (window.__tl): where things are drawn, what the last paint drew, and a few
// actions, for the browser tests and the benchmark. Nothing in the page depends on them.
import { paletteOf } from "./colouring.js";
import { selectElement, clearSelection } from "./selection.js";
import { state, hooks } from "./state.js";
import { $ } from "./util.js";
import { zoom, setZoom } from "./views.js";

Object.assign(hooks, {
  // test hooks: where things are drawn, in page (client) coordinates
  // (the cell is scrolled into its view first when it is not visible)
  logicalCenter(flat) {
    const m = state.model;
    m.lgrid.reveal(m.lkey[flat]);
    const r = $("logical-canvas").getBoundingClientRect();
    const [x, y] = m.lgrid.toView(...m.lgrid.centre(m.lkey[flat]));
    return { x: r.left + x, y: r.top + y };
  },
  physicalCenter(t, row, col, s = 0) {
    const m = state.model, key = m.pgrid.key(t, row, col, s);
    m.pgrid.reveal(key);
    const r = $("physical-canvas").getBoundingClientRect();
    const [x, y] = m.pgrid.toView(...m.pgrid.centre(key));
    return { x: r.left + x, y: r.top + y };
  },
  cell: () => ({ logical: state.model.lgrid.cell, physical: state.model.pgrid.cell }),
  // cell geometry of both views: width x height of a (sub-)cell, aspect, fitted or zoomed
  geometry: () => {
    const f = (g) => ({ w: g.sw, h: g.ch, aspect: g.aspect, fitted: g.fitted, px: g.labelPx() });
    return { logical: f(state.model.lgrid), physical: f(state.model.pgrid) };
  },
  zoom, setZoom,
  // what the last paint drew: the cell-text size and how many non-empty cells got text
  labels: () => ({ logical: state.model.lgrid.painted, physical: state.model.pgrid.painted }),
  pairCell(p) { return state.model.pgrid.unkey(state.model.pkeys[p * state.model.span]); },
  palette: () => state.palette,
  // repaint both views recording every text drawn; the texts that overlap, leave the
  // canvas or leave their cell (both lists empty: every text is whole and readable)
  textProblems() {
    const out = {};
    for (const [v, g] of [["logical", state.model.lgrid], ["physical", state.model.pgrid]]) {
      g.audit = true;
      g.paint();
      out[v] = g.textProblems();
      out[`${v}Texts`] = g.painted.boxes.length;
      g.audit = false;
    }
    return out;
  },
  colorOf: (flat) => paletteOf(state.model.cval[flat]),
  selectElement, clearSelection,
});
