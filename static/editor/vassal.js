// Reading the owner's VASSAL module (.vmod, a zip) in the browser: its boards, their hex grids
// and numbering from the build file, and its piece names; and one board's picture with the
// Muster map that matches its printed numbers and the transform that lays it under that map.
// Nothing leaves the device. The geometry follows VASSAL's own HexGrid and HexGridNumbering
// (vassal-app/.../map/boardPicker/board/HexGrid.java, .../mapgrid/HexGridNumbering.java,
// RegularGridNumbering.java), with its default values where the build file leaves one out.

import { ZipReader, nativeDeflate } from "./zip.js";
import { buildText, MAX_BUILD_FILE_BYTES } from "./vassal_build.js";
import { keyedError } from "./editor_common.js";
import { pieceGroups } from "./vassal_pieces.js";
import { HexGrid, SIZE, SQRT3 } from "../render/hexgrid.js";
import { MAX_PICTURE_BYTES, limitParams, readHeader, withinLimits } from "./picture.js";

// Muster's limits (py/muster/scenario.py, limits.py): digits of each part of a number, hexes.
const MAX_DIGITS = 3;
const MAX_HEXES = 20000;

export { MAX_BUILD_FILE_BYTES };
// The module's moduledata (its name): a few hundred bytes.
const MAX_MODULEDATA_BYTES = 1024 * 1024;

// How far, in picture pixels, a hex may reach past the picture's edge and still count as whole.
const EDGE_SLACK = 1;

// HexGrid.java: DEFAULT_HEIGHT, DEFAULT_WIDTH, origin (0, 32).
const DEFAULT_DY = 64.0;
const DEFAULT_DX = (Math.sqrt(3) / 2) * DEFAULT_DY;

function tail(tag) {
  return tag.slice(tag.lastIndexOf(".") + 1);
}

function elementChildren(el) {
  return Array.prototype.filter.call(el.childNodes, (n) => n.nodeType === 1);
}

// Java's Boolean.valueOf, Integer.valueOf and Double.valueOf on an attribute, with a default.
function bool(el, name, fallback) {
  return el.hasAttribute(name) ? el.getAttribute(name).trim().toLowerCase() === "true" : fallback;
}
function int(el, name, fallback) {
  if (!el.hasAttribute(name)) return fallback;
  const v = el.getAttribute(name).trim();
  return /^[-+]?\d+$/.test(v) ? parseInt(v, 10) : NaN;
}
function num(el, name, fallback) {
  if (!el.hasAttribute(name)) return fallback;
  const v = el.getAttribute(name).trim();
  return v === "" ? NaN : Number(v);
}
function char(el, name, fallback) {
  const v = el.getAttribute(name);
  return v ? v.charAt(0) : fallback;
}

// A HexGrid element and its HexGridNumbering child, as VASSAL builds them.
function readHexGrid(el, zone) {
  const dx0 = num(el, "dx", DEFAULT_DX);
  const dy = num(el, "dy", DEFAULT_DY);
  // HexGrid.setAttribute(DY): a width still at its default follows the height.
  const dx = el.hasAttribute("dy") && dx0 === DEFAULT_DX ? (Math.sqrt(3) / 2) * dy : dx0;
  const grid = {
    kind: "hex",
    sideways: bool(el, "sideways", false),
    x0: int(el, "x0", 0),
    y0: int(el, "y0", 32),
    dx,
    dy,
    numbering: null,
    oblique: false,
    zone,
  };
  for (const child of elementChildren(el)) {
    const t = tail(child.tagName);
    if (t === "ObliqueHexGridNumbering") {
      grid.oblique = true;
    } else if (t.endsWith("HexGridNumbering")) {
      grid.numbering = {
        first: char(child, "first", "H"),
        sep: child.getAttribute("sep") || "",
        hType: char(child, "hType", "N"),
        vType: char(child, "vType", "N"),
        hLeading: int(child, "hLeading", 1),
        vLeading: int(child, "vLeading", 1),
        hOff: int(child, "hOff", 1),
        vOff: int(child, "vOff", 1),
        hDescend: bool(child, "hDescend", false),
        vDescend: bool(child, "vDescend", false),
        stagger: bool(child, "stagger", true),
      };
    }
  }
  return grid;
}

