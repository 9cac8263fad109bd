// Play of an area-locale game on one tablet, passed between the players: each side sees its
// own blocks and the enemy's as bare blocks; between turns, and when the other side must
// decide (a block, a loss to choose), a privacy screen hands the tablet over. The core sends
// each side its own view only; this module draws it and reports taps.
import { el } from "./panels.js";
import { Play } from "./play.js";
import { newSlot } from "./games.js";

export class AreaPlay extends Play {
  constructor(opts) {
    super(opts);
    this.viewer = null;
    this.curtain = null;
    // The side the privacy screen waits for, while it is up (null when a side's view shows).
    this.covered = null;
  }

  // Locale ids and approaches ("A/B") in parameters, put into the map's names; phases and
  // reasons into words of the app.
  words(params) {
    const scenario = this.getScenario() || {};
    const locales = (scenario.map && scenario.map.locales) || [];
    const name = (id) => {
      const found = locales.find((l) => l.id === id);
      return found ? found.name : id;
    };
    const place = (value) => {
      if (typeof value !== "string") return value;
      const parts = value.split("/");
      return parts.length === 2 ? name(parts[0]) + " → " + name(parts[1]) : name(value);
    };
    const own = {};
    const rest = {};
    Object.keys(params).forEach((key) => {
      const value = params[key];
      if (["frm", "to", "locale", "at", "approach"].indexOf(key) >= 0) own[key] = place(value);
      else if (key === "phase") own[key] = this.i18n.t("al_phase." + value);
      else if (key === "why") own[key] = this.i18n.t("al_why." + value);
      else rest[key] = value;
    });
    return Object.assign(super.words(rest), own);
  }

  // Every request names the side looking at the screen.
  call(method, params) {
    const withViewer = Object.assign({ viewer: this.viewer }, params || {});
    return this.engine.call(method, withViewer).then(
      (view) => this.show(view),
      (error) => this.onError(error),
    );
  }

