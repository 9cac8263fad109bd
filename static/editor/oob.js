// The order of battle of the scenario editor: the sides (names, counter colours, army morale),
// the formations of hex-facing, and the units of each side with the ratings their type needs,
// where they stand, their facing and formation; rows pasted from a spreadsheet. Ranges and lists
// come from the core's catalog (editor_catalog); every write is one ctx.draft.change, and the
// core checks the whole scenario after it. Ids are made here and never shown.

// Screen angle (degrees, clockwise from east) of hex direction 0 on each orientation, as the
// play panel words a facing (static/panel.js).
const DIRECTION_0 = { flat: -30, pointy: -60 };
const COMPASS = [
  "e",
  "ese",
  "se",
  "sse",
  "s",
  "ssw",
  "sw",
  "wsw",
  "w",
  "wnw",
  "nw",
  "nnw",
  "n",
  "nne",
  "ne",
  "ene",
];
const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];
// The army morale levels of a hex-hexside side, highest first (docs/scenario-format.md).
const LEVELS = ["points", "demoralized", "broken"];
const LEVEL_MAX = 9999;
let serial = 0;

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (key) {
    const value = attrs[key];
    if (value === null || value === undefined || value === false) return;
    if (key === "text") node.textContent = value;
    else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  });
  (children || []).forEach(function (child) {
    if (child) node.appendChild(child);
  });
  return node;
}

// Words with {names} filled in as they are (names, hex numbers: already words).
export function say(i18n, key, raw) {
  const values = raw || {};
  return String(i18n.t(key)).replace(/\{(\w+)\}/g, function (whole, name) {
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
  });
}

// A number typed in an input, checked against {min, max}: {ok, value, empty}.
export function readNumber(text, spec, whole) {
  const raw = String(text).trim();
  if (raw === "") return { ok: false, empty: true, value: null };
  const value = Number(raw.replace(",", "."));
  let ok = isFinite(value);
  if (ok && whole) ok = Math.floor(value) === value;
  if (ok && spec && typeof spec.min === "number") ok = value >= spec.min;
  if (ok && spec && typeof spec.max === "number") ok = value <= spec.max;
  return { ok: ok, empty: false, value: value };
}

// Mark an input as out of its range (aria-invalid and the allowed range worded beside it),
// or clear the mark.
export function markInput(input, message) {
  const hint = input.parentNode && input.parentNode.querySelector(".oob-bad");
  if (message) {
    input.setAttribute("aria-invalid", "true");
    let node = hint;
    if (!node) {
      serial += 1;
      node = el("span", { class: "oob-bad", id: "oob-bad-" + serial, role: "status" });
      input.parentNode.appendChild(node);
    }
    node.textContent = message;
    input.setAttribute("aria-describedby", node.id);
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (hint) hint.remove();
  }
}

// A fresh id, unused in `taken` (a Set, which gets it).
function freshId(taken, prefix) {
  let n = taken.size + 1;
  while (taken.has(prefix + n)) n += 1;
  taken.add(prefix + n);
  return prefix + n;
}

function byId(list, id) {
  return (
    (list || []).find(function (x) {
      return x && x.id === id;
    }) || null
  );
}

function norm(text) {
  return String(text || "")
    .trim()
    .toLowerCase()
    .normalize("NFC");
}

