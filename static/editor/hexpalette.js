// The hex editor's tool palette (methods of HexEditor, static/editor/hexedit.js): the tools
// and the eraser, the terrain layer (base or added) and the brush, the terrains, levels,
// hexside features and road kinds with small drawings of each, and a line of help.
import { HexGrid, edgeBetween } from "../render/hexgrid.js";
import { terrainSvg, hexsidesSvg, roadsSvg } from "../render/hexterrain.js";
import { r1, esc, clamp } from "../render/svg.js";

const TOOLS = ["terrain", "level", "hexside", "road", "label", "offmap"];
const BRUSHES = [
  { id: 0, key: "editor.hex.brush_1" },
  { id: 1, key: "editor.hex.brush_r1" },
  { id: 2, key: "editor.hex.brush_r2" },
  { id: "fill", key: "editor.hex.fill" },
];

// ---- small drawings for the palette -------------------------------------------------------

const SWATCH_MAP = {
  orientation: "flat",
  stagger: "even",
  first_column: 0,
  columns: 2,
  first_row: 0,
  rows: 1,
};
const SWATCH_GRID = new HexGrid(Object.assign({}, SWATCH_MAP, { columns: 1 }));
const PAIR_GRID = new HexGrid(SWATCH_MAP);
const PAIR_EDGE = edgeBetween(PAIR_GRID, "0000", "0100");
const PAIR_BOX = `${r1(PAIR_EDGE.mx - 26)} ${r1(PAIR_EDGE.my - 26)} 52 52`;

function swatch(box, inner) {
  return `<svg class="he-swatch" viewBox="${box}" aria-hidden="true" focusable="false">${inner}</svg>`;
}

function terrainSwatch(id, level, prefix) {
  const entry = { level };
  if (id) entry.terrain = [id];
  const t = terrainSvg(SWATCH_GRID, { hexes: { "0000": entry } }, prefix);
  return swatch("-28 -28 56 56", t.svg);
}

function featureSwatch(feature) {
  const map = { hexsides: [{ between: ["0000", "0100"], features: [feature], up: "0000" }] };
  const s = hexsidesSvg(PAIR_GRID, map);
  return swatch(
    PAIR_BOX,
    `<rect x="-100" y="-100" width="300" height="300" fill="#eef0d6"/>${s.svg}${s.bridges}`,
  );
}

function roadSwatch(kind) {
  const map = { roads: [{ kind, hexes: ["0000", "0100"] }] };
  return swatch(
    PAIR_BOX,
    `<rect x="-100" y="-100" width="300" height="300" fill="#eef0d6"/>${roadsSvg(PAIR_GRID, map, "")}`,
  );
}

// ---- the palette ------------------------------------------------------------------------

