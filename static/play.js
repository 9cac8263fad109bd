// Play: the turn's prompt, the actions the core lists as legal, dice at chance points (a
// digital roll or the face of a real die typed in, with each result's exact odds), the log,
// undo and redo, saves. Every decision is the core's: this module shows and reports.
import { el } from "./panels.js";

// Screen angle (degrees, clockwise from east) of hex direction 0 on each orientation.
const DIRECTION_0 = { flat: -30, pointy: -60 };
const AUTOSAVE = "muster.autosave";

export class Play {
  constructor(opts) {
    this.engine = opts.engine;
    this.map = opts.map;
    this.i18n = opts.i18n;
    this.onError = opts.onError;
    this.root = opts.root;
    this.logRoot = opts.logRoot;
    this.getScenario = opts.getScenario;
    this.onResume = opts.onResume;
    this.view = null;
    this.selected = null;
  }

  active() {
    return Boolean(this.view);
  }

  // Whether the scenario in play has rules to play by (the core says so when it loads).
  setPlayable(playable) {
    this.playable = playable;
    this.render();
  }

  reset() {
    this.view = null;
    this.selected = null;
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
      if (key === "unit") {
        const unit = (scenario.units || []).find((u) => u.id === value);
        if (unit) value = unit.name;
      } else if (key === "formation" || key === "value") {
        const formation = (scenario.formations || []).find((f) => f.id === value);
        if (formation) value = formation.name;
      } else if (key === "side" || key === "winner") {
        const side = (scenario.sides || []).find((s) => s.id === value);
        if (side) value = side.name;
        else if (value === null) value = this.i18n.t("ui.nobody");
      } else if (key === "step" || key === "purpose") {
        value = this.i18n.t("step." + value);
      } else if (key === "how") {
        value = this.i18n.t("ui.how_" + value);
      } else if (key === "status") {
        value = this.i18n.t("status." + value);
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

  start() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    return this.call("new_game", { seed: seed });
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
    }
    this.render();
    this.autosave();
    return view;
  }

  // Keep the game in the browser's storage after every change, so a reload or a closed tab
  // at the table loses nothing. A storage error is said, and play goes on.
  autosave() {
    return this.engine.call("save", {}).then((save) => {
      try {
        localStorage.setItem(AUTOSAVE, JSON.stringify(save));
      } catch (error) {
        this.onError({ key: "error.storage", params: { detail: String(error.message || error) } });
      }
    }, this.onError);
  }

  // The game kept in storage, if any (null when there is none or it cannot be read).
  stored() {
    try {
      const text = localStorage.getItem(AUTOSAVE);
      return text ? JSON.parse(text) : null;
    } catch (error) {
      return null;
    }
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
          }),
        ),
    );
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
      const stored = this.stored();
      const nodes = [
        this.playable === false
          ? el("p", { class: "hint", text: this.i18n.t("ui.board_only") })
          : this.button(this.i18n.t("ui.new_game"), () => this.start(), { id: "new-game" }),
      ];
      if (stored && stored.scenario) {
        const resume = this.button(
          this.i18n.t("ui.resume", {
            title: stored.scenario.title,
            moves: stored.actions ? stored.actions.length : 0,
          }),
          () => this.onResume(stored),
          { id: "resume", class: "primary" },
        );
        nodes.unshift(resume);
      }
      root.replaceChildren.apply(root, nodes);
      this.logRoot.replaceChildren();
      return;
    }
    const view = this.view;
    const state = view.state;
    const bar = el("div", { class: "play-bar" }, [
      this.button(this.i18n.t("ui.new_game"), () => this.start(), { id: "new-game" }),
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
    ]);
    const nodes = [
      bar,
      el("p", {
        class: "turn",
        text: this.t("ui.turn", { turn: state.turn, turns: state.turns }),
      }),
      el("p", { class: "prompt", "data-phase": state.phase, text: this.prompt() }),
    ];
    if (view.chance) nodes.push(this.chancePanel(view.chance));
    else if (!view.result) nodes.push(this.actionsPanel());
    root.replaceChildren.apply(root, nodes);
    this.renderLog();
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
        const fight = a.type === "fire" || a.type === "melee" || a.type === "reaction_fire";
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
    if (a.type === "fire" && a.with) {
      return this.t("action.fire", a) + " + " + this.words({ unit: a.with }).unit;
    }
    return this.t("action." + a.type, a);
  }

  // Before a fire or melee is taken: every modifier with its rule, and the exact odds.
  preview(action) {
    return this.engine.call("preview", { action: action }).then((answer) => {
      this.map.select(action.target);
      const rows = answer.modifiers.map((m) =>
        el("li", { class: "modifier" }, [
          el("span", { class: "part-value", text: (m.value > 0 ? "+" : "") + m.value }),
          el("span", { class: "part-text", text: this.modifierText(m) }),
          el("span", { class: "rule", text: this.i18n.t("ui.rule", { rule: m.rule }) }),
        ]),
      );
      const odds = answer.outcomes.map((o) =>
        el("li", { class: "outcome" }, [
          el("span", { class: "odds", text: Math.round(o.p * 1000) / 10 + " %" }),
          el("span", { text: this.outcomeText(o.outcome) }),
        ]),
      );
      this.root.replaceChildren(
        el("p", { class: "prompt", text: this.actionText(action) }),
        el("h3", { text: this.i18n.t("ui.preview") }),
        el("ul", { class: "modifiers" }, rows),
        el("p", { class: "total", text: this.i18n.t("ui.total", { total: answer.total }) }),
        el("ul", { class: "outcomes" }, odds),
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

  modifierText(m) {
    const params = Object.assign({}, m.params);
    if (params.terrain) params.terrain = this.i18n.t("terrain." + params.terrain);
    if (params.feature) params.feature = this.i18n.t("feature." + params.feature);
    return this.i18n.t(m.key, params);
  }

  outcomeText(outcome) {
    const none = this.i18n.t("ui.no_effect");
    return Object.keys(outcome)
      .map((side) => {
        const effects = outcome[side].map((e) => this.i18n.t("effect." + e));
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
      const blob = new Blob([JSON.stringify(save, null, 1)], { type: "application/json" });
      const link = el("a", {
        href: URL.createObjectURL(blob),
        download: save.scenario.id + ".save.json",
      });
      document.body.appendChild(link);
      link.click();
      link.remove();
      this.lastSave = save;
    }, this.onError);
  }

  load(save) {
    return this.engine.call("load_save", { save: save }).then((answer) => {
      this.show(answer.view);
      return answer.scenario;
    });
  }
}
