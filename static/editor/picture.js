// The picture under the map: a photo or scan of the printed map, kept on this device only
// (IndexedDB store `pictures`), drawn below the map editor's layers with an opacity, and
// aligned by two points whose places on the map are known. Never part of the scenario.
import { HexGrid, SIZE } from "../render/hexgrid.js";
import { storageProblem } from "../games.js";
import { keyedError, mib } from "./editor_common.js";

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

// ---- the limits of a picture, checked before the browser decodes it ------------------------

// A picture under the map is decoded whole (4 bytes a pixel) and kept on the device: these
// keep it within what a tablet's tab survives (docs/scenario-format.md, "Limits of the
// editor's files"). 20 million pixels is 80 MB decoded: a printed map scanned at 150 dpi
// (3300 x 5100 for 22" x 34") fits; 10,000 pixels a side stays below the largest texture a
// tablet's GPU draws.
export const MAX_PICTURE_PIXELS = 20000000;
export const MAX_PICTURE_SIDE = 10000;
// The bytes of a picture file, or of a module's picture unpacked.
export const MAX_PICTURE_BYTES = 64 * 1024 * 1024;
// The most of a picture's start read to find its size (a JPEG's frame header can follow
// large metadata segments).
const MAX_HEAD_BYTES = 16 * 1024 * 1024;

// Whether a picture of this size in pixels is within the limits.
export function withinLimits(width, height) {
  return (
    width > 0 &&
    height > 0 &&
    width <= MAX_PICTURE_SIDE &&
    height <= MAX_PICTURE_SIDE &&
    width * height <= MAX_PICTURE_PIXELS
  );
}

// The parameters of a refusal by size: {width, height, megapixels, max_side} (the limits).
export function limitParams(width, height) {
  return {
    width,
    height,
    megapixels: MAX_PICTURE_PIXELS / 1e6,
    max_side: MAX_PICTURE_SIDE,
  };
}

// The picture's type and size in pixels from its first bytes (`b`, a Uint8Array), without
// decoding it: {type, width, height}; null when it is no picture of the formats read here
// (PNG, JPEG, GIF, WebP, BMP, SVG); undefined while more bytes are needed. An SVG without a
// size in pixels has width and height 0 (the browser gives it one).
export function pictureHeader(b) {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = b.length;
  // PNG: the IHDR chunk's width and height (PNG 1.2, 11.2.2).
  if (n >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    if (n < 24) return undefined;
    if (v.getUint32(12) !== 0x49484452) return null; // "IHDR" first, always
    return { type: "image/png", width: v.getUint32(16), height: v.getUint32(20) };
  }
  // GIF: the logical screen, or the first frame where it reaches past it.
  if (n >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) {
    return gifSize(b, v);
  }
  // BMP: BITMAPCOREHEADER (16-bit sizes) or a later header (32-bit, height signed).
  if (n >= 2 && b[0] === 0x42 && b[1] === 0x4d) {
    if (n < 26) return undefined;
    if (v.getUint32(14, true) === 12) {
      return { type: "image/bmp", width: v.getUint16(18, true), height: v.getUint16(20, true) };
    }
    return {
      type: "image/bmp",
      width: Math.abs(v.getInt32(18, true)),
      height: Math.abs(v.getInt32(22, true)),
    };
  }
  // WebP: the first chunk, VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas).
  if (n >= 12 && v.getUint32(0) === 0x52494646 && v.getUint32(8) === 0x57454250) {
    return webpSize(b, v);
  }
  // JPEG: the first start-of-frame marker (ITU T.81, B.2.2), past any other segment.
  if (n >= 2 && b[0] === 0xff && b[1] === 0xd8) {
    return jpegSize(b, v);
  }
  // SVG: numeric width and height, else the viewBox.
  return svgSize(b);
}

