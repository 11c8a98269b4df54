// The side panels besides the details: the analysis (legality findings, bank conflicts;
// a click selects their elements) and "in other tools" (copyable notations); clipboard.
import { postJSON, drawnRequest } from "./api.js";
import { renderAnalysis, requestLabel } from "./analysis.js";
import { renderConvert } from "./convert.js";
import { selectSet, markActiveAnalysis } from "./selection.js";
import { state, hooks } from "./state.js";
import { $, escapeHtml } from "./util.js";

async function fetchPanel(seq, id, url, body, title, render) {
  const box = $(id);
  let r;
  try {
    r = await postJSON(url, body);
  } catch (err) {
    if (seq !== state.seq) return null;
    box.innerHTML = `<h3>${title}</h3><p class="muted">${escapeHtml(err.message)}</p>`;
    box.hidden = false;
    return null;
  }
  if (seq !== state.seq) return null;
  box.innerHTML = render(r);
  box.hidden = false;
  return r;
}

export async function fetchAnalysis(seq) {
  const d = state.data;
  state.analysis = null;
  if (!d || d.too_large) { $("analysis").hidden = true; return; }
  const a = await fetchPanel(seq, "analysis", "/api/analysis", drawnRequest(d), "legality", (r) => renderAnalysis(r, d));
  if (!a) return;
  state.analysis = a;
  markActiveAnalysis();
  hooks.analysisFor = d.layout;
}

export async function fetchConvert(seq) {
  const d = state.data;
  state.convert = null;
  if (!d) { $("convert").hidden = true; return; }
  const r = await fetchPanel(seq, "convert", "/api/convert", drawnRequest(d),
    "in other tools", renderConvert);
  if (!r) return;
  state.convert = r;
  hooks.convertFor = d.layout;
}

// the text alternative of both views: the table form of the layout (POST /api/table)
export async function fetchTable(seq) {
  const d = state.data, pre = $("table-text");
  if (!d || d.too_large) { pre.textContent = "(the layout is not drawn: see above)"; return; }
  let r;
  try {
    r = await postJSON("/api/table", drawnRequest(d));
  } catch (err) {
    if (seq === state.seq) pre.textContent = `The table could not be loaded: ${err.message}`;
    return;
  }
  if (seq !== state.seq) return;
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
