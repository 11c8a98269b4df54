// The "In other tools" panel: renders what POST /api/convert returned — the layout in
// each notation the server lists (CuTe, CuTe TV, JAX, Triton, Gluon:
// tilelayout.interop.convert.PANEL_TARGETS), each with a copy button, or greyed with the
// converter's reason when that notation cannot say it.
import { escapeHtml } from "./util.js";
import { state } from "./state.js";

// collapsed (one line) or open (state.convertOpen), kept while the page lives (the panel is
// rebuilt for every layout); collapsed at first: the notations are there when asked for
export function convertToggled(el) { state.convertOpen = el.open; }

export function renderConvert(r) {
  const rows = r.targets.map((t, i) => {
    if (!t.ok) {
      return `<li class="refused" data-testid="convert-${t.target}" data-target="${t.target}">` +
        `<details><summary class="thead"><b>${escapeHtml(t.label)}</b><span class="why">not expressible: why?</span></summary>` +
        `<div class="reason" data-testid="convert-reason-${t.target}">${escapeHtml(t.reason)}</div></details></li>`;
    }
    // "->" would wrap after its hyphen in a narrow panel; an arrow does not
    const notes = (t.notes || []).map((n) =>
      `<div class="note">${escapeHtml(n.replace(/->/g, "→"))}</div>`).join("");
    return `<li data-testid="convert-${t.target}" data-target="${t.target}">` +
      `<div class="thead"><b>${escapeHtml(t.label)}</b>` +
      `<button class="copy" data-copy="${i}" data-testid="convert-copy-${t.target}" ` +
      `title="copy the ${escapeHtml(t.label)} text">copy</button></div>` +
      `<pre class="text" data-testid="convert-text-${t.target}">${escapeHtml(t.text)}</pre>${notes}</li>`;
  }).join("");
  const ok = r.targets.filter((t) => t.ok).map((t) => t.label);
  const line = ok.length ? `as ${ok.join(", ")}` : "no other notation can say this layout";
  return `<details data-testid="convert-toggle"${state.convertOpen ? " open" : ""}>` +
    `<summary><h3>in other tools</h3> <span class="oneline">${escapeHtml(line)}</span></summary><ul>${rows}</ul></details>`;
}
