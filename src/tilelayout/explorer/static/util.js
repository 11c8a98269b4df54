// Small helpers shared by every part of the page: element lookup, HTML escaping and
// row-major index arithmetic (one copy of each).

export const $ = (id) => document.getElementById(id);

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

// text -> HTML text (also safe inside attribute values)
export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

// flat row-major index -> index tuple over `shape`
export function unravel(flat, shape) {
  const out = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) { out[d] = flat % shape[d]; flat = Math.floor(flat / shape[d]); }
  return out;
}

// index tuple -> flat row-major index
export function ravel(idx, shape) {
  let f = 0;
  for (let d = 0; d < shape.length; d++) f = f * shape[d] + idx[d];
  return f;
}

export const plural = (n, word) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;
