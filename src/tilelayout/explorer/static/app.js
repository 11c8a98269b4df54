// The explorer page, wired together: controls -> /api/layout -> the drawing model ->
// the two views. Every coordinate, the logical fold and the colour choices come from the
// JSON API (the Python library); the page only draws them.
import { getJSON, postJSON } from "./api.js";
import { chooseColour, recolor } from "./colouring.js";
import { codegenRequest, renderCodegenShell, showCodegen, wireCodegen } from "./codegen.js";
import { convertToggled } from "./convert.js";
import { fillMovePresets, renderMoveShell, wireMoveData } from "./movedata.js";
import { restoreMove } from "./movestages.js";
import { exportSvg, exportPng, pythonSnippet } from "./export.js";
import { buildModel, physicalNote } from "./model.js";
import { DARK, LIGHT } from "./theme.js";
import { PANELS, showPanels, onAnalysisClick, onConvertClick, copyText, flash } from "./panels.js";
import { fillControls, applyPresetEntry, renderParams, paramTexts, setParamTexts } from "./presets.js";
import {
  HINT, selectElement, selectSet,
  onLogicalClick, onPhysicalClick, onLogicalHover, onPhysicalHover, hideTooltip, onKey,
} from "./selection.js";
import { state, hooks } from "./state.js";
import "./testhooks.js";
import { readURL, writeURL } from "./urlstate.js";
import { $, escapeHtml, ravel } from "./util.js";
import {
  VIEWS, makeGrids, relayout, zoom, setZoom, setupViewport, setupPanning,
} from "./views.js";

// the fields as a request for /api/layout, with the side panels' answers asked for too
// (one request per edit: the analysis, other tools, table and, while open, code panels)
function request() {
  const code = codegenRequest();
  return {
    panels: PANELS, ...(code ? { codegen: code } : {}),
    // a shape the page filled in from the last answer is the layout's own: not sent
    layout: $("layout").value, shape: state.shapeAuto ? "" : $("shape").value,
    dtype: $("dtype").value || null, swizzle: $("swizzle").value || "none",
    // a preset with a device mesh: its tiles follow the mesh's axis order
    order: state.axisOrder || null,
  };
}

// -- errors ----------------------------------------------------------------------------
function showError(err) {
  const box = $("error");
  for (const id of ["layout", "shape"]) $(id).classList.remove("bad");
  for (const el of document.querySelectorAll("#params .bad")) el.classList.remove("bad");
  if (!err) { box.hidden = true; box.innerHTML = ""; return; }
  const data = err.data || { error: String(err.message || err) };
  const field = data.field || "";
  if (field === "layout" || field === "shape") $(field).classList.add("bad");
  if (field.startsWith("param")) {
    const w = document.querySelector(`[data-testid="param-${field.slice(6)}"]`);
    if (w) w.classList.add("bad");
    else for (const el of document.querySelectorAll("#params input, #params select")) el.classList.add("bad");
  }
  let html = `<b>${escapeHtml(field || "error")}:</b> ${escapeHtml(data.error)}`;
  if (data.column && field === "layout") {
    const text = $("layout").value;
    html = `<b>layout, column ${data.column}:</b> ${escapeHtml(data.error)}` +
      `<pre>${escapeHtml(text)}\n<span class="caret">${" ".repeat(data.column - 1)}^</span></pre>`;
  }
  if (state.data) html += `<div class="muted">(showing the last valid layout)</div>`;
  box.innerHTML = html;
  box.hidden = false;
}

function failed(err) {
  showError(err);
  hooks.lastError = err.data || { error: String(err) };
  hooks.ready = true;
}

// -- loading a layout -----------------------------------------------------------------------
function scheduleUpdate(delay = 120) {
  clearTimeout(state.editTimer);
  state.editTimer = setTimeout(() => update(), delay);
}

