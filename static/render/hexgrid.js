// Hex geometry shared by the hex map renderer (hex.js) and its drawing modules: the hex
// size, axial directions, the printed CCRR numbering (HexGrid) and hexside edges.
// Matches py/muster/hexgrid.py. Plain ES2020 so it parses on older iPad Safari.

import { r1 } from "./svg.js";

export const SIZE = 50; // hex radius in SVG user units
export const SQRT3 = Math.sqrt(3);

// Axial neighbour directions, the same order as the Python core (hexgrid.HEX_DIRECTIONS).
export const DIRECTIONS = [
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [0, -1],
];

// The hex nearest fractional axial (fq, fr): cube rounding (Red Blob Games' hex_round).
export function roundAxial(fq, fr) {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

// Hex geometry and the printed CCRR numbering of one map. Matches py/muster/hexgrid.py.
export class HexGrid {
  constructor(map) {
    this.flat = map.orientation !== "pointy";
    this.shift = map.stagger === "even" ? 1 : -1;
    this.columnDigits = map.column_digits ?? 2;
    this.rowDigits = map.row_digits ?? 2;
    this.firstColumn = map.first_column ?? 1;
    this.columns = map.columns;
    this.firstRow = map.first_row ?? 1;
    this.rows = map.rows;
    this.size = SIZE;
    this.corners = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i - (this.flat ? 0 : 30));
      this.corners.push([SIZE * Math.cos(a), SIZE * Math.sin(a)]);
    }
    // The outline after its first corner, as relative path commands.
    let rel = "";
    for (let i = 1; i < 6; i++) {
      const dx = this.corners[i][0] - this.corners[i - 1][0];
      const dy = this.corners[i][1] - this.corners[i - 1][1];
      rel += "l" + r1(dx) + " " + r1(dy);
    }
    this.relOutline = rel + "z";
    // For each direction, the two corners of the side facing that neighbour.
    this.edgeCorners = DIRECTIONS.map((d) => {
      const p = this.pixel(d[0], d[1]);
      const order = [0, 1, 2, 3, 4, 5].sort(
        (i, j) =>
          this.corners[j][0] * p[0] +
          this.corners[j][1] * p[1] -
          (this.corners[i][0] * p[0] + this.corners[i][1] * p[1]),
      );
      return [order[0], order[1]];
    });
  }

  label(col, row) {
    return String(col).padStart(this.columnDigits, "0") + String(row).padStart(this.rowDigits, "0");
  }

  // {col, row} of a printed label, or null when it is not a number of this map's width.
  parse(label) {
    if (typeof label !== "string") return null;
    if (label.length !== this.columnDigits + this.rowDigits) return null;
    if (!/^\d+$/.test(label)) return null;
    return {
      col: parseInt(label.slice(0, this.columnDigits), 10),
      row: parseInt(label.slice(this.columnDigits), 10),
    };
  }

  contains(col, row) {
    return (
      col >= this.firstColumn &&
      col < this.firstColumn + this.columns &&
      row >= this.firstRow &&
      row < this.firstRow + this.rows
    );
  }

  has(label) {
    const p = this.parse(label);
    return p !== null && this.contains(p.col, p.row);
  }

  toAxial(col, row) {
    if (this.flat) {
      return [col, row - Math.floor((col + this.shift * (col & 1)) / 2)];
    }
    return [col - Math.floor((row + this.shift * (row & 1)) / 2), row];
  }

  fromAxial(q, r) {
    if (this.flat) {
      return [q, r + Math.floor((q + this.shift * (q & 1)) / 2)];
    }
    return [q + Math.floor((r + this.shift * (r & 1)) / 2), r];
  }

  axialOf(label) {
    const p = this.parse(label);
    return p ? this.toAxial(p.col, p.row) : null;
  }

  pixel(q, r) {
    if (this.flat) return [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
    return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
  }

  center(label) {
    const a = this.axialOf(label);
    return a ? this.pixel(a[0], a[1]) : null;
  }

  // Axial [q, r] of the hex under map point (x, y), on the map or not.
  axialAt(x, y) {
    let fq;
    let fr;
    if (this.flat) {
      fq = ((2 / 3) * x) / SIZE;
      fr = ((-1 / 3) * x + (SQRT3 / 3) * y) / SIZE;
    } else {
      fq = ((SQRT3 / 3) * x - (1 / 3) * y) / SIZE;
      fr = ((2 / 3) * y) / SIZE;
    }
    return roundAxial(fq, fr);
  }

  // The printed label of the hex under map point (x, y), or null when off the map.
  labelAt(x, y) {
    const a = this.axialAt(x, y);
    const q = a[0];
    const r = a[1];
    const o = this.fromAxial(q, r);
    return this.contains(o[0], o[1]) ? this.label(o[0], o[1]) : null;
  }

  points(x, y) {
    const c = this.corners;
    let s = "";
    for (let i = 0; i < 6; i++) {
      s += (i ? " " : "") + r1(x + c[i][0]) + "," + r1(y + c[i][1]);
    }
    return s;
  }

  // Direction 0-5 from axial a to its neighbour b, or -1.
  direction(a, b) {
    const dq = b[0] - a[0];
    const dr = b[1] - a[1];
    for (let i = 0; i < 6; i++) {
      if (DIRECTIONS[i][0] === dq && DIRECTIONS[i][1] === dr) return i;
    }
    return -1;
  }

  // Every on-map hex: {label, q, r, x, y}, column by column.
  *cells() {
    for (let col = this.firstColumn; col < this.firstColumn + this.columns; col++) {
      for (let row = this.firstRow; row < this.firstRow + this.rows; row++) {
        const a = this.toAxial(col, row);
        const p = this.pixel(a[0], a[1]);
        yield { label: this.label(col, row), q: a[0], r: a[1], x: p[0], y: p[1] };
      }
    }
  }
}

// The shared edge of two adjacent hexes: endpoints, midpoint, the unit vector n from
// hex a towards hex b, and the unit vector t along the edge.
export function edgeBetween(grid, labelA, labelB) {
  const a = grid.axialOf(labelA);
  const b = grid.axialOf(labelB);
  if (!a || !b || grid.direction(a, b) < 0) return null;
  const pa = grid.pixel(a[0], a[1]);
  const pb = grid.pixel(b[0], b[1]);
  const mx = (pa[0] + pb[0]) / 2;
  const my = (pa[1] + pb[1]) / 2;
  const len = Math.hypot(pb[0] - pa[0], pb[1] - pa[1]);
  const nx = (pb[0] - pa[0]) / len;
  const ny = (pb[1] - pa[1]) / len;
  const tx = -ny;
  const ty = nx;
  const h = SIZE / 2;
  return {
    mx,
    my,
    nx,
    ny,
    tx,
    ty,
    x1: mx + tx * h,
    y1: my + ty * h,
    x2: mx - tx * h,
    y2: my - ty * h,
  };
}

// The edge moved by d along n and shortened by `trim` units at each end.
export function shifted(e, d, trim) {
  const h = SIZE / 2 - (trim || 0);
  const cx = e.mx + e.nx * d;
  const cy = e.my + e.ny * d;
  return [cx + e.tx * h, cy + e.ty * h, cx - e.tx * h, cy - e.ty * h];
}