export class OrderOfBattle {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.scenario = null;
    this.pieceNames = [];
    this.rows = new Map(); // unit id -> {sig, node}
    this.frameSig = null;
    this.marked = null;
    serial += 1;
    this.listId = "oob-pieces-" + serial;
    root.classList.add("oob");
    const self = this;
    this.sidesEl = el("div", { class: "oob-sides" });
    this.formationsEl = el("div", { class: "oob-formations" });
    this.unitsEl = el("div", { class: "oob-units" });
    this.pasteEl = el("details", { class: "oob-paste" });
    this.datalist = el("datalist", { id: this.listId });
    // Rows pasted on the table itself (several cells or lines), as into the box.
    this.unitsEl.addEventListener("paste", function (event) {
      const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
      if (!/[\t\n]/.test(text.replace(/\n+$/, ""))) return;
      event.preventDefault();
      self.pasteBox.value = text;
      self.pasteEl.open = true;
      self.addPasted();
    });
    root.replaceChildren(
      this.heading("h3", "editor.oob.sides"),
      this.sidesEl,
      this.formationsEl,
      this.heading("h3", "editor.oob.units"),
      this.unitsEl,
      this.pasteEl,
      this.datalist,
    );
  }

  heading(tag, key) {
    const node = el(tag, { "data-i18n": key, text: this.t(key) });
    return node;
  }

  t(key, params) {
    return this.ctx.i18n.t(key, params);
  }

  say(key, raw) {
    return say(this.ctx.i18n, key, raw);
  }

  get catalog() {
    return this.ctx.catalog || {};
  }

  get units() {
    return this.catalog.units || { types: [], ratings: {}, steps: {} };
  }

  // ---- the interface ---------------------------------------------------------------------

  update(scenario, info) {
    // A change made while drawing (an input left as its row is redrawn) draws after it.
    if (this.drawing) {
      this.pending = [scenario, info];
      return;
    }
    this.drawing = true;
    try {
      this.draw(scenario);
    } finally {
      this.drawing = false;
    }
    if (this.pending) {
      const next = this.pending;
      this.pending = null;
      this.update(next[0], next[1]);
    }
  }

  draw(scenario) {
    this.scenario = scenario;
    const map = scenario.map || {};
    const frame = JSON.stringify([
      this.ctx.i18n.lang,
      this.catalog.system,
      map.orientation,
      (map.locales || []).map(function (l) {
        return [l.id, l.name];
      }),
      scenario.sides,
      scenario.formations,
      this.pieceNames.length,
    ]);
    const focus = this.focusKey();
    if (frame !== this.frameSig) {
      this.frameSig = frame;
      this.rows.clear();
      this.root.querySelectorAll("[data-i18n]").forEach((node) => {
        node.textContent = this.t(node.getAttribute("data-i18n"));
      });
      this.drawSides();
      this.drawFormations();
      this.drawUnitFrame();
      this.drawPaste();
    }
    this.drawUnits();
    this.restoreFocus(focus);
    if (this.marked) this.highlight(this.marked.place, true);
  }

  highlight(place, quiet) {
    this.root.querySelectorAll(".is-marked").forEach(function (node) {
      node.classList.remove("is-marked");
    });
    this.marked = null;
    if (!place) return;
    let node = null;
    const id = String(place.id);
    if (place.kind === "unit")
      node = this.root.querySelector(`.oob-unit[data-unit="${cssId(id)}"]`);
    else if (place.kind === "side")
      node = this.root.querySelector(`.oob-side[data-side="${cssId(id)}"]`);
    else if (place.kind === "formation")
      node = this.root.querySelector(`.oob-formation[data-formation="${cssId(id)}"]`);
    if (!node) return;
    this.marked = { place: place };
    node.classList.add("is-marked");
    if (!quiet && node.scrollIntoView) node.scrollIntoView({ block: "nearest" });
  }

  setPieceNames(names) {
    const seen = new Set();
    this.pieceNames = (names || [])
      .map(function (n) {
        return String(n).trim();
      })
      .filter(function (n) {
        if (!n || seen.has(n)) return false;
        seen.add(n);
        return true;
      });
    this.datalist.replaceChildren(
      ...this.pieceNames.map(function (n) {
        return el("option", { value: n });
      }),
    );
    if (this.scenario) {
      this.frameSig = null;
      this.update(this.scenario);
    }
  }

  // ---- keeping the focus across redraws -------------------------------------------------

  focusKey() {
    const active = document.activeElement;
    if (!active || !this.root.contains(active)) return null;
    const holder = active.closest("[data-key-scope]");
    const field = active.getAttribute("data-field");
    if (!holder || !field) return null;
    return { scope: holder.getAttribute("data-key-scope"), field: field };
  }

  restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && this.root.contains(active) && active !== document.body) return;
    const holder = Array.from(this.root.querySelectorAll("[data-key-scope]")).find(function (n) {
      return n.getAttribute("data-key-scope") === key.scope;
    });
    const field = holder && holder.querySelector(`[data-field="${cssId(key.field)}"]`);
    if (field) field.focus({ preventScroll: true });
  }

  // ---- one change to the draft ----------------------------------------------------------

  change(fn, what) {
    this.ctx.draft.change(fn, what);
  }

  changeUnit(id, fn, what) {
    this.change(function (s) {
      const unit = byId(s.units, id);
      if (unit) fn(unit, s);
    }, what);
  }

  changeSide(id, fn) {
    this.change(function (s) {
      const side = byId(s.sides, id);
      if (side) fn(side, s);
    }, "editor.oob.sides");
  }

  // An input that writes when its value is complete (change, Enter) and checks as typed.
  // check(text) -> {ok, message} ; write(text) is called once the text is valid and new.
  field(input, check, write) {
    let written = null; // the text written last: Enter, then leaving the field, write once
    const run = function (commit) {
      const verdict = check(input.value);
      markInput(input, verdict.ok ? null : verdict.message);
      if (commit && verdict.ok && !verdict.same && input.value !== written) {
        written = input.value;
        write(input.value);
      }
    };
    input.addEventListener("input", function () {
      run(false);
    });
    input.addEventListener("change", function () {
      run(true);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && input.tagName === "INPUT") run(true);
    });
    return input;
  }

  textField(attrs, value, write, required) {
    const input = el("input", Object.assign({ type: "text", value: value || "" }, attrs));
    const self = this;
    return this.field(
      input,
      function (text) {
        const clean = text.trim();
        if (required && !clean) return { ok: false, message: self.t("editor.oob.need_name") };
        return { ok: true, same: clean === (value || "") };
      },
      function (text) {
        write(text.trim());
      },
    );
  }

  // A number input held to spec {min, max}; optional ones may be emptied (write(null)).
  numberField(attrs, value, spec, write, optional) {
    const input = el(
      "input",
      Object.assign(
        {
          type: "number",
          inputmode: "numeric",
          step: "1",
          min: spec.min,
          max: spec.max,
          value: typeof value === "number" ? String(value) : "",
          placeholder:
            optional && typeof spec.default === "number" ? String(spec.default) : undefined,
        },
        attrs,
      ),
    );
    const self = this;
    return this.field(
      input,
      function (text) {
        const read = readNumber(text, spec, true);
        if (read.empty && optional) return { ok: true, same: typeof value !== "number" };
        if (!read.ok) {
          return {
            ok: false,
            message: self.say("editor.oob.range", { min: spec.min, max: spec.max }),
          };
        }
        return { ok: true, same: read.value === value };
      },
      function (text) {
        const read = readNumber(text, spec, true);
        write(read.empty ? null : read.value);
      },
    );
  }

  labelled(key, control, extra) {
    return el("label", { class: "oob-field" + (extra ? " " + extra : "") }, [
      el("span", { class: "oob-label", text: this.t(key) }),
      control,
    ]);
  }

  // ---- sides ----------------------------------------------------------------------------

  drawSides() {
    const self = this;
    const system = this.catalog.system;
    this.sidesEl.replaceChildren(
      ...(this.scenario.sides || []).map(function (side) {
        const id = side.id;
        const fields = [
          self.labelled(
            "editor.oob.side_name",
            self.textField(
              { "data-field": "name", autocomplete: "off" },
              side.name,
              function (name) {
                self.changeSide(id, function (s) {
                  s.name = name;
                });
              },
              true,
            ),
            "oob-wide",
          ),
          self.colourField("editor.oob.side_color", "color", side, "#808080"),
          self.colourField("editor.oob.side_text", "text", side, "#ffffff"),
        ];
        if (system === "hex-hexside") fields.push(self.armyLevels(side));
        if (system === "area-locale") fields.push(self.armyNumber(side));
        return el(
          "fieldset",
          { class: "oob-side", "data-side": id, "data-key-scope": "side:" + id },
          [el("legend", { text: side.name || "—" })].concat(fields),
        );
      }),
    );
  }

  colourField(key, prop, side, fallback) {
    const self = this;
    const value = /^#[0-9a-f]{6}$/i.test(side[prop] || "") ? side[prop].toLowerCase() : fallback;
    const input = el("input", { type: "color", value: value, "data-field": prop });
    input.addEventListener("change", function () {
      if (input.value.toLowerCase() === (side[prop] || "").toLowerCase()) return;
      self.changeSide(side.id, function (s) {
        s[prop] = input.value.toLowerCase();
      });
    });
    return this.labelled(key, input, "oob-colour");
  }

  // hex-hexside: army morale {points, demoralized, broken}, all three or none.
  armyLevels(side) {
    const self = this;
    const army = side.army_morale && typeof side.army_morale === "object" ? side.army_morale : {};
    const box = el("div", { class: "oob-army", role: "group" });
    const inputs = LEVELS.map(function (level) {
      return el("input", {
        type: "number",
        inputmode: "numeric",
        step: "1",
        min: 0,
        max: LEVEL_MAX,
        value: typeof army[level] === "number" ? String(army[level]) : "",
        "data-field": "army_" + level,
      });
    });
    const check = function (commit) {
      const reads = inputs.map(function (input) {
        return readNumber(input.value, { min: 0, max: LEVEL_MAX }, true);
      });
      const empty = reads.every(function (r) {
        return r.empty;
      });
      let bad = false;
      reads.forEach(function (r, i) {
        const wrong = !empty && !r.ok;
        bad = bad || wrong;
        markInput(
          inputs[i],
          wrong ? self.say("editor.oob.range", { min: 0, max: LEVEL_MAX }) : null,
        );
      });
      if (!bad && !empty && !(reads[0].value > reads[1].value && reads[1].value > reads[2].value)) {
        bad = true;
        markInput(inputs[2], self.t("editor.oob.army_order"));
        inputs[0].setAttribute("aria-invalid", "true");
        inputs[1].setAttribute("aria-invalid", "true");
      }
      if (!commit || bad) return;
      const next = empty
        ? null
        : { points: reads[0].value, demoralized: reads[1].value, broken: reads[2].value };
      if (JSON.stringify(next) === JSON.stringify(side.army_morale || null)) return;
      self.changeSide(side.id, function (s) {
        if (next) s.army_morale = next;
        else delete s.army_morale;
      });
    };
    inputs.forEach(function (input, i) {
      input.addEventListener("input", function () {
        check(false);
      });
      input.addEventListener("change", function () {
        check(true);
      });
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") check(true);
      });
      box.appendChild(self.labelled("editor.oob.army_" + LEVELS[i], input));
    });
    return el("div", { class: "oob-army-box" }, [
      el("span", { class: "oob-label", text: this.t("editor.oob.army_morale") }),
      box,
    ]);
  }

  // area-locale: army morale, a whole number (empty: the side's steps).
  armyNumber(side) {
    const self = this;
    const steps = (this.scenario.units || []).reduce(function (sum, u) {
      return sum + (u.side === side.id && typeof u.steps === "number" ? u.steps : 0);
    }, 0);
    const spec = { min: 0, max: LEVEL_MAX, default: steps };
    const value = typeof side.army_morale === "number" ? side.army_morale : null;
    const input = this.numberField(
      { "data-field": "army_morale" },
      value,
      spec,
      function (n) {
        self.changeSide(side.id, function (s) {
          if (n === null) delete s.army_morale;
          else s.army_morale = n;
        });
      },
      true,
    );
    return this.labelled("editor.oob.army_morale", input);
  }

  // ---- formations (hex-facing) ----------------------------------------------------------

  drawFormations() {
    const self = this;
    if (!this.units.formations) {
      this.formationsEl.replaceChildren();
      this.formationsEl.hidden = true;
      return;
    }
    this.formationsEl.hidden = false;
    const all = this.scenario.formations || [];
    const groups = (this.scenario.sides || []).map(function (side) {
      const rows = all
        .filter(function (f) {
          return f.side === side.id;
        })
        .map(function (f) {
          return self.formationRow(f);
        });
      const add = el("button", {
        type: "button",
        class: "oob-add-formation",
        "data-side": side.id,
        text: self.t("editor.oob.add_formation"),
        onclick: function () {
          self.change(function (s) {
            s.formations = s.formations || [];
            const taken = new Set(
              s.formations.map(function (f) {
                return f.id;
              }),
            );
            const mine = s.formations.filter(function (f) {
              return f.side === side.id;
            }).length;
            s.formations.push({
              id: freshId(taken, "f"),
              side: side.id,
              name: self.say("editor.oob.new_formation", { n: mine + 1 }),
              orders: true,
            });
          }, "editor.oob.add_formation");
        },
      });
      return el("div", { class: "oob-formation-side", "data-side": side.id }, [
        el("h4", { text: self.say("editor.oob.formations_of", { side: side.name }) }),
        el("div", { class: "oob-formation-list" }, rows),
        add,
      ]);
    });
    this.formationsEl.replaceChildren(this.heading("h3", "editor.oob.formations"), ...groups);
  }

  formationRow(f) {
    const self = this;
    const id = f.id;
    const orders = el("input", {
      type: "checkbox",
      "data-field": "orders",
      checked: f.orders !== false,
    });
    orders.addEventListener("change", function () {
      self.change(function (s) {
        const g = byId(s.formations, id);
        if (g) g.orders = orders.checked;
      }, "editor.oob.orders");
    });
    return el(
      "div",
      { class: "oob-formation", "data-formation": id, "data-key-scope": "formation:" + id },
      [
        this.labelled(
          "editor.oob.formation_name",
          this.textField(
            { "data-field": "name", autocomplete: "off" },
            f.name,
            function (name) {
              self.change(function (s) {
                const g = byId(s.formations, id);
                if (g) g.name = name;
              }, "editor.oob.formation_name");
            },
            true,
          ),
          "oob-wide",
        ),
        el("label", { class: "oob-check" }, [
          orders,
          el("span", { text: this.t("editor.oob.orders") }),
        ]),
        el("button", {
          type: "button",
          class: "oob-remove-formation",
          text: this.t("editor.oob.remove"),
          "aria-label": this.say("editor.oob.remove_named", { name: f.name }),
          onclick: function () {
            self.change(function (s) {
              s.formations = (s.formations || []).filter(function (g) {
                return g.id !== id;
              });
              (s.units || []).forEach(function (u) {
                if (u.formation === id) delete u.formation;
              });
            }, "editor.oob.remove");
          },
        }),
      ],
    );
  }

  // ---- units ----------------------------------------------------------------------------

  drawUnitFrame() {
    const self = this;
    this.sideLists = new Map();
    const blocks = (this.scenario.sides || []).map(function (side) {
      const list = el("div", { class: "oob-list", role: "list", "data-side": side.id });
      self.sideLists.set(side.id, list);
      const buttons = [
        el("button", {
          type: "button",
          class: "oob-add",
          "data-side": side.id,
          text: self.t("editor.oob.add_unit"),
          onclick: function () {
            self.addUnits(side.id, [null]);
          },
        }),
      ];
      if (self.pieceNames.length) {
        buttons.push(
          el("button", {
            type: "button",
            class: "oob-add-pieces",
            "data-side": side.id,
            text: self.say("editor.oob.add_pieces", { count: self.pieceNames.length }),
            onclick: function () {
              self.addUnits(side.id, self.pieceNames);
            },
          }),
        );
      }
      return el("section", { class: "oob-side-units", "data-side": side.id }, [
        el("h4", { text: self.say("editor.oob.units_of", { side: side.name }) }),
        el("p", { class: "oob-none hint", text: self.t("editor.oob.no_units") }),
        list,
        el("div", { class: "oob-buttons" }, buttons),
      ]);
    });
    this.unitsEl.replaceChildren(...blocks);
  }

  drawUnits() {
    const self = this;
    const seen = new Set();
    const order = new Map(); // side -> [nodes]
    (this.scenario.units || []).forEach(function (unit) {
      if (!unit || typeof unit.id !== "string" || seen.has(unit.id)) return;
      seen.add(unit.id);
      const sig = JSON.stringify(unit);
      let row = self.rows.get(unit.id);
      if (!row || row.sig !== sig) {
        row = { sig: sig, node: self.unitRow(unit) };
        self.rows.set(unit.id, row);
      }
      const side = self.sideLists.has(unit.side) ? unit.side : null;
      if (!order.has(side)) order.set(side, []);
      order.get(side).push(row.node);
    });
    Array.from(this.rows.keys()).forEach(function (id) {
      if (!seen.has(id)) {
        const node = self.rows.get(id).node;
        if (node.parentNode) node.parentNode.removeChild(node);
        self.rows.delete(id);
      }
    });
    this.sideLists.forEach(function (list, side) {
      const nodes = order.get(side) || [];
      nodes.forEach(function (node, i) {
        if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
      });
      while (list.children.length > nodes.length) list.lastChild.remove();
      list.parentNode.querySelector(".oob-none").hidden = nodes.length > 0;
    });
  }

  ratingSpecs(type) {
    return (this.units.ratings || {})[type] || [];
  }

  stepSpec(type) {
    return (this.units.steps || {})[type] || null;
  }

  unitRow(unit) {
    const self = this;
    const id = unit.id;
    const name = unit.name || "";
    const edit = function (fn, what) {
      self.changeUnit(id, fn, what);
    };
    const nameInput = this.textField(
      { "data-field": "name", list: this.listId, autocomplete: "off" },
      name,
      function (text) {
        edit(function (u) {
          u.name = text;
        }, "editor.oob.unit_name");
      },
      true,
    );
    const type = el(
      "select",
      { "data-field": "type" },
      (this.units.types || []).map(function (t) {
        return el("option", {
          value: t,
          selected: t === unit.type,
          text: self.t("unit_type." + t),
        });
      }),
    );
    if ((this.units.types || []).indexOf(unit.type) < 0) type.selectedIndex = -1;
    type.addEventListener("change", function () {
      const next = type.value;
      edit(function (u) {
        self.retype(u, next);
      }, "editor.oob.type");
    });
    const cells = [
      this.labelled("editor.oob.unit_name", nameInput, "oob-wide"),
      this.labelled("editor.oob.type", type),
    ];
    const ratings = unit.ratings && typeof unit.ratings === "object" ? unit.ratings : {};
    this.ratingSpecs(unit.type).forEach(function (spec) {
      const input = self.numberField(
        { "data-field": "rating:" + spec.name, "data-rating": spec.name },
        ratings[spec.name],
        spec,
        function (n) {
          edit(function (u) {
            u.ratings = u.ratings && typeof u.ratings === "object" ? u.ratings : {};
            if (n === null) delete u.ratings[spec.name];
            else u.ratings[spec.name] = n;
          }, "editor.oob.ratings");
        },
        !spec.required,
      );
      cells.push(self.labelled("rating." + spec.name, input, "oob-num"));
    });
    const steps = this.stepSpec(unit.type);
    if (steps) {
      const input = this.numberField(
        { "data-field": "steps" },
        unit.steps,
        steps,
        function (n) {
          edit(function (u) {
            if (n === null) delete u.steps;
            else u.steps = n;
          }, "editor.oob.steps");
        },
        false,
      );
      cells.push(this.labelled("editor.oob.steps", input, "oob-num"));
    }
    cells.push(
      el("div", { class: "oob-field oob-where" }, [
        el("span", { class: "oob-label", text: this.t("editor.oob.where") }),
        el("span", { class: "oob-at", text: this.where(unit) }),
        el("button", {
          type: "button",
          class: "oob-place",
          "data-field": "place",
          text: this.t("editor.oob.place"),
          "aria-label": this.say("editor.oob.place_named", { name: name }),
          onclick: function () {
            self.ctx.placeUnit(id);
          },
        }),
      ]),
    );
    if (this.units.facing) cells.push(this.facingSelect(unit, edit));
    if (this.units.formations) cells.push(this.formationSelect(unit, edit));
    cells.push(
      el("div", { class: "oob-actions" }, [
        el("button", {
          type: "button",
          class: "oob-duplicate",
          "data-field": "duplicate",
          text: this.t("editor.oob.duplicate"),
          "aria-label": this.say("editor.oob.duplicate_named", { name: name }),
          onclick: function () {
            self.duplicate(id);
          },
        }),
        el("button", {
          type: "button",
          class: "oob-delete",
          "data-field": "delete",
          text: this.t("ui.delete"),
          "aria-label": this.say("editor.oob.delete_named", { name: name }),
          onclick: function () {
            self.change(function (s) {
              s.units = (s.units || []).filter(function (u) {
                return u.id !== id;
              });
            }, "ui.delete");
          },
        }),
      ]),
    );
    return el(
      "div",
      { class: "oob-unit", role: "listitem", "data-unit": id, "data-key-scope": "unit:" + id },
      cells,
    );
  }

  facingWord(n) {
    const map = (this.scenario && this.scenario.map) || {};
    const zero = DIRECTION_0[map.orientation] === undefined ? -30 : DIRECTION_0[map.orientation];
    const angle = zero + 30 * n;
    const point = ((Math.round(angle / 22.5) % 16) + 16) % 16;
    const arrow = ((Math.round(angle / 45) % 8) + 8) % 8;
    return ARROWS[arrow] + " " + this.t("compass." + COMPASS[point]);
  }

  facingSelect(unit, edit) {
    const spec = this.units.facing;
    const options = [el("option", { value: "", text: "—" })];
    for (let n = spec.min; n <= spec.max; n++) {
      options.push(
        el("option", { value: String(n), selected: unit.facing === n, text: this.facingWord(n) }),
      );
    }
    const select = el("select", { "data-field": "facing" }, options);
    if (typeof unit.facing !== "number") select.value = "";
    select.addEventListener("change", function () {
      const value = select.value;
      edit(function (u) {
        if (value === "") delete u.facing;
        else u.facing = Number(value);
      }, "editor.oob.facing");
    });
    return this.labelled("editor.oob.facing", select);
  }

  formationSelect(unit, edit) {
    const mine = (this.scenario.formations || []).filter(function (f) {
      return f.side === unit.side;
    });
    const options = [el("option", { value: "", text: this.t("editor.oob.no_formation") })].concat(
      mine.map(function (f) {
        return el("option", { value: f.id, selected: unit.formation === f.id, text: f.name });
      }),
    );
    const select = el("select", { "data-field": "formation" }, options);
    if (!byId(mine, unit.formation)) select.value = "";
    select.addEventListener("change", function () {
      const value = select.value;
      edit(function (u) {
        if (value === "") delete u.formation;
        else u.formation = value;
      }, "editor.oob.formation");
    });
    return this.labelled("editor.oob.formation", select);
  }

  // Where a unit stands, in words.
  where(unit) {
    if (typeof unit.hex === "string" && unit.hex)
      return this.say("editor.oob.at_hex", { hex: unit.hex });
    if (typeof unit.locale === "string" && unit.locale) {
      const locales = (this.scenario.map && this.scenario.map.locales) || [];
      const nameOf = function (id) {
        const l = byId(locales, id);
        return l && l.name ? l.name : id;
      };
      if (unit.approach) {
        return this.say("editor.oob.at_approach", {
          locale: nameOf(unit.locale),
          toward: nameOf(unit.approach),
        });
      }
      return this.say("editor.oob.in_reserve", { locale: nameOf(unit.locale) });
    }
    return this.t("editor.oob.not_placed");
  }

  // A unit of `type` as new: the ratings its type reads at their defaults, its steps.
  fresh(side, type, name) {
    const unit = { id: "", side: side, type: type, name: name };
    this.retype(unit, type);
    if (this.units.facing) unit.facing = this.units.facing.min;
    return unit;
  }

  // Change a unit's type: keep the ratings the new type reads (in range), add the others at
  // their defaults, drop the rest; steps within the new type's range.
  retype(unit, type) {
    unit.type = type;
    const old = unit.ratings && typeof unit.ratings === "object" ? unit.ratings : {};
    const ratings = {};
    this.ratingSpecs(type).forEach(function (spec) {
      const v = old[spec.name];
      if (readNumber(String(v === undefined ? "" : v), spec, true).ok) ratings[spec.name] = v;
      else ratings[spec.name] = spec.default ?? spec.min;
    });
    if (Object.keys(ratings).length || this.ratingSpecs(type).length) unit.ratings = ratings;
    else delete unit.ratings;
    const steps = this.stepSpec(type);
    if (steps) {
      if (!readNumber(String(unit.steps ?? ""), steps, true).ok) {
        unit.steps = steps.default ?? steps.min;
      }
    } else delete unit.steps;
  }

  // Add units to `side` in one change: one per name (null: a worded new name).
  addUnits(side, names) {
    const self = this;
    const type = (this.units.types || [])[0];
    this.change(function (s) {
      s.units = s.units || [];
      const taken = new Set(
        s.units.map(function (u) {
          return u.id;
        }),
      );
      names.forEach(function (name) {
        const n = s.units.length + 1;
        const unit = self.fresh(side, type, name || self.say("editor.oob.new_unit", { n: n }));
        unit.id = freshId(taken, "u");
        s.units.push(unit);
      });
    }, "editor.oob.add_unit");
  }

  duplicate(id) {
    const self = this;
    this.change(function (s) {
      const i = (s.units || []).findIndex(function (u) {
        return u.id === id;
      });
      if (i < 0) return;
      const taken = new Set(
        s.units.map(function (u) {
          return u.id;
        }),
      );
      const copy = JSON.parse(JSON.stringify(s.units[i]));
      copy.id = freshId(taken, "u");
      copy.name = self.say("editor.oob.copy_name", { name: s.units[i].name });
      delete copy.hex;
      delete copy.locale;
      delete copy.approach;
      s.units.splice(i + 1, 0, copy);
    }, "editor.oob.duplicate");
  }

  // ---- paste from a spreadsheet ---------------------------------------------------------

  // The columns a pasted row may have, in the documented order: name, side, type, steps, then
  // every rating of the system.
  columns() {
    const cols = [
      { id: "name", key: "editor.oob.unit_name" },
      { id: "side", key: "editor.oob.side" },
      { id: "type", key: "editor.oob.type" },
    ];
    const types = this.units.types || [];
    if (
      types.some((t) => {
        return this.stepSpec(t);
      })
    )
      cols.push({ id: "steps", key: "editor.oob.steps" });
    const seen = new Set();
    types.forEach((t) => {
      this.ratingSpecs(t).forEach(function (spec) {
        if (seen.has(spec.name)) return;
        seen.add(spec.name);
        cols.push({ id: "rating:" + spec.name, rating: spec.name, key: "rating." + spec.name });
      });
    });
    return cols;
  }

  drawPaste() {
    const self = this;
    const cols = this.columns();
    const open = this.pasteEl.open;
    const old = this.pasteBox ? this.pasteBox.value : "";
    this.pasteBox = el("textarea", {
      class: "oob-paste-box",
      rows: 5,
      spellcheck: "false",
      "aria-label": this.t("editor.oob.paste_box"),
    });
    this.pasteBox.value = old;
    this.pasteReport = el("div", { class: "oob-paste-report", role: "status" });
    this.pasteEl.replaceChildren(
      el("summary", { text: this.t("editor.oob.paste_title") }),
      el("p", { class: "hint", text: this.t("editor.oob.paste_help") }),
      el(
        "ol",
        { class: "oob-paste-columns" },
        cols.map(function (c) {
          return el("li", { text: self.t(c.key) });
        }),
      ),
      this.pasteBox,
      el("button", {
        type: "button",
        class: "oob-paste-add",
        text: this.t("editor.oob.paste_add"),
        onclick: function () {
          self.addPasted();
        },
      }),
      this.pasteReport,
    );
    this.pasteEl.open = open;
  }

  // Read tab-separated rows: {units: [unit without id], bad: [{row, reason}]}.
  readRows(text) {
    const self = this;
    const cols = this.columns();
    const wordOf = new Map();
    cols.forEach(function (c) {
      wordOf.set(norm(self.t(c.key)), c);
      wordOf.set(norm(c.rating || c.id), c);
    });
    const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
    const rows = [];
    lines.forEach(function (line, i) {
      if (line.trim()) rows.push({ row: i + 1, cells: line.split("\t") });
    });
    const bad = [];
    let layout = cols;
    if (rows.length) {
      const first = rows[0].cells.filter(function (c) {
        return c.trim();
      });
      const known = first.filter(function (c) {
        return wordOf.has(norm(c));
      });
      if (known.length >= 2 || (first.length && known.length === first.length)) {
        const head = rows.shift();
        layout = head.cells.map(function (c) {
          const col = wordOf.get(norm(c));
          if (!col && c.trim()) {
            bad.push({ row: head.row, reason: self.say("editor.oob.paste_column", { value: c }) });
          }
          return col || null;
        });
      }
    }
    const sides = this.scenario.sides || [];
    const types = this.units.types || [];
    const units = [];
    rows.forEach(function (r) {
      const got = {};
      r.cells.forEach(function (cell, i) {
        const col = layout[i];
        if (col && cell.trim()) got[col.id] = cell.trim();
      });
      const reason = self.readUnit(got, sides, types, units);
      if (reason) bad.push({ row: r.row, reason: reason });
    });
    return { units: units, bad: bad };
  }

  // One pasted row read into `units`; a worded reason when it cannot be.
  readUnit(got, sides, types, units) {
    const self = this;
    if (!got.name) return this.t("editor.oob.paste_no_name");
    let side = sides[0];
    if (got.side) {
      side = sides.find(function (s) {
        return norm(s.id) === norm(got.side) || norm(s.name) === norm(got.side);
      });
      if (!side) return this.say("editor.oob.paste_side", { value: got.side });
    }
    let type = types[0];
    if (got.type) {
      type = types.find(function (t) {
        return norm(t) === norm(got.type) || norm(self.t("unit_type." + t)) === norm(got.type);
      });
      if (!type) return this.say("editor.oob.paste_type", { value: got.type });
    }
    const unit = this.fresh(side.id, type, got.name);
    const specs = this.ratingSpecs(type);
    const ratingNames = new Set(
      specs.map(function (s) {
        return s.name;
      }),
    );
    const given = Object.keys(got).filter(function (k) {
      return k.slice(0, 7) === "rating:";
    });
    for (const key of given) {
      const name = key.slice(7);
      const word = this.t("rating." + name);
      if (!ratingNames.has(name)) {
        return this.say("editor.oob.paste_unused", {
          column: word,
          type: this.t("unit_type." + type),
        });
      }
      const spec = specs.find(function (s) {
        return s.name === name;
      });
      const read = readNumber(got[key], spec, true);
      if (!read.ok) return this.rangeReason(word, got[key], spec);
      unit.ratings = unit.ratings || {};
      unit.ratings[name] = read.value;
    }
    if (got.steps !== undefined) {
      const spec = this.stepSpec(type);
      const word = this.t("editor.oob.steps");
      if (!spec) {
        return this.say("editor.oob.paste_unused", {
          column: word,
          type: this.t("unit_type." + type),
        });
      }
      const read = readNumber(got.steps, spec, true);
      if (!read.ok) return this.rangeReason(word, got.steps, spec);
      unit.steps = read.value;
    }
    units.push(unit);
    return null;
  }

  rangeReason(column, value, spec) {
    if (!isFinite(Number(String(value).replace(",", ".")))) {
      return this.say("editor.oob.paste_number", { column: column, value: value });
    }
    return this.say("editor.oob.paste_range", {
      column: column,
      value: value,
      min: spec.min,
      max: spec.max,
    });
  }

  // Add the good pasted rows in one change, and list the bad ones.
  addPasted() {
    const self = this;
    const read = this.readRows(this.pasteBox.value);
    if (read.units.length) {
      this.change(function (s) {
        s.units = s.units || [];
        const taken = new Set(
          s.units.map(function (u) {
            return u.id;
          }),
        );
        read.units.forEach(function (unit) {
          unit.id = freshId(taken, "u");
          s.units.push(unit);
        });
      }, "editor.oob.paste_add");
    }
    const lines = read.bad.map(function (b) {
      return el("li", {
        class: "oob-paste-bad",
        "data-row": b.row,
        text: self.say("editor.oob.paste_row", { row: b.row, reason: b.reason }),
      });
    });
    this.pasteReport.replaceChildren(
      el("p", {
        class: "oob-paste-added",
        text: read.units.length
          ? this.t("editor.oob.paste_added", { count: read.units.length })
          : this.t("editor.oob.paste_none"),
      }),
      lines.length ? el("ul", {}, lines) : null,
    );
  }
}

function cssId(id) {
  return String(id).replace(/["\\]/g, "\\$&");
}