async function update(opts = {}) {
  const seq = ++state.seq;
  const t0 = performance.now();
  let data, ignored = null;
  const req = request();
  try {
    try {
      data = await postJSON("/api/layout", req);
    } catch (err) {
      // the layout was just edited and the shape left in the field (from a preset or an
      // earlier layout) no longer fits it: draw the layout with its own shape instead of
      // keeping the old picture, and say so (the field is left as it is)
      const field = err.data && err.data.field;
      if (field !== "shape" || !req.shape.trim() || state.lastEdit !== "layout") throw err;
      data = await postJSON("/api/layout", { ...req, shape: "" });
      ignored = err.data.error;
    }
  } catch (err) {
    if (seq === state.seq) failed(err);
    return;
  }
  if (seq !== state.seq) return;
  const t1 = performance.now();
  showError(null);
  state.shapeIgnored = ignored;
  if (ignored) $("shape").classList.add("bad");
  showOwnShape(req, data);
  showOwnSwizzle(data);
  hooks.lastError = null;
  const sameLayout = state.data && state.data.layout === data.layout &&
    JSON.stringify(state.data.shape) === JSON.stringify(data.shape);
  const prevSel = sameLayout ? state.sel : null;
  if (!sameLayout) state.zoom = { logical: null, physical: null };
  state.data = data;
  state.sel = null;
  chooseColour(data, opts.color);
  build();
  const t2 = performance.now();
  state.timings = { fetch: t1 - t0, draw: t2 - t1, total: t2 - t0 };
  $("timing").textContent = `layout ${Math.round(t1 - t0)} ms · draw ${Math.round(t2 - t1)} ms`;
  if (opts.select) selectElement(ravel(opts.select, data.shape));
  else if (prevSel && prevSel.type === "element") selectElement(prevSel.flat);
  writeURL();
  showPanels();
  showCodegen();
  if (!hooks.firstRenderAt) hooks.firstRenderAt = performance.now();
  hooks.renders = ++state.renders;
  hooks.ready = true;
}

// the shape box shows the shape drawn: left empty (the layout's own shape), the page fills
// it in from the answer, as a value, and keeps it the layout's own until the user types one
function showOwnShape(req, data) {
  if (req.shape.trim() || state.shapeIgnored) return;
  $("shape").value = data.shape.join(",");
  state.shapeAuto = true;
}

// a layout with a swizzle of its own (ComposeLayout text, a swizzled preset): the swizzle
// control says so instead of reading "none" (the page's swizzle would be a second one)
function showOwnSwizzle(data) {
  const sel = $("swizzle");
  const own = !!data.swizzle && sel.value === "none";
  sel.querySelector("option[data-own]")?.remove();
  if (own) {
    sel.insertAdjacentHTML("afterbegin", `<option value="none" data-own>in the layout</option>`);
    sel.selectedIndex = 0;
  }
  sel.disabled = own;
  sel.title = own ? `the layout has its own swizzle, ${data.swizzle}` : "";
}

// -- building the views -----------------------------------------------------------------
function infoHtml(d) {
  const n = d.size, R = d.replicas;
  const swz = d.swizzle ? ` · swizzle <code>${escapeHtml(d.swizzle)}</code>` : "";
  let html = `<code>${escapeHtml(d.layout)}</code> · shape (${d.shape.join(", ")}) · ` +
    `${n.toLocaleString()} elements · ${R} replica${R === 1 ? "" : "s"}${swz}` +
    ` · axes ${d.axes.map((a) => `<code>${escapeHtml(a.name)}</code>` +
      (a.min === null ? "" : ` ${a.min}..${a.max}`)).join(", ")}`;
  const preset = state.presets.find((x) => x.name === $("preset").value);
  if (preset) {
    const doc = (preset.summary || preset.doc || "").split("\n")[0];
    html += `<div class="doc" data-testid="preset-doc"><b>${escapeHtml(preset.name)}</b>: ${escapeHtml(doc)}</div>`;
  }
  if (state.shapeIgnored) {
    html += `<span class="warn" data-testid="shape-ignored">shape field ignored: ` +
      `${escapeHtml(state.shapeIgnored)}. Drawn with the layout's own shape ` +
      `(${d.shape.join(", ")}); edit or clear the shape field.</span>`;
  }
  if (d.too_large) html += `<span class="warn" data-testid="too-large">${escapeHtml(d.too_large)}</span>`;
  return html;
}

