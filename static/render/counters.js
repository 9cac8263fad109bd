// Counters of the hex map (hex.js): the square unit counter, its facing arrow, the marker
// badges the caller gives (unit.markers) and the fan of a stack. Draws only.
// Plain ES2020 so it parses on older iPad Safari.

import { r1, esc } from "./svg.js";
import { DIRECTIONS } from "./hexgrid.js";

export const COUNTER = 64; // counter side in map units (a hex is 86.6 across its flats)
export const COUNTER_DY = 3; // a lone counter sits this far below the hex centre
export const NAME_FS = 13.5; // font sizes in map units
export const RATINGS_FS = 14.5;
export const BADGE_FS = 13.5;
// The smallest text a counter carries: HexMap's default zoom keeps it at 11 CSS px or more.
export const SMALLEST_FS = Math.min(NAME_FS, RATINGS_FS, BADGE_FS);
const STACK_STEP = 24; // vertical offset between counters of a stack: a name row shows
const STACK_SPAN = 48; // the fan of a deep stack stays within this many units
const BADGE_H = 18;

// Offsets [dx, dy] from the hex centre of each counter of a stack of n, bottom first: the
// fan goes up, so each counter under the top one shows its top row (its name).
export function stackOffsets(n) {
  const step = n > 1 ? Math.min(STACK_STEP, STACK_SPAN / (n - 1)) : 0;
  const out = [];
  for (let i = 0; i < n; i++) out.push([0, COUNTER_DY + (i - (n - 1) / 2) * step]);
  return out;
}

// The drawing order of a stack (the caller's order, bottom first): leaders under the units
// they stack with, so a fighting unit is drawn whole on top.
export function stackOrder(list) {
  const leaders = list.filter((u) => u.type === "leader");
  return leaders.length ? leaders.concat(list.filter((u) => u.type !== "leader")) : list;
}

const MAX_NAME = 11; // characters of a name on a counter; longer names are shortened

// A name short enough for a counter: the whole name; a leader's last name; a numbered
// unit's number ("IR 13 Itzenplitz" -> "IR 13"); a name's last word; else abbreviated.
export function shortName(name, type) {
  const whole = String(name || "");
  const full = whole.replace(/\s*\([^)]*\)\s*/g, " ").trim() || whole;
  if (full.length <= MAX_NAME) return full;
  const words = full.split(/\s+/);
  const last = words[words.length - 1];
  if (type === "leader") return last;
  const abbr = words
    .map((w) =>
      w
        .split("-")
        .map((p) => (p.length > 5 && !/\d/.test(p) && !/\.$/.test(p) ? p.slice(0, 4) + "." : p))
        .join("-"),
    )
    .join(" ");
  const numbered = words.findIndex((w) => /\d/.test(w));
  if (numbered >= 0) {
    const head = numbered > 0 ? words.slice(0, numbered + 1).join(" ") : words[0] + " " + last;
    if (numbered <= 2 && head.length <= MAX_NAME) return head;
    if (abbr.length <= MAX_NAME) return abbr;
  }
  if (words.length > 1 && !/\d/.test(last) && last.length <= MAX_NAME) return last;
  if (abbr.length <= MAX_NAME) return abbr;
  return last.length <= MAX_NAME ? last : abbr;
}

// The ratings a counter shows, in the order it shows them.
export function ratingKeys(ratings) {
  if (!ratings) return [];
  const order = ["strength", "morale", "movement"];
  return order.every((k) => k in ratings) ? order : Object.keys(ratings);
}

export function ratingsText(ratings) {
  if (!ratings) return "";
  return ratingKeys(ratings)
    .map((k) => {
      const v = ratings[k];
      return /modifier$/.test(k) && v > 0 ? "+" + v : String(v);
    })
    .join("-");
}

// The type symbol of a counter, drawn around (0, cy) in colour c.
export function typeSymbol(type, c, cy) {
  if (type === "leader") {
    let d = "";
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? 4.2 : 10;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      d += (i ? "L" : "M") + r1(rad * Math.cos(a)) + " " + r1(cy + rad * Math.sin(a));
    }
    return `<path d="${d}Z" fill="${c}"/>`;
  }
  const w = 13;
  const h = 8;
  const box = `<rect x="${-w}" y="${cy - h}" width="${2 * w}" height="${2 * h}" fill="none" stroke="${c}" stroke-width="1.7"/>`;
  if (type === "infantry") {
    return (
      box +
      `<path d="M${-w} ${cy - h}L${w} ${cy + h}M${-w} ${cy + h}L${w} ${cy - h}" stroke="${c}" stroke-width="1.4"/>`
    );
  }
  if (type === "cavalry") {
    return box + `<path d="M${-w} ${cy + h}L${w} ${cy - h}" stroke="${c}" stroke-width="1.5"/>`;
  }
  if (type === "artillery") {
    return box + `<circle cx="0" cy="${cy}" r="3.8" fill="${c}"/>`;
  }
  return box;
}