// "x1,y1;x2,y2;..." (Zone.path) -> its bounding box [x, y, w, h], or null.
function pathBounds(path) {
  const xs = [];
  const ys = [];
  for (const pair of (path || "").split(";")) {
    const p = pair.split(",");
    if (p.length === 2 && isFinite(p[0]) && isFinite(p[1]) && p[0] !== "" && p[1] !== "") {
      xs.push(Number(p[0]));
      ys.push(Number(p[1]));
    }
  }
  if (!xs.length) return null;
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
}

// The hex grids of a board: its own HexGrid, or a ZonedGrid's background HexGrid, else one
// per zone that has its own HexGrid (in board coordinates, limited to the zone's box).
function boardGrids(boardEl) {
  const grids = [];
  for (const child of elementChildren(boardEl)) {
    const t = tail(child.tagName);
    if (t.endsWith("HexGrid")) grids.push(readHexGrid(child, null));
    else if (t.endsWith("ZonedGrid")) {
      const parts = elementChildren(child);
      const background = parts.find((c) => tail(c.tagName).endsWith("HexGrid"));
      if (background) {
        grids.push(readHexGrid(background, null));
        continue;
      }
      for (const zoneEl of parts) {
        if (tail(zoneEl.tagName) !== "Zone") continue;
        const hex = elementChildren(zoneEl).find((c) => tail(c.tagName).endsWith("HexGrid"));
        const bounds = pathBounds(zoneEl.getAttribute("path"));
        if (hex && bounds) {
          grids.push(readHexGrid(hex, { name: zoneEl.getAttribute("name") || "", bounds }));
        }
      }
    }
  }
  return grids;
}

// The name of a piece from its definition (a PieceSlot's text): the BasicPiece type
// "piece;clone;delete;image;name" among the tab-separated traits.
function definitionName(text) {
  const m =
    /(?:^|[\t/])piece;(?:[^;\\]|\\.)*;(?:[^;\\]|\\.)*;(?:[^;\\]|\\.)*;((?:[^\t/\\]|\\.)*)/.exec(
      text || "",
    );
  return m ? m[1].replace(/\\(.)/g, "$1").trim() : "";
}

// --- the board's picture, read from its first bytes --------------------------------------

// {type, width, height} of an image entry from its header (picture.js), reading as little of it
// as it can; null when it is none of the formats read here (or an SVG that gives no size).
async function imageSize(zip, entry) {
  const size = await readHeader(null, (want) => zip.head(entry, want, MAX_PICTURE_BYTES));
  return size && size.width > 0 && size.height > 0 ? size : null;
}

// The refusal of a board's picture of more pixels than a picture under the map may have, or
// null. (One of more bytes is refused by the zip reader: zip.head() and zip.blob() read it
// within MAX_PICTURE_BYTES.)
function pictureProblem(board, size) {
  if (!withinLimits(size.width, size.height)) {
    return {
      key: "editor.limit.board_pixels",
      params: Object.assign(
        { board: board.name, image: board.image },
        limitParams(size.width, size.height),
      ),
    };
  }
  return null;
}

// --- the calibration ---------------------------------------------------------------------

function refuse(key, board, extra) {
  return keyedError(key, Object.assign({ board: board.name }, extra || {}));
}

// The Muster map and transform for a board's hex grid, or a thrown Error with .key/.params.
//
// VASSAL (HexGrid.hexPointCenterFromRawIndex, HexGridNumbering.getCenterPoint): in the grid's
// own frame (u, v) — the board's (x, y), or (y, x) when the grid is sideways (rotateIfSideways)
// — the centre of raw hex (i, j) is u = x0 + dx*i, v = y0 + dy*j (+ dy/2 when i is odd).
// Its name (HexGridNumbering.getColumn/getRow, RegularGridNumbering.getName) is column
// i + hOff and row j + vOff, plus 1 when `stagger` and i is odd; "column sep row" when first
// is "H", "row sep column" when it is "V".
// Muster (hexgrid.js): flat maps put printed column C at x = 75*C, row R along y; pointy maps
// put printed row R at y = 75*R, column C along x. Sideways grids are pointy: VASSAL's
// "column" i runs down the board (Muster's row) and its "row" across (Muster's column).
//
// `crop` ({first_column, last_column, first_row, last_row}, Muster's printed numbers, any of
// them left out) takes only that part of the board: the map keeps the numbers VASSAL prints
// there and the picture's alignment, so a cropped map's first column and row are the printed
// ones of its corner hex.
export function calibrate(board, crop) {
  checkGrid(board);
  // The line index i (VASSAL's column) is Muster's column on a flat map, its row on a
  // pointy one; the numbering's "horizontal" settings (h*) go with i, "vertical" (v*) with j.
  const pointy = board.grid.sideways;
  const covered = cropped(board, pointy, numbersCovered(board, pointy), crop);
  checkCount(board, covered);
  const map = mapOf(board, pointy, covered);
  return { map, transform: transformOf(board, pointy, covered, map) };
}

