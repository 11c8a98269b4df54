// The details panel: renders what the API returned (explain(...).to_dict(), elements_at).
import { escapeHtml, unravel } from "./util.js";

const coordHtml = (c) => `<span class="coord mono">${escapeHtml(
  Object.entries(c).map(([a, v]) => `${a}=${v}`).join(", "))}</span>`;

function indexText(index, names) {
  return index.map((x, k) => `${names[k] || "d" + k}=${x}`).join(", ");
}

export function renderDetails(ex, data) {
  const names = data.dim_names;
  const idx = ex.index;
  const shape = ex.shape;
  const flatTerms = idx.map((x, d) => {
    const s = shape.slice(d + 1).reduce((a, b) => a * b, 1);
    return s === 1 ? `${x}` : `${x}·${s}`;
  }).join(" + ") || "0";
  const sums = ex.sums.map((s) => {
    const parts = s.terms.map(([c, st]) => `${c}·${st}`);
    if (s.offset) parts.push(`${s.offset} <i>(offset)</i>`);
    return `<tr><th class="mono">${escapeHtml(s.axis)}</th><td class="mono">${parts.join(" + ") || "0"} = <b>${s.value}</b></td></tr>`;
  }).join("");
  const nonTrivialReplica = ex.replicas.length > 1 || ex.replicas.some((r) => Object.values(r.added).some((v) => v));
  const reps = nonTrivialReplica
    ? ex.replicas.map((r) => {
      const add = Object.entries(r.added).filter(([, v]) => v).map(([a, v]) => `+${v}@${a}`).join(" ") || "+0";
      return `<tr><th class="mono">r=(${r.combination.join(",")})</th><td class="mono">${escapeHtml(add)} → ${coordHtml(r.coord)}</td></tr>`;
    }).join("")
    : `<tr><td>none: L(x) is the single base coordinate</td></tr>`;
  const swz = ex.swizzle.length
    ? `<h4>memory chain</h4><table>` + ex.swizzle.map((s) =>
      `<tr><td class="mono">m=${s.m} → ${data.swizzle ? "swizzled " : ""}address ${s.address}` +
      (s.byte !== null && s.byte !== undefined
        ? ` → byte ${s.byte} → bank word ${s.bankword} → <b>bank ${s.bank}</b>, line ${s.line}` : "") +
      `</td></tr>`).join("") + `</table>` : "";
  const owners = ex.coords.map(coordHtml).join("");
  // a swizzled layout: the owners' m is the address after the swizzle, step 3's before it
  const moved = data.swizzle ? ex.swizzle.filter((s) => s.m !== s.address) : [];
  const swzNote = moved.length
    ? `<p class="note" data-testid="swizzle-note">The owner's <span class="mono">m=${moved.map((s) => s.address).join(", ")}</span> is the address after the swizzle; step 3 computes <span class="mono">m = ${moved.map((s) => s.m).join(", ")}</span> before it (the memory chain below shows both).</p>` : "";
  return `<h3>element (${escapeHtml(indexText(idx, names))})</h3>
<div class="owners"><b>${ex.coords.length} owner${ex.coords.length === 1 ? "" : "s"}:</b> ${owners}</div>${swzNote}
<table>
<tr><th>1. flatten</th><td class="mono">flat = ${flatTerms} = <b>${ex.flat}</b></td></tr>
<tr><th>2. split</th><td class="mono">by (${ex.extents.join(", ")}): c = (${ex.components.join(", ")})</td></tr>
<tr><th>3. accumulate + offset</th><td><table>${sums}</table></td></tr>
<tr><th>4. replica</th><td><table>${reps}</table></td></tr>
</table>${swz}`;
}

function elementChips(elems, data, limit = 256) {
  const chips = elems.slice(0, limit).map((e) => `<span>(${unravel(e, data.shape).join(",")})</span>`).join("");
  return `<div class="chips">${chips}${elems.length > limit ? ` <i>… ${elems.length - limit} more</i>` : ""}</div>`;
}

export function renderSlotDetails(label, coords, res, data) {
  const list = Array.isArray(coords) ? coords : [coords];
  return `<h3>${escapeHtml(label)}</h3>
<p>${list.length === 1 ? "coordinate " + coordHtml(list[0]) + " holds" : `${list.length} coordinates hold`}
<b>${res.flat.length}</b> logical element${res.flat.length === 1 ? "" : "s"} (elements_at):</p>
${elementChips(res.flat, data)}`;
}

export function renderSetDetails(label, elems, data, access) {
  let extra = "";
  if (access) {
    // bank words touched when the set is read by one request (POST /api/access)
    const w = access.words.length, b = access.banks.length, ways = access.ways;
    extra = `<p data-testid="access">touches <b>${w}</b> bank word${w === 1 ? "" : "s"} in <b>${b}</b> bank${b === 1 ? "" : "s"};
 at most <b>${ways}</b> distinct word${ways === 1 ? "" : "s"} in one bank:
 ${ways <= 1 ? '<span class="ok">conflict-free if read by one request</span>'
    : `<span class="bad">${ways}-way bank conflict if read by one request</span>`}</p>`;
  }
  return `<h3>${escapeHtml(label)}</h3><p><b>${elems.length}</b> element${elems.length === 1 ? "" : "s"}; their owners are highlighted.</p>${extra}${elementChips(elems, data, 128)}`;
}
