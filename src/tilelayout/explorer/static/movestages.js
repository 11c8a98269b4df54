// What the "move data" panel (movedata.js) shows under a result, and its URL state:
//  * the plan's costs (POST /api/plan's `costs`, as tl.plan_conversion reports them);
//  * a line x bank picture of the chosen shared-memory layout (the answer's `grid`: per
//    element its 4-byte word's line and bank), 32 banks across, one line of 128 bytes per
//    row, element numbers in the cells where they fit; the cells of the worst request of
//    the side the current stage moves (store: write, load: read) are highlighted, those of
//    lanes in a bank conflict in another colour;
//  * for a shuffle round, the 32 lanes with the lane each reads from, the lanes that
//    receive highlighted; for a step inside each lane (pack / select), the same lanes,
//    each reading itself;
//  * URL state: move=plan|smem, to=<destination>, mdtype=<dtype>, stage=<n> (1-based).
import { state, hooks } from "./state.js";
import { $, escapeHtml } from "./util.js";

// its URL state (state.moveView)
const view = state.moveView;
// the URL as opened (the page rewrites it while it loads the drawn layout)
const opened = new URLSearchParams(globalThis.tilelayoutQuery ?? location.search);

// the costs as "name: value" items, in the order the library reports them
function costsHtml(costs) {
  if (!costs) return "";
  const items = Object.entries(costs).map(([k, v]) =>
    `<li><span class="k">${escapeHtml(k.replaceAll("_", " "))}</span> <b>${escapeHtml(String(v))}</b></li>`).join("");
  return `<h4>costs</h4><ul class="mv-costs" data-testid="move-costs" aria-label="costs">${items}</ul>`;
}

// which side of the shared-memory round trip a stage moves (none for a barrier)
function sideOf(r, stage) {
  if (r.stages && r.stages.length) {
    const st = r.stages[stage];
    return st && st.side ? st.side : null;
  }
  return "read";  // a /api/smem answer: the reader's side
}

