// Small helpers every SVG renderer uses: rounding to a tenth, escaping text for markup, and
// keeping a number within bounds.

export function r1(v) {
  return Math.round(v * 10) / 10;
}

export function esc(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}
