// The page's one store: every piece of state the page keeps, declared here with its
// owner, and sealed (a module that assigns a field not declared here throws, so no state
// is added on the side). Exposed to tests as window.__tl.state.
import { LIGHT } from "./theme.js";

export const state = Object.seal({
  // catalogues, read once at start (app.js: /api/presets and /api/options)
  presets: [], palette: [], options: null,
  colourScale: [],       // MAX_COLOURS distinct colours, the palette first (/api/options)
  // the drawn layout (app.js; only app.js replaces `data`)
  data: null,            // last good /api/layout answer
  model: null,           // the drawing model (model.js) plus the two grids (views.js)
  seq: 0,                // edit counter: an answer for an older edit is dropped
  renders: 0,
  timings: {},
  shapeIgnored: null,    // why the shape field was ignored for the drawn layout, or null
  shapeAuto: false,      // the shape field holds the layout's own shape, filled in by the page
  // editing (app.js, presets.js)
  preset: null,          // the registry preset entry whose parameters the widgets show
  presetDoc: "",         // its doc line
  axisOrder: null,       // its axis order for the colour choices, or null
  lastEdit: null,        // id of the field edited last (its error is shown beside it)
  editTimer: null,       // the pending update after an edit (debounced), or null
  // colouring (colouring.js, app.js)
  color: null,           // the colour key shown
  colorChosen: false,    // chosen by the user (else picked for each layout)
  hadBanks: false,       // the last layout had a bank view
  // selection and pointer (selection.js, views.js)
  sel: null,             // current selection
  selToken: 0,           // counter: an answer for an older click is dropped
  pcursor: null,         // the physical cell under the keyboard cursor
  pointer: { pan: null, suppressClick: false },  // a drag that pans a view
  zoom: { logical: null, physical: null },  // null: fit to the panel; else px per cell
  theme: LIGHT,          // grid colours (theme.js): LIGHT, or DARK after a dark system setting
  // side panels
  analysis: null,        // last /api/analysis answer (panels.js)
  convert: null,         // last /api/convert answer (panels.js)
  convertOpen: false,    // "in other tools" opened (convert.js)
  // codegen.js; asked: counts the questions asked (only the latest one's answer is shown)
  codegen: { open: false, lang: "python", inverse: false, code: null, asked: 0 },
  move: { result: null, stage: 0 },  // the "move data" panel: last plan, stage shown (movedata.js)
  moveView: { mode: null, dst: null, dtype: null, stage: 0 },  // its URL state (movestages.js)
});

// test hooks and progress counters live here
export const hooks = { state, ready: false, renders: 0 };
window.__tl = hooks;
