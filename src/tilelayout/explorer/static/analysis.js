// The analysis panel: renders what POST /api/analysis returned (the library's legality
// report and bank-conflict analysis). Clicking a finding or a request selects its elements.
import { escapeHtml, plural, unravel } from "./util.js";

const KIND = {
  out_of_range: "out of range", scope_gap: "scope gap", scope_overlap: "scope overlap",
  duplicate: "duplicate", unused: "unused",
};

const indexText = (flat, shape) => `(${unravel(flat, shape).join(",")})`;

// "0-3, 8" from a sorted list of integers
function ranges(values) {
  const out = [];
  for (let i = 0; i < values.length; i++) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j] + 1) j++;
    out.push(j > i ? `${values[i]}–${values[j]}` : `${values[i]}`);
    i = j;
  }
  return out.join(", ");
}

// {bank: words} -> "8 words in banks 0–15"
function bankText(banks) {
  const byCount = new Map();
  for (const [b, c] of Object.entries(banks)) {
    if (!byCount.has(c)) byCount.set(c, []);
    byCount.get(c).push(+b);
  }
  return [...byCount.entries()].sort((a, b) => b[0] - a[0]).map(([c, bs]) =>
    `${c} words in bank${bs.length === 1 ? "" : "s"} ${ranges(bs.sort((x, y) => x - y))}`).join("; ");
}

function legalityHtml(leg, data) {
  if (leg.ok) {
    return `<ul><li data-testid="legal"><span class="kind ok">legal</span>values within the hardware's
      extents, scopes chain, one element per coordinate, no idle coordinates</li></ul>`;
  }
  const items = leg.findings.map((f, i) => {
    const clickable = f.elements && f.elements.length;
    const count = f.count !== null && f.count !== undefined && f.kind !== "unused"
      ? plural(f.count, "element") : "";
    const ex = f.examples && f.examples.length
      ? `e.g. ${f.examples.slice(0, 3).map((e) => `(${e.join(",")})`).join(" ")}` : "";
    const tail = [count, ex].filter(Boolean).join(", ");
    return `<li class="${clickable ? "finding" : ""}" data-testid="finding" data-kind="${f.kind}"` +
      `${clickable ? ` data-finding="${i}" title="click: highlight these elements"` : ""}>` +
      `<span class="kind${clickable ? "" : " info"}">${KIND[f.kind] || escapeHtml(f.kind)}</span>` +
      `${escapeHtml(f.message)}${tail ? ` <span class="ex">— ${escapeHtml(tail)}</span>` : ""}` +
      // why it matters and whether it is normal for this layout, in one plain sentence
      `${f.why ? `<div class="why" data-testid="finding-why">${escapeHtml(f.why)}</div>` : ""}</li>`;
  }).join("");
  void data;
  return `<ul>${items}</ul>`;
}

function conflictsHtml(c) {
  if (!c) return "";
  let html = `<h3>bank conflicts</h3>`;
  if (c.note) return html + `<p class="muted">${escapeHtml(c.note)}</p>`;
  html += `<p class="muted">reading the ${c.rows} x ${c.cols} ${escapeHtml(c.dtype)} tile in ` +
    `${c.access_bytes}-byte vectors (${c.per_vector} elements), 32 lanes per request (model: ` +
    `phases of ${32 * 4 / c.access_bytes} lanes, cost = most distinct words in one bank)</p><ul>`;
  c.reads.forEach((r, i) => {
    const what = r.order === "column" ? "column reads" : "row reads";
    if (r.error) { html += `<li><b>${what}</b>: <span class="muted">${escapeHtml(r.error)}</span></li>`; return; }
    const w = r.worst;
    const verdict = r.conflict_free
      ? `<span class="ok">conflict-free</span>`
      : `<span class="bad">${w.ways}-way conflict</span>`;
    const banks = Object.keys(w.banks).length ? `; ${bankText(w.banks)}` : "";
    html += `<li class="access" data-testid="conflict-${r.order}" data-read="${i}" data-req="${w.request}" ` +
      `title="click: highlight the worst request's elements"><b>${what}</b>` +
      ` (${r.order === "column" ? "down each 16-byte column" : "along each row"}): ` +
      `${plural(r.wavefronts, "wavefront")} vs ideal ${r.ideal} in ${plural(r.requests.length, "request")} — ${verdict}` +
      `<div class="ex">worst request #${w.request}: ${w.wavefronts} vs ${w.ideal}${escapeHtml(banks)}</div>`;
    if (r.requests.length > 1) {
      const shown = r.requests.slice(0, 64);
      html += `<div class="chips">` + shown.map((q, k) => {
        const ratio = q.wavefronts / Math.max(1, r.ideal_per_request);
        const cls = ratio <= 1 ? "c1" : ratio <= 2 ? "c2" : "c3";
        return `<button class="${cls}" data-read="${i}" data-req="${k}" title="request ${k}: ${q.lanes} lanes, ${q.wavefronts} wavefronts">#${k} ${q.wavefronts}</button>`;
      }).join("") + (r.requests.length > shown.length ? ` <span class="muted">… ${r.requests.length - shown.length} more</span>` : "") + `</div>`;
    }
    html += `</li>`;
  });
  return html + `</ul>`;
}

// One line (collapsed) when nothing needs doing: "legal · conflict-free"; open when
// there are findings or bank conflicts to look at.
export function renderAnalysis(a, data) {
  const c = a.conflicts;
  const conflicted = c && !c.note && c.reads.some((r) => !r.error && !r.conflict_free);
  // idle coordinates alone need no fixing (as `tilelayout check` exits 0): a note
  const notes = a.legality.findings.every((f) => f.kind === "unused");
  const parts = [a.legality.ok ? "legal" : notes ? `legal · ${plural(a.legality.findings.length, "note")}`
    : plural(a.legality.findings.length, "finding")];
  if (c && !c.note) parts.push(conflicted ? "bank conflicts" : "no bank conflicts");
  const open = !a.legality.ok || conflicted;
  return `<details data-testid="analysis-toggle"${open ? " open" : ""}><summary><h3>legality</h3> ` +
    `<span class="oneline">${parts.join(" · ")}</span></summary>` +
    `${legalityHtml(a.legality, data)}${conflictsHtml(a.conflicts)}</details>`;
}

export function requestLabel(read, k, shape) {
  const q = read.requests[k];
  const first = q.elements.length ? indexText(q.elements[0], shape) : "";
  return `${read.order} read, request #${k} (${q.lanes} lanes from ${first}): ${q.wavefronts} wavefronts`;
}
