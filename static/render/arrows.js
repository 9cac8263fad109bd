// Attack arrows drawn by both map renderers (setArrows): one look per kind, told apart by
// colour and by dash, so they read without colour too. Slim and partly see-through, drawn
// above the counters without hiding them. Plain ES2020 so it parses on older iPad Safari.

import { r1, esc } from "./svg.js";

// kind -> colour and dash pattern (map units); an unknown kind is drawn plain dark grey.
export const ARROW_KINDS = {
  melee: { color: "#c8102e", dash: "" },
  assault: { color: "#7a0019", dash: "", wide: true },
  fire: { color: "#e06c00", dash: "11 6" },
  bombard: { color: "#6a3d9a", dash: "2 7" },
  attack: { color: "#0b5cad", dash: "16 5 3 5" },
};
const OTHER = { color: "#333333", dash: "" };

// An arrow from (x0, y0) to the tip (x1, y1); a = {from, to, kind} for its data attributes.
export function arrowSvg(x0, y0, x1, y1, a) {
  const kind = String(a.kind || "");
  const st = ARROW_KINDS[kind] || OTHER;
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1) return "";
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const width = st.wide ? 6 : 4.5;
  const headL = Math.min(len * 0.6, st.wide ? 19 : 16);
  const headW = st.wide ? 12 : 10;
  // The shaft stops inside the head so a dash never pokes through its tip.
  const sx = x1 - ux * headL * 0.7;
  const sy = y1 - uy * headL * 0.7;
  const bx = x1 - ux * headL;
  const by = y1 - uy * headL;
  const head = [
    [x1, y1],
    [bx - uy * headW, by + ux * headW],
    [bx + uy * headW, by - ux * headW],
  ]
    .map((p) => r1(p[0]) + "," + r1(p[1]))
    .join(" ");
  const shaft = `x1="${r1(x0)}" y1="${r1(y0)}" x2="${r1(sx)}" y2="${r1(sy)}"`;
  const dash = st.dash ? ` stroke-dasharray="${st.dash}"` : "";
  return (
    `<g class="pz-arrow pz-arrow-${esc(kind)}" data-kind="${esc(kind)}" data-from="${esc(a.from)}" data-to="${esc(a.to)}">` +
    `<line ${shaft} stroke="#ffffff" stroke-opacity="0.75" stroke-width="${width + 4}" stroke-linecap="round"/>` +
    `<polygon points="${head}" fill="#ffffff" fill-opacity="0.75" stroke="#ffffff" stroke-opacity="0.75" stroke-width="4" stroke-linejoin="round"/>` +
    `<line ${shaft} stroke="${st.color}" stroke-width="${width}" stroke-linecap="round"${dash}/>` +
    `<polygon points="${head}" fill="${st.color}"/></g>`
  );
}

// Arrows between the same two places both ways are pushed apart sideways (to each one's
// right) so neither hides the other: the sideways offset of arrow i, in map units.
export function arrowShift(arrows, i) {
  const a = arrows[i];
  for (let j = 0; j < arrows.length; j++) {
    if (j !== i && arrows[j].from === a.to && arrows[j].to === a.from) return 7;
  }
  return 0;
}
