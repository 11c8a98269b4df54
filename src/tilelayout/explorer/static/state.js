// The page's state, one object shared by its modules (and exposed to tests as
// window.__tl.state). Only app.js replaces `data`; each module writes its own fields.
export const state = {
  presets: [], palette: [], options: null,
  data: null,            // last good /api/layout answer
  model: null,           // the drawing model (model.js) plus the two grids (views.js)
  sel: null,             // current selection (selection.js)
  color: null,           // the colour key shown
  seq: 0,
  renders: 0,
  timings: {},
  zoom: { logical: null, physical: null },  // null: fit to the panel; else px per cell
  preset: null,          // the registry preset entry whose parameters the widgets show
  analysis: null,        // last /api/analysis answer
  convert: null,         // last /api/convert answer
};

// test hooks and progress counters live here
export const hooks = { state, ready: false, renders: 0 };
window.__tl = hooks;
