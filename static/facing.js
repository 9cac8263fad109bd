// A hex-facing facing (0-11) in words: the compass point of its direction on the screen (the
// map's top is north), for a map of either orientation, and whether it faces a hexside or a
// vertex; the arrow is drawn at facingAngle (an SVG turned, not a character). Used by the play
// panel and the editor's order of battle. Plain ES2020 so it parses on older iPad Safari.

// Screen angle (degrees, clockwise from east) of hex direction 0 on each orientation.
const DIRECTION_0 = { flat: -30, pointy: -60 };
// Sixteen points: the twelve facings of a hex map fall on twelve different ones.
const COMPASS = [
  "e",
  "ese",
  "se",
  "sse",
  "s",
  "ssw",
  "sw",
  "wsw",
  "w",
  "wnw",
  "nw",
  "nnw",
  "n",
  "nne",
  "ne",
  "ene",
];

// The screen angle of facing n on a map of `orientation` ("flat" when unknown).
export function facingAngle(orientation, n) {
  const zero = DIRECTION_0[orientation] === undefined ? -30 : DIRECTION_0[orientation];
  return zero + 30 * n;
}

// The compass key of facing n ("compass.ene").
export function facingCompass(orientation, n) {
  const point = ((Math.round(facingAngle(orientation, n) / 22.5) % 16) + 16) % 16;
  return "compass." + COMPASS[point];
}

// Facing n in words, "east-north-east (hexside)"; t(key, params) words a key. An even facing
// faces a hexside, an odd one the vertex between two hexsides.
export function facingWord(t, orientation, n) {
  const dir = t(facingCompass(orientation, n));
  return t(n % 2 ? "facing.vertex" : "facing.hexside", { dir: dir });
}

// Facings in compass order, clockwise from north.
export function byBearing(orientation, facings) {
  const bearing = (n) => (((facingAngle(orientation, n) + 90) % 360) + 360) % 360;
  return facings.slice().sort((a, b) => bearing(a) - bearing(b));
}

// The arrow of facing n: an SVG arrow turned to its angle on the map (as the counters draw it).
export function facingArrowSvg(orientation, n, size) {
  return (
    `<svg class="facing-arrow" viewBox="-12 -12 24 24" width="${size}" height="${size}" aria-hidden="true">` +
    `<g transform="rotate(${facingAngle(orientation, n)})"><line x1="-8" y1="0" x2="4" y2="0" stroke="currentColor" stroke-width="2.4"/>` +
    '<polygon points="10,0 2,-5 2,5" fill="currentColor"/></g></svg>'
  );
}
