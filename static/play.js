// Play: the turn's prompt, the actions the core lists as legal, dice at chance points (a
// digital roll or the face of a real die typed in, with each result's exact odds), the log,
// undo and redo, saves. Every decision is the core's: this module shows and reports.
import { el } from "./panels.js";
import { downloadSave, newSlot } from "./games.js";

// Screen angle (degrees, clockwise from east) of hex direction 0 on each orientation.
const DIRECTION_0 = { flat: -30, pointy: -60 };
// The owner's combat results table for hex-hexside, kept for the next new game.
const OWN_CRT = "muster.crt.hex-hexside";
const FIGHTS = ["fire", "melee", "reaction_fire"];
// The aid's 12 steps of close combat (hex-hexside), by number.
const COMBAT_STEPS = [
  "designate_attack",
  "retreat_before_combat",
  "determine_odds",
  "select_lead_units",
  "determine_drm",
  "resolve_combat",
  "leader_loss_check",
  "apply_results",
  "advance_after_combat",
  "extended_attack",
  "winning_combat_marker",
  "cavalry_action",
];
// Parameters whose values are words of the app: the key of the word is prefix + value.
const WORDS = {
  step: "step.",
  purpose: "step.",
  how: "ui.how_",
  status: "status.",
  phase: "hh_phase.",
  level: "army_level.",
  why: "hh_why.",
  table: "crt_table.",
  side_role: "ui.",
};

export class Play {
  constructor(opts) {
    this.engine = opts.engine;
    this.map = opts.map;
    this.i18n = opts.i18n;
    this.onError = opts.onError;
    this.readJsonFile = opts.readJsonFile;
    this.root = opts.root;
    this.logRoot = opts.logRoot;
    this.getScenario = opts.getScenario;
    // The app's: keep a game in its slot; ask before a new game; the saved games' list.
    this.onKeep = opts.onKeep;
    this.confirmNew = opts.confirmNew;
    this.savedPanel = opts.savedPanel;
    this.openSaved = opts.openSaved;
    this.view = null;
    this.selected = null;
    // The slot the game on screen is kept in (a new game, a save from a file: a new slot).
    this.slot = null;
  }

  active() {
    return Boolean(this.view);
  }

  reset() {
    this.view = null;
    this.selected = null;
    this.slot = null;
    this.render();
  }

  t(key, params) {
    return this.i18n.t(key, this.words(params || {}));
  }

  // Unit and formation ids in parameters, put into the scenario's names.
  words(params) {
    const scenario = this.getScenario() || {};
    const out = {};
    Object.keys(params).forEach((key) => {
      let value = params[key];
      if (key === "unit" || key === "a" || key === "d") {
        const unit = (scenario.units || []).find((u) => u.id === value);
        if (unit) value = unit.name;
      } else if (key === "units" && Array.isArray(value)) {
        value = value.map((id) => this.words({ unit: id }).unit).join(", ");
      } else if (Array.isArray(value)) {
        value = value.join(", ");
      } else if (key === "points" && value && typeof value === "object") {
        value = Object.keys(value)
          .map((side) => this.words({ side: side }).side + " " + value[side])
          .join(", ");
      } else if (key === "formation" || key === "value") {
        const formation = (scenario.formations || []).find((f) => f.id === value);
        if (formation) value = formation.name;
      } else if (key === "side" || key === "winner") {
        const side = (scenario.sides || []).find((s) => s.id === value);
        if (side) value = side.name;
        else if (value === null) value = this.i18n.t("ui.nobody");
      } else if (WORDS[key] && typeof value === "string") {
        value = this.i18n.t(WORDS[key] + value);
      } else if (key === "to" && (value === "line" || value === "column")) {
        value = this.i18n.t("formation." + value);
      }
      out[key] = value;
    });
    return out;
  }

  call(method, params) {
    return this.engine.call(method, params || {}).then(
      (view) => this.show(view),
      (error) => this.onError(error),
    );
  }

  // New game, from its button: asked first if a game is in progress (it stays kept).
  newGame() {
    return this.confirmNew().then((yes) => (yes ? this.start() : null));
  }

