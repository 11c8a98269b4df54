// The colours of the grids (cell fills come from the drawing model): light, and dark for
// a page that follows a dark system setting; exports are always light.
export const LIGHT = {
  bg: "#ffffff", empty: "#efedea", tileBg: "#e7e5e4", head: "#44403c", label: "#57534e",
  band: "rgba(255,255,255,0.94)", text: "#1c1917", dim: "rgba(255,255,255,0.68)",
  ring: "#111111", primary: "#2563eb", mark: "#b91c1c",
};
export const DARK = {
  bg: "#1c1917", empty: "#3a3633", tileBg: "#292524", head: "#e7e5e4", label: "#d6d3d1",
  band: "rgba(28,25,23,0.94)", text: "#1c1917", dim: "rgba(28,25,23,0.72)",
  ring: "#fafaf9", primary: "#60a5fa", mark: "#b91c1c",
};