let measureCtx = null;

// The width of a text in map units, measured in the map's font when a canvas is at hand,
// else estimated from widthPerEm.
function textWidth(text, fs, weight, font, widthPerEm) {
  if (measureCtx === null) {
    try {
      measureCtx = document.createElement("canvas").getContext("2d") || false;
    } catch (err) {
      measureCtx = false;
    }
  }
  if (measureCtx && font) {
    measureCtx.font = weight + " 100px " + font;
    return (measureCtx.measureText(text).width * fs) / 100;
  }
  return text.length * fs * widthPerEm;
}

// A text that keeps its height and is squeezed sideways to fit maxW when it would not.
// spacing: the letter-spacing hex.css gives it, in em.
function fitText(cls, text, y, fs, weight, spacing, font, maxW) {
  const w = textWidth(text, fs, weight, font, 0.64) + text.length * fs * spacing;
  const fit = w > maxW ? ` textLength="${maxW}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text class="${cls}" y="${y}" font-size="${fs}"${fit}>${esc(text)}</text>`;
}

// The markers of a unit as given by the caller: [{id, sign, title}]. Older callers pass
// `marks`, a list of short signs: each becomes a marker whose id and sign are that sign.
export function markersOf(u) {
  if (Array.isArray(u.markers)) return u.markers.filter((m) => m && m.sign != null);
  if (Array.isArray(u.marks)) return u.marks.map((m) => ({ id: m, sign: m, title: m }));
  return [];
}

// Marker badges in a column hanging off the counter's right side, from its top: each a
// light pill with the sign, data-marker = the marker's id, its title as a tooltip.
function badgesSvg(markers) {
  if (!markers.length) return "";
  const x0 = COUNTER / 2 - 2;
  let y = -COUNTER / 2;
  let s = `<g class="hm-badges hm-marks" data-marks="${esc(markers.map((m) => m.id).join(","))}">`;
  for (const m of markers) {
    const sign = String(m.sign);
    const w = Math.max(BADGE_H, sign.length * BADGE_FS * 0.62 + 8);
    s +=
      `<g class="hm-badge" data-marker="${esc(m.id)}">` +
      (m.title ? `<title>${esc(m.title)}</title>` : "") +
      `<rect x="${x0}" y="${r1(y)}" width="${r1(w)}" height="${BADGE_H}" rx="4"/>` +
      `<text x="${r1(x0 + w / 2)}" y="${r1(y + BADGE_H / 2 + BADGE_FS * 0.36)}" font-size="${BADGE_FS}">${esc(sign)}</text></g>`;
    y += BADGE_H + 1.5;
  }
  return s + "</g>";
}

// Facing 0-11 (the core's convention): an even value 2d faces the hexside towards
// direction d; an odd value 2d+1 faces the vertex between directions d and d+1.
function facingSvg(grid, facing, ink) {
  const d = DIRECTIONS[Math.floor(facing / 2)];
  const e = DIRECTIONS[(Math.floor(facing / 2) + (facing % 2)) % 6];
  const p = grid.pixel(d[0] + e[0], d[1] + e[1]);
  const len = Math.hypot(p[0], p[1]);
  const ux = p[0] / len;
  const uy = p[1] / len;
  const h = COUNTER / 2;
  const t = h / Math.max(Math.abs(ux), Math.abs(uy));
  const bx = ux * t;
  const by = uy * t;
  const w = 6;
  const pts = [
    [bx + ux * 7.5, by + uy * 7.5],
    [bx - ux * 1.5 - uy * w, by - uy * 1.5 + ux * w],
    [bx - ux * 1.5 + uy * w, by - uy * 1.5 - ux * w],
  ];
  return `<polygon class="hm-facing" points="${pts
    .map((q) => r1(q[0]) + "," + r1(q[1]))
    .join(" ")}" fill="${esc(ink)}" stroke="#1c1c1c" stroke-width="1"/>`;
}

