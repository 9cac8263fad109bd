// The maps' keyboard (PanZoomMap's, panzoom.js): the map's box takes focus, the arrows move a
// cursor from one thing a tap may act on to the next, Enter or Space taps under it, Page Down
// and Page Up jump between what a tap may act on, + and - zoom, and a polite live region says
// what is under the cursor. The subclass's _cursor* hooks (hex.js, area.js) say where the
// cursor may stand; their defaults are here. Methods of PanZoomMap.
import { clamp } from "./svg.js";

// The arrow keys' steps on the screen.
const KEY_STEPS = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  Up: [0, -1],
  Down: [0, 1],
  Left: [-1, 0],
  Right: [1, 0],
};

export const keyboardMethods = {
  // ---- keyboard: focus, cursor, Enter taps ------------------------------------------

  // The map's box takes focus (a role and a name for assistive technology; the app words
  // them); arrows move a cursor the subclass draws, Enter or Space taps under it, Page Down
  // and Page Up jump between what a tap may act on, + and - zoom. What is under the cursor
  // is said in a polite live region, in the words this.describe(what) gives (set by the app).
  _setupKeyboard(container) {
    container.classList.add("pz-map");
    container.setAttribute("tabindex", "0");
    container.setAttribute("role", "application");
    this._live = document.createElement("div");
    this._live.className = "pz-live";
    this._live.setAttribute("aria-live", "polite");
    container.appendChild(this._live);
    this.describe = null;
    this._kbAxis = null; // the arrows' axis of the last step ("h" or "v") and where it began
    this._kbAnchor = 0;
    this._cursorFor = null; // the selected piece when the cursor last moved
    this._kbListeners = [
      ["keydown", (e) => this._onKey(e)],
      ["focus", () => this._onFocus()],
      ["blur", () => this._keyboard(false)],
    ];
    for (const l of this._kbListeners) container.addEventListener(l[0], l[1]);
    // Space held anywhere in the page (strokes on): the left button pans. Listened to only
    // while a stroke handler is set.
    this._onSpaceKey = (e) => {
      if (e.key !== " " && e.key !== "Spacebar") return;
      const t = e.target;
      const typing =
        t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName || ""));
      if (typing) return;
      this._space = e.type === "keydown";
      this._svg.classList.toggle("pz-space", this._space);
    };
    this._onSpaceBlur = () => {
      this._space = false;
      this._svg.classList.remove("pz-space");
    };
  },

  // Give the map the focus (the cursor shows where it was, or starts anew).
  focus() {
    if (document.activeElement === this.container) {
      this._keyboard(true);
      return;
    }
    this._keyboard(true); // the focus event then starts the cursor
    this.container.focus({ preventScroll: true });
  },

  // Keyboard mode on (the cursor and the focus ring show) or off (a pointer took over).
  _keyboard(on) {
    this._kb = Boolean(on);
    this.container.classList.toggle("pz-kb", this._kb);
  },

  _onFocus() {
    let visible = this._kb === true;
    try {
      visible = visible || this.container.matches(":focus-visible");
    } catch (err) {
      visible = true; // no :focus-visible (older Safari): take it as the keyboard's
    }
    if (!visible) return;
    this._keyboard(true);
    this._cursorOnFocus();
  },

  // On focus the cursor stays where it was if still in view and still apt (_cursorStale),
  // else starts anew; then it is drawn, brought into view and said.
  _cursorOnFocus() {
    const p = this._cursorPoint();
    if (!p || !this._inView(p) || this._cursorStale()) this._cursorStart();
    this._cursorShown(true);
  },

  _onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target !== this.container) return; // a control on the map (Fit) keeps its keys
    const step = KEY_STEPS[e.key];
    if (step) {
      this._keyboard(true);
      // A cursor out of sight (the view moved) starts again in view; else it steps.
      const here = this._cursorPoint();
      if (here && this._inView(here)) this._cursorMove(step);
      else this._cursorStart();
      this._cursorShown(true);
    } else if (e.key === "Enter" || ((e.key === " " || e.key === "Spacebar") && !this._stroke)) {
      this._keyboard(true);
      if (!e.repeat) {
        if (!this._cursorPoint()) this._cursorStart();
        this._cursorShown(true);
        this._cursorTap();
      }
    } else if (e.key === "PageDown" || e.key === "PageUp") {
      this._keyboard(true);
      this._kbAxis = null;
      this._cursorJump(e.key === "PageDown" ? 1 : -1);
      this._cursorShown(true);
    } else if (e.key === "+" || e.key === "=" || e.key === "-" || e.key === "_") {
      this._keyboard(true);
      const p = this._cursorPoint();
      const c = p ? this._mapToClient(p) : null;
      const f = e.key === "-" || e.key === "_" ? 1 / 1.25 : 1.25;
      this.zoomBy(f, c ? c.x : null, c ? c.y : null);
    } else if (e.key === " " || e.key === "Spacebar") {
      // Strokes on: Space is held to pan with the left button (_onSpaceKey), not a tap.
    } else {
      return;
    }
    e.preventDefault();
  },

  // The cursor drawn, brought into view (scroll) and said (live region).
  _cursorShown(scroll) {
    if (!this._cursorPoint()) this._cursorStart();
    const p = this._cursorPoint();
    this._cursorFor = this._cursorSelection();
    this._drawCursor();
    if (!p) return;
    if (scroll) this._scrollTo(p);
    this._announce();
  },

  // After a redraw: the cursor follows what it stands on, and a keyboard player hears what
  // changed under it (a unit selected, a place lit).
  _cursorRefresh() {
    if (!this._cursor) return;
    this._drawCursor();
    if (this.keyboardActive) this._announce();
  },

  _announce() {
    const what = this._cursorWhat();
    const text = what && this.describe ? this.describe(what) : "";
    if (this._live.textContent !== text) this._live.textContent = text;
  },

  // Whether map point p is in the view.
  _inView(p) {
    const v = this._dims();
    if (!(v.w > 0 && v.h > 0)) return true;
    return (
      Math.abs(p.x - this._cx) <= v.w / this._k / 2 && Math.abs(p.y - this._cy) <= v.h / this._k / 2
    );
  },

  // Pan just enough that map point p stands inside the view, a margin from its edges.
  _scrollTo(p) {
    const v = this._dims();
    if (!(v.w > 0 && v.h > 0)) return;
    const w = v.w / this._k;
    const h = v.h / this._k;
    const m = Math.min(this._cursorMargin(), w / 4, h / 4);
    const cx = clamp(this._cx, p.x - w / 2 + m, p.x + w / 2 - m);
    const cy = clamp(this._cy, p.y - h / 2 + m, p.y + h / 2 - m);
    if (cx === this._cx && cy === this._cy) return;
    this._cx = cx;
    this._cy = cy;
    this._fitted = false;
    this._applyView();
  },

  // Client (CSS pixel) point of map point p.
  _mapToClient(p) {
    const rect = this._svgRect();
    return {
      x: rect.left + rect.width / 2 + (p.x - this._cx) * this._k,
      y: rect.top + rect.height / 2 + (p.y - this._cy) * this._k,
    };
  },

  // The candidate in arrow direction `step` ([dx, dy]) from map point `from`: among those
  // within `cone` degrees of it, the best by score(distance, cosine); ties (two neighbours
  // equally near the arrow, as on a staggered row) go back toward the line the arrows began
  // on, so Left and Right walk a row and Up and Down a column. Candidates: [{x, y, ...}].
  _toward(from, step, candidates, cone, score) {
    const axis = step[0] ? "h" : "v";
    if (this._kbAxis !== axis) {
      this._kbAxis = axis;
      this._kbAnchor = axis === "h" ? from.y : from.x;
    }
    const limit = Math.cos((cone * Math.PI) / 180) - 1e-9;
    let best = null;
    let bestScore = Infinity;
    let bestOff = Infinity;
    for (const c of candidates) {
      const dx = c.x - from.x;
      const dy = c.y - from.y;
      const d = Math.hypot(dx, dy);
      if (d < 1e-6) continue;
      const cos = (dx * step[0] + dy * step[1]) / d;
      if (cos < limit) continue;
      const s = score(d, cos);
      const off = Math.abs((axis === "h" ? c.y : c.x) - this._kbAnchor);
      if (s < bestScore - 1e-6 || (Math.abs(s - bestScore) <= 1e-6 && off < bestOff - 1e-6)) {
        best = c;
        bestScore = s;
        bestOff = off;
      }
    }
    return best;
  },

  // Subclass hooks of the cursor: its map point {x, y} or null; start it (the selected piece,
  // else the middle of the view); step it toward [dx, dy]; jump to the next (+1) or previous
  // (-1) thing a tap may act on; tap under it; draw it; what is under it (for describe);
  // how far from the view's edge it is kept.
  _cursorPoint() {
    return null;
  },

  _cursorStart() {},

  _cursorMove(step) {},

  _cursorJump(dir) {},

  _cursorTap() {},

  _drawCursor() {},

  _cursorWhat() {
    return null;
  },

  _cursorMargin() {
    return 60;
  },

  // Stale once another piece is selected than when the cursor last moved: on focus it goes
  // to that one (picked from the panel's list, say).
  _cursorStale() {
    const sel = this._cursorSelection();
    return sel != null && sel !== this._cursorFor;
  },

  // The selected piece (the subclass's key for it), or null.
  _cursorSelection() {
    return null;
  },
};
