// The URL holds the view (docs/explorer.md, "URLs"): preset, p.<param>, layout, shape, dtype, swizzle,
// color, select=i,j, zl / zp (px per cell of each view) and embed / notitle.
import { MIN_CELL, ZOOM_STEPS } from "./grid.js";
import { moveParams } from "./movestages.js";
import { state } from "./state.js";
import { $, unravel } from "./util.js";

export function writeURL() {
  const q = new URLSearchParams();
  const p = $("preset").value;
  if (p) q.set("preset", p);
  if (p && state.preset && state.preset.name === p) {
    for (const prm of state.preset.params) q.set(`p.${prm.name}`, prm.text);
  }
  q.set("layout", $("layout").value);
  if ($("shape").value && !state.shapeIgnored && !state.shapeAuto) q.set("shape", $("shape").value);
  if ($("dtype").value) q.set("dtype", $("dtype").value);
  if ($("swizzle").value && $("swizzle").value !== "none") q.set("swizzle", $("swizzle").value);
  if (state.color) q.set("color", state.color);
  if (state.sel && state.sel.type === "element" && state.data) {
    q.set("select", unravel(state.sel.flat, state.data.shape).join(","));
  }
  if (state.zoom.logical !== null) q.set("zl", String(+state.zoom.logical.toFixed(2)));
  if (state.zoom.physical !== null) q.set("zp", String(+state.zoom.physical.toFixed(2)));
  moveParams(q);
  for (const flag of ["embed", "notitle"]) if (document.body.classList.contains(flag)) q.set(flag, "1");
  history.replaceState(null, "", `${location.pathname}?${q.toString()}`);
}

// a zoom level from the URL (zl, zp): px per cell, or null (fit) when absent or not a number
function zoomParam(text) {
  const z = text === null ? NaN : parseFloat(text);
  return Number.isFinite(z) && z > 0 ? Math.max(MIN_CELL, Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], z)) : null;
}

// what the URL asks for
// (a host page without a URL of its own, the notebook widget, sets globalThis.tilelayoutQuery)
export function readURL() {
  const q = new URLSearchParams(globalThis.tilelayoutQuery ?? location.search);
  const select = q.get("select") ? q.get("select").split(",").map((x) => parseInt(x, 10)) : null;
  const params = {};
  for (const [k, v] of q.entries()) if (k.startsWith("p.")) params[k.slice(2)] = v;
  return {
    preset: q.get("preset"), params, layout: q.get("layout"), shape: q.get("shape"),
    dtype: q.get("dtype"), swizzle: q.get("swizzle"), color: q.get("color"),
    select: select && select.every(Number.isFinite) ? select : null,
    zl: zoomParam(q.get("zl")), zp: zoomParam(q.get("zp")),
    embed: q.get("embed") === "1", notitle: q.get("notitle") === "1",
  };
}