function css(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

// draw `cells` (list of {row, col, text, mark}) on a rows x cols canvas as wide as its box
function paint(canvas, rows, cols, cells, rowLabel) {
  const box = canvas.parentElement.clientWidth || 320;
  const gutter = 24;
  const cw = Math.max(5, Math.floor((box - gutter - 2) / cols));
  const ch = Math.max(cw, 14);
  const w = gutter + cols * cw + 1, h = 14 + rows * ch + 1;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  const fg = css("--fg", "#1c1917"), muted = css("--muted", "#57534e"), line = css("--line", "#d6d3d1");
  const fill = { none: css("--soft", "#f5f5f4"), used: css("--panel", "#ffffff"),
    worst: "#bfdbfe", conflict: "#fecaca" };
  g.clearRect(0, 0, w, h);
  g.font = "10px ui-monospace, monospace";
  g.fillStyle = muted; g.textAlign = "center"; g.textBaseline = "middle";
  const step = cw >= 16 ? 1 : 4;   // column numbers: every one, or every 4th (on the 4th's left edge)
  for (let b = 0; b < cols; b += step) g.fillText(String(b), gutter + b * cw + (step > 1 ? 6 : cw / 2), 7);
  g.textAlign = "right";
  for (let r = 0; r < rows; r += ch >= 14 ? 1 : 4) g.fillText(rowLabel(r), gutter - 3, 14 + r * ch + ch / 2);
  g.fillStyle = fill.none; g.fillRect(gutter, 14, cols * cw, rows * ch);
  let drawn = 0, marked = 0;
  // element numbers in every cell, or in none (when one does not fit, the caption says so):
  // the largest font from 11 px down to 8 px at which every text fits its cell
  let fits = false;
  for (let font = Math.min(11, Math.floor(ch * 0.7)); font >= 8 && !fits; font--) {
    g.font = `${font}px ui-monospace, monospace`;
    fits = cells.every((c) => !c.text || g.measureText(c.text).width <= cw - 2);
  }
  g.textAlign = "center";
  for (const c of cells) {
    const x = gutter + c.col * cw, y = 14 + c.row * ch;
    g.fillStyle = fill[c.mark || "used"];
    g.fillRect(x, y, cw, ch);
    if (c.mark) marked++;
    if (fits && c.text) {
      g.fillStyle = c.mark === "conflict" ? "#7f1d1d" : c.mark === "worst" ? "#1e3a8a" : fg;
      g.fillText(c.text, x + cw / 2, y + ch / 2 + 0.5);
      drawn++;
    }
  }
  g.strokeStyle = line; g.lineWidth = 1;
  g.beginPath();
  for (let b = 0; b <= cols; b++) { g.moveTo(gutter + b * cw + 0.5, 14); g.lineTo(gutter + b * cw + 0.5, 14 + rows * ch); }
  for (let r = 0; r <= rows; r++) { g.moveTo(gutter, 14 + r * ch + 0.5); g.lineTo(gutter + cols * cw, 14 + r * ch + 0.5); }
  g.stroke();
  for (const c of cells) {   // ring the highlighted cells so they show without colour too
    if (!c.mark) continue;
    g.strokeStyle = c.mark === "conflict" ? "#b91c1c" : "#1d4ed8"; g.lineWidth = 2;
    g.strokeRect(gutter + c.col * cw + 1, 14 + c.row * ch + 1, cw - 2, ch - 2);
  }
  return { rows, cols, cw, ch, texts: drawn, marked, fits };
}

// the line x bank cells of the chosen layout, marked for the worst request of `side`
function bankCells(r, side) {
  const grid = r.grid, worst = side && r.worst_cells ? r.worst_cells[side] : [];
  const mark = new Map(worst.map((c) => [c.element, c.conflict ? "conflict" : "worst"]));
  const byCell = new Map();
  grid.line.forEach((line, e) => {
    const key = line * 32 + grid.bank[e];
    if (!byCell.has(key)) byCell.set(key, { row: line, col: grid.bank[e], elems: [], mark: null });
    const c = byCell.get(key);
    c.elems.push(e);
    const m = mark.get(e);
    if (m && c.mark !== "conflict") c.mark = m;
  });
  return [...byCell.values()].map((c) => ({ ...c, text: c.elems.join(" ") }));
}

function bankCaption(r, side) {
  const c = r.smem || r, rep = side ? c[side] : null;
  const what = side === "write" ? "store" : "load";
  const worst = rep && rep.worst ? `: the worst ${what} request (vector ${rep.worst.vector}, ` +
    `${rep.worst.wavefronts} wavefront(s), ideal ${rep.worst.ideal}) in blue, its lanes that ` +
    `conflict on a bank in red` : "";
  return `Line x bank view of the chosen shared-memory layout: a cell is one 4-byte word ` +
    `(32 banks across, one 128-byte line per row; grey: no element)${side ? worst : "; no request moves in this stage"}. ` +
    `A cell's text is the logical element(s) stored there (row-major flat index) when the ` +
    `cells are wide enough; "show" draws the layout in the large views.`;
}

function laneCells(st) {
  const src = st.src_lane[0];
  return src.map((s, lane) => ({ row: lane >> 4, col: lane & 15, text: s < 0 ? "–" : String(s),
    mark: s >= 0 && s !== lane ? "worst" : null }));
}

// render the costs and the picture under a result of the panel (`res` = {mode, r, dtype})
export function renderMoveExtras(out, res, stage) {
  if (!out || !res) return;
  const r = res.r;
  view.stage = stage;
  const st = r.stages && r.stages.length ? r.stages[stage] : null;
  let pic = null;
  if (st && st.what === "shuffle" && st.src_lane) {
    pic = { kind: "lanes", cells: laneCells(st), rows: 2, cols: 16, label: (row) => String(16 * row),
      caption: `Lanes 0-31 of warp 0 in this round (16 per row): each cell is a lane, its text the lane it ` +
        `reads from (– none); the lanes that receive a value from another lane in blue.`,
      aria: `shuffle round ${st.round + 1}: which lane each lane reads from` };
  } else if (st && (st.what === "pack" || st.what === "select")) {
    // a step inside each lane (selp / prmt on its own registers): no lane reads another
    pic = { kind: "lanes", cells: laneCells({ src_lane: [[...Array(32).keys()]] }), rows: 2, cols: 16,
      label: (row) => String(16 * row),
      caption: `Lanes 0-31 of warp 0 in this step (16 per row): each cell is a lane, its text the lane it ` +
        `reads from. Here every lane reads only its own registers (it rearranges them with selp / prmt), ` +
        `so none is highlighted.`,
      aria: "a step inside each lane: every lane reads its own registers" };
  } else if (r.grid) {
    const side = sideOf(r, stage);
    pic = { kind: "banks", cells: bankCells(r, side), rows: r.grid.lines, cols: 32,
      label: (row) => String(row), caption: bankCaption(r, side),
      aria: `line by bank view of the chosen shared-memory layout, ${r.grid.lines} lines of 32 banks` +
        (side ? `, the worst ${side} request highlighted` : "") };
  }
  const box = document.createElement("div");
  box.className = "mv-extras";
  box.innerHTML = (res.mode === "plan" ? costsHtml(r.costs) : "") + (pic ?
    `<div class="mv-pic"><canvas data-testid="move-canvas" tabindex="0" role="img" ` +
    `aria-label="${escapeHtml(pic.aria)}" aria-describedby="move-caption"></canvas></div>` +
    `<p class="caption" id="move-caption" data-testid="move-caption">${escapeHtml(pic.caption)}</p>` : "");
  out.querySelector(".mv-extras")?.remove();
  out.appendChild(box);
  hooks.movePicture = pic ? { kind: pic.kind, ...paint(box.querySelector("canvas"), pic.rows, pic.cols, pic.cells, pic.label),
    highlighted: pic.cells.filter((c) => c.mark).flatMap((c) => c.elems || [c.row * 16 + c.col]).sort((a, b) => a - b) } : null;
  hooks.moveStage = stage;
  writeMoveURL();
}

// a destination typed in the panel as a request operand: a registry preset by name, with
// parameters as the CLI writes them ("NAME:KEY=VALUE[:KEY=VALUE]", "preset:" optional),
// becomes {preset, params}; anything else is layout text
export function presetOperand(text, presets) {
  const t = text.trim().replace(/^preset:/, "");
  const [name, ...items] = t.split(":");
  const known = presets.some((p) => p.name === name && p.params);
  if (!known || !items.every((it) => /^[A-Za-z_]\w*=/.test(it))) return text.trim();
  const params = Object.fromEntries(items.map((it) => [it.slice(0, it.indexOf("=")), it.slice(it.indexOf("=") + 1)]));
  return items.length ? { preset: name, params } : { preset: name };
}

// remember what the panel asked for (from its controls) and put it in the URL
export function noteMoveRequest(mode, dst, dtype) {
  Object.assign(view, { mode, dst, dtype, stage: 0 });
}

export function moveParams(q) {
  if (!view.mode) return;
  q.set("move", view.mode);
  q.set("to", view.dst);
  q.set("mdtype", view.dtype);
  if (view.stage) q.set("stage", String(view.stage + 1));
}

function writeMoveURL() {
  const q = new URLSearchParams(location.search);
  for (const k of ["move", "to", "mdtype", "stage"]) q.delete(k);
  moveParams(q);
  history.replaceState(null, "", `${location.pathname}?${q.toString()}`);
}

function waitFor(cond) {
  return new Promise((resolve) => {
    const tick = () => (cond() ? resolve() : setTimeout(tick, 20));
    tick();
  });
}

// after the page has drawn its layout: reopen the panel the URL describes and step to its stage
export async function restoreMove() {
  const q = opened;
  const mode = q.get("move");
  if (mode !== "plan" && mode !== "smem") return;
  const box = $("movedata"), get = (id) => box.querySelector(`[data-testid=${id}]`);
  box.querySelector("details").open = true;
  get("move-mode").value = mode;
  get("move-dst").value = q.get("to") || "";
  if (q.get("mdtype")) get("move-dtype").value = q.get("mdtype");
  const before = hooks.moveRuns || 0;
  get("move-go").click();
  await waitFor(() => (hooks.moveRuns || 0) > before);
  const stage = parseInt(q.get("stage") || "1", 10) - 1;
  for (let i = 0; i < stage; i++) box.querySelector("[data-step='1']")?.click();
}