// The printed numbers the picture holds whole, in Muster's words: {first_column, last_column,
// first_row, last_row} (the whole board, before any crop), or a thrown Error as calibrate's.
export function boardNumbers(board) {
  checkGrid(board);
  const pointy = board.grid.sideways;
  return musterRange(pointy, numbersCovered(board, pointy));
}

function musterRange(pointy, c) {
  return pointy
    ? { first_column: c.qMin, last_column: c.qMax, first_row: c.pMin, last_row: c.pMax }
    : { first_column: c.pMin, last_column: c.pMax, first_row: c.qMin, last_row: c.qMax };
}

// The covered numbers within a crop (Muster's columns and rows; a part left out or not an
// integer keeps the board's own), refused when the crop leaves no hex of the board.
function cropped(board, pointy, covered, crop) {
  if (!crop) return covered;
  const whole = musterRange(pointy, covered);
  const pick = (name, keep) => {
    const v = crop[name];
    return Number.isInteger(v) ? keep(v, whole[name]) : whole[name];
  };
  const r = {
    first_column: pick("first_column", Math.max),
    last_column: pick("last_column", Math.min),
    first_row: pick("first_row", Math.max),
    last_row: pick("last_row", Math.min),
  };
  if (r.first_column > r.last_column || r.first_row > r.last_row) {
    throw refuse("editor.vassal.crop_outside", board, whole);
  }
  return pointy
    ? { pMin: r.first_row, pMax: r.last_row, qMin: r.first_column, qMax: r.last_column }
    : { pMin: r.first_column, pMax: r.last_column, qMin: r.first_row, qMax: r.last_row };
}

// Refuse more hexes than a Muster map holds (the board may still be cropped to fewer).
function checkCount(board, covered) {
  const count = (covered.pMax - covered.pMin + 1) * (covered.qMax - covered.qMin + 1);
  if (count > MAX_HEXES) {
    throw refuse("editor.vassal.too_many_hexes", board, { count, max: MAX_HEXES });
  }
}

// Refuse a grid Muster cannot number as VASSAL does: no grid or numbering, an oblique grid,
// a size or offset that is no number, no image, a separator, letters, descending numbers, or
// rows numbered first.
function checkGrid(board) {
  const g = board.grid;
  if (!g) throw refuse("editor.vassal.no_grid", board);
  if (g.oblique) throw refuse("editor.vassal.oblique", board);
  const n = g.numbering;
  if (!n) throw refuse("editor.vassal.no_numbering", board);
  if (!(g.dx > 0 && g.dy > 0 && isFinite(g.dx) && isFinite(g.dy))) {
    throw refuse("editor.vassal.bad_grid", board);
  }
  for (const v of [g.x0, g.y0, n.hOff, n.vOff, n.hLeading, n.vLeading]) {
    if (!Number.isInteger(v)) throw refuse("editor.vassal.bad_grid", board);
  }
  if (!(board.width > 0 && board.height > 0)) throw refuse("editor.vassal.no_image", board);
  const pointy = g.sideways;
  if (n.sep !== "") throw refuse("editor.vassal.separator", board, { sep: n.sep });
  if (n.hType !== "N" || n.vType !== "N") {
    // Alphabetic: which Muster part it is (a column on the board, or a row).
    const columnAlpha = pointy ? n.vType !== "N" : n.hType !== "N";
    throw refuse(
      columnAlpha ? "editor.vassal.alphabetic_columns" : "editor.vassal.alphabetic_rows",
      board,
    );
  }
  if (n.hDescend || n.vDescend) {
    // VASSAL's "horizontal descending" counts from the board's right edge, sideways or not.
    throw refuse(
      n.hDescend ? "editor.vassal.descending_columns" : "editor.vassal.descending_rows",
      board,
    );
  }
  // Muster's numbers give the column (across the board) first.
  if ((n.first === "H") === pointy) throw refuse("editor.vassal.row_first", board);
}