// WebP: the first chunk, VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas).
function webpSize(b, v) {
  const n = b.length;
  if (n < 30) return undefined;
  const kind = String.fromCharCode(b[12], b[13], b[14], b[15]);
  if (kind === "VP8 ") {
    return {
      type: "image/webp",
      width: v.getUint16(26, true) & 0x3fff,
      height: v.getUint16(28, true) & 0x3fff,
    };
  }
  if (kind === "VP8L") {
    const bits = v.getUint32(21, true);
    return {
      type: "image/webp",
      width: (bits & 0x3fff) + 1,
      height: ((bits >> 14) & 0x3fff) + 1,
    };
  }
  if (kind === "VP8X") {
    return {
      type: "image/webp",
      width: 1 + (b[24] | (b[25] << 8) | (b[26] << 16)),
      height: 1 + (b[27] | (b[28] << 8) | (b[29] << 16)),
    };
  }
  return null;
}

// JPEG: the first start-of-frame marker (ITU T.81, B.2.2), past any other segment.
function jpegSize(b, v) {
  const n = b.length;
  let p = 2;
  while (p + 4 <= n) {
    if (b[p] !== 0xff) return null;
    const marker = b[p + 1];
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // the end, or data, before a frame
    const len = v.getUint16(p + 2);
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8;
    if (sof && marker !== 0xcc) {
      if (p + 9 > n) return undefined;
      const width = v.getUint16(p + 7);
      const height = v.getUint16(p + 5);
      // A height of 0 is given later (a DNL marker): not read here.
      return width && height ? { type: "image/jpeg", width, height } : null;
    }
    if (len < 2) return null;
    p += 2 + len;
  }
  return undefined;
}

// SVG: numeric width and height, else the viewBox; null when the bytes are no SVG (undefined
// when too few to tell).
function svgSize(b) {
  const n = b.length;
  const text = new TextDecoder("utf-8").decode(b.subarray(0, Math.min(n, 65536)));
  const svg = /<svg\b[^>]*>/i.exec(text);
  if (svg) {
    const attr = (name) => {
      const m = new RegExp("\\s" + name + "\\s*=\\s*[\"']\\s*([0-9.]+)(px)?\\s*[\"']").exec(svg[0]);
      return m ? Number(m[1]) : null;
    };
    let width = attr("width");
    let height = attr("height");
    if (width === null || height === null) {
      const box = /\sviewBox\s*=\s*["']\s*[-0-9.]+[ ,]+[-0-9.]+[ ,]+([0-9.]+)[ ,]+([0-9.]+)/.exec(
        svg[0],
      );
      if (box) {
        width = Number(box[1]);
        height = Number(box[2]);
      }
    }
    if (width > 0 && height > 0 && isFinite(width) && isFinite(height)) {
      return { type: "image/svg+xml", width: Math.ceil(width), height: Math.ceil(height) };
    }
    return { type: "image/svg+xml", width: 0, height: 0 };
  }
  if (/<svg/i.test(text)) return n < 65536 ? null : undefined;
  return null;
}

// GIF89a/87a: the logical screen's size, past it any frame's reach up to the first frame.
function gifSize(b, v) {
  const n = b.length;
  if (n < 13) return undefined;
  let width = v.getUint16(6, true);
  let height = v.getUint16(8, true);
  let p = 13;
  if (b[10] & 0x80) p += 3 << ((b[10] & 7) + 1);
  while (p < n) {
    const block = b[p];
    if (block === 0x2c) {
      if (p + 9 > n) return undefined;
      width = Math.max(width, v.getUint16(p + 1, true) + v.getUint16(p + 5, true));
      height = Math.max(height, v.getUint16(p + 3, true) + v.getUint16(p + 7, true));
      return { type: "image/gif", width, height };
    }
    if (block === 0x3b) break;
    if (block !== 0x21) return null;
    p += 2; // the extension's label
    for (;;) {
      if (p >= n) return undefined;
      const size = b[p];
      p += 1 + size;
      if (size === 0) break;
    }
  }
  return p < n ? { type: "image/gif", width, height } : undefined;
}

