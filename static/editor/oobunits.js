// The units of the order of battle (methods of OrderOfBattle, static/editor/oob.js): a list
// per side, a row per unit with the ratings its type needs, where it stands, its facing and
// formation; new units (one or one per piece name), copies, and a change of type that keeps
// the ratings the new type reads.

import { facingWord } from "../facing.js";
import { byId, el, freshId, readNumber } from "./forms.js";
import { FOLD_OVER } from "./oobfold.js";

// Put `nodes` in `list` in this order, touching only the rows that come, go or change places:
// the rows let go first, then each wanted row not already next is put there. A row changed
// among a thousand is one removed and one inserted, and the others keep their boxes (moving
// each row after it one place down would have the page lay them all out again).
function placeRows(list, nodes) {
  const wanted = new Set(nodes);
  Array.from(list.children).forEach(function (child) {
    if (!wanted.has(child)) child.remove();
  });
  let next = list.firstElementChild;
  nodes.forEach(function (node) {
    if (node === next) next = next.nextElementSibling;
    else list.insertBefore(node, next);
  });
}

export const unitMethods = {
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
      // Above the side's list, not below it: with a thousand units the end of the list is
      // far down the page.
      const selectSide = el("button", {
        type: "button",
        class: "oob-select-side",
        "data-side": side.id,
        text: self.say("editor.oob.select_side", { side: self.name(side.name) }),
        onclick: function () {
          self.selectSide(side.id);
        },
      });
      if (self.pieceNames.length && !self.pieceGroups.length) {
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
        el("h4", { text: self.say("editor.oob.units_of", { side: self.name(side.name) }) }),
        el("div", { class: "oob-buttons" }, [selectSide]),
        el("p", { class: "oob-none hint", text: self.t("editor.oob.no_units") }),
        el("p", { class: "oob-fold-hint hint", hidden: true }),
        list,
        el("div", { class: "oob-buttons" }, buttons),
      ]);
    });
    this.unitsEl.replaceChildren(...blocks);
  },

  // The rows of the units: a row is made again only when its unit changed. The rows the last
  // draw let go are kept until the next one, so that an undo of a change of many units (a
  // move, a delete) finds them ready instead of making a thousand rows again. A side of more
  // than FOLD_OVER units shows its groups' headers and the rows of the open groups only
  // (oobfold.js).
  drawUnits() {
    const self = this;
    if (!this.open) this.open = new Set();
    const seen = new Set();
    const ids = [];
    const bySide = new Map(); // side -> [units]
    (this.scenario.units || []).forEach(function (unit) {
      if (!unit || typeof unit.id !== "string" || seen.has(unit.id)) return;
      seen.add(unit.id);
      ids.push(unit.id);
      if (!self.sideLists.has(unit.side)) return;
      if (!bySide.has(unit.side)) bySide.set(unit.side, []);
      bySide.get(unit.side).push(unit);
    });
    this.groupOf = new Map(); // unit id -> the key of its group, on a folded side
    const folded = new Map(); // side -> groups
    bySide.forEach(function (units, side) {
      if (units.length <= FOLD_OVER) return;
      const groups = self.groupsOf(side, units);
      groups.forEach(function (g) {
        g.units.forEach(function (u) {
          self.groupOf.set(u.id, g.key);
        });
      });
      folded.set(side, groups);
    });
    this.openNewUnits(ids);
    if (this.follow) this.openGroupsOf([this.follow]);
    const spare = this.spareRows || new Map(); // sig -> node, let go by the last draw
    const freed = new Map();
    const kept = new Set();
    const rowOf = function (unit) {
      const sig = JSON.stringify(unit);
      let row = self.rows.get(unit.id);
      if (!row || row.sig !== sig) {
        if (row) freed.set(row.sig, row.node);
        row = { sig: sig, node: spare.get(sig) || self.unitRow(unit) };
        spare.delete(sig);
        self.rows.set(unit.id, row);
      }
      kept.add(unit.id);
      return row.node;
    };
    const heads = new Set();
    const order = new Map(); // side -> [nodes]
    this.sideLists.forEach(function (list, side) {
      const nodes = [];
      if (folded.has(side)) {
        folded.get(side).forEach(function (group) {
          nodes.push(self.groupHead(group).node);
          heads.add(group.key);
          if (self.open.has(group.key)) group.units.forEach((u) => nodes.push(rowOf(u)));
        });
      } else (bySide.get(side) || []).forEach((u) => nodes.push(rowOf(u)));
      order.set(side, nodes);
    });
    Array.from(this.rows.keys()).forEach(function (id) {
      if (!kept.has(id)) {
        const row = self.rows.get(id);
        if (row.node.parentNode) row.node.parentNode.removeChild(row.node);
        freed.set(row.sig, row.node);
        self.rows.delete(id);
      }
    });
    if (this.heads)
      Array.from(this.heads.keys()).forEach((k) => heads.has(k) || this.heads.delete(k));
    this.spareRows = freed;
    this.sideLists.forEach(function (list, side) {
      placeRows(list, order.get(side));
      const count = (bySide.get(side) || []).length;
      list.parentNode.querySelector(".oob-none").hidden = count > 0;
      self.foldHint(list, count);
    });
    if (this.follow) {
      const row = this.groupOf.has(this.follow) && this.rows.get(this.follow);
      this.follow = null;
      if (row && row.node.scrollIntoView) row.node.scrollIntoView({ block: "nearest" });
    }
  },

  ratingSpecs(type) {
    return (this.units.ratings || {})[type] || [];
  },

  stepSpec(type) {
    return (this.units.steps || {})[type] || null;
  },

  unitRow(unit) {
    const self = this;
    const id = unit.id;
    const name = this.name(unit.name);
    const edit = function (fn, what) {
      self.changeUnit(id, fn, what);
    };
    const nameInput = this.textField(
      { "data-field": "name", list: this.listId, autocomplete: "off" },
      name,
      function (text) {
        edit(function (u) {
          u.name = self.renamed(u.name, text);
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
      this.selectBox(id, name),
      this.labelled("editor.oob.unit_name", nameInput, "oob-wide"),
      this.labelled("editor.oob.type", type),
    ];
    cells.push.apply(cells, this.ratingCells(unit, edit));
    cells.push(this.whereCell(unit, name));
    if (this.units.facing) cells.push(this.facingSelect(unit, edit));
    if (this.units.formations) cells.push(this.formationSelect(unit, edit));
    cells.push(this.unitActions(id, name));
    return el(
      "div",
      { class: "oob-unit", role: "listitem", "data-unit": id, "data-key-scope": "unit:" + id },
      cells,
    );
  },

  // The unit's ratings its type has, and its steps when its type counts them: number fields.
  ratingCells(unit, edit) {
    const self = this;
    const ratings = unit.ratings && typeof unit.ratings === "object" ? unit.ratings : {};
    const cells = [];
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
    return cells;
  },

  // Where the unit stands, and a button to place it on the map.
  whereCell(unit, name) {
    const self = this;
    const id = unit.id;
    return el("div", { class: "oob-field oob-where" }, [
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
    ]);
  },

  // Duplicate the unit, or delete it.
  unitActions(id, name) {
    const self = this;
    return el("div", { class: "oob-actions" }, [
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
    ]);
  },

  facingWord(n) {
    const map = (this.scenario && this.scenario.map) || {};
    return facingWord((key, params) => this.t(key, params), map.orientation, n);
  },

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
  },

  formationSelect(unit, edit) {
    const mine = (this.scenario.formations || []).filter(function (f) {
      return f.side === unit.side;
    });
    const options = [el("option", { value: "", text: this.t("editor.oob.no_formation") })].concat(
      mine.map((f) => {
        return el("option", {
          value: f.id,
          selected: unit.formation === f.id,
          text: this.name(f.name),
        });
      }),
    );
    const select = el("select", { "data-field": "formation" }, options);
    if (!byId(mine, unit.formation)) select.value = "";
    select.addEventListener("change", () => {
      const value = select.value;
      this.follow = unit.id; // on a folded side, its row goes to the group of its formation
      edit(function (u) {
        if (value === "") delete u.formation;
        else u.formation = value;
      }, "editor.oob.formation");
    });
    return this.labelled("editor.oob.formation", select);
  },

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
  },

  // A unit of `type` as new: the ratings its type reads at their defaults, its steps.
  fresh(side, type, name) {
    const unit = { id: "", side: side, type: type, name: name };
    this.retype(unit, type);
    if (this.units.facing) unit.facing = this.units.facing.min;
    return unit;
  },

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
  },

  // Add units in one change: one per name (null: a worded new name) to `side`; or, given
  // one list [{side, names}], to each side its names.
  addUnits(side, names) {
    const self = this;
    const type = (this.units.types || [])[0];
    const lists = Array.isArray(side) ? side : [{ side: side, names: names }];
    this.change(function (s) {
      s.units = s.units || [];
      const taken = new Set(
        s.units.map(function (u) {
          return u.id;
        }),
      );
      lists.forEach(function (list) {
        list.names.forEach(function (name) {
          const n = s.units.length + 1;
          const unit = self.fresh(
            list.side,
            type,
            name || self.say("editor.oob.new_unit", { n: n }),
          );
          unit.id = freshId(taken, "u");
          s.units.push(unit);
        });
      });
    }, "editor.oob.add_unit");
  },

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
  },
};
