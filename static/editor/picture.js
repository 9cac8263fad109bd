// The picture under the map: a photo or scan of the printed map, kept on this device only
// (IndexedDB store `pictures`), drawn below the map editor's layers with an opacity, and
// aligned by two points whose places on the map are known. Never part of the scenario.
import { HexGrid, SIZE } from "../render/hexgrid.js";

// The opacity of a picture just put under the map.
export const DEFAULT_OPACITY = 0.6;

// A point as {x, y}, from {x, y} or [x, y].
export function point(p) {
  if (!p) return null;
  if (Array.isArray(p)) return { x: Number(p[0]), y: Number(p[1]) };
  return { x: Number(p.x), y: Number(p.y) };
}

// The similarity (scale, rotation, shift; no mirror) taking picture points p1, p2 to map
// points q1, q2, as an SVG matrix [a, b, c, d, e, f] (x = a*px + c*py + e,
// y = b*px + d*py + f); null when p1 and p2 are the same point or q1 and q2 are.
export function similarity(p1, p2, q1, q2) {
  const dpx = p2.x - p1.x;
  const dpy = p2.y - p1.y;
  const dqx = q2.x - q1.x;
  const dqy = q2.y - q1.y;
  const n = dpx * dpx + dpy * dpy;
  if (!(n > 1e-9) || !(dqx * dqx + dqy * dqy > 1e-9)) return null;
  // s = (q2 - q1) / (p2 - p1), as complex numbers.
  const sr = (dqx * dpx + dqy * dpy) / n;
  const si = (dqy * dpx - dqx * dpy) / n;
  const e = q1.x - (sr * p1.x - si * p1.y);
  const f = q1.y - (si * p1.x + sr * p1.y);
  return [sr, si, -si, sr, e, f];
}