// A picture file's type and size from its first bytes, reading no more of it than needed:
// {type, width, height}, or null when it is none of the formats read here.
export async function readHeader(blob, read) {
  const bytesOf =
    read ||
    (async (want) => new Uint8Array(await blob.slice(0, Math.min(want, blob.size)).arrayBuffer()));
  let want = 64 * 1024;
  for (;;) {
    const b = await bytesOf(want);
    const size = pictureHeader(b);
    if (size !== undefined) return size;
    if (b.length < want || want >= MAX_HEAD_BYTES) return null;
    want *= 4;
  }
}

// A picture file checked before it is decoded: its bytes, its format and its size in pixels
// against the limits. Resolves {type, width, height} (width 0 for an SVG that gives none),
// or rejects with a refusal naming the limit.
export async function checkPictureFile(blob, name) {
  if (blob.size > MAX_PICTURE_BYTES) {
    throw keyedError("editor.limit.picture_bytes", {
      name,
      size: mib(blob.size),
      max: mib(MAX_PICTURE_BYTES),
    });
  }
  const size = await readHeader(blob);
  if (!size) throw keyedError("editor.limit.picture_format", { name });
  if (size.width || size.height) checkPixels(size.width, size.height, name);
  return size;
}

function checkPixels(width, height, name) {
  if (!withinLimits(width, height)) {
    throw keyedError(
      "editor.limit.picture_pixels",
      Object.assign({ name }, limitParams(width, height)),
    );
  }
}

// The size of an image in pixels, read by the browser (which decodes it).
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
      reject(keyedError("editor.picture_bad", {}));
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
    // Ids of pictures being checked and kept, not yet under the map (never tidied away).
    this.keeping = new Set();
  }

  // What the draft record keeps: {pictureId, opacity, transform}, or null.
  state() {
    const p = this.current;
    if (!p) return null;
    return { pictureId: p.id, opacity: p.opacity, transform: p.transform.slice() };
  }

  // A new picture checked (its bytes, format and pixels read from its header, before it is
  // decoded), decoded by the browser and kept in the store: resolves its record. Nothing on
  // screen or in the draft changes (use() shows it); a refusal rejects with {key, params}
  // and keeps nothing.
  prepare(blob, name, id) {
    const label = String(name || "");
    const record = { id: id || pictureId(), blob: blob, name: label, width: 0, height: 0 };
    this.keeping.add(record.id);
    return checkPictureFile(blob, label)
      .then(() => imageSize(blob))
      .then((size) => {
        if (!(size.width > 0 && size.height > 0)) throw keyedError("editor.picture_bad", {});
        // The browser's own size (an SVG's, or a header read wrongly) within the limits too.
        checkPixels(size.width, size.height, label);
        record.width = size.width;
        record.height = size.height;
        return this.store.putPicture(record).catch((error) => {
          throw keyedError("editor.limit.not_stored", {
            name: label,
            detail: storageProblem(error),
          });
        });
      })
      .then(
        () => {
          this.keeping.delete(record.id);
          return record;
        },
        (error) => {
          this.keeping.delete(record.id);
          throw error;
        },
      );
  }

  // A picture prepare() kept, under the map in place of the one there.
  use(record, transform, scenario) {
    const old = this.current;
    this.show(record, {
      opacity: old ? old.opacity : DEFAULT_OPACITY,
      transform: transform || fitTransform(scenario, record.width, record.height),
    });
    this.onChange(this.state());
  }

  // Put a new picture under the map: checked, decoded and kept first; a refusal leaves the
  // picture there and the draft as they were.
  add(blob, name, transform, scenario, id) {
    return this.prepare(blob, name, id).then((record) => {
      this.use(record, transform, scenario);
      return record;
    });
  }

  // The picture a draft record names, from the store; resolves false if it is gone. One
  // kept before the limits were (larger) is not shown: rejects with the refusal.
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
      if (!withinLimits(record.width, record.height)) {
        this.clear();
        checkPixels(record.width, record.height, record.name);
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
