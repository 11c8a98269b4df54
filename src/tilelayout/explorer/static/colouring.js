// Colouring both views: the colour key (the server offers the choices and the default),
// each cell's fill and text, and the legend.
import { colourValues } from "./model.js";
import { applySelection } from "./selection.js";
import { state } from "./state.js";
import { $, escapeHtml, unravel } from "./util.js";
import { arrange, gridOf } from "./views.js";

// the colour picker: the server's choices; keep the current key when the new layout has it
export function chooseColour(data, wanted) {
  if (!data.colours) return;  // not drawn (too large)
  const { choices, default: fallback } = data.colours;
  const keys = choices.map((c) => c.key);
  let pick = wanted || state.color;
  // a dtype just turned a memory layout into the line x bank view: the default colouring
  // (by bank: what the swizzle changes) unless a colour was chosen by hand
  if (data.banks && !state.hadBanks && !wanted && !state.colorChosen) pick = fallback;
  state.hadBanks = !!data.banks;
  if (!keys.includes(pick)) pick = fallback;
  $("color").innerHTML = choices.map((c) => `<option value="${escapeHtml(c.key)}">${escapeHtml(c.label)}</option>`).join("");
  $("color").value = pick;
  state.color = pick;
}

export function paletteOf(v) {
  const P = state.palette;
  return P[((v % P.length) + P.length) % P.length];
}

// colour both views by state.color: fills, cell texts, legend; re-fit when the text changes
export function recolor() {
  const d = state.data, m = state.model;
  if (!m) return;
  const R = d.replicas;
  const cval = colourValues(d, state.color);
  m.cval = cval;
  const seen = new Map();
  for (let e = 0; e < cval.length && seen.size <= 64; e++) seen.set(cval[e], (seen.get(cval[e]) || 0) + 1);
  m.fillL = (key) => { const e = m.lflat[key]; return e < 0 ? null : paletteOf(cval[e]); };
  const textL = (key) => { const e = m.lflat[key]; return e < 0 ? null : String(cval[e]); };
  m.fillP = (key) => { const p = m.first[key]; return p < 0 ? null : paletteOf(cval[Math.floor(p / R)]); };
  const textP = (key) => {
    const p = m.first[key];
    if (p < 0) return null;
    const e = Math.floor(p / R);
    return d.shape.length === 1 ? String(e) : unravel(e, d.shape).join(",");
  };
  const choice = d.colours.choices.find((c) => c.key === state.color);
  const vals = [...seen.keys()].sort((a, b) => a - b);
  const many = seen.size > 32;
  const items = vals.slice(0, 16).map((v) =>
    `<span><span class="sw" style="background:${paletteOf(v)}"></span>${v}</span>`).join("");
  $("legend").innerHTML = `<span>colour = <b>${escapeHtml(choice ? choice.what : state.color)}</b>:</span>${items}` +
    (many || vals.length > 16 ? `<span>… ${many ? "many" : vals.length} values; the ${state.palette.length} colours repeat</span>` : "");
  // the cell text sizes the cells (widened when the labels need it): set it first, and
  // re-fit when the new text (the logical view shows the colour value) changes the aspect
  m.lgrid.setFns(m.fillL, textL, null);
  m.pgrid.setFns(m.fillP, textP, (key) => m.collide[key] === 1);
  const refit = (v) => { const g = gridOf(v); return g.fitted && g.fit(...m.boxes[v]).a !== g.aspect; };
  if (!m.arranged || refit("logical") || refit("physical")) arrange();
  const tL = performance.now();
  m.lgrid.paint();
  m.pgrid.paint();
  state.timings.paint = performance.now() - tL;
  applySelection();
}
