// The area map's keyboard cursor and taps (AreaMap's hooks of PanZoomMap, area.js): where the
// cursor may stop (every locale, approach and block), how the arrows move it, what the live
// region says of the target under it, and what a tap on a block, an approach or a locale
// reports. Methods of AreaMap; they only point and report, never decide a rule.
import { r1, esc } from "./svg.js";
import { BLOCK, BAR_THICK, PITCH, rect, pointsAttr } from "./areashapes.js";

export const areaCursorMethods = {
  // ---- the keyboard's cursor (PanZoomMap's hooks) ------------------------------------

  // Where the cursor may stand: every locale (at its centroid), every approach a tap may
  // take (at its marker) and every block (where it is drawn); each with the target a tap
  // there reports. Keys: "locale:<id>", "approach:<a/b>", "piece:<id>".
  _stops() {
    const out = [];
    this._locales.forEach((L, id) => {
      out.push({ key: "locale:" + id, x: L.c[0], y: L.c[1], target: this._localeTarget(id) });
    });
    this._approaches.forEach((g, id) => {
      if ((g.data.flags || []).indexOf("impassable") >= 0) return;
      out.push({ key: "approach:" + id, x: g.x, y: g.y, target: this._approachTarget(g) });
    });
    for (const p of this._pieces) {
      const at = this._pos.get(p.id);
      if (!at) continue;
      out.push({ key: "piece:" + p.id, x: at[0], y: at[1], target: this._pieceTarget(p) });
    }
    return out;
  },

  _stop(key) {
    return key ? this._stops().find((s) => s.key === key) || null : null;
  },

  // Put the cursor on a place (locale id or approach "a/b") or a block id.
  setCursor(id) {
    const key = ["piece:", "approach:", "locale:"].map((k) => k + id).find((k) => this._stop(k));
    if (!key) return;
    this._cursor = key;
    this._kbAxis = null;
    this._cursorShown(true);
  },

  _cursorPoint() {
    const s = this._stop(this._cursor);
    return s ? { x: s.x, y: s.y } : null;
  },

  _selectedKey() {
    const sel = Array.from(this._selectedSet());
    return sel.length ? "piece:" + sel[0] : null;
  },

  // The selected block, else the locale whose centre is nearest the middle of the view.
  _cursorStart() {
    const sel = this._selectedKey();
    let key = sel && this._stop(sel) ? sel : null;
    if (!key) {
      let best = Infinity;
      this._locales.forEach((L, id) => {
        const d = Math.hypot(L.c[0] - this._cx, L.c[1] - this._cy);
        if (d < best) {
          best = d;
          key = "locale:" + id;
        }
      });
    }
    this._cursor = key;
    this._kbAxis = null;
  },

  _cursorSelection() {
    return this._selectedKey();
  },

  // To the nearest stop within 60 degrees of the arrow: the distance along the arrow plus
  // twice the distance across it, so the straightest near stop wins.
  _cursorMove(step) {
    const from = this._cursorPoint();
    const next = this._toward(
      from,
      step,
      this._stops(),
      60,
      (d, cos) => d * cos + 2 * d * Math.sqrt(Math.max(0, 1 - cos * cos)),
    );
    if (next) this._cursor = next.key;
  },

  // What a tap may act on: the lit blocks, locales and approaches, in reading order.
  _litStops() {
    const m = this._lit;
    if (!m) return [];
    const keys = new Set(
      m.units
        .map((id) => "piece:" + id)
        .concat(m.locales.map((id) => "locale:" + id))
        .concat(m.approaches.map((id) => "approach:" + id)),
    );
    return this._stops()
      .filter((s) => keys.has(s.key))
      .sort((p, q) => p.y - q.y || p.x - q.x);
  },

  _cursorJump(dir) {
    const stops = this._litStops();
    if (!stops.length) return;
    const here = this._cursorPoint();
    let i = stops.findIndex((s) => s.key === this._cursor);
    if (i < 0 && here) {
      i = stops.findIndex(
        (s) => s.y > here.y + 1e-6 || (Math.abs(s.y - here.y) <= 1e-6 && s.x > here.x),
      );
      if (i < 0) i = stops.length;
      i = dir > 0 ? i - 1 : i;
    }
    this._cursor = stops[(((i + dir) % stops.length) + stops.length) % stops.length].key;
  },

  // Enter or Space: what a tap on the block, approach or locale under the cursor does.
  _cursorTap() {
    const s = this._stop(this._cursor);
    if (s && this.onTap) this.onTap(s.target);
  },

  _drawCursor() {
    const s = this._stop(this._cursor);
    let shape = "";
    if (s && s.target.kind === "locale") {
      const pts = pointsAttr(this._locales.get(s.target.id).poly);
      shape =
        `<polygon class="am-cursor-casing" points="${pts}"/>` +
        `<polygon class="am-cursor-ring" points="${pts}"/>` +
        `<polygon class="am-cursor-dash" points="${pts}"/>`;
    } else if (s) {
      const g = s.target.kind === "approach" ? this._approaches.get(s.target.id) : null;
      const w = g ? g.len + 20 : BLOCK + 14;
      const h = g ? BAR_THICK + 20 : BLOCK + 14;
      const turn = g ? ` rotate(${r1(g.angle)})` : "";
      shape =
        `<g transform="translate(${r1(s.x)} ${r1(s.y)})${turn}">` +
        rect(w, h, 8, 'class="am-cursor-casing"') +
        rect(w, h, 8, 'class="am-cursor-ring"') +
        rect(w, h, 8, 'class="am-cursor-dash"') +
        "</g>";
    }
    this.layers.cursor.innerHTML = s
      ? `<g data-cursor="${esc(s.key.slice(s.key.indexOf(":") + 1))}" data-cursor-kind="${s.target.kind}">${shape}</g>`
      : "";
  },

  // What the live region says: the target (as a tap reports it) with the locale's or the
  // block's data, whether a tap there acts, and whether the block is selected.
  _cursorWhat() {
    const s = this._stop(this._cursor);
    if (!s) return null;
    const t = s.target;
    const m = this._lit;
    const out = Object.assign({}, t);
    if (t.kind === "locale") {
      out.locale = this._locales.get(t.id).data;
      out.pieces = this._pieces.filter((p) => p.locale === t.id && !p.approach);
      out.lit = Boolean(m && m.locales.indexOf(String(t.id)) >= 0);
    } else if (t.kind === "approach") {
      const g = this._approaches.get(t.id);
      out.approach = g.data;
      out.name = this._approachName(g.data);
      out.pieces = this._pieces.filter((p) => p.locale + "/" + p.approach === t.id);
      out.lit = Boolean(m && m.approaches.indexOf(String(t.id)) >= 0);
    } else {
      out.piece = this._pieces.find((p) => String(p.id) === String(t.id));
      const L = this._locales.get(t.locale);
      out.localeName = L ? L.data.name : t.locale;
      const g = t.place !== t.locale ? this._approaches.get(t.place) : null;
      out.approachName = g ? this._approachName(g.data) : null;
      out.lit = Boolean(m && m.units.indexOf(String(t.id)) >= 0);
      out.selected = this._selectedSet().has(String(t.id));
    }
    return out;
  },

  _cursorMargin() {
    return PITCH * 1.2;
  },

  // ---- taps: hooks of PanZoomMap ---------------------------------------------------

  // What a tap on element el reports: a piece, else an approach, else a locale, else null.
  _tapTarget(el) {
    if (!el || !el.closest) return null;
    const piece = el.closest("[data-piece]");
    if (piece) {
      const id = piece.getAttribute("data-piece");
      const p = this._pieces.find((q) => String(q.id) === id);
      if (p) return this._pieceTarget(p);
    }
    const ap = el.closest("[data-approach]");
    if (ap) {
      const g = this._approaches.get(ap.getAttribute("data-approach"));
      if (g) return this._approachTarget(g);
    }
    const loc = el.closest("[data-locale]");
    return loc ? this._localeTarget(loc.getAttribute("data-locale")) : null;
  },

  // The targets a tap reports (the class comment): a block, an approach, a locale.
  _pieceTarget(p) {
    const place = (this._groupOf && this._groupOf.get(p.id)) || p.locale;
    return {
      kind: "piece",
      id: p.id,
      locale: p.locale,
      approach: p.approach || null,
      place: place,
      stack: this._overlapping(p),
    };
  },

  // The blocks drawn on top of one another where p is (p among them), in drawing order: a
  // tap there could mean any of them. Blocks side by side in a locale are not a stack.
  _overlapping(p) {
    const pos = this._pos;
    const at = pos && pos.get(p.id);
    if (!at) return [p.id];
    return this._pieces
      .filter((q) => {
        const b = pos.get(q.id);
        return b && Math.abs(b[0] - at[0]) < BLOCK && Math.abs(b[1] - at[1]) < BLOCK;
      })
      .map((q) => q.id);
  },

  _approachTarget(g) {
    const d = g.data;
    return { kind: "approach", id: d.from + "/" + d.facing, locale: d.from, facing: d.facing };
  },

  _localeTarget(id) {
    return { kind: "locale", id: id };
  },

  _reportTap(g) {
    if (g.target && this.onTap) this.onTap(g.target);
  },
};
