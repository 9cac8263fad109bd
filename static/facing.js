// A hex-facing facing (0-11) in words: the arrow and compass point of its direction on the
// screen, for a map of either orientation. Used by the play panel and the editor's order of
// battle. Plain ES2020 so it parses on older iPad Safari.

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
const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];

// The screen angle of facing n on a map of `orientation` ("flat" when unknown).
export function facingAngle(orientation, n) {
  const zero = DIRECTION_0[orientation] === undefined ? -30 : DIRECTION_0[orientation];
  return zero + 30 * n;
}

// Facing n in words; t(key) gives the words of a compass key ("compass.ene").
export function facingWord(t, orientation, n) {
  const angle = facingAngle(orientation, n);
  const point = ((Math.round(angle / 22.5) % 16) + 16) % 16;
  const arrow = ((Math.round(angle / 45) % 8) + 8) % 8;
  return ARROWS[arrow] + " " + t("compass." + COMPASS[point]);
}