// The printed numbers of the hexes the picture holds whole (within EDGE_SLACK): the lines p
// from pMin to pMax, the numbers q along them from qMin to qMax; refused when none.
function numbersCovered(board, pointy) {
  const g = board.grid;
  const n = g.numbering;
  // The picture in the grid's frame: U along u (the line index), V along v.
  const U = pointy ? board.height : board.width;
  const V = pointy ? board.width : board.height;
  // The part of it the grid covers (a zone's box, in board coordinates).
  let u0 = 0;
  let u1 = U;
  let v0 = 0;
  let v1 = V;
  if (g.zone) {
    const [zx, zy, zw, zh] = g.zone.bounds;
    const [a0, a1, b0, b1] = pointy ? [zy, zy + zh, zx, zx + zw] : [zx, zx + zw, zy, zy + zh];
    u0 = Math.max(u0, a0);
    u1 = Math.min(u1, a1);
    v0 = Math.max(v0, b0);
    v1 = Math.min(v1, b1);
  }
  // A hex reaches 2*dx/3 either side of its centre along u and dy/2 along v
  // (HexGrid.getSingleHexShape: r = 2 * deltaX / 3, y +- 0.5 * deltaY).
  const ru = (2 * g.dx) / 3;
  const rv = g.dy / 2;
  const s = EDGE_SLACK;
  const iMin = Math.ceil((u0 - s + ru - g.x0) / g.dx - 1e-9);
  const iMax = Math.floor((u1 + s - ru - g.x0) / g.dx + 1e-9);
  let pMin = Infinity;
  let pMax = -Infinity;
  let qMin = Infinity;
  let qMax = -Infinity;
  for (let i = iMin; i <= iMax; i++) {
    const odd = Math.abs(i % 2) === 1;
    const shift = odd ? g.dy / 2 : 0;
    const jMin = Math.ceil((v0 - s + rv - g.y0 - shift) / g.dy - 1e-9);
    const jMax = Math.floor((v1 + s - rv - g.y0 - shift) / g.dy + 1e-9);
    if (jMin > jMax) continue;
    const p = i + n.hOff;
    const bump = n.stagger && odd ? 1 : 0;
    const q0 = Math.max(0, jMin + n.vOff + bump);
    const q1 = jMax + n.vOff + bump;
    if (p < 0 || q1 < q0) continue; // Muster numbers are never negative
    pMin = Math.min(pMin, p);
    pMax = Math.max(pMax, p);
    qMin = Math.min(qMin, q0);
    qMax = Math.max(qMax, q1);
  }
  if (pMin > pMax) throw refuse("editor.vassal.no_hexes", board);
  return { pMin, pMax, qMin, qMax };
}

// The Muster map of those numbers: its orientation and stagger, first column and row, counts
// and digits.
function mapOf(board, pointy, covered) {
  const n = board.grid.numbering;
  const { pMin, pMax, qMin, qMax } = covered;
  const lines = pMax - pMin + 1;
  const along = qMax - qMin + 1;
  // Digits: VASSAL pads to leading + 1 digits at least (RegularGridNumbering.getName);
  // longer numbers keep their digits, so Muster pads them all to the longest.
  const lineDigits = Math.max(n.hLeading + 1, String(pMax).length);
  const alongDigits = Math.max(n.vLeading + 1, String(qMax).length);
  if (lineDigits > MAX_DIGITS || alongDigits > MAX_DIGITS) {
    throw refuse("editor.vassal.too_many_digits", board);
  }
  // Which printed lines sit half a hex further down (flat) or right (pointy): VASSAL moves odd
  // raw lines (i = p - hOff) by +dy/2 and, with `stagger`, numbers them one higher, which
  // leaves them -dy/2 relative to the even lines of the same number.
  const oddLinesLower = Math.abs(n.hOff % 2) === 1 ? n.stagger : !n.stagger;
  const map = {
    orientation: pointy ? "pointy" : "flat",
    stagger: oddLinesLower ? "odd" : "even",
    first_column: pointy ? qMin : pMin,
    columns: pointy ? along : lines,
    first_row: pointy ? pMin : qMin,
    rows: pointy ? lines : along,
    column_digits: pointy ? alongDigits : lineDigits,
    row_digits: pointy ? lineDigits : alongDigits,
  };
  return map;
}

