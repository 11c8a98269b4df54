// The side panels besides the details: the analysis (legality findings, bank conflicts;
// a click selects their elements), "in other tools" (copyable notations) and the text
// table, filled from the /api/layout answer that drew the layout; clipboard.
import { renderAnalysis, requestLabel } from "./analysis.js";
import { renderConvert } from "./convert.js";
import { selectSet, markActiveAnalysis } from "./selection.js";
import { state, hooks } from "./state.js";
import { $, escapeHtml } from "./util.js";

// the panels come with the drawing: /api/layout answers for them in the same request
// (its `panels`: each panel's answer, or {error}), so one edit is one request
export const PANELS = ["analysis", "convert", "table"];

function showPanel(id, r, title, render) {
  const box = $(id);
  if (!r || r.error) {
    box.innerHTML = `<h3>${title}</h3><p class="muted">${escapeHtml(r ? r.error : "no answer")}</p>`;
    box.hidden = false;
    return null;
  }
  box.innerHTML = render(r);
  box.hidden = false;
  return r;
}

// fill the side panels from the drawn layout's answer (state.data.panels)
export function showPanels() {
  const d = state.data, p = (d && d.panels) || {};
  showAnalysis(d, p.analysis);
  showConvert(d, p.convert);
  showTable(d, p.table);
}

function showAnalysis(d, r) {
  state.analysis = null;
  if (!d || d.too_large) { $("analysis").hidden = true; return; }
  const a = showPanel("analysis", r, "legality", (x) => renderAnalysis(x, d));
  if (!a) return;
  state.analysis = a;
  markActiveAnalysis();
  hooks.analysisFor = d.layout;
}

function showConvert(d, r) {
  state.convert = null;
  if (!d) { $("convert").hidden = true; return; }
  const c = showPanel("convert", r, "in other tools", renderConvert);
  if (!c) return;
  state.convert = c;
  hooks.convertFor = d.layout;
}

// the text alternative of both views: the table form of the layout
function showTable(d, r) {
  const pre = $("table-text");
  if (!d || d.too_large) { pre.textContent = "(the layout is not drawn: see above)"; return; }
  if (!r || r.error) { pre.textContent = `The table could not be loaded: ${r ? r.error : "no answer"}`; return; }
  pre.textContent = r.text ?? r.too_large;
  hooks.tableFor = d.layout;
}

export async function onConvertClick(ev) {
  const b = ev.target.closest("button[data-copy]");
  if (!b || !state.convert) return;
  const t = state.convert.targets[+b.dataset.copy];
  const ok = await copyText(t.text);
  hooks.lastCopied = ok ? t.text : null;
  flash(b, ok ? "copied" : "failed");
}

export function onAnalysisClick(ev) {
  const a = state.analysis, d = state.data;
  if (!a || !state.model) return;
  const f = ev.target.closest("[data-finding]");
  if (f) {
    const i = +f.dataset.finding, fd = a.legality.findings[i];
    selectSet(fd.elements, `${fd.kind.replace(/_/g, " ")}: ${fd.message}`, { finding: i });
    return;
  }
  const b = ev.target.closest("[data-read]");
  if (b) {
    const i = +b.dataset.read, k = +b.dataset.req, read = a.conflicts.reads[i];
    selectSet(read.requests[k].elements, requestLabel(read, k, d.shape), { read: i, req: k });
  }
}

// -- clipboard ----------------------------------------------------------------------------------
export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (_) {
    const ta = $("clipboard"); ta.value = text; ta.select();
    try { return document.execCommand("copy"); } catch (__) { return false; }
  }
}

export function flash(button, text) {
  const old = button.textContent;
  button.textContent = text;
  setTimeout(() => { button.textContent = old; }, 1200);
}
