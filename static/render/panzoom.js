// Pan, zoom and tap handling shared by the map renderers (HexMap in hex.js, AreaMap in
// area.js): an SVG in a container whose viewBox follows a centre and a zoom, moved by
// one-finger drags, two-finger pinches, the mouse wheel and the public fit/zoomBy/panBy.
// Plain ES2020 so it parses on older iPad Safari.
import { r1, clamp } from "./svg.js";
import { keyboardMethods } from "./mapkeys.js";

const SVGNS = "http://www.w3.org/2000/svg";
const TAP_SLOP = 8; // CSS px a tap may wander before it becomes a drag
const MAX_ZOOM = 6; // CSS px per map unit at the closest zoom (a hex.js hex about 600 px wide)
const FRAME_MARGIN = 16; // CSS px kept clear round the pieces a view frames or brings in
// A frame is never farther than the readable zoom (readZoom: counter texts of 11 CSS px, a
// block a finger's width): pieces too spread to show at it are framed at it, centred, filling
// the view (the Fit control's second tap shows the whole map).
const FRAME_READ_SHARE = 1;

// A subclass adds its layers (_addLayer), draws into them, sets this._bounds, the map's
// extent in map units; then calls fit(). Its hooks:
//   _zoomClassOf(k)   the svg class(es) for zoom k (default "<prefix>-far"/"<prefix>-near");
//   _viewApplied(zc)  after each view change, with that zoom class;
//   _tapTarget(el)    what a pointerdown on element el may become a tap on;
//   _reportTap(g)     a finished tap: g.target (from _tapTarget), g.x0, g.y0, g.pointerType.
// options: prefix ("hm", "am": the svg gets class "<prefix>-svg", "<prefix>-dragging" while
// dragged), farZoom (below this zoom the map is "far") and readZoom (the default view is
// never farther than this: the zoom at which the map's smallest text is readable).
//
// The default view (fit, frame) frames the pieces: the box they are drawn in, a margin round
// it, at the default zoom or farther when they need it, never farther than the readable zoom
// (FRAME_READ_SHARE of it) (the whole map when there are none).
// fitAll shows the whole map ("contain"); toggleFit goes from the one to the other (the map's
// Fit control). No zoom is farther than the whole map's; none closer than MAX_ZOOM.
// frameNextPieces() frames the next non-empty set of pieces drawn (a new game, a game
// loaded); showPieces(ids) and showPlaces(places) pan (and zoom out if they must) just enough
// that they stand in view. onView(framing), when set, hears each view change: "units" or
// "whole" while the view is one of those untouched, else null.
//
// The keyboard: the container takes focus; arrows move a cursor, Enter or Space taps under it,
// Page Down/Up jump between what a tap acts on, + and - zoom (see "keyboard" below, and the
// subclass's _cursor* hooks): mapkeys.js.
//
// Editing (the scenario editor): setStrokeHandler(fn) turns a one-pointer drag (a finger, a
// pen, the mouse's left button) into strokes, fn({phase, x, y, pointerType}) with phase
// "start" | "move" | "end" | "cancel" in map units; two fingers still pan and pinch, the mouse
// pans with its middle or right button or the left with Space held. setPicture(picture) puts
// an image under every layer (a printed map to trace), setPictureOpacity(o) fades it.
export class PanZoomMap {
  constructor(container, options) {
    this.container = container;
    this._prefix = options.prefix;
    this._farZoom = options.farZoom;
    this._readZoom = options.readZoom || 0;
    this._bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
    this._k = 1;
    this._cx = 0;
    this._cy = 0;
    this._fitted = false; // true while the view is the untouched fit
    this._whole = false; // ... and that fit is the whole map (fitAll), not the pieces (frame)
    this._frameNext = false; // frame the next non-empty set of pieces drawn
    this.onView = null; // see the class comment
    this.wholeAtFirst = false; // the default view shows the whole map (see _defaultZoom)
    this._raf = 0;
    this._pointers = new Map();
    this._gesture = null;
    this._zoomClass = "";
    this._size = null;
    this._stroke = null; // setStrokeHandler's fn, or null: a one-pointer drag pans
    this._space = false; // Space held (while strokes are on): the left button pans
    this._picture = null; // setPicture's <g> and <image>
    // A pan or pinch in progress moves the drawing as it was last laid out (a CSS transform
    // of the svg, which needs no layout and no paint); the view is laid out again (the
    // viewBox, the zoom class, _viewApplied) when the fingers lift. _shown: the view the
    // viewBox shows {cx, cy, k}; _liveRect: the svg's box while it is moved so, else null.
    this._shown = null;
    this._liveRect = null;

    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "pz-svg " + this._prefix + "-svg");
    svg.setAttribute("width", "100%");
    svg.setAttribute("height", "100%");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "map");
    svg.style.touchAction = "none";
    svg.style.display = "block";
    // The svg is a layer of its own, moved by a gesture's transform (_moveLive) with no new
    // layout or paint; set once, as switching it on or off lays the whole map out again.
    svg.style.willChange = "transform";
    svg.style.transformOrigin = "50% 50%";
    this._defs = document.createElementNS(SVGNS, "defs");
    svg.appendChild(this._defs);
    this._pictureLayer = document.createElementNS(SVGNS, "g");
    this._pictureLayer.setAttribute("class", "pz-picture");
    this._pictureLayer.setAttribute("pointer-events", "none");
    svg.appendChild(this._pictureLayer);
    this.layers = {}; // name -> <g>, see _addLayer
    this._svg = svg;
    this.svg = svg;
    container.appendChild(svg);
    this._setupKeyboard(container);

    const prevent = (e) => e.preventDefault();
    const active = { passive: false };
    // [event, handler, options]; touchmove and gesturestart keep older iOS Safari from
    // scrolling or zooming the page under the map.
    this._listeners = [
      ["pointerdown", (e) => this._onPointerDown(e)],
      ["pointermove", (e) => this._onPointerMove(e)],
      ["pointerup", (e) => this._onPointerUp(e, false)],
      ["pointercancel", (e) => this._onPointerUp(e, true)],
      ["wheel", (e) => this._onWheel(e), active],
      ["touchmove", prevent, active],
      ["gesturestart", prevent],
      ["contextmenu", prevent],
    ];
    for (const l of this._listeners) svg.addEventListener(l[0], l[1], l[2]);
    // A pointer on the map ends the keyboard's turn: the cursor hides until a key comes back.
    svg.addEventListener("pointerdown", () => this._keyboard(false));
    this._onResizeBound = () => this._onResize();
    this._resizeFrame = 0;
    if (typeof ResizeObserver !== "undefined") {
      // The new size is applied in the next frame, not inside the observer's callback: a fit
      // there that moves the layout again is a "ResizeObserver loop", which WebKit (Safari)
      // reports as an uncaught error.
      this._ro = new ResizeObserver(() => {
        if (this._resizeFrame) return;
        this._resizeFrame = requestAnimationFrame(() => {
          this._resizeFrame = 0;
          this._onResize();
        });
      });
      this._ro.observe(container);
    } else {
      this._ro = null;
      window.addEventListener("resize", this._onResizeBound);
    }
  }

  // Append a <g class=className> to the svg as this.layers[name]; only a tappable layer
  // takes pointer events.
  _addLayer(name, className, tappable) {
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", className);
    if (!tappable) g.setAttribute("pointer-events", "none");
    this._svg.appendChild(g);
    this.layers[name] = g;
  }

  // Whether the map has the focus and the keyboard is in use on it.
  get keyboardActive() {
    return document.activeElement === this.container && this._kb === true;
  }

  // ---- hooks (see the class comment) ----------------------------------------------

  _zoomClassOf(k) {
    return this._prefix + (k < this._farZoom ? "-far" : "-near");
  }

  _viewApplied(zc) {}

  _tapTarget(el) {
    return null;
  }

  _reportTap(g) {}

  // ---- view -----------------------------------------------------------------------

  // The svg's box in client (CSS pixel) coordinates, as laid out (not as a gesture's
  // transform moves it).
  _svgRect() {
    return this._liveRect || this._svg.getBoundingClientRect();
  }

  // The map point under a client (CSS pixel) point.
  clientToMap(x, y) {
    const rect = this._svgRect();
    return {
      x: this._cx + (x - rect.left - rect.width / 2) / this._k,
      y: this._cy + (y - rect.top - rect.height / 2) / this._k,
    };
  }

  // Live size and position of the svg (forces layout; use during input).
  _viewSize() {
    const rect = this._svgRect();
    return { w: rect.width, h: rect.height, left: rect.left, top: rect.top };
  }

  // Cached size of the svg, so drawing and fitting never force a layout of a fresh map.
  _dims() {
    if (!this._size || !(this._size.w > 0 && this._size.h > 0)) {
      const rect = this._svgRect();
      this._size = { w: rect.width, h: rect.height };
    }
    return this._size;
  }

  // The zoom that shows the whole map with a margin ("contain").
  _fitZoom(v) {
    const b = this._bounds;
    const pad = 12;
    const kx = (v.w - 2 * pad) / (b.maxX - b.minX);
    const ky = (v.h - 2 * pad) / (b.maxY - b.minY);
    return Math.max(0.01, Math.min(kx, ky));
  }

  // The default zoom: the map fills the box both ways ("cover"), and its smallest text is
  // readable (readZoom); never past the closest zoom. With wholeAtFirst (the editor, where
  // every edge hex must be within reach), the whole map shows when it is readable so.
  _defaultZoom(v) {
    const b = this._bounds;
    const kx = v.w / (b.maxX - b.minX);
    const ky = v.h / (b.maxY - b.minY);
    const fill = this.wholeAtFirst ? this._fitZoom(v) : Math.max(kx, ky);
    return Math.min(Math.max(fill, this._readZoom), this._limits(v).max);
  }

  // The zooms a pinch, the wheel and the keys stay within: never farther than the whole map
  // shown with its margin, never closer than MAX_ZOOM.
  _limits(v) {
    const kf = this._fitZoom(v || this._dims());
    return { min: kf, max: Math.max(MAX_ZOOM, kf) };
  }

  // The default view (see the class comment); kept on resize until the player moves the map.
  // With wholeAtFirst (the editor) it is centred on the map at the default zoom.
  fit() {
    if (!this.wholeAtFirst) {
      this.frame();
      return;
    }
    const v = this._dims();
    const b = this._bounds;
    this._cx = (b.minX + b.maxX) / 2;
    this._cy = (b.minY + b.maxY) / 2;
    if (v.w > 0 && v.h > 0) this._k = this._defaultZoom(v);
    this._fitted = true;
    this._whole = false;
    this._applyView();
  }

  // ---- framing: the pieces in view ------------------------------------------------

  // The box of every piece drawn, or null when there are none.
  _piecesBox() {
    return this._boxOf(this._pieceIds().map((id) => this._pieceBox(id)));
  }

  _boxOf(boxes) {
    let out = null;
    for (const b of boxes) {
      if (!b) continue;
      if (!out) out = { minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY };
      out.minX = Math.min(out.minX, b.minX);
      out.minY = Math.min(out.minY, b.minY);
      out.maxX = Math.max(out.maxX, b.maxX);
      out.maxY = Math.max(out.maxY, b.maxY);
    }
    return out;
  }

  // The zoom at which box stands in a view of size v with FRAME_MARGIN round it.
  _boxZoom(box, v) {
    const m = FRAME_MARGIN;
    const kx = Math.max(1, v.w - 2 * m) / Math.max(1, box.maxX - box.minX);
    const ky = Math.max(1, v.h - 2 * m) / Math.max(1, box.maxY - box.minY);
    return Math.min(kx, ky);
  }

  // Frame the pieces: centred on their box, at the default zoom or as far as it takes for
  // all of them to show with a margin; the whole map when there are none.
  frame() {
    const box = this._piecesBox();
    if (!box) {
      this.fitAll();
      return;
    }
    const v = this._dims();
    this._cx = (box.minX + box.maxX) / 2;
    this._cy = (box.minY + box.maxY) / 2;
    if (v.w > 0 && v.h > 0) {
      const floor = this._readZoom * FRAME_READ_SHARE;
      this._k = Math.min(Math.max(this._boxZoom(box, v), floor), this._defaultZoom(v));
    }
    this._fitted = true;
    this._whole = false;
    this._applyView();
  }

  // The map's Fit control: the pieces framed; again (the view untouched since), the whole
  // map; again, the pieces. Returns which it shows, "units" or "whole".
  toggleFit() {
    if (this._fitted && !this._whole && this._piecesBox()) this.fitAll();
    else this.frame();
    return this.framing;
  }

  // "units" or "whole" while the view is that untouched fit, else null.
  get framing() {
    if (!this._fitted) return null;
    return this._whole ? "whole" : "units";
  }

  // The next non-empty set of pieces drawn is framed (a new game, a game loaded).
  frameNextPieces() {
    this._frameNext = true;
  }

  // After the subclass drew its pieces: frame them if asked to.
  _piecesDrawn() {
    if (!this._frameNext || !this._pieceIds().length) return;
    this._frameNext = false;
    this.frame();
  }

  // Bring box (map units) into view with a margin: the least pan that does it, zooming out
  // first (no farther than the limit) if it is bigger than the view.
  showBox(box) {
    const v = this._dims();
    if (!box || !(v.w > 0 && v.h > 0)) return;
    const lim = this._limits(v);
    const k = clamp(Math.min(this._k, this._boxZoom(box, v)), lim.min, lim.max);
    const w = v.w / k;
    const h = v.h / k;
    const m = FRAME_MARGIN / k;
    const axis = (c, lo, hi, span) => {
      const a = hi + m - span / 2;
      const z = lo - m + span / 2;
      return a <= z ? clamp(c, a, z) : (lo + hi) / 2;
    };
    const cx = axis(this._cx, box.minX, box.maxX, w);
    const cy = axis(this._cy, box.minY, box.maxY, h);
    if (k === this._k && Math.abs(cx - this._cx) < 1e-6 && Math.abs(cy - this._cy) < 1e-6) return;
    this._k = k;
    this._cx = cx;
    this._cy = cy;
    this._fitted = false;
    this._applyView();
  }

  // Bring pieces (ids) into view; and places (the subclass's place keys).
  showPieces(ids) {
    this.showBox(this._boxOf((ids || []).map((id) => this._pieceBox(String(id)))));
  }

  showPlaces(places) {
    this.showBox(this._boxOf((places || []).map((p) => this._placeBox(String(p)))));
  }

  // Whether any of the places (or pieces) shows in the view, wholly or in part.
  placesInView(places) {
    return (places || []).some((p) => this._boxInView(this._placeBox(String(p))));
  }

  piecesInView(ids) {
    return (ids || []).some((id) => this._boxInView(this._pieceBox(String(id))));
  }

  _boxInView(b) {
    const v = this._dims();
    if (!b || !(v.w > 0 && v.h > 0)) return false;
    const w = v.w / this._k / 2;
    const h = v.h / this._k / 2;
    return (
      b.maxX > this._cx - w &&
      b.minX < this._cx + w &&
      b.maxY > this._cy - h &&
      b.minY < this._cy + h
    );
  }

  _pieceIds() {
    return [];
  }

  _pieceBox(id) {
    return null;
  }

  _placeBox(place) {
    return null;
  }

  // Centre the view on the middle of several map points [x, y], at the zoom it has.
  centerOnPoints(pts) {
    if (!pts.length) return;
    this._cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    this._cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    this._fitted = false;
    this._applyView();
  }

  // Zoom out and centre so the whole map shows ("contain"); kept on resize until the player
  // moves the map.
  fitAll() {
    const v = this._dims();
    const b = this._bounds;
    this._cx = (b.minX + b.maxX) / 2;
    this._cy = (b.minY + b.maxY) / 2;
    if (v.w > 0 && v.h > 0) this._k = this._fitZoom(v);
    this._fitted = true;
    this._whole = true;
    this._applyView();
  }

  // The centre kept within reach of the map: along each axis the map may be pulled in from
  // the view's edge by up to a quarter of the view, no more; a map narrower than that is
  // centred.
  _clampCentre(w, h) {
    const b = this._bounds;
    const axis = (c, lo, hi, span) => {
      const slack = span / 4;
      const a = lo + span / 2 - slack;
      const z = hi - span / 2 + slack;
      return a <= z ? clamp(c, a, z) : (lo + hi) / 2;
    };
    this._cx = axis(this._cx, b.minX, b.maxX, w);
    this._cy = axis(this._cy, b.minY, b.maxY, h);
  }

  // Zoom by `factor` around a client point (default: the view centre).
  zoomBy(factor, clientX, clientY) {
    const v = this._viewSize();
    const lim = this._limits(v);
    const k = clamp(this._k * factor, lim.min, lim.max);
    const ax = clientX == null ? v.w / 2 : clientX - v.left;
    const ay = clientY == null ? v.h / 2 : clientY - v.top;
    const mx = this._cx + (ax - v.w / 2) / this._k;
    const my = this._cy + (ay - v.h / 2) / this._k;
    this._k = k;
    this._cx = mx - (ax - v.w / 2) / k;
    this._cy = my - (ay - v.h / 2) / k;
    this._fitted = false;
    this._requestView();
  }

  // Pan by a client-pixel offset (the map moves with the finger).
  panBy(dx, dy) {
    this._cx -= dx / this._k;
    this._cy -= dy / this._k;
    this._fitted = false;
    this._requestView();
  }

  // CSS px per map unit.
  get zoom() {
    return this._k;
  }

  _requestView() {
    if (this._raf) return;
    this._raf = requestAnimationFrame(() => {
      this._raf = 0;
      this._applyView();
    });
  }

  _applyView() {
    if (this._raf) {
      cancelAnimationFrame(this._raf);
      this._raf = 0;
    }
    const v = this._dims();
    if (!(v.w > 0 && v.h > 0)) return;
    const lim = this._limits(v);
    this._k = clamp(this._k, lim.min, lim.max);
    const w = v.w / this._k;
    const h = v.h / this._k;
    this._clampCentre(w, h);
    if (this._gesture && this._gesture.moved && this._shown) {
      this._moveLive();
      if (this.onView) this.onView(this.framing);
      return;
    }
    this._endLive();
    // Set only when it changes: a new viewBox lays out every text of the map again.
    const x = r1(this._cx - w / 2);
    const y = r1(this._cy - h / 2);
    const box = `${x} ${y} ${r1(w)} ${r1(h)}`;
    if (box !== this._svg.getAttribute("viewBox")) this._svg.setAttribute("viewBox", box);
    const bw = r1(w);
    const bh = r1(h);
    this._shown = { cx: x + bw / 2, cy: y + bh / 2, k: Math.min(v.w / bw, v.h / bh) };
    // The zoom class may be several space-separated classes; swapped only on change.
    const zc = this._zoomClassOf(this._k);
    this._viewApplied(zc);
    if (zc !== this._zoomClass) {
      const list = this._svg.classList;
      if (this._zoomClass) list.remove(...this._zoomClass.split(" "));
      list.add(...zc.split(" "));
      this._zoomClass = zc;
    }
    if (this.onView) this.onView(this.framing);
  }

  // During a pan or pinch: the drawing laid out for the view _shown, moved and scaled to
  // show the view (_cx, _cy, _k): a map point m at d = (m - shown.c) * shown.k from the svg's
  // centre goes to s * d + t = (m - c) * k. The svg is clipped to its box meanwhile (what
  // the gesture brings in past it shows the board's background until the fingers lift):
  // painted past it, the svg's layer held the whole drawing and each frame cost more than a
  // new viewBox.
  _moveLive() {
    const svg = this._svg;
    const st = svg.style;
    if (!this._liveRect) {
      this._liveRect = svg.getBoundingClientRect();
    }
    const sh = this._shown;
    const s = this._k / sh.k;
    const tx = (sh.cx - this._cx) * this._k;
    const ty = (sh.cy - this._cy) * this._k;
    st.transform = `translate(${tx.toFixed(2)}px, ${ty.toFixed(2)}px) scale(${s.toFixed(5)})`;
  }

  // The gesture's transform taken off (the caller lays the view out in the same frame).
  _endLive() {
    if (!this._liveRect) return;
    const st = this._svg.style;
    st.transform = "";
    this._liveRect = null;
  }

  _onResize() {
    this._size = null;
    if (this._fitted && this._whole) this.fitAll();
    else if (this._fitted) this.fit();
    else this._applyView();
  }

  // ---- input: tap, one-finger pan, two-finger pinch, wheel ------------------------

  _onPointerDown(e) {
    // The mouse's middle or right button pans while strokes are on; else only the left counts.
    const panButton =
      this._stroke && e.pointerType === "mouse" && (e.button === 1 || e.button === 2);
    if (e.pointerType === "mouse" && e.button !== 0 && !panButton) return;
    if (e.pointerType === "mouse") e.preventDefault();
    try {
      this._svg.setPointerCapture(e.pointerId);
    } catch (err) {
      // capture is a nicety
    }
    this._pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this._pointers.size === 1) {
      this._gesture = {
        x0: e.clientX,
        y0: e.clientY,
        lastX: e.clientX,
        lastY: e.clientY,
        moved: false,
        multi: false,
        pinch: null,
        target: this._tapTarget(e.target), // resolved now: capture retargets later events
        pointerType: e.pointerType,
        // Strokes on: this drag paints unless it is the mouse's pan button or Space is held.
        paint: Boolean(this._stroke) && !panButton && !this._space,
        stroking: false, // a stroke has started (its "start" sent)
      };
    } else if (this._gesture) {
      // A second finger: a stroke in progress is cancelled, the fingers pan and pinch.
      this._strokeCancel();
      this._gesture.multi = true;
      this._gesture.moved = true;
      this._startPinch();
    }
  }

  // ---- strokes (editing) ----------------------------------------------------------

  // fn({phase, x, y, pointerType}) or null; see the class comment.
  setStrokeHandler(fn) {
    if (!fn) this._strokeCancel();
    const was = Boolean(this._stroke);
    this._stroke = fn || null;
    if (was === Boolean(this._stroke)) return;
    if (this._stroke) {
      window.addEventListener("keydown", this._onSpaceKey);
      window.addEventListener("keyup", this._onSpaceKey);
      window.addEventListener("blur", this._onSpaceBlur);
    } else {
      window.removeEventListener("keydown", this._onSpaceKey);
      window.removeEventListener("keyup", this._onSpaceKey);
      window.removeEventListener("blur", this._onSpaceBlur);
      this._onSpaceBlur();
    }
  }

  _strokeSend(phase, clientX, clientY) {
    const g = this._gesture;
    const fn = this._stroke;
    if (!fn || !g) return;
    const p = this.clientToMap(clientX, clientY);
    fn({ phase, x: p.x, y: p.y, pointerType: g.pointerType });
  }

  _strokeCancel() {
    const g = this._gesture;
    if (!g || !g.stroking) return;
    g.stroking = false;
    g.paint = false;
    const fn = this._stroke;
    if (fn) fn({ phase: "cancel", x: NaN, y: NaN, pointerType: g.pointerType });
  }

  // ---- the picture underneath -------------------------------------------------------

  // picture = {url, width, height, opacity (0..1), transform: [a, b, c, d, e, f]} (picture
  // pixels to map units), or null: an <image> under every layer.
  setPicture(picture) {
    const layer = this._pictureLayer;
    if (!picture || !picture.url) {
      layer.innerHTML = "";
      this._picture = null;
      return;
    }
    let img = this._picture;
    if (!img) {
      img = document.createElementNS(SVGNS, "image");
      img.setAttribute("preserveAspectRatio", "none");
      img.setAttribute("x", "0");
      img.setAttribute("y", "0");
      layer.appendChild(img);
      this._picture = img;
    }
    img.setAttribute("href", picture.url);
    img.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", picture.url);
    img.setAttribute("width", String(picture.width));
    img.setAttribute("height", String(picture.height));
    const t = picture.transform || [1, 0, 0, 1, 0, 0];
    img.setAttribute("transform", "matrix(" + t.map((v) => String(+v)).join(" ") + ")");
    this.setPictureOpacity(picture.opacity == null ? 1 : picture.opacity);
  }

  setPictureOpacity(o) {
    if (!this._picture) return;
    this._picture.setAttribute("opacity", String(clamp(+o || 0, 0, 1)));
  }

  // Whether a picture is shown.
  get hasPicture() {
    return Boolean(this._picture);
  }

  _startPinch() {
    const pts = Array.from(this._pointers.values());
    if (pts.length < 2) return;
    const a = pts[0];
    const b = pts[1];
    this._gesture.pinch = {
      dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)),
      k: this._k,
      anchor: this.clientToMap((a.x + b.x) / 2, (a.y + b.y) / 2),
      view: this._viewSize(),
    };
  }

  _onPointerMove(e) {
    const p = this._pointers.get(e.pointerId);
    const g = this._gesture;
    if (!p || !g) return;
    p.x = e.clientX;
    p.y = e.clientY;
    if (this._pointers.size >= 2 && g.pinch) {
      // Two fingers: zoom about the map point first under their midpoint.
      const pts = Array.from(this._pointers.values());
      const a = pts[0];
      const b = pts[1];
      const pin = g.pinch;
      const v = pin.view;
      const lim = this._limits(v);
      const d = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      const k = clamp((pin.k * d) / pin.dist, lim.min, lim.max);
      const mx = (a.x + b.x) / 2 - v.left;
      const my = (a.y + b.y) / 2 - v.top;
      this._k = k;
      this._cx = pin.anchor.x - (mx - v.w / 2) / k;
      this._cy = pin.anchor.y - (my - v.h / 2) / k;
      this._fitted = false;
      this._requestView();
      return;
    }
    if (this._pointers.size !== 1) return;
    if (!g.moved) {
      if (Math.hypot(e.clientX - g.x0, e.clientY - g.y0) < TAP_SLOP) return;
      g.moved = true;
      if (g.paint && !g.multi && this._stroke) {
        // The stroke starts where the pointer went down, then follows it.
        g.stroking = true;
        this._strokeSend("start", g.x0, g.y0);
      } else {
        this._svg.classList.add("pz-dragging", this._prefix + "-dragging");
      }
    }
    if (g.stroking) {
      this._strokeSend("move", e.clientX, e.clientY);
      g.lastX = e.clientX;
      g.lastY = e.clientY;
      return;
    }
    if (g.paint) return; // a cancelled stroke's finger: nothing until it lifts
    this.panBy(e.clientX - g.lastX, e.clientY - g.lastY);
    g.lastX = e.clientX;
    g.lastY = e.clientY;
  }

  _onPointerUp(e, cancelled) {
    if (!this._pointers.has(e.pointerId)) return;
    this._pointers.delete(e.pointerId);
    const g = this._gesture;
    if (!g) return;
    if (cancelled) g.moved = true;
    if (g.stroking && this._pointers.size === 0) {
      g.stroking = false;
      if (cancelled) {
        const fn = this._stroke;
        if (fn) fn({ phase: "cancel", x: NaN, y: NaN, pointerType: g.pointerType });
      } else {
        this._strokeSend("end", e.clientX, e.clientY);
      }
    }
    if (this._pointers.size === 1) {
      // A pinch became a one-finger pan: restart the pan from the remaining finger.
      const rest = Array.from(this._pointers.values())[0];
      g.lastX = rest.x;
      g.lastY = rest.y;
      g.pinch = null;
      g.paint = false; // what is left of a pinch pans, never paints
      return;
    }
    if (this._pointers.size > 1) {
      this._startPinch();
      return;
    }
    this._gesture = null;
    this._svg.classList.remove("pz-dragging", this._prefix + "-dragging");
    // The view the gesture ended on, laid out at once.
    if (this._liveRect) this._applyView();
    if (g.moved || g.multi) return;
    this._reportTap(g);
  }

  _onWheel(e) {
    e.preventDefault();
    let dy = e.deltaY;
    if (e.deltaMode === 1) dy *= 16;
    else if (e.deltaMode === 2) dy *= 400;
    dy = clamp(dy, -300, 300);
    this.zoomBy(Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.0016)), e.clientX, e.clientY);
  }

  // Remove the svg and stop listening; a subclass also drops its tap callback.
  destroy() {
    const svg = this._svg;
    this._endLive();
    for (const l of this._listeners) svg.removeEventListener(l[0], l[1], l[2]);
    for (const l of this._kbListeners) this.container.removeEventListener(l[0], l[1]);
    this.setStrokeHandler(null);
    if (this._live.parentNode) this._live.parentNode.removeChild(this._live);
    if (this._ro) this._ro.disconnect();
    else window.removeEventListener("resize", this._onResizeBound);
    if (this._resizeFrame) cancelAnimationFrame(this._resizeFrame);
    this._resizeFrame = 0;
    if (this._raf) cancelAnimationFrame(this._raf);
    this._raf = 0;
    this._pointers.clear();
    this._gesture = null;
    if (svg.parentNode) svg.parentNode.removeChild(svg);
  }
}

// The keyboard: focus, the cursor, Enter taps (mapkeys.js).
Object.assign(PanZoomMap.prototype, keyboardMethods);
