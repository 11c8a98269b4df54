// The "index code" side panel: the drawn layout's index map (or its inverse) as code in a
// chosen language, from POST /api/codegen (tl.codegen), with a copy button. One line until
// opened; fetched when open (and again for each new layout while it stays open).
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

// fill the code for the drawn layout (when the panel is open)
export async function fetchCodegen(seq) {
  const d = state.data, pre = $("codegen").querySelector("pre");
  panel.code = null;
  if (!panel.open || !d || !pre) return;
  if (d.too_large) { pre.textContent = "(the layout is not drawn: see above)"; return; }
  pre.textContent = "…";
  let r;
  try {
    r = await postJSON("/api/codegen", { ...drawnRequest(d), lang: panel.lang, inverse: panel.inverse });
  } catch (err) {
    if (seq === state.seq) pre.textContent = `No code: ${err.message}`;
    return;
  }
  if (seq !== state.seq) return;
  panel.code = r.ok ? r.code : null;
  pre.textContent = r.ok ? r.code : `No ${r.inverse ? "inverse " : ""}code for this layout: ${r.reason}`;
  pre.classList.toggle("refused", !r.ok);
  hooks.codegenFor = `${d.layout}|${r.lang}|${r.inverse}`;
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