// The affine transform from the picture's pixels to Muster's map units: one scale along each
// axis, checked on every hex of the map (VASSAL's centre lands on Muster's).
function transformOf(board, pointy, covered, map) {
  const g = board.grid;
  const n = g.numbering;
  const { pMin, pMax, qMin, qMax } = covered;
  const hex = new HexGrid(map);
  // VASSAL's centre (u, v) of printed line p, number q along it.
  const centre = (p, q) => {
    const i = p - n.hOff;
    const odd = Math.abs(i % 2) === 1;
    const j = q - n.vOff - (n.stagger && odd ? 1 : 0);
    return [g.x0 + g.dx * i, g.y0 + g.dy * j + (odd ? g.dy / 2 : 0)];
  };
  const musterOf = (p, q) => {
    const c = hex.center(pointy ? hex.label(q, p) : hex.label(p, q));
    return pointy ? [c[1], c[0]] : c; // [across the lines, along them]
  };
  // Across the lines: 1.5 * SIZE per line; along: SIZE * sqrt(3) per hex. Each axis its
  // own scale, so grids whose dx:dy is not a regular hexagon's still line up.
  const su = (1.5 * SIZE) / g.dx;
  const sv = (SIZE * SQRT3) / g.dy;
  const ref = centre(pMin, qMin);
  const refM = musterOf(pMin, qMin);
  const eu = refM[0] - su * ref[0];
  const ev = refM[1] - sv * ref[1];
  // Every hex of the map, checked: VASSAL's centre lands on Muster's.
  for (let p = pMin; p <= pMax; p++) {
    for (let q = qMin; q <= qMax; q++) {
      const c = centre(p, q);
      const m = musterOf(p, q);
      if (Math.abs(su * c[0] + eu - m[0]) > 1e-6 || Math.abs(sv * c[1] + ev - m[1]) > 1e-6) {
        throw refuse("editor.vassal.bad_grid", board);
      }
    }
  }
  return pointy ? [sv, 0, 0, su, ev, eu] : [su, 0, 0, sv, eu, ev];
}

// --- the module --------------------------------------------------------------------------

const MODULES = new WeakMap(); // module object -> its ZipReader

function describe(error) {
  return error.key ? { key: error.key, params: error.params } : { key: "editor.vassal.bad_grid" };
}

// A File/Blob (.vmod) -> {name, boards: [{map, name, image, width, height, type, grid, problem,
// numbers, crop}], pieces: [names], pieceGroups: [{name, pieces: [names], marker}]}. `grid` is
// the board's hex grid as VASSAL defines it (null without one); `problem` is null when
// boardPicture can lay the board under a Muster map, else {key, params}; `numbers` the printed
// numbers the picture holds whole ({first_column, last_column, first_row, last_row}); `crop` is
// null when the whole board fits a map, else the refusal ({key, params}) that says only a part
// of it can be taken. `pieceGroups` are the piece names by the module's palettes (or
// prototypes), the markers apart (vassal_pieces.js).
// `progress(have, size)`, when given, hears how far the build file is unpacked.
export async function readModule(file, progress) {
  const zip = await ZipReader.open(file, file.name);
  const xml = await buildFileText(file, zip, progress);
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const root = doc.documentElement;
  if (!root || doc.getElementsByTagName("parsererror").length) {
    throw keyedError("editor.vassal.bad_buildfile", { name: zip.name });
  }
  const name = await moduleName(zip, root);
  const read = boardsAndPieces(root);
  const boards = read.boards;
  for (const board of boards) board.problem = await boardProblem(zip, board);
  const module = { name, boards, pieces: read.pieces, pieceGroups: read.pieceGroups };
  MODULES.set(module, zip);
  return module;
}

// The build file's text, unpacked in a Worker (vassal_worker.js) so that a large one leaves
// the page free; on the page itself where a module Worker cannot start.
function buildFileText(file, zip, progress) {
  const hear = progress || (() => {});
  let worker = null;
  try {
    if (typeof Worker === "function") {
      worker = new Worker(new URL("./vassal_worker.js", import.meta.url), { type: "module" });
    }
  } catch (error) {
    worker = null;
  }
  if (!worker) return buildText(zip, hear);
  return new Promise((resolve, reject) => {
    let heard = false;
    worker.onmessage = (event) => {
      const m = event.data || {};
      heard = true;
      if (m.progress) return hear(m.progress[0], m.progress[1]);
      worker.terminate();
      if (typeof m.text === "string") resolve(m.text);
      else if (m.error) reject(keyedError(m.error.key, m.error.params));
      else reject(new Error(m.message || "the module could not be read"));
    };
    // A Worker that fails to start (no module Workers: Safari before 15) has said nothing:
    // the page unpacks the build file itself.
    worker.onerror = (event) => {
      worker.terminate();
      if (event && event.preventDefault) event.preventDefault();
      if (heard) reject(new Error((event && event.message) || "the module could not be read"));
      else buildText(zip, hear).then(resolve, reject);
    };
    worker.postMessage({ file, native: nativeDeflate() });
  });
}

