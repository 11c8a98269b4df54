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

// value -> colour for the values `cval`: each distinct value its own colour (by rank) from
// `colourScale` (the server's colour scale: render/palette.py colour_scale, the shared palette
// then light hues), cycling when there are more values than colours;
// {of(v), values (sorted distinct), cycle (0: no repeat)}
export function colouring(cval, colourScale) {
  const values = [...new Set(cval)].sort((a, b) => a - b);
  const scale = colourScale.slice(0, Math.min(values.length, colourScale.length));
  const rank = new Map(values.map((v, i) => [v, i]));
  return {
    values, cycle: values.length > scale.length ? scale.length : 0,
    of: (v) => scale[rank.get(v) % scale.length],
  };
}

export function paletteOf(v) { return state.model.colours.of(v); }

// the legend: one swatch per value (every swatch a different colour), at most 16
function legendHtml(cs, what) {
  const shown = cs.values.slice(0, 16);
  const items = shown.map((v) =>
    `<span class="item"><span class="sw" style="background:${cs.of(v)}"></span>${v}</span>`).join("");
  let more = "";
  if (cs.values.length > shown.length) {
    more = `<span>… ${cs.values.length.toLocaleString()} values in all` +
      (cs.cycle ? `; colours repeat every ${cs.cycle} values (the cell text and the tooltip give the value)</span>`
        : `, each its own colour</span>`);
  }
  return `<span>colour = <b>${escapeHtml(what)}</b>:</span>${items}${more}`;
}

// what a cell's text and colour mean, per view
function captions(d, what) {
  const P = d.physical, dims = d.dim_names.join(",");
  const logical = `Each cell is one element (${dims}) of the logical tensor; its text and its colour give its ${what}.`;
  const slot = P.kind === "smem" ? (P.sub > 1 ? `half of a 4-byte bank word (a line of 128 bytes across 32 banks)` : "4-byte bank word")
    : P.fold ? "memory address" : "place of the hardware";
  const physical = `Each cell is a ${slot}; its text is the index (${dims}) of the element held there` +
    `, its colour that element's ${what}.` +
    (d.replicas > 1 ? " A replicated element appears in several cells." : "");
  return { logical, physical };
}

// colour both views by state.color: fills, cell texts, legend; re-fit when the text changes
export function recolor() {
  const d = state.data, m = state.model;
  if (!m) return;
  const R = d.replicas;
  const cval = colourValues(d, state.color);
  m.cval = cval;
  const cs = colouring(cval, state.colourScale);
  m.colours = cs;
  const ecol = Array.from(cval, cs.of);  // each element's colour
  m.fillL = (key) => { const e = m.lflat[key]; return e < 0 ? null : ecol[e]; };
  const textL = (key) => { const e = m.lflat[key]; return e < 0 ? null : String(cval[e]); };
  m.fillP = (key) => { const p = m.first[key]; return p < 0 ? null : ecol[Math.floor(p / R)]; };
  const textP = (key) => {
    const p = m.first[key];
    if (p < 0) return null;
    const e = Math.floor(p / R);
    return d.shape.length === 1 ? String(e) : unravel(e, d.shape).join(",");
  };
  const choice = d.colours.choices.find((c) => c.key === state.color);
  const what = choice ? choice.what : state.color;
  $("legend").innerHTML = legendHtml(cs, what);
  const cap = captions(d, what);
  $("logical-caption").textContent = cap.logical;
  $("physical-caption").textContent = cap.physical;
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