// Matrix m applied to point p.
export function apply(m, p) {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

// The inverse of matrix m (null if it has none).
export function invert(m) {
  const det = m[0] * m[3] - m[1] * m[2];
  if (!det) return null;
  return [
    m[3] / det,
    -m[1] / det,
    -m[2] / det,
    m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det,
    (m[1] * m[4] - m[0] * m[5]) / det,
  ];
}

// The size of an image in pixels, read by the browser.
export function imageSize(blob) {
  return new Promise(function (resolve, reject) {
    const url = URL.createObjectURL(blob);
    const image = new Image();
    image.onload = function () {
      URL.revokeObjectURL(url);
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
    };
    image.onerror = function () {
      URL.revokeObjectURL(url);
      reject(Object.assign(new Error("not an image"), { key: "editor.picture_bad" }));
    };
    image.src = url;
  });
}

// The extent of a scenario's map in map units: {x, y, width, height}.
export function mapExtent(scenario) {
  const map = (scenario && scenario.map) || {};
  if (map.kind === "areas") return { x: 0, y: 0, width: map.width || 1, height: map.height || 1 };
  const grid = new HexGrid(map);
  const c0 = grid.firstColumn;
  const r0 = grid.firstRow;
  const c1 = c0 + Math.max(1, grid.columns || 1) - 1;
  const r1 = r0 + Math.max(1, grid.rows || 1) - 1;
  const xs = [];
  const ys = [];
  [
    [c0, r0],
    [c1, r0],
    [c0, r1],
    [c1, r1],
    [c0 + 1 <= c1 ? c0 + 1 : c0, r0],
    [c0 + 1 <= c1 ? c0 + 1 : c0, r1],
    [c0, r0 + 1 <= r1 ? r0 + 1 : r0],
    [c1, r0 + 1 <= r1 ? r0 + 1 : r0],
  ].forEach(function (cr) {
    const a = grid.toAxial(cr[0], cr[1]);
    const p = grid.pixel(a[0], a[1]);
    xs.push(p[0]);
    ys.push(p[1]);
  });
  const x = Math.min.apply(null, xs) - SIZE;
  const y = Math.min.apply(null, ys) - SIZE;
  return {
    x: x,
    y: y,
    width: Math.max.apply(null, xs) + SIZE - x,
    height: Math.max.apply(null, ys) + SIZE - y,
  };
}

// Where a picture first lies: its width over the map's, its top-left at the map's.
export function fitTransform(scenario, width, height) {
  const box = mapExtent(scenario);
  const scale = Math.min(box.width / (width || 1), box.height / (height || 1));
  return [scale, 0, 0, scale, box.x, box.y];
}

// The picture of one draft: {id, name, width, height, url, opacity, transform} once shown.
// opts: {store (draft.js Store), target() -> the map editor or null, onChange(state)}.
export class Picture {
  constructor(opts) {
    this.store = opts.store;
    this.target = opts.target;
    this.onChange = opts.onChange;
    this.current = null;
  }

  // What the draft record keeps: {pictureId, opacity, transform}, or null.
  state() {
    const p = this.current;
    if (!p) return null;
    return { pictureId: p.id, opacity: p.opacity, transform: p.transform.slice() };
  }

  // Put a new picture under the map: kept in the store first (a refusal is passed on, and
  // the picture still shows for this visit), then shown.
  add(blob, name, transform, scenario, id) {
    return imageSize(blob).then((size) => {
      const record = {
        id: id || pictureId(),
        blob: blob,
        name: String(name || ""),
        width: size.width,
        height: size.height,
      };
      const old = this.current;
      this.show(record, {
        opacity: old ? old.opacity : DEFAULT_OPACITY,
        transform: transform || fitTransform(scenario, size.width, size.height),
      });
      this.onChange(this.state());
      return this.store.putPicture(record).then(() => record);
    });
  }

  // The picture a draft record names, from the store; resolves false if it is gone.
  restore(state) {
    if (!state || !state.pictureId) {
      this.clear();
      return Promise.resolve(false);
    }
    if (this.current && this.current.id === state.pictureId) {
      this.current.opacity = state.opacity;
      this.current.transform = state.transform.slice();
      this.draw();
      return Promise.resolve(true);
    }
    return this.store.getPicture(state.pictureId).then((record) => {
      if (!record) {
        this.clear();
        return false;
      }
      this.show(record, state);
      return true;
    });
  }

  show(record, state) {
    this.release();
    this.current = {
      id: record.id,
      name: record.name,
      width: record.width,
      height: record.height,
      url: URL.createObjectURL(record.blob),
      opacity: typeof state.opacity === "number" ? state.opacity : DEFAULT_OPACITY,
      transform: (state.transform || [1, 0, 0, 1, 0, 0]).slice(),
    };
    this.draw();
  }

  // Draw it (again) through the map editor: after a new map editor was mounted, too.
  draw() {
    const target = this.target();
    if (!target || typeof target.setPicture !== "function") return;
    const p = this.current;
    target.setPicture(
      p
        ? {
            url: p.url,
            width: p.width,
            height: p.height,
            opacity: p.opacity,
            transform: p.transform.slice(),
          }
        : null,
    );
  }

  setOpacity(opacity) {
    if (!this.current) return;
    this.current.opacity = Math.max(0, Math.min(1, opacity));
    const target = this.target();
    if (target && typeof target.setPictureOpacity === "function") {
      target.setPictureOpacity(this.current.opacity);
    } else this.draw();
    this.onChange(this.state());
  }

  setTransform(transform) {
    if (!this.current) return;
    this.current.transform = transform.slice();
    this.draw();
    this.onChange(this.state());
  }

  // A point tapped on the map (map units) in the picture's own pixels.
  toPicture(mapPoint) {
    const inverse = this.current ? invert(this.current.transform) : null;
    return inverse ? apply(inverse, mapPoint) : null;
  }

  // Take the picture away from the map (the editor drops it from the store once no draft
  // names it).
  remove() {
    this.clear();
    this.onChange(null);
  }

  // No picture on screen (the store keeps it: another draft, or this one reopened).
  clear() {
    this.release();
    this.current = null;
    this.draw();
  }

  release() {
    if (this.current && this.current.url) URL.revokeObjectURL(this.current.url);
  }
}

function pictureId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return "p" + Date.now().toString(36) + "-" + random[0].toString(36) + random[1].toString(36);
}
