// The area map editor's map (static/editor/areaedit.js): the play view's AreaMap with an
// editing layer on top, every tap handed to the editor, the view kept across redraws, and the
// approach marker or locale centre under a point.

import { AreaMap } from "../render/area.js";

// The play view's map, with an editing layer on top and every tap handed to the editor.
export class EditMap extends AreaMap {
  constructor(container, editor) {
    // Enter on the keyboard's cursor: the target it stands on, as a tap there.
    super(container, {
      onTap: (target) => editor._keyTap(target),
      capacity: (n) => editor.i18n.t("ui.map_capacity", { count: n }),
    });
    this._editor = editor;
    this.wholeAtFirst = true; // every edge locale within reach of a finger
    this._addLayer("edit", "am-layer ae-layer-edit", false);
    this._shownK = 0;
  }

  _reportTap(g) {
    this._editor._tap(g);
  }

  _viewApplied(zc) {
    super._viewApplied(zc);
    // Handles are sized on the screen: drawn again when the zoom changes.
    if (this._editor && Math.abs(this._k - this._shownK) > 1e-6) {
      this._shownK = this._k;
      this._editor._drawOverlay();
    }
  }

  // Draw a map, keeping the view (unless `fit`), then its blocks.
  draw(map, sides, pieces, fit) {
    const view = { k: this._k, cx: this._cx, cy: this._cy, fitted: this._fitted };
    const lit = this._lit;
    this.setMap(map, sides);
    if (!fit && !view.fitted) {
      this._k = view.k;
      this._cx = view.cx;
      this._cy = view.cy;
      this._fitted = false;
      this._applyView();
    }
    this._lit = lit;
    this.setPieces(pieces);
  }

  // The approach marker under map point pt (radius r, map units): its id "a/b", or null.
  approachAt(pt, r) {
    let best = null;
    let bestD = Infinity;
    this._approaches.forEach((g, id) => {
      const dx = pt[0] - g.x;
      const dy = pt[1] - g.y;
      const along = Math.abs(dx * g.t[0] + dy * g.t[1]);
      const across = Math.abs(-dx * g.t[1] + dy * g.t[0]);
      if (along > g.len / 2 + Math.max(8, r / 3) || across > Math.max(11, r / 2)) return;
      const d = Math.hypot(dx, dy);
      if (d < bestD) {
        bestD = d;
        best = id;
      }
    });
    return best;
  }

  geometryOf(id) {
    return this._approaches.get(id) || null;
  }

  centreOf(id) {
    const L = this._locales.get(id);
    return L ? L.c : null;
  }
}