// a layout above the size caps: nothing drawn, the reason shown
function clearViews(d) {
  $("logical-title").textContent = `shape (${d.shape.join(", ")}) · not drawn`;
  $("physical-title").textContent = "not drawn";
  $("physical-title").title = "";
  $("details").innerHTML = HINT;
  $("analysis").hidden = true;
  state.model = null;
  for (const v of VIEWS) {
    for (const id of [`${v}-canvas`, `${v}-overlay`]) {
      const c = $(id); c.width = 0; c.height = 0; c.style.width = "0px"; c.style.height = "0px";
    }
    for (const part of ["scroll", "sizer", "stick"]) { $(`${v}-${part}`).style.width = "0px"; $(`${v}-${part}`).style.height = "0px"; }
    $(`${v}-zoom`).textContent = "";
  }
  $("legend").innerHTML = ""; $("physical-note").innerHTML = "";
  $("connectors").innerHTML = "";
}

function build() {
  const d = state.data;
  $("info").innerHTML = infoHtml(d);
  if (d.too_large) { clearViews(d); return; }
  const m = buildModel(d);
  makeGrids(d, m);
  $("logical-title").textContent = d.fold.title;
  $("physical-title").textContent = d.physical.title;
  $("physical-title").title = d.physical.title;
  $("physical-note").innerHTML = physicalNote(d, m).map((t) =>
    `<span${t.startsWith("◢") ? ' class="shared"' : ""}>${escapeHtml(t)}</span>`).join(" · ");
  state.model = m;
  recolor();
}

// draw layout text (e.g. a chosen shared-memory layout) and select elements in it
async function showLayout(text, shape, dtype, elements, label) {
  $("preset").value = ""; state.preset = null; state.axisOrder = null; renderParams(rebuildPreset);
  $("layout").value = text;
  $("shape").value = shape.join(",");
  state.shapeAuto = false;
  $("dtype").value = dtype || "";
  $("swizzle").value = "none";
  state.lastEdit = null;
  await update();
  if (state.model && elements.length) selectSet(elements, label);
}

// -- presets ----------------------------------------------------------------------------------
function loadPreset(name, opts = {}) {
  const p = state.presets.find((x) => x.name === name);
  if (!p || p.error) return false;
  applyPresetEntry(p, rebuildPreset);
  state.lastEdit = null;
  state.colorChosen = !!opts.color;
  update({ color: opts.color || p.color || null, select: opts.select });
  return true;
}

// build the registry preset with the widgets' values (POST /api/preset) and show it
async function rebuildPreset() {
  if (state.preset) await buildPreset(state.preset.name, paramTexts());
}

async function buildPreset(name, texts, opts = {}) {
  const seq = ++state.seq;
  let entry;
  try {
    entry = await postJSON("/api/preset", { name, params: texts });
  } catch (err) {
    if (seq !== state.seq) return false;
    failed(err);
    hooks.presetErrors = (hooks.presetErrors || 0) + 1;
    return false;
  }
  if (seq !== state.seq) return false;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.param : null;
  const keepWidgets = state.preset && state.preset.name === name;
  state.preset = entry;
  applyPresetEntry(entry, rebuildPreset);
  if (keepWidgets && focused) {  // keep typing in the widget that was being edited
    const el = $("params").querySelector(`[data-param="${focused}"]`);
    if (el) { el.value = texts[focused]; el.focus(); }
  }
  if (opts.dtype !== undefined && opts.dtype !== null) $("dtype").value = opts.dtype;
  if (opts.swizzle) $("swizzle").value = opts.swizzle;
  await update({ color: opts.color || null, select: opts.select || null });
  hooks.presetBuilds = (hooks.presetBuilds || 0) + 1;
  return true;
}

function waitFor(cond) {
  return new Promise((resolve) => {
    const tick = () => (cond() ? resolve() : setTimeout(tick, 20));
    tick();
  });
}