// The module's name: its build file's, else its moduledata's, else its file's.
async function moduleName(zip, root) {
  let name = root.getAttribute("name") || "";
  if (!name) {
    const data = zip.find("moduledata");
    if (data) {
      const m = /<name>([^<]*)<\/name>/.exec(await zip.text(data, MAX_MODULEDATA_BYTES));
      if (m) name = m[1].trim();
    }
  }
  if (!name) name = (zip.name || "").replace(/\.[^.]*$/, "");
  return name;
}

// The boards of the module's board pickers, one for each hex grid a board holds (one with no
// grid when it holds none), and the names of its pieces, each once.
function boardsAndPieces(root) {
  const boards = [];
  const pieces = [];
  const seen = new Set();
  const walk = (el) => {
    const t = tail(el.tagName);
    const inPicker = el.parentNode && tail(el.parentNode.tagName || "").endsWith("BoardPicker");
    if (
      (t === "Board" && el.tagName.indexOf("boardPicker") >= 0) ||
      (inPicker && t.endsWith("Board"))
    ) {
      let mapEl = el.parentNode;
      while (mapEl && mapEl.nodeType === 1 && !mapEl.hasAttribute("mapName")) {
        mapEl = mapEl.parentNode;
      }
      const mapName = mapEl && mapEl.nodeType === 1 ? mapEl.getAttribute("mapName") : "";
      const grids = boardGrids(el);
      const base = {
        map: mapName,
        name: el.getAttribute("name") || "",
        image: el.getAttribute("image") || "",
        width: int(el, "width", 500),
        height: int(el, "height", 500),
      };
      if (!grids.length) boards.push(Object.assign({}, base, { grid: null }));
      for (const grid of grids) boards.push(Object.assign({}, base, { grid }));
      return;
    }
    if (t === "PieceSlot") {
      let piece = (el.getAttribute("entryName") || "").trim();
      if (!piece) piece = definitionName(el.textContent);
      if (piece && !seen.has(piece)) {
        seen.add(piece);
        pieces.push({ name: piece, palette: palette.slice(), prototype: prototypeName(el) });
      }
      return;
    }
    // A palette (a piece window, or a tab, panel, list or box in it) names its pieces' group.
    const named = PALETTES.has(t)
      ? (el.getAttribute("name") || el.getAttribute("entryName") || "").trim()
      : "";
    if (named) palette.push(named);
    for (const child of elementChildren(el)) walk(child);
    if (named) palette.pop();
  };
  const palette = [];
  walk(root);
  return {
    boards,
    pieces: pieces.map((p) => p.name),
    pieceGroups: pieceGroups(pieces),
  };
}

// The elements of a module's piece palettes (VASSAL.build.module.PieceWindow and
// VASSAL.build.widget.*Widget), by their tag's last part.
const PALETTES = new Set(["PieceWindow", "TabWidget", "PanelWidget", "ListWidget", "BoxWidget"]);

// The first prototype a piece's definition uses ("prototype;Name" among its traits), or "".
function prototypeName(slot) {
  const m = /(?:^|[\t/])prototype;((?:[^\t/\\;]|\\.)*)/.exec(slot.textContent || "");
  return m ? m[1].replace(/\\(.)/g, "$1").trim() : "";
}

