// The sides and formations of the order of battle (methods of OrderOfBattle, static/editor/
// oob.js): each side's name, counter colours and army morale (hex-hexside: three levels; area-
// locale: one number), and the formations of hex-facing with their orders.

import { byId, el, freshId, markInput, readNumber } from "./forms.js";

// The army morale levels of a hex-hexside side, highest first (docs/scenario-format.md).
const LEVELS = ["points", "demoralized", "broken"];
const LEVEL_MAX = 9999;

export const sideMethods = {
  drawSides() {
    const self = this;
    const army = (this.catalog.sides && this.catalog.sides.army_morale) || null;
    this.sidesEl.replaceChildren(
      ...(this.scenario.sides || []).map(function (side) {
        const id = side.id;
        const fields = [
          self.labelled(
            "editor.oob.side_name",
            self.textField(
              { "data-field": "name", autocomplete: "off" },
              self.name(side.name),
              function (name) {
                self.changeSide(id, function (s) {
                  s.name = self.renamed(s.name, name);
                });
              },
              true,
            ),
            "oob-wide",
          ),
          self.colourField("editor.oob.side_color", "color", side, "#808080"),
          self.colourField("editor.oob.side_text", "text", side, "#ffffff"),
        ];
        if (army === "levels") fields.push(self.armyLevels(side));
        if (army === "number") fields.push(self.armyNumber(side));
        return el(
          "fieldset",
          { class: "oob-side", "data-side": id, "data-key-scope": "side:" + id },
          [el("legend", { text: self.name(side.name) || "—" })].concat(fields),
        );
      }),
    );
  },

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
  },

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
  },

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
  },

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
        el("h4", { text: self.say("editor.oob.formations_of", { side: self.name(side.name) }) }),
        el("div", { class: "oob-formation-list" }, rows),
        add,
      ]);
    });
    this.formationsEl.replaceChildren(this.heading("h3", "editor.oob.formations"), ...groups);
  },

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
            this.name(f.name),
            function (name) {
              self.change(function (s) {
                const g = byId(s.formations, id);
                if (g) g.name = self.renamed(g.name, name);
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
          "aria-label": this.say("editor.oob.remove_named", { name: this.name(f.name) }),
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
  },
};
