// The hex map's keyboard cursor (HexMap's hooks of PanZoomMap, hex.js): it stands on a hex,
// starts on the selected unit's hex or the hex nearest the middle of the view, steps to the
// neighbouring hex the arrow points at, jumps between the hexes a tap may act on, and says
// what the hex holds. Methods of HexMap; they only point and report, never decide a rule.
import { unique } from "./svg.js";
import { SIZE, DIRECTIONS } from "./hexgrid.js";

export const hexCursorMethods = {
  setCursor(label) {
    if (!this._grid || !this._grid.has(label)) return;
    this._cursor = label;
    this._kbAxis = null;
    this._cursorShown(true);
  },

  _cursorPoint() {
    const p = this._cursor && this._grid ? this._grid.center(this._cursor) : null;
    return p ? { x: p[0], y: p[1] } : null;
  },

  // The selected unit's hex, else the selected hex, else the hex in the middle of the view.
  _cursorStart() {
    const grid = this._grid;
    if (!grid) return;
    const sel = this._selectedId();
    const unit = sel == null ? null : this._units.find((u) => u && String(u.id) === sel);
    let label = unit && grid.has(unit.hex) ? unit.hex : null;
    if (!label && this._selected && this._inView(this._cursorPointOf(this._selected))) {
      label = this._selected;
    }
    if (!label) label = grid.labelAt(this._cx, this._cy) || this._nearestHex(this._cx, this._cy);
    this._cursor = label;
    this._kbAxis = null;
  },

  _cursorPointOf(label) {
    const p = this._grid.center(label);
    return { x: p[0], y: p[1] };
  },

  _nearestHex(x, y) {
    let best = null;
    let bestD = Infinity;
    for (const c of this._grid.cells()) {
      const d = Math.hypot(c.x - x, c.y - y);
      if (d < bestD) {
        best = c.label;
        bestD = d;
      }
    }
    return best;
  },

  _cursorSelection() {
    return this._selectedId();
  },

  // To the neighbour in the arrow's direction (of the one or two nearest it, the one back
  // toward the row or column the arrows began on); none off the map.
  _cursorMove(step) {
    const grid = this._grid;
    const a = grid.axialOf(this._cursor);
    if (!a) return;
    const near = [];
    for (const d of DIRECTIONS) {
      const o = grid.fromAxial(a[0] + d[0], a[1] + d[1]);
      if (!grid.contains(o[0], o[1])) continue;
      const p = grid.pixel(a[0] + d[0], a[1] + d[1]);
      near.push({ x: p[0], y: p[1], label: grid.label(o[0], o[1]) });
    }
    const from = this._cursorPoint();
    const next = this._toward(from, step, near, 45, (d, cos) => -cos);
    if (next) this._cursor = next.label;
  },

  // The hexes a tap may act on (lit units' hexes and lit places), in reading order.
  _litHexes() {
    const l = this._light;
    if (!l || !this._grid) return [];
    const lit = new Set(l.units);
    const labels = this._units.filter((u) => u && lit.has(String(u.id))).map((u) => u.hex);
    return unique(labels.concat(l.places))
      .filter((label) => this._grid.has(label))
      .map((label) => Object.assign({ label }, this._cursorPointOf(label)))
      .sort((p, q) => p.y - q.y || p.x - q.x);
  },

  _cursorJump(dir) {
    const stops = this._litHexes();
    if (!stops.length) return;
    const here = this._cursorPoint();
    let i = stops.findIndex((s) => s.label === this._cursor);
    if (i < 0 && here) {
      // From a hex that is not lit: the next in reading order after it (or the one before).
      i = stops.findIndex(
        (s) => s.y > here.y + 1e-6 || (Math.abs(s.y - here.y) <= 1e-6 && s.x > here.x),
      );
      if (i < 0) i = stops.length;
      i = dir > 0 ? i - 1 : i;
    }
    this._cursor = stops[(((i + dir) % stops.length) + stops.length) % stops.length].label;
  },

  // Enter or Space: what a tap on the hex's middle does, the top counter tapped if any.
  _cursorTap() {
    const label = this._cursor;
    if (!label || !this.onHexTap) return;
    const stack = this.hexInfo(label).units;
    const sel = this._selectedId();
    const top = stack.indexOf(sel) >= 0 ? sel : stack.length ? stack[stack.length - 1] : null;
    const c = this._mapToClient(this._cursorPoint());
    this._tapHex(label, top, "keyboard", c.x, c.y);
  },

  _drawCursor() {
    const grid = this._grid;
    const p = this._cursor && grid ? grid.center(this._cursor) : null;
    if (!p) {
      this.layers.cursor.innerHTML = "";
      return;
    }
    const pts = grid.points(p[0], p[1]);
    this.layers.cursor.innerHTML =
      `<polygon class="hm-cursor-casing" points="${pts}"/>` +
      `<polygon class="hm-cursor-ring" points="${pts}"/>` +
      `<polygon class="hm-cursor-dash" data-cursor="${this._cursor}" points="${pts}"/>`;
  },

  // What the live region says: the hex, its terrain and level, its units (the top last,
  // with their side, facing and markers), whether a tap there acts, and the selected unit.
  _cursorWhat() {
    const info = this._cursor ? this.hexInfo(this._cursor) : null;
    if (!info) return null;
    const l = this._light;
    const litUnits = new Set((l && l.units) || []);
    const units = this._units.filter((u) => u && u.hex === this._cursor);
    return {
      kind: "hex",
      hex: info.label,
      terrain: info.terrain,
      level: info.level,
      units: units,
      lit:
        Boolean(l && l.places.indexOf(info.label) >= 0) ||
        units.some((u) => litUnits.has(String(u.id))),
      selected: units.some((u) => String(u.id) === this._selectedId()),
    };
  },

  _cursorMargin() {
    return SIZE * 1.3;
  },
};
