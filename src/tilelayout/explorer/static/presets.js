// The preset picker and a registry preset's parameter widgets.
import { state } from "./state.js";
import { $, escapeHtml } from "./util.js";

// the preset, dtype and swizzle pickers, from /api/presets and /api/options
export function fillControls(opts) {
  const groups = {};
  for (const p of state.presets) (groups[p.group] ||= []).push(p);
  let html = `<option value="">(custom)</option>`;
  for (const [g, items] of Object.entries(groups)) {
    html += `<optgroup label="${escapeHtml(g)}">` + items.map((p) =>
      `<option value="${escapeHtml(p.name)}"${p.error ? " disabled" : ""}>${escapeHtml(p.name)}${p.error ? " (unavailable)" : ""}</option>`).join("") + "</optgroup>";
  }
  $("preset").innerHTML = html;
  $("dtype").innerHTML = `<option value="">(none)</option>` + opts.dtypes.map((t) => `<option>${t}</option>`).join("");
  // the modes and their descriptions come from the server's swizzle-mode table
  $("swizzle").innerHTML = opts.swizzle_modes.map((m) =>
    `<option value="${escapeHtml(m.name)}" title="${escapeHtml(m.doc)}">${escapeHtml(m.name)}</option>`).join("");
}

// put a preset entry's layout, shape, dtype and swizzle into the fields; show its widgets
export function applyPresetEntry(p, onParamChange) {
  $("preset").value = p.name;
  $("layout").value = p.layout;
  $("shape").value = p.shape.join(",");
  state.shapeAuto = false;
  $("dtype").value = p.dtype || "";
  $("swizzle").value = p.swizzle || "none";
  $("info").title = p.doc || "";
  state.presetDoc = p.doc || "";
  state.axisOrder = p.order || null;
  state.preset = p.params && p.params.length ? p : null;
  renderParams(onParamChange);
}

// one widget per parameter of state.preset (hidden when there is none); onChange() after
// an edit (at once for a choice, 250 ms after the last keystroke for text)
export function renderParams(onChange) {
  const box = $("params");
  const p = state.preset;
  // one dtype control per page: a preset's own dtype parameter replaces the page's
  $("dtype").closest(".ctl").hidden = !!(p && p.params.some((prm) => prm.name === "dtype"));
  if (!p) { box.hidden = true; box.innerHTML = ""; return; }
  const widgets = p.params.map((prm) => {
    const id = `param-${prm.name}`;
    const attrs = `data-testid="${id}" data-param="${escapeHtml(prm.name)}" title="${escapeHtml(prm.doc || prm.name)}"`;
    let w;
    if (prm.kind === "bool") {
      w = `<input type="checkbox" ${attrs}${prm.value ? " checked" : ""}>`;
    } else if (prm.choice_texts) {
      w = `<select ${attrs}>` + prm.choice_texts.map((t) =>
        `<option${t === prm.text ? " selected" : ""}>${escapeHtml(t)}</option>`).join("") + `</select>`;
    } else if (prm.kind === "int") {
      w = `<input type="number" step="1" ${attrs} value="${escapeHtml(prm.text)}">`;
    } else {
      const hint = { shape: "8,64", mesh: "dp=2,tp=4", spec: "dp,None or (dp,tp),None" }[prm.kind] || "";
      w = `<input type="text" class="${prm.kind === "shape" ? "" : "wide"}" spellcheck="false" ${attrs} value="${escapeHtml(prm.text)}" placeholder="${hint}">`;
    }
    return `<label class="ctl">${escapeHtml(prm.name)} ${w}</label>`;
  }).join("");
  box.innerHTML = `<span class="ptitle"><b>${escapeHtml(p.name)}</b> parameters</span>${widgets}`;
  box.hidden = false;
  let timer = null;
  for (const el of box.querySelectorAll("[data-param]")) {
    const now = () => { clearTimeout(timer); onChange(); };
    if (el.tagName === "SELECT" || el.type === "checkbox") el.addEventListener("change", now);
    else el.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(onChange, 250); });
  }
}

// the widgets' values as texts {param: text}
export function paramTexts() {
  const out = {};
  for (const el of $("params").querySelectorAll("[data-param]")) {
    out[el.dataset.param] = el.type === "checkbox" ? (el.checked ? "true" : "false") : el.value;
  }
  return out;
}

// put texts {param: text} into the widgets
export function setParamTexts(texts) {
  for (const [k, v] of Object.entries(texts)) {
    const el = $("params").querySelector(`[data-param="${k}"]`);
    if (!el) continue;
    if (el.type === "checkbox") el.checked = v === "true";
    else el.value = v;
  }
}