  start() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const options = {};
    const own = this.ownCrt();
    if (this.takes("crt") && own) options.crt = own;
    return this.engine.call("new_game", { seed: seed, options: options }).then((view) => {
      this.slot = newSlot();
      return this.show(view);
    }, this.onError);
  }

  // The combat results table the owner imported, if any (null when none or unreadable).
  ownCrt() {
    try {
      const text = localStorage.getItem(OWN_CRT);
      return text ? JSON.parse(text) : null;
    } catch (error) {
      return null;
    }
  }

  // Import the owner's printed CRT from a JSON file: checked by the core, kept for new games.
  importCrt(file) {
    return this.readJsonFile(file, "crt")
      .then((crt) => {
        return this.engine.call("check_crt", { crt: crt }).then((info) => {
          try {
            localStorage.setItem(OWN_CRT, JSON.stringify(crt));
          } catch (error) {
            this.onError({
              key: "error.storage",
              params: { detail: String(error.message || error) },
            });
            return null;
          }
          this.crtNote = this.i18n.t("ui.crt_imported", { name: info.name });
          this.render();
          return info;
        });
      })
      .catch(this.onError);
  }

  forgetCrt() {
    try {
      localStorage.removeItem(OWN_CRT);
    } catch (error) {
      // Nothing stored, or storage closed: the stand-in is used either way.
    }
    this.crtNote = this.i18n.t("ui.crt_forgotten");
    this.render();
  }

  // Which combat results table is in use (hex-hexside): the stand-in is said plainly.
  crtLabel(crt) {
    const text = crt.stand_in
      ? this.i18n.t("ui.crt_stand_in")
      : this.i18n.t("ui.crt_own", { name: crt.name || "" });
    return el("p", {
      class: "crt-label" + (crt.stand_in ? " stand-in" : ""),
      "data-stand-in": String(Boolean(crt.stand_in)),
      text: text,
    });
  }

  // The CRT tools shown with a hex-hexside scenario: import the owner's table, or go back.
  crtTools() {
    const own = this.ownCrt();
    const input = el("input", { type: "file", accept: ".json,application/json", id: "crt-file" });
    input.hidden = true;
    input.addEventListener("change", () => {
      if (input.files && input.files[0]) this.importCrt(input.files[0]);
      input.value = "";
    });
    const nodes = [
      el("p", {
        class: "hint crt-next",
        text: own
          ? this.i18n.t("ui.crt_next_own", { name: own.name || "" })
          : this.i18n.t("ui.crt_next_stand_in"),
      }),
      this.button(this.i18n.t("ui.crt_import"), () => input.click(), { id: "crt-import" }),
      input,
    ];
    if (own) {
      nodes.push(
        this.button(this.i18n.t("ui.crt_forget"), () => this.forgetCrt(), { id: "crt-forget" }),
      );
    }
    if (this.crtNote) nodes.push(el("p", { class: "hint", text: this.crtNote }));
    return el("div", { class: "crt-tools" }, nodes);
  }

  // Whether a new game of this scenario takes the game option `name` (the core lists them).
  takes(name) {
    return (this.options || []).indexOf(name) >= 0;
  }

  // What the core says of the scenario's rules: whether they play, and the options they take.
  setRules(summary) {
    this.playable = summary.playable;
    this.options = summary.options || [];
  }

  act(action) {
    return this.call("act", { action: action });
  }

  show(view) {
    this.view = view;
    this.selected = null;
    this.map.highlight(null);
    this.map.setLines(null);
    this.drawUnits();
    const retreats = this.legal("retreat");
    if (retreats.length) {
      const marks = {};
      retreats.forEach((a) => (marks[a.to] = "reach"));
      this.map.highlight(marks);
      this.map.selectUnit(retreats[0].unit);
    } else {
      // Hexes a tap acts on: attack targets, defending hexes to add, advances, retreats.
      const marks = {};
      this.legal("attack").forEach((a) => (marks[a.target] = "reach stop"));
      this.legal("toggle_target").forEach((a) => (marks[a.hex] = "reach stop"));
      this.legal("retreat_before").forEach((a) => (marks[a.to] = "reach"));
      this.legal("advance").forEach((a) => (marks[a.to] = "reach"));
      if (view.combat) view.combat.targets.forEach((t) => (marks[t] = marks[t] || "path"));
      if (Object.keys(marks).length) this.map.highlight(marks);
    }
    this.render();
    this.autosave();
    return view;
  }

  // Keep the game in its slot of the browser's storage after every change, so a reload or a
  // closed tab at the table loses nothing. A storage error is said (by the app); play goes on.
  autosave() {
    const slot = this.slot;
    const summary = this.view ? this.view.summary : null;
    if (!slot) return Promise.resolve();
    return this.engine
      .call("save", {})
      .then((save) => this.onKeep(slot, save, summary), this.onError);
  }

  drawUnits() {
    const scenario = this.getScenario();
    if (!scenario || !this.view) return;
    const units = this.view.state.units;
    this.map.setUnits(
      scenario.units
        .filter((u) => units[u.id] && !units[u.id].out)
        .map((u) =>
          Object.assign({}, u, {
            hex: units[u.id].hex,
            facing: units[u.id].facing,
            status: units[u.id].status,
            marks: this.marks(units[u.id], (this.view.locked || []).indexOf(u.id) >= 0),
          }),
        ),
    );
  }

  // Markers of a unit's hex-hexside states: Locked, step losses, column, Engaged, Winning Combat.
  marks(u, locked) {
    const marks = [];
    if (locked) marks.push("L");
    if (u.lost) marks.push("-" + u.lost);
    if (u.formation === "column") marks.push("C");
    if (u.engaged) marks.push("E");
    if (u.wcm !== null && u.wcm !== undefined) marks.push("W");
    if (u.must) marks.push("!");
    return marks;
  }

  legal(type) {
    return (this.view ? this.view.legal : []).filter((a) => a.type === type);
  }

  // A tap on the map during play; true if play used it.
  onTap(label, info) {
    if (!this.view || this.view.chance) return false;
    const retreat = this.legal("retreat").find((a) => a.to === label);
    if (retreat) {
      this.act(retreat);
      return true;
    }
    const byHex = ["attack", "toggle_target", "retreat_before", "advance"];
    for (const type of byHex) {
      const found = this.legal(type).filter((a) => (a.target || a.hex || a.to) === label);
      if (found.length === 1) {
        this.act(found[0]);
        return true;
      }
    }
    const moves = this.legal("move");
    if (this.selected) {
      const move = moves.find((a) => a.unit === this.selected && a.to === label);
      if (move) {
        this.act(move);
        return true;
      }
    }
    const unit = info && info.unit;
    if (unit && moves.some((a) => a.unit === unit)) {
      this.selectMover(unit);
      return true;
    }
    return false;
  }

  selectMover(unit) {
    this.selected = unit;
    this.map.selectUnit(unit);
    const targets = this.legal("move").filter((a) => a.unit === unit);
    return this.engine.call("reachable", { unit: unit }).then((reach) => {
      const marks = {};
      targets.forEach((a) => {
        const entry = reach.hexes[a.to];
        const cost = entry ? Math.round(entry.cost * 100) / 100 : "";
        marks[a.to] = { cls: entry && entry.stop ? "reach stop" : "reach", text: String(cost) };
      });
      this.map.highlight(marks);
      this.render();
    }, this.onError);
  }

  button(text, onClick, attrs) {
    const node = el("button", Object.assign({ type: "button", text: text }, attrs || {}));
    node.addEventListener("click", onClick);
    return node;
  }

  prompt() {
    const view = this.view;
    const state = view.state;
    if (view.result) {
      const points = Object.keys(view.result.points)
        .map((side) => this.words({ side: side }).side + " " + view.result.points[side])
        .join(", ");
      return this.t("prompt.over", { winner: view.result.winner, points: points });
    }
    if (view.prompt) return this.t(view.prompt.key, view.prompt.params);
    if (view.chance) return this.t("prompt.chance." + view.chance.purpose, view.chance);
    if (state.retreat && !view.chance) {
      return this.t("prompt.retreat", { unit: state.retreat.unit });
    }
    if (state.counterattack && !view.chance) {
      return this.i18n.t("prompt.counterattack");
    }
    if (state.reaction) {
      return this.t("prompt.reaction", { target: state.reaction.melee.target });
    }
    if (state.phase === "formation") {
      const active = state.active;
      if (active.facing_due) return this.t("prompt.facing", { unit: active.facing_due });
      return this.t("prompt." + active.step, { formation: active.formation });
    }
    if (state.phase === "rally") return this.t("prompt.rally", { side: state.rally.side });
    return "";
  }

  render() {
    const root = this.root;
    if (!this.view) {
      const nodes = [
        this.playable === false
          ? el("p", { class: "hint", text: this.i18n.t("ui.board_only") })
          : this.button(this.i18n.t("ui.new_game"), () => this.newGame(), { id: "new-game" }),
        this.savedPanel(),
      ].filter(Boolean); // no saved games: no list
      if (this.takes("crt") && this.playable !== false) nodes.push(this.crtTools());
      root.replaceChildren.apply(root, nodes);
      this.logRoot.replaceChildren();
      return;
    }
    const view = this.view;
    const state = view.state;
    const bar = this.playBar(view);
    const nodes = [
      bar,
      el("p", {
        class: "turn",
        text: this.t("ui.turn", { turn: state.turn, turns: state.turns }),
      }),
      el("p", { class: "prompt", "data-phase": state.phase, text: this.prompt() }),
    ];
    if (view.prompt && view.prompt.side && view.prompt.side !== state.side) {
      // An interrupt: the other player decides (pass the tablet).
      nodes.push(
        el("p", {
          class: "handover",
          "data-side": view.prompt.side,
          text: this.t("ui.handover", { side: view.prompt.side }),
        }),
      );
    }
    if (view.combat) nodes.push(this.combatPanel(view.combat));
    if (view.chance) nodes.push(this.chancePanel(view.chance));
    else if (!view.result) nodes.push(this.actionsPanel());
    if (state.army) nodes.push(this.armyLine(state.army));
    if (view.crt) nodes.push(this.crtLabel(view.crt), this.crtTools());
    root.replaceChildren.apply(root, nodes);
    this.renderLog();
  }

  // New game, undo, redo, save and the saved games, for the game in view.
  playBar(view) {
    return el("div", { class: "play-bar" }, [
      this.button(this.i18n.t("ui.new_game"), () => this.newGame(), { id: "new-game" }),
      this.button(
        this.i18n.t("ui.undo"),
        () => this.call("undo"),
        view.can_undo ? { id: "undo" } : { id: "undo", disabled: "disabled" },
      ),
      this.button(
        this.i18n.t("ui.redo"),
        () => this.call("redo"),
        view.can_redo ? { id: "redo" } : { id: "redo", disabled: "disabled" },
      ),
      this.button(this.i18n.t("ui.save_game"), () => this.download(), { id: "save-game" }),
      this.button(this.i18n.t("ui.saved_games"), () => this.openSaved(), { id: "saved-games" }),
    ]);
  }

  armyLine(army) {
    const text = Object.keys(army)
      .map(
        (side) =>
          this.words({ side: side }).side +
          " " +
          army[side].points +
          (army[side].level !== "normal"
            ? " (" + this.i18n.t("army_level." + army[side].level) + ")"
            : ""),
      )
      .join(" · ");
    return el("p", { class: "army", text: this.i18n.t("ui.army", { armies: text }) });
  }

  // The close combat in progress: its step of the aid's twelve, who fights, the odds, and
  // (once they are known) every modifier with its rule and the exact odds of each result.
  combatPanel(c) {
    const nodes = [];
    if (c.number) {
      nodes.push(
        el("h3", {
          class: "combat-step",
          "data-number": String(c.number),
          text: this.i18n.t("ui.combat_step", {
            n: c.number,
            name: this.i18n.t("hh_step." + COMBAT_STEPS[c.number - 1]),
          }),
        }),
      );
    }
    const key = c.bombard ? "ui.bombardment_of" : "ui.combat_of";
    nodes.push(
      el("p", {
        class: "combat-who",
        text: this.t(key, { units: c.attackers, targets: c.targets }),
      }),
    );
    if (c.lead && (c.lead.attacker || c.lead.defender)) {
      nodes.push(
        el("p", {
          class: "combat-lead",
          text: this.t("ui.leads", { a: c.lead.attacker, d: c.lead.defender }),
        }),
      );
    }
    if (c.odds && !c.preview) {
      nodes.push(el("p", { class: "combat-odds", text: this.t("ui.odds", c.odds) }));
    }
    if (c.codes) {
      nodes.push(
        el("p", {
          class: "combat-result",
          text: this.t("ui.combat_result", { roll: c.roll, codes: c.codes.join(" + ") || "-" }),
        }),
      );
    }
    if (c.preview) nodes.push(this.previewBody(c.preview));
    return el("div", { class: "combat", "data-step": c.step }, nodes);
  }

  chancePanel(chance) {
    const cup = !chance.die;
    const roll = this.button(
      this.i18n.t(cup ? "ui.draw_digital" : "ui.roll_digital"),
      () => this.act({ type: "roll" }),
      { id: "roll", class: "primary" },
    );
    const faces = chance.faces.map((face) =>
      this.button(
        cup ? this.words({ formation: face.value }).formation : String(face.value),
        () => this.act({ type: "roll", value: face.value }),
        {
          class: "face",
          "data-value": String(face.value),
          title: Math.round(face.p * 1000) / 10 + " %",
        },
      ),
    );
    return el("div", { class: "chance" }, [
      roll,
      el("p", { class: "hint", text: this.i18n.t(cup ? "ui.or_draw" : "ui.or_type") }),
      el("div", { class: "faces" }, faces),
    ]);
  }

  actionsPanel() {
    const view = this.view;
    const nodes = [];
    const facing = this.legal("face");
    const active = view.state.active;
    if (active && active.facing_due) {
      nodes.push(this.facingPicker(facing));
    } else if (this.legal("move").length) {
      nodes.push(el("p", { class: "hint", text: this.i18n.t("ui.move_hint") }));
      if (this.selected) {
        const turns = facing.filter((a) => a.unit === this.selected);
        if (turns.length) {
          nodes.push(el("p", { class: "hint", text: this.i18n.t("ui.turn_in_place") }));
          nodes.push(this.facingPicker(turns));
        }
      }
    }
    const buttons = view.legal
      .filter((a) => a.type !== "move" && a.type !== "face")
      .filter((a) => a.type !== "square" || a.unit === this.selected)
      .map((a) => {
        const fight = (view.previewable || FIGHTS).indexOf(a.type) >= 0;
        return this.button(this.actionText(a), () => (fight ? this.preview(a) : this.act(a)), {
          class: "action" + (fight ? " fight" : ""),
          "data-action": a.type,
          "data-target": a.target || "",
        });
      });
    if (buttons.length) nodes.push(el("div", { class: "actions" }, buttons));
    return el("div", { class: "play-actions" }, nodes);
  }

  actionText(a) {
    if (a.type === "melee") {
      const names = a.attackers.map((u) => this.words({ unit: u }).unit).join(", ");
      let text = this.t("action.melee", a) + " " + this.i18n.t("ui.attackers", { units: names });
      if (a.charge) text += " — " + this.i18n.t("ui.charge");
      if (a.counter) text += " (" + this.i18n.t("ui.stand_in", { rule: "8.7" }) + ")";
      return text;
    }
    if (a.type === "square") {
      const words = this.words({ unit: a.unit });
      return this.i18n.t(a.form ? "log.square_formed" : "log.square_left", words);
    }
    if (a.type === "advance") {
      return this.t("action.advance", a) + " (" + this.i18n.t("ui.stand_in", { rule: "8.7" }) + ")";
    }
    if (a.type === "toggle_attacker") {
      const inside = this.view.combat && this.view.combat.attackers.indexOf(a.unit) >= 0;
      return this.t(inside ? "action.toggle_out" : "action.toggle_in", a);
    }
    if (a.type === "toggle_target") {
      const inside = this.view.combat && this.view.combat.targets.indexOf(a.hex) >= 0;
      return this.t(inside ? "action.untarget" : "action.target", a);
    }
    if (a.type === "fire" && a.with) {
      return this.t("action.fire", a) + " + " + this.words({ unit: a.with }).unit;
    }
    return this.t("action." + a.type, a);
  }

  // Before a fire or melee is taken: every modifier with its rule, and the exact odds.
  preview(action) {
    return this.engine.call("preview", { action: action }).then((answer) => {
      if (action.target) this.map.select(action.target);
      this.root.replaceChildren(
        el("p", { class: "prompt", text: this.actionText(action) }),
        el("h3", { text: this.i18n.t("ui.preview") }),
        this.previewBody(answer),
        el("div", { class: "actions" }, [
          this.button(this.i18n.t("ui.confirm"), () => this.act(action), {
            id: "confirm",
            class: "primary",
          }),
          this.button(this.i18n.t("ui.cancel"), () => this.render(), { id: "cancel" }),
        ]),
      );
    }, this.onError);
  }

  // Every modifier with its rule, the total, and each result with its exact chance.
  previewBody(answer) {
    const rows = answer.modifiers.map((m) =>
      el("li", { class: "modifier" }, [
        el("span", { class: "part-value", text: (m.value > 0 ? "+" : "") + m.value }),
        el("span", { class: "part-text", text: this.modifierText(m) }),
        el("span", {
          class: "rule",
          text:
            m.rule === "default"
              ? this.i18n.t("ui.default_rule")
              : this.i18n.t("ui.rule", { rule: m.rule }),
        }),
      ]),
    );
    const odds = answer.outcomes.map((o) => {
      const head = o.codes
        ? this.i18n.t("ui.on_rolls", {
            rolls: o.rolls.join(", "),
            codes: o.codes.join(" + ") || "-",
          }) + " — "
        : "";
      return el("li", { class: "outcome" }, [
        el("span", { class: "odds", text: Math.round(o.p * 1000) / 10 + " %" }),
        el("span", { text: head + this.outcomeText(o.outcome) }),
      ]);
    });
    const nodes = [];
    if (answer.odds)
      nodes.push(el("p", { class: "combat-odds", text: this.t("ui.odds", answer.odds) }));
    nodes.push(
      el("ul", { class: "modifiers" }, rows),
      el("p", { class: "total", text: this.i18n.t("ui.total", { total: answer.total }) }),
    );
    if (answer.target !== undefined) {
      nodes.push(
        el("p", { class: "hint", text: this.i18n.t("ui.target_roll", { target: answer.target }) }),
      );
    }
    nodes.push(el("ul", { class: "outcomes" }, odds));
    if (answer.provisional)
      nodes.push(el("p", { class: "hint", text: this.i18n.t("ui.provisional") }));
    if (answer.crt) nodes.push(this.crtLabel(answer.crt));
    return el("div", { class: "preview" }, nodes);
  }

  modifierText(m) {
    const params = this.words(Object.assign({}, m.params));
    if (params.terrain) params.terrain = this.i18n.t("terrain." + params.terrain);
    if (params.feature) params.feature = this.i18n.t("feature." + params.feature);
    return this.i18n.t(m.key, params);
  }

  outcomeText(outcome) {
    const none = this.i18n.t("ui.no_effect");
    return Object.keys(outcome)
      .map((side) => {
        const effects = outcome[side].map((e) =>
          typeof e === "string" ? this.i18n.t("effect." + e) : this.t(e.key, e.params),
        );
        return this.i18n.t("ui." + side) + ": " + (effects.join(", ") || none);
      })
      .join(" · ");
  }

  // Twelve facings: towards a hexside (even values, first row) or a vertex (odd, second row),
  // each drawn as an arrow at its angle on this map.
  facingPicker(actions) {
    const scenario = this.getScenario();
    const base = DIRECTION_0[(scenario && scenario.map.orientation) || "flat"];
    const ordered = actions
      .filter((a) => a.facing % 2 === 0)
      .concat(actions.filter((a) => a.facing % 2 === 1));
    return el(
      "div",
      { class: "facings" },
      ordered.map((a) => {
        const node = this.button("", () => this.act(a), {
          class: "facing",
          "data-facing": String(a.facing),
          "aria-label": this.i18n.t("ui.facing", { facing: a.facing }),
        });
        const angle = base + 30 * a.facing;
        node.innerHTML =
          '<svg viewBox="-12 -12 24 24" width="22" height="22" aria-hidden="true">' +
          '<g transform="rotate(' +
          angle +
          ')">' +
          '<line x1="-8" y1="0" x2="4" y2="0" stroke="currentColor" stroke-width="2.4"/>' +
          '<polygon points="10,0 2,-5 2,5" fill="currentColor"/></g></svg>';
        return node;
      }),
    );
  }

  // Newest entry first; the modifiers of a fire or melee stay listed under it.
  renderLog() {
    const groups = [];
    this.view.log.forEach((event) => {
      if (event.key === "log.modifier" && groups.length) {
        groups[groups.length - 1].push(event);
      } else {
        groups.push([event]);
      }
    });
    const items = [];
    groups.reverse().forEach((group) => {
      const head = el("li", { text: this.t(group[0].key, group[0].params) });
      if (group.length > 1) {
        head.appendChild(
          el(
            "ul",
            { class: "log-modifiers" },
            group.slice(1).map((m) =>
              el("li", {
                text:
                  (m.params.value > 0 ? "+" : "") +
                  m.params.value +
                  " " +
                  this.modifierText(m.params),
              }),
            ),
          ),
        );
      }
      items.push(head);
    });
    this.logRoot.replaceChildren(
      el("h3", { text: this.i18n.t("ui.log") }),
      el("ol", { class: "log", reversed: "reversed" }, items),
    );
  }

  download() {
    return this.engine.call("save", {}).then((save) => {
      downloadSave(save);
      this.lastSave = save;
    }, this.onError);
  }

  // Put a save in play (the core replays it, or refuses it and the game is kept): in `slot`
  // when resumed from the saved games, else in a new one.
  load(save, slot) {
    return this.engine.call("load_save", { save: save }).then((answer) => {
      this.setRules({ playable: true, options: answer.options });
      this.slot = slot || newSlot();
      this.show(answer.view);
      return answer.scenario;
    });
  }

  // Once the app has drawn the loaded game's scenario: its units where the game has them.
  opened() {
    this.drawUnits();
    this.render();
  }
}