// A ring round the counter, grown by `grow` units each side, on a dark casing.
function ring(cls, grow) {
  const s = COUNTER + 2 * grow;
  const at = `x="${-s / 2}" y="${-s / 2}" width="${s}" height="${s}" rx="${5 + grow / 2}"`;
  return `<rect class="${cls}-casing" ${at}/><rect class="${cls}" ${at}/>`;
}

// The halo of a counter a tap may act on, centred on (x, y): drawn under every counter,
// so a lit counter never hides the one under it in a stack.
export function haloSvg(u, x, y) {
  return (
    `<g class="hm-halo" data-halo="${esc(u.id)}" transform="translate(${r1(x)} ${r1(y)})">` +
    ring("hm-unit-lit-ring", 4.5) +
    "</g>"
  );
}

// One counter centred on (x, y). o: {grid, side, label, ratings, lit, selected, stackCount,
// covered, font: the map's font family, to measure names}. A covered counter (under another
// in a stack, only its top row in sight) shows its ratings in that row, a leader's after a
// star, and its name at the bottom.
export function counterSvg(u, x, y, o) {
  const side = o.side || {};
  const fill = side.color || "#9a9a9a";
  const ink = side.text || "#111111";
  const type = u.type || "";
  const h = COUNTER / 2;
  let cls = "hm-unit hm-unit-" + esc(type);
  if (o.selected) cls += " hm-unit-selected";
  if (o.lit) cls += " hm-unit-lit";
  const status = u.status ? String(u.status) : "";
  if (status) cls += " hm-status-" + esc(status);
  let s =
    `<g class="${cls}" data-unit="${esc(u.id)}" data-at="${esc(u.hex)}" transform="translate(${r1(x)} ${r1(y)})">` +
    `<title>${esc(u.name || u.id)}${side.name ? " (" + esc(side.name) + ")" : ""}</title>`;
  s +=
    `<rect class="hm-unit-shadow" x="${-h + 2}" y="${-h + 2}" width="${COUNTER}" height="${COUNTER}" rx="5" fill="#000" fill-opacity="0.38"/>` +
    `<rect class="hm-unit-body" x="${-h}" y="${-h}" width="${COUNTER}" height="${COUNTER}" rx="5" fill="${esc(fill)}" stroke="#1c1c1c" stroke-opacity="0.75" stroke-width="1.3"/>`;
  if (status === "disordered" || status === "routed") {
    // A state the caller still passes as `status`: a coloured inner border, no letter.
    s += `<rect class="hm-status" x="${-h + 3}" y="${-h + 3}" width="${COUNTER - 6}" height="${COUNTER - 6}" rx="3"/>`;
  }
  s += typeSymbol(type, esc(ink), 1);
  const maxW = COUNTER - 6;
  const covered = o.covered && o.ratings;
  s += `<g class="hm-unit-text" fill="${esc(ink)}" text-anchor="middle">`;
  s += fitText(
    "hm-unit-name",
    o.label,
    covered ? h - 5.5 : -h + 13.5,
    NAME_FS,
    600,
    0,
    o.font,
    maxW,
  );
  if (covered && type === "leader") {
    s += `<g transform="translate(${-h + 9} ${-h + 8.5}) scale(0.6)">${typeSymbol(type, esc(ink), 0)}</g>`;
    s += `<g transform="translate(8 0)">`;
    s += fitText("hm-unit-ratings", o.ratings, -h + 14, RATINGS_FS, 700, 0.04, o.font, maxW - 16);
    s += "</g>";
  } else if (o.ratings) {
    const y = covered ? -h + 14 : h - 5.5;
    s += fitText("hm-unit-ratings", o.ratings, y, RATINGS_FS, 700, 0.04, o.font, maxW);
  }
  s += "</g>";
  if (typeof u.facing === "number" && u.facing >= 0 && u.facing < 12) {
    s += facingSvg(o.grid, u.facing, ink);
  }
  if (o.selected) s += ring("hm-unit-sel-ring", 2.5);
  s += badgesSvg(markersOf(u));
  if (o.stackCount > 2) {
    s +=
      `<g class="hm-stack-count"><circle cx="${-h + 1}" cy="${-h + 1}" r="9.5"/>` +
      `<text x="${-h + 1}" y="${-h + 5.6}" font-size="13">${o.stackCount}</text></g>`;
  }
  return s + "</g>";
}
