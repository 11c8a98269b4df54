// The "index code" side panel: the drawn layout's index map (or its inverse) as code in a
// chosen language, from POST /api/codegen (tl.codegen), with a copy button. One line until
// opened; fetched when opened or its language changes; for each new layout while it stays
// open the code comes with the /api/layout answer (codegenRequest, showCodegen).
import { postJSON, drawnRequest } from "./api.js";
import { state, hooks } from "./state.js";
import { $ } from "./util.js";

// the panel: open, language, inverse, last code (state.codegen)
const panel = state.codegen;

// the languages are the library's (tl.codegen), listed by GET /api/options
export function renderCodegenShell() {
  const langs = state.options.code_languages;
  const opts = langs.map((l) => `<option${l === panel.lang ? " selected" : ""}>${l}</option>`).join("");
  $("codegen").innerHTML = `<details data-testid="codegen-toggle"${panel.open ? " open" : ""}>` +
    `<summary><h3>index code</h3> <span class="oneline">the layout as a function in ${langs.join(", ")}</span></summary>` +
    `<div class="thead"><label>language <select data-testid="codegen-lang">${opts}</select></label>` +
    `<label><input type="checkbox" data-testid="codegen-inverse"${panel.inverse ? " checked" : ""}> inverse</label>` +
    `<button class="copy" data-testid="codegen-copy" title="copy the code">copy</button></div>` +
    `<pre class="text" data-testid="codegen-code" tabindex="0" aria-label="generated code"></pre></details>`;
  $("codegen").hidden = false;
}

// what /api/layout is asked for the panel: its options while it is open, else nothing
export function codegenRequest() {
  return panel.open ? { lang: panel.lang, inverse: panel.inverse } : null;
}

// fill the code for the drawn layout from an answer carried by /api/layout (when open and
// asked for the options the panel has now; else the panel asks for them)
export function showCodegen() {
  const d = state.data;
  const r = d && d.panels && d.panels.codegen;
  if (!r || r.lang !== panel.lang || r.inverse !== panel.inverse) { fetchCodegen(state.seq); return; }
  panel.asked++;  // an answer to an earlier question, still on its way, is now stale
  paint(d, r);
}

function pre() {
  return $("codegen").querySelector("pre");
}

function paint(d, r) {
  const box = pre();
  if (r.error) { box.textContent = `No code: ${r.error}`; return; }
  panel.code = r.ok ? r.code : null;
  box.textContent = r.ok ? r.code : `No ${r.inverse ? "inverse " : ""}code for this layout: ${r.reason}`;
  box.classList.toggle("refused", !r.ok);
  hooks.codegenFor = `${d.layout}|${r.lang}|${r.inverse}`;
}

// fetch the code for the drawn layout (the panel was opened, or its options changed).
// Answers may come back in any order (a refused inverse is quicker than generated code):
// only the answer to the latest question is shown, never an earlier one arriving late.
export async function fetchCodegen(seq) {
  const d = state.data, box = pre();
  panel.code = null;
  const asked = ++panel.asked;
  if (!panel.open || !d || !box) return;
  if (d.too_large) { box.textContent = "(the layout is not drawn: see above)"; return; }
  box.textContent = "…";
  let r;
  try {
    r = await postJSON("/api/codegen", { ...drawnRequest(d), lang: panel.lang, inverse: panel.inverse });
  } catch (err) {
    if (seq === state.seq && asked === panel.asked) box.textContent = `No code: ${err.message}`;
    return;
  } finally {
    hooks.codegenAnswers = (hooks.codegenAnswers || 0) + 1;
  }
  if (seq !== state.seq || asked !== panel.asked) return;
  paint(d, r);
}

// wire the panel's controls; copy(text) -> Promise<bool> and flash(button, text) from the page
export function wireCodegen(copy, flash) {
  const box = $("codegen");
  box.addEventListener("toggle", (ev) => {
    if (ev.target.tagName !== "DETAILS") return;
    panel.open = ev.target.open;
    if (panel.open) fetchCodegen(state.seq);
  }, true);
  box.addEventListener("change", (ev) => {
    if (ev.target.dataset.testid === "codegen-lang") panel.lang = ev.target.value;
    else if (ev.target.dataset.testid === "codegen-inverse") panel.inverse = ev.target.checked;
    else return;
    fetchCodegen(state.seq);
  });
  box.addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-testid=codegen-copy]");
    if (!b || panel.code === null) return;
    const ok = await copy(panel.code);
    hooks.lastCopied = ok ? panel.code : null;
    flash(b, ok ? "copied" : "failed");
  });
}
