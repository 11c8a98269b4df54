// The "move data" side panel: how to get the drawn layout into another one.
//  * "convert to": POST /api/plan (plan_conversion): kind, mechanism, costs and the stages
//    to step through; when it stages through shared memory, the chosen layout;
//  * "store, then read as": POST /api/smem (choose_smem_layout) with the drawn layout as
//    the writer: the chosen shared-memory layout, both sides' costs, the runners-up.
// "show" draws the chosen shared-memory layout in the views (line x bank) with the worst
// request of a side highlighted. One line until opened.
import { postJSON } from "./api.js";
import { state, hooks } from "./state.js";
import { $, escapeHtml, ravel } from "./util.js";
import { noteMoveRequest, presetOperand, renderMoveExtras } from "./movestages.js";

// the panel: last result, stage shown (state.move)
const panel = state.move;

export function renderMoveShell(dtypes, targets) {
  const opts = dtypes.map((t) => `<option${t === "float16" ? " selected" : ""}>${t}</option>`).join("");
  const gpus = [`<option value="">default</option>`]
    .concat((targets || []).map((t) => `<option>${escapeHtml(t)}</option>`)).join("");
  $("movedata").innerHTML = `<details data-testid="move-toggle"><summary><h3>move data</h3> ` +
    `<span class="oneline">plan a conversion, or a shared-memory layout, from this layout</span></summary>` +
    `<div class="form"><label>mode <select data-testid="move-mode"><option value="plan">convert to</option>` +
    `<option value="smem">store, then read as</option></select></label>` +
    `<label class="grow">layout or preset <input data-testid="move-dst" list="move-presets" spellcheck="false" ` +
    `placeholder="S[(16,8):(1,1@laneid)] or mma.m16n8k16.A"></label>` +
    `<label>dtype <select data-testid="move-dtype">${opts}</select></label>` +
    `<label>target <select data-testid="move-target" title="GPU target: decides ldmatrix / stmatrix and the TMA / wgmma / tcgen05 paths (default: sm_90a, or what the presets need)">${gpus}</select></label>` +
    `<label>smem budget <input data-testid="move-budget" type="number" min="1" step="1" inputmode="numeric" ` +
    `placeholder="bytes" title="the most shared memory the plan may use, in bytes (empty: no budget; a plan over it moves the tile in passes, or is refused)"></label>` +
    `<label>dst values <select data-testid="move-packing" title="how the destination holds 8- and 16-bit values: packed four (two) to a 32-bit register, as an MMA operand takes them, or one to a register, as a compiler's values are (no byte permutes that only pack them)">` +
    `<option value="packed">packed</option><option value="unpacked">one per register</option></select></label>` +
    `<button data-testid="move-go">plan</button></div><datalist id="move-presets"></datalist>` +
    `<div data-testid="move-result" class="result"></div></details>`;
  $("movedata").hidden = false;
}

export function fillMovePresets(names) {
  $("move-presets").innerHTML = names.map((n) => `<option value="${escapeHtml(n)}">`).join("");
}

const operand = (text) => presetOperand(text, state.presets);

const costLine = (side, r) => `${side}: ${r.requests} request(s) of ${r.vector_bytes}-byte vectors, ` +
  `${r.wavefronts} wavefront(s) (ideal ${r.ideal})${r.conflict_free ? " — conflict-free" : ""}`;

function smemHtml(c) {
  if (!c) return "";
  const runners = (c.candidates || []).slice(1, 4).map((k) =>
    `<li><span class="mono">${escapeHtml(k.name)}</span>: ${k.wavefronts} wavefronts</li>`).join("");
  return `<p>shared memory: <code data-testid="move-smem">${escapeHtml(c.layout)}</code> (${escapeHtml(c.name)}), ` +
    `${c.wavefronts} wavefronts vs ideal ${c.ideal}${c.accepted_by && c.accepted_by.length ? `; accepted by ${escapeHtml(c.accepted_by.join(", "))}` : ""}</p>` +
    `<ul class="costs"><li>${escapeHtml(costLine("write", c.write))} <button data-show="write">show</button></li>` +
    `<li>${escapeHtml(costLine("read", c.read))} <button data-show="read">show</button></li></ul>` +
    (runners ? `<details><summary>runners-up</summary><ul>${runners}</ul></details>` : "");
}

// the target the answer was planned for, and why (given, the default, a preset's need)
const targetLine = (r) => `<p class="muted" data-testid="move-planned-target">for ` +
  `${escapeHtml(r.target || "")} (${escapeHtml(r.target_from || "")})</p>`;