// What keeps a board from being read, or null: no picture, a picture missing or of no format
// read here, too big, or a grid Muster cannot number (calibrate). The board takes the
// picture's size and type from its header.
async function boardProblem(zip, board) {
  board.problem = null;
  if (board.image) {
    const entry = zip.find("images/" + board.image) || zip.find(board.image);
    if (!entry) {
      board.problem = {
        key: "editor.vassal.image_missing",
        params: { board: board.name, image: board.image },
      };
    } else {
      try {
        // The declared size (checked by zip.head()), then the pixels from the header, before
        // anything more is unpacked.
        const size = await imageSize(zip, entry);
        if (size) {
          board.problem = pictureProblem(board, size);
          board.width = size.width;
          board.height = size.height;
          board.type = size.type;
        } else {
          board.problem = {
            key: "editor.vassal.image_format",
            params: { board: board.name, image: board.image },
          };
        }
      } catch (error) {
        board.problem = describe(error);
      }
    }
  } else {
    board.problem = { key: "editor.vassal.no_image", params: { board: board.name } };
  }
  board.numbers = null;
  board.crop = null;
  if (!board.problem) {
    try {
      board.numbers = boardNumbers(board);
      calibrate(board);
    } catch (error) {
      // A board of more hexes than a map holds is taken in part: it must be cropped.
      if (error.key === "editor.vassal.too_many_hexes") board.crop = describe(error);
      else board.problem = describe(error);
    }
  }
  return board.problem;
}

// The printed numbers of the hexes whose centres lie within a frame [x0, y0, x1, y1] (picture
// pixels, corners in any order) on a board that has a grid: {first_column, last_column,
// first_row, last_row} as a crop for calibrate, or null when no hex centre is inside.
export function numbersInFrame(board, frame) {
  checkGrid(board);
  const g = board.grid;
  const n = g.numbering;
  const pointy = g.sideways;
  const [xa, ya, xb, yb] = frame;
  // The frame in the grid's frame (u along the line index i, v along j).
  const [u0, u1, v0, v1] = pointy
    ? [Math.min(ya, yb), Math.max(ya, yb), Math.min(xa, xb), Math.max(xa, xb)]
    : [Math.min(xa, xb), Math.max(xa, xb), Math.min(ya, yb), Math.max(ya, yb)];
  let c = null;
  const iMin = Math.ceil((u0 - g.x0) / g.dx - 1e-9);
  const iMax = Math.floor((u1 - g.x0) / g.dx + 1e-9);
  for (let i = iMin; i <= iMax; i++) {
    const odd = Math.abs(i % 2) === 1;
    const shift = odd ? g.dy / 2 : 0;
    const jMin = Math.ceil((v0 - g.y0 - shift) / g.dy - 1e-9);
    const jMax = Math.floor((v1 - g.y0 - shift) / g.dy + 1e-9);
    const p = i + n.hOff;
    const bump = n.stagger && odd ? 1 : 0;
    const q0 = Math.max(0, jMin + n.vOff + bump);
    const q1 = jMax + n.vOff + bump;
    if (p < 0 || q1 < q0) continue;
    if (!c) c = { pMin: p, pMax: p, qMin: q0, qMax: q1 };
    c.pMin = Math.min(c.pMin, p);
    c.pMax = Math.max(c.pMax, p);
    c.qMin = Math.min(c.qMin, q0);
    c.qMax = Math.max(c.qMax, q1);
  }
  return c ? musterRange(pointy, c) : null;
}

// The picture of a board of a module read by readModule (the board object), unpacked: a Blob
// of its type. A board readModule refused is refused again with the same words.
export async function boardImage(module, board) {
  const zip = MODULES.get(module);
  if (!zip || !board) throw keyedError("editor.vassal.no_board", {});
  if (board.problem) throw keyedError(board.problem.key, board.problem.params);
  const entry = zip.find("images/" + board.image) || zip.find(board.image);
  if (!entry) throw refuse("editor.vassal.image_missing", board, { image: board.image });
  // Unpacking stops past its declared size.
  return zip.blob(entry, board.type, MAX_PICTURE_BYTES);
}

// The picture of one board of a module read by readModule (the board object, or its index),
// or of its part within `crop` (calibrate) -> {blob, width, height, map: {orientation, stagger, first_column, columns, first_row, rows,
// column_digits, row_digits}, transform: [a, b, c, d, e, f]} (picture pixels -> map units).
// readModule has read the picture's size and type from its header and checked them (and its
// grid): a board it refused is refused again with the same words.
export async function boardPicture(module, board, crop) {
  if (typeof board === "number") board = module.boards[board];
  if (!MODULES.get(module) || !board) throw keyedError("editor.vassal.no_board", {});
  if (board.problem) throw keyedError(board.problem.key, board.problem.params);
  const { map, transform } = calibrate(board, crop);
  const blob = await boardImage(module, board);
  return { blob, width: board.width, height: board.height, map, transform };
}