  // A new game opens on the privacy screen: the first side takes the tablet.
  start() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.viewer = null;
    return this.engine.call("new_game", { seed: seed }).then((view) => {
      this.slot = newSlot();
      this.view = view;
      this.viewer = null;
      this.autosave();
      return this.handOver(view.state.decider);
    }, this.onError);
  }

  reset() {
    this.hideCurtain();
    this.viewer = null;
    super.reset();
  }

  show(view) {
    this.view = view;
    this.viewer = view.viewer;
    this.autosave();
    const decider = view.state.decider;
    if (!view.result && decider !== this.viewer) return this.handOver(decider);
    this.draw();
    return view;
  }

  // The privacy screen: the map and panel are covered until the named side asks for its view;
  // nothing of any side's view stays drawn behind it.
  handOver(side) {
    this.covered = side;
    this.map.setPieces([]);
    this.map.light(null);
    this.root.replaceChildren();
    this.logRoot.replaceChildren();
    if (!this.curtain) {
      this.curtain = el("div", { class: "curtain", id: "curtain" });
      document.body.appendChild(this.curtain);
    }
    const name = this.words({ side: side }).side;
    const go = this.button(this.i18n.t("ui.al_show", { side: name }), () => this.reveal(side), {
      id: "curtain-go",
      class: "primary",
      "data-side": side,
    });
    this.curtain.replaceChildren(
      el("p", { class: "curtain-title", text: this.i18n.t("ui.al_hand_over", { side: name }) }),
      el("p", { class: "hint", text: this.i18n.t("ui.al_privacy") }),
      go,
    );
    this.curtain.hidden = false;
    return this.view;
  }

  hideCurtain() {
    this.covered = null;
    if (this.curtain) this.curtain.hidden = true;
  }

  reveal(side) {
    this.viewer = side;
    return this.engine.call("game_view", { viewer: side }).then((view) => {
      this.hideCurtain();
      this.view = view;
      this.draw();
    }, this.onError);
  }

  draw() {
    this.hideCurtain();
    this.drawUnits();
    this.lightLegal();
    this.render();
  }

  drawUnits() {
    if (!this.view) return;
    this.map.setHolders(this.view.state.held);
    this.map.setPieces(this.view.state.blocks);
    this.map.select(this.view.state.selection);
  }

  // Light what a tap may act on: pieces to select or choose, places to move or retreat to.
  lightLegal() {
    const marks = { locales: [], approaches: [], pieces: [] };
    const pending = this.view.state.pending;
    this.view.legal.forEach((a) => {
      if (a.unit && a.type !== "road") marks.pieces.push(a.unit);
      if (a.type === "move" || a.type === "retreat") {
        (a.to.indexOf("/") >= 0 ? marks.approaches : marks.locales).push(a.to);
      }
      if (a.type === "assault") marks.approaches.push(a.approach);
      if (a.type === "follow" && a.to && pending) {
        marks.approaches.push(this.followLocale() + "/" + a.to);
      }
    });
    this.map.light(marks);
  }

  followLocale() {
    const prompt = this.view.prompt;
    return prompt && prompt.params ? prompt.params.locale : "";
  }

  // A tap on the map: the one legal action it names, if any.
  onTap(target) {
    if (!this.view || !target) return false;
    const legal = this.view.legal;
    let found = [];
    if (target.kind === "piece") {
      found = legal.filter((a) => a.unit === target.id && a.type !== "road");
    } else if (target.kind === "approach") {
      found = legal.filter(
        (a) =>
          (a.type === "move" && a.to === target.id) ||
          (a.type === "assault" && a.approach === target.id) ||
          (a.type === "follow" && a.to && this.followLocale() + "/" + a.to === target.id),
      );
    } else if (target.kind === "locale") {
      found = legal.filter(
        (a) => (a.type === "move" || a.type === "retreat") && a.to === target.id,
      );
    }
    if (found.length !== 1) return false;
    this.act(found[0]);
    return true;
  }

  prompt() {
    const view = this.view;
    if (view.result) {
      return this.t("prompt.over", { winner: view.result.winner, points: view.result.points });
    }
    return view.prompt ? this.t(view.prompt.key, view.prompt.params) : "";
  }

  render() {
    if (!this.view) {
      super.render();
      return;
    }
    if (this.covered) {
      // Drawn again (a new language): still the privacy screen, never the view behind it.
      this.handOver(this.covered);
      return;
    }
    const view = this.view;
    const s = view.state;
    const bar = this.playBar(view);
    const army = Object.keys(s.army)
      .map((side) => this.words({ side: side }).side + " " + s.army[side])
      .join(" · ");
    const nodes = [
      bar,
      el("p", {
        class: "viewer",
        "data-side": view.viewer,
        text: this.t("ui.al_viewer", { side: view.viewer }),
      }),
      el("p", { class: "turn", text: this.t("ui.turn", { turn: s.turn, turns: s.turns }) }),
      el("p", { class: "prompt", "data-phase": s.phase, text: this.prompt() }),
      el("p", { class: "commands", text: this.t("ui.al_commands", { commands: s.commands }) }),
      el("p", { class: "army", text: this.i18n.t("ui.army", { armies: army }) }),
    ];
    if (s.assault) nodes.push(this.assaultLine(s.assault));
    if (!view.result) nodes.push(this.actionButtons());
    this.root.replaceChildren.apply(this.root, nodes);
    this.renderLog();
  }

  assaultLine(a) {
    const parts = [this.t("ui.al_assault", { frm: a.from, to: a.to })];
    if (a.result !== null && a.result !== undefined) {
      parts.push(this.t("ui.al_assault_result", { result: a.result }));
    }
    return el("p", { class: "assault", text: parts.join(" ") });
  }

  // The actions as buttons; the blocks a group may be made of fold away (taps on the map do
  // the same), once a group is chosen or when there are many of them.
  actionButtons() {
    const button = (a) =>
      this.button(this.actionText(a), () => this.act(a), {
        class: "action",
        "data-action": a.type,
        "data-target": a.to || a.approach || a.unit || "",
      });
    const selects = this.view.legal.filter((a) => a.type === "select");
    const others = this.view.legal.filter((a) => a.type !== "select");
    const nodes = [
      el("p", { class: "hint", text: this.i18n.t("ui.al_hint") }),
      el("div", { class: "actions" }, others.map(button)),
    ];
    if (selects.length) {
      const folded = el("details", { class: "blocks" }, [
        el("summary", { text: this.i18n.t("ui.al_blocks", { count: selects.length }) }),
        el("div", { class: "actions" }, selects.map(button)),
      ]);
      if (selects.length <= 4 && !this.view.state.selection.length) folded.open = true;
      nodes.splice(1, 0, folded);
    }
    return el("div", { class: "play-actions" }, nodes);
  }

  actionText(a) {
    const names = (ids) => ids.map((id) => this.words({ unit: id }).unit).join(", ");
    if (a.type === "lead" || a.type === "pursue") {
      const key = a.units.length ? "action.al_" + a.type : "action.al_" + a.type + "_none";
      const text = this.t(key, { units: names(a.units) });
      // The defender's leading blocks with its guns' fire or hold (offered when they may fire).
      if (a.fire === undefined) return text;
      return text + " · " + this.t(a.fire ? "action.al_fire" : "action.al_hold", {});
    }
    if (a.type === "select") {
      const inside = this.view.state.selection.indexOf(a.unit) >= 0;
      return this.t(inside ? "action.al_unselect" : "action.al_select", a);
    }
    if (a.type === "move") return this.t(a.attack ? "action.al_attack" : "action.al_move", a);
    if (a.type === "road") {
      const path = a.path.map((id) => this.words({ locale: id }).locale).join(" → ");
      return this.t("action.al_road", { unit: a.unit, path: path });
    }
    if (a.type === "block") return this.t(a.unit ? "action.al_block" : "action.al_no_block", a);
    if (a.type === "follow") return this.t(a.to ? "action.al_follow" : "action.al_stay", a);
    return this.t("action.al_" + a.type, a);
  }

  // A game resumed or loaded is not drawn: it opens on the privacy screen (see opened), so the
  // side now holding the tablet sees nothing the side to act hides.
  load(save, slot) {
    return this.engine.call("load_save", { save: save }).then((answer) => {
      this.setRules({ playable: true, options: answer.options });
      this.slot = slot || newSlot();
      this.view = answer.view;
      this.viewer = null;
      this.autosave();
      return answer.scenario;
    });
  }

  // Once the app has drawn the loaded game's map: the privacy screen of the side to act.
  opened() {
    const summary = this.view.summary || {};
    return this.handOver(summary.side || this.view.state.decider);
  }
}