function planHtml(r) {
  const stages = r.stages || [];
  const st = stages[panel.stage];
  const stepper = stages.length ? `<div class="stepper"><button data-step="-1" aria-label="previous stage">‹</button> ` +
    `stage ${panel.stage + 1} of ${stages.length}: <b>${escapeHtml(st.what)}</b> ` +
    `<button data-step="1" aria-label="next stage">›</button>` +
    `${st.side ? ` <button data-show="${st.side}">show</button>` : ""}` +
    `<p data-testid="move-stage">${escapeHtml(st.text)}</p></div>` : "";
  return `<p data-testid="move-kind"><b>${escapeHtml(r.kind)}</b> via ${escapeHtml(r.mechanism)}</p>` +
    targetLine(r) +
    `<p class="muted">${escapeHtml(r.reason || "")}</p>${stepper}${smemHtml(r.smem)}${codeHtml(r.code)}`;
}

// the plan as CUDA (ConversionPlan.code), with a copy button
function codeHtml(c) {
  if (!c) return "";
  if (!c.cuda) return `<p class="muted" data-testid="move-code-note">no code: ${escapeHtml(c.note || "")}</p>`;
  return `<details data-testid="move-code"><summary>code</summary>` +
    `<button data-copy data-testid="move-copy">copy</button>` +
    `<pre class="mono">${escapeHtml(c.cuda)}</pre></details>`;
}

async function run() {
  const d = state.data, out = $("movedata").querySelector("[data-testid=move-result]");
  if (!d || d.too_large) { out.textContent = "Draw a layout first."; return; }
  const mode = $("movedata").querySelector("[data-testid=move-mode]").value;
  const dst = operand($("movedata").querySelector("[data-testid=move-dst]").value);
  const dtype = $("movedata").querySelector("[data-testid=move-dtype]").value;
  const target = $("movedata").querySelector("[data-testid=move-target]").value;
  const body = mode === "plan" ? { src: d.text, dst, shape: d.shape, dtype }
    : { writer: d.text, reader: dst, shape: d.shape, dtype };
  if (target) body.target = target;
  const budget = $("movedata").querySelector("[data-testid=move-budget]").value.trim();
  if (mode === "plan" && budget) body.smem_budget = Number(budget);
  const packing = $("movedata").querySelector("[data-testid=move-packing]").value;
  if (mode === "plan" && packing !== "packed") body.dst_packing = packing;
  out.textContent = "…";
  noteMoveRequest(mode, $("movedata").querySelector("[data-testid=move-dst]").value.trim(), dtype);
  try {
    const r = await postJSON(mode === "plan" ? "/api/plan" : "/api/smem", body);
    panel.result = { mode, r, dtype };
    panel.stage = 0;
    out.innerHTML = mode === "plan" ? planHtml(r) : targetLine(r) + smemHtml(r);
    renderMoveExtras(out, panel.result, 0);
  } catch (err) {
    panel.result = null;
    out.innerHTML = `<p class="bad">${escapeHtml(err.message)}</p>`;
  }
  hooks.moveFor = `${mode}|${typeof dst === "string" ? dst : dst.preset}`;
  hooks.moveRuns = (hooks.moveRuns || 0) + 1;
}

// wire the panel; show(text, shape, dtype, elements, label) draws a layout and selects
// elements in it (from the page)
export function wireMoveData(show) {
  const box = $("movedata");
  box.addEventListener("click", (ev) => {
    if (ev.target.closest("[data-testid=move-go]")) { run(); return; }
    const copy = ev.target.closest("[data-copy]");
    if (copy && panel.result && panel.result.r.code) {
      const done = (text) => { copy.textContent = text; };
      if (!navigator.clipboard) { done("copy: no clipboard here"); return; }
      navigator.clipboard.writeText(panel.result.r.code.cuda).then(() => done("copied"),
        () => done("copy refused"));
      return;
    }
    const step = ev.target.closest("[data-step]");
    const res = panel.result;
    if (step && res && res.mode === "plan") {
      const n = res.r.stages.length;
      panel.stage = Math.max(0, Math.min(n - 1, panel.stage + +step.dataset.step));
      box.querySelector("[data-testid=move-result]").innerHTML = planHtml(res.r);
      renderMoveExtras(box.querySelector("[data-testid=move-result]"), res, panel.stage);
      return;
    }
    const s = ev.target.closest("[data-show]");
    if (!s || !res) return;
    const c = res.mode === "plan" ? res.r.smem : res.r;
    if (!c) return;
    const worst = c[s.dataset.show].worst;
    const shape = c.shape || res.r.shape;
    const elems = (worst.elements || []).map((idx) => ravel(idx, shape));
    show(c.layout, shape, res.dtype, elems, `worst ${s.dataset.show} request: ${worst.wavefronts} wavefronts (ideal ${worst.ideal})`);
  });
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.target.dataset.testid === "move-dst") run();
  });
}