export const paletteMethods = {
  _button(id, label, pressed, onClick, art, extraClass) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "he-btn" + (extraClass ? " " + extraClass : "");
    b.setAttribute("data-tool", id);
    if (pressed !== null) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.innerHTML = (art || "") + `<span class="he-btn-text">${esc(label)}</span>`;
    b.addEventListener("click", onClick);
    return b;
  },

  _group(labelKey, className) {
    const g = document.createElement("div");
    g.className = "he-group" + (className ? " " + className : "");
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", this.t(labelKey));
    return g;
  },

  // The palette: the tools, the eraser, the current tool's choices and a line of help.
  // Drawn again on every choice; the focus stays on the button that had it.
  _renderTools() {
    const el = this.toolsEl;
    if (!el) return;
    const focused = document.activeElement;
    const focusId = focused && el.contains(focused) ? focused.getAttribute("data-tool") : null;
    el.innerHTML = "";
    el.appendChild(this._toolButtons());
    if (this.tool === "terrain") el.appendChild(this._layerButtons());
    if (this.tool === "terrain" || this.tool === "level" || this.tool === "offmap") {
      el.appendChild(this._brushButtons());
    }
    const prefix = this.map ? this.map.prefix : "hm";
    if (this.tool === "terrain") {
      el.appendChild(
        this._swatches(
          "editor.hex.terrains",
          this.cat.terrains,
          "terrain-",
          "terrain.",
          "terrain",
          (id) => terrainSwatch(id, 0, prefix),
        ),
      );
    } else if (this.tool === "level") {
      el.appendChild(this._levelButtons(prefix));
    } else if (this.tool === "hexside") {
      el.appendChild(
        this._swatches(
          "editor.hex.features",
          this.cat.features,
          "feature-",
          "feature.",
          "feature",
          featureSwatch,
        ),
      );
      if (this.cat.directional.has(this.feature)) {
        const up = this._group("editor.hex.up_side");
        up.appendChild(
          this._button(
            "flip",
            this.t("editor.hex.flip"),
            this.flip,
            this._choose(() => (this.flip = !this.flip)),
          ),
        );
        el.appendChild(up);
      }
    } else if (this.tool === "road") {
      el.appendChild(
        this._swatches(
          "editor.hex.road_kinds",
          this.cat.roadKinds,
          "road-",
          "connection.",
          "roadKind",
          roadSwatch,
        ),
      );
    }

    const hint = document.createElement("p");
    hint.className = "he-hint";
    hint.textContent = this._hintText();
    el.appendChild(hint);
    if (this._pending) {
      const cancel = this._button("cancel-pick", this.t("ui.cancel"), null, () =>
        this._cancelPending(),
      );
      el.appendChild(cancel);
    }
    if (focusId) {
      const again = el.querySelector(`[data-tool="${focusId}"]`);
      if (again) again.focus();
    }
  },

  // A palette button's action: fn, then the stroke, the palette and the levels drawn again.
  _choose(fn) {
    return () => {
      fn();
      this._syncStroke();
      this._renderTools();
      this._drawLevels();
    };
  },

  // The tools, and the eraser.
  _toolButtons() {
    const tools = this._group("editor.hex.tools", "he-tools-main");
    for (const tool of TOOLS) {
      tools.appendChild(
        this._button(
          "tool-" + tool,
          this.t("editor.hex.tool_" + tool),
          this.tool === tool,
          this._choose(() => {
            this.tool = tool;
          }),
        ),
      );
    }
    tools.appendChild(
      this._button(
        "erase",
        this.t("editor.hex.erase"),
        this.erase,
        this._choose(() => {
          this.erase = !this.erase;
        }),
        "",
        "he-erase",
      ),
    );
    return tools;
  },

  // The terrain's layer: the base terrain or one added to it.
  _layerButtons() {
    const layer = this._group("editor.hex.layer");
    layer.appendChild(
      this._button(
        "base",
        this.t("editor.hex.base"),
        !this.added,
        this._choose(() => (this.added = false)),
      ),
    );
    layer.appendChild(
      this._button(
        "added",
        this.t("editor.hex.added"),
        this.added,
        this._choose(() => (this.added = true)),
      ),
    );
    return layer;
  },

  // The brush: one hex, a ring of one or two round it, or a fill.
  _brushButtons() {
    const brush = this._group("editor.hex.brush");
    for (const b of BRUSHES) {
      brush.appendChild(
        this._button(
          "brush-" + b.id,
          this.t(b.key),
          this.brush === b.id,
          this._choose(() => (this.brush = b.id)),
        ),
      );
    }
    return brush;
  },

  // A list of things to paint with, each with its small drawing (art(id)): a choice sets the
  // editor's `field` and puts the eraser away.
  _swatches(groupKey, ids, idPrefix, wordPrefix, field, art) {
    const list = this._group(groupKey, "he-swatches");
    for (const id of ids) {
      list.appendChild(
        this._button(
          idPrefix + id,
          this.t(wordPrefix + id),
          !this.erase && this[field] === id,
          this._choose(() => {
            this[field] = id;
            this.erase = false;
          }),
          art(id),
        ),
      );
    }
    return list;
  },

  // The usual levels (0 to 5) as buttons, the chosen one beside them when it is beyond, and a
  // step down and up to reach every level the system allows.
  _levelButtons(prefix) {
    const lo = this.cat.levels.min;
    const hi = this.cat.levels.max;
    const shown = [];
    for (let n = Math.max(lo, 0); n <= Math.min(hi, 5); n++) shown.push(n);
    if (shown.indexOf(this.level) < 0) shown.push(this.level);
    shown.sort((a, b) => a - b);
    const list = this._group("editor.hex.levels", "he-swatches");
    const stepper = (id, key, d) => {
      const b = this._button(
        id,
        d < 0 ? "\u2212" : "+",
        null,
        this._choose(() => {
          this.level = clamp(this.level + d, lo, hi);
          this.erase = false;
        }),
        "",
        "he-level-btn",
      );
      b.setAttribute("aria-label", this.t(key));
      b.setAttribute("title", this.t(key));
      b.disabled = d < 0 ? this.level <= lo : this.level >= hi;
      return b;
    };
    list.appendChild(stepper("level-down", "editor.hex.level_down", -1));
    for (const n of shown) {
      const b = this._button(
        "level-" + n,
        String(n),
        !this.erase && this.level === n,
        this._choose(() => {
          this.level = n;
          this.erase = false;
        }),
        terrainSwatch(null, Math.max(0, n), prefix),
        "he-level-btn",
      );
      b.setAttribute("aria-label", this.t("editor.hex.level_n", { n }));
      list.appendChild(b);
    }
    list.appendChild(stepper("level-up", "editor.hex.level_up", 1));
    return list;
  },

  _hintText() {
    if (this._pending && this._pending.kind === "unit") {
      return (this.t("editor.hex.hint_unit") + " " + this._placingText()).trim();
    }
    if (this._pending) return this.t(this._pending.key || "editor.hex.hint_point");
    if (this.erase) return this.t("editor.hex.hint_erase_" + this.tool);
    if (this.tool === "hexside" && this.cat.directional.has(this.feature)) {
      return this.t(this.flip ? "editor.hex.hint_up_far" : "editor.hex.hint_up_near");
    }
    return this.t("editor.hex.hint_" + this.tool);
  },
};