// -- start ----------------------------------------------------------------------------------
async function load(u) {
  const named = state.presets.find((x) => x.name === u.preset && x.params && !x.error);
  if (named) {
    // a registry preset: rebuilt from its parameters (p.<name>), so a link reproduces them
    state.preset = named;
    const ok = await buildPreset(named.name, u.params, {
      select: u.select, color: u.color, dtype: u.dtype, swizzle: u.swizzle,
    });
    if (!ok) { applyPresetEntry(named, rebuildPreset); setParamTexts(u.params); }
  } else if (u.layout) {
    $("preset").value = u.preset || "";
    $("layout").value = u.layout;
    $("shape").value = u.shape || "";
    state.shapeAuto = false;
    $("dtype").value = u.dtype || "";
    $("swizzle").value = u.swizzle || "none";
    await update({ select: u.select, color: u.color });
  } else if (!(u.preset && loadPreset(u.preset, u))) {
    loadPreset("tensor-core tile", u);
  }
  if (u.zl !== null || u.zp !== null) {
    if (!state.model) await waitFor(() => state.model || hooks.lastError);
    setZoom(u.zl, u.zp);
  }
}

function wire() {
  const toCustom = (ev) => {
    state.lastEdit = ev.target.id;
    $("preset").value = ""; state.preset = null; state.axisOrder = null; renderParams(rebuildPreset); scheduleUpdate();
  };
  $("layout").addEventListener("input", toCustom);
  $("shape").addEventListener("input", (ev) => { state.shapeAuto = false; toCustom(ev); });
  $("analysis").addEventListener("click", onAnalysisClick);
  $("convert").addEventListener("click", onConvertClick);
  $("convert").addEventListener("toggle", (ev) => convertToggled(ev.target), true);
  wireCodegen(copyText, flash);
  wireMoveData(showLayout);
  $("dtype").addEventListener("change", () => update());
  $("swizzle").addEventListener("change", () => update());
  $("preset").addEventListener("change", () => { if ($("preset").value) loadPreset($("preset").value); });
  $("color").addEventListener("change", () => {
    state.color = $("color").value; state.colorChosen = true; recolor(); writeURL();
  });
  $("logical-canvas").addEventListener("click", (ev) => onLogicalClick(ev, state.pointer.suppressClick));
  $("physical-canvas").addEventListener("click", (ev) => onPhysicalClick(ev, state.pointer.suppressClick));
  $("logical-canvas").addEventListener("mousemove", onLogicalHover);
  $("physical-canvas").addEventListener("mousemove", onPhysicalHover);
  for (const v of VIEWS) $(`${v}-canvas`).addEventListener("mouseleave", hideTooltip);
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(relayout, 120);
  });
  for (const v of VIEWS) setupViewport(v);
  setupPanning();
  for (const b of document.querySelectorAll(".zoom button")) {
    b.addEventListener("click", () => zoom(b.parentElement.dataset.view, +b.dataset.zoom));
  }
  // shift + click: dim what is not selected, as the page does
  $("export-svg").addEventListener("click", (ev) => exportSvg(state, { dim: ev.shiftKey }));
  $("export-png").addEventListener("click", (ev) => exportPng(state, { dim: ev.shiftKey }));
  $("copy-python").addEventListener("click", async (ev) => {
    const ok = await copyText(pythonSnippet(state));
    flash(ev.target, ok ? "copied" : "failed");
  });
  $("copy-link").addEventListener("click", async (ev) => {
    const ok = await copyText(location.href);
    flash(ev.target, ok ? "copied" : "failed");
  });
}

async function main() {
  const u = readURL();
  if (u.embed) document.body.classList.add("embed");
  if (u.notitle) document.body.classList.add("notitle");
  const [presets, opts] = await Promise.all([getJSON("/api/presets"), getJSON("/api/options")]);
  state.presets = presets.presets;
  state.palette = opts.palette;
  state.colourScale = opts.colour_scale;
  state.options = opts;
  fillControls(opts);
  renderCodegenShell();
  renderMoveShell(opts.dtypes, opts.targets);
  fillMovePresets(state.presets.filter((p) => p.params && !p.error).map((p) => p.name));
  // dark mode follows the system setting, live
  const dark = matchMedia("(prefers-color-scheme: dark)");
  state.theme = dark.matches ? DARK : LIGHT;
  dark.addEventListener("change", () => { state.theme = dark.matches ? DARK : LIGHT; relayout(); });
  await load(u);
  wire();
  await restoreMove();
}

main().catch((err) => { showError(err); console.error(err); });
