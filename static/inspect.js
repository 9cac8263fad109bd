// The hex map's inspection, outside a game's actions: what the rules know of a hex tapped,
// where a unit may move and by which path, and the line of sight between two hexes (the
// header's tool). Each is asked of the core, drawn on the map and in the hex panel; nothing
// here decides a rule.
import * as panels from "./panels.js";
import { el } from "./panels.js";

export class Inspection {
  // app: {engine, map (the hex map), i18n, state and els (the app's), show(view) (the hex
  // panel), showMessage(text, kind), errorText(error)}.
  constructor(app) {
    this.engine = app.engine;
    this.map = app.map;
    this.i18n = app.i18n;
    this.state = app.state;
    this.els = app.els;
    this.show = app.show;
    this.showMessage = app.showMessage;
    this.errorText = app.errorText;
  }

  // A failed question to the core, said above the panel.
  refused(error) {
    this.showMessage(this.errorText(error));
  }

  renderHexInfo(info) {
    this.state.lastInfo = info;
    this.show(() => panels.hexInfo(this.i18n, info));
  }

  scenarioUnit(id) {
    const units = (this.state.scenario && this.state.scenario.units) || [];
    return units.find((u) => u.id === id) || null;
  }

  clearBoardMarks() {
    this.state.unit = null;
    this.state.reach = null;
    this.map.selectUnit(null);
    this.map.highlight(null);
    this.map.setLines(null);
  }

  selectUnit(id) {
    const state = this.state;
    const map = this.map;
    return this.engine.call("reachable", { unit: id }).then(
      (answer) => {
        state.unit = id;
        state.reach = answer;
        state.selected = answer.from;
        map.select(answer.from);
        map.selectUnit(id);
        map.setLines(null);
        const marks = {};
        Object.keys(answer.hexes).forEach(function (label) {
          if (label === answer.from) return;
          const entry = answer.hexes[label];
          const cost = Math.round(entry.cost * 100) / 100;
          marks[label] = { cls: entry.stop ? "reach stop" : "reach", text: String(cost) };
        });
        map.highlight(marks);
        this.showMessage("");
        this.show(() => panels.reach(this.i18n, this.scenarioUnit(id), answer));
      },
      (error) => this.refused(error),
    );
  }

  showPath(label) {
    const unitId = this.state.unit;
    return this.engine.call("path", { unit: unitId, to: label }).then(
      (answer) => {
        this.map.setLines([{ hexes: answer.hexes, cls: "path" }]);
        this.map.select(label);
        this.state.selected = label;
        this.showMessage("");
        this.show(() => panels.path(this.i18n, this.scenarioUnit(unitId), answer));
      },
      (error) => this.refused(error),
    );
  }

  // The line of sight's answer at the top of the panel, under the tool's prompt, where the
  // player looks; null takes it away.
  showLos(answer) {
    const box = this.els.losResult;
    this.state.los = answer;
    box.hidden = !answer;
    box.replaceChildren.apply(box, answer ? panels.lineOfSight(this.i18n, answer) : []);
    if (answer) box.scrollIntoView({ block: "nearest" });
  }

  setMode(mode) {
    this.state.mode = mode;
    this.state.losFrom = null;
    this.showLos(null);
    this.els.losTool.setAttribute("aria-pressed", mode === "los" ? "true" : "false");
    this.clearBoardMarks();
    if (mode === "los") this.showMessage(this.i18n.t("ui.los_pick_from"), "info");
    else this.showMessage("");
  }

  losTap(label) {
    const state = this.state;
    const map = this.map;
    if (!state.losFrom) {
      state.losFrom = label;
      map.setLines(null);
      map.select(label);
      this.showMessage(this.i18n.t("ui.los_pick_to", { hex: label }), "info");
      return Promise.resolve();
    }
    const from = state.losFrom;
    state.losFrom = null;
    return this.engine.call("los", { from: from, to: label }).then(
      (answer) => {
        const lines = [];
        if (answer.clear) {
          lines.push({ from: from, to: label, cls: "los-clear" });
        } else {
          const t = answer.blocked_by.t;
          lines.push({ from: from, to: label, cls: "los-clear", t0: 0, t1: t });
          lines.push({ from: from, to: label, cls: "los-blocked", t0: t, t1: 1, mark: true });
        }
        map.setLines(lines);
        map.select(label);
        this.showMessage(this.i18n.t("ui.los_pick_from"), "info");
        this.showLos(answer);
      },
      (error) => this.refused(error),
    );
  }

  showHex(label) {
    const i18n = this.i18n;
    this.state.selected = label;
    this.map.select(label);
    if (!this.state.ready) {
      this.els.panel.replaceChildren(
        el("h2", { class: "hex-number", text: i18n.t("ui.hex_title", { hex: label }) }),
        el("p", { class: "hint", text: i18n.t("ui.rules_loading") }),
      );
      return Promise.resolve();
    }
    return this.engine.call("hex_info", { hex: label }).then(
      (info) => {
        this.state.lastInfo = info;
        this.showMessage("");
        this.renderHexInfo(info);
      },
      (error) => this.refused(error),
    );
  }
}
