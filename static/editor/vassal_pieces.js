// The piece names of a VASSAL module in groups an owner can take or leave at import: by the
// module's piece palettes (PieceWindow, and the TabWidget, PanelWidget, ListWidget and BoxWidget
// inside it), or by the pieces' prototypes when the palettes give one group only. Markers (the
// names of game aids, not units: "INTERDICT 1", "+2 MP", "3", "Out of Supply", or anything in a
// palette named like "Markers", "Counters", "Info") are grouped apart and left out by default.
// No DOM here: vassal.js reads the build file and hands each piece's palette and prototype.

// Palettes whose name says they hold game aids, not units.
const MARKER_PALETTE =
  /\b(markers?|counters?|info(rmation)?|status|charts?|tables?|tracks?|turns?|weather|aids?|misc(ellaneous)?|admin)\b/i;

// Names that are game aids: numbers, modifiers, words of game state.
const MARKER_WORDS =
  /\b(marker|turn|phase|control(led)?|disrupt(ed)?|demorali[sz]ed|out of supply|oos|isolated|interdict(ion)?|spent|moved|fired|used|victory|vp|weather|rain|fog|mud|snow|fatigue|dg|entrench(ed|ment)?|fortification|ammo|depleted|reinforcements?|round|score|initiative|command points?|cp|rp)\b/i;

// Is this piece name a marker (not a unit)?
export function isMarkerName(name) {
  const n = String(name || "").trim();
  if (!n) return true;
  // Numbers and signs alone: "3", "+2", "-1", "1/2", "x2".
  if (/^[\s\d+\-−–.,/:%×x*]*$/i.test(n)) return true;
  // A modifier first: "+2 MP", "-1 DRM".
  if (/^[+\-−–]\s*\d/.test(n)) return true;
  // Capital words and a number: "INTERDICT 1", "GAME TURN 3" (no lower-case letter at all,
  // at least one word of four capitals, a number last).
  if (!/[a-z]/.test(n) && /\b[A-Z]{4,}\b/.test(n) && /\d+$/.test(n)) return true;
  return MARKER_WORDS.test(n);
}

// Is this palette (its path of names, the piece window's first) one of game aids? A piece
// window is often called "Counters" for every piece of the game: its name counts only when
// it holds the pieces itself, and then not for that word.
export function isMarkerPalette(path) {
  const names = path || [];
  if (names.length === 1) {
    return MARKER_PALETTE.test(names[0].replace(/\bcounters?\b/gi, ""));
  }
  return names.slice(1).some((name) => MARKER_PALETTE.test(name));
}

// [{name, palette: [names], prototype}] (the module's pieces in file order, each name once) ->
// [{name, pieces: [names], marker}]: one group per palette (its names joined by " › "), or per
// prototype when every piece is in one palette; the marker names of a group of units in a group
// of their own beside it, marked as markers.
export function pieceGroups(pieces) {
  const paletteKey = (p) => (p.palette || []).join(" › ");
  const palettes = new Set(pieces.map(paletteKey));
  const byPrototype = palettes.size <= 1 && pieces.some((p) => p.prototype);
  const groups = new Map(); // key -> group
  const take = (key, name, marker, piece) => {
    let g = groups.get(key);
    if (!g) {
      g = { name, pieces: [], marker };
      groups.set(key, g);
    }
    g.pieces.push(piece);
  };
  for (const p of pieces) {
    const palette = paletteKey(p);
    const name = byPrototype ? p.prototype || palette : palette;
    const markerPalette = isMarkerPalette(p.palette) || (byPrototype && isMarkerPalette([name]));
    if (markerPalette) take("m:" + name, name, true, p.name);
    else if (isMarkerName(p.name)) take("m:" + name, name, true, p.name);
    else take("u:" + name, name, false, p.name);
  }
  return Array.from(groups.values());
}
