// Small helpers every SVG renderer uses: rounding to a tenth, escaping text for markup,
// keeping a number within bounds, and a list of ids without repeats.

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

// An SVG line from (ax, ay) to (bx, by) with extra attributes.
export function line(ax, ay, bx, by, attrs) {
  return `<line x1="${r1(ax)}" y1="${r1(ay)}" x2="${r1(bx)}" y2="${r1(by)}" ${attrs}/>`;
}

// The ids of a list as strings, each once, in their order; nulls left out.
export function unique(list) {
  const seen = new Set();
  const out = [];
  for (const x of list || []) {
    if (x == null || seen.has(String(x))) continue;
    seen.add(String(x));
    out.push(String(x));
  }
  return out;
}
