// A big hex map drawn by what is in view (HexMap, hex.js): its terrain, hexsides and numbers
// in chunks of hexes, those near the view only; and the hexes a scenario takes off the map,
// covered. Methods of HexMap; they only draw.
import { esc } from "./svg.js";
import { HexGrid } from "./hexgrid.js";
import { terrainSvg, hexsidesSvg, roadsSvg, gridBounds } from "./hexterrain.js";

// A map of more hexes than this is drawn by what is in view: in chunks of CHUNK x CHUNK
// hexes (terrain, hexsides, numbers), those that meet the view grown by CHUNK_MARGIN views each
// way, and no more than CHUNKS_PER_FRAME new ones in a frame; a chunk farther than twice the
// margin is dropped. A smaller map is drawn whole, once. The margin is small: a gesture moves
// the map as laid out (PanZoomMap._moveLive) and the chunks follow when it ends, so the
// margin only spares the redraw after a short pan; every chunk more is laid out again then.
const CHUNK = 8;
const CHUNK_MARGIN = 0.25;
const CHUNKS_PER_FRAME = 12;

export const hexChunkMethods = {
  // The hexes the scenario takes off the map (map.off_map: a board that is not a rectangle):
  // covered, in the colour around the map; no tap answers there.
  _drawOffBoard(grid, map) {
    this._off = new Set(map.off_map || []);
    let svg = "";
    for (const label of this._off) {
      const c = grid.center(label);
      if (c && grid.has(label)) {
        svg += `<polygon class="hm-off" data-off="${esc(label)}" points="${grid.points(c[0], c[1])}"/>`;
      }
    }
    this.layers.offmap.innerHTML = svg;
  },

  // ---- a big map: chunks drawn by what is in view -----------------------------------

  // Split map (a big one) into chunks, none drawn yet; the roads and bridges are drawn whole
  // (a few lines), the terrain, hexsides and numbers of each chunk when it comes near the
  // view (_cull). Also the editor's redraw of a big map's terrain, hexsides or roads.
  _chunkMap(map) {
    const grid = this._grid;
    this._numsBuilt = true; // numbers come with their chunk
    this.layers.terrain.innerHTML = "";
    this.layers.hexsides.innerHTML = "";
    if (this._numsLayer) this._numsLayer.innerHTML = "";
    const chunks = [];
    const across = Math.ceil(grid.rows / CHUNK);
    for (let c = 0; c < grid.columns; c += CHUNK) {
      for (let r = 0; r < grid.rows; r += CHUNK) {
        const part = new HexGrid(
          Object.assign({}, map, {
            first_column: grid.firstColumn + c,
            columns: Math.min(CHUNK, grid.columns - c),
            first_row: grid.firstRow + r,
            rows: Math.min(CHUNK, grid.rows - r),
          }),
        );
        const box = gridBounds(part);
        chunks.push({ grid: part, box, sides: [], els: null, nums: null });
      }
    }
    const chunkOf = (label) => {
      const p = grid.parse(label);
      if (!p || !grid.contains(p.col, p.row)) return null;
      const c = Math.floor((p.col - grid.firstColumn) / CHUNK);
      const r = Math.floor((p.row - grid.firstRow) / CHUNK);
      return chunks[c * across + r];
    };
    const bridged = [];
    for (const side of map.hexsides || []) {
      const between = side.between || [];
      const chunk = chunkOf(between[0]) || chunkOf(between[1]);
      if (chunk) chunk.sides.push(side);
      const f = side.features || [];
      if (f.includes("bridge") || f.includes("pontoon_bridge")) bridged.push(side);
    }
    const bridges = hexsidesSvg(grid, { hexsides: bridged }).bridges;
    this.layers.roads.innerHTML = roadsSvg(grid, map, bridges);
    this._chunks = chunks;
    this._chunkFrame = 0;
    this._cull();
  },

  // Draw the chunks that meet the view (and its margin) and are not drawn yet, a few a frame;
  // their numbers only while the numbers show; drop the chunks far from it.
  _cull() {
    const chunks = this._chunks;
    const v = this._dims();
    if (!chunks || !(v.w > 0 && v.h > 0)) return;
    const w = v.w / this._k;
    const h = v.h / this._k;
    const near = (b, m) =>
      b.maxX > this._cx - w / 2 - w * m &&
      b.minX < this._cx + w / 2 + w * m &&
      b.maxY > this._cy - h / 2 - h * m &&
      b.minY < this._cy + h / 2 + h * m;
    const nums = !this._svg.classList.contains("hm-far");
    const map = this._scenario.map;
    let budget = CHUNKS_PER_FRAME;
    let more = false;
    for (const chunk of chunks) {
      if (!near(chunk.box, 2 * CHUNK_MARGIN)) {
        if (chunk.els) for (const el of chunk.els) el.remove();
        if (chunk.nums) chunk.nums.remove();
        chunk.els = null;
        chunk.nums = null;
        continue;
      }
      if (!near(chunk.box, CHUNK_MARGIN)) continue;
      if (chunk.els && (chunk.nums || !nums)) continue;
      if (budget <= 0) {
        more = true;
        continue;
      }
      budget--;
      const t = terrainSvg(chunk.grid, map, this._id, this._grid);
      if (!chunk.els) {
        const sides = hexsidesSvg(this._grid, { hexsides: chunk.sides });
        chunk.els = [
          this._chunkEl(this.layers.terrain, t.svg),
          this._chunkEl(this.layers.hexsides, sides.svg),
        ];
      }
      if (nums && !chunk.nums) chunk.nums = this._chunkEl(this._numsLayer, t.nums.join(""));
    }
    if (more && !this._chunkFrame) {
      this._chunkFrame = requestAnimationFrame(() => {
        this._chunkFrame = 0;
        this._cull();
      });
    }
  },

  _chunkEl(layer, svg) {
    layer.insertAdjacentHTML("beforeend", `<g class="hm-chunk">${svg}</g>`);
    return layer.lastChild;
  },
};
